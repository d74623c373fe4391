/* core/topo.c — shared construction of topology descriptions
 * (see topo.h for the port and link conventions and invariants). The
 * arrays are allocated once here and freed by mpp_topo_free. */
#include "core/topo.h"

#include <stdio.h>
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
    t->node_router = malloc((nodes + 1) * sizeof *t->node_router);
    if (!t->port_base || !t->port_peer || !t->port_router || !t->node_link_base ||
        !t->link_port || !t->link_node || !t->node_router) {
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
        t->node_router[n] = MPP_TOPO_NONE;
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
    if (k == 0)
        t->node_router[n] = r;
}

int mpp_topo_attach_eject(mpp_topo *t, uint32_t n, uint32_t k, uint32_t r, uint32_t p,
                          mpp_err *err)
{
    if (!t->link_eject) {
        t->link_eject = malloc((t->links + 1) * sizeof *t->link_eject);
        if (!t->link_eject)
            return mpp_err_set(err, MPP_ENOMEM, "out of memory");
        memcpy(t->link_eject, t->link_port, t->links * sizeof *t->link_eject);
    }
    uint32_t l = t->node_link_base[n] + k;
    uint32_t g = t->port_base[r] + p;
    t->link_eject[l] = g;
    t->port_peer[g] = MPP_TOPO_NODE | l;
    return 0;
}

int mpp_topo_size_of(const mpp_topo_ops *ops, const void *cfg, bool all_port,
                     mpp_topo_size *out, mpp_err *err)
{
    memset(out, 0, sizeof *out);
    int rc = ops->size(cfg, out, err);
    if (rc)
        return rc;
    if (all_port && out->links == out->nodes && out->ports > 2 * out->nodes) {
        /* at most one link per router-router port: the ports that are
         * not a node's (mpp_topo_all_port) */
        uint64_t rr = out->ports - out->nodes;
        out->ports += rr - out->nodes;
        out->links = rr;
    }
    uint64_t ne = out->ports + out->links;
    if (ne >= MPP_TOPO_MAX_ENDPOINTS)
        return mpp_err_set(err, MPP_EINVAL,
                           "%s: %llu nodes, %llu routers and %llu channel endpoints (router "
                           "ports + node links%s) are above the limit of 2^26 - 1 = %u "
                           "endpoints (docs/config.md, \"Sizes\")",
                           ops->name, (unsigned long long)out->nodes,
                           (unsigned long long)out->routers, (unsigned long long)ne,
                           all_port ? ", node.ports: all" : "", MPP_TOPO_MAX_ENDPOINTS - 1);
    return 0;
}

uint64_t mpp_topo_bytes(const mpp_topo_size *sz)
{
    /* per router: port_base, radix (setup's table) and all-port's two
     * tables; per port: port_peer, port_router (pair_link with all-port);
     * per link: link_port, link_node; per node: node_link_base,
     * node_router, links per node; link_eject per split link */
    return 16 * sz->routers + 12 * sz->ports + 8 * sz->links + 12 * sz->nodes +
           4 * sz->split_links + sz->priv_bytes + 4096;
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

/* The wiring arrays that mpp_topo_alloc allocates (mpp_topo_all_port
 * replaces them). */
static void free_wiring(mpp_topo *t)
{
    free(t->port_base);
    free(t->port_peer);
    free(t->port_router);
    free(t->node_link_base);
    free(t->link_port);
    free(t->link_node);
    free(t->node_router);
    free(t->link_eject);
}

void mpp_topo_free(mpp_topo *t)
{
    if (!t)
        return;
    if (t->ops && t->ops->destroy)
        t->ops->destroy(t);
    free_wiring(t);
    free(t->pair_link);
    free(t->plugin_ports);
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
            if (l >= t->links ||
                (t->link_port[l] != g && !(t->link_eject && t->link_eject[l] == g)))
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
    for (uint32_t l = 0; t->link_eject && l < t->links; l++)
        if (t->link_eject[l] >= t->ports ||
            t->port_peer[t->link_eject[l]] != (MPP_TOPO_NODE | l))
            return false;
    for (uint32_t n = 0; n < t->nodes; n++)
        if (t->node_router[n] != t->port_router[t->link_port[t->node_link_base[n]]])
            return false;
    if (t->pair_link)
        for (uint32_t g = 0; g < t->ports; g++) {
            uint32_t l = t->pair_link[g], p = t->port_peer[g];
            if (l == MPP_TOPO_NONE)
                continue;
            if (l >= t->links || p == MPP_TOPO_NONE || (p & MPP_TOPO_NODE) ||
                t->port_router[t->link_port[l]] != t->port_router[g])
                return false;
        }
    return true;
}

bool mpp_topo_multi_link(const mpp_topo *t)
{
    for (uint32_t n = 0; n < t->nodes; n++)
        if (t->node_link_base[n + 1] - t->node_link_base[n] > 1)
            return true;
    return false;
}

/* Router-router ports of router r (connected to another router). */
static uint32_t rr_ports(const mpp_topo *t, uint32_t r)
{
    uint32_t k = 0;
    for (uint32_t g = t->port_base[r]; g < t->port_base[r + 1]; g++)
        k += t->port_peer[g] != MPP_TOPO_NONE && !(t->port_peer[g] & MPP_TOPO_NODE);
    return k;
}

int mpp_topo_all_port(mpp_topo *t, mpp_err *err)
{
    uint32_t R = t->routers, N = t->nodes, maxk = 0;
    const char *name = t->ops ? t->ops->name : "topology";
    if (t->link_eject)
        return mpp_err_set(err, MPP_EINVAL,
                           "node.ports: all is refused on the %s topology: a node's one link "
                           "injects at one router and ejects at another, with no router-router "
                           "port of its own to pair more links with",
                           name);
    if (t->port_len)
        return mpp_err_set(err, MPP_EINVAL,
                           "node.ports: all is refused on the %s topology: its links have "
                           "lengths of their own (set noc_latency: false)",
                           name);
    if (t->links != N || t->pair_link)
        return mpp_err_set(err, MPP_EINVAL,
                           "node.ports: all on the %s topology: its nodes already have several "
                           "links (ports: auto uses them all)",
                           name);
    uint32_t *node_at = malloc((R + 1) * sizeof *node_at);
    uint32_t *radix = malloc((R + 1) * sizeof *radix);
    uint32_t *k = malloc((N + 1) * sizeof *k);
    mpp_topo nt;
    memset(&nt, 0, sizeof nt);
    int rc = 0;
    if (!node_at || !radix || !k) {
        rc = mpp_err_set(err, MPP_ENOMEM, "out of memory building the all-port topology");
        goto out;
    }
    for (uint32_t r = 0; r < R; r++) {
        node_at[r] = MPP_TOPO_NONE;
        radix[r] = t->port_base[r + 1] - t->port_base[r];
    }
    for (uint32_t n = 0; n < N; n++) {
        uint32_t r = t->node_router[n];
        if (node_at[r] != MPP_TOPO_NONE) {
            rc = mpp_err_set(err, MPP_EINVAL,
                             "node.ports: all is refused on this %s: every node has a single "
                             "link, and router %u serves several nodes, so its router-router "
                             "ports cannot be paired with one node's extra links; use ports: "
                             "one or auto",
                             name, r);
            goto out;
        }
        node_at[r] = n;
        uint32_t rr = rr_ports(t, r);
        k[n] = rr > 1 ? rr : 1;
        if (k[n] > maxk)
            maxk = k[n];
        radix[r] += k[n] - 1;
    }
    if (maxk <= 1) {
        rc = mpp_err_set(err, MPP_EINVAL,
                         "node.ports: all is refused on this %s: no node has more than one "
                         "link (every router has at most one router-router port, so all-port "
                         "would be one-port); use ports: one or auto",
                         name);
        goto out;
    }
    rc = mpp_topo_alloc(&nt, R, radix, N, k, err);
    if (rc)
        goto out;
    nt.pair_link = malloc((nt.ports + 1) * sizeof *nt.pair_link);
    nt.plugin_ports = malloc((R + 1) * sizeof *nt.plugin_ports);
    if (!nt.pair_link || !nt.plugin_ports) {
        rc = mpp_err_set(err, MPP_ENOMEM, "out of memory building the all-port topology");
        goto out;
    }
    for (uint32_t g = 0; g < nt.ports; g++)
        nt.pair_link[g] = MPP_TOPO_NONE;
    for (uint32_t r = 0; r < R; r++) {
        uint32_t np = t->port_base[r + 1] - t->port_base[r], j = 0;
        uint32_t n = node_at[r];
        nt.plugin_ports[r] = np;
        for (uint32_t p = 0; p < np; p++) {
            uint32_t g = t->port_base[r] + p, peer = t->port_peer[g];
            if (peer == MPP_TOPO_NONE)
                continue;
            if (peer & MPP_TOPO_NODE) {
                /* link 0 stays on the plug-in's local port */
                mpp_topo_attach(&nt, n, 0, r, p);
                continue;
            }
            uint32_t q = t->port_router[peer];
            mpp_topo_connect(&nt, r, p, q, peer - t->port_base[q]);
            /* the j-th router-router port is paired with link j */
            if (n != MPP_TOPO_NONE && j < k[n])
                nt.pair_link[nt.port_base[r] + p] = nt.node_link_base[n] + j;
            j++;
        }
        if (n != MPP_TOPO_NONE)
            for (uint32_t l = 1; l < k[n]; l++)
                mpp_topo_attach(&nt, n, l, r, np + l - 1);
    }
    /* the new arrays replace the old; the plug-in's data stays */
    free_wiring(t);
    t->ports = nt.ports;
    t->links = nt.links;
    t->max_radix = nt.max_radix;
    t->port_base = nt.port_base;
    t->port_peer = nt.port_peer;
    t->port_router = nt.port_router;
    t->node_link_base = nt.node_link_base;
    t->link_port = nt.link_port;
    t->link_node = nt.link_node;
    t->node_router = nt.node_router;
    t->pair_link = nt.pair_link;
    t->plugin_ports = nt.plugin_ports;
    memset(&nt, 0, sizeof nt);
out:
    mpp_topo_free(&nt);
    free(node_at);
    free(radix);
    free(k);
    return rc;
}

void mpp_topo_port_name(const mpp_topo *t, uint32_t r, uint32_t p, char *buf, int len)
{
    if (t->plugin_ports && p >= t->plugin_ports[r])
        snprintf(buf, (size_t)len, "link%u", p - t->plugin_ports[r] + 1);
    else
        t->ops->port_name(t, r, p, buf, len);
}
