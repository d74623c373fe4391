/* test/test_node.c — node processors and paradigms (core/node.c) through
 * explicit programs: the packet sequence of sync is request, reply, data;
 * an active message is one packet and runs its handler; am_put fires its
 * handler when the byte count reaches zero; interrupt delivery costs more
 * than polling; async handshakes run on interrupts; processor time maps
 * exactly to network cycles; barriers release after the last entry plus
 * barrier_cycles; a protocol deadlock (two blocking sends to each other)
 * is reported by the watchdog, not a hang; a full receive FIFO backs up
 * the network (node contention without any formula); switch_cycles is
 * paid where a processor changes message; nic: dma's engines overlap. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/file.h"
#include "core/schema.h"
#include "core/sim.h"
#include "test/testutil.h"

#define MAXREC 4096
typedef struct trace {
    mpp_packet_record r[MAXREC];
    int n;
} trace;

static void keep(void *ud, const mpp_packet_record *r)
{
    trace *t = ud;
    if (t->n < MAXREC)
        t->r[t->n++] = *r;
}

/* A 16-node mesh machine with the NIC model and simple clocks: CPU 10 MHz,
 * network 10 MHz (one CPU cycle per network cycle). */
static void machine(mpp_sim_config *c)
{
    mpp_config_defaults(c);
    test_mesh(c, 4, 4);
    c->net.nic = MPP_NIC_MODEL;
    c->net.net_mhz = 10;
    c->net.vcs = 2;
    c->node.cpu_mhz = 10;
    c->node.interfaces = 2;
    c->node.send_packet_cycles = 10;
    c->node.recv_packet_cycles = 10;
    c->node.send_msg_cycles = 0;
    c->node.recv_msg_cycles = 0;
    c->node.poll_cycles = 2;
    c->node.interrupt_cycles = 40;
    c->node.handler_cycles = 7;
}

/* Run programs prog[0..N-1] (NULL entries: empty). */
static int run(mpp_sim_config *c, mpp_program *prog, trace *t, mpp_sim_result *res, mpp_sim **keep_sim)
{
    if (prog)
        test_use_programs(c, prog);
    mpp_err err;
    mpp_sim *s = mpp_sim_create(c, &err);
    CHECKF(s != NULL, "%s", err.msg);
    if (!s)
        return -1;
    mpp_sim_on_packet(s, t ? keep : NULL, t);
    int rc = mpp_sim_run(s, NULL, NULL, &err);
    if (res)
        *res = *mpp_sim_result_get(s);
    if (keep_sim)
        *keep_sim = s;
    else
        mpp_sim_destroy(s);
    return rc;
}

static uint32_t kind(const mpp_packet_record *r) { return (uint32_t)(r->tag >> 32); }

static void test_sync_sequence(void)
{
    mpp_sim_config c;
    machine(&c);
    mpp_program prog[16] = {{0}};
    mpp_op send = {.code = MPP_OP_SEND, .paradigm = MPP_PARADIGM_SYNC, .peer = 5, .bytes = 64};
    mpp_op recv = {.code = MPP_OP_RECV, .peer = 0};
    prog[0] = (mpp_program){&send, 1};
    prog[5] = (mpp_program){&recv, 1};
    trace *t = calloc(1, sizeof *t);
    mpp_sim_result r;
    CHECK(run(&c, prog, t, &r, NULL) == 0);
    CHECKF(t->n == 6, "%d packets", t->n);
    if (t->n == 6) {
        CHECK(kind(&t->r[0]) == 1 && t->r[0].src == 0 && t->r[0].dst == 5); /* request */
        CHECK(kind(&t->r[1]) == 2 && t->r[1].src == 5 && t->r[1].dst == 0); /* reply */
        for (int i = 2; i < 6; i++)
            CHECK(kind(&t->r[i]) == 3 && t->r[i].src == 0 && t->r[i].dst == 5); /* data */
        CHECK(t->r[0].delivered < t->r[1].injected); /* the reply answers the request */
        CHECK(t->r[1].delivered < t->r[2].injected); /* data follows the reply */
    }
    CHECK(r.messages == 1);
    free(t);
}

static void test_am(void)
{
    mpp_sim_config c;
    machine(&c);
    mpp_program prog[16] = {{0}};
    mpp_op am = {.code = MPP_OP_AM, .peer = 3, .tag = 9};
    mpp_op poll[2] = {{.code = MPP_OP_COMPUTE, .bytes = 200}, {.code = MPP_OP_POLL}};
    prog[0] = (mpp_program){&am, 1};
    prog[3] = (mpp_program){poll, 2};
    trace *t = calloc(1, sizeof *t);
    mpp_sim *s = NULL;
    CHECK(run(&c, prog, t, NULL, &s) == 0);
    CHECK(t->n == 1 && kind(&t->r[0]) == 4);
    CHECK(mpp_sim_message_count(s) == 1);
    if (s && mpp_sim_message_count(s) == 1) {
        mpp_message_record m;
        mpp_sim_message_get(s, 0, &m);
        /* polled at cycle 200 (after the computation): poll + read + handler */
        CHECKF(m.delivered == 200 + 2 + 10 + 7, "delivered %llu", (unsigned long long)m.delivered);
    }
    mpp_sim_destroy(s);
    free(t);
}

/* Run programs prog on machine c with the application callbacks (handler,
 * start, ud): the run's status, err set when it failed (-1 when the
 * simulation could not be built). */
static int run_app(mpp_sim_config *c, mpp_program *prog, mpp_am_handler handler,
                   mpp_app_start start, void *ud, mpp_err *err)
{
    test_use_programs(c, prog);
    mpp_sim *s = mpp_sim_create(c, err);
    CHECKF(s != NULL, "%s", err->msg);
    if (!s)
        return -1;
    mpp_sim_handlers(s, handler, start, ud);
    int rc = mpp_sim_run(s, NULL, NULL, err);
    mpp_sim_destroy(s);
    return rc;
}

/* Active messages that carry argument words (mpp_node_send_am_args): an
 * application on nodes 0 and 5; node 0 sends five, with 0 .. 4 words. */
typedef struct args_app {
    uint32_t want, got, nargs[8], args[8][MPP_AM_MAX_ARGS], src[8], tag[8];
    int rc[MPP_AM_MAX_ARGS + 3];
} args_app;

static void args_start(void *ud, mpp_node_ctx *ctx, uint32_t node)
{
    args_app *a = ud;
    if (node != 0)
        return;
    uint32_t w[MPP_AM_MAX_ARGS + 1] = {0};
    for (uint32_t k = 0; k <= MPP_AM_MAX_ARGS; k++) {
        for (uint32_t i = 0; i < k; i++)
            w[i] = 100 * k + i;
        a->rc[k] = mpp_node_send_am_args(ctx, 5, 20 + k, w, k);
    }
    a->rc[MPP_AM_MAX_ARGS + 1] = mpp_node_send_am_args(ctx, 5, 1, w, MPP_AM_MAX_ARGS + 1);
    a->rc[MPP_AM_MAX_ARGS + 2] = mpp_node_send_am_args(ctx, 16, 1, w, 1); /* no node 16 */
    mpp_node_app_done(ctx);
}

static void args_handler(void *ud, mpp_node_ctx *ctx, uint32_t node, uint32_t src, uint32_t tag,
                         uint64_t bytes)
{
    (void)bytes;
    args_app *a = ud;
    CHECK(node == 5);
    if (a->got < 8) {
        a->src[a->got] = src;
        a->tag[a->got] = tag;
        a->nargs[a->got] = mpp_node_args(ctx, a->args[a->got]);
    }
    if (++a->got == a->want)
        mpp_node_app_done(ctx);
}

static void test_am_args(void)
{
    /* words a packet: 4 (all five go), 2 (those with 0, 1, 2 words go) */
    for (uint32_t words = 4; words >= 2; words -= 2) {
        mpp_sim_config c;
        machine(&c);
        c.node.payload_words = words;
        mpp_program prog[16] = {{0}};
        mpp_op app = {.code = MPP_OP_APP};
        prog[0] = (mpp_program){&app, 1};
        prog[5] = (mpp_program){&app, 1};
        mpp_err err;
        args_app a = {.want = words + 1};
        int rc = run_app(&c, prog, args_handler, args_start, &a, &err);
        CHECKF(rc == 0, "%s", rc ? err.msg : "");
        for (uint32_t k = 0; k <= MPP_AM_MAX_ARGS; k++)
            CHECKF(a.rc[k] == (k <= words ? 0 : -1), "%u words a packet, %u arguments: %d", words,
                   k, a.rc[k]);
        CHECK(a.rc[MPP_AM_MAX_ARGS + 1] == -1 && a.rc[MPP_AM_MAX_ARGS + 2] == -1);
        CHECKF(a.got == words + 1, "%u active messages", a.got);
        for (uint32_t k = 0; k < a.got && k <= words; k++) {
            CHECK(a.src[k] == 0 && a.tag[k] == 20 + k && a.nargs[k] == k);
            for (uint32_t i = 0; i < k; i++)
                CHECK(a.args[k][i] == 100 * k + i);
        }
    }
}

/* The application's reductions (mpp_node_reduce): nodes 0 .. 3 run three
 * rounds, each computing 100 x (node + 1) cycles, sending an active message
 * to the next and entering a sum reduction of 10 x round + node; node 6's
 * program has a REDUCE operation, which meets the first round. */
typedef struct red_app {
    uint32_t round[16];
    uint64_t result[16][4], at[16][4];
    int again, mixed;
} red_app;

static void red_round(red_app *a, mpp_node_ctx *ctx, uint32_t node)
{
    uint32_t r = a->round[node];
    mpp_node_compute(ctx, 100 * (node + 1));
    uint32_t w = node;
    mpp_node_send_am_args(ctx, (node + 1) % 4, 1, &w, 1);
    int op = a->mixed && node == 3 ? MPP_REDUCE_MAX : MPP_REDUCE_SUM;
    CHECK(mpp_node_reduce(ctx, 10 * r + node, op) == 0);
    if (node == 0 && r == 0)
        a->again = mpp_node_reduce(ctx, 1, MPP_REDUCE_SUM); /* one at a time: -1 */
}

static void red_start(void *ud, mpp_node_ctx *ctx, uint32_t node) { red_round(ud, ctx, node); }

static void red_handler(void *ud, mpp_node_ctx *ctx, uint32_t node, uint32_t src, uint32_t tag,
                        uint64_t bytes)
{
    red_app *a = ud;
    if (tag != MPP_APP_REDUCED)
        return; /* the active messages */
    CHECK(src == node);
    uint32_t r = a->round[node];
    if (r < 4) {
        a->result[node][r] = bytes;
        a->at[node][r] = mpp_node_now(ctx);
    }
    if (++a->round[node] == 3)
        mpp_node_app_done(ctx);
    else
        red_round(a, ctx, node);
}

static void test_app_reduce(void)
{
    for (int mixed = 0; mixed < 2; mixed++) {
        mpp_sim_config c;
        machine(&c);
        c.node.reduce_cycles = 30;
        mpp_program prog[16] = {{0}};
        mpp_op app = {.code = MPP_OP_APP}, reduce = {.code = MPP_OP_REDUCE};
        for (int k = 0; k < 4; k++)
            prog[k] = (mpp_program){&app, 1};
        prog[6] = (mpp_program){&reduce, 1};
        mpp_err err;
        red_app a = {.mixed = mixed};
        int rc = run_app(&c, prog, red_handler, red_start, &a, &err);
        if (mixed) {
            CHECKF(rc != 0 && strstr(err.msg, "different operations"), "mixed: %d %s", rc,
                   err.msg);
            continue;
        }
        CHECKF(rc == 0, "%s", rc ? err.msg : "");
        CHECK(a.again == -1);
        for (uint32_t n = 0; n < 4; n++) {
            CHECKF(a.round[n] == 3, "node %u: %u rounds", n, a.round[n]);
            for (uint32_t r = 0; r < 3; r++) {
                CHECKF(a.result[n][r] == 40 * r + 6, "node %u round %u: %llu", n, r,
                       (unsigned long long)a.result[n][r]);
                /* node 3 computes 400 cycles a round and writes its active
                 * message (10) before it enters, last; the release comes
                 * reduce_cycles (30) after: at 440, 880, 1320 for a node that
                 * is free then (node 0 is reading node 3's message) */
                CHECKF(a.at[n][r] >= 440 * (r + 1) && a.at[n][r] <= 440 * (r + 1) + 20,
                       "node %u round %u: released at %llu", n, r,
                       (unsigned long long)a.at[n][r]);
            }
        }
        CHECK(a.at[3][0] == 440 && a.at[3][1] == 880 && a.at[3][2] == 1320);
    }
}

/* Poll points (mpp_node_yield): node 1 works in five units of 100 cycles
 * and yields after each; node 0 sends it three active messages at once;
 * each is read at the first poll point after it is in, between units. A
 * bounded poll (mpp_node_poll(ctx, 1)) reads one a poll point. */
typedef struct yield_app {
    uint32_t units, got, at_unit[4];
    uint64_t cont_at[8];
    int spin;  /* the application that only yields */
    int bound; /* node 1 polls with mpp_node_poll(ctx, 1) */
} yield_app;

static void yield_poll(yield_app *a, mpp_node_ctx *ctx)
{
    CHECK((a->bound ? mpp_node_poll(ctx, 1) : mpp_node_yield(ctx)) == 0);
}

static void yield_start(void *ud, mpp_node_ctx *ctx, uint32_t node)
{
    yield_app *a = ud;
    if (a->spin) {
        mpp_node_yield(ctx);
        return;
    }
    if (node == 0) {
        for (uint32_t i = 0; i < 3; i++)
            mpp_node_send_am(ctx, 1, 5);
        mpp_node_app_done(ctx);
    } else {
        mpp_node_compute(ctx, 100);
        yield_poll(a, ctx);
    }
}

static void yield_handler(void *ud, mpp_node_ctx *ctx, uint32_t node, uint32_t src, uint32_t tag,
                          uint64_t bytes)
{
    (void)src, (void)bytes;
    yield_app *a = ud;
    if (a->spin) {
        mpp_node_yield(ctx); /* nothing charged: never ends */
        return;
    }
    CHECK(node == 1);
    if (tag == 5) {
        if (a->got < 4)
            a->at_unit[a->got] = a->units;
        a->got++;
        return;
    }
    CHECK(tag == MPP_APP_CONTINUE);
    if (a->units < 8)
        a->cont_at[a->units] = mpp_node_now(ctx);
    if (++a->units == 5) {
        mpp_node_app_done(ctx);
        return;
    }
    mpp_node_compute(ctx, 100);
    yield_poll(a, ctx);
}

static void test_yield(void)
{
    for (int mode = 0; mode < 3; mode++) {
        int spin = mode == 1;
        mpp_sim_config c;
        machine(&c);
        mpp_program prog[16] = {{0}};
        mpp_op app = {.code = MPP_OP_APP};
        prog[0] = (mpp_program){&app, 1};
        prog[1] = (mpp_program){&app, 1};
        mpp_err err;
        yield_app a = {.spin = spin, .bound = mode == 2};
        int rc = run_app(&c, prog, yield_handler, yield_start, &a, &err);
        if (spin) {
            CHECKF(rc != 0 && strstr(err.msg, "yields again and again"), "spin: %d %s", rc,
                   err.msg);
        } else {
            CHECKF(rc == 0, "%s", rc ? err.msg : "");
            CHECK(a.units == 5 && a.got == 3);
            if (a.bound) {
                /* one message a poll point: after units 1, 2 and 3 */
                for (uint32_t i = 0; i < 3; i++)
                    CHECKF(a.at_unit[i] == i, "bounded: message %u read after unit %u", i,
                           a.at_unit[i]);
                CHECKF(a.cont_at[0] == 100 + 19, "bounded: first continuation at %llu",
                       (unsigned long long)a.cont_at[0]);
                continue;
            }
            /* the messages (written at 10, 20, 30, in by about 60) are read
             * at the first poll point, after the first unit, one after the
             * other (10 + 2 + 7 cycles each) before the second unit */
            for (uint32_t i = 0; i < 3; i++)
                CHECKF(a.at_unit[i] == 0, "message %u read after unit %u", i, a.at_unit[i]);
            CHECKF(a.cont_at[0] == 100 + 3 * 19, "first continuation at %llu",
                   (unsigned long long)a.cont_at[0]);
            for (uint32_t u = 1; u < 5; u++)
                CHECK(a.cont_at[u] == a.cont_at[u - 1] + 100);
        }
    }
}

static uint64_t am_latency(int delivery, uint64_t *interrupts)
{
    mpp_sim_config c;
    machine(&c);
    c.node.delivery = delivery;
    mpp_program prog[16] = {{0}};
    mpp_op am = {.code = MPP_OP_AM, .peer = 3};
    /* the receiver is busy computing when the message arrives, then polls */
    mpp_op busy[2] = {{.code = MPP_OP_COMPUTE, .bytes = 300}, {.code = MPP_OP_POLL}};
    prog[0] = (mpp_program){&am, 1};
    prog[3] = (mpp_program){busy, 2};
    mpp_sim *s = NULL;
    mpp_sim_result r;
    CHECK(run(&c, prog, NULL, &r, &s) == 0);
    uint64_t lat = 0;
    if (s && mpp_sim_message_count(s) == 1) {
        mpp_message_record m;
        mpp_sim_message_get(s, 0, &m);
        lat = m.delivered - m.issue;
    }
    *interrupts = r.interrupts;
    mpp_sim_destroy(s);
    return lat;
}

static void test_interrupt_vs_poll(void)
{
    uint64_t ip, ii;
    uint64_t poll = am_latency(MPP_DELIVER_POLL, &ip);
    uint64_t intr = am_latency(MPP_DELIVER_INTERRUPT, &ii);
    printf("active message: %llu cycles polled, %llu on interrupt\n", (unsigned long long)poll,
           (unsigned long long)intr);
    CHECK(poll > 0 && intr > poll);
    CHECK(ip == 0 && ii == 1);
}

static void test_am_put(void)
{
    mpp_sim_config c;
    machine(&c);
    mpp_program prog[16] = {{0}};
    mpp_op put = {.code = MPP_OP_SEND, .paradigm = MPP_PARADIGM_AM_PUT, .peer = 6, .bytes = 100};
    mpp_op port[2] = {{.code = MPP_OP_IRECV, .peer = 2}, {.code = MPP_OP_WAIT}};
    prog[2] = (mpp_program){&put, 1};
    prog[6] = (mpp_program){port, 2};
    trace *t = calloc(1, sizeof *t);
    mpp_sim *s = NULL;
    CHECK(run(&c, prog, t, NULL, &s) == 0);
    CHECKF(t->n == 7, "%d packets", t->n); /* 100 bytes = 7 packets of 16 */
    uint64_t last = 0;
    for (int i = 0; i < t->n; i++) {
        CHECK(kind(&t->r[i]) == 5);
        if (t->r[i].delivered > last)
            last = t->r[i].delivered;
    }
    if (s && mpp_sim_message_count(s) == 1) {
        mpp_message_record m;
        mpp_sim_message_get(s, 0, &m);
        /* the handler runs once, after the last packet is read */
        CHECK(m.delivered >= last + 2 + 10 + 7);
        CHECK(m.packets == 7);
    }
    mpp_sim_destroy(s);
    free(t);
}

static void test_async(void)
{
    mpp_sim_config c;
    machine(&c);
    mpp_program prog[16] = {{0}};
    mpp_op a[2] = {{.code = MPP_OP_ISEND, .paradigm = MPP_PARADIGM_ASYNC, .peer = 9, .bytes = 32},
                   {.code = MPP_OP_WAIT}};
    mpp_op b[2] = {{.code = MPP_OP_IRECV, .peer = 1}, {.code = MPP_OP_WAIT}};
    prog[1] = (mpp_program){a, 2};
    prog[9] = (mpp_program){b, 2};
    mpp_sim_result r;
    CHECK(run(&c, prog, NULL, &r, NULL) == 0);
    CHECK(r.messages == 1);
    /* REQ and REPLY, then the 2 data packets: at least one interrupt */
    CHECKF(r.interrupts >= 3 && r.interrupts <= 4, "%llu interrupts",
           (unsigned long long)r.interrupts);

    /* The data of an async message is read by interrupt; a handler that
     * finds the next packet already waiting reads it before it returns.
     * A slow reader (the FIFO never empties): one interrupt for all 64
     * data packets. A fast reader of a slow writer: one per packet. The
     * match walk: with 3 more receives posted before it, each data packet
     * costs async_match_cycles x 4 more (the receive is 4th in the list). */
    mpp_op a2[2] = {{.code = MPP_OP_ISEND, .paradigm = MPP_PARADIGM_ASYNC, .peer = 9,
                     .bytes = 64 * 16},
                    {.code = MPP_OP_WAIT}};
    mpp_op b2[5] = {{.code = MPP_OP_IRECV, .peer = 2}, {.code = MPP_OP_IRECV, .peer = 3},
                    {.code = MPP_OP_IRECV, .peer = 4}, {.code = MPP_OP_IRECV, .peer = 1},
                    {.code = MPP_OP_WAIT}};
    mpp_op b3[2] = {{.code = MPP_OP_IRECV, .peer = 1}, {.code = MPP_OP_WAIT}};
    prog[1] = (mpp_program){a2, 2};
    prog[9] = (mpp_program){b3, 2};
    c.node.recv_packet_cycles = 200;
    CHECK(run(&c, prog, NULL, &r, NULL) == 0);
    CHECKF(r.interrupts == 3, "slow reader: %llu interrupts", (unsigned long long)r.interrupts);
    c.node.recv_packet_cycles = 2;
    c.node.send_packet_cycles = 100;
    CHECK(run(&c, prog, NULL, &r, NULL) == 0);
    CHECKF(r.interrupts == 2 + 64, "slow writer: %llu interrupts",
           (unsigned long long)r.interrupts);
    /* the match walk: nodes 2, 3, 4 send one packet late; node 9 posts
     * their receives before (r1) or after (r0) node 1's */
    mpp_op late[3] = {{.code = MPP_OP_COMPUTE, .bytes = 100000},
                      {.code = MPP_OP_ISEND, .paradigm = MPP_PARADIGM_ASYNC, .peer = 9, .bytes = 16},
                      {.code = MPP_OP_WAIT}};
    mpp_op b4[5] = {{.code = MPP_OP_IRECV, .peer = 1}, {.code = MPP_OP_IRECV, .peer = 2},
                    {.code = MPP_OP_IRECV, .peer = 3}, {.code = MPP_OP_IRECV, .peer = 4},
                    {.code = MPP_OP_WAIT}};
    for (int k = 2; k <= 4; k++)
        prog[k] = (mpp_program){late, 3};
    c.node.async_match_cycles = 50;
    c.node.send_packet_cycles = 1000; /* every packet its own interrupt in both runs */
    mpp_sim_result r0, r1;
    prog[9] = (mpp_program){b4, 5};
    CHECK(run(&c, prog, NULL, &r0, NULL) == 0);
    prog[9] = (mpp_program){b2, 5};
    CHECK(run(&c, prog, NULL, &r1, NULL) == 0);
    CHECK(r0.messages == 4 && r1.messages == 4);
    /* node 1's receive is 4th instead of 1st: 3 x 50 cycles more for each
     * of its 64 packets (10 MHz CPU) */
    double extra = r1.recv_busy_mean_ms - r0.recv_busy_mean_ms;
    CHECKF(fabs(extra * 16 - 64 * 3 * 50 / 10e3) < 1e-6, "match walk: %.6f ms more over 16 nodes",
           extra * 16);
}

static void test_time_and_barrier(void)
{
    mpp_sim_config c;
    machine(&c);
    c.net.net_mhz = 5;
    c.node.cpu_mhz = 33;
    c.node.barrier_cycles = 7;
    mpp_program prog[16] = {{0}};
    mpp_op ops[16][2];
    for (int n = 0; n < 16; n++) {
        /* 33000 CPU cycles = 1 ms = 5000 network cycles, exactly */
        ops[n][0] = (mpp_op){.code = MPP_OP_COMPUTE, .bytes = n == 4 ? 33000u * 3 : 33000u};
        ops[n][1] = (mpp_op){.code = MPP_OP_BARRIER};
        prog[n] = (mpp_program){ops[n], 2};
    }
    mpp_sim_result r;
    CHECK(run(&c, prog, NULL, &r, NULL) == 0);
    CHECKF(r.makespan == 15000 + 7 + 1, "makespan %llu", (unsigned long long)r.makespan);
}

static void test_protocol_deadlock(void)
{
    mpp_sim_config c;
    machine(&c);
    c.net.watchdog_cycles = 3000;
    mpp_program prog[16] = {{0}};
    mpp_op s0 = {.code = MPP_OP_SEND, .paradigm = MPP_PARADIGM_SYNC, .peer = 1, .bytes = 16};
    mpp_op s1 = {.code = MPP_OP_SEND, .paradigm = MPP_PARADIGM_SYNC, .peer = 0, .bytes = 16};
    prog[0] = (mpp_program){&s0, 1};
    prog[1] = (mpp_program){&s1, 1};
    mpp_sim *s = NULL;
    int rc = run(&c, prog, NULL, NULL, &s);
    CHECKF(rc == MPP_EDEADLOCK, "rc %d", rc);
    if (s) {
        const char *rep = mpp_sim_report(s);
        CHECK(strstr(rep, "processor 0") && strstr(rep, "waits for the reply"));
    }
    mpp_sim_destroy(s);
}

/* Node 0 puts 40 packets to node 15, which computes for `wait` cycles
 * before it posts its receive, with FIFOs of 2 packets and 5-flit router
 * buffers (watchdog: 0 keeps the default). Returns run()'s status. */
static int backed_up(uint64_t wait, uint64_t watchdog, mpp_sim_result *r, mpp_sim **keep)
{
    mpp_sim_config c;
    machine(&c);
    c.node.recv_fifo_packets = 2;
    c.node.send_fifo_packets = 2;
    c.net.buffer_flits = 5;
    if (watchdog)
        c.net.watchdog_cycles = watchdog;
    mpp_program prog[16] = {{0}};
    mpp_op put = {.code = MPP_OP_SEND, .paradigm = MPP_PARADIGM_AM_PUT, .peer = 15, .bytes = 16 * 40};
    mpp_op late[3] = {{.code = MPP_OP_COMPUTE, .bytes = wait}, {.code = MPP_OP_IRECV, .peer = 0},
                      {.code = MPP_OP_WAIT}};
    prog[0] = (mpp_program){&put, 1};
    prog[15] = (mpp_program){late, 3};
    return run(&c, prog, NULL, r, keep);
}

/* A receive FIFO that is not drained fills and backs up the network: the
 * sender's packets stay in the network and its send FIFO, and it finishes
 * only after the receiver starts reading. */
static void test_backpressure(void)
{
    mpp_sim_result r;
    CHECK(backed_up(5000, 0, &r, NULL) == 0);
    /* 40 packets cannot all fit in the FIFOs and the network's buffers
     * between 0 and 15 (2 + 2 packets of FIFO, 1 packet per VC buffer) */
    CHECKF(r.send_done_max_ms * 1e4 > 5000, "sender finished at %.0f cycles", r.send_done_max_ms * 1e4);
    CHECK(r.recv_fifo_peak == 2); /* the receive FIFO filled up */
}

/* A processor computing longer than watchdog_cycles while the network is
 * backed up behind its full receive FIFO is busy, not deadlocked: the run
 * ends normally (the drs_n back-off at n = 256 was once stopped as a
 * deadlock this way). A real deadlock is still reported (test above). */
static void test_busy_not_deadlock(void)
{
    mpp_sim_result r;
    mpp_sim *s = NULL;
    int rc = backed_up(20000, 3000, &r, &s);
    CHECKF(rc == 0, "rc %d: %s", rc, s ? mpp_sim_report(s) : "");
    CHECKF(r.makespan > 20000, "makespan %llu", (unsigned long long)r.makespan);
    CHECK(r.recv_fifo_peak == 2);
    mpp_sim_destroy(s);
}

/* The same behind a computation of 2^40 CPU cycles: the network is at a
 * fixed point until the receiver acts, and the run jumps there instead of
 * stepping 10^12 cycles (a hang before); the cycles after the computation
 * are those of a 20000-cycle one. (That the jump equals stepping was
 * checked on a drs_n run, docs/model.md.) */
static void test_settled_jump(void)
{
    uint64_t span[2];
    for (int k = 0; k < 2; k++) {
        uint64_t wait = k ? (uint64_t)1 << 40 : 20000;
        mpp_sim_result r;
        double t0 = mpp_host_seconds();
        CHECK(backed_up(wait, 0, &r, NULL) == 0);
        CHECKF(mpp_host_seconds() - t0 < 5, "%.1f s", mpp_host_seconds() - t0);
        span[k] = r.makespan - wait; /* cpu_mhz = net_mhz: cycles match */
    }
    CHECKF(span[0] == span[1], "after the computation: %llu and %llu cycles",
           (unsigned long long)span[0], (unsigned long long)span[1]);
}

/* Every paradigm completes a messages workload whose pattern is not
 * one-to-one (some nodes receive from several senders). */
static void test_paradigms_shapes(void)
{
    for (int par = 0; par < 4; par++)
        for (int shape = 0; shape < 2; shape++) {
            mpp_sim_config c;
            machine(&c);
            static const char *const shapes[] = {"permutation", "gather"};
            test_set(&c, "workload.type", "messages");
            test_set(&c, "workload.paradigm", "%s", mpp_paradigm_names[par]);
            test_set(&c, "workload.shape", "%s", shapes[shape]);
            test_set(&c, "workload.pattern", "single-random");
            test_set(&c, "workload.bytes", "200");
            test_set(&c, "workload.senders", "9");
            test_set(&c, "workload.receiver", "12");
            mpp_sim_result r;
            int rc = run(&c, NULL, NULL, &r, NULL);
            CHECKF(rc == 0 && r.messages == (shape ? 9u : 16u),
                   "paradigm %d shape %d: rc %d, %llu messages", par, shape, rc,
                   (unsigned long long)r.messages);
        }
}

/* Makespan of programs prog on c (0 when the run fails). */
static uint64_t makespan(mpp_sim_config *c, mpp_program *prog)
{
    mpp_sim_result r;
    if (run(c, prog, NULL, &r, NULL) != 0)
        return 0;
    return r.makespan;
}

/* prog: node 0 sends 64 x 16 bytes (sync) to node 5, which receives them;
 * the operations live in *send and *recv. */
static void one_way(mpp_program *prog, mpp_op *send, mpp_op *recv)
{
    *send = (mpp_op){.code = MPP_OP_SEND, .paradigm = MPP_PARADIGM_SYNC, .peer = 5,
                     .bytes = 64 * 16};
    *recv = (mpp_op){.code = MPP_OP_RECV, .peer = 0};
    prog[0] = (mpp_program){send, 1};
    prog[5] = (mpp_program){recv, 1};
}

/* switch_cycles: a receiver of two interleaved messages pays it on the
 * packets that change message; a one-way transfer never, nor a SENDRECV
 * (its send loop and its receive loop each handle one message). */
static void test_switch(void)
{
    mpp_sim_config c;
    machine(&c);
    mpp_program prog[16] = {{0}};
    /* one-way: 64 packets, no switch */
    mpp_op send, recv;
    one_way(prog, &send, &recv);
    uint64_t base = makespan(&c, prog);
    c.node.switch_cycles = 100;
    CHECKF(makespan(&c, prog) == base, "one-way with switch_cycles: %llu against %llu",
           (unsigned long long)makespan(&c, prog), (unsigned long long)base);
    /* an exchange: each side alternates writing its message and reading its
     * partner's, but each loop stays with one message */
    mpp_op sr0 = {.code = MPP_OP_SENDRECV, .paradigm = MPP_PARADIGM_SYNC, .peer = 5, .peer2 = 5,
                  .bytes = 64 * 16};
    mpp_op sr5 = {.code = MPP_OP_SENDRECV, .paradigm = MPP_PARADIGM_SYNC, .peer = 0, .peer2 = 0,
                  .bytes = 64 * 16};
    prog[0] = (mpp_program){&sr0, 1};
    prog[5] = (mpp_program){&sr5, 1};
    c.node.switch_cycles = 0;
    uint64_t ex0 = makespan(&c, prog);
    c.node.switch_cycles = 100;
    uint64_t ex1 = makespan(&c, prog);
    CHECKF(ex1 == ex0 && ex0 > 0, "exchange: %llu against %llu", (unsigned long long)ex1,
           (unsigned long long)ex0);
    /* a gather: nodes 0 and 10 each send 64 packets to node 5, whose
     * receive loop meets the two messages interleaved */
    mpp_op g0 = {.code = MPP_OP_SEND, .paradigm = MPP_PARADIGM_SYNC, .peer = 5, .bytes = 64 * 16};
    mpp_op g5[3] = {{.code = MPP_OP_IRECV, .peer = MPP_ANY},
                    {.code = MPP_OP_IRECV, .peer = MPP_ANY},
                    {.code = MPP_OP_WAIT}};
    prog[0] = (mpp_program){&g0, 1};
    prog[10] = (mpp_program){&g0, 1};
    prog[5] = (mpp_program){g5, 3};
    c.node.switch_cycles = 0;
    uint64_t ga0 = makespan(&c, prog);
    c.node.switch_cycles = 100;
    uint64_t ga1 = makespan(&c, prog);
    /* the receiver switches on part of its 128 packets (39 here) and at most
     * on every one; the senders never */
    CHECKF(ga1 > ga0 + 100 * 16 && ga1 <= ga0 + 100 * 128, "gather: %llu against %llu",
           (unsigned long long)ga1, (unsigned long long)ga0);
}

/* nic: dma: per packet the message co-processor works dma_packet_cycles
 * (one co-processor for both directions) and a DMA engine moves its words
 * at dma_word_cycles each (one engine per direction): a one-way message of
 * 64 packets takes about 64 packet times, an exchange about the same when
 * the DMA dominates (the engines overlap) and twice that when the
 * co-processor does; a processor-driven NIC takes the sum; the processor
 * computes while the data moves; the request does not leave before the
 * call that makes it has ended. */
static void test_dma(void)
{
    mpp_sim_config c;
    machine(&c);
    c.net.nic = MPP_NIC_DMA;
    c.node.dma_packet_cycles = 4;
    c.node.dma_word_cycles = 4; /* 5 words a packet: 24 cycles, 20 of them DMA */
    c.node.send_packet_cycles = 1000; /* unused by nic: dma */
    c.node.recv_packet_cycles = 1000;
    mpp_program prog[16] = {{0}};
    mpp_op send, recv;
    one_way(prog, &send, &recv);
    uint64_t one = makespan(&c, prog);
    CHECKF(one >= 64 * 24 && one < 64 * 24 + 200, "one-way: %llu cycles", (unsigned long long)one);
    /* the software cost of the send delays the request by as much */
    c.node.send_msg_cycles = 500;
    uint64_t slow = makespan(&c, prog);
    CHECKF(slow >= one + 500 && slow < one + 520, "send_msg_cycles 500: %llu cycles (%llu without)",
           (unsigned long long)slow, (unsigned long long)one);
    c.node.send_msg_cycles = 0;
    mpp_op sr0 = {.code = MPP_OP_SENDRECV, .paradigm = MPP_PARADIGM_SYNC, .peer = 5, .peer2 = 5,
                  .bytes = 64 * 16};
    mpp_op sr5 = {.code = MPP_OP_SENDRECV, .paradigm = MPP_PARADIGM_SYNC, .peer = 0, .peer2 = 0,
                  .bytes = 64 * 16};
    prog[0] = (mpp_program){&sr0, 1};
    prog[5] = (mpp_program){&sr5, 1};
    uint64_t ex = makespan(&c, prog);
    CHECKF(ex >= 64 * 24 && ex < 64 * 24 + 300, "exchange: %llu cycles (one-way %llu)",
           (unsigned long long)ex, (unsigned long long)one);
    /* the co-processor's work is shared by both directions */
    c.node.dma_packet_cycles = 24;
    c.node.dma_word_cycles = 0;
    uint64_t mcp = makespan(&c, prog);
    CHECKF(mcp >= 2 * 64 * 24 && mcp < 2 * 64 * 24 + 300, "co-processor-bound exchange: %llu",
           (unsigned long long)mcp);
    /* the same exchange with the processor moving the packets costs the sum */
    c.net.nic = MPP_NIC_MODEL;
    c.node.send_packet_cycles = 24;
    c.node.recv_packet_cycles = 24;
    c.node.poll_cycles = 0;
    uint64_t cpu = makespan(&c, prog);
    CHECKF(cpu > 2 * 64 * 24, "processor-driven exchange: %llu cycles", (unsigned long long)cpu);
    /* overlap: ISEND, 3000 cycles of computation, WAIT: the computation
     * hides the transfer */
    c.net.nic = MPP_NIC_DMA;
    c.node.dma_packet_cycles = 4;
    c.node.dma_word_cycles = 4;
    mpp_op isend[3] = {{.code = MPP_OP_ISEND, .paradigm = MPP_PARADIGM_SYNC, .peer = 5,
                        .bytes = 64 * 16},
                       {.code = MPP_OP_COMPUTE, .bytes = 3000},
                       {.code = MPP_OP_WAIT}};
    prog[0] = (mpp_program){isend, 3};
    prog[5] = (mpp_program){&recv, 1};
    uint64_t ov = makespan(&c, prog);
    CHECKF(ov >= 3000 && ov < 3000 + 100, "ISEND + COMPUTE + WAIT: %llu cycles",
           (unsigned long long)ov);
}

/* nic: dma with dma_stream: a packet enters the network as its engine
 * starts it and its flits leave no faster than the engine moves them. A
 * one-way message of 4 packets of 65 flits (264 engine cycles each) then
 * ends about one packet's network time earlier than with packets that
 * enter whole, and not before the sender's engine and then the
 * receiver's have moved its last packet (the pace holds);
 * two such flows through one link with one VC and 2-flit buffers take
 * turns for whole packets (a packet holds its path while it is fed, and a
 * flit held up delays the ones after it), which they do not when they
 * stream into idle paths. */
static void test_dma_stream(void)
{
    mpp_sim_config c;
    machine(&c);
    c.net.nic = MPP_NIC_DMA;
    c.net.vcs = 1;
    c.net.buffer_flits = 2; /* a packet does not fit in one buffer: it holds its path */
    c.node.interfaces = 1;
    c.node.payload_words = 64;
    c.node.dma_packet_cycles = 4;
    c.node.dma_word_cycles = 4; /* 4 + 65 x 4 = 264 cycles a packet of 65 flits */
    mpp_program prog[16] = {{0}};
    mpp_op s0 = {.code = MPP_OP_SEND, .paradigm = MPP_PARADIGM_SYNC, .peer = 12, .bytes = 1024};
    mpp_op s4 = {.code = MPP_OP_SEND, .paradigm = MPP_PARADIGM_SYNC, .peer = 8, .bytes = 1024};
    mpp_op s1 = {.code = MPP_OP_SEND, .paradigm = MPP_PARADIGM_SYNC, .peer = 13, .bytes = 1024};
    mpp_op r12 = {.code = MPP_OP_RECV, .peer = 0}, r8 = {.code = MPP_OP_RECV, .peer = 4};
    mpp_op r13 = {.code = MPP_OP_RECV, .peer = 1};
    prog[0] = (mpp_program){&s0, 1};
    prog[12] = (mpp_program){&r12, 1};
    uint64_t one[2], shared[2], apart[2];
    for (int st = 0; st < 2; st++) {
        c.node.dma_stream = st;
        prog[4] = prog[8] = prog[1] = prog[13] = (mpp_program){0};
        one[st] = makespan(&c, prog);
        prog[4] = (mpp_program){&s4, 1}; /* 4 -> 8 shares the link 4 -> 8 with 0 -> 12 */
        prog[8] = (mpp_program){&r8, 1};
        shared[st] = makespan(&c, prog);
        prog[4] = prog[8] = (mpp_program){0};
        prog[1] = (mpp_program){&s1, 1}; /* 1 -> 13: a column of its own */
        prog[13] = (mpp_program){&r13, 1};
        apart[st] = makespan(&c, prog);
    }
    /* the last packet is whole at the receiver only when the sender's
     * engine has fed all of it; then the receive engine moves it */
    CHECKF(one[1] >= 5 * 264 && one[1] + 60 <= one[0],
           "one flow: streamed %llu cycles, whole packets %llu", (unsigned long long)one[1],
           (unsigned long long)one[0]);
    CHECKF(apart[1] == one[1], "two flows apart, streamed: %llu cycles (one: %llu)",
           (unsigned long long)apart[1], (unsigned long long)one[1]);
    /* a flit held up delays the ones after it (no catching up): the two
     * flows take turns for whole packets (about 1.6 x one flow; with
     * catching up they would overlap, about 1.06 x) */
    CHECKF(shared[1] * 10 > one[1] * 14 && shared[1] > shared[0],
           "two flows through one link, streamed: %llu cycles (one: %llu, whole packets: %llu)",
           (unsigned long long)shared[1], (unsigned long long)one[1],
           (unsigned long long)shared[0]);
}

int main(void)
{
    test_paradigms_shapes();
    test_sync_sequence();
    test_am();
    test_am_args();
    test_app_reduce();
    test_yield();
    test_interrupt_vs_poll();
    test_am_put();
    test_async();
    test_time_and_barrier();
    test_protocol_deadlock();
    test_backpressure();
    test_busy_not_deadlock();
    test_settled_jump();
    test_switch();
    test_dma();
    test_dma_stream();
    TEST_DONE();
}
