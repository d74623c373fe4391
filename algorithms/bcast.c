/* algorithms/bcast.c — the plan builder of s-to-p broadcasting (see
 * bcast.h for steps, contents and tags).
 *
 * Data structures. Holdings are bitsets: processor i's word w is
 * held[i * words + w], bit j % 64 of word j / 64 for source j. The open
 * step keeps its messages in `cur` (in the order the plug-in gave them),
 * what each receiver gets in `inc` (same layout as held), the processors
 * whose state it changes in `touched` (proc[i].touched_mark = 1 for them)
 * with their receive and send counts in proc[i].nrecv / nsend (zero for
 * every other processor), and the processors that move their message in
 * `moved`, so
 * ending a step costs O(transfers x words), never O(p).
 *
 * A transfer (give, give_own, move_own -> transfer) first computes what b
 * gets as the algorithm sees it (held[a] minus held[b] and inc[b]) and adds
 * it to inc[b]; the message is that without proc[b].kept, the source b moved
 * away and still has; a message with nothing left is not sent (b's state
 * still changes). A move drops the source from held[a] at the end of its
 * step and sets proc[a].kept.
 *
 * Operations of a step, per processor, in this order (step_end):
 *
 *   receives: RECV(from, tag)             a lone receive and no send
 *             IRECV(from, tag) each       otherwise
 *   sends:    SEND(to, bytes, tag) each   sync
 *             ISEND(to, bytes, tag) each  async, am, am_put
 *   WAIT                                  when an IRECV or ISEND was issued
 *
 * Posting every receive before the first blocking send is what keeps a step
 * free of deadlock: a blocking SEND waits for the receiver's REPLY, which
 * needs the receiver's receive to be posted, and a processor blocked in a
 * SEND still reads the packets of the receives it posted with IRECV
 * (core/node.c). Between steps every processor advances in tag order, and a
 * processor waits only for partners of its current step, so the processors
 * at the lowest open step always progress. Active messages and puts have no
 * handshake: a partner one step ahead may already be sending, and a
 * processor blocked in a SEND would not read those packets, so its receive
 * FIFO and then the network would fill (xor deadlocked so on the CM-5).
 * With am and am_put the sends are therefore ISENDs, written while the
 * processor waits in WAIT, where it reads whenever it cannot write (as a
 * CMAML program polls while it sends).
 *
 * Invariants: in bcast.h (checked by mpp_bcast_plan_check). */
#include "algorithms/bcast.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/sections.h"

#define NONE UINT32_MAX

static uint64_t *row(const mpp_bcast_plan *pl, uint64_t *base, uint32_t i)
{
    return base + (uint64_t)i * pl->words;
}

int mpp_bcast_plan_init(mpp_bcast_plan *pl, uint32_t r, uint32_t c, const uint32_t *src,
                        uint32_t s, uint64_t L, int paradigm, unsigned flags, mpp_err *err)
{
    memset(pl, 0, sizeof *pl);
    uint64_t p64 = (uint64_t)r * c;
    if (r == 0 || c == 0 || p64 > UINT32_MAX)
        return mpp_err_set(err, MPP_EINVAL, "broadcast: a %ux%u mesh cannot be planned", r, c);
    uint32_t p = (uint32_t)p64;
    if (s == 0 || s > p)
        return mpp_err_set(err, MPP_EINVAL,
                           "broadcast: s = %u sources on %u processors (need 1 <= s <= %u)", s, p,
                           p);
    if (p64 * s > MPP_BCAST_MAX_BITS)
        return mpp_err_set(err, MPP_EINVAL,
                           "broadcast: %u processors x %u sources = %llu holdings to track; at "
                           "most %llu (2^28) are allowed",
                           p, s, (unsigned long long)(p64 * s),
                           (unsigned long long)MPP_BCAST_MAX_BITS);
    for (uint32_t j = 0; j < s; j++)
        if (src[j] >= p || (j && src[j] <= src[j - 1]))
            return mpp_err_set(err, MPP_EINVAL,
                               "broadcast: source %u is processor %u: ids must be increasing and "
                               "below %u",
                               j, src[j], p);
    pl->r = r;
    pl->c = c;
    pl->p = p;
    pl->s = s;
    pl->L = L;
    pl->paradigm = paradigm;
    pl->flags = flags;
    pl->words = (s + 63) / 64;
    size_t bits = (size_t)p * pl->words;
    pl->src = malloc(s * sizeof *pl->src);
    pl->held = calloc(bits, sizeof *pl->held);
    pl->inc = calloc(bits, sizeof *pl->inc);
    pl->proc = calloc(p, sizeof *pl->proc);
    pl->moved = malloc(p * sizeof *pl->moved);
    pl->touched = malloc(p * sizeof *pl->touched);
    pl->tmp = malloc(pl->words * sizeof *pl->tmp);
    if (flags & MPP_BCAST_COUNT)
        pl->recv_count = calloc((size_t)p * s, 1);
    int rc = 0;
    if (!pl->src || !pl->held || !pl->inc || !pl->proc || !pl->moved || !pl->touched ||
        !pl->tmp || ((flags & MPP_BCAST_COUNT) && !pl->recv_count)) {
        rc = mpp_err_set(err, MPP_ENOMEM, "broadcast: out of memory for a plan of %u x %u", p, s);
        goto fail;
    }
    if ((flags & MPP_BCAST_PROGRAMS) && (rc = mpp_progbuild_init(&pl->pb, p, err)))
        goto fail;
    memcpy(pl->src, src, s * sizeof *src);
    for (uint32_t i = 0; i < p; i++)
        pl->proc[i].own = pl->proc[i].kept = NONE;
    for (uint32_t j = 0; j < s; j++) {
        pl->proc[src[j]].own = j;
        row(pl, pl->held, src[j])[j / 64] |= UINT64_C(1) << (j % 64);
    }
    return 0;
fail:
    mpp_bcast_plan_free(pl);
    return rc;
}

void mpp_bcast_plan_free(mpp_bcast_plan *pl)
{
    if (!pl)
        return;
    free(pl->src);
    free(pl->held);
    free(pl->inc);
    free(pl->proc);
    free(pl->moved);
    free(pl->tmp);
    free(pl->cur);
    free(pl->touched);
    free(pl->recv_count);
    free(pl->log);
    mpp_progbuild_free(&pl->pb);
    memset(pl, 0, sizeof *pl);
}

void mpp_bcast_step_begin(mpp_bcast_plan *pl, int part)
{
    assert(!pl->in_step && part >= 0 && part < MPP_BCAST_NPARTS);
    pl->in_step = true;
    pl->part = part;
    pl->tag = MPP_BCAST_TAG(part, pl->nsteps & MPP_BCAST_TAG_STEP);
    pl->nsteps++;
    pl->ncur = 0;
    pl->ntouched = 0;
    pl->nmoved = 0;
}

/* Put i on the open step's list of processors whose state changes or who
 * send or receive. */
static void touch(mpp_bcast_plan *pl, uint32_t i)
{
    if (!pl->proc[i].touched_mark) {
        pl->proc[i].touched_mark = 1;
        pl->touched[pl->ntouched++] = i;
    }
}

/* Record a message of content x (n source messages) from a to b in the
 * open step. */
static int record(mpp_bcast_plan *pl, uint32_t a, uint32_t b, const uint64_t *x, uint32_t n,
                  mpp_err *err)
{
    if (pl->nmsgs >= MPP_BCAST_MAX_MSGS)
        return mpp_err_set(err, MPP_EINVAL,
                           "broadcast: the plan needs more than %llu messages; use fewer "
                           "processors or sources",
                           (unsigned long long)MPP_BCAST_MAX_MSGS);
    if (pl->ncur == pl->cur_cap) {
        uint32_t cap = pl->cur_cap ? pl->cur_cap * 2 : 64;
        mpp_bcast_xfer *q = realloc(pl->cur, cap * sizeof *q);
        if (!q)
            return mpp_err_set(err, MPP_ENOMEM, "broadcast: out of memory");
        pl->cur = q;
        pl->cur_cap = cap;
    }
    uint64_t bytes = (uint64_t)n * pl->L;
    pl->cur[pl->ncur++] = (mpp_bcast_xfer){a, b, pl->tag, n, bytes};
    touch(pl, a);
    pl->proc[a].nsend++;
    pl->proc[b].nrecv++;
    pl->proc[a].msgs_sent++;
    pl->proc[a].bytes_sent += bytes;
    pl->proc[b].msgs_recv++;
    pl->proc[b].bytes_recv += bytes;
    pl->nmsgs++;
    pl->nbytes += bytes;
    pl->part_msgs[pl->part]++;
    if (pl->recv_count)
        for (uint32_t w = 0; w < pl->words; w++)
            for (uint64_t m = x[w]; m; m &= m - 1) {
                uint8_t *k = &pl->recv_count[(uint64_t)b * pl->s + w * 64 +
                                             (uint32_t)__builtin_ctzll(m)];
                if (*k < 255)
                    (*k)++;
            }
    return 0;
}

/* b gets x (in pl->tmp: not empty, disjoint from held[b] and inc[b]) from
 * a: as the algorithm sees it, and as a message without the copy b kept
 * (invariant 1). */
static int transfer(mpp_bcast_plan *pl, uint32_t a, uint32_t b, mpp_err *err)
{
    uint64_t *ib = row(pl, pl->inc, b), *x = pl->tmp;
    uint32_t n = 0;
    for (uint32_t w = 0; w < pl->words; w++)
        ib[w] |= x[w];
    touch(pl, b);
    uint32_t k = pl->proc[b].kept;
    if (k != NONE)
        x[k / 64] &= ~(UINT64_C(1) << (k % 64));
    for (uint32_t w = 0; w < pl->words; w++)
        n += (uint32_t)__builtin_popcountll(x[w]);
    return n ? record(pl, a, b, x, n, err) : 0;
}

int mpp_bcast_give(mpp_bcast_plan *pl, uint32_t a, uint32_t b, mpp_err *err)
{
    assert(pl->in_step && a < pl->p && b < pl->p && a != b);
    const uint64_t *ha = row(pl, pl->held, a), *hb = row(pl, pl->held, b);
    const uint64_t *ib = row(pl, pl->inc, b);
    uint64_t *x = pl->tmp, any = 0;
    for (uint32_t w = 0; w < pl->words; w++) {
        x[w] = ha[w] & ~hb[w] & ~ib[w];
        any |= x[w];
    }
    return any ? transfer(pl, a, b, err) : 0;
}

int mpp_bcast_exchange(mpp_bcast_plan *pl, uint32_t a, uint32_t b, mpp_err *err)
{
    int rc = mpp_bcast_give(pl, a, b, err);
    return rc ? rc : mpp_bcast_give(pl, b, a, err);
}

int mpp_bcast_give_own(mpp_bcast_plan *pl, uint32_t a, uint32_t b, mpp_err *err)
{
    assert(pl->in_step && a < pl->p && b < pl->p && a != b);
    uint32_t j = pl->proc[a].own;
    if (j == NONE)
        return 0;
    uint64_t bit = UINT64_C(1) << (j % 64);
    if ((row(pl, pl->held, b)[j / 64] | row(pl, pl->inc, b)[j / 64]) & bit)
        return 0;
    memset(pl->tmp, 0, pl->words * sizeof *pl->tmp);
    pl->tmp[j / 64] = bit;
    return transfer(pl, a, b, err);
}

int mpp_bcast_move_own(mpp_bcast_plan *pl, uint32_t a, uint32_t b, mpp_err *err)
{
    uint32_t j = pl->proc[a].own;
    if (j == NONE)
        return 0;
    assert(mpp_bcast_holds(pl, a, j) && pl->proc[a].kept == NONE);
    int rc = mpp_bcast_give_own(pl, a, b, err);
    if (!rc) {
        pl->moved[pl->nmoved++] = a; /* dropped at the end of the step */
        touch(pl, a);
    }
    return rc;
}

static int add_op(mpp_bcast_plan *pl, uint32_t i, mpp_op op, mpp_err *err)
{
    return mpp_progbuild_add(&pl->pb, i, op, err);
}

/* The operations of the open step (see the table at the top). */
static int emit(mpp_bcast_plan *pl, mpp_err *err)
{
    bool async = pl->paradigm != MPP_PARADIGM_SYNC; /* background sends */
    uint8_t par = (uint8_t)pl->paradigm;
    int rc = 0;
    for (uint32_t k = 0; k < pl->ncur && !rc; k++) {
        const mpp_bcast_xfer *t = &pl->cur[k];
        bool lone = pl->proc[t->to].nrecv == 1 && pl->proc[t->to].nsend == 0;
        rc = add_op(pl, t->to,
                    (mpp_op){.code = lone ? MPP_OP_RECV : MPP_OP_IRECV, .peer = t->from,
                             .tag = t->tag},
                    err);
    }
    for (uint32_t k = 0; k < pl->ncur && !rc; k++) {
        const mpp_bcast_xfer *t = &pl->cur[k];
        rc = add_op(pl, t->from,
                    (mpp_op){.code = async ? MPP_OP_ISEND : MPP_OP_SEND, .paradigm = par,
                             .peer = t->to, .tag = t->tag, .bytes = t->bytes},
                    err);
    }
    for (uint32_t k = 0; k < pl->ntouched && !rc; k++) {
        uint32_t i = pl->touched[k];
        if (pl->proc[i].nrecv + pl->proc[i].nsend >= 2 || (async && pl->proc[i].nsend))
            rc = add_op(pl, i, (mpp_op){.code = MPP_OP_WAIT}, err);
    }
    return rc;
}

int mpp_bcast_step_end(mpp_bcast_plan *pl, mpp_err *err)
{
    assert(pl->in_step);
    int rc = 0;
    if ((pl->flags & MPP_BCAST_PROGRAMS) && (rc = emit(pl, err)))
        return rc;
    if ((pl->flags & MPP_BCAST_LOG) && pl->ncur) {
        if (pl->nlog + pl->ncur > pl->log_cap) {
            uint64_t cap = pl->log_cap ? pl->log_cap : 256;
            while (cap < pl->nlog + pl->ncur)
                cap *= 2;
            mpp_bcast_xfer *q = realloc(pl->log, cap * sizeof *q);
            if (!q)
                return mpp_err_set(err, MPP_ENOMEM, "broadcast: out of memory");
            pl->log = q;
            pl->log_cap = cap;
        }
        memcpy(pl->log + pl->nlog, pl->cur, pl->ncur * sizeof *pl->cur);
        pl->nlog += pl->ncur;
    }
    for (uint32_t k = 0; k < pl->ntouched; k++) {
        uint32_t i = pl->touched[k];
        uint64_t *h = row(pl, pl->held, i), *in = row(pl, pl->inc, i);
        for (uint32_t w = 0; w < pl->words; w++) {
            h[w] |= in[w];
            in[w] = 0;
        }
        pl->proc[i].nrecv = pl->proc[i].nsend = 0;
        pl->proc[i].touched_mark = 0;
    }
    for (uint32_t k = 0; k < pl->nmoved; k++) {
        uint32_t i = pl->moved[k], j = pl->proc[i].own;
        row(pl, pl->held, i)[j / 64] &= ~(UINT64_C(1) << (j % 64));
        pl->proc[i].kept = j;
    }
    if (pl->ncur)
        pl->steps_used++;
    pl->in_step = false;
    if (pl->on_step)
        pl->on_step(pl->on_step_ud, pl, pl->tag);
    return 0;
}

uint32_t mpp_bcast_count(const mpp_bcast_plan *pl, uint32_t i)
{
    uint32_t n = 0;
    for (uint32_t w = 0; w < pl->words; w++)
        n += (uint32_t)__builtin_popcountll(pl->held[(uint64_t)i * pl->words + w]);
    return n;
}

int mpp_bcast_plan_check(const mpp_bcast_plan *pl, mpp_err *err)
{
    uint64_t ms = 0, mr = 0, bs = 0, br = 0;
    for (uint32_t i = 0; i < pl->p; i++) {
        ms += pl->proc[i].msgs_sent;
        mr += pl->proc[i].msgs_recv;
        bs += pl->proc[i].bytes_sent;
        br += pl->proc[i].bytes_recv;
        const uint64_t *h = pl->held + (uint64_t)i * pl->words;
        const uint64_t *in = pl->inc + (uint64_t)i * pl->words;
        for (uint32_t w = 0; w < pl->words; w++) {
            if (h[w] & in[w])
                return mpp_err_set(err, MPP_EINVAL,
                                   "plan: processor %u gets a message it holds (invariant 2)", i);
            if (!pl->in_step && in[w])
                return mpp_err_set(err, MPP_EINVAL,
                                   "plan: processor %u has receptions outside a step "
                                   "(invariant 2)",
                                   i);
        }
        for (uint32_t j = 0; pl->recv_count && j < pl->s; j++) {
            unsigned k = pl->recv_count[(uint64_t)i * pl->s + j];
            bool orig = pl->proc[i].own == j, moved = pl->proc[i].kept == j;
            /* receptions of the open step are counted already */
            bool pend = (in[j / 64] >> (j % 64)) & 1;
            if ((orig && k) || k > 1 ||
                (!moved && mpp_bcast_holds(pl, i, j) != (orig || (k && !pend))))
                return mpp_err_set(err, MPP_EINVAL,
                                   "plan: processor %u, source %u: held %d, original %d, "
                                   "received %u times (invariant 1)",
                                   i, j, mpp_bcast_holds(pl, i, j), orig, k);
        }
    }
    if (ms != pl->nmsgs || mr != pl->nmsgs || bs != pl->nbytes || br != pl->nbytes)
        return mpp_err_set(err, MPP_EINVAL,
                           "plan: %llu messages sent, %llu received, %llu recorded "
                           "(invariant 3)",
                           (unsigned long long)ms, (unsigned long long)mr,
                           (unsigned long long)pl->nmsgs);
    return 0;
}

int mpp_bcast_plan_complete(const mpp_bcast_plan *pl, mpp_err *err)
{
    if (pl->in_step)
        return mpp_err_set(err, MPP_EINVAL, "plan: a step is still open");
    for (uint32_t i = 0; i < pl->p; i++)
        for (uint32_t j = 0; j < pl->s; j++) {
            if (!mpp_bcast_holds(pl, i, j))
                return mpp_err_set(err, MPP_EINVAL,
                                   "plan: processor %u lacks source %u (processor %u)", i, j,
                                   pl->src[j]);
            if (pl->recv_count && pl->recv_count[(uint64_t)i * pl->s + j] != (pl->proc[i].own != j))
                return mpp_err_set(err, MPP_EINVAL,
                                   "plan: processor %u received source %u %u times", i, j,
                                   pl->recv_count[(uint64_t)i * pl->s + j]);
        }
    return 0;
}
