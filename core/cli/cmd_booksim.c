/* core/cli/cmd_booksim.c — `mppnet booksim FILE [key=value ...]` (see
 * cmd_booksim.h, docs/booksim.md).
 *
 * What it does: reads the BookSim configuration (core/config/booksim.c:
 * bounded reader, FILE:LINE:COL errors), applies BookSim-style overrides
 * (`injection_rate=0.2`), maps it onto one mppnet experiment (one run per
 * BookSim sim_count), runs the runs in order in this process, and prints
 * mppnet's results followed by the block BookSim prints at the end
 * ("====== Overall Traffic Statistics ======", "Packet latency average =
 * ..."), filled from mppnet's measurements and averaged over the runs, so
 * that scripts written for BookSim's output read it unchanged.
 *
 *   load ──bad──> exit 2 (nothing run)
 *     └─> for each run: mpp_sim_create, mpp_sim_run ──fail──> exit 1
 *     └─> mppnet lines, BookSim's block (or "Simulation unstable" when the
 *         mean latency passes latency_thres, as BookSim ends such a run)
 *
 * Invariant: stdout carries only the results; the progress bar and
 * errors go to stderr. Output is a function of the file, the overrides
 * and mppnet's version (the "Total run time" line aside, which is host
 * time and says so). */
#include "core/cli/cmd_booksim.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/file.h"
#include "core/base/strbuf.h"
#include "core/cli/args.h"
#include "core/cli/cli.h"
#include "core/cli/runner.h"
#include "core/config/booksim.h"
#include "core/config/cfgtree.h"
#include "core/config/experiment.h"
#include "core/route.h"
#include "core/sim.h"
#include "core/topo.h"

static const char help_booksim[] =
    "usage: mppnet booksim [-q] [--dump-config] FILE [key=value ...]\n"
    "\n"
    "Run a BookSim 2 configuration file unchanged: its keys (topology, k, n,\n"
    "routing_function, num_vcs, vc_buf_size, the pipeline delays, traffic,\n"
    "injection_rate, packet_size, sample_period, ...) are mapped onto mppnet's\n"
    "(docs/booksim.md); a key or value mppnet cannot honour is an error that\n"
    "names it. Overrides use BookSim's names (injection_rate=0.2), as on\n"
    "BookSim's command line. Prints mppnet's results, then BookSim's summary\n"
    "block (Packet latency average = ...). `mppnet run FILE` does the same\n"
    "when FILE is a BookSim configuration.\n"
    "\n"
    "options:\n"
    "  -q, --quiet        no progress bar\n"
    "  --dump-config      print the mppnet experiment the file maps to\n"
    "  -h, --help         show this help\n";

typedef struct bs_opts {
    bool quiet, dump;
} bs_opts;

static int bs_opt(void *ud, int code, const char *arg)
{
    (void)arg;
    bs_opts *o = ud;
    if (code == 'q') {
        o->quiet = true;
        return 0;
    }
    if (code == 1000) {
        o->dump = true;
        return 0;
    }
    return 2;
}

static const struct option bs_options[] = {
    {"quiet", no_argument, NULL, 'q'},
    {"dump-config", no_argument, NULL, 1000},
    {NULL, 0, NULL, 0},
};

/* Sums over the runs of what BookSim's block prints. */
typedef struct bs_sum {
    double plat, nlat, acc, acc_min, inj, hops;
    uint64_t plat_max, nlat_max;
    size_t n;
} bs_sum;

static void print_block(const bs_sum *s, const mpp_booksim_info *info, double wall)
{
    double n = (double)s->n, ps = info->packet_flits;
    double plat = info->include_queuing ? s->plat / n : s->nlat / n;
    uint64_t pmax = info->include_queuing ? s->plat_max : s->nlat_max;
    printf("====== Overall Traffic Statistics ======\n");
    printf("====== Traffic class 0 ======\n");
    printf("Packet latency average = %g (%zu samples)\n", plat, s->n);
    printf("\tmaximum = %" PRIu64 " (%zu samples)\n", pmax, s->n);
    printf("Network latency average = %g (%zu samples)\n", s->nlat / n, s->n);
    printf("\tmaximum = %" PRIu64 " (%zu samples)\n", s->nlat_max, s->n);
    printf("Injected packet rate average = %g (%zu samples)\n", s->inj / n / ps, s->n);
    printf("Accepted packet rate average = %g (%zu samples)\n", s->acc / n / ps, s->n);
    printf("\tminimum = %g (%zu samples)\n", s->acc_min / n / ps, s->n);
    printf("Injected flit rate average = %g (%zu samples)\n", s->inj / n, s->n);
    printf("Accepted flit rate average = %g (%zu samples)\n", s->acc / n, s->n);
    printf("\tminimum = %g (%zu samples)\n", s->acc_min / n, s->n);
    printf("Injected packet size average = %g (%zu samples)\n", ps, s->n);
    printf("Accepted packet size average = %g (%zu samples)\n", ps, s->n);
    printf("Hops average = %g (%zu samples)\n", s->hops / n + 1.0, s->n);
    printf("Total run time %g (host seconds: not deterministic)\n", wall);
}

int mpp_booksim_run_text(const char *path, const char *text, size_t len, size_t nov,
                         const char *const *ov, bool quiet, bool dump)
{
    mpp_err err;
    mpp_err_clear(&err);
    mpp_booksim *b = mpp_booksim_parse(text, len, path, &err);
    for (size_t i = 0; b && i < nov; i++)
        if (mpp_booksim_override(b, ov[i], &err)) {
            mpp_booksim_free(b);
            b = NULL;
        }
    if (!b)
        return mpp_args_fail(&err);
    mpp_booksim_info info;
    mpp_experiment *e = mpp_booksim_experiment(b, &info, &err);
    mpp_booksim_free(b);
    if (!e)
        return mpp_args_fail(&err);
    size_t nruns = mpp_experiment_runs(e);
    int status = 0;
    if (dump) {
        mpp_sb sb;
        mpp_sb_init(&sb);
        for (size_t i = 0; i < nruns; i++) {
            mpp_sb_reset(&sb);
            mpp_experiment_config_yaml(e, i, &sb);
            printf("--- # %s, run %zu, config_hash %016" PRIx64 "\n%s", path, i,
                   mpp_experiment_hash(e, i), sb.s ? sb.s : "");
        }
        mpp_sb_free(&sb);
        mpp_experiment_destroy(e);
        return 0;
    }
    printf("mppnet %s: BookSim configuration %s (keys mapped as docs/booksim.md says)\n",
           mpp_cli_version(), path);
    bs_sum sum;
    memset(&sum, 0, sizeof sum);
    double wall = 0;
    for (size_t i = 0; i < nruns && !status; i++) {
        const mpp_sim_config *cfg = mpp_experiment_config(e, i);
        mpp_sim *s = mpp_sim_create(cfg, &err);
        if (!s) {
            status = mpp_args_fail(&err);
            break;
        }
        status = mpp_run_sim_shown(s, quiet, &wall);
        if (status) {
            mpp_sim_destroy(s);
            break;
        }
        const mpp_sim_result *r = mpp_sim_result_get(s);
        printf("run %zu (seed %" PRIu64 "): %" PRIu32 " nodes, %s, router %s, offered %.4g "
               "flits/node/cycle, warm-up %" PRIu64 " + measured %" PRIu64 " cycles\n",
               i, r->seed, mpp_sim_topology(s)->nodes, cfg->net.topo->name,
               cfg->net.routing->name, r->offered, info.warmup, info.measure);
        printf("  accepted %.4f flits/node/cycle (least node %.4f), latency %.2f mean "
               "(from creation), %.2f (network), hops %.3f, %" PRIu64 " cycles, "
               "saturated %s\n",
               r->accepted, r->accepted_min, r->latency_mean, r->latency_network_mean,
               r->hops_mean, r->cycles, r->saturated ? "yes" : "no");
        sum.plat += r->latency_mean;
        sum.nlat += r->latency_network_mean;
        sum.acc += r->accepted;
        sum.acc_min += r->accepted_min;
        sum.inj += r->injected_rate;
        sum.hops += r->hops_mean;
        if (r->latency_max > sum.plat_max)
            sum.plat_max = r->latency_max;
        if (r->latency_network_max > sum.nlat_max)
            sum.nlat_max = r->latency_network_max;
        sum.n++;
        mpp_sim_destroy(s);
    }
    if (!status && sum.n) {
        double lat = (info.include_queuing ? sum.plat : sum.nlat) / (double)sum.n;
        if (info.latency_thres >= 0 && lat > info.latency_thres)
            printf("Simulation unstable, ending ... (mean packet latency %.2f above "
                   "latency_thres %g: BookSim would stop here)\n",
                   lat, info.latency_thres);
        else
            print_block(&sum, &info, wall);
    }
    mpp_experiment_destroy(e);
    return status;
}

mpp_experiment *mpp_booksim_or_yaml_load(const char *path, size_t nov, const char *const *ov,
                                         mpp_err *err)
{
    char *text = NULL;
    size_t len = 0;
    if (mpp_file_read(path, MPP_CFGTREE_MAX_BYTES, &text, &len, err))
        return NULL;
    mpp_experiment *e = NULL;
    if (mpp_booksim_detect(text, len)) {
        mpp_booksim *b = mpp_booksim_parse(text, len, path, err);
        for (size_t i = 0; b && i < nov; i++)
            if (mpp_booksim_override(b, ov[i], err)) {
                mpp_booksim_free(b);
                b = NULL;
            }
        mpp_booksim_info info;
        if (b)
            e = mpp_booksim_experiment(b, &info, err);
        mpp_booksim_free(b);
    } else {
        e = mpp_experiment_load_text(text, len, path, NULL, nov, ov, err);
    }
    free(text);
    return e;
}

int mpp_cmd_booksim(int argc, char **argv)
{
    bs_opts o = {false, false};
    mpp_args rest;
    bool done;
    int status = mpp_args_parse("booksim", argc, argv, bs_options, help_booksim, bs_opt, &o,
                                &rest, &done);
    if (status || done) {
        mpp_args_free(&rest);
        return status;
    }
    const char *path = NULL;
    const char **ov = calloc(rest.n + 1, sizeof *ov);
    size_t nov = 0;
    if (!ov) {
        mpp_args_free(&rest);
        return mpp_args_usage("booksim", "out of memory");
    }
    for (size_t i = 0; i < rest.n && !status; i++) {
        if (strchr(rest.v[i], '='))
            ov[nov++] = rest.v[i];
        else if (!path)
            path = rest.v[i];
        else
            status = mpp_args_usage("booksim", "one configuration file, not '%.80s' too "
                                               "(overrides are key=value)", rest.v[i]);
    }
    if (!status && !path)
        status = mpp_args_usage("booksim", "missing the BookSim configuration file");
    char *text = NULL;
    size_t len = 0;
    mpp_err err;
    mpp_err_clear(&err);
    if (!status && mpp_file_read(path, MPP_BOOKSIM_MAX_BYTES, &text, &len, &err))
        status = mpp_args_fail(&err);
    if (!status)
        status = mpp_booksim_run_text(path, text, len, nov, ov, o.quiet, o.dump);
    free(text);
    free(ov);
    mpp_args_free(&rest);
    return status;
}
