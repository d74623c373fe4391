/* test/test_apps.c — the sequential cores of the applications
 * (algorithms/apps.h):
 *   - Wolff: a sweep's cluster is the connected component of its start site
 *     in the open bonds (grown in waves or depth first: the same sites), a
 *     bond's state depends on (seed, sweep, bond) only, the cluster is
 *     flipped, the same seed gives the same lattice; at beta = 0 a cluster
 *     is one site, at a large beta the whole equal-spin component;
 *   - Lee: every generated instance (N = 16, 32, 64, 25% and 50% blocked,
 *     ten instances each) has a path, its blocked fraction is within 1% of
 *     the target, its source and destination are open and 0.4 N .. 0.6 N
 *     apart, and the recovered path is a chain of open neighbouring cells
 *     as long as the expansion's distance (issue "Irregular applications",
 *     must-show 2);
 *   - the column stripes: legal widths, and the errors for the others;
 *   - bad arguments are MPP_EINVAL. */
#include <math.h>

#include "algorithms/apps.h"
#include "core/config/experiment.h"
#include "core/sim.h"
#include "testutil.h"

static void test_wolff(void)
{
    mpp_err err;
    mpp_wolff w, w2;
    CHECK(mpp_wolff_init(&w, 32, MPP_WOLFF_BETA_C, 7, &err) == 0);
    CHECK(mpp_wolff_init(&w2, 32, MPP_WOLFF_BETA_C, 7, &err) == 0);
    uint32_t n = 32 * 32;
    uint8_t *mark = malloc(n);
    uint32_t *stack = malloc(n * sizeof *stack);
    int8_t *before = malloc(n);
    uint64_t total = 0;
    mpp_app_counts c = {0};
    for (uint64_t t = 0; t < 200; t++) {
        uint32_t comp = mpp_wolff_component(&w, t, mark, stack);
        memcpy(before, w.spin, n);
        uint32_t size = mpp_wolff_sweep(&w, t, &c);
        CHECKF(size == comp, "sweep %llu: waves %u sites, component %u", (unsigned long long)t,
               size, comp);
        uint32_t flipped = 0, wrong = 0;
        for (uint32_t s = 0; s < n; s++) {
            bool f = w.spin[s] != before[s];
            flipped += f;
            wrong += f != (mark[s] != 0);
        }
        CHECKF(flipped == size && wrong == 0, "sweep %llu: %u flipped, %u wrong",
               (unsigned long long)t, flipped, wrong);
        mpp_wolff_sweep(&w2, t, NULL);
        total += size;
    }
    CHECK(memcmp(w.spin, w2.spin, n) == 0);
    CHECK(c.sites == total && c.tests == 4 * total && c.randoms > 0 && c.randoms < c.tests &&
          c.cycles > 0 && c.queue_ops == 2 * total);
    /* a bond is a function of (seed, sweep, bond) */
    CHECK(mpp_wolff_bond(&w, 3, 10) == mpp_wolff_bond(&w2, 3, 10));
    unsigned open = 0;
    for (uint64_t b = 0; b < 20000; b++)
        open += mpp_wolff_bond(&w, 5, b);
    double p = 1 - exp(-2 * MPP_WOLFF_BETA_C);
    CHECKF(fabs(open / 20000.0 - p) < 0.02, "open bonds %.3f, p %.3f", open / 20000.0, p);
    printf("wolff 32x32 at beta_c: mean cluster %.1f sites over 200 sweeps, %.2f random numbers "
           "a site\n",
           total / 200.0, (double)c.randoms / (double)c.sites);
    mpp_wolff_free(&w);
    mpp_wolff_free(&w2);
    /* beta 0: no bond opens; a huge beta: every equal-spin bond */
    CHECK(mpp_wolff_init(&w, 16, 0, 1, &err) == 0);
    CHECK(mpp_wolff_sweep(&w, 0, NULL) == 1);
    mpp_wolff_free(&w);
    CHECK(mpp_wolff_init(&w, 16, 50, 1, &err) == 0);
    for (uint32_t s = 0; s < 256; s++)
        w.spin[s] = 1;
    CHECK(mpp_wolff_sweep(&w, 0, NULL) == 256);
    mpp_wolff_free(&w);
    free(mark);
    free(stack);
    free(before);
    CHECK(mpp_wolff_init(&w, 1, 0.4, 1, &err) == MPP_EINVAL);
    CHECK(mpp_wolff_init(&w, 8, -1, 1, &err) == MPP_EINVAL);
    CHECK(mpp_wolff_init(&w, 8, NAN, 1, &err) == MPP_EINVAL);
}

/* The open cells reached from the source through open cells (flood fill,
 * in g->queue). */
static uint64_t open_region(mpp_lee *g)
{
    uint32_t N = g->N, head = 0, tail = 0;
    uint8_t *seen = calloc((size_t)N * N, 1);
    seen[g->src] = 1;
    g->queue[tail++] = g->src;
    while (head < tail) {
        uint32_t s = g->queue[head++], nb[4];
        int k = mpp_lee_neighbours(N, s, nb);
        for (int d = 0; d < k; d++)
            if (!g->blocked[nb[d]] && !seen[nb[d]]) {
                seen[nb[d]] = 1;
                g->queue[tail++] = nb[d];
            }
    }
    free(seen);
    return tail;
}

static void test_lee(void)
{
    mpp_err err;
    static const uint32_t sides[] = {16, 32, 64};
    static const double fractions[] = {0.25, 0.5};
    double worst = 0;
    for (size_t i = 0; i < 3; i++)
        for (size_t f = 0; f < 2; f++)
            for (uint64_t inst = 0; inst < 10; inst++) {
                mpp_lee g;
                uint32_t N = sides[i];
                int rc = mpp_lee_generate(&g, N, fractions[f], 11, inst, &err);
                CHECKF(rc == 0, "N %u fraction %g instance %llu: %s", N, fractions[f],
                       (unsigned long long)inst, rc ? err.msg : "");
                if (rc)
                    continue;
                uint64_t blocked = 0;
                for (uint32_t s = 0; s < N * N; s++)
                    blocked += g.blocked[s];
                double frac = (double)blocked / (N * N);
                CHECK(blocked == g.nblocked);
                CHECKF(fabs(frac - fractions[f]) <= 0.01, "N %u: blocked %.4f, target %g", N,
                       frac, fractions[f]);
                if (fabs(frac - fractions[f]) > worst)
                    worst = fabs(frac - fractions[f]);
                CHECK(!g.blocked[g.src] && !g.blocked[g.dst]);
                CHECKF(open_region(&g) == (uint64_t)N * N - blocked,
                       "N %u instance %llu: the open cells are not one region", N,
                       (unsigned long long)inst);
                CHECK(g.M >= (uint32_t)ceil(0.4 * N) && g.M <= (uint32_t)floor(0.6 * N));
                mpp_app_counts c = {0};
                int64_t d = mpp_lee_expand(&g, g.src, g.dst, &c);
                CHECKF(d >= g.M, "N %u instance %llu: no path (%lld) or shorter than %u", N,
                       (unsigned long long)inst, (long long)d, g.M);
                if (d < 0)
                    continue;
                uint32_t *path = malloc(((size_t)d + 1) * sizeof *path);
                uint32_t len = mpp_lee_path(&g, g.src, g.dst, path);
                CHECK(len == d && path[0] == g.dst && path[len] == g.src);
                for (uint32_t k = 0; k < len; k++) {
                    uint32_t a = path[k], b = path[k + 1];
                    uint32_t dx = a % N > b % N ? a % N - b % N : b % N - a % N;
                    uint32_t dy = a / N > b / N ? a / N - b / N : b / N - a / N;
                    CHECK(dx + dy == 1 && !g.blocked[b]);
                }
                CHECK(c.cycles <= (uint64_t)d && c.sites > 0 && c.tests >= c.sites);
                free(path);
                mpp_lee_free(&g);
            }
    printf("lee: 60 instances with a path, open cells one region, blocked fraction within %.4f of the target\n", worst);
    mpp_lee g;
    CHECK(mpp_lee_generate(&g, 16, 0.95, 1, 0, &err) == MPP_EINVAL);
    CHECK(mpp_lee_generate(&g, 16, -0.1, 1, 0, &err) == MPP_EINVAL);
    CHECK(mpp_lee_generate(&g, 3, 0.25, 1, 0, &err) == MPP_EINVAL);
    /* the same seed and instance: the same grid */
    mpp_lee a, b;
    CHECK(mpp_lee_generate(&a, 32, 0.5, 3, 4, &err) == 0);
    CHECK(mpp_lee_generate(&b, 32, 0.5, 3, 4, &err) == 0);
    CHECK(memcmp(a.blocked, b.blocked, 32 * 32) == 0 && a.src == b.src && a.dst == b.dst);
    mpp_lee_free(&a);
    mpp_lee_free(&b);
}

/* Pairs on one grid, and the sequential runs (what `mppnet app` prints). */
static void test_sequential(void)
{
    mpp_err err;
    mpp_lee g;
    CHECK(mpp_lee_generate(&g, 48, 0.5, 5, 2, &err) == 0);
    uint32_t src0 = g.src, dst0 = g.dst, distinct = 0;
    mpp_app_counts sum = {0};
    uint64_t dist = 0;
    for (uint32_t j = 0; j < 6; j++) {
        CHECK(mpp_lee_pair(&g, 5, 2, j, &err) == 0);
        if (j == 0)
            CHECK(g.src == src0 && g.dst == dst0); /* pair 0 is generate's */
        else
            distinct += g.src != src0 || g.dst != dst0;
        CHECK(!g.blocked[g.src] && !g.blocked[g.dst] && g.M >= 20 && g.M <= 28);
        int64_t d = mpp_lee_expand(&g, g.src, g.dst, &sum);
        CHECK(d >= g.M);
        dist += (uint64_t)d;
    }
    CHECK(distinct == 5);
    mpp_lee_free(&g);
    /* instance 2 of seed 5 with 6 pairs is one of the runs of the
     * sequential run of instances 0 .. 2 */
    mpp_app_seq a, b;
    CHECK(mpp_lee_sequential(48, 0.5, 5, 2, 6, &a, &err) == 0);
    CHECK(mpp_lee_sequential(48, 0.5, 5, 3, 6, &b, &err) == 0);
    CHECK(a.runs == 12 && b.runs == 18);
    CHECK(b.size - a.size == dist && b.counts.sites - a.counts.sites == sum.sites &&
          b.counts.tests - a.counts.tests == sum.tests &&
          b.counts.queue_ops - a.counts.queue_ops == sum.queue_ops);
    CHECK(mpp_lee_sequential(48, 0.5, 5, 1, 0, &a, &err) == MPP_EINVAL);
    /* Wolff: the measured sweeps follow the thermalisation */
    mpp_wolff w;
    CHECK(mpp_wolff_init(&w, 24, MPP_WOLFF_BETA_C, 9, &err) == 0);
    mpp_app_counts c = {0};
    uint64_t size = 0;
    for (uint32_t t = 0; t < 15; t++)
        if (t < 10)
            mpp_wolff_sweep(&w, t, NULL);
        else
            size += mpp_wolff_sweep(&w, t, &c);
    mpp_wolff_free(&w);
    CHECK(mpp_wolff_sequential(24, MPP_WOLFF_BETA_C, 9, 10, 5, &a, &err) == 0);
    CHECK(a.runs == 5 && a.size == size && a.counts.sites == c.sites &&
          a.counts.randoms == c.randoms && a.counts.cycles == c.cycles);
    const mpp_app_costs k = {3, 5, 7, 11};
    CHECK(mpp_app_work_cycles(&c, &k) ==
          3 * c.sites + 5 * c.tests + 7 * c.randoms + 11 * c.queue_ops);
}

/* The `app` workload on a rows x cols mesh of the cm5 preset's node
 * processors: its results (extra columns: time_ms, seq_ms, speedup,
 * efficiency, mean_size, exp_cycles, ams_per_side, exact, time_se_ms). */
static int run_parallel(const char *app, const char *scheme, uint32_t rows, uint32_t cols,
                        uint32_t N, uint32_t w, const char *sync, mpp_sim_result *out)
{
    char text[1024];
    snprintf(text, sizeof text,
             "mppnet: 1\nmachine: cm5\nseed: 3\n"
             "network: {topology: mesh, mesh: {rows: %u, cols: %u}, router: dor, "
             "flow_control: wormhole}\n"
             "workload: {type: app, app: %s, scheme: %s, N: %u, w: %u, sync: %s, therm: 10, "
             "sweeps: 4, instances: 3, fraction: 0.5}\n",
             rows, cols, app, scheme, N, w, sync);
    mpp_err err;
    mpp_experiment *e = mpp_experiment_parse(text, "test", 0, NULL, &err);
    CHECKF(e != NULL, "%s", err.msg);
    if (!e)
        return -1;
    mpp_sim *s = mpp_sim_create(mpp_experiment_config(e, 0), &err);
    int rc = s ? mpp_sim_run(s, NULL, NULL, &err) : -1;
    CHECKF(rc == 0, "%s %s P=%u w=%u: %s", app, scheme, rows * cols, w, err.msg);
    if (s && rc == 0)
        *out = *mpp_sim_result_get(s);
    mpp_sim_destroy(s);
    mpp_experiment_destroy(e);
    return rc;
}

/* The parallel runs compute the sequential clusters and distances under
 * every scheme: P = 1, 2, 4, 8, stripes of width 2 (dividing N / P) and 3
 * (not), both synchronisations of the not coalesced schemes. */
static void test_parallel(void)
{
    static const uint32_t shape[][2] = {{1, 1}, {1, 2}, {2, 2}, {2, 4}};
    static const char *const apps[] = {"wolff", "lee"};
    static const struct {
        const char *scheme, *sync;
    } variants[] = {{"am_nc_o", "local"},  {"am_nc_o", "global"}, {"st_nc_o", "local"},
                    {"st_nc_o", "global"}, {"ssr_c_no", "auto"},  {"amp_c_no", "auto"},
                    {"asr_c_o", "auto"}};
    unsigned runs = 0;
    for (size_t a = 0; a < 2; a++)
        for (size_t v = 0; v < MPP_COUNTOF(variants); v++)
            for (size_t k = 0; k < 4; k++)
                for (uint32_t w = 2; w <= 3; w++) {
                    mpp_sim_result r;
                    const char *sch = variants[v].scheme;
                    if (run_parallel(apps[a], sch, shape[k][0], shape[k][1], 32, w,
                                     variants[v].sync, &r))
                        continue;
                    runs++;
                    uint32_t P = shape[k][0] * shape[k][1];
                    CHECKF(r.extra[7].u == 1, "%s %s P=%u w=%u %s: not the sequential result",
                           apps[a], sch, P, w, variants[v].sync);
                    CHECKF(r.extra[0].d > 0 && r.extra[1].d > 0 && r.extra[4].d > 0,
                           "%s %s P=%u: time %g, sequential %g, size %g", apps[a], sch, P,
                           r.extra[0].d, r.extra[1].d, r.extra[4].d);
                    /* site messages only between processors */
                    CHECKF((P == 1) == (r.extra[6].d == 0), "%s %s P=%u: %g messages a side",
                           apps[a], sch, P, r.extra[6].d);
                    /* the standard error of the mean time over 4 sweeps
                     * or 3 instances */
                    CHECKF(r.extra[8].d >= 0 && r.extra[8].d < r.extra[0].d, "se %g of %g",
                           r.extra[8].d, r.extra[0].d);
                }
    printf("parallel: %u runs (wolff, lee; 5 schemes, am/st local and global; P 1 2 4 8; "
           "w 2 3) computed the sequential results\n",
           runs);
}

static void test_stripes(void)
{
    mpp_err err;
    CHECK(mpp_stripes_check(256, 16, 16, &err) == 0);
    CHECK(mpp_stripes_check(256, 3, 16, &err) == 0);  /* 86 stripes, the last 1 column */
    CHECK(mpp_stripes_check(10, 3, 4, &err) == 0);    /* 4 stripes: 3, 3, 3, 1 */
    CHECK(mpp_stripes_check(10, 3, 5, &err) == MPP_EINVAL && strstr(err.msg, "fewer than"));
    CHECK(mpp_stripes_check(256, 0, 16, &err) == MPP_EINVAL);
    CHECK(mpp_stripes_check(256, 257, 1, &err) == MPP_EINVAL);
    CHECK(mpp_stripe_owner(0, 4, 3) == 0 && mpp_stripe_owner(4, 4, 3) == 1 &&
          mpp_stripe_owner(12, 4, 3) == 0 && mpp_stripe_owner(11, 4, 3) == 2);
}

int main(void)
{
    test_wolff();
    test_lee();
    test_sequential();
    test_parallel();
    test_stripes();
    TEST_DONE();
}
