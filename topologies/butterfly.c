/* topologies/butterfly.c — the k-ary n-fly (BookSim's `fly`): k^n
 * terminals, n stages of k^(n-1) routers of radix k (k inputs, k outputs).
 *
 * Shape (core/topo.h has the conventions the routing plug-ins rely on):
 * router id = stage * k^(n-1) + row. Local ports 0..k-1 face backward (on
 * stage 0: terminal row*k + j injects on port j), k..2k-1 forward (on the
 * last stage: port k + j ejects to terminal row*k + j); forward port k + j
 * of stage s, row r, leads to stage s + 1, row r with its base-k digit
 * n - 2 - s replaced by j, arriving on backward port (that digit of r).
 * Destination-tag routing takes forward port k + digit (n - 1 - s) of the
 * destination at stage s: after the last stage the packet is at its
 * destination, whatever its source. A terminal injects at stage 0 and
 * ejects after the last stage with the same id at both ends: its one link
 * is split (mpp_topo_attach_eject).
 *
 * The re-injection loop: stage 0 and the last stage have k more ports,
 * 2k..2k+k-1; the last stage's port 2k + j is wired to port 2k + j of the
 * stage-0 router of the same row — terminal row*k + j's interface handing a
 * packet that ejects there straight back to its injection side, without a
 * processor step. Valiant's routing on a butterfly sends its first pass to
 * a random terminal through this loop (routers/valiant.c); destination-tag
 * routing never uses it. With n = 1 the one stage is both, and the loop
 * port is wired to itself.
 *
 * dims[0] = k, dims[1] = n, dims[2] = k^(n-1) (routers per stage). */
#include "topologies/topology.h"


#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* At most 2^20 terminals: the 2-ary 20-fly has 45 088 768 channel
 * endpoints (below MPP_TOPO_MAX_ENDPOINTS) and takes 12.9 GiB with the
 * default VCs and buffers (docs/config.md, "Sizes"); the 2-ary 21-fly
 * would pass the endpoint limit. */
#define FLY_MAX_NODES (1u << 20)

typedef struct fly_cfg {
    uint32_t k, n;
} fly_cfg;

static const mpp_param fly_params[] = {
    {"k", MPP_PT_U32, offsetof(fly_cfg, k), "2", 2, 21, NULL,
     "router radix: k inputs and k outputs (k^n terminals)"},
    {"n", MPP_PT_U32, offsetof(fly_cfg, n), "6", 1, 20, NULL,
     "stages (k^n at most 2^20 terminals)"},
};

/* "4x3": k = 4, n = 3 (a 4-ary 3-fly). */
static int fly_parse_short(const char *args, mpp_sb *out, mpp_err *err)
{
    uint64_t kn[2];
    if (mpp_topo_parse_x(args, kn, 2) != 2)
        return mpp_err_set(err, MPP_EINVAL,
                           "butterfly:%.40s: expected butterfly:KxN (a k-ary n-fly), e.g. "
                           "butterfly:4x3",
                           args);
    mpp_sb_printf(out, "k=%llu\nn=%llu\n", (unsigned long long)kn[0], (unsigned long long)kn[1]);
    return 0;
}

/* k^n terminals of cfg, or 0 with err filled. */
static uint64_t fly_terminals(const fly_cfg *cfg, mpp_err *err)
{
    uint32_t k = cfg->k, n = cfg->n;
    if (k < 2 || 3 * k > 64) {
        mpp_err_set(err, MPP_EINVAL, "butterfly: k is %u; give 2 to 21", k);
        return 0;
    }
    uint64_t N = 1;
    for (uint32_t i = 0; i < n; i++) {
        N *= k;
        if (N > FLY_MAX_NODES) {
            mpp_err_set(err, MPP_EINVAL,
                        "butterfly: k^n = %u^%u is above the limit of %u terminals (2^20; "
                        "docs/config.md, \"Sizes\")",
                        k, n, FLY_MAX_NODES);
            return 0;
        }
    }
    return N;
}

/* n stages of k^(n-1) routers: 2k ports each, 3k on the first and the
 * last stage (the loop); k^n terminals, each link split. */
static int fly_size(const void *cfgp, mpp_topo_size *out, mpp_err *err)
{
    const fly_cfg *cfg = cfgp;
    uint64_t N = fly_terminals(cfg, err);
    if (!N)
        return err->code;
    uint64_t k = cfg->k, n = cfg->n, rows = N / k;
    out->nodes = out->links = out->split_links = N;
    out->routers = rows * n;
    out->ports = n == 1 ? rows * 3 * k : rows * (2 * k * (n - 2) + 6 * k);
    return 0;
}

static int fly_setup(mpp_topo *t, const void *cfgp, mpp_err *err)
{
    const fly_cfg *cfg = cfgp;
    uint32_t k = cfg->k, n = cfg->n;
    uint64_t N = fly_terminals(cfg, err);
    if (!N)
        return err->code;
    uint32_t rows = (uint32_t)(N / k), R = rows * n;
    uint32_t *radix = malloc((size_t)R * sizeof *radix);
    if (!radix)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    for (uint32_t r = 0; r < R; r++) {
        uint32_t s = r / rows;
        radix[r] = s == 0 || s == n - 1 ? 3 * k : 2 * k;
    }
    int rc = mpp_topo_alloc(t, R, radix, (uint32_t)N, NULL, err);
    free(radix);
    if (rc)
        return rc;
    t->kind = MPP_TOPO_BUTTERFLY;
    t->dims[0] = k;
    t->dims[1] = n;
    t->dims[2] = rows;
    uint32_t last = (n - 1) * rows;
    for (uint32_t s = 0; s + 1 < n; s++) {
        uint32_t pos = 1; /* k^(n-2-s): the weight of digit n - 2 - s of a row */
        for (uint32_t i = 0; i < n - 2 - s; i++)
            pos *= k;
        for (uint32_t r = 0; r < rows; r++) {
            uint32_t digit = r / pos % k;
            for (uint32_t j = 0; j < k; j++) {
                uint32_t r2 = r - digit * pos + j * pos;
                mpp_topo_connect(t, s * rows + r, k + j, (s + 1) * rows + r2, digit);
            }
        }
    }
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t j = 0; j < k; j++)
            mpp_topo_connect(t, last + r, 2 * k + j, r, 2 * k + j);
    for (uint32_t w = 0; w < N; w++) {
        mpp_topo_attach(t, w, 0, w / k, w % k);
        if ((rc = mpp_topo_attach_eject(t, w, 0, last + w / k, k + w % k, err)))
            return rc;
    }
    return 0;
}

/* Every route crosses the n stages: n - 1 inter-router links. */
static uint32_t fly_distance(const mpp_topo *t, uint32_t a, uint32_t b)
{
    return t->dims[1] - 1;
}

static void fly_port_name(const mpp_topo *t, uint32_t r, uint32_t p, char *buf, int len)
{
    uint32_t k = t->dims[0];
    if (p < k)
        snprintf(buf, (size_t)len, "in%u", p);
    else if (p < 2 * k)
        snprintf(buf, (size_t)len, "out%u", p - k);
    else
        snprintf(buf, (size_t)len, "loop%u", p - 2 * k);
}

const mpp_topo_ops mpp_topo_butterfly = {
    .name = "butterfly",
    .help = "k-ary n-fly: k^n terminals, n stages of k^(n-1) routers, destination-tag",
    .schema = {fly_params, MPP_COUNTOF(fly_params), sizeof(fly_cfg)},
    .parse_short = fly_parse_short,
    .setup = fly_setup,
    .size = fly_size,
    .distance = fly_distance,
    .port_name = fly_port_name,
};
