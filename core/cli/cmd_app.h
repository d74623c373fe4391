/* core/cli/cmd_app.h — the `mppnet app wolff|lee` command (mpp_cmd_app).
 *
 * Part of the front end (core/cli/cli.c dispatches to it): it prints, and it
 * turns MPP_E* codes into exit statuses (0 success, 2 bad usage or input).
 * The work is done by algorithms/apps.h (the Wolff cluster algorithm and
 * Lee's maze routing of Bae and Ranka 1994): each runs on one node
 * processor of a machine preset, priced by its node.app_*_cycles. */
#ifndef MPP_CORE_CLI_CMD_APP_H
#define MPP_CORE_CLI_CMD_APP_H

/* Run `mppnet app ...`: argv[0] is "app", argv[1] the application. Prints
 * results on stdout, errors on stderr as one line "mppnet: app NAME: ...",
 * and returns the exit status. Writes no file; owns nothing after it
 * returns. */
int mpp_cmd_app(int argc, char **argv);

/* The help text of `mppnet app` (static storage). */
extern const char mpp_cmd_app_help[];

#endif
