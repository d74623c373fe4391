/* core/cli/mpi_sweep.h — `mpirun -np N mppnet run EXP.yaml`: the runs of
 * a sweep handed out over MPI ranks (mpp_mpi_*). Built only when meson
 * finds an MPI (MPP_HAVE_MPI); without it `run` has no MPI mode and this
 * header is not used. Front end: the master prints its notes and errors.
 *
 * Rank 0 (the master) owns the output folder and the queue; every other
 * rank (a worker) runs the runs it is handed, on its own -j worker
 * processes, and sends each result back as the packed bytes of a run
 * record (mpp_output_run_pack). See mpi_sweep.c for the protocol. */
#ifndef MPP_CORE_CLI_MPI_SWEEP_H
#define MPP_CORE_CLI_MPI_SWEEP_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/err.h"

/* This process in the MPI job. */
typedef struct mpp_mpi {
    bool on;       /* launched by an MPI launcher: MPI_Init was called */
    int rank, size;
    bool sent;     /* rank 0: the setup (or the stop) was sent */
} mpp_mpi;

/* Detect an MPI launch from the environment (OMPI_COMM_WORLD_SIZE of Open
 * MPI, PMI_SIZE / PMI_RANK of MPICH's Hydra, PMIX_RANK) and only then call
 * MPI_Init; a plain process leaves m->on false and calls nothing of MPI.
 * Fails (MPP_EINVAL) when the launcher's size and MPI's differ (an mppnet
 * built with one MPI started by another's mpirun: every rank would run the
 * whole sweep alone). */
int mpp_mpi_start(mpp_mpi *m, mpp_err *err);

/* MPI_Finalize (m->on). Cannot fail. */
void mpp_mpi_end(mpp_mpi *m);

/* MPI_Abort of the whole job with `status` (rank 0 after a signal: the
 * workers may wait for it forever otherwise). Does not return. */
void mpp_mpi_abort(mpp_mpi *m, int status);

/* Rank 0: send the sweep's setup (len bytes, or none at all, len 0: stop,
 * the command ended before any run) to every other rank, once. 0, or
 * MPP_EIO. */
int mpp_mpi_send_setup(mpp_mpi *m, const void *buf, size_t len);

/* A worker: receive the setup (malloc'd into *buf, the caller frees it;
 * *len 0: stop). At most `max` bytes are accepted; 0, MPP_EFORMAT or
 * MPP_ENOMEM. Blocks. */
int mpp_mpi_recv_setup(mpp_mpi *m, size_t max, char **buf, size_t *len, mpp_err *err);

/* A worker: say who it is (pid, host) and how many worker processes it
 * runs. 0 or MPP_EIO. */
int mpp_mpi_hello(const mpp_mpi *m, uint32_t jobs);

/* A worker: ask rank 0 for a run (blocks). True with *run, or false when
 * none is left for it. A reply that is not a run index below nruns is a
 * protocol error: false with err set (err->code != 0). */
bool mpp_mpi_request(const mpp_mpi *m, size_t nruns, size_t *run, mpp_err *err);

/* A worker: send run `run`'s packed record (len bytes) to rank 0; returns
 * once rank 0 has taken it (synchronous send). 0, or MPP_EINVAL for a
 * record too large for one message. */
int mpp_mpi_send_result(const mpp_mpi *m, size_t run, const void *buf, size_t len, mpp_err *err);

/* A worker: the last message (`lost` runs it was handed and could not
 * return). */
void mpp_mpi_bye(const mpp_mpi *m, uint32_t lost);

/* Rank 0's side of the sweep: what it does with the workers' messages. */
typedef struct mpp_mpi_master_ops {
    /* Each hook runs on the thread that called mpp_mpi_master, but for
     * `stopped` and `flush`, which may run on its watch thread while that
     * thread is stuck in MPI (never at the same time as result or idle). */
    /* The next run to hand out, or false when none is left. */
    bool (*next)(void *ud, size_t *run);
    /* Run `run` came back from `rank` as len packed bytes: check, record.
     * 0, or an error (the bytes are not a record of that run). */
    int (*result)(void *ud, size_t run, int rank, const char *buf, size_t len, mpp_err *err);
    /* Run `run` was handed to `rank` (the -v note); may be NULL. */
    void (*started)(void *ud, size_t run, int rank, const char *host);
    /* Clear the progress bar before a message; may be NULL. */
    void (*clear)(void *ud);
    /* Called when no message is waiting (about every millisecond); may
     * be NULL. */
    void (*idle)(void *ud);
    /* The report of what is lost where (lines, maybe none) and how many
     * results ops->result took, to keep beside the records: `final` after
     * a stopping signal, else a notice that the job may end (mpirun's
     * SIGCONT); `print` it too (a final one, or a notice that found a
     * rank gone). NULL: printed when `print`. */
    void (*stopped)(void *ud, const char *report, size_t nrecorded, bool final, bool print);
    /* After `stopped` (but a final one on the main thread), with
     * ops->result and ops->idle held off: bring the result files up to
     * date, quickly (SIGKILL follows). May be NULL. */
    void (*flush)(void *ud);
} mpp_mpi_master_ops;

/* Rank 0: hand the runs out (ops->next) to the ranks that ask, one run per
 * request, and take their results (ops->result) as they arrive, until
 * every rank has said bye, or *stop becomes non-zero (a signal: what was
 * in progress where, and which ranks are gone, is reported through
 * ops->stopped, with no more MPI calls), or an MPI call fails (the same
 * report, and *stop is set to -1: the job cannot end normally). nruns bounds the run indexes. Returns 0, or 1 when a run
 * was lost (a rank failed, sent a bad message, or the sweep was stopped
 * with runs in progress); each loss is printed, naming the rank, its host
 * and pid. */
int mpp_mpi_master(mpp_mpi *m, const mpp_mpi_master_ops *ops, void *ud, size_t nruns,
                   volatile sig_atomic_t *stop);

/* The test hook of docs/testing.md: MPPNET_TEST_MPI_DIE=R:K makes rank R
 * (a worker) kill itself with SIGKILL once it has returned K results. Test
 * only; ignored unless it parses. Called after each result sent. */
void mpp_mpi_test_die(const mpp_mpi *m, uint64_t sent);

#endif
