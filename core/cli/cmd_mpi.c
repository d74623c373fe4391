/* core/cli/cmd_mpi.c — `mppnet mpi TRACE`: replay an MPI trace re-timed on
 * a machine preset (workload type mpi, algorithms/wl_mpi.c; docs/cli.md,
 * docs/capture.md "Replay").
 *
 *   parse flags (getopt_long) --bad--> one line on stderr, exit 2
 *   check --machine, build the configuration (preset + workload.type mpi +
 *   overrides), set workload.trace --bad--> exit 2
 *   mpp_sim_create (loads and checks the trace) --bad--> exit 2
 *   mpp_sim_run --deadlock--> the message and the report on stderr, exit 1
 *   print the per-rank table and the totals; with -o write the reports
 *
 * Invariants:
 *   1. Nothing is printed on stdout and no file is written before the run
 *      has ended well.
 *   2. stdout carries only results; errors go to stderr.
 *   3. Exit status 0 ok, 1 the run failed, 2 bad usage or input. */
#include "core/cli/cmd_mpi.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "algorithms/wl_mpi.h"
#include "core/base/file.h"
#include "core/base/strbuf.h"
#include "core/cli/args.h"
#include "core/cli/output.h"
#include "core/config/experiment.h"
#include "core/schema.h"
#include "core/sim.h"
#include "core/workload.h"
#include "traces/com.h"

#define CMD "mpi"

static const char help[] =
    "usage: mppnet mpi TRACE [--machine NAME] [-o DIR] [key.path=value ...]\n"
    "\n"
    "Replay an MPI trace re-timed on a machine preset (workload type mpi):\n"
    "TRACE is a capture folder (mppnet capture), a SimGrid time-independent\n"
    "trace or an OTF2 archive. Prints one line per rank (its node, when it\n"
    "ended, its computation and communication time, calls, messages and bytes\n"
    "sent) and the totals (docs/capture.md, \"Replay\").\n"
    "\n"
    "options:\n"
    "  --machine NAME   the preset (default cm5; mppnet list presets)\n"
    "  -o, --output DIR also write DIR/ranks.csv, DIR/calls.csv, DIR/pairs.csv\n"
    "                   (src,dst,messages,bytes: the program's own traffic) and\n"
    "                   DIR/traffic.com (its bytes as a COM file)\n"
    "  -h, --help       show this help\n"
    "  key.path=value   any key, e.g. workload.placement=random node.eager_bytes=0\n"
    "\n"
    "Exit status: 0 ok, 1 the run failed (a deadlock: the ranks that wait are\n"
    "named), 2 bad usage or input (a truncated trace, an unsupported call,\n"
    "more ranks than nodes).\n";

typedef struct mpi_opts {
    const char *machine, *out;
} mpi_opts;

enum { OPT_MACHINE = 1000 };

static const struct option mpi_options[] = {
    {"machine", required_argument, NULL, OPT_MACHINE},
    {"output", required_argument, NULL, 'o'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static int mpi_opt(void *ud, int code, const char *arg)
{
    mpi_opts *o = ud;
    if (code == OPT_MACHINE)
        o->machine = arg;
    else if (code == 'o')
        o->out = arg;
    else
        return mpp_args_usage(CMD, "unknown option");
    return 0;
}

/* Write sb to DIR/name. */
static int write_file(const char *dir, const char *name, const mpp_sb *sb, mpp_err *err)
{
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path)
        return mpp_err_set(err, MPP_EINVAL, "-o: the folder's name is too long");
    if (!mpp_sb_ok(sb))
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    return mpp_file_write_atomic(path, sb->s, sb->len, false, err);
}

static int write_reports(const char *dir, const mpp_mpi_report *rep, mpp_err *err)
{
    int mk = mpp_output_mkdir_p(dir, err);
    if (mk)
        return mk;
    mpp_sb sb;
    mpp_sb_init(&sb);
    mpp_sb_add(&sb, "rank,node,end_us,compute_us,comm_us,calls,messages,bytes\n");
    for (uint32_t r = 0; r < rep->nranks; r++) {
        const mpp_mpi_rank_report *k = &rep->rank[r];
        mpp_sb_printf(&sb, "%u,%u,%.17g,%.17g,%.17g,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
                      k->rank, k->node, k->end_us, k->compute_us, k->comm_us, k->calls,
                      k->messages, k->bytes);
    }
    int rc = write_file(dir, "ranks.csv", &sb, err);
    mpp_sb_reset(&sb);
    mpp_sb_add(&sb, "call,count,total_us,mean_us\n");
    for (int c = 0; c < MPP_MPI_NCALLS; c++)
        if (rep->call[c].count)
            mpp_sb_printf(&sb, "%s,%" PRIu64 ",%.17g,%.17g\n", mpp_mpi_call_names[c],
                          rep->call[c].count, rep->call[c].total_us,
                          rep->call[c].total_us / (double)rep->call[c].count);
    if (!rc)
        rc = write_file(dir, "calls.csv", &sb, err);
    mpp_sb_reset(&sb);
    mpp_sb_add(&sb, "src,dst,messages,bytes\n");
    uint32_t n = rep->nranks;
    for (uint32_t a = 0; rep->pair_msgs && a < n; a++)
        for (uint32_t b = 0; b < n; b++)
            if (rep->pair_msgs[(size_t)a * n + b])
                mpp_sb_printf(&sb, "%u,%u,%" PRIu64 ",%" PRIu64 "\n", a, b,
                              rep->pair_msgs[(size_t)a * n + b],
                              rep->pair_bytes[(size_t)a * n + b]);
    if (!rc)
        rc = write_file(dir, "pairs.csv", &sb, err);
    mpp_sb_free(&sb);
    if (rc)
        return rc;
    if (!rep->pair_msgs)
        return 0;
    mpp_com c;
    if ((rc = mpp_com_init(&c, n, 1, err)))
        return rc;
    for (uint32_t a = 0; a < n && !rc; a++)
        for (uint32_t b = 0; b < n && !rc; b++)
            if (a != b && rep->pair_bytes[(size_t)a * n + b])
                rc = mpp_com_add(&c, a, b, rep->pair_bytes[(size_t)a * n + b], err);
    if (!rc) {
        mpp_com_finish(&c);
        char path[4096];
        snprintf(path, sizeof path, "%s/traffic.com", dir);
        mpp_com_seq seq = {1, &c};
        rc = mpp_com_write(path, &seq, err);
    }
    mpp_com_free(&c);
    return rc;
}

static void print_report(const mpp_mpi_report *rep, const char *machine)
{
    printf("%-6s %6s %12s %12s %12s %8s %9s %12s\n", "rank", "node", "end_us", "compute_us",
           "comm_us", "calls", "messages", "bytes");
    for (uint32_t r = 0; r < rep->nranks; r++) {
        const mpp_mpi_rank_report *k = &rep->rank[r];
        printf("%-6u %6u %12.2f %12.2f %12.2f %8" PRIu64 " %9" PRIu64 " %12" PRIu64 "\n",
               k->rank, k->node, k->end_us, k->compute_us, k->comm_us, k->calls, k->messages,
               k->bytes);
    }
    printf("machine %s: %u ranks, predicted time %.2f us; %" PRIu64 " messages, %" PRIu64
           " bytes, %" PRIu64 " collective calls, %.1f network cycles a message\n",
           machine, rep->nranks, rep->time_us, rep->messages, rep->bytes, rep->collectives,
           rep->cycles_per_message);
}

int mpp_cmd_mpi(int argc, char **argv)
{
    mpi_opts o = {.machine = "cm5"};
    mpp_args rest = {0, NULL};
    bool done = false;
    int status = mpp_args_parse(CMD, argc, argv, mpi_options, help, mpi_opt, &o, &rest, &done);
    const char *trace = NULL;
    const char **ov = calloc(rest.n + 1, sizeof *ov);
    size_t nov = 0;
    if (!status && !done && !ov)
        status = mpp_args_usage(CMD, "out of memory");
    for (size_t i = 0; !status && !done && i < rest.n; i++) {
        if (mpp_args_is_override(rest.v[i]))
            ov[nov++] = rest.v[i];
        else if (!trace)
            trace = rest.v[i];
        else
            status = mpp_args_usage(CMD, "unexpected argument '%.80s'", rest.v[i]);
    }
    if (!status && !done && !trace)
        status = mpp_args_usage(CMD, "missing the trace (mppnet mpi TRACE)");
    if (!status && !done && strlen(trace) >= MPP_STR_MAX)
        status = mpp_args_usage(CMD, "the trace's path is longer than %d bytes",
                                MPP_STR_MAX - 1);
    if (!status && !done &&
        (!o.machine[0] || strspn(o.machine, "abcdefghijklmnopqrstuvwxyz0123456789_-") !=
                              strlen(o.machine)))
        status = mpp_args_usage(CMD, "--machine: expected a preset name (mppnet list presets)");
    mpp_err err;
    mpp_err_clear(&err);
    mpp_experiment *e = NULL;
    if (!status && !done) {
        char text[256];
        snprintf(text, sizeof text, "mppnet: 1\nmachine: %s\nworkload: {type: mpi}\n",
                 o.machine);
        if (!(e = mpp_experiment_parse(text, "mppnet mpi", nov, ov, &err)))
            status = mpp_args_fail(&err);
    }
    free(ov);
    if (!e) {
        mpp_args_free(&rest);
        return status;
    }
    mpp_sim_config cfg = *mpp_experiment_config(e, 0);
    mpp_sim *s = NULL;
    const mpp_workload_ops *w = cfg.workload.ops;
    const mpp_param *row = w ? mpp_schema_find(&w->schema, "trace") : NULL;
    if (!w || strcmp(w->name, "mpi") || !row) {
        mpp_err_set(&err, MPP_EINVAL, "mpi: workload.type must stay mpi");
        status = mpp_args_fail(&err);
        goto out;
    }
    memset(cfg.workload.cfg.b + row->offset, 0, MPP_STR_MAX);
    memcpy(cfg.workload.cfg.b + row->offset, trace, strlen(trace));
    if (!(s = mpp_sim_create(&cfg, &err))) {
        status = mpp_args_fail(&err);
        goto out;
    }
    if (mpp_sim_run(s, NULL, NULL, &err)) {
        status = mpp_args_fail(&err);
        if (mpp_sim_report(s)[0])
            mpp_args_eprintf("%s", mpp_sim_report(s));
        goto out;
    }
    const mpp_mpi_report *rep = mpp_mpi_report_get(s);
    if (o.out && (status = write_reports(o.out, rep, &err)) != 0) {
        status = mpp_args_fail(&err);
        goto out;
    }
    print_report(rep, o.machine);
    status = 0;
out:
    mpp_sim_destroy(s);
    mpp_experiment_destroy(e);
    mpp_args_free(&rest);
    return status;
}
