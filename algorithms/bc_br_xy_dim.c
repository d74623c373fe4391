/* algorithms/bc_br_xy_dim.c — `br_xy_dim`: as br_xy_source, but the
 * dimension is chosen by the mesh's shape alone: rows first iff r >= c
 * (the paper's "longer dimension first"). */
#include "algorithms/bcast.h"
#include "algorithms/bcast_mesh.h"

static int br_xy_dim_build(mpp_bcast_plan *pl, const void *cfg, mpp_err *err)
{
    (void)cfg;
    mpp_bcast_sub whole = mpp_bcast_mesh_whole(pl);
    bool rows_first = pl->r >= pl->c;
    return mpp_bcast_mesh_xy(pl, &whole, &rows_first, 1, MPP_BCAST_BCAST, err);
}

const mpp_bcast_ops mpp_bcast_br_xy_dim = {
    .name = "br_xy_dim",
    .help = "br_lin in every row then every column when r >= c, else columns first",
    .parts = 1u << MPP_BCAST_BCAST,
    .build = br_xy_dim_build,
};
