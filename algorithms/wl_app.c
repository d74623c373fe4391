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
 * The scheme AM-NC-O (overlapped, not coalesced, active messages; Figs.
 * 25-27 of the paper): a processor expands its wavefront one site at a
 * time, polling after each (mpp_node_yield); a neighbour site on another
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
 * labels stay exact distances. Every delta cycles the processors reduce
 * "is every wavefront empty (or Lee's destination reached)?" over the
 * control network (mpp_node_reduce, MAX); at global sync that reduction is
 * the cycle's barrier.
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
enum { SCH_AM_NC_O = 0 };
static const char *const scheme_names[] = {"am_nc_o", NULL};
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
     "the message-passing scheme"},
    {"sync", MPP_PT_ENUM, offsetof(app_cfg, sync), "auto", 0, 0, sync_names,
     "synchronisation at the end of an expansion cycle: local (with the neighbour processors) "
     "or global (a barrier); auto: local for wolff, global for lee, as published"},
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

/* Tags of the application's active messages: kind | parity << 2 (the
 * sender's cycle mod 2). */
enum { T_SITES = 0, T_DONE = 1, T_SYNC = 2 };
#define TAG(kind, cycle) ((uint32_t)(kind) | ((uint32_t)(cycle) & 1u) << 2)

/* Processor states. */
enum { S_EXPAND = 0, S_SYNC = 1, S_REDUCE = 2, S_DONE = 3 };

/* Most neighbour processors a processor can have: the owners of the
 * columns beside its stripes (left, right, and across the wrap). */
#define MAX_NBR 4
#define NONE_X UINT32_MAX



typedef struct proc {
    int state;
    uint32_t run;            /* the sweep or instance it is in (0 ..) */
    uint32_t cycle;          /* the expansion cycle it is in or ends */
    uint32_t pos;            /* next site of wave[cycle % 3] to expand */
    bool boundary;           /* S_REDUCE: the reduction looks for the end (else a barrier) */
    mpp_u32vec wave[3];          /* local sites of cycle c (c % 3) */
    mpp_u32vec inbox[3];         /* remote sites for cycle c (c % 3): site | side << 31 */
    uint32_t nnbr, nbr[MAX_NBR];
    /* per neighbour: site messages of this cycle, the half-filled one */
    uint32_t sent[MAX_NBR], pend[MAX_NBR][4], npend[MAX_NBR];
    /* per parity and neighbour: messages received, announced, announced?,
     * received all (told them), told by them */
    uint32_t got[2][MAX_NBR], expect[2][MAX_NBR];
    uint8_t announced[2][MAX_NBR], acked[2][MAX_NBR], synced[2][MAX_NBR];
    uint64_t ams;            /* site messages sent */
} proc;

typedef struct app {
    app_cfg c;
    uint32_t P, N, delta;
    bool global;
    uint64_t seed;
    mpp_app_costs k;
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
    double seq_ms;
    uint64_t seq_hash;
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
    if (!mpp_u32vec_push(&q->wave[c % 3], u))
        fail(a, ctx, "app: out of memory");
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
    if (mpp_node_send_am_args(ctx, q->nbr[i], TAG(T_SITES, q->cycle), q->pend[i],
                              q->npend[i]) != 0)
        fail(a, ctx, "app: a site message does not fit the packet (four words needed)");
    q->sent[i]++;
    q->ams++;
    q->npend[i] = 0;
}

/* Remote site u (its parent on side `side`: 0 left of u, 1 right of u) for
 * neighbour processor i: two words, two sites a message. */
static void send_site(app *a, mpp_node_ctx *ctx, proc *q, uint32_t i, uint32_t u, uint32_t side)
{
    uint32_t N = a->N;
    uint32_t spin = a->c.app == APP_WOLFF && a->sigma < 0;
    q->pend[i][q->npend[i]++] = u / N;
    q->pend[i][q->npend[i]++] = u % N | side << 30 | spin << 31;
    if (q->npend[i] == 4)
        flush(a, ctx, q, i);
}

/* Expand site s of processor q (node n): its four neighbours. */
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
    charge(ctx, a->k.site + a->k.queue + (uint64_t)k * a->k.test);
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

/* Apply the remote sites that arrived for processor q's cycle c (now
 * starting): each is tested by its owner. */
static void apply_inbox(app *a, mpp_node_ctx *ctx, proc *q, uint32_t c)
{
    mpp_u32vec *in = &q->inbox[c % 3];
    uint32_t N = a->N;
    for (uint32_t i = 0; i < in->n; i++) {
        uint32_t u = in->v[i] & 0x7fffffffu, side = in->v[i] >> 31;
        charge(ctx, a->k.test);
        /* the parent: left of u (side 0) or right of u, wrapped */
        uint32_t x = u % N, y = u / N;
        uint32_t left = y * N + (x ? x - 1 : N - 1);
        uint64_t b = side ? 2 * (uint64_t)u : 2 * (uint64_t)left;
        test_site(a, ctx, q, u, b, c);
    }
    in->n = 0;
}

static void begin_cycle(app *a, mpp_node_ctx *ctx, proc *q, uint32_t n);
static void end_of_cycle(app *a, mpp_node_ctx *ctx, proc *q, uint32_t n);
static int lee_prepare(app *a, mpp_err *err);

/* Begin run r on processor q: its share of the start. */
static void begin_run(app *a, mpp_node_ctx *ctx, proc *q, uint32_t n)
{
    for (int i = 0; i < 3; i++)
        q->wave[i].n = q->inbox[i].n = 0;
    memset(q->got, 0, sizeof q->got);
    memset(q->expect, 0, sizeof q->expect);
    memset(q->announced, 0, sizeof q->announced);
    memset(q->acked, 0, sizeof q->acked);
    memset(q->synced, 0, sizeof q->synced);
    memset(q->sent, 0, sizeof q->sent);
    memset(q->npend, 0, sizeof q->npend);
    q->cycle = 0;
    q->pos = 0;
    uint32_t s0 = a->c.app == APP_WOLFF ? mpp_wolff_start(&a->wolff, a->run + a->c.therm)
                                        : a->lee.src;
    if (owner(a, s0 % a->N) == n && !mpp_u32vec_push(&q->wave[0], s0))
        fail(a, ctx, "app: out of memory");
    begin_cycle(a, ctx, q, n);
}

/* Processor q starts expanding its cycle (its wavefront is complete). */
static void begin_cycle(app *a, mpp_node_ctx *ctx, proc *q, uint32_t n)
{
    q->state = S_EXPAND;
    q->pos = 0;
    if (q->wave[q->cycle % 3].n == 0) {
        end_of_cycle(a, ctx, q, n);
        return;
    }
    mpp_node_yield(ctx);
}

/* The next site of processor q's wavefront, then a poll. */
static void expand_next(app *a, mpp_node_ctx *ctx, proc *q, uint32_t n)
{
    mpp_u32vec *wv = &q->wave[q->cycle % 3];
    if (q->pos < wv->n) {
        expand(a, ctx, q, n, wv->v[q->pos++]);
        mpp_node_yield(ctx);
        return;
    }
    end_of_cycle(a, ctx, q, n);
}

static void try_sync(app *a, mpp_node_ctx *ctx, proc *q, uint32_t n);

/* Processor q has expanded its cycle: announce its messages. */
static void end_of_cycle(app *a, mpp_node_ctx *ctx, proc *q, uint32_t n)
{
    q->state = S_SYNC;
    for (uint32_t i = 0; i < q->nnbr; i++) {
        flush(a, ctx, q, i);
        uint32_t cnt = q->sent[i];
        mpp_node_send_am_args(ctx, q->nbr[i], TAG(T_DONE, q->cycle), &cnt, 1);
        q->sent[i] = 0;
    }
    try_sync(a, ctx, q, n);
}

/* The reduction at the end of cycle c: is there more to do? */
static uint64_t more(const app *a, const proc *q, uint32_t c)
{
    if (a->c.app == APP_LEE && a->found)
        return 2;
    return q->wave[c % 3].n > 0;
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
            mpp_node_send_am(ctx, q->nbr[i], TAG(T_SYNC, q->cycle));
        }
        all &= in && (a->global || q->synced[par][i]);
    }
    if (!all)
        return;
    for (uint32_t i = 0; i < q->nnbr; i++) {
        q->got[par][i] = q->expect[par][i] = 0;
        q->announced[par][i] = q->acked[par][i] = q->synced[par][i] = 0;
    }
    /* the next cycle's wavefront: what arrived for it */
    uint32_t c = q->cycle + 1;
    apply_inbox(a, ctx, q, c);
    q->wave[q->cycle % 3].n = 0;
    q->cycle = c;
    q->boundary = c % a->delta == 0;
    if (q->boundary) {
        q->state = S_REDUCE;
        mpp_node_reduce(ctx, more(a, q, c), MPP_REDUCE_MAX);
    } else if (a->global) {
        q->state = S_REDUCE;
        mpp_node_reduce(ctx, 0, MPP_REDUCE_BARRIER);
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
    uint32_t kind = tag & 3, par = (tag >> 2) & 1;
    uint32_t w[MPP_AM_MAX_ARGS], nw = mpp_node_args(ctx, w);
    if (kind == T_SITES) {
        /* the sender's cycle is ours or the next (its parity says which);
         * its sites belong to the cycle after */
        uint32_t k = (q->cycle & 1) == par ? q->cycle : q->cycle + 1;
        for (uint32_t j = 0; j + 1 < nw; j += 2) {
            uint32_t u = w[j] * a->N + (w[j + 1] & 0x3fffffffu);
            uint32_t side = (w[j + 1] >> 30) & 1;
            if (!mpp_u32vec_push(&q->inbox[(k + 1) % 3], u | side << 31))
                fail(a, ctx, "app: out of memory");
        }
        q->got[par][i]++;
    } else if (kind == T_DONE) {
        q->expect[par][i] = nw ? w[0] : 0;
        q->announced[par][i] = 1;
    } else {
        q->synced[par][i] = 1;
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
            if (o == n || nbr_index(q, o) >= 0)
                continue;
            if (q->nnbr == MAX_NBR)
                return mpp_err_set(err, MPP_EINVAL, "app: processor %u has more than %u "
                                   "neighbour processors", n, MAX_NBR);
            q->nbr[q->nnbr++] = o;
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
    memset(a->lee.label, 0, (size_t)a->N * a->N * sizeof *a->lee.label);
    a->lee.label[a->lee.src] = 1;
    a->found = a->lee.src == a->lee.dst;
    a->delta = lee_delta(a);
    return 0;
}

/* The sequential reference: the same sweeps or instances on one node (the
 * compute model's time) and the hash the parallel run must reproduce. */
static int sequential(app *a, mpp_err *err)
{
    mpp_app_seq seq;
    int rc = a->c.app == APP_WOLFF
                 ? mpp_wolff_sequential(a->N, MPP_WOLFF_BETA_C, a->seed, a->c.therm,
                                        a->c.sweeps, &seq, err)
                 : mpp_lee_sequential(a->N, a->c.fraction, a->seed, a->c.instances, 1, &seq,
                                      err);
    if (rc)
        return rc;
    a->seq_hash = seq.hash;
    a->seq_ms =
        (double)mpp_app_work_cycles(&seq.counts, &a->k) / a->runs / (a->cpu_mhz * 1000.0);
    return 0;
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

static void app_finish(void *priv, const mpp_sim *s, mpp_sim_result *r)
{
    (void)s;
    const app *a = priv;
    double runs = a->run ? a->run : 1;
    double ms = a->net_mhz > 0 ? (double)a->end / runs / a->net_mhz / 1000.0 : NAN;
    uint64_t ams = 0;
    for (uint32_t n = 0; n < a->P; n++)
        ams += a->p[n].ams;
    r->extra[0].d = ms;
    r->extra[1].d = a->seq_ms;
    r->extra[2].d = a->seq_ms / ms;
    r->extra[3].d = a->seq_ms / ms / a->P;
    r->extra[4].d = (double)a->sum_size / runs;
    r->extra[5].d = (double)a->total_cycles / runs;
    r->extra[6].d = a->total_cycles ? (double)ams / a->P / (double)a->total_cycles / 2 : 0;
    r->extra[7].u = a->run == a->runs && a->lattice_hash == a->seq_hash;
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
     "site active messages a processor sends a cycle to each side (mean)"},
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
    .columns = app_columns,
    .ncolumns = MPP_COUNTOF(app_columns),
    .summary = app_summary,
    .nsummary = MPP_COUNTOF(app_summary),
};
