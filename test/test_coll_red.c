/* test/test_coll_red.c — the reductions of the collectives family
 * (algorithms/coll_red.h: reduce, allreduce by exchange and by reduce +
 * broadcast, reduce_scatter, scan):
 *   - values: every reduction on groups of 2^0 .. 2^7 members and of the
 *     odd meshes' sizes (3x3, 3x5, 5x7, 1x7), whole vectors, pipelined
 *     segments and with all-port nodes (the exchanges cut into parts), every operation of both types on random inputs, against a
 *     sequential computation: exact for max, min and the integer
 *     operations (wrap-around sums), the double sum within the bound of
 *     any order of summation, (g - 1) eps sum |x|; with MPP_COLL_TRACK the
 *     plan's holdings check that every contribution reaches where it must;
 *   - runs on the machines (a hypercube, an odd Paragon mesh, the CM-5):
 *     every message delivered, the time within 2% of the step recurrence on
 *     the hypercube, and op_cycles costing time;
 *   - bad inputs: an operation the type does not have, a vector that is not
 *     whole elements. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/coll.h"
#include "algorithms/coll_red.h"
#include "core/base/param.h"
#include "core/config/experiment.h"
#include "testutil.h"

/* the collective workload's extra columns (algorithms/wl_collective.c) */
enum { X_CYC = 3, X_ACYC = 4 };

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

typedef struct red_case {
    const char *name;
    int alg;          /* allreduce */
} red_case;

static const red_case cases[] = {
    {"reduce", 0}, {"allreduce", MPP_RED_EXCHANGE}, {"allreduce", MPP_RED_REDUCE_BCAST},
    {"reduce_scatter", 0}, {"scan", 0},
};

/* Is got what the sequential reduction of members first .. last gives at
 * element e? */
static bool same(const mpp_coll_red_ctx *r, mpp_coll_red_val got, uint32_t first, uint32_t last,
                 uint64_t e)
{
    mpp_coll_red_val want = mpp_coll_red_sequential(r, first, last, e);
    if (r->cfg.type == MPP_RED_INT64)
        return got.i == want.i;
    if (r->cfg.op != MPP_RED_SUM)
        return got.d == want.d;
    long double exact = 0, mag = 0;
    for (uint32_t c = first; c <= last; c++) {
        double x = r->in[(size_t)c * r->L + e].d;
        exact += x;
        mag += fabs(x);
    }
    double tol = (double)(last - first) * DBL_EPSILON * (double)mag + 1e-300;
    return fabsl((long double)got.d - exact) <= tol;
}

/* Plan one case on g members (TRACK), the values on random inputs, and
 * check them; the number of elements checked. */
static uint64_t check_values(const red_case *k, uint32_t g, int type, int op, uint64_t M,
                             uint64_t chunk, bool all_port)
{
    const mpp_coll_ops *ops = mpp_coll_find(k->name);
    CHECK(ops != NULL);
    if (!ops)
        return 0;
    mpp_coll_red_cfg cfg;
    mpp_schema_defaults(&ops->schema, &cfg);
    cfg.type = type;
    cfg.op = op;
    cfg.alg = k->alg;
    mpp_coll_args a = {.root = g > 3 ? 3 : 0, .M = M, .chunk = chunk, .all_port = all_port,
                       .cfg = &cfg};
    mpp_err err;
    void *ctx = NULL;
    int rc = ops->prepare(&a, g, g, &ctx, &err);
    CHECKF(rc == 0, "%s: %s", k->name, err.msg);
    if (rc)
        return 0;
    mpp_coll_red_ctx *r = ctx;
    CHECK(mpp_coll_red_values(r, &err) == 0);
    for (size_t i = 0; i < (size_t)g * r->L; i++) {
        uint64_t x = rnd();
        if (type == MPP_RED_INT64)
            r->in[i].i = (int64_t)x;
        else /* signed values over many magnitudes */
            r->in[i].d = ((double)(x >> 11) / 9007199254740992.0 - 0.5) *
                         ldexp(1.0, (int)(x % 40) - 20);
    }
    a.ctx = ctx;
    uint32_t *node = malloc(g * sizeof *node);
    for (uint32_t m = 0; m < g; m++)
        node[m] = m;
    mpp_coll_plan pl;
    rc = mpp_coll_plan_init(&pl, g, 3, chunk, MPP_COLL_TRACK | MPP_COLL_PROGRAMS, &err);
    if (!rc) {
        mpp_coll_group grp = {g, node};
        rc = mpp_coll_plan_groups(&pl, ops, &a, &grp, 1, &err);
        CHECKF(rc || pl.nmsgs <= ops->crossings(&a, g), "%s g=%u: %llu messages > %llu",
               k->name, g, (unsigned long long)pl.nmsgs,
               (unsigned long long)ops->crossings(&a, g));
        mpp_coll_plan_free(&pl);
    }
    CHECKF(rc == 0, "%s alg %d g=%u type %d op %d: %s", k->name, k->alg, g, type, op, err.msg);
    uint64_t checked = 0, bad = 0;
    for (uint32_t m = 0; m < g && !rc; m++)
        for (uint64_t e = 0; e < r->L; e++) {
            bool want = false, ok = true;
            if (!strcmp(k->name, "reduce")) {
                if ((want = m == a.root))
                    ok = same(r, r->acc[(size_t)m * r->L + e], 0, g - 1, e);
            } else if (!strcmp(k->name, "allreduce")) {
                want = true;
                ok = same(r, r->acc[(size_t)m * r->L + e], 0, g - 1, e);
            } else if (!strcmp(k->name, "reduce_scatter")) {
                if ((want = e / r->E == m))
                    ok = same(r, r->acc[(size_t)m * r->L + e], 0, g - 1, e);
            } else {
                want = true;
                ok = same(r, r->pre[(size_t)m * r->L + e], 0, m, e);
            }
            checked += want;
            if (!ok && bad++ < 3)
                CHECKF(ok, "%s alg %d g=%u type %d op %d: member %u element %llu wrong",
                       k->name, k->alg, g, type, op, m, (unsigned long long)e);
        }
    ops->release(ctx);
    free(node);
    return checked;
}

static void test_values(void)
{
    static const uint32_t odd[] = {9, 15, 35, 7};
    uint64_t checked = 0, plans = 0;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        for (uint32_t gi = 0; gi < 8 + 4; gi++) {
            uint32_t g = gi < 8 ? 1u << gi : odd[gi - 8];
            for (int type = 0; type < 2; type++)
                for (int op = 0; op < (type ? 6 : 3); op++)
                    for (int v = 0; v < 3; v++) {
                        /* 5 elements a vector (a block of reduce_scatter):
                         * whole, pipelined in segments of 2, and with
                         * all-port nodes (the exchanges in parts) */
                        checked += check_values(&cases[k], g, type, op, 40, v == 1 ? 16 : 0,
                                                v == 2);
                        plans++;
                    }
        }
    printf("values: %llu plans, %llu elements checked against the sequential reduction\n",
           (unsigned long long)plans, (unsigned long long)checked);
}

static uint64_t run_cycles(const char *machine, const char *wl, double *analytic)
{
    char text[768];
    snprintf(text, sizeof text, "mppnet: 1\n%sworkload: {type: collective, %s}\n", machine, wl);
    mpp_sim *s = test_run_text(text, 0, NULL);
    CHECKF(s != NULL, "%s", wl);
    if (!s)
        return 0;
    const mpp_sim_result *r = mpp_sim_result_get(s);
    CHECKF(r->messages > 0 && mpp_sim_message_count(s) == r->messages, "%s", wl);
    uint64_t c = r->extra[X_CYC].u;
    if (analytic)
        *analytic = r->extra[X_ACYC].d;
    mpp_sim_destroy(s);
    return c;
}

static void test_runs(void)
{
    static const char *const machines[] = {
        "machine: hypercube\nnetwork: {hypercube: {dim: 4}, allocator: age}\n",
        "machine: hypercube\nnetwork: {hypercube: {dim: 4}, allocator: age}\nnode: {ports: "
        "all}\n",
        "machine: paragon\nnetwork: {mesh: {rows: 3, cols: 5}}\n",
        "machine: cm5\nnetwork: {cm5-fattree: {nodes: 16}}\n",
    };
    static const char *const wl[] = {
        "collective: reduce, bytes: 2KiB, chunk: 512, root: 3",
        "collective: allreduce, bytes: 2KiB",
        "collective: allreduce, bytes: 2KiB, chunk: 512, allreduce: {alg: reduce_bcast}",
        "collective: reduce_scatter, bytes: 512",
        "collective: scan, bytes: 2KiB",
    };
    for (size_t m = 0; m < 4; m++)
        for (size_t k = 0; k < 5; k++) {
            double an = 0;
            uint64_t c = run_cycles(machines[m], wl[k], &an);
            printf("%s on %.40s: %llu cycles, formula %.0f (%.3f)\n", wl[k],
                   strchr(machines[m], '\n') + 1, (unsigned long long)c, an,
                   an > 0 ? (double)c / an : 0);
            CHECK(c > 0 && an > 0);
            /* the hypercube's exchanges and trees are contention-free: the
             * step recurrence follows them within 2%, but one-port
             * reduce_bcast, whose members send up and down the tree in one
             * step and whose messages the NIC interleaves packet by packet
             * (5%; docs/collectives.md, "Reductions") */
            double tol = m == 0 && k == 2 ? 0.06 : 0.02;
            if (m < 2)
                CHECKF(fabs((double)c / an - 1) <= tol, "%s: %llu vs %.0f", wl[k],
                       (unsigned long long)c, an);
        }
    /* combining costs processor time */
    const char *hc = machines[0];
    uint64_t c0 = run_cycles(hc, "collective: allreduce, bytes: 2KiB, allreduce: {op_cycles: 0}",
                             NULL);
    uint64_t c1 = run_cycles(hc, "collective: allreduce, bytes: 2KiB, allreduce: {op_cycles: 40}",
                             NULL);
    printf("allreduce 2 KiB on 16 nodes: op_cycles 0 %llu, 40 %llu\n", (unsigned long long)c0,
           (unsigned long long)c1);
    CHECK(c1 > c0);
}

static void expect_error(const char *wl, const char *text_part)
{
    char text[512];
    snprintf(text, sizeof text,
             "mppnet: 1\nmachine: hypercube\nnetwork: {hypercube: {dim: 3}}\nworkload: {type: "
             "collective, %s}\n",
             wl);
    test_setup_refused(text, text_part);
}

static void test_errors(void)
{
    expect_error("collective: reduce, reduce: {op: xor}", "not defined for type double");
    expect_error("collective: scan, scan: {op: and, type: double}", "not defined for type double");
    expect_error("collective: allreduce, bytes: 100", "whole number");
    expect_error("collective: reduce, bytes: 1KiB, chunk: 100", "whole number");
}

int main(void)
{
    test_values();
    test_runs();
    test_errors();
    TEST_DONE();
}
