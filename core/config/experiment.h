/* core/config/experiment.h — YAML experiments (mpp_experiment_*).
 *
 * An experiment file (schema in docs/config.md) is read with libyaml into a
 * tree that keeps every node's line and column, command-line overrides
 * ("key.path=value", the value parsed as YAML) are applied to the tree, the
 * explicit `sweep:` axes are expanded as a cross product, and every run
 * (sweep point x seed) is resolved against the parameter schemas
 * (core/base/param.h) into an mpp_sim_config. All of this happens at load time:
 * a loaded experiment is known to be valid, so `mppnet check` is a load, and
 * `mppnet run` writes nothing when a load fails.
 *
 * Errors are MPP_EINVAL (or MPP_EIO for an unreadable file) with a message
 * "FILE:LINE:COLUMN: what is wrong, what was expected"; for an override the
 * location is "command line: key=value". */
#ifndef MPP_CORE_CONFIG_EXPERIMENT_H
#define MPP_CORE_CONFIG_EXPERIMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/err.h"
#include "core/sections.h"
#include "core/base/strbuf.h"

typedef struct mpp_experiment mpp_experiment;

/* The `output:` section. */
typedef struct mpp_output_config {
    char dir[512];        /* output.dir; default "results/<name>" */
    bool per_channel;     /* output.per_channel: channels.csv */
    bool traffic_matrix;  /* output.traffic_matrix: matrix_<run>.csv */
    bool per_message;     /* output.per_message: messages.csv */
    bool plot;            /* output.plot: a gnuplot plot when gnuplot exists (default true) */
    bool dir_free;        /* dir came from the command line (an override output.dir=...):
                             any path, symlinks followed; else (the file's output.dir, the
                             default) it is walked inside the working folder, no symlink */
} mpp_output_config;

/* Load the experiment in file `path` and apply the overrides in order.
 * Returns NULL with err filled on any error. */
mpp_experiment *mpp_experiment_load(const char *path, size_t noverrides,
                                    const char *const *overrides, mpp_err *err);

/* Overrides that were read from a file, not from the command line: the
 * first n overrides given with them come from the file `origin`, the i-th
 * at line[i] (its key at column 1). Their values are checked as values of
 * a file: a path in them must be relative, without "..", and an input file
 * must not resolve outside the working folder. */
typedef struct mpp_override_file {
    const char *origin;
    size_t n;
    const uint32_t *line; /* [n] */
} mpp_override_file;

/* The same from the text of the file at path (read by the caller; path
 * names it in messages and gives the default name): `mppnet run --resume`
 * loads the copy of an experiment it kept this way, the copy's own
 * overrides first, marked by `from` (may be NULL: every override comes
 * from the command line). */
mpp_experiment *mpp_experiment_load_text(const char *text, size_t len, const char *path,
                                         const mpp_override_file *from, size_t noverrides,
                                         const char *const *overrides, mpp_err *err);

/* The same from YAML text; `origin` names it in error messages. */
mpp_experiment *mpp_experiment_parse(const char *text, const char *origin, size_t noverrides,
                                     const char *const *overrides, mpp_err *err);

/* The same from a tree built by another reader (core/config/booksim.c):
 * root is owned (kept or freed, also on failure), name is the default
 * experiment name, no overrides. */
struct mpp_cfgnode;
mpp_experiment *mpp_experiment_load_tree(struct mpp_cfgnode *root, const char *name,
                                         mpp_err *err);

/* The node section of machine preset `machine` ("cm5"), resolved as
 * `machine: NAME` resolves it in an experiment (schema defaults under the
 * preset's keys), into *node: for commands that price work on one node
 * processor. 0, or MPP_E* with err set (an unknown preset: MPP_EINVAL
 * listing the presets; a preset without node.cpu_mhz: MPP_EINVAL). */
int mpp_experiment_machine_node(const char *machine, mpp_node_config *node, mpp_err *err);

/* The experiment's name: `name:` or the file's base name without .yaml. */
const char *mpp_experiment_name(const mpp_experiment *e);
const mpp_output_config *mpp_experiment_output(const mpp_experiment *e);

/* Number of runs: (product of the sweep axes' lengths) x (number of seeds).
 * Runs are ordered with the seed varying fastest, then the last axis. */
size_t mpp_experiment_runs(const mpp_experiment *e);
/* Resolved configuration of run i (owned by e). */
const mpp_sim_config *mpp_experiment_config(const mpp_experiment *e, size_t i);

/* Sweep axes: their key paths, and the value of axis a in run i as text
 * exactly as written in the file (e.g. "uniform", "0.25"). */
size_t mpp_experiment_axes(const mpp_experiment *e);
const char *mpp_experiment_axis(const mpp_experiment *e, size_t a);
const char *mpp_experiment_value(const mpp_experiment *e, size_t i, size_t a);

/* The resolved configuration of run i, every key with its value (defaults
 * included), as a JSON object or as YAML text (for --dump-config). */
void mpp_experiment_config_json(const mpp_experiment *e, size_t i, mpp_sb *out);
void mpp_experiment_config_yaml(const mpp_experiment *e, size_t i, mpp_sb *out);

/* A 64-bit FNV-1a hash of run i's resolved configuration text (seed
 * included): recorded in outputs so results can be matched to configs. */
uint64_t mpp_experiment_hash(const mpp_experiment *e, size_t i);

/* Where run i's value of keypath ("workload.s") was written: "FILE:LINE:COL"
 * (the sweep's value for a swept key, the machine preset's line for a key
 * the preset gave), the override's text for a command-line value, or NULL
 * when no such key was written. For errors found after loading (a
 * workload's setup), so that they point at the line to change. */
const char *mpp_experiment_where(const mpp_experiment *e, size_t i, const char *keypath,
                                 char *buf, size_t size);

void mpp_experiment_destroy(mpp_experiment *e);

#endif
