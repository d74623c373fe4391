/* core/cli/cmd_mpi.h — the `mppnet mpi` command (mpp_cmd_mpi): one re-timed
 * replay of an MPI trace (the `mpi` workload, algorithms/wl_mpi.c) on a
 * machine preset, its per-rank table and totals on stdout and, with -o,
 * its reports in a folder (ranks.csv, calls.csv, pairs.csv, traffic.com).
 * Part of the front end: it prints and turns MPP_E* codes into exit
 * statuses (0 ok, 1 the run failed: a deadlock, 2 bad usage or input). */
#ifndef MPP_CORE_CLI_CMD_MPI_H
#define MPP_CORE_CLI_CMD_MPI_H

/* Run `mppnet mpi TRACE ...` (argv[0] is "mpi"); returns the exit status.
 * Owns nothing after it returns. */
int mpp_cmd_mpi(int argc, char **argv);

#endif
