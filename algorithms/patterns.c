/* algorithms/patterns.c — the synthetic traffic patterns (plug-ins of the
 * engine's pattern table, core/traffic.h) and their registry.
 *
 * Patterns work on logical ids 0..N-1 (N = nodes). Fixed patterns fill a
 * destination table once (mpp_traffic_init); random patterns draw per packet
 * from the source's own stream, so results do not depend on the order in
 * which sources are visited. Definitions (BookSim names as aliases):
 *   uniform         any node, the source included (as BookSim's uniform)
 *   uniform-noself  any node but the source
 *   transpose       mesh, k-ary n-cube: rotate the coordinates by
 *                   h = floor(n/2) places, coordinate d of the destination
 *                   = coordinate (d + h) mod n of the source: (x, y) ->
 *                   (y, x), (x, y, z) -> (y, z, x) (x = dimension 0), and
 *                   on an even n the two halves of the coordinates swap,
 *                   so a binary n-cube's transpose is the hypercube's;
 *                   every extent equal (a square mesh); other networks:
 *                   swap the two halves of the address bits (N = 4^k)
 *   bit-reversal    reverse the log2 N address bits (N = 2^k)
 *   bit-complement  complement every address bit (N = 2^k)
 *   shuffle         rotate the address bits left by one (N = 2^k)
 *   tornado         mesh, k-ary n-cube: every coordinate
 *                   x -> (x + ceil(k_d/2) - 1) mod k_d, k_d the extent of
 *                   its dimension; other networks: the same on the ring of
 *                   N ids
 *   neighbor        mesh, k-ary n-cube: every coordinate x -> (x + 1) mod k_d;
 *                   other networks: (i + 1) mod N
 *   hotspot         with probability `fraction` a uniformly chosen node of
 *                   `nodes`, otherwise uniform
 *   single-random   each source one destination (not itself) drawn at start
 *   randperm        one uniformly random permutation drawn at start
 *   xor             source XOR mask (every id XOR mask must exist)
 * "Other networks" are those without coordinates: the hypercube (whose
 * address bits are its coordinates), the fat trees and the butterfly
 * (terminals 0..k^n - 1). The patterns read a k-ary n-cube's shape (n, k,
 * stride of its mpp_cube) and nothing else of it: coordinates are computed
 * from the id, not read from the cube's coord table.
 * Invariant: every destination is < N. */
#include "algorithms/patterns.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_pow2(uint32_t n) { return n && !(n & (n - 1)); }
static uint32_t log2u(uint32_t n) { return n <= 1 ? 0 : 31u - (uint32_t)__builtin_clz(n); }

static bool need_pow2(const mpp_topo *t, const char *name, mpp_err *err)
{
    if (is_pow2(t->nodes) && t->nodes >= 2)
        return true;
    mpp_err_set(err, MPP_EINVAL,
                "traffic pattern '%s' needs a power-of-two node count (>= 2); this network has %u nodes",
                name, t->nodes);
    return false;
}

/* --- uniform ------------------------------------------------------------ */

static uint32_t uniform_dest(const mpp_topo *t, const void *cfg, uint32_t src, mpp_rng *rng)
{
    return mpp_rng_below(rng, t->nodes);
}

static const char *const uniform_aliases[] = {"random", NULL};
static const mpp_pattern_ops pat_uniform = {
    .name = "uniform",
    .aliases = uniform_aliases,
    .help = "uniformly random destination, the source included (as BookSim)",
    .dest = uniform_dest,
};

static bool noself_check(const mpp_topo *t, const void *cfg, mpp_err *err)
{
    if (t->nodes >= 2)
        return true;
    mpp_err_set(err, MPP_EINVAL, "traffic pattern 'uniform-noself' needs at least 2 nodes");
    return false;
}

static uint32_t noself_dest(const mpp_topo *t, const void *cfg, uint32_t src, mpp_rng *rng)
{
    uint32_t d = mpp_rng_below(rng, t->nodes - 1);
    return d >= src ? d + 1 : d;
}

static const mpp_pattern_ops pat_noself = {
    .name = "uniform-noself",
    .help = "uniformly random destination other than the source",
    .check = noself_check,
    .dest = noself_dest,
};

/* --- k-ary n-cube coordinates ------------------------------------------ */

/* Coordinate d of node i of the k-ary n-cube c (node id = router id =
 * sum coord[d] * stride[d]). Setup only: a division per call. */
static uint32_t cube_coord(const mpp_cube *c, uint32_t i, uint32_t d)
{
    return i / c->stride[d] % c->k[d];
}

/* The extents of c as "k0 x k1 x ... x k(n-1)" (dimension 0 first), for
 * messages. */
static void cube_shape(const mpp_cube *c, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = 0;
    for (uint32_t d = 0; d < c->n && at < len; d++) {
        int w = snprintf(buf + at, len - at, d ? " x %u" : "%u", c->k[d]);
        if (w < 0)
            break;
        at += (size_t)w;
    }
}

/* --- transpose ---------------------------------------------------------- */

/* Coordinates rotate, so every dimension must have the extent of the one
 * whose coordinate it receives: all extents equal. */
static bool transpose_check(const mpp_topo *t, const void *cfg, mpp_err *err)
{
    if (t->kind == MPP_TOPO_KARY) {
        const mpp_cube *c = mpp_topo_cube(t);
        uint32_t d = 1;
        while (d < c->n && c->k[d] == c->k[0])
            d++;
        if (d >= c->n)
            return true;
        char shape[MPP_CUBE_MAXDIM * 16];
        cube_shape(c, shape, sizeof shape);
        mpp_err_set(err, MPP_EINVAL,
                    "traffic pattern 'transpose' needs dimensions of one size; this k-ary n-cube "
                    "is %s",
                    shape);
        return false;
    }
    if (t->kind == MPP_TOPO_MESH) {
        if (t->dims[0] == t->dims[1])
            return true;
        mpp_err_set(err, MPP_EINVAL,
                    "traffic pattern 'transpose' needs a square mesh; this one is %ux%u (rows x cols)",
                    t->dims[1], t->dims[0]);
        return false;
    }
    if (is_pow2(t->nodes) && log2u(t->nodes) % 2 == 0 && t->nodes >= 4)
        return true;
    mpp_err_set(err, MPP_EINVAL,
                "traffic pattern 'transpose' needs an even number of address bits (N = 4^k); this "
                "network has %u nodes",
                t->nodes);
    return false;
}

static void transpose_perm(const mpp_topo *t, const void *cfg, mpp_rng *rng, uint32_t *tab)
{
    if (t->kind == MPP_TOPO_KARY) {
        /* destination coordinate d = source coordinate (d + n/2) mod n */
        const mpp_cube *c = mpp_topo_cube(t);
        for (uint32_t i = 0; i < t->nodes; i++) {
            uint32_t j = 0;
            for (uint32_t d = 0; d < c->n; d++)
                j += cube_coord(c, i, (d + c->n / 2) % c->n) * c->stride[d];
            tab[i] = j;
        }
        return;
    }
    if (t->kind == MPP_TOPO_MESH) {
        uint32_t C = t->dims[0];
        for (uint32_t i = 0; i < t->nodes; i++)
            tab[i] = (i % C) * C + i / C;
        return;
    }
    uint32_t h = log2u(t->nodes) / 2, lo = (1u << h) - 1;
    for (uint32_t i = 0; i < t->nodes; i++)
        tab[i] = ((i & lo) << h) | (i >> h);
}

static const mpp_pattern_ops pat_transpose = {
    .name = "transpose",
    .help = "mesh, k-ary n-cube: rotate the coordinates by n/2, (x,y,z)->(y,z,x) (extents "
            "equal); others: swap address halves",
    .check = transpose_check,
    .perm = transpose_perm,
};

/* --- bit patterns ------------------------------------------------------- */

static bool bitrev_check(const mpp_topo *t, const void *c, mpp_err *e) { return need_pow2(t, "bit-reversal", e); }
static bool bitcomp_check(const mpp_topo *t, const void *c, mpp_err *e) { return need_pow2(t, "bit-complement", e); }
static bool shuffle_check(const mpp_topo *t, const void *c, mpp_err *e) { return need_pow2(t, "shuffle", e); }

static void bitrev_perm(const mpp_topo *t, const void *cfg, mpp_rng *rng, uint32_t *tab)
{
    uint32_t b = log2u(t->nodes);
    for (uint32_t i = 0; i < t->nodes; i++) {
        uint32_t r = 0;
        for (uint32_t k = 0; k < b; k++)
            if (i & (1u << k))
                r |= 1u << (b - 1 - k);
        tab[i] = r;
    }
}

static void bitcomp_perm(const mpp_topo *t, const void *cfg, mpp_rng *rng, uint32_t *tab)
{
    for (uint32_t i = 0; i < t->nodes; i++)
        tab[i] = ~i & (t->nodes - 1);
}

static void shuffle_perm(const mpp_topo *t, const void *cfg, mpp_rng *rng, uint32_t *tab)
{
    uint32_t b = log2u(t->nodes), m = t->nodes - 1;
    for (uint32_t i = 0; i < t->nodes; i++)
        tab[i] = ((i << 1) | (i >> (b - 1))) & m;
}

static const char *const bitrev_aliases[] = {"bitrev", NULL};
static const char *const bitcomp_aliases[] = {"bitcomp", "bit-inversion", NULL};
static const mpp_pattern_ops pat_bitrev = {
    .name = "bit-reversal", .aliases = bitrev_aliases,
    .help = "reverse the address bits (N = 2^k)",
    .check = bitrev_check, .perm = bitrev_perm,
};
static const mpp_pattern_ops pat_bitcomp = {
    .name = "bit-complement", .aliases = bitcomp_aliases,
    .help = "complement the address bits (N = 2^k)",
    .check = bitcomp_check, .perm = bitcomp_perm,
};
static const mpp_pattern_ops pat_shuffle = {
    .name = "shuffle",
    .help = "rotate the address bits left by one (N = 2^k)",
    .check = shuffle_check, .perm = shuffle_perm,
};

/* --- tornado, neighbor -------------------------------------------------- */

/* Move every coordinate by an offset (tornado: ceil(k/2) - 1, neighbor: 1,
 * modulo the extent k of its dimension); networks without coordinates: the
 * ring of N ids. */
static void ring_offset_perm(const mpp_topo *t, uint32_t *tab, int tornado)
{
    if (t->kind == MPP_TOPO_KARY) {
        const mpp_cube *c = mpp_topo_cube(t);
        for (uint32_t i = 0; i < t->nodes; i++) {
            uint32_t j = 0;
            for (uint32_t d = 0; d < c->n; d++) {
                uint32_t k = c->k[d], o = tornado ? (k + 1) / 2 - 1 : 1 % k;
                j += (cube_coord(c, i, d) + o) % k * c->stride[d];
            }
            tab[i] = j;
        }
        return;
    }
    if (t->kind == MPP_TOPO_MESH) {
        uint32_t C = t->dims[0], R = t->dims[1];
        uint32_t ox = tornado ? (C + 1) / 2 - 1 : 1 % C;
        uint32_t oy = tornado ? (R + 1) / 2 - 1 : 1 % R;
        for (uint32_t i = 0; i < t->nodes; i++) {
            uint32_t x = i % C, y = i / C;
            tab[i] = ((y + oy) % R) * C + (x + ox) % C;
        }
        return;
    }
    uint32_t N = t->nodes, o = tornado ? (N + 1) / 2 - 1 : 1 % N;
    for (uint32_t i = 0; i < N; i++)
        tab[i] = (i + o) % N;
}

static void tornado_perm(const mpp_topo *t, const void *cfg, mpp_rng *rng, uint32_t *tab)
{
    ring_offset_perm(t, tab, 1);
}

static void neighbor_perm(const mpp_topo *t, const void *cfg, mpp_rng *rng, uint32_t *tab)
{
    ring_offset_perm(t, tab, 0);
}

static const mpp_pattern_ops pat_tornado = {
    .name = "tornado",
    .help = "mesh, k-ary n-cube: x -> x + ceil(k/2) - 1 (mod k) in every dimension; others: "
            "on the ring of ids",
    .perm = tornado_perm,
};
static const mpp_pattern_ops pat_neighbor = {
    .name = "neighbor",
    .help = "mesh, k-ary n-cube: x -> x + 1 (mod k) in every dimension; others: i -> i + 1 "
            "(mod N)",
    .perm = neighbor_perm,
};

/* --- hotspot ------------------------------------------------------------ */

typedef struct hotspot_cfg {
    mpp_u32list nodes;
    double fraction;
} hotspot_cfg;

static const mpp_param hotspot_params[] = {
    {"nodes", MPP_PT_U32LIST, offsetof(hotspot_cfg, nodes), "[0]", 0, 1e9, NULL,
     "the hot-spot nodes (logical ids)"},
    {"fraction", MPP_PT_DOUBLE, offsetof(hotspot_cfg, fraction), "0.2", 0, 1, NULL,
     "probability that a packet goes to a hot spot (else uniform)"},
};

static bool hotspot_check(const mpp_topo *t, const void *cfgp, mpp_err *err)
{
    const hotspot_cfg *cfg = cfgp;
    if (cfg->nodes.n == 0) {
        mpp_err_set(err, MPP_EINVAL, "traffic pattern 'hotspot' needs at least one node in 'nodes'");
        return false;
    }
    for (uint32_t i = 0; i < cfg->nodes.n; i++)
        if (cfg->nodes.v[i] >= t->nodes) {
            mpp_err_set(err, MPP_EINVAL, "hotspot node %u does not exist (the network has %u nodes)",
                        cfg->nodes.v[i], t->nodes);
            return false;
        }
    return true;
}

static uint32_t hotspot_dest(const mpp_topo *t, const void *cfgp, uint32_t src, mpp_rng *rng)
{
    const hotspot_cfg *cfg = cfgp;
    if (mpp_rng_next(rng) < mpp_rng_threshold(cfg->fraction))
        return cfg->nodes.v[mpp_rng_below(rng, cfg->nodes.n)];
    return mpp_rng_below(rng, t->nodes);
}

static const mpp_pattern_ops pat_hotspot = {
    .name = "hotspot",
    .help = "a fraction of packets to hot-spot nodes, the rest uniform",
    .schema = {hotspot_params, MPP_COUNTOF(hotspot_params), sizeof(hotspot_cfg)},
    .check = hotspot_check,
    .dest = hotspot_dest,
};

/* --- single-random, randperm ------------------------------------------- */

static void single_perm(const mpp_topo *t, const void *cfg, mpp_rng *rng, uint32_t *tab)
{
    for (uint32_t i = 0; i < t->nodes; i++) {
        if (t->nodes < 2) {
            tab[i] = i;
            continue;
        }
        uint32_t d = mpp_rng_below(rng, t->nodes - 1);
        tab[i] = d >= i ? d + 1 : d;
    }
}

static void randperm_perm(const mpp_topo *t, const void *cfg, mpp_rng *rng, uint32_t *tab)
{
    for (uint32_t i = 0; i < t->nodes; i++)
        tab[i] = i;
    mpp_rng_shuffle(rng, tab, t->nodes);
}

static const mpp_pattern_ops pat_single = {
    .name = "single-random",
    .help = "each source sends everything to one random other node drawn at start",
    .perm = single_perm,
};
static const mpp_pattern_ops pat_randperm = {
    .name = "randperm",
    .help = "a random permutation drawn at start",
    .perm = randperm_perm,
};

/* --- xor ---------------------------------------------------------------- */

typedef struct xor_cfg {
    uint32_t mask;
} xor_cfg;

static const mpp_param xor_params[] = {
    {"mask", MPP_PT_U32, offsetof(xor_cfg, mask), "1", 0, 1u << 30, NULL,
     "destination = source XOR mask"},
};

static bool xor_check(const mpp_topo *t, const void *cfgp, mpp_err *err)
{
    const xor_cfg *cfg = cfgp;
    for (uint32_t i = 0; i < t->nodes; i++)
        if ((i ^ cfg->mask) >= t->nodes) {
            mpp_err_set(err, MPP_EINVAL,
                        "traffic pattern 'xor': node %u XOR mask %u = %u does not exist (%u nodes)",
                        i, cfg->mask, i ^ cfg->mask, t->nodes);
            return false;
        }
    return true;
}

static void xor_perm(const mpp_topo *t, const void *cfgp, mpp_rng *rng, uint32_t *tab)
{
    const xor_cfg *cfg = cfgp;
    for (uint32_t i = 0; i < t->nodes; i++)
        tab[i] = i ^ cfg->mask;
}

static const mpp_pattern_ops pat_xor = {
    .name = "xor",
    .help = "destination = source XOR mask (the pairs of a linear-permutation phase)",
    .schema = {xor_params, MPP_COUNTOF(xor_params), sizeof(xor_cfg)},
    .check = xor_check,
    .perm = xor_perm,
};

/* --- registry ----------------------------------------------------------- */

static const mpp_pattern_ops *const all[] = {
    &pat_uniform, &pat_noself, &pat_transpose, &pat_bitrev, &pat_bitcomp, &pat_shuffle,
    &pat_tornado, &pat_neighbor, &pat_hotspot, &pat_single, &pat_randperm, &pat_xor, NULL,
};

const mpp_pattern_ops *mpp_pattern_find(const char *name)
{
    for (size_t i = 0; all[i]; i++) {
        if (strcmp(all[i]->name, name) == 0)
            return all[i];
        for (const char *const *a = all[i]->aliases; a && *a; a++)
            if (strcmp(*a, name) == 0)
                return all[i];
    }
    return NULL;
}

const mpp_pattern_ops *const *mpp_pattern_all(void) { return all; }

int mpp_pattern_partners(const mpp_pattern_ops *ops, const void *cfg, int placement,
                         const mpp_topo *t, uint64_t seed, uint32_t *dst, mpp_err *err)
{
    mpp_traffic tr;
    int rc = mpp_traffic_init(&tr, ops, cfg, t, seed, err);
    if (rc)
        return rc;
    uint32_t N = t->nodes;
    uint32_t *phys = malloc(N * sizeof *phys), *logical = malloc(N * sizeof *logical);
    if (!phys || !logical) {
        rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
    } else if (!tr.table) {
        rc = mpp_err_set(err, MPP_EINVAL,
                         "workload: pattern '%s' draws a destination per packet; a permutation "
                         "workload needs a fixed pattern (transpose, bit-reversal, "
                         "bit-complement, shuffle, tornado, neighbor, single-random, randperm, xor)",
                         ops->name);
    } else {
        mpp_place(placement, seed, N, phys, logical);
        for (uint32_t p = 0; p < N; p++)
            dst[p] = phys[tr.table[logical[p]]];
    }
    free(phys);
    free(logical);
    mpp_traffic_free(&tr);
    return rc;
}

MPP_FAMILY_DEFINE(mpp_pattern_family, mpp_pattern_ops, all, mpp_pattern_find,
                  .what = "traffic pattern");
