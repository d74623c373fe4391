/* core/sections.h — the configuration of one simulation: one record per
 * section of an experiment (network:, node:, workload:, and the run control
 * at the top level). Types only.
 *
 * Every record is a plain C struct held by value, so a configuration is
 * copied with `=`. Each section's keys, defaults and ranges are its schema
 * (core/schema.c for the engine's own sections, each plug-in's ops->schema
 * for plug-ins); the configuration layer (core/config/) fills the records
 * from YAML. The engine reads them once, at mpp_sim_create: mpp_net_init
 * takes only the network section, the node layer only the node section, a
 * workload only its own blob. */
#ifndef MPP_CORE_SECTIONS_H
#define MPP_CORE_SECTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/param.h"

typedef struct mpp_topo_ops mpp_topo_ops;
typedef struct mpp_routing_ops mpp_routing_ops;
typedef struct mpp_workload_ops mpp_workload_ops;

typedef enum mpp_flow { MPP_FLOW_WORMHOLE = 0, MPP_FLOW_CUT_THROUGH = 1 } mpp_flow;
typedef enum mpp_alloc { MPP_ALLOC_SEPARABLE = 0, MPP_ALLOC_ISLIP = 1, MPP_ALLOC_AGE = 2 } mpp_alloc;
/* The network interface (network.nic; docs/machines.md): ideal (unbounded
 * FIFOs, the processor moves every packet), model (bounded FIFOs, the
 * processor moves every packet: the CM-5) or dma (bounded FIFOs, a message
 * co-processor with send and receive DMA moves the packets: the Paragon). */
typedef enum mpp_nic_kind { MPP_NIC_IDEAL = 0, MPP_NIC_MODEL = 1, MPP_NIC_DMA = 2 } mpp_nic_kind;

/* Do the FIFO depths of the node section apply (model, dma)? */
static inline bool mpp_nic_bounded(int nic) { return nic != MPP_NIC_IDEAL; }

/* Messaging paradigms (core/node.c). */
typedef enum mpp_paradigm {
    MPP_PARADIGM_SYNC = 0,  /* blocking three-phase send/receive */
    MPP_PARADIGM_ASYNC = 1, /* non-blocking, handshake answered by interrupts */
    MPP_PARADIGM_AM = 2,    /* active messages: one packet, no handshake */
    MPP_PARADIGM_AM_PUT = 3 /* block transfer into an agreed receive port */
} mpp_paradigm;
typedef enum mpp_delivery { MPP_DELIVER_POLL = 0, MPP_DELIVER_INTERRUPT = 1 } mpp_delivery;
/* The node port model (node.ports; docs/model.md "Node ports"): auto is the
 * topology's own attachment (one-port where a node has one link, all-port
 * where it has several), one sends and receives one packet at a time, all
 * uses every link at once (a node of a direct network gets one link per
 * router-router port of its router). */
typedef enum mpp_ports { MPP_PORTS_AUTO = 0, MPP_PORTS_ONE = 1, MPP_PORTS_ALL = 2 } mpp_ports;

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
    bool wait_for_tail_credit;      /* an output VC is allocated again only when every credit,
                                       the tail's last, has returned (BookSim's key) */
    uint32_t input_speedup;         /* crossbar inputs per input port (VC v uses input
                                       v mod input_speedup; > 1 needs allocator islip) */
    uint32_t vc_reuse_delay;        /* cycles from a tail's departure until its output VC may
                                       be allocated again (> 1: BookSim's VC and switch
                                       allocation stages; 0, 1: the next cycle) */
    uint32_t link_latency;          /* cycles per channel (>= 1) */
    uint32_t credit_latency;        /* cycles for a credit to return (>= 1) */
    uint32_t message_classes;       /* message classes (>= 1); node programs: the interfaces */
    int flow;                       /* mpp_flow */
    int allocator;                  /* mpp_alloc */
    int nic;                        /* mpp_nic_kind */
    double net_mhz;                 /* network clock, 0 = unknown */
    uint64_t watchdog_cycles;       /* no-progress limit */
    bool shuffle_order;             /* testing: shuffle router order each cycle */
} mpp_net_config;

/* The node: processor and network interface (YAML section `node:`), used
 * by workloads that run node programs. Processor costs are in CPU cycles
 * (cpu_mhz), control-network times in network cycles. payload_words,
 * word_bits and flit_bits also define how every workload cuts bytes into
 * packets (core/packet.h). */
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
    uint32_t sendrecv_cycles;       /* a simultaneous send-and-receive call, beyond its send and receive */
    uint32_t async_msg_cycles;      /* an async message's extra on each side (CMMD's async layer) */
    uint32_t handshake_cycles;      /* reading a send request or its reply (CMMD's handshake) */
    uint32_t async_match_cycles;    /* an async data packet: per posted receive walked to find
                                       its message's receive */
    uint32_t switch_cycles;         /* a data packet of another message than the last one handled */
    uint32_t dma_packet_cycles;     /* nic: dma: the co-processor's work per packet moved */
    uint32_t dma_word_cycles;       /* nic: dma: a DMA engine moving one word of a packet */
    bool dma_stream;                /* nic: dma: a packet enters the network as its engine
                                       starts and its flits leave at the engine's rate */
    uint32_t recv_done_cycles;      /* completing a CMMD receive after its last packet */
    uint32_t phase_cycles;          /* a phase mark: a phased schedule's per-phase bookkeeping */
    uint32_t poll_cycles;           /* a poll that finds a packet */
    uint32_t poll_call_cycles;      /* an explicit poll call, whatever it finds (POLL; the
                                       applications' CMAML polls) */
    uint32_t strata_send_cycles;    /* writing a Strata active message, its poll included
                                       (0: send_packet_cycles) */
    uint32_t interrupt_cycles;      /* entering and leaving an interrupt handler */
    uint32_t handler_cycles;        /* an active-message / completion handler */
    uint64_t barrier_cycles;        /* control network: last entry to release */
    uint64_t reduce_cycles;         /* control network: a reduction */
    /* computing a schedule on one node processor (algorithms/schedule.h,
     * mpp_sched_work): CPU cycles per unit of the three kinds of work that
     * are priced (docs/machines.md says why the others are not) */
    uint32_t sched_scan_cycles;     /* one entry of the dense COM read */
    uint32_t sched_try_cycles;      /* one candidate tested against the receive mask */
    uint32_t sched_row_cycles;      /* one row visited by a phase's loop */
    uint64_t reduce_word_cycles;    /* control network: each word of a vector reduction
                                       after the first */
    uint32_t mem_word_cycles;       /* a word copied or scanned in memory by a program */
    uint64_t eager_bytes;           /* the mpi workload: messages of at most this many bytes
                                       go eagerly (am_put, no handshake), larger ones by
                                       rendezvous (sync) */
    /* the applications' compute model (algorithms/apps.h, mpp_app_work_cycles):
     * CPU cycles per operation of an expansion */
    uint32_t app_site_cycles;       /* a site taken off the wavefront and expanded */
    uint32_t app_test_cycles;       /* a neighbour site tested */
    uint32_t app_random_cycles;     /* a random number drawn */
    uint32_t app_queue_cycles;      /* a wavefront queue push or pop */
    int delivery;                   /* mpp_delivery for active messages */
    int ports;                      /* mpp_ports: the node port model */
} mpp_node_config;

/* A workload's configuration: its plug-in and its own struct (filled from
 * ops->schema; at most MPP_WORKLOAD_BLOB bytes). ops NULL: no workload, the
 * caller drives the simulation through the API (mpp_sim_send). */
#define MPP_WORKLOAD_BLOB 6144
typedef struct mpp_workload_config {
    const mpp_workload_ops *ops;    /* workload.type */
    struct {
        _Alignas(8) unsigned char b[MPP_WORKLOAD_BLOB];
    } cfg;                          /* the rest of workload: {...} */
} mpp_workload_config;

/* Run control: the top-level `seed` and what to record (set from the
 * experiment's output: section and the commands; not part of the model). */
typedef struct mpp_run_config {
    uint64_t seed;                  /* master seed of every random stream */
    bool record_channels;           /* per-channel utilisation */
    bool record_matrix;             /* source x destination flit matrix */
    bool record_ops;                /* node programs: every operation started (op traces) */
    uint32_t threads;               /* sim.threads: threads that advance the one network
                                       (1..MPP_SIM_MAX_THREADS; 0 is taken as 1); results do
                                       not depend on it (docs/scaling.md) */
} mpp_run_config;

/* The most threads one simulation may use (sim.threads). */
#define MPP_SIM_MAX_THREADS 256u

/* One simulation's whole configuration. */
typedef struct mpp_sim_config {
    mpp_net_config net;
    mpp_node_config node;
    mpp_workload_config workload;
    mpp_run_config run;
} mpp_sim_config;

#endif
