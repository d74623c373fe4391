/* algorithms/bc_br_xy_source.c — `br_xy_source`: br_lin inside every row,
 * then inside every column, or columns first: with max_r and max_c the
 * largest number of sources in one row and in one column, rows go first
 * iff max_r < max_c (the dimension whose lines hold fewer sources, so the
 * messages of the second stage stay short). ceil(log2 c) + ceil(log2 r)
 * steps. */
#include "algorithms/bcast.h"
#include "algorithms/bcast_mesh.h"

static int br_xy_source_build(mpp_bcast_plan *pl, const void *cfg, mpp_err *err)
{
    (void)cfg;
    mpp_bcast_sub whole = mpp_bcast_mesh_whole(pl);
    bool rows_first;
    int rc = mpp_bcast_mesh_rows_first(pl, &whole, pl->src, pl->s, &rows_first, err);
    return rc ? rc : mpp_bcast_mesh_xy(pl, &whole, &rows_first, 1, MPP_BCAST_BCAST, err);
}

const mpp_bcast_ops mpp_bcast_br_xy_source = {
    .name = "br_xy_source",
    .help = "br_lin in every row then every column, or columns first: the dimension with "
            "fewer sources per line goes first",
    .parts = 1u << MPP_BCAST_BCAST,
    .build = br_xy_source_build,
};
