/* algorithms/coll.c — the collectives' plan, flow scheduler, spanning
 * binomial trees and message model (see coll.h).
 *
 * Operations of a step, per processor, in this order (step_end), as in
 * algorithms/bcast.c (whose comment says why this order cannot deadlock):
 *
 *   receives: RECV(from, tag)             a lone receive and no send
 *             IRECV(from, tag) each       otherwise
 *   sends:    SEND(to, bytes, tag) each   sync
 *             ISEND(to, bytes, tag) each  async, am, am_put
 *   WAIT                                  when an IRECV or ISEND was issued
 *                                         (or two operations)
 *
 * The flow scheduler (flow_run). Entries are kept per edge in the order
 * added; an entry's item becomes available at the edge's sender in the
 * step after the one in which its prev entry was sent (at once when it has
 * none). In step t every edge, in creation order, sends from its cursor the
 * entries available before t, up to `chunk` bytes (at least one entry; all
 * of them when chunk is 0). The entries of an edge are in item order and
 * every item reaches a node once, so an edge's available entries are a
 * prefix of what is left: a cursor per edge suffices. The run ends when
 * every cursor is at its edge's end; a step in which nothing is available
 * anywhere cannot happen (the origin entries are available at once and
 * every entry's prev is sent in an earlier step), checked.
 *
 * Invariants:
 *   1. outside a step, ncur == 0 and every inc row is empty;
 *   2. with TRACK, an item is received by a member at most once and only
 *      when the member did not hold it (mpp_coll_send checks);
 *   3. nmsgs == messages sent, nbytes == their bytes. */
#include "algorithms/coll.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/sections.h"
#include "core/topo.h"

#define NONE UINT32_MAX

int mpp_coll_plan_init(mpp_coll_plan *pl, uint32_t N, int paradigm, uint64_t chunk,
                       unsigned flags, mpp_err *err)
{
    memset(pl, 0, sizeof *pl);
    pl->N = N;
    pl->paradigm = paradigm;
    pl->chunk = chunk;
    pl->flags = flags;
    pl->node_bytes_sent = calloc(N ? N : 1, sizeof *pl->node_bytes_sent);
    pl->node_bytes_recv = calloc(N ? N : 1, sizeof *pl->node_bytes_recv);
    int rc = 0;
    if (!pl->node_bytes_sent || !pl->node_bytes_recv)
        rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
    else if (flags & MPP_COLL_PROGRAMS)
        rc = mpp_progbuild_init(&pl->pb, N, err);
    if (rc) {
        mpp_coll_plan_free(pl);
        return rc;
    }
    return 0;
}

static void lazy_free(mpp_coll_plan *pl);

void mpp_coll_group_end(mpp_coll_plan *pl)
{
    free(pl->item_bytes);
    free(pl->held);
    free(pl->inc);
    free(pl->recvd);
    free(pl->sends);
    free(pl->recvs);
    free(pl->touched);
    free(pl->touched_mark);
    free(pl->t_start);
    free(pl->t_in);
    free(pl->t_port);
    free(pl->t_eject);
    free(pl->t_cpu);
    free(pl->t_read);
    free(pl->t_posted);
    pl->t_start = pl->t_in = pl->t_port = pl->t_eject = pl->t_cpu = pl->t_read = NULL;
    pl->t_posted = NULL;
    lazy_free(pl);
    pl->item_bytes = NULL;
    pl->held = pl->inc = NULL;
    pl->recvd = NULL;
    pl->sends = pl->recvs = pl->touched = NULL;
    pl->touched_mark = NULL;
    pl->ntouched = 0;
    pl->tag_base = pl->max_tag;
    pl->step = 0;
}

void mpp_coll_plan_free(mpp_coll_plan *pl)
{
    mpp_coll_group_end(pl);
    free(pl->cur);
    free(pl->cur_items);
    free(pl->node_bytes_sent);
    free(pl->node_bytes_recv);
    mpp_progbuild_free(&pl->pb);
    memset(pl, 0, sizeof *pl);
}

int mpp_coll_group_begin(mpp_coll_plan *pl, const mpp_coll_group *grp, uint32_t nitems,
                         const uint64_t *bytes, const uint32_t *origin, mpp_err *err)
{
    assert(!pl->item_bytes && !pl->in_step);
    uint32_t g = grp->g;
    bool track = pl->flags & MPP_COLL_TRACK;
    if (track && (uint64_t)g * nitems > MPP_COLL_MAX_TRACK)
        return mpp_err_set(err, MPP_EINVAL,
                           "collective: %u members x %u items is too many to track (at most "
                           "%llu)",
                           g, nitems, (unsigned long long)MPP_COLL_MAX_TRACK);
    pl->grp = *grp;
    pl->nitems = nitems;
    pl->words = (nitems + 63) / 64;
    pl->item_bytes = malloc((nitems ? nitems : 1) * sizeof *pl->item_bytes);
    pl->sends = calloc(g, sizeof *pl->sends);
    pl->recvs = calloc(g, sizeof *pl->recvs);
    pl->touched = malloc(g * sizeof *pl->touched);
    pl->touched_mark = calloc(g, 1);
    bool ok = pl->item_bytes && pl->sends && pl->recvs && pl->touched && pl->touched_mark;
    if (ok && track) {
        size_t cells = (size_t)g * pl->words;
        pl->held = calloc(cells ? cells : 1, sizeof *pl->held);
        pl->inc = calloc(cells ? cells : 1, sizeof *pl->inc);
        pl->recvd = calloc((size_t)g * nitems + 1, 1);
        ok = pl->held && pl->inc && pl->recvd;
    }
    if (ok && pl->clock) {
        pl->t_start = calloc(g, sizeof *pl->t_start);
        pl->t_in = calloc(g, sizeof *pl->t_in);
        pl->t_port = calloc((size_t)g * pl->t_ports, sizeof *pl->t_port);
        pl->t_eject = calloc(g, sizeof *pl->t_eject);
        pl->t_cpu = calloc(g, sizeof *pl->t_cpu);
        pl->t_read = calloc(g, sizeof *pl->t_read);
        pl->t_posted = calloc(g, 1);
        ok = pl->t_start && pl->t_in && pl->t_port && pl->t_eject && pl->t_cpu && pl->t_read &&
             pl->t_posted;
    }
    if (!ok) {
        mpp_coll_group_end(pl);
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    }
    memcpy(pl->item_bytes, bytes, (size_t)nitems * sizeof *bytes);
    if (track)
        for (uint32_t i = 0; i < nitems; i++)
            for (uint32_t m = 0; m < g; m++)
                if (origin[i] == NONE || origin[i] == m)
                    pl->held[(size_t)m * pl->words + i / 64] |= UINT64_C(1) << (i % 64);
    return 0;
}

bool mpp_coll_holds(const mpp_coll_plan *pl, uint32_t m, uint32_t i)
{
    return (pl->held[(size_t)m * pl->words + i / 64] >> (i % 64)) & 1;
}

uint32_t mpp_coll_received(const mpp_coll_plan *pl, uint32_t m, uint32_t i)
{
    return pl->recvd[(size_t)m * pl->nitems + i];
}

void mpp_coll_step_begin(mpp_coll_plan *pl)
{
    assert(!pl->in_step);
    pl->in_step = true;
    pl->ncur = 0;
    pl->ncur_items = 0;
}

static void touch(mpp_coll_plan *pl, uint32_t m)
{
    if (!pl->touched_mark[m]) {
        pl->touched_mark[m] = 1;
        pl->touched[pl->ntouched++] = m;
    }
}

static int add_msg(mpp_coll_plan *pl, uint32_t a, uint32_t b, const uint32_t *it, uint64_t n,
                   uint64_t bytes, uint32_t ready, mpp_err *err);

int mpp_coll_send(mpp_coll_plan *pl, uint32_t a, uint32_t b, const uint32_t *it, uint64_t n,
                  mpp_err *err)
{
    return mpp_coll_send_ready(pl, a, b, it, n, MPP_COLL_UNKNOWN, err);
}

int mpp_coll_send_ready(mpp_coll_plan *pl, uint32_t a, uint32_t b, const uint32_t *it,
                        uint64_t n, uint32_t ready, mpp_err *err)
{
    assert(pl->in_step && a != b && a < pl->grp.g && b < pl->grp.g && n >= 1);
    if (pl->nmsgs >= MPP_COLL_MAX_MSGS)
        return mpp_err_set(err, MPP_EINVAL, "collective: more than %llu messages",
                           (unsigned long long)MPP_COLL_MAX_MSGS);
    uint64_t bytes = 0;
    for (uint64_t k = 0; k < n; k++) {
        uint32_t i = it[k];
        assert(i < pl->nitems);
        bytes += pl->item_bytes[i];
        if (pl->held) {
            size_t wa = (size_t)a * pl->words + i / 64, wb = (size_t)b * pl->words + i / 64;
            uint64_t bit = UINT64_C(1) << (i % 64);
            if (!(pl->held[wa] & bit))
                return mpp_err_set(err, MPP_EINVAL,
                                   "collective plan: member %u sends item %u it does not hold "
                                   "(step %u)",
                                   a, i, pl->step);
            if ((pl->held[wb] | pl->inc[wb]) & bit)
                return mpp_err_set(err, MPP_EINVAL,
                                   "collective plan: member %u would receive item %u twice "
                                   "(step %u)",
                                   b, i, pl->step);
            pl->inc[wb] |= bit;
            uint8_t *c = &pl->recvd[(size_t)b * pl->nitems + i];
            if (*c < 255)
                (*c)++;
        }
    }
    return add_msg(pl, a, b, it, n, bytes, ready, err);
}

/* Append the message a -> b of n items (it) and `bytes` to the open step. */
static int add_msg(mpp_coll_plan *pl, uint32_t a, uint32_t b, const uint32_t *it, uint64_t n,
                   uint64_t bytes, uint32_t ready, mpp_err *err)
{
    if (pl->ncur == pl->cur_cap) {
        uint32_t cap = pl->cur_cap ? pl->cur_cap * 2 : 64;
        mpp_coll_msg *nc = realloc(pl->cur, cap * sizeof *nc);
        if (!nc)
            return mpp_err_set(err, MPP_ENOMEM, "out of memory");
        pl->cur = nc;
        pl->cur_cap = cap;
    }
    if (pl->ncur_items + n > pl->cur_items_cap) {
        uint64_t cap = pl->cur_items_cap ? pl->cur_items_cap : 256;
        while (cap < pl->ncur_items + n)
            cap *= 2;
        uint32_t *ni = realloc(pl->cur_items, cap * sizeof *ni);
        if (!ni)
            return mpp_err_set(err, MPP_ENOMEM, "out of memory");
        pl->cur_items = ni;
        pl->cur_items_cap = cap;
    }
    if (n)
        memcpy(pl->cur_items + pl->ncur_items, it, n * sizeof *it);
    pl->cur[pl->ncur++] = (mpp_coll_msg){a, b, ready, pl->ncur_items, n, bytes};
    pl->ncur_items += n;
    pl->sends[a]++;
    pl->recvs[b]++;
    touch(pl, a);
    touch(pl, b);
    pl->nmsgs++;
    pl->nbytes += bytes;
    pl->node_bytes_sent[pl->grp.node[a]] += bytes;
    pl->node_bytes_recv[pl->grp.node[b]] += bytes;
    return 0;
}

/* The open step's operations (the table at the top). */
/* Lazy waits (coll.h): post member m's receives of steps <= upto, oldest
 * first. */
static int lazy_post(mpp_coll_plan *pl, uint32_t m, uint32_t upto, mpp_err *err)
{
    int rc = 0;
    while (!rc && pl->pend_head[m] != NONE && pl->pend[pl->pend_head[m]].step <= upto) {
        const mpp_coll_pend *r = &pl->pend[pl->pend_head[m]];
        rc = mpp_progbuild_add(&pl->pb, pl->grp.node[m],
                               (mpp_op){.code = MPP_OP_IRECV, .peer = r->peer, .tag = r->tag},
                               err);
        pl->pend_head[m] = r->next;
    }
    if (pl->pend_head[m] == NONE)
        pl->pend_tail[m] = NONE;
    return rc;
}

/* The open step's operations with lazy waits: the step's receives join
 * their members' lists, then the sends are made (a send that forwards what
 * its member received in this very step waits for it). */
static int emit_lazy(mpp_coll_plan *pl, uint32_t tag, mpp_err *err)
{
    const uint32_t *node = pl->grp.node;
    int rc = 0;
    for (uint32_t k = 0; k < pl->ncur; k++) {
        const mpp_coll_msg *t = &pl->cur[k];
        if (pl->npend == pl->pend_cap) {
            uint32_t cap = pl->pend_cap ? pl->pend_cap * 2 : 256;
            mpp_coll_pend *np = cap > pl->pend_cap ? realloc(pl->pend, (size_t)cap * sizeof *np)
                                                   : NULL;
            if (!np)
                return mpp_err_set(err, MPP_ENOMEM, "out of memory");
            pl->pend = np;
            pl->pend_cap = cap;
        }
        uint32_t c = pl->npend++, b = t->to;
        pl->pend[c] = (mpp_coll_pend){node[t->from], tag, pl->step, NONE};
        if (pl->pend_tail[b] != NONE)
            pl->pend[pl->pend_tail[b]].next = c;
        else
            pl->pend_head[b] = c;
        pl->pend_tail[b] = c;
        pl->open[b] = 1;
    }
    for (uint32_t k = 0; k < pl->ncur && !rc; k++) {
        const mpp_coll_msg *t = &pl->cur[k];
        uint32_t a = t->from;
        if (t->ready != MPP_COLL_ORIGIN &&
            (t->ready == MPP_COLL_UNKNOWN || t->ready >= pl->waited[a])) {
            uint32_t upto = t->ready == MPP_COLL_UNKNOWN ? pl->step : t->ready;
            rc = lazy_post(pl, a, upto, err);
            if (!rc)
                rc = mpp_progbuild_add(&pl->pb, node[a], (mpp_op){.code = MPP_OP_WAIT}, err);
            pl->waited[a] = upto + 1;
        }
        if (!rc)
            rc = mpp_progbuild_add(&pl->pb, node[a],
                                   (mpp_op){.code = MPP_OP_ISEND, .paradigm = (uint8_t)pl->paradigm,
                                            .peer = node[t->to], .tag = tag, .bytes = t->bytes},
                                   err);
        pl->open[a] = 1;
    }
    return rc;
}

static void lazy_free(mpp_coll_plan *pl)
{
    free(pl->waited);
    free(pl->open);
    free(pl->pend_head);
    free(pl->pend_tail);
    free(pl->pend);
    pl->waited = pl->pend_head = pl->pend_tail = NULL;
    pl->open = NULL;
    pl->pend = NULL;
    pl->npend = pl->pend_cap = 0;
    pl->lazy = false;
}

int mpp_coll_lazy_begin(mpp_coll_plan *pl, mpp_err *err)
{
    assert(!pl->lazy && !pl->in_step && pl->paradigm == MPP_PARADIGM_AM_PUT);
    uint32_t g = pl->grp.g ? pl->grp.g : 1;
    pl->waited = calloc(g, sizeof *pl->waited);
    pl->open = calloc(g, 1);
    pl->pend_head = malloc(g * sizeof *pl->pend_head);
    pl->pend_tail = malloc(g * sizeof *pl->pend_tail);
    if (!pl->waited || !pl->open || !pl->pend_head || !pl->pend_tail) {
        lazy_free(pl);
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    }
    for (uint32_t m = 0; m < g; m++)
        pl->pend_head[m] = pl->pend_tail[m] = NONE;
    pl->lazy = true;
    return 0;
}

int mpp_coll_lazy_end(mpp_coll_plan *pl, mpp_err *err)
{
    int rc = 0;
    if (!pl->lazy)
        return 0;
    if (pl->flags & MPP_COLL_PROGRAMS)
        for (uint32_t m = 0; m < pl->grp.g && !rc; m++)
            if (pl->open[m]) {
                rc = lazy_post(pl, m, NONE, err);
                if (!rc)
                    rc = mpp_progbuild_add(&pl->pb, pl->grp.node[m],
                                           (mpp_op){.code = MPP_OP_WAIT}, err);
            }
    lazy_free(pl);
    return rc;
}

static int emit(mpp_coll_plan *pl, uint32_t tag, mpp_err *err)
{
    bool async = pl->paradigm != MPP_PARADIGM_SYNC;
    uint8_t par = (uint8_t)pl->paradigm;
    const uint32_t *node = pl->grp.node;
    int rc = 0;
    if (pl->lazy)
        return emit_lazy(pl, tag, err);
    for (uint32_t k = 0; k < pl->ncur && !rc; k++) {
        const mpp_coll_msg *t = &pl->cur[k];
        bool lone = pl->recvs[t->to] == 1 && pl->sends[t->to] == 0;
        rc = mpp_progbuild_add(&pl->pb, node[t->to],
                               (mpp_op){.code = lone ? MPP_OP_RECV : MPP_OP_IRECV,
                                        .peer = node[t->from], .tag = tag},
                               err);
    }
    for (uint32_t k = 0; k < pl->ncur && !rc; k++) {
        const mpp_coll_msg *t = &pl->cur[k];
        rc = mpp_progbuild_add(&pl->pb, node[t->from],
                               (mpp_op){.code = async ? MPP_OP_ISEND : MPP_OP_SEND,
                                        .paradigm = par, .peer = node[t->to], .tag = tag,
                                        .bytes = t->bytes},
                               err);
    }
    for (uint32_t k = 0; k < pl->ntouched && !rc; k++) {
        uint32_t m = pl->touched[k];
        if (pl->recvs[m] + pl->sends[m] >= 2 || (async && pl->sends[m]))
            rc = mpp_progbuild_add(&pl->pb, node[m], (mpp_op){.code = MPP_OP_WAIT}, err);
    }
    return rc;
}

/* The clock (mpp_coll_schedule_time, coll.h): the open step's members post
 * their receives and write their messages, the messages leave, arrive and
 * are read; then every member that received waits for its receives. */
/* Member v's processor posts the open step's receives once it may begin
 * (its WAIT is over and it is free), once a step. */
static void clock_post(mpp_coll_plan *pl, uint32_t v)
{
    if (pl->t_posted[v])
        return;
    double b = pl->t_start[v] > pl->t_cpu[v] ? pl->t_start[v] : pl->t_cpu[v];
    pl->t_cpu[v] = b + (double)pl->recvs[v] * pl->clock->post;
    pl->t_posted[v] = 1;
}

static void clock_step(mpp_coll_plan *pl)
{
    const mpp_coll_model *m = pl->clock;
    for (uint32_t k = 0; k < pl->ncur; k++) {
        const mpp_coll_msg *x = &pl->cur[k];
        uint32_t a = x->from, b = x->to, diff = a ^ b;
        uint32_t port = pl->t_ports > 1 ? (uint32_t)__builtin_ctz(diff) % pl->t_ports : 0;
        double *free = &pl->t_port[(size_t)a * pl->t_ports + port];
        clock_post(pl, a);
        /* the processor writes the message's packets one after the other;
         * its flits leave once the first is written and the port is free,
         * no faster than they are written */
        double P = (double)mpp_packet_count(&m->pk, x->bytes), F = mpp_coll_flits(m, x->bytes);
        double ws = pl->t_cpu[a];
        double start = ws + m->w > *free ? ws + m->w : *free;
        double out = start + F, written = ws + P * m->w + F / P;
        if (written > out)
            out = written;
        pl->t_cpu[a] = ws + P * m->w;
        *free = out;
        double in = out + mpp_coll_latency(m, mpp_coll_hops(m, a, b));
        if (pl->t_ports == 1) {
            double ej = pl->t_eject[b] + F;
            if (ej > in)
                in = ej;
            pl->t_eject[b] = in;
        }
        /* the receiver reads every packet and runs the completion */
        in += m->r + m->done;
        pl->t_read[b] += P * m->r + m->done;
        if (in > pl->t_in[b])
            pl->t_in[b] = in;
    }
    for (uint32_t k = 0; k < pl->ntouched; k++) {
        uint32_t v = pl->touched[k];
        clock_post(pl, v);
        double done = pl->t_cpu[v] + pl->t_read[v];
        if (pl->recvs[v]) {
            double w = pl->t_in[v] > done ? pl->t_in[v] : done;
            if (w > pl->t_start[v])
                pl->t_start[v] = w;
            pl->t_cpu[v] = w;
        }
        if (pl->t_in[v] > pl->t_end)
            pl->t_end = pl->t_in[v];
        pl->t_read[v] = 0;
        pl->t_posted[v] = 0;
    }
}

int mpp_coll_step_end(mpp_coll_plan *pl, mpp_err *err)
{
    assert(pl->in_step);
    pl->in_step = false;
    int rc = 0;
    if (pl->clock && pl->ncur)
        clock_step(pl);
    if (pl->ncur) {
        uint32_t tag = pl->tag_base + pl->step;
        if (tag > MPP_COLL_TAG_MAX)
            rc = mpp_err_set(err, MPP_EINVAL, "collective: more than %u steps",
                             MPP_COLL_TAG_MAX);
        if (!rc && (pl->flags & MPP_COLL_PROGRAMS))
            rc = emit(pl, tag, err);
        pl->step++;
        if (tag + 1 > pl->max_tag)
            pl->max_tag = tag + 1;
        if (pl->step > pl->steps_used)
            pl->steps_used = pl->step;
    }
    for (uint32_t k = 0; k < pl->ntouched; k++) {
        uint32_t m = pl->touched[k];
        pl->touched_mark[m] = 0;
        pl->sends[m] = pl->recvs[m] = 0;
        if (pl->held)
            for (uint32_t w = 0; w < pl->words; w++) {
                size_t x = (size_t)m * pl->words + w;
                pl->held[x] |= pl->inc[x];
                pl->inc[x] = 0;
            }
    }
    pl->ntouched = 0;
    pl->ncur = 0;
    pl->ncur_items = 0;
    return rc;
}

/* --- flows ------------------------------------------------------------------ */

typedef struct flow_entry {
    uint32_t item;
    uint32_t prev;   /* entry by which the item reaches the sender, or NONE */
    uint32_t next;   /* next entry of the same edge, or NONE */
    uint32_t sent;   /* step in which it was sent, or NONE */
} flow_entry;

typedef struct flow_edge {
    uint32_t a, b;
    uint32_t first, last;      /* entries: a linked list in order */
    uint32_t next_of_a;        /* next edge of the same sender, or NONE */
} flow_edge;

struct mpp_coll_flow {
    uint32_t g;
    flow_edge *e;
    uint32_t ne, ecap;
    flow_entry *en;
    uint32_t nen, encap;
    uint32_t *first_edge, *last_edge; /* [g] per sender */
};

mpp_coll_flow *mpp_coll_flow_new(uint32_t g, mpp_err *err)
{
    mpp_coll_flow *f = calloc(1, sizeof *f);
    if (f) {
        f->g = g;
        f->first_edge = malloc((g ? g : 1) * sizeof *f->first_edge);
        f->last_edge = malloc((g ? g : 1) * sizeof *f->last_edge);
    }
    if (!f || !f->first_edge || !f->last_edge) {
        mpp_coll_flow_free(f);
        mpp_err_set(err, MPP_ENOMEM, "out of memory");
        return NULL;
    }
    for (uint32_t m = 0; m < g; m++)
        f->first_edge[m] = f->last_edge[m] = NONE;
    return f;
}

void mpp_coll_flow_free(mpp_coll_flow *f)
{
    if (!f)
        return;
    free(f->e);
    free(f->en);
    free(f->first_edge);
    free(f->last_edge);
    free(f);
}

uint32_t mpp_coll_flow_edge(mpp_coll_flow *f, uint32_t a, uint32_t b)
{
    assert(a < f->g && b < f->g && a != b);
    for (uint32_t e = f->first_edge[a]; e != NONE; e = f->e[e].next_of_a)
        if (f->e[e].b == b)
            return e;
    if (f->ne == f->ecap) {
        uint32_t cap = f->ecap ? f->ecap * 2 : 64;
        flow_edge *ne = cap > f->ecap ? realloc(f->e, (size_t)cap * sizeof *ne) : NULL;
        if (!ne)
            return NONE;
        f->e = ne;
        f->ecap = cap;
    }
    uint32_t e = f->ne++;
    f->e[e] = (flow_edge){a, b, NONE, NONE, NONE};
    if (f->last_edge[a] == NONE)
        f->first_edge[a] = e;
    else
        f->e[f->last_edge[a]].next_of_a = e;
    f->last_edge[a] = e;
    return e;
}

uint32_t mpp_coll_flow_item(mpp_coll_flow *f, uint32_t e, uint32_t item, uint32_t prev)
{
    if (f->nen >= MPP_COLL_MAX_ENTRIES)
        return NONE;
    if (f->nen == f->encap) {
        uint32_t cap = f->encap ? f->encap * 2 : 256;
        flow_entry *nn = realloc(f->en, (size_t)cap * sizeof *nn);
        if (!nn)
            return NONE;
        f->en = nn;
        f->encap = cap;
    }
    uint32_t x = f->nen++;
    f->en[x] = (flow_entry){item, prev, NONE, NONE};
    flow_edge *ed = &f->e[e];
    if (ed->last == NONE)
        ed->first = x;
    else
        f->en[ed->last].next = x;
    ed->last = x;
    return x;
}

/* Is entry x available at its edge's sender before step t? */
static bool available(const mpp_coll_flow *f, uint32_t x, uint32_t t)
{
    uint32_t p = f->en[x].prev;
    return p == NONE || (f->en[p].sent != NONE && f->en[p].sent < t);
}

/* The entries edge ed sends in step t into items[0 .. *n): the available
 * ones in order, up to chunk bytes (at least one; chunk 0: all of them).
 * Sent entries leave the edge's list. */
static int take(mpp_coll_flow *f, flow_edge *ed, uint32_t t, const mpp_coll_plan *pl,
                uint32_t **items, uint32_t *cap, uint32_t *n)
{
    *n = 0;
    uint64_t bytes = 0;
    uint32_t prev = NONE;
    for (uint32_t x = ed->first; x != NONE;) {
        uint32_t next = f->en[x].next;
        if (available(f, x, t)) {
            uint64_t b = pl->item_bytes[f->en[x].item];
            if (*n && pl->chunk && bytes + b > pl->chunk)
                break;
            if (*n == *cap) {
                uint32_t c = *cap ? *cap * 2 : 64;
                uint32_t *ni = realloc(*items, c * sizeof *ni);
                if (!ni)
                    return MPP_ENOMEM;
                *items = ni;
                *cap = c;
            }
            (*items)[(*n)++] = f->en[x].item;
            bytes += b;
            f->en[x].sent = t;
            /* unlink x */
            if (prev == NONE)
                ed->first = next;
            else
                f->en[prev].next = next;
            if (ed->last == x)
                ed->last = prev;
        } else {
            prev = x;
        }
        x = next;
    }
    return 0;
}

int mpp_coll_flow_run(mpp_coll_flow *f, mpp_coll_plan *pl, mpp_err *err)
{
    uint32_t left = f->nen, cap = 0;
    uint32_t *items = NULL;
    int rc = 0;
    for (uint32_t t = 0; left && !rc; t++) {
        mpp_coll_step_begin(pl);
        uint32_t sent_now = 0;
        for (uint32_t e = 0; e < f->ne && !rc; e++) {
            flow_edge *ed = &f->e[e];
            uint32_t n = 0;
            if (take(f, ed, t, pl, &items, &cap, &n))
                rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
            else if (n) {
                rc = mpp_coll_send(pl, ed->a, ed->b, items, n, err);
                sent_now += n;
                left -= n;
            }
        }
        int rc2 = mpp_coll_step_end(pl, err);
        if (!rc)
            rc = rc2;
        if (!rc && !sent_now && left)
            rc = mpp_err_set(err, MPP_EINVAL,
                             "collective plan: a flow is stuck with %u entries left (a "
                             "plug-in bug)",
                             left);
    }
    free(items);
    return rc;
}

int mpp_coll_tree_edges(mpp_coll_flow *f, const uint32_t *parent, const uint32_t *order,
                        uint32_t g, uint32_t *edge_in, bool up)
{
    for (uint32_t k = 0; k < g; k++) {
        uint32_t v = order[k];
        edge_in[v] = NONE;
        if (parent[v] == NONE)
            continue;
        edge_in[v] = up ? mpp_coll_flow_edge(f, v, parent[v]) : mpp_coll_flow_edge(f, parent[v], v);
        if (edge_in[v] == NONE)
            return MPP_ENOMEM;
    }
    return 0;
}

int mpp_coll_tree_bcast(mpp_coll_flow *f, const uint32_t *parent, const uint32_t *order,
                        uint32_t g, const uint32_t *edge_in, uint32_t item, uint32_t *scratch)
{
    for (uint32_t k = 0; k < g; k++) {
        uint32_t v = order[k];
        scratch[v] = NONE;
        if (parent[v] == NONE)
            continue;
        uint32_t x = mpp_coll_flow_item(f, edge_in[v], item, scratch[parent[v]]);
        if (x == NONE)
            return MPP_ENOMEM;
        scratch[v] = x;
    }
    return 0;
}

int mpp_coll_tree_path(mpp_coll_flow *f, const uint32_t *parent, const uint32_t *edge_in,
                       uint32_t member, uint32_t item, bool up, uint32_t *scratch)
{
    uint32_t len = 0;
    for (uint32_t v = member; parent[v] != NONE; v = parent[v])
        scratch[len++] = v;
    uint32_t prev = NONE;
    for (uint32_t k = 0; k < len; k++) {
        /* down: from the root's child to member; up: from member to the root */
        uint32_t v = up ? scratch[k] : scratch[len - 1 - k];
        prev = mpp_coll_flow_item(f, edge_in[v], item, prev);
        if (prev == NONE)
            return MPP_ENOMEM;
    }
    return 0;
}

/* --- spanning binomial trees ------------------------------------------------ */

bool mpp_coll_trees_at_once(const mpp_coll_args *a, uint32_t n)
{
    return a->all_port && n > 1 && (a->links == 0 || a->links >= n);
}

uint32_t mpp_coll_log2(uint32_t g)
{
    return g > 1 ? 31u - (uint32_t)__builtin_clz(g) : 0;
}

static uint32_t hibit(uint32_t a) { return 31u - (uint32_t)__builtin_clz(a); }

uint32_t mpp_coll_sbt_parent(uint32_t n, uint32_t s, uint32_t m)
{
    (void)n;
    uint32_t a = s ^ m;
    if (!a)
        return NONE;
    return s ^ (a & ~(1u << hibit(a)));
}

uint32_t mpp_coll_sbt_children(uint32_t n, uint32_t s, uint32_t m, uint32_t *out)
{
    uint32_t a = s ^ m, k = 0;
    uint32_t j0 = a ? hibit(a) + 1 : 0;
    for (uint32_t j = j0; j < n; j++)
        out[k++] = m ^ (1u << j);
    return k;
}

/* Rotate the n-bit address x left by r. */
static uint32_t rotl(uint32_t n, uint32_t x, uint32_t r)
{
    r %= n;
    uint32_t mask = n >= 32 ? UINT32_MAX : (1u << n) - 1;
    return r ? ((x << r) | (x >> (n - r))) & mask : x;
}

uint32_t mpp_coll_msbt_parent(uint32_t n, uint32_t s, uint32_t j, uint32_t m)
{
    if (m == s)
        return NONE;
    uint32_t R = s ^ (1u << j);
    if (m == R)
        return s;
    uint32_t r = n - 1 - j;
    uint32_t c = rotl(n, m ^ R, r);                 /* the rotated SBT address */
    uint32_t p = c & ~(1u << hibit(c));
    return R ^ rotl(n, p, n - r);
}

uint32_t mpp_coll_msbt_children(uint32_t n, uint32_t s, uint32_t j, uint32_t m, uint32_t *out)
{
    if (m == s) {
        out[0] = s ^ (1u << j);
        return 1;
    }
    uint32_t R = s ^ (1u << j), r = n - 1 - j;
    uint32_t c = rotl(n, m ^ R, r), k = 0;
    uint32_t j0 = c ? hibit(c) + 1 : 0;
    for (uint32_t d = j0; d < n; d++) {
        uint32_t child = R ^ rotl(n, c | (1u << d), n - r);
        if (child != s) /* the source is a leaf of every rotated tree */
            out[k++] = child;
    }
    return k;
}

/* BFS from root over children(m) into order[], parent[] filled. */
static void bfs(uint32_t n, uint32_t g, uint32_t root, uint32_t s, uint32_t j, bool msbt,
                uint32_t *parent, uint32_t *order)
{
    uint32_t kids[33], head = 0, tail = 0;
    for (uint32_t m = 0; m < g; m++)
        parent[m] = NONE;
    order[tail++] = root;
    while (head < tail) {
        uint32_t u = order[head++];
        uint32_t nk = msbt ? mpp_coll_msbt_children(n, s, j, u, kids)
                           : mpp_coll_sbt_children(n, s, u, kids);
        for (uint32_t k = 0; k < nk && tail < g; k++) {
            parent[kids[k]] = u;
            order[tail++] = kids[k];
        }
    }
    assert(tail == g);
}

void mpp_coll_tree_sbt(uint32_t n, uint32_t s, uint32_t *parent, uint32_t *order)
{
    bfs(n, 1u << n, s, s, 0, false, parent, order);
}

void mpp_coll_tree_msbt(uint32_t n, uint32_t s, uint32_t j, uint32_t *parent, uint32_t *order)
{
    bfs(n, 1u << n, s, s, j, true, parent, order);
}

/* --- the message model ------------------------------------------------------ */

double mpp_coll_flits(const mpp_coll_model *m, uint64_t B)
{
    uint64_t P = mpp_packet_count(&m->pk, B);
    return (double)(P - 1) * m->pk.full_flits + mpp_packet_flits_of(&m->pk, B, P - 1);
}

double mpp_coll_occupancy(const mpp_coll_model *m, uint64_t B, uint32_t ks)
{
    double f = mpp_coll_flits(m, B), c = (double)mpp_packet_count(&m->pk, B) * ks * m->w;
    return f > c ? f : c;
}

double mpp_coll_hops(const mpp_coll_model *m, uint32_t a, uint32_t b)
{
    if (!m->topo || !m->node)
        return m->hops_mean;
    return m->topo->ops->distance(m->topo, m->node[a], m->node[b]);
}

double mpp_coll_latency(const mpp_coll_model *m, double h)
{
    return (h + 1) * m->rd + (h + 2) * m->ll;
}

double mpp_coll_tree_pace(const mpp_coll_model *m, uint64_t q, uint32_t c)
{
    double P = (double)mpp_packet_count(&m->pk, q), F = mpp_coll_flits(m, q);
    double root;
    if (m->all_port) {
        /* c copies over min(links, c) ports, the processor writing them all */
        uint32_t ports = m->links < c ? m->links : c;
        double per = ports ? (double)((c + ports - 1) / ports) : (double)c;
        root = per * F > P * c * m->w ? per * F : P * c * m->w;
    } else {
        root = (double)c * mpp_coll_occupancy(m, q, 1);
    }
    /* the busiest relay, the root's first child: reads every piece and
     * writes it c - 1 times */
    double relay = P * ((double)(c ? c - 1 : 0) * m->w + m->r) + m->post + m->done;
    return root > relay ? root : relay;
}

/* One message; `posted`: the receiver posted its receives (kr of them)
 * before the sender wrote its first packet, else the posting overlaps the
 * data; and the sender wrote the packets of its ks - 1 other messages
 * before this one's (an exchange step), else they interleave. */
static double msg_time(const mpp_coll_model *m, uint64_t B, double h, uint32_t sw, uint32_t sr,
                       uint32_t rw, uint32_t rr, bool posted)
{
    uint64_t P = mpp_packet_count(&m->pk, B);
    /* the data: first packet written, every flit through the channels */
    double net = m->w + mpp_coll_flits(m, B) + mpp_coll_latency(m, h);
    if (posted && sw > 1)
        net += (double)(sw - 1) * (double)P * m->w;
    /* the processors: the receiver posts its receive and reads every packet
     * but the last; the slower of the two processors sets the pace, each
     * writing and reading the packets of the other messages it handles at
     * the same time in between */
    if (!rr)
        rr = 1;
    double post = posted ? 0 : (double)rr * m->post;
    double snd = (double)sw * m->w + (double)sr * m->r, rcv = (double)rw * m->w + (double)rr * m->r;
    double cpu = post + (double)P * (snd > rcv ? snd : rcv) - m->r;
    return (net > cpu ? net : cpu) + m->r + m->done;
}

double mpp_coll_msg_time(const mpp_coll_model *m, uint64_t B, double h, uint32_t ks,
                         uint32_t kr)
{
    return msg_time(m, B, h, ks, kr ? kr : 1, ks, kr ? kr : 1, false);
}

double mpp_coll_xfer_time(const mpp_coll_model *m, uint64_t B, double h, uint32_t sw,
                          uint32_t sr, uint32_t rw, uint32_t rr)
{
    return msg_time(m, B, h, sw, sr, rw, rr, false);
}

double mpp_coll_exchange_time(const mpp_coll_model *m, uint64_t B, double h, uint32_t ks,
                              uint32_t kr)
{
    return (double)(kr ? kr : 1) * m->post + msg_time(m, B, h, ks, kr ? kr : 1, ks, kr ? kr : 1, true);
}

uint32_t mpp_coll_pieces(uint64_t bytes, uint64_t chunk)
{
    if (!chunk || bytes <= chunk)
        return 1;
    return (uint32_t)((bytes + chunk - 1) / chunk);
}

uint64_t mpp_coll_piece_bytes(uint64_t bytes, uint64_t chunk, uint32_t k)
{
    if (!chunk || bytes <= chunk)
        return bytes;
    uint64_t off = (uint64_t)k * chunk;
    return bytes - off < chunk ? bytes - off : chunk;
}

/* --- shared by the broadcasts ---------------------------------------------- */

uint64_t mpp_coll_bcast_crossings(const mpp_coll_args *a, uint32_t g)
{
    return (uint64_t)mpp_coll_pieces(a->M, a->chunk) * (g ? g - 1 : 0);
}

uint64_t mpp_coll_bcast_nitems(const mpp_coll_args *a, uint32_t g)
{
    (void)g;
    return mpp_coll_pieces(a->M, a->chunk);
}

void mpp_coll_bcast_items(const mpp_coll_args *a, uint32_t g, uint64_t *bytes,
                          uint32_t *origin)
{
    (void)g;
    uint32_t C = mpp_coll_pieces(a->M, a->chunk);
    for (uint32_t k = 0; k < C; k++) {
        bytes[k] = mpp_coll_piece_bytes(a->M, a->chunk, k);
        origin[k] = a->root;
    }
}

bool mpp_coll_wants_all(const mpp_coll_args *a, uint32_t g, uint32_t m, uint32_t i)
{
    (void)a, (void)g, (void)m, (void)i;
    return true;
}

int mpp_coll_tree_alloc(uint32_t g, size_t words, uint32_t **mem, mpp_coll_flow **f,
                        mpp_err *err)
{
    *mem = malloc((words ? words : 1) * sizeof **mem);
    *f = mpp_coll_flow_new(g, err);
    if (!*mem || !*f) {
        free(*mem);
        mpp_coll_flow_free(*f);
        *mem = NULL;
        *f = NULL;
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    }
    return 0;
}

int mpp_coll_tree_finish(mpp_coll_flow *f, uint32_t *mem, mpp_coll_plan *pl, int rc,
                         mpp_err *err)
{
    if (rc)
        rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
    else
        rc = mpp_coll_flow_run(f, pl, err);
    mpp_coll_flow_free(f);
    free(mem);
    return rc;
}

/* --- planning the groups ---------------------------------------------------- */

int mpp_coll_plan_groups(mpp_coll_plan *pl, const mpp_coll_ops *ops, const mpp_coll_args *a,
                         const mpp_coll_group *grp, uint32_t ngroups, mpp_err *err)
{
    int rc = 0;
    for (uint32_t k = 0; k < ngroups && !rc; k++) {
        uint32_t g = grp[k].g;
        uint64_t n = ops->nitems(a, g);
        if (n > UINT32_MAX / 2)
            return mpp_err_set(err, MPP_EINVAL, "collective: %llu items in a group is too many",
                               (unsigned long long)n);
        uint64_t *bytes = malloc((n ? n : 1) * sizeof *bytes);
        uint32_t *origin = malloc((n ? n : 1) * sizeof *origin);
        if (!bytes || !origin) {
            free(bytes);
            free(origin);
            return mpp_err_set(err, MPP_ENOMEM, "out of memory");
        }
        ops->items(a, g, bytes, origin);
        rc = mpp_coll_group_begin(pl, &grp[k], (uint32_t)n, bytes, origin, err);
        free(bytes);
        free(origin);
        if (rc)
            return rc;
        rc = ops->build(pl, a, err);
        if (!rc && pl->held)
            for (uint32_t m = 0; m < g && !rc; m++)
                for (uint32_t i = 0; i < (uint32_t)n && !rc; i++)
                    if (ops->wants(a, g, m, i) && !mpp_coll_holds(pl, m, i))
                        rc = mpp_err_set(err, MPP_EINVAL,
                                         "collective %s: member %u (node %u) lacks item %u at "
                                         "the end (a plug-in bug)",
                                         ops->name, m, grp[k].node[m], i);
        mpp_coll_group_end(pl);
    }
    return rc;
}

/* --- one-to-all and all-to-one personalized (scatter, gather) -------------- */

/* Item of member d's block, part j, piece k: blocks in member order, each
 * one part (one-port) or n parts (all-port, part j on MSBT tree j). */
static uint64_t pers_part_bytes(uint64_t M, uint32_t parts, uint32_t j)
{
    return M / parts + (j < M % parts ? 1 : 0);
}

static uint32_t pers_parts(const mpp_coll_args *a, uint32_t g)
{
    uint32_t n = mpp_coll_log2(g);
    return mpp_coll_trees_at_once(a, n) ? n : 1;
}

/* Block d's parts travel the path root -> d: popcount(d ^ root) edges in
 * the SBT, 1 + popcount(d ^ root ^ 2^j) in MSBT tree j; summed over the
 * g - 1 other members: n 2^(n-1), and g - 2 + n 2^(n-1) for every tree. */
uint64_t mpp_coll_pers_crossings(const mpp_coll_args *a, uint32_t g)
{
    uint32_t parts = pers_parts(a, g), n = mpp_coll_log2(g);
    uint64_t sum_pop = g > 1 ? (uint64_t)n << (n - 1) : 0;
    if (parts == 1)
        return mpp_coll_pieces(a->M, a->chunk) * sum_pop;
    uint64_t x = 0;
    for (uint32_t j = 0; j < parts; j++)
        x += mpp_coll_pieces(pers_part_bytes(a->M, parts, j), a->chunk) * (g - 2 + sum_pop);
    return x;
}

uint64_t mpp_coll_pers_nitems(const mpp_coll_args *a, uint32_t g)
{
    uint32_t parts = pers_parts(a, g);
    uint64_t per = 0;
    for (uint32_t j = 0; j < parts; j++)
        per += mpp_coll_pieces(pers_part_bytes(a->M, parts, j), a->chunk);
    return per * g;
}

void mpp_coll_pers_items(const mpp_coll_args *a, uint32_t g, bool up, uint64_t *bytes,
                         uint32_t *origin)
{
    uint32_t parts = pers_parts(a, g);
    uint64_t i = 0;
    for (uint32_t d = 0; d < g; d++)
        for (uint32_t j = 0; j < parts; j++) {
            uint64_t B = pers_part_bytes(a->M, parts, j);
            uint32_t C = mpp_coll_pieces(B, a->chunk);
            for (uint32_t k = 0; k < C; k++, i++) {
                bytes[i] = mpp_coll_piece_bytes(B, a->chunk, k);
                origin[i] = up ? d : a->root;
            }
        }
}

/* The member whose block item i belongs to. */
uint32_t mpp_coll_pers_member(const mpp_coll_args *a, uint32_t g, uint32_t i)
{
    uint64_t per = mpp_coll_pers_nitems(a, g) / (g ? g : 1);
    return (uint32_t)(i / per);
}

int mpp_coll_pers_build(mpp_coll_plan *pl, const mpp_coll_args *a, bool up, mpp_err *err)
{
    uint32_t g = pl->grp.g, n = mpp_coll_log2(g), parts = pers_parts(a, g);
    if (g < 2)
        return 0;
    uint32_t *mem;
    mpp_coll_flow *f;
    if (mpp_coll_tree_alloc(g, ((size_t)parts * 3 + 1) * g, &mem, &f, err))
        return MPP_ENOMEM;
    uint32_t *scratch = mem + (size_t)parts * 3 * g;
    for (uint32_t j = 0; j < parts; j++) {
        uint32_t *parent = mem + (size_t)j * 3 * g, *order = parent + g;
        if (parts == 1)
            mpp_coll_tree_sbt(n, a->root, parent, order);
        else
            mpp_coll_tree_msbt(n, a->root, j, parent, order);
    }
    int rc = 0;
    for (uint32_t k = 0; k < g && !rc; k++)
        for (uint32_t j = 0; j < parts && !rc; j++) {
            uint32_t *parent = mem + (size_t)j * 3 * g, *order = parent + g, *edge = order + g;
            uint32_t v = order[k];
            edge[v] = UINT32_MAX;
            if (parent[v] == UINT32_MAX)
                continue;
            edge[v] = up ? mpp_coll_flow_edge(f, v, parent[v]) : mpp_coll_flow_edge(f, parent[v], v);
            if (edge[v] == UINT32_MAX)
                rc = MPP_ENOMEM;
        }
    uint32_t i = 0;
    for (uint32_t d = 0; d < g && !rc; d++)
        for (uint32_t j = 0; j < parts && !rc; j++) {
            uint32_t *parent = mem + (size_t)j * 3 * g, *edge = parent + 2 * (size_t)g;
            uint32_t C = mpp_coll_pieces(pers_part_bytes(a->M, parts, j), a->chunk);
            for (uint32_t k = 0; k < C && !rc; k++, i++)
                if (d != a->root)
                    rc = mpp_coll_tree_path(f, parent, edge, d, i, up, scratch);
        }
    return mpp_coll_tree_finish(f, mem, pl, rc, err);
}

/* One-port, whole blocks: the root sends (scatter) or receives (gather)
 * the blocks of its n subtrees, 2^(n-1-j) blocks to child j, one message
 * each; pipelined, (g-1) C pieces in turn and n - 1 levels to fill. All-
 * port: the n trees share the work, each carrying (g-1) pieces of M/n per
 * piece step on its own link. */
/* Sum over the pieces of B bytes cut at chunk of the occupancy of each. */
static double pieces_occupancy(const mpp_coll_model *m, uint64_t B, uint64_t chunk)
{
    uint32_t C = mpp_coll_pieces(B, chunk);
    double t = 0;
    for (uint32_t k = 0; k < C; k++)
        t += mpp_coll_occupancy(m, mpp_coll_piece_bytes(B, chunk, k), 1);
    return t;
}

/* One-port (or fewer links than dimensions: the one-port schedule); the
 * all-port schedule is timed by its step recurrence (mpp_coll_analytic). */
double mpp_coll_pers_analytic(const mpp_coll_model *m, const mpp_coll_args *a, bool up)
{
    uint32_t n = m->n, g = m->g;
    if (g < 2)
        return 0;
    uint32_t C = mpp_coll_pieces(a->M, a->chunk);
    uint64_t last = mpp_coll_piece_bytes(a->M, a->chunk, C - 1);
    if (up) {
        /* gather: every member sends what it holds at once (its own block
         * first); the root's one ejection channel takes every piece of the
         * g - 1 blocks one after the other */
        double per = 0;
        for (uint32_t k = 0; k < C; k++) {
            uint64_t q = mpp_coll_piece_bytes(a->M, a->chunk, k);
            uint64_t P = mpp_packet_count(&m->pk, q);
            double f = mpp_coll_flits(m, q), rd = (double)P * m->r;
            per += f > rd ? f : rd;
        }
        return mpp_coll_latency(m, 1) + (double)(g - 1) * per + m->r + m->done;
    }
    if (C == 1) {
        /* scatter, whole blocks: the root sends each child its subtree's
         * blocks, the largest first; the chain of first children */
        double t = 0;
        for (uint32_t j = 0; j < n; j++)
            t += mpp_coll_xfer_time(m, ((uint64_t)1 << (n - 1 - j)) * a->M, 1, 1, 0, 0, 1);
        return t;
    }
    /* scatter in pieces: the root sends every piece back to back, the last
     * one to the deepest member (n hops below) */
    return (double)(g - 1) * pieces_occupancy(m, a->M, a->chunk) -
           mpp_coll_occupancy(m, last, 1) + n * mpp_coll_xfer_time(m, last, 1, 1, 0, 0, 1);
}

double mpp_coll_pers_bound(const mpp_coll_model *m, const mpp_coll_args *a)
{
    if (m->g < 2)
        return 0;
    return (double)(m->g - 1) * a->M * m->byte / (m->all_port ? m->links : 1);
}

int mpp_coll_schedule_time(const mpp_coll_ops *ops, const mpp_coll_args *a,
                           const mpp_coll_model *m, double *t, mpp_err *err)
{
    *t = 0;
    mpp_coll_plan pl;
    uint32_t N = m->topo ? m->topo->nodes : m->g;
    int rc = mpp_coll_plan_init(&pl, N, MPP_PARADIGM_AM, a->chunk, 0, err);
    if (rc)
        return rc;
    pl.clock = m;
    pl.t_ports = m->all_port && m->links > 1 ? m->links : 1;
    uint32_t *ids = NULL;
    const uint32_t *node = m->node;
    if (!node) {
        ids = malloc((m->g ? m->g : 1) * sizeof *ids);
        if (!ids) {
            mpp_coll_plan_free(&pl);
            return mpp_err_set(err, MPP_ENOMEM, "out of memory");
        }
        for (uint32_t i = 0; i < m->g; i++)
            ids[i] = i;
        node = ids;
    }
    mpp_coll_group grp = {m->g, node};
    rc = mpp_coll_plan_groups(&pl, ops, a, &grp, 1, err);
    if (!rc)
        *t = pl.t_end;
    free(ids);
    mpp_coll_plan_free(&pl);
    return rc;
}

double mpp_coll_analytic(const mpp_coll_ops *ops, const mpp_coll_model *m,
                         const mpp_coll_args *a)
{
    if (!ops->steps_all_port || !mpp_coll_trees_at_once(a, m->n))
        return ops->analytic(m, a);
    double t = 0;
    mpp_err err;
    return mpp_coll_schedule_time(ops, a, m, &t, &err) ? 0 : t;
}
