/* core/deadlock.c — the static deadlock check: the channel dependency graph
 * (CDG) of a topology, a routing plug-in's relation and the VCs, and a
 * cycle of it (see deadlock.h for the interface).
 *
 * Model (Dally and Seitz, 1987). A vertex is an output channel between two
 * routers together with a VC group: the VCs a route class may take on it
 * (several VCs of one group are interchangeable for allocation, so a cycle
 * exists among single VCs iff one exists among groups). A packet that
 * holds group a of channel x and may ask next for group b of channel y
 * makes the edge (x, a) -> (y, b). With every path of the routing in the
 * graph (the relation enumerates the random choices), an acyclic graph
 * proves the routing deadlock-free; a cycle is a set of channels that
 * packets can fill, each waiting for the next, with no way out — the
 * routings of this simulator are oblivious, so a cycle is a real deadlock
 * configuration. Ejection channels are not vertices: sinks always consume.
 *
 * VC groups. The engine gives route class c of message class m the VCs
 * [(m * RC + c) * vpc, + vpc), vpc = V / (M * RC). With V / M >= RC every
 * route class is its own group. With fewer (mpp_net_init refuses it) the
 * check folds: class c goes to group c * Vm / RC, Vm = V / M (at least 1),
 * the classes sharing VCs as a machine with only Vm VCs would have to — a
 * cycle then is why the refusal is necessary.
 *
 * Relation states. A packet at router r is (the global port g it arrived
 * on, its route class, the node it is bound for, the plug-in's flags);
 * injection states have the node link's port and the pseudo-class RC
 * (MPP_ROUTE_INJECT for the plug-in). explore() starts, for every source
 * node, link and destination (itself included), one depth-first search
 * over the states (an explicit stack, drained before the next start, so it
 * holds one source's reachable frontier), and on_hop, the relation's emit
 * callback, checks each hop, adds its edge and pushes the next state.
 *
 * Data structures:
 *   seen   visited bitmap, bit f * plane + (g * C + c) * N + to with
 *          C = RC + 1 and plane = P * C * N bits: the flag value is the
 *          outermost coordinate, so a new largest flag value (plug-ins use
 *          0..3, at most 255) extends the bitmap without moving a bit;
 *   edge   the dependencies as u << 32 | v (vertex = g * G + group),
 *          sorted and made unique whenever the buffer fills (compact),
 *          grown only when that leaves it more than half full — memory
 *          follows the distinct edges, not the raw ones;
 *   off    after exploring, the CSR offsets into the sorted edges;
 *   colour the white / grey / black marks of the cycle search (find_cycle,
 *          iterative), then shorten() runs a breadth-first search from a
 *          few vertices of the cycle found for the shortest cycle through
 *          each.
 *
 * Invariants:
 *   1. a state is pushed at most once: its bit is set when it is pushed;
 *   2. every edge joins two vertices of router-router channels (both
 *      ends' port_peer is a router port);
 *   3. after compact, edge[0 .. nedge) is strictly increasing;
 *   4. the cycle reported is a cycle of the graph: every vertex has an edge
 *      to the next, the last to the first (cycle_check, asserted).
 */
#include "core/deadlock.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/workload.h"

#define NONE 0xffffffffu
#define EDGE_CAP0 (1u << 16)   /* first size of the edge buffer */
#define STACK_CAP0 1024u       /* first size of the state stack */
#define SHORTEN_TRIES 16u      /* breadth-first searches shorten() may run */

/* A relation state (see the essay): cls == RC is an injection. */
typedef struct dl_state {
    uint32_t g, cls, to, flags;
} dl_state;

/* One check in progress. */
typedef struct checker {
    /* what is checked */
    const mpp_topo *t;
    const mpp_routing_ops *ops;
    const void *cfg;
    void *priv;
    uint32_t P, N, RC, C, G;   /* ports, nodes, route classes, RC + 1, groups */
    uint32_t *grp;             /* [RC]: the VC group of each route class */
    /* visited states */
    uint64_t *seen;
    uint64_t plane;            /* bits per flag value */
    uint32_t F;                /* flag values the bitmap covers */
    /* states to expand */
    dl_state *stk;
    size_t nstk, capstk;
    /* dependencies */
    uint64_t *edge;
    size_t nedge, capedge;
    uint64_t last;             /* the last edge added (consecutive repeats are common) */
    /* the state being expanded (on_hop reads it) */
    dl_state cur;
    uint32_t r;                /* its router */
    uint32_t from;             /* the vertex it holds, NONE at injection */
    uint32_t hops;             /* hops the relation gave it */
    uint64_t states;
    int rc;                    /* first error (on_hop cannot return one) */
    mpp_err *err;
} checker;

/* ---- states ------------------------------------------------------------- */

/* "router 3 (arrived on port E, class 1, bound for node 7, flags 0)" for
 * messages about the state being expanded. */
static void state_text(const checker *k, char *buf, size_t len)
{
    char pn[16];
    uint32_t in = k->cur.g - k->t->port_base[k->r];
    mpp_topo_port_name(k->t, k->r, in, pn, sizeof pn);
    char cls[16];
    if (k->cur.cls == k->RC)
        snprintf(cls, sizeof cls, "injected");
    else
        snprintf(cls, sizeof cls, "class %u", k->cur.cls);
    snprintf(buf, len, "router %u (arrived on port %s, %s, bound for node %u, flags %u)", k->r,
             pn, cls, k->cur.to, k->cur.flags);
}

/* Record that the relation broke its contract (MPP_ERUN): what, at the
 * state being expanded. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void contract(checker *k, const char *fmt, ...)
{
    if (k->rc)
        return;
    char what[256], at[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    state_text(k, at, sizeof at);
    k->rc = mpp_err_set(k->err, MPP_ERUN, "router '%s' breaks its routing relation at %s: %s",
                        k->ops->name, at, what);
}

/* Extend the bitmap to flag values 0..f. */
static int grow_flags(checker *k, uint32_t f)
{
    uint64_t words = (k->F * k->plane + 63) / 64, nwords = ((f + 1) * k->plane + 63) / 64;
    if (nwords * 8 > MPP_DEADLOCK_MAX_BYTES)
        return k->rc = mpp_err_set(k->err, MPP_EINVAL,
                                   "router '%s' uses flag value %u: the static check would need "
                                   "%llu MiB for its states, above its limit of %llu MiB",
                                   k->ops->name, f, (unsigned long long)(nwords >> 17),
                                   (unsigned long long)(MPP_DEADLOCK_MAX_BYTES >> 20));
    uint64_t *s = realloc(k->seen, nwords * sizeof *s);
    if (!s)
        return k->rc = mpp_err_set(k->err, MPP_ENOMEM, "out of memory (static deadlock check)");
    memset(s + words, 0, (nwords - words) * sizeof *s);
    k->seen = s;
    k->F = f + 1;
    return 0;
}

/* Push state (g, cls, to, flags) unless it was seen (invariant 1). */
static void visit(checker *k, uint32_t g, uint32_t cls, uint32_t to, uint32_t flags)
{
    if (flags >= k->F && grow_flags(k, flags))
        return;
    uint64_t bit = flags * k->plane + ((uint64_t)g * k->C + cls) * k->N + to;
    uint64_t m = 1ull << (bit & 63);
    if (k->seen[bit >> 6] & m)
        return;
    k->seen[bit >> 6] |= m;
    if (k->nstk == k->capstk) {
        size_t cap = k->capstk ? 2 * k->capstk : STACK_CAP0;
        dl_state *s = realloc(k->stk, cap * sizeof *s);
        if (!s) {
            k->rc = mpp_err_set(k->err, MPP_ENOMEM, "out of memory (static deadlock check)");
            return;
        }
        k->stk = s;
        k->capstk = cap;
    }
    k->stk[k->nstk++] = (dl_state){g, cls, to, flags};
}

/* ---- edges -------------------------------------------------------------- */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Sort the edges and drop repeats (invariant 3). */
static void compact(checker *k)
{
    if (k->nedge < 2)
        return;
    qsort(k->edge, k->nedge, sizeof *k->edge, cmp_u64);
    size_t n = 1;
    for (size_t i = 1; i < k->nedge; i++)
        if (k->edge[i] != k->edge[n - 1])
            k->edge[n++] = k->edge[i];
    k->nedge = n;
}

static void add_edge(checker *k, uint32_t u, uint32_t v)
{
    uint64_t e = (uint64_t)u << 32 | v;
    if (k->nedge && e == k->last)
        return;
    if (k->nedge == k->capedge) {
        compact(k);
        if (k->nedge > k->capedge / 2) {
            size_t cap = 2 * k->capedge;
            uint64_t *p = realloc(k->edge, cap * sizeof *p);
            if (!p) {
                k->rc = mpp_err_set(k->err, MPP_ENOMEM, "out of memory (static deadlock check)");
                return;
            }
            k->edge = p;
            k->capedge = cap;
        }
    }
    k->edge[k->nedge++] = e;
    k->last = e;
}

/* ---- exploring the relation ------------------------------------------------ */

/* The relation's emit callback: check the hop against the contract of
 * core/route.h, add its dependency, push the state it leads to. */
static void on_hop(void *ud, const mpp_route_hop *h)
{
    checker *k = ud;
    if (k->rc)
        return;
    const mpp_topo *t = k->t;
    uint32_t r = k->r, radix = t->port_base[r + 1] - t->port_base[r];
    k->hops++;
    if (h->port >= radix) {
        contract(k, "a hop out of port %u (the router has %u)", h->port, radix);
        return;
    }
    char pn[16]; /* the port's name, for the messages only */
    if (h->route_class >= k->RC || h->flags > 255 || h->to >= t->nodes) {
        mpp_topo_port_name(t, r, h->port, pn, sizeof pn);
        contract(k, "a hop out of port %s with class %u, bound for node %u, flags %u (it has %u "
                    "route class%s, %u nodes, flags below 256)",
                 pn, h->route_class, h->to, h->flags, k->RC, k->RC == 1 ? "" : "es", t->nodes);
        return;
    }
    uint32_t g = t->port_base[r] + h->port, peer = t->port_peer[g];
    if (peer == MPP_TOPO_NONE) {
        mpp_topo_port_name(t, r, h->port, pn, sizeof pn);
        contract(k, "a hop out of port %s, which is unconnected", pn);
        return;
    }
    if (peer & MPP_TOPO_NODE) {
        /* an ejection: the route ends (a sink consumes, no dependency) */
        uint32_t l = peer & ~MPP_TOPO_NODE, n = t->link_node[l];
        bool bound = n == k->cur.to || n == h->to;
        if (!bound || (t->link_eject ? t->link_eject[l] : t->link_port[l]) != g) {
            mpp_topo_port_name(t, r, h->port, pn, sizeof pn);
            if (!bound)
                contract(k, "a hop out of port %s ejects into node %u", pn, n);
            else
                contract(k, "a hop out of port %s, node %u's injection-only port", pn, n);
        }
        return;
    }
    if (k->from != NONE)
        add_edge(k, k->from, g * k->G + k->grp[h->route_class]);
    visit(k, peer, h->route_class, h->to, h->flags);
}

/* Expand every state on the stack (and those they lead to). */
static void drain(checker *k)
{
    const mpp_topo *t = k->t;
    while (k->nstk && !k->rc) {
        k->cur = k->stk[--k->nstk];
        k->states++;
        k->r = t->port_router[k->cur.g];
        bool inj = k->cur.cls == k->RC;
        /* the channel it arrived by is the upstream router's output port */
        k->from = inj ? NONE : t->port_peer[k->cur.g] * k->G + k->grp[k->cur.cls];
        k->hops = 0;
        k->ops->relation(t, k->cfg, k->priv, k->r, k->cur.g - t->port_base[k->r],
                         inj ? MPP_ROUTE_INJECT : k->cur.cls, k->cur.to, k->cur.flags, on_hop, k);
        if (!k->rc && !k->hops)
            contract(k, "no hop");
    }
}

/* Every source node, each of its links, every destination. */
static void explore(checker *k)
{
    const mpp_topo *t = k->t;
    for (uint32_t s = 0; s < t->nodes && !k->rc; s++)
        for (uint32_t l = t->node_link_base[s]; l < t->node_link_base[s + 1] && !k->rc; l++)
            for (uint32_t d = 0; d < t->nodes && !k->rc; d++) {
                visit(k, t->link_port[l], k->RC, d, 0);
                drain(k);
            }
}

/* ---- the cycle ------------------------------------------------------------ */

/* True when w is a successor of u (binary search of u's sorted edges). */
static bool has_edge(const checker *k, const uint64_t *off, uint32_t u, uint32_t w)
{
    uint64_t lo = off[u], hi = off[u + 1], e = (uint64_t)u << 32 | w;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (k->edge[mid] < e)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < off[u + 1] && k->edge[lo] == e;
}

/* Invariant 4. */
static bool cycle_check(const checker *k, const uint64_t *off, const uint32_t *cyc, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (!has_edge(k, off, cyc[i], cyc[(i + 1) % n]))
            return false;
    return n > 0;
}

typedef struct dfs_frame {
    uint32_t v;
    uint64_t i;    /* next edge of v to follow */
} dfs_frame;

/* Iterative depth-first search with colours over V vertices: the first
 * cycle found, into cyc (which has room for V), and its length; 0 when
 * the graph is acyclic. colour must be zeroed (white); fr has room for V. */
static uint32_t find_cycle(const checker *k, const uint64_t *off, uint32_t V, uint8_t *colour,
                           dfs_frame *fr, uint32_t *cyc)
{
    enum { WHITE = 0, GREY = 1, BLACK = 2 };
    for (uint32_t s = 0; s < V; s++) {
        if (colour[s] != WHITE || off[s] == off[s + 1])
            continue;
        uint32_t depth = 0;
        fr[depth++] = (dfs_frame){s, off[s]};
        colour[s] = GREY;
        while (depth) {
            dfs_frame *f = &fr[depth - 1];
            if (f->i == off[f->v + 1]) {
                colour[f->v] = BLACK;
                depth--;
                continue;
            }
            uint32_t w = (uint32_t)k->edge[f->i++];
            if (colour[w] == WHITE) {
                colour[w] = GREY;
                fr[depth++] = (dfs_frame){w, off[w]};
            } else if (colour[w] == GREY) {
                /* the grey vertices are the stack: the cycle is w .. top */
                uint32_t pos = depth - 1;
                while (fr[pos].v != w)
                    pos--;
                for (uint32_t j = pos; j < depth; j++)
                    cyc[j - pos] = fr[j].v;
                return depth - pos;
            }
        }
    }
    return 0;
}

/* The shortest cycle through x, into out (room for V), by breadth-first
 * search; its length (x is on a cycle, so one is found). par and queue
 * have room for V; par is all NONE and is left so. */
static uint32_t cycle_through(const checker *k, const uint64_t *off, uint32_t x, uint32_t *par,
                              uint32_t *queue, uint32_t *out)
{
    uint32_t head = 0, tail = 0, n = 0, end = NONE;
    queue[tail++] = x;
    while (head < tail && end == NONE) {
        uint32_t u = queue[head++];
        for (uint64_t i = off[u]; i < off[u + 1]; i++) {
            uint32_t w = (uint32_t)k->edge[i];
            if (w == x) {
                end = u;
                break;
            }
            if (par[w] == NONE) {
                par[w] = u;
                queue[tail++] = w;
            }
        }
    }
    /* the path x .. end, read backwards from end */
    for (uint32_t v = end; v != NONE && v != x; v = par[v])
        n++;
    uint32_t len = end == NONE ? 0 : n + 1;
    out[0] = x;
    for (uint32_t v = end, i = n; v != NONE && v != x; v = par[v])
        out[i--] = v;
    for (uint32_t i = 1; i < tail; i++)
        par[queue[i]] = NONE;
    return len;
}

/* Replace the cycle found (length n) by the shortest cycle through any of
 * its first SHORTEN_TRIES vertices, rotated to start at its smallest
 * vertex; the new length. */
static uint32_t shorten(const checker *k, const uint64_t *off, uint32_t V, uint32_t *cyc,
                        uint32_t n, uint32_t *par, uint32_t *queue, uint32_t *tmp)
{
    for (uint32_t v = 0; v < V; v++)
        par[v] = NONE;
    uint32_t tries = n < SHORTEN_TRIES ? n : SHORTEN_TRIES;
    for (uint32_t i = 0; i < tries; i++) {
        uint32_t m = cycle_through(k, off, cyc[i], par, queue, tmp);
        if (m && m < n) {
            memcpy(cyc, tmp, m * sizeof *cyc);
            n = m;
            if (tries > n)
                tries = n;
        }
    }
    uint32_t lo = 0;
    for (uint32_t i = 1; i < n; i++)
        if (cyc[i] < cyc[lo])
            lo = i;
    for (uint32_t i = 0; i < n; i++)
        tmp[i] = cyc[(lo + i) % n];
    memcpy(cyc, tmp, n * sizeof *cyc);
    return n;
}

/* Describe vertex v (channel and group) for the result. */
static void describe(const checker *k, const mpp_deadlock_result *res, uint32_t v,
                     mpp_deadlock_chan *c)
{
    const mpp_topo *t = k->t;
    uint32_t g = v / k->G, grp = v % k->G, peer = t->port_peer[g];
    c->router = t->port_router[g];
    c->port = g - t->port_base[c->router];
    c->next_router = t->port_router[peer];
    c->next_port = peer - t->port_base[c->next_router];
    mpp_topo_port_name(t, c->router, c->port, c->port_name, sizeof c->port_name);
    mpp_topo_port_name(t, c->next_router, c->next_port, c->next_name, sizeof c->next_name);
    c->class_lo = NONE;
    c->class_hi = 0;
    for (uint32_t cls = 0; cls < k->RC; cls++)
        if (k->grp[cls] == grp) {
            if (c->class_lo == NONE)
                c->class_lo = cls;
            c->class_hi = cls;
        }
    uint32_t vpc = res->folded ? 1 : res->vcs_per_mclass / k->RC;
    c->vc_lo = grp * vpc;
    c->vc_hi = c->vc_lo + vpc - 1;
}

/* After explore: count what the graph uses, build the CSR, find, shorten
 * and describe a cycle. */
static int analyse(checker *k, mpp_deadlock_result *res)
{
    compact(k);
    uint32_t V = k->P * k->G;
    uint64_t *off = calloc((size_t)V + 1, sizeof *off);
    uint8_t *colour = calloc((size_t)V + 1, 1);
    dfs_frame *fr = malloc(((size_t)V + 1) * sizeof *fr);
    uint32_t *cyc = malloc(((size_t)V + 1) * sizeof *cyc);
    uint32_t *par = malloc(((size_t)V + 1) * sizeof *par);
    uint32_t *queue = malloc(((size_t)V + 1) * sizeof *queue);
    uint32_t *tmp = malloc(((size_t)V + 1) * sizeof *tmp);
    int rc = 0;
    if (!off || !colour || !fr || !cyc || !par || !queue || !tmp) {
        rc = mpp_err_set(k->err, MPP_ENOMEM, "out of memory (static deadlock check)");
        goto out;
    }
    /* the CSR offsets (edges are sorted by source), and what is used */
    for (size_t i = 0; i < k->nedge; i++) {
        uint32_t u = (uint32_t)(k->edge[i] >> 32), w = (uint32_t)k->edge[i];
        off[u + 1]++;
        colour[u] = colour[w] = 1;
    }
    for (uint32_t v = 0; v < V; v++)
        off[v + 1] += off[v];
    for (uint32_t g = 0; g < k->P; g++) {
        bool any = false;
        for (uint32_t grp = 0; grp < k->G; grp++)
            if (colour[g * k->G + grp]) {
                res->vertices++;
                any = true;
            }
        res->channels += any;
    }
    res->edges = k->nedge;
    memset(colour, 0, (size_t)V + 1);
    uint32_t n = find_cycle(k, off, V, colour, fr, cyc);
    if (!n)
        goto out;
    n = shorten(k, off, V, cyc, n, par, queue, tmp);
    assert(cycle_check(k, off, cyc, n));
    res->cycle = calloc(n, sizeof *res->cycle);
    if (!res->cycle) {
        rc = mpp_err_set(k->err, MPP_ENOMEM, "out of memory (static deadlock check)");
        goto out;
    }
    res->ncycle = n;
    for (uint32_t i = 0; i < n; i++)
        describe(k, res, cyc[i], &res->cycle[i]);
out:
    free(off);
    free(colour);
    free(fr);
    free(cyc);
    free(par);
    free(queue);
    free(tmp);
    return rc;
}

/* ---- the VC model ------------------------------------------------------------ */

/* Fill the VC fields of res and, when mpp_net_init would refuse these VCs,
 * why (its conditions, in its order). */
static void vc_model(mpp_deadlock_result *res, const char *name, uint32_t RC, uint32_t V,
                     uint32_t M)
{
    res->route_classes = RC;
    res->message_classes = M;
    res->vcs = V;
    res->vcs_per_mclass = V / M ? V / M : 1;
    res->folded = res->vcs_per_mclass < RC;
    res->groups = res->folded ? res->vcs_per_mclass : RC;
    size_t len = sizeof res->refusal;
    int n = 0;
    if (res->folded && M == 1)
        n = snprintf(res->refusal, len,
                     "router '%s' needs %u route classes per message class on this topology; "
                     "with %u VC%s they share VCs",
                     name, RC, V, V == 1 ? "" : "s");
    else if (res->folded)
        n = snprintf(res->refusal, len,
                     "router '%s' needs %u route classes per message class on this topology; "
                     "with %u VC%s for %u message classes (%u each) they share VCs",
                     name, RC, V, V == 1 ? "" : "s", M, res->vcs_per_mclass);
    else if (V % (M * RC))
        n = snprintf(res->refusal, len,
                     "router '%s' needs vcs to be a multiple of %u (%u message class%s x %u "
                     "route class%s); vcs is %u (the check gives each route class %u VC%s)",
                     name, M * RC, M, M == 1 ? "" : "es", RC, RC == 1 ? "" : "es", V,
                     V / (M * RC), V / (M * RC) == 1 ? "" : "s");
    if (V > 64 && n >= 0 && (size_t)n < len)
        snprintf(res->refusal + n, len - (size_t)n, "%s%u VCs per port is above the limit of 64",
                 n ? "; " : "", V);
}

/* ---- entry points ------------------------------------------------------------ */

int mpp_deadlock_check(const mpp_topo *t, const mpp_routing_ops *ops, const void *cfg,
                       void *priv, uint32_t vcs, uint32_t message_classes,
                       mpp_deadlock_result *res, mpp_err *err)
{
    memset(res, 0, sizeof *res);
    if (!ops->relation)
        return mpp_err_set(err, MPP_EINVAL,
                           "router '%s' has no routing relation: it cannot be checked statically",
                           ops->name);
    if (!vcs || !message_classes)
        return mpp_err_set(err, MPP_EINVAL, "the static check needs at least one VC and one "
                                            "message class");
    checker k = {.t = t, .ops = ops, .cfg = cfg, .priv = priv, .err = err};
    k.P = t->ports;
    k.N = t->nodes;
    k.RC = ops->route_classes(t, cfg);
    if (k.RC < 1)
        return mpp_err_set(err, MPP_ERUN, "router '%s' declares no route class", ops->name);
    vc_model(res, ops->name, k.RC, vcs, message_classes);
    res->nodes = t->nodes;
    res->escape_classes = ops->escape_classes ? ops->escape_classes(t, cfg) : 0;
    k.C = k.RC + 1;
    k.G = res->groups;
    double bytes = (double)k.P * k.C * k.N / 8;
    if (bytes > (double)MPP_DEADLOCK_MAX_BYTES || (double)k.P * k.G >= NONE)
        return mpp_err_set(err, MPP_EINVAL,
                           "router '%s' on %u ports and %u nodes with %u route classes: the "
                           "static check would need %.0f MiB for its states, above its limit "
                           "of %llu MiB",
                           ops->name, k.P, k.N, k.RC, bytes / (1 << 20),
                           (unsigned long long)(MPP_DEADLOCK_MAX_BYTES >> 20));
    k.plane = (uint64_t)k.P * k.C * k.N;
    k.F = 1;
    k.grp = malloc(k.RC * sizeof *k.grp);
    k.seen = calloc((k.plane + 63) / 64, sizeof *k.seen);
    k.edge = malloc(EDGE_CAP0 * sizeof *k.edge);
    k.capedge = EDGE_CAP0;
    int rc = 0;
    if (!k.grp || !k.seen || !k.edge) {
        rc = mpp_err_set(err, MPP_ENOMEM, "out of memory (static deadlock check)");
        goto out;
    }
    for (uint32_t c = 0; c < k.RC; c++)
        k.grp[c] = res->folded ? (uint32_t)((uint64_t)c * k.G / k.RC) : c;
    explore(&k);
    res->states = k.states;
    rc = k.rc ? k.rc : analyse(&k, res);
out:
    free(k.grp);
    free(k.seen);
    free(k.stk);
    free(k.edge);
    if (rc)
        mpp_deadlock_result_free(res);
    return rc;
}

/* The message classes the network of c has: one per NIC interface for a
 * workload of node programs (as mpp_sim_create sets them). */
static uint32_t mclasses_of(const mpp_sim_config *c)
{
    if (c->workload.ops && (c->workload.ops->flags & MPP_WL_NODES))
        return c->node.interfaces ? c->node.interfaces : 1;
    return c->net.message_classes;
}

int mpp_deadlock_check_config(const mpp_sim_config *c, mpp_deadlock_result *res, mpp_err *err)
{
    memset(res, 0, sizeof *res);
    const mpp_net_config *nc = &c->net;
    if (!nc->topo || !nc->routing)
        return mpp_err_set(err, MPP_EINVAL, "configuration names no topology or router");
    mpp_topo t;
    int rc = mpp_topo_build(&t, nc->topo, nc->topo_cfg.b, err);
    if (rc)
        return rc;
    void *priv = NULL;
    const mpp_routing_ops *ops = nc->routing;
    if (!ops->supports(&t, nc->routing_cfg.b, err)) {
        rc = err->code ? err->code : MPP_EINVAL;
        goto out;
    }
    uint32_t M = mclasses_of(c);
    uint32_t V = nc->vcs;
    if (nc->vcs_per_class)
        V = ops->route_classes(&t, nc->routing_cfg.b) * M * nc->vcs_per_class;
    if (ops->setup && (rc = ops->setup(&t, nc->routing_cfg.b, &priv, err)))
        goto out;
    rc = mpp_deadlock_check(&t, ops, nc->routing_cfg.b, priv, V, M, res, err);
    if (ops->destroy && priv)
        ops->destroy(priv);
out:
    mpp_topo_free(&t);
    return rc;
}

bool mpp_deadlock_same(const mpp_sim_config *a, const mpp_sim_config *b)
{
    const mpp_net_config *x = &a->net, *y = &b->net;
    if (x->topo != y->topo || x->routing != y->routing || x->vcs != y->vcs ||
        x->vcs_per_class != y->vcs_per_class || mclasses_of(a) != mclasses_of(b))
        return false;
    /* the parameters: the bytes of each plug-in's own struct */
    return (!x->topo || !memcmp(x->topo_cfg.b, y->topo_cfg.b, x->topo->schema.size)) &&
           (!x->routing || !memcmp(x->routing_cfg.b, y->routing_cfg.b, x->routing->schema.size));
}

void mpp_deadlock_result_free(mpp_deadlock_result *res)
{
    if (!res)
        return;
    free(res->cycle);
    res->cycle = NULL;
    res->ncycle = 0;
}
