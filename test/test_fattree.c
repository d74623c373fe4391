/* test/test_fattree.c — the cm5-fattree topology (topologies/cm5_fattree.c)
 * and the fattree-random routing (routers/fattree_random.c).
 *
 * For N = 16 .. 1024 with the CM-5 defaults, and for a full fat tree, a
 * plain tree and an odd shape: routers and up-links per level follow
 * node_links and parents; the wiring invariants hold; every pair's route,
 * walked with random draws and a random source link, reaches the
 * destination, climbs exactly to the lowest common ancestor level, descends
 * by the destination's digits and has distance() hops; the random up-route
 * reaches every router of the LCA level; up-links of a level are used
 * equally (within 15%) by uniformly random pairs. Bad configurations are
 * refused. A short engine run delivers every pair and survives saturation. */
#include <stdlib.h>
#include <string.h>

#include "core/sim.h"
#include "core/base/strbuf.h"
#include "routers/routing.h"
#include "test/testutil.h"

#define MAXL 12

/* Fill a cm5-fattree config blob through the schema (u32list written at its
 * row's offset). np == 0 writes an empty parents list. */
static void ft_cfg(const mpp_topo_ops *ops, mpp_blob *b, uint32_t nodes, uint32_t links,
                   const uint32_t *par, uint32_t np)
{
    memset(b, 0, sizeof *b);
    test_set_u32(&ops->schema, b, "nodes", nodes);
    test_set_u32(&ops->schema, b, "node_links", links);
    for (size_t i = 0; i < ops->schema.nparams; i++)
        if (strcmp(ops->schema.params[i].key, "parents") == 0 &&
            ops->schema.params[i].type == MPP_PT_U32LIST) {
            mpp_u32list l;
            memset(&l, 0, sizeof l);
            l.n = np;
            memcpy(l.v, par, np * sizeof *par);
            memcpy(b->b + ops->schema.params[i].offset, &l, sizeof l);
        }
}

/* Level of router r, found independently of the plug-ins: hops down child
 * port 0 until a node, plus one. *low receives that node. */
static uint32_t router_level(const mpp_topo *t, uint32_t r, uint32_t *low)
{
    uint32_t l = 1;
    for (;;) {
        uint32_t peer = t->port_peer[t->port_base[r]];
        if (peer == MPP_TOPO_NONE)
            return 0;
        if (peer & MPP_TOPO_NODE) {
            if (low)
                *low = t->link_node[peer & ~MPP_TOPO_NODE];
            return l;
        }
        r = t->port_router[peer];
        if (++l > MAXL)
            return 0;
    }
}

static uint32_t lca(uint32_t a, uint32_t b)
{
    uint32_t l = 1;
    while ((a >> (2 * l)) != (b >> (2 * l)))
        l++;
    return l;
}

typedef struct walker {
    const mpp_topo *t;
    const mpp_routing_ops *ops;
    void *priv;
    mpp_blob cfg;
    uint32_t *level;  /* [routers] */
    uint64_t *use;    /* [ports] traversals out of each port */
    mpp_rng rng;      /* route draws */
    mpp_rng lrng;     /* the source's link choice */
} walker;

/* Walk s -> d, choosing the source link at random. Checks the shape of the
 * path; returns hops, or -1 when it fails (bad port, wrong node, not
 * up-then-down to the LCA, down not by digits). *top = router at the top. */
static int walk(walker *w, uint32_t s, uint32_t d, uint32_t *top)
{
    const mpp_topo *t = w->t;
    mpp_route_state st;
    mpp_route_state_init(&st, t, s, d);
    uint32_t nl = t->node_link_base[s + 1] - t->node_link_base[s];
    uint32_t g0 = t->link_port[t->node_link_base[s] + mpp_rng_below(&w->lrng, nl)];
    uint32_t r = t->port_router[g0], in = g0 - t->port_base[r];
    uint32_t want = lca(s, d), prev = 1, going_up = 1;
    int hops = 0;
    *top = r;
    if (w->level[r] != 1)
        return -1;
    for (int guard = 0; guard < 4 * MAXL; guard++) {
        mpp_route_out out;
        w->ops->route(t, w->cfg.b, w->priv, r, in, &st, &w->rng, &out);
        if (out.route_class != 0 || out.port >= t->port_base[r + 1] - t->port_base[r])
            return -1;
        uint32_t g = t->port_base[r] + out.port, l = w->level[r];
        if (out.port < 4 && out.port != ((d >> (2 * (l - 1))) & 3))
            return -1; /* down, but not by the destination's digit */
        if (out.port < 4 && l != want && going_up)
            return -1; /* turned before the LCA level */
        if (out.port >= 4 && !going_up)
            return -1; /* up after down */
        if (out.port < 4)
            going_up = 0;
        w->use[g]++;
        uint32_t peer = t->port_peer[g];
        if (peer == MPP_TOPO_NONE)
            return -1;
        if (peer & MPP_TOPO_NODE)
            return t->link_node[peer & ~MPP_TOPO_NODE] == d && l == 1 ? hops : -1;
        hops++;
        r = t->port_router[peer];
        in = peer - t->port_base[r];
        uint32_t nlv = w->level[r];
        if (nlv != (out.port >= 4 ? prev + 1 : prev - 1) || nlv > want)
            return -1; /* not one level per hop, or above the LCA */
        prev = nlv;
        if (nlv == want)
            *top = r;
    }
    return -1;
}

/* Everything about one shape. */
static void shape(uint32_t N, uint32_t k, const uint32_t *par, uint32_t np, int verbose)
{
    const mpp_topo_ops *ops = mpp_topo_find("cm5-fattree");
    mpp_blob b;
    ft_cfg(ops, &b, N, k, par, np);
    mpp_topo t;
    mpp_err err;
    if (mpp_topo_build(&t, ops, b.b, &err)) {
        CHECKF(0, "N=%u: %s", N, err.msg);
        return;
    }
    CHECK(t.nodes == N && t.kind == MPP_TOPO_FATTREE);
    CHECK(mpp_topo_check(&t));
    for (uint32_t n = 0; n < N; n++)
        CHECK(t.node_link_base[n + 1] - t.node_link_base[n] == k);

    /* expected shape */
    uint32_t L = 0, h = 0, m = N;
    while (m % 4 == 0) {
        m /= 4;
        h++;
    }
    L = m == 1 ? h : h + 1;
    CHECK(t.dims[0] == L && t.dims[1] == k && t.dims[3] == h);
    uint64_t want_r[MAXL + 1] = {0}, want_up[MAXL + 1] = {0}, per = k;
    for (uint32_t l = 1; l <= L; l++) {
        uint32_t p = par[l - 1 < np ? l - 1 : np - 1];
        uint64_t subs = l <= h ? N >> (2 * l) : 1;
        want_r[l] = subs * per;
        want_up[l] = l < L ? want_r[l] * p : 0;
        per *= p;
    }
    /* observed: routers and connected parent ports per level; each router's
     * subtree; every child port to an existing subtree is connected */
    uint64_t got_r[MAXL + 1] = {0}, got_up[MAXL + 1] = {0};
    uint32_t *level = calloc(t.routers, sizeof *level), bad = 0;
    for (uint32_t r = 0; r < t.routers; r++) {
        uint32_t low = 0, l = router_level(&t, r, &low);
        level[r] = l;
        if (l < 1 || l > L) {
            bad++;
            continue;
        }
        got_r[l]++;
        uint32_t np_r = t.port_base[r + 1] - t.port_base[r] - 4;
        for (uint32_t q = 0; q < np_r; q++) {
            uint32_t peer = t.port_peer[t.port_base[r] + 4 + q];
            if (peer != MPP_TOPO_NONE && !(peer & MPP_TOPO_NODE))
                got_up[l]++;
            else
                bad++;
        }
        uint32_t sub = low >> (2 * l);
        for (uint32_t c = 0; c < 4; c++) {
            bool exists = ((uint64_t)sub * 4 + c) << (2 * (l - 1)) < N;
            bool conn = t.port_peer[t.port_base[r] + c] != MPP_TOPO_NONE;
            if (exists != conn)
                bad++;
        }
    }
    CHECKF(bad == 0, "N=%u: %u routers/ports not wired as a fat tree", N, bad);
    char line[256];
    int off = snprintf(line, sizeof line, "cm5-fattree N=%u node_links=%u parents=[", N, k);
    for (uint32_t i = 0; i < np; i++)
        off += snprintf(line + off, sizeof line - (size_t)off, "%s%u", i ? "," : "", par[i]);
    off += snprintf(line + off, sizeof line - (size_t)off, "]: routers/level");
    for (uint32_t l = 1; l <= L; l++) {
        CHECKF(got_r[l] == want_r[l], "N=%u level %u: %llu routers, want %llu", N, l,
               (unsigned long long)got_r[l], (unsigned long long)want_r[l]);
        CHECKF(got_up[l] == want_up[l], "N=%u level %u: %llu up-links, want %llu", N, l,
               (unsigned long long)got_up[l], (unsigned long long)want_up[l]);
        off += snprintf(line + off, sizeof line - (size_t)off, " %llu", (unsigned long long)got_r[l]);
    }
    if (verbose)
        printf("%s (total %u)\n", line, t.routers);

    /* routing */
    const mpp_routing_ops *ro = mpp_routing_find("fattree-random");
    walker w;
    memset(&w, 0, sizeof w);
    w.t = &t;
    w.ops = ro;
    w.level = level;
    w.use = calloc(t.ports, sizeof *w.use);
    mpp_rng_init(&w.rng, 11, MPP_RNG_ROUTER, N);
    mpp_rng_init(&w.lrng, 12, MPP_RNG_SOURCE, N);
    CHECK(ro->supports(&t, w.cfg.b, &err));
    CHECK(ro->route_classes(&t, w.cfg.b) == 1);
    if (ro->setup(&t, w.cfg.b, &w.priv, &err)) {
        CHECKF(0, "setup: %s", err.msg);
        goto out;
    }
    /* every pair, several draws: shape of the path and distance */
    uint32_t draws = N <= 64 ? 8 : N <= 256 ? 3 : 1, top;
    bad = 0;
    for (uint32_t s = 0; s < N; s++)
        for (uint32_t d = 0; d < N; d++)
            for (uint32_t i = 0; i < draws; i++) {
                int hp = walk(&w, s, d, &top);
                if (hp < 0 || (uint32_t)hp != ops->distance(&t, s, d) ||
                    (uint32_t)hp != 2 * (lca(s, d) - 1)) {
                    if (bad++ < 5)
                        fprintf(stderr, "N=%u %u->%u: walked %d hops, distance %u\n", N, s, d, hp,
                                ops->distance(&t, s, d));
                }
            }
    CHECKF(bad == 0, "N=%u: %u walks wrong", N, bad);

    /* the random up-route reaches every router of the LCA subtree */
    uint32_t pairs[][2] = {{0, N - 1}, {N - 1, 0}, {1, N / 2}, {5 % N, 6 % N}, {0, 3}, {2, 17 % N}};
    char *seen = calloc(t.routers, 1);
    for (size_t i = 0; i < MPP_COUNTOF(pairs); i++) {
        uint32_t s = pairs[i][0], d = pairs[i][1], l = lca(s, d);
        memset(seen, 0, t.routers);
        uint32_t distinct = 0;
        for (uint32_t k2 = 0; k2 < 64 * (uint32_t)want_r[l]; k2++)
            if (walk(&w, s, d, &top) >= 0 && !seen[top]) {
                seen[top] = 1;
                distinct++;
            }
        uint64_t per_sub = want_r[l] / (l <= h ? N >> (2 * l) : 1);
        CHECKF(distinct == per_sub, "N=%u %u->%u: reached %u of %llu LCA-level routers", N, s, d,
               distinct, (unsigned long long)per_sub);
    }
    free(seen);

    /* up-link use under uniformly random pairs: equal within 15% per level */
    memset(w.use, 0, t.ports * sizeof *w.use);
    uint64_t walks = 200000;
    for (uint32_t l = 1; l < L; l++) /* ~8000 crossings per up-link: 1.1% noise */
        if (8000 * want_up[l] * 2 > walks)
            walks = 8000 * want_up[l] * 2;
    mpp_rng pr;
    mpp_rng_init(&pr, 13, MPP_RNG_TRAFFIC, N);
    for (uint64_t i = 0; i < walks; i++)
        walk(&w, mpp_rng_below(&pr, N), mpp_rng_below(&pr, N), &top);
    for (uint32_t l = 1; l < L; l++) {
        uint64_t lo = UINT64_MAX, hi = 0;
        for (uint32_t r = 0; r < t.routers; r++)
            if (level[r] == l)
                for (uint32_t g = t.port_base[r] + 4; g < t.port_base[r + 1]; g++) {
                    lo = w.use[g] < lo ? w.use[g] : lo;
                    hi = w.use[g] > hi ? w.use[g] : hi;
                }
        CHECKF(lo > 0 && (double)hi <= 1.15 * (double)lo,
               "N=%u level %u up-links used %llu..%llu times", N, l, (unsigned long long)lo,
               (unsigned long long)hi);
    }
    ro->destroy(w.priv);
out:
    free(w.use);
    free(level);
    mpp_topo_free(&t);
}

/* Refused configuration: MPP_EINVAL with a message containing `want`. */
static void refused(uint32_t N, uint32_t k, const uint32_t *par, uint32_t np, const char *want)
{
    const mpp_topo_ops *ops = mpp_topo_find("cm5-fattree");
    mpp_blob b;
    ft_cfg(ops, &b, N, k, par, np);
    mpp_topo t;
    mpp_err err;
    memset(&err, 0, sizeof err);
    int rc = mpp_topo_build(&t, ops, b.b, &err);
    CHECKF(rc == MPP_EINVAL && strstr(err.msg, want), "N=%u k=%u: rc %d '%s'", N, k, rc, err.msg);
    if (rc == 0)
        mpp_topo_free(&t);
}

/* Packets delivered by the engine, and those whose hops differ from the
 * 2 x (lca - 1) of their pair. */
typedef struct deliveries {
    uint32_t n, bad_hops;
} deliveries;

static void on_packet(void *ud, const mpp_packet_record *r)
{
    deliveries *d = ud;
    d->n++;
    if (r->hops != 2 * (lca(r->src, r->dst) - 1))
        d->bad_hops++;
}

/* Through the engine: every pair delivered with distance() hops; a saturated
 * run of uniform traffic finishes without the watchdog firing. */
static void engine(void)
{
    deliveries dv = {0, 0};
    mpp_sim_config c;
    mpp_config_defaults(&c);
    c.net.topo = mpp_topo_find("cm5-fattree");
    ft_cfg(c.net.topo, &c.net.topo_cfg, 32, 2, (const uint32_t[]){2, 2, 4}, 3);
    c.net.routing = mpp_routing_find("nca");
    memset(&c.net.routing_cfg, 0, sizeof c.net.routing_cfg);
    c.workload.ops = NULL;
    mpp_err err;
    mpp_sim *s = mpp_sim_create(&c, &err);
    CHECKF(s != NULL, "%s", err.msg);
    if (s) {
        mpp_sim_on_packet(s, on_packet, &dv);
        const mpp_topo *t = mpp_sim_topology(s);
        uint32_t bad = 0;
        for (uint32_t a = 0; a < 32; a++)
            for (uint32_t d = 0; d < 32; d++)
                if (mpp_sim_send(s, a, d, 5, 0, &err))
                    bad++;
        if (mpp_sim_run_until_idle(s, 1000000, &err))
            CHECKF(0, "%s", err.msg);
        CHECK(bad == 0);
        CHECKF(dv.n == 32 * 32 && dv.bad_hops == 0, "%u delivered, %u with wrong hops", dv.n,
               dv.bad_hops);
        CHECK(mpp_sim_check(s));
        CHECK(t->ops == c.net.topo);
        mpp_sim_destroy(s);
    }
    mpp_config_defaults(&c);
    c.net.topo = mpp_topo_find("cm5-fattree");
    ft_cfg(c.net.topo, &c.net.topo_cfg, 64, 2, (const uint32_t[]){2, 2, 4}, 3);
    c.net.routing = mpp_routing_find("fattree-random");
    memset(&c.net.routing_cfg, 0, sizeof c.net.routing_cfg);
    test_set(&c, "workload.rate", "0.9");
    test_set(&c, "workload.warmup", "1000");
    test_set(&c, "workload.measure", "3000");
    test_set(&c, "workload.drain_factor", "2");
    s = mpp_sim_create(&c, &err);
    CHECKF(s != NULL, "%s", err.msg);
    if (s) {
        int rc = mpp_sim_run(s, NULL, NULL, &err);
        CHECKF(rc == 0, "rate 0.9: %s", err.msg);
        CHECK(mpp_sim_result_get(s)->saturated);
        CHECK(mpp_sim_check(s));
        mpp_sim_destroy(s);
    }
}

int main(void)
{
    static const uint32_t cm5[] = {2, 2, 4}, full[] = {4}, plain[] = {1}, odd[] = {3, 1, 2};
    static const uint32_t sizes[] = {16, 32, 48, 64, 256, 1024};
    for (size_t i = 0; i < MPP_COUNTOF(sizes); i++)
        shape(sizes[i], 2, cm5, 3, 1);
    shape(4, 2, cm5, 3, 1);
    shape(8, 2, cm5, 3, 1);
    shape(12, 2, cm5, 3, 1);
    shape(64, 1, full, 1, 1);
    shape(48, 1, plain, 1, 1);
    shape(128, 3, odd, 3, 1);
    shape(192, 4, full, 1, 1);

    /* bad configurations */
    refused(20, 2, cm5, 3, "m x 4^h");
    refused(20, 2, cm5, 3, "nearest: 16 or 32");
    refused(0, 2, cm5, 3, "m x 4^h");
    refused(5, 2, cm5, 3, "m x 4^h");
    refused(2, 2, cm5, 3, "at least 4");
    refused(80, 2, cm5, 3, "nearest: 64 or 128");
    refused(32, 0, cm5, 3, "node_links");
    refused(32, 5, cm5, 3, "node_links");
    refused(32, 2, (const uint32_t[]){2, 0, 4}, 3, "parents[1]");
    refused(32, 2, (const uint32_t[]){0}, 1, "parents[0]");
    refused(32, 2, (const uint32_t[]){5}, 1, "parents[0]");
    refused(32, 2, cm5, 0, "parents");

    /* short form, port names, defaults, routing registry */
    const mpp_topo_ops *ops = mpp_topo_find("cm5-fattree");
    CHECK(ops != NULL && ops->schema.size <= MPP_BLOB_SIZE);
    mpp_sb sb;
    mpp_sb_init(&sb);
    mpp_err err;
    CHECK(ops->parse_short("32", &sb, &err) == 0 && strcmp(sb.s, "nodes=32\n") == 0);
    CHECK(ops->parse_short("4x4", &sb, &err) == MPP_EINVAL);
    CHECK(ops->parse_short("", &sb, &err) == MPP_EINVAL);
    mpp_sb_free(&sb);
    mpp_blob b;
    ft_cfg(ops, &b, 16, 2, cm5, 3);
    mpp_topo t;
    CHECK(mpp_topo_build(&t, ops, b.b, &err) == 0);
    char name[16];
    ops->port_name(&t, 0, 2, name, sizeof name);
    CHECK(strcmp(name, "c2") == 0);
    ops->port_name(&t, 0, 5, name, sizeof name);
    CHECK(strcmp(name, "p1") == 0);
    CHECK(ops->distance(&t, 3, 3) == 0 && ops->distance(&t, 0, 3) == 0);
    CHECK(ops->distance(&t, 0, 4) == 2 && ops->distance(&t, 15, 0) == 2);
    const mpp_routing_ops *ro = mpp_routing_find("nca");
    CHECK(ro != NULL && ro == mpp_routing_find("fattree-random"));
    mpp_topo_free(&t);
    const mpp_topo_ops *mesh = mpp_topo_find("mesh");
    memset(&b, 0, sizeof b);
    test_set_u32(&mesh->schema, &b, "rows", 4);
    test_set_u32(&mesh->schema, &b, "cols", 4);
    CHECK(mpp_topo_build(&t, mesh, b.b, &err) == 0);
    memset(&err, 0, sizeof err);
    CHECK(ro && !ro->supports(&t, b.b, &err) && strstr(err.msg, "cm5-fattree"));
    mpp_topo_free(&t);

    engine();
    TEST_DONE();
}
