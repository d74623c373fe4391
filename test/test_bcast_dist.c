/* test/test_bcast_dist.c — source distributions of s-to-p broadcasting
 * (algorithms/bcast_dist.c).
 *
 * 1. Pinned placements: the exact ids of every distribution used by the
 *    broadcast experiments (docs/broadcast.md), computed from the issue's
 *    definitions by an independent reimplementation (a Python script, not
 *    the C code) and written here as literal lists.
 * 2. Every geometric rule against a second, independent reimplementation
 *    in this file (a grid of marks scanned in row-major order) for every
 *    r, c in 1..12 and every s.
 * 3. The ideal distributions: br_lin's halving simulated here with an
 *    explicit list of ranges per step, and "no pair holds two sources
 *    while another pair of the step holds none" demanded at every step for
 *    every r, c in 1..16 and every s (ideal_lin on the snake, ideal_xy on
 *    the rows or columns), for lines of 1..300 slots and every k; ideal_xy
 *    is a row (column) distribution with R's counts; 10 x 10 with two
 *    source rows gives rows 0 and 6; the checker itself refuses R_2 and
 *    DR_1 on 10 x 10 (the paper's examples).
 * 4. random: distinct, ascending, a function of the seed.
 * 5. Errors: each failure is MPP_EINVAL with a message naming the rule.
 * 6. Parsing, and the drawing. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/bcast_dist.h"
#include "core/base/strbuf.h"
#include "test/testutil.h"

/* ---- 1. pinned placements ------------------------------------------------ */

typedef struct pin {
    const char *dist;
    uint32_t r, c, s;
    const char *ids; /* the ids, ascending, separated by spaces */
} pin;

/* Generated from the definitions by an independent script; the cases of
 * the experiments: 10x10 E at several s, each rule at s = 30 on 10x10, DR
 * with sqrt(p) sources on 2x2..16x16, DR s = 5, 10, 20, 40 on 10x10, E
 * with s = 8, 15, 30 on 4x30, 6x20, 8x15, 10x12, R C E DR cross on 10x10
 * s = 20 and 15x16 s = 58, cross s = 15 on 8x8, the ideal distributions
 * of 10x10 s=20, 15x16 s=58, 8x8 s=15, 4x8 s=8 and s=7, and every rule on
 * 1x7, 7x1 and 1x1 at s = 1, a middle s and s = p. */
static const pin pins[] = {
    {"E", 10, 10, 1,
      "0"},
    {"E", 10, 10, 2,
      "0 50"},
    {"E", 10, 10, 3,
      "0 33 66"},
    {"E", 10, 10, 7,
      "0 14 28 42 57 71 85"},
    {"E", 10, 10, 30,
      "0 3 6 10 13 16 20 23 26 30 33 36 40 43 46 50 53 56 60 63 66 70 73 76 "
      "80 83 86 90 93 96"},
    {"E", 10, 10, 33,
      "0 3 6 9 12 15 18 21 24 27 30 33 36 39 42 45 48 51 54 57 60 63 66 69 72 "
      "75 78 81 84 87 90 93 96"},
    {"E", 10, 10, 50,
      "0 2 4 6 8 10 12 14 16 18 20 22 24 26 28 30 32 34 36 38 40 42 44 46 48 "
      "50 52 54 56 58 60 62 64 66 68 70 72 74 76 78 80 82 84 86 88 90 92 94 "
      "96 98"},
    {"E", 10, 10, 64,
      "0 1 3 4 6 7 9 10 12 14 15 17 18 20 21 23 25 26 28 29 31 32 34 35 37 39 "
      "40 42 43 45 46 48 50 51 53 54 56 57 59 60 62 64 65 67 68 70 71 73 75 "
      "76 78 79 81 82 84 85 87 89 90 92 93 95 96 98"},
    {"E", 10, 10, 99,
      "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 "
      "27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 "
      "50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 "
      "73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 "
      "96 97 98"},
    {"E", 10, 10, 100,
      "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 "
      "27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 "
      "50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 "
      "73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 "
      "96 97 98 99"},
    {"R", 10, 10, 30,
      "0 1 2 3 4 5 6 7 8 9 30 31 32 33 34 35 36 37 38 39 60 61 62 63 64 65 66 "
      "67 68 69"},
    {"C", 10, 10, 30,
      "0 3 6 10 13 16 20 23 26 30 33 36 40 43 46 50 53 56 60 63 66 70 73 76 "
      "80 83 86 90 93 96"},
    {"DR", 10, 10, 30,
      "0 3 6 11 14 17 22 25 28 33 36 39 40 44 47 51 55 58 62 66 69 70 73 77 "
      "81 84 88 92 95 99"},
    {"DL", 10, 10, 30,
      "3 6 9 12 15 18 21 24 27 30 33 36 42 45 49 51 54 58 60 63 67 72 76 79 "
      "81 85 88 90 94 97"},
    {"cross", 10, 10, 30,
      "0 1 2 3 4 6 7 8 9 10 20 25 30 35 40 50 51 52 53 54 56 57 58 59 60 70 "
      "75 80 85 90"},
    {"DR", 2, 2, 2,
      "0 3"},
    {"DR", 3, 3, 3,
      "0 4 8"},
    {"DR", 4, 4, 4,
      "0 5 10 15"},
    {"DR", 5, 5, 5,
      "0 6 12 18 24"},
    {"DR", 6, 6, 6,
      "0 7 14 21 28 35"},
    {"DR", 7, 7, 7,
      "0 8 16 24 32 40 48"},
    {"DR", 8, 8, 8,
      "0 9 18 27 36 45 54 63"},
    {"DR", 9, 9, 9,
      "0 10 20 30 40 50 60 70 80"},
    {"DR", 10, 10, 10,
      "0 11 22 33 44 55 66 77 88 99"},
    {"DR", 11, 11, 11,
      "0 12 24 36 48 60 72 84 96 108 120"},
    {"DR", 12, 12, 12,
      "0 13 26 39 52 65 78 91 104 117 130 143"},
    {"DR", 13, 13, 13,
      "0 14 28 42 56 70 84 98 112 126 140 154 168"},
    {"DR", 14, 14, 14,
      "0 15 30 45 60 75 90 105 120 135 150 165 180 195"},
    {"DR", 15, 15, 15,
      "0 16 32 48 64 80 96 112 128 144 160 176 192 208 224"},
    {"DR", 16, 16, 16,
      "0 17 34 51 68 85 102 119 136 153 170 187 204 221 238 255"},
    {"DR", 10, 10, 5,
      "0 22 44 66 88"},
    {"DR", 10, 10, 20,
      "0 5 11 16 22 27 33 38 44 49 50 55 61 66 72 77 83 88 94 99"},
    {"DR", 10, 10, 40,
      "0 2 5 7 11 13 16 18 22 24 27 29 30 33 35 38 41 44 46 49 50 52 55 57 61 "
      "63 66 68 72 74 77 79 80 83 85 88 91 94 96 99"},
    {"E", 4, 30, 8,
      "0 15 30 45 60 75 90 105"},
    {"E", 4, 30, 15,
      "0 8 16 24 32 40 48 56 64 72 80 88 96 104 112"},
    {"E", 4, 30, 30,
      "0 4 8 12 16 20 24 28 32 36 40 44 48 52 56 60 64 68 72 76 80 84 88 92 "
      "96 100 104 108 112 116"},
    {"E", 6, 20, 8,
      "0 15 30 45 60 75 90 105"},
    {"E", 6, 20, 15,
      "0 8 16 24 32 40 48 56 64 72 80 88 96 104 112"},
    {"E", 6, 20, 30,
      "0 4 8 12 16 20 24 28 32 36 40 44 48 52 56 60 64 68 72 76 80 84 88 92 "
      "96 100 104 108 112 116"},
    {"E", 8, 15, 8,
      "0 15 30 45 60 75 90 105"},
    {"E", 8, 15, 15,
      "0 8 16 24 32 40 48 56 64 72 80 88 96 104 112"},
    {"E", 8, 15, 30,
      "0 4 8 12 16 20 24 28 32 36 40 44 48 52 56 60 64 68 72 76 80 84 88 92 "
      "96 100 104 108 112 116"},
    {"E", 10, 12, 8,
      "0 15 30 45 60 75 90 105"},
    {"E", 10, 12, 15,
      "0 8 16 24 32 40 48 56 64 72 80 88 96 104 112"},
    {"E", 10, 12, 30,
      "0 4 8 12 16 20 24 28 32 36 40 44 48 52 56 60 64 68 72 76 80 84 88 92 "
      "96 100 104 108 112 116"},
    {"R", 10, 10, 20,
      "0 1 2 3 4 5 6 7 8 9 50 51 52 53 54 55 56 57 58 59"},
    {"R", 15, 16, 58,
      "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 48 49 50 51 52 53 54 55 56 57 58 59 "
      "60 61 62 112 113 114 115 116 117 118 120 121 122 123 124 125 126 176 "
      "177 178 179 180 181 182 184 185 186 187 188 189 190"},
    {"C", 10, 10, 20,
      "0 5 10 15 20 25 30 35 40 45 50 55 60 65 70 75 80 85 90 95"},
    {"C", 15, 16, 58,
      "0 4 8 12 16 20 24 28 32 36 40 44 48 52 56 60 64 68 72 76 80 84 88 92 "
      "96 100 104 108 112 116 120 124 128 132 136 140 144 148 152 156 160 164 "
      "168 172 176 180 184 188 192 196 200 204 208 212 216 220 224 228"},
    {"E", 10, 10, 20,
      "0 5 10 15 20 25 30 35 40 45 50 55 60 65 70 75 80 85 90 95"},
    {"E", 15, 16, 58,
      "0 4 8 12 16 20 24 28 33 37 41 45 49 53 57 62 66 70 74 78 82 86 91 95 "
      "99 103 107 111 115 120 124 128 132 136 140 144 148 153 157 161 165 169 "
      "173 177 182 186 190 194 198 202 206 211 215 219 223 227 231 235"},
    {"DR", 15, 16, 58,
      "0 4 8 12 17 21 25 29 34 38 42 46 51 55 59 63 64 68 72 76 81 85 89 93 "
      "98 102 106 110 115 119 123 127 128 132 136 140 145 149 153 157 162 166 "
      "170 174 179 183 187 191 192 196 200 204 209 213 217 221 226 238"},
    {"cross", 10, 10, 20,
      "0 1 3 5 7 9 10 20 30 40 50 51 53 55 57 59 60 70 80 90"},
    {"cross", 15, 16, 58,
      "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 24 32 40 48 56 64 72 80 88 96 "
      "104 112 113 114 115 116 117 118 119 120 121 122 123 124 125 126 127 "
      "128 136 144 152 160 168 176 184 192 200 208 216 224 232"},
    {"cross", 8, 8, 15,
      "0 1 2 3 4 5 6 7 8 16 24 32 40 48 56"},
    {"ideal_xy", 10, 10, 20,
      "0 1 2 3 4 5 6 7 8 9 60 61 62 63 64 65 66 67 68 69"},
    {"ideal_xy", 15, 16, 58,
      "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 16 17 18 19 20 21 22 23 24 25 26 27 "
      "28 29 30 160 161 162 163 164 165 166 168 169 170 171 172 173 174 176 "
      "177 178 179 180 181 182 184 185 186 187 188 189 190"},
    {"ideal_xy", 8, 8, 15,
      "0 1 2 3 4 5 6 7 40 41 42 43 44 45 46"},
    {"ideal_xy", 4, 8, 8,
      "0 1 2 3 4 5 6 7"},
    {"ideal_xy", 4, 8, 7,
      "0 1 2 3 4 5 6"},
    {"ideal_lin", 10, 10, 20,
      "0 1 2 3 4 35 36 37 38 39 60 61 62 63 64 95 96 97 98 99"},
    {"ideal_lin", 15, 16, 58,
      "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 75 76 77 78 79 87 88 89 90 91 92 93 "
      "94 95 144 145 146 147 148 149 150 151 152 153 154 160 161 162 163 224 "
      "225 226 227 228 229 230 231 232 233 234 235 236 237"},
    {"ideal_lin", 8, 8, 15,
      "0 1 2 3 20 21 22 23 44 45 46 47 57 58 59"},
    {"ideal_lin", 4, 8, 8,
      "0 1 12 13 20 21 24 25"},
    {"ideal_lin", 4, 8, 7,
      "0 1 12 13 20 21 25"},
    {"R", 1, 7, 1,
      "0"},
    {"C", 1, 7, 1,
      "0"},
    {"DR", 1, 7, 1,
      "0"},
    {"DL", 1, 7, 1,
      "6"},
    {"E", 1, 7, 1,
      "0"},
    {"cross", 1, 7, 1,
      "0"},
    {"ideal_xy", 1, 7, 1,
      "0"},
    {"ideal_lin", 1, 7, 1,
      "0"},
    {"R", 1, 7, 4,
      "0 1 3 5"},
    {"C", 1, 7, 4,
      "0 1 3 5"},
    {"DR", 1, 7, 4,
      "0 1 3 5"},
    {"DL", 1, 7, 4,
      "1 3 5 6"},
    {"E", 1, 7, 4,
      "0 1 3 5"},
    {"cross", 1, 7, 4,
      "0 1 3 5"},
    {"ideal_xy", 1, 7, 4,
      "0 1 3 5"},
    {"ideal_lin", 1, 7, 4,
      "0 3 5 6"},
    {"R", 1, 7, 7,
      "0 1 2 3 4 5 6"},
    {"C", 1, 7, 7,
      "0 1 2 3 4 5 6"},
    {"DR", 1, 7, 7,
      "0 1 2 3 4 5 6"},
    {"DL", 1, 7, 7,
      "0 1 2 3 4 5 6"},
    {"E", 1, 7, 7,
      "0 1 2 3 4 5 6"},
    {"cross", 1, 7, 7,
      "0 1 2 3 4 5 6"},
    {"ideal_xy", 1, 7, 7,
      "0 1 2 3 4 5 6"},
    {"ideal_lin", 1, 7, 7,
      "0 1 2 3 4 5 6"},
    {"B_1_7", 1, 7, 7,
      "0 1 2 3 4 5 6"},
    {"R", 7, 1, 1,
      "0"},
    {"C", 7, 1, 1,
      "0"},
    {"DR", 7, 1, 1,
      "0"},
    {"DL", 7, 1, 1,
      "0"},
    {"E", 7, 1, 1,
      "0"},
    {"cross", 7, 1, 1,
      "0"},
    {"ideal_xy", 7, 1, 1,
      "0"},
    {"ideal_lin", 7, 1, 1,
      "0"},
    {"R", 7, 1, 4,
      "0 1 3 5"},
    {"C", 7, 1, 4,
      "0 1 3 5"},
    {"DR", 7, 1, 4,
      "0 1 3 5"},
    {"DL", 7, 1, 4,
      "0 1 3 5"},
    {"E", 7, 1, 4,
      "0 1 3 5"},
    {"cross", 7, 1, 4,
      "0 1 3 5"},
    {"ideal_xy", 7, 1, 4,
      "0 1 3 5"},
    {"ideal_lin", 7, 1, 4,
      "0 3 5 6"},
    {"R", 7, 1, 7,
      "0 1 2 3 4 5 6"},
    {"C", 7, 1, 7,
      "0 1 2 3 4 5 6"},
    {"DR", 7, 1, 7,
      "0 1 2 3 4 5 6"},
    {"DL", 7, 1, 7,
      "0 1 2 3 4 5 6"},
    {"E", 7, 1, 7,
      "0 1 2 3 4 5 6"},
    {"cross", 7, 1, 7,
      "0 1 2 3 4 5 6"},
    {"ideal_xy", 7, 1, 7,
      "0 1 2 3 4 5 6"},
    {"ideal_lin", 7, 1, 7,
      "0 1 2 3 4 5 6"},
    {"B_7_1", 7, 1, 7,
      "0 1 2 3 4 5 6"},
    {"R", 1, 1, 1,
      "0"},
    {"C", 1, 1, 1,
      "0"},
    {"DR", 1, 1, 1,
      "0"},
    {"DL", 1, 1, 1,
      "0"},
    {"E", 1, 1, 1,
      "0"},
    {"cross", 1, 1, 1,
      "0"},
    {"ideal_xy", 1, 1, 1,
      "0"},
    {"ideal_lin", 1, 1, 1,
      "0"},
    {"B_1_1", 1, 1, 1,
      "0"},
};

/* Place `dist` and compare with the literal list. */
static void check_pin(const pin *pc)
{
    mpp_dist d;
    mpp_err err;
    if (mpp_dist_parse(pc->dist, &d, &err)) {
        CHECKF(0, "parse %s: %s", pc->dist, err.msg);
        return;
    }
    uint32_t *got = calloc(pc->s, sizeof *got), *want = calloc(pc->s, sizeof *want);
    uint32_t n = 0;
    for (const char *p = pc->ids; *p;) {
        char *end;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p)
            break;
        if (n < pc->s)
            want[n] = (uint32_t)v;
        n++;
        p = end;
    }
    CHECKF(n == pc->s, "%s %ux%u s=%u: the pinned list has %u ids", pc->dist, pc->r, pc->c,
           pc->s, n);
    int rc = mpp_dist_place(&d, pc->r, pc->c, pc->s, 1, got, &err);
    CHECKF(rc == 0, "%s %ux%u s=%u: %s", pc->dist, pc->r, pc->c, pc->s, err.msg);
    for (uint32_t i = 0; !rc && i < pc->s && i < n; i++)
        if (got[i] != want[i]) {
            CHECKF(0, "%s %ux%u s=%u: id %u is %u, expected %u", pc->dist, pc->r, pc->c, pc->s,
                   i, got[i], want[i]);
            break;
        }
    free(got);
    free(want);
    mpp_dist_free(&d);
}

static void test_pins(void)
{
    for (size_t i = 0; i < sizeof pins / sizeof pins[0]; i++)
        check_pin(&pins[i]);
}

/* ---- 2. a second reimplementation of the geometric rules ----------------- */

static uint32_t ev(uint64_t j, uint64_t n, uint64_t m)
{
    return (uint32_t)(j * n / m);
}

/* Mark the cells of `dist` on an r x c grid, then list the marked ids in
 * row-major order into out; returns how many (s unless cells collide). */
static uint32_t ref_place(const char *dist, uint32_t r, uint32_t c, uint32_t s, uint32_t *out)
{
    uint32_t p = r * c, n = 0;
    unsigned char *g = calloc(p, 1);
    if (!strcmp(dist, "R") || !strcmp(dist, "C")) {
        bool rows = dist[0] == 'R';
        uint32_t lines = rows ? r : c, len = rows ? c : r, i = (s + len - 1) / len;
        for (uint32_t j = 0; j < i; j++) {
            uint32_t line = ev(j, lines, i), cnt = s / i + (j < s % i);
            for (uint32_t t = 0; t < cnt; t++) {
                uint32_t pos = ev(t, len, cnt);
                g[rows ? line * c + pos : pos * c + line] = 1;
            }
        }
    } else if (!strcmp(dist, "DR") || !strcmp(dist, "DL")) {
        bool left = dist[1] == 'L';
        uint32_t i = r <= c ? (s + r - 1) / r : (s + c - 1) / c;
        for (uint32_t j = 0; j < i; j++) {
            uint32_t cnt = s / i + (j < s % i);
            for (uint32_t t = 0; t < cnt; t++) {
                uint32_t x, y;
                if (r <= c) {
                    x = ev(t, r, cnt);
                    y = (x + ev(j, c, i)) % c;
                } else {
                    y = ev(t, c, cnt);
                    x = (y + ev(j, r, i)) % r;
                }
                g[x * c + (left ? c - 1 - y : y)] = 1;
            }
        }
    } else if (!strcmp(dist, "E")) {
        for (uint32_t j = 0; j < s; j++)
            g[ev(j, p, s)] = 1;
    } else if (!strcmp(dist, "cross")) {
        unsigned char *rowm = calloc(r, 1), *colm = calloc(c, 1);
        uint32_t *cells = malloc(p * sizeof *cells), ncells = 0;
        for (uint32_t i = 1; ncells < s; i++) {
            memset(rowm, 0, r);
            memset(colm, 0, c);
            for (uint32_t j = 0; j < i && i <= r; j++)
                rowm[ev(j, r, i)] = 1;
            for (uint32_t j = 0; j < i && i <= c; j++)
                colm[ev(j, c, i)] = 1;
            ncells = 0;
            for (uint32_t id = 0; id < p; id++)
                if (rowm[id / c] || colm[id % c])
                    cells[ncells++] = id;
        }
        for (uint32_t j = 0; j < s; j++)
            g[cells[ev(j, ncells, s)]] = 1;
        free(rowm);
        free(colm);
        free(cells);
    }
    for (uint32_t id = 0; id < p; id++)
        if (g[id])
            out[n++] = id;
    free(g);
    return n;
}

static void test_rules_vs_reference(void)
{
    static const char *const rules[] = {"R", "C", "DR", "DL", "E", "cross"};
    uint32_t *got = malloc(144 * sizeof *got), *want = malloc(144 * sizeof *want);
    for (size_t k = 0; k < sizeof rules / sizeof rules[0]; k++) {
        mpp_dist d;
        mpp_err err;
        CHECK(mpp_dist_parse(rules[k], &d, &err) == 0);
        int bad = 0;
        for (uint32_t r = 1; r <= 12; r++)
            for (uint32_t c = 1; c <= 12; c++)
                for (uint32_t s = 1; s <= r * c && bad < 3; s++) {
                    uint32_t n = ref_place(rules[k], r, c, s, want);
                    int rc = mpp_dist_place(&d, r, c, s, 7, got, &err);
                    bool same = rc == 0 && n == s && !memcmp(got, want, s * sizeof *got);
                    CHECKF(same, "%s %ux%u s=%u differs from the reference (rc %d, %u cells)",
                           rules[k], r, c, s, rc, n);
                    bad += !same;
                }
    }
    free(got);
    free(want);
}

/* ---- 3. the ideal distributions ------------------------------------------ */

/* br_lin's halving on a line of q slots whose holders are hold[] (changed):
 * each step takes every range of the step from a list, pairs i with
 * i + ceil(n/2) (i < floor(n/2)), lets the unpaired slot ceil(n/2) - 1 of
 * an odd range send to the range's last slot, and writes the new holders
 * into a copy read by the next step. Returns whether no step had a pair
 * holding two while another pair held none, and every slot ends holding. */
static bool lin_good(uint32_t q, unsigned char *hold)
{
    uint32_t *a = malloc(2 * (q + 1) * sizeof *a), *n = malloc(2 * (q + 1) * sizeof *n);
    uint32_t *a2 = malloc(2 * (q + 1) * sizeof *a2), *n2 = malloc(2 * (q + 1) * sizeof *n2);
    unsigned char *next = malloc(q);
    uint32_t m = 1;
    a[0] = 0;
    n[0] = q;
    bool ok = true;
    while (m) {
        bool two = false, none = false;
        uint32_t m2 = 0;
        memcpy(next, hold, q);
        for (uint32_t k = 0; k < m; k++) {
            uint32_t s = a[k], len = n[k], h = (len + 1) / 2, f = len / 2;
            for (uint32_t i = 0; i < f; i++) {
                int cnt = hold[s + i] + hold[s + i + h];
                two |= cnt == 2;
                none |= cnt == 0;
                if (cnt)
                    next[s + i] = next[s + i + h] = 1;
            }
            if (len % 2 && hold[s + h - 1])
                next[s + len - 1] = 1;
            if (h > 1) {
                a2[m2] = s;
                n2[m2++] = h;
            }
            if (f > 1) {
                a2[m2] = s + h;
                n2[m2++] = f;
            }
        }
        ok &= !(two && none);
        memcpy(hold, next, q);
        memcpy(a, a2, m2 * sizeof *a);
        memcpy(n, n2, m2 * sizeof *n);
        m = m2;
    }
    for (uint32_t i = 0; i < q; i++)
        ok &= hold[i] == 1;
    free(a);
    free(n);
    free(a2);
    free(n2);
    free(next);
    return ok;
}

/* The snake position of processor id on an r x c mesh. */
static uint32_t snake(uint32_t id, uint32_t c)
{
    uint32_t x = id / c, y = id % c;
    return x * c + (x % 2 ? c - 1 - y : y);
}

/* Whether the ids make br_lin double on the snake of r x c. */
static bool lin_ids_good(uint32_t r, uint32_t c, const uint32_t *ids, uint32_t s)
{
    unsigned char *hold = calloc(r * c, 1);
    for (uint32_t i = 0; i < s; i++)
        hold[snake(ids[i], c)] = 1;
    bool ok = lin_good(r * c, hold);
    free(hold);
    return ok;
}

/* Whether slots[0 .. k-1] of a line of q pass lin_good. */
static bool slots_good(uint32_t q, const uint32_t *slots, uint32_t k)
{
    unsigned char *hold = calloc(q, 1);
    for (uint32_t i = 0; i < k; i++)
        hold[slots[i]] = 1;
    bool ok = lin_good(q, hold);
    free(hold);
    return ok;
}

/* ideal_xy is R (C when c < r) with other rows: the i = ceil(s / c) rows
 * in use hold s / i sources, the first s % i one more, at evenly spaced
 * columns; their indices, ascending, into lines[]. */
static bool xy_shape(uint32_t r, uint32_t c, uint32_t s, const uint32_t *ids, uint32_t *lines,
                     uint32_t *nlines)
{
    bool rows = r <= c;
    uint32_t L = rows ? r : c, W = rows ? c : r, i = (s + W - 1) / W;
    unsigned char *g = calloc(r * c, 1);
    for (uint32_t k = 0; k < s; k++)
        g[ids[k]] = 1;
    uint32_t j = 0;
    bool ok = true;
    for (uint32_t line = 0; line < L; line++) {
        uint32_t cnt = 0;
        for (uint32_t w = 0; w < W; w++)
            cnt += g[rows ? line * c + w : w * c + line];
        if (!cnt)
            continue;
        uint32_t want = s / i + (j < s % i);
        ok &= cnt == want;
        for (uint32_t t = 0; t < want && ok; t++) {
            uint32_t w = ev(t, W, want);
            ok &= g[rows ? line * c + w : w * c + line] == 1;
        }
        if (j < i)
            lines[j] = line;
        j++;
    }
    free(g);
    *nlines = j;
    return ok && j == i;
}

static void test_ideal_meshes(void)
{
    uint32_t *ids = malloc(256 * sizeof *ids), lines[16];
    mpp_err err;
    int bad = 0;
    for (uint32_t r = 1; r <= 16; r++)
        for (uint32_t c = 1; c <= 16; c++)
            for (uint32_t s = 1; s <= r * c && bad < 5; s++) {
                int rc = mpp_dist_ideal(MPP_DIST_IDEAL_LIN, r, c, s, ids, &err);
                bool ok = rc == 0 && lin_ids_good(r, c, ids, s);
                CHECKF(ok, "ideal_lin %ux%u s=%u does not double (rc %d)", r, c, s, rc);
                bad += !ok;
                uint32_t n;
                rc = mpp_dist_ideal(MPP_DIST_IDEAL_XY, r, c, s, ids, &err);
                ok = rc == 0 && xy_shape(r, c, s, ids, lines, &n) &&
                     slots_good(r <= c ? r : c, lines, n);
                CHECKF(ok, "ideal_xy %ux%u s=%u is not a doubling row distribution (rc %d)", r,
                       c, s, rc);
                bad += !ok;
            }
    free(ids);
}

/* Lines of 1..300 slots (a 1 x q mesh: the snake is the line), every k:
 * doubling, and ceil(k/2) in the first ceil(q/2) slots (never more than
 * they hold). Also the compact prefix [0, k), the basis of the rule's
 * depth-1 fallback (bcast_dist.c, invariant 3). */
static void test_ideal_lines(void)
{
    uint32_t *pos = malloc(300 * sizeof *pos);
    mpp_err err;
    int bad = 0;
    for (uint32_t q = 1; q <= 300 && bad < 5; q++)
        for (uint32_t k = 1; k <= q && bad < 5; k++) {
            int rc = mpp_dist_ideal(MPP_DIST_IDEAL_LIN, 1, q, k, pos, &err);
            uint32_t h = (q + 1) / 2, first = 0, want = (k + 1) / 2 < h ? (k + 1) / 2 : h;
            for (uint32_t i = 0; rc == 0 && i < k; i++)
                first += pos[i] < h;
            bool ok = rc == 0 && slots_good(q, pos, k) && first == want;
            CHECKF(ok, "line of %u, k = %u: not ideal or not split %u / %u (rc %d)", q, k, want,
                   k - want, rc);
            bad += !ok;
            for (uint32_t i = 0; i < k; i++)
                pos[i] = i;
            ok = slots_good(q, pos, k);
            CHECKF(ok, "line of %u: the compact prefix of %u does not double", q, k);
            bad += !ok;
        }
    free(pos);
}

static void test_ideal_examples(void)
{
    uint32_t ids[100], lines[16], n;
    mpp_err err;
    /* 10 x 10 with two source rows: rows 0 and 6 (the paper: "the first
     * and the seventh row"), for every s that needs two rows */
    for (uint32_t s = 11; s <= 20; s++) {
        CHECK(mpp_dist_ideal(MPP_DIST_IDEAL_XY, 10, 10, s, ids, &err) == 0);
        CHECK(xy_shape(10, 10, s, ids, lines, &n) && n == 2 && lines[0] == 0 && lines[1] == 6);
    }
    /* the same through mpp_dist_place and the name */
    mpp_dist d;
    CHECK(mpp_dist_parse("ideal_xy", &d, &err) == 0 && d.kind == MPP_DIST_IDEAL_XY);
    CHECK(mpp_dist_place(&d, 10, 10, 20, 1, ids, &err) == 0 && ids[10] == 60 && ids[19] == 69);
    /* columns when c < r: 10 rows x 4 columns, s = 20: two columns, 0 and 3
     * (a line of 4 pairs (0, 2) and (1, 3) first) */
    CHECK(mpp_dist_ideal(MPP_DIST_IDEAL_XY, 10, 4, 20, ids, &err) == 0);
    CHECK(xy_shape(10, 4, 20, ids, lines, &n) && n == 2 && lines[0] == 0 && lines[1] == 3);

    /* the checker refuses the paper's bad cases: R_2 on 10 rows (rows 0
     * and 5 pair in the first step) and DR_1 on the 10 x 10 snake */
    uint32_t r2[2] = {0, 5}, r2i[2] = {0, 6};
    CHECK(!slots_good(10, r2, 2));
    CHECK(slots_good(10, r2i, 2));
    CHECK(mpp_dist_parse("DR", &d, &err) == 0);
    CHECK(mpp_dist_place(&d, 10, 10, 10, 1, ids, &err) == 0);
    CHECK(!lin_ids_good(10, 10, ids, 10));
    /* R with 2 rows on 10 x 10 is rows 0 and 5: not ideal */
    CHECK(mpp_dist_parse("R", &d, &err) == 0);
    CHECK(mpp_dist_place(&d, 10, 10, 20, 1, ids, &err) == 0);
    CHECK(xy_shape(10, 10, 20, ids, lines, &n) && n == 2 && lines[1] == 5);
    CHECK(!slots_good(10, lines, 2));
}

/* ---- 4. random ----------------------------------------------------------- */

static void test_random(void)
{
    mpp_dist d;
    mpp_err err;
    uint32_t a[100], b[100];
    CHECK(mpp_dist_parse("random", &d, &err) == 0 && d.kind == MPP_DIST_RANDOM);
    CHECK(mpp_dist_place(&d, 10, 10, 30, 5, a, &err) == 0);
    CHECK(mpp_dist_place(&d, 10, 10, 30, 5, b, &err) == 0);
    CHECK(!memcmp(a, b, sizeof a[0] * 30)); /* a function of the seed */
    for (uint32_t i = 1; i < 30; i++)
        CHECK(a[i - 1] < a[i] && a[i] < 100);
    CHECK(mpp_dist_place(&d, 10, 10, 30, 6, b, &err) == 0);
    CHECK(memcmp(a, b, sizeof a[0] * 30) != 0);
    CHECK(mpp_dist_place(&d, 10, 10, 100, 5, a, &err) == 0);
    for (uint32_t i = 0; i < 100; i++)
        CHECK(a[i] == i);
    CHECK(mpp_dist_place(&d, 1, 1, 1, 5, a, &err) == 0 && a[0] == 0);
    /* roughly uniform: over 2000 seeds every processor of 4 x 4 is drawn
     * (s = 4: expected 500 times each) between 400 and 600 times */
    uint32_t hits[16] = {0};
    for (uint64_t seed = 0; seed < 2000; seed++) {
        CHECK(mpp_dist_place(&d, 4, 4, 4, seed, a, &err) == 0);
        for (uint32_t i = 0; i < 4; i++)
            hits[a[i]]++;
    }
    for (uint32_t i = 0; i < 16; i++)
        CHECKF(hits[i] > 400 && hits[i] < 600, "processor %u drawn %u times", i, hits[i]);
}

/* ---- 5. errors ----------------------------------------------------------- */

typedef struct bad_case {
    const char *dist;
    uint32_t r, c, s;
    const char *msg; /* a part of the message */
} bad_case;

static const bad_case bad_cases[] = {
    {"R", 10, 10, 0, "distribution R: s = 0 sources"},
    {"C", 10, 10, 0, "distribution C: s = 0 sources"},
    {"DR", 10, 10, 0, "distribution DR: s = 0 sources"},
    {"DL", 10, 10, 0, "distribution DL: s = 0 sources"},
    {"E", 10, 10, 0, "distribution E: s = 0 sources"},
    {"cross", 10, 10, 0, "distribution cross: s = 0 sources"},
    {"B_1_1", 10, 10, 0, "distribution B_1_1: s = 0 sources"},
    {"random", 10, 10, 0, "distribution random: s = 0 sources"},
    {"ideal_xy", 10, 10, 0, "distribution ideal_xy: s = 0 sources"},
    {"ideal_lin", 10, 10, 0, "distribution ideal_lin: s = 0 sources"},
    {"R", 10, 10, 101, "distribution R: s = 101 sources on a 10 x 10 mesh (100 processors)"},
    {"cross", 10, 10, 101, "distribution cross: s = 101 sources on a 10 x 10 mesh"},
    {"random", 1, 1, 2, "distribution random: s = 2 sources on a 1 x 1 mesh (1 processors)"},
    {"ideal_lin", 4, 8, 33, "distribution ideal_lin: s = 33 sources on a 4 x 8 mesh"},
    {"ideal_xy", 4, 8, 33, "distribution ideal_xy: s = 33 sources on a 4 x 8 mesh"},
    {"B_3_4", 10, 10, 11, "distribution B_3_4 holds 12 sources, not 11"},
    {"B_11_2", 10, 10, 22, "distribution B_11_2 does not fit on a 10 x 10 mesh"},
    {"B_2_11", 10, 10, 22, "distribution B_2_11 does not fit on a 10 x 10 mesh"},
    {"list:1,2,100", 10, 10, 3, "distribution list: processor 100 is not on the 10 x 10 mesh"},
    {"list:1,2", 10, 10, 3, "distribution list: 2 processors listed, not s = 3"},
    {"E", 2048, 1024, 5, "distribution E: a 2048 x 1024 mesh has more than 1048576 processors"},
    {"DR", 0, 5, 1, "distribution DR: a 0 x 5 mesh has no processors"},
};

/* Place and check fail alike; nothing is written to out. */
static void expect_bad(const mpp_dist *d, const char *name, uint32_t r, uint32_t c, uint32_t s,
                       const char *msg)
{
    uint32_t out[8] = {77, 77, 77, 77, 77, 77, 77, 77};
    mpp_err err;
    mpp_err_clear(&err);
    int rc = mpp_dist_place(d, r, c, s, 1, out, &err);
    CHECKF(rc == MPP_EINVAL && strstr(err.msg, msg), "%s %ux%u s=%u: rc %d, '%s'", name, r, c,
           s, rc, err.msg);
    for (int i = 0; i < 8; i++)
        CHECK(out[i] == 77);
    mpp_err_clear(&err);
    rc = mpp_dist_check(d, r, c, s, &err);
    CHECKF(rc == MPP_EINVAL && strstr(err.msg, msg), "check %s %ux%u s=%u: rc %d, '%s'", name, r,
           c, s, rc, err.msg);
}

static void test_errors(void)
{
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const bad_case *b = &bad_cases[i];
        mpp_dist d;
        mpp_err err;
        if (mpp_dist_parse(b->dist, &d, &err)) {
            CHECKF(0, "parse %s: %s", b->dist, err.msg);
            continue;
        }
        expect_bad(&d, b->dist, b->r, b->c, b->s, b->msg);
        if (d.kind == MPP_DIST_IDEAL_XY || d.kind == MPP_DIST_IDEAL_LIN) {
            uint32_t out[1];
            CHECK(mpp_dist_ideal(d.kind, b->r, b->c, b->s, out, &err) == MPP_EINVAL &&
                  strstr(err.msg, b->msg));
        }
        mpp_dist_free(&d);
    }
    /* a list built by hand with a duplicate */
    uint32_t ids[3] = {5, 1, 5};
    mpp_dist d = {.kind = MPP_DIST_LIST, .list = ids, .nlist = 3};
    expect_bad(&d, "list", 10, 10, 3, "distribution list: processor 5 is listed twice");
    /* a valid one passes the check; a list in any order is placed sorted */
    uint32_t ok[3] = {42, 7, 99}, out[3];
    d.list = ok;
    mpp_err err;
    CHECK(mpp_dist_check(&d, 10, 10, 3, &err) == 0);
    CHECK(mpp_dist_place(&d, 10, 10, 3, 1, out, &err) == 0 && out[0] == 7 && out[1] == 42 &&
          out[2] == 99);
    /* ideal of another kind */
    CHECK(mpp_dist_ideal(MPP_DIST_R, 10, 10, 3, out, &err) == MPP_EINVAL);
    d.kind = 99;
    CHECK(mpp_dist_place(&d, 10, 10, 3, 1, out, &err) == MPP_EINVAL);
}

/* ---- 6. parsing and drawing ---------------------------------------------- */

static void test_parse(void)
{
    static const struct {
        const char *text;
        int kind;
    } good[] = {
        {"R", MPP_DIST_R},     {"C", MPP_DIST_C},         {"DR", MPP_DIST_DR},
        {"DL", MPP_DIST_DL},   {"E", MPP_DIST_E},         {"cross", MPP_DIST_CROSS},
        {"B_3_4", MPP_DIST_BLOCK}, {"random", MPP_DIST_RANDOM}, {"list:3", MPP_DIST_LIST},
        {"ideal_xy", MPP_DIST_IDEAL_XY}, {"ideal_lin", MPP_DIST_IDEAL_LIN},
    };
    mpp_dist d;
    mpp_err err;
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        CHECKF(mpp_dist_parse(good[i].text, &d, &err) == 0 && d.kind == good[i].kind, "%s",
               good[i].text);
        mpp_dist_free(&d);
    }
    CHECK(mpp_dist_parse("B_3_4", &d, &err) == 0 && d.bi == 3 && d.bj == 4);
    CHECK(mpp_dist_parse("list:5,1,3", &d, &err) == 0 && d.nlist == 3 && d.list);
    mpp_dist_free(&d);
    CHECK(d.list == NULL && d.nlist == 0);
    mpp_dist_free(&d); /* twice is fine */
    mpp_dist_free(NULL);

    static const struct {
        const char *text, *msg;
    } bad[] = {
        {"X", "unknown distribution 'X', valid: R, C, DR, DL, E, cross, B_i_j, random, "
              "list:ID,ID,..., ideal_xy, ideal_lin"},
        {"r", "unknown distribution 'r'"},
        {"", "unknown distribution ''"},
        {"B_3", "distribution 'B_3': a block is B_i_j"},
        {"B_0_4", "distribution 'B_0_4': a block is B_i_j"},
        {"B_3_x", "distribution 'B_3_x': a block is B_i_j"},
        {"B_3_4_5", "distribution 'B_3_4_5': a block is B_i_j"},
        {"B_3_2000000", "a block is B_i_j with i and j from 1 to 1048576"},
        {"list:", "distribution list: '' is not a processor id"},
        {"list:1,,2", "distribution list: '' is not a processor id"},
        {"list:1,x", "distribution list: 'x' is not a processor id"},
        {"list:1,-2", "distribution list: '-2' is not a processor id"},
        {"list:1048576", "distribution list: '1048576' is not a processor id (0 to 1048575)"},
        {"list:3,1,3", "distribution list: processor 3 is listed twice"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mpp_err_clear(&err);
        int rc = mpp_dist_parse(bad[i].text, &d, &err);
        CHECKF(rc == MPP_EINVAL && strstr(err.msg, bad[i].msg), "'%s': rc %d, '%s'",
               bad[i].text, rc, err.msg);
        CHECK(d.list == NULL);
    }
    CHECK(!strcmp(mpp_dist_names_help,
                  "R, C, DR, DL, E, cross, B_i_j, random, list:ID,ID,..., ideal_xy, ideal_lin"));
}

static void test_draw(void)
{
    mpp_sb sb;
    mpp_sb_init(&sb);
    mpp_sb_add(&sb, "x\n");
    uint32_t src[2] = {5, 0};
    mpp_dist_draw(2, 3, src, 2, &sb);
    CHECKF(mpp_sb_ok(&sb) && !strcmp(sb.s, "x\nS . .\n. . S\n"), "'%s'", sb.s);
    mpp_sb_reset(&sb);
    mpp_dist_draw(1, 1, src + 1, 1, &sb);
    CHECK(!strcmp(sb.s, "S\n"));
    mpp_sb_reset(&sb);
    mpp_dist_draw(3, 1, NULL, 0, &sb);
    CHECK(!strcmp(sb.s, ".\n.\n.\n"));
    mpp_sb_free(&sb);
}

int main(void)
{
    test_pins();
    test_rules_vs_reference();
    test_ideal_meshes();
    test_ideal_lines();
    test_ideal_examples();
    test_random();
    test_errors();
    test_parse();
    test_draw();
    TEST_DONE();
}
