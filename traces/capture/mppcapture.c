/* traces/capture/mppcapture.c — libmppcapture.so, the PMPI capture library:
 * preloaded into an unchanged MPI program (LD_PRELOAD, as `mppnet capture`
 * does), it records what every rank calls, in call order, in the capture
 * format of traces/mpitrace.h (version 1; docs/formats.md, "MPI traces";
 * docs/capture.md).
 *
 * Design. Every wrapped MPI_X calls PMPI_X (the profiling interface) and
 * writes one line per call after it returns, so that receive statuses are
 * known: a wildcard receive is recorded as it matched. The line opens with
 * the thread's CPU time (CLOCK_THREAD_CPUTIME_ID) between the return of the
 * previous recorded call and the entry of this one: the program's compute,
 * without the MPI library's own time and without this library's (the clock
 * restarts after the line is written, and the cost of one clock read,
 * measured at MPI_Init, is subtracted). Ranks, peers and roots are written
 * as world ranks: each communicator is a list of its members' world ranks
 * (MPI_Group_translate_ranks once, when it is created), and the
 * communicator ids are 0 (world), 1 (self), then 2, 3, ... in the order the
 * rank created communicators it belongs to. Requests get ids from a
 * per-rank counter; a small table maps the live MPI_Request handles to
 * them (a linear search from the newest: programs keep few requests in
 * flight). A call the replay cannot model is written as `unsupported
 * MPI_NAME` and still runs; so is a supported call on a communicator this
 * library does not know (an intercommunicator, or one made by a call it
 * does not wrap). Nothing the program calls is dropped, except what MPI
 * itself makes a no-op: a send or receive whose peer is MPI_PROC_NULL (a
 * sendrecv with one side MPI_PROC_NULL is written as the other side alone;
 * a completion of such a request is left out of its wait's list).
 *
 * Output. Each rank writes a gzip stream (level 1, a 1 MiB zlib buffer)
 * into $MPPNET_CAPTURE_DIR/.rank-R.mpt.gz.part and renames it to
 * rank-R.mpt.gz at MPI_Finalize after its `end` line; rank 0 also writes
 * capture.mpt (ranks, the host speed measured once at MPI_Init by a ~10 ms
 * loop of dependent integer additions, the MPI library's version) the same
 * way. A program that aborts leaves only the .part files: never a
 * complete-looking trace. Without MPPNET_CAPTURE_DIR nothing is written and
 * rank 0 says so once on stderr.
 *
 * This library is built without sanitizers (an instrumented preload into
 * an uninstrumented MPI program would abort) and links only with MPI and
 * zlib. It is not thread-safe: a program initialised with
 * MPI_THREAD_MULTIPLE is recorded with `unsupported MPI_Init_thread`. C
 * bindings only: Fortran programs are not recorded.
 *
 * Invariants:
 *   1. A line is written only while recording (after a successful MPI_Init,
 *      before MPI_Finalize, with an open file) and only at depth 0: an MPI
 *      call made from inside a wrapped call (an MPI library calling its own
 *      MPI_ functions) is passed through, unrecorded.
 *   2. Every request id written by isend/irecv is in the table until the
 *      completion or request_free that writes it; completions of handles
 *      not in the table (persistent requests, nonblocking collectives:
 *      already recorded as unsupported) are left out.
 *   3. Communicator ids are never reused: comm_free marks the entry dead
 *      (its members stay, for requests still pending on it).
 */
#include <mpi.h>
#include <zlib.h>

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CAP_VERSION 1
#define CAP_GZBUF (1u << 20)

/* A communicator this rank belongs to. */
typedef struct cap_comm {
    MPI_Comm h;       /* MPI_COMM_NULL once freed */
    int32_t id;       /* the format's id */
    int size;
    int *world;       /* [size]: world rank of each member */
} cap_comm;

/* A live request. */
typedef struct cap_req {
    MPI_Request h;
    uint32_t id;
    uint32_t comm;    /* index into the communicator table */
    uint8_t recv;     /* an irecv: its completion carries a status */
    uint8_t skip;     /* MPI_PROC_NULL peer: left out of completions */
} cap_req;

/* The one rank of this process. */
static struct {
    bool on;          /* recording (invariant 1) */
    int depth;        /* wrapped calls in progress */
    int rank, nranks;
    gzFile gz;
    char *dir;        /* $MPPNET_CAPTURE_DIR */
    uint64_t last_ns; /* thread CPU time when the last recorded call returned */
    uint64_t cpu;     /* the CPU time of the call being recorded */
    uint64_t clock_ns;/* what one read of the clock costs (subtracted) */
    double ops_per_s; /* rank 0: the measured host speed */
    cap_comm *comm;
    uint32_t ncomm, capcomm;
    int32_t next_comm;
    cap_req *req;
    uint32_t nreq, capreq;
    uint32_t next_req;
    char *line;       /* the line being built */
    size_t len, cap;
    MPI_Status *st;   /* scratch statuses (MPI_STATUSES_IGNORE) */
    int nst;
    int *idx;         /* scratch indices (waitsome/testsome) */
    int nidx;
    MPI_Request *saved; /* the handles of a waitall/waitany/... before the call */
    int nsaved;
    bool failed;      /* a write or allocation failed: the trace is abandoned */
} S;

/* ---- clock, host speed --------------------------------------------------- */

/* The calling thread's CPU time in nanoseconds. */
static uint64_t cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* What one read of the thread CPU clock costs, as that clock sees it: the
 * least difference of two consecutive reads. Each recorded compute time
 * holds about one such read (the end of the one that restarted it and the
 * start of the one that stopped it), which is not the program's: it is
 * subtracted. */
static uint64_t clock_cost(void)
{
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 200; i++) {
        uint64_t a = cpu_ns(), b = cpu_ns();
        if (b - a < best)
            best = b - a;
    }
    return best == UINT64_MAX ? 0 : best;
}

/* Dependent integer additions per CPU second: a loop of about 10 ms whose
 * every addition needs the previous one (the empty asm keeps the compiler
 * from folding it). */
static double host_speed(void)
{
    uint64_t x = 1, n = 0;
    uint64_t t0 = cpu_ns(), t;
    do {
        for (uint64_t i = 0; i < 100000; i++) {
            x += i;
            __asm__ volatile("" : "+r"(x));
        }
        n += 100000;
        t = cpu_ns();
    } while (t - t0 < 10000000u);
    return (double)n * 1e9 / (double)(t - t0);
}

/* ---- the line being built ------------------------------------------------ */

/* Make room for n more bytes of the line; false (and the trace abandoned)
 * when memory runs out. */
static bool ln_room(size_t n)
{
    if (S.len + n <= S.cap)
        return true;
    size_t cap = S.cap ? S.cap : 256;
    while (cap < S.len + n)
        cap *= 2;
    char *p = realloc(S.line, cap);
    if (!p) {
        S.failed = true;
        return false;
    }
    S.line = p;
    S.cap = cap;
    return true;
}

static void ln_str(const char *s)
{
    size_t n = strlen(s);
    if (ln_room(n + 1)) {
        memcpy(S.line + S.len, s, n);
        S.len += n;
    }
}

/* sep and a decimal, "-" before it when neg. */
static void ln_num(char sep, bool neg, uint64_t v)
{
    char b[24];
    int k = 0;
    do {
        b[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    if (neg)
        b[k++] = '-';
    if (!ln_room((size_t)k + 2))
        return;
    S.line[S.len++] = sep;
    while (k)
        S.line[S.len++] = b[--k];
}

/* " N" */
static void ln_u(uint64_t v) { ln_num(' ', false, v); }

/* " N" for a signed number (-1: a wildcard, a null communicator); sep
 * instead of the space. */
static void ln_is(char sep, int64_t v)
{
    ln_num(sep, v < 0, v < 0 ? (uint64_t)(-(v + 1)) + 1 : (uint64_t)v);
}
static void ln_i(int64_t v) { ln_is(' ', v); }

/* Insert " K" at position pos of the line (a count written before the
 * list it counts, once the list is known). */
static void ln_insert_count(size_t pos, uint64_t k)
{
    size_t end = S.len;
    ln_u(k);
    if (S.failed)
        return;
    size_t n = S.len - end;
    char t[24];
    memcpy(t, S.line + end, n);
    memmove(S.line + pos + n, S.line + pos, end - pos);
    memcpy(S.line + pos, t, n);
}

/* Start the line of call name: "CPU name". */
static void ln_begin(const char *name)
{
    S.len = 0;
    if (!ln_room(64))
        return;
    ln_u(S.cpu);
    memmove(S.line, S.line + 1, --S.len); /* no leading space */
    ln_str(" ");
    ln_str(name);
}

/* End the line and write it. */
static void ln_end(void)
{
    if (S.failed || !ln_room(1))
        return;
    S.line[S.len++] = '\n';
    if (gzwrite(S.gz, S.line, (unsigned)S.len) != (int)S.len)
        S.failed = true;
}

/* ---- recording a call ---------------------------------------------------- */

/* At the entry of a wrapped call: true when this call is to be recorded
 * (invariant 1); then the CPU time since the last one is taken. */
static bool cap_enter(void)
{
    if (!S.on || S.depth)
        return false;
    S.depth++;
    S.cpu = cpu_ns() - S.last_ns;
    S.cpu = S.cpu > S.clock_ns ? S.cpu - S.clock_ns : 0;
    return true;
}

/* After the call's line: the compute clock restarts now, so that the
 * library's own time is not counted as the program's. */
static void cap_leave(void)
{
    S.depth--;
    S.last_ns = cpu_ns();
}

/* "CPU unsupported MPI_NAME". */
static void rec_unsupported(const char *name)
{
    ln_begin("unsupported");
    ln_str(" ");
    ln_str(name);
    ln_end();
}

/* ---- communicators ------------------------------------------------------- */

/* The table index of communicator h, or -1 when this library does not know
 * it (or it is an intercommunicator: those are never entered). */
static int64_t comm_find(MPI_Comm h)
{
    if (h == MPI_COMM_NULL)
        return -1;
    for (uint32_t i = S.ncomm; i-- > 0;)
        if (S.comm[i].h == h)
            return i;
    return -1;
}

/* Enter communicator h with the given members (world ranks; copied);
 * returns its index or -1 (out of memory: the trace is abandoned). */
static int64_t comm_add(MPI_Comm h, const int *world, int size)
{
    if (S.ncomm == S.capcomm) {
        uint32_t cap = S.capcomm ? 2 * S.capcomm : 16;
        cap_comm *c = realloc(S.comm, cap * sizeof *c);
        if (!c) {
            S.failed = true;
            return -1;
        }
        S.comm = c;
        S.capcomm = cap;
    }
    int *w = malloc((size_t)(size > 0 ? size : 1) * sizeof *w);
    if (!w) {
        S.failed = true;
        return -1;
    }
    memcpy(w, world, (size_t)size * sizeof *w);
    S.comm[S.ncomm] = (cap_comm){.h = h, .id = S.next_comm++, .size = size, .world = w};
    return S.ncomm++;
}

/* Enter a communicator that a call has just made: its members are found
 * through its group, translated to the world group. -1 for MPI_COMM_NULL,
 * an intercommunicator, or no memory. */
static int64_t comm_new(MPI_Comm h)
{
    int inter = 0, size = 0;
    if (h == MPI_COMM_NULL || PMPI_Comm_test_inter(h, &inter) != MPI_SUCCESS || inter ||
        PMPI_Comm_size(h, &size) != MPI_SUCCESS || size < 1)
        return -1;
    int *ranks = malloc(2 * (size_t)size * sizeof *ranks);
    if (!ranks) {
        S.failed = true;
        return -1;
    }
    MPI_Group g, wg;
    int64_t at = -1;
    if (PMPI_Comm_group(h, &g) == MPI_SUCCESS) {
        if (PMPI_Comm_group(MPI_COMM_WORLD, &wg) == MPI_SUCCESS) {
            for (int i = 0; i < size; i++)
                ranks[i] = i;
            if (PMPI_Group_translate_ranks(g, size, ranks, wg, ranks + size) == MPI_SUCCESS)
                at = comm_add(h, ranks + size, size);
            PMPI_Group_free(&wg);
        }
        PMPI_Group_free(&g);
    }
    free(ranks);
    return at;
}

/* The world rank of rank r of communicator c: -1 for MPI_ANY_SOURCE, -2
 * for MPI_PROC_NULL or a rank outside the communicator. */
static int64_t comm_world(int64_t c, int r)
{
    if (r == MPI_ANY_SOURCE)
        return -1;
    if (r < 0 || r >= S.comm[c].size)
        return -2;
    return S.comm[c].world[r];
}

/* " PARENT NEW K M1..MK" of a comm_* line for the new communicator at
 * index nc (-1: this rank is in none). */
static void ln_newcomm(int64_t parent, int64_t nc)
{
    ln_u((uint64_t)S.comm[parent].id);
    if (nc < 0) {
        ln_i(-1);
        ln_u(0);
        return;
    }
    ln_u((uint64_t)S.comm[nc].id);
    ln_u((uint64_t)S.comm[nc].size);
    for (int i = 0; i < S.comm[nc].size; i++)
        ln_u((uint64_t)S.comm[nc].world[i]);
}

/* Record the creation of *newcomm from parent by call name (comm_dup,
 * comm_split, comm_create), or `unsupported MPI_X` when the parent is not
 * known. */
static void rec_comm_made(const char *name, const char *mpi_name, MPI_Comm parent,
                          MPI_Comm newcomm)
{
    int64_t p = comm_find(parent);
    if (p < 0) {
        rec_unsupported(mpi_name);
        return;
    }
    int64_t nc = comm_new(newcomm);
    ln_begin(name);
    ln_newcomm(p, nc);
    ln_end();
}

/* ---- requests ------------------------------------------------------------ */

/* Enter a new request made by an isend/irecv on communicator index c;
 * returns its id. */
static uint32_t req_add(MPI_Request h, int64_t c, bool recv, bool skip)
{
    if (S.nreq == S.capreq) {
        uint32_t cap = S.capreq ? 2 * S.capreq : 64;
        cap_req *r = realloc(S.req, cap * sizeof *r);
        if (!r) {
            S.failed = true;
            return 0;
        }
        S.req = r;
        S.capreq = cap;
    }
    uint32_t id = S.next_req++;
    S.req[S.nreq++] = (cap_req){.h = h, .id = id, .comm = (uint32_t)c, .recv = recv, .skip = skip};
    return id;
}

/* The table index of live request h, or -1. */
static int64_t req_find(MPI_Request h)
{
    if (h == MPI_REQUEST_NULL)
        return -1;
    for (uint32_t i = S.nreq; i-- > 0;)
        if (S.req[i].h == h)
            return i;
    return -1;
}

static void req_drop(int64_t i)
{
    S.req[i] = S.req[--S.nreq];
}

/* The bytes a status received (MPI_Get_count with MPI_BYTE; the elements
 * count when that does not fit an int). */
static uint64_t status_bytes(const MPI_Status *st)
{
    int n = 0;
    if (PMPI_Get_count(st, MPI_BYTE, &n) == MPI_SUCCESS && n != MPI_UNDEFINED && n >= 0)
        return (uint64_t)n;
    MPI_Count c = 0;
    if (PMPI_Get_elements_x(st, MPI_BYTE, &c) == MPI_SUCCESS && c > 0)
        return (uint64_t)c;
    return 0;
}

/* Append the completion " REQ" or " REQ/SRC/TAG/BYTES" of the request
 * that had handle h (now freed by MPI), with its status; the request
 * leaves the table. Returns false (nothing written) for a handle not in
 * the table (invariant 2) or a request with an MPI_PROC_NULL peer. */
static bool completion(MPI_Request h, const MPI_Status *st)
{
    int64_t i = req_find(h);
    if (i < 0)
        return false;
    cap_req r = S.req[i];
    req_drop(i);
    if (r.skip)
        return false;
    if (!r.recv) {
        ln_u(r.id);
        return true;
    }
    int cancelled = 0;
    if (PMPI_Test_cancelled(st, &cancelled) == MPI_SUCCESS && cancelled) {
        ln_u(r.id); /* a cancelled receive: it matched nothing (no status) */
        return true;
    }
    int64_t src = st->MPI_SOURCE == MPI_PROC_NULL ? -2 : comm_world(r.comm, st->MPI_SOURCE);
    if (src == -2)
        return false;
    ln_u(r.id);
    ln_is('/', src);
    ln_is('/', st->MPI_TAG);
    ln_num('/', false, status_bytes(st));
    return true;
}

/* Make the scratch statuses and indices hold n entries. */
static bool scratch(int n)
{
    if (n <= S.nst)
        return true;
    MPI_Status *st = realloc(S.st, (size_t)n * sizeof *st);
    if (!st)
        return false;
    S.st = st;
    int *idx = realloc(S.idx, (size_t)n * sizeof *idx);
    if (!idx)
        return false;
    S.idx = idx;
    S.nst = S.nidx = n;
    return true;
}

/* count x the size of datatype dt, in bytes (0 for a datatype MPI does not
 * size). */
static uint64_t nbytes(int64_t count, MPI_Datatype dt)
{
    int sz = 0;
    if (count <= 0 || dt == MPI_DATATYPE_NULL || PMPI_Type_size(dt, &sz) != MPI_SUCCESS ||
        sz == MPI_UNDEFINED || sz < 0)
        return 0;
    return (uint64_t)count * (uint64_t)sz;
}

/* ---- start and end ------------------------------------------------------- */

/* rank-R.mpt.gz (final) or .rank-R.mpt.gz.part (while written) in the
 * capture folder; NULL when out of memory. */
static char *rank_path(bool part)
{
    size_t n = strlen(S.dir) + 64;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%srank-%d.mpt.gz%s", S.dir, part ? "." : "", S.rank, part ? ".part" : "");
    return p;
}

/* After a successful MPI_Init: find the rank, open its trace, and (rank 0)
 * measure the host. Without MPPNET_CAPTURE_DIR, or when the file cannot
 * be opened, nothing is recorded and stderr says why. */
static void cap_start(void)
{
    PMPI_Comm_rank(MPI_COMM_WORLD, &S.rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &S.nranks);
    const char *dir = getenv("MPPNET_CAPTURE_DIR");
    if (!dir || !*dir) {
        if (S.rank == 0)
            fprintf(stderr, "mppcapture: MPPNET_CAPTURE_DIR is not set: nothing is recorded "
                            "(docs/capture.md)\n");
        return;
    }
    S.dir = strdup(dir);
    int *w = malloc((size_t)S.nranks * sizeof *w);
    if (!S.dir || !w) {
        free(w);
        fprintf(stderr, "mppcapture: rank %d: out of memory: nothing is recorded\n", S.rank);
        return;
    }
    for (int i = 0; i < S.nranks; i++)
        w[i] = i;
    comm_add(MPI_COMM_WORLD, w, S.nranks);
    comm_add(MPI_COMM_SELF, &S.rank, 1);
    free(w);
    if (S.rank == 0)
        S.ops_per_s = host_speed();
    S.clock_ns = clock_cost();
    char *part = rank_path(true);
    S.gz = part && !S.failed ? gzopen(part, "wb1") : NULL;
    if (!S.gz) {
        fprintf(stderr, "mppcapture: rank %d: cannot write %s: %s: nothing is recorded\n",
                S.rank, part ? part : S.dir, strerror(errno ? errno : ENOMEM));
        free(part);
        return;
    }
    free(part);
    gzbuffer(S.gz, CAP_GZBUF);
    if (gzprintf(S.gz, "mpptrace %d rank %d ranks %d\n", CAP_VERSION, S.rank, S.nranks) <= 0) {
        S.failed = true;
    }
    S.on = true;
    S.last_ns = cpu_ns();
}

/* The first line of the MPI library's version, printable, at most 120
 * bytes. */
static void library_version(char *out, size_t cap)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING + 1];
    int len = 0;
    out[0] = '\0';
    if (PMPI_Get_library_version(v, &len) != MPI_SUCCESS)
        return;
    v[len >= 0 && len <= MPI_MAX_LIBRARY_VERSION_STRING ? len : 0] = '\0';
    size_t n = 0;
    for (const char *p = v; *p && *p != '\n' && *p != '\r' && n + 1 < cap && n < 120; p++)
        out[n++] = (unsigned char)*p < 0x20 || *p == 0x7f ? ' ' : *p;
    while (n && out[n - 1] == ' ')
        n--;
    out[n] = '\0';
}

/* Rank 0: write capture.mpt through a temporary name. */
static bool write_meta(void)
{
    size_t n = strlen(S.dir) + 32;
    char *part = malloc(n), *fin = malloc(n);
    bool ok = false;
    if (part && fin) {
        snprintf(part, n, "%s/.capture.mpt.part", S.dir);
        snprintf(fin, n, "%s/capture.mpt", S.dir);
        char lib[128];
        library_version(lib, sizeof lib);
        FILE *f = fopen(part, "w");
        if (f) {
            fprintf(f, "mpptrace %d\nranks %d\nhost_ops_per_s %.0f\n", CAP_VERSION, S.nranks,
                    S.ops_per_s);
            if (lib[0])
                fprintf(f, "library %s\n", lib);
            ok = fclose(f) == 0 && rename(part, fin) == 0;
            if (!ok)
                remove(part);
        }
    }
    if (!ok)
        fprintf(stderr, "mppcapture: cannot write %s/capture.mpt: %s\n", S.dir, strerror(errno));
    free(part);
    free(fin);
    return ok;
}

/* At MPI_Finalize: the `end` line, the file closed and renamed to its
 * final name (rank 0: capture.mpt too); everything freed. */
static void cap_stop(void)
{
    if (S.on && !S.depth) {
        uint64_t cpu = cpu_ns() - S.last_ns;
        cpu = cpu > S.clock_ns ? cpu - S.clock_ns : 0;
        S.on = false;
        if (gzprintf(S.gz, "end %llu\n", (unsigned long long)cpu) <= 0)
            S.failed = true;
        bool closed = gzclose(S.gz) == Z_OK;
        char *part = rank_path(true), *fin = rank_path(false);
        if (!part || !fin || S.failed || !closed || rename(part, fin) != 0) {
            fprintf(stderr, "mppcapture: rank %d: the trace could not be written to %s\n",
                    S.rank, S.dir);
            if (part)
                remove(part);
        } else if (S.rank == 0) {
            write_meta();
        }
        free(part);
        free(fin);
    }
    for (uint32_t i = 0; i < S.ncomm; i++)
        free(S.comm[i].world);
    free(S.comm);
    free(S.req);
    free(S.line);
    free(S.st);
    free(S.idx);
    free(S.saved);
    free(S.dir);
    memset(&S, 0, sizeof S);
}

int MPI_Init(int *argc, char ***argv)
{
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS)
        cap_start();
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS) {
        cap_start();
        /* calls from several threads: neither their order nor each
         * thread's compute can be recorded */
        if (*provided == MPI_THREAD_MULTIPLE && cap_enter()) {
            rec_unsupported("MPI_Init_thread");
            cap_leave();
        }
    }
    return rc;
}

int MPI_Finalize(void)
{
    cap_stop();
    return PMPI_Finalize();
}

/* ---- point to point ------------------------------------------------------ */

/* "send|ssend|bsend|rsend DST TAG COMM BYTES". */
static void rec_send(const char *name, const char *mpi_name, int dest, int tag, MPI_Comm comm,
                     uint64_t bytes)
{
    int64_t c = comm_find(comm);
    if (c < 0) {
        rec_unsupported(mpi_name);
        return;
    }
    int64_t d = comm_world(c, dest);
    if (d < 0)
        return; /* MPI_PROC_NULL: no message */
    ln_begin(name);
    ln_u((uint64_t)d);
    ln_i(tag);
    ln_u((uint64_t)S.comm[c].id);
    ln_u(bytes);
    ln_end();
}

/* "isend|issend|irsend DST TAG COMM BYTES REQ". */
static void rec_isend(const char *name, const char *mpi_name, int dest, int tag, MPI_Comm comm,
                      uint64_t bytes, MPI_Request req)
{
    int64_t c = comm_find(comm);
    if (c < 0) {
        rec_unsupported(mpi_name);
        return;
    }
    int64_t d = comm_world(c, dest);
    uint32_t id = req_add(req, c, false, d < 0);
    if (d < 0)
        return;
    ln_begin(name);
    ln_u((uint64_t)d);
    ln_i(tag);
    ln_u((uint64_t)S.comm[c].id);
    ln_u(bytes);
    ln_u(id);
    ln_end();
}

#define SEND_WRAPPER(X, name)                                                                     \
    int MPI_##X(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm)   \
    {                                                                                             \
        bool rec = cap_enter();                                                                   \
        int rc = PMPI_##X(buf, count, dt, dest, tag, comm);                                       \
        if (rec) {                                                                                \
            if (rc == MPI_SUCCESS)                                                                \
                rec_send(name, "MPI_" #X, dest, tag, comm, nbytes(count, dt));                   \
            cap_leave();                                                                          \
        }                                                                                         \
        return rc;                                                                                \
    }
SEND_WRAPPER(Send, "send")
SEND_WRAPPER(Ssend, "ssend")
SEND_WRAPPER(Bsend, "bsend")
SEND_WRAPPER(Rsend, "rsend")

#define ISEND_WRAPPER(X, name)                                                                    \
    int MPI_##X(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,   \
                MPI_Request *req)                                                                 \
    {                                                                                             \
        bool rec = cap_enter();                                                                   \
        int rc = PMPI_##X(buf, count, dt, dest, tag, comm, req);                                  \
        if (rec) {                                                                                \
            if (rc == MPI_SUCCESS)                                                                \
                rec_isend(name, "MPI_" #X, dest, tag, comm, nbytes(count, dt), *req);            \
            cap_leave();                                                                          \
        }                                                                                         \
        return rc;                                                                                \
    }
ISEND_WRAPPER(Isend, "isend")
ISEND_WRAPPER(Issend, "issend")
ISEND_WRAPPER(Irsend, "irsend")

int MPI_Recv(void *buf, int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
             MPI_Status *status)
{
    MPI_Status local;
    bool rec = cap_enter();
    if (rec && status == MPI_STATUS_IGNORE)
        status = &local;
    int rc = PMPI_Recv(buf, count, dt, source, tag, comm, status);
    if (rec) {
        int64_t c = comm_find(comm);
        if (rc != MPI_SUCCESS) {
        } else if (c < 0) {
            rec_unsupported("MPI_Recv");
        } else if (source != MPI_PROC_NULL) {
            ln_begin("recv");
            ln_i(comm_world(c, status->MPI_SOURCE));
            ln_i(status->MPI_TAG);
            ln_u((uint64_t)S.comm[c].id);
            ln_u(status_bytes(status));
            ln_end();
        }
        cap_leave();
    }
    return rc;
}

int MPI_Irecv(void *buf, int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    bool rec = cap_enter();
    int rc = PMPI_Irecv(buf, count, dt, source, tag, comm, req);
    if (rec) {
        int64_t c = comm_find(comm);
        if (rc != MPI_SUCCESS) {
        } else if (c < 0) {
            rec_unsupported("MPI_Irecv");
        } else {
            int64_t s = comm_world(c, source);
            uint32_t id = req_add(*req, c, true, s == -2);
            if (s != -2) {
                ln_begin("irecv");
                ln_i(s);
                ln_i(tag == MPI_ANY_TAG ? -1 : tag);
                ln_u((uint64_t)S.comm[c].id);
                ln_u(id);
                ln_end();
            }
        }
        cap_leave();
    }
    return rc;
}

/* A sendrecv (replace: one buffer of sbytes both ways), recorded as a send
 * or a recv alone when the other side's peer is MPI_PROC_NULL. */
static void rec_sendrecv(bool replace, int dest, int stag, uint64_t sbytes, int source,
                         const MPI_Status *st, MPI_Comm comm)
{
    int64_t c = comm_find(comm);
    if (c < 0) {
        rec_unsupported(replace ? "MPI_Sendrecv_replace" : "MPI_Sendrecv");
        return;
    }
    int64_t d = comm_world(c, dest);
    int64_t s = source == MPI_PROC_NULL ? -2 : comm_world(c, st->MPI_SOURCE);
    uint64_t rbytes = s >= 0 ? status_bytes(st) : 0;
    if (d >= 0 && s >= 0) {
        ln_begin(replace ? "sendrecv_replace" : "sendrecv");
        ln_u((uint64_t)d);
        ln_i(stag);
        if (!replace)
            ln_u(sbytes);
        ln_u((uint64_t)s);
        ln_i(st->MPI_TAG);
        ln_u(replace ? sbytes : rbytes);
        ln_u((uint64_t)S.comm[c].id);
    } else if (d >= 0) {
        ln_begin("send");
        ln_u((uint64_t)d);
        ln_i(stag);
        ln_u((uint64_t)S.comm[c].id);
        ln_u(sbytes);
    } else if (s >= 0) {
        ln_begin("recv");
        ln_u((uint64_t)s);
        ln_i(st->MPI_TAG);
        ln_u((uint64_t)S.comm[c].id);
        ln_u(rbytes);
    } else {
        return;
    }
    ln_end();
}

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status *status)
{
    MPI_Status local;
    bool rec = cap_enter();
    if (rec && status == MPI_STATUS_IGNORE)
        status = &local;
    int rc = PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                           recvtype, source, recvtag, comm, status);
    if (rec) {
        if (rc == MPI_SUCCESS)
            rec_sendrecv(false, dest, sendtag, nbytes(sendcount, sendtype), source, status, comm);
        cap_leave();
    }
    return rc;
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype dt, int dest, int sendtag, int source,
                         int recvtag, MPI_Comm comm, MPI_Status *status)
{
    MPI_Status local;
    bool rec = cap_enter();
    if (rec && status == MPI_STATUS_IGNORE)
        status = &local;
    int rc = PMPI_Sendrecv_replace(buf, count, dt, dest, sendtag, source, recvtag, comm, status);
    if (rec) {
        if (rc == MPI_SUCCESS)
            rec_sendrecv(true, dest, sendtag, nbytes(count, dt), source, status, comm);
        cap_leave();
    }
    return rc;
}

/* ---- completions --------------------------------------------------------- */

/* Save the handles of reqs[0..n) before MPI frees them; NULL when out of
 * memory. */
static MPI_Request *save_handles(const MPI_Request *reqs, int n)
{
    if (n > S.nsaved) {
        MPI_Request *p = realloc(S.saved, (size_t)n * sizeof *p);
        if (!p)
            return NULL;
        S.saved = p;
        S.nsaved = n;
    }
    if (n > 0)
        memcpy(S.saved, reqs, (size_t)n * sizeof *S.saved);
    return S.saved;
}

int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
    MPI_Status local;
    bool rec = cap_enter();
    MPI_Request h = *req;
    if (rec && status == MPI_STATUS_IGNORE)
        status = &local;
    int rc = PMPI_Wait(req, status);
    if (rec) {
        if (rc == MPI_SUCCESS) {
            ln_begin("wait");
            size_t pos = S.len;
            ln_insert_count(pos, completion(h, status) ? 1 : 0);
            ln_end();
        }
        cap_leave();
    }
    return rc;
}

int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
    MPI_Status local;
    bool rec = cap_enter();
    MPI_Request h = *req;
    if (rec && status == MPI_STATUS_IGNORE)
        status = &local;
    int rc = PMPI_Test(req, flag, status);
    if (rec) {
        if (rc == MPI_SUCCESS) {
            ln_begin("test");
            size_t pos = S.len;
            ln_insert_count(pos, *flag && completion(h, status) ? 1 : 0);
            ln_end();
        }
        cap_leave();
    }
    return rc;
}

/* waitall/testall: every request completed (done) or none. */
static void rec_all(const char *name, int n, const MPI_Request *h, const MPI_Status *st, bool done)
{
    ln_begin(name);
    size_t pos = S.len;
    uint64_t k = 0;
    for (int i = 0; done && i < n; i++)
        k += completion(h[i], &st[i]);
    ln_insert_count(pos, k);
    ln_end();
}

int MPI_Waitall(int count, MPI_Request reqs[], MPI_Status statuses[])
{
    bool rec = cap_enter();
    MPI_Request *h = NULL;
    if (rec) {
        h = save_handles(reqs, count);
        if (h && statuses == MPI_STATUSES_IGNORE)
            statuses = scratch(count) ? S.st : MPI_STATUSES_IGNORE;
        if (!h || statuses == MPI_STATUSES_IGNORE) {
            S.failed = true; /* out of memory: the trace cannot be complete */
            rec = false;
            cap_leave();
        }
    }
    int rc = PMPI_Waitall(count, reqs, statuses);
    if (rec) {
        if (rc == MPI_SUCCESS)
            rec_all("waitall", count, h, statuses, true);
        cap_leave();
    }
    return rc;
}

int MPI_Testall(int count, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
    bool rec = cap_enter();
    MPI_Request *h = NULL;
    if (rec) {
        h = save_handles(reqs, count);
        if (h && statuses == MPI_STATUSES_IGNORE)
            statuses = scratch(count) ? S.st : MPI_STATUSES_IGNORE;
        if (!h || statuses == MPI_STATUSES_IGNORE) {
            S.failed = true;
            rec = false;
            cap_leave();
        }
    }
    int rc = PMPI_Testall(count, reqs, flag, statuses);
    if (rec) {
        if (rc == MPI_SUCCESS)
            rec_all("testall", count, h, statuses, *flag != 0);
        cap_leave();
    }
    return rc;
}

/* waitany/testany: request *index completed (MPI_UNDEFINED: none). */
static void rec_any(const char *name, const MPI_Request *h, int index, bool done,
                    const MPI_Status *st)
{
    ln_begin(name);
    size_t pos = S.len;
    ln_insert_count(pos, done && index != MPI_UNDEFINED && completion(h[index], st) ? 1 : 0);
    ln_end();
}

int MPI_Waitany(int count, MPI_Request reqs[], int *index, MPI_Status *status)
{
    MPI_Status local;
    bool rec = cap_enter();
    MPI_Request *h = NULL;
    if (rec) {
        if (status == MPI_STATUS_IGNORE)
            status = &local;
        if (!(h = save_handles(reqs, count))) {
            S.failed = true;
            rec = false;
            cap_leave();
        }
    }
    int rc = PMPI_Waitany(count, reqs, index, status);
    if (rec) {
        if (rc == MPI_SUCCESS)
            rec_any("waitany", h, *index, true, status);
        cap_leave();
    }
    return rc;
}

int MPI_Testany(int count, MPI_Request reqs[], int *index, int *flag, MPI_Status *status)
{
    MPI_Status local;
    bool rec = cap_enter();
    MPI_Request *h = NULL;
    if (rec) {
        if (status == MPI_STATUS_IGNORE)
            status = &local;
        if (!(h = save_handles(reqs, count))) {
            S.failed = true;
            rec = false;
            cap_leave();
        }
    }
    int rc = PMPI_Testany(count, reqs, index, flag, status);
    if (rec) {
        if (rc == MPI_SUCCESS)
            rec_any("testany", h, *index, *flag != 0, status);
        cap_leave();
    }
    return rc;
}

/* waitsome/testsome: the *outcount requests indices[] completed. */
static void rec_some(const char *name, const MPI_Request *h, int outcount, const int *indices,
                     const MPI_Status *st)
{
    ln_begin(name);
    size_t pos = S.len;
    uint64_t k = 0;
    for (int i = 0; outcount != MPI_UNDEFINED && i < outcount; i++)
        k += completion(h[indices[i]], &st[i]);
    ln_insert_count(pos, k);
    ln_end();
}

int MPI_Waitsome(int incount, MPI_Request reqs[], int *outcount, int indices[],
                 MPI_Status statuses[])
{
    bool rec = cap_enter();
    MPI_Request *h = NULL;
    if (rec) {
        h = save_handles(reqs, incount);
        if (h && statuses == MPI_STATUSES_IGNORE)
            statuses = scratch(incount) ? S.st : MPI_STATUSES_IGNORE;
        if (!h || statuses == MPI_STATUSES_IGNORE) {
            S.failed = true;
            rec = false;
            cap_leave();
        }
    }
    int rc = PMPI_Waitsome(incount, reqs, outcount, indices, statuses);
    if (rec) {
        if (rc == MPI_SUCCESS)
            rec_some("waitsome", h, *outcount, indices, statuses);
        cap_leave();
    }
    return rc;
}

int MPI_Testsome(int incount, MPI_Request reqs[], int *outcount, int indices[],
                 MPI_Status statuses[])
{
    bool rec = cap_enter();
    MPI_Request *h = NULL;
    if (rec) {
        h = save_handles(reqs, incount);
        if (h && statuses == MPI_STATUSES_IGNORE)
            statuses = scratch(incount) ? S.st : MPI_STATUSES_IGNORE;
        if (!h || statuses == MPI_STATUSES_IGNORE) {
            S.failed = true;
            rec = false;
            cap_leave();
        }
    }
    int rc = PMPI_Testsome(incount, reqs, outcount, indices, statuses);
    if (rec) {
        if (rc == MPI_SUCCESS)
            rec_some("testsome", h, *outcount, indices, statuses);
        cap_leave();
    }
    return rc;
}

int MPI_Request_free(MPI_Request *req)
{
    bool rec = cap_enter();
    MPI_Request h = *req;
    int rc = PMPI_Request_free(req);
    if (rec) {
        int64_t i = req_find(h);
        if (rc == MPI_SUCCESS && i >= 0) {
            bool skip = S.req[i].skip;
            uint32_t id = S.req[i].id;
            req_drop(i);
            if (!skip) {
                ln_begin("request_free");
                ln_u(id);
                ln_end();
            }
        }
        cap_leave();
    }
    return rc;
}

/* "probe|iprobe FLAG SRC TAG COMM BYTES": the status of the message found,
 * or (iprobe, none found) the source and tag asked for and 0 bytes. */
static void rec_probe(const char *name, const char *mpi_name, int source, int tag, MPI_Comm comm,
                      int flag, const MPI_Status *st)
{
    int64_t c = comm_find(comm);
    if (c < 0) {
        rec_unsupported(mpi_name);
        return;
    }
    if (source == MPI_PROC_NULL)
        return;
    ln_begin(name);
    ln_u(flag ? 1 : 0);
    if (flag) {
        ln_i(comm_world(c, st->MPI_SOURCE));
        ln_i(st->MPI_TAG);
    } else {
        ln_i(comm_world(c, source));
        ln_i(tag == MPI_ANY_TAG ? -1 : tag);
    }
    ln_u((uint64_t)S.comm[c].id);
    ln_u(flag ? status_bytes(st) : 0);
    ln_end();
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    MPI_Status local;
    bool rec = cap_enter();
    if (rec && status == MPI_STATUS_IGNORE)
        status = &local;
    int rc = PMPI_Probe(source, tag, comm, status);
    if (rec) {
        if (rc == MPI_SUCCESS)
            rec_probe("probe", "MPI_Probe", source, tag, comm, 1, status);
        cap_leave();
    }
    return rc;
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    MPI_Status local;
    bool rec = cap_enter();
    if (rec && status == MPI_STATUS_IGNORE)
        status = &local;
    int rc = PMPI_Iprobe(source, tag, comm, flag, status);
    if (rec) {
        if (rc == MPI_SUCCESS)
            rec_probe("iprobe", "MPI_Iprobe", source, tag, comm, *flag, status);
        cap_leave();
    }
    return rc;
}

/* ---- collectives --------------------------------------------------------- */

/* The communicator index of a collective, or -1 after recording it as
 * unsupported. */
static int64_t coll_comm(MPI_Comm comm, const char *mpi_name)
{
    int64_t c = comm_find(comm);
    if (c < 0)
        rec_unsupported(mpi_name);
    return c;
}

/* "NAME [ROOT] COMM [BYTES]": root < 0 for none, bytes written when
 * with_bytes. */
static void rec_coll(const char *name, const char *mpi_name, MPI_Comm comm, int root,
                     bool with_bytes, uint64_t bytes)
{
    int64_t c = coll_comm(comm, mpi_name);
    if (c < 0)
        return;
    ln_begin(name);
    if (root >= 0)
        ln_i(comm_world(c, root));
    ln_u((uint64_t)S.comm[c].id);
    if (with_bytes)
        ln_u(bytes);
    ln_end();
}

/* " K B1..BK": counts[i] x the size of dt for the members of c. */
static void ln_counts(int64_t c, const int *counts, MPI_Datatype dt)
{
    int sz = 0;
    if (dt == MPI_DATATYPE_NULL || PMPI_Type_size(dt, &sz) != MPI_SUCCESS || sz < 0)
        sz = 0;
    ln_u((uint64_t)S.comm[c].size);
    for (int i = 0; i < S.comm[c].size; i++)
        ln_u(counts[i] > 0 ? (uint64_t)counts[i] * (uint64_t)sz : 0);
}

/* This rank's rank in communicator c. */
static int my_rank(MPI_Comm comm)
{
    int r = -1;
    PMPI_Comm_rank(comm, &r);
    return r;
}

/* Wrap a collective whose line is built by REC (a statement) after a
 * successful PMPI call CALL. */
#define COLL_BODY(CALL, REC)                                                                      \
    bool rec = cap_enter();                                                                       \
    int rc = CALL;                                                                                \
    if (rec) {                                                                                    \
        if (rc == MPI_SUCCESS) {                                                                  \
            REC;                                                                                  \
        }                                                                                         \
        cap_leave();                                                                              \
    }                                                                                             \
    return rc;

int MPI_Barrier(MPI_Comm comm)
{
    COLL_BODY(PMPI_Barrier(comm), rec_coll("barrier", "MPI_Barrier", comm, -1, false, 0))
}

int MPI_Bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm)
{
    COLL_BODY(PMPI_Bcast(buf, count, dt, root, comm),
              rec_coll("bcast", "MPI_Bcast", comm, root, true, nbytes(count, dt)))
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op, int root,
               MPI_Comm comm)
{
    COLL_BODY(PMPI_Reduce(sendbuf, recvbuf, count, dt, op, root, comm),
              rec_coll("reduce", "MPI_Reduce", comm, root, true, nbytes(count, dt)))
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
                  MPI_Comm comm)
{
    COLL_BODY(PMPI_Allreduce(sendbuf, recvbuf, count, dt, op, comm),
              rec_coll("allreduce", "MPI_Allreduce", comm, -1, true, nbytes(count, dt)))
}

int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
             MPI_Comm comm)
{
    COLL_BODY(PMPI_Scan(sendbuf, recvbuf, count, dt, op, comm),
              rec_coll("scan", "MPI_Scan", comm, -1, true, nbytes(count, dt)))
}

int MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
               MPI_Comm comm)
{
    COLL_BODY(PMPI_Exscan(sendbuf, recvbuf, count, dt, op, comm),
              rec_coll("exscan", "MPI_Exscan", comm, -1, true, nbytes(count, dt)))
}

/* gather: one member's block is the send side, or (the root in place) the
 * receive side. */
int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    COLL_BODY(PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm),
              rec_coll("gather", "MPI_Gather", comm, root, true,
                       sendbuf == MPI_IN_PLACE ? nbytes(recvcount, recvtype)
                                               : nbytes(sendcount, sendtype)))
}

/* scatter: the receive side, or (the root in place) the send side. */
int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    COLL_BODY(PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                           comm),
              rec_coll("scatter", "MPI_Scatter", comm, root, true,
                       recvbuf == MPI_IN_PLACE ? nbytes(sendcount, sendtype)
                                               : nbytes(recvcount, recvtype)))
}

int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    COLL_BODY(PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm),
              rec_coll("allgather", "MPI_Allgather", comm, -1, true,
                       sendbuf == MPI_IN_PLACE ? nbytes(recvcount, recvtype)
                                               : nbytes(sendcount, sendtype)))
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    COLL_BODY(PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm),
              rec_coll("alltoall", "MPI_Alltoall", comm, -1, true,
                       sendbuf == MPI_IN_PLACE ? nbytes(recvcount, recvtype)
                                               : nbytes(sendcount, sendtype)))
}

int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype dt,
                             MPI_Op op, MPI_Comm comm)
{
    COLL_BODY(PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, dt, op, comm),
              rec_coll("reduce_scatter_block", "MPI_Reduce_scatter_block", comm, -1, true,
                       nbytes(recvcount, dt)))
}

/* "gatherv ROOT COMM SBYTES K B1..BK" (K = 0 except at the root). */
static void rec_gatherv(const char *name, const char *mpi_name, MPI_Comm comm, int root,
                        uint64_t mine, const int *counts, MPI_Datatype dt)
{
    int64_t c = coll_comm(comm, mpi_name);
    if (c < 0)
        return;
    ln_begin(name);
    ln_i(comm_world(c, root));
    ln_u((uint64_t)S.comm[c].id);
    ln_u(mine);
    if (my_rank(comm) == root)
        ln_counts(c, counts, dt);
    else
        ln_u(0);
    ln_end();
}

int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                MPI_Comm comm)
{
    COLL_BODY(PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                           root, comm),
              rec_gatherv("gatherv", "MPI_Gatherv", comm, root,
                          sendbuf == MPI_IN_PLACE
                              ? nbytes(recvcounts[my_rank(comm)], recvtype)
                              : nbytes(sendcount, sendtype),
                          recvcounts, recvtype))
}

int MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                 MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                 int root, MPI_Comm comm)
{
    COLL_BODY(PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                            root, comm),
              rec_gatherv("scatterv", "MPI_Scatterv", comm, root,
                          recvbuf == MPI_IN_PLACE ? nbytes(sendcounts[my_rank(comm)], sendtype)
                                                  : nbytes(recvcount, recvtype),
                          sendcounts, sendtype))
}

/* "NAME COMM K B1..BK". */
static void rec_vec(const char *name, const char *mpi_name, MPI_Comm comm, const int *counts,
                    MPI_Datatype dt)
{
    int64_t c = coll_comm(comm, mpi_name);
    if (c < 0)
        return;
    ln_begin(name);
    ln_u((uint64_t)S.comm[c].id);
    ln_counts(c, counts, dt);
    ln_end();
}

int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    COLL_BODY(PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                              comm),
              rec_vec("allgatherv", "MPI_Allgatherv", comm, recvcounts, recvtype))
}

int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                       MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    COLL_BODY(PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, dt, op, comm),
              rec_vec("reduce_scatter", "MPI_Reduce_scatter", comm, recvcounts, dt))
}

/* "alltoallv COMM K S1..SK R1..RK" (in place: the receive counts both
 * ways). */
static void rec_alltoallv(MPI_Comm comm, const int *scounts, MPI_Datatype stype,
                          const int *rcounts, MPI_Datatype rtype)
{
    int64_t c = coll_comm(comm, "MPI_Alltoallv");
    if (c < 0)
        return;
    ln_begin("alltoallv");
    ln_u((uint64_t)S.comm[c].id);
    ln_counts(c, scounts, stype);
    size_t pos = S.len;
    ln_counts(c, rcounts, rtype);
    /* the receive list has no count of its own: drop the second " K" */
    size_t klen = 1;
    while (pos + klen < S.len && S.line[pos + klen] != ' ')
        klen++;
    memmove(S.line + pos, S.line + pos + klen, S.len - pos - klen);
    S.len -= klen;
    ln_end();
}

int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                  MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                  const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    bool in_place = sendbuf == MPI_IN_PLACE;
    COLL_BODY(PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                             recvtype, comm),
              rec_alltoallv(comm, in_place ? recvcounts : sendcounts,
                            in_place ? recvtype : sendtype, recvcounts, recvtype))
}

/* ---- communicators ------------------------------------------------------- */

#define COMM_BODY(CALL, NAME, MPI_NAME, PARENT, NEWCOMM)                                          \
    bool rec = cap_enter();                                                                       \
    int rc = CALL;                                                                                \
    if (rec) {                                                                                    \
        if (rc == MPI_SUCCESS)                                                                    \
            rec_comm_made(NAME, MPI_NAME, PARENT, *(NEWCOMM));                                    \
        cap_leave();                                                                              \
    }                                                                                             \
    return rc;

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    COMM_BODY(PMPI_Comm_dup(comm, newcomm), "comm_dup", "MPI_Comm_dup", comm, newcomm)
}

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    COMM_BODY(PMPI_Comm_dup_with_info(comm, info, newcomm), "comm_dup", "MPI_Comm_dup_with_info",
              comm, newcomm)
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    COMM_BODY(PMPI_Comm_split(comm, color, key, newcomm), "comm_split", "MPI_Comm_split", comm,
              newcomm)
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    COMM_BODY(PMPI_Comm_create(comm, group, newcomm), "comm_create", "MPI_Comm_create", comm,
              newcomm)
}

/* The other calls that make an intracommunicator: recorded as comm_create
 * with its members. */
int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm)
{
    COMM_BODY(PMPI_Comm_split_type(comm, split_type, key, info, newcomm), "comm_create",
              "MPI_Comm_split_type", comm, newcomm)
}

int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    COMM_BODY(PMPI_Comm_create_group(comm, group, tag, newcomm), "comm_create",
              "MPI_Comm_create_group", comm, newcomm)
}

int MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[],
                    int reorder, MPI_Comm *comm_cart)
{
    COMM_BODY(PMPI_Cart_create(comm_old, ndims, dims, periods, reorder, comm_cart),
              "comm_create", "MPI_Cart_create", comm_old, comm_cart)
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    COMM_BODY(PMPI_Cart_sub(comm, remain_dims, newcomm), "comm_create", "MPI_Cart_sub", comm,
              newcomm)
}

int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int indx[], const int edges[],
                     int reorder, MPI_Comm *comm_graph)
{
    COMM_BODY(PMPI_Graph_create(comm_old, nnodes, indx, edges, reorder, comm_graph),
              "comm_create", "MPI_Graph_create", comm_old, comm_graph)
}

int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                          const int destinations[], const int weights[], MPI_Info info,
                          int reorder, MPI_Comm *comm_dist_graph)
{
    COMM_BODY(PMPI_Dist_graph_create(comm_old, n, sources, degrees, destinations, weights, info,
                                     reorder, comm_dist_graph),
              "comm_create", "MPI_Dist_graph_create", comm_old, comm_dist_graph)
}

int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                   const int sourceweights[], int outdegree,
                                   const int destinations[], const int destweights[],
                                   MPI_Info info, int reorder, MPI_Comm *comm_dist_graph)
{
    COMM_BODY(PMPI_Dist_graph_create_adjacent(comm_old, indegree, sources, sourceweights,
                                              outdegree, destinations, destweights, info, reorder,
                                              comm_dist_graph),
              "comm_create", "MPI_Dist_graph_create_adjacent", comm_old, comm_dist_graph)
}

int MPI_Comm_free(MPI_Comm *comm)
{
    bool rec = cap_enter();
    int64_t c = rec ? comm_find(*comm) : -1;
    int rc = PMPI_Comm_free(comm);
    if (rec) {
        if (rc == MPI_SUCCESS && c >= 2) {
            S.comm[c].h = MPI_COMM_NULL; /* invariant 3 */
            ln_begin("comm_free");
            ln_u((uint64_t)S.comm[c].id);
            ln_end();
        }
        cap_leave();
    }
    return rc;
}

/* ---- calls the replay cannot model ----------------------------------------
 * Each is written as `unsupported MPI_NAME` before it runs (its prototype as
 * MPI 3.1 gives it; Open MPI and MPICH agree). */
#define UNSUP(NAME, PARAMS, ARGS)                                                                 \
    int MPI_##NAME PARAMS                                                                         \
    {                                                                                             \
        bool rec = cap_enter();                                                                   \
        if (rec)                                                                                  \
            rec_unsupported("MPI_" #NAME);                                                        \
        int rc = PMPI_##NAME ARGS;                                                                \
        if (rec)                                                                                  \
            cap_leave();                                                                          \
        return rc;                                                                                \
    }

UNSUP(Win_create, (void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win),
      (base, size, disp_unit, info, comm, win))
UNSUP(Win_allocate, (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win),
      (size, disp_unit, info, comm, baseptr, win))
UNSUP(Win_allocate_shared, (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win),
      (size, disp_unit, info, comm, baseptr, win))
UNSUP(Win_create_dynamic, (MPI_Info info, MPI_Comm comm, MPI_Win *win),
      (info, comm, win))
UNSUP(Put, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win),
      (origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, win))
UNSUP(Get, (void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win),
      (origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, win))
UNSUP(Accumulate, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win),
      (origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, op, win))
UNSUP(Get_accumulate, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win),
      (origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype, target_rank, target_disp, target_count, target_datatype, op, win))
UNSUP(Fetch_and_op, (const void *origin_addr, void *result_addr, MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win),
      (origin_addr, result_addr, datatype, target_rank, target_disp, op, win))
UNSUP(Compare_and_swap, (const void *origin_addr, const void *compare_addr, void *result_addr, MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win),
      (origin_addr, compare_addr, result_addr, datatype, target_rank, target_disp, win))
UNSUP(Rput, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request),
      (origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, win, request))
UNSUP(Rget, (void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request),
      (origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, win, request))
UNSUP(Raccumulate, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request),
      (origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, op, win, request))
UNSUP(Win_fence, (int assert, MPI_Win win),
      (assert, win))
UNSUP(Win_lock, (int lock_type, int rank, int assert, MPI_Win win),
      (lock_type, rank, assert, win))
UNSUP(Win_unlock, (int rank, MPI_Win win),
      (rank, win))
UNSUP(Win_lock_all, (int assert, MPI_Win win),
      (assert, win))
UNSUP(Win_unlock_all, (MPI_Win win),
      (win))
UNSUP(Win_post, (MPI_Group group, int assert, MPI_Win win),
      (group, assert, win))
UNSUP(Win_start, (MPI_Group group, int assert, MPI_Win win),
      (group, assert, win))
UNSUP(Win_complete, (MPI_Win win),
      (win))
UNSUP(Win_wait, (MPI_Win win),
      (win))
UNSUP(Win_flush, (int rank, MPI_Win win),
      (rank, win))
UNSUP(Win_flush_all, (MPI_Win win),
      (win))
UNSUP(Send_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request),
      (buf, count, datatype, dest, tag, comm, request))
UNSUP(Bsend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request),
      (buf, count, datatype, dest, tag, comm, request))
UNSUP(Ssend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request),
      (buf, count, datatype, dest, tag, comm, request))
UNSUP(Rsend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request),
      (buf, count, datatype, dest, tag, comm, request))
UNSUP(Recv_init, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request),
      (buf, count, datatype, source, tag, comm, request))
UNSUP(Start, (MPI_Request *request),
      (request))
UNSUP(Startall, (int count, MPI_Request array_of_requests[]),
      (count, array_of_requests))
UNSUP(Intercomm_create, (MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader, int tag, MPI_Comm *newintercomm),
      (local_comm, local_leader, peer_comm, remote_leader, tag, newintercomm))
UNSUP(Intercomm_merge, (MPI_Comm intercomm, int high, MPI_Comm *newintracomm),
      (intercomm, high, newintracomm))
UNSUP(Comm_spawn, (const char *command, char *argv[], int maxprocs, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[]),
      (command, argv, maxprocs, info, root, comm, intercomm, array_of_errcodes))
UNSUP(Comm_spawn_multiple, (int count, char *array_of_commands[], char **array_of_argv[], const int array_of_maxprocs[], const MPI_Info array_of_info[], int root, MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[]),
      (count, array_of_commands, array_of_argv, array_of_maxprocs, array_of_info, root, comm, intercomm, array_of_errcodes))
UNSUP(Comm_accept, (const char *port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *newcomm),
      (port_name, info, root, comm, newcomm))
UNSUP(Comm_connect, (const char *port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *newcomm),
      (port_name, info, root, comm, newcomm))
UNSUP(Comm_join, (int fd, MPI_Comm *intercomm),
      (fd, intercomm))
UNSUP(Ibarrier, (MPI_Comm comm, MPI_Request *request),
      (comm, request))
UNSUP(Ibcast, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request),
      (buffer, count, datatype, root, comm, request))
UNSUP(Ireduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Request *request),
      (sendbuf, recvbuf, count, datatype, op, root, comm, request))
UNSUP(Iallreduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request),
      (sendbuf, recvbuf, count, datatype, op, comm, request))
UNSUP(Igather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request),
      (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request))
UNSUP(Igatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request),
      (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, request))
UNSUP(Iscatter, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request),
      (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request))
UNSUP(Iscatterv, (const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request),
      (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, request))
UNSUP(Iallgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request),
      (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request))
UNSUP(Iallgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request),
      (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, request))
UNSUP(Ialltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request),
      (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request))
UNSUP(Ialltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request),
      (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, request))
UNSUP(Ialltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request),
      (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm, request))
UNSUP(Ireduce_scatter, (const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request),
      (sendbuf, recvbuf, recvcounts, datatype, op, comm, request))
UNSUP(Ireduce_scatter_block, (const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request),
      (sendbuf, recvbuf, recvcount, datatype, op, comm, request))
UNSUP(Iscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request),
      (sendbuf, recvbuf, count, datatype, op, comm, request))
UNSUP(Iexscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request),
      (sendbuf, recvbuf, count, datatype, op, comm, request))
UNSUP(Neighbor_allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm),
      (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm))
UNSUP(Neighbor_allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm),
      (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm))
UNSUP(Neighbor_alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm),
      (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm))
UNSUP(Neighbor_alltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm),
      (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm))
UNSUP(Neighbor_alltoallw, (const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm),
      (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm))
UNSUP(Ineighbor_allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request),
      (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request))
UNSUP(Ineighbor_allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request),
      (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, request))
UNSUP(Ineighbor_alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request),
      (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request))
UNSUP(Ineighbor_alltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request),
      (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, request))
UNSUP(Ineighbor_alltoallw, (const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request),
      (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm, request))
UNSUP(Alltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm),
      (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm))
UNSUP(Comm_idup, (MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request),
      (comm, newcomm, request))
/* MPI_Cancel of a receive is replayed as what it leaves: the request
 * completes without a status (completion), and the replay never posts
 * the receive. Cancelling a send cannot be modelled (whether it was
 * cancelled depends on the host's timing): recorded as unsupported. */
int MPI_Cancel(MPI_Request *request)
{
    bool rec = cap_enter();
    if (rec) {
        int64_t i = request ? req_find(*request) : -1;
        if (i < 0 || !S.req[i].recv)
            rec_unsupported("MPI_Cancel");
    }
    int rc = PMPI_Cancel(request);
    if (rec)
        cap_leave();
    return rc;
}
UNSUP(Mprobe, (int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status),
      (source, tag, comm, message, status))
UNSUP(Improbe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status),
      (source, tag, comm, flag, message, status))
UNSUP(Mrecv, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status),
      (buf, count, datatype, message, status))
UNSUP(Imrecv, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request),
      (buf, count, datatype, message, request))
UNSUP(Grequest_start, (MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn, MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request),
      (query_fn, free_fn, cancel_fn, extra_state, request))
