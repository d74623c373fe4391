/* traces/com.c — the communication matrix in memory (see com.h): building,
 * sorting, checking, copying. File I/O is in traces/comio.c, generators in
 * traces/gen.c. Invariants (mpp_com_check): entries sorted by (src, dst),
 * strictly increasing, src != dst, both < n, units > 0, nnz <= cap. */
#include "traces/com.h"

#include <stdlib.h>
#include <string.h>

int mpp_com_init(mpp_com *c, uint32_t n, uint64_t msg_unit, mpp_err *err)
{
    memset(c, 0, sizeof *c);
    if (n == 0)
        return mpp_err_set(err, MPP_EINVAL, "a communication matrix needs at least 1 processor");
    if (n > MPP_COM_MAX_N)
        return mpp_err_set(err, MPP_EINVAL,
                           "a communication matrix of %u processors is larger than the maximum of "
                           "%u",
                           n, MPP_COM_MAX_N);
    c->n = n;
    c->msg_unit = msg_unit ? msg_unit : 1;
    return 0;
}

int mpp_com_add(mpp_com *c, uint32_t src, uint32_t dst, uint64_t units, mpp_err *err)
{
    if (src >= c->n || dst >= c->n)
        return mpp_err_set(err, MPP_EINVAL, "entry (%u, %u) is outside the %u x %u matrix", src, dst,
                           c->n, c->n);
    if (src == dst)
        return mpp_err_set(err, MPP_EINVAL, "entry (%u, %u) is on the diagonal (must be zero)", src,
                           dst);
    if (units == 0)
        return 0;
    if (c->nnz == c->cap) {
        uint32_t cap = c->cap ? c->cap * 2 : 64;
        mpp_com_entry *e = realloc(c->e, (size_t)cap * sizeof *e);
        if (!e)
            return mpp_err_set(err, MPP_ENOMEM, "out of memory");
        c->e = e;
        c->cap = cap;
    }
    c->e[c->nnz++] = (mpp_com_entry){src, dst, units};
    return 0;
}

static int cmp_entry(const void *a, const void *b)
{
    const mpp_com_entry *x = a, *y = b;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    if (x->dst != y->dst)
        return x->dst < y->dst ? -1 : 1;
    return 0;
}

void mpp_com_finish(mpp_com *c)
{
    if (!c->nnz)
        return;
    qsort(c->e, c->nnz, sizeof *c->e, cmp_entry);
    uint32_t w = 0;
    for (uint32_t i = 0; i < c->nnz; i++) {
        if (w && c->e[w - 1].src == c->e[i].src && c->e[w - 1].dst == c->e[i].dst)
            c->e[w - 1].units += c->e[i].units;
        else
            c->e[w++] = c->e[i];
    }
    c->nnz = w;
}

bool mpp_com_check(const mpp_com *c)
{
    if (c->n == 0 || c->nnz > c->cap || c->msg_unit == 0)
        return false;
    for (uint32_t i = 0; i < c->nnz; i++) {
        const mpp_com_entry *e = &c->e[i];
        if (e->src >= c->n || e->dst >= c->n || e->src == e->dst || e->units == 0)
            return false;
        if (i && cmp_entry(&c->e[i - 1], e) >= 0)
            return false;
    }
    return true;
}

void mpp_com_free(mpp_com *c)
{
    if (!c)
        return;
    free(c->e);
    memset(c, 0, sizeof *c);
}

int mpp_com_copy(mpp_com *dst, const mpp_com *src, mpp_err *err)
{
    *dst = *src;
    dst->e = NULL;
    dst->cap = src->nnz;
    if (src->nnz) {
        dst->e = malloc((size_t)src->nnz * sizeof *dst->e);
        if (!dst->e) {
            memset(dst, 0, sizeof *dst);
            return mpp_err_set(err, MPP_ENOMEM, "out of memory");
        }
        memcpy(dst->e, src->e, (size_t)src->nnz * sizeof *dst->e);
    }
    return 0;
}

bool mpp_com_equal(const mpp_com *a, const mpp_com *b)
{
    return a->n == b->n && a->msg_unit == b->msg_unit && a->nnz == b->nnz &&
           (a->nnz == 0 || memcmp(a->e, b->e, (size_t)a->nnz * sizeof *a->e) == 0);
}

void mpp_com_degrees(const mpp_com *c, uint32_t *row, uint32_t *col)
{
    memset(row, 0, c->n * sizeof *row);
    memset(col, 0, c->n * sizeof *col);
    for (uint32_t i = 0; i < c->nnz; i++) {
        row[c->e[i].src]++;
        col[c->e[i].dst]++;
    }
}

uint32_t mpp_com_max_degree(const mpp_com *c)
{
    uint32_t *row = calloc(c->n, sizeof *row), *col = calloc(c->n, sizeof *col), m = 0;
    if (!row || !col) {
        free(row);
        free(col);
        return 0;
    }
    mpp_com_degrees(c, row, col);
    for (uint32_t i = 0; i < c->n; i++) {
        if (row[i] > m)
            m = row[i];
        if (col[i] > m)
            m = col[i];
    }
    free(row);
    free(col);
    return m;
}
