/* algorithms/xorex.c — the pairwise XOR exchange (see xorex.h).
 *
 * Invariant: in permutation k, position i's partner is i XOR k, and XOR with
 * a fixed k is an involution, so every permutation is a set of disjoint
 * pairs (each processor sends to at most one and receives from at most one
 * partner per step), and over k = 1 .. 2^ceil(log2 n) - 1 every ordered pair
 * (i, j), i != j, both below n, meets exactly once (k = i XOR j). */
#include "algorithms/xorex.h"

uint32_t mpp_xorex_perms(uint32_t n)
{
    uint32_t m = 1;
    while (m < n)
        m <<= 1;
    return n <= 1 ? 0 : m - 1;
}

int mpp_xorex_run(mpp_bcast_plan *pl, const uint32_t *ids, uint32_t n, const uint32_t *from,
                  uint32_t nfrom, int part, mpp_xorex_fn give, void *ud, mpp_err *err)
{
    uint32_t perms = mpp_xorex_perms(n), senders = from ? nfrom : n;
    int rc = 0;
    for (uint32_t k = 1; k <= perms && !rc; k++) {
        mpp_bcast_step_begin(pl, part);
        for (uint32_t t = 0; t < senders && !rc; t++) {
            uint32_t i = from ? from[t] : t, j = i ^ k;
            if (j < n)
                rc = give(ud, pl, ids[i], ids[j], err);
        }
        if (!rc)
            rc = mpp_bcast_step_end(pl, err);
    }
    return rc;
}
