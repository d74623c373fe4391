/* algorithms/bc_two_step.c — `two_step`: an s-to-one gather then a
 * one-to-all broadcast. In one step every source other than processor 0
 * moves its message to processor 0 (which posts all s receives first; this
 * step is the algorithm's redistribution part), then processor 0, holding
 * all s messages combined, broadcasts them alone (a one-to-all broadcast:
 * the sources do not forward their own messages) with br_lin's halving
 * pattern over the snake order, whose first processor is 0: ceil(log2 p)
 * steps, each message s x L bytes, (s - 1) x L to a source, which has its
 * own (mpp_bcast_move_own). */
#include "algorithms/bcast.h"
#include "algorithms/bcast_mesh.h"

static int two_step_build(mpp_bcast_plan *pl, const void *cfg, mpp_err *err)
{
    (void)cfg;
    int rc = 0;
    mpp_bcast_step_begin(pl, MPP_BCAST_REDIST);
    for (uint32_t j = 0; j < pl->s && !rc; j++)
        if (pl->src[j] != 0)
            rc = mpp_bcast_move_own(pl, pl->src[j], 0, err);
    if (!rc)
        rc = mpp_bcast_step_end(pl, err);
    mpp_bcast_sub whole = mpp_bcast_mesh_whole(pl);
    return rc ? rc : mpp_bcast_mesh_lin(pl, &whole, 1, MPP_BCAST_BCAST, err);
}

const mpp_bcast_ops mpp_bcast_two_step = {
    .name = "two_step",
    .help = "gather the s messages at processor 0, then broadcast them with br_lin's pattern",
    .parts = 1u << MPP_BCAST_REDIST | 1u << MPP_BCAST_BCAST,
    .build = two_step_build,
};
