/* algorithms/cgm.c — `cgm`, compact global masking.
 *
 * The COM is first compressed into a table of each row's destinations: row
 * r owns the slots rowstart[r] .. rowstart[r] + len[r] holding entry
 * indices, shuffled uniformly at random. Each phase starts at a uniformly
 * random row and visits the rows cyclically; a row with entries left
 * examines its active slots in order and takes the FIRST whose column
 * (receiver) is free in this phase; the taken slot is filled with the row's
 * last active entry and the row shortens by one. Phases repeat until every
 * row is empty.
 *
 * Expected phases about d + log d on random d-regular matrices, never
 * fewer than the largest row or column count; expected cost O(n d ln d)
 * slot examinations (steps counts exactly those; empty rows are skipped
 * without one). Memory O(n + nnz).
 *
 * Work as a node processor runs Figs. 5 and 6 (mpp_sched_work): scan n^2
 * (a node holding the dense n x n COM reads all of it to compress it; we
 * build the same table from the sparse rows), moves = nnz copies + the
 * shuffle's swaps (len - 1 per non-empty row) + one move per entry taken,
 * tries = steps, rows n per phase (the loop visits empty rows too),
 * phases = nphases.
 *
 * Entries are sent whole with their own sizes, so the same code schedules
 * non-uniform matrices (`rs_n` calls it).
 *
 * Invariants:
 *   1. slot[rowstart[r] .. rowstart[r] + len[r]) are exactly row r's
 *      entries not yet scheduled.
 *   2. A phase takes at most one entry per row (one visit) and per column
 *      (colstamp[c] == phase + 1 once used): a partial permutation.
 *   3. The first non-empty row of a phase finds every column free, so no
 *      phase is empty and nphases <= nnz. */
#include "algorithms/schedule.h"

#include <stdlib.h>

#include "core/base/rng.h"
#include "algorithms/phases.h"

static int cgm_schedule(const mpp_com *com, const void *cfg, uint64_t seed, mpp_schedule *out,
                        mpp_err *err)
{
    double t0 = mpp_phases_now_us();
    uint32_t n = com->n, nnz = com->nnz;
    int rc = mpp_phases_alloc(out, nnz);
    uint32_t *rowstart = calloc((size_t)n + 1, sizeof *rowstart);
    uint32_t *len = calloc(n, sizeof *len), *colstamp = calloc(n, sizeof *colstamp);
    uint32_t *slot = malloc((size_t)(nnz ? nnz : 1) * sizeof *slot);
    if (rc || !rowstart || !len || !colstamp || !slot) {
        mpp_schedule_free(out);
        rc = mpp_err_set(err, MPP_ENOMEM, "scheduler 'cgm': out of memory");
        goto done;
    }
    mpp_rng rng;
    mpp_rng_init(&rng, seed, MPP_RNG_SCHEDULER, 0);
    mpp_phases_rows(com, rowstart);
    for (uint32_t e = 0; e < nnz; e++)
        slot[e] = e;
    for (uint32_t i = 0; i < n; i++) {
        len[i] = rowstart[i + 1] - rowstart[i];
        mpp_rng_shuffle(&rng, slot + rowstart[i], len[i]);
    }

    mpp_sched_work w = {.scan = (uint64_t)n * n, .moves = nnz};
    for (uint32_t i = 0; i < n; i++)
        w.moves += len[i] ? len[i] - 1 : 0; /* Random_Swap */
    uint32_t left = nnz, np = 0, nm = 0;
    uint64_t steps = 0;
    while (left) {
        out->phase_start[np] = nm;
        uint32_t x = mpp_rng_below(&rng, n);
        for (uint32_t t = 0; t < n; t++) {
            uint32_t r = x + t < n ? x + t : x + t - n;
            uint32_t *row = slot + rowstart[r];
            for (uint32_t s = 0; s < len[r]; s++) {
                const mpp_com_entry *c = &com->e[row[s]];
                steps++;
                if (colstamp[c->dst] == np + 1)
                    continue;
                colstamp[c->dst] = np + 1;
                out->msgs[nm++] = (mpp_sched_msg){c->src, c->dst, c->units};
                row[s] = row[--len[r]]; /* invariant 1 */
                left--;
                break;
            }
        }
        np++; /* invariant 3 */
    }
    w.tries = steps;
    w.rows = (uint64_t)np * n;
    w.phases = np;
    w.moves += nm; /* the row's last entry moved into the slot taken */
    mpp_phases_finish(out, np, nm, steps, t0);
    out->work = w;
done:
    free(rowstart);
    free(len);
    free(colstamp);
    free(slot);
    return rc;
}

const mpp_sched_ops mpp_sched_cgm = {
    .name = "cgm",
    .help = "compact global masking: shuffled n x d destination table, first free column",
    .schedule = cgm_schedule,
};
