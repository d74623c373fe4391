/* core/config/simcfg.h — one simulation's configuration from YAML
 * (mpp_config_*): defaults, the sections of a located tree applied to an
 * mpp_sim_config against every schema, single keys set from C, and the
 * resolved configuration printed as YAML or JSON.
 *
 * Sections and their rows:
 *   network:  topology and router (plug-in selectors, each with its own
 *             section network.<name>: {...}) and the engine's network rows
 *             (core/schema.c);
 *   node:     the engine's node rows;
 *   workload: `type` (a workload plug-in, default synthetic) and the rows of
 *             that workload's own schema, written flat in the section; a row
 *             of type MPP_PT_PLUGIN (a workload's pattern or scheduler)
 *             selects a plug-in whose parameters go in workload.<name>.
 * A key that is the name of a plug-in of a family the section selects from
 * is that plug-in's section and is checked against its schema even when the
 * plug-in is not chosen, so a typo never hides. Nothing is read after
 * resolution; errors name FILE:LINE:COLUMN and what was expected. */
#ifndef MPP_CORE_CONFIG_SIMCFG_H
#define MPP_CORE_CONFIG_SIMCFG_H

#include <stdbool.h>

#include "core/base/err.h"
#include "core/base/strbuf.h"
#include "core/config/cfgtree.h"
#include "core/sections.h"

/* Every default: an 8x8 mesh, ecube, 2 VCs of 8 flits, wormhole,
 * separable allocation, latencies 1, the synthetic workload (uniform
 * traffic at 0.1, 5-flit packets, 10000 + 30000 cycles, drain factor 10),
 * seed 1. Cannot fail. */
void mpp_config_defaults(mpp_sim_config *cfg);

/* Apply the network:, node: and workload: sections of root (a mapping;
 * other keys are ignored) to cfg, in that order; times are converted with
 * the network clock as root or cfg gives it. A selector that names a
 * plug-in resets that plug-in's configuration to its defaults before its
 * section applies. Returns 0 or MPP_EINVAL / MPP_ENOMEM with a located
 * message; cfg may then be partly changed. */
int mpp_config_apply(const mpp_cfgnode *root, mpp_sim_config *cfg, mpp_err *err);

/* Inline plug-in parameters: a selector written "NAME:ARGS" — a router
 * "romm:k=3", a pattern "hotspot:fraction=0.5", a topology in its short
 * form "mesh:8x8" or as "hypercube:dim=8" — becomes NAME plus the keys of
 * its section in tree t, so one sweep axis can vary a plug-in and its
 * parameters together (`network.router: [ecube, "romm:k=2"]`). Every
 * selector of the network and of the tree's workload type is expanded; the
 * new keys carry the selector's location. Returns 0 or MPP_EINVAL. */
int mpp_config_expand_inline(mpp_cfgnode *t, mpp_err *err);

/* Set one key from C: "network.vcs", "workload.type", "workload.hotspot.
 * fraction", "node.cpu_mhz", "seed", with value as it would be written in
 * YAML. The same checks and messages as a file ("command line: KEY=VALUE:
 * ..."). */
int mpp_config_set(mpp_sim_config *cfg, const char *key, const char *value, mpp_err *err);

/* The resolved configuration, every key with its value in schema order:
 * network (topology, its section, router, its section, the network rows),
 * workload (type, then its rows, plug-in selectors followed by their
 * sections), node (when the workload runs node programs, depends on the
 * node section's sizes, or nic is model),
 * seed. Plug-in sections only when the plug-in has parameters. As block
 * YAML (json false) or one JSON object. */
void mpp_config_dump(const mpp_sim_config *cfg, mpp_sb *out, bool json);

#endif
