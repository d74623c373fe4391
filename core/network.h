/* core/network.h — the flit-level network: channels, credits, virtual-channel
 * routers and node injection links (mpp_net_*). Internal to the engine: the
 * struct is open so core/sim.c (workload, sources, statistics) and the
 * invariant checker can reach the hot arrays, but nothing outside core/
 * includes this header.
 *
 * Indexing (all 32-bit): global router port g (topology.h) is both an input
 * endpoint and an output endpoint; node link l is output endpoint P + l (the
 * node injects) and input endpoint P + l (the node ejects). Every output
 * endpoint o drives one channel to input endpoint dst[o]. VC v of endpoint e
 * is e * V + v. A flit is a 32-bit word: packet handle << 2 | head << 1 | tail.
 */
#ifndef MPP_CORE_NETWORK_H
#define MPP_CORE_NETWORK_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/err.h"
#include "core/base/rng.h"
#include "core/base/strbuf.h"
#include "core/sections.h"
#include "core/route.h"
#include "core/topo.h"

#define MPP_NONE 0xffffffffu
#define MPP_FLIT_HEAD 2u
#define MPP_FLIT_TAIL 1u

/* A packet in flight (pool entry, 32-bit handle). */
typedef struct mpp_packet {
    uint32_t src, dst;       /* physical nodes */
    uint32_t flits;
    uint32_t hops;           /* inter-router links so far */
    uint64_t created;
    uint64_t injected;       /* head entered the injection channel */
    uint64_t tag;
    mpp_route_state route;
    uint32_t next_free;      /* pool free list */
    uint32_t eject_link;     /* node link it left the network by (nic: model) */
    uint8_t mclass;          /* message class */
    uint8_t measured;
    uint16_t pace;           /* 8.8 network cycles per flit at injection; 0: link rate */
} mpp_packet;

/* A packet waiting at its source, not yet in the pool (SPEC 2: source
 * queues hold creation cycles, pool slots are taken at injection). */
typedef struct mpp_src_entry {
    uint64_t created;
    uint64_t tag;
    uint32_t dst;
    uint32_t flits;
    uint16_t pace;  /* 8.8 network cycles per flit at injection (the feeder's rate, at most
                       255.996); 0: link rate */
    uint8_t mclass;
    uint8_t measured;
} mpp_src_entry;

/* Growable ring of source entries. */
typedef struct mpp_srcq {
    mpp_src_entry *e;
    uint32_t head, count, cap;
} mpp_srcq;

/* Events on the timing wheels. */
typedef struct mpp_flit_ev {
    uint32_t in;    /* input endpoint */
    uint32_t flit;
    uint32_t vc;
} mpp_flit_ev;
typedef struct mpp_credit_ev {
    uint32_t out;   /* output endpoint */
    uint32_t vc;
} mpp_credit_ev;

/* Called by the network when a flit reaches a node (input endpoint P + l). */
typedef void (*mpp_eject_fn)(void *ud, uint32_t node, uint32_t flit, uint64_t cycle);

typedef struct mpp_net {
    /* configuration (copied at create) */
    const mpp_topo *topo;
    const mpp_routing_ops *routing;
    const void *routing_cfg;
    void *routing_priv;
    uint32_t V, B, delay, link_lat, credit_lat;
    uint32_t route_classes, message_classes, vcs_per_class;
    int flow, allocator;
    uint32_t P, L, NE;            /* router ports, node links, endpoints = P + L */

    /* channels */
    uint32_t *dst;                /* [NE] output endpoint -> input endpoint (MPP_NONE) */
    uint32_t *src;                /* [NE] input endpoint -> output endpoint (MPP_NONE) */
    uint8_t *sink;                /* [NE] output ejects into a node */
    uint32_t *sink_node;          /* [NE] that node (sink outputs only) */
    bool nic_model;               /* ejection limited by receive-FIFO credits */
    uint32_t *ej_credits;         /* [links x message classes] free receive-FIFO flits: the
                                     FIFO is shared by a node's links in equal parts */
    uint32_t fifo_flits;          /* each link's share, flits (nic_model) */
    /* node ports (docs/model.md "Node ports") */
    const uint32_t *pair;         /* topo->pair_link (all-port on a direct network: a packet
                                     routed to its node's ejection leaves by the link paired
                                     with the port it arrived on), else NULL */
    bool ej_one;                  /* one-port on a multi-link topology (mpp_net_one_port) */
    uint8_t *ej_busy;             /* [nodes] ej_one: a packet holds one of the node's ejection
                                     (sink) VCs, from its head's VC allocation to its tail */

    /* input VCs [P * V] */
    uint32_t *buf;                /* [P * V * B] flit words */
    uint16_t *ihead, *icount;
    uint32_t *iout;               /* routed output endpoint or MPP_NONE */
    uint32_t *iovc;               /* allocated output VC or MPP_NONE */
    uint16_t *ilo, *ihi;          /* VC range of the routed class */

    /* output VCs [NE * V] */
    uint32_t *credits;
    uint8_t *obusy;               /* allocated to a packet */
    uint32_t *va_ptr;             /* [NE] round-robin start for VC allocation */

    /* routers */
    uint32_t *rflits;             /* [routers] flits buffered */
    uint64_t *pmask;              /* [P] bit v: input VC v of the port is non-empty */
    uint8_t *in_local;            /* [P] local index of the global port */
    uint64_t *rmask;              /* [routers] bit i: local input port i is non-empty */
    uint8_t *rrot;                /* [routers] rotating first input for allocation */
    uint32_t *active;             /* dense list of routers with flits */
    uint32_t *active_pos;         /* [routers] position in active or MPP_NONE */
    uint32_t nactive;
    uint32_t *sa_in_ptr;          /* [P] input-port VC pointer */
    uint32_t *sa_out_ptr;         /* [P] output-port input pointer */
    uint32_t *acc_ptr;            /* [P] iSLIP accept pointer */
    mpp_rng *rrng;                /* [routers] routing streams */
    /* scratch for one router (max radix) */
    uint32_t *s_req_vc;           /* per input: chosen VC or MPP_NONE */
    uint64_t *s_out_mask;         /* per output: requesting inputs */
    uint64_t *s_grant;            /* per input (iSLIP): outputs granting */
    uint64_t *s_elig;             /* per input: eligible VCs this cycle */
    uint32_t *s_age_iv;           /* allocator age: a router's waiting input VCs, oldest first */
    uint64_t *s_age_key;          /* their packets' injection cycles */

    /* node injection links [L] */
    uint32_t *lpkt;               /* packet being injected or MPP_NONE */
    uint32_t *lsent;              /* flits of it sent */
    uint32_t *lvc;
    uint32_t *lq;                 /* [L] round-robin pointer over the class queues */
    uint64_t *lnext;              /* [L] a paced packet: earliest time of its next flit, in
                                     1/256 cycles */

    /* packet pool */
    mpp_packet *pkt;
    uint32_t pool_cap, free_head, pool_used;
    bool oom;                     /* the pool could not grow (the run must stop) */

    /* timing wheels */
    uint32_t W;                   /* power of two > max latency */
    mpp_flit_ev *fw;              /* [W * fcap] */
    uint32_t *fn;                 /* [W] */
    uint32_t fcap;
    mpp_credit_ev *cw;
    uint32_t *cn;
    uint32_t ccap;
    /* send cursors of the current cycle (set_cursors) */
    mpp_flit_ev *ev_router, *ev_node;
    uint32_t *ev_router_n, *ev_node_n;
    mpp_credit_ev *ev_credit;
    uint32_t *ev_credit_n;

    /* statistics hooks */
    uint64_t cycle;
    uint64_t last_progress;
    uint64_t flits_injected, flits_ejected, flit_hops;
    uint32_t peak_vc;
    bool count_channels;          /* inside the measurement window */
    uint64_t *chan_flits;         /* [NE] flits sent in the window */
    mpp_eject_fn on_eject;
    void *eject_ud;
    bool shuffle;
    mpp_rng shuffle_rng;
} mpp_net;

/* Build the network of section nc on topology t (t must outlive the
 * network); seed derives the routers' streams. With nc->nic == model each
 * node link's ejection is limited by its share of a receive FIFO of
 * fifo_packets packets of packet_flits flits, in equal shares of its links;
 * on an all-port direct network (t->pair_link) a share of less than one
 * packet is refused (MPP_EINVAL naming the recv_fifo_packets needed).
 * Checks VC classes against the routing's needs. With check_only, the
 * checks and the scalar fields only (no array is allocated: the network
 * can only be freed). Returns 0 or an error. */
int mpp_net_init(mpp_net *n, const mpp_topo *t, const mpp_net_config *nc, uint64_t seed,
                 uint32_t fifo_packets, uint32_t packet_flits, bool check_only, mpp_err *err);
void mpp_net_free(mpp_net *n);

/* One-port ejection on a topology whose nodes have several links: a
 * packet is allocated a VC of a node's ejection (sink) output only when no
 * other packet holds one of that node's (from its head's VC allocation to
 * its tail leaving the router), and, with nic: model, only when its
 * receive-FIFO share has room for it. Contention between two routers in
 * one cycle is resolved in router visit order. Call once after
 * mpp_net_init. Returns 0 or MPP_ENOMEM. */
int mpp_net_one_port(mpp_net *n, mpp_err *err);

/* Phase 1 of cycle n->cycle: deliver the credits and flits due now. */
void mpp_net_deliver(mpp_net *n);
/* Phase 2: every active router does route computation, VC and switch
 * allocation and switch traversal (hot). */
void mpp_net_routers(mpp_net *n);

/* Node link l: try to send one flit this cycle. If the link is idle and one
 * of the nq source queues q[0..nq-1] (one per message class, visited
 * round-robin) has a packet created before this cycle, start it (pool slot,
 * route init with rng). Returns true when the link still has work (a packet
 * in progress or a non-empty queue). */
bool mpp_net_inject(mpp_net *n, uint32_t l, mpp_srcq *q, uint32_t nq, mpp_rng *rng);

/* What k cycles of mpp_net_routers do to routers whose flits are all
 * blocked (nothing moves, no VC is allocated): each active router's
 * rotating input order (the order in which its inputs are offered free
 * output VCs) moves on once a cycle. For the clock's jump over a settled
 * network (mpp_net_settled). */
void mpp_net_routers_blocked(mpp_net *n, uint64_t k);

/* What k calls of mpp_net_inject on node link l do when every one of them
 * finds the link blocked (no free VC on it for the packet it picks, the
 * queues unchanged and their packets old): the round-robin pointer over the
 * queues moves on once a call (a link with no packet in progress is blocked
 * only under cut-through, when the first buffer cannot take a whole
 * packet). Used when the clock jumps over a settled network
 * (mpp_net_settled), so that the jump gives what stepping gives. */
void mpp_net_inject_blocked(mpp_net *n, uint32_t l, const mpp_srcq *q, uint32_t nq, uint64_t k);

/* nic: model — the processor read packet h from its receive FIFO: the
 * space it reserved is free again. */
void mpp_net_fifo_release(mpp_net *n, uint32_t h);

/* Return packet handle h to the pool (a packet the node layer consumed). */
void mpp_net_pkt_free(mpp_net *n, uint32_t h);

/* True when no router buffers a flit and no flit or credit is on its way:
 * the clock may jump. */
bool mpp_net_idle(const mpp_net *n);

/* True when no flit or credit is on its way along a link (flits may sit
 * blocked in buffers): with no flit moved for longer than any pacing gap,
 * the network is then at a fixed point until a node acts. */
bool mpp_net_settled(const mpp_net *n);

/* Flits currently in buffers and on channels. */
uint64_t mpp_net_flits_in_flight(const mpp_net *n);

/* Invariant checker (credits + occupancy + in flight == depth, ...). */
bool mpp_net_check(const mpp_net *n);

/* Append a report of what holds flits (for the deadlock report). */
void mpp_net_report(const mpp_net *n, mpp_sb *sb, uint32_t max_lines);

/* Source queue helpers. push may grow the ring (returns false on ENOMEM). */
bool mpp_srcq_push(mpp_srcq *q, const mpp_src_entry *e);
static inline mpp_src_entry *mpp_srcq_front(mpp_srcq *q) { return &q->e[q->head]; }
static inline void mpp_srcq_pop(mpp_srcq *q)
{
    q->head = (q->head + 1) & (q->cap - 1);
    q->count--;
}
void mpp_srcq_free(mpp_srcq *q);

#endif
