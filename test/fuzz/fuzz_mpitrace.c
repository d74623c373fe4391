/* test/fuzz/fuzz_mpitrace.c — libFuzzer harness of the MPI capture rank
 * file reader (mpp_mpitrace_read_rank, traces/mpitrace.h; the reader and
 * builder behind every capture folder): any input, as rank 1 of a 4-rank
 * trace, is read or refused with a message, never a crash, an over-read,
 * a leak or undefined behaviour. A trace that reads holds its invariants:
 * every communicator index, request index and list range of an event lies
 * inside the trace's arrays, peers and roots are members of the event's
 * communicator. */
#include "test/fuzz/fuzz_util.h"

#include "traces/mpitrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Whether world rank w is a member of communicator c of t. */
static int member(const mpp_mpitrace *t, uint32_t c, uint32_t w)
{
    for (uint32_t i = 0; i < t->comm[c].size; i++)
        if (t->members[t->comm[c].first + i] == w)
            return 1;
    return 0;
}

/* abort() unless rank r's events refer only to what exists. */
static void check(const mpp_mpitrace *t, uint32_t r)
{
    const mpp_mpi_rank *k = &t->rank[r];
    uint64_t nreqs = 0, ncounts = 0;
    for (uint32_t i = 0; i < k->nev; i++) {
        const mpp_mpi_event *e = &k->ev[i];
        if (e->call >= MPP_MPI_NCALLS)
            abort();
        if (e->call == MPP_MPI_UNSUPPORTED) {
            if (e->name >= t->names_len)
                abort();
            continue;
        }
        if (e->comm == MPP_MPI_NONE ? e->call != MPP_MPI_COMM_SPLIT &&
                                          e->call != MPP_MPI_COMM_CREATE
                                    : e->comm >= t->ncomms || !member(t, e->comm, r))
            abort();
        if ((e->call <= MPP_MPI_RECV || e->call == MPP_MPI_BCAST || e->call == MPP_MPI_REDUCE ||
             e->call == MPP_MPI_GATHER || e->call == MPP_MPI_SCATTER) &&
            !member(t, e->comm, e->peer))
            abort();
        if ((e->call >= MPP_MPI_ISEND && e->call <= MPP_MPI_IRSEND) ||
            e->call == MPP_MPI_IRECV || e->call == MPP_MPI_REQUEST_FREE) {
            if (e->req >= k->nreq)
                abort();
        }
        if (e->call >= MPP_MPI_WAIT && e->call <= MPP_MPI_TESTSOME) {
            if (e->first != nreqs)
                abort();
            for (uint32_t j = 0; j < e->n; j++)
                if (k->reqs[e->first + j] >= k->nreq)
                    abort();
            nreqs += e->n;
        }
        if (e->call == MPP_MPI_GATHERV || e->call == MPP_MPI_SCATTERV ||
            e->call == MPP_MPI_ALLGATHERV || e->call == MPP_MPI_ALLTOALLV ||
            e->call == MPP_MPI_REDUCE_SCATTER) {
            if (e->first != ncounts)
                abort();
            for (uint32_t j = 0; j < e->n; j++)
                if (k->counts[e->first + j] > MPP_MPITRACE_MAX_BYTES)
                    abort();
            ncounts += e->n;
        }
    }
    for (uint32_t q = 0; q < k->nreq; q++)
        if (k->req[q].event >= k->nev || (k->req[q].done != MPP_MPI_NONE && k->req[q].done >= k->nev))
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mpp_mpitrace *t = calloc(1, sizeof *t);
    if (!t)
        abort();
    t->nranks = 4;
    mpp_err err;
    mpp_err_clear(&err);
    if (mpp_mpitrace_read_rank(t, 1, fuzz_file(data, size, NULL), &err)) {
        if (!err.msg[0] || t->rank || t->comm || t->members)
            abort(); /* a refusal says why and leaves nothing behind */
    } else {
        if (t->nranks != 4 || t->ncomms < 5)
            abort();
        for (uint32_t r = 0; r < 4; r++)
            if (r != 1 && t->rank[r].nev)
                abort();
        check(t, 1);
    }
    mpp_mpitrace_free(t);
    return 0;
}
