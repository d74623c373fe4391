/* algorithms/coll_scan.c — parallel prefix: member i ends with the
 * combination of the vectors (M bytes) of members 0 .. i
 * (workload.scan.op), by the hypercube doubling algorithm: every member
 * keeps its prefix and the total of its subcube; in step j members m and
 * m ^ 2^j (both below g) exchange totals, both add the other's to their
 * total, and the upper one to its prefix too. On g that is not a power of
 * two a member whose partner does not exist sits the step out: the totals
 * it then lacks are only ever sent to members that do not exist either. */
#include "algorithms/coll_red.h"

static int sc_prepare(const mpp_coll_args *a, uint32_t g, uint32_t N, void **ctx, mpp_err *err)
{
    (void)N;
    return mpp_coll_red_prepare(a, g, "scan", false, false, 1, ctx, err);
}

static uint64_t sc_crossings(const mpp_coll_args *a, uint32_t g)
{
    (void)a;
    return (uint64_t)g * mpp_coll_red_dims(g);
}

static bool sc_wants(const mpp_coll_args *a, uint32_t g, uint32_t m, uint32_t i)
{
    const mpp_coll_red_ctx *r = a->ctx;
    (void)g;
    return i / r->S <= m;
}

static int sc_build(mpp_coll_plan *pl, const mpp_coll_args *a, mpp_err *err)
{
    mpp_coll_red_ctx *r = a->ctx;
    uint32_t g = r->g, seg = 0;
    int rc = 0;
    mpp_coll_red_start(r);
    for (uint32_t j = 0, n = mpp_coll_red_dims(g); j < n && !rc; j++) {
        mpp_coll_step_begin(pl);
        mpp_coll_red_snapshot(r);
        for (uint32_t m = 0; m < g && !rc; m++) {
            uint32_t p = m ^ (1u << j);
            if (p < g)
                rc = mpp_coll_red_send(pl, r, m, p, &seg, 1, true, m < p, err);
        }
        int e = mpp_coll_step_end(pl, err);
        if (!rc)
            rc = e;
    }
    return rc;
}

extern const mpp_coll_ops mpp_coll_scan;

static double sc_analytic(const mpp_coll_model *m, const mpp_coll_args *a)
{
    return mpp_coll_steps(&mpp_coll_scan, m, a);
}

/* every member but the first receives at least M bytes */
static double sc_bound(const mpp_coll_model *m, const mpp_coll_args *a)
{
    return mpp_coll_red_bound_bytes(m, (double)a->M);
}

const mpp_coll_ops mpp_coll_scan = {
    .name = "scan",
    .help = "parallel prefix (inclusive scan) by the hypercube doubling algorithm",
    .schema = {mpp_coll_red_params, MPP_COLL_RED_NPARAMS, sizeof(mpp_coll_red_cfg)},
    .groups = MPP_COLL_ANY,
    .rooted = false,
    .prepare = sc_prepare,
    .release = mpp_coll_red_release,
    .nitems = mpp_coll_red_nitems,
    .crossings = sc_crossings,
    .items = mpp_coll_red_items,
    .wants = sc_wants,
    .build = sc_build,
    .analytic = sc_analytic,
    .bound = sc_bound,
};
