/* routers/ecube.c — dimension-order (e-cube) routing; BookSim alias "dor".
 *
 * Hypercube: correct the differing address bits in descending dimension
 * order. Mesh: X (columns) first, then Y (rows). k-ary n-cube: the
 * dimensions in its configured order, each ring the shorter way round.
 * Butterfly: destination tag. Flattened butterfly: the lowest differing
 * dimension first (BookSim's ran_min on flatfly); dragonfly: local, global,
 * local (BookSim's min on dragonflynew), on two route classes, before and
 * from the global hop (routers/flydf.c). Deterministic and minimal; deadlock-free with
 * one route class on a mesh, hypercube, butterfly or k-ary n-cube without
 * rings (the channel dependency graph is acyclic), and with two on a
 * k-ary n-cube with a ring (the dateline rule, routers/dor.c). */
#include "routers/routing.h"

static bool ecube_supports(const mpp_topo *t, const void *cfg, mpp_err *err)
{
    if (t->kind == MPP_TOPO_MESH || t->kind == MPP_TOPO_HYPERCUBE || t->kind == MPP_TOPO_KARY ||
        t->kind == MPP_TOPO_BUTTERFLY || mpp_routing_is_flydf(t))
        return true;
    mpp_err_set(err, MPP_EINVAL,
                "router 'ecube' supports the mesh, hypercube, kary-ncube, butterfly, flatfly and "
                "dragonfly topologies, not '%s'",
                t->ops->name);
    return false;
}

static uint32_t ecube_classes(const mpp_topo *t, const void *cfg)
{
    return mpp_routing_is_flydf(t) ? mpp_routing_flydf_per_phase(t) : mpp_routing_ring_classes(t);
}

/* A k-ary n-cube: the step and its dateline class; a flatfly or dragonfly:
 * its minimal step and class (kept out of the mesh's and the hypercube's
 * path). */
static __attribute__((noinline)) void kary_route(const mpp_topo *t, uint32_t r, uint32_t in_port,
                                                 mpp_route_state *st, mpp_rng *rng,
                                                 mpp_route_out *out)
{
    if (mpp_routing_is_flydf(t)) {
        out->port = mpp_routing_flydf_port(t, r, st->dst);
        out->route_class = mpp_routing_flydf_class(t, out->port, 0,
                                                   mpp_routing_held_class(t, r, in_port, st));
        return;
    }
    out->port = mpp_routing_kary_port(t, r, st->dst, rng, NULL);
    out->route_class =
        mpp_routing_dor_class(t, r, in_port, out->port, 0, st->route_class, st->dst_router);
}

static void ecube_route(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                        uint32_t in_port, mpp_route_state *st, mpp_rng *rng, mpp_route_out *out)
{
    out->route_class = 0;
    if (__builtin_expect(t->kind == MPP_TOPO_KARY || t->kind >= MPP_TOPO_FLATFLY, 0)) {
        kary_route(t, r, in_port, st, rng, out);
        return;
    }
    out->port = mpp_routing_dor_step(t, r, st->dst, st->dst_router);
}

static void ecube_relation(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                           uint32_t in_port, uint32_t cls, uint32_t to, uint32_t flags,
                           mpp_route_emit emit, void *ud)
{
    if (mpp_routing_is_flydf(t)) {
        mpp_routing_flydf_relation(t, r, cls, to, MPP_FLYDF_MINIMAL, emit, ud);
        return;
    }
    mpp_routing_dor_hop(t, r, in_port, cls, 0, to, emit, ud);
}

static const char *const ecube_aliases[] = {"dor", "dim_order", "e-cube", "ran_min", NULL};

const mpp_routing_ops mpp_routing_ecube = {
    .name = "ecube",
    .aliases = ecube_aliases,
    .help = "dimension-order routing: mesh X then Y, hypercube highest bit first, kary-ncube "
            "in its order (datelines on rings), butterfly destination tag, flatfly lowest "
            "dimension first, dragonfly local-global-local",
    .supports = ecube_supports,
    .route_classes = ecube_classes,
    .route = ecube_route,
    .relation = ecube_relation,
};
