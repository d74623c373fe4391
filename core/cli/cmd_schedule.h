/* core/cli/cmd_schedule.h — `mppnet schedule`: run a scheduler on a matrix
 * (mpp_cmd_schedule*).
 *
 * Two forms (see mpp_cmd_schedule_help):
 *   mppnet schedule --alg NAME [key=value ...] FILE
 *       schedule every matrix of a COM file and print its phases;
 *   mppnet schedule --alg NAME --gen random-regular|random-nonuniform
 *       --n N --d D [--samples S] [--seed X] [--json] [key=value ...]
 *       generate S matrices (seeds X, X + 1, ...), schedule and check each,
 *       and print statistics (phases, steps, idle-time proxy; one JSON
 *       object with --json, deterministic except its "timing" member).
 * key=value sets a parameter of the scheduler's schema (`cutoff=median`).
 * Part of the command line: it prints, and returns an exit status. */
#ifndef MPP_CORE_CLI_CMD_SCHEDULE_H
#define MPP_CORE_CLI_CMD_SCHEDULE_H

/* The help text (static storage). */
extern const char mpp_cmd_schedule_help[];

/* The `schedule` command: argv[0] is "schedule". Returns 0, or 2 for bad
 * usage or input, an unreadable file, or a schedule that fails
 * mpp_schedule_check (a scheduler bug; the message says what is wrong).
 * Results go to stdout, errors to stderr as "mppnet: schedule: ...". */
int mpp_cmd_schedule(int argc, char **argv);

#endif
