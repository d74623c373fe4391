/* algorithms/workloads.h — the workload plug-in family: the registry
 * (algorithms/workloads.c) of every workload, those of this folder and the
 * trace replays of traces/. The ops table is the engine's
 * (core/workload.h). */
#ifndef MPP_ALGORITHMS_WORKLOADS_H
#define MPP_ALGORITHMS_WORKLOADS_H

#include "core/workload.h"

/* The workload called name, or NULL. */
const mpp_workload_ops *mpp_workload_find(const char *name);
/* NULL-terminated list of all registered workloads. */
const mpp_workload_ops *const *mpp_workload_all(void);
/* The family, for the configuration layer (workload.type). */
extern const mpp_family mpp_workload_family;

#endif
