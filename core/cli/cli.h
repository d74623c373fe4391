/* core/cli/cli.h — the mppnet command line (mpp_cli_*).
 *
 * The front end: the only module that prints to stdout/stderr and turns
 * MPP_E* codes into exit statuses (0 ok, 1 a run failed, 2 bad usage or
 * input, 130 interrupted by SIGINT). Commands: run, sim, check, list, bench,
 * plot, com, schedule, replay, help (see `mppnet --help`). */
#ifndef MPP_CORE_CLI_CLI_H
#define MPP_CORE_CLI_CLI_H

/* Run the command line argv[0..argc-1] and return the process exit status.
 * Owns nothing after it returns; installs a SIGINT handler for `run` (the
 * one global of the program is its flag). */
int mpp_cli_main(int argc, char **argv);

/* The program version ("0.1.0"): meson's project version when the build
 * passes -DMPP_VERSION, else a built-in copy. Static storage. */
const char *mpp_cli_version(void);

#endif
