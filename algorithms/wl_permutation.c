/* algorithms/wl_permutation.c — the `permutation` workload: at cycle 0
 * every node sends one message to its partner in a fixed traffic pattern
 * (transpose, bit-reversal, randperm, ...; a node whose partner is itself
 * sends nothing), straight into the network (no processors: nic: ideal).
 * A message is `packets` packets of packet_flits flits or, when bytes > 0,
 * the packets the machine's packetization cuts `bytes` into
 * (core/packet.h). Reported: when each message's last packet arrived
 * (makespan, cycles per message) against a lower bound.
 *
 * The lower bound on the time to deliver the flits is the larger of the
 * ejection bound (the busiest destination accepts one flit per cycle per
 * ejection link) and the bisection bound (the flits that must cross a
 * bisection in one direction, divided by the channels crossing it in that
 * direction): a mesh's middle column and middle row cuts, each dimension of
 * a hypercube, the middle cut of each dimension of a k-ary n-cube
 * (mpp_permutation_bound says how a ring dimension counts); other
 * topologies (fat trees, the butterfly) have only the ejection bound.
 *
 * Invariant: left[m] == packets of message m not yet delivered; a message
 * completes (its latency is recorded) exactly once, when left[m] reaches 0. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "algorithms/patterns.h"
#include "algorithms/workloads.h"
#include "core/sim.h"
#include "core/stats.h"

typedef struct perm_cfg {
    const mpp_pattern_ops *pattern;
    mpp_blob pattern_cfg;
    uint32_t packets;
    uint32_t packet_flits;
    uint64_t bytes;
    int placement;
} perm_cfg;

static const char *const placement_choices[] = {"identity", "random", NULL};

static const mpp_param perm_params[] = {
    MPP_PATTERN_ROW(perm_cfg, pattern, pattern_cfg, "uniform"),
    {"packets", MPP_PT_U32, offsetof(perm_cfg, packets), "32", 1, 1000000, NULL,
     "packets per message"},
    {"packet_flits", MPP_PT_U32, offsetof(perm_cfg, packet_flits), "5", 1, 65535, NULL,
     "flits per packet"},
    {"bytes", MPP_PT_BYTES, offsetof(perm_cfg, bytes), "0", 0, 1e12, NULL,
     "message size in bytes, cut into packets by the node section's sizes (0: use packets x "
     "packet_flits)"},
    {"placement", MPP_PT_ENUM, offsetof(perm_cfg, placement), "identity", 0, 0, placement_choices,
     "logical-to-physical node placement"},
};

typedef struct perm {
    uint32_t nmsg;
    uint32_t *left;        /* [nmsg] packets not yet delivered */
    mpp_hist lat;          /* completion cycles of the messages */
    double lower_bound;
} perm;

/* The k-ary n-cube's cuts: for each dimension d with k = k[d] >= 2, the
 * nodes with coordinate d below k/2 against the rest, lines = N / k lines
 * of dimension d crossing it.
 *   - Not a ring: one link per line crosses the cut, as in the mesh: the
 *     flits crossing in the busier direction over `lines`. The same
 *     operations in the same order as the mesh and hypercube branches, so
 *     a cube of the mesh's shape (k = {cols, rows}) or of the hypercube's
 *     (k = {2, ..., 2}), without rings, gives their bound bit for bit.
 *   - A ring: two links per line cross the cut, the middle one and the
 *     wrap-around, so two channels per line lead from the lower half to
 *     the upper (the middle link's + direction, the wrap-around's -) and
 *     two back: the flits crossing in the busier direction over
 *     2 * lines.
 * The butterfly keeps the ejection bound only: every packet crosses each
 * stage's k^n channels once, so a stage's average load (all flits over
 * k^n = N channels) never exceeds the busiest destination's. */
double mpp_permutation_bound(const mpp_topo *t, const uint64_t *dst_flits, const uint32_t *src,
                             const uint32_t *dst, const uint64_t *fl, uint32_t n)
{
    double ej = 0, bis = 0;
    for (uint32_t d = 0; d < t->nodes; d++) {
        uint32_t links = t->node_link_base[d + 1] - t->node_link_base[d];
        double b = (double)dst_flits[d] / links;
        if (b > ej)
            ej = b;
    }
    if (t->kind == MPP_TOPO_MESH) {
        uint32_t C = t->dims[0], R = t->dims[1];
        for (int dim = 0; dim < 2; dim++) {
            uint32_t ext = dim ? R : C, width = dim ? C : R;
            if (ext < 2)
                continue;
            uint64_t lr = 0, rl = 0;
            for (uint32_t m = 0; m < n; m++) {
                uint32_t a = dim ? src[m] / C : src[m] % C, b = dim ? dst[m] / C : dst[m] % C;
                if (a < ext / 2 && b >= ext / 2)
                    lr += fl[m];
                else if (a >= ext / 2 && b < ext / 2)
                    rl += fl[m];
            }
            double bb = (double)(lr > rl ? lr : rl) / width;
            if (bb > bis)
                bis = bb;
        }
    } else if (t->kind == MPP_TOPO_HYPERCUBE) {
        for (uint32_t d = 0; d < t->dims[0]; d++) {
            uint64_t up = 0, down = 0;
            for (uint32_t m = 0; m < n; m++)
                if ((src[m] ^ dst[m]) & (1u << d)) {
                    if (src[m] & (1u << d))
                        down += fl[m];
                    else
                        up += fl[m];
                }
            double bb = (double)(up > down ? up : down) / (t->nodes / 2);
            if (bb > bis)
                bis = bb;
        }
    } else if (t->kind == MPP_TOPO_KARY) {
        const mpp_cube *c = mpp_topo_cube(t);
        for (uint32_t dim = 0; dim < c->n; dim++) {
            uint32_t ext = c->k[dim], stride = c->stride[dim];
            if (ext < 2)
                continue;
            uint32_t lines = t->nodes / ext;
            uint64_t lr = 0, rl = 0;
            for (uint32_t m = 0; m < n; m++) {
                uint32_t a = src[m] / stride % ext, b = dst[m] / stride % ext;
                if (a < ext / 2 && b >= ext / 2)
                    lr += fl[m];
                else if (a >= ext / 2 && b < ext / 2)
                    rl += fl[m];
            }
            double bb = c->wrap[dim] ? (double)(lr > rl ? lr : rl) / (2.0 * lines)
                                     : (double)(lr > rl ? lr : rl) / lines;
            if (bb > bis)
                bis = bb;
        }
    }
    return ej > bis ? ej : bis;
}

static void perm_destroy(void *privp)
{
    perm *pm = privp;
    free(pm->left);
    mpp_hist_free(&pm->lat);
    free(pm);
}

static int perm_setup(mpp_sim *s, const void *cfgp, void **priv, mpp_err *err)
{
    const perm_cfg *c = cfgp;
    const mpp_topo *t = mpp_sim_topology(s);
    const mpp_packetizer *pk = mpp_sim_packetizer(s);
    uint64_t seed = mpp_sim_config_get(s)->run.seed;
    uint32_t N = t->nodes;
    perm *pm = calloc(1, sizeof *pm);
    if (!pm)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    mpp_hist_init(&pm->lat);
    *priv = pm;
    pm->left = calloc(N, sizeof *pm->left);
    uint32_t *partner = calloc(N, sizeof *partner);
    uint32_t *src = calloc(N, sizeof *src), *dst = calloc(N, sizeof *dst);
    uint64_t *fl = calloc(N, sizeof *fl), *dst_flits = calloc(N, sizeof *dst_flits);
    int rc = 0;
    if (!pm->left || !partner || !src || !dst || !fl || !dst_flits) {
        rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
        goto out;
    }
    if ((rc = mpp_pattern_partners(c->pattern, c->pattern_cfg.b, c->placement, t, seed, partner,
                                   err)))
        goto out;
    for (uint32_t p = 0; p < N; p++) {
        uint32_t d = partner[p];
        if (d == p)
            continue;
        uint32_t m = pm->nmsg++;
        src[m] = p;
        dst[m] = d;
        uint64_t npk = c->bytes ? mpp_packet_count(pk, c->bytes) : c->packets;
        if (npk > UINT32_MAX) {
            rc = mpp_err_set(err, MPP_EINVAL, "workload: message of %llu packets is too large",
                             (unsigned long long)npk);
            goto out;
        }
        for (uint64_t k = 0; k < npk; k++) {
            uint32_t flits = c->bytes ? mpp_packet_flits_of(pk, c->bytes, k) : c->packet_flits;
            if ((rc = mpp_sim_send(s, p, d, flits, m, err)))
                goto out;
            fl[m] += flits;
            dst_flits[d] += flits;
        }
        pm->left[m] = (uint32_t)npk;
    }
    pm->lower_bound = mpp_permutation_bound(t, dst_flits, src, dst, fl, pm->nmsg);
out:
    free(partner);
    free(src);
    free(dst);
    free(fl);
    free(dst_flits);
    return rc;
}

static void perm_packet(void *privp, const mpp_packet_record *rec)
{
    perm *pm = privp;
    if (--pm->left[rec->tag] == 0)
        mpp_hist_add(&pm->lat, rec->delivered);
}

static void perm_finish(void *privp, const mpp_sim *s, mpp_sim_result *r)
{
    const perm *pm = privp;
    r->makespan = pm->lat.n ? pm->lat.max : 0;
    r->message_latency_mean = mpp_hist_mean(&pm->lat);
    r->message_latency_max = pm->lat.max;
    r->lower_bound = pm->lower_bound;
    r->bound_ratio = pm->lower_bound > 0 ? r->message_latency_mean / pm->lower_bound : NAN;
}

/* bytes are cut into packets by the node section's sizes */
static bool perm_uses_node(const void *cfgp) { return ((const perm_cfg *)cfgp)->bytes > 0; }

static const mpp_summary_col perm_summary[] = {
    {"makespan", "makespan", 9, 0},
    {"message_latency_mean", "cycles_per_msg", 14, 1},
    {"message_latency_max", "msg_max", 9, 0},
    {"lower_bound", "lower_bound", 11, 1},
    {"bound_ratio", "bound_ratio", 11, 3},
    {"hops_mean", "hops_mean", 9, 3},
};

const mpp_workload_ops mpp_workload_permutation = {
    .name = "permutation",
    .help = "every node one message to its partner in a fixed pattern at cycle 0, against a "
            "lower bound",
    .schema = {perm_params, MPP_COUNTOF(perm_params), sizeof(perm_cfg)},
    .setup = perm_setup,
    .on_packet = perm_packet,
    .finish = perm_finish,
    .destroy = perm_destroy,
    .uses_node = perm_uses_node,
    .summary = perm_summary,
    .nsummary = MPP_COUNTOF(perm_summary),
};
