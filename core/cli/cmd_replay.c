/* core/cli/cmd_replay.c — `mppnet replay`: run one run of an experiment, record
 * its operation trace or message trace, or replay such a trace on the
 * experiment's machine (see cmd_replay.h and docs/cli.md). The front end:
 * it prints and returns exit statuses (0 ok, 1 the run failed, 2 bad usage
 * or input). */
#include "core/cli/cmd_replay.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cli/args.h"
#include "core/config/experiment.h"
#include "core/config/simcfg.h"
#include "core/schema.h"
#include "core/workload.h"
#include "core/sim.h"
#include "traces/trace.h"

/* The help text, in two parts around the paradigm names (mpp_paradigm_names). */
static const char help_a[] =
    "usage: mppnet replay EXP.yaml [options] [key.path=value ...]\n"
    "\n"
    "Run one run of an experiment that uses node programs (workload type\n"
    "messages or schedule) and print every delivered message, or replay a\n"
    "trace on the experiment's machine.\n"
    "\n"
    "options (a value as --run 2 or --run=2, before or after EXP.yaml):\n"
    "  --run I                 which run of the experiment (default 0)\n"
    "  --record-ops FILE       write the operation trace of the run (.gz: compressed)\n"
    "  --record-messages FILE  write the delivered messages as a message trace\n"
    "  --ops FILE              re-execute an operation trace recorded on this\n"
    "                          configuration (the config hash must match)\n"
    "  --messages FILE         replay a message trace as timed sends\n"
    "  --paradigm P            paradigm of --messages sends (";
static const char help_b[] =
    ")\n"
    "  -q, --quiet             no per-message lines, only the summary\n"
    "  -h, --help              show this help\n"
    "  key.path=value          override a key of the experiment\n"
    "\n"
    "Per-message lines: src dst bytes issue first_inject delivered cycles (network\n"
    "cycles). Exit status: 0 ok, 1 the run failed (deadlock), 2 bad usage or input.\n";

#define CMD "replay"

/* Codes of the long-only options (above 127: no short form). */
enum { OPT_RUN = 1000, OPT_REC_OPS, OPT_REC_MSGS, OPT_OPS, OPT_MSGS, OPT_PARADIGM };

static const struct option replay_options[] = {
    {"run", required_argument, NULL, OPT_RUN},
    {"record-ops", required_argument, NULL, OPT_REC_OPS},
    {"record-messages", required_argument, NULL, OPT_REC_MSGS},
    {"ops", required_argument, NULL, OPT_OPS},
    {"messages", required_argument, NULL, OPT_MSGS},
    {"paradigm", required_argument, NULL, OPT_PARADIGM},
    {"quiet", no_argument, NULL, 'q'},
    {NULL, 0, NULL, 0},
};

typedef struct replay_opts {
    const char *rec_ops, *rec_msgs, *ops_in, *msgs_in;
    const char *paradigm;
    uint64_t run;
    bool quiet;
} replay_opts;

/* The paradigm called name, or -1. */
static int find_paradigm(const char *name)
{
    for (int k = 0; mpp_paradigm_names[k]; k++)
        if (!strcmp(name, mpp_paradigm_names[k]))
            return k;
    return -1;
}

/* Append the paradigm names, comma-separated. */
static void paradigm_names(mpp_sb *sb)
{
    for (size_t k = 0; mpp_paradigm_names[k]; k++)
        mpp_sb_printf(sb, "%s%s", k ? ", " : "", mpp_paradigm_names[k]);
}

static int replay_opt(void *ud, int code, const char *arg)
{
    replay_opts *o = ud;
    switch (code) {
    case OPT_RUN: return mpp_args_u64(CMD, "--run", arg, 0, SIZE_MAX, false, &o->run);
    case OPT_REC_OPS: o->rec_ops = arg; return 0;
    case OPT_REC_MSGS: o->rec_msgs = arg; return 0;
    case OPT_OPS: o->ops_in = arg; return 0;
    case OPT_MSGS: o->msgs_in = arg; return 0;
    case OPT_PARADIGM:
        if (find_paradigm(arg) < 0) {
            mpp_sb names;
            mpp_sb_init(&names);
            paradigm_names(&names);
            mpp_args_usage(CMD, "--paradigm needs one of %s, not '%.80s'",
                           mpp_sb_ok(&names) ? names.s : "?", arg);
            mpp_sb_free(&names);
            return 2;
        }
        o->paradigm = arg;
        return 0;
    case 'q': o->quiet = true; return 0;
    }
    return 2;
}

/* s as a double-quoted YAML scalar (a file name taken as it is). */
static void yaml_quote(mpp_sb *sb, const char *s)
{
    mpp_sb_addc(sb, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            mpp_sb_addc(sb, '\\');
        mpp_sb_addc(sb, *s);
    }
    mpp_sb_addc(sb, '"');
}

int mpp_cmd_replay(int argc, char **argv)
{
    replay_opts o = {.paradigm = "sync"};
    mpp_sb help;
    mpp_sb_init(&help);
    mpp_sb_add(&help, help_a);
    paradigm_names(&help);
    mpp_sb_add(&help, help_b);
    mpp_args rest = {0, NULL};
    bool done = false;
    int status = mpp_sb_ok(&help)
                     ? mpp_args_parse(CMD, argc, argv, replay_options, help.s, replay_opt, &o,
                                      &rest, &done)
                     : mpp_args_usage(CMD, "out of memory");
    mpp_sb_free(&help);
    const char *exp = NULL;
    const char **ov = calloc(rest.n + 1, sizeof *ov);
    size_t nov = 0;
    if (!status && !done && !ov)
        status = mpp_args_usage(CMD, "out of memory");
    for (size_t i = 0; !status && !done && i < rest.n; i++) {
        if (mpp_args_is_override(rest.v[i]))
            ov[nov++] = rest.v[i];
        else if (!exp)
            exp = rest.v[i];
        else
            status = mpp_args_usage(CMD, "unexpected argument '%.80s'", rest.v[i]);
    }
    if (!status && !done && !exp)
        status = mpp_args_usage(CMD, "missing the experiment file (mppnet replay EXP.yaml)");
    if (!status && !done && o.ops_in && o.msgs_in)
        status = mpp_args_usage(CMD, "--ops and --messages cannot be combined");
    mpp_err err;
    mpp_err_clear(&err);
    mpp_experiment *e = NULL;
    if (!status && !done && !(e = mpp_experiment_load(exp, nov, ov, &err)))
        status = mpp_args_fail(&err);
    free(ov);
    mpp_args_free(&rest);
    if (!e)
        return status;
    const char *rec_ops = o.rec_ops, *rec_msgs = o.rec_msgs, *ops_in = o.ops_in,
               *msgs_in = o.msgs_in, *paradigm = o.paradigm;
    size_t run = (size_t)o.run;
    bool quiet = o.quiet;
    status = 2;
    mpp_sim *s = NULL;
    uint32_t nodes = 0;
    mpp_op_trace ot;
    memset(&ot, 0, sizeof ot);
    if (run >= mpp_experiment_runs(e)) {
        mpp_args_usage(CMD, "the experiment has %zu run%s; --run %zu is not one",
                       mpp_experiment_runs(e), mpp_experiment_runs(e) == 1 ? "" : "s", run);
        goto out;
    }
    mpp_sim_config cfg = *mpp_experiment_config(e, run);
    uint64_t hash = mpp_experiment_hash(e, run);
    if (!(cfg.workload.ops && (cfg.workload.ops->flags & MPP_WL_NODES)) && !ops_in && !msgs_in) {
        mpp_err_set(&err, MPP_EINVAL, "replay: %s: the workload has no node programs (use a "
                                      "workload that runs them, such as messages or schedule, "
                                      "or give --ops / --messages)",
                    exp);
        status = mpp_args_fail(&err);
        goto out;
    }
    if (ops_in) {
        /* the header: the run it was recorded on, and its seed */
        if (mpp_op_trace_read(ops_in, &ot, &err)) {
            status = mpp_args_fail(&err);
            goto out;
        }
        if (ot.config_hash != hash) {
            mpp_err_set(&err, MPP_EINVAL,
                        "replay: %s was recorded on configuration %016" PRIx64
                        ", not on run %zu of %s (%016" PRIx64 ")",
                        ops_in, ot.config_hash, run, exp, hash);
            status = mpp_args_fail(&err);
            goto out;
        }
        cfg.run.seed = ot.seed;
    }
    if (ops_in || msgs_in) {
        mpp_sb file;
        mpp_sb_init(&file);
        yaml_quote(&file, ops_in ? ops_in : msgs_in);
        if (!mpp_sb_ok(&file) ||
            mpp_config_set(&cfg, "workload.type", ops_in ? "optrace" : "msgtrace", &err) ||
            mpp_config_set(&cfg, "workload.file", file.s, &err) ||
            (msgs_in && mpp_config_set(&cfg, "workload.paradigm", paradigm, &err))) {
            mpp_sb_free(&file);
            status = mpp_args_fail(&err);
            goto out;
        }
        mpp_sb_free(&file);
    }
    cfg.run.record_ops = rec_ops != NULL;
    s = mpp_sim_create(&cfg, &err);
    if (!s) {
        status = mpp_args_fail(&err);
        goto out;
    }
    nodes = mpp_sim_topology(s)->nodes;
    int rc = mpp_sim_run(s, NULL, NULL, &err);
    if (rc) {
        mpp_args_fail(&err);
        const char *rep = mpp_sim_report(s);
        if (rep)
            mpp_args_eprintf("%s", rep);
        status = mpp_err_exit_status(rc);
        goto out;
    }
    const mpp_sim_result *r = mpp_sim_result_get(s);
    size_t nm = mpp_sim_message_count(s);
    if (!quiet) {
        printf("src dst bytes issue first_inject delivered cycles\n");
        for (size_t i = 0; i < nm; i++) {
            mpp_message_record m;
            mpp_sim_message_get(s, i, &m);
            printf("%u %u %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", m.src,
                   m.dst, m.bytes, m.issue, m.first_inject, m.delivered, m.delivered - m.issue);
        }
    }
    printf("%zu messages, makespan %" PRIu64 " cycles (%.4f ms), %.1f cycles per message\n", nm,
           r->makespan, r->makespan_ms, r->message_latency_mean);
    status = 0;
    if (rec_ops) {
        mpp_op_trace t = {.nodes = nodes, .config_hash = hash, .seed = cfg.run.seed};
        for (size_t i = 0; i < mpp_sim_op_count(s) && !status; i++) {
            mpp_op_trace_entry en;
            mpp_sim_op_get(s, i, &en.node, &en.cycle, &en.op);
            if (mpp_op_trace_add(&t, &en, &err))
                status = mpp_args_fail(&err);
        }
        if (!status && mpp_op_trace_write(rec_ops, &t, &err))
            status = mpp_args_fail(&err);
        mpp_op_trace_free(&t);
        if (!status)
            printf("wrote %s (%zu operations)\n", rec_ops, mpp_sim_op_count(s));
    }
    if (rec_msgs && !status) {
        mpp_msg_trace t = {.nodes = nodes, .time_us = cfg.net.net_mhz > 0};
        for (size_t i = 0; i < nm && !status; i++) {
            mpp_message_record m;
            mpp_sim_message_get(s, i, &m);
            mpp_msg_trace_entry en = {
                .issue = t.time_us ? (double)m.issue / cfg.net.net_mhz : (double)m.issue,
                .src = m.src, .dst = m.dst, .bytes = m.bytes, .tag = 0};
            if (mpp_msg_trace_add(&t, &en, &err))
                status = mpp_args_fail(&err);
        }
        if (!status && mpp_msg_trace_write(rec_msgs, &t, &err))
            status = mpp_args_fail(&err);
        mpp_msg_trace_free(&t);
        if (!status)
            printf("wrote %s (%zu messages)\n", rec_msgs, nm);
    }
out: /* stdout: checked once for every command in mpp_cli_main */
    mpp_sim_destroy(s);
    mpp_op_trace_free(&ot);
    mpp_experiment_destroy(e);
    return status;
}
