/* core/cli/cmd_bcast.h — the `mppnet bcast show` command (mpp_cmd_bcast).
 *
 * Part of the front end (core/cli/cli.c dispatches to it): it prints, and it
 * turns MPP_E* codes into exit statuses (0 success, 2 bad usage or input).
 * The work is done by algorithms/bcast_dist.h (source distributions of
 * s-to-p broadcasting). `bcast` is a family of subcommands; `show` is the
 * first. */
#ifndef MPP_CORE_CLI_CMD_BCAST_H
#define MPP_CORE_CLI_CMD_BCAST_H

/* Run `mppnet bcast ...`: argv[0] is "bcast", argv[1] the subcommand.
 * Prints results on stdout, errors on stderr as one line "mppnet: bcast
 * SUB: ...", and returns the exit status. Writes no file; owns nothing
 * after it returns. */
int mpp_cmd_bcast(int argc, char **argv);

/* The help text of `mppnet bcast` (static storage). */
extern const char mpp_cmd_bcast_help[];

#endif
