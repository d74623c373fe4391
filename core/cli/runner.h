/* core/cli/runner.h — `mppnet run`: an experiment's runs on worker
 * processes into an output folder that never loses a finished run
 * (mpp_run_*). Front end: prints, returns exit statuses. */
#ifndef MPP_CORE_CLI_RUNNER_H
#define MPP_CORE_CLI_RUNNER_H

#include <stdbool.h>
#include <stddef.h>

#include "core/base/err.h"
#include "core/config/experiment.h"
#include "core/results.h"
#include "core/sim.h"
#include "core/workload.h"

/* `mppnet run ...` (argv[0] is "run"); the exit status. */
int mpp_cmd_run(int argc, char **argv);

/* Check every run of e with mpp_sim_validate (what building its
 * simulation checks — VC classes, a pattern against the size, a workload's
 * files — without building its network), so it is reported before
 * anything runs; origin prefixes the message. 0 or the error's code. */
int mpp_run_validate(const mpp_experiment *e, const char *origin, mpp_err *err);

/* "run 3 (workload.rate=0.2, seed 1)" into buf. */
void mpp_run_describe(const mpp_experiment *e, size_t i, char *buf, size_t len);

/* Print one summary value of result r (workload w) in column c's width:
 * an integer, a real with c's decimals ("-" when not finite or not a
 * column of this run), yes/no. */
void mpp_run_print_value(const mpp_summary_col *c, const mpp_workload_ops *w,
                         const mpp_sim_result *r);

/* Progress of one run on stderr (`sim`) while `on` (not --quiet): on a
 * terminal (`tty`) a bar with the time elapsed and left, drawn at most ten
 * times a second (clear it before printing anything else); otherwise a
 * line each time the run passes another tenth. Zero the rest. */
typedef struct mpp_run_bar {
    bool on;
    bool tty;
    bool shown, started;
    double last, start, f0;
    int tenth;
} mpp_run_bar;
void mpp_run_bar_update(mpp_run_bar *b, double frac);
void mpp_run_bar_clear(mpp_run_bar *b);

/* Runs s with that progress on stderr unless `quiet`, adding its host
 * seconds to *wall. When the run fails, prints the error and the
 * simulator's report on stderr and returns the exit status; 0 when it
 * ran (`sim`, `booksim`). */
int mpp_run_sim_shown(mpp_sim *s, bool quiet, double *wall);

#endif
