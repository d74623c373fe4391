/* algorithms/wl_broadcast.c — the `broadcast` workload: s-to-p
 * broadcasting (Hambrusch, Khokhar and Liu 1995). s source processors,
 * placed on the machine's mesh by a source distribution (`dist`,
 * algorithms/bcast_dist.h), each hold a message of `bytes` bytes that every
 * processor must get; the broadcast algorithm (`algorithm`, a plug-in of
 * algorithms/bcast.h, with its own keys in workload.<algorithm>) plans the
 * steps, and the node processors run them as programs in `paradigm`
 * (sync by default: CMMD's blocking send and receive), with no barrier
 * between steps.
 *
 * The machine is seen as an r x c mesh: `mesh: RxC` (R x C must be the
 * node count), else the topology's own shape when it is a mesh, else 1 x p
 * (a hypercube or a fat tree is a linear array).
 *
 * Results (besides the columns of every workload that runs node programs):
 *   bcast_ms          when the last message was delivered: every processor
 *                     then holds all s messages (each message carries
 *                     something its receiver lacks)
 *   part_redist_ms    the last delivery of the redistribution part (repos,
 *                     part_*: the moves; two_step: the gather), from 0
 *   part_bcast_ms     the last delivery of the broadcast part minus that
 *   part_exchange_ms  the last delivery of the final exchange (part_*)
 *                     minus that
 *                     (a part the algorithm does not have is empty; the
 *                     parts overlap in time, as processors move on without
 *                     a barrier, so these are the times at which each part
 *                     was over everywhere; they add up to bcast_ms)
 *   max_msgs_sent, max_bytes_sent   the most one processor sent
 * The standard column `phases` holds the plan's steps that sent something.
 * The part of every message is in the top bits of its tag
 * (MPP_BCAST_TAG), read back from the message records.
 *
 * Errors (MPP_EINVAL, all before anything large is allocated): s > p, an
 * unknown distribution (the message lists the valid ones) or one that
 * cannot place s sources on the mesh, a bad mesh view, a plan too large
 * (mpp_bcast_plan_init, MPP_BCAST_MAX_MSGS). */
#include <assert.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/bcast.h"
#include "algorithms/bcast_dist.h"
#include "algorithms/workloads.h"
#include "core/base/units.h"
#include "core/schema.h"
#include "core/sim.h"
#include "core/topo.h"

typedef struct bc_cfg {
    const mpp_bcast_ops *algorithm; /* workload.algorithm */
    mpp_blob alg_cfg;               /* workload.<algorithm>: {...} */
    char dist[MPP_STR_MAX];
    uint32_t s;
    uint64_t bytes;
    char mesh[MPP_STR_MAX];
    int paradigm;
} bc_cfg;

static const mpp_param bc_params[] = {
    {"algorithm", MPP_PT_PLUGIN, offsetof(bc_cfg, algorithm), "br_xy_source", 0, 0, NULL,
     "the broadcast algorithm; its parameters go in workload.<algorithm> (repos: {base: br_lin})",
     &mpp_bcast_family, offsetof(bc_cfg, alg_cfg)},
    {"dist", MPP_PT_STRING, offsetof(bc_cfg, dist), "R", 0, 0, NULL,
     "source distribution: R, C, DR, DL, E, cross, B_i_j, random, list:ID,ID,..., ideal_xy, "
     "ideal_lin (docs/broadcast.md)"},
    {"s", MPP_PT_U32, offsetof(bc_cfg, s), "1", 1, MPP_DIST_MAX_P, NULL,
     "source processors (at most the node count)"},
    {"bytes", MPP_PT_BYTES, offsetof(bc_cfg, bytes), "1KiB", 1, 1e9, NULL,
     "bytes of each source's message (L)"},
    {"mesh", MPP_PT_STRING, offsetof(bc_cfg, mesh), "", 0, 0, NULL,
     "the machine seen as an RxC mesh (R x C = nodes); empty: the mesh's own shape, or 1 x p"},
    {"paradigm", MPP_PT_ENUM, offsetof(bc_cfg, paradigm), "sync", 0, 0, mpp_paradigm_names,
     "messaging paradigm of the sends"},
};

/* What finish needs. */
typedef struct bc_run {
    unsigned parts;      /* the algorithm's parts (mpp_bcast_ops.parts) */
    uint64_t max_msgs, max_bytes;
    uint32_t steps;
    double net_mhz;
} bc_run;

/* The mesh view: cfg's "RxC", or the topology's. */
static int mesh_view(const mpp_topo *t, const char *text, uint32_t *r, uint32_t *c, mpp_err *err)
{
    uint32_t N = t->nodes;
    if (!text[0]) {
        if (t->kind == MPP_TOPO_MESH) {
            *r = t->dims[1];
            *c = t->dims[0];
        } else {
            *r = 1;
            *c = N;
        }
        return 0;
    }
    uint64_t R, C;
    size_t x = strcspn(text, "xX");
    if (!text[x] || !mpp_units_u64(text, x, &R) ||
        !mpp_units_u64(text + x + 1, strlen(text + x + 1), &C) || R == 0 || C == 0)
        return mpp_err_set(err, MPP_EINVAL,
                           "workload.mesh '%.40s': expected ROWSxCOLS with both at least 1, "
                           "e.g. 4x8",
                           text);
    if (R > N || C > N || R * C != N) /* R, C <= N: no overflow */
        return mpp_err_set(err, MPP_EINVAL,
                           "workload.mesh %.40s has %s%llu processors, but the machine has %u "
                           "nodes",
                           text, R > N || C > N ? "more than " : "",
                           R > N || C > N ? (unsigned long long)N : (unsigned long long)(R * C),
                           N);
    *r = (uint32_t)R;
    *c = (uint32_t)C;
    return 0;
}

static void bc_destroy(void *priv) { free(priv); }

static int bc_setup(mpp_sim *s, const void *cfgp, void **priv, mpp_err *err)
{
    const bc_cfg *c = cfgp;
    const mpp_topo *t = mpp_sim_topology(s);
    if (!c->algorithm)
        return mpp_err_set(err, MPP_EINVAL,
                           "key 'workload.algorithm': a broadcast workload needs an algorithm "
                           "(mppnet list workloads)");
    uint32_t r = 0, cols = 0;
    int rc = mesh_view(t, c->mesh, &r, &cols, err);
    if (rc)
        return rc;
    uint32_t p = r * cols;
    if (p > MPP_DIST_MAX_P)
        return mpp_err_set(err, MPP_EINVAL,
                           "workload: a broadcast runs on at most %u processors (this machine "
                           "has %u)",
                           MPP_DIST_MAX_P, p);
    if (c->s == 0 || c->s > p)
        return mpp_err_set(err, MPP_EINVAL,
                           "workload.s = %u: a broadcast needs 1 to %u sources on this %ux%u "
                           "machine",
                           c->s, p, r, cols);
    if ((uint64_t)p * c->s > MPP_BCAST_MAX_BITS)
        return mpp_err_set(err, MPP_EINVAL,
                           "workload.s = %u on %u processors: %llu holdings to track, at most "
                           "%llu (2^28)",
                           c->s, p, (unsigned long long)p * c->s,
                           (unsigned long long)MPP_BCAST_MAX_BITS);
    mpp_dist d;
    memset(&d, 0, sizeof d);
    if ((rc = mpp_dist_parse(c->dist, &d, err))) {
        mpp_err_prefix(err, "workload.dist");
        return rc;
    }
    uint32_t *src = malloc((size_t)c->s * sizeof *src);
    if (!src) {
        mpp_dist_free(&d);
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    }
    rc = mpp_dist_place(&d, r, cols, c->s, mpp_sim_config_get(s)->run.seed, src, err);
    mpp_dist_free(&d);
    if (rc) {
        mpp_err_prefix(err, "workload.dist '%.40s' with s = %u on %ux%u", c->dist, c->s, r, cols);
        free(src);
        return rc;
    }
    mpp_bcast_plan pl;
    rc = mpp_bcast_plan_init(&pl, r, cols, src, c->s, c->bytes, c->paradigm,
                             MPP_BCAST_PROGRAMS, err);
    free(src);
    if (rc)
        return rc;
    bc_run *run = calloc(1, sizeof *run);
    if (!run) {
        mpp_bcast_plan_free(&pl);
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    }
    *priv = run;
    run->parts = c->algorithm->parts;
    run->net_mhz = mpp_sim_config_get(s)->net.net_mhz;
    rc = c->algorithm->build(&pl, c->alg_cfg.b, err);
    assert(rc || mpp_bcast_plan_check(&pl, NULL) == 0);
    if (!rc)
        rc = mpp_bcast_plan_complete(&pl, err); /* a plug-in bug if it fails */
    if (!rc) {
        for (uint32_t i = 0; i < p; i++) {
            if (pl.proc[i].msgs_sent > run->max_msgs)
                run->max_msgs = pl.proc[i].msgs_sent;
            if (pl.proc[i].bytes_sent > run->max_bytes)
                run->max_bytes = pl.proc[i].bytes_sent;
        }
        run->steps = pl.steps_used;
        rc = mpp_sim_programs(s, pl.pb.prog, err);
    }
    mpp_bcast_plan_free(&pl);
    return rc;
}

static double to_ms(uint64_t cycles, double mhz)
{
    return mhz > 0 ? (double)cycles / (mhz * 1000.0) : NAN;
}

static void bc_finish(void *priv, const mpp_sim *s, mpp_sim_result *r)
{
    const bc_run *run = priv;
    uint64_t last[MPP_BCAST_NPARTS] = {0, 0, 0}, end = 0;
    for (size_t i = 0; i < mpp_sim_message_count(s); i++) {
        mpp_message_record m;
        mpp_sim_message_get(s, i, &m);
        int part = mpp_bcast_tag_part(m.tag);
        if (part < MPP_BCAST_NPARTS && m.delivered > last[part])
            last[part] = m.delivered;
        if (m.delivered > end)
            end = m.delivered;
    }
    /* the end of each part, in part order (a part ends no earlier than the
     * one before it) */
    uint64_t at[MPP_BCAST_NPARTS];
    for (int k = 0; k < MPP_BCAST_NPARTS; k++)
        at[k] = k == 0 || last[k] > at[k - 1] ? last[k] : at[k - 1];
    r->phases = run->steps;
    r->extra[0].d = to_ms(end, run->net_mhz);
    for (int k = 0; k < MPP_BCAST_NPARTS; k++)
        r->extra[1 + k].d = run->parts & (1u << k)
                                ? to_ms(at[k] - (k ? at[k - 1] : 0), run->net_mhz)
                                : NAN;
    r->extra[4].u = run->max_msgs;
    r->extra[5].u = run->max_bytes;
}

static const mpp_result_column bc_columns[] = {
    {"bcast_ms", MPP_F_DOUBLE,
     "broadcast time, ms: the last delivery, when every processor holds all s messages"},
    {"part_redist_ms", MPP_F_DOUBLE,
     "redistribution part (repos, part_*: the moves; two_step: the gather): its last "
     "delivery, ms"},
    {"part_bcast_ms", MPP_F_DOUBLE,
     "broadcast part: its last delivery minus the redistribution's, ms"},
    {"part_exchange_ms", MPP_F_DOUBLE,
     "final exchange between the groups (part_*): its last delivery minus the broadcast "
     "part's, ms"},
    {"max_msgs_sent", MPP_F_U64, "the most messages one processor sent"},
    {"max_bytes_sent", MPP_F_U64, "the most bytes one processor sent"},
};

static const mpp_summary_col bc_summary[] = {
    {"bcast_ms", "bcast_ms", 10, 3},
    {"part_redist_ms", "redist_ms", 10, 3},
    {"part_bcast_ms", "part_bcast", 10, 3},
    {"part_exchange_ms", "exchange", 10, 3},
    {"max_msgs_sent", "max_msgs", 8, 0},
    {"max_bytes_sent", "max_bytes", 10, 0},
    {"messages", "messages", 8, 0},
    {"phases", "steps", 6, 0},
};

const mpp_workload_ops mpp_workload_broadcast = {
    .name = "broadcast",
    .help = "s-to-p broadcast: s sources placed by a distribution, every processor gets every "
            "message (Hambrusch, Khokhar and Liu 1995)",
    .schema = {bc_params, MPP_COUNTOF(bc_params), sizeof(bc_cfg)},
    .flags = MPP_WL_NODES,
    .setup = bc_setup,
    .finish = bc_finish,
    .destroy = bc_destroy,
    .columns = bc_columns,
    .ncolumns = MPP_COUNTOF(bc_columns),
    .summary = bc_summary,
    .nsummary = MPP_COUNTOF(bc_summary),
};
