/* routers/xyyx.c — TEST ONLY: each packet picks XY or YX order at random at
 * its source and keeps it. Mixing the two orders on one VC class closes
 * cycles in the channel dependency graph, so a mesh under heavy load
 * deadlocks: this exists to exercise the deadlock watchdog and its report.
 * Hidden from `mppnet list`. */
#include "routers/routing.h"

static bool xyyx_supports(const mpp_topo *t, const void *cfg, mpp_err *err)
{
    if (t->kind == MPP_TOPO_MESH)
        return true;
    mpp_err_set(err, MPP_EINVAL, "router 'xyyx' supports the mesh topology only");
    return false;
}

static uint32_t xyyx_classes(const mpp_topo *t, const void *cfg) { return 1; }

static void xyyx_init(const mpp_topo *t, const void *cfg, void *priv, mpp_route_state *st,
                      mpp_rng *rng)
{
    st->flags = (uint8_t)(mpp_rng_next(rng) >> 63);
}

static void xyyx_route(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                       uint32_t in_port, mpp_route_state *st, mpp_rng *rng, mpp_route_out *out)
{
    out->port = st->flags ? mpp_routing_dor_port_yx(t, r, st->dst)
                          : mpp_routing_dor_port(t, r, st->dst);
    out->route_class = 0;
}

/* The relation: the order drawn at the source is the private bit. */
static void xyyx_relation(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                          uint32_t in_port, uint32_t cls, uint32_t to, uint32_t flags,
                          mpp_route_emit emit, void *ud)
{
    for (uint32_t yx = 0; yx < 2; yx++)
        if (cls == MPP_ROUTE_INJECT || flags == yx) {
            mpp_route_hop h = {.port = yx ? mpp_routing_dor_port_yx(t, r, to)
                                          : mpp_routing_dor_port(t, r, to),
                               .to = to,
                               .flags = yx};
            emit(ud, &h);
        }
}

const mpp_routing_ops mpp_routing_xyyx = {
    .name = "xyyx",
    .help = "test only: random XY or YX per packet on one VC class (deadlocks)",
    .test_only = true,
    .supports = xyyx_supports,
    .route_classes = xyyx_classes,
    .init_packet = xyyx_init,
    .route = xyyx_route,
    .relation = xyyx_relation,
};
