/* traces/wl_optrace.c — the `optrace` workload: an operation trace
 * (traces/trace.h) re-executed by the processors, every node running the
 * operations it recorded, in order. On the configuration and with the seed
 * that recorded it (`mppnet replay --ops` checks the configuration hash and
 * takes the seed from the trace) it repeats the run exactly; elsewhere it
 * runs the same programs on another machine. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim.h"
#include "core/workload.h"
#include "traces/trace.h"

typedef struct ot_cfg {
    char file[MPP_STR_MAX];
} ot_cfg;

static const mpp_param ot_params[] = {
    {"file", MPP_PT_STRING, offsetof(ot_cfg, file), "", 0, 0, NULL,
     "the operation trace (.gz allowed)"},
};

static int ot_setup(mpp_sim *s, const void *cfgp, void **priv, mpp_err *err)
{
    const ot_cfg *c = cfgp;
    if (!c->file[0])
        return mpp_err_set(err, MPP_EINVAL, "key 'workload.file': an optrace workload needs an "
                                            "operation trace file");
    mpp_op_trace ot;
    mpp_progbuild pb;
    memset(&pb, 0, sizeof pb);
    int rc = mpp_op_trace_read(c->file, &ot, err);
    if (!rc)
        rc = mpp_trace_programs_ops(&ot, mpp_sim_topology(s)->nodes, &pb, err);
    if (!rc)
        rc = mpp_sim_programs(s, pb.prog, err);
    mpp_progbuild_free(&pb);
    mpp_op_trace_free(&ot);
    return rc;
}

const mpp_workload_ops mpp_workload_optrace = {
    .name = "optrace",
    .help = "an operation trace re-executed by the processors",
    .schema = {ot_params, MPP_COUNTOF(ot_params), sizeof(ot_cfg)},
    .flags = MPP_WL_NODES,
    .setup = ot_setup,
    .summary = mpp_summary_nodes,
    .nsummary = MPP_SUMMARY_NODES_N,
};
