/* test/test_saturation.c — bounds (small versions of the docs' curves):
 * on an 8x8 mesh with e-cube, 5-flit packets and 2 VCs x 8 flits, uniform
 * traffic is carried at 0.30 and saturates below the channel-load bound
 * (0.5) but above 0.30; transpose saturates lower; on a 64-node hypercube
 * bit-reversal saturates far below uniform. */
#include <string.h>

#include "core/sim.h"
#include "test/testutil.h"

static mpp_sim_result run(int hcube, const char *pattern, double rate)
{
    mpp_sim_config c;
    mpp_config_defaults(&c);
    if (hcube)
        test_hcube(&c, 6);
    else
        test_mesh(&c, 8, 8);
    test_set(&c, "workload.pattern", "%s", pattern);
    test_set(&c, "workload.rate", "%.17g", rate);
    test_set(&c, "workload.warmup", "2000");
    test_set(&c, "workload.measure", "5000");
    test_set(&c, "workload.drain_factor", "3");
    mpp_err err;
    mpp_sim_result r;
    memset(&r, 0, sizeof r);
    mpp_sim *s = mpp_sim_create(&c, &err);
    CHECKF(s != NULL, "%s", err.msg);
    if (!s)
        return r;
    CHECK(mpp_sim_run(s, NULL, NULL, &err) == 0);
    r = *mpp_sim_result_get(s);
    mpp_sim_destroy(s);
    printf("%-10s %-12s %.2f: accepted %.4f latency %.1f saturated %d\n", hcube ? "hypercube" : "mesh",
           pattern, rate, r.accepted, r.latency_mean, r.saturated);
    return r;
}

int main(void)
{
    mpp_sim_result u30 = run(0, "uniform", 0.30);
    mpp_sim_result u60 = run(0, "uniform", 0.60);
    mpp_sim_result t30 = run(0, "transpose", 0.30);
    CHECK(!u30.saturated && u30.drained);
    CHECK(u30.accepted > 0.28);
    CHECK(u60.saturated);
    CHECK(u60.accepted > 0.30 && u60.accepted < 0.50); /* below the bisection bound */
    CHECK(t30.saturated);
    CHECK(t30.accepted < u60.accepted);
    mpp_sim_result hu = run(1, "uniform", 0.50);
    mpp_sim_result hb = run(1, "bitrev", 0.50);
    CHECK(!hu.saturated);
    CHECK(hb.saturated);
    CHECK(hb.accepted < 0.8 * hu.accepted);
    TEST_DONE();
}
