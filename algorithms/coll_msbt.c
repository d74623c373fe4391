/* algorithms/coll_msbt.c — one-to-all broadcast on n edge-disjoint
 * spanning binomial trees (Johnsson and Ho 1989; coll.h): the root splits
 * the message into n parts, part j goes to root ^ 2^j and down the SBT
 * rooted there on addresses rotated by j, in pieces of `chunk` bytes. The
 * parts differ by at most one byte (the first M mod n are one larger). */
#include <stdlib.h>

#include "algorithms/coll.h"

static uint64_t part_bytes(uint64_t M, uint32_t n, uint32_t j)
{
    return M / n + (j < M % n ? 1 : 0);
}

static uint64_t ms_nitems(const mpp_coll_args *a, uint32_t g)
{
    uint32_t n = mpp_coll_log2(g);
    uint64_t k = 0;
    for (uint32_t j = 0; j < n; j++)
        k += mpp_coll_pieces(part_bytes(a->M, n, j), a->chunk);
    return k;
}

static void ms_items(const mpp_coll_args *a, uint32_t g, uint64_t *bytes, uint32_t *origin)
{
    uint32_t n = mpp_coll_log2(g);
    uint64_t i = 0;
    for (uint32_t j = 0; j < n; j++) {
        uint64_t B = part_bytes(a->M, n, j);
        uint32_t C = mpp_coll_pieces(B, a->chunk);
        for (uint32_t k = 0; k < C; k++, i++) {
            bytes[i] = mpp_coll_piece_bytes(B, a->chunk, k);
            origin[i] = a->root;
        }
    }
}

static int ms_build(mpp_coll_plan *pl, const mpp_coll_args *a, mpp_err *err)
{
    uint32_t g = pl->grp.g, n = mpp_coll_log2(g);
    if (g < 2)
        return 0;
    uint32_t *mem;
    mpp_coll_flow *f;
    if (mpp_coll_tree_alloc(g, ((size_t)n * 3 + 1) * g, &mem, &f, err))
        return MPP_ENOMEM;
    uint32_t *scratch = mem + (size_t)n * 3 * g;
    int rc = 0;
    /* every tree's edges first, level by level across the trees, so that a
     * node serves its trees in turn */
    for (uint32_t j = 0; j < n; j++) {
        uint32_t *parent = mem + (size_t)j * 3 * g, *order = parent + g;
        mpp_coll_tree_msbt(n, a->root, j, parent, order);
    }
    for (uint32_t k = 0; k < g && !rc; k++)
        for (uint32_t j = 0; j < n && !rc; j++) {
            uint32_t *parent = mem + (size_t)j * 3 * g, *order = parent + g, *edge = order + g;
            uint32_t v = order[k];
            edge[v] = UINT32_MAX;
            if (parent[v] != UINT32_MAX &&
                (edge[v] = mpp_coll_flow_edge(f, parent[v], v)) == UINT32_MAX)
                rc = MPP_ENOMEM;
        }
    uint32_t i = 0;
    for (uint32_t j = 0; j < n && !rc; j++) {
        uint32_t *parent = mem + (size_t)j * 3 * g, *order = parent + g, *edge = order + g;
        uint32_t C = mpp_coll_pieces(part_bytes(a->M, n, j), a->chunk);
        for (uint32_t k = 0; k < C && !rc; k++, i++)
            rc = mpp_coll_tree_bcast(f, parent, order, g, edge, i, scratch);
    }
    return mpp_coll_tree_finish(f, mem, pl, rc, err);
}

/* C pieces of q = M / (n C) bytes per tree. all-port: a piece per tree and
 * step on every link, n + 1 levels deep (C + n steps); one-port: each node
 * sends its n trees' pieces of a step in turn (and reads as many). */
static double ms_analytic(const mpp_coll_model *m, const mpp_coll_args *a)
{
    uint32_t n = m->n;
    if (!n)
        return 0;
    uint64_t B = a->M / n + (a->M % n ? 1 : 0);
    uint32_t C = mpp_coll_pieces(B, a->chunk);
    uint64_t q = mpp_coll_piece_bytes(B, a->chunk, 0);
    if (!m->all_port)
        return (double)(C + n) * n * mpp_coll_msg_time(m, q, 1, 1, 1);
    return (double)(C + n) * mpp_coll_msg_time(m, q, 1, n, n);
}

static double ms_bound(const mpp_coll_model *m, const mpp_coll_args *a)
{
    if (!m->n)
        return 0;
    return (double)a->M * m->byte / (m->all_port ? m->links : 1);
}

const mpp_coll_ops mpp_coll_msbt = {
    .name = "msbt",
    .help = "one-to-all broadcast on n edge-disjoint spanning binomial trees (Johnsson-Ho)",
    .groups = MPP_COLL_CUBE,
    .rooted = true,
    .nitems = ms_nitems,
    .items = ms_items,
    .wants = mpp_coll_wants_all,
    .build = ms_build,
    .analytic = ms_analytic,
    .bound = ms_bound,
};
