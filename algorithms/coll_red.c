/* algorithms/coll_red.c — what the reductions share (see coll_red.h): keys,
 * items, values, the pipelined tree of reduce and of allreduce's
 * reduce_bcast, the formula and the bound. */
#include "algorithms/coll_red.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const char *const op_names[] = {"sum", "max", "min", "and", "or", "xor", NULL};
static const char *const type_names[] = {"double", "int64", NULL};
static const char *const alg_names[] = {"exchange", "reduce_bcast", NULL};

#define RED_ROWS                                                                             \
    {"op", MPP_PT_ENUM, offsetof(mpp_coll_red_cfg, op), "sum", 0, 0, op_names,               \
     "the operation: sum, max, min (double and int64); and, or, xor (int64 only)"},          \
    {"type", MPP_PT_ENUM, offsetof(mpp_coll_red_cfg, type), "double", 0, 0, type_names,     \
     "the elements: double or int64 (8 bytes each)"},                                        \
    {"op_cycles", MPP_PT_U64, offsetof(mpp_coll_red_cfg, op_cycles), "4", 0, 1e6, NULL,      \
     "processor cycles to combine one element (load both, operate, store: an assumption, "   \
     "docs/collectives.md)"}

#define PARTS_ROW                                                                            \
    {"parts", MPP_PT_U32, offsetof(mpp_coll_red_cfg, parts), "0", 0, 32, NULL,               \
     "all-port nodes with a link per dimension: cut the vector into this many parts, each "   \
     "crossing the dimensions in its own rotated order (at most n; 0: n, every link at once; " \
     "1: one dimension a step)"}

const mpp_param mpp_coll_red_params[] = {RED_ROWS};
const mpp_param mpp_coll_red_allreduce_params[] = {
    RED_ROWS,
    {"alg", MPP_PT_ENUM, offsetof(mpp_coll_red_cfg, alg), "exchange", 0, 0, alg_names,
     "exchange (recursive doubling across the dimensions) or reduce_bcast (reduce to member "
     "0, then broadcast, both pipelined in chunks)"},
    PARTS_ROW,
};
const mpp_param mpp_coll_red_scatter_params[] = {RED_ROWS, PARTS_ROW};

#define ESIZE 8u

uint32_t mpp_coll_red_dims(uint32_t g)
{
    return g > 1 ? 32u - (uint32_t)__builtin_clz(g - 1) : 0;
}

uint32_t mpp_coll_red_pow2_below(uint32_t g)
{
    return g ? UINT32_C(1) << (31 - __builtin_clz(g)) : 0;
}

uint32_t mpp_coll_red_rel(uint32_t g, uint32_t root, uint32_t m)
{
    return !(g & (g - 1)) ? m ^ root : (m + g - root) % g;
}

uint32_t mpp_coll_red_member(uint32_t g, uint32_t root, uint32_t rel)
{
    return !(g & (g - 1)) ? rel ^ root : (rel + root) % g;
}

int mpp_coll_red_prepare(const mpp_coll_args *a, uint32_t g, const char *name, bool blocks,
                         bool pipelined, uint32_t parts, void **ctx, mpp_err *err)
{
    /* without keys (a test's plan): the schema's defaults (allreduce's rows
     * cover every field) */
    static const mpp_schema all = {mpp_coll_red_allreduce_params, MPP_COLL_RED_NPARAMS + 2,
                                   sizeof(mpp_coll_red_cfg)};
    mpp_coll_red_cfg cfg;
    if (a->cfg)
        cfg = *(const mpp_coll_red_cfg *)a->cfg;
    else
        mpp_schema_defaults(&all, &cfg);
    if (cfg.type == MPP_RED_DOUBLE && cfg.op >= MPP_RED_AND)
        return mpp_err_set(err, MPP_EINVAL,
                           "workload.%s.op = %s is not defined for type double (sum, max, "
                           "min); and, or and xor need type int64",
                           name, op_names[cfg.op]);
    if (a->M % ESIZE)
        return mpp_err_set(err, MPP_EINVAL,
                           "workload.bytes = %llu is not a whole number of %s elements (%u "
                           "bytes each)",
                           (unsigned long long)a->M, type_names[cfg.type], ESIZE);
    if (pipelined && a->chunk % ESIZE)
        return mpp_err_set(err, MPP_EINVAL,
                           "workload.chunk = %llu is not a whole number of %s elements (%u "
                           "bytes each)",
                           (unsigned long long)a->chunk, type_names[cfg.type], ESIZE);
    mpp_coll_red_ctx *r = calloc(1, sizeof *r);
    if (!r)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    r->cfg = cfg;
    r->g = g;
    uint64_t E = a->M / ESIZE;
    r->E = E;
    r->blocks = blocks ? g : 1;
    r->L = E * r->blocks;
    if (pipelined && a->chunk) {
        r->per = a->chunk / ESIZE;
        r->q = (uint32_t)((E + r->per - 1) / r->per);
    } else {
        r->per = 0;
        r->q = parts < 1 ? 1 : (uint64_t)parts > E ? (uint32_t)E : parts;
    }
    r->S = r->blocks * r->q;
    *ctx = r;
    return 0;
}

uint32_t mpp_coll_red_parts(const mpp_coll_args *a, uint32_t g)
{
    uint32_t n = mpp_coll_red_dims(mpp_coll_red_pow2_below(g));
    uint32_t want = a->cfg ? ((const mpp_coll_red_cfg *)a->cfg)->parts : 0;
    if (!mpp_coll_trees_at_once(a, n))
        return 1;
    return want && want < n ? want : n;
}

void mpp_coll_red_release(void *ctx)
{
    mpp_coll_red_ctx *r = ctx;
    if (!r)
        return;
    free(r->in);
    free(r->acc);
    free(r->pre);
    free(r->old);
    free(r);
}

int mpp_coll_red_values(mpp_coll_red_ctx *r, mpp_err *err)
{
    size_t n = (size_t)r->g * r->L;
    r->in = calloc(n ? n : 1, sizeof *r->in);
    r->acc = calloc(n ? n : 1, sizeof *r->acc);
    r->pre = calloc(n ? n : 1, sizeof *r->pre);
    r->old = calloc(n ? n : 1, sizeof *r->old);
    if (!r->in || !r->acc || !r->pre || !r->old)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    return 0;
}

uint64_t mpp_coll_red_nitems(const mpp_coll_args *a, uint32_t g)
{
    const mpp_coll_red_ctx *r = a->ctx;
    return (uint64_t)g * r->S;
}

/* Segment s is part s % q of block s / q: pieces of per elements (the last
 * shorter) when pipelined, else q balanced parts (the first E mod q one
 * element longer). */
uint64_t mpp_coll_red_seg_first(const mpp_coll_red_ctx *r, uint32_t s)
{
    uint64_t b = s / r->q, k = s % r->q;
    if (r->per)
        return b * r->E + k * r->per;
    uint64_t base = r->E / r->q, rem = r->E % r->q;
    return b * r->E + k * base + (k < rem ? k : rem);
}

uint64_t mpp_coll_red_seg_len(const mpp_coll_red_ctx *r, uint32_t s)
{
    uint64_t k = s % r->q;
    if (r->per)
        return r->E - k * r->per < r->per ? r->E - k * r->per : r->per;
    return r->E / r->q + (k < r->E % r->q ? 1 : 0);
}

uint64_t mpp_coll_red_seg_bytes(const mpp_coll_red_ctx *r, uint32_t s)
{
    return mpp_coll_red_seg_len(r, s) * ESIZE;
}

void mpp_coll_red_items(const mpp_coll_args *a, uint32_t g, uint64_t *bytes, uint32_t *origin)
{
    (void)g;
    const mpp_coll_red_ctx *r = a->ctx;
    for (uint32_t c = 0; c < r->g; c++)
        for (uint32_t s = 0; s < r->S; s++) {
            bytes[(size_t)c * r->S + s] = mpp_coll_red_seg_bytes(r, s);
            origin[(size_t)c * r->S + s] = c;
        }
}

void mpp_coll_red_start(mpp_coll_red_ctx *r)
{
    if (r->in) {
        memcpy(r->acc, r->in, (size_t)r->g * r->L * sizeof *r->acc);
        memcpy(r->pre, r->in, (size_t)r->g * r->L * sizeof *r->pre);
    }
}

void mpp_coll_red_snapshot(mpp_coll_red_ctx *r)
{
    if (r->in)
        memcpy(r->old, r->acc, (size_t)r->g * r->L * sizeof *r->old);
}

static mpp_coll_red_val apply(int type, int op, mpp_coll_red_val x, mpp_coll_red_val y)
{
    mpp_coll_red_val z;
    if (type == MPP_RED_DOUBLE) {
        z.d = op == MPP_RED_SUM   ? x.d + y.d
              : op == MPP_RED_MAX ? (y.d > x.d ? y.d : x.d)
                                  : (y.d < x.d ? y.d : x.d);
        return z;
    }
    /* integers wrap around (two's complement) instead of overflowing */
    uint64_t a = (uint64_t)x.i, b = (uint64_t)y.i;
    switch (op) {
    case MPP_RED_SUM: z.i = (int64_t)(a + b); break;
    case MPP_RED_MAX: z.i = y.i > x.i ? y.i : x.i; break;
    case MPP_RED_MIN: z.i = y.i < x.i ? y.i : x.i; break;
    case MPP_RED_AND: z.i = (int64_t)(a & b); break;
    case MPP_RED_OR: z.i = (int64_t)(a | b); break;
    default: z.i = (int64_t)(a ^ b); break;
    }
    return z;
}

int mpp_coll_red_send(mpp_coll_plan *pl, mpp_coll_red_ctx *r, uint32_t a, uint32_t b,
                      const uint32_t *seg, uint32_t n, bool combine, bool prefix, mpp_err *err)
{
    uint64_t bytes = 0, elems = 0;
    for (uint32_t k = 0; k < n; k++) {
        bytes += mpp_coll_red_seg_bytes(r, seg[k]);
        elems += mpp_coll_red_seg_len(r, seg[k]);
    }
    /* the items: every contribution a has folded in (with TRACK), else its
     * own (the message's size is `bytes` either way) */
    uint32_t own = a * r->S + seg[0], *it = &own;
    uint64_t nit = 1;
    if (pl->held) {
        it = malloc((size_t)r->g * n * sizeof *it);
        if (!it)
            return mpp_err_set(err, MPP_ENOMEM, "out of memory");
        nit = 0;
        for (uint32_t k = 0; k < n; k++)
            for (uint32_t c = 0; c < r->g; c++)
                if (mpp_coll_holds(pl, a, c * r->S + seg[k]))
                    it[nit++] = c * r->S + seg[k];
    }
    int rc = mpp_coll_send_combined(pl, a, b, it, nit, bytes, err);
    if (it != &own)
        free(it);
    if (rc)
        return rc;
    if (combine)
        mpp_coll_compute(pl, b, elems * (prefix ? 2 : 1) * r->cfg.op_cycles);
    if (!r->in)
        return 0;
    for (uint32_t k = 0; k < n; k++) {
        uint64_t f = mpp_coll_red_seg_first(r, seg[k]), len = mpp_coll_red_seg_len(r, seg[k]);
        mpp_coll_red_val *src = r->old + (size_t)a * r->L + f;
        mpp_coll_red_val *dst = r->acc + (size_t)b * r->L + f;
        mpp_coll_red_val *pre = r->pre + (size_t)b * r->L + f;
        for (uint64_t e = 0; e < len; e++) {
            dst[e] = combine ? apply(r->cfg.type, r->cfg.op, dst[e], src[e]) : src[e];
            if (prefix)
                pre[e] = apply(r->cfg.type, r->cfg.op, pre[e], src[e]);
        }
    }
    return 0;
}

mpp_coll_red_val mpp_coll_red_sequential(const mpp_coll_red_ctx *r, uint32_t first,
                                         uint32_t last, uint64_t e)
{
    mpp_coll_red_val v = r->in[(size_t)first * r->L + e];
    for (uint32_t c = first + 1; c <= last; c++)
        v = apply(r->cfg.type, r->cfg.op, v, r->in[(size_t)c * r->L + e]);
    return v;
}

double mpp_coll_red_bound_bytes(const mpp_coll_model *m, double bytes)
{
    if (m->g < 2)
        return 0;
    return bytes * m->byte / (m->all_port && m->links > 1 ? m->links : 1);
}

/* --- the pipelined tree (reduce; allreduce reduce_bcast) --------------------- */

/* A member's height in the tree of relative addresses: the root n, else
 * the number of trailing zero bits of its address; its children are
 * rel + 2^i for i below its height (those below g). */
static uint32_t height(uint32_t n, uint32_t rel)
{
    return rel ? (uint32_t)__builtin_ctz(rel) : n;
}

int mpp_coll_red_tree(mpp_coll_plan *pl, mpp_coll_red_ctx *r, uint32_t root, bool bcast,
                      mpp_err *err)
{
    uint32_t g = r->g, n = mpp_coll_red_dims(g), S = r->S;
    mpp_coll_red_start(r);
    if (g < 2)
        return 0;
    /* reduce: the member at height j sends segment s to its parent in step
     * s + j (its children, lower, sent it before); broadcast: the member at
     * height h sends segment s to its children in step s + 2n - h (its
     * parent, higher, sent it the step before; the root's segment s is
     * whole after step s + n - 1) */
    uint32_t steps = S - 1 + (bcast ? 2 * n : n);
    int rc = 0;
    for (uint32_t t = 0; t < steps && !rc; t++) {
        mpp_coll_step_begin(pl);
        mpp_coll_red_snapshot(r);
        for (uint32_t rel = 1; rel < g && !rc; rel++) {
            uint32_t j = height(n, rel);
            if (t >= j && t - j < S) {
                uint32_t s = t - j;
                rc = mpp_coll_red_send(pl, r, mpp_coll_red_member(g, root, rel),
                                       mpp_coll_red_member(g, root, rel - (1u << j)), &s, 1,
                                       true, false, err);
            }
        }
        for (uint32_t rel = 0; bcast && rel < g && !rc; rel++) {
            uint32_t h = height(n, rel), at = 2 * n - h;
            if (t < at || t - at >= S)
                continue;
            uint32_t s = t - at;
            /* the largest subtree first */
            for (uint32_t i = h; i-- > 0 && !rc;)
                if (rel + (1u << i) < g)
                    rc = mpp_coll_red_send(pl, r, mpp_coll_red_member(g, root, rel),
                                           mpp_coll_red_member(g, root, rel + (1u << i)), &s,
                                           1, false, false, err);
        }
        int e = mpp_coll_step_end(pl, err);
        if (!rc)
            rc = e;
    }
    return rc;
}

uint64_t mpp_coll_red_tree_crossings(uint32_t g, uint32_t S, bool bcast)
{
    return (uint64_t)(g ? g - 1 : 0) * S * (bcast ? 2 : 1);
}
