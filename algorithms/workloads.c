/* algorithms/workloads.c — the one list of workload plug-ins. Adding a
 * workload: one file exporting its ops table, one line here, one line in
 * the meson.build of its folder. */
#include "algorithms/workloads.h"

#include <string.h>

extern const mpp_workload_ops mpp_workload_synthetic;
extern const mpp_workload_ops mpp_workload_permutation;
extern const mpp_workload_ops mpp_workload_messages;
extern const mpp_workload_ops mpp_workload_schedule;
extern const mpp_workload_ops mpp_workload_msgtrace;
extern const mpp_workload_ops mpp_workload_optrace;
extern const mpp_workload_ops mpp_workload_pingpong;
extern const mpp_workload_ops mpp_workload_shift;
extern const mpp_workload_ops mpp_workload_broadcast;
extern const mpp_workload_ops mpp_workload_collective;
extern const mpp_workload_ops mpp_workload_app;
extern const mpp_workload_ops mpp_workload_mpi;

static const mpp_workload_ops *const all[] = {
    &mpp_workload_synthetic,
    &mpp_workload_permutation,
    &mpp_workload_messages,
    &mpp_workload_schedule,
    &mpp_workload_msgtrace,
    &mpp_workload_optrace,
    &mpp_workload_pingpong,
    &mpp_workload_shift,
    &mpp_workload_broadcast,
    &mpp_workload_collective,
    &mpp_workload_app,
    &mpp_workload_mpi,
    NULL,
};

const mpp_workload_ops *mpp_workload_find(const char *name)
{
    for (size_t i = 0; all[i]; i++)
        if (strcmp(all[i]->name, name) == 0)
            return all[i];
    return NULL;
}

const mpp_workload_ops *const *mpp_workload_all(void) { return all; }

MPP_FAMILY_DEFINE(mpp_workload_family, mpp_workload_ops, all, mpp_workload_find,
                  .what = "workload");
