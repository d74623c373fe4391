/* core/cli/runner.c — `mppnet run`: an experiment's runs on worker
 * processes, into an output folder that never loses a finished run (see
 * runner.h and docs/cli.md); or only one shard of its runs (--shard I/N:
 * the runs whose index is I-1 modulo N); or, under mpirun, over MPI ranks
 * (docs/scaling.md; the messages in core/cli/mpi_sweep.c).
 *
 * The output folder DIR holds the result files and DIR/.mppnet/: a lock
 * (the run owns the folder while it runs; a second run into it refuses),
 * a copy of the experiment (its text, path and overrides, and its shard,
 * for --resume) and one record per finished run (run-N.rec: the packed
 * result, its arrays and its config hash, written atomically and
 * fsync'd); core/cli/store.c keeps them.
 *
 *   parse args --bad--> usage error, exit 2 (nothing written)
 *       | load the experiment (file, or the folder's copy with --resume)
 *       |   --error--> "mppnet: FILE:L:C: ...", exit 2
 *       | validate: mpp_sim_validate of every run --error--> exit 2
 *       | --dump-config? --> print YAML of every run, exit 0
 *   open the folder: mkdir -p, lock, a fresh run removes what an earlier
 *       | run left, writes the experiment's copy and empty result files
 *       | (a folder that cannot be written fails here, before any run);
 *       | --resume reads the records instead and refuses a changed run
 *   workers (fork; -j N of them, N >= 1) run the runs not done, taken
 *       | from a queue one at a time: the parent writes a run's index to
 *       | an idle worker's command pipe, the worker sends the packed result
 *       | through its result pipe and gets the next index at once; with
 *       | N > 1 the queue holds the longest expected runs first (run_cost,
 *       | from the configuration only), with one worker run order; an
 *       | empty queue closes a worker's command pipe and it exits
 *   every finished run: record (fsync) --> the result files rewritten
 *       | atomically from every finished run in run order --> its row
 *   under mpirun (rank 0; run_master): the same, but the runs go to the
 *       | other ranks (mpi_worker: run_workers with next_run asking rank 0),
 *       | and each result that comes back is recorded as above
 *   SIGINT, SIGTERM, SIGHUP: the workers are killed, the finished runs
 *       | stay, exit 128 + signal; SIGPIPE is ignored (a closed stdout
 *       | loses the table, never the results)
 *   the end: the files once more, fsync'd; the plot; unlock.
 *
 * Invariants:
 *   1. The only global is `interrupted` (the signal that stopped the run);
 *      the handlers only set it.
 *   2. Nothing is written before every run's configuration was checked and
 *      the folder is locked; a record exists only for a finished run, and
 *      a result file holds exactly the runs whose records exist.
 *   3. The files depend on the runs' results and run order only: byte-
 *      identical for every -j, and after a --resume.
 *   4. stdout carries only the table; progress, notes and errors go to
 *      stderr: the bar when stderr is a terminal, else a line a tenth.
 *   5. Every run not done is handed out once, to one worker, which runs
 *      only the run it was handed and one at a time; the parent accepts
 *      from a worker only the result of its run in progress. */
#include "core/cli/runner.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#if defined(MPP_HAVE_MPI) && defined(__linux__)
#include <sys/prctl.h>
#endif
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/base/file.h"
#include "core/base/strbuf.h"
#include "core/base/units.h"
#include "core/cli/args.h"
#include "core/cli/cli.h"
#include "core/cli/cmd_booksim.h"
#include "core/cli/cost.h"
#include "core/cli/output.h"
#include "core/cli/plot.h"
#include "core/cli/store.h"
#ifdef MPP_HAVE_MPI
#include "core/cli/mpi_sweep.h"
#endif
#include "core/config/booksim.h"
#include "core/config/cfgtree.h"
#include "core/route.h"
#include "core/sim.h"

#define MAX_JOBS 256

/* The one global (invariant 1): 0, or the signal that stopped the run. */
static volatile sig_atomic_t interrupted;

/* The write end of the parent's signal pipe while its workers run (-1
 * otherwise): the handler writes a byte to it, so that a signal arriving
 * between the parent's test of `interrupted` and its poll() still wakes
 * the poll (the pipe's read end is one of the descriptors it waits on). */
static volatile sig_atomic_t sig_wake = -1;

static void on_signal(int sig)
{
    interrupted = sig;
    int fd = sig_wake;
    if (fd >= 0) {
        int e = errno;
        ssize_t w = write(fd, "", 1); /* non-blocking: a full pipe is awake already */
        (void)w;
        errno = e;
    }
}

static const char help_run[] =
    "usage: mppnet run EXP.yaml [-o DIR] [-j N] [--shard I/N] [--max-work W] [--dump-config]\n"
    "                  [-q] [-v] [key.path=value ...]\n"
    "       mppnet run --resume DIR [EXP.yaml] [-j N] [--max-work W] [-q] [-v]\n"
    "                  [key.path=value ...]\n"
    "\n"
    "Run every run of an experiment (each point of its sweep, for each seed),\n"
    "print a summary table on stdout, and write to DIR: results.csv (one row\n"
    "per run), results.json (with the resolved configuration, seed and\n"
    "version), and when the experiment's output section asks for them\n"
    "channels.csv, matrix.csv, messages.csv and latency.png (needs gnuplot).\n"
    "Every finished run is written at once: an interrupted sweep keeps its\n"
    "finished runs, and --resume completes it.\n"
    "\n"
    "options:\n"
    "  -o, --output DIR   write the results to DIR (default: output.dir)\n"
    "  -j, --jobs N       run on N worker processes, 1..256 (default 1), which\n"
    "                     take the runs one at a time, the longest expected first;\n"
    "                     the results are identical for every N, in run order\n"
    "  --shard I/N        run only shard I of N (1 <= I <= N): the runs whose index\n"
    "                     is I-1 modulo N, into DIR-shard-I-of-N (DIR: output.dir)\n"
    "                     or -o; `mppnet merge` joins the N folders\n"
    "  --resume DIR       complete the interrupted run in DIR: the runs not\n"
    "                     finished, with the experiment kept in DIR (or EXP.yaml,\n"
    "                     which must not change a finished run)\n"
    "  --max-work W       refuse, before any run starts (exit 2), an experiment\n"
    "                     with a run estimated above W flit-router crossings\n"
    "                     (`mppnet check` prints each run's; default 1e12, about\n"
    "                     a day of one core: docs/performance.md)\n"
    "  --dump-config      print the resolved configuration of every run\n"
    "                     (YAML, defaults included) and exit without running\n"
    "  -q, --quiet        no progress bar and no notes on stderr\n"
    "  -v, --verbose      a note on stderr as each run starts (even with -q):\n"
    "                     \"mppnet: run 3 (..., seed 1) started on worker 0\"\n"
    "  -h, --help         show this help\n"
    "  key.path=value     override a key of the experiment,\n"
    "                     e.g. network.vcs=4 'workload.pattern=transpose'\n"
    "\n"
    "DIR belongs to one run at a time: a second run into it refuses. A new run\n"
    "(without --resume) removes the result files an earlier run left in DIR.\n"
    "Ctrl-C, SIGTERM and SIGHUP stop the workers at once; the finished runs\n"
    "stay written; the exit status is 128 + the signal (130 for Ctrl-C). A run\n"
    "that deadlocks prints the deadlock report; the other runs are written and\n"
    "the exit status is 1.\n"
    "\n"
    "Under mpirun (`mpirun -np P mppnet run EXP.yaml`, when mppnet was built\n"
    "with MPI) rank 0 writes DIR and hands the runs, longest expected first, to\n"
    "the other ranks, each running them on -j N worker processes of its own;\n"
    "the files are the same as with -j 1 (docs/scaling.md).\n";

/* ---- small helpers ------------------------------------------------------- */

static void print_double(int width, int prec, double v)
{
    if (isfinite(v))
        printf("%*.*f", width, prec, v);
    else
        printf("%*s", width, "-");
}

void mpp_run_describe(const mpp_experiment *e, size_t i, char *buf, size_t len)
{
    mpp_sb sb;
    mpp_sb_init(&sb);
    mpp_sb_printf(&sb, "run %zu (", i);
    for (size_t a = 0; a < mpp_experiment_axes(e); a++) {
        mpp_sb_printf(&sb, "%s=", mpp_experiment_axis(e, a));
        mpp_str_escape(&sb, mpp_experiment_value(e, i, a), false); /* a sweep value: user text */
        mpp_sb_add(&sb, ", ");
    }
    mpp_sb_printf(&sb, "seed %" PRIu64 ")", mpp_experiment_config(e, i)->run.seed);
    snprintf(buf, len, "%s", mpp_sb_ok(&sb) ? sb.s : "run");
    mpp_sb_free(&sb);
}

/* Where the key an error message names ("workload.s = 500: ...", "key
 * 'workload.algorithm': ...") was written in run i, or NULL: the first
 * dotted key path in msg that the experiment has. */
static const char *error_where(const mpp_experiment *e, size_t i, const char *msg, char *buf,
                               size_t size)
{
    for (const char *c = msg; *c; c++) {
        if (c > msg && (isalnum((unsigned char)c[-1]) || c[-1] == '_' || c[-1] == '.'))
            continue;
        if (!islower((unsigned char)*c))
            continue;
        size_t len = strspn(c, "abcdefghijklmnopqrstuvwxyz0123456789_.");
        while (len && c[len - 1] == '.')
            len--;
        char key[128];
        if (len >= sizeof key || !memchr(c, '.', len))
            continue;
        memcpy(key, c, len);
        key[len] = '\0';
        const char *w = mpp_experiment_where(e, i, key, buf, size);
        if (w)
            return w;
    }
    return NULL;
}

int mpp_run_validate(const mpp_experiment *e, const char *origin, mpp_err *err)
{
    size_t n = mpp_experiment_runs(e);
    for (size_t i = 0; i < n; i++) {
        if (mpp_sim_validate(mpp_experiment_config(e, i), err)) {
            if (!err->code)
                err->code = MPP_EINVAL;
            char w[320];
            const char *at = error_where(e, i, err->msg, w, sizeof w);
            if (!at)
                at = origin;
            if (n > 1) {
                char d[256];
                mpp_run_describe(e, i, d, sizeof d);
                mpp_err_prefix(err, "%s: %s", at, d);
            } else {
                mpp_err_prefix(err, "%s", at);
            }
            return err->code;
        }
    }
    return 0;
}

void mpp_run_print_value(const mpp_summary_col *c, const mpp_workload_ops *w,
                         const mpp_sim_result *r)
{
    mpp_value v;
    mpp_field_type type;
    if (!mpp_output_column(w, r, c->column, &v, &type))
        printf("%*s", c->width, "-");
    else if (type == MPP_F_DOUBLE)
        print_double(c->width, c->prec, v.d);
    else if (type == MPP_F_BOOL)
        printf("%*s", c->width, v.u ? "yes" : "no");
    else
        printf("%*" PRIu64, c->width, v.u);
}

/* ---- progress ------------------------------------------------------------ */

/* Progress on stderr, unless --quiet: on a terminal a bar redrawn in place
 * (at most ten times a second) with the time elapsed and the time left;
 * otherwise (a file, a pipe, a batch job's log) one line each time the
 * work done passes another tenth. The time left is the time elapsed
 * scaled by the work left over the work done since the start (a resumed
 * experiment's runs done before do not count as speed). */
typedef struct progress {
    bool on;            /* report progress: not --quiet */
    bool tty;           /* stderr is a terminal: the bar; else tenths as lines */
    size_t nruns;
    size_t ndone;
    double *frac;       /* [nslots]: fraction done of each running run */
    size_t nslots;
    double last;        /* time of the last draw */
    double start;       /* time of the first draw */
    double f0;          /* fraction done at the first draw */
    int tenth;          /* tenths reported as lines */
    bool started;
    bool shown;         /* a bar is on the screen */
    bool rows_on_tty;   /* stdout is a terminal too: clear the bar for rows */
} progress;

static void progress_clear(progress *p)
{
    if (p->on && p->tty && p->shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        p->shown = false;
    }
}

/* A duration as "42 s", "3 min 05 s" or "2 h 07 min". */
static void duration(char *buf, size_t len, double s)
{
    long t = s < 0 ? 0 : s > 1e8 ? 100000000L : (long)(s + 0.5);
    if (t < 60)
        snprintf(buf, len, "%ld s", t);
    else if (t < 3600)
        snprintf(buf, len, "%ld min %02ld s", t / 60, t % 60);
    else
        snprintf(buf, len, "%ld h %02ld min", t / 3600, t / 60 % 60);
}

static void progress_draw(progress *p, bool force)
{
    if (!p->on)
        return;
    double t = mpp_host_seconds();
    if (p->tty && !force && t - p->last < 0.1)
        return;
    p->last = t;
    double done = (double)p->ndone;
    for (size_t k = 0; k < p->nslots; k++)
        done += p->frac[k];
    double f = p->nruns ? done / (double)p->nruns : 1.0;
    if (f > 1)
        f = 1;
    if (!p->started) {
        p->started = true;
        p->start = t;
        p->f0 = f;
        p->tenth = (int)(f * 10 + 1e-9);
    }
    char el[32], left[48] = "";
    duration(el, sizeof el, t - p->start);
    if (f >= 1)
        snprintf(left, sizeof left, "done");
    else if (f - p->f0 > 1e-6 && t - p->start >= 1) {
        char d[32];
        duration(d, sizeof d, (t - p->start) * (1 - f) / (f - p->f0));
        snprintf(left, sizeof left, "about %s left", d);
    }
    if (!p->tty) {
        int tenth = (int)(f * 10 + 1e-9);
        if (tenth <= p->tenth)
            return;
        p->tenth = tenth;
        if (p->nruns > 1)
            fprintf(stderr, "mppnet: %d%% (%zu of %zu runs), %s elapsed%s%s\n", tenth * 10,
                    p->ndone, p->nruns, el, *left ? ", " : "", left);
        else
            fprintf(stderr, "mppnet: %d%%, %s elapsed%s%s\n", tenth * 10, el, *left ? ", " : "",
                    left);
        fflush(stderr);
        return;
    }
    enum { W = 30 };
    char bar[W + 1];
    int fill = (int)(f * W);
    for (int k = 0; k < W; k++)
        bar[k] = k < fill ? '#' : '.';
    bar[W] = '\0';
    fprintf(stderr, "\r[%s] %3d%%", bar, (int)(f * 100));
    if (p->nruns > 1)
        fprintf(stderr, "  %zu/%zu runs", p->ndone, p->nruns);
    fprintf(stderr, "  %s elapsed%s%s\033[K", el, *left ? ", " : "", left);
    fflush(stderr);
    p->shown = true;
}

/* The single-run progress of `sim` kept between calls in b. */
static progress bar_progress(const mpp_run_bar *b, double *f)
{
    return (progress){.on = b->on, .tty = b->tty, .nruns = 1, .frac = f, .nslots = 1,
                      .last = b->last, .start = b->start, .f0 = b->f0, .tenth = b->tenth,
                      .started = b->started, .shown = b->shown};
}

void mpp_run_bar_update(mpp_run_bar *b, double frac)
{
    double f = frac > 1 ? 1 : frac < 0 ? 0 : frac;
    progress p = bar_progress(b, &f);
    progress_draw(&p, false);
    b->last = p.last;
    b->start = p.start;
    b->f0 = p.f0;
    b->tenth = p.tenth;
    b->started = p.started;
    b->shown = p.shown;
}

void mpp_run_bar_clear(mpp_run_bar *b)
{
    double f = 0;
    progress p = bar_progress(b, &f);
    progress_clear(&p);
    b->shown = false;
}

static void bar_progress_cb(void *ud, uint64_t cycle, uint64_t total)
{
    mpp_run_bar_update(ud, total ? (double)cycle / (double)total : 0);
}

int mpp_run_sim_shown(mpp_sim *s, bool quiet, double *wall)
{
    mpp_err err = {0};
    mpp_run_bar bar = {.on = !quiet, .tty = isatty(STDERR_FILENO)};
    double t0 = mpp_host_seconds();
    int rc = mpp_sim_run(s, bar.on ? bar_progress_cb : NULL, &bar, &err);
    *wall += mpp_host_seconds() - t0;
    mpp_run_bar_clear(&bar);
    if (!rc)
        return 0;
    mpp_args_fail(&err);
    const char *rep = mpp_sim_report(s);
    if (rep && *rep)
        mpp_args_eprintf("%s%s", rep, rep[strlen(rep) - 1] == '\n' ? "" : "\n");
    return mpp_err_exit_status(err.code ? err.code : rc);
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

static void table_row(const table *t, size_t i, const mpp_output_run *r)
{
    for (size_t a = 0; a < t->naxes; a++) { /* a sweep value: user text, escaped */
        const char *v = mpp_experiment_value(t->e, i, a);
        mpp_args_put_escaped(v);
        printf("%*s  ", t->width[a] > (int)strlen(v) ? t->width[a] - (int)strlen(v) : 0, "");
    }
    printf("%*" PRIu64 "  ", t->seedw, mpp_experiment_config(t->e, i)->run.seed);
    if (r->status) {
        printf("%s\n", r->status == MPP_EDEADLOCK ? "FAILED: deadlock" : "FAILED");
        return;
    }
    const mpp_workload_ops *w = mpp_experiment_config(t->e, i)->workload.ops;
    for (uint32_t k = 0; t->w && k < t->w->nsummary; k++) {
        if (k)
            fputs("  ", stdout);
        mpp_run_print_value(&t->w->summary[k], w, &r->result);
    }
    putchar('\n');
}

/* ---- running the runs ---------------------------------------------------- */

typedef struct run_ctx {
    const mpp_experiment *e;
    size_t nruns;
    mpp_output_run *runs;   /* [nruns] */
    bool channels, matrix, messages; /* what to collect */
    bool quiet;
    bool verbose;           /* -v: a note as each run is handed out */
    progress prog;
    table tab;
    mpp_store st;
    int write_error;        /* a record or result file could not be written */
    double next_write;      /* host time before which the files are not rewritten */
    bool stale;             /* a finished run is not in the files yet (paced) */
    mpp_store_shard shard;  /* the runs of this command: {1, 1} every run */
    size_t nshard;          /* how many runs the shard has */
    const size_t *queue;    /* an MPI master's queue (mpi_next) */
    size_t nqueue, qnext;
    size_t done_before;     /* an MPI master: the runs done before it started */
#ifdef MPP_HAVE_MPI
    mpp_mpi *mpi;           /* an MPI worker rank: runs come from rank 0 */
    uint64_t sent;          /* results it returned (the test hook) */
    uint32_t lost;          /* runs it was handed and could not return */
#endif
} run_ctx;

/* Run run i of e and fill *out (done = true in every case); c says what to
 * collect besides the result. */
static void run_one(const run_ctx *c, size_t i, mpp_progress_fn fn, void *ud, mpp_output_run *out)
{
    const mpp_experiment *e = c->e;
    mpp_sim_config cfg = *mpp_experiment_config(e, i);
    cfg.run.record_channels = c->channels;
    cfg.run.record_matrix = c->matrix;
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
    double t0 = mpp_host_seconds();
    int rc = mpp_sim_run(s, fn, ud, &err);
    double wall = mpp_host_seconds() - t0;
    mpp_err cerr;
    mpp_err_clear(&cerr);
    if (mpp_output_run_collect(out, s, rc, rc ? err.msg : NULL, c->channels, c->matrix,
                               c->messages, &cerr)) {
        out->done = true;
        out->status = MPP_ENOMEM;
        out->report = strdup(cerr.msg);
    }
    if (out->result.wall_seconds <= 0)
        out->result.wall_seconds = wall;
    mpp_sim_destroy(s);
}

/* The result files from every finished run (invariant 2). */
static int write_files(run_ctx *c, bool durable, mpp_err *err)
{
    return mpp_output_write_all(c->st.dfd, c->st.dir, mpp_cli_version(), c->e, c->runs, c->nruns, durable,
                                err);
}

/* The result files are rewritten from every finished run, which costs in
 * proportion to the runs finished so far: rewritten after every run, a
 * sweep of thousands of short runs would spend most of its time there (and
 * hold up the workers, whose results wait in their pipes). So after a
 * rewrite that took w seconds the next waits at least max(WRITE_GAP_S,
 * WRITE_SHARE x w): at most 1 / (1 + WRITE_SHARE) of the parent's time goes
 * to rewriting. Every run's record is still written when it finishes; the
 * files are rewritten at the end (or on a signal) and rebuilt from the
 * records by --resume. */
enum { WRITE_SHARE = 19 };
#define WRITE_GAP_S 0.5

/* Rewrite the files if it is time (else they are left `stale`). */
static int write_files_paced(run_ctx *c, mpp_err *err)
{
    double t0 = mpp_host_seconds();
    c->stale = true;
    if (t0 < c->next_write)
        return 0;
    c->stale = false;
    int rc = write_files(c, false, err);
    double t1 = mpp_host_seconds();
    double gap = WRITE_SHARE * (t1 - t0);
    c->next_write = t1 + (gap > WRITE_GAP_S ? gap : WRITE_GAP_S);
    return rc;
}

/* The next row of the table can be printed: its run is done, or not one
 * of the shard's (skipped). */
static bool row_ready(const run_ctx *c)
{
    size_t i = c->tab.next;
    return i < c->nruns && (c->runs[i].done || !mpp_store_shard_has(c->shard, i));
}

/* Print the rows now in order (the shard's runs only). */
static void rows_print(run_ctx *c)
{
    for (; row_ready(c); c->tab.next++)
        if (c->runs[c->tab.next].done && mpp_store_shard_has(c->shard, c->tab.next))
            table_row(&c->tab, c->tab.next, &c->runs[c->tab.next]);
}

/* A run has finished: its record, the files (paced), a failure's report,
 * the rows now in order. */
static void run_finished(run_ctx *c, size_t i)
{
    c->prog.ndone++;
    const mpp_output_run *r = &c->runs[i];
    mpp_err err;
    if (!c->write_error && (mpp_store_put(&c->st, i, mpp_experiment_hash(c->e, i), r, &err) ||
                            write_files_paced(c, &err))) {
        progress_clear(&c->prog);
        mpp_args_fail(&err);
        c->write_error = 1;
        interrupted = -1; /* stop: what finishes now could not be kept */
    }
    if (r->status) {
        progress_clear(&c->prog);
        char d[256];
        mpp_run_describe(c->e, i, d, sizeof d);
        fflush(stdout);
        mpp_args_eprintf("mppnet: %s failed%s\n%s%s", d,
                r->status == MPP_EDEADLOCK ? " (deadlock)" : "", r->report ? r->report : "",
                r->report && *r->report && r->report[strlen(r->report) - 1] != '\n' ? "\n" : "");
    }
    if (row_ready(c)) {
        if (c->prog.rows_on_tty)
            progress_clear(&c->prog);
        rows_print(c);
        fflush(stdout);
    }
    progress_draw(&c->prog, true);
}

/* Worker -> parent frames: a header, then `len` bytes (a packed run). */
enum { MSG_PROGRESS = 1, MSG_RESULT = 2 };
typedef struct frame {
    uint32_t type;
    uint32_t pad;
    uint64_t run;
    uint64_t a, b;    /* PROGRESS: cycle, total */
    uint64_t len;     /* RESULT: bytes that follow */
} frame;

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

/* 1 when len bytes were read, 0 at a clean end of file, -1 otherwise. */
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
    double t = mpp_host_seconds();
    if (t - wp->last < 0.2)
        return;
    wp->last = t;
    frame h = {.type = MSG_PROGRESS, .run = wp->run, .a = cycle, .b = total};
    (void)write_full(wp->fd, &h, sizeof h);
}

/* The body of a worker (never returns): read a run index from cmd (its
 * command pipe from the parent), run that run, send its result through fd,
 * and read the next, until cmd ends (the parent has no run left for it). */
static void worker_main(run_ctx *c, int cmd, int fd)
{
    /* the parent decides: Ctrl-C and hang-ups go to it, SIGTERM kills */
    signal(SIGINT, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    signal(SIGTERM, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
#if defined(MPP_HAVE_MPI) && defined(__linux__)
    /* an MPI rank killed outright (mpirun ends the job) takes its worker
     * processes with it: no orphan runs on for minutes */
    if (c->mpi && (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() == 1))
        _exit(3);
#endif
    mpp_store_close(&c->st);
    mpp_sb msg;
    mpp_sb_init(&msg);
    int code = 0;
    for (;;) {
        uint64_t idx;
        int got = read_full(cmd, &idx, sizeof idx);
        if (got == 0)
            break; /* no run left */
        if (got != 1 || idx >= c->nruns) {
            code = 3;
            break;
        }
        size_t i = (size_t)idx;
        worker_prog wp = {.fd = fd, .run = i, .last = mpp_host_seconds()};
        mpp_output_run r;
        mpp_output_run_init(&r);
        run_one(c, i, c->prog.on ? worker_progress : NULL, &wp, &r);
        mpp_sb_reset(&msg);
        frame h = {.type = MSG_RESULT, .run = i};
        mpp_sb_addn(&msg, (const char *)&h, sizeof h);
        int prc = mpp_output_run_pack(&r, i, 0, &msg);
        mpp_output_run_free(&r);
        if (prc || !mpp_sb_ok(&msg)) {
            code = 3;
            break;
        }
        ((frame *)(void *)msg.s)->len = msg.len - sizeof h;
        if (write_full(fd, msg.s, msg.len)) {
            code = 3;
            break;
        }
    }
    mpp_sb_free(&msg);
    close(cmd);
    close(fd);
    _exit(code);
}

/* The packed run that follows frame h on fd, into *buf (malloc'd): 0, or
 * -1 (a run index out of range, a size above any record, a short read). */
static int read_packed(const run_ctx *c, int fd, const frame *h, char **buf)
{
    *buf = NULL;
    if (h->run >= c->nruns || h->len > MPP_STORE_MAX_RECORD)
        return -1;
    char *b = malloc(h->len ? (size_t)h->len : 1);
    if (!b || read_full(fd, b, (size_t)h->len) != 1) {
        free(b);
        return -1;
    }
    *buf = b;
    return 0;
}

/* Packed run `run` (len bytes, from a worker process or an MPI rank) into
 * c->runs[run]: 0, or an error (not a sound record, or one of another
 * run, or of a run finished already) and c->runs[run] unchanged when it
 * was done, else empty. */
static int take_packed(run_ctx *c, size_t run, const char *buf, size_t len, mpp_err *err)
{
    if (run >= c->nruns || c->runs[run].done)
        return mpp_err_set(err, MPP_EFORMAT, "run %zu is %s", run,
                           run >= c->nruns ? "not a run of the experiment" : "finished already");
    uint64_t got;
    int rc = mpp_output_run_unpack(buf, len, &got, NULL, &c->runs[run], err);
    if (!rc && got != run) {
        mpp_output_run_free(&c->runs[run]);
        rc = mpp_err_set(err, MPP_EFORMAT, "it holds run %" PRIu64 ", not run %zu", got, run);
    }
    return rc;
}

/* The workers and the queue they take their runs from. */
#define NO_RUN SIZE_MAX
typedef struct pool {
    size_t n;              /* workers started */
    pid_t *pid;            /* [n] */
    struct pollfd *pfd;    /* [n]: their result pipes (fd -1 once ended) */
    int *cmd;              /* [n]: their command pipes (-1 once closed) */
    size_t *cur;           /* [n]: the run each is on, or NO_RUN */
    const size_t *queue;   /* the runs in the order they are handed out */
    size_t nqueue;
    size_t next;           /* queue[next] is handed out next (no MPI rank) */
    size_t nworkers;       /* pfd[nworkers]: the parent's signal pipe (on_signal) */
} pool;

/* The next run for an idle worker: the queue's, or on an MPI worker rank
 * one that rank 0 hands out (checked: a run of the shard). */
static bool next_run(run_ctx *c, pool *p, size_t *run)
{
#ifdef MPP_HAVE_MPI
    if (c->mpi) {
        mpp_err err;
        if (!mpp_mpi_request(c->mpi, c->nruns, run, &err)) {
            if (err.code)
                mpp_args_fail(&err);
            return false;
        }
        if (!mpp_store_shard_has(c->shard, *run)) {
            mpp_args_eprintf("mppnet: rank %d: rank 0 handed out run %zu, not one of shard "
                             "%" PRIu64 "/%" PRIu64 "\n",
                             c->mpi->rank, *run, c->shard.i, c->shard.n);
            c->lost++;
            return false;
        }
        return true;
    }
#endif
    if (p->next < p->nqueue) {
        *run = p->queue[p->next];
        return true;
    }
    return false;
}

/* Idle worker w: hand it the next run (invariant 5), or, when none is left
 * or the run is stopping, close its command pipe (it exits). A worker that
 * is gone (the write fails) leaves the run queued (on an MPI rank, lost:
 * rank 0 hears of it in the rank's BYE). */
static void hand_out(run_ctx *c, pool *p, size_t w)
{
    if (p->cmd[w] < 0)
        return;
    size_t run;
    if (!interrupted && next_run(c, p, &run)) {
        uint64_t i = run;
        if (write_full(p->cmd[w], &i, sizeof i) == 0) {
            p->next++;
            p->cur[w] = (size_t)i;
            if (c->verbose) {
                char d[256];
                mpp_run_describe(c->e, (size_t)i, d, sizeof d);
                progress_clear(&c->prog);
                mpp_args_eprintf("mppnet: %s started on worker %zu\n", d, w);
            }
            return;
        }
#ifdef MPP_HAVE_MPI
        if (c->mpi)
            c->lost++;
#endif
    }
    close(p->cmd[w]);
    p->cmd[w] = -1;
}

/* Start worker w: its two pipes, fork, its first run. 0, or -1 with the
 * reason printed. */
static int pool_start(run_ctx *c, pool *p, size_t w)
{
    int res[2], cmd[2];
    if (pipe(res) != 0) {
        fprintf(stderr, "mppnet: pipe: %s\n", strerror(errno));
        return -1;
    }
    if (pipe(cmd) != 0) {
        fprintf(stderr, "mppnet: pipe: %s\n", strerror(errno));
        close(res[0]);
        close(res[1]);
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "mppnet: fork: %s\n", strerror(errno));
        close(res[0]);
        close(res[1]);
        close(cmd[0]);
        close(cmd[1]);
        return -1;
    }
    if (pid == 0) {
        /* only its own ends: a command pipe of another worker left open
         * here would never end for that worker */
        close(res[0]);
        close(cmd[1]);
        if (sig_wake >= 0) {
            close(p->pfd[p->nworkers].fd); /* the parent's signal pipe */
            close(sig_wake);
            sig_wake = -1;
        }
        for (size_t k = 0; k < w; k++) {
            if (p->pfd[k].fd >= 0)
                close(p->pfd[k].fd);
            if (p->cmd[k] >= 0)
                close(p->cmd[k]);
        }
        worker_main(c, cmd[0], res[1]);
    }
    close(res[1]);
    close(cmd[0]);
    p->pid[w] = pid;
    p->pfd[w].fd = res[0];
    p->pfd[w].events = POLLIN;
    p->cmd[w] = cmd[1];
    p->cur[w] = NO_RUN;
    p->n = w + 1;
    hand_out(c, p, w);
    return 0;
}

static void pool_free(pool *p)
{
    free(p->pid);
    free(p->pfd);
    free(p->cmd);
    free(p->cur);
}

/* Run the runs queue[0..nqueue) on nworkers worker processes, handed out
 * one at a time in queue order: a worker that returns a result gets the
 * next run at once (before the parent records the result), and exits when
 * none is left. A worker that could not be started leaves the runs to the
 * others. Returns 0 or 1 (no worker started, or a worker failed: its run
 * in progress is missing). */
static int run_workers(run_ctx *c, const size_t *queue, size_t nqueue, size_t nworkers)
{
    /* pfd[nworkers]: the signal pipe's read end (on_signal) */
    pool p = {.pid = calloc(nworkers, sizeof *p.pid),
              .pfd = calloc(nworkers + 1, sizeof *p.pfd),
              .cmd = calloc(nworkers, sizeof *p.cmd),
              .cur = calloc(nworkers, sizeof *p.cur),
              .queue = queue,
              .nqueue = nqueue,
              .nworkers = nworkers};
    int rc = 0;
    if (!p.pid || !p.pfd || !p.cmd || !p.cur) {
        fprintf(stderr, "mppnet: out of memory\n");
        pool_free(&p);
        return 1;
    }
    int sp[2];
    if (pipe(sp) != 0) {
        fprintf(stderr, "mppnet: pipe: %s\n", strerror(errno));
        pool_free(&p);
        return 1;
    }
    for (int k = 0; k < 2; k++)
        (void)fcntl(sp[k], F_SETFL, fcntl(sp[k], F_GETFL) | O_NONBLOCK);
    for (size_t w = 0; w <= nworkers; w++)
        p.pfd[w].fd = -1; /* (poll ignores them until a worker starts) */
    p.pfd[nworkers].fd = sp[0];
    p.pfd[nworkers].events = POLLIN;
    sig_wake = sp[1];
    fflush(stdout);
    fflush(stderr);
    for (size_t w = 0; w < nworkers; w++)
        if (pool_start(c, &p, w))
            break;
    if (!p.n) {
        sig_wake = -1;
        close(sp[0]);
        close(sp[1]);
        pool_free(&p);
        return 1;
    }
    if (p.n < nworkers && !c->quiet)
        fprintf(stderr, "mppnet: note: running on %zu worker%s instead of %zu\n", p.n,
                p.n == 1 ? "" : "s", nworkers);
    size_t open = p.n;
    bool killed = false;
    while (open) {
        if (interrupted && !killed) {
            for (size_t w = 0; w < p.n; w++) {
                if (p.pfd[w].fd >= 0)
                    kill(p.pid[w], SIGTERM);
                if (p.cmd[w] >= 0)
                    close(p.cmd[w]);
                p.cmd[w] = -1;
            }
            killed = true;
        }
        int n = poll(p.pfd, nworkers + 1, -1);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            fprintf(stderr, "mppnet: poll: %s\n", strerror(errno));
            rc = 1;
            break;
        }
        if (p.pfd[nworkers].revents) {
            char buf[64];
            while (read(sp[0], buf, sizeof buf) > 0)
                ; /* (drained: `interrupted` says what happened) */
        }
        for (size_t w = 0; w < p.n; w++) {
            if (p.pfd[w].fd < 0 || !p.pfd[w].revents)
                continue;
            frame h;
            int got = read_full(p.pfd[w].fd, &h, sizeof h);
            if (got == 1 && h.type == MSG_PROGRESS) {
                if (c->prog.on && w < c->prog.nslots) {
                    double f = h.b ? (double)h.a / (double)h.b : 0;
                    c->prog.frac[w] = f > 1 ? 1 : f;
                    progress_draw(&c->prog, false);
                }
                continue;
            }
            char *buf = NULL;
            mpp_err err;
            if (got == 1 && h.type == MSG_RESULT && h.run == p.cur[w] &&
                read_packed(c, p.pfd[w].fd, &h, &buf) == 0) {
#ifdef MPP_HAVE_MPI
                if (c->mpi) { /* to rank 0, which records it */
                    int src = mpp_mpi_send_result(c->mpi, (size_t)h.run, buf, (size_t)h.len,
                                                  &err);
                    free(buf);
                    if (src) {
                        mpp_args_fail(&err);
                        c->lost++;
                    }
                    p.cur[w] = NO_RUN;
                    mpp_mpi_test_die(c->mpi, ++c->sent);
                    hand_out(c, &p, w);
                    continue;
                }
#endif
                int trc = take_packed(c, (size_t)h.run, buf, (size_t)h.len, &err);
                free(buf);
                if (trc == 0) {
                    if (w < c->prog.nslots)
                        c->prog.frac[w] = 0;
                    p.cur[w] = NO_RUN;
                    hand_out(c, &p, w);
                    run_finished(c, (size_t)h.run);
                    continue;
                }
            }
            if (got != 0 && !killed) {
                progress_clear(&c->prog);
                fprintf(stderr, "mppnet: lost the results of worker %zu\n", w);
                rc = 1;
            }
            close(p.pfd[w].fd);
            p.pfd[w].fd = -1;
            if (p.cmd[w] >= 0)
                close(p.cmd[w]);
            p.cmd[w] = -1;
            open--;
        }
    }
    sig_wake = -1;
    close(sp[0]);
    close(sp[1]);
    for (size_t w = 0; w < p.n; w++) {
        if (p.pfd[w].fd >= 0)
            close(p.pfd[w].fd);
        if (p.cmd[w] >= 0)
            close(p.cmd[w]);
        int st = 0;
        while (waitpid(p.pid[w], &st, 0) < 0 && errno == EINTR)
            ;
        bool ours = killed && WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM;
        bool failed = WIFSIGNALED(st) || (WIFEXITED(st) && WEXITSTATUS(st) != 0);
        if (!ours && (failed || (p.cur[w] != NO_RUN && !killed))) {
            progress_clear(&c->prog);
            char d[256] = "";
            if (p.cur[w] != NO_RUN)
                mpp_run_describe(c->e, p.cur[w], d, sizeof d);
            const char *in = *d ? " in " : "";
            if (WIFSIGNALED(st))
                mpp_args_eprintf("mppnet: worker %zu died of signal %d%s%s\n", w,
                                 WTERMSIG(st), in, d);
            else if (failed)
                mpp_args_eprintf("mppnet: worker %zu failed (exit %d)%s%s\n", w,
                                 WEXITSTATUS(st), in, d);
            else
                mpp_args_eprintf("mppnet: worker %zu ended%s%s\n", w, in, d);
            rc = 1;
        }
    }
    pool_free(&p);
    return rc;
}

/* ---- the queue's order --------------------------------------------------- */

/* With several workers the runs are handed out longest first: a long run
 * handed out last would keep one worker busy while the others idle, short
 * runs at the end fill the gaps. How long a run takes is estimated by
 * mpp_cost_run (core/cli/cost.c). */

typedef struct queued {
    double cost;
    size_t run;
} queued;

static int cmp_queued(const void *a, const void *b)
{
    const queued *x = a, *y = b;
    if (x->cost != y->cost)
        return x->cost > y->cost ? -1 : 1;
    return x->run < y->run ? -1 : x->run > y->run;
}

/* Put the runs todo[0..n) in queue order: by run_cost, largest first, ties
 * in run order. Out of memory: left in run order. */
static void queue_order(const run_ctx *c, size_t *todo, size_t n)
{
    queued *q = malloc((n ? n : 1) * sizeof *q);
    mpp_cost_cache *te = mpp_cost_new();
    if (q && te) {
        for (size_t k = 0; k < n; k++) {
            q[k].run = todo[k];
            q[k].cost = mpp_cost_run(mpp_experiment_config(c->e, todo[k]), te);
        }
        qsort(q, n, sizeof *q, cmp_queued);
        for (size_t k = 0; k < n; k++)
            todo[k] = q[k].run;
    }
    mpp_cost_free(te);
    free(q);
}

/* ---- plot ---------------------------------------------------------------- */

/* The picture of the experiment (mpp_plot_auto: latency.png of a rate
 * sweep, else plot.png along another axis), when gnuplot is installed. */
static void make_plot(const run_ctx *c)
{
    if (!mpp_output_on_path("gnuplot"))
        return;
    mpp_sb sb;
    mpp_sb_init(&sb);
    mpp_err err;
    mpp_err_clear(&err);
    const char *stem = NULL;
    char gp[32], png[32];
    int rc = mpp_plot_auto(c->e, c->runs, c->nruns, &sb, &stem, &err);
    if (!rc && stem) {
        snprintf(gp, sizeof gp, "%s.gp", stem);
        snprintf(png, sizeof png, "%s.png", stem);
        rc = mpp_file_write_atomic_at(c->st.dfd, c->st.dir, gp, sb.s, sb.len, true, &err);
        if (!rc)
            rc = mpp_output_gnuplot_at(c->st.dfd, c->st.dir, gp, png, true, &err);
    }
    mpp_sb_free(&sb);
    if (rc && !c->quiet)
        mpp_args_eprintf("mppnet: note: no plot: %s\n", err.msg);
}

/* ---- the command ----------------------------------------------------------- */

typedef struct run_opts {
    const char *outdir, *resume;
    uint64_t jobs;
    bool dump, quiet, verbose;
    double max_work;     /* --max-work: flit-router crossings (mpp_cost_run) */
    mpp_store_shard shard; /* --shard I/N; {0, 0} when not given */
} run_opts;

enum { OPT_DUMP = 1000, OPT_RESUME, OPT_MAX_WORK, OPT_SHARD };

#define MAX_SHARDS 1000000

/* --shard I/N: two whole numbers, 1 <= I <= N <= MAX_SHARDS. */
static int parse_shard(const char *arg, mpp_store_shard *sh)
{
    const char *slash = strchr(arg, '/');
    uint64_t i, n;
    if (!slash || !mpp_units_u64(arg, (size_t)(slash - arg), &i) ||
        !mpp_units_u64(slash + 1, strlen(slash + 1), &n) || n < 1 || n > MAX_SHARDS || i < 1 ||
        i > n)
        return mpp_args_usage("run",
                              "--shard needs I/N, two whole numbers with 1 <= I <= N <= %d "
                              "(shard I of N runs the runs whose index is I-1 modulo N), not "
                              "'%.80s'",
                              MAX_SHARDS, arg);
    *sh = (mpp_store_shard){i, n};
    return 0;
}

static int run_opt(void *ud, int code, const char *arg)
{
    run_opts *o = ud;
    switch (code) {
    case 'o':
        if (!*arg)
            return mpp_args_usage("run", "option -o needs a folder");
        o->outdir = arg;
        return 0;
    case 'j':
        return mpp_args_u64("run", "-j", arg, 1, MAX_JOBS, false, &o->jobs);
    case 'q':
        o->quiet = true;
        return 0;
    case 'v':
        o->verbose = true;
        return 0;
    case OPT_DUMP:
        o->dump = true;
        return 0;
    case OPT_RESUME:
        if (!*arg)
            return mpp_args_usage("run", "option --resume needs a folder");
        o->resume = arg;
        return 0;
    case OPT_SHARD:
        return parse_shard(arg, &o->shard);
    case OPT_MAX_WORK:
        if (mpp_args_double("run", "--max-work", arg, &o->max_work))
            return 2;
        if (!(o->max_work > 0))
            return mpp_args_usage("run", "--max-work must be a number > 0, not '%s'", arg);
        return 0;
    }
    return 2;
}

static const struct option run_options[] = {
    {"output", required_argument, NULL, 'o'},
    {"jobs", required_argument, NULL, 'j'},
    {"quiet", no_argument, NULL, 'q'},
    {"verbose", no_argument, NULL, 'v'},
    {"dump-config", no_argument, NULL, OPT_DUMP},
    {"resume", required_argument, NULL, OPT_RESUME},
    {"max-work", required_argument, NULL, OPT_MAX_WORK},
    {"shard", required_argument, NULL, OPT_SHARD},
    {NULL, 0, NULL, 0},
};

/* Refuse, before any run starts, an experiment with a run estimated above
 * max_work (mpp_cost_run): the run, its estimate and the option to raise.
 * 0, or the exit status 2. */
static int work_check(const mpp_experiment *e, const char *origin, double max_work)
{
    mpp_cost_cache *cc = mpp_cost_new();
    if (!cc) {
        fprintf(stderr, "mppnet: out of memory\n");
        return 2;
    }
    int status = 0;
    if (!origin)
        origin = "run";
    for (size_t i = 0, n = mpp_experiment_runs(e); i < n && !status; i++) {
        double w = mpp_cost_run(mpp_experiment_config(e, i), cc);
        if (!(w > max_work))
            continue;
        char d[256];
        mpp_run_describe(e, i, d, sizeof d);
        mpp_args_eprintf(
                "mppnet: %s: %s: estimated work %.3g flit-router crossings (about %.3g hours "
                "of one core at %.0e a second), above --max-work %.3g; give --max-work "
                "%.2g to run it (mppnet check %s prints every run's estimate)\n",
                origin, d, w, w / MPP_COST_PER_S / 3600, MPP_COST_PER_S, max_work, w * 1.01,
                origin);
        status = 2;
    }
    mpp_cost_free(cc);
    return status;
}

/* The experiment of the command line: the file (read whole, kept for the
 * folder's copy) or, with --resume and no file, the folder's copy. */
typedef struct loaded {
    char *text;          /* the file's text (owned), or NULL */
    size_t len;
    const char *path;
    mpp_store_saved copy;          /* --resume without a file */
    char **ov;           /* every override (copy's, then the command line's) */
    size_t nov;
} loaded;

static void loaded_free(loaded *l)
{
    free(l->text);
    mpp_store_saved_free(&l->copy);
    free(l->ov);
}

#ifndef MPP_HAVE_MPI
typedef struct mpp_mpi mpp_mpi; /* (no MPI: never defined, always NULL) */
#endif
static int run_master(run_ctx *c, mpp_mpi *m, const loaded *l, size_t *todo, size_t ntodo,
                      uint64_t jobs);

/* `mppnet run` on one process (mpi NULL) or as rank 0 of an MPI job. */
static int run_main(int argc, char **argv, mpp_mpi *mpi)
{
    run_opts o = {.jobs = 1, .max_work = MPP_COST_MAX_DEFAULT};
    mpp_args rest;
    bool done;
    int status = mpp_args_parse("run", argc, argv, run_options, help_run, run_opt, &o, &rest,
                                &done);
    if (status || done) {
        mpp_args_free(&rest);
        return status;
    }
    loaded l;
    memset(&l, 0, sizeof l);
    mpp_experiment *e = NULL;
    mpp_err err;
    mpp_err_clear(&err);
    run_ctx c;
    memset(&c, 0, sizeof c);
    c.st.lock = c.st.sfd = c.st.dfd = -1;
    size_t nruns = 0;
    size_t *todo = NULL;

    /* the file and the overrides */
    l.ov = calloc(rest.n + 1, sizeof *l.ov);
    if (!l.ov) {
        status = mpp_args_usage("run", "out of memory");
        goto out;
    }
    for (size_t i = 0; i < rest.n; i++) {
        const char *a = rest.v[i];
        if (!l.path && !mpp_args_is_override(a))
            l.path = a;
        else if (mpp_args_is_override(a))
            l.ov[l.nov++] = rest.v[i];
        else {
            status = mpp_args_usage("run", "malformed override '%.80s' (expected key.path=value)",
                                    a);
            goto out;
        }
    }
    if (o.resume && o.outdir) {
        status = mpp_args_usage("run", "--resume writes to its own folder: no -o with it");
        goto out;
    }
    if (o.resume && o.shard.n) {
        status = mpp_args_usage("run", "--resume completes the shard its folder holds: no "
                                       "--shard with it");
        goto out;
    }
    if (!l.path && !o.resume) {
        status = mpp_args_usage("run", "missing the experiment file (mppnet run EXP.yaml)");
        goto out;
    }
    if (o.resume) {
        /* the folder must exist and be ours before anything else */
        struct stat sb;
        if (stat(o.resume, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
            mpp_args_eprintf("mppnet: run --resume: %s is not a folder of an earlier run\n",
                             o.resume);
            status = 2;
            goto out;
        }
        if ((status = mpp_store_open(&c.st, o.resume, false, true, &err))) {
            status = mpp_args_fail(&err);
            goto out;
        }
    }
    if (l.path) {
        if (mpp_file_read(l.path, MPP_CFGTREE_MAX_BYTES, &l.text, &l.len, &err)) {
            status = mpp_args_fail(&err);
            goto out;
        }
        if (mpp_booksim_detect(l.text, l.len)) {
            /* a BookSim configuration: `mppnet booksim FILE` (no folder) */
            if (o.outdir || o.resume || o.jobs != 1 || o.verbose ||
                o.max_work != MPP_COST_MAX_DEFAULT) {
                status = mpp_args_usage("run", "%s is a BookSim configuration: run it with "
                                               "-q or --dump-config only (mppnet booksim)",
                                        l.path);
                goto out;
            }
            status = mpp_booksim_run_text(l.path, l.text, l.len, l.nov,
                                          (const char *const *)l.ov, o.quiet, o.dump);
            goto out;
        }
        e = mpp_experiment_load_text(l.text, l.len, l.path, NULL, l.nov,
                                     (const char *const *)l.ov, &err);
    } else {
        if (mpp_store_load_experiment(&c.st, &l.copy, &err)) {
            status = mpp_args_fail(&err);
            goto out;
        }
        /* the copy's overrides first, then the command line's */
        char **all = calloc(l.copy.nov + l.nov + 1, sizeof *all);
        if (!all) {
            status = mpp_args_usage("run", "out of memory");
            goto out;
        }
        memcpy(all, l.copy.ov, l.copy.nov * sizeof *all);
        memcpy(all + l.copy.nov, l.ov, l.nov * sizeof *all);
        free(l.ov);
        l.ov = all;
        l.nov += l.copy.nov;
        l.path = l.copy.path;
        /* the copy's overrides are the folder's, not the user's: checked
         * as values of a file, DIR/.mppnet/experiment */
        char origin[4400];
        snprintf(origin, sizeof origin, "%s/experiment", c.st.sub);
        mpp_override_file from = {origin, l.copy.nov, l.copy.ovline};
        e = mpp_experiment_load_text(l.copy.text, l.copy.text_len, l.copy.path, &from, l.nov,
                                     (const char *const *)l.ov, &err);
    }
    if (!e) {
        status = mpp_args_fail(&err);
        goto out;
    }
    nruns = mpp_experiment_runs(e);
    c.shard = o.resume ? l.copy.shard : o.shard.n ? o.shard : (mpp_store_shard){1, 1};
    if (o.resume && l.text) {
        /* a file given to --resume: the folder's shard all the same */
        mpp_store_saved sv;
        if (mpp_store_load_experiment(&c.st, &sv, &err) == 0) {
            c.shard = sv.shard;
            mpp_store_saved_free(&sv);
        }
    }
    for (size_t i = 0; i < nruns; i++)
        c.nshard += mpp_store_shard_has(c.shard, i);

    if (o.dump) {
        mpp_sb sb;
        mpp_sb_init(&sb);
        for (size_t i = 0; i < nruns; i++) {
            if (!mpp_store_shard_has(c.shard, i))
                continue;
            char d[256];
            mpp_run_describe(e, i, d, sizeof d);
            mpp_sb_reset(&sb);
            mpp_experiment_config_yaml(e, i, &sb);
            printf("--- # %s, config_hash %016" PRIx64 "\n%s", d, mpp_experiment_hash(e, i), sb.s);
            if (sb.len && sb.s[sb.len - 1] != '\n')
                putchar('\n');
        }
        mpp_sb_free(&sb);
        status = fflush(stdout) == 0 ? 0 : 2;
        goto out;
    }
    if (mpp_run_validate(e, l.path, &err)) {
        status = mpp_args_fail(&err);
        goto out;
    }
    if ((status = work_check(e, l.path, o.max_work)))
        goto out;

    const mpp_output_config *oc = mpp_experiment_output(e);
    c.e = e;
    c.nruns = nruns;
    c.channels = oc->per_channel;
    c.matrix = oc->traffic_matrix;
    c.messages = oc->per_message;
    c.quiet = o.quiet;
    c.verbose = o.verbose;
    c.runs = calloc(nruns ? nruns : 1, sizeof *c.runs);
    todo = calloc(nruns ? nruns : 1, sizeof *todo);
    if (!c.runs || !todo || table_init(&c.tab, e)) {
        fprintf(stderr, "mppnet: out of memory\n");
        status = 2;
        goto out;
    }

    /* the folder (invariant 2): locked, then cleaned or read */
    size_t found = 0;
    if (o.resume) {
        if (mpp_store_get(&c.st, e, c.runs, nruns, false, &found, &err)) {
            status = mpp_args_fail(&err);
            goto out;
        }
    } else {
        /* a folder of the command line may be anywhere; one of the file is
         * confined to the working folder; a shard's is DIR-shard-I-of-N */
        char sdir[4200];
        const char *dir = o.outdir ? o.outdir : oc->dir;
        if (!o.outdir && c.shard.n > 1) {
            snprintf(sdir, sizeof sdir, "%s-shard-%" PRIu64 "-of-%" PRIu64, oc->dir, c.shard.i,
                     c.shard.n);
            dir = sdir;
        }
        if (mpp_store_open(&c.st, dir, !o.outdir && !oc->dir_free, false, &err) ||
            mpp_store_clean(&c.st, &err) ||
            mpp_store_save_experiment(&c.st, l.path, l.text, l.len, l.nov, l.ov, c.shard,
                                      &err)) {
            status = mpp_args_fail(&err);
            goto out;
        }
    }
    /* the files as they stand, before any run: a folder that cannot hold
     * them fails now */
    if (write_files(&c, true, &err)) {
        status = mpp_args_fail(&err);
        goto out;
    }

    size_t ntodo = 0;
    for (size_t i = 0; i < nruns; i++)
        if (!c.runs[i].done && mpp_store_shard_has(c.shard, i))
            todo[ntodo++] = i;
    size_t nworkers = o.jobs < ntodo ? (size_t)o.jobs : (ntodo ? ntodo : 1);
    if (nworkers > 1 || mpi)
        queue_order(&c, todo, ntodo); /* one worker: run order */
    c.prog.on = !o.quiet;
    c.prog.tty = isatty(STDERR_FILENO);
    c.prog.rows_on_tty = isatty(STDOUT_FILENO);
    c.prog.nruns = c.nshard;
    c.prog.ndone = 0;
    for (size_t i = 0; i < nruns; i++)
        c.prog.ndone += c.runs[i].done && mpp_store_shard_has(c.shard, i);
    c.prog.nslots = nworkers;
    c.prog.frac = calloc(nworkers, sizeof *c.prog.frac);
    if (!c.prog.frac) {
        fprintf(stderr, "mppnet: out of memory\n");
        status = 2;
        goto out;
    }
    if (o.resume) {
        /* how an MPI job into this folder ended, kept for this moment */
        char *note = NULL;
        if (mpp_store_note_take(&c.st, &note, &err) == 0 && note && !o.quiet) {
            mpp_args_eprintf("mppnet: %s was stopped before; it reported then:\n", c.st.dir);
            mpp_args_eprintf("%s", note);
        }
        free(note);
    }
    if (o.resume && !o.quiet)
        mpp_args_eprintf("mppnet: resuming %s: %zu of %zu runs already done\n", c.st.dir,
                         c.prog.ndone, c.nshard);
    (void)found;

    struct sigaction sa, old_int, old_term, old_hup, old_pipe;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, &old_term);
    sigaction(SIGHUP, &sa, &old_hup);
    sa.sa_flags = SA_RESETHAND; /* a second Ctrl-C kills at once: the records are safe */
    sigaction(SIGINT, &sa, &old_int);
    sa.sa_handler = SIG_IGN;
    sa.sa_flags = 0;
    sigaction(SIGPIPE, &sa, &old_pipe); /* a closed stdout loses the table only */

    table_header(&c.tab);
    rows_print(&c);
    progress_draw(&c.prog, true);
    int prc = mpi ? run_master(&c, mpi, &l, todo, ntodo, o.jobs)
                  : ntodo ? run_workers(&c, todo, ntodo, nworkers) : 0;
    progress_clear(&c.prog);
    for (; c.tab.next < nruns; c.tab.next++)
        if (c.runs[c.tab.next].done && mpp_store_shard_has(c.shard, c.tab.next))
            table_row(&c.tab, c.tab.next, &c.runs[c.tab.next]);
    fflush(stdout);

    size_t ndone = 0, nok = 0, nmissing = 0;
    for (size_t i = 0; i < nruns; i++) {
        if (!mpp_store_shard_has(c.shard, i))
            continue;
        if (!c.runs[i].done) {
            nmissing++;
            continue;
        }
        ndone++;
        if (c.runs[i].status == 0)
            nok++;
        int s = mpp_err_exit_status(c.runs[i].status);
        if (s > status)
            status = s;
    }
    if (prc && status < 1)
        status = 1;
    if (mpi && nmissing && !interrupted) { /* a rank lost them (printed) */
        mpp_args_eprintf("mppnet: %zu of %zu runs were not run; `mppnet run --resume %s` runs "
                         "them\n",
                         nmissing, c.nshard, c.st.dir);
        if (status < 1)
            status = 1;
    }
    /* (after a signal not fsync'd: the records are, and mpirun's SIGKILL
     * follows its SIGTERM within a second) */
    if (c.write_error || write_files(&c, !interrupted, &err)) {
        if (!c.write_error)
            mpp_args_fail(&err);
        if (status < 2)
            status = 2;
    } else {
        if (oc->plot)
            make_plot(&c);
        if (!o.quiet)
            mpp_args_eprintf("mppnet: wrote %zu of %zu runs to %s/\n", nok, c.nshard, c.st.dir);
    }
    if (interrupted > 0) {
        mpp_args_eprintf("mppnet: interrupted (signal %d) after %zu of %zu runs; `mppnet run "
                         "--resume %s` completes it\n",
                (int)interrupted, ndone, c.nshard, c.st.dir);
        status = 128 + (int)interrupted;
    }
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGHUP, &old_hup, NULL);
    sigaction(SIGPIPE, &old_pipe, NULL);
out:
    mpp_store_close(&c.st);
    if (c.runs)
        for (size_t i = 0; i < nruns; i++)
            mpp_output_run_free(&c.runs[i]);
    free(c.runs);
    free(todo);
    free(c.prog.frac);
    table_free(&c.tab);
    mpp_experiment_destroy(e);
    loaded_free(&l);
    mpp_args_free(&rest);
    return status;
}

/* ---- over MPI ranks (core/cli/mpi_sweep.c) ------------------------------ */

#ifdef MPP_HAVE_MPI

/* What rank 0 sends every other rank before the copy of the experiment. */
#define SETUP_MAGIC 0x6d707053u /* "mppS" */
typedef struct setup_hdr {
    uint32_t magic;
    uint32_t jobs;      /* -j: worker processes per rank */
    uint64_t nruns;     /* the runs the experiment expands to */
    uint64_t hash;      /* runs_hash of those runs */
    uint64_t copy_len;  /* bytes of the copy that follow */
} setup_hdr;

/* One hash of every run's config hash, in run order (FNV-1a over them):
 * a worker whose expansion differs from rank 0's refuses to run. */
static uint64_t runs_hash(const mpp_experiment *e)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0, n = mpp_experiment_runs(e); i < n; i++) {
        uint64_t x = mpp_experiment_hash(e, i);
        for (int k = 0; k < 8; k++) {
            h ^= (x >> (8 * k)) & 0xff;
            h *= 1099511628211ull;
        }
    }
    return h;
}

static bool mpi_next(void *ud, size_t *run)
{
    run_ctx *c = ud;
    if (interrupted || c->qnext >= c->nqueue)
        return false;
    *run = c->queue[c->qnext++];
    return true;
}

static int mpi_result(void *ud, size_t run, int rank, const char *buf, size_t len, mpp_err *err)
{
    run_ctx *c = ud;
    (void)rank;
    if (take_packed(c, run, buf, len, err))
        return err->code;
    run_finished(c, run); /* its record, now (mpi_sweep.c, invariant 3) */
    return 0;
}

static void mpi_started(void *ud, size_t run, int rank, const char *host)
{
    run_ctx *c = ud;
    if (!c->verbose)
        return;
    char d[256];
    mpp_run_describe(c->e, run, d, sizeof d);
    progress_clear(&c->prog);
    mpp_args_eprintf("mppnet: %s started on rank %d (host %s)\n", d, rank, host);
}

static void mpi_clear(void *ud)
{
    progress_clear(&((run_ctx *)ud)->prog);
}

/* The master was stopped by a signal (mpirun ending the job: SIGKILL
 * follows in a second): the report of the lost runs and ranks, and how
 * many runs are kept, into DIR/.mppnet/stopped (--resume prints it) and
 * on stderr, before the files are brought up to date. */
static void mpi_stopped(void *ud, const char *report, size_t nrecorded, bool final,
                        bool print)
{
    const run_ctx *c = ud; /* (maybe on the watch thread: constants only) */
    size_t ndone = c->done_before + nrecorded;
    mpp_sb sb;
    mpp_sb_init(&sb);
    char why[64] = "";
    if (final && interrupted > 0)
        snprintf(why, sizeof why, " by signal %d", (int)interrupted);
    if (final)
        mpp_sb_printf(&sb, "%smppnet: stopped%s: %zu of %zu runs are recorded in %s; ", report,
                      why, ndone, c->nshard, c->st.dir);
    else
        mpp_sb_printf(&sb, "%smppnet: mpirun is ending the job (its SIGCONT): %zu of %zu runs "
                           "recorded in %s so far; ",
                      report, ndone, c->nshard, c->st.dir);
    mpp_sb_printf(&sb, "`mppnet run --resume %s` (under mpirun or not) completes the sweep\n",
                  c->st.dir);
    if (mpp_sb_ok(&sb)) {
        mpp_err err;
        (void)mpp_store_note_put(&c->st, sb.s, &err); /* (best effort: printed too) */
        if (print)
            mpp_args_eprintf("%s", sb.s);
    }
    mpp_sb_free(&sb);
}

/* The master stopped while its main thread is stuck in MPI: the files
 * from every finished run, not fsync'd (the records are). */
static void mpi_flush(void *ud)
{
    run_ctx *c = ud;
    mpp_err err;
    if (!c->write_error && write_files(c, false, &err) == 0)
        c->stale = false;
}

/* The line is quiet: bring the files up to date when their pace allows
 * (a job that mpirun ends finds them current, not only the records). */
static void mpi_idle(void *ud)
{
    run_ctx *c = ud;
    mpp_err err;
    if (c->stale && !c->write_error && write_files_paced(c, &err)) {
        progress_clear(&c->prog);
        mpp_args_fail(&err);
        c->write_error = 1;
        interrupted = -1;
    }
}

/* Rank 0: send the setup, then hand out todo[0..ntodo) (in queue order)
 * and record the results as they come (mpp_mpi_master). 0, or 1 when a
 * run was lost. */
static int run_master(run_ctx *c, mpp_mpi *m, const loaded *l, size_t *todo, size_t ntodo,
                      uint64_t jobs)
{
    mpp_sb sb;
    mpp_sb_init(&sb);
    setup_hdr h = {.magic = SETUP_MAGIC, .jobs = (uint32_t)jobs, .nruns = c->nruns,
                   .hash = runs_hash(c->e)};
    mpp_sb_addn(&sb, (const char *)&h, sizeof h);
    const char *text = l->text ? l->text : l->copy.text;
    size_t len = l->text ? l->len : l->copy.text_len;
    if (mpp_store_pack_experiment(&sb, l->path, text, len, l->nov, l->ov, c->shard) ||
        !mpp_sb_ok(&sb)) {
        mpp_sb_free(&sb);
        mpp_args_eprintf("mppnet: out of memory\n");
        return 1;
    }
    ((setup_hdr *)(void *)sb.s)->copy_len = sb.len - sizeof h;
    int rc = mpp_mpi_send_setup(m, sb.s, sb.len);
    mpp_sb_free(&sb);
    if (rc) {
        mpp_args_eprintf("mppnet: cannot send the experiment to the other ranks\n");
        return 1;
    }
    c->queue = todo;
    c->nqueue = ntodo;
    c->qnext = 0;
    c->done_before = 0;
    for (size_t i = 0; i < c->nruns; i++)
        c->done_before += c->runs[i].done && mpp_store_shard_has(c->shard, i);
    static const mpp_mpi_master_ops ops = {
        .next = mpi_next, .result = mpi_result, .started = mpi_started, .clear = mpi_clear,
        .idle = mpi_idle, .stopped = mpi_stopped, .flush = mpi_flush};
    int mrc = mpp_mpi_master(m, &ops, c, c->nruns, &interrupted);
    if (!interrupted) { /* a notice (SIGCONT) the job outlived: not a report */
        char *note = NULL;
        mpp_err err;
        if (mpp_store_note_take(&c->st, &note, &err) == 0)
            free(note);
    }
    return mrc;
}

#define MAX_SETUP (sizeof(setup_hdr) + 2 * (size_t)MPP_CFGTREE_MAX_BYTES + (4u << 20))

/* A worker rank: the experiment from rank 0, checked; HELLO; its runs on
 * its own -j worker processes (run_workers with next_run asking rank 0);
 * BYE. The exit status is 0 even when it lost a run or could not take
 * part (printed; rank 0 names the runs lost and exits 1): Open MPI's
 * mpirun ends the whole job when a rank exits with another status. */
static int mpi_worker(mpp_mpi *m)
{
    char *buf = NULL;
    size_t len = 0;
    mpp_err err;
    mpp_err_clear(&err);
    mpp_store_saved sv;
    memset(&sv, 0, sizeof sv);
    mpp_experiment *e = NULL;
    run_ctx c;
    memset(&c, 0, sizeof c);
    c.st.lock = c.st.sfd = c.st.dfd = -1;
    int status = 0;
    if (mpp_mpi_recv_setup(m, MAX_SETUP, &buf, &len, &err)) {
        mpp_args_fail(&err);
        status = 1;
        goto bye;
    }
    if (!len)
        goto out; /* rank 0 stopped before any run: nothing to say */
    setup_hdr h;
    if (len < sizeof h) {
        mpp_err_set(&err, MPP_EFORMAT, "rank %d: a setup of %zu bytes from rank 0", m->rank, len);
        goto fail;
    }
    memcpy(&h, buf, sizeof h);
    if (h.magic != SETUP_MAGIC || h.jobs < 1 || h.jobs > MAX_JOBS ||
        h.copy_len != len - sizeof h) {
        mpp_err_set(&err, MPP_EFORMAT, "rank %d: the setup from rank 0 is not one of this mppnet",
                    m->rank);
        goto fail;
    }
    if (mpp_store_parse_experiment(buf + sizeof h, len - sizeof h, "the setup from rank 0", &sv,
                                   &err))
        goto fail;
    e = mpp_experiment_load_text(sv.text, sv.text_len, sv.path, NULL, sv.nov,
                                 (const char *const *)sv.ov, &err);
    if (!e)
        goto fail;
    if (mpp_experiment_runs(e) != h.nruns || runs_hash(e) != h.hash) {
        mpp_err_set(&err, MPP_EINVAL,
                    "rank %d: the experiment expands here to %zu runs (or other configurations) "
                    "where rank 0 has %" PRIu64 ": a file the experiment reads differs between "
                    "the hosts?",
                    m->rank, mpp_experiment_runs(e), h.nruns);
        goto fail;
    }
    const mpp_output_config *oc = mpp_experiment_output(e);
    c.e = e;
    c.nruns = h.nruns;
    c.channels = oc->per_channel;
    c.matrix = oc->traffic_matrix;
    c.messages = oc->per_message;
    c.quiet = true;      /* rank 0 reports */
    c.shard = sv.shard;
    c.mpi = m;
    if (mpp_mpi_hello(m, h.jobs)) {
        status = 1;
        goto out;
    }
    (void)run_workers(&c, NULL, 0, h.jobs); /* (its losses: rank 0 names them) */
    mpp_mpi_bye(m, c.lost);
    goto out;
fail:
    mpp_args_fail(&err);
bye:
    /* rank 0 counts on every rank's HELLO and BYE */
    if (!mpp_mpi_hello(m, 1))
        mpp_mpi_bye(m, 0);
out:
    free(buf);
    mpp_store_saved_free(&sv);
    mpp_experiment_destroy(e);
    return status;
}

int mpp_cmd_run(int argc, char **argv)
{
    mpp_mpi m;
    mpp_err err;
    mpp_err_clear(&err);
    if (mpp_mpi_start(&m, &err)) {
        int s = mpp_args_fail(&err);
        mpp_mpi_end(&m);
        return s;
    }
    if (m.on && m.rank > 0) {
        int s = mpi_worker(&m);
        mpp_mpi_end(&m);
        return s;
    }
    bool master = m.on && m.size > 1;
    int s = run_main(argc, argv, master ? &m : NULL);
    if (master) {
        mpp_mpi_send_setup(&m, NULL, 0); /* (when it stopped before any run) */
        if (interrupted)
            mpp_mpi_abort(&m, s); /* the workers would wait for it forever */
    }
    mpp_mpi_end(&m);
    return s;
}

#else

static int run_master(run_ctx *c, mpp_mpi *m, const loaded *l, size_t *todo, size_t ntodo,
                      uint64_t jobs)
{
    (void)c, (void)m, (void)l, (void)todo, (void)ntodo, (void)jobs;
    return 1; /* (never called: mpi is always NULL) */
}

int mpp_cmd_run(int argc, char **argv)
{
    return run_main(argc, argv, NULL);
}

#endif
