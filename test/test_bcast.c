/* test/test_bcast.c — the s-to-p broadcast family (algorithms/bcast.h) and
 * its workload (algorithms/wl_broadcast.c).
 *
 * 1. Every algorithm (repos with both bases) on the meshes 1x1, 1x7, 7x1,
 *    4x4, 10x10, 15x16, 4x30, every distribution (R, C, DR, DL, E, cross,
 *    B_i_j where one fits, random, a list, ideal_xy, ideal_lin), s = 1, a
 *    middle s and s = p: the plan alone (no simulation) leaves every
 *    processor with all s messages, each received exactly once, its
 *    invariants hold, and what every processor sends (messages and bytes)
 *    equals an independent reference model of the algorithm. The
 *    reference is written differently from the library: recursive, depth
 *    first, on byte matrices, with snapshots of the sets at the start of a
 *    step (so a range's step reads only the state before it):
 *
 *      halving on q processors x_0 .. x_{q-1}, h = ceil(q/2), f = floor(q/2):
 *        x_i -> x_{i+h}: S(x_i) \ S(x_{i+h}),  x_{i+h} -> x_i: the converse,
 *        q odd: x_{h-1} -> x_{q-1}: S(x_{h-1}) \ S(x_{q-1}) \ S(x_{f-1})
 *        (a message only when that set is not empty, of |set| x L bytes);
 *        then halving(x_0 .. x_{h-1}) and halving(x_h .. x_{q-1})
 *      br_lin = halving(snake order); br_xy = halving(each line of the
 *      first dimension), then each line of the other; repos, part_* =
 *      one message of L per moved source, then the base algorithm(s),
 *      then (part_*) the exchange of the groups' k-th processors.
 *
 *    Closed forms checked besides:
 *      xor       a source sends p - 1 messages of L bytes, a non-source none
 *      two_step  each source other than 0 sends one message of L bytes to
 *                processor 0 in the gather, nobody else sends in it; in the
 *                broadcast every processor but 0 gets one message, of s L
 *                bytes, or (s - 1) L when it is a source (none if s = 1)
 *      repos     its broadcast part is the base algorithm's plan on the
 *                ideal distribution, message for message, but L shorter
 *                (or not sent when that was all) to a processor that moved
 *                its source away
 *      br_lin    s = p = 2^k: every processor sends k messages, (p - 1) L bytes
 *      br_xy_*   s = p, r = 2^a, c = 2^b: every processor sends a + b
 *                messages and (p - 1) L bytes
 *      every algorithm: the messages received by a processor carry
 *      s - (1 if it is a source) source messages: (s - own) L bytes.
 * 2. On their ideal distributions, the processors holding data double at
 *    every step of br_lin until all hold, and inside every line of
 *    br_xy_source's first stage that holds all the ideal line's slots —
 *    "double" allowing each odd range of the step to leave its unpaired
 *    middle processor empty (at most one fewer per odd range).
 * 3. Small runs through the engine (a 4x4 mesh, a 16-node hypercube with
 *    nic: ideal and nic: model, a 16-node CM-5), every algorithm in every
 *    paradigm somewhere, deliver exactly the plan's messages (source,
 *    destination, bytes, tag), the parts add up to bcast_ms, and twice the
 *    same run gives the same message records. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/bcast.h"
#include "algorithms/bcast_dist.h"
#include "algorithms/halving.h"
#include "algorithms/xorex.h"
#include "core/config/experiment.h"
#include "core/schema.h"
#include "test/testutil.h"

#define L_BYTES 100u

/* ---- the algorithms under test ------------------------------------------- */

typedef struct alg {
    const char *name;  /* plug-in */
    const char *base;  /* repos's base, or NULL */
    mpp_blob cfg;
    const mpp_bcast_ops *ops;
} alg;

static alg algs[] = {
    {"br_lin", NULL},  {"br_xy_source", NULL}, {"br_xy_dim", NULL},
    {"xor", NULL},     {"two_step", NULL},     {"repos", "br_xy_source"},
    {"repos", "br_lin"}, {"part_lin", NULL},   {"part_xy_source", NULL},
};
#define NALGS (sizeof algs / sizeof algs[0])

static void algs_init(void)
{
    for (size_t a = 0; a < NALGS; a++) {
        algs[a].ops = mpp_bcast_find(algs[a].name);
        CHECKF(algs[a].ops != NULL, "no plug-in %s", algs[a].name);
        if (!algs[a].ops)
            continue;
        memset(&algs[a].cfg, 0, sizeof algs[a].cfg);
        mpp_schema_defaults(&algs[a].ops->schema, algs[a].cfg.b);
        if (algs[a].base) {
            const mpp_param *row = mpp_schema_find(&algs[a].ops->schema, "base");
            CHECK(row && mpp_param_set_text(row, algs[a].base, 0, algs[a].cfg.b) == 0);
        }
    }
    /* every registered plug-in is under test */
    size_t n = 0;
    for (const mpp_bcast_ops *const *o = mpp_bcast_all(); *o; o++)
        n++;
    CHECKF(n == 8, "%zu broadcast plug-ins registered", n);
    CHECK(mpp_bcast_find("nope") == NULL);
}

/* ---- the reference model ------------------------------------------------- */

typedef struct ref {
    uint32_t r, c, p, s;
    uint8_t *h;            /* [p][s]: holds */
    uint8_t *snap;         /* [p][s]: the sets at the start of a step */
    uint64_t *msgs, *bytes; /* [p]: sent */
    uint32_t *own;         /* [p]: source index or UINT32_MAX */
    uint32_t *kept;        /* [p]: the source a processor moved away but still has */
} ref;

static uint8_t *H(ref *R, uint32_t i) { return R->h + (size_t)i * R->s; }
static uint8_t *SN(ref *R, uint32_t i) { return R->snap + (size_t)i * R->s; }

static void ref_init(ref *R, uint32_t r, uint32_t c, const uint32_t *src, uint32_t s)
{
    R->r = r;
    R->c = c;
    R->p = r * c;
    R->s = s;
    R->h = calloc((size_t)R->p * s, 1);
    R->snap = calloc((size_t)R->p * s, 1);
    R->msgs = calloc(R->p, sizeof *R->msgs);
    R->bytes = calloc(R->p, sizeof *R->bytes);
    R->own = malloc(R->p * sizeof *R->own);
    R->kept = malloc(R->p * sizeof *R->kept);
    for (uint32_t i = 0; i < R->p; i++)
        R->own[i] = R->kept[i] = UINT32_MAX;
    for (uint32_t j = 0; j < s; j++) {
        H(R, src[j])[j] = 1;
        R->own[src[j]] = j;
    }
}

static void ref_free(ref *R)
{
    free(R->h);
    free(R->snap);
    free(R->msgs);
    free(R->bytes);
    free(R->own);
    free(R->kept);
}

/* a sends b the sources in snap(a) that are in neither snap(b) nor (when
 * not NONE) snap(also): applied to h(b); counted without the source b
 * moved away and still has. */
static void ref_send(ref *R, uint32_t a, uint32_t b, uint32_t also)
{
    uint32_t n = 0;
    for (uint32_t j = 0; j < R->s; j++)
        if (SN(R, a)[j] && !SN(R, b)[j] && (also == UINT32_MAX || !SN(R, also)[j])) {
            n += R->kept[b] != j;
            H(R, b)[j] = 1;
        }
    if (n) {
        R->msgs[a]++;
        R->bytes[a] += (uint64_t)n * L_BYTES;
    }
}

static void ref_halving(ref *R, const uint32_t *x, uint32_t q)
{
    if (q < 2)
        return;
    uint32_t h = (q + 1) / 2, f = q / 2;
    for (uint32_t i = 0; i < q; i++)
        memcpy(SN(R, x[i]), H(R, x[i]), R->s);
    for (uint32_t i = 0; i < f; i++) {
        ref_send(R, x[i], x[i + h], UINT32_MAX);
        ref_send(R, x[i + h], x[i], UINT32_MAX);
    }
    if (q % 2)
        ref_send(R, x[h - 1], x[q - 1], x[f - 1]);
    ref_halving(R, x, h);
    ref_halving(R, x + h, f);
}

/* A sub-mesh: rows x0 .., columns y0 .. */
typedef struct sub {
    uint32_t x0, y0, r, c;
} sub;

static uint32_t gid(const ref *R, const sub *g, uint32_t x, uint32_t y)
{
    return (g->x0 + x) * R->c + g->y0 + y;
}

static void ref_lin(ref *R, const sub *g)
{
    uint32_t *x = malloc((size_t)g->r * g->c * sizeof *x), n = 0;
    for (uint32_t a = 0; a < g->r; a++)
        for (uint32_t b = 0; b < g->c; b++)
            x[n++] = gid(R, g, a, a % 2 ? g->c - 1 - b : b);
    ref_halving(R, x, n);
    free(x);
}

static void ref_xy(ref *R, const sub *g, bool rows_first)
{
    uint32_t *x = malloc((g->r > g->c ? g->r : g->c) * sizeof *x);
    for (int stage = 0; stage < 2; stage++) {
        bool rows = rows_first == (stage == 0);
        for (uint32_t a = 0; a < (rows ? g->r : g->c); a++) {
            uint32_t n = 0;
            for (uint32_t b = 0; b < (rows ? g->c : g->r); b++)
                x[n++] = rows ? gid(R, g, a, b) : gid(R, g, b, a);
            ref_halving(R, x, n);
        }
    }
    free(x);
}

/* br_xy_source's choice: max sources per row < max per column. */
static bool ref_rows_first(const ref *R, const sub *g, const uint32_t *src, uint32_t n)
{
    uint32_t mr = 0, mc = 0;
    for (uint32_t a = 0; a < g->r; a++) {
        uint32_t k = 0;
        for (uint32_t t = 0; t < n; t++)
            for (uint32_t b = 0; b < g->c; b++)
                k += src[t] == gid(R, g, a, b);
        mr = k > mr ? k : mr;
    }
    for (uint32_t b = 0; b < g->c; b++) {
        uint32_t k = 0;
        for (uint32_t t = 0; t < n; t++)
            for (uint32_t a = 0; a < g->r; a++)
                k += src[t] == gid(R, g, a, b);
        mc = k > mc ? k : mc;
    }
    return mr < mc;
}

/* a moves its own message to b: one message of L; a keeps its copy but no
 * longer holds it for the algorithm. */
static void ref_move(ref *R, uint32_t a, uint32_t b)
{
    uint32_t j = R->own[a];
    H(R, b)[j] = 1;
    H(R, a)[j] = 0;
    R->kept[a] = j;
    R->msgs[a]++;
    R->bytes[a] += L_BYTES;
}

/* The moves onto ideal[] of the sources have[] (n each, increasing): sources
 * at an ideal position stay; the others in increasing order to the free
 * positions in increasing order. */
static void ref_moves(ref *R, const uint32_t *have, const uint32_t *ideal, uint32_t n)
{
    uint8_t *is_ideal = calloc(R->p, 1), *is_have = calloc(R->p, 1);
    for (uint32_t k = 0; k < n; k++) {
        is_ideal[ideal[k]] = 1;
        is_have[have[k]] = 1;
    }
    uint32_t t = 0;
    for (uint32_t k = 0; k < n; k++) {
        if (is_ideal[have[k]])
            continue;
        while (is_have[ideal[t]])
            t++;
        ref_move(R, have[k], ideal[t++]);
    }
    free(is_ideal);
    free(is_have);
}

/* The ideal distribution of n sources on sub-mesh g, as ids of R. */
static void ref_ideal(const ref *R, const sub *g, int kind, uint32_t n, uint32_t *out)
{
    mpp_err err;
    if (n == 0)
        return;
    CHECKF(mpp_dist_ideal(kind, g->r, g->c, n, out, &err) == 0, "%s", err.msg);
    for (uint32_t k = 0; k < n; k++)
        out[k] = gid(R, g, out[k] / g->c, out[k] % g->c);
}

static bool in_sub(const ref *R, const sub *g, uint32_t id)
{
    uint32_t x = id / R->c, y = id % R->c;
    return x >= g->x0 && x < g->x0 + g->r && y >= g->y0 && y < g->y0 + g->c;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void ref_part(ref *R, const uint32_t *src, bool xy)
{
    if (R->p == 1)
        return;
    sub g[2];
    if (R->r >= R->c) {
        uint32_t h = (R->r + 1) / 2;
        g[0] = (sub){0, 0, h, R->c};
        g[1] = (sub){h, 0, R->r - h, R->c};
    } else {
        uint32_t h = (R->c + 1) / 2;
        g[0] = (sub){0, 0, R->r, h};
        g[1] = (sub){0, h, R->r, R->c - h};
    }
    uint32_t p1 = g[0].r * g[0].c, p2 = g[1].r * g[1].c;
    uint32_t s1 = (uint32_t)floor((double)R->s * p1 / R->p + 0.5), s2 = R->s - s1;
    uint32_t sg[2] = {s1, s2};
    int kind = xy ? MPP_DIST_IDEAL_XY : MPP_DIST_IDEAL_LIN;
    uint32_t *ideal[2], *have[2], nh[2] = {0, 0};
    uint8_t *leave = calloc(R->p, 1);
    for (int k = 0; k < 2; k++) {
        ideal[k] = malloc((sg[k] + 1) * sizeof *ideal[k]);
        have[k] = malloc((R->s + 1) * sizeof *have[k]);
        ref_ideal(R, &g[k], kind, sg[k], ideal[k]);
    }
    /* the group with more sources than its share sends the excess over:
     * non-ideal ones first, then ideal ones, increasing ids */
    for (int k = 0; k < 2; k++) {
        uint32_t in = 0;
        for (uint32_t j = 0; j < R->s; j++)
            in += in_sub(R, &g[k], src[j]);
        uint32_t excess = in > sg[k] ? in - sg[k] : 0;
        for (int pass = 0; pass < 2; pass++)
            for (uint32_t j = 0; j < R->s && excess; j++) {
                bool at_ideal = bsearch(&src[j], ideal[k], sg[k], sizeof(uint32_t), cmp_u32);
                if (in_sub(R, &g[k], src[j]) && at_ideal == (pass == 1) && !leave[src[j]]) {
                    leave[src[j]] = 1;
                    excess--;
                }
            }
    }
    for (uint32_t j = 0; j < R->s; j++) {
        int k = in_sub(R, &g[0], src[j]) ? 0 : 1;
        if (leave[src[j]])
            k = 1 - k;
        have[k][nh[k]++] = src[j];
    }
    CHECK(nh[0] == s1 && nh[1] == s2);
    for (uint32_t i = 0; i < R->p; i++)
        memcpy(SN(R, i), H(R, i), R->s);
    for (int k = 0; k < 2; k++)
        ref_moves(R, have[k], ideal[k], sg[k]);
    for (int k = 0; k < 2; k++) {
        if (xy)
            ref_xy(R, &g[k], ref_rows_first(R, &g[k], ideal[k], sg[k]));
        else
            ref_lin(R, &g[k]);
    }
    for (uint32_t i = 0; i < R->p; i++)
        memcpy(SN(R, i), H(R, i), R->s);
    for (uint32_t k = 0; k < p1; k++) {
        uint32_t u = gid(R, &g[0], k / g[0].c, k % g[0].c);
        uint32_t kk = k < p2 ? k : k - p2;
        uint32_t v = gid(R, &g[1], kk / g[1].c, kk % g[1].c);
        if (k < p2)
            ref_send(R, u, v, UINT32_MAX);
        ref_send(R, v, u, UINT32_MAX);
    }
    for (int k = 0; k < 2; k++) {
        free(ideal[k]);
        free(have[k]);
    }
    free(leave);
}

/* The reference run of algorithm a. */
static void ref_run(ref *R, const alg *a, const uint32_t *src)
{
    sub whole = {0, 0, R->r, R->c};
    const char *n = a->name;
    if (!strcmp(n, "br_lin")) {
        ref_lin(R, &whole);
    } else if (!strcmp(n, "br_xy_source")) {
        ref_xy(R, &whole, ref_rows_first(R, &whole, src, R->s));
    } else if (!strcmp(n, "br_xy_dim")) {
        ref_xy(R, &whole, R->r >= R->c);
    } else if (!strcmp(n, "xor")) {
        for (uint32_t j = 0; j < R->s; j++) {
            R->msgs[src[j]] = R->p - 1;
            R->bytes[src[j]] = (uint64_t)(R->p - 1) * L_BYTES;
        }
    } else if (!strcmp(n, "two_step")) {
        for (uint32_t j = 0; j < R->s; j++)
            if (src[j])
                ref_move(R, src[j], 0);
        ref_lin(R, &whole);
    } else if (!strcmp(n, "repos")) {
        bool lin = !strcmp(a->base, "br_lin");
        uint32_t *ideal = malloc(R->s * sizeof *ideal);
        ref_ideal(R, &whole, lin ? MPP_DIST_IDEAL_LIN : MPP_DIST_IDEAL_XY, R->s, ideal);
        ref_moves(R, src, ideal, R->s);
        if (lin)
            ref_lin(R, &whole);
        else
            ref_xy(R, &whole, ref_rows_first(R, &whole, ideal, R->s));
        free(ideal);
    } else {
        ref_part(R, src, !strcmp(n, "part_xy_source"));
    }
}

/* ---- 1. the matrix --------------------------------------------------------- */

static bool pow2(uint32_t x) { return x && !(x & (x - 1)); }
static uint32_t lg(uint32_t x)
{
    uint32_t k = 0;
    while ((1u << k) < x)
        k++;
    return k;
}

static uint64_t plans_built, plan_msgs;

typedef struct msg5 {
    uint32_t step, from, to;
    uint64_t bytes;
} msg5;

static int cmp_msg5(const void *x, const void *y)
{
    const msg5 *a = x, *b = y;
    if (a->step != b->step)
        return a->step < b->step ? -1 : 1;
    if (a->from != b->from)
        return a->from < b->from ? -1 : 1;
    return a->to < b->to ? -1 : a->to > b->to;
}

/* The log's messages of `part`, steps counted from step `first`, sorted. */
static msg5 *part_msgs(const mpp_bcast_plan *pl, int part, uint32_t first, uint64_t *n)
{
    msg5 *m = malloc((pl->nlog + 1) * sizeof *m);
    *n = 0;
    for (uint64_t k = 0; k < pl->nlog; k++)
        if (mpp_bcast_tag_part(pl->log[k].tag) == part)
            m[(*n)++] = (msg5){(pl->log[k].tag & MPP_BCAST_TAG_STEP) - first, pl->log[k].from,
                               pl->log[k].to, pl->log[k].bytes};
    qsort(m, *n, sizeof *m, cmp_msg5);
    return m;
}

/* repos's broadcast part is its base algorithm run on the ideal
 * distribution, message for message, except that a message to a processor
 * that moved its source away is L shorter (not sent when that was all). */
static void check_repos_base(const alg *a, const mpp_bcast_plan *rp, const char *what)
{
    bool lin = !strcmp(a->base, "br_lin");
    uint32_t *ideal = malloc(rp->s * sizeof *ideal);
    mpp_err err;
    mpp_bcast_plan bp;
    CHECK(mpp_dist_ideal(lin ? MPP_DIST_IDEAL_LIN : MPP_DIST_IDEAL_XY, rp->r, rp->c, rp->s,
                         ideal, &err) == 0);
    if (mpp_bcast_plan_init(&bp, rp->r, rp->c, ideal, rp->s, L_BYTES, 0, MPP_BCAST_LOG, &err)) {
        free(ideal);
        return;
    }
    CHECK(mpp_bcast_find(a->base)->build(&bp, NULL, &err) == 0);
    uint64_t nr, nb;
    /* repos: one redistribution step (step 0), then the base's steps */
    msg5 *mr = part_msgs(rp, MPP_BCAST_BCAST, 1, &nr);
    msg5 *mb = part_msgs(&bp, MPP_BCAST_BCAST, 0, &nb);
    uint64_t i = 0, bad = 0;
    uint64_t *less = calloc(rp->p, sizeof *less); /* bytes a processor gets less */
    for (uint64_t k = 0; k < nb; k++) {
        uint32_t to = mb[k].to;
        if (i < nr && cmp_msg5(&mr[i], &mb[k]) == 0) {
            less[to] += mb[k].bytes - mr[i].bytes;
            bad += mr[i].bytes != mb[k].bytes && mr[i].bytes + L_BYTES != mb[k].bytes;
            i++;
        } else {
            less[to] += mb[k].bytes;
        }
    }
    /* exactly the kept source's L, to the processors that moved theirs */
    for (uint32_t t = 0; t < rp->p; t++)
        bad += less[t] != (rp->proc[t].kept != UINT32_MAX ? L_BYTES : 0);
    free(less);
    CHECKF(bad == 0 && i == nr, "%s: the broadcast part is not the base algorithm's (%llu "
           "differences, %llu of %llu matched)", what, (unsigned long long)bad,
           (unsigned long long)i, (unsigned long long)nr);
    free(mr);
    free(mb);
    free(ideal);
    mpp_bcast_plan_free(&bp);
}

/* One algorithm on one placement: plan, check, compare. */
static void check_one(const alg *a, uint32_t r, uint32_t c, const uint32_t *src, uint32_t s,
                      const char *dname)
{
    mpp_err err;
    mpp_bcast_plan pl;
    int rc = mpp_bcast_plan_init(&pl, r, c, src, s, L_BYTES, MPP_PARADIGM_SYNC,
                                 MPP_BCAST_COUNT | MPP_BCAST_LOG, &err);
    CHECKF(rc == 0, "%s", err.msg);
    if (rc)
        return;
    char what[160];
    snprintf(what, sizeof what, "%s%s%s on %ux%u, %s, s = %u", a->name, a->base ? " base " : "",
             a->base ? a->base : "", r, c, dname, s);
    rc = a->ops->build(&pl, a->cfg.b, &err);
    CHECKF(rc == 0, "%s: %s", what, err.msg);
    if (!rc) {
        CHECKF(mpp_bcast_plan_check(&pl, &err) == 0, "%s: %s", what, err.msg);
        CHECKF(mpp_bcast_plan_complete(&pl, &err) == 0, "%s: %s", what, err.msg);
    }
    ref R;
    ref_init(&R, r, c, src, s);
    ref_run(&R, a, src);
    uint32_t p = r * c, bad = 0;
    for (uint32_t i = 0; i < p && !rc; i++) {
        if (pl.proc[i].msgs_sent != R.msgs[i] || pl.proc[i].bytes_sent != R.bytes[i]) {
            if (!bad++)
                CHECKF(0, "%s: processor %u sends %llu messages, %llu bytes; reference %llu, %llu",
                       what, i, (unsigned long long)pl.proc[i].msgs_sent,
                       (unsigned long long)pl.proc[i].bytes_sent, (unsigned long long)R.msgs[i],
                       (unsigned long long)R.bytes[i]);
        }
        /* what i receives is what it lacked: s - own source messages */
        uint64_t want = (uint64_t)(s - (pl.proc[i].own != UINT32_MAX)) * L_BYTES;
        if (pl.proc[i].bytes_recv != want && !bad++)
            CHECKF(0, "%s: processor %u receives %llu bytes, not %llu", what, i,
                   (unsigned long long)pl.proc[i].bytes_recv, (unsigned long long)want);
    }
    /* the closed forms */
    bool is = !strcmp(a->name, "xor"), ts = !strcmp(a->name, "two_step");
    for (uint32_t i = 0; i < p && !rc && is; i++) {
        bool source = pl.proc[i].own != UINT32_MAX;
        if (pl.proc[i].msgs_sent != (source ? p - 1 : 0) ||
            pl.proc[i].bytes_sent != (source ? (uint64_t)(p - 1) * L_BYTES : 0))
            if (!bad++)
                CHECKF(0, "%s: processor %u sends %llu messages", what, i,
                       (unsigned long long)pl.proc[i].msgs_sent);
    }
    if (ts && !rc) {
        uint32_t gathered = 0;
        for (uint64_t k = 0; k < pl.nlog; k++) {
            const mpp_bcast_xfer *t = &pl.log[k];
            if (mpp_bcast_tag_part(t->tag) != MPP_BCAST_REDIST)
                continue;
            gathered++;
            CHECKF(t->to == 0 && pl.proc[t->from].own != UINT32_MAX && t->from != 0 &&
                       t->bytes == L_BYTES,
                   "%s: gather message %u -> %u of %llu bytes", what, t->from, t->to,
                   (unsigned long long)t->bytes);
        }
        CHECKF(gathered == s - (pl.proc[0].own != UINT32_MAX), "%s: %u gathered", what, gathered);
    }
    if (ts && !rc) {
        /* the broadcast from 0 alone: one message to every other processor,
         * s L bytes, (s - 1) L to a source (none when that is all) */
        uint32_t *got = calloc(p, sizeof *got);
        for (uint64_t k = 0; k < pl.nlog; k++) {
            const mpp_bcast_xfer *t = &pl.log[k];
            if (mpp_bcast_tag_part(t->tag) != MPP_BCAST_BCAST)
                continue;
            got[t->to]++;
            uint64_t want = (uint64_t)(s - (pl.proc[t->to].own != UINT32_MAX)) * L_BYTES;
            CHECKF(t->bytes == want, "%s: broadcast message %u -> %u of %llu bytes, not %llu",
                   what, t->from, t->to, (unsigned long long)t->bytes, (unsigned long long)want);
        }
        for (uint32_t i = 1; i < p; i++) {
            uint32_t want = pl.proc[i].own != UINT32_MAX && s == 1 ? 0 : 1;
            CHECKF(got[i] == want, "%s: processor %u gets %u broadcast messages", what, i,
                   got[i]);
        }
        free(got);
    }
    if (!strcmp(a->name, "repos") && !rc)
        check_repos_base(a, &pl, what);
    if (s == p && pow2(p) && !rc) {
        bool lin = !strcmp(a->name, "br_lin");
        bool xy = !strcmp(a->name, "br_xy_source") || !strcmp(a->name, "br_xy_dim");
        uint32_t k = lin ? lg(p) : lg(r) + lg(c);
        uint64_t bytes = (uint64_t)(p - 1) * L_BYTES;
        for (uint32_t i = 0; i < p && (lin || xy); i++)
            if ((pl.proc[i].msgs_sent != k || pl.proc[i].bytes_sent != bytes) && !bad++)
                CHECKF(0, "%s: processor %u sends %llu messages, %llu bytes (closed form %u, %llu)",
                       what, i, (unsigned long long)pl.proc[i].msgs_sent,
                       (unsigned long long)pl.proc[i].bytes_sent, k,
                       (unsigned long long)(p - 1) * L_BYTES);
    }
    plans_built++;
    plan_msgs += pl.nmsgs;
    ref_free(&R);
    mpp_bcast_plan_free(&pl);
}

static void test_matrix(void)
{
    static const uint32_t meshes[][2] = {{1, 1},   {1, 7},   {7, 1},  {4, 4}, {10, 10},
                                         {15, 16}, {4, 30},  {8, 8},  {2, 16}, {1, 32}};
    static const char *const dists[] = {"R",      "C",    "DR",       "DL",       "E",
                                        "cross",  "random", "ideal_xy", "ideal_lin", "list",
                                        "B"};
    uint32_t *src = malloc(1024 * sizeof *src);
    char *text = malloc(16384);
    for (size_t m = 0; m < sizeof meshes / sizeof meshes[0]; m++) {
        uint32_t r = meshes[m][0], c = meshes[m][1], p = r * c;
        uint32_t svals[3] = {1, p / 3 + 1, p};
        for (int si = 0; si < 3; si++) {
            uint32_t s = svals[si];
            if (si && s == svals[si - 1])
                continue;
            for (size_t d = 0; d < sizeof dists / sizeof dists[0]; d++) {
                if (!strcmp(dists[d], "list")) {
                    size_t n = (size_t)snprintf(text, 16384, "list:");
                    for (uint32_t k = 0; k < s; k++)
                        n += (size_t)snprintf(text + n, 16384 - n, "%s%u", k ? "," : "",
                                              p - 1 - k);
                } else if (!strcmp(dists[d], "B")) {
                    /* a block i x j = s that fits, if any */
                    uint32_t bi = 0;
                    for (uint32_t i = 1; i <= r && !bi; i++)
                        if (s % i == 0 && s / i <= c)
                            bi = i;
                    if (!bi)
                        continue;
                    snprintf(text, 16384, "B_%u_%u", bi, s / bi);
                } else {
                    snprintf(text, 16384, "%s", dists[d]);
                }
                mpp_dist dist;
                mpp_err err;
                int rc = mpp_dist_parse(text, &dist, &err);
                CHECKF(rc == 0, "%s", err.msg);
                if (rc)
                    continue;
                rc = mpp_dist_place(&dist, r, c, s, 7, src, &err);
                mpp_dist_free(&dist);
                CHECKF(rc == 0, "%s on %ux%u, s = %u: %s", text, r, c, s, err.msg);
                if (rc)
                    continue;
                const char *shown = strncmp(text, "list:", 5) ? text : "list";
                for (size_t a = 0; a < NALGS; a++)
                    if (algs[a].ops)
                        check_one(&algs[a], r, c, src, s, shown);
            }
        }
    }
    free(src);
    free(text);
    printf("matrix: %llu plans, %llu messages, all complete and matching the reference\n",
           (unsigned long long)plans_built, (unsigned long long)plan_msgs);
}

/* ---- 2. doubling on the ideal distributions ------------------------------- */

/* Ranges of odd length among the halving's ranges at depth t of a line of
 * q (each may leave its unpaired middle processor without data). */
static uint32_t odd_ranges(uint32_t q, uint32_t t)
{
    if (q < 2)
        return 0;
    if (t == 0)
        return q % 2;
    return odd_ranges((q + 1) / 2, t - 1) + odd_ranges(q / 2, t - 1);
}

/* The least number of holders after step t of the halving on a line of q
 * from h holders before it: twice as many, but an odd range may leave its
 * unpaired middle empty, and never more than the line. */
static uint32_t doubled(uint32_t q, uint32_t t, uint32_t h)
{
    uint32_t m = odd_ranges(q, t);
    uint64_t two = 2 * (uint64_t)h > m ? 2 * (uint64_t)h - m : 0;
    return two < q - m ? (uint32_t)two : q - m > h ? q - m : h;
}

typedef struct watch {
    uint32_t holders[64]; /* processors holding data after each step (index 0: before) */
    uint32_t nsteps;
    const uint32_t *line; /* when set: count only the processors of this line */
    uint32_t nline;
} watch;

static uint32_t count_holders(const mpp_bcast_plan *pl, const watch *w)
{
    uint32_t n = 0, m = w->line ? w->nline : pl->p;
    for (uint32_t k = 0; k < m; k++)
        n += mpp_bcast_count(pl, w->line ? w->line[k] : k) > 0;
    return n;
}

static void on_step(void *ud, const mpp_bcast_plan *pl, uint32_t tag)
{
    watch *w = ud;
    (void)tag;
    if (w->nsteps < 63)
        w->holders[++w->nsteps] = count_holders(pl, w);
}

static void test_doubling(void)
{
    static const uint32_t meshes[][2] = {{1, 7}, {7, 1}, {4, 4}, {10, 10}, {15, 16}, {4, 30}};
    uint32_t checked = 0;
    for (size_t m = 0; m < sizeof meshes / sizeof meshes[0]; m++) {
        uint32_t r = meshes[m][0], c = meshes[m][1], p = r * c;
        for (uint32_t s = 1; s <= p; s++) {
            uint32_t src[480];
            mpp_err err;
            /* br_lin on ideal_lin: the whole array */
            CHECKF(mpp_dist_ideal(MPP_DIST_IDEAL_LIN, r, c, s, src, &err) == 0, "%s", err.msg);
            mpp_bcast_plan pl;
            watch w = {.nsteps = 0};
            if (mpp_bcast_plan_init(&pl, r, c, src, s, L_BYTES, 0, 0, &err) == 0) {
                pl.on_step = on_step;
                pl.on_step_ud = &w;
                w.holders[0] = count_holders(&pl, &w);
                CHECK(mpp_bcast_find("br_lin")->build(&pl, NULL, &err) == 0);
                for (uint32_t t = 1; t <= w.nsteps; t++) {
                    uint32_t want = doubled(p, t - 1, w.holders[t - 1]);
                    CHECKF(w.holders[t] >= want,
                           "br_lin, ideal_lin on %ux%u, s = %u: step %u has %u holders, "
                           "fewer than %u",
                           r, c, s, t, w.holders[t], want);
                }
                CHECK(w.holders[w.nsteps] == p);
                checked++;
                mpp_bcast_plan_free(&pl);
            }
            /* br_xy_source on ideal_xy: every line of its first stage */
            CHECKF(mpp_dist_ideal(MPP_DIST_IDEAL_XY, r, c, s, src, &err) == 0, "%s", err.msg);
            if (mpp_bcast_plan_init(&pl, r, c, src, s, L_BYTES, 0, 0, &err))
                continue;
            uint32_t mr = 0, mc = 0;
            for (uint32_t x = 0; x < r; x++) {
                uint32_t k = 0;
                for (uint32_t j = 0; j < s; j++)
                    k += src[j] / c == x;
                mr = k > mr ? k : mr;
            }
            for (uint32_t y = 0; y < c; y++) {
                uint32_t k = 0;
                for (uint32_t j = 0; j < s; j++)
                    k += src[j] % c == y;
                mc = k > mc ? k : mc;
            }
            bool rows = mr < mc;
            uint32_t nlines = rows ? r : c, q = rows ? c : r, full = rows ? mr : mc;
            for (uint32_t ln = 0; ln < nlines; ln++) {
                uint32_t line[480];
                for (uint32_t k = 0; k < q; k++)
                    line[k] = rows ? ln * c + k : k * c + ln;
                mpp_bcast_plan one;
                if (mpp_bcast_plan_init(&one, r, c, src, s, L_BYTES, 0, 0, &err))
                    continue;
                watch lw = {.line = line, .nline = q};
                one.on_step = on_step;
                one.on_step_ud = &lw;
                lw.holders[0] = count_holders(&one, &lw);
                /* only lines with all the ideal line's slots: a line holding a
                 * subset of them (ideal_xy spreads a row's sources evenly, so
                 * a column may miss some rows) need not double */
                if (lw.holders[0] != full) {
                    mpp_bcast_plan_free(&one);
                    continue;
                }
                uint32_t start[2] = {0, q};
                CHECK(mpp_halving_bcast(&one, line, start, 1, MPP_BCAST_BCAST, &err) == 0);
                for (uint32_t t = 1; t <= lw.nsteps && lw.holders[0]; t++) {
                    uint32_t want = doubled(q, t - 1, lw.holders[t - 1]);
                    CHECKF(lw.holders[t] >= want,
                           "br_xy_source, ideal_xy on %ux%u, s = %u, %s %u: step %u has %u "
                           "holders, fewer than %u",
                           r, c, s, rows ? "row" : "column", ln, t, lw.holders[t], want);
                }
                mpp_bcast_plan_free(&one);
            }
            checked++;
            mpp_bcast_plan_free(&pl);
        }
    }
    printf("doubling: %u ideal placements, holders double at every step\n", checked);
}

/* ---- small units ---------------------------------------------------------- */

static void test_units(void)
{
    CHECK(mpp_halving_steps(0) == 0 && mpp_halving_steps(1) == 0 && mpp_halving_steps(2) == 1);
    CHECK(mpp_halving_steps(7) == 3 && mpp_halving_steps(8) == 3 && mpp_halving_steps(9) == 4);
    CHECK(mpp_xorex_perms(1) == 0 && mpp_xorex_perms(2) == 1 && mpp_xorex_perms(7) == 7);
    CHECK(mpp_xorex_perms(8) == 7 && mpp_xorex_perms(9) == 15);
    mpp_err err;
    mpp_bcast_plan pl;
    uint32_t src[3] = {0, 5, 5};
    /* refused before allocating: p x s too large, s = 0, s > p, bad ids */
    CHECK(mpp_bcast_plan_init(&pl, 4096, 4096, src, 17, 1, 0, 0, &err) == MPP_EINVAL);
    CHECK(strstr(err.msg, "2^28") != NULL);
    CHECK(mpp_bcast_plan_init(&pl, 2, 2, src, 0, 1, 0, 0, &err) == MPP_EINVAL);
    CHECK(mpp_bcast_plan_init(&pl, 1, 2, src, 3, 1, 0, 0, &err) == MPP_EINVAL);
    CHECK(mpp_bcast_plan_init(&pl, 2, 2, src + 1, 2, 1, 0, 0, &err) == MPP_EINVAL);
    /* the programs of a tiny br_lin: 1x3, sources 0 and 1 */
    uint32_t two[2] = {0, 1};
    CHECK(mpp_bcast_plan_init(&pl, 1, 3, two, 2, 10, MPP_PARADIGM_SYNC, MPP_BCAST_PROGRAMS,
                              &err) == 0);
    CHECK(mpp_bcast_find("br_lin")->build(&pl, NULL, &err) == 0);
    /* step 1 (q = 3, h = 2): 0 <-> 2 (0 sends), and the unpaired 1 sends 2
     * what 0 does not: 2 receives twice (IRECV, IRECV, WAIT). Step 2: 0 <->
     * 1, an exchange (IRECV, SEND, WAIT each). */
    static const mpp_program none[3];
    const mpp_program *pg = pl.pb.prog ? pl.pb.prog : none;
    CHECKF(pg[2].len == 3 && pg[2].ops[0].code == MPP_OP_IRECV && pg[2].ops[0].peer == 0 &&
               pg[2].ops[1].code == MPP_OP_IRECV && pg[2].ops[1].peer == 1 &&
               pg[2].ops[2].code == MPP_OP_WAIT,
           "processor 2 has %u operations", pg[2].len);
    CHECKF(pg[0].len == 4 && pg[0].ops[0].code == MPP_OP_SEND && pg[0].ops[0].bytes == 10 &&
               pg[0].ops[1].code == MPP_OP_IRECV && pg[0].ops[2].code == MPP_OP_SEND &&
               pg[0].ops[3].code == MPP_OP_WAIT,
           "processor 0 has %u operations", pg[0].len);
    CHECK(pg[0].len == 4 && pg[0].ops[0].tag != pg[0].ops[2].tag &&
          mpp_bcast_tag_part(pg[0].ops[0].tag) == MPP_BCAST_BCAST);
    CHECK(pg[1].len == 4 && pg[1].ops[0].code == MPP_OP_SEND && pg[1].ops[0].peer == 2);
    CHECK(mpp_bcast_plan_complete(&pl, &err) == 0);
    mpp_bcast_plan_free(&pl);
    mpp_bcast_plan_free(NULL);
}

/* ---- 3. through the engine ------------------------------------------------ */

typedef struct key4 {
    uint32_t src, dst, tag;
    uint64_t bytes;
} key4;

static int cmp_key(const void *a, const void *b)
{
    const key4 *x = a, *y = b;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    if (x->dst != y->dst)
        return x->dst < y->dst ? -1 : 1;
    if (x->tag != y->tag)
        return x->tag < y->tag ? -1 : 1;
    return x->bytes < y->bytes ? -1 : x->bytes > y->bytes;
}


static void test_engine(void)
{
    static const struct {
        const char *machine;
        uint32_t r, c;
    } machines[] = {
        {"machine: paragon\nnetwork: {mesh: {rows: 4, cols: 4}}\n", 4, 4},
        {"machine: hypercube\nnetwork: {hypercube: {dim: 4}}\n", 1, 16},
        {"machine: hypercube\nnetwork: {hypercube: {dim: 4}, nic: model}\n", 1, 16},
        {"machine: cm5\nnetwork: {cm5-fattree: {nodes: 16}}\n", 1, 16},
    };
    static const char *const dists[] = {"random", "DL", "cross"};
    uint32_t runs = 0;
    for (size_t m = 0; m < sizeof machines / sizeof machines[0]; m++)
        for (size_t a = 0; a < NALGS; a++) {
            const alg *A = &algs[a];
            if (!A->ops)
                continue;
            const char *dist = dists[a % 3];
            uint32_t s = 3 + (uint32_t)a;
            char text[512];
            snprintf(text, sizeof text,
                     "mppnet: 1\n%sworkload: {type: broadcast, algorithm: %s, dist: %s, s: %u, "
                     "bytes: 200, paradigm: %s%s%s%s}\n",
                     machines[m].machine, A->name, dist, s, mpp_paradigm_names[(a + m) % 4],
                     A->base ? ", repos: {base: " : "", A->base ? A->base : "",
                     A->base ? "}" : "");
            /* the plan the workload builds */
            uint32_t src[16];
            mpp_err err;
            mpp_dist d;
            CHECK(mpp_dist_parse(dist, &d, &err) == 0);
            CHECK(mpp_dist_place(&d, machines[m].r, machines[m].c, s, 1, src, &err) == 0);
            mpp_dist_free(&d);
            mpp_bcast_plan pl;
            if (mpp_bcast_plan_init(&pl, machines[m].r, machines[m].c, src, s, 200, 0,
                                    MPP_BCAST_LOG, &err))
                continue;
            CHECK(A->ops->build(&pl, A->cfg.b, &err) == 0);
            mpp_sim *x = test_run_text(text, 0, NULL), *y = test_run_text(text, 0, NULL);
            if (x && y) {
                size_t n = mpp_sim_message_count(x);
                CHECKF(n == pl.nlog && n == mpp_sim_message_count(y),
                       "%s on %s: %zu messages delivered, %llu planned", A->name,
                       machines[m].machine, n, (unsigned long long)pl.nlog);
                key4 *got = malloc((n + 1) * sizeof *got), *want = malloc((n + 1) * sizeof *want);
                size_t same = 0;
                for (size_t i = 0; i < n && i < pl.nlog; i++) {
                    mpp_message_record u, v;
                    mpp_sim_message_get(x, i, &u);
                    mpp_sim_message_get(y, i, &v);
                    same += u.src == v.src && u.dst == v.dst && u.tag == v.tag &&
                            u.issue == v.issue && u.delivered == v.delivered &&
                            u.first_inject == v.first_inject;
                    got[i] = (key4){u.src, u.dst, u.tag, u.bytes};
                    want[i] = (key4){pl.log[i].from, pl.log[i].to, pl.log[i].tag,
                                     pl.log[i].bytes};
                }
                CHECKF(same == n, "%s: the second run differs", A->name);
                if (n == pl.nlog) {
                    qsort(got, n, sizeof *got, cmp_key);
                    qsort(want, n, sizeof *want, cmp_key);
                    size_t eq = 0;
                    for (size_t i = 0; i < n; i++)
                        eq += cmp_key(&got[i], &want[i]) == 0;
                    CHECKF(eq == n,
                           "%s on %s: the messages delivered are not the plan's", A->name,
                           machines[m].machine);
                }
                const mpp_sim_result *res = mpp_sim_result_get(x);
                double sum = 0;
                for (int k = 1; k <= 3; k++)
                    sum += isnan(res->extra[k].d) ? 0 : res->extra[k].d;
                CHECKF(res->extra[0].d > 0 && fabs(sum - res->extra[0].d) < 1e-9,
                       "%s: parts add up to %g, bcast_ms %g", A->name, sum, res->extra[0].d);
                CHECK(res->messages == pl.nmsgs);
                free(got);
                free(want);
                runs++;
            }
            mpp_sim_destroy(x);
            mpp_sim_destroy(y);
            mpp_bcast_plan_free(&pl);
        }
    printf("engine: %u runs deliver the plan's messages, deterministically\n", runs);
}

int main(void)
{
    algs_init();
    test_units();
    test_matrix();
    test_doubling();
    test_engine();
    TEST_DONE();
}
