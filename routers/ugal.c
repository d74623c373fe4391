/* routers/ugal.c — UGAL, universal globally-adaptive load-balanced routing
 * (Singh 2005), as BookSim routes it on the flattened butterfly
 * (ugal_flatfly_onchip) and the dragonfly (ugal_dragonflynew).
 *
 * At its source router a packet draws an intermediate node and compares
 * the minimal route with the Valiant route through it, by the queue of the
 * first hop of each (the flits its output has sent and not had credited
 * back, over all its VCs: mpp_route_used, BookSim's GetUsedCredit):
 *   flatfly   the intermediate router keeps the coordinates in which source
 *             and destination agree and draws the others (a random node of
 *             it); minimal when H_min q_min <= H_val q_val + 2 (H: hops);
 *   dragonfly a node drawn from the whole network; minimal when source and
 *             destination share a group, when the intermediate is in the
 *             source's group, or when q_min <= 2 q_val + 30.
 * The Valiant route goes minimally to the intermediate router (phase 0),
 * then minimally to the destination (phase 1); the minimal route is phase 1
 * from the source. Every other router only follows (routers/flydf.c).
 *
 * Classes (routers/flydf.c): phase x per_phase + (dragonfly) the global-hop
 * bit: 2 on the flatfly (BookSim's halves of the VCs), 4 on the dragonfly.
 * The relation is the union of the minimal and the Valiant routes that the
 * source can choose, so `mppnet check --deadlock` checks every route; the
 * argument is routers/flydf.c's.
 *
 * Where this departs from BookSim: (1) BookSim's dragonfly UGAL has 3 VCs,
 * its VC 0 shared by the local hops of both groups of phase 0, which lets
 * the dependency graph close a cycle (source-group hop -> global ->
 * intermediate-group hop -> global ...); here phase 0 has two classes, so
 * the dragonfly needs 4 (vcs a multiple of 4). (2) The engine calls an
 * adaptive routing again in every cycle a head waits for a VC, so the
 * choice is taken again with fresh queues and a fresh intermediate until
 * the head moves; BookSim decides once. (3) The intermediate is drawn from
 * the router's stream, not one global stream. */
#include "routers/routing.h"

static bool ugal_supports(const mpp_topo *t, const void *cfg, mpp_err *err)
{
    if (mpp_routing_is_flydf(t))
        return true;
    mpp_err_set(err, MPP_EINVAL,
                "router 'ugal' supports the flatfly and dragonfly topologies, not '%s'",
                t->ops->name);
    return false;
}

static uint32_t ugal_classes(const mpp_topo *t, const void *cfg)
{
    return 2 * mpp_routing_flydf_per_phase(t);
}

/* The node on router wr's local port j. */
static uint32_t node_at(const mpp_topo *t, uint32_t wr, uint32_t j)
{
    return t->link_node[t->port_peer[t->port_base[wr] + j] & ~MPP_TOPO_NODE];
}

/* The choice at the source router r: st becomes phase 1 (minimal) or
 * phase 0 toward a drawn intermediate. */
static void ugal_choose(const mpp_topo *t, uint32_t r, mpp_route_state *st, mpp_rng *rng,
                        const mpp_route_ctx *x)
{
    uint32_t tr = st->dst_router, w, wr;
    st->nphases = 2;
    st->target[1] = st->dst;
    st->phase = 1;
    if (r == tr)
        return;
    if (t->kind == MPP_TOPO_FLATFLY) {
        uint32_t k = t->dims[0], c = t->dims[2], j = mpp_rng_below(rng, c);
        wr = 0;
        for (uint32_t d = 0, s = 1, a = r, b = tr; d < t->dims[1]; d++, s *= k, a /= k, b /= k)
            wr += s * (a % k == b % k ? a % k : mpp_rng_below(rng, k));
        if (wr == r)
            return;
        w = node_at(t, wr, j);
        uint32_t hmin = mpp_routing_flydf_hops(t, r, tr);
        uint32_t hval = mpp_routing_flydf_hops(t, r, wr) + mpp_routing_flydf_hops(t, wr, tr);
        uint64_t qmin = mpp_route_used(x, mpp_routing_flydf_step(t, r, tr));
        uint64_t qval = mpp_route_used(x, mpp_routing_flydf_step(t, r, wr));
        if (hmin * qmin <= hval * qval + 2)
            return;
    } else {
        uint32_t a = t->dims[1];
        if (r / a == tr / a)
            return;
        w = mpp_rng_below(rng, t->nodes);
        wr = t->node_router[w];
        if (wr / a == r / a)
            return;
        uint64_t qmin = mpp_route_used(x, mpp_routing_flydf_step(t, r, tr));
        uint64_t qval = mpp_route_used(x, mpp_routing_flydf_step(t, r, wr));
        if (qmin <= 2 * qval + 30)
            return;
    }
    st->phase = 0;
    st->target[0] = w;
}

static void ugal_route_x(const mpp_topo *t, uint32_t r, mpp_route_state *st, mpp_rng *rng,
                         const mpp_route_ctx *x, uint32_t cls_in, mpp_route_out *out)
{
    if (cls_in == MPP_ROUTE_INJECT)
        ugal_choose(t, r, st, rng, x);
    else
        mpp_routing_phase_advance(t, r, st);
    out->port = mpp_routing_flydf_port(t, r, st->target[st->phase]);
    out->route_class = mpp_routing_flydf_class(t, out->port, st->phase, cls_in);
    out->misroute = 0;
}

static void ugal_route_adaptive(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                                uint32_t in_port, mpp_route_state *st, mpp_rng *rng,
                                const mpp_route_ctx *x, mpp_route_out *out)
{
    ugal_route_x(t, r, st, rng, x, x->in_class, out);
}

/* Without the engine's view (the node side, tests): every queue empty, so
 * the minimal route. */
static void ugal_route(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                       uint32_t in_port, mpp_route_state *st, mpp_rng *rng, mpp_route_out *out)
{
    ugal_route_x(t, r, st, rng, NULL, mpp_routing_held_class(t, r, in_port, st), out);
}

static void ugal_relation(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                          uint32_t in_port, uint32_t cls, uint32_t to, uint32_t flags,
                          mpp_route_emit emit, void *ud)
{
    mpp_routing_flydf_relation(t, r, cls, to, MPP_FLYDF_UGAL, emit, ud);
}

const mpp_routing_ops mpp_routing_ugal = {
    .name = "ugal",
    .stretch = 1.5,
    .help = "UGAL (flatfly, dragonfly): at the source, minimal or Valiant through a drawn "
            "intermediate by queue length x hops, as BookSim",
    .supports = ugal_supports,
    .route_classes = ugal_classes,
    .route = ugal_route,
    .route_adaptive = ugal_route_adaptive,
    .relation = ugal_relation,
};
