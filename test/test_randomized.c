/* test/test_randomized.c — Valiant and ROMM (routers/valiant.c, romm.c) and
 * the permutation workload: property tests over all source/destination
 * pairs of small hypercubes and meshes (ROMM paths are minimal with their
 * intermediate nodes in the minimal subcube / submesh; Valiant's hop count is
 * d(s, r) + d(r, t); every phase is dimension-ordered), no deadlock at full
 * load with the minimum number of VCs, a configuration error with fewer, and
 * small versions of the routing study's comparisons. */
#include <stdlib.h>
#include <string.h>

#include "core/sim.h"
#include "routers/routing.h"
#include "test/testutil.h"

static void set_k(mpp_sim_config *c, uint32_t k)
{
    test_set_u32(&c->net.routing->schema, &c->net.routing_cfg, "k", k);
}

/* Walk one packet; check phases, dimension order within each phase, and
 * return the hops (or -1). */
static int walk(const mpp_topo *t, const mpp_routing_ops *ops, const void *cfg, uint32_t s,
                uint32_t d, mpp_rng *rng, mpp_route_state *st_out, int *bad_order)
{
    mpp_route_state st;
    mpp_route_state_init(&st, t, s, d);
    ops->init_packet(t, cfg, NULL, &st, rng);
    *st_out = st;
    uint32_t r = mpp_routing_node_router(t, s);
    uint32_t in = t->link_port[t->node_link_base[s]] - t->port_base[r];
    int hops = 0, last_dim = -1000, last_phase = 0;
    for (int guard = 0; guard < 1000; guard++) {
        mpp_route_out out;
        ops->route(t, cfg, NULL, r, in, &st, rng, &out);
        if ((int)out.route_class != st.phase)
            *bad_order = 1;
        if (st.phase != last_phase) {
            last_phase = st.phase;
            last_dim = -1000;
        }
        uint32_t g = t->port_base[r] + out.port;
        uint32_t peer = t->port_peer[g];
        if (peer == MPP_TOPO_NONE)
            return -1;
        if (peer & MPP_TOPO_NODE)
            return t->link_node[peer & ~MPP_TOPO_NODE] == d && st.phase + 1 == st.nphases ? hops : -1;
        /* dimension order inside a phase: mesh X (ports 0,1) before Y (2,3);
         * hypercube descending bits */
        int dim = t->kind == MPP_TOPO_MESH ? (int)(out.port / 2) : -(int)out.port;
        if (dim < last_dim)
            *bad_order = 1;
        last_dim = dim;
        hops++;
        r = t->port_router[peer];
        in = peer - t->port_base[r];
    }
    return -1;
}

static bool in_box(const mpp_topo *t, uint32_t s, uint32_t d, uint32_t x)
{
    if (t->kind == MPP_TOPO_HYPERCUBE)
        return ((x ^ s) & ~(s ^ d)) == 0; /* only bits where s and d differ */
    uint32_t C = t->dims[0];
    uint32_t sx = s % C, sy = s / C, dx = d % C, dy = d / C, xx = x % C, xy = x / C;
    return xx >= (sx < dx ? sx : dx) && xx <= (sx < dx ? dx : sx) && xy >= (sy < dy ? sy : dy) &&
           xy <= (sy < dy ? dy : sy);
}

static void properties(mpp_sim_config *c)
{
    mpp_err err;
    mpp_topo t;
    CHECK(mpp_topo_build(&t, c->net.topo, c->net.topo_cfg.b, &err) == 0);
    mpp_rng rng;
    mpp_rng_init(&rng, 9, MPP_RNG_SOURCE, 0);
    const mpp_routing_ops *val = mpp_routing_find("valiant"), *romm = mpp_routing_find("romm");
    uint32_t bad = 0;
    for (uint32_t k = 2; k <= 4; k++) {
        mpp_blob cfg;
        memset(&cfg, 0, sizeof cfg);
        test_set_u32(&romm->schema, &cfg, "k", k);
        for (uint32_t s = 0; s < t.nodes; s++)
            for (uint32_t d = 0; d < t.nodes; d++) {
                mpp_route_state st;
                int order = 0;
                int h = walk(&t, romm, cfg.b, s, d, &rng, &st, &order);
                if (h != (int)t.ops->distance(&t, s, d) || order)
                    bad++;
                for (uint32_t i = 0; i + 1 < st.nphases; i++)
                    if (!in_box(&t, s, d, st.target[i]))
                        bad++;
            }
    }
    CHECKF(bad == 0, "romm on %s: %u violations", t.ops->name, bad);
    bad = 0;
    mpp_blob none;
    memset(&none, 0, sizeof none);
    for (uint32_t s = 0; s < t.nodes; s++)
        for (uint32_t d = 0; d < t.nodes; d++) {
            mpp_route_state st;
            int order = 0;
            int h = walk(&t, val, none.b, s, d, &rng, &st, &order);
            uint32_t r = st.target[0];
            if (h != (int)(t.ops->distance(&t, s, r) + t.ops->distance(&t, r, d)) || order)
                bad++;
        }
    CHECKF(bad == 0, "valiant on %s: %u violations", t.ops->name, bad);
    mpp_topo_free(&t);
}

/* A full-load synthetic run with exactly the classes' number of VCs. */
static void full_load(mpp_sim_config *c, const char *router, uint32_t k, const char *pattern)
{
    c->net.routing = mpp_routing_find(router);
    memset(&c->net.routing_cfg, 0, sizeof c->net.routing_cfg);
    if (k)
        set_k(c, k);
    c->net.vcs = 0;
    c->net.vcs_per_class = 1;
    c->net.buffer_flits = 4;
    c->net.watchdog_cycles = 5000;
    test_set(c, "workload.pattern", "%s", pattern);
    test_set(c, "workload.rate", "1.0");
    test_set(c, "workload.warmup", "500");
    test_set(c, "workload.measure", "3000");
    test_set(c, "workload.drain_factor", "1");
    mpp_err err;
    mpp_sim *s = mpp_sim_create(c, &err);
    CHECKF(s != NULL, "%s", err.msg);
    if (!s)
        return;
    int rc = mpp_sim_run(s, NULL, NULL, &err);
    CHECKF(rc == 0, "%s k=%u %s: %s", router, k, pattern, err.msg);
    CHECK(mpp_sim_result_get(s)->accepted > 0.05);
    mpp_sim_destroy(s);
    /* one VC fewer than the classes need is a configuration error */
    uint32_t classes = k ? k : 2;
    c->net.vcs_per_class = 0;
    c->net.vcs = classes - 1;
    CHECK(mpp_sim_create(c, &err) == NULL);
    CHECK(err.code == MPP_EINVAL && strstr(err.msg, "multiple of") != NULL);
}

static mpp_sim_result perm(mpp_sim_config *c, const char *router, const char *pattern)
{
    test_set(c, "workload.type", "permutation");
    c->net.routing = mpp_routing_find(router);
    memset(&c->net.routing_cfg, 0, sizeof c->net.routing_cfg);
    if (strcmp(router, "romm") == 0)
        set_k(c, 2);
    c->net.vcs = 0;
    c->net.vcs_per_class = 2;
    test_set(c, "workload.pattern", "%s", pattern);
    test_set(c, "workload.packets", "16");
    mpp_err err;
    mpp_sim_result r;
    memset(&r, 0, sizeof r);
    mpp_sim *s = mpp_sim_create(c, &err);
    CHECKF(s != NULL, "%s", err.msg);
    if (!s)
        return r;
    CHECK(mpp_sim_run(s, NULL, NULL, &err) == 0);
    r = *mpp_sim_result_get(s);
    CHECK(r.drained && r.makespan > 0 && r.lower_bound > 0);
    mpp_sim_destroy(s);
    return r;
}

int main(void)
{
    mpp_sim_config c;
    mpp_config_defaults(&c);
    test_hcube(&c, 4);
    properties(&c);
    test_hcube(&c, 5);
    properties(&c);
    test_mesh(&c, 4, 4);
    properties(&c);
    test_mesh(&c, 5, 7);
    properties(&c);

    mpp_config_defaults(&c);
    test_mesh(&c, 6, 6);
    full_load(&c, "valiant", 0, "transpose");
    full_load(&c, "romm", 2, "uniform");
    full_load(&c, "romm", 3, "transpose");
    test_hcube(&c, 6);
    full_load(&c, "valiant", 0, "bitrev");
    full_load(&c, "romm", 4, "bitcomp");

    /* transpose on hypercubes: e-cube grows much faster from 2^4 to 2^8 */
    double g[3];
    const char *rt[3] = {"ecube", "valiant", "romm"};
    for (int i = 0; i < 3; i++) {
        mpp_config_defaults(&c);
        test_hcube(&c, 4);
        double m4 = (double)perm(&c, rt[i], "transpose").makespan;
        test_hcube(&c, 8);
        double m8 = (double)perm(&c, rt[i], "transpose").makespan;
        g[i] = m8 / m4;
        printf("transpose %s: makespan growth 2^4 -> 2^8 = %.2f\n", rt[i], g[i]);
    }
    CHECK(g[0] > 1.5 * g[1]);
    CHECK(g[0] > g[2]);
    /* random permutation: e-cube not worse than valiant per message */
    mpp_config_defaults(&c);
    test_hcube(&c, 7);
    mpp_sim_result e = perm(&c, "ecube", "randperm"), v = perm(&c, "valiant", "randperm"),
                   r = perm(&c, "romm", "randperm");
    printf("randperm 2^7: ecube %.1f valiant %.1f romm %.1f cycles/message\n",
           e.message_latency_mean, v.message_latency_mean, r.message_latency_mean);
    CHECK(e.message_latency_mean <= v.message_latency_mean);
    CHECK(r.message_latency_mean <= 1.05 * v.message_latency_mean);
    /* mesh study, small: ROMM's cycles per message over the lower bound
     * stays within 20% from 8x8 to 12x12 on transpose */
    mpp_config_defaults(&c);
    test_mesh(&c, 8, 8);
    double r8 = perm(&c, "romm", "transpose").bound_ratio;
    test_mesh(&c, 12, 12);
    double r12 = perm(&c, "romm", "transpose").bound_ratio;
    printf("romm transpose bound ratio: 8x8 %.3f 12x12 %.3f\n", r8, r12);
    CHECK(r12 / r8 > 0.8 && r12 / r8 < 1.25);
    /* a random pattern is not a permutation */
    mpp_config_defaults(&c);
    test_set(&c, "workload.type", "permutation");
    mpp_err err;
    CHECK(mpp_sim_create(&c, &err) == NULL);
    CHECK(strstr(err.msg, "fixed pattern") != NULL);
    TEST_DONE();
}
