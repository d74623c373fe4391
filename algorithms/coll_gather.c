/* algorithms/coll_gather.c — all-to-one personalized: every member sends the
 * root its own block of M bytes, up the spanning binomial tree (one-port) or
 * the n rotated trees of MSBT (all-port), in pieces of chunk bytes (coll.h;
 * the trees and the formula are shared with the other personalized collective
 * in coll.c). */
#include "algorithms/coll.h"

static void gather_items(const mpp_coll_args *a, uint32_t g, uint64_t *bytes, uint32_t *origin)
{
    mpp_coll_pers_items(a, g, true, bytes, origin);
}

static bool gather_wants(const mpp_coll_args *a, uint32_t g, uint32_t m, uint32_t i)
{
    return m == a->root || m == mpp_coll_pers_member(a, g, i);
}

static int gather_build(mpp_coll_plan *pl, const mpp_coll_args *a, mpp_err *err)
{
    return mpp_coll_pers_build(pl, a, true, err);
}

static double gather_analytic(const mpp_coll_model *m, const mpp_coll_args *a)
{
    return mpp_coll_pers_analytic(m, a, true);
}

const mpp_coll_ops mpp_coll_gather = {
    .name = "gather",
    .help = "all-to-one personalized by spanning binomial trees (rotated trees with all-port nodes)",
    .groups = MPP_COLL_CUBE,
    .rooted = true,
    .steps_all_port = true,
    .prepare = mpp_coll_prepare_none,
    .release = mpp_coll_release_none,
    .nitems = mpp_coll_pers_nitems,
    .crossings = mpp_coll_pers_crossings,
    .items = gather_items,
    .wants = gather_wants,
    .build = gather_build,
    .analytic = gather_analytic,
    .bound = mpp_coll_pers_bound,
};
