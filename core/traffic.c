/* core/traffic.c — a traffic pattern made ready for one network (see
 * traffic.h): the size check, and the destination table of a fixed pattern
 * drawn from the (seed, MPP_RNG_PATTERN) stream. The patterns themselves are
 * plug-ins (algorithms/patterns.c). */
#include "core/traffic.h"

#include <stdlib.h>
#include <string.h>

int mpp_traffic_init(mpp_traffic *tr, const mpp_pattern_ops *ops, const void *cfg,
                     const mpp_topo *t, uint64_t seed, mpp_err *err)
{
    memset(tr, 0, sizeof *tr);
    tr->ops = ops;
    tr->cfg = cfg;
    tr->topo = t;
    if (ops->check && !ops->check(t, cfg, err))
        return MPP_EINVAL;
    if (ops->perm) {
        tr->table = malloc((size_t)t->nodes * sizeof *tr->table);
        if (!tr->table)
            return mpp_err_set(err, MPP_ENOMEM, "out of memory");
        mpp_rng rng;
        mpp_rng_init(&rng, seed, MPP_RNG_PATTERN, 0);
        ops->perm(t, cfg, &rng, tr->table);
    }
    return 0;
}

void mpp_traffic_free(mpp_traffic *tr)
{
    if (!tr)
        return;
    free(tr->table);
    tr->table = NULL;
}

void mpp_place(int kind, uint64_t seed, uint32_t n, uint32_t *phys, uint32_t *logical)
{
    for (uint32_t i = 0; i < n; i++)
        phys[i] = i;
    if (kind == MPP_PLACE_RANDOM) {
        mpp_rng prng;
        mpp_rng_init(&prng, seed, MPP_RNG_PLACEMENT, 0);
        mpp_rng_shuffle(&prng, phys, n);
    }
    for (uint32_t i = 0; i < n; i++)
        logical[phys[i]] = i;
}
