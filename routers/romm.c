/* routers/romm.c — ROMM: randomized, oblivious, multi-phase, minimal routing
 * (Nesson and Johnsson).
 *
 * k phases (parameter k, default 2) through k - 1 random intermediate nodes
 * chosen so the whole path stays minimal:
 *   hypercube: each address bit in which source and destination differ is
 *              given to a uniformly random phase 1..k; phase i corrects its
 *              bits, so intermediate node i is the source with the bits of
 *              phases 1..i corrected (inside the minimal subcube);
 *   mesh:      for each dimension, k - 1 uniform coordinates between the
 *              source's and the destination's (inclusive), sorted from the
 *              source towards the destination, give the intermediate points
 *              (inside the minimal submesh);
 *   k-ary n-cube: as on the mesh, dimension by dimension in ascending
 *              order; along a ring the coordinates lie on its minimal arc
 *              from the source's to the destination's (the shorter way; a
 *              draw when both are as long): k - 1 uniform offsets 0..L
 *              along it, L the ring distance, sorted, so every phase goes
 *              the same way round. A
 *              binary dimension (k_d = 2 without wrap-around, a hypercube's
 *              dimension) follows the hypercube's rule instead: its bit,
 *              if it differs, is corrected in a uniformly random phase (the
 *              mesh's rule would make that phase binomial), so that
 *              k = [2, ..., 2] is the hypercube, draw for draw.
 * Each phase routes in dimension order on its own route class (k classes;
 * on a k-ary n-cube with a ring two per phase, the dateline rule), which
 * keeps every phase's channel dependencies acyclic. */
#include "routers/routing.h"

#include <stddef.h>

typedef struct romm_cfg {
    uint32_t k;
} romm_cfg;

static const mpp_param romm_params[] = {
    {"k", MPP_PT_U32, offsetof(romm_cfg, k), "2", 1, MPP_ROUTE_MAXPHASE, NULL,
     "phases (k - 1 random intermediate nodes)"},
};

static bool romm_supports(const mpp_topo *t, const void *cfgp, mpp_err *err)
{
    const romm_cfg *cfg = cfgp;
    if (cfg->k < 1 || cfg->k > MPP_ROUTE_MAXPHASE) {
        mpp_err_set(err, MPP_EINVAL, "router 'romm': k must be between 1 and %d", MPP_ROUTE_MAXPHASE);
        return false;
    }
    return mpp_routing_supports_direct(t, "romm", err);
}

static uint32_t romm_classes(const mpp_topo *t, const void *cfgp)
{
    const romm_cfg *cfg = cfgp;
    return cfg->k * mpp_routing_ring_classes(t);
}

/* k - 1 sorted uniform draws in [a, b] (either order), written to out. */
static void sorted_between(uint32_t a, uint32_t b, uint32_t m, uint32_t *out, mpp_rng *rng)
{
    uint32_t lo = a < b ? a : b, span = (a < b ? b - a : a - b) + 1;
    for (uint32_t i = 0; i < m; i++) {
        uint32_t v = lo + mpp_rng_below(rng, span);
        uint32_t j = i;
        while (j > 0 && out[j - 1] > v) { /* insertion sort, ascending */
            out[j] = out[j - 1];
            j--;
        }
        out[j] = v;
    }
    if (a > b) /* order from the source towards the destination */
        for (uint32_t i = 0; i < m / 2; i++) {
            uint32_t x = out[i];
            out[i] = out[m - 1 - i];
            out[m - 1 - i] = x;
        }
}

static void romm_init(const mpp_topo *t, const void *cfgp, void *priv, mpp_route_state *st,
                      mpp_rng *rng)
{
    const romm_cfg *cfg = cfgp;
    uint32_t k = cfg->k, m = k - 1;
    st->nphases = (uint8_t)k;
    st->target[k - 1] = st->dst;
    if (t->kind == MPP_TOPO_HYPERCUBE) {
        uint32_t diff = st->src ^ st->dst, mask[MPP_ROUTE_MAXPHASE] = {0};
        for (uint32_t b = 0; b < t->dims[0]; b++)
            if (diff & (1u << b))
                mask[mpp_rng_below(rng, k)] |= 1u << b;
        uint32_t cur = st->src;
        for (uint32_t i = 0; i < m; i++) {
            cur ^= mask[i];
            st->target[i] = cur;
        }
        return;
    }
    if (t->kind == MPP_TOPO_KARY) {
        const mpp_cube *c = mpp_topo_cube(t);
        const uint16_t *a = c->coord + (size_t)st->src * c->n, *b = c->coord + (size_t)st->dst * c->n;
        uint32_t xs[MPP_ROUTE_MAXPHASE];
        for (uint32_t i = 0; i < m; i++)
            st->target[i] = 0;
        for (uint32_t d = 0; d < c->n; d++) {
            uint32_t kd = c->k[d], x = a[d], y = b[d];
            if (!c->two[d]) {
                /* a binary dimension: the hypercube's rule */
                uint32_t ph = x != y ? mpp_rng_below(rng, k) : 0;
                for (uint32_t i = 0; i < m; i++)
                    xs[i] = ph <= i ? y : x;
            } else if (!c->wrap[d] || x == y) {
                sorted_between(x, y, m, xs, rng);
            } else {
                /* the minimal arc: L steps + or - from x */
                uint32_t up = y > x ? y - x : y + kd - x;
                bool plus = up != kd - up ? up < kd - up : !(mpp_rng_next(rng) >> 63);
                sorted_between(0, plus ? up : kd - up, m, xs, rng);
                for (uint32_t i = 0; i < m; i++)
                    xs[i] = plus ? (x + xs[i]) % kd : (x + kd - xs[i]) % kd;
            }
            for (uint32_t i = 0; i < m; i++)
                st->target[i] += xs[i] * c->stride[d];
        }
        return;
    }
    uint32_t C = t->dims[0];
    uint32_t sx = st->src % C, sy = st->src / C, dx = st->dst % C, dy = st->dst / C;
    uint32_t xs[MPP_ROUTE_MAXPHASE], ys[MPP_ROUTE_MAXPHASE];
    sorted_between(sx, dx, m, xs, rng);
    sorted_between(sy, dy, m, ys, rng);
    for (uint32_t i = 0; i < m; i++)
        st->target[i] = ys[i] * C + xs[i];
}

static void romm_route(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                       uint32_t in_port, mpp_route_state *st, mpp_rng *rng, mpp_route_out *out)
{
    mpp_routing_dor_phased(t, r, in_port, st, rng, out);
}

/* A phase may end at any router and the next intermediate lies anywhere in
 * the minimal box, which the relation's state (class, target) does not
 * keep: where a phase may start — at the source, for any phase (the first
 * intermediates may be the source itself), or at its target, for any later
 * phase — every node is taken as its target. A superset of the routes, each
 * phase still dimension-ordered on its own classes. */
static void romm_relation(const mpp_topo *t, const void *cfgp, void *priv, uint32_t r,
                          uint32_t in_port, uint32_t cls, uint32_t to, uint32_t flags,
                          mpp_route_emit emit, void *ud)
{
    const romm_cfg *cfg = cfgp;
    uint32_t W = mpp_routing_ring_classes(t), k = cfg->k;
    uint32_t from = cls == MPP_ROUTE_INJECT ? 0 : cls / W + 1;
    if (cls != MPP_ROUTE_INJECT && (from == k || r != mpp_routing_node_router(t, to))) {
        mpp_routing_dor_hop(t, r, in_port, cls, cls / W, to, emit, ud); /* on in its phase */
        return;
    }
    for (uint32_t q = from; q < k; q++)
        for (uint32_t d = 0; d < t->nodes; d++)
            mpp_routing_dor_hop(t, r, in_port, cls, q, d, emit, ud);
}

const mpp_routing_ops mpp_routing_romm = {
    .name = "romm",
    .help = "k-phase minimal randomized routing through random intermediate nodes",
    .schema = {romm_params, MPP_COUNTOF(romm_params), sizeof(romm_cfg)},
    .supports = romm_supports,
    .route_classes = romm_classes,
    .init_packet = romm_init,
    .route = romm_route,
    .relation = romm_relation,
};
