/* core/network.c — channels, credits, the virtual-channel router and node
 * injection links: the hot loop of the engine.
 *
 * Model. Channels carry one flit per cycle with latency link_lat; a credit
 * returns credit_lat cycles after its flit left the downstream buffer. A
 * router is input-queued with V VCs of B flits per input port. A flit that
 * crosses a link at cycle c may leave the next router at c + link_lat +
 * delay at the earliest (router_delay cycles of pipeline, folded into the
 * channel: see send_flit), so a head crossing H inter-router links takes
 * (H + 1) x delay + (H + 2) x link_lat cycles from injection to ejection and
 * the tail L - 1 more. The downstream buffer slot is reserved (by the
 * credit) from the moment the flit is sent.
 *
 * Per cycle (two-phase clock, so the visiting order cannot matter):
 *   mpp_net_deliver   credits and flits due this cycle land (written by
 *                     earlier cycles only: latencies are >= 1)
 *   mpp_net_routers   each active router: its input VCs waiting for a route
 *                     and a VC (the `wait` masks) try, in rotating input
 *                     order; then switch allocation among the `ready` VCs:
 *
 *       idle --route()--> routed --va()--> active --sa() win--> flit sent
 *         ^                                   |
 *         +------------- tail sent -----------+
 *
 *                     route: the routing plug-in, once per packet per router;
 *                     va: a free output VC in the range of (message class,
 *                     route class), round-robin; cut-through also needs
 *                     credits for the whole packet;
 *                     sa: separable input-first round-robin, or iSLIP with
 *                     one iteration; a winner needs a credit. The age
 *                     allocator does va and sa oldest packet first.
 *   mpp_net_inject    node links start packets and send flits (sim.c).
 * All sends write timing-wheel slots of later cycles.
 *
 * Invariants (mpp_net_check):
 *   1. for every non-sink output VC: credits + downstream occupancy + flits
 *      in flight to it + credits in flight back == B;
 *   2. an output VC is busy iff exactly one input VC (or node link) holds
 *      its allocation;
 *   3. flits_injected == flits_ejected + flits in buffers and channels;
 *   4. a router is in the active list (ordered: its amask bit is set) iff
 *      it buffers flits;
 *   5. one-port ejection (ej_one): at most one ejection VC of a node is
 *      busy, and ej_busy says whether one is;
 *   6. the masks: an input VC is `wait` iff it holds flits and no output
 *      VC, `ready` iff it holds flits, an output VC and (unless that output
 *      is a sink) a credit; a port's bit in its router's masks is set iff
 *      the port's mask is non-zero.
 *
 * Threads (mpp_net_threads, docs/scaling.md): an ordered network's
 * routers may be split into blocks of whole fine chunks, each delivered and
 * visited by one thread on its own view of this struct (own wheel,
 * cursors, scratch and counters; routers_par, part_run), with one barrier
 * per cycle; deliveries into nodes stay on the calling thread, which reads
 * the threads' node columns in thread order (= ascending router ids, the
 * serial path's order). A thread writes only its routers' records.
 *
 * Node ports (docs/model.md): all-port on a direct network redirects, in
 * route_and_allocate, a packet routed to its node's ejection port to the
 * node link paired with the port it arrived on (topo->pair_link; one
 * predictable branch per routed head); one-port on a multi-link topology
 * lets one packet of a node at a time hold an ejection VC (ej_busy).
 */
/* mmap's MAP_ANONYMOUS and madvise are not in POSIX 2008: glibc declares
 * them with _DEFAULT_SOURCE (big_alloc falls back to calloc without them). */
#define _DEFAULT_SOURCE 1

#include "core/network.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/base/strbuf.h"
#include "core/base/sysmem.h"
#include "core/par.h"

/* On a large network (records of more than PF_BYTES) each record is a
 * cache miss: deliveries fetch the records of the event PF_AHEAD places
 * ahead, and the visits of a chunk of routers are preceded by a pass that
 * fetches what they will read (chunk_prefetch), so that the misses overlap
 * instead of queueing (docs/performance.md). */
#define PF_AHEAD 16u
#define PF_BYTES 4e6 /* records of more bytes than this (twice the L2 of the machine measured)
                        are fetched ahead */

/* Ordered visiting sizes its chunks of routers to the traffic (rechunk):
 * every RECHUNK_CYCLES visited cycles, a chunk that received fewer than
 * RECHUNK_LO or more than RECHUNK_HI events a cycle is resized to receive
 * about RECHUNK_AIM. */
#define RECHUNK_CYCLES 256u
#define RECHUNK_LO 24u
#define RECHUNK_HI 384u
#define RECHUNK_AIM 96u
/* The first sizing comes after RECHUNK_FIRST visited cycles, from one
 * chunk: a sparse load on a large network is never visited in small
 * chunks, and a dense one is sized as soon as it has filled. */
#define RECHUNK_FIRST 64u

static void set_cursors(mpp_net *n);
static void set_chunks(mpp_net *n);
static void routers_par(mpp_net *n);

/* The wheel thread t sends into (t = 0: the network's own). */
static inline mpp_slot *wheel_of(const mpp_net *n, uint32_t t)
{
    return t ? n->wheels[t] : n->wheel;
}

/* Large zeroed arrays (the endpoint records): mapped with transparent huge
 * pages where the kernel allows it, since a large network's records span
 * far more 4 KB pages than the TLB holds (docs/performance.md). */
#define HUGE_MIN ((size_t)4 << 20)
#define HUGE_ALIGN ((size_t)2 << 20)

/* Zeroed memory aligned to a 64-byte cache line. */
static void *line_alloc(size_t bytes)
{
    size_t l = (bytes + 63) & ~(size_t)63;
    void *p = aligned_alloc(64, l ? l : 64);
    if (p)
        memset(p, 0, l ? l : 64);
    return p;
}

static void *big_alloc(size_t bytes, void **base, size_t *len)
{
    *base = NULL;
    *len = 0;
#ifndef MAP_ANONYMOUS
    return line_alloc(bytes);
#endif
    if (bytes < HUGE_MIN)
        return line_alloc(bytes);
    size_t l = bytes + HUGE_ALIGN;
    void *m = mmap(NULL, l, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    char *p = (char *)(((uintptr_t)m + HUGE_ALIGN - 1) & ~(uintptr_t)(HUGE_ALIGN - 1));
#ifdef MADV_HUGEPAGE
    (void)madvise(p, bytes, MADV_HUGEPAGE);
#endif
    *base = m;
    *len = l;
    return p;
}

static void big_free(void *p, void *base, size_t len)
{
    if (base)
        munmap(base, len);
    else
        free(p);
}

static uint32_t pow2_above(uint32_t x)
{
    uint32_t w = 1;
    while (w <= x)
        w <<= 1;
    return w;
}

#define POOL_FIRST 256u   /* packet slots allocated at start; doubled when used up */
#define SLOT_FIRST 16u    /* events a wheel slot holds when first used; doubled when full */

/* Bytes of one endpoint record with V VCs of B flits (mpp_net_init's
 * layout: the header line, V output VCs, V input VCs with their buffers,
 * rounded to whole lines). */
static uint64_t port_stride(uint32_t V, uint32_t B)
{
    uint64_t ivc_off = (sizeof(mpp_port) + (uint64_t)V * sizeof(mpp_ovc) + 15) & ~(uint64_t)15;
    uint64_t vcb = (sizeof(mpp_ivc) + (uint64_t)B * sizeof(uint32_t) + 15) & ~(uint64_t)15;
    return (ivc_off + (uint64_t)V * vcb + 63) & ~(uint64_t)63;
}

uint64_t mpp_net_bytes(uint64_t routers, uint64_t endpoints, uint64_t links, uint32_t V,
                       uint32_t B, uint32_t message_classes)
{
    uint64_t slot = SLOT_FIRST * (sizeof(mpp_flit_ev) + 8);
    uint64_t arena = endpoints * port_stride(V, B);
    return arena + (arena >= HUGE_MIN ? HUGE_ALIGN : 64)  /* the records, aligned */
           + routers * (sizeof(mpp_router) + sizeof(mpp_rng) + 4 + 1) /* rt, rrng, active,
                                                                        amask */
           + links * (sizeof(mpp_link) + 4 * (uint64_t)message_classes) /* links, credits */
           + POOL_FIRST * sizeof(mpp_packet)             /* the first packet pool */
           + 64 * ((routers >> 6) + 2) * (sizeof(mpp_slot) + slot); /* the wheel's slots */
}

int mpp_net_init(mpp_net *n, const mpp_topo *t, const mpp_net_config *nc, uint64_t seed,
                 uint32_t fifo_packets, uint32_t packet_flits, bool check_only, mpp_err *err)
{
    memset(n, 0, sizeof *n);
    n->topo = t;
    n->routing = nc->routing;
    n->routing_cfg = nc->routing_cfg.b;
    n->V = nc->vcs;
    n->B = nc->buffer_flits;
    n->delay = nc->router_delay;
    n->reuse = nc->vc_reuse_delay;
    n->xs = nc->input_speedup ? nc->input_speedup : 1;
    if (n->xs > 1 && nc->allocator != MPP_ALLOC_ISLIP)
        return mpp_err_set(err, MPP_EINVAL, "network: input_speedup %u needs allocator: islip "
                           "(the speedup is modelled in the iSLIP allocator only)", n->xs);
    if (n->xs > 1 && (uint64_t)n->xs * (t->max_radix ? t->max_radix : 1) > 64)
        return mpp_err_set(err, MPP_EINVAL, "network: input_speedup %u x the largest router "
                           "radix %u is above 64 crossbar inputs", n->xs, t->max_radix);
    n->wtc = nc->wait_for_tail_credit;
    n->link_lat = nc->link_latency;
    n->credit_lat = nc->credit_latency;
    n->flow = nc->flow;
    n->allocator = nc->allocator;
    n->message_classes = nc->message_classes;
    n->P = t->ports;
    n->L = t->links;
    n->NE = t->ports + t->links;
    n->shuffle = nc->shuffle_order;
    mpp_rng_init(&n->shuffle_rng, seed, MPP_RNG_SHUFFLE, 0);
    n->nthreads = 1;
    n->cxmax = 31;

    if (n->message_classes < 1)
        return mpp_err_set(err, MPP_EINVAL, "network: message_classes must be at least 1");
    for (uint32_t g = 0; t->port_len && g < t->ports; g++)
        if (t->port_len[g] > 1 && (uint64_t)(t->port_len[g] - 1) * n->link_lat > 255)
            return mpp_err_set(err, MPP_EINVAL,
                               "network: a link of length %u at link_latency %u takes %llu "
                               "cycles, above the limit of 256",
                               t->port_len[g], n->link_lat,
                               (unsigned long long)t->port_len[g] * n->link_lat);
    if (t->max_radix > 64)
        return mpp_err_set(err, MPP_EINVAL, "network: router radix %u is above the limit of 64",
                           t->max_radix);
    if (n->NE >= (1u << 26))
        return mpp_err_set(err, MPP_EINVAL,
                           "network: %u channel endpoints is above the limit of 2^26", n->NE);
    if (!n->routing->supports(t, n->routing_cfg, err))
        return MPP_EINVAL;
    n->route_classes = n->routing->route_classes(t, n->routing_cfg);
    uint32_t classes = n->route_classes * n->message_classes;
    if (nc->vcs_per_class)
        n->V = classes * nc->vcs_per_class;
    if (n->V < 1 || n->B < 1 || n->link_lat < 1 || n->credit_lat < 1)
        return mpp_err_set(err, MPP_EINVAL,
                           "network: vcs, buffer_flits, link_latency and credit_latency must all "
                           "be at least 1");
    if (n->V > 64)
        return mpp_err_set(err, MPP_EINVAL, "network: %u VCs per port is above the limit of 64%s",
                           n->V, nc->vcs_per_class ? " (vcs_per_class x classes)" : "");
    if (n->V < classes || n->V % classes) {
        char esc[96] = "";
        if (n->routing->escape_classes) {
            uint32_t e = n->routing->escape_classes(t, n->routing_cfg);
            snprintf(esc, sizeof esc, ": %u escape (dimension order%s) + %u adaptive", e,
                     e > 1 ? ", datelines" : "", n->route_classes - e);
        }
        return mpp_err_set(err, MPP_EINVAL,
                           "network: router '%s' needs vcs to be a multiple of %u "
                           "(%u message class%s x %u route class%s%s); vcs is %u "
                           "(or set vcs_per_class)",
                           n->routing->name, classes, n->message_classes,
                           n->message_classes == 1 ? "" : "es", n->route_classes,
                           n->route_classes == 1 ? "" : "es", esc, n->V);
    }
    n->vcs_per_class = n->V / classes;
    n->adaptive = n->routing->route_adaptive != NULL;
    if (n->routing->setup) {
        int rc = n->routing->setup(t, n->routing_cfg, &n->routing_priv, err);
        if (rc)
            return rc;
    }

    uint32_t P = n->P, NE = n->NE, V = n->V, B = n->B, R = t->routers;
    n->nic_model = mpp_nic_bounded(nc->nic);
    n->pair = t->pair_link;
    uint32_t fifo_flits = 0;
    if (n->nic_model) {
        if (fifo_packets < 1 || packet_flits < 1)
            return mpp_err_set(err, MPP_EINVAL,
                               "network: nic: model and dma need a receive FIFO of at least one packet");
        /* each of a node's links reserves in its own share of the FIFO (at
         * least one packet), so links never contend for the same space */
        uint32_t maxl = 1;
        for (uint32_t v = 0; v < t->nodes; v++)
            if (t->node_link_base[v + 1] - t->node_link_base[v] > maxl)
                maxl = t->node_link_base[v + 1] - t->node_link_base[v];
        uint64_t per = fifo_packets / maxl;
        if (t->pair_link && per < 1)
            return mpp_err_set(err, MPP_EINVAL,
                               "node.recv_fifo_packets is %u, but with ports: all a node has up "
                               "to %u links, each with its own share of the receive FIFO of at "
                               "least one packet: recv_fifo_packets must be at least %u",
                               fifo_packets, maxl, maxl);
        fifo_flits = (uint32_t)((per ? per : 1) * packet_flits);
        n->fifo_flits = fifo_flits;
    }
    /* one record per endpoint: the header, V output VCs, then for each
     * input VC a block of its state and its B buffer words, rounded up to
     * whole 64-byte lines (the arena is line-aligned, so the header is one
     * line, and a flit landing in a VC touches the header and its block) */
    n->ovc_off = (uint32_t)sizeof(mpp_port);
    n->ivc_off = (n->ovc_off + V * (uint32_t)sizeof(mpp_ovc) + 15) & ~15u;
    n->vcb = ((uint32_t)sizeof(mpp_ivc) + B * (uint32_t)sizeof(uint32_t) + 15) & ~15u;
    n->stride = ((size_t)n->ivc_off + (size_t)V * n->vcb + 63) & ~(size_t)63;
    assert(n->stride == port_stride(V, B));
    uint64_t bytes = mpp_net_bytes(R, NE, n->L, V, B, n->message_classes);
    uint64_t limit = mpp_sysmem_limit();
    if (bytes > limit) {
        char b1[32], b2[32], b3[32];
        return mpp_err_set(err, MPP_EINVAL,
                           "network: %u routers and %u channel endpoints of %s each (%u VCs of "
                           "%u flits) need about %s, above this machine's memory of %s "
                           "(docs/performance.md, \"Memory\")",
                           R, NE, mpp_sysmem_str(n->stride, b1, sizeof b1), V, B,
                           mpp_sysmem_str(bytes, b2, sizeof b2),
                           mpp_sysmem_str(limit, b3, sizeof b3));
    }
    if (check_only)
        return 0; /* mpp_sim_validate: the checks, no arrays */
    /* records beyond what the per-core cache holds: fetch ahead (PF_AHEAD) */
    n->pf = (double)n->stride * NE > PF_BYTES;

    bool ok = true;
    n->arena = big_alloc((size_t)NE * n->stride, &n->arena_base, &n->arena_len);
    n->rt = line_alloc((size_t)(R ? R : 1) * sizeof *n->rt);
    n->rrng = calloc(R ? R : 1, sizeof *n->rrng);
    n->active = calloc(R ? R : 1, sizeof *n->active);
    n->amask = calloc(((size_t)R + 63) / 64 + 1, sizeof *n->amask);
    n->link = calloc(n->L ? n->L : 1, sizeof *n->link);
    if (n->nic_model)
        ok &= (n->ej_credits = calloc((size_t)t->links * n->message_classes,
                                      sizeof *n->ej_credits)) != NULL;
    if (n->reuse > 1)
        ok &= (n->reuse_at = calloc((size_t)NE * V, sizeof *n->reuse_at)) != NULL;
    n->bsx = n->wtc || n->reuse_at;
    n->tail_hook = n->ej_one || n->reuse_at;
    uint32_t mr = t->max_radix ? t->max_radix : 1;
    n->s_req_vc = calloc(mr, sizeof *n->s_req_vc);
    n->s_out_mask = calloc(mr, sizeof *n->s_out_mask);
    n->s_grant = calloc(mr, sizeof *n->s_grant);
    n->s_elig = calloc(mr, sizeof *n->s_elig);
    if (n->xs > 1) {
        ok &= (n->xacc = calloc((size_t)NE * n->xs, sizeof *n->xacc)) != NULL;
        ok &= (n->xsa = calloc((size_t)NE * n->xs, sizeof *n->xsa)) != NULL;
        ok &= (n->s_xelig = calloc((size_t)mr * n->xs, sizeof *n->s_xelig)) != NULL;
        ok &= (n->s_xgrant = calloc((size_t)mr * n->xs, sizeof *n->s_xgrant)) != NULL;
    }
    if (n->allocator == MPP_ALLOC_AGE) {
        ok &= (n->s_age_iv = calloc((size_t)mr * n->V, sizeof *n->s_age_iv)) != NULL;
        ok &= (n->s_age_key = calloc((size_t)mr * n->V, sizeof *n->s_age_key)) != NULL;
    }
    n->pool_cap = POOL_FIRST;
    n->pkt = aligned_alloc(64, n->pool_cap * sizeof *n->pkt);
    /* the longest link (topo->port_len) sets how far ahead a send writes */
    uint32_t xmax = 0;
    for (uint32_t g = 0; t->port_len && g < P; g++)
        if (t->port_len[g] > 1 && (uint32_t)(t->port_len[g] - 1) * n->link_lat > xmax)
            xmax = (uint32_t)(t->port_len[g] - 1) * n->link_lat;
    uint32_t far = n->link_lat + n->delay + xmax;
    n->W = pow2_above(far > n->credit_lat + xmax ? far : n->credit_lat + xmax);
    /* one row of NQ slots per cycle: a slot per chunk of routers, then the
     * node side; the slots' arrays are grown on first use */
    n->csh = 6;
    while (((size_t)R >> n->csh) >= 0xfffe)
        n->csh++;
    n->nchunks = (uint32_t)(((size_t)R + (1u << n->csh) - 1) >> n->csh);
    if (!n->nchunks)
        n->nchunks = 1;
    n->NQ = n->nchunks + 1;
    n->ncur = n->nchunks;
    n->wheel = calloc((size_t)n->W * n->NQ, sizeof *n->wheel);
    ok &= n->arena && n->rt && n->rrng && n->active && n->amask && n->link && n->s_req_vc &&
          n->s_out_mask && n->s_grant && n->s_elig && n->pkt && n->wheel;
    if (!ok) {
        mpp_net_free(n);
        return mpp_err_set(err, MPP_ENOMEM, "out of memory building the network");
    }

    for (uint32_t e = 0; e < NE; e++) {
        mpp_port *p = mpp_net_port(n, e);
        p->dst = p->src = p->router = MPP_NONE;
        for (uint32_t v = 0; v < V; v++) {
            mpp_ivc *c = mpp_port_ivc(n, p, v);
            c->out = MPP_NONE;
            c->ovc = MPP_VC_NONE;
            mpp_ovc *o = mpp_port_ovc(n, p, v);
            o->credits = B;
            o->holder = MPP_NONE;
        }
    }
    for (uint32_t g = 0; g < P; g++) {
        mpp_port *p = mpp_net_port(n, g);
        p->router = t->port_router[g];
        p->local = (uint16_t)(g - t->port_base[t->port_router[g]]);
        uint32_t peer = t->port_peer[g];
        if (peer == MPP_TOPO_NONE)
            continue;
        if (!(peer & MPP_TOPO_NODE)) {
            if (t->port_len && t->port_len[g] > 1)
                p->xlat = (uint8_t)((t->port_len[g] - 1) * n->link_lat);
            p->dst = peer;
            mpp_net_port(n, peer)->src = g;
            continue;
        }
        /* a node link: the router ejects out of g into endpoint P + l, and
         * the node injects from P + l into g (a split link, t->link_eject,
         * does each at its own port) */
        uint32_t l = peer & ~MPP_TOPO_NODE;
        if (!t->link_eject || t->link_eject[l] == g) {
            /* the node swallows a flit per cycle: no per-VC credits (nic:
             * ideal), or the receive-FIFO credits of its class (nic: model) */
            p->dst = P + l;
            mpp_net_port(n, P + l)->src = g;
            p->sink = 1;
            p->sink_node = t->link_node[l];
        }
        if (t->link_port[l] == g) {
            mpp_net_port(n, P + l)->dst = g;
            p->src = P + l;
        }
    }
    if (n->nic_model)
        for (size_t i = 0; i < (size_t)t->links * n->message_classes; i++)
            n->ej_credits[i] = fifo_flits;
    for (uint32_t r = 0; r < R; r++) {
        mpp_router *rt = &n->rt[r];
        rt->pos = MPP_NONE;
        rt->base = t->port_base[r];
        rt->np = t->port_base[r + 1] - t->port_base[r];
        mpp_rng_init(&n->rrng[r], seed, MPP_RNG_ROUTER, r);
    }
    for (uint32_t l = 0; l < n->L; l++)
        n->link[l].pkt = MPP_NONE;
    n->free_head = MPP_NONE;
    set_chunks(n);
    set_cursors(n);
    return 0;
}

/* The fine chunk (2^csh routers) of router port g's router. */
static inline uint32_t fine_chunk(const mpp_net *n, uint32_t g)
{
    return n->topo->port_router[g] >> n->csh;
}

/* The column (chunk of the current sizing, n->cx) of the router that
 * events from each endpoint go to: for router ports, chunk 0, or (ordered)
 * the chunk of their router; 0 for node links (their events go to the node
 * column: send_flit). Set again whenever the chunks are resized. */
static void set_chunks(mpp_net *n)
{
    uint32_t P = n->P;
    for (uint32_t e = 0; e < n->NE; e++) {
        mpp_port *p = mpp_net_port(n, e);
        uint32_t d = p->dst, s = p->src;
        p->dcol =
            (uint16_t)(d == MPP_NONE || d >= P || !n->ordered ? 0 : fine_chunk(n, d) >> n->cx);
        p->scol =
            (uint16_t)(s == MPP_NONE || s >= P || !n->ordered ? 0 : fine_chunk(n, s) >> n->cx);
    }
}

static uint32_t chunks_at(const mpp_net *n, uint32_t cx);

void mpp_net_order(mpp_net *n)
{
    n->ordered = true;
    n->cx = 0;
    while (chunks_at(n, n->cx) > 1)
        n->cx++;
    n->ncur = 1;
    n->cwin = 0;
    n->cnext = RECHUNK_FIRST;
    n->cev = 0;
    if (n->arena) /* (a check-only network has no records) */
        set_chunks(n);
}

static void threads_free(mpp_net *n);

void mpp_net_free(mpp_net *n)
{
    threads_free(n);
    if (n->routing && n->routing->destroy && n->routing_priv)
        n->routing->destroy(n->routing_priv);
    if (n->wheel)
        for (size_t s = 0; s < (size_t)n->W * n->NQ; s++) {
            free(n->wheel[s].f);
            free(n->wheel[s].c);
        }
    if (n->arena)
        big_free(n->arena, n->arena_base, n->arena_len);
    void *ptrs[] = {n->rt, n->rrng, n->active, n->amask, n->link, n->ej_credits, n->s_req_vc,
                    n->s_out_mask, n->s_grant, n->s_elig, n->s_age_iv, n->s_age_key,
                    n->pkt, n->wheel, n->ej_busy, n->reuse_at, n->xacc, n->xsa, n->s_xelig, n->s_xgrant};
    for (size_t i = 0; i < sizeof ptrs / sizeof ptrs[0]; i++)
        free(ptrs[i]);
    memset(n, 0, sizeof *n);
}

int mpp_net_one_port(mpp_net *n, mpp_err *err)
{
    n->ej_busy = calloc(n->topo->nodes ? n->topo->nodes : 1, sizeof *n->ej_busy);
    if (!n->ej_busy)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory building the network");
    n->ej_one = true;
    n->tail_hook = true;
    return 0;
}

/* --- small helpers --------------------------------------------------------- */

/* The hot functions copy the layout into locals (HOT): the compiler then
 * keeps them in registers across the stores into the records, which it
 * could not do with loads through n (any store might alias them). */
#define HOT                                                                                        \
    char *const A_ = n->arena;                                                                     \
    const size_t S_ = n->stride;                                                                   \
    const uint32_t IO_ = n->ivc_off, VB_ = n->vcb;                                                 \
    (void)A_;                                                                                      \
    (void)S_;                                                                                      \
    (void)IO_;                                                                                     \
    (void)VB_
#define PORT(e) ((mpp_port *)(void *)(A_ + (size_t)(e) * S_))
#define OVC(p, v) ((mpp_ovc *)(void *)((mpp_port *)(p) + 1) + (v))
#define IVC(p, v) ((mpp_ivc *)(void *)((char *)(p) + IO_ + (size_t)(v) * VB_))
#define BUF(p, v) ((uint32_t *)(void *)(IVC(p, v) + 1))

static void grow_slot_f(mpp_net *n, mpp_slot *s)
{
    uint32_t cap = s->fcap ? s->fcap * 2 : SLOT_FIRST;
    mpp_flit_ev *f = realloc(s->f, (size_t)cap * sizeof *f);
    if (!f) {
        n->oom = true;
        s->nf = 0; /* the run stops at the end of this cycle */
        return;
    }
    s->f = f;
    s->fcap = cap;
}

static void grow_slot_c(mpp_net *n, mpp_slot *s)
{
    uint32_t cap = s->ccap ? s->ccap * 2 : SLOT_FIRST;
    uint32_t *c = realloc(s->c, (size_t)cap * sizeof *c);
    if (!c) {
        n->oom = true;
        s->nc = 0;
        return;
    }
    s->c = c;
    s->ccap = cap;
}

/* Send a flit on output endpoint op (record p). A flit bound for a router
 * lands in its input buffer router_delay cycles after it crossed the link:
 * the router pipeline is folded into the channel, so every buffered flit is
 * ready to leave and routers do no work for flits still in their pipeline.
 * Credit timing is unchanged (the sender counted the slot when it sent). */
/* The slot x rows (cycles) after slot s of the wheel: a long link's
 * (mpp_port.xlat). */
static __attribute__((noinline)) mpp_slot *later_slot(mpp_net *n, mpp_slot *s, uint32_t x)
{
    size_t i = (size_t)(s - n->wheel), q = n->NQ;
    return &n->wheel[((i / q + x) & (n->W - 1)) * q + i % q];
}

static inline void send_flit(mpp_net *n, mpp_port *p, uint32_t vc, uint32_t flit)
{
    uint32_t in = p->dst;
    mpp_slot *s = (in < n->P ? n->ev_router : n->ev_node) + p->dcol;
    if (__builtin_expect(p->xlat != 0, 0))
        s = later_slot(n, s, p->xlat);
    if (__builtin_expect(s->nf == s->fcap, 0))
        grow_slot_f(n, s);
    mpp_flit_ev *ev = &s->f[s->nf++];
    ev->to = in << 6 | vc;
    ev->flit = flit;
    p->chan += n->count_channels;
}

static inline void send_credit(mpp_net *n, const mpp_port *p, uint32_t vc)
{
    uint32_t out = p->src;
    mpp_slot *s = (out < n->P ? n->ev_credit : n->ev_cnode) + p->scol;
    if (__builtin_expect(p->xlat != 0, 0))
        s = later_slot(n, s, p->xlat);
    if (__builtin_expect(s->nc == s->ccap, 0))
        grow_slot_c(n, s);
    s->c[s->nc++] = out << 6 | vc;
}

/* Point the send cursors at the wheel slots that the sends of this cycle
 * write: flits to routers land after link_lat + delay (the row's first
 * chunk), flits to nodes after link_lat (the row's node column), credits
 * after credit_lat (first chunk, and node column). */
static void set_cursors(mpp_net *n)
{
    uint32_t m = n->W - 1;
    size_t q = n->NQ;
    n->ev_router = &n->wheel[((n->cycle + n->link_lat + n->delay) & m) * q];
    n->ev_node = &n->wheel[((n->cycle + n->link_lat) & m) * q + n->nchunks];
    n->ev_credit = &n->wheel[((n->cycle + n->credit_lat) & m) * q];
    n->ev_cnode = n->ev_credit + n->nchunks;
}

/* --- phase 1: deliveries --------------------------------------------------- */


/* The credits of slot s land: an output VC that had none lets its
 * holder's front flit leave again. pf: fetch ahead (a constant in each of
 * the two copies deliver_credits makes). */
static inline __attribute__((always_inline)) void deliver_credits_with(mpp_net *n, mpp_slot *s,
                                                                        bool pf)
{
    char *const A = n->arena;
    const size_t S = n->stride;
    const uint32_t OO = n->ovc_off;
    mpp_router *const RT = n->rt;
    uint32_t kp = pf ? s->nc : 0; /* prefetch only on a large network */
    for (uint32_t i = 0, k = s->nc; i < k; i++) {
        if (pf && i + PF_AHEAD < kp)
            __builtin_prefetch(A + (size_t)(s->c[i + PF_AHEAD] >> 6) * S + OO, 1);
        if (pf && i + PF_AHEAD / 2 < kp) {
            /* the holder's record, should the credit wake it */
            uint32_t ov = s->c[i + PF_AHEAD / 2];
            const mpp_ovc *o = (const mpp_ovc *)(const void *)(A + (size_t)(ov >> 6) * S + OO) +
                               (ov & 63);
            if (o->credits == 0 && o->holder < MPP_HOLD_LINK) {
                const char *q = A + (size_t)(o->holder >> 6) * S;
                __builtin_prefetch(q, 1);
                __builtin_prefetch(q + 64, 1);
            }
        }
        uint32_t ov = s->c[i];
        mpp_port *p = (mpp_port *)(void *)(A + (size_t)(ov >> 6) * S);
        mpp_ovc *o = (mpp_ovc *)(void *)((char *)p + OO) + (ov & 63);
        /* wait_for_tail_credit: the last credit back frees the VC, and
         * vc_reuse_delay counts from then (the VC's stages follow it) */
        if (__builtin_expect(n->wtc, 0) && n->reuse_at && o->credits + 1 == n->B &&
            o->holder == MPP_NONE)
            n->reuse_at[(size_t)(ov >> 6) * n->V + (ov & 63)] = n->cycle + n->reuse - 1;
        if (o->credits++ == 0 && o->holder < MPP_HOLD_LINK) {
            mpp_port *q = (mpp_port *)(void *)(A + (size_t)(o->holder >> 6) * S);
            uint32_t w = o->holder & 63;
            if (mpp_port_ivc(n, q, w)->count) {
                q->ready |= 1ULL << w;
                RT[q->router].ready |= 1ULL << q->local;
            }
        }
    }
    s->nc = 0;
}

static void deliver_credits(mpp_net *n, mpp_slot *s)
{
    if (n->pf)
        deliver_credits_with(n, s, true);
    else
        deliver_credits_with(n, s, false);
}

/* The flits of slot s land in router input buffers. pf: fetch ahead;
 * ordered: n->ordered (constants in each of the copies deliver_flits
 * makes). */
static inline __attribute__((always_inline)) void deliver_flits_with(mpp_net *n, mpp_slot *s,
                                                                      bool pf, bool ordered,
                                                                      bool par)
{
    uint32_t B = n->B, peak = n->peak_vc;
    char *const A = n->arena;
    const size_t S = n->stride;
    const uint32_t OO = n->ovc_off, IO = n->ivc_off, VB = n->vcb;
    mpp_router *const RT = n->rt;
    uint32_t kp = pf ? s->nf : 0;
    for (uint32_t i = 0, k = s->nf; i < k; i++) {
        if (pf && i + PF_AHEAD < kp) {
            /* the landing port's record (up to three lines) ... */
            const char *q = A + (size_t)(s->f[i + PF_AHEAD].to >> 6) * S;
            __builtin_prefetch(q, 1);
            __builtin_prefetch(q + 64, 1);
            if (S > 128)
                __builtin_prefetch(q + 128, 1);
        }
        if (pf && i + PF_AHEAD / 2 < kp) {
            /* ... and, once its header is in, its router's line */
            const mpp_port *q =
                (const mpp_port *)(const void *)(A + (size_t)(s->f[i + PF_AHEAD / 2].to >> 6) * S);
            __builtin_prefetch(&RT[q->router], 1);
            /* the output the VC holds, whose credits decide if it is ready */
            uint32_t to = s->f[i + PF_AHEAD / 2].to;
            const mpp_ivc *c = (const mpp_ivc *)(const void *)((const char *)q + IO +
                                                               (size_t)(to & 63) * VB);
            if (c->ovc != MPP_VC_NONE) {
                const char *o = A + (size_t)c->out * S;
                __builtin_prefetch(o, 0);
                __builtin_prefetch(o + OO + (size_t)c->ovc * sizeof(mpp_ovc), 0);
            }
            /* a head's packet: its route state is read when it is routed */
            uint32_t fl = s->f[i + PF_AHEAD / 2].flit;
            if (fl & MPP_FLIT_HEAD)
                __builtin_prefetch(&n->pkt[fl >> 2].route, 1);
        }
        uint32_t in = s->f[i].to >> 6, vc = s->f[i].to & 63;
        mpp_port *p = (mpp_port *)(void *)(A + (size_t)in * S);
        mpp_ivc *c = (mpp_ivc *)(void *)((char *)p + IO + (size_t)vc * VB);
        uint32_t pos = c->head + c->count;
        if (pos >= B)
            pos -= B;
        ((uint32_t *)(void *)(c + 1))[pos] = s->f[i].flit;
        uint32_t cnt = ++c->count;
        if (cnt > peak)
            peak = cnt;
        uint32_t r = p->router;
        mpp_router *rt = &RT[r];
        /* The masks, without branches (a branch on the VC's state here is
         * mispredicted about one time in four): the VC's front flit waits
         * for allocation (no output VC), or may leave (an output VC and a
         * sink or a credit). For a VC that held flits
         * already each of these is what its mask says (invariant 6), so
         * setting them again changes nothing. */
        uint64_t vb = 1ULL << vc, ib = 1ULL << p->local;
        uint32_t some = c->ovc != MPP_VC_NONE, sm = -some; /* (masks: all ones or 0) */
        /* (a VC without an output reads a record it then ignores:
         * endpoint 0's, or, on a thread (par), its own, since endpoint 0
         * may be another thread's) */
        uint32_t dummy = par ? in & ~sm : 0;
        const mpp_port *op =
            (const mpp_port *)(const void *)(A + (size_t)((c->out & sm) | dummy) * S);
        const mpp_ovc *ov =
            (const mpp_ovc *)(const void *)((const char *)op + OO) + (c->ovc & sm);
        uint64_t wm = -(uint64_t)(some ^ 1u);
        uint64_t gm = -(uint64_t)(some & ((op->sink != 0) | (ov->credits != 0)));
        p->wait |= vb & wm;
        p->ready |= vb & gm;
        rt->wait |= ib & wm;
        rt->ready |= ib & gm;
        rt->flits++;
        if (ordered) {
            n->amask[r >> 6] |= 1ULL << (r & 63);
        } else if (rt->pos == MPP_NONE) {
            rt->pos = n->nactive;
            n->active[n->nactive++] = r;
        }
    }
    s->nf = 0;
    n->peak_vc = peak;
}

static void deliver_flits(mpp_net *n, mpp_slot *s)
{
    if (n->ordered) {
        if (n->nthreads > 1) {
            if (n->pf)
                deliver_flits_with(n, s, true, true, true);
            else
                deliver_flits_with(n, s, false, true, true);
        } else if (n->pf)
            deliver_flits_with(n, s, true, true, false);
        else
            deliver_flits_with(n, s, false, true, false);
    } else {
        if (n->pf)
            deliver_flits_with(n, s, true, false, false);
        else
            deliver_flits_with(n, s, false, false, false);
    }
}

/* Threads: the node columns of threads 1..T-1 after thread 0's, in thread
 * order (their blocks in ascending router ids: the serial path's order of
 * sends); credits and ejections are independent, so each column's
 * credits may land with it. */
static __attribute__((noinline)) void deliver_nodes_par(mpp_net *n)
{
    for (uint32_t t = 1; t < n->nthreads; t++) {
        mpp_slot *s = &n->wheels[t][(size_t)(n->cycle & (n->W - 1)) * n->NQ + n->nchunks];
        if (s->nc)
            deliver_credits(n, s);
        for (uint32_t i = 0, k = s->nf; i < k; i++) {
            n->flits_ejected++;
            n->on_eject(n->eject_ud, n->topo->link_node[(s->f[i].to >> 6) - n->P], s->f[i].flit,
                        n->cycle);
        }
        s->nf = 0;
    }
}

void mpp_net_deliver(mpp_net *n)
{
    mpp_slot *row = &n->wheel[(size_t)(n->cycle & (n->W - 1)) * n->NQ];
    /* the node side: credits to the node links, flits into the nodes */
    mpp_slot *s = &row[n->nchunks];
    if (s->nc)
        deliver_credits(n, s);
    for (uint32_t i = 0, k = s->nf; i < k; i++) {
        n->flits_ejected++;
        n->on_eject(n->eject_ud, n->topo->link_node[(s->f[i].to >> 6) - n->P], s->f[i].flit,
                    n->cycle);
    }
    s->nf = 0;
    if (__builtin_expect(n->nthreads > 1, 0))
        deliver_nodes_par(n);
    /* the routers' side: all in chunk 0, unless ordered (mpp_net_routers
     * then delivers each chunk just before visiting its routers) */
    if (!n->ordered) {
        if (row->nc)
            deliver_credits(n, row);
        if (row->nf)
            deliver_flits(n, row);
    }
    set_cursors(n);
}

/* --- phase 2: routers ------------------------------------------------------ */

/* Route computation for the head at the front of input VC c (v of port p,
 * global g) of router r, packet pk: the routing plug-in's hop, and from it
 * the VC's output (under all-port, ejection by the link paired with the
 * arrival port) and the VC range of (message class, route class). x NULL
 * (a constant): `route`, once per packet per router, the hop counted;
 * else `route_adaptive` with the outputs' view x, the hop in *ro, counted
 * by route_and_allocate_adaptive once it is taken. */
static inline __attribute__((always_inline)) void
route_vc_with(mpp_net *n, mpp_router *rt, uint32_t r, mpp_port *p, uint32_t g, uint32_t v,
              mpp_ivc *c, mpp_packet *pk, const mpp_route_ctx *x, mpp_route_out *ro)
{
    HOT;
    mpp_route_out own;
    if (!x) {
        ro = &own;
        n->routing->route(n->topo, n->routing_cfg, n->routing_priv, r, p->local, &pk->route,
                          &n->rrng[r], ro);
    } else {
        n->routing->route_adaptive(n->topo, n->routing_cfg, n->routing_priv, r, p->local,
                                   &pk->route, &n->rrng[r], x, ro);
    }
    uint32_t og = rt->base + ro->port;
    if (__builtin_expect(n->pair != NULL, 0)) {
        /* all-port: eject on the link paired with the arrival port
         * (a packet from the local node keeps link 0) */
        uint32_t l = n->pair[g];
        if (PORT(og)->sink && l != MPP_TOPO_NONE)
            og = n->topo->link_port[l];
    }
    c->out = og;
    c->lout = (uint16_t)(og - rt->base);
    if (v < 8)
        p->lo8[v] = (uint8_t)c->lout;
    uint32_t cls = (uint32_t)pk->mclass * n->route_classes + ro->route_class;
    c->lo = (uint16_t)(cls * n->vcs_per_class);
    c->hi = (uint16_t)(c->lo + n->vcs_per_class);
    if (!x) {
        pk->route.route_class = (uint8_t)ro->route_class;
        pk->hops++; /* routed once at every router it crosses (it starts at -1) */
    }
}

static inline void route_vc(mpp_net *n, mpp_router *rt, uint32_t r, mpp_port *p, uint32_t g,
                            uint32_t v, mpp_ivc *c, mpp_packet *pk)
{
    route_vc_with(n, rt, r, p, g, v, c, pk, NULL, NULL);
}

static bool route_and_allocate_adaptive(mpp_net *n, mpp_router *rt, uint32_t r, mpp_port *p,
                                        uint32_t g, uint32_t v);

/* A tail left for output VC w of output `out` (port op) where n->tail_hook:
 * one-port ejection frees the node's ejection, vc_reuse_delay starts. */
static __attribute__((noinline)) void tail_left(mpp_net *n, const mpp_port *op, uint32_t out,
                                                uint32_t w, uint32_t sink)
{
    if (n->reuse_at)
        n->reuse_at[(size_t)out * n->V + w] = n->cycle + n->reuse;
    if (n->ej_one && sink)
        n->ej_busy[op->sink_node] = 0;
}

/* BookSim's router keys (n->bsx): may free output VC w of output `out`
 * (record o, of port op) not be allocated yet? Out of line: a network
 * without them pays one test of n->bsx per free VC it looks at. */
static __attribute__((noinline, cold)) bool vc_refused(const mpp_net *n, const mpp_port *op,
                                                        const mpp_ovc *o, uint32_t out,
                                                        uint32_t w)
{
    if (n->reuse_at && n->reuse_at[(size_t)out * n->V + w] > n->cycle)
        return true; /* vc_reuse_delay: freed too recently */
    /* wait_for_tail_credit: the tail's credit is not back */
    return n->wtc && !op->sink && o->credits != n->B;
}

/* Route computation (once per packet per router) and VC allocation for the
 * waiting input VC v of port p (global g, local input ip of router r).
 * Returns true when the VC holds an output VC afterwards. plain: as for
 * traverse_with (no one-port ejection to test); that copy is inlined into
 * the plain visit. */
static inline __attribute__((always_inline)) bool
route_and_allocate_with(mpp_net *n, mpp_router *rt, uint32_t r, mpp_port *p, uint32_t g, uint32_t v,
                        bool plain)
{
    HOT;
    uint32_t ip = p->local;
    mpp_ivc *c = IVC(p, v);
    uint32_t flit = BUF(p, v)[c->head];
    mpp_packet *pk = &n->pkt[flit >> 2];
    if (c->out == MPP_NONE) {
        if (__builtin_expect(n->adaptive, 0))
            return route_and_allocate_adaptive(n, rt, r, p, g, v);
        route_vc(n, rt, r, p, g, v, c, pk);
    }
    uint32_t out = c->out;
    mpp_port *op = PORT(out);
    uint32_t lo = c->lo, span = (uint32_t)c->hi - lo;
    uint32_t start = op->va_ptr;
    bool ct = n->flow == MPP_FLOW_CUT_THROUGH && !op->sink;
    bool one = !plain && n->ej_one && op->sink;
    if (one) {
        /* one-port ejection: one packet of the node at a time, and (nic:
         * model) only one its FIFO share can take, so that the packet
         * holding the node's ejection never waits for the FIFO */
        if (n->ej_busy[op->sink_node])
            return false;
        if (n->nic_model &&
            n->ej_credits[(size_t)(op->dst - n->P) * n->message_classes + pk->mclass] < pk->flits)
            return false;
    }
    if (start >= span)
        start = 0;
    mpp_ovc *ovs = OVC(op, 0);
    for (uint32_t k = 0, j = start; k < span; k++) {
        uint32_t w = lo + j;
        if (++j == span)
            j = 0;
        mpp_ovc *o = &ovs[w];
        if (o->holder != MPP_NONE)
            continue;
        if (__builtin_expect(n->bsx, 0) && vc_refused(n, op, o, out, w))
            continue;
        if (ct && o->credits < pk->flits)
            continue;
        o->holder = g << 6 | v;
        c->ovc = (uint16_t)w;
        op->va_ptr = (uint16_t)j;
        if (one)
            n->ej_busy[op->sink_node] = 1;
        uint64_t bit = 1ULL << v;
        p->wait &= ~bit;
        if (!p->wait)
            rt->wait &= ~(1ULL << ip);
        if (op->sink || o->credits > 0) {
            p->ready |= bit;
            rt->ready |= 1ULL << ip;
        }
        return true;
    }
    return false;
}

/* (inlined into each allocator: left to itself, gcc's choice changes with
 * the size of this file, and with it the instruction count of every
 * network with nic: model; docs/performance.md) */
static inline __attribute__((always_inline)) bool
route_and_allocate(mpp_net *n, mpp_router *rt, uint32_t r, mpp_port *p, uint32_t g, uint32_t v)
{
    return route_and_allocate_with(n, rt, r, p, g, v, false);
}

/* --- adaptive routing ------------------------------------------------------- */

static uint32_t net_route_free(const mpp_route_ctx *x, uint32_t port, uint32_t cls)
{
    const mpp_net *n = x->net;
    HOT;
    uint32_t og = n->topo->port_base[x->router] + port;
    const mpp_port *op = PORT(og);
    uint32_t lo = (x->mclass * n->route_classes + cls) * n->vcs_per_class;
    const mpp_ovc *ovs = OVC(op, 0);
    bool ct = n->flow == MPP_FLOW_CUT_THROUGH && !op->sink;
    uint32_t ok = 0, credits = 0;
    for (uint32_t w = lo; w < lo + n->vcs_per_class; w++)
        ok += ovs[w].holder == MPP_NONE && (!ct || ovs[w].credits >= x->flits) &&
              (!n->wtc || op->sink || ovs[w].credits == n->B) &&
              (!n->reuse_at || n->reuse_at[(size_t)og * n->V + w] <= n->cycle);
    if (!ok)
        return 0;
    if (op->sink)
        return 1 + ok;
    for (uint32_t w = 0; w < n->V; w++)
        credits += ovs[w].credits;
    return 1 + credits;
}

static uint32_t net_route_used(const mpp_route_ctx *x, uint32_t port)
{
    const mpp_net *n = x->net;
    HOT;
    const mpp_port *op = PORT(n->topo->port_base[x->router] + port);
    if (op->sink)
        return 0;
    const mpp_ovc *ovs = OVC(op, 0);
    uint32_t used = 0;
    for (uint32_t w = 0; w < n->V; w++)
        used += n->B - ovs[w].credits;
    return used;
}

/* Route and VC allocation of the waiting head of input VC v (port p,
 * global g, router r) under adaptive routing: the plug-in chooses the hop
 * now, seeing the outputs (mpp_route_free); when the hop finds no VC, its
 * choice is undone (route state, output) and the head is routed again
 * next cycle. Hops and misroutes count the hops taken. */
static __attribute__((noinline)) bool route_and_allocate_adaptive(mpp_net *n, mpp_router *rt,
                                                                  uint32_t r, mpp_port *p,
                                                                  uint32_t g, uint32_t v)
{
    HOT;
    mpp_ivc *c = IVC(p, v);
    mpp_packet *pk = &n->pkt[BUF(p, v)[c->head] >> 2];
    if (!pk->rerouting) {
        pk->rerouting = 1;
        pk->wait_since = n->cycle;
    }
    uint32_t peer = n->topo->port_peer[g];
    mpp_route_ctx x = {
        .free = net_route_free,
        .used = net_route_used,
        .net = n,
        .router = r,
        .in_class = peer == MPP_TOPO_NONE || (peer & MPP_TOPO_NODE)
                        ? MPP_ROUTE_INJECT
                        : v / n->vcs_per_class % n->route_classes,
        .waited = (uint32_t)(n->cycle - pk->wait_since),
        .misroutes = pk->misroutes,
        .mclass = pk->mclass,
        .flits = pk->flits,
    };
    mpp_route_state saved = pk->route;
    mpp_route_out ro = {.misroute = 0};
    route_vc_with(n, rt, r, p, g, v, c, pk, &x, &ro);
    if (route_and_allocate_with(n, rt, r, p, g, v, false)) {
        pk->route.route_class = (uint8_t)ro.route_class;
        pk->hops++;
        pk->misroutes = (uint8_t)(pk->misroutes + (ro.misroute != 0));
        pk->rerouting = 0;
        return true;
    }
    pk->route = saved;
    c->out = MPP_NONE;
    return false;
}

/* Move the front flit of input VC v of global input port g (record p,
 * router rt) to its allocated output VC. plain: a constant, true in the
 * copy for networks with neither nic: model nor one-port ejection
 * (router_visit), which then tests neither. */
static inline __attribute__((always_inline)) void traverse_with(mpp_net *n, mpp_router *rt,
                                                                mpp_port *p, uint32_t v,
                                                                bool plain)
{
    HOT;
    uint32_t B = n->B;
    mpp_ivc *c = IVC(p, v);
    uint32_t h = c->head;
    uint32_t flit = BUF(p, v)[h];
    uint32_t nh = h + 1;
    c->head = (uint16_t)(nh & -(uint32_t)(nh != B));
    /* The masks are updated without branches (branches on the flit's
     * kind and the VC's state here are mispredicted often). */
    uint64_t bit = 1ULL << v, ib = 1ULL << p->local;
    uint32_t cnt = --c->count;
    rt->flits--;
    send_credit(n, p, v);
    mpp_port *op = PORT(c->out);
    uint32_t ovc = c->ovc;
    mpp_ovc *o = OVC(op, ovc);
    bool sink = op->sink != 0;
    o->credits -= !sink; /* a sink has no credits to spend */
    if (!plain && __builtin_expect(n->nic_model, 0) && sink && (flit & MPP_FLIT_HEAD)) {
        mpp_packet *pk = &n->pkt[flit >> 2];
        pk->eject_link = op->dst - n->P;
        n->ej_credits[(size_t)pk->eject_link * n->message_classes + pk->mclass] -= pk->flits;
    }
    send_flit(n, op, ovc, flit);
    /* a tail frees the output VC; the next packet's head, if any, is then
     * at the front and waits for allocation */
    uint32_t tail = (flit & MPP_FLIT_TAIL) != 0, tm = -tail;
    /* one test for both: one-port ejection frees the node's ejection;
     * vc_reuse_delay counts from the tail */
    if (__builtin_expect(n->tail_hook, 0) && tail)
        tail_left(n, op, c->out, ovc, sink);
    o->holder |= tm; /* MPP_NONE: all ones */
    c->out |= tm;
    c->ovc |= (uint16_t)(MPP_VC_NONE & tm);
    uint64_t next = -(uint64_t)(tail & (cnt != 0));
    p->wait |= bit & next;
    rt->wait |= ib & next;
    /* the VC may send again next cycle: flits left of this packet and a
     * credit (or a sink) */
    uint32_t more = (cnt != 0) & (tail ^ 1u) & (sink | (o->credits != 0));
    p->ready &= ~(bit & -(uint64_t)(more ^ 1u));
    rt->ready &= ~(ib & -(uint64_t)(p->ready == 0));
}

static inline void traverse(mpp_net *n, mpp_router *rt, mpp_port *p, uint32_t v)
{
    traverse_with(n, rt, p, v, false);
}

static inline uint32_t rr_pick(uint64_t mask, uint32_t start)
{
    /* first set bit at or after start (< 64: every pointer is below a
     * radix or a VC count, each at most 64), wrapping */
    uint64_t hi = mask & (~0ULL << (start & 63));
    return (uint32_t)__builtin_ctzll(hi | (mask & -(uint64_t)(hi == 0)));
}

/* nic: model — a ready VC bound for a sink whose front flit is a head may
 * leave only when its receive-FIFO share has room for all of the packet
 * (reserved by its head): partial packets of several links or VCs can then
 * never fill the FIFO between them. */
static uint64_t fifo_filter(const mpp_net *n, mpp_port *p, uint64_t e)
{
    HOT;
    for (uint64_t m = e; m; m &= m - 1) {
        uint32_t v = (uint32_t)__builtin_ctzll(m);
        const mpp_ivc *c = IVC(p, v);
        const mpp_port *op = PORT(c->out);
        if (!op->sink)
            continue;
        uint32_t flit = BUF(p, v)[c->head];
        if (!(flit & MPP_FLIT_HEAD))
            continue;
        const mpp_packet *pk = &n->pkt[flit >> 2];
        if (n->ej_credits[(size_t)(op->dst - n->P) * n->message_classes + pk->mclass] < pk->flits)
            e &= ~(1ULL << v);
    }
    return e;
}

/* A router's waiting inputs in this cycle's allocation order: those from
 * its rotating start on, then those below it (the order decides
 * VC-allocation conflicts between inputs, so no input has a fixed
 * priority). */
static inline void va_order(const mpp_router *rt, uint64_t order[2])
{
    uint64_t wm = rt->wait;
    order[0] = wm & (~0ULL << rt->rot);
    order[1] = wm & ((1ULL << rt->rot) - 1);
}

/* The rotating start moves on every cycle the router is visited. */
static inline void rot_advance(mpp_router *rt)
{
    uint32_t nr = rt->rot + 1;
    rt->rot = nr & -(uint32_t)(nr < rt->np);
}

/* Route and VC allocation for the waiting VCs (ascending) of router r's
 * inputs in mask m (ascending). */
static inline __attribute__((always_inline)) void va_inputs(mpp_net *n, mpp_router *rt,
                                                                uint32_t r, uint64_t m, bool plain)
{
    HOT;
    for (; m; m &= m - 1) {
        uint32_t g = rt->base + (uint32_t)__builtin_ctzll(m);
        mpp_port *p = PORT(g);
        for (uint64_t vm = p->wait; vm; vm &= vm - 1) {
            uint32_t v = (uint32_t)__builtin_ctzll(vm);
            if (plain)
                route_and_allocate_with(n, rt, r, p, g, v, true);
            else
                route_and_allocate(n, rt, r, p, g, v);
        }
    }
}

/* Route and VC allocation for router r's waiting input VCs, in va_order. */
static inline __attribute__((always_inline)) void va_pass_with(mpp_net *n, mpp_router *rt,
                                                                   uint32_t r, bool plain)
{
    uint64_t order[2];
    va_order(rt, order);
    rot_advance(rt);
    if (!(order[0] | order[1]))
        return;
    va_inputs(n, rt, r, order[0], plain);
    va_inputs(n, rt, r, order[1], plain);
}

static inline __attribute__((always_inline)) void va_pass(mpp_net *n, mpp_router *rt, uint32_t r)
{
    va_pass_with(n, rt, r, false);
}

/* The eligible VCs of router rt's inputs after allocation (s_elig): the
 * ready VCs, less (nic: model) those fifo_filter holds back. Returns the
 * mask of inputs with an eligible VC. */
static inline uint64_t eligible(mpp_net *n, mpp_router *rt)
{
    HOT;
    uint64_t any = rt->ready;
    for (uint64_t m = any; m; m &= m - 1) {
        uint32_t i = (uint32_t)__builtin_ctzll(m);
        mpp_port *p = PORT(rt->base + i);
        uint64_t e = p->ready;
        if (n->nic_model) {
            e = fifo_filter(n, p, e);
            if (!e)
                any &= ~(1ULL << i);
        }
        n->s_elig[i] = e;
    }
    return any;
}

static uint64_t collect(mpp_net *n, mpp_router *rt, uint32_t r)
{
    va_pass(n, rt, r);
    return eligible(n, rt);
}

/* The injection cycle of the packet at the front of input VC v of p. */
static inline uint64_t front_age(const mpp_net *n, mpp_port *p, uint32_t v)
{
    HOT;
    return n->pkt[BUF(p, v)[IVC(p, v)->head] >> 2].injected;
}

/* collect() for the age allocator: the waiting input VCs of router r are
 * routed and allocated output VCs oldest packet first (ties: the rotating
 * input order, then the VC number), so a VC that frees goes to the packet
 * that has waited longest, whatever input it is on. */
static uint64_t collect_age(mpp_net *n, mpp_router *rt, uint32_t r)
{
    HOT;
    uint32_t k = 0, base = rt->base;
    uint32_t *ivs = n->s_age_iv;
    uint64_t *key = n->s_age_key;
    uint64_t order[2];
    va_order(rt, order);
    rot_advance(rt);
    for (int h = 0; h < 2; h++)
        for (uint64_t m = order[h]; m; m &= m - 1) {
            uint32_t i = (uint32_t)__builtin_ctzll(m);
            mpp_port *p = PORT(base + i);
            for (uint64_t vm = p->wait; vm; vm &= vm - 1) {
                uint32_t v = (uint32_t)__builtin_ctzll(vm);
                uint64_t a = front_age(n, p, v);
                uint32_t j = k++; /* insertion sort, stable */
                while (j > 0 && key[j - 1] > a) {
                    key[j] = key[j - 1];
                    ivs[j] = ivs[j - 1];
                    j--;
                }
                key[j] = a;
                ivs[j] = i << 6 | v;
            }
        }
    for (uint32_t q = 0; q < k; q++) {
        uint32_t g = base + (ivs[q] >> 6);
        route_and_allocate(n, rt, r, PORT(g), g, ivs[q] & 63);
    }
    return eligible(n, rt);
}

/* The output stage of the separable allocators: each requested output
 * (outs; s_out_mask: its requesting inputs, s_req_vc: their VCs) grants one
 * input round-robin from its pointer or, with age, the oldest offer (ties
 * round-robin), and the granted VC sends. */
static void grant_and_send(mpp_net *n, mpp_router *rt, uint64_t outs, const uint64_t *age)
{
    HOT;
    uint32_t base = rt->base, np = rt->np, V = n->V;
    const uint64_t *omask = n->s_out_mask;
    const uint32_t *reqv = n->s_req_vc;
    uint32_t sent = 0; /* (counted here, in a register, not per flit in n) */
    for (uint64_t m = outs; m; m &= m - 1) {
        uint32_t o = (uint32_t)__builtin_ctzll(m);
        mpp_port *op = PORT(base + o);
        uint32_t i = rr_pick(omask[o], op->sa_out);
        if (age)
            for (uint64_t c = omask[o]; c; c &= c - 1) {
                uint32_t j = (uint32_t)__builtin_ctzll(c);
                if (age[j] < age[i])
                    i = j;
            }
        op->sa_out = (uint16_t)(i + 1 >= np ? 0 : i + 1);
        mpp_port *p = PORT(base + i);
        p->sa_in = (uint16_t)(reqv[i] + 1 >= V ? 0 : reqv[i] + 1);
        traverse(n, rt, p, reqv[i]);
        sent++;
    }
    n->flit_hops += sent;
}

/* Separable allocation, oldest packet first: each input offers its oldest
 * eligible VC, each output takes the oldest offer (ties round-robin). */
static void router_age(mpp_net *n, mpp_router *rt, uint32_t r)
{
    HOT;
    uint32_t base = rt->base;
    uint64_t *omask = n->s_out_mask, *age = n->s_grant;
    uint32_t *reqv = n->s_req_vc;
    uint64_t ins = collect_age(n, rt, r), outs = 0;
    for (uint64_t m = ins; m; m &= m - 1) {
        uint32_t i = (uint32_t)__builtin_ctzll(m);
        mpp_port *p = PORT(base + i);
        uint32_t v = rr_pick(n->s_elig[i], p->sa_in);
        uint64_t best = front_age(n, p, v);
        for (uint64_t e = n->s_elig[i]; e; e &= e - 1) {
            uint32_t w = (uint32_t)__builtin_ctzll(e);
            uint64_t a = front_age(n, p, w);
            if (a < best) {
                best = a;
                v = w;
            }
        }
        reqv[i] = v;
        age[i] = best;
        uint32_t o = IVC(p, v)->lout;
        if (!(outs & (1ULL << o)))
            omask[o] = 0;
        outs |= 1ULL << o;
        omask[o] |= 1ULL << i;
    }
    grant_and_send(n, rt, outs, age);
}

static void router_separable(mpp_net *n, mpp_router *rt, uint32_t r)
{
    HOT;
    uint32_t base = rt->base;
    uint64_t *omask = n->s_out_mask;
    uint32_t *reqv = n->s_req_vc;
    uint64_t ins = collect(n, rt, r), outs = 0;
    /* input stage: each input picks one eligible VC round-robin */
    for (uint64_t m = ins; m; m &= m - 1) {
        uint32_t i = (uint32_t)__builtin_ctzll(m);
        mpp_port *p = PORT(base + i);
        uint32_t v = rr_pick(n->s_elig[i], p->sa_in);
        reqv[i] = v;
        uint32_t o = IVC(p, v)->lout;
        if (!(outs & (1ULL << o)))
            omask[o] = 0;
        outs |= 1ULL << o;
        omask[o] |= 1ULL << i;
    }
    grant_and_send(n, rt, outs, NULL);
}

/* iSLIP with one iteration. Each input requests every output one of its
 * eligible VCs is bound for; each output grants one requesting input from
 * its pointer; each input accepts one granting output from its pointer
 * (the pointers move only on acceptance) and sends the next eligible VC
 * bound there, round-robin. When no two inputs request one output and no
 * input requests two (the common case), every request is granted and
 * accepted: that is done directly, with the same pointer moves. plain: as
 * for traverse_with, and at most 8 VCs (their routes are then read from
 * the port's header, lo8). */
static inline __attribute__((always_inline)) void router_islip_with(mpp_net *n, mpp_router *rt,
                                                                    uint32_t r, bool plain)
{
    HOT;
    /* the local output of routed VC v of input p (plain: V <= 8) */
#define LOUT(p, v) (plain ? (uint32_t)(p)->lo8[v] : (uint32_t)IVC(p, v)->lout)
    va_pass_with(n, rt, r, plain);
    uint64_t ins = rt->ready;
    if (!ins)
        return;
    uint32_t base = rt->base, np = rt->np, V = n->V;
    uint64_t *omask = n->s_out_mask, *grant = n->s_grant, *elig = n->s_elig;
    uint32_t *req = n->s_req_vc;
    uint64_t outs = 0, clash = 0;
    for (uint64_t m = ins; m; m &= m - 1) {
        uint32_t i = (uint32_t)__builtin_ctzll(m);
        mpp_port *p = PORT(base + i);
        uint64_t e = p->ready; /* the eligible VCs: eligible(), inline */
        if (!plain && n->nic_model) {
            e = fifo_filter(n, p, e);
            if (!e) {
                ins &= ~(1ULL << i);
                continue;
            }
        }
        elig[i] = e;
        uint64_t rq = 0;
        for (uint64_t vm = e; vm; vm &= vm - 1)
            rq |= 1ULL << LOUT(p, (uint32_t)__builtin_ctzll(vm));
        clash |= (outs & rq) | (rq & (rq - 1));
        outs |= rq;
        req[i] = (uint32_t)__builtin_ctzll(rq);
    }
    uint32_t sent = 0; /* (counted here, in a register, not per flit in n) */
    if (!clash) {
        for (uint64_t m = ins; m; m &= m - 1) {
            uint32_t i = (uint32_t)__builtin_ctzll(m), o = req[i];
            mpp_port *p = PORT(base + i);
            p->acc = (uint16_t)(o + 1 >= np ? 0 : o + 1);
            PORT(base + o)->sa_out = (uint16_t)(i + 1 >= np ? 0 : i + 1);
            uint32_t v = rr_pick(elig[i], p->sa_in);
            p->sa_in = (uint16_t)(v + 1 >= V ? 0 : v + 1);
            traverse_with(n, rt, p, v, plain);
            sent++;
        }
        n->flit_hops += sent;
        return;
    }
    /* request */
    outs = 0;
    for (uint64_t m = ins; m; m &= m - 1) {
        uint32_t i = (uint32_t)__builtin_ctzll(m);
        mpp_port *p = PORT(base + i);
        grant[i] = 0;
        for (uint64_t vm = elig[i]; vm; vm &= vm - 1) {
            uint32_t o = LOUT(p, (uint32_t)__builtin_ctzll(vm));
            uint64_t ob = 1ULL << o;
            /* (the first request of o resets its mask) */
            omask[o] = (omask[o] & -(uint64_t)((outs & ob) != 0)) | 1ULL << i;
            outs |= ob;
        }
    }
    /* grant */
    uint64_t granted = 0;
    for (uint64_t m = outs; m; m &= m - 1) {
        uint32_t o = (uint32_t)__builtin_ctzll(m);
        uint32_t i = rr_pick(omask[o], PORT(base + o)->sa_out);
        grant[i] |= 1ULL << o;
        granted |= 1ULL << i;
    }
    /* accept */
    for (uint64_t m = granted; m; m &= m - 1) {
        uint32_t i = (uint32_t)__builtin_ctzll(m);
        mpp_port *p = PORT(base + i);
        uint32_t o = rr_pick(grant[i], p->acc);
        p->acc = (uint16_t)(o + 1 >= np ? 0 : o + 1);
        PORT(base + o)->sa_out = (uint16_t)(i + 1 >= np ? 0 : i + 1);
        uint64_t vm = 0;
        for (uint64_t e = elig[i]; e; e &= e - 1) {
            uint32_t v = (uint32_t)__builtin_ctzll(e);
            if (LOUT(p, v) == o)
                vm |= 1ULL << v;
        }
        uint32_t v = rr_pick(vm, p->sa_in);
        p->sa_in = (uint16_t)(v + 1 >= V ? 0 : v + 1);
        traverse_with(n, rt, p, v, plain);
        sent++;
    }
    n->flit_hops += sent;
}
#undef LOUT

/* iSLIP with one iteration and input speedup s = n->xs > 1 (BookSim's
 * input_speedup): input port i is s crossbar inputs x = i s + k, the k-th
 * holding the VCs v with v mod s = k. Each crossbar input requests the
 * outputs its eligible VCs are bound for, each output grants one crossbar
 * input from its pointer, each crossbar input accepts one granting output
 * from its own pointer and sends its next eligible VC bound there: up to s
 * flits leave an input port a cycle, one per output. */
static void router_islip_speedup(mpp_net *n, mpp_router *rt, uint32_t r)
{
    HOT;
    va_pass(n, rt, r);
    uint64_t ins = rt->ready;
    if (!ins)
        return;
    uint32_t base = rt->base, np = rt->np, V = n->V, s = n->xs, nx = np * s;
    uint64_t *omask = n->s_out_mask, *xe = n->s_xelig, *xg = n->s_xgrant;
    uint64_t outs = 0;
    for (uint64_t m = ins; m; m &= m - 1) {
        uint32_t i = (uint32_t)__builtin_ctzll(m);
        mpp_port *p = PORT(base + i);
        uint64_t e = p->ready;
        if (n->nic_model)
            e = fifo_filter(n, p, e);
        for (uint32_t k = 0; k < s; k++)
            xe[i * s + k] = xg[i * s + k] = 0;
        for (uint64_t vm = e; vm; vm &= vm - 1) {
            uint32_t v = (uint32_t)__builtin_ctzll(vm), x = i * s + v % s;
            uint32_t o = IVC(p, v)->lout;
            uint64_t ob = 1ULL << o;
            xe[x] |= 1ULL << v;
            omask[o] = (omask[o] & -(uint64_t)((outs & ob) != 0)) | 1ULL << x;
            outs |= ob;
        }
    }
    uint64_t granted = 0;
    for (uint64_t m = outs; m; m &= m - 1) {
        uint32_t o = (uint32_t)__builtin_ctzll(m);
        uint32_t x = rr_pick(omask[o], PORT(base + o)->sa_out);
        xg[x] |= 1ULL << o;
        granted |= 1ULL << x;
    }
    uint32_t sent = 0;
    for (uint64_t m = granted; m; m &= m - 1) {
        uint32_t x = (uint32_t)__builtin_ctzll(m), i = x / s;
        mpp_port *p = PORT(base + i);
        size_t px = (size_t)(base + i) * s + x % s;
        uint32_t o = rr_pick(xg[x], n->xacc[px]);
        n->xacc[px] = (uint16_t)(o + 1 >= np ? 0 : o + 1);
        PORT(base + o)->sa_out = (uint16_t)(x + 1 >= nx ? 0 : x + 1);
        uint64_t vm = 0;
        for (uint64_t e = xe[x]; e; e &= e - 1) {
            uint32_t v = (uint32_t)__builtin_ctzll(e);
            if (IVC(p, v)->lout == o)
                vm |= 1ULL << v;
        }
        uint32_t v = rr_pick(vm, n->xsa[px]);
        n->xsa[px] = (uint16_t)(v + 1 >= V ? 0 : v + 1);
        traverse(n, rt, p, v);
        sent++;
    }
    n->flit_hops += sent;
}

static void router_islip_plain(mpp_net *n, mpp_router *rt, uint32_t r)
{
    router_islip_with(n, rt, r, true);
}

static void router_islip(mpp_net *n, mpp_router *rt, uint32_t r)
{
    router_islip_with(n, rt, r, false);
}

/* A large network (n->pf), before the visits of a chunk of routers: route
 * the waiting heads and fetch the output records that the visits will
 * read, so that those misses overlap instead of stalling one visit after
 * another. The heads are routed in the order va_pass would route them
 * (rotating input order, VCs ascending), so each router's random draws are
 * the same; under the age allocator, which routes oldest first, and under
 * adaptive routing, which routes a head when it tries for a VC (it sees the
 * outputs as they are then), only the fetches are done. */
static void chunk_prefetch(mpp_net *n, uint32_t w0, uint32_t w1)
{
    HOT;
    bool route = n->allocator != MPP_ALLOC_AGE && !n->adaptive;
    for (uint32_t w = w0; w < w1; w++)
        for (uint64_t m = n->amask[w]; m; m &= m - 1) {
            uint32_t r = w * 64 + (uint32_t)__builtin_ctzll(m);
            mpp_router *rt = &n->rt[r];
            uint32_t base = rt->base;
            uint64_t order[2];
            va_order(rt, order);
            for (int h = 0; h < 2; h++)
                for (uint64_t im = order[h]; im; im &= im - 1) {
                    uint32_t i = (uint32_t)__builtin_ctzll(im), g = base + i;
                    mpp_port *p = PORT(g);
                    for (uint64_t vm = p->wait; vm; vm &= vm - 1) {
                        uint32_t v = (uint32_t)__builtin_ctzll(vm);
                        mpp_ivc *c = IVC(p, v);
                        if (c->out == MPP_NONE) {
                            if (!route)
                                continue;
                            route_vc(n, rt, r, p, g, v, c, &n->pkt[BUF(p, v)[c->head] >> 2]);
                        }
                        __builtin_prefetch(PORT(c->out), 1);
                        __builtin_prefetch(OVC(PORT(c->out), 0), 1);
                    }
                }
            for (uint64_t im = rt->ready; im; im &= im - 1) {
                mpp_port *p = PORT(base + (uint32_t)__builtin_ctzll(im));
                for (uint64_t vm = p->ready; vm; vm &= vm - 1) {
                    mpp_ivc *c = IVC(p, (uint32_t)__builtin_ctzll(vm));
                    __builtin_prefetch(PORT(c->out), 1);
                    __builtin_prefetch(OVC(PORT(c->out), 0), 1);
                }
            }
        }
}

/* iSLIP on a network without nic: model or one-port ejection, with at
 * most 8 VCs: the visits of router_islip_with(plain). */
static inline bool plain_islip(const mpp_net *n)
{
    return n->allocator == MPP_ALLOC_ISLIP && !n->nic_model && !n->ej_one && n->V <= 8 &&
           n->xs <= 1;
}

/* One router's cycle: allocation and traversal by the configured allocator. */
static inline void router_visit(mpp_net *n, mpp_router *rt, uint32_t r)
{
    if (n->allocator == MPP_ALLOC_ISLIP) {
        if (__builtin_expect(n->xs > 1, 0))
            router_islip_speedup(n, rt, r);
        else if (plain_islip(n))
            router_islip_plain(n, rt, r);
        else
            router_islip(n, rt, r);
    }
    else if (n->allocator == MPP_ALLOC_AGE)
        router_age(n, rt, r);
    else
        router_separable(n, rt, r);
}

/* Ordered visiting: the active routers of amask words [w0, w1), in
 * ascending ids; an emptied router leaves (without a branch). */
static inline __attribute__((always_inline)) void visit_words_with(mpp_net *n, uint32_t w0,
                                                                   uint32_t w1, bool plain)
{
    for (uint32_t w = w0; w < w1; w++)
        for (uint64_t m = n->amask[w]; m; m &= m - 1) {
            uint32_t r = w * 64 + (uint32_t)__builtin_ctzll(m);
            mpp_router *rt = &n->rt[r];
            if (plain)
                router_islip_with(n, rt, r, true);
            else
                router_visit(n, rt, r);
            n->amask[w] &= ~((uint64_t)(rt->flits == 0) << (r & 63));
        }
}

/* (the plain iSLIP visits inlined into their loop; both loops inlined
 * into their callers, as they were with one caller) */
static inline __attribute__((always_inline)) void visit_words_plain(mpp_net *n, uint32_t w0,
                                                                    uint32_t w1)
{
    visit_words_with(n, w0, w1, true);
}

static inline __attribute__((always_inline)) void visit_words(mpp_net *n, uint32_t w0,
                                                              uint32_t w1)
{
    visit_words_with(n, w0, w1, false);
}

/* Ordered visiting sizes its chunks to the traffic. A chunk's deliveries
 * are fetched ahead only when its slot holds more than a few events, and
 * its records stay in cache from its deliveries to its visits only while
 * it receives not too many: at the end of each window of visited cycles
 * (RECHUNK_FIRST, then RECHUNK_CYCLES), when the events a chunk received
 * per cycle fell outside [RECHUNK_LO, RECHUNK_HI], the chunks become 2^cx
 * fine chunks (of 2^csh routers) with cx chosen so that a chunk receives
 * about RECHUNK_AIM (docs/performance.md). The events waiting in the wheel
 * move to the slots of their new chunks. Within a cycle the order of
 * deliveries decides nothing (mpp_net_routers), so neither does this. */

static uint32_t chunks_at(const mpp_net *n, uint32_t cx)
{
    return (uint32_t)(((uint64_t)n->nchunks + (1u << cx) - 1) >> cx);
}

static void rechunk(mpp_net *n)
{
    uint64_t ev = n->cev, per = n->cwin;
    n->cev = 0;
    n->cwin = 0;
    n->cnext = RECHUNK_CYCLES;
    if (ev >= RECHUNK_LO * per * n->ncur && ev <= RECHUNK_HI * per * n->ncur)
        return;
    /* the fewest chunks that still receive at most about RECHUNK_AIM */
    uint32_t cx = 0;
    while (chunks_at(n, cx) > 1 && 3 * ev < 2 * RECHUNK_AIM * per * chunks_at(n, cx) &&
           cx < n->cxmax)
        cx++;
    if (cx == n->cx)
        return;
    n->rechunks++;
    uint32_t old = n->ncur, nc = chunks_at(n, cx);
    mpp_slot *tmp = malloc((size_t)old * sizeof *tmp);
    if (!tmp)
        return; /* keep the chunks as they are: the size decides only speed */
    n->cx = cx;
    n->ncur = nc;
    set_chunks(n);
    for (uint32_t w = 0; w < n->W * n->nthreads; w++) {
        mpp_slot *row = &wheel_of(n, w / n->W)[(size_t)(w % n->W) * n->NQ];
        memcpy(tmp, row, (size_t)old * sizeof *tmp);
        memset(row, 0, (size_t)old * sizeof *row);
        for (uint32_t j = 0; j < old; j++) {
            for (uint32_t k = 0; k < tmp[j].nf; k++) {
                mpp_slot *s = &row[fine_chunk(n, tmp[j].f[k].to >> 6) >> cx];
                if (s->nf == s->fcap)
                    grow_slot_f(n, s);
                if (s->nf < s->fcap)
                    s->f[s->nf++] = tmp[j].f[k];
            }
            for (uint32_t k = 0; k < tmp[j].nc; k++) {
                mpp_slot *s = &row[fine_chunk(n, tmp[j].c[k] >> 6) >> cx];
                if (s->nc == s->ccap)
                    grow_slot_c(n, s);
                if (s->nc < s->ccap)
                    s->c[s->nc++] = tmp[j].c[k];
            }
            free(tmp[j].f);
            free(tmp[j].c);
        }
    }
    free(tmp);
}

void mpp_net_routers(mpp_net *n)
{
    if (n->shuffle)
        mpp_rng_shuffle(&n->shuffle_rng, n->active, n->nactive);
    /* Routers that empty leave the list after the pass; the list is only
     * appended to by mpp_net_deliver, never during this pass. */
    uint64_t hops = n->flit_hops;
    if (n->ordered) {
        if (n->nthreads > 1) {
            routers_par(n);
            return;
        }
        /* chunk by chunk of routers: the chunk's deliveries, then its
         * active routers in ascending ids. A chunk's records are then in
         * cache when its routers are visited, and neighbours' records are
         * near in memory. Nothing a visit does changes a delivery of this
         * cycle (every latency is at least 1), so this is the same as
         * delivering everything first. */
        if (++n->cwin == n->cnext && n->nchunks > 1)
            rechunk(n);
        mpp_slot *row = &n->wheel[(size_t)(n->cycle & (n->W - 1)) * n->NQ];
        uint32_t nw = (n->topo->routers + 63) / 64, wpc = 1u << (n->csh + n->cx - 6);
        for (uint32_t ch = 0; ch < n->ncur; ch++) {
            mpp_slot *s = &row[ch];
            n->cev += s->nc + s->nf;
            if (s->nc)
                deliver_credits(n, s);
            if (s->nf)
                deliver_flits(n, s);
            uint32_t w1 = (ch + 1) * wpc < nw ? (ch + 1) * wpc : nw;
            if (n->pf)
                chunk_prefetch(n, ch * wpc, w1);
            if (plain_islip(n))
                visit_words_plain(n, ch * wpc, w1);
            else
                visit_words(n, ch * wpc, w1);
        }
        if (n->flit_hops != hops)
            n->last_progress = n->cycle;
        return;
    }
    uint32_t na = n->nactive, w = 0;
    for (uint32_t k = 0; k < na; k++) {
        uint32_t r = n->active[k];
        mpp_router *rt = &n->rt[r];
        router_visit(n, rt, r);
        /* a router's flits only fall while it is visited */
        if (rt->flits) {
            rt->pos = w;
            n->active[w++] = r;
        } else {
            rt->pos = MPP_NONE;
        }
    }
    n->nactive = w;
    if (n->flit_hops != hops)
        n->last_progress = n->cycle;
}

/* --- threads ---------------------------------------------------------------- */

/* One thread's share of an ordered network (mpp_net_threads): the fine
 * chunks [f0, next part's f0) of routers, and its view of the network, a
 * copy of the network's fields made at the start of each cycle's parallel
 * phase with its own wheel (so its sends, and their cursors, are its own),
 * its own allocation scratch and its own counters (flit_hops, cev,
 * peak_vc, oom), which the calling thread adds up after the phase in
 * thread order. Everything else the view points to is shared: the
 * records of the thread's routers and of their ports are written only by
 * it, amask words (64 routers, a fine chunk's multiple) likewise, and the
 * packets it reads or writes are those whose head it routes. */
typedef struct mpp_net_part {
    mpp_net view;
    uint32_t f0;                  /* first fine chunk */
    uint32_t free_head, nfree;    /* its reserve of packet slots (mpp_net_reserve) */
    uint32_t *s_req_vc;           /* the scratch of mpp_net (per input of a router) */
    uint64_t *s_out_mask, *s_grant, *s_elig, *s_age_key;
    uint32_t *s_age_iv;
} mpp_net_part;

static void threads_free(mpp_net *n)
{
    mpp_par_destroy(n->par); /* (joins the workers before anything is freed) */
    n->par = NULL;
    for (uint32_t t = 1; n->part && t < n->nthreads; t++) {
        mpp_net_part *pt = &n->part[t];
        void *ptrs[] = {pt->s_req_vc, pt->s_out_mask, pt->s_grant, pt->s_elig, pt->s_age_key,
                        pt->s_age_iv};
        for (size_t i = 0; i < sizeof ptrs / sizeof ptrs[0]; i++)
            free(ptrs[i]);
    }
    for (uint32_t t = 1; n->wheels && t < n->nthreads; t++) {
        if (!n->wheels[t])
            continue;
        for (size_t s = 0; s < (size_t)n->W * n->NQ; s++) {
            free(n->wheels[t][s].f);
            free(n->wheels[t][s].c);
        }
        free(n->wheels[t]);
    }
    free(n->part);
    free(n->wheels);
    n->part = NULL;
    n->wheels = NULL;
    n->nthreads = 1;
    n->cxmax = 31;
}

/* The parallel phase of one cycle on thread t: for each of its chunks of
 * routers (ascending), the chunk's deliveries from every thread's wheel
 * (thread order; the order of a chunk's deliveries decides nothing:
 * mpp_net_routers), then its active routers in ascending ids, as the
 * serial path does. Reads the network's own fields only; writes its view,
 * its routers' records and its own wheel. */
static void part_run(void *ud, uint32_t t)
{
    const mpp_net *n = ud;
    mpp_net_part *pt = &n->part[t];
    mpp_net *v = &pt->view;
    *v = *n;
    v->wheel = n->wheels[t];
    v->s_req_vc = pt->s_req_vc;
    v->s_out_mask = pt->s_out_mask;
    v->s_grant = pt->s_grant;
    v->s_elig = pt->s_elig;
    v->s_age_iv = pt->s_age_iv;
    v->s_age_key = pt->s_age_key;
    v->flit_hops = 0;
    v->cev = 0;
    v->oom = false;
    /* packets only from the reserve (pool_cap 0: never grown here) */
    v->free_head = pt->free_head;
    v->pool_next = v->pool_cap = 0;
    v->pool_used = 0;
    v->pkts_started = 0;
    v->flits_injected = 0;
    set_cursors(v);
    uint32_t T = n->nthreads, cx = n->cx;
    uint32_t c0 = pt->f0 >> cx, c1 = t + 1 < T ? n->part[t + 1].f0 >> cx : n->ncur;
    size_t ro = (size_t)(n->cycle & (n->W - 1)) * n->NQ;
    uint32_t nw = (n->topo->routers + 63) / 64, wpc = 1u << (n->csh + cx - 6);
    bool plain = plain_islip(n);
    for (uint32_t ch = c0; ch < c1; ch++) {
        for (uint32_t u = 0; u < T; u++) {
            mpp_slot *s = &n->wheels[u][ro + ch];
            v->cev += s->nc + s->nf;
            if (s->nc)
                deliver_credits(v, s);
            if (s->nf)
                deliver_flits(v, s);
        }
        uint32_t w1 = (ch + 1) * wpc < nw ? (ch + 1) * wpc : nw;
        if (v->pf)
            chunk_prefetch(v, ch * wpc, w1);
        if (plain)
            visit_words_plain(v, ch * wpc, w1);
        else
            visit_words(v, ch * wpc, w1);
    }
    if (n->part_fn)
        n->part_fn(n->part_ud, v, t);
}

/* mpp_net_routers of an ordered network on nthreads threads: the chunk
 * sizing (on the calling thread, between phases), the parallel phase, and
 * the threads' counters added up in thread order. */
static void routers_par(mpp_net *n)
{
    if (++n->cwin == n->cnext && n->nchunks > 1)
        rechunk(n);
    mpp_par_run(n->par);
    uint64_t hops = 0;
    for (uint32_t t = 0; t < n->nthreads; t++) {
        mpp_net_part *pt = &n->part[t];
        const mpp_net *v = &pt->view;
        pt->free_head = v->free_head;
        pt->nfree -= v->pool_used;
        n->pool_used += v->pool_used;
        n->pkts_started += v->pkts_started;
        n->flits_injected += v->flits_injected;
        hops += v->flit_hops;
        n->cev += v->cev;
        if (v->peak_vc > n->peak_vc)
            n->peak_vc = v->peak_vc;
        n->oom |= v->oom;
    }
    n->flit_hops += hops;
    if (hops)
        n->last_progress = n->cycle;
}

int mpp_net_threads(mpp_net *n, uint32_t T, mpp_err *err)
{
    assert(mpp_net_settled(n) && !mpp_net_flits_in_flight(n));
    if (T < 2 || n->nthreads > 1 || !n->ordered || !n->arena)
        return 0; /* the serial path (its visiting order is not a block's) */
    if (T > n->nchunks)
        T = n->nchunks;
    if (T < 2)
        return 0;
    /* blocks of about nchunks / T fine chunks, their bounds multiples of
     * 2^k fine chunks, k the largest with 2^k <= nchunks / (8 T): within
     * an eighth of a block of even, and chunks of up to 2^k fine chunks
     * (the sizing's choice, capped) never straddle two blocks */
    uint32_t k = 0;
    while (((uint64_t)2 << k) * 8 * T <= n->nchunks)
        k++;
    n->part = calloc(T, sizeof *n->part);
    n->wheels = calloc(T, sizeof *n->wheels);
    if (!n->part || !n->wheels) {
        free(n->part);
        free(n->wheels);
        n->part = NULL;
        n->wheels = NULL;
        return mpp_err_set(err, MPP_ENOMEM, "out of memory starting %u threads", T);
    }
    n->nthreads = T;
    n->wheels[0] = n->wheel;
    uint32_t mr = n->topo->max_radix ? n->topo->max_radix : 1;
    bool ok = true;
    for (uint32_t t = 0; t < T; t++) {
        mpp_net_part *pt = &n->part[t];
        pt->free_head = MPP_NONE;
        uint64_t f = ((uint64_t)n->nchunks * t / T + ((1u << k) >> 1)) >> k << k;
        pt->f0 = t ? (uint32_t)f : 0;
        if (t == 0) {
            pt->s_req_vc = n->s_req_vc;
            pt->s_out_mask = n->s_out_mask;
            pt->s_grant = n->s_grant;
            pt->s_elig = n->s_elig;
            pt->s_age_iv = n->s_age_iv;
            pt->s_age_key = n->s_age_key;
            continue;
        }
        n->wheels[t] = calloc((size_t)n->W * n->NQ, sizeof *n->wheels[t]);
        pt->s_req_vc = calloc(mr, sizeof *pt->s_req_vc);
        pt->s_out_mask = calloc(mr, sizeof *pt->s_out_mask);
        pt->s_grant = calloc(mr, sizeof *pt->s_grant);
        pt->s_elig = calloc(mr, sizeof *pt->s_elig);
        ok &= n->wheels[t] && pt->s_req_vc && pt->s_out_mask && pt->s_grant && pt->s_elig;
        if (n->allocator == MPP_ALLOC_AGE) {
            pt->s_age_iv = calloc((size_t)mr * n->V, sizeof *pt->s_age_iv);
            pt->s_age_key = calloc((size_t)mr * n->V, sizeof *pt->s_age_key);
            ok &= pt->s_age_iv && pt->s_age_key;
        }
    }
    /* the bounds strictly ascending (2^k <= nchunks / (8 T) keeps them so) */
    for (uint32_t t = 1; t < T; t++)
        assert(n->part[t].f0 > n->part[t - 1].f0 && n->part[t].f0 < n->nchunks);
    if (!ok) {
        threads_free(n);
        return mpp_err_set(err, MPP_ENOMEM, "out of memory starting %u threads", T);
    }
    /* chunks within blocks: at most 2^k fine chunks each, from now on */
    n->cxmax = k;
    if (n->cx > k) {
        n->cx = k;
        n->ncur = chunks_at(n, k);
        set_chunks(n);
    }
    n->par = mpp_par_create(T, part_run, n, err);
    if (!n->par) {
        threads_free(n);
        return err ? err->code : MPP_EINVAL;
    }
    return 0;
}

/* --- node injection -------------------------------------------------------- */

/* A packet slot: from the free list, else the next never-used slot; the
 * pool doubles when every slot is used (rare, amortised: never per flit),
 * so memory follows the packets in flight. MPP_NONE when out of memory or
 * at the 30-bit handle limit (n->oom). */
static uint32_t pkt_alloc(mpp_net *n)
{
    uint32_t h = n->free_head;
    if (h != MPP_NONE) {
        n->free_head = n->pkt[h].next_free;
    } else {
        if (n->pool_next == n->pool_cap) {
            uint64_t cap = (uint64_t)n->pool_cap * 2;
            if (cap > (1u << 30))
                cap = 1u << 30;
            mpp_packet *np = cap > n->pool_cap ? aligned_alloc(64, cap * sizeof *np) : NULL;
            if (!np) {
                n->oom = true;
                return MPP_NONE;
            }
            memcpy(np, n->pkt, (size_t)n->pool_cap * sizeof *np);
            free(n->pkt);
            n->pkt = np;
            n->pool_cap = (uint32_t)cap;
        }
        h = n->pool_next++;
    }
    n->pool_used++;
    return h;
}

bool mpp_net_inject(mpp_net *n, uint32_t l, mpp_srcq *qs, uint32_t nq, mpp_rng *rng)
{
    HOT;
    mpp_link *lk = &n->link[l];
    mpp_port *lp = PORT(n->P + l);
    mpp_srcq *q = NULL;
    if (lk->pkt == MPP_NONE) {
        bool waiting = false;
        uint32_t j = lk->q < nq ? lk->q : lk->q % nq;
        for (uint32_t k = 0; k < nq; k++, j = j + 1 == nq ? 0 : j + 1) {
            if (!qs[j].count)
                continue;
            waiting = true;
            if (mpp_srcq_front(&qs[j])->created < n->cycle) {
                q = &qs[j];
                lk->q = j + 1 == nq ? 0 : j + 1;
                break;
            }
        }
        if (!q)
            return waiting; /* nothing, or only packets injectable later */
        mpp_src_entry *e = mpp_srcq_front(q);
        uint32_t span = n->route_classes * n->vcs_per_class;
        uint32_t lo = e->mclass * span;
        bool ct = n->flow == MPP_FLOW_CUT_THROUGH;
        uint32_t start = lp->va_ptr, v = MPP_NONE;
        if (start >= span)
            start %= span;
        mpp_ovc *ovs = OVC(lp, 0);
        for (uint32_t k = 0, c = start; k < span; k++, c = c + 1 == span ? 0 : c + 1) {
            mpp_ovc *o = &ovs[lo + c];
            if (o->holder != MPP_NONE || (ct && o->credits < e->flits) ||
                (n->wtc && o->credits != n->B))
                continue;
            v = lo + c;
            lp->va_ptr = (uint16_t)(c + 1 == span ? 0 : c + 1);
            break;
        }
        if (v == MPP_NONE)
            return true;
        uint32_t h = pkt_alloc(n);
        if (h == MPP_NONE)
            return true; /* out of memory: n->oom stops the run */
        mpp_packet *p = &n->pkt[h];
        uint32_t node = n->topo->link_node[l];
        p->src = node;
        p->dst = e->dst;
        p->flits = e->flits;
        p->hops = UINT32_MAX; /* route_vc counts the routers; hops are one fewer */
        p->created = e->created;
        p->injected = MPP_NONE;
        p->tag = e->tag;
        p->mclass = e->mclass;
        p->measured = e->measured;
        p->pace = e->pace;
        p->eject_link = 0;
        p->rerouting = 0;
        p->misroutes = 0;
        mpp_route_state_init(&p->route, n->topo, node, e->dst);
        if (n->routing->init_packet)
            n->routing->init_packet(n->topo, n->routing_cfg, n->routing_priv, &p->route, rng);
        mpp_srcq_pop(q);
        n->pkts_started++;
        lk->pkt = h;
        lk->sent = 0;
        lk->vc = v;
        ovs[v].holder = MPP_HOLD_LINK;
    }
    uint32_t h = lk->pkt, v = lk->vc;
    mpp_ovc *o = OVC(lp, v);
    if (!o->credits)
        return true;
    mpp_packet *p = &n->pkt[h];
    uint32_t s = lk->sent;
    /* a paced packet: a flit no earlier than pace after the one before; a
     * flit held up (no credit) delays the ones after it, it does not make
     * up for the wait later (the feeder stalls with the network) */
    if (p->pace) {
        uint64_t now = n->cycle << 8;
        if (s && now < lk->next)
            return true;
        lk->next = (s && now < lk->next + 256 ? lk->next : now) + p->pace;
    }
    lk->sent++;
    uint32_t flit = h << 2;
    if (s == 0) {
        flit |= MPP_FLIT_HEAD;
        p->injected = n->cycle;
    }
    if (s + 1 == p->flits)
        flit |= MPP_FLIT_TAIL;
    o->credits--;
    n->flits_injected++;
    n->flit_hops++;
    n->last_progress = n->cycle;
    send_flit(n, lp, v, flit);
    if (flit & MPP_FLIT_TAIL) {
        o->holder = MPP_NONE;
        lk->pkt = MPP_NONE;
        for (uint32_t k = 0; k < nq; k++)
            if (qs[k].count)
                return true;
        return false;
    }
    return true;
}

bool mpp_net_reserve(mpp_net *n, uint32_t t, uint32_t k)
{
    mpp_net_part *pt = &n->part[t];
    while (pt->nfree < k) {
        uint32_t h = pkt_alloc(n);
        if (h == MPP_NONE)
            return false;
        n->pool_used--; /* reserved, not in use */
        n->pkt[h].next_free = pt->free_head;
        pt->free_head = h;
        pt->nfree++;
    }
    return true;
}

void mpp_net_fifo_release(mpp_net *n, uint32_t h)
{
    const mpp_packet *p = &n->pkt[h];
    n->ej_credits[(size_t)p->eject_link * n->message_classes + p->mclass] += p->flits;
}

void mpp_net_pkt_free(mpp_net *n, uint32_t h)
{
    n->pkt[h].next_free = n->free_head;
    n->free_head = h;
    n->pool_used--;
}

/* --- accounting, checks, reports ------------------------------------------ */

bool mpp_net_idle(const mpp_net *n)
{
    if (mpp_net_flits_in_flight(n) || !mpp_net_settled(n))
        return false;
    for (uint32_t l = 0; l < n->L; l++)
        if (n->link[l].pkt != MPP_NONE)
            return false;
    return true;
}

void mpp_net_routers_blocked(mpp_net *n, uint64_t k)
{
    for (uint32_t r = 0; r < n->topo->routers; r++) {
        mpp_router *rt = &n->rt[r];
        if (!rt->flits)
            continue; /* not active */
        rt->rot = (uint32_t)((rt->rot + k % rt->np) % rt->np);
    }
}

void mpp_net_inject_blocked(mpp_net *n, uint32_t l, const mpp_srcq *qs, uint32_t nq, uint64_t k)
{
    mpp_link *lk = &n->link[l];
    if (lk->pkt != MPP_NONE || k == 0)
        return; /* a packet in progress waits for credits: nothing moves */
    /* each call picks the first non-empty queue from q on and sets q past
     * it: k calls walk k steps along the non-empty queues */
    uint32_t ne = 0, at = 0;
    for (uint32_t j = 0; j < nq; j++)
        ne += qs[j].count != 0;
    if (!ne)
        return;
    /* the rank (among the non-empty queues, in index order) of the first pick */
    uint32_t first = lk->q % nq;
    while (!qs[first].count)
        first = (first + 1) % nq;
    for (uint32_t j = 0; j < first; j++)
        at += qs[j].count != 0;
    uint32_t rank = (uint32_t)((at + (k - 1) % ne) % ne);
    for (uint32_t j = 0; j < nq; j++)
        if (qs[j].count && rank-- == 0) {
            lk->q = (j + 1) % nq;
            return;
        }
}

bool mpp_net_settled(const mpp_net *n)
{
    for (uint32_t t = 0; t < n->nthreads; t++) {
        const mpp_slot *wh = wheel_of(n, t);
        for (size_t s = 0; s < (size_t)n->W * n->NQ; s++)
            if (wh[s].nc || wh[s].nf)
                return false;
    }
    return true;
}

uint64_t mpp_net_flits_in_flight(const mpp_net *n)
{
    return n->flits_injected - n->flits_ejected;
}

bool mpp_net_check(const mpp_net *n)
{
    uint32_t V = n->V, B = n->B;
    size_t nov = (size_t)n->NE * V;
    int64_t *acc = calloc(nov, sizeof *acc);
    uint32_t *hold = calloc(nov, sizeof *hold);
    if (!acc || !hold) {
        free(acc);
        free(hold);
        return false;
    }
    bool ok = true;
    /* credits held + credits in flight */
    for (uint32_t e = 0; e < n->NE; e++)
        for (uint32_t v = 0; v < V; v++)
            acc[(size_t)e * V + v] = mpp_port_ovc(n, mpp_net_port(n, e), v)->credits;
    uint64_t inflight = 0, buffered = 0;
    for (size_t s = 0; s < (size_t)n->W * n->NQ * n->nthreads; s++) {
        const mpp_slot *sl = &wheel_of(n, (uint32_t)(s / ((size_t)n->W * n->NQ)))[s % ((size_t)n->W * n->NQ)];
        for (uint32_t k = 0; k < sl->nc; k++)
            acc[(size_t)(sl->c[k] >> 6) * V + (sl->c[k] & 63)]++;
        /* flits in flight toward an input VC count against its feeder */
        for (uint32_t k = 0; k < sl->nf; k++) {
            uint32_t in = sl->f[k].to >> 6;
            inflight++;
            if (in < n->P)
                acc[(size_t)mpp_net_port(n, in)->src * V + (sl->f[k].to & 63)]++;
        }
    }
    for (uint32_t g = 0; g < n->P; g++) {
        mpp_port *p = mpp_net_port(n, g);
        uint64_t ready = 0, wait = 0;
        for (uint32_t v = 0; v < V; v++) {
            const mpp_ivc *c = mpp_port_ivc(n, p, v);
            buffered += c->count;
            if (c->count > B)
                ok = false;
            if (p->src != MPP_NONE)
                acc[(size_t)p->src * V + v] += c->count;
            if (c->ovc != MPP_VC_NONE)
                hold[(size_t)c->out * V + c->ovc]++;
            if (!c->count)
                continue;
            if (c->ovc == MPP_VC_NONE) {
                wait |= 1ULL << v;
            } else {
                mpp_port *op = mpp_net_port(n, c->out);
                if (op->sink || mpp_port_ovc(n, op, c->ovc)->credits)
                    ready |= 1ULL << v;
                if (mpp_port_ovc(n, op, c->ovc)->holder != (g << 6 | v))
                    ok = false;
            }
        }
        /* invariant 6 */
        if (ready != p->ready || wait != p->wait)
            ok = false;
        const mpp_router *rt = &n->rt[p->router];
        uint64_t ib = 1ULL << p->local;
        if (((rt->ready & ib) != 0) != (ready != 0) ||
            ((rt->wait & ib) != 0) != (wait != 0))
            ok = false;
    }
    for (uint32_t o = 0; o < n->NE; o++) {
        mpp_port *p = mpp_net_port(n, o);
        if (p->dst == MPP_NONE || p->sink)
            continue;
        for (uint32_t v = 0; v < V; v++)
            if (acc[(size_t)o * V + v] != (int64_t)B)
                ok = false;
    }
    free(acc);
    /* ownership: each busy output VC has exactly one holder */
    for (uint32_t l = 0; l < n->L; l++)
        if (n->link[l].pkt != MPP_NONE)
            hold[(size_t)(n->P + l) * V + n->link[l].vc]++;
    for (size_t i = 0; i < nov; i++)
        if (hold[i] != (mpp_net_ovc_busy(n, (uint32_t)(i / V), (uint32_t)(i % V)) ? 1u : 0u))
            ok = false;
    free(hold);
    if (n->ej_one) {
        /* one-port: a node's busy ejection VCs number ej_busy (0 or 1) */
        uint32_t *ej = calloc(n->topo->nodes ? n->topo->nodes : 1, sizeof *ej);
        if (!ej)
            return false;
        for (uint32_t o = 0; o < n->P; o++)
            if (mpp_net_port(n, o)->sink)
                for (uint32_t v = 0; v < V; v++)
                    ej[mpp_net_port(n, o)->sink_node] += mpp_net_ovc_busy(n, o, v);
        for (uint32_t v = 0; v < n->topo->nodes; v++)
            if (ej[v] != n->ej_busy[v] || ej[v] > 1)
                ok = false;
        free(ej);
    }
    if (n->flits_injected != n->flits_ejected + inflight + buffered)
        ok = false;
    for (uint32_t r = 0; r < n->topo->routers; r++) {
        const mpp_router *rt = &n->rt[r];
        uint32_t f = 0;
        for (uint32_t i = 0; i < rt->np; i++)
            for (uint32_t v = 0; v < V; v++)
                f += mpp_port_ivc(n, mpp_net_port(n, rt->base + i), v)->count;
        bool listed = n->ordered ? (n->amask[r >> 6] >> (r & 63)) & 1 : rt->pos != MPP_NONE;
        if (f != rt->flits || (rt->flits > 0) != listed)
            ok = false;
    }
    return ok;
}

static void port_label(const mpp_net *n, uint32_t g, char *buf, int len)
{
    const mpp_topo *t = n->topo;
    uint32_t r = t->port_router[g];
    char pn[24];
    mpp_topo_port_name(t, r, g - t->port_base[r], pn, (int)sizeof pn);
    snprintf(buf, (size_t)len, "router %u port %s", r, pn);
}

void mpp_net_report(const mpp_net *n, mpp_sb *sb, uint32_t max_lines)
{
    uint32_t V = n->V, lines = 0, held = 0;
    for (uint32_t g = 0; g < n->P; g++)
        for (uint32_t v = 0; v < V; v++) {
            mpp_port *p = mpp_net_port(n, g);
            const mpp_ivc *c = mpp_port_ivc(n, p, v);
            if (!c->count)
                continue;
            held++;
            if (lines >= max_lines)
                continue;
            lines++;
            char here[64], there[64];
            port_label(n, g, here, sizeof here);
            uint32_t flit = mpp_port_buf(n, p, v)[c->head];
            const mpp_packet *pk = &n->pkt[flit >> 2];
            mpp_sb_printf(sb, "  %s in-VC %u holds %u flit%s; front: %s of packet %u->%u", here, v,
                          c->count, c->count == 1 ? "" : "s",
                          (flit & MPP_FLIT_HEAD) ? "head" : "body/tail", pk->src, pk->dst);
            if (c->out == MPP_NONE) {
                mpp_sb_add(sb, ", not yet routed\n");
            } else if (c->ovc == MPP_VC_NONE) {
                port_label(n, c->out, there, sizeof there);
                mpp_sb_printf(sb, ", waits for a free VC %u..%u at %s (all held by other packets)\n",
                              c->lo, c->hi - 1, there);
            } else {
                port_label(n, c->out, there, sizeof there);
                mpp_sb_printf(sb, ", waits for a credit on %s VC %u (downstream buffer full)\n",
                              there, c->ovc);
            }
        }
    if (held > lines)
        mpp_sb_printf(sb, "  ... and %u more VCs holding flits\n", held - lines);
    mpp_sb_printf(sb, "  %u VCs hold flits; %llu flits in the network\n", held,
                  (unsigned long long)mpp_net_flits_in_flight(n));
}

/* --- source queues --------------------------------------------------------- */

bool mpp_srcq_push(mpp_srcq *q, const mpp_src_entry *e)
{
    if (q->count == q->cap) {
        if (q->cap >= (1u << 31))
            return false; /* the capacity would wrap */
        uint32_t cap = q->cap ? q->cap * 2 : 16;
        mpp_src_entry *ne = malloc((size_t)cap * sizeof *ne);
        if (!ne)
            return false;
        for (uint32_t i = 0; i < q->count; i++)
            ne[i] = q->e[(q->head + i) & (q->cap - 1)];
        free(q->e);
        q->e = ne;
        q->head = 0;
        q->cap = cap;
    }
    q->e[(q->head + q->count) & (q->cap - 1)] = *e;
    q->count++;
    return true;
}

void mpp_srcq_free(mpp_srcq *q)
{
    free(q->e);
    memset(q, 0, sizeof *q);
}
