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
 * Work (mpp_sched_work) as Fig. 4 runs on a node: scan = steps (entries
 * of row x visited), tries = those that hold an entry (then tested
 * against recvl), rows n per phase, phases, moves one per entry taken
 * (COM(x, y) = 0).
 *
 * Invariants:
 *   1. A phase takes at most one entry per row (each row is visited once)
 *      and per column (colstamp[c] == phase + 1 once c is used), so it is a
 *      partial permutation.
 *   2. The first row with entries left that a phase visits finds every
 *      column free, so every phase takes at least one entry: nphases <= nnz
 *      and the loop ends.
 *   3. Entries are sent whole, each exactly once (it leaves the mask). */
#include "algorithms/schedule.h"

#include <stdlib.h>

#include "core/base/rng.h"
#include "algorithms/phases.h"

static int gm_schedule(const mpp_com *com, const void *cfg, uint64_t seed, mpp_schedule *out,
                       mpp_err *err)
{
    double t0 = mpp_phases_now_us();
    uint32_t n = com->n, nnz = com->nnz;
    int rc = mpp_phases_alloc(out, nnz);
    unsigned char *mask = calloc((size_t)n * n, 1);
    uint32_t *rowstart = calloc((size_t)n + 1, sizeof *rowstart);
    uint32_t *rowleft = calloc(n, sizeof *rowleft), *colstamp = calloc(n, sizeof *colstamp);
    if (rc || !mask || !rowstart || !rowleft || !colstamp) {
        mpp_schedule_free(out);
        rc = mpp_err_set(err, MPP_ENOMEM, "scheduler 'gm': out of memory");
        goto done;
    }
    for (uint32_t e = 0; e < nnz; e++) {
        mask[(size_t)com->e[e].src * n + com->e[e].dst] = 1;
        rowleft[com->e[e].src]++;
    }
    mpp_phases_rows(com, rowstart);

    mpp_rng rng;
    mpp_rng_init(&rng, seed, MPP_RNG_SCHEDULER, 0);
    uint32_t left = nnz, np = 0, nm = 0;
    uint64_t steps = 0, tries = 0;
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
                if (!row[c])
                    continue;
                tries++;
                if (colstamp[c] == np + 1)
                    continue;
                row[c] = 0;
                rowleft[r]--;
                left--;
                colstamp[c] = np + 1;
                uint32_t e = mpp_phases_find(com, rowstart, r, c); /* present: row[c] was 1 */
                out->msgs[nm++] = (mpp_sched_msg){r, c, com->e[e].units};
                break;
            }
        }
        np++; /* invariant 2: the phase is not empty */
    }
    mpp_phases_finish(out, np, nm, steps, t0);
    out->work = (mpp_sched_work){.scan = steps, .tries = tries, .rows = (uint64_t)np * n,
                                 .phases = np, .moves = nm};
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
