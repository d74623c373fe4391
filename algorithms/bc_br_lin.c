/* algorithms/bc_br_lin.c — `br_lin`: the processors as one linear array in
 * snake-like row-major order (row x left to right when x is even, right to
 * left when odd), and the halving broadcast on it (halving.h): on a range
 * of q processors, i < floor(q/2) exchanges with i + ceil(q/2), the
 * unpaired ceil(q/2) - 1 of an odd range also sends to the range's last,
 * then both halves recurse. ceil(log2 p) steps.
 *
 * Invariant: the snake order makes consecutive processors mesh neighbours,
 * so a range is a path of the mesh. */
#include "algorithms/bcast.h"
#include "algorithms/bcast_mesh.h"

static int br_lin_build(mpp_bcast_plan *pl, const void *cfg, mpp_err *err)
{
    (void)cfg;
    mpp_bcast_sub whole = mpp_bcast_mesh_whole(pl);
    return mpp_bcast_mesh_lin(pl, &whole, 1, MPP_BCAST_BCAST, err);
}

const mpp_bcast_ops mpp_bcast_br_lin = {
    .name = "br_lin",
    .help = "halving broadcast on the processors as a linear array in snake-like row-major "
            "order, combining messages",
    .parts = 1u << MPP_BCAST_BCAST,
    .build = br_lin_build,
};
