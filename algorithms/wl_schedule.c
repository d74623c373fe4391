/* algorithms/wl_schedule.c — the `schedule` workload: a communication
 * matrix (a COM file, or one generated) scheduled by a scheduler
 * (algorithms/schedule.h) and replayed by the node processors in a
 * messaging paradigm (algorithms/replay.h builds the programs; a runtime
 * protocol such as drs_n also drives them through handler callbacks).
 * Reported besides the node-program columns: the schedule's phases, its
 * elementary scheduling steps and, for runtime protocols, the requests
 * made (`inquiries`), and as this workload's own columns those refused
 * (`inquiries_busy`) and when the protocol's set-up ended
 * (`generate_recv_ms`: drs_n's Generate_Recv, on the last processor) and
 * drs_n's lock releases that overtook their data (`releases_before_data`). simulate: false only schedules (the run has no
 * cycles). The throughput statistics are measured over
 * [warmup, warmup + measure) (see docs/config.md).
 *
 * The trade-off of Ranka, Wang and Fox (a schedule computed once and used
 * once, or reused): schedule_ms is the schedule's work (mpp_sched_work)
 * priced on ONE node processor by the node section (mpp_sched_work_cycles
 * / cpu_mhz; NaN without cpu_mhz), comm_ms the replay's makespan_ms (NaN
 * when simulate is false), total_ms = schedule_ms / reuse + comm_ms. A
 * runtime protocol (drs_n) computes nothing beforehand: its schedule_ms is
 * 0, its scheduling is inside comm_ms. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "algorithms/replay.h"
#include "algorithms/schedule.h"
#include "algorithms/workloads.h"
#include "core/base/ckd.h"
#include "core/schema.h"
#include "core/sim.h"

typedef struct sched_cfg {
    mpp_replay_config r;
    int paradigm;
    bool simulate;
    uint32_t reuse;
    uint64_t warmup, measure;
} sched_cfg;

/* A run's state: the replay, and what finish needs of the configuration. */
typedef struct sched_run {
    mpp_replay rp;
    uint32_t reuse;
    bool simulate;
} sched_run;

/* "published", then mpp_paradigm_names in their order (index - 1). */
static const char *const paradigm_choices[] = {"published", "sync", "async", "am", "am_put", NULL};

static const char *const gen_choices[] = {"random-regular", "random-nonuniform", NULL};

#define R(f) offsetof(sched_cfg, r.f)
static const mpp_param sched_params[] = {
    {"scheduler", MPP_PT_PLUGIN, R(scheduler), "cgm", 0, 0, NULL,
     "the scheduler (mppnet list schedulers); its parameters go in workload.<scheduler>",
     &mpp_sched_family, R(sched_cfg)},
    {"paradigm", MPP_PT_ENUM, offsetof(sched_cfg, paradigm), "published", 0, 0, paradigm_choices,
     "messaging paradigm of the replay (published: the scheduler's own, as its paper ran it: "
     "async for ac, sync for the phased ones)"},
    {"com", MPP_PT_STRING, R(com), "", 0, 0, NULL,
     "a COM file (Matrix Market, .gz allowed); empty: generate one"},
    {"com_step", MPP_PT_U32, R(com_step), "0", 0, 1e9, NULL, "which matrix of a sequence file"},
    {"gen", MPP_PT_ENUM, R(gen), "random-regular", 0, 0, gen_choices,
     "the generator when no file is given"},
    {"d", MPP_PT_U32, R(d), "4", 0, 1u << 20, NULL, "messages per processor of a generated matrix"},
    {"units", MPP_PT_U64, R(units), "1", 1, 1e12, NULL,
     "units per message of a random-regular matrix"},
    {"msg_unit", MPP_PT_BYTES, R(msg_unit), "0", 0, 1e12, NULL,
     "bytes per unit (0: the file's, 1 for generated matrices)"},
    {"pack", MPP_PT_BOOL, R(pack), "false", 0, 0, NULL,
     "gather each message into a contiguous send buffer before sending it (node.mem_word_cycles "
     "per 32-bit word, on the sender)"},
    {"simulate", MPP_PT_BOOL, offsetof(sched_cfg, simulate), "true", 0, 0, NULL,
     "replay the schedule on the machine (false: only schedule it)"},
    {"reuse", MPP_PT_U32, offsetof(sched_cfg, reuse), "1", 1, 1e9, NULL,
     "times the schedule is used: total_ms = schedule_ms / reuse + comm_ms"},
    {"warmup", MPP_PT_CYCLES, offsetof(sched_cfg, warmup), "10000", 0, MPP_CKD_WINDOW_MAX, NULL,
     "start of the throughput window, cycles"},
    {"measure", MPP_PT_CYCLES, offsetof(sched_cfg, measure), "30000", 1, MPP_CKD_WINDOW_MAX, NULL,
     "length of the throughput window, cycles"},
};

static void sched_destroy(void *priv)
{
    sched_run *run = priv;
    mpp_replay_free(&run->rp);
    free(run);
}

static int sched_setup(mpp_sim *s, const void *cfgp, void **priv, mpp_err *err)
{
    const sched_cfg *c = cfgp;
    sched_run *run = calloc(1, sizeof *run);
    if (!run)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    *priv = run;
    run->reuse = c->reuse;
    run->simulate = c->simulate;
    mpp_replay *rp = &run->rp;
    if (!c->r.scheduler)
        return mpp_err_set(err, MPP_EINVAL,
                           "key 'workload.scheduler': a schedule workload needs a scheduler "
                           "(mppnet list schedulers)");
    int rc = mpp_sim_window(s, c->warmup, c->measure, err);
    if (rc)
        return rc;
    int paradigm = c->paradigm ? c->paradigm - 1 : c->r.scheduler->paradigm;
    rc = mpp_replay_prepare(rp, &c->r, paradigm, mpp_sim_topology(s)->nodes,
                                mpp_sim_config_get(s)->run.seed,
                                mpp_sim_config_get(s)->node.mem_word_cycles, err);
    if (rc || !c->simulate)
        return rc; /* schedule only: no processors, the run ends at once */
    if (rp->rt.ud)
        /* a runtime protocol drives the processors through callbacks */
        mpp_sim_handlers(s, rp->rt.handler, rp->rt.start, rp->rt.ud);
    return mpp_sim_programs(s, rp->pb.prog, err);
}

static void sched_finish(void *priv, const mpp_sim *s, mpp_sim_result *r)
{
    const sched_run *run = priv;
    const mpp_replay *rp = &run->rp;
    const mpp_node_config *node = &mpp_sim_config_get(s)->node;
    r->phases = rp->sched.nphases;
    r->sched_steps = rp->sched.steps;
    r->inquiries = rp->rt.inquiries ? rp->rt.inquiries(rp->rt.ud) : 0;
    if (!(node->cpu_mhz > 0))
        r->schedule_ms = NAN;
    else if (rp->rt.ud)
        r->schedule_ms = 0; /* a runtime protocol: its scheduling is communication */
    else
        r->schedule_ms =
            (double)mpp_sched_work_cycles(&rp->sched.work, node) / (node->cpu_mhz * 1000.0);
    r->comm_ms = run->simulate ? r->makespan_ms : NAN;
    r->total_ms = r->schedule_ms / run->reuse + r->comm_ms;
    r->extra[0].u = rp->rt.inquiries_busy ? rp->rt.inquiries_busy(rp->rt.ud) : 0;
    double mhz = mpp_sim_config_get(s)->net.net_mhz;
    r->extra[1].d = rp->rt.setup_cycles && mhz > 0
                        ? (double)rp->rt.setup_cycles(rp->rt.ud) / (mhz * 1000.0)
                        : 0;
    r->extra[2].u = rp->rt.overtaken ? rp->rt.overtaken(rp->rt.ud) : 0;
}

static const mpp_result_column sched_columns[] = {
    {"inquiries_busy", MPP_F_U64, "runtime protocols: inquiries refused (drs_n: lock busy)"},
    {"generate_recv_ms", MPP_F_DOUBLE,
     "runtime protocols: when the set-up ended on the last processor, ms (drs_n: Generate_Recv; "
     "0 for the others)"},
    {"releases_before_data", MPP_F_U64,
     "drs_n: lock releases that reached the destination before the last packet of their "
     "message (packets overtaking each other in the network)"},
};

const mpp_workload_ops mpp_workload_schedule = {
    .name = "schedule",
    .help = "a COM scheduled into phases (or a runtime protocol) and replayed by the processors",
    .schema = {sched_params, MPP_COUNTOF(sched_params), sizeof(sched_cfg)},
    .flags = MPP_WL_NODES,
    .setup = sched_setup,
    .finish = sched_finish,
    .destroy = sched_destroy,
    .columns = sched_columns,
    .ncolumns = MPP_COUNTOF(sched_columns),
    .summary = mpp_summary_nodes,
    .nsummary = MPP_SUMMARY_NODES_N,
};
