/* routers/dor.c — dimension-order steps shared by the routing plug-ins on
 * meshes, hypercubes, k-ary n-cubes and butterflies (see routing.h). A mesh
 * step corrects X (columns) before Y (rows); a hypercube step corrects the
 * highest differing address bit first (descending dimension order, as
 * e-cube routing is usually defined for the CM-2 / iPSC); a k-ary n-cube
 * step corrects the first differing dimension of its configured order,
 * going the shorter way round a ring (both ways as long: a draw from the
 * router's stream, as BookSim's dim_order_torus; a tie only arises where a
 * packet enters the dimension, after one hop the way is the shorter one);
 * a butterfly step is
 * destination-tag. Port numbers follow topologies/mesh.c, hypercube.c,
 * kary_ncube.c and butterfly.c.
 *
 * The dateline rule (k-ary n-cubes with rings): a packet's route class
 * within a phase is phase * 2 + b, b = 0 until the packet crosses the
 * wrap-around link of the ring it is travelling in, 1 from the hop after
 * that crossing until it leaves the dimension (a new dimension, or a new
 * phase, starts again at 0). The wrap-around link itself is taken on the
 * lower class. Every ring's channels on the lower class then form a line
 * ending at the wrap-around link, and those on the upper class a line
 * starting after it that a minimal route never follows back to it (a
 * route covers at most half the ring): no cycle within a dimension, and
 * dimension order orders the dimensions, so two classes per phase make
 * dimension-order routing deadlock-free on any torus (Dally and Seitz).
 * A k-ary n-cube with `dateline: dimension` uses BookSim's rule instead:
 * the class chosen where the packet enters a dimension, upper for the whole
 * of it when its route crosses the wrap-around link (the upper channels of
 * a ring are then used only by routes that cross, none of which comes back
 * round to where it started). */
#include "routers/routing.h"

#include <stdbool.h>

uint32_t mpp_routing_node_router(const mpp_topo *t, uint32_t n)
{
    return t->node_router[n];
}

/* The local port of router r that ejects to node n (r must be n's router).
 * Meshes, hypercubes and k-ary n-cubes only: their links are not split
 * (the butterfly's step gives its ejection port itself). */
static uint32_t eject_port(const mpp_topo *t, uint32_t r, uint32_t n)
{
    return t->link_port[t->node_link_base[n]] - t->port_base[r];
}

static uint32_t mesh_step(const mpp_topo *t, uint32_t r, uint32_t to, uint32_t tr, int yx)
{
    uint32_t a = mpp_mesh_coord(t, r), b = mpp_mesh_coord(t, tr);
    uint32_t rx = a & 0xffff, ry = a >> 16, tx = b & 0xffff, ty = b >> 16;
    if (!yx) {
        if (tx != rx)
            return tx > rx ? 0 : 1;
        if (ty != ry)
            return ty > ry ? 2 : 3;
    } else {
        if (ty != ry)
            return ty > ry ? 2 : 3;
        if (tx != rx)
            return tx > rx ? 0 : 1;
    }
    return eject_port(t, r, to);
}

/* k-ary n-cube: the port of one hop along dimension d from coordinate a
 * toward b (a != b): + or -, on a ring the shorter way; when both ways are
 * as long (k even, b opposite a) a draw from rng, or + without one, and
 * *alt the other way's port (else MPP_TOPO_NONE). */
static inline uint32_t kary_dir(const mpp_cube *c, uint32_t d, uint32_t a, uint32_t b,
                                mpp_rng *rng, uint32_t *alt)
{
    *alt = MPP_TOPO_NONE;
    if (!c->two[d])
        return c->pbase[d];
    if (!c->wrap[d])
        return b > a ? c->pbase[d] : c->pbase[d] + 1u;
    uint32_t up = b > a ? b - a : b + c->k[d] - a;
    if (up != c->k[d] - up)
        return up < c->k[d] - up ? c->pbase[d] : c->pbase[d] + 1u;
    uint32_t minus = rng ? (uint32_t)(mpp_rng_next(rng) >> 63) : 0;
    *alt = c->pbase[d] + !minus;
    return c->pbase[d] + minus;
}

uint32_t mpp_routing_kary_step(const mpp_cube *c, uint32_t r, uint32_t tr, mpp_rng *rng,
                               uint32_t *alt)
{
    uint32_t n = c->n, none;
    const uint16_t *a = c->coord + (size_t)r * n, *b = c->coord + (size_t)tr * n;
    if (!alt)
        alt = &none;
    if (c->descending) {
        for (uint32_t d = n; d-- > 0;)
            if (a[d] != b[d])
                return kary_dir(c, d, a[d], b[d], rng, alt);
    } else {
        for (uint32_t d = 0; d < n; d++)
            if (a[d] != b[d])
                return kary_dir(c, d, a[d], b[d], rng, alt);
    }
    *alt = MPP_TOPO_NONE;
    return MPP_TOPO_NONE;
}

uint32_t mpp_routing_dateline(const mpp_cube *c, uint32_t r, uint32_t in_port, uint32_t out,
                              uint32_t b_in)
{
    if (out >= c->node_port || in_port >= c->node_port)
        return 0;
    uint32_t d = c->pdim[out];
    if (!c->wrap[d] || c->pdim[in_port] != d)
        return 0;
    /* it arrived travelling in dimension d: over the wrap-around link when
     * it came in on -d at coordinate 0 (moving +) or on +d at k - 1 */
    uint32_t x = c->coord[(size_t)r * c->n + d];
    uint32_t wrapped = in_port != c->pbase[d] ? x == 0 : x == c->k[d] - 1;
    return b_in | wrapped;
}

uint32_t mpp_routing_fly_step(const mpp_topo *t, uint32_t r, uint32_t to)
{
    uint32_t k = t->dims[0], n = t->dims[1], rows = t->dims[2];
    uint32_t w = to; /* its digit n - 1 - s, s = r's stage */
    for (uint32_t i = r / rows; i + 1 < n; i++)
        w /= k;
    return k + w % k;
}

/* The k-ary n-cube's and the butterfly's step, out of line so that the
 * mesh's and the hypercube's (the engine's benchmarks) stay short. */
static __attribute__((noinline)) uint32_t other_step(const mpp_topo *t, uint32_t r, uint32_t to,
                                                     uint32_t tr)
{
    if (t->kind == MPP_TOPO_BUTTERFLY)
        return mpp_routing_fly_step(t, r, to);
    uint32_t p = mpp_routing_kary_step(mpp_topo_cube(t), r, tr, NULL, NULL);
    return p != MPP_TOPO_NONE ? p : eject_port(t, r, to);
}

uint32_t mpp_routing_kary_port(const mpp_topo *t, uint32_t r, uint32_t to, mpp_rng *rng,
                               uint32_t *alt)
{
    uint32_t p = mpp_routing_kary_step(mpp_topo_cube(t), r, t->node_router[to], rng, alt);
    return p != MPP_TOPO_NONE ? p : eject_port(t, r, to);
}

uint32_t mpp_routing_dor_step(const mpp_topo *t, uint32_t r, uint32_t to, uint32_t tr)
{
    if (t->kind == MPP_TOPO_MESH)
        return mesh_step(t, r, to, tr, 0);
    if (t->kind != MPP_TOPO_HYPERCUBE)
        return other_step(t, r, to, tr);
    uint32_t diff = r ^ tr;
    if (diff)
        return 31u - (uint32_t)__builtin_clz(diff);
    return eject_port(t, r, to);
}

uint32_t mpp_routing_dor_port(const mpp_topo *t, uint32_t r, uint32_t to)
{
    return mpp_routing_dor_step(t, r, to, mpp_routing_node_router(t, to));
}

uint32_t mpp_routing_dor_port_yx(const mpp_topo *t, uint32_t r, uint32_t to)
{
    if (t->kind == MPP_TOPO_MESH)
        return mesh_step(t, r, to, mpp_routing_node_router(t, to), 1);
    return mpp_routing_dor_port(t, r, to);
}

uint32_t mpp_routing_ring_classes(const mpp_topo *t)
{
    return t->kind == MPP_TOPO_KARY && mpp_topo_cube(t)->any_wrap ? 2 : 1;
}

uint32_t mpp_routing_dor_class(const mpp_topo *t, uint32_t r, uint32_t in_port, uint32_t out,
                               uint32_t phase, uint32_t cls_in, uint32_t tr)
{
    if (t->kind != MPP_TOPO_KARY || !mpp_topo_cube(t)->any_wrap)
        return phase;
    const mpp_cube *c = mpp_topo_cube(t);
    bool same_phase = cls_in != MPP_ROUTE_INJECT && cls_in / 2 == phase;
    if (c->dateline == MPP_CUBE_DATELINE_DIMENSION) {
        /* the class chosen where the packet enters a dimension (or a
         * phase starts) is kept through it: upper when the route along
         * that ring crosses the wrap-around link */
        if (out >= c->node_port)
            return phase * 2;
        uint32_t d = c->pdim[out];
        if (same_phase && in_port < c->node_port && c->pdim[in_port] == d)
            return phase * 2 + (cls_in & 1);
        if (!c->wrap[d])
            return phase * 2;
        uint32_t x = c->coord[(size_t)r * c->n + d], y = c->coord[(size_t)tr * c->n + d];
        return phase * 2 + (out == c->pbase[d] ? x > y : x < y);
    }
    /* the source and a new phase start on the lower class; within a
     * phase (cls_in = phase * 2 + b) the bit carries over */
    if (!same_phase)
        return phase * 2;
    return phase * 2 + mpp_routing_dateline(c, r, in_port, out, cls_in & 1);
}

void mpp_routing_phase_advance(const mpp_topo *t, uint32_t r, mpp_route_state *st)
{
    while (st->phase + 1 < st->nphases && r == mpp_routing_node_router(t, st->target[st->phase]))
        st->phase++;
}

void mpp_routing_dor_phased(const mpp_topo *t, uint32_t r, uint32_t in_port, mpp_route_state *st,
                            mpp_rng *rng, mpp_route_out *out)
{
    mpp_routing_phase_advance(t, r, st);
    uint32_t to = st->target[st->phase];
    out->port = t->kind == MPP_TOPO_KARY ? mpp_routing_kary_port(t, r, to, rng, NULL)
                                         : mpp_routing_dor_port(t, r, to);
    out->route_class = mpp_routing_dor_class(t, r, in_port, out->port, st->phase, st->route_class,
                                             t->node_router[to]);
}

void mpp_routing_dor_hop(const mpp_topo *t, uint32_t r, uint32_t in_port, uint32_t cls,
                         uint32_t phase, uint32_t target, mpp_route_emit emit, void *ud)
{
    uint32_t tr = t->node_router[target];
    uint32_t alt = MPP_TOPO_NONE;
    mpp_route_hop h = {.port = t->kind == MPP_TOPO_KARY
                                   ? mpp_routing_kary_port(t, r, target, NULL, &alt)
                                   : mpp_routing_dor_port(t, r, target),
                       .to = target};
    h.route_class = mpp_routing_dor_class(t, r, in_port, h.port, phase, cls, tr);
    emit(ud, &h);
    if (alt != MPP_TOPO_NONE) { /* a tie on a ring: either way */
        h.port = alt;
        h.route_class = mpp_routing_dor_class(t, r, in_port, alt, phase, cls, tr);
        emit(ud, &h);
    }
}

uint64_t mpp_routing_minimal_ports(const mpp_topo *t, uint32_t r, uint32_t tr)
{
    uint64_t m = 0;
    if (t->kind == MPP_TOPO_HYPERCUBE)
        return (uint64_t)(r ^ tr);
    if (t->kind == MPP_TOPO_MESH) {
        uint32_t a = mpp_mesh_coord(t, r), b = mpp_mesh_coord(t, tr);
        uint32_t rx = a & 0xffff, ry = a >> 16, tx = b & 0xffff, ty = b >> 16;
        if (tx != rx)
            m |= 1ULL << (tx > rx ? 0 : 1);
        if (ty != ry)
            m |= 1ULL << (ty > ry ? 2 : 3);
        return m;
    }
    if (t->kind != MPP_TOPO_KARY)
        return 0;
    const mpp_cube *c = mpp_topo_cube(t);
    const uint16_t *a = c->coord + (size_t)r * c->n, *b = c->coord + (size_t)tr * c->n;
    for (uint32_t d = 0; d < c->n; d++) {
        if (a[d] == b[d])
            continue;
        uint32_t alt, p = kary_dir(c, d, a[d], b[d], NULL, &alt);
        m |= 1ULL << p;
        if (alt != MPP_TOPO_NONE)
            m |= 1ULL << alt;
    }
    return m;
}

void mpp_routing_escape_hop(const mpp_topo *t, uint32_t r, uint32_t in_port, uint32_t cls_in,
                            uint32_t escape, const mpp_route_state *st, mpp_rng *rng,
                            mpp_route_out *out)
{
    /* a packet that holds an adaptive VC enters the escape sub-network as
     * if injected at r: the dateline rule starts again on the lower class */
    uint32_t cls = cls_in < escape ? cls_in : MPP_ROUTE_INJECT;
    out->port = t->kind == MPP_TOPO_KARY ? mpp_routing_kary_port(t, r, st->dst, rng, NULL)
                                         : mpp_routing_dor_step(t, r, st->dst, st->dst_router);
    out->route_class = mpp_routing_dor_class(t, r, in_port, out->port, 0, cls, st->dst_router);
    out->misroute = 0;
}

bool mpp_routing_freest(uint64_t ports, uint32_t cls, mpp_rng *rng, const mpp_route_ctx *x,
                        uint32_t *pick)
{
    uint32_t best = 0, ties = 0;
    for (; ports; ports &= ports - 1) {
        uint32_t p = (uint32_t)__builtin_ctzll(ports);
        uint32_t f = x ? mpp_route_free(x, p, cls) : 1;
        if (f < best || f == 0)
            continue;
        if (f > best) {
            best = f;
            ties = 0;
        }
        /* reservoir draw among the ports as free as the best */
        if (++ties == 1 || mpp_rng_below(rng, ties) == 0)
            *pick = p;
    }
    return best != 0;
}

bool mpp_routing_adaptive_minimal(const mpp_topo *t, uint32_t r, uint32_t cls,
                                  const mpp_route_state *st, mpp_rng *rng, const mpp_route_ctx *x,
                                  mpp_route_out *out)
{
    uint32_t pick = 0;
    if (!mpp_routing_freest(mpp_routing_minimal_ports(t, r, st->dst_router), cls, rng, x, &pick))
        return false;
    *out = (mpp_route_out){.port = pick, .route_class = cls};
    return true;
}

uint64_t mpp_routing_detour_ports(const mpp_topo *t, uint32_t r, uint32_t tr, uint32_t in_port)
{
    uint64_t minimal = mpp_routing_minimal_ports(t, r, tr), m = 0;
    uint32_t np = t->port_base[r + 1] - t->port_base[r];
    for (uint32_t p = 0; p < np && p < 64; p++) {
        uint32_t peer = t->port_peer[t->port_base[r] + p];
        if (p != in_port && !(minimal >> p & 1) && peer != MPP_TOPO_NONE &&
            !(peer & MPP_TOPO_NODE))
            m |= 1ULL << p;
    }
    return m;
}

bool mpp_routing_supports_direct(const mpp_topo *t, const char *name, mpp_err *err)
{
    if (t->kind == MPP_TOPO_MESH || t->kind == MPP_TOPO_HYPERCUBE || t->kind == MPP_TOPO_KARY)
        return true;
    mpp_err_set(err, MPP_EINVAL,
                "router '%s' supports the mesh, hypercube and kary-ncube topologies, not '%s'",
                name, t->ops->name);
    return false;
}

uint32_t mpp_routing_escape_classes(const mpp_topo *t, const void *cfg)
{
    return mpp_routing_ring_classes(t);
}

uint32_t mpp_routing_adaptive_classes(const mpp_topo *t, const void *cfg)
{
    return mpp_routing_ring_classes(t) + 1;
}

void mpp_routing_escape_relation(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                                 uint32_t in_port, uint32_t cls, uint32_t to, uint32_t flags,
                                 mpp_route_emit emit, void *ud)
{
    mpp_routing_dor_hop(t, r, in_port, cls, 0, to, emit, ud);
}

uint32_t mpp_routing_held_class(const mpp_topo *t, uint32_t r, uint32_t in_port,
                                const mpp_route_state *st)
{
    bool injected = r == t->node_router[st->src] &&
                    in_port == t->link_port[t->node_link_base[st->src]] - t->port_base[r];
    return injected ? MPP_ROUTE_INJECT : st->route_class;
}
