/* routers/cmesh_dor.c — dimension-order routing on BookSim's concentrated
 * mesh (topologies/cmesh.c), in BookSim's two forms
 * (src/networks/cmesh.cpp):
 *
 *   cmesh-dor      (BookSim's dor_no_express_cmesh): X to the destination
 *                  router's column on the E/W ports, then Y on S/N; the
 *                  express links are never taken.
 *   cmesh-express  (BookSim's dor_cmesh): the same order, but a router on
 *                  row 0 (row k-1) that must travel more than k/2 - 1
 *                  columns takes its N (S) port, the express link to the
 *                  router k/2 columns along its row; likewise a router on
 *                  column 0 (k-1) that must travel more than k/2 - 1 rows
 *                  takes W (E), the express link along its column.
 *
 * At the destination router the packet leaves by the destination node's
 * port. One route class. Deadlock freedom (mppnet check --deadlock checks
 * both on every cmesh it is given):
 *   1. a route makes every X hop before any Y hop, and an X hop never
 *      increases the distance in columns to the destination router nor
 *      changes row (an express link on row 0 joins columns x and x + k/2
 *      of row 0, and is taken only toward a column at least k/2 away, so
 *      it lands at or before the destination column);
 *   2. so the channels a packet holds while moving east (E links, and the
 *      row express links taken eastward) strictly increase the column, and
 *      likewise west, south and north: every channel dependency goes from
 *      an X channel to a later X channel of the same direction, or to a Y
 *      channel, or from a Y channel to a later Y channel of the same
 *      direction — an order with no cycle (Dally and Seitz). */
#include "routers/routing.h"

/* Router r's local port toward router tr in cmesh dimension order
 * (ports c + 0..3 = +x -x +y -y), with BookSim's express rule when
 * `express`. r != tr. */
static uint32_t cm_step(const mpp_topo *t, uint32_t r, uint32_t tr, bool express)
{
    uint32_t k = t->dims[0], c = t->dims[3];
    uint32_t x = r % k, y = r / k, dx = tr % k, dy = tr / k;
    uint32_t far = k / 2 - 1; /* BookSim: an express hop when the gap is > k/2 - 1 */
    if (x != dx) {
        uint32_t gap = x < dx ? dx - x : x - dx;
        if (express && gap > far) {
            if (y == 0)
                return c + 3;
            if (y == k - 1)
                return c + 2;
        }
        return x < dx ? c + 0 : c + 1;
    }
    uint32_t gap = y < dy ? dy - y : y - dy;
    if (express && gap > far) {
        if (x == 0)
            return c + 1;
        if (x == k - 1)
            return c + 0;
    }
    return y < dy ? c + 2 : c + 3;
}

/* The port of router r toward node `to` (its router tr). */
static uint32_t cm_port(const mpp_topo *t, uint32_t r, uint32_t to, uint32_t tr, bool express)
{
    if (r == tr)
        return t->link_port[t->node_link_base[to]] - t->port_base[r];
    return cm_step(t, r, tr, express);
}

static bool cm_supports(const mpp_topo *t, const void *cfg, mpp_err *err)
{
    if (t->kind == MPP_TOPO_CMESH)
        return true;
    mpp_err_set(err, MPP_EINVAL,
                "routers 'cmesh-dor' and 'cmesh-express' support only the cmesh topology, not "
                "'%s'",
                t->ops->name);
    return false;
}

static uint32_t cm_classes(const mpp_topo *t, const void *cfg) { return 1; }

static void cmd_route(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                      uint32_t in_port, mpp_route_state *st, mpp_rng *rng, mpp_route_out *out)
{
    out->route_class = 0;
    out->port = cm_port(t, r, st->dst, st->dst_router, false);
}

static void cmx_route(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                      uint32_t in_port, mpp_route_state *st, mpp_rng *rng, mpp_route_out *out)
{
    out->route_class = 0;
    out->port = cm_port(t, r, st->dst, st->dst_router, true);
}

static void cmd_relation(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                         uint32_t in_port, uint32_t cls, uint32_t to, uint32_t flags,
                         mpp_route_emit emit, void *ud)
{
    mpp_route_hop h = {.port = cm_port(t, r, to, t->node_router[to], false), .to = to};
    emit(ud, &h);
}

static void cmx_relation(const mpp_topo *t, const void *cfg, void *priv, uint32_t r,
                         uint32_t in_port, uint32_t cls, uint32_t to, uint32_t flags,
                         mpp_route_emit emit, void *ud)
{
    mpp_route_hop h = {.port = cm_port(t, r, to, t->node_router[to], true), .to = to};
    emit(ud, &h);
}

static const char *const cmd_aliases[] = {"dor_no_express_cmesh", NULL};
static const char *const cmx_aliases[] = {"dor_cmesh", NULL};

const mpp_routing_ops mpp_routing_cmesh_dor = {
    .name = "cmesh-dor",
    .aliases = cmd_aliases,
    .help = "cmesh: X then Y between routers, express links unused (BookSim's "
            "dor_no_express)",
    .supports = cm_supports,
    .route_classes = cm_classes,
    .route = cmd_route,
    .relation = cmd_relation,
};

const mpp_routing_ops mpp_routing_cmesh_express = {
    .name = "cmesh-express",
    .aliases = cmx_aliases,
    .help = "cmesh: X then Y, taking an edge's express link for a gap above k/2 - 1 "
            "(BookSim's dor on cmesh)",
    .supports = cm_supports,
    .route_classes = cm_classes,
    .route = cmx_route,
    .relation = cmx_relation,
};
