/* test/test_bsnets.c — BookSim's networks (issue 45): the concentrated
 * mesh (cmesh), the k-ary n-tree (fattree) and anynet, with their routings
 * cmesh-dor, cmesh-express, fattree-nca and anynet-min. Wiring and
 * BookSim's numbering, distances against breadth-first search, every pair
 * delivered (minimal where the routing is), the static deadlock check,
 * anynet's table tie-break, and bad configurations and anynet files
 * refused with FILE:LINE:COLUMN. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/deadlock.h"
#include "routers/routing.h"
#include "test/testutil.h"
#include "topologies/topology.h"

static char dir[256];

/* Write text to DIR/name; its path into path. */
static const char *put(const char *name, const char *text, char *path, size_t size)
{
    snprintf(path, size, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    fputs(text, f);
    fclose(f);
    return path;
}

/* Router-to-router hops by BFS. */
static uint32_t bfs(const mpp_topo *t, uint32_t a, uint32_t b)
{
    uint32_t *d = malloc(2 * t->routers * sizeof *d);
    mpp_topo_router_bfs(t, t->node_router[a], d, d + t->routers);
    uint32_t v = d[t->node_router[b]];
    free(d);
    return v;
}

/* Wiring, port names and distances of t. */
static void wiring(const mpp_topo *t)
{
    CHECK(mpp_topo_check(t));
    uint32_t open = 0, bad = 0;
    for (uint32_t g = 0; g < t->ports; g++)
        open += t->port_peer[g] == MPP_TOPO_NONE;
    CHECKF(open == 0, "%s: %u unconnected ports", t->ops->name, open);
    for (uint32_t a = 0; a < t->nodes; a++)
        for (uint32_t b = 0; b < t->nodes; b++)
            bad += t->ops->distance(t, a, b) != bfs(t, a, b);
    CHECKF(bad == 0, "%s: %u distances differ from BFS", t->ops->name, bad);
    char name[32];
    for (uint32_t r = 0; r < t->routers; r++)
        for (uint32_t p = 0; p < t->port_base[r + 1] - t->port_base[r]; p++) {
            t->ops->port_name(t, r, p, name, sizeof name);
            CHECK(name[0] && strcmp(name, "?") != 0);
        }
}

/* Walk s -> d with ops; the router hops, or -1 when not delivered. */
static int walk(const mpp_topo *t, const mpp_routing_ops *ops, void *priv, uint32_t s, uint32_t d,
                mpp_rng *rng)
{
    mpp_route_state st;
    mpp_route_state_init(&st, t, s, d);
    uint32_t r = t->node_router[s], in = t->link_port[t->node_link_base[s]] - t->port_base[r];
    for (int hops = 0; hops < 4 * (int)t->routers + 8; hops++) {
        mpp_route_out out;
        ops->route(t, NULL, priv, r, in, &st, rng, &out);
        if (out.port >= t->port_base[r + 1] - t->port_base[r] || out.route_class != 0)
            return -1;
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

/* Manhattan hops between the routers of a and b on a cmesh. */
static uint32_t manhattan(const mpp_topo *t, uint32_t a, uint32_t b)
{
    uint32_t k = t->dims[0], ra = t->node_router[a], rb = t->node_router[b];
    uint32_t ax = ra % k, ay = ra / k, bx = rb % k, by = rb / k;
    return (ax > bx ? ax - bx : bx - ax) + (ay > by ? ay - by : by - ay);
}

/* Every pair delivered by routing `name`; with `minimal` in exactly
 * distance() hops (cmesh-dor: the Manhattan distance, the express links
 * unused; cmesh-express: at most that). Then the static check: no cycle
 * with one VC, unless want_cycle. */
static void routes(const mpp_topo *t, const char *name, bool minimal, bool want_cycle)
{
    const mpp_routing_ops *ops = mpp_routing_find(name);
    CHECK(ops != NULL);
    mpp_err err;
    CHECKF(ops->supports(t, NULL, &err), "%s on %s: %s", name, t->ops->name, err.msg);
    void *priv = NULL;
    CHECK(!ops->setup || ops->setup(t, NULL, &priv, &err) == 0);
    mpp_rng rng;
    mpp_rng_init(&rng, 7, MPP_RNG_ROUTER, 0);
    uint32_t lost = 0, long_ = 0;
    bool cm = t->kind == MPP_TOPO_CMESH;
    for (uint32_t s = 0; s < t->nodes; s++)
        for (uint32_t d = 0; d < t->nodes; d++) {
            int h = walk(t, ops, priv, s, d, &rng);
            if (h < 0) {
                lost++;
                continue;
            }
            uint32_t want = cm ? manhattan(t, s, d) : t->ops->distance(t, s, d);
            if (minimal ? (uint32_t)h != want : (uint32_t)h > want ||
                                                    (uint32_t)h < t->ops->distance(t, s, d))
                long_++;
        }
    CHECKF(lost == 0, "%s on %s: %u pairs not delivered", name, t->ops->name, lost);
    CHECKF(long_ == 0, "%s on %s: %u routes of the wrong length", name, t->ops->name, long_);
    mpp_deadlock_result res;
    CHECKF(mpp_deadlock_check(t, ops, NULL, priv, 1, 1, &res, &err) == 0, "%s", err.msg);
    CHECKF((res.ncycle > 0) == want_cycle, "%s on %s: %s", name, t->ops->name,
           want_cycle ? "no cycle found" : "a cycle found");
    CHECK(res.channels > 0 || t->routers == 1 || !want_cycle);
    mpp_deadlock_result_free(&res);
    if (ops->destroy)
        ops->destroy(priv);
}

static void cmesh_tests(void)
{
    mpp_topo t;
    const char *k4[] = {"k", "4", NULL};
    CHECK(test_build_topo(&t, "cmesh", k4) == 0);
    CHECK(t.nodes == 64 && t.routers == 16);
    /* BookSim's numbering: node 5 = column 5, row 0 -> router 2, port 1;
     * node 9 = column 1, row 1 -> router 0, port 3 (NodeToRouter/Port) */
    CHECK(t.node_router[5] == 2 && t.link_port[5] - t.port_base[2] == 1);
    CHECK(t.node_router[9] == 0 && t.link_port[9] - t.port_base[0] == 3);
    /* express: router 0's W (port 5) <-> router 8's W; router 0's N
     * (port 7) <-> router 2's N; router 3's E (4) <-> router 11's E */
    CHECK(t.port_peer[t.port_base[0] + 5] == t.port_base[8] + 5);
    CHECK(t.port_peer[t.port_base[0] + 7] == t.port_base[2] + 7);
    CHECK(t.port_peer[t.port_base[3] + 4] == t.port_base[11] + 4);
    CHECK(t.port_peer[t.port_base[0] + 4] == t.port_base[1] + 5); /* plain E-W */
    wiring(&t);
    routes(&t, "cmesh-dor", true, false);
    routes(&t, "cmesh-express", false, false);
    CHECK(mpp_routing_find("dor_no_express_cmesh") == mpp_routing_find("cmesh-dor"));
    CHECK(mpp_routing_find("dor_cmesh") == mpp_routing_find("cmesh-express"));
    /* cmesh-express: 0 -> router 3 (column 3 of row 0) by row 0's express
     * link to router 2, then E */
    const mpp_routing_ops *x = mpp_routing_find("cmesh-express");
    mpp_rng rng;
    mpp_rng_init(&rng, 1, MPP_RNG_ROUTER, 0);
    CHECK(walk(&t, x, NULL, 0, 6, &rng) == 2);
    mpp_err err;
    CHECK(!mpp_routing_find("ecube")->supports(&t, NULL, &err));
    CHECK(!mpp_routing_find("fattree-nca")->supports(&t, NULL, &err));
    mpp_topo_free(&t);
    const char *k8[] = {"k", "8", NULL};
    CHECK(test_build_topo(&t, "cmesh", k8) == 0);
    wiring(&t);
    routes(&t, "cmesh-dor", true, false);
    routes(&t, "cmesh-express", false, false);
    mpp_topo_free(&t);
    const char *k2[] = {"k", "2", "c", "4", "xr", "1", "yr", "4", NULL};
    CHECK(test_build_topo(&t, "cmesh", k2) == 0);
    CHECK(t.nodes == 16 && t.node_router[1] == 1 && t.node_router[2] == 0 && t.node_router[4] == 0);
    wiring(&t);
    routes(&t, "cmesh-dor", true, false);
    mpp_topo_free(&t);
    /* refused: odd k, c != xr x yr, n != 2 */
    const mpp_topo_ops *ops = mpp_topo_find("cmesh");
    mpp_blob cfg;
    const char *bad[][2] = {{"k", "5"}, {"c", "3"}};
    const char *want[] = {"even number", "xr x yr"};
    for (int i = 0; i < 2; i++) {
        memset(&cfg, 0, sizeof cfg);
        mpp_schema_defaults(&ops->schema, cfg.b);
        CHECK(mpp_param_set_text(mpp_schema_find(&ops->schema, bad[i][0]), bad[i][1], 0,
                                 cfg.b) == 0);
        mpp_topo_size sz = {0};
        CHECK(ops->size(cfg.b, &sz, &err) == MPP_EINVAL && strstr(err.msg, want[i]));
        CHECK(mpp_topo_build(&t, ops, cfg.b, &err) == MPP_EINVAL && strstr(err.msg, want[i]));
    }
}

static void fattree_tests(void)
{
    mpp_topo t;
    const char *k2n3[] = {"k", "2", "n", "3", NULL};
    CHECK(test_build_topo(&t, "fattree", k2n3) == 0);
    CHECK(t.nodes == 8 && t.routers == 12);
    /* BookSim's channels: router (0, 0) down 1 <-> router (1, 2) up 0;
     * (1, 1) down 1 <-> (2, 1) up 1; top routers have k ports */
    CHECK(t.port_peer[t.port_base[0] + 1] == t.port_base[4 + 2] + 2);
    CHECK(t.port_peer[t.port_base[4 + 1] + 1] == t.port_base[8 + 1] + 3);
    CHECK(t.port_base[1] - t.port_base[0] == 2 && t.port_base[5] - t.port_base[4] == 4);
    CHECK(t.node_router[5] == 8 + 2 && t.link_port[5] - t.port_base[10] == 1);
    wiring(&t);
    routes(&t, "fattree-nca", true, false);
    mpp_topo_free(&t);
    const char *k4n3[] = {"k", "4", "n", "3", NULL};
    CHECK(test_build_topo(&t, "fattree", k4n3) == 0);
    CHECK(t.nodes == 64 && t.routers == 48);
    wiring(&t);
    routes(&t, "fattree-nca", true, false);
    mpp_err err;
    CHECK(!mpp_routing_find("fattree-random")->supports(&t, NULL, &err));
    CHECK(mpp_routing_find("nca_fattree") == mpp_routing_find("fattree-nca"));
    mpp_topo_free(&t);
    const char *k3n2[] = {"k", "3", "n", "2", NULL};
    CHECK(test_build_topo(&t, "fattree", k3n2) == 0);
    wiring(&t);
    routes(&t, "fattree-nca", true, false);
    mpp_topo_free(&t);
    const char *big[] = {"k", "64", "n", "4", NULL};
    fprintf(stderr, "(a refusal follows)\n");
    CHECK(test_build_topo(&t, "fattree", big) != 0);
}

/* Build anynet from text; 0 or the error code with err filled. */
static int anynet(mpp_topo *t, const char *text, mpp_err *err)
{
    char path[512];
    put("net.txt", text, path, sizeof path);
    const mpp_topo_ops *ops = mpp_topo_find("anynet");
    mpp_blob cfg;
    memset(&cfg, 0, sizeof cfg);
    mpp_schema_defaults(&ops->schema, cfg.b);
    CHECK(mpp_param_set_text(mpp_schema_find(&ops->schema, "file"), path, 0, cfg.b) == 0);
    mpp_topo_size sz = {0};
    int rs = ops->size(cfg.b, &sz, err);
    int rc = mpp_topo_build(t, ops, cfg.b, err);
    CHECK(rs == rc);
    if (!rc)
        CHECK(sz.nodes == t->nodes && sz.routers == t->routers && sz.ports == t->ports);
    return rc;
}

static void anynet_bad(const char *text, const char *where, const char *what)
{
    mpp_topo t;
    mpp_err err;
    CHECKF(anynet(&t, text, &err) == MPP_EFORMAT, "accepted: %s", text);
    char want[600];
    snprintf(want, sizeof want, "%s/net.txt%s", dir, where);
    CHECKF(strstr(err.msg, want) && strstr(err.msg, what), "'%s': got '%s'", text, err.msg);
}

static void anynet_tests(void)
{
    mpp_topo t;
    mpp_err err;
    /* BookSim's example (src/examples/anynet/anynet_file) */
    CHECKF(anynet(&t,
                  "router 0 node 0 node 1 node 2 router 1\n"
                  "router 1 node 3 node 4 node 5\n"
                  "router 2 node 6 node 7 node 8 router 1 router 0\n",
                  &err) == 0,
           "%s", err.msg);
    CHECK(t.nodes == 9 && t.routers == 3 && t.ports == 9 + 6);
    /* ports: nodes in id order, then routers in id order */
    CHECK(t.port_peer[t.port_base[2] + 3] == t.port_base[0] + 4);
    CHECK(t.port_peer[t.port_base[2] + 4] == t.port_base[1] + 4);
    wiring(&t);
    routes(&t, "anynet-min", true, false);
    mpp_topo_free(&t);
    /* a square 0-1-3-2-0 plus a tail 3-4, node-headed lines, tabs, CRLF, a
     * weight of 1: both ways round the square tie, BookSim takes the
     * lowest-numbered predecessor (router 1 both ways) */
    CHECKF(anynet(&t,
                  "router 0 router 1 1 router 2\r\n\n"
                  "router\t3 router 1 router 2 router 4\n"
                  "node 0 router 0\nnode 1 router 3\nnode 2 router 4\nrouter 1 node 3\n"
                  "router 2 node 4\n",
                  &err) == 0,
           "%s", err.msg);
    wiring(&t);
    routes(&t, "anynet-min", true, false);
    const mpp_routing_ops *m = mpp_routing_find("anynet-min");
    CHECK(mpp_routing_find("min_anynet") == m);
    void *priv = NULL;
    CHECK(m->setup(&t, NULL, &priv, &err) == 0);
    mpp_route_state st;
    mpp_route_out out;
    mpp_route_state_init(&st, &t, 0, 1); /* router 0 -> router 3 */
    m->route(&t, NULL, priv, 0, 0, &st, NULL, &out);
    CHECK(t.port_router[t.port_peer[t.port_base[0] + out.port]] == 1);
    mpp_route_state_init(&st, &t, 1, 0); /* router 3 -> router 0 */
    m->route(&t, NULL, priv, 3, 0, &st, NULL, &out);
    CHECK(t.port_router[t.port_peer[t.port_base[3] + out.port]] == 1);
    mpp_route_state_init(&st, &t, 2, 0); /* router 4 -> router 0: via 3, then 1 */
    m->route(&t, NULL, priv, 4, 0, &st, NULL, &out);
    CHECK(t.port_router[t.port_peer[t.port_base[4] + out.port]] == 3);
    m->destroy(priv);
    CHECK(!mpp_routing_find("cmesh-dor")->supports(&t, NULL, &err));
    mpp_topo_free(&t);
    /* a ring of five routers: shortest paths chain round it, the check
     * must find the cycle */
    CHECKF(anynet(&t,
                  "router 0 router 1 node 0\nrouter 1 router 2 node 1\nrouter 2 router 3 node 2\n"
                  "router 3 router 4 node 3\nrouter 4 router 0 node 4\n",
                  &err) == 0,
           "%s", err.msg);
    wiring(&t);
    routes(&t, "anynet-min", true, true);
    mpp_topo_free(&t);
    /* bad files: FILE:LINE:COLUMN and what was expected */
    anynet_bad("router 0 node 0\nrouter 1 nod 1\n", ":2:10:", "expected 'router' or 'node'");
    anynet_bad("router x node 0\n", ":1:8:", "expected a router id");
    anynet_bad("router 0 node 99999999\n", ":1:15:", "node id");
    anynet_bad("router 0 node 0 router 1 5\n", ":1:26:", "link weight 5");
    anynet_bad("router 0 node 0 node\n", ":1:21:", "node id was expected");
    anynet_bad("node 0 node 1\n", ":1:13:", "connects to a router");
    anynet_bad("router 0 node 0 router 0\n", ":1:24:", "to itself");
    anynet_bad("router 0 node 0\nrouter 1 node 0 router 0\n", ":2:15:", "already attached");
    anynet_bad("node 3\n", ":1:7:", "the router it connects to");
    anynet_bad("router 0 node 0 router 2\nrouter 2 node 1\n", ":", "router 1 is never named");
    anynet_bad("router 0 node 0 node 2\n", ":", "node 1 is attached to no router");
    anynet_bad("router 0 node 0\nrouter 1 node 1\n", ":", "cannot reach router 1");
    anynet_bad("\n\n", ":", "no router");
    anynet_bad("router 0 no\x01" "de 0\n", ":1:12:", "control character");
    /* no file, a missing file, a folder */
    const mpp_topo_ops *ops = mpp_topo_find("anynet");
    mpp_blob cfg;
    memset(&cfg, 0, sizeof cfg);
    mpp_schema_defaults(&ops->schema, cfg.b);
    CHECK(mpp_topo_build(&t, ops, cfg.b, &err) == MPP_EINVAL &&
          strstr(err.msg, "network.anynet.file"));
    CHECK(mpp_param_set_text(mpp_schema_find(&ops->schema, "file"), dir, 0, cfg.b) == 0);
    CHECK(mpp_topo_build(&t, ops, cfg.b, &err) == MPP_EIO);
}

int main(void)
{
    CHECK(test_mkdtemp("bsnets", dir, sizeof dir) == 0);
    cmesh_tests();
    fattree_tests();
    anynet_tests();
    test_rmdtemp(dir);
    TEST_DONE();
}
