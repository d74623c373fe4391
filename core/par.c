/* core/par.c — a team of threads with one barrier per call (see par.h).
 *
 * Data: a generation counter `gen` that the caller increments to release a
 * round, a counter `left` of workers still in the round, and, for waiting
 * without spinning, a mutex with two condition variables and a count of
 * sleeping workers and a flag for a sleeping caller. The two counters sit
 * on separate cache lines: the release is one line moving to every worker,
 * the arrival one line moving back.
 *
 *   worker:  wait gen != seen --> fn(ud, t) --> left -= 1 (the last one
 *            wakes a sleeping caller) --> wait again
 *   caller:  left = T - 1, gen += 1 (wake sleeping workers) --> fn(ud, 0)
 *            --> wait left == 0
 *
 * Sleeping without a lost wake-up: a waiter announces itself (sleepers,
 * caller_sleeps) under the mutex and then tests the counter; the waker
 * changes the counter and then tests the announcement, both sequentially
 * consistent, so one of the two sees the other, and a waker that sees a
 * waiter takes the mutex (which the waiter holds until it sleeps) to
 * signal it.
 *
 * Invariants:
 *   1. between calls, left == 0 and every worker has seen gen;
 *   2. a worker runs fn at most once per increment of gen;
 *   3. stop is set only with a final increment of gen, after which the
 *      workers return.
 */
#include "core/par.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/base/file.h"

#if defined(__x86_64__) || defined(__i386__)
#define CPU_RELAX() __builtin_ia32_pause()
#else
#define CPU_RELAX() ((void)0)
#endif

/* Spins before sleeping: about a quarter of a millisecond when each thread
 * has a core, a few when the team is larger than the machine (a spinning
 * thread would then hold the core the others need). */
#define SPIN_OWN 8192u
#define SPIN_SHARED 16u

typedef struct worker {
    mpp_par *p;
    uint32_t t;
} worker;

struct mpp_par {
    _Alignas(64) atomic_uint gen;  /* rounds released */
    _Alignas(64) atomic_uint left; /* workers not yet done with this round */
    _Alignas(64) uint32_t T;
    uint32_t spin;
    mpp_par_fn fn;
    void *ud;
    atomic_bool stop;
    atomic_uint sleepers;          /* workers asleep (or about to be) on go */
    atomic_bool caller_sleeps;     /* the caller asleep (or about to be) on done */
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    bool sync_ok;                  /* mu, go and done were initialised */
    uint32_t started;              /* workers started */
    pthread_t *th;                 /* [T - 1] */
    worker *w;                     /* [T - 1] */
};

static void *worker_main(void *arg)
{
    worker *w = arg;
    mpp_par *p = w->p;
    unsigned seen = 0;
    for (;;) {
        uint32_t k = 0;
        while (atomic_load_explicit(&p->gen, memory_order_acquire) == seen && k < p->spin) {
            CPU_RELAX();
            k++;
        }
        if (atomic_load(&p->gen) == seen) {
            pthread_mutex_lock(&p->mu);
            atomic_fetch_add(&p->sleepers, 1);
            while (atomic_load(&p->gen) == seen)
                pthread_cond_wait(&p->go, &p->mu);
            atomic_fetch_sub(&p->sleepers, 1);
            pthread_mutex_unlock(&p->mu);
        }
        seen = atomic_load(&p->gen);
        if (atomic_load(&p->stop))
            return NULL;
        p->fn(p->ud, w->t);
        if (atomic_fetch_sub(&p->left, 1) == 1 && atomic_load(&p->caller_sleeps)) {
            pthread_mutex_lock(&p->mu);
            pthread_cond_signal(&p->done);
            pthread_mutex_unlock(&p->mu);
        }
    }
}

/* Release a round (or, with stop set, the end). */
static void release(mpp_par *p)
{
    atomic_store(&p->left, p->T - 1);
    atomic_fetch_add(&p->gen, 1);
    if (atomic_load(&p->sleepers)) {
        pthread_mutex_lock(&p->mu);
        pthread_cond_broadcast(&p->go);
        pthread_mutex_unlock(&p->mu);
    }
}

void mpp_par_run(mpp_par *p)
{
    release(p);
    p->fn(p->ud, 0);
    uint32_t k = 0;
    while (atomic_load_explicit(&p->left, memory_order_acquire) != 0 && k < p->spin) {
        CPU_RELAX();
        k++;
    }
    if (atomic_load(&p->left) != 0) {
        pthread_mutex_lock(&p->mu);
        atomic_store(&p->caller_sleeps, true);
        while (atomic_load(&p->left) != 0)
            pthread_cond_wait(&p->done, &p->mu);
        atomic_store(&p->caller_sleeps, false);
        pthread_mutex_unlock(&p->mu);
    }
}

mpp_par *mpp_par_create(uint32_t T, mpp_par_fn fn, void *ud, mpp_err *err)
{
    mpp_par *p = aligned_alloc(64, (sizeof *p + 63) & ~(size_t)63);
    if (!p) {
        mpp_err_set(err, MPP_ENOMEM, "out of memory starting %u threads", T);
        return NULL;
    }
    *p = (mpp_par){.T = T, .fn = fn, .ud = ud};
    atomic_init(&p->gen, 0);
    atomic_init(&p->left, 0);
    atomic_init(&p->stop, false);
    atomic_init(&p->sleepers, 0);
    atomic_init(&p->caller_sleeps, false);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    p->spin = cpus >= (long)T ? SPIN_OWN : SPIN_SHARED;
    p->th = calloc(T, sizeof *p->th);
    p->w = calloc(T, sizeof *p->w);
    if (!p->th || !p->w) {
        mpp_err_set(err, MPP_ENOMEM, "out of memory starting %u threads", T);
        goto fail;
    }
    if (pthread_mutex_init(&p->mu, NULL)) {
        mpp_err_set(err, MPP_ENOMEM, "cannot create a mutex for %u threads", T);
        goto fail;
    }
    if (pthread_cond_init(&p->go, NULL)) {
        pthread_mutex_destroy(&p->mu);
        mpp_err_set(err, MPP_ENOMEM, "cannot create a condition variable for %u threads", T);
        goto fail;
    }
    if (pthread_cond_init(&p->done, NULL)) {
        pthread_cond_destroy(&p->go);
        pthread_mutex_destroy(&p->mu);
        mpp_err_set(err, MPP_ENOMEM, "cannot create a condition variable for %u threads", T);
        goto fail;
    }
    p->sync_ok = true;
    for (uint32_t t = 1; t < T; t++) {
        p->w[t - 1] = (worker){.p = p, .t = t};
        if (pthread_create(&p->th[t - 1], NULL, worker_main, &p->w[t - 1])) {
            mpp_err_set(err, MPP_EINVAL, "the system refused thread %u of %u (sim.threads)", t + 1,
                        T);
            goto fail;
        }
        p->started++;
    }
    return p;
fail:
    mpp_par_destroy(p);
    return NULL;
}

void mpp_par_destroy(mpp_par *p)
{
    if (!p)
        return;
    if (p->started) {
        atomic_store(&p->stop, true);
        release(p);
        for (uint32_t t = 0; t < p->started; t++)
            pthread_join(p->th[t], NULL);
    }
    if (p->sync_ok) {
        pthread_cond_destroy(&p->done);
        pthread_cond_destroy(&p->go);
        pthread_mutex_destroy(&p->mu);
    }
    free(p->th);
    free(p->w);
    free(p);
}

static void empty_fn(void *ud, uint32_t t)
{
    (void)ud;
    (void)t;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double mpp_par_barrier_ns(uint32_t T, uint32_t calls)
{
    mpp_par *p = mpp_par_create(T, empty_fn, NULL, NULL);
    double *ns = calloc(calls ? calls : 1, sizeof *ns);
    if (!p || !ns) {
        mpp_par_destroy(p);
        free(ns);
        return -1;
    }
    /* batches of 64 calls, so that the clock's own cost is spread */
    uint32_t nb = calls / 64 ? calls / 64 : 1;
    for (uint32_t b = 0; b < nb; b++) {
        double t0 = mpp_host_seconds();
        for (uint32_t i = 0; i < 64; i++)
            mpp_par_run(p);
        ns[b] = (mpp_host_seconds() - t0) * 1e9 / 64;
    }
    qsort(ns, nb, sizeof *ns, cmp_double);
    double med = ns[nb / 2];
    mpp_par_destroy(p);
    free(ns);
    return med;
}
