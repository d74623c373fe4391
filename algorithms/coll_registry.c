/* algorithms/coll_registry.c — the one list of collective plug-ins
 * (algorithms/coll.h). Adding a collective: one file exporting its ops
 * table, one line here, one line in algorithms/meson.build. */
#include "algorithms/coll.h"

#include <string.h>

extern const mpp_coll_ops mpp_coll_binomial;
extern const mpp_coll_ops mpp_coll_msbt;
extern const mpp_coll_ops mpp_coll_linear;
extern const mpp_coll_ops mpp_coll_scatter;
extern const mpp_coll_ops mpp_coll_gather;
extern const mpp_coll_ops mpp_coll_allgather;
extern const mpp_coll_ops mpp_coll_alltoall;
extern const mpp_coll_ops mpp_coll_grid_gather;
extern const mpp_coll_ops mpp_coll_grid_scatter;
extern const mpp_coll_ops mpp_coll_reduce;
extern const mpp_coll_ops mpp_coll_allreduce;
extern const mpp_coll_ops mpp_coll_reduce_scatter;
extern const mpp_coll_ops mpp_coll_scan;
extern const mpp_coll_ops mpp_coll_permute;

static const mpp_coll_ops *const all[] = {
    &mpp_coll_binomial,
    &mpp_coll_msbt,
    &mpp_coll_linear,
    &mpp_coll_scatter,
    &mpp_coll_gather,
    &mpp_coll_allgather,
    &mpp_coll_alltoall,
    &mpp_coll_grid_gather,
    &mpp_coll_grid_scatter,
    &mpp_coll_reduce,
    &mpp_coll_allreduce,
    &mpp_coll_reduce_scatter,
    &mpp_coll_scan,
    &mpp_coll_permute,
    NULL,
};

const mpp_coll_ops *mpp_coll_find(const char *name)
{
    for (size_t i = 0; all[i]; i++)
        if (strcmp(all[i]->name, name) == 0)
            return all[i];
    return NULL;
}

const mpp_coll_ops *const *mpp_coll_all(void) { return all; }

MPP_FAMILY_DEFINE(mpp_coll_family, mpp_coll_ops, all, mpp_coll_find, .what = "collective");
