/* examples/mpi/pairs.h — the example programs' own count of what they send
 * (ex_pairs_*): per destination world rank, the messages and bytes this
 * rank sent, printed at the end as
 *     mppnet-pair SRC DST MESSAGES BYTES
 * one line per destination with MESSAGES > 0, SRC this rank's world rank.
 * The counting rule (docs/capture.md, "The example programs"), which is the
 * rule of the replay's traffic matrix:
 *   - a point-to-point send (the send half of a sendrecv too) is one message
 *     of its bytes;
 *   - a block of a personalized collective is one message: alltoall(v) i->j,
 *     scatter(v) root->i, gather(v) i->root, allgather(v) i->j;
 *   - never to itself (a self send or a rank's own block is not counted);
 *   - bcast, reduce, allreduce, barrier and scan are not counted.
 * The programs call ex_pairs_send at every send they make, with the
 * destination in MPI_COMM_WORLD, and the collective helpers for their
 * collectives. Errors: an MPI error aborts the job (MPI's default handler);
 * out of memory is reported and the job aborted (these are programs, not
 * library code). */
#ifndef MPP_EXAMPLES_MPI_PAIRS_H
#define MPP_EXAMPLES_MPI_PAIRS_H

#include <stdint.h>

#include <mpi.h>

/* Start counting for this rank (after MPI_Init): zero counts for every
 * world rank. */
void ex_pairs_init(void);

/* One message of bytes from this rank to world rank dst (not counted when
 * dst is this rank or MPI_PROC_NULL). */
void ex_pairs_send(int dst, uint64_t bytes);

/* The world rank of rank r of communicator comm (MPI_PROC_NULL stays). */
int ex_pairs_world(MPI_Comm comm, int r);

/* Count an MPI_Alltoall of block bytes per member over MPI_COMM_WORLD:
 * one message to every other rank. */
void ex_pairs_alltoall(uint64_t block);

/* Print this rank's lines to stdout in one write (so that the lines of the
 * ranks do not mix under mpirun), in destination order, and free the
 * counts. */
void ex_pairs_print(void);

/* Print "PROG: what" to stderr and abort the job (exit status 2 when this
 * is the only rank that fails: MPI_Abort's errorcode). */
_Noreturn void ex_die(const char *prog, const char *what);

/* Read argv[i] as an integer in [lo, hi], or die naming the argument. */
long ex_arg(const char *prog, const char *name, const char *text, long lo, long hi);

#endif
