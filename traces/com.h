/* traces/com.h — communication matrices (mpp_com_*).
 *
 * A COM is an n x n matrix of non-negative integers: COM(i, j) = m > 0 when
 * processor i sends a message of m units to j (a unit is msg_unit bytes);
 * the diagonal is zero. Row i is i's send vector, column i its receive
 * vector. Stored sparse: entries sorted by (src, dst), no duplicates, no
 * zero entries, no diagonal entries (invariants checked by mpp_com_check).
 *
 * Files (docs/formats.md): Matrix Market coordinate files
 * (`%%MatrixMarket matrix coordinate integer general`, 1-based), plain or
 * gzip-compressed (zlib; a `.gz` name or the gzip magic). A file may hold a
 * sequence of matrices (one per step of an application): concatenated
 * Matrix Market blocks, each preceded by a comment `% step=K msg_unit=B`.
 * Reading a malformed, truncated or inconsistent file fails with
 * MPP_EFORMAT and a message "FILE:LINE: what is wrong"; it never
 * half-reads. Writing is atomic (temporary file, then rename). */
#ifndef MPP_TRACES_COM_H
#define MPP_TRACES_COM_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/err.h"

/* Limits of a communication matrix, checked before anything is allocated
 * from a size a file or a command declares (docs/formats.md): processors
 * per matrix, and non-zero entries per matrix. */
#define MPP_COM_MAX_N (1u << 20)
#define MPP_COM_MAX_NNZ (1u << 26)

typedef struct mpp_com_entry {
    uint32_t src, dst;
    uint64_t units;
} mpp_com_entry;

typedef struct mpp_com {
    uint32_t n;           /* processors */
    uint64_t msg_unit;    /* bytes per unit (default 1) */
    uint32_t step;        /* step number within a sequence (0 when alone) */
    uint32_t nnz;
    uint32_t cap;
    mpp_com_entry *e;     /* [nnz], sorted by (src, dst) */
} mpp_com;

/* A sequence of matrices (one file). */
typedef struct mpp_com_seq {
    uint32_t count;
    mpp_com *m;           /* [count] */
} mpp_com_seq;

/* An empty n x n matrix. Returns 0 or MPP_EINVAL (n == 0) / MPP_ENOMEM. */
int mpp_com_init(mpp_com *c, uint32_t n, uint64_t msg_unit, mpp_err *err);
/* Add units to COM(src, dst) (entries may come in any order and repeat;
 * mpp_com_finish sorts and merges). MPP_EINVAL for src == dst or an index
 * out of range. */
int mpp_com_add(mpp_com *c, uint32_t src, uint32_t dst, uint64_t units, mpp_err *err);
/* Sort by (src, dst), merge duplicates (adding), drop zeros. */
void mpp_com_finish(mpp_com *c);
/* The invariants above; true when they hold. */
bool mpp_com_check(const mpp_com *c);
void mpp_com_free(mpp_com *c);
/* Deep copy. Returns 0 or MPP_ENOMEM. */
int mpp_com_copy(mpp_com *dst, const mpp_com *src, mpp_err *err);
/* Same n, msg_unit and entries. */
bool mpp_com_equal(const mpp_com *a, const mpp_com *b);

/* Per-processor counts: messages sent by (row) and received by (column)
 * each processor; arrays of n, filled by the caller's buffers. */
void mpp_com_degrees(const mpp_com *c, uint32_t *row, uint32_t *col);
/* The largest row or column count (a lower bound on the phases of any
 * schedule of partial permutations). */
uint32_t mpp_com_max_degree(const mpp_com *c);

/* Read every matrix of a file. On failure seq holds nothing. */
int mpp_com_read(const char *path, mpp_com_seq *seq, mpp_err *err);
/* Write a sequence (one matrix: no step comment unless step or msg_unit
 * is set). gzip when path ends in ".gz". Atomic. */
int mpp_com_write(const char *path, const mpp_com_seq *seq, mpp_err *err);
void mpp_com_seq_free(mpp_com_seq *seq);

/* Generators (traces/gen.c), seeded from (seed, MPP_RNG_WORKLOAD):
 *   random-regular: every row and column has exactly d non-zeros of
 *     `units` units, the diagonal is zero: a circulant pattern with d
 *     non-zero offsets mixed by many random row and column exchanges
 *     (repairing any diagonal entry) and then by random edge switches
 *     (which the exchanges alone, only relabelling, cannot replace);
 *   random-nonuniform: the same pattern with each size uniform in 1..32
 *     units. */
int mpp_com_gen_regular(mpp_com *c, uint32_t n, uint32_t d, uint64_t units, uint64_t msg_unit,
                        uint64_t seed, mpp_err *err);
int mpp_com_gen_nonuniform(mpp_com *c, uint32_t n, uint32_t d, uint64_t msg_unit, uint64_t seed,
                           mpp_err *err);

#endif
