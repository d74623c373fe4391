/* test/test_adaptive.c — the adaptive routers (routers/adaptive.c,
 * misroute.c) over all source-destination pairs of small meshes, tori
 * and hypercubes, with the outputs' state drawn at random at every router
 * and cycle (a mock of the engine's mpp_route_free):
 *   - adaptive: every route is minimal (hops = the topology's distance)
 *     and ends at its destination; a hop on the adaptive class leaves by a
 *     minimal port; at every router, with every adaptive VC blocked, the
 *     head is offered its escape hop (dimension order, the dateline rule's
 *     class), and a packet on an escape class stays on the escape classes
 *     along dimension order; every escape hop is a hop of the relation
 *     (the escape sub-network check --deadlock checks);
 *   - misroute: every packet is delivered, with at most m misroutes, each
 *     a non-minimal hop to a router that is not a U-turn, taken only after
 *     T blocked cycles; hops = distance + at most 2 per misroute on a mesh
 *     or hypercube; after m misroutes only escape classes. */
#include <stdlib.h>
#include <string.h>

#include "routers/routing.h"
#include "test/testutil.h"

/* The mock outputs: per call, each (port, class) is free with probability
 * p_free (a random free-credit count), or every adaptive VC is blocked
 * (block_adaptive); the escape classes follow escape_free. */
typedef struct mock {
    mpp_rng rng;
    uint32_t escape;        /* escape classes E */
    int block_adaptive;
    int escape_free;
    double p_free;
} mock;

static uint32_t mock_free(const mpp_route_ctx *x, uint32_t port, uint32_t cls)
{
    mock *m = (mock *)(uintptr_t)x->net;
    if (cls >= m->escape && m->block_adaptive)
        return 0;
    if (cls < m->escape)
        return m->escape_free ? 1 + mpp_rng_below(&m->rng, 8) : 0;
    return mpp_rng_double(&m->rng) < m->p_free ? 1 + mpp_rng_below(&m->rng, 8) : 0;
}

typedef struct want {
    mpp_route_hop h;
    int found;
} want;

static void match(void *ud, const mpp_route_hop *h)
{
    want *w = ud;
    if (h->port == w->h.port && h->route_class == w->h.route_class && h->to == w->h.to)
        w->found = 1;
}

typedef struct tally {
    uint32_t undelivered, long_, not_minimal, no_escape, left_escape, bad_rel, too_many,
        bad_misroute, early;
    uint32_t misroutes, packets;
} tally;

/* One packet s -> d through route_adaptive as the engine drives it: at each
 * router the head tries cycle after cycle (waited 0, 1, ...) until the
 * mock lets its chosen hop through (the class it chose has a free VC). */
static void walk(const mpp_topo *t, const mpp_routing_ops *ops, const void *cfg, uint32_t s,
                 uint32_t d, mock *m, uint32_t T, uint32_t max_mis, tally *ty)
{
    uint32_t E = ops->escape_classes(t, cfg);
    mpp_route_state st;
    mpp_route_state_init(&st, t, s, d);
    uint32_t l = t->node_link_base[s];
    uint32_t r = t->port_router[t->link_port[l]], in = t->link_port[l] - t->port_base[r];
    uint32_t cls = MPP_ROUTE_INJECT, misroutes = 0, hops = 0;
    bool misroute = ops == mpp_routing_find("misroute");
    ty->packets++;
    for (int guard = 0; guard < 8 * (int)t->routers + 64; guard++) {
        uint64_t minimal = mpp_routing_minimal_ports(t, r, st.dst_router);
        /* with every adaptive VC blocked and the escape free, the head is
         * offered its escape hop (misroute: once T cycles have passed and
         * no non-minimal port is free: here all adaptive VCs are blocked) */
        mpp_route_ctx x = {.free = mock_free, .net = m, .router = r, .in_class = cls,
                           .waited = T, .misroutes = misroutes, .flits = 4};
        mpp_route_out esc, out;
        mpp_routing_escape_hop(t, r, in, cls, E, &st, NULL, &esc);
        m->block_adaptive = 1;
        m->escape_free = 1;
        mpp_route_state st2 = st;
        ops->route_adaptive(t, cfg, NULL, r, in, &st2, &m->rng, &x, &out);
        if (out.port != esc.port || out.route_class != esc.route_class) {
            /* a tie on a ring: either way round is dimension order */
            bool tie = t->kind == MPP_TOPO_KARY && out.route_class == esc.route_class &&
                       (minimal >> out.port & 1) && out.route_class < E;
            if (!tie)
                ty->no_escape++;
        }
        /* the hop taken: the state of the outputs drawn cycle by cycle */
        m->block_adaptive = 0;
        uint32_t waited = 0;
        for (;; waited++) {
            m->escape_free = mpp_rng_below(&m->rng, 3) == 0;
            x.waited = waited;
            st2 = st;
            ops->route_adaptive(t, cfg, NULL, r, in, &st2, &m->rng, &x, &out);
            /* does the hop it asked for go through? (its class has a VC now:
             * drawn again, as the engine's allocation would find it) */
            if (mock_free(&x, out.port, out.route_class) || waited > 200)
                break;
        }
        st = st2;
        uint32_t g = t->port_base[r] + out.port, peer = t->port_peer[g];
        if (peer == MPP_TOPO_NONE) {
            ty->undelivered++;
            return;
        }
        if (peer & MPP_TOPO_NODE) {
            if (t->link_node[peer & ~MPP_TOPO_NODE] != d || r != st.dst_router) {
                ty->undelivered++;
                return;
            }
            uint32_t dist = t->ops->distance(t, s, d);
            if (!misroute && hops != dist)
                ty->long_++;
            if (misroute && t->kind != MPP_TOPO_KARY && hops > dist + 2 * misroutes)
                ty->long_++;
            ty->misroutes += misroutes;
            return;
        }
        bool is_min = minimal >> out.port & 1;
        if (out.misroute) {
            misroutes++;
            if (is_min || out.port == in || out.route_class != E)
                ty->bad_misroute++;
            if (waited < T)
                ty->early++;
        } else if (!is_min) {
            ty->not_minimal++;
        }
        if (misroutes > max_mis)
            ty->too_many++;
        if (cls != MPP_ROUTE_INJECT && cls < E && out.route_class >= E)
            ty->left_escape++;
        if (misroute && misroutes >= max_mis && !out.misroute && out.route_class >= E)
            ty->left_escape++; /* after m misroutes: escape classes only */
        if (out.route_class < E) {
            /* an escape hop is dimension order from here: a hop of the
             * relation (entered as if injected, or carried on) */
            want w = {.h = {out.port, out.route_class, d, 0}};
            uint32_t rcls = cls != MPP_ROUTE_INJECT && cls < E ? cls : MPP_ROUTE_INJECT;
            ops->relation(t, cfg, NULL, r, in, rcls, d, 0, match, &w);
            if (!w.found)
                ty->bad_rel++;
        }
        cls = out.route_class;
        hops++;
        r = t->port_router[peer];
        in = peer - t->port_base[r];
    }
    ty->undelivered++;
}

static void all_pairs(const mpp_topo *t, const char *rname, uint32_t T, uint32_t max_mis,
                      double p_free)
{
    const mpp_routing_ops *ops = mpp_routing_find(rname);
    mpp_blob cfg;
    memset(&cfg, 0, sizeof cfg);
    mpp_schema_defaults(&ops->schema, cfg.b);
    bool mis = ops == mpp_routing_find("misroute");
    if (mis) {
        char v[16];
        snprintf(v, sizeof v, "%u", T);
        CHECK(!mpp_param_set_text(mpp_schema_find(&ops->schema, "threshold"), v, 0, cfg.b));
        snprintf(v, sizeof v, "%u", max_mis);
        CHECK(!mpp_param_set_text(mpp_schema_find(&ops->schema, "max"), v, 0, cfg.b));
    } else {
        T = max_mis = 0;
    }
    mpp_err err;
    if (!ops->supports(t, cfg.b, &err)) {
        CHECKF(0, "%s refused on %s: %s", rname, t->ops->name, err.msg);
        return;
    }
    mock m = {.escape = ops->escape_classes(t, cfg.b), .p_free = p_free};
    mpp_rng_init(&m.rng, 11, MPP_RNG_ROUTER, 5);
    CHECK(ops->route_classes(t, cfg.b) == m.escape + 1);
    tally ty = {0};
    for (int rep = 0; rep < 2; rep++)
        for (uint32_t s = 0; s < t->nodes; s++)
            for (uint32_t d = 0; d < t->nodes; d++)
                walk(t, ops, cfg.b, s, d, &m, T, max_mis, &ty);
    const char *tn = t->ops->name;
    CHECKF(ty.undelivered == 0, "%s on %s: %u packets not delivered", rname, tn, ty.undelivered);
    CHECKF(ty.long_ == 0, "%s on %s: %u routes too long", rname, tn, ty.long_);
    CHECKF(ty.not_minimal == 0, "%s on %s: %u hops not minimal", rname, tn, ty.not_minimal);
    CHECKF(ty.no_escape == 0, "%s on %s: %u times the escape hop was not offered", rname, tn,
           ty.no_escape);
    CHECKF(ty.left_escape == 0, "%s on %s: %u hops off the escape classes", rname, tn,
           ty.left_escape);
    CHECKF(ty.bad_rel == 0, "%s on %s: %u escape hops outside the relation", rname, tn,
           ty.bad_rel);
    CHECKF(ty.too_many == 0, "%s on %s: %u packets above m misroutes", rname, tn, ty.too_many);
    CHECKF(ty.bad_misroute == 0, "%s on %s: %u bad misroutes", rname, tn, ty.bad_misroute);
    CHECKF(ty.early == 0, "%s on %s: %u misroutes before T cycles", rname, tn, ty.early);
    if (mis && max_mis > 0 && (T <= 4 || p_free <= 0.05))
        CHECKF(ty.misroutes > 0, "%s on %s: no misroute at all (the test cannot see them)",
               rname, tn);
    printf("%-8s (T %2u, m %u) on %-10s of %3u nodes: %5u packets, %.3f misroutes each\n", rname,
           T, max_mis, tn, t->nodes, ty.packets, (double)ty.misroutes / ty.packets);
}

int main(void)
{
    static const char *const torus4x4[] = {"k", "[4, 4]", NULL};
    static const char *const torus5x3[] = {"k", "[5, 3]", NULL};
    static const char *const torus444[] = {"k", "[4, 4, 4]", NULL};
    static const char *const mixed5x4[] = {"k", "[5, 4]", "torus", "[true, false]", NULL};
    static const char *const mesh333[] = {"k", "[3, 3, 3]", "torus", "false", NULL};
    static const char *const mesh4x5[] = {"rows", "4", "cols", "5", NULL};
    static const char *const cube4[] = {"dim", "4", NULL};
    struct {
        const char *topo;
        const char *const *kv;
    } nets[] = {
        {"kary-ncube", torus4x4}, {"kary-ncube", torus5x3}, {"kary-ncube", torus444},
        {"kary-ncube", mixed5x4}, {"kary-ncube", mesh333},  {"mesh", mesh4x5},
        {"hypercube", cube4},
    };
    for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++) {
        mpp_topo t;
        if (test_build_topo(&t, nets[i].topo, nets[i].kv)) {
            CHECK(0);
            continue;
        }
        all_pairs(&t, "adaptive", 0, 0, 0.5);
        all_pairs(&t, "adaptive", 0, 0, 1.0);
        all_pairs(&t, "misroute", 16, 2, 0.3);
        all_pairs(&t, "misroute", 16, 2, 0.05); /* blocked long enough for T = 16 */
        all_pairs(&t, "misroute", 2, 3, 0.2);
        all_pairs(&t, "misroute", 0, 1, 0.5);
        all_pairs(&t, "misroute", 4, 0, 0.2);
        /* neither supports a butterfly */
        mpp_topo_free(&t);
    }
    mpp_topo fly;
    static const char *const fly42[] = {"k", "4", "n", "2", NULL};
    if (!test_build_topo(&fly, "butterfly", fly42)) {
        mpp_err err;
        mpp_blob cfg;
        memset(&cfg, 0, sizeof cfg);
        CHECK(!mpp_routing_find("adaptive")->supports(&fly, cfg.b, &err));
        CHECK(!mpp_routing_find("misroute")->supports(&fly, cfg.b, &err));
        mpp_topo_free(&fly);
    }
    TEST_DONE();
}
