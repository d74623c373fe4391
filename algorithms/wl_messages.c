/* algorithms/wl_messages.c — the `messages` workload: messages through the
 * node processors and the NIC, in one of three shapes, every program
 * starting at cycle 0 (the release of the barrier before them):
 *   permutation: node p sends `bytes` to its partner d in a fixed pattern
 *     (placement maps logical ids to nodes) and receives from every node
 *     whose partner it is: sync SENDRECV(d, s) when exactly one node sends
 *     to it; otherwise IRECV from each sender, then SEND (ISEND with async),
 *     then WAIT;
 *   gather: nodes 0..senders-1 (but the receiver) SEND to `receiver`, which
 *     posts one receive per sender (IRECV from any) and WAITs;
 *   list: every node first posts a receive for each message it gets (in
 *     list order), then sends its messages in order (blocking SENDs; ISENDs
 *     with async), then WAITs.
 * The throughput statistics (accepted, channel utilisation, the traffic
 * matrix) are measured over [warmup, warmup + measure) for gather and list,
 * over the whole run for permutation (as every earlier release did; see
 * docs/config.md). */
#include <stddef.h>
#include <stdlib.h>

#include "algorithms/patterns.h"
#include "algorithms/workloads.h"
#include "core/base/ckd.h"
#include "core/schema.h"
#include "core/sim.h"

typedef enum shape { SHAPE_PERMUTATION = 0, SHAPE_GATHER = 1, SHAPE_LIST = 2 } shape;

typedef struct msg_cfg {
    const mpp_pattern_ops *pattern;
    mpp_blob pattern_cfg;
    int paradigm;          /* mpp_paradigm */
    int shape;
    uint64_t bytes;
    uint32_t senders, receiver;
    int placement;
    uint64_t warmup, measure;
    mpp_sendlist sends;
} msg_cfg;

static const char *const shape_choices[] = {"permutation", "gather", "list", NULL};
static const char *const placement_choices[] = {"identity", "random", NULL};

static const mpp_param msg_params[] = {
    MPP_PATTERN_ROW(msg_cfg, pattern, pattern_cfg, "uniform"),
    {"paradigm", MPP_PT_ENUM, offsetof(msg_cfg, paradigm), "sync", 0, 0, mpp_paradigm_names,
     "messaging paradigm"},
    {"shape", MPP_PT_ENUM, offsetof(msg_cfg, shape), "permutation", 0, 0, shape_choices,
     "permutation (by pattern), gather (senders -> receiver) or list (sends)"},
    {"bytes", MPP_PT_BYTES, offsetof(msg_cfg, bytes), "0", 0, 1e12, NULL,
     "bytes per message (permutation, gather)"},
    {"senders", MPP_PT_U32, offsetof(msg_cfg, senders), "1", 0, 1u << 20, NULL,
     "gather: nodes 0..senders-1 send"},
    {"receiver", MPP_PT_U32, offsetof(msg_cfg, receiver), "0", 0, 1u << 20, NULL,
     "gather: the receiving node"},
    {"sends", MPP_PT_SENDLIST, offsetof(msg_cfg, sends), "[]", 0, 1u << 20, NULL,
     "list: [[src, dst, bytes], ...]"},
    {"placement", MPP_PT_ENUM, offsetof(msg_cfg, placement), "identity", 0, 0, placement_choices,
     "permutation: logical-to-physical node placement"},
    {"warmup", MPP_PT_CYCLES, offsetof(msg_cfg, warmup), "10000", 0, MPP_CKD_WINDOW_MAX, NULL,
     "gather, list: start of the throughput window, cycles"},
    {"measure", MPP_PT_CYCLES, offsetof(msg_cfg, measure), "30000", 1, MPP_CKD_WINDOW_MAX, NULL,
     "gather, list: length of the throughput window, cycles"},
};

/* permutation: every node's program from the pattern's partners. */
static int shape_permutation(mpp_sim *s, const msg_cfg *c, mpp_progbuild *pg, mpp_err *err)
{
    const mpp_topo *t = mpp_sim_topology(s);
    uint64_t seed = mpp_sim_config_get(s)->run.seed;
    uint32_t N = t->nodes;
    uint32_t *nin = calloc(N, sizeof *nin), *dst = calloc(N, sizeof *dst);
    uint32_t *one = calloc(N, sizeof *one);
    int rc = 0;
    if (!nin || !dst || !one) {
        rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
        goto out;
    }
    if ((rc = mpp_pattern_partners(c->pattern, c->pattern_cfg.b, c->placement, t, seed, dst, err)))
        goto out;
    /* the pattern need not be one-to-one (single-random): a node posts
     * one receive per node that sends to it */
    for (uint32_t p = 0; p < N; p++) {
        if (dst[p] != p) {
            nin[dst[p]]++;
            one[dst[p]] = p;
        }
    }
    uint8_t par = (uint8_t)c->paradigm;
    bool async = c->paradigm == MPP_PARADIGM_ASYNC;
    for (uint32_t p = 0; p < N && !rc; p++) {
        bool sends = dst[p] != p;
        mpp_op send = {.code = async ? MPP_OP_ISEND : MPP_OP_SEND, .paradigm = par,
                       .peer = dst[p], .bytes = c->bytes};
        if (par == MPP_PARADIGM_SYNC && sends && nin[p] == 1) {
            mpp_op sr = {.code = MPP_OP_SENDRECV, .paradigm = par, .peer = dst[p],
                         .peer2 = one[p], .bytes = c->bytes};
            rc = mpp_progbuild_add(pg, p, sr, err);
            continue;
        }
        for (uint32_t q = 0; q < N && !rc && nin[p]; q++)
            if (dst[q] == p && q != p)
                rc = mpp_progbuild_add(pg, p, (mpp_op){.code = MPP_OP_IRECV, .peer = q}, err);
        if (sends && !rc)
            rc = mpp_progbuild_add(pg, p, send, err);
        if ((nin[p] || async) && !rc)
            rc = mpp_progbuild_add(pg, p, (mpp_op){.code = MPP_OP_WAIT}, err);
    }
out:
    free(nin);
    free(dst);
    free(one);
    return rc;
}

static int shape_gather(uint32_t N, const msg_cfg *c, mpp_progbuild *pg, mpp_err *err)
{
    if (c->receiver >= N || c->senders > N)
        return mpp_err_set(err, MPP_EINVAL,
                           "workload: gather needs receiver < %u and senders <= %u (got "
                           "receiver %u, senders %u)",
                           N, N, c->receiver, c->senders);
    uint8_t par = (uint8_t)c->paradigm;
    bool async = c->paradigm == MPP_PARADIGM_ASYNC;
    uint32_t nsend = 0;
    int rc = 0;
    for (uint32_t p = 0; p < c->senders && !rc; p++) {
        if (p == c->receiver)
            continue;
        nsend++;
        rc = mpp_progbuild_add(pg, p, (mpp_op){.code = async ? MPP_OP_ISEND : MPP_OP_SEND,
                                               .paradigm = par, .peer = c->receiver,
                                               .bytes = c->bytes}, err);
        if (async && !rc)
            rc = mpp_progbuild_add(pg, p, (mpp_op){.code = MPP_OP_WAIT}, err);
    }
    for (uint32_t k = 0; k < nsend && !rc; k++)
        rc = mpp_progbuild_add(pg, c->receiver, (mpp_op){.code = MPP_OP_IRECV, .peer = MPP_ANY},
                               err);
    if (nsend && !rc)
        rc = mpp_progbuild_add(pg, c->receiver, (mpp_op){.code = MPP_OP_WAIT}, err);
    return rc;
}

static int shape_list(uint32_t N, const msg_cfg *c, mpp_progbuild *pg, mpp_err *err)
{
    const mpp_sendlist *l = &c->sends;
    for (uint32_t i = 0; i < l->n; i++)
        if (l->v[i].src >= N || l->v[i].dst >= N || l->v[i].src == l->v[i].dst)
            return mpp_err_set(err, MPP_EINVAL,
                               "workload.sends[%u]: [%u, %u, ...] needs two different nodes "
                               "below %u",
                               i, l->v[i].src, l->v[i].dst, N);
    uint8_t par = (uint8_t)c->paradigm;
    uint8_t code = c->paradigm == MPP_PARADIGM_ASYNC ? MPP_OP_ISEND : MPP_OP_SEND;
    int rc = 0;
    for (uint32_t i = 0; i < l->n && !rc; i++)
        rc = mpp_progbuild_add(pg, l->v[i].dst, (mpp_op){.code = MPP_OP_IRECV, .peer = l->v[i].src},
                               err);
    for (uint32_t i = 0; i < l->n && !rc; i++)
        rc = mpp_progbuild_add(pg, l->v[i].src, (mpp_op){.code = code, .paradigm = par,
                                                         .peer = l->v[i].dst,
                                                         .bytes = l->v[i].bytes}, err);
    for (uint32_t p = 0; p < N && !rc; p++)
        if (pg->prog[p].len)
            rc = mpp_progbuild_add(pg, p, (mpp_op){.code = MPP_OP_WAIT}, err);
    return rc;
}

static int msg_setup(mpp_sim *s, const void *cfgp, void **priv, mpp_err *err)
{
    const msg_cfg *c = cfgp;
    uint32_t N = mpp_sim_topology(s)->nodes;
    mpp_progbuild pg;
    int rc = mpp_progbuild_init(&pg, N, err);
    if (rc)
        return rc;
    if (c->shape == SHAPE_PERMUTATION) {
        rc = shape_permutation(s, c, &pg, err);
    } else {
        rc = mpp_sim_window(s, c->warmup, c->measure, err);
        if (!rc)
            rc = c->shape == SHAPE_GATHER ? shape_gather(N, c, &pg, err)
                                          : shape_list(N, c, &pg, err);
    }
    if (!rc)
        rc = mpp_sim_programs(s, pg.prog, err);
    mpp_progbuild_free(&pg);
    return rc;
}

const mpp_workload_ops mpp_workload_messages = {
    .name = "messages",
    .help = "messages through the node processors and the NIC: a permutation, a gather or a list",
    .schema = {msg_params, MPP_COUNTOF(msg_params), sizeof(msg_cfg)},
    .flags = MPP_WL_NODES,
    .setup = msg_setup,
    .summary = mpp_summary_nodes,
    .nsummary = MPP_SUMMARY_NODES_N,
};
