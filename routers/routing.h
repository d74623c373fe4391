/* routers/routing.h — the routing plug-in family: the registry
 * (mpp_routing_find, mpp_routing_all) and the helpers the dimension-ordered
 * plug-ins share (routers/dor.c). The ops table and the route state are the
 * engine's (core/route.h); each file of this folder implements one table,
 * registered in routers/registry.c. */
#ifndef MPP_ROUTERS_ROUTING_H
#define MPP_ROUTERS_ROUTING_H

#include <stdbool.h>
#include <stdint.h>

#include "core/route.h"

/* The registry (routers/registry.c): find by name or alias; list all. */
const mpp_routing_ops *mpp_routing_find(const char *name);
const mpp_routing_ops *const *mpp_routing_all(void);
/* The family, for the configuration layer (network.router). */
extern const mpp_family mpp_routing_family;

/* Helpers shared by the dimension-ordered plug-ins (routers/dor.c): the
 * output port that moves one hop from router r toward node `to` in
 * dimension order (mesh: X then Y; hypercube: highest differing bit first;
 * k-ary n-cube: its order; butterfly: destination tag), or the node's
 * ejection port when r is its router. */
uint32_t mpp_routing_dor_port(const mpp_topo *t, uint32_t r, uint32_t to);
/* The same with the router tr of `to` given (the route state's dst_router:
 * no lookup per hop). */
uint32_t mpp_routing_dor_step(const mpp_topo *t, uint32_t r, uint32_t to, uint32_t tr);
/* The same with Y before X on a mesh. */
uint32_t mpp_routing_dor_port_yx(const mpp_topo *t, uint32_t r, uint32_t to);
/* Multi-phase plug-ins: while router r is the router of the current phase's
 * target and a later phase exists, move to the next phase. */
void mpp_routing_phase_advance(const mpp_topo *t, uint32_t r, mpp_route_state *st);
/* k-ary n-cube (core/topo.h, mpp_cube): the port of one dimension-order
 * hop from router r toward router tr — the first differing dimension in
 * the shape's order, a ring the shorter way round — or MPP_TOPO_NONE when
 * r == tr. Where both ways round are as long (k even, tr opposite): a
 * draw from rng, or + when rng is NULL, and *alt (when alt is not NULL) the
 * other way's port; *alt is MPP_TOPO_NONE otherwise. */
uint32_t mpp_routing_kary_step(const mpp_cube *c, uint32_t r, uint32_t tr, mpp_rng *rng,
                               uint32_t *alt);
/* The same toward node `to`, its ejection port at its router. */
uint32_t mpp_routing_kary_port(const mpp_topo *t, uint32_t r, uint32_t to, mpp_rng *rng,
                               uint32_t *alt);
/* The dateline bit of a hop out of port `out` of router r on a k-ary
 * n-cube, the packet having arrived on port in_port holding bit b_in in
 * the same phase: 1 when out's dimension is a ring and the packet has
 * crossed its wrap-around link while travelling in it (arriving over it
 * now, or b_in). 0 for an ejection or a new dimension. */
uint32_t mpp_routing_dateline(const mpp_cube *c, uint32_t r, uint32_t in_port, uint32_t out,
                              uint32_t b_in);
/* Butterfly: the forward port of router r toward terminal `to` by
 * destination tag (at the last stage, the port ejecting to `to`). */
uint32_t mpp_routing_fly_step(const mpp_topo *t, uint32_t r, uint32_t to);
/* Route classes per phase of a dimension-ordered routing on t: 2 on a
 * k-ary n-cube with a ring (the dateline rule), else 1. */
uint32_t mpp_routing_ring_classes(const mpp_topo *t);
/* The route class of a dimension-ordered hop out of `out` of router r in
 * phase `phase`, bound for router tr, having arrived on in_port holding
 * class cls_in (MPP_ROUTE_INJECT at the source): phase * ring_classes +
 * the dateline bit of the k-ary n-cube's rule (mpp_cube.dateline). */
uint32_t mpp_routing_dor_class(const mpp_topo *t, uint32_t r, uint32_t in_port, uint32_t out,
                               uint32_t phase, uint32_t cls_in, uint32_t tr);
/* A multi-phase dimension-ordered hop (valiant, romm): advance the phase,
 * step toward its target, with the class of mpp_routing_dor_class. */
void mpp_routing_dor_phased(const mpp_topo *t, uint32_t r, uint32_t in_port, mpp_route_state *st,
                            mpp_rng *rng, mpp_route_out *out);
/* The routing relation of a dimension-ordered phase (core/route.h): emit
 * the hop from router r toward `target` in `phase`, having arrived on
 * in_port holding class cls (both ways round a ring where they tie). */
void mpp_routing_dor_hop(const mpp_topo *t, uint32_t r, uint32_t in_port, uint32_t cls,
                         uint32_t phase, uint32_t target, mpp_route_emit emit, void *ud);
/* The router node `n` attaches to through its first link. */
uint32_t mpp_routing_node_router(const mpp_topo *t, uint32_t n);

/* Adaptive routing (routers/adaptive.c, misroute.c). The minimal output
 * ports of router r toward router tr as a mask (bit = local port): on a
 * mesh, hypercube or k-ary n-cube every port of a dimension in which r and
 * tr differ that moves toward tr (on a ring the shorter way; both ways
 * when as long); 0 when r == tr or on other topologies. */
uint64_t mpp_routing_minimal_ports(const mpp_topo *t, uint32_t r, uint32_t tr);
/* The escape hop of a packet at router r holding a VC of class cls_in
 * (MPP_ROUTE_INJECT: just injected): dimension order toward st->dst with
 * the dateline rule on classes 0 .. escape - 1; a packet arriving on an
 * adaptive class (>= escape) enters the escape sub-network as if injected
 * at r. */
void mpp_routing_escape_hop(const mpp_topo *t, uint32_t r, uint32_t in_port, uint32_t cls_in,
                            uint32_t escape, const mpp_route_state *st, mpp_rng *rng,
                            mpp_route_out *out);
/* Of the local ports in the mask `ports`, the one whose class cls is the
 * freest (mpp_route_free; ties by a draw from rng; x NULL: all equally
 * free) in *pick; false when none can be allocated now. */
bool mpp_routing_freest(uint64_t ports, uint32_t cls, mpp_rng *rng, const mpp_route_ctx *x,
                        uint32_t *pick);
/* The freest minimal port of router r toward st's destination on class
 * cls (mpp_routing_freest), as a hop; false when none is free. */
bool mpp_routing_adaptive_minimal(const mpp_topo *t, uint32_t r, uint32_t cls,
                                  const mpp_route_state *st, mpp_rng *rng, const mpp_route_ctx *x,
                                  mpp_route_out *out);
/* The ports of router r that lead to another router but not closer to
 * router tr, other than in_port (the detours of a misroute), as a mask. */
uint64_t mpp_routing_detour_ports(const mpp_topo *t, uint32_t r, uint32_t tr, uint32_t in_port);
/* supports for a routing of meshes, hypercubes and k-ary n-cubes (ROMM,
 * the adaptive routers): false, with the reason naming router `name`,
 * on any other topology. */
bool mpp_routing_supports_direct(const mpp_topo *t, const char *name, mpp_err *err);
/* The adaptive routers' classes: escape classes (the dateline rule's 1 or
 * 2) and, above them, one adaptive class; their relation is the escape
 * sub-network's, dimension order entered at any router. */
uint32_t mpp_routing_escape_classes(const mpp_topo *t, const void *cfg);
uint32_t mpp_routing_adaptive_classes(const mpp_topo *t, const void *cfg);
void mpp_routing_escape_relation(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                                 uint32_t in_port, uint32_t cls, uint32_t to, uint32_t flags,
                                 mpp_route_emit emit, void *ud);
/* For a route hook without the engine's view: the class a head at router r
 * that arrived on in_port holds (MPP_ROUTE_INJECT at its source's node
 * port, else the class of its last hop). */
uint32_t mpp_routing_held_class(const mpp_topo *t, uint32_t r, uint32_t in_port,
                                const mpp_route_state *st);

/* The flattened butterfly and the dragonfly (routers/flydf.c). */
/* t is a flatfly or a dragonfly. */
bool mpp_routing_is_flydf(const mpp_topo *t);
/* Route classes per phase: 1 on the flatfly, 2 on the dragonfly (before
 * and from the phase's global hop). */
uint32_t mpp_routing_flydf_per_phase(const mpp_topo *t);
/* The minimal port of router r toward router tr (MPP_TOPO_NONE when r ==
 * tr): flatfly the lowest differing dimension, dragonfly local - global -
 * local (BookSim's flatfly_outport and dragonfly_port). */
uint32_t mpp_routing_flydf_step(const mpp_topo *t, uint32_t r, uint32_t tr);
/* The same toward node `to`: its ejection port at its router. */
uint32_t mpp_routing_flydf_port(const mpp_topo *t, uint32_t r, uint32_t to);
/* Minimal router hops from router ra to rb. */
uint32_t mpp_routing_flydf_hops(const mpp_topo *t, uint32_t ra, uint32_t rb);
/* The route class of a hop out of `out` in `phase`, the packet holding a
 * VC of class cls_in (MPP_ROUTE_INJECT at its source): phase x per_phase
 * + (dragonfly) whether the phase has reached its global hop. */
uint32_t mpp_routing_flydf_class(const mpp_topo *t, uint32_t out, uint32_t phase, uint32_t cls_in);
/* The relation's hop from router r toward `target` in `phase`. */
void mpp_routing_flydf_hop(const mpp_topo *t, uint32_t r, uint32_t cls, uint32_t phase,
                           uint32_t target, mpp_route_emit emit, void *ud);
/* The routing relation (core/route.h) of ecube (MPP_FLYDF_MINIMAL),
 * valiant or ugal on these topologies. */
#define MPP_FLYDF_MINIMAL 0
#define MPP_FLYDF_VALIANT 1
#define MPP_FLYDF_UGAL 2
void mpp_routing_flydf_relation(const mpp_topo *t, uint32_t r, uint32_t cls, uint32_t to,
                                int kind, mpp_route_emit emit, void *ud);
/* UGAL: may a packet from router r to router tr be sent through router wr
 * (wr != r)? Flatfly: wr keeps the coordinates in which r and tr agree
 * (BookSim's find_ran_intm); dragonfly: r and tr are in different groups
 * and wr is in neither r's group. */
bool mpp_routing_ugal_candidate(const mpp_topo *t, uint32_t r, uint32_t tr, uint32_t wr);

#endif
