/* algorithms/app_lee.c — the sequential core of Lee's maze routing
 * (apps.h): instances pre-blocked by routed nets, the wavefront expansion
 * and the path recovery; and the column-stripe partition of the
 * applications. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/apps.h"
#include "core/base/rng.h"

int mpp_stripes_check(uint32_t N, uint32_t w, uint32_t P, mpp_err *err)
{
    if (w < 1 || w > N)
        return mpp_err_set(err, MPP_EINVAL, "stripe width w = %u: must be 1 .. N = %u", w, N);
    if (P < 1)
        return mpp_err_set(err, MPP_EINVAL, "processors: must be at least 1");
    uint32_t stripes = (N + w - 1) / w;
    if (stripes < P)
        return mpp_err_set(err, MPP_EINVAL,
                           "stripe width w = %u gives %u stripes of N = %u columns, fewer than "
                           "the %u processors (each needs a stripe: w <= %u)",
                           w, stripes, N, P, N / P);
    return 0;
}

void mpp_lee_free(mpp_lee *g)
{
    free(g->blocked);
    free(g->label);
    free(g->queue);
    memset(g, 0, sizeof *g);
}

/* The four neighbours of cell s that exist (left, right, up, down); returns
 * their count. */
static int cell_neighbours(uint32_t N, uint32_t s, uint32_t nb[4])
{
    uint32_t x = s % N, y = s / N;
    int k = 0;
    if (x)
        nb[k++] = s - 1;
    if (x + 1 < N)
        nb[k++] = s + 1;
    if (y)
        nb[k++] = s - N;
    if (y + 1 < N)
        nb[k++] = s + N;
    return k;
}

int64_t mpp_lee_expand(mpp_lee *g, uint32_t a, uint32_t b, mpp_app_counts *c)
{
    uint32_t N = g->N;
    mpp_app_counts k = {0};
    memset(g->label, 0, (size_t)N * N * sizeof *g->label);
    uint32_t head = 0, tail = 0;
    int64_t dist = -1;
    g->label[a] = 1;
    g->queue[tail++] = a;
    k.queue_ops++;
    if (a == b)
        dist = 0;
    while (head < tail && dist < 0) {
        uint32_t end = tail; /* this cycle's wavefront */
        k.cycles++;
        for (; head < end && dist < 0; head++) {
            uint32_t s = g->queue[head], nb[4];
            k.queue_ops++;
            k.sites++;
            int n = cell_neighbours(N, s, nb);
            for (int d = 0; d < n; d++) {
                uint32_t u = nb[d];
                k.tests++;
                if (g->blocked[u] || g->label[u])
                    continue;
                g->label[u] = g->label[s] + 1;
                g->queue[tail++] = u;
                k.queue_ops++;
                if (u == b) {
                    dist = g->label[u] - 1;
                    break;
                }
            }
        }
    }
    g->reached = tail;
    mpp_app_counts_add(c, &k);
    return dist;
}

uint32_t mpp_lee_path(const mpp_lee *g, uint32_t a, uint32_t b, uint32_t *path)
{
    uint32_t len = 0, s = b;
    path[0] = b;
    while (s != a) {
        uint32_t nb[4];
        int n = cell_neighbours(g->N, s, nb);
        for (int d = 0; d < n; d++)
            if (g->label[nb[d]] && g->label[nb[d]] + 1 == g->label[s]) {
                s = nb[d];
                break;
            }
        path[++len] = s;
    }
    return len;
}

/* A random open cell (rejection; the caller knows one exists). */
static uint32_t random_open(const mpp_lee *g, mpp_rng *r)
{
    uint32_t n = g->N * g->N, s;
    do
        s = mpp_rng_below(r, n);
    while (g->blocked[s]);
    return s;
}

/* Nets in a row that cannot be routed or blocked before an instance is
 * given up. */
#define LEE_NET_TRIES 1000u
/* Random pairs of open cells tried for the source and the destination. */
#define LEE_PAIR_TRIES 1000000u

/* May cell c be blocked without splitting the open cells around it? Its
 * eight neighbours, clockwise from the one above (outside the grid counts
 * as blocked), are 4-adjacent one to the next; c can go when its open
 * neighbours across an edge all lie in one run of open cells of that ring,
 * for then every path through c can go round it. (A sufficient condition:
 * the open cells stay connected as they were.) */
static bool cell_removable(const mpp_lee *g, uint32_t c)
{
    uint32_t N = g->N, x = c % N, y = c / N;
    static const int dx[8] = {0, 1, 1, 1, 0, -1, -1, -1};
    static const int dy[8] = {-1, -1, 0, 1, 1, 1, 0, -1};
    bool open[8];
    int orth = 0;
    for (int k = 0; k < 8; k++) {
        int64_t u = (int64_t)x + dx[k], v = (int64_t)y + dy[k];
        open[k] = u >= 0 && v >= 0 && u < N && v < N && !g->blocked[(uint32_t)v * N + (uint32_t)u];
        if (open[k] && !(k & 1))
            orth++;
    }
    if (orth <= 1)
        return true;
    /* the runs of open ring cells holding an open edge neighbour */
    int runs = 0, first = -1;
    for (int k = 0; k < 8; k++)
        if (!open[k]) {
            first = k;
            break;
        }
    if (first < 0)
        return true; /* all eight open */
    bool in = false, has = false;
    for (int i = 1; i <= 8; i++) {
        int k = (first + i) & 7;
        if (open[k]) {
            in = true;
            if (!(k & 1))
                has = true;
        } else if (in) {
            runs += has;
            in = has = false;
        }
    }
    return runs <= 1;
}

int mpp_lee_generate(mpp_lee *g, uint32_t N, double fraction, uint64_t seed, uint64_t instance,
                     mpp_err *err)
{
    memset(g, 0, sizeof *g);
    if (N < 4 || N > MPP_APP_MAX_N)
        return mpp_err_set(err, MPP_EINVAL, "lee: the grid side must be 4 .. %u, not %u",
                           MPP_APP_MAX_N, N);
    if (!(fraction >= 0 && fraction <= MPP_LEE_MAX_FRACTION))
        return mpp_err_set(err, MPP_EINVAL, "lee: the blocked fraction must be 0 .. %g, not %g",
                           MPP_LEE_MAX_FRACTION, fraction);
    size_t n = (size_t)N * N;
    g->N = N;
    g->blocked = calloc(n, 1);
    g->label = malloc(n * sizeof *g->label);
    g->queue = malloc(n * sizeof *g->queue);
    uint32_t *path = malloc(n * sizeof *path);
    if (!g->blocked || !g->label || !g->queue || !path) {
        free(path);
        mpp_lee_free(g);
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    }
    mpp_rng r;
    mpp_rng_init(&r, seed, MPP_RNG_WORKLOAD, instance);
    /* pre-block: route random nets between open cells and block their
     * paths, cell by cell from the net's source, leaving open the cells
     * whose blocking would split the open cells (so they stay one region,
     * and every net and the source and destination stay connected) */
    uint64_t target = (uint64_t)llround(fraction * (double)n);
    uint32_t idle = 0;
    while (g->nblocked < target && idle <= LEE_NET_TRIES) {
        uint32_t a = random_open(g, &r), b = random_open(g, &r);
        int64_t d = mpp_lee_expand(g, a, b, NULL);
        if (d <= 0) {
            idle++;
            continue;
        }
        uint32_t len = mpp_lee_path(g, a, b, path);
        uint64_t before = g->nblocked;
        for (uint32_t i = len + 1; i-- > 0 && g->nblocked < target;) {
            uint32_t c = path[i]; /* from a, the net's source */
            if (cell_removable(g, c)) {
                g->blocked[c] = 1;
                g->nblocked++;
            }
        }
        if (g->nblocked == before) {
            idle++;
            continue;
        }
        idle = 0;
        g->nets++;
    }
    free(path);
    if (g->nblocked < target) {
        uint64_t got = g->nblocked;
        mpp_lee_free(g);
        return mpp_err_set(err, MPP_EINVAL,
                           "lee: a %ux%u grid could be blocked only to %.3f by routed nets "
                           "keeping its open cells connected, not %g",
                           N, N, (double)got / (double)n, fraction);
    }
    /* the source and the destination: open cells ceil(0.4 N) .. floor(0.6 N)
     * apart (connected, as all open cells are) */
    uint32_t lo = (uint32_t)ceil(0.4 * N), hi = (uint32_t)floor(0.6 * N);
    for (uint32_t tries = 0;; tries++) {
        if (tries == LEE_PAIR_TRIES) {
            mpp_lee_free(g);
            return mpp_err_set(err, MPP_EINVAL,
                               "lee: no open source and destination %u .. %u apart found on the "
                               "%ux%u grid blocked to %g (%u pairs tried)",
                               lo, hi, N, N, fraction, LEE_PAIR_TRIES);
        }
        uint32_t a = random_open(g, &r), b = random_open(g, &r);
        uint32_t dx = a % N > b % N ? a % N - b % N : b % N - a % N;
        uint32_t dy = a / N > b / N ? a / N - b / N : b / N - a / N;
        if (dx + dy >= lo && dx + dy <= hi) {
            g->src = a;
            g->dst = b;
            g->M = dx + dy;
            break;
        }
    }
    return 0;
}
