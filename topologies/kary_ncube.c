/* topologies/kary_ncube.c — k-ary n-cubes: tori, meshes of any dimension,
 * and everything between (a ring in some dimensions, a line in others).
 *
 * k_0 x ... x k_(n-1) nodes (n = 1..16), one router per node, node id =
 * router id = sum coord[d] * stride[d], dimension 0 varying fastest (the
 * mesh's columns). Local ports, dimension by dimension: +d and -d, or one
 * port for a binary dimension (k_d = 2 without wrap-around: one neighbour),
 * then the node (the mesh's E W S N node for n = 2, the hypercube's
 * dimension ports and node for k = [2, ..., 2]: the engine's arbitration
 * rotates over a router's ports, so the same numbering gives the same
 * results). Dimension d wraps around (a ring) when
 * torus[d] says so: +d at coordinate k_d - 1 is wired to -d at coordinate
 * 0; otherwise those two ports are unconnected. A ring of 2 has two links
 * between its nodes (the inner one and the wrap-around). The routing
 * plug-ins read the shape through mpp_topo_cube (core/topo.h): the
 * coordinates of every router are kept in a table, so a routing step
 * divides nothing. `order` is the dimension order of dimension-ordered
 * routing: ascending (dimension 0 first, as the mesh routes X first) or
 * descending (as the hypercube's e-cube): with k = [C, R] ascending and no
 * wrap-around this is the mesh, with k = [2, ..., 2] descending the binary
 * hypercube, port for port in the same order. */
#include "topologies/topology.h"


#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* At most 2^23 nodes (the 2D mesh's 4096 x 2048: 14.3 GiB with the
 * default VCs and buffers, docs/config.md "Sizes"); more dimensions reach
 * the endpoint limit (MPP_TOPO_MAX_ENDPOINTS) first. */
#define KARY_MAX_NODES (1u << 23)

typedef struct kary_cfg {
    mpp_u32list k;
    mpp_u32list torus;
    int order;
    int dateline;
    uint32_t link_len;
} kary_cfg;

static const char *const order_choices[] = {"ascending", "descending", NULL};
static const char *const dateline_choices[] = {"crossing", "dimension", NULL};

static const mpp_param kary_params[] = {
    {"k", MPP_PT_U32LIST, offsetof(kary_cfg, k), "[8, 8]", 1, 65535, NULL,
     "nodes along each dimension, dimension 0 first (its ids vary fastest)"},
    {"torus", MPP_PT_BOOLLIST, offsetof(kary_cfg, torus), "true", 0, 0, NULL,
     "wrap-around per dimension: one value for all, or a list as long as k"},
    {"order", MPP_PT_ENUM, offsetof(kary_cfg, order), "ascending", 0, 0, order_choices,
     "dimension order of dimension-ordered routing: ascending (dimension 0 first) or "
     "descending"},
    {"dateline", MPP_PT_ENUM, offsetof(kary_cfg, dateline), "crossing", 0, 0, dateline_choices,
     "the rings' VC class rule: upper class after crossing the wrap-around link (crossing) or "
     "for the whole dimension when its route crosses it (dimension, as BookSim)"},
    {"link_len", MPP_PT_U32, offsetof(kary_cfg, link_len), "1", 1, 255, NULL,
     "length of every router-to-router link (flits and credits), in link_latency units "
     "(BookSim's torus with use_noc_latency: 2)"},
};

/* "8x8x8": k = [8, 8, 8], the other keys at their defaults (a torus). */
static int kary_parse_short(const char *args, mpp_sb *out, mpp_err *err)
{
    uint64_t k[MPP_CUBE_MAXDIM];
    uint32_t n = mpp_topo_parse_x(args, k, MPP_CUBE_MAXDIM);
    if (!n)
        return mpp_err_set(err, MPP_EINVAL,
                           "kary-ncube:%.40s: expected kary-ncube:K0xK1x... (at most %d "
                           "dimensions), e.g. kary-ncube:8x8x8",
                           args, MPP_CUBE_MAXDIM);
    mpp_sb_add(out, "k=[");
    for (uint32_t i = 0; i < n; i++)
        mpp_sb_printf(out, "%s%llu", i ? ", " : "", (unsigned long long)k[i]);
    mpp_sb_add(out, "]\n");
    return 0;
}

static void kary_destroy(mpp_topo *t)
{
    mpp_cube *c = t->priv;
    if (c)
        free(c->coord);
    free(c);
    t->priv = NULL;
    t->port_len = NULL;
}

/* Check cfg as setup does; its node count, and in *ports the ports of
 * each router (its dimensions' ports and the node's). 0 with err filled. */
static uint64_t kary_check(const kary_cfg *cfg, uint32_t *ports, mpp_err *err)
{
    uint32_t n = cfg->k.n;
    if (n < 1 || n > MPP_CUBE_MAXDIM) {
        mpp_err_set(err, MPP_EINVAL, "kary-ncube: k lists %u dimensions; give 1 to %d", n,
                    MPP_CUBE_MAXDIM);
        return 0;
    }
    if (cfg->torus.n != 1 && cfg->torus.n != n) {
        mpp_err_set(err, MPP_EINVAL,
                    "kary-ncube: torus lists %u values but k has %u dimensions: give one "
                    "value for all, or one per dimension",
                    cfg->torus.n, n);
        return 0;
    }
    uint64_t N = 1;
    uint32_t np = 1;
    for (uint32_t d = 0; d < n; d++) {
        uint32_t k = cfg->k.v[d];
        bool wrap = cfg->torus.v[cfg->torus.n == 1 ? 0 : d] != 0;
        if (k < 1) {
            mpp_err_set(err, MPP_EINVAL,
                        "kary-ncube: k[%u] is 0; every dimension needs at least 1 node", d);
            return 0;
        }
        if (k == 1 && wrap) {
            mpp_err_set(err, MPP_EINVAL,
                        "kary-ncube: k[%u] is 1 with wrap-around; a ring needs at least 2 "
                        "nodes (set torus to false for that dimension)",
                        d);
            return 0;
        }
        N *= k;
        np += k != 2 || wrap ? 2 : 1;
        if (N > KARY_MAX_NODES) {
            mpp_err_set(err, MPP_EINVAL,
                        "kary-ncube: the product of k is above the limit of %u nodes "
                        "(it passes it at k[%u])",
                        KARY_MAX_NODES, d);
            return 0;
        }
    }
    *ports = np;
    return N;
}

/* One router a node, its ports (kary_check) and its coordinates. */
static int kary_size(const void *cfgp, mpp_topo_size *out, mpp_err *err)
{
    const kary_cfg *cfg = cfgp;
    uint32_t np = 0;
    uint64_t N = kary_check(cfg, &np, err);
    if (!N)
        return err->code;
    out->nodes = out->routers = out->links = N;
    out->ports = N * np;
    out->priv_bytes = N * cfg->k.n * sizeof(uint16_t) + sizeof(mpp_cube) +
                      (cfg->link_len > 1 ? out->ports : 0);
    return 0;
}

static int kary_setup(mpp_topo *t, const void *cfgp, mpp_err *err)
{
    const kary_cfg *cfg = cfgp;
    uint32_t n = cfg->k.n, ports = 0;
    uint64_t N = kary_check(cfg, &ports, err);
    if (!N)
        return err->code;
    mpp_cube *c = calloc(1, sizeof *c);
    uint32_t *radix = malloc(N * sizeof *radix);
    if (c)
        c->coord = malloc(N * n * sizeof *c->coord);
    if (!c || !radix || !c->coord) {
        free(radix);
        if (c)
            free(c->coord);
        free(c);
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    }
    c->n = n;
    c->descending = cfg->order == 1;
    c->dateline = (uint8_t)cfg->dateline;
    uint32_t np = 0;
    for (uint32_t d = 0; d < n; d++) {
        c->k[d] = cfg->k.v[d];
        c->stride[d] = d ? c->stride[d - 1] * c->k[d - 1] : 1;
        c->wrap[d] = cfg->torus.v[cfg->torus.n == 1 ? 0 : d] != 0;
        c->any_wrap |= c->wrap[d];
        c->two[d] = c->k[d] != 2 || c->wrap[d];
        c->pbase[d] = (uint8_t)np;
        c->pdim[np++] = (uint8_t)d;
        if (c->two[d])
            c->pdim[np++] = (uint8_t)d;
    }
    c->node_port = (uint8_t)np;
    for (uint32_t i = 0; i < N; i++)
        radix[i] = np + 1;
    int rc = mpp_topo_alloc(t, (uint32_t)N, radix, (uint32_t)N, NULL, err);
    free(radix);
    if (rc) {
        free(c->coord);
        free(c);
        return rc;
    }
    t->kind = MPP_TOPO_KARY;
    t->priv = c;
    for (uint32_t d = 0; d < n && d < 8; d++)
        t->dims[d] = c->k[d];
    /* link lengths (topo.h port_len): kept after the coordinates, freed with them */
    uint8_t *len = NULL;
    if (cfg->link_len > 1) {
        uint16_t *nc = realloc(c->coord, N * n * sizeof *c->coord + t->ports);
        if (!nc)
            return mpp_err_set(err, MPP_ENOMEM, "out of memory"); /* destroy frees c */
        c->coord = nc;
        len = (uint8_t *)(nc + N * n);
        memset(len, 0, t->ports);
        t->port_len = len;
    }
    for (uint32_t id = 0; id < N; id++) {
        uint16_t *x = c->coord + (size_t)id * n;
        for (uint32_t d = 0; d < n; d++)
            x[d] = (uint16_t)(id / c->stride[d] % c->k[d]);
        for (uint32_t d = 0; d < n; d++) {
            uint32_t k = c->k[d], s = c->stride[d], plus = c->pbase[d];
            uint32_t minus = plus + c->two[d];
            uint32_t q = x[d] + 1u < k ? id + s : c->wrap[d] ? id - (k - 1) * s : UINT32_MAX;
            if (q == UINT32_MAX)
                continue;
            mpp_topo_connect(t, id, plus, q, minus);
            if (len)
                len[t->port_base[id] + plus] = len[t->port_base[q] + minus] =
                        (uint8_t)cfg->link_len;
        }
        mpp_topo_attach(t, id, 0, id, np);
    }
    return 0;
}

static uint32_t kary_distance(const mpp_topo *t, uint32_t a, uint32_t b)
{
    const mpp_cube *c = mpp_topo_cube(t);
    const uint16_t *x = c->coord + (size_t)a * c->n, *y = c->coord + (size_t)b * c->n;
    uint32_t dist = 0;
    for (uint32_t d = 0; d < c->n; d++) {
        uint32_t h = x[d] > y[d] ? x[d] - y[d] : y[d] - x[d];
        if (c->wrap[d] && c->k[d] - h < h)
            h = c->k[d] - h;
        dist += h;
    }
    return dist;
}

static void kary_port_name(const mpp_topo *t, uint32_t r, uint32_t p, char *buf, int len)
{
    const mpp_cube *c = mpp_topo_cube(t);
    static const char xyz[] = "xyz";
    if (p >= c->node_port) {
        snprintf(buf, (size_t)len, "node");
        return;
    }
    uint32_t d = c->pdim[p];
    const char *dir = !c->two[d] ? "" : p == c->pbase[d] ? "+" : "-";
    if (c->n <= 3)
        snprintf(buf, (size_t)len, "%c%s", xyz[d], dir);
    else
        snprintf(buf, (size_t)len, "d%u%s", d, dir);
}

const mpp_topo_ops mpp_topo_kary_ncube = {
    .name = "kary-ncube",
    .help = "k_0 x ... x k_(n-1) torus or mesh (torus per dimension), ports +d -d + node",
    .schema = {kary_params, MPP_COUNTOF(kary_params), sizeof(kary_cfg)},
    .parse_short = kary_parse_short,
    .setup = kary_setup,
    .size = kary_size,
    .distance = kary_distance,
    .port_name = kary_port_name,
    .destroy = kary_destroy,
};
