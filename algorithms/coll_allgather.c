/* algorithms/coll_allgather.c — all-to-all broadcast: every member's block
 * of M bytes reaches every other member (coll.h).
 *   one-port: exchange across dimensions with doubling messages — in step
 *     d = 0 .. n-1 member m and m ^ 2^d swap everything they hold (2^d
 *     blocks each way);
 *   all-port: every member broadcasts its block on its own n rotated
 *     spanning binomial trees (MSBT), n parts in pieces of chunk bytes, all
 *     members at once. */
#include <stdlib.h>

#include "algorithms/coll.h"

static uint32_t ag_parts(const mpp_coll_args *a, uint32_t g)
{
    uint32_t n = mpp_coll_log2(g);
    return mpp_coll_trees_at_once(a, n) ? n : 1;
}

static uint64_t ag_part_bytes(uint64_t M, uint32_t parts, uint32_t j)
{
    return M / parts + (j < M % parts ? 1 : 0);
}

/* Items per member's block. */
static uint64_t ag_per(const mpp_coll_args *a, uint32_t g)
{
    uint32_t parts = ag_parts(a, g);
    if (parts == 1)
        return 1;
    uint64_t k = 0;
    for (uint32_t j = 0; j < parts; j++)
        k += mpp_coll_pieces(ag_part_bytes(a->M, parts, j), a->chunk);
    return k;
}

static uint64_t ag_nitems(const mpp_coll_args *a, uint32_t g) { return ag_per(a, g) * g; }

/* One-port: step d moves 2^d blocks from every member (g (g - 1) in all);
 * all-port: every piece of every member crosses the g - 1 edges of its
 * tree. */
static uint64_t ag_crossings(const mpp_coll_args *a, uint32_t g)
{
    return ag_nitems(a, g) * (g ? g - 1 : 0);
}

static void ag_items(const mpp_coll_args *a, uint32_t g, uint64_t *bytes, uint32_t *origin)
{
    uint32_t parts = ag_parts(a, g);
    uint64_t i = 0;
    for (uint32_t s = 0; s < g; s++) {
        if (parts == 1) {
            bytes[i] = a->M;
            origin[i++] = s;
            continue;
        }
        for (uint32_t j = 0; j < parts; j++) {
            uint64_t B = ag_part_bytes(a->M, parts, j);
            uint32_t C = mpp_coll_pieces(B, a->chunk);
            for (uint32_t k = 0; k < C; k++, i++) {
                bytes[i] = mpp_coll_piece_bytes(B, a->chunk, k);
                origin[i] = s;
            }
        }
    }
}

static int exchange(mpp_coll_plan *pl, mpp_err *err)
{
    uint32_t g = pl->grp.g, n = mpp_coll_log2(g);
    uint32_t *it = malloc((size_t)(g ? g : 1) * sizeof *it);
    if (!it)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    int rc = 0;
    for (uint32_t d = 0; d < n && !rc; d++) {
        mpp_coll_step_begin(pl);
        uint32_t w = 1u << d;
        for (uint32_t m = 0; m < g && !rc; m++) {
            /* m holds the blocks of the members that agree with it above bit d - 1 */
            uint32_t base = m & ~(w - 1);
            for (uint32_t k = 0; k < w; k++)
                it[k] = base + k;
            rc = mpp_coll_send(pl, m, m ^ w, it, w, err);
        }
        int rc2 = mpp_coll_step_end(pl, err);
        if (!rc)
            rc = rc2;
    }
    free(it);
    return rc;
}

static int trees(mpp_coll_plan *pl, const mpp_coll_args *a, mpp_err *err)
{
    uint32_t g = pl->grp.g, n = mpp_coll_log2(g);
    uint32_t *mem;
    mpp_coll_flow *f;
    if (mpp_coll_tree_alloc(g, ((size_t)n * 3 + 1) * g, &mem, &f, err))
        return MPP_ENOMEM;
    uint32_t *scratch = mem + (size_t)n * 3 * g;
    uint64_t per = ag_per(a, g);
    int rc = 0;
    /* the edges of every node in dimension order, created once */
    for (uint32_t m = 0; m < g && !rc; m++)
        for (uint32_t d = 0; d < n && !rc; d++)
            if (mpp_coll_flow_edge(f, m, m ^ (1u << d)) == UINT32_MAX)
                rc = MPP_ENOMEM;
    for (uint32_t s = 0; s < g && !rc; s++) {
        uint64_t i = per * s;
        for (uint32_t j = 0; j < n && !rc; j++) {
            uint32_t *parent = mem + (size_t)j * 3 * g, *order = parent + g, *edge = order + g;
            mpp_coll_tree_msbt(n, s, j, parent, order);
            for (uint32_t k = 0; k < g; k++) {
                uint32_t v = order[k];
                edge[v] = parent[v] == UINT32_MAX ? UINT32_MAX
                                                  : mpp_coll_flow_edge(f, parent[v], v);
            }
            uint32_t C = mpp_coll_pieces(ag_part_bytes(a->M, n, j), a->chunk);
            for (uint32_t k = 0; k < C && !rc; k++, i++)
                rc = mpp_coll_tree_bcast(f, parent, order, g, edge, (uint32_t)i, scratch);
        }
    }
    return mpp_coll_tree_finish(f, mem, pl, rc, err);
}

static int ag_build(mpp_coll_plan *pl, const mpp_coll_args *a, mpp_err *err)
{
    if (pl->grp.g < 2)
        return 0;
    return ag_parts(a, pl->grp.g) == 1 ? exchange(pl, err) : trees(pl, a, err);
}

/* one-port: n exchanges of 2^d blocks (all-port, n trees at once: the
 * step recurrence, steps_all_port). */
static double ag_analytic(const mpp_coll_model *m, const mpp_coll_args *a)
{
    uint32_t n = m->n, g = m->g;
    if (g < 2)
        return 0;
    double t = 0;
    for (uint32_t d = 0; d < n; d++)
        t += mpp_coll_exchange_time(m, ((uint64_t)1 << d) * a->M, 1, 1, 1);
    return t;
}

static double ag_bound(const mpp_coll_model *m, const mpp_coll_args *a)
{
    if (m->g < 2)
        return 0;
    return (double)(m->g - 1) * a->M * m->byte / (m->all_port ? m->links : 1);
}

const mpp_coll_ops mpp_coll_allgather = {
    .name = "allgather",
    .help = "all-to-all broadcast: exchange across dimensions (one-port) or every member's "
            "MSBT (all-port)",
    .groups = MPP_COLL_CUBE,
    .rooted = false,
    .steps_all_port = true,
    .prepare = mpp_coll_prepare_none,
    .release = mpp_coll_release_none,
    .nitems = ag_nitems,
    .crossings = ag_crossings,
    .items = ag_items,
    .wants = mpp_coll_wants_all,
    .build = ag_build,
    .analytic = ag_analytic,
    .bound = ag_bound,
};
