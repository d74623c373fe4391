/* examples/mpi/pairs.c — the example programs' count of their own sends
 * (pairs.h): two arrays indexed by destination world rank, filled as the
 * program sends and printed once at the end.
 *
 * Invariants: 1. msgs[me] == 0 and bytes[me] == 0 (nothing to itself is
 * counted); 2. bytes[d] == 0 whenever msgs[d] == 0. */
#include "pairs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int me = -1, nranks;
static uint64_t *msgs, *bytes;

/* Allocate the counts for the world's size; dies when out of memory. */
void ex_pairs_init(void)
{
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    msgs = calloc((size_t)nranks, sizeof *msgs);
    bytes = calloc((size_t)nranks, sizeof *bytes);
    if (msgs == NULL || bytes == NULL)
        ex_die("pairs", "out of memory");
}

/* Add one message (invariant 1: never to itself). */
void ex_pairs_send(int dst, uint64_t n)
{
    if (dst == MPI_PROC_NULL || dst == me)
        return;
    if (dst < 0 || dst >= nranks)
        ex_die("pairs", "a send to a rank outside MPI_COMM_WORLD");
    msgs[dst]++;
    bytes[dst] += n;
}

/* Translate through the groups of comm and MPI_COMM_WORLD. */
int ex_pairs_world(MPI_Comm comm, int r)
{
    if (r == MPI_PROC_NULL)
        return r;
    MPI_Group g, w;
    int out;
    MPI_Comm_group(comm, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &w);
    MPI_Group_translate_ranks(g, 1, &r, w, &out);
    MPI_Group_free(&g);
    MPI_Group_free(&w);
    return out;
}

/* One block to every other rank of the world. */
void ex_pairs_alltoall(uint64_t block)
{
    for (int d = 0; d < nranks; d++)
        ex_pairs_send(d, block);
}

/* One line per destination with messages, written with one write(2). */
void ex_pairs_print(void)
{
    size_t cap = (size_t)nranks * 80 + 1, len = 0;
    char *buf = malloc(cap);
    if (buf == NULL)
        ex_die("pairs", "out of memory");
    for (int d = 0; d < nranks; d++) {
        if (msgs[d] == 0)
            continue;
        int k = snprintf(buf + len, cap - len, "mppnet-pair %d %d %llu %llu\n", me, d,
                         (unsigned long long)msgs[d], (unsigned long long)bytes[d]);
        len += (size_t)k;
    }
    fflush(stdout);
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(STDOUT_FILENO, buf + off, len - off);
        if (w <= 0)
            break;
        off += (size_t)w;
    }
    free(buf);
    free(msgs);
    free(bytes);
    msgs = bytes = NULL;
}

/* Report and abort every rank. */
_Noreturn void ex_die(const char *prog, const char *what)
{
    fprintf(stderr, "%s: %s\n", prog, what);
    fflush(stderr);
    int init = 0;
    MPI_Initialized(&init);
    if (init)
        MPI_Abort(MPI_COMM_WORLD, 2);
    exit(2);
}

/* strtol with the whole text and the range checked. */
long ex_arg(const char *prog, const char *name, const char *text, long lo, long hi)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || v < lo || v > hi) {
        char msg[256];
        snprintf(msg, sizeof msg, "%s: expected an integer between %ld and %ld, got '%s'", name,
                 lo, hi, text);
        ex_die(prog, msg);
    }
    return v;
}
