/* core/base/vec.h — a growable vector of 32-bit values (mpp_u32vec), the
 * one small container the node layer and the applications share. A zeroed
 * vector is empty; free v when done. Growth doubles (from 8), so pushes
 * cost O(1) amortised and nothing is allocated once the vector has grown
 * to its working size. */
#ifndef MPP_CORE_BASE_VEC_H
#define MPP_CORE_BASE_VEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct mpp_u32vec {
    uint32_t *v;
    uint32_t n, cap;
} mpp_u32vec;

/* Append x; false (v unchanged) when out of memory. */
static inline bool mpp_u32vec_push(mpp_u32vec *a, uint32_t x)
{
    if (a->n == a->cap) {
        uint32_t cap = a->cap ? a->cap * 2 : 8;
        uint32_t *p = (uint32_t *)realloc(a->v, cap * sizeof *p);
        if (!p)
            return false;
        a->v = p;
        a->cap = cap;
    }
    a->v[a->n++] = x;
    return true;
}

/* Make room for element n of the array *p (*cap elements of sz bytes
 * allocated, doubling from 16): true when n < *cap already or after the
 * array grew; false (unchanged) when out of memory or past 2^31 elements.
 * The readers' growing arrays (traces/mpi_simgrid.c, traces/mpi_otf2.c). */
static inline bool mpp_vec_room(void **p, uint32_t n, uint32_t *cap, size_t sz)
{
    if (n < *cap)
        return true;
    if (n >= UINT32_MAX / 2)
        return false;
    uint32_t c = *cap ? *cap * 2 : 16;
    void *q = realloc(*p, (size_t)c * sz);
    if (!q)
        return false;
    *p = q;
    *cap = c;
    return true;
}

#endif
