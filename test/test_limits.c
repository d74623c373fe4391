/* test/test_limits.c — every numeric key of every schema at its maximum and
 * one past it (docs/config.md, "Arithmetic").
 *
 * The schemas are walked from their roots, not listed by hand: the engine's
 * sections (network, node, run) and every plug-in of every family the
 * configuration layer can reach — the families registered with a selector
 * (topologies, routings, workloads) and every family a plug-in's own rows
 * select (traffic patterns, schedulers, broadcasts, collectives), found by
 * following MPP_PT_PLUGIN rows — so a plug-in or family added later is
 * tested without a line here. For each integer row (U32, U64, BYTES,
 * CYCLES, and the items of U32 lists) and each DOUBLE row:
 *   1. the row has an upper bound (run.seed excepted: a name, never summed);
 *   2. the maximum converts through the configuration layer
 *      (mpp_cfgtree_convert, the path of every YAML value and override);
 *   3. max + 1 (the next double above the maximum) is refused with a message
 *      naming the key and the maximum;
 *   4. the maxima bound the sums the engine forms (docs/config.md,
 *      "Arithmetic"): cycle keys <= 2^48, byte sizes <= 2^48, counts
 *      (U64) <= 2^48, so a window sum warmup + (1 + drain_factor) x measure
 *      and a cost x count stay far below 2^64.
 * Then the checked-arithmetic helpers (core/base/ckd.h) at their edges, and
 * the engine's own refusal of a window that wraps. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/bcast.h"
#include "algorithms/coll.h"
#include "algorithms/schedule.h"
#include "core/base/ckd.h"
#include "core/config/cfgtree.h"
#include "core/schema.h"
#include "testutil.h"

#define MAX_FAMILIES 32

static const mpp_family *seen[MAX_FAMILIES];
static size_t nseen;
static unsigned rows_checked;

/* The text of a bound as the configuration layer prints it
 * (core/config/cfgtree.c, fmt_num): integers without exponent. */
static void bound_text(double v, char *buf, size_t size)
{
    if (v == floor(v) && fabs(v) < 9007199254740992.0)
        snprintf(buf, size, "%.0f", v);
    else
        snprintf(buf, size, "%g", v);
}

/* Convert `text` as the value of row p (type t) into a scratch struct;
 * returns the conversion's status, the message in err. */
static int convert(const mpp_param *p, const char *text, const char *keypath, void *base,
                   mpp_err *err)
{
    mpp_err perr = {0};
    mpp_cfgnode *n = mpp_cfgtree_parse_value(text, "limits", &perr);
    if (!n) {
        *err = perr;
        return perr.code ? perr.code : MPP_EINVAL;
    }
    int rc = mpp_cfgtree_convert(n, p, keypath, 0, base, err);
    mpp_cfgtree_free(n);
    return rc;
}

/* Row p of schema `where` at its maximum and one past it. */
static void check_row(const char *where, const mpp_param *p, void *base)
{
    char keypath[160], in[80], out[80], maxtext[80];
    snprintf(keypath, sizeof keypath, "%s.%s", where, p->key);
    bool list = p->type == MPP_PT_U32LIST;
    mpp_err err = {0};
    if (p->type == MPP_PT_DOUBLE) {
        CHECKF(mpp_param_has_upper(p), "%s: a number without a maximum", keypath);
        if (!mpp_param_has_upper(p))
            return;
        double next = nextafter(p->max, INFINITY);
        snprintf(in, sizeof in, "%.17g", p->max);
        snprintf(out, sizeof out, "%.17g", next);
        bound_text(p->max, maxtext, sizeof maxtext);
    } else {
        uint64_t lo, hi;
        mpp_param_int_bounds(p, &lo, &hi);
        bool seed = !strcmp(keypath, "run.seed");
        CHECKF(seed || mpp_param_has_upper(p), "%s: an integer without a maximum", keypath);
        if (!seed && p->type != MPP_PT_U32 && !list)
            CHECKF(hi <= MPP_CKD_VALUE_MAX, "%s: maximum %" PRIu64 " above 2^48", keypath, hi);
        snprintf(in, sizeof in, list ? "[%" PRIu64 "]" : "%" PRIu64, hi);
        if (hi == UINT64_MAX)
            snprintf(out, sizeof out, "18446744073709551616");
        else
            snprintf(out, sizeof out, list ? "[%" PRIu64 "]" : "%" PRIu64, hi + 1);
        snprintf(maxtext, sizeof maxtext, "%" PRIu64, hi);
        if (seed)
            maxtext[0] = '\0'; /* 2^64 is no integer of the type: refused as such */
    }
    rows_checked++;
    int rc = convert(p, in, keypath, base, &err);
    CHECKF(rc == 0, "%s: its maximum %s is refused: %s", keypath, in, err.msg);
    memset(&err, 0, sizeof err);
    rc = convert(p, out, keypath, base, &err);
    CHECKF(rc == MPP_EINVAL, "%s: %s (past its maximum) is accepted", keypath, out);
    char quoted[170];
    snprintf(quoted, sizeof quoted, list ? "'%s[0]'" : "'%s'", keypath);
    CHECKF(strstr(err.msg, quoted), "%s: the message does not name the key: %s", keypath,
           err.msg);
    if (maxtext[0]) {
        char bound[90];
        snprintf(bound, sizeof bound, "and %s", maxtext);
        CHECKF(strstr(err.msg, bound), "%s: the message does not name the maximum %s: %s",
               keypath, maxtext, err.msg);
    }
}

static void walk_family(const mpp_family *f);

/* Every numeric row of schema s (named `where`), and the families its
 * plug-in rows select. */
static void walk_schema(const char *where, const mpp_schema *s)
{
    void *base = calloc(1, s->size ? s->size : 1);
    if (!base) {
        CHECK(!"out of memory");
        return;
    }
    for (size_t i = 0; i < s->nparams; i++) {
        const mpp_param *p = &s->params[i];
        switch (p->type) {
        case MPP_PT_U32:
        case MPP_PT_U64:
        case MPP_PT_BYTES:
        case MPP_PT_CYCLES:
        case MPP_PT_DOUBLE:
        case MPP_PT_U32LIST:
            check_row(where, p, base);
            break;
        case MPP_PT_PLUGIN:
            if (p->family)
                walk_family(p->family);
            break;
        default:
            break;
        }
    }
    free(base);
}

/* Every plug-in of family f (once). */
static void walk_family(const mpp_family *f)
{
    for (size_t i = 0; i < nseen; i++)
        if (seen[i] == f)
            return;
    if (nseen == MAX_FAMILIES) {
        CHECK(!"more families than the test holds");
        return;
    }
    seen[nseen++] = f;
    for (size_t i = 0; f->at(i); i++) {
        const void *ops = f->at(i);
        char where[120];
        snprintf(where, sizeof where, "%s %s", f->what, f->name(ops));
        walk_schema(where, f->schema(ops));
    }
}

/* The helpers at their edges. */
static void check_helpers(void)
{
    uint64_t r = 0;
    CHECK(!mpp_ckd_add(&r, UINT64_MAX - 1, 1) && r == UINT64_MAX);
    CHECK(mpp_ckd_add(&r, UINT64_MAX, 1));
    CHECK(mpp_ckd_add(&r, (uint64_t)1 << 63, (uint64_t)1 << 63));
    CHECK(!mpp_ckd_mul(&r, (uint64_t)1 << 32, ((uint64_t)1 << 32) - 1));
    CHECK(mpp_ckd_mul(&r, (uint64_t)1 << 32, (uint64_t)1 << 32));
    CHECK(mpp_ckd_sat_add(UINT64_MAX - 5, 10) == UINT64_MAX);
    CHECK(mpp_ckd_sat_add(5, 10) == 15);
    CHECK(mpp_ckd_sat_mul((uint64_t)1 << 40, (uint64_t)1 << 40) == UINT64_MAX);
    CHECK(mpp_ckd_sat_mul(3, 7) == 21);
    /* the largest window the schemas allow cannot wrap: warmup + (1 +
     * drain_factor) x measure at their maxima */
    uint64_t w = 0;
    CHECK(!mpp_ckd_mul(&w, MPP_CKD_VALUE_MAX, 1001) && !mpp_ckd_add(&w, w, MPP_CKD_VALUE_MAX));
    CHECK(w < MPP_CKD_TIME_MAX);
}

/* Store v in the current workload's key `key` directly, past the schema's
 * range check, as a library user could. */
static void poke_u64(mpp_sim_config *c, const char *key, uint64_t v)
{
    const mpp_param *p = mpp_schema_find(&c->workload.ops->schema, key);
    CHECKF(p, "no workload key %s", key);
    if (p)
        memcpy(c->workload.cfg.b + p->offset, &v, sizeof v);
}

/* The engine refuses a window that wraps even when a caller skips the
 * schema (mpp_sim_open_loop's and the workloads' own checks), and accepts
 * the schema's maxima. */
static void check_engine_window(const char *type, const char *key, const char *value)
{
    static const uint64_t cases[][3] = {
        /* warmup, measure, refused */
        {0, UINT64_MAX, 1},
        {UINT64_MAX, 1, 1},
        {(uint64_t)1 << 63, (uint64_t)1 << 63, 1},
        {MPP_CKD_VALUE_MAX, MPP_CKD_VALUE_MAX, 0},
    };
    for (size_t i = 0; i < MPP_COUNTOF(cases); i++) {
        mpp_sim_config cfg;
        mpp_config_defaults(&cfg);
        test_mesh(&cfg, 2, 2);
        test_set(&cfg, "workload.type", "%s", type);
        if (key)
            test_set(&cfg, key, "%s", value);
        poke_u64(&cfg, "warmup", cases[i][0]);
        poke_u64(&cfg, "measure", cases[i][1]);
        mpp_err err = {0};
        mpp_sim *s = mpp_sim_create(&cfg, &err);
        if (cases[i][2])
            CHECKF(!s && err.code == MPP_EINVAL && strstr(err.msg, "measure"),
                   "%s: warmup %" PRIu64 " + measure %" PRIu64 " accepted (%s)", type,
                   cases[i][0], cases[i][1], err.msg);
        else if (!strcmp(type, "synthetic"))
            CHECKF(s, "%s: the maxima are refused: %s", type, err.msg);
        mpp_sim_destroy(s);
    }
}

/* A barrier (or a vector reduction) on 16 processors after 1 ms of work
 * (33000 CPU cycles at 33 MHz = 5000 network cycles at 5 MHz, the CM-5's
 * clocks): at the maxima of the control network's costs it finishes at the
 * exact cycle; past what a run may reach (costs poked past the schema, or a
 * long vector reduction whose sum the schema cannot bound) it fails with a
 * message, never waking the processors at a wrapped, earlier cycle (before
 * the fix: barrier_cycles 2^61 finished at cycle 5000 + 2^61 x 33 / 5
 * wrapped). */
static void check_control_release(int code, uint64_t words, uint64_t barrier, uint64_t reduce,
                                  uint64_t word, uint64_t want_makespan)
{
    mpp_sim_config c;
    mpp_config_defaults(&c);
    test_mesh(&c, 4, 4);
    c.net.net_mhz = 5;
    c.node.cpu_mhz = 33;
    c.node.barrier_cycles = barrier;
    c.node.reduce_cycles = reduce;
    c.node.reduce_word_cycles = word;
    mpp_program prog[16];
    mpp_op ops[16][2];
    for (int n = 0; n < 16; n++) {
        ops[n][0] = (mpp_op){.code = MPP_OP_COMPUTE, .bytes = 33000};
        ops[n][1] = (mpp_op){.code = code, .bytes = words};
        prog[n] = (mpp_program){ops[n], 2};
    }
    test_use_programs(&c, prog);
    mpp_err err = {0};
    mpp_sim *s = mpp_sim_create(&c, &err);
    CHECKF(s, "%s", err.msg);
    if (!s)
        return;
    int rc = mpp_sim_run(s, NULL, NULL, &err);
    if (want_makespan) {
        uint64_t got = mpp_sim_result_get(s)->makespan;
        CHECKF(rc == 0 && got == want_makespan, "rc %d (%s), makespan %" PRIu64 ", want %" PRIu64,
               rc, err.msg, got, want_makespan);
    } else {
        CHECKF(rc == MPP_EINVAL && strstr(err.msg, "passes 2^62"),
               "barrier %" PRIu64 " reduce %" PRIu64 " x %" PRIu64 " words: rc %d (%s)", barrier,
               word, words, rc, err.msg);
    }
    mpp_sim_destroy(s);
}

int main(void)
{
    walk_schema("network", &mpp_net_schema);
    walk_schema("node", &mpp_node_schema);
    walk_schema("run", &mpp_run_schema);
    walk_family(&mpp_topo_family);
    walk_family(&mpp_routing_family);
    walk_family(&mpp_workload_family);
    walk_family(&mpp_pattern_family);
    walk_family(&mpp_sched_family);
    walk_family(&mpp_bcast_family);
    walk_family(&mpp_coll_family);
    CHECKF(rows_checked > 100, "only %u numeric rows found", rows_checked);
    check_helpers();
    check_engine_window("synthetic", NULL, NULL);
    check_engine_window("messages", "workload.shape", "gather");
    check_engine_window("schedule", "workload.scheduler", "gm");
    const uint64_t cmax = (uint64_t)MPP_CKD_CONTROL_MAX;
    check_control_release(MPP_OP_BARRIER, 0, cmax, 20, 0, 5000 + cmax + 1);
    check_control_release(MPP_OP_REDUCE, 1, 10, cmax, cmax, 5000 + cmax + 1);
    check_control_release(MPP_OP_BARRIER, 0, (uint64_t)1 << 61, 20, 0, 0);
    check_control_release(MPP_OP_REDUCE, 1, 10, (uint64_t)1 << 61, 0, 0);
    check_control_release(MPP_OP_REDUCE, (uint64_t)1 << 30, 10, cmax, cmax, 0);
    printf("%u numeric rows in %zu families checked\n", rows_checked, nseen);
    TEST_DONE();
}
