/* core/cli/cmd_saturate.h — `mppnet saturate`: the saturation rate and the
 * knee of an open-loop experiment by bisection of its offered rate, per
 * seed, with a confidence interval over the seeds (front end: prints, and
 * returns the process exit status). */
#ifndef MPP_CORE_CLI_CMD_SATURATE_H
#define MPP_CORE_CLI_CMD_SATURATE_H

/* Run `mppnet saturate` with argv[0] = "saturate": 0 ok, 1 a probe failed
 * (deadlock, a worker died), 2 bad usage or input. */
int mpp_cmd_saturate(int argc, char **argv);

#endif
