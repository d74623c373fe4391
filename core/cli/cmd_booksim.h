/* core/cli/cmd_booksim.h — `mppnet booksim FILE [key=value ...]`: run a
 * BookSim 2 configuration file unchanged (core/config/booksim.h maps it),
 * print mppnet's results and BookSim's summary block (front end: prints,
 * and returns the process exit status). `mppnet run FILE` comes here when
 * FILE is a BookSim configuration. */
#ifndef MPP_CORE_CLI_CMD_BOOKSIM_H
#define MPP_CORE_CLI_CMD_BOOKSIM_H

#include <stdbool.h>
#include <stddef.h>

#include "core/base/err.h"

/* `mppnet booksim` with argv[0] = "booksim": 0 ok, 1 a run failed
 * (deadlock), 2 bad usage or input (a key mppnet cannot honour). */
int mpp_cmd_booksim(int argc, char **argv);

/* The BookSim configuration text (len bytes read from path) with BookSim
 * overrides ov[0..nov-1] ("num_vcs=4"): run and print as mpp_cmd_booksim.
 * quiet: no progress; dump: print the mppnet experiment instead of running
 * it. The exit status. */
int mpp_booksim_run_text(const char *path, const char *text, size_t len, size_t nov,
                         const char *const *ov, bool quiet, bool dump);

/* The experiment of the file at path: a BookSim configuration (with
 * BookSim overrides ov) mapped as `mppnet booksim` maps it, or a YAML
 * experiment (with key.path=value overrides) as mpp_experiment_load. For
 * `mppnet check`. NULL with err set (the loaders' errors; MPP_EIO for an
 * unreadable file). */
struct mpp_experiment;
struct mpp_experiment *mpp_booksim_or_yaml_load(const char *path, size_t nov,
                                                const char *const *ov, mpp_err *err);

#endif
