/* topologies/fattree.c — BookSim's k-ary n-tree (`fattree`,
 * src/networks/fattree.cpp): k^n nodes, n levels of k^(n-1) routers; the
 * CM-5's fat tree is topologies/cm5_fattree.c.
 *
 * Numbering (BookSim's). Level 0 is the top, level n-1 the leaves; router
 * (level, pos) has id level * k^(n-1) + pos, pos written in base k with
 * n-1 digits. Local ports 0..k-1 lead down ("d0".."d<k-1>"), k..2k-1 up
 * ("u0".."u<k-1>"); the top routers have only the k down ports. Leaf
 * router pos's down port i is node pos * k + i.
 *
 * Wiring (BookSim's channel numbering, solved): down port a of router
 * (l, pos) <-> up port k + q of router (l + 1, pos'), where pos' is pos
 * with its base-k digit number n-2-l (0 = lowest) replaced by a, and q is
 * that digit of pos. So the routers of level l whose top l digits are equal
 * (a "neighbourhood" of k^(n-1-l) routers) all reach the same k^(n-l)
 * nodes below them, the nodes whose top l base-k digits (of n) are those
 * digits, and from any of them digit n-1-l of the destination names the
 * down port toward it.
 *
 * dims[0] = k, dims[1] = n. priv is unused.
 *
 * Invariants (test/test_bsnets.c):
 *   1. every port is connected (down ports of the leaves to nodes);
 *   2. down port a of a level-l router leads to a router whose subtree is
 *      the a-th k^(n-1-l)-node part of its own;
 *   3. distance(a, b) = 2 x (n - 1 - l), l the lowest level (largest l)
 *      whose subtrees hold both (0 on the same leaf router). */
#include "topologies/topology.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KT_MAX_NODES (1u << 20)

typedef struct kt_cfg {
    uint32_t k, n;
} kt_cfg;

static const mpp_param kt_params[] = {
    {"k", MPP_PT_U32, offsetof(kt_cfg, k), "4", 2, 64, NULL,
     "arity: down ports (and up ports) of a router; k^n nodes"},
    {"n", MPP_PT_U32, offsetof(kt_cfg, n), "3", 1, 20, NULL, "levels of routers"},
};

static int kt_parse_short(const char *args, mpp_sb *out, mpp_err *err)
{
    uint64_t v[2];
    if (mpp_topo_parse_x(args, v, 2) != 2)
        return mpp_err_set(err, MPP_EINVAL,
                           "fattree:%.40s: expected fattree:KxN (k-ary n-tree), e.g. fattree:4x3",
                           args);
    mpp_sb_printf(out, "k=%llu\nn=%llu\n", (unsigned long long)v[0], (unsigned long long)v[1]);
    return 0;
}

/* k^e, or 0 when it passes KT_MAX_NODES. */
static uint64_t kt_pow(uint32_t k, uint32_t e)
{
    uint64_t v = 1;
    for (uint32_t i = 0; i < e; i++)
        if ((v *= k) > KT_MAX_NODES)
            return 0;
    return v;
}

static int kt_size(const void *cfgp, mpp_topo_size *out, mpp_err *err)
{
    const kt_cfg *cfg = cfgp;
    uint64_t nodes = cfg->k >= 2 && cfg->n >= 1 ? kt_pow(cfg->k, cfg->n) : 0;
    if (!nodes)
        return mpp_err_set(err, MPP_EINVAL,
                           "fattree: k = %u, n = %u: k^n nodes must lie between 2 and %u "
                           "(k >= 2, n >= 1)",
                           cfg->k, cfg->n, KT_MAX_NODES);
    uint64_t per = nodes / cfg->k;
    out->nodes = out->links = nodes;
    out->routers = per * cfg->n;
    out->ports = per * cfg->k + per * (cfg->n - 1) * 2 * cfg->k;
    return 0;
}

static int kt_setup(mpp_topo *t, const void *cfgp, mpp_err *err)
{
    const kt_cfg *cfg = cfgp;
    mpp_topo_size sz = {0};
    int rc = kt_size(cfgp, &sz, err);
    if (rc)
        return rc;
    uint32_t k = cfg->k, n = cfg->n, per = (uint32_t)(sz.nodes / k), R = (uint32_t)sz.routers;
    uint32_t *radix = malloc(R * sizeof *radix);
    if (!radix)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory building the fattree");
    for (uint32_t r = 0; r < R; r++)
        radix[r] = r < per ? k : 2 * k;
    rc = mpp_topo_alloc(t, R, radix, (uint32_t)sz.nodes, NULL, err);
    free(radix);
    if (rc)
        return rc;
    t->kind = MPP_TOPO_KTREE;
    t->dims[0] = k;
    t->dims[1] = n;
    for (uint32_t pos = 0; pos < per; pos++)
        for (uint32_t i = 0; i < k; i++)
            mpp_topo_attach(t, pos * k + i, 0, (n - 1) * per + pos, i);
    /* level l -> l + 1: the digit n-2-l of pos has weight k^(n-2-l) */
    uint32_t w = per / k;
    for (uint32_t l = 0; l + 1 < n; l++, w /= k)
        for (uint32_t pos = 0; pos < per; pos++) {
            uint32_t q = pos / w % k, rest = pos - q * w;
            for (uint32_t a = 0; a < k; a++)
                mpp_topo_connect(t, l * per + pos, a, (l + 1) * per + rest + a * w, k + q);
        }
    return 0;
}

static uint32_t kt_distance(const mpp_topo *t, uint32_t a, uint32_t b)
{
    uint32_t k = t->dims[0], up = 0;
    for (a /= k, b /= k; a != b; a /= k, b /= k)
        up++;
    return 2 * up;
}

static void kt_port_name(const mpp_topo *t, uint32_t r, uint32_t p, char *buf, int len)
{
    uint32_t k = t->dims[0];
    snprintf(buf, (size_t)len, "%c%u", p < k ? 'd' : 'u', p < k ? p : p - k);
}

const mpp_topo_ops mpp_topo_fattree = {
    .name = "fattree",
    .help = "BookSim's k-ary n-tree: k^n nodes, n levels of k^(n-1) routers (level 0 the top), "
            "ports d0.. down then u0.. up",
    .schema = {kt_params, MPP_COUNTOF(kt_params), sizeof(kt_cfg)},
    .parse_short = kt_parse_short,
    .setup = kt_setup,
    .size = kt_size,
    .distance = kt_distance,
    .port_name = kt_port_name,
};
