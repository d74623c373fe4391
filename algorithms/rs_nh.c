/* algorithms/rs_nh.c — `rs_nh`, random scheduling with heaps for
 * non-uniform message sizes.
 *
 * Every sender keeps its unsent messages in a max-heap keyed by remaining
 * size (ties broken by a random tag drawn once per entry, so equal sizes
 * are not served in column order). A phase starts at a uniformly random
 * sender and visits the senders cyclically; each takes its largest
 * remaining message whose receiver is still free in this phase (popping
 * busy ones aside and pushing them back), so a phase tends to hold
 * messages of similar size and less time idles. Then the phase's cutoff c
 * is computed from the sizes chosen (s_min .. s_max):
 *
 *   none      c = infinity: every message is sent whole
 *   min       c = s_min: every pair sends the same amount (no idle time)
 *   median    c = the (upper) median of the chosen sizes
 *   mean      c = ceil(mean of the chosen sizes)
 *   fraction  c = s_max (with `factor` < 1 this is a fraction of the max)
 *
 * c is then multiplied by `factor`, rounded up and raised to at least s_min:
 * c = max(s_min, ceil(factor * base)). Each chosen message sends
 * min(remaining, c) units in this phase; a message with more left goes back
 * into its sender's heap with the rest, for later phases. Because c >=
 * s_min, at least one message of every phase finishes: nphases <= nnz.
 *
 * Cutting a message keeps its sender and receiver busy for one more phase,
 * and the phases cannot be fewer than the largest number of unfinished
 * messages of any processor. The slack guard (parameter slack = s >= 1)
 * therefore cuts a message only when, after this phase, its sender and
 * its receiver would each keep at least s fewer unfinished messages than
 * the busiest processor would if every chosen message finished; otherwise
 * the message is sent whole. slack = 0 cuts whatever exceeds c.
 *
 * The default (cutoff mean, factor 1.5, slack 1; docs/scheduling.md has
 * the measurements behind it) keeps the number of phases within 5% of
 * rs_n's on random non-uniform matrices. A NULL cfg means the defaults.
 *
 * Memory O(n + nnz): items (one per entry: receiver, remaining, tag) and
 * one heap array holding row r's heap at rowstart[r] .. rowstart[r] +
 * hlen[r]; parts are appended to growable arrays. steps counts heap items
 * examined (popped) while choosing. Work (mpp_sched_work) on a node: scan
 * n^2 (the heaps are built from the dense COM, as cgm's table), tries =
 * steps, rows n per phase, phases, moves = heap pushes (the nnz items,
 * the busy items put back, the remainders of cut messages).
 *
 * Invariants:
 *   1. heap[rowstart[r] .. + hlen[r]) holds exactly the items of row r with
 *      remaining > 0 that are not chosen in the current phase, in heap order.
 *   2. A phase takes at most one item per sender (one visit) and per
 *      receiver (colstamp): a partial permutation, never empty.
 *   3. For every entry, the parts emitted plus its remaining equal its
 *      units.
 *   4. sendleft[i] / recvleft[i] count the entries of row / column i with
 *      units left. */
#include "algorithms/schedule.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/phases.h"
#include "core/base/rng.h"

enum { CUT_NONE, CUT_MIN, CUT_MEDIAN, CUT_MEAN, CUT_FRACTION };

typedef struct rs_nh_cfg {
    int cutoff;     /* CUT_* */
    double factor;  /* multiplies the rule's cutoff */
    uint32_t slack; /* cut only with this margin below the busiest processor; 0: always */
} rs_nh_cfg;

static const char *const cutoff_names[] = {"none", "min", "median", "mean", "fraction", NULL};

/* The default, measured in docs/scheduling.md: on random non-uniform
 * matrices (n = 32, d = 4..31) 1.6% more phases than rs_n, 41% less idle
 * time. Without the slack guard the same rule costs 24% more phases. */
#define RS_NH_DEFAULT_CUTOFF CUT_MEAN
#define RS_NH_DEFAULT_CUTOFF_NAME "mean"
#define RS_NH_DEFAULT_FACTOR 1.5
#define RS_NH_DEFAULT_FACTOR_TEXT "1.5"
#define RS_NH_DEFAULT_SLACK 1
#define RS_NH_DEFAULT_SLACK_TEXT "1"

static const mpp_param rs_nh_params[] = {
    {"cutoff", MPP_PT_ENUM, offsetof(rs_nh_cfg, cutoff), RS_NH_DEFAULT_CUTOFF_NAME, 0, 0,
     cutoff_names, "per-phase cutoff rule: none, min, median, mean or fraction (of the max)"},
    {"factor", MPP_PT_DOUBLE, offsetof(rs_nh_cfg, factor), RS_NH_DEFAULT_FACTOR_TEXT, 0.01, 1000,
     NULL, "cutoff = max(smallest chosen, ceil(factor x rule's size))"},
    {"slack", MPP_PT_U32, offsetof(rs_nh_cfg, slack), RS_NH_DEFAULT_SLACK_TEXT, 0, 1000000, NULL,
     "cut only messages whose sender and receiver keep >= slack fewer unfinished messages "
     "than the busiest processor (0: cut any)"},
};

typedef struct item {
    uint32_t dst;
    uint32_t tag;       /* random tie-break */
    uint64_t left;      /* units not yet sent */
} item;

typedef struct rs_nh_state {
    const mpp_com *com;
    item *items;        /* [nnz], item e is entry e */
    uint32_t *heap;     /* [nnz] item indices, row r's heap at rowstart[r] */
    uint32_t *rowstart; /* [n + 1] */
    uint32_t *hlen;     /* [n] */
    uint32_t *colstamp; /* [n] phase + 1 when the receiver is used */
    uint32_t *aside;    /* [n] busy items popped while choosing */
    uint32_t *chosen;   /* [n] items chosen in this phase */
    uint64_t *sizes;    /* [n] their sizes, sorted for the cutoff */
    uint32_t *sendleft; /* [n] unfinished entries per sender */
    uint32_t *recvleft; /* [n] unfinished entries per receiver */
} rs_nh_state;

/* Item a comes before item b in a max-heap. */
static int above(const item *it, uint32_t a, uint32_t b)
{
    if (it[a].left != it[b].left)
        return it[a].left > it[b].left;
    if (it[a].tag != it[b].tag)
        return it[a].tag > it[b].tag;
    return a < b;
}

static void heap_push(const item *it, uint32_t *h, uint32_t *len, uint32_t x)
{
    uint32_t i = (*len)++;
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (!above(it, x, h[p]))
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = x;
}

static uint32_t heap_pop(const item *it, uint32_t *h, uint32_t *len)
{
    uint32_t top = h[0], x = h[--*len], n = *len, i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && above(it, h[c + 1], h[c]))
            c++;
        if (!above(it, h[c], x))
            break;
        h[i] = h[c];
        i = c;
    }
    if (n)
        h[i] = x;
    return top;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The cutoff of a phase whose chosen sizes are s[0 .. k), k >= 1 (sorted
 * here). */
static uint64_t phase_cutoff(const rs_nh_cfg *cfg, uint64_t *s, uint32_t k)
{
    if (cfg->cutoff == CUT_NONE)
        return UINT64_MAX;
    qsort(s, k, sizeof *s, cmp_u64);
    double base;
    switch (cfg->cutoff) {
    case CUT_MIN: base = (double)s[0]; break;
    case CUT_MEDIAN: base = (double)s[k / 2]; break;
    case CUT_MEAN: {
        double sum = 0;
        for (uint32_t i = 0; i < k; i++)
            sum += (double)s[i];
        base = ceil(sum / k);
        break;
    }
    default: base = (double)s[k - 1]; break;
    }
    double c = ceil(cfg->factor * base);
    if (c >= 18446744073709551615.0)
        return UINT64_MAX;
    return c > (double)s[0] ? (uint64_t)c : s[0];
}

/* Append a part, growing the arrays; false when out of memory. */
static bool add_part(mpp_schedule *out, uint32_t *cap, mpp_sched_msg m)
{
    if (out->nmsgs == *cap) {
        uint32_t ncap = *cap ? *cap * 2 : 256;
        mpp_sched_msg *p = realloc(out->msgs, (size_t)ncap * sizeof *p);
        if (!p)
            return false;
        out->msgs = p;
        *cap = ncap;
    }
    out->msgs[out->nmsgs++] = m;
    return true;
}

/* Record that a phase starts at out->nmsgs; false when out of memory. */
static bool add_phase(mpp_schedule *out, uint32_t *cap)
{
    if (out->nphases + 1 >= *cap) {
        uint32_t ncap = *cap ? *cap * 2 : 64;
        uint32_t *p = realloc(out->phase_start, (size_t)ncap * sizeof *p);
        if (!p)
            return false;
        out->phase_start = p;
        *cap = ncap;
    }
    out->phase_start[out->nphases++] = out->nmsgs;
    return true;
}

/* The phases, once the heaps are built. Returns 0 or MPP_ENOMEM. */
static int run_phases(rs_nh_state *st, const rs_nh_cfg *cfg, mpp_rng *rng, mpp_schedule *out,
                      mpp_err *err)
{
    const mpp_com *com = st->com;
    uint32_t n = com->n, mcap = 0, pcap = 0;
    uint64_t left = com->nnz; /* entries with units left */
    while (left) {
        uint32_t phase = out->nphases + 1, k = 0;
        if (!add_phase(out, &pcap))
            goto nomem;
        uint32_t x = mpp_rng_below(rng, n);
        for (uint32_t t = 0; t < n; t++) {
            uint32_t r = x + t < n ? x + t : x + t - n, naside = 0;
            uint32_t *h = st->heap + st->rowstart[r];
            while (st->hlen[r]) {
                uint32_t e = heap_pop(st->items, h, &st->hlen[r]);
                out->steps++;
                if (st->colstamp[st->items[e].dst] != phase) {
                    st->colstamp[st->items[e].dst] = phase;
                    st->chosen[k] = e;
                    st->sizes[k++] = st->items[e].left;
                    break;
                }
                st->aside[naside++] = e;
            }
            out->work.moves += naside;
            while (naside)
                heap_push(st->items, h, &st->hlen[r], st->aside[--naside]);
        }
        uint64_t c = phase_cutoff(cfg, st->sizes, k);
        /* the busiest processor's unfinished entries if every chosen one finishes */
        uint32_t busiest = 0;
        if (cfg->slack && c != UINT64_MAX) {
            for (uint32_t i = 0; i < k; i++) {
                st->sendleft[com->e[st->chosen[i]].src]--;
                st->recvleft[st->items[st->chosen[i]].dst]--;
            }
            for (uint32_t i = 0; i < n; i++) {
                busiest = st->sendleft[i] > busiest ? st->sendleft[i] : busiest;
                busiest = st->recvleft[i] > busiest ? st->recvleft[i] : busiest;
            }
            for (uint32_t i = 0; i < k; i++) {
                st->sendleft[com->e[st->chosen[i]].src]++;
                st->recvleft[st->items[st->chosen[i]].dst]++;
            }
        }
        for (uint32_t i = 0; i < k; i++) {
            uint32_t e = st->chosen[i];
            item *it = &st->items[e];
            uint64_t u = it->left < c ? it->left : c;
            if (u < it->left && cfg->slack) {
                uint32_t sl = st->sendleft[com->e[e].src], rl = st->recvleft[it->dst];
                if (sl + cfg->slack > busiest || rl + cfg->slack > busiest)
                    u = it->left; /* keeping it would make its ends the bottleneck */
            }
            if (!add_part(out, &mcap, (mpp_sched_msg){com->e[e].src, it->dst, u}))
                goto nomem;
            it->left -= u;
            if (it->left) {
                uint32_t r = com->e[e].src;
                out->work.moves++;
                heap_push(st->items, st->heap + st->rowstart[r], &st->hlen[r], e);
            } else {
                left--;
                st->sendleft[com->e[e].src]--;
                st->recvleft[it->dst]--;
            }
        }
    }
    if (!add_phase(out, &pcap))
        goto nomem;
    out->nphases--; /* the last start is the end mark */
    out->work.scan = (uint64_t)n * n;
    out->work.tries = out->steps;
    out->work.rows = (uint64_t)out->nphases * n;
    out->work.phases = out->nphases;
    out->work.moves += com->nnz; /* the heaps built */
    return 0;
nomem:
    return mpp_err_set(err, MPP_ENOMEM, "scheduler 'rs_nh': out of memory");
}

static int rs_nh_schedule(const mpp_com *com, const void *cfgp, uint64_t seed, mpp_schedule *out,
                          mpp_err *err)
{
    double t0 = mpp_phases_now_us();
    rs_nh_cfg defaults = {RS_NH_DEFAULT_CUTOFF, RS_NH_DEFAULT_FACTOR, RS_NH_DEFAULT_SLACK};
    const rs_nh_cfg *cfg = cfgp ? cfgp : &defaults;
    memset(out, 0, sizeof *out);
    if (cfg->cutoff < CUT_NONE || cfg->cutoff > CUT_FRACTION || !(cfg->factor > 0))
        return mpp_err_set(err, MPP_EINVAL, "scheduler 'rs_nh': bad cutoff rule %d or factor %g",
                           cfg->cutoff, cfg->factor);
    uint32_t n = com->n, nnz = com->nnz, one = nnz ? nnz : 1;
    rs_nh_state st = {
        .com = com,
        .items = malloc((size_t)one * sizeof(item)),
        .heap = malloc((size_t)one * sizeof(uint32_t)),
        .rowstart = calloc((size_t)n + 1, sizeof(uint32_t)),
        .hlen = calloc(n, sizeof(uint32_t)),
        .colstamp = calloc(n, sizeof(uint32_t)),
        .aside = malloc((size_t)n * sizeof(uint32_t)),
        .chosen = malloc((size_t)n * sizeof(uint32_t)),
        .sizes = malloc((size_t)n * sizeof(uint64_t)),
        .sendleft = calloc(n, sizeof(uint32_t)),
        .recvleft = calloc(n, sizeof(uint32_t)),
    };
    int rc = 0;
    if (!st.items || !st.heap || !st.rowstart || !st.hlen || !st.colstamp || !st.aside ||
        !st.chosen || !st.sizes || !st.sendleft || !st.recvleft) {
        rc = mpp_err_set(err, MPP_ENOMEM, "scheduler 'rs_nh': out of memory");
        goto done;
    }
    mpp_rng rng;
    mpp_rng_init(&rng, seed, MPP_RNG_SCHEDULER, 0);
    for (uint32_t e = 0; e < nnz; e++) {
        st.items[e] = (item){com->e[e].dst, (uint32_t)(mpp_rng_next(&rng) >> 32), com->e[e].units};
        st.rowstart[com->e[e].src + 1]++;
        st.sendleft[com->e[e].src]++;
        st.recvleft[com->e[e].dst]++;
    }
    for (uint32_t i = 0; i < n; i++)
        st.rowstart[i + 1] += st.rowstart[i];
    for (uint32_t e = 0; e < nnz; e++) {
        uint32_t r = com->e[e].src;
        heap_push(st.items, st.heap + st.rowstart[r], &st.hlen[r], e);
    }
    rc = run_phases(&st, cfg, &rng, out, err);
    out->host_us = mpp_phases_now_us() - t0;
done:
    if (rc)
        mpp_schedule_free(out);
    free(st.items);
    free(st.heap);
    free(st.rowstart);
    free(st.hlen);
    free(st.colstamp);
    free(st.aside);
    free(st.chosen);
    free(st.sizes);
    free(st.sendleft);
    free(st.recvleft);
    return rc;
}

const mpp_sched_ops mpp_sched_rs_nh = {
    .name = "rs_nh",
    .help = "random scheduling with per-sender max-heaps and a per-phase cutoff (non-uniform)",
    .schema = {rs_nh_params, MPP_COUNTOF(rs_nh_params), sizeof(rs_nh_cfg)},
    .schedule = rs_nh_schedule,
};
