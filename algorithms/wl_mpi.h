/* algorithms/wl_mpi.h — the `mpi` workload's report (mpp_mpi_report_*):
 * what a re-timed replay of an MPI trace (algorithms/wl_mpi.c) measured,
 * per rank, per call type and per rank pair, for a front end that reads it
 * after the run (`mppnet mpi`, core/cli/cmd_mpi.c) through
 * mpp_sim_workload_priv. */
#ifndef MPP_ALGORITHMS_WL_MPI_H
#define MPP_ALGORITHMS_WL_MPI_H

#include <stdint.h>

#include "core/base/err.h"
#include "traces/mpitrace.h"

typedef struct mpp_sim mpp_sim;

/* One rank. Times in microseconds of the emulated machine, from cycle 0
 * (the release of the barrier that starts the programs). */
typedef struct mpp_mpi_rank_report {
    uint32_t rank, node;
    double end_us;        /* when it finished (its last call returned) */
    double compute_us;    /* the computation charged between its calls */
    double comm_us;       /* the time inside its MPI calls */
    uint64_t calls;       /* its calls */
    uint64_t messages;    /* messages it sent (point-to-point and collective) */
    uint64_t bytes;       /* bytes it sent */
} mpp_mpi_rank_report;

/* One call type, over every rank. */
typedef struct mpp_mpi_call_report {
    uint64_t count;
    double total_us;      /* time inside the calls, summed over ranks */
} mpp_mpi_call_report;

/* The whole report; owned by the workload (valid until mpp_sim_destroy). */
typedef struct mpp_mpi_report {
    uint32_t nranks;
    const mpp_mpi_rank_report *rank;          /* [nranks] */
    mpp_mpi_call_report call[MPP_MPI_NCALLS];
    double time_us;       /* the predicted time: the last rank's end */
    uint64_t messages, bytes, collectives;
    double cycles_per_message; /* network cycles from a message's issue to its delivery,
                                  mean */
    /* The program's own traffic (each point-to-point send, the send half
     * of a sendrecv, each block of a personalized collective: alltoall(v)
     * i->j, scatter(v) root->i, gather(v) i->root, allgather(v) i->j; not
     * to itself; zero-byte blocks of a collective not counted), per
     * ordered pair src x nranks + dst; NULL when nranks > 
     * MPP_MPI_REPORT_MAX_PAIRS_RANKS. */
    const uint64_t *pair_msgs, *pair_bytes;
} mpp_mpi_report;

/* The most ranks for which the pair matrix is kept (nranks^2 x 16 bytes). */
#define MPP_MPI_REPORT_MAX_PAIRS_RANKS 4096u

/* The workload's setup with a trace already in memory (the tests; a front
 * end that built one): takes t (freed on failure too); cfg is the
 * workload's own struct (its `trace` key is not read). Fails as setup. */
int mpp_mpi_replay_setup(mpp_sim *s, const void *cfg, mpp_mpitrace *t, void **priv,
                         mpp_err *err);

/* The report of a run whose workload is `mpi` (priv: mpp_sim_workload_priv
 * after mpp_sim_run), or NULL for any other. Not hot. */
const mpp_mpi_report *mpp_mpi_report_get(const mpp_sim *s);

#endif
