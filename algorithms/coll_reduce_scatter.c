/* algorithms/coll_reduce_scatter.c — all-to-all reduction: every member
 * holds g blocks of M bytes; member i ends with the combination of every
 * member's block i (workload.reduce_scatter.op), by recursive halving: on
 * P = 2^n members, in step j = n-1 .. 0 member i sends its partner i ^ 2^j
 * the half of the blocks it is still responsible for that the partner
 * keeps (those whose final owner agrees with the partner on bits j and
 * up), and combines the other half with what the partner sends. On g = P +
 * x members block b's final owner among the P is b mod P: the x extra
 * members first fold their whole vector into members 0 .. x-1, which at the
 * end send them their block. With all-port nodes that have a link per
 * dimension every block is cut into n parts, part k halving along the
 * dimensions in the order n-1+k, n-2+k, ... (mod n), so that a member sends
 * on all its links in every step. */
#include "algorithms/coll_red.h"

#include <stdlib.h>

static int rs_prepare(const mpp_coll_args *a, uint32_t g, uint32_t N, void **ctx, mpp_err *err)
{
    (void)N;
    return mpp_coll_red_prepare(a, g, "reduce_scatter", true, false,
                                mpp_coll_red_parts(a, g), ctx, err);
}

static uint64_t rs_crossings(const mpp_coll_args *a, uint32_t g)
{
    const mpp_coll_red_ctx *r = a->ctx;
    uint32_t P = mpp_coll_red_pow2_below(g);
    return 2 * (uint64_t)(g - P) + (uint64_t)P * mpp_coll_red_dims(P) * r->q;
}

static bool rs_wants(const mpp_coll_args *a, uint32_t g, uint32_t m, uint32_t i)
{
    const mpp_coll_red_ctx *r = a->ctx;
    (void)g;
    return (i % r->S) / r->q == m || i / r->S == m;
}

static int rs_build(mpp_coll_plan *pl, const mpp_coll_args *a, mpp_err *err)
{
    mpp_coll_red_ctx *r = a->ctx;
    uint32_t g = r->g, P = mpp_coll_red_pow2_below(g), x = g - P, n = mpp_coll_red_dims(P);
    mpp_coll_red_start(r);
    if (g < 2)
        return 0;
    uint32_t q = r->q, S = r->S;
    uint32_t *seg = malloc((size_t)S * sizeof *seg);
    if (!seg)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    int rc = 0;
    /* 0: fold the extra members; 1 .. n: halving; n + 1: the extra members'
     * blocks back. Part k of every block halves along dimensions n - 1 + k,
     * n - 2 + k, ... (mod n): in step st it goes to the partner across
     * d = n - st + k, for the blocks whose final owner agrees with the
     * partner on d and the dimensions of part k's earlier steps. */
    for (uint32_t st = 0; st <= n + 1 && !rc; st++) {
        if ((st == 0 || st == n + 1) && !x)
            continue;
        mpp_coll_step_begin(pl);
        mpp_coll_red_snapshot(r);
        if (st == 0) {
            for (uint32_t s = 0; s < S; s++)
                seg[s] = s;
            for (uint32_t i = 0; i < x && !rc; i++)
                rc = mpp_coll_red_send(pl, r, P + i, i, seg, S, true, false, err);
        } else if (st == n + 1) {
            for (uint32_t i = 0; i < x && !rc; i++) {
                for (uint32_t k = 0; k < q; k++)
                    seg[k] = (P + i) * q + k;
                rc = mpp_coll_red_send(pl, r, i, P + i, seg, q, false, false, err);
            }
        } else {
            for (uint32_t k = 0; k < q && !rc; k++) {
                uint32_t mask = 0, d = 0;
                for (uint32_t t = 1; t <= st; t++)
                    mask |= 1u << (d = (n - t + k) % n);
                for (uint32_t i = 0; i < P && !rc; i++) {
                    uint32_t p = i ^ (1u << d), c = 0;
                    for (uint32_t b = 0; b < g; b++)
                        if ((((b % P) ^ p) & mask) == 0)
                            seg[c++] = b * q + k;
                    rc = mpp_coll_red_send(pl, r, i, p, seg, c, true, false, err);
                }
            }
        }
        int e = mpp_coll_step_end(pl, err);
        if (!rc)
            rc = e;
    }
    free(seg);
    return rc;
}

extern const mpp_coll_ops mpp_coll_reduce_scatter;

static double rs_analytic(const mpp_coll_model *m, const mpp_coll_args *a)
{
    return mpp_coll_steps(&mpp_coll_reduce_scatter, m, a);
}

/* every member's contributions to the g - 1 other blocks must leave it:
 * at least (g - 1) M bytes sent */
static double rs_bound(const mpp_coll_model *m, const mpp_coll_args *a)
{
    return mpp_coll_red_bound_bytes(m, (double)(m->g - 1) * (double)a->M);
}

const mpp_coll_ops mpp_coll_reduce_scatter = {
    .name = "reduce_scatter",
    .help = "all-to-all reduction (member i ends with every member's block i combined) by "
            "recursive halving",
    .schema = {mpp_coll_red_scatter_params, MPP_COLL_RED_NPARAMS + 1,
               sizeof(mpp_coll_red_cfg)},
    .groups = MPP_COLL_ANY,
    .rooted = false,
    .prepare = rs_prepare,
    .release = mpp_coll_red_release,
    .nitems = mpp_coll_red_nitems,
    .crossings = rs_crossings,
    .items = mpp_coll_red_items,
    .wants = rs_wants,
    .build = rs_build,
    .analytic = rs_analytic,
    .bound = rs_bound,
};
