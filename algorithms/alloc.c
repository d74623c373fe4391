/* algorithms/alloc.c — data allocation (see alloc.h). */
#include "algorithms/alloc.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/rng.h"
#include "traces/partition.h"

const char *const mpp_alloc_names[] = {"block", "cyclic", "random", "map", NULL};

int mpp_alloc_parse(const char *name, mpp_alloc_kind *kind, mpp_err *err)
{
    for (int k = 0; mpp_alloc_names[k]; k++)
        if (!strcmp(name, mpp_alloc_names[k])) {
            *kind = (mpp_alloc_kind)k;
            return 0;
        }
    return mpp_err_set(err, MPP_EINVAL,
                       "unknown data allocation '%.40s': expected block, cyclic, random or map",
                       name);
}

int mpp_alloc_build(mpp_alloc_kind kind, uint32_t V, uint32_t N, uint64_t seed,
                    const char *map_path, uint32_t *owner, mpp_err *err)
{
    if (N == 0)
        return mpp_err_set(err, MPP_EINVAL, "data allocation on 0 nodes");
    switch (kind) {
    case MPP_ALLOC_BLOCK:
        for (uint32_t v = 0; v < V; v++)
            owner[v] = mpp_alloc_block_owner(v, V, N);
        return 0;
    case MPP_ALLOC_CYCLIC:
        for (uint32_t v = 0; v < V; v++)
            owner[v] = v % N;
        return 0;
    case MPP_ALLOC_RANDOM: {
        /* the permutation, then block on its order (alloc.h) */
        uint32_t *perm = malloc((V ? V : 1) * sizeof *perm);
        if (!perm)
            return mpp_err_set(err, MPP_ENOMEM, "random data allocation: out of memory");
        for (uint32_t v = 0; v < V; v++)
            perm[v] = v;
        mpp_rng r;
        mpp_rng_init(&r, seed, MPP_RNG_WORKLOAD, MPP_ALLOC_RNG_ID);
        mpp_rng_shuffle(&r, perm, V);
        for (uint32_t k = 0; k < V; k++)
            owner[perm[k]] = mpp_alloc_block_owner(k, V, N);
        free(perm);
        return 0;
    }
    case MPP_ALLOC_MAP:
        if (!map_path || !map_path[0])
            return mpp_err_set(err, MPP_EINVAL,
                               "data allocation map: the map file (one node per line) is "
                               "missing");
        return mpp_partition_read_parts(map_path, V, N, owner, err);
    }
    return mpp_err_set(err, MPP_EINVAL, "unknown data allocation %d", (int)kind);
}
