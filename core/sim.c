/* core/sim.c — one simulation: workload sources, ejection, statistics and the
 * cycle loop around the network (core/network.c).
 *
 * Data: per node a growable source queue (packets by creation cycle, SPEC 2),
 * a traffic stream and a route-state stream; a dense list of nodes with
 * something to inject; exact latency histograms of the measured packets.
 *
 * One cycle (cycle_once), in a fixed order that cannot change results:
 *   1. mpp_net_deliver  — credits and flits due now land; ejected tails are
 *                         delivered (eject_cb) and their pool slots freed;
 *   2. mpp_net_routers  — every active router moves at most one flit per
 *                         input and per output;
 *   3. injection        — every active node link sends at most one flit;
 *                         a packet created in cycle t is injectable from t+1;
 *   4. generation       — synthetic sources draw Bernoulli(rate / flits);
 *   5. watchdog         — no flit moved for watchdog_cycles while work
 *                         remains: stop with a deadlock report.
 *
 * Synthetic runs (SPEC 2): warm-up, measurement window [W, W + M) (packets
 * created inside it are measured; ejected flits inside it are the accepted
 * throughput), then drain until every measured packet is delivered or
 * drain_factor x M more cycles have passed. Sources keep injecting while
 * draining, as BookSim does, so measured packets see the same load.
 *
 * Invariants: queued == sum of source queue lengths; a node is in the
 * active list iff one of its links has work; manual_outstanding == packets
 * sent with mpp_sim_send and not yet delivered.
 */
#include "core/sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/network.h"
#include "core/node.h"
#include "algorithms/replay.h"
#include "core/stats.h"
#include "core/base/strbuf.h"

struct mpp_sim {
    mpp_sim_config cfg;
    mpp_topo topo;
    mpp_net net;
    mpp_traffic traffic;
    bool traffic_ready;
    uint32_t N;
    uint32_t MC;           /* source queues per node (message classes used) */
    mpp_srcq *srcq;        /* [N x MC] */
    mpp_nodes *nodes;      /* messages / schedule workloads: the processors, else NULL */
    uint32_t phases;       /* schedule workload: phases of the schedule */
    uint64_t sched_steps;
    mpp_replay replay;     /* schedule workload: the COM, schedule, protocol state */
    uint64_t nodes_done_at;
    mpp_rng *trng;         /* [N] traffic: injection and destinations */
    mpp_rng *srng;         /* [N] per-packet route state */
    uint32_t *phys;        /* [N] logical -> physical */
    uint32_t *logical;     /* [N] physical -> logical */
    uint32_t *nact;        /* dense list of nodes with injection work */
    uint32_t *nact_pos;    /* [N] */
    uint32_t nnact;
    uint64_t queued;       /* entries in all source queues */
    uint64_t thresh;       /* Bernoulli threshold for one packet per cycle */
    /* measurement */
    uint64_t wstart, wend; /* window [wstart, wend) */
    uint64_t *node_ejected;/* [N] flits ejected in the window */
    uint64_t created_flits;/* flits created in the window */
    uint64_t measured_created, measured_delivered;
    uint64_t hops_sum;
    mpp_hist lat_total, lat_net;
    uint64_t *matrix;      /* [N * N] or NULL */
    uint32_t *chan_out;    /* channel index -> output endpoint */
    size_t nchan;
    uint64_t manual_outstanding; /* packets queued by mpp_sim_send or a permutation, not delivered */
    uint64_t packets_delivered;
    /* permutation workload: one message per sending node */
    uint32_t nmsg;
    uint32_t *msg_left;    /* [nmsg] packets not yet delivered */
    mpp_hist msg_lat;      /* completion cycles of the messages */
    double lower_bound;
    bool oom;
    mpp_sim_result res;
    mpp_sb report;
};

/* --- ejection ------------------------------------------------------------- */

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
        if (s->cfg.on_packet) {
            mpp_packet_record rec = {
                .src = p->src, .dst = p->dst, .flits = p->flits, .hops = p->hops,
                .created = p->created, .injected = p->injected, .delivered = cycle,
                .tag = p->tag, .measured = true,
            };
            s->cfg.on_packet(s->cfg.on_packet_ud, &rec);
        }
        mpp_nodes_arrive(s->nodes, node, flit >> 2, cycle);
        return;
    }
    if (p->measured) {
        s->measured_delivered++;
        mpp_hist_add(&s->lat_total, cycle - p->created);
        mpp_hist_add(&s->lat_net, cycle - p->injected);
        s->hops_sum += p->hops;
    }
    if (s->cfg.workload != MPP_WL_SYNTHETIC)
        s->manual_outstanding--;
    if (s->msg_left && --s->msg_left[p->tag] == 0)
        mpp_hist_add(&s->msg_lat, cycle);
    if (s->cfg.on_packet) {
        mpp_packet_record rec = {
            .src = p->src, .dst = p->dst, .flits = p->flits, .hops = p->hops,
            .created = p->created, .injected = p->injected, .delivered = cycle,
            .tag = p->tag, .measured = p->measured != 0,
        };
        s->cfg.on_packet(s->cfg.on_packet_ud, &rec);
    }
    uint32_t h = flit >> 2;
    s->net.pkt[h].next_free = s->net.free_head;
    s->net.free_head = h;
    s->net.pool_used--;
}

/* --- permutation workload ------------------------------------------------- */

static bool enqueue(mpp_sim *s, uint32_t src, const mpp_src_entry *e);
static bool node_push(void *ud, uint32_t node, uint32_t cls, const mpp_src_entry *e);

/* Lower bound on the time to deliver the flits in flits[src * N + dst]:
 * the larger of the ejection bound (the busiest destination accepts one flit
 * per cycle per ejection channel) and the bisection bound (the flits that
 * must cross a bisection, per direction, divided by the channels crossing it
 * in that direction). Bisections: a mesh's middle column cut and middle row
 * cut; each dimension of a hypercube. 0 for other topologies' bisections. */
static double permutation_bound(const mpp_sim *s, const uint64_t *dst_flits,
                                const uint32_t *src, const uint32_t *dst, const uint64_t *fl,
                                uint32_t n)
{
    const mpp_topo *t = &s->topo;
    double ej = 0, bis = 0;
    for (uint32_t d = 0; d < s->N; d++) {
        uint32_t links = t->node_link_base[d + 1] - t->node_link_base[d];
        double b = (double)dst_flits[d] / links;
        if (b > ej)
            ej = b;
    }
    if (t->kind == MPP_TOPO_MESH) {
        uint32_t C = t->dims[0], R = t->dims[1];
        for (int dim = 0; dim < 2; dim++) {
            uint32_t ext = dim ? R : C, width = dim ? C : R;
            if (ext < 2)
                continue;
            uint64_t lr = 0, rl = 0;
            for (uint32_t m = 0; m < n; m++) {
                uint32_t a = dim ? src[m] / C : src[m] % C, b = dim ? dst[m] / C : dst[m] % C;
                if (a < ext / 2 && b >= ext / 2)
                    lr += fl[m];
                else if (a >= ext / 2 && b < ext / 2)
                    rl += fl[m];
            }
            double bb = (double)(lr > rl ? lr : rl) / width;
            if (bb > bis)
                bis = bb;
        }
    } else if (t->kind == MPP_TOPO_HYPERCUBE) {
        for (uint32_t d = 0; d < t->dims[0]; d++) {
            uint64_t up = 0, down = 0;
            for (uint32_t m = 0; m < n; m++)
                if ((src[m] ^ dst[m]) & (1u << d)) {
                    if (src[m] & (1u << d))
                        down += fl[m];
                    else
                        up += fl[m];
                }
            double bb = (double)(up > down ? up : down) / (s->N / 2);
            if (bb > bis)
                bis = bb;
        }
    }
    return ej > bis ? ej : bis;
}

/* Queue every node's message to its partner at cycle 0 (a node whose
 * partner is itself sends nothing: it would not use the network). */
static int setup_permutation(mpp_sim *s, mpp_err *err)
{
    const mpp_synth_config *sc = &s->cfg.synth;
    uint32_t N = s->N;
    s->msg_left = calloc(N, sizeof *s->msg_left);
    uint32_t *src = calloc(N, sizeof *src), *dst = calloc(N, sizeof *dst);
    uint64_t *fl = calloc(N, sizeof *fl), *dst_flits = calloc(N, sizeof *dst_flits);
    int rc = 0;
    if (!s->msg_left || !src || !dst || !fl || !dst_flits) {
        rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
        goto out;
    }
    for (uint32_t p = 0; p < N; p++) {
        uint32_t d = s->phys[s->traffic.table[s->logical[p]]];
        if (d == p)
            continue;
        uint32_t m = s->nmsg++;
        src[m] = p;
        dst[m] = d;
        uint64_t npk = sc->bytes ? (sc->bytes + 15) / 16 : sc->packets;
        if (npk > UINT32_MAX) {
            rc = mpp_err_set(err, MPP_EINVAL, "workload: message of %llu packets is too large",
                             (unsigned long long)npk);
            goto out;
        }
        for (uint64_t k = 0; k < npk; k++) {
            uint32_t flits = sc->packet_flits;
            if (sc->bytes) {
                uint64_t left = sc->bytes - k * 16;
                flits = 1 + (uint32_t)((left >= 16 ? 16 : left) + 3) / 4;
            }
            mpp_src_entry e = {.created = 0, .tag = m, .dst = d, .flits = flits, .mclass = 0,
                               .measured = 1};
            if (!enqueue(s, p, &e)) {
                rc = mpp_err_set(err, MPP_ENOMEM, "out of memory queueing messages");
                goto out;
            }
            fl[m] += flits;
            dst_flits[d] += flits;
            s->created_flits += flits;
            s->measured_created++;
            s->manual_outstanding++;
        }
        s->msg_left[m] = (uint32_t)npk;
    }
    s->lower_bound = permutation_bound(s, dst_flits, src, dst, fl, s->nmsg);
out:
    free(src);
    free(dst);
    free(fl);
    free(dst_flits);
    return rc;
}

/* --- messages workload: node programs ---------------------------------------- */

typedef struct progs {
    mpp_op **op;
    uint32_t *len, *cap;
} progs;

static bool add_op(progs *pg, uint32_t n, mpp_op op)
{
    if (pg->len[n] == pg->cap[n]) {
        uint32_t cap = pg->cap[n] ? pg->cap[n] * 2 : 4;
        mpp_op *p = realloc(pg->op[n], cap * sizeof *p);
        if (!p)
            return false;
        pg->op[n] = p;
        pg->cap[n] = cap;
    }
    pg->op[n][pg->len[n]++] = op;
    return true;
}

/* Build every node's program from the workload's shape and paradigm:
 *   permutation: node p sends `bytes` to its partner d and receives from
 *     the node whose partner it is: sync SENDRECV(d, s); async IRECV(s),
 *     ISEND(d), WAIT; am / am_put IRECV(s), SEND(d), WAIT;
 *   gather: nodes 0..senders-1 (but the receiver) SEND to `receiver`, which
 *     posts one receive per sender (IRECV from any) and WAITs;
 *   list: every node first posts a receive for each message it gets (in
 *     list order), then sends its messages in order (blocking SENDs; ISENDs
 *     with async), then WAITs.
 * All programs start at cycle 0, the release of the barrier before them. */
static int setup_programs(mpp_sim *s, mpp_err *err)
{
    const mpp_synth_config *w = &s->cfg.synth;
    uint32_t N = s->N;
    int rc = 0;
    mpp_replay *rp = &s->replay;
    progs pg = {calloc(N, sizeof *pg.op), calloc(N, sizeof *pg.len), calloc(N, sizeof *pg.cap)};
    if (!pg.op || !pg.len || !pg.cap) {
        rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
        goto out;
    }
    uint8_t par = (uint8_t)w->paradigm;
    bool async = w->paradigm == MPP_PARADIGM_ASYNC;
    uint8_t send_code = async ? MPP_OP_ISEND : MPP_OP_SEND;
    bool ok = true;
    const mpp_program *given = s->cfg.programs;
    if (s->cfg.workload == MPP_WL_SCHEDULE) {
        if ((rc = mpp_replay_prepare(rp, w, w->paradigm, N, s->cfg.seed, err)))
            goto out;
        given = rp->prog;
        s->phases = rp->sched.nphases;
        s->sched_steps = rp->sched.steps;
        if (!w->simulate)
            goto out; /* schedule only: no processors, the run ends at once */
        if (rp->rt.ud) {
            /* a runtime protocol drives the processors through callbacks */
            s->cfg.am_handler = rp->rt.handler;
            s->cfg.app_start = rp->rt.start;
            s->cfg.am_handler_ud = rp->rt.ud;
        }
    }
    if (given) {
        for (uint32_t p = 0; p < N && ok; p++)
            for (uint32_t k = 0; k < given[p].len && ok; k++) {
                const mpp_op *op = &given[p].ops[k];
                bool peer = op->code == MPP_OP_SEND || op->code == MPP_OP_ISEND ||
                            op->code == MPP_OP_SENDRECV || op->code == MPP_OP_AM ||
                            ((op->code == MPP_OP_RECV || op->code == MPP_OP_IRECV) &&
                             op->peer != MPP_ANY);
                if ((peer && op->peer >= N) || (op->code == MPP_OP_SENDRECV && op->peer2 >= N) ||
                    op->code > MPP_OP_APP) {
                    rc = mpp_err_set(err, MPP_EINVAL,
                                     "program of node %u, operation %u: bad operation or node", p,
                                     k);
                    goto out;
                }
                ok = add_op(&pg, p, *op);
            }
    } else if (w->shape == MPP_SHAPE_PERMUTATION) {
        /* the pattern need not be one-to-one (single-random): a node posts
         * one receive per node that sends to it */
        uint32_t *nin = calloc(N, sizeof *nin);
        if (!nin) {
            rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
            goto out;
        }
        uint32_t *dst = malloc(N * sizeof *dst), *one = malloc(N * sizeof *one);
        if (!dst || !one) {
            free(nin);
            free(dst);
            free(one);
            rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
            goto out;
        }
        for (uint32_t p = 0; p < N; p++) {
            dst[p] = s->phys[s->traffic.table[s->logical[p]]];
            if (dst[p] != p) {
                nin[dst[p]]++;
                one[dst[p]] = p;
            }
        }
        for (uint32_t p = 0; p < N && ok; p++) {
            bool sends = dst[p] != p;
            mpp_op send = {.code = send_code, .paradigm = par, .peer = dst[p], .bytes = w->bytes};
            if (par == MPP_PARADIGM_SYNC && sends && nin[p] == 1) {
                mpp_op sr = {.code = MPP_OP_SENDRECV, .paradigm = par, .peer = dst[p],
                             .peer2 = one[p], .bytes = w->bytes};
                ok = add_op(&pg, p, sr);
                continue;
            }
            for (uint32_t q = 0; q < N && ok && nin[p]; q++)
                if (dst[q] == p && q != p)
                    ok = add_op(&pg, p, (mpp_op){.code = MPP_OP_IRECV, .peer = q});
            if (sends)
                ok = ok && add_op(&pg, p, send);
            if (nin[p] || async)
                ok = ok && add_op(&pg, p, (mpp_op){.code = MPP_OP_WAIT});
        }
        free(nin);
        free(dst);
        free(one);
    } else if (w->shape == MPP_SHAPE_GATHER) {
        if (w->receiver >= N || w->senders > N) {
            rc = mpp_err_set(err, MPP_EINVAL,
                             "workload: gather needs receiver < %u and senders <= %u (got "
                             "receiver %u, senders %u)",
                             N, N, w->receiver, w->senders);
            goto out;
        }
        uint32_t nsend = 0;
        for (uint32_t p = 0; p < w->senders && ok; p++) {
            if (p == w->receiver)
                continue;
            nsend++;
            ok = add_op(&pg, p, (mpp_op){.code = send_code, .paradigm = par, .peer = w->receiver,
                                         .bytes = w->bytes});
            if (async)
                ok = ok && add_op(&pg, p, (mpp_op){.code = MPP_OP_WAIT});
        }
        for (uint32_t k = 0; k < nsend && ok; k++)
            ok = add_op(&pg, w->receiver, (mpp_op){.code = MPP_OP_IRECV, .peer = MPP_ANY});
        if (nsend)
            ok = ok && add_op(&pg, w->receiver, (mpp_op){.code = MPP_OP_WAIT});
    } else {
        const mpp_sendlist *l = &w->sends;
        for (uint32_t i = 0; i < l->n; i++)
            if (l->v[i].src >= N || l->v[i].dst >= N || l->v[i].src == l->v[i].dst) {
                rc = mpp_err_set(err, MPP_EINVAL,
                                 "workload.sends[%u]: [%u, %u, ...] needs two different nodes "
                                 "below %u",
                                 i, l->v[i].src, l->v[i].dst, N);
                goto out;
            }
        for (uint32_t i = 0; i < l->n && ok; i++)
            ok = add_op(&pg, l->v[i].dst, (mpp_op){.code = MPP_OP_IRECV, .peer = l->v[i].src});
        for (uint32_t i = 0; i < l->n && ok; i++)
            ok = add_op(&pg, l->v[i].src, (mpp_op){.code = send_code, .paradigm = par,
                                                   .peer = l->v[i].dst, .bytes = l->v[i].bytes});
        for (uint32_t p = 0; p < N && ok; p++)
            if (pg.len[p])
                ok = add_op(&pg, p, (mpp_op){.code = MPP_OP_WAIT});
    }
    if (!ok) {
        rc = mpp_err_set(err, MPP_ENOMEM, "out of memory building the node programs");
        goto out;
    }
    s->nodes = mpp_nodes_create(&s->cfg, N, &s->net, s->srcq, node_push, s,
                                (const mpp_op *const *)pg.op, pg.len, err);
    if (!s->nodes)
        rc = err ? err->code : MPP_EINVAL;
out:
    if (pg.op)
        for (uint32_t n = 0; n < N; n++)
            free(pg.op[n]);
    free(pg.op);
    free(pg.len);
    free(pg.cap);
    return rc;
}

/* --- create / destroy ------------------------------------------------------ */

mpp_sim *mpp_sim_create(const mpp_sim_config *cfg, mpp_err *err)
{
    mpp_sim *s = calloc(1, sizeof *s);
    if (!s) {
        mpp_err_set(err, MPP_ENOMEM, "out of memory");
        return NULL;
    }
    s->cfg = *cfg;
    s->MC = 1;
    if (cfg->workload == MPP_WL_MESSAGES || cfg->workload == MPP_WL_SCHEDULE) {
        /* one message class per NIC interface */
        s->cfg.net.message_classes = cfg->node.interfaces ? cfg->node.interfaces : 1;
        s->MC = s->cfg.net.message_classes;
    }
    mpp_sb_init(&s->report);
    mpp_hist_init(&s->lat_total);
    mpp_hist_init(&s->lat_net);
    mpp_hist_init(&s->msg_lat);
    const mpp_sim_config *c = &s->cfg;
    if (!c->net.topo || !c->net.routing) {
        mpp_err_set(err, MPP_EINVAL, "configuration names no topology or router");
        goto fail;
    }
    if (mpp_topo_build(&s->topo, c->net.topo, c->net.topo_cfg.b, err))
        goto fail;
    s->N = s->topo.nodes;
    if (c->net.nic == MPP_NIC_MODEL && c->workload != MPP_WL_MESSAGES &&
        c->workload != MPP_WL_SCHEDULE) {
        mpp_err_set(err, MPP_EINVAL,
                    "network.nic: model needs processors to read the receive FIFOs: use it with "
                    "workload type 'messages' or 'schedule' (or nic: ideal)");
        goto fail;
    }
    if (c->workload != MPP_WL_MANUAL) {
        if (!c->synth.pattern) {
            mpp_err_set(err, MPP_EINVAL, "workload names no traffic pattern");
            goto fail;
        }
        if (c->synth.packet_flits < 1 || c->synth.measure < 1) {
            mpp_err_set(err, MPP_EINVAL, "workload: packet_flits and measure must be at least 1");
            goto fail;
        }
        if (!(c->synth.rate >= 0.0 && c->synth.rate <= 1.0)) {
            mpp_err_set(err, MPP_EINVAL, "workload: rate must be between 0 and 1 flits/node/cycle");
            goto fail;
        }
        if (mpp_traffic_init(&s->traffic, c->synth.pattern, s->cfg.synth.pattern_cfg.b, &s->topo,
                             c->seed, err))
            goto fail;
        s->traffic_ready = true;
        s->thresh = mpp_rng_threshold(c->synth.rate / c->synth.packet_flits);
        s->wstart = c->synth.warmup;
        s->wend = c->synth.warmup + c->synth.measure;
        if (c->workload == MPP_WL_PERMUTATION ||
            (c->workload == MPP_WL_MESSAGES && c->synth.shape == MPP_SHAPE_PERMUTATION &&
             !c->programs)) {
            if (!s->traffic.table) {
                mpp_err_set(err, MPP_EINVAL,
                            "workload: pattern '%s' draws a destination per packet; a permutation "
                            "workload needs a fixed pattern (transpose, bit-reversal, "
                            "bit-complement, shuffle, tornado, neighbor, single-random, randperm)",
                            c->synth.pattern->name);
                goto fail;
            }
            s->wstart = 0;
            s->wend = UINT64_MAX;
        }
    } else {
        s->wstart = 0;
        s->wend = UINT64_MAX;
    }
    if (mpp_net_init(&s->net, &s->topo, c, err))
        goto fail;
    s->net.on_eject = eject_cb;
    s->net.eject_ud = s;

    uint32_t N = s->N;
    s->srcq = calloc((size_t)N * s->MC, sizeof *s->srcq);
    s->trng = calloc(N, sizeof *s->trng);
    s->srng = calloc(N, sizeof *s->srng);
    s->phys = calloc(N, sizeof *s->phys);
    s->logical = calloc(N, sizeof *s->logical);
    s->nact = calloc(N, sizeof *s->nact);
    s->nact_pos = calloc(N, sizeof *s->nact_pos);
    s->node_ejected = calloc(N, sizeof *s->node_ejected);
    s->chan_out = calloc(s->net.NE, sizeof *s->chan_out);
    if (c->record_matrix)
        s->matrix = calloc((size_t)N * N, sizeof *s->matrix);
    if (!s->srcq || !s->trng || !s->srng || !s->phys || !s->logical || !s->nact ||
        !s->nact_pos || !s->node_ejected || !s->chan_out ||
        (c->record_matrix && !s->matrix)) {
        mpp_err_set(err, MPP_ENOMEM, "out of memory");
        goto fail;
    }
    for (uint32_t i = 0; i < N; i++) {
        mpp_rng_init(&s->trng[i], c->seed, MPP_RNG_TRAFFIC, i);
        mpp_rng_init(&s->srng[i], c->seed, MPP_RNG_SOURCE, i);
        s->phys[i] = i;
        s->nact_pos[i] = MPP_NONE;
    }
    if (c->workload != MPP_WL_MANUAL && c->synth.placement == MPP_PLACE_RANDOM) {
        mpp_rng prng;
        mpp_rng_init(&prng, c->seed, MPP_RNG_PLACEMENT, 0);
        mpp_rng_shuffle(&prng, s->phys, N);
    }
    for (uint32_t i = 0; i < N; i++)
        s->logical[s->phys[i]] = i;
    for (uint32_t o = 0; o < s->net.NE; o++)
        if (s->net.dst[o] != MPP_NONE)
            s->chan_out[s->nchan++] = o;
    if (c->workload == MPP_WL_PERMUTATION && setup_permutation(s, err))
        goto fail;
    if ((c->workload == MPP_WL_MESSAGES || c->workload == MPP_WL_SCHEDULE) &&
        setup_programs(s, err))
        goto fail;
    return s;
fail:
    mpp_sim_destroy(s);
    return NULL;
}

void mpp_sim_destroy(mpp_sim *s)
{
    if (!s)
        return;
    mpp_nodes_destroy(s->nodes);
    mpp_replay_free(&s->replay);
    if (s->srcq)
        for (uint32_t i = 0; i < s->N * s->MC; i++)
            mpp_srcq_free(&s->srcq[i]);
    free(s->srcq);
    free(s->trng);
    free(s->srng);
    free(s->phys);
    free(s->logical);
    free(s->nact);
    free(s->nact_pos);
    free(s->node_ejected);
    free(s->matrix);
    free(s->chan_out);
    free(s->msg_left);
    mpp_hist_free(&s->msg_lat);
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
        s->nact_pos[node] = s->nnact;
        s->nact[s->nnact++] = node;
    }
}

static bool enqueue(mpp_sim *s, uint32_t src, const mpp_src_entry *e)
{
    mpp_srcq *q = &s->srcq[(size_t)src * s->MC + e->mclass];
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

/* The node layer writes a packet into a send FIFO. */
static bool node_push(void *ud, uint32_t node, uint32_t cls, const mpp_src_entry *e)
{
    mpp_sim *s = ud;
    (void)cls;
    s->measured_created++;
    s->created_flits += e->flits;
    return enqueue(s, node, e);
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
        bool busy = false;
        /* A node with several links offers its next packet to them in
         * rotating order, so every link (and, on a fat tree, every first-
         * level router) carries its share. */
        uint32_t base = s->topo.node_link_base[node];
        uint32_t nl = s->topo.node_link_base[node + 1] - base;
        uint32_t first = nl > 1 ? (uint32_t)(n->cycle % nl) : 0;
        for (uint32_t j = 0; j < nl; j++) {
            uint32_t l = base + (first + j) % nl;
            uint64_t before = 0, after = 0;
            for (uint32_t c = 0; c < s->MC; c++)
                before += q[c].count;
            busy |= mpp_net_inject(n, l, q, s->MC, &s->srng[node]);
            for (uint32_t c = 0; c < s->MC; c++)
                after += q[c].count;
            s->queued -= before - after;
            if (s->nodes && after < before)
                mpp_nodes_fifo_space(s->nodes, node, n->cycle);
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

static void generate(mpp_sim *s)
{
    uint64_t c = s->net.cycle;
    bool in_window = c >= s->wstart && c < s->wend;
    uint32_t flits = s->cfg.synth.packet_flits;
    for (uint32_t node = 0; node < s->N; node++) {
        if (mpp_rng_next(&s->trng[node]) >= s->thresh)
            continue;
        uint32_t d = s->phys[mpp_traffic_dest(&s->traffic, s->logical[node], &s->trng[node])];
        mpp_src_entry e = {.created = c, .tag = 0, .dst = d, .flits = flits, .mclass = 0,
                           .measured = in_window};
        if (!enqueue(s, node, &e))
            return;
        if (in_window) {
            s->created_flits += flits;
            s->measured_created++;
        }
    }
}

/* Returns 0, or MPP_EDEADLOCK / MPP_ENOMEM with err filled. */
static int cycle_once(mpp_sim *s, bool gen, mpp_err *err)
{
    mpp_net *n = &s->net;
    n->count_channels = n->cycle >= s->wstart && n->cycle < s->wend;
    mpp_net_deliver(n);
    mpp_net_routers(n);
    if (s->nnact)
        inject_all(s);
    if (s->nodes) {
        mpp_nodes_step(s->nodes, n->cycle);
        if (mpp_nodes_oom(s->nodes))
            s->oom = true;
        if (!s->nodes_done_at && mpp_nodes_done(s->nodes))
            s->nodes_done_at = n->cycle + 1;
    }
    if (gen)
        generate(s);
    if (s->oom)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory growing a source queue at cycle %llu",
                           (unsigned long long)n->cycle);
    bool work = s->queued || mpp_net_flits_in_flight(n) || (s->nodes && !mpp_nodes_done(s->nodes));
    if (!work)
        n->last_progress = n->cycle;
    else if (n->cycle - n->last_progress >= s->cfg.net.watchdog_cycles) {
        mpp_sb_reset(&s->report);
        mpp_sb_printf(&s->report,
                      "deadlock: nothing has moved for %llu cycles (cycle %llu) while %llu flits "
                      "are in the network and %llu packets wait at their sources.\n"
                      "What holds flits:\n",
                      (unsigned long long)(n->cycle - n->last_progress),
                      (unsigned long long)n->cycle,
                      (unsigned long long)mpp_net_flits_in_flight(n),
                      (unsigned long long)s->queued);
        mpp_net_report(n, &s->report, 24);
        if (s->nodes) {
            mpp_sb_add(&s->report, "What the processors wait for:\n");
            mpp_nodes_report(s->nodes, &s->report, 24);
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
    r->seed = c->seed;
    r->nodes = s->N;
    r->cycles = cyc;
    r->flit_hops = s->net.flit_hops;
    r->router_cycles = (uint64_t)s->topo.routers * cyc;
    r->offered = c->workload == MPP_WL_SYNTHETIC ? c->synth.rate : NAN;
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
    double usum = 0, umax = 0;
    uint64_t ninter = 0;
    for (size_t i = 0; i < s->nchan; i++) {
        uint32_t o = s->chan_out[i];
        if (o >= s->net.P || s->net.dst[o] >= s->net.P)
            continue;
        double u = M ? (double)s->net.chan_flits[o] / (double)M : 0;
        usum += u;
        if (u > umax)
            umax = u;
        ninter++;
    }
    r->channel_util_mean = ninter ? usum / (double)ninter : 0;
    r->channel_util_max = umax;
    r->peak_vc_flits = s->net.peak_vc;
    r->makespan = s->msg_lat.n ? s->msg_lat.max : 0;
    if (s->nodes) {
        mpp_hist_free(&s->msg_lat);
        mpp_hist_init(&s->msg_lat);
        for (size_t i = 0; i < mpp_nodes_msg_count(s->nodes); i++) {
            mpp_message_record m;
            mpp_nodes_msg_get(s->nodes, i, &m);
            mpp_hist_add(&s->msg_lat, m.delivered - m.issue);
        }
        r->makespan = s->nodes_done_at ? s->nodes_done_at : cyc;
    }
    r->message_latency_mean = mpp_hist_mean(&s->msg_lat);
    r->message_latency_max = s->msg_lat.max;
    r->lower_bound = s->msg_left ? s->lower_bound : NAN;
    r->bound_ratio = s->msg_left && s->lower_bound > 0 ? r->message_latency_mean / s->lower_bound
                                                         : NAN;
    if (s->nodes)
        mpp_nodes_results(s->nodes, r);
    r->phases = s->phases;
    r->sched_steps = s->sched_steps;
    r->inquiries = s->replay.rt.inquiries ? s->replay.rt.inquiries(s->replay.rt.ud) : 0;
    r->drained = s->measured_delivered == s->measured_created;
    /* Saturated (SPEC 2): accepted below 0.95 of the offered rate, or the
     * measured packets did not drain. Also when the network does not carry
     * the load the sources actually generated in the window (accepted below
     * 0.98 of it): the source queues are growing, which is saturation even
     * when the first test sits on its boundary. */
    r->saturated = !r->drained ||
                   (c->workload == MPP_WL_SYNTHETIC &&
                    (r->accepted < 0.95 * c->synth.rate ||
                     (s->created_flits && r->accepted < 0.98 * r->injected_rate)));
}

int mpp_sim_run(mpp_sim *s, mpp_progress_fn progress, void *ud, mpp_err *err)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = 0;
    if (s->cfg.workload == MPP_WL_SYNTHETIC) {
        const mpp_synth_config *sc = &s->cfg.synth;
        uint64_t end = s->wend;
        uint64_t limit = end + (uint64_t)sc->drain_factor * sc->measure;
        uint64_t est = end + sc->measure / 10;
        while (rc == 0) {
            rc = cycle_once(s, true, err);
            uint64_t c = s->net.cycle;
            if (progress && (c & 4095) == 0)
                progress(ud, c, c > est ? c : est);
            if (c >= end && s->measured_delivered == s->measured_created)
                break;
            if (c >= limit)
                break;
        }
    } else if (s->nodes) {
        while (rc == 0 && !(mpp_nodes_done(s->nodes) && !s->queued &&
                            !mpp_net_flits_in_flight(&s->net))) {
            /* nothing in the network and no node due: jump to the next
             * processor event (credits still returning are waited for) */
            if (!s->queued && !mpp_net_flits_in_flight(&s->net) && !s->nnact &&
                mpp_net_idle(&s->net)) {
                uint64_t next = mpp_nodes_next_wake(s->nodes);
                if (next != UINT64_MAX && next > s->net.cycle) {
                    s->net.cycle = next;
                    s->net.last_progress = next;
                }
            }
            rc = cycle_once(s, false, err);
            if (progress && (s->net.cycle & 4095) == 0)
                progress(ud, s->net.cycle, s->net.cycle + 4096);
        }
    } else {
        rc = mpp_sim_run_until_idle(s, UINT64_MAX, err);
    }
    finish(s);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    s->res.wall_seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (progress && rc == 0)
        progress(ud, s->net.cycle, s->net.cycle);
    return rc;
}

int mpp_sim_send(mpp_sim *s, uint32_t src, uint32_t dst, uint32_t flits, uint64_t tag, mpp_err *err)
{
    if (s->cfg.workload != MPP_WL_MANUAL)
        return mpp_err_set(err, MPP_EINVAL, "mpp_sim_send needs the manual workload");
    if (src >= s->N || dst >= s->N || flits < 1)
        return mpp_err_set(err, MPP_EINVAL, "packet %u->%u of %u flits: no such node or empty",
                           src, dst, flits);
    if (s->net.flow == MPP_FLOW_CUT_THROUGH && flits > s->net.B)
        return mpp_err_set(err, MPP_EINVAL, "cut-through needs packets of at most buffer_flits (%u) flits",
                           s->net.B);
    mpp_src_entry e = {.created = s->net.cycle, .tag = tag, .dst = dst, .flits = flits,
                       .mclass = 0, .measured = 1};
    if (!enqueue(s, src, &e))
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    s->measured_created++;
    s->created_flits += flits;
    s->manual_outstanding++;
    return 0;
}

int mpp_sim_run_until_idle(mpp_sim *s, uint64_t max_cycles, mpp_err *err)
{
    uint64_t start = s->net.cycle;
    while (s->manual_outstanding) {
        if (s->net.cycle - start >= max_cycles)
            return mpp_err_set(err, MPP_ERUN, "%llu packets not delivered after %llu cycles",
                               (unsigned long long)s->manual_outstanding,
                               (unsigned long long)max_cycles);
        int rc = cycle_once(s, false, err);
        if (rc)
            return rc;
    }
    finish(s);
    return 0;
}

int mpp_sim_step(mpp_sim *s, uint64_t k, mpp_err *err)
{
    bool gen = s->cfg.workload == MPP_WL_SYNTHETIC;
    for (uint64_t i = 0; i < k; i++) {
        int rc = cycle_once(s, gen, err);
        if (rc)
            return rc;
    }
    finish(s);
    return 0;
}

/* --- accessors --------------------------------------------------------------- */

uint64_t mpp_sim_cycle(const mpp_sim *s) { return s->net.cycle; }
const mpp_sim_result *mpp_sim_result_get(const mpp_sim *s) { return &s->res; }
const mpp_topo *mpp_sim_topology(const mpp_sim *s) { return &s->topo; }
const char *mpp_sim_report(const mpp_sim *s) { return s->report.s; }
size_t mpp_sim_channel_count(const mpp_sim *s) { return s->nchan; }
const uint64_t *mpp_sim_traffic_matrix(const mpp_sim *s) { return s->matrix; }

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
        t->ops->port_name(t, r, e - t->port_base[r], pn, (int)sizeof pn);
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
    endpoint_name(s, s->net.dst[o], out->to, sizeof out->to);
    uint64_t M = s->wend > s->wstart && s->wend != UINT64_MAX ? s->wend - s->wstart
                                                              : s->net.cycle - s->wstart;
    out->flits = s->net.chan_flits[o];
    out->utilisation = M ? (double)out->flits / (double)M : 0;
}

bool mpp_sim_check(const mpp_sim *s)
{
    uint64_t q = 0;
    for (uint32_t i = 0; i < s->N * s->MC; i++)
        q += s->srcq[i].count;
    return q == s->queued && mpp_net_check(&s->net);
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
