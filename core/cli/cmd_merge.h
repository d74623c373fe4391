/* core/cli/cmd_merge.h — `mppnet merge DIR... -o OUT`: the output folders
 * of the shards of one experiment (`mppnet run --shard I/N`) joined into
 * one folder, as one `mppnet run` of the whole experiment writes it
 * (mpp_cmd_merge). Front end: prints, returns the exit status. */
#ifndef MPP_CORE_CLI_CMD_MERGE_H
#define MPP_CORE_CLI_CMD_MERGE_H

/* Run `mppnet merge` (argv[0] is "merge"): 0 merged, 1 merged but a run
 * had failed (a deadlock, as `run` exits), 2 bad usage or input (folders
 * of different experiments, a run missing or twice, a damaged record, OUT
 * not new); nothing is written to OUT unless it exits 0 or 1. */
int mpp_cmd_merge(int argc, char **argv);

#endif
