/* core/node.h — node processors running message-passing programs over the
 * network interface (mpp_nodes_*). Internal to the engine (core/sim.c).
 *
 * Each node runs a program: a list of operations (mpp_op). The processor is
 * one resource with its own clock (cpu_mhz): writing a packet into a send
 * FIFO, reading one from a receive FIFO, running a handler, posting a
 * receive all cost CPU cycles, kept exactly in CPU cycles and mapped to the
 * first network cycle at or after them. The messaging paradigms (sync,
 * async, am, am_put) decide which packets a message becomes (request,
 * reply, data, active message, put) and when the processor reads them (by
 * polling or on interrupt). See core/node.c for the protocols. */
#ifndef MPP_CORE_NODE_H
#define MPP_CORE_NODE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/err.h"
#include "core/base/strbuf.h"
#include "core/network.h"
#include "core/packet.h"
#include "core/program.h"
#include "core/results.h"
#include "core/sections.h"

typedef struct mpp_nodes mpp_nodes;

/* How the node layer hands a written packet to the NIC: push e onto node's
 * send FIFO of interface cls (the simulation's source queue). Returns false
 * when out of memory. */
typedef bool (*mpp_nodes_push_fn)(void *ud, uint32_t node, uint32_t cls, const mpp_src_entry *e);

/* All-port on a direct network (node.ports: all), where each node link has
 * its own send FIFO per interface: the FIFO of node's interface cls that a
 * packet to dst would be written into now (its first hop's link). A query:
 * it changes nothing, and the push that follows it goes to that FIFO. */
typedef const mpp_srcq *(*mpp_nodes_queue_fn)(void *ud, uint32_t node, uint32_t cls,
                                              uint32_t dst);

/* What the node layer needs besides its own section. */
typedef struct mpp_nodes_env {
    double net_mhz;               /* the network clock (network.net_mhz) */
    bool nic_model;               /* network.nic: model or dma (FIFO depths apply) */
    bool nic_dma;                 /* network.nic: dma (DMA engines move the packets) */
    bool record_ops;              /* record every operation started */
    const mpp_packetizer *pk;     /* how messages become packets */
    mpp_nodes_queue_fn queue_for; /* NULL: one send FIFO per interface, q[n x MC + cls];
                                     else a FIFO per link, q[l x MC + cls] for node n's
                                     links l (net->topo), found with this */
} mpp_nodes_env;

/* Create the processors for N nodes with programs prog[n][0..len[n]-1]
 * (copied). q are the send FIFOs [N x interfaces], or [links x interfaces]
 * with env->queue_for (owned by the caller and
 * filled through push), net the network (for the packet pool and the
 * receive-FIFO credits). Fails with MPP_EINVAL (no clock, a zero size) or
 * MPP_ENOMEM. */
mpp_nodes *mpp_nodes_create(const mpp_node_config *c, const mpp_nodes_env *env, uint32_t N,
                            mpp_net *net, mpp_srcq *q, mpp_nodes_push_fn push, void *ud,
                            const mpp_op *const *prog, const uint32_t *len, mpp_err *err);

/* The bytes mpp_nodes_create takes for N nodes of `interfaces` receive
 * FIFOs each, before their programs (the node records, the FIFOs' rings,
 * the wake-up heap). Pure arithmetic (sizing before building). */
uint64_t mpp_nodes_bytes(uint64_t N, uint32_t interfaces);

/* The applications' callbacks (handler, MPP_OP_APP start) and their data. */
void mpp_nodes_set_handlers(mpp_nodes *ns, mpp_am_handler handler, mpp_app_start start,
                            void *ud);

/* True when an allocation failed while running (the run must stop). */
bool mpp_nodes_oom(const mpp_nodes *ns);
/* The failure an application reported (mpp_node_fail), or NULL. */
const char *mpp_nodes_failure(const mpp_nodes *ns);
void mpp_nodes_destroy(mpp_nodes *ns);

/* The network delivered the tail of packet handle h to node n in cycle c
 * (the packet is complete in the receive FIFO). */
void mpp_nodes_arrive(mpp_nodes *ns, uint32_t n, uint32_t h, uint64_t c);
/* A packet left node n's send FIFO in cycle c (room for another). */
void mpp_nodes_fifo_space(mpp_nodes *ns, uint32_t n, uint64_t c);

/* Run every processor due in cycle c (hot enough: called every cycle). */
void mpp_nodes_step(mpp_nodes *ns, uint64_t c);

/* The next cycle at which a processor wants to act (UINT64_MAX: none). */
uint64_t mpp_nodes_next_wake(const mpp_nodes *ns);

/* The network cycle at which the longest action any processor (or, with
 * nic: dma, any engine) has begun ends: a processor computing is progress
 * still to come, so the watchdog counts from here when this is later than
 * the last flit that moved (a long compute or back-off is not a deadlock). */
uint64_t mpp_nodes_busy_until(const mpp_nodes *ns);

/* True when every program has finished. */
bool mpp_nodes_done(const mpp_nodes *ns);

/* Invariant checker (FIFO counts): no send FIFO above its depth, every
 * packet in a receive FIFO addressed to it and covered by the space its
 * links reserved, the count of unfinished programs. O(nodes + packets
 * waiting). */
bool mpp_nodes_check(const mpp_nodes *ns);

/* Fill the messages-workload fields of r. */
void mpp_nodes_results(const mpp_nodes *ns, mpp_sim_result *r);

/* Delivered messages, in delivery order. */
size_t mpp_nodes_msg_count(const mpp_nodes *ns);
void mpp_nodes_msg_get(const mpp_nodes *ns, size_t i, mpp_message_record *out);

/* Operations started, in order (when record_ops). */
size_t mpp_nodes_op_count(const mpp_nodes *ns);
void mpp_nodes_op_get(const mpp_nodes *ns, size_t i, uint32_t *node, uint64_t *cycle, mpp_op *op);

/* Append what the unfinished processors wait for (deadlock report): at most
 * max_lines, those with packets in their receive FIFOs first. */
void mpp_nodes_report(const mpp_nodes *ns, mpp_sb *sb, uint32_t max_lines);

#endif
