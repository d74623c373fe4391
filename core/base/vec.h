/* core/base/vec.h — a growable vector of 32-bit values (mpp_u32vec), the
 * one small container the node layer and the applications share. A zeroed
 * vector is empty; free v when done. Growth doubles (from 8), so pushes
 * cost O(1) amortised and nothing is allocated once the vector has grown
 * to its working size. */
#ifndef MPP_CORE_BASE_VEC_H
#define MPP_CORE_BASE_VEC_H

#include <stdbool.h>
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

#endif
