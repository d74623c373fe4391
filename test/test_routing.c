/* test/test_routing.c — routing plug-ins (routers/): e-cube paths on meshes
 * (X then Y) and hypercubes (highest bit first) are minimal and
 * dimension-ordered for every pair; every registered plug-in passes the same
 * conformance checks (reaches every destination within a bound, returns
 * connected ports); alias lookup; unsupported topologies are refused. */
#include <stdlib.h>
#include <string.h>

#include "routers/routing.h"
#include "test/testutil.h"

static void build(mpp_topo *t, const char *name, uint32_t a, uint32_t b)
{
    const mpp_topo_ops *ops = mpp_topo_find(name);
    mpp_blob cfg;
    memset(&cfg, 0, sizeof cfg);
    if (strcmp(name, "mesh") == 0) {
        test_set_u32(&ops->schema, &cfg, "rows", a);
        test_set_u32(&ops->schema, &cfg, "cols", b);
    } else {
        test_set_u32(&ops->schema, &cfg, "dim", a);
    }
    mpp_err err;
    if (mpp_topo_build(t, ops, cfg.b, &err))
        fprintf(stderr, "build: %s\n", err.msg);
}

/* Walk a packet from s to d with routing ops; record the dimension of each
 * hop (mesh: 0 = X, 1 = Y; hypercube: the bit). Returns hops or -1. */
static int walk(const mpp_topo *t, const mpp_routing_ops *ops, uint32_t s, uint32_t d,
                int *dims, mpp_rng *rng)
{
    mpp_blob cfg;
    memset(&cfg, 0, sizeof cfg);
    void *priv = NULL;
    mpp_err err;
    if (ops->setup && ops->setup(t, cfg.b, &priv, &err))
        return -1;
    mpp_route_state st;
    mpp_route_state_init(&st, t, s, d);
    if (ops->init_packet)
        ops->init_packet(t, cfg.b, priv, &st, rng);
    uint32_t r = mpp_routing_node_router(t, s), in = t->link_port[t->node_link_base[s]] - t->port_base[r];
    int hops = 0;
    for (int guard = 0; guard < 4 * (int)t->routers + 8; guard++) {
        mpp_route_out out;
        ops->route(t, cfg.b, priv, r, in, &st, rng, &out);
        uint32_t g = t->port_base[r] + out.port;
        if (out.port >= t->port_base[r + 1] - t->port_base[r])
            break;
        uint32_t peer = t->port_peer[g];
        if (peer == MPP_TOPO_NONE)
            break;
        if (peer & MPP_TOPO_NODE) {
            if (ops->destroy)
                ops->destroy(priv);
            return t->link_node[peer & ~MPP_TOPO_NODE] == d ? hops : -1;
        }
        if (dims)
            dims[hops] = t->kind == MPP_TOPO_MESH ? (int)(out.port / 2) : (int)out.port;
        hops++;
        r = t->port_router[peer];
        in = peer - t->port_base[r];
    }
    if (ops->destroy)
        ops->destroy(priv);
    return -1;
}

static void ecube_paths(const mpp_topo *t)
{
    const mpp_routing_ops *ec = mpp_routing_find("ecube");
    mpp_rng rng;
    mpp_rng_init(&rng, 1, MPP_RNG_ROUTER, 0);
    int dims[256];
    uint32_t bad = 0;
    for (uint32_t s = 0; s < t->nodes; s++)
        for (uint32_t d = 0; d < t->nodes; d++) {
            int h = walk(t, ec, s, d, dims, &rng);
            if (h != (int)t->ops->distance(t, s, d)) {
                bad++;
                continue;
            }
            for (int k = 1; k < h; k++) {
                /* mesh: X (0) before Y (1); hypercube: strictly descending bits */
                bool ok = t->kind == MPP_TOPO_MESH ? dims[k - 1] <= dims[k] : dims[k - 1] > dims[k];
                if (!ok)
                    bad++;
            }
        }
    CHECKF(bad == 0, "%s: %u e-cube paths not minimal or not dimension-ordered", t->ops->name, bad);
}

int main(void)
{
    mpp_topo t;
    build(&t, "mesh", 5, 7);
    ecube_paths(&t);
    /* the first hop of 0 -> 8 on a 5x7 mesh goes East (X first) */
    CHECK(mpp_routing_dor_port(&t, 0, 8) == 0);
    CHECK(mpp_routing_dor_port_yx(&t, 0, 8) == 2);
    mpp_topo_free(&t);
    build(&t, "mesh", 4, 4);
    ecube_paths(&t);
    mpp_topo_free(&t);
    build(&t, "hypercube", 5, 0);
    ecube_paths(&t);
    CHECK(mpp_routing_dor_port(&t, 0, 0x13) == 4); /* highest differing bit */
    mpp_topo_free(&t);
    build(&t, "hypercube", 4, 0);
    ecube_paths(&t);
    mpp_topo_free(&t);

    CHECK(mpp_routing_find("dor") == mpp_routing_find("ecube"));
    CHECK(mpp_routing_find("no-such-router") == NULL);

    /* conformance: every plug-in reaches every destination on every
     * topology it supports */
    const char *tn[] = {"mesh", "hypercube"};
    uint32_t ta[] = {4, 4}, tb[] = {5, 0};
    for (const mpp_routing_ops *const *o = mpp_routing_all(); *o; o++) {
        CHECK((*o)->name && (*o)->help && (*o)->route && (*o)->supports && (*o)->route_classes);
        CHECK((*o)->schema.size <= MPP_BLOB_SIZE);
        for (int k = 0; k < 2; k++) {
            build(&t, tn[k], ta[k], tb[k]);
            mpp_err err;
            mpp_blob cfg;
            memset(&cfg, 0, sizeof cfg);
            if ((*o)->supports(&t, cfg.b, &err)) {
                CHECK((*o)->route_classes(&t, cfg.b) >= 1);
                mpp_rng rng;
                mpp_rng_init(&rng, 3, MPP_RNG_ROUTER, 1);
                uint32_t bad = 0;
                for (uint32_t s = 0; s < t.nodes; s++)
                    for (uint32_t d = 0; d < t.nodes; d++)
                        if (walk(&t, *o, s, d, NULL, &rng) < 0)
                            bad++;
                CHECKF(bad == 0, "%s on %s: %u pairs not delivered", (*o)->name, tn[k], bad);
            } else {
                CHECK(err.msg[0] != '\0');
            }
            mpp_topo_free(&t);
        }
    }
    TEST_DONE();
}
