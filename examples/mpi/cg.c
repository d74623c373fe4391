/* examples/mpi/cg.c — conjugate gradient on an airfoil mesh, the
 * unstructured halo-exchange example of docs/capture.md.
 *
 *   cg MESH ITERS [PARTITION]
 *
 * MESH is a gmsh 2.2 ASCII mesh, plain or gzip (traces/data/naca0012_*.msh.gz);
 * its graph is the mesh nodes joined by the edges of its triangles and
 * quadrangles (the graph of traces/partition.h). The matrix is A = L + I,
 * L the graph Laplacian (degree on the diagonal, -1 per edge): symmetric
 * positive definite. CG solves A x = b (b_v = 1 + (v mod 7) / 10) from
 * x = 0 for exactly ITERS iterations (no convergence test, so every run
 * sends the same messages), and rank 0 prints the residual norm.
 *
 * The partition: PARTITION is a METIS-style partition file (one 0-based
 * part per line, one line per mesh node, plain or gzip) whose parts are
 * 0 .. P-1, P the rank count (traces/data/naca0012_NNN.part32.gz at 32 ranks).
 * Without it every rank computes the same partition from the mesh by
 * recursive coordinate bisection: a set of nodes meant for k parts is
 * sorted by its wider coordinate (x or y over the set's extent; ties by
 * node number), and its first round(n * floor(k/2) / k) nodes go to the
 * first floor(k/2) parts, the rest to the other ceil(k/2), recursively;
 * so any P from 1 to the node count works, deterministically.
 *
 * Communication per iteration: the halo exchange of the search direction
 * before the product A p — rank i sends rank j, by MPI_Isend (after
 * MPI_Irecv of its own ghosts, then MPI_Waitall), the values of its nodes
 * adjacent to a node of j, in node order (COM(i, j) of traces/partition.h:
 * 8 bytes a node) — and two dot products by MPI_Allreduce (one more
 * before the first iteration, one after the last for the residual).
 *
 * Counted (pairs.h): each halo send, one message of 8 x COM(i, j) bytes,
 * ITERS of them per neighbouring pair. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "pairs.h"

#define PROG "cg"

typedef struct graph {
    long n;          /* nodes */
    double *x, *y;   /* [n] coordinates */
    long *xadj;      /* [n + 1] */
    long *adj;       /* neighbours, sorted, without duplicates */
} graph;

static int cmp_pair(const void *a, const void *b)
{
    const long *p = a, *q = b;
    if (p[0] != q[0])
        return p[0] < q[0] ? -1 : 1;
    return (p[1] > q[1]) - (p[1] < q[1]);
}

/* Read a gmsh 2.2 mesh (nodes and the edges of element types 2 and 3). */
static void read_mesh(const char *path, graph *g)
{
    gzFile f = gzopen(path, "rb");
    if (f == NULL)
        ex_die(PROG, "cannot open the mesh");
    static char line[4096];
    long *id2v = NULL, maxid = 0, nedge = 0, capedge = 0, *edges = NULL;
    int state = 0; /* 1 in $Nodes, 2 in $Elements */
    long count = -1, seen = 0;
    g->n = 0;
    while (gzgets(f, line, sizeof line) != NULL) {
        if (line[0] == '$') {
            state = strncmp(line, "$Nodes", 6) == 0 ? 1 : strncmp(line, "$Elements", 9) == 0 ? 2 : 0;
            count = -1;
            seen = 0;
            if (strncmp(line, "$MeshFormat", 11) == 0) {
                if (gzgets(f, line, sizeof line) == NULL || strncmp(line, "2.2", 3) != 0)
                    ex_die(PROG, "the mesh: expected a gmsh 2.2 ASCII mesh");
            }
            continue;
        }
        if (state == 0)
            continue;
        if (count < 0) {
            count = strtol(line, NULL, 10);
            if (count < 0 || count > (1L << 26))
                ex_die(PROG, "the mesh: a bad count");
            if (state == 1) {
                g->n = count;
                g->x = malloc((size_t)count * sizeof(double));
                g->y = malloc((size_t)count * sizeof(double));
                id2v = NULL;
                if (!g->x || !g->y)
                    ex_die(PROG, "out of memory");
            }
            continue;
        }
        if (seen++ >= count)
            ex_die(PROG, "the mesh: more entries than its count");
        char *s = line, *e;
        long id = strtol(s, &e, 10);
        if (e == s || id < 1)
            ex_die(PROG, "the mesh: expected an entry number");
        s = e;
        if (state == 1) {
            long v = seen - 1;
            g->x[v] = strtod(s, &e);
            g->y[v] = strtod(e, &s);
            if (id > maxid) {
                long *t = realloc(id2v, (size_t)(id + 1) * sizeof *t);
                if (t == NULL)
                    ex_die(PROG, "out of memory");
                for (long i = maxid + 1; i <= id; i++)
                    t[i] = -1;
                id2v = t;
                maxid = id;
            }
            id2v[id] = v;
            continue;
        }
        long type = strtol(s, &s, 10), ntags = strtol(s, &s, 10);
        for (long t = 0; t < ntags; t++)
            strtol(s, &s, 10);
        long nv = type == 2 ? 3 : type == 3 ? 4 : 0, vs[4];
        for (long k = 0; k < nv; k++) {
            long nid = strtol(s, &e, 10);
            if (e == s || nid < 1 || nid > maxid || id2v[nid] < 0)
                ex_die(PROG, "the mesh: an element names an unknown node");
            vs[k] = id2v[nid];
            s = e;
        }
        for (long k = 0; k < nv; k++) {
            if (nedge + 2 > capedge) {
                capedge = capedge ? 2 * capedge : 1024;
                long *t = realloc(edges, (size_t)capedge * 2 * sizeof *t);
                if (t == NULL)
                    ex_die(PROG, "out of memory");
                edges = t;
            }
            long a = vs[k], b = vs[(k + 1) % nv];
            edges[2 * nedge] = a;
            edges[2 * nedge + 1] = b;
            edges[2 * nedge + 2] = b;
            edges[2 * nedge + 3] = a;
            nedge += 2;
        }
    }
    gzclose(f);
    if (g->n == 0)
        ex_die(PROG, "the mesh has no nodes");
    qsort(edges, (size_t)nedge, 2 * sizeof *edges, cmp_pair);
    g->xadj = calloc((size_t)g->n + 1, sizeof *g->xadj);
    g->adj = malloc((size_t)(nedge ? nedge : 1) * sizeof *g->adj);
    if (!g->xadj || !g->adj)
        ex_die(PROG, "out of memory");
    long m = 0;
    for (long i = 0; i < nedge; i++) {
        long a = edges[2 * i], b = edges[2 * i + 1];
        if (a == b || (i > 0 && a == edges[2 * i - 2] && b == edges[2 * i - 1]))
            continue;
        g->adj[m++] = b;
        g->xadj[a + 1]++;
    }
    for (long v = 0; v < g->n; v++)
        g->xadj[v + 1] += g->xadj[v];
    free(edges);
    free(id2v);
}

static const graph *sort_g;
static int sort_axis;

/* Order nodes by the chosen coordinate, ties by node number. */
static int cmp_coord(const void *a, const void *b)
{
    long u = *(const long *)a, v = *(const long *)b;
    const double *c = sort_axis ? sort_g->y : sort_g->x;
    if (c[u] != c[v])
        return c[u] < c[v] ? -1 : 1;
    return (u > v) - (u < v);
}

/* Recursive coordinate bisection of nodes[0..n) into parts [p0, p0+k). */
static void rcb(const graph *g, long *nodes, long n, int p0, int k, int *part)
{
    if (k == 1) {
        for (long i = 0; i < n; i++)
            part[nodes[i]] = p0;
        return;
    }
    double xl = INFINITY, xh = -INFINITY, yl = INFINITY, yh = -INFINITY;
    for (long i = 0; i < n; i++) {
        double x = g->x[nodes[i]], y = g->y[nodes[i]];
        xl = fmin(xl, x);
        xh = fmax(xh, x);
        yl = fmin(yl, y);
        yh = fmax(yh, y);
    }
    sort_g = g;
    sort_axis = (yh - yl) > (xh - xl);
    qsort(nodes, (size_t)n, sizeof *nodes, cmp_coord);
    int k1 = k / 2;
    long n1 = (long)((double)n * k1 / k + 0.5);
    rcb(g, nodes, n1, p0, k1, part);
    rcb(g, nodes + n1, n - n1, p0 + k1, k - k1, part);
}

/* Read a partition file of g->n lines with parts 0 .. p-1, each used. */
static void read_partition(const char *path, long n, int p, int *part)
{
    gzFile f = gzopen(path, "rb");
    if (f == NULL)
        ex_die(PROG, "cannot open the partition");
    char line[64];
    long v = 0;
    int *used = calloc((size_t)p, sizeof *used);
    if (used == NULL)
        ex_die(PROG, "out of memory");
    while (gzgets(f, line, sizeof line) != NULL) {
        char *e;
        long q = strtol(line, &e, 10);
        if (e == line)
            continue;
        if (v >= n || q < 0 || q >= p)
            ex_die(PROG, "the partition: expected one part in 0 .. P-1 per mesh node (P = the rank count)");
        part[v++] = (int)q;
        used[q] = 1;
    }
    gzclose(f);
    if (v != n)
        ex_die(PROG, "the partition has fewer lines than the mesh has nodes");
    for (int q = 0; q < p; q++)
        if (!used[q])
            ex_die(PROG, "the partition leaves a rank without nodes");
    free(used);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ex_pairs_init();
    int rank, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    if (argc < 3 || argc > 4)
        ex_die(PROG, "usage: cg MESH ITERS [PARTITION]");
    long iters = ex_arg(PROG, "ITERS", argv[2], 0, 1L << 24);
    graph g = {0};
    read_mesh(argv[1], &g);
    long n = g.n;
    if (n < p)
        ex_die(PROG, "the mesh has fewer nodes than there are ranks");
    int *part = malloc((size_t)n * sizeof *part);
    long *order = malloc((size_t)n * sizeof *order);
    if (!part || !order)
        ex_die(PROG, "out of memory");
    if (argc == 4) {
        read_partition(argv[3], n, p, part);
    } else {
        for (long v = 0; v < n; v++)
            order[v] = v;
        rcb(&g, order, n, 0, p, part);
    }

    /* local numbering: owned nodes 0..nown-1 (node order), then the ghosts
     * grouped by owner rank, each group in node order */
    long *loc = malloc((size_t)n * sizeof *loc);
    long *mark = calloc((size_t)n, sizeof *mark); /* 1: owned, 2: ghost */
    if (!loc || !mark)
        ex_die(PROG, "out of memory");
    long nown = 0, nloc;
    for (long v = 0; v < n; v++)
        if (part[v] == rank) {
            mark[v] = 1;
            loc[v] = nown;
            order[nown++] = v;
        }
    for (long i = 0; i < nown; i++)
        for (long e = g.xadj[order[i]]; e < g.xadj[order[i] + 1]; e++)
            if (mark[g.adj[e]] == 0)
                mark[g.adj[e]] = 2;
    /* receive ranges per owner, send lists per neighbour */
    long *rfirst = calloc((size_t)p + 1, sizeof *rfirst);
    long *scnt = calloc((size_t)p, sizeof *scnt);
    if (!rfirst || !scnt)
        ex_die(PROG, "out of memory");
    nloc = nown;
    for (int q = 0; q < p; q++) {
        rfirst[q] = nloc;
        if (q == rank)
            continue;
        for (long v = 0; v < n; v++)
            if (mark[v] == 2 && part[v] == q) {
                loc[v] = nloc;
                order[nloc++] = v;
            }
    }
    rfirst[p] = nloc;
    /* what q needs from me: my nodes adjacent to a node of q, node order */
    long *sfirst = calloc((size_t)p + 1, sizeof *sfirst), nsend = 0;
    long *slist = malloc((size_t)(nown * 8 + 1) * sizeof *slist);
    if (!sfirst || !slist)
        ex_die(PROG, "out of memory");
    long cap = nown * 8 + 1;
    for (int q = 0; q < p; q++) {
        sfirst[q] = nsend;
        if (q == rank)
            continue;
        for (long i = 0; i < nown; i++) {
            long v = order[i];
            for (long e = g.xadj[v]; e < g.xadj[v + 1]; e++)
                if (part[g.adj[e]] == q) {
                    if (nsend == cap) {
                        cap *= 2;
                        long *t = realloc(slist, (size_t)cap * sizeof *t);
                        if (t == NULL)
                            ex_die(PROG, "out of memory");
                        slist = t;
                    }
                    slist[nsend++] = i;
                    break;
                }
        }
        scnt[q] = nsend - sfirst[q];
    }
    sfirst[p] = nsend;

    double *x = calloc((size_t)nown, sizeof *x), *r = malloc((size_t)nown * sizeof *r);
    double *pv = calloc((size_t)nloc, sizeof *pv), *ap = malloc((size_t)nown * sizeof *ap);
    double *sbuf = malloc((size_t)(nsend + 1) * sizeof *sbuf);
    MPI_Request *req = malloc(2 * (size_t)p * sizeof *req);
    /* statuses, not MPI_STATUSES_IGNORE: gcc misreads MPICH's */
    MPI_Status *st = malloc(2 * (size_t)p * sizeof *st);
    if (!x || !r || !pv || !ap || !sbuf || !req || !st)
        ex_die(PROG, "out of memory");
    for (long i = 0; i < nown; i++) {
        r[i] = 1.0 + (double)(order[i] % 7) / 10.0; /* r = b - A x, x = 0 */
        pv[i] = r[i];
    }
    double rr_loc = 0, rr;
    for (long i = 0; i < nown; i++)
        rr_loc += r[i] * r[i];
    MPI_Allreduce(&rr_loc, &rr, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    double rr0 = rr;

    for (long it = 0; it < iters; it++) {
        int nreq = 0;
        for (int q = 0; q < p; q++)
            if (rfirst[q + 1] > rfirst[q])
                MPI_Irecv(pv + rfirst[q], (int)(rfirst[q + 1] - rfirst[q]), MPI_DOUBLE, q, 7,
                          MPI_COMM_WORLD, &req[nreq++]);
        for (long s = 0; s < nsend; s++)
            sbuf[s] = pv[slist[s]];
        for (int q = 0; q < p; q++)
            if (scnt[q] > 0) {
                MPI_Isend(sbuf + sfirst[q], (int)scnt[q], MPI_DOUBLE, q, 7, MPI_COMM_WORLD,
                          &req[nreq++]);
                ex_pairs_send(q, (uint64_t)scnt[q] * sizeof(double));
            }
        MPI_Waitall(nreq, req, st);
        double pap_loc = 0, pap;
        for (long i = 0; i < nown; i++) {
            long v = order[i];
            double s = (double)(g.xadj[v + 1] - g.xadj[v] + 1) * pv[i];
            for (long e = g.xadj[v]; e < g.xadj[v + 1]; e++)
                s -= pv[loc[g.adj[e]]];
            ap[i] = s;
            pap_loc += pv[i] * s;
        }
        MPI_Allreduce(&pap_loc, &pap, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        double alpha = rr / pap, rr_new_loc = 0, rr_new;
        for (long i = 0; i < nown; i++) {
            x[i] += alpha * pv[i];
            r[i] -= alpha * ap[i];
            rr_new_loc += r[i] * r[i];
        }
        MPI_Allreduce(&rr_new_loc, &rr_new, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        double beta = rr_new / rr;
        rr = rr_new;
        for (long i = 0; i < nown; i++)
            pv[i] = r[i] + beta * pv[i];
    }
    if (rank == 0) {
        printf("cg: %ld nodes, %d ranks, %ld iterations: residual %.6e (from %.6e)\n", n, p, iters,
               sqrt(rr), sqrt(rr0));
        fflush(stdout);
    }
    free(x);
    free(r);
    free(pv);
    free(ap);
    free(sbuf);
    free(req);
    free(st);
    free(slist);
    free(sfirst);
    free(rfirst);
    free(scnt);
    free(loc);
    free(mark);
    free(part);
    free(order);
    free(g.x);
    free(g.y);
    free(g.xadj);
    free(g.adj);
    ex_pairs_print();
    MPI_Finalize();
    return 0;
}
