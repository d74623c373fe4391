/* test/test_calibration.c — the `cm5` preset against the measurements of
 * the real 32-node CM-5 (experiments/calibration/, from shared/calibration):
 *   A. one random permutation, 16 B .. 256 KB, 20 random permutations per
 *      size (cm5_permutation.yaml as it is): every emulated average within
 *      15% of the measured one, the largest and the smallest permutation
 *      within 15% of the published maximum and minimum (of 1000), and
 *      (max - min) / average at least half the published one;
 *   B. d senders to processor 31: every receive time and send average
 *      within 30%, the receive times rise with d, and the d = 31 send
 *      minimum is clearly below the d = 16 senders' average (processors
 *      28..30 share processor 31's cluster of 4: the cluster effect; the
 *      d = 16 minimum itself is a known miss, docs/validation.md).
 *   D. scheduled communication (cm5_sched.yaml, two random d-regular
 *      matrices per row of cm5_sched.csv): every cost of ac, lp, gm and cgm
 *      within 20% (ac and lp at d = 24, 64 KB: 40%, and lp is a known
 *      miss at 46%: sched_misses), and the four in the
 *      published order wherever the published costs differ by 5% or more;
 *      and the cost of computing the CGM schedule on one node processor at
 *      n = 32 (cm5_schedcost.yaml: schedule_ms, mean of 4 random d-regular
 *      matrices per d): within 20% of every row of cm5_schedcost.csv.
 * And the `paragon` preset against the s-to-p broadcasts of Hambrusch,
 * Khokhar and Liu 1995 on the Intel Paragon (paragon_bcast.yaml, one run
 * per broadcast, against paragon.csv): every number of A (Fig. 9: repos
 * and part_xy_source on 8x8, cross, s = 15, 2 KB, their parts; br_xy_source
 * on R, on a 4x8 half and on cross) within 20%, B (Fig. 6: 10x10, DR, 80 KB
 * in all) within 25%, C (the repositioning, "about 0.5 ms") within 50% —
 * except the rows of paragon_misses, each held to the bound it keeps.
 * Runs the experiment files themselves, so the test and `mppnet run` agree.
 * And the applications' compute model of the `cm5` preset against the nine
 * one-processor times of Bae and Ranka 1994 (cm5_apps.csv, table_apps).
 * Usage: test_calibration SRCDIR [PART] (PART: cm5, paragon, machines (the
 * two), apps; default all). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "algorithms/apps.h"
#include "algorithms/workloads.h"
#include "core/config/experiment.h"
#include "core/sim.h"
#include "test/testutil.h"

static const char *srcdir = ".";

/* Run every run of the experiment file with the overrides on two
 * processes (this one takes the even runs, a child the odd ones and sends
 * their result records back through a pipe); return the results (caller
 * frees) and their count. */
static mpp_sim_result *run_file(const char *file, size_t nov, const char *const *ov, size_t *n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/experiments/calibration/%s", srcdir, file);
    mpp_err err;
    mpp_experiment *e = mpp_experiment_load(path, nov, ov, &err);
    CHECKF(e != NULL, "%s", err.msg);
    if (!e)
        return NULL;
    *n = mpp_experiment_runs(e);
    mpp_sim_result *r = calloc(*n, sizeof *r);
    int fd[2];
    CHECK(r != NULL && pipe(fd) == 0);
    fflush(stdout);
    int failures_before = test_failures;
    pid_t child = fork();
    CHECK(child >= 0);
    for (size_t i = child == 0 ? 1 : 0; i < *n; i += 2) {
        mpp_sim *s = mpp_sim_create(mpp_experiment_config(e, i), &err);
        CHECKF(s != NULL, "%s", err.msg);
        if (s) {
            CHECKF(mpp_sim_run(s, NULL, NULL, &err) == 0, "%s", err.msg);
            r[i] = *mpp_sim_result_get(s);
            mpp_sim_destroy(s);
        }
        if (child == 0 && write(fd[1], &r[i], sizeof r[i]) != (ssize_t)sizeof r[i])
            _exit(2);
    }
    if (child == 0)
        _exit(test_failures > failures_before ? 1 : 0);
    close(fd[1]);
    for (size_t i = 1; i < *n; i += 2) {
        size_t got = 0;
        while (got < sizeof r[i]) {
            ssize_t k = read(fd[0], (char *)&r[i] + got, sizeof r[i] - got);
            if (k <= 0)
                break;
            got += (size_t)k;
        }
        CHECKF(got == sizeof r[i], "%s: run %zu: the second process sent no result", file, i);
    }
    close(fd[0]);
    int status = 0;
    CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) &&
          WEXITSTATUS(status) == 0);
    mpp_experiment_destroy(e);
    return r;
}

static void table_a(void)
{
    /* the published average, maximum and minimum over 1000 permutations */
    static const struct {
        uint64_t bytes;
        double avg, max, min;
    } a[] = {
        {16, 0.211, 0.223, 0.208},          {64, 0.220, 0.231, 0.217},
        {256, 0.258, 0.265, 0.252},         {1024, 0.422, 0.448, 0.403},
        {4096, 1.046, 1.116, 0.973},        {16384, 3.608, 3.951, 3.337},
        {65536, 14.013, 15.565, 12.900},    {262144, 55.833, 62.792, 51.648},
    };
    /* the experiment file as it is: 20 random permutations per size */
    size_t n = 0;
    mpp_sim_result *r = run_file("cm5_permutation.yaml", 0, NULL, &n);
    if (!r)
        return;
    CHECKF(n == 20 * MPP_COUNTOF(a), "cm5_permutation.yaml: %zu runs, expected 20 per size", n);
    printf("A. permutation   avg meas  emulated  error |  max meas  emulated |  min meas  emulated "
           "| (max-min)/avg meas emulated\n");
    for (size_t k = 0; k < MPP_COUNTOF(a) && n == 20 * MPP_COUNTOF(a); k++) {
        double sum = 0, mx = 0, mn = INFINITY;
        size_t cnt = 0;
        /* runs in the file's order: size after size, 20 seeds each */
        for (size_t i = 20 * k; i < 20 * (k + 1); i++) {
            double ms = r[i].makespan_ms;
            sum += ms;
            mx = ms > mx ? ms : mx;
            mn = ms < mn ? ms : mn;
            cnt++;
        }
        double avg = sum / (double)cnt, rel = avg / a[k].avg - 1;
        double spread = (mx - mn) / avg, pub = (a[k].max - a[k].min) / a[k].avg;
        printf("   %7llu bytes  %8.3f  %8.3f  %+5.1f%% |  %8.3f  %8.3f |  %8.3f  %8.3f |  %8.3f  %8.3f\n",
               (unsigned long long)a[k].bytes, a[k].avg, avg, 100 * rel, a[k].max, mx, a[k].min,
               mn, pub, spread);
        CHECKF(fabs(rel) <= 0.15, "permutation of %llu bytes: average %.3f ms against %.3f ms",
               (unsigned long long)a[k].bytes, avg, a[k].avg);
        CHECKF(fabs(mx / a[k].max - 1) <= 0.15,
               "permutation of %llu bytes: largest %.3f ms against the published maximum %.3f",
               (unsigned long long)a[k].bytes, mx, a[k].max);
        CHECKF(fabs(mn / a[k].min - 1) <= 0.15,
               "permutation of %llu bytes: smallest %.3f ms against the published minimum %.3f",
               (unsigned long long)a[k].bytes, mn, a[k].min);
        CHECKF(spread >= pub / 2,
               "permutation of %llu bytes: (max - min) / average %.3f, below half the published %.3f",
               (unsigned long long)a[k].bytes, spread, pub);
    }
    free(r);
}

static void table_b(void)
{
    size_t n = 0;
    mpp_sim_result *r = run_file("cm5_contention.yaml", 0, NULL, &n);
    if (!r)
        return;
    CHECK(n == 12);
    if (n != 12) {
        free(r);
        return;
    }
    static const double recv_ms[2][6] = {{0.089, 0.125, 0.205, 0.375, 0.731, 1.396},
                                         {0.516, 1.083, 2.189, 4.693, 9.865, 19.485}};
    static const double send_ms[2][6] = {{0.061, 0.081, 0.116, 0.210, 0.394, 0.815},
                                         {0.488, 1.038, 2.097, 4.502, 9.476, 15.550}};
    static const int d[6] = {1, 2, 4, 8, 16, 31};
    printf("B. contention  d   recv measured/emulated   send ave measured/emulated   send min\n");
    for (int b = 0; b < 2; b++)
        for (int k = 0; k < 6; k++) {
            const mpp_sim_result *x = &r[b * 6 + k];
            printf("   %4d bytes %3d   %8.3f %8.3f         %8.3f %8.3f       %8.3f\n",
                   b ? 4096 : 256, d[k], recv_ms[b][k], x->recv_done_max_ms, send_ms[b][k],
                   x->send_done_mean_ms, x->send_done_min_ms);
            CHECKF(fabs(x->recv_done_max_ms / recv_ms[b][k] - 1) <= 0.30,
                   "%d bytes, d=%d: receive %.3f ms against %.3f ms", b ? 4096 : 256, d[k],
                   x->recv_done_max_ms, recv_ms[b][k]);
            CHECKF(fabs(x->send_done_mean_ms / send_ms[b][k] - 1) <= 0.30,
                   "%d bytes, d=%d: send average %.3f ms against %.3f ms", b ? 4096 : 256, d[k],
                   x->send_done_mean_ms, send_ms[b][k]);
            if (k > 0)
                CHECKF(x->recv_done_max_ms > r[b * 6 + k - 1].recv_done_max_ms,
                       "receive time does not rise from d=%d to d=%d", d[k - 1], d[k]);
        }
    double rel = r[11].recv_done_max_ms / 19.485 - 1;
    CHECKF(fabs(rel) <= 0.25, "4096 bytes, d=31: receive %.3f ms against 19.485 ms", r[11].recv_done_max_ms);
    /* the cluster effect: processors 28..30 share processor 31's group of
     * 4 and finish far earlier at d = 31 than the senders at d = 16. Known
     * miss (docs/validation.md): the emulated network serves the d = 16
     * senders unevenly (the first finishes at 4.3 ms, the machine's at
     * 9.2), so the d = 31 minimum is compared with the d = 16 average */
    CHECKF(r[11].send_done_min_ms < 0.8 * r[10].send_done_mean_ms,
           "no cluster effect: d=31 send minimum %.3f ms, d=16 average %.3f ms",
           r[11].send_done_min_ms, r[10].send_done_mean_ms);
    free(r);
}

/* Open experiments/calibration/NAME and skip its header line; NULL (and a
 * failed check) when it cannot be opened. */
static FILE *open_csv(const char *name, char *path, size_t size)
{
    snprintf(path, size, "%s/experiments/calibration/%s", srcdir, name);
    FILE *f = fopen(path, "r");
    CHECKF(f != NULL, "cannot open %s", path);
    char line[256];
    if (f && !fgets(line, sizeof line, f))
        line[0] = 0;
    return f;
}

static void table_schedcost(void)
{
    char path[1024];
    FILE *f = open_csv("cm5_schedcost.csv", path, sizeof path);
    if (!f)
        return;
    unsigned n[16], d[16];
    double ms[16];
    size_t rows = 0;
    char line[256];
    while (rows < 16 && fgets(line, sizeof line, f))
        if (sscanf(line, "%u,%u,%lf", &n[rows], &d[rows], &ms[rows]) == 3)
            rows++;
    fclose(f);
    CHECKF(rows == 7, "%s: %zu rows, expected 7", path, rows);
    size_t nr = 0;
    mpp_sim_result *r = run_file("cm5_schedcost.yaml", 0, NULL, &nr);
    if (!r)
        return;
    CHECKF(nr == rows * 4, "cm5_schedcost.yaml: %zu runs, expected %zu (4 seeds per row)", nr,
           rows * 4);
    printf("D. schedule cost  n   d   measured  emulated  error\n");
    for (size_t k = 0; k < rows && nr == rows * 4; k++) {
        double sum = 0;
        for (size_t s = 0; s < 4; s++) {
            CHECK(r[k * 4 + s].nodes == n[k]);
            sum += r[k * 4 + s].schedule_ms;
        }
        double model = sum / 4, rel = model / ms[k] - 1;
        printf("               %4u %3u   %8.2f  %8.2f  %+5.1f%%\n", n[k], d[k], ms[k], model,
               100 * rel);
        CHECKF(fabs(rel) <= 0.20, "cgm schedule, n=%u d=%u: %.2f ms against %.2f ms", n[k], d[k],
               model, ms[k]);
    }
    free(r);
}

/* The rows of D the preset misses, each with the bound it keeps (the
 * misses and their mechanisms are in docs/validation.md): a change that
 * makes one worse fails, as does one that pushes any other row out. */
static const struct {
    unsigned d, bytes;
    const char *alg;
    double tol;
} sched_misses[] = {
    {24, 65536, "lp", 0.46},
};

/* D: cm5_sched.csv (d, bytes, ac_ms, lp_ms, gm_ms, cgm_ms) against
 * cm5_sched.yaml (2 matrices per row, runs in sweep order d, msg_unit,
 * scheduler ac lp gm cgm, then seed). */
static void table_sched(void)
{
    char path[1024];
    FILE *f = open_csv("cm5_sched.csv", path, sizeof path);
    if (!f)
        return;
    unsigned d[32], bytes[32];
    double ms[32][4];
    size_t rows = 0;
    char line[256];
    while (rows < 32 && fgets(line, sizeof line, f))
        if (sscanf(line, "%u,%u,%lf,%lf,%lf,%lf", &d[rows], &bytes[rows], &ms[rows][0],
                   &ms[rows][1], &ms[rows][2], &ms[rows][3]) == 6)
            rows++;
    fclose(f);
    CHECKF(rows == 20, "%s: %zu rows, expected 20", path, rows);
    size_t nr = 0;
    mpp_sim_result *r = run_file("cm5_sched.yaml", 0, NULL, &nr);
    if (!r)
        return;
    const size_t S = 2; /* matrices per row */
    CHECKF(nr == rows * 4 * S, "cm5_sched.yaml: %zu runs, expected %zu", nr, rows * 4 * S);
    static const char *const alg[4] = {"ac", "lp", "gm", "cgm"};
    printf("D. scheduled    d  bytes  alg   measured  emulated  error\n");
    for (size_t k = 0; k < rows && nr == rows * 4 * S; k++) {
        double model[4];
        for (int a = 0; a < 4; a++) {
            double sum = 0;
            for (size_t s = 0; s < S; s++)
                sum += r[(k * 4 + (size_t)a) * S + s].comm_ms;
            model[a] = sum / (double)S;
            double rel = model[a] / ms[k][a] - 1;
            /* AC and LP at d = 24 and 64 KB jump 3.5x and 3.2x for twice the
             * bytes on the machine (docs/validation.md): 40% */
            double tol = d[k] == 24 && bytes[k] == 65536 && a < 2 ? 0.40 : 0.20;
            const char *known = "";
            for (size_t m = 0; m < MPP_COUNTOF(sched_misses); m++)
                if (sched_misses[m].d == d[k] && sched_misses[m].bytes == bytes[k] &&
                    !strcmp(sched_misses[m].alg, alg[a])) {
                    tol = sched_misses[m].tol;
                    known = "  known miss (docs/validation.md)";
                }
            printf("              %3u %6u  %-4s %9.3f %9.3f  %+5.1f%%%s\n", d[k], bytes[k], alg[a],
                   ms[k][a], model[a], 100 * rel, known);
            CHECKF(fabs(rel) <= tol, "d=%u, %u bytes, %s: %.3f ms against %.3f ms", d[k],
                   bytes[k], alg[a], model[a], ms[k][a]);
        }
        /* the published order where the published costs differ by 5% */
        for (int a = 0; a < 4; a++)
            for (int b = 0; b < 4; b++)
                if (ms[k][a] * 1.05 < ms[k][b])
                    CHECKF(model[a] < model[b], "d=%u, %u bytes: %s (%.3f ms) should beat %s "
                           "(%.3f ms), as on the machine", d[k], bytes[k], alg[a], model[a],
                           alg[b], model[b]);
    }
    free(r);
}

/* The runs of paragon_bcast.yaml, in the file's order (its zipped sweep
 * axis network.mesh+workload.algorithm+workload.dist+workload.s+
 * workload.bytes). */
static const struct {
    const char *mesh, *alg, *dist;
    unsigned s, bytes, nodes;
} paragon_runs[] = {
    {"8x8", "repos", "cross", 15, 2048, 64},
    {"8x8", "part_xy_source", "cross", 15, 2048, 64},
    {"8x8", "br_xy_source", "R", 15, 2048, 64},
    {"4x8", "br_xy_source", "R", 8, 2048, 32},
    {"8x8", "br_xy_source", "cross", 15, 2048, 64},
    {"10x10", "br_xy_source", "DR", 5, 16384, 100},
    {"10x10", "br_xy_source", "DR", 40, 2048, 100},
};

/* The rows of paragon.csv the preset misses, each with the bound it keeps
 * (the mechanism is in docs/machines.md, "Calibration"): a change that
 * makes one worse fails, as does one that pushes any other row out. */
static const struct {
    const char *table, *alg, *column;
    unsigned s;
    double tol;
} paragon_misses[] = {
    /* none at present; the entry ends the list. The final exchange of
     * part_xy_source is inside (-8%) but fragile: 0.70 to 0.92 of the
     * machine's for dma_packet_cycles 500..600 (docs/machines.md) */
    {NULL, NULL, NULL, 0, 0},
};

/* The index of the broadcast workload's column `name` in
 * mpp_sim_result.extra, or -1. */
static int bcast_column(const char *name)
{
    const mpp_workload_ops *w = mpp_workload_find("broadcast");
    for (uint32_t i = 0; w && i < w->ncolumns; i++)
        if (!strcmp(w->columns[i].name, name))
            return (int)i;
    return -1;
}

/* Paragon: paragon.csv (table, mesh, algorithm, dist, s, bytes, column,
 * ms, tol; '#' lines are comments) against paragon_bcast.yaml. */
static void table_paragon(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/experiments/calibration/paragon.csv", srcdir);
    FILE *f = fopen(path, "r");
    CHECKF(f != NULL, "cannot open %s", path);
    if (!f)
        return;
    size_t nr = 0;
    mpp_sim_result *r = run_file("paragon_bcast.yaml", 0, NULL, &nr);
    if (!r) {
        fclose(f);
        return;
    }
    CHECKF(nr == MPP_COUNTOF(paragon_runs), "paragon_bcast.yaml: %zu runs, expected %zu", nr,
           MPP_COUNTOF(paragon_runs));
    for (size_t i = 0; i < nr && i < MPP_COUNTOF(paragon_runs); i++)
        CHECKF(r[i].nodes == paragon_runs[i].nodes, "paragon_bcast.yaml run %zu: %u nodes, "
               "expected %u (%s)", i, r[i].nodes, paragon_runs[i].nodes, paragon_runs[i].mesh);
    printf("Paragon  table mesh   algorithm       dist   s  bytes  column             measured "
           "emulated  error\n");
    char line[512];
    size_t rows = 0;
    bool header = true;
    while (nr == MPP_COUNTOF(paragon_runs) && fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (header) {
            header = false;
            continue;
        }
        char table[8], mesh[16], alg[32], dist[16], column[32];
        unsigned s, bytes;
        double ms, tol;
        int got = sscanf(line, "%7[^,],%15[^,],%31[^,],%15[^,],%u,%u,%31[^,],%lf,%lf", table,
                         mesh, alg, dist, &s, &bytes, column, &ms, &tol);
        CHECKF(got == 9, "%s: bad line: %s", path, line);
        if (got != 9)
            continue;
        rows++;
        size_t k = 0;
        while (k < MPP_COUNTOF(paragon_runs) &&
               !(!strcmp(paragon_runs[k].mesh, mesh) && !strcmp(paragon_runs[k].alg, alg) &&
                 !strcmp(paragon_runs[k].dist, dist) && paragon_runs[k].s == s &&
                 paragon_runs[k].bytes == bytes))
            k++;
        int col = bcast_column(column);
        CHECKF(k < MPP_COUNTOF(paragon_runs) && col >= 0,
               "%s: no run or no column for: %s", path, line);
        if (k == MPP_COUNTOF(paragon_runs) || col < 0)
            continue;
        double model = r[k].extra[col].d, rel = model / ms - 1;
        const char *known = "";
        for (size_t m = 0; m < MPP_COUNTOF(paragon_misses); m++)
            if (paragon_misses[m].table && !strcmp(paragon_misses[m].table, table) &&
                !strcmp(paragon_misses[m].alg, alg) && !strcmp(paragon_misses[m].column, column) &&
                paragon_misses[m].s == s) {
                tol = paragon_misses[m].tol;
                known = "  known miss (docs/machines.md)";
            }
        printf("         %-5s %-6s %-15s %-5s %3u %6u  %-17s %8.3f %8.3f  %+5.1f%%%s\n", table,
               mesh, alg, dist, s, bytes, column, ms, model, 100 * rel, known);
        CHECKF(fabs(rel) <= tol + 1e-12, "Paragon %s: %s %s on %s, s=%u, %u bytes: %s %.3f ms "
               "against %.3f ms (tolerance %.0f%%)", table, alg, dist, mesh, s, bytes, column,
               model, ms, 100 * tol);
    }
    fclose(f);
    CHECKF(rows == 14, "%s: %zu rows, expected 14", path, rows);
    free(r);
}

/* The applications (cm5_apps.csv: app, N, fraction, ms; Bae and Ranka
 * 1994, Figs. 31 and 32) on one node processor of the cm5 preset, as
 * `mppnet app` runs them: Wolff's scale time T/S x N^2 (100 thermalisation
 * and 100 measured sweeps, seed 1) and Lee's wavefront expansion (ten
 * instances of seed 1, each routed for 20 pairs: docs/apps.md says why)
 * within 10% of every published time. */
static void table_apps(void)
{
    char path[1024];
    FILE *f = open_csv("cm5_apps.csv", path, sizeof path);
    if (!f)
        return;
    mpp_err err;
    mpp_node_config node;
    int rc = mpp_experiment_machine_node("cm5", &node, &err);
    CHECKF(rc == 0, "cm5: %s", rc ? err.msg : "");
    const mpp_app_costs costs = {node.app_site_cycles, node.app_test_cycles,
                                 node.app_random_cycles, node.app_queue_cycles};
    CHECK(costs.site && costs.test && costs.random && costs.queue);
    printf("apps (one processor)  N   blocked  published  emulated  error\n");
    char line[256];
    size_t rows = 0;
    while (!rc && fgets(line, sizeof line, f)) {
        char app[16];
        unsigned N;
        double fraction = 0, ms;
        if (sscanf(line, "wolff,%u,,%lf", &N, &ms) == 2)
            strcpy(app, "wolff");
        else if (sscanf(line, "lee,%u,%lf,%lf", &N, &fraction, &ms) == 3)
            strcpy(app, "lee");
        else
            continue;
        rows++;
        mpp_app_seq seq;
        bool wolff = app[0] == 'w';
        rc = wolff ? mpp_wolff_sequential(N, MPP_WOLFF_BETA_C, 1, 100, 100, &seq, &err)
                   : mpp_lee_sequential(N, fraction, 1, 10, 20, &seq, &err);
        CHECKF(rc == 0, "%s N=%u: %s", app, N, rc ? err.msg : "");
        if (rc)
            break;
        /* the mean time of a sweep or an expansion, ms; Wolff: scaled to
         * N^2 sites (T / S x N^2) */
        double model = (double)mpp_app_work_cycles(&seq.counts, &costs) / seq.runs /
                       (node.cpu_mhz * 1000.0);
        if (wolff)
            model *= (double)seq.runs / (double)seq.size * (double)N * N;
        double rel = model / ms - 1;
        printf("  %-5s %17u  %7s  %9.3f  %8.3f  %+5.1f%%\n", app, N,
               wolff ? "" : fraction == 0.25 ? "25%" : "50%", ms, model, 100 * rel);
        CHECKF(fabs(rel) <= 0.10, "%s N=%u blocked %g: %.3f ms against %.3f ms", app, N, fraction,
               model, ms);
    }
    fclose(f);
    CHECKF(rows == 9, "%s: %zu rows, expected 9", path, rows);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        srcdir = argv[1];
    const char *part = argc > 2 ? argv[2] : "";
    bool machines = !strcmp(part, "machines");
    if (!*part || machines || !strcmp(part, "cm5")) {
        table_a();
        table_b();
        table_sched();
        table_schedcost();
    }
    if (!*part || machines || !strcmp(part, "paragon"))
        table_paragon();
    if (!*part || !strcmp(part, "apps"))
        table_apps();
    TEST_DONE();
}
