/* core/cli/cmd_replay.c — `mppnet replay`: run one run of an experiment, record
 * its operation trace or message trace, or replay such a trace on the
 * experiment's machine (see cmd_replay.h and docs/cli.md). The front end:
 * it prints and returns exit statuses (0 ok, 1 the run failed, 2 bad usage
 * or input). */
#include "core/cli/cmd_replay.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config/experiment.h"
#include "core/config/simcfg.h"
#include "core/schema.h"
#include "core/workload.h"
#include "core/sim.h"
#include "traces/trace.h"

static const char help[] =
    "usage: mppnet replay EXP.yaml [options] [key.path=value ...]\n"
    "\n"
    "Run one run of an experiment that uses node programs (workload type\n"
    "messages or schedule) and print every delivered message, or replay a\n"
    "trace on the experiment's machine.\n"
    "\n"
    "  --run I                 which run of the experiment (default 0)\n"
    "  --record-ops FILE       write the operation trace of the run (.gz: compressed)\n"
    "  --record-messages FILE  write the delivered messages as a message trace\n"
    "  --ops FILE              re-execute an operation trace recorded on this\n"
    "                          configuration (the config hash must match)\n"
    "  --messages FILE         replay a message trace as timed sends\n"
    "  --paradigm P            paradigm of --messages sends (sync, async, am, am_put)\n"
    "  --quiet                 no per-message lines, only the summary\n"
    "\n"
    "Per-message lines: src dst bytes issue first_inject delivered cycles (network\n"
    "cycles). Exit status: 0 ok, 1 the run failed (deadlock), 2 bad usage or input.\n";

static int usage(const char *fmt, const char *arg)
{
    fputs("mppnet: replay: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nsee 'mppnet replay --help'\n", stderr);
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

static int fail(const mpp_err *err)
{
    fprintf(stderr, "mppnet: %s\n", err->msg);
    return mpp_err_exit_status(err->code);
}

int mpp_cmd_replay(int argc, char **argv)
{
    const char *exp = NULL, *rec_ops = NULL, *rec_msgs = NULL, *ops_in = NULL, *msgs_in = NULL;
    const char *paradigm = "sync";
    size_t run = 0;
    bool quiet = false;
    const char **ov = calloc((size_t)argc + 1, sizeof *ov);
    size_t nov = 0;
    if (!ov)
        return 2;
    int status = 2;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool last = i + 1 >= argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(help, stdout);
            free(ov);
            return 0;
        } else if (!strcmp(a, "--run") && !last) {
            char *end;
            unsigned long long v = strtoull(argv[++i], &end, 10);
            if (*end || argv[i][0] == '-') {
                free(ov);
                return usage("--run: expected a run number, got '%s'", argv[i]);
            }
            run = (size_t)v;
        } else if (!strcmp(a, "--record-ops") && !last) {
            rec_ops = argv[++i];
        } else if (!strcmp(a, "--record-messages") && !last) {
            rec_msgs = argv[++i];
        } else if (!strcmp(a, "--ops") && !last) {
            ops_in = argv[++i];
        } else if (!strcmp(a, "--messages") && !last) {
            msgs_in = argv[++i];
        } else if (!strcmp(a, "--paradigm") && !last) {
            paradigm = argv[++i];
        } else if (!strcmp(a, "--quiet")) {
            quiet = true;
        } else if (a[0] == '-') {
            free(ov);
            return usage("unknown or incomplete option '%s'", a);
        } else if (strchr(a, '=')) {
            ov[nov++] = a;
        } else if (!exp) {
            exp = a;
        } else {
            free(ov);
            return usage("unexpected argument '%s'", a);
        }
    }
    if (!exp) {
        free(ov);
        return usage("%s", "missing the experiment file");
    }
    if (ops_in && msgs_in) {
        free(ov);
        return usage("%s", "--ops and --messages cannot be combined");
    }
    int par = -1;
    for (int k = 0; mpp_paradigm_names[k]; k++)
        if (!strcmp(paradigm, mpp_paradigm_names[k]))
            par = k;
    if (par < 0) {
        free(ov);
        return usage("--paradigm: expected sync, async, am or am_put, got '%s'", paradigm);
    }
    mpp_err err;
    mpp_experiment *e = mpp_experiment_load(exp, nov, ov, &err);
    free(ov);
    if (!e)
        return fail(&err);
    mpp_sim *s = NULL;
    uint32_t nodes = 0;
    mpp_op_trace ot;
    memset(&ot, 0, sizeof ot);
    if (run >= mpp_experiment_runs(e)) {
        fprintf(stderr, "mppnet: replay: the experiment has %zu runs; --run %zu is not one\n",
                mpp_experiment_runs(e), run);
        goto out;
    }
    mpp_sim_config cfg = *mpp_experiment_config(e, run);
    uint64_t hash = mpp_experiment_hash(e, run);
    if (!(cfg.workload.ops && (cfg.workload.ops->flags & MPP_WL_NODES)) && !ops_in && !msgs_in) {
        fprintf(stderr, "mppnet: replay: %s: the workload has no node programs (use a workload "
                        "that runs them, such as messages or schedule, or give --ops / "
                        "--messages)\n",
                exp);
        goto out;
    }
    if (ops_in) {
        /* the header: the run it was recorded on, and its seed */
        if (mpp_op_trace_read(ops_in, &ot, &err)) {
            status = fail(&err);
            goto out;
        }
        if (ot.config_hash != hash) {
            fprintf(stderr,
                    "mppnet: replay: %s was recorded on configuration %016" PRIx64
                    ", not on run %zu of %s (%016" PRIx64 ")\n",
                    ops_in, ot.config_hash, run, exp, hash);
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
            status = fail(&err);
            goto out;
        }
        mpp_sb_free(&file);
    }
    cfg.run.record_ops = rec_ops != NULL;
    s = mpp_sim_create(&cfg, &err);
    if (!s) {
        status = fail(&err);
        goto out;
    }
    nodes = mpp_sim_topology(s)->nodes;
    int rc = mpp_sim_run(s, NULL, NULL, &err);
    if (rc) {
        fprintf(stderr, "mppnet: %s\n%s", err.msg, mpp_sim_report(s));
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
                status = fail(&err);
        }
        if (!status && mpp_op_trace_write(rec_ops, &t, &err))
            status = fail(&err);
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
                status = fail(&err);
        }
        if (!status && mpp_msg_trace_write(rec_msgs, &t, &err))
            status = fail(&err);
        mpp_msg_trace_free(&t);
        if (!status)
            printf("wrote %s (%zu messages)\n", rec_msgs, nm);
    }
    if (fflush(stdout) != 0)
        status = 2;
out:
    mpp_sim_destroy(s);
    mpp_op_trace_free(&ot);
    mpp_experiment_destroy(e);
    return status;
}
