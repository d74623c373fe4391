/* core/results.h — what a run reports: the aggregate result record, the
 * per-packet, per-message and per-channel records, and the column tables
 * every writer (CSV, JSON, summary) walks. Types and tables only.
 *
 * The standard columns (mpp_result_fields) are the same for every run; the
 * engine fills the statistics it measures (throughput, latencies, node
 * processors), and a workload fills, in its finish hook, the ones only it
 * can know (a permutation's lower bound, a schedule's phases) and its own
 * extra columns (mpp_sim_result.extra, described by ops->columns), which
 * appear only in the results of experiments that use it. */
#ifndef MPP_CORE_RESULTS_H
#define MPP_CORE_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A workload's extra result value: an integer or a real, as its column
 * says. */
typedef union mpp_value {
    uint64_t u;
    double d;
} mpp_value;

/* The most extra columns one workload may declare. */
#define MPP_RESULT_EXTRA 10

/* Aggregate results of a run. Everything but wall_seconds is a pure
 * function of the configuration. Latencies in cycles. */
typedef struct mpp_sim_result {
    uint64_t seed;
    uint32_t nodes;               /* processing nodes of the network */
    uint64_t cycles;              /* all simulated cycles */
    uint64_t flit_hops;           /* all channel traversals (inject, inter-router, eject) */
    uint64_t router_cycles;       /* routers x simulated cycles (BookSim's measure of work) */
    double offered;               /* open-loop sources: their rate, flits/node/cycle (else NaN) */
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
    double misroutes_mean;        /* non-minimal hops per measured packet (router misroute) */
    uint32_t misroutes_max;       /* most non-minimal hops of a measured packet */
    double channel_util_mean;     /* mean utilisation of inter-router channels in the window */
    double channel_util_max;
    uint32_t peak_vc_flits;       /* largest occupancy of any VC buffer */
    uint64_t peak_source_queue;   /* longest source queue, packets */
    double latency_mean_us;       /* latency_mean in microseconds (NaN without net_mhz) */
    uint64_t makespan;            /* cycle the whole workload completed (node programs, or a
                                     workload that tracks its messages) */
    double message_latency_mean;  /* cycles per message, issue to delivery, mean */
    uint64_t message_latency_max;
    double lower_bound;           /* the workload's lower bound on a message's cycles (NaN: none) */
    double bound_ratio;           /* message_latency_mean / lower_bound */
    /* node programs (times from cycle 0, the release of the barrier that
     * starts the programs) */
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
    uint32_t phases;              /* the workload's communication phases (a schedule's) */
    uint64_t sched_steps;         /* elementary steps of computing the schedule (host work) */
    uint64_t inquiries;           /* runtime protocols: requests made (drs_n: lock inquiries) */
    double schedule_ms;           /* computing the schedule on one node processor (needs
                                     cpu_mhz; 0 for runtime protocols; NaN: no schedule) */
    double comm_ms;               /* the communication alone: makespan_ms of the replay */
    double total_ms;              /* schedule_ms / reuse + comm_ms */
    bool saturated;               /* accepted < 0.95 x offered, or < 0.98 x the generated
                                     load, or the measured packets did not drain */
    bool drained;                 /* all measured packets delivered */
    mpp_value extra[MPP_RESULT_EXTRA]; /* the workload's own columns (ops->columns) */
    double wall_seconds;          /* host time of mpp_sim_run: NOT deterministic */
    uint32_t threads;             /* host: threads that advanced the network (sim.threads, or
                                     fewer: docs/scaling.md); results do not depend
                                     on it */
} mpp_sim_result;

/* Types of result values. */
typedef enum mpp_field_type { MPP_F_U64, MPP_F_U32, MPP_F_DOUBLE, MPP_F_BOOL } mpp_field_type;

/* A standard column: a field of mpp_sim_result. */
typedef struct mpp_result_field {
    const char *name;
    mpp_field_type type;
    size_t offset;
    const char *help;
} mpp_result_field;
/* The standard columns in output order; all fields but seed, extra and
 * wall_seconds (which goes to the separate timing record). */
extern const mpp_result_field mpp_result_fields[];
extern const size_t mpp_result_nfields;

/* A workload's extra column: extra[i] holds its value, an integer
 * (MPP_F_U64: .u) or a real (MPP_F_DOUBLE: .d; NaN is written empty). */
typedef struct mpp_result_column {
    const char *name;
    mpp_field_type type;
    const char *help;
} mpp_result_column;

/* One column of the summary table `mppnet run` prints: the result column
 * `column` (standard or the workload's own) under `title`, width and
 * decimals (reals; booleans print yes/no). */
typedef struct mpp_summary_col {
    const char *column;
    const char *title;
    int width, prec;
} mpp_summary_col;

/* The summary-table columns of workloads that run node programs: messages,
 * makespan and per-message time, when the senders and receivers finished,
 * hops (MPP_SUMMARY_NODES_N entries). */
extern const mpp_summary_col mpp_summary_nodes[];
#define MPP_SUMMARY_NODES_N 7

/* Per-packet record handed to the packet hooks at delivery. */
typedef struct mpp_packet_record {
    uint32_t src, dst;       /* physical nodes */
    uint32_t flits;
    uint32_t hops;           /* inter-router links traversed */
    uint64_t created;        /* cycle the packet was created */
    uint64_t injected;       /* cycle its head entered the injection channel */
    uint64_t delivered;      /* cycle its tail was ejected */
    uint64_t tag;            /* the sender's tag (mpp_sim_send), 0 for open-loop sources;
                                node programs: packet kind << 32 | message number, kinds
                                1 request, 2 reply, 3 data, 4 active message, 5 put */
    bool measured;           /* created inside the measurement window */
} mpp_packet_record;

/* Node programs: one record per delivered message, in delivery order
 * (times in network cycles from cycle 0). */
typedef struct mpp_message_record {
    uint32_t src, dst;
    uint64_t bytes;
    uint32_t packets;
    uint32_t tag;          /* the sending operation's tag (never written to output files) */
    uint64_t issue;        /* the sending processor started the send */
    uint64_t first_inject; /* its first packet entered the network */
    uint64_t delivered;    /* the receiving processor consumed its last packet */
    double hops;           /* mean inter-router links per packet */
} mpp_message_record;

/* Per-channel record (when record_channels). */
typedef struct mpp_channel_info {
    char from[48];      /* "r12.E" or "n3.link0" */
    char to[48];
    uint64_t flits;     /* flits sent in the measurement window */
    double utilisation; /* flits / window cycles */
} mpp_channel_info;

#endif
