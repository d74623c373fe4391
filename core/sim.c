/* core/sim.c — one simulation: the workload's sources, ejection,
 * statistics and the cycle loop around the network (core/network.c) and
 * the node processors (core/node.c).
 *
 * Data: per node a growable source queue per message class (packets by
 * creation cycle, SPEC 2), a traffic stream and a route-state stream; a
 * dense list of nodes with something to inject; exact latency histograms
 * of the measured packets. The workload (core/workload.h) is reached only
 * through its ops table: setup installs open-loop sources, packets or node
 * programs through the services of sim.h, on_packet sees delivered
 * packets, finish adds the columns only it knows.
 *
 * One cycle (cycle_once), in a fixed order that cannot change results:
 *   1. mpp_net_deliver  — credits and flits due now land; ejected tails are
 *                         delivered (eject_cb) and their pool slots freed;
 *   2. mpp_net_routers  — every active router moves at most one flit per
 *                         input and per output;
 *   3. injection        — every active node link sends at most one flit;
 *                         a packet created in cycle t is injectable from t+1;
 *   4. processors       — every node processor due this cycle acts;
 *   5. generation       — open-loop sources draw Bernoulli(rate / flits);
 *   6. watchdog         — no flit moved and no processor was busy for
 *                         watchdog_cycles while work
 *                         remains: stop with a deadlock report;
 *   7. invariants       — debug builds: assert(mpp_sim_check) every
 *                         MPP_SIM_CHECK_EVERY cycles.
 *
 * How a run ends (mpp_sim_run), by the work installed, not by workload:
 *
 *   open-loop sources --> warm-up --> window [W, W+M) --> drain: until the
 *                         measured packets are delivered or drain_factor x M
 *   node programs -----> until every program finished and no packet waits
 *                         or travels; the clock jumps over idle stretches
 *                         to the next processor event
 *   packets only ------> until every packet is delivered
 *
 * Open-loop runs (SPEC 2): packets created inside the window are measured;
 * ejected flits inside it are the accepted throughput. Sources keep
 * injecting while draining, as BookSim does, so measured packets see the
 * same load.
 *
 * Node ports (node.ports, docs/model.md): a node's source queues are one
 * per message class, shared by its links (the fat tree's two links take
 * its packets in rotating order), except with ports: all on a direct
 * network (per_link), where each link has its own and a packet is queued
 * on the link paired with its first hop (inject_link: the routing's own
 * first step, run on a scratch route state with the node's MPP_RNG_PORTS
 * stream). ports: one on a multi-link topology starts a packet on one
 * link only when no other link of the node has one in progress.
 *
 * Threads (sim.threads > 1, docs/scaling.md): once open-loop
 * sources have ordered the network, mpp_net_threads splits its routers and
 * parts_init its nodes into blocks of consecutive ids; each cycle's phases
 * 2 and 3 then run in the network's parallel phase, a thread per block
 * (inject_part: each block its own active list, a region of nact), the
 * counters added up after it in block order (parts_merge). Phases 1 and
 * 4-7 stay on the calling thread. Node programs, one-port links and the
 * shuffled order keep the serial path (one thread).
 *
 * Invariants (mpp_sim_check, with the network's and the processors'):
 *   1. queued == sum of source queue lengths;
 *   2. a node is in the active list iff one of its links has work;
 *   3. outstanding == packets sent with mpp_sim_send and not yet delivered;
 *   4. one-port: at most one link of a node has a packet in progress.
 */
#include "core/sim.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/ckd.h"
#include "core/base/file.h"
#include "core/base/heap.h"
#include "core/base/strbuf.h"
#include "core/base/sysmem.h"
#include "core/network.h"
#include "core/node.h"
#include "core/stats.h"
#include "core/workload.h"

struct mpp_sim {
    mpp_sim_config cfg;
    mpp_topo topo;
    mpp_net net;
    mpp_packetizer pk;
    uint32_t N;
    uint32_t MC;           /* source queues per node (message classes used) */
    uint64_t settle;       /* MPP_SIM_SETTLE_CYCLES, or UINT64_MAX: never jump */
    /* node ports (docs/model.md "Node ports") */
    bool all_port;         /* the resolved model is all-port (mpp_sim_all_port) */
    bool per_link;         /* all-port on a direct network: a source queue per link */
    bool one_port;         /* one-port on a multi-link topology: a packet at a time */
    uint32_t NQ;           /* source queues per class: N, or the links when per_link */
    mpp_rng *prng;         /* [N] per_link: injection link choice (first-hop draw) */
    mpp_srcq *srcq;        /* [NQ x MC]: queue q of class c is srcq[q * MC + c] */
    mpp_rng *trng;         /* [N] traffic: injection and destinations */
    mpp_rng *srng;         /* [N] per-packet route state */
    uint32_t *nact;        /* dense list of nodes with injection work (threads: one list per
                              block of nodes, at nact[part_node0[t]..+part_cnt[t]]) */
    uint32_t *nact_pos;    /* [N] */
    uint32_t nnact;        /* nodes in the list(s) */
    /* threads (the network's nthreads > 1): node blocks, each injected by one thread */
    uint32_t nparts;       /* 0: the serial injection (inject_all) */
    uint32_t *part_node0;  /* [nparts + 1] first node of each block */
    uint32_t *part_cnt;    /* [nparts] nodes in each block's list */
    uint64_t *part_took;   /* [nparts] packets each block started this cycle */
    uint8_t *node_part;    /* [N] a node's block */
    uint32_t max_links;    /* most links a node has */
    uint64_t queued;       /* entries in all source queues */
    /* the workload */
    const mpp_workload_ops *wl;
    void *wl_priv;
    /* open-loop sources (mpp_sim_open_loop) */
    bool open;
    mpp_traffic traffic;
    bool traffic_ready;
    uint32_t *phys;        /* [N] logical -> physical */
    uint32_t *logical;     /* [N] physical -> logical */
    double inj_p;          /* a source's probability of a packet per cycle */
    double inj_lp;         /* log(1 - inj_p) */
    mpp_heap next_inj;     /* (cycle of a source's next packet, node) */
    uint32_t packet_flits;
    double rate;
    uint64_t measure;
    uint32_t drain_factor;
    /* node programs (mpp_sim_programs) */
    mpp_nodes *nodes;
    mpp_am_handler handler;
    mpp_app_start app_start;
    void *handler_ud;
    uint64_t nodes_done_at;
    /* packet callback of API users */
    mpp_packet_fn on_packet;
    void *on_packet_ud;
    /* measurement */
    uint64_t wstart, wend; /* window [wstart, wend) */
    uint64_t *node_ejected;/* [N] flits ejected in the window */
    uint64_t created_flits;/* flits created in the window */
    uint64_t measured_created, measured_delivered;
    uint64_t hops_sum;
    uint64_t misroutes_sum; /* adaptive routing: non-minimal hops of measured packets */
    uint32_t misroutes_max;
    mpp_hist lat_total, lat_net;
    uint64_t *matrix;      /* [N * N] or NULL */
    uint32_t *chan_out;    /* channel index -> output endpoint */
    size_t nchan;
    uint64_t outstanding;  /* packets queued by mpp_sim_send, not delivered */
    uint64_t packets_delivered;
    bool oom;
    bool overfull;         /* a packet found MPP_SIM_MAX_QUEUED packets queued */
    mpp_sim_result res;
    mpp_sb report;
};

static bool enqueue(mpp_sim *s, uint32_t src, const mpp_src_entry *e);
static int parts_init(mpp_sim *s, mpp_err *err);
static const mpp_srcq *queue_for(void *ud, uint32_t node, uint32_t cls, uint32_t dst);

/* --- ejection ------------------------------------------------------------- */

static inline void count_misroutes(mpp_sim *s, const mpp_packet *p)
{
    s->misroutes_sum += p->misroutes;
    if (p->misroutes > s->misroutes_max)
        s->misroutes_max = p->misroutes;
}

static void packet_hooks(mpp_sim *s, const mpp_packet *p, uint64_t cycle, bool measured)
{
    if (!s->on_packet && !(s->wl && s->wl->on_packet))
        return;
    mpp_packet_record rec = {
        .src = p->src, .dst = p->dst, .flits = p->flits, .hops = p->hops,
        .created = p->created, .injected = p->injected, .delivered = cycle,
        .tag = p->tag, .measured = measured,
    };
    if (s->wl && s->wl->on_packet)
        s->wl->on_packet(s->wl_priv, &rec);
    if (s->on_packet)
        s->on_packet(s->on_packet_ud, &rec);
}

static void eject_cb(void *ud, uint32_t node, uint32_t flit, uint64_t cycle)
{
    mpp_sim *s = ud;
    mpp_packet *p = &s->net.pkt[flit >> 2];
    bool in_window = cycle >= s->wstart && cycle < s->wend;
    if (in_window) {
        s->node_ejected[node]++;
        if (s->matrix)
            s->matrix[(size_t)p->src * s->N + p->dst]++;
    }
    if (!(flit & MPP_FLIT_TAIL))
        return;
    s->packets_delivered++;
    if (s->nodes) {
        /* the packet is complete in the receive FIFO; the processor reads it */
        s->measured_delivered++;
        mpp_hist_add(&s->lat_total, cycle - p->created);
        mpp_hist_add(&s->lat_net, cycle - p->injected);
        s->hops_sum += p->hops;
        count_misroutes(s, p);
        packet_hooks(s, p, cycle, true);
        mpp_nodes_arrive(s->nodes, node, flit >> 2, cycle);
        return;
    }
    if (p->measured) {
        s->measured_delivered++;
        mpp_hist_add(&s->lat_total, cycle - p->created);
        mpp_hist_add(&s->lat_net, cycle - p->injected);
        s->hops_sum += p->hops;
        count_misroutes(s, p);
    }
    if (!s->open)
        s->outstanding--;
    packet_hooks(s, p, cycle, p->measured != 0);
    mpp_net_pkt_free(&s->net, flit >> 2);
}

/* --- services for workloads ------------------------------------------------- */

const mpp_sim_config *mpp_sim_config_get(const mpp_sim *s) { return &s->cfg; }
const mpp_topo *mpp_sim_topology(const mpp_sim *s) { return &s->topo; }
const mpp_packetizer *mpp_sim_packetizer(const mpp_sim *s) { return &s->pk; }

/* Cycles from a source's packet to its next one (>= 1): a Bernoulli
 * source of probability p per cycle waits a geometric time, drawn by
 * inversion from one 64-bit draw of the node's traffic stream, so a source
 * costs nothing between its packets (docs/model.md, "Open-loop sources"). */
static uint64_t inj_gap(const mpp_sim *s, mpp_rng *r)
{
    double u = ((double)(mpp_rng_next(r) >> 11) + 1.0) * 0x1p-53; /* (0, 1] */
    if (s->inj_p >= 1.0)
        return 1;
    double g = floor(log(u) / s->inj_lp);
    return g < 4.0e18 ? (uint64_t)g + 1 : (uint64_t)1 << 62;
}

int mpp_sim_open_loop(mpp_sim *s, const mpp_open_loop *ol, mpp_err *err)
{
    if (s->open || s->nodes || s->queued)
        return mpp_err_set(err, MPP_EINVAL,
                           "open-loop sources cannot be combined with other work");
    if (!ol->pattern)
        return mpp_err_set(err, MPP_EINVAL, "workload names no traffic pattern");
    if (ol->packet_flits < 1 || ol->measure < 1)
        return mpp_err_set(err, MPP_EINVAL, "workload: packet_flits and measure must be at least 1");
    /* the window and the drain limit, warmup + (1 + drain_factor) x measure,
     * within the simulated time a run may reach (the schemas' maxima keep
     * it there; a library caller may not) */
    uint64_t span;
    if (mpp_ckd_mul(&span, ol->measure, (uint64_t)ol->drain_factor + 1) ||
        mpp_ckd_add(&span, span, ol->warmup) || span > MPP_CKD_TIME_MAX)
        return mpp_err_set(err, MPP_EINVAL,
                           "workload: warmup (%" PRIu64 ") + (1 + drain_factor (%u)) x measure "
                           "(%" PRIu64 ") passes 2^62 cycles",
                           ol->warmup, ol->drain_factor, ol->measure);
    if (!(ol->rate >= 0.0 && ol->rate <= 1.0))
        return mpp_err_set(err, MPP_EINVAL, "workload: rate must be between 0 and 1 flits/node/cycle");
    if (s->net.flow == MPP_FLOW_CUT_THROUGH && ol->packet_flits > s->net.B)
        return mpp_err_set(err, MPP_EINVAL,
                           "network: cut-through needs buffer_flits (%u) >= packet_flits (%u)",
                           s->net.B, ol->packet_flits);
    if (mpp_traffic_init(&s->traffic, ol->pattern, ol->pattern_cfg, &s->topo, s->cfg.run.seed,
                         err))
        return err ? err->code : MPP_EINVAL;
    s->traffic_ready = true;
    s->phys = calloc(s->N, sizeof *s->phys);
    s->logical = calloc(s->N, sizeof *s->logical);
    if (!s->phys || !s->logical)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    mpp_place(ol->placement, s->cfg.run.seed, s->N, s->phys, s->logical);
    s->open = true;
    /* open-loop sources only: the routers' visiting order decides nothing
     * (the network's statistics are sums), so they are visited in id order */
    if (!s->net.shuffle && !s->net.ej_one)
        mpp_net_order(&s->net);
    s->rate = ol->rate;
    s->packet_flits = ol->packet_flits;
    s->inj_p = ol->rate / ol->packet_flits;
    s->inj_lp = log1p(-s->inj_p);
    s->measure = ol->measure;
    if (!mpp_heap_init(&s->next_inj, s->N))
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    if (s->inj_p > 0)
        for (uint32_t node = 0; node < s->N; node++)
            if (!mpp_heap_push(&s->next_inj, inj_gap(s, &s->trng[node]) - 1, node))
                return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    s->drain_factor = ol->drain_factor;
    s->wstart = ol->warmup;
    s->wend = ol->warmup + ol->measure;
    return 0;
}

int mpp_sim_window(mpp_sim *s, uint64_t start, uint64_t length, mpp_err *err)
{
    uint64_t end;
    if (mpp_ckd_add(&end, start, length) || end > MPP_CKD_TIME_MAX)
        return mpp_err_set(err, MPP_EINVAL,
                           "workload: warmup (%" PRIu64 ") + measure (%" PRIu64
                           ") passes 2^62 cycles",
                           start, length);
    if (!s->open) {
        s->wstart = start;
        s->wend = end;
    }
    return 0;
}

int mpp_sim_send(mpp_sim *s, uint32_t src, uint32_t dst, uint32_t flits, uint64_t tag, mpp_err *err)
{
    if (s->open)
        return mpp_err_set(err, MPP_EINVAL, "mpp_sim_send: open-loop sources are installed");
    if (src >= s->N || dst >= s->N || flits < 1)
        return mpp_err_set(err, MPP_EINVAL, "packet %u->%u of %u flits: no such node or empty",
                           src, dst, flits);
    if (s->net.flow == MPP_FLOW_CUT_THROUGH && flits > s->net.B)
        return mpp_err_set(err, MPP_EINVAL, "cut-through needs packets of at most buffer_flits (%u) flits",
                           s->net.B);
    mpp_src_entry e = {.created = s->net.cycle, .tag = tag, .dst = dst, .flits = flits,
                       .mclass = 0, .measured = 1};
    if (!enqueue(s, src, &e)) {
        if (s->overfull)
            return mpp_err_set(err, MPP_EINVAL, "more than %u packets in the source queues",
                               MPP_SIM_MAX_QUEUED);
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    }
    s->measured_created++;
    s->created_flits += flits;
    s->outstanding++;
    return 0;
}

/* The node layer writes a packet into a send FIFO. */
static bool node_push(void *ud, uint32_t node, uint32_t cls, const mpp_src_entry *e)
{
    mpp_sim *s = ud;
    (void)cls;
    s->measured_created++;
    s->created_flits += e->flits;
    return enqueue(s, node, e);
}

int mpp_sim_programs(mpp_sim *s, const mpp_program *prog, mpp_err *err)
{
    uint32_t N = s->N;
    if (s->nodes || s->open)
        return mpp_err_set(err, MPP_EINVAL, "node programs are already installed, or open-loop "
                                            "sources are");
    if (s->net.flow == MPP_FLOW_CUT_THROUGH && s->pk.full_flits > s->net.B)
        return mpp_err_set(err, MPP_EINVAL,
                           "network: cut-through needs buffer_flits (%u) >= the %u flits of a "
                           "full packet",
                           s->net.B, s->pk.full_flits);
    if (s->cfg.node.interfaces > s->MC)
        return mpp_err_set(err, MPP_EINVAL,
                           "node programs on %u NIC interfaces need a workload that declares "
                           "MPP_WL_NODES (one message class per interface)",
                           s->cfg.node.interfaces);
    const mpp_op **ops = calloc(N, sizeof *ops);
    uint32_t *len = calloc(N, sizeof *len);
    if (!ops || !len) {
        free(ops);
        free(len);
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    }
    int rc = 0;
    for (uint32_t p = 0; p < N && !rc; p++) {
        ops[p] = prog[p].ops;
        len[p] = prog[p].len;
        for (uint32_t k = 0; k < prog[p].len; k++) {
            const mpp_op *op = &prog[p].ops[k];
            bool peer = op->code == MPP_OP_SEND || op->code == MPP_OP_ISEND ||
                        op->code == MPP_OP_SENDRECV || op->code == MPP_OP_AM ||
                        ((op->code == MPP_OP_RECV || op->code == MPP_OP_IRECV) &&
                         op->peer != MPP_ANY);
            if ((peer && op->peer >= N) || (op->code == MPP_OP_SENDRECV && op->peer2 >= N) ||
                op->code > MPP_OP_APP) {
                rc = mpp_err_set(err, MPP_EINVAL,
                                 "program of node %u, operation %u: bad operation or node", p, k);
                break;
            }
            bool sends = op->code == MPP_OP_SEND || op->code == MPP_OP_ISEND ||
                         op->code == MPP_OP_SENDRECV;
            if (sends && op->peer == p) {
                rc = mpp_err_set(err, MPP_EINVAL,
                                 "program of node %u, operation %u: a message to itself (node %u "
                                 "would wait for its own reply)",
                                 p, k, p);
                break;
            }
            if (sends && mpp_packet_count(&s->pk, op->bytes) > MPP_MSG_MAX_PACKETS) {
                rc = mpp_err_set(err, MPP_EINVAL,
                                 "program of node %u, operation %u: a message of %llu bytes is "
                                 "%llu packets of %u bytes, more than the %llu a message may "
                                 "have",
                                 p, k, (unsigned long long)op->bytes,
                                 (unsigned long long)mpp_packet_count(&s->pk, op->bytes),
                                 s->pk.payload_bytes, (unsigned long long)MPP_MSG_MAX_PACKETS);
                break;
            }
            if (sends && !mpp_nic_bounded(s->cfg.net.nic) &&
                mpp_packet_count(&s->pk, op->bytes) > MPP_SIM_MAX_QUEUED) {
                rc = mpp_err_set(err, MPP_EINVAL,
                                 "program of node %u, operation %u: a message of %llu bytes is "
                                 "%llu packets, more than the %u the unbounded send FIFO of "
                                 "nic: ideal may hold (use nic: model, whose send FIFO the "
                                 "processor fills as it drains)",
                                 p, k, (unsigned long long)op->bytes,
                                 (unsigned long long)mpp_packet_count(&s->pk, op->bytes),
                                 MPP_SIM_MAX_QUEUED);
                break;
            }
            if (op->code == MPP_OP_COMPUTE && op->bytes > MPP_OP_MAX_COMPUTE) {
                rc = mpp_err_set(err, MPP_EINVAL,
                                 "program of node %u, operation %u: COMPUTE of %llu CPU cycles is "
                                 "more than the %llu one operation may take",
                                 p, k, (unsigned long long)op->bytes,
                                 (unsigned long long)MPP_OP_MAX_COMPUTE);
                break;
            }
        }
    }
    if (!rc) {
        mpp_nodes_env env = {.net_mhz = s->cfg.net.net_mhz,
                             .nic_model = mpp_nic_bounded(s->cfg.net.nic),
                             .nic_dma = s->cfg.net.nic == MPP_NIC_DMA,
                             .record_ops = s->cfg.run.record_ops,
                             .pk = &s->pk,
                             .queue_for = s->per_link ? queue_for : NULL};
        s->nodes = mpp_nodes_create(&s->cfg.node, &env, N, &s->net, s->srcq, node_push, s,
                                    ops, len, err);
        if (!s->nodes)
            rc = err ? err->code : MPP_EINVAL;
        else
            mpp_nodes_set_handlers(s->nodes, s->handler, s->app_start, s->handler_ud);
    }
    free(ops);
    free(len);
    return rc;
}

void mpp_sim_step_settled(mpp_sim *s) { s->settle = UINT64_MAX; }

void mpp_sim_handlers(mpp_sim *s, mpp_am_handler handler, mpp_app_start start, void *ud)
{
    s->handler = handler;
    s->app_start = start;
    s->handler_ud = ud;
    if (s->nodes)
        mpp_nodes_set_handlers(s->nodes, handler, start, ud);
}

void mpp_sim_on_packet(mpp_sim *s, mpp_packet_fn fn, void *ud)
{
    s->on_packet = fn;
    s->on_packet_ud = ud;
}

/* --- create / destroy ------------------------------------------------------ */

int mpp_sim_size_of(const mpp_sim_config *cfg, mpp_sim_size *out, mpp_err *err)
{
    memset(out, 0, sizeof *out);
    out->limit = mpp_sysmem_limit();
    const mpp_net_config *nc = &cfg->net;
    const mpp_workload_ops *wl = cfg->workload.ops;
    if (!nc->topo || !nc->routing)
        return mpp_err_set(err, MPP_EINVAL, "configuration names no topology or router");
    mpp_topo_size ts;
    bool all_port = cfg->node.ports == MPP_PORTS_ALL;
    int rc = mpp_topo_size_of(nc->topo, nc->topo_cfg.b, all_port, &ts, err);
    if (rc)
        return rc;
    bool nodes = wl && (wl->flags & MPP_WL_NODES);
    uint32_t MC = nodes ? (cfg->node.interfaces ? cfg->node.interfaces : 1)
                        : (nc->message_classes ? nc->message_classes : 1);
    /* the VCs: vcs, or vcs_per_class x the message classes x at least one
     * route class (mpp_net_init checks again with the routing's classes) */
    uint64_t V = nc->vcs_per_class ? (uint64_t)nc->vcs_per_class * MC : nc->vcs;
    if (V > 64)
        V = 64;
    uint64_t N = ts.nodes, NE = ts.ports + ts.links, NQ = all_port ? ts.links : N;
    out->nodes = N;
    out->routers = ts.routers;
    out->endpoints = NE;
    /* the topology once built; node.ports: all builds a second one from
     * the first, both live for a moment */
    out->topo_bytes = mpp_topo_bytes(&ts) * (all_port ? 2 : 1);
    out->net_bytes = mpp_net_bytes(ts.routers, NE, ts.links, (uint32_t)V,
                                   nc->buffer_flits ? nc->buffer_flits : 1, MC);
    /* create(): source queues, the nodes' streams and counters, the
     * channel list, the traffic matrix; the node processors */
    out->node_bytes = NQ * MC * sizeof(mpp_srcq) + N * (3 * sizeof(mpp_rng) + 16) + NE * 4 +
                      (cfg->run.record_matrix ? N * N * sizeof(uint64_t) : 0) +
                      (nodes ? mpp_nodes_bytes(N, MC) : 0) + sizeof(mpp_sim) +
                      ((uint64_t)1 << 20); /* the statistics' first tables and the
                                              allocator's own (measured: under 1 MiB) */
    out->workload_bytes = wl && wl->bytes ? wl->bytes(cfg->workload.cfg.b, N) : 0;
    out->bytes = out->topo_bytes + out->net_bytes + out->node_bytes + out->workload_bytes;
    if (out->bytes > out->limit) {
        char b1[32], b2[32];
        return mpp_err_set(err, MPP_EINVAL,
                           "%s: %llu nodes, %llu routers and %llu channel endpoints need about "
                           "%s%s, above this machine's memory of %s (docs/performance.md, "
                           "\"Memory\")",
                           nc->topo->name, (unsigned long long)N,
                           (unsigned long long)ts.routers, (unsigned long long)NE,
                           mpp_sysmem_str(out->bytes, b1, sizeof b1),
                           cfg->run.record_matrix && N * N * 8 > out->bytes / 2
                               ? " (most of it the traffic matrix: N x N counters)"
                           : out->workload_bytes > out->bytes / 2 ? " (most of it the workload's)"
                                                                   : "",
                           mpp_sysmem_str(out->limit, b2, sizeof b2));
    }
    return 0;
}

/* mpp_sim_create, or with check_only mpp_sim_validate's simulation: every
 * check and the workload's setup, but no network arrays (it cannot run). */
static mpp_sim *create(const mpp_sim_config *cfg, bool check_only, mpp_err *err)
{
    mpp_sim *s = calloc(1, sizeof *s);
    if (!s) {
        mpp_err_set(err, MPP_ENOMEM, "out of memory");
        return NULL;
    }
    s->cfg = *cfg;
    s->settle = MPP_SIM_SETTLE_CYCLES;
    s->wl = cfg->workload.ops;
    s->MC = 1;
    if (s->wl && (s->wl->flags & MPP_WL_NODES)) {
        /* one message class per NIC interface */
        s->cfg.net.message_classes = cfg->node.interfaces ? cfg->node.interfaces : 1;
        s->MC = s->cfg.net.message_classes;
    }
    mpp_sb_init(&s->report);
    mpp_hist_init(&s->lat_total);
    mpp_hist_init(&s->lat_net);
    const mpp_sim_config *c = &s->cfg;
    mpp_sim_size size; /* sized before built: nothing large is taken above the limits */
    if (mpp_sim_size_of(c, &size, err))
        goto fail;
    if (mpp_topo_build(&s->topo, c->net.topo, c->net.topo_cfg.b, err))
        goto fail;
    s->N = s->topo.nodes;
    /* the node port model: auto is the topology's own attachment */
    bool multi = mpp_topo_multi_link(&s->topo);
    if (c->node.ports == MPP_PORTS_ALL && !multi) {
        if (mpp_topo_all_port(&s->topo, err))
            goto fail;
        s->per_link = true;
    }
    s->all_port = c->node.ports == MPP_PORTS_ALL || (c->node.ports == MPP_PORTS_AUTO && multi);
    s->one_port = c->node.ports == MPP_PORTS_ONE && multi;
    s->NQ = s->per_link ? s->topo.links : s->N;
    if (mpp_nic_bounded(c->net.nic) && !(s->wl && (s->wl->flags & MPP_WL_NODES))) {
        mpp_err_set(err, MPP_EINVAL,
                    "network.nic: model and dma need processors to read the receive FIFOs: use it with "
                    "a workload that runs node programs (messages, schedule, ...; mppnet list "
                    "workloads) or nic: ideal");
        goto fail;
    }
    if (mpp_packetizer_init(&s->pk, c->node.payload_words, c->node.word_bits, c->node.flit_bits,
                            err))
        goto fail;
    s->wstart = 0;
    s->wend = UINT64_MAX;
    bool model = mpp_nic_bounded(c->net.nic);
    if (mpp_net_init(&s->net, &s->topo, &c->net, c->run.seed, model ? c->node.recv_fifo_packets : 0,
                     model ? s->pk.full_flits : 0, check_only, err))
        goto fail;
    s->net.on_eject = eject_cb;
    s->net.eject_ud = s;
    if (s->one_port && mpp_net_one_port(&s->net, err))
        goto fail;

    uint32_t N = s->N;
    s->srcq = calloc((size_t)s->NQ * s->MC, sizeof *s->srcq);
    if (s->per_link) {
        s->prng = calloc(N, sizeof *s->prng);
        if (!s->prng) {
            mpp_err_set(err, MPP_ENOMEM, "out of memory");
            goto fail;
        }
        for (uint32_t i = 0; i < N; i++)
            mpp_rng_init(&s->prng[i], c->run.seed, MPP_RNG_PORTS, i);
    }
    s->trng = calloc(N, sizeof *s->trng);
    s->srng = calloc(N, sizeof *s->srng);
    s->nact = calloc(N, sizeof *s->nact);
    s->nact_pos = calloc(N, sizeof *s->nact_pos);
    s->node_ejected = calloc(N, sizeof *s->node_ejected);
    s->chan_out = calloc(s->net.NE, sizeof *s->chan_out);
    if (c->run.record_matrix)
        s->matrix = calloc((size_t)N * N, sizeof *s->matrix);
    if (!s->srcq || !s->trng || !s->srng || !s->nact || !s->nact_pos || !s->node_ejected ||
        !s->chan_out || (c->run.record_matrix && !s->matrix)) {
        mpp_err_set(err, MPP_ENOMEM, "out of memory");
        goto fail;
    }
    for (uint32_t i = 0; i < N; i++) {
        mpp_rng_init(&s->trng[i], c->run.seed, MPP_RNG_TRAFFIC, i);
        mpp_rng_init(&s->srng[i], c->run.seed, MPP_RNG_SOURCE, i);
        s->nact_pos[i] = MPP_NONE;
    }
    for (uint32_t o = 0; o < s->net.NE && !check_only; o++)
        if (mpp_net_dst(&s->net, o) != MPP_NONE)
            s->chan_out[s->nchan++] = o;
    if (s->wl && s->wl->setup(s, s->cfg.workload.cfg.b, &s->wl_priv, err))
        goto fail;
    /* threads: only once the workload has chosen the network's visiting
     * order (open-loop sources order it; mpp_net_threads splits only an
     * ordered network) */
    if (!check_only && c->run.threads > 1 &&
        (mpp_net_threads(&s->net, c->run.threads, err) || parts_init(s, err)))
        goto fail;
    return s;
fail:
    mpp_sim_destroy(s);
    return NULL;
}

mpp_sim *mpp_sim_create(const mpp_sim_config *cfg, mpp_err *err)
{
    return create(cfg, false, err);
}

int mpp_sim_validate(const mpp_sim_config *cfg, mpp_err *err)
{
    mpp_sim *s = create(cfg, true, err);
    mpp_sim_destroy(s);
    return s ? 0 : (err->code ? err->code : MPP_EINVAL);
}

void mpp_sim_destroy(mpp_sim *s)
{
    if (!s)
        return;
    if (s->wl && s->wl->destroy && s->wl_priv)
        s->wl->destroy(s->wl_priv);
    mpp_nodes_destroy(s->nodes);
    if (s->srcq)
        for (size_t i = 0; i < (size_t)s->NQ * s->MC; i++)
            mpp_srcq_free(&s->srcq[i]);
    free(s->srcq);
    free(s->prng);
    free(s->trng);
    free(s->srng);
    mpp_heap_free(&s->next_inj);
    free(s->phys);
    free(s->logical);
    free(s->nact);
    free(s->nact_pos);
    free(s->part_node0);
    free(s->part_cnt);
    free(s->part_took);
    free(s->node_part);
    free(s->node_ejected);
    free(s->matrix);
    free(s->chan_out);
    mpp_net_free(&s->net);
    if (s->traffic_ready)
        mpp_traffic_free(&s->traffic);
    mpp_topo_free(&s->topo);
    mpp_hist_free(&s->lat_total);
    mpp_hist_free(&s->lat_net);
    mpp_sb_free(&s->report);
    free(s);
}

/* --- the cycle -------------------------------------------------------------- */

static inline void node_activate(mpp_sim *s, uint32_t node)
{
    if (s->nact_pos[node] == MPP_NONE) {
        uint32_t pos = s->nnact;
        if (__builtin_expect(s->nparts != 0, 0)) {
            uint32_t t = s->node_part[node];
            pos = s->part_node0[t] + s->part_cnt[t]++;
        }
        s->nact_pos[node] = pos;
        s->nact[pos] = node;
        s->nnact++;
    }
}

/* per_link: the link of node `node` a packet to dst is injected on: the
 * one paired with the first hop the routing gives it (run on a scratch
 * route state with rng, which it may draw from), link 0 for a packet to
 * the node itself. */
static uint32_t inject_link(const mpp_sim *s, uint32_t node, uint32_t dst, mpp_rng *rng)
{
    const mpp_topo *t = &s->topo;
    const mpp_net *n = &s->net;
    uint32_t l0 = t->node_link_base[node], g0 = t->link_port[l0], r = t->port_router[g0];
    mpp_route_state st;
    mpp_route_state_init(&st, t, node, dst);
    if (n->routing->init_packet)
        n->routing->init_packet(t, n->routing_cfg, n->routing_priv, &st, rng);
    mpp_route_out ro;
    n->routing->route(t, n->routing_cfg, n->routing_priv, r, g0 - t->port_base[r], &st, rng, &ro);
    uint32_t l = t->pair_link[t->port_base[r] + ro.port];
    return l == MPP_TOPO_NONE ? l0 : l;
}

/* The node layer (per_link): the send FIFO a packet from node to dst of
 * class cls would enter now; a peek, the node's stream is not advanced
 * (enqueue, right after, draws the same). */
static const mpp_srcq *queue_for(void *ud, uint32_t node, uint32_t cls, uint32_t dst)
{
    const mpp_sim *s = ud;
    mpp_rng r = s->prng[node];
    return &s->srcq[(size_t)inject_link(s, node, dst, &r) * s->MC + cls];
}

static bool enqueue(mpp_sim *s, uint32_t src, const mpp_src_entry *e)
{
    uint32_t qi = s->per_link ? inject_link(s, src, e->dst, &s->prng[src]) : src;
    mpp_srcq *q = &s->srcq[(size_t)qi * s->MC + e->mclass];
    if (s->queued >= MPP_SIM_MAX_QUEUED) {
        s->overfull = true;
        return false;
    }
    if (!mpp_srcq_push(q, e)) {
        s->oom = true;
        return false;
    }
    s->queued++;
    if (q->count > s->res.peak_source_queue)
        s->res.peak_source_queue = q->count;
    node_activate(s, src);
    return true;
}

/* Node link l of node `node` sends a flit (or starts a packet) from the
 * queues q[0..MC-1]; keeps the counts and tells the processor of FIFO room.
 * Returns mpp_net_inject's "still has work"; *took: a packet was started. */
static bool inject_one(mpp_sim *s, uint32_t node, uint32_t l, mpp_srcq *q, bool *took)
{
    mpp_net *n = &s->net;
    uint64_t before = n->pkts_started; /* (a call starts at most one packet) */
    bool busy = mpp_net_inject(n, l, q, s->MC, &s->srng[node]);
    *took = n->pkts_started != before;
    s->queued -= *took;
    if (s->nodes && *took)
        mpp_nodes_fifo_space(s->nodes, node, n->cycle);
    return busy;
}

/* one-port: the link of node `node` with a packet in progress, or NONE. */
static uint32_t link_in_progress(const mpp_sim *s, uint32_t node)
{
    for (uint32_t l = s->topo.node_link_base[node]; l < s->topo.node_link_base[node + 1]; l++)
        if (s->net.link[l].pkt != MPP_NONE)
            return l;
    return MPP_NONE;
}

static void inject_all(mpp_sim *s)
{
    mpp_net *n = &s->net;
    if (n->shuffle)
        mpp_rng_shuffle(&n->shuffle_rng, s->nact, s->nnact);
    uint32_t w = 0;
    for (uint32_t k = 0; k < s->nnact; k++) {
        uint32_t node = s->nact[k];
        mpp_srcq *q = &s->srcq[(size_t)node * s->MC];
        bool busy = false, took;
        uint32_t base = s->topo.node_link_base[node];
        uint32_t nl = s->topo.node_link_base[node + 1] - base;
        if (s->per_link) {
            /* all-port on a direct network: every link its own queues */
            for (uint32_t l = base; l < base + nl; l++)
                busy |= inject_one(s, node, l, &s->srcq[(size_t)l * s->MC], &took);
        } else if (s->one_port && link_in_progress(s, node) != MPP_NONE) {
            /* one-port: the packet in progress goes on; no other starts */
            busy |= inject_one(s, node, link_in_progress(s, node), q, &took);
        } else {
            /* A node with several links offers its next packet to them
             * in rotating order, so every link (and, on a fat tree,
             * every first-level router) carries its share; one-port stops
             * at the first link that starts one. */
            uint32_t first = nl > 1 ? (uint32_t)(n->cycle % nl) : 0;
            for (uint32_t j = 0; j < nl; j++) {
                uint32_t l = first + j;
                busy |= inject_one(s, node, base + (l < nl ? l : l - nl), q, &took);
                if (s->one_port && took)
                    break;
            }
        }
        if (busy) {
            s->nact_pos[node] = w;
            s->nact[w++] = node;
        } else {
            s->nact_pos[node] = MPP_NONE;
        }
    }
    s->nnact = w;
}

/* Threads: thread t's share of the injection (mpp_part_fn, called in the
 * network's parallel phase with the thread's view v): inject_all for the
 * nodes of block t, whose lists, links, queues and streams only it
 * touches; the packets it starts are counted in part_took[t] (the
 * network's view counts its flits and slots). Open-loop sources only (an
 * ordered network): no processors, no one-port links. */
static void inject_part(void *ud, mpp_net *v, uint32_t t)
{
    mpp_sim *s = ud;
    uint32_t b = s->part_node0[t], w = b, e = b + s->part_cnt[t];
    for (uint32_t k = b; k < e; k++) {
        uint32_t node = s->nact[k];
        uint32_t base = s->topo.node_link_base[node];
        uint32_t nl = s->topo.node_link_base[node + 1] - base;
        bool busy = false;
        if (s->per_link) {
            for (uint32_t l = base; l < base + nl; l++)
                busy |= mpp_net_inject(v, l, &s->srcq[(size_t)l * s->MC], s->MC, &s->srng[node]);
        } else {
            mpp_srcq *q = &s->srcq[(size_t)node * s->MC];
            uint32_t first = nl > 1 ? (uint32_t)(v->cycle % nl) : 0;
            for (uint32_t j = 0; j < nl; j++) {
                uint32_t l = first + j;
                busy |= mpp_net_inject(v, base + (l < nl ? l : l - nl), q, s->MC, &s->srng[node]);
            }
        }
        if (busy) {
            s->nact_pos[node] = w;
            s->nact[w++] = node;
        } else {
            s->nact_pos[node] = MPP_NONE;
        }
    }
    s->part_cnt[t] = w - b;
    s->part_took[t] = v->pkts_started;
}

/* Threads, between phases: each block's reserve of packet slots covers a
 * packet on every link of every node in its list (a link starts at most
 * one a cycle). */
static void parts_reserve(mpp_sim *s)
{
    for (uint32_t t = 0; t < s->nparts; t++)
        if (!mpp_net_reserve(&s->net, t, s->part_cnt[t] * s->max_links))
            s->oom = true;
}

/* Threads, after the phase: the blocks' counts, in block order. */
static void parts_merge(mpp_sim *s)
{
    uint64_t took = 0;
    uint32_t cnt = 0;
    for (uint32_t t = 0; t < s->nparts; t++) {
        took += s->part_took[t];
        cnt += s->part_cnt[t];
    }
    s->queued -= took;
    s->nnact = cnt;
}

/* Split the injection into the network's thread count of node blocks
 * (consecutive ids), once the network is split (mpp_net_threads). */
static int parts_init(mpp_sim *s, mpp_err *err)
{
    uint32_t T = s->net.nthreads, N = s->N;
    if (T < 2)
        return 0;
    assert(s->open && !s->one_port && !s->nodes && !s->nnact);
    s->part_node0 = calloc(T + 1, sizeof *s->part_node0);
    s->part_cnt = calloc(T, sizeof *s->part_cnt);
    s->part_took = calloc(T, sizeof *s->part_took);
    s->node_part = calloc(N ? N : 1, sizeof *s->node_part);
    if (!s->part_node0 || !s->part_cnt || !s->part_took || !s->node_part)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    for (uint32_t t = 0; t <= T; t++)
        s->part_node0[t] = (uint32_t)((uint64_t)N * t / T);
    for (uint32_t t = 0; t < T; t++)
        for (uint32_t v = s->part_node0[t]; v < s->part_node0[t + 1]; v++)
            s->node_part[v] = (uint8_t)t;
    s->max_links = 1;
    for (uint32_t v = 0; v < N; v++) {
        uint32_t nl = s->topo.node_link_base[v + 1] - s->topo.node_link_base[v];
        if (nl > s->max_links)
            s->max_links = nl;
    }
    s->nparts = T;
    s->net.part_fn = inject_part;
    s->net.part_ud = s;
    return 0;
}

/* What k cycles of the routers and of inject_all do to a settled network:
 * the routers' input rotation moves on, and every node link with a packet
 * to start stays blocked, its queue pointer moving on. */
static void skip_blocked(mpp_sim *s, uint64_t k)
{
    mpp_net_routers_blocked(&s->net, k);
    for (uint32_t i = 0; i < s->nnact; i++) {
        uint32_t node = s->nact[i];
        /* one-port: a packet in progress waits for credits, and no other
         * link of the node is offered one */
        if (s->one_port && link_in_progress(s, node) != MPP_NONE)
            continue;
        for (uint32_t l = s->topo.node_link_base[node]; l < s->topo.node_link_base[node + 1]; l++)
            mpp_net_inject_blocked(&s->net, l,
                                   &s->srcq[(size_t)(s->per_link ? l : node) * s->MC], s->MC, k);
    }
}

/* The open-loop sources whose next packet is due this cycle create it, in
 * ascending node order, and draw the time of their next. */
static void generate(mpp_sim *s)
{
    uint64_t c = s->net.cycle;
    bool in_window = c >= s->wstart && c < s->wend;
    uint32_t flits = s->packet_flits;
    while (s->next_inj.n && s->next_inj.e[0].at <= c) {
        uint32_t node = mpp_heap_pop(&s->next_inj).id;
        uint32_t d = s->phys[mpp_traffic_dest(&s->traffic, s->logical[node], &s->trng[node])];
        mpp_src_entry e = {.created = c, .tag = 0, .dst = d, .flits = flits, .mclass = 0,
                           .measured = in_window};
        if (!enqueue(s, node, &e))
            return;
        if (in_window) {
            s->created_flits += flits;
            s->measured_created++;
        }
        if (!mpp_heap_push(&s->next_inj, c + inj_gap(s, &s->trng[node]), node)) {
            s->oom = true;
            return;
        }
    }
}

/* Returns 0, or MPP_EDEADLOCK / MPP_ENOMEM with err filled. */
/* The cycle the watchdog counts from: the last flit that moved or, when
 * later, the end of the longest action a processor has begun (a processor
 * computing is progress to come). */
static uint64_t watch_since(const mpp_sim *s)
{
    uint64_t since = s->net.last_progress;
    if (s->nodes && mpp_nodes_busy_until(s->nodes) > since)
        since = mpp_nodes_busy_until(s->nodes);
    return since;
}

static int cycle_once(mpp_sim *s, mpp_err *err)
{
    mpp_net *n = &s->net;
    n->count_channels = n->cycle >= s->wstart && n->cycle < s->wend;
    mpp_net_deliver(n);
    if (s->nparts) {
        /* threads: each block's injection runs in the routers' phase */
        parts_reserve(s);
        mpp_net_routers(n);
        parts_merge(s);
    } else {
        mpp_net_routers(n);
        if (s->nnact)
            inject_all(s);
    }
    if (n->oom)
        s->oom = true;
    if (s->nodes) {
        mpp_nodes_step(s->nodes, n->cycle);
        if (mpp_nodes_oom(s->nodes))
            s->oom = true;
        if (!s->nodes_done_at && mpp_nodes_done(s->nodes))
            s->nodes_done_at = n->cycle + 1;
    }
    if (s->open)
        generate(s);
    if (s->overfull)
        return mpp_err_set(err, MPP_EINVAL,
                           "cycle %llu: %u packets wait in the source queues, the most a run may "
                           "hold: the load offered exceeds what the network delivers for too "
                           "long, or a message was written at once into an unbounded send FIFO "
                           "(nic: ideal); lower the rate, shorten the run or use nic: model",
                           (unsigned long long)n->cycle, MPP_SIM_MAX_QUEUED);
    if (s->oom)
        return mpp_err_set(err, MPP_ENOMEM,
                           "out of memory growing a source queue or the packet pool at cycle "
                           "%llu",
                           (unsigned long long)n->cycle);
    if (s->nodes && mpp_nodes_failure(s->nodes))
        return mpp_err_set(err, MPP_EINVAL, "cycle %llu: %s", (unsigned long long)n->cycle,
                           mpp_nodes_failure(s->nodes));
    bool work = s->queued || mpp_net_flits_in_flight(n) || (s->nodes && !mpp_nodes_done(s->nodes));
    uint64_t since = watch_since(s);
    if (!work)
        n->last_progress = n->cycle;
    else if (n->cycle > since && n->cycle - since >= s->cfg.net.watchdog_cycles) {
        mpp_sb_reset(&s->report);
        mpp_sb_printf(&s->report,
                      "deadlock: nothing has moved for %llu cycles (cycle %llu) while %llu flits "
                      "are in the network and %llu packets wait at their sources.\n"
                      "What holds flits:\n",
                      (unsigned long long)(n->cycle - since),
                      (unsigned long long)n->cycle,
                      (unsigned long long)mpp_net_flits_in_flight(n),
                      (unsigned long long)s->queued);
        mpp_net_report(n, &s->report, 24);
        if (s->nodes) {
            mpp_sb_add(&s->report, "What the processors wait for:\n");
            mpp_nodes_report(s->nodes, &s->report, 24);
        }
        if (s->wl && s->wl->report && s->wl_priv) {
            mpp_sb_add(&s->report, "What the workload waits for:\n");
            s->wl->report(s->wl_priv, &s->report, 24);
        }
        n->cycle++;
        return mpp_err_set(err, MPP_EDEADLOCK,
                           "deadlock at cycle %llu: nothing moved for %llu cycles "
                           "(watchdog_cycles); %llu flits are stuck",
                           (unsigned long long)(n->cycle - 1),
                           (unsigned long long)s->cfg.net.watchdog_cycles,
                           (unsigned long long)mpp_net_flits_in_flight(n));
    }
    n->cycle++;
    /* Debug builds check every invariant now and then (the suite runs this
     * build); in release builds (NDEBUG) the check compiles away. */
    assert((n->cycle % MPP_SIM_CHECK_EVERY) != 0 || mpp_sim_check(s));
    return 0;
}

/* --- results ---------------------------------------------------------------- */

static void finish(mpp_sim *s)
{
    mpp_sim_result *r = &s->res;
    const mpp_sim_config *c = &s->cfg;
    uint64_t cyc = s->net.cycle;
    uint64_t wend = s->wend < cyc ? s->wend : cyc;
    uint64_t M = wend > s->wstart ? wend - s->wstart : 0;
    double NM = (double)s->N * (double)M;
    r->seed = c->run.seed;
    r->nodes = s->N;
    r->cycles = cyc;
    r->flit_hops = s->net.flit_hops;
    r->router_cycles = (uint64_t)s->topo.routers * cyc;
    r->offered = s->open ? s->rate : NAN;
    uint64_t ej = 0, ejmin = UINT64_MAX;
    for (uint32_t i = 0; i < s->N; i++) {
        ej += s->node_ejected[i];
        if (s->node_ejected[i] < ejmin)
            ejmin = s->node_ejected[i];
    }
    r->injected_rate = M ? (double)s->created_flits / NM : NAN;
    r->accepted = M ? (double)ej / NM : NAN;
    r->accepted_min = M ? (double)ejmin / (double)M : NAN;
    r->packets_measured = s->measured_created;
    r->packets_delivered = s->measured_delivered;
    r->latency_mean = mpp_hist_mean(&s->lat_total);
    r->latency_p50 = (double)mpp_hist_quantile(&s->lat_total, 0.50);
    r->latency_p95 = (double)mpp_hist_quantile(&s->lat_total, 0.95);
    r->latency_p99 = (double)mpp_hist_quantile(&s->lat_total, 0.99);
    r->latency_max = s->lat_total.max;
    r->latency_network_mean = mpp_hist_mean(&s->lat_net);
    r->latency_network_p50 = (double)mpp_hist_quantile(&s->lat_net, 0.50);
    r->latency_network_p95 = (double)mpp_hist_quantile(&s->lat_net, 0.95);
    r->latency_network_p99 = (double)mpp_hist_quantile(&s->lat_net, 0.99);
    r->latency_network_max = s->lat_net.max;
    r->latency_mean_us = c->net.net_mhz > 0 ? r->latency_mean / c->net.net_mhz : NAN;
    r->hops_mean = s->measured_delivered ? (double)s->hops_sum / (double)s->measured_delivered : NAN;
    r->misroutes_mean =
        s->measured_delivered ? (double)s->misroutes_sum / (double)s->measured_delivered : NAN;
    r->misroutes_max = s->misroutes_max;
    double usum = 0, umax = 0;
    uint64_t ninter = 0;
    for (size_t i = 0; i < s->nchan; i++) {
        uint32_t o = s->chan_out[i];
        if (o >= s->net.P || mpp_net_dst(&s->net, o) >= s->net.P)
            continue;
        double u = M ? (double)mpp_net_chan_flits(&s->net, o) / (double)M : 0;
        usum += u;
        if (u > umax)
            umax = u;
        ninter++;
    }
    r->channel_util_mean = ninter ? usum / (double)ninter : 0;
    r->channel_util_max = umax;
    r->peak_vc_flits = s->net.peak_vc;
    r->threads = s->net.nthreads;
    /* messages: the node processors' (the workload may fill its own) */
    r->makespan = 0;
    r->message_latency_mean = NAN;
    r->message_latency_max = 0;
    r->lower_bound = NAN;
    r->bound_ratio = NAN;
    r->schedule_ms = r->comm_ms = r->total_ms = NAN; /* the schedule workload's */
    if (s->nodes) {
        mpp_hist msg;
        mpp_hist_init(&msg);
        for (size_t i = 0; i < mpp_nodes_msg_count(s->nodes); i++) {
            mpp_message_record m;
            mpp_nodes_msg_get(s->nodes, i, &m);
            mpp_hist_add(&msg, m.delivered - m.issue);
        }
        r->makespan = s->nodes_done_at ? s->nodes_done_at : cyc;
        r->message_latency_mean = mpp_hist_mean(&msg);
        r->message_latency_max = msg.max;
        mpp_hist_free(&msg);
        mpp_nodes_results(s->nodes, r);
    }
    r->drained = s->measured_delivered == s->measured_created;
    /* Saturated (SPEC 2): accepted below 0.95 of the offered rate, or the
     * measured packets did not drain. Also when the network does not carry
     * the load the sources actually generated in the window (accepted below
     * 0.98 of it): the source queues are growing, which is saturation even
     * when the first test sits on its boundary. */
    r->saturated = !r->drained ||
                   (s->open && (r->accepted < 0.95 * s->rate ||
                                (s->created_flits && r->accepted < 0.98 * r->injected_rate)));
    if (s->wl && s->wl->finish)
        s->wl->finish(s->wl_priv, s, r);
}

/* No work left: nothing queued or travelling, every program finished. */
static bool idle(const mpp_sim *s)
{
    return !s->queued && !mpp_net_flits_in_flight(&s->net) && !s->outstanding &&
           (!s->nodes || mpp_nodes_done(s->nodes));
}

int mpp_sim_run(mpp_sim *s, mpp_progress_fn progress, void *ud, mpp_err *err)
{
    double t0 = mpp_host_seconds();
    int rc = 0;
    if (s->open) {
        uint64_t end = s->wend;
        /* no wrap: mpp_sim_open_loop bounded warmup + (1 + drain_factor) x
         * measure */
        uint64_t limit = end + (uint64_t)s->drain_factor * s->measure;
        uint64_t est = end + s->measure / 10;
        while (rc == 0) {
            /* nothing queued, in a buffer or on a link: every cycle until the
             * next source's packet (or the last cycle of the window) is the
             * same, so the clock jumps there */
            if (!s->queued && !s->nnact && mpp_net_settled(&s->net) &&
                !mpp_net_flits_in_flight(&s->net)) {
                uint64_t to = mpp_heap_top(&s->next_inj);
                if (to > end - 1)
                    to = end - 1;
                if (to > s->net.cycle && to != UINT64_MAX) {
                    s->net.cycle = to;
                    s->net.last_progress = to;
                }
            }
            rc = cycle_once(s, err);
            uint64_t c = s->net.cycle;
            if (progress && (c & 4095) == 0)
                progress(ud, c, c > est ? c : est);
            if (c >= end && s->measured_delivered == s->measured_created)
                break;
            if (c >= limit)
                break;
        }
    } else {
        while (rc == 0 && !idle(s)) {
            /* nothing in the network and no node due: jump to the next
             * processor event (credits still returning are waited for) */
            if (s->nodes && !s->queued && !mpp_net_flits_in_flight(&s->net) && !s->nnact &&
                mpp_net_idle(&s->net)) {
                uint64_t next = mpp_nodes_next_wake(s->nodes);
                if (next != UINT64_MAX && next > s->net.cycle) {
                    s->net.cycle = next;
                    s->net.last_progress = next;
                }
            } else if (s->nodes && !s->net.shuffle &&
                       s->net.cycle - s->net.last_progress >= s->settle &&
                       mpp_net_settled(&s->net)) {
                /* flits blocked behind a processor that is computing (a
                 * full receive FIFO it does not read): nothing has moved
                 * for longer than any pacing gap and nothing is on a link,
                 * so every cycle until a processor acts is the same: jump
                 * to it, or to where the watchdog would stop the run */
                uint64_t next = mpp_nodes_next_wake(s->nodes);
                uint64_t since = watch_since(s);
                uint64_t wd = s->cfg.net.watchdog_cycles;
                uint64_t stop = since > UINT64_MAX - wd ? UINT64_MAX : since + wd;
                uint64_t to = next < stop ? next : stop;
                if (to != UINT64_MAX && to > s->net.cycle + 1) {
                    skip_blocked(s, to - s->net.cycle);
                    s->net.cycle = to;
                }
            }
            rc = cycle_once(s, err);
            if (progress && (s->net.cycle & 4095) == 0)
                progress(ud, s->net.cycle, s->net.cycle + 4096);
        }
    }
    finish(s);
    s->res.wall_seconds = mpp_host_seconds() - t0;
    if (progress && rc == 0)
        progress(ud, s->net.cycle, s->net.cycle);
    return rc;
}

int mpp_sim_run_until_idle(mpp_sim *s, uint64_t max_cycles, mpp_err *err)
{
    uint64_t start = s->net.cycle;
    while (!idle(s)) {
        if (s->net.cycle - start >= max_cycles)
            return mpp_err_set(err, MPP_ERUN, "%llu packets not delivered after %llu cycles",
                               (unsigned long long)s->outstanding,
                               (unsigned long long)max_cycles);
        int rc = cycle_once(s, err);
        if (rc)
            return rc;
    }
    finish(s);
    return 0;
}

int mpp_sim_step(mpp_sim *s, uint64_t k, mpp_err *err)
{
    for (uint64_t i = 0; i < k; i++) {
        int rc = cycle_once(s, err);
        if (rc)
            return rc;
    }
    finish(s);
    return 0;
}

/* --- accessors --------------------------------------------------------------- */

uint64_t mpp_sim_cycle(const mpp_sim *s) { return s->net.cycle; }
bool mpp_sim_all_port(const mpp_sim *s) { return s->all_port; }
const mpp_sim_result *mpp_sim_result_get(const mpp_sim *s) { return &s->res; }
const char *mpp_sim_report(const mpp_sim *s) { return s->report.s; }

const void *mpp_sim_workload_priv(const mpp_sim *s) { return s->wl_priv; }
size_t mpp_sim_channel_count(const mpp_sim *s) { return s->nchan; }
const uint64_t *mpp_sim_traffic_matrix(const mpp_sim *s) { return s->matrix; }
struct mpp_net *mpp_sim_network(mpp_sim *s) { return &s->net; }

size_t mpp_sim_op_count(const mpp_sim *s) { return s->nodes ? mpp_nodes_op_count(s->nodes) : 0; }

void mpp_sim_op_get(const mpp_sim *s, size_t i, uint32_t *node, uint64_t *cycle, mpp_op *op)
{
    mpp_nodes_op_get(s->nodes, i, node, cycle, op);
}

size_t mpp_sim_message_count(const mpp_sim *s)
{
    return s->nodes ? mpp_nodes_msg_count(s->nodes) : 0;
}

void mpp_sim_message_get(const mpp_sim *s, size_t i, mpp_message_record *out)
{
    mpp_nodes_msg_get(s->nodes, i, out);
}

static void endpoint_name(const mpp_sim *s, uint32_t e, char *buf, size_t len)
{
    const mpp_topo *t = &s->topo;
    if (e < t->ports) {
        uint32_t r = t->port_router[e];
        char pn[24];
        mpp_topo_port_name(t, r, e - t->port_base[r], pn, (int)sizeof pn);
        snprintf(buf, len, "r%u.%s", r, pn);
    } else {
        uint32_t l = e - t->ports, node = t->link_node[l];
        snprintf(buf, len, "n%u.link%u", node, l - t->node_link_base[node]);
    }
}

void mpp_sim_channel_get(const mpp_sim *s, size_t i, mpp_channel_info *out)
{
    uint32_t o = s->chan_out[i];
    endpoint_name(s, o, out->from, sizeof out->from);
    endpoint_name(s, mpp_net_dst(&s->net, o), out->to, sizeof out->to);
    uint64_t M = s->wend > s->wstart && s->wend != UINT64_MAX ? s->wend - s->wstart
                                                              : s->net.cycle - s->wstart;
    out->flits = mpp_net_chan_flits(&s->net, o);
    out->utilisation = M ? (double)out->flits / (double)M : 0;
}

bool mpp_sim_check(const mpp_sim *s)
{
    uint64_t q = 0;
    for (size_t i = 0; i < (size_t)s->NQ * s->MC; i++)
        q += s->srcq[i].count;
    if (s->one_port)
        for (uint32_t v = 0; v < s->N; v++) {
            uint32_t busy = 0;
            for (uint32_t l = s->topo.node_link_base[v]; l < s->topo.node_link_base[v + 1]; l++)
                busy += s->net.link[l].pkt != MPP_NONE;
            if (busy > 1)
                return false;
        }
    return q == s->queued && mpp_net_check(&s->net) && (!s->nodes || mpp_nodes_check(s->nodes));
}

void mpp_sim_counts_get(const mpp_sim *s, mpp_sim_counts *out)
{
    out->flits_injected = s->net.flits_injected;
    out->flits_ejected = s->net.flits_ejected;
    out->flits_in_network = mpp_net_flits_in_flight(&s->net);
    out->packets_delivered = s->packets_delivered;
    out->packets_queued = s->queued;
    out->packets_injected = s->packets_delivered + s->net.pool_used;
}
