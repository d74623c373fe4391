/* traces/mpitrace.c — MPI traces (mpitrace.h): the builder every reader
 * feeds (mpp_mpitb_*), the capture format's reader (capture.mpt and its
 * rank files, docs/formats.md "MPI traces") and mpp_mpitrace_load, which
 * tells the trace kinds apart by their contents.
 *
 * The builder keeps, per rank, the events as the file gave them (the
 * file's communicator and request ids, completion and vector values in
 * side arrays, each event's FILE:LINE), and resolves them all at once in
 * mpp_mpitb_finish:
 *
 *   add/comm/unsupported/end (per rank, call order; context-free checks:
 *   world ranks < N, tags, BYTES, a comm_* followed by its communicator)
 *        |
 *        v
 *   finish: every rank ended  ->  global communicators (comms_resolve)
 *        ->  per rank, in call order (rank_resolve): communicator ids to
 *            global indices, request ids to the request table, completions
 *            linked, irecvs given their matched status, peers/roots/K
 *            checked against the communicator  ->  the trace
 *
 * Global communicators: index 0 is MPI_COMM_WORLD, 1 + r rank r's
 * MPI_COMM_SELF, then the created ones in the order (rank, creation) of
 * their first creator. A created communicator is identified by (member
 * list, occurrence): the occurrence of a rank's new communicator is the
 * number of communicators with the same member list that rank created
 * before. Two tables make that linear in the members: `classes` (member
 * list -> class, with a running count per rank, as ranks are visited one
 * at a time) and `keys` ((class, occurrence) -> global index).
 *
 * Invariants:
 *   1. A rank's created communicator includes the rank (mpp_mpitb_comm),
 *      so a rank creates a given (list, occurrence) at most once and the
 *      creators of a global communicator are among its members: creators
 *      == size means every member created it (checked in comms_resolve).
 *   2. Every event of a finished trace refers only to what exists: comm
 *      < ncomms (MPP_MPI_NONE only for a comm_* this rank is not in),
 *      peers and roots are members of the event's communicator, req and
 *      reqs[] < nreq, counts and reqs ranges inside their arrays.
 *   3. On any error everything the builder or the reader took is freed
 *      and *out is NULL: no half-built trace escapes.
 *   4. Memory is taken only for what was read: a count K is checked
 *      against the line (and mpp_lines_check_count) before arrays for it
 *      grow, the rank files are all present before per-rank state exists.
 */
#include "traces/mpitrace.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/base/units.h"
#include "traces/lineio.h"

const char *const mpp_mpi_call_names[MPP_MPI_NCALLS] = {
    [MPP_MPI_SEND] = "send",
    [MPP_MPI_SSEND] = "ssend",
    [MPP_MPI_BSEND] = "bsend",
    [MPP_MPI_RSEND] = "rsend",
    [MPP_MPI_ISEND] = "isend",
    [MPP_MPI_ISSEND] = "issend",
    [MPP_MPI_IRSEND] = "irsend",
    [MPP_MPI_RECV] = "recv",
    [MPP_MPI_IRECV] = "irecv",
    [MPP_MPI_SENDRECV] = "sendrecv",
    [MPP_MPI_SENDRECV_REPLACE] = "sendrecv_replace",
    [MPP_MPI_WAIT] = "wait",
    [MPP_MPI_WAITALL] = "waitall",
    [MPP_MPI_WAITANY] = "waitany",
    [MPP_MPI_WAITSOME] = "waitsome",
    [MPP_MPI_TEST] = "test",
    [MPP_MPI_TESTALL] = "testall",
    [MPP_MPI_TESTANY] = "testany",
    [MPP_MPI_TESTSOME] = "testsome",
    [MPP_MPI_PROBE] = "probe",
    [MPP_MPI_IPROBE] = "iprobe",
    [MPP_MPI_REQUEST_FREE] = "request_free",
    [MPP_MPI_BARRIER] = "barrier",
    [MPP_MPI_BCAST] = "bcast",
    [MPP_MPI_REDUCE] = "reduce",
    [MPP_MPI_ALLREDUCE] = "allreduce",
    [MPP_MPI_GATHER] = "gather",
    [MPP_MPI_GATHERV] = "gatherv",
    [MPP_MPI_SCATTER] = "scatter",
    [MPP_MPI_SCATTERV] = "scatterv",
    [MPP_MPI_ALLGATHER] = "allgather",
    [MPP_MPI_ALLGATHERV] = "allgatherv",
    [MPP_MPI_ALLTOALL] = "alltoall",
    [MPP_MPI_ALLTOALLV] = "alltoallv",
    [MPP_MPI_REDUCE_SCATTER] = "reduce_scatter",
    [MPP_MPI_REDUCE_SCATTER_BLOCK] = "reduce_scatter_block",
    [MPP_MPI_SCAN] = "scan",
    [MPP_MPI_EXSCAN] = "exscan",
    [MPP_MPI_COMM_DUP] = "comm_dup",
    [MPP_MPI_COMM_SPLIT] = "comm_split",
    [MPP_MPI_COMM_CREATE] = "comm_create",
    [MPP_MPI_COMM_FREE] = "comm_free",
    [MPP_MPI_UNSUPPORTED] = "unsupported",
};

#define MAX_TAG 2147483647u
#define NO_FILE UINT32_MAX

/* ---- call classes ---------------------------------------------------------- */

static bool is_isend(int c) { return c >= MPP_MPI_ISEND && c <= MPP_MPI_IRSEND; }
static bool is_send(int c) { return c >= MPP_MPI_SEND && c <= MPP_MPI_RSEND; }
static bool is_completion(int c) { return c >= MPP_MPI_WAIT && c <= MPP_MPI_TESTSOME; }
static bool is_comm_new(int c) { return c >= MPP_MPI_COMM_DUP && c <= MPP_MPI_COMM_CREATE; }
static bool is_rooted(int c)
{
    return c == MPP_MPI_BCAST || c == MPP_MPI_REDUCE || c == MPP_MPI_GATHER ||
           c == MPP_MPI_SCATTER || c == MPP_MPI_GATHERV || c == MPP_MPI_SCATTERV;
}
static bool is_vector(int c)
{
    return c == MPP_MPI_GATHERV || c == MPP_MPI_SCATTERV || c == MPP_MPI_ALLGATHERV ||
           c == MPP_MPI_ALLTOALLV || c == MPP_MPI_REDUCE_SCATTER;
}

/* ---- a u32 -> u32 map (linear probing, backward-shift deletion) ------------- */

/* Keys are file ids (never MPP_MPI_NONE, which marks an empty slot). */
typedef struct idmap {
    uint32_t *key, *val;
    uint32_t mask;
} idmap;

/* A map for at most n live keys; false when out of memory. */
static bool idmap_init(idmap *m, uint64_t n)
{
    uint64_t cap = 8;
    while (cap < 2 * n + 2)
        cap *= 2;
    m->key = malloc(cap * sizeof *m->key);
    m->val = malloc(cap * sizeof *m->val);
    m->mask = (uint32_t)(cap - 1);
    if (!m->key || !m->val)
        return false;
    memset(m->key, 0xff, cap * sizeof *m->key);
    return true;
}

static void idmap_free(idmap *m)
{
    free(m->key);
    free(m->val);
    memset(m, 0, sizeof *m);
}

static uint32_t idmap_home(const idmap *m, uint32_t k)
{
    return (uint32_t)((k * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & m->mask;
}

/* The slot of k, or of the empty slot where it would go. */
static uint32_t idmap_slot(const idmap *m, uint32_t k)
{
    uint32_t i = idmap_home(m, k);
    while (m->key[i] != MPP_MPI_NONE && m->key[i] != k)
        i = (i + 1) & m->mask;
    return i;
}

/* The value of k, or MPP_MPI_NONE. */
static uint32_t idmap_get(const idmap *m, uint32_t k)
{
    uint32_t i = idmap_slot(m, k);
    return m->key[i] == k ? m->val[i] : MPP_MPI_NONE;
}

/* Insert k -> v (k absent; the map was sized for it). */
static void idmap_put(idmap *m, uint32_t k, uint32_t v)
{
    uint32_t i = idmap_slot(m, k);
    m->key[i] = k;
    m->val[i] = v;
}

/* Remove k (present). */
static void idmap_del(idmap *m, uint32_t k)
{
    uint32_t i = idmap_slot(m, k), j = i;
    assert(m->key[i] == k);
    for (;;) {
        j = (j + 1) & m->mask;
        if (m->key[j] == MPP_MPI_NONE)
            break;
        uint32_t h = idmap_home(m, m->key[j]);
        /* move j back to i unless its home lies cyclically in (i, j] */
        bool stays = i <= j ? (h > i && h <= j) : (h > i || h <= j);
        if (!stays) {
            m->key[i] = m->key[j];
            m->val[i] = m->val[j];
            i = j;
        }
    }
    m->key[i] = MPP_MPI_NONE;
}

/* ---- the builder's state ----------------------------------------------------- */

typedef struct tb_loc {
    uint32_t file; /* index into b->file, NO_FILE: unknown */
    uint64_t line;
} tb_loc;

/* A communicator that one rank's comm_* event made (or did not: id NONE). */
typedef struct tb_comm {
    uint32_t event;  /* the comm_* event */
    uint32_t id;     /* the file's id; MPP_MPI_NONE: the rank is in none */
    uint64_t first;  /* members b->mem[first .. first+n) */
    uint32_t n;
    uint32_t global; /* resolved by comms_resolve */
} tb_comm;

typedef struct tb_rank {
    mpp_mpi_event *ev; /* as the file gave them; completion events hold the
                          offset of their statuses in ev.req */
    tb_loc *loc;
    uint32_t nev, cap;
    uint64_t *val; /* completion request ids and vector counts */
    uint64_t nval, capval;
    mpp_mpitb_status *st; /* completion statuses */
    uint64_t nst, capst;
    tb_comm *cm;
    uint32_t ncm, capcm;
    uint64_t ncounts;    /* vector values (final counts[]) */
    uint64_t ncompl;     /* completion values (final reqs[]) */
    uint32_t nmade;      /* isend/irecv events (final req[]) */
    uint32_t name;       /* pending unsupported name (offset) */
    bool has_name;
    bool pending_comm;   /* the last event is a comm_* still without its comm */
    bool ended;
    uint64_t end_cpu;
    tb_loc last;         /* where the rank was last seen */
} tb_rank;

struct mpp_mpitb {
    uint32_t nranks;
    int source;
    mpp_err *err;
    tb_rank *rank;
    char **file; /* the file names given to mpp_mpitb_where */
    uint32_t nfile, capfile;
    tb_loc cur;
    uint32_t *mem; /* created communicators' members */
    uint64_t nmem, capmem;
    char *names;   /* unsupported calls' names, NUL-separated */
    uint64_t names_len, names_cap;
    uint32_t *stamp; /* [nranks] duplicate check of member lists */
    uint32_t stamp_gen;
};

/* Grow *p (elements of sz bytes, *cap of them) to hold need; false when
 * out of memory or beyond limit elements. */
static bool grow(void **p, uint64_t *cap, uint64_t need, size_t sz, uint64_t limit)
{
    if (need <= *cap)
        return true;
    if (need > limit)
        return false;
    uint64_t c = *cap ? *cap : 16;
    while (c < need)
        c = c > limit / 2 ? limit : c * 2;
    if (c > SIZE_MAX / sz)
        return false;
    void *q = realloc(*p, (size_t)(c * sz));
    if (!q)
        return false;
    *p = q;
    *cap = c;
    return true;
}

/* The same for a 32-bit capacity. */
static bool grow32(void **p, uint32_t *cap, uint64_t need, size_t sz)
{
    uint64_t c = *cap;
    bool ok = grow(p, &c, need, sz, UINT32_MAX - 1);
    *cap = (uint32_t)c;
    return ok;
}

/* MPP_EFORMAT "FILE:LINE: message" at loc (FILE: when line is 0; "rank
 * R: " when the file is unknown). */
static int fail_at(mpp_mpitb *b, tb_loc loc, uint32_t r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static int fail_at(mpp_mpitb *b, tb_loc loc, uint32_t r, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (loc.file == NO_FILE)
        return mpp_err_set(b->err, MPP_EFORMAT, "rank %" PRIu32 ": %s", r, msg);
    if (loc.line == 0)
        return mpp_err_set(b->err, MPP_EFORMAT, "%s: %s", b->file[loc.file], msg);
    return mpp_err_set(b->err, MPP_EFORMAT, "%s:%" PRIu64 ": %s", b->file[loc.file], loc.line,
                       msg);
}

static int oom(mpp_mpitb *b)
{
    return mpp_err_set(b->err, MPP_ENOMEM, "out of memory while building the MPI trace");
}

mpp_mpitb *mpp_mpitb_new(uint32_t nranks, int source, mpp_err *err)
{
    if (nranks == 0 || nranks > MPP_MPITRACE_MAX_RANKS) {
        mpp_err_set(err, MPP_EFORMAT, "%" PRIu32 " ranks, expected 1 .. %u", nranks,
                    MPP_MPITRACE_MAX_RANKS);
        return NULL;
    }
    mpp_mpitb *b = calloc(1, sizeof *b);
    if (!b || !(b->rank = calloc(nranks, sizeof *b->rank))) {
        free(b);
        mpp_err_set(err, MPP_ENOMEM, "out of memory for an MPI trace of %" PRIu32 " ranks",
                    nranks);
        return NULL;
    }
    b->nranks = nranks;
    b->source = source;
    b->err = err;
    b->cur.file = NO_FILE;
    for (uint32_t r = 0; r < nranks; r++)
        b->rank[r].last.file = NO_FILE;
    return b;
}

void mpp_mpitb_where(mpp_mpitb *b, const char *file, uint64_t line)
{
    if (!b)
        return;
    b->cur.line = line;
    if (b->cur.file != NO_FILE && !strcmp(b->file[b->cur.file], file))
        return;
    for (uint32_t i = 0; i < b->nfile; i++)
        if (!strcmp(b->file[i], file)) {
            b->cur.file = i;
            return;
        }
    char *copy = NULL;
    if (!grow32((void **)&b->file, &b->capfile, (uint64_t)b->nfile + 1, sizeof *b->file) ||
        !(copy = malloc(strlen(file) + 1))) {
        b->cur.file = NO_FILE; /* the messages then name the rank */
        return;
    }
    strcpy(copy, file);
    b->file[b->nfile] = copy;
    b->cur.file = b->nfile++;
}

/* Rank r for a builder call: r in range, not ended, no comm_* waiting for
 * its communicator (unless comm_ok). Records where r was seen. */
static int rank_ok(mpp_mpitb *b, uint32_t r, bool comm_ok)
{
    if (r >= b->nranks)
        return fail_at(b, b->cur, r, "rank %" PRIu32 " of a trace of %" PRIu32 " ranks", r,
                       b->nranks);
    tb_rank *k = &b->rank[r];
    k->last = b->cur;
    if (k->ended)
        return fail_at(b, b->cur, r, "rank %" PRIu32 " has a call after its `end`", r);
    if (k->pending_comm && !comm_ok)
        return fail_at(b, k->loc[k->nev - 1], r,
                       "%s without its new communicator (expected NEW K M1..MK)",
                       mpp_mpi_call_names[k->ev[k->nev - 1].call]);
    return 0;
}

/* Context-free checks of one field. */
static int check_rank(mpp_mpitb *b, uint32_t r, uint32_t v, bool any, const char *what)
{
    if (v < b->nranks || (any && v == MPP_MPI_ANY))
        return 0;
    return fail_at(b, b->cur, r, "expected a world rank below %" PRIu32 "%s for %s, got %" PRIu32,
                   b->nranks, any ? " or ANY" : "", what, v);
}

static int check_tag(mpp_mpitb *b, uint32_t r, uint32_t v, bool any, const char *what)
{
    if (v <= MAX_TAG || (any && v == MPP_MPI_ANY))
        return 0;
    return fail_at(b, b->cur, r, "expected a tag of at most 2^31 - 1%s for %s, got %" PRIu32,
                   any ? " or ANY" : "", what, v);
}

static int check_bytes(mpp_mpitb *b, uint32_t r, uint64_t v, const char *what)
{
    if (v <= MPP_MPITRACE_MAX_BYTES)
        return 0;
    return fail_at(b, b->cur, r, "expected at most 2^40 bytes for %s, got %" PRIu64, what, v);
}

/* The context-free checks of ev (those that need no communicator). */
static int check_event(mpp_mpitb *b, uint32_t r, const mpp_mpi_event *ev, const uint64_t *vals,
                       const mpp_mpitb_status *st, uint32_t n)
{
    int c = ev->call, rc = 0;
    const char *name = mpp_mpi_call_names[c];
    if (!is_completion(c) && !is_vector(c) && n)
        return fail_at(b, b->cur, r, "%s takes no list of values, got %" PRIu32, name, n);
    if (n && !vals)
        return fail_at(b, b->cur, r, "%s: %" PRIu32 " values announced, none given", name, n);
    if (is_send(c) || is_isend(c)) {
        if ((rc = check_rank(b, r, ev->peer, false, "DST")) || (rc = check_tag(b, r, ev->tag, false, "TAG")) ||
            (rc = check_bytes(b, r, ev->bytes, "BYTES")))
            return rc;
    } else if (c == MPP_MPI_RECV) {
        if ((rc = check_rank(b, r, ev->peer, false, "SRC")) || (rc = check_tag(b, r, ev->tag, false, "TAG")) ||
            (rc = check_bytes(b, r, ev->bytes, "BYTES")))
            return rc;
    } else if (c == MPP_MPI_IRECV) {
        if ((rc = check_rank(b, r, ev->peer, true, "SRC")) || (rc = check_tag(b, r, ev->tag, true, "TAG")))
            return rc;
    } else if (c == MPP_MPI_SENDRECV || c == MPP_MPI_SENDRECV_REPLACE) {
        if ((rc = check_rank(b, r, ev->peer, false, "DST")) || (rc = check_tag(b, r, ev->tag, false, "STAG")) ||
            (rc = check_rank(b, r, ev->peer2, false, "SRC")) ||
            (rc = check_tag(b, r, ev->tag2, false, "RTAG")) ||
            (rc = check_bytes(b, r, ev->bytes, "BYTES")) ||
            (rc = check_bytes(b, r, ev->bytes2, "RBYTES")))
            return rc;
    } else if (c == MPP_MPI_PROBE || c == MPP_MPI_IPROBE) {
        if (ev->flag > 1 || (c == MPP_MPI_PROBE && !ev->flag))
            return fail_at(b, b->cur, r, "expected FLAG %s for %s, got %u",
                           c == MPP_MPI_PROBE ? "1" : "0 or 1", name, ev->flag);
        if ((rc = check_rank(b, r, ev->peer, !ev->flag, "SRC")) ||
            (rc = check_tag(b, r, ev->tag, !ev->flag, "TAG")) ||
            (rc = check_bytes(b, r, ev->bytes, "BYTES")))
            return rc;
    } else if (is_rooted(c)) {
        if ((rc = check_rank(b, r, ev->peer, false, "ROOT")) || (rc = check_bytes(b, r, ev->bytes, "BYTES")))
            return rc;
    } else if (c >= MPP_MPI_ALLREDUCE && c <= MPP_MPI_EXSCAN) {
        if ((rc = check_bytes(b, r, ev->bytes, "BYTES")))
            return rc;
    }
    if (is_vector(c))
        for (uint32_t i = 0; i < n; i++)
            if ((rc = check_bytes(b, r, vals[i], "a block")))
                return rc;
    if (is_completion(c))
        for (uint32_t i = 0; i < n; i++) {
            if (vals[i] >= MPP_MPI_NONE)
                return fail_at(b, b->cur, r, "expected a request id below 2^32 - 1, got %" PRIu64,
                               vals[i]);
            if (st && st[i].peer != MPP_MPI_NONE &&
                ((rc = check_rank(b, r, st[i].peer, false, "a completion's SRC")) ||
                 (rc = check_tag(b, r, st[i].tag, false, "a completion's TAG")) ||
                 (rc = check_bytes(b, r, st[i].bytes, "a completion's BYTES"))))
                return rc;
        }
    if ((is_isend(c) || c == MPP_MPI_IRECV || c == MPP_MPI_REQUEST_FREE) && ev->req == MPP_MPI_NONE)
        return fail_at(b, b->cur, r, "expected a request id below 2^32 - 1 for REQ");
    if (ev->comm == MPP_MPI_NONE && c != MPP_MPI_UNSUPPORTED)
        return fail_at(b, b->cur, r, "expected a communicator id below 2^32 - 1 for COMM");
    return 0;
}

int mpp_mpitb_add(mpp_mpitb *b, uint32_t r, const mpp_mpi_event *ev, const uint64_t *vals,
                  const mpp_mpitb_status *st, uint32_t n)
{
    int rc = rank_ok(b, r, false);
    if (rc)
        return rc;
    if (ev->call >= MPP_MPI_NCALLS)
        return fail_at(b, b->cur, r, "unknown call code %u", ev->call);
    if ((rc = check_event(b, r, ev, vals, st, n)))
        return rc;
    tb_rank *k = &b->rank[r];
    if (ev->call == MPP_MPI_UNSUPPORTED && !k->has_name)
        return fail_at(b, b->cur, r, "an unsupported call without its name");
    if (k->nev >= UINT32_MAX - 1)
        return fail_at(b, b->cur, r, "more than 2^32 - 2 calls in one rank");
    if (k->nev == k->cap) { /* ev and loc grow together */
        uint32_t cap = k->cap ? (k->cap > UINT32_MAX / 2 ? UINT32_MAX - 1 : k->cap * 2) : 64;
        mpp_mpi_event *ne = realloc(k->ev, (size_t)cap * sizeof *ne);
        if (!ne)
            return oom(b);
        k->ev = ne;
        tb_loc *nl = realloc(k->loc, (size_t)cap * sizeof *nl);
        if (!nl)
            return oom(b);
        k->loc = nl;
        k->cap = cap;
    }
    mpp_mpi_event e = *ev;
    e.first = 0;
    e.n = n;
    if (n) {
        if (!grow((void **)&k->val, &k->capval, k->nval + n, sizeof *k->val, UINT32_MAX))
            return n > UINT32_MAX - k->nval ? fail_at(b, b->cur, r,
                                                      "more than 2^32 values of lists in one rank")
                                            : oom(b);
        e.first = (uint32_t)k->nval;
        memcpy(k->val + k->nval, vals, (size_t)n * sizeof *vals);
        k->nval += n;
    }
    if (is_completion(e.call)) {
        if (!grow((void **)&k->st, &k->capst, k->nst + n, sizeof *k->st, UINT32_MAX))
            return oom(b);
        e.req = (uint32_t)k->nst;
        for (uint32_t i = 0; i < n; i++)
            k->st[k->nst + i] = st ? st[i] : (mpp_mpitb_status){MPP_MPI_NONE, 0, 0};
        k->nst += n;
        k->ncompl += n;
    } else if (is_vector(e.call)) {
        k->ncounts += n;
    }
    if (is_isend(e.call) || e.call == MPP_MPI_IRECV)
        k->nmade++;
    if (e.call == MPP_MPI_UNSUPPORTED) {
        e.name = k->name;
        k->has_name = false;
    }
    if (is_comm_new(e.call))
        k->pending_comm = true;
    k->ev[k->nev] = e;
    k->loc[k->nev] = b->cur;
    k->nev++;
    return 0;
}

int mpp_mpitb_comm(mpp_mpitb *b, uint32_t r, uint32_t id, const uint32_t *members, uint32_t n)
{
    int rc = rank_ok(b, r, true);
    if (rc)
        return rc;
    tb_rank *k = &b->rank[r];
    if (!k->pending_comm)
        return fail_at(b, b->cur, r, "a new communicator without its comm_dup, comm_split or "
                                     "comm_create");
    if (id == MPP_MPI_NONE ? n != 0 : n == 0)
        return fail_at(b, b->cur, r,
                       "expected NEW = -1 with K = 0 (not a member) or NEW >= 0 with K >= 1, "
                       "got K = %" PRIu32,
                       n);
    if (n > b->nranks)
        return fail_at(b, b->cur, r, "expected at most %" PRIu32 " members, got %" PRIu32,
                       b->nranks, n);
    if (n && !b->stamp && !(b->stamp = calloc(b->nranks, sizeof *b->stamp)))
        return oom(b);
    if (++b->stamp_gen == 0) {
        memset(b->stamp, 0, (size_t)b->nranks * sizeof *b->stamp);
        b->stamp_gen = 1;
    }
    bool self = false;
    for (uint32_t i = 0; i < n; i++) {
        if ((rc = check_rank(b, r, members[i], false, "a member")))
            return rc;
        if (b->stamp[members[i]] == b->stamp_gen)
            return fail_at(b, b->cur, r, "member %" PRIu32 " listed twice, expected distinct "
                                         "world ranks", members[i]);
        b->stamp[members[i]] = b->stamp_gen;
        self |= members[i] == r;
    }
    if (n && !self)
        return fail_at(b, b->cur, r,
                       "rank %" PRIu32 " is not among the members of its new communicator", r);
    if (!grow32((void **)&k->cm, &k->capcm, (uint64_t)k->ncm + 1, sizeof *k->cm) ||
        !grow((void **)&b->mem, &b->capmem, b->nmem + n, sizeof *b->mem, UINT64_MAX / 8))
        return oom(b);
    k->cm[k->ncm++] = (tb_comm){k->nev - 1, id, b->nmem, n, MPP_MPI_NONE};
    if (n)
        memcpy(b->mem + b->nmem, members, (size_t)n * sizeof *members);
    b->nmem += n;
    k->pending_comm = false;
    return 0;
}

int mpp_mpitb_unsupported(mpp_mpitb *b, uint32_t r, const char *name)
{
    int rc = rank_ok(b, r, false);
    if (rc)
        return rc;
    size_t len = strlen(name);
    if (len == 0)
        return fail_at(b, b->cur, r, "an unsupported call with an empty name");
    if (b->names_len + len + 1 > UINT32_MAX)
        return fail_at(b, b->cur, r, "more than 4 GiB of unsupported calls' names");
    if (!grow((void **)&b->names, &b->names_cap, b->names_len + len + 1, 1, UINT32_MAX))
        return oom(b);
    memcpy(b->names + b->names_len, name, len + 1);
    b->rank[r].name = (uint32_t)b->names_len;
    b->rank[r].has_name = true;
    b->names_len += len + 1;
    return 0;
}

int mpp_mpitb_end(mpp_mpitb *b, uint32_t r, uint64_t cpu_ns)
{
    int rc = rank_ok(b, r, false);
    if (rc)
        return rc;
    b->rank[r].ended = true;
    b->rank[r].end_cpu = cpu_ns;
    return 0;
}

static void rank_free(tb_rank *k)
{
    free(k->ev);
    free(k->loc);
    free(k->val);
    free(k->st);
    free(k->cm);
}

void mpp_mpitb_free(mpp_mpitb *b)
{
    if (!b)
        return;
    for (uint32_t r = 0; r < b->nranks; r++)
        rank_free(&b->rank[r]);
    free(b->rank);
    for (uint32_t i = 0; i < b->nfile; i++)
        free(b->file[i]);
    free(b->file);
    free(b->mem);
    free(b->names);
    free(b->stamp);
    free(b);
}

/* ---- finish: global communicators ------------------------------------------ */

/* A member list seen among the created communicators. */
typedef struct cls {
    uint64_t first;   /* members (b->mem) of the first record with this list */
    uint32_t n;
    uint32_t cur_rank; /* the rank being visited, and how many it created so far */
    uint32_t cur_count;
} cls;

/* A created global communicator. */
typedef struct gkey {
    uint32_t cls, occ;
    uint32_t creators;
    uint32_t rank, rec; /* its first creator's record */
} gkey;

typedef struct fin {
    mpp_mpitb *b;
    bool partial;      /* one rank only (mpp_mpitrace_read_rank) */
    cls *cl;
    uint32_t ncl;
    uint32_t *cl_slot; /* hash of member lists -> class (NONE: empty) */
    gkey *gk;
    uint32_t ngk;
    uint32_t *gk_slot; /* hash of (class, occ) -> gkey */
    uint64_t slots_mask;
    mpp_mpitrace *t;
    uint32_t *sorted;  /* t->members sorted per created communicator */
} fin;

static uint64_t hash_list(const uint32_t *m, uint32_t n)
{
    uint64_t h = UINT64_C(1469598103934665603) ^ n;
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ m[i]) * UINT64_C(1099511628211);
    return h ^ (h >> 29);
}

static uint64_t hash_key(uint32_t c, uint32_t occ)
{
    uint64_t h = ((uint64_t)c << 32 | occ) * UINT64_C(0x9E3779B97F4A7C15);
    return h ^ (h >> 31);
}

/* The global index of a created communicator (first, n) of rank r: the
 * class of its list, the rank's occurrence of it, the key. */
static uint32_t comm_global(fin *f, uint32_t r, uint32_t rec)
{
    mpp_mpitb *b = f->b;
    const tb_comm *c = &b->rank[r].cm[rec];
    const uint32_t *m = b->mem + c->first;
    uint64_t i = hash_list(m, c->n) & f->slots_mask;
    for (;; i = (i + 1) & f->slots_mask) {
        uint32_t s = f->cl_slot[i];
        if (s == MPP_MPI_NONE) {
            f->cl[f->ncl] = (cls){c->first, c->n, MPP_MPI_NONE, 0};
            f->cl_slot[i] = f->ncl++;
            break;
        }
        if (f->cl[s].n == c->n && !memcmp(b->mem + f->cl[s].first, m, (size_t)c->n * sizeof *m))
            break;
    }
    uint32_t ci = f->cl_slot[i];
    cls *k = &f->cl[ci];
    if (k->cur_rank != r) {
        k->cur_rank = r;
        k->cur_count = 0;
    }
    uint32_t occ = k->cur_count++;
    for (i = hash_key(ci, occ) & f->slots_mask;; i = (i + 1) & f->slots_mask) {
        uint32_t s = f->gk_slot[i];
        if (s == MPP_MPI_NONE) {
            f->gk[f->ngk] = (gkey){ci, occ, 1, r, rec};
            f->gk_slot[i] = f->ngk;
            return f->ngk++;
        }
        if (f->gk[s].cls == ci && f->gk[s].occ == occ) {
            f->gk[s].creators++;
            return s;
        }
    }
}

/* Report created communicator g, whose creators are fewer than its
 * members: name a member that did not create it. */
static int comm_missing(fin *f, uint32_t g)
{
    mpp_mpitb *b = f->b;
    const gkey *k = &f->gk[g];
    const tb_comm *c = &b->rank[k->rank].cm[k->rec];
    if (++b->stamp_gen == 0) {
        memset(b->stamp, 0, (size_t)b->nranks * sizeof *b->stamp);
        b->stamp_gen = 1;
    }
    for (uint32_t r = 0; r < b->nranks; r++)
        for (uint32_t j = 0; j < b->rank[r].ncm; j++)
            if (b->rank[r].cm[j].global == g)
                b->stamp[r] = b->stamp_gen;
    uint32_t missing = 0;
    for (uint32_t i = 0; i < c->n; i++)
        if (b->stamp[b->mem[c->first + i]] != b->stamp_gen) {
            missing = b->mem[c->first + i];
            break;
        }
    const tb_rank *kr = &b->rank[k->rank];
    char list[96];
    int len = 0;
    for (uint32_t i = 0; i < c->n && len < 64; i++)
        len += snprintf(list + len, sizeof list - (size_t)len, "%s%" PRIu32, i ? " " : "",
                        b->mem[c->first + i]);
    if (len >= 64)
        snprintf(list + 64, sizeof list - 64, " ...");
    return fail_at(b, kr->loc[c->event], k->rank,
                   "rank %" PRIu32 "'s %s made communicator %" PRIu32 " with members {%s}, but "
                   "member rank %" PRIu32 " did not make it (every member calls it)",
                   k->rank, mpp_mpi_call_names[kr->ev[c->event].call], c->id, list, missing);
}

/* Identify the created communicators across ranks; fill t->comm and
 * t->members (world, selves, created) and f->sorted. */
static int comms_resolve(fin *f)
{
    mpp_mpitb *b = f->b;
    mpp_mpitrace *t = f->t;
    uint64_t nrec = 0;
    for (uint32_t r = 0; r < b->nranks; r++)
        nrec += b->rank[r].ncm;
    uint64_t cap = 8;
    while (cap < 2 * nrec + 2)
        cap *= 2;
    f->slots_mask = cap - 1;
    f->cl = malloc((nrec + 1) * sizeof *f->cl);
    f->gk = malloc((nrec + 1) * sizeof *f->gk);
    f->cl_slot = malloc(cap * sizeof *f->cl_slot);
    f->gk_slot = malloc(cap * sizeof *f->gk_slot);
    if (!f->cl || !f->gk || !f->cl_slot || !f->gk_slot)
        return oom(b);
    memset(f->cl_slot, 0xff, cap * sizeof *f->cl_slot);
    memset(f->gk_slot, 0xff, cap * sizeof *f->gk_slot);
    for (uint32_t r = 0; r < b->nranks; r++)
        for (uint32_t j = 0; j < b->rank[r].ncm; j++)
            if (b->rank[r].cm[j].id != MPP_MPI_NONE)
                b->rank[r].cm[j].global = comm_global(f, r, j);
    uint64_t nmem = 2 * (uint64_t)b->nranks;
    for (uint32_t g = 0; g < f->ngk; g++) {
        const gkey *k = &f->gk[g];
        if (!f->partial && k->creators != f->cl[k->cls].n)
            return comm_missing(f, g);
        nmem += f->cl[k->cls].n;
    }
    if (1 + (uint64_t)b->nranks + f->ngk >= MPP_MPI_NONE)
        return fail_at(b, b->cur, 0, "more than 2^32 - 2 communicators");
    if (nmem > UINT32_MAX)
        return fail_at(b, b->cur, 0, "more than 2^32 communicator members in all");
    t->ncomms = 1 + b->nranks + f->ngk;
    t->comm = malloc((size_t)t->ncomms * sizeof *t->comm);
    t->members = malloc(nmem * sizeof *t->members);
    f->sorted = malloc((nmem - 2 * (uint64_t)b->nranks + 1) * sizeof *f->sorted);
    if (!t->comm || !t->members || !f->sorted)
        return oom(b);
    t->nmembers = nmem;
    t->comm[0] = (mpp_mpi_comm){b->nranks, 0};
    for (uint32_t r = 0; r < b->nranks; r++) {
        t->members[r] = r;
        t->members[b->nranks + r] = r;
        t->comm[1 + r] = (mpp_mpi_comm){1, b->nranks + r};
    }
    uint64_t at = 2 * (uint64_t)b->nranks;
    for (uint32_t g = 0; g < f->ngk; g++) {
        const cls *c = &f->cl[f->gk[g].cls];
        t->comm[1 + b->nranks + g] = (mpp_mpi_comm){c->n, (uint32_t)at};
        memcpy(t->members + at, b->mem + c->first, (size_t)c->n * sizeof *t->members);
        at += c->n;
    }
    /* copies of the created communicators' members, sorted by sort_members
     * for membership tests */
    memcpy(f->sorted, t->members + 2 * (uint64_t)b->nranks,
           (nmem - 2 * (uint64_t)b->nranks) * sizeof *f->sorted);
    return 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static void sort_members(fin *f)
{
    mpp_mpitrace *t = f->t;
    uint64_t base = 2 * (uint64_t)t->nranks;
    for (uint32_t g = 1 + t->nranks; g < t->ncomms; g++)
        qsort(f->sorted + (t->comm[g].first - base), t->comm[g].size, sizeof *f->sorted, cmp_u32);
}

/* Whether world rank w is a member of global communicator g. */
static bool is_member(const fin *f, uint32_t g, uint32_t w)
{
    const mpp_mpitrace *t = f->t;
    if (g == 0)
        return w < t->nranks;
    if (g <= t->nranks)
        return w == g - 1;
    const uint32_t *s = f->sorted + (t->comm[g].first - 2 * (uint64_t)t->nranks);
    return bsearch(&w, s, t->comm[g].size, sizeof *s, cmp_u32) != NULL;
}

/* ---- finish: one rank --------------------------------------------------------- */

/* Text for a communicator in messages. */
static const char *comm_what(uint32_t g, uint32_t nranks)
{
    return g == 0 ? " (MPI_COMM_WORLD)" : g <= nranks ? " (MPI_COMM_SELF)" : "";
}

typedef struct rres {
    fin *f;
    uint32_t r;
    idmap comms;  /* the file's comm id -> global index (live ones) */
    idmap reqs;   /* the file's request id -> request index (live ones) */
} rres;

/* The live communicator with the file's id at event i, into *g. */
static int resolve_comm(rres *s, uint32_t i, uint32_t id, uint32_t *g)
{
    tb_rank *k = &s->f->b->rank[s->r];
    *g = idmap_get(&s->comms, id);
    if (*g == MPP_MPI_NONE)
        return fail_at(s->f->b, k->loc[i], s->r,
                       "%s: communicator %" PRIu32 " does not exist (never created, or freed)",
                       mpp_mpi_call_names[k->ev[i].call], id);
    return 0;
}

/* World rank w must be a member of global communicator g (file id id). */
static int member(rres *s, uint32_t i, uint32_t g, uint32_t id, uint32_t w, const char *what)
{
    if (is_member(s->f, g, w))
        return 0;
    tb_rank *k = &s->f->b->rank[s->r];
    char idtext[32] = "of its irecv";
    if (id != MPP_MPI_NONE)
        snprintf(idtext, sizeof idtext, "%" PRIu32, id);
    return fail_at(s->f->b, k->loc[i], s->r,
                   "%s: %s %" PRIu32 " is not a member of communicator %s%s (%" PRIu32
                   " members)",
                   mpp_mpi_call_names[k->ev[i].call], what, w, idtext,
                   comm_what(g, s->f->t->nranks), s->f->t->comm[g].size);
}

/* Resolve rank r's events into t->rank[r]. */
static int rank_resolve(fin *f, uint32_t r)
{
    mpp_mpitb *b = f->b;
    tb_rank *k = &b->rank[r];
    mpp_mpi_rank *out = &f->t->rank[r];
    rres s = {f, r, {0}, {0}};
    int rc = 0;
    uint32_t nrec = 0, nreq = 0;
    uint64_t nreqs = 0, ncounts = 0;
    if (!idmap_init(&s.comms, (uint64_t)k->ncm + 2) || !idmap_init(&s.reqs, k->nmade) ||
        (k->nmade && !(out->req = malloc((size_t)k->nmade * sizeof *out->req))) ||
        (k->ncompl && !(out->reqs = malloc(k->ncompl * sizeof *out->reqs))) ||
        (k->ncounts && !(out->counts = malloc(k->ncounts * sizeof *out->counts)))) {
        rc = oom(b);
        goto done;
    }
    idmap_put(&s.comms, 0, 0);
    idmap_put(&s.comms, 1, 1 + r);
    for (uint32_t i = 0; i < k->nev; i++) {
        mpp_mpi_event *e = &k->ev[i];
        int c = e->call;
        const char *name = mpp_mpi_call_names[c];
        uint32_t g = 0, id = e->comm;
        if (c != MPP_MPI_UNSUPPORTED && (rc = resolve_comm(&s, i, id, &g)))
            goto done;
        if (c != MPP_MPI_UNSUPPORTED)
            e->comm = g;
        uint32_t size = f->t->comm[g].size;
        if (is_send(c) || is_isend(c) || c == MPP_MPI_RECV || c == MPP_MPI_SENDRECV ||
            c == MPP_MPI_SENDRECV_REPLACE) {
            const char *what = is_send(c) || is_isend(c) || c >= MPP_MPI_SENDRECV ? "DST" : "SRC";
            if ((rc = member(&s, i, g, id, e->peer, what)))
                goto done;
            if (c >= MPP_MPI_SENDRECV && (rc = member(&s, i, g, id, e->peer2, "SRC")))
                goto done;
        } else if (c == MPP_MPI_IRECV || c == MPP_MPI_PROBE || c == MPP_MPI_IPROBE) {
            if (e->peer != MPP_MPI_ANY && (rc = member(&s, i, g, id, e->peer, "SRC")))
                goto done;
        } else if (is_rooted(c)) {
            if ((rc = member(&s, i, g, id, e->peer, "ROOT")))
                goto done;
        }
        if (is_vector(c)) {
            uint64_t want = c == MPP_MPI_ALLTOALLV ? 2 * (uint64_t)size
                            : (c == MPP_MPI_GATHERV || c == MPP_MPI_SCATTERV) && e->peer != r ? 0
                                                                                              : size;
            if (e->n != want) {
                rc = fail_at(b, k->loc[i], r,
                             "%s: expected K = %" PRIu64 " (%s of communicator %" PRIu32
                             "%s), got %" PRIu32,
                             name, c == MPP_MPI_ALLTOALLV ? want / 2 : want,
                             want ? "the size" : "not the root", id,
                             comm_what(g, f->t->nranks),
                             c == MPP_MPI_ALLTOALLV ? e->n / 2 : e->n);
                goto done;
            }
            if (e->n)
                memcpy(out->counts + ncounts, k->val + e->first, (size_t)e->n * sizeof *k->val);
            e->first = (uint32_t)ncounts;
            ncounts += e->n;
        }
        if (is_isend(c) || c == MPP_MPI_IRECV) {
            if (idmap_get(&s.reqs, e->req) != MPP_MPI_NONE) {
                rc = fail_at(b, k->loc[i], r,
                             "%s: request %" PRIu32 " is still live (expected a request id "
                             "not in use)",
                             name, e->req);
                goto done;
            }
            idmap_put(&s.reqs, e->req, nreq);
            out->req[nreq] = (mpp_mpi_request){i, MPP_MPI_NONE};
            e->req = nreq++;
            if (c == MPP_MPI_IRECV) {
                e->peer2 = e->peer; /* as posted */
                e->tag2 = e->tag;
                e->peer = e->tag = MPP_MPI_NONE;
                e->bytes = 0;
            }
        } else if (c == MPP_MPI_REQUEST_FREE) {
            uint32_t q = idmap_get(&s.reqs, e->req);
            if (q == MPP_MPI_NONE) {
                rc = fail_at(b, k->loc[i], r,
                             "request_free: request %" PRIu32 " is unknown (never made, or "
                             "already completed or freed)",
                             e->req);
                goto done;
            }
            idmap_del(&s.reqs, e->req);
            e->req = q;
        } else if (is_completion(c)) {
            const mpp_mpitb_status *st = e->n ? k->st + e->req : NULL;
            for (uint32_t j = 0; j < e->n; j++) {
                uint32_t fid = (uint32_t)k->val[e->first + j];
                uint32_t q = idmap_get(&s.reqs, fid);
                if (q == MPP_MPI_NONE) {
                    rc = fail_at(b, k->loc[i], r,
                                 "%s completes request %" PRIu32 ", which is unknown (never "
                                 "made, or already completed or freed)",
                                 name, fid);
                    goto done;
                }
                idmap_del(&s.reqs, fid);
                out->req[q].done = i;
                mpp_mpi_event *m = &k->ev[out->req[q].event];
                if (m->call == MPP_MPI_IRECV) {
                    if (st[j].peer == MPP_MPI_NONE) {
                        /* a receive completed without a status: it was
                         * cancelled (MPI_Cancel) and matched nothing; it
                         * stays unmatched, as a freed one (peer NONE) */
                        out->reqs[nreqs + j] = q;
                        continue;
                    }
                    if ((m->peer2 != MPP_MPI_ANY && st[j].peer != m->peer2) ||
                        (m->tag2 != MPP_MPI_ANY && st[j].tag != m->tag2)) {
                        rc = fail_at(b, k->loc[i], r,
                                     "%s: request %" PRIu32 " matched source %" PRIu32 " tag %"
                                     PRIu32 ", but its irecv posted source %" PRId64 " tag %"
                                     PRId64,
                                     name, fid, st[j].peer, st[j].tag,
                                     m->peer2 == MPP_MPI_ANY ? -1 : (int64_t)m->peer2,
                                     m->tag2 == MPP_MPI_ANY ? -1 : (int64_t)m->tag2);
                        goto done;
                    }
                    if ((rc = member(&s, i, m->comm, MPP_MPI_NONE, st[j].peer, "matched SRC")))
                        goto done;
                    m->peer = st[j].peer;
                    m->tag = st[j].tag;
                    m->bytes = st[j].bytes;
                } else if (st[j].peer != MPP_MPI_NONE) {
                    rc = fail_at(b, k->loc[i], r,
                                 "%s: request %" PRIu32 " is a send, expected REQ alone (no "
                                 "status)",
                                 name, fid);
                    goto done;
                }
                out->reqs[nreqs + j] = q;
            }
            e->first = (uint32_t)nreqs;
            nreqs += e->n;
            e->req = 0;
        } else if (is_comm_new(c)) {
            const tb_comm *cm = &k->cm[nrec++];
            assert(cm->event == i);
            e->peer2 = g; /* the parent */
            if (cm->id == MPP_MPI_NONE) {
                if (c == MPP_MPI_COMM_DUP) {
                    rc = fail_at(b, k->loc[i], r,
                                 "comm_dup: NEW = -1, but every member of the parent is in "
                                 "the duplicate");
                    goto done;
                }
                e->comm = MPP_MPI_NONE;
                continue;
            }
            if (idmap_get(&s.comms, cm->id) != MPP_MPI_NONE) {
                rc = fail_at(b, k->loc[i], r,
                             "%s: communicator %" PRIu32 " is still live (expected a new id)",
                             name, cm->id);
                goto done;
            }
            for (uint32_t j = 0; j < cm->n; j++)
                if ((rc = member(&s, i, g, id, b->mem[cm->first + j], "new member")))
                    goto done;
            if (c == MPP_MPI_COMM_DUP && cm->n != size) {
                rc = fail_at(b, k->loc[i], r,
                             "comm_dup: %" PRIu32 " members, expected the parent's %" PRIu32,
                             cm->n, size);
                goto done;
            }
            uint32_t ng = 1 + b->nranks + cm->global;
            idmap_put(&s.comms, cm->id, ng);
            e->comm = ng;
        } else if (c == MPP_MPI_COMM_FREE) {
            if (g <= b->nranks) {
                rc = fail_at(b, k->loc[i], r, "comm_free: communicator %" PRIu32 "%s cannot be "
                                              "freed", id, comm_what(g, b->nranks));
                goto done;
            }
            idmap_del(&s.comms, id);
        }
    }
    out->ev = k->ev;
    out->nev = k->nev;
    out->nreq = nreq;
    out->end_cpu_ns = k->end_cpu;
    k->ev = NULL;
    k->nev = 0;
done:
    idmap_free(&s.comms);
    idmap_free(&s.reqs);
    return rc;
}

/* Finish b; with only != NONE, rank `only` alone was read (the others
 * have no events and no `end`, and nobody else is checked for having made
 * its communicators). */
static int finish(mpp_mpitb *b, mpp_mpitrace **out, uint32_t only)
{
    *out = NULL;
    fin f;
    memset(&f, 0, sizeof f);
    f.b = b;
    f.partial = only != MPP_MPI_NONE;
    int rc = 0;
    for (uint32_t r = 0; r < b->nranks; r++) {
        tb_rank *k = &b->rank[r];
        if (f.partial && r != only)
            continue;
        if (k->pending_comm) {
            rc = fail_at(b, k->loc[k->nev - 1], r,
                         "%s without its new communicator (expected NEW K M1..MK)",
                         mpp_mpi_call_names[k->ev[k->nev - 1].call]);
            goto fail;
        }
        if (k->has_name) {
            rc = fail_at(b, k->last, r, "an unsupported call's name without its call");
            goto fail;
        }
        if (!k->ended) {
            tb_loc at = {k->last.file, 0};
            rc = fail_at(b, at, r,
                         "truncated: no `end` line (the program did not reach MPI_Finalize, "
                         "or the file was cut)");
            goto fail;
        }
    }
    mpp_mpitrace *t = f.t = calloc(1, sizeof *t);
    if (!t || !(t->rank = calloc(b->nranks, sizeof *t->rank))) {
        rc = oom(b);
        goto fail;
    }
    t->nranks = b->nranks;
    t->source = b->source;
    if ((rc = comms_resolve(&f)))
        goto fail;
    sort_members(&f);
    for (uint32_t r = 0; r < b->nranks; r++)
        if ((rc = rank_resolve(&f, r)))
            goto fail;
    t->names = b->names;
    t->names_len = b->names_len;
    b->names = NULL;
    *out = t;
    goto done;
fail:
    mpp_mpitrace_free(f.t);
done:
    free(f.cl);
    free(f.gk);
    free(f.cl_slot);
    free(f.gk_slot);
    free(f.sorted);
    mpp_mpitb_free(b);
    return rc;
}

int mpp_mpitb_finish(mpp_mpitb *b, mpp_mpitrace **out) { return finish(b, out, MPP_MPI_NONE); }

void mpp_mpitrace_free(mpp_mpitrace *t)
{
    if (!t)
        return;
    if (t->rank)
        for (uint32_t r = 0; r < t->nranks; r++) {
            free(t->rank[r].ev);
            free(t->rank[r].req);
            free(t->rank[r].reqs);
            free(t->rank[r].counts);
        }
    free(t->rank);
    free(t->comm);
    free(t->members);
    free(t->names);
    free(t);
}

int mpp_mpitrace_find_unsupported(const mpp_mpitrace *t, uint32_t *rank, uint32_t *index)
{
    for (uint32_t r = 0; r < t->nranks; r++)
        for (uint32_t i = 0; i < t->rank[r].nev; i++)
            if (t->rank[r].ev[i].call == MPP_MPI_UNSUPPORTED) {
                *rank = r;
                *index = i;
                return 0;
            }
    return -1;
}

/* ---- the capture format's reader ------------------------------------------------ */

/* Reading one rank file: the line reader, the rank, scratch arrays for a
 * line's lists (grown to the longest list read, never beyond what the
 * line holds). */
typedef struct rdr {
    mpp_lines *lr;
    mpp_mpitb *b;
    uint64_t line;
    uint32_t nranks, r;
    char *s; /* the rest of the line being parsed */
    uint64_t *vals;
    uint64_t capvals;
    mpp_mpitb_status *st;
    uint64_t capst;
    uint32_t *mem;
    uint64_t capmem;
} rdr;

/* The next blank-separated word of the line, NUL-terminated in place, or
 * NULL at its end. */
static char *word(rdr *d)
{
    char *s = d->s;
    while (*s == ' ' || *s == '\t')
        s++;
    if (!*s) {
        d->s = s;
        return NULL;
    }
    char *w = s;
    while (*s && *s != ' ' && *s != '\t')
        s++;
    if (*s)
        *s++ = '\0';
    d->s = s;
    return w;
}

/* The next word as an unsigned decimal number of at most max (any: "-1"
 * gives MPP_MPI_ANY); errors say "expected EXPECT for WHAT, got '...'". */
static int field(rdr *d, const char *what, const char *expect, uint64_t max, bool any,
                 uint64_t *v)
{
    char *w = word(d);
    if (!w)
        return mpp_lines_error(d->lr, d->line, "expected %s for %s, got the end of the line",
                               expect, what);
    if (any && !strcmp(w, "-1")) {
        *v = MPP_MPI_ANY;
        return 0;
    }
    if (!mpp_units_u64(w, strlen(w), v) || *v > max)
        return mpp_lines_error(d->lr, d->line, "expected %s for %s, got '%.40s%s'", expect, what,
                               w, strlen(w) > 40 ? "..." : "");
    return 0;
}

/* A world rank (DST, SRC, ROOT, a member); any: -1 (MPI_ANY_SOURCE). */
static int f_rank(rdr *d, const char *what, bool any, uint32_t *out)
{
    char expect[96];
    snprintf(expect, sizeof expect, "a world rank below %" PRIu32 "%s", d->nranks,
             any ? " or -1 (MPI_ANY_SOURCE)" : "");
    uint64_t v;
    int rc = field(d, what, expect, d->nranks - 1, any, &v);
    *out = (uint32_t)v;
    return rc;
}

static int f_tag(rdr *d, const char *what, bool any, uint32_t *out)
{
    uint64_t v;
    int rc = field(d, what, any ? "a tag 0 .. 2147483647 or -1 (MPI_ANY_TAG)"
                                : "a tag 0 .. 2147483647",
                   MAX_TAG, any, &v);
    *out = (uint32_t)v;
    return rc;
}

static int f_bytes(rdr *d, const char *what, uint64_t *out)
{
    return field(d, what, "a byte count 0 .. 2^40", MPP_MPITRACE_MAX_BYTES, false, out);
}

/* A communicator id, a request id (below 2^32 - 1). */
static int f_id(rdr *d, const char *what, uint32_t *out)
{
    uint64_t v;
    int rc = field(d, what, "an id 0 .. 4294967294", MPP_MPI_NONE - 1, false, &v);
    *out = (uint32_t)v;
    return rc;
}

/* A count K of values that follow on the line (each at least min_chars
 * characters with its blank): checked against the line and the file
 * before anything is allocated for them; max bounds it as the grammar
 * does. */
static int f_count(rdr *d, const char *what, uint64_t max, uint64_t per, uint32_t *out)
{
    uint64_t v;
    char expect[64];
    snprintf(expect, sizeof expect, "a count 0 .. %" PRIu64, max);
    int rc = field(d, what, expect, max, false, &v);
    if (rc)
        return rc;
    uint64_t room = (strlen(d->s) + 1) / 2; /* the most words the line still holds */
    if (v * per > room)
        return mpp_lines_error(d->lr, d->line,
                               "%s = %" PRIu64 " announced, but the line holds at most %" PRIu64
                               " more values",
                               what, v, room);
    if ((rc = mpp_lines_check_count(d->lr, d->line, v * per, 2, "values")))
        return rc;
    *out = (uint32_t)v;
    return 0;
}

/* Room for n values (and statuses when st) in the scratch arrays. */
static int scratch(rdr *d, uint64_t n, bool st)
{
    if (!grow((void **)&d->vals, &d->capvals, n, sizeof *d->vals, UINT32_MAX) ||
        (st && !grow((void **)&d->st, &d->capst, n, sizeof *d->st, UINT32_MAX)))
        return mpp_err_set(mpp_lines_err(d->lr), MPP_ENOMEM, "%s: out of memory",
                           mpp_lines_path(d->lr));
    return 0;
}

/* A completion C: REQ (a send) or REQ/SRC/TAG/BYTES (a receive, as
 * matched), into vals[i] and st[i]. */
static int f_completion(rdr *d, uint32_t i)
{
    char *w = word(d);
    if (!w)
        return mpp_lines_error(d->lr, d->line,
                               "expected a completion REQ or REQ/SRC/TAG/BYTES, got the end of "
                               "the line");
    char *part[4];
    int np = 0;
    for (char *p = w;;) {
        part[np++] = p;
        p = strchr(p, '/');
        if (!p || np == 4)
            break;
        *p++ = '\0';
    }
    if ((np != 1 && np != 4) || strchr(part[np - 1], '/'))
        return mpp_lines_error(d->lr, d->line,
                               "expected a completion REQ or REQ/SRC/TAG/BYTES, got '%.40s'", w);
    /* parse each part as a word of its own */
    char *rest = d->s;
    uint64_t v;
    d->s = part[0];
    int rc = field(d, "a completion's REQ", "an id 0 .. 4294967294", MPP_MPI_NONE - 1, false, &v);
    d->vals[i] = v;
    d->st[i] = (mpp_mpitb_status){MPP_MPI_NONE, 0, 0};
    if (!rc && np == 4) {
        d->s = part[1];
        rc = f_rank(d, "a completion's SRC", false, &d->st[i].peer);
        if (!rc) {
            d->s = part[2];
            rc = f_tag(d, "a completion's TAG", false, &d->st[i].tag);
        }
        if (!rc) {
            d->s = part[3];
            rc = f_bytes(d, "a completion's BYTES", &d->st[i].bytes);
        }
    }
    d->s = rest;
    return rc;
}

/* The call named w, or MPP_MPI_NCALLS. */
static int call_of(const char *w)
{
    for (int c = 0; c < MPP_MPI_NCALLS; c++)
        if (!strcmp(w, mpp_mpi_call_names[c]))
            return c;
    return MPP_MPI_NCALLS;
}

/* One call line (after CPU): its fields into the builder. */
static int parse_call(rdr *d, uint64_t cpu, const char *name)
{
    int c = call_of(name);
    if (c == MPP_MPI_NCALLS)
        return mpp_lines_error(d->lr, d->line,
                               "unknown call '%.40s', expected a call of the capture format "
                               "(send, isend, recv, irecv, wait, bcast, ...; docs/formats.md)",
                               name);
    mpp_mpi_event e;
    memset(&e, 0, sizeof e);
    e.call = (uint8_t)c;
    e.cpu_ns = cpu;
    uint32_t n = 0, k = 0;
    bool st = false;
    int rc = 0;
    uint64_t v;
    if (is_send(c) || is_isend(c)) {
        if ((rc = f_rank(d, "DST", false, &e.peer)) || (rc = f_tag(d, "TAG", false, &e.tag)) ||
            (rc = f_id(d, "COMM", &e.comm)) || (rc = f_bytes(d, "BYTES", &e.bytes)) ||
            (is_isend(c) && (rc = f_id(d, "REQ", &e.req))))
            return rc;
    } else if (c == MPP_MPI_RECV) {
        if ((rc = f_rank(d, "SRC", false, &e.peer)) || (rc = f_tag(d, "TAG", false, &e.tag)) ||
            (rc = f_id(d, "COMM", &e.comm)) || (rc = f_bytes(d, "BYTES", &e.bytes)))
            return rc;
    } else if (c == MPP_MPI_IRECV) {
        if ((rc = f_rank(d, "SRC", true, &e.peer)) || (rc = f_tag(d, "TAG", true, &e.tag)) ||
            (rc = f_id(d, "COMM", &e.comm)) || (rc = f_id(d, "REQ", &e.req)))
            return rc;
    } else if (c == MPP_MPI_SENDRECV) {
        if ((rc = f_rank(d, "DST", false, &e.peer)) || (rc = f_tag(d, "STAG", false, &e.tag)) ||
            (rc = f_bytes(d, "SBYTES", &e.bytes)) || (rc = f_rank(d, "SRC", false, &e.peer2)) ||
            (rc = f_tag(d, "RTAG", false, &e.tag2)) || (rc = f_bytes(d, "RBYTES", &e.bytes2)) ||
            (rc = f_id(d, "COMM", &e.comm)))
            return rc;
    } else if (c == MPP_MPI_SENDRECV_REPLACE) {
        if ((rc = f_rank(d, "DST", false, &e.peer)) || (rc = f_tag(d, "STAG", false, &e.tag)) ||
            (rc = f_rank(d, "SRC", false, &e.peer2)) || (rc = f_tag(d, "RTAG", false, &e.tag2)) ||
            (rc = f_bytes(d, "BYTES", &e.bytes)) || (rc = f_id(d, "COMM", &e.comm)))
            return rc;
    } else if (is_completion(c)) {
        if ((rc = f_count(d, "K", UINT32_MAX - 1, 1, &n)) || (rc = scratch(d, n, true)))
            return rc;
        for (uint32_t i = 0; i < n; i++)
            if ((rc = f_completion(d, i)))
                return rc;
        st = true;
    } else if (c == MPP_MPI_PROBE || c == MPP_MPI_IPROBE) {
        if ((rc = field(d, "FLAG", c == MPP_MPI_PROBE ? "1" : "0 or 1", 1, false, &v)))
            return rc;
        if (c == MPP_MPI_PROBE && v != 1)
            return mpp_lines_error(d->lr, d->line, "expected 1 for FLAG (a probe always finds "
                                                   "a message), got '0'");
        e.flag = (uint8_t)v;
        if ((rc = f_rank(d, "SRC", !e.flag, &e.peer)) || (rc = f_tag(d, "TAG", !e.flag, &e.tag)) ||
            (rc = f_id(d, "COMM", &e.comm)) || (rc = f_bytes(d, "BYTES", &e.bytes)))
            return rc;
    } else if (c == MPP_MPI_REQUEST_FREE) {
        if ((rc = f_id(d, "REQ", &e.req)))
            return rc;
    } else if (c == MPP_MPI_BARRIER || c == MPP_MPI_COMM_FREE) {
        if ((rc = f_id(d, "COMM", &e.comm)))
            return rc;
    } else if (is_rooted(c)) {
        bool vec = c == MPP_MPI_GATHERV || c == MPP_MPI_SCATTERV;
        if ((rc = f_rank(d, "ROOT", false, &e.peer)) || (rc = f_id(d, "COMM", &e.comm)) ||
            (rc = f_bytes(d, !vec ? "BYTES" : c == MPP_MPI_GATHERV ? "SBYTES" : "RBYTES",
                          &e.bytes)))
            return rc;
        if (vec && ((rc = f_count(d, "K", d->nranks, 1, &n)) || (rc = scratch(d, n, false))))
            return rc;
        for (uint32_t i = 0; vec && i < n; i++)
            if ((rc = f_bytes(d, "a block B", &d->vals[i])))
                return rc;
    } else if (c == MPP_MPI_ALLREDUCE || c == MPP_MPI_SCAN || c == MPP_MPI_EXSCAN ||
               c == MPP_MPI_ALLGATHER || c == MPP_MPI_ALLTOALL ||
               c == MPP_MPI_REDUCE_SCATTER_BLOCK) {
        if ((rc = f_id(d, "COMM", &e.comm)) || (rc = f_bytes(d, "BYTES", &e.bytes)))
            return rc;
    } else if (is_vector(c)) { /* allgatherv, alltoallv, reduce_scatter */
        uint32_t per = c == MPP_MPI_ALLTOALLV ? 2 : 1;
        if ((rc = f_id(d, "COMM", &e.comm)) || (rc = f_count(d, "K", d->nranks, per, &k)) ||
            (rc = scratch(d, (uint64_t)k * per, false)))
            return rc;
        n = k * per;
        for (uint32_t i = 0; i < n; i++)
            if ((rc = f_bytes(d, c == MPP_MPI_ALLTOALLV ? (i < k ? "a block S" : "a block R")
                                                        : "a block B",
                              &d->vals[i])))
                return rc;
    } else if (is_comm_new(c)) {
        if ((rc = f_id(d, "PARENT", &e.comm)))
            return rc;
        uint64_t id;
        if ((rc = field(d, "NEW", "an id 0 .. 4294967294 or -1 (MPI_COMM_NULL)",
                        MPP_MPI_NONE - 1, true, &id)) ||
            (rc = f_count(d, "K", d->nranks, 1, &k)))
            return rc;
        if (k > d->capmem &&
            !grow((void **)&d->mem, &d->capmem, k, sizeof *d->mem, MPP_MPITRACE_MAX_RANKS))
            return mpp_err_set(mpp_lines_err(d->lr), MPP_ENOMEM, "%s: out of memory",
                               mpp_lines_path(d->lr));
        for (uint32_t i = 0; i < k; i++)
            if ((rc = f_rank(d, "a member M", false, &d->mem[i])))
                return rc;
        char *extra = word(d);
        if (extra)
            return mpp_lines_error(d->lr, d->line, "unexpected '%.40s' after the fields of %s",
                                   extra, name);
        mpp_mpitb_where(d->b, mpp_lines_path(d->lr), d->line);
        if ((rc = mpp_mpitb_add(d->b, d->r, &e, NULL, NULL, 0)))
            return rc;
        return mpp_mpitb_comm(d->b, d->r, (uint32_t)id, d->mem, k);
    } else { /* unsupported NAME */
        char *w = word(d);
        if (!w)
            return mpp_lines_error(d->lr, d->line,
                                   "expected the MPI call's NAME after unsupported, got the end "
                                   "of the line");
        mpp_mpitb_where(d->b, mpp_lines_path(d->lr), d->line);
        if ((rc = mpp_mpitb_unsupported(d->b, d->r, w)))
            return rc;
    }
    char *extra = word(d);
    if (extra)
        return mpp_lines_error(d->lr, d->line, "unexpected '%.40s' after the fields of %s", extra,
                               name);
    mpp_mpitb_where(d->b, mpp_lines_path(d->lr), d->line);
    return mpp_mpitb_add(d->b, d->r, &e, d->vals, st ? d->st : NULL, n);
}

/* The next line that is not blank or a # comment: 1 with d->s, 0 at the
 * end of the file, or an error. */
static int next_line(rdr *d)
{
    int rc;
    char *s;
    while ((rc = mpp_lines_next(d->lr, &s, &d->line)) == 1) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s && *s != '#') {
            d->s = s;
            return 1;
        }
    }
    return rc;
}

/* Rank d->r's file at path into d->b. */
static int read_rank_file(rdr *d, const char *path, mpp_err *err)
{
    int rc = mpp_lines_open(&d->lr, path, MPP_MPITRACE_MAX_LINE, err);
    if (rc)
        return rc;
    mpp_mpitb_where(d->b, path, 0);
    /* the header: mpptrace 1 rank R ranks N */
    if ((rc = next_line(d)) <= 0) {
        if (rc == 0)
            rc = mpp_lines_error(d->lr, d->line ? d->line : 1,
                                 "empty file, expected the header 'mpptrace 1 rank %" PRIu32
                                 " ranks %" PRIu32 "'",
                                 d->r, d->nranks);
        goto done;
    }
    char *w[6];
    int nw = 0;
    while (nw < 6 && (w[nw] = word(d)))
        nw++;
    uint64_t ver = 0, hr = 0, hn = 0;
    if (nw != 6 || strcmp(w[0], "mpptrace") || strcmp(w[2], "rank") || strcmp(w[4], "ranks") ||
        !mpp_units_u64(w[1], strlen(w[1]), &ver) || !mpp_units_u64(w[3], strlen(w[3]), &hr) ||
        !mpp_units_u64(w[5], strlen(w[5]), &hn) || word(d)) {
        rc = mpp_lines_error(d->lr, d->line,
                             "expected the header 'mpptrace 1 rank %" PRIu32 " ranks %" PRIu32
                             "'",
                             d->r, d->nranks);
        goto done;
    }
    if (ver != MPP_MPITRACE_VERSION) {
        rc = mpp_lines_error(d->lr, d->line,
                             "capture format version %s is not supported, expected 1", w[1]);
        goto done;
    }
    if (hr != d->r || hn != d->nranks) {
        rc = mpp_lines_error(d->lr, d->line,
                             "the header says rank %s of %s ranks, expected rank %" PRIu32
                             " of %" PRIu32,
                             w[3], w[5], d->r, d->nranks);
        goto done;
    }
    bool ended = false;
    uint64_t end_line = 0;
    while ((rc = next_line(d)) == 1) {
        if (ended) {
            rc = mpp_lines_error(d->lr, d->line,
                                 "a call after the `end` line %" PRIu64 ", expected nothing",
                                 end_line);
            goto done;
        }
        char *first = word(d);
        uint64_t cpu;
        if (!strcmp(first, "end")) {
            if ((rc = field(d, "the end's CPU", "a CPU time in nanoseconds", UINT64_MAX, false,
                            &cpu)))
                goto done;
            char *extra = word(d);
            if (extra) {
                rc = mpp_lines_error(d->lr, d->line, "unexpected '%.40s' after 'end CPU'",
                                     extra);
                goto done;
            }
            mpp_mpitb_where(d->b, path, d->line);
            if ((rc = mpp_mpitb_end(d->b, d->r, cpu)))
                goto done;
            ended = true;
            end_line = d->line;
            continue;
        }
        if (!mpp_units_u64(first, strlen(first), &cpu)) {
            rc = mpp_lines_error(d->lr, d->line,
                                 "expected a CPU time in nanoseconds then a call (or 'end "
                                 "CPU'), got '%.40s'",
                                 first);
            goto done;
        }
        char *name = word(d);
        if (!name) {
            rc = mpp_lines_error(d->lr, d->line,
                                 "expected a call after the CPU time, got the end of the line");
            goto done;
        }
        if ((rc = parse_call(d, cpu, name)))
            goto done;
    }
    if (rc == 0 && !ended)
        rc = mpp_err_set(err, MPP_EFORMAT,
                         "%s: truncated: no `end` line (the program did not reach "
                         "MPI_Finalize, or the file was cut)",
                         path);
done:
    mpp_lines_close(d->lr);
    d->lr = NULL;
    return rc;
}

static void rdr_free(rdr *d)
{
    free(d->vals);
    free(d->st);
    free(d->mem);
}

int mpp_mpitrace_read_rank(mpp_mpitrace *t, uint32_t r, const char *path, mpp_err *err)
{
    if (t->rank || t->nranks == 0 || t->nranks > MPP_MPITRACE_MAX_RANKS || r >= t->nranks)
        return mpp_err_set(err, MPP_EINVAL,
                           "%s: mpp_mpitrace_read_rank needs an empty trace of 1 .. %u ranks "
                           "and a rank below it",
                           path, MPP_MPITRACE_MAX_RANKS);
    rdr d;
    memset(&d, 0, sizeof d);
    d.nranks = t->nranks;
    d.r = r;
    if (!(d.b = mpp_mpitb_new(t->nranks, MPP_MPITRACE_CAPTURE, err)))
        return err ? err->code : MPP_ENOMEM;
    int rc = read_rank_file(&d, path, err);
    rdr_free(&d);
    if (rc) {
        mpp_mpitb_free(d.b);
        return rc;
    }
    mpp_mpitrace *one;
    if ((rc = finish(d.b, &one, r)))
        return rc;
    *t = *one;
    free(one);
    return 0;
}

/* ---- capture folders ----------------------------------------------------------- */

/* "a/b" joined as "a/b/name" (malloc'd), or NULL. */
static char *join(const char *dir, const char *name)
{
    size_t a = strlen(dir), n = strlen(name);
    char *p = malloc(a + n + 2);
    if (p) {
        memcpy(p, dir, a);
        p[a] = '/';
        memcpy(p + a + 1, name, n + 1);
    }
    return p;
}

/* The meta file: `mpptrace 1`, then `ranks N`, `host_ops_per_s X` and an
 * optional `library TEXT`, each once, in any order. */
static int read_meta(const char *path, uint32_t *nranks, double *ops, char *lib, size_t libsz,
                     mpp_err *err)
{
    rdr d;
    memset(&d, 0, sizeof d);
    int rc = mpp_lines_open(&d.lr, path, 4096, err);
    if (rc)
        return rc;
    uint64_t seen_ranks = 0, seen_ops = 0, seen_lib = 0, n = 0;
    if ((rc = next_line(&d)) <= 0) {
        if (rc == 0)
            rc = mpp_lines_error(d.lr, 1, "empty file, expected 'mpptrace 1'");
        goto done;
    }
    char *w0 = word(&d), *w1 = word(&d);
    uint64_t ver;
    if (strcmp(w0, "mpptrace") || !w1 || !mpp_units_u64(w1, strlen(w1), &ver) || word(&d)) {
        rc = mpp_lines_error(d.lr, d.line, "expected 'mpptrace 1' (a capture's meta file)");
        goto done;
    }
    if (ver != MPP_MPITRACE_VERSION) {
        rc = mpp_lines_error(d.lr, d.line, "capture format version %s is not supported, "
                                           "expected 1", w1);
        goto done;
    }
    while ((rc = next_line(&d)) == 1) {
        char *key = word(&d);
        uint64_t *seen = !strcmp(key, "ranks")            ? &seen_ranks
                         : !strcmp(key, "host_ops_per_s") ? &seen_ops
                         : !strcmp(key, "library")        ? &seen_lib
                                                          : NULL;
        if (!seen) {
            rc = mpp_lines_error(d.lr, d.line,
                                 "unknown key '%.40s', expected ranks, host_ops_per_s or "
                                 "library",
                                 key);
            goto done;
        }
        if (*seen) {
            rc = mpp_lines_error(d.lr, d.line, "%s given twice (first on line %" PRIu64 ")", key,
                                 *seen);
            goto done;
        }
        *seen = d.line;
        if (seen == &seen_lib) {
            while (*d.s == ' ' || *d.s == '\t')
                d.s++;
            snprintf(lib, libsz, "%s", d.s);
            continue;
        }
        char *v = word(&d);
        char *extra = v ? word(&d) : NULL;
        if (seen == &seen_ranks) {
            if (!v || extra || !mpp_units_u64(v, strlen(v), &n) || n == 0 ||
                n > MPP_MPITRACE_MAX_RANKS) {
                rc = mpp_lines_error(d.lr, d.line, "expected ranks 1 .. %u, got '%.40s'",
                                     MPP_MPITRACE_MAX_RANKS, v ? v : "");
                goto done;
            }
        } else if (!v || extra || !mpp_units_double(v, ops) || !(*ops > 0) || *ops > 1e18) {
            rc = mpp_lines_error(d.lr, d.line,
                                 "expected host_ops_per_s, a number above 0 (at most 1e18), got "
                                 "'%.40s'",
                                 v ? v : "");
            goto done;
        }
    }
    if (rc == 0 && (!seen_ranks || !seen_ops))
        rc = mpp_err_set(err, MPP_EFORMAT, "%s: no `%s` line, expected one", path,
                         !seen_ranks ? "ranks N" : "host_ops_per_s X");
    *nranks = (uint32_t)n;
done:
    mpp_lines_close(d.lr);
    return rc;
}

/* Whether path is a regular file. */
static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The capture in folder dir whose meta file is meta. */
static int read_capture(const char *dir, const char *meta, mpp_mpitrace **out, mpp_err *err)
{
    *out = NULL;
    uint32_t n = 0;
    double ops = 0;
    char lib[128] = "";
    int rc = read_meta(meta, &n, &ops, lib, sizeof lib, err);
    if (rc)
        return rc;
    /* every rank file is there before any per-rank memory is taken */
    char name[64];
    for (uint32_t r = 0; r < n; r++) {
        snprintf(name, sizeof name, "rank-%" PRIu32 ".mpt.gz", r);
        char *gz = join(dir, name), *plain = gz ? join(dir, name) : NULL;
        if (!plain) {
            free(gz);
            return mpp_err_set(err, MPP_ENOMEM, "out of memory");
        }
        plain[strlen(plain) - 3] = '\0';
        bool g = is_file(gz), p = is_file(plain);
        if (!g && !p)
            rc = mpp_err_set(err, MPP_EFORMAT,
                             "%s: missing (%s says ranks %" PRIu32 ": expected rank-R.mpt.gz "
                             "or rank-R.mpt for R = 0 .. %" PRIu32 ")",
                             gz, meta, n, n - 1);
        else if (g && p)
            rc = mpp_err_set(err, MPP_EFORMAT,
                             "%s: both it and %s are there, expected one file per rank", gz,
                             plain);
        free(gz);
        free(plain);
        if (rc)
            return rc;
    }
    rdr d;
    memset(&d, 0, sizeof d);
    d.nranks = n;
    if (!(d.b = mpp_mpitb_new(n, MPP_MPITRACE_CAPTURE, err)))
        return err ? err->code : MPP_ENOMEM;
    for (uint32_t r = 0; r < n && !rc; r++) {
        snprintf(name, sizeof name, "rank-%" PRIu32 ".mpt.gz", r);
        char *path = join(dir, name);
        if (!path) {
            rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
            break;
        }
        if (!is_file(path))
            path[strlen(path) - 3] = '\0';
        d.r = r;
        rc = read_rank_file(&d, path, err);
        free(path);
    }
    rdr_free(&d);
    if (rc) {
        mpp_mpitb_free(d.b);
        return rc;
    }
    if ((rc = mpp_mpitb_finish(d.b, out)))
        return rc;
    (*out)->host_ops_per_s = ops;
    snprintf((*out)->library, sizeof (*out)->library, "%s", lib);
    return 0;
}

/* What the first line of the file at path says: 1 a capture meta file
 * (`mpptrace 1`), 2 a capture rank file, 0 neither; or MPP_EIO. */
static int sniff_capture(const char *path, mpp_err *err)
{
    mpp_err quiet;
    rdr d;
    memset(&d, 0, sizeof d);
    int rc = mpp_lines_open(&d.lr, path, 4096, &quiet);
    if (rc)
        return rc == MPP_EIO ? mpp_err_set(err, rc, "%s", quiet.msg) : rc;
    int kind = 0;
    if (next_line(&d) == 1) {
        char *w0 = word(&d), *w1 = word(&d), *w2 = word(&d);
        if (!strcmp(w0, "mpptrace") && w1)
            kind = w2 && !strcmp(w2, "rank") ? 2 : 1;
    }
    mpp_lines_close(d.lr);
    return kind;
}

int mpp_mpitrace_load(const char *path, mpp_mpitrace **out, mpp_err *err)
{
    *out = NULL;
    struct stat st;
    if (stat(path, &st) != 0)
        return mpp_err_set(err, MPP_EIO, "cannot read %s: %s", path, strerror(errno));
    if (S_ISDIR(st.st_mode)) {
        char *meta = join(path, "capture.mpt");
        if (!meta)
            return mpp_err_set(err, MPP_ENOMEM, "out of memory");
        int rc = 1;
        if (is_file(meta))
            rc = read_capture(path, meta, out, err);
        free(meta);
        if (rc <= 0)
            return rc;
    } else {
        int kind = sniff_capture(path, err);
        if (kind < 0)
            return kind;
        if (kind == 2)
            return mpp_err_set(err, MPP_EFORMAT,
                               "%s: a capture's rank file, expected its folder or its "
                               "capture.mpt",
                               path);
        if (kind == 1) {
            char *dir = malloc(strlen(path) + 2);
            if (!dir)
                return mpp_err_set(err, MPP_ENOMEM, "out of memory");
            strcpy(dir, path);
            char *slash = strrchr(dir, '/');
            if (slash)
                slash[slash == dir] = '\0';
            else
                strcpy(dir, ".");
            int rc = read_capture(dir, path, out, err);
            free(dir);
            return rc;
        }
    }
    /* ---- the other trace kinds, told apart by their contents: each
     * importer adds its line here (SimGrid time-independent, OTF2). ---- */
    if (S_ISDIR(st.st_mode)) {
        char *anchor = NULL;
        int rc = mpp_mpitrace_find_otf2(path, &anchor, err);
        if (rc == 1)
            rc = mpp_mpitrace_load_otf2(anchor, out, err);
        free(anchor);
        if (rc <= 0 && (rc < 0 || *out))
            return rc;
    } else if (mpp_mpitrace_sniff_otf2(path)) {
        return mpp_mpitrace_load_otf2(path, out, err);
    } else if (mpp_mpitrace_sniff_simgrid(path)) {
        return mpp_mpitrace_load_simgrid(path, out, err);
    }

    return mpp_err_set(err, MPP_EFORMAT,
                       "%s: not an MPI trace (expected a capture folder, a SimGrid "
                       "time-independent trace or an OTF2 archive)",
                       path);
}
