/* routers/valiant.c — Valiant's two-phase randomized routing.
 *
 * At the source a packet draws a uniformly random intermediate node r (from
 * the source's route-state stream); phase 0 routes to r, phase 1 from r to
 * the destination, each dimension-ordered (routers/dor.c) and each on its
 * own route class, so a phase-1 packet never waits for a phase-0 VC and the
 * two acyclic dependency graphs cannot close a cycle. Path length:
 * d(s, r) + d(r, t). Meshes and hypercubes. */
#include "routers/routing.h"

static bool valiant_supports(const mpp_topo *t, const void *cfg, mpp_err *err)
{
    if (t->kind == MPP_TOPO_MESH || t->kind == MPP_TOPO_HYPERCUBE)
        return true;
    mpp_err_set(err, MPP_EINVAL,
                "router 'valiant' supports the mesh and hypercube topologies, not '%s'",
                t->ops->name);
    return false;
}

static uint32_t valiant_classes(const mpp_topo *t, const void *cfg) { return 2; }

static void valiant_init(const mpp_topo *t, const void *cfg, void *priv, mpp_route_state *st,
                         mpp_rng *rng)
{
    st->nphases = 2;
    st->target[0] = mpp_rng_below(rng, t->nodes);
    st->target[1] = st->dst;
}

static void valiant_route(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                          uint32_t in_port, mpp_route_state *st, mpp_rng *rng, mpp_route_out *out)
{
    mpp_routing_phase_advance(t, r, st);
    out->port = mpp_routing_dor_port(t, r, st->target[st->phase]);
    out->route_class = st->phase;
}

const mpp_routing_ops mpp_routing_valiant = {
    .name = "valiant",
    .stretch = 2, /* d(s, r) + d(r, t), r uniform: twice the mean distance */
    .help = "two phases: to a random node, then to the destination, each dimension-ordered",
    .supports = valiant_supports,
    .route_classes = valiant_classes,
    .init_packet = valiant_init,
    .route = valiant_route,
};
