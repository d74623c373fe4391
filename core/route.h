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

/* The routing relation (the static deadlock check, core/deadlock.c). A
 * packet's relation state at a router: the route class of the VC it holds
 * (MPP_ROUTE_INJECT: it has just been injected there), the node it is bound
 * for in that class (the target of its current phase; at injection, its
 * destination) and the plug-in's private bits (mpp_route_state.flags). */
#define MPP_ROUTE_INJECT 0xffffffffu

typedef struct mpp_route_hop {
    uint32_t port;          /* local output port of the router */
    uint32_t route_class;   /* class of the VC taken there */
    uint32_t to;            /* node then bound for */
    uint32_t flags;         /* private bits then (< 256) */
} mpp_route_hop;

/* Called once per hop the relation allows. */
typedef void (*mpp_route_emit)(void *ud, const mpp_route_hop *hop);

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
    /* The routing relation: every hop a head at router r may take, having
     * arrived on local port in_port (its node's port at injection) on a VC
     * of route class cls, bound for node `to` with private bits flags:
     * emit(ud, hop) once per (output port, class, next target, next bits),
     * random choices enumerated (a hop whose phase ends at the next router
     * is emitted once per next target the plug-in may draw). A hop out of a
     * port that ejects into node `to` ends the route. Must agree with route
     * and init_packet: every path route can take is a path of the relation.
     * NULL: no static check (mppnet check --deadlock says so). */
    void (*relation)(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                     uint32_t in_port, uint32_t cls, uint32_t to, uint32_t flags,
                     mpp_route_emit emit, void *ud);
    void (*destroy)(void *priv);
};

#endif
