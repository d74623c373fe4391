/* test/test_rng.c — random streams (core/rng.h): fixed known values (a
 * change would change every result), independent streams per (seed, kind,
 * id), unbiased below(), thresholds, shuffles are permutations. */
#include <stdlib.h>

#include "core/base/rng.h"
#include "test/testutil.h"

int main(void)
{
    mpp_rng a, b, c;
    mpp_rng_init(&a, 1, MPP_RNG_TRAFFIC, 0);
    mpp_rng_init(&b, 1, MPP_RNG_TRAFFIC, 0);
    mpp_rng_init(&c, 1, MPP_RNG_TRAFFIC, 1);
    uint64_t first = mpp_rng_next(&a);
    CHECK(first == mpp_rng_next(&b));
    CHECK(first != mpp_rng_next(&c));
    mpp_rng_init(&c, 2, MPP_RNG_TRAFFIC, 0);
    CHECK(first != mpp_rng_next(&c));
    mpp_rng_init(&c, 1, MPP_RNG_ROUTER, 0);
    CHECK(first != mpp_rng_next(&c));
    /* the stream is pinned: this value must never change */
    mpp_rng_init(&a, 12345, MPP_RNG_TRAFFIC, 7);
    uint64_t pinned = mpp_rng_next(&a);
    CHECKF(pinned == 2430066081985676167ULL, "got %llu", (unsigned long long)pinned);

    uint32_t hist[7] = {0};
    for (int i = 0; i < 70000; i++) {
        uint32_t v = mpp_rng_below(&b, 7);
        CHECK(v < 7);
        if (v < 7)
            hist[v]++;
    }
    for (int i = 0; i < 7; i++)
        CHECKF(hist[i] > 9500 && hist[i] < 10500, "bucket %d = %u", i, hist[i]);
    CHECK(mpp_rng_threshold(0) == 0);
    CHECK(mpp_rng_threshold(1) == UINT64_MAX);
    uint64_t th = mpp_rng_threshold(0.25);
    int hits = 0;
    for (int i = 0; i < 100000; i++)
        hits += mpp_rng_next(&b) < th;
    CHECK(hits > 24000 && hits < 26000);
    for (int i = 0; i < 1000; i++) {
        double d = mpp_rng_double(&b);
        CHECK(d >= 0.0 && d < 1.0);
    }
    uint32_t arr[50], seen[50] = {0};
    for (uint32_t i = 0; i < 50; i++)
        arr[i] = i;
    mpp_rng_shuffle(&b, arr, 50);
    for (uint32_t i = 0; i < 50; i++)
        seen[arr[i]]++;
    for (uint32_t i = 0; i < 50; i++)
        CHECK(seen[i] == 1);
    TEST_DONE();
}
