/* algorithms/bcast_mesh.h — the mesh side of s-to-p broadcasting
 * (mpp_bcast_mesh_*): sub-meshes, the snake order and the lines (rows,
 * columns) of a sub-mesh, br_lin and br_xy run on several sub-meshes at
 * once, the choice of br_xy_source's first dimension, and repositioning
 * sources onto an ideal distribution (repos, part_*). The plug-ins
 * bc_*.c are thin layers over these and over the two shared modules
 * (halving.h, xorex.h).
 *
 * A sub-mesh g is rows g.x0 .. g.x0 + g.r - 1 and columns g.y0 .. g.y0 +
 * g.c - 1 of the plan's mesh; its processor (x, y) (local, 0-based) is the
 * plan's processor (g.x0 + x) * pl->c + g.y0 + y, and its k-th processor in
 * row-major order is local (k / g.c, k % g.c). */
#ifndef MPP_ALGORITHMS_BCAST_MESH_H
#define MPP_ALGORITHMS_BCAST_MESH_H

#include <stdbool.h>
#include <stdint.h>

#include "algorithms/bcast.h"
#include "core/base/err.h"

typedef struct mpp_bcast_sub {
    uint32_t x0, y0; /* top-left corner in the plan's mesh */
    uint32_t r, c;   /* rows and columns */
} mpp_bcast_sub;

/* The plan's processor id of g's local processor (x, y). */
static inline uint32_t mpp_bcast_sub_id(const mpp_bcast_plan *pl, const mpp_bcast_sub *g,
                                        uint32_t x, uint32_t y)
{
    return (g->x0 + x) * pl->c + g->y0 + y;
}

/* The whole mesh of pl as a sub-mesh. */
mpp_bcast_sub mpp_bcast_mesh_whole(const mpp_bcast_plan *pl);

/* g's processors in snake-like row-major order (local row x left to right
 * when x is even, right to left when odd) into out[0 .. g.r x g.c - 1]. */
void mpp_bcast_mesh_snake(const mpp_bcast_plan *pl, const mpp_bcast_sub *g, uint32_t *out);

/* br_lin on every sub-mesh of g[0 .. ng-1] at once (each its own linear
 * array in snake order; the sub-meshes must be disjoint). Steps of `part`.
 * Fails as mpp_halving_bcast. */
int mpp_bcast_mesh_lin(mpp_bcast_plan *pl, const mpp_bcast_sub *g, uint32_t ng, int part,
                       mpp_err *err);

/* br_xy on every sub-mesh of g[0 .. ng-1] at once: first the halving
 * broadcast inside every row of the sub-meshes with rows_first[k] and
 * inside every column of the others, then inside the other dimension.
 * Steps of `part`. Fails as mpp_halving_bcast. */
int mpp_bcast_mesh_xy(mpp_bcast_plan *pl, const mpp_bcast_sub *g, const bool *rows_first,
                      uint32_t ng, int part, mpp_err *err);

/* br_xy_source's choice for sub-mesh g whose sources are the processors
 * src[0 .. n-1] inside it (others are ignored): with max_r and max_c the
 * most sources in one row and in one column of g, *rows_first = (max_r <
 * max_c). Fails with MPP_ENOMEM. */
int mpp_bcast_mesh_rows_first(const mpp_bcast_plan *pl, const mpp_bcast_sub *g,
                              const uint32_t *src, uint32_t n, bool *rows_first, mpp_err *err);

/* The ideal distribution (MPP_DIST_IDEAL_XY or MPP_DIST_IDEAL_LIN of
 * algorithms/bcast_dist.h) of n sources on g, as the plan's processor ids,
 * increasing, into out[0 .. n-1]; n = 0 gives nothing. Fails as
 * mpp_dist_ideal (MPP_EINVAL) or with MPP_ENOMEM. */
int mpp_bcast_mesh_ideal(const mpp_bcast_plan *pl, const mpp_bcast_sub *g, int kind, uint32_t n,
                         uint32_t *out, mpp_err *err);

/* The repositioning of sources `have` onto positions `ideal` (n processor
 * ids each, both increasing): a source already at an ideal position stays;
 * the others, in increasing id order, take the remaining ideal positions
 * in increasing id order. Writes the moves into from[] / to[] (at most n)
 * and returns their number, which is the least possible (n minus the
 * sources already at an ideal position). */
uint32_t mpp_bcast_mesh_match(const uint32_t *have, const uint32_t *ideal, uint32_t n,
                              uint32_t *from, uint32_t *to);

/* Moves as one step of MPP_BCAST_REDIST: from[k] moves its own message to
 * to[k] (mpp_bcast_move_own). Fails as mpp_bcast_move_own. */
int mpp_bcast_mesh_move(mpp_bcast_plan *pl, const uint32_t *from, const uint32_t *to, uint32_t n,
                        mpp_err *err);

/* part_lin (xy false) and part_xy_source (xy true), whole algorithm: split,
 * reposition, broadcast inside each group, final exchange (docs/broadcast.md).
 * Fails as the steps it takes. */
int mpp_bcast_mesh_part(mpp_bcast_plan *pl, bool xy, mpp_err *err);

#endif
