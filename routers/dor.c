/* routers/dor.c — dimension-order steps shared by the routing plug-ins on
 * meshes and hypercubes (see routing.h). A mesh step corrects X (columns)
 * before Y (rows); a hypercube step corrects the highest differing address
 * bit first (descending dimension order, as e-cube routing is usually
 * defined for the CM-2 / iPSC). Port numbers follow topologies/mesh.c and
 * topologies/hypercube.c. */
#include "routers/routing.h"

uint32_t mpp_routing_node_router(const mpp_topo *t, uint32_t n)
{
    return t->node_router[n];
}

/* The local port of router r that ejects to node n (r must be n's router). */
static uint32_t eject_port(const mpp_topo *t, uint32_t r, uint32_t n)
{
    return t->link_port[t->node_link_base[n]] - t->port_base[r];
}

static uint32_t mesh_step(const mpp_topo *t, uint32_t r, uint32_t to, uint32_t tr, int yx)
{
    uint32_t a = mpp_mesh_coord(t, r), b = mpp_mesh_coord(t, tr);
    uint32_t rx = a & 0xffff, ry = a >> 16, tx = b & 0xffff, ty = b >> 16;
    if (!yx) {
        if (tx != rx)
            return tx > rx ? 0 : 1;
        if (ty != ry)
            return ty > ry ? 2 : 3;
    } else {
        if (ty != ry)
            return ty > ry ? 2 : 3;
        if (tx != rx)
            return tx > rx ? 0 : 1;
    }
    return eject_port(t, r, to);
}

uint32_t mpp_routing_dor_step(const mpp_topo *t, uint32_t r, uint32_t to, uint32_t tr)
{
    if (t->kind == MPP_TOPO_MESH)
        return mesh_step(t, r, to, tr, 0);
    uint32_t diff = r ^ tr;
    if (diff)
        return 31u - (uint32_t)__builtin_clz(diff);
    return eject_port(t, r, to);
}

uint32_t mpp_routing_dor_port(const mpp_topo *t, uint32_t r, uint32_t to)
{
    return mpp_routing_dor_step(t, r, to, mpp_routing_node_router(t, to));
}

uint32_t mpp_routing_dor_port_yx(const mpp_topo *t, uint32_t r, uint32_t to)
{
    if (t->kind == MPP_TOPO_MESH)
        return mesh_step(t, r, to, mpp_routing_node_router(t, to), 1);
    return mpp_routing_dor_port(t, r, to);
}

void mpp_routing_phase_advance(const mpp_topo *t, uint32_t r, mpp_route_state *st)
{
    while (st->phase + 1 < st->nphases && r == mpp_routing_node_router(t, st->target[st->phase]))
        st->phase++;
}
