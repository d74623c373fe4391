/* core/traffic.h — the ops table of the traffic-pattern family, and a
 * pattern made ready for one network (mpp_traffic_*). The patterns are
 * plug-ins in algorithms/patterns.c.
 *
 * A pattern maps a source to a destination, on logical process ids
 * 0..n-1 (placement maps them to physical nodes afterwards). Fixed patterns
 * (transpose, bit-reversal, ..., randperm, single-random) are turned into a
 * table at setup; random ones (uniform, uniform-noself, hotspot) draw from the
 * source's stream at every packet. Each pattern declares the network sizes it
 * is defined for through check() (e.g. bit patterns need a power of two,
 * transpose a square mesh, a k-ary n-cube with equal extents, or an even number of address bits). */
#ifndef MPP_CORE_TRAFFIC_H
#define MPP_CORE_TRAFFIC_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/err.h"
#include "core/base/param.h"
#include "core/base/rng.h"
#include "core/topo.h"

typedef struct mpp_pattern_ops mpp_pattern_ops;

/* A pattern plug-in. Exactly one of perm and dest is non-NULL:
 *   perm(t, cfg, rng, table) fills table[src] for every src (fixed patterns);
 *   dest(t, cfg, src, rng) draws a destination per packet (random patterns).
 * check may be NULL (defined for every size). */
struct mpp_pattern_ops {
    const char *name;
    const char *const *aliases;
    const char *help;
    mpp_schema schema;
    bool (*check)(const mpp_topo *t, const void *cfg, mpp_err *err);
    void (*perm)(const mpp_topo *t, const void *cfg, mpp_rng *rng, uint32_t *table);
    uint32_t (*dest)(const mpp_topo *t, const void *cfg, uint32_t src, mpp_rng *rng);
};

/* A ready pattern for one network. */
typedef struct mpp_traffic {
    const mpp_pattern_ops *ops;
    const void *cfg;      /* points into the caller's config (must outlive) */
    const mpp_topo *topo;
    uint32_t *table;      /* fixed patterns: [nodes] destinations, else NULL */
} mpp_traffic;

/* Prepare pattern ops on t: check the size, build the table from the
 * (seed, MPP_RNG_PATTERN) stream. Fails with MPP_EINVAL and a reason. */
int mpp_traffic_init(mpp_traffic *tr, const mpp_pattern_ops *ops, const void *cfg,
                     const mpp_topo *t, uint64_t seed, mpp_err *err);

/* Destination of a packet from logical source src (hot path). */
static inline uint32_t mpp_traffic_dest(const mpp_traffic *tr, uint32_t src, mpp_rng *rng)
{
    if (tr->table)
        return tr->table[src];
    return tr->ops->dest(tr->topo, tr->cfg, src, rng);
}

void mpp_traffic_free(mpp_traffic *tr);

/* Placement (SPEC 2): logical process ids to physical nodes, identity or a
 * random permutation from the (seed, MPP_RNG_PLACEMENT) stream. */
typedef enum mpp_placement { MPP_PLACE_IDENTITY = 0, MPP_PLACE_RANDOM = 1 } mpp_placement;
/* Fill phys[logical] and logical[phys] ([n] each, caller-owned). */
void mpp_place(int kind, uint64_t seed, uint32_t n, uint32_t *phys, uint32_t *logical);

#endif
