/* algorithms/bcast_dist.c — source distributions of s-to-p broadcasting
 * (mpp_dist_*, algorithms/bcast_dist.h; docs/broadcast.md, "Source
 * distributions").
 *
 * Every rule is a pure function of (rule, r, c, s, seed) that writes the
 * ids of the s sources, ascending, into the caller's array. The geometric
 * rules (R, C, DR, DL, E, cross, B_i_j) compute each source's cell with
 * 64-bit "evenly spaced" arithmetic, floor(j * n / m), and sort; `random`
 * draws s distinct processors by Floyd's algorithm from the stream
 * (seed, MPP_RNG_PLACEMENT, MPP_DIST_RNG_ID) into a bitmap; `list` copies,
 * sorts and checks the user's ids.
 *
 * The ideal distributions rest on one rule on a line of q slots (rows for
 * br_xy_source, the snake-ordered processors for br_lin), ideal_line(),
 * and on a checker of br_lin's halving, halving_ok():
 *
 *   halving on a range of n slots: h = ceil(n/2), f = floor(n/2); slot i
 *   (i < f) pairs with i + h; when n is odd the unpaired slot h - 1 also
 *   sends to slot n - 1; then [0, h) and [h, n) recurse, all ranges of one
 *   depth in the same step. A step is good when no pair holds two
 *   holders while another pair (of any range of that step) holds none.
 *
 *   ideal_line(q, k):
 *     k = q          every slot.
 *     k > f          A = ideal_line(h, kA) with kA = min(h, ceil(k/2)) in
 *                    the first part; the second part takes kB = k - kA
 *                    offsets: those of [0, f) not in A (smallest first),
 *                    then those in A (smallest first), so every pair of
 *                    the first step holds a source.
 *     k <= f         the deep placement at depth D: split k over the two
 *                    parts of each range, ceil to the first (never more
 *                    than a part has slots), down to the ranges of depth
 *                    D; walking those ranges left to right, the sources
 *                    of each take the next offsets 0, 1, ..., k - 1
 *                    relative to the range's start. D is the deepest
 *                    depth, from Dmax (the largest D with floor(q/2^D) >=
 *                    k) down to 2, whose placement passes halving_ok, and
 *                    D = 1 otherwise.
 *
 * Invariants:
 *   1. Arguments are checked (mpp_dist_check) before out is written; the
 *      memory taken is O(p) bytes, after p <= MPP_DIST_MAX_P is checked.
 *   2. On success out[0 .. s-1] holds s distinct ids < r * c, ascending
 *      (asserted by sorted_distinct()).
 *   3. Every placement of ideal_line() passes halving_ok() (asserted). The
 *      depth-1 placement needs no check: its offsets fold to the compact
 *      prefix [0, k) after the first step, whose pairs hold one source
 *      each; from there the holders of every range are the compact
 *      prefix [0, k') of the same k', which never makes a pair of two
 *      while another is empty (test_bcast_dist checks all q <= 300).
 */
#include "algorithms/bcast_dist.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/rng.h"
#include "core/base/units.h"

const char mpp_dist_names_help[] =
    "R, C, DR, DL, E, cross, B_i_j, random, list:ID,ID,..., ideal_xy, ideal_lin";

/* ---- helpers ------------------------------------------------------------- */

/* floor(j * n / m), the j-th of m evenly spaced positions among n. */
static uint32_t even(uint64_t j, uint64_t n, uint64_t m)
{
    return (uint32_t)(j * n / m);
}

static uint32_t ceil_div(uint32_t a, uint32_t b)
{
    return (uint32_t)(((uint64_t)a + b - 1) / b);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static void sort_u32(uint32_t *a, uint32_t n)
{
    qsort(a, n, sizeof *a, cmp_u32);
}

/* Invariant 2: strictly increasing ids below p (read by assert only). */
#ifndef NDEBUG
static bool sorted_distinct(const uint32_t *a, uint32_t n, uint32_t p)
{
    for (uint32_t i = 0; i < n; i++)
        if (a[i] >= p || (i && a[i - 1] >= a[i]))
            return false;
    return true;
}
#endif

/* The rule's name as the user writes it, for messages. */
static const char *dist_name(const mpp_dist *d, char *buf, size_t len)
{
    static const char *const names[] = {"R", "C", "DR", "DL", "E", "cross", "B_i_j",
                                        "random", "list", "ideal_xy", "ideal_lin"};
    if (d->kind == MPP_DIST_BLOCK) {
        snprintf(buf, len, "B_%lu_%lu", (unsigned long)d->bi, (unsigned long)d->bj);
        return buf;
    }
    if (d->kind < 0 || d->kind > MPP_DIST_IDEAL_LIN)
        return "?";
    return names[d->kind];
}

/* ---- parsing ------------------------------------------------------------- */

/* A whole decimal number of text[0 .. len) in [lo, hi]. */
static bool parse_u32(const char *text, size_t len, uint64_t lo, uint64_t hi, uint32_t *out)
{
    uint64_t v;
    if (!mpp_units_u64(text, len, &v) || v < lo || v > hi)
        return false;
    *out = (uint32_t)v;
    return true;
}

static int parse_block(const char *text, mpp_dist *out, mpp_err *err)
{
    const char *a = text + 2, *u = strchr(a, '_');
    if (!u || !parse_u32(a, (size_t)(u - a), 1, MPP_DIST_MAX_P, &out->bi) ||
        !parse_u32(u + 1, strlen(u + 1), 1, MPP_DIST_MAX_P, &out->bj))
        return mpp_err_set(err, MPP_EINVAL,
                           "distribution '%.80s': a block is B_i_j with i and j from 1 to %u "
                           "(e.g. B_3_4)",
                           text, MPP_DIST_MAX_P);
    out->kind = MPP_DIST_BLOCK;
    return 0;
}

static int parse_list(const char *text, mpp_dist *out, mpp_err *err)
{
    const char *ids = text + 5;
    size_t n = 1;
    for (const char *p = ids; *p; p++)
        n += *p == ',';
    if (n > MPP_DIST_MAX_P)
        return mpp_err_set(err, MPP_EINVAL, "distribution list: more than %u ids",
                           MPP_DIST_MAX_P);
    uint32_t *v = malloc(n * sizeof *v);
    if (!v)
        return mpp_err_set(err, MPP_ENOMEM, "distribution list: out of memory");
    const char *p = ids;
    for (size_t i = 0; i < n; i++) {
        size_t len = strcspn(p, ",");
        if (!parse_u32(p, len, 0, MPP_DIST_MAX_P - 1, &v[i])) {
            free(v);
            return mpp_err_set(err, MPP_EINVAL,
                               "distribution list: '%.*s' is not a processor id (0 to %u)",
                               (int)(len > 40 ? 40 : len), p, MPP_DIST_MAX_P - 1);
        }
        p += len + (p[len] == ',');
    }
    sort_u32(v, (uint32_t)n);
    for (size_t i = 1; i < n; i++)
        if (v[i - 1] == v[i]) {
            uint32_t dup = v[i];
            free(v);
            return mpp_err_set(err, MPP_EINVAL, "distribution list: processor %lu is listed twice",
                               (unsigned long)dup);
        }
    out->kind = MPP_DIST_LIST;
    out->list = v;
    out->nlist = (uint32_t)n;
    return 0;
}

int mpp_dist_parse(const char *text, mpp_dist *out, mpp_err *err)
{
    static const struct {
        const char *name;
        int kind;
    } plain[] = {
        {"R", MPP_DIST_R},         {"C", MPP_DIST_C},           {"DR", MPP_DIST_DR},
        {"DL", MPP_DIST_DL},       {"E", MPP_DIST_E},           {"cross", MPP_DIST_CROSS},
        {"random", MPP_DIST_RANDOM}, {"ideal_xy", MPP_DIST_IDEAL_XY},
        {"ideal_lin", MPP_DIST_IDEAL_LIN},
    };
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
        if (!strcmp(text, plain[i].name)) {
            out->kind = plain[i].kind;
            return 0;
        }
    if (!strncmp(text, "B_", 2))
        return parse_block(text, out, err);
    if (!strncmp(text, "list:", 5))
        return parse_list(text, out, err);
    return mpp_err_set(err, MPP_EINVAL, "unknown distribution '%.80s', valid: %s", text,
                       mpp_dist_names_help);
}

void mpp_dist_free(mpp_dist *d)
{
    if (!d)
        return;
    free(d->list);
    d->list = NULL;
    d->nlist = 0;
}

/* ---- checks -------------------------------------------------------------- */

/* The checks every rule shares (mesh size, s) and those of B_i_j and list
 * except duplicates (invariant 1: nothing allocated, nothing written). */
static int dist_check(const mpp_dist *d, uint32_t r, uint32_t c, uint32_t s, mpp_err *err)
{
    char buf[64];
    const char *name = dist_name(d, buf, sizeof buf);
    if (d->kind < MPP_DIST_R || d->kind > MPP_DIST_IDEAL_LIN)
        return mpp_err_set(err, MPP_EINVAL, "unknown distribution kind %d", d->kind);
    if (r < 1 || c < 1)
        return mpp_err_set(err, MPP_EINVAL, "distribution %s: a %lu x %lu mesh has no processors",
                           name, (unsigned long)r, (unsigned long)c);
    uint64_t p = (uint64_t)r * c;
    if (p > MPP_DIST_MAX_P)
        return mpp_err_set(err, MPP_EINVAL,
                           "distribution %s: a %lu x %lu mesh has more than %u processors", name,
                           (unsigned long)r, (unsigned long)c, MPP_DIST_MAX_P);
    if (s == 0)
        return mpp_err_set(err, MPP_EINVAL, "distribution %s: s = 0 sources", name);
    if (s > p)
        return mpp_err_set(err, MPP_EINVAL,
                           "distribution %s: s = %lu sources on a %lu x %lu mesh (%lu processors)",
                           name, (unsigned long)s, (unsigned long)r, (unsigned long)c,
                           (unsigned long)p);
    if (d->kind == MPP_DIST_BLOCK) {
        if (d->bi > r || d->bj > c)
            return mpp_err_set(err, MPP_EINVAL, "distribution %s does not fit on a %lu x %lu mesh",
                               name, (unsigned long)r, (unsigned long)c);
        if ((uint64_t)d->bi * d->bj != s)
            return mpp_err_set(err, MPP_EINVAL, "distribution %s holds %lu sources, not %lu",
                               name, (unsigned long)((uint64_t)d->bi * d->bj),
                               (unsigned long)s);
    }
    if (d->kind == MPP_DIST_LIST) {
        if (d->nlist != s || (s && !d->list))
            return mpp_err_set(err, MPP_EINVAL,
                               "distribution list: %lu processors listed, not s = %lu",
                               (unsigned long)d->nlist, (unsigned long)s);
        for (uint32_t i = 0; i < s; i++)
            if (d->list[i] >= p)
                return mpp_err_set(err, MPP_EINVAL,
                                   "distribution list: processor %lu is not on the %lu x %lu mesh",
                                   (unsigned long)d->list[i], (unsigned long)r,
                                   (unsigned long)c);
    }
    return 0;
}

int mpp_dist_check(const mpp_dist *d, uint32_t r, uint32_t c, uint32_t s, mpp_err *err)
{
    int rc = dist_check(d, r, c, s, err);
    if (rc || d->kind != MPP_DIST_LIST)
        return rc;
    uint32_t p = r * c;
    unsigned char *seen = calloc((size_t)p / 8 + 1, 1);
    if (!seen)
        return mpp_err_set(err, MPP_ENOMEM, "distribution list: out of memory");
    for (uint32_t i = 0; i < s && !rc; i++) {
        uint32_t id = d->list[i];
        if (seen[id / 8] & (1u << (id % 8)))
            rc = mpp_err_set(err, MPP_EINVAL, "distribution list: processor %lu is listed twice",
                             (unsigned long)id);
        seen[id / 8] |= (unsigned char)(1u << (id % 8));
    }
    free(seen);
    return rc;
}

/* ---- the geometric rules ------------------------------------------------- */

/* R (rows = true) and C: i = ceil(s / W) lines of W cells among L, evenly
 * spaced; line j takes s / i sources, one more for j < s % i; inside a
 * line, evenly spaced cells. Line j of `lines` (when not NULL) replaces the
 * evenly spaced line index (the ideal of br_xy_source). */
static void place_lines(uint32_t r, uint32_t c, uint32_t s, bool rows, const uint32_t *lines,
                        uint32_t *out)
{
    uint32_t L = rows ? r : c, W = rows ? c : r;
    uint32_t i = ceil_div(s, W), n = 0;
    for (uint32_t j = 0; j < i; j++) {
        uint32_t line = lines ? lines[j] : even(j, L, i);
        uint32_t nj = s / i + (j < s % i);
        for (uint32_t t = 0; t < nj; t++) {
            uint32_t pos = even(t, W, nj);
            out[n++] = rows ? line * c + pos : pos * c + line;
        }
    }
    assert(n == s);
}

/* DR and DL: diagonals k = {(x, (x + k) mod c)} when r <= c, else
 * {((y + k) mod r, y)}; DL mirrors the column, y -> c - 1 - y. */
static void place_diag(uint32_t r, uint32_t c, uint32_t s, bool left, uint32_t *out)
{
    bool wide = r <= c;
    uint32_t len = wide ? r : c, span = wide ? c : r; /* cells per diagonal, diagonals */
    uint32_t i = ceil_div(s, len), n = 0;
    for (uint32_t j = 0; j < i; j++) {
        uint32_t k = even(j, span, i);
        uint32_t nj = s / i + (j < s % i);
        for (uint32_t t = 0; t < nj; t++) {
            uint32_t a = even(t, len, nj), b = (uint32_t)(((uint64_t)a + k) % span);
            uint32_t x = wide ? a : b, y = wide ? b : a;
            out[n++] = x * c + (left ? c - 1 - y : y);
        }
    }
    assert(n == s);
}

static void place_equal(uint32_t r, uint32_t c, uint32_t s, uint32_t *out)
{
    uint64_t p = (uint64_t)r * c;
    for (uint32_t j = 0; j < s; j++)
        out[j] = even(j, p, s);
}

/* Whether x is one of the i evenly spaced indices among n: the smallest j
 * with floor(j * n / i) >= x is ceil(x * i / n). */
static bool is_even(uint32_t x, uint32_t n, uint32_t i)
{
    uint64_t j = ((uint64_t)x * i + n - 1) / n;
    return j < i && even(j, n, i) == x;
}

/* cross: the smallest i whose i rows and i columns hold s cells (i <=
 * min(r, c) always suffices: i = min(r, c) covers the mesh); s of those
 * cells at evenly spaced ranks in row-major order. */
static void place_cross(uint32_t r, uint32_t c, uint32_t s, uint32_t *out)
{
    uint32_t i = 1;
    uint64_t cells;
    for (;; i++) {
        cells = (uint64_t)i * c + (uint64_t)i * r - (uint64_t)i * i;
        if (cells >= s)
            break;
    }
    uint64_t rank = 0;
    uint32_t n = 0;
    for (uint32_t x = 0; x < r && n < s; x++) {
        bool full = is_even(x, r, i);
        for (uint32_t y = 0; y < c && n < s; y++) {
            if (!full && !is_even(y, c, i))
                continue;
            if (rank == even(n, cells, s))
                out[n++] = x * c + y;
            rank++;
        }
    }
    assert(n == s);
}

static void place_block(uint32_t c, uint32_t bi, uint32_t bj, uint32_t *out)
{
    uint32_t n = 0;
    for (uint32_t x = 0; x < bi; x++)
        for (uint32_t y = 0; y < bj; y++)
            out[n++] = x * c + y;
}

/* s distinct processors of p by Floyd's algorithm (one draw each), listed
 * ascending from a bitmap. */
static int place_random(uint32_t p, uint32_t s, uint64_t seed, uint32_t *out, mpp_err *err)
{
    unsigned char *bit = calloc((size_t)p / 8 + 1, 1);
    if (!bit)
        return mpp_err_set(err, MPP_ENOMEM, "distribution random: out of memory");
    mpp_rng rng;
    mpp_rng_init(&rng, seed, MPP_RNG_PLACEMENT, MPP_DIST_RNG_ID);
    for (uint32_t j = p - s; j < p; j++) {
        uint32_t t = mpp_rng_below(&rng, j + 1);
        if (bit[t / 8] & (1u << (t % 8)))
            t = j;
        bit[t / 8] |= (unsigned char)(1u << (t % 8));
    }
    uint32_t n = 0;
    for (uint32_t id = 0; id < p; id++)
        if (bit[id / 8] & (1u << (id % 8)))
            out[n++] = id;
    assert(n == s);
    free(bit);
    return 0;
}

/* ---- the ideal distributions --------------------------------------------- */

/* One step of br_lin's halving at depth `depth` of the range [a, a + n):
 * counts into *two / *none whether a pair held two holders / none, then
 * updates hold in place (pairs are disjoint; the unpaired slot h - 1 is
 * read after the pairs, which never write it). Returns whether a range of
 * that depth had a pair. */
static bool halving_step(unsigned char *hold, uint32_t a, uint32_t n, uint32_t depth, bool *two,
                         bool *none)
{
    if (n < 2)
        return false;
    uint32_t h = n - n / 2, f = n / 2;
    if (depth) {
        bool l = halving_step(hold, a, h, depth - 1, two, none);
        return halving_step(hold, a + h, f, depth - 1, two, none) || l;
    }
    for (uint32_t i = 0; i < f; i++) {
        int k = hold[a + i] + hold[a + i + h];
        *two |= k == 2;
        *none |= k == 0;
        if (k)
            hold[a + i] = hold[a + i + h] = 1;
    }
    if (n % 2 && hold[a + h - 1])
        hold[a + n - 1] = 1;
    return true;
}

/* Whether the k slots pos[] of a line of q make every step of br_lin's
 * halving good (no pair of two while another pair holds none). hold:
 * scratch of q bytes. O(q log q). */
static bool halving_ok(uint32_t q, const uint32_t *pos, uint32_t k, unsigned char *hold)
{
    memset(hold, 0, q);
    for (uint32_t i = 0; i < k; i++)
        hold[pos[i]] = 1;
    for (uint32_t depth = 0;; depth++) {
        bool two = false, none = false;
        if (!halving_step(hold, 0, q, depth, &two, &none))
            return true;
        if (two && none)
            return false;
    }
}

/* The deep placement of k sources on [a, a + n) down to `depth` (see the
 * top of the file); *o is the next offset, pos[*m] the next slot. */
static void deep_place(uint32_t a, uint32_t n, uint32_t k, uint32_t depth, uint32_t *o,
                       uint32_t *pos, uint32_t *m)
{
    if (!k)
        return;
    if (!depth) {
        for (uint32_t t = 0; t < k; t++)
            pos[(*m)++] = a + (*o)++;
        return;
    }
    uint32_t h = n - n / 2, ka = (k + 1) / 2 < h ? (k + 1) / 2 : h;
    deep_place(a, h, ka, depth - 1, o, pos, m);
    deep_place(a + h, n / 2, k - ka, depth - 1, o, pos, m);
}

/* The ideal slots of k sources on a line of q into pos[0 .. k-1] (not
 * sorted); scratch: q bytes. */
static void ideal_line(uint32_t q, uint32_t k, uint32_t *pos, unsigned char *scratch)
{
    if (k == 0)
        return;
    if (k >= q) {
        for (uint32_t i = 0; i < q; i++)
            pos[i] = i;
        return;
    }
    uint32_t h = q - q / 2, f = q / 2;
    if (k > f) {
        uint32_t ka = (k + 1) / 2 < h ? (k + 1) / 2 : h, m = ka;
        ideal_line(h, ka, pos, scratch);
        memset(scratch, 0, f);
        for (uint32_t t = 0; t < ka; t++)
            if (pos[t] < f)
                scratch[pos[t]] = 1;
        for (int used = 0; used < 2; used++)
            for (uint32_t b = 0; b < f && m < k; b++)
                if (scratch[b] == used)
                    pos[m++] = h + b;
        assert(m == k);
        return;
    }
    uint32_t dmax = 1;
    while ((q >> (dmax + 1)) >= k)
        dmax++;
    for (uint32_t depth = dmax; depth >= 1; depth--) {
        uint32_t o = 0, m = 0;
        deep_place(0, q, k, depth, &o, pos, &m);
        assert(m == k);
        if (depth == 1 || halving_ok(q, pos, k, scratch))
            break;
    }
    assert(halving_ok(q, pos, k, scratch)); /* invariant 3 */
}

int mpp_dist_ideal(int kind, uint32_t r, uint32_t c, uint32_t s, uint32_t *out, mpp_err *err)
{
    mpp_dist d = {.kind = kind};
    if (kind != MPP_DIST_IDEAL_XY && kind != MPP_DIST_IDEAL_LIN)
        return mpp_err_set(err, MPP_EINVAL, "no ideal distribution of kind %d", kind);
    int rc = dist_check(&d, r, c, s, err);
    if (rc)
        return rc;
    uint32_t p = r * c;
    bool lin = kind == MPP_DIST_IDEAL_LIN, rows = r <= c;
    uint32_t q = lin ? p : rows ? r : c;
    uint32_t k = lin ? s : ceil_div(s, rows ? c : r);
    unsigned char *scratch = malloc(q);
    uint32_t *lines = lin ? out : malloc((size_t)k * sizeof *lines);
    if (!scratch || !lines) {
        free(scratch);
        if (!lin)
            free(lines);
        return mpp_err_set(err, MPP_ENOMEM, "distribution %s: out of memory",
                           lin ? "ideal_lin" : "ideal_xy");
    }
    ideal_line(q, k, lines, scratch);
    sort_u32(lines, k);
    if (lin) {
        /* snake order: line slot L is row L / c, left to right on even
         * rows, right to left on odd ones */
        for (uint32_t j = 0; j < s; j++) {
            uint32_t x = out[j] / c, o = out[j] % c;
            out[j] = x * c + (x % 2 ? c - 1 - o : o);
        }
        sort_u32(out, s);
    } else {
        place_lines(r, c, s, rows, lines, out);
        sort_u32(out, s);
        free(lines);
    }
    free(scratch);
    assert(sorted_distinct(out, s, p));
    return 0;
}

/* ---- placing ------------------------------------------------------------- */

int mpp_dist_place(const mpp_dist *d, uint32_t r, uint32_t c, uint32_t s, uint64_t seed,
                   uint32_t *out, mpp_err *err)
{
    int rc = mpp_dist_check(d, r, c, s, err);
    if (rc)
        return rc;
    uint32_t p = r * c;
    switch (d->kind) {
    case MPP_DIST_R:
    case MPP_DIST_C:
        place_lines(r, c, s, d->kind == MPP_DIST_R, NULL, out);
        break;
    case MPP_DIST_DR:
    case MPP_DIST_DL:
        place_diag(r, c, s, d->kind == MPP_DIST_DL, out);
        break;
    case MPP_DIST_E:
        place_equal(r, c, s, out);
        break;
    case MPP_DIST_CROSS:
        place_cross(r, c, s, out);
        break;
    case MPP_DIST_BLOCK:
        place_block(c, d->bi, d->bj, out);
        break;
    case MPP_DIST_RANDOM:
        return place_random(p, s, seed, out, err);
    case MPP_DIST_LIST:
        memcpy(out, d->list, (size_t)s * sizeof *out); /* no duplicates: checked */
        break;
    default:
        return mpp_dist_ideal(d->kind, r, c, s, out, err);
    }
    sort_u32(out, s);
    assert(sorted_distinct(out, s, p));
    return 0;
}

/* ---- drawing ------------------------------------------------------------- */

void mpp_dist_draw(uint32_t r, uint32_t c, const uint32_t *src, uint32_t n, mpp_sb *sb)
{
    size_t base = sb->len;
    for (uint32_t x = 0; x < r; x++)
        for (uint32_t y = 0; y < c; y++)
            mpp_sb_add(sb, y + 1 < c ? ". " : ".\n");
    if (!mpp_sb_ok(sb))
        return;
    uint64_t p = (uint64_t)r * c;
    for (uint32_t i = 0; i < n; i++)
        if (src[i] < p)
            sb->s[base + 2 * (size_t)src[i]] = 'S';
}
