/* test/test_schedule.c — conformance of every registered scheduler
 * (suite `plugins`) and the schedule checker.
 *
 *   1. The checker itself rejects hand-made bad schedules (a duplicate, a
 *      missing entry, a processor sending or receiving twice in a phase,
 *      parts adding up to too much, an empty phase, a dynamic order not
 *      grouped by source) and accepts good ones (including split parts).
 *   2. Every scheduler with a schedule hook, on awkward matrices (empty,
 *      full, one busy row, one busy column, n = 1, 2, 3, 5, 6, 7, 12, a few
 *      entries, huge sizes) and random regular and non-uniform ones:
 *      mpp_schedule_check passes, the same seed gives the same schedule,
 *      phased schedulers use at least max-degree phases, dynamic ones list
 *      every entry once grouped by source. rs_nh runs with every cutoff
 *      rule, factors 0.5, 1, 2 and slack 0, 1, 3. lp on a full matrix of n = 2^k uses exactly n - 1 phases.
 *   3. gm and cgm: mean phases <= d + log2(d) + 1 on random d-regular
 *      matrices for n = 32, 128, 512.
 *   4. cgm's steps grow like n d ln d: steps / (n d ln d) over several
 *      (n, d) stays within a factor 2 of its mean (the fit is printed).
 *   5. rs_nh's default cutoff keeps the phases within 5% of rs_n's on
 *      random non-uniform matrices (n = 32, d = 4..31).
 *   6. The work by kind (mpp_sched_work) of every scheduler on two tiny
 *      matrices, counted by hand (the counts there do not depend on the
 *      seed, except gm's scan, which is bounded), and its price.
 *
 * The random matrices come from a small builder of our own (a circulant
 * pattern mixed by random row and column permutations, diagonal entries
 * repaired by degree-preserving switches), so these tests do not depend on
 * traces/gen.c. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/schedule.h"
#include "core/config/cfgtree.h"
#include "core/base/rng.h"
#include "test/testutil.h"

/* ---- matrices ---------------------------------------------------------- */

/* A random d-regular n x n pattern (d < n) with sizes 1 (or uniform 1..32
 * when nonuniform), built from seed. */
static void build_regular(mpp_com *c, uint32_t n, uint32_t d, bool nonuniform, uint64_t seed)
{
    mpp_err err;
    mpp_com_init(c, n, 1, &err);
    mpp_rng rng;
    mpp_rng_init(&rng, seed, MPP_RNG_SHUFFLE, 777);
    unsigned char *a = calloc((size_t)n * n, 1);
    if (d == n - 1) {
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t j = 0; j < n; j++)
                a[(size_t)i * n + j] = i != j;
    } else if (d) {
        uint32_t *off = malloc((n - 1) * sizeof *off), *pr = malloc(n * sizeof *pr),
                 *pc = malloc(n * sizeof *pc);
        for (uint32_t k = 0; k < n - 1; k++)
            off[k] = k + 1;
        mpp_rng_shuffle(&rng, off, n - 1);
        for (uint32_t i = 0; i < n; i++)
            pr[i] = pc[i] = i;
        mpp_rng_shuffle(&rng, pr, n);
        mpp_rng_shuffle(&rng, pc, n);
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t k = 0; k < d; k++)
                a[(size_t)pr[i] * n + pc[(i + off[k]) % n]] = 1;
        for (uint32_t r = 0; r < n; r++) { /* switch (r,r),(x,y) -> (r,y),(x,r) */
            while (a[(size_t)r * n + r]) {
                uint32_t x = mpp_rng_below(&rng, n), y = mpp_rng_below(&rng, n);
                if (x == r || y == r || x == y || !a[(size_t)x * n + y] ||
                    a[(size_t)r * n + y] || a[(size_t)x * n + r])
                    continue;
                a[(size_t)r * n + r] = a[(size_t)x * n + y] = 0;
                a[(size_t)r * n + y] = a[(size_t)x * n + r] = 1;
            }
        }
        free(off);
        free(pr);
        free(pc);
    }
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++)
            if (a[(size_t)i * n + j])
                mpp_com_add(c, i, j, nonuniform ? 1 + mpp_rng_below(&rng, 32) : 1, &err);
    mpp_com_finish(c);
    free(a);
}

/* A matrix from a list of (src, dst, units) triples. */
static void build_list(mpp_com *c, uint32_t n, const uint64_t (*t)[3], size_t k)
{
    mpp_err err;
    mpp_com_init(c, n, 1, &err);
    for (size_t i = 0; i < k; i++)
        mpp_com_add(c, (uint32_t)t[i][0], (uint32_t)t[i][1], t[i][2], &err);
    mpp_com_finish(c);
}

#define MAXM 40
typedef struct mset {
    mpp_com m[MAXM];
    const char *what[MAXM];
    size_t n;
} mset;

static mpp_com *mset_add(mset *s, const char *what)
{
    CHECK(s->n < MAXM);
    s->what[s->n] = what;
    return &s->m[s->n++];
}

/* The awkward and random matrices of section 2. */
static void build_set(mset *s)
{
    static const uint32_t full_n[] = {2, 3, 5, 6, 7, 8, 12};
    static const char *const full_what[] = {"full n=2", "full n=3", "full n=5", "full n=6",
                                            "full n=7", "full n=8", "full n=12"};
    mpp_err err;
    memset(s, 0, sizeof *s);
    mpp_com_init(mset_add(s, "empty n=1"), 1, 1, &err);
    mpp_com_init(mset_add(s, "empty n=5"), 5, 1, &err);
    for (size_t k = 0; k < MPP_COUNTOF(full_n); k++)
        build_regular(mset_add(s, full_what[k]), full_n[k], full_n[k] - 1, k % 2 == 1, 3 + k);
    mpp_com *c = mset_add(s, "busy row n=7");
    mpp_com_init(c, 7, 1, &err);
    for (uint32_t j = 0; j < 7; j++)
        if (j != 3)
            mpp_com_add(c, 3, j, 1 + j, &err);
    mpp_com_finish(c);
    c = mset_add(s, "busy column n=6");
    mpp_com_init(c, 6, 1, &err);
    for (uint32_t i = 0; i < 6; i++)
        if (i != 4)
            mpp_com_add(c, i, 4, 2 * i + 1, &err);
    mpp_com_finish(c);
    static const uint64_t few[][3] = {{0, 11, 5}, {11, 0, 7}, {6, 2, 1}};
    build_list(mset_add(s, "few n=12"), 12, few, MPP_COUNTOF(few));
    static const uint64_t one[][3] = {{4, 1, 9}};
    build_list(mset_add(s, "one entry n=5"), 5, one, 1);
    static const uint64_t two[][3] = {{0, 1, 1}};
    build_list(mset_add(s, "one entry n=2"), 2, two, 1);
    static const uint64_t huge[][3] = {{0, 1, UINT64_C(1) << 40}, {1, 2, UINT64_C(3) << 38},
                                       {2, 0, 1}, {0, 2, UINT64_C(5) << 33}};
    build_list(mset_add(s, "huge sizes n=3"), 3, huge, MPP_COUNTOF(huge));
    build_regular(mset_add(s, "regular n=5 d=2"), 5, 2, false, 11);
    build_regular(mset_add(s, "regular n=6 d=3"), 6, 3, false, 12);
    build_regular(mset_add(s, "regular n=7 d=4"), 7, 4, false, 13);
    build_regular(mset_add(s, "regular n=12 d=5"), 12, 5, false, 14);
    build_regular(mset_add(s, "regular n=32 d=1"), 32, 1, false, 15);
    build_regular(mset_add(s, "regular n=32 d=9"), 32, 9, false, 16);
    build_regular(mset_add(s, "regular n=100 d=30"), 100, 30, false, 17);
    build_regular(mset_add(s, "nonuniform n=7 d=3"), 7, 3, true, 18);
    build_regular(mset_add(s, "nonuniform n=12 d=6"), 12, 6, true, 19);
    build_regular(mset_add(s, "nonuniform n=32 d=8"), 32, 8, true, 20);
    build_regular(mset_add(s, "nonuniform n=32 d=31"), 32, 31, true, 21);
    build_regular(mset_add(s, "nonuniform n=64 d=20"), 64, 20, true, 22);
    for (size_t k = 0; k < s->n; k++)
        CHECKF(mpp_com_check(&s->m[k]), "%s", s->what[k]);
}

/* ---- configuration ----------------------------------------------------- */

/* Set schema row `key` of a plug-in's blob from YAML text, as the
 * configuration layer does. */
static int set_key(const mpp_schema *sc, mpp_blob *b, const char *key, const char *text)
{
    for (size_t i = 0; i < sc->nparams; i++) {
        if (strcmp(sc->params[i].key, key))
            continue;
        mpp_err err;
        mpp_cfgnode *v = mpp_cfgtree_parse_value(text, "test", &err);
        if (!v)
            return -1;
        int rc = mpp_cfgtree_convert(v, &sc->params[i], key, 0, b->b, &err);
        mpp_cfgtree_free(v);
        return rc;
    }
    return -1;
}

static void defaults(const mpp_schema *sc, mpp_blob *b)
{
    memset(b, 0, sizeof *b);
    CHECK(sc->size <= MPP_BLOB_SIZE);
    for (size_t i = 0; i < sc->nparams; i++)
        if (sc->params[i].def)
            CHECK(set_key(sc, b, sc->params[i].key, sc->params[i].def) == 0);
}

/* ---- 1. the checker ---------------------------------------------------- */

static int check_sched(const mpp_com *c, uint32_t nphases, const uint32_t *starts,
                       const mpp_sched_msg *msgs, uint32_t nmsgs)
{
    mpp_schedule s = {.nphases = nphases, .phase_start = (uint32_t *)starts,
                      .msgs = (mpp_sched_msg *)msgs, .nmsgs = nmsgs};
    mpp_err err;
    mpp_err_clear(&err);
    return mpp_schedule_check(c, &s, &err);
}

static void test_checker(void)
{
    static const uint64_t t[][3] = {{0, 1, 4}, {1, 2, 5}, {2, 0, 6}, {0, 2, 1}};
    mpp_com c;
    build_list(&c, 3, t, MPP_COUNTOF(t));
    const mpp_sched_msg good[] = {{0, 1, 4}, {1, 2, 5}, {2, 0, 6}, {0, 2, 1}};
    const uint32_t s2[] = {0, 3, 4};
    CHECK(check_sched(&c, 2, s2, good, 4) == 0);
    const mpp_sched_msg split[] = {{0, 1, 4}, {1, 2, 2}, {2, 0, 6}, {1, 2, 3}, {0, 2, 1}};
    const uint32_t s3split[] = {0, 3, 4, 5};
    CHECK(check_sched(&c, 3, s3split, split, 5) == 0);
    const uint32_t s3[] = {0, 3, 5};
    const mpp_sched_msg toomuch[] = {{0, 1, 4}, {1, 2, 5}, {2, 0, 6}, {0, 2, 1}, {1, 2, 3}};
    CHECK(check_sched(&c, 2, s3, toomuch, 5) == MPP_EINVAL);
    const mpp_sched_msg dup[] = {{0, 1, 4}, {1, 2, 5}, {2, 0, 6}, {0, 2, 1}, {0, 1, 4}};
    CHECK(check_sched(&c, 2, s3, dup, 5) == MPP_EINVAL);
    CHECK(check_sched(&c, 2, s2, good, 3) == MPP_EINVAL);        /* bounds and nmsgs differ */
    const uint32_t s2b[] = {0, 2, 3};
    CHECK(check_sched(&c, 2, s2b, good, 3) == MPP_EINVAL);       /* (0, 2) missing */
    const mpp_sched_msg twice_send[] = {{0, 1, 4}, {0, 2, 1}, {1, 2, 5}, {2, 0, 6}};
    const uint32_t s22[] = {0, 2, 4};
    CHECK(check_sched(&c, 2, s22, twice_send, 4) == MPP_EINVAL);
    const mpp_sched_msg twice_recv[] = {{1, 2, 5}, {0, 2, 1}, {0, 1, 4}, {2, 0, 6}};
    CHECK(check_sched(&c, 2, s22, twice_recv, 4) == MPP_EINVAL);
    const mpp_sched_msg stranger[] = {{0, 1, 4}, {1, 2, 5}, {2, 0, 6}, {1, 0, 1}};
    CHECK(check_sched(&c, 2, s2, stranger, 4) == MPP_EINVAL);
    const mpp_sched_msg diag[] = {{0, 1, 4}, {1, 2, 5}, {2, 0, 6}, {2, 2, 1}};
    CHECK(check_sched(&c, 2, s2, diag, 4) == MPP_EINVAL);
    /* an empty phase is allowed (lp keeps its phases without a message);
     * a phase that ends before it starts is not */
    const uint32_t empty_phase[] = {0, 3, 3, 4};
    CHECK(check_sched(&c, 3, empty_phase, good, 4) == 0);
    const uint32_t backwards[] = {0, 3, 2, 4};
    CHECK(check_sched(&c, 3, backwards, good, 4) == MPP_EINVAL);
    /* dynamic: grouped by source in increasing order */
    const mpp_sched_msg dyn[] = {{0, 2, 1}, {0, 1, 4}, {1, 2, 5}, {2, 0, 6}};
    CHECK(check_sched(&c, 0, NULL, dyn, 4) == 0);
    const mpp_sched_msg dyn_bad[] = {{0, 2, 1}, {1, 2, 5}, {0, 1, 4}, {2, 0, 6}};
    CHECK(check_sched(&c, 0, NULL, dyn_bad, 4) == MPP_EINVAL);
    CHECK(check_sched(&c, 0, NULL, dyn, 3) == MPP_EINVAL);
    mpp_com e;
    mpp_err err;
    mpp_com_init(&e, 4, 1, &err);
    CHECK(check_sched(&e, 0, NULL, NULL, 0) == 0);
    mpp_com_free(&e);
    mpp_com_free(&c);
    mpp_schedule_free(NULL);
}

/* ---- 2. conformance ------------------------------------------------------ */

static bool same_schedule(const mpp_schedule *a, const mpp_schedule *b)
{
    if (a->nphases != b->nphases || a->nmsgs != b->nmsgs || a->steps != b->steps)
        return false;
    if (a->nmsgs && memcmp(a->msgs, b->msgs, a->nmsgs * sizeof *a->msgs))
        return false;
    return !a->nphases ||
           !memcmp(a->phase_start, b->phase_start, (a->nphases + 1) * sizeof *a->phase_start);
}

/* Schedule c with op and cfg and check the schedule; returns nphases. */
static uint32_t conform_one(const mpp_sched_ops *op, const void *cfg, const mpp_com *c,
                            const char *what, uint64_t seed)
{
    mpp_schedule s, t;
    mpp_err err;
    mpp_err_clear(&err);
    int rc = op->schedule(c, cfg, seed, &s, &err);
    CHECKF(rc == 0, "%s on %s: %s", op->name, what, err.msg);
    if (rc)
        return 0;
    rc = mpp_schedule_check(c, &s, &err);
    CHECKF(rc == 0, "%s on %s (seed %" PRIu64 "): %s", op->name, what, seed, err.msg);
    uint32_t deg = mpp_com_max_degree(c);
    if (op->dynamic) {
        CHECKF(s.nphases == 0 && s.nmsgs == c->nnz, "%s on %s: dynamic: %u phases, %u msgs",
               op->name, what, s.nphases, s.nmsgs);
    } else {
        CHECKF(s.nphases >= deg, "%s on %s: %u phases < max degree %u", op->name, what, s.nphases,
               deg);
        if (strcmp(op->name, "lp")) /* lp keeps all P - 1 phases, even of an empty COM */
            CHECKF((c->nnz == 0) == (s.nphases == 0), "%s on %s: %u phases for %u entries",
                   op->name, what, s.nphases, c->nnz);
        else {
            uint32_t P = 1;
            while (P < c->n)
                P *= 2;
            CHECKF(s.nphases == P - 1, "lp on %s: %u phases, expected %u", what, s.nphases, P - 1);
        }
    }
    CHECK(op->schedule(c, cfg, seed, &t, &err) == 0);
    CHECKF(same_schedule(&s, &t), "%s on %s: not deterministic", op->name, what);
    uint32_t np = s.nphases;
    mpp_schedule_free(&s);
    mpp_schedule_free(&t);
    return np;
}

static void test_conformance(const mset *ms)
{
    for (const mpp_sched_ops *const *op = mpp_sched_all(); *op; op++) {
        if (!(*op)->schedule)
            continue; /* runtime protocols (drs_n) are tested by replay */
        const mpp_schema *sc = &(*op)->schema;
        mpp_blob cfg;
        defaults(sc, &cfg);
        for (size_t k = 0; k < ms->n; k++)
            for (uint64_t seed = 1; seed <= 3; seed++)
                conform_one(*op, cfg.b, &ms->m[k], ms->what[k], seed);
        /* every value of every choice parameter (rs_nh's cutoff rules) */
        for (size_t p = 0; p < sc->nparams; p++) {
            if (sc->params[p].type != MPP_PT_ENUM)
                continue;
            for (const char *const *ch = sc->params[p].choices; *ch; ch++) {
                for (int v = 0; v < 9; v++) { /* rs_nh: factor x slack */
                    static const char *const factor[] = {"0.5", "1", "2"}, *const slack[] = {
                        "0", "1", "3"};
                    mpp_blob b;
                    defaults(sc, &b);
                    CHECK(set_key(sc, &b, sc->params[p].key, *ch) == 0);
                    set_key(sc, &b, "factor", factor[v % 3]);
                    set_key(sc, &b, "slack", slack[v / 3]);
                    for (size_t k = 0; k < ms->n; k++)
                        conform_one(*op, b.b, &ms->m[k], ms->what[k], 5);
                }
            }
        }
        printf("conformance: %-6s ok on %zu matrices\n", (*op)->name, ms->n);
    }
    /* lp on full matrices of n = 2^k: exactly n - 1 phases */
    const mpp_sched_ops *lp = mpp_sched_find("lp");
    CHECK(lp != NULL);
    for (uint32_t n = 2; lp && n <= 64; n *= 2) {
        mpp_com c;
        build_regular(&c, n, n - 1, false, n);
        CHECK(conform_one(lp, NULL, &c, "full 2^k", 1) == n - 1);
        mpp_com_free(&c);
    }
}

/* ---- 3., 4. gm and cgm on random regular matrices ------------------------ */

typedef struct runstat {
    double phases, steps;
} runstat;

static runstat mean_run(const mpp_sched_ops *op, const void *cfg, uint32_t n, uint32_t d,
                        bool nonuniform, uint32_t samples, uint64_t seed0)
{
    runstat r = {0, 0};
    for (uint32_t i = 0; i < samples; i++) {
        mpp_com c;
        build_regular(&c, n, d, nonuniform, seed0 + i);
        mpp_schedule s;
        mpp_err err;
        mpp_err_clear(&err);
        int rc = op->schedule(&c, cfg, seed0 + i, &s, &err);
        CHECKF(rc == 0, "%s: %s", op->name, err.msg);
        if (rc == 0) {
            CHECKF(mpp_schedule_check(&c, &s, &err) == 0, "%s n=%u d=%u: %s", op->name, n, d,
                   err.msg);
            r.phases += s.nphases;
            r.steps += (double)s.steps;
            mpp_schedule_free(&s);
        }
        mpp_com_free(&c);
    }
    r.phases /= samples;
    r.steps /= samples;
    return r;
}

static void test_phase_bound(void)
{
    static const uint32_t ns[] = {32, 128, 512}, ds[] = {4, 8, 16, 31};
    static const char *const names[] = {"gm", "cgm"};
    printf("\nphases on random d-regular matrices (mean of 4; bound d + log2 d + 1):\n");
    printf("%-4s %5s %4s %8s %8s\n", "alg", "n", "d", "phases", "bound");
    for (size_t a = 0; a < MPP_COUNTOF(names); a++) {
        const mpp_sched_ops *op = mpp_sched_find(names[a]);
        CHECK(op != NULL);
        if (!op)
            continue;
        for (size_t i = 0; i < MPP_COUNTOF(ns); i++)
            for (size_t j = 0; j < MPP_COUNTOF(ds); j++) {
                uint32_t n = ns[i], d = ds[j];
                runstat r = mean_run(op, NULL, n, d, false, 4, 100 + 10 * i + j);
                double bound = d + log2(d) + 1;
                printf("%-4s %5u %4u %8.2f %8.2f\n", op->name, n, d, r.phases, bound);
                CHECKF(r.phases <= bound, "%s n=%u d=%u: %.2f phases > %.2f", op->name, n, d,
                       r.phases, bound);
            }
    }
}

static void test_cgm_steps(void)
{
    static const uint32_t ns[] = {32, 128, 512}, ds[] = {4, 8, 16, 31};
    const mpp_sched_ops *op = mpp_sched_find("cgm");
    CHECK(op != NULL);
    if (!op)
        return;
    double ratio[MPP_COUNTOF(ns) * MPP_COUNTOF(ds)], mean = 0;
    size_t k = 0;
    printf("\ncgm steps / (n d ln d) on random d-regular matrices (mean of 4):\n");
    printf("%5s %4s %10s %8s\n", "n", "d", "steps", "ratio");
    for (size_t i = 0; i < MPP_COUNTOF(ns); i++)
        for (size_t j = 0; j < MPP_COUNTOF(ds); j++) {
            uint32_t n = ns[i], d = ds[j];
            runstat r = mean_run(op, NULL, n, d, false, 4, 500 + 10 * i + j);
            ratio[k] = r.steps / (n * d * log(d));
            printf("%5u %4u %10.1f %8.4f\n", n, d, r.steps, ratio[k]);
            mean += ratio[k++];
        }
    mean /= (double)k;
    double lo = ratio[0], hi = ratio[0];
    for (size_t i = 0; i < k; i++) {
        lo = ratio[i] < lo ? ratio[i] : lo;
        hi = ratio[i] > hi ? ratio[i] : hi;
        CHECKF(ratio[i] <= 2 * mean && ratio[i] >= mean / 2, "cgm ratio %.4f vs mean %.4f",
               ratio[i], mean);
    }
    printf("fit: steps ~= %.4f n d ln d (ratios %.4f .. %.4f)\n", mean, lo, hi);
}

/* ---- 5. rs_nh against rs_n ----------------------------------------------- */

static void test_rs_nh(void)
{
    const mpp_sched_ops *n_op = mpp_sched_find("rs_n"), *h_op = mpp_sched_find("rs_nh");
    CHECK(n_op && h_op);
    if (!n_op || !h_op)
        return;
    mpp_blob cfg;
    defaults(&h_op->schema, &cfg);
    double tn = 0, th = 0;
    printf("\nrs_n vs rs_nh (default cutoff), random non-uniform n = 32 (mean of 10):\n");
    printf("%4s %8s %8s\n", "d", "rs_n", "rs_nh");
    for (uint32_t d = 4; d <= 31; d += (d == 28 ? 3 : 4)) {
        runstat a = mean_run(n_op, NULL, 32, d, true, 10, 900 + d);
        runstat b = mean_run(h_op, cfg.b, 32, d, true, 10, 900 + d);
        printf("%4u %8.2f %8.2f\n", d, a.phases, b.phases);
        CHECKF(b.phases <= 1.10 * a.phases, "d=%u: rs_nh %.2f phases vs rs_n %.2f", d, b.phases,
               a.phases);
        tn += a.phases;
        th += b.phases;
    }
    printf("total phases: rs_n %.1f, rs_nh %.1f (ratio %.3f)\n", tn, th, th / tn);
    CHECKF(th <= 1.05 * tn, "rs_nh %.1f phases vs rs_n %.1f", th, tn);
}

/* The generator's matrices (traces/gen.c), dense ones included: gm and cgm
 * stay below d + log2 d + 1 phases on average, where relabelled circulants
 * would not (n = 512, d = 384). */
static void test_generated_bound(void)
{
    static const struct { uint32_t n, d, samples; const char *alg; } cases[] = {
        {128, 96, 3, "gm"}, {128, 96, 3, "cgm"}, {512, 384, 2, "cgm"}, {512, 448, 2, "cgm"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const mpp_sched_ops *ops = mpp_sched_find(cases[k].alg);
        double sum = 0;
        for (uint32_t s = 0; s < cases[k].samples; s++) {
            mpp_com c;
            mpp_err err;
            CHECKF(mpp_com_gen_regular(&c, cases[k].n, cases[k].d, 1, 1, 1 + s, &err) == 0, "%s",
                   err.msg);
            mpp_schedule sc;
            memset(&sc, 0, sizeof sc);
            CHECK(ops->schedule(&c, NULL, 7 + s, &sc, &err) == 0);
            CHECK(mpp_schedule_check(&c, &sc, &err) == 0);
            sum += sc.nphases;
            mpp_schedule_free(&sc);
            mpp_com_free(&c);
        }
        double mean = sum / cases[k].samples, bound = cases[k].d + log2(cases[k].d) + 1;
        printf("generated n=%u d=%u %s: %.1f phases (bound %.1f)\n", cases[k].n, cases[k].d,
               cases[k].alg, mean, bound);
        CHECKF(mean <= bound, "%s n=%u d=%u: %.1f phases > %.1f", cases[k].alg, cases[k].n,
               cases[k].d, mean, bound);
    }
}

/* ---- 6. work by kind, by hand ------------------------------------------- */

typedef struct work_case {
    const char *alg;
    int matrix;               /* 0: A, 1: B */
    mpp_sched_work w;         /* expected; gm's scan is checked against bounds */
} work_case;

static void test_work(void)
{
    /* A: n = 4, row 0 sends to 1, 2, 3 (one sender: every try succeeds,
     * one entry per phase, 3 phases). B: n = 3, rows 0 and 1 both send to
     * 2 (the second row of phase 1 finds column 2 taken: 2 phases). */
    static const uint64_t ta[][3] = {{0, 1, 1}, {0, 2, 1}, {0, 3, 1}};
    static const uint64_t tb[][3] = {{0, 2, 1}, {1, 2, 1}};
    mpp_com m[2];
    build_list(&m[0], 4, ta, MPP_COUNTOF(ta));
    build_list(&m[1], 3, tb, MPP_COUNTOF(tb));
    static const work_case cases[] = {
        /* cgm: scan n^2; moves = nnz copied + (len - 1) swaps per row + nnz
         * taken; rows n per phase; tries: A one per phase, B 2 + 1 */
        {"cgm", 0, {.scan = 16, .tries = 3, .rows = 12, .phases = 3, .moves = 3 + 2 + 3}},
        {"cgm", 1, {.scan = 9, .tries = 3, .rows = 6, .phases = 2, .moves = 2 + 0 + 2}},
        {"rs_n", 0, {.scan = 16, .tries = 3, .rows = 12, .phases = 3, .moves = 8}},
        {"rs_n", 1, {.scan = 9, .tries = 3, .rows = 6, .phases = 2, .moves = 4}},
        /* gm: tries = set entries met, moves = entries cleared */
        {"gm", 0, {.tries = 3, .rows = 12, .phases = 3, .moves = 3}},
        {"gm", 1, {.tries = 3, .rows = 6, .phases = 2, .moves = 2}},
        /* lp: P = 4, n (P - 1) partner checks */
        {"lp", 0, {.scan = 12}},
        {"lp", 1, {.scan = 9}},
        /* ac: each message placed in its send order */
        {"ac", 0, {.moves = 3}},
        {"ac", 1, {.moves = 2}},
        /* rs_nh: moves = heap pushes (B: the busy item put back once) */
        {"rs_nh", 0, {.scan = 16, .tries = 3, .rows = 12, .phases = 3, .moves = 3}},
        {"rs_nh", 1, {.scan = 9, .tries = 3, .rows = 6, .phases = 2, .moves = 2 + 1}},
    };
    for (size_t k = 0; k < MPP_COUNTOF(cases); k++) {
        const work_case *c = &cases[k];
        const mpp_sched_ops *op = mpp_sched_find(c->alg);
        CHECKF(op != NULL, "no scheduler %s", c->alg);
        if (!op)
            continue;
        for (uint64_t seed = 1; seed <= 5; seed++) {
            mpp_schedule s;
            mpp_err err;
            memset(&s, 0, sizeof s);
            CHECKF(op->schedule(&m[c->matrix], NULL, seed, &s, &err) == 0, "%s", err.msg);
            const mpp_sched_work *w = &s.work;
            uint64_t scan = c->w.scan;
            if (!strcmp(c->alg, "gm")) {
                /* from a random column to the first set entry (1 .. n), or
                 * the whole row when its entries are busy: A 3 phases of
                 * 1 .. 4; B 1 .. 3, then 3 (row busy), then 1 .. 3 */
                static const uint64_t lo[2] = {3, 5}, hi[2] = {12, 9};
                CHECKF(w->scan == s.steps && w->scan >= lo[c->matrix] &&
                           w->scan <= hi[c->matrix],
                       "gm matrix %c: scan %" PRIu64 " (steps %" PRIu64 "), expected %" PRIu64
                       " .. %" PRIu64, 'A' + c->matrix, w->scan, s.steps, lo[c->matrix],
                       hi[c->matrix]);
                scan = w->scan;
            }
            CHECKF(w->scan == scan && w->tries == c->w.tries && w->rows == c->w.rows &&
                       w->phases == c->w.phases && w->moves == c->w.moves,
                   "%s matrix %c seed %" PRIu64 ": scan %" PRIu64 " tries %" PRIu64
                   " rows %" PRIu64 " phases %" PRIu64 " moves %" PRIu64 ", expected %" PRIu64
                   " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64,
                   c->alg, 'A' + c->matrix, seed, w->scan, w->tries, w->rows, w->phases,
                   w->moves, scan, c->w.tries, c->w.rows, c->w.phases, c->w.moves);
            if (!strcmp(c->alg, "cgm"))
                CHECK(s.steps == w->tries); /* steps keeps its meaning */
            mpp_schedule_free(&s);
        }
    }
    /* the price: 16 x 2 + 3 x 3 + 12 x 5 = 101 cycles; phases and moves free */
    mpp_schedule s;
    mpp_err err;
    memset(&s, 0, sizeof s);
    CHECK(mpp_sched_find("cgm")->schedule(&m[0], NULL, 1, &s, &err) == 0);
    mpp_node_config node;
    memset(&node, 0, sizeof node);
    node.sched_scan_cycles = 2;
    node.sched_try_cycles = 3;
    node.sched_row_cycles = 5;
    CHECKF(mpp_sched_work_cycles(&s.work, &node) == 101, "price %" PRIu64 ", expected 101",
           mpp_sched_work_cycles(&s.work, &node));
    mpp_schedule_free(&s);
    mpp_com_free(&m[0]);
    mpp_com_free(&m[1]);
}

int main(void)
{
    test_checker();
    test_generated_bound();
    mset *ms = malloc(sizeof *ms);
    build_set(ms);
    test_conformance(ms);
    for (size_t k = 0; k < ms->n; k++)
        mpp_com_free(&ms->m[k]);
    free(ms);
    test_phase_bound();
    test_cgm_steps();
    test_rs_nh();
    test_work();
    TEST_DONE();
}
