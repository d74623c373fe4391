/* core/cli/bench.h — the fixed benchmark workloads of `mppnet bench` (mpp_bench_*).
 *
 * Five workloads, each built as a small experiment text
 * (so they go through the same configuration path as user experiments) and
 * run in a forked child process, so that the peak resident memory reported
 * for a workload is that workload's alone:
 *   a  8x8 mesh, ecube, uniform, rate 0.3, 5-flit packets, 2 VCs x 8 flits,
 *      router_delay 4, iSLIP, warm-up 10000 + 100000 measured cycles
 *   b  the same at rate 0.05
 *   c  1024-node hypercube (dim 10), ecube, uniform, rate 0.3, as a but
 *      20000 measured cycles
 *   d  32x32 mesh, ecube, uniform, rate 0.08, as a but 20000 measured cycles
 *   e  the CM-5 through the NIC: `machine: cm5` with 1024 nodes, messages
 *      workload, every node sends 4 KiB to its partner in a random
 *      permutation (randperm), paradigm sync; runs until the last message
 *      is delivered (offered is NaN, accepted and latency_mean are the
 *      packet statistics over the whole run)
 * Library code: nothing here prints. */
#ifndef MPP_CORE_CLI_BENCH_H
#define MPP_CORE_CLI_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/err.h"
#include "core/sim.h"
#include "core/base/strbuf.h"

/* What one workload measured. Rates are per wall second of mpp_sim_run
 * (network construction excluded). */
typedef struct mpp_bench_report {
    char name[8];                /* "a" .. "f" */
    char desc[96];               /* one line: the configuration */
    uint64_t cycles;             /* simulated cycles */
    double wall_seconds;         /* host time of the run */
    double cycles_per_sec;       /* cycles / wall */
    double router_cycles_per_sec;/* result.router_cycles / wall */
    double flit_hops_per_sec;    /* result.flit_hops / wall */
    double offered, accepted;    /* flits/node/cycle */
    double latency_mean;         /* cycles, from creation */
    bool saturated;
    double peak_rss_mb;          /* peak resident set of the child, MiB */
} mpp_bench_report;

/* Number of workloads, and the name ("a".."f") and one-line description of
 * workload i < mpp_bench_count(). */
size_t mpp_bench_count(void);
const char *mpp_bench_name(size_t i);
const char *mpp_bench_desc(size_t i);

/* Index of the workload called name, or -1. */
int mpp_bench_find(const char *name);

/* Append the experiment text of workload i (YAML) to out. Fails with
 * MPP_EINVAL when a plug-in it needs is not registered. */
int mpp_bench_text(size_t i, mpp_sb *out, mpp_err *err);

/* Run workload i in a forked child and fill *out. Returns 0; the error of
 * the configuration or the run (MPP_EINVAL, MPP_EDEADLOCK, ...) with err
 * filled; or MPP_ERUN when the child could not be started or died. Blocks
 * until the child is done; no other state is shared with it. */
int mpp_bench_run(size_t i, mpp_bench_report *out, mpp_err *err);

#endif
