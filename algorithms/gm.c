/* algorithms/gm.c — `gm`, global masking.
 *
 * The remaining entries are a dense n x n mask (one byte per pair). Each
 * phase starts at a uniformly random row x and visits the rows cyclically
 * (x, x + 1, ..., x - 1 mod n); a row with entries left scans its columns
 * cyclically from a uniformly random column and takes the first remaining
 * entry whose column (receiver) is still unused in this phase; the entry
 * leaves the mask. Phases repeat until the mask is empty. The random scan
 * start matters: always starting at column 0 favours low columns and costs
 * about 15% more phases at d = 16 (SPEC section 5).
 *
 * Cost: O(n^2) per phase; steps counts the mask positions examined (rows
 * with nothing left are skipped without a scan). Memory: n^2 bytes.
 *
 * Invariants:
 *   1. A phase takes at most one entry per row (each row is visited once)
 *      and per column (colstamp[c] == phase + 1 once c is used), so it is a
 *      partial permutation.
 *   2. The first row with entries left that a phase visits finds every
 *      column free, so every phase takes at least one entry: nphases <= nnz
 *      and the loop ends.
 *   3. Entries are sent whole, each exactly once (it leaves the mask). */
#include "schedule.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/rng.h"

static double gm_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

/* Index of entry (src, dst) in row src of com (rowstart[src] .. rowstart[src + 1]). */
static uint32_t gm_find(const mpp_com *com, const uint32_t *rowstart, uint32_t src, uint32_t dst)
{
    uint32_t lo = rowstart[src], hi = rowstart[src + 1];
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (com->e[mid].dst <= dst)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static int gm_schedule(const mpp_com *com, const void *cfg, uint64_t seed, mpp_schedule *out,
                       mpp_err *err)
{
    double t0 = gm_now_us();
    memset(out, 0, sizeof *out);
    uint32_t n = com->n, nnz = com->nnz;
    unsigned char *mask = calloc((size_t)n * n, 1);
    uint32_t *rowstart = calloc((size_t)n + 1, sizeof *rowstart);
    uint32_t *rowleft = calloc(n, sizeof *rowleft), *colstamp = calloc(n, sizeof *colstamp);
    out->msgs = malloc((size_t)(nnz ? nnz : 1) * sizeof *out->msgs);
    out->phase_start = malloc(((size_t)nnz + 1) * sizeof *out->phase_start);
    int rc = 0;
    if (!mask || !rowstart || !rowleft || !colstamp || !out->msgs || !out->phase_start) {
        mpp_schedule_free(out);
        rc = mpp_err_set(err, MPP_ENOMEM, "scheduler 'gm': out of memory");
        goto done;
    }
    for (uint32_t e = 0; e < nnz; e++) {
        mask[(size_t)com->e[e].src * n + com->e[e].dst] = 1;
        rowstart[com->e[e].src + 1]++;
        rowleft[com->e[e].src]++;
    }
    for (uint32_t i = 0; i < n; i++)
        rowstart[i + 1] += rowstart[i];

    mpp_rng rng;
    mpp_rng_init(&rng, seed, MPP_RNG_SCHEDULER, 0);
    uint32_t left = nnz, np = 0, nm = 0;
    uint64_t steps = 0;
    while (left) {
        out->phase_start[np] = nm;
        uint32_t x = mpp_rng_below(&rng, n);
        for (uint32_t t = 0; t < n; t++) {
            uint32_t r = x + t < n ? x + t : x + t - n;
            if (!rowleft[r])
                continue;
            unsigned char *row = mask + (size_t)r * n;
            uint32_t c0 = mpp_rng_below(&rng, n);
            for (uint32_t s = 0; s < n; s++) {
                uint32_t c = c0 + s < n ? c0 + s : c0 + s - n;
                steps++;
                if (!row[c] || colstamp[c] == np + 1)
                    continue;
                row[c] = 0;
                rowleft[r]--;
                left--;
                colstamp[c] = np + 1;
                out->msgs[nm++] = (mpp_sched_msg){r, c, com->e[gm_find(com, rowstart, r, c)].units};
                break;
            }
        }
        np++; /* invariant 2: the phase is not empty */
    }
    out->phase_start[np] = nm;
    out->nphases = np;
    out->nmsgs = nm;
    out->steps = steps;
    out->host_us = gm_now_us() - t0;
done:
    free(mask);
    free(rowstart);
    free(rowleft);
    free(colstamp);
    return rc;
}

const mpp_sched_ops mpp_sched_gm = {
    .name = "gm",
    .help = "global masking: per phase, rows from a random start take a free column (O(n^2))",
    .schedule = gm_schedule,
};
