/* algorithms/coll_alltoall.c — all-to-all personalized exchange: member i
 * sends member j its own block (i, j) of M bytes, for every pair (coll.h).
 * Item i g + j is block (i, j) (the blocks (i, i) stay home). `alg`:
 *   xor      g - 1 steps; in step k member i sends block (i, i ^ k) to
 *            i ^ k directly (pairwise exchange; contention-free under
 *            e-cube routing on a hypercube);
 *   standard log2 g steps (the standard exchange); in step d member i
 *            sends i ^ 2^d, in one message, every block it holds whose
 *            destination differs from i in bit d (g/2 blocks: blocks are
 *            combined and forwarded);
 *   direct   one step: member i sends each block straight to its
 *            destination, to i ^ 1, i ^ 2, ..., i ^ (g - 1) in turn. */
#include <stdlib.h>

#include "algorithms/coll.h"

static uint64_t aa_nitems(const mpp_coll_args *a, uint32_t g)
{
    (void)a;
    return (uint64_t)g * g;
}

/* xor and direct: every block once; standard: g/2 blocks from every
 * member in each of the n steps. */
static uint64_t aa_crossings(const mpp_coll_args *a, uint32_t g)
{
    if (a->alg == MPP_COLL_ALG_STANDARD)
        return (uint64_t)mpp_coll_log2(g) * g * (g / 2);
    return (uint64_t)g * (g ? g - 1 : 0);
}

static void aa_items(const mpp_coll_args *a, uint32_t g, uint64_t *bytes, uint32_t *origin)
{
    for (uint64_t i = 0; i < (uint64_t)g * g; i++) {
        bytes[i] = a->M;
        origin[i] = (uint32_t)(i / g);
    }
}

static bool aa_wants(const mpp_coll_args *a, uint32_t g, uint32_t m, uint32_t i)
{
    (void)a;
    return i % g == m;
}

static int aa_xor(mpp_coll_plan *pl, mpp_err *err)
{
    uint32_t g = pl->grp.g;
    int rc = 0;
    for (uint32_t k = 1; k < g && !rc; k++) {
        mpp_coll_step_begin(pl);
        for (uint32_t i = 0; i < g && !rc; i++) {
            uint32_t item = i * g + (i ^ k);
            rc = mpp_coll_send(pl, i, i ^ k, &item, 1, err);
        }
        int rc2 = mpp_coll_step_end(pl, err);
        if (!rc)
            rc = rc2;
    }
    return rc;
}

/* One step: every member sends each block straight to its member, in the
 * XOR order i ^ 1, i ^ 2, ..., i ^ (g - 1) (with e-cube routing the k-th
 * sends of all members form a contention-free permutation; in the order
 * i + 1, i + 2, ... the worms of all-port nodes block each other: 4.5x the
 * XOR order's time on 32 link-limited all-port nodes). */
static int aa_direct(mpp_coll_plan *pl, mpp_err *err)
{
    uint32_t g = pl->grp.g;
    int rc = 0;
    mpp_coll_step_begin(pl);
    for (uint32_t i = 0; i < g && !rc; i++)
        for (uint32_t k = 1; k < g && !rc; k++) {
            uint32_t j = i ^ k, item = i * g + j;
            rc = mpp_coll_send(pl, i, j, &item, 1, err);
        }
    int rc2 = mpp_coll_step_end(pl, err);
    return rc ? rc : rc2;
}

/* After d steps block (s, t) is at member (t mod 2^d) | (s with its low d
 * bits cleared). */
static int aa_standard(mpp_coll_plan *pl, mpp_err *err)
{
    uint32_t g = pl->grp.g, n = mpp_coll_log2(g);
    uint32_t half = g / 2;
    uint32_t *it = malloc((size_t)g * (half ? half : 1) * sizeof *it);
    uint32_t *cnt = calloc(g, sizeof *cnt);
    if (!it || !cnt) {
        free(it);
        free(cnt);
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    }
    int rc = 0;
    for (uint32_t d = 0; d < n && !rc; d++) {
        uint32_t low = (1u << d) - 1, bit = 1u << d;
        for (uint32_t m = 0; m < g; m++)
            cnt[m] = 0;
        for (uint32_t s = 0; s < g; s++)
            for (uint32_t t = 0; t < g; t++) {
                uint32_t at = (t & low) | (s & ~low);
                if ((at ^ t) & bit)
                    it[(size_t)at * half + cnt[at]++] = s * g + t;
            }
        mpp_coll_step_begin(pl);
        for (uint32_t m = 0; m < g && !rc; m++)
            if (cnt[m])
                rc = mpp_coll_send(pl, m, m ^ bit, it + (size_t)m * half, cnt[m], err);
        int rc2 = mpp_coll_step_end(pl, err);
        if (!rc)
            rc = rc2;
    }
    free(it);
    free(cnt);
    return rc;
}

static int aa_build(mpp_coll_plan *pl, const mpp_coll_args *a, mpp_err *err)
{
    if (pl->grp.g < 2)
        return 0;
    switch (a->alg) {
    case MPP_COLL_ALG_STANDARD:
        return aa_standard(pl, err);
    case MPP_COLL_ALG_DIRECT:
        return aa_direct(pl, err);
    default:
        return aa_xor(pl, err);
    }
}

/* xor: g - 1 contention-free steps of one block over hops_mean hops;
 * standard: n steps of g/2 blocks over one hop; direct: every node streams
 * its g - 1 blocks, the busiest links (e-cube: g/2 blocks per directed
 * link, or its own g - 1 blocks over its links) set the pace. */
static double aa_analytic(const mpp_coll_model *m, const mpp_coll_args *a)
{
    uint32_t n = m->n, g = m->g;
    if (g < 2)
        return 0;
    switch (a->alg) {
    case MPP_COLL_ALG_STANDARD:
        return (double)n * mpp_coll_msg_time(m, (uint64_t)g / 2 * a->M, 1, 1, 1);
    case MPP_COLL_ALG_DIRECT: {
        double lat = mpp_coll_latency(m, m->hops_mean);
        double one = mpp_coll_msg_time(m, a->M, 0, 1, 1) - mpp_coll_latency(m, 0);
        double own = (double)(g - 1) / (m->all_port ? m->links : 1);
        double per_link = (double)g / 2;
        return lat + (own > per_link ? own : per_link) * one;
    }
    default:
        return (double)(g - 1) * mpp_coll_msg_time(m, a->M, m->hops_mean, 1, 1);
    }
}

static double aa_bound(const mpp_coll_model *m, const mpp_coll_args *a)
{
    if (m->g < 2)
        return 0;
    double b = (double)a->M * m->g / 2 * m->byte;
    return m->all_port ? b : b * m->n;
}

const mpp_coll_ops mpp_coll_alltoall = {
    .name = "alltoall",
    .help = "all-to-all personalized exchange (alg: xor, standard, direct)",
    .groups = MPP_COLL_CUBE,
    .rooted = false,
    .nitems = aa_nitems,
    .crossings = aa_crossings,
    .items = aa_items,
    .wants = aa_wants,
    .build = aa_build,
    .analytic = aa_analytic,
    .bound = aa_bound,
};
