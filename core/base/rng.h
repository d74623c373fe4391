/* core/base/rng.h — deterministic random streams.
 *
 * One master seed; every stochastic component (a node's traffic source, a
 * router's routing choices, a scheduler) owns a stream derived from
 * (seed, kind, id) through splitmix64, so results never depend on the order in
 * which components run or on the number of worker threads. The generator is
 * xoshiro256** (Blackman & Vigna), small and fast; draws are only made where a
 * choice is made. All functions are hot-path inline helpers and cannot fail. */
#ifndef MPP_CORE_BASE_RNG_H
#define MPP_CORE_BASE_RNG_H

#include <stdint.h>

typedef struct mpp_rng {
    uint64_t s[4];
} mpp_rng;

/* Stream kinds: part of the derivation so streams of different components
 * never coincide. Append new kinds at the end (changing values changes every
 * result). */
enum {
    MPP_RNG_TRAFFIC = 1,   /* per source node: injection and destinations */
    MPP_RNG_ROUTER = 2,    /* per router: random routing choices */
    MPP_RNG_SOURCE = 3,    /* per source node: per-packet route state */
    MPP_RNG_PATTERN = 4,   /* per pattern: fixed random permutations */
    MPP_RNG_PLACEMENT = 5, /* logical-to-physical placement */
    MPP_RNG_SHUFFLE = 6,   /* test-only: router update order shuffling */
    MPP_RNG_WORKLOAD = 7,  /* per workload generator */
    MPP_RNG_SCHEDULER = 8, /* per scheduler */
    MPP_RNG_NODE = 9,      /* per node processor */
    MPP_RNG_PORTS = 10     /* per source node: all-port injection link choice */
};

static inline uint64_t mpp_rng_splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Seed r as the stream (seed, kind, id). */
static inline void mpp_rng_init(mpp_rng *r, uint64_t seed, uint32_t kind, uint64_t id)
{
    uint64_t x = seed ^ 0x6a09e667f3bcc909ULL;
    x = mpp_rng_splitmix(&x) ^ ((uint64_t)kind << 56) ^ (kind * 0xd1b54a32d192ed03ULL);
    x = mpp_rng_splitmix(&x) ^ id;
    x = mpp_rng_splitmix(&x);
    for (int i = 0; i < 4; i++)
        r->s[i] = mpp_rng_splitmix(&x);
}

static inline uint64_t mpp_rng_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* Next 64 uniformly random bits. */
static inline uint64_t mpp_rng_next(mpp_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = mpp_rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = mpp_rng_rotl(s[3], 45);
    return result;
}

/* Uniform integer in [0, n), n >= 1, without modulo bias (Lemire's method). */
static inline uint32_t mpp_rng_below(mpp_rng *r, uint32_t n)
{
    uint64_t m = (uint64_t)(uint32_t)(mpp_rng_next(r) >> 32) * n;
    uint32_t l = (uint32_t)m;
    if (l < n) {
        uint32_t t = (uint32_t)(-n) % n;
        while (l < t) {
            m = (uint64_t)(uint32_t)(mpp_rng_next(r) >> 32) * n;
            l = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* Uniform double in [0, 1) with 53 random bits. */
static inline double mpp_rng_double(mpp_rng *r)
{
    return (double)(mpp_rng_next(r) >> 11) * 0x1.0p-53;
}

/* The integer threshold for an event of probability p (0..1): an event
 * happens when mpp_rng_next() < threshold, exactly and without floating
 * point at draw time. p >= 1 gives UINT64_MAX (always, up to 2^-64). */
static inline uint64_t mpp_rng_threshold(double p)
{
    if (p <= 0.0)
        return 0;
    if (p >= 1.0)
        return UINT64_MAX;
    return (uint64_t)(p * 18446744073709551616.0);
}

/* Fisher-Yates shuffle of a uint32 array. */
static inline void mpp_rng_shuffle(mpp_rng *r, uint32_t *a, uint32_t n)
{
    for (uint32_t i = n; i > 1; i--) {
        uint32_t j = mpp_rng_below(r, i);
        uint32_t t = a[i - 1];
        a[i - 1] = a[j];
        a[j] = t;
    }
}

#endif
