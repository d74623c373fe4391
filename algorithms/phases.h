/* algorithms/phases.h — what the phased schedulers share (mpp_phases_*):
 * the host clock of their timing record, the output arrays of a schedule,
 * the rows of a COM, and closing a schedule with its counts. Not for the
 * dynamic schedulers' runtime protocols. */
#ifndef MPP_ALGORITHMS_PHASES_H
#define MPP_ALGORITHMS_PHASES_H

#include <stdint.h>

#include "algorithms/schedule.h"

/* Host time in microseconds (CLOCK_MONOTONIC). Only for mpp_schedule.host_us,
 * never for anything a schedule depends on (STYLE rule 12). */
double mpp_phases_now_us(void);

/* Empty *out, then allocate its msgs (room for nnz messages, at least one)
 * and phase_start (nnz + 1: no phase is empty, so there are at most nnz).
 * Returns 0, or MPP_ENOMEM with *out empty and no message set (the caller
 * reports it, naming the scheduler). The caller owns the arrays
 * (mpp_schedule_free). */
int mpp_phases_alloc(mpp_schedule *out, uint32_t nnz);

/* Fill rowstart[0 .. com->n] so that row r of com (entries sorted by
 * source) is com->e[rowstart[r] .. rowstart[r + 1]). Cannot fail. */
void mpp_phases_rows(const mpp_com *com, uint32_t *rowstart);

/* Index of entry (src, dst) in com, or UINT32_MAX when there is none;
 * rowstart as from mpp_phases_rows. O(log row length). */
uint32_t mpp_phases_find(const mpp_com *com, const uint32_t *rowstart, uint32_t src,
                         uint32_t dst);

/* Close a schedule whose phase_start[0 .. nphases) is filled: set
 * phase_start[nphases] = nmsgs, the counts, steps, and host_us to the time
 * since t0 (from mpp_phases_now_us). */
void mpp_phases_finish(mpp_schedule *out, uint32_t nphases, uint32_t nmsgs, uint64_t steps,
                       double t0);

#endif
