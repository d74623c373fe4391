/* algorithms/coll_linear.c — one-to-all broadcast on any machine seen as a
 * linear array: the halving broadcast of algorithms/halving.h, rooted. The
 * members are listed from the root on (position p is member (root + p) mod
 * g); the holder of a range of q positions gives the message to position
 * ceil(q/2) of it, then both halves recurse (ceil(log2 g) levels). The
 * message is cut into pieces of `chunk` bytes that flow down this tree like
 * the binomial broadcast's. */
#include <stdlib.h>

#include "algorithms/coll.h"

#define NONE UINT32_MAX

/* The halving tree over positions: parent[] and a level order (members). */
static void halving_tree(uint32_t g, uint32_t root, uint32_t *parent, uint32_t *order,
                         uint32_t *lo, uint32_t *len)
{
    /* ranges of the current level: lo[k], len[k] (k < nr) */
    uint32_t nr = 1, no = 0;
    for (uint32_t m = 0; m < g; m++)
        parent[m] = NONE;
    lo[0] = 0;
    len[0] = g;
    order[no++] = root;
    while (nr) {
        uint32_t w = 0;
        /* children of this level, in range order; then the new ranges */
        uint32_t base = nr;
        for (uint32_t k = 0; k < nr; k++) {
            if (len[k] < 2)
                continue;
            uint32_t h = (len[k] + 1) / 2;
            uint32_t holder = (root + lo[k]) % g, child = (root + lo[k] + h) % g;
            parent[child] = holder;
            order[no++] = child;
            lo[base + w] = lo[k];
            len[base + w] = h;
            w++;
            lo[base + w] = lo[k] + h;
            len[base + w] = len[k] - h;
            w++;
        }
        for (uint32_t k = 0; k < w; k++) {
            lo[k] = lo[base + k];
            len[k] = len[base + k];
        }
        nr = w;
    }
}

static int li_build(mpp_coll_plan *pl, const mpp_coll_args *a, mpp_err *err)
{
    uint32_t g = pl->grp.g;
    if (g < 2)
        return 0;
    uint32_t *parent;
    mpp_coll_flow *f;
    if (mpp_coll_tree_alloc(g, 8 * (size_t)g, &parent, &f, err))
        return MPP_ENOMEM;
    uint32_t *order = parent + g, *edge = order + g, *scratch = edge + g, *lo = scratch + g,
             *len = lo + 2 * (size_t)g;
    halving_tree(g, a->root, parent, order, lo, len);
    int rc = mpp_coll_tree_edges(f, parent, order, g, edge, false);
    for (uint32_t k = 0; k < pl->nitems && !rc; k++)
        rc = mpp_coll_tree_bcast(f, parent, order, g, edge, k, scratch);
    return mpp_coll_tree_finish(f, parent, pl, rc, err);
}

/* As binomial over the halving tree: the root sends its C pieces back to
 * back (each L times one-port, to its L children at once all-port), then
 * the last piece goes down the deepest path, the chain of first children
 * (position ceil(q/2) of each range), each message over its own distance;
 * or, if that is longer, the root's last message to its last child. */
static double li_analytic(const mpp_coll_model *m, const mpp_coll_args *a)
{
    uint32_t C = mpp_coll_pieces(a->M, a->chunk), L = m->n, g = m->g;
    uint64_t q = mpp_coll_piece_bytes(a->M, a->chunk, 0);
    uint64_t last = mpp_coll_piece_bytes(a->M, a->chunk, C - 1);
    if (g < 2)
        return 0;
    double chain = 0, tail = 0;
    for (uint32_t lo = 0, len = g; len > 1;) {
        uint32_t h = (len + 1) / 2;
        chain += mpp_coll_xfer_time(m, last,
                                    mpp_coll_hops(m, (a->root + lo) % g, (a->root + lo + h) % g),
                                    1, 0, 0, 1);
        lo += h;
        len -= h;
    }
    /* the root's own children: positions ceil(g/2), ceil(g/4), ..., 1 */
    uint32_t k = 0, pos = g;
    for (uint32_t len = g; len > 1; len = (len + 1) / 2, k++)
        pos = (len + 1) / 2;
    tail = (m->all_port ? 0 : (double)(k - 1) * mpp_coll_occupancy(m, last, 1)) +
           mpp_coll_xfer_time(m, last, mpp_coll_hops(m, a->root, (a->root + pos) % g), 1, 0, 0,
                              1);
    double end = chain > tail ? chain : tail;
    return (double)(C - 1) * mpp_coll_tree_pace(m, q, L) + end;
}

static double li_bound(const mpp_coll_model *m, const mpp_coll_args *a)
{
    if (m->g < 2)
        return 0;
    return (double)a->M * m->byte / (m->all_port ? m->links : 1);
}

const mpp_coll_ops mpp_coll_linear = {
    .name = "linear",
    .help = "one-to-all broadcast by halving on the machine seen as a linear array (any size)",
    .groups = MPP_COLL_ANY,
    .rooted = true,
    .steps_all_port = true,
    .prepare = mpp_coll_prepare_none,
    .release = mpp_coll_release_none,
    .nitems = mpp_coll_bcast_nitems,
    .crossings = mpp_coll_bcast_crossings,
    .items = mpp_coll_bcast_items,
    .wants = mpp_coll_wants_all,
    .build = li_build,
    .analytic = li_analytic,
    .bound = li_bound,
};
