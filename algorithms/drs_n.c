/* algorithms/drs_n.c — distributed random scheduling (drs_n): no table, a
 * runtime protocol run by the node processors with active messages.
 *
 * 1. Every processor learns its receive vector: a reduction over the
 *    control network gives the counts (REDUCE), then every sender sends one
 *    active message per non-zero entry of its row (ANNOUNCE).
 * 2. Every processor repeatedly picks a remaining destination (its row in a
 *    random order, visited cyclically) and asks it with an active-message
 *    test-and-set of the destination's busy lock (INQ). The destination's
 *    handler answers FREE (and sets the lock) or BUSY. On FREE the sender
 *    sends the message (a block transfer, am_put) and then releases the lock
 *    with another active message (RELEASE); on BUSY it tries its next
 *    remaining destination, after an optional back-off of `backoff` CPU
 *    cycles when that is the one that was just busy. Every INQ that finds
 *    the lock busy counts as an extra inquiry.
 * 3. A processor is done when all its messages are sent and all its
 *    announced messages have arrived.
 *
 *   sender s                     destination d
 *     INQ ----------------------->  lock free? set it: FREE / else BUSY
 *     <------------------------- FREE
 *     PUT ... PUT --------------->  (handler when the last is read)
 *     RELEASE ------------------->  lock cleared
 *
 * Invariants: a lock is held by at most one sender; a sender has at most one
 * INQ outstanding; every COM entry is sent exactly once. */
#include "algorithms/schedule.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/rng.h"

enum { T_ANNOUNCE = 1, T_INQ = 2, T_FREE = 3, T_BUSY = 4, T_RELEASE = 5, T_DATA = 6 };

typedef struct drs_cfg {
    uint32_t backoff;
} drs_cfg;

static const mpp_param drs_params[] = {
    {"backoff", MPP_PT_U32, offsetof(drs_cfg, backoff), "0", 0, 1e9, NULL,
     "CPU cycles to wait before asking again the destination that was just busy"},
};

typedef struct drs_node {
    uint32_t *dest;      /* remaining destinations (row, shuffled) */
    uint64_t *bytes;
    uint32_t left, pos;  /* remaining count; cyclic position */
    uint32_t last_busy;  /* destination that answered BUSY last, or none */
    uint32_t expect, got;/* messages announced to it / arrived */
    uint32_t announced;
    bool locked;         /* its own lock */
    bool started, done;
} drs_node;

typedef struct drs {
    uint32_t n;
    drs_cfg cfg;
    drs_node *node;
    uint64_t inquiries;
    mpp_program *prog;
    mpp_op **ops;
} drs;

static void check_done(drs *st, mpp_node_ctx *ctx, uint32_t v)
{
    drs_node *d = &st->node[v];
    if (d->started && !d->done && d->left == 0 && d->got == d->expect) {
        d->done = true;
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
    if (to == d->last_busy && st->cfg.backoff)
        mpp_node_compute(ctx, st->cfg.backoff);
    mpp_node_send_am(ctx, to, T_INQ);
}

static void drs_start(void *ud, mpp_node_ctx *ctx, uint32_t v)
{
    drs *st = ud;
    st->node[v].started = true;
    ask(st, ctx, v);
}

static void drs_handler(void *ud, mpp_node_ctx *ctx, uint32_t v, uint32_t src, uint32_t tag,
                        uint64_t bytes)
{
    drs *st = ud;
    drs_node *d = &st->node[v];
    switch (tag) {
    case T_ANNOUNCE:
        d->announced++;
        break;
    case T_INQ:
        if (!d->locked) {
            d->locked = true;
            mpp_node_send_am(ctx, src, T_FREE);
        } else {
            mpp_node_send_am(ctx, src, T_BUSY);
        }
        break;
    case T_FREE: {
        /* send the message to src, then release its lock */
        uint32_t k = d->pos % d->left;
        if (d->dest[k] != src) /* the answer is for the destination asked */
            for (k = 0; k < d->left && d->dest[k] != src; k++)
                ;
        if (k < d->left) {
            mpp_node_send_put(ctx, src, d->bytes[k], T_DATA);
            mpp_node_send_am(ctx, src, T_RELEASE);
            d->left--;
            d->dest[k] = d->dest[d->left];
            d->bytes[k] = d->bytes[d->left];
        }
        d->last_busy = UINT32_MAX;
        ask(st, ctx, v);
        break;
    }
    case T_BUSY:
        st->inquiries++;
        d->last_busy = src;
        d->pos++;
        ask(st, ctx, v);
        break;
    case T_RELEASE:
        d->locked = false;
        break;
    case T_DATA:
        d->got++;
        check_done(st, ctx, v);
        break;
    }
    (void)bytes;
}

static uint64_t drs_inquiries(const void *ud) { return ((const drs *)ud)->inquiries; }

static void drs_destroy(void *ud)
{
    drs *st = ud;
    if (!st)
        return;
    for (uint32_t v = 0; v < st->n; v++) {
        free(st->node[v].dest);
        free(st->node[v].bytes);
        free(st->ops[v]);
    }
    free(st->node);
    free(st->ops);
    free(st->prog);
    free(st);
}

static int drs_runtime(const mpp_com *com, const void *cfgp, uint64_t seed, uint32_t nodes,
                       mpp_sched_runtime *rt, mpp_err *err)
{
    memset(rt, 0, sizeof *rt);
    drs *st = calloc(1, sizeof *st);
    if (!st)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    st->n = nodes;
    st->cfg = *(const drs_cfg *)cfgp;
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
        d->last_busy = UINT32_MAX;
        d->dest = malloc((row[v] + 1) * sizeof *d->dest);
        d->bytes = malloc((row[v] + 1) * sizeof *d->bytes);
        /* REDUCE, one ANNOUNCE per destination, APP */
        st->ops[v] = malloc((row[v] + 2) * sizeof **st->ops);
        ok = d->dest && d->bytes && st->ops[v];
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
        o[len++] = (mpp_op){.code = MPP_OP_REDUCE};
        for (uint32_t k = 0; k < d->left; k++)
            o[len++] = (mpp_op){.code = MPP_OP_AM, .peer = d->dest[k], .tag = T_ANNOUNCE};
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
    return 0;
}

const mpp_sched_ops mpp_sched_drs_n = {
    .name = "drs_n",
    .help = "distributed random scheduling: active-message test-and-set locks at run time",
    .dynamic = true,
    .schema = {drs_params, MPP_COUNTOF(drs_params), sizeof(drs_cfg)},
    .runtime = drs_runtime,
};
