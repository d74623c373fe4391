/* test/test_mpi_replay.c — the `mpi` workload (algorithms/wl_mpi.c) on
 * traces built in memory through the trace builder (traces/mpitrace.h):
 * the CM-5 pingpong and shift studies written as MPI programs agree with
 * the built-in `pingpong` and `shift` workloads within 5% at 16 B and 4 KB;
 * a wildcard receive replays as it matched; nonblocking requests with
 * Waitany; collectives on a split communicator; eager against rendezvous;
 * the deadlock report names the rank, the call and its index; more ranks
 * than nodes and an unsupported call are refused with their messages. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "algorithms/wl_mpi.h"
#include "core/base/strbuf.h"
#include "core/config/experiment.h"
#include "test/testutil.h"
#include "traces/mpitrace.h"

/* --- building traces ------------------------------------------------------ */

typedef struct tb {
    mpp_mpitb *b;
    mpp_err err;
    int bad;
} tb;

static void tb_new(tb *t, uint32_t n)
{
    memset(t, 0, sizeof *t);
    t->b = mpp_mpitb_new(n, MPP_MPITRACE_CAPTURE, &t->err);
    CHECKF(t->b != NULL, "%s", t->err.msg);
    if (t->b)
        mpp_mpitb_where(t->b, "test", 0);
}

static void ev_add(tb *t, uint32_t r, mpp_mpi_event ev, const uint64_t *vals,
                   const mpp_mpitb_status *st, uint32_t n)
{
    if (t->bad || !t->b)
        return;
    if (mpp_mpitb_add(t->b, r, &ev, vals, st, n)) {
        CHECKF(0, "add: %s", t->b ? "builder refused an event" : "");
        t->bad = 1;
    }
}

static void p_send(tb *t, uint32_t r, int call, uint32_t dst, uint32_t tag, uint64_t bytes)
{
    ev_add(t, r, (mpp_mpi_event){.call = (uint8_t)call, .peer = dst, .tag = tag, .bytes = bytes},
           NULL, NULL, 0);
}

static void p_isend(tb *t, uint32_t r, uint32_t dst, uint32_t tag, uint64_t bytes, uint32_t req)
{
    ev_add(t, r, (mpp_mpi_event){.call = MPP_MPI_ISEND, .peer = dst, .tag = tag, .bytes = bytes,
                                 .req = req},
           NULL, NULL, 0);
}

static void p_recv(tb *t, uint32_t r, uint32_t src, uint32_t tag, uint64_t bytes)
{
    ev_add(t, r, (mpp_mpi_event){.call = MPP_MPI_RECV, .peer = src, .tag = tag, .bytes = bytes},
           NULL, NULL, 0);
}

static void p_irecv(tb *t, uint32_t r, uint32_t src, uint32_t tag, uint32_t req)
{
    ev_add(t, r, (mpp_mpi_event){.call = MPP_MPI_IRECV, .peer = src, .tag = tag, .req = req},
           NULL, NULL, 0);
}

/* A completion of n requests: ids, and for receives their status. */
static void p_wait(tb *t, uint32_t r, int call, uint32_t n, const uint64_t *ids,
                   const mpp_mpitb_status *st)
{
    ev_add(t, r, (mpp_mpi_event){.call = (uint8_t)call}, ids, st, n);
}

static void p_coll(tb *t, uint32_t r, int call, uint32_t comm, uint32_t root, uint64_t bytes)
{
    ev_add(t, r, (mpp_mpi_event){.call = (uint8_t)call, .comm = comm, .peer = root,
                                 .bytes = bytes},
           NULL, NULL, 0);
}

static mpp_mpitrace *tb_finish(tb *t)
{
    if (!t->b)
        return NULL;
    for (uint32_t r = 0; !t->bad && r < 1024; r++)
        if (mpp_mpitb_end(t->b, r, 0))
            break; /* past the last rank */
    mpp_mpitrace *tr = NULL;
    if (t->bad) {
        mpp_mpitb_free(t->b);
        return NULL;
    }
    int rc = mpp_mpitb_finish(t->b, &tr);
    CHECKF(rc == 0, "finish: %s", t->err.msg);
    return rc ? NULL : tr;
}

/* --- running ----------------------------------------------------------------- */

static mpp_mpitrace *g_trace; /* the next run's trace (taken by its setup) */

static int test_setup(mpp_sim *s, const void *cfg, void **priv, mpp_err *err)
{
    mpp_mpitrace *t = g_trace;
    g_trace = NULL;
    return mpp_mpi_replay_setup(s, cfg, t, priv, err);
}

typedef struct outcome {
    int rc;
    char msg[512];
    char report[4096];
    double time_us;
    uint64_t messages;
    mpp_mpi_report rep;
    mpp_mpi_rank_report ranks[64];
} outcome;

/* Replay trace t on a machine preset with overrides ov[0..nov). */
static void replay(mpp_mpitrace *t, const char *machine, const char *const *ov, size_t nov,
                   outcome *o)
{
    memset(o, 0, sizeof *o);
    o->time_us = NAN;
    char text[256];
    snprintf(text, sizeof text, "mppnet: 1\nmachine: %s\nworkload: {type: mpi, trace: mem}\n",
             machine);
    mpp_err err;
    mpp_experiment *e = mpp_experiment_parse(text, "t.yaml", nov, ov, &err);
    CHECKF(e != NULL, "%s", err.msg);
    if (!e) {
        mpp_mpitrace_free(t);
        o->rc = -1;
        return;
    }
    static mpp_workload_ops ops;
    ops = *mpp_workload_find("mpi");
    ops.setup = test_setup;
    mpp_sim_config c = *mpp_experiment_config(e, 0);
    c.workload.ops = &ops;
    g_trace = t;
    mpp_sim *s = mpp_sim_create(&c, &err);
    mpp_mpitrace_free(g_trace); /* not taken when the setup did not run */
    g_trace = NULL;
    if (!s) {
        o->rc = err.code ? err.code : -1;
        snprintf(o->msg, sizeof o->msg, "%s", err.msg);
        mpp_experiment_destroy(e);
        return;
    }
    o->rc = mpp_sim_run(s, NULL, NULL, &err);
    if (o->rc)
        snprintf(o->msg, sizeof o->msg, "%s", err.msg);
    snprintf(o->report, sizeof o->report, "%s", mpp_sim_report(s));
    const mpp_sim_result *r = mpp_sim_result_get(s);
    o->time_us = r->extra[0].d;
    o->messages = r->messages;
    const mpp_mpi_report *rep = mpp_mpi_report_get(s);
    if (rep) {
        o->rep = *rep;
        for (uint32_t i = 0; i < rep->nranks && i < 64; i++)
            o->ranks[i] = rep->rank[i];
        o->rep.rank = NULL;
        o->rep.pair_msgs = o->rep.pair_bytes = NULL;
    }
    mpp_sim_destroy(s);
    mpp_experiment_destroy(e);
}

/* A built-in workload's result column on a preset. */
static double builtin(const char *yaml, const char *const *ov, size_t nov, const char *column)
{
    mpp_err err;
    mpp_experiment *e = mpp_experiment_parse(yaml, "b.yaml", nov, ov, &err);
    CHECKF(e != NULL, "%s", err.msg);
    if (!e)
        return NAN;
    double v = NAN;
    mpp_sim *s = mpp_sim_create(mpp_experiment_config(e, 0), &err);
    CHECKF(s != NULL, "%s", err.msg);
    if (s && mpp_sim_run(s, NULL, NULL, &err) == 0) {
        const mpp_sim_result *r = mpp_sim_result_get(s);
        const mpp_workload_ops *w = mpp_experiment_config(e, 0)->workload.ops;
        for (uint32_t i = 0; i < w->ncolumns; i++)
            if (!strcmp(w->columns[i].name, column))
                v = r->extra[i].d;
        if (!strcmp(column, "makespan_ms"))
            v = r->makespan_ms;
    } else if (s) {
        CHECKF(0, "%s", err.msg);
    }
    mpp_sim_destroy(s);
    mpp_experiment_destroy(e);
    return v;
}

/* --- the studies ---------------------------------------------------------------- */

/* Pingpong: rank 0 sends B to rank 1 and receives B back, R times. */
static mpp_mpitrace *pingpong_trace(uint64_t B, uint32_t R)
{
    tb t;
    tb_new(&t, 2);
    for (uint32_t i = 0; i < R; i++) {
        p_send(&t, 0, MPP_MPI_SEND, 1, 0, B);
        p_recv(&t, 0, 1, 0, B);
        p_recv(&t, 1, 0, 0, B);
        p_send(&t, 1, MPP_MPI_SEND, 0, 0, B);
    }
    return tb_finish(&t);
}

static void test_pingpong(void)
{
    static const char *const sizes[] = {"16", "4096"};
    const uint32_t R = 50;
    for (int k = 0; k < 2; k++) {
        uint64_t B = (uint64_t)atoi(sizes[k]);
        outcome o;
        replay(pingpong_trace(B, R), "cm5", NULL, 0, &o);
        CHECKF(o.rc == 0, "pingpong %s: %s", sizes[k], o.msg);
        double mine = o.time_us / (2.0 * R);
        char ov[64];
        snprintf(ov, sizeof ov, "workload.bytes=%s", sizes[k]);
        const char *const ovs[] = {ov};
        double ref = builtin("mppnet: 1\nmachine: cm5\nworkload: {type: pingpong, round_trips: 50}\n",
                             ovs, 1, "half_round_trip_us");
        printf("pingpong %5s B: replay %8.2f us one way, built-in %8.2f us (%+.2f%%)\n",
               sizes[k], mine, ref, 100 * (mine / ref - 1));
        CHECKF(fabs(mine / ref - 1) < 0.05, "pingpong %s B: replay %.2f us, built-in %.2f us",
               sizes[k], mine, ref);
        CHECK(o.rep.messages == 2 * R);
    }
}

/* Shift: every rank posts receives from both ring neighbours, sends B to
 * each, waits for all four, then a barrier, R rounds. */
static mpp_mpitrace *shift_trace(uint32_t N, uint64_t B, uint32_t R)
{
    tb t;
    tb_new(&t, N);
    for (uint32_t r = 0; r < N; r++) {
        uint32_t right = (r + 1) % N, left = (r + N - 1) % N;
        for (uint32_t i = 0; i < R; i++) {
            uint32_t q = 4 * i;
            p_irecv(&t, r, left, 0, q);
            p_irecv(&t, r, right, 1, q + 1);
            p_isend(&t, r, right, 0, B, q + 2);
            p_isend(&t, r, left, 1, B, q + 3);
            uint64_t ids[4] = {q, q + 1, q + 2, q + 3};
            mpp_mpitb_status st[4] = {{left, 0, B}, {right, 1, B}, {MPP_MPI_NONE, 0, 0},
                                      {MPP_MPI_NONE, 0, 0}};
            p_wait(&t, r, MPP_MPI_WAITALL, 4, ids, st);
            p_coll(&t, r, MPP_MPI_BARRIER, 0, 0, 0);
        }
    }
    return tb_finish(&t);
}

static void test_shift(void)
{
    static const char *const sizes[] = {"16", "4096"};
    const uint32_t R = 20;
    for (int k = 0; k < 2; k++) {
        uint64_t B = (uint64_t)atoi(sizes[k]);
        outcome o;
        /* CMAML's PUT: an eager block transfer (docs/capture.md) */
        const char *const ov[] = {"node.eager_bytes=1MiB"};
        replay(shift_trace(32, B, R), "cm5", ov, 1, &o);
        CHECKF(o.rc == 0, "shift %s: %s", sizes[k], o.msg);
        double mine = o.time_us / R;
        char ovb[64];
        snprintf(ovb, sizeof ovb, "workload.bytes=%s", sizes[k]);
        const char *const ovs[] = {ovb};
        double ref = 1000.0 / R *
                     builtin("mppnet: 1\nmachine: cm5\nworkload: {type: shift, library: put, "
                             "rounds: 20}\n",
                             ovs, 1, "makespan_ms");
        printf("shift    %5s B: replay %8.2f us a round, built-in %8.2f us (%+.2f%%)\n",
               sizes[k], mine, ref, 100 * (mine / ref - 1));
        CHECKF(fabs(mine / ref - 1) < 0.05, "shift %s B: replay %.2f us, built-in %.2f us",
               sizes[k], mine, ref);
    }
}

/* A wildcard receive replays as it matched; Waitany completes what the
 * capture says it completed. */
static void test_wildcard_waitany(void)
{
    tb t;
    tb_new(&t, 3);
    p_send(&t, 0, MPP_MPI_SEND, 2, 5, 64);
    p_send(&t, 1, MPP_MPI_SEND, 2, 6, 128);
    /* MPI_ANY_SOURCE, MPI_ANY_TAG: matched 1 first, then 0 */
    p_recv(&t, 2, 1, 6, 128);
    p_recv(&t, 2, 0, 5, 64);
    p_irecv(&t, 0, 2, 9, 0);
    p_irecv(&t, 1, 2, 9, 0);
    p_send(&t, 2, MPP_MPI_SEND, 1, 9, 32);
    p_send(&t, 2, MPP_MPI_SEND, 0, 9, 32);
    uint64_t id0 = 0;
    mpp_mpitb_status st0 = {2, 9, 32};
    p_wait(&t, 0, MPP_MPI_WAITANY, 1, &id0, &st0);
    p_wait(&t, 1, MPP_MPI_WAITANY, 1, &id0, &st0);
    /* rank 2: two isends completed by Waitany one at a time, a test that
     * completed nothing in between */
    p_isend(&t, 2, 0, 3, 4096, 0);
    p_isend(&t, 2, 1, 3, 4096, 1);
    p_recv(&t, 0, 2, 3, 4096);
    p_recv(&t, 1, 2, 3, 4096);
    uint64_t a = 1, b = 0;
    p_wait(&t, 2, MPP_MPI_WAITANY, 1, &a, NULL);
    p_wait(&t, 2, MPP_MPI_TESTANY, 0, NULL, NULL);
    p_wait(&t, 2, MPP_MPI_WAITANY, 1, &b, NULL);
    outcome o;
    replay(tb_finish(&t), "cm5", NULL, 0, &o);
    CHECKF(o.rc == 0, "wildcard/waitany: %s\n%s", o.msg, o.report);
    CHECKF(o.rep.messages == 6, "%llu messages", (unsigned long long)o.rep.messages);
    CHECK(o.rep.call[MPP_MPI_WAITANY].count == 4 && o.rep.call[MPP_MPI_TESTANY].count == 1);
    CHECK(o.ranks[2].messages == 4 && o.ranks[2].bytes == 2 * 32 + 2 * 4096);
}

/* Collectives on the two halves of a split communicator, plug-ins and
 * direct schedules, and the control network for the world's barrier. */
static void test_split_collectives(const char *machine)
{
    const uint32_t N = 8;
    tb t;
    tb_new(&t, N);
    for (uint32_t r = 0; r < N; r++) {
        uint32_t mem[4];
        for (uint32_t i = 0; i < 4; i++)
            mem[i] = (r & 1) + 2 * i;
        ev_add(&t, r, (mpp_mpi_event){.call = MPP_MPI_COMM_SPLIT, .comm = 0}, NULL, NULL, 0);
        if (!t.bad && mpp_mpitb_comm(t.b, r, 2, mem, 4)) {
            CHECKF(0, "comm: %s", t.err.msg);
            t.bad = 1;
        }
        p_coll(&t, r, MPP_MPI_BCAST, 2, r & 1, 1024);
        p_coll(&t, r, MPP_MPI_ALLREDUCE, 2, 0, 64);
        p_coll(&t, r, MPP_MPI_ALLTOALL, 2, 0, 256);
        uint64_t v[4] = {100, 0, 300, 400};
        ev_add(&t, r, (mpp_mpi_event){.call = MPP_MPI_GATHERV, .comm = 2, .peer = r & 1,
                                      .bytes = v[r / 2]},
               v, NULL, r < 2 ? 4 : 0);
        p_coll(&t, r, MPP_MPI_BARRIER, 0, 0, 0);
        p_coll(&t, r, MPP_MPI_ALLTOALL, 0, 0, 32);
    }
    outcome o;
    replay(tb_finish(&t), machine, NULL, 0, &o);
    CHECKF(o.rc == 0, "split collectives on %s: %s\n%s", machine, o.msg, o.report);
    CHECK(o.rep.collectives == 6 * N);
    CHECKF(o.time_us > 0 && o.rep.messages > 0, "%s: %g us, %llu messages", machine, o.time_us,
           (unsigned long long)o.rep.messages);
}

/* Eager against rendezvous: the handshake costs a 1 KB pingpong time. */
static void test_eager_rendezvous(void)
{
    const char *const eager[] = {"node.eager_bytes=64KiB"};
    outcome a, b;
    replay(pingpong_trace(1024, 10), "cm5", NULL, 0, &a);
    replay(pingpong_trace(1024, 10), "cm5", eager, 1, &b);
    CHECKF(a.rc == 0 && b.rc == 0, "%s %s", a.msg, b.msg);
    printf("1 KB pingpong: rendezvous %.2f us, eager %.2f us\n", a.time_us, b.time_us);
    CHECKF(b.time_us < a.time_us, "eager %.2f us, rendezvous %.2f us", b.time_us, a.time_us);
    /* an eager message sent before its receive is posted is buffered and
     * copied out: rank 1 computes first (fixed cycles before each call) */
    tb t;
    tb_new(&t, 2);
    p_send(&t, 0, MPP_MPI_SEND, 1, 0, 1024);
    p_recv(&t, 1, 0, 0, 1024);
    outcome c;
    replay(tb_finish(&t), "cm5", eager, 1, &c);
    CHECKF(c.rc == 0, "%s", c.msg);
}

/* A receive that no send matches: deadlock (exit 1) with the rank, the
 * call and its index. */
static void test_deadlock(void)
{
    tb t;
    tb_new(&t, 3);
    p_send(&t, 0, MPP_MPI_SEND, 1, 1, 16);
    p_recv(&t, 1, 0, 1, 16);
    p_recv(&t, 2, 1, 7, 16);
    outcome o;
    const char *const ov[] = {"network.watchdog_cycles=5000"};
    replay(tb_finish(&t), "cm5", ov, 1, &o);
    CHECKF(o.rc == MPP_EDEADLOCK, "rc %d: %s", o.rc, o.msg);
    CHECKF(strstr(o.report, "rank 2 waits in MPI_Recv (call 0) from rank 1, tag 7") != NULL,
           "report:\n%s", o.report);
}

static void test_refusals(void)
{
    tb t;
    tb_new(&t, 40);
    for (uint32_t r = 0; r < 40; r++)
        p_coll(&t, r, MPP_MPI_BARRIER, 0, 0, 0);
    outcome o;
    replay(tb_finish(&t), "cm5", NULL, 0, &o);
    CHECKF(o.rc == MPP_EINVAL && strstr(o.msg, "the trace has 40 ranks, the machine 32 nodes"),
           "rc %d: %s", o.rc, o.msg);
    tb_new(&t, 2);
    p_send(&t, 0, MPP_MPI_SEND, 1, 0, 8);
    p_recv(&t, 1, 0, 0, 8);
    if (mpp_mpitb_unsupported(t.b, 1, "MPI_Put") == 0)
        ev_add(&t, 1, (mpp_mpi_event){.call = MPP_MPI_UNSUPPORTED}, NULL, NULL, 0);
    replay(tb_finish(&t), "cm5", NULL, 0, &o);
    CHECKF(o.rc == MPP_EINVAL &&
               strstr(o.msg, "rank 1, call 1: MPI_Put cannot be replayed: one-sided "
                             "communication is not modelled"),
           "rc %d: %s", o.rc, o.msg);
}

int main(void)
{
    test_pingpong();
    test_shift();
    test_wildcard_waitany();
    test_split_collectives("cm5");
    test_split_collectives("paragon");
    test_split_collectives("hypercube");
    test_eager_rendezvous();
    test_deadlock();
    test_refusals();
    TEST_DONE();
}
