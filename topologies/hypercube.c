/* topologies/hypercube.c — binary n-cube, N = 2^n nodes (n = 1..20).
 *
 * dim 1..20 (or nodes = 2^dim). One router per node, router id = node id = its n-bit address. Local port d
 * (0 <= d < n) leads to the neighbour across dimension d (address XOR 2^d);
 * port n is the node. dims[0] = n. One-port node model: each node has one
 * injection and one ejection channel. */
#include "topologies/topology.h"

#include "core/base/units.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct hcube_cfg {
    uint32_t dim;
    uint32_t nodes; /* 0: use dim; else must be 2^k, and sets dim = k */
} hcube_cfg;

static const mpp_param hcube_params[] = {
    {"dim", MPP_PT_U32, offsetof(hcube_cfg, dim), "6", 1, 20, NULL,
     "dimension n: 2^n nodes"},
    {"nodes", MPP_PT_U32, offsetof(hcube_cfg, nodes), "0", 0, 1u << 20, NULL,
     "node count instead of dim (a power of two); 0 = use dim"},
};

static int hcube_parse_short(const char *args, mpp_sb *out, mpp_err *err)
{
    uint64_t d;
    if (!mpp_units_u64(args, strlen(args), &d))
        return mpp_err_set(err, MPP_EINVAL,
                           "hypercube:%.40s: expected hypercube:DIM (2^DIM nodes), e.g. "
                           "hypercube:6",
                           args);
    mpp_sb_printf(out, "dim=%llu\n", (unsigned long long)d);
    return 0;
}

/* The dimension cfg asks for (dim, or nodes = 2^dim), or a negative
 * MPP_E* with err filled. */
static int hcube_dim(const hcube_cfg *cfg, mpp_err *err)
{
    uint32_t n = cfg->dim;
    if (cfg->nodes) {
        if (cfg->nodes & (cfg->nodes - 1))
            return mpp_err_set(err, MPP_EINVAL,
                               "hypercube needs a power-of-two node count; %u is not one "
                               "(nearest: %u or %u)",
                               cfg->nodes, 1u << (31 - __builtin_clz(cfg->nodes)),
                               2u << (31 - __builtin_clz(cfg->nodes)));
        n = (uint32_t)__builtin_ctz(cfg->nodes);
    }
    if (cfg->nodes == 1)
        n = 0;
    if (n < 1 || n > 20)
        return mpp_err_set(err, MPP_EINVAL, "hypercube dimension %u is outside 1..20 (2 to 2^20 nodes)", n);
    return (int)n;
}

/* 2^n routers of n + 1 ports, one node each. */
static int hcube_size(const void *cfgp, mpp_topo_size *out, mpp_err *err)
{
    int n = hcube_dim(cfgp, err);
    if (n < 0)
        return n;
    out->nodes = out->routers = out->links = 1ull << n;
    out->ports = out->nodes * (uint64_t)(n + 1);
    return 0;
}

static int hcube_setup(mpp_topo *t, const void *cfgp, mpp_err *err)
{
    int dim = hcube_dim(cfgp, err);
    if (dim < 0)
        return dim;
    uint32_t n = (uint32_t)dim;
    uint32_t N = 1u << n;
    uint32_t *radix = malloc(N * sizeof *radix);
    if (!radix)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    for (uint32_t i = 0; i < N; i++)
        radix[i] = n + 1;
    int rc = mpp_topo_alloc(t, N, radix, N, NULL, err);
    free(radix);
    if (rc)
        return rc;
    t->kind = MPP_TOPO_HYPERCUBE;
    t->dims[0] = n;
    for (uint32_t a = 0; a < N; a++) {
        for (uint32_t d = 0; d < n; d++) {
            uint32_t b = a ^ (1u << d);
            if (a < b)
                mpp_topo_connect(t, a, d, b, d);
        }
        mpp_topo_attach(t, a, 0, a, n);
    }
    return 0;
}

static uint32_t hcube_distance(const mpp_topo *t, uint32_t a, uint32_t b)
{
    return (uint32_t)__builtin_popcount(a ^ b);
}

static void hcube_port_name(const mpp_topo *t, uint32_t r, uint32_t p, char *buf, int len)
{
    if (p < t->dims[0])
        snprintf(buf, (size_t)len, "dim%u", p);
    else
        snprintf(buf, (size_t)len, "node");
}

const mpp_topo_ops mpp_topo_hypercube = {
    .name = "hypercube",
    .help = "binary n-cube of 2^n nodes, port d crosses dimension d",
    .schema = {hcube_params, MPP_COUNTOF(hcube_params), sizeof(hcube_cfg)},
    .parse_short = hcube_parse_short,
    .setup = hcube_setup,
    .size = hcube_size,
    .distance = hcube_distance,
    .port_name = hcube_port_name,
};
