/* traces/mpi_simgrid.c — SimGrid time-independent traces imported into the
 * MPI trace (traces/mpitrace.h): what `smpirun -trace-ti` (SimGrid 3.32)
 * writes, read into the builder as if the ranks had been captured.
 *
 * The input. A main file lists one rank file per line (a path, relative to
 * the main file's folder unless absolute); or one file holds the actions
 * themselves (a single rank's file, or `tracing/smpi/format/ti-one-file`).
 * An action is one line "RANK NAME FIELDS...", RANK the 0-based world rank;
 * counts are element counts followed by SimGrid's datatype ids (the table
 * sg_types below: the predefined datatypes of SimGrid 3.32 and their sizes
 * on x86-64; -1 is a derived datatype, whose size the trace does not hold:
 * refused). docs/formats.md, "Importing SimGrid and OTF2 traces", lists the
 * fields of every action and what each becomes.
 *
 * What the trace does not say, and the rules this importer fixes:
 *   R1 Requests. A wait or test names its request by (source, destination,
 *      tag) as posted (-333 for MPI_ANY_SOURCE, -444 for MPI_ANY_TAG); it
 *      completes the OLDEST pending request of the rank with that key. A
 *      wait that finds none does nothing (SimGrid's replay: "the comm might
 *      have been caught by a MPI_test"). waitall completes every pending
 *      request (SimGrid's replay does the same; the count is not used),
 *      waitAny the oldest one.
 *   R2 A test completes its request only when no later wait, waitall or
 *      waitAny of the rank does: then the LAST test that names it does (the
 *      program saw the flag set there). Other tests complete nothing.
 *      testany, testall, testsome name no request: tests completing nothing.
 *   R3 Matching. The trace gives a receive's posted source and tag, not the
 *      message it matched. The importer runs the ranks' calls untimed, in
 *      rounds (rank 0 first): sends are buffered at once, a receive takes
 *      the earliest compatible message sent to it (for MPI_ANY_SOURCE the
 *      earliest of any sender), earlier posted receives first, a rank blocks
 *      at a receive, a wait of an unmatched receive, or a collective until
 *      every rank reaches the same collective. A receive's source, tag and
 *      size become the matched message's. A trace in which some rank blocks
 *      for ever is refused, naming the rank and its call.
 *   R4 sendRecv has no tags in the trace: its send matches any tag, and both
 *      sides get the receiving side's posted tag (0 when it is a wildcard).
 *   R5 Collectives carry no communicator in the trace: they are on
 *      MPI_COMM_WORLD (SimGrid's replay does the same). Communicator calls
 *      (comm_size, comm_split, comm_dup) and location lines are skipped.
 *   R6 compute amounts are flops, summed between calls and rounded to a
 *      whole flop into cpu_ns; the trace's flops_per_ns is 1.0 to say so.
 *      The computation of a reduction (reduce, allreduce, scan, exscan,
 *      reducescatter) counts after the call.
 *   R7 Calls the replay cannot model (persistent requests Start/Startall,
 *      nonblocking collectives, isendRecv, sleep) become `unsupported`.
 *
 * Invariants of the import:
 *   I1 every parsed action belongs to a rank < nranks, and each rank's
 *      actions keep their file order;
 *   I2 a request id is given once per rank (a counter), completed at most
 *      once;
 *   I3 a receive is matched to at most one send and a send to at most one
 *      receive; after the simulation every blocking receive and every
 *      completed receive request is matched.
 * Memory grows with the input actually read (no count is announced), at
 * most MPP_LINES_MAX_INPUT bytes per file. */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/units.h"
#include "traces/lineio.h"
#include "core/base/vec.h"
#include "traces/mpitrace.h"

#define SG_ANY_SOURCE (-333) /* what SimGrid 3.32 writes for MPI_ANY_SOURCE */
#define SG_ANY_TAG (-444)
#define SG_MAX_FIELDS 4096u   /* numbers of one action beyond 2 * nranks + 8 */

/* ---- growable arrays --------------------------------------------------- */

/* ---- the actions --------------------------------------------------------- */

enum {
    SG_IGNORE = 0, SG_INIT, SG_FINALIZE, SG_COMPUTE, SG_UNSUP,
    SG_SEND, SG_SSEND, SG_BSEND, SG_ISEND, SG_ISSEND,
    SG_RECV, SG_IRECV, SG_WAIT, SG_TEST, SG_WAITALL, SG_WAITANY,
    SG_TESTANY, SG_TESTALL, SG_TESTSOME, SG_SENDRECV,
    SG_BARRIER, SG_BCAST, SG_REDUCE, SG_ALLREDUCE, SG_ALLTOALL, SG_ALLTOALLV,
    SG_GATHER, SG_GATHERV, SG_SCATTER, SG_SCATTERV, SG_ALLGATHER, SG_ALLGATHERV,
    SG_REDSCAT, SG_SCAN, SG_EXSCAN
};

typedef struct sg_name {
    const char *name;
    int kind;
} sg_name;

/* Every action name SimGrid 3.32 writes or its replay reads. */
static const sg_name sg_names[] = {
    {"init", SG_INIT}, {"finalize", SG_FINALIZE}, {"compute", SG_COMPUTE},
    {"send", SG_SEND}, {"Ssend", SG_SSEND}, {"ssend", SG_SSEND}, {"bsend", SG_BSEND},
    {"rsend", SG_SEND}, {"isend", SG_ISEND}, {"ibsend", SG_ISEND}, {"irsend", SG_ISEND},
    {"ISsend", SG_ISSEND}, {"issend", SG_ISSEND}, {"recv", SG_RECV}, {"irecv", SG_IRECV},
    {"wait", SG_WAIT}, {"test", SG_TEST}, {"waitall", SG_WAITALL}, {"waitAny", SG_WAITANY},
    {"waitany", SG_WAITANY}, {"testany", SG_TESTANY}, {"testall", SG_TESTALL},
    {"testsome", SG_TESTSOME}, {"sendRecv", SG_SENDRECV}, {"sendrecv", SG_SENDRECV},
    {"barrier", SG_BARRIER}, {"bcast", SG_BCAST}, {"reduce", SG_REDUCE},
    {"allreduce", SG_ALLREDUCE}, {"alltoall", SG_ALLTOALL}, {"alltoallv", SG_ALLTOALLV},
    {"gather", SG_GATHER}, {"gatherv", SG_GATHERV}, {"scatter", SG_SCATTER},
    {"scatterv", SG_SCATTERV}, {"allgather", SG_ALLGATHER}, {"allgatherv", SG_ALLGATHERV},
    {"reducescatter", SG_REDSCAT}, {"scan", SG_SCAN}, {"exscan", SG_EXSCAN},
    {"comm_size", SG_IGNORE}, {"comm_split", SG_IGNORE}, {"comm_dup", SG_IGNORE},
    {"location", SG_IGNORE},
    {"sleep", SG_UNSUP}, {"Start", SG_UNSUP}, {"Startall", SG_UNSUP}, {"isendRecv", SG_UNSUP},
    {"ibarrier", SG_UNSUP}, {"ibcast", SG_UNSUP}, {"ireduce", SG_UNSUP},
    {"iallreduce", SG_UNSUP}, {"ialltoall", SG_UNSUP}, {"ialltoallv", SG_UNSUP},
    {"ialltoallw", SG_UNSUP}, {"alltoallw", SG_UNSUP}, {"igather", SG_UNSUP},
    {"igatherv", SG_UNSUP}, {"iscatter", SG_UNSUP}, {"iscatterv", SG_UNSUP},
    {"iallgather", SG_UNSUP}, {"iallgatherv", SG_UNSUP}, {"ireducescatter", SG_UNSUP},
    {"ireduce_scatter", SG_UNSUP}, {"iscan", SG_UNSUP}, {"iexscan", SG_UNSUP},
};

/* SimGrid 3.32's predefined datatype ids (smpi_datatype.cpp) and their
 * sizes in bytes on x86-64; 0 for MPI_UB/MPI_LB. */
static const uint8_t sg_types[] = {
    8, 4, 1, 2, 8, 4, 1, 8,       /* 0 DOUBLE, INT, CHAR, SHORT, LONG, FLOAT, BYTE, LONG_LONG */
    1, 1, 2, 4, 8, 8, 16, 4,      /* 8 SIGNED_CHAR, UNSIGNED_CHAR, _SHORT, UNSIGNED, _LONG,
                                     _LONG_LONG, LONG_DOUBLE, WCHAR */
    1, 1, 2, 4, 8, 1, 2, 4,       /* 16 C_BOOL, INT8..64_T, UINT8_T, UINT16_T, UINT32_T */
    8, 8, 16, 32, 8, 8, 8, 16,    /* 24 UINT64_T, C_FLOAT/DOUBLE/LONG_DOUBLE_COMPLEX, AINT,
                                     OFFSET, FLOAT_INT, LONG_INT */
    16, 8, 8, 8, 16, 16, 4, 4,    /* 32 DOUBLE_INT, SHORT_INT, 2INT, 2FLOAT, 2DOUBLE, 2LONG,
                                     REAL, REAL4 */
    8, 16, 8, 16, 16, 4, 2, 4,    /* 40 REAL8, REAL16, COMPLEX8/16/32, INTEGER1/2/4 */
    8, 16, 32, 0, 0, 1, 8, 8,     /* 48 INTEGER8, INTEGER16, LONG_DOUBLE_INT, UB, LB, PACKED,
                                     PTR, COUNT */
};

/* One line of the trace. Numbers are kept as doubles (SimGrid writes
 * integers, and its replay reads sizes as doubles). */
typedef struct sg_act {
    uint32_t rank;
    uint32_t file;   /* index into the importer's files */
    uint64_t line;
    uint32_t num;    /* numbers: imp->num[num .. num + nnum) */
    uint32_t nnum;
    uint16_t kind;
    uint16_t name;   /* SG_UNSUP: index into sg_names */
} sg_act;

/* A message in flight in the untimed run (R3). */
typedef struct sg_msg {
    uint32_t src, op; /* the sender and its op */
    uint32_t tag;     /* MPP_MPI_ANY: a sendRecv's unknown tag (R4) */
    uint64_t bytes;
    bool matched;
} sg_msg;

/* A request of a rank (R1). */
typedef struct sg_req {
    int64_t ksrc, kdst, ktag; /* its key as SimGrid writes it */
    uint32_t op;              /* the isend/irecv */
    uint32_t done;            /* the op that completes it, MPP_MPI_NONE */
    uint32_t lasttest;        /* the last test that named it, MPP_MPI_NONE */
    uint32_t msrc, mtag;      /* receive: matched (msrc MPP_MPI_NONE: not yet) */
    uint64_t mbytes;
    bool recv, pending;
} sg_req;

/* One rank: its events (mpitrace.h's, with the file's request ids) in
 * order, and what the untimed run needs. */
typedef struct sg_rank {
    mpp_mpi_event *op;
    uint32_t *act;      /* the action of each op */
    uint32_t nop, capop;
    uint64_t *vals;     /* completions (request ids) and vector counts */
    uint32_t nvals, capvals;
    sg_req *req;
    uint32_t nreq, capreq;
    uint64_t end_cpu;
    /* the untimed run */
    uint32_t pc;
    bool sent;          /* the current sendRecv's send is out */
    bool arrived;       /* counted at the current collective */
    uint32_t ncoll;     /* collectives passed */
    uint32_t *posted;   /* unmatched irecv requests, in posting order */
    uint32_t nposted, capposted;
    sg_msg *q;          /* messages sent to this rank, in sending order */
    uint32_t nq, capq, qhead;
} sg_rank;

typedef struct sg_imp {
    char **files;
    uint32_t nfiles, capfiles;
    sg_act *act;
    uint32_t nact, capact;
    double *num;
    uint32_t nnum, capnum;
    uint32_t nranks;
    sg_rank *rank;
    uint32_t *coll;     /* arrivals per collective */
    uint32_t ncollmax;
    uint64_t deftype;   /* size of the default datatype (init: byte, or double with an argument) */
    mpp_err *err;
} sg_imp;

/* MPP_EFORMAT "FILE:LINE: message" for action a. */
static int sg_fail(sg_imp *m, const sg_act *a, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int sg_fail(sg_imp *m, const sg_act *a, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return mpp_err_set(m->err, MPP_EFORMAT, "%s:%llu: %s", m->files[a->file],
                       (unsigned long long)a->line, msg);
}

static int sg_nomem(sg_imp *m)
{
    return mpp_err_set(m->err, MPP_ENOMEM, "out of memory importing a SimGrid trace");
}

/* ---- reading ------------------------------------------------------------- */

/* The next whitespace-separated token of *s (NUL-terminated in place), or
 * NULL at the end of the line. */
static char *sg_token(char **s)
{
    char *p = *s;
    while (*p == ' ' || *p == '\t' || *p == '\r')
        p++;
    if (!*p)
        return NULL;
    char *t = p;
    while (*p && *p != ' ' && *p != '\t' && *p != '\r')
        p++;
    if (*p)
        *p++ = 0;
    *s = p;
    return t;
}

/* 1 when line (not modified) reads "INTEGER NAME..." with NAME beginning
 * with a letter: a SimGrid action. */
static int sg_is_action(const char *line)
{
    const char *p = line;
    while (*p == ' ' || *p == '\t')
        p++;
    if (!isdigit((unsigned char)*p))
        return 0;
    while (isdigit((unsigned char)*p))
        p++;
    if (*p != ' ' && *p != '\t')
        return 0;
    while (*p == ' ' || *p == '\t')
        p++;
    return isalpha((unsigned char)*p) ? 1 : 0;
}

/* A comment or blank line. */
static int sg_skip(const char *line)
{
    while (*line == ' ' || *line == '\t' || *line == '\r')
        line++;
    return !*line || *line == '#';
}

/* Parse one action line of file f into m->act. */
static int sg_parse_line(sg_imp *m, mpp_lines *rd, uint32_t f, uint64_t ln, char *line)
{
    char *s = line;
    char *t = sg_token(&s);
    uint64_t rank;
    if (!mpp_units_u64(t, strlen(t), &rank) || rank >= MPP_MPITRACE_MAX_RANKS)
        return mpp_lines_error(rd, ln, "expected a rank (0 .. %u) and a SimGrid action, found '%.40s'",
                               MPP_MPITRACE_MAX_RANKS - 1, t);
    char *name = sg_token(&s);
    if (!name)
        return mpp_lines_error(rd, ln, "expected a SimGrid action after the rank");
    int kind = -1;
    uint16_t ni = 0;
    for (size_t i = 0; i < sizeof sg_names / sizeof sg_names[0]; i++)
        if (!strcmp(sg_names[i].name, name)) {
            kind = sg_names[i].kind;
            ni = (uint16_t)i;
            break;
        }
    if (kind < 0)
        return mpp_lines_error(rd, ln, "expected a SimGrid action (init, send, isend, recv, irecv, "
                               "wait, waitall, test, barrier, bcast, reduce, allreduce, alltoall, "
                               "gather, scatter, compute, ...), found '%.40s'", name);
    if (!mpp_vec_room((void **)&m->act, m->nact, &m->capact, sizeof *m->act))
        return sg_nomem(m);
    sg_act *a = &m->act[m->nact];
    memset(a, 0, sizeof *a);
    a->rank = (uint32_t)rank;
    a->file = f;
    a->line = ln;
    a->kind = (uint16_t)kind;
    a->name = ni;
    a->num = m->nnum;
    if (kind != SG_IGNORE && kind != SG_UNSUP) {
        while ((t = sg_token(&s)) != NULL) {
            double v;
            if (!mpp_units_double(t, &v))
                return mpp_lines_error(rd, ln, "%s: expected a number, found '%.40s'", name, t);
            if (a->nnum >= SG_MAX_FIELDS + 2u * MPP_MPITRACE_MAX_RANKS)
                return mpp_lines_error(rd, ln, "%s: too many fields", name);
            if (!mpp_vec_room((void **)&m->num, m->nnum, &m->capnum, sizeof *m->num))
                return sg_nomem(m);
            m->num[m->nnum++] = v;
            a->nnum++;
        }
    }
    m->nact++;
    return 0;
}

/* Read the actions of file f (m->files[f]). */
static int sg_read_actions(sg_imp *m, uint32_t f)
{
    mpp_lines *rd;
    int rc = mpp_lines_open(&rd, m->files[f], MPP_MPITRACE_MAX_LINE, m->err);
    if (rc)
        return rc;
    char *line;
    uint64_t ln;
    while ((rc = mpp_lines_next(rd, &line, &ln)) == 1) {
        if (sg_skip(line))
            continue;
        if ((rc = sg_parse_line(m, rd, f, ln, line)) != 0)
            break;
    }
    mpp_lines_close(rd);
    return rc < 0 ? rc : 0;
}

/* Add a file path to m->files (copied; relative paths of a main file are
 * taken from its folder dir, of length dlen). */
static int sg_add_file(sg_imp *m, const char *dir, size_t dlen, const char *p)
{
    if (!mpp_vec_room((void **)&m->files, m->nfiles, &m->capfiles, sizeof *m->files))
        return sg_nomem(m);
    size_t plen = strlen(p);
    bool rel = dlen && p[0] != '/';
    char *s = malloc((rel ? dlen + 1 : 0) + plen + 1);
    if (!s)
        return sg_nomem(m);
    if (rel) {
        memcpy(s, dir, dlen);
        s[dlen] = '/';
        memcpy(s + dlen + 1, p, plen + 1);
    } else {
        memcpy(s, p, plen + 1);
    }
    m->files[m->nfiles++] = s;
    return 0;
}

/* Read path: a main file of rank files, or a file of actions. */
static int sg_read(sg_imp *m, const char *path)
{
    mpp_lines *rd;
    int rc = mpp_lines_open(&rd, path, MPP_MPITRACE_MAX_LINE, m->err);
    if (rc)
        return rc;
    if ((rc = sg_add_file(m, NULL, 0, path)) != 0) {
        mpp_lines_close(rd);
        return rc;
    }
    const char *slash = strrchr(path, '/');
    size_t dlen = slash ? (size_t)(slash - path) : 0;
    char *dir = NULL;
    if (slash && !(dir = malloc(dlen + 1))) {
        mpp_lines_close(rd);
        return sg_nomem(m);
    }
    if (dir) {
        memcpy(dir, path, dlen);
        dir[dlen] = 0;
        if (!dlen) { /* "/file": the root folder */
            dir[0] = '/';
            dlen = 1;
        }
    }
    int mode = 0; /* 1: actions, 2: a main file */
    char *line;
    uint64_t ln;
    while ((rc = mpp_lines_next(rd, &line, &ln)) == 1) {
        if (sg_skip(line))
            continue;
        if (!mode)
            mode = sg_is_action(line) ? 1 : 2;
        if (mode == 1) {
            if ((rc = sg_parse_line(m, rd, 0, ln, line)) != 0)
                break;
            continue;
        }
        char *s = line;
        char *p = sg_token(&s);
        if (sg_token(&s)) {
            rc = mpp_lines_error(rd, ln, "expected the path of a SimGrid rank file (one a line)");
            break;
        }
        if (m->nfiles > MPP_MPITRACE_MAX_RANKS) {
            rc = mpp_lines_error(rd, ln, "more than %u rank files", MPP_MPITRACE_MAX_RANKS);
            break;
        }
        if ((rc = sg_add_file(m, dir, dir ? dlen : 0, p)) != 0)
            break;
    }
    mpp_lines_close(rd);
    free(dir);
    if (rc < 0)
        return rc;
    if (!mode)
        return mpp_err_set(m->err, MPP_EFORMAT, "%s:1: expected SimGrid actions or the paths of "
                           "SimGrid rank files, found an empty file", path);
    if (mode == 2) {
        for (uint32_t f = 1; f < m->nfiles; f++)
            if ((rc = sg_read_actions(m, f)) != 0)
                return rc;
        m->nranks = m->nfiles - 1;
    } else {
        for (uint32_t i = 0; i < m->nact; i++)
            if (m->act[i].rank + 1 > m->nranks)
                m->nranks = m->act[i].rank + 1;
    }
    return 0;
}

/* ---- interpretation (R1, R2, R5, R6, R7) ---------------------------------- */

/* Field i of a as an integer in [lo, hi] into *v. */
static int sg_int(sg_imp *m, const sg_act *a, uint32_t i, int64_t lo, int64_t hi, const char *what,
                  int64_t *v)
{
    double x = m->num[a->num + i];
    if (!(x >= (double)lo && x <= (double)hi) || x != floor(x))
        return sg_fail(m, a, "%s: expected %s (an integer from %lld to %lld), found %.17g",
                       sg_names[a->name].name, what, (long long)lo, (long long)hi, x);
    *v = (int64_t)x;
    return 0;
}

/* Bytes of count field ci with the datatype of field ti (absent: the
 * default datatype). */
static int sg_bytes(sg_imp *m, const sg_act *a, uint32_t ci, uint32_t ti, uint64_t *out)
{
    int64_t c = 0, t = -2;
    int rc = sg_int(m, a, ci, 0, INT32_MAX, "a count", &c);
    if (rc)
        return rc;
    uint64_t size = m->deftype;
    if (ti < a->nnum) {
        double x = m->num[a->num + ti];
        if (x == -1)
            return sg_fail(m, a, "%s: datatype -1 is a derived datatype, whose size SimGrid's trace "
                           "does not hold", sg_names[a->name].name);
        if ((rc = sg_int(m, a, ti, 0, (int64_t)sizeof sg_types - 1, "a SimGrid datatype id", &t)))
            return rc;
        size = sg_types[t];
    }
    *out = (uint64_t)c * size;
    if (*out > MPP_MPITRACE_MAX_BYTES)
        return sg_fail(m, a, "%s: %llu bytes, more than the limit 2^40", sg_names[a->name].name,
                       (unsigned long long)*out);
    return 0;
}

/* A rank in field i (any: -333 allowed, becoming MPP_MPI_ANY). */
static int sg_peer(sg_imp *m, const sg_act *a, uint32_t i, bool any, uint32_t *out, int64_t *raw)
{
    int64_t v = 0;
    int rc = sg_int(m, a, i, any ? SG_ANY_SOURCE : 0, (int64_t)m->nranks - 1, "a rank", &v);
    if (rc)
        return rc;
    if (v < 0 && v != SG_ANY_SOURCE)
        return sg_fail(m, a, "%s: expected a rank (0 .. %u) or -333 (MPI_ANY_SOURCE), found %lld",
                       sg_names[a->name].name, m->nranks - 1, (long long)v);
    *raw = v;
    *out = v < 0 ? MPP_MPI_ANY : (uint32_t)v;
    return 0;
}

/* A tag in field i (any: -444 allowed). */
static int sg_tag(sg_imp *m, const sg_act *a, uint32_t i, bool any, uint32_t *out, int64_t *raw)
{
    int64_t v = 0;
    int rc = sg_int(m, a, i, any ? SG_ANY_TAG : 0, INT32_MAX, "a tag", &v);
    if (rc)
        return rc;
    if (v < 0 && v != SG_ANY_TAG)
        return sg_fail(m, a, "%s: expected a tag (0 .. 2^31 - 1) or -444 (MPI_ANY_TAG), found %lld",
                       sg_names[a->name].name, (long long)v);
    *raw = v;
    *out = v < 0 ? MPP_MPI_ANY : (uint32_t)v;
    return 0;
}

/* Append an op of call to rank rk for action ai; *out the new op. */
static int sg_op(sg_imp *m, sg_rank *rk, uint32_t ai, int call, mpp_mpi_event **out)
{
    if (!mpp_vec_room((void **)&rk->op, rk->nop, &rk->capop, sizeof *rk->op))
        return sg_nomem(m);
    uint32_t capa = rk->capop;
    uint32_t *na = realloc(rk->act, (size_t)capa * sizeof *na);
    if (!na)
        return sg_nomem(m);
    rk->act = na;
    mpp_mpi_event *e = &rk->op[rk->nop];
    memset(e, 0, sizeof *e);
    e->call = (uint8_t)call;
    e->peer = e->peer2 = MPP_MPI_NONE;
    e->first = rk->nvals;
    rk->act[rk->nop++] = ai;
    *out = e;
    return 0;
}

static int sg_val(sg_imp *m, sg_rank *rk, uint64_t v)
{
    if (!mpp_vec_room((void **)&rk->vals, rk->nvals, &rk->capvals, sizeof *rk->vals))
        return sg_nomem(m);
    rk->vals[rk->nvals++] = v;
    return 0;
}

/* A new request of rank rk made by its last op. */
static int sg_newreq(sg_imp *m, sg_rank *rk, int64_t ks, int64_t kd, int64_t kt, bool recv)
{
    if (!mpp_vec_room((void **)&rk->req, rk->nreq, &rk->capreq, sizeof *rk->req))
        return sg_nomem(m);
    sg_req *q = &rk->req[rk->nreq];
    q->ksrc = ks;
    q->kdst = kd;
    q->ktag = kt;
    q->op = rk->nop - 1;
    q->done = q->lasttest = q->msrc = MPP_MPI_NONE;
    q->mtag = 0;
    q->mbytes = 0;
    q->recv = recv;
    q->pending = true;
    rk->op[rk->nop - 1].req = rk->nreq++;
    return 0;
}

/* Complete request qi by op (the last op of rk). */
static int sg_complete(sg_imp *m, sg_rank *rk, uint32_t qi)
{
    rk->req[qi].pending = false;
    rk->req[qi].done = rk->nop - 1;
    rk->op[rk->nop - 1].n++;
    return sg_val(m, rk, qi);
}

/* The oldest pending request of rk with key (s, d, t), or MPP_MPI_NONE. */
static uint32_t sg_find(const sg_rank *rk, int64_t s, int64_t d, int64_t t)
{
    for (uint32_t i = 0; i < rk->nreq; i++)
        if (rk->req[i].pending && rk->req[i].ksrc == s && rk->req[i].kdst == d &&
            rk->req[i].ktag == t)
            return i;
    return MPP_MPI_NONE;
}

/* Check a's field count: at least lo, at most hi. */
static int sg_nfields(sg_imp *m, const sg_act *a, uint32_t lo, uint32_t hi, const char *form)
{
    if (a->nnum < lo || a->nnum > hi)
        return sg_fail(m, a, "expected '%s %s' (%u to %u numbers), found %u",
                       sg_names[a->name].name, form, lo, hi, a->nnum);
    return 0;
}

/* Interpret action ai for its rank; cpu is the flops summed before it. */
static int sg_interpret(sg_imp *m, uint32_t ai, double *cpu)
{
    const sg_act *a = &m->act[ai];
    sg_rank *rk = &m->rank[a->rank];
    const uint32_t n = m->nranks;
    mpp_mpi_event *e = NULL;
    int64_t raw, raw2;
    uint64_t b;
    int rc = 0;
    static const uint8_t p2p[] = {
        [SG_SEND] = MPP_MPI_SEND, [SG_SSEND] = MPP_MPI_SSEND, [SG_BSEND] = MPP_MPI_BSEND,
        [SG_ISEND] = MPP_MPI_ISEND, [SG_ISSEND] = MPP_MPI_ISSEND,
    };
    switch (a->kind) {
    case SG_IGNORE:
    case SG_FINALIZE:
        return 0;
    case SG_INIT:
        m->deftype = a->nnum > 0 ? 8 : 1; /* SimGrid: MPI_DOUBLE with an argument, else MPI_BYTE */
        return 0;
    case SG_COMPUTE: {
        if ((rc = sg_nfields(m, a, 1, 1, "FLOPS")))
            return rc;
        double f = m->num[a->num];
        if (!(f >= 0) || !(*cpu + f < 9.2e18))
            return sg_fail(m, a, "compute: expected a number of flops from 0 to 9.2e18, found %.17g", f);
        *cpu += f;
        return 0;
    }
    case SG_UNSUP:
        if ((rc = sg_op(m, rk, ai, MPP_MPI_UNSUPPORTED, &e)))
            return rc;
        break;
    case SG_SEND: case SG_SSEND: case SG_BSEND: case SG_ISEND: case SG_ISSEND:
        if ((rc = sg_nfields(m, a, 3, 4, "DST TAG COUNT [DATATYPE]")) ||
            (rc = sg_op(m, rk, ai, p2p[a->kind], &e)) ||
            (rc = sg_peer(m, a, 0, false, &e->peer, &raw)) ||
            (rc = sg_tag(m, a, 1, false, &e->tag, &raw2)) ||
            (rc = sg_bytes(m, a, 2, 3, &e->bytes)))
            return rc;
        if (a->kind == SG_ISEND || a->kind == SG_ISSEND)
            rc = sg_newreq(m, rk, a->rank, raw, raw2, false);
        break;
    case SG_RECV: case SG_IRECV:
        if ((rc = sg_nfields(m, a, 3, 4, "SRC TAG COUNT [DATATYPE]")) ||
            (rc = sg_op(m, rk, ai, a->kind == SG_RECV ? MPP_MPI_RECV : MPP_MPI_IRECV, &e)) ||
            (rc = sg_peer(m, a, 0, true, &e->peer, &raw)) ||
            (rc = sg_tag(m, a, 1, true, &e->tag, &raw2)) ||
            (rc = sg_bytes(m, a, 2, 3, &e->bytes)))
            return rc;
        if (a->kind == SG_IRECV)
            rc = sg_newreq(m, rk, raw, a->rank, raw2, true);
        break;
    case SG_WAIT: case SG_TEST: {
        int64_t s, d, t;
        if ((rc = sg_nfields(m, a, 3, 3, "SRC DST TAG")) ||
            (rc = sg_int(m, a, 0, SG_ANY_SOURCE, (int64_t)n - 1, "a rank", &s)) ||
            (rc = sg_int(m, a, 1, 0, (int64_t)n - 1, "a rank", &d)) ||
            (rc = sg_int(m, a, 2, SG_ANY_TAG, INT32_MAX, "a tag", &t)))
            return rc;
        uint32_t qi = sg_find(rk, s, d, t);
        if (qi == MPP_MPI_NONE) {
            if (a->kind == SG_WAIT)
                return 0; /* R1: completed by a test */
            if ((rc = sg_op(m, rk, ai, MPP_MPI_TEST, &e)))
                return rc;
            break;
        }
        if (a->kind == SG_WAIT) {
            if ((rc = sg_op(m, rk, ai, MPP_MPI_WAIT, &e)))
                return rc;
            rc = sg_complete(m, rk, qi);
        } else { /* R2: decided once the whole rank is read */
            if ((rc = sg_op(m, rk, ai, MPP_MPI_TEST, &e)))
                return rc;
            rk->req[qi].lasttest = rk->nop - 1;
        }
        break;
    }
    case SG_WAITALL: case SG_WAITANY: {
        uint32_t first = MPP_MPI_NONE, np = 0;
        for (uint32_t i = 0; i < rk->nreq; i++)
            if (rk->req[i].pending) {
                if (first == MPP_MPI_NONE)
                    first = i;
                np++;
            }
        if (!np)
            return 0; /* nothing pending: SimGrid's replay does nothing either */
        if ((rc = sg_op(m, rk, ai, a->kind == SG_WAITALL ? MPP_MPI_WAITALL : MPP_MPI_WAITANY, &e)))
            return rc;
        for (uint32_t i = first; i < rk->nreq && !rc; i++)
            if (rk->req[i].pending) {
                rc = sg_complete(m, rk, i);
                if (a->kind == SG_WAITANY)
                    break;
            }
        break;
    }
    case SG_TESTANY: case SG_TESTALL: case SG_TESTSOME: {
        static const uint8_t c[] = {[SG_TESTANY] = MPP_MPI_TESTANY,
                                    [SG_TESTALL] = MPP_MPI_TESTALL,
                                    [SG_TESTSOME] = MPP_MPI_TESTSOME};
        if ((rc = sg_op(m, rk, ai, c[a->kind], &e)))
            return rc;
        break;
    }
    case SG_SENDRECV: /* SCOUNT DST RCOUNT SRC [SDT RDT] (R4) */
        if ((rc = sg_nfields(m, a, 4, 6, "SCOUNT DST RCOUNT SRC [SDATATYPE RDATATYPE]")) ||
            (rc = sg_op(m, rk, ai, MPP_MPI_SENDRECV, &e)) ||
            (rc = sg_bytes(m, a, 0, 4, &e->bytes)) ||
            (rc = sg_peer(m, a, 1, false, &e->peer, &raw)) ||
            (rc = sg_bytes(m, a, 2, 5, &e->bytes2)) ||
            (rc = sg_peer(m, a, 3, true, &e->peer2, &raw2)))
            return rc;
        e->tag = e->tag2 = MPP_MPI_ANY;
        break;
    case SG_BARRIER:
        rc = sg_op(m, rk, ai, MPP_MPI_BARRIER, &e);
        break;
    case SG_BCAST: /* COUNT [ROOT [DT]] */
        if ((rc = sg_nfields(m, a, 1, 3, "COUNT [ROOT [DATATYPE]]")) ||
            (rc = sg_op(m, rk, ai, MPP_MPI_BCAST, &e)) || (rc = sg_bytes(m, a, 0, 2, &e->bytes)))
            return rc;
        e->peer = 0;
        if (a->nnum > 1)
            rc = sg_peer(m, a, 1, false, &e->peer, &raw);
        break;
    case SG_REDUCE: /* COUNT COMP [ROOT [DT]] */
        if ((rc = sg_nfields(m, a, 2, 4, "COUNT FLOPS [ROOT [DATATYPE]]")) ||
            (rc = sg_op(m, rk, ai, MPP_MPI_REDUCE, &e)) || (rc = sg_bytes(m, a, 0, 3, &e->bytes)))
            return rc;
        e->peer = 0;
        if (a->nnum > 2)
            rc = sg_peer(m, a, 2, false, &e->peer, &raw);
        break;
    case SG_ALLREDUCE: case SG_SCAN: case SG_EXSCAN: /* COUNT COMP [DT] */
        if ((rc = sg_nfields(m, a, 2, 3, "COUNT FLOPS [DATATYPE]")) ||
            (rc = sg_op(m, rk, ai, a->kind == SG_ALLREDUCE ? MPP_MPI_ALLREDUCE
                                   : a->kind == SG_SCAN ? MPP_MPI_SCAN : MPP_MPI_EXSCAN, &e)))
            return rc;
        rc = sg_bytes(m, a, 0, 2, &e->bytes);
        break;
    case SG_ALLTOALL: case SG_ALLGATHER: /* SCOUNT RCOUNT [SDT [RDT]] */
        if ((rc = sg_nfields(m, a, 2, 4, "SCOUNT RCOUNT [SDATATYPE [RDATATYPE]]")) ||
            (rc = sg_op(m, rk, ai, a->kind == SG_ALLTOALL ? MPP_MPI_ALLTOALL : MPP_MPI_ALLGATHER, &e)))
            return rc;
        rc = sg_bytes(m, a, 0, 2, &e->bytes);
        break;
    case SG_GATHER: case SG_SCATTER: /* SCOUNT RCOUNT [ROOT [SDT [RDT]]] */
        if ((rc = sg_nfields(m, a, 2, 5, "SCOUNT RCOUNT [ROOT [SDATATYPE [RDATATYPE]]]")) ||
            (rc = sg_op(m, rk, ai, a->kind == SG_GATHER ? MPP_MPI_GATHER : MPP_MPI_SCATTER, &e)))
            return rc;
        e->peer = 0;
        if (a->nnum > 2 && (rc = sg_peer(m, a, 2, false, &e->peer, &raw)))
            return rc;
        /* one member's block: what a member sends (gather) or receives (scatter) */
        rc = a->kind == SG_GATHER ? sg_bytes(m, a, 0, 3, &e->bytes) : sg_bytes(m, a, 1, 4, &e->bytes);
        break;
    case SG_GATHERV: case SG_ALLGATHERV: { /* SCOUNT R1..Rn [ROOT] [SDT [RDT]] */
        bool g = a->kind == SG_GATHERV;
        uint32_t base = 1 + n + (g ? 1 : 0);
        if ((rc = sg_nfields(m, a, 1 + n, base + 2, g ? "SCOUNT RCOUNT1..RCOUNTn [ROOT [SDATATYPE "
                             "[RDATATYPE]]]" : "SCOUNT RCOUNT1..RCOUNTn [SDATATYPE [RDATATYPE]]")) ||
            (rc = sg_op(m, rk, ai, g ? MPP_MPI_GATHERV : MPP_MPI_ALLGATHERV, &e)) ||
            (rc = sg_bytes(m, a, 0, base, &e->bytes)))
            return rc;
        e->peer = g ? 0 : MPP_MPI_NONE;
        if (g && a->nnum > 1 + n && (rc = sg_peer(m, a, 1 + n, false, &e->peer, &raw)))
            return rc;
        if (!g || e->peer == a->rank)
            for (uint32_t i = 0; i < n && !rc; i++) {
                if (!(rc = sg_bytes(m, a, 1 + i, base + 1, &b)))
                    rc = sg_val(m, rk, b);
                e->n++;
            }
        if (!g)
            e->bytes = 0; /* allgatherv: every member's block is in the vector */
        break;
    }
    case SG_SCATTERV: /* S1..Sn RCOUNT [ROOT [SDT [RDT]]] */
        if ((rc = sg_nfields(m, a, n + 1, n + 4, "SCOUNT1..SCOUNTn RCOUNT [ROOT [SDATATYPE "
                             "[RDATATYPE]]]")) ||
            (rc = sg_op(m, rk, ai, MPP_MPI_SCATTERV, &e)) ||
            (rc = sg_bytes(m, a, n, n + 3, &e->bytes)))
            return rc;
        e->peer = 0;
        if (a->nnum > n + 1 && (rc = sg_peer(m, a, n + 1, false, &e->peer, &raw)))
            return rc;
        if (e->peer == a->rank)
            for (uint32_t i = 0; i < n && !rc; i++) {
                if (!(rc = sg_bytes(m, a, i, n + 2, &b)))
                    rc = sg_val(m, rk, b);
                e->n++;
            }
        break;
    case SG_ALLTOALLV: /* SSUM S1..Sn RSUM R1..Rn [SDT RDT] */
        if ((rc = sg_nfields(m, a, 2 * n + 2, 2 * n + 4, "SSUM SCOUNT1..SCOUNTn RSUM "
                             "RCOUNT1..RCOUNTn [SDATATYPE RDATATYPE]")) ||
            (rc = sg_op(m, rk, ai, MPP_MPI_ALLTOALLV, &e)))
            return rc;
        for (uint32_t i = 0; i < 2 * n && !rc; i++) {
            uint32_t ci = i < n ? 1 + i : 2 + i;
            if (!(rc = sg_bytes(m, a, ci, i < n ? 2 * n + 2 : 2 * n + 3, &b)))
                rc = sg_val(m, rk, b);
        }
        e->n = 2 * n; /* the values: sends then receives */
        break;
    case SG_REDSCAT: /* R1..Rn COMP [DT] */
        if ((rc = sg_nfields(m, a, n + 1, n + 2, "RCOUNT1..RCOUNTn FLOPS [DATATYPE]")) ||
            (rc = sg_op(m, rk, ai, MPP_MPI_REDUCE_SCATTER, &e)))
            return rc;
        for (uint32_t i = 0; i < n && !rc; i++)
            if (!(rc = sg_bytes(m, a, i, n + 1, &b)))
                rc = sg_val(m, rk, b);
        e->n = n;
        break;
    default:
        return sg_fail(m, a, "internal: action kind %d", a->kind);
    }
    if (rc)
        return rc;
    e->cpu_ns = (uint64_t)llround(*cpu);
    *cpu = 0;
    /* R6: a reduction's computation counts after it */
    if (a->kind == SG_REDUCE || a->kind == SG_ALLREDUCE || a->kind == SG_SCAN ||
        a->kind == SG_EXSCAN || a->kind == SG_REDSCAT) {
        double f = m->num[a->num + (a->kind == SG_REDSCAT ? n : 1)];
        if (!(f >= 0 && f < 9.2e18))
            return sg_fail(m, a, "%s: expected a number of flops from 0 to 9.2e18, found %.17g",
                           sg_names[a->name].name, f);
        *cpu = f;
    }
    return 0;
}

/* R2: a request no wait completes is completed by the last test naming it.
 * The test's completion goes into rk->vals at its end (the builder reads
 * vals[first .. first + n)). */
static int sg_tests(sg_imp *m, sg_rank *rk)
{
    for (uint32_t i = 0; i < rk->nreq; i++) {
        sg_req *q = &rk->req[i];
        if (q->done != MPP_MPI_NONE || q->lasttest == MPP_MPI_NONE)
            continue;
        mpp_mpi_event *e = &rk->op[q->lasttest];
        e->first = rk->nvals;
        e->n = 1;
        q->done = q->lasttest;
        q->pending = false;
        int rc = sg_val(m, rk, i);
        if (rc)
            return rc;
    }
    return 0;
}

/* ---- the untimed run (R3) ------------------------------------------------ */

static bool sg_is_coll(int call)
{
    return call >= MPP_MPI_BARRIER && call <= MPP_MPI_EXSCAN;
}

/* Match a receive of rank d posted for (src, tag) against the messages
 * sent to d; on success fill *ms, *mt, *mb and return true. */
static bool sg_match(sg_imp *m, uint32_t d, uint32_t src, uint32_t tag, uint32_t *ms, uint32_t *mt,
                     uint64_t *mb)
{
    sg_rank *rk = &m->rank[d];
    while (rk->qhead < rk->nq && rk->q[rk->qhead].matched)
        rk->qhead++;
    for (uint32_t i = rk->qhead; i < rk->nq; i++) {
        sg_msg *g = &rk->q[i];
        if (g->matched || (src != MPP_MPI_ANY && g->src != src))
            continue;
        if (tag != MPP_MPI_ANY && g->tag != MPP_MPI_ANY && g->tag != tag)
            continue;
        g->matched = true;
        uint32_t t = g->tag != MPP_MPI_ANY ? g->tag : tag != MPP_MPI_ANY ? tag : 0;
        if (g->tag == MPP_MPI_ANY) /* R4: the sendRecv's send takes the receiver's tag */
            m->rank[g->src].op[g->op].tag = t;
        *ms = g->src;
        *mt = t;
        *mb = g->bytes;
        return true;
    }
    return false;
}

/* Match rank r's posted irecvs, oldest first. */
static void sg_match_posted(sg_imp *m, uint32_t r)
{
    sg_rank *rk = &m->rank[r];
    uint32_t k = 0;
    for (uint32_t i = 0; i < rk->nposted; i++) {
        sg_req *q = &rk->req[rk->posted[i]];
        const mpp_mpi_event *e = &rk->op[q->op];
        if (!sg_match(m, r, e->peer, e->tag, &q->msrc, &q->mtag, &q->mbytes))
            rk->posted[k++] = rk->posted[i];
    }
    rk->nposted = k;
}

/* Post a message from rank s (its op) to d. */
static int sg_post(sg_imp *m, uint32_t s, uint32_t op, uint32_t d, uint32_t tag, uint64_t bytes)
{
    sg_rank *rk = &m->rank[d];
    if (!mpp_vec_room((void **)&rk->q, rk->nq, &rk->capq, sizeof *rk->q))
        return sg_nomem(m);
    rk->q[rk->nq++] = (sg_msg){.src = s, .op = op, .tag = tag, .bytes = bytes, .matched = false};
    return 0;
}

/* Run rank r as far as it can go; *moved set when it advanced. */
static int sg_step(sg_imp *m, uint32_t r, bool *moved)
{
    sg_rank *rk = &m->rank[r];
    int rc;
    while (rk->pc < rk->nop) {
        mpp_mpi_event *e = &rk->op[rk->pc];
        switch (e->call) {
        case MPP_MPI_SEND: case MPP_MPI_SSEND: case MPP_MPI_BSEND:
        case MPP_MPI_ISEND: case MPP_MPI_ISSEND:
            if ((rc = sg_post(m, r, rk->pc, e->peer, e->tag, e->bytes)))
                return rc;
            break;
        case MPP_MPI_IRECV:
            if (!mpp_vec_room((void **)&rk->posted, rk->nposted, &rk->capposted, sizeof *rk->posted))
                return sg_nomem(m);
            rk->posted[rk->nposted++] = e->req;
            sg_match_posted(m, r);
            break;
        case MPP_MPI_RECV: {
            sg_match_posted(m, r);
            uint32_t s, t;
            uint64_t b;
            if (!sg_match(m, r, e->peer, e->tag, &s, &t, &b))
                return 0;
            e->peer = s;
            e->tag = t;
            e->bytes = b;
            break;
        }
        case MPP_MPI_SENDRECV: {
            if (!rk->sent) {
                if ((rc = sg_post(m, r, rk->pc, e->peer, MPP_MPI_ANY, e->bytes)))
                    return rc;
                rk->sent = true;
                *moved = true;
            }
            sg_match_posted(m, r);
            uint32_t s, t;
            uint64_t b;
            if (!sg_match(m, r, e->peer2, MPP_MPI_ANY, &s, &t, &b))
                return 0;
            e->peer2 = s;
            e->tag2 = t;
            e->bytes2 = b;
            rk->sent = false;
            break;
        }
        case MPP_MPI_WAIT: case MPP_MPI_WAITALL: case MPP_MPI_WAITANY: case MPP_MPI_TEST:
            sg_match_posted(m, r);
            for (uint32_t i = 0; i < e->n; i++) {
                const sg_req *q = &rk->req[rk->vals[e->first + i]];
                if (q->recv && q->msrc == MPP_MPI_NONE)
                    return 0;
            }
            break;
        default:
            if (sg_is_coll(e->call)) {
                if (!rk->arrived) {
                    if (!m->coll || rk->ncoll >= m->ncollmax)
                        return sg_fail(m, &m->act[rk->act[rk->pc]], "internal: collective count");
                    m->coll[rk->ncoll]++;
                    rk->arrived = true;
                    *moved = true;
                }
                if (m->coll[rk->ncoll] < m->nranks)
                    return 0;
                rk->arrived = false;
                rk->ncoll++;
            }
            break;
        }
        rk->pc++;
        *moved = true;
    }
    return 0;
}

/* The untimed run of all ranks; MPP_EFORMAT naming a rank that blocks for
 * ever. */
static int sg_run(sg_imp *m)
{
    for (;;) {
        bool moved = false, done = true;
        for (uint32_t r = 0; r < m->nranks; r++) {
            int rc = sg_step(m, r, &moved);
            if (rc)
                return rc;
            if (m->rank[r].pc < m->rank[r].nop)
                done = false;
        }
        if (done)
            break;
        if (moved)
            continue;
        for (uint32_t r = 0; r < m->nranks; r++) {
            sg_rank *rk = &m->rank[r];
            if (rk->pc >= rk->nop)
                continue;
            const mpp_mpi_event *e = &rk->op[rk->pc];
            const sg_act *a = &m->act[rk->act[rk->pc]];
            if (sg_is_coll(e->call))
                return sg_fail(m, a, "rank %u's %s (its collective number %u) is not reached by "
                               "every rank: %u of %u ranks call it", r, sg_names[a->name].name,
                               rk->ncoll + 1, m->coll[rk->ncoll], m->nranks);
            return sg_fail(m, a, "rank %u's %s blocks for ever: no send of the trace matches its "
                           "receive (the ranks' calls run in order, docs/formats.md rule R3)", r,
                           sg_names[a->name].name);
        }
    }
    /* every receive request completed is matched (I3); unmatched pending
     * irecvs that nothing completed stay as posted */
    return 0;
}

/* ---- building the trace ---------------------------------------------------- */

static int sg_build(sg_imp *m, mpp_mpitrace **out)
{
    mpp_mpitb *b = mpp_mpitb_new(m->nranks, MPP_MPITRACE_SIMGRID, m->err);
    if (!b)
        return m->err && m->err->code ? m->err->code : MPP_ENOMEM;
    int rc = 0;
    uint64_t *vals = NULL;
    mpp_mpitb_status *st = NULL;
    uint32_t cap = 0;
    for (uint32_t r = 0; r < m->nranks && !rc; r++) {
        sg_rank *rk = &m->rank[r];
        for (uint32_t i = 0; i < rk->nop && !rc; i++) {
            mpp_mpi_event e = rk->op[i];
            if (e.call == MPP_MPI_SENDRECV && e.tag == MPP_MPI_ANY)
                e.tag = 0; /* R4: a send no receive took */
            const sg_act *a = &m->act[rk->act[i]];
            mpp_mpitb_where(b, m->files[a->file], a->line);
            uint32_t n = e.n;
            if (n > cap) {
                uint64_t *nv = realloc(vals, (size_t)n * sizeof *vals);
                if (nv)
                    vals = nv;
                mpp_mpitb_status *ns = nv ? realloc(st, (size_t)n * sizeof *st) : NULL;
                if (ns)
                    st = ns;
                if (!nv || !ns) {
                    rc = sg_nomem(m);
                    break;
                }
                cap = n;
            }
            bool compl = e.call >= MPP_MPI_WAIT && e.call <= MPP_MPI_TESTSOME;
            for (uint32_t k = 0; k < n; k++) {
                vals[k] = rk->vals[e.first + k];
                if (compl) {
                    const sg_req *q = &rk->req[vals[k]];
                    st[k].peer = q->recv ? q->msrc : MPP_MPI_NONE;
                    st[k].tag = q->recv ? q->mtag : 0;
                    st[k].bytes = q->recv ? q->mbytes : 0;
                }
            }
            if (e.call == MPP_MPI_UNSUPPORTED &&
                (rc = mpp_mpitb_unsupported(b, r, sg_names[a->name].name)))
                break;
            e.first = 0;
            rc = mpp_mpitb_add(b, r, &e, n ? vals : NULL, compl && n ? st : NULL, n);
        }
        if (!rc)
            rc = mpp_mpitb_end(b, r, rk->end_cpu);
    }
    free(vals);
    free(st);
    if (rc) {
        mpp_mpitb_free(b);
        return rc;
    }
    mpp_mpitrace *t = NULL;
    if ((rc = mpp_mpitb_finish(b, &t)))
        return rc;
    t->flops_per_ns = 1.0; /* R6: cpu_ns holds flops */
    *out = t;
    return 0;
}

static void sg_imp_free(sg_imp *m)
{
    for (uint32_t f = 0; f < m->nfiles; f++)
        free(m->files[f]);
    free(m->files);
    free(m->act);
    free(m->num);
    if (m->rank)
        for (uint32_t r = 0; r < m->nranks; r++) {
            sg_rank *rk = &m->rank[r];
            free(rk->op);
            free(rk->act);
            free(rk->vals);
            free(rk->req);
            free(rk->posted);
            free(rk->q);
        }
    free(m->rank);
    free(m->coll);
}

int mpp_mpitrace_load_simgrid(const char *path, mpp_mpitrace **out, mpp_err *err)
{
    *out = NULL;
    sg_imp m;
    memset(&m, 0, sizeof m);
    m.err = err;
    m.deftype = 1;
    int rc = sg_read(&m, path);
    if (!rc && !m.nact)
        rc = mpp_err_set(err, MPP_EFORMAT, "%s: a SimGrid trace without actions", path);
    if (!rc && !(m.rank = calloc(m.nranks, sizeof *m.rank)))
        rc = sg_nomem(&m);
    /* I1: actions are read in file order; each rank's keep that order */
    double *cpu = NULL;
    if (!rc && !(cpu = calloc(m.nranks, sizeof *cpu)))
        rc = sg_nomem(&m);
    for (uint32_t i = 0; i < m.nact && !rc; i++) {
        if (m.act[i].rank >= m.nranks)
            rc = sg_fail(&m, &m.act[i], "rank %u in a trace of %u rank files", m.act[i].rank,
                         m.nranks);
        else
            rc = sg_interpret(&m, i, &cpu[m.act[i].rank]);
    }
    uint32_t ncmax = 0;
    for (uint32_t r = 0; r < m.nranks && !rc; r++) {
        sg_rank *rk = &m.rank[r];
        rk->end_cpu = (uint64_t)llround(cpu[r]);
        rc = sg_tests(&m, rk);
        uint32_t nc = 0;
        for (uint32_t i = 0; i < rk->nop; i++)
            nc += sg_is_coll(rk->op[i].call);
        if (nc > ncmax)
            ncmax = nc;
    }
    free(cpu);
    for (uint32_t r = 0; r < m.nranks && !rc; r++)
        if (!m.rank[r].nop && !m.rank[r].end_cpu) {
            bool seen = false;
            for (uint32_t i = 0; i < m.nact && !seen; i++)
                seen = m.act[i].rank == r;
            if (!seen)
                rc = mpp_err_set(err, MPP_EFORMAT, "%s: rank %u has no actions (ranks 0 .. %u "
                                 "expected)", path, r, m.nranks - 1);
        }
    m.ncollmax = ncmax;
    if (!rc && ncmax && !(m.coll = calloc(ncmax, sizeof *m.coll)))
        rc = sg_nomem(&m);
    if (!rc)
        rc = sg_run(&m);
    if (!rc)
        rc = sg_build(&m, out);
    sg_imp_free(&m);
    return rc;
}

int mpp_mpitrace_sniff_simgrid(const char *path)
{
    mpp_lines *rd;
    if (mpp_lines_open(&rd, path, 4096, NULL))
        return 0;
    char *line;
    uint64_t ln;
    int found = 0, rc;
    while ((rc = mpp_lines_next(rd, &line, &ln)) == 1) {
        if (sg_skip(line))
            continue;
        if (sg_is_action(line)) {
            found = 1;
            break;
        }
        /* the first path of a main file: its file must hold actions */
        char *s = line;
        char *p = sg_token(&s);
        if (!p || sg_token(&s))
            break;
        const char *slash = strrchr(path, '/');
        size_t dl = p[0] != '/' && slash ? (size_t)(slash - path) + 1 : 0;
        char *buf = malloc(dl + strlen(p) + 1);
        if (!buf)
            break;
        memcpy(buf, path, dl);
        strcpy(buf + dl, p);
        mpp_lines *r2;
        int orc = mpp_lines_open(&r2, buf, 4096, NULL);
        free(buf);
        if (!orc) {
            while (mpp_lines_next(r2, &line, &ln) == 1) {
                if (sg_skip(line))
                    continue;
                found = sg_is_action(line);
                break;
            }
            mpp_lines_close(r2);
        }
        break;
    }
    mpp_lines_close(rd);
    return found;
}
