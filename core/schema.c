/* core/schema.c — the schemas of the engine's sections (see schema.h).
 * Each row is key, type, offset, default, range, choices and help; the
 * defaults documented in docs/config.md are these. */
#include "core/schema.h"

#include <stddef.h>
#include <string.h>

#include "core/base/ckd.h"

static const char *const flow_choices[] = {"wormhole", "cut-through", NULL};
static const char *const alloc_choices[] = {"separable", "islip", "age", NULL};
static const char *const nic_choices[] = {"ideal", "model", "dma", NULL};
static const char *const delivery_choices[] = {"poll", "interrupt", NULL};
static const char *const ports_choices[] = {"auto", "one", "all", NULL};
const char *const mpp_paradigm_names[] = {"sync", "async", "am", "am_put", NULL};

#define NET(f) offsetof(mpp_net_config, f)

/* `network:` keys (offsets into mpp_net_config). topology and router are
 * plug-in selectors, handled apart. */
static const mpp_param net_params[] = {
    {"vcs", MPP_PT_U32, NET(vcs), "2", 1, 64, NULL, "virtual channels per input port"},
    {"vcs_per_class", MPP_PT_U32, NET(vcs_per_class), "0", 0, 64, NULL,
     "if > 0: vcs = (message classes x the router's route classes) x this"},
    {"buffer_flits", MPP_PT_U32, NET(buffer_flits), "8", 1, 65535, NULL, "flits per VC buffer"},
    {"router_delay", MPP_PT_U32, NET(router_delay), "1", 0, 1000, NULL,
     "router pipeline cycles from arrival to earliest departure"},
    {"wait_for_tail_credit", MPP_PT_BOOL, NET(wait_for_tail_credit), "false", 0, 0, NULL,
     "an output VC freed by a tail is allocated again only once the tail's credit has returned "
     "(BookSim's wait_for_tail_credit)"},
    {"input_speedup", MPP_PT_U32, NET(input_speedup), "1", 1, 8, NULL,
     "crossbar inputs per input port: up to this many flits leave an input port a cycle, from "
     "VCs of different residues v mod input_speedup (BookSim's input_speedup; > 1 needs "
     "allocator islip)"},
    {"vc_reuse_delay", MPP_PT_U32, NET(vc_reuse_delay), "0", 0, 1000, NULL,
     "cycles from a tail's departure until its output VC may be allocated again (BookSim's "
     "iq router: vc_alloc_delay + sw_alloc_delay); 0 or 1: the next cycle"},
    {"link_latency", MPP_PT_U32, NET(link_latency), "1", 1, 1000, NULL, "cycles per channel"},
    {"credit_latency", MPP_PT_U32, NET(credit_latency), "1", 1, 1000, NULL,
     "cycles for a credit to return"},
    {"message_classes", MPP_PT_U32, NET(message_classes), "1", 1, 8, NULL,
     "message classes (separate virtual networks)"},
    {"flow_control", MPP_PT_ENUM, NET(flow), "wormhole", 0, 0, flow_choices,
     "wormhole, or cut-through (a VC only for a whole packet)"},
    {"allocator", MPP_PT_ENUM, NET(allocator), "separable", 0, 0, alloc_choices,
     "allocator: separable round-robin, one-iteration iSLIP, or age (separable, oldest packet "
     "first in VC and switch allocation)"},
    {"nic", MPP_PT_ENUM, NET(nic), "ideal", 0, 0, nic_choices, "network interface model"},
    {"net_mhz", MPP_PT_DOUBLE, NET(net_mhz), "0", 0, 1e6, NULL,
     "network clock in MHz (0: unknown; needed for times such as 1.5us)"},
    {"watchdog_cycles", MPP_PT_CYCLES, NET(watchdog_cycles), "100000", 1, MPP_CKD_WINDOW_MAX, NULL,
     "cycles without progress before a run stops as deadlocked"},
    {"shuffle_order", MPP_PT_BOOL, NET(shuffle_order), "false", 0, 0, NULL,
     "testing: shuffle the router update order every cycle"},
};

#define NODE(f) offsetof(mpp_node_config, f)

/* `node:` keys: the processor and network interface (nic: model and the
 * messages workload). */
static const mpp_param node_params[] = {
    {"cpu_mhz", MPP_PT_DOUBLE, NODE(cpu_mhz), "0", 0, 1e6, NULL,
     "processor clock in MHz (0: unknown; needed by node programs)"},
    {"interfaces", MPP_PT_U32, NODE(interfaces), "1", 1, 8, NULL,
     "NIC interfaces, each a message class with its own FIFOs"},
    {"send_fifo_packets", MPP_PT_U32, NODE(send_fifo_packets), "8", 1, 1u << 20, NULL,
     "send FIFO depth per interface, packets"},
    {"recv_fifo_packets", MPP_PT_U32, NODE(recv_fifo_packets), "8", 1, 1u << 20, NULL,
     "receive FIFO depth per interface, packets"},
    {"payload_words", MPP_PT_U32, NODE(payload_words), "4", 1, 1024, NULL,
     "data words per packet (plus one header word)"},
    {"word_bits", MPP_PT_U32, NODE(word_bits), "32", 8, 1024, NULL, "bits per word"},
    {"flit_bits", MPP_PT_U32, NODE(flit_bits), "32", 1, 4096, NULL, "bits per flit"},
    {"send_packet_cycles", MPP_PT_U32, NODE(send_packet_cycles), "50", 0, 1e9, NULL,
     "CPU cycles to write a packet into a send FIFO"},
    {"recv_packet_cycles", MPP_PT_U32, NODE(recv_packet_cycles), "50", 0, 1e9, NULL,
     "CPU cycles to read a packet from a receive FIFO"},
    {"send_msg_cycles", MPP_PT_U32, NODE(send_msg_cycles), "0", 0, 1e9, NULL,
     "CPU cycles per message sent (software overhead)"},
    {"recv_msg_cycles", MPP_PT_U32, NODE(recv_msg_cycles), "0", 0, 1e9, NULL,
     "CPU cycles per receive posted (software overhead)"},
    {"sendrecv_cycles", MPP_PT_U32, NODE(sendrecv_cycles), "0", 0, 1e9, NULL,
     "CPU cycles of a simultaneous send-and-receive call beyond its send and receive"},
    {"async_msg_cycles", MPP_PT_U32, NODE(async_msg_cycles), "0", 0, 1e9, NULL,
     "CPU cycles an async message costs beyond a blocking one, on each side (sending it, and "
     "completing its receive)"},
    {"handshake_cycles", MPP_PT_U32, NODE(handshake_cycles), "0", 0, 1e9, NULL,
     "CPU cycles of the handshake on each side: reading a send request (matching it to a "
     "posted receive) or its reply (setting up the transfer)"},
    {"async_match_cycles", MPP_PT_U32, NODE(async_match_cycles), "0", 0, 1e9, NULL,
     "CPU cycles per posted receive the handler of an async data packet walks to find its "
     "message's receive (CMMD's list of posted asynchronous receives)"},
    {"switch_cycles", MPP_PT_U32, NODE(switch_cycles), "0", 0, 1e9, NULL,
     "CPU cycles to switch the receive (send) loop to another message: a data packet read "
     "(written) whose message is not the one of the last data packet read (written)"},
    {"dma_packet_cycles", MPP_PT_U32, NODE(dma_packet_cycles), "0", 0, 1e9, NULL,
     "nic: dma: CPU cycles of the message co-processor per packet it moves (either way)"},
    {"dma_word_cycles", MPP_PT_U32, NODE(dma_word_cycles), "0", 0, 1e9, NULL,
     "nic: dma: CPU cycles a DMA engine takes per word of a packet it moves between memory and "
     "a FIFO"},
    {"dma_stream", MPP_PT_BOOL, NODE(dma_stream), "false", 0, 0, NULL,
     "nic: dma: the send engine streams each packet into the network as it moves it (the packet "
     "enters when the engine starts it, each flit no sooner than the engine's cost per packet "
     "over its flits after the one before, holding its wormhole path meanwhile); false: the "
     "packet enters whole when the engine is done"},
    {"recv_done_cycles", MPP_PT_U32, NODE(recv_done_cycles), "0", 0, 1e9, NULL,
     "CPU cycles to complete a sync or async receive after its last packet"},
    {"phase_cycles", MPP_PT_U32, NODE(phase_cycles), "0", 0, 1e9, NULL,
     "CPU cycles of a phase mark (MARK): a phased schedule's bookkeeping per phase"},
    {"poll_cycles", MPP_PT_U32, NODE(poll_cycles), "5", 0, 1e9, NULL,
     "CPU cycles of a poll that finds a packet"},
    {"poll_call_cycles", MPP_PT_U32, NODE(poll_call_cycles), "0", 0, 1e9, NULL,
     "CPU cycles of an explicit poll call, whatever it finds (a POLL operation; an "
     "application's CMAML poll): the interfaces' status read and the call"},
    {"strata_send_cycles", MPP_PT_U32, NODE(strata_send_cycles), "0", 0, 1e9, NULL,
     "CPU cycles to write a Strata active message (mpp_node_send_strata), the poll its send "
     "always does included; 0: send_packet_cycles"},
    {"interrupt_cycles", MPP_PT_U32, NODE(interrupt_cycles), "100", 0, 1e9, NULL,
     "CPU cycles to enter and leave an interrupt handler"},
    {"handler_cycles", MPP_PT_U32, NODE(handler_cycles), "20", 0, 1e9, NULL,
     "CPU cycles of an active-message or completion handler"},
    {"barrier_cycles", MPP_PT_CYCLES, NODE(barrier_cycles), "10", 0, MPP_CKD_CONTROL_MAX, NULL,
     "control network: network cycles from the last entry to the release"},
    {"reduce_cycles", MPP_PT_CYCLES, NODE(reduce_cycles), "20", 0, MPP_CKD_CONTROL_MAX, NULL,
     "control network: network cycles of a reduction"},
    {"sched_scan_cycles", MPP_PT_U32, NODE(sched_scan_cycles), "0", 0, 1e9, NULL,
     "schedule cost: CPU cycles to read one entry of the dense COM (compression, gm's rows)"},
    {"sched_try_cycles", MPP_PT_U32, NODE(sched_try_cycles), "0", 0, 1e9, NULL,
     "schedule cost: CPU cycles to test one candidate entry against the receive mask"},
    {"sched_row_cycles", MPP_PT_U32, NODE(sched_row_cycles), "0", 0, 1e9, NULL,
     "schedule cost: CPU cycles to visit one row in a phase (its share of the phase's "
     "2n-word reset included)"},
    {"reduce_word_cycles", MPP_PT_CYCLES, NODE(reduce_word_cycles), "0", 0, MPP_CKD_CONTROL_MAX, NULL,
     "control network: network cycles each word of a vector reduction adds after the first"},
    {"app_site_cycles", MPP_PT_U32, NODE(app_site_cycles), "0", 0, 1e9, NULL,
     "applications: CPU cycles per site (cell) taken off the wavefront and expanded"},
    {"app_test_cycles", MPP_PT_U32, NODE(app_test_cycles), "0", 0, 1e9, NULL,
     "applications: CPU cycles per neighbour site (cell) tested"},
    {"app_random_cycles", MPP_PT_U32, NODE(app_random_cycles), "0", 0, 1e9, NULL,
     "applications: CPU cycles per random number drawn (Wolff: one per bond test)"},
    {"app_queue_cycles", MPP_PT_U32, NODE(app_queue_cycles), "0", 0, 1e9, NULL,
     "applications: CPU cycles per wavefront queue operation (a push or a pop)"},
    {"mem_word_cycles", MPP_PT_U32, NODE(mem_word_cycles), "0", 0, 1e9, NULL,
     "CPU cycles per word a program copies or scans in memory (drs_n's receive vector)"},
    {"eager_bytes", MPP_PT_BYTES, NODE(eager_bytes), "65536", 0, 1099511627776.0, NULL,
     "mpi workload: a message of at most this many bytes is sent eagerly (a block transfer "
     "buffered at the receiver when no receive is posted), a larger one by rendezvous "
     "(CMMD's three-phase protocol); ASSUMPTION: 64 KiB, MPICH's and Open MPI's default"},
    {"delivery", MPP_PT_ENUM, NODE(delivery), "poll", 0, 0, delivery_choices,
     "active messages run their handler when polled, or on interrupt"},
    {"ports", MPP_PT_ENUM, NODE(ports), "auto", 0, 0, ports_choices,
     "node port model: one (a node sends on one link and receives on one at a time), all (on "
     "all its links at once, a node of a mesh or hypercube getting one link per router-router "
     "port), or auto (the topology's own: one on the mesh and hypercube, all on the fat tree)"},
};
static const mpp_param run_params[] = {
    {"seed", MPP_PT_U64, offsetof(mpp_run_config, seed), "1", 0, 0, NULL, "master random seed"},
};

const mpp_schema mpp_net_schema = {net_params, MPP_COUNTOF(net_params), sizeof(mpp_net_config)};
const mpp_schema mpp_node_schema = {node_params, MPP_COUNTOF(node_params),
                                    sizeof(mpp_node_config)};
const mpp_schema mpp_run_schema = {run_params, MPP_COUNTOF(run_params), sizeof(mpp_run_config)};

void mpp_sections_defaults(mpp_sim_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    mpp_schema_defaults(&mpp_net_schema, &cfg->net);
    mpp_schema_defaults(&mpp_node_schema, &cfg->node);
    mpp_schema_defaults(&mpp_run_schema, &cfg->run);
}
