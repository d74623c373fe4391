/* routers/ecube.c — dimension-order (e-cube) routing; BookSim alias "dor".
 *
 * Hypercube: correct the differing address bits in descending dimension
 * order. Mesh: X (columns) first, then Y (rows). Deterministic, minimal,
 * deadlock-free with one VC per message class on a mesh or hypercube (the
 * channel dependency graph is acyclic), so one route class. */
#include "routers/routing.h"

static bool ecube_supports(const mpp_topo *t, const void *cfg, mpp_err *err)
{
    if (t->kind == MPP_TOPO_MESH || t->kind == MPP_TOPO_HYPERCUBE)
        return true;
    mpp_err_set(err, MPP_EINVAL, "router 'ecube' supports the mesh and hypercube topologies, not '%s'",
                t->ops->name);
    return false;
}

static uint32_t ecube_classes(const mpp_topo *t, const void *cfg) { return 1; }

static void ecube_route(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                        uint32_t in_port, mpp_route_state *st, mpp_rng *rng, mpp_route_out *out)
{
    out->port = mpp_routing_dor_step(t, r, st->dst, st->dst_router);
    out->route_class = 0;
}

static const char *const ecube_aliases[] = {"dor", "dim_order", "e-cube", NULL};

const mpp_routing_ops mpp_routing_ecube = {
    .name = "ecube",
    .aliases = ecube_aliases,
    .help = "dimension-order routing: mesh X then Y, hypercube highest bit first",
    .supports = ecube_supports,
    .route_classes = ecube_classes,
    .route = ecube_route,
};
