/* algorithms/halving.h — the linear-array halving broadcast
 * (mpp_halving_*), written once for every collective that spreads data
 * along an ordered list of processors: br_lin (the mesh in snake order),
 * br_xy_* (every row, then every column), two_step's broadcast from
 * processor 0, the base algorithms of repos and part_*.
 *
 * On a range of q processors (positions 0 .. q-1 of a list), processor i,
 * i < floor(q/2), exchanges with i + ceil(q/2) what the other lacks (a send
 * when only one side has something the other lacks); when q is odd, the
 * unpaired processor ceil(q/2) - 1 also sends what it holds to the range's
 * last processor in the same step; then the first ceil(q/2) and the last
 * floor(q/2) positions recurse. Every list runs its ranges of recursion
 * depth d in the same plan step (so ceil(log2 of the longest list) steps
 * in all), and at the end every processor of a list holds everything that
 * any processor of the list held at the start. */
#ifndef MPP_ALGORITHMS_HALVING_H
#define MPP_ALGORITHMS_HALVING_H

#include <stdint.h>

#include "algorithms/bcast.h"
#include "core/base/err.h"

/* Run the halving broadcast on nlists disjoint lists at once: list k is
 * ids[start[k] .. start[k+1]) (processor ids of pl, in list order; a list
 * of 0 or 1 processors does nothing). Each depth is one step of `part`.
 * No step may be open. Fails as mpp_bcast_give does, or with MPP_ENOMEM. */
int mpp_halving_bcast(mpp_bcast_plan *pl, const uint32_t *ids, const uint32_t *start,
                      uint32_t nlists, int part, mpp_err *err);

/* The steps the halving takes on a list of n processors: ceil(log2 n)
 * (0 for n <= 1). */
uint32_t mpp_halving_steps(uint32_t n);

#endif
