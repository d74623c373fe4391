/* algorithms/coll_msbt.c — one-to-all broadcast on n edge-disjoint
 * spanning binomial trees (Johnsson and Ho 1989; coll.h): the root splits
 * the message into n parts, part j goes to root ^ 2^j and down the SBT
 * rooted there on addresses rotated by j, in pieces of `chunk` bytes. The
 * parts differ by at most one byte (the first M mod n are one larger). */
#include <assert.h>
#include <stdlib.h>

#include "algorithms/coll.h"
#include "core/sections.h"
#include "core/topo.h"

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

/* Every piece crosses the g - 1 edges of its tree, and one-port the edge
 * back to the source. */
static uint64_t ms_crossings(const mpp_coll_args *a, uint32_t g)
{
    return ms_nitems(a, g) * g;
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

/* One-port nodes: the dimension-cycling schedule of Johnsson and Ho. In
 * step t every node sends only across dimension t mod n: the source sends
 * piece k of part j to the root of tree j in step j + n k, and a node that
 * received a piece in step u forwards it to its child across dimension d in
 * the first step after u that is d mod n. The trees' directed edges are
 * disjoint, so in a step a node sends at most one message and receives at
 * most one; piece k of a tree crosses every edge n k steps after piece 0.
 *
 * The source is a leaf of every rotated SBT (coll.h): tree j's root
 * s ^ 2^j also sends every piece of part j back to it, across dimension j,
 * in the first step after it received it (j + n (k + 1)). No tree uses an
 * edge into the source, so the edges stay disjoint, and the source, like
 * every other node, then receives in every step of the steady state: each
 * step waits for its receive, and the nodes keep step with each other
 * (docs/collectives.md, "One-port MSBT"). The last piece reaches the
 * deepest node in step max_j (j + n C_j). */
static int ms_build_one_port(mpp_coll_plan *pl, const mpp_coll_args *a, mpp_err *err)
{
    uint32_t g = pl->grp.g, n = mpp_coll_log2(g), s = a->root;
    const uint32_t NONE = UINT32_MAX;
    /* t0[j g + v]: the step piece 0 of tree j reaches v; tree[x n + d]: the
     * tree whose edge x -> x ^ 2^d is; parent, order: one tree's */
    uint32_t *mem = malloc(((size_t)n * g * 2 + (size_t)g * 2 + (size_t)n * 2) * sizeof *mem);
    if (!mem)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    uint32_t *t0 = mem, *tree = t0 + (size_t)n * g, *parent = tree + (size_t)n * g;
    uint32_t *order = parent + g, *C = order + g, *base = C + n;
    uint64_t T = 0;
    for (size_t i = 0; i < (size_t)n * g; i++)
        tree[i] = NONE;
    for (uint32_t j = 0, b = 0; j < n; j++) {
        C[j] = mpp_coll_pieces(part_bytes(a->M, n, j), a->chunk);
        base[j] = b;
        b += C[j];
        mpp_coll_tree_msbt(n, s, j, parent, order);
        uint32_t *tj = t0 + (size_t)j * g;
        for (uint32_t k = 1; k < g; k++) {
            uint32_t v = order[k], p = parent[v], d = mpp_coll_log2(p ^ v);
            uint32_t t = p == s ? j : tj[p] + 1 + (d + n - (tj[p] + 1) % n) % n;
            assert(tree[(size_t)p * n + d] == NONE && t % n == d);
            tree[(size_t)p * n + d] = j;
            tj[v] = t;
            if ((uint64_t)t + (uint64_t)n * (C[j] - 1) + 1 > T)
                T = (uint64_t)t + (uint64_t)n * (C[j] - 1) + 1;
        }
        /* the edge back to the source: s ^ 2^j -> s, step j + n */
        assert(tree[(size_t)(s ^ (1u << j)) * n + j] == NONE);
        tree[(size_t)(s ^ (1u << j)) * n + j] = j;
        tj[s] = j + n;
    }
    int rc = 0;
    for (uint64_t t = 0; t < T && !rc; t++) {
        uint32_t d = (uint32_t)(t % n);
        mpp_coll_step_begin(pl);
        for (uint32_t x = 0; x < g && !rc; x++) {
            uint32_t j = tree[(size_t)x * n + d], y = x ^ (1u << d);
            if (j == NONE || t < t0[(size_t)j * g + y])
                continue;
            uint64_t k = (t - t0[(size_t)j * g + y]) / n;
            if (k < C[j]) {
                uint32_t item = base[j] + (uint32_t)k;
                rc = y == s ? mpp_coll_send_back(pl, x, y, &item, 1, err)
                            : mpp_coll_send(pl, x, y, &item, 1, err);
            }
        }
        if (!rc)
            rc = mpp_coll_step_end(pl, err);
    }
    free(mem);
    return rc;
}

static int ms_build(mpp_coll_plan *pl, const mpp_coll_args *a, mpp_err *err)
{
    uint32_t g = pl->grp.g, n = mpp_coll_log2(g);
    if (g < 2)
        return 0;
    if (!mpp_coll_trees_at_once(a, n))
        return ms_build_one_port(pl, a, err);
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

/* The synchronous steps: max_j (j + n C_j + 1) steps (piece k of tree j
 * leaves the source in step j + n k and reaches the deepest node n steps
 * later), each as long as the largest piece that moves in it,
 * msg_time(q, 1, 1, 1) (one message sent and one received per node). */
static double ms_sync_sum(const mpp_coll_model *m, const mpp_coll_args *a)
{
    uint32_t n = m->n;
    uint64_t T = 0;
    for (uint32_t j = 0; j < n; j++) {
        uint64_t t = j + (uint64_t)n * mpp_coll_pieces(part_bytes(a->M, n, j), a->chunk) + 1;
        T = t > T ? t : T;
    }
    /* piece k of tree j crosses a level e steps below the source (e = 0..n)
     * in step j + n k + e (the step of its dimension) */
    double sum = 0;
    for (uint64_t t = 0; t < T; t++) {
        uint64_t big = 0;
        for (uint32_t j = 0; j < n; j++) {
            uint64_t B = part_bytes(a->M, n, j);
            uint32_t C = mpp_coll_pieces(B, a->chunk);
            for (uint32_t e = 0; e <= n; e++) {
                uint64_t base = (uint64_t)j + e;
                if (t < base || (t - base) % n)
                    continue;
                uint64_t k = (t - base) / n;
                if (k < C) {
                    uint64_t q = mpp_coll_piece_bytes(B, a->chunk, (uint32_t)k);
                    big = q > big ? q : big;
                }
            }
        }
        sum += mpp_coll_msg_time(m, big, 1, 1, 1);
    }
    return sum;
}

extern const mpp_coll_ops mpp_coll_msbt;

/* One-port (all-port, n trees at once: the step recurrence too,
 * steps_all_port). On a hypercube the step recurrence of the
 * dimension-cycling schedule (mpp_coll_schedule_time): where every node
 * receives in every step it is the synchronous sum, and in the first and
 * last steps a node that receives nothing may send early, which the
 * recurrence follows (docs/collectives.md). Elsewhere (the CM-5, whose
 * nodes the recurrence does not model) the synchronous sum. 0 when it
 * cannot be planned (out of memory). */
static double ms_analytic(const mpp_coll_model *m, const mpp_coll_args *a)
{
    if (!m->n)
        return 0;
    if (m->topo && m->topo->kind != MPP_TOPO_HYPERCUBE)
        return ms_sync_sum(m, a);
    double t = 0;
    mpp_err err;
    return mpp_coll_schedule_time(&mpp_coll_msbt, a, m, &t, &err) ? 0 : t;
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
    .steps_all_port = true,
    .prepare = mpp_coll_prepare_none,
    .release = mpp_coll_release_none,
    .nitems = ms_nitems,
    .crossings = ms_crossings,
    .items = ms_items,
    .wants = mpp_coll_wants_all,
    .build = ms_build,
    .analytic = ms_analytic,
    .bound = ms_bound,
};
