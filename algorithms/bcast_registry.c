/* algorithms/bcast_registry.c — the one list of s-to-p broadcast plug-ins
 * (algorithms/bcast.h). Adding an algorithm: one file exporting its ops
 * table, one line here, one line in algorithms/meson.build. */
#include "algorithms/bcast.h"

#include <string.h>

extern const mpp_bcast_ops mpp_bcast_br_lin;
extern const mpp_bcast_ops mpp_bcast_br_xy_source;
extern const mpp_bcast_ops mpp_bcast_br_xy_dim;
extern const mpp_bcast_ops mpp_bcast_xor;
extern const mpp_bcast_ops mpp_bcast_two_step;
extern const mpp_bcast_ops mpp_bcast_repos;
extern const mpp_bcast_ops mpp_bcast_part_lin;
extern const mpp_bcast_ops mpp_bcast_part_xy_source;

static const mpp_bcast_ops *const all[] = {
    &mpp_bcast_br_lin,
    &mpp_bcast_br_xy_source,
    &mpp_bcast_br_xy_dim,
    &mpp_bcast_xor,
    &mpp_bcast_two_step,
    &mpp_bcast_repos,
    &mpp_bcast_part_lin,
    &mpp_bcast_part_xy_source,
    NULL,
};

const mpp_bcast_ops *mpp_bcast_find(const char *name)
{
    for (size_t i = 0; all[i]; i++)
        if (strcmp(all[i]->name, name) == 0)
            return all[i];
    return NULL;
}

const mpp_bcast_ops *const *mpp_bcast_all(void) { return all; }

MPP_FAMILY_DEFINE(mpp_bcast_family, mpp_bcast_ops, all, mpp_bcast_find,
                  .what = "broadcast algorithm");
