/* algorithms/registry.c — the one list of scheduler plug-ins. Adding a
 * scheduler: one file exporting its ops table, one line here, one line in
 * algorithms/meson.build. */
#include "schedule.h"

#include <string.h>

static const mpp_sched_ops *const all[] = {
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
