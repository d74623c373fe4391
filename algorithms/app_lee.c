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
    if (N < P)
        return mpp_err_set(err, MPP_EINVAL,
                           "%u processors for N = %u columns: each processor needs a stripe of "
                           "at least one column (at most N processors)",
                           P, N);
    uint32_t stripes = (N + w - 1) / w;
    if (stripes < P)
        return mpp_err_set(err, MPP_EINVAL,
                           "stripe width w = %u gives %u stripes of N = %u columns, fewer than "
                           "the %u processors (each needs a stripe: w <= %u)",
                           w, stripes, N, P, N / P);
    return 0;
}

uint64_t mpp_lee_bytes(uint32_t N)
{
    uint64_t n = (uint64_t)N * N, w2 = (uint64_t)(N + 2) * (N + 2);
    /* blocked, label, queue; the padded blocked and label; the path */
    return n * (1 + 4 + 4) + w2 * (1 + 4) + n * 4;
}

double mpp_lee_work(uint32_t N, double fraction, uint32_t instances, uint32_t pairs)
{
    double n = N;
    return (double)instances * (0.75 * fraction * n * n * n + (double)pairs * n * n);
}

void mpp_lee_free(mpp_lee *g)
{
    free(g->blocked);
    free(g->label);
    free(g->queue);
    memset(g, 0, sizeof *g);
}

int mpp_lee_neighbours(uint32_t N, uint32_t s, uint32_t nb[4])
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
            int n = mpp_lee_neighbours(N, s, nb);
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
        int n = mpp_lee_neighbours(g->N, s, nb);
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
/* The streams of the pairs: (seed, this | instance << 24 | pair), apart
 * from the grids' (seed, instance). */
#define LEE_PAIR_STREAM (1ull << 63)

/* The generator's working grid: the N x N grid inside a border of blocked
 * cells (W = N + 2 a row), so a cell's neighbours are p - 1, p + 1, p - W,
 * p + W without bounds checks or divisions, and the labels of each net's
 * expansion above a base that rises from net to net (no clearing between
 * nets): cell p is labelled in this net when label[p] > base, with its
 * distance + 1 + base. */
typedef struct lee_pad {
    uint32_t N, W;
    uint8_t *blocked;    /* [W W] */
    uint32_t *label;     /* [W W] */
    uint32_t *queue;     /* [N N] */
    uint32_t *path;      /* [N N] */
    uint32_t base;
} lee_pad;

static uint32_t pad_of(const lee_pad *p, uint32_t s)
{
    return (s / p->N + 1) * p->W + s % p->N + 1;
}

static uint32_t cell_of(const lee_pad *p, uint32_t q)
{
    return (q / p->W - 1) * p->N + q % p->W - 1;
}

/* Route a net from a to b (padded cells) by the wavefront expansion, as
 * mpp_lee_expand does (the same order: left, right, up, down), and write
 * its path from b back to a as mpp_lee_path does into p->path[0 .. len]
 * (padded cells). Returns len, or 0 when a == b or b cannot be reached. */
static uint32_t pad_route(lee_pad *p, uint32_t a, uint32_t b)
{
    uint32_t W = p->W, head = 0, tail = 0;
    if ((uint64_t)p->base + (uint64_t)p->N * p->N + 2 > UINT32_MAX) {
        memset(p->label, 0, (size_t)W * W * sizeof *p->label);
        p->base = 0;
    }
    const uint32_t base = p->base, off[4] = {1, 1, W, W};
    const uint8_t *blocked = p->blocked;
    uint32_t *label = p->label, *queue = p->queue, top = base + 1;
    label[a] = base + 1;
    queue[tail++] = a;
    bool found = a == b;
    while (head < tail && !found) {
        uint32_t s = queue[head++], l = label[s] + 1;
        const uint32_t nb[4] = {s - off[0], s + off[1], s - off[2], s + off[3]};
        for (int d = 0; d < 4; d++) {
            uint32_t u = nb[d];
            if (blocked[u] || label[u] > base)
                continue;
            label[u] = l;
            top = l;
            queue[tail++] = u;
            if (u == b) {
                found = true;
                break;
            }
        }
    }
    p->base = top; /* every label of this net is <= top */
    if (!found || a == b)
        return 0;
    uint32_t len = 0, s = b;
    p->path[0] = b;
    while (s != a) {
        const uint32_t nb[4] = {s - 1, s + 1, s - W, s + W};
        for (int d = 0; d < 4; d++)
            if (label[nb[d]] > base && label[nb[d]] + 1 == label[s]) {
                s = nb[d];
                break;
            }
        p->path[++len] = s;
    }
    return len;
}

/* May padded cell q be blocked without splitting the open cells around
 * it? Its eight neighbours, clockwise from the one above (the border is
 * blocked), are 4-adjacent one to the next; q can go when its open
 * neighbours across an edge all lie in one run of open cells of that ring,
 * for then every path through q can go round it. (A sufficient condition:
 * the open cells stay connected as they were.) */
static bool pad_removable(const lee_pad *p, uint32_t q)
{
    const int64_t W = p->W;
    const int64_t ring[8] = {-W, -W + 1, 1, W + 1, W, W - 1, -1, -W - 1};
    bool open[8];
    int orth = 0, first = -1;
    for (int k = 0; k < 8; k++) {
        open[k] = !p->blocked[(int64_t)q + ring[k]];
        orth += open[k] && !(k & 1);
        if (!open[k] && first < 0)
            first = k;
    }
    if (orth <= 1 || first < 0)
        return true;
    /* the runs of open ring cells holding an open edge neighbour */
    int runs = 0;
    bool in = false, has = false;
    for (int i = 1; i <= 8; i++) {
        int k = (first + i) & 7;
        if (open[k]) {
            in = true;
            has |= !(k & 1);
        } else if (in) {
            runs += has;
            in = has = false;
        }
    }
    return runs <= 1;
}

int mpp_lee_pair(mpp_lee *g, uint64_t seed, uint64_t instance, uint32_t j, mpp_err *err)
{
    uint32_t N = g->N, lo = (uint32_t)ceil(0.4 * N), hi = (uint32_t)floor(0.6 * N);
    mpp_rng r;
    mpp_rng_init(&r, seed, MPP_RNG_WORKLOAD, LEE_PAIR_STREAM | instance << 24 | j);
    for (uint32_t tries = 0; tries < LEE_PAIR_TRIES; tries++) {
        uint32_t a = random_open(g, &r), b = random_open(g, &r);
        uint32_t dx = a % N > b % N ? a % N - b % N : b % N - a % N;
        uint32_t dy = a / N > b / N ? a / N - b / N : b / N - a / N;
        if (dx + dy >= lo && dx + dy <= hi) {
            g->src = a;
            g->dst = b;
            g->M = dx + dy;
            return 0;
        }
    }
    return mpp_err_set(err, MPP_EINVAL,
                       "no open source and destination %u .. %u apart found on the %ux%u "
                       "grid blocked to %.3f (%u pairs tried)",
                       lo, hi, N, N, (double)g->nblocked / ((double)N * N), LEE_PAIR_TRIES);
}

int mpp_lee_generate(mpp_lee *g, uint32_t N, double fraction, uint64_t seed, uint64_t instance,
                     mpp_err *err)
{
    memset(g, 0, sizeof *g);
    if (N < 4 || N > MPP_APP_MAX_N)
        return mpp_err_set(err, MPP_EINVAL, "the grid side must be 4 .. %u, not %u",
                           MPP_APP_MAX_N, N);
    if (!(fraction >= 0 && fraction <= MPP_LEE_MAX_FRACTION))
        return mpp_err_set(err, MPP_EINVAL, "the blocked fraction must be 0 .. %g, not %g",
                           MPP_LEE_MAX_FRACTION, fraction);
    size_t n = (size_t)N * N, w2 = (size_t)(N + 2) * (N + 2);
    g->N = N;
    g->blocked = calloc(n, 1);
    g->label = malloc(n * sizeof *g->label);
    g->queue = malloc(n * sizeof *g->queue);
    lee_pad p = {.N = N, .W = N + 2};
    p.blocked = malloc(w2);
    p.label = calloc(w2, sizeof *p.label);
    p.path = malloc(n * sizeof *p.path);
    p.queue = g->queue;
    if (!g->blocked || !g->label || !g->queue || !p.blocked || !p.label || !p.path) {
        free(p.blocked);
        free(p.label);
        free(p.path);
        mpp_lee_free(g);
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    }
    memset(p.blocked, 1, w2);
    for (uint32_t y = 0; y < N; y++)
        memset(p.blocked + (size_t)(y + 1) * p.W + 1, 0, N);
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
        uint32_t len = pad_route(&p, pad_of(&p, a), pad_of(&p, b));
        if (!len) {
            idle++;
            continue;
        }
        uint64_t before = g->nblocked;
        for (uint32_t i = len + 1; i-- > 0 && g->nblocked < target;) {
            uint32_t q = p.path[i]; /* from a, the net's source */
            if (pad_removable(&p, q)) {
                p.blocked[q] = 1;
                g->blocked[cell_of(&p, q)] = 1;
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
    free(p.blocked);
    free(p.label);
    free(p.path);
    if (g->nblocked < target) {
        uint64_t got = g->nblocked;
        mpp_lee_free(g);
        return mpp_err_set(err, MPP_EINVAL,
                           "a %ux%u grid could be blocked only to %.3f by routed nets "
                           "keeping its open cells connected, not %g",
                           N, N, (double)got / (double)n, fraction);
    }
    int rc = mpp_lee_pair(g, seed, instance, 0, err);
    if (rc)
        mpp_lee_free(g);
    return rc;
}

int mpp_lee_sequential_add(mpp_lee *g, mpp_app_seq *out, mpp_err *err)
{
    int64_t d = mpp_lee_expand(g, g->src, g->dst, &out->counts);
    if (d < 0) /* every pair has a path (mpp_lee_generate) */
        return mpp_err_set(err, MPP_EINVAL, "a Lee instance has no path from its source");
    out->size += (uint64_t)d;
    out->hash = mpp_app_hash_add(out->hash, (uint64_t)d);
    out->manhattan += g->M;
    out->runs++;
    return 0;
}

int mpp_lee_sequential(uint32_t N, double fraction, uint64_t seed, uint32_t instances,
                       uint32_t pairs, mpp_app_seq *out, mpp_err *err)
{
    memset(out, 0, sizeof *out);
    out->hash = MPP_APP_HASH0;
    if (pairs < 1 || pairs > MPP_LEE_MAX_PAIRS)
        return mpp_err_set(err, MPP_EINVAL, "pairs per instance must be 1 .. %u, not %u",
                           MPP_LEE_MAX_PAIRS, pairs);
    for (uint32_t i = 0; i < instances; i++) {
        mpp_lee g;
        int rc = mpp_lee_generate(&g, N, fraction, seed, i, err);
        for (uint32_t j = 0; j < pairs && !rc; j++) {
            if (j)
                rc = mpp_lee_pair(&g, seed, i, j, err);
            if (!rc)
                rc = mpp_lee_sequential_add(&g, out, err);
        }
        mpp_lee_free(&g);
        if (rc)
            return rc;
    }
    return 0;
}
