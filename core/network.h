/* core/network.h — the flit-level network: channels, credits, virtual-channel
 * routers and node injection links (mpp_net_*). Internal to the engine: the
 * struct is open so core/sim.c (workload, sources, statistics) and the
 * invariant checker can reach the hot arrays, but nothing outside core/
 * includes this header.
 *
 * Indexing (all 32-bit): global router port g (topology.h) is both an input
 * endpoint and an output endpoint; node link l is output endpoint P + l (the
 * node injects) and input endpoint P + l (the node ejects). Every output
 * endpoint o drives one channel to input endpoint dst (mpp_net_dst). VC v
 * of endpoint e is named e << 6 | v in events and holders (at most 64 VCs).
 * A flit is a 32-bit word: packet handle << 2 | head << 1 | tail.
 *
 * Layout (docs/performance.md, "The engine"): every endpoint is one record
 * (mpp_port: its masks and pointers, its input VCs, output VCs and input
 * buffers side by side), a router one mpp_router; a router's ports are
 * consecutive records, so a router-cycle touches a few cache lines at any
 * network size. Readiness is kept up to date on events (a flit or credit
 * arriving, a flit leaving), never rescanned.
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

/* A packet in flight (pool entry, 32-bit handle). Two 64-byte lines (the
 * pool is line-aligned): the first holds what route computation reads and
 * writes at every router, so routing a head touches one line of it. */
typedef struct mpp_packet {
    _Alignas(64) mpp_route_state route;
    uint32_t hops;           /* inter-router links so far */
    uint32_t flits;
    uint8_t mclass;          /* message class */
    uint8_t measured;
    uint16_t pace;           /* 8.8 network cycles per flit at injection; 0: link rate */
    uint32_t eject_link;     /* node link it left the network by (nic: model) */
    uint64_t created;
    uint64_t injected;       /* head entered the injection channel */
    uint64_t tag;
    uint32_t src, dst;       /* physical nodes */
    uint32_t next_free;      /* pool free list */
    /* adaptive routing only (routing->route_adaptive) */
    uint64_t wait_since;     /* cycle its head was first routed at its current router */
    uint8_t rerouting;       /* its head waits at a router for an output VC */
    uint8_t misroutes;       /* non-minimal hops taken */
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

#define MPP_VC_NONE 0xffu
#define MPP_HOLD_LINK (MPP_NONE - 1u) /* an output VC held by its node link */

/* An input VC (16 bytes): its flits are a ring in the port's buffer. */
typedef struct mpp_ivc {
    uint32_t out;            /* routed output endpoint or MPP_NONE */
    uint16_t head, count;
    uint16_t ovc;            /* allocated output VC or MPP_VC_NONE */
    uint16_t lo, hi;         /* VC range of the routed class */
    uint16_t lout;           /* out as a local port of the router */
} mpp_ivc;                   /* (16-bit fields: a store through a char type would alias
                                every field the hot loop keeps in registers) */

/* An output VC (8 bytes). */
typedef struct mpp_ovc {
    uint32_t credits;        /* free slots downstream */
    uint32_t holder;         /* input VC holding it (global port << 6 | VC), MPP_HOLD_LINK, or
                                MPP_NONE: free */
} mpp_ovc;

/* One record per endpoint e (global router port, or node link P + l), of
 * n->stride bytes: this header, then V input VCs, V output VCs and the V
 * input buffers of B flit words. A router's ports are consecutive, so a
 * router's hot state is one contiguous block (docs/performance.md). */
typedef struct mpp_port {
    uint64_t ready;          /* bit v: its front flit may leave now: allocated, and a credit
                                (or a sink output) */
    uint64_t wait;           /* bit v: its front flit is a head waiting for route or VC
                                allocation */
    uint64_t chan;           /* flits sent on the output channel in the window */
    uint32_t dst;            /* output endpoint -> input endpoint (MPP_NONE) */
    uint32_t src;            /* input endpoint -> output endpoint (MPP_NONE) */
    uint32_t router;         /* router of a router port */
    uint32_t sink_node;      /* the node a sink output ejects into */
    uint8_t sink;            /* the output ejects into a node */
    uint8_t xlat;            /* cycles its link takes beyond link_latency (both ways, and
                                its credits: topo->port_len) */
    uint16_t local;          /* local index of a router port */
    uint16_t va_ptr;         /* round-robin start for VC allocation on the output */
    uint16_t sa_in;          /* input-port VC pointer */
    uint16_t sa_out;         /* output-port input pointer */
    uint16_t acc;            /* iSLIP accept pointer */
    uint16_t dcol;           /* wheel column of dst's router's chunk (set_chunks) */
    uint16_t scol;           /* wheel column of src's router's chunk (credits) */
    uint8_t lo8[8];          /* input VC v < 8: its lout (set with it; read for routed VCs
                                only), so that requests are read from this line */
} mpp_port;                  /* 64 bytes: one cache line */

/* A router: which of its inputs can send or wait (bit i: local
 * input port i) and its flits. One 64-byte line (the array is line-aligned):
 * a router's visit reads one line of it. */
typedef struct mpp_router {
    uint64_t ready, wait;
    uint32_t flits;          /* flits buffered */
    uint32_t base, np;       /* first global port, ports */
    uint32_t pos;            /* unordered: position in the active list, or MPP_NONE */
    uint32_t rot;            /* rotating first input for allocation */
    uint32_t pad[7];
} mpp_router;

/* A node injection link. */
typedef struct mpp_link {
    uint32_t pkt;            /* packet being injected or MPP_NONE */
    uint32_t sent;           /* flits of it sent */
    uint32_t vc;
    uint32_t q;              /* round-robin pointer over the class queues */
    uint64_t next;           /* a paced packet: earliest time of its next flit, in 1/256
                                cycles */
} mpp_link;

/* A flit on its way to input VC `to` (endpoint << 6 | VC). */
typedef struct mpp_flit_ev {
    uint32_t to;
    uint32_t flit;
} mpp_flit_ev;

/* One slot of a timing wheel: the flits and credits due in one cycle to
 * one chunk of routers or to the node side (credits: output endpoint << 6
 * | VC). Grown on demand. */
typedef struct mpp_slot {
    mpp_flit_ev *f;
    uint32_t *c;
    uint32_t nf, nc, fcap, ccap;
} mpp_slot;

struct mpp_par;
struct mpp_net_part;
struct mpp_net;

/* Called by the network when a flit reaches a node (input endpoint P + l). */
/* Threads: called on thread t, in each cycle's parallel phase, after the
 * thread's routers, with the thread's view of the network (its wheel, its
 * counters, its reserve of packet slots: mpp_net_reserve): what the
 * simulation does there (its share of the injection) must touch only
 * what belongs to thread t. */
typedef void (*mpp_part_fn)(void *ud, struct mpp_net *view, uint32_t t);

typedef void (*mpp_eject_fn)(void *ud, uint32_t node, uint32_t flit, uint64_t cycle);

typedef struct mpp_net {
    /* configuration (copied at create) */
    const mpp_topo *topo;
    const mpp_routing_ops *routing;
    const void *routing_cfg;
    void *routing_priv;
    uint32_t V, B, delay, link_lat, credit_lat;
    bool wtc;                     /* wait_for_tail_credit */
    bool bsx;                     /* wtc or reuse_at: allocation checks them (vc_refused) */
    bool tail_hook;               /* ej_one or reuse_at: a tail's traversal calls tail_left */
    uint32_t xs;                  /* input_speedup */
    uint16_t *xacc, *xsa;         /* [NE * xs] (xs > 1): accept and VC pointers of each
                                     crossbar input */
    uint64_t *s_xelig, *s_xgrant; /* [max_radix * xs] (xs > 1): scratch of the speedup
                                     iSLIP */
    uint32_t reuse;               /* vc_reuse_delay (> 1: reuse_at is kept) */
    uint64_t *reuse_at;           /* [NE * V] or NULL: the cycle from which output VC
                                     (endpoint, v) may be allocated again */
    uint32_t route_classes, message_classes, vcs_per_class;
    int flow, allocator;
    uint32_t P, L, NE;            /* router ports, node links, endpoints = P + L */

    /* endpoints: records of `stride` bytes (mpp_port, then ivc, ovc, buffers) */
    char *arena;
    void *arena_base;             /* the mapping holding arena (NULL: from calloc) */
    size_t arena_len;
    size_t stride;
    uint32_t ovc_off;             /* byte offset of the output VCs in a record (the header) */
    uint32_t ivc_off, vcb;        /* byte offset of the input VCs' blocks, bytes per block
                                     (an mpp_ivc, then its B buffer words) */
    bool pf;                      /* the records are larger than the cache: fetch ahead */
    bool nic_model;               /* ejection limited by receive-FIFO credits */
    bool adaptive;                /* routing->route_adaptive: a waiting head is routed again
                                     every cycle (route_and_allocate_adaptive) */
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

    /* routers */
    mpp_router *rt;               /* [routers], line-aligned */
    mpp_rng *rrng;                /* [routers] routing streams (used at route computation only,
                                     so kept out of the router's line) */
    uint32_t *active;             /* dense list of routers with flits, in the order they
                                     became active (the visiting order) */
    uint32_t nactive;             /* routers in the active list (unordered only: ordered
                                     visiting keeps amask) */
    bool ordered;                 /* visit them in ascending id order instead (amask):
                                     mpp_net_order */
    uint64_t *amask;              /* ordered: bit r: router r has flits */
    /* scratch for one router (max radix) */
    uint32_t *s_req_vc;           /* per input: chosen VC or MPP_NONE */
    uint64_t *s_out_mask;         /* per output: requesting inputs */
    uint64_t *s_grant;            /* per input (iSLIP): outputs granting */
    uint64_t *s_elig;             /* per input: eligible VCs this cycle */
    uint32_t *s_age_iv;           /* allocator age: a router's waiting input VCs, oldest first */
    uint64_t *s_age_key;          /* their packets' injection cycles */

    /* node injection links [L] */
    mpp_link *link;

    /* packet pool: grown on demand (slots from a counter, then a free list) */
    mpp_packet *pkt;
    uint32_t pool_cap, pool_next, free_head, pool_used;
    bool oom;                     /* the pool could not grow (the run must stop) */

    /* timing wheel */
    uint32_t W;                   /* power of two > max latency */
    uint32_t csh, nchunks, NQ;    /* routers r >> csh form a fine chunk; NQ = nchunks + 1 */
    uint32_t cx, ncur;            /* ordered: the chunks in use are 2^cx fine chunks each
                                     (ncur of them), sized to the traffic (rechunk) */
    uint64_t cev;                 /* router-side events delivered since the last sizing */
    uint32_t cwin, cnext;         /* cycles visited since then; the next sizing after cnext */
    uint32_t rechunks;            /* times the chunk size changed */
    mpp_slot *wheel;              /* [W rows x NQ]: per cycle a slot per chunk of routers
                                     (only chunk 0 unless ordered), then the node side
                                     (column nchunks) */
    /* send cursors of the current cycle (set_cursors): the slots written (a row's first chunk,
       its node column) */
    mpp_slot *ev_router, *ev_node, *ev_credit, *ev_cnode;

    /* statistics hooks */
    uint64_t cycle;
    uint64_t last_progress;
    uint64_t flits_injected, flits_ejected, flit_hops;
    uint64_t pkts_started;        /* packets mpp_net_inject took from a source queue */
    uint32_t peak_vc;
    bool count_channels;          /* inside the measurement window */
    mpp_eject_fn on_eject;
    void *eject_ud;
    bool shuffle;
    mpp_rng shuffle_rng;

    /* threads (mpp_net_threads; docs/scaling.md) */
    uint32_t nthreads;            /* threads advancing the routers: 1 is the serial path */
    struct mpp_net_part *part;    /* [nthreads]: each thread's block of routers, its view of
                                     the network (own wheel, cursors, scratch, counters) */
    struct mpp_par *par;          /* the team (one barrier per cycle) */
    mpp_slot **wheels;            /* [nthreads]: the wheel each thread sends into; wheels[0]
                                     is wheel (the serial phases send there too) */
    mpp_part_fn part_fn;          /* or NULL: the simulation's share of each thread's phase */
    void *part_ud;
    uint32_t cxmax;               /* the chunk sizing keeps cx at most this (threads: a chunk
                                     never straddles two threads' blocks) */
} mpp_net;

static inline mpp_port *mpp_net_port(const mpp_net *n, uint32_t e)
{
    return (mpp_port *)(void *)(n->arena + (size_t)e * n->stride);
}
static inline mpp_ivc *mpp_port_ivc(const mpp_net *n, mpp_port *p, uint32_t v)
{
    return (mpp_ivc *)(void *)((char *)p + n->ivc_off + (size_t)v * n->vcb);
}
static inline mpp_ovc *mpp_port_ovc(const mpp_net *n, mpp_port *p, uint32_t v)
{
    return (mpp_ovc *)(void *)((char *)p + n->ovc_off) + v;
}
static inline uint32_t *mpp_port_buf(const mpp_net *n, mpp_port *p, uint32_t v)
{
    return (uint32_t *)(void *)(mpp_port_ivc(n, p, v) + 1);
}
/* Output endpoint o's channel: the input endpoint it drives, or MPP_NONE. */
static inline uint32_t mpp_net_dst(const mpp_net *n, uint32_t o) { return mpp_net_port(n, o)->dst; }
/* Flits sent on output endpoint o's channel inside the window. */
static inline uint64_t mpp_net_chan_flits(const mpp_net *n, uint32_t o)
{
    return mpp_net_port(n, o)->chan;
}
/* Output VC v of endpoint o is held by a packet. */
static inline bool mpp_net_ovc_busy(const mpp_net *n, uint32_t o, uint32_t v)
{
    return mpp_port_ovc(n, mpp_net_port(n, o), v)->holder != MPP_NONE;
}

/* Build the network of section nc on topology t (t must outlive the
 * network); seed derives the routers' streams. With nc->nic == model each
 * node link's ejection is limited by its share of a receive FIFO of
 * fifo_packets packets of packet_flits flits, in equal shares of its links;
 * on an all-port direct network (t->pair_link) a share of less than one
 * packet is refused (MPP_EINVAL naming the recv_fifo_packets needed).
 * Checks VC classes against the routing's needs. With check_only, the
 * checks and the scalar fields only (no array is allocated: the network
 * can only be freed). Refuses (MPP_EINVAL, with the sizes) a network
 * whose mpp_net_bytes is above mpp_sysmem_limit, before allocating.
 * Returns 0 or an error. */
int mpp_net_init(mpp_net *n, const mpp_topo *t, const mpp_net_config *nc, uint64_t seed,
                 uint32_t fifo_packets, uint32_t packet_flits, bool check_only, mpp_err *err);
void mpp_net_free(mpp_net *n);

/* The bytes mpp_net_init allocates for a network of `routers` routers,
 * `endpoints` channel endpoints (router ports + node links) and `links`
 * node links, with V VCs of B flits on every endpoint: the endpoint
 * records (the bulk: docs/performance.md, "Memory"), the routers' lines
 * and streams, the links, the first packet pool and the timing wheel's
 * first slots. What traffic adds later (more packets in flight, grown
 * slots) is not in it. Pure arithmetic. */
uint64_t mpp_net_bytes(uint64_t routers, uint64_t endpoints, uint64_t links, uint32_t V,
                       uint32_t B, uint32_t message_classes);

/* One-port ejection on a topology whose nodes have several links: a
 * packet is allocated a VC of a node's ejection (sink) output only when no
 * other packet holds one of that node's (from its head's VC allocation to
 * its tail leaving the router), and, with nic: model, only when its
 * receive-FIFO share has room for it. Contention between two routers in
 * one cycle is resolved in router visit order. Call once after
 * mpp_net_init. Returns 0 or MPP_ENOMEM. */
int mpp_net_one_port(mpp_net *n, mpp_err *err);

/* Visit the active routers in ascending id order from now on (the network
 * must be empty). The visiting order decides nothing but the order of the
 * routers' sends when no state is shared between routers — no one-port
 * ejection (ej_one), no shuffled order, and no node layer that reads the
 * arrivals of one cycle in order — and ascending order keeps neighbouring
 * routers' records near in memory (docs/performance.md). */
void mpp_net_order(mpp_net *n);

/* Advance the routers on T threads from now on (T >= 2; the network must
 * be empty). Only an ordered network (mpp_net_order) is split: its routers
 * into T blocks of consecutive ids, each a whole number of the wheel's
 * chunks, each visited by one thread, each thread sending into its own
 * wheel; deliveries to nodes, injection and everything else stay on the
 * calling thread. On another network, or one with fewer chunks of 64
 * routers than T, fewer threads (n->nthreads, possibly 1) are used.
 * Results are those of the serial path for every T. Returns 0, or
 * MPP_ENOMEM / MPP_EINVAL (a thread refused) with err filled. */
int mpp_net_threads(mpp_net *n, uint32_t T, mpp_err *err);

/* Threads: let thread t's view allocate k packet slots in the next
 * parallel phase (a view takes slots only from its own reserve, never
 * grows the pool: a reserve too small stops the run as out of memory).
 * Grows the pool when needed: call between phases. Returns false when out
 * of memory. */
bool mpp_net_reserve(mpp_net *n, uint32_t t, uint32_t k);

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
