/* core/cli/cli.c — the mppnet command line: argument parsing, the progress bar,
 * the summary table, worker processes for `run -j N`, and the mapping of
 * MPP_E* codes to exit statuses. The only module that prints.
 *
 * `mppnet run` goes through these states:
 *
 *   parse args --bad--> usage error, exit 2 (nothing written)
 *       |
 *   mpp_experiment_load --error--> "mppnet: FILE:L:C: ...", exit 2
 *       |
 *   validate(): mpp_sim_create of every run --error--> exit 2
 *       |
 *   --dump-config? --> print YAML of every run, exit 0
 *       |
 *   run_serial() (-j 1, in process) or run_parallel() (-j N, fork):
 *       every run -> mpp_output_run; rows printed in run order;
 *       a failed run's report -> stderr; SIGINT -> no new run starts
 *       |
 *   mpp_output_write_all (+ plot) --> exit 0 / 1 (a run failed) / 130
 *
 * Workers (run_parallel): worker w of N runs runs i with i % N == w and
 * writes one message per run to its own pipe (wire_hdr + mpp_sim_result +
 * channel records + matrix entries + message records + report text;
 * progress messages when the parent shows a bar). The parent polls the
 * pipes, stores each result in runs[i], and writes the files from runs[]
 * in run order, so the files are byte-identical to -j 1.
 *
 * Invariants:
 *   1. The only global is the SIGINT flag `interrupted`; the handler only
 *      sets it. A run in progress always finishes; no new run starts after
 *      the flag is set.
 *   2. Nothing is written to the output directory before every run's
 *      configuration has been checked.
 *   3. stdout carries only results (table, JSON, lists); progress, notes and
 *      errors go to stderr, the bar only when stderr is a terminal.
 */
#include "core/cli/cli.h"
#include "topologies/topology.h"
#include "routers/routing.h"
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
#include <time.h>
#include <unistd.h>

#include "core/cli/bench.h"
#include "core/cli/cmd_com.h"
#include "core/cli/cmd_replay.h"
#include "core/cli/cmd_schedule.h"
#include "core/config/experiment.h"
#include "core/cli/output.h"
#include "core/cli/plot.h"
#include "core/config/preset.h"
#include "core/sim.h"
#include "core/base/strbuf.h"

#ifndef MPP_VERSION
#define MPP_VERSION "0.1.0"
#endif

#define SEED_KEY "seed"          /* experiment key of the seed */
#define MAX_JOBS 256
#define EXIT_INTERRUPTED 130
#define SIM_BASE "mppnet: 1\nname: sim\n"

/* The one global (invariant 1). */
static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

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
    "  check EXP.yaml   load and validate an experiment, do not run it\n"
    "  plot RESULTS.csv plot columns of a results.csv with gnuplot\n"
    "  com SUBCMD       communication matrices: com gen, com info, com convert\n"
    "  schedule ...     run a scheduler on a COM file or generated matrices\n"
    "  replay EXP.yaml  record or replay operation and message traces of a run\n"
    "  list [FAMILY]    the plug-ins (topologies, routers, workloads, patterns,\n"
    "                   schedulers) with their parameters, and the presets\n"
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

static const char help_run[] =
    "usage: mppnet run EXP.yaml [-o DIR] [-j N] [--dump-config] [--quiet]\n"
    "                  [key.path=value ...]\n"
    "\n"
    "Run every run of an experiment (each point of its sweep, for each seed),\n"
    "print a summary table on stdout, and write to DIR: results.csv (one row\n"
    "per run), results.json (with the resolved configuration, seed and\n"
    "version), and when the experiment's output section asks for them\n"
    "channels.csv, matrix.csv, messages.csv and latency.png (needs gnuplot).\n"
    "\n"
    "options:\n"
    "  -o, --output DIR   write the results to DIR (default: output.dir)\n"
    "  -j, --jobs N       run on N worker processes, 1..256 (default 1);\n"
    "                     the results are identical for every N\n"
    "  --dump-config      print the resolved configuration of every run\n"
    "                     (YAML, defaults included) and exit without running\n"
    "  -q, --quiet        no progress bar and no notes on stderr\n"
    "  -h, --help         show this help\n"
    "  key.path=value     override a key of the experiment,\n"
    "                     e.g. network.vcs=4 'workload.pattern=transpose'\n"
    "\n"
    "The progress bar is shown when stderr is a terminal. Ctrl-C stops after\n"
    "the current run(s) and writes the runs that finished (exit 130). A run\n"
    "that deadlocks prints the deadlock report; the other runs are written\n"
    "and the exit status is 1.\n";

static const char help_sim[] =
    "usage: mppnet sim [FLAGS] [key.path=value ...]\n"
    "\n"
    "One run of synthetic traffic configured from flags (BookSim style).\n"
    "Unset flags take the defaults of the experiment schema.\n"
    "\n"
    "flags:\n"
    "  --topology NAME[:ARGS]     mesh:ROWSxCOLS, hypercube:DIM, ... (mesh:8x8)\n"
    "  --router NAME[:k=v,...]    routing plug-in and its parameters (ecube)\n"
    "  --traffic NAME[:k=v,...]   traffic pattern and its parameters (uniform)\n"
    "  --rate R                   offered load, flits/node/cycle\n"
    "  --packet-flits N           flits per packet\n"
    "  --vcs N                    virtual channels per input port\n"
    "  --buffer-flits N           flits per VC buffer\n"
    "  --warmup N                 warm-up cycles (10000)\n"
    "  --cycles N                 measurement window in cycles (30000)\n"
    "  --seed S                   random seed (1)\n"
    "  --json                     print one JSON object instead of a summary\n"
    "  -q, --quiet                no progress bar\n"
    "  -h, --help                 show this help\n"
    "  key.path=value             any other key, e.g. network.router_delay=4\n"
    "\n"
    "example: mppnet sim --topology mesh:8x8 --router dor --traffic transpose \\\n"
    "             --rate 0.1 --vcs 2 --buffer-flits 8 network.allocator=islip\n"
    "`mppnet list` shows the names and their parameters.\n";

static const char help_check[] =
    "usage: mppnet check EXP.yaml [key.path=value ...]\n"
    "\n"
    "Load an experiment, apply the overrides, expand the sweep and check the\n"
    "configuration of every run (as `mppnet run` would) without running it.\n"
    "Prints \"EXP.yaml: ok, N runs\" and exits 0, or prints the error (with\n"
    "file:line:column) and exits 2.\n";

static const char help_list[] =
    "usage: mppnet list [topologies|routers|workloads|patterns|schedulers|presets]\n"
    "\n"
    "List the registered plug-ins of a family, or the machine presets (all\n"
    "without an argument): name, aliases, a line of help, and each parameter with its\n"
    "type, default and range. Parameters are set in an experiment as\n"
    "network.<topology>.<key>, network.<router>.<key> and\n"
    "workload.<pattern>.<key>.\n";

static const char help_bench[] =
    "usage: mppnet bench [--json] [--only a|b|c|d|e|f[,...]]\n"
    "\n"
    "Run the fixed benchmark workloads, each in its own process, and print\n"
    "simulated cycles, wall seconds, cycles/s, router-cycles/s, flit-hops/s,\n"
    "accepted throughput, mean latency and peak resident memory:\n";

/* ---- small helpers ----------------------------------------------------- */

/* Print "mppnet: MSG" and the help pointer; returns exit status 2. */
static int usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static int usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("mppnet: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    if (cmd)
        fprintf(stderr, "\nsee 'mppnet %s --help'\n", cmd);
    else
        fputs("\nsee 'mppnet --help'\n", stderr);
    return 2;
}

/* Print an mpp_err and return its exit status. */
static int fail_err(const mpp_err *err)
{
    fprintf(stderr, "mppnet: %s\n", err->msg[0] ? err->msg : "unknown error");
    return mpp_err_exit_status(err->code ? err->code : MPP_EINVAL);
}

static bool has_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--"))
            return false;
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
            return true;
    }
    return false;
}

/* If argv[*i] is option lng (or shrt), point *val at its value (the next
 * argument, the text after '=', or the rest of a short option "-j4") and
 * return 1; return 0 for another argument, -1 when the value is missing
 * (the usage error is printed). */
static int opt_value(int argc, char **argv, int *i, const char *shrt, const char *lng,
                     const char **val, const char *cmd)
{
    const char *a = argv[*i];
    size_t n = strlen(lng);
    if (!strcmp(a, lng) || (shrt && !strcmp(a, shrt))) {
        if (*i + 1 >= argc) {
            usage_error(cmd, "option %s needs a value", a);
            return -1;
        }
        *val = argv[++*i];
        return 1;
    }
    if (!strncmp(a, lng, n) && a[n] == '=') {
        *val = a + n + 1;
        return 1;
    }
    if (shrt && !strncmp(a, shrt, 2) && a[2]) {
        *val = a + 2;
        return 1;
    }
    return 0;
}

/* A whole unsigned decimal number (no sign, no spaces). */
static bool parse_u64(const char *s, uint64_t *out)
{
    if (!(*s >= '0' && *s <= '9'))
        return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

/* A whole finite decimal number. */
static bool parse_double(const char *s, double *out)
{
    if (!((*s >= '0' && *s <= '9') || *s == '.' || *s == '-' || *s == '+'))
        return false;
    errno = 0;
    char *end;
    double v = strtod(s, &end);
    if (errno || *end || !isfinite(v))
        return false;
    *out = v;
    return true;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

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
static bool looks_like_override(const char *a) { return a[0] != '-' && strchr(a, '='); }

/* Check the shape of an override "key.path=value": a non-empty key without
 * spaces. The value is checked by the experiment layer. */
static bool override_ok(const char *a)
{
    const char *eq = strchr(a, '=');
    if (!eq || eq == a)
        return false;
    for (const char *p = a; p < eq; p++)
        if (*p == ' ' || *p == '\t')
            return false;
    return true;
}

/* "run 3 (workload.rate=0.2, seed 1)" into buf. */
static void describe_run(const mpp_experiment *e, size_t i, char *buf, size_t len)
{
    mpp_sb sb;
    mpp_sb_init(&sb);
    mpp_sb_printf(&sb, "run %zu (", i);
    for (size_t a = 0; a < mpp_experiment_axes(e); a++)
        mpp_sb_printf(&sb, "%s=%s, ", mpp_experiment_axis(e, a), mpp_experiment_value(e, i, a));
    mpp_sb_printf(&sb, "seed %" PRIu64 ")", mpp_experiment_config(e, i)->run.seed);
    snprintf(buf, len, "%s", mpp_sb_ok(&sb) ? sb.s : "run");
    mpp_sb_free(&sb);
}

/* Build the simulation of every run once, so that what only the engine
 * checks (VC classes against the routing, pattern against the size) is
 * reported before anything runs or is written (invariant 2). */
static int validate(const mpp_experiment *e, const char *origin, mpp_err *err)
{
    size_t n = mpp_experiment_runs(e);
    for (size_t i = 0; i < n; i++) {
        mpp_sim *s = mpp_sim_create(mpp_experiment_config(e, i), err);
        if (!s) {
            if (!err->code)
                err->code = MPP_EINVAL;
            if (n > 1) {
                char d[256];
                describe_run(e, i, d, sizeof d);
                mpp_err_prefix(err, "%s: %s", origin, d);
            } else {
                mpp_err_prefix(err, "%s", origin);
            }
            return err->code;
        }
        mpp_sim_destroy(s);
    }
    return 0;
}

static void print_double(FILE *f, int width, int prec, double v)
{
    if (isfinite(v))
        fprintf(f, "%*.*f", width, prec, v);
    else
        fprintf(f, "%*s", width, "-");
}

/* ---- progress bar ------------------------------------------------------ */

typedef struct progress {
    bool on;            /* stderr is a terminal and not --quiet */
    size_t nruns;
    size_t ndone;
    double *frac;       /* [nslots]: fraction done of each running run */
    size_t nslots;
    double last;        /* time of the last draw */
    bool shown;         /* a bar is on the screen */
    bool rows_on_tty;   /* stdout is a terminal too: clear the bar for rows */
} progress;

static void progress_clear(progress *p)
{
    if (p->on && p->shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        p->shown = false;
    }
}

static void progress_draw(progress *p, bool force)
{
    if (!p->on)
        return;
    double t = now_seconds();
    if (!force && t - p->last < 0.1)
        return;
    p->last = t;
    double done = (double)p->ndone;
    for (size_t k = 0; k < p->nslots; k++)
        done += p->frac[k];
    double f = p->nruns ? done / (double)p->nruns : 1.0;
    if (f > 1)
        f = 1;
    enum { W = 30 };
    char bar[W + 1];
    int fill = (int)(f * W);
    for (int k = 0; k < W; k++)
        bar[k] = k < fill ? '#' : '.';
    bar[W] = '\0';
    fprintf(stderr, "\r[%s] %3d%%  %zu/%zu runs\033[K", bar, (int)(f * 100), p->ndone, p->nruns);
    fflush(stderr);
    p->shown = true;
}

/* ---- summary table ----------------------------------------------------- */

typedef struct table {
    const mpp_experiment *e;
    size_t naxes;
    const char **label;  /* [naxes] column titles */
    int *width;          /* [naxes] */
    int seedw;
    const mpp_workload_ops *w; /* the first run's workload: its summary columns */
    size_t next;         /* next run to print */
} table;

static int table_init(table *t, const mpp_experiment *e)
{
    memset(t, 0, sizeof *t);
    t->e = e;
    t->naxes = mpp_experiment_axes(e);
    size_t n = mpp_experiment_runs(e);
    if (t->naxes) {
        t->label = calloc(t->naxes, sizeof *t->label);
        t->width = calloc(t->naxes, sizeof *t->width);
        if (!t->label || !t->width)
            return MPP_ENOMEM;
    }
    for (size_t a = 0; a < t->naxes; a++) {
        /* The last component of the key path when no other axis shares it. */
        const char *path = mpp_experiment_axis(e, a);
        const char *dot = strrchr(path, '.');
        const char *last = dot ? dot + 1 : path;
        bool unique = true;
        for (size_t b = 0; b < t->naxes; b++) {
            const char *o = mpp_experiment_axis(e, b);
            const char *od = strrchr(o, '.');
            if (b != a && !strcmp(od ? od + 1 : o, last))
                unique = false;
        }
        t->label[a] = unique ? last : path;
        int w = (int)strlen(t->label[a]);
        for (size_t i = 0; i < n; i++) {
            int l = (int)strlen(mpp_experiment_value(e, i, a));
            if (l > w)
                w = l;
        }
        t->width[a] = w;
    }
    t->seedw = 4;
    t->w = n ? mpp_experiment_config(e, 0)->workload.ops : NULL;
    for (size_t i = 0; i < n; i++) {
        char buf[32];
        int l = snprintf(buf, sizeof buf, "%" PRIu64, mpp_experiment_config(e, i)->run.seed);
        if (l > t->seedw)
            t->seedw = l;
    }
    return 0;
}

static void table_free(table *t)
{
    free(t->label);
    free(t->width);
}

static void table_header(const table *t)
{
    for (size_t a = 0; a < t->naxes; a++)
        printf("%-*s  ", t->width[a], t->label[a]);
    printf("%*s", t->seedw, "seed");
    for (uint32_t k = 0; t->w && k < t->w->nsummary; k++)
        printf("  %*s", t->w->summary[k].width, t->w->summary[k].title);
    putchar('\n');
    fflush(stdout);
}

/* One summary value: an integer, a real with its decimals ("-" when not
 * finite or not a column of this run), yes/no. */
static void table_value(const mpp_summary_col *c, const mpp_workload_ops *w,
                        const mpp_sim_result *r)
{
    mpp_value v;
    mpp_field_type type;
    if (!mpp_output_column(w, r, c->column, &v, &type))
        printf("%*s", c->width, "-");
    else if (type == MPP_F_DOUBLE)
        print_double(stdout, c->width, c->prec, v.d);
    else if (type == MPP_F_BOOL)
        printf("%*s", c->width, v.u ? "yes" : "no");
    else
        printf("%*" PRIu64, c->width, v.u);
}

static void table_row(const table *t, size_t i, const mpp_output_run *r)
{
    for (size_t a = 0; a < t->naxes; a++)
        printf("%-*s  ", t->width[a], mpp_experiment_value(t->e, i, a));
    printf("%*" PRIu64 "  ", t->seedw, mpp_experiment_config(t->e, i)->run.seed);
    if (r->status) {
        printf("%s\n", r->status == MPP_EDEADLOCK ? "FAILED: deadlock" : "FAILED");
        return;
    }
    const mpp_workload_ops *w = mpp_experiment_config(t->e, i)->workload.ops;
    for (uint32_t k = 0; t->w && k < t->w->nsummary; k++) {
        if (k)
            fputs("  ", stdout);
        table_value(&t->w->summary[k], w, &r->result);
    }
    putchar('\n');
}

/* ---- running the runs ---------------------------------------------------- */

typedef struct run_ctx {
    const mpp_experiment *e;
    size_t nruns;
    mpp_output_run *runs;   /* [nruns] */
    bool channels, matrix, messages; /* what to collect */
    progress prog;
    table tab;
} run_ctx;

/* Progress callback of an in-process run: slot is frac[0]. */
static void serial_progress(void *ud, uint64_t cycle, uint64_t total)
{
    run_ctx *c = ud;
    c->prog.frac[0] = total ? (double)cycle / (double)total : 0;
    if (c->prog.frac[0] > 1)
        c->prog.frac[0] = 1;
    progress_draw(&c->prog, false);
}

/* Run run i of e and fill *out (done = true in every case); c says what to
 * collect besides the result. */
static void run_one(const run_ctx *c, size_t i, mpp_progress_fn fn, void *ud, mpp_output_run *out)
{
    const mpp_experiment *e = c->e;
    bool channels = c->channels, matrix = c->matrix;
    mpp_sim_config cfg = *mpp_experiment_config(e, i);
    cfg.run.record_channels = channels;
    cfg.run.record_matrix = matrix;
    mpp_err err;
    mpp_err_clear(&err);
    mpp_sim *s = mpp_sim_create(&cfg, &err);
    if (!s) {
        mpp_output_run_free(out);
        out->done = true;
        out->status = err.code ? err.code : MPP_EINVAL;
        out->report = strdup(err.msg);
        return;
    }
    double t0 = now_seconds();
    int rc = mpp_sim_run(s, fn, ud, &err);
    double wall = now_seconds() - t0;
    mpp_err cerr;
    mpp_err_clear(&cerr);
    if (mpp_output_run_collect(out, s, rc, rc ? err.msg : NULL, channels, matrix, c->messages,
                               &cerr)) {
        out->done = true;
        out->status = MPP_ENOMEM;
        out->report = strdup(cerr.msg);
    }
    if (out->result.wall_seconds <= 0)
        out->result.wall_seconds = wall;
    mpp_sim_destroy(s);
}

/* A run has finished: report a failure, print the rows now in order. */
static void run_finished(run_ctx *c, size_t i)
{
    c->prog.ndone++;
    const mpp_output_run *r = &c->runs[i];
    if (r->status) {
        progress_clear(&c->prog);
        char d[256];
        describe_run(c->e, i, d, sizeof d);
        fflush(stdout);
        fprintf(stderr, "mppnet: %s failed%s\n%s%s", d,
                r->status == MPP_EDEADLOCK ? " (deadlock)" : "", r->report ? r->report : "",
                r->report && *r->report && r->report[strlen(r->report) - 1] != '\n' ? "\n" : "");
    }
    if (c->tab.next < c->nruns && c->runs[c->tab.next].done) {
        if (c->prog.rows_on_tty)
            progress_clear(&c->prog);
        while (c->tab.next < c->nruns && c->runs[c->tab.next].done) {
            table_row(&c->tab, c->tab.next, &c->runs[c->tab.next]);
            c->tab.next++;
        }
        fflush(stdout);
    }
    progress_draw(&c->prog, true);
}

static void run_serial(run_ctx *c)
{
    for (size_t i = 0; i < c->nruns && !interrupted; i++) {
        c->prog.frac[0] = 0;
        run_one(c, i, c->prog.on ? serial_progress : NULL, c, &c->runs[i]);
        c->prog.frac[0] = 0;
        run_finished(c, i);
    }
}

/* Worker -> parent messages. */
enum { MSG_PROGRESS = 1, MSG_RESULT = 2 };
typedef struct wire_hdr {
    uint32_t type;
    int32_t status;   /* MSG_RESULT: the run's status */
    uint64_t run;
    uint64_t a, b, c; /* PROGRESS: cycle, total; RESULT: nchannels, nflows, report bytes */
    uint64_t d;       /* RESULT: nmessages */
} wire_hdr;

static int write_full(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

/* 1: read len bytes; 0: end of file before the first byte; -1: error or
 * end of file in the middle. */
static int read_full(int fd, void *buf, size_t len)
{
    char *p = buf;
    size_t got = 0;
    while (got < len) {
        ssize_t r = read(fd, p + got, len - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            return got ? -1 : 0;
        got += (size_t)r;
    }
    return 1;
}

typedef struct worker_prog {
    int fd;
    uint64_t run;
    double last;
} worker_prog;

static void worker_progress(void *ud, uint64_t cycle, uint64_t total)
{
    worker_prog *wp = ud;
    double t = now_seconds();
    if (t - wp->last < 0.2)
        return;
    wp->last = t;
    wire_hdr h = {.type = MSG_PROGRESS, .run = wp->run, .a = cycle, .b = total};
    (void)write_full(wp->fd, &h, sizeof h);
}

/* The body of worker w: never returns. */
static void worker_main(run_ctx *c, size_t w, size_t nworkers, int fd)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;   /* no SA_RESETHAND: a worker always finishes its run */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    mpp_sb msg;
    mpp_sb_init(&msg);
    int code = 0;
    for (size_t i = w; i < c->nruns && !interrupted; i += nworkers) {
        worker_prog wp = {.fd = fd, .run = i, .last = now_seconds()};
        mpp_output_run r;
        mpp_output_run_init(&r);
        run_one(c, i, c->prog.on ? worker_progress : NULL, &wp, &r);
        size_t replen = r.report ? strlen(r.report) : 0;
        wire_hdr h = {.type = MSG_RESULT, .status = r.status, .run = i, .a = r.nchannels,
                      .b = r.nflows, .c = replen, .d = r.nmessages};
        mpp_sb_reset(&msg);
        mpp_sb_addn(&msg, (const char *)&h, sizeof h);
        mpp_sb_addn(&msg, (const char *)&r.result, sizeof r.result);
        if (r.nchannels)
            mpp_sb_addn(&msg, (const char *)r.channels, r.nchannels * sizeof *r.channels);
        if (r.nflows)
            mpp_sb_addn(&msg, (const char *)r.flows, r.nflows * sizeof *r.flows);
        if (r.nmessages)
            mpp_sb_addn(&msg, (const char *)r.messages, r.nmessages * sizeof *r.messages);
        if (replen)
            mpp_sb_addn(&msg, r.report, replen);
        mpp_output_run_free(&r);
        if (!mpp_sb_ok(&msg) || write_full(fd, msg.s, msg.len)) {
            code = 3;
            break;
        }
    }
    mpp_sb_free(&msg);
    close(fd);
    _exit(code);
}

/* Read the rest of a MSG_RESULT from fd into c->runs. 0 ok, -1 broken. */
static int read_result(run_ctx *c, int fd, const wire_hdr *h)
{
    if (h->run >= c->nruns || h->a > UINT32_MAX || h->b > UINT32_MAX || h->c > (1u << 30) ||
        h->d > UINT32_MAX)
        return -1;
    mpp_output_run *r = &c->runs[h->run];
    mpp_output_run_free(r);
    if (read_full(fd, &r->result, sizeof r->result) != 1)
        return -1;
    r->nchannels = (size_t)h->a;
    r->nflows = (size_t)h->b;
    r->nmessages = (size_t)h->d;
    if (r->nchannels && !(r->channels = calloc(r->nchannels, sizeof *r->channels)))
        goto fail;
    if (r->nflows && !(r->flows = calloc(r->nflows, sizeof *r->flows)))
        goto fail;
    if (r->nmessages && !(r->messages = calloc(r->nmessages, sizeof *r->messages)))
        goto fail;
    if (!(r->report = calloc((size_t)h->c + 1, 1)))
        goto fail;
    if (r->nchannels && read_full(fd, r->channels, r->nchannels * sizeof *r->channels) != 1)
        goto fail;
    if (r->nflows && read_full(fd, r->flows, r->nflows * sizeof *r->flows) != 1)
        goto fail;
    if (r->nmessages && read_full(fd, r->messages, r->nmessages * sizeof *r->messages) != 1)
        goto fail;
    if (h->c && read_full(fd, r->report, (size_t)h->c) != 1)
        goto fail;
    r->status = h->status;
    r->done = true;
    return 0;
fail:
    mpp_output_run_free(r);
    return -1;
}

/* Run on nworkers forked processes. Returns 0, or 1 when a worker died or
 * its pipe broke (its unfinished runs are missing). */
static int run_parallel(run_ctx *c, size_t nworkers)
{
    pid_t *pids = calloc(nworkers, sizeof *pids);
    struct pollfd *pfd = calloc(nworkers, sizeof *pfd);
    int rc = 0;
    if (!pids || !pfd) {
        fprintf(stderr, "mppnet: out of memory\n");
        free(pids);
        free(pfd);
        return 1;
    }
    fflush(stdout);
    fflush(stderr);
    size_t started = 0;
    for (size_t w = 0; w < nworkers; w++) {
        int fds[2];
        if (pipe(fds) != 0) {
            fprintf(stderr, "mppnet: pipe: %s\n", strerror(errno));
            rc = 1;
            break;
        }
        pid_t pid = fork();
        if (pid < 0) {
            fprintf(stderr, "mppnet: fork: %s\n", strerror(errno));
            close(fds[0]);
            close(fds[1]);
            rc = 1;
            break;
        }
        if (pid == 0) {
            close(fds[0]);
            for (size_t k = 0; k < w; k++)
                close(pfd[k].fd);
            worker_main(c, w, nworkers, fds[1]);
        }
        close(fds[1]);
        pids[w] = pid;
        pfd[w].fd = fds[0];
        pfd[w].events = POLLIN;
        started++;
    }
    if (started < nworkers)
        interrupted = 1; /* stop the workers that did start, keep their results */
    size_t open = started;
    bool forwarded = false;
    while (open) {
        if (interrupted && !forwarded) {
            for (size_t w = 0; w < started; w++)
                if (pfd[w].fd >= 0)
                    kill(pids[w], SIGINT);
            forwarded = true;
        }
        int n = poll(pfd, started, -1);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            fprintf(stderr, "mppnet: poll: %s\n", strerror(errno));
            rc = 1;
            break;
        }
        for (size_t w = 0; w < started; w++) {
            if (pfd[w].fd < 0 || !pfd[w].revents)
                continue;
            wire_hdr h;
            int got = read_full(pfd[w].fd, &h, sizeof h);
            bool broken = got < 0;
            if (got == 1 && h.type == MSG_PROGRESS) {
                if (c->prog.on && w < c->prog.nslots) {
                    double f = h.b ? (double)h.a / (double)h.b : 0;
                    c->prog.frac[w] = f > 1 ? 1 : f;
                    progress_draw(&c->prog, false);
                }
                continue;
            }
            if (got == 1 && h.type == MSG_RESULT && h.run % nworkers == w &&
                read_result(c, pfd[w].fd, &h) == 0) {
                if (w < c->prog.nslots)
                    c->prog.frac[w] = 0;
                run_finished(c, (size_t)h.run);
                continue;
            }
            if (got == 1)
                broken = true;
            if (broken) {
                progress_clear(&c->prog);
                fprintf(stderr, "mppnet: lost the results of worker %zu\n", w);
                rc = 1;
            }
            close(pfd[w].fd);
            pfd[w].fd = -1;
            open--;
        }
    }
    for (size_t w = 0; w < started; w++) {
        if (pfd[w].fd >= 0)
            close(pfd[w].fd);
        int st = 0;
        while (waitpid(pids[w], &st, 0) < 0 && errno == EINTR)
            ;
        bool sigint = WIFSIGNALED(st) && WTERMSIG(st) == SIGINT;
        if ((WIFSIGNALED(st) && !sigint) || (WIFEXITED(st) && WEXITSTATUS(st) != 0)) {
            progress_clear(&c->prog);
            if (WIFSIGNALED(st))
                fprintf(stderr, "mppnet: worker %zu died of signal %d\n", w, WTERMSIG(st));
            else
                fprintf(stderr, "mppnet: worker %zu failed (exit %d)\n", w, WEXITSTATUS(st));
            rc = 1;
        }
        if (sigint)
            interrupted = 1;
    }
    free(pids);
    free(pfd);
    return rc;
}

/* ---- plot ---------------------------------------------------------------- */

/* Write DIR/latency.gp and run gnuplot on it to make DIR/latency.png
 * (through .latency.png.tmp and a rename). Silent when gnuplot is missing
 * or there is no rate axis; a note on stderr when gnuplot fails. */
static void make_plot(const char *dir, const mpp_experiment *e, const mpp_output_run *runs,
                      size_t nruns, bool quiet)
{
    if (!mpp_output_on_path("gnuplot"))
        return;
    mpp_sb sb;
    mpp_sb_init(&sb);
    mpp_err err;
    mpp_err_clear(&err);
    if (!mpp_output_plot_script(&sb, e, runs, nruns) || !mpp_sb_ok(&sb)) {
        mpp_sb_free(&sb);
        return;
    }
    int rc = mpp_output_write_atomic(dir, "latency.gp", sb.s, sb.len, &err);
    mpp_sb_free(&sb);
    if (rc) {
        if (!quiet)
            fprintf(stderr, "mppnet: note: no plot: %s\n", err.msg);
        return;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return;
    if (pid == 0) {
        if (chdir(dir) != 0)
            _exit(127);
        FILE *nul = freopen("/dev/null", "w", stdout);
        (void)nul;
        nul = freopen("/dev/null", "w", stderr);
        (void)nul;
        execlp("gnuplot", "gnuplot", "-e", "outfile='.latency.png.tmp'", "latency.gp",
               (char *)NULL);
        _exit(127);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    char tmp[4096 + 32], fin[4096 + 32];
    snprintf(tmp, sizeof tmp, "%s/.latency.png.tmp", dir);
    snprintf(fin, sizeof fin, "%s/latency.png", dir);
    struct stat sst;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0 && stat(tmp, &sst) == 0 && sst.st_size > 0 &&
        rename(tmp, fin) == 0)
        return;
    unlink(tmp);
    if (!quiet)
        fprintf(stderr, "mppnet: note: gnuplot could not draw %s/latency.gp\n", dir);
}

/* ---- commands -------------------------------------------------------------- */

/* Parse "EXP.yaml [key=value ...]" plus the options handled by the caller;
 * shared checks of run and check. Returns 0 or an exit status. */
static int add_positional(const char *cmd, const char *a, const char **path, strvec *ov)
{
    if (a[0] == '-' && a[1] != '\0')
        return usage_error(cmd, "unknown option '%s'", a);
    if (!*path && !looks_like_override(a)) {
        *path = a;
        return 0;
    }
    if (!override_ok(a))
        return usage_error(cmd, "malformed override '%s' (expected key.path=value)", a);
    sv_push(ov, a);
    return 0;
}

/* The common end of `run` and `check` argument parsing: report a missing
 * experiment file or an allocation failure, then load the experiment with
 * the overrides (ov is freed). Returns 0 with *e loaded, or the exit
 * status after printing the error. */
static int load_args(const char *cmd, int status, const char *path, strvec *ov,
                     mpp_experiment **e, mpp_err *err)
{
    if (!status && !path)
        status = usage_error(cmd, "missing the experiment file (mppnet %s EXP.yaml)", cmd);
    if (!status && ov->failed)
        status = usage_error(cmd, "out of memory");
    if (status) {
        sv_free(ov);
        return status;
    }
    mpp_err_clear(err);
    *e = mpp_experiment_load(path, ov->n, (const char *const *)ov->v, err);
    sv_free(ov);
    return *e ? 0 : fail_err(err);
}

static int cmd_run(int argc, char **argv)
{
    if (has_help(argc, argv)) {
        fputs(help_run, stdout);
        return 0;
    }
    const char *path = NULL, *outdir = NULL;
    uint64_t jobs = 1;
    bool dump = false, quiet = false, only_pos = false;
    strvec ov = {0};
    int status = 0;
    for (int i = 1; i < argc && !status; i++) {
        const char *a = argv[i], *v = NULL;
        int r;
        if (only_pos) {
            status = add_positional("run", a, &path, &ov);
        } else if (!strcmp(a, "--")) {
            only_pos = true;
        } else if (!strcmp(a, "--dump-config")) {
            dump = true;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            quiet = true;
        } else if ((r = opt_value(argc, argv, &i, "-o", "--output", &v, "run")) != 0) {
            if (r < 0)
                status = 2;
            else if (!*v)
                status = usage_error("run", "option -o needs a directory");
            else
                outdir = v;
        } else if ((r = opt_value(argc, argv, &i, "-j", "--jobs", &v, "run")) != 0) {
            if (r < 0)
                status = 2;
            else if (!parse_u64(v, &jobs) || jobs < 1 || jobs > MAX_JOBS)
                status = usage_error("run", "-j needs a number of jobs from 1 to %d, not '%s'",
                                     MAX_JOBS, v);
        } else {
            status = add_positional("run", a, &path, &ov);
        }
    }
    mpp_experiment *e = NULL;
    mpp_err err;
    if ((status = load_args("run", status, path, &ov, &e, &err)))
        return status;
    size_t nruns = mpp_experiment_runs(e);

    if (dump) {
        mpp_sb sb;
        mpp_sb_init(&sb);
        for (size_t i = 0; i < nruns; i++) {
            char d[256];
            describe_run(e, i, d, sizeof d);
            mpp_sb_reset(&sb);
            mpp_experiment_config_yaml(e, i, &sb);
            printf("--- # %s, config_hash %016" PRIx64 "\n%s", d, mpp_experiment_hash(e, i), sb.s);
            if (sb.len && sb.s[sb.len - 1] != '\n')
                putchar('\n');
        }
        mpp_sb_free(&sb);
        mpp_experiment_destroy(e);
        return fflush(stdout) == 0 ? 0 : 2;
    }

    if (validate(e, path, &err)) {
        mpp_experiment_destroy(e);
        return fail_err(&err);
    }

    const mpp_output_config *oc = mpp_experiment_output(e);
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", outdir ? outdir : oc->dir);

    run_ctx c;
    memset(&c, 0, sizeof c);
    c.e = e;
    c.nruns = nruns;
    c.channels = oc->per_channel;
    c.matrix = oc->traffic_matrix;
    c.messages = oc->per_message;
    size_t nworkers = jobs < nruns ? (size_t)jobs : (nruns ? nruns : 1);
    c.runs = calloc(nruns ? nruns : 1, sizeof *c.runs);
    c.prog.on = !quiet && isatty(STDERR_FILENO);
    c.prog.rows_on_tty = isatty(STDOUT_FILENO);
    c.prog.nruns = nruns;
    c.prog.nslots = nworkers;
    c.prog.frac = calloc(nworkers, sizeof *c.prog.frac);
    if (!c.runs || !c.prog.frac || table_init(&c.tab, e)) {
        fprintf(stderr, "mppnet: out of memory\n");
        status = 2;
        goto out;
    }

    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sa.sa_flags = SA_RESETHAND; /* a second Ctrl-C kills at once */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old);

    table_header(&c.tab);
    progress_draw(&c.prog, true);
    int prc = 0;
    if (nworkers <= 1)
        run_serial(&c);
    else
        prc = run_parallel(&c, nworkers);
    /* Rows not printed yet (after a gap left by an interrupted worker). */
    progress_clear(&c.prog);
    for (; c.tab.next < nruns; c.tab.next++)
        if (c.runs[c.tab.next].done)
            table_row(&c.tab, c.tab.next, &c.runs[c.tab.next]);
    fflush(stdout);

    size_t ndone = 0, nok = 0;
    for (size_t i = 0; i < nruns; i++) {
        if (!c.runs[i].done)
            continue;
        ndone++;
        if (c.runs[i].status == 0)
            nok++;
        int s = mpp_err_exit_status(c.runs[i].status);
        if (s > status)
            status = s;
    }
    if (prc && status < 1)
        status = 1;
    if (mpp_output_write_all(dir, mpp_cli_version(), e, c.runs, nruns, &err)) {
        fail_err(&err);
        if (status < 2)
            status = 2;
    } else {
        if (oc->plot)
            make_plot(dir, e, c.runs, nruns, quiet);
        if (!quiet)
            fprintf(stderr, "mppnet: wrote %zu of %zu runs to %s/\n", nok, nruns, dir);
    }
    if (interrupted) {
        fprintf(stderr, "mppnet: interrupted after %zu of %zu runs\n", ndone, nruns);
        status = EXIT_INTERRUPTED;
    }
    sigaction(SIGINT, &old, NULL);
out:
    if (c.runs)
        for (size_t i = 0; i < nruns; i++)
            mpp_output_run_free(&c.runs[i]);
    free(c.runs);
    free(c.prog.frac);
    table_free(&c.tab);
    mpp_experiment_destroy(e);
    return status;
}

static int cmd_check(int argc, char **argv)
{
    if (has_help(argc, argv)) {
        fputs(help_check, stdout);
        return 0;
    }
    const char *path = NULL;
    strvec ov = {0};
    int status = 0;
    bool only_pos = false;
    for (int i = 1; i < argc && !status; i++) {
        if (!only_pos && !strcmp(argv[i], "--"))
            only_pos = true;
        else
            status = add_positional("check", argv[i], &path, &ov);
    }
    mpp_experiment *e = NULL;
    mpp_err err;
    if ((status = load_args("check", status, path, &ov, &e, &err)))
        return status;
    if (validate(e, path, &err)) {
        mpp_experiment_destroy(e);
        return fail_err(&err);
    }
    size_t n = mpp_experiment_runs(e);
    printf("%s: ok, %zu run%s\n", path, n, n == 1 ? "" : "s");
    mpp_experiment_destroy(e);
    return 0;
}

/* Split "NAME:ARGS" at the first ':' into name (buffer) and args (or NULL). */
static bool split_name(const char *spec, char *name, size_t len, const char **args)
{
    const char *colon = strchr(spec, ':');
    size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
    if (n == 0 || n >= len)
        return false;
    memcpy(name, spec, n);
    name[n] = '\0';
    *args = colon ? colon + 1 : NULL;
    return true;
}

/* "k=v,k=v" -> overrides PREFIX.k=v. 0 or a usage error status. */
static int push_kv_list(strvec *ov, const char *prefix, const char *args, const char *flag)
{
    char buf[1024];
    if (strlen(args) >= sizeof buf)
        return usage_error("sim", "%s: arguments too long", flag);
    memcpy(buf, args, strlen(args) + 1);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq || eq == tok)
            return usage_error("sim", "%s: expected key=value, not '%s'", flag, tok);
        sv_pushf(ov, "%s.%s", prefix, tok);
    }
    return 0;
}

static void list_names(mpp_sb *sb, const char *const *names)
{
    for (size_t i = 0; names[i]; i++)
        mpp_sb_printf(sb, "%s%s", i ? ", " : "", names[i]);
}

/* The name of entry i of a plug-in registry: NULL past the last entry, ""
 * for an entry that is not offered (a test-only router). */
typedef const char *(*registry_name)(size_t i);

static const char *topo_name(size_t i)
{
    const mpp_topo_ops *o = mpp_topo_all()[i];
    return o ? o->name : NULL;
}

static const char *routing_name(size_t i)
{
    const mpp_routing_ops *o = mpp_routing_all()[i];
    return !o ? NULL : o->test_only ? "" : o->name;
}

static const char *pattern_name(size_t i)
{
    const mpp_pattern_ops *o = mpp_pattern_all()[i];
    return o ? o->name : NULL;
}

/* The usage error of `sim` for a plug-in name not in a registry:
 * "unknown WHAT 'NAME' (valid: A, B, ...)" listing the names at() offers.
 * Returns the exit status. */
static int unknown_plugin(const char *what, const char *name, registry_name at)
{
    mpp_sb sb;
    mpp_sb_init(&sb);
    const char *n;
    bool first = true;
    for (size_t i = 0; (n = at(i)); i++) {
        if (!*n)
            continue;
        mpp_sb_printf(&sb, "%s%s", first ? "" : ", ", n);
        first = false;
    }
    int s = usage_error("sim", "unknown %s '%s' (valid: %s)", what, name, sb.s);
    mpp_sb_free(&sb);
    return s;
}

static int sim_topology(strvec *ov, const char *spec)
{
    char name[64];
    const char *args;
    if (!split_name(spec, name, sizeof name, &args))
        return usage_error("sim", "--topology: expected NAME[:ARGS], not '%s'", spec);
    const mpp_topo_ops *ops = mpp_topo_find(name);
    if (!ops)
        return unknown_plugin("topology", name, topo_name);
    sv_pushf(ov, "network.topology=%s", ops->name);
    if (!args)
        return 0;
    if (!ops->parse_short)
        return usage_error("sim", "topology '%s' has no short form; set its keys as "
                                  "network.%s.KEY=VALUE", ops->name, ops->name);
    mpp_sb kv;
    mpp_sb_init(&kv);
    mpp_err err;
    mpp_err_clear(&err);
    if (ops->parse_short(args, &kv, &err)) {
        mpp_sb_free(&kv);
        return usage_error("sim", "--topology %s", err.msg);
    }
    for (const char *p = kv.s; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (len)
            sv_pushf(ov, "network.%s.%.*s", ops->name, (int)len, p);
        p += len + (nl != NULL);
    }
    mpp_sb_free(&kv);
    return 0;
}

static const char *routing_canonical(const char *name)
{
    const mpp_routing_ops *o = mpp_routing_find(name);
    return o ? o->name : NULL;
}

static const char *pattern_canonical(const char *name)
{
    const mpp_pattern_ops *o = mpp_pattern_find(name);
    return o ? o->name : NULL;
}

/* `--router NAME[:k=v,...]` / `--traffic NAME[:k=v,...]`: the selector
 * override section.selector=NAME and section.NAME.k=v for each argument. */
static int sim_plugin(strvec *ov, const char *spec, const char *flag, const char *what,
                      const char *section, const char *selector,
                      const char *(*canonical)(const char *), const char *(*nth)(size_t))
{
    char name[64];
    const char *args;
    if (!split_name(spec, name, sizeof name, &args))
        return usage_error("sim", "%s: expected NAME[:key=value,...], not '%s'", flag, spec);
    const char *canon = canonical(name);
    if (!canon)
        return unknown_plugin(what, name, nth);
    sv_pushf(ov, "%s.%s=%s", section, selector, canon);
    char prefix[96];
    snprintf(prefix, sizeof prefix, "%s.%s", section, canon);
    return args ? push_kv_list(ov, prefix, args, flag) : 0;
}

/* Numeric flags of `sim` that map straight to a key. */
static const struct sim_flag {
    const char *flag, *key;
    bool real;   /* a number with a fraction; else an unsigned integer */
} sim_flags[] = {
    {"--rate", "workload.rate", true},
    {"--packet-flits", "workload.packet_flits", false},
    {"--vcs", "network.vcs", false},
    {"--buffer-flits", "network.buffer_flits", false},
    {"--warmup", "workload.warmup", false},
    {"--cycles", "workload.measure", false},
    {"--seed", SEED_KEY, false},
};

static void sim_progress(void *ud, uint64_t cycle, uint64_t total)
{
    progress *p = ud;
    p->frac[0] = total ? (double)cycle / (double)total : 0;
    progress_draw(p, false);
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
    mpp_sb_add(&sb, "}\n}\n");
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
        table_value(&c, w, r);
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
    printf("  %-15s %" PRIu64 " measured, %" PRIu64 " delivered\n", "packets", r->packets_measured,
           r->packets_delivered);
    printf("  %-15s %" PRIu64 " simulated in %.3f s (%.0f cycles/s)\n", "cycles", r->cycles,
           r->wall_seconds, r->wall_seconds > 0 ? (double)r->cycles / r->wall_seconds : 0.0);
    printf("  %-15s %s%s\n", "saturated", r->saturated ? "yes" : "no",
           r->saturated && !r->drained ? " (measured packets did not drain)" : "");
}

static int cmd_sim(int argc, char **argv)
{
    if (has_help(argc, argv)) {
        fputs(help_sim, stdout);
        return 0;
    }
    strvec ov = {0}, user = {0};
    bool json = false, quiet = false;
    int status = 0;
    for (int i = 1; i < argc && !status; i++) {
        const char *a = argv[i], *v = NULL;
        int r = 0;
        if (!strcmp(a, "--json")) {
            json = true;
            continue;
        }
        if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            quiet = true;
            continue;
        }
        if ((r = opt_value(argc, argv, &i, NULL, "--topology", &v, "sim")) != 0) {
            status = r < 0 ? 2 : sim_topology(&ov, v);
            continue;
        }
        if ((r = opt_value(argc, argv, &i, NULL, "--router", &v, "sim")) != 0) {
            status = r < 0 ? 2
                           : sim_plugin(&ov, v, "--router", "router", "network", "router",
                                        routing_canonical, routing_name);
            continue;
        }
        if ((r = opt_value(argc, argv, &i, NULL, "--traffic", &v, "sim")) != 0) {
            status = r < 0 ? 2
                           : sim_plugin(&ov, v, "--traffic", "traffic pattern", "workload",
                                        "pattern", pattern_canonical, pattern_name);
            continue;
        }
        size_t k;
        for (k = 0; k < MPP_COUNTOF(sim_flags); k++)
            if ((r = opt_value(argc, argv, &i, NULL, sim_flags[k].flag, &v, "sim")) != 0)
                break;
        if (k < MPP_COUNTOF(sim_flags)) {
            uint64_t u;
            double d;
            if (r < 0)
                status = 2;
            else if (sim_flags[k].real ? !parse_double(v, &d) : !parse_u64(v, &u))
                status = usage_error("sim", "%s needs %s, not '%s'", sim_flags[k].flag,
                                     sim_flags[k].real ? "a number" : "a whole number >= 0", v);
            else
                sv_pushf(&ov, "%s=%s", sim_flags[k].key, v);
            continue;
        }
        if (a[0] == '-')
            status = usage_error("sim", "unknown option '%s'", a);
        else if (!override_ok(a))
            status = usage_error("sim", "malformed override '%s' (expected key.path=value)", a);
        else
            sv_push(&user, a);
    }
    for (size_t k = 0; k < user.n; k++)
        sv_push(&ov, user.v[k]);
    sv_free(&user);
    if (!status && ov.failed)
        status = usage_error("sim", "out of memory");
    if (status) {
        sv_free(&ov);
        return status;
    }

    mpp_err err;
    mpp_err_clear(&err);
    mpp_experiment *e =
        mpp_experiment_parse(SIM_BASE, "mppnet sim", ov.n, (const char *const *)ov.v, &err);
    sv_free(&ov);
    if (!e)
        return fail_err(&err);
    if (mpp_experiment_runs(e) != 1) {
        size_t n = mpp_experiment_runs(e);
        mpp_experiment_destroy(e);
        return usage_error("sim", "mppnet sim makes one run, this configuration makes %zu "
                                  "(use mppnet run for sweeps)", n);
    }
    const mpp_sim_config *cfg = mpp_experiment_config(e, 0);
    mpp_sim *s = mpp_sim_create(cfg, &err);
    if (!s) {
        mpp_experiment_destroy(e);
        return fail_err(&err);
    }
    double frac = 0;
    progress prog = {.on = !quiet && isatty(STDERR_FILENO), .nruns = 1, .frac = &frac,
                     .nslots = 1};
    double t0 = now_seconds();
    int rc = mpp_sim_run(s, prog.on ? sim_progress : NULL, &prog, &err);
    double wall = now_seconds() - t0;
    progress_clear(&prog);
    if (rc) {
        fprintf(stderr, "mppnet: %s\n", err.msg);
        const char *rep = mpp_sim_report(s);
        if (rep && *rep)
            fprintf(stderr, "%s%s", rep, rep[strlen(rep) - 1] == '\n' ? "" : "\n");
        status = mpp_err_exit_status(err.code ? err.code : rc);
    } else {
        mpp_sim_result r = *mpp_sim_result_get(s);
        if (r.wall_seconds <= 0)
            r.wall_seconds = wall;
        if (json)
            sim_json(e, &r);
        else
            sim_summary(cfg, s, &r);
        if (fflush(stdout) != 0)
            status = 2;
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
    case MPP_PT_SENDLIST: return "send list";
    case MPP_PT_STRING: return "text";
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

static int cmd_list(int argc, char **argv)
{
    if (has_help(argc, argv)) {
        fputs(help_list, stdout);
        return 0;
    }
    if (argc > 2)
        return usage_error("list", "too many arguments");
    bool topo = true, rout = true, pat = true, pre = true, wl = true, sch = true;
    if (argc == 2) {
        const char *f = argv[1];
        topo = !strcmp(f, "topologies") || !strcmp(f, "topology");
        rout = !strcmp(f, "routers") || !strcmp(f, "router") || !strcmp(f, "routing");
        pat = !strcmp(f, "patterns") || !strcmp(f, "pattern") || !strcmp(f, "traffic");
        pre = !strcmp(f, "presets") || !strcmp(f, "machines") || !strcmp(f, "machine");
        wl = !strcmp(f, "workloads") || !strcmp(f, "workload");
        sch = !strcmp(f, "schedulers") || !strcmp(f, "scheduler");
        if (!topo && !rout && !pat && !pre && !wl && !sch)
            return usage_error("list", "unknown family '%s' (topologies, routers, workloads, "
                                       "patterns, schedulers, presets)",
                               f);
    }
    bool any = false;
    if (topo) {
        printf("topologies (network.topology; parameters network.<name>.<key>):\n");
        for (const mpp_topo_ops *const *t = mpp_topo_all(); *t; t++) {
            list_entry((*t)->name, NULL, (*t)->help);
            list_schema(&(*t)->schema);
        }
        any = true;
    }
    if (rout) {
        printf("%srouters (network.router; parameters network.<name>.<key>):\n",
               any ? "\n" : "");
        any = true;
        for (const mpp_routing_ops *const *r = mpp_routing_all(); *r; r++) {
            if ((*r)->test_only)
                continue;
            list_entry((*r)->name, (*r)->aliases, (*r)->help);
            list_schema(&(*r)->schema);
        }
    }
    if (wl) {
        printf("%sworkloads (workload.type; parameters workload.<key>):\n", any ? "\n" : "");
        for (const mpp_workload_ops *const *w = mpp_workload_all(); *w; w++) {
            list_entry((*w)->name, NULL, (*w)->help);
            list_schema(&(*w)->schema);
        }
        any = true;
    }
    if (pat) {
        printf("%spatterns (workload.pattern; parameters workload.<name>.<key>):\n",
               any ? "\n" : "");
        any = true;
        for (const mpp_pattern_ops *const *p = mpp_pattern_all(); *p; p++) {
            list_entry((*p)->name, (*p)->aliases, (*p)->help);
            list_schema(&(*p)->schema);
        }
    }
    if (sch) {
        printf("%sschedulers (workload.scheduler; parameters workload.<name>.<key>):\n",
               any ? "\n" : "");
        for (const mpp_sched_ops *const *o = mpp_sched_all(); *o; o++) {
            list_entry((*o)->name, NULL, (*o)->help);
            list_schema(&(*o)->schema);
        }
        any = true;
    }
    if (pre) {
        printf("%smachine presets (machine: NAME; experiments/machines/NAME.yaml):\n",
               any ? "\n" : "");
        for (size_t i = 0; i < mpp_npresets; i++)
            list_entry(mpp_presets[i].name, NULL, mpp_presets[i].help);
    }
    return fflush(stdout) == 0 ? 0 : 2;
}

/* ---- bench --------------------------------------------------------------- */

static int cmd_bench(int argc, char **argv)
{
    if (has_help(argc, argv)) {
        fputs(help_bench, stdout);
        for (size_t i = 0; i < mpp_bench_count(); i++)
            printf("  %s  %s\n", mpp_bench_name(i), mpp_bench_desc(i));
        return 0;
    }
    bool json = false;
    bool sel[64] = {false};
    bool any_sel = false;
    size_t n = mpp_bench_count();
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        int r;
        if (!strcmp(argv[i], "--json")) {
            json = true;
        } else if ((r = opt_value(argc, argv, &i, NULL, "--only", &v, "bench")) != 0) {
            if (r < 0)
                return 2;
            char buf[256];
            snprintf(buf, sizeof buf, "%s", v);
            char *save = NULL;
            for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
                int k = mpp_bench_find(tok);
                if (k < 0 || (size_t)k >= MPP_COUNTOF(sel))
                    return usage_error("bench", "unknown workload '%s' (a, b, c, d or e)", tok);
                sel[k] = true;
                any_sel = true;
            }
            if (!any_sel)
                return usage_error("bench", "--only needs a workload name (a, b, c, d or e)");
        } else {
            return usage_error("bench", "unknown argument '%s'", argv[i]);
        }
    }
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
            fprintf(stderr, "mppnet: bench %s: %s\n", mpp_bench_name(i), err.msg);
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
    if (fflush(stdout) != 0 && !status)
        status = 2;
    return status;
}

/* ---- dispatch ------------------------------------------------------------ */

typedef struct command {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *help;
} command;

static const command commands[] = {
    {"run", cmd_run, help_run},
    {"sim", cmd_sim, help_sim},
    {"check", cmd_check, help_check},
    {"list", cmd_list, help_list},
    {"bench", cmd_bench, help_bench},
    {"plot", mpp_plot_main, mpp_plot_help},
    {"com", mpp_cmd_com, mpp_cmd_com_help},
    {"schedule", mpp_cmd_schedule, mpp_cmd_schedule_help},
    {"replay", mpp_cmd_replay, NULL},
};

static const command *find_command(const char *name)
{
    for (size_t i = 0; i < MPP_COUNTOF(commands); i++)
        if (!strcmp(commands[i].name, name))
            return &commands[i];
    return NULL;
}

int mpp_cli_main(int argc, char **argv)
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
            return usage_error(NULL, "unknown command '%s'", argv[2]);
        char *args[] = {argv[2], "--help", NULL};
        return c->fn(2, args);
    }
    if (cmd[0] == '-')
        return usage_error(NULL, "unknown option '%s'", cmd);
    const command *c = find_command(cmd);
    if (!c)
        return usage_error(NULL, "unknown command '%s'", cmd);
    return c->fn(argc - 1, argv + 1);
}
