/* topologies/cm5_fattree.c — the CM-5 data network: a 4-ary fat tree over
 * N = m x 4^h processing nodes (m = 1, 2 or 3, N >= 4), after Leiserson et
 * al., "The network architecture of the Connection Machine CM-5" (SPAA 1992).
 *
 * Shape. Node n's base-4 digits d0 (lowest), d1, ... name its place in the
 * tree: the level-l subtree holding n is s = n / 4^l (nodes s*4^l ..
 * (s+1)*4^l - 1), and d(l-1) says which of that subtree's 4 children holds
 * n. The tree has L levels of routers, L = h when m = 1 (4^h leaves) and
 * L = h + 1 otherwise: the 4^(h+1)-leaf tree is built and the absent
 * subtrees pruned, so the single top-level subtree has only m children and
 * routers with no node below them do not exist.
 *
 * Routers. Every router has 4 child ports (local ports 0..3, "c0".."c3") and
 * P_l parent ports (local ports 4..4+P_l-1, "p0".."p<P_l-1>"), where
 * p_l = parents[l-1] (the last list value repeats for higher levels) and
 * P_l = p_l below the top level, P_L = 0 (the top has nothing above it).
 * With k = node_links, the number of routers serving one level-l subtree is
 *     R_1 = k,    R_l = R_(l-1) x p_(l-1)
 * i.e. exactly the up-links leaving one child subtree: every level-l router
 * takes one up-link from each of its (up to 4) child subtrees. The up-link
 * capacity leaving a subtree of 4^l nodes is R_l x p_l links, so with the
 * CM-5 defaults (k = 2, parents [2, 2, 4]) a node has 2 links into its
 * group of 4, 4 x 1 / 4 = 1 link's worth leaving it, 4 x 2 / 16 = 1/2 beyond
 * 16 and (R_3 = 8) x 4 / 64 = 1/2 beyond 64, ...: bandwidth 4 : 2 : 1 (the
 * 20, 10 and 5 MB/s of the real machine). A full fat tree is k = 1,
 * parents [4]; a plain tree k = 1, parents [1].
 *
 * Numbering. Routers are numbered level by level from level 1; within level
 * l, router (l, s, j) — the j-th router (0 <= j < R_l) of subtree s — has id
 * base_l + s x R_l + j. Wiring:
 *   - node n's link j  <->  router (1, n / 4, j) child port n % 4;
 *   - router (l-1, s', j') parent port q  <->  router (l, s' / 4,
 *     j' x p_(l-1) + q) child port s' % 4.
 * So router (l, s, j) reaches down, on child port c, router
 * (l-1, 4s + c, j / p_(l-1)): from ANY router of a subtree there is exactly
 * one down path to each node below it, following the node's digits; and
 * from router (1, s, j) the up-links reach routers j x p_1 x .. x p_(l-1) +
 * 0 .. (p_1 x .. x p_(l-1) - 1) of level l, so over the node's k links a
 * random up-route reaches every router of every ancestor subtree.
 *
 * N = 16 with the defaults (L = 2; level 1: 4 groups x 2 routers, ids 0..7;
 * level 2: 1 subtree x 4 routers, ids 8..11, no parent ports). Group 0 is
 * drawn; group s (routers 2s, 2s+1) is wired the same way into child port
 * cs of routers 8..11:
 *
 *     level 2     [R8]          [R9]          [R10]         [R11]
 *                 c0 c1 c2 c3   c0 c1 c2 c3   c0 c1 c2 c3   c0 c1 c2 c3
 *                 |             |             |             |
 *                 p0            p1            p0            p1
 *                 +----[R0]-----+             +----[R1]-----+
 *     level 1      c0 c1 c2 c3                 c0 c1 c2 c3
 *                  |  |  |  |                  |  |  |  |
 *                  n0 n1 n2 n3  (link 0)       n0 n1 n2 n3  (link 1)
 *
 * Shape information for routing plug-ins: dims[0] = L (levels), dims[1] = k
 * (node links), dims[2] = children of the top-level subtree (m, or 4 when
 * m = 1), dims[3] = h. A router's level and subtree follow from the wiring
 * (routers/fattree_random.c derives them by walking child port 0 down to a
 * node: that takes l - 1 router hops and ends at node s x 4^l). priv is
 * unused (NULL).
 *
 * Invariants (checked by test/test_fattree.c):
 *   1. child ports 0..3 of a router lead down (to a node at level 1, to a
 *      router of the next lower level otherwise); ports >= 4 lead up and are
 *      all connected; a top-level router has no parent port;
 *   2. child port c of a level-l router of subtree s is connected iff
 *      subtree 4s + c exists (it is unconnected only at a pruned top);
 *   3. minimal distance between nodes a and b = 2 x (lca(a, b) - 1), lca the
 *      lowest level l with a / 4^l == b / 4^l (0 for a == b or the same
 *      group of 4: node -> level-1 router -> node). */
#include "topologies/topology.h"

#include "core/base/units.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Largest supported node count (4^10); the shape limits below keep the
 * arrays well inside 32-bit port numbers. */
#define FT_MAX_NODES (1u << 20)
#define FT_MAX_LEVELS 11
#define FT_MAX_PORTS (1ull << 28)

typedef struct ft_cfg {
    uint32_t nodes;
    uint32_t node_links;
    mpp_u32list parents;
} ft_cfg;

static const mpp_param ft_params[] = {
    {"nodes", MPP_PT_U32, offsetof(ft_cfg, nodes), "32", 4, FT_MAX_NODES, NULL,
     "processing nodes: m x 4^h with m = 1, 2 or 3 (4, 8, 12, 16, 32, 48, 64, ...)"},
    {"node_links", MPP_PT_U32, offsetof(ft_cfg, node_links), "2", 1, 4, NULL,
     "links from each node, to that many different level-1 routers (CM-5: 2)"},
    {"parents", MPP_PT_U32LIST, offsetof(ft_cfg, parents), "[2, 2, 4]", 1, 4, NULL,
     "parent ports of a router at level 1, 2, 3, ...; the last value repeats "
     "(CM-5: [2, 2, 4]; full fat tree: [4]; plain tree: [1])"},
};

/* The shape of one level: see the header comment. */
typedef struct ft_level {
    uint32_t subtrees;  /* S_l: subtrees of this level */
    uint32_t children;  /* child subtrees of each (4, or m at a pruned top) */
    uint32_t per_sub;   /* R_l: routers serving one subtree */
    uint32_t up;        /* P_l: parent ports of each router (0 at the top) */
    uint32_t base;      /* id of router (l, 0, 0) */
} ft_level;

static int ft_parse_short(const char *args, mpp_sb *out, mpp_err *err)
{
    uint64_t n;
    if (!mpp_units_u64(args, strlen(args), &n))
        return mpp_err_set(err, MPP_EINVAL,
                           "cm5-fattree:%.40s: expected cm5-fattree:NODES, e.g. cm5-fattree:32",
                           args);
    mpp_sb_printf(out, "nodes=%llu\n", (unsigned long long)n);
    return 0;
}

/* Split n into m x 4^h (m = n with every factor 4 removed). */
static uint32_t ft_split(uint32_t n, uint32_t *h)
{
    *h = 0;
    while (n && n % 4 == 0) {
        n /= 4;
        (*h)++;
    }
    return n;
}

/* Refuse a node count that is not m x 4^h (m in 1..3, >= 4), naming the
 * possible counts nearest to it. Returns MPP_EINVAL. */
static int ft_bad_nodes(uint32_t n, mpp_err *err)
{
    uint32_t below = 0, above = 0;
    for (uint64_t p = 1; p <= 4ull * FT_MAX_NODES && !above; p *= 4)
        for (uint32_t m = 1; m <= 3; m++) {
            uint64_t v = m * p;
            if (v < 4 || v > FT_MAX_NODES)
                continue;
            if (v < n)
                below = (uint32_t)v;
            else if (v > n && !above)
                above = (uint32_t)v;
        }
    char near[64] = "";
    if (below && above)
        snprintf(near, sizeof near, "; nearest: %u or %u", below, above);
    else if (above)
        snprintf(near, sizeof near, "; the smallest is %u", above);
    else if (below)
        snprintf(near, sizeof near, "; the largest is %u", below);
    return mpp_err_set(err, MPP_EINVAL,
                       "cm5-fattree: %u nodes is not possible: the node count must be m x 4^h with "
                       "m = 1, 2 or 3 and at least 4 (4, 8, 12, 16, 32, 48, 64, 128, 192, 256, "
                       "512, 768, 1024, ... up to %u)%s",
                       n, FT_MAX_NODES, near);
}

/* Check cfg and compute the per-level shape into lv[0..L-1] (lv[l-1] is
 * level l). Returns L >= 1, or a negative MPP_E* with err filled. */
static int ft_shape(const ft_cfg *cfg, ft_level *lv, uint32_t *m_out, uint32_t *h_out,
                    uint32_t *routers, mpp_err *err)
{
    uint32_t N = cfg->nodes, h, k = cfg->node_links;
    uint32_t m = ft_split(N, &h);
    if (N < 4 || N > FT_MAX_NODES || m < 1 || m > 3)
        return ft_bad_nodes(N, err);
    if (k < 1 || k > 4)
        return mpp_err_set(err, MPP_EINVAL,
                           "cm5-fattree: node_links = %u: a node has 1 to 4 links (one per "
                           "level-1 router of its group; the CM-5 has 2)",
                           k);
    const mpp_u32list *pl = &cfg->parents;
    if (pl->n < 1 || pl->n > MPP_U32LIST_MAX)
        return mpp_err_set(err, MPP_EINVAL,
                           "cm5-fattree: parents must list 1 to %d values (parent ports per "
                           "router at level 1, 2, ...; CM-5: [2, 2, 4])",
                           MPP_U32LIST_MAX);
    for (uint32_t i = 0; i < pl->n; i++)
        if (pl->v[i] < 1 || pl->v[i] > 4)
            return mpp_err_set(err, MPP_EINVAL,
                               "cm5-fattree: parents[%u] = %u: a router has 1 to 4 parent ports",
                               i, pl->v[i]);
    uint32_t L = m == 1 ? h : h + 1;
    if (L < 1 || L > FT_MAX_LEVELS)
        return ft_bad_nodes(N, err);
    uint64_t per_sub = k, total = 0, ports = 0;
    for (uint32_t l = 1; l <= L; l++) {
        ft_level *v = &lv[l - 1];
        uint32_t p = pl->v[l - 1 < pl->n ? l - 1 : pl->n - 1];
        v->subtrees = l <= h ? N >> (2 * l) : 1;
        v->children = l <= h ? 4 : m;
        v->up = l < L ? p : 0;
        v->base = (uint32_t)total;
        uint64_t count = (uint64_t)v->subtrees * per_sub;
        total += count;
        ports += count * (4 + v->up);
        if (ports > FT_MAX_PORTS)
            return mpp_err_set(err, MPP_EINVAL,
                               "cm5-fattree: %u nodes with node_links %u and these parents "
                               "need more than %llu router ports; use fewer nodes or parents",
                               N, k, (unsigned long long)FT_MAX_PORTS);
        v->per_sub = (uint32_t)per_sub;
        per_sub *= p;
    }
    *m_out = m;
    *h_out = h;
    *routers = (uint32_t)total;
    return (int)L;
}

/* The levels' routers and ports (ft_shape); node_links links a node. */
static int ft_size(const void *cfgp, mpp_topo_size *out, mpp_err *err)
{
    const ft_cfg *cfg = cfgp;
    ft_level lv[FT_MAX_LEVELS];
    uint32_t m = 0, h = 0, R = 0;
    int L = ft_shape(cfg, lv, &m, &h, &R, err);
    if (L < 0)
        return L;
    out->nodes = cfg->nodes;
    out->links = (uint64_t)cfg->nodes * cfg->node_links;
    out->routers = R;
    for (int l = 0; l < L; l++)
        out->ports += (uint64_t)lv[l].subtrees * lv[l].per_sub * (4 + lv[l].up);
    return 0;
}

static int ft_setup(mpp_topo *t, const void *cfgp, mpp_err *err)
{
    const ft_cfg *cfg = cfgp;
    ft_level lv[FT_MAX_LEVELS];
    uint32_t m = 0, h = 0, R = 0;
    int L = ft_shape(cfg, lv, &m, &h, &R, err);
    if (L < 0)
        return L;
    uint32_t N = cfg->nodes, k = cfg->node_links;
    uint32_t *radix = malloc(R * sizeof *radix);
    uint32_t *nlinks = malloc(N * sizeof *nlinks);
    if (!radix || !nlinks) {
        free(radix);
        free(nlinks);
        return mpp_err_set(err, MPP_ENOMEM, "out of memory building the cm5-fattree");
    }
    for (int l = 0; l < L; l++)
        for (uint32_t i = 0; i < lv[l].subtrees * lv[l].per_sub; i++)
            radix[lv[l].base + i] = 4 + lv[l].up;
    for (uint32_t n = 0; n < N; n++)
        nlinks[n] = k;
    int rc = mpp_topo_alloc(t, R, radix, N, nlinks, err);
    free(radix);
    free(nlinks);
    if (rc)
        return rc;
    t->kind = MPP_TOPO_FATTREE;
    t->dims[0] = (uint32_t)L;
    t->dims[1] = k;
    t->dims[2] = lv[L - 1].children;
    t->dims[3] = h;
    /* level 1: node n's link j to router (1, n/4, j), child port n % 4 */
    for (uint32_t n = 0; n < N; n++)
        for (uint32_t j = 0; j < k; j++)
            mpp_topo_attach(t, n, j, lv[0].base + (n / 4) * lv[0].per_sub + j, n % 4);
    /* level l-1 -> l: (l-1, s', j') port 4+q <-> (l, s'/4, j' p + q) port s'%4 */
    for (int l = 1; l < L; l++) {
        const ft_level *lo = &lv[l - 1], *hi = &lv[l];
        for (uint32_t s = 0; s < lo->subtrees; s++)
            for (uint32_t j = 0; j < lo->per_sub; j++)
                for (uint32_t q = 0; q < lo->up; q++)
                    mpp_topo_connect(t, lo->base + s * lo->per_sub + j, 4 + q,
                                     hi->base + (s / 4) * hi->per_sub + j * lo->up + q, s % 4);
    }
    return 0;
}

/* Lowest level whose subtree holds both a and b (1 within a group of 4). */
static uint32_t ft_lca(uint32_t a, uint32_t b)
{
    uint32_t l = 1;
    while ((a >> (2 * l)) != (b >> (2 * l)))
        l++;
    return l;
}

static uint32_t ft_distance(const mpp_topo *t, uint32_t a, uint32_t b)
{
    return 2 * (ft_lca(a, b) - 1);
}

static void ft_port_name(const mpp_topo *t, uint32_t r, uint32_t p, char *buf, int len)
{
    if (p < 4)
        snprintf(buf, (size_t)len, "c%u", p);
    else
        snprintf(buf, (size_t)len, "p%u", p - 4);
}

const mpp_topo_ops mpp_topo_cm5_fattree = {
    .name = "cm5-fattree",
    .help = "CM-5 data network: 4-ary fat tree over m x 4^h nodes, node_links links per node, "
            "parents per level (ports c0..c3 down, p0.. up)",
    .schema = {ft_params, MPP_COUNTOF(ft_params), sizeof(ft_cfg)},
    .parse_short = ft_parse_short,
    .setup = ft_setup,
    .size = ft_size,
    .distance = ft_distance,
    .port_name = ft_port_name,
};
