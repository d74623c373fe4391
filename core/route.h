/* core/route.h — the ops table of the routing plug-in family and the
 * per-packet route state (mpp_routing_ops, mpp_route_state). The engine
 * defines them and calls a routing only through the table; the plug-ins
 * live in routers/ (registered in routers/registry.c).
 *
 * A routing plug-in decides, for the head flit of a packet at a router, the
 * output port and the route class (SPEC 2, "VC classes"): the engine then
 * allocates a VC inside the range owned by (message class, route class).
 * Route state lives in the packet header (mpp_route_state), never in globals:
 * init_packet fills it at the source, route may advance it (e.g. a phase
 * ends at an intermediate node). route is called once per packet per router.
 */
#ifndef MPP_CORE_ROUTE_H
#define MPP_CORE_ROUTE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/err.h"
#include "core/base/param.h"
#include "core/base/rng.h"
#include "core/topo.h"

#define MPP_ROUTE_MAXPHASE 8

/* Per-packet routing state, carried in the packet header. */
typedef struct mpp_route_state {
    uint32_t src, dst;                     /* physical nodes */
    uint32_t dst_router;                   /* the router of dst's first link, set by the
                                              engine (no lookup per hop) */
    uint32_t target[MPP_ROUTE_MAXPHASE];   /* node each phase heads for; the
                                              last phase's target is dst */
    uint8_t phase;                         /* current phase */
    uint8_t nphases;                       /* phases in use (>= 1) */
    uint8_t flags;                         /* plug-in private bits */
    uint8_t route_class;                   /* class of the last hop */
} mpp_route_state;

/* A new packet's route state from src to dst: one phase to dst, the rest
 * zero (init_packet may add phases). */
static inline void mpp_route_state_init(mpp_route_state *st, const mpp_topo *t, uint32_t src,
                                        uint32_t dst)
{
    *st = (mpp_route_state){.src = src, .dst = dst, .nphases = 1};
    st->target[0] = dst;
    st->dst_router = t->node_router[dst];
}

/* What route returns: a local output port of the current router and the
 * route class of the VC to take there. */
typedef struct mpp_route_out {
    uint32_t port;
    uint32_t route_class;
} mpp_route_out;

typedef struct mpp_routing_ops mpp_routing_ops;

/* A routing plug-in (STYLE rule 5). Hooks that may be NULL: setup (no
 * per-network precomputation), init_packet (then the state is one phase to
 * dst), destroy. supports and route_classes are required. */
struct mpp_routing_ops {
    const char *name;
    const char *const *aliases;   /* NULL-terminated, or NULL */
    const char *help;
    bool test_only;               /* hidden from `mppnet list` */
    double stretch;               /* expected route length over the minimal distance
                                     (valiant: 2), a hint for ordering runs; 0: 1 */
    mpp_schema schema;
    /* True when the plug-in can route on t; else fill err with why. */
    bool (*supports)(const mpp_topo *t, const void *cfg, mpp_err *err);
    /* Number of route classes the plug-in uses (>= 1). */
    uint32_t (*route_classes)(const mpp_topo *t, const void *cfg);
    /* Precompute per-network data; *priv is passed back to the other hooks. */
    int (*setup)(const mpp_topo *t, const void *cfg, void **priv, mpp_err *err);
    /* Fill a new packet's route state (src, dst already set; phase 0). rng
     * is the source node's routing stream. */
    void (*init_packet)(const mpp_topo *t, const void *cfg, void *priv,
                        mpp_route_state *st, mpp_rng *rng);
    /* Route the head of a packet at router r that arrived on local port
     * in_port. rng is router r's stream. Must return a connected port. */
    void (*route)(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                  uint32_t in_port, mpp_route_state *st, mpp_rng *rng,
                  mpp_route_out *out);
    void (*destroy)(void *priv);
};

#endif
