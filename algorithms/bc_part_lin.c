/* algorithms/bc_part_lin.c — `part_lin`: split the mesh along its longer
 * dimension into two groups, give each a share of the sources in
 * proportion to its size at the group's ideal br_lin positions, br_lin
 * inside both groups at once, then a final exchange between the groups
 * (mpp_bcast_mesh_part in bcast_mesh.c has the rules). */
#include "algorithms/bcast.h"
#include "algorithms/bcast_mesh.h"

static int part_lin_build(mpp_bcast_plan *pl, const void *cfg, mpp_err *err)
{
    (void)cfg;
    return mpp_bcast_mesh_part(pl, false, err);
}

const mpp_bcast_ops mpp_bcast_part_lin = {
    .name = "part_lin",
    .help = "two halves with sources in proportion, repositioned for br_lin, br_lin in each, "
            "then an exchange between the halves",
    .parts = 1u << MPP_BCAST_REDIST | 1u << MPP_BCAST_BCAST | 1u << MPP_BCAST_EXCHANGE,
    .build = part_lin_build,
};
