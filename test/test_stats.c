/* test/test_stats.c — exact histograms and the result table (core/stats.c),
 * the string builder (core/base/strbuf.c) and error helpers (core/base/err.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/err.h"
#include "core/stats.h"
#include "core/base/strbuf.h"
#include "test/testutil.h"

int main(void)
{
    mpp_hist h;
    mpp_hist_init(&h);
    CHECK(mpp_hist_quantile(&h, 0.5) == 0);
    CHECK(isnan(mpp_hist_mean(&h)));
    for (uint64_t v = 1; v <= 100; v++)
        mpp_hist_add(&h, v);
    mpp_hist_add(&h, 100000); /* forces growth */
    CHECK(h.n == 101 && h.max == 100000);
    CHECK(mpp_hist_quantile(&h, 0.5) == 51);
    CHECK(mpp_hist_quantile(&h, 0.99) == 100);
    CHECK(mpp_hist_quantile(&h, 1.0) == 100000);
    CHECK(fabs(mpp_hist_mean(&h) - (5050.0 + 100000.0) / 101.0) < 1e-9);
    mpp_hist_free(&h);

    /* beyond MPP_HIST_EXACT: buckets of 2^-16 of the value, bounded memory,
     * exact mean and maximum, percentiles at the lower end of a bucket */
    mpp_hist_init(&h);
    const uint64_t big = (UINT64_C(1) << 40) + 12345;
    for (int k = 0; k < 10; k++)
        mpp_hist_add(&h, 7);
    for (int k = 0; k < 10; k++)
        mpp_hist_add(&h, big + (uint64_t)k);
    mpp_hist_add(&h, UINT64_MAX - 1);
    CHECK(!h.failed && h.cap <= 256);
    CHECK(mpp_hist_quantile(&h, 0.4) == 7);
    uint64_t q = mpp_hist_quantile(&h, 0.9);
    CHECKF(q <= big && big - q < (UINT64_C(1) << 24), "%llu", (unsigned long long)q);
    CHECK(mpp_hist_quantile(&h, 1.0) == UINT64_MAX - 1);
    CHECK(h.max == UINT64_MAX - 1);
    uint64_t pow2 = MPP_HIST_EXACT;
    mpp_hist_add(&h, pow2 - 1); /* the last exact value */
    mpp_hist_add(&h, pow2);     /* the first bucketed one */
    CHECK(h.n == 23);
    mpp_hist_free(&h);

    /* every result field is named once and lies inside the struct */
    for (size_t i = 0; i < mpp_result_nfields; i++) {
        CHECK(mpp_result_fields[i].offset < sizeof(mpp_sim_result));
        for (size_t j = 0; j < i; j++)
            CHECK(strcmp(mpp_result_fields[i].name, mpp_result_fields[j].name) != 0);
        CHECK(strcmp(mpp_result_fields[i].name, "wall_seconds") != 0);
    }

    mpp_sb sb;
    mpp_sb_init(&sb);
    mpp_sb_add(&sb, "a");
    mpp_sb_printf(&sb, "%d-%s", 42, "x");
    mpp_sb_json_str(&sb, "q\"\\\n");
    CHECK(strcmp(sb.s, "a42-x\"q\\\"\\\\\\n\"") == 0);
    mpp_sb_reset(&sb);
    mpp_sb_double(&sb, 0.1);
    mpp_sb_addc(&sb, ' ');
    mpp_sb_double(&sb, 1.0 / 3.0);
    mpp_sb_addc(&sb, ' ');
    mpp_sb_double(&sb, NAN);
    CHECK(strcmp(sb.s, "0.1 0.3333333333333333 null") == 0);
    for (int i = 0; i < 10000; i++)
        mpp_sb_add(&sb, "0123456789");
    CHECK(sb.len == 100000 + strlen("0.1 0.3333333333333333 null") && mpp_sb_ok(&sb));
    mpp_sb_free(&sb);

    mpp_err e;
    CHECK(mpp_err_set(&e, MPP_EINVAL, "bad %s", "thing") == MPP_EINVAL);
    mpp_err_prefix(&e, "file.yaml:%d:%d", 3, 4);
    CHECK(strcmp(e.msg, "file.yaml:3:4: bad thing") == 0);
    CHECK(mpp_err_exit_status(MPP_OK) == 0);
    CHECK(mpp_err_exit_status(MPP_EDEADLOCK) == 1);
    CHECK(mpp_err_exit_status(MPP_EINVAL) == 2);
    CHECK(mpp_err_exit_status(MPP_EIO) == 2);
    mpp_err_clear(&e);
    CHECK(e.code == 0 && e.msg[0] == 0);
    TEST_DONE();
}
