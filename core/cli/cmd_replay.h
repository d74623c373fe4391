/* core/cli/cmd_replay.h — the `mppnet replay` command (front end: prints, and
 * returns the process exit status). */
#ifndef MPP_CORE_CLI_CMD_REPLAY_H
#define MPP_CORE_CLI_CMD_REPLAY_H

/* Run `mppnet replay` with argv[0] = "replay". */
int mpp_cmd_replay(int argc, char **argv);

#endif
