/* traces/wl_msgtrace.c — the `msgtrace` workload: a message trace
 * (traces/trace.h) replayed as timed sends on any machine. Every
 * destination first posts a receive per message it gets; every source
 * waits (COMPUTE) until a message's issue time, then sends it in
 * `paradigm`; all WAIT at the end. Issue times in microseconds need
 * node.cpu_mhz; times in cycles also network.net_mhz. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/schema.h"
#include "core/sim.h"
#include "core/workload.h"
#include "traces/trace.h"

typedef struct mt_cfg {
    char file[MPP_STR_MAX];
    int paradigm;
} mt_cfg;

static const mpp_param mt_params[] = {
    {"file", MPP_PT_STRING, offsetof(mt_cfg, file), "", 0, 0, NULL,
     "the message trace (.gz allowed)"},
    {"paradigm", MPP_PT_ENUM, offsetof(mt_cfg, paradigm), "sync", 0, 0, mpp_paradigm_names,
     "messaging paradigm of the sends"},
};

static int mt_setup(mpp_sim *s, const void *cfgp, void **priv, mpp_err *err)
{
    const mt_cfg *c = cfgp;
    const mpp_sim_config *sc = mpp_sim_config_get(s);
    if (!c->file[0])
        return mpp_err_set(err, MPP_EINVAL, "key 'workload.file': a msgtrace workload needs a "
                                            "message trace file");
    mpp_msg_trace mt;
    mpp_progbuild pb;
    memset(&pb, 0, sizeof pb);
    int rc = mpp_msg_trace_read(c->file, &mt, err);
    if (!rc)
        rc = mpp_trace_programs_msgs(&mt, mpp_sim_topology(s)->nodes, c->paradigm,
                                     sc->node.cpu_mhz, sc->net.net_mhz, &pb, err);
    if (!rc)
        rc = mpp_sim_programs(s, pb.prog, err);
    mpp_progbuild_free(&pb);
    mpp_msg_trace_free(&mt);
    return rc;
}

const mpp_workload_ops mpp_workload_msgtrace = {
    .name = "msgtrace",
    .help = "a message trace replayed as timed sends through the processors",
    .schema = {mt_params, MPP_COUNTOF(mt_params), sizeof(mt_cfg)},
    .flags = MPP_WL_NODES,
    .setup = mt_setup,
    .summary = mpp_summary_nodes,
    .nsummary = MPP_SUMMARY_NODES_N,
};
