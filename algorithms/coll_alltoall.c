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
 *   direct   every block straight to its destination. One-port: one
 *            step, member i sends to i ^ 1, i ^ 2, ..., i ^ (g - 1) in
 *            turn. All-port: g/2 steps; in step k (1 <= k < g/2) member i
 *            sends to i ^ k and i ^ (g - 1 - k) at once, in the last to
 *            i ^ (g - 1): the two offsets have no address bit in common,
 *            so under e-cube routing no link carries two messages of a
 *            step (contention-free), and every directed link carries one
 *            message in each of the g/2 steps, its load. */
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

/* One-port: one step, every member sends each block straight to its
 * member, in the XOR order i ^ 1, i ^ 2, ..., i ^ (g - 1) (with e-cube
 * routing the k-th sends of all members form a contention-free
 * permutation). All-port: the paired steps (file comment). Sending every
 * block at once on all links instead (one step) ran 1.25-1.5x its link
 * bound on 8 and 16 link-limited nodes: each link's FIFO takes its worms
 * in bursts and the wormhole network blocks (docs/collectives.md). */
static int aa_direct(mpp_coll_plan *pl, const mpp_coll_args *a, mpp_err *err)
{
    uint32_t g = pl->grp.g;
    int rc = 0;
    if (!a->all_port) {
        mpp_coll_step_begin(pl);
        for (uint32_t i = 0; i < g && !rc; i++)
            for (uint32_t k = 1; k < g && !rc; k++) {
                uint32_t j = i ^ k, item = i * g + j;
                rc = mpp_coll_send(pl, i, j, &item, 1, err);
            }
        int rc2 = mpp_coll_step_end(pl, err);
        return rc ? rc : rc2;
    }
    for (uint32_t k = 1; k <= g / 2 && !rc; k++) {
        uint32_t ks[2] = {k < g / 2 ? k : g - 1, g - 1 - k};
        uint32_t nk = k < g / 2 ? 2 : 1;
        mpp_coll_step_begin(pl);
        for (uint32_t i = 0; i < g && !rc; i++)
            for (uint32_t x = 0; x < nk && !rc; x++) {
                uint32_t j = i ^ ks[x], item = i * g + j;
                rc = mpp_coll_send(pl, i, j, &item, 1, err);
            }
        int rc2 = mpp_coll_step_end(pl, err);
        if (!rc)
            rc = rc2;
    }
    return rc;
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
        return aa_direct(pl, a, err);
    default:
        return aa_xor(pl, err);
    }
}

/* The longest distance a step's messages travel: from member i to i ^ k
 * (and to i ^ k2 when k2 != 0), over the members. */
static double aa_step_hops(const mpp_coll_model *m, uint32_t k, uint32_t k2)
{
    if (!m->topo || !m->node)
        return m->hops_mean;
    double h = 0;
    for (uint32_t i = 0; i < m->g; i++) {
        double a = mpp_coll_hops(m, i, i ^ k), b = k2 ? mpp_coll_hops(m, i, i ^ k2) : 0;
        if (a > h)
            h = a;
        if (b > h)
            h = b;
    }
    return h;
}

/* Exchange steps (every member posts its receives, then sends):
 * xor: g - 1 contention-free steps of one block over hops_mean hops;
 * standard: n steps of g/2 blocks over one hop; direct one-port: every
 * node posts its g - 1 receives, then streams its g - 1 blocks through its
 * one port (e-cube loads a directed link with only g/2 blocks); direct
 * all-port: g/2 steps of two blocks at once (one in the last), each as long
 * as its longer path. */
static double aa_analytic(const mpp_coll_model *m, const mpp_coll_args *a)
{
    uint32_t n = m->n, g = m->g;
    if (g < 2)
        return 0;
    switch (a->alg) {
    case MPP_COLL_ALG_STANDARD:
        return (double)n * mpp_coll_exchange_time(m, (uint64_t)g / 2 * a->M, 1, 1, 1);
    case MPP_COLL_ALG_DIRECT: {
        if (m->all_port) {
            double t = 0;
            for (uint32_t k = 1; k < g / 2; k++)
                t += mpp_coll_exchange_time(m, a->M, aa_step_hops(m, k, g - 1 - k), 2, 2);
            return t + mpp_coll_exchange_time(m, a->M, aa_step_hops(m, g - 1, 0), 1, 1);
        }
        /* the g - 1 receives posted first, then the blocks streamed, each
         * the longer of its flits and the processor's writing and reading
         * of its packets and its completion */
        double P = (double)mpp_packet_count(&m->pk, a->M), f = mpp_coll_flits(m, a->M);
        double cpu = P * (m->w + m->r) + m->done;
        return (double)(g - 1) * (m->post + (f > cpu ? f : cpu)) + m->w +
               mpp_coll_latency(m, m->hops_mean) + m->r + m->done;
    }
    default:
        return (double)(g - 1) * mpp_coll_exchange_time(m, a->M, m->hops_mean, 1, 1);
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
    .prepare = mpp_coll_prepare_none,
    .release = mpp_coll_release_none,
    .nitems = aa_nitems,
    .crossings = aa_crossings,
    .items = aa_items,
    .wants = aa_wants,
    .build = aa_build,
    .analytic = aa_analytic,
    .bound = aa_bound,
};
