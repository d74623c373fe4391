/* examples/mpi/stencil2d.c — a 2D Jacobi stencil on a process grid, the
 * halo-exchange example of docs/capture.md.
 *
 *   stencil2d N STEPS [K [sendrecv|isend]]
 *
 * Solves -laplace(u) = f on an N x N periodic grid (f a fixed zero-mean
 * pattern, u = 0 at the start) by STEPS Jacobi sweeps. The ranks form a
 * px x py grid (MPI_Dims_create, a periodic MPI_Cart_create without
 * reordering, neighbours by MPI_Cart_shift); each owns a block of rows and
 * columns (the remainder spread over the first blocks) with one ghost
 * layer. Every sweep exchanges the four halos with the neighbours — by
 * MPI_Sendrecv (four calls: east, west, north, south) or by
 * MPI_Irecv/MPI_Isend/MPI_Waitall (`isend`, the default) — and every K
 * sweeps (default 10) the squared update norm is summed by MPI_Allreduce
 * and printed by rank 0. Messages go over MPI_COMM_WORLD (the grid was
 * made without reordering, so a grid rank is its world rank;
 * ex_pairs_world translates anyway). A neighbour that is the rank itself
 * (a dimension of 1 process) is copied locally, not sent.
 *
 * Counted (pairs.h): each halo send, one message of its doubles' bytes.
 * So rank r sends, per sweep, one message of ny*8 bytes to its east and
 * its west neighbour and one of nx*8 to north and south (nx, ny: its
 * block's columns and rows); with 2 processes in a dimension both go to
 * the same rank. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pairs.h"

#define PROG "stencil2d"

/* The first index and the size of block b of n cells over p blocks. */
static void block(long n, int p, int b, long *first, long *size)
{
    long q = n / p, r = n % p;
    *first = b * q + (b < r ? b : r);
    *size = q + (b < r ? 1 : 0);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ex_pairs_init();
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 3 || argc > 5)
        ex_die(PROG, "usage: stencil2d N STEPS [K [sendrecv|isend]]");
    long n = ex_arg(PROG, "N", argv[1], 1, 1L << 15);
    long steps = ex_arg(PROG, "STEPS", argv[2], 0, 1L << 24);
    long k = argc > 3 ? ex_arg(PROG, "K", argv[3], 1, 1L << 24) : 10;
    int use_sendrecv = 0;
    if (argc > 4) {
        if (strcmp(argv[4], "sendrecv") == 0)
            use_sendrecv = 1;
        else if (strcmp(argv[4], "isend") != 0)
            ex_die(PROG, "the exchange: expected 'sendrecv' or 'isend'");
    }

    int dims[2] = {0, 0}, periods[2] = {1, 1}, coords[2];
    MPI_Dims_create(size, 2, dims);
    if (n < dims[0] || n < dims[1])
        ex_die(PROG, "N is smaller than the process grid");
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    MPI_Cart_coords(cart, rank, 2, coords);
    /* neighbours: [0] west, [1] east (dimension 0), [2] south, [3] north */
    int nb[4];
    MPI_Cart_shift(cart, 0, 1, &nb[0], &nb[1]);
    MPI_Cart_shift(cart, 1, 1, &nb[2], &nb[3]);
    for (int i = 0; i < 4; i++)
        nb[i] = ex_pairs_world(cart, nb[i]);

    long x0, nx, y0, ny;
    block(n, dims[0], coords[0], &x0, &nx);
    block(n, dims[1], coords[1], &y0, &ny);
    long w = nx + 2; /* row length with ghosts; u[(j)*w + i], i in 0..nx+1 */
    size_t cells = (size_t)(nx + 2) * (size_t)(ny + 2);
    double *u = calloc(cells, sizeof *u), *v = calloc(cells, sizeof *v);
    double *f = calloc(cells, sizeof *f);
    long hmax = nx > ny ? nx : ny;
    double *sbuf = malloc(4 * (size_t)hmax * sizeof *sbuf);
    double *rbuf = malloc(4 * (size_t)hmax * sizeof *rbuf);
    if (!u || !v || !f || !sbuf || !rbuf)
        ex_die(PROG, "out of memory");
    const double pi = 3.14159265358979323846, h = 1.0 / (double)n;
    for (long j = 1; j <= ny; j++)
        for (long i = 1; i <= nx; i++)
            f[j * w + i] = sin(2 * pi * (double)(x0 + i - 1) * h) * cos(2 * pi * (double)(y0 + j - 1) * h);

    /* halo lengths and the tag each direction's message carries */
    long len[4] = {ny, ny, nx, nx};
    for (long s = 0; s < steps; s++) {
        /* pack: what goes west is my first column, east my last, south my
         * first row, north my last */
        double *sb[4], *rb[4];
        for (int d = 0; d < 4; d++) {
            sb[d] = sbuf + d * hmax;
            rb[d] = rbuf + d * hmax;
        }
        for (long j = 1; j <= ny; j++) {
            sb[0][j - 1] = u[j * w + 1];
            sb[1][j - 1] = u[j * w + nx];
        }
        for (long i = 1; i <= nx; i++) {
            sb[2][i - 1] = u[1 * w + i];
            sb[3][i - 1] = u[ny * w + i];
        }
        /* what I get from direction d was sent by that neighbour towards
         * d ^ 1 (its east halo is my west ghost); tag = the direction sent */
        if (use_sendrecv) {
            for (int d = 0; d < 4; d++) {
                int to = nb[d], from = nb[d ^ 1];
                if (to == rank) {
                    memcpy(rb[d ^ 1], sb[d], (size_t)len[d] * sizeof(double));
                    continue;
                }
                MPI_Sendrecv(sb[d], (int)len[d], MPI_DOUBLE, to, d, rb[d ^ 1], (int)len[d],
                             MPI_DOUBLE, from, d, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                ex_pairs_send(to, (uint64_t)len[d] * sizeof(double));
            }
        } else {
            MPI_Request req[8];
            MPI_Status st[8]; /* not MPI_STATUSES_IGNORE: gcc misreads MPICH's */
            int nreq = 0;
            for (int d = 0; d < 4; d++) {
                if (nb[d ^ 1] == rank)
                    memcpy(rb[d ^ 1], sb[d], (size_t)len[d] * sizeof(double));
                else
                    MPI_Irecv(rb[d ^ 1], (int)len[d], MPI_DOUBLE, nb[d ^ 1], d, MPI_COMM_WORLD,
                              &req[nreq++]);
            }
            for (int d = 0; d < 4; d++) {
                if (nb[d] == rank)
                    continue;
                MPI_Isend(sb[d], (int)len[d], MPI_DOUBLE, nb[d], d, MPI_COMM_WORLD, &req[nreq++]);
                ex_pairs_send(nb[d], (uint64_t)len[d] * sizeof(double));
            }
            MPI_Waitall(nreq, req, st);
        }
        /* unpack into the ghost layer: rb[0] came from the west */
        for (long j = 1; j <= ny; j++) {
            u[j * w + 0] = rb[0][j - 1];
            u[j * w + nx + 1] = rb[1][j - 1];
        }
        for (long i = 1; i <= nx; i++) {
            u[0 * w + i] = rb[2][i - 1];
            u[(ny + 1) * w + i] = rb[3][i - 1];
        }
        double local = 0;
        for (long j = 1; j <= ny; j++)
            for (long i = 1; i <= nx; i++) {
                long c = j * w + i;
                v[c] = 0.25 * (u[c - 1] + u[c + 1] + u[c - w] + u[c + w] + h * h * f[c]);
                local += (v[c] - u[c]) * (v[c] - u[c]);
            }
        double *t = u;
        u = v;
        v = t;
        if ((s + 1) % k == 0) {
            double sum;
            MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            if (rank == 0)
                printf("stencil2d: step %ld update %.6e\n", s + 1, sqrt(sum));
        }
    }
    if (rank == 0) {
        printf("stencil2d: %ld x %ld grid, %d x %d ranks, %ld steps, %s\n", n, n, dims[0], dims[1],
               steps, use_sendrecv ? "sendrecv" : "isend");
        fflush(stdout);
    }
    MPI_Comm_free(&cart);
    free(u);
    free(v);
    free(f);
    free(sbuf);
    free(rbuf);
    ex_pairs_print();
    MPI_Finalize();
    return 0;
}
