/* algorithms/coll_reduce.c — all-to-one reduction: every member's vector
 * of M bytes combined (workload.reduce.op) into the root's, up the spanning
 * binomial tree rooted at the root in reverse (its relative addresses,
 * algorithms/coll_red.h), pipelined in segments of chunk bytes. */
#include "algorithms/coll_red.h"

static int rd_prepare(const mpp_coll_args *a, uint32_t g, uint32_t N, void **ctx, mpp_err *err)
{
    (void)N;
    return mpp_coll_red_prepare(a, g, "reduce", false, true, 1, ctx, err);
}

static uint64_t rd_crossings(const mpp_coll_args *a, uint32_t g)
{
    const mpp_coll_red_ctx *r = a->ctx;
    return mpp_coll_red_tree_crossings(g, r->S, false);
}

static bool rd_wants(const mpp_coll_args *a, uint32_t g, uint32_t m, uint32_t i)
{
    (void)g;
    const mpp_coll_red_ctx *r = a->ctx;
    return m == a->root || i / r->S == m;
}

static int rd_build(mpp_coll_plan *pl, const mpp_coll_args *a, mpp_err *err)
{
    return mpp_coll_red_tree(pl, a->ctx, a->root, false, err);
}

extern const mpp_coll_ops mpp_coll_reduce;

static double rd_analytic(const mpp_coll_model *m, const mpp_coll_args *a)
{
    return mpp_coll_steps(&mpp_coll_reduce, m, a);
}

/* the root receives at least M bytes */
static double rd_bound(const mpp_coll_model *m, const mpp_coll_args *a)
{
    return mpp_coll_red_bound_bytes(m, (double)a->M);
}

const mpp_coll_ops mpp_coll_reduce = {
    .name = "reduce",
    .help = "all-to-one reduction (sum, max, min, ...) up the spanning binomial tree, "
            "pipelined in chunks",
    .schema = {mpp_coll_red_params, MPP_COLL_RED_NPARAMS, sizeof(mpp_coll_red_cfg)},
    .groups = MPP_COLL_ANY,
    .rooted = true,
    .prepare = rd_prepare,
    .release = mpp_coll_red_release,
    .nitems = mpp_coll_red_nitems,
    .crossings = rd_crossings,
    .items = mpp_coll_red_items,
    .wants = rd_wants,
    .build = rd_build,
    .analytic = rd_analytic,
    .bound = rd_bound,
};
