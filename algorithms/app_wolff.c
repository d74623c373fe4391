/* algorithms/app_wolff.c — the sequential core of the Wolff cluster
 * algorithm (apps.h): a 2D Ising lattice, bonds opened by a keyed random
 * stream, clusters grown by the ants-in-the-labyrinth wavefront. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/apps.h"
#include "core/base/rng.h"

/* A random 64-bit key of (seed, a, b): splitmix64 chained over the three. */
static uint64_t key3(uint64_t seed, uint64_t a, uint64_t b)
{
    uint64_t x = seed ^ 0x243f6a8885a308d3ULL;
    x = mpp_rng_splitmix(&x) ^ a;
    x = mpp_rng_splitmix(&x) ^ b;
    return mpp_rng_splitmix(&x);
}

/* The key of a sweep's start site (no bond has it). */
#define KEY_START UINT64_MAX

int mpp_wolff_init(mpp_wolff *w, uint32_t N, double beta, uint64_t seed, mpp_err *err)
{
    memset(w, 0, sizeof *w);
    if (N < 2 || N > MPP_APP_MAX_N)
        return mpp_err_set(err, MPP_EINVAL, "the lattice side must be 2 .. %u, not %u",
                           MPP_APP_MAX_N, N);
    if (!(beta >= 0) || !isfinite(beta))
        return mpp_err_set(err, MPP_EINVAL, "beta must be a number >= 0");
    size_t n = (size_t)N * N;
    w->N = N;
    w->seed = seed;
    w->beta = beta;
    w->p = 1 - exp(-2 * beta);
    w->threshold = (uint64_t)ldexp(w->p, 53);
    w->spin = malloc(n);
    w->in = calloc(n, 1);
    w->list = malloc(n * sizeof *w->list);
    if (!w->spin || !w->in || !w->list) {
        mpp_wolff_free(w);
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    }
    memset(w->spin, 1, n); /* a cold start: every spin up */
    return 0;
}

uint64_t mpp_wolff_bytes(uint32_t N)
{
    return (uint64_t)N * N * (1 + 1 + 4); /* spin, in, list */
}

double mpp_wolff_work(uint32_t N, uint32_t therm, uint32_t sweeps)
{
    return ((double)therm + sweeps) * (double)N * N;
}

void mpp_wolff_free(mpp_wolff *w)
{
    free(w->spin);
    free(w->in);
    free(w->list);
    memset(w, 0, sizeof *w);
}

bool mpp_wolff_bond(const mpp_wolff *w, uint64_t t, uint64_t b)
{
    return (key3(w->seed, t, b) >> 11) < w->threshold;
}

uint32_t mpp_wolff_start(const mpp_wolff *w, uint64_t t)
{
    uint64_t n = (uint64_t)w->N * w->N;
    return (uint32_t)(((key3(w->seed, t, KEY_START) >> 32) * n) >> 32);
}

void mpp_wolff_neighbours(uint32_t N, uint32_t s, uint32_t nb[4], uint64_t bond[4])
{
    uint32_t x = s % N, y = s / N;
    nb[0] = y * N + (x ? x - 1 : N - 1);
    nb[1] = y * N + (x + 1 == N ? 0 : x + 1);
    nb[2] = (y ? y - 1 : N - 1) * N + x;
    nb[3] = (y + 1 == N ? 0 : y + 1) * N + x;
    bond[0] = 2 * (uint64_t)nb[0];
    bond[1] = 2 * (uint64_t)s;
    bond[2] = 2 * (uint64_t)nb[2] + 1;
    bond[3] = 2 * (uint64_t)s + 1;
}

uint32_t mpp_wolff_sweep(mpp_wolff *w, uint64_t t, mpp_app_counts *c)
{
    mpp_app_counts k = {0};
    uint32_t s0 = mpp_wolff_start(w, t);
    int8_t sigma = w->spin[s0];
    uint32_t size = 0, lo = 0;
    w->list[size++] = s0;
    w->in[s0] = 1;
    k.queue_ops++;
    while (lo < size) {
        uint32_t hi = size; /* this cycle's wavefront: list[lo .. hi) */
        k.cycles++;
        for (; lo < hi; lo++) {
            uint32_t s = w->list[lo], nb[4];
            uint64_t bond[4];
            k.queue_ops++;
            k.sites++;
            mpp_wolff_neighbours(w->N, s, nb, bond);
            for (int d = 0; d < 4; d++) {
                uint32_t u = nb[d];
                k.tests++;
                if (w->spin[u] != sigma || w->in[u])
                    continue;
                k.randoms++;
                if (mpp_wolff_bond(w, t, bond[d])) {
                    w->in[u] = 1;
                    w->list[size++] = u;
                    k.queue_ops++;
                }
            }
        }
    }
    for (uint32_t i = 0; i < size; i++) {
        w->spin[w->list[i]] = (int8_t)-sigma;
        w->in[w->list[i]] = 0;
    }
    mpp_app_counts_add(c, &k);
    return size;
}

uint32_t mpp_wolff_component(const mpp_wolff *w, uint64_t t, uint8_t *mark, uint32_t *stack)
{
    uint64_t n = (uint64_t)w->N * w->N;
    memset(mark, 0, n);
    uint32_t s0 = mpp_wolff_start(w, t), top = 0, size = 1;
    int8_t sigma = w->spin[s0];
    mark[s0] = 1;
    stack[top++] = s0;
    while (top) {
        uint32_t s = stack[--top], nb[4];
        uint64_t bond[4];
        mpp_wolff_neighbours(w->N, s, nb, bond);
        for (int d = 3; d >= 0; d--) /* the other order */
            if (!mark[nb[d]] && w->spin[nb[d]] == sigma && mpp_wolff_bond(w, t, bond[d])) {
                mark[nb[d]] = 1;
                stack[top++] = nb[d];
                size++;
            }
    }
    return size;
}

uint64_t mpp_wolff_hash(uint64_t h, const mpp_wolff *w)
{
    uint64_t n = (uint64_t)w->N * w->N;
    for (uint64_t s = 0; s < n; s++)
        h = mpp_app_hash_add(h, (uint64_t)(w->spin[s] > 0));
    return h;
}

int mpp_wolff_sequential(uint32_t N, double beta, uint64_t seed, uint32_t therm, uint32_t sweeps,
                         mpp_app_seq *out, mpp_err *err)
{
    memset(out, 0, sizeof *out);
    mpp_wolff w;
    int rc = mpp_wolff_init(&w, N, beta, seed, err);
    if (rc)
        return rc;
    for (uint32_t t = 0; t < therm; t++)
        mpp_wolff_sweep(&w, t, NULL);
    for (uint32_t t = therm; t - therm < sweeps; t++)
        out->size += mpp_wolff_sweep(&w, t, &out->counts);
    out->runs = sweeps;
    out->hash = mpp_wolff_hash(MPP_APP_HASH0, &w);
    mpp_wolff_free(&w);
    return 0;
}
