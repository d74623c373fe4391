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
 *              (inside the minimal submesh).
 * Each phase routes in dimension order on its own route class (k classes),
 * which keeps every phase's channel dependencies acyclic. */
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
    if (t->kind == MPP_TOPO_MESH || t->kind == MPP_TOPO_HYPERCUBE)
        return true;
    mpp_err_set(err, MPP_EINVAL, "router 'romm' supports the mesh and hypercube topologies, not '%s'",
                t->ops->name);
    return false;
}

static uint32_t romm_classes(const mpp_topo *t, const void *cfgp)
{
    const romm_cfg *cfg = cfgp;
    return cfg->k;
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
    mpp_routing_phase_advance(t, r, st);
    out->port = mpp_routing_dor_port(t, r, st->target[st->phase]);
    out->route_class = st->phase;
}

const mpp_routing_ops mpp_routing_romm = {
    .name = "romm",
    .help = "k-phase minimal randomized routing through random intermediate nodes",
    .schema = {romm_params, MPP_COUNTOF(romm_params), sizeof(romm_cfg)},
    .supports = romm_supports,
    .route_classes = romm_classes,
    .init_packet = romm_init,
    .route = romm_route,
};
