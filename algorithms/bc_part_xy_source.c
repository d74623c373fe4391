/* algorithms/bc_part_xy_source.c — `part_xy_source`: as part_lin with
 * br_xy_source inside each group (each group chooses its own first
 * dimension from its ideal positions); mpp_bcast_mesh_part in
 * bcast_mesh.c. */
#include "algorithms/bcast.h"
#include "algorithms/bcast_mesh.h"

static int part_xy_source_build(mpp_bcast_plan *pl, const void *cfg, mpp_err *err)
{
    (void)cfg;
    return mpp_bcast_mesh_part(pl, true, err);
}

const mpp_bcast_ops mpp_bcast_part_xy_source = {
    .name = "part_xy_source",
    .help = "two halves with sources in proportion, repositioned for br_xy_source, "
            "br_xy_source in each, then an exchange between the halves",
    .parts = 1u << MPP_BCAST_REDIST | 1u << MPP_BCAST_BCAST | 1u << MPP_BCAST_EXCHANGE,
    .build = part_xy_source_build,
};
