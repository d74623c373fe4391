/* core/cli/cmd_app.c — `mppnet app wolff|lee`: the irregular applications
 * of Bae and Ranka (algorithms/apps.h; docs/apps.md, docs/cli.md) run on
 * one node processor of a machine preset, their operations priced by the
 * node's compute model (node.app_*_cycles).
 *
 *   mpp_cmd_app --"wolff"/"lee"--> cmd_run: parse flags (getopt_long)
 *        |                             --bad--> one line on stderr, exit 2
 *        |                         check every value, resolve --machine
 *        |                             --bad--> one line on stderr, exit 2
 *        |                         run (mpp_wolff_sequential /
 *        |                         mpp_lee_sequential), print, exit 0
 *        +--other------------------> "unknown command", exit 2
 *
 * Invariants:
 *   1. Every check is made before the lattice is allocated and before
 *      anything is printed: a failing command prints nothing on stdout.
 *   2. stdout carries only results; each error is one line on stderr.
 *   3. Exit status 0 on success, 2 on bad usage or input. */
#include "core/cli/cmd_app.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "algorithms/apps.h"
#include "core/base/err.h"
#include "core/base/strbuf.h"
#include "core/base/sysmem.h"
#include "core/cli/args.h"
#include "core/config/experiment.h"

const char mpp_cmd_app_help[] =
    "usage: mppnet app wolff|lee [ARGS]\n"
    "\n"
    "The irregular applications of Bae and Ranka (1994) on one node processor\n"
    "of a machine preset (docs/apps.md).\n"
    "\n"
    "commands:\n"
    "  wolff    the Wolff cluster algorithm on an N x N Ising lattice\n"
    "  lee      Lee's maze routing on an N x N grid pre-blocked by routed nets\n"
    "\n"
    "`mppnet app COMMAND --help` shows the options of a command.\n"
    "Exit status: 0 success, 2 bad usage or input.\n";

static const char help_wolff[] =
    "usage: mppnet app wolff [--N N] [--beta B] [--therm T] [--sweeps S]\n"
    "                        [--seed X] [--machine M] [--json]\n"
    "\n"
    "Run the Wolff cluster algorithm on one node processor: sweeps 0 .. T-1\n"
    "thermalise an N x N lattice (all spins up at first), sweeps T .. T+S-1\n"
    "are measured. Prints the mean cluster size, the operations of a sweep\n"
    "(sites expanded, neighbour tests, random numbers, queue operations,\n"
    "expansion cycles: means over the measured sweeps), their cost on the\n"
    "node (work_cycles, time_ms: the mean time of a sweep) and the scale time\n"
    "scale_ms = time_ms / mean cluster x N^2.\n"
    "\n"
    "options:\n"
    "  --N N             lattice side, 2 .. 16384 (default 256)\n"
    "  --beta B          inverse temperature, >= 0 (default beta_c = 0.4406868)\n"
    "  --therm T         thermalisation sweeps (default 100)\n"
    "  --sweeps S        measured sweeps, >= 1 (default 100)\n"
    "  --seed X          the seed of the bonds and start sites (default 1)\n"
    "  --machine M       the preset whose node prices the work (default cm5)\n"
    "  --max-work W      refuse a run estimated above W site visits (default\n"
    "                    1e12, about 2.3 hours: docs/apps.md, \"Sizes\")\n"
    "  --json            print one JSON object instead\n"
    "  -h, --help        show this help\n"
    "\n"
    "Exit status: 0 success, 2 bad usage or input (one line on stderr).\n";

static const char help_lee[] =
    "usage: mppnet app lee [--N N] [--fraction F] [--instances K] [--pairs R]\n"
    "                      [--seed X] [--machine M] [--json]\n"
    "\n"
    "Run Lee's maze routing on one node processor: instances 0 .. K-1 of the\n"
    "seed (an N x N grid pre-blocked to the fraction F by routed nets), each\n"
    "routed for R pairs of a source and a destination 0.4 N .. 0.6 N apart:\n"
    "K x R wavefront expansions. Prints the mean distance and Manhattan\n"
    "distance, the operations of an expansion (means over the expansions),\n"
    "and their cost on the node (work_cycles, time_ms: the mean time of the\n"
    "wavefront expansion).\n"
    "\n"
    "options:\n"
    "  --N N             grid side, 4 .. 16384 (default 256)\n"
    "  --fraction F      the blocked fraction, 0 .. 0.9 (default 0.25)\n"
    "  --instances K     instances (grids), >= 1 (default 10)\n"
    "  --pairs R         pairs routed on each grid, 1 .. 1000000 (default 1: an\n"
    "                    instance is a grid and its pair 0, as published)\n"
    "  --seed X          the seed of the instances (default 1)\n"
    "  --machine M       the preset whose node prices the work (default cm5)\n"
    "  --max-work W      refuse a run estimated above W site visits (default\n"
    "                    1e12, about 2.3 hours: docs/apps.md, \"Sizes\")\n"
    "  --json            print one JSON object instead\n"
    "  -h, --help        show this help\n"
    "\n"
    "Exit status: 0 success, 2 bad usage or input (one line on stderr).\n";

typedef struct app_args {
    const char *cmd;         /* "app wolff" / "app lee" */
    bool lee;
    uint64_t N, therm, sweeps, instances, pairs, seed;
    double beta, fraction;
    const char *machine;
    bool json;
    double max_work;         /* --max-work: site or cell visits */
} app_args;

enum { OPT_N = 1000, OPT_BETA, OPT_THERM, OPT_SWEEPS, OPT_FRACTION, OPT_INSTANCES, OPT_PAIRS,
       OPT_SEED, OPT_MACHINE, OPT_JSON, OPT_MAX_WORK };

/* --max-work's default: about 2.3 hours of one core at
 * MPP_APP_VISITS_PER_S (docs/apps.md, "Sizes"). */
#define APP_MAX_WORK 1e12

static const struct option wolff_options[] = {
    {"N", required_argument, NULL, OPT_N},
    {"beta", required_argument, NULL, OPT_BETA},
    {"therm", required_argument, NULL, OPT_THERM},
    {"sweeps", required_argument, NULL, OPT_SWEEPS},
    {"seed", required_argument, NULL, OPT_SEED},
    {"machine", required_argument, NULL, OPT_MACHINE},
    {"json", no_argument, NULL, OPT_JSON},
    {"max-work", required_argument, NULL, OPT_MAX_WORK},
    {NULL, 0, NULL, 0},
};

static const struct option lee_options[] = {
    {"N", required_argument, NULL, OPT_N},
    {"fraction", required_argument, NULL, OPT_FRACTION},
    {"instances", required_argument, NULL, OPT_INSTANCES},
    {"pairs", required_argument, NULL, OPT_PAIRS},
    {"seed", required_argument, NULL, OPT_SEED},
    {"machine", required_argument, NULL, OPT_MACHINE},
    {"json", no_argument, NULL, OPT_JSON},
    {"max-work", required_argument, NULL, OPT_MAX_WORK},
    {NULL, 0, NULL, 0},
};

/* Sweeps, thermalisation sweeps and instances: at most a million each. */
#define APP_MAX_RUNS 1000000u

static int app_opt(void *ud, int code, const char *arg)
{
    app_args *a = ud;
    switch (code) {
    case OPT_N:
        return mpp_args_u64(a->cmd, "--N", arg, a->lee ? 4 : 2, MPP_APP_MAX_N, false, &a->N);
    case OPT_BETA:
        if (mpp_args_double(a->cmd, "--beta", arg, &a->beta))
            return 2;
        if (!(a->beta >= 0))
            return mpp_args_usage(a->cmd, "--beta must be >= 0, not '%s'", arg);
        return 0;
    case OPT_THERM:
        return mpp_args_u64(a->cmd, "--therm", arg, 0, APP_MAX_RUNS, false, &a->therm);
    case OPT_SWEEPS:
        return mpp_args_u64(a->cmd, "--sweeps", arg, 1, APP_MAX_RUNS, false, &a->sweeps);
    case OPT_INSTANCES:
        return mpp_args_u64(a->cmd, "--instances", arg, 1, APP_MAX_RUNS, false, &a->instances);
    case OPT_PAIRS:
        return mpp_args_u64(a->cmd, "--pairs", arg, 1, MPP_LEE_MAX_PAIRS, false, &a->pairs);
    case OPT_FRACTION:
        if (mpp_args_double(a->cmd, "--fraction", arg, &a->fraction))
            return 2;
        if (!(a->fraction >= 0 && a->fraction <= MPP_LEE_MAX_FRACTION))
            return mpp_args_usage(a->cmd, "--fraction must be 0 .. %g, not '%s'",
                                  MPP_LEE_MAX_FRACTION, arg);
        return 0;
    case OPT_SEED:
        return mpp_args_u64(a->cmd, "--seed", arg, 0, UINT64_MAX, false, &a->seed);
    case OPT_MACHINE:
        a->machine = arg;
        return 0;
    case OPT_JSON:
        a->json = true;
        return 0;
    case OPT_MAX_WORK:
        if (mpp_args_double(a->cmd, "--max-work", arg, &a->max_work))
            return 2;
        if (!(a->max_work > 0))
            return mpp_args_usage(a->cmd, "--max-work must be a number > 0, not '%s'", arg);
        return 0;
    }
    return 2;
}

/* One value per line of the human form, or one key of the JSON object. */
static void field(mpp_sb *sb, bool json, bool *first, const char *key, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
static void field(mpp_sb *sb, bool json, bool *first, const char *key, const char *fmt, ...)
{
    char v[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v, sizeof v, fmt, ap);
    va_end(ap);
    if (json)
        mpp_sb_printf(sb, "%s\"%s\":%s", *first ? "{" : ",", key, v);
    else
        mpp_sb_printf(sb, "%-17s %s\n", key, v);
    *first = false;
}

/* A real value: exact in JSON (mpp_sb_double), six digits for people. */
static void field_num(mpp_sb *sb, bool json, bool *first, const char *key, double v)
{
    if (json) {
        mpp_sb_printf(sb, "%s\"%s\":", *first ? "{" : ",", key);
        mpp_sb_double(sb, v);
    } else
        mpp_sb_printf(sb, "%-17s %.6g\n", key, v);
    *first = false;
}

/* Invariant 1 for the sizes: refuse, before the lattice is allocated, a
 * run above the machine's memory or above --max-work, with the estimate
 * (docs/apps.md, "Sizes"). 0 or MPP_EINVAL with err filled. */
static int size_check(const app_args *a, mpp_err *err)
{
    uint32_t N = (uint32_t)a->N;
    uint64_t bytes = a->lee ? mpp_lee_bytes(N) : mpp_wolff_bytes(N);
    uint64_t limit = mpp_sysmem_limit();
    char b1[32], b2[32];
    if (bytes > limit)
        return mpp_err_set(err, MPP_EINVAL,
                           "%s: an N = %u %s needs about %s, above this machine's memory of %s",
                           a->cmd, N, a->lee ? "grid" : "lattice",
                           mpp_sysmem_str(bytes, b1, sizeof b1),
                           mpp_sysmem_str(limit, b2, sizeof b2));
    double work = a->lee ? mpp_lee_work(N, a->fraction, (uint32_t)a->instances, (uint32_t)a->pairs)
                         : mpp_wolff_work(N, (uint32_t)a->therm, (uint32_t)a->sweeps);
    if (work > a->max_work)
        return mpp_err_set(err, MPP_EINVAL,
                           "%s: N = %u needs about %.3g %s visits (%s of memory), about %.1f hours "
                           "at %.2g a second, above --max-work %.3g; give --max-work %.2g to "
                           "run it (docs/apps.md, \"Sizes\")",
                           a->cmd, N, work, a->lee ? "cell" : "site",
                           mpp_sysmem_str(bytes, b1, sizeof b1),
                           work / MPP_APP_VISITS_PER_S / 3600, MPP_APP_VISITS_PER_S, a->max_work,
                           work * 1.01);
    return 0;
}

static int cmd_run(int argc, char **argv, bool lee)
{
    app_args a = {
        .cmd = lee ? "app lee" : "app wolff", .lee = lee, .N = 256, .therm = 100,
        .sweeps = 100, .instances = 10, .pairs = 1, .seed = 1, .beta = MPP_WOLFF_BETA_C,
        .fraction = 0.25, .machine = "cm5", .max_work = APP_MAX_WORK,
    };
    mpp_args rest;
    bool done;
    int st = mpp_args_parse(a.cmd, argc, argv, lee ? lee_options : wolff_options,
                            lee ? help_lee : help_wolff, app_opt, &a, &rest, &done);
    if (!st && !done && rest.n)
        st = mpp_args_usage(a.cmd, "unexpected argument '%s'", rest.v[0]);
    mpp_args_free(&rest);
    if (st || done)
        return st;
    mpp_err err;
    mpp_err_clear(&err);
    mpp_node_config node;
    if (mpp_experiment_machine_node(a.machine, &node, &err)) {
        mpp_err_prefix(&err, a.cmd);
        return mpp_args_fail(&err);
    }
    const mpp_app_costs costs = {node.app_site_cycles, node.app_test_cycles,
                                 node.app_random_cycles, node.app_queue_cycles};
    mpp_app_seq seq;
    uint32_t N = (uint32_t)a.N;
    if (size_check(&a, &err))
        return mpp_args_fail(&err);
    int rc = lee ? mpp_lee_sequential(N, a.fraction, a.seed, (uint32_t)a.instances,
                                      (uint32_t)a.pairs, &seq, &err)
                 : mpp_wolff_sequential(N, a.beta, a.seed, (uint32_t)a.therm,
                                        (uint32_t)a.sweeps, &seq, &err);
    if (rc) {
        mpp_err_prefix(&err, a.cmd);
        return mpp_args_fail(&err);
    }
    double runs = seq.runs, cycles = (double)mpp_app_work_cycles(&seq.counts, &costs) / runs;
    double ms = cycles / (node.cpu_mhz * 1000.0);
    mpp_sb sb;
    mpp_sb_init(&sb);
    bool first = true, j = a.json;
    field(&sb, j, &first, "app", j ? "\"%s\"" : "%s", lee ? "lee" : "wolff");
    field(&sb, j, &first, "machine", j ? "\"%s\"" : "%s", a.machine);
    field(&sb, j, &first, "N", "%" PRIu32, N);
    if (lee) {
        field_num(&sb, j, &first, "fraction", a.fraction);
        field(&sb, j, &first, "instances", "%" PRIu64, a.instances);
        field(&sb, j, &first, "pairs", "%" PRIu64, a.pairs);
    } else {
        field_num(&sb, j, &first, "beta", a.beta);
        field(&sb, j, &first, "therm", "%" PRIu64, a.therm);
        field(&sb, j, &first, "sweeps", "%" PRIu32, seq.runs);
    }
    field(&sb, j, &first, "seed", "%" PRIu64, a.seed);
    field_num(&sb, j, &first, lee ? "mean_distance" : "mean_cluster", (double)seq.size / runs);
    if (lee)
        field_num(&sb, j, &first, "mean_manhattan", (double)seq.manhattan / runs);
    field_num(&sb, j, &first, "sites", (double)seq.counts.sites / runs);
    field_num(&sb, j, &first, "tests", (double)seq.counts.tests / runs);
    field_num(&sb, j, &first, "randoms", (double)seq.counts.randoms / runs);
    field_num(&sb, j, &first, "queue_ops", (double)seq.counts.queue_ops / runs);
    field_num(&sb, j, &first, "expansion_cycles", (double)seq.counts.cycles / runs);
    field_num(&sb, j, &first, "work_cycles", cycles);
    field_num(&sb, j, &first, "time_ms", ms);
    if (!lee)
        field_num(&sb, j, &first, "scale_ms", seq.size ? ms * runs / (double)seq.size * (double)N * N : 0.0);
    if (j)
        mpp_sb_add(&sb, "}\n");
    if (!mpp_sb_ok(&sb)) {
        mpp_sb_free(&sb);
        mpp_err_set(&err, MPP_ENOMEM, "%s: out of memory", a.cmd);
        return mpp_args_fail(&err);
    }
    fputs(sb.s, stdout);
    mpp_sb_free(&sb);
    return 0;
}

static int cmd_wolff(int argc, char **argv) { return cmd_run(argc, argv, false); }
static int cmd_lee(int argc, char **argv) { return cmd_run(argc, argv, true); }

int mpp_cmd_app(int argc, char **argv)
{
    static const mpp_args_sub subs[] = {{"wolff", cmd_wolff}, {"lee", cmd_lee}};
    return mpp_args_dispatch("app", mpp_cmd_app_help, subs, sizeof subs / sizeof subs[0], argc,
                             argv);
}
