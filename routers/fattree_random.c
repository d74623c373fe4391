/* routers/fattree_random.c — random up, deterministic down routing on the
 * cm5-fattree (alias "nca": nearest common ancestor), as the CM-5 data
 * network routes (Leiserson et al. 1992).
 *
 * A packet climbs until it reaches a router whose subtree holds its
 * destination — a router of the lowest common ancestor (LCA) level of source
 * and destination — choosing one of the current router's parent ports
 * uniformly at random at every level (router r's stream), then descends on
 * child port d(l-1) at level l, d the destination's base-4 digits, and at
 * the level-1 router ejects on child port d0, which is wired to the
 * destination. The source's choice among its node links is the engine's.
 *
 * Data structures: per router, its level l and its subtree s (the nodes
 * s*4^l .. (s+1)*4^l - 1 below it), derived once in setup from the
 * topology's port convention (topologies/cm5_fattree.c: child ports 0..3,
 * parent ports 4..): following child port 0 down l - 1 routers ends at node
 * s*4^l. Nothing else is needed: "the destination is below me" is
 * dst >> 2l == s.
 *
 * Invariants:
 *   1. a packet goes up only while its destination is not below the current
 *      router, so it never climbs above the LCA level and every path is
 *      minimal (2 x (LCA - 1) inter-router links);
 *   2. once it goes down it never goes up again (up*-down* routing): the channel
 *      dependency graph is acyclic, so one route class is deadlock-free;
 *   3. every router below the top has at least one parent port, and every
 *      child port toward an existing subtree is connected (topology
 *      invariants 1 and 2), so the returned port is always connected. */
#include "routers/routing.h"

#include <assert.h>
#include <stdlib.h>

/* Per-network data: level and subtree of every router. */
typedef struct ftr_priv {
    uint32_t *level;  /* [routers] 1 .. L */
    uint32_t *sub;    /* [routers] subtree index at that level */
} ftr_priv;

static bool ftr_supports(const mpp_topo *t, const void *cfg, mpp_err *err)
{
    if (t->kind == MPP_TOPO_FATTREE)
        return true;
    mpp_err_set(err, MPP_EINVAL,
                "router 'fattree-random' supports only the cm5-fattree topology, not '%s'",
                t->ops->name);
    return false;
}

static uint32_t ftr_classes(const mpp_topo *t, const void *cfg)
{
    return 1;
}

static void ftr_destroy(void *privp)
{
    ftr_priv *p = privp;
    if (!p)
        return;
    free(p->level);
    free(p->sub);
    free(p);
}

/* Derive every router's level and subtree by walking child port 0 down to a
 * node. Fails (MPP_EINVAL) when the wiring does not follow the cm5-fattree
 * port convention, MPP_ENOMEM when out of memory. */
static int ftr_setup(const mpp_topo *t, const void *cfg, void **privp, mpp_err *err)
{
    ftr_priv *p = calloc(1, sizeof *p);
    if (!p)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory setting up fattree-random");
    p->level = malloc((t->routers + 1) * sizeof *p->level);
    p->sub = malloc((t->routers + 1) * sizeof *p->sub);
    if (!p->level || !p->sub) {
        ftr_destroy(p);
        return mpp_err_set(err, MPP_ENOMEM, "out of memory setting up fattree-random");
    }
    uint32_t L = t->dims[0];
    for (uint32_t r = 0; r < t->routers; r++) {
        uint32_t q = r, l = 1;
        for (;;) {
            uint32_t peer = t->port_base[q + 1] - t->port_base[q] >= 4
                                ? t->port_peer[t->port_base[q]]
                                : MPP_TOPO_NONE;
            if (peer == MPP_TOPO_NONE || l > L) {
                ftr_destroy(p);
                return mpp_err_set(err, MPP_EINVAL,
                                   "fattree-random: router %u is not wired as a cm5-fattree "
                                   "router (child port c0 must lead down to a node)",
                                   r);
            }
            if (peer & MPP_TOPO_NODE) {
                uint32_t n = t->link_node[peer & ~MPP_TOPO_NODE];
                p->level[r] = l;
                p->sub[r] = n >> (2 * l);
                break;
            }
            q = t->port_router[peer];
            l++;
        }
    }
    *privp = p;
    return 0;
}

static void ftr_route(const mpp_topo *t, const void *cfg, void *privp, uint32_t r,
                      uint32_t in_port, mpp_route_state *st, mpp_rng *rng, mpp_route_out *out)
{
    const ftr_priv *p = privp;
    uint32_t l = p->level[r];
    out->route_class = 0;
    if ((st->dst >> (2 * l)) == p->sub[r]) {
        out->port = (st->dst >> (2 * (l - 1))) & 3; /* down by the digit */
        return;
    }
    uint32_t up = t->port_base[r + 1] - t->port_base[r] - 4;
    assert(up > 0 && "fattree-random: no parent port below the LCA level");
    out->port = 4 + (up > 1 ? mpp_rng_below(rng, up) : 0);
}

/* The relation: down by the digit, or up on any parent port. */
static void ftr_relation(const mpp_topo *t, const void *cfg, void *privp, uint32_t r,
                         uint32_t in_port, uint32_t cls, uint32_t to, uint32_t flags,
                         mpp_route_emit emit, void *ud)
{
    const ftr_priv *p = privp;
    uint32_t l = p->level[r];
    mpp_route_hop h = {.to = to};
    if ((to >> (2 * l)) == p->sub[r]) {
        h.port = (to >> (2 * (l - 1))) & 3;
        emit(ud, &h);
        return;
    }
    for (h.port = 4; h.port < t->port_base[r + 1] - t->port_base[r]; h.port++)
        emit(ud, &h);
}

static const char *const ftr_aliases[] = {"nca", NULL};

const mpp_routing_ops mpp_routing_fattree_random = {
    .name = "fattree-random",
    .aliases = ftr_aliases,
    .help = "cm5-fattree: up to the lowest common ancestor on random parent ports, "
            "then down by the destination's base-4 digits",
    .supports = ftr_supports,
    .route_classes = ftr_classes,
    .setup = ftr_setup,
    .route = ftr_route,
    .relation = ftr_relation,
    .destroy = ftr_destroy,
};
