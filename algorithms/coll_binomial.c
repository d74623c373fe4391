/* algorithms/coll_binomial.c — one-to-all broadcast down the spanning
 * binomial tree rooted at the root (coll.h): the message is cut into
 * pieces of `chunk` bytes (chunk 0: one piece, store and forward) that
 * every node forwards to its children, largest subtree first, as soon as
 * it has them. docs/collectives.md gives the schedule, formula and bound. */
#include <stdlib.h>

#include "algorithms/coll.h"

static int bn_build(mpp_coll_plan *pl, const mpp_coll_args *a, mpp_err *err)
{
    uint32_t g = pl->grp.g, n = mpp_coll_log2(g);
    if (g < 2)
        return 0;
    uint32_t *parent;
    mpp_coll_flow *f;
    if (mpp_coll_tree_alloc(g, 4 * (size_t)g, &parent, &f, err))
        return MPP_ENOMEM;
    uint32_t *order = parent + g, *edge = order + g, *scratch = edge + g;
    mpp_coll_tree_sbt(n, a->root, parent, order);
    int rc = mpp_coll_tree_edges(f, parent, order, g, edge, false);
    for (uint32_t k = 0; k < pl->nitems && !rc; k++)
        rc = mpp_coll_tree_bcast(f, parent, order, g, edge, k, scratch);
    return mpp_coll_tree_finish(f, parent, pl, rc, err);
}

/* one-port: the root sends each of the C pieces to its n children in turn
 * (C n messages of a piece, each over one hop); all-port: it sends a piece
 * to all n at once and the last piece needs n - 1 more tree levels. */
/* The root sends its C pieces back to back (each n times one-port, on its
 * n links at once all-port: on min(links, n) ports, its processor writing
 * all n copies); the last piece then goes down the tree's deepest path,
 * n messages one after the other, each over its own distance. */
static double bn_analytic(const mpp_coll_model *m, const mpp_coll_args *a)
{
    uint32_t C = mpp_coll_pieces(a->M, a->chunk), n = m->n;
    uint64_t q = mpp_coll_piece_bytes(a->M, a->chunk, 0);
    uint64_t last = mpp_coll_piece_bytes(a->M, a->chunk, C - 1);
    if (!n)
        return 0;
    double occ = mpp_coll_tree_pace(m, q, n);
    /* the deepest path: root -> root ^ 1 -> root ^ 3 -> ..., each message
     * over its own distance */
    double chain = 0;
    for (uint32_t j = 0, x = a->root; j < n; j++) {
        uint32_t y = x ^ (1u << j);
        chain += mpp_coll_xfer_time(m, last, mpp_coll_hops(m, x, y), 1, 0, 0, 1);
        x = y;
    }
    return (double)(C - 1) * occ + chain;
}

static double bn_bound(const mpp_coll_model *m, const mpp_coll_args *a)
{
    if (!m->n)
        return 0;
    return (double)a->M * m->byte / (m->all_port ? m->links : 1);
}

const mpp_coll_ops mpp_coll_binomial = {
    .name = "binomial",
    .help = "one-to-all broadcast down the spanning binomial tree (pipelined in chunks)",
    .groups = MPP_COLL_CUBE,
    .rooted = true,
    .steps_all_port = true,
    .prepare = mpp_coll_prepare_none,
    .release = mpp_coll_release_none,
    .nitems = mpp_coll_bcast_nitems,
    .crossings = mpp_coll_bcast_crossings,
    .items = mpp_coll_bcast_items,
    .wants = mpp_coll_wants_all,
    .build = bn_build,
    .analytic = bn_analytic,
    .bound = bn_bound,
};
