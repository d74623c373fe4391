/* test/test_trace.c — operation and message traces (traces/trace.c): an
 * operation trace recorded from a scheduled replay and re-executed on the
 * same machine gives identical per-message cycles (plain and gzip files);
 * a message trace written from one machine replays on another; malformed,
 * truncated and corrupt files are refused with file:line. Usage:
 * test_trace SRCDIR. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "core/config/experiment.h"
#include "core/sim.h"
#include "test/testutil.h"
#include "traces/trace.h"

static char tmpdir[256];

static mpp_experiment *load(const char *text, size_t nov, const char *const *ov)
{
    mpp_err err;
    mpp_experiment *e = mpp_experiment_parse(text, "t.yaml", nov, ov, &err);
    CHECKF(e != NULL, "%s", err.msg);
    return e;
}

/* Run cfg; return the sim (caller destroys). */
static mpp_sim *run(const mpp_sim_config *cfg)
{
    mpp_err err;
    mpp_sim *s = mpp_sim_create(cfg, &err);
    CHECKF(s != NULL, "%s", err.msg);
    if (s)
        CHECKF(mpp_sim_run(s, NULL, NULL, &err) == 0, "%s", err.msg);
    return s;
}

static const char *machine_text = "mppnet: 1\n"
                                  "machine: cm5\n"
                                  "network: {cm5-fattree: {nodes: 16}}\n"
                                  "workload: {type: schedule, scheduler: cgm, d: 5, msg_unit: 256}\n";

static void test_op_trace(const char *name)
{
    mpp_experiment *e = load(machine_text, 0, NULL);
    if (!e)
        return;
    mpp_sim_config cfg = *mpp_experiment_config(e, 0);
    cfg.run.record_ops = true;
    mpp_sim *a = run(&cfg);
    if (!a) {
        mpp_experiment_destroy(e);
        return;
    }
    mpp_op_trace t = {.nodes = 16, .config_hash = mpp_experiment_hash(e, 0), .seed = cfg.run.seed};
    mpp_err err;
    for (size_t i = 0; i < mpp_sim_op_count(a); i++) {
        mpp_op_trace_entry en;
        mpp_sim_op_get(a, i, &en.node, &en.cycle, &en.op);
        CHECK(mpp_op_trace_add(&t, &en, &err) == 0);
    }
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    CHECKF(mpp_op_trace_write(path, &t, &err) == 0, "%s", err.msg);
    mpp_op_trace back;
    CHECKF(mpp_op_trace_read(path, &back, &err) == 0, "%s", err.msg);
    CHECK(back.n == t.n && back.config_hash == t.config_hash && back.seed == t.seed);
    mpp_progbuild pb;
    CHECK(mpp_trace_programs_ops(&back, 16, &pb, &err) == 0);
    mpp_progbuild_free(&pb);
    /* re-executed by the optrace workload */
    mpp_sim_config again = *mpp_experiment_config(e, 0);
    test_set(&again, "workload.type", "optrace");
    test_set(&again, "workload.file", "\"%s\"", path);
    mpp_sim *b = run(&again);
    if (b) {
        size_t n = mpp_sim_message_count(a);
        CHECK(n > 0 && n == mpp_sim_message_count(b));
        size_t same = 0;
        for (size_t i = 0; i < n && i < mpp_sim_message_count(b); i++) {
            mpp_message_record x, y;
            mpp_sim_message_get(a, i, &x);
            mpp_sim_message_get(b, i, &y);
            same += x.src == y.src && x.dst == y.dst && x.issue == y.issue &&
                    x.delivered == y.delivered && x.first_inject == y.first_inject;
        }
        CHECKF(same == n, "%zu of %zu messages identical after the replay", same, n);
        printf("operation trace %s: %zu operations, %zu messages, identical\n", name, (size_t)t.n, n);
    }
    mpp_sim_destroy(a);
    mpp_sim_destroy(b);
    mpp_op_trace_free(&t);
    mpp_op_trace_free(&back);
    mpp_experiment_destroy(e);
}

static void test_msg_trace(void)
{
    mpp_experiment *e = load(machine_text, 0, NULL);
    if (!e)
        return;
    mpp_sim *a = run(mpp_experiment_config(e, 0));
    mpp_msg_trace t = {.nodes = 16, .time_us = 1};
    mpp_err err;
    for (size_t i = 0; a && i < mpp_sim_message_count(a); i++) {
        mpp_message_record m;
        mpp_sim_message_get(a, i, &m);
        mpp_msg_trace_entry en = {(double)m.issue / 5.0, m.src, m.dst, m.bytes, 0};
        CHECK(mpp_msg_trace_add(&t, &en, &err) == 0);
    }
    char path[512];
    snprintf(path, sizeof path, "%s/m.trace.gz", tmpdir);
    CHECK(mpp_msg_trace_write(path, &t, &err) == 0);
    mpp_msg_trace back;
    CHECKF(mpp_msg_trace_read(path, &back, &err) == 0, "%s", err.msg);
    CHECK(back.n == t.n && back.nodes == 16 && back.time_us);
    /* replay on another machine: a 16-node hypercube with an ideal NIC */
    mpp_experiment *h = load("mppnet: 1\nmachine: hypercube\nnetwork: {hypercube: {dim: 4}}\n"
                             "workload: {type: messages}\n",
                             0, NULL);
    if (h) {
        mpp_sim_config cfg = *mpp_experiment_config(h, 0);
        test_set(&cfg, "workload.type", "msgtrace");
        test_set(&cfg, "workload.file", "\"%s\"", path);
        test_set(&cfg, "workload.paradigm", "sync");
        mpp_sim *b = run(&cfg);
        if (b)
            CHECK(mpp_sim_message_count(b) == back.n);
        printf("message trace: %u messages replayed on a hypercube\n", back.n);
        mpp_sim_destroy(b);
        mpp_experiment_destroy(h);
    }
    mpp_sim_destroy(a);
    mpp_msg_trace_free(&t);
    mpp_msg_trace_free(&back);
    mpp_experiment_destroy(e);

    /* very large issue times (written as 97-digit numbers) read back: a
     * finding of fuzz_msgtrace (test/fuzz/corpus/msgtrace/huge-issue) */
    mpp_msg_trace big = {.nodes = 4, .time_us = 0};
    mpp_msg_trace_entry en = {1e96, 3, 0, 67, 0};
    CHECK(mpp_msg_trace_add(&big, &en, &err) == 0);
    snprintf(path, sizeof path, "%s/big.trace", tmpdir);
    CHECK(mpp_msg_trace_write(path, &big, &err) == 0);
    CHECKF(mpp_msg_trace_read(path, &back, &err) == 0 && back.n == 1 && back.e[0].issue == 1e96,
           "%s", err.msg);
    mpp_msg_trace_free(&big);
    mpp_msg_trace_free(&back);
}

/* A malformed file must be refused with its name and line. */
static void bad(const char *name, const char *text, int ops, int line, bool gz)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    if (gz) {
        gzFile f = gzopen(path, "wb");
        gzwrite(f, text, (unsigned)strlen(text));
        gzclose(f);
    } else {
        FILE *f = fopen(path, "wb");
        fputs(text, f);
        fclose(f);
    }
    mpp_err err;
    int rc;
    if (ops) {
        mpp_op_trace t;
        rc = mpp_op_trace_read(path, &t, &err);
        mpp_op_trace_free(&t);
    } else {
        mpp_msg_trace t;
        rc = mpp_msg_trace_read(path, &t, &err);
        mpp_msg_trace_free(&t);
    }
    char where[600];
    snprintf(where, sizeof where, "%s:%d:", path, line);
    CHECKF(rc == MPP_EFORMAT && strstr(err.msg, where), "%s: rc %d, '%s'", name, rc, err.msg);
}

static void test_bad(void)
{
    const char *mh = "# mppnet message trace 1\nnodes 4\ntime us\n";
    const char *oh = "# mppnet operation trace 1\nnodes 4\nconfig_hash 0123456789abcdef\nseed 1\n";
    char b[512];
    bad("m1", "0 0 1 16 0\n", 0, 1, false);             /* no header */
    bad("m2", "nodes 4\ntime hours\n", 0, 2, false);     /* bad unit */
    snprintf(b, sizeof b, "%s0 0 1 16\n", mh);
    bad("m3", b, 0, 4, false);                           /* 4 fields */
    snprintf(b, sizeof b, "%s0 0 9 16 0\n", mh);
    bad("m4", b, 0, 4, false);                           /* dst out of range */
    snprintf(b, sizeof b, "%s0 2 2 16 0\n", mh);
    bad("m5", b, 0, 4, false);                           /* src == dst */
    snprintf(b, sizeof b, "%s-1 0 1 16 0\n", mh);
    bad("m6", b, 0, 4, false);                           /* negative time */
    snprintf(b, sizeof b, "%s0 0 1 x 0\n", mh);
    bad("m7", b, 0, 4, true);                            /* not a number, gzip */
    bad("m8", "nodes 0\n", 0, 1, false);                 /* zero nodes */
    bad("m9", "nodes 4\nnodes 4\n", 0, 2, false);        /* repeated */
    snprintf(b, sizeof b, "%s0 0 FLY 1 2 0 16 sync\n", oh);
    bad("o1", b, 1, 5, false);                           /* unknown op */
    snprintf(b, sizeof b, "%s0 0 SEND 1 2 0 16 telepathy\n", oh);
    bad("o2", b, 1, 5, false);                           /* unknown paradigm */
    snprintf(b, sizeof b, "%s7 0 SEND 1 2 0 16 sync\n", oh);
    bad("o3", b, 1, 5, true);                            /* node out of range */
    bad("o4", "nodes 4\nconfig_hash 12\n", 1, 2, false); /* short hash */
    snprintf(b, sizeof b, "%s0 0 SEND 1 2 0\n", oh);
    bad("o5", b, 1, 5, false);                           /* fields missing */
    bad("o6", "nodes 4\n0 0 SEND 1 2 0 16 sync\n", 1, 2, false); /* header incomplete */
    /* corrupt gzip: a valid stream with bytes changed in the middle */
    char path[512];
    snprintf(path, sizeof path, "%s/corrupt.gz", tmpdir);
    gzFile f = gzopen(path, "wb");
    for (int i = 0; i < 200; i++)
        gzprintf(f, "%d 0 1 16 0\n", i);
    gzclose(f);
    FILE *fp = fopen(path, "r+b");
    fseek(fp, 40, SEEK_SET);
    fputs("garbage!garbage!", fp);
    fclose(fp);
    mpp_msg_trace t;
    mpp_err err;
    int rc = mpp_msg_trace_read(path, &t, &err);
    CHECKF(rc == MPP_EFORMAT && strstr(err.msg, "corrupt.gz:"), "corrupt gzip: rc %d '%s'", rc,
           err.msg);
    mpp_msg_trace_free(&t);
    /* a missing file */
    CHECK(mpp_msg_trace_read("/nonexistent/x.trace", &t, &err) == MPP_EIO);
}

/* Every scheduler's replay runs end to end on a small CM-5 and delivers
 * every COM entry (small versions of the scheduling experiments). */
static void test_all_schedulers(void)
{
    const char *names[] = {"ac", "lp", "gm", "cgm", "rs_n", "rs_nh", "drs_n"};
    for (int g = 0; g < 2; g++)
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
            char o1[64], o2[64];
            snprintf(o1, sizeof o1, "workload.scheduler=%s", names[i]);
            snprintf(o2, sizeof o2, "workload.gen=%s", g ? "random-nonuniform" : "random-regular");
            const char *ov[] = {o1, o2};
            mpp_experiment *e = load(machine_text, 2, ov);
            if (!e)
                continue;
            mpp_sim *s = run(mpp_experiment_config(e, 0));
            if (s) {
                const mpp_sim_result *r = mpp_sim_result_get(s);
                /* 16 nodes x 5 messages; drs_n also counts its protocol's
                 * active messages and rs_nh the parts it cut */
                CHECKF(r->messages >= 80 && r->makespan > 0, "%s gen %d: %llu messages", names[i],
                       g, (unsigned long long)r->messages);
                if (strcmp(names[i], "drs_n") && strcmp(names[i], "rs_nh"))
                    CHECK(r->messages == 80);
                printf("%-6s %-17s %6.3f ms, %u phases\n", names[i],
                       g ? "random-nonuniform" : "random-regular", r->makespan_ms, r->phases);
            }
            mpp_sim_destroy(s);
            mpp_experiment_destroy(e);
        }
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    snprintf(tmpdir, sizeof tmpdir, "%s/mppnet-trace-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    test_op_trace("ops.trace");
    test_op_trace("ops.trace.gz");
    test_msg_trace();
    test_bad();
    test_all_schedulers();
    test_rmdtemp(tmpdir);
    TEST_DONE();
}
