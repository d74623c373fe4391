/* algorithms/bc_repos.c — `repos`: reposition the sources onto the ideal
 * distribution of the base algorithm (`base`: br_xy_source, the default,
 * or br_lin; algorithms/bcast_dist.h), then run the base algorithm.
 *
 * The move is one step and a permutation: a source already at an ideal
 * position stays; the others, in increasing id order, send their message to
 * the remaining ideal positions in increasing id order (the least number of
 * moves; mpp_bcast_mesh_match). The base algorithm then runs on exactly
 * the ideal distribution; a source that moved its message keeps its copy,
 * so what the base algorithm sends it leaves that message out
 * (mpp_bcast_move_own). br_xy_source chooses its first dimension from the
 * ideal positions. */
#include "algorithms/bcast.h"

#include <stddef.h>
#include <stdlib.h>

#include "algorithms/bcast_dist.h"
#include "algorithms/bcast_mesh.h"

typedef struct repos_cfg {
    int base; /* 0 br_xy_source, 1 br_lin */
} repos_cfg;

static const char *const base_choices[] = {"br_xy_source", "br_lin", NULL};

static const mpp_param repos_params[] = {
    {"base", MPP_PT_ENUM, offsetof(repos_cfg, base), "br_xy_source", 0, 0, base_choices,
     "the algorithm run on its ideal distribution after the move"},
};

static int repos_build(mpp_bcast_plan *pl, const void *cfgp, mpp_err *err)
{
    const repos_cfg *cfg = cfgp;
    bool lin = cfg->base == 1;
    mpp_bcast_sub whole = mpp_bcast_mesh_whole(pl);
    uint32_t *buf = malloc(3 * (size_t)pl->s * sizeof *buf);
    if (!buf)
        return mpp_err_set(err, MPP_ENOMEM, "broadcast: out of memory");
    uint32_t *ideal = buf, *from = buf + pl->s, *to = buf + 2 * pl->s;
    int rc = mpp_bcast_mesh_ideal(pl, &whole, lin ? MPP_DIST_IDEAL_LIN : MPP_DIST_IDEAL_XY, pl->s,
                                  ideal, err);
    if (!rc) {
        uint32_t n = mpp_bcast_mesh_match(pl->src, ideal, pl->s, from, to);
        rc = mpp_bcast_mesh_move(pl, from, to, n, err);
    }
    if (!rc && lin) {
        rc = mpp_bcast_mesh_lin(pl, &whole, 1, MPP_BCAST_BCAST, err);
    } else if (!rc) {
        bool rows_first;
        rc = mpp_bcast_mesh_rows_first(pl, &whole, ideal, pl->s, &rows_first, err);
        if (!rc)
            rc = mpp_bcast_mesh_xy(pl, &whole, &rows_first, 1, MPP_BCAST_BCAST, err);
    }
    free(buf);
    return rc;
}

const mpp_bcast_ops mpp_bcast_repos = {
    .name = "repos",
    .help = "move the sources to the ideal distribution of `base` (br_xy_source or br_lin), "
            "then run it",
    .schema = {repos_params, MPP_COUNTOF(repos_params), sizeof(repos_cfg)},
    .parts = 1u << MPP_BCAST_REDIST | 1u << MPP_BCAST_BCAST,
    .build = repos_build,
};
