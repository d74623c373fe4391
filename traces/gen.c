/* traces/gen.c — COM generators: random-regular and random-nonuniform
 * (see com.h; SPEC section 5, "Generators").
 *
 * Both start from the circulant pattern with offsets 1..d: C(a, b) != 0
 * when (b - a) mod n is in 1..d. The generated matrix is a row and column
 * permutation of it, M(i, j) = C(r[i], c[j]), kept as the two permutations
 * r (rows) and c (columns), so a row exchange is one swap in r and a
 * column exchange one swap in c. Permutations keep every row and column
 * count at d; only the diagonal needs care: M(i, i) != 0 exactly when
 * (c[i] - r[i]) mod n is in 1..d ("i is bad"). The mixing makes
 * n ceil(log2 n) + 8n rounds of one random row exchange and one random
 * column exchange; an exchange that leaves a bad position is repaired by
 * exchanging that position with another one chosen (scanning cyclically
 * from a random start) so that both end up good, and undone when no such
 * exchange exists. d = 0 and d = n - 1 have one possible pattern and are
 * not mixed.
 *
 * Row and column exchanges only relabel the circulant: every matrix they
 * give is isomorphic to it, so on their own they are not "otherwise
 * random" (a circulant decomposes into exactly d permutations, and greedy
 * schedulers behave differently on it than on random matrices: cgm at
 * n = 512, d = 384 needs 401 phases against 392 on matrices mixed as
 * below). The pattern is therefore also mixed by 10 x nnz random edge
 * switches, the standard Markov chain on d-regular bipartite patterns:
 * entries (a, b) and (c, e) become (a, e) and (c, b) when neither is on the
 * diagonal or already present, which keeps every row and column count.
 *
 * Random draws: the pattern from the stream (seed, MPP_RNG_WORKLOAD, 0),
 * the edge switches from (seed, MPP_RNG_WORKLOAD, 2), the non-uniform
 * sizes from (seed, MPP_RNG_WORKLOAD, 1), one per entry in
 * (src, dst) order. So random-nonuniform has the same pattern as
 * random-regular for the same (n, d, seed).
 *
 * Invariants:
 *   1. Outside exchange(), no position is bad (the diagonal is zero).
 *   2. r and c are permutations of 0..n-1.
 *   3. The result is a pure function of (n, d, units or msg_unit, seed),
 *      every row and column has exactly d non-zeros, mpp_com_check holds.
 */
#include "traces/com.h"

#include <assert.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/rng.h"

#define MAX_SIZE_UNITS 32  /* random-nonuniform: sizes 1..32 units */
#define SWITCHES_PER_ENTRY 10
#define BITMAP_MAX_N 16384 /* larger n: membership by scanning the row */

/* Is column col in row a (cols[a * d .. a * d + d - 1])? */
static bool has(const uint32_t *cols, const uint8_t *bits, uint32_t n, uint32_t d, uint32_t a,
                uint32_t col)
{
    if (bits) {
        uint64_t b = (uint64_t)a * n + col;
        return bits[b >> 3] & (1u << (b & 7));
    }
    for (uint32_t k = 0; k < d; k++)
        if (cols[(size_t)a * d + k] == col)
            return true;
    return false;
}

static void set_bit(uint8_t *bits, uint32_t n, uint32_t a, uint32_t col, bool on)
{
    if (!bits)
        return;
    uint64_t b = (uint64_t)a * n + col;
    if (on)
        bits[b >> 3] |= (uint8_t)(1u << (b & 7));
    else
        bits[b >> 3] &= (uint8_t)~(1u << (b & 7));
}

/* Mix the pattern cols[n x d] (row a's columns at a * d) by random edge
 * switches (see the header). Returns false when out of memory. */
static bool edge_switches(uint32_t *cols, uint32_t n, uint32_t d, uint64_t seed)
{
    uint8_t *bits = NULL;
    if (n <= BITMAP_MAX_N) {
        bits = calloc(((size_t)n * n + 7) / 8, 1);
        if (!bits)
            return false;
        for (uint32_t a = 0; a < n; a++)
            for (uint32_t k = 0; k < d; k++)
                set_bit(bits, n, a, cols[(size_t)a * d + k], true);
    }
    mpp_rng g;
    mpp_rng_init(&g, seed, MPP_RNG_WORKLOAD, 2);
    uint64_t tries = (uint64_t)SWITCHES_PER_ENTRY * n * d;
    for (uint64_t t = 0; t < tries; t++) {
        uint32_t a = mpp_rng_below(&g, n), c = mpp_rng_below(&g, n);
        uint32_t ka = mpp_rng_below(&g, d), kc = mpp_rng_below(&g, d);
        if (a == c)
            continue;
        uint32_t b = cols[(size_t)a * d + ka], e = cols[(size_t)c * d + kc];
        if (b == e || e == a || b == c || has(cols, bits, n, d, a, e) ||
            has(cols, bits, n, d, c, b))
            continue;
        cols[(size_t)a * d + ka] = e;
        cols[(size_t)c * d + kc] = b;
        set_bit(bits, n, a, b, false);
        set_bit(bits, n, c, e, false);
        set_bit(bits, n, a, e, true);
        set_bit(bits, n, c, b, true);
    }
    free(bits);
    return true;
}

/* Position i holds a diagonal entry. */
static int bad(const uint32_t *r, const uint32_t *c, uint32_t i, uint32_t n, uint32_t d)
{
    uint64_t off = ((uint64_t)c[i] + n - r[i]) % n;
    return off >= 1 && off <= d;
}

static void swap_u32(uint32_t *a, uint32_t i, uint32_t j)
{
    uint32_t t = a[i];
    a[i] = a[j];
    a[j] = t;
}

/* One random exchange of two positions of a (which is r or c), with the
 * diagonal repair described above; leaves no bad position (invariant 1). */
static void exchange(uint32_t *a, const uint32_t *r, const uint32_t *c, uint32_t n, uint32_t d,
                     mpp_rng *g)
{
    uint32_t i = mpp_rng_below(g, n), k = mpp_rng_below(g, n - 1);
    if (k >= i)
        k++;
    uint32_t done[3][2] = {{i, k}, {0, 0}, {0, 0}};
    int ndone = 1;
    swap_u32(a, i, k);
    const uint32_t fix[2] = {i, k};
    for (int t = 0; t < 2; t++) {
        uint32_t x = fix[t];
        if (!bad(r, c, x, n, d))
            continue;
        uint32_t y = mpp_rng_below(g, n);
        int found = 0;
        for (uint32_t s = 0; s < n; s++, y = y + 1 == n ? 0 : y + 1) {
            if (y == x)
                continue;
            swap_u32(a, x, y);
            if (!bad(r, c, x, n, d) && !bad(r, c, y, n, d)) {
                found = 1;
                break;
            }
            swap_u32(a, x, y);
        }
        if (!found) {
            while (ndone > 0) {
                ndone--;
                swap_u32(a, done[ndone][0], done[ndone][1]);
            }
            return;
        }
        done[ndone][0] = x;
        done[ndone][1] = y;
        ndone++;
    }
}

/* The d-regular pattern of (n, d, seed) into m, every entry of 1 unit. */
static int gen_pattern(mpp_com *m, uint32_t n, uint32_t d, uint64_t msg_unit, uint64_t seed,
                       mpp_err *err)
{
    memset(m, 0, sizeof *m);
    if (n == 0)
        return mpp_err_set(err, MPP_EINVAL, "n = 0: a communication matrix needs at least 1 "
                           "processor");
    if (d >= n)
        return mpp_err_set(err, MPP_EINVAL, "d = %u: expected 0..n-1 = 0..%u (non-zeros per row "
                           "and column, the diagonal is zero)", d, n - 1);
    if (n > MPP_COM_MAX_N || (uint64_t)n * d > MPP_COM_MAX_NNZ)
        return mpp_err_set(err, MPP_EINVAL,
                           "n x d = %u x %u: a matrix may have at most %u processors and %u "
                           "entries",
                           n, d, MPP_COM_MAX_N, MPP_COM_MAX_NNZ);
    int rc = mpp_com_init(m, n, msg_unit, err);
    if (rc)
        return rc;
    uint32_t *r = malloc((size_t)n * sizeof *r), *c = malloc((size_t)n * sizeof *c);
    uint32_t *cinv = malloc((size_t)n * sizeof *cinv);
    uint32_t nnz = n * d;
    m->e = nnz ? malloc((size_t)nnz * sizeof *m->e) : NULL;
    if (!r || !c || !cinv || (nnz && !m->e)) {
        rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
        goto fail;
    }
    m->cap = nnz;
    for (uint32_t i = 0; i < n; i++)
        r[i] = c[i] = i;
    if (d > 0 && d < n - 1) {
        mpp_rng g;
        mpp_rng_init(&g, seed, MPP_RNG_WORKLOAD, 0);
        uint64_t log2n = 0;
        while ((1ull << log2n) < n)
            log2n++;
        uint64_t rounds = (uint64_t)n * log2n + 8ull * n;
        for (uint64_t t = 0; t < rounds; t++) {
            exchange(r, r, c, n, d, &g);
            exchange(c, r, c, n, d, &g);
        }
    }
    for (uint32_t j = 0; j < n; j++)
        cinv[c[j]] = j;
    for (uint32_t i = 0; i < n; i++) {
        assert(!bad(r, c, i, n, d));
        for (uint32_t k = 1; k <= d; k++) {
            uint32_t j = cinv[(uint32_t)(((uint64_t)r[i] + k) % n)];
            m->e[m->nnz++] = (mpp_com_entry){i, j, 1};
        }
    }
    if (d > 0 && d < n - 1) {
        /* entries are row-major with d per row: mix their columns */
        uint32_t *cols = malloc((size_t)nnz * sizeof *cols);
        if (!cols) {
            rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
            goto fail;
        }
        for (uint32_t i = 0; i < nnz; i++)
            cols[i] = m->e[i].dst;
        if (!edge_switches(cols, n, d, seed)) {
            free(cols);
            rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
            goto fail;
        }
        for (uint32_t i = 0; i < nnz; i++)
            m->e[i].dst = cols[i];
        free(cols);
    }
    mpp_com_finish(m);
    assert(m->nnz == nnz && mpp_com_check(m));
    free(r);
    free(c);
    free(cinv);
    return 0;
fail:
    free(r);
    free(c);
    free(cinv);
    mpp_com_free(m);
    return rc;
}

int mpp_com_gen_regular(mpp_com *c, uint32_t n, uint32_t d, uint64_t units, uint64_t msg_unit,
                        uint64_t seed, mpp_err *err)
{
    memset(c, 0, sizeof *c);
    if (units == 0)
        return mpp_err_set(err, MPP_EINVAL, "units = 0: expected a message size of at least 1 "
                           "unit");
    int rc = gen_pattern(c, n, d, msg_unit, seed, err);
    if (rc)
        return rc;
    for (uint32_t i = 0; i < c->nnz; i++)
        c->e[i].units = units;
    return 0;
}

int mpp_com_gen_nonuniform(mpp_com *c, uint32_t n, uint32_t d, uint64_t msg_unit, uint64_t seed,
                           mpp_err *err)
{
    int rc = gen_pattern(c, n, d, msg_unit, seed, err);
    if (rc)
        return rc;
    mpp_rng g;
    mpp_rng_init(&g, seed, MPP_RNG_WORKLOAD, 1);
    for (uint32_t i = 0; i < c->nnz; i++)
        c->e[i].units = 1 + mpp_rng_below(&g, MAX_SIZE_UNITS);
    return 0;
}
