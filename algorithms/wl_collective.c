/* algorithms/wl_collective.c — the `collective` workload: one collective
 * of algorithms/coll.h (`collective`, with its keys in workload.<name>)
 * run by the node processors as programs, on the whole machine or
 * concurrently on every row or every column of an R x C processor array
 * mapped row-major onto the node ids (`groups`, `array`: the LU pivot
 * pattern). Node i is member i of the machine; on a hypercube its member
 * index is its cube address.
 *
 * Results (besides the columns of every workload that runs node programs):
 *   coll_ms, coll_cycles         when the last message was delivered
 *   analytic_ms, analytic_cycles the collective's own formula for this
 *                                machine (docs/collectives.md)
 *   bound_ms, bound_cycles       the lower bound (bytes at the link rate)
 *   vs_analytic, vs_bound        measured / formula, measured / bound
 *   link_flits_max               flits over the busiest router-to-router channel
 *
 * Errors (MPP_EINVAL, before anything large is allocated): a collective
 * that needs power-of-two groups on a group that is not one, a root out of
 * range, a chunk larger than the message, a bad array view. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/coll.h"
#include "algorithms/workloads.h"
#include "core/base/units.h"
#include "core/route.h"
#include "core/schema.h"
#include "core/sections.h"
#include "core/sim.h"
#include "core/topo.h"

enum { GROUPS_ALL = 0, GROUPS_ROWS = 1, GROUPS_COLS = 2 };
static const char *const groups_names[] = {"all", "rows", "cols", NULL};
static const char *const alg_names[] = {"xor", "standard", "direct", NULL};

typedef struct co_cfg {
    const mpp_coll_ops *collective;
    mpp_blob coll_cfg;
    uint64_t bytes;
    uint32_t root;
    uint64_t chunk;
    int alg;
    int groups;
    char array[MPP_STR_MAX];
    int paradigm;
} co_cfg;

static const mpp_param co_params[] = {
    {"collective", MPP_PT_PLUGIN, offsetof(co_cfg, collective), "binomial", 0, 0, NULL,
     "the collective (binomial, msbt, linear, scatter, gather, allgather, alltoall, reduce, "
     "allreduce, reduce_scatter, scan, permute, grid_gather, grid_scatter); its own keys go "
     "in workload.<collective>",
     &mpp_coll_family, offsetof(co_cfg, coll_cfg)},
    {"bytes", MPP_PT_BYTES, offsetof(co_cfg, bytes), "4KiB", 1, 1e9, NULL,
     "M: bytes of the message (broadcast) or of each block (personalized, all-to-all)"},
    {"root", MPP_PT_U32, offsetof(co_cfg, root), "0", 0, UINT32_MAX, NULL,
     "root member of a rooted collective (in every group)"},
    {"chunk", MPP_PT_BYTES, offsetof(co_cfg, chunk), "0", 0, 1e9, NULL,
     "pipelining: trees forward their data in pieces of this many bytes (0: whole messages, "
     "store and forward)"},
    {"alg", MPP_PT_ENUM, offsetof(co_cfg, alg), "xor", 0, 0, alg_names,
     "alltoall: xor (pairwise exchange), standard (exchange across dimensions, combining), "
     "direct (every block sent straight)"},
    {"groups", MPP_PT_ENUM, offsetof(co_cfg, groups), "all", 0, 0, groups_names,
     "run on the whole machine, or concurrently in every row or every column of `array`"},
    {"array", MPP_PT_STRING, offsetof(co_cfg, array), "", 0, 0, NULL,
     "the RxC processor array (row-major node ids) for groups: rows or cols"},
    {"paradigm", MPP_PT_ENUM, offsetof(co_cfg, paradigm), "am_put", 0, 0, mpp_paradigm_names,
     "messaging paradigm of the sends"},
};

typedef struct co_run {
    double analytic, bound, net_mhz;
    uint64_t max_bytes;
    uint32_t steps;
} co_run;

static int parse_array(const char *text, uint32_t N, uint32_t *R, uint32_t *C, mpp_err *err)
{
    uint64_t r, c;
    size_t x = strcspn(text, "xX");
    if (!text[0] || !text[x] || !mpp_units_u64(text, x, &r) ||
        !mpp_units_u64(text + x + 1, strlen(text + x + 1), &c) || !r || !c)
        return mpp_err_set(err, MPP_EINVAL,
                           "workload.array '%.40s': expected ROWSxCOLS (both at least 1, "
                           "ROWS x COLS = the %u nodes), e.g. 4x8",
                           text, N);
    if (r > N || c > N || r * c != N)
        return mpp_err_set(err, MPP_EINVAL,
                           "workload.array %.40s does not cover the machine's %u nodes", text,
                           N);
    *R = (uint32_t)r;
    *C = (uint32_t)c;
    return 0;
}

/* The analytic model of this machine (docs/collectives.md). */
static void model(const mpp_sim *s, uint32_t g, bool all_port, const uint32_t *members,
                  mpp_coll_model *m)
{
    const mpp_sim_config *c = mpp_sim_config_get(s);
    const mpp_packetizer *pk = mpp_sim_packetizer(s);
    const mpp_topo *t = mpp_sim_topology(s);
    double k = c->node.cpu_mhz > 0 ? c->net.net_mhz / c->node.cpu_mhz : 0;
    memset(m, 0, sizeof *m);
    m->g = g;
    m->n = g > 1 ? 32u - (uint32_t)__builtin_clz(g - 1) : 0; /* ceil(log2 g) */
    m->all_port = all_port;
    m->payload = pk->payload_bytes;
    m->byte = 8.0 / pk->flit_bits;
    m->pk = *pk;
    m->w = k * c->node.send_packet_cycles;
    m->r = k * ((double)c->node.recv_packet_cycles + c->node.poll_cycles);
    m->post = k * c->node.recv_msg_cycles;
    m->done = k * c->node.handler_cycles;
    m->cpu = k;
    m->rd = c->net.router_delay;
    m->ll = c->net.link_latency;
    m->links = all_port ? t->node_link_base[1] - t->node_link_base[0] : 1;
    if (g > 1) {
        double sum = 0;
        uint32_t step = g > 256 ? g / 256 : 1, pairs = 0;
        for (uint32_t a = 0; a < g; a += step)
            for (uint32_t b = 0; b < g; b++)
                if (a != b) {
                    sum += t->ops->distance(t, members[a], members[b]);
                    pairs++;
                }
        m->hops_mean = sum / pairs;
    }
    m->topo = t;
    m->node = members;
    const char *rt = c->net.routing ? c->net.routing->name : "";
    if (!strcmp(rt, "ecube"))
        m->route = MPP_COLL_ROUTE_DOR;
    else if (!strcmp(rt, "xyyx"))
        m->route = MPP_COLL_ROUTE_YX;
}

static void co_destroy(void *priv) { free(priv); }

static int co_plan(mpp_sim *s, const co_cfg *c, mpp_coll_args *ap, uint32_t ng, uint32_t g,
                   uint32_t R, uint32_t C, void **priv, mpp_err *err);

static int co_setup(mpp_sim *s, const void *cfgp, void **priv, mpp_err *err)
{
    const co_cfg *c = cfgp;
    const mpp_topo *t = mpp_sim_topology(s);
    uint32_t N = t->nodes;
    if (!c->collective)
        return mpp_err_set(err, MPP_EINVAL, "key 'workload.collective': a collective is needed "
                                            "(mppnet list workloads)");
    uint32_t R = 1, C = N;
    int rc;
    if (c->groups != GROUPS_ALL && (rc = parse_array(c->array, N, &R, &C, err)))
        return rc;
    uint32_t ng = c->groups == GROUPS_ALL ? 1 : c->groups == GROUPS_ROWS ? R : C;
    uint32_t g = c->groups == GROUPS_ALL ? N : c->groups == GROUPS_ROWS ? C : R;
    const char *what = c->groups == GROUPS_ALL ? "machine" : c->groups == GROUPS_ROWS ? "row"
                                                                                        : "column";
    if (c->collective->groups == MPP_COLL_CUBE && (g & (g - 1)))
        return mpp_err_set(err, MPP_EINVAL,
                           "workload.collective %s needs a power-of-two number of processors "
                           "(cube addresses); this %s has %u (linear runs on any size)",
                           c->collective->name, what, g);
    if (c->collective->rooted && c->root >= g)
        return mpp_err_set(err, MPP_EINVAL,
                           "workload.root = %u is out of range: the %s has %u processors "
                           "(0..%u)",
                           c->root, what, g, g - 1);
    if (c->chunk > c->bytes)
        return mpp_err_set(err, MPP_EINVAL,
                           "workload.chunk = %llu bytes is larger than the message (bytes = "
                           "%llu)",
                           (unsigned long long)c->chunk, (unsigned long long)c->bytes);
    bool all_port = mpp_sim_all_port(s);
    mpp_coll_args a = {.root = c->root, .M = c->bytes, .chunk = c->chunk,
                       .all_port = all_port,
                       .links = all_port ? t->node_link_base[1] - t->node_link_base[0] : 1,
                       .alg = c->alg, .cfg = c->coll_cfg.b,
                       .seed = mpp_sim_config_get(s)->run.seed};
    /* the plug-in's own keys and files (a mesh, a data allocation), once */
    void *ctx = NULL;
    if ((rc = c->collective->prepare(&a, g, N, &ctx, err)))
        return rc;
    a.ctx = ctx;
    rc = co_plan(s, c, &a, ng, g, R, C, priv, err);
    c->collective->release(ctx);
    return rc;
}

/* The rest of co_setup, a with its plug-in's context. */
static int co_plan(mpp_sim *s, const co_cfg *c, mpp_coll_args *ap, uint32_t ng, uint32_t g,
                   uint32_t R, uint32_t C, void **priv, mpp_err *err)
{
    const mpp_coll_args a = *ap;
    uint32_t N = mpp_sim_topology(s)->nodes;
    int rc;
    uint64_t items = c->collective->nitems(&a, g);
    if (items * (uint64_t)ng > MPP_COLL_MAX_ENTRIES)
        return mpp_err_set(err, MPP_EINVAL,
                           "workload: %s on %u processors cuts into %llu items, more than "
                           "%llu (a larger chunk, or fewer processors)",
                           c->collective->name, g, (unsigned long long)(items * ng),
                           (unsigned long long)MPP_COLL_MAX_ENTRIES);
    /* the plan's size, before anything is planned: pieces crossing edges
     * (each a flow entry, and with chunk > 0 a message) */
    uint64_t x = c->collective->crossings(&a, g);
    uint64_t lim = c->chunk ? MPP_COLL_MAX_MSGS : MPP_COLL_MAX_ENTRIES;
    if (x > lim / ng)
        return mpp_err_set(err, MPP_EINVAL,
                           "workload: %s on %u processors%s would send its pieces over an edge "
                           "%.3g times, more than %llu (a larger chunk, a shorter message or "
                           "fewer processors)",
                           c->collective->name, g, ng > 1 ? " per group" : "",
                           (double)x * ng, (unsigned long long)lim);
    uint32_t *nodes = malloc((size_t)N * sizeof *nodes);
    mpp_coll_group *grp = malloc((size_t)ng * sizeof *grp);
    co_run *run = calloc(1, sizeof *run);
    if (!nodes || !grp || !run) {
        free(nodes);
        free(grp);
        free(run);
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    }
    for (uint32_t k = 0; k < ng; k++) {
        for (uint32_t m = 0; m < g; m++)
            nodes[(size_t)k * g + m] = c->groups == GROUPS_ALL    ? m
                                       : c->groups == GROUPS_ROWS ? k * C + m
                                                                  : m * C + k;
        grp[k] = (mpp_coll_group){g, nodes + (size_t)k * g};
    }
    mpp_coll_plan pl;
    rc = mpp_coll_plan_init(&pl, N, c->paradigm, c->chunk, MPP_COLL_PROGRAMS, err);
    if (!rc)
        rc = mpp_coll_plan_groups(&pl, c->collective, &a, grp, ng, err);
    if (!rc) {
        for (uint32_t i = 0; i < N; i++)
            if (pl.node_bytes_sent[i] > run->max_bytes)
                run->max_bytes = pl.node_bytes_sent[i];
        run->steps = pl.steps_used;
        rc = mpp_sim_programs(s, pl.pb.prog, err);
    }
    /* the programs are the simulator's now: free the plan before the
     * analytic time, which may plan the schedule again (the step
     * recurrence) */
    mpp_coll_plan_free(&pl);
    if (!rc) {
        mpp_coll_model m;
        model(s, g, a.all_port, grp[0].node, &m);
        /* the processors start in cycle 0 and the first flit enters the
         * network in cycle 1 */
        double at = mpp_coll_analytic(c->collective, &m, &a);
        run->analytic = at > 0 ? 1 + at : 0;
        run->bound = c->collective->bound(&m, &a);
        run->net_mhz = mpp_sim_config_get(s)->net.net_mhz;
        *priv = run;
    } else {
        free(run);
    }
    free(nodes);
    free(grp);
    return rc;
}

static double to_ms(double cycles, double mhz)
{
    return mhz > 0 ? cycles / (mhz * 1000.0) : NAN;
}

static void co_finish(void *priv, const mpp_sim *s, mpp_sim_result *r)
{
    const co_run *run = priv;
    uint64_t end = 0;
    for (size_t i = 0; i < mpp_sim_message_count(s); i++) {
        mpp_message_record m;
        mpp_sim_message_get(s, i, &m);
        if (m.delivered > end)
            end = m.delivered;
    }
    r->phases = run->steps;
    r->extra[0].d = to_ms((double)end, run->net_mhz);
    r->extra[1].d = to_ms(run->analytic, run->net_mhz);
    r->extra[2].d = to_ms(run->bound, run->net_mhz);
    r->extra[3].u = end;
    r->extra[4].d = run->analytic;
    r->extra[5].d = run->bound;
    r->extra[6].d = run->analytic > 0 ? (double)end / run->analytic : NAN;
    r->extra[7].d = run->bound > 0 ? (double)end / run->bound : NAN;
    /* the busiest router-to-router channel (node links are named "n...") */
    uint64_t most = 0;
    for (size_t i = 0; i < mpp_sim_channel_count(s); i++) {
        mpp_channel_info ch;
        mpp_sim_channel_get(s, i, &ch);
        if (ch.from[0] == 'r' && ch.to[0] == 'r' && ch.flits > most)
            most = ch.flits;
    }
    r->extra[8].u = most;
}

static const mpp_result_column co_columns[] = {
    {"coll_ms", MPP_F_DOUBLE, "the collective's time, ms: its last delivery"},
    {"analytic_ms", MPP_F_DOUBLE, "its analytic time on this machine, ms (docs/collectives.md)"},
    {"bound_ms", MPP_F_DOUBLE, "the lower bound: its bytes at the link rate, ms"},
    {"coll_cycles", MPP_F_U64, "the collective's time, network cycles"},
    {"analytic_cycles", MPP_F_DOUBLE, "its analytic time, network cycles"},
    {"bound_cycles", MPP_F_DOUBLE, "the lower bound, network cycles"},
    {"vs_analytic", MPP_F_DOUBLE, "measured / analytic"},
    {"vs_bound", MPP_F_DOUBLE, "measured / lower bound"},
    {"link_flits_max", MPP_F_U64, "flits over the busiest router-to-router channel"},
};

static const mpp_summary_col co_summary[] = {
    {"coll_ms", "coll_ms", 10, 3},
    {"analytic_ms", "analytic", 10, 3},
    {"bound_ms", "bound_ms", 10, 3},
    {"vs_analytic", "vs_anal", 8, 3},
    {"vs_bound", "vs_bound", 8, 3},
    {"messages", "messages", 8, 0},
    {"phases", "steps", 6, 0},
};

const mpp_workload_ops mpp_workload_collective = {
    .name = "collective",
    .help = "a collective (broadcast, scatter, gather, all-to-all broadcast or personalized "
            "exchange, reduction, scan, permutation, unstructured-grid gather or scatter) run "
            "by the node processors (Johnsson 1995)",
    .schema = {co_params, MPP_COUNTOF(co_params), sizeof(co_cfg)},
    .flags = MPP_WL_NODES,
    .setup = co_setup,
    .finish = co_finish,
    .destroy = co_destroy,
    .columns = co_columns,
    .ncolumns = MPP_COUNTOF(co_columns),
    .summary = co_summary,
    .nsummary = MPP_COUNTOF(co_summary),
};
