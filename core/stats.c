/* core/stats.c — latency histograms (see stats.h) and the table of result
 * columns that every writer (CSV, JSON, summary) walks in the same order.
 * Invariant: sum of count[] and of every octave's buckets == n, and the
 * maximum's count or bucket is > 0 when n > 0. */
#include "core/stats.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/results.h"

void mpp_hist_init(mpp_hist *h) { memset(h, 0, sizeof *h); }

void mpp_hist_free(mpp_hist *h)
{
    free(h->count);
    for (int e = 0; e < 64 - MPP_HIST_EXACT_BITS; e++)
        free(h->octave[e]);
    mpp_hist_init(h);
}

/* The power of two at or below v (v > 0). */
static int log2_floor(uint64_t v) { return 63 - __builtin_clzll(v); }

void mpp_hist_add(mpp_hist *h, uint64_t v)
{
    if (v >= MPP_HIST_EXACT) {
        int e = log2_floor(v);
        uint64_t **oct = &h->octave[e - MPP_HIST_EXACT_BITS];
        if (!*oct && !(*oct = calloc((size_t)1 << MPP_HIST_SUB_BITS, sizeof **oct))) {
            h->failed = true;
            return;
        }
        (*oct)[(v >> (e - MPP_HIST_SUB_BITS)) & ((UINT64_C(1) << MPP_HIST_SUB_BITS) - 1)]++;
    } else {
        if (v >= h->cap) {
            uint64_t cap = h->cap ? h->cap : 256;
            while (cap <= v)
                cap *= 2;
            uint64_t *p = realloc(h->count, cap * sizeof *p);
            if (!p) {
                h->failed = true;
                return;
            }
            memset(p + h->cap, 0, (cap - h->cap) * sizeof *p);
            h->count = p;
            h->cap = cap;
        }
        h->count[v]++;
    }
    h->n++;
    h->sum += (long double)v;
    if (v > h->max)
        h->max = v;
}

double mpp_hist_mean(const mpp_hist *h)
{
    return h->n ? (double)(h->sum / (long double)h->n) : NAN;
}

uint64_t mpp_hist_quantile(const mpp_hist *h, double q)
{
    if (!h->n)
        return 0;
    uint64_t need = (uint64_t)ceil(q * (double)h->n);
    if (need < 1)
        need = 1;
    uint64_t acc = 0;
    for (uint64_t v = 0; v < h->cap && v <= h->max; v++) {
        acc += h->count[v];
        if (acc >= need)
            return v;
    }
    for (int e = MPP_HIST_EXACT_BITS; e < 64; e++) {
        const uint64_t *oct = h->octave[e - MPP_HIST_EXACT_BITS];
        if (!oct)
            continue;
        for (uint64_t k = 0; k < (UINT64_C(1) << MPP_HIST_SUB_BITS); k++) {
            acc += oct[k];
            if (acc >= need) {
                if (acc == h->n) /* the maximum's bucket */
                    return h->max;
                return (UINT64_C(1) << e) + (k << (e - MPP_HIST_SUB_BITS));
            }
        }
    }
    return h->max;
}

#define F(name, type, help) {#name, type, offsetof(mpp_sim_result, name), help}
const mpp_result_field mpp_result_fields[] = {
    F(nodes, MPP_F_U32, "processing nodes"),
    F(offered, MPP_F_DOUBLE, "offered load, flits/node/cycle"),
    F(injected_rate, MPP_F_DOUBLE, "flits created per node per cycle in the window"),
    F(accepted, MPP_F_DOUBLE, "flits ejected per node per cycle in the window"),
    F(accepted_min, MPP_F_DOUBLE, "least per-node accepted rate"),
    F(latency_mean, MPP_F_DOUBLE, "packet latency from creation, mean (cycles)"),
    F(latency_p50, MPP_F_DOUBLE, "packet latency from creation, median"),
    F(latency_p95, MPP_F_DOUBLE, "packet latency from creation, 95th percentile"),
    F(latency_p99, MPP_F_DOUBLE, "packet latency from creation, 99th percentile"),
    F(latency_max, MPP_F_U64, "packet latency from creation, maximum"),
    F(latency_network_mean, MPP_F_DOUBLE, "head injection to tail ejection, mean"),
    F(latency_network_p50, MPP_F_DOUBLE, "head injection to tail ejection, median"),
    F(latency_network_p95, MPP_F_DOUBLE, "head injection to tail ejection, 95th percentile"),
    F(latency_network_p99, MPP_F_DOUBLE, "head injection to tail ejection, 99th percentile"),
    F(latency_network_max, MPP_F_U64, "head injection to tail ejection, maximum"),
    F(latency_mean_us, MPP_F_DOUBLE, "latency_mean in microseconds (needs net_mhz)"),
    F(hops_mean, MPP_F_DOUBLE, "inter-router links per measured packet"),
    F(misroutes_mean, MPP_F_DOUBLE, "non-minimal hops per measured packet (router misroute)"),
    F(misroutes_max, MPP_F_U32, "most non-minimal hops of a measured packet"),
    F(packets_measured, MPP_F_U64, "packets created in the measurement window"),
    F(packets_delivered, MPP_F_U64, "of those, delivered"),
    F(channel_util_mean, MPP_F_DOUBLE, "mean utilisation of inter-router channels"),
    F(channel_util_max, MPP_F_DOUBLE, "largest utilisation of an inter-router channel"),
    F(peak_vc_flits, MPP_F_U32, "largest occupancy of any VC buffer, flits"),
    F(peak_source_queue, MPP_F_U64, "longest source queue, packets"),
    F(makespan, MPP_F_U64, "permutation: cycle the last message completed"),
    F(message_latency_mean, MPP_F_DOUBLE, "permutation: cycles per message (issue to last packet), mean"),
    F(message_latency_max, MPP_F_U64, "permutation: cycles per message, maximum"),
    F(lower_bound, MPP_F_DOUBLE, "permutation: max of the bisection and ejection bounds, cycles"),
    F(bound_ratio, MPP_F_DOUBLE, "permutation: message_latency_mean / lower_bound"),
    F(messages, MPP_F_U64, "messages: messages delivered"),
    F(makespan_ms, MPP_F_DOUBLE, "messages: makespan in ms"),
    F(message_latency_us, MPP_F_DOUBLE, "messages: cycles per message in microseconds"),
    F(send_done_min_ms, MPP_F_DOUBLE, "messages: earliest node to finish its sends, ms"),
    F(send_done_mean_ms, MPP_F_DOUBLE, "messages: mean time a sending node finished its sends, ms"),
    F(send_done_max_ms, MPP_F_DOUBLE, "messages: last node to finish its sends, ms"),
    F(recv_done_max_ms, MPP_F_DOUBLE, "messages: last node to finish its receives, ms"),
    F(recv_done_mean_ms, MPP_F_DOUBLE, "messages: mean time a receiving node finished, ms"),
    F(send_busy_mean_ms, MPP_F_DOUBLE, "messages: processor time writing packets per node, ms"),
    F(recv_busy_mean_ms, MPP_F_DOUBLE, "messages: processor time reading packets per node, ms"),
    F(send_fifo_peak, MPP_F_U32, "messages: largest send FIFO occupancy, packets"),
    F(recv_fifo_peak, MPP_F_U32, "messages: largest receive FIFO occupancy, packets"),
    F(interrupts, MPP_F_U64, "messages: interrupt handlers run"),
    F(phases, MPP_F_U32, "schedule: phases of the schedule"),
    F(sched_steps, MPP_F_U64, "schedule: elementary steps of the scheduling algorithm"),
    F(inquiries, MPP_F_U64, "schedule, drs_n: lock inquiries (FREE and BUSY answers)"),
    F(schedule_ms, MPP_F_DOUBLE,
      "schedule: computing the schedule on one node processor, ms (0: runtime protocol)"),
    F(comm_ms, MPP_F_DOUBLE, "schedule: the communication alone (the replay's makespan), ms"),
    F(total_ms, MPP_F_DOUBLE, "schedule: schedule_ms / workload.reuse + comm_ms"),
    F(cycles, MPP_F_U64, "all simulated cycles (warm-up, measurement, drain)"),
    F(flit_hops, MPP_F_U64, "channel traversals of all flits (injection, inter-router, ejection)"),
    F(router_cycles, MPP_F_U64, "routers x simulated cycles"),
    F(saturated, MPP_F_BOOL,
      "accepted < 0.95 x offered or < 0.98 x generated, or the measured packets did not drain"),
    F(drained, MPP_F_BOOL, "every measured packet was delivered"),
};
#undef F
const size_t mpp_result_nfields = sizeof mpp_result_fields / sizeof mpp_result_fields[0];

const mpp_summary_col mpp_summary_nodes[MPP_SUMMARY_NODES_N] = {
    {"messages", "messages", 8, 0},
    {"makespan_ms", "makespan_ms", 11, 4},
    {"message_latency_us", "per_msg_us", 10, 1},
    {"send_done_min_ms", "send_min_ms", 11, 4},
    {"send_done_max_ms", "send_max_ms", 11, 4},
    {"recv_done_max_ms", "recv_max_ms", 11, 4},
    {"hops_mean", "hops_mean", 11, 3},
};
