/* topologies/bfs.c — hop distances between routers by breadth-first
 * search over a built topology's router-router ports: the one search the
 * table-driven topologies (cmesh's express links, anynet) and their
 * routings share. Setup only, never on the hot path. */
#include "topologies/topology.h"

uint32_t mpp_topo_router_bfs(const mpp_topo *t, uint32_t src, uint32_t *dist, uint32_t *queue)
{
    for (uint32_t r = 0; r < t->routers; r++)
        dist[r] = UINT32_MAX;
    uint32_t head = 0, tail = 0;
    dist[src] = 0;
    queue[tail++] = src;
    while (head < tail) {
        uint32_t r = queue[head++];
        for (uint32_t g = t->port_base[r]; g < t->port_base[r + 1]; g++) {
            uint32_t p = t->port_peer[g];
            if (p == MPP_TOPO_NONE || (p & MPP_TOPO_NODE))
                continue;
            uint32_t s = t->port_router[p];
            if (dist[s] == UINT32_MAX) {
                dist[s] = dist[r] + 1;
                queue[tail++] = s;
            }
        }
    }
    return tail;
}
