/* core/cli/cli.c — the mppnet command line: argument parsing, the progress bar,
 * the summary table and the mapping of MPP_E* codes to exit statuses. The
 * only module that prints.
 *
 * `mppnet run` (core/cli/runner.c, whose header has its states) loads the
 * experiment, checks every run with mpp_sim_validate (no network built)
 * before anything is written, hands the runs to -j N worker processes
 * from a queue (longest expected first) and writes every finished run's
 * record and the result files in run order, byte-identical for any -j.
 * This file parses the other commands (sim, check, list, bench, ...) and
 * maps MPP_E* codes to exit statuses.
 *
 * Invariants:
 *   1. The only global is the SIGINT flag `interrupted`; the handler only
 *      sets it. A run in progress always finishes; no new run starts after
 *      the flag is set.
 *   2. Nothing is written to the output directory before every run's
 *      configuration has been checked.
 *   3. stdout carries only results (table, JSON, lists); progress, notes and
 *      errors go to stderr: the bar when stderr is a terminal, else a line
 *      a tenth.
 */
#include "core/cli/cli.h"
#include "core/cli/args.h"
#include "core/base/file.h"
#include "topologies/topology.h"
#include "routers/routing.h"
#include "algorithms/bcast.h"
#include "algorithms/coll.h"
#include "algorithms/patterns.h"
#include "algorithms/schedule.h"
#include "algorithms/workloads.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/cli/bench.h"
#include "core/cli/cmd_app.h"
#include "core/cli/cmd_mpi.h"
#include "core/cli/cmd_bcast.h"
#include "core/cli/cmd_capture.h"
#include "core/cli/cmd_booksim.h"
#include "core/cli/cmd_com.h"
#include "core/cli/cmd_replay.h"
#include "core/cli/cmd_merge.h"
#include "core/cli/cmd_saturate.h"
#include "core/cli/cmd_schedule.h"
#include "core/cli/cost.h"
#include "core/base/sysmem.h"
#include "core/config/experiment.h"
#include "core/cli/output.h"
#include "core/cli/plot.h"
#include "core/cli/runner.h"
#include "core/config/preset.h"
#include "core/deadlock.h"
#include "core/sim.h"
#include "core/base/strbuf.h"

#ifndef MPP_VERSION
#define MPP_VERSION "0.1.0"
#endif

#define SEED_KEY "seed"          /* experiment key of the seed */
#define MAX_JOBS 256
#define EXIT_INTERRUPTED 130
#define SIM_BASE "mppnet: 1\nname: sim\n"

const char *mpp_cli_version(void) { return MPP_VERSION; }

/* ---- help texts -------------------------------------------------------- */

static const char help_main[] =
    "usage: mppnet COMMAND [ARGS]\n"
    "\n"
    "mppnet is a cycle-level simulator of interconnection networks.\n"
    "\n"
    "commands:\n"
    "  run EXP.yaml     run an experiment (sweep points x seeds), write results\n"
    "  sim [FLAGS]      one run configured from flags, BookSim style\n"
    "  merge DIR... -o OUT  join the folders of the shards of a run (run --shard)\n"
    "  saturate EXP.yaml  the saturation rate and the knee, bisecting the rate\n"
    "  booksim FILE     run a BookSim 2 configuration file unchanged (also: run FILE)\n"
    "  check EXP.yaml   load and validate an experiment, do not run it\n"
    "                   (--deadlock: the static deadlock check of its networks)\n"
    "  plot RESULTS.csv plot columns of a results.csv with gnuplot\n"
    "  com SUBCMD       communication matrices: com gen, com info, com convert\n"
    "  schedule ...     run a scheduler on a COM file or generated matrices\n"
    "  replay EXP.yaml  record or replay operation and message traces of a run\n"
    "  bcast show ...   s-to-p broadcasting: draw a source distribution on a mesh\n"
    "  app wolff|lee    the irregular applications (Wolff cluster, Lee routing)\n"
    "  mpi TRACE        replay an MPI trace re-timed on a machine preset\n"
    "  capture -o DIR -- CMD  run an MPI program, capturing its calls (PMPI)\n"
    "  list [FAMILY]    the plug-ins (topologies, routers, workloads, patterns,\n"
    "                   schedulers, broadcasts, collectives) with their\n"
    "                   parameters, and the presets\n"
    "  bench            the fixed benchmark workloads (speed and memory)\n"
    "  help [COMMAND]   help on a command (also: mppnet COMMAND --help)\n"
    "\n"
    "options:\n"
    "  -h, --help       show this help\n"
    "  --version        print the version\n"
    "\n"
    "Any key of an experiment can be overridden on the command line as\n"
    "key.path=value (the value is read as YAML), e.g. workload.rate=0.2.\n"
    "Exit status: 0 success, 1 a run failed (e.g. deadlock), 2 bad usage or\n"
    "input, 130 interrupted.\n";

static const char help_sim[] =
    "usage: mppnet sim [FLAGS] [key.path=value ...]\n"
    "\n"
    "One run of synthetic traffic configured from flags (BookSim style).\n"
    "Unset flags take the defaults of the experiment schema.\n"
    "\n"
    "flags:\n"
    "  --topology NAME[:ARGS]     mesh:ROWSxCOLS, hypercube:DIM, kary-ncube:8x8x8,\n"
    "                             butterfly:KxN, cm5-fattree:NODES (mesh:8x8)\n"
    "  --router NAME[:k=v,...]    routing plug-in and its parameters (ecube)\n"
    "  --traffic NAME[:k=v,...]   traffic pattern and its parameters (uniform)\n"
    "  --rate R                   offered load, flits/node/cycle\n"
    "  --packet-flits N           flits per packet\n"
    "  --vcs N                    virtual channels per input port\n"
    "  --buffer-flits N           flits per VC buffer\n"
    "  --warmup N                 warm-up cycles (10000)\n"
    "  --cycles N                 measurement window in cycles (30000)\n"
    "  --seed S                   random seed (1)\n"
    "  --threads T                threads advancing the network, 1..256 (1); the\n"
    "                             results are the same for every T\n"
    "  --json                     print one JSON object instead of a summary\n"
    "  -q, --quiet                no progress (bar or lines)\n"
    "  -h, --help                 show this help\n"
    "  key.path=value             any other key, e.g. network.router_delay=4\n"
    "\n"
    "example: mppnet sim --topology mesh:8x8 --router dor --traffic transpose \\\n"
    "             --rate 0.1 --vcs 2 --buffer-flits 8 network.allocator=islip\n"
    "`mppnet list` shows the names and their parameters.\n";

static const char help_check[] =
    "usage: mppnet check [--deadlock] EXP.yaml [key.path=value ...]\n"
    "\n"
    "Load an experiment, apply the overrides, expand the sweep and check the\n"
    "configuration of every run (as `mppnet run` would) without running it.\n"
    "Prints a line per run with its estimated memory and work (flit-router\n"
    "crossings, and the CPU time they take: what `run --max-work` compares),\n"
    "then \"EXP.yaml: ok, N runs\" and exits 0, or prints the error (with\n"
    "file:line:column) and exits 2. A BookSim 2 configuration file is checked\n"
    "as `mppnet booksim` maps it (overrides then use BookSim's names).\n"
    "\n"
    "options:\n"
    "  --deadlock   the static deadlock check instead: for each distinct\n"
    "               network of the sweep (topology, router, VCs), build the\n"
    "               channel dependency graph from the router's routing relation\n"
    "               and print a cycle (its channels and VCs) or \"no cycle\".\n"
    "               A network the setup refuses for too few VCs is checked too:\n"
    "               the reason, then the cycle that makes the refusal necessary.\n"
    "               Exit status 0 no cycle, 1 a cycle (or a router breaking its\n"
    "               relation), 2 bad input or a router without a relation.\n";

static const char help_list[] =
    "usage: mppnet list [topologies|routers|workloads|patterns|schedulers|broadcasts|\n"
    "                   collectives|presets|NAME]\n"
    "\n"
    "List the registered plug-ins of a family, or the machine presets (all\n"
    "without an argument): name, aliases, a line of help, and each parameter with its\n"
    "type, default and range. `mppnet list NAME` shows the plug-in (or preset)\n"
    "called NAME, in every family that has one by that name. Parameters are set in an experiment as\n"
    "network.<topology>.<key>, network.<router>.<key> and\n"
    "workload.<pattern>.<key>.\n";

static const char help_bench[] =
    "usage: mppnet bench [--json] [--only a|b|c|d|e|f[,...]]\n"
    "\n"
    "Run the fixed benchmark workloads, each in its own process, and print\n"
    "simulated cycles, wall seconds, cycles/s, router-cycles/s, flit-hops/s,\n"
    "accepted throughput, mean latency and peak resident memory:\n";

/* ---- small helpers ----------------------------------------------------- */

/* A growable list of owned strings (the overrides). */
typedef struct strvec {
    char **v;
    size_t n, cap;
    bool failed;
} strvec;

static void sv_push(strvec *sv, const char *s)
{
    if (sv->failed)
        return;
    if (sv->n == sv->cap) {
        size_t cap = sv->cap ? 2 * sv->cap : 16;
        char **v = realloc(sv->v, cap * sizeof *v);
        if (!v) {
            sv->failed = true;
            return;
        }
        sv->v = v;
        sv->cap = cap;
    }
    char *d = strdup(s);
    if (!d) {
        sv->failed = true;
        return;
    }
    sv->v[sv->n++] = d;
}

static void sv_pushf(strvec *sv, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void sv_pushf(strvec *sv, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof buf) {
        sv->failed = true;
        return;
    }
    sv_push(sv, buf);
}

static void sv_free(strvec *sv)
{
    for (size_t i = 0; i < sv->n; i++)
        free(sv->v[i]);
    free(sv->v);
    memset(sv, 0, sizeof *sv);
}

/* An argument that is meant as an override: not an option, has '='. */
/* ---- commands -------------------------------------------------------------- */

static const struct option no_options[] = {{NULL, 0, NULL, 0}};

static int no_opt(void *ud, int code, const char *arg) { return 2; }

static const struct option check_options[] = {
    {"deadlock", no_argument, NULL, 1000}, /* long only: codes above 127 */
    {NULL, 0, NULL, 0},
};

static int check_opt(void *ud, int code, const char *arg)
{
    *(bool *)ud = true; /* --deadlock, the only option */
    return 0;
}

/* " (a=x, b=y)": the sweep values that every run of group g (runs i with
 * grp[i] == g, the first being `first`) shares and that vary in e, or
 * " (run N)" when there are none and several groups; appended to sb. */
static void deadlock_label(const mpp_experiment *e, const size_t *grp, size_t g, size_t first,
                           size_t ngroups, mpp_sb *sb)
{
    size_t n = mpp_experiment_runs(e), shown = 0;
    for (size_t a = 0; a < mpp_experiment_axes(e); a++) {
        const char *v = mpp_experiment_value(e, first, a);
        bool same = true, varies = false;
        for (size_t i = 0; i < n && same; i++) {
            bool eq = !strcmp(mpp_experiment_value(e, i, a), v);
            same = eq || grp[i] != g;
            varies |= !eq;
        }
        if (same && varies)
            mpp_sb_printf(sb, "%s%s=%s", shown++ ? ", " : " (", mpp_experiment_axis(e, a), v);
    }
    if (shown)
        mpp_sb_addc(sb, ')');
    else if (ngroups > 1)
        mpp_sb_printf(sb, " (run %zu)", first);
}

/* One static check's report on stdout (docs/cli.md, "mppnet check"). */
static void deadlock_print(const char *name, const mpp_sim_config *c,
                           const mpp_deadlock_result *r)
{
    mpp_args_put_escaped(name);
    printf(": router %s, topology %s (%" PRIu32 " nodes), %" PRIu32 " VC%s",
           c->net.routing->name, c->net.topo->name, r->nodes, r->vcs, r->vcs == 1 ? "" : "s");
    if (r->message_classes > 1)
        printf(" for %" PRIu32 " message classes (class 0 checked)", r->message_classes);
    printf(", %" PRIu32 " route class%s\n", r->route_classes, r->route_classes == 1 ? "" : "es");
    if (r->refusal[0])
        printf("  the setup refuses this configuration: %s\n", r->refusal);
    if (r->escape_classes) {
        char esc[32] = "route class 0";
        if (r->escape_classes > 1)
            snprintf(esc, sizeof esc, "route classes 0..%" PRIu32, r->escape_classes - 1);
        printf("  the escape sub-network (%s) is checked: the adaptive class%s above it may "
               "wait for it, and Duato's condition is that it alone has no cycle\n",
               esc, r->route_classes - r->escape_classes == 1 ? "" : "es");
    }
    if (r->ncycle)
        printf("  cycle of %" PRIu32 " channels%s, each held by a packet that waits for the "
               "next:\n",
               r->ncycle, r->folded ? " that makes the refusal necessary" : "");
    for (uint32_t i = 0; i < r->ncycle; i++) {
        const mpp_deadlock_chan *ch = &r->cycle[i];
        printf("    router %" PRIu32 " port %s (-> router %" PRIu32 " port %s) ", ch->router,
               ch->port_name, ch->next_router, ch->next_name);
        if (ch->class_lo == ch->class_hi)
            printf("class %" PRIu32, ch->class_lo);
        else
            printf("classes %" PRIu32 "..%" PRIu32, ch->class_lo, ch->class_hi);
        if (ch->vc_lo == ch->vc_hi)
            printf(" [VC %" PRIu32 "]\n", ch->vc_lo);
        else
            printf(" [VCs %" PRIu32 "..%" PRIu32 "]\n", ch->vc_lo, ch->vc_hi);
    }
    printf("  %s%" PRIu64 " channels, %" PRIu64 " VC groups, %" PRIu64 " dependencies, %" PRIu64
           " states\n",
           r->ncycle ? "" : r->folded ? "no cycle even so: " : "no cycle: ", r->channels,
           r->vertices, r->edges, r->states);
}

/* `check --deadlock`: the static check of each distinct network of e
 * (mpp_deadlock_same), labelled with its sweep values. The exit status:
 * the highest of 0 (no cycle), 1 (a cycle, a relation broken), 2. */
static int check_deadlock(const mpp_experiment *e, const char *path)
{
    size_t n = mpp_experiment_runs(e), ngroups = 0;
    size_t *grp = malloc((n + 1) * sizeof *grp), *first = malloc((n + 1) * sizeof *first);
    if (!grp || !first) {
        free(grp);
        free(first);
        return mpp_args_usage("check", "out of memory");
    }
    bool all_port = false;
    for (size_t i = 0; i < n; i++) {
        const mpp_sim_config *c = mpp_experiment_config(e, i);
        size_t g = 0;
        while (g < ngroups && !mpp_deadlock_same(mpp_experiment_config(e, first[g]), c))
            g++;
        if (g == ngroups)
            first[ngroups++] = i;
        grp[i] = g;
        all_port |= c->node.ports == MPP_PORTS_ALL;
    }
    if (all_port)
        fprintf(stderr, "mppnet: note: node.ports: all is not modelled by the static check: it "
                        "checks the topology's own node links\n");
    int status = 0;
    mpp_sb name;
    mpp_sb_init(&name);
    for (size_t g = 0; g < ngroups; g++) {
        const mpp_sim_config *c = mpp_experiment_config(e, first[g]);
        mpp_sb_reset(&name);
        mpp_sb_add(&name, path);
        deadlock_label(e, grp, g, first[g], ngroups, &name);
        mpp_deadlock_result r;
        memset(&r, 0, sizeof r);
        mpp_err err;
        mpp_err_clear(&err);
        int rc = mpp_sb_ok(&name) ? mpp_deadlock_check_config(c, &r, &err)
                                  : mpp_err_set(&err, MPP_ENOMEM, "out of memory");
        int st;
        if (rc) {
            fflush(stdout);
            mpp_err_prefix(&err, "%s", mpp_sb_ok(&name) ? name.s : path);
            st = mpp_args_fail(&err);
        } else {
            deadlock_print(name.s, c, &r);
            st = r.ncycle ? 1 : 0;
        }
        mpp_deadlock_result_free(&r);
        if (st > status)
            status = st;
    }
    mpp_sb_free(&name);
    free(grp);
    free(first);
    return status; /* stdout: checked once for every command in mpp_cli_main */
}

/* A CPU time in words: "0.02 s", "3.1 min", "5.2 h", "2.3 days". */
static const char *cpu_time_str(double s, char *buf, size_t len)
{
    if (s < 60)
        snprintf(buf, len, "%.2g s", s);
    else if (s < 3600)
        snprintf(buf, len, "%.1f min", s / 60);
    else if (s < 86400 * 2)
        snprintf(buf, len, "%.1f h", s / 3600);
    else
        snprintf(buf, len, "%.1f days", s / 86400);
    return buf;
}

/* check's line per run: the estimated memory (mpp_sim_size_of) and work
 * (mpp_cost_run) of each run of the validated experiment e. 0, or 2 with
 * a message when out of memory. */
static int check_sizes(const mpp_experiment *e)
{
    mpp_cost_cache *cc = mpp_cost_new();
    if (!cc) {
        fprintf(stderr, "mppnet: check: out of memory\n");
        return 2;
    }
    size_t n = mpp_experiment_runs(e);
    for (size_t i = 0; i < n; i++) {
        const mpp_sim_config *cfg = mpp_experiment_config(e, i);
        mpp_sim_size sz;
        mpp_err err;
        mpp_err_clear(&err);
        mpp_sim_size_of(cfg, &sz, &err); /* (validated: within the limits) */
        double work = mpp_cost_run(cfg, cc);
        char d[256], m[32], t[32];
        mpp_run_describe(e, i, d, sizeof d);
        printf("%s: memory %s (%" PRIu64 " nodes, %" PRIu64 " routers, %" PRIu64
               " channel endpoints), work %.3g flit-hops (about %s of CPU)\n",
               d, mpp_sysmem_str(sz.bytes, m, sizeof m), sz.nodes, sz.routers, sz.endpoints,
               work, cpu_time_str(work / MPP_COST_PER_S, t, sizeof t));
    }
    mpp_cost_free(cc);
    return 0;
}

static int cmd_check(int argc, char **argv)
{
    mpp_args rest;
    bool done, deadlock = false;
    int status = mpp_args_parse("check", argc, argv, check_options, help_check, check_opt,
                                &deadlock, &rest, &done);
    const char *path = NULL;
    const char **ov = calloc(rest.n + 1, sizeof *ov);
    size_t nov = 0;
    if (!status && !ov)
        status = mpp_args_usage("check", "out of memory");
    for (size_t i = 0; !status && !done && i < rest.n; i++) {
        if (mpp_args_is_override(rest.v[i]))
            ov[nov++] = rest.v[i];
        else if (!path)
            path = rest.v[i];
        else
            status = mpp_args_usage("check", "malformed override '%.80s' (expected "
                                             "key.path=value)",
                                    rest.v[i]);
    }
    if (!status && !done && !path)
        status = mpp_args_usage("check", "missing the experiment file (mppnet check EXP.yaml)");
    mpp_experiment *e = NULL;
    mpp_err err;
    mpp_err_clear(&err);
    if (!status && !done && !(e = mpp_booksim_or_yaml_load(path, nov, ov, &err)))
        status = mpp_args_fail(&err);
    if (e && deadlock)
        status = check_deadlock(e, path); /* not validated: it checks what the setup refuses */
    else if (e && mpp_run_validate(e, path, &err))
        status = mpp_args_fail(&err);
    else if (e && (status = check_sizes(e)) == 0) {
        mpp_args_put_escaped(path);
        printf(": ok, %zu run%s\n", mpp_experiment_runs(e), mpp_experiment_runs(e) == 1 ? "" : "s");
    }
    mpp_experiment_destroy(e);
    free(ov);
    mpp_args_free(&rest);
    return status;
}

static void sim_json(const mpp_experiment *e, const mpp_sim_result *r)
{
    mpp_sb sb;
    mpp_sb_init(&sb);
    mpp_sb_add(&sb, "{\n  \"mppnet\": ");
    mpp_sb_json_str(&sb, mpp_cli_version());
    mpp_sb_printf(&sb, ",\n  \"config_hash\": \"%016" PRIx64 "\",\n  \"config\": ",
                  mpp_experiment_hash(e, 0));
    mpp_experiment_config_json(e, 0, &sb);
    mpp_sb_add(&sb, ",\n");
    for (size_t k = 0; k < mpp_result_nfields; k++) {
        mpp_sb_add(&sb, "  ");
        mpp_sb_json_str(&sb, mpp_result_fields[k].name);
        mpp_sb_add(&sb, ": ");
        mpp_output_field(&sb, &mpp_result_fields[k], r, true);
        mpp_sb_add(&sb, ",\n");
    }
    const mpp_workload_ops *w = mpp_experiment_config(e, 0)->workload.ops;
    for (uint32_t k = 0; w && k < w->ncolumns; k++) {
        mpp_sb_add(&sb, "  ");
        mpp_sb_json_str(&sb, w->columns[k].name);
        mpp_sb_add(&sb, ": ");
        mpp_output_extra(&sb, &w->columns[k], r->extra[k], true);
        mpp_sb_add(&sb, ",\n");
    }
    mpp_sb_add(&sb, "  \"timing\": {\"wall_seconds\": ");
    mpp_sb_double(&sb, r->wall_seconds);
    mpp_sb_printf(&sb, ", \"threads\": %" PRIu32 "}\n}\n", r->threads);
    if (mpp_sb_ok(&sb))
        fputs(sb.s, stdout);
    mpp_sb_free(&sb);
}

static void sim_summary(const mpp_sim_config *cfg, const mpp_sim *s, const mpp_sim_result *r)
{
    const mpp_workload_ops *w = cfg->workload.ops;
    printf("%s, %" PRIu32 " nodes, router %s, workload %s", cfg->net.topo ? cfg->net.topo->name : "?",
           mpp_sim_topology(s)->nodes, cfg->net.routing ? cfg->net.routing->name : "?",
           w ? w->name : "none");
    /* the workload's plug-ins (its pattern, its scheduler) */
    for (size_t k = 0; w && k < w->schema.nparams; k++) {
        const mpp_param *p = &w->schema.params[k];
        const void *ops;
        if (p->type != MPP_PT_PLUGIN)
            continue;
        memcpy(&ops, cfg->workload.cfg.b + p->offset, sizeof ops);
        if (ops)
            printf(", %s %s", p->key, p->family->name(ops));
    }
    printf(", seed %" PRIu64 "\n", r->seed);
    /* the workload's own summary first (what the engine prints below apart) */
    for (uint32_t k = 0; w && k < w->nsummary; k++) {
        mpp_summary_col c = w->summary[k];
        if (!strcmp(c.column, "accepted") || !strcmp(c.column, "hops_mean") ||
            !strcmp(c.column, "saturated") || !strcmp(c.column, "latency_mean") ||
            !strcmp(c.column, "latency_p99"))
            continue;
        printf("  %-15s ", c.title);
        c.width = 0;
        mpp_run_print_value(&c, w, r);
        putchar('\n');
    }
    printf("  %-15s %.4f flits/node/cycle (least node %.4f)\n", "accepted", r->accepted,
           r->accepted_min);
    printf("  %-15s %.2f mean, %.0f p50, %.0f p99, %" PRIu64
           " max cycles (from creation)\n",
           "latency", r->latency_mean, r->latency_p50, r->latency_p99, r->latency_max);
    printf("  %-15s %.2f mean, %.0f p99 cycles (from injection)\n", "network",
           r->latency_network_mean, r->latency_network_p99);
    printf("  %-15s %.3f mean\n", "hops", r->hops_mean);
    if (r->misroutes_max)
        printf("  %-15s %.3f mean, %" PRIu32 " max per packet\n", "misroutes", r->misroutes_mean,
               r->misroutes_max);
    printf("  %-15s %" PRIu64 " measured, %" PRIu64 " delivered\n", "packets", r->packets_measured,
           r->packets_delivered);
    printf("  %-15s %" PRIu64 " simulated in %.3f s (%.0f cycles/s", "cycles", r->cycles,
           r->wall_seconds, r->wall_seconds > 0 ? (double)r->cycles / r->wall_seconds : 0.0);
    if (r->threads > 1)
        printf(", %" PRIu32 " threads", r->threads);
    printf(")\n");
    printf("  %-15s %s%s\n", "saturated", r->saturated ? "yes" : "no",
           r->saturated && !r->drained ? " (measured packets did not drain)" : "");
}

/* The flags of `sim`: each one sets a key, as an override would. */
static const struct sim_flag {
    int code;
    const char *flag, *key;
} sim_flags[] = {
    {1001, "--topology", "network.topology"}, {1002, "--router", "network.router"},
    {1003, "--traffic", "workload.pattern"},  {1004, "--rate", "workload.rate"},
    {1005, "--packet-flits", "workload.packet_flits"}, {1006, "--vcs", "network.vcs"},
    {1007, "--buffer-flits", "network.buffer_flits"}, {1008, "--warmup", "workload.warmup"},
    {1009, "--cycles", "workload.measure"},    {1010, "--seed", "seed"},
    {1012, "--threads", "sim.threads"},
};

static const struct option sim_options[] = {
    {"topology", required_argument, NULL, 1001}, {"router", required_argument, NULL, 1002},
    {"traffic", required_argument, NULL, 1003},  {"rate", required_argument, NULL, 1004},
    {"packet-flits", required_argument, NULL, 1005}, {"vcs", required_argument, NULL, 1006},
    {"buffer-flits", required_argument, NULL, 1007}, {"warmup", required_argument, NULL, 1008},
    {"cycles", required_argument, NULL, 1009},   {"seed", required_argument, NULL, 1010},
    {"json", no_argument, NULL, 1011},           {"quiet", no_argument, NULL, 'q'},
    {"threads", required_argument, NULL, 1012},
    {NULL, 0, NULL, 0},
};

typedef struct sim_opts {
    strvec ov;
    bool json, quiet;
    const char *given[16]; /* the value of each sim_flags[k] used, or NULL */
} sim_opts;

static int sim_opt(void *ud, int code, const char *arg)
{
    sim_opts *o = ud;
    if (code == 1011) {
        o->json = true;
        return 0;
    }
    if (code == 'q') {
        o->quiet = true;
        return 0;
    }
    /* a selector NAME[:ARGS] without its NAME is not YAML's business */
    static const char *const examples[] = {"mesh:8x8", "romm:k=3", "hotspot:fraction=0.3"};
    if (code >= 1001 && code <= 1003 && (!arg[0] || arg[0] == ':'))
        return mpp_args_usage("sim", "%s '%s': a plug-in name is expected before ':' (as in %s %s; "
                                     "`mppnet list` shows the names)",
                              sim_flags[code - 1001].flag, arg, sim_flags[code - 1001].flag,
                              examples[code - 1001]);
    for (size_t k = 0; k < MPP_COUNTOF(sim_flags); k++)
        if (sim_flags[k].code == code) {
            sv_pushf(&o->ov, "%s=%s", sim_flags[k].key, arg);
            o->given[k] = arg;
            return 0;
        }
    return 2;
}

static int cmd_sim(int argc, char **argv)
{
    sim_opts o;
    memset(&o, 0, sizeof o);
    mpp_args rest;
    bool done;
    int status = mpp_args_parse("sim", argc, argv, sim_options, help_sim, sim_opt, &o, &rest,
                                &done);
    /* the flags first, then the overrides (the command line wins) */
    for (size_t k = 0; !status && !done && k < rest.n; k++) {
        if (!mpp_args_is_override(rest.v[k]))
            status = mpp_args_usage("sim", "malformed override '%.80s' (expected "
                                           "key.path=value)",
                                    rest.v[k]);
        else
            sv_push(&o.ov, rest.v[k]);
    }
    mpp_args_free(&rest);
    if (!status && o.ov.failed)
        status = mpp_args_usage("sim", "out of memory");
    if (status || done) {
        sv_free(&o.ov);
        return status;
    }
    mpp_err err;
    mpp_err_clear(&err);
    mpp_experiment *e =
        mpp_experiment_parse(SIM_BASE, "mppnet sim", o.ov.n, (const char *const *)o.ov.v, &err);
    sv_free(&o.ov);
    if (!e) {
        /* name the flag, not the key it set */
        for (size_t k = 0; k < MPP_COUNTOF(sim_flags); k++) {
            char pre[400];
            int n = o.given[k] ? snprintf(pre, sizeof pre, "command line: %s=%s:",
                                          sim_flags[k].key, o.given[k])
                               : -1;
            if (n > 0 && (size_t)n < sizeof pre && !strncmp(err.msg, pre, (size_t)n)) {
                char tail[sizeof err.msg]; /* not formatted into itself */
                memcpy(tail, err.msg + n, sizeof tail - (size_t)n);
                mpp_err_set(&err, err.code, "sim %s %s:%s", sim_flags[k].flag, o.given[k], tail);
                break;
            }
        }
        return mpp_args_fail(&err);
    }
    if (mpp_experiment_runs(e) != 1) {
        size_t n = mpp_experiment_runs(e);
        mpp_experiment_destroy(e);
        return mpp_args_usage("sim", "mppnet sim makes one run, this configuration makes %zu "
                                     "(use mppnet run for sweeps)",
                              n);
    }
    const mpp_sim_config *cfg = mpp_experiment_config(e, 0);
    mpp_sim *s = mpp_sim_create(cfg, &err);
    if (!s) {
        mpp_experiment_destroy(e);
        return mpp_args_fail(&err);
    }
    double wall = 0;
    status = mpp_run_sim_shown(s, o.quiet, &wall);
    if (!status) {
        mpp_sim_result r = *mpp_sim_result_get(s);
        if (r.wall_seconds <= 0)
            r.wall_seconds = wall;
        if (o.json)
            sim_json(e, &r);
        else
            sim_summary(cfg, s, &r); /* stdout: checked once for every command in mpp_cli_main */
    }
    mpp_sim_destroy(s);
    mpp_experiment_destroy(e);
    return status;
}

/* ---- list ---------------------------------------------------------------- */

static const char *ptype_name(mpp_ptype t)
{
    switch (t) {
    case MPP_PT_U32:
    case MPP_PT_U64: return "integer";
    case MPP_PT_DOUBLE: return "number";
    case MPP_PT_BOOL: return "bool";
    case MPP_PT_ENUM: return "choice";
    case MPP_PT_BYTES: return "bytes";
    case MPP_PT_CYCLES: return "cycles";
    case MPP_PT_U32LIST: return "integer list";
    case MPP_PT_BOOLLIST: return "bool or bool list";
    case MPP_PT_SENDLIST: return "send list";
    case MPP_PT_STRING: return "text";
    case MPP_PT_NAMEMAP: return "name map";
    case MPP_PT_PLUGIN: return "plug-in";
    }
    return "?";
}

static void list_schema(const mpp_schema *sc)
{
    if (!sc->params)
        return;
    for (size_t k = 0; k < sc->nparams; k++) {
        const mpp_param *p = &sc->params[k];
        const char *def = !p->def ? "-" : p->def[0] ? p->def : "\"\"";
        printf("      %-14s %-12s default %-8s", p->key, ptype_name(p->type), def);
        if (p->type == MPP_PT_ENUM && p->choices) {
            fputs(" one of ", stdout);
            for (size_t c = 0; p->choices[c]; c++)
                printf("%s%s", c ? "|" : "", p->choices[c]);
        } else if (p->type != MPP_PT_BOOL && p->type != MPP_PT_PLUGIN &&
                   (p->min != 0 || p->max != 0)) {
            if (mpp_param_has_upper(p))
                printf(" range %.15g..%.15g", p->min, p->max);
            else
                printf(" range >= %.15g", p->min);
        }
        if (p->help)
            printf("  %s", p->help);
        putchar('\n');
    }
}

static void list_names(mpp_sb *sb, const char *const *names)
{
    for (size_t i = 0; names[i]; i++)
        mpp_sb_printf(sb, "%s%s", i ? ", " : "", names[i]);
}

static void list_entry(const char *name, const char *const *aliases, const char *help)
{
    printf("  %-16s %s", name, help ? help : "");
    if (aliases && aliases[0]) {
        mpp_sb sb;
        mpp_sb_init(&sb);
        list_names(&sb, aliases);
        printf(" (alias: %s)", sb.s);
        mpp_sb_free(&sb);
    }
    putchar('\n');
}

/* One entry of a family, whatever its ops type. */
typedef struct list_item {
    const char *name;
    const char *const *aliases; /* NULL-terminated, or NULL */
    const char *help;
    const mpp_schema *schema;   /* NULL: none (presets) */
    bool hidden;                /* a test-only plug-in: never listed */
} list_item;

/* The families of `list`, in the order they are printed. */
enum { FAM_TOPO, FAM_ROUTER, FAM_WORKLOAD, FAM_PATTERN, FAM_SCHED, FAM_BCAST, FAM_COLL,
       FAM_PRESET, FAM_N };

/* Each family's heading and the names `list FAMILY` accepts (the first is
 * the one the help and the messages show). */
static const struct {
    const char *heading;
    const char *names[4];
} list_families[FAM_N] = {
    [FAM_TOPO] = {"topologies (network.topology; parameters network.<name>.<key>)",
                  {"topologies", "topology"}},
    [FAM_ROUTER] = {"routers (network.router; parameters network.<name>.<key>)",
                    {"routers", "router", "routing"}},
    [FAM_WORKLOAD] = {"workloads (workload.type; parameters workload.<key>)",
                      {"workloads", "workload"}},
    [FAM_PATTERN] = {"patterns (workload.pattern; parameters workload.<name>.<key>)",
                     {"patterns", "pattern", "traffic"}},
    [FAM_SCHED] = {"schedulers (workload.scheduler; parameters workload.<name>.<key>)",
                   {"schedulers", "scheduler"}},
    [FAM_BCAST] = {"broadcasts (workload.algorithm of the broadcast workload; parameters "
                   "workload.<name>.<key>)",
                   {"broadcasts", "broadcast"}},
    [FAM_COLL] = {"collectives (workload.collective of the collective workload, "
                  "workload.collectives of the mpi workload; parameters workload.<name>.<key>)",
                  {"collectives", "collective"}},
    [FAM_PRESET] = {"machine presets (machine: NAME; experiments/machines/NAME.yaml)",
                    {"presets", "machines", "machine"}},
};

/* Entry i of family fam into *it: false past the last one. */
static bool list_item_at(int fam, size_t i, list_item *it)
{
    memset(it, 0, sizeof *it);
    switch (fam) {
    case FAM_TOPO: {
        const mpp_topo_ops *o = mpp_topo_all()[i];
        if (!o)
            return false;
        *it = (list_item){o->name, NULL, o->help, &o->schema, false};
        return true;
    }
    case FAM_ROUTER: {
        const mpp_routing_ops *o = mpp_routing_all()[i];
        if (!o)
            return false;
        *it = (list_item){o->name, o->aliases, o->help, &o->schema, o->test_only};
        return true;
    }
    case FAM_WORKLOAD: {
        const mpp_workload_ops *o = mpp_workload_all()[i];
        if (!o)
            return false;
        *it = (list_item){o->name, NULL, o->help, &o->schema, false};
        return true;
    }
    case FAM_PATTERN: {
        const mpp_pattern_ops *o = mpp_pattern_all()[i];
        if (!o)
            return false;
        *it = (list_item){o->name, o->aliases, o->help, &o->schema, false};
        return true;
    }
    case FAM_SCHED: {
        const mpp_sched_ops *o = mpp_sched_all()[i];
        if (!o)
            return false;
        *it = (list_item){o->name, NULL, o->help, &o->schema, false};
        return true;
    }
    case FAM_BCAST: {
        const mpp_bcast_ops *o = mpp_bcast_all()[i];
        if (!o)
            return false;
        *it = (list_item){o->name, NULL, o->help, &o->schema, false};
        return true;
    }
    case FAM_COLL: {
        const mpp_coll_ops *o = mpp_coll_all()[i];
        if (!o)
            return false;
        *it = (list_item){o->name, NULL, o->help, &o->schema, false};
        return true;
    }
    case FAM_PRESET:
        if (i >= mpp_npresets)
            return false;
        *it = (list_item){mpp_presets[i].name, NULL, mpp_presets[i].help, NULL, false};
        return true;
    }
    return false;
}

/* True when item it is called name (its name or one of its aliases). */
static bool list_item_named(const list_item *it, const char *name)
{
    if (!strcmp(it->name, name))
        return true;
    for (size_t a = 0; it->aliases && it->aliases[a]; a++)
        if (!strcmp(it->aliases[a], name))
            return true;
    return false;
}

/* Print family fam (heading, then its entries), or only its entries
 * called `only` when that is not NULL; a blank line first when `*any`.
 * Returns how many entries were printed (nothing at all when none). */
static size_t list_family(int fam, const char *only, bool *any)
{
    size_t shown = 0;
    list_item it;
    for (size_t i = 0; list_item_at(fam, i, &it); i++) {
        if (it.hidden || (only && !list_item_named(&it, only)))
            continue;
        if (!shown++) {
            printf("%s%s:\n", *any ? "\n" : "", list_families[fam].heading);
            *any = true;
        }
        list_entry(it.name, it.aliases, it.help);
        if (it.schema)
            list_schema(it.schema);
    }
    return shown;
}

static int cmd_list(int argc, char **argv)
{
    mpp_args rest;
    bool done;
    int status = mpp_args_parse("list", argc, argv, no_options, help_list, no_opt, NULL, &rest,
                                &done);
    if (!status && !done && rest.n > 1)
        status = mpp_args_usage("list", "too many arguments");
    const char *arg = !status && !done && rest.n ? rest.v[0] : NULL;
    mpp_args_free(&rest);
    if (status || done)
        return status;
    bool any = false;
    /* A family's name: the whole family. */
    for (int f = 0; arg && f < FAM_N; f++)
        for (size_t k = 0; k < 4 && list_families[f].names[k]; k++)
            if (!strcmp(arg, list_families[f].names[k])) {
                list_family(f, NULL, &any);
                return 0;
            }
    /* Else a plug-in's name (or alias): that entry in every family that
     * has one by that name. */
    size_t found = 0;
    for (int f = 0; f < FAM_N; f++)
        found += list_family(f, arg, &any);
    if (!arg || found)
        return 0; /* stdout: checked once for every command in mpp_cli_main */
    mpp_sb fams;
    mpp_sb_init(&fams);
    for (int f = 0; f < FAM_N; f++)
        mpp_sb_printf(&fams, "%s%s", f ? ", " : "", list_families[f].names[0]);
    status = mpp_args_usage("list", "unknown family or plug-in '%.40s' (families: %s; a "
                                    "plug-in's name shows that plug-in)",
                            arg, mpp_sb_ok(&fams) ? fams.s : "?");
    mpp_sb_free(&fams);
    return status;
}

/* ---- bench --------------------------------------------------------------- */

typedef struct bench_opts {
    bool json;
    bool sel[64];
    bool any_sel;
} bench_opts;

static const struct option bench_options[] = {
    {"json", no_argument, NULL, 1000}, /* long only: codes above 127 */
    {"only", required_argument, NULL, 1001},
    {NULL, 0, NULL, 0},
};

static int bench_opt(void *ud, int code, const char *arg)
{
    bench_opts *o = ud;
    if (code == 1000) {
        o->json = true;
        return 0;
    }
    char buf[256];
    snprintf(buf, sizeof buf, "%s", arg);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int k = mpp_bench_find(tok);
        if (k < 0 || (size_t)k >= MPP_COUNTOF(o->sel))
            return mpp_args_usage("bench", "unknown workload '%.20s' (a to f)", tok);
        o->sel[k] = true;
        o->any_sel = true;
    }
    if (!o->any_sel)
        return mpp_args_usage("bench", "--only needs a workload name (a to f)");
    return 0;
}

static int cmd_bench(int argc, char **argv)
{
    bench_opts o;
    memset(&o, 0, sizeof o);
    mpp_args rest;
    bool done;
    int parsed = mpp_args_parse("bench", argc, argv, bench_options, help_bench, bench_opt, &o,
                                &rest, &done);
    if (!parsed && !done && rest.n)
        parsed = mpp_args_usage("bench", "unknown argument '%.80s'", rest.v[0]);
    mpp_args_free(&rest);
    if (done)
        for (size_t i = 0; i < mpp_bench_count(); i++)
            printf("  %s  %s\n", mpp_bench_name(i), mpp_bench_desc(i));
    if (parsed || done)
        return parsed;
    bool json = o.json, any_sel = o.any_sel;
    const bool *sel = o.sel;
    size_t n = mpp_bench_count();
    int status = 0;
    mpp_sb js;
    mpp_sb_init(&js);
    mpp_sb_add(&js, "{\n  \"mppnet\": ");
    mpp_sb_json_str(&js, mpp_cli_version());
    mpp_sb_add(&js, ",\n  \"workloads\": [");
    bool first = true;
    if (!json) {
        for (size_t i = 0; i < n; i++)
            if (!any_sel || sel[i])
                printf("%s: %s\n", mpp_bench_name(i), mpp_bench_desc(i));
        printf("\n%-8s %10s %8s %10s %15s %13s %9s %9s %8s\n", "workload", "cycles", "wall_s",
               "cycles/s", "router-cycles/s", "flit-hops/s", "accepted", "latency", "peak_MB");
        fflush(stdout);
    }
    for (size_t i = 0; i < n; i++) {
        if (any_sel && !sel[i])
            continue;
        mpp_bench_report rep;
        mpp_err err;
        mpp_err_clear(&err);
        int rc = mpp_bench_run(i, &rep, &err);
        if (rc) {
            mpp_args_eprintf("mppnet: bench %s: %s\n", mpp_bench_name(i), err.msg);
            int s = mpp_err_exit_status(rc);
            if (s > status)
                status = s;
            continue;
        }
        if (!json) {
            printf("%-8s %10" PRIu64 " %8.3f %10.0f %15.0f %13.0f %9.4f %9.2f %8.1f%s\n",
                   rep.name, rep.cycles, rep.wall_seconds, rep.cycles_per_sec,
                   rep.router_cycles_per_sec, rep.flit_hops_per_sec, rep.accepted,
                   rep.latency_mean, rep.peak_rss_mb, rep.saturated ? "  (saturated)" : "");
            fflush(stdout);
            continue;
        }
        mpp_sb_add(&js, first ? "\n    {" : ",\n    {");
        first = false;
        mpp_sb_add(&js, "\"name\": ");
        mpp_sb_json_str(&js, rep.name);
        mpp_sb_add(&js, ", \"desc\": ");
        mpp_sb_json_str(&js, rep.desc);
        mpp_sb_printf(&js, ", \"cycles\": %" PRIu64 ", \"wall_seconds\": ", rep.cycles);
        mpp_sb_double(&js, rep.wall_seconds);
        mpp_sb_add(&js, ", \"cycles_per_sec\": ");
        mpp_sb_double(&js, rep.cycles_per_sec);
        mpp_sb_add(&js, ", \"router_cycles_per_sec\": ");
        mpp_sb_double(&js, rep.router_cycles_per_sec);
        mpp_sb_add(&js, ", \"flit_hops_per_sec\": ");
        mpp_sb_double(&js, rep.flit_hops_per_sec);
        mpp_sb_add(&js, ", \"offered\": ");
        mpp_sb_double(&js, rep.offered);
        mpp_sb_add(&js, ", \"accepted\": ");
        mpp_sb_double(&js, rep.accepted);
        mpp_sb_add(&js, ", \"latency_mean\": ");
        mpp_sb_double(&js, rep.latency_mean);
        mpp_sb_printf(&js, ", \"saturated\": %s, \"peak_rss_mb\": ",
                      rep.saturated ? "true" : "false");
        mpp_sb_double(&js, rep.peak_rss_mb);
        mpp_sb_addc(&js, '}');
    }
    mpp_sb_add(&js, first ? "]\n}\n" : "\n  ]\n}\n");
    if (json && mpp_sb_ok(&js))
        fputs(js.s, stdout);
    mpp_sb_free(&js);
    return status; /* stdout: checked once for every command in mpp_cli_main */
}

/* ---- dispatch ------------------------------------------------------------ */

typedef struct command {
    const char *name;
    int (*fn)(int argc, char **argv);
    bool subs; /* made of subcommands (com gen, bcast show, app lee) */
} command;

static const command commands[] = {
    {"run", mpp_cmd_run},
    {"merge", mpp_cmd_merge},
    {"saturate", mpp_cmd_saturate},
    {"booksim", mpp_cmd_booksim},
    {"sim", cmd_sim},
    {"check", cmd_check},
    {"list", cmd_list},
    {"bench", cmd_bench},
    {"plot", mpp_plot_main},
    {"com", mpp_cmd_com, true},
    {"schedule", mpp_cmd_schedule},
    {"replay", mpp_cmd_replay},
    {"bcast", mpp_cmd_bcast, true},
    {"app", mpp_cmd_app, true},
    {"mpi", mpp_cmd_mpi},
    {"capture", mpp_cmd_capture},
};

static const command *find_command(const char *name)
{
    for (size_t i = 0; i < MPP_COUNTOF(commands); i++)
        if (!strcmp(commands[i].name, name))
            return &commands[i];
    return NULL;
}

/* The exit status of a command that returned status, once everything it
 * wrote to stdout has reached its destination: stdout is flushed, and a
 * failed flush or an earlier write error (ferror: a full disk, a closed
 * pipe, /dev/full) prints "mppnet: CMD: cannot write the output: REASON"
 * and makes it at least 2 (an interruption's 128 + N is kept). The one
 * check of stdout for every command (docs/cli.md, exit statuses). */
static int output_checked(const char *cmd, int status)
{
    errno = 0;
    bool flushed = fflush(stdout) == 0;
    int e = errno;
    if (flushed && !ferror(stdout))
        return status;
    fprintf(stderr, "mppnet: %s%scannot write the output: %s\n", cmd ? cmd : "", cmd ? ": " : "",
            !flushed && e ? strerror(e) : "a write to standard output failed");
    return status > 2 ? status : 2;
}

/* The command named by argv[1], its arguments argv[1..]. */
static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        fputs(help_main, stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
        fputs(help_main, stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
        printf("mppnet %s\n", mpp_cli_version());
        return 0;
    }
    if (!strcmp(cmd, "help")) {
        if (argc < 3) {
            fputs(help_main, stdout);
            return 0;
        }
        const command *c = find_command(argv[2]);
        if (!c)
            return mpp_args_usage(NULL, "unknown command '%.40s'", argv[2]);
        char *args[] = {argv[2], "--help", NULL};
        return c->fn(2, args);
    }
    if (cmd[0] == '-')
        return mpp_args_usage(NULL, "unknown option '%.40s'", cmd);
    const command *c = find_command(cmd);
    if (!c)
        return mpp_args_usage(NULL, "unknown command '%.40s'", cmd);
    return c->fn(argc - 1, argv + 1);
}

int mpp_cli_main(int argc, char **argv)
{
    mpp_err err;
    mpp_err_clear(&err);
    if (mpp_sysmem_check_env(&err))
        return mpp_args_fail(&err); /* a limit that does not parse is not ignored */
    int status = dispatch(argc, argv);
    const command *c = argc >= 2 ? find_command(argv[1]) : NULL;
    if (!c && argc >= 3 && !strcmp(argv[1], "help"))
        c = find_command(argv[2]);
    if (!c)
        return output_checked(NULL, status);
    /* "com info": a command made of subcommands names the one that ran */
    char name[64];
    int at = argc >= 3 && !strcmp(argv[1], "help") ? 3 : 2;
    const char *sub = at < argc ? argv[at] : "";
    bool word = c->subs && *sub && strlen(sub) < 32 &&
                strspn(sub, "abcdefghijklmnopqrstuvwxyz") == strlen(sub);
    snprintf(name, sizeof name, "%s%s%s", c->name, word ? " " : "", word ? sub : "");
    return output_checked(name, status);
}
