/* core/cli/cmd_capture.h — the `mppnet capture` command (mpp_cmd_capture):
 * run an MPI program with the capture library (traces/capture/,
 * libmppcapture.so) preloaded and check the trace it leaves.
 *
 * Part of the front end (core/cli/cli.c dispatches to it): it prints, and it
 * turns failures into exit statuses (0 captured, 1 the program failed or the
 * trace is incomplete, 2 bad usage or input). */
#ifndef MPP_CORE_CLI_CMD_CAPTURE_H
#define MPP_CORE_CLI_CMD_CAPTURE_H

/* Run `mppnet capture -o DIR [--] CMD ARGS...`: argv[0] is "capture". Makes
 * DIR (refused when it exists and is not empty), runs CMD (execvp, never
 * through a shell) in a child with LD_PRELOAD and MPPNET_CAPTURE_DIR set,
 * waits for it, checks that DIR holds capture.mpt and one file per rank,
 * and prints "captured N ranks into DIR" on stdout. Errors are lines on
 * stderr "mppnet: capture: ...". Owns nothing after it returns. */
int mpp_cmd_capture(int argc, char **argv);

#endif
