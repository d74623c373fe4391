/* algorithms/coll_permute.c — `permute`: the fixed permutations of a cube
 * of N = 2^n members as a collective (coll.h). Member i (its n-bit cube
 * address) sends its block of M bytes to member p(i), all of them in ONE
 * step, one message each; a fixed point (p(i) = i) sends nothing. Item i is
 * member i's block; member p(i) must end holding it.
 *
 * The permutations (key `perm`; the other keys are its parameters):
 *   transpose              the two halves of the address trade places.
 *                          With n odd, the high ceil(n/2) bits and the low
 *                          floor(n/2) bits do: p(i) is i rotated left by
 *                          ceil(n/2) bits (then transpose twice is a
 *                          rotation by one bit, not the identity);
 *   bit_reversal           the n address bits reversed;
 *   shuffle                i rotated left by `m` bits (m mod n);
 *   bit_complement         the low `k` bits complemented (k = 0: all n;
 *                          a bit-complement within every subcube of 2^k);
 *   index_reversal         i -> (N - i) mod N: bit-complement plus one;
 *                          with `fft: true` the real-to-complex FFT form, a
 *                          bit-complement within the subcubes 00..01x..x:
 *                          i with its highest set bit at j goes to
 *                          2^j | (~i & (2^j - 1)); 0 and 1 stay;
 *   dimension_permutation  address bit d of the source is bit dims[d] of
 *                          the destination (`dims`: a list of the n
 *                          dimensions, each once; so at most 16 dimensions,
 *                          MPP_U32LIST_MAX).
 *
 * prepare checks the keys against the group (g = 2^n members; k <= n; dims
 * a permutation of 0..n-1; chunk 0: a block goes whole, in one message, so
 * a chunk is refused rather than ignored) and makes the table p[] (ctx).
 *
 * Time. `.links` is set: routed by e-cube on a hypercube or in dimension
 * order on a mesh, mpp_coll_analytic times the step by the step recurrence
 * that follows the messages' paths and sees them share links (transpose
 * and bit_reversal load a link of a hypercube with up to 2^(floor(n/2) - 1)
 * messages). Elsewhere (valiant, romm, the fat tree) `analytic` is the
 * same recurrence without links (mpp_coll_schedule_time), i.e. as if the
 * permutation were contention-free.
 * The lower bound is one block at the link rate (M * byte) plus the head's
 * latency over the longest route (mpp_coll_latency of the largest distance
 * between a member and its destination). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/coll.h"

enum {
    PERM_TRANSPOSE = 0,
    PERM_BIT_REVERSAL,
    PERM_SHUFFLE,
    PERM_BIT_COMPLEMENT,
    PERM_INDEX_REVERSAL,
    PERM_DIMENSION
};

static const char *const perm_names[] = {"transpose",      "bit_reversal",   "shuffle",
                                         "bit_complement", "index_reversal", "dimension_permutation",
                                         NULL};

/* The plug-in's keys (workload.permute: {...}). */
typedef struct perm_cfg {
    int perm;
    uint32_t m, k;
    bool fft;
    mpp_u32list dims;
} perm_cfg;

static const mpp_param perm_params[] = {
    {"perm", MPP_PT_ENUM, offsetof(perm_cfg, perm), "transpose", 0, 0, perm_names,
     "the permutation of the cube addresses"},
    {"m", MPP_PT_U32, offsetof(perm_cfg, m), "1", 0, 1e9, NULL,
     "shuffle: rotate the address left by m bits (m mod n)"},
    {"k", MPP_PT_U32, offsetof(perm_cfg, k), "0", 0, 31, NULL,
     "bit_complement: complement the low k address bits (0: all n; at most n)"},
    {"fft", MPP_PT_BOOL, offsetof(perm_cfg, fft), "false", 0, 0, NULL,
     "index_reversal: the real-to-complex FFT form (bit-complement within the subcubes "
     "0..01x..x) instead of i -> (N - i) mod N"},
    {"dims", MPP_PT_U32LIST, offsetof(perm_cfg, dims), "[]", 0, 31, NULL,
     "dimension_permutation: address bit d moves to bit dims[d] (a list of the n "
     "dimensions, each once)"},
};

/* What prepare makes: the table of the group's permutation. */
typedef struct perm_ctx {
    uint32_t g;
    uint32_t *p; /* [g] member i sends to p[i] */
} perm_ctx;

/* The low n bits of x rotated left by r (0 <= r < n). */
static uint32_t rotl(uint32_t x, uint32_t r, uint32_t n)
{
    uint32_t mask = n >= 32 ? UINT32_MAX : (1u << n) - 1;
    if (!r)
        return x & mask;
    return ((x << r) | (x >> (n - r))) & mask;
}

/* p(i) of a checked configuration on 2^n members (file comment). */
static uint32_t perm_of(const perm_cfg *c, uint32_t n, uint32_t i)
{
    uint32_t g = 1u << n, mask = g - 1;
    switch (c->perm) {
    case PERM_BIT_REVERSAL: {
        uint32_t r = 0;
        for (uint32_t d = 0; d < n; d++)
            r |= ((i >> d) & 1u) << (n - 1 - d);
        return r;
    }
    case PERM_SHUFFLE:
        return n ? rotl(i, c->m % n, n) : i;
    case PERM_BIT_COMPLEMENT:
        return i ^ (c->k ? (1u << c->k) - 1 : mask);
    case PERM_INDEX_REVERSAL:
        if (c->fft) {
            if (i < 2)
                return i;
            uint32_t hi = 1u << (31 - __builtin_clz(i));
            return hi | (~i & (hi - 1));
        }
        return (g - i) & mask;
    case PERM_DIMENSION: {
        uint32_t r = 0;
        for (uint32_t d = 0; d < n; d++)
            r |= ((i >> d) & 1u) << c->dims.v[d];
        return r;
    }
    default: /* transpose: rotated left by ceil(n/2) */
        return n ? rotl(i, (n + 1) / 2 % n, n) : i;
    }
}

/* dims as "[a, b, c]" (for the messages). */
static void dims_text(const mpp_u32list *l, char *buf, size_t len)
{
    size_t at = 0;
    at += (size_t)snprintf(buf, len, "[");
    for (uint32_t d = 0; d < l->n && at < len; d++)
        at += (size_t)snprintf(buf + at, len - at, "%s%u", d ? ", " : "", l->v[d]);
    if (at < len)
        snprintf(buf + at, len - at, "]");
}

/* Is dims a permutation of the n dimensions? MPP_EINVAL naming the key. */
static int check_dims(const mpp_u32list *l, uint32_t n, uint32_t g, mpp_err *err)
{
    char txt[128];
    dims_text(l, txt, sizeof txt);
    if (l->n == 0 && n > 0) {
        /* an example: the rotation by one dimension */
        mpp_u32list ex = {.n = n < MPP_U32LIST_MAX ? n : MPP_U32LIST_MAX};
        for (uint32_t d = 0; d < ex.n; d++)
            ex.v[d] = (d + 1) % n;
        dims_text(&ex, txt, sizeof txt);
        return mpp_err_set(err, MPP_EINVAL,
                           "workload.permute.dims is required for perm: dimension_permutation: "
                           "a list of the %u dimensions of the %u-member cube, each once (a "
                           "permutation of 0..%u, e.g. workload.permute.dims=%s)",
                           n, g, n - 1, txt);
    }
    if (n > MPP_U32LIST_MAX)
        return mpp_err_set(err, MPP_EINVAL,
                           "workload.permute.dims %s: the cube has %u dimensions (%u members) "
                           "but a list holds at most %u: dimension_permutation runs on groups "
                           "of up to 2^%u members",
                           txt, n, g, MPP_U32LIST_MAX, MPP_U32LIST_MAX);
    if (l->n != n)
        return mpp_err_set(err, MPP_EINVAL,
                           "workload.permute.dims %s: %u entries, but the %u-member cube has %u "
                           "dimensions; expected a permutation of 0..%u",
                           txt, l->n, g, n, n ? n - 1 : 0);
    uint32_t seen = 0;
    for (uint32_t d = 0; d < n; d++) {
        uint32_t v = l->v[d];
        if (v >= n)
            return mpp_err_set(err, MPP_EINVAL,
                               "workload.permute.dims %s: dimension %u is out of range; "
                               "expected a permutation of 0..%u",
                               txt, v, n - 1);
        if (seen & (1u << v))
            return mpp_err_set(err, MPP_EINVAL,
                               "workload.permute.dims %s: dimension %u appears twice; expected "
                               "a permutation of 0..%u",
                               txt, v, n - 1);
        seen |= 1u << v;
    }
    return 0;
}

static void perm_release(void *ctx)
{
    perm_ctx *c = ctx;
    if (!c)
        return;
    free(c->p);
    free(c);
}

/* Check the keys against a cube of g members and make the table. */
static int perm_prepare(const mpp_coll_args *a, uint32_t g, uint32_t N, void **ctx,
                        mpp_err *err)
{
    (void)N;
    *ctx = NULL;
    perm_cfg def;
    const perm_cfg *c = a->cfg;
    if (!c) {
        static const mpp_schema sc = {perm_params, MPP_COUNTOF(perm_params), sizeof(perm_cfg)};
        mpp_schema_defaults(&sc, &def);
        c = &def;
    }
    if (!g || (g & (g - 1)))
        return mpp_err_set(err, MPP_EINVAL,
                           "workload.collective permute needs a power-of-two group (cube "
                           "addresses); this one has %u members",
                           g);
    if (a->chunk)
        return mpp_err_set(err, MPP_EINVAL,
                           "workload.chunk = %llu: permute sends every block whole, in one "
                           "message (chunk must be 0)",
                           (unsigned long long)a->chunk);
    uint32_t n = mpp_coll_log2(g);
    if (c->perm == PERM_BIT_COMPLEMENT && c->k > n)
        return mpp_err_set(err, MPP_EINVAL,
                           "workload.permute.k = %u is larger than the cube's %u dimensions "
                           "(%u members): 0 (every bit) to %u",
                           c->k, n, g, n);
    int rc;
    if (c->perm == PERM_DIMENSION && (rc = check_dims(&c->dims, n, g, err)))
        return rc;
    perm_ctx *x = calloc(1, sizeof *x);
    if (x)
        x->p = malloc((size_t)g * sizeof *x->p);
    if (!x || !x->p) {
        perm_release(x);
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    }
    x->g = g;
    for (uint32_t i = 0; i < g; i++)
        x->p[i] = perm_of(c, n, i);
    *ctx = x;
    return 0;
}

/* The table of a's group: its ctx (the hooks of a plan always have it). */
static const uint32_t *table(const mpp_coll_args *a, uint32_t g)
{
    const perm_ctx *c = a->ctx;
    return c && c->g == g ? c->p : NULL;
}

static uint64_t perm_nitems(const mpp_coll_args *a, uint32_t g)
{
    (void)a;
    return g;
}

static void perm_items(const mpp_coll_args *a, uint32_t g, uint64_t *bytes, uint32_t *origin)
{
    for (uint32_t i = 0; i < g; i++) {
        bytes[i] = a->M;
        origin[i] = i;
    }
}

/* The messages: one per member that moves (g without the table). */
static uint64_t perm_crossings(const mpp_coll_args *a, uint32_t g)
{
    const uint32_t *p = table(a, g);
    if (!p)
        return g;
    uint64_t x = 0;
    for (uint32_t i = 0; i < g; i++)
        x += p[i] != i;
    return x;
}

static bool perm_wants(const mpp_coll_args *a, uint32_t g, uint32_t m, uint32_t i)
{
    const uint32_t *p = table(a, g);
    return m == i || (p && m == p[i]);
}

static int perm_build(mpp_coll_plan *pl, const mpp_coll_args *a, mpp_err *err)
{
    uint32_t g = pl->grp.g;
    const uint32_t *p = table(a, g);
    if (!p)
        return mpp_err_set(err, MPP_EINVAL, "collective permute: no table (a caller bug)");
    if (g < 2)
        return 0;
    int rc = 0;
    mpp_coll_step_begin(pl);
    for (uint32_t i = 0; i < g && !rc; i++)
        if (p[i] != i)
            rc = mpp_coll_send(pl, i, p[i], &i, 1, err);
    int rc2 = mpp_coll_step_end(pl, err);
    return rc ? rc : rc2;
}

/* The longest distance from a moving member to its destination (-1 for
 * the identity), its table made here when a has none. */
static double perm_hmax(const mpp_coll_model *m, const mpp_coll_args *a)
{
    void *own = NULL;
    mpp_err err;
    mpp_coll_args b = *a;
    if (!table(&b, m->g)) {
        if (perm_prepare(&b, m->g, m->g, &own, &err))
            return -1;
        b.ctx = own;
    }
    const uint32_t *p = table(&b, m->g);
    double h = -1;
    for (uint32_t i = 0; i < m->g; i++)
        if (p[i] != i) {
            double d = mpp_coll_hops(m, i, p[i]);
            if (d > h)
                h = d;
        }
    perm_release(own);
    return h;
}

extern const mpp_coll_ops mpp_coll_permute;

/* The step recurrence of the one step (mpp_coll_schedule_time; without
 * the links where mpp_coll_analytic asks: valiant, romm). A closed form,
 * exchange_time(M, h_max, 1, 1), equals it on link-limited machines (the
 * hypercube preset) but not where the processors set the pace (on the
 * Paragon preset it is 14% above it on 4 x 4); 0 when it cannot be
 * planned. */
static double perm_analytic(const mpp_coll_model *m, const mpp_coll_args *a)
{
    return mpp_coll_steps(&mpp_coll_permute, m, a);
}

/* One block at the link rate plus the head's trip over the longest route
 * (0 for the identity). */
static double perm_bound(const mpp_coll_model *m, const mpp_coll_args *a)
{
    double h = perm_hmax(m, a);
    return h < 0 ? 0 : (double)a->M * m->byte + mpp_coll_latency(m, h);
}

const mpp_coll_ops mpp_coll_permute = {
    .name = "permute",
    .help = "a fixed permutation of the cube addresses in one step (perm: transpose, "
            "bit_reversal, shuffle, bit_complement, index_reversal, dimension_permutation)",
    .schema = {perm_params, MPP_COUNTOF(perm_params), sizeof(perm_cfg)},
    .groups = MPP_COLL_CUBE,
    .rooted = false,
    .steps_all_port = false,
    .links = true,
    .prepare = perm_prepare,
    .release = perm_release,
    .nitems = perm_nitems,
    .crossings = perm_crossings,
    .items = perm_items,
    .wants = perm_wants,
    .build = perm_build,
    .analytic = perm_analytic,
    .bound = perm_bound,
};
