/* test/test_calibration.c — the `cm5` preset against the measurements of
 * the real 32-node CM-5 (experiments/calibration/, from shared/calibration):
 *   A. one random permutation, 16 B .. 256 KB: every emulated average
 *      within 15% of the measured one (several seeds for the small sizes,
 *      one for the large ones, whose spread is small);
 *   B. d senders to processor 31: the receive times rise with d, the
 *      4096-byte d = 31 receive time is within 25%, and the d = 31 send
 *      minimum is clearly below the d = 16 one (processors 28..30 share
 *      processor 31's cluster of 4: the cluster effect).
 *   D. the cost of computing the CGM schedule on one node processor at
 *      n = 32 (cm5_schedcost.yaml: schedule_ms, mean of 4 random d-regular
 *      matrices per d): within 20% of every row of cm5_schedcost.csv.
 * Runs the experiment files themselves, so the test and `mppnet run` agree.
 * Usage: test_calibration SRCDIR. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config/experiment.h"
#include "core/sim.h"
#include "test/testutil.h"

static const char *srcdir = ".";

/* Run every run of the experiment file with the overrides; return the
 * results (caller frees) and their count. */
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
    for (size_t i = 0; i < *n; i++) {
        mpp_sim *s = mpp_sim_create(mpp_experiment_config(e, i), &err);
        CHECKF(s != NULL, "%s", err.msg);
        if (!s)
            continue;
        CHECKF(mpp_sim_run(s, NULL, NULL, &err) == 0, "%s", err.msg);
        r[i] = *mpp_sim_result_get(s);
        mpp_sim_destroy(s);
    }
    mpp_experiment_destroy(e);
    return r;
}

static void table_a(void)
{
    static const struct {
        const char *bytes, *seeds;
        double ms;
    } a[] = {
        {"16", "[1, 2, 3, 4, 5, 6]", 0.211},   {"64", "[1, 2, 3, 4, 5, 6]", 0.220},
        {"256", "[1, 2, 3, 4, 5, 6]", 0.258},  {"1024", "[1, 2, 3, 4]", 0.422},
        {"4096", "[1, 2, 3]", 1.046},          {"16384", "[1, 2]", 3.608},
        {"65536", "[1]", 14.013},              {"262144", "[1]", 55.833},
    };
    printf("A. permutation       measured  emulated  error\n");
    for (size_t k = 0; k < MPP_COUNTOF(a); k++) {
        char o1[64], o2[64];
        snprintf(o1, sizeof o1, "sweep.workload.bytes=[%s]", a[k].bytes);
        snprintf(o2, sizeof o2, "seeds=%s", a[k].seeds);
        const char *ov[] = {o1, o2};
        size_t n = 0;
        mpp_sim_result *r = run_file("cm5_permutation.yaml", 2, ov, &n);
        if (!r)
            return;
        double sum = 0;
        for (size_t i = 0; i < n; i++)
            sum += r[i].makespan_ms;
        double avg = sum / (double)n, rel = avg / a[k].ms - 1;
        printf("   %7s bytes      %8.3f  %8.3f  %+5.1f%%\n", a[k].bytes, a[k].ms, avg, 100 * rel);
        CHECKF(fabs(rel) <= 0.15, "permutation of %s bytes: %.3f ms against %.3f ms measured",
               a[k].bytes, avg, a[k].ms);
        free(r);
    }
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
    static const int d[6] = {1, 2, 4, 8, 16, 31};
    printf("B. contention  d   recv measured/emulated   send min emulated\n");
    for (int b = 0; b < 2; b++)
        for (int k = 0; k < 6; k++) {
            const mpp_sim_result *x = &r[b * 6 + k];
            printf("   %4d bytes %3d   %8.3f %8.3f       %8.3f\n", b ? 4096 : 256, d[k],
                   recv_ms[b][k], x->recv_done_max_ms, x->send_done_min_ms);
            if (k > 0)
                CHECKF(x->recv_done_max_ms > r[b * 6 + k - 1].recv_done_max_ms,
                       "receive time does not rise from d=%d to d=%d", d[k - 1], d[k]);
        }
    double rel = r[11].recv_done_max_ms / 19.485 - 1;
    CHECKF(fabs(rel) <= 0.25, "4096 bytes, d=31: receive %.3f ms against 19.485 ms", r[11].recv_done_max_ms);
    CHECKF(r[11].send_done_min_ms < 0.8 * r[10].send_done_min_ms,
           "no cluster effect: d=31 send minimum %.3f ms, d=16 %.3f ms", r[11].send_done_min_ms,
           r[10].send_done_min_ms);
    free(r);
}

static void table_d(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/experiments/calibration/cm5_schedcost.csv", srcdir);
    FILE *f = fopen(path, "r");
    CHECKF(f != NULL, "cannot open %s", path);
    if (!f)
        return;
    unsigned n[16], d[16];
    double ms[16];
    size_t rows = 0;
    char line[256];
    if (!fgets(line, sizeof line, f)) /* the header: n,d,cgm_schedule_ms */
        line[0] = 0;
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

int main(int argc, char **argv)
{
    if (argc > 1)
        srcdir = argv[1];
    table_a();
    table_b();
    table_d();
    TEST_DONE();
}
