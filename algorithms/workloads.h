/* algorithms/workloads.h — the workload plug-in family: the registry
 * (algorithms/workloads.c) of every workload, those of this folder and the
 * trace replays of traces/. The ops table is the engine's
 * (core/workload.h). */
#ifndef MPP_ALGORITHMS_WORKLOADS_H
#define MPP_ALGORITHMS_WORKLOADS_H

#include "core/topo.h"
#include "core/workload.h"

/* The workload called name, or NULL. */
const mpp_workload_ops *mpp_workload_find(const char *name);
/* NULL-terminated list of all registered workloads. */
const mpp_workload_ops *const *mpp_workload_all(void);
/* The family, for the configuration layer (workload.type). */
extern const mpp_family mpp_workload_family;

/* The permutation workload's lower bound, in cycles, on delivering n
 * messages, message m fl[m] flits from node src[m] to node dst[m] on t
 * (dst_flits[d]: all flits bound for node d, [t->nodes]): the larger of the
 * ejection bound and the bisection bound of t's kind
 * (algorithms/wl_permutation.c). Cannot fail; reads only. Setup, not hot;
 * public so the tests can compare the kinds' bounds. */
double mpp_permutation_bound(const mpp_topo *t, const uint64_t *dst_flits, const uint32_t *src,
                             const uint32_t *dst, const uint64_t *fl, uint32_t n);

#endif
