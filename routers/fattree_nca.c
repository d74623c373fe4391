/* routers/fattree_nca.c — nearest-common-ancestor routing on BookSim's
 * k-ary n-tree (topologies/fattree.c), as BookSim's nca_fattree
 * (src/routefunc.cpp, fattree_nca): up on a random up port until the
 * router's subtree holds the destination, then down by the destination's
 * base-k digits. (The cm5-fattree has its own, routers/fattree_random.c,
 * alias "nca"; this one is BookSim's, alias "nca_fattree".)
 *
 * A router (depth d, pos) — id d * k^(n-1) + pos, depth 0 the top — holds
 * below it the nodes whose top d base-k digits (of n) equal the top d
 * digits of pos (of n - 1): dst / k^(n-d) == pos / k^(n-1-d). There the
 * packet takes down port (dst / k^(n-1-d)) mod k (at a leaf, the node's
 * port dst mod k); elsewhere up port k + j, j drawn uniformly from 0..k-1
 * (router r's stream; BookSim draws from its one global stream, so the
 * runs agree in distribution, not packet by packet).
 *
 * Invariants and deadlock freedom:
 *   1. a packet climbs only while its destination is not below it, so it
 *      never climbs above the nearest common ancestor's level and every
 *      route is minimal (topologies/fattree.c, invariant 3);
 *   2. once it goes down it never goes up (up*-down*): every channel
 *      dependency goes from an up channel to a higher up channel or to a
 *      down channel, or from a down channel to a lower one, so the channel
 *      dependency graph is acyclic with one route class (mppnet check
 *      --deadlock verifies it). */
#include "routers/routing.h"

static bool ktn_supports(const mpp_topo *t, const void *cfg, mpp_err *err)
{
    if (t->kind == MPP_TOPO_KTREE)
        return true;
    mpp_err_set(err, MPP_EINVAL,
                "router 'fattree-nca' supports only the fattree topology (BookSim's k-ary "
                "n-tree; the cm5-fattree's is fattree-random), not '%s'",
                t->ops->name);
    return false;
}

static uint32_t ktn_classes(const mpp_topo *t, const void *cfg) { return 1; }

/* The down port of router r toward node `to`, or MPP_TOPO_NONE when `to`
 * is not below r. */
static uint32_t ktn_down(const mpp_topo *t, uint32_t r, uint32_t to)
{
    uint32_t k = t->dims[0], n = t->dims[1];
    uint32_t per = t->nodes / k, d = r / per, pos = r % per;
    uint32_t w = 1; /* k^(n-1-d): the nodes below one down port */
    for (uint32_t i = d + 1; i < n; i++)
        w *= k;
    if (to / w / k != pos / w) /* the top d digits differ */
        return MPP_TOPO_NONE;
    return to / w % k;
}

static void ktn_route(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                      uint32_t in_port, mpp_route_state *st, mpp_rng *rng, mpp_route_out *out)
{
    uint32_t k = t->dims[0];
    out->route_class = 0;
    out->port = ktn_down(t, r, st->dst);
    if (out->port == MPP_TOPO_NONE)
        out->port = k + mpp_rng_below(rng, k);
}

/* The relation: down by the digit, or up on any up port. */
static void ktn_relation(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                         uint32_t in_port, uint32_t cls, uint32_t to, uint32_t flags,
                         mpp_route_emit emit, void *ud)
{
    uint32_t k = t->dims[0];
    mpp_route_hop h = {.port = ktn_down(t, r, to), .to = to};
    if (h.port != MPP_TOPO_NONE) {
        emit(ud, &h);
        return;
    }
    for (h.port = k; h.port < 2 * k; h.port++)
        emit(ud, &h);
}

static const char *const ktn_aliases[] = {"nca_fattree", NULL};

const mpp_routing_ops mpp_routing_fattree_nca = {
    .name = "fattree-nca",
    .aliases = ktn_aliases,
    .help = "fattree (k-ary n-tree): up on random up ports to the nearest common ancestor, "
            "then down by the destination's base-k digits (BookSim's nca)",
    .supports = ktn_supports,
    .route_classes = ktn_classes,
    .route = ktn_route,
    .relation = ktn_relation,
};
