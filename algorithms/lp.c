/* algorithms/lp.c — `lp`, the linear permutation schedule.
 *
 * With P = 2^ceil(log2 n), phase k = 1 .. P - 1 pairs processor i with
 * i XOR k; i sends to i XOR k in phase k when COM(i, i XOR k) > 0 and the
 * partner exists (i XOR k < n). Every off-diagonal pair (i, j) has exactly
 * one k = i XOR j, so every entry is sent once, whole, and each phase is a
 * partial permutation (i -> i XOR k is an involution).
 *
 * Every phase k = 1 .. P - 1 is kept, also one that carries no message (no
 * entry has i XOR j == k): nphases is P - 1, in increasing order of k, and
 * an empty phase costs its start-up like any other (docs/scheduling.md).
 * steps counts the whole algorithm as each processor runs it: one partner
 * check per processor per phase k, n (P - 1), each a read of the dense COM
 * (work.scan; lp has no mask, rows or moves).
 *
 * Built in O(nnz + P) by a counting sort of the entries by i XOR j (stable,
 * so a phase lists its messages by increasing source). Deterministic: the
 * seed is not used. */
#include "algorithms/schedule.h"

#include <stdlib.h>

#include "algorithms/phases.h"

static int lp_schedule(const mpp_com *com, const void *cfg, uint64_t seed, mpp_schedule *out,
                       mpp_err *err)
{
    double t0 = mpp_phases_now_us();
    uint32_t n = com->n;
    uint64_t P = 1;
    while (P < n)
        P *= 2;
    int rc = mpp_phases_alloc(out, com->nnz);
    uint32_t *count = calloc((size_t)P + 1, sizeof *count);
    if (!rc) { /* every phase k = 1 .. P - 1 is kept: P entries */
        free(out->phase_start);
        out->phase_start = malloc((size_t)P * sizeof *out->phase_start);
    }
    if (rc || !count || !out->phase_start) {
        free(count);
        mpp_schedule_free(out);
        return mpp_err_set(err, MPP_ENOMEM, "scheduler 'lp': out of memory");
    }
    for (uint32_t e = 0; e < com->nnz; e++)
        count[(com->e[e].src ^ com->e[e].dst) + 1]++;
    /* count[k] becomes the first slot of phase k (k = 0 is always empty) */
    for (uint64_t k = 1; k <= P; k++)
        count[k] += count[k - 1];
    uint32_t np = 0;
    for (uint64_t k = 1; k < P; k++)
        out->phase_start[np++] = count[k];
    for (uint32_t e = 0; e < com->nnz; e++) {
        const mpp_com_entry *c = &com->e[e];
        out->msgs[count[c->src ^ c->dst]++] = (mpp_sched_msg){c->src, c->dst, c->units};
    }
    free(count);
    mpp_phases_finish(out, np, com->nnz, (uint64_t)n * (P - 1), t0);
    out->work.scan = (uint64_t)n * (P - 1);
    return 0;
}

const mpp_sched_ops mpp_sched_lp = {
    .name = "lp",
    .help = "linear permutation: phase k = 1 .. P-1 pairs i with i XOR k (every phase kept)",
    .schedule = lp_schedule,
};
