/* core/sim.h — one simulation: configuration, run, results (mpp_sim_*).
 *
 * A simulation is a pure function of its mpp_sim_config (which includes the
 * seed): mpp_sim_create builds the network (topology, channels, routers,
 * pools) once, mpp_sim_run advances the cycle engine until the workload is
 * done, the watchdog fires or a limit is reached, and the result and the
 * optional per-channel and traffic-matrix records can then be read. Two
 * simulations in one process share nothing.
 *
 * Workloads: MPP_WL_SYNTHETIC is BookSim-style traffic (pattern, Bernoulli
 * injection, warm-up / measurement / drain). MPP_WL_MANUAL injects nothing by
 * itself: the caller adds packets with mpp_sim_send and advances with
 * mpp_sim_run_until_idle (tests, and the layers above the engine). */
#ifndef MPP_CORE_SIM_H
#define MPP_CORE_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/err.h"
#include "core/base/param.h"
#include "core/program.h"
#include "core/traffic.h"
#include "core/route.h"
#include "core/topo.h"

typedef enum mpp_flow { MPP_FLOW_WORMHOLE = 0, MPP_FLOW_CUT_THROUGH = 1 } mpp_flow;
typedef enum mpp_alloc { MPP_ALLOC_SEPARABLE = 0, MPP_ALLOC_ISLIP = 1 } mpp_alloc;
typedef enum mpp_nic_kind { MPP_NIC_IDEAL = 0, MPP_NIC_MODEL = 1 } mpp_nic_kind;
typedef enum mpp_workload_kind {
    MPP_WL_SYNTHETIC = 0,   /* Bernoulli sources, warm-up / measure / drain */
    MPP_WL_PERMUTATION = 1, /* every node one message to its pattern partner at cycle 0 */
    MPP_WL_MESSAGES = 2,    /* node programs: messages through the NIC and processors */
    MPP_WL_SCHEDULE = 3,    /* a COM scheduled and replayed by the node processors */
    MPP_WL_MANUAL = 4       /* API only: packets added with mpp_sim_send */
} mpp_workload_kind;
typedef enum mpp_placement { MPP_PLACE_IDENTITY = 0, MPP_PLACE_RANDOM = 1 } mpp_placement;

/* The network: YAML section `network:`. */
typedef struct mpp_net_config {
    const mpp_topo_ops *topo;       /* network.topology */
    mpp_blob topo_cfg;              /* network.<topology name>: {...} */
    const mpp_routing_ops *routing; /* network.router */
    mpp_blob routing_cfg;           /* network.<router name>: {...} */
    uint32_t vcs;                   /* VCs per input port */
    uint32_t vcs_per_class;         /* > 0: vcs = classes x this (overrides vcs) */
    uint32_t buffer_flits;          /* flits per VC buffer */
    uint32_t router_delay;          /* cycles from arrival to earliest departure */
    uint32_t link_latency;          /* cycles per channel (>= 1) */
    uint32_t credit_latency;        /* cycles for a credit to return (>= 1) */
    uint32_t message_classes;       /* message classes (>= 1) */
    int flow;                       /* mpp_flow */
    int allocator;                  /* mpp_alloc */
    int nic;                        /* mpp_nic_kind */
    double net_mhz;                 /* network clock, 0 = unknown */
    uint64_t watchdog_cycles;       /* no-progress limit */
    bool shuffle_order;             /* testing: shuffle router order each cycle */
} mpp_net_config;

/* Messaging paradigms (core/node.c). */
typedef enum mpp_paradigm {
    MPP_PARADIGM_SYNC = 0,  /* blocking three-phase send/receive */
    MPP_PARADIGM_ASYNC = 1, /* non-blocking, handshake answered by interrupts */
    MPP_PARADIGM_AM = 2,    /* active messages: one packet, no handshake */
    MPP_PARADIGM_AM_PUT = 3 /* block transfer into an agreed receive port */
} mpp_paradigm;
typedef enum mpp_delivery { MPP_DELIVER_POLL = 0, MPP_DELIVER_INTERRUPT = 1 } mpp_delivery;
typedef enum mpp_shape {
    MPP_SHAPE_PERMUTATION = 0, /* every node exchanges with its pattern partner */
    MPP_SHAPE_GATHER = 1,      /* nodes 0..senders-1 each send to `receiver` */
    MPP_SHAPE_LIST = 2         /* an explicit list of [src, dst, bytes] */
} mpp_shape;

/* The node: processor and network interface (YAML section `node:`), used
 * with nic: model and the messages workload. Processor costs are in CPU
 * cycles (cpu_mhz), control-network times in network cycles. */
typedef struct mpp_node_config {
    double cpu_mhz;                 /* processor clock */
    uint32_t interfaces;            /* NIC interfaces (= message classes); CM-5: 2 */
    uint32_t send_fifo_packets;     /* send FIFO depth per interface */
    uint32_t recv_fifo_packets;     /* receive FIFO depth per interface */
    uint32_t payload_words;         /* data words per packet (CM-5: 4) */
    uint32_t word_bits;             /* bits per word (32) */
    uint32_t flit_bits;             /* bits per flit (32: one flit per word) */
    uint32_t send_packet_cycles;    /* write one packet into the send FIFO */
    uint32_t recv_packet_cycles;    /* read one packet from a receive FIFO */
    uint32_t send_msg_cycles;       /* per message sent (protocol, bookkeeping) */
    uint32_t recv_msg_cycles;       /* per receive posted */
    uint32_t poll_cycles;           /* a poll that finds a packet */
    uint32_t interrupt_cycles;      /* entering and leaving an interrupt handler */
    uint32_t handler_cycles;        /* an active-message / completion handler */
    uint64_t barrier_cycles;        /* control network: last entry to release */
    uint64_t reduce_cycles;         /* control network: a reduction */
    int delivery;                   /* mpp_delivery for active messages */
} mpp_node_config;

/* Synthetic traffic: YAML section `workload:` with type synthetic. */
typedef struct mpp_synth_config {
    const mpp_pattern_ops *pattern; /* workload.pattern */
    mpp_blob pattern_cfg;           /* workload.<pattern name>: {...} */
    double rate;                    /* offered flits / node / cycle */
    uint32_t packet_flits;          /* flits per packet */
    uint64_t warmup;                /* cycles before measurement */
    uint64_t measure;               /* measurement window, cycles */
    uint32_t drain_factor;          /* drain limit = drain_factor x measure */
    int placement;                  /* mpp_placement */
    /* MPP_WL_PERMUTATION: each node's message is `packets` packets of
     * packet_flits flits, or, when bytes > 0, bytes cut into packets of 16
     * payload bytes (1 header flit + up to 4 data flits of 32 bits). */
    uint32_t packets;
    uint64_t bytes;
    /* MPP_WL_MESSAGES */
    int paradigm;                   /* mpp_paradigm */
    int shape;                      /* mpp_shape */
    uint32_t senders;               /* gather: nodes 0..senders-1 */
    uint32_t receiver;              /* gather: the receiving node */
    mpp_sendlist sends;             /* list: the messages */
    /* MPP_WL_SCHEDULE */
    const struct mpp_sched_ops *scheduler; /* workload.scheduler */
    mpp_blob sched_cfg;             /* workload.<scheduler name>: {...} */
    char com[MPP_STR_MAX];          /* a COM file, or "" to generate one */
    uint32_t com_step;              /* which matrix of a sequence file */
    int gen;                        /* generator: 0 random-regular, 1 random-nonuniform */
    uint32_t d;                     /* generator: messages per processor */
    uint64_t units;                 /* random-regular: units per message */
    uint64_t msg_unit;              /* bytes per unit (0: the file's) */
    bool simulate;                  /* false: only schedule (phases, steps), no replay */
} mpp_synth_config;

/* Per-packet record handed to mpp_sim_config.on_packet at delivery. */
typedef struct mpp_packet_record {
    uint32_t src, dst;       /* physical nodes */
    uint32_t flits;
    uint32_t hops;           /* inter-router links traversed */
    uint64_t created;        /* cycle the packet was created */
    uint64_t injected;       /* cycle its head entered the injection channel */
    uint64_t delivered;      /* cycle its tail was ejected */
    uint64_t tag;            /* caller's tag (mpp_sim_send), 0 for synthetic; messages
                                workload: packet kind << 32 | message number, kinds
                                1 request, 2 reply, 3 data, 4 active message, 5 put */
    bool measured;           /* created inside the measurement window */
} mpp_packet_record;

typedef struct mpp_sim_config {
    mpp_net_config net;
    mpp_node_config node;
    int workload;                   /* mpp_workload_kind */
    mpp_synth_config synth;
    uint64_t seed;
    /* Outputs that cost memory or time, off by default. */
    bool record_channels;           /* per-channel utilisation */
    bool record_matrix;             /* source x destination flit matrix */
    bool record_ops;                /* node programs: every operation started (op traces) */
    /* Messages workload: explicit programs, one per node ([nodes], owned by
     * the caller, copied at create), instead of the workload's shape. Not
     * part of YAML: for algorithms and tests. */
    const mpp_program *programs;
    /* Messages workload: the application's active-message handler (NULL:
     * none) and its user data. */
    mpp_am_handler am_handler;
    mpp_app_start app_start;        /* MPP_OP_APP's callback (NULL: none) */
    void *am_handler_ud;            /* user data of both */
    /* Optional per-packet callback (not part of YAML). */
    void (*on_packet)(void *ud, const mpp_packet_record *rec);
    void *on_packet_ud;
} mpp_sim_config;

/* Fill cfg with every default (as the schemas say): 8x8 mesh, ecube, 2 VCs
 * of 8 flits, wormhole, separable allocation, latencies 1, uniform traffic
 * at 0.1, 5-flit packets, 10000 + 30000 cycles, drain factor 10, seed 1. */
void mpp_sim_config_defaults(mpp_sim_config *cfg);

/* Aggregate results of a run. Everything but wall_seconds is a pure
 * function of the configuration. Latencies in cycles. */
typedef struct mpp_sim_result {
    uint64_t seed;
    uint32_t nodes;               /* processing nodes of the network */
    uint64_t cycles;              /* all simulated cycles */
    uint64_t flit_hops;           /* all channel traversals (inject, inter-router, eject) */
    uint64_t router_cycles;       /* routers x simulated cycles (BookSim's measure of work) */
    double offered;               /* configured rate, flits/node/cycle */
    double injected_rate;         /* flits created per node per cycle in the window */
    double accepted;              /* flits ejected per node per cycle in the window */
    double accepted_min;          /* the least of the per-node accepted rates */
    uint64_t packets_measured;    /* created in the window */
    uint64_t packets_delivered;   /* of those, delivered */
    double latency_mean;          /* from creation (latency_total) */
    double latency_p50, latency_p95, latency_p99;
    uint64_t latency_max;
    double latency_network_mean;  /* from head injection to tail ejection */
    double latency_network_p50, latency_network_p95, latency_network_p99;
    uint64_t latency_network_max;
    double hops_mean;             /* inter-router links per measured packet */
    double channel_util_mean;     /* mean utilisation of inter-router channels in the window */
    double channel_util_max;
    uint32_t peak_vc_flits;       /* largest occupancy of any VC buffer */
    uint64_t peak_source_queue;   /* longest source queue, packets */
    double latency_mean_us;       /* latency_mean in microseconds (NaN without net_mhz) */
    uint64_t makespan;            /* permutation: cycle the last message completed */
    double message_latency_mean;  /* permutation: cycles from issue (cycle 0) to a
                                     message's last packet delivered, mean */
    uint64_t message_latency_max;
    double lower_bound;           /* permutation: max(bisection bound, ejection bound), cycles */
    double bound_ratio;           /* message_latency_mean / lower_bound */
    /* messages workload (node programs; times from cycle 0, the release of
     * the barrier that starts the programs) */
    uint64_t messages;            /* messages delivered */
    double makespan_ms;           /* makespan in milliseconds (needs net_mhz) */
    double message_latency_us;    /* message_latency_mean in microseconds */
    double send_done_min_ms;      /* over nodes that send: when their last send completed */
    double send_done_mean_ms;
    double send_done_max_ms;
    double recv_done_max_ms;      /* over nodes that receive: last receive completed */
    double recv_done_mean_ms;
    double send_busy_mean_ms;     /* processor time writing packets, mean over nodes */
    double recv_busy_mean_ms;     /* processor time reading packets, mean over nodes */
    uint32_t send_fifo_peak;      /* largest send FIFO occupancy, packets */
    uint32_t recv_fifo_peak;      /* largest receive FIFO occupancy, packets */
    uint64_t interrupts;          /* interrupt handlers run */
    uint32_t phases;              /* schedule workload: phases of the schedule */
    uint64_t sched_steps;         /* schedule workload: elementary scheduling steps */
    uint64_t inquiries;           /* drs_n: lock inquiries that found the lock busy */
    bool saturated;               /* accepted < 0.95 x offered, or < 0.98 x the generated
                                     load, or the measured packets did not drain */
    bool drained;                 /* all measured packets delivered */
    double wall_seconds;          /* host time of mpp_sim_run: NOT deterministic */
} mpp_sim_result;

/* The result fields in output order, for CSV/JSON writers and tables. */
typedef enum mpp_field_type { MPP_F_U64, MPP_F_U32, MPP_F_DOUBLE, MPP_F_BOOL } mpp_field_type;
typedef struct mpp_result_field {
    const char *name;
    mpp_field_type type;
    size_t offset;
    const char *help;
} mpp_result_field;
/* All fields except wall_seconds (which goes to the separate timing record). */
extern const mpp_result_field mpp_result_fields[];
extern const size_t mpp_result_nfields;

/* Per-channel record (when record_channels). */
typedef struct mpp_channel_info {
    char from[48];      /* "r12.E" or "n3.link0" */
    char to[48];
    uint64_t flits;     /* flits sent in the measurement window */
    double utilisation; /* flits / window cycles */
} mpp_channel_info;

typedef struct mpp_sim mpp_sim;

/* Progress callback: called now and then from mpp_sim_run with the current
 * cycle and an estimate of the total. */
typedef void (*mpp_progress_fn)(void *ud, uint64_t cycle, uint64_t total);

/* Build a simulation. Checks the configuration (sizes, VC classes vs the
 * routing's needs, pattern vs network size) and returns NULL with err set
 * (MPP_EINVAL, MPP_ENOMEM) when it cannot. The caller owns the result;
 * cfg is copied. */
mpp_sim *mpp_sim_create(const mpp_sim_config *cfg, mpp_err *err);

/* Run the configured workload to the end. Returns 0; MPP_EDEADLOCK when the
 * watchdog fired (mpp_sim_report holds what is blocked). progress may be
 * NULL. Call once. */
int mpp_sim_run(mpp_sim *s, mpp_progress_fn progress, void *ud, mpp_err *err);

/* MPP_WL_MANUAL: queue a packet of `flits` flits from node src to node dst,
 * created at the current cycle, carrying tag. Returns 0 or MPP_EINVAL. */
int mpp_sim_send(mpp_sim *s, uint32_t src, uint32_t dst, uint32_t flits, uint64_t tag,
                 mpp_err *err);

/* MPP_WL_MANUAL: advance until every queued packet is delivered, or at most
 * max_cycles. Returns 0, MPP_EDEADLOCK, or MPP_ERUN if max_cycles ran out. */
int mpp_sim_run_until_idle(mpp_sim *s, uint64_t max_cycles, mpp_err *err);

/* Advance exactly n cycles (any workload). */
int mpp_sim_step(mpp_sim *s, uint64_t n, mpp_err *err);

uint64_t mpp_sim_cycle(const mpp_sim *s);
const mpp_sim_result *mpp_sim_result_get(const mpp_sim *s);
const mpp_topo *mpp_sim_topology(const mpp_sim *s);

/* The deadlock report after MPP_EDEADLOCK (empty string otherwise). */
const char *mpp_sim_report(const mpp_sim *s);

/* Channels (router-to-router and node links, both directions). */
size_t mpp_sim_channel_count(const mpp_sim *s);
void mpp_sim_channel_get(const mpp_sim *s, size_t i, mpp_channel_info *out);

/* Messages workload: one record per delivered message, in delivery order
 * (times in network cycles from cycle 0). */
typedef struct mpp_message_record {
    uint32_t src, dst;
    uint64_t bytes;
    uint32_t packets;
    uint64_t issue;        /* the sending processor started the send */
    uint64_t first_inject; /* its first packet entered the network */
    uint64_t delivered;    /* the receiving processor consumed its last packet */
    double hops;           /* mean inter-router links per packet */
} mpp_message_record;
/* Operations the processors started, in order (record_ops). */
size_t mpp_sim_op_count(const mpp_sim *s);
void mpp_sim_op_get(const mpp_sim *s, size_t i, uint32_t *node, uint64_t *cycle, mpp_op *op);
size_t mpp_sim_message_count(const mpp_sim *s);
void mpp_sim_message_get(const mpp_sim *s, size_t i, mpp_message_record *out);

/* Measured source x destination flit counts, row-major [nodes x nodes], or
 * NULL when record_matrix was off. */
const uint64_t *mpp_sim_traffic_matrix(const mpp_sim *s);

/* Check the engine invariants: credits + occupancy + in-flight == depth for
 * every VC, flits injected == ejected + in network, VC ownership
 * consistent. Cheap enough for tests, too slow for every cycle. */
bool mpp_sim_check(const mpp_sim *s);

/* Totals for invariant tests. */
typedef struct mpp_sim_counts {
    uint64_t flits_injected, flits_ejected, flits_in_network;
    uint64_t packets_injected, packets_delivered, packets_queued;
} mpp_sim_counts;
void mpp_sim_counts_get(const mpp_sim *s, mpp_sim_counts *out);

void mpp_sim_destroy(mpp_sim *s);

#endif
