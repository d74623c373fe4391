/* test/test_mpi_simgrid.c — the SimGrid importer (traces/mpi_simgrid.c):
 * the checked-in trace of test/data/simgrid/prog.c (written by SimGrid
 * 3.32's `smpirun -trace-ti`, 4 ranks) imports with the rank-pair byte
 * matrix the program sends, its wildcard receive matched, its requests
 * completed by rules R1/R2, its sendRecv tags resolved (R4); when smpicc
 * and smpirun are installed, the program is built, traced afresh and
 * imported with the same matrix; malformed, truncated and inconsistent
 * traces are refused with FILE:LINE. Usage: test_mpi_simgrid SRCDIR. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test/testutil.h"
#include "traces/mpitrace.h"

static char tmp[256];

/* The p2p bytes rank s sends to rank d in prog.c with 4 ranks: the
 * sends, isends and sendrecvs of the program (see its source). */
static uint64_t want(uint32_t s, uint32_t d)
{
    uint64_t b = 0;
    if (d == (s + 1) % 4)
        b += 3 + 1 + 24; /* isend 3 chars, isend 1 byte, sendrecv 3 doubles */
    if (d == (s + 2) % 4)
        b += 16;         /* isend 2 doubles */
    if (s == 0 && d == 1)
        b += 80;         /* send 10 doubles */
    if (s == 0 && d == 2)
        b += 28;         /* send 7 ints */
    return b;
}

/* Check t's rank-pair byte matrix (sends, isends, sendrecvs) against want. */
static void check_matrix(const mpp_mpitrace *t, const char *what)
{
    CHECK(t->nranks == 4);
    uint64_t m[4][4] = {{0}};
    for (uint32_t r = 0; r < t->nranks && r < 4; r++)
        for (uint32_t i = 0; i < t->rank[r].nev; i++) {
            const mpp_mpi_event *e = &t->rank[r].ev[i];
            if ((e->call <= MPP_MPI_IRSEND || e->call == MPP_MPI_SENDRECV) && e->peer < 4)
                m[r][e->peer] += e->bytes;
        }
    for (uint32_t s = 0; s < 4; s++)
        for (uint32_t d = 0; d < 4; d++)
            CHECKF(m[s][d] == want(s, d), "%s: %u -> %u: %" PRIu64 " bytes, expected %" PRIu64,
                   what, s, d, m[s][d], want(s, d));
    /* the receives see the same bytes */
    uint64_t rcv = 0, snd = 0;
    for (uint32_t s = 0; s < 4; s++)
        for (uint32_t d = 0; d < 4; d++)
            snd += want(s, d);
    for (uint32_t r = 0; r < t->nranks && r < 4; r++)
        for (uint32_t i = 0; i < t->rank[r].nev; i++) {
            const mpp_mpi_event *e = &t->rank[r].ev[i];
            if (e->call == MPP_MPI_RECV || e->call == MPP_MPI_IRECV)
                rcv += e->bytes;
            if (e->call == MPP_MPI_SENDRECV)
                rcv += e->bytes2;
        }
    CHECKF(rcv == snd, "%s: %" PRIu64 " bytes received, %" PRIu64 " sent", what, rcv, snd);
}

static void check_details(const mpp_mpitrace *t)
{
    CHECK(t->source == MPP_MPITRACE_SIMGRID);
    CHECK(t->flops_per_ns == 1.0);
    /* rank 2's first call: recv from MPI_ANY_SOURCE/ANY_TAG, matched to
     * rank 0's send of 7 ints with tag 1 */
    const mpp_mpi_event *e = &t->rank[2].ev[0];
    CHECK(e->call == MPP_MPI_RECV && e->peer == 0 && e->tag == 1 && e->bytes == 28);
    /* rank 0: send, send, isend, irecv, isend, irecv, wait, wait, waitall */
    const mpp_mpi_rank *k = &t->rank[0];
    CHECK(k->nev > 12 && k->ev[6].call == MPP_MPI_WAIT && k->ev[8].call == MPP_MPI_WAITALL &&
          k->ev[8].n == 2);
    /* the test completed its isend (R2: no later wait names it) */
    CHECK(k->ev[11].call == MPP_MPI_TEST && k->ev[11].n == 1);
    /* every sendrecv has matching tags on both sides (R4) */
    for (uint32_t r = 0; r < 4; r++)
        for (uint32_t i = 0; i < t->rank[r].nev; i++)
            if (t->rank[r].ev[i].call == MPP_MPI_SENDRECV)
                CHECK(t->rank[r].ev[i].tag == 0 && t->rank[r].ev[i].tag2 == 0 &&
                      t->rank[r].ev[i].peer2 == (r + 3) % 4);
    /* the compute loop (1e6 iterations) shows as flops before the scan */
    uint64_t cpu = 0;
    for (uint32_t i = 0; i < k->nev; i++)
        cpu += k->ev[i].cpu_ns;
    CHECK(cpu > 10);
}

/* Write text to tmp/name; returns the path (static buffer). */
static const char *put(const char *name, const char *text)
{
    static char p[512];
    snprintf(p, sizeof p, "%s/%s", tmp, name);
    FILE *f = fopen(p, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    return p;
}

/* Importing text must fail with code and a message containing needle. */
static void bad(const char *text, int code, const char *needle)
{
    const char *p = put("bad.txt", text);
    mpp_err err = {0};
    mpp_mpitrace *t = NULL;
    int rc = mpp_mpitrace_load_simgrid(p, &t, &err);
    CHECKF(rc == code && t == NULL && strstr(err.msg, needle), "rc %d, '%s' (expected '%s')", rc,
           err.msg, needle);
    if (t)
        mpp_mpitrace_free(t);
}

int main(int argc, char **argv)
{
    const char *src = argc > 1 ? argv[1] : ".";
    char path[512];
    snprintf(tmp, sizeof tmp, "/tmp/mppnet-test-simgrid-XXXXXX");
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 1;
    }
    mpp_err err = {0};
    mpp_mpitrace *t = NULL;

    /* 1. the checked-in trace: main file and one rank file */
    snprintf(path, sizeof path, "%s/test/data/simgrid/trace", src);
    CHECK(mpp_mpitrace_sniff_simgrid(path) == 1);
    int rc = mpp_mpitrace_load_simgrid(path, &t, &err);
    CHECKF(rc == 0, "%s", err.msg);
    if (!rc) {
        check_matrix(t, "checked-in trace");
        check_details(t);
        mpp_mpitrace_free(t);
        t = NULL;
    }
    /* mpp_mpitrace_load tells it apart by its contents */
    rc = mpp_mpitrace_load(path, &t, &err);
    CHECKF(rc == 0 && t && t->source == MPP_MPITRACE_SIMGRID, "%s", err.msg);
    if (!rc) {
        check_matrix(t, "mpp_mpitrace_load");
        mpp_mpitrace_free(t);
        t = NULL;
    }
    snprintf(path, sizeof path, "%s/test/data/simgrid/trace_files/rank-1.txt", src);
    CHECK(mpp_mpitrace_sniff_simgrid(path) == 1);
    /* one rank's file alone: rank 0 of a trace whose other ranks are missing */
    rc = mpp_mpitrace_load(path, &t, &err);
    CHECKF(rc == MPP_EFORMAT && strstr(err.msg, "rank-1.txt:3: send: expected a rank"), "%s",
           err.msg);
    snprintf(path, sizeof path, "%s/test/data/simgrid/prog.c", src);
    CHECK(mpp_mpitrace_sniff_simgrid(path) == 0);

    /* 2. bad input: FILE:LINE and what was expected */
    bad("0 init\n0 send 1 5\n", MPP_EFORMAT, "bad.txt:2: expected 'send DST TAG COUNT");
    bad("0 init\n0 frobnicate 1\n", MPP_EFORMAT, "bad.txt:2: expected a SimGrid action");
    bad("0 init\nx send 1 2 3 0\n", MPP_EFORMAT, "bad.txt:2: expected a rank");
    bad("0 init\n1 init\n0 send 1 5 3 -1\n1 recv 0 5 3 -1\n", MPP_EFORMAT,
        "bad.txt:3: send: datatype -1 is a derived datatype");
    bad("0 init\n1 init\n0 send 1 5 3 99\n", MPP_EFORMAT, "a SimGrid datatype id");
    bad("0 init\n1 init\n0 send 7 5 3 0\n", MPP_EFORMAT, "bad.txt:3: send: expected a rank");
    bad("0 init\n1 init\n1 recv 0 5 3 0\n", MPP_EFORMAT,
        "bad.txt:3: rank 1's recv blocks for ever");
    bad("0 init\n1 init\n0 barrier\n", MPP_EFORMAT, "bad.txt:3: rank 0's barrier");
    bad("0 init\n0 compute -5\n", MPP_EFORMAT, "bad.txt:2: compute: expected a number of flops");
    bad("0 init\n0 compute 1e400\n", MPP_EFORMAT, "bad.txt:2: compute: expected a number");
    bad("0 init\n2 init\n", MPP_EFORMAT, "rank 1 has no actions");
    bad("", MPP_EFORMAT, "empty file");
    bad("no/such/rank/file.txt\n", MPP_EIO, "no/such/rank/file.txt");
    bad("0 init\n0 send 1 5 3 0 7 8\n", MPP_EFORMAT, "bad.txt:2: expected 'send");
    /* SimGrid 3.32 writes MPI_Reduce_scatter_block without its counts */
    bad("0 init\n1 init\n2 init\n3 init\n0 reducescatter 0 0 0\n", MPP_EFORMAT,
        "bad.txt:5: expected 'reducescatter RCOUNT1..RCOUNTn FLOPS");
    /* a truncated rank file: cut in the middle of an action */
    {
        snprintf(path, sizeof path, "%s/test/data/simgrid/trace_files/rank-1.txt", src);
        FILE *f = fopen(path, "r");
        char buf[400] = {0};
        size_t n = f ? fread(buf, 1, 60, f) : 0;
        if (f)
            fclose(f);
        buf[n] = 0;
        char *nl = strrchr(buf, '\n');
        if (nl && nl - buf > 4)
            nl[-2] = 0; /* a compute cut to "0 compu" or a send cut short */
        for (char *p = buf; *p; p++)
            if (*p == ' ' && p[1] == 0)
                *p = 0;
        mpp_err e2 = {0};
        mpp_mpitrace *t2 = NULL;
        int rc2 = mpp_mpitrace_load_simgrid(put("cut.txt", buf), &t2, &e2);
        CHECKF(rc2 == MPP_EFORMAT && strstr(e2.msg, "cut.txt:"), "rc %d '%s'", rc2, e2.msg);
        mpp_mpitrace_free(t2);
    }
    /* R1/R2 on a small trace: two isends with the same key, a wait takes
     * the oldest; a failed test then a wait; waitall takes the rest */
    {
        const char *p = put("req.txt",
                            "0 init\n1 init\n"
                            "0 isend 1 3 1 0\n0 isend 1 3 2 0\n0 wait 0 1 3\n0 test 0 1 3\n"
                            "0 wait 0 1 3\n"
                            "1 irecv -333 -444 5 0\n1 irecv 0 3 5 0\n1 waitall 2\n");
        mpp_mpitrace *t2 = NULL;
        mpp_err e2 = {0};
        int rc2 = mpp_mpitrace_load_simgrid(p, &t2, &e2);
        CHECKF(rc2 == 0, "%s", e2.msg);
        if (!rc2) {
            const mpp_mpi_rank *k = &t2->rank[0];
            CHECK(k->nev == 5 && k->ev[2].call == MPP_MPI_WAIT && k->ev[3].call == MPP_MPI_TEST &&
                  k->ev[3].n == 0 && k->ev[4].call == MPP_MPI_WAIT);
            CHECK(k->nreq == 2 && k->req[0].done == 2 && k->req[1].done == 4);
            const mpp_mpi_rank *q = &t2->rank[1];
            CHECK(q->nev == 3 && q->ev[2].call == MPP_MPI_WAITALL && q->ev[2].n == 2);
            /* the wildcard irecv matched the first message (8 bytes) */
            CHECK(q->ev[0].peer == 0 && q->ev[0].bytes == 8 && q->ev[1].bytes == 16);
            mpp_mpitrace_free(t2);
        }
    }

    /* 3. live: build prog.c with smpicc, trace it with smpirun -trace-ti */
    if (system("command -v smpicc >/dev/null 2>&1 && command -v smpirun >/dev/null 2>&1") != 0) {
        printf("SKIP (live part): smpicc/smpirun not found (Debian: libsimgrid-dev); the "
               "checked-in trace was checked\n");
    } else {
        char cmd[4096];
        FILE *h = fopen(put("hosts", ""), "w");
        if (h) {
            for (int i = 0; i < 4; i++)
                fprintf(h, "node-%d\n", i);
            fclose(h);
        }
        snprintf(cmd, sizeof cmd,
                 "cd %s && smpicc -O1 -o prog '%s/test/data/simgrid/prog.c' >build.log 2>&1 && "
                 "smpirun -trace-ti --cfg=tracing/filename:live -np 4 -platform "
                 "'%s/test/data/simgrid/platform.xml' -hostfile hosts ./prog >run.log 2>&1",
                 tmp, src, src);
        rc = system(cmd);
        CHECKF(rc == 0, "%s failed (logs in %s)", cmd, tmp);
        if (!rc) {
            snprintf(path, sizeof path, "%s/live", tmp);
            rc = mpp_mpitrace_load_simgrid(path, &t, &err);
            CHECKF(rc == 0, "%s", err.msg);
            if (!rc) {
                printf("live: prog.c built with smpicc, traced with smpirun -trace-ti, imported\n");
                check_matrix(t, "live trace");
                check_details(t);
                mpp_mpitrace_free(t);
            }
        }
    }
    if (!test_failures) {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", tmp);
    }
    TEST_DONE();
}
