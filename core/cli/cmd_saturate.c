/* core/cli/cmd_saturate.c — `mppnet saturate EXP.yaml`: the saturation rate
 * and the knee of an open-loop experiment, found by bisecting its offered
 * rate (the workload's `rate` key) for every sweep point and every seed
 * (see cmd_saturate.h and docs/cli.md, "mppnet saturate").
 *
 * Data: a `cell` per (sweep point, seed) holds two searches over the rate,
 * `sat` (is the run unstable by the criterion?) and `knee` (is its mean
 * latency at least twice the zero-load latency, or is it unstable?), and
 * the zero-load latency measured at 1% of the upper bound. A search keeps
 * a bracket [lo, hi]: lo passed its test (0 at first), hi failed it (the
 * upper bound at first, not yet probed). Every probe — one run of one
 * cell's configuration at one rate — is kept in `probes`, in the order
 * the probes were asked for; both searches of a cell start on the same
 * dyadic grid and share the probes they both ask for.
 *
 *   load + checks --bad--> exit 2, nothing run or written
 *      | step 0: every cell asks for its zero-load probe and the first
 *      |         midpoint of each search (shared: one probe)
 *   ask_probes -> run_batch (-j N forked workers, one probe each; a probe's
 *      |         result comes back through a pipe) -> probe_finished
 *      |         (probes.csv rewritten) -> feed: each search moves lo or hi
 *      |         to the probed rate; it is done when hi - lo <= tol and hi
 *      |         was probed (a search whose lo reaches the bound is done)
 *      | repeat while a search asks for a probe
 *   summary: per point the mean over seeds of lo, its 95% confidence
 *      interval (Student's t), min, max; the knee likewise; table on
 *      stdout, saturate.json and probes.csv in DIR with -o.
 *
 * Invariants:
 *   1. The probes, their order and every decision depend on the results
 *      only, and every result is a pure function of (configuration, seed,
 *      rate): the table and files are identical for every -j.
 *   2. lo < hi for a search that is not done; lo passed its test and hi
 *      failed it or is the upper bound, not yet probed.
 *   3. A (cell, rate) is probed at most once.
 *   4. stdout carries only the table; notes and errors go to stderr. */
#include "core/cli/cmd_saturate.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/base/file.h"
#include "core/base/param.h"
#include "core/base/strbuf.h"
#include "core/cli/args.h"
#include "core/cli/cli.h"
#include "core/cli/output.h"
#include "core/cli/runner.h"
#include "core/config/cfgtree.h"
#include "core/config/experiment.h"
#include "core/sim.h"
#include "core/workload.h"

#define CMD "saturate"
#define RATE_KEY "rate"
#define RATE_PATH "workload.rate"
#define MAX_JOBS 256
#define BOOKSIM_LATENCY_THRES 500.0 /* BookSim's default latency_thres (booksim_config.cpp) */
#define ZERO_LOAD_SHARE 0.01        /* the zero-load probe: this share of the upper bound */
#define KNEE_FACTOR 2.0             /* the knee: mean latency reaches this x zero-load */

static const char help_saturate[] =
    "usage: mppnet saturate EXP.yaml [--criterion booksim|accepted] [--tol T]\n"
    "                       [--latency-thres L] [--accept-tol F] [--max-rate R]\n"
    "                       [-j N] [-o DIR] [-q] [key.path=value ...]\n"
    "\n"
    "Find the saturation rate of an open-loop experiment (one with a\n"
    "workload.rate key, not swept): for every sweep point and every seed,\n"
    "bisect the offered rate between 0 and the upper bound until the bracket\n"
    "is at most T wide. Print per point the mean over the seeds of the\n"
    "highest stable rate, its 95% confidence interval (Student's t), the\n"
    "accepted rate there, the zero-load latency and the knee (the highest\n"
    "rate probed whose mean latency is below twice the zero-load latency).\n"
    "\n"
    "options:\n"
    "  --criterion C      when a probe is unstable (default booksim):\n"
    "                     booksim   mean latency above --latency-thres, or the\n"
    "                               measured packets did not drain\n"
    "                     accepted  accepted rate below (1 - F) x offered, or\n"
    "                               the measured packets did not drain\n"
    "  --tol T            width of the final bracket, flits/node/cycle\n"
    "                     (default 0.01)\n"
    "  --latency-thres L  booksim: the latency limit in cycles (default 500,\n"
    "                     BookSim's latency_thres)\n"
    "  --accept-tol F     accepted: the tolerated shortfall, 0..1 (default 0.05)\n"
    "  --max-rate R       upper bound of the search (default: the rate key's\n"
    "                     maximum, 1)\n"
    "  -j, --jobs N       run the probes of a step on N worker processes,\n"
    "                     1..256 (default 1); the results are identical for\n"
    "                     every N\n"
    "  -o, --output DIR   write probes.csv (every probe, written as each\n"
    "                     finishes) and saturate.json (the summary) to DIR\n"
    "  -q, --quiet        no notes on stderr\n"
    "  -h, --help         show this help\n"
    "  key.path=value     override a key of the experiment\n"
    "\n"
    "Exit status: 0 ok, 1 a probe failed (deadlock), 2 bad usage or input.\n";

enum { CRIT_BOOKSIM, CRIT_ACCEPTED };

typedef struct sat_opts {
    const char *outdir;
    uint64_t jobs;
    int criterion;
    double tol;
    double thres;       /* booksim: latency limit, cycles */
    double accept_tol;  /* accepted: tolerated shortfall */
    double max_rate;    /* 0: the rate key's maximum */
    bool quiet;
} sat_opts;

enum { OPT_CRIT = 1000, OPT_TOL, OPT_THRES, OPT_ACC_TOL, OPT_MAX_RATE };

static const struct option sat_options[] = {
    {"criterion", required_argument, NULL, OPT_CRIT},
    {"tol", required_argument, NULL, OPT_TOL},
    {"latency-thres", required_argument, NULL, OPT_THRES},
    {"accept-tol", required_argument, NULL, OPT_ACC_TOL},
    {"max-rate", required_argument, NULL, OPT_MAX_RATE},
    {"jobs", required_argument, NULL, 'j'},
    {"output", required_argument, NULL, 'o'},
    {"quiet", no_argument, NULL, 'q'},
    {NULL, 0, NULL, 0},
};

/* A positive real option in (lo, hi]: 0 or the usage error's status. */
static int opt_real(const char *opt, const char *arg, double lo, double hi, double *out)
{
    if (mpp_args_double(CMD, opt, arg, out))
        return 2;
    if (!(*out > lo && *out <= hi))
        return mpp_args_usage(CMD, "%s must be a number in (%g, %g], not '%.40s'", opt, lo, hi,
                              arg);
    return 0;
}

static int sat_opt(void *ud, int code, const char *arg)
{
    sat_opts *o = ud;
    switch (code) {
    case OPT_CRIT:
        if (!strcmp(arg, "booksim"))
            o->criterion = CRIT_BOOKSIM;
        else if (!strcmp(arg, "accepted"))
            o->criterion = CRIT_ACCEPTED;
        else
            return mpp_args_usage(CMD, "unknown --criterion '%.40s' (expected booksim or "
                                  "accepted)", arg);
        return 0;
    case OPT_TOL:
        return opt_real("--tol", arg, 0, 1, &o->tol);
    case OPT_THRES:
        return opt_real("--latency-thres", arg, 0, 1e12, &o->thres);
    case OPT_ACC_TOL:
        return opt_real("--accept-tol", arg, 0, 1, &o->accept_tol);
    case OPT_MAX_RATE:
        return opt_real("--max-rate", arg, 0, 1e9, &o->max_rate);
    case 'j':
        return mpp_args_u64(CMD, "-j", arg, 1, MAX_JOBS, false, &o->jobs);
    case 'o':
        if (!*arg)
            return mpp_args_usage(CMD, "option -o needs a folder");
        o->outdir = arg;
        return 0;
    case 'q':
        o->quiet = true;
        return 0;
    }
    return 2;
}

/* ---- searches, cells and probes --------------------------------------- */

/* One bisection (invariant 2). */
typedef struct search {
    double lo, hi;
    bool hi_probed;  /* hi failed its test (else it is the bound, not probed) */
    bool failed;     /* a probe it needed failed, or (knee) no zero-load latency */
    double asked;    /* the rate asked for in this step, or -1 */
} search;

/* One (sweep point, seed). */
typedef struct cell {
    size_t run;        /* its run in the experiment: point x nseeds + seed index */
    search sat, knee;
    double zero_rate;
    double l0;         /* zero-load latency; NaN until known or when unusable */
} cell;

/* One run at one rate. */
typedef struct probe {
    size_t cell;
    double rate;
    size_t step;       /* the step that asked for it */
    bool done;
    int status;        /* 0, or the MPP_E* code the run failed with */
    char msg[512];     /* its error text */
    mpp_sim_result res;
    bool unstable;     /* by the criterion (set when done and status 0) */
} probe;

typedef struct sat_ctx {
    const mpp_experiment *e;
    const char *path;
    sat_opts o;
    const mpp_param *rate_p;  /* the workload's rate row */
    double upper;
    size_t npoints, nseeds, ncells;
    cell *cells;              /* [ncells], point-major */
    probe *probes;            /* in the order asked for */
    size_t nprobes, cap;
    int dfd;                  /* -o: the folder, else -1 */
    const char *dir;
    int write_error;
} sat_ctx;

/* The probe of (cell c, rate r), or NULL (invariant 3). */
static probe *probe_find(sat_ctx *x, size_t c, double r)
{
    for (size_t i = 0; i < x->nprobes; i++)
        if (x->probes[i].cell == c && x->probes[i].rate == r)
            return &x->probes[i];
    return NULL;
}

/* Ask for (cell c, rate r) in step `step` unless it exists. 0 or
 * MPP_ENOMEM. */
static int probe_ask(sat_ctx *x, size_t c, double r, size_t step)
{
    if (probe_find(x, c, r))
        return 0;
    if (x->nprobes == x->cap) {
        size_t cap = x->cap ? 2 * x->cap : 64;
        probe *p = realloc(x->probes, cap * sizeof *p);
        if (!p)
            return MPP_ENOMEM;
        x->probes = p;
        x->cap = cap;
    }
    probe *p = &x->probes[x->nprobes++];
    memset(p, 0, sizeof *p);
    p->cell = c;
    p->rate = r;
    p->step = step;
    return 0;
}

/* The next rate search s asks for, or false when it is done. */
static bool search_next(const search *s, double tol, double *rate)
{
    if (s->failed || s->lo >= s->hi)
        return false;
    if (s->hi - s->lo > tol) {
        *rate = s->lo + (s->hi - s->lo) / 2;
        return true;
    }
    if (!s->hi_probed) { /* the bound itself, once: is anything unstable? */
        *rate = s->hi;
        return true;
    }
    return false;
}

/* Whether probe p, done and successful, fails the criterion. */
static bool unstable(const sat_opts *o, const mpp_sim_result *r)
{
    if (!r->drained)
        return true;
    if (o->criterion == CRIT_BOOKSIM)
        return isfinite(r->latency_mean) && r->latency_mean > o->thres;
    return r->accepted < (1 - o->accept_tol) * r->offered;
}

/* Move search s by the probe at its asked rate; `above` says the probe
 * failed the search's test. */
static void search_feed(search *s, const probe *p, bool above)
{
    s->asked = -1;
    if (!p || p->status) {
        s->failed = true;
        return;
    }
    if (above) {
        s->hi = p->rate;
        s->hi_probed = true;
    } else {
        s->lo = p->rate;
    }
}

/* ---- running a step's probes ------------------------------------------ */

/* What a worker sends back: the probe's status, message and result. The
 * worker is a fork of this process: the struct's layout is the parent's. */
typedef struct probe_msg {
    int status;
    char msg[512];
    mpp_sim_result res;
} probe_msg;

/* Run probe p (in a worker) into *m. */
static void probe_run(const sat_ctx *x, const probe *p, probe_msg *m)
{
    memset(m, 0, sizeof *m);
    mpp_sim_config cfg = *mpp_experiment_config(x->e, x->cells[p->cell].run);
    char text[64];
    snprintf(text, sizeof text, "%.17g", p->rate);
    mpp_err err;
    mpp_err_clear(&err);
    if (mpp_param_set_text(x->rate_p, text, cfg.net.net_mhz, cfg.workload.cfg.b)) {
        m->status = MPP_EINVAL;
        snprintf(m->msg, sizeof m->msg, "workload.rate = %s: refused by the workload", text);
        return;
    }
    mpp_sim *s = mpp_sim_create(&cfg, &err);
    if (!s) {
        m->status = err.code ? err.code : MPP_EINVAL;
        snprintf(m->msg, sizeof m->msg, "%s", err.msg);
        return;
    }
    int rc = mpp_sim_run(s, NULL, NULL, &err);
    if (rc) {
        m->status = rc;
        snprintf(m->msg, sizeof m->msg, "%s", err.msg);
    } else {
        m->res = *mpp_sim_result_get(s);
    }
    mpp_sim_destroy(s);
}

static int write_all(int fd, const void *buf, size_t len)
{
    const char *b = buf;
    while (len) {
        ssize_t w = write(fd, b, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        b += w;
        len -= (size_t)w;
    }
    return 0;
}

/* A worker at work: its process, the read end of its pipe, its probe and
 * what has arrived of its message. */
typedef struct worker {
    pid_t pid;
    int fd;
    size_t probe;
    probe_msg m;
    size_t got;
} worker;

/* Start a worker on probe i: 0, or -1 (fork or pipe failed). */
static int worker_start(sat_ctx *x, worker *w, size_t i)
{
    int fds[2];
    if (pipe(fds))
        return -1;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        signal(SIGPIPE, SIG_DFL);
        probe_msg m;
        probe_run(x, &x->probes[i], &m);
        _exit(write_all(fds[1], &m, sizeof m) ? 3 : 0);
    }
    close(fds[1]);
    w->pid = pid;
    w->fd = fds[0];
    w->probe = i;
    w->got = 0;
    return 0;
}

static void probe_finished(sat_ctx *x, size_t i);

/* Worker w's pipe is readable: read; at its end collect the worker and
 * finish its probe. Returns true when the worker is done. */
static bool worker_read(sat_ctx *x, worker *w)
{
    ssize_t r = read(w->fd, (char *)&w->m + w->got, sizeof w->m - w->got);
    if (r < 0 && errno == EINTR)
        return false;
    if (r > 0) {
        w->got += (size_t)r;
        return false;
    }
    close(w->fd);
    int st = 0;
    while (waitpid(w->pid, &st, 0) < 0 && errno == EINTR)
        ;
    probe *p = &x->probes[w->probe];
    if (w->got == sizeof w->m && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
        p->status = w->m.status;
        memcpy(p->msg, w->m.msg, sizeof p->msg);
        p->msg[sizeof p->msg - 1] = '\0';
        p->res = w->m.res;
    } else {
        p->status = MPP_ERUN;
        if (WIFSIGNALED(st))
            snprintf(p->msg, sizeof p->msg, "its worker died of signal %d", WTERMSIG(st));
        else
            snprintf(p->msg, sizeof p->msg, "its worker failed");
    }
    probe_finished(x, w->probe);
    return true;
}

/* Run the probes [from, to) on up to o.jobs workers. 0, or -1 when no
 * worker could be started (the probes not run are marked failed). */
static int run_batch(sat_ctx *x, size_t from, size_t to)
{
    size_t n = to - from;
    if (!n)
        return 0;
    size_t nw = x->o.jobs < n ? (size_t)x->o.jobs : n;
    worker *w = calloc(nw, sizeof *w);
    struct pollfd *pf = calloc(nw, sizeof *pf);
    if (!w || !pf) {
        free(w);
        free(pf);
        return -1;
    }
    size_t next = from, active = 0;
    int rc = 0;
    for (size_t k = 0; k < nw; k++)
        w[k].fd = -1;
    while (next < to || active) {
        for (size_t k = 0; k < nw && next < to && !rc; k++) {
            if (w[k].fd >= 0)
                continue;
            if (worker_start(x, &w[k], next)) {
                rc = -1;
                break;
            }
            next++;
            active++;
        }
        if (rc && !active)
            break;
        for (size_t k = 0; k < nw; k++) {
            pf[k].fd = w[k].fd;
            pf[k].events = POLLIN;
            pf[k].revents = 0;
        }
        if (poll(pf, nw, -1) < 0) {
            if (errno == EINTR)
                continue;
            rc = -1;
            break;
        }
        for (size_t k = 0; k < nw; k++)
            if (w[k].fd >= 0 && (pf[k].revents & (POLLIN | POLLHUP | POLLERR)) &&
                worker_read(x, &w[k])) {
                w[k].fd = -1;
                active--;
            }
    }
    for (; next < to; next++) { /* not started: a worker could not be made */
        x->probes[next].status = MPP_ERUN;
        snprintf(x->probes[next].msg, sizeof x->probes[next].msg, "no worker could be started");
        probe_finished(x, next);
    }
    free(w);
    free(pf);
    return rc;
}

/* ---- output ------------------------------------------------------------ */

/* The sweep values of point pt as "key=value, ..." (escaped when printed). */
static void point_text(const sat_ctx *x, size_t pt, mpp_sb *sb)
{
    size_t run = pt * x->nseeds;
    for (size_t a = 0; a < mpp_experiment_axes(x->e); a++)
        mpp_sb_printf(sb, "%s%s=%s", a ? ", " : "", mpp_experiment_axis(x->e, a),
                      mpp_experiment_value(x->e, run, a));
}

/* probes.csv: every finished probe, in the order asked for. */
static void probes_csv(const sat_ctx *x, mpp_sb *sb)
{
    size_t na = mpp_experiment_axes(x->e);
    mpp_sb_add(sb, "probe,step");
    for (size_t a = 0; a < na; a++) {
        mpp_sb_addc(sb, ',');
        mpp_output_csv_field(sb, mpp_experiment_axis(x->e, a));
    }
    mpp_sb_add(sb, ",seed,rate,offered,accepted,latency_mean,latency_p99,drained,"
                   "unstable,status\n");
    for (size_t i = 0; i < x->nprobes; i++) {
        const probe *p = &x->probes[i];
        if (!p->done)
            continue;
        size_t run = x->cells[p->cell].run;
        mpp_sb_printf(sb, "%zu,%zu", i, p->step);
        for (size_t a = 0; a < na; a++) {
            mpp_sb_addc(sb, ',');
            mpp_output_csv_field(sb, mpp_experiment_value(x->e, run, a));
        }
        mpp_sb_printf(sb, ",%" PRIu64 ",", mpp_experiment_config(x->e, run)->run.seed);
        mpp_sb_double(sb, p->rate);
        if (p->status) {
            mpp_sb_add(sb, ",,,,,,,failed\n");
            continue;
        }
        const double v[] = {p->res.offered, p->res.accepted, p->res.latency_mean,
                            p->res.latency_p99};
        for (size_t k = 0; k < MPP_COUNTOF(v); k++) {
            mpp_sb_addc(sb, ',');
            if (isfinite(v[k]))
                mpp_sb_double(sb, v[k]);
        }
        mpp_sb_printf(sb, ",%s,%s,ok\n", p->res.drained ? "true" : "false",
                      p->unstable ? "true" : "false");
    }
}

/* Rewrite probes.csv in the -o folder (when there is one). */
static void write_probes(sat_ctx *x)
{
    if (x->dfd < 0 || x->write_error)
        return;
    mpp_sb sb;
    mpp_sb_init(&sb);
    probes_csv(x, &sb);
    mpp_err err;
    mpp_err_clear(&err);
    int rc = mpp_sb_ok(&sb) ? mpp_file_write_atomic_at(x->dfd, x->dir, "probes.csv", sb.s,
                                                       sb.len, false, &err)
                            : mpp_err_set(&err, MPP_ENOMEM, "out of memory");
    mpp_sb_free(&sb);
    if (rc) {
        mpp_args_fail(&err);
        x->write_error = 2;
    }
}

/* Probe i has finished (its fields set): its verdict, the file, a
 * failure's note. */
static void probe_finished(sat_ctx *x, size_t i)
{
    probe *p = &x->probes[i];
    p->done = true;
    if (!p->status)
        p->unstable = unstable(&x->o, &p->res);
    write_probes(x);
    if (p->status) {
        mpp_sb sb;
        mpp_sb_init(&sb);
        point_text(x, x->cells[p->cell].run / x->nseeds, &sb);
        mpp_args_eprintf("mppnet: saturate: the probe at rate %.6g (%s%sseed %" PRIu64
                         ") failed%s: %s\n",
                         p->rate, mpp_sb_ok(&sb) ? sb.s : "", sb.len ? ", " : "",
                         mpp_experiment_config(x->e, x->cells[p->cell].run)->run.seed,
                         p->status == MPP_EDEADLOCK ? " (deadlock)" : "", p->msg);
        mpp_sb_free(&sb);
    }
}

/* ---- the statistic ------------------------------------------------------ */

/* Student's t, two-sided 95%, for df degrees of freedom (1.96 above 30). */
static double t95(size_t df)
{
    static const double t[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
                               2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
                               2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
                               2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
    return df >= 1 && df <= MPP_COUNTOF(t) ? t[df - 1] : 1.96;
}

/* Mean, 95% half-width (NaN with fewer than two values), min and max of
 * the n values v (NaN ones skipped); *used how many counted. */
typedef struct stat4 {
    double mean, ci, min, max;
    size_t used;
} stat4;

static stat4 stats_of(const double *v, size_t n)
{
    stat4 s = {NAN, NAN, NAN, NAN, 0};
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(v[i]))
            continue;
        sum += v[i];
        if (!s.used || v[i] < s.min)
            s.min = v[i];
        if (!s.used || v[i] > s.max)
            s.max = v[i];
        s.used++;
    }
    if (!s.used)
        return s;
    s.mean = sum / (double)s.used;
    if (s.used > 1) {
        double ss = 0;
        for (size_t i = 0; i < n; i++)
            if (isfinite(v[i]))
                ss += (v[i] - s.mean) * (v[i] - s.mean);
        s.ci = t95(s.used - 1) * sqrt(ss / (double)(s.used - 1)) / sqrt((double)s.used);
    }
    return s;
}

/* Per cell: the saturation rate (sat.lo), the accepted rate probed there,
 * the knee (knee.lo) and the zero-load latency; NaN where unknown. */
typedef struct cell_out {
    double sat, accepted, knee, l0;
    bool bound;  /* stable up to the upper bound */
} cell_out;

static cell_out cell_result(sat_ctx *x, size_t c)
{
    const cell *k = &x->cells[c];
    cell_out o = {NAN, NAN, NAN, k->l0, false};
    if (!k->sat.failed) {
        o.sat = k->sat.lo;
        o.bound = k->sat.lo >= x->upper;
        const probe *p = k->sat.lo > 0 ? probe_find(x, c, k->sat.lo) : NULL;
        if (p && p->done && !p->status)
            o.accepted = p->res.accepted;
    }
    if (!k->knee.failed)
        o.knee = k->knee.lo;
    return o;
}

static void print_num(int width, int prec, double v)
{
    if (isfinite(v))
        printf("%*.*f", width, prec, v);
    else
        printf("%*s", width, "-");
}

static void json_num(mpp_sb *sb, double v)
{
    mpp_sb_double(sb, v); /* NaN: null */
}

/* The table on stdout and saturate.json (with -o). 0 or the write error's
 * exit status. */
static int report(sat_ctx *x, const char *name, double secs)
{
    size_t na = mpp_experiment_axes(x->e);
    cell_out *co = calloc(x->ncells, sizeof *co);
    double *v = calloc(x->nseeds, sizeof *v);
    if (!co || !v) {
        free(co);
        free(v);
        fprintf(stderr, "mppnet: out of memory\n");
        return 2;
    }
    for (size_t c = 0; c < x->ncells; c++)
        co[c] = cell_result(x, c);

    /* the table */
    int *wid = calloc(na ? na : 1, sizeof *wid);
    if (!wid) {
        free(co);
        free(v);
        fprintf(stderr, "mppnet: out of memory\n");
        return 2;
    }
    if (x->o.criterion == CRIT_BOOKSIM)
        printf("# criterion booksim: unstable when the mean latency exceeds %g cycles or the "
               "measured packets do not drain\n", x->o.thres);
    else
        printf("# criterion accepted: unstable when accepted < %g x offered or the measured "
               "packets do not drain\n", 1 - x->o.accept_tol);
    printf("# bisection of workload.rate in [0, %g] to %g, %zu seed%s per point; saturation "
           "= the highest stable rate, mean over seeds +- 95%% CI (Student's t); knee = the "
           "highest rate below %g x the zero-load latency (measured at rate %g)\n",
           x->upper, x->o.tol, x->nseeds, x->nseeds == 1 ? "" : "s", KNEE_FACTOR,
           x->upper * ZERO_LOAD_SHARE);
    for (size_t a = 0; a < na; a++) {
        const char *ax = mpp_experiment_axis(x->e, a);
        const char *dot = strrchr(ax, '.');
        const char *label = dot ? dot + 1 : ax;
        wid[a] = (int)strlen(label);
        for (size_t pt = 0; pt < x->npoints; pt++) {
            int l = (int)strlen(mpp_experiment_value(x->e, pt * x->nseeds, a));
            if (l > wid[a])
                wid[a] = l;
        }
        printf("%-*s  ", wid[a], label);
    }
    printf("%10s  %8s  %8s  %8s  %8s  %9s  %8s  %6s\n", "saturation", "ci95", "min", "max",
           "accepted", "zero_load", "knee", "probes");
    for (size_t pt = 0; pt < x->npoints; pt++) {
        for (size_t a = 0; a < na; a++) {
            const char *val = mpp_experiment_value(x->e, pt * x->nseeds, a);
            mpp_args_put_escaped(val);
            printf("%*s  ", wid[a] > (int)strlen(val) ? wid[a] - (int)strlen(val) : 0, "");
        }
        size_t c0 = pt * x->nseeds;
        for (size_t s = 0; s < x->nseeds; s++)
            v[s] = co[c0 + s].sat;
        stat4 st = stats_of(v, x->nseeds);
        bool bound = false;
        for (size_t s = 0; s < x->nseeds; s++)
            bound |= co[c0 + s].bound;
        for (size_t s = 0; s < x->nseeds; s++)
            v[s] = co[c0 + s].accepted;
        stat4 acc = stats_of(v, x->nseeds);
        for (size_t s = 0; s < x->nseeds; s++)
            v[s] = co[c0 + s].l0;
        stat4 l0 = stats_of(v, x->nseeds);
        for (size_t s = 0; s < x->nseeds; s++)
            v[s] = co[c0 + s].knee;
        stat4 knee = stats_of(v, x->nseeds);
        size_t np = 0;
        for (size_t i = 0; i < x->nprobes; i++)
            np += x->probes[i].cell >= c0 && x->probes[i].cell < c0 + x->nseeds;
        print_num(10, 4, st.mean);
        printf("  ");
        print_num(8, 4, st.ci);
        printf("  ");
        print_num(8, 4, st.min);
        printf("  ");
        print_num(8, 4, st.max);
        printf("  ");
        print_num(8, 4, acc.mean);
        printf("  ");
        print_num(9, 2, l0.mean);
        printf("  ");
        print_num(8, 4, knee.mean);
        printf("  %6zu%s\n", np, bound ? "  (stable up to the bound)" : "");
    }
    free(wid);
    fflush(stdout);

    int status = 0;
    if (x->dfd >= 0 && !x->write_error) {
        mpp_sb sb;
        mpp_sb_init(&sb);
        mpp_sb_printf(&sb, "{\n  \"mppnet\": ");
        mpp_sb_json_str(&sb, mpp_cli_version());
        mpp_sb_add(&sb, ",\n  \"experiment\": ");
        mpp_sb_json_str(&sb, name);
        mpp_sb_printf(&sb, ",\n  \"criterion\": \"%s\", \"latency_thres\": ",
                      x->o.criterion == CRIT_BOOKSIM ? "booksim" : "accepted");
        json_num(&sb, x->o.thres);
        mpp_sb_add(&sb, ", \"accept_tol\": ");
        json_num(&sb, x->o.accept_tol);
        mpp_sb_add(&sb, ", \"tol\": ");
        json_num(&sb, x->o.tol);
        mpp_sb_add(&sb, ", \"upper\": ");
        json_num(&sb, x->upper);
        mpp_sb_add(&sb, ", \"zero_load_rate\": ");
        json_num(&sb, x->upper * ZERO_LOAD_SHARE);
        mpp_sb_printf(&sb, ", \"probes\": %zu,\n  \"points\": [", x->nprobes);
        for (size_t pt = 0; pt < x->npoints; pt++) {
            size_t c0 = pt * x->nseeds;
            mpp_sb_add(&sb, pt ? ",\n    {\"axes\": {" : "\n    {\"axes\": {");
            for (size_t a = 0; a < na; a++) {
                if (a)
                    mpp_sb_add(&sb, ", ");
                mpp_sb_json_str(&sb, mpp_experiment_axis(x->e, a));
                mpp_sb_add(&sb, ": ");
                mpp_sb_json_str(&sb, mpp_experiment_value(x->e, c0, a));
            }
            mpp_sb_add(&sb, "}, \"seeds\": [");
            for (size_t s = 0; s < x->nseeds; s++) {
                const cell_out *k = &co[c0 + s];
                mpp_sb_printf(&sb, "%s{\"seed\": %" PRIu64 ", \"saturation\": ", s ? ", " : "",
                              mpp_experiment_config(x->e, x->cells[c0 + s].run)->run.seed);
                json_num(&sb, k->sat);
                mpp_sb_add(&sb, ", \"first_unstable\": ");
                json_num(&sb, x->cells[c0 + s].sat.hi_probed ? x->cells[c0 + s].sat.hi : NAN);
                mpp_sb_add(&sb, ", \"accepted\": ");
                json_num(&sb, k->accepted);
                mpp_sb_add(&sb, ", \"zero_load_latency\": ");
                json_num(&sb, k->l0);
                mpp_sb_add(&sb, ", \"knee\": ");
                json_num(&sb, k->knee);
                mpp_sb_addc(&sb, '}');
            }
            for (size_t s = 0; s < x->nseeds; s++)
                v[s] = co[c0 + s].sat;
            stat4 st = stats_of(v, x->nseeds);
            mpp_sb_add(&sb, "], \"saturation\": {\"mean\": ");
            json_num(&sb, st.mean);
            mpp_sb_add(&sb, ", \"ci95\": ");
            json_num(&sb, st.ci);
            mpp_sb_add(&sb, ", \"min\": ");
            json_num(&sb, st.min);
            mpp_sb_add(&sb, ", \"max\": ");
            json_num(&sb, st.max);
            for (size_t s = 0; s < x->nseeds; s++)
                v[s] = co[c0 + s].knee;
            st = stats_of(v, x->nseeds);
            mpp_sb_add(&sb, "}, \"knee\": {\"mean\": ");
            json_num(&sb, st.mean);
            mpp_sb_add(&sb, ", \"ci95\": ");
            json_num(&sb, st.ci);
            mpp_sb_add(&sb, "}}");
        }
        mpp_sb_add(&sb, "\n  ]\n}\n");
        mpp_err err;
        mpp_err_clear(&err);
        int rc = mpp_sb_ok(&sb) ? mpp_file_write_atomic_at(x->dfd, x->dir, "saturate.json", sb.s,
                                                           sb.len, true, &err)
                                : mpp_err_set(&err, MPP_ENOMEM, "out of memory");
        mpp_sb_free(&sb);
        if (rc)
            status = mpp_args_fail(&err);
    }
    if (!x->o.quiet)
        mpp_args_eprintf("mppnet: saturate: %zu probes in %.1f s%s%s%s\n", x->nprobes, secs,
                         x->dfd >= 0 ? "; wrote " : "", x->dfd >= 0 ? x->dir : "",
                         x->dfd >= 0 ? "/" : "");
    free(co);
    free(v);
    return status;
}

/* ---- checks of the experiment ----------------------------------------- */

/* The workload's rate row of every run, the same in all (or the refusal
 * printed): 0 or exit status 2. */
static int check_rate(sat_ctx *x)
{
    const mpp_experiment *e = x->e;
    for (size_t a = 0; a < mpp_experiment_axes(e); a++) {
        if (strcmp(mpp_experiment_axis(e, a), RATE_PATH))
            continue;
        char buf[320];
        const char *at = mpp_experiment_where(e, 0, RATE_PATH, buf, sizeof buf);
        mpp_args_eprintf("mppnet: %s: the sweep has a workload.rate axis: saturate searches "
                         "the rate itself; remove it from the sweep (the other axes, e.g. "
                         "workload.pattern, may stay)\n", at ? at : x->path);
        return 2;
    }
    size_t n = mpp_experiment_runs(e);
    for (size_t i = 0; i < n; i++) {
        const mpp_workload_ops *w = mpp_experiment_config(e, i)->workload.ops;
        const mpp_param *p = w ? mpp_schema_find(&w->schema, RATE_KEY) : NULL;
        if (!p || p->type != MPP_PT_DOUBLE) {
            mpp_args_eprintf("mppnet: %s: workload '%s' has no rate key (workload.rate): "
                             "saturate bisects the offered rate of an open-loop workload "
                             "such as synthetic\n", x->path, w ? w->name : "(none)");
            return 2;
        }
        if (x->rate_p && p != x->rate_p) {
            mpp_args_eprintf("mppnet: %s: the sweep changes the workload type: saturate "
                             "needs one workload with a rate key\n", x->path);
            return 2;
        }
        x->rate_p = p;
    }
    x->upper = x->o.max_rate > 0 ? x->o.max_rate : x->rate_p->max;
    if (x->upper > x->rate_p->max || !(x->upper > 0)) {
        mpp_args_eprintf("mppnet: saturate: --max-rate %g is above workload.rate's maximum "
                         "%g\n", x->o.max_rate, x->rate_p->max);
        return 2;
    }
    if (!(x->o.tol < x->upper)) {
        mpp_args_eprintf("mppnet: saturate: --tol %g must be below the upper bound %g\n",
                         x->o.tol, x->upper);
        return 2;
    }
    return 0;
}

/* ---- the command ------------------------------------------------------ */

int mpp_cmd_saturate(int argc, char **argv)
{
    sat_opts o = {.jobs = 1, .criterion = CRIT_BOOKSIM, .tol = 0.01,
                  .thres = BOOKSIM_LATENCY_THRES, .accept_tol = 0.05};
    mpp_args rest;
    bool done;
    int status = mpp_args_parse(CMD, argc, argv, sat_options, help_saturate, sat_opt, &o, &rest,
                                &done);
    if (status || done) {
        mpp_args_free(&rest);
        return status;
    }
    sat_ctx x;
    memset(&x, 0, sizeof x);
    x.o = o;
    x.dfd = -1;
    const char *path = NULL;
    const char **ov = calloc(rest.n + 1, sizeof *ov);
    size_t nov = 0;
    mpp_experiment *e = NULL;
    mpp_err err;
    mpp_err_clear(&err);
    if (!ov) {
        status = mpp_args_usage(CMD, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < rest.n; i++) {
        const char *a = rest.v[i];
        if (mpp_args_is_override(a))
            ov[nov++] = a;
        else if (!path)
            path = a;
        else {
            status = mpp_args_usage(CMD, "one experiment file only; '%.80s' is neither it nor "
                                    "an override (key.path=value)", a);
            goto out;
        }
    }
    if (!path) {
        status = mpp_args_usage(CMD, "missing the experiment file (mppnet saturate EXP.yaml)");
        goto out;
    }
    e = mpp_experiment_load(path, nov, ov, &err);
    if (!e) {
        status = mpp_args_fail(&err);
        goto out;
    }
    x.e = e;
    x.path = path;
    if ((status = check_rate(&x)))
        goto out;
    if (mpp_run_validate(e, path, &err)) {
        status = mpp_args_fail(&err);
        goto out;
    }
    /* runs: point x nseeds + seed index, the seeds distinct (experiment.c) */
    size_t nruns = mpp_experiment_runs(e);
    uint64_t seed0 = mpp_experiment_config(e, 0)->run.seed;
    x.nseeds = 1;
    while (x.nseeds < nruns && mpp_experiment_config(e, x.nseeds)->run.seed != seed0)
        x.nseeds++;
    x.npoints = nruns / x.nseeds;
    x.ncells = nruns;
    x.cells = calloc(x.ncells, sizeof *x.cells);
    if (!x.cells) {
        status = mpp_args_usage(CMD, "out of memory");
        goto out;
    }
    for (size_t c = 0; c < x.ncells; c++) {
        cell *k = &x.cells[c];
        k->run = c;
        k->sat = (search){.lo = 0, .hi = x.upper, .asked = -1};
        k->knee = k->sat;
        k->zero_rate = x.upper * ZERO_LOAD_SHARE;
        k->l0 = NAN;
    }
    if (o.outdir) {
        mpp_err_clear(&err);
        if ((x.dfd = mpp_file_open_dir(o.outdir, true, false, &err)) < 0) {
            x.dfd = -1;
            status = mpp_args_fail(&err);
            goto out;
        }
        x.dir = o.outdir;
        write_probes(&x); /* a folder that cannot hold it fails now */
        if (x.write_error) {
            status = 2;
            goto out;
        }
    }
    struct sigaction sa, old_pipe;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_IGN;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGPIPE, &sa, &old_pipe); /* a closed stdout loses the table only */

    double t0 = mpp_host_seconds();
    int failed = 0;
    for (size_t step = 0;; step++) {
        size_t from = x.nprobes;
        bool any = false;
        for (size_t c = 0; c < x.ncells && !failed; c++) {
            cell *k = &x.cells[c];
            if (step == 0 && probe_ask(&x, c, k->zero_rate, step))
                failed = 2;
            search *ss[] = {&k->sat, &k->knee};
            for (size_t j = 0; j < 2 && !failed; j++) {
                double r;
                if (!search_next(ss[j], o.tol, &r))
                    continue;
                ss[j]->asked = r;
                any = true;
                if (probe_ask(&x, c, r, step))
                    failed = 2;
            }
        }
        if (failed) {
            fprintf(stderr, "mppnet: out of memory\n");
            status = 2;
            break;
        }
        if (!any && x.nprobes == from)
            break;
        if (!o.quiet && x.nprobes > from)
            mpp_args_eprintf("mppnet: saturate: step %zu: %zu probe%s\n", step,
                             x.nprobes - from, x.nprobes - from == 1 ? "" : "s");
        if (run_batch(&x, from, x.nprobes))
            mpp_args_eprintf("mppnet: saturate: cannot start a worker: %s\n", strerror(errno));
        if (x.write_error) {
            status = 2;
            break;
        }
        for (size_t c = 0; c < x.ncells; c++) {
            cell *k = &x.cells[c];
            if (step == 0) {
                const probe *z = probe_find(&x, c, k->zero_rate);
                if (z && z->done && !z->status && !z->unstable && isfinite(z->res.latency_mean))
                    k->l0 = z->res.latency_mean;
                else
                    k->knee.failed = true; /* no zero-load latency: no knee */
            }
            if (k->sat.asked >= 0) {
                const probe *p = probe_find(&x, c, k->sat.asked);
                search_feed(&k->sat, p, p && p->unstable);
            }
            if (k->knee.asked >= 0) {
                const probe *p = probe_find(&x, c, k->knee.asked);
                bool above = p && (p->unstable || !(p->res.latency_mean < KNEE_FACTOR * k->l0));
                search_feed(&k->knee, p, above);
            }
        }
    }
    double secs = mpp_host_seconds() - t0;
    if (!status) {
        for (size_t i = 0; i < x.nprobes; i++)
            if (x.probes[i].status) {
                int s = mpp_err_exit_status(x.probes[i].status);
                if (s > status)
                    status = s;
            }
        int rs = report(&x, mpp_experiment_name(e), secs);
        if (rs > status)
            status = rs;
    }
    sigaction(SIGPIPE, &old_pipe, NULL);
out:
    if (x.dfd >= 0)
        close(x.dfd);
    free(x.cells);
    free(x.probes);
    mpp_experiment_destroy(e);
    free(ov);
    mpp_args_free(&rest);
    return status;
}
