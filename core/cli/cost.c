/* core/cli/cost.c — the estimated work of a run, from its configuration
 * alone (cost.h): the order of `run`'s queue, `check`'s estimate and
 * `run --max-work`.
 *
 * The estimate is in units of a flit crossing a router, the engine's main
 * work (the network is not built; the topology's description is, once per
 * run of another topology than the run before):
 *
 *   cost = nodes x flits x (mean distance + 1) x stretch x sqrt(route classes)
 *          + routers x cycles / 40
 *
 * nodes, routers: the topology's; mean distance: the topology's distance
 * between evenly spaced nodes (at most 64 of them, every pair); flits,
 * cycles: for an open-loop workload (its configuration has workload.rate
 * and workload.measure) cycles = warmup + measure and flits = rate x
 * cycles (the offered load); for a closed one the flits each node sends,
 * from workload.bytes (node.flit_bits bits a flit) or workload.packets x
 * workload.packet_flits, times workload.rounds or workload.round_trips
 * when it has them, 1 when it has none of these keys, and cycles = flits.
 * A router-cycle without traffic costs about 1/40 of a flit's crossing
 * (an 8x8 mesh, release build). stretch is the routing's expected route
 * length over the minimal one (mpp_routing_ops.stretch: valiant 2), and a
 * routing with more route classes holds more VCs per port: on
 * experiments/routing/hypercube.yaml (dim 10, mean over the patterns)
 * valiant takes 2.1 times e-cube's time and romm:k=2, 3, 4 1.5, 1.7, 1.9
 * times, against 2.8 and 1.4, 1.7, 2 here. The order of the queue and the
 * --max-work refusal depend on it, never a result. */
#include "core/cli/cost.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/route.h"
#include "core/schema.h"
#include "core/workload.h"

/* The topology numbers of the estimate, kept for the next run when it has
 * the same topology. */
struct mpp_cost_cache {
    const mpp_topo_ops *ops;  /* NULL: nothing kept */
    mpp_blob cfg;
    double nodes, routers, hops;
    mpp_topo t;               /* the topology, when built */
    bool built;
};

/* Fill te's topology numbers for net (kept when net has te's topology). */
static void topo_estimate(const mpp_net_config *net, mpp_cost_cache *te)
{
    if (te->ops && te->ops == net->topo && !memcmp(&te->cfg, &net->topo_cfg, sizeof te->cfg))
        return;
    te->ops = net->topo;
    te->cfg = net->topo_cfg;
    te->nodes = te->routers = te->hops = 1;
    if (te->built)
        mpp_topo_free(&te->t);
    te->built = false;
    mpp_topo *tp = &te->t;
    memset(tp, 0, sizeof *tp);
    mpp_err err;
    mpp_err_clear(&err);
    if (!net->topo || mpp_topo_build(tp, net->topo, net->topo_cfg.b, &err))
        return; /* validated runs build; else every run costs alike */
    te->built = true;
    const mpp_topo t = *tp;
    te->nodes = t.nodes;
    te->routers = t.routers;
    uint32_t s = t.nodes < 64 ? t.nodes : 64;
    double sum = 0;
    for (uint32_t a = 0; a < s; a++)
        for (uint32_t b = 0; b < s; b++)
            sum += t.ops->distance(&t, (uint32_t)((uint64_t)a * t.nodes / s),
                                   (uint32_t)((uint64_t)b * t.nodes / s));
    if (s > 1)
        te->hops = 1 + sum / ((double)s * (s - 1));
}

/* The number at `key` of cfg's workload configuration (a numeric row of
 * its schema), or false. */
static bool workload_number(const mpp_sim_config *cfg, const char *key, double *out)
{
    const mpp_workload_ops *w = cfg->workload.ops;
    const mpp_param *p = w ? mpp_schema_find(&w->schema, key) : NULL;
    if (!p || p->offset >= sizeof cfg->workload.cfg.b)
        return false;
    const unsigned char *at = cfg->workload.cfg.b + p->offset;
    uint32_t u32;
    uint64_t u64;
    switch (p->type) {
    case MPP_PT_U32:
        memcpy(&u32, at, sizeof u32);
        *out = u32;
        return true;
    case MPP_PT_U64:
    case MPP_PT_BYTES:
    case MPP_PT_CYCLES:
        memcpy(&u64, at, sizeof u64);
        *out = (double)u64;
        return true;
    case MPP_PT_DOUBLE:
        memcpy(out, at, sizeof *out);
        return isfinite(*out);
    default:
        return false;
    }
}

double mpp_cost_run(const mpp_sim_config *cfg, mpp_cost_cache *te)
{
    topo_estimate(&cfg->net, te);
    double rate, warmup, measure, flits, cycles, v, w;
    if (workload_number(cfg, "rate", &rate) && workload_number(cfg, "measure", &measure)) {
        if (!workload_number(cfg, "warmup", &warmup))
            warmup = 0;
        cycles = warmup + measure;
        flits = rate * cycles;
    } else {
        if (workload_number(cfg, "bytes", &v) && v > 0)
            flits = ceil(v * 8 / (cfg->node.flit_bits ? cfg->node.flit_bits : 32));
        else if (workload_number(cfg, "packets", &v) && workload_number(cfg, "packet_flits", &w))
            flits = v * w;
        else
            flits = 1;
        if (workload_number(cfg, "rounds", &v) || workload_number(cfg, "round_trips", &v))
            flits *= v;
        cycles = flits;
    }
    double classes = 1, stretch = 1;
    if (te->built && cfg->net.routing) {
        classes = cfg->net.routing->route_classes(&te->t, cfg->net.routing_cfg.b);
        if (cfg->net.routing->stretch > 0)
            stretch = cfg->net.routing->stretch;
    }
    return te->nodes * flits * te->hops * stretch * sqrt(classes) + te->routers * cycles / 40;
}

mpp_cost_cache *mpp_cost_new(void) { return calloc(1, sizeof(mpp_cost_cache)); }

void mpp_cost_free(mpp_cost_cache *te)
{
    if (te && te->built)
        mpp_topo_free(&te->t);
    free(te);
}
