/* core/sim.h — one simulation: build, workload services, run, results
 * (mpp_sim_*).
 *
 * A simulation is a pure function of its mpp_sim_config (which includes the
 * seed): mpp_sim_create builds the network (topology, channels, routers,
 * pools) once and hands the machine to the configured workload's setup
 * hook (core/workload.h), which installs what the run does through the
 * services below; mpp_sim_run advances the cycle engine until that is done,
 * the watchdog fires or a limit is reached; the result and the optional
 * per-channel, traffic-matrix, message and operation records can then be
 * read. Two simulations in one process share nothing.
 *
 * The engine knows three kinds of work, never which workload installed it:
 *   - open-loop sources (mpp_sim_open_loop): Bernoulli injection from a
 *     traffic pattern with warm-up, measurement window and drain (SPEC 2,
 *     the BookSim-style mode); the run ends when the measured packets are
 *     delivered or the drain limit is reached;
 *   - packets (mpp_sim_send), created at the current cycle;
 *   - node programs (mpp_sim_programs) run by the node processors over the
 *     NIC, optionally driven by handler callbacks (mpp_sim_handlers).
 * Without open-loop sources a run ends when no packet waits, none is in the
 * network and every program has finished. With no workload (cfg.workload.ops
 * NULL) the caller installs work itself through the same services (tests,
 * and programs using mppnet as a library). */
#ifndef MPP_CORE_SIM_H
#define MPP_CORE_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/err.h"
#include "core/packet.h"
#include "core/program.h"
#include "core/results.h"
#include "core/sections.h"
#include "core/topo.h"
#include "core/traffic.h"

typedef struct mpp_sim mpp_sim;

/* Progress callback: called now and then from mpp_sim_run with the current
 * cycle and an estimate of the total. */
typedef void (*mpp_progress_fn)(void *ud, uint64_t cycle, uint64_t total);

/* A per-packet callback (API users; workloads use their on_packet hook). */
typedef void (*mpp_packet_fn)(void *ud, const mpp_packet_record *rec);

/* Build a simulation and set its workload up. Checks the configuration
 * (sizes, VC classes vs the routing's needs, the workload's own checks) and
 * returns NULL with err set (MPP_EINVAL, MPP_ENOMEM, or a workload's
 * MPP_EIO / MPP_EFORMAT for its input file) when it cannot. The caller owns
 * the result; cfg is copied. */
mpp_sim *mpp_sim_create(const mpp_sim_config *cfg, mpp_err *err);

/* The checks of mpp_sim_create (the topology, the network's sizes and VC
 * classes, the workload's setup) without building the network's arrays:
 * what a parent process runs on every run of an experiment before its
 * workers build them. Returns 0 or the error mpp_sim_create would give. */
int mpp_sim_validate(const mpp_sim_config *cfg, mpp_err *err);

/* What a run of a configuration will take in memory, from the
 * configuration alone (nothing is built): the topology's counts
 * (mpp_topo_ops.size, node.ports applied) and the estimated bytes of the
 * topology, the network (mpp_net_bytes), the engine's per-node state, the
 * node processors and the workload (mpp_workload_ops.bytes). The model
 * and its measurements: docs/performance.md, "Memory". */
typedef struct mpp_sim_size {
    uint64_t nodes, routers, endpoints;
    uint64_t topo_bytes, net_bytes, node_bytes, workload_bytes;
    uint64_t bytes;      /* the sum: the estimate of the run's memory */
    uint64_t limit;      /* mpp_sysmem_limit() when it was computed */
} mpp_sim_size;

/* Fill out for cfg. Refuses (MPP_EINVAL, the message naming the sizes
 * and the limit) a topology the schema accepts but the engine cannot
 * build (MPP_TOPO_MAX_ENDPOINTS) and a run whose estimate is above the
 * machine's memory (mpp_sysmem_limit); out is filled as far as known
 * either way. mpp_sim_create and mpp_sim_validate call it before they
 * build anything. */
int mpp_sim_size_of(const mpp_sim_config *cfg, mpp_sim_size *out, mpp_err *err);

/* Run to the end (see above). Returns 0; MPP_EDEADLOCK when the watchdog
 * fired (mpp_sim_report holds what is blocked); MPP_ENOMEM when a source
 * queue could not grow. progress may be NULL. Call once. */
int mpp_sim_run(mpp_sim *s, mpp_progress_fn progress, void *ud, mpp_err *err);

/* Advance until every packet is delivered and every program has finished,
 * or at most max_cycles. Returns 0, MPP_EDEADLOCK, or MPP_ERUN if
 * max_cycles ran out. May be called again after more work is installed. */
int mpp_sim_run_until_idle(mpp_sim *s, uint64_t max_cycles, mpp_err *err);

/* Advance exactly n cycles. */
int mpp_sim_step(mpp_sim *s, uint64_t n, mpp_err *err);

void mpp_sim_destroy(mpp_sim *s);

/* --- services for workloads (during setup) and API users ------------------- */

/* The simulation's configuration (its own copy) and machine. */
const mpp_sim_config *mpp_sim_config_get(const mpp_sim *s);
const mpp_topo *mpp_sim_topology(const mpp_sim *s);
/* How bytes become packets on this machine (the node section's sizes). */
const mpp_packetizer *mpp_sim_packetizer(const mpp_sim *s);
/* The resolved node port model (node.ports, docs/model.md "Node ports"):
 * true when nodes send and receive on all their links at once — ports:
 * all, or auto on a topology whose nodes have several links (the fat
 * tree) —, false when one-port (ports: one, or auto where every node has
 * one link: the mesh and hypercube). With ports: all on a mesh or
 * hypercube the topology (mpp_sim_topology) has the engine's extra links. */
bool mpp_sim_all_port(const mpp_sim *s);

/* Open-loop sources: every node creates a packet of packet_flits flits
 * with probability rate / packet_flits each cycle, to the destination the
 * pattern gives its logical id (placement maps logical ids to nodes).
 * Packets created in [warmup, warmup + measure) are measured; after the
 * window the run drains the measured packets for at most drain_factor x
 * measure cycles, the sources still injecting. The pattern's config must
 * outlive the simulation (a workload passes a pointer into its own cfg).
 * At most once, before the first cycle; fails with MPP_EINVAL (the pattern
 * does not fit the network, rate outside [0, 1], cut-through with packets
 * longer than a buffer) or MPP_ENOMEM. */
typedef struct mpp_open_loop {
    const mpp_pattern_ops *pattern;
    const void *pattern_cfg;
    int placement;              /* mpp_placement */
    double rate;                /* flits / node / cycle */
    uint32_t packet_flits;
    uint64_t warmup, measure;   /* cycles */
    uint32_t drain_factor;
} mpp_open_loop;
int mpp_sim_open_loop(mpp_sim *s, const mpp_open_loop *ol, mpp_err *err);

/* Without open-loop sources: measure throughput (accepted, channel
 * utilisation, the traffic matrix) over [start, start + length) instead of
 * the whole run. MPP_EINVAL when the end would pass 2^62 cycles
 * (MPP_CKD_TIME_MAX: the sum is checked, never wrapped). */
int mpp_sim_window(mpp_sim *s, uint64_t start, uint64_t length, mpp_err *err);

/* Queue a packet of `flits` flits from node src to node dst, created at
 * the current cycle, carrying tag (handed back in its packet record).
 * Returns 0, MPP_EINVAL (no such node, no flits, longer than a buffer under
 * cut-through, or open-loop sources are installed) or MPP_ENOMEM. */
int mpp_sim_send(mpp_sim *s, uint32_t src, uint32_t dst, uint32_t flits, uint64_t tag,
                 mpp_err *err);

/* Node programs: prog[0 .. nodes-1] (copied; a program of length 0 is an
 * idle node), run by the processors from cycle 0. Needs both clocks
 * (network.net_mhz, node.cpu_mhz) and, to use more than one NIC interface,
 * a workload with MPP_WL_NODES. At most once; fails with MPP_EINVAL (a bad
 * operation or node id, a missing clock) or MPP_ENOMEM. */
int mpp_sim_programs(mpp_sim *s, const mpp_program *prog, mpp_err *err);

/* The active-message handler and MPP_OP_APP start callback of the
 * programs, with their user data (which must outlive the simulation). */
void mpp_sim_handlers(mpp_sim *s, mpp_am_handler handler, mpp_app_start start, void *ud);

/* Testing: step every cycle of a settled network instead of jumping over
 * it (MPP_SIM_SETTLE_CYCLES), so that a test can hold the jump to the
 * stepped run. Before mpp_sim_run. */
void mpp_sim_step_settled(mpp_sim *s);

/* Call fn for every delivered packet (NULL: none). */
void mpp_sim_on_packet(mpp_sim *s, mpp_packet_fn fn, void *ud);

/* --- results ------------------------------------------------------------------ */

uint64_t mpp_sim_cycle(const mpp_sim *s);
const mpp_sim_result *mpp_sim_result_get(const mpp_sim *s);

/* The deadlock report after MPP_EDEADLOCK (empty string otherwise). */
const char *mpp_sim_report(const mpp_sim *s);
/* The state the workload's setup made (its *priv), for a front end that
 * reads the workload's own report after the run (the mpi workload's,
 * algorithms/wl_mpi.h); NULL when it made none. Owned by s. */
const void *mpp_sim_workload_priv(const mpp_sim *s);

/* Channels (router-to-router and node links, both directions). */
size_t mpp_sim_channel_count(const mpp_sim *s);
void mpp_sim_channel_get(const mpp_sim *s, size_t i, mpp_channel_info *out);

/* Node programs: operations the processors started, in order (when
 * run.record_ops), and the delivered messages in delivery order. */
size_t mpp_sim_op_count(const mpp_sim *s);
void mpp_sim_op_get(const mpp_sim *s, size_t i, uint32_t *node, uint64_t *cycle, mpp_op *op);
size_t mpp_sim_message_count(const mpp_sim *s);
void mpp_sim_message_get(const mpp_sim *s, size_t i, mpp_message_record *out);

/* Measured source x destination flit counts, row-major [nodes x nodes], or
 * NULL when run.record_matrix was off. */
const uint64_t *mpp_sim_traffic_matrix(const mpp_sim *s);

/* The most packets all source queues (send FIFOs) may hold at once: 2^25
 * entries of 32 bytes, 1 GiB. An open-loop run far past saturation, or a
 * message written at once into an unbounded (nic: ideal) send FIFO, stops
 * with MPP_EINVAL instead of taking the machine's memory (docs/config.md). */
#define MPP_SIM_MAX_QUEUED (1u << 25)

/* --- invariants ------------------------------------------------------------------ */

/* Check the engine's invariants: for every VC credits + occupancy + flits
 * and credits in flight == depth; every flit in exactly one place (flits
 * injected == ejected + in buffers and on channels); VC ownership; the
 * source-queue and receive-FIFO counts. O(network size): the debug builds
 * call it from assert every MPP_SIM_CHECK_EVERY cycles of the run (release
 * builds compile the calls away); tests call it directly. */
bool mpp_sim_check(const mpp_sim *s);
#define MPP_SIM_CHECK_EVERY 1024

/* A run of node programs in which no flit has moved for this many cycles
 * and nothing is on a link is at a fixed point until a processor acts, and
 * mpp_sim_run jumps there: longer than any pacing gap (a paced packet's
 * flits are at most 65535 / 256 cycles apart) and any link or credit
 * latency still in transit (checked). */
#define MPP_SIM_SETTLE_CYCLES 1024

/* Totals for invariant tests. */
typedef struct mpp_sim_counts {
    uint64_t flits_injected, flits_ejected, flits_in_network;
    uint64_t packets_injected, packets_delivered, packets_queued;
} mpp_sim_counts;
void mpp_sim_counts_get(const mpp_sim *s, mpp_sim_counts *out);

/* Tests only: the network inside s (to corrupt it on purpose and see the
 * checkers fire). */
struct mpp_net *mpp_sim_network(mpp_sim *s);

#endif
