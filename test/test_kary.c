/* test/test_kary.c — k-ary n-cubes and butterflies (topologies/kary_ncube.c,
 * butterfly.c) and the routings on them, over all source-destination pairs
 * of small networks: tori (3x3, 4x4x4, 5x3 with a ring in dimension 0
 * only), 3D meshes and butterflies (2-ary 4-fly, 4-ary 2-fly).
 *   - every route ends at its destination, on connected ports;
 *   - dimension order and ROMM are minimal (hops = the topology's distance);
 *   - Valiant's hops = d(s, r) + d(r, t) (+ 1 on a butterfly: the loop);
 *   - route classes stay below route_classes; on a ring the upper dateline
 *     class is held only after the wrap-around link was crossed in the
 *     dimension the packet travels (dateline: crossing), or through the
 *     whole of a dimension whose route crosses it (dateline: dimension),
 *     and the dimensions come in order;
 *   - every hop route takes is a hop of the plug-in's routing relation
 *     (what `mppnet check --deadlock` builds its graph from);
 *   - the shapes: port counts, wiring invariants, distances. */
#include <stdlib.h>
#include <string.h>

#include "routers/routing.h"
#include "test/testutil.h"

/* Does the relation at (r, in, cls, to, flags) offer hop h? */
typedef struct want {
    mpp_route_hop h;
    int found;
} want;

static void match(void *ud, const mpp_route_hop *h)
{
    want *w = ud;
    if (h->port == w->h.port && h->route_class == w->h.route_class && h->to == w->h.to &&
        h->flags == w->h.flags)
        w->found = 1;
}

typedef struct walk_res {
    int hops;          /* inter-router links; -1: not delivered */
    uint32_t bad_class, bad_rel, bad_order;
} walk_res;

/* Walk one packet s -> d through the routing ops (as the engine does: the
 * route class of each hop stored back in the state). */
static walk_res walk(const mpp_topo *t, const mpp_routing_ops *ops, const void *cfg, void *priv,
                     uint32_t s, uint32_t d, mpp_rng *rng, uint32_t *mid, int dl)
{
    walk_res res = {-1, 0, 0, 0};
    uint32_t classes = ops->route_classes(t, cfg);
    mpp_route_state st;
    mpp_route_state_init(&st, t, s, d);
    if (ops->init_packet)
        ops->init_packet(t, cfg, priv, &st, rng);
    *mid = st.target[0];
    uint32_t l = t->node_link_base[s];
    uint32_t r = t->port_router[t->link_port[l]], in = t->link_port[l] - t->port_base[r];
    uint32_t cls = MPP_ROUTE_INJECT, to = d, flags = 0, last_dim = 0, last_phase = 0, crossed = 0;
    uint32_t run_bit = 0, run_cross = 0; /* dl dimension: the class of the run, whether it crosses */
    bool is_ecube = ops == mpp_routing_find("ecube");
    int hops = 0;
    for (int guard = 0; guard < 4 * (int)t->routers + 8; guard++) {
        /* the relation's view before the hop: the class held and its
         * target (at injection: the destination) */
        mpp_route_out out;
        ops->route(t, cfg, priv, r, in, &st, rng, &out);
        st.route_class = (uint8_t)out.route_class;
        if (out.route_class >= classes)
            res.bad_class++;
        if (ops->relation) {
            want w = {.h = {out.port, out.route_class, st.target[st.phase], st.flags}};
            ops->relation(t, cfg, priv, r, in, cls, to, flags, match, &w);
            if (!w.found)
                res.bad_rel++;
        }
        cls = out.route_class;
        to = st.target[st.phase];
        flags = st.flags;
        if (out.port >= t->port_base[r + 1] - t->port_base[r])
            return res;
        uint32_t g = t->port_base[r] + out.port, peer = t->port_peer[g];
        if (peer == MPP_TOPO_NONE)
            return res;
        if (peer & MPP_TOPO_NODE) {
            res.hops = t->link_node[peer & ~MPP_TOPO_NODE] == d ? hops : -1;
            if (dl == MPP_CUBE_DATELINE_DIMENSION && t->kind == MPP_TOPO_KARY &&
                mpp_topo_cube(t)->any_wrap && hops > 0 && run_bit != run_cross)
                res.bad_class++;
            return res;
        }
        if (t->kind == MPP_TOPO_KARY) {
            /* dimensions in order (ecube); the dateline rule: the upper
             * class exactly after the wrap-around link of the ring the
             * packet travels in was crossed, in this phase */
            const mpp_cube *c = mpp_topo_cube(t);
            uint32_t dim = c->pdim[out.port], phase = c->any_wrap ? out.route_class >> 1 : 0;
            uint32_t x = c->coord[(size_t)r * c->n + dim];
            bool crosses = c->wrap[dim] && ((out.port == c->pbase[dim] && x == c->k[dim] - 1) ||
                                            (out.port != c->pbase[dim] && x == 0));
            bool fresh = hops == 0 || dim != last_dim || phase != last_phase;
            if (fresh)
                crossed = 0;
            if (dl == MPP_CUBE_DATELINE_DIMENSION && c->any_wrap) {
                /* one class for the whole run of a dimension: upper iff
                 * the run crosses the wrap-around link */
                if (fresh) {
                    if (hops > 0 && run_bit != run_cross)
                        res.bad_class++;
                    run_bit = out.route_class & 1;
                    run_cross = 0;
                } else if ((out.route_class & 1) != run_bit) {
                    res.bad_class++;
                }
                run_cross |= crosses;
            } else if (c->any_wrap && (out.route_class & 1) != crossed) {
                res.bad_class++;
            }
            crossed |= crosses;
            if (is_ecube && hops > 0 && (c->descending ? dim > last_dim : dim < last_dim))
                res.bad_order++;
            last_dim = dim;
            last_phase = phase;
        }
        hops++;
        r = t->port_router[peer];
        in = peer - t->port_base[r];
    }
    return res;
}

/* All pairs of t with routing `rname` (config text kv pairs); kind of
 * length check: 0 minimal, 1 valiant. */
static void all_pairs(mpp_topo *t, const char *rname, const char *param, int valiant, int dl)
{
    const mpp_routing_ops *ops = mpp_routing_find(rname);
    mpp_blob cfg;
    memset(&cfg, 0, sizeof cfg);
    mpp_schema_defaults(&ops->schema, cfg.b);
    if (param)
        mpp_param_set_text(mpp_schema_find(&ops->schema, "k"), param, 0, cfg.b);
    if (t->kind == MPP_TOPO_KARY) /* the rings' rule is the topology's */
        ((mpp_cube *)t->priv)->dateline = (uint8_t)dl;
    mpp_err err;
    if (!ops->supports(t, cfg.b, &err)) {
        CHECKF(0, "%s refused on %s: %s", rname, t->ops->name, err.msg);
        return;
    }
    void *priv = NULL;
    if (ops->setup && ops->setup(t, cfg.b, &priv, &err)) {
        CHECKF(0, "%s setup: %s", rname, err.msg);
        return;
    }
    mpp_rng rng;
    mpp_rng_init(&rng, 7, MPP_RNG_ROUTER, 3);
    uint32_t undelivered = 0, long_ = 0, bad_class = 0, bad_rel = 0, bad_order = 0;
    uint32_t loop = t->kind == MPP_TOPO_BUTTERFLY;
    for (int rep = 0; rep < 3; rep++)
        for (uint32_t s = 0; s < t->nodes; s++)
            for (uint32_t d = 0; d < t->nodes; d++) {
                uint32_t mid;
                walk_res w = walk(t, ops, cfg.b, priv, s, d, &rng, &mid, dl);
                if (w.hops < 0) {
                    undelivered++;
                    continue;
                }
                uint32_t len = valiant ? t->ops->distance(t, s, mid) + loop +
                                              t->ops->distance(t, mid, d)
                                        : t->ops->distance(t, s, d);
                long_ += (uint32_t)w.hops != len;
                bad_class += w.bad_class;
                bad_rel += w.bad_rel;
                bad_order += w.bad_order;
            }
    if (ops->destroy)
        ops->destroy(priv);
    char name[64];
    snprintf(name, sizeof name, "%s%s%s%s", rname, param ? ":k=" : "", param ? param : "",
             dl ? " (dateline: dimension)" : "");
    CHECKF(undelivered == 0, "%s on %s %ux..: %u routes not delivered", name, t->ops->name,
           t->dims[0], undelivered);
    CHECKF(long_ == 0, "%s on %s: %u routes of the wrong length", name, t->ops->name, long_);
    CHECKF(bad_class == 0, "%s on %s: %u hops on a wrong class", name, t->ops->name, bad_class);
    CHECKF(bad_rel == 0, "%s on %s: %u hops outside the routing relation", name, t->ops->name,
           bad_rel);
    CHECKF(bad_order == 0, "%s on %s: %u hops out of dimension order", name, t->ops->name,
           bad_order);
}

static void cube_routings(const char *const *kv, bool fly)
{
    mpp_topo t;
    if (test_build_topo(&t, fly ? "butterfly" : "kary-ncube", kv)) {
        CHECK(0);
        return;
    }
    CHECK(mpp_topo_check(&t));
    for (int dl = 0; dl < 2; dl++) {
        all_pairs(&t, "ecube", NULL, 0, dl);
        all_pairs(&t, "valiant", NULL, 1, dl);
        if (!fly) {
            all_pairs(&t, "romm", NULL, 0, dl);
            all_pairs(&t, "romm", "3", 0, dl);
        }
    }
    if (!fly) {
    } else {
        mpp_err err;
        mpp_blob cfg;
        mpp_schema_defaults(&mpp_routing_find("romm")->schema, cfg.b);
        CHECK(!mpp_routing_find("romm")->supports(&t, cfg.b, &err)); /* not on a butterfly */
    }
    mpp_topo_free(&t);
}

int main(void)
{
    static const char *const torus3x3[] = {"k", "[3, 3]", "torus", "true", NULL};
    static const char *const torus444[] = {"k", "[4, 4, 4]", NULL};
    static const char *const mixed5x3[] = {"k", "[5, 3]", "torus", "[true, false]", NULL};
    static const char *const mesh333[] = {"k", "[3, 3, 3]", "torus", "false", NULL};
    static const char *const mesh243[] = {"k", "[2, 4, 3]", "torus", "false", "order",
                                          "descending", NULL};
    static const char *const ring2[] = {"k", "[2, 3]", "torus", "true", NULL};
    static const char *const fly24[] = {"k", "2", "n", "4", NULL};
    static const char *const fly42[] = {"k", "4", "n", "2", NULL};
    static const char *const fly31[] = {"k", "3", "n", "1", NULL};
    cube_routings(torus3x3, false);
    cube_routings(torus444, false);
    cube_routings(mixed5x3, false);
    cube_routings(mesh333, false);
    cube_routings(mesh243, false);
    cube_routings(ring2, false);
    cube_routings(fly24, true);
    cube_routings(fly42, true);
    cube_routings(fly31, true);

    /* shapes: a 4x4x4 torus has radix 7 and distance 6 between opposite
     * corners of the half-ring; the mixed 5x3 wraps only in dimension 0 */
    mpp_topo t;
    if (!test_build_topo(&t, "kary-ncube", torus444)) {
        CHECK(t.nodes == 64 && t.max_radix == 7);
        CHECK(t.ops->distance(&t, 0, 2 + 2 * 4 + 2 * 16) == 6);
        CHECK(t.ops->distance(&t, 0, 3) == 1); /* the wrap-around link */
        CHECK(mpp_routing_dor_port(&t, 0, 3) == 1); /* -x: the shorter way */
        CHECK(mpp_routing_dor_port(&t, 0, 2) == 0); /* a tie, without a stream: + */
        /* with one, either way: about half the draws each */
        mpp_rng rng;
        mpp_rng_init(&rng, 5, MPP_RNG_ROUTER, 0);
        uint32_t plus = 0, alt;
        for (int i = 0; i < 1000; i++) {
            uint32_t p = mpp_routing_kary_port(&t, 0, 2, &rng, &alt);
            CHECK((p == 0 && alt == 1) || (p == 1 && alt == 0));
            plus += p == 0;
        }
        CHECKF(plus > 400 && plus < 600, "a tie went + %u times in 1000", plus);
        CHECK(mpp_routing_kary_port(&t, 0, 1, &rng, &alt) == 0 && alt == MPP_TOPO_NONE);
        mpp_topo_free(&t);
    }
    if (!test_build_topo(&t, "kary-ncube", mixed5x3)) {
        CHECK(t.ops->distance(&t, 0, 4) == 1 && t.ops->distance(&t, 0, 10) == 2);
        CHECK(mpp_routing_find("ecube")->route_classes(&t, NULL) == 2);
        mpp_topo_free(&t);
    }
    /* the binary shape numbers its ports as the hypercube: dimension d, node */
    static const char *const bin4[] = {"k", "[2, 2, 2, 2]", "torus", "false", "order",
                                       "descending", NULL};
    if (!test_build_topo(&t, "kary-ncube", bin4)) {
        mpp_topo h;
        const mpp_topo_ops *hops = mpp_topo_find("hypercube");
        mpp_blob hc;
        mpp_schema_defaults(&hops->schema, hc.b);
        test_set_u32(&hops->schema, &hc, "dim", 4);
        mpp_err err;
        CHECK(mpp_topo_build(&h, hops, hc.b, &err) == 0);
        CHECK(h.ports == t.ports && memcmp(h.port_peer, t.port_peer, t.ports * sizeof *t.port_peer) == 0);
        CHECK(mpp_routing_find("ecube")->route_classes(&t, NULL) == 1);
        mpp_topo_free(&h);
        mpp_topo_free(&t);
    }
    /* a 4-ary 2-fly: 16 terminals, 2 stages of 4 routers; a terminal's link
     * injects at stage 0 and ejects at stage 1 */
    if (!test_build_topo(&t, "butterfly", fly42)) {
        CHECK(t.nodes == 16 && t.routers == 8 && t.link_eject != NULL);
        CHECK(t.port_router[t.link_port[5]] == 1 && t.port_router[t.link_eject[5]] == 5);
        mpp_topo_free(&t);
    }
    TEST_DONE();
}
