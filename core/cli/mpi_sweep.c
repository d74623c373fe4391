/* core/cli/mpi_sweep.c — the runs of `mppnet run` over MPI ranks (see
 * mpi_sweep.h, docs/scaling.md).
 *
 * Rank 0, the master, loads and checks the experiment, owns the output
 * folder (lock, copy, records, result files: core/cli/runner.c) and the
 * queue (the longest expected runs first). It runs no simulation itself.
 * Every other rank, a worker, gets the experiment from rank 0 (its text,
 * path, overrides and shard — no file of the command line is read
 * there), checks that it expands to the same runs (count and config
 * hashes), and runs the runs it is handed on its own -j worker processes.
 *
 * Messages (all on MPI_COMM_WORLD, bytes):
 *
 *   setup   0 -> all  MPI_Bcast: a header (magic, length, run count, hash
 *                     of the runs' config hashes, -j) and the experiment's
 *                     copy (mpp_store_pack_experiment); length 0: stop
 *   HELLO   w -> 0    magic, -j, pid, host name
 *   READY   w -> 0    nothing: "a worker process of mine is idle"
 *   RUN     0 -> w    a run index (8 bytes)
 *   STOP    0 -> w    nothing: no run is left for you
 *   RESULT  w -> 0    a run index and its packed record (synchronous send)
 *   BYE     w -> 0    how many runs handed to it it could not return
 *
 *   worker:  recv setup --> HELLO --> (READY --> RUN | STOP)* per worker
 *            process, RESULT as each run ends --> BYE --> MPI_Finalize
 *   master:  send setup --> loop: Iprobe any message; READY: ops->next,
 *            RUN or STOP; RESULT: ops->result (record it); BYE: the
 *            rank's runs still out are lost --> every rank said BYE
 *            --> MPI_Finalize
 *
 * Invariants:
 *   1. No message is trusted by its receiver before its size, tag and
 *      values were checked: a run index below the run count, a RESULT
 *      only of a run handed to that rank and not yet returned, a record
 *      that mpp_output_run_unpack accepts for that run (the master's
 *      ops->result), a HELLO's -j in range and host NUL-terminated.
 *   2. Each run is handed to one rank at a time (owner[run]); a rank that
 *      said BYE holds none.
 *   3. The master records a result as it arrives (ops->result writes the
 *      run's record before the next message is read), and a worker sends
 *      it synchronously (MPI_Ssend: done once rank 0 has taken it): when
 *      mpirun ends the job because a rank died, every result a worker
 *      counts as delivered is on disk, or being written by rank 0 then.
 *   4. MPI is initialised only when a launcher's variables are in the
 *      environment: a plain `mppnet run` never touches MPI. */
#include "core/cli/mpi_sweep.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/base/strbuf.h"
#include "core/base/units.h"
#include "core/cli/args.h"

enum { TAG_HELLO = 1, TAG_READY, TAG_RUN, TAG_STOP, TAG_RESULT, TAG_BYE };

#define HELLO_MAGIC 0x6d70704eu /* "mppN" */
#define HOST_MAX 64
#define MAX_JOBS 256

typedef struct hello {
    uint32_t magic;
    uint32_t jobs;
    int64_t pid;
    char host[HOST_MAX];
} hello;

/* The number in environment variable name, or -1 when it is not one. */
static long env_long(const char *name)
{
    const char *s = getenv(name);
    uint64_t v;
    if (!s || !mpp_units_u64(s, strlen(s), &v) || v > INT_MAX)
        return -1;
    return (long)v;
}

int mpp_mpi_start(mpp_mpi *m, mpp_err *err)
{
    memset(m, 0, sizeof *m);
    long size = env_long("OMPI_COMM_WORLD_SIZE");
    if (size < 0)
        size = env_long("PMI_SIZE");
    bool launched = size >= 0 || getenv("PMI_RANK") || getenv("PMIX_RANK");
    if (!launched)
        return 0; /* invariant 4 */
    int ok = 0;
    MPI_Initialized(&ok);
    /* the threads MPI starts block SIGINT, SIGTERM, SIGHUP and SIGCONT:
     * they reach the main thread (the runner's handlers) or the master's
     * watch thread, never a thread of the MPI library (blocked, SIGCONT
     * still continues a stopped process) */
    sigset_t sigs, old;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    sigaddset(&sigs, SIGHUP);
    sigaddset(&sigs, SIGCONT);
    pthread_sigmask(SIG_BLOCK, &sigs, &old);
    int irc = ok ? MPI_SUCCESS : MPI_Init(NULL, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (irc != MPI_SUCCESS)
        return mpp_err_set(err, MPP_EIO, "MPI_Init failed");
    m->on = true;
    /* errors are returned, not fatal: Open MPI would otherwise end rank 0
     * at once when a rank dies (its errhandler runs on the launcher's
     * notice), before rank 0 reports what was lost */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &m->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &m->size);
    if (size > 0 && size != m->size)
        return mpp_err_set(err, MPP_EINVAL,
                           "launched as one of %ld processes, but MPI sees %d: this mppnet was "
                           "built with another MPI than the mpirun that started it (use that "
                           "MPI's mpirun, or build with -Dmpi_impl=...)",
                           size, m->size);
    return 0;
}

void mpp_mpi_end(mpp_mpi *m)
{
    if (m->on) {
        int fin = 0;
        MPI_Finalized(&fin);
        if (!fin)
            MPI_Finalize();
    }
    m->on = false;
}

void mpp_mpi_abort(mpp_mpi *m, int status)
{
    fflush(stdout);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, status);
    _exit(status); /* (MPI_Abort does not return) */
}

int mpp_mpi_send_setup(mpp_mpi *m, const void *buf, size_t len)
{
    if (m->sent || !m->on || m->size < 2)
        return 0;
    m->sent = true;
    uint64_t n = len;
    if (MPI_Bcast(&n, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
        return MPP_EIO;
    if (n && MPI_Bcast((void *)buf, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
        return MPP_EIO;
    return 0;
}

int mpp_mpi_recv_setup(mpp_mpi *m, size_t max, char **buf, size_t *len, mpp_err *err)
{
    *buf = NULL;
    *len = 0;
    uint64_t n = 0;
    if (MPI_Bcast(&n, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
        return mpp_err_set(err, MPP_EIO, "rank %d: no setup from rank 0", m->rank);
    if (!n)
        return 0;
    if (n > max || n > INT_MAX)
        return mpp_err_set(err, MPP_EFORMAT,
                           "rank %d: rank 0 announced a setup of %" PRIu64 " bytes (at most %zu)",
                           m->rank, n, max);
    *buf = malloc((size_t)n);
    if (!*buf)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    if (MPI_Bcast(*buf, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD) != MPI_SUCCESS) {
        free(*buf);
        *buf = NULL;
        return mpp_err_set(err, MPP_EIO, "rank %d: the setup did not arrive", m->rank);
    }
    *len = (size_t)n;
    return 0;
}

int mpp_mpi_hello(const mpp_mpi *m, uint32_t jobs)
{
    hello h;
    memset(&h, 0, sizeof h);
    h.magic = HELLO_MAGIC;
    h.jobs = jobs;
    h.pid = (int64_t)getpid();
    if (gethostname(h.host, sizeof h.host - 1) != 0)
        snprintf(h.host, sizeof h.host, "?");
    h.host[sizeof h.host - 1] = '\0';
    return MPI_Send(&h, (int)sizeof h, MPI_BYTE, 0, TAG_HELLO, MPI_COMM_WORLD) == MPI_SUCCESS
               ? 0
               : MPP_EIO;
}

bool mpp_mpi_request(const mpp_mpi *m, size_t nruns, size_t *run, mpp_err *err)
{
    mpp_err_clear(err);
    if (MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_READY, MPI_COMM_WORLD) != MPI_SUCCESS) {
        mpp_err_set(err, MPP_EIO, "rank %d: cannot reach rank 0", m->rank);
        return false;
    }
    MPI_Status st;
    if (MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &st) != MPI_SUCCESS) {
        mpp_err_set(err, MPP_EIO, "rank %d: no reply from rank 0", m->rank);
        return false;
    }
    int count = 0;
    MPI_Get_count(&st, MPI_BYTE, &count);
    uint64_t idx = UINT64_MAX;
    if (st.MPI_TAG == TAG_STOP && count == 0) {
        MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_STOP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        return false;
    }
    if (st.MPI_TAG == TAG_RUN && count == (int)sizeof idx) {
        MPI_Recv(&idx, (int)sizeof idx, MPI_BYTE, 0, TAG_RUN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (idx < nruns) { /* invariant 1 */
            *run = (size_t)idx;
            return true;
        }
        mpp_err_set(err, MPP_EFORMAT, "rank %d: rank 0 sent run %" PRIu64 " of %zu runs", m->rank,
                    idx, nruns);
        return false;
    }
    /* anything else: take it off the line, refuse it */
    char *junk = malloc(count > 0 ? (size_t)count : 1);
    MPI_Recv(junk, count, MPI_BYTE, 0, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    free(junk);
    mpp_err_set(err, MPP_EFORMAT, "rank %d: unexpected message (tag %d, %d bytes) from rank 0",
                m->rank, st.MPI_TAG, count);
    return false;
}

int mpp_mpi_send_result(const mpp_mpi *m, size_t run, const void *buf, size_t len, mpp_err *err)
{
    uint64_t idx = run;
    if (len > (size_t)INT_MAX - sizeof idx)
        return mpp_err_set(err, MPP_EINVAL,
                           "rank %d: run %zu: a record of %zu bytes is too large for one MPI "
                           "message",
                           m->rank, run, len);
    char *msg = malloc(sizeof idx + len);
    if (!msg)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    memcpy(msg, &idx, sizeof idx);
    memcpy(msg + sizeof idx, buf, len);
    int rc = MPI_Ssend(msg, (int)(sizeof idx + len), MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD);
    free(msg);
    return rc == MPI_SUCCESS ? 0 : mpp_err_set(err, MPP_EIO, "rank %d: cannot reach rank 0",
                                               m->rank);
}

void mpp_mpi_bye(const mpp_mpi *m, uint32_t lost)
{
    MPI_Send(&lost, (int)sizeof lost, MPI_BYTE, 0, TAG_BYE, MPI_COMM_WORLD);
}

void mpp_mpi_test_die(const mpp_mpi *m, uint64_t sent)
{
    const char *s = getenv("MPPNET_TEST_MPI_DIE");
    const char *colon = s ? strchr(s, ':') : NULL;
    uint64_t r, k;
    if (!colon || !mpp_units_u64(s, (size_t)(colon - s), &r) ||
        !mpp_units_u64(colon + 1, strlen(colon + 1), &k))
        return;
    if (r == (uint64_t)m->rank && r > 0 && sent >= k)
        raise(SIGKILL);
}

/* ---- the master ---------------------------------------------------------- */

typedef struct peer {
    bool hello, bye;
    uint32_t jobs;
    int64_t pid;
    char host[HOST_MAX];
} peer;

typedef struct master {
    mpp_mpi *m;
    const mpp_mpi_master_ops *ops;
    void *ud;
    size_t nruns;
    peer *peers;       /* [size] */
    int *owner;        /* [nruns]: the rank a run is handed to, or -1 */
    int nbye;
    int rc;
    atomic_size_t nrecorded; /* results ops->result took */
    char host[HOST_MAX];
    /* the watch thread (watch_main): peers, owner, nbye and nrecorded
     * change, and ops->result and ops->idle run, only under `lock`;
     * whoever sets `reported` first reports */
    pthread_mutex_t lock;
    atomic_flag reported;
    atomic_bool done;  /* the loop is over: the watch thread ends */
    atomic_bool alert; /* a SIGCONT came: the job may end any moment */
    atomic_flag noticed; /* a notice was printed */
    volatile sig_atomic_t *stop;
    sigset_t sigs;     /* SIGINT, SIGTERM, SIGHUP: blocked, taken by the watch */
} master;

/* "rank 2 (host node7, pid 1234)" into buf. */
static const char *who(const master *ms, int r, char *buf, size_t len)
{
    const peer *p = &ms->peers[r];
    if (p->hello)
        snprintf(buf, len, "rank %d (host %s, pid %" PRId64 ")", r, p->host, p->pid);
    else
        snprintf(buf, len, "rank %d", r);
    return buf;
}

static void note(master *ms)
{
    if (ms->ops->clear)
        ms->ops->clear(ms->ud);
    fflush(stdout);
}

/* The runs rank r holds are lost (it said BYE with them, or sent garbage). */
static void lose_runs(master *ms, int r, const char *why)
{
    char w[160];
    for (size_t i = 0; i < ms->nruns; i++) {
        if (ms->owner[i] != r)
            continue;
        ms->owner[i] = -1;
        note(ms);
        mpp_args_eprintf("mppnet: run %zu was lost on %s: %s\n", i, who(ms, r, w, sizeof w), why);
        ms->rc = 1;
    }
}

/* Take one message (st) off the line and act on it. */
static void take(master *ms, const MPI_Status *st)
{
    int r = st->MPI_SOURCE, count = 0;
    MPI_Get_count(st, MPI_BYTE, &count);
    char *buf = malloc(count > 0 ? (size_t)count : 1);
    char w[160];
    if (!buf) {
        note(ms);
        mpp_args_eprintf("mppnet: out of memory for a message of %d bytes from %s\n", count,
                         who(ms, r, w, sizeof w));
        MPI_Recv(NULL, 0, MPI_BYTE, r, st->MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        ms->rc = 1;
        return;
    }
    MPI_Recv(buf, count, MPI_BYTE, r, st->MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    peer *p = &ms->peers[r];
    const char *bad = NULL;
    switch (st->MPI_TAG) {
    case TAG_HELLO: {
        hello h;
        if (count != (int)sizeof h || p->hello) {
            bad = "a malformed or second HELLO";
            break;
        }
        memcpy(&h, buf, sizeof h);
        if (h.magic != HELLO_MAGIC || h.jobs < 1 || h.jobs > MAX_JOBS ||
            !memchr(h.host, '\0', sizeof h.host)) {
            bad = "a HELLO of another program or version";
            break;
        }
        pthread_mutex_lock(&ms->lock);
        p->hello = true;
        p->jobs = h.jobs;
        p->pid = h.pid;
        memcpy(p->host, h.host, sizeof p->host);
        pthread_mutex_unlock(&ms->lock);
        break;
    }
    case TAG_READY: {
        if (count != 0 || !p->hello || p->bye) {
            bad = "a READY out of turn";
            if (!p->bye) /* (it waits for a reply: no run for it) */
                MPI_Send(NULL, 0, MPI_BYTE, r, TAG_STOP, MPI_COMM_WORLD);
            break;
        }
        size_t run;
        if (ms->ops->next(ms->ud, &run)) {
            uint64_t idx = run;
            pthread_mutex_lock(&ms->lock);
            ms->owner[run] = r;
            pthread_mutex_unlock(&ms->lock);
            MPI_Send(&idx, (int)sizeof idx, MPI_BYTE, r, TAG_RUN, MPI_COMM_WORLD);
            if (ms->ops->started)
                ms->ops->started(ms->ud, run, r, p->host);
        } else {
            MPI_Send(NULL, 0, MPI_BYTE, r, TAG_STOP, MPI_COMM_WORLD);
        }
        break;
    }
    case TAG_RESULT: {
        uint64_t idx;
        if (count < (int)sizeof idx) {
            bad = "a RESULT without a run index";
            break;
        }
        memcpy(&idx, buf, sizeof idx);
        if (idx >= ms->nruns || ms->owner[idx] != r) { /* invariant 1 */
            note(ms);
            mpp_args_eprintf("mppnet: %s sent a result for run %" PRIu64 ", which it was not "
                             "running: ignored\n",
                             who(ms, r, w, sizeof w), idx);
            ms->rc = 1;
            break;
        }
        mpp_err err;
        mpp_err_clear(&err);
        pthread_mutex_lock(&ms->lock);
        ms->owner[idx] = -1;
        int rrc = ms->ops->result(ms->ud, (size_t)idx, r, buf + sizeof idx,
                                  (size_t)count - sizeof idx, &err);
        if (!rrc)
            atomic_fetch_add(&ms->nrecorded, 1);
        pthread_mutex_unlock(&ms->lock);
        if (rrc) {
            note(ms);
            mpp_args_eprintf("mppnet: run %" PRIu64 " was lost: %s sent a record that is not "
                             "one: %s\n",
                             idx, who(ms, r, w, sizeof w), err.msg);
            ms->rc = 1;
        }
        break;
    }
    case TAG_BYE: {
        uint32_t lost;
        if (count != (int)sizeof lost || p->bye) {
            bad = "a malformed or second BYE";
            break;
        }
        memcpy(&lost, buf, sizeof lost);
        pthread_mutex_lock(&ms->lock);
        p->bye = true;
        ms->nbye++;
        lose_runs(ms, r, "its worker process failed");
        pthread_mutex_unlock(&ms->lock);
        break;
    }
    default:
        bad = "a message of an unknown kind";
        break;
    }
    if (bad) {
        note(ms);
        mpp_args_eprintf("mppnet: %s sent %s (tag %d, %d bytes): ignored\n",
                         who(ms, r, w, sizeof w), bad, st->MPI_TAG, count);
        ms->rc = 1;
    }
    free(buf);
}

/* What was in progress where, and which ranks of this host are gone
 * already, to ops->stopped: `final` after a stopping signal, else the
 * notice of a SIGCONT (see watch_main). The report is kept beside the
 * records (ops->stopped), as mpirun may no longer pass on what the ranks
 * print while it ends the job. `watch`: on the watch thread. */
static void report_stop(master *ms, bool watch, bool final)
{
    char w[160];
    mpp_sb sb;
    mpp_sb_init(&sb);
    /* (the watch thread waits a little for a main thread busy in a write) */
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += 300000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    bool locked = pthread_mutex_timedlock(&ms->lock, &until) == 0;
    size_t ngone = 0;
    if (!locked)
        mpp_sb_add(&sb, "mppnet: (rank 0 was busy: which runs were in progress is not known)\n");
    for (int r = 1; locked && r < ms->m->size; r++) {
        const peer *p = &ms->peers[r];
        bool gone = p->hello && !p->bye && !strcmp(p->host, ms->host) && p->pid > 0 &&
                    kill((pid_t)p->pid, 0) != 0 && errno == ESRCH;
        size_t held = 0;
        for (size_t i = 0; i < ms->nruns; i++)
            held += ms->owner[i] == r;
        ngone += gone;
        if (!gone && !held)
            continue;
        mpp_sb_printf(&sb, "mppnet: %s %s", who(ms, r, w, sizeof w),
                      gone ? "is gone (it died or was killed)" : "was stopped");
        if (held) {
            mpp_sb_printf(&sb, ", losing run%s", held == 1 ? "" : "s");
            size_t k = 0;
            for (size_t i = 0; i < ms->nruns && k < 12; i++)
                if (ms->owner[i] == r)
                    mpp_sb_printf(&sb, "%s %zu", k++ ? "," : "", i);
            if (held > 12)
                mpp_sb_add(&sb, ", ...");
        }
        mpp_sb_addc(&sb, '\n');
    }
    const char *text = mpp_sb_ok(&sb) && sb.s ? sb.s : "";
    if (!watch)
        note(ms); /* (the bar is the main thread's) */
    /* a notice is printed too, once, when a rank is seen gone: then it is
     * no shell's `fg`, and mpirun may pass on no more after its SIGTERM */
    bool print = final || (ngone && !atomic_flag_test_and_set(&ms->noticed));
    if (ms->ops->stopped)
        ms->ops->stopped(ms->ud, text, atomic_load(&ms->nrecorded), final, print);
    else if (print)
        mpp_args_eprintf("%s", text);
    /* the main thread may never write them: the files, now */
    if ((watch || !final) && locked && ms->ops->flush)
        ms->ops->flush(ms->ud);
    if (locked)
        pthread_mutex_unlock(&ms->lock);
    mpp_sb_free(&sb);
}

/* The watch thread: it takes SIGINT, SIGTERM, SIGHUP and SIGCONT
 * (blocked in every other thread). Open MPI's mpirun ends a job that lost
 * a rank with SIGCONT, a second later SIGTERM and at once SIGKILL (its
 * odls_base_sigkill_timeout): SIGTERM leaves no time, and the main thread
 * may be inside an MPI call that never returns then. So a SIGCONT is
 * taken as the notice: the report as it stands (ranks gone, runs in
 * progress) and the result files are written at once, and again after
 * every result from then on (a SIGCONT that was only a shell's `fg`
 * costs that, and the runner removes the report at a normal end). A
 * stopping signal sets *stop and is reported from here, at once, not
 * waiting for MPI. */
static void *watch_main(void *arg)
{
    master *ms = arg;
    const struct timespec tick = {0, 20000000L};
    while (!atomic_load(&ms->done)) {
        int sig = sigtimedwait(&ms->sigs, NULL, &tick);
        if (sig <= 0)
            continue;
        if (sig == SIGCONT) {
            atomic_store(&ms->alert, true);
            report_stop(ms, true, false);
            continue;
        }
        *ms->stop = sig;
        if (!atomic_flag_test_and_set(&ms->reported))
            report_stop(ms, true, true);
        break;
    }
    return NULL;
}

int mpp_mpi_master(mpp_mpi *m, const mpp_mpi_master_ops *ops, void *ud, size_t nruns,
                   volatile sig_atomic_t *stop)
{
    master ms = {.m = m, .ops = ops, .ud = ud, .nruns = nruns};
    ms.peers = calloc((size_t)m->size, sizeof *ms.peers);
    ms.owner = malloc((nruns ? nruns : 1) * sizeof *ms.owner);
    if (!ms.peers || !ms.owner) {
        free(ms.peers);
        free(ms.owner);
        mpp_args_eprintf("mppnet: out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < nruns; i++)
        ms.owner[i] = -1;
    if (gethostname(ms.host, sizeof ms.host - 1) != 0)
        ms.host[0] = '\0';
    ms.host[sizeof ms.host - 1] = '\0';
    pthread_mutex_init(&ms.lock, NULL);
    atomic_flag_clear(&ms.reported);
    atomic_init(&ms.done, false);
    ms.stop = stop;
    sigemptyset(&ms.sigs);
    sigaddset(&ms.sigs, SIGINT);
    sigaddset(&ms.sigs, SIGTERM);
    sigaddset(&ms.sigs, SIGHUP);
    sigaddset(&ms.sigs, SIGCONT);
    atomic_init(&ms.alert, false);
    atomic_flag_clear(&ms.noticed);
    atomic_init(&ms.nrecorded, 0);
    sigset_t old;
    pthread_sigmask(SIG_BLOCK, &ms.sigs, &old);
    pthread_t watch;
    bool watching = pthread_create(&watch, NULL, watch_main, &ms) == 0;
    if (!watching) /* (then the runner's handlers take them, as before) */
        pthread_sigmask(SIG_SETMASK, &old, NULL);
    /* a short sleep when the line is quiet: a signal ends it (EINTR) */
    const struct timespec nap = {0, 1000000};
    bool broken = false;
    while (ms.nbye < m->size - 1 && !*stop) {
        int flag = 0;
        MPI_Status st;
        if (MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st) != MPI_SUCCESS) {
            note(&ms);
            mpp_args_eprintf("mppnet: MPI failed while waiting for the ranks (a rank died?)\n");
            broken = true;
            *stop = -1;
            break;
        }
        if (*stop)
            break; /* (a message found now is not taken: see below) */
        if (!flag) {
            if (ops->idle) {
                pthread_mutex_lock(&ms.lock);
                ops->idle(ud);
                pthread_mutex_unlock(&ms.lock);
            }
            nanosleep(&nap, NULL);
            continue;
        }
        take(&ms, &st);
        if (atomic_load(&ms.alert) && !*stop)
            report_stop(&ms, false, false); /* (the job may end any moment) */
    }
    /* No MPI call after a signal: while mpirun ends the job, Open MPI's
     * progress may hang until the SIGKILL that follows; and nothing is
     * left to take (invariant 3). */
    if ((*stop || broken) && !atomic_flag_test_and_set(&ms.reported))
        report_stop(&ms, false, true);
    if (*stop || broken)
        ms.rc = 1;
    atomic_store(&ms.done, true);
    if (watching) {
        pthread_join(watch, NULL);
        pthread_sigmask(SIG_SETMASK, &old, NULL); /* (a pending signal: on_signal now) */
    }
    pthread_mutex_destroy(&ms.lock);
    free(ms.peers);
    free(ms.owner);
    return ms.rc;
}
