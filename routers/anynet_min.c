/* routers/anynet_min.c — shortest-path routing on an anynet network
 * (topologies/anynet.c), as BookSim's min_anynet (src/networks/anynet.cpp):
 * a routing table built once, one output port per (router, destination
 * router), deterministic.
 *
 * The table. For each source router s, a breadth-first search gives every
 * router's hop distance from s; the predecessor of router v is its
 * lowest-numbered neighbour one hop nearer s — the one BookSim's Dijkstra
 * (routers taken in order of distance, then id; a predecessor replaced only
 * by a strictly shorter path) settles on with unit link weights. The first
 * hop from s toward v follows the predecessors back to s: table[s][v] is
 * s's port to that neighbour. At the destination's router the packet
 * leaves by the destination node's port. Setup takes O(R (R + links))
 * time and R^2 x 4 bytes (4 MiB at anynet's 1024 routers).
 *
 * Deadlock. Every route is a shortest path and one route class is used;
 * on an arbitrary graph shortest-path routing can deadlock (a ring of five
 * routers: every packet two hops clockwise closes a cycle of channel
 * dependencies), so nothing is promised here: mppnet check --deadlock
 * builds the channel dependency graph of the table on the given file and
 * reports its cycle (exit 1) or its absence. On a tree, or any graph
 * whose shortest paths never chain round a cycle, it is acyclic. */
#include "routers/routing.h"

#include "topologies/topology.h"

#include <stdlib.h>

typedef struct anm_priv {
    uint32_t routers;
    uint32_t *port;   /* [routers * routers]: local port of s toward router v */
} anm_priv;

static bool anm_supports(const mpp_topo *t, const void *cfg, mpp_err *err)
{
    if (t->kind == MPP_TOPO_ANYNET)
        return true;
    mpp_err_set(err, MPP_EINVAL, "router 'anynet-min' supports only the anynet topology, not '%s'",
                t->ops->name);
    return false;
}

static uint32_t anm_classes(const mpp_topo *t, const void *cfg) { return 1; }

static void anm_destroy(void *privp)
{
    anm_priv *p = privp;
    if (!p)
        return;
    free(p->port);
    free(p);
}

/* Build the table (see above). MPP_ENOMEM, or MPP_EINVAL when a router
 * cannot reach another (anynet's setup refuses such a file first). */
static int anm_setup(const mpp_topo *t, const void *cfg, void **privp, mpp_err *err)
{
    uint32_t R = t->routers;
    anm_priv *p = calloc(1, sizeof *p);
    uint32_t *dist = malloc(R * sizeof *dist), *queue = malloc(R * sizeof *queue);
    uint32_t *first = malloc(R * sizeof *first), *nbport = malloc(R * sizeof *nbport);
    int rc = 0;
    if (!p || !dist || !queue || !first || !nbport ||
        !(p->port = malloc((size_t)R * R * sizeof *p->port))) {
        rc = mpp_err_set(err, MPP_ENOMEM, "out of memory building anynet-min's routing table");
        goto done;
    }
    p->routers = R;
    for (uint32_t s = 0; s < R; s++) {
        if (mpp_topo_router_bfs(t, s, dist, queue) < R) {
            rc = mpp_err_set(err, MPP_EINVAL, "anynet-min: router %u cannot reach every router",
                             s);
            goto done;
        }
        for (uint32_t g = t->port_base[s]; g < t->port_base[s + 1]; g++) {
            uint32_t peer = t->port_peer[g];
            if (peer != MPP_TOPO_NONE && !(peer & MPP_TOPO_NODE))
                nbport[t->port_router[peer]] = g - t->port_base[s];
        }
        uint32_t *row = p->port + (size_t)s * R;
        first[s] = s;
        row[s] = MPP_TOPO_NONE;
        for (uint32_t i = 1; i < R; i++) {
            uint32_t v = queue[i], pred = UINT32_MAX;
            for (uint32_t g = t->port_base[v]; g < t->port_base[v + 1]; g++) {
                uint32_t peer = t->port_peer[g];
                if (peer == MPP_TOPO_NONE || (peer & MPP_TOPO_NODE))
                    continue;
                uint32_t u = t->port_router[peer];
                if (dist[u] + 1 == dist[v] && u < pred)
                    pred = u;
            }
            first[v] = pred == s ? v : first[pred];
            row[v] = nbport[first[v]];
        }
    }
    *privp = p;
    p = NULL;
done:
    anm_destroy(p);
    free(dist);
    free(queue);
    free(first);
    free(nbport);
    return rc;
}

/* Router r's port toward node `to` (its router tr). */
static uint32_t anm_port(const mpp_topo *t, const anm_priv *p, uint32_t r, uint32_t to,
                         uint32_t tr)
{
    if (r == tr)
        return t->link_port[t->node_link_base[to]] - t->port_base[r];
    return p->port[(size_t)r * p->routers + tr];
}

static void anm_route(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                      uint32_t in_port, mpp_route_state *st, mpp_rng *rng, mpp_route_out *out)
{
    out->route_class = 0;
    out->port = anm_port(t, priv, r, st->dst, st->dst_router);
}

static void anm_relation(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                         uint32_t in_port, uint32_t cls, uint32_t to, uint32_t flags,
                         mpp_route_emit emit, void *ud)
{
    mpp_route_hop h = {.port = anm_port(t, priv, r, to, t->node_router[to]), .to = to};
    emit(ud, &h);
}

static const char *const anm_aliases[] = {"min_anynet", NULL};

const mpp_routing_ops mpp_routing_anynet_min = {
    .name = "anynet-min",
    .aliases = anm_aliases,
    .help = "anynet: shortest paths from a routing table, ties to the lowest router id "
            "(BookSim's min)",
    .supports = anm_supports,
    .route_classes = anm_classes,
    .setup = anm_setup,
    .route = anm_route,
    .relation = anm_relation,
    .destroy = anm_destroy,
};
