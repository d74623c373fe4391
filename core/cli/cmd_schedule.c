/* core/cli/cmd_schedule.c — the `schedule` command (cmd_schedule.h).
 *
 *   parse args --bad--> usage error, exit 2
 *       |
 *   scheduler config: schema defaults, then key=value (cfgtree checks)
 *       |
 *   FILE?  mpp_com_read -> per matrix: schedule, check, print phases
 *   --gen? per sample i: generate (seed X + i), schedule (seed X + i),
 *          check, accumulate -> one summary (human or JSON)
 *       |
 *   exit 0, or 2 (bad input, unreadable file, a check that fails)
 *
 * Statistics of one schedule (sched_stats): phases, parts (messages or
 * pieces of messages), the scheduler's steps, the largest row or column
 * count of the matrix (a lower bound on phases), and two size measures of
 * the phases: phase_units = sum over phases of the largest part (the time of
 * loosely synchronous phases, in units) and idle_units = sum over phases of
 * (largest - mean part) x parts, the units of link time that wait for the
 * phase's largest message. Also the scheduler's work by kind
 * (mpp_sched_work: dense COM entries scanned, tries against the receive
 * mask, rows visited, phases, entries moved) and, with --machine NAME, its
 * price on one node processor of that machine preset: schedule_ms =
 * mpp_sched_work_cycles / cpu_mhz / 1000. Everything printed is a function
 * of the arguments except the host time, which JSON keeps apart under
 * "timing".
 *
 * Invariants:
 *   1. stdout carries only results; errors go to stderr.
 *   2. Every schedule is checked with mpp_schedule_check before it counts. */
#include "core/cli/cmd_schedule.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/schedule.h"
#include "traces/com.h"
#include "core/config/cfgtree.h"
#include "core/config/experiment.h"
#include "core/config/preset.h"
#include "core/cli/args.h"
#include "core/cli/cli.h"
#include "core/base/strbuf.h"

const char mpp_cmd_schedule_help[] =
    "usage: mppnet schedule --alg NAME [--seed X] [--machine M] [--json]\n"
    "                       [key=value ...] FILE\n"
    "       mppnet schedule --alg NAME --gen random-regular|random-nonuniform\n"
    "                       --n N --d D [--samples S] [--seed X] [--units U]\n"
    "                       [--machine M] [--json] [key=value ...]\n"
    "\n"
    "Run a scheduler on communication matrices and check every schedule (each\n"
    "phase a partial permutation, every entry delivered exactly once).\n"
    "\n"
    "The FILE form schedules every matrix of a COM file (Matrix Market,\n"
    "optionally .gz) and prints its phases, one line per phase as SRC->DST:UNITS\n"
    "(for a dynamic scheduler such as ac: each processor's send order).\n"
    "The --gen form generates S matrices with seeds X, X+1, ..., schedules\n"
    "each with the same seed and prints the mean, min and max number of\n"
    "phases, the mean scheduling steps, parts, max degree (a lower bound on\n"
    "phases), phase units (sum of each phase's largest part) and idle units\n"
    "(sum over phases of (largest - mean part) x parts).\n"
    "Both forms print the scheduler's work by kind as one node processor\n"
    "would run it (scan: dense COM entries read, tries: entries tested\n"
    "against the receive mask, rows visited, phases, moves: entries moved)\n"
    "and, with --machine, its cost on one node of that machine, schedule_ms\n"
    "(docs/machines.md).\n"
    "\n"
    "options:\n"
    "  --alg NAME        scheduler: ac, lp, gm, cgm, rs_n, rs_nh, ...\n"
    "  --gen KIND        random-regular (every row and column has d entries of\n"
    "                    --units units) or random-nonuniform (sizes 1..32)\n"
    "  --n N, --d D      processors and entries per row and column (d < n)\n"
    "  --samples S       matrices to generate (default 10)\n"
    "  --seed X          first seed (default 1)\n"
    "  --units U         size of every entry of random-regular (default 1)\n"
    "  --machine M       price the work on one node processor of the machine\n"
    "                    preset M (cm5, ...: its node.sched_*_cycles, cpu_mhz)\n"
    "  --json            print one JSON object (everything but \"timing\" is\n"
    "                    deterministic)\n"
    "  -h, --help        show this help\n"
    "  key=value         a scheduler parameter, e.g. cutoff=median factor=1\n"
    "                    (`mppnet list schedulers` lists them)\n"
    "\n"
    "Options take their value as --seed X or --seed=X, before or after FILE.\n";

typedef struct sched_args {
    const mpp_sched_ops *alg;
    mpp_blob cfg;            /* the scheduler's configuration */
    const char *file;
    const char *gen;         /* "random-regular" / "random-nonuniform" / NULL */
    uint32_t n, d, samples;
    bool have_n, have_d;
    uint64_t seed, units;
    bool json;
    const char *machine;     /* --machine: the preset whose node prices the work, or NULL */
    mpp_node_config node;    /* its node section (when machine) */
} sched_args;

typedef struct sched_stats {
    uint32_t phases, parts, max_degree;
    uint64_t steps, phase_units, idle_units;
    mpp_sched_work work;
    double host_us;
} sched_stats;

#define CMD "schedule"

/* err prefixed with "schedule: "; its exit status (2: every error of this
 * command is bad usage or input, or a schedule that fails its check). */
static int sched_fail(mpp_err *err)
{
    mpp_err_prefix(err, CMD);
    mpp_args_fail(err);
    return 2;
}

/* Set one schema row of the scheduler from text (origin names it in
 * errors). Returns 0 or MPP_EINVAL / MPP_ENOMEM. */
static int set_param(const mpp_param *p, const char *text, const char *origin, mpp_blob *b,
                     mpp_err *err)
{
    mpp_cfgnode *v = mpp_cfgtree_parse_value(text, origin, err);
    if (!v)
        return err->code ? err->code : MPP_ENOMEM;
    int rc = mpp_cfgtree_convert(v, p, p->key, 0, b->b, err);
    mpp_cfgtree_free(v);
    return rc;
}

/* The scheduler's defaults into b. */
static int param_defaults(const mpp_schema *sc, mpp_blob *b, mpp_err *err)
{
    memset(b, 0, sizeof *b);
    if (sc->size > MPP_BLOB_SIZE)
        return mpp_err_set(err, MPP_EINVAL, "scheduler configuration larger than a blob");
    for (size_t i = 0; i < sc->nparams; i++) {
        int rc;
        if (sc->params[i].def && (rc = set_param(&sc->params[i], sc->params[i].def, "default", b,
                                                 err)) != 0)
            return rc;
    }
    return 0;
}

/* Apply "key=value" to the scheduler's configuration. */
static int apply_override(const mpp_sched_ops *alg, const char *kv, mpp_blob *b, mpp_err *err)
{
    const char *eq = strchr(kv, '=');
    size_t klen = (size_t)(eq - kv);
    for (size_t i = 0; i < alg->schema.nparams; i++) {
        const mpp_param *p = &alg->schema.params[i];
        if (strlen(p->key) == klen && !strncmp(p->key, kv, klen)) {
            char origin[300];
            snprintf(origin, sizeof origin, "command line: %s", kv);
            return set_param(p, eq + 1, origin, b, err);
        }
    }
    mpp_sb sb;
    mpp_sb_init(&sb);
    for (size_t i = 0; i < alg->schema.nparams; i++)
        mpp_sb_printf(&sb, "%s%s", i ? ", " : "", alg->schema.params[i].key);
    int rc = mpp_err_set(err, MPP_EINVAL, "scheduler '%s' has no parameter '%.*s' (%s)",
                         alg->name, (int)klen, kv,
                         alg->schema.nparams ? (mpp_sb_ok(&sb) ? sb.s : "?") : "it has none");
    mpp_sb_free(&sb);
    return rc;
}

/* The schedulers' names, comma-separated, into sb. */
static void alg_names(mpp_sb *sb)
{
    const mpp_sched_ops *const *all = mpp_sched_all();
    for (size_t i = 0; all[i]; i++)
        mpp_sb_printf(sb, "%s%s", i ? ", " : "", all[i]->name);
}

/* The parameters of alg with their values, as JSON members or "k=v" text. */
static void print_params(const mpp_sched_ops *alg, const mpp_blob *b, bool json, mpp_sb *sb)
{
    for (size_t i = 0; i < alg->schema.nparams; i++) {
        const mpp_param *p = &alg->schema.params[i];
        const unsigned char *v = b->b + p->offset;
        if (json) {
            mpp_sb_add(sb, i ? ", " : "");
            mpp_sb_json_str(sb, p->key);
            mpp_sb_add(sb, ": ");
        } else {
            mpp_sb_printf(sb, "%s%s=", i ? " " : "", p->key);
        }
        switch (p->type) {
        case MPP_PT_U32: {
            uint32_t x;
            memcpy(&x, v, sizeof x);
            mpp_sb_printf(sb, "%" PRIu32, x);
            break;
        }
        case MPP_PT_U64:
        case MPP_PT_BYTES:
        case MPP_PT_CYCLES: {
            uint64_t x;
            memcpy(&x, v, sizeof x);
            mpp_sb_printf(sb, "%" PRIu64, x);
            break;
        }
        case MPP_PT_DOUBLE: {
            double x;
            memcpy(&x, v, sizeof x);
            mpp_sb_double(sb, x);
            break;
        }
        case MPP_PT_BOOL: {
            bool x;
            memcpy(&x, v, sizeof x);
            mpp_sb_add(sb, x ? "true" : "false");
            break;
        }
        case MPP_PT_ENUM: {
            int x;
            memcpy(&x, v, sizeof x);
            if (json)
                mpp_sb_json_str(sb, p->choices[x]);
            else
                mpp_sb_add(sb, p->choices[x]);
            break;
        }
        default:
            mpp_sb_add(sb, json ? "null" : "?");
            break;
        }
    }
}

/* Codes of the options (above 127: no short form). */
enum {
    OPT_ALG = 1000,
    OPT_GEN,
    OPT_N,
    OPT_D,
    OPT_SAMPLES,
    OPT_SEED,
    OPT_UNITS,
    OPT_JSON,
    OPT_MACHINE
};

static const struct option sched_options[] = {
    {"alg", required_argument, NULL, OPT_ALG},
    {"gen", required_argument, NULL, OPT_GEN},
    {"n", required_argument, NULL, OPT_N},
    {"d", required_argument, NULL, OPT_D},
    {"samples", required_argument, NULL, OPT_SAMPLES},
    {"seed", required_argument, NULL, OPT_SEED},
    {"units", required_argument, NULL, OPT_UNITS},
    {"json", no_argument, NULL, OPT_JSON},
    {"machine", required_argument, NULL, OPT_MACHINE},
    {NULL, 0, NULL, 0},
};

static int sched_opt(void *ud, int code, const char *arg)
{
    sched_args *a = ud;
    uint64_t v = 0;
    int rc;
    switch (code) {
    case OPT_ALG:
        a->alg = mpp_sched_find(arg);
        if (!a->alg) {
            mpp_sb sb;
            mpp_sb_init(&sb);
            alg_names(&sb);
            mpp_args_usage(CMD, "unknown scheduler '%s' (%s)", arg, mpp_sb_ok(&sb) ? sb.s : "?");
            mpp_sb_free(&sb);
            return 2;
        }
        return 0;
    case OPT_GEN:
        if (strcmp(arg, "random-regular") && strcmp(arg, "random-nonuniform"))
            return mpp_args_usage(CMD, "unknown generator '%s' (random-regular, "
                                       "random-nonuniform)",
                                  arg);
        a->gen = arg;
        return 0;
    case OPT_N:
        if ((rc = mpp_args_u64(CMD, "--n", arg, 1, MPP_COM_MAX_N, false, &v)))
            return rc;
        a->n = (uint32_t)v;
        a->have_n = true;
        return 0;
    case OPT_D:
        if ((rc = mpp_args_u64(CMD, "--d", arg, 0, UINT32_MAX, false, &v)))
            return rc;
        a->d = (uint32_t)v;
        a->have_d = true;
        return 0;
    case OPT_SAMPLES:
        if ((rc = mpp_args_u64(CMD, "--samples", arg, 1, 1000000, false, &v)))
            return rc;
        a->samples = (uint32_t)v;
        return 0;
    case OPT_SEED:
        return mpp_args_u64(CMD, "--seed", arg, 0, UINT64_MAX, false, &a->seed);
    case OPT_UNITS:
        return mpp_args_u64(CMD, "--units", arg, 1, UINT32_MAX, false, &a->units);
    case OPT_JSON:
        a->json = true;
        return 0;
    case OPT_MACHINE:
        if (!mpp_preset_find(arg)) {
            mpp_sb sb;
            mpp_sb_init(&sb);
            for (size_t i = 0; i < mpp_npresets; i++)
                mpp_sb_printf(&sb, "%s%s", i ? ", " : "", mpp_presets[i].name);
            mpp_args_usage(CMD, "unknown machine preset '%s' (%s)", arg,
                           mpp_sb_ok(&sb) ? sb.s : "?");
            mpp_sb_free(&sb);
            return 2;
        }
        a->machine = arg;
        return 0;
    }
    return 2;
}

/* The cost in ms of work w on one node processor of a->machine. */
static double work_ms(const sched_args *a, const mpp_sched_work *w)
{
    return (double)mpp_sched_work_cycles(w, &a->node) / (a->node.cpu_mhz * 1000.0);
}

/* Parse argv into a; returns 0, or the exit status of a usage error, or -1
 * when help was printed. */
static int parse_args(int argc, char **argv, sched_args *a)
{
    memset(a, 0, sizeof *a);
    a->samples = 10;
    a->seed = 1;
    a->units = 1;
    mpp_args rest;
    bool done;
    int st = mpp_args_parse(CMD, argc, argv, sched_options, mpp_cmd_schedule_help, sched_opt, a,
                            &rest, &done);
    if (st || done) {
        mpp_args_free(&rest);
        return st ? st : -1;
    }
    /* the FILE, and the key=value arguments (applied below, once the
     * scheduler is known) */
    size_t nkv = 0;
    for (size_t i = 0; i < rest.n && !st; i++) {
        char *s = rest.v[i];
        if (mpp_args_is_override(s))
            rest.v[nkv++] = s; /* rest.v[0 .. nkv) keeps them */
        else if (a->file)
            st = mpp_args_usage(CMD, "more than one FILE ('%s' and '%s')", a->file, s);
        else
            a->file = s;
    }
    if (!st && !a->alg)
        st = mpp_args_usage(CMD, "--alg NAME is required");
    else if (!st && !a->alg->schedule)
        st = mpp_args_usage(CMD, "scheduler '%s' is a runtime protocol: it has no schedule to "
                                 "print (replay it with mppnet run)",
                            a->alg->name);
    else if (!st && !a->file == !a->gen)
        st = mpp_args_usage(CMD, "%s", a->file ? "give either FILE or --gen, not both"
                                               : "give a FILE or --gen KIND --n N --d D");
    else if (!st && a->gen && (!a->have_n || !a->have_d))
        st = mpp_args_usage(CMD, "--gen needs --n N and --d D");
    else if (!st && a->gen && a->d >= a->n)
        st = mpp_args_usage(CMD, "--d must be smaller than --n (d = %" PRIu32 ", n = %" PRIu32
                                 ")",
                            a->d, a->n);
    else if (!st && !a->gen && (a->have_n || a->have_d))
        st = mpp_args_usage(CMD, "--n and --d go with --gen");
    mpp_err err;
    mpp_err_clear(&err);
    if (!st && param_defaults(&a->alg->schema, &a->cfg, &err))
        st = sched_fail(&err);
    if (!st && a->machine && mpp_experiment_machine_node(a->machine, &a->node, &err))
        st = sched_fail(&err);
    for (size_t k = 0; k < nkv && !st; k++)
        if (apply_override(a->alg, rest.v[k], &a->cfg, &err))
            st = sched_fail(&err);
    mpp_args_free(&rest);
    return st;
}

static void compute_stats(const mpp_com *com, const mpp_schedule *s, sched_stats *st)
{
    memset(st, 0, sizeof *st);
    st->phases = s->nphases;
    st->parts = s->nmsgs;
    st->steps = s->steps;
    st->work = s->work;
    st->host_us = s->host_us;
    st->max_degree = mpp_com_max_degree(com);
    for (uint32_t p = 0; p < s->nphases; p++) {
        uint64_t mx = 0, sum = 0, k = s->phase_start[p + 1] - s->phase_start[p];
        for (uint32_t i = s->phase_start[p]; i < s->phase_start[p + 1]; i++) {
            sum += s->msgs[i].units;
            if (s->msgs[i].units > mx)
                mx = s->msgs[i].units;
        }
        st->phase_units += mx;
        st->idle_units += mx * k - sum;
    }
}

/* Schedule com with a's scheduler and check it. 0 or an MPP_E* code. */
static int schedule_one(const sched_args *a, const mpp_com *com, uint64_t seed, mpp_schedule *s,
                        mpp_err *err)
{
    memset(s, 0, sizeof *s);
    int rc = a->alg->schedule(com, a->cfg.b, seed, s, err);
    if (rc == 0 && (rc = mpp_schedule_check(com, s, err)) != 0)
        mpp_err_prefix(err, "scheduler '%s' (seed %" PRIu64 ")", a->alg->name, seed);
    if (rc)
        mpp_schedule_free(s);
    return rc;
}

/* Append the messages m[0 .. k) as "SRC->DST:UNITS" (text) or
 * [[src, dst, units], ...] (JSON). */
static void print_msgs(mpp_sb *sb, const mpp_sched_msg *m, uint32_t k, bool json)
{
    if (json)
        mpp_sb_addc(sb, '[');
    for (uint32_t i = 0; i < k; i++) {
        if (json)
            mpp_sb_printf(sb, "%s[%" PRIu32 ", %" PRIu32 ", %" PRIu64 "]", i ? ", " : "", m[i].src,
                          m[i].dst, m[i].units);
        else
            mpp_sb_printf(sb, " %" PRIu32 "->%" PRIu32 ":%" PRIu64, m[i].src, m[i].dst, m[i].units);
    }
    if (json)
        mpp_sb_addc(sb, ']');
}

/* The phases (or send orders) of s, text or JSON array. */
static void print_schedule(mpp_sb *sb, const mpp_schedule *s, bool json)
{
    if (json)
        mpp_sb_addc(sb, '[');
    if (s->nphases) {
        for (uint32_t p = 0; p < s->nphases; p++) {
            uint32_t b = s->phase_start[p], e = s->phase_start[p + 1];
            if (json) {
                mpp_sb_add(sb, p ? ",\n      " : "\n      ");
            } else {
                mpp_sb_printf(sb, "phase %" PRIu32 ":", p + 1);
            }
            print_msgs(sb, s->msgs + b, e - b, json);
            if (!json)
                mpp_sb_addc(sb, '\n');
        }
    } else {
        for (uint32_t b = 0, g = 0; b < s->nmsgs; g++) { /* one group per source */
            uint32_t e = b;
            while (e < s->nmsgs && s->msgs[e].src == s->msgs[b].src)
                e++;
            if (json)
                mpp_sb_add(sb, g ? ",\n      " : "\n      ");
            else
                mpp_sb_printf(sb, "processor %" PRIu32 ":", s->msgs[b].src);
            print_msgs(sb, s->msgs + b, e - b, json);
            if (!json)
                mpp_sb_addc(sb, '\n');
            b = e;
        }
    }
    if (json)
        mpp_sb_add(sb, "]");
}

static void json_header(mpp_sb *sb, const sched_args *a)
{
    mpp_sb_add(sb, "{\n  \"mppnet\": ");
    mpp_sb_json_str(sb, mpp_cli_version());
    mpp_sb_add(sb, ",\n  \"alg\": ");
    mpp_sb_json_str(sb, a->alg->name);
    mpp_sb_printf(sb, ",\n  \"dynamic\": %s,\n  \"params\": {", a->alg->dynamic ? "true" : "false");
    print_params(a->alg, &a->cfg, true, sb);
    mpp_sb_printf(sb, "},\n  \"seed\": %" PRIu64, a->seed);
}

/* The FILE form. */
static int run_file(const sched_args *a)
{
    mpp_err err;
    mpp_err_clear(&err);
    mpp_com_seq seq;
    memset(&seq, 0, sizeof seq);
    if (mpp_com_read(a->file, &seq, &err))
        return sched_fail(&err);
    mpp_sb sb;
    mpp_sb_init(&sb);
    int status = 0;
    if (a->json) {
        json_header(&sb, a);
        mpp_sb_add(&sb, ",\n  \"file\": ");
        mpp_sb_json_str(&sb, a->file);
        mpp_sb_add(&sb, ",\n  \"matrices\": [");
    }
    double host_us = 0;
    for (uint32_t m = 0; m < seq.count; m++) {
        const mpp_com *com = &seq.m[m];
        mpp_schedule s;
        if (schedule_one(a, com, a->seed, &s, &err)) {
            mpp_err_prefix(&err, "%s: matrix %" PRIu32, a->file, m + 1);
            status = sched_fail(&err);
            break;
        }
        sched_stats st;
        compute_stats(com, &s, &st);
        host_us += st.host_us;
        if (a->json) {
            mpp_sb_printf(&sb, "%s\n    {\"step\": %" PRIu32 ", \"n\": %" PRIu32 ", \"nnz\": %"
                          PRIu32 ", \"msg_unit\": %" PRIu64 ", \"max_degree\": %" PRIu32
                          ", \"phases\": %" PRIu32 ", \"parts\": %" PRIu32 ", \"steps\": %" PRIu64
                          ", \"phase_units\": %" PRIu64 ", \"idle_units\": %" PRIu64 ",\n     %s: ",
                          m ? "," : "", com->step, com->n, com->nnz, com->msg_unit, st.max_degree,
                          st.phases, st.parts, st.steps, st.phase_units, st.idle_units,
                          s.nphases || !s.nmsgs ? "\"schedule\"" : "\"send_order\"");
            print_schedule(&sb, &s, true);
            mpp_sb_printf(&sb, ",\n     \"work\": {\"scan\": %" PRIu64 ", \"tries\": %" PRIu64
                          ", \"rows\": %" PRIu64 ", \"phases\": %" PRIu64 ", \"moves\": %" PRIu64
                          "}", st.work.scan, st.work.tries, st.work.rows, st.work.phases,
                          st.work.moves);
            if (a->machine) {
                mpp_sb_add(&sb, ", \"schedule_ms\": ");
                mpp_sb_double(&sb, work_ms(a, &st.work));
            }
            mpp_sb_add(&sb, "}");
        } else {
            mpp_sb_printf(&sb, "# %s: matrix %" PRIu32 " of %" PRIu32 " (step %" PRIu32 "): n=%"
                          PRIu32 ", %" PRIu32 " entries, max degree %" PRIu32 "\n", a->file, m + 1,
                          seq.count, com->step, com->n, com->nnz, st.max_degree);
            mpp_sb_printf(&sb, "# %s%s", a->alg->name, a->alg->schema.nparams ? " (" : "");
            if (a->alg->schema.nparams) {
                print_params(a->alg, &a->cfg, false, &sb);
                mpp_sb_add(&sb, ")");
            }
            mpp_sb_printf(&sb, ", seed %" PRIu64 ": %" PRIu32 " phases, %" PRIu32 " parts, %" PRIu64
                          " steps, %.1f us\n", a->seed, st.phases, st.parts, st.steps, st.host_us);
            mpp_sb_printf(&sb, "# work: scan %" PRIu64 ", tries %" PRIu64 ", rows %" PRIu64
                          ", phases %" PRIu64 ", moves %" PRIu64, st.work.scan, st.work.tries,
                          st.work.rows, st.work.phases, st.work.moves);
            if (a->machine)
                mpp_sb_printf(&sb, "; schedule_ms %.4f on one node of %s", work_ms(a, &st.work),
                              a->machine);
            mpp_sb_addc(&sb, '\n');
            print_schedule(&sb, &s, false);
        }
        mpp_schedule_free(&s);
    }
    if (a->json) {
        mpp_sb_add(&sb, "\n  ],\n  \"timing\": {\"host_us_total\": ");
        mpp_sb_double(&sb, host_us);
        mpp_sb_add(&sb, "}\n}\n");
    }
    mpp_com_seq_free(&seq);
    if (!status) {
        if (!mpp_sb_ok(&sb)) {
            mpp_err_set(&err, MPP_ENOMEM, "out of memory");
            status = sched_fail(&err);
        } else {
            fputs(sb.s, stdout);
        }
    }
    mpp_sb_free(&sb);
    return status;
}

/* The --gen form. */
static int run_gen(const sched_args *a)
{
    bool regular = !strcmp(a->gen, "random-regular");
    double sum_phases = 0, sum_phases2 = 0, sum_steps = 0, sum_parts = 0, sum_deg = 0;
    double sum_ratio = 0, sum_punits = 0, sum_idle = 0, sum_us = 0, sum_ms = 0;
    double sum_work[5] = {0}; /* scan, tries, rows, phases, moves */
    uint32_t pmin = UINT32_MAX, pmax = 0;
    mpp_err err;
    mpp_err_clear(&err);
    for (uint32_t i = 0; i < a->samples; i++) {
        uint64_t seed = a->seed + i;
        mpp_com com;
        int rc = regular ? mpp_com_gen_regular(&com, a->n, a->d, a->units, 1, seed, &err)
                         : mpp_com_gen_nonuniform(&com, a->n, a->d, 1, seed, &err);
        if (rc)
            return sched_fail(&err);
        mpp_schedule s;
        rc = schedule_one(a, &com, seed, &s, &err);
        if (rc) {
            mpp_com_free(&com);
            mpp_err_prefix(&err, "%s matrix (seed %" PRIu64 ")", a->gen, seed);
            return sched_fail(&err);
        }
        sched_stats st;
        compute_stats(&com, &s, &st);
        mpp_schedule_free(&s);
        mpp_com_free(&com);
        sum_phases += st.phases;
        sum_phases2 += (double)st.phases * st.phases;
        sum_steps += (double)st.steps;
        sum_parts += st.parts;
        sum_deg += st.max_degree;
        sum_ratio += st.max_degree ? (double)st.phases / st.max_degree : 0;
        sum_punits += (double)st.phase_units;
        sum_idle += (double)st.idle_units;
        sum_us += st.host_us;
        sum_work[0] += (double)st.work.scan;
        sum_work[1] += (double)st.work.tries;
        sum_work[2] += (double)st.work.rows;
        sum_work[3] += (double)st.work.phases;
        sum_work[4] += (double)st.work.moves;
        sum_ms += a->machine ? work_ms(a, &st.work) : 0;
        pmin = st.phases < pmin ? st.phases : pmin;
        pmax = st.phases > pmax ? st.phases : pmax;
    }
    double S = a->samples, mean = sum_phases / S;
    double var = sum_phases2 / S - mean * mean;
    double sd = var > 0 && a->samples > 1 ? sqrt(var * S / (S - 1)) : 0;
    mpp_sb sb;
    mpp_sb_init(&sb);
    if (a->json) {
        json_header(&sb, a);
        mpp_sb_add(&sb, ",\n  \"gen\": ");
        mpp_sb_json_str(&sb, a->gen);
        mpp_sb_printf(&sb, ",\n  \"n\": %" PRIu32 ",\n  \"d\": %" PRIu32, a->n, a->d);
        if (regular)
            mpp_sb_printf(&sb, ",\n  \"units\": %" PRIu64, a->units);
        mpp_sb_printf(&sb, ",\n  \"samples\": %" PRIu32, a->samples);
        struct {
            const char *k;
            double v;
        } f[] = {
            {"phases_mean", mean}, {"phases_min", pmin}, {"phases_max", pmax},
            {"phases_sd", sd}, {"steps_mean", sum_steps / S}, {"parts_mean", sum_parts / S},
            {"max_degree_mean", sum_deg / S}, {"phases_over_degree_mean", sum_ratio / S},
            {"phase_units_mean", sum_punits / S}, {"idle_units_mean", sum_idle / S},
            {"work_scan_mean", sum_work[0] / S}, {"work_tries_mean", sum_work[1] / S},
            {"work_rows_mean", sum_work[2] / S}, {"work_phases_mean", sum_work[3] / S},
            {"work_moves_mean", sum_work[4] / S},
        };
        for (size_t k = 0; k < MPP_COUNTOF(f); k++) {
            mpp_sb_add(&sb, ",\n  ");
            mpp_sb_json_str(&sb, f[k].k);
            mpp_sb_add(&sb, ": ");
            mpp_sb_double(&sb, f[k].v);
        }
        if (a->machine) {
            mpp_sb_add(&sb, ",\n  \"machine\": ");
            mpp_sb_json_str(&sb, a->machine);
            mpp_sb_add(&sb, ",\n  \"schedule_ms_mean\": ");
            mpp_sb_double(&sb, sum_ms / S);
        }
        mpp_sb_add(&sb, ",\n  \"timing\": {\"host_us_mean\": ");
        mpp_sb_double(&sb, sum_us / S);
        mpp_sb_add(&sb, "}\n}\n");
    } else {
        mpp_sb_printf(&sb, "%s%s", a->alg->name, a->alg->schema.nparams ? " " : "");
        print_params(a->alg, &a->cfg, false, &sb);
        mpp_sb_printf(&sb, " on %" PRIu32 " %s matrices (n=%" PRIu32 ", d=%" PRIu32 ", seeds %"
                      PRIu64 "..%" PRIu64 "):\n", a->samples, a->gen, a->n, a->d, a->seed,
                      a->seed + a->samples - 1);
        mpp_sb_printf(&sb, "  phases       mean %.2f  min %" PRIu32 "  max %" PRIu32 "  sd %.2f"
                      "  (max degree mean %.2f)\n", mean, pmin, pmax, sd, sum_deg / S);
        mpp_sb_printf(&sb, "  steps        mean %.1f\n", sum_steps / S);
        mpp_sb_printf(&sb, "  parts        mean %.1f\n", sum_parts / S);
        mpp_sb_printf(&sb, "  phase units  mean %.1f  (sum of each phase's largest part)\n",
                      sum_punits / S);
        mpp_sb_printf(&sb, "  idle units   mean %.1f  (sum of (largest - mean part) x parts)\n",
                      sum_idle / S);
        mpp_sb_printf(&sb, "  work         mean scan %.1f  tries %.1f  rows %.1f  phases %.1f"
                      "  moves %.1f\n", sum_work[0] / S, sum_work[1] / S, sum_work[2] / S,
                      sum_work[3] / S, sum_work[4] / S);
        if (a->machine)
            mpp_sb_printf(&sb, "  schedule     mean %.4f ms on one node of %s\n", sum_ms / S,
                          a->machine);
        mpp_sb_printf(&sb, "  host time    mean %.1f us per schedule (not deterministic)\n",
                      sum_us / S);
    }
    int status = 0;
    if (!mpp_sb_ok(&sb)) {
        mpp_err_set(&err, MPP_ENOMEM, "out of memory");
        status = sched_fail(&err);
    } else {
        fputs(sb.s, stdout);
    }
    mpp_sb_free(&sb);
    return status;
}

int mpp_cmd_schedule(int argc, char **argv)
{
    sched_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    return a.file ? run_file(&a) : run_gen(&a); /* stdout: checked once for every command in mpp_cli_main */
}
