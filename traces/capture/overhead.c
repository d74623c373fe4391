/* traces/capture/overhead.c — the per-call cost of libmppcapture.so (a
 * benchmark, not a test; docs/capture.md, "Overhead"). Run it with two
 * ranks, once plain and once with the library preloaded:
 *
 *     mpirun -np 2 build/traces/capture/capture_overhead [N]
 *     MPPNET_CAPTURE_DIR=/tmp/cap LD_PRELOAD=$PWD/build/traces/capture/libmppcapture.so \
 *         mpirun -np 2 build/traces/capture/capture_overhead [N]
 *
 * It times N calls of MPI_Iprobe that find nothing (the cheapest call: what
 * the library adds is most of it) and N round trips of a 0-byte
 * MPI_Send / MPI_Recv pair between ranks 0 and 1, and prints rank 0's wall
 * time per call. The difference between the two runs is the overhead. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long n = argc > 1 ? atol(argv[1]) : 200000;
    if (size < 2 || n < 1) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -np 2 capture_overhead [N >= 1]\n");
        MPI_Finalize();
        return 2;
    }
    int flag;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (long i = 0; i < n; i++)
        MPI_Iprobe(MPI_ANY_SOURCE, 12345, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    double t1 = MPI_Wtime();
    MPI_Barrier(MPI_COMM_WORLD);
    double t2 = MPI_Wtime();
    for (long i = 0; i < n && rank < 2; i++) {
        if (rank == 0) {
            MPI_Send(NULL, 0, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
            MPI_Recv(NULL, 0, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(NULL, 0, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(NULL, 0, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
        }
    }
    double t3 = MPI_Wtime();
    if (rank == 0)
        printf("iprobe %.1f ns/call, send+recv 0 B %.1f ns/call (%ld each)\n",
               (t1 - t0) / (double)n * 1e9, (t3 - t2) / (double)(2 * n) * 1e9, n);
    MPI_Finalize();
    return 0;
}
