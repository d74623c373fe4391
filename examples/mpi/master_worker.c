/* examples/mpi/master_worker.c — a master hands out tasks and takes the
 * answers as they come, the wildcard-receive example of docs/capture.md.
 *
 *   master_worker TASKS CHUNK
 *
 * Task t is the range of integers [t*CHUNK + 1, (t+1)*CHUNK]: the worker
 * sums the Collatz stopping times of its numbers (uneven work, so workers
 * finish in an order nobody planned). Rank 0 is the master: it sends every
 * worker a task (tag TASK), then receives with MPI_ANY_SOURCE and
 * MPI_ANY_TAG, checks the answer's tag (RESULT), and sends whoever
 * answered the next task, or a stop (tag STOP) when none is left; it
 * prints the total, which does not depend on who did what. Every message
 * is two 64-bit integers (16 bytes: the task and its CHUNK, or the task
 * and its sum; a stop carries -1 and 0).
 *
 * Counted (pairs.h): every send. The master sends each worker the tasks
 * it did plus one stop; each worker sends the master one answer per task.
 * Which worker did which task is decided at run time by MPI_ANY_SOURCE:
 * the counts per pair are not the same from run to run, but the sum over
 * the workers is (TASKS + workers messages from the master, TASKS to it),
 * and what a run prints is what it sent, which is what its capture
 * records. */
#include <stdio.h>
#include <stdlib.h>

#include "pairs.h"

#define PROG "master_worker"

enum { TAG_TASK = 1, TAG_RESULT = 2, TAG_STOP = 3 };

/* The sum of the Collatz stopping times of a range. */
static long long work(long long first, long long n)
{
    long long sum = 0;
    for (long long v = first; v < first + n; v++) {
        unsigned long long x = (unsigned long long)v;
        while (x != 1) {
            x = (x & 1) ? 3 * x + 1 : x / 2;
            sum++;
        }
    }
    return sum;
}

/* The master's send of task t (or a stop when t < 0) to w. */
static void give(int w, long long t, long long chunk)
{
    long long m[2] = {t, t < 0 ? 0 : chunk};
    MPI_Send(m, 2, MPI_LONG_LONG, w, t < 0 ? TAG_STOP : TAG_TASK, MPI_COMM_WORLD);
    ex_pairs_send(w, sizeof m);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ex_pairs_init();
    int rank, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    if (argc != 3)
        ex_die(PROG, "usage: master_worker TASKS CHUNK");
    long long tasks = ex_arg(PROG, "TASKS", argv[1], 0, 1L << 24);
    long long chunk = ex_arg(PROG, "CHUNK", argv[2], 1, 1L << 20);
    if (p < 2)
        ex_die(PROG, "needs at least 2 ranks (a master and a worker)");
    if (rank == 0) {
        long long next = 0, done = 0, total = 0;
        for (int w = 1; w < p; w++)
            give(w, next < tasks ? next++ : -1, chunk);
        while (done < tasks) {
            long long m[2];
            MPI_Status st;
            MPI_Recv(m, 2, MPI_LONG_LONG, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            if (st.MPI_TAG != TAG_RESULT)
                ex_die(PROG, "the master got a message that is not an answer");
            total += m[1];
            done++;
            give(st.MPI_SOURCE, next < tasks ? next++ : -1, chunk);
        }
        printf("master_worker: %lld tasks of %lld, %d workers: total stopping time %lld\n", tasks,
               chunk, p - 1, total);
        fflush(stdout);
    } else {
        for (;;) {
            long long m[2];
            MPI_Status st;
            MPI_Recv(m, 2, MPI_LONG_LONG, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            if (st.MPI_TAG == TAG_STOP)
                break;
            long long a[2] = {m[0], work(m[0] * m[1] + 1, m[1])};
            MPI_Send(a, 2, MPI_LONG_LONG, 0, TAG_RESULT, MPI_COMM_WORLD);
            ex_pairs_send(0, sizeof a);
        }
    }
    ex_pairs_print();
    MPI_Finalize();
    return 0;
}
