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
    /* the root's n sends of a piece go over `links` ports (n on a cube
     * node with all-port, 1 one-port, 2 on the CM-5) */
    uint32_t ports = m->all_port ? (m->links < n ? m->links : n) : 1;
    uint32_t per = (n + ports - 1) / ports, ks = m->all_port ? n : 1;
    double occ = m->all_port ? (double)per * mpp_coll_flits(m, q) : 0;
    double cpu = (double)mpp_packet_count(&m->pk, q) * n * m->w;
    /* ... unless the busiest relay's processor is slower: the root's first
     * child reads every piece and writes it n - 1 times */
    double P = (double)mpp_packet_count(&m->pk, q);
    double relay = P * ((n - 1) * m->w + m->r) + m->post + m->done;
    if (!m->all_port)
        occ = n * mpp_coll_occupancy(m, q, 1);
    else if (cpu > occ)
        occ = cpu;
    if (relay > occ)
        occ = relay;
    /* the deepest path: root -> root ^ 1 -> root ^ 3 -> ..., each message
     * over its own distance */
    double chain = 0;
    for (uint32_t j = 0, x = a->root; j < n; j++) {
        uint32_t y = x ^ (1u << j);
        chain += mpp_coll_msg_time(m, last, mpp_coll_hops(m, x, y), ks, 1);
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
    .nitems = mpp_coll_bcast_nitems,
    .crossings = mpp_coll_bcast_crossings,
    .items = mpp_coll_bcast_items,
    .wants = mpp_coll_wants_all,
    .build = bn_build,
    .analytic = bn_analytic,
    .bound = bn_bound,
};
