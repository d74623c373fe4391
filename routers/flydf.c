/* routers/flydf.c — the minimal steps, route classes and routing
 * relations that ecube, valiant and ugal share on the flattened butterfly
 * and the dragonfly (see routing.h; port numbers follow
 * topologies/flatfly.c and topologies/dragonfly.c, core/topo.h).
 *
 * Minimal step toward router tr:
 *   flatfly   correct the lowest differing coordinate in one hop (the
 *             dimensions in increasing order: BookSim's flatfly_outport);
 *   dragonfly within the group, straight to tr; else to the router of the
 *             group that holds the global link to tr's group, over it, then
 *             to tr (BookSim's dragonfly_port).
 *
 * Route classes: a routing of P phases (ecube 1, valiant and ugal 2) uses
 * P x C classes, C per phase: on the flatfly C = 1 (class = phase); on the
 * dragonfly C = 2, class = 2 phase + b, b = 1 from the global hop of the
 * phase on (the global hop included), else 0.
 *
 * Deadlock freedom (docs/routing.md, "Flattened butterfly and dragonfly";
 * `mppnet check --deadlock` checks the relation below):
 *   1. flatfly, one phase: a hop moves to a higher dimension than the one
 *      it arrived by, so the channels of a class are ordered by dimension
 *      and the dependency graph is acyclic;
 *   2. dragonfly, one phase: class 2ph holds only first local hops (from
 *      the router a packet starts the phase at) followed by the global hop
 *      (class 2ph + 1), and class 2ph + 1 holds global hops followed by at
 *      most one local hop, which leads to the phase's end: no cycle in
 *      either class, and the class only grows along a route;
 *   3. two phases: phase 1's classes are above phase 0's, so a packet never
 *      waits for a lower class than it holds; with 1 and 2 each class's
 *      graph is acyclic, hence the whole graph. */
#include "routers/routing.h"

bool mpp_routing_is_flydf(const mpp_topo *t)
{
    return t->kind == MPP_TOPO_FLATFLY || t->kind == MPP_TOPO_DRAGONFLY;
}

uint32_t mpp_routing_flydf_per_phase(const mpp_topo *t)
{
    return t->kind == MPP_TOPO_DRAGONFLY ? 2 : 1;
}

/* Dragonfly: the global port of router r (>= p + a - 1). */
static bool df_global(const mpp_topo *t, uint32_t port)
{
    return port >= t->dims[0] + t->dims[1] - 1 && port < t->dims[0] + t->dims[1] - 1 + t->dims[2];
}

uint32_t mpp_routing_flydf_step(const mpp_topo *t, uint32_t r, uint32_t tr)
{
    if (r == tr)
        return MPP_TOPO_NONE;
    if (t->kind == MPP_TOPO_FLATFLY) {
        uint32_t k = t->dims[0], c = t->dims[2];
        for (uint32_t d = 0;; d++, r /= k, tr /= k) {
            uint32_t a = r % k, b = tr % k;
            if (a != b)
                return c + (k - 1) * d + (b > a ? b - 1 : b);
        }
    }
    uint32_t P = t->dims[0], a = t->dims[1], h = t->dims[2];
    uint32_t G = r / a, D = tr / a, i = r % a, to;
    if (G == D) {
        to = tr % a;
    } else {
        uint32_t m = D - (D > G); /* G's global link toward D */
        if (m / h == i)
            return P + a - 1 + m % h;
        to = m / h;
    }
    return P + (to > i ? to - 1 : to);
}

uint32_t mpp_routing_flydf_port(const mpp_topo *t, uint32_t r, uint32_t to)
{
    uint32_t p = mpp_routing_flydf_step(t, r, t->node_router[to]);
    return p != MPP_TOPO_NONE ? p : t->link_port[t->node_link_base[to]] - t->port_base[r];
}

uint32_t mpp_routing_flydf_hops(const mpp_topo *t, uint32_t ra, uint32_t rb)
{
    uint32_t h = 0;
    for (uint32_t p; (p = mpp_routing_flydf_step(t, ra, rb)) != MPP_TOPO_NONE; h++)
        ra = t->port_router[t->port_peer[t->port_base[ra] + p]];
    return h;
}

uint32_t mpp_routing_flydf_class(const mpp_topo *t, uint32_t out, uint32_t phase, uint32_t cls_in)
{
    if (t->kind != MPP_TOPO_DRAGONFLY)
        return phase;
    bool same = cls_in != MPP_ROUTE_INJECT && cls_in / 2 == phase;
    return 2 * phase + ((same && (cls_in & 1)) || df_global(t, out));
}

void mpp_routing_flydf_hop(const mpp_topo *t, uint32_t r, uint32_t cls, uint32_t phase,
                           uint32_t target, mpp_route_emit emit, void *ud)
{
    mpp_route_hop h = {.port = mpp_routing_flydf_port(t, r, target), .to = target};
    h.route_class = mpp_routing_flydf_class(t, h.port, phase, cls);
    emit(ud, &h);
}

void mpp_routing_flydf_relation(const mpp_topo *t, uint32_t r, uint32_t cls, uint32_t to,
                                int kind, mpp_route_emit emit, void *ud)
{
    uint32_t C = mpp_routing_flydf_per_phase(t), N = t->nodes;
    if (kind == MPP_FLYDF_MINIMAL) {
        mpp_routing_flydf_hop(t, r, cls, 0, to, emit, ud);
        return;
    }
    if (cls == MPP_ROUTE_INJECT) {
        uint32_t tr = t->node_router[to];
        if (kind == MPP_FLYDF_UGAL || (kind == MPP_FLYDF_VALIANT && t->kind == MPP_TOPO_FLATFLY &&
                                       r == tr)) {
            /* the minimal route (ugal), or the destination is here */
            mpp_routing_flydf_hop(t, r, cls, 1, to, emit, ud);
            if (r == tr)
                return;
        }
        for (uint32_t w = 0; w < N; w++) {
            uint32_t wr = t->node_router[w];
            if (wr == r) {
                if (kind == MPP_FLYDF_VALIANT)
                    mpp_routing_flydf_hop(t, r, cls, 1, to, emit, ud);
                continue; /* ugal: the minimal route, emitted above */
            }
            if (kind == MPP_FLYDF_UGAL && !mpp_routing_ugal_candidate(t, r, tr, wr))
                continue;
            mpp_routing_flydf_hop(t, r, cls, 0, w, emit, ud);
        }
        return;
    }
    if (cls / C == 0) {
        if (r == t->node_router[to]) { /* at the intermediate: on to any destination */
            for (uint32_t d = 0; d < N; d++)
                mpp_routing_flydf_hop(t, r, cls, 1, d, emit, ud);
            return;
        }
        if (kind == MPP_FLYDF_VALIANT && t->kind == MPP_TOPO_FLATFLY) {
            /* valiant on the flatfly ejects where it meets its destination's
             * router on the way (BookSim's valiant_flatfly) */
            for (uint32_t g = t->port_base[r]; g < t->port_base[r + 1]; g++) {
                uint32_t peer = t->port_peer[g];
                if (peer != MPP_TOPO_NONE && (peer & MPP_TOPO_NODE))
                    mpp_routing_flydf_hop(t, r, cls, 1, t->link_node[peer & ~MPP_TOPO_NODE], emit,
                                          ud);
            }
        }
        mpp_routing_flydf_hop(t, r, cls, 0, to, emit, ud);
        return;
    }
    mpp_routing_flydf_hop(t, r, cls, 1, to, emit, ud);
}

bool mpp_routing_ugal_candidate(const mpp_topo *t, uint32_t r, uint32_t tr, uint32_t wr)
{
    if (t->kind == MPP_TOPO_DRAGONFLY) {
        uint32_t a = t->dims[1];
        return r / a != tr / a && wr / a != r / a;
    }
    /* flatfly: the intermediate router keeps the coordinates in which
     * source and destination agree */
    uint32_t k = t->dims[0];
    for (uint32_t d = 0; d < t->dims[1]; d++, r /= k, tr /= k, wr /= k)
        if (r % k == tr % k && wr % k != r % k)
            return false;
    return true;
}
