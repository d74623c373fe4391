/* algorithms/wl_shift.c — the `shift` workload: the two-directional
 * circular shift of the CM-5 paradigms study (Bae and Ranka 1994, section
 * 4.4, Figs. 16 and 17). The nodes form a ring by id; in every round each
 * node i sends a message of `bytes` bytes to node (i + 1) mod N and one to
 * node (i - 1) mod N, and receives one from each (with N = 2 both go to
 * the other node). The result is the mean time of a round.
 *
 * Per library (workload.library), every node runs one MPP_OP_APP operation
 * driven by the callbacks below:
 *   cmaml   CMAML's RPC active messages: a message is K = ceil(bytes / 16)
 *           single-packet active messages of four words; the node sends
 *           the 2K alternately right and left. CMAML's send does not poll
 *           (the node layer reads packets only when the send FIFO is
 *           full), so the node polls explicitly after every F sends
 *           (poll_every; poll_at_end: F = M, none until all are sent): it
 *           charges node.poll_call_cycles and yields (mpp_node_yield: the
 *           queued packets are written, every waiting packet is read and
 *           its handler run), and goes on sending in the continuation. No
 *           poll follows the last send: the node then waits in its receive
 *           loop, where the APP operation reads packets as they come;
 *   strata  Strata's active messages: the same 2K, each sent with
 *           mpp_node_send_strata (node.strata_send_cycles, its poll
 *           included, instead of send_packet_cycles) and followed by a
 *           bounded poll that reads at most one waiting packet
 *           (mpp_node_poll(ctx, 1)): Strata's send alternates sending with
 *           polling; poll_every is ignored;
 *   put     CMAML's active-message PUT: one block transfer of `bytes` each
 *           way (mpp_node_send_put); its handler runs at the destination
 *           when the last packet is read.
 * A node's round ends when all its sends are written (a yield after the
 * last one: its continuation runs once they are) and it has received what
 * its two neighbours sent it in the round (2K active messages, or 2
 * PUTs). It then enters a control-network barrier (mpp_node_reduce,
 * MPP_REDUCE_BARRIER); at its release (MPP_APP_REDUCED) it begins the next
 * round, and after the last one it is done (mpp_node_app_done).
 *
 *   begin_round ---> S_SEND --last send, yield--> S_FLUSH --continuation-->
 *     S_WAIT --all received (sh_handler or the continuation: try_end)-->
 *     S_BARRIER --MPP_APP_REDUCED--> begin_round, or S_DONE
 *   (S_SEND: cmaml polls every F sends, strata one packet after each, continuing in
 *   send_more; put sends both blocks at once.)
 *
 * Time. Round 0 starts at cycle 0 (the APP operations start at the release
 * of the barrier before the programs), round r > 0 at the release of the
 * barrier after round r - 1 (the earliest begin_round of the round); it
 * ends at the last node's end of round (the latest try_end). shift_us is
 * the mean over the rounds, in microseconds; the barriers are not in it.
 *
 * Invariants:
 *   1. round r's messages of node j are sent only after the release of
 *      barrier r - 1, which needs j to have ended round r - 1; and j ends
 *      round r only when all of them are read. So a message tagged with
 *      round r's parity reaches j while j is in round r, or in barrier
 *      r - 1 (a neighbour heard of the release first): got[r & 1] counts
 *      round r alone, it is reset when j ends round r (not when it begins:
 *      it may already hold early arrivals), and never exceeds msgs (the
 *      handler fails the run if it would);
 *   2. a node is in at most one round, and sends nothing between the end
 *      of a round and the release of its barrier;
 *   3. every begin of round r + 1 comes after every end of round r (the
 *      barrier between them), so one open round is enough to time them
 *      (time_begin, time_end); a round is closed when all N nodes ended
 *      it. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "algorithms/workloads.h"
#include "core/schema.h"
#include "core/sim.h"

enum { LIB_CMAML = 0, LIB_STRATA = 1, LIB_PUT = 2 };
static const char *const lib_names[] = {"cmaml", "strata", "put", NULL};

/* The most messages (active messages or PUTs) of a run, all nodes and
 * rounds: the node layer keeps a record of each. */
#define SH_MAX_MSGS (UINT64_C(1) << 24)

typedef struct sh_cfg {
    int library;                  /* LIB_* */
    uint64_t bytes;
    uint32_t poll_every;          /* F */
    bool poll_at_end;             /* F = M */
    uint32_t rounds;
} sh_cfg;

static const mpp_param sh_params[] = {
    {"library", MPP_PT_ENUM, offsetof(sh_cfg, library), "cmaml", 0, 0, lib_names,
     "cmaml: CMAML RPC active messages, polled every poll_every sends; strata: Strata active "
     "messages (each send polls); put: one CMAML active-message PUT each way"},
    {"bytes", MPP_PT_BYTES, offsetof(sh_cfg, bytes), "64", 1, 1e6, NULL,
     "message size sent in each direction (the study: 16 B to 4 KB, 4 to 1024 words)"},
    {"poll_every", MPP_PT_U32, offsetof(sh_cfg, poll_every), "5", 1, 1e6, NULL,
     "cmaml: F, active messages sent between explicit polls (the study: 1, 5, 10, M); "
     "ignored by strata and put"},
    {"poll_at_end", MPP_PT_BOOL, offsetof(sh_cfg, poll_at_end), "false", 0, 0, NULL,
     "cmaml: F = M, no explicit poll until every active message of a round is sent "
     "(poll_every ignored)"},
    {"rounds", MPP_PT_U32, offsetof(sh_cfg, rounds), "100", 1, 1e6, NULL,
     "shifts timed, each after a barrier"},
};

/* Tags of the application's messages: the round's parity (invariant 1). */
#define TAG(round) ((uint32_t)(round) & 1u)

/* Node states. */
enum { S_SEND = 0, S_FLUSH = 1, S_WAIT = 2, S_BARRIER = 3, S_DONE = 4 };

typedef struct sh_node {
    int state;
    uint32_t round;               /* the round it is in or has just ended */
    uint32_t sent;                /* sends of the round so far */
    uint32_t since_poll;          /* cmaml: sends since the last explicit poll */
    uint32_t got[2];              /* by parity: messages received (invariant 1) */
} sh_node;

typedef struct sh {
    sh_cfg c;
    uint32_t N;
    uint32_t msgs;                /* sends of a node a round: 2K, or 2 PUTs */
    uint32_t F;                   /* cmaml: sends between polls */
    uint32_t poll_call;           /* node.poll_call_cycles */
    double net_mhz;
    sh_node *n;                   /* [N] */
    /* the round being timed (invariant 3) */
    uint32_t t_round;
    uint64_t t_begin, t_end;
    uint32_t t_ends;              /* nodes that ended it */
    uint32_t rounds_done;
    uint64_t total;               /* network cycles of the rounds done */
    bool failed;
} sh;

static void fail(sh *p, mpp_node_ctx *ctx, const char *why)
{
    p->failed = true;
    mpp_node_fail(ctx, why);
}

/* Node begins round r at network cycle now. */
static void time_begin(sh *p, uint32_t r, uint64_t now)
{
    if (r != p->t_round) {
        p->t_round = r;
        p->t_begin = now;
        p->t_end = 0;
        p->t_ends = 0;
    } else if (now < p->t_begin) {
        p->t_begin = now;
    }
}

/* A node ends the round being timed at network cycle now; the last one
 * closes it. */
static void time_end(sh *p, uint64_t now)
{
    if (now > p->t_end)
        p->t_end = now;
    if (++p->t_ends == p->N) {
        p->total += p->t_end - p->t_begin;
        p->rounds_done++;
    }
}

/* The i-th send of node n's round goes right (even i) or left. */
static uint32_t dest(const sh *p, uint32_t n, uint32_t i)
{
    return i % 2 == 0 ? (n + 1) % p->N : (n + p->N - 1) % p->N;
}

/* Send what node n may send before its next poll (cmaml, strata), then
 * yield; after the last send, the yield that tells when all are written. */
static void send_more(sh *p, mpp_node_ctx *ctx, sh_node *q, uint32_t n)
{
    while (q->sent < p->msgs) {
        uint32_t args[MPP_AM_MAX_ARGS] = {q->round, q->sent / 2, n, 0};
        uint32_t dst = dest(p, n, q->sent);
        int rc = p->c.library == LIB_STRATA
                     ? mpp_node_send_strata(ctx, dst, TAG(q->round), args, MPP_AM_MAX_ARGS)
                     : mpp_node_send_am_args(ctx, dst, TAG(q->round), args, MPP_AM_MAX_ARGS);
        if (rc != 0) {
            fail(p, ctx, "shift: an active message does not fit the packet (four words)");
            return;
        }
        q->sent++;
        if (q->sent == p->msgs)
            break;
        if (p->c.library == LIB_STRATA) {
            /* Strata's send alternates with polling: one waiting packet
             * read (its cost is in strata_send_cycles) */
            mpp_node_poll(ctx, 1);
            return;
        }
        if (++q->since_poll == p->F) {
            q->since_poll = 0;
            if (p->poll_call)
                mpp_node_compute(ctx, p->poll_call);
            mpp_node_yield(ctx);
            return;
        }
    }
    q->state = S_FLUSH;
    mpp_node_yield(ctx);
}

/* Node n begins round r at the release of the barrier before it (or at
 * the start). */
static void begin_round(sh *p, mpp_node_ctx *ctx, sh_node *q, uint32_t n, uint32_t r)
{
    q->round = r;
    q->sent = 0;
    q->since_poll = 0;
    q->state = S_SEND;
    time_begin(p, r, mpp_node_now(ctx));
    if (p->c.library != LIB_PUT) {
        send_more(p, ctx, q, n);
        return;
    }
    for (uint32_t i = 0; i < 2; i++)
        if (mpp_node_send_put(ctx, dest(p, n, i), p->c.bytes, TAG(r)) != 0) {
            fail(p, ctx, "shift: the block transfer has too many packets");
            return;
        }
    q->sent = 2;
    q->state = S_FLUSH;
    mpp_node_yield(ctx);
}

/* Node n's round ends when its sends are written and everything sent to
 * it has been read: it enters the barrier. */
static void try_end(sh *p, mpp_node_ctx *ctx, sh_node *q)
{
    uint32_t par = q->round & 1;
    if (q->state != S_WAIT || q->got[par] < p->msgs)
        return;
    q->got[par] = 0;
    q->state = S_BARRIER;
    time_end(p, mpp_node_now(ctx));
    if (mpp_node_reduce(ctx, 0, MPP_REDUCE_BARRIER) != 0)
        fail(p, ctx, "shift: the barrier refused the node");
}

static void sh_start(void *ud, mpp_node_ctx *ctx, uint32_t node)
{
    sh *p = ud;
    if (!p->failed)
        begin_round(p, ctx, &p->n[node], node, 0);
}

static void sh_handler(void *ud, mpp_node_ctx *ctx, uint32_t node, uint32_t src, uint32_t tag,
                       uint64_t bytes)
{
    (void)src;
    (void)bytes;
    sh *p = ud;
    sh_node *q = &p->n[node];
    if (p->failed)
        return;
    if (tag == MPP_APP_CONTINUE) {
        if (q->state == S_SEND) {
            send_more(p, ctx, q, node);
        } else if (q->state == S_FLUSH) {
            q->state = S_WAIT;
            try_end(p, ctx, q);
        }
        return;
    }
    if (tag == MPP_APP_REDUCED) {
        if (q->state != S_BARRIER) {
            fail(p, ctx, "shift: a barrier's release out of turn");
            return;
        }
        if (q->round + 1 == p->c.rounds) {
            q->state = S_DONE;
            mpp_node_app_done(ctx);
            return;
        }
        begin_round(p, ctx, q, node, q->round + 1);
        return;
    }
    /* an active message, or a whole PUT, of the round of parity tag & 1 */
    if (++q->got[tag & 1] > p->msgs) {
        fail(p, ctx, "shift: more messages of a round than its neighbours send");
        return;
    }
    try_end(p, ctx, q);
}

static void sh_destroy(void *priv)
{
    sh *p = priv;
    if (!p)
        return;
    free(p->n);
    free(p);
}

static int sh_setup(mpp_sim *s, const void *cfgp, void **priv, mpp_err *err)
{
    const sh_cfg *c = cfgp;
    const mpp_sim_config *sc = mpp_sim_config_get(s);
    uint32_t N = mpp_sim_topology(s)->nodes;
    uint32_t payload = mpp_sim_packetizer(s)->payload_bytes;
    if (N < 2)
        return mpp_err_set(err, MPP_EINVAL,
                           "workload: shift needs a ring of at least 2 nodes, this machine has "
                           "%u",
                           N);
    if (sc->net.nic == MPP_NIC_DMA)
        return mpp_err_set(err, MPP_EINVAL, "workload: shift runs on processors that poll "
                                            "(network.nic: model or ideal), not nic: dma");
    if (c->library != LIB_PUT && payload < 4 * MPP_AM_MAX_ARGS)
        return mpp_err_set(err, MPP_EINVAL,
                           "workload: shift: library %s sends active messages of four words: "
                           "they need 16 bytes of payload a packet (node.payload_words x "
                           "word_bits), this machine has %u",
                           lib_names[c->library], (unsigned)payload);
    uint64_t am_bytes = 4 * MPP_AM_MAX_ARGS; /* four words an active message */
    uint64_t per_msg = (c->bytes + am_bytes - 1) / am_bytes;
    uint64_t msgs = c->library == LIB_PUT ? 2 : 2 * per_msg;
    if ((uint64_t)N * c->rounds * msgs > SH_MAX_MSGS)
        return mpp_err_set(err, MPP_EINVAL,
                           "workload: shift: %u nodes x %u rounds x %llu messages is more than "
                           "%llu messages (fewer rounds or bytes)",
                           N, c->rounds, (unsigned long long)msgs,
                           (unsigned long long)SH_MAX_MSGS);
    sh *p = calloc(1, sizeof *p);
    if (!p)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    *priv = p;
    p->c = *c;
    p->N = N;
    p->msgs = (uint32_t)msgs;
    p->F = c->poll_at_end ? p->msgs : c->poll_every;
    p->poll_call = sc->node.poll_call_cycles;
    p->net_mhz = sc->net.net_mhz;
    p->t_round = UINT32_MAX;
    p->n = calloc(N, sizeof *p->n);
    if (!p->n)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    mpp_progbuild pb;
    int rc = mpp_progbuild_init(&pb, N, err);
    if (rc)
        return rc;
    for (uint32_t n = 0; n < N && !rc; n++)
        rc = mpp_progbuild_add(&pb, n, (mpp_op){.code = MPP_OP_APP}, err);
    if (!rc)
        rc = mpp_sim_programs(s, pb.prog, err);
    mpp_progbuild_free(&pb);
    if (!rc)
        mpp_sim_handlers(s, sh_handler, sh_start, p);
    return rc;
}

static void sh_finish(void *priv, const mpp_sim *s, mpp_sim_result *r)
{
    (void)s;
    const sh *p = priv;
    r->extra[0].u = p->rounds_done;
    r->extra[1].d = p->rounds_done && p->net_mhz > 0
                        ? (double)p->total / p->rounds_done / p->net_mhz
                        : NAN;
    r->extra[2].u = p->msgs;
}

static const mpp_result_column sh_columns[] = {
    {"rounds", MPP_F_U64, "shifts timed (completed)"},
    {"shift_us", MPP_F_DOUBLE,
     "mean time of a shift, microseconds: from the barrier's release to the last node's end"},
    {"msgs_per_node", MPP_F_U64,
     "messages a node sends a round: 2 x ceil(bytes / 16) active messages, or 2 PUTs"},
};

static const mpp_summary_col sh_summary[] = {
    {"shift_us", "shift_us", 10, 2},
    {"msgs_per_node", "msgs", 6, 0},
    {"messages", "messages", 8, 0},
    {"makespan_ms", "makespan_ms", 11, 3},
};

const mpp_workload_ops mpp_workload_shift = {
    .name = "shift",
    .help = "two-directional circular shift: every node sends to both ring neighbours, CMAML "
            "or Strata active messages or PUTs (Bae and Ranka 1994)",
    .schema = {sh_params, MPP_COUNTOF(sh_params), sizeof(sh_cfg)},
    .flags = MPP_WL_NODES,
    .setup = sh_setup,
    .finish = sh_finish,
    .destroy = sh_destroy,
    .columns = sh_columns,
    .ncolumns = MPP_COUNTOF(sh_columns),
    .summary = sh_summary,
    .nsummary = MPP_COUNTOF(sh_summary),
};
