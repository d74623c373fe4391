/* topologies/topology.h — the topology plug-in family: the registry
 * (mpp_topo_find, mpp_topo_all). The ops table and the topology
 * description are the engine's (core/topo.h); each file of this folder
 * implements one table, registered in topologies/registry.c. */
#ifndef MPP_TOPOLOGIES_TOPOLOGY_H
#define MPP_TOPOLOGIES_TOPOLOGY_H

#include <stdint.h>

#include "core/topo.h"

/* The topology called name, or NULL. */
const mpp_topo_ops *mpp_topo_find(const char *name);
/* NULL-terminated list of all registered topologies. */
const mpp_topo_ops *const *mpp_topo_all(void);
/* The numbers of a short form written K0xK1x... ("8x8x8", x or X) into
 * v[0 .. max): how many, or 0 when the text is not 1 to max of them. */
uint32_t mpp_topo_parse_x(const char *args, uint64_t *v, uint32_t max);
/* Breadth-first search over router-router links from router src
 * (topologies/bfs.c): dist[r] = hops from src to router r (UINT32_MAX when
 * unreachable); queue[0 .. return) the routers reached, nearest first.
 * dist and queue have t->routers entries each. Setup only. */
uint32_t mpp_topo_router_bfs(const mpp_topo *t, uint32_t src, uint32_t *dist, uint32_t *queue);
/* The family, for the configuration layer (network.topology). */
extern const mpp_family mpp_topo_family;

#endif
