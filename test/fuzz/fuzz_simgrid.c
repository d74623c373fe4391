/* test/fuzz/fuzz_simgrid.c — libFuzzer harness of the SimGrid importer
 * (mpp_mpitrace_load_simgrid, traces/mpi_simgrid.c): any file of actions
 * (its first line "RANK NAME ...": a main file would name other files, so
 * other inputs are skipped) is imported or refused with a message, never a
 * crash, an over-read, a leak, undefined behaviour or an endless untimed
 * run. A trace that imports is a SimGrid one with flops in cpu_ns, and
 * every request and list range of its events lies inside its arrays. */
#include "test/fuzz/fuzz_util.h" /* first: it sets _GNU_SOURCE */

#include <ctype.h>

#include "traces/mpitrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t i = 0;
    while (i < size && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r'))
        i++;
    if (i == size || !isdigit(data[i]))
        return 0;
    mpp_mpitrace *t = NULL;
    mpp_err err;
    mpp_err_clear(&err);
    if (mpp_mpitrace_load_simgrid(fuzz_file(data, size, NULL), &t, &err)) {
        if (!err.msg[0] || t)
            abort(); /* a refusal says why and returns nothing */
        return 0;
    }
    if (!t || t->source != MPP_MPITRACE_SIMGRID || t->flops_per_ns != 1.0 || !t->nranks)
        abort();
    for (uint32_t r = 0; r < t->nranks; r++) {
        const mpp_mpi_rank *k = &t->rank[r];
        for (uint32_t j = 0; j < k->nev; j++) {
            const mpp_mpi_event *e = &k->ev[j];
            if (e->call >= MPP_MPI_NCALLS || (e->call != MPP_MPI_UNSUPPORTED && e->comm >= t->ncomms))
                abort();
            if (e->call >= MPP_MPI_WAIT && e->call <= MPP_MPI_TESTSOME)
                for (uint32_t q = 0; q < e->n; q++)
                    if (k->reqs[e->first + q] >= k->nreq)
                        abort();
        }
        for (uint32_t q = 0; q < k->nreq; q++)
            if (k->req[q].event >= k->nev)
                abort();
    }
    mpp_mpitrace_free(t);
    return 0;
}
