/* traces/mpi_otf2.c — OTF2 archives (as Score-P writes them) imported into
 * the MPI trace (traces/mpitrace.h): the MPI events of every location, read
 * through OTF2_Reader with the global definitions, fed to the builder.
 *
 * What maps to what (docs/formats.md, "Importing SimGrid and OTF2 traces"):
 *   ranks: the group of type COMM_LOCATIONS (paradigm MPI) lists the MPI
 *     ranks' locations in rank order; location L of member i is rank i;
 *   communicators: a Comm definition's group (COMM_GROUP: ranks of that
 *     list; COMM_SELF) gives its members. The COMM_GROUP of every rank in
 *     order is MPI_COMM_WORLD (id 0), COMM_SELF is id 1; every other
 *     communicator is created at the start of every rank's trace, in
 *     definition order, by a comm_create of MPI_COMM_WORLD (NEW -1 on the
 *     ranks that are not members) — OTF2 does not record when it was made;
 *   MpiSend / MpiRecv: send / recv (peers are communicator ranks in OTF2,
 *     world ranks here); MpiIsend: isend; MpiIrecvRequest: irecv, whose
 *     source, tag and communicator come with its MpiIrecv (as matched);
 *     MpiIsendComplete and MpiIrecv: completions. The events of one MPI
 *     region (Enter .. Leave) make one call: its completions one wait (one)
 *     or waitall (more), a send and a receive a sendrecv; outside a region
 *     every event is its own call;
 *   MpiCollectiveEnd: the collective of its type on its communicator with
 *     its root; the per-member block from the rank's sizes (O1 below);
 *   compute: the time a location spends outside MPI regions between two
 *     calls, in ticks of the clock (ClockProperties' timerResolution),
 *     converted to ns.
 * Rules fixed here (OTF2 does not say):
 *   O1 block sizes: bcast and scatter take the received size (at the root,
 *      the sent size / members); gather the sent size; allgather, reduce,
 *      allreduce, scan, exscan the sent size; alltoall the sent size /
 *      members; reduce_scatter_block the received size. The v-collectives
 *      record only totals: every member gets an equal share (the remainder
 *      to the last member).
 *   O2 An irecv never completed is posted as from any source with any tag on
 *      MPI_COMM_WORLD. MpiRequestTest (a test that completed nothing) is a
 *      test completing nothing; MpiRequestCancelled is `unsupported`
 *      (MPI_Cancel), as are MPI_Alltoallw and one-sided/handle collectives.
 * Invariants: I1 an OTF2 request id maps to one live request of its rank;
 * I2 every peer is translated through its communicator's members.
 * Without OTF2 (no MPP_HAVE_OTF2) the importer refuses with a message. */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "core/base/file.h"
#include "core/base/vec.h"
#include "traces/mpitrace.h"

/* OTF2's anchor files (OTF2 3.0) begin with a header byte, an endianness
 * byte and "OTF2" NUL; the name ends in ".otf2". */
static const char otf2_magic[] = "OTF2";

int mpp_mpitrace_sniff_otf2(const char *path)
{
    size_t n = strlen(path);
    if (n < 5 || strcmp(path + n - 5, ".otf2"))
        return 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    char buf[8] = {0};
    size_t got = fread(buf, 1, sizeof buf, f);
    fclose(f);
    return got >= 7 && !memcmp(buf + 2, otf2_magic, 5) ? 1 : 0;
}

int mpp_mpitrace_find_otf2(const char *dir, char **anchor, mpp_err *err)
{
    *anchor = NULL;
    DIR *d = opendir(dir);
    if (!d)
        return mpp_err_set(err, MPP_EIO, "cannot read %.300s: %s", dir, strerror(errno));
    int n = 0;
    char first[2][128] = {{0}};
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name);
        if (len < 6 || strcmp(de->d_name + len - 5, ".otf2"))
            continue;
        char *p = malloc(strlen(dir) + len + 2);
        if (!p) {
            closedir(d);
            free(*anchor);
            *anchor = NULL;
            return mpp_err_set(err, MPP_ENOMEM, "out of memory");
        }
        sprintf(p, "%s/%s", dir, de->d_name);
        if (!mpp_mpitrace_sniff_otf2(p)) {
            free(p);
            continue;
        }
        if (n < 2)
            snprintf(first[n], sizeof first[n], "%.100s", de->d_name);
        if (n++ == 0)
            *anchor = p;
        else
            free(p);
    }
    closedir(d);
    if (n > 1) {
        free(*anchor);
        *anchor = NULL;
        return mpp_err_set(err, MPP_EFORMAT, "%.300s: %d OTF2 anchor files (%s, %s, ...): name "
                           "the one to read", dir, n, first[0], first[1]);
    }
    return n;
}

#ifndef MPP_HAVE_OTF2

int mpp_mpitrace_load_otf2(const char *path, mpp_mpitrace **out, mpp_err *err)
{
    *out = NULL;
    return mpp_err_set(err, MPP_EFORMAT, "%.300s: an OTF2 archive, but OTF2 support was not built "
                       "in (install libotf2-trace-dev and rebuild)", path);
}

#else

#include <otf2/otf2.h>

typedef struct o2_group {
    uint64_t id;
    uint8_t type;
    uint32_t n;
    uint64_t *members;
} o2_group;

typedef struct o2_comm {
    uint64_t id, group;
    uint32_t gid;       /* global: 0 world, 1 self, 2.. the created ones */
    uint32_t n;         /* members (world ranks) */
    uint32_t *members;
} o2_comm;

/* One live request of a rank: the OTF2 id and ours. */
typedef struct o2_req {
    uint64_t otf2;
    uint32_t id, op;    /* our request id; the irecv op (MPP_MPI_NONE: a send) */
} o2_req;

typedef struct o2_rank {
    mpp_mpi_event *op;
    uint32_t nop, capop;
    uint64_t *vals;     /* completions (request ids) and vectors, per op: op.first .. */
    mpp_mpitb_status *st; /* completions' statuses, parallel to vals */
    uint32_t nvals, capvals;
    o2_req *live;
    uint32_t nlive, caplive;
    uint32_t nextreq;
    uint32_t *localid;  /* per comm (index into comms): the rank's own id, MPP_MPI_NONE */
    /* the MPI region being read */
    uint32_t depth;
    uint32_t region_first; /* the first op made inside it */
    uint64_t last;      /* time the last MPI region was left */
    bool started;
    uint64_t cpu;       /* ticks outside MPI regions, not yet given to a call */
} o2_rank;

typedef struct o2_imp {
    const char *path;
    mpp_err *err;
    int rc;             /* the first error of a callback */
    uint64_t resolution;
    o2_group *groups;
    uint32_t ngroups, capgroups;
    o2_comm *comms;
    uint32_t ncomms, capcomms;
    uint64_t *locs;     /* the rank of each location: loc ids in rank order */
    uint32_t nranks;
    o2_rank *rank;
} o2_imp;

/* Record the first error (MPP_EFORMAT "PATH: message") and stop OTF2. */
static OTF2_CallbackCode o2_fail(o2_imp *m, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static OTF2_CallbackCode o2_fail(o2_imp *m, int code, const char *fmt, ...)
{
    if (!m->rc) {
        char msg[400];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        m->rc = mpp_err_set(m->err, code, "%.200s: %s", m->path, msg);
    }
    return OTF2_CALLBACK_INTERRUPT;
}

/* OTF2's own error reports: kept quiet (library code does not print); the
 * error code comes back through the call and is reported by the caller. */
static OTF2_ErrorCode o2_quiet(void *ud, const char *file, uint64_t line, const char *fn,
                               OTF2_ErrorCode code, const char *fmt, va_list va)
{
    (void)ud, (void)file, (void)line, (void)fn, (void)fmt, (void)va;
    return code;
}

/* ---- definitions --------------------------------------------------------- */

static OTF2_CallbackCode o2_clock(void *ud, uint64_t res, uint64_t off, uint64_t len, uint64_t rt)
{
    (void)off, (void)len, (void)rt;
    ((o2_imp *)ud)->resolution = res;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode o2_group_def(void *ud, OTF2_GroupRef self, OTF2_StringRef name,
                                      OTF2_GroupType type, OTF2_Paradigm paradigm,
                                      OTF2_GroupFlag flags, uint32_t n, const uint64_t *members)
{
    o2_imp *m = ud;
    (void)name, (void)flags;
    if (type != OTF2_GROUP_TYPE_COMM_LOCATIONS && type != OTF2_GROUP_TYPE_COMM_GROUP &&
        type != OTF2_GROUP_TYPE_COMM_SELF)
        return OTF2_CALLBACK_SUCCESS;
    if (type == OTF2_GROUP_TYPE_COMM_LOCATIONS && paradigm != OTF2_PARADIGM_MPI)
        return OTF2_CALLBACK_SUCCESS;
    if (n > MPP_MPITRACE_MAX_RANKS)
        return o2_fail(m, MPP_EFORMAT, "group %u has %u members, more than %u", (unsigned)self, n,
                       MPP_MPITRACE_MAX_RANKS);
    if (!mpp_vec_room((void **)&m->groups, m->ngroups, &m->capgroups, sizeof *m->groups))
        return o2_fail(m, MPP_ENOMEM, "out of memory");
    o2_group *g = &m->groups[m->ngroups];
    g->members = n ? malloc((size_t)n * sizeof *g->members) : NULL;
    if (n && !g->members)
        return o2_fail(m, MPP_ENOMEM, "out of memory");
    if (n)
        memcpy(g->members, members, (size_t)n * sizeof *members);
    g->id = self;
    g->type = (uint8_t)type;
    g->n = n;
    m->ngroups++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode o2_comm_def(void *ud, OTF2_CommRef self, OTF2_StringRef name,
                                     OTF2_GroupRef group, OTF2_CommRef parent, OTF2_CommFlag flags)
{
    o2_imp *m = ud;
    (void)name, (void)parent, (void)flags;
    if (!mpp_vec_room((void **)&m->comms, m->ncomms, &m->capcomms, sizeof *m->comms))
        return o2_fail(m, MPP_ENOMEM, "out of memory");
    m->comms[m->ncomms++] = (o2_comm){.id = self, .group = group};
    return OTF2_CALLBACK_SUCCESS;
}

static const o2_group *o2_find_group(const o2_imp *m, uint64_t id)
{
    for (uint32_t i = 0; i < m->ngroups; i++)
        if (m->groups[i].id == id)
            return &m->groups[i];
    return NULL;
}

/* The ranks and the communicators' members, once the definitions are read. */
static int o2_resolve(o2_imp *m)
{
    const o2_group *locs = NULL;
    for (uint32_t i = 0; i < m->ngroups; i++)
        if (m->groups[i].type == OTF2_GROUP_TYPE_COMM_LOCATIONS) {
            locs = &m->groups[i];
            break;
        }
    if (!locs || !locs->n)
        return mpp_err_set(m->err, MPP_EFORMAT, "%.300s: no MPI locations group (COMM_LOCATIONS "
                           "of paradigm MPI): not an OTF2 trace of an MPI program", m->path);
    if (!m->resolution)
        return mpp_err_set(m->err, MPP_EFORMAT, "%.300s: no clock properties (timer resolution)",
                           m->path);
    m->nranks = locs->n;
    m->locs = locs->members;
    if (!(m->rank = calloc(m->nranks, sizeof *m->rank)))
        return mpp_err_set(m->err, MPP_ENOMEM, "out of memory importing an OTF2 archive");
    uint32_t next = 2;
    bool world = false;
    for (uint32_t c = 0; c < m->ncomms; c++) {
        o2_comm *k = &m->comms[c];
        const o2_group *g = o2_find_group(m, k->group);
        if (!g)
            return mpp_err_set(m->err, MPP_EFORMAT, "%.300s: communicator %llu: its group %llu is "
                               "not a communicator group", m->path, (unsigned long long)k->id,
                               (unsigned long long)k->group);
        if (g->type == OTF2_GROUP_TYPE_COMM_SELF) {
            k->gid = 1;
            continue;
        }
        if (g->type != OTF2_GROUP_TYPE_COMM_GROUP)
            return mpp_err_set(m->err, MPP_EFORMAT, "%.300s: communicator %llu: expected a group "
                               "of type COMM_GROUP or COMM_SELF", m->path,
                               (unsigned long long)k->id);
        if (!(k->members = malloc(((size_t)g->n + 1) * sizeof *k->members)))
            return mpp_err_set(m->err, MPP_ENOMEM, "out of memory importing an OTF2 archive");
        bool all = g->n == m->nranks;
        for (uint32_t i = 0; i < g->n; i++) {
            if (g->members[i] >= m->nranks)
                return mpp_err_set(m->err, MPP_EFORMAT, "%.300s: communicator %llu: member %llu, "
                                   "expected a rank below %u", m->path, (unsigned long long)k->id,
                                   (unsigned long long)g->members[i], m->nranks);
            k->members[i] = (uint32_t)g->members[i];
            all &= k->members[i] == i;
        }
        k->n = g->n;
        if (all && !world) {
            k->gid = 0;
            world = true;
        } else {
            k->gid = next++;
        }
    }
    for (uint32_t r = 0; r < m->nranks; r++) {
        o2_rank *rk = &m->rank[r];
        if (m->ncomms && !(rk->localid = malloc((size_t)m->ncomms * sizeof *rk->localid)))
            return mpp_err_set(m->err, MPP_ENOMEM, "out of memory importing an OTF2 archive");
        uint32_t nextlocal = 2;
        for (uint32_t c = 0; c < m->ncomms; c++) {
            const o2_comm *k = &m->comms[c];
            bool member = k->gid <= 1;
            for (uint32_t i = 0; i < k->n && !member; i++)
                member = k->members[i] == r;
            rk->localid[c] = k->gid <= 1 ? k->gid : member ? nextlocal++ : MPP_MPI_NONE;
        }
    }
    return 0;
}

/* ---- events -------------------------------------------------------------- */

static o2_rank *o2_rank_of(o2_imp *m, OTF2_LocationRef loc, uint32_t *r)
{
    for (uint32_t i = 0; i < m->nranks; i++)
        if (m->locs[i] == loc) {
            *r = i;
            return &m->rank[i];
        }
    return NULL;
}

/* Account for time t on rank rk: outside MPI regions it is compute. */
static void o2_time(o2_rank *rk, uint64_t t)
{
    if (!rk->started) {
        rk->started = true;
        rk->last = t;
    }
    if (!rk->depth && t > rk->last) {
        rk->cpu += t - rk->last;
        rk->last = t;
    }
}

/* A new op on rank rk (cpu: what was spent before). */
static mpp_mpi_event *o2_op(o2_imp *m, o2_rank *rk, int call)
{
    if (!mpp_vec_room((void **)&rk->op, rk->nop, &rk->capop, sizeof *rk->op)) {
        o2_fail(m, MPP_ENOMEM, "out of memory");
        return NULL;
    }
    mpp_mpi_event *e = &rk->op[rk->nop++];
    memset(e, 0, sizeof *e);
    e->call = (uint8_t)call;
    e->peer = e->peer2 = MPP_MPI_NONE;
    e->first = rk->nvals;
    e->cpu_ns = rk->cpu; /* ticks for now: converted when built */
    rk->cpu = 0;
    return e;
}

static bool o2_val(o2_imp *m, o2_rank *rk, uint64_t v, mpp_mpitb_status s)
{
    if (!mpp_vec_room((void **)&rk->vals, rk->nvals, &rk->capvals, sizeof *rk->vals)) {
        o2_fail(m, MPP_ENOMEM, "out of memory");
        return false;
    }
    uint32_t cap = rk->capvals;
    mpp_mpitb_status *ns = realloc(rk->st, (size_t)cap * sizeof *ns);
    if (!ns) {
        o2_fail(m, MPP_ENOMEM, "out of memory");
        return false;
    }
    rk->st = ns;
    rk->vals[rk->nvals] = v;
    rk->st[rk->nvals++] = s;
    return true;
}

/* The communicator c (an OTF2 id) for rank r: its index, and peer p (a
 * rank in it) as a world rank into *w (p MPP_MPI_NONE: no peer). */
static int o2_comm_peer(o2_imp *m, uint32_t r, uint64_t c, uint32_t p, uint32_t *ci, uint32_t *w)
{
    for (uint32_t i = 0; i < m->ncomms; i++) {
        const o2_comm *k = &m->comms[i];
        if (k->id != c)
            continue;
        if (m->rank[r].localid[i] == MPP_MPI_NONE)
            return o2_fail(m, MPP_EFORMAT, "rank %u uses communicator %llu, of which it is not a "
                           "member", r, (unsigned long long)c), -1;
        *ci = i;
        if (p == MPP_MPI_NONE)
            return 0;
        uint32_t size = k->gid == 1 ? 1 : k->gid == 0 ? m->nranks : k->n;
        if (p >= size)
            return o2_fail(m, MPP_EFORMAT, "rank %u: peer or root %u outside communicator %llu "
                           "of %u members", r, p, (unsigned long long)c, size), -1;
        *w = k->gid == 1 ? r : k->gid == 0 ? p : k->members[p];
        return 0;
    }
    return o2_fail(m, MPP_EFORMAT, "rank %u: communicator %llu is not defined", r,
                   (unsigned long long)c), -1;
}

/* An event of a location that is not an MPI rank is ignored. */
#define O2_PROLOGUE                                                                                 \
    o2_imp *m = ud;                                                                                 \
    (void)al;                                                                                       \
    uint32_t r;                                                                                     \
    o2_rank *rk = o2_rank_of(m, loc, &r);                                                           \
    if (!rk || m->rc)                                                                               \
        return m->rc ? OTF2_CALLBACK_INTERRUPT : OTF2_CALLBACK_SUCCESS;                            \
    o2_time(rk, t)

static OTF2_CallbackCode o2_enter(OTF2_LocationRef loc, OTF2_TimeStamp t, void *ud,
                                  OTF2_AttributeList *al, OTF2_RegionRef region)
{
    O2_PROLOGUE;
    (void)region;
    if (rk->depth++ == 0)
        rk->region_first = rk->nop;
    return OTF2_CALLBACK_SUCCESS;
}

/* The ops made inside one region become one call: completions merged
 * into one wait/waitall, a send and a receive into a sendrecv. */
static void o2_merge(o2_rank *rk)
{
    uint32_t f = rk->region_first, n = rk->nop - f;
    if (n < 2)
        return;
    mpp_mpi_event *a = &rk->op[f], *b = &rk->op[f + 1];
    if (n == 2 && (a->call == MPP_MPI_SEND || a->call == MPP_MPI_RECV) &&
        (b->call == MPP_MPI_SEND || b->call == MPP_MPI_RECV) && a->call != b->call) {
        const mpp_mpi_event *s = a->call == MPP_MPI_SEND ? a : b, *q = a->call == MPP_MPI_SEND ? b : a;
        if (s->comm == q->comm) {
            mpp_mpi_event e = *s;
            e.call = MPP_MPI_SENDRECV;
            e.peer2 = q->peer;
            e.tag2 = q->tag;
            e.bytes2 = q->bytes;
            e.cpu_ns = a->cpu_ns + b->cpu_ns;
            *a = e;
            rk->nop--;
        }
        return;
    }
    bool allc = true;
    for (uint32_t i = f; i < rk->nop && allc; i++)
        allc = rk->op[i].call == MPP_MPI_WAIT;
    if (!allc)
        return;
    /* completions are contiguous in vals, in op order */
    uint64_t cpu = 0;
    for (uint32_t i = f; i < rk->nop; i++)
        cpu += rk->op[i].cpu_ns;
    a->call = MPP_MPI_WAITALL;
    a->n = rk->nvals - a->first;
    a->cpu_ns = cpu;
    rk->nop = f + 1;
}

static OTF2_CallbackCode o2_leave(OTF2_LocationRef loc, OTF2_TimeStamp t, void *ud,
                                  OTF2_AttributeList *al, OTF2_RegionRef region)
{
    O2_PROLOGUE;
    (void)region;
    if (rk->depth && --rk->depth == 0) {
        o2_merge(rk);
        rk->last = t;
    }
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode o2_p2p(o2_imp *m, uint32_t r, o2_rank *rk, int call, uint32_t peer,
                                uint64_t comm, uint32_t tag, uint64_t len)
{
    uint32_t ci, w = MPP_MPI_NONE;
    if (o2_comm_peer(m, r, comm, peer, &ci, &w))
        return OTF2_CALLBACK_INTERRUPT;
    mpp_mpi_event *e = o2_op(m, rk, call);
    if (!e)
        return OTF2_CALLBACK_INTERRUPT;
    e->peer = w;
    e->comm = rk->localid[ci];
    e->tag = tag;
    e->bytes = len;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode o2_send(OTF2_LocationRef loc, OTF2_TimeStamp t, void *ud,
                                 OTF2_AttributeList *al, uint32_t to, OTF2_CommRef c, uint32_t tag,
                                 uint64_t len)
{
    O2_PROLOGUE;
    return o2_p2p(m, r, rk, MPP_MPI_SEND, to, c, tag, len);
}

static OTF2_CallbackCode o2_recv(OTF2_LocationRef loc, OTF2_TimeStamp t, void *ud,
                                 OTF2_AttributeList *al, uint32_t from, OTF2_CommRef c,
                                 uint32_t tag, uint64_t len)
{
    O2_PROLOGUE;
    return o2_p2p(m, r, rk, MPP_MPI_RECV, from, c, tag, len);
}

/* A new live request of rk for OTF2 id q, made by its last op. */
static bool o2_newreq(o2_imp *m, o2_rank *rk, uint64_t q, bool recv)
{
    for (uint32_t i = 0; i < rk->nlive; i++)
        if (rk->live[i].otf2 == q) {
            o2_fail(m, MPP_EFORMAT, "request %llu made twice while live", (unsigned long long)q);
            return false;
        }
    if (!mpp_vec_room((void **)&rk->live, rk->nlive, &rk->caplive, sizeof *rk->live)) {
        o2_fail(m, MPP_ENOMEM, "out of memory");
        return false;
    }
    rk->live[rk->nlive++] = (o2_req){q, rk->nextreq, recv ? rk->nop - 1 : MPP_MPI_NONE};
    rk->op[rk->nop - 1].req = rk->nextreq++;
    return true;
}

static OTF2_CallbackCode o2_isend(OTF2_LocationRef loc, OTF2_TimeStamp t, void *ud,
                                  OTF2_AttributeList *al, uint32_t to, OTF2_CommRef c,
                                  uint32_t tag, uint64_t len, uint64_t q)
{
    O2_PROLOGUE;
    OTF2_CallbackCode cc = o2_p2p(m, r, rk, MPP_MPI_ISEND, to, c, tag, len);
    if (cc == OTF2_CALLBACK_SUCCESS && !o2_newreq(m, rk, q, false))
        return OTF2_CALLBACK_INTERRUPT;
    return cc;
}

static OTF2_CallbackCode o2_irecvreq(OTF2_LocationRef loc, OTF2_TimeStamp t, void *ud,
                                     OTF2_AttributeList *al, uint64_t q)
{
    O2_PROLOGUE;
    mpp_mpi_event *e = o2_op(m, rk, MPP_MPI_IRECV);
    if (!e)
        return OTF2_CALLBACK_INTERRUPT;
    e->peer = MPP_MPI_ANY; /* O2: until its MpiIrecv says */
    e->tag = MPP_MPI_ANY;
    return o2_newreq(m, rk, q, true) ? OTF2_CALLBACK_SUCCESS : OTF2_CALLBACK_INTERRUPT;
}

/* Complete OTF2 request q of rank r (a wait op, merged at the region's end). */
static OTF2_CallbackCode o2_complete(o2_imp *m, uint32_t r, o2_rank *rk, uint64_t q,
                                     mpp_mpitb_status s)
{
    uint32_t i = 0;
    while (i < rk->nlive && rk->live[i].otf2 != q)
        i++;
    if (i == rk->nlive)
        return o2_fail(m, MPP_EFORMAT, "rank %u completes request %llu, which is not live", r,
                       (unsigned long long)q);
    o2_req lr = rk->live[i];
    rk->live[i] = rk->live[--rk->nlive];
    mpp_mpi_event *e = o2_op(m, rk, MPP_MPI_WAIT);
    if (!e)
        return OTF2_CALLBACK_INTERRUPT;
    e->n = 1;
    if (!o2_val(m, rk, lr.id, s))
        return OTF2_CALLBACK_INTERRUPT;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode o2_isendc(OTF2_LocationRef loc, OTF2_TimeStamp t, void *ud,
                                   OTF2_AttributeList *al, uint64_t q)
{
    O2_PROLOGUE;
    return o2_complete(m, r, rk, q, (mpp_mpitb_status){MPP_MPI_NONE, 0, 0});
}

static OTF2_CallbackCode o2_irecv(OTF2_LocationRef loc, OTF2_TimeStamp t, void *ud,
                                  OTF2_AttributeList *al, uint32_t from, OTF2_CommRef c,
                                  uint32_t tag, uint64_t len, uint64_t q)
{
    O2_PROLOGUE;
    uint32_t ci, w = MPP_MPI_NONE;
    if (o2_comm_peer(m, r, c, from, &ci, &w))
        return OTF2_CALLBACK_INTERRUPT;
    for (uint32_t i = 0; i < rk->nlive; i++)
        if (rk->live[i].otf2 == q && rk->live[i].op != MPP_MPI_NONE) {
            mpp_mpi_event *e = &rk->op[rk->live[i].op];
            e->peer = w; /* posted as matched: OTF2 keeps no posted values */
            e->tag = tag;
            e->comm = rk->localid[ci];
        }
    return o2_complete(m, r, rk, q, (mpp_mpitb_status){w, tag, len});
}

static OTF2_CallbackCode o2_test(OTF2_LocationRef loc, OTF2_TimeStamp t, void *ud,
                                 OTF2_AttributeList *al, uint64_t q)
{
    O2_PROLOGUE;
    (void)q;
    return o2_op(m, rk, MPP_MPI_TEST) ? OTF2_CALLBACK_SUCCESS : OTF2_CALLBACK_INTERRUPT;
}

static OTF2_CallbackCode o2_cancel(OTF2_LocationRef loc, OTF2_TimeStamp t, void *ud,
                                   OTF2_AttributeList *al, uint64_t q)
{
    O2_PROLOGUE;
    (void)q;
    mpp_mpi_event *e = o2_op(m, rk, MPP_MPI_UNSUPPORTED);
    if (!e)
        return OTF2_CALLBACK_INTERRUPT;
    e->name = 0; /* MPI_Cancel */
    return OTF2_CALLBACK_SUCCESS;
}

/* The names of the unsupported calls (e->name indexes this). */
static const char *const o2_unsup[] = {"MPI_Cancel", "MPI_Alltoallw", "an OTF2 RMA collective"};

static OTF2_CallbackCode o2_coll(OTF2_LocationRef loc, OTF2_TimeStamp t, void *ud,
                                 OTF2_AttributeList *al, OTF2_CollectiveOp op, OTF2_CommRef c,
                                 uint32_t root, uint64_t sent, uint64_t recvd)
{
    O2_PROLOGUE;
    static const uint8_t map[] = {
        [OTF2_COLLECTIVE_OP_BARRIER] = MPP_MPI_BARRIER, [OTF2_COLLECTIVE_OP_BCAST] = MPP_MPI_BCAST,
        [OTF2_COLLECTIVE_OP_GATHER] = MPP_MPI_GATHER, [OTF2_COLLECTIVE_OP_GATHERV] = MPP_MPI_GATHERV,
        [OTF2_COLLECTIVE_OP_SCATTER] = MPP_MPI_SCATTER,
        [OTF2_COLLECTIVE_OP_SCATTERV] = MPP_MPI_SCATTERV,
        [OTF2_COLLECTIVE_OP_ALLGATHER] = MPP_MPI_ALLGATHER,
        [OTF2_COLLECTIVE_OP_ALLGATHERV] = MPP_MPI_ALLGATHERV,
        [OTF2_COLLECTIVE_OP_ALLTOALL] = MPP_MPI_ALLTOALL,
        [OTF2_COLLECTIVE_OP_ALLTOALLV] = MPP_MPI_ALLTOALLV,
        [OTF2_COLLECTIVE_OP_ALLTOALLW] = MPP_MPI_UNSUPPORTED,
        [OTF2_COLLECTIVE_OP_ALLREDUCE] = MPP_MPI_ALLREDUCE,
        [OTF2_COLLECTIVE_OP_REDUCE] = MPP_MPI_REDUCE,
        [OTF2_COLLECTIVE_OP_REDUCE_SCATTER] = MPP_MPI_REDUCE_SCATTER,
        [OTF2_COLLECTIVE_OP_SCAN] = MPP_MPI_SCAN, [OTF2_COLLECTIVE_OP_EXSCAN] = MPP_MPI_EXSCAN,
        [OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK] = MPP_MPI_REDUCE_SCATTER_BLOCK,
    };
    int call = op < sizeof map ? map[op] : MPP_MPI_UNSUPPORTED;
    if (op >= sizeof map)
        call = MPP_MPI_UNSUPPORTED;
    else if (op == OTF2_COLLECTIVE_OP_BARRIER)
        call = MPP_MPI_BARRIER;
    uint32_t ci, w = MPP_MPI_NONE;
    bool rooted = call == MPP_MPI_BCAST || call == MPP_MPI_REDUCE || call == MPP_MPI_GATHER ||
                  call == MPP_MPI_GATHERV || call == MPP_MPI_SCATTER || call == MPP_MPI_SCATTERV;
    if (call != MPP_MPI_UNSUPPORTED &&
        o2_comm_peer(m, r, c, rooted ? root : MPP_MPI_NONE, &ci, &w))
        return OTF2_CALLBACK_INTERRUPT;
    mpp_mpi_event *e = o2_op(m, rk, call);
    if (!e)
        return OTF2_CALLBACK_INTERRUPT;
    if (call == MPP_MPI_UNSUPPORTED) {
        e->name = op == OTF2_COLLECTIVE_OP_ALLTOALLW ? 1 : 2;
        return OTF2_CALLBACK_SUCCESS;
    }
    const o2_comm *k = &m->comms[ci];
    uint32_t size = k->gid == 1 ? 1 : k->gid == 0 ? m->nranks : k->n;
    e->comm = rk->localid[ci];
    e->peer = rooted ? w : MPP_MPI_NONE;
    bool isroot = rooted && w == r;
    switch (call) { /* O1 */
    case MPP_MPI_BCAST: case MPP_MPI_SCATTER:
        e->bytes = isroot && !recvd ? sent / size : recvd;
        break;
    case MPP_MPI_ALLTOALL:
        e->bytes = sent / size;
        break;
    case MPP_MPI_REDUCE_SCATTER_BLOCK:
        e->bytes = recvd;
        break;
    case MPP_MPI_GATHER: case MPP_MPI_ALLGATHER: case MPP_MPI_REDUCE: case MPP_MPI_ALLREDUCE:
    case MPP_MPI_SCAN: case MPP_MPI_EXSCAN:
        e->bytes = sent;
        break;
    case MPP_MPI_GATHERV: case MPP_MPI_SCATTERV: case MPP_MPI_ALLGATHERV:
    case MPP_MPI_ALLTOALLV: case MPP_MPI_REDUCE_SCATTER: {
        uint64_t total = call == MPP_MPI_GATHERV ? recvd : call == MPP_MPI_SCATTERV ? sent
                         : call == MPP_MPI_ALLGATHERV ? recvd : call == MPP_MPI_REDUCE_SCATTER ? sent
                         : 0;
        uint32_t k2 = size;
        if (call == MPP_MPI_GATHERV)
            e->bytes = sent;
        if (call == MPP_MPI_SCATTERV)
            e->bytes = recvd;
        if ((call == MPP_MPI_GATHERV || call == MPP_MPI_SCATTERV) && !isroot)
            k2 = 0;
        for (int side = 0; side < (call == MPP_MPI_ALLTOALLV ? 2 : 1); side++) {
            if (call == MPP_MPI_ALLTOALLV)
                total = side ? recvd : sent;
            for (uint32_t i = 0; i < k2; i++) {
                uint64_t v = total / size + (i + 1 == size ? total % size : 0);
                if (!o2_val(m, rk, v, (mpp_mpitb_status){MPP_MPI_NONE, 0, 0}))
                    return OTF2_CALLBACK_INTERRUPT;
                e->n++;
            }
        }
        break;
    }
    default:
        break;
    }
    return OTF2_CALLBACK_SUCCESS;
}

/* ---- driving OTF2 and building ---------------------------------------------- */

static int o2_otf2_error(o2_imp *m, OTF2_ErrorCode code, const char *what)
{
    if (m->rc)
        return m->rc;
    return m->rc = mpp_err_set(m->err, MPP_EFORMAT, "%.300s: %s: %s (%s)", m->path, what,
                               OTF2_Error_GetName(code), OTF2_Error_GetDescription(code));
}

static int o2_read(o2_imp *m, OTF2_Reader *rd)
{
    OTF2_ErrorCode ec;
    uint64_t nloc = 0, nread = 0;
    if ((ec = OTF2_Reader_SetSerialCollectiveCallbacks(rd)) != OTF2_SUCCESS ||
        (ec = OTF2_Reader_GetNumberOfLocations(rd, &nloc)) != OTF2_SUCCESS)
        return o2_otf2_error(m, ec, "reading the anchor file");
    OTF2_GlobalDefReader *gd = OTF2_Reader_GetGlobalDefReader(rd);
    if (!gd)
        return o2_otf2_error(m, OTF2_ERROR_FILE_CAN_NOT_OPEN, "opening the global definitions");
    OTF2_GlobalDefReaderCallbacks *dc = OTF2_GlobalDefReaderCallbacks_New();
    if (!dc)
        return m->rc = mpp_err_set(m->err, MPP_ENOMEM, "out of memory importing an OTF2 archive");
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(dc, o2_clock);
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(dc, o2_group_def);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(dc, o2_comm_def);
    ec = OTF2_Reader_RegisterGlobalDefCallbacks(rd, gd, dc, m);
    OTF2_GlobalDefReaderCallbacks_Delete(dc);
    if (ec == OTF2_SUCCESS)
        ec = OTF2_Reader_ReadAllGlobalDefinitions(rd, gd, &nread);
    OTF2_Reader_CloseGlobalDefReader(rd, gd);
    if (m->rc)
        return m->rc;
    if (ec != OTF2_SUCCESS)
        return o2_otf2_error(m, ec, "reading the global definitions");
    int rc = o2_resolve(m);
    if (rc)
        return m->rc = rc;
    for (uint32_t i = 0; i < m->nranks; i++)
        if ((ec = OTF2_Reader_SelectLocation(rd, m->locs[i])) != OTF2_SUCCESS)
            return o2_otf2_error(m, ec, "selecting a location");
    if ((ec = OTF2_Reader_OpenDefFiles(rd)) != OTF2_SUCCESS ||
        (ec = OTF2_Reader_OpenEvtFiles(rd)) != OTF2_SUCCESS)
        return o2_otf2_error(m, ec, "opening the local files");
    for (uint32_t i = 0; i < m->nranks; i++) {
        OTF2_DefReader *dr = OTF2_Reader_GetDefReader(rd, m->locs[i]);
        if (dr) {
            uint64_t nd = 0;
            ec = OTF2_Reader_ReadAllLocalDefinitions(rd, dr, &nd);
            OTF2_Reader_CloseDefReader(rd, dr);
            if (ec != OTF2_SUCCESS)
                return o2_otf2_error(m, ec, "reading a location's definitions");
        }
        if (!OTF2_Reader_GetEvtReader(rd, m->locs[i]))
            return o2_otf2_error(m, OTF2_ERROR_FILE_CAN_NOT_OPEN, "opening a location's events");
    }
    OTF2_Reader_CloseDefFiles(rd);
    OTF2_GlobalEvtReader *ge = OTF2_Reader_GetGlobalEvtReader(rd);
    if (!ge)
        return o2_otf2_error(m, OTF2_ERROR_FILE_CAN_NOT_OPEN, "opening the events");
    OTF2_GlobalEvtReaderCallbacks *cb = OTF2_GlobalEvtReaderCallbacks_New();
    if (!cb) {
        OTF2_Reader_CloseGlobalEvtReader(rd, ge);
        return m->rc = mpp_err_set(m->err, MPP_ENOMEM, "out of memory importing an OTF2 archive");
    }
    OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(cb, o2_enter);
    OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(cb, o2_leave);
    OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(cb, o2_send);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCallback(cb, o2_isend);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, o2_isendc);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, o2_irecvreq);
    OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(cb, o2_recv);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvCallback(cb, o2_irecv);
    OTF2_GlobalEvtReaderCallbacks_SetMpiRequestTestCallback(cb, o2_test);
    OTF2_GlobalEvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, o2_cancel);
    OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, o2_coll);
    ec = OTF2_Reader_RegisterGlobalEvtCallbacks(rd, ge, cb, m);
    OTF2_GlobalEvtReaderCallbacks_Delete(cb);
    if (ec == OTF2_SUCCESS)
        ec = OTF2_Reader_ReadAllGlobalEvents(rd, ge, &nread);
    OTF2_Reader_CloseGlobalEvtReader(rd, ge);
    OTF2_Reader_CloseEvtFiles(rd);
    if (m->rc)
        return m->rc;
    if (ec != OTF2_SUCCESS)
        return o2_otf2_error(m, ec, "reading the events");
    return 0;
}

static uint64_t o2_ns(const o2_imp *m, uint64_t ticks)
{
    return (uint64_t)((double)ticks * 1e9 / (double)m->resolution + 0.5);
}

static int o2_build(o2_imp *m, mpp_mpitrace **out)
{
    mpp_mpitb *b = mpp_mpitb_new(m->nranks, MPP_MPITRACE_OTF2, m->err);
    if (!b)
        return m->err && m->err->code ? m->err->code : MPP_ENOMEM;
    int rc = 0;
    for (uint32_t r = 0; r < m->nranks && !rc; r++) {
        o2_rank *rk = &m->rank[r];
        mpp_mpitb_where(b, m->path, 0);
        /* every created communicator, on every rank, in definition order */
        for (uint32_t c = 0; c < m->ncomms && !rc; c++) {
            const o2_comm *k = &m->comms[c];
            if (k->gid <= 1)
                continue;
            mpp_mpi_event e;
            memset(&e, 0, sizeof e);
            e.call = MPP_MPI_COMM_CREATE;
            e.comm = 0;
            e.peer = e.peer2 = MPP_MPI_NONE;
            uint32_t id = rk->localid[c];
            if (!(rc = mpp_mpitb_add(b, r, &e, NULL, NULL, 0)))
                rc = mpp_mpitb_comm(b, r, id, id == MPP_MPI_NONE ? NULL : k->members,
                                    id == MPP_MPI_NONE ? 0 : k->n);
        }
        for (uint32_t i = 0; i < rk->nop && !rc; i++) {
            mpp_mpi_event e = rk->op[i];
            e.cpu_ns = o2_ns(m, e.cpu_ns);
            bool compl = e.call >= MPP_MPI_WAIT && e.call <= MPP_MPI_TESTSOME;
            if (e.call == MPP_MPI_UNSUPPORTED &&
                (rc = mpp_mpitb_unsupported(b, r, o2_unsup[e.name])))
                break;
            rc = mpp_mpitb_add(b, r, &e, e.n ? rk->vals + e.first : NULL,
                               compl && e.n ? rk->st + e.first : NULL, e.n);
        }
        if (!rc)
            rc = mpp_mpitb_end(b, r, o2_ns(m, rk->cpu));
    }
    if (rc) {
        mpp_mpitb_free(b);
        return rc;
    }
    return mpp_mpitb_finish(b, out);
}

static void o2_free(o2_imp *m)
{
    for (uint32_t i = 0; i < m->ngroups; i++)
        free(m->groups[i].members);
    free(m->groups);
    for (uint32_t i = 0; i < m->ncomms; i++)
        free(m->comms[i].members);
    free(m->comms);
    if (m->rank)
        for (uint32_t r = 0; r < m->nranks; r++) {
            free(m->rank[r].op);
            free(m->rank[r].vals);
            free(m->rank[r].st);
            free(m->rank[r].live);
            free(m->rank[r].localid);
        }
    free(m->rank);
}

int mpp_mpitrace_load_otf2(const char *path, mpp_mpitrace **out, mpp_err *err)
{
    *out = NULL;
    uint64_t size;
    int fd = mpp_file_open_regular(path, &size, err); /* a clear MPP_EIO first */
    if (fd < 0)
        return fd;
    close(fd);
    o2_imp m;
    memset(&m, 0, sizeof m);
    m.path = path;
    m.err = err;
    OTF2_ErrorCallback prev = OTF2_Error_RegisterCallback(o2_quiet, NULL);
    OTF2_Reader *rd = OTF2_Reader_Open(path);
    int rc;
    if (!rd)
        rc = mpp_err_set(err, MPP_EFORMAT, "%.300s: OTF2 cannot open the archive (a damaged "
                         "or unreadable anchor file)", path);
    else
        rc = o2_read(&m, rd);
    if (rd)
        OTF2_Reader_Close(rd);
    OTF2_Error_RegisterCallback(prev, NULL);
    if (!rc)
        rc = o2_build(&m, out);
    o2_free(&m);
    return rc;
}

#endif
