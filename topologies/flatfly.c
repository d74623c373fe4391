/* topologies/flatfly.c — the flattened butterfly (Kim, Dally and Abts
 * 2007) as BookSim's `flatfly` builds it (its flatfly_onchip network).
 *
 * Shape (core/topo.h, MPP_TOPO_FLATFLY): k^n routers, each with c nodes;
 * router id = sum x_d k^d over its coordinates x_0 .. x_(n-1); a router is
 * linked to the k - 1 other routers of each dimension (those that differ
 * from it in that coordinate only). Radix c + n (k - 1). Local ports:
 * 0 .. c-1 its nodes, then for dimension d the ports c + (k-1) d + j,
 * j = 0 .. k-2, toward the other routers of the dimension in increasing
 * coordinate order (its own skipped): BookSim's port numbers, so that a
 * route reads the same in both.
 *
 * Node ids (BookSim's floor plan, so that its traffic patterns mean the
 * same here): the routers sit on an x by y grid (router r at column
 * r mod x, row r / x) and each router's c nodes on an xr by yr grid of
 * their own; node id = row * (x xr) + column on the whole grid of nodes.
 * Node id i is then on router ((i / (x xr)) / yr) x + (i mod (x xr)) / xr,
 * at local port ((i / (x xr)) mod yr) xr + (i mod (x xr)) mod xr (BookSim's
 * flatfly_transformation). x = 0 or xr = 0 choose the square root of the
 * routers (of c) where it is whole, else all in one row.
 *
 * Link lengths (noc_latency: true, BookSim's use_noc_latency, its default):
 * the link between routers a and b is xr |dcol| + yr |drow| long on that
 * grid (t->port_len), in units of link_latency cycles, flits and credits
 * alike; false: every link has length 1. Node links have length 1 (BookSim
 * gives a node link length 2 or more only when xr or yr is 4 or more: that
 * is not modelled; docs/config.md).
 *
 * Data structures: priv holds port_len (one byte per global port).
 *
 * Invariants:
 *   1. every router port of dimension d leads to a router whose coordinates
 *      differ from this one's in coordinate d only, and arrives on the port
 *      of that router that leads back (mpp_topo_check);
 *   2. the node -> (router, port) map is a bijection of 0 .. c k^n - 1 onto
 *      the routers' node ports (x divides k^n and xr divides c). */
#include "topologies/topology.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* At most 2^20 routers and 2^23 nodes; the radix is the engine's 64. */
#define FF_MAX_ROUTERS (1u << 20)
#define FF_MAX_NODES (1u << 23)

typedef struct ff_cfg {
    uint32_t k, n, c;
    uint32_t x, y, xr, yr;
    bool noc_latency;
} ff_cfg;

static const mpp_param ff_params[] = {
    {"k", MPP_PT_U32, offsetof(ff_cfg, k), "4", 2, 64, NULL, "routers per dimension"},
    {"n", MPP_PT_U32, offsetof(ff_cfg, n), "2", 1, 20, NULL, "dimensions"},
    {"c", MPP_PT_U32, offsetof(ff_cfg, c), "4", 1, 63, NULL, "nodes per router (concentration)"},
    {"x", MPP_PT_U32, offsetof(ff_cfg, x), "0", 0, FF_MAX_ROUTERS, NULL,
     "routers per row of the floor plan (0: the square root of k^n when whole, else k^n)"},
    {"y", MPP_PT_U32, offsetof(ff_cfg, y), "0", 0, FF_MAX_ROUTERS, NULL,
     "rows of routers (0: k^n / x; else it must be k^n / x)"},
    {"xr", MPP_PT_U32, offsetof(ff_cfg, xr), "0", 0, 63, NULL,
     "nodes per row within a router (0: the square root of c when whole, else c)"},
    {"yr", MPP_PT_U32, offsetof(ff_cfg, yr), "0", 0, 63, NULL,
     "rows of nodes within a router (0: c / xr; else it must be c / xr)"},
    {"noc_latency", MPP_PT_BOOL, offsetof(ff_cfg, noc_latency), "true", 0, 0, NULL,
     "links as long as the floor plan makes them (BookSim's use_noc_latency)"},
};

/* The whole square root of v, or 0. */
static uint32_t whole_sqrt(uint64_t v)
{
    uint64_t r = 0;
    while ((r + 1) * (r + 1) <= v)
        r++;
    return r * r == v ? (uint32_t)r : 0;
}

/* The resolved shape: routers, floor plan. */
typedef struct ff_shape {
    uint32_t routers, nodes, radix, x, y, xr, yr, maxlen;
} ff_shape;

static int ff_resolve(const ff_cfg *cfg, ff_shape *s, mpp_err *err)
{
    uint64_t routers = 1;
    for (uint32_t d = 0; d < cfg->n; d++) {
        routers *= cfg->k;
        if (routers > FF_MAX_ROUTERS)
            return mpp_err_set(err, MPP_EINVAL,
                               "flatfly: k^n = %u^%u routers is above the limit of %u (2^20)",
                               cfg->k, cfg->n, FF_MAX_ROUTERS);
    }
    uint64_t radix = cfg->c + (uint64_t)cfg->n * (cfg->k - 1);
    if (radix > 64)
        return mpp_err_set(err, MPP_EINVAL,
                           "flatfly: radix c + n (k - 1) = %u + %u x %u = %llu is above the "
                           "engine's limit of 64 ports per router",
                           cfg->c, cfg->n, cfg->k - 1, (unsigned long long)radix);
    if (routers * cfg->c > FF_MAX_NODES)
        return mpp_err_set(err, MPP_EINVAL,
                           "flatfly: %llu routers x %u nodes is above the limit of %u (2^23) nodes",
                           (unsigned long long)routers, cfg->c, FF_MAX_NODES);
    s->routers = (uint32_t)routers;
    s->nodes = (uint32_t)routers * cfg->c;
    s->radix = (uint32_t)radix;
    s->x = cfg->x ? cfg->x : whole_sqrt(routers) ? whole_sqrt(routers) : s->routers;
    if (s->routers % s->x)
        return mpp_err_set(err, MPP_EINVAL,
                           "flatfly: x = %u does not divide the %u routers (k^n)", s->x,
                           s->routers);
    s->y = s->routers / s->x;
    if (cfg->y && cfg->y != s->y)
        return mpp_err_set(err, MPP_EINVAL,
                           "flatfly: y = %u, but %u routers in rows of x = %u make %u rows", cfg->y,
                           s->routers, s->x, s->y);
    s->xr = cfg->xr ? cfg->xr : whole_sqrt(cfg->c) ? whole_sqrt(cfg->c) : cfg->c;
    if (cfg->c % s->xr)
        return mpp_err_set(err, MPP_EINVAL, "flatfly: xr = %u does not divide c = %u", s->xr,
                           cfg->c);
    s->yr = cfg->c / s->xr;
    if (cfg->yr && cfg->yr != s->yr)
        return mpp_err_set(err, MPP_EINVAL,
                           "flatfly: yr = %u, but c = %u nodes in rows of xr = %u make %u rows",
                           cfg->yr, cfg->c, s->xr, s->yr);
    uint64_t maxlen = cfg->noc_latency ? (uint64_t)s->xr * (s->x - 1) + (uint64_t)s->yr * (s->y - 1)
                                       : 1;
    if (maxlen > 255)
        return mpp_err_set(err, MPP_EINVAL,
                           "flatfly: with noc_latency the longest link is xr (x - 1) + yr (y - 1) "
                           "= %llu, above the limit of 255 (set noc_latency: false)",
                           (unsigned long long)maxlen);
    s->maxlen = (uint32_t)maxlen;
    return 0;
}

static int ff_size(const void *cfgp, mpp_topo_size *out, mpp_err *err)
{
    ff_shape s;
    int rc = ff_resolve(cfgp, &s, err);
    if (rc)
        return rc;
    out->routers = s.routers;
    out->nodes = out->links = s.nodes;
    out->ports = (uint64_t)s.routers * s.radix;
    out->priv_bytes = out->ports;
    return 0;
}

static int ff_parse_short(const char *args, mpp_sb *out, mpp_err *err)
{
    uint64_t v[3];
    if (mpp_topo_parse_x(args, v, 3) != 3)
        return mpp_err_set(err, MPP_EINVAL,
                           "flatfly:%.40s: expected flatfly:KxNxC (k routers per dimension, n "
                           "dimensions, c nodes per router), e.g. flatfly:4x2x4",
                           args);
    mpp_sb_printf(out, "k=%llu\nn=%llu\nc=%llu\n", (unsigned long long)v[0],
                  (unsigned long long)v[1], (unsigned long long)v[2]);
    return 0;
}

static int ff_setup(mpp_topo *t, const void *cfgp, mpp_err *err)
{
    const ff_cfg *cfg = cfgp;
    ff_shape s;
    int rc = ff_resolve(cfg, &s, err);
    if (rc)
        return rc;
    uint32_t R = s.routers, k = cfg->k, c = cfg->c;
    uint32_t *radix = malloc(R * sizeof *radix);
    if (!radix)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    for (uint32_t r = 0; r < R; r++)
        radix[r] = s.radix;
    rc = mpp_topo_alloc(t, R, radix, s.nodes, NULL, err);
    free(radix);
    if (rc)
        return rc;
    uint8_t *len = calloc((size_t)R * s.radix, 1);
    if (!len)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory"); /* (the caller frees t) */
    t->kind = MPP_TOPO_FLATFLY;
    t->dims[0] = k;
    t->dims[1] = cfg->n;
    t->dims[2] = c;
    t->dims[3] = s.x;
    t->dims[4] = s.xr;
    t->priv = len;
    t->port_len = len;
    /* nodes: BookSim's floor plan (invariant 2) */
    uint32_t X = s.x * s.xr;
    for (uint32_t i = 0; i < s.nodes; i++) {
        uint32_t row = i / X, col = i % X;
        uint32_t r = (row / s.yr) * s.x + col / s.xr;
        uint32_t p = (row % s.yr) * s.xr + col % s.xr;
        mpp_topo_attach(t, i, 0, r, p);
    }
    /* router links: each pair once, from the lower coordinate (invariant 1) */
    for (uint32_t d = 0, stride = 1; d < cfg->n; d++, stride *= k)
        for (uint32_t r = 0; r < R; r++) {
            uint32_t xd = r / stride % k;
            for (uint32_t o = xd + 1; o < k; o++) {
                uint32_t q = r + (o - xd) * stride;
                uint32_t pr = c + (k - 1) * d + o - 1, pq = c + (k - 1) * d + xd;
                mpp_topo_connect(t, r, pr, q, pq);
                uint32_t dc = r % s.x > q % s.x ? r % s.x - q % s.x : q % s.x - r % s.x;
                uint32_t dr = r / s.x > q / s.x ? r / s.x - q / s.x : q / s.x - r / s.x;
                uint32_t l = cfg->noc_latency ? s.xr * dc + s.yr * dr : 1;
                len[t->port_base[r] + pr] = len[t->port_base[q] + pq] = (uint8_t)l;
            }
        }
    return 0;
}

static uint32_t ff_distance(const mpp_topo *t, uint32_t a, uint32_t b)
{
    uint32_t ra = t->node_router[a], rb = t->node_router[b], k = t->dims[0], h = 0;
    for (uint32_t d = 0; d < t->dims[1]; d++, ra /= k, rb /= k)
        h += ra % k != rb % k;
    return h;
}

static void ff_destroy(mpp_topo *t)
{
    free(t->priv);
    t->priv = NULL;
    t->port_len = NULL;
}

static void ff_port_name(const mpp_topo *t, uint32_t r, uint32_t p, char *buf, int len)
{
    uint32_t k = t->dims[0], c = t->dims[2];
    if (p < c) {
        snprintf(buf, (size_t)len, "node%u", p);
        return;
    }
    uint32_t d = (p - c) / (k - 1), j = (p - c) % (k - 1), x = r;
    for (uint32_t i = 0; i < d; i++)
        x /= k;
    x %= k;
    snprintf(buf, (size_t)len, "d%u.%u", d, j < x ? j : j + 1);
}

const mpp_topo_ops mpp_topo_flatfly = {
    .name = "flatfly",
    .help = "flattened butterfly (BookSim's flatfly): k^n routers of c nodes, each linked to "
            "every router of each dimension; BookSim's node ids and link lengths",
    .schema = {ff_params, MPP_COUNTOF(ff_params), sizeof(ff_cfg)},
    .parse_short = ff_parse_short,
    .setup = ff_setup,
    .size = ff_size,
    .distance = ff_distance,
    .port_name = ff_port_name,
    .destroy = ff_destroy,
};
