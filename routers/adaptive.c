/* routers/adaptive.c — minimal adaptive routing with dimension-order
 * escape channels (Duato 1993), on meshes, hypercubes and k-ary n-cubes.
 *
 * Route classes: 0 .. E - 1 are the escape classes (E = 2 on a k-ary
 * n-cube with a ring: the dateline rule of routers/dor.c; else 1), class E
 * the adaptive one. At every router a packet that holds an adaptive VC (or
 * was just injected) may take any minimal output port on the adaptive
 * class; the engine routes a waiting head again in every cycle
 * (route_adaptive), and the head takes the minimal port whose adaptive
 * class has a VC it can be allocated and the most free credits (ties by a
 * draw from the router's stream). When no minimal port has one, it asks
 * for its escape hop: dimension order from here, as if injected here. A
 * packet that holds an escape VC stays on the escape classes to its
 * destination (dimension order, minimal, deterministic).
 *
 * Deadlock freedom: the escape classes alone are dimension-order routing
 * with datelines, whose channel dependency graph is acyclic (the relation
 * below is that sub-network: mppnet check --deadlock checks it). A packet
 * on an adaptive VC can always ask for its escape hop, and a packet on
 * escape never asks for an adaptive VC again, so no dependency leads from
 * an escape channel through adaptive ones back to an escape channel
 * (Duato's extended dependencies are the direct ones); the escape
 * sub-network drains, and with it every adaptive VC its packets wait for
 * (docs/routing.md, "Adaptive and misrouting routers"). */
#include "routers/routing.h"

static bool adaptive_supports(const mpp_topo *t, const void *cfg, mpp_err *err)
{
    return mpp_routing_supports_direct(t, "adaptive", err);
}

static void adaptive_route_x(const mpp_topo *t, uint32_t r, uint32_t in_port, mpp_route_state *st,
                             mpp_rng *rng, const mpp_route_ctx *x, uint32_t cls_in,
                             mpp_route_out *out)
{
    uint32_t E = mpp_routing_ring_classes(t);
    if (r != st->dst_router && (cls_in == MPP_ROUTE_INJECT || cls_in >= E) &&
        mpp_routing_adaptive_minimal(t, r, E, st, rng, x, out))
        return;
    mpp_routing_escape_hop(t, r, in_port, cls_in, E, st, rng, out);
}

static void adaptive_route_adaptive(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                                    uint32_t in_port, mpp_route_state *st, mpp_rng *rng,
                                    const mpp_route_ctx *x, mpp_route_out *out)
{
    adaptive_route_x(t, r, in_port, st, rng, x, x->in_class, out);
}

/* Without the engine's view (the node side's choice of an all-port
 * node's link, tests): every minimal port as free as the others. */
static void adaptive_route(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                           uint32_t in_port, mpp_route_state *st, mpp_rng *rng, mpp_route_out *out)
{
    adaptive_route_x(t, r, in_port, st, rng, NULL, mpp_routing_held_class(t, r, in_port, st), out);
}

const mpp_routing_ops mpp_routing_adaptive = {
    .name = "adaptive",
    .help = "minimal adaptive (Duato): any minimal port on the adaptive class, the most free "
            "credits first; dimension-order escape classes (datelines on rings)",
    .supports = adaptive_supports,
    .route_classes = mpp_routing_adaptive_classes,
    .route = adaptive_route,
    .route_adaptive = adaptive_route_adaptive,
    .escape_classes = mpp_routing_escape_classes,
    .relation = mpp_routing_escape_relation,
};
