/* algorithms/wl_synthetic.c — the `synthetic` workload: BookSim-style
 * open-loop traffic (SPEC 2, "Synthetic traffic"). Every node injects
 * packets of packet_flits flits by a Bernoulli process at `rate` flits per
 * node per cycle, to the destinations a traffic pattern gives its logical
 * id; placement maps logical ids to nodes. Packets created in the window
 * [warmup, warmup + measure) are measured; the run then drains them for at
 * most drain_factor x measure cycles. A sweep over rate gives a
 * latency-load curve. All of it is the engine's open-loop source
 * (mpp_sim_open_loop): this file is the configuration and the columns. */
#include <stddef.h>

#include "algorithms/patterns.h"
#include "algorithms/workloads.h"
#include "core/base/ckd.h"
#include "core/sim.h"

typedef struct syn_cfg {
    const mpp_pattern_ops *pattern;
    mpp_blob pattern_cfg;
    double rate;
    uint32_t packet_flits;
    uint64_t warmup, measure;
    uint32_t drain_factor;
    int placement;
} syn_cfg;

static const char *const placement_choices[] = {"identity", "random", NULL};

static const mpp_param syn_params[] = {
    MPP_PATTERN_ROW(syn_cfg, pattern, pattern_cfg, "uniform"),
    {"rate", MPP_PT_DOUBLE, offsetof(syn_cfg, rate), "0.1", 0, 1, NULL,
     "offered load, flits/node/cycle"},
    {"packet_flits", MPP_PT_U32, offsetof(syn_cfg, packet_flits), "5", 1, 65535, NULL,
     "flits per packet"},
    {"warmup", MPP_PT_CYCLES, offsetof(syn_cfg, warmup), "10000", 0, MPP_CKD_WINDOW_MAX, NULL,
     "cycles before measurement"},
    {"measure", MPP_PT_CYCLES, offsetof(syn_cfg, measure), "30000", 1, MPP_CKD_WINDOW_MAX, NULL,
     "measurement window, cycles"},
    {"drain_factor", MPP_PT_U32, offsetof(syn_cfg, drain_factor), "10", 0, 1000, NULL,
     "drain limit as a multiple of the measurement window"},
    {"placement", MPP_PT_ENUM, offsetof(syn_cfg, placement), "identity", 0, 0, placement_choices,
     "logical-to-physical node placement"},
};

static int syn_setup(mpp_sim *s, const void *cfgp, void **priv, mpp_err *err)
{
    const syn_cfg *c = cfgp;
    mpp_open_loop ol = {
        .pattern = c->pattern, .pattern_cfg = c->pattern_cfg.b, .placement = c->placement,
        .rate = c->rate, .packet_flits = c->packet_flits, .warmup = c->warmup,
        .measure = c->measure, .drain_factor = c->drain_factor,
    };
    return mpp_sim_open_loop(s, &ol, err);
}

static const mpp_summary_col syn_summary[] = {
    {"offered", "offered", 8, 4},        {"accepted", "accepted", 8, 4},
    {"latency_mean", "latency_mean", 12, 2}, {"latency_p99", "latency_p99", 11, 1},
    {"hops_mean", "hops_mean", 9, 3},    {"saturated", "saturated", 9, 0},
};

const mpp_workload_ops mpp_workload_synthetic = {
    .name = "synthetic",
    .help = "open-loop traffic: Bernoulli injection from a pattern, warm-up, window, drain",
    .schema = {syn_params, MPP_COUNTOF(syn_params), sizeof(syn_cfg)},
    .setup = syn_setup,
    .summary = syn_summary,
    .nsummary = MPP_COUNTOF(syn_summary),
};
