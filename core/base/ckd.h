/* core/base/ckd.h — checked arithmetic on uint64_t cycles, bytes and counts
 * (mpp_ckd_*), the one place for it (docs/config.md, "Arithmetic").
 *
 * The first defence against a wrapped sum is the schemas' maxima: every
 * window and cycle key is at most MPP_CKD_VALUE_MAX (2^48), every
 * per-operation cost at most 2^30 CPU cycles (or 2^40 network cycles on the
 * control network), every size at most 2^48 bytes, so a sum of a few of
 * them, or a cost times a count of at most 2^16, cannot reach 2^64. These
 * helpers are the second defence, where a sum has many terms that grow
 * with the run (a program's accumulated costs, a trace's times, the clock
 * of node processors): they say when a result would not fit, and the
 * caller turns that into a reported error (never a silent wrap). A
 * simulated time is refused beyond MPP_CKD_TIME_MAX (2^62), which leaves
 * room to add one more bounded cost to any time without a check.
 *
 * Pure static inline functions over GCC/Clang builtins; no state. */
#ifndef MPP_CORE_BASE_CKD_H
#define MPP_CORE_BASE_CKD_H

#include <stdbool.h>
#include <stdint.h>

/* The largest cycles, bytes or U64 count a schema accepts (2^48). */
#define MPP_CKD_VALUE_MAX ((uint64_t)1 << 48)
/* The same bounds as schema rows' max (double): every window and cycle
 * count key (warmup, measure, watchdog_cycles), and every control-network
 * cost (barrier_cycles, reduce_cycles, reduce_word_cycles: 2^40). */
#define MPP_CKD_WINDOW_MAX 281474976710656.0 /* 2^48 */
#define MPP_CKD_CONTROL_MAX 1099511627776.0  /* 2^40 */
/* The latest simulated time (network or CPU cycles) a run may reach; past
 * it a run fails with a message (2^62). */
#define MPP_CKD_TIME_MAX ((uint64_t)1 << 62)

/* *r = a + b; true when the exact sum does not fit (then *r is the
 * wrapped value and must not be used). */
static inline bool mpp_ckd_add(uint64_t *r, uint64_t a, uint64_t b)
{
    return __builtin_add_overflow(a, b, r);
}

/* *r = a x b; true when the exact product does not fit. */
static inline bool mpp_ckd_mul(uint64_t *r, uint64_t a, uint64_t b)
{
    return __builtin_mul_overflow(a, b, r);
}

/* a + b, or UINT64_MAX when it does not fit: for times and costs whose
 * result is checked against a limit below UINT64_MAX afterwards. */
static inline uint64_t mpp_ckd_sat_add(uint64_t a, uint64_t b)
{
    uint64_t r;
    return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

/* a x b, or UINT64_MAX when it does not fit. */
static inline uint64_t mpp_ckd_sat_mul(uint64_t a, uint64_t b)
{
    uint64_t r;
    return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

/* a x b / d rounded down (up when `up`), exact through 128 bits, or
 * UINT64_MAX when the quotient does not fit; d > 0. Clock conversions. */
static inline uint64_t mpp_ckd_muldiv(uint64_t a, uint64_t b, uint64_t d, bool up)
{
    __extension__ typedef unsigned __int128 u128;
    u128 p = (u128)a * b;
    u128 q = p / d + (up && p % d != 0);
    return q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
}

#endif
