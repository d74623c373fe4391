/* core/base/heap.h — a binary min-heap of (cycle, id) events, ordered by
 * cycle then id, so that events of one cycle come out in ascending id
 * order whatever order they were pushed in (mpp_heap_*). Used for the
 * processors' wake-ups (core/node.c) and the open-loop sources' next
 * injection cycles (core/sim.c). Header-only; push may grow the array. */
#ifndef MPP_CORE_BASE_HEAP_H
#define MPP_CORE_BASE_HEAP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct mpp_heap_ent {
    uint64_t at;
    uint32_t id;
} mpp_heap_ent;

typedef struct mpp_heap {
    mpp_heap_ent *e;
    uint32_t n, cap;
} mpp_heap;

static inline bool mpp_heap_before(const mpp_heap_ent *a, const mpp_heap_ent *b)
{
    return a->at < b->at || (a->at == b->at && a->id < b->id);
}

/* Room for cap entries; false when out of memory. */
static inline bool mpp_heap_init(mpp_heap *h, uint32_t cap)
{
    h->n = 0;
    h->cap = cap ? cap : 1;
    h->e = malloc((size_t)h->cap * sizeof *h->e);
    return h->e != NULL;
}

static inline void mpp_heap_free(mpp_heap *h)
{
    free(h->e);
    h->e = NULL;
    h->n = h->cap = 0;
}

/* Add (at, id); false when the array could not grow. */
static inline bool mpp_heap_push(mpp_heap *h, uint64_t at, uint32_t id)
{
    if (h->n == h->cap) {
        if (h->cap >= (1u << 31))
            return false;
        mpp_heap_ent *p = realloc(h->e, (size_t)h->cap * 2 * sizeof *p);
        if (!p)
            return false;
        h->e = p;
        h->cap *= 2;
    }
    mpp_heap_ent x = {at, id};
    uint32_t i = h->n++;
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (!mpp_heap_before(&x, &h->e[p]))
            break;
        h->e[i] = h->e[p];
        i = p;
    }
    h->e[i] = x;
    return true;
}

/* The earliest entry's cycle, or UINT64_MAX when empty. */
static inline uint64_t mpp_heap_top(const mpp_heap *h) { return h->n ? h->e[0].at : UINT64_MAX; }

/* Remove and return the earliest entry (the heap must not be empty). */
static inline mpp_heap_ent mpp_heap_pop(mpp_heap *h)
{
    mpp_heap_ent top = h->e[0], x = h->e[--h->n];
    uint32_t i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && mpp_heap_before(&h->e[c + 1], &h->e[c]))
            c++;
        if (!mpp_heap_before(&h->e[c], &x))
            break;
        h->e[i] = h->e[c];
        i = c;
    }
    if (h->n)
        h->e[i] = x;
    return top;
}

#endif
