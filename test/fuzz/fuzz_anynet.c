/* test/fuzz/fuzz_anynet.c — libFuzzer harness of the anynet edge-list
 * reader (topologies/anynet.c): the input is the file; it is refused with
 * a message that names the file (FILE:LINE:COLUMN for what a line says), or
 * it builds a topology that holds mpp_topo_check, has every port
 * connected, agrees with the size the plug-in predicted, and on which
 * anynet-min's table delivers every packet in distance() hops (small
 * networks: up to 64 nodes). */
#include "test/fuzz/fuzz_util.h"

#include "core/base/param.h"
#include "routers/routing.h"
#include "topologies/topology.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Hops from s to d by the routing, or -1. */
static int walk(const mpp_topo *t, const mpp_routing_ops *m, void *priv, uint32_t s, uint32_t d)
{
    mpp_route_state st;
    mpp_route_state_init(&st, t, s, d);
    uint32_t r = t->node_router[s];
    for (int h = 0; h <= (int)t->routers; h++) {
        mpp_route_out out;
        m->route(t, NULL, priv, r, 0, &st, NULL, &out);
        if (out.port >= t->port_base[r + 1] - t->port_base[r])
            return -1;
        uint32_t peer = t->port_peer[t->port_base[r] + out.port];
        if (peer == MPP_TOPO_NONE)
            return -1;
        if (peer & MPP_TOPO_NODE)
            return t->link_node[peer & ~MPP_TOPO_NODE] == d ? h : -1;
        r = t->port_router[peer];
    }
    return -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, NULL);
    const mpp_topo_ops *ops = mpp_topo_find("anynet");
    mpp_blob cfg;
    memset(&cfg, 0, sizeof cfg);
    mpp_schema_defaults(&ops->schema, cfg.b);
    if (mpp_param_set_text(mpp_schema_find(&ops->schema, "file"), path, 0, cfg.b))
        abort();
    mpp_err err;
    err.msg[0] = 0;
    mpp_topo_size sz = {0};
    int rs = ops->size(cfg.b, &sz, &err);
    mpp_topo t;
    int rc = mpp_topo_build(&t, ops, cfg.b, &err);
    if ((rs == 0) != (rc == 0))
        abort(); /* size refuses exactly what setup refuses */
    if (rc) {
        if (!strstr(err.msg, path))
            abort(); /* a refusal names the file */
        return 0;
    }
    if (!mpp_topo_check(&t) || sz.nodes != t.nodes || sz.routers != t.routers ||
        sz.ports != t.ports)
        abort();
    for (uint32_t g = 0; g < t.ports; g++)
        if (t.port_peer[g] == MPP_TOPO_NONE)
            abort();
    if (t.nodes <= 64) {
        const mpp_routing_ops *m = mpp_routing_find("anynet-min");
        void *priv = NULL;
        if (m->setup(&t, NULL, &priv, &err))
            abort();
        for (uint32_t s = 0; s < t.nodes; s++)
            for (uint32_t d = 0; d < t.nodes; d++)
                if (walk(&t, m, priv, s, d) != (int)ops->distance(&t, s, d))
                    abort();
        m->destroy(priv);
    }
    mpp_topo_free(&t);
    return 0;
}
