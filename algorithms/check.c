/* algorithms/check.c — the schedule checker and destructor (schedule.h).
 *
 * mpp_schedule_check is the one definition of "a valid schedule of a COM"
 * that the tests and `mppnet schedule` apply to every scheduler:
 *
 *   1. Phased (nphases > 0): phase_start[0] == 0, phase_start is
 *      non-decreasing, phase_start[nphases] == nmsgs (a phase may be
 *      empty: lp keeps every one of its phases).
 *   2. In a phase every processor sends at most one and receives at most
 *      one message (a partial permutation).
 *   3. Dynamic (nphases == 0): msgs is every processor's send order, the
 *      processors' groups one after the other in increasing order of
 *      source (msgs[i].src non-decreasing).
 *   4. Every message is an off-diagonal COM entry (src, dst < n, src != dst,
 *      units > 0), and the parts of every entry add up to exactly its units:
 *      nothing is lost, duplicated or invented.
 *
 * Cost: O(n + nnz + nmsgs log d) time and O(n + nnz) memory; an entry is
 * found by binary search in its row of the sorted COM.
 *
 * Also the price of a schedule's work on a node processor
 * (mpp_sched_work_cycles): scan, tries and rows times their node keys, in
 * integers. phases and moves are counted but not priced: phases = rows / n
 * at a given n (the 2n-word reset is a per-row cost), and the CM-5 rows
 * need no per-move price (docs/machines.md, the cm5 section). */
#include "algorithms/schedule.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/phases.h"

/* Invariant 1; returns 0 or MPP_EINVAL. */
static int check_phase_bounds(const mpp_schedule *s, mpp_err *err)
{
    if (!s->phase_start)
        return mpp_err_set(err, MPP_EINVAL, "schedule: %" PRIu32 " phases but no phase_start",
                           s->nphases);
    if (s->phase_start[0] != 0)
        return mpp_err_set(err, MPP_EINVAL, "schedule: phase 0 starts at message %" PRIu32,
                           s->phase_start[0]);
    for (uint32_t p = 0; p < s->nphases; p++)
        if (s->phase_start[p + 1] < s->phase_start[p])
            return mpp_err_set(err, MPP_EINVAL, "schedule: phase %" PRIu32 " ends "
                               "before it starts (%" PRIu32 " .. %" PRIu32 ")", p,
                               s->phase_start[p], s->phase_start[p + 1]);
    if (s->phase_start[s->nphases] != s->nmsgs)
        return mpp_err_set(err, MPP_EINVAL, "schedule: the phases hold %" PRIu32 " messages, "
                           "nmsgs is %" PRIu32, s->phase_start[s->nphases], s->nmsgs);
    return 0;
}

int mpp_schedule_check(const mpp_com *com, const mpp_schedule *s, mpp_err *err)
{
    uint32_t n = com->n;
    int rc = 0;
    if (s->nmsgs && !s->msgs)
        return mpp_err_set(err, MPP_EINVAL, "schedule: %" PRIu32 " messages but no msgs",
                           s->nmsgs);
    if (s->nphases && (rc = check_phase_bounds(s, err)) != 0)
        return rc;

    uint32_t *rowstart = calloc((size_t)n + 1, sizeof *rowstart);
    uint32_t *sent = calloc(n, sizeof *sent), *recv = calloc(n, sizeof *recv);
    uint64_t *acc = calloc(com->nnz ? com->nnz : 1, sizeof *acc);
    if (!rowstart || !sent || !recv || !acc) {
        rc = mpp_err_set(err, MPP_ENOMEM, "schedule check: out of memory");
        goto done;
    }
    mpp_phases_rows(com, rowstart);

    uint32_t p = 0; /* current phase (phased schedules) */
    for (uint32_t k = 0; k < s->nmsgs; k++) {
        const mpp_sched_msg *m = &s->msgs[k];
        while (s->nphases && k >= s->phase_start[p + 1])
            p++;
        if (m->src >= n || m->dst >= n || m->src == m->dst || m->units == 0) {
            rc = mpp_err_set(err, MPP_EINVAL, "schedule: message %" PRIu32 " (%" PRIu32
                             " -> %" PRIu32 ", %" PRIu64 " units) is not a valid entry of the %"
                             PRIu32 " x %" PRIu32 " matrix", k, m->src, m->dst, m->units, n, n);
            goto done;
        }
        if (s->nphases) { /* invariant 2: stamps hold phase + 1 */
            if (sent[m->src] == p + 1 || recv[m->dst] == p + 1) {
                rc = mpp_err_set(err, MPP_EINVAL, "schedule: phase %" PRIu32 " is not a partial "
                                 "permutation: processor %" PRIu32 " %s twice", p,
                                 sent[m->src] == p + 1 ? m->src : m->dst,
                                 sent[m->src] == p + 1 ? "sends" : "receives");
                goto done;
            }
            sent[m->src] = recv[m->dst] = p + 1;
        } else if (k && m->src < s->msgs[k - 1].src) { /* invariant 3 */
            rc = mpp_err_set(err, MPP_EINVAL, "schedule: dynamic send order is not grouped by "
                             "source (message %" PRIu32 " from %" PRIu32 " after one from %"
                             PRIu32 ")", k, m->src, s->msgs[k - 1].src);
            goto done;
        }
        uint32_t e = mpp_phases_find(com, rowstart, m->src, m->dst);
        if (e == UINT32_MAX) {
            rc = mpp_err_set(err, MPP_EINVAL, "schedule: message %" PRIu32 " (%" PRIu32 " -> %"
                             PRIu32 ") is not in the matrix", k, m->src, m->dst);
            goto done;
        }
        if (m->units > com->e[e].units - acc[e]) {
            rc = mpp_err_set(err, MPP_EINVAL, "schedule: entry (%" PRIu32 ", %" PRIu32 ") of %"
                             PRIu64 " units is sent more than once (message %" PRIu32 ")",
                             m->src, m->dst, com->e[e].units, k);
            goto done;
        }
        acc[e] += m->units;
    }
    for (uint32_t e = 0; e < com->nnz; e++)
        if (acc[e] != com->e[e].units) {
            rc = mpp_err_set(err, MPP_EINVAL, "schedule: entry (%" PRIu32 ", %" PRIu32 ") of %"
                             PRIu64 " units is delivered with %" PRIu64 " units",
                             com->e[e].src, com->e[e].dst, com->e[e].units, acc[e]);
            goto done;
        }
done:
    free(rowstart);
    free(sent);
    free(recv);
    free(acc);
    return rc;
}

void mpp_schedule_free(mpp_schedule *s)
{
    if (!s)
        return;
    free(s->phase_start);
    free(s->msgs);
    memset(s, 0, sizeof *s);
}

uint64_t mpp_sched_work_cycles(const mpp_sched_work *w, const mpp_node_config *node)
{
    return w->scan * node->sched_scan_cycles + w->tries * node->sched_try_cycles +
           w->rows * node->sched_row_cycles;
}
