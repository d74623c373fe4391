/* algorithms/wl_pingpong.c — the `pingpong` workload: the one-to-one
 * measurement of the CM-5 paradigms study (Bae and Ranka 1994, section
 * 4.4). Node `ping` sends a message of `bytes` bytes to node `pong`, which
 * sends one of the same size back, `round_trips` times (1000 by default, as
 * published: "at least 1000 iterations"); the result is half the mean round
 * trip. On the CM-5 preset nodes 0 and 1 hang off the same first-level
 * routers (the same cluster of four): "two directly connected nodes".
 *
 * Per paradigm (workload.paradigm):
 *   sync    ping: SEND, RECV; pong: RECV, SEND (CMMD blocking send/receive,
 *           the three-phase protocol of core/node.c);
 *   async   a buffering send: the sender first copies the message into a
 *           system buffer (COMPUTE of copy_cycles_per_word per 32-bit word),
 *           then ISEND; ping: copy, ISEND, IRECV, WAIT; pong: IRECV, WAIT,
 *           copy, ISEND (its WAIT of the next round also covers the send);
 *   am      a message is ceil(bytes / 16) single-packet active messages
 *           (4 words each), read when the processor polls both interfaces
 *           (or on interrupt, as node.delivery says); the handler counts
 *           them and the last one of a message triggers the reply;
 *   am_put  a block transfer (CMAML's active-message PUT): the handler runs
 *           once the whole block is in and triggers the reply.
 * am and am_put run as an execution-driven protocol: both nodes run one
 * MPP_OP_APP operation and the handlers below drive them.
 *
 * The time of the loop is measured as the benchmark did after
 * synchronising the two nodes: from the moment ping starts its first send
 * (cycle 0, the release of the barrier before the programs) to the moment
 * it has the last reply; round_trip_us is that time over round_trips and
 * half_round_trip_us the one-way time reported.
 *
 * Invariants (am, am_put): got[i] < per_msg while a message is arriving at
 * node i; rounds_back <= round_trips; ping's APP completes exactly when the
 * last reply is in, pong's when it has sent its last reply. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "algorithms/workloads.h"
#include "core/schema.h"
#include "core/sim.h"

typedef struct pp_cfg {
    int paradigm;                 /* mpp_paradigm */
    uint64_t bytes;
    uint32_t round_trips;
    uint32_t ping, pong;
    uint32_t copy_cycles_per_word;
} pp_cfg;

static const mpp_param pp_params[] = {
    {"paradigm", MPP_PT_ENUM, offsetof(pp_cfg, paradigm), "sync", 0, 0, mpp_paradigm_names,
     "messaging paradigm"},
    {"bytes", MPP_PT_BYTES, offsetof(pp_cfg, bytes), "16", 1, 1e9, NULL,
     "message size (the study: 16 B to 4 KB, 4 to 1024 words)"},
    {"round_trips", MPP_PT_U32, offsetof(pp_cfg, round_trips), "1000", 1, 1e7, NULL,
     "round trips timed (the study: at least 1000)"},
    {"ping", MPP_PT_U32, offsetof(pp_cfg, ping), "0", 0, 1u << 20, NULL, "the node that starts"},
    {"pong", MPP_PT_U32, offsetof(pp_cfg, pong), "1", 0, 1u << 20, NULL, "the node that answers"},
    {"copy_cycles_per_word", MPP_PT_U32, offsetof(pp_cfg, copy_cycles_per_word), "4", 0, 1e6,
     NULL, "async: CPU cycles to copy one 32-bit word into the buffering send's buffer"},
};

typedef struct pp {
    pp_cfg c;
    uint32_t per_msg;             /* am: active messages per message */
    uint32_t got[2];              /* am: active messages of the current message, at ping / pong */
    uint32_t rounds_back;         /* replies that reached ping */
    uint32_t replies_sent;        /* replies pong sent */
    uint64_t t_end;               /* cycle ping had the last reply (am, am_put) */
    double net_mhz;
} pp;

/* One message from ctx's node to dst: per_msg active messages or a block. */
static void pp_send(pp *p, mpp_node_ctx *ctx, uint32_t dst)
{
    if (p->c.paradigm == MPP_PARADIGM_AM_PUT) {
        mpp_node_send_put(ctx, dst, p->c.bytes, 0);
        return;
    }
    for (uint32_t i = 0; i < p->per_msg; i++)
        mpp_node_send_am(ctx, dst, 0);
}

static void pp_start(void *ud, mpp_node_ctx *ctx, uint32_t node)
{
    pp *p = ud;
    if (node == p->c.ping)
        pp_send(p, ctx, p->c.pong);
}

/* An active message, or a whole block, arrived at node. */
static void pp_handler(void *ud, mpp_node_ctx *ctx, uint32_t node, uint32_t src, uint32_t tag,
                       uint64_t bytes)
{
    pp *p = ud;
    int at = node == p->c.ping ? 0 : 1;
    if (p->c.paradigm == MPP_PARADIGM_AM && ++p->got[at] < p->per_msg)
        return; /* more of this message to come */
    p->got[at] = 0;
    if (at == 1) {
        pp_send(p, ctx, p->c.ping);
        if (++p->replies_sent == p->c.round_trips)
            mpp_node_app_done(ctx);
        return;
    }
    if (++p->rounds_back == p->c.round_trips) {
        p->t_end = mpp_node_now(ctx);
        mpp_node_app_done(ctx);
        return;
    }
    pp_send(p, ctx, p->c.pong);
}

static void pp_destroy(void *priv) { free(priv); }

static int pp_setup(mpp_sim *s, const void *cfgp, void **priv, mpp_err *err)
{
    const pp_cfg *c = cfgp;
    uint32_t N = mpp_sim_topology(s)->nodes;
    if (c->ping >= N || c->pong >= N || c->ping == c->pong)
        return mpp_err_set(err, MPP_EINVAL,
                           "workload: pingpong needs two different nodes below %u (ping %u, "
                           "pong %u)",
                           N, c->ping, c->pong);
    pp *p = calloc(1, sizeof *p);
    if (!p)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    *priv = p;
    p->c = *c;
    p->per_msg = (uint32_t)((c->bytes + 15) / 16);
    p->net_mhz = mpp_sim_config_get(s)->net.net_mhz;
    mpp_progbuild pb;
    int rc = mpp_progbuild_init(&pb, N, err);
    if (rc)
        return rc;
    uint32_t a = c->ping, b = c->pong;
    uint8_t par = (uint8_t)c->paradigm;
    if (c->paradigm == MPP_PARADIGM_AM || c->paradigm == MPP_PARADIGM_AM_PUT) {
        mpp_sim_handlers(s, pp_handler, pp_start, p);
        rc = mpp_progbuild_add(&pb, a, (mpp_op){.code = MPP_OP_APP}, err);
        if (!rc)
            rc = mpp_progbuild_add(&pb, b, (mpp_op){.code = MPP_OP_APP}, err);
    } else if (c->paradigm == MPP_PARADIGM_SYNC) {
        for (uint32_t r = 0; r < c->round_trips && !rc; r++) {
            rc = mpp_progbuild_add(&pb, a, (mpp_op){.code = MPP_OP_SEND, .paradigm = par,
                                                    .peer = b, .bytes = c->bytes}, err);
            if (!rc)
                rc = mpp_progbuild_add(&pb, a, (mpp_op){.code = MPP_OP_RECV, .peer = b}, err);
            if (!rc)
                rc = mpp_progbuild_add(&pb, b, (mpp_op){.code = MPP_OP_RECV, .peer = a}, err);
            if (!rc)
                rc = mpp_progbuild_add(&pb, b, (mpp_op){.code = MPP_OP_SEND, .paradigm = par,
                                                        .peer = a, .bytes = c->bytes}, err);
        }
    } else {
        /* async with a buffering send: copy, then a non-blocking send */
        mpp_op copy = {.code = MPP_OP_COMPUTE,
                       .bytes = (uint64_t)c->copy_cycles_per_word * ((c->bytes + 3) / 4)};
        mpp_op wait = {.code = MPP_OP_WAIT};
        for (uint32_t r = 0; r < c->round_trips && !rc; r++) {
            mpp_op to_b = {.code = MPP_OP_ISEND, .paradigm = par, .peer = b, .bytes = c->bytes};
            mpp_op to_a = {.code = MPP_OP_ISEND, .paradigm = par, .peer = a, .bytes = c->bytes};
            const mpp_op ops_a[] = {copy, to_b, {.code = MPP_OP_IRECV, .peer = b}, wait};
            const mpp_op ops_b[] = {{.code = MPP_OP_IRECV, .peer = a}, wait, copy, to_a};
            for (size_t k = 0; k < MPP_COUNTOF(ops_a) && !rc; k++)
                if (ops_a[k].code != MPP_OP_COMPUTE || ops_a[k].bytes)
                    rc = mpp_progbuild_add(&pb, a, ops_a[k], err);
            for (size_t k = 0; k < MPP_COUNTOF(ops_b) && !rc; k++)
                if (ops_b[k].code != MPP_OP_COMPUTE || ops_b[k].bytes)
                    rc = mpp_progbuild_add(&pb, b, ops_b[k], err);
        }
        if (!rc)
            rc = mpp_progbuild_add(&pb, b, wait, err);
    }
    if (!rc)
        rc = mpp_sim_programs(s, pb.prog, err);
    mpp_progbuild_free(&pb);
    return rc;
}

static void pp_finish(void *priv, const mpp_sim *s, mpp_sim_result *r)
{
    const pp *p = priv;
    uint64_t end = p->t_end;
    if (p->c.paradigm == MPP_PARADIGM_SYNC || p->c.paradigm == MPP_PARADIGM_ASYNC) {
        /* the last reply's delivery to ping */
        end = 0;
        for (size_t i = 0; i < mpp_sim_message_count(s); i++) {
            mpp_message_record m;
            mpp_sim_message_get(s, i, &m);
            if (m.dst == p->c.ping && m.delivered > end)
                end = m.delivered;
        }
    }
    double rt = p->net_mhz > 0 ? (double)end / p->c.round_trips / p->net_mhz : NAN;
    r->extra[0].u = p->rounds_back ? p->rounds_back : (uint64_t)p->c.round_trips;
    r->extra[1].d = rt;
    r->extra[2].d = rt / 2;
}

static const mpp_result_column pp_columns[] = {
    {"round_trips", MPP_F_U64, "round trips timed"},
    {"round_trip_us", MPP_F_DOUBLE, "mean round trip, microseconds"},
    {"half_round_trip_us", MPP_F_DOUBLE, "half the mean round trip: the one-to-one time"},
};

static const mpp_summary_col pp_summary[] = {
    {"half_round_trip_us", "one_way_us", 10, 2},
    {"round_trip_us", "round_trip_us", 13, 2},
    {"messages", "messages", 8, 0},
    {"makespan_ms", "makespan_ms", 11, 3},
};

const mpp_workload_ops mpp_workload_pingpong = {
    .name = "pingpong",
    .help = "one-to-one: round trips between two nodes, half the mean round trip (Bae and "
            "Ranka 1994)",
    .schema = {pp_params, MPP_COUNTOF(pp_params), sizeof(pp_cfg)},
    .flags = MPP_WL_NODES,
    .setup = pp_setup,
    .finish = pp_finish,
    .destroy = pp_destroy,
    .columns = pp_columns,
    .ncolumns = MPP_COUNTOF(pp_columns),
    .summary = pp_summary,
    .nsummary = MPP_COUNTOF(pp_summary),
};
