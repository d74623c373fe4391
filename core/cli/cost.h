/* core/cli/cost.h — the estimated work of a run (mpp_cost_*), from its
 * configuration alone: `run` orders its queue by it and refuses runs above
 * --max-work, `check` prints it. Front end: no printing here. */
#ifndef MPP_CORE_CLI_COST_H
#define MPP_CORE_CLI_COST_H

#include "core/sim.h"

/* Flit-router crossings a second of one core of the machine measured in
 * docs/performance.md ("Work estimates"): turns an estimate into seconds. */
#define MPP_COST_PER_S 1e7

/* `run --max-work`'s default: about a day of one core at MPP_COST_PER_S. */
#define MPP_COST_MAX_DEFAULT 1e12

/* What the estimate keeps from one run to the next (the last topology). */
typedef struct mpp_cost_cache mpp_cost_cache;

/* A new cache, or NULL when out of memory. */
mpp_cost_cache *mpp_cost_new(void);
void mpp_cost_free(mpp_cost_cache *c);

/* The estimated work of a run of cfg in flit-router crossings (cost.c
 * says how). Builds cfg's topology when c holds another (call it on
 * validated configurations: mpp_sim_validate has sized them); never
 * fails: a topology that cannot be built costs as one node. */
double mpp_cost_run(const mpp_sim_config *cfg, mpp_cost_cache *c);

#endif
