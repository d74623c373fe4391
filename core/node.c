/* core/node.c — node processors, their programs and the messaging
 * paradigms, over the network interface model (see node.h).
 *
 * Time. A processor keeps its own time f in CPU cycles. Network cycle t
 * starts at CPU time ceil(t x C / N) (N, C: the network and CPU clocks in
 * kHz, integers, so the mapping is exact and nothing accumulates). At cycle
 * t a free processor (net_floor(f) <= t) chooses one action, which starts
 * at max(f, cpu_ceil(t)) and costs CPU cycles; its packets are ready for
 * the NIC at net_ceil(f) after it. It then acts again in the cycle its time
 * falls in (a fast processor does several actions per network cycle).
 *
 * The NIC. Each node has `interfaces` interfaces (message classes); each has
 * a send FIFO (the engine's source queue for the class, send_fifo_packets
 * deep) and a receive FIFO (recv_fifo_packets packets; the router's
 * ejection port holds credits for it, so a full receive FIFO stops ejection
 * and backs the network up — node contention emerges from this). With
 * `interfaces: 2` the handshake (requests and replies) travels on
 * interface 1 and data on interface 0 (the CM-5's left and right
 * networks), so the handshake is never blocked behind data; the processor
 * looks at interface 1 first.
 *
 * All-port on a mesh or hypercube (node.ports: all, env.queue_for): each
 * node link has its own send FIFO per interface, send_fifo_packets deep,
 * and a packet goes to the one of the link paired with its first hop
 * (core/sim.c decides; queue_for says which, without changing anything).
 * A processor with data of several messages writes them one packet at a
 * time, round-robin over the messages whose link FIFO has room (data_pick,
 * data_turn), so it feeds all its links. Everywhere else (one-port, auto,
 * the fat tree's shared FIFO) nothing of this applies.
 *
 * Packets of a message (kind in the packet's tag, with the message id):
 *
 *   sync (blocking, three-phase; CMMD send/receive):
 *     sender                               receiver
 *     SEND: send_msg_cycles, write REQ --->  read REQ: a posted receive
 *           wait (reading packets)           matches it (or it waits in
 *                                  <---      the pending list); write REPLY
 *     read REPLY, write every DATA  ---->    read DATA ... RECV completes
 *     (not reading meanwhile), SEND          when the last is read
 *     completes when the last is written
 *   SENDRECV posts its receive first and alternates writing its DATA with
 *   reading (as CMAML does), so the pairs of a permutation phase that form
 *   a cycle cannot deadlock.
 *   async: ISEND/IRECV return at once; REQ, REPLY and DATA are read by
 *     interrupt handlers (interrupt_cycles; a handler that finds the next
 *     interrupt-class packet waiting reads it for poll_cycles), the REPLY
 *     handler writes every DATA packet; each DATA packet also pays
 *     async_match_cycles per posted receive walked to find its own.
 *   am: each packet is an active message; its handler (handler_cycles) runs
 *     when the processor polls (poll_cycles) or on interrupt
 *     (interrupt_cycles), as `delivery` says; no handshake.
 *   am_put: a stream of PUT packets into an agreed receive port, no
 *     handshake; one handler runs when the byte count reaches zero.
 *   Every DATA packet a processor reads whose message is not the one of
 *   the last DATA packet it read, and every one it writes whose message is
 *   not the one of the last it wrote, costs switch_cycles more (the receive
 *   loop and the send loop each keep one message's state at hand): a
 *   receiver of several interleaved messages pays it on most packets; a
 *   one-way transfer and a SENDRECV (its send and its receive are each one
 *   message) do not.
 *   The application (MPP_OP_APP's callbacks) may also start sync, async
 *   or am_put messages and post receives itself (mpp_node_send_msg,
 *   mpp_node_post_recv: same packets, same costs) and hears of their end
 *   through its handler (MPP_APP_SENT, MPP_APP_RECVD); see "application
 *   handlers" below.
 *
 * Choice of action of a free processor (node_act), in order:
 *   1. an interrupt: the head packet of a receive FIFO is interrupt-class;
 *   2. a control packet to write (REQ, REPLY, AM) when its FIFO has room;
 *   3. inside a SENDRECV (or a SEND while receives are posted), data to
 *      write and packets to read: alternate;
 *   4. data to write (a blocking send's, or a handler's);
 *   5. a packet to read, when reading is allowed (the processor waits, polls
 *      or is in a SENDRECV; a blocking SEND writing its data reads only for
 *      receives posted with IRECV; between two operations it does not read:
 *      the program's next call comes first);
 *   6. the next operation of the program;
 *   7. nothing: sleep until a packet arrives, FIFO room appears or the
 *      barrier is released.
 *
 * nic: dma (the Paragon's message co-processor): the processor only runs
 * the program (start_op, op_complete: program_act); a send engine (tx_act)
 * writes the control and data packets and a receive engine (rx_act) reads
 * every packet (read_packet's protocol, its costs on the engine), each on
 * its own clock (tx_f, rx_f) at dma_packet_cycles + words x
 * dma_word_cycles a packet, concurrently; dma_step lets the three act in
 * turn within a network cycle until none can, then sleeps until the
 * earliest of their next actions. No interrupts, no polling costs, no
 * switch_cycles; handlers run on the receive engine. With dma_stream a
 * packet enters the send FIFO when its engine starts it (after the
 * co-processor is free) and carries a pace: the network lets each of its
 * flits go no earlier than engine cost / flits after the one before (a
 * flit held up delays the rest), so it holds its wormhole path while it
 * is fed (mpp_net_inject).
 *
 * Invariants:
 *   1. a node is in the wake heap at most once with its current wake_at
 *      (stale heap entries are skipped);
 *   2. outstanding == background sends + posted receives not complete;
 *   3. a message's written <= packets and received <= packets.
 */
#include "core/node.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/ckd.h"
#include "core/base/heap.h"
#include "core/base/vec.h"

enum { PK_REQ = 1, PK_REPLY = 2, PK_DATA = 3, PK_AM = 4, PK_PUT = 5 };
enum { ST_RUN = 0, ST_BLOCKED = 1, ST_DONE = 2 };
enum { NOTIFY_SENT = 1, NOTIFY_RECVD = 2 };
enum { RED_NONE = 0, RED_WAIT = 1, RED_IN = 2 }; /* an application reduction: none, asked
                                                    (its writes pending), entered */

#define NONE 0xffffffffu
/* Continuations in a row that cost nothing before an application that only
 * yields is stopped (it would hold its processor in one cycle for ever). */
#define MAX_IDLE_CONTS 1000000u
#define NEVER UINT64_MAX

typedef struct msg {
    uint32_t src, dst, tag;
    uint64_t bytes;
    uint32_t npk;
    uint8_t paradigm;
    uint8_t replied;    /* sender read the REPLY */
    uint8_t background; /* ISEND: completes without the program waiting */
    uint8_t data_queued;
    uint8_t unmatched;  /* an AM operation's packet: never matches a receive */
    uint8_t notify;     /* NOTIFY_*: the application hears of its end (mpp_node_send_msg,
                           mpp_node_post_recv) */
    uint8_t nargs;      /* an active message's argument words (mpp_node_send_am_args) */
    uint8_t strata;     /* written by Strata's send (mpp_node_send_strata) */
    uint32_t args[MPP_AM_MAX_ARGS];
    uint32_t written, received;
    uint32_t recv;      /* matched posted receive at dst, or NONE */
    uint64_t issue, first_inject, delivered;
    uint64_t hops;
    uint64_t ready;     /* nic: dma: CPU time from which the engine may write the data
                           (the end of the handler call that sent it; 0: at once) */
} msg;

typedef struct precv {
    uint64_t ready;     /* CPU time the processor has finished posting it (nic: dma:
                           its reply is written no earlier) */
    uint32_t src, tag;  /* MPP_ANY allowed */
    uint32_t msg;       /* matched message or NONE */
    uint8_t done, background;
    uint8_t notify;     /* posted by mpp_node_post_recv */
} precv;

typedef struct job {    /* packets to write */
    uint32_t msg;
    uint8_t kind;
    uint8_t handler;    /* written by an interrupt handler (always allowed) */
    uint64_t ready;     /* nic: dma: CPU time from which the engine may write it (the
                           processor's call that made it has ended) */
} job;

typedef mpp_u32vec vec;  /* growable uint32 vector (core/base/vec.h) */

typedef struct ring {   /* receive FIFO: packet handles */
    uint32_t *h;
    uint32_t head, n, cap;
} ring;

typedef struct node {
    mpp_op *ops;
    uint32_t nops, pc;
    int state;
    uint64_t f;            /* CPU time the processor is free */
    uint64_t tx_f, rx_f;   /* nic: dma: CPU time the send and receive engines are free */
    uint64_t mcp_f;        /* nic: dma: CPU time the message co-processor is free */
    uint64_t wake_at;      /* network cycle, or NEVER */
    /* the operation in progress (blocking ops) */
    bool op_active;
    uint32_t op_msg, op_recv;
    uint32_t barrier_epoch;
    /* work */
    job *ctrl;             /* control packets to write (FIFO) */
    uint32_t ctrl_head, ctrl_n, ctrl_cap;
    vec data;              /* messages with DATA/PUT/AM packets to write, in order */
    vec recvs;             /* indices into ns->precv posted here */
    vec pending;           /* messages whose first packet found no posted receive */
    uint32_t outstanding;
    bool alt;
    bool in_irq;           /* the last action read a packet in an interrupt handler */
    uint32_t last_data[2]; /* message of the last DATA packet written [0] and read [1], or NONE */
    uint32_t rr;           /* queue_for: index in data of the message to offer first */
    bool app_done;         /* the application released MPP_OP_APP */
    bool cont;             /* the application yielded (mpp_node_yield, mpp_node_poll) */
    uint32_t cont_reads;   /* packets it may still read before the continuation (a bounded
                              poll, mpp_node_poll), or NONE: every packet waiting */
    uint32_t idle_conts;   /* continuations in a row that cost nothing */
    uint8_t red;           /* the application's reduction (mpp_node_reduce): RED_* */
    uint32_t red_epoch;    /* RED_IN: the control network's epoch it entered */
    uint64_t red_value;    /* RED_WAIT: its value */
    int red_op;            /* RED_WAIT: its operation (mpp_reduce_op) */
    /* statistics */
    uint64_t send_done, recv_done;
    bool sends, recvs_any;
    uint64_t send_busy, recv_busy; /* CPU cycles */
    uint32_t send_peak, recv_peak;
} node;

struct mpp_node_ctx {
    mpp_nodes *ns;
    uint32_t n;
    uint64_t at;      /* CPU time the handler runs at */
    uint64_t cost;    /* CPU cycles the handler added */
    uint32_t nargs;   /* the argument words of the active message handled */
    const uint32_t *args;
};

struct mpp_nodes {
    mpp_node_config cfg;
    mpp_packetizer pk;
    mpp_am_handler handler;
    mpp_app_start app_start;
    void *handler_ud;
    uint32_t N, MC;
    uint64_t nk, ck;       /* clocks in kHz */
    mpp_net *net;
    mpp_srcq *q;           /* [N x MC] send FIFOs, or [links x MC] with queue_for */
    mpp_nodes_queue_fn queue_for; /* all-port on a direct network: a FIFO per link */
    bool (*push)(void *ud, uint32_t node, uint32_t cls, const mpp_src_entry *e);
    void *ud;
    uint32_t send_cap, recv_cap; /* FIFO depths in packets (UINT32_MAX: ideal) */
    uint32_t ctrl_flits, full_flits, payload_bytes;
    bool model;            /* nic: model or dma (bounded FIFOs) */
    bool stream;           /* nic: dma with dma_stream: paced packets */
    bool dma;              /* nic: dma (the engines move the packets) */
    node *nodes;
    ring *rx;              /* [N x MC] receive FIFOs */
    msg *msgs;
    uint32_t nmsgs, msgs_cap;
    precv *pr;
    uint32_t npr, pr_cap;
    vec delivered;         /* message ids in delivery order */
    mpp_heap heap;          /* wake-ups: (cycle, node) */
    /* control network */
    uint32_t barrier_in;
    uint64_t barrier_last;
    uint32_t barrier_epoch;
    uint64_t barrier_release;
    uint64_t red_acc;      /* the application reductions of the open epoch, combined */
    int red_op;            /* their operation, or -1 when none has entered */
    uint64_t red_result;   /* the last epoch's result */
    uint64_t interrupts;
    uint64_t busy_until;   /* network cycle the latest-ending action ends */
    uint32_t unfinished;
    /* operation recorder (record_ops): every operation started */
    bool record;
    struct rec { uint32_t node; uint64_t cycle; mpp_op op; } *rec;
    uint32_t nrec, rec_cap;
    bool oom;
    char fail[256];        /* mpp_node_fail: why the application stopped, or "" */
};

/* --- small containers -------------------------------------------------------- */

static void vec_remove_at(vec *v, uint32_t i)
{
    memmove(v->v + i, v->v + i + 1, (v->n - i - 1) * sizeof *v->v);
    v->n--;
}

static bool ctrl_push(node *nd, job j)
{
    if (nd->ctrl_n == nd->ctrl_cap) {
        uint32_t cap = nd->ctrl_cap ? nd->ctrl_cap * 2 : 8;
        job *p = malloc(cap * sizeof *p);
        if (!p)
            return false;
        for (uint32_t i = 0; i < nd->ctrl_n; i++)
            p[i] = nd->ctrl[(nd->ctrl_head + i) % nd->ctrl_cap];
        free(nd->ctrl);
        nd->ctrl = p;
        nd->ctrl_head = 0;
        nd->ctrl_cap = cap;
    }
    nd->ctrl[(nd->ctrl_head + nd->ctrl_n++) % nd->ctrl_cap] = j;
    return true;
}

/* --- time ---------------------------------------------------------------------- */

/* The clock conversions are exact through 128 bits (t x ck alone passes
 * 2^64 from t = 2^34 at 1 GHz) and saturate at UINT64_MAX (NEVER), past
 * MPP_CKD_TIME_MAX, where time_ok stops the run. */
static inline uint64_t cpu_ceil(const mpp_nodes *ns, uint64_t t)
{
    return mpp_ckd_muldiv(t, ns->ck, ns->nk, true);
}
static inline uint64_t net_floor(const mpp_nodes *ns, uint64_t f)
{
    return mpp_ckd_muldiv(f, ns->nk, ns->ck, false);
}
static inline uint64_t net_ceil(const mpp_nodes *ns, uint64_t f)
{
    return mpp_ckd_muldiv(f, ns->nk, ns->ck, true);
}

/* Node n's time f (CPU cycles) after an action: false, with the run's
 * failure set, when it or its network cycle passes MPP_CKD_TIME_MAX (the
 * sums of the configuration's costs would wrap; never a silent wrap). */
static bool time_ok(mpp_nodes *ns, uint32_t n, uint64_t f)
{
    if (f <= MPP_CKD_TIME_MAX && net_floor(ns, f) <= MPP_CKD_TIME_MAX)
        return true;
    if (!ns->fail[0])
        snprintf(ns->fail, sizeof ns->fail,
                 "node %u: the simulated time passes 2^62 cycles: the costs (node.*_cycles, "
                 "COMPUTE operations, the application's work) are too large to add up",
                 n);
    return false;
}

/* --- the wake heap (core/base/heap.h) --------------------------------------- */

/* Make node n act at cycle `at` (or earlier if it already will). */
static void wake(mpp_nodes *ns, uint32_t n, uint64_t at)
{
    node *nd = &ns->nodes[n];
    if (nd->state == ST_DONE || nd->wake_at <= at)
        return;
    nd->wake_at = at;
    if (!mpp_heap_push(&ns->heap, at, n))
        ns->oom = true;
}

/* --- create / destroy -------------------------------------------------------- */

uint64_t mpp_nodes_bytes(uint64_t N, uint32_t interfaces)
{
    mpp_nodes *ns = NULL; /* (sizeof of its members only) */
    return sizeof(mpp_nodes) + N * (sizeof(node) + (uint64_t)(interfaces ? interfaces : 1) *
                                                        sizeof *ns->rx +
                                    sizeof *ns->heap.e) +
           16 * sizeof *ns->heap.e;
}

mpp_nodes *mpp_nodes_create(const mpp_node_config *c, const mpp_nodes_env *env, uint32_t N,
                            mpp_net *net, mpp_srcq *q, mpp_nodes_push_fn push, void *ud,
                            const mpp_op *const *prog, const uint32_t *len, mpp_err *err)
{
    if (!(env->net_mhz > 0) || !(c->cpu_mhz > 0)) {
        mpp_err_set(err, MPP_EINVAL,
                    "node programs need both clocks: network.net_mhz and node.cpu_mhz must be > 0");
        return NULL;
    }
    if (c->interfaces < 1 || c->send_fifo_packets < 1 || c->recv_fifo_packets < 1) {
        mpp_err_set(err, MPP_EINVAL,
                    "node: interfaces and FIFO depths must all be at least 1");
        return NULL;
    }
    mpp_nodes *ns = calloc(1, sizeof *ns);
    if (!ns) {
        mpp_err_set(err, MPP_ENOMEM, "out of memory");
        return NULL;
    }
    ns->cfg = *c;
    ns->pk = *env->pk;
    ns->N = N;
    ns->MC = c->interfaces;
    ns->nk = (uint64_t)llround(env->net_mhz * 1000.0);
    ns->ck = (uint64_t)llround(c->cpu_mhz * 1000.0);
    if (ns->nk == 0 || ns->ck == 0) {
        free(ns);
        mpp_err_set(err, MPP_EINVAL, "clocks below 1 kHz are not supported");
        return NULL;
    }
    ns->net = net;
    ns->q = q;
    ns->queue_for = env->queue_for;
    ns->push = push;
    ns->ud = ud;
    ns->record = env->record_ops;
    ns->model = env->nic_model;
    ns->dma = env->nic_dma;
    ns->stream = ns->dma && c->dma_stream;
    ns->send_cap = ns->model ? c->send_fifo_packets : UINT32_MAX;
    ns->recv_cap = ns->model ? c->recv_fifo_packets : UINT32_MAX;
    ns->payload_bytes = ns->pk.payload_bytes;
    ns->ctrl_flits = ns->pk.full_flits;
    ns->full_flits = ns->ctrl_flits;
    ns->red_op = -1;
    ns->nodes = calloc(N, sizeof *ns->nodes);
    ns->rx = calloc((size_t)N * ns->MC, sizeof *ns->rx);
    if (!ns->nodes || !ns->rx || !mpp_heap_init(&ns->heap, N + 16))
        goto oom;
    for (uint32_t n = 0; n < N; n++) {
        node *nd = &ns->nodes[n];
        nd->wake_at = NEVER;
        nd->nops = len[n];
        nd->op_msg = nd->op_recv = nd->last_data[0] = nd->last_data[1] = NONE;
        if (len[n]) {
            nd->ops = malloc(len[n] * sizeof *nd->ops);
            if (!nd->ops)
                goto oom;
            memcpy(nd->ops, prog[n], len[n] * sizeof *nd->ops);
        }
        nd->state = len[n] ? ST_RUN : ST_DONE;
        if (len[n]) {
            ns->unfinished++;
            wake(ns, n, 0);
        }
    }
    return ns;
oom:
    mpp_nodes_destroy(ns);
    mpp_err_set(err, MPP_ENOMEM, "out of memory creating the node processors");
    return NULL;
}

void mpp_nodes_destroy(mpp_nodes *ns)
{
    if (!ns)
        return;
    if (ns->nodes)
        for (uint32_t n = 0; n < ns->N; n++) {
            node *nd = &ns->nodes[n];
            free(nd->ops);
            free(nd->ctrl);
            free(nd->data.v);
            free(nd->recvs.v);
            free(nd->pending.v);
        }
    if (ns->rx)
        for (size_t i = 0; i < (size_t)ns->N * ns->MC; i++)
            free(ns->rx[i].h);
    free(ns->nodes);
    free(ns->rx);
    free(ns->msgs);
    free(ns->pr);
    free(ns->delivered.v);
    free(ns->rec);
    mpp_heap_free(&ns->heap);
    free(ns);
}

/* --- messages and receives ------------------------------------------------- */

static uint32_t new_msg(mpp_nodes *ns, uint32_t src, const mpp_op *op, uint64_t now)
{
    if (ns->nmsgs == ns->msgs_cap) {
        uint32_t cap = ns->msgs_cap ? ns->msgs_cap * 2 : 64;
        msg *p = realloc(ns->msgs, cap * sizeof *p);
        if (!p) {
            ns->oom = true;
            return NONE;
        }
        ns->msgs = p;
        ns->msgs_cap = cap;
    }
    msg *m = &ns->msgs[ns->nmsgs];
    memset(m, 0, sizeof *m);
    m->src = src;
    m->dst = op->peer;
    m->tag = op->tag;
    m->bytes = op->bytes;
    m->npk = (uint32_t)mpp_packet_count(&ns->pk, op->bytes);
    m->paradigm = op->paradigm;
    m->recv = NONE;
    m->issue = now;
    m->first_inject = NEVER;
    return ns->nmsgs++;
}

static uint32_t new_recv(mpp_nodes *ns, uint32_t n, uint32_t src, uint32_t tag, bool bg,
                         uint64_t ready)
{
    if (ns->npr == ns->pr_cap) {
        uint32_t cap = ns->pr_cap ? ns->pr_cap * 2 : 64;
        precv *p = realloc(ns->pr, cap * sizeof *p);
        if (!p) {
            ns->oom = true;
            return NONE;
        }
        ns->pr = p;
        ns->pr_cap = cap;
    }
    precv *r = &ns->pr[ns->npr];
    r->ready = ready;
    r->src = src;
    r->tag = tag;
    r->msg = NONE;
    r->done = 0;
    r->background = bg;
    r->notify = 0;
    if (!mpp_u32vec_push(&ns->nodes[n].recvs, ns->npr))
        ns->oom = true;
    return ns->npr++;
}

static bool matches(const precv *r, const msg *m)
{
    return r->msg == NONE && (r->src == MPP_ANY || r->src == m->src) &&
           (r->tag == MPP_ANY || r->tag == m->tag);
}

/* Bind message mi to receive ri at node n; a sync/async request gets its
 * REPLY queued. */
static void precv_done(mpp_nodes *ns, uint32_t n, uint32_t ri);

static void bind(mpp_nodes *ns, uint32_t n, uint32_t ri, uint32_t mi)
{
    ns->pr[ri].msg = mi;
    ns->msgs[mi].recv = ri;
    if (ns->pr[ri].notify)
        ns->msgs[mi].notify |= NOTIFY_RECVD;
    if (ns->msgs[mi].received == ns->msgs[mi].npk) {
        /* a put stream that completed before its port was posted */
        precv_done(ns, n, ri);
        return;
    }
    uint8_t p = ns->msgs[mi].paradigm;
    if (p == MPP_PARADIGM_SYNC || p == MPP_PARADIGM_ASYNC) {
        job j = {mi, PK_REPLY, p == MPP_PARADIGM_ASYNC, ns->pr[ri].ready};
        if (!ctrl_push(&ns->nodes[n], j))
            ns->oom = true;
    }
}

/* A posted receive looks for a pending message (the oldest that matches). */
static void match_pending(mpp_nodes *ns, uint32_t n, uint32_t ri)
{
    node *nd = &ns->nodes[n];
    for (uint32_t i = 0; i < nd->pending.n; i++) {
        uint32_t mi = nd->pending.v[i];
        if (matches(&ns->pr[ri], &ns->msgs[mi])) {
            vec_remove_at(&nd->pending, i);
            bind(ns, n, ri, mi);
            return;
        }
    }
}

/* The first packet of message mi reached its destination's processor. */
static void first_contact(mpp_nodes *ns, uint32_t n, uint32_t mi)
{
    node *nd = &ns->nodes[n];
    for (uint32_t i = 0; i < nd->recvs.n; i++) {
        uint32_t ri = nd->recvs.v[i];
        if (matches(&ns->pr[ri], &ns->msgs[mi])) {
            bind(ns, n, ri, mi);
            return;
        }
    }
    if (!mpp_u32vec_push(&nd->pending, mi))
        ns->oom = true;
}

/* Posted receive ri of node n is satisfied. */
static void precv_done(mpp_nodes *ns, uint32_t n, uint32_t ri)
{
    node *nd = &ns->nodes[n];
    precv *r = &ns->pr[ri];
    r->done = 1;
    if (r->background)
        nd->outstanding--;
    for (uint32_t i = 0; i < nd->recvs.n; i++)
        if (nd->recvs.v[i] == ri) {
            vec_remove_at(&nd->recvs, i);
            break;
        }
}

static void recv_complete(mpp_nodes *ns, uint32_t n, uint32_t mi, uint64_t when)
{
    msg *m = &ns->msgs[mi];
    m->delivered = when;
    if (!mpp_u32vec_push(&ns->delivered, mi))
        ns->oom = true;
    node *nd = &ns->nodes[n];
    nd->recvs_any = true;
    if (when > nd->recv_done)
        nd->recv_done = when;
    if (m->recv != NONE)
        precv_done(ns, n, m->recv);
}

static void send_complete(mpp_nodes *ns, uint32_t n, uint32_t mi, uint64_t when)
{
    node *nd = &ns->nodes[n];
    nd->sends = true;
    if (when > nd->send_done)
        nd->send_done = when;
    if (ns->msgs[mi].background)
        nd->outstanding--;
}

/* --- the NIC side ------------------------------------------------------------ */

void mpp_nodes_arrive(mpp_nodes *ns, uint32_t n, uint32_t h, uint64_t c)
{
    const mpp_packet *p = &ns->net->pkt[h];
    ring *rg = &ns->rx[(size_t)n * ns->MC + p->mclass];
    if (rg->n == rg->cap) {
        uint32_t cap = rg->cap ? rg->cap * 2 : 16;
        uint32_t *nh = malloc(cap * sizeof *nh);
        if (!nh) {
            ns->oom = true;
            return;
        }
        for (uint32_t i = 0; i < rg->n; i++)
            nh[i] = rg->h[(rg->head + i) % rg->cap];
        free(rg->h);
        rg->h = nh;
        rg->head = 0;
        rg->cap = cap;
    }
    rg->h[(rg->head + rg->n++) % rg->cap] = h;
    node *nd = &ns->nodes[n];
    if (rg->n > nd->recv_peak)
        nd->recv_peak = rg->n;
    wake(ns, n, c);
}

void mpp_nodes_fifo_space(mpp_nodes *ns, uint32_t n, uint64_t c) { wake(ns, n, c); }

/* Room in node n's send FIFO of interface cls for a packet to dst (with a
 * FIFO per link: the one that packet would enter). */
static bool fifo_room(const mpp_nodes *ns, uint32_t n, uint32_t cls, uint32_t dst)
{
    if (ns->queue_for)
        return ns->queue_for(ns->ud, n, cls, dst)->count < ns->send_cap;
    return ns->q[(size_t)n * ns->MC + cls].count < ns->send_cap;
}

/* The fullest send FIFO of node n's interface cls (the only one, unless a
 * FIFO per link). */
static uint32_t fifo_occupancy(const mpp_nodes *ns, uint32_t n, uint32_t cls)
{
    if (!ns->queue_for)
        return ns->q[(size_t)n * ns->MC + cls].count;
    const mpp_topo *t = ns->net->topo;
    uint32_t occ = 0;
    for (uint32_t l = t->node_link_base[n]; l < t->node_link_base[n + 1]; l++)
        if (ns->q[(size_t)l * ns->MC + cls].count > occ)
            occ = ns->q[(size_t)l * ns->MC + cls].count;
    return occ;
}

/* Where a packet of kind for message m goes. */
static uint32_t packet_dst(const msg *m, uint8_t kind)
{
    return kind == PK_REPLY ? m->src : m->dst;
}

static uint32_t class_of(const mpp_nodes *ns, uint8_t kind)
{
    return (kind == PK_REPLY || kind == PK_REQ) && ns->MC > 1 ? 1 : 0;
}

/* The kind of message m's data packets. */
static uint8_t data_kind(const msg *m)
{
    return m->paradigm == MPP_PARADIGM_AM       ? PK_AM
           : m->paradigm == MPP_PARADIGM_AM_PUT ? PK_PUT
                                                : PK_DATA;
}

/* Flits of message m's next packet of `kind`: a DATA or PUT packet carries
 * the next payload_bytes of the message (its last, what is left); the
 * others are control-sized. */
static uint32_t packet_flits(const mpp_nodes *ns, const msg *m, uint8_t kind)
{
    if (kind != PK_DATA && kind != PK_PUT)
        return ns->ctrl_flits;
    uint64_t off = (uint64_t)m->written * ns->payload_bytes;
    uint64_t left = m->bytes > off ? m->bytes - off : 0;
    return mpp_packet_flits(&ns->pk, left < ns->payload_bytes ? left : ns->payload_bytes);
}

/* Write one packet of kind for message mi into node n's send FIFO, ready
 * at network cycle `ready`. */
static void write_packet(mpp_nodes *ns, uint32_t n, uint32_t mi, uint8_t kind, uint64_t ready,
                         uint16_t pace)
{
    msg *m = &ns->msgs[mi];
    uint32_t flits = packet_flits(ns, m, kind), dst = packet_dst(m, kind);
    uint32_t cls = class_of(ns, kind);
    mpp_src_entry e = {.created = ready ? ready - 1 : 0,
                       .tag = ((uint64_t)kind << 32) | mi,
                       .dst = dst,
                       .flits = flits,
                       .pace = pace,
                       .mclass = (uint8_t)cls,
                       .measured = 1};
    if (!ns->push(ns->ud, n, cls, &e))
        ns->oom = true;
    node *nd = &ns->nodes[n];
    uint32_t occ = fifo_occupancy(ns, n, cls);
    if (occ > nd->send_peak)
        nd->send_peak = occ;
}

/* nic: dma: CPU cycles an engine takes to move a packet of `flits` flits
 * between memory and a FIFO (the co-processor's work and the DMA of its
 * words). */
static uint64_t dma_words_cost(const mpp_nodes *ns, uint32_t flits)
{
    uint64_t words = ((uint64_t)flits * ns->pk.flit_bits + ns->pk.word_bits - 1) / ns->pk.word_bits;
    return words * ns->cfg.dma_word_cycles;
}

static uint64_t dma_cost(const mpp_nodes *ns, uint32_t flits)
{
    return ns->cfg.dma_packet_cycles + dma_words_cost(ns, flits);
}

/* The processor writes (dir 0) or reads (dir 1) a DATA packet of message
 * mi: when the last DATA packet it handled in that direction belonged to
 * another message, CMMD's send or receive loop switches to this message's
 * state (buffer pointer, count, the receive it fills): switch_cycles. */
static uint64_t switch_to(const mpp_nodes *ns, node *nd, int dir, uint32_t mi)
{
    uint32_t *last = &nd->last_data[dir];
    uint64_t cost = *last != NONE && *last != mi ? ns->cfg.switch_cycles : 0;
    *last = mi;
    return cost;
}

/* --- reading a packet ------------------------------------------------------- */

static bool interrupt_class(const mpp_nodes *ns, uint8_t kind, const msg *m)
{
    if (kind == PK_REQ || kind == PK_REPLY || kind == PK_DATA)
        return m->paradigm == MPP_PARADIGM_ASYNC;
    if (kind == PK_AM || kind == PK_PUT)
        return ns->cfg.delivery == MPP_DELIVER_INTERRUPT;
    return false;
}

/* The head packet of node n's receive FIFOs, or NONE: the control
 * interface (the highest, which carries the handshake) before the data. */
static uint32_t rx_head(const mpp_nodes *ns, uint32_t n, uint32_t *cls)
{
    for (uint32_t k = ns->MC; k-- > 0;) {
        const ring *rg = &ns->rx[(size_t)n * ns->MC + k];
        if (rg->n) {
            *cls = k;
            return rg->h[rg->head];
        }
    }
    return NONE;
}

/* Read the head packet of interface cls: costs, effects. Returns the CPU
 * cycles spent. */
static uint64_t read_packet(mpp_nodes *ns, uint32_t n, uint32_t cls, bool by_interrupt,
                            uint64_t start)
{
    const mpp_node_config *c = &ns->cfg;
    ring *rg = &ns->rx[(size_t)n * ns->MC + cls];
    uint32_t h = rg->h[rg->head];
    rg->head = (rg->head + 1) % rg->cap;
    rg->n--;
    mpp_packet *p = &ns->net->pkt[h];
    uint8_t kind = (uint8_t)(p->tag >> 32);
    uint32_t mi = (uint32_t)p->tag;
    msg *m = &ns->msgs[mi];
    if (p->injected < m->first_inject)
        m->first_inject = p->injected;
    uint64_t cost = ns->dma ? dma_cost(ns, p->flits)
                            : c->recv_packet_cycles +
                                  (by_interrupt ? c->interrupt_cycles : c->poll_cycles);
    if (by_interrupt)
        ns->interrupts++;
    node *nd = &ns->nodes[n];
    switch (kind) {
    case PK_REQ:
        cost += c->handshake_cycles;
        first_contact(ns, n, mi);
        break;
    case PK_REPLY:
        cost += c->handshake_cycles;
        m->replied = 1;
        if (!m->data_queued) {
            /* the data may go now (an async REPLY handler writes it at once) */
            m->data_queued = 1;
            if (!mpp_u32vec_push(&nd->data, mi))
                ns->oom = true;
        }
        break;
    case PK_DATA:
    case PK_PUT:
    case PK_AM:
        if (kind == PK_DATA && m->paradigm == MPP_PARADIGM_ASYNC && m->recv != NONE &&
            c->async_match_cycles) {
            /* the handler walks the posted receives to this message's */
            uint32_t i = 0;
            while (i < nd->recvs.n && nd->recvs.v[i] != m->recv)
                i++;
            cost += (uint64_t)c->async_match_cycles * (i < nd->recvs.n ? i + 1 : i);
        }
        if (kind == PK_DATA && !ns->dma)
            cost += switch_to(ns, nd, 1, mi);
        m->hops += p->hops;
        if (m->received == 0 && kind != PK_DATA && !m->unmatched)
            first_contact(ns, n, mi); /* finds the agreed receive port */
        m->received++;
        if (kind == PK_AM)
            cost += c->handler_cycles;
        if (m->received == m->npk) {
            if (kind == PK_PUT)
                cost += c->handler_cycles;
            if (kind == PK_DATA)
                cost += c->recv_done_cycles +
                        (m->paradigm == MPP_PARADIGM_ASYNC ? c->async_msg_cycles : 0);
            if (ns->handler && (kind != PK_DATA || (m->notify & NOTIFY_RECVD))) {
                uint32_t args[MPP_AM_MAX_ARGS];
                memcpy(args, m->args, sizeof args); /* the handler may grow the table */
                mpp_node_ctx ctx = {ns, n, mpp_ckd_sat_add(start, cost), 0, kind == PK_AM ? m->nargs : 0, args};
                uint32_t tag = m->notify & NOTIFY_RECVD ? m->tag | MPP_APP_RECVD : m->tag;
                ns->handler(ns->handler_ud, &ctx, n, m->src, tag, m->bytes);
                cost = mpp_ckd_sat_add(cost, ctx.cost);
                m = &ns->msgs[mi]; /* the handler may have grown the table */
            }
            recv_complete(ns, n, mi, net_ceil(ns, mpp_ckd_sat_add(start, cost)));
        }
        break;
    }
    nd->recv_busy += cost;
    /* the packet leaves the receive FIFO: its space returns to the NIC */
    if (ns->model)
        mpp_net_fifo_release(ns->net, h);
    mpp_net_pkt_free(ns->net, h);
    return cost;
}

/* --- application handlers ------------------------------------------------- */

/* Queue a background message from a handler. */
static int handler_send(mpp_node_ctx *ctx, uint32_t dst, uint64_t bytes, uint32_t tag,
                        uint8_t paradigm)
{
    mpp_nodes *ns = ctx->ns;
    if (dst >= ns->N || mpp_packet_count(&ns->pk, bytes) > MPP_MSG_MAX_PACKETS)
        return -1;
    mpp_op op = {.code = paradigm == MPP_PARADIGM_AM ? MPP_OP_AM : MPP_OP_ISEND,
                 .paradigm = paradigm, .peer = dst, .tag = tag, .bytes = bytes};
    uint32_t mi = new_msg(ns, ctx->n, &op, net_ceil(ns, mpp_ckd_sat_add(ctx->at, ctx->cost)));
    if (mi == NONE)
        return 0;
    node *nd = &ns->nodes[ctx->n];
    ns->msgs[mi].ready = mpp_ckd_sat_add(ctx->at, ctx->cost);
    ns->msgs[mi].background = 1;
    ns->msgs[mi].data_queued = 1;
    ns->msgs[mi].unmatched = paradigm == MPP_PARADIGM_AM;
    nd->outstanding++;
    if (!mpp_u32vec_push(&nd->data, mi))
        ns->oom = true;
    return 0;
}

int mpp_node_send_am(mpp_node_ctx *ctx, uint32_t dst, uint32_t tag)
{
    return handler_send(ctx, dst, ctx->ns->payload_bytes, tag, MPP_PARADIGM_AM);
}

int mpp_node_send_am_args(mpp_node_ctx *ctx, uint32_t dst, uint32_t tag, const uint32_t *args,
                          uint32_t nargs)
{
    mpp_nodes *ns = ctx->ns;
    if (nargs > MPP_AM_MAX_ARGS || (uint64_t)nargs * 4 > ns->payload_bytes || dst >= ns->N)
        return -1;
    uint32_t mi = ns->nmsgs;
    int rc = handler_send(ctx, dst, ns->payload_bytes, tag, MPP_PARADIGM_AM);
    if (rc == 0 && ns->nmsgs > mi) { /* (not when out of memory) */
        ns->msgs[mi].nargs = (uint8_t)nargs;
        if (nargs)
            memcpy(ns->msgs[mi].args, args, nargs * sizeof *args);
    }
    return rc;
}

int mpp_node_send_strata(mpp_node_ctx *ctx, uint32_t dst, uint32_t tag, const uint32_t *args,
                         uint32_t nargs)
{
    uint32_t mi = ctx->ns->nmsgs;
    int rc = mpp_node_send_am_args(ctx, dst, tag, args, nargs);
    if (rc == 0 && ctx->ns->nmsgs > mi)
        ctx->ns->msgs[mi].strata = 1;
    return rc;
}

int mpp_node_yield(mpp_node_ctx *ctx)
{
    mpp_nodes *ns = ctx->ns;
    if (ns->dma || !ns->handler)
        return -1;
    ns->nodes[ctx->n].cont = true;
    ns->nodes[ctx->n].cont_reads = NONE;
    return 0;
}

int mpp_node_poll(mpp_node_ctx *ctx, uint32_t max)
{
    int rc = mpp_node_yield(ctx);
    if (rc == 0 && max)
        ctx->ns->nodes[ctx->n].cont_reads = max;
    return rc;
}

int mpp_node_reduce(mpp_node_ctx *ctx, uint64_t value, int op)
{
    mpp_nodes *ns = ctx->ns;
    node *nd = &ns->nodes[ctx->n];
    if (ns->dma || !ns->handler || nd->red != RED_NONE ||
        (op != MPP_REDUCE_SUM && op != MPP_REDUCE_MAX && op != MPP_REDUCE_BARRIER))
        return -1;
    nd->red = RED_WAIT;
    nd->red_value = value;
    nd->red_op = op;
    return 0;
}

uint32_t mpp_node_args(const mpp_node_ctx *ctx, uint32_t out[MPP_AM_MAX_ARGS])
{
    for (uint32_t i = 0; i < ctx->nargs; i++)
        out[i] = ctx->args[i];
    return ctx->nargs;
}

int mpp_node_send_put(mpp_node_ctx *ctx, uint32_t dst, uint64_t bytes, uint32_t tag)
{
    return handler_send(ctx, dst, bytes, tag, MPP_PARADIGM_AM_PUT);
}

int mpp_node_send_eager(mpp_node_ctx *ctx, uint32_t dst, uint64_t bytes, uint32_t tag)
{
    mpp_nodes *ns = ctx->ns;
    if (tag > MPP_APP_TAG_MAX)
        return -1;
    uint32_t mi = ns->nmsgs;
    int rc = handler_send(ctx, dst, bytes, tag, MPP_PARADIGM_AM_PUT);
    if (rc == 0 && ns->nmsgs > mi) { /* (not when out of memory) */
        ns->msgs[mi].unmatched = 1;  /* never bound to a posted receive */
        ns->msgs[mi].notify = NOTIFY_SENT;
    }
    return rc;
}

void mpp_nodes_set_handlers(mpp_nodes *ns, mpp_am_handler handler, mpp_app_start start, void *ud)
{
    ns->handler = handler;
    ns->app_start = start;
    ns->handler_ud = ud;
}

void mpp_node_app_done(mpp_node_ctx *ctx) { ctx->ns->nodes[ctx->n].app_done = true; }

/* The application's own messages and receives (drs_n's CMMD transfers).
 * They are background work of node n (outstanding, so MPP_OP_APP waits for
 * them) whose end the application hears of through its handler:
 *
 *   mpp_node_send_msg  sync/async: send_msg_cycles, REQ queued; the REPLY
 *                      queues the data (read_packet); am_put: data queued
 *                      at once. The last packet written -> app_sent ->
 *                      handler(tag | MPP_APP_SENT).
 *   mpp_node_post_recv recv_msg_cycles, a background receive (it matches
 *                      a pending REQ or PUT stream at once, else the next
 *                      to arrive); bind marks the message NOTIFY_RECVD and
 *                      read_packet runs handler(tag | MPP_APP_RECVD) when
 *                      its last packet is read.
 *
 * The data of a sync/async message is written like a blocking send's: the
 * processor writes it before reading anything that is not an interrupt
 * (node_act step 4 before 5), so the application's "blocking send" is the
 * time from the call to MPP_APP_SENT. */
int mpp_node_send_msg(mpp_node_ctx *ctx, uint32_t dst, uint64_t bytes, uint32_t tag,
                      int paradigm)
{
    mpp_nodes *ns = ctx->ns;
    bool cmmd = paradigm == MPP_PARADIGM_SYNC || paradigm == MPP_PARADIGM_ASYNC;
    if (dst >= ns->N || tag > MPP_APP_TAG_MAX || (!cmmd && paradigm != MPP_PARADIGM_AM_PUT) ||
        mpp_packet_count(&ns->pk, bytes) > MPP_MSG_MAX_PACKETS)
        return -1;
    mpp_op op = {.code = MPP_OP_ISEND, .paradigm = (uint8_t)paradigm, .peer = dst, .tag = tag,
                 .bytes = bytes};
    if (cmmd)
        ctx->cost += ns->cfg.send_msg_cycles;
    uint32_t mi = new_msg(ns, ctx->n, &op, net_ceil(ns, mpp_ckd_sat_add(ctx->at, ctx->cost)));
    if (mi == NONE)
        return 0;
    node *nd = &ns->nodes[ctx->n];
    msg *m = &ns->msgs[mi];
    m->background = 1;
    m->notify = NOTIFY_SENT;
    nd->outstanding++;
    if (cmmd) {
        if (!ctrl_push(nd, (job){mi, PK_REQ, 0, mpp_ckd_sat_add(ctx->at, ctx->cost)}))
            ns->oom = true;
    } else {
        m->ready = mpp_ckd_sat_add(ctx->at, ctx->cost);
        m->data_queued = 1;
        if (!mpp_u32vec_push(&nd->data, mi))
            ns->oom = true;
    }
    return 0;
}

int mpp_node_post_recv(mpp_node_ctx *ctx, uint32_t src, uint32_t tag)
{
    mpp_nodes *ns = ctx->ns;
    if ((src >= ns->N && src != MPP_ANY) || tag > MPP_APP_TAG_MAX)
        return -1;
    ctx->cost += ns->cfg.recv_msg_cycles;
    uint32_t ri = new_recv(ns, ctx->n, src, tag, true, mpp_ckd_sat_add(ctx->at, ctx->cost));
    if (ri == NONE)
        return 0;
    ns->pr[ri].notify = 1;
    ns->nodes[ctx->n].outstanding++;
    match_pending(ns, ctx->n, ri);
    return 0;
}

void mpp_node_copy_words(mpp_node_ctx *ctx, uint64_t words)
{
    ctx->cost = mpp_ckd_sat_add(ctx->cost, mpp_ckd_sat_mul(words, ctx->ns->cfg.mem_word_cycles));
}

/* Message mi of node n has written its last packet at CPU time `at`: the
 * application hears of it if it asked to (mpp_node_send_msg). Returns the
 * CPU cycles its handler took. */
static uint64_t app_sent(mpp_nodes *ns, uint32_t n, uint32_t mi, uint64_t at)
{
    const msg *m = &ns->msgs[mi];
    if (!(m->notify & NOTIFY_SENT) || !ns->handler)
        return 0;
    mpp_node_ctx ctx = {ns, n, at, 0};
    ns->handler(ns->handler_ud, &ctx, n, m->dst, m->tag | MPP_APP_SENT, m->bytes);
    return ctx.cost;
}

/* A data packet of message mi has been written by node n, its writer done
 * at CPU time `end`: count it; after the last, the send is complete.
 * Returns the application handler's cost (app_sent), or 0. */
static uint64_t data_written(mpp_nodes *ns, uint32_t n, uint32_t mi, uint64_t end)
{
    msg *m = &ns->msgs[mi];
    node *nd = &ns->nodes[n];
    if (++m->written < m->npk)
        return 0;
    for (uint32_t i = 0; i < nd->data.n; i++)
        if (nd->data.v[i] == mi) {
            vec_remove_at(&nd->data, i);
            if (i < nd->rr)
                nd->rr--;
            break;
        }
    send_complete(ns, n, mi, net_ceil(ns, end));
    return app_sent(ns, n, mi, end);
}

/* Network cycles of a reduction of op->bytes words (0 and 1: one word):
 * the first word costs reduce_cycles, each further one reduce_word_cycles
 * (the words of a vector sum follow each other through the control
 * network). */
static uint64_t reduce_time(const mpp_node_config *c, const mpp_op *op)
{
    uint64_t words = op->bytes > 1 ? op->bytes - 1 : 0;
    return mpp_ckd_sat_add(c->reduce_cycles, mpp_ckd_sat_mul(words, c->reduce_word_cycles));
}

void mpp_node_compute(mpp_node_ctx *ctx, uint64_t cycles)
{
    ctx->cost = mpp_ckd_sat_add(ctx->cost, cycles);
}

uint64_t mpp_node_now(const mpp_node_ctx *ctx) { return net_ceil(ctx->ns, mpp_ckd_sat_add(ctx->at, ctx->cost)); }

/* --- the processor ------------------------------------------------------------ */

/* Does node n have a posted background receive (IRECV) not yet done? */
static bool bg_recv_posted(const mpp_nodes *ns, const node *nd)
{
    for (uint32_t i = 0; i < nd->recvs.n; i++)
        if (ns->pr[nd->recvs.v[i]].background)
            return true;
    return false;
}

/* May node n read packets now (poll-class)? */
static bool may_read(const mpp_nodes *ns, const node *nd)
{
    if (!nd->op_active)
        /* between operations a processor reads only at the end of its
         * program or when told to poll: the next call (posting a receive,
         * starting a send) comes first, as in the program's order */
        return nd->state == ST_BLOCKED || nd->pc >= nd->nops ||
               nd->ops[nd->pc].code == MPP_OP_POLL;
    const mpp_op *op = &nd->ops[nd->pc];
    if (op->code == MPP_OP_SEND) {
        /* a blocking send reads while it waits for its reply, not while it
         * writes its data */
        const msg *m = &ns->msgs[nd->op_msg];
        if (!(m->replied || m->paradigm == MPP_PARADIGM_AM || m->paradigm == MPP_PARADIGM_AM_PUT))
            return true;
        /* posted asynchronous receives are serviced while it writes (as
         * CMMD's receive handlers are), alternating with its packets */
        return bg_recv_posted(ns, nd);
    }
    return true;
}

/* The message whose data node n may write at CPU time `now`, or NONE
 * (nic: dma: a handler's message waits for the end of the call that sent
 * it, msg.ready; the processor itself writes only after its calls). */
static uint32_t data_ready(const mpp_nodes *ns, const node *nd, uint64_t now)
{
    for (uint32_t i = 0; i < nd->data.n; i++) {
        uint32_t mi = nd->data.v[i];
        const msg *m = &ns->msgs[mi];
        if (m->written >= m->npk || m->ready > now)
            continue;
        /* background (handler) data is always allowed; a blocking send's
         * data only while that send is the operation in progress */
        if (m->background || (nd->op_active && nd->op_msg == mi))
            return mi;
    }
    return NONE;
}

/* nic: dma: the earliest msg.ready after `now` of node n's data not yet
 * written, or NEVER. */
static uint64_t data_next_ready(const mpp_nodes *ns, const node *nd, uint64_t now)
{
    uint64_t r = NEVER;
    for (uint32_t i = 0; i < nd->data.n; i++) {
        const msg *m = &ns->msgs[nd->data.v[i]];
        if (m->written < m->npk && m->background && m->ready > now && m->ready < r)
            r = m->ready;
    }
    return r;
}

/* The message whose data node n writes next, or NONE: data_ready's, when
 * its send FIFO has room. With a FIFO per link (all-port), the messages are
 * offered round-robin from nd->rr and the first whose link's FIFO has room
 * is taken, so one processor feeds all its links. */
static uint32_t data_pick(const mpp_nodes *ns, uint32_t n, const node *nd, uint64_t now)
{
    if (!ns->queue_for) {
        uint32_t mi = data_ready(ns, nd, now);
        return mi != NONE && fifo_room(ns, n, 0, 0) ? mi : NONE;
    }
    for (uint32_t k = 0; k < nd->data.n; k++) {
        uint32_t i = (nd->rr + k) % nd->data.n, mi = nd->data.v[i];
        const msg *m = &ns->msgs[mi];
        if (m->written >= m->npk || m->ready > now ||
            !(m->background || (nd->op_active && nd->op_msg == mi)))
            continue;
        if (fifo_room(ns, n, 0, packet_dst(m, data_kind(m))))
            return mi;
    }
    return NONE;
}

/* queue_for: message mi (in nd->data) is being written: the next offer
 * starts after it. */
static void data_turn(const mpp_nodes *ns, node *nd, uint32_t mi)
{
    if (!ns->queue_for)
        return;
    for (uint32_t i = 0; i < nd->data.n; i++)
        if (nd->data.v[i] == mi) {
            nd->rr = i + 1;
            return;
        }
}

/* Start the operation at pc. Returns its CPU cost; sets op_active for
 * blocking operations, advances pc for the others. */
/* Has the control network released node nd's barrier, reduction or
 * application reduction (its release time may still be to come)? */
static bool released(const mpp_nodes *ns, const node *nd)
{
    if (nd->red == RED_IN && nd->red_epoch != ns->barrier_epoch)
        return true;
    return nd->op_active && nd->pc < nd->nops &&
           (nd->ops[nd->pc].code == MPP_OP_BARRIER || nd->ops[nd->pc].code == MPP_OP_REDUCE) &&
           nd->barrier_epoch != ns->barrier_epoch;
}

/* Is node k waiting for the control network's release (a BARRIER or
 * REDUCE operation, or the application's reduction)? */
static bool in_control(const mpp_nodes *ns, const node *nd)
{
    if (nd->red == RED_IN && nd->red_epoch == ns->barrier_epoch)
        return true;
    return nd->op_active && nd->pc < nd->nops &&
           (nd->ops[nd->pc].code == MPP_OP_BARRIER || nd->ops[nd->pc].code == MPP_OP_REDUCE) &&
           nd->barrier_epoch == ns->barrier_epoch;
}

/* A processor enters the control network (a barrier or reduction) at
 * network cycle now; the last of the unfinished ones releases them all,
 * `cost` network cycles after the last entry. */
static void control_enter(mpp_nodes *ns, uint64_t now, uint64_t cost)
{
    ns->barrier_in++;
    if (now > ns->barrier_last)
        ns->barrier_last = now;
    if (ns->barrier_in < ns->unfinished)
        return;
    uint64_t rel = mpp_ckd_sat_add(ns->barrier_last, cost);
    if (rel > MPP_CKD_TIME_MAX || cpu_ceil(ns, rel) > MPP_CKD_TIME_MAX) {
        /* the release would pass the time a run may reach: stop the run
         * (never wake the processors at a wrapped, earlier cycle) */
        if (!ns->fail[0])
            snprintf(ns->fail, sizeof ns->fail,
                     "the control network's release at cycle %llu + %llu passes 2^62 cycles "
                     "(node.barrier_cycles, node.reduce_cycles, node.reduce_word_cycles)",
                     (unsigned long long)ns->barrier_last, (unsigned long long)cost);
        return;
    }
    for (uint32_t k = 0; k < ns->N; k++)
        if (in_control(ns, &ns->nodes[k]))
            wake(ns, k, rel);
    ns->barrier_release = rel;
    ns->barrier_epoch++;
    ns->barrier_in = 0;
    ns->barrier_last = 0;
    ns->red_result = ns->red_acc;
    ns->red_acc = 0;
    ns->red_op = -1;
}

static uint64_t start_op(mpp_nodes *ns, uint32_t n, uint64_t t, uint64_t start)
{
    node *nd = &ns->nodes[n];
    const mpp_op *op = &nd->ops[nd->pc];
    const mpp_node_config *c = &ns->cfg;
    uint64_t now = net_ceil(ns, start);
    if (ns->record) {
        if (ns->nrec == ns->rec_cap) {
            uint32_t cap = ns->rec_cap ? ns->rec_cap * 2 : 256;
            struct rec *r = realloc(ns->rec, cap * sizeof *r);
            if (!r)
                ns->oom = true;
            else {
                ns->rec = r;
                ns->rec_cap = cap;
            }
        }
        if (ns->nrec < ns->rec_cap)
            ns->rec[ns->nrec++] = (struct rec){n, now, *op};
    }
    switch (op->code) {
    case MPP_OP_SEND:
    case MPP_OP_ISEND:
    case MPP_OP_SENDRECV:
    case MPP_OP_AM: {
        /* active messages and block transfers (CMAML) cost only their
         * packets; CMMD's send/receive pays the messaging layer's overhead */
        uint64_t cost = op->code == MPP_OP_AM || op->paradigm == MPP_PARADIGM_AM ||
                                op->paradigm == MPP_PARADIGM_AM_PUT
                            ? 0
                            : c->send_msg_cycles;
        if (op->code != MPP_OP_AM && op->paradigm == MPP_PARADIGM_ASYNC)
            cost += c->async_msg_cycles;
        if (op->code == MPP_OP_SENDRECV) {
            cost += c->recv_msg_cycles + c->sendrecv_cycles;
            nd->op_recv = new_recv(ns, n, op->peer2, op->tag, false, mpp_ckd_sat_add(start, cost));
            if (nd->op_recv != NONE)
                match_pending(ns, n, nd->op_recv);
        }
        mpp_op mop = *op;
        if (op->code == MPP_OP_AM) {
            mop.paradigm = MPP_PARADIGM_AM;
            mop.bytes = ns->payload_bytes;
        }
        uint32_t mi = new_msg(ns, n, &mop, now);
        if (mi == NONE)
            return cost;
        msg *m = &ns->msgs[mi];
        m->background = op->code == MPP_OP_ISEND;
        m->unmatched = op->code == MPP_OP_AM;
        if (m->paradigm == MPP_PARADIGM_SYNC || m->paradigm == MPP_PARADIGM_ASYNC) {
            job j = {mi, PK_REQ, 0, mpp_ckd_sat_add(start, cost)};
            if (!ctrl_push(nd, j))
                ns->oom = true;
        } else {
            m->data_queued = 1;
            if (!mpp_u32vec_push(&nd->data, mi))
                ns->oom = true;
        }
        if (m->background) {
            nd->outstanding++;
            nd->pc++;
        } else {
            nd->op_active = true;
            nd->op_msg = mi;
        }
        return cost;
    }
    case MPP_OP_RECV:
    case MPP_OP_IRECV: {
        bool bg = op->code == MPP_OP_IRECV;
        uint32_t ri = new_recv(ns, n, op->peer, op->tag, bg, start + c->recv_msg_cycles);
        if (ri != NONE)
            match_pending(ns, n, ri);
        if (bg) {
            nd->outstanding++;
            nd->pc++;
        } else {
            nd->op_active = true;
            nd->op_recv = ri;
        }
        return c->recv_msg_cycles;
    }
    case MPP_OP_WAIT:
        nd->op_active = true;
        return 0;
    case MPP_OP_POLL:
        nd->op_active = true;
        return c->poll_call_cycles;
    case MPP_OP_COMPUTE:
        nd->pc++;
        return op->bytes;
    case MPP_OP_BARRIER:
    case MPP_OP_REDUCE:
        nd->op_active = true;
        nd->barrier_epoch = ns->barrier_epoch;
        control_enter(ns, now, op->code == MPP_OP_BARRIER ? c->barrier_cycles
                                                          : reduce_time(c, op));
        return 0;
    case MPP_OP_APP: {
        nd->op_active = true;
        nd->app_done = false;
        if (!ns->app_start) {
            nd->app_done = true;
            return 0;
        }
        mpp_node_ctx ctx = {ns, n, start, 0};
        ns->app_start(ns->handler_ud, &ctx, n);
        return ctx.cost;
    }
    case MPP_OP_MARK:
        nd->pc++;
        return c->phase_cycles;
    default:
        nd->pc++;
        return 0;
    }
}

/* Is the blocking operation in progress complete? */
static bool op_complete(const mpp_nodes *ns, const node *nd, uint64_t t)
{
    const mpp_op *op = &nd->ops[nd->pc];
    switch (op->code) {
    case MPP_OP_SEND:
    case MPP_OP_AM:
        return ns->msgs[nd->op_msg].written >= ns->msgs[nd->op_msg].npk;
    case MPP_OP_SENDRECV:
        return ns->msgs[nd->op_msg].written >= ns->msgs[nd->op_msg].npk &&
               (nd->op_recv == NONE || ns->pr[nd->op_recv].done);
    case MPP_OP_RECV:
        return nd->op_recv == NONE || ns->pr[nd->op_recv].done;
    case MPP_OP_WAIT:
        return nd->outstanding == 0;
    case MPP_OP_POLL: {
        uint32_t cls;
        return rx_head(ns, (uint32_t)(nd - ns->nodes), &cls) == NONE;
    }
    case MPP_OP_BARRIER:
    case MPP_OP_REDUCE:
        return nd->barrier_epoch != ns->barrier_epoch && t >= ns->barrier_release;
    case MPP_OP_APP:
        return nd->app_done && nd->outstanding == 0;
    default:
        return true;
    }
}

/* The program of node n at cycle t from CPU time start: complete the
 * blocking operation in progress, or start the next, or finish. Returns
 * the CPU cycles it took, or NEVER when it must wait. */
static uint64_t program_act(mpp_nodes *ns, uint32_t n, uint64_t t, uint64_t start)
{
    node *nd = &ns->nodes[n];
    if (nd->op_active) {
        if (!op_complete(ns, nd, t))
            return NEVER;
        nd->op_active = false;
        nd->op_msg = nd->op_recv = NONE;
        nd->pc++;
        return 0;
    }
    if (nd->pc < nd->nops)
        return start_op(ns, n, t, start);
    if (nd->outstanding || nd->recvs.n || nd->data.n || nd->ctrl_n)
        return NEVER;
    nd->state = ST_DONE;
    ns->unfinished--;
    return NEVER;
}

/* One action of free node n at cycle t starting at CPU time start. Returns
 * the CPU cycles it took, or NEVER when there is nothing to do. */
static uint64_t node_act(mpp_nodes *ns, uint32_t n, uint64_t t, uint64_t start)
{
    node *nd = &ns->nodes[n];
    const mpp_node_config *c = &ns->cfg;
    /* the application's reduction: it enters once everything it queued
     * before is written, and hears of the release in its handler */
    if (nd->red == RED_WAIT && !nd->ctrl_n && !nd->data.n) {
        if (ns->red_op >= 0 && ns->red_op != nd->red_op && !ns->fail[0])
            snprintf(ns->fail, sizeof ns->fail,
                     "node %u: application reductions of one round with different operations",
                     n);
        ns->red_op = nd->red_op;
        if (nd->red_op == MPP_REDUCE_MAX)
            ns->red_acc = nd->red_value > ns->red_acc ? nd->red_value : ns->red_acc;
        else if (nd->red_op == MPP_REDUCE_SUM)
            ns->red_acc += nd->red_value;
        nd->red = RED_IN;
        nd->red_epoch = ns->barrier_epoch;
        control_enter(ns, net_ceil(ns, start),
                      nd->red_op == MPP_REDUCE_BARRIER ? c->barrier_cycles : c->reduce_cycles);
    }
    if (nd->red == RED_IN && nd->red_epoch != ns->barrier_epoch && t >= ns->barrier_release) {
        nd->red = RED_NONE;
        mpp_node_ctx ctx = {ns, n, start, 0, 0, NULL};
        ns->handler(ns->handler_ud, &ctx, n, n, MPP_APP_REDUCED, ns->red_result);
        return ctx.cost;
    }
    uint32_t cls, h = rx_head(ns, n, &cls);
    /* 1. interrupts */
    if (h != NONE) {
        const mpp_packet *p = &ns->net->pkt[h];
        uint8_t kind = (uint8_t)(p->tag >> 32);
        if (interrupt_class(ns, kind, &ns->msgs[(uint32_t)p->tag])) {
            /* a handler that finds another interrupt-class packet waiting
             * reads it before it returns: only the first pays the entry */
            bool entry = !nd->in_irq;
            nd->in_irq = true;
            return read_packet(ns, n, cls, entry, start);
        }
    }
    nd->in_irq = false;
    /* 2. control packets */
    if (nd->ctrl_n) {
        job *j = &nd->ctrl[nd->ctrl_head];
        if (fifo_room(ns, n, class_of(ns, j->kind), packet_dst(&ns->msgs[j->msg], j->kind))) {
            uint64_t cost = c->send_packet_cycles;
            write_packet(ns, n, j->msg, j->kind, net_ceil(ns, mpp_ckd_sat_add(start, cost)), 0);
            nd->ctrl_head = (nd->ctrl_head + 1) % nd->ctrl_cap;
            nd->ctrl_n--;
            nd->send_busy += cost;
            return cost;
        }
    }
    /* 3-5. data and reading (a handler's data is written after the
     * handler, by this processor: no wait for msg.ready) */
    uint32_t mi = data_pick(ns, n, nd, NEVER);
    bool can_write = mi != NONE;
    bool can_read = h != NONE && may_read(ns, nd);
    bool alternate = nd->op_active && (nd->ops[nd->pc].code == MPP_OP_SENDRECV ||
                                       (nd->ops[nd->pc].code == MPP_OP_SEND && can_read));
    if (can_write && can_read && alternate) {
        nd->alt = !nd->alt;
        if (nd->alt)
            can_write = false;
    }
    if (can_write) {
        msg *m = &ns->msgs[mi];
        uint64_t cost = m->strata && c->strata_send_cycles ? c->strata_send_cycles
                                                           : c->send_packet_cycles;
        uint8_t kind = data_kind(m);
        if (kind == PK_DATA)
            cost += switch_to(ns, nd, 0, mi);
        data_turn(ns, nd, mi);
        write_packet(ns, n, mi, kind, net_ceil(ns, mpp_ckd_sat_add(start, cost)), 0);
        nd->send_busy += cost;
        return cost + data_written(ns, n, mi, mpp_ckd_sat_add(start, cost));
    }
    /* the application's continuation (mpp_node_yield, mpp_node_poll): its
     * writes are out and no packet is waiting, or a bounded poll has read
     * its share */
    bool cont = nd->cont && !nd->ctrl_n && !nd->data.n && (h == NONE || nd->cont_reads == 0);
    if (can_read && !cont) {
        if (nd->cont && nd->cont_reads != NONE)
            nd->cont_reads--;
        return read_packet(ns, n, cls, false, start);
    }
    if (cont) {
        nd->cont = false;
        mpp_node_ctx ctx = {ns, n, start, 0, 0, NULL};
        ns->handler(ns->handler_ud, &ctx, n, n, MPP_APP_CONTINUE, 0);
        if (ctx.cost || !nd->cont)
            nd->idle_conts = 0;
        else if (++nd->idle_conts == MAX_IDLE_CONTS && !ns->fail[0])
            snprintf(ns->fail, sizeof ns->fail,
                     "node %u: the application yields again and again without doing anything",
                     n);
        return ctx.cost;
    }
    /* 6. the program */
    return program_act(ns, n, t, start);
}

/* --- nic: dma: the message co-processor's engines ---------------------------- */

/* The send engine of node n: the next control packet, else the next data
 * packet the program lets go, into its send FIFO (dma_cost each). Returns
 * the CPU cycles it took, or NEVER when it has nothing to do. */
static uint64_t tx_act(mpp_nodes *ns, uint32_t n, uint64_t start)
{
    node *nd = &ns->nodes[n];
    uint32_t flits = 0, mi = NONE;
    bool ctrl = false;
    if (nd->ctrl_n &&
        fifo_room(ns, n, class_of(ns, nd->ctrl[nd->ctrl_head].kind),
                  packet_dst(&ns->msgs[nd->ctrl[nd->ctrl_head].msg], nd->ctrl[nd->ctrl_head].kind))) {
        const job *j = &nd->ctrl[nd->ctrl_head];
        if (j->ready <= start) {
            ctrl = true;
            flits = ns->ctrl_flits;
        } else if (data_ready(ns, nd, start) == NONE) {
            /* the call that made it has not ended: wait for it (or for
             * data that becomes ready first) */
            uint64_t r = data_next_ready(ns, nd, start);
            return (r < j->ready ? r : j->ready) - start;
        }
    }
    if (!ctrl) {
        mi = data_pick(ns, n, nd, start);
        if (mi == NONE) {
            /* a handler's message whose call has not ended: wait for it */
            uint64_t r = data_next_ready(ns, nd, start);
            return r == NEVER ? NEVER : r - start;
        }
        flits = packet_flits(ns, &ns->msgs[mi], data_kind(&ns->msgs[mi]));
    }
    /* the co-processor sets the packet up (shared with the receive side),
     * then the DMA moves its words */
    uint64_t s0 = nd->mcp_f > start ? nd->mcp_f : start;
    nd->mcp_f = s0 + ns->cfg.dma_packet_cycles;
    uint64_t cost = (s0 - start) + dma_cost(ns, flits);
    nd->send_busy += dma_cost(ns, flits);
    uint64_t at = net_ceil(ns, mpp_ckd_sat_add(start, cost));
    uint16_t pace = 0;
    if (ns->stream) {
        at = net_ceil(ns, s0);
        uint64_t pc = (dma_cost(ns, flits) * ns->nk << 8) / ((uint64_t)ns->ck * flits);
        pace = pc > UINT16_MAX ? UINT16_MAX : (uint16_t)pc; /* slower engines: 256 cycles a flit */
    }
    if (ctrl) {
        job *j = &nd->ctrl[nd->ctrl_head];
        write_packet(ns, n, j->msg, j->kind, at, pace);
        nd->ctrl_head = (nd->ctrl_head + 1) % nd->ctrl_cap;
        nd->ctrl_n--;
        return cost;
    }
    data_turn(ns, nd, mi);
    write_packet(ns, n, mi, data_kind(&ns->msgs[mi]), at, pace);
    return cost + data_written(ns, n, mi, mpp_ckd_sat_add(start, cost));
}

/* The receive engine of node n: the head packet of its receive FIFOs (the
 * control interface first), handled as read_packet does, at dma_cost plus
 * the protocol's costs (handshake, completion), which the co-processor
 * pays. NEVER when every FIFO is empty. */
static uint64_t rx_act(mpp_nodes *ns, uint32_t n, uint64_t start)
{
    node *nd = &ns->nodes[n];
    uint32_t cls, h = rx_head(ns, n, &cls);
    if (h == NONE)
        return NEVER;
    uint64_t words = dma_words_cost(ns, ns->net->pkt[h].flits);
    /* the DMA moves the words; the co-processor (shared with the send
     * side) handles the packet and the protocol */
    uint64_t s0 = nd->mcp_f > start ? nd->mcp_f : start;
    uint64_t cost = read_packet(ns, n, cls, false, s0);
    nd->mcp_f = s0 + (cost > words ? cost - words : 0);
    return (s0 - start) + cost;
}

/* An action that ends at CPU time f: the watchdog waits for it. */
static inline void busy(mpp_nodes *ns, uint64_t f)
{
    uint64_t end = net_floor(ns, f);
    if (end > ns->busy_until)
        ns->busy_until = end;
}

/* One of the three actors of a node (processor, send engine, receive
 * engine) acts as long as it can within cycle t from its free time *f.
 * Returns true when it acted; *next gets the network cycle of its next
 * action when it stopped only because its time ran past t. */
static bool run_actor(mpp_nodes *ns, uint32_t n, uint64_t t, uint64_t cs, uint64_t *f, int which,
                      uint64_t *next)
{
    bool acted = false;
    for (;;) {
        uint64_t start = *f > cs ? *f : cs;
        if (net_floor(ns, start) > t) {
            if (net_floor(ns, start) < *next)
                *next = net_floor(ns, start);
            return acted;
        }
        uint64_t cost = which == 0   ? program_act(ns, n, t, start)
                        : which == 1 ? tx_act(ns, n, start)
                                     : rx_act(ns, n, start);
        if (cost == NEVER || ns->oom)
            return acted;
        *f = mpp_ckd_sat_add(start, cost);
        if (!time_ok(ns, n, *f))
            return acted;
        busy(ns, *f);
        acted = true;
    }
}

/* nic: dma: node n at cycle t — its processor runs the program while the
 * engines move packets; each acts again on what the others did, until none
 * can. Returns true when any acted. */
static bool dma_step(mpp_nodes *ns, uint32_t n, uint64_t t)
{
    node *nd = &ns->nodes[n];
    uint64_t cs = cpu_ceil(ns, t), next = NEVER;
    bool any = false, again = true;
    while (again && !ns->oom && !ns->fail[0]) {
        again = false;
        next = NEVER;
        if (nd->state != ST_DONE && run_actor(ns, n, t, cs, &nd->f, 0, &next))
            again = any = true;
        if (run_actor(ns, n, t, cs, &nd->tx_f, 1, &next))
            again = any = true;
        if (run_actor(ns, n, t, cs, &nd->rx_f, 2, &next))
            again = any = true;
    }
    if (nd->state != ST_DONE)
        nd->state = ST_RUN;
    /* a barrier waiting for its release time wakes itself */
    if (nd->state != ST_DONE && released(ns, nd)) {
        uint64_t at = ns->barrier_release > t ? ns->barrier_release : t + 1;
        if (at < next)
            next = at;
    }
    if (next != NEVER)
        wake(ns, n, next);
    return any;
}

void mpp_nodes_step(mpp_nodes *ns, uint64_t t)
{
    while (ns->heap.n && ns->heap.e[0].at <= t) {
        mpp_heap_ent e = mpp_heap_pop(&ns->heap);
        node *nd = &ns->nodes[e.id];
        if (nd->wake_at != e.at || nd->state == ST_DONE)
            continue; /* stale */
        nd->wake_at = NEVER;
        if (ns->dma) {
            if (dma_step(ns, e.id, t))
                ns->net->last_progress = t;
            continue;
        }
        uint64_t cs = cpu_ceil(ns, t);
        bool acted = false;
        for (;;) {
            uint64_t start = nd->f > cs ? nd->f : cs;
            if (net_floor(ns, start) > t) {
                wake(ns, e.id, net_floor(ns, start));
                break;
            }
            uint64_t cost = node_act(ns, e.id, t, start);
            if (cost == NEVER) {
                nd->state = nd->state == ST_DONE ? ST_DONE : ST_BLOCKED;
                /* a barrier waiting for its release time wakes itself */
                if (nd->state == ST_BLOCKED && released(ns, nd))
                    wake(ns, e.id, ns->barrier_release > t ? ns->barrier_release : t + 1);
                break;
            }
            nd->state = ST_RUN;
            nd->f = mpp_ckd_sat_add(start, cost);
            if (!time_ok(ns, e.id, nd->f))
                break;
            busy(ns, nd->f);
            acted = true;
            if (ns->oom || ns->fail[0])
                break;
        }
        if (acted)
            ns->net->last_progress = t;
    }
}

uint64_t mpp_nodes_next_wake(const mpp_nodes *ns) { return ns->heap.n ? ns->heap.e[0].at : NEVER; }

uint64_t mpp_nodes_busy_until(const mpp_nodes *ns) { return ns->busy_until; }

bool mpp_nodes_done(const mpp_nodes *ns) { return ns->unfinished == 0; }

bool mpp_nodes_check(const mpp_nodes *ns)
{
    const mpp_net *net = ns->net;
    uint32_t unfinished = 0;
    for (uint32_t n = 0; n < ns->N; n++) {
        const node *nd = &ns->nodes[n];
        unfinished += nd->state != ST_DONE;
        if (nd->pc > nd->nops)
            return false;
        for (uint32_t c = 0; c < ns->MC; c++) {
            /* a send FIFO never holds more than its depth (nic: model) */
            if (ns->model && fifo_occupancy(ns, n, c) > ns->send_cap)
                return false;
            /* what waits unread in a receive FIFO is covered by what its
             * links reserved there */
            const ring *rg = &ns->rx[(size_t)n * ns->MC + c];
            uint64_t held = 0;
            for (uint32_t i = 0; i < rg->n; i++) {
                const mpp_packet *p = &net->pkt[rg->h[(rg->head + i) % rg->cap]];
                if (p->dst != n || p->mclass != c)
                    return false;
                held += p->flits;
            }
            if (ns->model) {
                uint64_t reserved = 0;
                const mpp_topo *t = net->topo;
                for (uint32_t l = t->node_link_base[n]; l < t->node_link_base[n + 1]; l++) {
                    uint32_t free_flits = net->ej_credits[(size_t)l * net->message_classes + c];
                    if (free_flits > net->fifo_flits)
                        return false;
                    reserved += net->fifo_flits - free_flits;
                }
                if (held > reserved)
                    return false;
            }
        }
    }
    return unfinished == ns->unfinished;
}

bool mpp_nodes_oom(const mpp_nodes *ns) { return ns->oom; }

const char *mpp_nodes_failure(const mpp_nodes *ns) { return ns->fail[0] ? ns->fail : NULL; }

void mpp_node_fail(mpp_node_ctx *ctx, const char *why)
{
    mpp_nodes *ns = ctx->ns;
    if (!ns->fail[0])
        snprintf(ns->fail, sizeof ns->fail, "%s", why[0] ? why : "the application failed");
}

/* --- results ------------------------------------------------------------------ */

void mpp_nodes_results(const mpp_nodes *ns, mpp_sim_result *r)
{
    double ms = 1.0 / ((double)ns->nk); /* network cycles -> ms: cycles / kHz */
    double cpu_ms = 1.0 / ((double)ns->ck);
    uint64_t smin = NEVER, smax = 0, rmax = 0;
    long double ssum = 0, rsum = 0, sb = 0, rb = 0;
    uint32_t ns_ = 0, nr = 0;
    uint32_t spk = 0, rpk = 0;
    for (uint32_t n = 0; n < ns->N; n++) {
        const node *nd = &ns->nodes[n];
        if (nd->sends) {
            ns_++;
            ssum += nd->send_done;
            if (nd->send_done < smin)
                smin = nd->send_done;
            if (nd->send_done > smax)
                smax = nd->send_done;
        }
        if (nd->recvs_any) {
            nr++;
            rsum += nd->recv_done;
            if (nd->recv_done > rmax)
                rmax = nd->recv_done;
        }
        sb += nd->send_busy;
        rb += nd->recv_busy;
        if (nd->send_peak > spk)
            spk = nd->send_peak;
        if (nd->recv_peak > rpk)
            rpk = nd->recv_peak;
    }
    r->messages = ns->delivered.n;
    r->makespan_ms = (double)r->makespan * ms;
    r->message_latency_us = r->message_latency_mean * ms * 1000.0;
    r->send_done_min_ms = ns_ ? (double)smin * ms : NAN;
    r->send_done_max_ms = ns_ ? (double)smax * ms : NAN;
    r->send_done_mean_ms = ns_ ? (double)(ssum / ns_) * ms : NAN;
    r->recv_done_max_ms = nr ? (double)rmax * ms : NAN;
    r->recv_done_mean_ms = nr ? (double)(rsum / nr) * ms : NAN;
    r->send_busy_mean_ms = (double)(sb / ns->N) * cpu_ms;
    r->recv_busy_mean_ms = (double)(rb / ns->N) * cpu_ms;
    r->send_fifo_peak = spk;
    r->recv_fifo_peak = rpk;
    r->interrupts = ns->interrupts;
}

size_t mpp_nodes_msg_count(const mpp_nodes *ns) { return ns->delivered.n; }

size_t mpp_nodes_op_count(const mpp_nodes *ns) { return ns->nrec; }

void mpp_nodes_op_get(const mpp_nodes *ns, size_t i, uint32_t *who, uint64_t *cycle, mpp_op *op)
{
    *who = ns->rec[i].node;
    *cycle = ns->rec[i].cycle;
    *op = ns->rec[i].op;
}

void mpp_nodes_msg_get(const mpp_nodes *ns, size_t i, mpp_message_record *out)
{
    const msg *m = &ns->msgs[ns->delivered.v[i]];
    out->src = m->src;
    out->dst = m->dst;
    out->bytes = m->bytes;
    out->packets = m->npk;
    out->tag = m->tag;
    out->issue = m->issue;
    out->first_inject = m->first_inject;
    out->delivered = m->delivered;
    out->hops = m->npk ? (double)m->hops / m->npk : 0;
}

static const char *op_name(uint8_t code)
{
    static const char *const names[] = {"SEND",    "ISEND",   "RECV",   "IRECV", "SENDRECV",
                                        "WAIT",    "AM",      "POLL",   "COMPUTE", "BARRIER",
                                        "REDUCE",  "MARK",    "APP"};
    return code < sizeof names / sizeof names[0] ? names[code] : "?";
}

/* Packets in node n's receive FIFOs. */
static uint32_t rx_packets(const mpp_nodes *ns, uint32_t n)
{
    uint32_t inq = 0;
    for (uint32_t k = 0; k < ns->MC; k++)
        inq += ns->rx[(size_t)n * ns->MC + k].n;
    return inq;
}

/* The processors that are not done, those holding packets in their
 * receive FIFOs first (where a stuck network usually ends), each pass in
 * node order, at most max_lines of them. */
void mpp_nodes_report(const mpp_nodes *ns, mpp_sb *sb, uint32_t max_lines)
{
    uint32_t lines = 0, waiting = 0;
    for (uint32_t n = 0; n < ns->N; n++)
        waiting += ns->nodes[n].state != ST_DONE;
    for (uint32_t k = 0; k < 2 * ns->N && lines < max_lines; k++) {
        uint32_t n = k % ns->N; /* pass k / N: 0 with packets, 1 without */
        const node *nd = &ns->nodes[n];
        if (nd->state == ST_DONE || (rx_packets(ns, n) > 0) != (k < ns->N))
            continue;
        lines++;
        mpp_sb_printf(sb, "  processor %u", n);
        if (nd->pc < nd->nops) {
            const mpp_op *op = &nd->ops[nd->pc];
            mpp_sb_printf(sb, " in op %u %s", nd->pc, op_name(op->code));
            if (op->code == MPP_OP_SEND || op->code == MPP_OP_SENDRECV || op->code == MPP_OP_AM) {
                mpp_sb_printf(sb, " to %u", op->peer);
                if (nd->op_active && nd->op_msg != NONE) {
                    const msg *m = &ns->msgs[nd->op_msg];
                    if ((m->paradigm == MPP_PARADIGM_SYNC || m->paradigm == MPP_PARADIGM_ASYNC) &&
                        !m->replied)
                        mpp_sb_add(sb, ": waits for the reply to its request");
                    else
                        mpp_sb_printf(sb, ": has written %u of %u packets (send FIFO full)",
                                      m->written, m->npk);
                }
            }
            if (op->code == MPP_OP_RECV || op->code == MPP_OP_SENDRECV) {
                uint32_t src = op->code == MPP_OP_RECV ? op->peer : op->peer2;
                if (src == MPP_ANY)
                    mpp_sb_add(sb, "; waits for a message from any node");
                else
                    mpp_sb_printf(sb, "; waits for a message from %u", src);
            }
            if (op->code == MPP_OP_WAIT)
                mpp_sb_printf(sb, ": %u operations outstanding", nd->outstanding);
            if (op->code == MPP_OP_BARRIER || op->code == MPP_OP_REDUCE)
                mpp_sb_add(sb, ": waits for the other processors");
        } else {
            mpp_sb_printf(sb, " at the end of its program with %u operations outstanding",
                          nd->outstanding);
        }
        mpp_sb_printf(sb, " (%u packets in its receive FIFOs)\n", rx_packets(ns, n));
    }
    if (waiting > max_lines)
        mpp_sb_printf(sb, "  ... and %u more processors\n", waiting - max_lines);
}
