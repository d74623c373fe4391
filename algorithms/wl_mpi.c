/* algorithms/wl_mpi.c — the `mpi` workload: an MPI trace (traces/
 * mpitrace.h: a capture folder, a SimGrid time-independent trace or an
 * OTF2 archive) replayed RE-TIMED on the machine: every rank runs on a
 * node (placement), its computation between calls becomes processor time
 * (compute), and every message and collective is sent again through the
 * node layer, so the times are the emulated machine's, not the host's.
 * docs/capture.md ("Replay") says what is modelled and what is not.
 *
 * Data. At setup: the trace; node_rank[] / rank_node[] (the placement);
 * per rank and event: the internal tag (etag, etag2), the protocol of each
 * side (proto: the sender's choice, known to the receiver by pairing every
 * receive with its send in MPI's non-overtaking order) and the collective
 * schedule (eplan: a cached plan of a collective plug-in, or a direct
 * schedule built when the call starts). At run time one rank_st per rank:
 * the event it is in, its transfers (xfer: a send or receive of the node
 * layer, in the pool xf) still active oldest first, the eager messages
 * that arrived before their receive (unexp), how many transfers its call
 * waits for (wait_n) and a control-network operation it waits for.
 *
 * Tags (the node layer's application tags, < 2^28):
 *   bit 27 clear: point-to-point, bits 0..25 the index of (communicator,
 *                 MPI tag) in a table built at setup (refused above 2^26);
 *   bit 27 set:   a collective, bits 12..25 its instance (the k-th
 *                 collective of communicator c: (k x ncomms + c) mod 2^14),
 *                 bits 0..11 the step of its schedule;
 *   bit 26:       the message goes by rendezvous (a sync message matched
 *                 by a posted receive); clear: eagerly (mpp_node_send_eager,
 *                 matched here).
 *
 * Protocols: a message of at most node.eager_bytes (not Ssend/Issend, not
 * to itself) is eager: an am_put block that matches no posted receive; its
 * arrival (the handler with the plain tag) completes the oldest matching
 * receive of the rank, or waits in unexp until one is posted (the receive
 * then completes at once and copies the message out of the system buffer,
 * mpp_node_copy_words). A larger one is a rendezvous: the sender's
 * mpp_node_send_msg(sync) and the receiver's mpp_node_post_recv do CMMD's
 * REQ/REPLY/DATA. A message to itself completes at once on both sides.
 *
 * A rank's life (handler-driven; advance is the only place it moves on):
 *
 *   mpi_start --> advance: [compute, start event] --wait_n = 0--> next event
 *        ^             |  collective: run its schedule's ops (IRECV, ISEND,
 *        |             |  WAIT, COMPUTE) in order, WAIT blocking
 *   mpi_handler: SENT / RECVD / eager arrival --> complete the oldest
 *        transfer with (peer, tag) --> wait_n-- --> advance
 *   after the last event: its final compute, mpp_node_app_done.
 *
 * Invariants:
 *   1. xfer x is in its rank's `active` list iff it is not done;
 *   2. wait_n = the number of x with waited set and done clear;
 *   3. a rank starts its next operation only when wait_n = 0 and it waits
 *      for no control-network operation;
 *   4. an unexp entry never matches an active eager receive of its rank
 *      (an arrival first completes such a receive, a post first takes
 *      from unexp). */
#include "algorithms/wl_mpi.h"

#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/coll.h"
#include "algorithms/workloads.h"
#include "core/base/file.h"
#include "core/base/rng.h"
#include "core/base/units.h"
#include "core/base/vec.h"
#include "core/schema.h"
#include "core/sections.h"
#include "core/sim.h"
#include "core/topo.h"

#define NONE 0xffffffffu
#define TAG_COLL (1u << 27)
#define TAG_RDV (1u << 26)
#define TAG_P2P_MAX (1u << 26)
#define COLL_INST_BITS 14u
#define COLL_STEP_BITS 12u

enum { PL_IDENTITY = 0, PL_RANDOM = 1, PL_FILE = 2 };
static const char *const placement_names[] = {"identity", "random", "file", NULL};
enum { CM_SCALE = 0, CM_FIXED = 1, CM_IGNORE = 2 };
static const char *const compute_names[] = {"scale", "fixed", "ignore", NULL};
static const char *const alg_names[] = {"xor", "standard", "direct", NULL};

typedef struct mpi_cfg {
    char trace[MPP_STR_MAX];
    int placement;
    char placement_file[MPP_STR_MAX];
    int compute;
    double compute_factor;
    uint64_t compute_cycles;
    double host_mhz;
    char collectives[MPP_STR_MAX];
    int alltoall_alg;
} mpi_cfg;

static const mpp_param mpi_params[] = {
    {"trace", MPP_PT_STRING, offsetof(mpi_cfg, trace), "", 0, 0, NULL,
     "the MPI trace: a capture folder (mppnet capture), a SimGrid time-independent trace or "
     "an OTF2 archive, told apart by their contents"},
    {"placement", MPP_PT_ENUM, offsetof(mpi_cfg, placement), "identity", 0, 0,
     placement_names,
     "ranks on nodes: identity (rank r on node r), random (a permutation from the run's "
     "seed), file (placement_file)"},
    {"placement_file", MPP_PT_STRING, offsetof(mpi_cfg, placement_file), "", 0, 0, NULL,
     "placement: file: one node id per line, line r for rank r"},
    {"compute", MPP_PT_ENUM, offsetof(mpi_cfg, compute), "scale", 0, 0, compute_names,
     "the computation between calls: scale (the host's CPU time at its measured speed, one "
     "host operation = one node cycle, times compute_factor), fixed (compute_cycles per "
     "call), ignore"},
    {"compute_factor", MPP_PT_DOUBLE, offsetof(mpi_cfg, compute_factor), "1", 0, 1e9, NULL,
     "compute: scale: node CPU cycles per host operation (SimGrid: per flop)"},
    {"compute_cycles", MPP_PT_U64, offsetof(mpi_cfg, compute_cycles), "0", 0, 1e12, NULL,
     "compute: fixed: node CPU cycles before every call"},
    {"host_mhz", MPP_PT_DOUBLE, offsetof(mpi_cfg, host_mhz), "1000", 1e-3, 1e9, NULL,
     "compute: scale: the host's speed in millions of operations a second when the trace "
     "does not give it (OTF2)"},
    {"collectives", MPP_PT_NAMEMAP, offsetof(mpi_cfg, collectives), "{}", 0, 0, NULL,
     "the collective plug-in per call type, {CALL: NAME, ...} (e.g. {bcast: linear, alltoall: "
     "direct}; on the command line workload.collectives.bcast=linear); the rest keep their "
     "defaults (docs/capture.md)"},
    {"alltoall_alg", MPP_PT_ENUM, offsetof(mpi_cfg, alltoall_alg), "xor", 0, 0, alg_names,
     "the alltoall plug-in's schedule: xor, standard, direct"},
};

/* --- collective schedules ------------------------------------------------ */

enum { MOP_IRECV = 0, MOP_ISEND = 1, MOP_WAIT = 2, MOP_COMPUTE = 3 };

typedef struct mop {
    uint8_t code;
    uint8_t rdv;        /* the message goes by rendezvous */
    uint32_t peer;      /* member index */
    uint32_t step;      /* the step tag (< 2^COLL_STEP_BITS) */
    uint64_t bytes;     /* ISEND/IRECV bytes; COMPUTE cycles */
} mop;

typedef struct msched {
    mop *op;
    uint32_t n;
} msched;

/* A cached plan: a collective plug-in on a communicator with bytes, root. */
typedef struct cplan {
    const mpp_coll_ops *ops;
    uint32_t comm, root;
    uint64_t bytes;
    msched *member;     /* [g] */
    uint32_t g;
} cplan;

/* The collective call types that can be given a plug-in. */
enum {
    CT_BARRIER, CT_BCAST, CT_REDUCE, CT_ALLREDUCE, CT_GATHER, CT_SCATTER, CT_ALLGATHER,
    CT_ALLTOALL, CT_REDUCE_SCATTER_BLOCK, CT_SCAN, CT_N
};
static const char *const ct_names[CT_N] = {"barrier", "bcast", "reduce", "allreduce",
                                           "gather", "scatter", "allgather", "alltoall",
                                           "reduce_scatter_block", "scan"};
/* Defaults (docs/capture.md): the plug-in, and the one for groups that are
 * not a power of two when it needs one ("direct": every block straight to
 * its member). */
static const char *const ct_default[CT_N] = {"allreduce", "binomial", "reduce", "allreduce",
                                             "gather", "scatter", "allgather", "alltoall",
                                             "reduce_scatter", "scan"};
static const char *const ct_fallback[CT_N] = {"allreduce", "linear", "reduce", "allreduce",
                                              "direct", "direct", "direct", "direct",
                                              "reduce_scatter", "scan"};

/* --- run-time state -------------------------------------------------------- */

typedef struct xfer {
    uint32_t peer;      /* node */
    uint32_t tag;       /* node-layer tag */
    uint64_t bytes;
    uint8_t send, done, waited, eager;
} xfer;

typedef struct unexp {
    uint32_t src, tag;
    uint64_t bytes;
} unexp;

typedef struct rank_st {
    uint32_t node;
    uint32_t pc;            /* next event */
    uint32_t cur;           /* event in progress, or NONE */
    uint32_t wait_n;        /* invariant 2 */
    bool ctl_wait;          /* a control-network operation */
    bool started, finished;
    uint64_t call_start;    /* network cycle its call began */
    /* the collective schedule in progress */
    const mop *cop;
    uint32_t ncop, cpc, ctag;
    mpp_u32vec cx;          /* its transfers since its last WAIT */
    mop *own;               /* a direct schedule of this call (v-variants) */
    uint32_t nown, own_cap;
    uint32_t *own_members;  /* scratch: the communicator's nodes */
    mpp_u32vec active;      /* transfers not done, oldest first (invariant 1) */
    unexp *ux;              /* arrivals before their receive (invariant 4) */
    uint32_t nux, ux_cap;
    uint32_t *req_x;        /* [nreq] request -> transfer */
    /* statistics */
    uint64_t end, compute_cpu, comm_cycles, calls, messages, bytes;
} rank_st;

typedef struct mpi_run {
    mpi_cfg c;
    mpp_mpitrace *t;
    uint32_t N;
    uint32_t *rank_node;    /* [nranks] */
    uint32_t *node_rank;    /* [N], NONE: no rank */
    uint32_t **etag, **etag2, **eplan; /* [rank][event] */
    uint8_t **proto;        /* [rank][event]: bit 0 the send side, bit 1 the receive side
                               goes by rendezvous */
    const mpp_coll_ops *ct_ops[CT_N], *ct_fb[CT_N]; /* NULL: direct */
    cplan *plans;
    uint32_t nplans, plans_cap;
    xfer *xf;
    uint32_t nxf, xf_cap;
    rank_st *rs;
    uint64_t eager_bytes;
    bool ctl_barrier, ctl_reduce;
    double cpu_mhz, net_mhz, cycles_per_op;
    bool oom;
    mpp_mpi_rank_report *rrep;
    mpp_mpi_report rep;
    uint64_t *pair_msgs, *pair_bytes;
} mpi_run;

/* --- helpers --------------------------------------------------------------- */

/* "MPI_Sendrecv_replace" from "sendrecv_replace". */
static void mpi_name(int call, char *out, size_t size)
{
    const char *n = call >= 0 && call < MPP_MPI_NCALLS ? mpp_mpi_call_names[call] : "?";
    snprintf(out, size, "MPI_%c%s", toupper((unsigned char)n[0]), n + 1);
}

static bool is_send(int c)
{
    return c == MPP_MPI_SEND || c == MPP_MPI_SSEND || c == MPP_MPI_BSEND ||
           c == MPP_MPI_RSEND || c == MPP_MPI_ISEND || c == MPP_MPI_ISSEND ||
           c == MPP_MPI_IRSEND;
}

static bool is_coll(int c) { return c >= MPP_MPI_BARRIER && c <= MPP_MPI_EXSCAN; }

static const mpp_mpi_comm *comm_of(const mpp_mpitrace *t, uint32_t c)
{
    return c < t->ncomms ? &t->comm[c] : NULL;
}

/* Member index of world rank w in communicator c, or NONE. */
static uint32_t member_of(const mpp_mpitrace *t, uint32_t c, uint32_t w)
{
    const mpp_mpi_comm *cm = comm_of(t, c);
    for (uint32_t i = 0; cm && i < cm->size; i++)
        if (t->members[cm->first + i] == w)
            return i;
    return NONE;
}

/* --- pairing: records sorted by (src, dst, tag, order) ---------------------- */

typedef struct prec {
    uint32_t src, dst, tag;
    uint32_t rank, ev;  /* where it came from */
    uint64_t order;     /* its position among the rank's (stable order) */
} prec;

static int prec_cmp(const void *a, const void *b)
{
    const prec *x = a, *y = b;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    if (x->dst != y->dst)
        return x->dst < y->dst ? -1 : 1;
    if (x->tag != y->tag)
        return x->tag < y->tag ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

static int u64cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* --- setup ----------------------------------------------------------------- */

static void mpi_destroy(void *priv);

static int placement(mpi_run *R, const mpp_sim *s, mpp_err *err)
{
    uint32_t n = R->t->nranks, N = R->N;
    for (uint32_t i = 0; i < N; i++)
        R->node_rank[i] = NONE;
    if (R->c.placement == PL_IDENTITY) {
        for (uint32_t r = 0; r < n; r++)
            R->rank_node[r] = r;
    } else if (R->c.placement == PL_RANDOM) {
        uint32_t *perm = malloc((size_t)N * sizeof *perm);
        if (!perm)
            return mpp_err_set(err, MPP_ENOMEM, "out of memory");
        for (uint32_t i = 0; i < N; i++)
            perm[i] = i;
        mpp_rng rng;
        mpp_rng_init(&rng, mpp_sim_config_get(s)->run.seed, MPP_RNG_PLACEMENT, 43);
        mpp_rng_shuffle(&rng, perm, N);
        memcpy(R->rank_node, perm, (size_t)n * sizeof *perm);
        free(perm);
    } else {
        if (!R->c.placement_file[0])
            return mpp_err_set(err, MPP_EINVAL,
                               "key 'workload.placement_file': placement: file needs a file "
                               "(one node id per line, line r for rank r)");
        char *data = NULL;
        size_t len = 0;
        int rc = mpp_file_read(R->c.placement_file, (size_t)32 * n + 4096, &data, &len, err);
        if (rc)
            return rc;
        size_t pos = 0;
        uint32_t r = 0;
        uint64_t line = 0;
        while (pos < len) {
            size_t e = pos;
            while (e < len && data[e] != '\n')
                e++;
            line++;
            size_t a = pos, b = e;
            while (a < b && isspace((unsigned char)data[a]))
                a++;
            while (b > a && isspace((unsigned char)data[b - 1]))
                b--;
            pos = e + 1;
            if (a == b || data[a] == '#')
                continue;
            uint64_t v;
            if (!mpp_units_u64(data + a, b - a, &v) || v >= N || r >= n) {
                free(data);
                if (r >= n)
                    return mpp_err_set(err, MPP_EINVAL,
                                       "%.200s:%llu: more lines than the trace's %u ranks",
                                       R->c.placement_file, (unsigned long long)line, n);
                return mpp_err_set(err, MPP_EINVAL,
                                   "%.200s:%llu: expected a node id between 0 and %u",
                                   R->c.placement_file, (unsigned long long)line, N - 1);
            }
            R->rank_node[r++] = (uint32_t)v;
        }
        free(data);
        if (r < n)
            return mpp_err_set(err, MPP_EINVAL,
                               "%.200s: %u node ids for the trace's %u ranks (one per line)",
                               R->c.placement_file, r, n);
    }
    for (uint32_t r = 0; r < n; r++) {
        uint32_t v = R->rank_node[r];
        if (R->node_rank[v] != NONE)
            return mpp_err_set(err, MPP_EINVAL,
                               "%.200s: ranks %u and %u are both on node %u (one rank a node)",
                               R->c.placement_file, R->node_rank[v], r, v);
        R->node_rank[v] = r;
    }
    return 0;
}

/* The plug-ins per call type from the defaults and workload.collectives. */
static int choose_collectives(mpi_run *R, mpp_err *err)
{
    for (int k = 0; k < CT_N; k++) {
        R->ct_ops[k] = mpp_coll_find(ct_default[k]);
        R->ct_fb[k] = strcmp(ct_fallback[k], "direct") ? mpp_coll_find(ct_fallback[k]) : NULL;
    }
    const char *pos = R->c.collectives;
    char item[MPP_NAMEMAP_NAME_MAX + 1], name[MPP_NAMEMAP_NAME_MAX + 1];
    while (mpp_namemap_next(&pos, item, name)) {
        int k = 0;
        while (k < CT_N && strcmp(ct_names[k], item))
            k++;
        if (k == CT_N)
            return mpp_err_set(err, MPP_EINVAL,
                               "key 'workload.collectives': unknown call type '%s'; valid: "
                               "barrier, bcast, reduce, allreduce, gather, scatter, "
                               "allgather, alltoall, reduce_scatter_block, scan",
                               item);
        if (!strcmp(name, "direct") && k != CT_BCAST && k != CT_REDUCE && k != CT_ALLREDUCE &&
            k != CT_SCAN && k != CT_BARRIER && k != CT_REDUCE_SCATTER_BLOCK) {
            R->ct_ops[k] = NULL;
            R->ct_fb[k] = NULL;
            continue;
        }
        const mpp_coll_ops *o = mpp_coll_find(name);
        if (!o || (o->rooted != (k == CT_BCAST || k == CT_REDUCE || k == CT_GATHER ||
                                 k == CT_SCATTER)))
            return mpp_err_set(err, MPP_EINVAL,
                               "key 'workload.collectives.%s': '%s' cannot run %s (mppnet list "
                               "collectives%s)",
                               ct_names[k], name, ct_names[k],
                               k >= CT_GATHER && k <= CT_ALLTOALL ? "; or direct" : "");
        R->ct_ops[k] = o;
        if (o->groups == MPP_COLL_ANY)
            R->ct_fb[k] = o;
    }
    return 0;
}

static uint32_t call_type(int call)
{
    switch (call) {
    case MPP_MPI_BARRIER: return CT_BARRIER;
    case MPP_MPI_BCAST: return CT_BCAST;
    case MPP_MPI_REDUCE: return CT_REDUCE;
    case MPP_MPI_ALLREDUCE: return CT_ALLREDUCE;
    case MPP_MPI_GATHER: return CT_GATHER;
    case MPP_MPI_SCATTER: return CT_SCATTER;
    case MPP_MPI_ALLGATHER: return CT_ALLGATHER;
    case MPP_MPI_ALLTOALL: return CT_ALLTOALL;
    case MPP_MPI_REDUCE_SCATTER_BLOCK: return CT_REDUCE_SCATTER_BLOCK;
    case MPP_MPI_SCAN: case MPP_MPI_EXSCAN: return CT_SCAN;
    default: return NONE; /* the v-variants: direct */
    }
}

/* Plan ops on communicator comm (g >= 2 members) into a cached plan. */
static int make_plan(mpi_run *R, const mpp_sim *s, const mpp_coll_ops *ops, uint32_t comm,
                     uint64_t bytes, uint32_t root, uint32_t *out, mpp_err *err)
{
    for (uint32_t i = 0; i < R->nplans; i++) {
        const cplan *p = &R->plans[i];
        if (p->ops == ops && p->comm == comm && p->bytes == bytes && p->root == root) {
            *out = i;
            return 0;
        }
    }
    if (R->nplans == R->plans_cap) {
        uint32_t cap = R->plans_cap ? 2 * R->plans_cap : 8;
        cplan *np = realloc(R->plans, cap * sizeof *np);
        if (!np)
            return mpp_err_set(err, MPP_ENOMEM, "out of memory");
        R->plans = np;
        R->plans_cap = cap;
    }
    const mpp_mpitrace *t = R->t;
    const mpp_mpi_comm *cm = &t->comm[comm];
    uint32_t g = cm->size;
    const mpp_topo *topo = mpp_sim_topology(s);
    bool all_port = mpp_sim_all_port(s);
    mpp_coll_args a = {.root = root, .M = bytes ? bytes : 1, .chunk = 0, .all_port = all_port,
                       .links = all_port ? topo->node_link_base[1] - topo->node_link_base[0]
                                         : 1,
                       .alg = R->c.alltoall_alg, .cfg = NULL,
                       .seed = mpp_sim_config_get(s)->run.seed};
    uint32_t *nodes = malloc((size_t)g * sizeof *nodes);
    uint32_t *mem = malloc((size_t)R->N * sizeof *mem);
    msched *ms = calloc(g, sizeof *ms);
    if (!nodes || !mem || !ms) {
        free(nodes);
        free(mem);
        free(ms);
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    }
    for (uint32_t i = 0; i < R->N; i++)
        mem[i] = NONE;
    for (uint32_t i = 0; i < g; i++) {
        nodes[i] = R->rank_node[t->members[cm->first + i]];
        mem[nodes[i]] = i;
    }
    mpp_coll_plan pl;
    mpp_coll_group grp = {g, nodes};
    int rc = mpp_coll_plan_init(&pl, R->N, MPP_PARADIGM_AM_PUT, 0, MPP_COLL_PROGRAMS, err);
    if (rc)
        goto out;
    void *ctx = NULL;
    if ((rc = ops->prepare(&a, g, R->N, &ctx, err)) == 0) {
        a.ctx = ctx;
        rc = mpp_coll_plan_groups(&pl, ops, &a, &grp, 1, err);
        ops->release(ctx);
    }
    /* each member's op list, and every receive paired with its send */
    uint64_t nsend = 0, nrecv = 0;
    for (uint32_t i = 0; i < g && !rc; i++) {
        const mpp_program *pg = &pl.pb.prog[nodes[i]];
        ms[i].op = calloc(pg->len ? pg->len : 1, sizeof(mop));
        if (!ms[i].op) {
            rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
            break;
        }
        for (uint32_t k = 0; k < pg->len && !rc; k++) {
            const mpp_op *o = &pg->ops[k];
            mop m = {0};
            switch (o->code) {
            case MPP_OP_IRECV:
            case MPP_OP_RECV:
                m.code = MOP_IRECV;
                nrecv++;
                break;
            case MPP_OP_ISEND:
            case MPP_OP_SEND:
                m.code = MOP_ISEND;
                m.bytes = o->bytes;
                nsend++;
                break;
            case MPP_OP_WAIT:
                m.code = MOP_WAIT;
                break;
            case MPP_OP_COMPUTE:
                m.code = MOP_COMPUTE;
                m.bytes = o->bytes;
                break;
            default:
                continue; /* marks */
            }
            if (m.code == MOP_IRECV || m.code == MOP_ISEND) {
                if (o->peer >= R->N || mem[o->peer] == NONE || o->tag >= (1u << COLL_STEP_BITS)) {
                    rc = mpp_err_set(err, MPP_EINVAL,
                                     "the %s collective on %u members has more than %u steps, "
                                     "more than the replay can tell apart (choose another in "
                                     "workload.collectives)",
                                     ops->name, g, 1u << COLL_STEP_BITS);
                    break;
                }
                m.peer = mem[o->peer];
                m.step = o->tag;
            }
            ms[i].op[ms[i].n++] = m;
            if (o->code == MPP_OP_SEND) /* a blocking send: wait for it */
                ms[i].op[ms[i].n - 1].rdv = 2;
        }
    }
    if (!rc && nsend != nrecv)
        rc = mpp_err_set(err, MPP_EINVAL, "the %s plan sends %llu messages and receives %llu",
                         ops->name, (unsigned long long)nsend, (unsigned long long)nrecv);
    if (!rc && nsend) {
        prec *sr = malloc(nsend * sizeof *sr), *rr = malloc(nrecv * sizeof *rr);
        if (!sr || !rr) {
            rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
        } else {
            uint64_t a1 = 0, b1 = 0;
            for (uint32_t i = 0; i < g; i++)
                for (uint32_t k = 0; k < ms[i].n; k++) {
                    const mop *m = &ms[i].op[k];
                    if (m->code == MOP_ISEND)
                        sr[a1++] = (prec){i, m->peer, m->step, i, k, a1};
                    else if (m->code == MOP_IRECV)
                        rr[b1++] = (prec){m->peer, i, m->step, i, k, b1};
                }
            qsort(sr, nsend, sizeof *sr, prec_cmp);
            qsort(rr, nrecv, sizeof *rr, prec_cmp);
            for (uint64_t k = 0; k < nsend && !rc; k++) {
                if (sr[k].src != rr[k].src || sr[k].dst != rr[k].dst ||
                    sr[k].tag != rr[k].tag) {
                    rc = mpp_err_set(err, MPP_EINVAL, "the %s plan's messages do not pair",
                                     ops->name);
                    break;
                }
                mop *s1 = &ms[sr[k].rank].op[sr[k].ev];
                mop *r1 = &ms[rr[k].rank].op[rr[k].ev];
                bool rdv = s1->bytes > R->eager_bytes;
                r1->bytes = s1->bytes;
                r1->rdv = rdv;
                s1->rdv = (uint8_t)(rdv | (s1->rdv & 2));
            }
        }
        free(sr);
        free(rr);
    }
    if (!rc) {
        R->plans[R->nplans] = (cplan){ops, comm, root, bytes, ms, g};
        *out = R->nplans++;
        ms = NULL;
    }
out:
    mpp_coll_plan_free(&pl);
    if (ms) {
        for (uint32_t i = 0; i < g; i++)
            free(ms[i].op);
        free(ms);
    }
    free(nodes);
    free(mem);
    return rc;
}

/* Internal tags of every (communicator, MPI tag), the protocol of every
 * message and receive (pairing), and the plan of every collective. */
static int prepare_events(mpi_run *R, const mpp_sim *s, mpp_err *err)
{
    const mpp_mpitrace *t = R->t;
    uint32_t n = t->nranks;
    /* 1. the (comm, tag) table */
    uint64_t np = 0;
    for (uint32_t r = 0; r < n; r++)
        for (uint32_t e = 0; e < t->rank[r].nev; e++) {
            int c = t->rank[r].ev[e].call;
            np += (is_send(c) || c == MPP_MPI_RECV || c == MPP_MPI_IRECV)   ? 1
                  : (c == MPP_MPI_SENDRECV || c == MPP_MPI_SENDRECV_REPLACE) ? 2
                                                                              : 0;
        }
    uint64_t *keys = malloc((np ? np : 1) * sizeof *keys);
    if (!keys)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    uint64_t k = 0;
    for (uint32_t r = 0; r < n; r++)
        for (uint32_t e = 0; e < t->rank[r].nev; e++) {
            const mpp_mpi_event *ev = &t->rank[r].ev[e];
            int c = ev->call;
            if (is_send(c) || c == MPP_MPI_RECV || c == MPP_MPI_IRECV ||
                c == MPP_MPI_SENDRECV || c == MPP_MPI_SENDRECV_REPLACE)
                keys[k++] = (uint64_t)ev->comm << 32 | ev->tag;
            if (c == MPP_MPI_SENDRECV || c == MPP_MPI_SENDRECV_REPLACE)
                keys[k++] = (uint64_t)ev->comm << 32 | ev->tag2;
        }
    qsort(keys, np, sizeof *keys, u64cmp);
    uint64_t nu = 0;
    for (uint64_t i = 0; i < np; i++)
        if (!nu || keys[nu - 1] != keys[i])
            keys[nu++] = keys[i];
    if (nu > TAG_P2P_MAX) {
        free(keys);
        return mpp_err_set(err, MPP_EINVAL,
                           "the trace uses %llu (communicator, tag) pairs, more than the %u the "
                           "replay can tell apart",
                           (unsigned long long)nu, TAG_P2P_MAX);
    }
    /* 2. per event: its tags, plan, protocol; the pairing records */
    prec *sr = malloc((np ? np : 1) * sizeof *sr), *rr = malloc((np ? np : 1) * sizeof *rr);
    uint32_t *ccount = calloc(t->ncomms ? t->ncomms : 1, sizeof *ccount);
    uint64_t ns = 0, nr = 0;
    int rc = 0;
    if (!sr || !rr || !ccount)
        rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
    for (uint32_t r = 0; r < n && !rc; r++) {
        const mpp_mpi_rank *rk = &t->rank[r];
        size_t ne = rk->nev ? rk->nev : 1;
        R->etag[r] = calloc(ne, sizeof **R->etag);
        R->etag2[r] = calloc(ne, sizeof **R->etag2);
        R->eplan[r] = calloc(ne, sizeof **R->eplan);
        R->proto[r] = calloc(ne, 1);
        if (!R->etag[r] || !R->etag2[r] || !R->eplan[r] || !R->proto[r]) {
            rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
            break;
        }
        memset(ccount, 0, (t->ncomms ? t->ncomms : 1) * sizeof *ccount);
        for (uint32_t e = 0; e < rk->nev && !rc; e++) {
            const mpp_mpi_event *ev = &rk->ev[e];
            int c = ev->call;
            R->eplan[r][e] = NONE;
            R->etag[r][e] = R->etag2[r][e] = NONE;
            if (is_coll(c)) {
                uint32_t kk = ev->comm < t->ncomms ? ccount[ev->comm]++ : 0;
                R->etag[r][e] = (uint32_t)(((uint64_t)kk * t->ncomms + ev->comm) &
                                           ((1u << COLL_INST_BITS) - 1));
                uint32_t ct = call_type(c);
                const mpp_mpi_comm *cm = comm_of(t, ev->comm);
                if (ct == NONE || !cm || cm->size < 2)
                    continue;
                bool ctl = (c == MPP_MPI_BARRIER && R->ctl_barrier && ev->comm == 0) ||
                           ((c == MPP_MPI_ALLREDUCE || c == MPP_MPI_REDUCE) && R->ctl_reduce &&
                            ev->comm == 0 && ev->bytes <= 8);
                if (ctl)
                    continue;
                const mpp_coll_ops *o = R->ct_ops[ct];
                if (o && o->groups == MPP_COLL_CUBE && (cm->size & (cm->size - 1)))
                    o = R->ct_fb[ct];
                if (!o)
                    continue; /* direct */
                uint32_t root = 0;
                if (o->rooted) {
                    root = member_of(t, ev->comm, ev->peer);
                    if (root == NONE)
                        root = 0;
                }
                /* the reductions combine doubles (8-byte elements): a
                 * barrier by messages is an allreduce of one, and other
                 * sizes round up to whole elements */
                uint64_t bytes = c == MPP_MPI_BARRIER ? 8 : ev->bytes;
                if (ct == CT_BARRIER || ct == CT_REDUCE || ct == CT_ALLREDUCE || ct == CT_SCAN ||
                    ct == CT_REDUCE_SCATTER_BLOCK)
                    bytes = bytes ? (bytes + 7) / 8 * 8 : 8;
                rc = make_plan(R, s, o, ev->comm, bytes, root, &R->eplan[r][e], err);
                continue;
            }
            uint64_t key = (uint64_t)ev->comm << 32 | ev->tag;
            bool snd = is_send(c) || c == MPP_MPI_SENDRECV || c == MPP_MPI_SENDRECV_REPLACE;
            bool rcv = c == MPP_MPI_RECV || c == MPP_MPI_IRECV || c == MPP_MPI_SENDRECV ||
                       c == MPP_MPI_SENDRECV_REPLACE;
            if (!snd && !rcv)
                continue;
            uint64_t *f = bsearch(&key, keys, nu, sizeof *keys, u64cmp);
            R->etag[r][e] = (uint32_t)(f - keys);
            if (c == MPP_MPI_SENDRECV || c == MPP_MPI_SENDRECV_REPLACE) {
                uint64_t k2 = (uint64_t)ev->comm << 32 | ev->tag2;
                f = bsearch(&k2, keys, nu, sizeof *keys, u64cmp);
                R->etag2[r][e] = (uint32_t)(f - keys);
            }
            if (snd) {
                bool rdv = c == MPP_MPI_SSEND || c == MPP_MPI_ISSEND ||
                           ev->bytes > R->eager_bytes;
                if (ev->peer == r)
                    rdv = false;
                R->proto[r][e] |= rdv ? 1 : 0;
                sr[ns++] = (prec){r, ev->peer, R->etag[r][e], r, e, e};
            }
            if (rcv) {
                uint32_t src = c == MPP_MPI_SENDRECV || c == MPP_MPI_SENDRECV_REPLACE
                                   ? ev->peer2
                                   : ev->peer;
                uint32_t tg = c == MPP_MPI_SENDRECV || c == MPP_MPI_SENDRECV_REPLACE
                                  ? R->etag2[r][e]
                                  : R->etag[r][e];
                if (src == MPP_MPI_ANY || src >= n || ev->tag == MPP_MPI_ANY) {
                    if (c == MPP_MPI_IRECV)
                        R->etag[r][e] = NONE; /* never matched: never completes */
                    continue;
                }
                rr[nr++] = (prec){src, r, tg, r, e, e};
            }
        }
    }
    if (!rc) {
        qsort(sr, ns, sizeof *sr, prec_cmp);
        qsort(rr, nr, sizeof *rr, prec_cmp);
        /* the k-th receive of (src, dst, tag) matches the k-th send (MPI's
         * non-overtaking order): it learns the send's protocol */
        uint64_t i = 0, j = 0;
        while (i < ns && j < nr) {
            const prec *a = &sr[i], *b = &rr[j];
            int d = a->src != b->src ? (a->src < b->src ? -1 : 1)
                    : a->dst != b->dst ? (a->dst < b->dst ? -1 : 1)
                    : a->tag != b->tag ? (a->tag < b->tag ? -1 : 1)
                                       : 0;
            if (d < 0) {
                i++;
            } else if (d > 0) {
                j++;
            } else {
                if (R->proto[a->rank][a->ev] & 1)
                    R->proto[b->rank][b->ev] |= 2;
                i++;
                j++;
            }
        }
    }
    free(sr);
    free(rr);
    free(ccount);
    free(keys);
    return rc;
}

/* --- run time: transfers ---------------------------------------------------- */

static uint32_t new_xfer(mpi_run *R, uint32_t peer, uint32_t tag, uint64_t bytes, bool send,
                         bool eager)
{
    if (R->nxf == R->xf_cap) {
        uint32_t cap = R->xf_cap ? 2 * R->xf_cap : 256;
        xfer *p = cap > R->xf_cap ? realloc(R->xf, (size_t)cap * sizeof *p) : NULL;
        if (!p) {
            R->oom = true;
            return NONE;
        }
        R->xf = p;
        R->xf_cap = cap;
    }
    R->xf[R->nxf] = (xfer){peer, tag, bytes, send, 0, 0, eager};
    return R->nxf++;
}

/* Transfer x of rank rs is complete (invariants 1, 2). */
static void complete(mpi_run *R, rank_st *rs, uint32_t x)
{
    xfer *f = &R->xf[x];
    f->done = 1;
    for (uint32_t i = 0; i < rs->active.n; i++)
        if (rs->active.v[i] == x) {
            memmove(rs->active.v + i, rs->active.v + i + 1,
                    (rs->active.n - i - 1) * sizeof *rs->active.v);
            rs->active.n--;
            break;
        }
    if (f->waited)
        rs->wait_n--;
}

/* The call waits for transfer x (NONE: a request that never completes). */
static void wait_for(mpi_run *R, rank_st *rs, uint32_t x)
{
    if (x == NONE) {
        rs->wait_n++; /* never satisfied: the deadlock report names the call */
        return;
    }
    if (!R->xf[x].done && !R->xf[x].waited) {
        R->xf[x].waited = 1;
        rs->wait_n++;
    }
}

static void push_active(mpi_run *R, rank_st *rs, uint32_t x)
{
    if (!mpp_u32vec_push(&rs->active, x))
        R->oom = true;
}

/* A message from rs to node dst. */
static uint32_t start_send(mpi_run *R, rank_st *rs, mpp_node_ctx *ctx, uint32_t dst,
                           uint32_t tag, uint64_t bytes, bool rdv)
{
    rs->messages++;
    rs->bytes += bytes;
    if (dst == rs->node) {
        /* to itself: a copy, no network */
        uint32_t x = new_xfer(R, dst, tag, bytes, true, true);
        if (x != NONE)
            R->xf[x].done = 1;
        mpp_node_copy_words(ctx, (bytes + 3) / 4);
        rank_st *me = rs;
        for (uint32_t i = 0; i < me->active.n; i++) {
            xfer *f = &R->xf[me->active.v[i]];
            if (!f->send && f->eager && f->peer == dst && f->tag == tag) {
                complete(R, me, me->active.v[i]);
                return x;
            }
        }
        if (me->nux == me->ux_cap) {
            uint32_t cap = me->ux_cap ? 2 * me->ux_cap : 8;
            unexp *p = realloc(me->ux, cap * sizeof *p);
            if (!p) {
                R->oom = true;
                return x;
            }
            me->ux = p;
            me->ux_cap = cap;
        }
        me->ux[me->nux++] = (unexp){dst, tag, bytes};
        return x;
    }
    uint32_t tg = tag | (rdv ? TAG_RDV : 0);
    uint32_t x = new_xfer(R, dst, tg, bytes, true, !rdv);
    if (x == NONE)
        return NONE;
    int rc = rdv ? mpp_node_send_msg(ctx, dst, bytes, tg, MPP_PARADIGM_SYNC)
                 : mpp_node_send_eager(ctx, dst, bytes, tg);
    if (rc) {
        mpp_node_fail(ctx, "mpi: a message the node layer cannot send (too many packets)");
        R->xf[x].done = 1;
        return x;
    }
    push_active(R, rs, x);
    return x;
}

/* A receive at rs from node src (as matched). */
static uint32_t start_recv(mpi_run *R, rank_st *rs, mpp_node_ctx *ctx, uint32_t src,
                           uint32_t tag, bool rdv)
{
    if (src == rs->node)
        rdv = false;
    uint32_t tg = tag | (rdv ? TAG_RDV : 0);
    uint32_t x = new_xfer(R, src, tg, 0, false, !rdv);
    if (x == NONE)
        return NONE;
    if (rdv) {
        if (mpp_node_post_recv(ctx, src, tg))
            mpp_node_fail(ctx, "mpi: a receive the node layer cannot post");
        push_active(R, rs, x);
        return x;
    }
    for (uint32_t i = 0; i < rs->nux; i++)
        if (rs->ux[i].src == src && rs->ux[i].tag == tg) {
            /* it came before: copy it out of the system buffer */
            R->xf[x].done = 1;
            R->xf[x].bytes = rs->ux[i].bytes;
            mpp_node_copy_words(ctx, (rs->ux[i].bytes + 3) / 4);
            memmove(rs->ux + i, rs->ux + i + 1, (rs->nux - i - 1) * sizeof *rs->ux);
            rs->nux--;
            return x;
        }
    push_active(R, rs, x);
    return x;
}

/* --- run time: calls -------------------------------------------------------- */

static uint64_t compute_cycles(const mpi_run *R, uint64_t cpu_ns)
{
    double c;
    switch (R->c.compute) {
    case CM_FIXED: return R->c.compute_cycles;
    case CM_IGNORE: return 0;
    default: c = (double)cpu_ns * R->cycles_per_op; break;
    }
    if (!(c > 0))
        return 0;
    return c >= (double)MPP_OP_MAX_COMPUTE ? MPP_OP_MAX_COMPUTE : (uint64_t)llround(c);
}

static void charge_compute(mpi_run *R, rank_st *rs, mpp_node_ctx *ctx, uint64_t cpu_ns)
{
    uint64_t cyc = compute_cycles(R, cpu_ns);
    if (cyc) {
        mpp_node_compute(ctx, cyc);
        rs->compute_cpu += cyc;
    }
}

/* Add op to rank rs's own (direct) schedule. */
static void own_add(mpi_run *R, rank_st *rs, mop m)
{
    if (rs->nown == rs->own_cap) {
        uint32_t cap = rs->own_cap ? 2 * rs->own_cap : 16;
        mop *p = realloc(rs->own, cap * sizeof *p);
        if (!p) {
            R->oom = true;
            return;
        }
        rs->own = p;
        rs->own_cap = cap;
    }
    rs->own[rs->nown++] = m;
}

/* The direct schedule of a collective call at member `me` of g: receive
 * rb(j) from every member j, send sb(j) to every member j (not to itself,
 * not zero bytes: a zero-byte block is no message), then wait. */
static void direct_sched(mpi_run *R, rank_st *rs, const mpp_mpi_event *ev, const mpp_mpi_rank *rk,
                         uint32_t me, uint32_t g, uint32_t root)
{
    rs->nown = 0;
    const uint64_t *v = rk->counts + ev->first;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t k = 1; k < g; k++) {
            /* receives from me - k, sends to me + k: every member starts
             * with a different partner */
            uint32_t j = pass == 0 ? (me + g - k) % g : (me + k) % g;
            uint64_t b = 0;
            switch (ev->call) {
            case MPP_MPI_GATHER:
                b = (pass == 0 ? me == root : j == root) ? ev->bytes : 0;
                break;
            case MPP_MPI_SCATTER:
                b = (pass == 0 ? j == root : me == root) ? ev->bytes : 0;
                break;
            case MPP_MPI_ALLGATHER:
            case MPP_MPI_ALLTOALL:
                b = ev->bytes;
                break;
            case MPP_MPI_GATHERV:
                b = pass == 0 ? (me == root && j < ev->n ? v[j] : 0)
                              : (j == root ? ev->bytes : 0);
                break;
            case MPP_MPI_SCATTERV:
                b = pass == 0 ? (j == root ? ev->bytes : 0)
                              : (me == root && j < ev->n ? v[j] : 0);
                break;
            case MPP_MPI_ALLGATHERV:
                b = pass == 0 ? (j < ev->n ? v[j] : 0) : (me < ev->n ? v[me] : 0);
                break;
            case MPP_MPI_ALLTOALLV:
                b = ev->n == 2 * g ? (pass == 0 ? v[g + j] : v[j]) : 0;
                break;
            case MPP_MPI_REDUCE_SCATTER:
                b = pass == 0 ? (me < ev->n ? v[me] : 0) : (j < ev->n ? v[j] : 0);
                break;
            default:
                break;
            }
            if (!b)
                continue;
            own_add(R, rs, (mop){pass == 0 ? MOP_IRECV : MOP_ISEND, b > R->eager_bytes, j, 0, b});
        }
    own_add(R, rs, (mop){MOP_WAIT, 0, 0, 0, 0});
}

/* Start event e of rank r (its compute charged). */
static void start_event(mpi_run *R, uint32_t r, mpp_node_ctx *ctx, uint32_t e)
{
    rank_st *rs = &R->rs[r];
    const mpp_mpitrace *t = R->t;
    const mpp_mpi_rank *rk = &t->rank[r];
    const mpp_mpi_event *ev = &rk->ev[e];
    uint8_t pr = R->proto[r][e];
    uint32_t x;
    switch (ev->call) {
    case MPP_MPI_SEND: case MPP_MPI_SSEND: case MPP_MPI_BSEND: case MPP_MPI_RSEND:
        wait_for(R, rs, start_send(R, rs, ctx, R->rank_node[ev->peer], R->etag[r][e], ev->bytes,
                                   pr & 1));
        break;
    case MPP_MPI_ISEND: case MPP_MPI_ISSEND: case MPP_MPI_IRSEND:
        x = start_send(R, rs, ctx, R->rank_node[ev->peer], R->etag[r][e], ev->bytes, pr & 1);
        if (ev->req < rk->nreq)
            rs->req_x[ev->req] = x;
        break;
    case MPP_MPI_RECV:
        if (R->etag[r][e] == NONE || ev->peer >= t->nranks)
            wait_for(R, rs, NONE);
        else
            wait_for(R, rs, start_recv(R, rs, ctx, R->rank_node[ev->peer], R->etag[r][e],
                                       pr & 2));
        break;
    case MPP_MPI_IRECV:
        x = NONE;
        if (R->etag[r][e] != NONE && ev->peer < t->nranks)
            x = start_recv(R, rs, ctx, R->rank_node[ev->peer], R->etag[r][e], pr & 2);
        else
            mpp_node_compute(ctx, 0);
        if (ev->req < rk->nreq)
            rs->req_x[ev->req] = x;
        break;
    case MPP_MPI_SENDRECV:
    case MPP_MPI_SENDRECV_REPLACE: {
        uint32_t xr = ev->peer2 < t->nranks
                          ? start_recv(R, rs, ctx, R->rank_node[ev->peer2], R->etag2[r][e],
                                       pr & 2)
                          : NONE;
        uint64_t sb = ev->bytes;
        uint32_t xs = start_send(R, rs, ctx, R->rank_node[ev->peer], R->etag[r][e], sb, pr & 1);
        wait_for(R, rs, xr);
        wait_for(R, rs, xs);
        break;
    }
    case MPP_MPI_WAIT: case MPP_MPI_WAITALL: case MPP_MPI_WAITANY: case MPP_MPI_WAITSOME:
    case MPP_MPI_TEST: case MPP_MPI_TESTALL: case MPP_MPI_TESTANY: case MPP_MPI_TESTSOME:
        for (uint32_t i = 0; i < ev->n; i++) {
            uint32_t q = rk->reqs[ev->first + i];
            const mpp_mpi_event *m = q < rk->nreq ? &rk->ev[rk->req[q].event] : NULL;
            if (m && m->call == MPP_MPI_IRECV && m->peer == MPP_MPI_NONE)
                continue; /* a cancelled receive: never posted, nothing to wait for */
            wait_for(R, rs, q < rk->nreq ? rs->req_x[q] : NONE);
        }
        break;
    default:
        if (is_coll(ev->call)) {
            const mpp_mpi_comm *cm = comm_of(t, ev->comm);
            uint32_t g = cm ? cm->size : 1;
            if (g < 2)
                break;
            rs->ctag = TAG_COLL | R->etag[r][e] << COLL_STEP_BITS;
            bool ctl = (ev->call == MPP_MPI_BARRIER && R->ctl_barrier && ev->comm == 0) ||
                       ((ev->call == MPP_MPI_ALLREDUCE || ev->call == MPP_MPI_REDUCE) &&
                        R->ctl_reduce && ev->comm == 0 && ev->bytes <= 8);
            if (ctl) {
                if (mpp_node_reduce(ctx, 0, ev->call == MPP_MPI_BARRIER ? MPP_REDUCE_BARRIER
                                                                        : MPP_REDUCE_SUM))
                    mpp_node_fail(ctx, "mpi: the control network refused a reduction");
                else
                    rs->ctl_wait = true;
                break;
            }
            uint32_t me = member_of(t, ev->comm, r);
            if (R->eplan[r][e] != NONE) {
                const cplan *p = &R->plans[R->eplan[r][e]];
                rs->cop = p->member[me].op;
                rs->ncop = p->member[me].n;
            } else {
                uint32_t root = member_of(t, ev->comm, ev->peer);
                direct_sched(R, rs, ev, rk, me, g, root == NONE ? 0 : root);
                rs->cop = rs->own;
                rs->ncop = rs->nown;
            }
            rs->cpc = 0;
            rs->cx.n = 0;
        }
        break; /* probes, request_free, communicators: nothing beyond their compute */
    }
}

/* Run rank r's collective schedule until it must wait; true when done. */
static bool run_sched(mpi_run *R, uint32_t r, mpp_node_ctx *ctx)
{
    rank_st *rs = &R->rs[r];
    const mpp_mpi_event *ev = &R->t->rank[r].ev[rs->cur];
    const mpp_mpi_comm *cm = comm_of(R->t, ev->comm);
    while (rs->cpc < rs->ncop) {
        if (rs->wait_n)
            return false;
        const mop *m = &rs->cop[rs->cpc++];
        uint32_t node = m->code == MOP_IRECV || m->code == MOP_ISEND
                            ? R->rank_node[R->t->members[cm->first + m->peer]]
                            : 0;
        uint32_t x;
        switch (m->code) {
        case MOP_IRECV:
            x = start_recv(R, rs, ctx, node, rs->ctag | m->step, m->rdv & 1);
            if (x != NONE && !mpp_u32vec_push(&rs->cx, x))
                R->oom = true;
            break;
        case MOP_ISEND:
            x = start_send(R, rs, ctx, node, rs->ctag | m->step, m->bytes, m->rdv & 1);
            if (m->rdv & 2)
                wait_for(R, rs, x);
            else if (x != NONE && !mpp_u32vec_push(&rs->cx, x))
                R->oom = true;
            break;
        case MOP_WAIT:
            for (uint32_t i = 0; i < rs->cx.n; i++)
                wait_for(R, rs, rs->cx.v[i]);
            rs->cx.n = 0;
            break;
        default:
            mpp_node_compute(ctx, m->bytes);
            break;
        }
    }
    if (rs->cx.n) { /* the schedule's end waits for what it started */
        for (uint32_t i = 0; i < rs->cx.n; i++)
            wait_for(R, rs, rs->cx.v[i]);
        rs->cx.n = 0;
    }
    rs->cop = NULL;
    rs->ncop = 0;
    return rs->wait_n == 0;
}

/* Rank r goes on as far as it can (invariant 3). */
static void advance(mpi_run *R, uint32_t r, mpp_node_ctx *ctx)
{
    rank_st *rs = &R->rs[r];
    const mpp_mpi_rank *rk = &R->t->rank[r];
    for (;;) {
        if (rs->finished || rs->wait_n || rs->ctl_wait)
            return;
        if (rs->cur != NONE && rs->cop && !run_sched(R, r, ctx))
            return;
        if (rs->cur != NONE) {
            uint64_t now = mpp_node_now(ctx);
            uint64_t d = now > rs->call_start ? now - rs->call_start : 0;
            rs->comm_cycles += d;
            R->rep.call[rk->ev[rs->cur].call].total_us += d; /* cycles; converted at finish */
            rs->cur = NONE;
        }
        if (rs->pc == rk->nev) {
            charge_compute(R, rs, ctx, rk->end_cpu_ns);
            rs->finished = true;
            rs->end = mpp_node_now(ctx);
            mpp_node_app_done(ctx);
            return;
        }
        uint32_t e = rs->pc++;
        charge_compute(R, rs, ctx, rk->ev[e].cpu_ns);
        rs->cur = e;
        rs->calls++;
        R->rep.call[rk->ev[e].call].count++;
        rs->call_start = mpp_node_now(ctx);
        start_event(R, r, ctx, e);
    }
}

static void mpi_start(void *ud, mpp_node_ctx *ctx, uint32_t node)
{
    mpi_run *R = ud;
    uint32_t r = node < R->N ? R->node_rank[node] : NONE;
    if (r == NONE) {
        mpp_node_app_done(ctx);
        return;
    }
    R->rs[r].started = true;
    advance(R, r, ctx);
}

/* The oldest active transfer of rs with (peer, tag) and direction. */
static uint32_t oldest(const mpi_run *R, const rank_st *rs, uint32_t peer, uint32_t tag,
                       bool send)
{
    for (uint32_t i = 0; i < rs->active.n; i++) {
        const xfer *f = &R->xf[rs->active.v[i]];
        if (f->send == send && f->peer == peer && f->tag == tag)
            return rs->active.v[i];
    }
    return NONE;
}

static void mpi_handler(void *ud, mpp_node_ctx *ctx, uint32_t node, uint32_t src, uint32_t tag,
                        uint64_t bytes)
{
    mpi_run *R = ud;
    uint32_t r = node < R->N ? R->node_rank[node] : NONE;
    if (r == NONE)
        return;
    rank_st *rs = &R->rs[r];
    if (tag & MPP_APP_REDUCED) {
        rs->ctl_wait = false;
    } else if (tag & (MPP_APP_SENT | MPP_APP_RECVD)) {
        bool send = tag & MPP_APP_SENT;
        uint32_t x = oldest(R, rs, src, tag & MPP_APP_TAG_MAX, send);
        if (x == NONE) {
            mpp_node_fail(ctx, "mpi: a completion that matches no transfer of the rank");
            return;
        }
        if (!send)
            R->xf[x].bytes = bytes;
        complete(R, rs, x);
    } else if (!(tag & MPP_APP_CONTINUE)) {
        /* an eager message arrived: its receive, or the system buffer */
        uint32_t x = oldest(R, rs, src, tag, false);
        if (x != NONE && R->xf[x].eager) {
            R->xf[x].bytes = bytes;
            complete(R, rs, x);
        } else {
            if (rs->nux == rs->ux_cap) {
                uint32_t cap = rs->ux_cap ? 2 * rs->ux_cap : 8;
                unexp *p = realloc(rs->ux, cap * sizeof *p);
                if (!p) {
                    R->oom = true;
                    mpp_node_fail(ctx, "mpi: out of memory");
                    return;
                }
                rs->ux = p;
                rs->ux_cap = cap;
            }
            rs->ux[rs->nux++] = (unexp){src, tag, bytes};
            return;
        }
    }
    if (R->oom) {
        mpp_node_fail(ctx, "mpi: out of memory");
        return;
    }
    advance(R, r, ctx);
}

/* --- the program's own traffic ------------------------------------------------ */

static void pair_add(mpi_run *R, uint32_t a, uint32_t b, uint64_t bytes, bool zero_counts)
{
    uint32_t n = R->t->nranks;
    if (!R->pair_msgs || a == b || a >= n || b >= n || (!bytes && !zero_counts))
        return;
    R->pair_msgs[(size_t)a * n + b]++;
    R->pair_bytes[(size_t)a * n + b] += bytes;
}

static void count_pairs(mpi_run *R)
{
    const mpp_mpitrace *t = R->t;
    for (uint32_t r = 0; r < t->nranks; r++) {
        const mpp_mpi_rank *rk = &t->rank[r];
        for (uint32_t e = 0; e < rk->nev; e++) {
            const mpp_mpi_event *ev = &rk->ev[e];
            const mpp_mpi_comm *cm = comm_of(t, ev->comm);
            const uint64_t *v = rk->counts + ev->first;
            uint32_t g = cm ? cm->size : 0;
            const uint32_t *mem = cm ? t->members + cm->first : NULL;
            if (is_send(ev->call) || ev->call == MPP_MPI_SENDRECV ||
                ev->call == MPP_MPI_SENDRECV_REPLACE) {
                pair_add(R, r, ev->peer, ev->bytes, true);
                continue;
            }
            switch (ev->call) {
            case MPP_MPI_ALLTOALL:
            case MPP_MPI_ALLGATHER:
                for (uint32_t j = 0; j < g; j++)
                    pair_add(R, r, mem[j], ev->bytes, false);
                break;
            case MPP_MPI_ALLTOALLV:
                for (uint32_t j = 0; j < g && ev->n == 2 * g; j++)
                    pair_add(R, r, mem[j], v[j], false);
                break;
            case MPP_MPI_ALLGATHERV: {
                uint32_t me = member_of(t, ev->comm, r);
                for (uint32_t j = 0; j < g && me < ev->n; j++)
                    pair_add(R, r, mem[j], v[me], false);
                break;
            }
            case MPP_MPI_SCATTER:
                if (ev->peer == r)
                    for (uint32_t j = 0; j < g; j++)
                        pair_add(R, r, mem[j], ev->bytes, false);
                break;
            case MPP_MPI_SCATTERV:
                if (ev->peer == r)
                    for (uint32_t j = 0; j < g && j < ev->n; j++)
                        pair_add(R, r, mem[j], v[j], false);
                break;
            case MPP_MPI_GATHER:
            case MPP_MPI_GATHERV:
                pair_add(R, r, ev->peer, ev->bytes, false);
                break;
            default:
                break;
            }
        }
    }
}

/* --- the ops ------------------------------------------------------------------ */

static int mpi_check(const mpi_run *R, mpp_err *err)
{
    const mpp_mpitrace *t = R->t;
    if (t->nranks > R->N)
        return mpp_err_set(err, MPP_EINVAL,
                           "the trace has %u ranks, the machine %u nodes (a rank runs on a "
                           "node of its own: a larger machine, or a trace of fewer ranks)",
                           t->nranks, R->N);
    uint32_t r, i;
    if (mpp_mpitrace_find_unsupported(t, &r, &i) == 0) {
        const mpp_mpi_event *ev = &t->rank[r].ev[i];
        const char *name = ev->name < t->names_len ? t->names + ev->name : "?";
        const char *why = "it is not modelled";
        if (strstr(name, "Put") || strstr(name, "Get") || strstr(name, "Accumulate") ||
            strstr(name, "Win_"))
            why = "one-sided communication is not modelled";
        else if (strstr(name, "File_"))
            why = "MPI-IO is not modelled";
        else if (strstr(name, "_init") || strstr(name, "Start"))
            why = "persistent requests are not modelled";
        else if (strstr(name, "Intercomm"))
            why = "intercommunicators are not modelled";
        return mpp_err_set(err, MPP_EINVAL, "rank %u, call %u: %.80s cannot be replayed: %s", r,
                           i, name, why);
    }
    return 0;
}

static int mpi_setup_run(mpi_run *R, mpp_sim *s, mpp_err *err)
{
    const mpp_sim_config *sc = mpp_sim_config_get(s);
    const mpp_mpitrace *t = R->t;
    int rc = mpi_check(R, err);
    if (rc)
        return rc;
    uint32_t n = t->nranks;
    R->eager_bytes = sc->node.eager_bytes;
    R->cpu_mhz = sc->node.cpu_mhz;
    R->net_mhz = sc->net.net_mhz;
    R->ctl_barrier = sc->net.nic != MPP_NIC_DMA && sc->node.barrier_cycles > 0;
    R->ctl_reduce = sc->net.nic != MPP_NIC_DMA && sc->node.reduce_cycles > 0;
    if (t->source == MPP_MPITRACE_SIMGRID)
        R->cycles_per_op = R->c.compute_factor; /* cpu_ns holds flops */
    else
        R->cycles_per_op = 1e-9 * (t->host_ops_per_s > 0 ? t->host_ops_per_s
                                                          : R->c.host_mhz * 1e6) *
                           R->c.compute_factor;
    R->rank_node = calloc(n, sizeof *R->rank_node);
    R->node_rank = calloc(R->N, sizeof *R->node_rank);
    R->etag = calloc(n, sizeof *R->etag);
    R->etag2 = calloc(n, sizeof *R->etag2);
    R->eplan = calloc(n, sizeof *R->eplan);
    R->proto = calloc(n, sizeof *R->proto);
    R->rs = calloc(n, sizeof *R->rs);
    R->rrep = calloc(n, sizeof *R->rrep);
    if (!R->rank_node || !R->node_rank || !R->etag || !R->etag2 || !R->eplan || !R->proto ||
        !R->rs || !R->rrep)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    if (n <= MPP_MPI_REPORT_MAX_PAIRS_RANKS) {
        R->pair_msgs = calloc((size_t)n * n, sizeof *R->pair_msgs);
        R->pair_bytes = calloc((size_t)n * n, sizeof *R->pair_bytes);
        if (!R->pair_msgs || !R->pair_bytes)
            return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    }
    if ((rc = placement(R, s, err)) || (rc = choose_collectives(R, err)) ||
        (rc = prepare_events(R, s, err)))
        return rc;
    for (uint32_t r = 0; r < n; r++) {
        R->rs[r].node = R->rank_node[r];
        R->rs[r].cur = NONE;
        uint32_t nq = t->rank[r].nreq;
        R->rs[r].req_x = malloc((nq ? nq : 1) * sizeof *R->rs[r].req_x);
        if (!R->rs[r].req_x)
            return mpp_err_set(err, MPP_ENOMEM, "out of memory");
        for (uint32_t q = 0; q < nq; q++)
            R->rs[r].req_x[q] = NONE;
    }
    count_pairs(R);
    mpp_progbuild pb;
    if ((rc = mpp_progbuild_init(&pb, R->N, err)))
        return rc;
    for (uint32_t r = 0; r < n && !rc; r++)
        rc = mpp_progbuild_add(&pb, R->rank_node[r], (mpp_op){.code = MPP_OP_APP}, err);
    mpp_sim_handlers(s, mpi_handler, mpi_start, R);
    if (!rc)
        rc = mpp_sim_programs(s, pb.prog, err);
    mpp_progbuild_free(&pb);
    return rc;
}

int mpp_mpi_replay_setup(mpp_sim *s, const void *cfgp, mpp_mpitrace *t, void **priv,
                         mpp_err *err)
{
    mpi_run *R = calloc(1, sizeof *R);
    if (!R) {
        mpp_mpitrace_free(t);
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    }
    R->c = *(const mpi_cfg *)cfgp;
    R->t = t;
    R->N = mpp_sim_topology(s)->nodes;
    int rc = mpi_setup_run(R, s, err);
    if (rc) {
        mpi_destroy(R);
        return rc;
    }
    *priv = R;
    return 0;
}

static int mpi_setup(mpp_sim *s, const void *cfgp, void **priv, mpp_err *err)
{
    const mpi_cfg *c = cfgp;
    if (!c->trace[0])
        return mpp_err_set(err, MPP_EINVAL,
                           "key 'workload.trace': the mpi workload needs a trace (a capture "
                           "folder, a SimGrid trace or an OTF2 archive)");
    mpp_mpitrace *t = NULL;
    int rc = mpp_mpitrace_load(c->trace, &t, err);
    if (rc)
        return rc;
    return mpp_mpi_replay_setup(s, cfgp, t, priv, err);
}

static void mpi_destroy(void *priv)
{
    mpi_run *R = priv;
    if (!R)
        return;
    uint32_t n = R->t ? R->t->nranks : 0;
    for (uint32_t r = 0; r < n; r++) {
        if (R->etag)
            free(R->etag[r]);
        if (R->etag2)
            free(R->etag2[r]);
        if (R->eplan)
            free(R->eplan[r]);
        if (R->proto)
            free(R->proto[r]);
        if (R->rs) {
            free(R->rs[r].cx.v);
            free(R->rs[r].own);
            free(R->rs[r].active.v);
            free(R->rs[r].ux);
            free(R->rs[r].req_x);
        }
    }
    for (uint32_t i = 0; i < R->nplans; i++) {
        for (uint32_t m = 0; m < R->plans[i].g; m++)
            free(R->plans[i].member[m].op);
        free(R->plans[i].member);
    }
    free(R->plans);
    free(R->etag);
    free(R->etag2);
    free(R->eplan);
    free(R->proto);
    free(R->rs);
    free(R->rrep);
    free(R->rank_node);
    free(R->node_rank);
    free(R->xf);
    free(R->pair_msgs);
    free(R->pair_bytes);
    mpp_mpitrace_free(R->t);
    free(R);
}

static double us(double cycles, double mhz) { return mhz > 0 ? cycles / mhz : NAN; }

static void mpi_finish(void *priv, const mpp_sim *s, mpp_sim_result *r)
{
    mpi_run *R = priv;
    uint32_t n = R->t->nranks;
    double end = 0, comp = 0, comm = 0;
    uint64_t msgs = 0, bytes = 0, colls = 0;
    for (uint32_t k = 0; k < n; k++) {
        const rank_st *rs = &R->rs[k];
        mpp_mpi_rank_report *o = &R->rrep[k];
        o->rank = k;
        o->node = rs->node;
        o->end_us = us((double)rs->end, R->net_mhz);
        o->compute_us = R->cpu_mhz > 0 ? (double)rs->compute_cpu / R->cpu_mhz : NAN;
        o->comm_us = us((double)rs->comm_cycles, R->net_mhz);
        o->calls = rs->calls;
        o->messages = rs->messages;
        o->bytes = rs->bytes;
        if ((double)rs->end > end)
            end = (double)rs->end;
        comp += o->compute_us;
        comm += o->comm_us;
        msgs += rs->messages;
        bytes += rs->bytes;
    }
    for (int c = 0; c < MPP_MPI_NCALLS; c++) {
        R->rep.call[c].total_us = us(R->rep.call[c].total_us, R->net_mhz);
        if (is_coll(c))
            colls += R->rep.call[c].count;
    }
    R->rep.nranks = n;
    R->rep.rank = R->rrep;
    R->rep.time_us = us(end, R->net_mhz);
    R->rep.messages = msgs;
    R->rep.bytes = bytes;
    R->rep.collectives = colls;
    R->rep.cycles_per_message = r->message_latency_mean;
    R->rep.pair_msgs = R->pair_msgs;
    R->rep.pair_bytes = R->pair_bytes;
    (void)s;
    r->extra[0].d = R->rep.time_us;
    r->extra[1].d = n ? comp / n : 0;
    r->extra[2].d = n ? comm / n : 0;
    r->extra[3].u = msgs;
    r->extra[4].u = bytes;
    r->extra[5].u = colls;
    r->extra[6].u = n;
}

/* The deadlock report: what every rank that has not finished waits in. */
static void mpi_report(const void *priv, mpp_sb *sb, uint32_t max_lines)
{
    const mpi_run *R = priv;
    const mpp_mpitrace *t = R->t;
    uint32_t lines = 0, more = 0;
    for (uint32_t r = 0; r < t->nranks; r++) {
        const rank_st *rs = &R->rs[r];
        if (rs->finished)
            continue;
        if (lines == max_lines) {
            more++;
            continue;
        }
        lines++;
        if (rs->cur == NONE) {
            mpp_sb_printf(sb, "  rank %u has not started\n", r);
            continue;
        }
        const mpp_mpi_event *ev = &t->rank[r].ev[rs->cur];
        char name[48];
        mpi_name(ev->call, name, sizeof name);
        mpp_sb_printf(sb, "  rank %u waits in %s (call %u)", r, name, rs->cur);
        switch (ev->call) {
        case MPP_MPI_RECV:
            mpp_sb_printf(sb, " from rank %u, tag %u", ev->peer, ev->tag);
            break;
        case MPP_MPI_SEND: case MPP_MPI_SSEND: case MPP_MPI_BSEND: case MPP_MPI_RSEND:
            mpp_sb_printf(sb, " to rank %u, tag %u", ev->peer, ev->tag);
            break;
        case MPP_MPI_SENDRECV: case MPP_MPI_SENDRECV_REPLACE:
            mpp_sb_printf(sb, " to rank %u, tag %u, from rank %u, tag %u", ev->peer, ev->tag,
                          ev->peer2, ev->tag2);
            break;
        default:
            if (ev->call >= MPP_MPI_WAIT && ev->call <= MPP_MPI_TESTSOME) {
                const mpp_mpi_rank *rk = &t->rank[r];
                for (uint32_t i = 0; i < ev->n; i++) {
                    uint32_t q = rk->reqs[ev->first + i];
                    uint32_t x = q < rk->nreq ? rs->req_x[q] : NONE;
                    if (x != NONE && R->xf[x].done)
                        continue;
                    const mpp_mpi_event *m = q < rk->nreq ? &rk->ev[rk->req[q].event] : NULL;
                    if (m && m->call == MPP_MPI_IRECV)
                        mpp_sb_printf(sb, " for MPI_Irecv (call %u) from rank %u, tag %u",
                                      rk->req[q].event, m->peer, m->tag);
                    else if (m)
                        mpp_sb_printf(sb, " for MPI_Isend (call %u) to rank %u, tag %u",
                                      rk->req[q].event, m->peer, m->tag);
                    break;
                }
            } else if (is_coll(ev->call)) {
                mpp_sb_printf(sb, " on communicator %u (%u ranks)", ev->comm,
                              comm_of(t, ev->comm) ? comm_of(t, ev->comm)->size : 0);
            }
            break;
        }
        mpp_sb_printf(sb, " (node %u)\n", rs->node);
    }
    if (more)
        mpp_sb_printf(sb, "  ... and %u more ranks\n", more);
}

const mpp_mpi_report *mpp_mpi_report_get(const mpp_sim *s)
{
    /* the mpi workload, or a copy of its table (the tests') */
    const mpp_workload_ops *w = mpp_sim_config_get(s)->workload.ops;
    if (!w || w->finish != mpi_finish)
        return NULL;
    const mpi_run *R = mpp_sim_workload_priv(s);
    return R ? &R->rep : NULL;
}

static const mpp_result_column mpi_columns[] = {
    {"time_us", MPP_F_DOUBLE, "the program's predicted time, us: the last rank's end"},
    {"compute_us", MPP_F_DOUBLE, "computation between calls, us, mean per rank"},
    {"comm_us", MPP_F_DOUBLE, "time inside MPI calls, us, mean per rank"},
    {"mpi_messages", MPP_F_U64, "messages the replay sent (point-to-point and collective)"},
    {"mpi_bytes", MPP_F_U64, "bytes of those messages"},
    {"collectives", MPP_F_U64, "collective calls, over every rank"},
    {"ranks", MPP_F_U64, "the trace's ranks"},
};

static const mpp_summary_col mpi_summary[] = {
    {"ranks", "ranks", 5, 0},
    {"time_us", "time_us", 12, 2},
    {"compute_us", "compute_us", 12, 2},
    {"comm_us", "comm_us", 12, 2},
    {"mpi_messages", "messages", 9, 0},
    {"collectives", "colls", 6, 0},
};

const mpp_workload_ops mpp_workload_mpi = {
    .name = "mpi",
    .help = "an MPI trace (capture, SimGrid or OTF2) replayed re-timed on the machine: ranks "
            "on nodes, compute scaled, messages and collectives sent again (docs/capture.md)",
    .schema = {mpi_params, MPP_COUNTOF(mpi_params), sizeof(mpi_cfg)},
    .flags = MPP_WL_NODES,
    .setup = mpi_setup,
    .finish = mpi_finish,
    .destroy = mpi_destroy,
    .report = mpi_report,
    .columns = mpi_columns,
    .ncolumns = MPP_COUNTOF(mpi_columns),
    .summary = mpi_summary,
    .nsummary = MPP_COUNTOF(mpi_summary),
};
