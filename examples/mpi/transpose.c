/* examples/mpi/transpose.c — an FFT-style distributed transpose, the
 * all-to-all example of docs/capture.md.
 *
 *   transpose N ITERS
 *
 * An N x N complex matrix (N a power of two, N >= the rank count) is
 * distributed by rows: rank r owns a block of rows (N / P each, the
 * remainder spread over the first ranks). One iteration is a 2D FFT done
 * the distributed way: a 1D FFT of every local row (radix 2, scaled by
 * 1/sqrt(N), so the transform is unitary and the values stay bounded),
 * a global transpose, the 1D FFTs of the new rows, and a transpose back.
 * A transpose packs, for every rank j, the local rows' columns that j will
 * own, exchanges the blocks through one MPI_Alltoall (MPI_Alltoallv when P
 * does not divide N), and unpacks them transposed. At the end rank 0
 * prints the matrix's norm (unchanged by a unitary transform: a check)
 * and the sum of its entries, reduced by MPI_Allreduce.
 *
 * Counted (pairs.h): each transpose sends every other rank j one block of
 * rows_r x rows_j complex numbers (16 bytes each); two transposes per
 * iteration. The blocks are never empty (N >= P). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "pairs.h"

#define PROG "transpose"

/* The first row and the rows of rank b of n over p. */
static void block(long n, int p, int b, long *first, long *size)
{
    long q = n / p, r = n % p;
    *first = b * q + (b < r ? b : r);
    *size = q + (b < r ? 1 : 0);
}

/* In-place radix-2 FFT of n complex numbers (re, im interleaved), scaled
 * by 1/sqrt(n). n is a power of two. */
static void fft(double *x, long n)
{
    for (long i = 1, j = 0; i < n; i++) {
        long bit = n >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j ^= bit;
        if (i < j) {
            double tr = x[2 * i], ti = x[2 * i + 1];
            x[2 * i] = x[2 * j];
            x[2 * i + 1] = x[2 * j + 1];
            x[2 * j] = tr;
            x[2 * j + 1] = ti;
        }
    }
    const double pi = 3.14159265358979323846;
    for (long len = 2; len <= n; len <<= 1) {
        double ang = -2 * pi / (double)len;
        for (long i = 0; i < n; i += len)
            for (long k = 0; k < len / 2; k++) {
                double wr = cos(ang * (double)k), wi = sin(ang * (double)k);
                double *a = x + 2 * (i + k), *b = x + 2 * (i + k + len / 2);
                double br = b[0] * wr - b[1] * wi, bi = b[0] * wi + b[1] * wr;
                b[0] = a[0] - br;
                b[1] = a[1] - bi;
                a[0] += br;
                a[1] += bi;
            }
    }
    double s = 1.0 / sqrt((double)n);
    for (long i = 0; i < 2 * n; i++)
        x[i] *= s;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ex_pairs_init();
    int rank, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    if (argc != 3)
        ex_die(PROG, "usage: transpose N ITERS");
    long n = ex_arg(PROG, "N", argv[1], 2, 1L << 14);
    long iters = ex_arg(PROG, "ITERS", argv[2], 0, 1L << 20);
    if ((n & (n - 1)) != 0)
        ex_die(PROG, "N: expected a power of two");
    if (n < p)
        ex_die(PROG, "N: expected at least as many rows as ranks");

    long *first = calloc((size_t)p, sizeof *first), *rows = calloc((size_t)p, sizeof *rows);
    int *scount = malloc((size_t)p * sizeof *scount), *sdisp = malloc((size_t)p * sizeof *sdisp);
    int *rcount = malloc((size_t)p * sizeof *rcount), *rdisp = malloc((size_t)p * sizeof *rdisp);
    if (!first || !rows || !scount || !sdisp || !rcount || !rdisp)
        ex_die(PROG, "out of memory");
    for (int b = 0; b < p; b++)
        block(n, p, b, &first[b], &rows[b]);
    long nr = rows[rank], r0 = first[rank];
    int even = n % p == 0;
    for (int j = 0, off = 0, roff = 0; j < p; j++) {
        scount[j] = (int)(2 * nr * rows[j]); /* doubles: re and im */
        sdisp[j] = off;
        off += scount[j];
        rcount[j] = (int)(2 * rows[j] * nr);
        rdisp[j] = roff;
        roff += rcount[j];
    }
    size_t elems = (size_t)(2 * nr * n);
    double *a = malloc(elems * sizeof *a), *sb = malloc(elems * sizeof *sb);
    double *rb = malloc(elems * sizeof *rb);
    if (!a || !sb || !rb)
        ex_die(PROG, "out of memory");
    for (long r = 0; r < nr; r++)
        for (long c = 0; c < n; c++) {
            long g = (r0 + r) * n + c;
            a[2 * (r * n + c)] = (double)((g * 7919) % 1009) / 1009.0 - 0.5;
            a[2 * (r * n + c) + 1] = (double)((g * 104729) % 997) / 997.0 - 0.5;
        }

    for (long it = 0; it < 2 * iters; it++) {
        for (long r = 0; r < nr; r++)
            fft(a + 2 * r * n, n);
        /* pack: block j = my rows x j's columns, row-major */
        for (int j = 0; j < p; j++) {
            double *o = sb + sdisp[j];
            for (long r = 0; r < nr; r++)
                for (long c = first[j]; c < first[j] + rows[j]; c++) {
                    *o++ = a[2 * (r * n + c)];
                    *o++ = a[2 * (r * n + c) + 1];
                }
        }
        if (even)
            MPI_Alltoall(sb, scount[0], MPI_DOUBLE, rb, rcount[0], MPI_DOUBLE, MPI_COMM_WORLD);
        else
            MPI_Alltoallv(sb, scount, sdisp, MPI_DOUBLE, rb, rcount, rdisp, MPI_DOUBLE,
                          MPI_COMM_WORLD);
        for (int j = 0; j < p; j++)
            ex_pairs_send(j, (uint64_t)scount[j] * sizeof(double));
        /* unpack transposed: i's block holds (its row r, my column c) at
         * (r - first[i]) * nr + (c - r0); it becomes my row c, column r */
        for (int i = 0; i < p; i++) {
            const double *s = rb + rdisp[i];
            for (long r = 0; r < rows[i]; r++)
                for (long c = 0; c < nr; c++) {
                    long d = c * n + first[i] + r;
                    a[2 * d] = *s++;
                    a[2 * d + 1] = *s++;
                }
        }
    }
    double loc[3] = {0, 0, 0}, tot[3];
    for (long e = 0; e < nr * n; e++) {
        loc[0] += a[2 * e] * a[2 * e] + a[2 * e + 1] * a[2 * e + 1];
        loc[1] += a[2 * e];
        loc[2] += a[2 * e + 1];
    }
    MPI_Allreduce(loc, tot, 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("transpose: %ld x %ld, %d ranks, %ld iterations: norm %.9f sum %.6f%+.6fi\n", n, n,
               p, iters, sqrt(tot[0]), tot[1], tot[2]);
        fflush(stdout);
    }
    free(a);
    free(sb);
    free(rb);
    free(first);
    free(rows);
    free(scount);
    free(sdisp);
    free(rcount);
    free(rdisp);
    ex_pairs_print();
    MPI_Finalize();
    return 0;
}
