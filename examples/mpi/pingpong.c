/* examples/mpi/pingpong.c — the CM-5 one-to-one study as an MPI program
 * (the built-in `pingpong` workload, algorithms/wl_pingpong.c, paradigm
 * sync; docs/machines.md, "One-to-one").
 *
 *   pingpong BYTES [ROUND_TRIPS]
 *
 * After an MPI_Barrier (the built-in's barrier before the programs), rank
 * 0 (ping) sends rank 1 (pong) a message of BYTES bytes by a blocking
 * MPI_Send and waits for the answer by MPI_Recv; rank 1 receives it and
 * sends one of the same size back; ROUND_TRIPS times (default 1000, as
 * the built-in and the study). The other ranks only take part in the
 * barrier. Rank 0 prints the host's half round trip (MPI_Wtime: a number
 * of this host, not of the emulated machine; the replay predicts the
 * machine's). Compare the replay of its capture with `workload: {type:
 * pingpong, paradigm: sync, bytes: BYTES}` on the cm5 preset.
 *
 * Counted (pairs.h): ROUND_TRIPS messages of BYTES from 0 to 1 and from
 * 1 to 0. */
#include <stdio.h>
#include <stdlib.h>

#include "pairs.h"

#define PROG "pingpong"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ex_pairs_init();
    int rank, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    if (argc < 2 || argc > 3)
        ex_die(PROG, "usage: pingpong BYTES [ROUND_TRIPS]");
    long bytes = ex_arg(PROG, "BYTES", argv[1], 1, 1L << 30);
    long trips = argc > 2 ? ex_arg(PROG, "ROUND_TRIPS", argv[2], 1, 10000000) : 1000;
    if (p < 2)
        ex_die(PROG, "needs at least 2 ranks");
    char *buf = calloc((size_t)bytes, 1);
    if (buf == NULL)
        ex_die(PROG, "out of memory");
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (long i = 0; i < trips; i++) {
        if (rank == 0) {
            buf[0] = (char)i;
            MPI_Send(buf, (int)bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
            ex_pairs_send(1, (uint64_t)bytes);
            MPI_Recv(buf, (int)bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (buf[0] != (char)i)
                ex_die(PROG, "the answer is not the message sent");
        } else if (rank == 1) {
            MPI_Recv(buf, (int)bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, (int)bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
            ex_pairs_send(0, (uint64_t)bytes);
        }
    }
    if (rank == 0) {
        printf("pingpong: %ld bytes, %ld round trips: host half round trip %.2f us\n", bytes, trips,
               (MPI_Wtime() - t0) / (double)trips / 2 * 1e6);
        fflush(stdout);
    }
    free(buf);
    ex_pairs_print();
    MPI_Finalize();
    return 0;
}
