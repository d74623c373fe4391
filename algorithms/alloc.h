/* algorithms/alloc.h — data allocation (mpp_alloc_*): which of N nodes owns
 * each of V data items (array elements, the vertices of a mesh), the
 * classic layouts of data-parallel languages (HPF's BLOCK and CYCLIC), a
 * random one and an explicit map file:
 *
 *   block   item v on node floor(v N / V): consecutive items together, the
 *           node loads ceil or floor of V / N;
 *   cyclic  item v on node v mod N;
 *   random  a random permutation p of the items (Fisher-Yates, the stream
 *           (seed, MPP_RNG_WORKLOAD, MPP_ALLOC_RNG_ID), so a function of the
 *           seed alone), then block on the permuted order: item p[k] on node
 *           floor(k N / V). The loads are exactly those of block (balanced),
 *           only which items a node holds is random;
 *   map     a file of V lines, line v + 1 the node of item v (0-based: the
 *           format of METIS .part files, plain or gzip; read by
 *           mpp_partition_read_parts, traces/partition.h). A node number
 *           N or above, a short or long file are refused with "FILE:LINE:
 *           ..." (MPP_EFORMAT); a file that cannot be read with MPP_EIO.
 *
 * Nothing here prints or keeps state. Not on the hot path. */
#ifndef MPP_ALGORITHMS_ALLOC_H
#define MPP_ALGORITHMS_ALLOC_H

#include <stdint.h>

#include "core/base/err.h"

typedef enum mpp_alloc_kind {
    MPP_ALLOC_BLOCK = 0,
    MPP_ALLOC_CYCLIC = 1,
    MPP_ALLOC_RANDOM = 2,
    MPP_ALLOC_MAP = 3
} mpp_alloc_kind;

/* The random allocation's stream id under MPP_RNG_WORKLOAD. */
#define MPP_ALLOC_RNG_ID UINT64_C(0xa110ca7e)

/* The kinds' names in enum order, NULL-terminated (a schema's choices). */
extern const char *const mpp_alloc_names[];

/* The kind called name: 0 and *kind, or MPP_EINVAL naming the valid kinds. */
int mpp_alloc_parse(const char *name, mpp_alloc_kind *kind, mpp_err *err);

/* The node of item v under block allocation of V items on N nodes (v < V,
 * N >= 1). */
static inline uint32_t mpp_alloc_block_owner(uint64_t v, uint64_t V, uint32_t N)
{
    return (uint32_t)(v * N / V);
}

/* Fill owner[0 .. V) with the allocation `kind` of V items on N nodes
 * (N >= 1); random uses seed, map reads map_path (others ignore both).
 * MPP_EINVAL (N == 0, an unknown kind, map without a path), and for map
 * MPP_EIO, MPP_EFORMAT ("FILE:LINE: ..."). owner is undefined on failure. */
int mpp_alloc_build(mpp_alloc_kind kind, uint32_t V, uint32_t N, uint64_t seed,
                    const char *map_path, uint32_t *owner, mpp_err *err);

#endif
