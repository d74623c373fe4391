/* core/program.h — node programs: the operations a node processor runs
 * (mpp_op), and a builder that grows every node's program (mpp_progbuild_*).
 * Workloads build programs (messages, schedules, traces) and hand them to
 * the engine with mpp_sim_programs. The semantics of each operation and
 * paradigm are in core/node.c and docs/machines.md. */
#ifndef MPP_CORE_PROGRAM_H
#define MPP_CORE_PROGRAM_H

#include <stdint.h>

#include "core/base/err.h"

/* Operations of a node program. */
typedef enum mpp_op_code {
    MPP_OP_SEND = 0,     /* blocking send (peer, bytes, tag) in the message's paradigm */
    MPP_OP_ISEND = 1,    /* non-blocking send: completes in the background (WAIT) */
    MPP_OP_RECV = 2,     /* blocking receive (peer or MPP_ANY, tag) */
    MPP_OP_IRECV = 3,    /* post a receive, go on (WAIT) */
    MPP_OP_SENDRECV = 4, /* post a receive from peer2, then a blocking send to peer */
    MPP_OP_WAIT = 5,     /* wait for every posted receive and background send */
    MPP_OP_AM = 6,       /* one active message to peer (handler id in tag) */
    MPP_OP_POLL = 7,     /* read every packet waiting in the receive FIFOs */
    MPP_OP_COMPUTE = 8,  /* bytes = CPU cycles of computation */
    MPP_OP_BARRIER = 9,  /* control-network barrier */
    MPP_OP_REDUCE = 10,  /* control-network reduction of bytes words (0 or 1: one word;
                            more: a vector sum, reduce_word_cycles per extra word) */
    MPP_OP_MARK = 11,    /* phase mark (tag = phase number) */
    MPP_OP_APP = 12      /* hand the processor to the application's start callback and
                            wait until it calls mpp_node_app_done */
} mpp_op_code;

#define MPP_ANY 0xffffffffu

typedef struct mpp_op {
    uint8_t code;     /* mpp_op_code */
    uint8_t paradigm; /* mpp_paradigm of a send */
    uint32_t peer;    /* destination (sends) or source (receives, MPP_ANY) */
    uint32_t peer2;   /* SENDRECV: the source to receive from */
    uint32_t tag;
    uint64_t bytes;   /* message bytes, or COMPUTE cycles */
} mpp_op;

/* C callbacks for execution-driven applications. A handler runs on node
 * `node` when an active message from `src` with handler id `tag` has been
 * read (after handler_cycles), or when the last packet of an am_put stream
 * of `bytes` bytes has, and for the notifications of the application's own
 * sends and posted receives (MPP_APP_SENT, MPP_APP_RECVD below). Through
 * ctx it may send active messages and messages, post receives and charge
 * computation to the processor; nothing else. */
typedef struct mpp_node_ctx mpp_node_ctx;
typedef void (*mpp_am_handler)(void *ud, mpp_node_ctx *ctx, uint32_t node, uint32_t src,
                               uint32_t tag, uint64_t bytes);

/* In a handler: send an active message with handler id tag to node dst (it
 * is written into the send FIFO by this processor, in the background).
 * Returns 0, or -1 when dst does not exist. */
int mpp_node_send_am(mpp_node_ctx *ctx, uint32_t dst, uint32_t tag);
/* The most argument words an active message carries (a CM-5 active
 * message: a handler and four words). */
#define MPP_AM_MAX_ARGS 4u
/* In a handler or start callback: an active message as mpp_node_send_am
 * that carries args[0 .. nargs-1] (nargs <= MPP_AM_MAX_ARGS, and the words
 * must fit the packet's payload: 4 x nargs <= payload_words x word_bits / 8);
 * its handler reads them with mpp_node_args. Returns 0, or -1 when dst does
 * not exist or the words do not fit. */
int mpp_node_send_am_args(mpp_node_ctx *ctx, uint32_t dst, uint32_t tag, const uint32_t *args,
                          uint32_t nargs);
/* In a handler or start callback: an active message as
 * mpp_node_send_am_args written by the Strata library's send: it costs
 * strata_send_cycles (the poll Strata's send always does included) instead
 * of send_packet_cycles; the caller polls after it (mpp_node_yield), as
 * Strata's send does. Returns as mpp_node_send_am_args. */
int mpp_node_send_strata(mpp_node_ctx *ctx, uint32_t dst, uint32_t tag, const uint32_t *args,
                         uint32_t nargs);
/* In a handler or start callback: a poll point. Once every packet queued
 * so far is written and no packet is waiting in the receive FIFOs (those
 * waiting are read first, their handlers run), the handler runs with tag
 * MPP_APP_CONTINUE: the application goes on from there (an application
 * that works site by site and polls in between). Returns 0, or -1 when
 * there is no handler or the NIC is `dma`. An application that yields
 * again and again without charging any work fails the run. */
int mpp_node_yield(mpp_node_ctx *ctx);
/* In a handler or start callback: a bounded poll point: as mpp_node_yield,
 * but the continuation runs once at most `max` of the packets waiting
 * have been read (max = 0: all of them, mpp_node_yield). A send that
 * alternates with polling (Strata's, the paper says) reads one. Returns
 * as mpp_node_yield. */
int mpp_node_poll(mpp_node_ctx *ctx, uint32_t max);
/* Operations of mpp_node_reduce. */
typedef enum mpp_reduce_op {
    MPP_REDUCE_SUM = 0,
    MPP_REDUCE_MAX = 1,
    MPP_REDUCE_BARRIER = 2 /* a barrier: released barrier_cycles after the last entry, not
                              reduce_cycles; the result is 0 */
} mpp_reduce_op;
/* In a handler or start callback: take part in a control-network
 * reduction of `value` with op (a barrier when the value does not
 * matter). The processor enters once everything it has queued to write
 * before is written; it goes on reading and writing meanwhile. Every
 * processor whose program has not finished must enter (program BARRIER and
 * REDUCE operations meet in the same control network); reduce_cycles after
 * the last entry the control network releases them, and the handler runs
 * on each application processor with tag MPP_APP_REDUCED and bytes = the
 * sum (or the largest) of the application values of that round. Returns 0,
 * or -1 when this processor is in one already, op is unknown, there is no
 * handler, or the NIC is `dma`. Different operations in one round fail the
 * run. */
int mpp_node_reduce(mpp_node_ctx *ctx, uint64_t value, int op);
/* In a handler: the argument words of the active message it handles,
 * copied to out; returns their count (0 for any other notification). */
uint32_t mpp_node_args(const mpp_node_ctx *ctx, uint32_t out[MPP_AM_MAX_ARGS]);
/* In a handler: the processor computes for `cycles` CPU cycles. */
void mpp_node_compute(mpp_node_ctx *ctx, uint64_t cycles);
/* In a handler: the current network cycle. */
uint64_t mpp_node_now(const mpp_node_ctx *ctx);
/* In a handler: send `bytes` to dst as a block transfer (am_put; its
 * handler runs at dst with tag when the last packet is read). Returns 0 or
 * -1 when dst does not exist or the message would have more than
 * MPP_MSG_MAX_PACKETS packets. */
int mpp_node_send_put(mpp_node_ctx *ctx, uint32_t dst, uint64_t bytes, uint32_t tag);
/* In a handler or start callback: an eager message: `bytes` to dst as a
 * block transfer (am_put) that matches no posted receive: its handler runs
 * at dst with the plain tag when the last packet is read (the application
 * matches it to its own receives there, or buffers it), and at this node
 * with tag | MPP_APP_SENT when the last packet is written. No per-message
 * cost beyond the packets. Outstanding until written. Returns 0, or -1 as
 * mpp_node_send_put, or when tag > MPP_APP_TAG_MAX. */
int mpp_node_send_eager(mpp_node_ctx *ctx, uint32_t dst, uint64_t bytes, uint32_t tag);
/* In a handler or start callback: the application is done on this node
 * (its MPP_OP_APP operation completes once nothing it started is
 * outstanding). */
void mpp_node_app_done(mpp_node_ctx *ctx);

/* Flags in the tag of the application's notifications (so application tags
 * must stay below 2^28): */
#define MPP_APP_SENT 0x80000000u  /* a mpp_node_send_msg has written its last packet;
                                     src = its destination, bytes = its size */
#define MPP_APP_RECVD 0x40000000u /* a message matched by a mpp_node_post_recv has been
                                     read completely; src = its sender */
#define MPP_APP_REDUCED 0x20000000u /* the application's reduction (mpp_node_reduce) is
                                       released; src = the node, bytes = the result */
#define MPP_APP_CONTINUE 0x10000000u /* the application's continuation (mpp_node_yield);
                                        src = the node */
#define MPP_APP_TAG_MAX 0x0fffffffu

/* In a handler or start callback: send `bytes` to dst with tag as a
 * message of `paradigm` (an mpp_paradigm): sync and async pay
 * send_msg_cycles and do CMMD's REQ/REPLY/DATA handshake with a receive
 * posted at dst; am_put is a block transfer (no per-message cost). The
 * processor writes the data as it would for a blocking send; when the last
 * packet is written the handler runs at this node with tag | MPP_APP_SENT.
 * The send is outstanding until then (MPP_OP_APP waits for it). Returns 0,
 * or -1 when dst does not exist, tag > MPP_APP_TAG_MAX, the paradigm is am
 * (use mpp_node_send_am) or unknown, or the message would have more than
 * MPP_MSG_MAX_PACKETS packets. */
int mpp_node_send_msg(mpp_node_ctx *ctx, uint32_t dst, uint64_t bytes, uint32_t tag,
                      int paradigm);
/* In a handler or start callback: post a receive for a message from src
 * (or MPP_ANY) with tag, paying recv_msg_cycles. When the message has been
 * read completely the handler runs with tag | MPP_APP_RECVD (an am_put
 * stream that completed before the receive was posted ran its handler with
 * the plain tag then, and the receive completes silently). Outstanding
 * until complete. Returns 0, or -1 when src is not a node (nor MPP_ANY) or
 * tag > MPP_APP_TAG_MAX. */
int mpp_node_post_recv(mpp_node_ctx *ctx, uint32_t src, uint32_t tag);
/* In a handler or start callback: the processor copies or scans `words`
 * words of memory (words x mem_word_cycles CPU cycles). */
void mpp_node_copy_words(mpp_node_ctx *ctx, uint64_t words);
/* In a handler or start callback: the application cannot go on (its
 * protocol has failed, e.g. it spins without progress); the run stops at
 * the end of this cycle with an error whose text is `why` (copied, at most
 * 255 bytes kept). The first failure reported wins. */
void mpp_node_fail(mpp_node_ctx *ctx, const char *why);

/* The start callback of MPP_OP_APP. */
typedef void (*mpp_app_start)(void *ud, mpp_node_ctx *ctx, uint32_t node);

/* The most CPU cycles one COMPUTE may take (a processor's clock, in CPU
 * cycles, must not wrap in any run). */
#define MPP_OP_MAX_COMPUTE (UINT64_C(1) << 50)

/* One node's program. */
typedef struct mpp_program {
    const mpp_op *ops;
    uint32_t len;
} mpp_program;

/* Programs of n nodes being built: prog[i] is node i's program so far (its
 * ops owned by the builder). */
typedef struct mpp_progbuild {
    uint32_t n;
    mpp_program *prog;  /* [n] */
    uint32_t *cap;      /* [n] ops allocated per node */
} mpp_progbuild;

/* Start n empty programs. Fails with MPP_ENOMEM (b then holds nothing). */
int mpp_progbuild_init(mpp_progbuild *b, uint32_t n, mpp_err *err);
/* Append op to node's program (node < n). Returns 0 or MPP_ENOMEM. */
int mpp_progbuild_add(mpp_progbuild *b, uint32_t node, mpp_op op, mpp_err *err);
/* Free everything b owns; a zeroed builder is fine. */
void mpp_progbuild_free(mpp_progbuild *b);

#endif
