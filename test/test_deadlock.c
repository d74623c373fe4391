/* test/test_deadlock.c — the static deadlock check (core/deadlock.c) with
 * routing relations defined here: a ring built by hand (one class going
 * round: a cycle; a dateline class switch: none with two VCs, a cycle
 * again when one VC makes the classes share, and the refusal explained),
 * a mesh with XY (acyclic), XY and YX on one class (the 4-cycle of a
 * square) or on two classes (acyclic, cyclic when folded); the VC ranges
 * reported; relations that break their contract (MPP_ERUN naming router
 * and port) or have none; state spaces above the memory limit; which
 * configurations of a sweep share a check; and the registered routers
 * through mpp_deadlock_check_config (acyclic with their route classes,
 * xyyx cyclic, e-cube on a torus with one VC refused with its cycle). */
#include <stdlib.h>
#include <string.h>

#include "core/deadlock.h"
#include "routers/routing.h"
#include "test/testutil.h"

/* ---- a ring of K routers, one node each ------------------------------------ */

/* Local ports: 0 = "+" (to router r + 1 mod K), 1 = "-", 2 = the node. */
enum { RING_PLUS = 0, RING_MINUS = 1, RING_NODE = 2 };

typedef struct ring_cfg {
    uint32_t k;
} ring_cfg;

static int ring_setup(mpp_topo *t, const void *cfgp, mpp_err *err)
{
    const ring_cfg *cfg = cfgp;
    uint32_t radix[16];
    for (uint32_t r = 0; r < cfg->k; r++)
        radix[r] = 3;
    int rc = mpp_topo_alloc(t, cfg->k, radix, cfg->k, NULL, err);
    if (rc)
        return rc;
    for (uint32_t r = 0; r < cfg->k; r++) {
        mpp_topo_connect(t, r, RING_PLUS, (r + 1) % cfg->k, RING_MINUS);
        mpp_topo_attach(t, r, 0, r, RING_NODE);
    }
    t->dims[0] = cfg->k;
    return 0;
}

static uint32_t ring_distance(const mpp_topo *t, uint32_t a, uint32_t b)
{
    return (b + t->dims[0] - a) % t->dims[0];
}

static void ring_port_name(const mpp_topo *t, uint32_t r, uint32_t p, char *buf, int len)
{
    static const char *const names[] = {"+", "-", "node"};
    snprintf(buf, (size_t)len, "%s", p < 3 ? names[p] : "?");
}

static const mpp_topo_ops ring_ops = {
    .name = "ring",
    .help = "test: a unidirectionally used ring",
    .schema = {NULL, 0, sizeof(ring_cfg)},
    .setup = ring_setup,
    .distance = ring_distance,
    .port_name = ring_port_name,
};

static void build_ring(mpp_topo *t, uint32_t k)
{
    ring_cfg cfg = {k};
    mpp_err err;
    CHECKF(mpp_topo_build(t, &ring_ops, &cfg, &err) == 0, "%s", err.msg);
    CHECK(mpp_topo_check(t));
}

/* The relations' configuration: the route classes they declare. */
typedef struct mock_cfg {
    uint32_t classes;
} mock_cfg;

static uint32_t mock_classes(const mpp_topo *t, const void *cfg)
{
    return ((const mock_cfg *)cfg)->classes;
}

static bool mock_supports(const mpp_topo *t, const void *cfg, mpp_err *err) { return true; }

static void mock_route(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                       uint32_t in_port, mpp_route_state *st, mpp_rng *rng, mpp_route_out *out)
{
    out->port = 0;
    out->route_class = 0;
}

/* Always "+" on the highest class, ejecting at the destination. */
static void ring_plus(const mpp_topo *t, const void *cfg, void *priv, uint32_t r, uint32_t in,
                      uint32_t cls, uint32_t to, uint32_t flags, mpp_route_emit emit, void *ud)
{
    mpp_route_hop h = {.port = r == to ? RING_NODE : RING_PLUS,
                       .route_class = mock_classes(t, cfg) - 1, .to = to};
    emit(ud, &h);
}

/* The dateline: class 0 until the packet takes the wrap-around link
 * (router K-1's "+"), class 1 from that link on. */
static void ring_dateline(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                          uint32_t in, uint32_t cls, uint32_t to, uint32_t flags,
                          mpp_route_emit emit, void *ud)
{
    mpp_route_hop h = {.port = r == to ? RING_NODE : RING_PLUS, .to = to};
    uint32_t c = cls == MPP_ROUTE_INJECT ? 0 : cls;
    h.route_class = h.port == RING_PLUS && r == t->dims[0] - 1 ? 1 : c;
    emit(ud, &h);
}

#define MOCK(nm, rel)                                                                    \
    {                                                                                    \
        .name = nm, .help = "test", .test_only = true, .supports = mock_supports,        \
        .route_classes = mock_classes, .route = mock_route, .relation = rel              \
    }

static const mpp_routing_ops plus_ops = MOCK("plus", ring_plus);
static const mpp_routing_ops dateline_ops = MOCK("dateline", ring_dateline);
static const mpp_routing_ops norel_ops = MOCK("norel", NULL);

/* Every channel of the cycle leads to the router the next one leaves. */
static bool chained(const mpp_deadlock_result *r)
{
    for (uint32_t i = 0; i < r->ncycle; i++)
        if (r->cycle[i].next_router != r->cycle[(i + 1) % r->ncycle].router)
            return false;
    return r->ncycle > 0;
}

static void test_ring(void)
{
    mpp_topo t;
    build_ring(&t, 5);
    mpp_deadlock_result res;
    mpp_err err;
    mock_cfg one = {1}, two = {2};

    /* one class all the way round: the ring itself */
    CHECKF(mpp_deadlock_check(&t, &plus_ops, &one, NULL, 1, 1, &res, &err) == 0, "%s", err.msg);
    CHECK(res.ncycle == 5 && chained(&res));
    CHECK(!res.folded && res.refusal[0] == '\0');
    CHECK(res.channels == 5 && res.vertices == 5 && res.edges == 5);
    for (uint32_t i = 0; i < res.ncycle; i++) {
        CHECK(res.cycle[i].port == RING_PLUS && res.cycle[i].next_port == RING_MINUS);
        CHECK(!strcmp(res.cycle[i].port_name, "+") && !strcmp(res.cycle[i].next_name, "-"));
        CHECK(res.cycle[i].class_lo == 0 && res.cycle[i].class_hi == 0);
        CHECK(res.cycle[i].vc_lo == 0 && res.cycle[i].vc_hi == 0);
    }
    CHECK(res.cycle[0].router == 0); /* rotated to start at the smallest channel */
    mpp_deadlock_result_free(&res);
    mpp_deadlock_result_free(&res); /* twice is harmless */

    /* the same cycle on class 1 of two with two VCs each: VCs 2..3 */
    CHECK(mpp_deadlock_check(&t, &plus_ops, &two, NULL, 4, 1, &res, &err) == 0);
    CHECK(res.ncycle == 5 && res.cycle[0].class_lo == 1 && res.cycle[0].vc_lo == 2 &&
          res.cycle[0].vc_hi == 3);
    mpp_deadlock_result_free(&res);

    /* the dateline with a VC per class: no cycle */
    CHECKF(mpp_deadlock_check(&t, &dateline_ops, &two, NULL, 2, 1, &res, &err) == 0, "%s",
           err.msg);
    CHECK(res.ncycle == 0 && !res.folded && res.groups == 2 && res.refusal[0] == '\0');
    CHECK(res.route_classes == 2 && res.nodes == 5);
    /* class 0 on the line 0 -> 1 -> .. -> 4, class 1 from the wrap-around
     * link 4 -> 0 on, up to 2 -> 3 */
    CHECK(res.channels == 5 && res.vertices == 4 + 4);
    mpp_deadlock_result_free(&res);

    /* with one VC the classes share it: refused, and the ring is why */
    CHECK(mpp_deadlock_check(&t, &dateline_ops, &two, NULL, 1, 1, &res, &err) == 0);
    CHECK(res.folded && res.groups == 1 && res.vcs_per_mclass == 1);
    CHECKF(strstr(res.refusal, "needs 2 route classes per message class") != NULL &&
               strstr(res.refusal, "with 1 VC they share") != NULL,
           "%s", res.refusal);
    CHECK(res.ncycle == 5 && chained(&res));
    CHECK(res.ncycle && res.cycle[0].class_lo == 0 && res.cycle[0].class_hi == 1 &&
          res.cycle[0].vc_lo == 0 && res.cycle[0].vc_hi == 0);
    mpp_deadlock_result_free(&res);

    /* two message classes on two VCs: one each, folded the same way */
    CHECK(mpp_deadlock_check(&t, &dateline_ops, &two, NULL, 2, 2, &res, &err) == 0);
    CHECK(res.folded && res.ncycle == 5 && strstr(res.refusal, "2 message classes"));
    mpp_deadlock_result_free(&res);

    /* three VCs for two classes: refused (not a multiple), not folded */
    CHECK(mpp_deadlock_check(&t, &dateline_ops, &two, NULL, 3, 1, &res, &err) == 0);
    CHECK(!res.folded && res.ncycle == 0 && strstr(res.refusal, "multiple of 2"));
    mpp_deadlock_result_free(&res);

    /* no relation, no VCs */
    CHECK(mpp_deadlock_check(&t, &norel_ops, &one, NULL, 1, 1, &res, &err) == MPP_EINVAL);
    CHECKF(strstr(err.msg, "'norel' has no routing relation") != NULL, "%s", err.msg);
    CHECK(mpp_deadlock_check(&t, &plus_ops, &one, NULL, 0, 1, &res, &err) == MPP_EINVAL);
    CHECK(res.ncycle == 0 && res.cycle == NULL);
    mpp_topo_free(&t);
}

/* ---- a mesh ------------------------------------------------------------------ */

static void build_mesh(mpp_topo *t, uint32_t rows, uint32_t cols)
{
    const mpp_topo_ops *ops = mpp_topo_find("mesh");
    mpp_blob cfg;
    memset(&cfg, 0, sizeof cfg);
    test_set_u32(&ops->schema, &cfg, "rows", rows);
    test_set_u32(&ops->schema, &cfg, "cols", cols);
    mpp_err err;
    CHECKF(mpp_topo_build(t, ops, cfg.b, &err) == 0, "%s", err.msg);
}

/* The mesh port one hop from r toward node `to`: X first (yx: Y first). */
static uint32_t mesh_hop(const mpp_topo *t, uint32_t r, uint32_t to, bool yx)
{
    uint32_t a = mpp_mesh_coord(t, r), b = mpp_mesh_coord(t, t->node_router[to]);
    uint32_t rx = a & 0xffff, ry = a >> 16, tx = b & 0xffff, ty = b >> 16;
    bool x = tx != rx, y = ty != ry;
    if (x && (!yx || !y))
        return tx > rx ? 0 : 1;
    if (y)
        return ty > ry ? 2 : 3;
    return t->link_port[t->node_link_base[to]] - t->port_base[r];
}

static void mesh_xy(const mpp_topo *t, const void *cfg, void *priv, uint32_t r, uint32_t in,
                    uint32_t cls, uint32_t to, uint32_t flags, mpp_route_emit emit, void *ud)
{
    mpp_route_hop h = {.port = mesh_hop(t, r, to, false), .to = to};
    emit(ud, &h);
}

/* XY or YX, both on class 0, at every hop (a superset of xyyx's paths). */
static void mesh_mixed(const mpp_topo *t, const void *cfg, void *priv, uint32_t r, uint32_t in,
                       uint32_t cls, uint32_t to, uint32_t flags, mpp_route_emit emit, void *ud)
{
    mpp_route_hop h = {.port = mesh_hop(t, r, to, false), .to = to};
    emit(ud, &h);
    h.port = mesh_hop(t, r, to, true);
    emit(ud, &h);
}

/* XY or YX chosen at injection and kept in flags bit 0, each order on its
 * own class when there are two (else both on class 0). */
static void mesh_orders(const mpp_topo *t, const void *cfg, void *priv, uint32_t r, uint32_t in,
                        uint32_t cls, uint32_t to, uint32_t flags, mpp_route_emit emit, void *ud)
{
    uint32_t rc = mock_classes(t, cfg);
    for (uint32_t f = 0; f < 2; f++) {
        if (cls != MPP_ROUTE_INJECT && f != flags)
            continue;
        mpp_route_hop h = {.port = mesh_hop(t, r, to, f), .route_class = rc > 1 ? f : 0,
                           .to = to, .flags = f};
        emit(ud, &h);
    }
}

/* Contract breakers. */
static void mesh_west(const mpp_topo *t, const void *cfg, void *priv, uint32_t r, uint32_t in,
                      uint32_t cls, uint32_t to, uint32_t flags, mpp_route_emit emit, void *ud)
{
    mpp_route_hop h = {.port = r == t->node_router[to] ? 4 : 1, .to = to};
    emit(ud, &h);
}

static void mesh_silent(const mpp_topo *t, const void *cfg, void *priv, uint32_t r, uint32_t in,
                        uint32_t cls, uint32_t to, uint32_t flags, mpp_route_emit emit, void *ud)
{
    if (cls == MPP_ROUTE_INJECT)
        mesh_xy(t, cfg, priv, r, in, cls, to, flags, emit, ud);
}

static void mesh_selfish(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                         uint32_t in, uint32_t cls, uint32_t to, uint32_t flags,
                         mpp_route_emit emit, void *ud)
{
    mpp_route_hop h = {.port = 4, .to = to}; /* ejects at the source, whoever it is for */
    emit(ud, &h);
}

static void mesh_badclass(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                          uint32_t in, uint32_t cls, uint32_t to, uint32_t flags,
                          mpp_route_emit emit, void *ud)
{
    mpp_route_hop h = {.port = mesh_hop(t, r, to, false), .route_class = 5, .to = to};
    emit(ud, &h);
}

static void mesh_badport(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                         uint32_t in, uint32_t cls, uint32_t to, uint32_t flags,
                         mpp_route_emit emit, void *ud)
{
    mpp_route_hop h = {.port = 9, .to = to};
    emit(ud, &h);
}

/* Uses the largest flag value from the first hop on. */
static void mesh_flags(const mpp_topo *t, const void *cfg, void *priv, uint32_t r, uint32_t in,
                       uint32_t cls, uint32_t to, uint32_t flags, mpp_route_emit emit, void *ud)
{
    mpp_route_hop h = {.port = mesh_hop(t, r, to, false), .to = to, .flags = 255};
    emit(ud, &h);
}

static const mpp_routing_ops xy_ops = MOCK("xy", mesh_xy);
static const mpp_routing_ops mixed_ops = MOCK("mixed", mesh_mixed);
static const mpp_routing_ops orders_ops = MOCK("orders", mesh_orders);
static const mpp_routing_ops west_ops = MOCK("west", mesh_west);
static const mpp_routing_ops silent_ops = MOCK("silent", mesh_silent);
static const mpp_routing_ops selfish_ops = MOCK("selfish", mesh_selfish);
static const mpp_routing_ops badclass_ops = MOCK("badclass", mesh_badclass);
static const mpp_routing_ops badport_ops = MOCK("badport", mesh_badport);
static const mpp_routing_ops flags_ops = MOCK("flags", mesh_flags);

static void test_mesh_relations(void)
{
    mpp_topo t;
    build_mesh(&t, 3, 4);
    mpp_deadlock_result res;
    mpp_err err;
    mock_cfg one = {1}, two = {2};

    CHECKF(mpp_deadlock_check(&t, &xy_ops, &one, NULL, 1, 1, &res, &err) == 0, "%s", err.msg);
    CHECK(res.ncycle == 0);
    /* every channel of a 3x4 mesh is used: 2 x (3 x 3 + 4 x 2) */
    CHECK(res.channels == 34 && res.vertices == 34);
    /* 12 x 12 injections, and every (arrival port, destination) reached */
    CHECK(res.states > 144);
    mpp_deadlock_result_free(&res);

    /* XY and YX on one class: the four channels round a square */
    CHECK(mpp_deadlock_check(&t, &mixed_ops, &one, NULL, 1, 1, &res, &err) == 0);
    CHECK(res.ncycle == 4 && chained(&res));
    for (uint32_t i = 0; i < res.ncycle; i++)
        CHECK(res.cycle[i].class_lo == 0 && res.cycle[i].vc_hi == 0);
    mpp_deadlock_result_free(&res);

    /* the order kept in flags: one class cycles, two do not, two folded
     * into one VC do again */
    CHECK(mpp_deadlock_check(&t, &orders_ops, &one, NULL, 1, 1, &res, &err) == 0);
    CHECK(res.ncycle == 4 && chained(&res));
    mpp_deadlock_result_free(&res);
    CHECK(mpp_deadlock_check(&t, &orders_ops, &two, NULL, 2, 1, &res, &err) == 0);
    CHECK(res.ncycle == 0 && res.vertices == 68);
    mpp_deadlock_result_free(&res);
    CHECK(mpp_deadlock_check(&t, &orders_ops, &two, NULL, 1, 1, &res, &err) == 0);
    CHECK(res.folded && res.ncycle == 4 && res.refusal[0]);
    mpp_deadlock_result_free(&res);

    /* contract breakers: MPP_ERUN naming the router, port and state */
    CHECK(mpp_deadlock_check(&t, &west_ops, &one, NULL, 1, 1, &res, &err) == MPP_ERUN);
    CHECKF(strstr(err.msg, "router 'west'") && strstr(err.msg, "port W, which is unconnected") &&
               strstr(err.msg, "at router 0 (arrived on port node, injected"),
           "%s", err.msg);
    CHECK(res.ncycle == 0);
    CHECK(mpp_deadlock_check(&t, &silent_ops, &one, NULL, 1, 1, &res, &err) == MPP_ERUN);
    CHECKF(strstr(err.msg, "no hop") && strstr(err.msg, "class 0"), "%s", err.msg);
    CHECK(mpp_deadlock_check(&t, &selfish_ops, &one, NULL, 1, 1, &res, &err) == MPP_ERUN);
    CHECKF(strstr(err.msg, "port node ejects into node 0") &&
               strstr(err.msg, "bound for node 1"),
           "%s", err.msg);
    CHECK(mpp_deadlock_check(&t, &badclass_ops, &one, NULL, 1, 1, &res, &err) == MPP_ERUN);
    CHECKF(strstr(err.msg, "class 5"), "%s", err.msg);
    CHECK(mpp_deadlock_check(&t, &badport_ops, &one, NULL, 1, 1, &res, &err) == MPP_ERUN);
    CHECKF(strstr(err.msg, "port 9 (the router has 5)"), "%s", err.msg);
    mpp_topo_free(&t);

    /* the memory limit: flag value 255 on a 64x64 mesh (256 planes of
     * 21 MB), and a 256x256 mesh from the start */
    build_mesh(&t, 64, 64);
    CHECK(mpp_deadlock_check(&t, &flags_ops, &one, NULL, 1, 1, &res, &err) == MPP_EINVAL);
    CHECKF(strstr(err.msg, "flag value 255") && strstr(err.msg, "limit of 1024 MiB"), "%s",
           err.msg);
    mpp_topo_free(&t);
    build_mesh(&t, 256, 256);
    CHECK(mpp_deadlock_check(&t, &xy_ops, &one, NULL, 1, 1, &res, &err) == MPP_EINVAL);
    CHECKF(strstr(err.msg, "limit of 1024 MiB"), "%s", err.msg);
    mpp_topo_free(&t);
}

/* ---- configurations ------------------------------------------------------------- */

static void test_same(void)
{
    mpp_sim_config a, b;
    mpp_config_defaults(&a);
    test_mesh(&a, 4, 4);
    b = a;
    CHECK(mpp_deadlock_same(&a, &b));
    test_set(&b, "workload.rate", "0.3");
    test_set(&b, "seed", "7");
    CHECK(mpp_deadlock_same(&a, &b));
    test_set(&b, "network.vcs", "3");
    CHECK(!mpp_deadlock_same(&a, &b));
    b = a;
    test_set(&b, "network.mesh.rows", "5");
    CHECK(!mpp_deadlock_same(&a, &b));
    b = a;
    test_set(&b, "network.router", "romm");
    CHECK(!mpp_deadlock_same(&a, &b));
    b = a;
    test_set(&b, "network.message_classes", "2");
    CHECK(!mpp_deadlock_same(&a, &b));
}

/* Check c; the result's cycle length, or -1 after printing the error. */
static int check_config(const mpp_sim_config *c, mpp_deadlock_result *res)
{
    mpp_err err;
    if (mpp_deadlock_check_config(c, res, &err)) {
        fprintf(stderr, "%s on %s: %s\n", c->net.routing->name, c->net.topo->name, err.msg);
        return -1;
    }
    return (int)res->ncycle;
}

/* The registered routers with a relation on small shapes of the
 * registered topologies they support, with one VC per route class. */
static void test_registered(void)
{
    static const char *const shapes[][3] = {
        {"mesh", "network.mesh.rows", "4"},
        {"hypercube", "network.hypercube.dim", "4"},
        {"kary-ncube", "network.kary-ncube.k", "[4, 3]"},
        {"butterfly", "network.butterfly.n", "3"},
        {"cm5-fattree", "network.cm5-fattree.nodes", "16"},
    };
    int checked = 0;
    for (const mpp_routing_ops *const *r = mpp_routing_all(); *r; r++) {
        if (!(*r)->relation || (*r)->test_only)
            continue;
        for (size_t s = 0; s < MPP_COUNTOF(shapes); s++) {
            if (!mpp_topo_find(shapes[s][0]))
                continue;
            mpp_sim_config c;
            mpp_config_defaults(&c);
            test_set(&c, "network.topology", "%s", shapes[s][0]);
            test_set(&c, shapes[s][1], "%s", shapes[s][2]);
            test_set(&c, "network.router", "%s", (*r)->name);
            test_set(&c, "network.vcs_per_class", "1");
            mpp_topo t;
            mpp_err err;
            CHECK(mpp_topo_build(&t, c.net.topo, c.net.topo_cfg.b, &err) == 0);
            bool ok = (*r)->supports(&t, c.net.routing_cfg.b, &err);
            mpp_topo_free(&t);
            if (!ok)
                continue;
            mpp_deadlock_result res;
            CHECKF(check_config(&c, &res) == 0, "%s on %s", (*r)->name, shapes[s][0]);
            CHECK(res.refusal[0] == '\0');
            mpp_deadlock_result_free(&res);
            checked++;
        }
    }
    CHECK(checked >= 1);
    printf("registered routers: %d (router, topology) pairs acyclic\n", checked);

    /* xyyx (test only) mixes the orders on one class */
    mpp_sim_config c;
    mpp_config_defaults(&c);
    test_mesh(&c, 3, 3);
    test_set(&c, "network.router", "xyyx");
    test_set(&c, "network.vcs", "1");
    mpp_deadlock_result res;
    if (mpp_routing_find("xyyx")->relation) {
        CHECK(check_config(&c, &res) == 4);
        mpp_deadlock_result_free(&res);
    }

    /* e-cube round a torus: two classes; one VC is refused and cycles */
    if (mpp_topo_find("kary-ncube") && mpp_routing_find("ecube")->relation) {
        mpp_config_defaults(&c);
        test_set(&c, "network.topology", "kary-ncube");
        test_set(&c, "network.kary-ncube.k", "[4, 4]");
        test_set(&c, "network.kary-ncube.torus", "true");
        test_set(&c, "network.router", "ecube");
        test_set(&c, "network.vcs", "1");
        CHECK(check_config(&c, &res) == 4);
        CHECK(res.folded && strstr(res.refusal, "router 'ecube' needs 2 route classes"));
        mpp_deadlock_result_free(&res);
        test_set(&c, "network.vcs", "2");
        CHECK(check_config(&c, &res) == 0);
        CHECK(!res.folded && res.refusal[0] == '\0');
        mpp_deadlock_result_free(&res);
    }
}

int main(void)
{
    test_ring();
    test_mesh_relations();
    test_same();
    test_registered();
    TEST_DONE();
}
