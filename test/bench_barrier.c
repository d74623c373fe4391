/* test/bench_barrier.c — the cost of the engine's barrier (core/par.h):
 * nanoseconds per mpp_par_run with nothing to do, the median of batches,
 * for teams of 2.. threads (docs/scaling.md). A benchmark, not a
 * test: it prints, it never fails on a slow or loaded machine.
 *
 *   bench_barrier [MAX_THREADS [CALLS]]     (defaults 4, 200000)
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/par.h"

int main(int argc, char **argv)
{
    unsigned maxt = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 4;
    unsigned calls = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 200000;
    if (maxt < 2 || maxt > 256 || calls < 64) {
        fprintf(stderr, "usage: bench_barrier [MAX_THREADS 2..256 [CALLS >= 64]]\n");
        return 2;
    }
    printf("threads  ns_per_barrier\n");
    for (unsigned t = 2; t <= maxt; t++) {
        double ns = mpp_par_barrier_ns(t, calls);
        if (ns < 0) {
            fprintf(stderr, "bench_barrier: cannot start %u threads\n", t);
            return 1;
        }
        printf("%7u  %14.0f\n", t, ns);
    }
    return 0;
}
