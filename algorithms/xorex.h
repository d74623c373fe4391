/* algorithms/xorex.h — the pairwise XOR exchange (mpp_xorex_*), written once
 * for every collective built on it: the s-to-p broadcast `xor` and the
 * all-to-all personalized exchange.
 *
 * Over a list of n processors (positions 0 .. n-1), permutation k = 1 ..
 * 2^ceil(log2 n) - 1 pairs position i with position i XOR k (partners >= n
 * are skipped); each permutation is one plan step in which every pair may
 * send both ways. What a processor sends its partner is the caller's
 * choice (a hook): its own source message (xor), a personalized block, ... */
#ifndef MPP_ALGORITHMS_XOREX_H
#define MPP_ALGORITHMS_XOREX_H

#include <stdint.h>

#include "algorithms/bcast.h"
#include "core/base/err.h"

/* What processor a (id) sends processor b (id) in the open step; returns 0
 * or a negative MPP_E* code (err filled). */
typedef int (*mpp_xorex_fn)(void *ud, mpp_bcast_plan *pl, uint32_t a, uint32_t b, mpp_err *err);

/* Run the permutations on the list ids[0 .. n-1] (processor ids of pl). Only
 * the positions from[0 .. nfrom-1] send (from = NULL: every position), each
 * by one call of give per permutation whose partner exists, in increasing
 * order of k and then of from[]. Each permutation is one step of `part`,
 * also when nothing is sent in it. No step may be open. Fails as give
 * does. */
int mpp_xorex_run(mpp_bcast_plan *pl, const uint32_t *ids, uint32_t n, const uint32_t *from,
                  uint32_t nfrom, int part, mpp_xorex_fn give, void *ud, mpp_err *err);

/* The permutations on n processors: 2^ceil(log2 n) - 1 (0 for n <= 1). */
uint32_t mpp_xorex_perms(uint32_t n);

#endif
