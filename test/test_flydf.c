/* test/test_flydf.c — the flattened butterfly and the dragonfly
 * (topologies/flatfly.c, dragonfly.c) with their routings (ecube, valiant,
 * ugal: routers/flydf.c, ugal.c): wiring, port counts, BookSim's node ids
 * and link lengths, distances against breadth-first search, every route
 * minimal (ecube) or bounded (valiant, ugal) and delivered with classes
 * that never fall, UGAL's choice following the queues, the static deadlock
 * check (no cycle with the routings' classes, a cycle when they are folded
 * onto too few VCs), and short runs that deliver what they offer. */
#include <stdlib.h>
#include <string.h>

#include "core/deadlock.h"
#include "test/testutil.h"

/* Router hops from router a to router b by breadth-first search. */
static uint32_t bfs(const mpp_topo *t, uint32_t a, uint32_t b)
{
    uint32_t *dist = malloc(t->routers * sizeof *dist), *q = malloc(t->routers * sizeof *q);
    for (uint32_t r = 0; r < t->routers; r++)
        dist[r] = UINT32_MAX;
    uint32_t h = 0, n = 0;
    dist[a] = 0;
    q[n++] = a;
    while (h < n) {
        uint32_t r = q[h++];
        for (uint32_t g = t->port_base[r]; g < t->port_base[r + 1]; g++) {
            uint32_t p = t->port_peer[g];
            if (p == MPP_TOPO_NONE || (p & MPP_TOPO_NODE))
                continue;
            uint32_t s = t->port_router[p];
            if (dist[s] == UINT32_MAX) {
                dist[s] = dist[r] + 1;
                q[n++] = s;
            }
        }
    }
    uint32_t d = dist[b];
    free(dist);
    free(q);
    return d;
}

static void distances(const mpp_topo *t)
{
    uint32_t bad = 0;
    for (uint32_t a = 0; a < t->nodes; a += 1 + t->nodes / 97)
        for (uint32_t b = 0; b < t->nodes; b++)
            bad += t->ops->distance(t, a, b) != bfs(t, t->node_router[a], t->node_router[b]);
    CHECKF(bad == 0, "%s: %u distances differ from BFS", t->ops->name, bad);
}

/* Walk a packet from s to d with `ops` (ctx x, or NULL), as the engine
 * does: route at each router, the hop's class kept in the state. Returns
 * the inter-router hops, or -1 (not delivered, a class out of range or
 * falling, an unconnected port). */
static int walk(const mpp_topo *t, const mpp_routing_ops *ops, uint32_t s, uint32_t d,
                mpp_rng *rng, const mpp_route_ctx *x)
{
    mpp_blob cfg;
    memset(&cfg, 0, sizeof cfg);
    uint32_t RC = ops->route_classes(t, cfg.b);
    mpp_route_state st;
    mpp_route_state_init(&st, t, s, d);
    if (ops->init_packet)
        ops->init_packet(t, cfg.b, NULL, &st, rng);
    uint32_t r = t->node_router[s], in = t->link_port[t->node_link_base[s]] - t->port_base[r];
    uint32_t last = 0;
    for (int hops = 0; hops < 16; hops++) {
        mpp_route_out out = {0};
        if (x && ops->route_adaptive) {
            mpp_route_ctx cx = *x;
            cx.router = r;
            cx.in_class = hops ? st.route_class : MPP_ROUTE_INJECT;
            ops->route_adaptive(t, cfg.b, NULL, r, in, &st, rng, &cx, &out);
        } else {
            ops->route(t, cfg.b, NULL, r, in, &st, rng, &out);
        }
        if (out.port >= t->port_base[r + 1] - t->port_base[r] || out.route_class >= RC ||
            out.route_class < last)
            return -1;
        last = out.route_class;
        st.route_class = (uint8_t)out.route_class;
        uint32_t peer = t->port_peer[t->port_base[r] + out.port];
        if (peer == MPP_TOPO_NONE)
            return -1;
        if (peer & MPP_TOPO_NODE)
            return t->link_node[peer & ~MPP_TOPO_NODE] == d ? hops : -1;
        r = t->port_router[peer];
        in = peer - t->port_base[r];
    }
    return -1;
}

/* Every pair: ecube minimal, valiant and ugal delivered within max_hops. */
static void routes(const mpp_topo *t, uint32_t max_hops)
{
    mpp_rng rng;
    mpp_rng_init(&rng, 7, 0, 0);
    const char *names[] = {"ecube", "valiant", "ugal"};
    for (int i = 0; i < 3; i++) {
        const mpp_routing_ops *ops = mpp_routing_find(names[i]);
        mpp_err err;
        CHECKF(ops->supports(t, NULL, &err), "%s on %s", names[i], t->ops->name);
        uint32_t bad = 0;
        for (uint32_t s = 0; s < t->nodes; s++)
            for (uint32_t d = 0; d < t->nodes; d += 3) {
                int h = walk(t, ops, s, d, &rng, NULL);
                /* minimal as BookSim's: the flatfly's distance; on the
                 * dragonfly at most one global link (local, global,
                 * local), which a path through two global links can beat */
                uint32_t m = mpp_routing_flydf_hops(t, t->node_router[s], t->node_router[d]);
                bad += h < 0 || (uint32_t)h > max_hops || (i != 1 && (uint32_t)h != m) ||
                       m < t->ops->distance(t, s, d);
            }
        CHECKF(bad == 0, "%s on %s: %u bad routes", names[i], t->ops->name, bad);
    }
}

/* A view of the outputs where the minimal port of the head's router
 * toward node q_dst has a long queue and every other port none. */
static uint32_t q_dst;
static uint32_t q_free(const mpp_route_ctx *x, uint32_t port, uint32_t cls) { return 1; }
static uint32_t q_used(const mpp_route_ctx *x, uint32_t port)
{
    const mpp_topo *t = x->net;
    return port == mpp_routing_flydf_port(t, x->router, q_dst) ? 1000 : 0;
}

/* UGAL: with the minimal port's queue long, a packet whose source and
 * destination routers differ goes through an intermediate (more hops than
 * the minimal route) whenever the draw gives one; with no view, minimal. */
static void ugal_choice(const mpp_topo *t)
{
    const mpp_routing_ops *ops = mpp_routing_find("ugal");
    mpp_rng rng;
    mpp_rng_init(&rng, 9, 0, 0);
    uint32_t longer = 0, tried = 0, bad = 0;
    for (uint32_t s = 0; s < t->nodes; s += 5)
        for (uint32_t d = 0; d < t->nodes; d += 7) {
            if (t->node_router[s] == t->node_router[d])
                continue;
            mpp_route_ctx x = {.free = q_free, .used = q_used, .net = t, .flits = 1};
            q_dst = d;
            int h = walk(t, ops, s, d, &rng, &x);
            bad += h < 0;
            tried++;
            longer += h > (int)mpp_routing_flydf_hops(t, t->node_router[s], t->node_router[d]);
        }
    CHECKF(bad == 0, "ugal on %s: %u undelivered", t->ops->name, bad);
    CHECKF(longer > tried / 3, "ugal on %s: only %u of %u routes non-minimal under a long "
           "minimal queue", t->ops->name, longer, tried);
}

/* The static check: no cycle with vcs VCs; a cycle with `folded` VCs (0:
 * none expected). */
static void deadlock(const mpp_topo *t, const char *router, uint32_t vcs, uint32_t folded)
{
    const mpp_routing_ops *ops = mpp_routing_find(router);
    mpp_blob cfg;
    memset(&cfg, 0, sizeof cfg);
    mpp_deadlock_result res;
    mpp_err err;
    CHECKF(mpp_deadlock_check(t, ops, cfg.b, NULL, vcs, 1, &res, &err) == 0, "%s", err.msg);
    CHECKF(res.ncycle == 0, "%s on %s with %u VCs: a cycle of %u", router, t->ops->name, vcs,
           res.ncycle);
    mpp_deadlock_result_free(&res);
    if (!folded)
        return;
    CHECKF(mpp_deadlock_check(t, ops, cfg.b, NULL, folded, 1, &res, &err) == 0, "%s", err.msg);
    CHECKF(res.ncycle > 0, "%s on %s folded onto %u VCs: no cycle", router, t->ops->name, folded);
    mpp_deadlock_result_free(&res);
}

static void flatfly(void)
{
    mpp_topo t;
    const char *kv[] = {"k", "4", "n", "2", "c", "4", NULL};
    if (test_build_topo(&t, "flatfly", kv)) {
        CHECK(0);
        return;
    }
    CHECK(mpp_topo_check(&t));
    CHECK(t.kind == MPP_TOPO_FLATFLY && t.nodes == 64 && t.routers == 16 && t.max_radix == 10);
    /* BookSim's floor plan (x = y = 4, xr = yr = 2): router 0 holds nodes
     * 0, 1, 8, 9 on ports 0..3, router 1 nodes 2, 3, 10, 11 */
    CHECK(t.node_router[0] == 0 && t.node_router[1] == 0 && t.node_router[8] == 0 &&
          t.node_router[9] == 0 && t.node_router[2] == 1 && t.node_router[11] == 1 &&
          t.node_router[63] == 15);
    CHECK(t.link_port[t.node_link_base[9]] == t.port_base[0] + 3);
    /* router 5 = (1, 1): dimension 0 ports 4..6 to routers 4, 6, 7;
     * dimension 1 ports 7..9 to routers 1, 9, 13 (BookSim's order) */
    uint32_t want[] = {4, 6, 7, 1, 9, 13};
    for (uint32_t j = 0; j < 6; j++) {
        uint32_t peer = t.port_peer[t.port_base[5] + 4 + j];
        CHECKF(peer != MPP_TOPO_NONE && t.port_router[peer] == want[j], "router 5 port %u", 4 + j);
    }
    /* link lengths: xr |dcol| + yr |drow| on the 4 x 4 grid */
    CHECK(t.port_len && t.port_len[t.port_base[0] + 6] == 6); /* 0 -> 3 */
    CHECK(t.port_len[t.port_base[0] + 4] == 2);               /* 0 -> 1 */
    CHECK(t.port_len[t.port_base[5] + 7] == 2);               /* 5 -> 1 */
    distances(&t);
    routes(&t, 4);
    ugal_choice(&t);
    deadlock(&t, "ecube", 1, 0);
    deadlock(&t, "valiant", 2, 1);
    deadlock(&t, "ugal", 2, 1);
    mpp_topo_free(&t);

    /* three dimensions, no floor-plan lengths, one node per router */
    const char *kv3[] = {"k", "3", "n", "3", "c", "1", "noc_latency", "false", NULL};
    if (test_build_topo(&t, "flatfly", kv3) == 0) {
        CHECK(mpp_topo_check(&t) && t.nodes == 27 && t.max_radix == 7 && t.port_len);
        uint32_t ones = 0;
        for (uint32_t g = 0; g < t.ports; g++)
            ones += t.port_len[g] <= 1;
        CHECK(ones == t.ports);
        distances(&t);
        routes(&t, 6);
        deadlock(&t, "ecube", 1, 0);
        mpp_topo_free(&t);
    }
    /* refusals: x must divide the routers, the radix the engine's 64 */
    const char *bad1[] = {"k", "4", "n", "2", "c", "4", "x", "3", NULL};
    const char *bad2[] = {"k", "16", "n", "5", "c", "1", NULL};
    mpp_blob cfg;
    const mpp_topo_ops *ff = mpp_topo_find("flatfly");
    mpp_err err;
    for (const char *const *kvb[] = {bad1, bad2, NULL}, *const **b = kvb; *b; b++) {
        memset(&cfg, 0, sizeof cfg);
        mpp_schema_defaults(&ff->schema, cfg.b);
        for (const char *const *p = *b; p[0]; p += 2)
            CHECK(mpp_param_set_text(mpp_schema_find(&ff->schema, p[0]), p[1], 0, cfg.b) == 0);
        mpp_topo_size sz;
        CHECK(ff->size(cfg.b, &sz, &err) == MPP_EINVAL);
    }
}

static void dragonfly(void)
{
    mpp_topo t;
    const char *kv[] = {"p", "2", NULL};
    if (test_build_topo(&t, "dragonfly", kv)) {
        CHECK(0);
        return;
    }
    CHECK(mpp_topo_check(&t));
    uint32_t P = 2, a = 4, h = 2, g = 9;
    CHECK(t.kind == MPP_TOPO_DRAGONFLY && t.routers == a * g && t.nodes == P * a * g &&
          t.max_radix == P + a - 1 + h);
    /* one global link per pair of groups, at link D - (D > G) of G */
    uint32_t *links = calloc(g * g, sizeof *links);
    for (uint32_t r = 0; r < t.routers; r++)
        for (uint32_t q = 0; q < h; q++) {
            uint32_t peer = t.port_peer[t.port_base[r] + P + a - 1 + q];
            CHECK(peer != MPP_TOPO_NONE && !(peer & MPP_TOPO_NODE));
            uint32_t G = r / a, D = t.port_router[peer] / a, m = (r % a) * h + q;
            CHECK(D == (m < G ? m : m + 1));
            links[G * g + D]++;
        }
    uint32_t wrong = 0;
    for (uint32_t G = 0; G < g; G++)
        for (uint32_t D = 0; D < g; D++)
            wrong += links[G * g + D] != (G != D);
    CHECKF(wrong == 0, "dragonfly: %u pairs of groups without exactly one global link", wrong);
    free(links);
    /* local links: router 5 (group 1, index 1) ports 2, 3, 4 to 4, 6, 7 */
    for (uint32_t j = 0; j < 3; j++) {
        uint32_t peer = t.port_peer[t.port_base[5] + 2 + j];
        CHECK(t.port_router[peer] == (j < 1 ? 4 + j : 5 + j));
    }
    distances(&t);
    routes(&t, 6);
    ugal_choice(&t);
    deadlock(&t, "ecube", 2, 1);
    deadlock(&t, "valiant", 4, 0);
    deadlock(&t, "ugal", 4, 0);
    mpp_topo_free(&t);
}

/* Short runs: everything offered is accepted below saturation. */
static void runs(void)
{
    /* links of length 1: BookSim's 10 and 100 of the dragonfly would make
     * these 8-flit buffers the bound */
    const char *nets[] = {"flatfly, flatfly: {k: 4, n: 2, c: 4}",
                          "dragonfly, dragonfly: {p: 2, local_len: 1, global_len: 1}"};
    const char *rts[] = {"ecube", "valiant", "ugal"};
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++) {
            char text[512];
            snprintf(text, sizeof text,
                     "mppnet: 1\nnetwork: {topology: %s, router: %s, vcs_per_class: 2}\n"
                     "workload: {pattern: uniform, rate: 0.1, packet_flits: 4, warmup: 500, "
                     "measure: 2000}\n",
                     nets[i], rts[j]);
            mpp_sim *s = test_run_text(text, 0, NULL);
            if (!s)
                continue;
            const mpp_sim_result *res = mpp_sim_result_get(s);
            CHECKF(res->accepted > 0.09 && res->accepted < 0.11 &&
                       res->packets_delivered == res->packets_measured,
                   "%s %s: accepted %g", nets[i], rts[j], res->accepted);
            mpp_sim_destroy(s);
        }
}

int main(void)
{
    flatfly();
    dragonfly();
    runs();
    TEST_DONE();
}
