/* algorithms/wl_app.c — the `app` workload: the irregular applications of
 * Bae and Ranka (1994) in parallel on the emulated machine (apps.h;
 * docs/apps.md): the Wolff cluster algorithm and the wavefront expansion of
 * Lee's maze routing, the lattice cut into column stripes of width w dealt
 * cyclically to the P processors (every node of the machine), each
 * processor's work driven by C callbacks on the node-processor API.
 *
 * One run measures `sweeps` Wolff sweeps (after `therm` thermalisation
 * sweeps run sequentially outside emulated time) or `instances` Lee
 * expansions, one after the other; the first starts at cycle 0, each next
 * at the release of the reduction that ended the one before.
 *
 * The schemes (Figs. 20-27 of the paper; docs/apps.md):
 *
 * am_nc_o (AM-NC-O: overlapped, not coalesced, CMAML active messages): a
 * processor expands its wavefront one site at a time and polls after each
 * (node.poll_call_cycles, mpp_node_yield); a neighbour site on another
 * processor's stripe goes to it in an active message of two sites (four
 * argument words: row, column | spin bit | side of the parent, twice). At
 * the end of expansion cycle k it sends each neighbour processor the count
 * of its site messages (DONE), and waits until it has every message its
 * neighbours announced; then
 *   local sync:  it tells each neighbour so (SYNC) and goes on to cycle
 *                k + 1 once every neighbour has told it the same;
 *   global sync: a barrier of all processors.
 * Sites received for cycle k + 1 are kept until the cycle starts (two
 * cycles can be in flight: three buffers, by k mod 3), then tested: Lee's
 * labels stay exact distances.
 * st_nc_o (ST-NC-O): the same with Strata's sends (mpp_node_send_strata:
 * node.strata_send_cycles), each of which polls for one waiting packet
 * (mpp_node_poll): no poll after a site that sent nothing.
 *
 * The coalesced schemes put the remote sites of a cycle into one buffer
 * per neighbour processor and direction (leftward: the site is left of its
 * parent; rightward), two words a site, and expand the wavefront without
 * polling. The sites travel in host memory beside the message that models
 * them (mail): the receiver uses them only once that message is read.
 * ssr_c_no (SSR-C-NO, Fig. 21): CMMD's simultaneous send-and-receive, one
 *   call a direction: post the receives of the sites coming the other
 *   way, then blocking sync sends (node.sendrecv_cycles a call that both
 *   sends and receives); an empty buffer is an empty message. The two
 *   calls synchronise neighbours every cycle; the received sites are
 *   tested after both.
 * amp_c_no (AMP-C-NO, Fig. 22): a barrier, an active message with the
 *   buffer's size to each, a barrier, then a block transfer (am_put) of
 *   every non-empty buffer; the received sites are tested once every
 *   announced transfer is in.
 * asr_c_o (ASR-C-O, Fig. 24): at the start of cycle k the buffers of cycle
 *   k - 1 go out as buffering async sends (their words copied,
 *   node.mem_word_cycles each) and the receives of cycle k are posted; the
 *   wavefront is expanded site by site (the async layer's interrupts come
 *   in between); then the processor waits for its neighbours' cycle-k
 *   messages and expands the received sites at once (they are of cycle k,
 *   overlapped by one cycle). A Lee cell already labelled one more (reached
 *   locally in cycle k) is corrected and expanded, and skipped when its
 *   wavefront comes.
 *
 * Every delta cycles the processors reduce "is every wavefront empty (or
 * Lee's destination reached)?" over the control network (mpp_node_reduce,
 * MAX); at global sync that reduction is the cycle's barrier.
 *
 * Costs, CPU cycles of the node's compute model (node.app_*_cycles): a
 * site expanded costs app_site + app_queue (its pop) + 4 app_test (its
 * neighbours); a local neighbour Wolff tests costs app_random, one that
 * joins app_queue (its push); a remote site applied by its owner costs
 * app_test, app_random (Wolff, eligible) and app_queue when it joins. The
 * messages cost what the node layer charges an active message (a packet
 * written; read with poll, recv and handler cycles).
 *
 * Exactness: a Wolff bond is a function of (seed, sweep, bond), so the
 * parallel cluster is the sequential one; the workload runs the sequential
 * algorithm beside it (same seed) and reports both lattices' hash
 * and whether they agree (`exact`), and the sequential time on one node
 * (`seq_ms`).
 *
 * Invariants: a processor is in at most one cycle's expansion; counts of
 * site messages received for a parity never exceed what was announced;
 * every processor enters the same reductions in the same order. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/apps.h"
#include "algorithms/workloads.h"
#include "core/base/vec.h"
#include "core/schema.h"
#include "core/sim.h"

enum { APP_WOLFF = 0, APP_LEE = 1 };
static const char *const app_names[] = {"wolff", "lee", NULL};
enum { SCH_AM_NC_O = 0, SCH_ST_NC_O = 1, SCH_SSR_C_NO = 2, SCH_AMP_C_NO = 3, SCH_ASR_C_O = 4 };
static const char *const scheme_names[] = {"am_nc_o", "st_nc_o", "ssr_c_no", "amp_c_no",
                                           "asr_c_o", NULL};
enum { SYNC_AUTO = 0, SYNC_LOCAL = 1, SYNC_GLOBAL = 2 };
static const char *const sync_names[] = {"auto", "local", "global", NULL};

typedef struct app_cfg {
    int app;
    uint32_t N, w;
    int scheme, sync;
    uint32_t delta;      /* 0: the definition's */
    uint32_t therm, sweeps, instances;
    double fraction;
} app_cfg;

static const mpp_param app_params[] = {
    {"app", MPP_PT_ENUM, offsetof(app_cfg, app), "wolff", 0, 0, app_names,
     "the application: wolff (cluster algorithm) or lee (maze routing's expansion)"},
    {"N", MPP_PT_U32, offsetof(app_cfg, N), "64", 4, MPP_APP_MAX_N, NULL,
     "the lattice (grid) side"},
    {"w", MPP_PT_U32, offsetof(app_cfg, w), "1", 1, MPP_APP_MAX_N, NULL,
     "the stripe width: columns per stripe, stripes dealt cyclically to the processors"},
    {"scheme", MPP_PT_ENUM, offsetof(app_cfg, scheme), "am_nc_o", 0, 0, scheme_names,
     "the message-passing scheme (Bae and Ranka 1994): am_nc_o (CMAML active messages, not "
     "coalesced, overlapped), st_nc_o (the same with Strata), ssr_c_no (coalesced, CMMD "
     "synchronous send-and-receive), amp_c_no (coalesced, active-message PUT between "
     "barriers), asr_c_o (coalesced, asynchronous send/receive overlapped by a cycle)"},
    {"sync", MPP_PT_ENUM, offsetof(app_cfg, sync), "auto", 0, 0, sync_names,
     "am_nc_o and st_nc_o: synchronisation at the end of an expansion cycle: local (with the "
     "neighbour processors) or global (a barrier); auto: local for wolff, global for lee, as "
     "published (the coalesced schemes synchronise as they communicate: auto only)"},
    {"delta", MPP_PT_U32, offsetof(app_cfg, delta), "0", 0, 1e9, NULL,
     "expansion cycles between the reductions that look for the end; 0: 0.1 x N/2 (wolff) "
     "or 0.2 M (lee), at least 1"},
    {"therm", MPP_PT_U32, offsetof(app_cfg, therm), "100", 0, 1e6, NULL,
     "wolff: thermalisation sweeps, sequential, outside emulated time"},
    {"sweeps", MPP_PT_U32, offsetof(app_cfg, sweeps), "10", 1, 1e6, NULL,
     "wolff: sweeps measured on the machine"},
    {"instances", MPP_PT_U32, offsetof(app_cfg, instances), "1", 1, 1e6, NULL,
     "lee: instances (grids of the seed) expanded on the machine"},
    {"fraction", MPP_PT_DOUBLE, offsetof(app_cfg, fraction), "0.25", 0, MPP_LEE_MAX_FRACTION,
     NULL, "lee: the blocked fraction of the grid"},
};

/* Tags of the application's messages: kind | parity << 3 (the sender's
 * cycle mod 2) | direction << 4 (coalesced: 0 leftward, 1 rightward). */
enum { T_SITES = 0, T_DONE = 1, T_SYNC = 2, T_SIZE = 3, T_DATA = 4 };
#define TAG(kind, cycle, dir)                                                                      \
    ((uint32_t)(kind) | ((uint32_t)(cycle) & 1u) << 3 | (uint32_t)(dir) << 4)

/* Processor states. */
enum {
    S_EXPAND = 0, /* expanding its wavefront */
    S_SYNC = 1,   /* NC-O: waiting for its neighbours' messages and syncs */
    S_REDUCE = 2, /* in a reduction or barrier that ends a cycle */
    S_DONE = 3,
    S_CALL = 4,   /* SSR: in a send-and-receive call (q->call: its direction) */
    S_BAR1 = 5,   /* AMP: in the barrier before the sizes */
    S_SIZES = 6,  /* AMP: waiting for the sizes */
    S_BAR2 = 7,   /* AMP: in the barrier before the transfers */
    S_PUTS = 8,   /* AMP: waiting for the transfers */
    S_RECV = 9,   /* ASR: waiting for the cycle's messages */
    S_NEXT = 10   /* alone (no neighbour processor): the next cycle from a continuation */
};

/* Most neighbour processors a processor can have: the owners of the
 * columns beside its stripes (left, right, and across the wrap). */
#define MAX_NBR 4
#define NONE_X UINT32_MAX

/* Directions of a coalesced buffer: the sites left of their parents go
 * leftward, to the owner of the column left of a stripe. */
enum { LEFTWARD = 0, RIGHTWARD = 1 };

typedef struct proc {
    int state;
    uint32_t run;            /* the sweep or instance it is in (0 ..) */
    uint32_t cycle;          /* the expansion cycle it is in or ends */
    uint32_t pos;            /* next site of wave[cycle % 3] to expand */
    bool boundary;           /* S_REDUCE: the reduction looks for the end (else a barrier) */
    mpp_u32vec wave[3];          /* local sites of cycle c (c % 3) */
    mpp_u32vec inbox[3];         /* remote sites for cycle c (c % 3): site | side << 31 */
    uint32_t nnbr, nbr[MAX_NBR];
    uint8_t dirs[MAX_NBR];       /* 1 << LEFTWARD: the neighbour owns a column left of one of
                                    this processor's stripes; 1 << RIGHTWARD: right of one */
    /* NC-O, per neighbour: site messages of this cycle, the half-filled one */
    uint32_t sent[MAX_NBR], pend[MAX_NBR][4], npend[MAX_NBR];
    /* NC-O, per parity and neighbour: messages received, announced, announced?,
     * received all (told them), told by them */
    uint32_t got[2][MAX_NBR], expect[2][MAX_NBR];
    uint8_t announced[2][MAX_NBR], acked[2][MAX_NBR], synced[2][MAX_NBR];
    uint64_t ams;            /* site messages sent */
    /* coalesced: the buffers (site | side << 31) by neighbour and direction */
    mpp_u32vec out[MAX_NBR][2];
    uint32_t call;           /* SSR: the direction of the call in progress */
    uint32_t next_send;      /* SSR: the next neighbour to send to in this call */
    bool sending;            /* SSR: a blocking send of the call is being written */
    uint32_t waiting;        /* SSR, ASR: receives of the step not complete */
    /* AMP, per parity: sizes received (count), announced sizes > 0, transfers in */
    uint32_t sizes[2], puts_due[2], puts_in[2];
} proc;

typedef struct app {
    app_cfg c;
    uint32_t P, N, delta;
    bool global;
    bool coalesced;
    uint64_t seed;
    mpp_app_costs k;
    uint32_t poll_call;      /* node.poll_call_cycles */
    uint32_t sendrecv;       /* node.sendrecv_cycles */
    double cpu_mhz, net_mhz;
    proc *p;                 /* [P] */
    /* the applications' data, shared (each processor touches its own
     * stripes' sites and what arrives for them) */
    mpp_wolff wolff;
    int8_t sigma;            /* the cluster's spin */
    uint32_t size;           /* the cluster's sites so far */
    mpp_lee lee;
    bool found;              /* lee: the destination is labelled */
    /* runs */
    uint32_t run, runs;
    uint64_t run_start;      /* network cycle the current run started */
    uint64_t total_cycles;   /* expansion cycles of the finished runs (the deepest) */
    double sum_t, sum_t2;    /* the finished runs' times (network cycles), and squares */
    uint64_t sum_size;       /* cluster sizes or distances */
    uint64_t lattice_hash;   /* of the finished runs */
    /* the sequential reference */
    mpp_app_seq seq;
    uint64_t end;            /* network cycle the last run ended */
    bool prepared;           /* prepare has run (at the first start callback) */
    bool failed;
} app;

static uint32_t owner(const app *a, uint32_t x) { return mpp_stripe_owner(x, a->c.w, a->P); }

static int nbr_index(const proc *q, uint32_t node)
{
    for (uint32_t i = 0; i < q->nnbr; i++)
        if (q->nbr[i] == node)
            return (int)i;
    return -1;
}

static void fail(app *a, mpp_node_ctx *ctx, const char *why)
{
    a->failed = true;
    mpp_node_fail(ctx, why);
}

static void charge(mpp_node_ctx *ctx, uint64_t cycles)
{
    if (cycles)
        mpp_node_compute(ctx, cycles);
}

static void push(app *a, mpp_node_ctx *ctx, mpp_u32vec *v, uint32_t x)
{
    if (!mpp_u32vec_push(v, x))
        fail(a, ctx, "app: out of memory");
}

/* An active message of the scheme: CMAML's, or Strata's (st_nc_o). */
static int send_am(app *a, mpp_node_ctx *ctx, uint32_t dst, uint32_t tag, const uint32_t *w,
                   uint32_t nw)
{
    return a->c.scheme == SCH_ST_NC_O ? mpp_node_send_strata(ctx, dst, tag, w, nw)
                                      : mpp_node_send_am_args(ctx, dst, tag, w, nw);
}

/* --- the expansion ------------------------------------------------------ */

/* Site u joins processor q's wavefront of cycle c: marked, queued. */
static void join(app *a, mpp_node_ctx *ctx, proc *q, uint32_t u, uint32_t c)
{
    if (a->c.app == APP_WOLFF) {
        a->wolff.in[u] = 1;
        a->size++;
    } else if (u == a->lee.dst) {
        a->found = true;
    }
    charge(ctx, a->k.queue);
    push(a, ctx, &q->wave[c % 3], u);
}

/* Site u, reached over bond b, tested by its owner q: it joins q's
 * wavefront of cycle c (Lee: its distance) when it may. */
static void test_site(app *a, mpp_node_ctx *ctx, proc *q, uint32_t u, uint64_t b, uint32_t c)
{
    if (a->c.app == APP_WOLFF) {
        if (a->wolff.spin[u] != a->sigma || a->wolff.in[u])
            return;
        charge(ctx, a->k.random);
        if (mpp_wolff_bond(&a->wolff, a->run + a->c.therm, b))
            join(a, ctx, q, u, c);
        return;
    }
    if (a->lee.blocked[u] || a->lee.label[u])
        return;
    a->lee.label[u] = c + 1;
    join(a, ctx, q, u, c);
}

/* Send processor q's half-filled site message to neighbour i. */
static void flush(app *a, mpp_node_ctx *ctx, proc *q, uint32_t i)
{
    if (!q->npend[i])
        return;
    if (send_am(a, ctx, q->nbr[i], TAG(T_SITES, q->cycle, 0), q->pend[i], q->npend[i]) != 0)
        fail(a, ctx, "app: a site message does not fit the packet (four words needed)");
    q->sent[i]++;
    q->ams++;
    q->npend[i] = 0;
}

/* Remote site u (its parent on side `side`: 0 left of u, 1 right of u) for
 * neighbour processor i: two words, two sites a message (NC-O), or into
 * the buffer of its direction (coalesced). */
static void send_site(app *a, mpp_node_ctx *ctx, proc *q, uint32_t i, uint32_t u, uint32_t side)
{
    if (a->coalesced) {
        push(a, ctx, &q->out[i][side ? LEFTWARD : RIGHTWARD], u | side << 31);
        return;
    }
    uint32_t N = a->N;
    uint32_t spin = a->c.app == APP_WOLFF && a->sigma < 0;
    q->pend[i][q->npend[i]++] = u / N;
    q->pend[i][q->npend[i]++] = u % N | side << 30 | spin << 31;
    if (q->npend[i] == 4)
        flush(a, ctx, q, i);
}

/* Expand site s of processor q (node n): its four neighbours, those of
 * cycle c + 1 (the cycle it is in). */
static void expand(app *a, mpp_node_ctx *ctx, proc *q, uint32_t n, uint32_t s)
{
    uint32_t N = a->N, nb[4];
    uint64_t bond[4] = {0};
    int k = 4;
    if (a->c.app == APP_WOLFF) {
        mpp_wolff_neighbours(N, s, nb, bond);
    } else {
        k = mpp_lee_neighbours(N, s, nb);
    }
    charge(ctx, a->k.site + (uint64_t)k * a->k.test);
    for (int d = 0; d < k; d++) {
        uint32_t u = nb[d], o = owner(a, u % N);
        if (o == n) {
            test_site(a, ctx, q, u, bond[d], q->cycle + 1);
            continue;
        }
        int i = nbr_index(q, o);
        if (i < 0) {
            fail(a, ctx, "app: a remote site on a processor that is not a neighbour");
            return;
        }
        /* u is left or right of s (stripes are columns): the side of the
         * parent seen from u */
        uint32_t side = (s % N) == ((u % N) + 1) % N ? 1 : 0;
        send_site(a, ctx, q, (uint32_t)i, u, side);
    }
}

/* The bond of remote site u whose parent is on `side` (0: left of u, 1:
 * right, wrapped). */
static uint64_t side_bond(const app *a, uint32_t u, uint32_t side)
{
    uint32_t N = a->N, x = u % N, y = u / N;
    uint32_t left = y * N + (x ? x - 1 : N - 1);
    return side ? 2 * (uint64_t)u : 2 * (uint64_t)left;
}

/* Apply the remote sites that arrived for processor q's cycle c (now
 * starting): each is tested by its owner. */
static void apply_inbox(app *a, mpp_node_ctx *ctx, proc *q, uint32_t c)
{
    mpp_u32vec *in = &q->inbox[c % 3];
    for (uint32_t i = 0; i < in->n; i++) {
        uint32_t u = in->v[i] & 0x7fffffffu, side = in->v[i] >> 31;
        charge(ctx, a->k.test);
        test_site(a, ctx, q, u, side_bond(a, u, side), c);
    }
    in->n = 0;
}

/* ASR: the remote sites of processor q's cycle c that arrived late (sent
 * at the start of the cycle): each that joins is expanded at once; a Lee
 * cell labelled c + 2 by this cycle's expansion is corrected to c + 1. */
static void expand_late(app *a, mpp_node_ctx *ctx, proc *q, uint32_t n, uint32_t c)
{
    mpp_u32vec *in = &q->inbox[c % 3];
    for (uint32_t i = 0; i < in->n && !a->failed; i++) {
        uint32_t u = in->v[i] & 0x7fffffffu, side = in->v[i] >> 31;
        charge(ctx, a->k.test);
        if (a->c.app == APP_WOLFF) {
            if (a->wolff.spin[u] != a->sigma || a->wolff.in[u])
                continue;
            charge(ctx, a->k.random);
            if (!mpp_wolff_bond(&a->wolff, a->run + a->c.therm, side_bond(a, u, side)))
                continue;
            a->wolff.in[u] = 1;
            a->size++;
        } else {
            if (a->lee.blocked[u] || (a->lee.label[u] && a->lee.label[u] <= c + 1))
                continue;
            a->lee.label[u] = c + 1;
            if (u == a->lee.dst)
                a->found = true;
        }
        expand(a, ctx, q, n, u);
    }
    in->n = 0;
}

static void begin_cycle(app *a, mpp_node_ctx *ctx, proc *q, uint32_t n);
static void end_of_cycle(app *a, mpp_node_ctx *ctx, proc *q, uint32_t n);
static void next_cycle(app *a, mpp_node_ctx *ctx, proc *q, uint32_t n);
static int lee_prepare(app *a, mpp_err *err);

/* Begin run r on processor q: its share of the start. */
static void begin_run(app *a, mpp_node_ctx *ctx, proc *q, uint32_t n)
{
    /* (its inboxes are empty: every site of the run before was tested; a
     * neighbour that began first may have mailed it sites already) */
    for (int i = 0; i < 3; i++)
        q->wave[i].n = 0;
    for (uint32_t i = 0; i < MAX_NBR; i++)
        q->out[i][0].n = q->out[i][1].n = 0;
    memset(q->got, 0, sizeof q->got);
    memset(q->expect, 0, sizeof q->expect);
    memset(q->announced, 0, sizeof q->announced);
    memset(q->acked, 0, sizeof q->acked);
    memset(q->synced, 0, sizeof q->synced);
    memset(q->sent, 0, sizeof q->sent);
    memset(q->npend, 0, sizeof q->npend);
    memset(q->sizes, 0, sizeof q->sizes);
    memset(q->puts_due, 0, sizeof q->puts_due);
    memset(q->puts_in, 0, sizeof q->puts_in);
    q->cycle = 0;
    q->pos = 0;
    uint32_t s0 = a->c.app == APP_WOLFF ? mpp_wolff_start(&a->wolff, a->run + a->c.therm)
                                        : a->lee.src;
    if (owner(a, s0 % a->N) == n)
        push(a, ctx, &q->wave[0], s0);
    begin_cycle(a, ctx, q, n);
}

/* Coalesced: processor q's buffer for neighbour i and direction d goes
 * out as one message of `paradigm` (am_put: a block transfer), its sites
 * mailed to the receiver's inbox[slot] (used once the message is read). */
static void send_buffer(app *a, mpp_node_ctx *ctx, proc *q, uint32_t i, uint32_t d,
                        uint32_t slot, int paradigm)
{
    mpp_u32vec *o = &q->out[i][d];
    proc *r = &a->p[q->nbr[i]];
    for (uint32_t j = 0; j < o->n; j++)
        push(a, ctx, &r->inbox[slot], o->v[j]);
    uint64_t bytes = 8 * (uint64_t)o->n;
    uint32_t tag = TAG(T_DATA, q->cycle, d);
    int rc = paradigm == MPP_PARADIGM_AM_PUT ? mpp_node_send_put(ctx, q->nbr[i], bytes, tag)
                                             : mpp_node_send_msg(ctx, q->nbr[i], bytes, tag,
                                                                 paradigm);
    if (rc != 0)
        fail(a, ctx, "app: a coalesced message could not be sent");
    q->ams += o->n > 0;
    o->n = 0;
}

/* ASR: the buffers of the cycle before go out (buffering sends: their
 * words copied) and the receives of this cycle are posted. The sites are
 * mailed to the receiver's inbox of this cycle. */
static void asr_exchange(app *a, mpp_node_ctx *ctx, proc *q)
{
    q->waiting = 0;
    for (uint32_t i = 0; i < q->nnbr; i++)
        for (uint32_t d = 0; d < 2; d++) {
            if (!(q->dirs[i] & 1u << d))
                continue;
            mpp_node_copy_words(ctx, 2 * (uint64_t)q->out[i][d].n);
            send_buffer(a, ctx, q, i, d, q->cycle % 3, MPP_PARADIGM_ASYNC);
        }
    /* the neighbour's sites coming this way: from a left neighbour
     * rightward, from a right neighbour leftward */
    for (uint32_t i = 0; i < q->nnbr; i++)
        for (uint32_t d = 0; d < 2; d++)
            if (q->dirs[i] & 1u << d) {
                mpp_node_post_recv(ctx, q->nbr[i], TAG(T_DATA, q->cycle, 1 - d));
                q->waiting++;
            }
}

/* Processor q starts expanding its cycle (its wavefront is complete). */
static void begin_cycle(app *a, mpp_node_ctx *ctx, proc *q, uint32_t n)
{
    q->state = S_EXPAND;
    q->pos = 0;
    if (a->c.scheme == SCH_ASR_C_O)
        asr_exchange(a, ctx, q);
    if (q->wave[q->cycle % 3].n == 0) {
        end_of_cycle(a, ctx, q, n);
        return;
    }
    if (a->coalesced && a->c.scheme != SCH_ASR_C_O) {
        /* not overlapped: the whole wavefront at once, no polling */
        mpp_u32vec *wv = &q->wave[q->cycle % 3];
        for (q->pos = 0; q->pos < wv->n && !a->failed; q->pos++) {
            charge(ctx, a->k.queue);
            expand(a, ctx, q, n, wv->v[q->pos]);
        }
        end_of_cycle(a, ctx, q, n);
        return;
    }
    mpp_node_yield(ctx);
}

/* The next site of processor q's wavefront, then a poll (am_nc_o), a poll
 * when it sent something (st_nc_o: Strata's send polls), or a yield to the
 * interrupts (asr_c_o). */
static void expand_next(app *a, mpp_node_ctx *ctx, proc *q, uint32_t n)
{
    mpp_u32vec *wv = &q->wave[q->cycle % 3];
    while (q->pos < wv->n && !a->failed) {
        uint32_t s = wv->v[q->pos++];
        charge(ctx, a->k.queue);
        if (a->c.scheme == SCH_ASR_C_O && a->c.app == APP_LEE &&
            a->lee.label[s] != q->cycle + 1)
            continue; /* corrected and expanded in the cycle before */
        uint64_t ams = q->ams;
        expand(a, ctx, q, n, s);
        if (a->c.scheme == SCH_AM_NC_O)
            charge(ctx, a->poll_call);
        if (a->c.scheme == SCH_ST_NC_O && q->ams != ams) {
            /* each Strata send alternates with polling: reads one */
            mpp_node_poll(ctx, (uint32_t)(q->ams - ams));
            return;
        }
        if (a->c.scheme != SCH_ST_NC_O) {
            mpp_node_yield(ctx);
            return;
        }
    }
    end_of_cycle(a, ctx, q, n);
}

static void try_sync(app *a, mpp_node_ctx *ctx, proc *q, uint32_t n);
static void ssr_call(app *a, mpp_node_ctx *ctx, proc *q, uint32_t dir);
static void ssr_send(app *a, mpp_node_ctx *ctx, proc *q);

/* Processor q has expanded its cycle: the communication of the scheme. */
static void end_of_cycle(app *a, mpp_node_ctx *ctx, proc *q, uint32_t n)
{
    switch (a->c.scheme) {
    case SCH_SSR_C_NO:
        ssr_call(a, ctx, q, LEFTWARD);
        return;
    case SCH_AMP_C_NO:
        q->state = S_BAR1;
        mpp_node_reduce(ctx, 0, MPP_REDUCE_BARRIER);
        return;
    case SCH_ASR_C_O:
        q->state = S_RECV;
        if (q->waiting == 0) {
            expand_late(a, ctx, q, n, q->cycle);
            next_cycle(a, ctx, q, n);
        }
        return;
    default:
        break;
    }
    q->state = S_SYNC;
    for (uint32_t i = 0; i < q->nnbr; i++) {
        flush(a, ctx, q, i);
        uint32_t cnt = q->sent[i];
        send_am(a, ctx, q->nbr[i], TAG(T_DONE, q->cycle, 0), &cnt, 1);
        q->sent[i] = 0;
    }
    try_sync(a, ctx, q, n);
}

/* SSR: the send-and-receive call of direction dir: the receives of the
 * sites coming the other way are posted, then the buffers of dir go out
 * one blocking sync send after the other (mailed at the call). */
static void ssr_call(app *a, mpp_node_ctx *ctx, proc *q, uint32_t dir)
{
    q->state = S_CALL;
    q->call = dir;
    q->waiting = 0;
    bool sends = false;
    for (uint32_t i = 0; i < q->nnbr; i++) {
        /* from a neighbour in direction dir come its sites of the other
         * direction */
        if (q->dirs[i] & 1u << (1 - dir)) {
            mpp_node_post_recv(ctx, q->nbr[i], TAG(T_DATA, q->cycle, dir));
            q->waiting++;
        }
        sends |= (q->dirs[i] >> dir) & 1;
    }
    if (sends && q->waiting)
        charge(ctx, a->sendrecv);
    q->next_send = 0;
    q->sending = false;
    ssr_send(a, ctx, q);
}

/* SSR: the next send of the call, or the call's end when nothing is
 * left to send or receive. */
static void ssr_send(app *a, mpp_node_ctx *ctx, proc *q)
{
    uint32_t dir = q->call;
    if (q->sending || q->state != S_CALL)
        return;
    while (q->next_send < q->nnbr) {
        uint32_t i = q->next_send++;
        if (!(q->dirs[i] & 1u << dir))
            continue;
        send_buffer(a, ctx, q, i, dir, (q->cycle + 1) % 3, MPP_PARADIGM_SYNC);
        q->sending = true;
        return;
    }
    if (q->waiting)
        return;
    uint32_t n = (uint32_t)(q - a->p);
    if (dir == LEFTWARD)
        ssr_call(a, ctx, q, RIGHTWARD);
    else
        next_cycle(a, ctx, q, n);
}

/* AMP: after the first barrier, the sizes; after the second, the
 * transfers of the non-empty buffers (mailed as they are sent). */
static void amp_sizes(app *a, mpp_node_ctx *ctx, proc *q)
{
    q->state = S_SIZES;
    for (uint32_t i = 0; i < q->nnbr; i++)
        for (uint32_t d = 0; d < 2; d++)
            if (q->dirs[i] & 1u << d) {
                uint32_t cnt = q->out[i][d].n;
                mpp_node_send_am_args(ctx, q->nbr[i], TAG(T_SIZE, q->cycle, d), &cnt, 1);
            }
}

static void amp_puts(app *a, mpp_node_ctx *ctx, proc *q)
{
    q->state = S_PUTS;
    for (uint32_t i = 0; i < q->nnbr; i++)
        for (uint32_t d = 0; d < 2; d++)
            if ((q->dirs[i] & 1u << d) && q->out[i][d].n)
                send_buffer(a, ctx, q, i, d, (q->cycle + 1) % 3, MPP_PARADIGM_AM_PUT);
}

/* The links a processor receives on a cycle (a buffer from each
 * neighbour in each direction it has it). */
static uint32_t links_in(const proc *q)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < q->nnbr; i++)
        k += (q->dirs[i] & 1) + (q->dirs[i] >> 1 & 1);
    return k;
}

/* AMP: go on when the step's messages are in. */
static void amp_progress(app *a, mpp_node_ctx *ctx, proc *q, uint32_t n)
{
    uint32_t par = q->cycle & 1;
    if (q->state == S_SIZES && q->sizes[par] == links_in(q)) {
        q->state = S_BAR2;
        mpp_node_reduce(ctx, 0, MPP_REDUCE_BARRIER);
    } else if (q->state == S_PUTS && q->puts_in[par] == q->puts_due[par]) {
        q->sizes[par] = q->puts_due[par] = q->puts_in[par] = 0;
        next_cycle(a, ctx, q, n);
    }
}

/* The reduction at the end of cycle c: is there more to do? */
static uint64_t more(const app *a, const proc *q, uint32_t c)
{
    if (a->c.app == APP_LEE && a->found)
        return 2;
    if (q->wave[c % 3].n > 0)
        return 1;
    for (uint32_t i = 0; i < q->nnbr; i++)
        if (q->out[i][0].n || q->out[i][1].n)
            return 1; /* asr: sites to send at the start of the cycle */
    return 0;
}

/* Processor q has every message of its cycle; go on when its neighbours
 * have theirs (local) or at the barrier (global). */
static void try_sync(app *a, mpp_node_ctx *ctx, proc *q, uint32_t n)
{
    if (q->state != S_SYNC)
        return;
    uint32_t par = q->cycle & 1, all = 1;
    for (uint32_t i = 0; i < q->nnbr; i++) {
        bool in = q->announced[par][i] && q->got[par][i] == q->expect[par][i];
        if (in && !a->global && !q->acked[par][i]) {
            q->acked[par][i] = 1;
            send_am(a, ctx, q->nbr[i], TAG(T_SYNC, q->cycle, 0), NULL, 0);
        }
        all &= in && (a->global || q->synced[par][i]);
    }
    if (!all)
        return;
    for (uint32_t i = 0; i < q->nnbr; i++) {
        q->got[par][i] = q->expect[par][i] = 0;
        q->announced[par][i] = q->acked[par][i] = q->synced[par][i] = 0;
    }
    next_cycle(a, ctx, q, n);
}

/* Processor q goes on to its next cycle: the remote sites that arrived for
 * it are tested (asr: expanded already), then the reduction that looks
 * for the end every delta cycles, a barrier (NC-O global sync), or the
 * cycle. */
static void next_cycle(app *a, mpp_node_ctx *ctx, proc *q, uint32_t n)
{
    uint32_t c = q->cycle + 1;
    if (a->c.scheme != SCH_ASR_C_O)
        apply_inbox(a, ctx, q, c);
    q->wave[q->cycle % 3].n = 0;
    bool barrier = (a->global && !a->coalesced) || a->c.scheme == SCH_AMP_C_NO;
    if (q->nnbr == 0 && !barrier && q->wave[c % 3].n == 0 && c % a->delta) {
        /* a processor alone (P = 1) with nothing to expand: its cycles up
         * to the next reduction would do nothing */
        c = (c / a->delta + 1) * a->delta; /* (every wave buffer is empty) */
    }
    q->cycle = c;
    q->boundary = c % a->delta == 0;
    if (q->boundary) {
        q->state = S_REDUCE;
        mpp_node_reduce(ctx, more(a, q, c), MPP_REDUCE_MAX);
    } else if (a->global && !a->coalesced) {
        q->state = S_REDUCE;
        mpp_node_reduce(ctx, 0, MPP_REDUCE_BARRIER);
    } else if (q->nnbr == 0 && a->coalesced) {
        /* alone, nothing comes between two cycles: the next starts from a
         * continuation (no recursion through the run) */
        q->state = S_NEXT;
        mpp_node_yield(ctx);
    } else {
        begin_cycle(a, ctx, q, n);
    }
}

/* The run ends (first processor to hear of it): record it, prepare the
 * next. */
static void end_run(app *a, mpp_node_ctx *ctx, uint32_t deepest)
{
    uint64_t now = mpp_node_now(ctx);
    double t = (double)(now - a->run_start);
    a->sum_t += t;
    a->sum_t2 += t * t;
    a->total_cycles += deepest;
    if (a->c.app == APP_WOLFF) {
        a->sum_size += a->size;
        uint64_t n = (uint64_t)a->N * a->N;
        for (uint64_t s = 0; s < n; s++)
            if (a->wolff.in[s]) {
                a->wolff.spin[s] = (int8_t)-a->wolff.spin[s];
                a->wolff.in[s] = 0;
            }
        a->size = 0;
    } else {
        a->sum_size += a->lee.label[a->lee.dst] - 1;
        a->lattice_hash = mpp_app_hash_add(a->lattice_hash, a->lee.label[a->lee.dst] - 1);
        mpp_lee_free(&a->lee);
        a->found = false;
    }
    a->run++;
    a->end = now;
    a->run_start = now;
    if (a->run == a->runs) {
        if (a->c.app == APP_WOLFF)
            a->lattice_hash = mpp_wolff_hash(a->lattice_hash, &a->wolff);
        return;
    }
    if (a->c.app == APP_WOLFF) {
        a->sigma = a->wolff.spin[mpp_wolff_start(&a->wolff, a->run + a->c.therm)];
        a->wolff.in[mpp_wolff_start(&a->wolff, a->run + a->c.therm)] = 1;
        a->size = 1;
    } else {
        mpp_err err;
        if (lee_prepare(a, &err) != 0)
            fail(a, ctx, err.msg);
    }
}

static void on_reduced(app *a, mpp_node_ctx *ctx, proc *q, uint32_t n, uint64_t result)
{
    if (q->state == S_BAR1) {
        amp_sizes(a, ctx, q);
        amp_progress(a, ctx, q, n);
        return;
    }
    if (q->state == S_BAR2) {
        amp_puts(a, ctx, q);
        amp_progress(a, ctx, q, n);
        return;
    }
    if (q->state != S_REDUCE) {
        fail(a, ctx, "app: a reduction's release out of turn");
        return;
    }
    /* (the first processor to hear that a run ended prepares the next,
     * whose delta may differ: what this reduction was is remembered) */
    if (!q->boundary || result == 1) {
        begin_cycle(a, ctx, q, n);
        return;
    }
    /* the run is over: every wavefront is empty, or Lee's destination is
     * reached */
    if (q->run == a->run)
        end_run(a, ctx, q->cycle);
    q->run++;
    if (q->run == a->runs) {
        q->state = S_DONE;
        mpp_node_app_done(ctx);
        return;
    }
    begin_run(a, ctx, q, n);
}

static int sequential(app *a, mpp_err *err);

/* The work on the host before the first cycle's callbacks: the
 * sequential reference, the thermalisation, the first run's data. Done
 * when the run starts, not in setup, so that checking a configuration
 * (which builds its simulation) stays cheap. */
static int prepare(app *a, mpp_err *err)
{
    int rc = sequential(a, err);
    if (rc)
        return rc;
    if (a->c.app == APP_LEE)
        return lee_prepare(a, err);
    if ((rc = mpp_wolff_init(&a->wolff, a->N, MPP_WOLFF_BETA_C, a->seed, err)))
        return rc;
    for (uint32_t t = 0; t < a->c.therm; t++)
        mpp_wolff_sweep(&a->wolff, t, NULL);
    uint32_t s0 = mpp_wolff_start(&a->wolff, a->c.therm);
    a->sigma = a->wolff.spin[s0];
    a->wolff.in[s0] = 1;
    a->size = 1;
    uint32_t d = (uint32_t)lround(0.1 * a->N / 2);
    a->delta = a->c.delta ? a->c.delta : d ? d : 1;
    return 0;
}

static void app_start(void *ud, mpp_node_ctx *ctx, uint32_t node)
{
    app *a = ud;
    if (!a->prepared) {
        a->prepared = true;
        mpp_err err;
        if (prepare(a, &err) != 0) {
            fail(a, ctx, err.msg);
            return;
        }
    }
    if (!a->failed)
        begin_run(a, ctx, &a->p[node], node);
}

static void app_handler(void *ud, mpp_node_ctx *ctx, uint32_t node, uint32_t src, uint32_t tag,
                        uint64_t bytes)
{
    app *a = ud;
    proc *q = &a->p[node];
    if (a->failed)
        return;
    if (tag == MPP_APP_CONTINUE) {
        if (q->state == S_EXPAND)
            expand_next(a, ctx, q, node);
        else if (q->state == S_NEXT)
            begin_cycle(a, ctx, q, node);
        return;
    }
    if (tag == MPP_APP_REDUCED) {
        on_reduced(a, ctx, q, node, bytes);
        return;
    }
    int i = nbr_index(q, src);
    if (i < 0) {
        fail(a, ctx, "app: a message from a processor that is not a neighbour");
        return;
    }
    if (tag & MPP_APP_SENT) {
        /* ssr: the blocking send of the call is written */
        if (a->c.scheme == SCH_SSR_C_NO) {
            q->sending = false;
            ssr_send(a, ctx, q);
        }
        return;
    }
    if (tag & MPP_APP_RECVD) {
        /* ssr, asr: a neighbour's buffer is in */
        q->waiting--;
        if (a->c.scheme == SCH_SSR_C_NO) {
            ssr_send(a, ctx, q);
        } else if (q->state == S_RECV && q->waiting == 0) {
            expand_late(a, ctx, q, node, q->cycle);
            next_cycle(a, ctx, q, node);
        }
        return;
    }
    uint32_t kind = tag & 7, par = (tag >> 3) & 1;
    uint32_t w[MPP_AM_MAX_ARGS], nw = mpp_node_args(ctx, w);
    switch (kind) {
    case T_SITES: {
        /* the sender's cycle is ours or the next (its parity says which);
         * its sites belong to the cycle after */
        uint32_t k = (q->cycle & 1) == par ? q->cycle : q->cycle + 1;
        for (uint32_t j = 0; j + 1 < nw; j += 2) {
            uint32_t u = w[j] * a->N + (w[j + 1] & 0x3fffffffu);
            uint32_t side = (w[j + 1] >> 30) & 1;
            push(a, ctx, &q->inbox[(k + 1) % 3], u | side << 31);
        }
        q->got[par][i]++;
        break;
    }
    case T_DONE:
        q->expect[par][i] = nw ? w[0] : 0;
        q->announced[par][i] = 1;
        break;
    case T_SYNC:
        q->synced[par][i] = 1;
        break;
    case T_SIZE:
        q->sizes[par]++;
        q->puts_due[par] += nw && w[0] > 0;
        amp_progress(a, ctx, q, node);
        return;
    case T_DATA:
        q->puts_in[par]++;
        amp_progress(a, ctx, q, node);
        return;
    default:
        fail(a, ctx, "app: a message of an unknown kind");
        return;
    }
    try_sync(a, ctx, q, node);
}

/* --- setup and results -------------------------------------------------- */

static void app_destroy(void *priv)
{
    app *a = priv;
    if (!a)
        return;
    for (uint32_t n = 0; a->p && n < a->P; n++)
        for (int i = 0; i < 3; i++) {
            free(a->p[n].wave[i].v);
            free(a->p[n].inbox[i].v);
            if (i < 2)
                for (uint32_t j = 0; j < MAX_NBR; j++)
                    free(a->p[n].out[j][i].v);
        }
    free(a->p);
    mpp_wolff_free(&a->wolff);
    mpp_lee_free(&a->lee);
    free(a);
}

/* The neighbour processors of processor n: the owners of the columns
 * beside its stripes (Wolff wraps round). */
static int find_nbrs(app *a, uint32_t n, mpp_err *err)
{
    proc *q = &a->p[n];
    uint32_t N = a->N, w = a->c.w;
    for (uint32_t x0 = n * w; x0 < N; x0 += a->P * w) {
        uint32_t x1 = x0 + w - 1 < N ? x0 + w - 1 : N - 1;
        uint32_t side[2] = {NONE_X, NONE_X};
        bool wrap = a->c.app == APP_WOLFF;
        if (x0 > 0)
            side[0] = x0 - 1;
        else if (wrap)
            side[0] = N - 1;
        if (x1 + 1 < N)
            side[1] = x1 + 1;
        else if (wrap)
            side[1] = 0;
        for (int s = 0; s < 2; s++) {
            if (side[s] == NONE_X)
                continue;
            uint32_t o = owner(a, side[s]);
            if (o == n)
                continue;
            int i = nbr_index(q, o);
            if (i < 0) {
                if (q->nnbr == MAX_NBR)
                    return mpp_err_set(err, MPP_EINVAL, "app: processor %u has more than %u "
                                       "neighbour processors", n, MAX_NBR);
                i = (int)q->nnbr;
                q->nbr[q->nnbr++] = o;
            }
            /* side 0: the column left of a stripe, reached leftward */
            q->dirs[i] |= (uint8_t)(1u << (s == 0 ? LEFTWARD : RIGHTWARD));
        }
    }
    return 0;
}

/* Lee's delta for the current instance: 0.2 M, at least 1 (or the
 * configured one). */
static uint32_t lee_delta(const app *a)
{
    if (a->c.delta)
        return a->c.delta;
    uint32_t d = (uint32_t)lround(0.2 * a->lee.M);
    return d ? d : 1;
}

/* Instance a->run of Lee: its grid, its labels cleared but the source's. */
static int lee_prepare(app *a, mpp_err *err)
{
    int rc = mpp_lee_generate(&a->lee, a->N, a->c.fraction, a->seed, a->run, err);
    if (rc)
        return rc;
    /* the sequential reference expands the same grid first */
    if ((rc = mpp_lee_sequential_add(&a->lee, &a->seq, err)))
        return rc;
    memset(a->lee.label, 0, (size_t)a->N * a->N * sizeof *a->lee.label);
    a->lee.label[a->lee.src] = 1;
    a->found = a->lee.src == a->lee.dst;
    a->delta = lee_delta(a);
    return 0;
}

/* The sequential reference: the same sweeps or instances on one node (the
 * compute model's time) and the hash the parallel run must reproduce.
 * Wolff's runs here; Lee's instance by instance on the grid the parallel
 * run expands next (lee_prepare: one generation for both). */
static int sequential(app *a, mpp_err *err)
{
    a->seq = (mpp_app_seq){.hash = MPP_APP_HASH0};
    if (a->c.app == APP_LEE)
        return 0;
    return mpp_wolff_sequential(a->N, MPP_WOLFF_BETA_C, a->seed, a->c.therm, a->c.sweeps,
                                &a->seq, err);
}

static int app_setup(mpp_sim *s, const void *cfgp, void **priv, mpp_err *err)
{
    const app_cfg *c = cfgp;
    const mpp_sim_config *sc = mpp_sim_config_get(s);
    uint32_t P = mpp_sim_topology(s)->nodes;
    int rc = mpp_stripes_check(c->N, c->w, P, err);
    if (rc) {
        mpp_err_prefix(err, "workload: app");
        return rc;
    }
    bool coalesced = c->scheme == SCH_SSR_C_NO || c->scheme == SCH_AMP_C_NO ||
                     c->scheme == SCH_ASR_C_O;
    if (coalesced && c->sync != SYNC_AUTO)
        return mpp_err_set(err, MPP_EINVAL,
                           "workload: app: sync: %s applies to the schemes am_nc_o and st_nc_o; "
                           "%s synchronises as it communicates (leave sync: auto)",
                           sync_names[c->sync], scheme_names[c->scheme]);
    if (sc->net.nic == MPP_NIC_DMA)
        return mpp_err_set(err, MPP_EINVAL, "workload: app runs on processors that poll "
                                            "(network.nic: model or ideal), not nic: dma");
    if (mpp_sim_packetizer(s)->payload_bytes < 4 * MPP_AM_MAX_ARGS)
        return mpp_err_set(err, MPP_EINVAL,
                           "workload: app: an active message of two sites needs four words of "
                           "payload a packet (node.payload_words x word_bits), this machine "
                           "has %u bytes",
                           (unsigned)mpp_sim_packetizer(s)->payload_bytes);
    app *a = calloc(1, sizeof *a);
    if (!a)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    *priv = a;
    a->c = *c;
    a->P = P;
    a->N = c->N;
    a->seed = sc->run.seed;
    a->global = c->sync == SYNC_GLOBAL || (c->sync == SYNC_AUTO && c->app == APP_LEE);
    a->coalesced = coalesced;
    a->poll_call = sc->node.poll_call_cycles;
    a->sendrecv = sc->node.sendrecv_cycles;
    a->k = (mpp_app_costs){sc->node.app_site_cycles, sc->node.app_test_cycles,
                           sc->node.app_random_cycles, sc->node.app_queue_cycles};
    a->cpu_mhz = sc->node.cpu_mhz;
    a->net_mhz = sc->net.net_mhz;
    a->runs = c->app == APP_WOLFF ? c->sweeps : c->instances;
    a->lattice_hash = MPP_APP_HASH0;
    a->p = calloc(P, sizeof *a->p);
    if (!a->p)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    for (uint32_t n = 0; n < P; n++)
        if ((rc = find_nbrs(a, n, err)))
            return rc;
    /* Above 0.6 the nets may not block the grid that far (docs/apps.md):
     * find out now, so that it is an error of the configuration. */
    if (c->app == APP_LEE && c->fraction > 0.6) {
        mpp_lee g;
        if ((rc = mpp_lee_generate(&g, a->N, c->fraction, a->seed, 0, err))) {
            mpp_err_prefix(err, "workload: app: lee");
            return rc;
        }
        mpp_lee_free(&g);
    }
    mpp_progbuild pb;
    if ((rc = mpp_progbuild_init(&pb, P, err)))
        return rc;
    for (uint32_t n = 0; n < P && !rc; n++)
        rc = mpp_progbuild_add(&pb, n, (mpp_op){.code = MPP_OP_APP}, err);
    if (!rc)
        rc = mpp_sim_programs(s, pb.prog, err);
    mpp_progbuild_free(&pb);
    if (!rc)
        mpp_sim_handlers(s, app_handler, app_start, a);
    return rc;
}

/* The lattice or grid of the parallel run and of the sequential reference
 * (Wolff: two lattices; Lee: one instance at a time), and the processors'
 * wavefront lists (at most a site each). */
static uint64_t app_bytes(const void *cfgp, uint64_t nodes)
{
    const app_cfg *c = cfgp;
    uint64_t cells = (uint64_t)c->N * c->N;
    uint64_t grid = c->app == APP_LEE ? mpp_lee_bytes(c->N) : 2 * mpp_wolff_bytes(c->N);
    return grid + 4 * cells + nodes * 256;
}

static void app_finish(void *priv, const mpp_sim *s, mpp_sim_result *r)
{
    (void)s;
    const app *a = priv;
    double runs = a->run ? a->run : 1;
    double ms = a->net_mhz > 0 ? (double)a->end / runs / a->net_mhz / 1000.0 : NAN;
    uint64_t ams = 0;
    for (uint32_t n = 0; n < a->P; n++)
        ams += a->p[n].ams;
    double seq_ms = a->seq.runs ? (double)mpp_app_work_cycles(&a->seq.counts, &a->k) /
                                      a->seq.runs / (a->cpu_mhz * 1000.0)
                                : NAN;
    r->extra[0].d = ms;
    r->extra[1].d = seq_ms;
    r->extra[2].d = seq_ms / ms;
    r->extra[3].d = seq_ms / ms / a->P;
    r->extra[4].d = (double)a->sum_size / runs;
    r->extra[5].d = (double)a->total_cycles / runs;
    r->extra[6].d = a->total_cycles ? (double)ams / a->P / (double)a->total_cycles / 2 : 0;
    r->extra[7].u = a->run == a->runs && a->lattice_hash == a->seq.hash;
    /* the standard error of the mean time: the runs' spread / sqrt(runs) */
    double var = a->run > 1 ? (a->sum_t2 - a->sum_t * a->sum_t / runs) / (runs - 1) : 0;
    r->extra[8].d = a->run > 1 && a->net_mhz > 0
                        ? sqrt(var > 0 ? var : 0) / sqrt(runs) / a->net_mhz / 1000.0
                        : NAN;
}

static const mpp_result_column app_columns[] = {
    {"time_ms", MPP_F_DOUBLE, "mean time of a sweep (wolff) or an expansion (lee), ms"},
    {"seq_ms", MPP_F_DOUBLE, "the same on one node, sequentially (the compute model), ms"},
    {"speedup", MPP_F_DOUBLE, "seq_ms / time_ms"},
    {"efficiency", MPP_F_DOUBLE, "speedup / processors"},
    {"mean_size", MPP_F_DOUBLE, "wolff: mean cluster size; lee: mean distance"},
    {"exp_cycles", MPP_F_DOUBLE, "expansion cycles a run (to the reduction that ends it)"},
    {"ams_per_side", MPP_F_DOUBLE,
     "messages with sites a processor sends a cycle to each side (mean): active messages "
     "(am_nc_o, st_nc_o) or non-empty coalesced buffers"},
    {"exact", MPP_F_U64, "1 when the parallel runs computed the sequential clusters (lattice) or "
                         "distances"},
    {"time_se_ms", MPP_F_DOUBLE, "the standard error of time_ms over the runs (empty with one)"},
};

static const mpp_summary_col app_summary[] = {
    {"time_ms", "time_ms", 10, 3},
    {"speedup", "speedup", 8, 2},
    {"efficiency", "effic", 6, 2},
    {"exp_cycles", "cycles", 8, 1},
    {"ams_per_side", "ams/side", 9, 2},
    {"exact", "exact", 5, 0},
};

const mpp_workload_ops mpp_workload_app = {
    .name = "app",
    .help = "irregular applications in parallel: Wolff clusters, Lee's expansion, column "
            "stripes, message-passing schemes (Bae and Ranka 1994)",
    .schema = {app_params, MPP_COUNTOF(app_params), sizeof(app_cfg)},
    .flags = MPP_WL_NODES,
    .setup = app_setup,
    .finish = app_finish,
    .destroy = app_destroy,
    .bytes = app_bytes,
    .columns = app_columns,
    .ncolumns = MPP_COUNTOF(app_columns),
    .summary = app_summary,
    .nsummary = MPP_COUNTOF(app_summary),
};
