/* algorithms/ac.c — `ac`, asynchronous communication (a dynamic scheduler).
 *
 * At replay every processor posts all its receives, then sends all its
 * messages in a random order; there are no phases and no synchronisation.
 * The schedule hook only draws the send orders: out->nphases = 0,
 * out->phase_start = NULL, and out->msgs holds every COM entry once, the
 * processors' send orders one after the other by increasing source, each a
 * uniformly random permutation of the processor's row drawn from its own
 * stream (seed, MPP_RNG_SCHEDULER, source) — so a processor's order does
 * not depend on the other rows. steps = nnz (one draw per message);
 * work.moves = nnz (each message placed in its send order), nothing else.
 *
 * Invariants (checked by mpp_schedule_check): msgs is a permutation of the
 * entries, whole (never split), grouped by source in increasing order. */
#include "algorithms/schedule.h"

#include <stdlib.h>
#include <string.h>

#include "algorithms/phases.h"
#include "core/base/rng.h"
#include "core/sections.h"

/* Fisher-Yates shuffle of m[0 .. len). */
static void shuffle_msgs(mpp_rng *rng, mpp_sched_msg *m, uint32_t len)
{
    for (uint32_t i = len; i > 1; i--) {
        uint32_t j = mpp_rng_below(rng, i);
        mpp_sched_msg t = m[i - 1];
        m[i - 1] = m[j];
        m[j] = t;
    }
}

static int ac_schedule(const mpp_com *com, const void *cfg, uint64_t seed, mpp_schedule *out,
                       mpp_err *err)
{
    double t0 = mpp_phases_now_us();
    memset(out, 0, sizeof *out);
    if (com->nnz) {
        out->msgs = malloc((size_t)com->nnz * sizeof *out->msgs);
        if (!out->msgs)
            return mpp_err_set(err, MPP_ENOMEM, "scheduler 'ac': out of memory");
    }
    for (uint32_t k = 0; k < com->nnz; k++)
        out->msgs[k] = (mpp_sched_msg){com->e[k].src, com->e[k].dst, com->e[k].units};
    out->nmsgs = com->nnz;
    for (uint32_t k = 0; k < com->nnz;) { /* the entries are sorted by source */
        uint32_t end = k;
        while (end < com->nnz && com->e[end].src == com->e[k].src)
            end++;
        mpp_rng rng;
        mpp_rng_init(&rng, seed, MPP_RNG_SCHEDULER, com->e[k].src);
        shuffle_msgs(&rng, out->msgs + k, end - k);
        k = end;
    }
    out->steps = com->nnz;
    out->work.moves = com->nnz;
    out->host_us = mpp_phases_now_us() - t0;
    return 0;
}

const mpp_sched_ops mpp_sched_ac = {
    .name = "ac",
    .help = "asynchronous: post all receives, send everything in random order (no phases)",
    .dynamic = true,
    .paradigm = MPP_PARADIGM_ASYNC, /* CMMD's asynchronous send and receive */
    .schedule = ac_schedule,
};
