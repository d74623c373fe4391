/* examples/mpi/shift.c — the CM-5 two-directional circular shift as an MPI
 * program (the built-in `shift` workload, algorithms/wl_shift.c;
 * docs/apps.md, "Circular shift").
 *
 *   shift BYTES [ROUNDS]
 *
 * The ranks form a ring by rank. In every round each rank i sends a
 * message of BYTES bytes to (i + 1) mod P (tag 0) and one to (i - 1) mod P
 * (tag 1), and receives one from each: MPI_Irecv from both neighbours,
 * MPI_Isend to both, MPI_Waitall; then an MPI_Barrier ends the round, as
 * the built-in's barrier between rounds. ROUNDS rounds (default 100, as
 * the built-in). With P = 2 both messages go to the other rank. Rank 0
 * prints the host's mean time of a round (MPI_Wtime, barrier included: a
 * number of this host). Compare the replay of its capture with `workload:
 * {type: shift, bytes: BYTES}` on the cm5 preset (the built-in sends
 * active messages; this program sends MPI messages, replayed with the
 * machine's send/receive).
 *
 * Counted (pairs.h): ROUNDS messages of BYTES from i to each ring
 * neighbour (2 x ROUNDS to the other rank when P = 2). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pairs.h"

#define PROG "shift"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ex_pairs_init();
    int rank, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    if (argc < 2 || argc > 3)
        ex_die(PROG, "usage: shift BYTES [ROUNDS]");
    long bytes = ex_arg(PROG, "BYTES", argv[1], 1, 1L << 30);
    long rounds = argc > 2 ? ex_arg(PROG, "ROUNDS", argv[2], 1, 10000000) : 100;
    if (p < 2)
        ex_die(PROG, "needs at least 2 ranks");
    int right = (rank + 1) % p, left = (rank + p - 1) % p;
    char *out = malloc(2 * (size_t)bytes), *in = malloc(2 * (size_t)bytes);
    if (out == NULL || in == NULL)
        ex_die(PROG, "out of memory");
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (long r = 0; r < rounds; r++) {
        memset(out, (int)(r + rank) & 0x7f, 2 * (size_t)bytes);
        MPI_Request req[4];
        MPI_Status st[4]; /* not MPI_STATUSES_IGNORE: gcc misreads MPICH's */
        /* in[0..): from the left (its tag-0 message to the right) */
        MPI_Irecv(in, (int)bytes, MPI_BYTE, left, 0, MPI_COMM_WORLD, &req[0]);
        MPI_Irecv(in + bytes, (int)bytes, MPI_BYTE, right, 1, MPI_COMM_WORLD, &req[1]);
        MPI_Isend(out, (int)bytes, MPI_BYTE, right, 0, MPI_COMM_WORLD, &req[2]);
        ex_pairs_send(right, (uint64_t)bytes);
        MPI_Isend(out + bytes, (int)bytes, MPI_BYTE, left, 1, MPI_COMM_WORLD, &req[3]);
        ex_pairs_send(left, (uint64_t)bytes);
        MPI_Waitall(4, req, st);
        if (in[0] != (char)((r + left) & 0x7f) || in[bytes] != (char)((r + right) & 0x7f))
            ex_die(PROG, "a neighbour's message is not the one of this round");
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (rank == 0) {
        printf("shift: %ld bytes each way, %d ranks, %ld rounds: host round %.2f us\n", bytes, p,
               rounds, (MPI_Wtime() - t0) / (double)rounds * 1e6);
        fflush(stdout);
    }
    free(out);
    free(in);
    ex_pairs_print();
    MPI_Finalize();
    return 0;
}
