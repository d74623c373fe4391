/* test/test_mpitrace.c — MPI traces (traces/mpitrace.c): the capture
 * format's reader and the builder behind it.
 *
 * A 4-rank capture folder written here (plain, then gzip) in which rank 0
 * makes every call of the format once: each event must come back with the
 * fields the line gave (communicators as global indices, requests
 * renumbered, a wildcard irecv holding what it matched, v-collectives'
 * vectors). The communicators: every rank splits world into halves and
 * duplicates its half twice, ranks 2 and 3 also comm_create their half:
 * the same (member list, occurrence) on every member is one global
 * communicator, and the duplicates are distinct. Then each error the
 * reader must report, with its FILE:LINE text: a truncated rank file (no
 * `end`; a cut gzip stream), a completion of an unknown request, a peer
 * outside its communicator, a missing rank file, a v-collective's K that
 * is not the communicator's size, a bad number, a communicator one member
 * never made, and a file that is no MPI trace. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/strbuf.h"
#include "traces/lineio.h"
#include "traces/mpitrace.h"
#include "test/testutil.h"

static char base[256];
static int ndirs;

/* Write text to path (gzip when it ends in .gz). */
static void put(const char *path, const char *text)
{
    mpp_sb sb;
    mpp_sb_init(&sb);
    mpp_sb_add(&sb, text);
    mpp_err err;
    if (mpp_lines_write(path, &sb, &err)) {
        fprintf(stderr, "cannot write %s: %s\n", path, err.msg);
        exit(1);
    }
    mpp_sb_free(&sb);
}

/* A new capture folder with the meta file and the rank files' texts
 * (NULL: no file for that rank); returns its path (static buffer). */
static const char *capture(uint32_t n, const char *const *rank, bool gz)
{
    static char dir[300];
    snprintf(dir, sizeof dir, "%s/c%d", base, ndirs++);
    if (mkdir(dir, 0700)) {
        perror(dir);
        exit(1);
    }
    char path[400], meta[200];
    snprintf(path, sizeof path, "%s/capture.mpt", dir);
    snprintf(meta, sizeof meta,
             "mpptrace 1\nranks %u\nhost_ops_per_s 1.5e9\nlibrary Test MPI 1.0\n", n);
    put(path, meta);
    for (uint32_t r = 0; r < n; r++)
        if (rank[r]) {
            snprintf(path, sizeof path, "%s/rank-%u.mpt%s", dir, r, gz ? ".gz" : "");
            put(path, rank[r]);
        }
    return dir;
}

/* Rank 0 makes every call once. Its communicators: 2 the half {0 1}, 3
 * and 4 its duplicates. */
static const char rank0[] =
    "mpptrace 1 rank 0 ranks 4\n"
    "# a comment, then a blank line\n"
    "\n"
    "1 send 1 7 0 100\n"                  /* 4 */
    "2 ssend 2 7 0 101\n"
    "3 bsend 3 7 0 102\n"
    "4 rsend 1 7 0 103\n"
    "5 isend 1 8 0 200 5\n"               /* 8 */
    "6 issend 2 8 0 201 6\n"
    "7 irsend 3 8 0 202 7\n"
    "8 waitall 3 5 6 7\n"
    "9 recv 2 9 0 50\n"                   /* 12 */
    "10 irecv -1 -1 0 5\n"                /* request id 5 again: the first is done */
    "11 wait 1 5/3/11/60\n"               /* the wildcard matched rank 3, tag 11 */
    "12 sendrecv 1 1 10 3 2 20 0\n"
    "13 sendrecv_replace 3 4 1 5 30 0\n"  /* 16 */
    "14 probe 1 2 12 0 40\n"
    "15 iprobe 0 -1 -1 0 0\n"
    "16 isend 2 1 0 8 9\n"
    "17 test 0\n"                         /* 20 */
    "18 testany 1 9\n"
    "19 irecv 2 4 0 1\n"
    "20 request_free 1\n"
    "21 waitany 0\n"                      /* 24 */
    "22 waitsome 0\n"
    "23 testall 0\n"
    "24 testsome 0\n"
    "25 barrier 0\n"                      /* 28 */
    "26 bcast 0 0 64\n"
    "27 reduce 1 0 8\n"
    "28 allreduce 0 9\n"
    "29 scan 0 10\n"                      /* 32 */
    "30 exscan 0 11\n"
    "31 gather 0 0 16\n"
    "32 scatter 2 0 17\n"
    "33 gatherv 0 0 4 4 1 2 3 4\n"        /* 36: the root: K = 4 */
    "34 scatterv 1 0 5 0\n"               /* not the root: K = 0 */
    "35 allgather 0 4\n"
    "36 alltoall 0 5\n"
    "37 allgatherv 0 4 1 2 3 4\n"         /* 40 */
    "38 alltoallv 0 4 1 2 3 4 5 6 7 8\n"
    "39 reduce_scatter 0 4 1 1 1 1\n"
    "40 reduce_scatter_block 0 2\n"
    "41 comm_split 0 2 2 0 1\n"           /* 44 */
    "42 comm_dup 2 3 2 0 1\n"
    "43 comm_dup 2 4 2 0 1\n"
    "44 send 1 0 3 5\n"
    "45 comm_free 3\n"                    /* 48 */
    "46 comm_create 0 -1 0\n"
    "47 unsupported MPI_Put\n"
    "end 99\n";

static const char rank1[] =
    "mpptrace 1 rank 1 ranks 4\n"
    "1 comm_split 0 2 2 0 1\n"
    "2 comm_dup 2 3 2 0 1\n"
    "3 comm_dup 2 4 2 0 1\n"
    "4 comm_create 0 -1 0\n"
    "end 5\n";

static const char rank2[] =
    "mpptrace 1 rank 2 ranks 4\n"
    "1 comm_split 0 2 2 2 3\n"
    "2 comm_dup 2 3 2 2 3\n"
    "3 comm_dup 2 4 2 2 3\n"
    "4 comm_create 0 5 2 2 3\n"
    "end 5\n";

static const char rank3[] =
    "mpptrace 1 rank 3 ranks 4\n"
    "1 comm_split 0 2 2 2 3\n"
    "2 comm_dup 2 3 2 2 3\n"
    "3 comm_dup 2 4 2 2 3\n"
    "4 comm_create 0 5 2 2 3\n"
    "end 5\n";

#define NONE MPP_MPI_NONE

/* What rank 0's events must be: call, comm, peer, tag, bytes, peer2,
 * tag2, bytes2, n (the rest checked below). */
typedef struct want {
    int call;
    uint32_t comm, peer, tag;
    uint64_t bytes;
    uint32_t peer2, tag2;
    uint64_t bytes2;
    uint32_t n;
} want;

static const want want0[] = {
    {MPP_MPI_SEND, 0, 1, 7, 100, 0, 0, 0, 0},
    {MPP_MPI_SSEND, 0, 2, 7, 101, 0, 0, 0, 0},
    {MPP_MPI_BSEND, 0, 3, 7, 102, 0, 0, 0, 0},
    {MPP_MPI_RSEND, 0, 1, 7, 103, 0, 0, 0, 0},
    {MPP_MPI_ISEND, 0, 1, 8, 200, 0, 0, 0, 0},
    {MPP_MPI_ISSEND, 0, 2, 8, 201, 0, 0, 0, 0},
    {MPP_MPI_IRSEND, 0, 3, 8, 202, 0, 0, 0, 0},
    {MPP_MPI_WAITALL, 0, 0, 0, 0, 0, 0, 0, 3},
    {MPP_MPI_RECV, 0, 2, 9, 50, 0, 0, 0, 0},
    {MPP_MPI_IRECV, 0, 3, 11, 60, MPP_MPI_ANY, MPP_MPI_ANY, 0, 0},
    {MPP_MPI_WAIT, 0, 0, 0, 0, 0, 0, 0, 1},
    {MPP_MPI_SENDRECV, 0, 1, 1, 10, 3, 2, 20, 0},
    {MPP_MPI_SENDRECV_REPLACE, 0, 3, 4, 30, 1, 5, 0, 0},
    {MPP_MPI_PROBE, 0, 2, 12, 40, 0, 0, 0, 0},
    {MPP_MPI_IPROBE, 0, MPP_MPI_ANY, MPP_MPI_ANY, 0, 0, 0, 0, 0},
    {MPP_MPI_ISEND, 0, 2, 1, 8, 0, 0, 0, 0},
    {MPP_MPI_TEST, 0, 0, 0, 0, 0, 0, 0, 0},
    {MPP_MPI_TESTANY, 0, 0, 0, 0, 0, 0, 0, 1},
    {MPP_MPI_IRECV, 0, NONE, NONE, 0, 2, 4, 0, 0}, /* freed: no match */
    {MPP_MPI_REQUEST_FREE, 0, 0, 0, 0, 0, 0, 0, 0},
    {MPP_MPI_WAITANY, 0, 0, 0, 0, 0, 0, 0, 0},
    {MPP_MPI_WAITSOME, 0, 0, 0, 0, 0, 0, 0, 0},
    {MPP_MPI_TESTALL, 0, 0, 0, 0, 0, 0, 0, 0},
    {MPP_MPI_TESTSOME, 0, 0, 0, 0, 0, 0, 0, 0},
    {MPP_MPI_BARRIER, 0, 0, 0, 0, 0, 0, 0, 0},
    {MPP_MPI_BCAST, 0, 0, 0, 64, 0, 0, 0, 0},
    {MPP_MPI_REDUCE, 0, 1, 0, 8, 0, 0, 0, 0},
    {MPP_MPI_ALLREDUCE, 0, 0, 0, 9, 0, 0, 0, 0},
    {MPP_MPI_SCAN, 0, 0, 0, 10, 0, 0, 0, 0},
    {MPP_MPI_EXSCAN, 0, 0, 0, 11, 0, 0, 0, 0},
    {MPP_MPI_GATHER, 0, 0, 0, 16, 0, 0, 0, 0},
    {MPP_MPI_SCATTER, 0, 2, 0, 17, 0, 0, 0, 0},
    {MPP_MPI_GATHERV, 0, 0, 0, 4, 0, 0, 0, 4},
    {MPP_MPI_SCATTERV, 0, 1, 0, 5, 0, 0, 0, 0},
    {MPP_MPI_ALLGATHER, 0, 0, 0, 4, 0, 0, 0, 0},
    {MPP_MPI_ALLTOALL, 0, 0, 0, 5, 0, 0, 0, 0},
    {MPP_MPI_ALLGATHERV, 0, 0, 0, 0, 0, 0, 0, 4},
    {MPP_MPI_ALLTOALLV, 0, 0, 0, 0, 0, 0, 0, 8},
    {MPP_MPI_REDUCE_SCATTER, 0, 0, 0, 0, 0, 0, 0, 4},
    {MPP_MPI_REDUCE_SCATTER_BLOCK, 0, 0, 0, 2, 0, 0, 0, 0},
    /* global communicators: 0 world, 1..4 selves, 5 {0 1}, 6 and 7 its
     * duplicates, 8 {2 3}, 9 and 10 its duplicates, 11 the comm_create */
    {MPP_MPI_COMM_SPLIT, 5, 0, 0, 0, 0, 0, 0, 0},
    {MPP_MPI_COMM_DUP, 6, 0, 0, 0, 5, 0, 0, 0},
    {MPP_MPI_COMM_DUP, 7, 0, 0, 0, 5, 0, 0, 0},
    {MPP_MPI_SEND, 6, 1, 0, 5, 0, 0, 0, 0},
    {MPP_MPI_COMM_FREE, 6, 0, 0, 0, 0, 0, 0, 0},
    {MPP_MPI_COMM_CREATE, NONE, 0, 0, 0, 0, 0, 0, 0},
    {MPP_MPI_UNSUPPORTED, 0, 0, 0, 0, 0, 0, 0, 0},
};

/* The trace of the good capture, checked event by event. */
static void check_good(const mpp_mpitrace *t)
{
    CHECK(t->nranks == 4 && t->source == MPP_MPITRACE_CAPTURE);
    CHECK(t->host_ops_per_s == 1.5e9);
    CHECK(!strcmp(t->library, "Test MPI 1.0"));
    CHECKF(t->ncomms == 12, "%u communicators", t->ncomms);
    if (t->ncomms != 12)
        return;
    static const uint32_t size[12] = {4, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2};
    for (uint32_t g = 0; g < 12; g++) {
        CHECKF(t->comm[g].size == size[g], "communicator %u", g);
        uint32_t m0 = g == 0 ? 0 : g <= 4 ? g - 1 : g <= 7 ? 0 : 2;
        CHECKF(t->members[t->comm[g].first] == m0, "communicator %u", g);
    }
    const mpp_mpi_rank *k = &t->rank[0];
    size_t nw = sizeof want0 / sizeof *want0;
    CHECKF(k->nev == nw, "rank 0 has %u events, expected %zu", k->nev, nw);
    for (uint32_t i = 0; i < k->nev && i < nw; i++) {
        const mpp_mpi_event *e = &k->ev[i];
        const want *w = &want0[i];
        CHECKF(e->call == w->call && e->comm == w->comm && e->peer == w->peer &&
                   e->tag == w->tag && e->bytes == w->bytes && e->peer2 == w->peer2 &&
                   e->tag2 == w->tag2 && e->bytes2 == w->bytes2 && e->n == w->n &&
                   e->cpu_ns == i + 1,
               "rank 0 event %u (%s): comm %u peer %u tag %u bytes %llu peer2 %u tag2 %u "
               "bytes2 %llu n %u cpu %llu",
               i, mpp_mpi_call_names[e->call], e->comm, e->peer, e->tag,
               (unsigned long long)e->bytes, e->peer2, e->tag2, (unsigned long long)e->bytes2,
               e->n, (unsigned long long)e->cpu_ns);
    }
    CHECK(k->end_cpu_ns == 99);
    /* requests: isend 5 6 7, irecv (5 again), isend 9, irecv 1 */
    CHECK(k->nreq == 6);
    if (k->nev == nw && k->nreq == 6) {
        static const uint32_t made[6] = {4, 5, 6, 9, 15, 18};
        static const uint32_t done[6] = {7, 7, 7, 10, 17, NONE};
        for (uint32_t q = 0; q < 6; q++)
            CHECKF(k->req[q].event == made[q] && k->req[q].done == done[q] &&
                       k->ev[made[q]].req == q,
                   "request %u: event %u done %u", q, k->req[q].event, k->req[q].done);
        CHECK(k->ev[19].req == 5); /* request_free names the irecv's request */
        const mpp_mpi_event *wa = &k->ev[7];
        CHECK(k->reqs[wa->first] == 0 && k->reqs[wa->first + 1] == 1 &&
              k->reqs[wa->first + 2] == 2);
        CHECK(k->reqs[k->ev[10].first] == 3 && k->reqs[k->ev[17].first] == 4);
        const mpp_mpi_event *gv = &k->ev[32], *av = &k->ev[37];
        for (uint32_t i = 0; i < 4; i++)
            CHECK(k->counts[gv->first + i] == i + 1);
        for (uint32_t i = 0; i < 8; i++)
            CHECK(k->counts[av->first + i] == i + 1);
        CHECK(!strcmp(t->names + k->ev[46].name, "MPI_Put"));
    }
    /* the other ranks reach the same global communicators */
    static const uint32_t new1[4] = {5, 6, 7, NONE}, new2[4] = {8, 9, 10, 11};
    for (uint32_t r = 1; r < 4; r++) {
        CHECK(t->rank[r].nev == 4 && t->rank[r].end_cpu_ns == 5);
        for (uint32_t i = 0; i < t->rank[r].nev && i < 4; i++)
            CHECKF(t->rank[r].ev[i].comm == (r == 1 ? new1 : new2)[i],
                   "rank %u event %u: comm %u", r, i, t->rank[r].ev[i].comm);
    }
    uint32_t ur = 9, ui = 9;
    CHECK(mpp_mpitrace_find_unsupported(t, &ur, &ui) == 0 && ur == 0 && ui == 46);
}

/* Load dir; the error must be MPP_EFORMAT and its message hold `text`. */
static void check_error(const char *dir, const char *text, const char *what)
{
    mpp_mpitrace *t = (mpp_mpitrace *)1;
    mpp_err err;
    mpp_err_clear(&err);
    int rc = mpp_mpitrace_load(dir, &t, &err);
    CHECKF(rc == MPP_EFORMAT && t == NULL, "%s: rc %d", what, rc);
    CHECKF(strstr(err.msg, text) != NULL, "%s: message '%s', expected '%s'", what, err.msg, text);
    if (!rc)
        mpp_mpitrace_free(t);
}

/* The good capture with rank 0's file replaced by rank0 with line `line`
 * (1-based) replaced by `with` (NULL: cut the file after line-1). */
static const char *variant(unsigned line, const char *with, bool gz)
{
    static char text[sizeof rank0 + 256];
    const char *p = rank0;
    size_t len = 0;
    for (unsigned l = 1; *p; l++) {
        const char *e = strchr(p, '\n') + 1;
        if (l == line) {
            if (!with)
                break;
            len += (size_t)snprintf(text + len, sizeof text - len, "%s\n", with);
        } else {
            memcpy(text + len, p, (size_t)(e - p));
            len += (size_t)(e - p);
        }
        p = e;
    }
    text[len] = '\0';
    const char *ranks[4] = {text, rank1, rank2, rank3};
    return capture(4, ranks, gz);
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(base, sizeof base, "%s/mpp_mpitrace_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(base)) {
        perror("mkdtemp");
        return 1;
    }
    const char *good[4] = {rank0, rank1, rank2, rank3};
    char path[400];
    mpp_err err;

    /* round trips, plain and gzip; the meta file names the capture too */
    for (int gz = 0; gz < 2; gz++) {
        const char *dir = capture(4, good, gz);
        mpp_mpitrace *t = NULL;
        mpp_err_clear(&err);
        int rc = mpp_mpitrace_load(dir, &t, &err);
        CHECKF(rc == 0, "%s: %s", gz ? "gzip" : "plain", err.msg);
        if (!rc)
            check_good(t);
        mpp_mpitrace_free(t);
        snprintf(path, sizeof path, "%s/capture.mpt", dir);
        rc = mpp_mpitrace_load(path, &t, &err);
        CHECKF(rc == 0, "meta file: %s", err.msg);
        if (!rc)
            check_good(t);
        mpp_mpitrace_free(t);
    }

    /* one rank file alone (the fuzz harness's way in) */
    {
        snprintf(path, sizeof path, "%s/c0/rank-0.mpt", base);
        mpp_mpitrace *t = calloc(1, sizeof *t);
        t->nranks = 4;
        int rc = mpp_mpitrace_read_rank(t, 0, path, &err);
        CHECKF(rc == 0 && t->rank[0].nev == sizeof want0 / sizeof *want0, "read_rank: %s",
               err.msg);
        mpp_mpitrace_free(t);
    }

    /* errors, each naming its file and line */
    check_error(variant(51, NULL, false), "/rank-0.mpt: truncated: no `end` line (the program "
                "did not reach MPI_Finalize, or the file was cut)", "no end");
    {
        const char *dir = capture(4, good, true);
        snprintf(path, sizeof path, "%s/rank-0.mpt.gz", dir);
        struct stat st;
        CHECK(stat(path, &st) == 0 && truncate(path, st.st_size / 2) == 0);
        check_error(dir, "/rank-0.mpt.gz:", "cut gzip");
    }
    check_error(variant(13, "10 wait 1 42", false),
                "/rank-0.mpt:13: wait completes request 42, which is unknown (never made, or "
                "already completed or freed)", "unknown request");
    check_error(variant(14, "11 wait 1 5/3/11/60\n11 wait 1 5", false),
                "/rank-0.mpt:15: wait completes request 5, which is unknown", "completed twice");
    check_error(variant(47, "44 send 3 0 3 5", true),
                "/rank-0.mpt.gz:47: send: DST 3 is not a member of communicator 3 (2 members)",
                "peer outside");
    check_error(variant(47, "44 bcast 2 3 8", false),
                "/rank-0.mpt:47: bcast: ROOT 2 is not a member of communicator 3", "root outside");
    check_error(variant(40, "37 allgatherv 0 3 1 2 3", false),
                "/rank-0.mpt:40: allgatherv: expected K = 4 (the size of communicator 0 "
                "(MPI_COMM_WORLD)), got 3", "K mismatch");
    check_error(variant(37, "34 scatterv 1 0 5 1 7", false),
                "/rank-0.mpt:37: scatterv: expected K = 0 (not the root of communicator 0", "K away");
    check_error(variant(4, "1 send 9 7 0 100", false),
                "/rank-0.mpt:4: expected a world rank below 4 for DST, got '9'", "bad rank");
    check_error(variant(5, "2 ssend 2 7 0 1x1", false),
                "/rank-0.mpt:5: expected a byte count 0 .. 2^40 for BYTES, got '1x1'", "bad bytes");
    check_error(variant(6, "3 bsend 3 2147483648 0 102", false),
                "/rank-0.mpt:6: expected a tag 0 .. 2147483647 for TAG, got '2147483648'",
                "bad tag");
    check_error(variant(40, "37 allgatherv 0 4 1 2", false),
                "/rank-0.mpt:40: K = 4 announced, but the line holds at most 2 more values",
                "short list");
    check_error(variant(7, "4 rsend 1 7 9 103", false),
                "/rank-0.mpt:7: rsend: communicator 9 does not exist (never created, or freed)",
                "unknown comm");
    check_error(variant(47, "44 send 1 0 4 5\n45 comm_free 3\n45 send 1 0 3 1", false),
                "/rank-0.mpt:49: send: communicator 3 does not exist", "freed comm");
    check_error(variant(13, "10 irecv 3 -1 0 5\n11 wait 1 5/2/11/60", false),
                "/rank-0.mpt:14: wait: request 5 matched source 2 tag 11, but its irecv posted "
                "source 3 tag -1", "bad match");
    check_error(variant(1, "mpptrace 1 rank 1 ranks 4", false),
                "/rank-0.mpt:1: the header says rank 1 of 4 ranks, expected rank 0 of 4", "header");
    check_error(variant(1, "mpptrace 2 rank 0 ranks 4", false),
                "/rank-0.mpt:1: capture format version 2 is not supported, expected 1", "version");
    check_error(variant(8, "5 isend 1 8 0 200 5\n5 isend 1 8 0 200 5", false),
                "/rank-0.mpt:9: isend: request 5 is still live", "live request");
    check_error(variant(50, "47 frobnicate 3", false), "/rank-0.mpt:50: unknown call 'frobnicate'",
                "unknown call");
    check_error(variant(51, "end 99\n48 barrier 0", false),
                "/rank-0.mpt:52: a call after the `end` line 51", "after end");
    {
        const char *ranks[4] = {rank0, rank1, rank2, NULL};
        check_error(capture(4, ranks, true), "/rank-3.mpt.gz: missing (", "missing rank");
    }
    {
        /* rank 3 never makes the half {2 3}'s communicators */
        const char *ranks[4] = {rank0, rank1, rank2, "mpptrace 1 rank 3 ranks 4\nend 1\n"};
        check_error(capture(4, ranks, false),
                    "/rank-2.mpt:2: rank 2's comm_split made communicator 2 with members {2 3}, "
                    "but member rank 3 did not make it",
                    "comm not made");
    }
    {
        snprintf(path, sizeof path, "%s/notatrace.txt", base);
        put(path, "hello\n");
        check_error(path, "notatrace.txt: not an MPI trace (expected a capture folder, a "
                    "SimGrid time-independent trace or an OTF2 archive)", "not a trace");
        check_error(base, ": not an MPI trace", "empty folder");
    }
    if (!test_failures) {
        char cmd[300];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", base);
    }
    TEST_DONE();
}
