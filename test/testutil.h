/* test/testutil.h — tiny helpers shared by the C tests: CHECK records a
 * failure and carries on; TEST_DONE returns the exit status (0 pass, 1 fail).
 * Configuration helpers set plug-in keys through the plug-ins' own schema
 * tables, exactly as the YAML layer does. */
#ifndef MPP_TEST_TESTUTIL_H
#define MPP_TEST_TESTUTIL_H

#include <stdio.h>
#include <string.h>

#include "core/sim.h"
#include "topologies/topology.h"
#include "routers/routing.h"
#include "algorithms/patterns.h"

static int test_failures;

#define CHECK(cond)                                                                   \
    do {                                                                              \
        if (!(cond)) {                                                                \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
            test_failures++;                                                          \
        }                                                                             \
    } while (0)

#define CHECKF(cond, ...)                                                             \
    do {                                                                              \
        if (!(cond)) {                                                                \
            fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                             \
            fputc('\n', stderr);                                                      \
            test_failures++;                                                          \
        }                                                                             \
    } while (0)

#define TEST_DONE()                                                       \
    do {                                                                  \
        if (test_failures)                                                \
            fprintf(stderr, "%d check(s) failed\n", test_failures);      \
        return test_failures ? 1 : 0;                                     \
    } while (0)

/* Set integer key `key` of a plug-in config blob through its schema. */
static inline int test_set_u32(const mpp_schema *sc, mpp_blob *b, const char *key, uint32_t v)
{
    for (size_t i = 0; i < sc->nparams; i++)
        if (strcmp(sc->params[i].key, key) == 0) {
            if (sc->params[i].type == MPP_PT_U32) {
                memcpy(b->b + sc->params[i].offset, &v, sizeof v);
                return 0;
            }
        }
    fprintf(stderr, "test_set_u32: no u32 key %s\n", key);
    return -1;
}

static inline void test_mesh(mpp_sim_config *c, uint32_t rows, uint32_t cols)
{
    c->net.topo = mpp_topo_find("mesh");
    memset(&c->net.topo_cfg, 0, sizeof c->net.topo_cfg);
    test_set_u32(&c->net.topo->schema, &c->net.topo_cfg, "rows", rows);
    test_set_u32(&c->net.topo->schema, &c->net.topo_cfg, "cols", cols);
}

static inline void test_hcube(mpp_sim_config *c, uint32_t dim)
{
    c->net.topo = mpp_topo_find("hypercube");
    memset(&c->net.topo_cfg, 0, sizeof c->net.topo_cfg);
    test_set_u32(&c->net.topo->schema, &c->net.topo_cfg, "dim", dim);
}

#endif
