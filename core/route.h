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
    uint32_t misroute;      /* route_adaptive: 1 when the hop moves away from the
                               destination (counted per packet once it is taken) */
} mpp_route_out;

/* Adaptive routing (route_adaptive): what the engine tells the plug-in of
 * the head it routes and of the router's outputs. */
typedef struct mpp_route_ctx mpp_route_ctx;
struct mpp_route_ctx {
    /* How free local output port `port` of the router is for this head on
     * route class cls: 0 when no VC of (its message class, cls) can be
     * allocated to it now (all held; under cut-through, none with credits
     * for the whole packet); else 1 + the free credits of the port (all its
     * output VCs: the space left downstream). A port that ejects to a node:
     * 1 + the number of its free VCs of the class. The engine's is
     * net_route_free (core/network.c); tests give their own. */
    uint32_t (*free)(const mpp_route_ctx *x, uint32_t port, uint32_t cls);
    /* The flits local output port `port` of the router has sent and not
     * yet had credited back, over all its VCs: its downstream queue (what
     * BookSim's GetUsedCredit reads; UGAL's congestion measure). 0 for a
     * port that ejects to a node. May be NULL (tests): then every queue is
     * empty. */
    uint32_t (*used)(const mpp_route_ctx *x, uint32_t port);
    const void *net;        /* the engine's network (or a test's state) */
    uint32_t router;
    uint32_t in_class;      /* route class of the VC the head holds; MPP_ROUTE_INJECT
                               (0xffffffff) when it has just been injected */
    uint32_t waited;        /* cycles it has waited at this router for an output VC */
    uint32_t misroutes;     /* misroutes it has taken so far */
    uint32_t mclass, flits; /* its message class and length */
};

static inline uint32_t mpp_route_free(const mpp_route_ctx *x, uint32_t port, uint32_t cls)
{
    return x->free(x, port, cls);
}

static inline uint32_t mpp_route_used(const mpp_route_ctx *x, uint32_t port)
{
    return x && x->used ? x->used(x, port) : 0;
}

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
 * dst), destroy. supports and route_classes are required.
 * Threads (sim.threads, core/network.c mpp_net_threads): init_packet,
 * route and route_adaptive may run at once on several threads, for
 * different routers and packets, so they must treat priv and cfg as
 * read-only and write only the route state and the stream they are given. */
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
    /* Adaptive routing (NULL: oblivious). When set, the engine calls it
     * instead of route for every head at a router, and calls it again in
     * every cycle the head finds no output VC on the hop it chose: the
     * plug-in sees the outputs through mpp_route_free (x) and may pick
     * another. Changes it makes to st count only for the hop taken (the
     * engine restores st after a hop that found no VC). route must still
     * be given: the node side uses it to pick an all-port node's injection
     * link, and it is the hop taken when every output is free. */
    void (*route_adaptive)(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                           uint32_t in_port, mpp_route_state *st, mpp_rng *rng,
                           const mpp_route_ctx *x, mpp_route_out *out);
    /* Adaptive routing with escape channels: the route classes 0 .. E - 1
     * (E returned here) form the escape sub-network, a deadlock-free
     * routing of its own that a packet may always take; relation then
     * describes that sub-network alone (mppnet check --deadlock checks it,
     * Duato's condition). NULL: relation is the whole routing. */
    uint32_t (*escape_classes)(const mpp_topo *t, const void *cfg);
};

#endif
