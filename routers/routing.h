/* routers/routing.h — the routing plug-in family: the registry
 * (mpp_routing_find, mpp_routing_all) and the helpers the dimension-ordered
 * plug-ins share (routers/dor.c). The ops table and the route state are the
 * engine's (core/route.h); each file of this folder implements one table,
 * registered in routers/registry.c. */
#ifndef MPP_ROUTERS_ROUTING_H
#define MPP_ROUTERS_ROUTING_H

#include <stdint.h>

#include "core/route.h"

/* The registry (routers/registry.c): find by name or alias; list all. */
const mpp_routing_ops *mpp_routing_find(const char *name);
const mpp_routing_ops *const *mpp_routing_all(void);
/* The family, for the configuration layer (network.router). */
extern const mpp_family mpp_routing_family;

/* Helpers shared by the dimension-ordered plug-ins (routers/dor.c): the
 * output port that moves one hop from router r toward node `to` in
 * dimension order (mesh: X then Y; hypercube: highest differing bit first),
 * or the node's ejection port when r is its router. Kinds mesh, hypercube. */
uint32_t mpp_routing_dor_port(const mpp_topo *t, uint32_t r, uint32_t to);
/* The same with the router tr of `to` given (the route state's dst_router:
 * no lookup per hop). */
uint32_t mpp_routing_dor_step(const mpp_topo *t, uint32_t r, uint32_t to, uint32_t tr);
/* The same with Y before X on a mesh. */
uint32_t mpp_routing_dor_port_yx(const mpp_topo *t, uint32_t r, uint32_t to);
/* Multi-phase plug-ins: while router r is the router of the current phase's
 * target and a later phase exists, move to the next phase. */
void mpp_routing_phase_advance(const mpp_topo *t, uint32_t r, mpp_route_state *st);
/* The router node `n` attaches to through its first link. */
uint32_t mpp_routing_node_router(const mpp_topo *t, uint32_t n);

#endif
