/* core/par.h — a fixed team of threads that runs one function on every
 * thread, once per call, and returns when all are done (mpp_par_*): the
 * engine's one barrier per cycle (core/network.c, mpp_net_threads).
 *
 * The caller is thread 0; threads 1..T-1 are started at create and wait
 * between calls, spinning a short while (when the machine has a core for
 * each thread) and then sleeping on a condition variable, so that a team
 * larger than the machine still makes progress. A call is one barrier: the
 * release of the workers, and their arrival at the end. Nothing is
 * allocated per call. */
#ifndef MPP_CORE_PAR_H
#define MPP_CORE_PAR_H

#include <stdint.h>

#include "core/base/err.h"

typedef struct mpp_par mpp_par;

/* The work of one call on thread t (0 <= t < T); ud is create's. */
typedef void (*mpp_par_fn)(void *ud, uint32_t t);

/* Start a team of T threads (T >= 2: T - 1 new ones) that will run fn(ud,
 * t). Returns NULL with err filled (MPP_ENOMEM, or MPP_EINVAL when the
 * system refuses a thread). Owns its threads; mpp_par_destroy ends them. */
mpp_par *mpp_par_create(uint32_t T, mpp_par_fn fn, void *ud, mpp_err *err);

/* Run fn on every thread of the team, fn(ud, 0) on the caller, and return
 * when every thread has returned from it. Everything the caller wrote
 * before the call is visible to the workers, and everything they wrote is
 * visible to the caller after it (hot: once per simulated cycle). */
void mpp_par_run(mpp_par *p);

/* Stop and join the workers, free the team. NULL: no-op. */
void mpp_par_destroy(mpp_par *p);

/* Nanoseconds one mpp_par_run with an empty fn takes, the median of
 * `calls` calls on a new team of T threads (docs/scaling.md).
 * Negative: the team could not be started. */
double mpp_par_barrier_ns(uint32_t T, uint32_t calls);

#endif
