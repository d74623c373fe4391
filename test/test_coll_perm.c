/* test/test_coll_perm.c — the `permute` collective (algorithms/
 * coll_permute.c):
 *   - every permutation (transpose, bit_reversal, shuffle for several m,
 *     bit_complement for k = 0 .. n, index_reversal plain and fft,
 *     dimension_permutation for the identity, the reversal and random
 *     permutations) on 2^1 .. 2^10 members: the plan, with MPP_COLL_TRACK,
 *     has one step in which member i sends exactly one message of M bytes,
 *     its own block, to p(i) (none when p(i) = i), and every member receives
 *     at most one message, from the right source; p is checked against an
 *     implementation of the definitions written here with bit loops;
 *   - algebra on the plug-in's own tables: transpose twice is the identity
 *     for even n (a one-bit rotation for odd n), bit_reversal and
 *     bit_complement are involutions, shuffle m then n - m is the identity,
 *     index_reversal differs from bit_complement for every n >= 1;
 *   - refusals of prepare (MPP_EINVAL, the key named): dims not a
 *     permutation (a repeat, an out-of-range dimension, the wrong count, none),
 *     k > n, a chunk, a group that is not a power of two;
 *   - runs on 16- and 64-node hypercubes routed by e-cube, 1 KiB blocks:
 *     the measured time within 3% of the analytic time (the step
 *     recurrence that follows the e-cube paths) and above the bound; the
 *     ratios are printed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/coll.h"
#include "core/config/experiment.h"
#include "testutil.h"

enum { X_MS, X_AMS, X_BMS, X_CYC, X_ACYC, X_BCYC, X_VSA, X_VSB };

static const mpp_coll_ops *ops;

/* --- the definitions, independently (bit loops) ---------------------------- */

static uint32_t bit(uint32_t x, uint32_t b) { return (x >> b) & 1u; }

typedef struct ref_perm {
    const char *perm;
    uint32_t m, k;
    bool fft;
    uint32_t dims[16];
    uint32_t ndims;
} ref_perm;

static uint32_t ref_of(const ref_perm *r, uint32_t n, uint32_t i)
{
    uint32_t d = 0;
    if (!strcmp(r->perm, "transpose")) {
        /* the low floor(n/2) bits go up above the high ceil(n/2) bits */
        uint32_t lo = n / 2, hi = n - lo;
        for (uint32_t b = 0; b < n; b++)
            d |= bit(i, b) << (b < lo ? b + hi : b - lo);
    } else if (!strcmp(r->perm, "bit_reversal")) {
        for (uint32_t b = 0; b < n; b++)
            d |= bit(i, b) << (n - 1 - b);
    } else if (!strcmp(r->perm, "shuffle")) {
        for (uint32_t b = 0; b < n; b++)
            d |= bit(i, b) << ((b + r->m) % n);
    } else if (!strcmp(r->perm, "bit_complement")) {
        uint32_t k = r->k ? r->k : n;
        for (uint32_t b = 0; b < n; b++)
            d |= (bit(i, b) ^ (b < k)) << b;
    } else if (!strcmp(r->perm, "index_reversal") && !r->fft) {
        /* two's complement: complement every bit, add one (ripple carry) */
        uint32_t carry = 1;
        for (uint32_t b = 0; b < n; b++) {
            uint32_t x = !bit(i, b);
            d |= (x ^ carry) << b;
            carry &= x;
        }
    } else if (!strcmp(r->perm, "index_reversal")) {
        int top = -1;
        for (uint32_t b = 0; b < n; b++)
            if (bit(i, b))
                top = (int)b;
        if (top <= 0)
            return i;
        d = 1u << top;
        for (uint32_t b = 0; b < (uint32_t)top; b++)
            d |= (uint32_t)!bit(i, b) << b;
    } else { /* dimension_permutation */
        for (uint32_t b = 0; b < n; b++)
            d |= bit(i, b) << r->dims[b];
    }
    return d;
}

/* --- the plug-in ----------------------------------------------------------- */

static void set_key(mpp_blob *b, const char *key, const char *val)
{
    const mpp_param *p = mpp_schema_find(&ops->schema, key);
    CHECKF(p && mpp_param_set_text(p, val, 0, b->b) == 0, "set %s=%s", key, val);
}

static void ref_cfg(const ref_perm *r, mpp_blob *b)
{
    char txt[128];
    memset(b, 0, sizeof *b);
    mpp_schema_defaults(&ops->schema, b->b);
    set_key(b, "perm", r->perm);
    snprintf(txt, sizeof txt, "%u", r->m);
    set_key(b, "m", txt);
    snprintf(txt, sizeof txt, "%u", r->k);
    set_key(b, "k", txt);
    set_key(b, "fft", r->fft ? "true" : "false");
    size_t at = (size_t)snprintf(txt, sizeof txt, "[");
    for (uint32_t d = 0; d < r->ndims; d++)
        at += (size_t)snprintf(txt + at, sizeof txt - at, "%s%u", d ? ", " : "", r->dims[d]);
    snprintf(txt + at, sizeof txt - at, "]");
    set_key(b, "dims", txt);
}

static const char *describe(const ref_perm *r, uint32_t n)
{
    static char buf[160];
    size_t at = (size_t)snprintf(buf, sizeof buf, "n=%u %s m=%u k=%u fft=%d dims=", n, r->perm,
                                 r->m, r->k, r->fft);
    for (uint32_t d = 0; d < r->ndims; d++)
        at += (size_t)snprintf(buf + at, sizeof buf - at, "%u,", r->dims[d]);
    return buf;
}

/* Plan r on 2^n members (M bytes) and check it message by message; the
 * plug-in's table into p[] (the destination of every member's one send,
 * itself when it sends nothing). */
static void plan_check(const ref_perm *r, uint32_t n, uint64_t M, uint32_t *p)
{
    uint32_t g = 1u << n;
    mpp_blob cfg;
    ref_cfg(r, &cfg);
    uint32_t *node = malloc(g * sizeof *node), *from = malloc(g * sizeof *from);
    for (uint32_t i = 0; i < g; i++) {
        node[i] = i;
        p[i] = i;
        from[i] = UINT32_MAX;
    }
    mpp_coll_args a = {.M = M, .cfg = cfg.b};
    mpp_coll_plan pl;
    mpp_err err;
    int rc = mpp_coll_plan_init(&pl, g, MPP_PARADIGM_AM_PUT, 0,
                                MPP_COLL_TRACK | MPP_COLL_PROGRAMS, &err);
    CHECKF(rc == 0, "%s: %s", describe(r, n), err.msg);
    if (rc)
        goto out;
    /* mpp_coll_plan_groups by hand, to read the holdings before the group
     * ends */
    mpp_coll_group grp = {g, node};
    void *ctx = NULL;
    uint64_t *bytes = malloc(g * sizeof *bytes);
    uint32_t *origin = malloc(g * sizeof *origin);
    rc = ops->prepare(&a, g, g, &ctx, &err);
    if (!rc) {
        a.ctx = ctx;
        CHECK(ops->nitems(&a, g) == g);
        ops->items(&a, g, bytes, origin);
        for (uint32_t i = 0; i < g; i++)
            CHECK(bytes[i] == M && origin[i] == i);
        rc = mpp_coll_group_begin(&pl, &grp, g, bytes, origin, &err);
    }
    if (!rc && (rc = ops->build(&pl, &a, &err)))
        mpp_coll_group_end(&pl);
    free(bytes);
    free(origin);
    CHECKF(rc == 0, "%s: %s", describe(r, n), err.msg);
    if (rc) {
        ops->release(ctx);
        goto done;
    }
    uint32_t moving = 0;
    for (uint32_t i = 0; i < g; i++)
        moving += ref_of(r, n, i) != i;
    CHECKF(pl.nmsgs == moving && pl.nbytes == moving * M && pl.steps_used == (moving > 0),
           "%s: %llu messages, %llu bytes, %u steps; expected %u messages", describe(r, n),
           (unsigned long long)pl.nmsgs, (unsigned long long)pl.nbytes, pl.steps_used, moving);
    /* every node's program: at most one send (M bytes) and one receive */
    for (uint32_t i = 0; i < g; i++) {
        const mpp_program *pr = &pl.pb.prog[i];
        uint32_t sends = 0, recvs = 0;
        for (uint32_t k = 0; k < pr->len; k++) {
            const mpp_op *op = &pr->ops[k];
            if (op->code == MPP_OP_SEND || op->code == MPP_OP_ISEND) {
                sends++;
                p[i] = op->peer;
                CHECKF(op->bytes == M, "%s: node %u sends %llu bytes", describe(r, n), i,
                       (unsigned long long)op->bytes);
            } else if (op->code == MPP_OP_RECV || op->code == MPP_OP_IRECV) {
                recvs++;
                from[i] = op->peer;
            }
        }
        CHECKF(sends <= 1 && recvs <= 1, "%s: node %u sends %u, receives %u", describe(r, n),
               i, sends, recvs);
    }
    for (uint32_t i = 0; i < g; i++) {
        uint32_t want = ref_of(r, n, i);
        CHECKF(p[i] == want, "%s: member %u sends to %u, expected %u", describe(r, n), i, p[i],
               want);
        if (want != i)
            CHECKF(from[want] == i, "%s: member %u receives from %u, expected %u",
                   describe(r, n), want, from[want], i);
        /* holdings: p(i) got item i once; a member holds its own block and
         * the block it received, nothing else */
        CHECKF(mpp_coll_holds(&pl, want, i) && mpp_coll_received(&pl, want, i) == (want != i),
               "%s: member %u lacks item %u", describe(r, n), want, i);
    }
    for (uint32_t m = 0; m < g; m++) {
        uint32_t held = 0;
        for (uint32_t i = 0; i < g; i++)
            held += mpp_coll_holds(&pl, m, i);
        bool moved_in = from[m] != UINT32_MAX;
        CHECKF(held == 1u + moved_in && moved_in == (ref_of(r, n, m) != m),
               "%s: member %u holds %u items (receives: %d)", describe(r, n), m, held,
               moved_in);
    }
    /* what the plug-in says each member must hold: its own block and the
     * block sent to it */
    for (uint32_t m = 0; m < g; m++)
        for (uint32_t i = 0; i < g; i++) {
            bool want = m == i || ref_of(r, n, i) == m;
            CHECKF(ops->wants(&a, g, m, i) == want && mpp_coll_holds(&pl, m, i) == want,
                   "%s: member %u item %u", describe(r, n), m, i);
        }
    CHECK(ops->crossings(&a, g) == moving);
    mpp_coll_group_end(&pl);
    ops->release(ctx);
done:
    mpp_coll_plan_free(&pl);
out:
    free(node);
    free(from);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(uint32_t below)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state % below);
}

static bool is_identity(const uint32_t *p, uint32_t g)
{
    for (uint32_t i = 0; i < g; i++)
        if (p[i] != i)
            return false;
    return true;
}

static void test_plans(void)
{
    uint32_t plans = 0;
    uint32_t *p = malloc(1024 * sizeof *p), *q = malloc(1024 * sizeof *q);
    for (uint32_t n = 1; n <= 10; n++) {
        uint32_t g = 1u << n;
        uint64_t M = 100 + n;
        ref_perm r;
        /* transpose: twice is the identity for even n, else a rotation by
         * one bit */
        r = (ref_perm){.perm = "transpose"};
        plan_check(&r, n, M, p);
        bool ok = true;
        for (uint32_t i = 0; i < g; i++) {
            uint32_t twice = p[p[i]];
            uint32_t rot1 = ((i << 1) | (i >> (n - 1))) & (g - 1);
            ok &= n % 2 == 0 ? twice == i : twice == rot1;
        }
        CHECKF(ok, "n=%u: transpose twice is not %s", n, n % 2 ? "a rotation by one" : "the identity");
        plans++;
        /* bit_reversal: an involution */
        r = (ref_perm){.perm = "bit_reversal"};
        plan_check(&r, n, M, p);
        ok = true;
        for (uint32_t i = 0; i < g; i++)
            ok &= p[p[i]] == i;
        CHECKF(ok, "n=%u: bit_reversal is not an involution", n);
        plans++;
        /* shuffle m then n - m: the identity (m = 1 .. n - 1, and m > n) */
        for (uint32_t m = 1; m <= n + 1; m++) {
            if (n > 6 && m > 2 && m < n - 1)
                continue; /* a few on the larger cubes */
            r = (ref_perm){.perm = "shuffle", .m = m};
            plan_check(&r, n, M, p);
            r.m = n - m % n;
            plan_check(&r, n, M, q);
            ok = true;
            for (uint32_t i = 0; i < g; i++)
                ok &= q[p[i]] == i;
            CHECKF(ok, "n=%u: shuffle %u then %u is not the identity", n, m, n - m % n);
            CHECKF((m % n == 0) == is_identity(p, g), "n=%u: shuffle %u", n, m);
            plans += 2;
        }
        /* bit_complement k = 0 .. n: involutions */
        uint32_t *bc = malloc(g * sizeof *bc);
        for (uint32_t k = 0; k <= n; k++) {
            r = (ref_perm){.perm = "bit_complement", .k = k};
            plan_check(&r, n, M, p);
            ok = true;
            for (uint32_t i = 0; i < g; i++)
                ok &= p[p[i]] == i && p[i] != i;
            CHECKF(ok, "n=%u: bit_complement k=%u is not a fixed-point-free involution", n, k);
            if (k == 0)
                memcpy(bc, p, g * sizeof *p);
            plans++;
        }
        /* index_reversal: not bit_complement (i -> N - i against ~i) */
        r = (ref_perm){.perm = "index_reversal"};
        plan_check(&r, n, M, p);
        CHECKF(memcmp(p, bc, g * sizeof *p) != 0, "n=%u: index_reversal == bit_complement", n);
        CHECKF(p[0] == 0 && p[1] == g - 1, "n=%u: index_reversal 0 -> %u, 1 -> %u", n, p[0],
               p[1]);
        r.fft = true;
        plan_check(&r, n, M, p);
        CHECKF(p[0] == 0 && p[1] == 1, "n=%u: fft index_reversal moves 0 or 1", n);
        plans += 2;
        free(bc);
        /* dimension_permutation: the identity, the reversal (= bit_reversal),
         * a rotation, random ones */
        r = (ref_perm){.perm = "dimension_permutation", .ndims = n};
        for (uint32_t d = 0; d < n; d++)
            r.dims[d] = d;
        plan_check(&r, n, M, p);
        CHECKF(is_identity(p, g), "n=%u: identity dims moved something", n);
        for (uint32_t d = 0; d < n; d++)
            r.dims[d] = n - 1 - d;
        plan_check(&r, n, M, p);
        r = (ref_perm){.perm = "bit_reversal"};
        plan_check(&r, n, M, q);
        CHECKF(memcmp(p, q, g * sizeof *p) == 0, "n=%u: reversed dims != bit_reversal", n);
        r = (ref_perm){.perm = "dimension_permutation", .ndims = n};
        for (uint32_t d = 0; d < n; d++)
            r.dims[d] = (d + 1) % n; /* = shuffle 1 */
        plan_check(&r, n, M, p);
        r = (ref_perm){.perm = "shuffle", .m = 1};
        plan_check(&r, n, M, q);
        CHECKF(memcmp(p, q, g * sizeof *p) == 0, "n=%u: rotated dims != shuffle 1", n);
        plans += 5;
        for (int x = 0; x < 4; x++) {
            r = (ref_perm){.perm = "dimension_permutation", .ndims = n};
            for (uint32_t d = 0; d < n; d++)
                r.dims[d] = d;
            for (uint32_t d = n; d > 1; d--) {
                uint32_t j = rnd(d), t = r.dims[d - 1];
                r.dims[d - 1] = r.dims[j];
                r.dims[j] = t;
            }
            plan_check(&r, n, M, p);
            plans++;
        }
    }
    /* one member: nothing moves */
    ref_perm r = {.perm = "transpose"};
    plan_check(&r, 0, 10, p);
    printf("plans: %u checked message by message on 2^1 .. 2^10 members\n", plans);
    free(p);
    free(q);
}

/* prepare refuses bad keys with MPP_EINVAL and a message naming the key. */
static void expect_refused(const ref_perm *r, uint32_t g, uint64_t chunk, const char *part)
{
    mpp_blob cfg;
    ref_cfg(r, &cfg);
    mpp_coll_args a = {.M = 100, .chunk = chunk, .cfg = cfg.b};
    void *ctx = NULL;
    mpp_err err = {0};
    int rc = ops->prepare(&a, g, g, &ctx, &err);
    CHECKF(rc == MPP_EINVAL && strstr(err.msg, part) && !ctx, "%s g=%u: rc %d '%s'",
           describe(r, 0), g, rc, err.msg);
    if (rc == MPP_EINVAL)
        printf("refused: %s\n", err.msg);
    ops->release(ctx);
}

static void test_refusals(void)
{
    ref_perm r = {.perm = "dimension_permutation", .ndims = 3, .dims = {0, 0, 1}};
    expect_refused(&r, 8, 0, "workload.permute.dims [0, 0, 1]: dimension 0 appears twice");
    r = (ref_perm){.perm = "dimension_permutation", .ndims = 3, .dims = {0, 3, 1}};
    expect_refused(&r, 8, 0, "dimension 3 is out of range; expected a permutation of 0..2");
    r = (ref_perm){.perm = "dimension_permutation", .ndims = 2, .dims = {1, 0}};
    expect_refused(&r, 8, 0, "2 entries");
    r = (ref_perm){.perm = "dimension_permutation"};
    expect_refused(&r, 8, 0, "workload.permute.dims is required");
    r = (ref_perm){.perm = "bit_complement", .k = 4};
    expect_refused(&r, 8, 0, "workload.permute.k = 4");
    r = (ref_perm){.perm = "transpose"};
    expect_refused(&r, 8, 16, "workload.chunk");
    expect_refused(&r, 12, 0, "power-of-two");
    /* k = n and any shuffle m are fine */
    r = (ref_perm){.perm = "bit_complement", .k = 3};
    mpp_blob cfg;
    ref_cfg(&r, &cfg);
    mpp_coll_args a = {.M = 100, .cfg = cfg.b};
    void *ctx = NULL;
    mpp_err err;
    CHECK(ops->prepare(&a, 8, 8, &ctx, &err) == 0 && ctx);
    ops->release(ctx);
    r = (ref_perm){.perm = "shuffle", .m = 1000};
    ref_cfg(&r, &cfg);
    ctx = NULL;
    CHECK(ops->prepare(&a, 8, 8, &ctx, &err) == 0 && ctx);
    ops->release(ctx);
}

/* End to end: hypercubes routed by e-cube (the analytic time follows the
 * e-cube paths), 1 KiB blocks, the hypercube preset's processors. */
static void test_runs(void)
{
    static const char *const perms[] = {
        "perm: transpose",      "perm: bit_reversal",   "perm: shuffle, m: 1",
        "perm: bit_complement", "perm: index_reversal", "perm: index_reversal, fft: true",
        "perm: bit_complement, k: 2",
    };
    double worst = 0, tr6 = 0, bc6 = 0;
    for (uint32_t dim = 4; dim <= 6; dim += 2)
        for (size_t k = 0; k < sizeof perms / sizeof perms[0]; k++) {
            char text[512];
            snprintf(text, sizeof text,
                     "mppnet: 1\nmachine: hypercube\nnetwork: {hypercube: {dim: %u}, "
                     "allocator: age, router: ecube}\nworkload: {type: collective, collective: "
                     "permute, bytes: 1KiB, permute: {%s}}\n",
                     dim, perms[k]);
            mpp_sim *s = test_run_text(text, 0, NULL);
            if (!s)
                continue;
            const mpp_sim_result *res = mpp_sim_result_get(s);
            double c = (double)res->extra[X_CYC].u, an = res->extra[X_ACYC].d,
                   bd = res->extra[X_BCYC].d;
            printf("2^%u ecube %-32s measured %6.0f analytic %8.1f bound %6.0f: "
                   "vs_analytic %.4f vs_bound %.2f\n",
                   dim, perms[k], c, an, bd, c / an, c / bd);
            CHECKF(an > 0 && fabs(c / an - 1) <= 0.03, "2^%u %s: %.0f vs analytic %.1f", dim,
                   perms[k], c, an);
            CHECKF(c >= bd, "2^%u %s: %.0f below the bound %.1f", dim, perms[k], c, bd);
            if (dim == 6 && k == 0)
                tr6 = c;
            if (dim == 6 && k == 3)
                bc6 = c;
            if (an > 0 && fabs(c / an - 1) > worst)
                worst = fabs(c / an - 1);
            mpp_sim_destroy(s);
        }
    printf("runs: worst |measured / analytic - 1| = %.2f%%\n", 100 * worst);
    /* transpose loads e-cube's links (up to 4 messages on a link of the
     * 2^6 cube): much slower than bit_complement, contention-free under
     * e-cube */
    CHECKF(tr6 > 2 * bc6, "2^6: transpose %.0f, bit_complement %.0f", tr6, bc6);
}

int main(void)
{
    ops = mpp_coll_find("permute");
    CHECK(ops != NULL);
    if (!ops)
        TEST_DONE();
    test_plans();
    test_refusals();
    test_runs();
    TEST_DONE();
}
