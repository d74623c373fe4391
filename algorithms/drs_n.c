/* algorithms/drs_n.c — distributed random scheduling (drs_n, Wang, Lin and
 * Ranka 1993, Fig. 5): no table, a runtime protocol run by the node
 * processors through the application API of core/program.h.
 *
 * 1. Generate_Recv: every processor learns its receive vector recvl (the
 *    column of COM), one of two ways (`recv_vector`):
 *    reduce (Fig. 1, the default): build the n-entry send mask (n words
 *      of memory, an APP step), vector-sum the masks over the control
 *      network (REDUCE of n words: every processor gets recv_cnt), then
 *      send one active message per non-zero entry of its row (ANNOUNCE,
 *      carrying the entry); the ANNOUNCE handler stores the entry in recvl
 *      and counts down; a processor's vector is complete when its count
 *      reaches zero (step 4).
 *    concat: the global concatenation of every send vector (n words of 4
 *      bytes each) by recursive doubling with CMMD send-and-receive
 *      (SENDRECV, sync): in step k processor i exchanges all it holds with
 *      i XOR 2^k. For n not a power of two, with p the largest power of
 *      two below n, processor p + j first sends its vector to j (fold-in),
 *      the p low processors do the log2 p steps, and j sends the whole
 *      n x n matrix back to p + j (fold-out). Then every processor scans
 *      its column (n words of memory).
 * 2. (a) Every processor posts one asynchronous CMMD receive per entry of
 *    recvl (mpp_node_post_recv: recv_msg_cycles each).
 *    (b) It repeatedly picks a remaining destination (its row in a random
 *    order, visited cyclically) and asks it with an active-message
 *    test-and-set of the destination's lock (INQ). The destination's
 *    handler answers FREE (and sets the lock) or BUSY. On FREE the sender
 *    sends the message with a blocking CMMD send (mpp_node_send_msg in
 *    `paradigm`: sync by default; am_put for comparison) and, only when its
 *    last packet has been written (MPP_APP_SENT), releases the lock with
 *    another active message (RELEASE) and asks its next destination. On
 *    BUSY it tries its next remaining destination; when a whole round of
 *    its remaining destinations answered BUSY it first waits `backoff` CPU
 *    cycles, doubled for every such round in a row (at most 1024x; the
 *    paper's optional delay "a variable amount of time"). A run whose
 *    inquiries exceed max_inquiries per message stops with an error
 *    (mpp_node_fail) instead of spinning on without end.
 *    (c) A processor is done (mpp_node_app_done) when its receive vector is
 *    complete, it has sent everything, and every expected message has
 *    arrived (MPP_APP_RECVD).
 *
 *   sender s                          destination d
 *     INQ --------------------------->  lock free? set it, FREE; else BUSY
 *     <------------------------------ FREE
 *     REQ --------------------------->  (the receive posted in 2(a))
 *     <------------------------------ REPLY
 *     DATA ... DATA ----------------->  MPP_APP_RECVD when the last is read
 *     last DATA written: MPP_APP_SENT
 *     RELEASE ----------------------->  lock cleared
 *
 * Handlers (drs_handler) by tag: ANNOUNCE -> announce, INQ -> inquiry,
 * FREE -> start the send, SENT -> release and ask, BUSY -> ask the next,
 * RELEASE -> clear the lock, DATA (RECVD or an am_put stream) -> arrival.
 *
 * Invariants (checked after a run by drs_check):
 *   1. a lock is held by at most one sender; a sender has at most one INQ
 *      or send outstanding;
 *   2. every COM entry is sent exactly once: FREE answers == messages,
 *      inquiries == FREE + BUSY answers;
 *   3. the RELEASE is written only after the last packet of its message
 *      (MPP_APP_SENT), so on a network that keeps one source's packets to
 *      one destination in order it reaches d after every packet of the
 *      message has been read. A RELEASE that arrives earlier is counted
 *      (`overtaken`): on the CM-5 model (two links per node, random
 *      up-routing) packets of one message do overtake each other, and the
 *      lock is then cleared as the paper's protocol clears it, on the
 *      RELEASE, while the last data packets are still in flight;
 *   4. a processor finishes only after its receive vector is complete and
 *      all its expected messages have arrived. */
#include "algorithms/schedule.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/rng.h"
#include "core/sections.h"

enum { T_ANNOUNCE = 1, T_INQ = 2, T_FREE = 3, T_BUSY = 4, T_RELEASE = 5, T_DATA = 6,
       T_CONCAT = 16 /* + step: the concatenation's messages */ };
enum { RV_REDUCE = 0, RV_CONCAT = 1 };

#define NONE UINT32_MAX
#define ENTRY_BYTES 4 /* a send-vector entry: one 32-bit word */

static const char *const rv_choices[] = {"reduce", "concat", NULL};
static const char *const par_choices[] = {"sync", "async", "am_put", NULL};
static const int par_values[] = {MPP_PARADIGM_SYNC, MPP_PARADIGM_ASYNC, MPP_PARADIGM_AM_PUT};

typedef struct drs_cfg {
    uint32_t backoff;
    uint32_t max_inquiries;
    int recv_vector;   /* RV_* */
    int paradigm;      /* index into par_choices */
    bool release_early;
} drs_cfg;

static const mpp_param drs_params[] = {
    {"backoff", MPP_PT_U32, offsetof(drs_cfg, backoff), "0", 0, 1e9, NULL,
     "CPU cycles a sender waits before its next round of inquiries when every remaining "
     "destination answered BUSY; doubles with each such round in a row (at most 1024x); 0: none"},
    {"max_inquiries", MPP_PT_U32, offsetof(drs_cfg, max_inquiries), "1000", 1, 1e6, NULL,
     "inquiries per message after which the run stops with an error (senders spinning on busy "
     "locks: raise backoff)"},
    {"recv_vector", MPP_PT_ENUM, offsetof(drs_cfg, recv_vector), "reduce", 0, 0, rv_choices,
     "Generate_Recv: reduce (vector sum on the control network + one active message per "
     "entry, Fig. 1) or concat (global concatenation of the send vectors by recursive doubling)"},
    {"paradigm", MPP_PT_ENUM, offsetof(drs_cfg, paradigm), "sync", 0, 0, par_choices,
     "how a message goes once its destination's lock is held: CMMD blocking send (sync, "
     "async) or a CMAML block transfer (am_put)"},
    {"release_early", MPP_PT_BOOL, offsetof(drs_cfg, release_early), "false", 0, 0, NULL,
     "testing: release the lock as soon as the send starts (wrong: the release can overtake "
     "the data; the protocol test must catch it)"},
};

typedef struct drs_node {
    /* send side */
    uint32_t *dest;       /* remaining destinations (row, shuffled) */
    uint64_t *bytes;
    uint32_t left, pos;   /* remaining count; cyclic position */
    uint32_t busy_run;    /* BUSY answers in a row since the last FREE */
    uint32_t sending;     /* destination of the send in progress, or NONE */
    /* receive side */
    uint32_t *rsrc;       /* recvl: the sources, as Generate_Recv delivered them */
    uint32_t nrecv;       /* entries of recvl known */
    uint32_t expect;      /* recv_cnt: messages to come (the column count) */
    uint32_t got;         /* messages arrived */
    uint32_t holder;      /* sender holding the lock, or NONE */
    bool holder_arrived;  /* the holder's message has been read completely */
    /* progress */
    uint32_t apps;        /* MPP_OP_APP operations started */
    bool rv_done, done;
    uint64_t rv_at, done_at, last_arrival; /* network cycles */
} drs_node;

typedef struct drs {
    uint32_t n, nmsgs;
    drs_cfg cfg;
    int paradigm;         /* mpp_paradigm of the data */
    bool pack;            /* gather each message into its send buffer before sending it */
    uint32_t main_app;    /* which APP operation runs the protocol (1 or 2) */
    drs_node *node;
    uint64_t inquiries, busy, free_;
    uint64_t inq_limit;   /* max_inquiries x messages (at least one per processor) */
    uint64_t overtaken, send_failed;
    mpp_program *prog;
    mpp_op **ops;
} drs;

static void check_done(drs *st, mpp_node_ctx *ctx, uint32_t v)
{
    drs_node *d = &st->node[v];
    if (d->apps == st->main_app && d->rv_done && !d->done && d->left == 0 &&
        d->sending == NONE && d->got == d->expect) {
        d->done = true;
        d->done_at = mpp_node_now(ctx);
        mpp_node_app_done(ctx);
    }
}

/* Ask the next remaining destination of v (cyclically). */
static void ask(drs *st, mpp_node_ctx *ctx, uint32_t v)
{
    drs_node *d = &st->node[v];
    if (!d->left) {
        check_done(st, ctx, v);
        return;
    }
    d->pos %= d->left;
    uint32_t to = d->dest[d->pos];
    if (st->cfg.backoff && d->busy_run && d->busy_run % d->left == 0) {
        /* a whole round of BUSY answers: back off, longer each round */
        uint32_t rounds = d->busy_run / d->left;
        mpp_node_compute(ctx, (uint64_t)st->cfg.backoff << (rounds > 11 ? 10 : rounds - 1));
    }
    st->inquiries++;
    if (st->inquiries > st->inq_limit) {
        char why[200];
        snprintf(why, sizeof why,
                 "drs_n: %llu inquiries for %u messages (workload.drs_n.max_inquiries = %u per "
                 "message): the senders spin on busy locks; set workload.drs_n.backoff",
                 (unsigned long long)st->inquiries, st->nmsgs, st->cfg.max_inquiries);
        mpp_node_fail(ctx, why);
        return;
    }
    mpp_node_send_am(ctx, to, T_INQ);
}

/* Step 1 done at v: post a receive per entry of recvl (2a), start asking
 * (2b). */
static void rv_complete(drs *st, mpp_node_ctx *ctx, uint32_t v)
{
    drs_node *d = &st->node[v];
    d->rv_done = true;
    for (uint32_t k = 0; k < d->nrecv; k++)
        mpp_node_post_recv(ctx, d->rsrc[k], T_DATA);
    d->rv_at = mpp_node_now(ctx);
    ask(st, ctx, v);
}

/* Remove destination `to` from v's remaining row. */
static void drop_dest(drs_node *d, uint32_t to)
{
    for (uint32_t k = 0; k < d->left; k++)
        if (d->dest[k] == to) {
            d->left--;
            d->dest[k] = d->dest[d->left];
            d->bytes[k] = d->bytes[d->left];
            return;
        }
}

static void drs_start(void *ud, mpp_node_ctx *ctx, uint32_t v)
{
    drs *st = ud;
    drs_node *d = &st->node[v];
    d->apps++;
    if (d->apps < st->main_app) {
        /* reduce, before the vector sum: build the n-word send mask */
        mpp_node_copy_words(ctx, st->n);
        mpp_node_app_done(ctx);
        return;
    }
    if (st->cfg.recv_vector == RV_CONCAT) {
        /* the whole matrix is here: scan this processor's column */
        mpp_node_copy_words(ctx, st->n);
        rv_complete(st, ctx, v);
        return;
    }
    /* reduce: recv_cnt is known (the vector sum); announce every non-zero
     * entry of the row to its destination */
    for (uint32_t k = 0; k < d->left; k++)
        mpp_node_send_am(ctx, d->dest[k], T_ANNOUNCE);
    if (d->nrecv == d->expect && !d->rv_done)
        rv_complete(st, ctx, v);
}

static void drs_handler(void *ud, mpp_node_ctx *ctx, uint32_t v, uint32_t src, uint32_t tag,
                        uint64_t bytes)
{
    drs *st = ud;
    drs_node *d = &st->node[v];
    (void)bytes;
    switch (tag) {
    case T_ANNOUNCE:
        /* may run before this processor has left the vector sum */
        if (d->nrecv < d->expect)
            d->rsrc[d->nrecv++] = src;
        if (d->nrecv == d->expect && d->apps == st->main_app && !d->rv_done)
            rv_complete(st, ctx, v);
        break;
    case T_INQ:
        if (d->holder == NONE) {
            d->holder = src;
            d->holder_arrived = false;
            mpp_node_send_am(ctx, src, T_FREE);
        } else {
            mpp_node_send_am(ctx, src, T_BUSY);
        }
        break;
    case T_FREE: {
        st->free_++;
        d->busy_run = 0;
        d->sending = src;
        uint32_t k = 0;
        while (k < d->left && d->dest[k] != src)
            k++;
        if (k < d->left && st->pack)
            mpp_node_copy_words(ctx, (d->bytes[k] + 3) / 4); /* gathered into the send buffer */
        if (k == d->left || mpp_node_send_msg(ctx, src, d->bytes[k], T_DATA, st->paradigm)) {
            /* too many packets for one message: recorded (drs_check), the
             * lock released, the entry dropped */
            st->send_failed++;
            mpp_node_send_am(ctx, src, T_RELEASE);
            drop_dest(d, src);
            d->sending = NONE;
            ask(st, ctx, v);
            break;
        }
        if (st->cfg.release_early)
            mpp_node_send_am(ctx, src, T_RELEASE);
        break;
    }
    case T_DATA | MPP_APP_SENT:
        /* the blocking send is complete: now release the lock */
        if (!st->cfg.release_early)
            mpp_node_send_am(ctx, src, T_RELEASE);
        drop_dest(d, src);
        d->sending = NONE;
        ask(st, ctx, v);
        break;
    case T_BUSY:
        st->busy++;
        d->busy_run++;
        d->pos++;
        ask(st, ctx, v);
        break;
    case T_RELEASE:
        if (d->holder != src || !d->holder_arrived)
            st->overtaken++;
        d->holder = NONE;
        break;
    case T_DATA:
    case T_DATA | MPP_APP_RECVD:
        d->got++;
        d->last_arrival = mpp_node_now(ctx);
        if (src == d->holder)
            d->holder_arrived = true;
        check_done(st, ctx, v);
        break;
    default:
        break;
    }
}

static uint64_t drs_inquiries(const void *ud) { return ((const drs *)ud)->inquiries; }
static uint64_t drs_busy(const void *ud) { return ((const drs *)ud)->busy; }

static uint64_t drs_setup_cycles(const void *ud)
{
    const drs *st = ud;
    uint64_t m = 0;
    for (uint32_t v = 0; v < st->n; v++)
        if (st->node[v].rv_at > m)
            m = st->node[v].rv_at;
    return m;
}

static uint64_t drs_overtaken(const void *ud) { return ((const drs *)ud)->overtaken; }

/* After a run: invariants 2 and 4 of the header (3 depends on the network:
 * drs_overtaken). */
static int drs_check(const void *ud, mpp_err *err)
{
    const drs *st = ud;
    if (st->inquiries != st->free_ + st->busy)
        return mpp_err_set(err, MPP_EINVAL, "drs_n: %llu inquiries but %llu FREE + %llu BUSY answers",
                           (unsigned long long)st->inquiries, (unsigned long long)st->free_,
                           (unsigned long long)st->busy);
    if (st->free_ != st->nmsgs || st->send_failed)
        return mpp_err_set(err, MPP_EINVAL, "drs_n: %llu FREE answers (%llu sends failed) for %u messages",
                           (unsigned long long)st->free_, (unsigned long long)st->send_failed,
                           st->nmsgs);
    for (uint32_t v = 0; v < st->n; v++) {
        const drs_node *d = &st->node[v];
        if (!d->done)
            return mpp_err_set(err, MPP_EINVAL, "drs_n: processor %u did not finish", v);
        if (!d->rv_done || d->nrecv != d->expect || d->rv_at > d->done_at)
            return mpp_err_set(err, MPP_EINVAL,
                               "drs_n: processor %u finished with %u of %u receive-vector entries",
                               v, d->nrecv, d->expect);
        if (d->got != d->expect || d->last_arrival > d->done_at || d->left)
            return mpp_err_set(err, MPP_EINVAL,
                               "drs_n: processor %u finished at cycle %llu with %u of %u messages "
                               "(last at %llu), %u to send",
                               v, (unsigned long long)d->done_at, d->got, d->expect,
                               (unsigned long long)d->last_arrival, d->left);
    }
    return 0;
}

static void drs_destroy(void *ud)
{
    drs *st = ud;
    if (!st)
        return;
    for (uint32_t v = 0; st->node && v < st->n; v++) {
        free(st->node[v].dest);
        free(st->node[v].bytes);
        free(st->node[v].rsrc);
        if (st->ops)
            free(st->ops[v]);
    }
    free(st->node);
    free(st->ops);
    free(st->prog);
    free(st);
}

/* Processors holding vectors in step k of the doubling: how many send
 * vectors processor i (< p) holds then (its 2^k-group, with the folded-in
 * vectors of processors p .. n-1). */
static uint64_t held(uint32_t i, uint32_t k, uint32_t p, uint32_t n)
{
    uint32_t lo = (i >> k) << k;
    uint64_t c = 0;
    for (uint32_t j = lo; j < lo + (1u << k); j++)
        c += 1 + (j + p < n);
    return c;
}

/* The concatenation's operations of processor v (see the header). */
static uint32_t concat_ops(mpp_op *o, uint32_t v, uint32_t n)
{
    uint32_t p = 1, logp = 0, len = 0;
    while (p * 2 <= n) {
        p *= 2;
        logp++;
    }
    uint64_t vec = (uint64_t)n * ENTRY_BYTES;
    if (v >= p) {
        o[len++] = (mpp_op){.code = MPP_OP_SEND, .paradigm = MPP_PARADIGM_SYNC, .peer = v - p,
                            .tag = T_CONCAT, .bytes = vec};
        o[len++] = (mpp_op){.code = MPP_OP_RECV, .peer = v - p, .tag = T_CONCAT + logp + 1};
        return len;
    }
    if (v + p < n)
        o[len++] = (mpp_op){.code = MPP_OP_RECV, .peer = v + p, .tag = T_CONCAT};
    for (uint32_t k = 0; k < logp; k++) {
        uint32_t peer = v ^ (1u << k);
        o[len++] = (mpp_op){.code = MPP_OP_SENDRECV, .paradigm = MPP_PARADIGM_SYNC, .peer = peer,
                            .peer2 = peer, .tag = T_CONCAT + 1 + k, .bytes = held(v, k, p, n) * vec};
    }
    if (v + p < n)
        o[len++] = (mpp_op){.code = MPP_OP_SEND, .paradigm = MPP_PARADIGM_SYNC, .peer = v + p,
                            .tag = T_CONCAT + logp + 1, .bytes = (uint64_t)n * vec};
    return len;
}

static int drs_runtime(const mpp_com *com, const void *cfgp, uint64_t seed, uint32_t nodes,
                       bool pack, mpp_sched_runtime *rt, mpp_err *err)
{
    memset(rt, 0, sizeof *rt);
    drs *st = calloc(1, sizeof *st);
    if (!st)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    st->n = nodes;
    st->nmsgs = com->nnz;
    st->cfg = *(const drs_cfg *)cfgp;
    st->paradigm = par_values[st->cfg.paradigm];
    st->pack = pack;
    st->main_app = st->cfg.recv_vector == RV_CONCAT ? 1 : 2;
    st->inq_limit = (uint64_t)st->cfg.max_inquiries * (com->nnz > nodes ? com->nnz : nodes);
    st->node = calloc(nodes, sizeof *st->node);
    st->prog = calloc(nodes, sizeof *st->prog);
    st->ops = calloc(nodes, sizeof *st->ops);
    uint32_t *row = calloc(nodes, sizeof *row);
    bool ok = st->node && st->prog && st->ops && row;
    for (uint32_t i = 0; ok && i < com->nnz; i++) {
        row[com->e[i].src]++;
        st->node[com->e[i].dst].expect++;
    }
    for (uint32_t v = 0; ok && v < nodes; v++) {
        drs_node *d = &st->node[v];
        d->sending = d->holder = NONE;
        d->dest = malloc((row[v] + 1) * sizeof *d->dest);
        d->bytes = malloc((row[v] + 1) * sizeof *d->bytes);
        d->rsrc = malloc((d->expect + 1) * sizeof *d->rsrc);
        /* concat: fold-in, log2 n exchanges, fold-out, APP; reduce: APP,
         * REDUCE, APP */
        st->ops[v] = malloc(40 * sizeof **st->ops);
        ok = d->dest && d->bytes && d->rsrc && st->ops[v];
    }
    if (!ok) {
        free(row);
        drs_destroy(st);
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    }
    for (uint32_t i = 0; i < com->nnz; i++) {
        drs_node *d = &st->node[com->e[i].src];
        d->dest[d->left] = com->e[i].dst;
        d->bytes[d->left++] = com->e[i].units * com->msg_unit;
        if (st->cfg.recv_vector == RV_CONCAT) {
            /* the column, read from the concatenated matrix */
            drs_node *r = &st->node[com->e[i].dst];
            r->rsrc[r->nrecv++] = com->e[i].src;
        }
    }
    for (uint32_t v = 0; v < nodes; v++) {
        drs_node *d = &st->node[v];
        mpp_rng rng;
        mpp_rng_init(&rng, seed, MPP_RNG_SCHEDULER, v);
        for (uint32_t k = d->left; k > 1; k--) { /* shuffle dest and bytes together */
            uint32_t j = mpp_rng_below(&rng, k);
            uint32_t t = d->dest[k - 1];
            d->dest[k - 1] = d->dest[j];
            d->dest[j] = t;
            uint64_t b = d->bytes[k - 1];
            d->bytes[k - 1] = d->bytes[j];
            d->bytes[j] = b;
        }
        mpp_op *o = st->ops[v];
        uint32_t len = 0;
        if (st->cfg.recv_vector == RV_CONCAT) {
            len = concat_ops(o, v, nodes);
        } else {
            o[len++] = (mpp_op){.code = MPP_OP_APP};
            o[len++] = (mpp_op){.code = MPP_OP_REDUCE, .bytes = nodes};
        }
        o[len++] = (mpp_op){.code = MPP_OP_APP};
        st->prog[v] = (mpp_program){o, len};
    }
    free(row);
    rt->prog = st->prog;
    rt->handler = drs_handler;
    rt->start = drs_start;
    rt->ud = st;
    rt->destroy = drs_destroy;
    rt->inquiries = drs_inquiries;
    rt->inquiries_busy = drs_busy;
    rt->setup_cycles = drs_setup_cycles;
    rt->check = drs_check;
    rt->overtaken = drs_overtaken;
    return 0;
}

const mpp_sched_ops mpp_sched_drs_n = {
    .name = "drs_n",
    .help = "distributed random scheduling (Wang, Lin, Ranka 1993): Generate_Recv on the machine, "
            "then active-message test-and-set locks and blocking CMMD sends at run time",
    .dynamic = true,
    .schema = {drs_params, MPP_COUNTOF(drs_params), sizeof(drs_cfg)},
    .runtime = drs_runtime,
};
