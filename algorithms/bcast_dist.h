/* algorithms/bcast_dist.h — source distributions of s-to-p broadcasting
 * (mpp_dist_*): where the s source processors of a broadcast sit on an
 * r x c mesh (Hambrusch, Khokhar and Liu 1995, section 4), and the ideal
 * distributions of br_xy_source and br_lin that `repos` and `part_*`
 * reposition into. Definitions (issue "S-to-p broadcasting", docs/broadcast.md):
 *
 *   processor (x, y) = row x, column y, 0-based; its id is x * c + y
 *   (row-major). "Evenly spaced" positions of m items among n slots are
 *   floor(j * n / m), j = 0 .. m - 1.
 *
 *   R       i = ceil(s / c) rows at evenly spaced row indices; the sources
 *           split over them so that row counts differ by at most 1 (the
 *           first rows take the larger counts); inside a row, evenly spaced
 *           columns. C: the same with columns.
 *   DR      right diagonal k = {(x, (x + k) mod c) : 0 <= x < r} for r <= c
 *           (transpose the rule when r > c); i = ceil(s / min(r, c))
 *           diagonals at evenly spaced k starting at 0; counts differ by at
 *           most 1; evenly spaced within a diagonal. DL: the mirror image,
 *           (x, (c - 1 - x - k) mod c).
 *   E       row-major indices floor(j * p / s), j = 0 .. s - 1.
 *   cross   the smallest i whose i evenly spaced rows and i evenly spaced
 *           columns hold at least s cells; s of those cells taken evenly
 *           spaced in row-major order.
 *   B_i_j   the i x j submesh at the top-left; s must be i * j.
 *   random  s distinct processors drawn with the seed.
 *   list    an explicit list of processor ids.
 *
 * Every function is pure (no global state); none allocates except where
 * it says so. */
#ifndef MPP_ALGORITHMS_BCAST_DIST_H
#define MPP_ALGORITHMS_BCAST_DIST_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/err.h"
#include "core/base/strbuf.h"

typedef enum mpp_dist_kind {
    MPP_DIST_R = 0,
    MPP_DIST_C,
    MPP_DIST_DR,
    MPP_DIST_DL,
    MPP_DIST_E,
    MPP_DIST_CROSS,
    MPP_DIST_BLOCK,  /* B_i_j */
    MPP_DIST_RANDOM,
    MPP_DIST_LIST,
    MPP_DIST_IDEAL_XY,  /* the ideal distribution of br_xy_source */
    MPP_DIST_IDEAL_LIN  /* the ideal distribution of br_lin */
} mpp_dist_kind;

/* The most processors a distribution is placed on (and the longest list). */
#define MPP_DIST_MAX_P (1u << 20)

/* `random` draws from the stream (seed, MPP_RNG_PLACEMENT, MPP_DIST_RNG_ID)
 * (core/base/rng.h), apart from the traffic placement's id 0. */
#define MPP_DIST_RNG_ID 0x62636173u /* "bcas" */

/* A distribution as named by the user. */
typedef struct mpp_dist {
    int kind;           /* mpp_dist_kind */
    uint32_t bi, bj;    /* B_i_j: the block's rows and columns */
    uint32_t *list;     /* MPP_DIST_LIST: nlist processor ids (owned: mpp_dist_free) */
    uint32_t nlist;
} mpp_dist;

/* The names accepted by mpp_dist_parse, for error messages and help:
 * "R, C, DR, DL, E, cross, B_i_j, random, list:ID,ID,..., ideal_xy, ideal_lin". */
extern const char mpp_dist_names_help[];

/* Parse a distribution name: R, C, DR, DL, E, cross, B_<i>_<j> (e.g.
 * B_3_4), random, list:<id>,<id>,... (ids in any order, no duplicates),
 * ideal_xy, ideal_lin. Fails with MPP_EINVAL and a message that lists the
 * valid names (unknown name) or says what is wrong with the numbers. On
 * success *out owns its list (mpp_dist_free). */
int mpp_dist_parse(const char *text, mpp_dist *out, mpp_err *err);

/* Free what a parsed distribution owns; a zeroed one is fine. */
void mpp_dist_free(mpp_dist *d);

/* Place s sources of distribution d on an r x c mesh: out[0 .. s-1] gets
 * their processor ids in increasing order. seed is used by `random` only.
 * Fails with MPP_EINVAL, naming the rule that cannot place them (s = 0,
 * s > r * c, B_i_j with s != i * j or a block larger than the mesh, a list
 * whose length is not s or with an id >= r * c or a duplicate). r * c at
 * most MPP_DIST_MAX_P. `random` and the ideal distributions allocate
 * temporary memory of O(r * c) bytes, after the checks (MPP_ENOMEM when it
 * cannot be had); nothing is kept. Not hot. */
int mpp_dist_place(const mpp_dist *d, uint32_t r, uint32_t c, uint32_t s, uint64_t seed,
                   uint32_t *out, mpp_err *err);

/* Check, without placing, that mpp_dist_place(d, r, c, s, ...) would
 * succeed: the same messages, so a caller can validate its configuration
 * before it allocates out. A list is checked for duplicates with a
 * temporary bitmap of r * c bits (MPP_ENOMEM when it cannot be had). */
int mpp_dist_check(const mpp_dist *d, uint32_t r, uint32_t c, uint32_t s, mpp_err *err);

/* The ideal distribution of s sources for br_xy_source (MPP_DIST_IDEAL_XY)
 * or br_lin (MPP_DIST_IDEAL_LIN) on an r x c mesh, into out[0 .. s-1]
 * (increasing ids); see docs/broadcast.md for the rule. Same failures as
 * mpp_dist_place; takes O(r * c) bytes of temporary memory after the
 * checks (MPP_ENOMEM). */
int mpp_dist_ideal(int kind, uint32_t r, uint32_t c, uint32_t s, uint32_t *out, mpp_err *err);

/* Draw the mesh as text into sb: r lines of c cells, 'S' for a source and
 * '.' for any other processor, separated by spaces, each line ending in
 * '\n'. src: n processor ids (any order). */
void mpp_dist_draw(uint32_t r, uint32_t c, const uint32_t *src, uint32_t n, mpp_sb *sb);

#endif
