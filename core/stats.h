/* core/stats.h — latency histograms and the result column table
 * (mpp_stats_*). A histogram counts each integer value below
 * MPP_HIST_EXACT (2^21 cycles) exactly in a growable array (latencies are
 * small integers of cycles), so their percentiles are exact and
 * deterministic; growth happens only when a new maximum is seen, never per
 * event in steady state. Larger values (a message of gigabytes waiting at
 * its source) are counted in 2^16 buckets per power of two, allocated when
 * first used: a percentile there is the lower end of its bucket, within
 * 2^-16 of the value, and memory stays bounded (at most 16 MiB + 512 KiB per
 * power of two) whatever the values. Mean and maximum are always exact. */
#ifndef MPP_CORE_STATS_H
#define MPP_CORE_STATS_H

#include <stdbool.h>
#include <stdint.h>

#define MPP_HIST_EXACT_BITS 21
#define MPP_HIST_EXACT (UINT64_C(1) << MPP_HIST_EXACT_BITS)
#define MPP_HIST_SUB_BITS 16 /* buckets per power of two above MPP_HIST_EXACT: 2^16 */

typedef struct mpp_hist {
    uint64_t *count;   /* count[v] = samples equal to v, for v < cap <= MPP_HIST_EXACT */
    uint64_t cap;
    uint64_t *octave[64 - MPP_HIST_EXACT_BITS]; /* [e - 21]: values in [2^e, 2^(e+1)), in
                                                   2^16 buckets, or NULL */
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
 * 0 for an empty histogram. Above MPP_HIST_EXACT: the lower end of v's
 * bucket (the maximum in the maximum's bucket). */
uint64_t mpp_hist_quantile(const mpp_hist *h, double q);

#endif
