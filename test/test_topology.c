/* test/test_topology.c — topology plug-ins (topologies/): sizes, wiring
 * invariants, distances against breadth-first search, port names, the short
 * command-line forms and bad sizes. Runs every registered topology through
 * the same conformance checks. */
#include <stdlib.h>
#include <string.h>

#include "core/base/strbuf.h"
#include "test/testutil.h"
#include "topologies/topology.h"

/* BFS over router links from node a's router; returns hops to b's router. */
static uint32_t bfs_distance(const mpp_topo *t, uint32_t a, uint32_t b)
{
    uint32_t *dist = malloc(t->routers * sizeof *dist), *q = malloc(t->routers * sizeof *q);
    for (uint32_t r = 0; r < t->routers; r++)
        dist[r] = UINT32_MAX;
    uint32_t ra = t->port_router[t->link_port[t->node_link_base[a]]];
    uint32_t rb = t->port_router[t->link_port[t->node_link_base[b]]];
    uint32_t h = 0, tl = 0;
    dist[ra] = 0;
    q[tl++] = ra;
    while (h < tl) {
        uint32_t r = q[h++];
        for (uint32_t g = t->port_base[r]; g < t->port_base[r + 1]; g++) {
            uint32_t p = t->port_peer[g];
            if (p == MPP_TOPO_NONE || (p & MPP_TOPO_NODE))
                continue;
            uint32_t s = t->port_router[p];
            if (dist[s] == UINT32_MAX) {
                dist[s] = dist[r] + 1;
                q[tl++] = s;
            }
        }
    }
    uint32_t d = dist[rb];
    free(dist);
    free(q);
    return d;
}

static void conformance(const mpp_topo_ops *ops, const char *shortform, uint32_t want_nodes)
{
    mpp_sb sb;
    mpp_sb_init(&sb);
    mpp_err err;
    CHECK(ops->parse_short(shortform, &sb, &err) == 0);
    /* apply "key=value" lines through the schema */
    mpp_blob cfg;
    memset(&cfg, 0, sizeof cfg);
    for (size_t i = 0; i < ops->schema.nparams; i++) {
        const mpp_param *p = &ops->schema.params[i];
        if (p->type == MPP_PT_U32)
            test_set_u32(&ops->schema, &cfg, p->key, (uint32_t)strtoul(p->def, NULL, 10));
    }
    char *save = NULL;
    for (char *line = strtok_r(sb.s, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *eq = strchr(line, '=');
        CHECK(eq != NULL);
        *eq = 0;
        test_set_u32(&ops->schema, &cfg, line, (uint32_t)strtoul(eq + 1, NULL, 10));
    }
    mpp_sb_free(&sb);
    mpp_topo t;
    CHECKF(mpp_topo_build(&t, ops, cfg.b, &err) == 0, "%s", err.msg);
    CHECK(t.nodes == want_nodes);
    CHECK(mpp_topo_check(&t));
    uint32_t bad = 0;
    for (uint32_t a = 0; a < t.nodes; a++)
        for (uint32_t b = 0; b < t.nodes; b += 3)
            if (ops->distance(&t, a, b) != bfs_distance(&t, a, b))
                bad++;
    CHECKF(bad == 0, "%s: %u distances differ from BFS", ops->name, bad);
    char name[32];
    for (uint32_t p = 0; p < t.port_base[1]; p++) {
        ops->port_name(&t, 0, p, name, sizeof name);
        CHECK(name[0] != '\0');
    }
    mpp_topo_free(&t);
    mpp_topo_free(&t); /* twice is harmless */
}

int main(void)
{
    conformance(mpp_topo_find("mesh"), "5x7", 35);
    conformance(mpp_topo_find("mesh"), "1x9", 9);
    conformance(mpp_topo_find("mesh"), "8x8", 64);
    conformance(mpp_topo_find("hypercube"), "6", 64);
    conformance(mpp_topo_find("hypercube"), "1", 2);
    /* every registered topology has a name, help, setup, distance */
    for (const mpp_topo_ops *const *o = mpp_topo_all(); *o; o++) {
        CHECK((*o)->name && (*o)->help && (*o)->setup && (*o)->distance && (*o)->port_name);
        CHECK((*o)->schema.size <= MPP_BLOB_SIZE);
        CHECK(mpp_topo_find((*o)->name) == *o);
    }
    CHECK(mpp_topo_find("torus-that-does-not-exist") == NULL);

    /* mesh ports: router 0 of a 3x3 mesh has E and S only */
    mpp_blob cfg;
    memset(&cfg, 0, sizeof cfg);
    const mpp_topo_ops *mesh = mpp_topo_find("mesh");
    test_set_u32(&mesh->schema, &cfg, "rows", 3);
    test_set_u32(&mesh->schema, &cfg, "cols", 3);
    mpp_topo t;
    mpp_err err;
    CHECK(mpp_topo_build(&t, mesh, cfg.b, &err) == 0);
    CHECK(t.port_peer[0] == t.port_base[1] + 1); /* 0.E <-> 1.W */
    CHECK(t.port_peer[1] == MPP_TOPO_NONE);      /* 0.W */
    CHECK(t.port_peer[2] == t.port_base[3] + 3); /* 0.S <-> 3.N */
    CHECK(t.port_peer[4] == (MPP_TOPO_NODE | 0));
    mpp_topo_free(&t);

    /* bad sizes and short forms */
    const mpp_topo_ops *hc = mpp_topo_find("hypercube");
    memset(&cfg, 0, sizeof cfg);
    test_set_u32(&hc->schema, &cfg, "nodes", 48);
    CHECK(mpp_topo_build(&t, hc, cfg.b, &err) == MPP_EINVAL);
    CHECK(strstr(err.msg, "power-of-two") != NULL);
    memset(&cfg, 0, sizeof cfg);
    test_set_u32(&hc->schema, &cfg, "nodes", 256);
    CHECK(mpp_topo_build(&t, hc, cfg.b, &err) == 0);
    CHECK(t.nodes == 256 && t.dims[0] == 8);
    mpp_topo_free(&t);
    memset(&cfg, 0, sizeof cfg);
    test_set_u32(&mesh->schema, &cfg, "rows", 0);
    test_set_u32(&mesh->schema, &cfg, "cols", 4);
    CHECK(mpp_topo_build(&t, mesh, cfg.b, &err) == MPP_EINVAL);
    mpp_sb sb;
    mpp_sb_init(&sb);
    CHECK(mesh->parse_short("8", &sb, &err) == MPP_EINVAL);
    CHECK(mesh->parse_short("8x", &sb, &err) == MPP_EINVAL);
    CHECK(mesh->parse_short("8x8x8", &sb, &err) == MPP_EINVAL);
    CHECK(hc->parse_short("abc", &sb, &err) == MPP_EINVAL);
    CHECK(hc->parse_short("6x", &sb, &err) == MPP_EINVAL);
    mpp_sb_free(&sb);
    TEST_DONE();
}
