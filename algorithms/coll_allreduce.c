/* algorithms/coll_allreduce.c — all-reduce: every member ends with the
 * combination of every member's vector of M bytes (workload.allreduce.op).
 * Two schedules (workload.allreduce.alg):
 *   exchange       recursive doubling across the dimensions: in step j
 *                  members i and i ^ 2^j exchange their partial results
 *                  and both combine; on g = P + x members (P the largest
 *                  power of two <= g) the x extra ones first fold into
 *                  members 0 .. x-1 and get the result back at the end;
 *                  with all-port nodes that have a link per dimension the
 *                  vector is cut into n parts, part k crossing dimension
 *                  (j + k) mod n in step j, so that a member sends on all
 *                  its links at once;
 *   reduce_bcast   reduce to member 0 up the spanning binomial tree, then
 *                  broadcast the result down it, both pipelined in
 *                  segments of chunk bytes (algorithms/coll_red.h). */
#include "algorithms/coll_red.h"

#include <stdlib.h>

static int ar_alg(const mpp_coll_args *a)
{
    return a->cfg ? ((const mpp_coll_red_cfg *)a->cfg)->alg : MPP_RED_EXCHANGE;
}

static int ar_prepare(const mpp_coll_args *a, uint32_t g, uint32_t N, void **ctx, mpp_err *err)
{
    (void)N;
    bool tree = ar_alg(a) == MPP_RED_REDUCE_BCAST;
    return mpp_coll_red_prepare(a, g, "allreduce", false, tree,
                                tree ? 1 : mpp_coll_red_parts(a, g), ctx, err);
}

static uint64_t ar_crossings(const mpp_coll_args *a, uint32_t g)
{
    const mpp_coll_red_ctx *r = a->ctx;
    if (ar_alg(a) == MPP_RED_REDUCE_BCAST)
        return mpp_coll_red_tree_crossings(g, r->S, true);
    uint32_t P = mpp_coll_red_pow2_below(g);
    return 2 * (uint64_t)(g - P) + (uint64_t)P * mpp_coll_red_dims(P) * r->q;
}

static bool ar_wants(const mpp_coll_args *a, uint32_t g, uint32_t m, uint32_t i)
{
    (void)a, (void)g, (void)m, (void)i;
    return true;
}

static int ar_build(mpp_coll_plan *pl, const mpp_coll_args *a, mpp_err *err)
{
    mpp_coll_red_ctx *r = a->ctx;
    if (ar_alg(a) == MPP_RED_REDUCE_BCAST)
        return mpp_coll_red_tree(pl, r, 0, true, err);
    uint32_t g = r->g, P = mpp_coll_red_pow2_below(g), x = g - P, q = r->q;
    int rc = 0;
    mpp_coll_red_start(r);
    if (g < 2)
        return 0;
    uint32_t *seg = malloc((size_t)q * sizeof *seg);
    if (!seg)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    for (uint32_t k = 0; k < q; k++)
        seg[k] = k;
    /* 0: fold the extra members; 1 .. n: the exchanges; n + 1: results back */
    for (uint32_t st = 0, n = mpp_coll_red_dims(P); st <= n + 1 && !rc; st++) {
        if ((st == 0 || st == n + 1) && !x)
            continue;
        mpp_coll_step_begin(pl);
        mpp_coll_red_snapshot(r);
        if (st == 0)
            for (uint32_t i = 0; i < x && !rc; i++)
                rc = mpp_coll_red_send(pl, r, P + i, i, seg, q, true, false, err);
        else if (st == n + 1)
            for (uint32_t i = 0; i < x && !rc; i++)
                rc = mpp_coll_red_send(pl, r, i, P + i, seg, q, false, false, err);
        else /* part k crosses dimension st - 1 + k (mod n) */
            for (uint32_t i = 0; i < P && !rc; i++)
                for (uint32_t k = 0; k < q && !rc; k++)
                    rc = mpp_coll_red_send(pl, r, i, i ^ (1u << ((st - 1 + k) % n)), &seg[k],
                                           1, true, false, err);
        int e = mpp_coll_step_end(pl, err);
        if (!rc)
            rc = e;
    }
    free(seg);
    return rc;
}

extern const mpp_coll_ops mpp_coll_allreduce;

static double ar_analytic(const mpp_coll_model *m, const mpp_coll_args *a)
{
    return mpp_coll_steps(&mpp_coll_allreduce, m, a);
}

/* every member receives at least M bytes */
static double ar_bound(const mpp_coll_model *m, const mpp_coll_args *a)
{
    return mpp_coll_red_bound_bytes(m, (double)a->M);
}

const mpp_coll_ops mpp_coll_allreduce = {
    .name = "allreduce",
    .help = "all-reduce by exchange across the dimensions, or reduce + broadcast",
    .schema = {mpp_coll_red_allreduce_params, MPP_COLL_RED_NPARAMS + 2,
               sizeof(mpp_coll_red_cfg)},
    .groups = MPP_COLL_ANY,
    .rooted = false,
    .prepare = ar_prepare,
    .release = mpp_coll_red_release,
    .nitems = mpp_coll_red_nitems,
    .crossings = ar_crossings,
    .items = mpp_coll_red_items,
    .wants = ar_wants,
    .build = ar_build,
    .analytic = ar_analytic,
    .bound = ar_bound,
};
