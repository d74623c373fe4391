/* core/topo.c — shared construction of topology descriptions
 * (see topo.h for the port and link conventions and invariants). The
 * arrays are allocated once here and freed by mpp_topo_free. */
#include "core/topo.h"

#include <stdlib.h>
#include <string.h>

int mpp_topo_alloc(mpp_topo *t, uint32_t routers, const uint32_t *radix, uint32_t nodes,
                   const uint32_t *links_per_node, mpp_err *err)
{
    uint64_t ports = 0, links = 0;
    uint32_t maxr = 0;
    for (uint32_t r = 0; r < routers; r++) {
        ports += radix[r];
        if (radix[r] > maxr)
            maxr = radix[r];
    }
    for (uint32_t n = 0; n < nodes; n++)
        links += links_per_node ? links_per_node[n] : 1;
    if (ports >= MPP_TOPO_NODE || links >= MPP_TOPO_NODE)
        return mpp_err_set(err, MPP_EINVAL, "topology too large (%llu ports)",
                           (unsigned long long)ports);
    t->routers = routers;
    t->nodes = nodes;
    t->ports = (uint32_t)ports;
    t->links = (uint32_t)links;
    t->max_radix = maxr;
    t->port_base = malloc((routers + 1) * sizeof *t->port_base);
    t->port_peer = malloc((ports + 1) * sizeof *t->port_peer);
    t->port_router = malloc((ports + 1) * sizeof *t->port_router);
    t->node_link_base = malloc((nodes + 1) * sizeof *t->node_link_base);
    t->link_port = malloc((links + 1) * sizeof *t->link_port);
    t->link_node = malloc((links + 1) * sizeof *t->link_node);
    if (!t->port_base || !t->port_peer || !t->port_router || !t->node_link_base ||
        !t->link_port || !t->link_node) {
        mpp_topo_free(t);
        return mpp_err_set(err, MPP_ENOMEM, "out of memory building the topology");
    }
    uint32_t g = 0;
    for (uint32_t r = 0; r < routers; r++) {
        t->port_base[r] = g;
        for (uint32_t p = 0; p < radix[r]; p++) {
            t->port_router[g] = r;
            t->port_peer[g++] = MPP_TOPO_NONE;
        }
    }
    t->port_base[routers] = g;
    uint32_t l = 0;
    for (uint32_t n = 0; n < nodes; n++) {
        t->node_link_base[n] = l;
        uint32_t k = links_per_node ? links_per_node[n] : 1;
        for (uint32_t i = 0; i < k; i++) {
            t->link_node[l] = n;
            t->link_port[l++] = MPP_TOPO_NONE;
        }
    }
    t->node_link_base[nodes] = l;
    return 0;
}

void mpp_topo_connect(mpp_topo *t, uint32_t r, uint32_t p, uint32_t q, uint32_t s)
{
    uint32_t a = t->port_base[r] + p, b = t->port_base[q] + s;
    t->port_peer[a] = b;
    t->port_peer[b] = a;
}

void mpp_topo_attach(mpp_topo *t, uint32_t n, uint32_t k, uint32_t r, uint32_t p)
{
    uint32_t l = t->node_link_base[n] + k;
    uint32_t g = t->port_base[r] + p;
    t->link_port[l] = g;
    t->port_peer[g] = MPP_TOPO_NODE | l;
}

int mpp_topo_build(mpp_topo *t, const mpp_topo_ops *ops, const void *cfg, mpp_err *err)
{
    memset(t, 0, sizeof *t);
    t->ops = ops;
    int rc = ops->setup(t, cfg, err);
    if (rc) {
        mpp_topo_free(t);
        return rc;
    }
    return 0;
}

void mpp_topo_free(mpp_topo *t)
{
    if (!t)
        return;
    if (t->ops && t->ops->destroy)
        t->ops->destroy(t);
    free(t->port_base);
    free(t->port_peer);
    free(t->port_router);
    free(t->node_link_base);
    free(t->link_port);
    free(t->link_node);
    const mpp_topo_ops *ops = t->ops;
    memset(t, 0, sizeof *t);
    t->ops = ops;
}

bool mpp_topo_check(const mpp_topo *t)
{
    for (uint32_t g = 0; g < t->ports; g++) {
        uint32_t p = t->port_peer[g];
        if (p == MPP_TOPO_NONE)
            continue;
        if (p & MPP_TOPO_NODE) {
            uint32_t l = p & ~MPP_TOPO_NODE;
            if (l >= t->links || t->link_port[l] != g)
                return false;
        } else if (p >= t->ports || t->port_peer[p] != g) {
            return false;
        }
    }
    for (uint32_t n = 0; n < t->nodes; n++)
        if (t->node_link_base[n + 1] <= t->node_link_base[n])
            return false;
    for (uint32_t l = 0; l < t->links; l++)
        if (t->link_port[l] >= t->ports || t->port_peer[t->link_port[l]] != (MPP_TOPO_NODE | l))
            return false;
    return true;
}
