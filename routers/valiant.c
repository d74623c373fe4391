/* routers/valiant.c — Valiant's two-phase randomized routing.
 *
 * At the source a packet draws a uniformly random intermediate node r (from
 * the source's route-state stream); phase 0 routes to r, phase 1 from r to
 * the destination, each dimension-ordered (routers/dor.c) and each on its
 * own route classes, so a phase-1 packet never waits for a phase-0 VC and
 * the two acyclic dependency graphs cannot close a cycle. Path length:
 * d(s, r) + d(r, t). Meshes, hypercubes and k-ary n-cubes (on a ring, each
 * phase uses the dateline rule's two classes: four in all).
 *
 * Butterflies: the first pass goes by destination tag to the intermediate
 * terminal's side of the last stage and through its re-injection loop
 * (topologies/butterfly.c) back into stage 0 — the terminal passes the
 * packet on without a processor step — and the second pass by destination
 * tag to the destination: d(s, r) + 1 + d(r, t) links. Passes on classes 0
 * and 1 (the loop closes a cycle through the stages, which one class would
 * not break).
 *
 * Flattened butterflies and dragonflies (routers/flydf.c): each phase
 * minimal (flatfly: lowest dimension first; dragonfly: local, global,
 * local); phase 0 on the lower classes, phase 1 on the upper (flatfly: 2
 * classes, BookSim's two halves of the VCs; dragonfly: 4, each phase's
 * two split at its global hop). On the flatfly, as BookSim's
 * valiant_flatfly, a packet that reaches its destination's router on the
 * way to the intermediate ejects there. */
#include "routers/routing.h"

static bool valiant_supports(const mpp_topo *t, const void *cfg, mpp_err *err)
{
    if (t->kind == MPP_TOPO_MESH || t->kind == MPP_TOPO_HYPERCUBE || t->kind == MPP_TOPO_KARY ||
        t->kind == MPP_TOPO_BUTTERFLY || mpp_routing_is_flydf(t))
        return true;
    mpp_err_set(err, MPP_EINVAL,
                "router 'valiant' supports the mesh, hypercube, kary-ncube, butterfly, flatfly "
                "and dragonfly topologies, not '%s'",
                t->ops->name);
    return false;
}

static uint32_t valiant_classes(const mpp_topo *t, const void *cfg)
{
    return 2 * (mpp_routing_is_flydf(t) ? mpp_routing_flydf_per_phase(t)
                                        : mpp_routing_ring_classes(t));
}

static void valiant_init(const mpp_topo *t, const void *cfg, void *priv, mpp_route_state *st,
                         mpp_rng *rng)
{
    st->nphases = 2;
    st->target[0] = mpp_rng_below(rng, t->nodes);
    st->target[1] = st->dst;
}

/* Butterfly: the stage of router r, and whether in_port is a loop port of
 * stage 0 (the packet is starting its second pass). */
static uint32_t fly_stage(const mpp_topo *t, uint32_t r) { return r / t->dims[2]; }

static bool fly_second(const mpp_topo *t, uint32_t r, uint32_t in_port)
{
    return fly_stage(t, r) == 0 && in_port >= 2 * t->dims[0];
}

/* The first pass's hop toward terminal w: at the last stage into its loop. */
static uint32_t fly_first_hop(const mpp_topo *t, uint32_t r, uint32_t w)
{
    uint32_t p = mpp_routing_fly_step(t, r, w);
    return fly_stage(t, r) + 1 == t->dims[1] ? p + t->dims[0] : p;
}

static void valiant_route(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                          uint32_t in_port, mpp_route_state *st, mpp_rng *rng, mpp_route_out *out)
{
    if (mpp_routing_is_flydf(t)) {
        uint32_t cls_in = mpp_routing_held_class(t, r, in_port, st);
        if (t->kind == MPP_TOPO_FLATFLY && st->phase == 0 &&
            (r == st->dst_router || r == t->node_router[st->target[0]]))
            st->phase = 1;
        else
            mpp_routing_phase_advance(t, r, st);
        out->port = mpp_routing_flydf_port(t, r, st->target[st->phase]);
        out->route_class = mpp_routing_flydf_class(t, out->port, st->phase, cls_in);
        return;
    }
    if (t->kind != MPP_TOPO_BUTTERFLY) {
        mpp_routing_dor_phased(t, r, in_port, st, rng, out);
        return;
    }
    if (fly_second(t, r, in_port))
        st->phase = 1;
    out->route_class = st->phase;
    out->port = st->phase ? mpp_routing_fly_step(t, r, st->dst) : fly_first_hop(t, r, st->target[0]);
}

static void valiant_relation(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                             uint32_t in_port, uint32_t cls, uint32_t to, uint32_t flags,
                             mpp_route_emit emit, void *ud)
{
    uint32_t N = t->nodes;
    if (mpp_routing_is_flydf(t)) {
        mpp_routing_flydf_relation(t, r, cls, to, MPP_FLYDF_VALIANT, emit, ud);
        return;
    }
    if (t->kind == MPP_TOPO_BUTTERFLY) {
        mpp_route_hop h = {0};
        if (cls == MPP_ROUTE_INJECT || (cls == 0 && !fly_second(t, r, in_port))) {
            /* first pass: toward every intermediate at the source */
            uint32_t lo = cls == MPP_ROUTE_INJECT ? 0 : to, hi = cls == MPP_ROUTE_INJECT ? N : to + 1;
            for (uint32_t w = lo; w < hi; w++) {
                h = (mpp_route_hop){.port = fly_first_hop(t, r, w), .route_class = 0, .to = w};
                emit(ud, &h);
            }
        } else if (cls == 0) {
            for (uint32_t d = 0; d < N; d++) { /* the second pass starts: any destination */
                h = (mpp_route_hop){.port = mpp_routing_fly_step(t, r, d), .route_class = 1, .to = d};
                emit(ud, &h);
            }
        } else {
            h = (mpp_route_hop){.port = mpp_routing_fly_step(t, r, to), .route_class = 1, .to = to};
            emit(ud, &h);
        }
        return;
    }
    uint32_t W = mpp_routing_ring_classes(t);
    if (cls == MPP_ROUTE_INJECT) {
        /* every intermediate; one at this router starts phase 1 here */
        for (uint32_t w = 0; w < N; w++) {
            if (mpp_routing_node_router(t, w) == r)
                mpp_routing_dor_hop(t, r, in_port, cls, 1, to, emit, ud);
            else
                mpp_routing_dor_hop(t, r, in_port, cls, 0, w, emit, ud);
        }
    } else if (cls / W == 0 && r == mpp_routing_node_router(t, to)) {
        for (uint32_t d = 0; d < N; d++) /* at the intermediate: any destination */
            mpp_routing_dor_hop(t, r, in_port, cls, 1, d, emit, ud);
    } else {
        mpp_routing_dor_hop(t, r, in_port, cls, cls / W, to, emit, ud);
    }
}

const mpp_routing_ops mpp_routing_valiant = {
    .name = "valiant",
    .stretch = 2, /* d(s, r) + d(r, t), r uniform: twice the mean distance */
    .help = "two phases: to a random node, then to the destination, each dimension-ordered "
            "(butterfly: two passes through the intermediate terminal's loop; flatfly, "
            "dragonfly: minimal phases)",
    .supports = valiant_supports,
    .route_classes = valiant_classes,
    .init_packet = valiant_init,
    .route = valiant_route,
    .relation = valiant_relation,
};
