/* algorithms/replay.h — a COM, a scheduler and a paradigm into node programs
 * (mpp_replay_*), for the `schedule` workload (algorithms/wl_schedule.c).
 *
 * Phase schedulers: every processor runs its phases in order, loosely
 * synchronously (no barrier between phases: a processor moves on when its
 * own send and receive of the phase are done): sync SENDRECV(dst, src), or
 * SEND / RECV alone; async IRECV, ISEND, WAIT; am / am_put IRECV (the
 * port), SEND, WAIT. A MARK with the phase number starts every phase.
 * ac: every processor posts all its receives, then sends its messages in
 * the scheduler's random order, then waits. With `pack`, a COMPUTE (the
 * gathering of the message into its send buffer) precedes every send. drs_n: the distributed
 * protocol of algorithms/drs_n.c. */
#ifndef MPP_ALGORITHMS_REPLAY_H
#define MPP_ALGORITHMS_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "algorithms/schedule.h"
#include "core/base/err.h"
#include "core/base/param.h"
#include "core/program.h"
#include "core/sections.h"
#include "traces/com.h"

/* Which matrix and how to schedule it (the schedule workload's keys). */
typedef struct mpp_replay_config {
    const mpp_sched_ops *scheduler; /* workload.scheduler */
    mpp_blob sched_cfg;             /* workload.<scheduler name>: {...} */
    char com[MPP_STR_MAX];          /* a COM file, or "" to generate one */
    uint32_t com_step;              /* which matrix of a sequence file */
    int gen;                        /* generator: 0 random-regular, 1 random-nonuniform */
    uint32_t d;                     /* generator: messages per processor */
    uint64_t units;                 /* random-regular: units per message */
    uint64_t msg_unit;              /* bytes per unit (0: the file's) */
    bool pack;                      /* gather each message into a send buffer first */
} mpp_replay_config;

typedef struct mpp_replay {
    mpp_com com;           /* the matrix replayed */
    mpp_schedule sched;    /* its schedule (dynamic schedulers: send orders) */
    mpp_sched_runtime rt;  /* runtime protocols (drs_n): callbacks and state */
    mpp_progbuild pb;      /* the programs, one per node of the machine */
} mpp_replay;

/* Load or generate the COM the workload names, schedule it with the
 * workload's scheduler (seeded from seed), and build every node's program
 * for `nodes` nodes (r->pb.prog; for a runtime protocol also r->rt, whose
 * callbacks must be installed in the simulation and which must outlive
 * it). With w->pack, every message is gathered into a contiguous send
 * buffer before it is sent: a COMPUTE of word_cycles per 32-bit word
 * right before its send (the node's mem_word_cycles; docs/machines.md). Fails with MPP_EINVAL (the COM has more processors
 * than the machine has nodes, an unknown generator, no scheduler),
 * MPP_EFORMAT / MPP_EIO (the COM file) or MPP_ENOMEM; r then holds nothing. */
int mpp_replay_prepare(mpp_replay *r, const mpp_replay_config *w, int paradigm, uint32_t nodes,
                       uint64_t seed, uint32_t word_cycles, mpp_err *err);
void mpp_replay_free(mpp_replay *r);

#endif
