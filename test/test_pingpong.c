/* test/test_pingpong.c — the pingpong workload (algorithms/wl_pingpong.c)
 * on the CM-5 preset: every paradigm completes its round trips with the
 * packets it should (sync and async one message each way, am ceil(B/16)
 * active messages, am_put one block), the one-way time is half the round
 * trip and grows with the size, active messages beat the send/receive
 * handshake for small messages, interrupts cost more than polling, and the
 * workload's own columns appear in results.csv only when it is used. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/cli/output.h"
#include "core/config/experiment.h"
#include "core/schema.h"
#include "test/testutil.h"

/* One run: half the mean round trip in microseconds (NaN on failure). */
static double one_way(const char *paradigm, const char *bytes, const char *delivery,
                      uint64_t *messages)
{
    char ov[3][64];
    snprintf(ov[0], sizeof ov[0], "workload.paradigm=%s", paradigm);
    snprintf(ov[1], sizeof ov[1], "workload.bytes=%s", bytes);
    snprintf(ov[2], sizeof ov[2], "node.delivery=%s", delivery);
    const char *const ovs[] = {ov[0], ov[1], ov[2]};
    mpp_err err;
    mpp_experiment *e = mpp_experiment_parse("mppnet: 1\nmachine: cm5\n"
                                             "workload: {type: pingpong, round_trips: 20}\n",
                                             "t.yaml", 3, ovs, &err);
    CHECKF(e != NULL, "%s", err.msg);
    if (!e)
        return NAN;
    mpp_sim *s = mpp_sim_create(mpp_experiment_config(e, 0), &err);
    CHECKF(s != NULL, "%s", err.msg);
    double v = NAN;
    if (s && mpp_sim_run(s, NULL, NULL, &err) == 0) {
        const mpp_sim_result *r = mpp_sim_result_get(s);
        CHECK(r->extra[0].u == 20);
        CHECKF(fabs(r->extra[1].d - 2 * r->extra[2].d) < 1e-9, "%s: round trip %g, half %g",
               paradigm, r->extra[1].d, r->extra[2].d);
        v = r->extra[2].d;
        *messages = r->messages;
    } else if (s) {
        CHECKF(0, "%s %s: %s", paradigm, bytes, err.msg);
    }
    mpp_sim_destroy(s);
    mpp_experiment_destroy(e);
    return v;
}

static void test_paradigms(void)
{
    static const char *const pars[] = {"sync", "async", "am", "am_put"};
    double small[4], large[4];
    for (int p = 0; p < 4; p++) {
        uint64_t m16 = 0, m1k = 0;
        small[p] = one_way(pars[p], "16", "poll", &m16);
        large[p] = one_way(pars[p], "1KiB", "poll", &m1k);
        /* 20 round trips: 40 messages, or 40 x 64 active messages of 16 B */
        uint64_t want = p == 2 ? 40 * 64 : 40;
        CHECKF(m16 == 40 && m1k == want, "%s: %llu and %llu messages", pars[p],
               (unsigned long long)m16, (unsigned long long)m1k);
        CHECKF(small[p] > 0 && large[p] > small[p], "%s: %.2f us at 16 B, %.2f at 1 KiB",
               pars[p], small[p], large[p]);
        printf("%-7s one way: %7.2f us at 16 B, %7.2f us at 1 KiB\n", pars[p], small[p],
               large[p]);
    }
    /* no handshake: active messages are far cheaper for small messages */
    CHECK(small[2] < small[0] / 4 && small[3] < small[0] / 4);
    /* the buffering send's copy makes async dearer than sync */
    CHECK(small[1] > small[0] && large[1] > large[0]);
    uint64_t m;
    double irq = one_way("am", "16", "interrupt", &m);
    CHECKF(irq > small[2], "am on interrupt %.2f us, polled %.2f", irq, small[2]);
}

static void test_columns(void)
{
    const char *text = "mppnet: 1\nmachine: cm5\nworkload: {type: pingpong, round_trips: 5}\n"
                       "sweep: {workload.type: [pingpong, messages]}\n";
    mpp_err err;
    mpp_experiment *e = mpp_experiment_parse(text, "t.yaml", 0, NULL, &err);
    CHECKF(e == NULL, "a messages run must reject pingpong's round_trips key");
    if (e)
        mpp_experiment_destroy(e);
    e = mpp_experiment_parse("mppnet: 1\nmachine: cm5\nworkload: {type: pingpong, round_trips: 5}\n",
                             "t.yaml", 0, NULL, &err);
    CHECKF(e != NULL, "%s", err.msg);
    if (!e)
        return;
    mpp_output_run run;
    mpp_output_run_init(&run);
    mpp_sim *s = mpp_sim_create(mpp_experiment_config(e, 0), &err);
    CHECK(s && mpp_sim_run(s, NULL, NULL, &err) == 0);
    if (s)
        CHECK(mpp_output_run_collect(&run, s, 0, NULL, false, false, false, &err) == 0);
    mpp_sb sb;
    mpp_sb_init(&sb);
    mpp_output_results_csv(&sb, e, &run, 1);
    const char *nl = strchr(sb.s, '\n');
    static const char tail[] = ",drained,round_trips,round_trip_us,half_round_trip_us";
    CHECKF(nl && nl - sb.s > (long)sizeof tail && !strncmp(nl - (sizeof tail - 1), tail, sizeof tail - 1),
           "header: %.*s", nl ? (int)(nl - sb.s) : 0, sb.s);
    CHECK(strstr(nl ? nl : "", ",5,") != NULL);
    mpp_sb_free(&sb);
    mpp_output_run_free(&run);
    mpp_sim_destroy(s);
    mpp_experiment_destroy(e);
}

int main(void)
{
    test_paradigms();
    test_columns();
    TEST_DONE();
}
