/* topologies/mesh.c — R x C two-dimensional mesh (any R, C >= 1).
 *
 * Node id = row * cols + col (row-major); one router per node, router id =
 * node id. Local ports: 0 = E (col + 1), 1 = W (col - 1), 2 = S (row + 1),
 * 3 = N (row - 1), 4 = the node. Ports at the edges are unconnected.
 * dims[0] = cols (X extent), dims[1] = rows (Y extent); priv is the
 * routers' coordinates, col | row << 16, read through mpp_mesh_coord
 * (core/topo.h). */
#include "topologies/topology.h"


#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* At most 2^23 nodes: 4096 x 2048, 14.3 GiB with the default VCs and
 * buffers (docs/config.md, "Sizes"). */
#define MESH_MAX_NODES (1u << 23)

typedef struct mesh_cfg {
    uint32_t rows, cols;
} mesh_cfg;

static const mpp_param mesh_params[] = {
    {"rows", MPP_PT_U32, offsetof(mesh_cfg, rows), "8", 1, 4096, NULL, "rows (Y extent)"},
    {"cols", MPP_PT_U32, offsetof(mesh_cfg, cols), "8", 1, 4096, NULL, "columns (X extent)"},
};

static int mesh_parse_short(const char *args, mpp_sb *out, mpp_err *err)
{
    uint64_t rc[2];
    if (mpp_topo_parse_x(args, rc, 2) != 2)
        return mpp_err_set(err, MPP_EINVAL, "mesh:%.40s: expected mesh:ROWSxCOLS, e.g. mesh:8x8",
                           args);
    mpp_sb_printf(out, "rows=%llu\ncols=%llu\n", (unsigned long long)rc[0],
                  (unsigned long long)rc[1]);
    return 0;
}

/* R x C routers of 5 ports, a node and a coordinate word each. */
static int mesh_size(const void *cfgp, mpp_topo_size *out, mpp_err *err)
{
    const mesh_cfg *cfg = cfgp;
    if (cfg->rows < 1 || cfg->cols < 1)
        return mpp_err_set(err, MPP_EINVAL, "mesh needs at least 1 row and 1 column");
    out->nodes = out->routers = out->links = (uint64_t)cfg->rows * cfg->cols;
    if (out->nodes > MESH_MAX_NODES)
        return mpp_err_set(err, MPP_EINVAL,
                           "mesh: %u x %u = %llu nodes is above the limit of %u (2^23, e.g. "
                           "4096 x 2048; docs/config.md, \"Sizes\")",
                           cfg->rows, cfg->cols, (unsigned long long)out->nodes, MESH_MAX_NODES);
    out->ports = 5 * out->nodes;
    out->priv_bytes = 4 * out->nodes;
    return 0;
}

static int mesh_setup(mpp_topo *t, const void *cfgp, mpp_err *err)
{
    const mesh_cfg *cfg = cfgp;
    uint32_t R = cfg->rows, C = cfg->cols;
    mpp_topo_size sz;
    int rc = mesh_size(cfgp, &sz, err);
    if (rc)
        return rc;
    uint32_t n = R * C;
    uint32_t *radix = malloc(n * sizeof *radix);
    if (!radix)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    for (uint32_t i = 0; i < n; i++)
        radix[i] = 5;
    rc = mpp_topo_alloc(t, n, radix, n, NULL, err);
    free(radix);
    if (rc)
        return rc;
    uint32_t *xy = malloc(n * sizeof *xy);
    if (!xy)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory"); /* (the caller frees t) */
    t->kind = MPP_TOPO_MESH;
    t->dims[0] = C;
    t->dims[1] = R;
    t->priv = xy;
    for (uint32_t y = 0; y < R; y++)
        for (uint32_t x = 0; x < C; x++) {
            uint32_t id = y * C + x;
            xy[id] = x | y << 16;
            if (x + 1 < C)
                mpp_topo_connect(t, id, 0, id + 1, 1);
            if (y + 1 < R)
                mpp_topo_connect(t, id, 2, id + C, 3);
            mpp_topo_attach(t, id, 0, id, 4);
        }
    return 0;
}

static uint32_t mesh_distance(const mpp_topo *t, uint32_t a, uint32_t b)
{
    uint32_t pa = mpp_mesh_coord(t, a), pb = mpp_mesh_coord(t, b);
    uint32_t ax = pa & 0xffff, ay = pa >> 16, bx = pb & 0xffff, by = pb >> 16;
    return (ax > bx ? ax - bx : bx - ax) + (ay > by ? ay - by : by - ay);
}

static void mesh_destroy(mpp_topo *t)
{
    free(t->priv);
    t->priv = NULL;
}

static void mesh_port_name(const mpp_topo *t, uint32_t r, uint32_t p, char *buf, int len)
{
    static const char *const names[] = {"E", "W", "S", "N", "node"};
    snprintf(buf, (size_t)len, "%s", p < 5 ? names[p] : "?");
}

const mpp_topo_ops mpp_topo_mesh = {
    .name = "mesh",
    .help = "R x C 2D mesh, row-major node ids, ports E W S N + node",
    .schema = {mesh_params, MPP_COUNTOF(mesh_params), sizeof(mesh_cfg)},
    .parse_short = mesh_parse_short,
    .setup = mesh_setup,
    .size = mesh_size,
    .distance = mesh_distance,
    .port_name = mesh_port_name,
    .destroy = mesh_destroy,
};
