/* algorithms/replay.h — a COM, a scheduler and a paradigm into node programs
 * (mpp_replay_*), for the `schedule` workload (core/sim.c).
 *
 * Phase schedulers: every processor runs its phases in order, loosely
 * synchronously (no barrier between phases: a processor moves on when its
 * own send and receive of the phase are done): sync SENDRECV(dst, src), or
 * SEND / RECV alone; async IRECV, ISEND, WAIT; am / am_put IRECV (the
 * port), SEND, WAIT. A MARK with the phase number starts every phase.
 * ac: every processor posts all its receives, then sends its messages in
 * the scheduler's random order, then waits. drs_n: the distributed
 * protocol of algorithms/drs_n.c. */
#ifndef MPP_ALGORITHMS_REPLAY_H
#define MPP_ALGORITHMS_REPLAY_H

#include <stdint.h>

#include "core/base/err.h"
#include "core/program.h"
#include "core/sim.h"
#include "traces/com.h"
#include "algorithms/schedule.h"

typedef struct mpp_replay {
    mpp_com com;           /* the matrix replayed */
    mpp_schedule sched;    /* its schedule (dynamic schedulers: send orders) */
    mpp_sched_runtime rt;  /* runtime protocols (drs_n): callbacks and state */
    uint32_t n;            /* nodes of the machine */
    mpp_program *prog;     /* [n] programs (point into ops) */
    mpp_op **ops;          /* [n] */
    uint32_t *cap;         /* [n] */
} mpp_replay;

/* Load or generate the COM the workload names, schedule it with the
 * workload's scheduler (seeded from seed), and build every node's program
 * for `nodes` nodes (r->prog; for a runtime protocol also r->rt, whose
 * callbacks must be installed in the simulation and which must outlive
 * it). Fails with MPP_EINVAL (the COM has more processors
 * than the machine has nodes, an unknown generator, no scheduler),
 * MPP_EFORMAT / MPP_EIO (the COM file) or MPP_ENOMEM; r then holds nothing. */
int mpp_replay_prepare(mpp_replay *r, const mpp_synth_config *w, int paradigm, uint32_t nodes,
                       uint64_t seed, mpp_err *err);
void mpp_replay_free(mpp_replay *r);

#endif
