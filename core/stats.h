/* core/stats.h — exact latency histograms and the result column table
 * (mpp_stats_*). A histogram counts each integer value exactly in a growable
 * array (latencies are small integers of cycles), so percentiles are exact
 * and deterministic; growth happens only when a new maximum is seen, never
 * per event in steady state. */
#ifndef MPP_CORE_STATS_H
#define MPP_CORE_STATS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct mpp_hist {
    uint64_t *count;   /* count[v] = samples equal to v, for v < cap */
    uint64_t cap;
    uint64_t n;        /* samples */
    uint64_t max;
    long double sum;   /* exact for sums below 2^64 */
    bool failed;       /* an allocation failed: percentiles are unreliable */
} mpp_hist;

void mpp_hist_init(mpp_hist *h);
void mpp_hist_free(mpp_hist *h);
/* Add one sample (may grow the array; on allocation failure sets failed). */
void mpp_hist_add(mpp_hist *h, uint64_t v);
double mpp_hist_mean(const mpp_hist *h);
/* The smallest value v with at least q x n samples <= v (q in (0, 1]);
 * 0 for an empty histogram. */
uint64_t mpp_hist_quantile(const mpp_hist *h, double q);

#endif
