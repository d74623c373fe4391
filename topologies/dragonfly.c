/* topologies/dragonfly.c — the dragonfly (Kim, Dally, Scott and Abts
 * 2008) as BookSim's `dragonflynew` builds it.
 *
 * Shape (core/topo.h, MPP_TOPO_DRAGONFLY): g = a h + 1 groups of a routers;
 * each router has p nodes, a link to each of the a - 1 other routers of its
 * group, and h global links, so that every pair of groups is joined by
 * exactly one global link. BookSim derives everything from its k (our p):
 * a = 2p, h = p, g = 2p^2 + 1 (its n must be 1); a = 0 and h = 0 here mean
 * the same, other values a generalised dragonfly wired by the same rule.
 * Radix p + (a - 1) + h; p a g nodes.
 *
 * Numbering (BookSim's): router id = group a + i, node id = router p + j on
 * local port j. Port p + j (j < a - 1) leads to the router of index j of the
 * group when j < i, else j + 1. Global link m = i h + q of group G (local
 * port p + a - 1 + q of its router i) leads to group m when m < G, else to
 * group m + 1: the link of each group to group D is its link D, or D - 1
 * for the groups above D, at both ends. This is the wiring of BookSim's
 * _BuildNet and the port its dragonfly_port routes by.
 *
 * Link lengths (t->port_len, in link_latency units, flits and credits
 * alike): local_len inside a group, global_len between groups; BookSim
 * compiles its dragonfly with DRAGON_LATENCY defined (dragonfly.cpp), which
 * makes them 10 and 100: the defaults. Node links have length 1.
 *
 * Invariants:
 *   1. each pair of groups is joined by exactly one global link, each
 *      pair of routers of a group by one local link (mpp_topo_check checks
 *      the symmetry; test_flydf counts the links);
 *   2. the global link of group G toward group D (D != G) is link
 *      D - (D > G) of G, on router (D - (D > G)) / h. */
#include "topologies/topology.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#define DF_MAX_NODES (1u << 23)

typedef struct df_cfg {
    uint32_t p, a, h;
    uint32_t local_len, global_len;
} df_cfg;

static const mpp_param df_params[] = {
    {"p", MPP_PT_U32, offsetof(df_cfg, p), "2", 1, 32, NULL,
     "nodes per router (BookSim's k for dragonflynew)"},
    {"a", MPP_PT_U32, offsetof(df_cfg, a), "0", 0, 64, NULL,
     "routers per group (0: 2p, as BookSim)"},
    {"h", MPP_PT_U32, offsetof(df_cfg, h), "0", 0, 64, NULL,
     "global links per router (0: p, as BookSim); groups g = a h + 1"},
    {"local_len", MPP_PT_U32, offsetof(df_cfg, local_len), "10", 1, 255, NULL,
     "length of a link inside a group, in link_latency units (BookSim's DRAGON_LATENCY: 10)"},
    {"global_len", MPP_PT_U32, offsetof(df_cfg, global_len), "100", 1, 255, NULL,
     "length of a global link, in link_latency units (BookSim's DRAGON_LATENCY: 100)"},
};

/* The shape: p, a, h resolved, g, and the checks. */
static int df_resolve(const df_cfg *cfg, uint32_t *a, uint32_t *h, uint32_t *g, mpp_err *err)
{
    *a = cfg->a ? cfg->a : 2 * cfg->p;
    *h = cfg->h ? cfg->h : cfg->p;
    if (*a < 1 || *h < 1)
        return mpp_err_set(err, MPP_EINVAL, "dragonfly: a and h must be at least 1");
    uint64_t radix = (uint64_t)cfg->p + *a - 1 + *h;
    if (radix > 64)
        return mpp_err_set(err, MPP_EINVAL,
                           "dragonfly: radix p + (a - 1) + h = %u + %u + %u = %llu is above the "
                           "engine's limit of 64 ports per router",
                           cfg->p, *a - 1, *h, (unsigned long long)radix);
    *g = *a * *h + 1;
    uint64_t nodes = (uint64_t)cfg->p * *a * *g;
    if (nodes > DF_MAX_NODES)
        return mpp_err_set(err, MPP_EINVAL,
                           "dragonfly: p a g = %u x %u x %u = %llu nodes is above the limit of "
                           "%u (2^23)",
                           cfg->p, *a, *g, (unsigned long long)nodes, DF_MAX_NODES);
    return 0;
}

static int df_size(const void *cfgp, mpp_topo_size *out, mpp_err *err)
{
    const df_cfg *cfg = cfgp;
    uint32_t a, h, g;
    int rc = df_resolve(cfg, &a, &h, &g, err);
    if (rc)
        return rc;
    out->routers = (uint64_t)a * g;
    out->nodes = out->links = out->routers * cfg->p;
    out->ports = out->routers * (cfg->p + a - 1 + h);
    out->priv_bytes = cfg->local_len > 1 || cfg->global_len > 1 ? out->ports : 0;
    return 0;
}

static int df_parse_short(const char *args, mpp_sb *out, mpp_err *err)
{
    uint64_t v[3];
    uint32_t n = mpp_topo_parse_x(args, v, 3);
    if (n != 1 && n != 3)
        return mpp_err_set(err, MPP_EINVAL,
                           "dragonfly:%.40s: expected dragonfly:P (BookSim's: a = 2p, h = p) or "
                           "dragonfly:PxAxH, e.g. dragonfly:4",
                           args);
    mpp_sb_printf(out, "p=%llu\n", (unsigned long long)v[0]);
    if (n == 3)
        mpp_sb_printf(out, "a=%llu\nh=%llu\n", (unsigned long long)v[1],
                      (unsigned long long)v[2]);
    return 0;
}

static int df_setup(mpp_topo *t, const void *cfgp, mpp_err *err)
{
    const df_cfg *cfg = cfgp;
    uint32_t a, h, g;
    int rc = df_resolve(cfg, &a, &h, &g, err);
    if (rc)
        return rc;
    uint32_t P = cfg->p, R = a * g, radix0 = P + a - 1 + h;
    uint32_t *radix = malloc(R * sizeof *radix);
    if (!radix)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    for (uint32_t r = 0; r < R; r++)
        radix[r] = radix0;
    rc = mpp_topo_alloc(t, R, radix, R * P, NULL, err);
    free(radix);
    if (rc)
        return rc;
    t->kind = MPP_TOPO_DRAGONFLY;
    t->dims[0] = P;
    t->dims[1] = a;
    t->dims[2] = h;
    t->dims[3] = g;
    uint8_t *len = NULL;
    if (cfg->local_len > 1 || cfg->global_len > 1) {
        if (!(len = malloc((size_t)R * radix0)))
            return mpp_err_set(err, MPP_ENOMEM, "out of memory"); /* (the caller frees t) */
        for (uint32_t r = 0; r < R; r++)
            for (uint32_t q = 0; q < radix0; q++)
                len[(size_t)r * radix0 + q] =
                    (uint8_t)(q < P ? 1 : q < P + a - 1 ? cfg->local_len : cfg->global_len);
        t->priv = len;
        t->port_len = len;
    }
    for (uint32_t r = 0; r < R; r++) {
        for (uint32_t j = 0; j < P; j++)
            mpp_topo_attach(t, r * P + j, 0, r, j);
        uint32_t G = r / a, i = r % a;
        for (uint32_t o = i + 1; o < a; o++) /* local links, once per pair */
            mpp_topo_connect(t, r, P + o - 1, G * a + o, P + i);
    }
    for (uint32_t G = 0; G < g; G++) /* global links, once per pair of groups (invariant 2) */
        for (uint32_t D = G + 1; D < g; D++) {
            uint32_t m = D - 1, mb = G; /* G's link toward D, D's toward G */
            mpp_topo_connect(t, G * a + m / h, P + a - 1 + m % h, D * a + mb / h,
                             P + a - 1 + mb % h);
        }
    return 0;
}

/* Router hops between routers ra and rb on a shortest path: 0; 1 in a
 * group; else the hierarchical route (local hop to the global link joining
 * the groups, the link, local hop) or, where shorter, two global links
 * through a third group whose arrival router has a global link to rb
 * (routings stay hierarchical: docs/routing.md). */
static uint32_t df_router_hops(const mpp_topo *t, uint32_t ra, uint32_t rb)
{
    uint32_t P = t->dims[0], a = t->dims[1], h = t->dims[2];
    uint32_t G = ra / a, D = rb / a;
    if (ra == rb)
        return 0;
    if (G == D)
        return 1;
    uint32_t out = G * a + (D - (D > G)) / h, in = D * a + (G - (G > D)) / h;
    uint32_t best = (ra != out) + 1 + (rb != in);
    for (uint32_t q = 0; q < h && best > 2; q++) {
        uint32_t x = t->port_router[t->port_peer[t->port_base[ra] + P + a - 1 + q]];
        for (uint32_t q2 = 0; q2 < h && best > 2; q2++)
            if (t->port_router[t->port_peer[t->port_base[x] + P + a - 1 + q2]] == rb)
                best = 2;
    }
    return best;
}

static uint32_t df_distance(const mpp_topo *t, uint32_t a, uint32_t b)
{
    return df_router_hops(t, t->node_router[a], t->node_router[b]);
}

static void df_destroy(mpp_topo *t)
{
    free(t->priv);
    t->priv = NULL;
    t->port_len = NULL;
}

static void df_port_name(const mpp_topo *t, uint32_t r, uint32_t p, char *buf, int len)
{
    uint32_t P = t->dims[0], a = t->dims[1], h = t->dims[2];
    uint32_t G = r / a, i = r % a;
    if (p < P)
        snprintf(buf, (size_t)len, "node%u", p);
    else if (p < P + a - 1)
        snprintf(buf, (size_t)len, "l%u", p - P < i ? p - P : p - P + 1);
    else {
        uint32_t m = i * h + (p - P - a + 1);
        snprintf(buf, (size_t)len, "g%u", m < G ? m : m + 1);
    }
}

const mpp_topo_ops mpp_topo_dragonfly = {
    .name = "dragonfly",
    .help = "dragonfly (BookSim's dragonflynew): a h + 1 groups of a routers of p nodes, "
            "groups fully connected inside, one global link per pair of groups",
    .schema = {df_params, MPP_COUNTOF(df_params), sizeof(df_cfg)},
    .parse_short = df_parse_short,
    .setup = df_setup,
    .size = df_size,
    .distance = df_distance,
    .port_name = df_port_name,
    .destroy = df_destroy,
};
