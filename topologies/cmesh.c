/* topologies/cmesh.c — BookSim's concentrated mesh (`cmesh`,
 * src/networks/cmesh.cpp): a k x k mesh of routers, each serving c = xr x yr
 * nodes, with BookSim's express links joining the routers of each edge
 * that lie k/2 apart.
 *
 * Keys as BookSim: k routers per dimension, n dimensions (2: BookSim's
 * cmesh is two-dimensional), c nodes per router, xr x yr the block of
 * nodes a router serves (c = xr x yr; BookSim supports only xr = yr = 2).
 *
 * Numbering (BookSim's). The nodes form a grid of k*xr columns and k*yr
 * rows, numbered row by row: node (col, row) = row * k*xr + col. Router
 * (x, y) = y * k + x serves the nodes with col / xr == x and row / yr == y;
 * its local port y' * xr + x' (0 .. c-1) is the node (x*xr + x', y*yr + y').
 * Ports c + 0 .. c + 3 are BookSim's +x, -x, +y, -y ("E", "W", "S", "N":
 * +y is the next row, as on our mesh).
 *
 * Express links (BookSim builds them whatever the routing): on the edges
 * the port that would leave the mesh is wired instead to the same port of
 * the router k/2 further along that edge (y < k/2: y + k/2, else y - k/2):
 * -x of column 0 and +x of column k-1 join routers of the same column,
 * -y of row 0 and +y of row k-1 routers of the same row. k must be even so
 * that this pairing is symmetric.
 *
 * Data (priv): the routers' hop distances, dist[a * R + b] (uint16_t,
 * R = k^2 <= 1024: 2 MiB at most), by breadth-first search over every
 * link, express links included, so that distance() is the true minimum.
 * dims[0] = k, dims[1] = xr, dims[2] = yr, dims[3] = c.
 *
 * Invariants (test/test_bsnets.c):
 *   1. every router port is connected: the node ports to their nodes, the
 *      four mesh ports to a neighbour or an express partner;
 *   2. the wiring is symmetric (mpp_topo_check);
 *   3. distance(a, b) = BFS hops between the routers of a and b. */
#include "topologies/topology.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CM_MAX_K 32

typedef struct cm_cfg {
    uint32_t k, n, c, xr, yr;
    bool noc_latency;
} cm_cfg;

static const mpp_param cm_params[] = {
    {"k", MPP_PT_U32, offsetof(cm_cfg, k), "4", 2, CM_MAX_K, NULL,
     "routers per dimension (even: the edges' express links pair routers k/2 apart)"},
    {"n", MPP_PT_U32, offsetof(cm_cfg, n), "2", 2, 2, NULL,
     "dimensions (BookSim's cmesh is two-dimensional)"},
    {"c", MPP_PT_U32, offsetof(cm_cfg, c), "4", 1, 64, NULL, "nodes per router (c = xr x yr)"},
    {"xr", MPP_PT_U32, offsetof(cm_cfg, xr), "2", 1, 8, NULL, "a router's nodes in X"},
    {"yr", MPP_PT_U32, offsetof(cm_cfg, yr), "2", 1, 8, NULL, "a router's nodes in Y"},
    {"noc_latency", MPP_PT_BOOL, offsetof(cm_cfg, noc_latency), "false", 0, 0, NULL,
     "links as long as BookSim's use_noc_latency makes them: cX = c / 2 in X, cY = c / cX in "
     "Y, an express link cY k / 2 (X edges) or cX k / 2 (Y edges); false: every link 1"},
};

static int cm_parse_short(const char *args, mpp_sb *out, mpp_err *err)
{
    uint64_t v[2];
    uint32_t got = mpp_topo_parse_x(args, v, 1);
    if (got != 1)
        return mpp_err_set(err, MPP_EINVAL,
                           "cmesh:%.40s: expected cmesh:K (K x K routers of 4 nodes), e.g. cmesh:4",
                           args);
    mpp_sb_printf(out, "k=%llu\n", (unsigned long long)v[0]);
    return 0;
}

static int cm_check(const cm_cfg *cfg, mpp_err *err)
{
    if (cfg->n != 2)
        return mpp_err_set(err, MPP_EINVAL, "cmesh: n = %u: BookSim's cmesh has 2 dimensions",
                           cfg->n);
    if (cfg->k < 2 || cfg->k > CM_MAX_K || cfg->k % 2)
        return mpp_err_set(err, MPP_EINVAL,
                           "cmesh: k = %u: an even number of routers per dimension from 2 to %u "
                           "(the express links pair edge routers k/2 apart)",
                           cfg->k, CM_MAX_K);
    if (cfg->xr < 1 || cfg->yr < 1 || cfg->c != cfg->xr * cfg->yr)
        return mpp_err_set(err, MPP_EINVAL,
                           "cmesh: c = %u must be xr x yr = %u x %u (the block of nodes a router "
                           "serves)",
                           cfg->c, cfg->xr, cfg->yr);
    return 0;
}

static int cm_size(const void *cfgp, mpp_topo_size *out, mpp_err *err)
{
    const cm_cfg *cfg = cfgp;
    int rc = cm_check(cfg, err);
    if (rc)
        return rc;
    out->routers = (uint64_t)cfg->k * cfg->k;
    out->nodes = out->links = out->routers * cfg->c;
    out->ports = out->routers * (cfg->c + 4);
    out->priv_bytes = out->routers * out->routers * sizeof(uint16_t) + out->ports;
    return 0;
}

/* The express partner of edge coordinate v (BookSim: v < k/2: v + k/2). */
static uint32_t cm_partner(uint32_t v, uint32_t k)
{
    return v < k / 2 ? v + k / 2 : v - k / 2;
}

static int cm_setup(mpp_topo *t, const void *cfgp, mpp_err *err)
{
    const cm_cfg *cfg = cfgp;
    int rc = cm_check(cfg, err);
    if (rc)
        return rc;
    uint32_t k = cfg->k, c = cfg->c, R = k * k, N = R * c;
    uint32_t *radix = malloc(R * sizeof *radix);
    uint32_t cx = c / 2, cy = cx ? c / cx : 0;
    if (cfg->noc_latency && (!cx || cy * k / 2 > 255 || cx * k / 2 > 255))
        return mpp_err_set(err, MPP_EINVAL,
                           "cmesh: noc_latency needs c >= 2 (BookSim's cX = c / 2 would be 0) "
                           "and links of at most 255 (c = %u, k = %u)", c, k);
    /* the distances, then (noc_latency) the link length of every port */
    uint16_t *dist = malloc((size_t)R * R * sizeof *dist + (size_t)R * (c + 4));
    uint32_t *d32 = malloc(2 * (size_t)R * sizeof *d32);
    if (!radix || !dist || !d32) {
        free(radix);
        free(dist);
        free(d32);
        return mpp_err_set(err, MPP_ENOMEM, "out of memory building the cmesh");
    }
    for (uint32_t r = 0; r < R; r++)
        radix[r] = c + 4;
    rc = mpp_topo_alloc(t, R, radix, N, NULL, err);
    free(radix);
    if (rc) {
        free(dist);
        free(d32);
        return rc;
    }
    t->kind = MPP_TOPO_CMESH;
    t->dims[0] = k;
    t->dims[1] = cfg->xr;
    t->dims[2] = cfg->yr;
    t->dims[3] = c;
    t->priv = dist;
    uint8_t *len = NULL;
    if (cfg->noc_latency) {
        len = (uint8_t *)(dist + (size_t)R * R);
        memset(len, 0, (size_t)R * (c + 4));
        t->port_len = len;
    }
    uint32_t cols = k * cfg->xr;
    for (uint32_t y = 0; y < k; y++)
        for (uint32_t x = 0; x < k; x++) {
            uint32_t id = y * k + x;
            for (uint32_t yy = 0; yy < cfg->yr; yy++)
                for (uint32_t xx = 0; xx < cfg->xr; xx++)
                    mpp_topo_attach(t, (y * cfg->yr + yy) * cols + x * cfg->xr + xx, 0, id,
                                    yy * cfg->xr + xx);
            if (x + 1 < k)
                mpp_topo_connect(t, id, c + 0, id + 1, c + 1);
            if (y + 1 < k)
                mpp_topo_connect(t, id, c + 2, id + k, c + 3);
            /* express links: each pair once, from its lower coordinate */
            if (len) {
                uint8_t *l = len + t->port_base[id];
                l[c + 0] = (uint8_t)(x == k - 1 ? cy * k / 2 : cx);
                l[c + 1] = (uint8_t)(x == 0 ? cy * k / 2 : cx);
                l[c + 2] = (uint8_t)(y == k - 1 ? cx * k / 2 : cy);
                l[c + 3] = (uint8_t)(y == 0 ? cx * k / 2 : cy);
            }
            uint32_t py = cm_partner(y, k), px = cm_partner(x, k);
            if (x == 0 && y < py)
                mpp_topo_connect(t, id, c + 1, py * k + x, c + 1);
            if (x == k - 1 && y < py)
                mpp_topo_connect(t, id, c + 0, py * k + x, c + 0);
            if (y == 0 && x < px)
                mpp_topo_connect(t, id, c + 3, y * k + px, c + 3);
            if (y == k - 1 && x < px)
                mpp_topo_connect(t, id, c + 2, y * k + px, c + 2);
        }
    for (uint32_t a = 0; a < R; a++) {
        mpp_topo_router_bfs(t, a, d32, d32 + R);
        for (uint32_t b = 0; b < R; b++)
            dist[(size_t)a * R + b] = (uint16_t)d32[b];
    }
    free(d32);
    return 0;
}

static uint32_t cm_distance(const mpp_topo *t, uint32_t a, uint32_t b)
{
    const uint16_t *dist = t->priv;
    return dist[(size_t)t->node_router[a] * t->routers + t->node_router[b]];
}

static void cm_destroy(mpp_topo *t)
{
    free(t->priv);
    t->priv = NULL;
    t->port_len = NULL;
}

static void cm_port_name(const mpp_topo *t, uint32_t r, uint32_t p, char *buf, int len)
{
    static const char *const names[] = {"E", "W", "S", "N"};
    uint32_t c = t->dims[3];
    if (p < c)
        snprintf(buf, (size_t)len, "node%u", p);
    else
        snprintf(buf, (size_t)len, "%s", p - c < 4 ? names[p - c] : "?");
}

const mpp_topo_ops mpp_topo_cmesh = {
    .name = "cmesh",
    .help = "BookSim's concentrated mesh: k x k routers of c = xr x yr nodes, express links "
            "k/2 apart on the edges; ports node0.. then E W S N",
    .schema = {cm_params, MPP_COUNTOF(cm_params), sizeof(cm_cfg)},
    .parse_short = cm_parse_short,
    .setup = cm_setup,
    .size = cm_size,
    .distance = cm_distance,
    .port_name = cm_port_name,
    .destroy = cm_destroy,
};
