/* core/cli/cmd_com.h — the `mppnet com gen|info|convert|partition` command (mpp_cmd_com).
 *
 * Part of the front end (core/cli/cli.c dispatches to it): it prints, and it
 * turns MPP_E* codes into exit statuses (0 success, 2 bad usage or input).
 * The work is done by traces/com.h (files and generators). */
#ifndef MPP_CORE_CLI_CMD_COM_H
#define MPP_CORE_CLI_CMD_COM_H

/* Run `mppnet com ...`: argv[0] is "com", argv[1] the subcommand. Prints
 * results on stdout, errors on stderr as "mppnet: ..." (file errors as
 * "mppnet: FILE:LINE: ..."), and returns the exit status. Writes files
 * only through mpp_com_write (atomic); owns nothing after it returns. */
int mpp_cmd_com(int argc, char **argv);

/* The help text of `mppnet com` (static storage). */
extern const char mpp_cmd_com_help[];

#endif
