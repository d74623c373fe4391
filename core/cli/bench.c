/* core/cli/bench.c — the fixed benchmark workloads (see bench.h).
 *
 * Each workload is a table row turned into experiment text (the topology in
 * its short form, `topology: "mesh:8x8"`, resolved by the configuration
 * layer like any experiment's; a row with its own `text` is that text as
 * is), parsed with
 * mpp_experiment_parse and run in a forked child.
 * The child sends one fixed-size message back through a pipe:
 *
 *   parent: pipe, fork ----------------------------> child: parse, create,
 *           read message  <---- {rc, err, report} ----      run, write, _exit
 *           wait4 -> rusage.ru_maxrss = the child's peak RSS
 *
 * Invariants:
 *   1. The parent never touches a simulation: peak RSS is the workload's
 *      (plus the few pages the child inherits from the parent).
 *   2. Library code: nothing prints, nothing exits except the child's _exit.
 */
#include "core/cli/bench.h"
#include "core/base/file.h"
#include "routers/routing.h"
#include "algorithms/patterns.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/config/experiment.h"

/* wait4 is BSD, not POSIX; glibc declares it only with _DEFAULT_SOURCE. */
pid_t wait4(pid_t pid, int *status, int options, struct rusage *rusage);

typedef struct bench_def {
    const char *name;
    const char *topology;   /* NAME:ARGS as for `mppnet sim --topology` */
    double rate;
    unsigned measure;
    const char *desc;
    const char *text;       /* non-NULL: the whole experiment (the fields above unused) */
} bench_def;

/* Workload e: the CM-5 preset with 1024 nodes, every node sending 4 KiB to
 * its partner in a random permutation through the NIC model (CMMD-style
 * blocking send/receive). */
static const char bench_e_text[] = "mppnet: 1\n"
                                   "name: bench-e\n"
                                   "machine: cm5\n"
                                   "network:\n"
                                   "  cm5-fattree: {nodes: 1024}\n"
                                   "workload:\n"
                                   "  type: messages\n"
                                   "  shape: permutation\n"
                                   "  pattern: randperm\n"
                                   "  bytes: 4KiB\n"
                                   "  paradigm: sync\n";

static const char bench_f_text[] = "mppnet: 1\n"
                                   "name: bench-f\n"
                                   "machine: cm5\n"
                                   "workload:\n"
                                   "  type: schedule\n"
                                   "  scheduler: cgm\n"
                                   "  gen: random-regular\n"
                                   "  d: 16\n"
                                   "  msg_unit: 4KiB\n";

static const bench_def defs[] = {
    {"a", "mesh:8x8", 0.3, 100000, "8x8 mesh, ecube, uniform 0.3, 5-flit, 2 VCs x 8, iSLIP, delay 4, 10k+100k cycles", NULL},
    {"b", "mesh:8x8", 0.05, 100000, "8x8 mesh, ecube, uniform 0.05, 5-flit, 2 VCs x 8, iSLIP, delay 4, 10k+100k cycles", NULL},
    {"c", "hypercube:10", 0.3, 20000, "1024-node hypercube, ecube, uniform 0.3, 5-flit, 2 VCs x 8, iSLIP, delay 4, 10k+20k cycles", NULL},
    {"d", "mesh:32x32", 0.08, 20000, "32x32 mesh, ecube, uniform 0.08, 5-flit, 2 VCs x 8, iSLIP, delay 4, 10k+20k cycles", NULL},
    {"e", NULL, 0, 0, "CM-5 (machine: cm5), 1024 nodes, messages through the NIC, randperm, 4 KiB, sync", bench_e_text},
    {"f", NULL, 0, 0, "replay: a random 16-regular COM of 4 KiB messages scheduled by cgm on the 32-node CM-5", bench_f_text},
};

size_t mpp_bench_count(void) { return MPP_COUNTOF(defs); }

const char *mpp_bench_name(size_t i) { return i < MPP_COUNTOF(defs) ? defs[i].name : NULL; }

const char *mpp_bench_desc(size_t i) { return i < MPP_COUNTOF(defs) ? defs[i].desc : NULL; }

int mpp_bench_find(const char *name)
{
    for (size_t i = 0; i < MPP_COUNTOF(defs); i++)
        if (!strcmp(defs[i].name, name))
            return (int)i;
    return -1;
}

int mpp_bench_text(size_t i, mpp_sb *out, mpp_err *err)
{
    if (i >= MPP_COUNTOF(defs))
        return mpp_err_set(err, MPP_EINVAL, "no benchmark workload %zu", i);
    const bench_def *d = &defs[i];
    if (d->text) {
        mpp_sb_add(out, d->text);
        return mpp_sb_ok(out) ? 0 : mpp_err_set(err, MPP_ENOMEM, "out of memory");
    }
    /* the topology's short form ("mesh:8x8"), resolved by the
     * configuration layer like any experiment's */
    mpp_sb_printf(out, "mppnet: 1\nname: bench-%s\nnetwork:\n  topology: \"%s\"\n", d->name,
                  d->topology);
    mpp_sb_add(out, "  router: ecube\n  vcs: 2\n  buffer_flits: 8\n  router_delay: 4\n"
                    "  allocator: islip\n");
    mpp_sb_add(out, "workload:\n  pattern: uniform\n  rate: ");
    mpp_sb_double(out, d->rate);
    mpp_sb_printf(out, "\n  packet_flits: 5\n  warmup: 10000\n  measure: %u\n", d->measure);
    if (!mpp_sb_ok(out))
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    return 0;
}

/* What the child sends back: fixed size, one write. */
typedef struct bench_msg {
    int rc;
    mpp_err err;
    mpp_bench_report rep;
} bench_msg;

/* The child's work: everything from the text to the report. */
static void child_run(size_t i, bench_msg *m)
{
    mpp_sb text;
    mpp_sb_init(&text);
    mpp_experiment *e = NULL;
    mpp_sim *s = NULL;
    m->rc = mpp_bench_text(i, &text, &m->err);
    if (m->rc)
        goto out;
    e = mpp_experiment_parse(text.s, "mppnet bench", 0, NULL, &m->err);
    if (!e) {
        m->rc = m->err.code ? m->err.code : MPP_EINVAL;
        goto out;
    }
    s = mpp_sim_create(mpp_experiment_config(e, 0), &m->err);
    if (!s) {
        m->rc = m->err.code ? m->err.code : MPP_EINVAL;
        goto out;
    }
    double t0 = mpp_host_seconds();
    m->rc = mpp_sim_run(s, NULL, NULL, &m->err);
    double wall = mpp_host_seconds() - t0;
    if (m->rc)
        goto out;
    const mpp_sim_result *r = mpp_sim_result_get(s);
    mpp_bench_report *rep = &m->rep;
    rep->cycles = r->cycles;
    rep->wall_seconds = wall;
    if (wall > 0) {
        rep->cycles_per_sec = (double)r->cycles / wall;
        rep->router_cycles_per_sec = (double)r->router_cycles / wall;
        rep->flit_hops_per_sec = (double)r->flit_hops / wall;
    }
    rep->offered = r->offered;
    rep->accepted = r->accepted;
    rep->latency_mean = r->latency_mean;
    rep->saturated = r->saturated;
out:
    mpp_sim_destroy(s);
    mpp_experiment_destroy(e);
    mpp_sb_free(&text);
}

int mpp_bench_run(size_t i, mpp_bench_report *out, mpp_err *err)
{
    if (i >= MPP_COUNTOF(defs))
        return mpp_err_set(err, MPP_EINVAL, "no benchmark workload %zu", i);
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", defs[i].name);
    snprintf(out->desc, sizeof out->desc, "%s", defs[i].desc);

    int fds[2];
    if (pipe(fds) != 0)
        return mpp_err_set(err, MPP_ERUN, "pipe: %s", strerror(errno));
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return mpp_err_set(err, MPP_ERUN, "fork: %s", strerror(errno));
    }
    if (pid == 0) {
        close(fds[0]);
        bench_msg m;
        memset(&m, 0, sizeof m);
        m.rep = *out;
        child_run(i, &m);
        const char *p = (const char *)&m;
        size_t left = sizeof m;
        while (left) {
            ssize_t w = write(fds[1], p, left);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                _exit(3);
            p += w;
            left -= (size_t)w;
        }
        _exit(0);
    }
    close(fds[1]);
    bench_msg m;
    size_t got = 0;
    while (got < sizeof m) {
        ssize_t r = read(fds[0], (char *)&m + got, sizeof m - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fds[0]);
    int status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    while (wait4(pid, &status, 0, &ru) < 0) {
        if (errno != EINTR)
            return mpp_err_set(err, MPP_ERUN, "wait: %s", strerror(errno));
    }
    if (got < sizeof m) {
        if (WIFSIGNALED(status))
            return mpp_err_set(err, MPP_ERUN, "benchmark %s: the child died of signal %d",
                               defs[i].name, WTERMSIG(status));
        return mpp_err_set(err, MPP_ERUN, "benchmark %s: the child exited without a result",
                           defs[i].name);
    }
    if (m.rc) {
        if (err)
            *err = m.err;
        if (err && !err->code)
            err->code = m.rc;
        return m.rc;
    }
    *out = m.rep;
    out->peak_rss_mb = (double)ru.ru_maxrss / 1024.0; /* Linux: KiB */
    return 0;
}
