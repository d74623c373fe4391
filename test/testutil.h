/* test/testutil.h — tiny helpers shared by the C tests: CHECK records a
 * failure and carries on; TEST_DONE returns the exit status (0 pass, 1 fail).
 * Configuration helpers set plug-in keys through the plug-ins' own schema
 * tables, exactly as the YAML layer does. */
#ifndef MPP_TEST_TESTUTIL_H
#define MPP_TEST_TESTUTIL_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/patterns.h"
#include "algorithms/workloads.h"
#include "core/config/experiment.h"
#include "core/config/simcfg.h"
#include "core/sim.h"
#include "core/workload.h"
#include "routers/routing.h"
#include "topologies/topology.h"

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

/* Build topology `name` with its defaults and the text settings kv (key,
 * value, ..., NULL), as a YAML section would give them. 0, or -1 after a
 * message. */
static inline int test_build_topo(mpp_topo *t, const char *name, const char *const *kv)
{
    const mpp_topo_ops *ops = mpp_topo_find(name);
    mpp_blob cfg;
    memset(&cfg, 0, sizeof cfg);
    mpp_schema_defaults(&ops->schema, cfg.b);
    for (; kv && kv[0]; kv += 2)
        if (mpp_param_set_text(mpp_schema_find(&ops->schema, kv[0]), kv[1], 0, cfg.b)) {
            fprintf(stderr, "%s: bad %s=%s\n", name, kv[0], kv[1]);
            return -1;
        }
    mpp_err err;
    if (mpp_topo_build(t, ops, cfg.b, &err)) {
        fprintf(stderr, "build %s: %s\n", name, err.msg);
        return -1;
    }
    return 0;
}

/* Set configuration key `key` (as in YAML: "workload.rate",
 * "network.mesh.rows") to the printf-formatted value, through the same
 * schemas as a file; a failure is a failed check. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static inline void test_set(mpp_sim_config *c, const char *key, const char *fmt, ...)
{
    char value[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(value, sizeof value, fmt, ap);
    va_end(ap);
    mpp_err err;
    if (mpp_config_set(c, key, value, &err)) {
        fprintf(stderr, "test_set(%s, %s): %s\n", key, value, err.msg);
        test_failures++;
    }
}

static inline void test_mesh(mpp_sim_config *c, uint32_t rows, uint32_t cols)
{
    test_set(c, "network.topology", "mesh");
    test_set(c, "network.mesh.rows", "%u", rows);
    test_set(c, "network.mesh.cols", "%u", cols);
}

static inline void test_hcube(mpp_sim_config *c, uint32_t dim)
{
    test_set(c, "network.topology", "hypercube");
    test_set(c, "network.hypercube.dim", "%u", dim);
}

/* Read the current workload's key `key` (its own schema, not a plug-in's)
 * as a number (integers, reals, booleans, enum indexes) or, for a plug-in
 * selector, its ops table. NaN / NULL when there is no such key. */
static inline double test_wl_num(const mpp_sim_config *c, const char *key)
{
    const mpp_param *p = c->workload.ops ? mpp_schema_find(&c->workload.ops->schema, key) : NULL;
    if (!p)
        return 0.0 / 0.0;
    const unsigned char *src = c->workload.cfg.b + p->offset;
    switch (p->type) {
    case MPP_PT_U32: {
        uint32_t v;
        memcpy(&v, src, sizeof v);
        return v;
    }
    case MPP_PT_U64:
    case MPP_PT_BYTES:
    case MPP_PT_CYCLES: {
        uint64_t v;
        memcpy(&v, src, sizeof v);
        return (double)v;
    }
    case MPP_PT_DOUBLE: {
        double v;
        memcpy(&v, src, sizeof v);
        return v;
    }
    case MPP_PT_BOOL: {
        bool v;
        memcpy(&v, src, sizeof v);
        return v;
    }
    case MPP_PT_ENUM: {
        int v;
        memcpy(&v, src, sizeof v);
        return v;
    }
    default:
        return 0.0 / 0.0;
    }
}

static inline const void *test_wl_plugin(const mpp_sim_config *c, const char *key)
{
    const mpp_param *p = c->workload.ops ? mpp_schema_find(&c->workload.ops->schema, key) : NULL;
    const void *ops = NULL;
    if (p && p->type == MPP_PT_PLUGIN)
        memcpy(&ops, c->workload.cfg.b + p->offset, sizeof ops);
    return ops;
}

/* A workload for tests: node programs given from C (prog[nodes], owned by
 * the test; NULL: none), on every NIC interface. */
typedef struct test_prog_cfg {
    const mpp_program *prog;
} test_prog_cfg;

static inline int test_prog_setup(mpp_sim *s, const void *cfg, void **priv, mpp_err *err)
{
    const test_prog_cfg *c = cfg;
    (void)priv;
    return c->prog ? mpp_sim_programs(s, c->prog, err) : 0;
}

static const mpp_workload_ops test_programs_workload = {
    .name = "test-programs",
    .help = "node programs given by a test",
    .schema = {NULL, 0, sizeof(test_prog_cfg)},
    .flags = MPP_WL_NODES,
    .setup = test_prog_setup,
    .summary = mpp_summary_nodes,
    .nsummary = MPP_SUMMARY_NODES_N,
};

static inline void test_use_programs(mpp_sim_config *c, const mpp_program *prog)
{
    test_prog_cfg pc = {prog};
    c->workload.ops = &test_programs_workload;
    memset(c->workload.cfg.b, 0, sizeof c->workload.cfg.b);
    memcpy(c->workload.cfg.b, &pc, sizeof pc);
}

/* Parse an experiment's text (with nov overrides ov), build its first run
 * and run it: the simulation (the caller destroys it), or NULL after a
 * failed CHECK. */
static inline mpp_sim *test_run_text(const char *text, size_t nov, const char *const *ov)
{
    mpp_err err;
    mpp_experiment *e = mpp_experiment_parse(text, "t.yaml", nov, ov, &err);
    CHECKF(e != NULL, "%s", err.msg);
    if (!e)
        return NULL;
    mpp_sim *s = mpp_sim_create(mpp_experiment_config(e, 0), &err);
    CHECKF(s != NULL, "%s", err.msg);
    if (s && mpp_sim_run(s, NULL, NULL, &err)) {
        CHECKF(0, "run: %s", err.msg);
        mpp_sim_destroy(s);
        s = NULL;
    }
    mpp_experiment_destroy(e);
    return s;
}

/* Make a fresh directory $TMPDIR/NAME.XXXXXX (/tmp without TMPDIR) into
 * buf; 0, or -1 after printing why. */
static inline int test_mkdtemp(const char *name, char *buf, size_t len)
{
    const char *t = getenv("TMPDIR");
    int n = snprintf(buf, len, "%s/%s.XXXXXX", t && *t ? t : "/tmp", name);
    if (n < 0 || (size_t)n >= len || !mkdtemp(buf)) {
        perror("mkdtemp");
        return -1;
    }
    return 0;
}

/* Remove a test's temporary directory and everything in it (a note on
 * stderr when that fails; the test's result does not depend on it). */
static inline void test_rmdtemp(const char *dir)
{
    char cmd[600];
    int n = snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (n < 0 || (size_t)n >= sizeof cmd || system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
}

/* An experiment's text whose first run the setup must refuse with
 * MPP_EINVAL and a message containing `part`. */
static inline void test_setup_refused(const char *text, const char *part)
{
    mpp_err err;
    mpp_experiment *e = mpp_experiment_parse(text, "t.yaml", 0, NULL, &err);
    CHECKF(e != NULL, "%s: %s", text, err.msg);
    if (!e)
        return;
    mpp_sim *s = mpp_sim_create(mpp_experiment_config(e, 0), &err);
    CHECKF(s == NULL && err.code == MPP_EINVAL && strstr(err.msg, part), "%s: %s", text,
           s ? "accepted" : err.msg);
    mpp_sim_destroy(s);
    mpp_experiment_destroy(e);
}

#endif
