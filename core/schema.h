/* core/schema.h — the schemas of the engine's own sections (network:,
 * node:, and the run control's seed), their defaults, and the table of
 * standard result columns. The plug-in selectors of the network section
 * (topology, router) and the workload section belong to the configuration
 * layer, which knows the registries. */
#ifndef MPP_CORE_SCHEMA_H
#define MPP_CORE_SCHEMA_H

#include "core/base/param.h"
#include "core/sections.h"

/* network: (mpp_net_config), node: (mpp_node_config), and the top-level
 * seed (mpp_run_config). Every row's default is the section's default. */
extern const mpp_schema mpp_net_schema;
extern const mpp_schema mpp_node_schema;
extern const mpp_schema mpp_run_schema;

/* Names of the messaging paradigms in mpp_paradigm order, NULL-terminated
 * (for workloads' `paradigm` keys and the commands). */
extern const char *const mpp_paradigm_names[];

/* Fill the engine's sections of cfg with their defaults: net (no topology
 * or routing chosen), node and run; the workload is left empty (no
 * workload). */
void mpp_sections_defaults(mpp_sim_config *cfg);

#endif
