/* routers/misroute.c — minimal adaptive routing that misroutes under
 * congestion, in the spirit of the Chaos router (Konstantinidou and
 * Snyder 1990; Bolding et al. 1993), on meshes, hypercubes and k-ary
 * n-cubes.
 *
 * The router `adaptive` (routers/adaptive.c: minimal ports on the adaptive
 * class by most free credits, dimension-order escape classes), plus: a
 * head that has waited T cycles (`threshold`) at a router with every
 * minimal port blocked — no adaptive VC free on any minimal port, nor its
 * escape VC — may take any other port to a router (not the one it came in
 * by) that has a free adaptive VC, the most free credits first; at most m
 * (`max`) times per packet. After m misroutes it takes the escape classes
 * to its destination: dimension order, minimal, so it arrives. The
 * misroutes a packet took are counted (results: misroutes_mean,
 * misroutes_max).
 *
 * Deadlock freedom is adaptive's argument: a misrouted packet holds an
 * adaptive VC and can always ask for its escape hop from where it is; the
 * escape sub-network (the relation below) is acyclic. Livelock: at most m
 * non-minimal hops, then a minimal deterministic route.
 *
 * Where this differs from the Chaos router: that router is packet-switched
 * (virtual cut-through) with a central multi-queue per router and
 * misroutes a packet out of the multi-queue when it has waited too long;
 * here flow control is the engine's (wormhole or cut-through with VCs), and
 * deadlock freedom comes from escape channels instead of the Chaos
 * router's randomized misrouting argument (docs/routing.md). */
#include "routers/routing.h"

#include <stddef.h>

typedef struct misroute_cfg {
    uint32_t threshold;
    uint32_t max;
} misroute_cfg;

static const mpp_param misroute_params[] = {
    {"threshold", MPP_PT_U32, offsetof(misroute_cfg, threshold), "16", 0, 1000000, NULL,
     "T: cycles a head waits with no minimal adaptive VC free before it may misroute"},
    {"max", MPP_PT_U32, offsetof(misroute_cfg, max), "2", 0, 64, NULL,
     "m: misroutes per packet at most; after m, escape channels (minimal) to the destination"},
};

static bool misroute_supports(const mpp_topo *t, const void *cfg, mpp_err *err)
{
    return mpp_routing_supports_direct(t, "misroute", err);
}

static void misroute_route_x(const mpp_topo *t, const misroute_cfg *cfg, uint32_t r,
                             uint32_t in_port, mpp_route_state *st, mpp_rng *rng,
                             const mpp_route_ctx *x, uint32_t cls_in, uint32_t misroutes,
                             uint32_t waited, mpp_route_out *out)
{
    uint32_t E = mpp_routing_ring_classes(t);
    bool adaptive = r != st->dst_router && (cls_in == MPP_ROUTE_INJECT || cls_in >= E) &&
                    misroutes < cfg->max;
    if (adaptive && mpp_routing_adaptive_minimal(t, r, E, st, rng, x, out))
        return;
    mpp_routing_escape_hop(t, r, in_port, cls_in, E, st, rng, out);
    if (!adaptive || !x)
        return;
    /* every minimal adaptive VC blocked: wait for one for T cycles (asking
     * for the escape hop meanwhile would settle the packet on the escape
     * channels before it could misroute); then misroute if a port is free,
     * else take the escape hop */
    if (waited < cfg->threshold) {
        *out = (mpp_route_out){.port = out->port, .route_class = E};
        return;
    }
    uint32_t pick;
    if (mpp_routing_freest(mpp_routing_detour_ports(t, r, st->dst_router, in_port), E, rng, x,
                           &pick))
        *out = (mpp_route_out){.port = pick, .route_class = E, .misroute = 1};
}

static void misroute_route_adaptive(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                                    uint32_t in_port, mpp_route_state *st, mpp_rng *rng,
                                    const mpp_route_ctx *x, mpp_route_out *out)
{
    misroute_route_x(t, cfg, r, in_port, st, rng, x, x->in_class, x->misroutes, x->waited, out);
}

/* Without the engine's view: no port is blocked, so no misroute. */
static void misroute_route(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                           uint32_t in_port, mpp_route_state *st, mpp_rng *rng, mpp_route_out *out)
{
    misroute_route_x(t, cfg, r, in_port, st, rng, NULL, mpp_routing_held_class(t, r, in_port, st),
                     0, 0, out);
}

const mpp_routing_ops mpp_routing_misroute = {
    .name = "misroute",
    .aliases = (const char *const[]){"chaos", NULL},
    .help = "adaptive, and after T cycles with no minimal adaptive VC free any free "
            "non-minimal port, at most m times per packet (threshold, max)",
    .schema = {misroute_params, MPP_COUNTOF(misroute_params), sizeof(misroute_cfg)},
    .supports = misroute_supports,
    .route_classes = mpp_routing_adaptive_classes,
    .route = misroute_route,
    .route_adaptive = misroute_route_adaptive,
    .escape_classes = mpp_routing_escape_classes,
    .relation = mpp_routing_escape_relation,
};
