/* algorithms/registry.c — the one list of scheduler plug-ins. Adding a
 * scheduler: one file exporting its ops table, one line here, one line in
 * algorithms/meson.build. */
#include "algorithms/schedule.h"

#include <string.h>

extern const mpp_sched_ops mpp_sched_ac;
extern const mpp_sched_ops mpp_sched_lp;
extern const mpp_sched_ops mpp_sched_gm;
extern const mpp_sched_ops mpp_sched_cgm;
extern const mpp_sched_ops mpp_sched_rs_n;
extern const mpp_sched_ops mpp_sched_rs_nh;
extern const mpp_sched_ops mpp_sched_drs_n;

static const mpp_sched_ops *const all[] = {
    &mpp_sched_ac,
    &mpp_sched_lp,
    &mpp_sched_gm,
    &mpp_sched_cgm,
    &mpp_sched_rs_n,
    &mpp_sched_rs_nh,
    &mpp_sched_drs_n,
    NULL,
};

const mpp_sched_ops *mpp_sched_find(const char *name)
{
    for (size_t i = 0; all[i]; i++)
        if (strcmp(all[i]->name, name) == 0)
            return all[i];
    return NULL;
}

const mpp_sched_ops *const *mpp_sched_all(void) { return all; }

MPP_FAMILY_DEFINE(mpp_sched_family, mpp_sched_ops, all, mpp_sched_find,
                  .what = "scheduler");
