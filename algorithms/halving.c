/* algorithms/halving.c — the linear-array halving broadcast (see
 * halving.h for the rule).
 *
 * The recursion runs breadth first: `lo` / `len` hold the ranges of the
 * current depth over all lists (at most one range per two processors, so
 * n / 2 + nlists slots suffice), the next depth's ranges are built into a
 * second pair of arrays, and the two are swapped. Ranges of one depth are
 * disjoint, so they share one plan step.
 *
 * Invariants:
 *   1. The ranges of a depth partition the positions of the lists not yet
 *      alone in a range, and every range has at least 2 positions.
 *   2. After the step of a range, each of its two halves holds (as a union)
 *      everything the range held before: position i gets the data of
 *      i + ceil(q/2) and the other way round, and when q is odd the
 *      unpaired middle position's data goes to the last one. */
#include "algorithms/halving.h"

#include <stdlib.h>

uint32_t mpp_halving_steps(uint32_t n)
{
    uint32_t d = 0;
    while (n > 1) {
        n = n - n / 2; /* the longer half: ceil(n / 2) */
        d++;
    }
    return d;
}

int mpp_halving_bcast(mpp_bcast_plan *pl, const uint32_t *ids, const uint32_t *start,
                      uint32_t nlists, int part, mpp_err *err)
{
    uint32_t total = start[nlists] - start[0];
    size_t cap = (size_t)total / 2 + 1; /* invariant 1: a range has >= 2 positions */
    uint32_t *buf = malloc(4 * cap * sizeof *buf);
    if (!buf)
        return mpp_err_set(err, MPP_ENOMEM, "broadcast: out of memory");
    uint32_t *lo = buf, *len = buf + cap, *nlo = buf + 2 * cap, *nlen = buf + 3 * cap;
    uint32_t n = 0;
    for (uint32_t k = 0; k < nlists; k++)
        if (start[k + 1] - start[k] >= 2) {
            lo[n] = start[k];
            len[n++] = start[k + 1] - start[k];
        }
    int rc = 0;
    while (n && !rc) {
        mpp_bcast_step_begin(pl, part);
        uint32_t nn = 0;
        for (uint32_t k = 0; k < n && !rc; k++) {
            const uint32_t *x = ids + lo[k];
            uint32_t q = len[k], h = q - q / 2, f = q / 2;
            for (uint32_t i = 0; i < f && !rc; i++)
                rc = mpp_bcast_exchange(pl, x[i], x[i + h], err);
            if (!rc && (q & 1))
                rc = mpp_bcast_give(pl, x[h - 1], x[q - 1], err); /* invariant 2 */
            if (h >= 2) {
                nlo[nn] = lo[k];
                nlen[nn++] = h;
            }
            if (f >= 2) {
                nlo[nn] = lo[k] + h;
                nlen[nn++] = f;
            }
        }
        if (!rc)
            rc = mpp_bcast_step_end(pl, err);
        uint32_t *t = lo;
        lo = nlo;
        nlo = t;
        t = len;
        len = nlen;
        nlen = t;
        n = nn;
    }
    free(buf);
    return rc;
}
