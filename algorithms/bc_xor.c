/* algorithms/bc_xor.c — `xor`: the broadcast as an all-to-all personalized
 * exchange (xorex.h): permutations k = 1 .. 2^ceil(log2 p) - 1, processor i
 * with i XOR k (partners >= p skipped), a source sending its own original
 * message in each, a non-source nothing. A source sends p - 1 messages of
 * L bytes; every processor receives one message from every other source.
 * Messages are never combined. */
#include "algorithms/bcast.h"

#include <stdlib.h>

#include "algorithms/xorex.h"

static int give_own(void *ud, mpp_bcast_plan *pl, uint32_t a, uint32_t b, mpp_err *err)
{
    (void)ud;
    return mpp_bcast_give_own(pl, a, b, err);
}

static int xor_build(mpp_bcast_plan *pl, const void *cfg, mpp_err *err)
{
    (void)cfg;
    /* s (p - 1) messages: refuse a plan too large before building it */
    if ((uint64_t)pl->s * (pl->p - 1) > MPP_BCAST_MAX_MSGS)
        return mpp_err_set(err, MPP_EINVAL,
                           "broadcast 'xor': %u sources x %u partners = %llu messages; at most "
                           "%llu",
                           pl->s, pl->p - 1, (unsigned long long)pl->s * (pl->p - 1),
                           (unsigned long long)MPP_BCAST_MAX_MSGS);
    uint32_t *ids = malloc((size_t)pl->p * sizeof *ids);
    if (!ids)
        return mpp_err_set(err, MPP_ENOMEM, "broadcast: out of memory");
    for (uint32_t i = 0; i < pl->p; i++)
        ids[i] = i; /* positions are processor ids, so the sources are their positions */
    int rc = mpp_xorex_run(pl, ids, pl->p, pl->src, pl->s, MPP_BCAST_BCAST, give_own, NULL, err);
    free(ids);
    return rc;
}

const mpp_bcast_ops mpp_bcast_xor = {
    .name = "xor",
    .help = "all-to-all personalized exchange in permutations i XOR k: every source sends its "
            "own message to every processor",
    .parts = 1u << MPP_BCAST_BCAST,
    .build = xor_build,
};
