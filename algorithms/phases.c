/* algorithms/phases.c — helpers of the phased schedulers (see phases.h):
 * gm, cgm and lp build their output the same way, and gm and the schedule
 * checker look entries up in the rows of the sorted COM the same way.
 *
 * Invariant: nothing here draws random numbers or reads the clock for
 * anything but host_us, so a schedule stays a pure function of (COM, seed). */
#include "algorithms/phases.h"

#include "core/base/file.h"

#include <stdlib.h>
#include <string.h>

double mpp_phases_now_us(void) { return mpp_host_seconds() * 1e6; }

int mpp_phases_alloc(mpp_schedule *out, uint32_t nnz)
{
    memset(out, 0, sizeof *out);
    out->msgs = malloc((size_t)(nnz ? nnz : 1) * sizeof *out->msgs);
    out->phase_start = malloc(((size_t)nnz + 1) * sizeof *out->phase_start);
    if (!out->msgs || !out->phase_start) {
        mpp_schedule_free(out);
        return MPP_ENOMEM;
    }
    return 0;
}

void mpp_phases_rows(const mpp_com *com, uint32_t *rowstart)
{
    memset(rowstart, 0, ((size_t)com->n + 1) * sizeof *rowstart);
    for (uint32_t e = 0; e < com->nnz; e++)
        rowstart[com->e[e].src + 1]++;
    for (uint32_t i = 0; i < com->n; i++)
        rowstart[i + 1] += rowstart[i];
}

uint32_t mpp_phases_find(const mpp_com *com, const uint32_t *rowstart, uint32_t src,
                         uint32_t dst)
{
    uint32_t lo = rowstart[src], hi = rowstart[src + 1];
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (com->e[mid].dst == dst)
            return mid;
        if (com->e[mid].dst < dst)
            lo = mid + 1;
        else
            hi = mid;
    }
    return UINT32_MAX;
}

void mpp_phases_finish(mpp_schedule *out, uint32_t nphases, uint32_t nmsgs, uint64_t steps,
                       double t0)
{
    out->phase_start[nphases] = nmsgs;
    out->nphases = nphases;
    out->nmsgs = nmsgs;
    out->steps = steps;
    out->host_us = mpp_phases_now_us() - t0;
}
