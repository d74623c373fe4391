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
    free(pl->compute);
    pl->compute = NULL;
    pl->t_start = pl->t_in = pl->t_port = pl->t_eject = pl->t_cpu = pl->t_read = NULL;
    pl->t_posted = NULL;
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
    pl->compute = calloc(g, sizeof *pl->compute);
    bool ok = pl->item_bytes && pl->sends && pl->recvs && pl->touched && pl->touched_mark &&
              pl->compute;
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
                   uint64_t bytes, mpp_err *err);

enum { SEND_PLAIN = 0, SEND_BACK = 1, SEND_COMBINED = 2 };

/* mpp_coll_send (PLAIN), mpp_coll_send_back (BACK), mpp_coll_send_combined
 * (COMBINED: `size` bytes). */
static int send_items(mpp_coll_plan *pl, uint32_t a, uint32_t b, const uint32_t *it, uint64_t n,
                      int kind, uint64_t size, mpp_err *err)
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
            if (kind == SEND_COMBINED) {
                if (!(pl->held[wb] & bit))
                    pl->inc[wb] |= bit;
                continue;
            }
            if (kind == SEND_BACK) {
                if (!(pl->held[wb] & bit))
                    return mpp_err_set(err, MPP_EINVAL,
                                       "collective plan: member %u sends item %u back to %u, "
                                       "which does not hold it (step %u)",
                                       a, i, b, pl->step);
                continue;
            }
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
    return add_msg(pl, a, b, it, n, kind == SEND_COMBINED ? size : bytes, err);
}

int mpp_coll_send(mpp_coll_plan *pl, uint32_t a, uint32_t b, const uint32_t *it, uint64_t n,
                  mpp_err *err)
{
    return send_items(pl, a, b, it, n, SEND_PLAIN, 0, err);
}

int mpp_coll_send_back(mpp_coll_plan *pl, uint32_t a, uint32_t b, const uint32_t *it,
                       uint64_t n, mpp_err *err)
{
    return send_items(pl, a, b, it, n, SEND_BACK, 0, err);
}

int mpp_coll_send_combined(mpp_coll_plan *pl, uint32_t a, uint32_t b, const uint32_t *it,
                           uint64_t n, uint64_t bytes, mpp_err *err)
{
    return send_items(pl, a, b, it, n, SEND_COMBINED, bytes, err);
}

void mpp_coll_compute(mpp_coll_plan *pl, uint32_t m, uint64_t cycles)
{
    assert(pl->in_step && m < pl->grp.g);
    touch(pl, m);
    pl->compute[m] += cycles;
}

/* Append the message a -> b of n items (it) and `bytes` to the open step. */
static int add_msg(mpp_coll_plan *pl, uint32_t a, uint32_t b, const uint32_t *it, uint64_t n,
                   uint64_t bytes, mpp_err *err)
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
    pl->cur[pl->ncur++] = (mpp_coll_msg){a, b, pl->ncur_items, n, bytes};
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
static int emit(mpp_coll_plan *pl, uint32_t tag, mpp_err *err)
{
    bool async = pl->paradigm != MPP_PARADIGM_SYNC;
    uint8_t par = (uint8_t)pl->paradigm;
    const uint32_t *node = pl->grp.node;
    int rc = 0;
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
        if (!rc && pl->compute[m])
            rc = mpp_progbuild_add(&pl->pb, node[m],
                                   (mpp_op){.code = MPP_OP_COMPUTE, .bytes = pl->compute[m]},
                                   err);
    }
    return rc;
}

/* The links of the clock on a mesh with one-port nodes (links_modelled):
 * the plan is recorded step by step (links_record, instead of clock_step)
 * and then run in time order (links_run): a message's head takes the links
 * of its routed path one after the other, each once the messages whose
 * heads reached it before have left it (message by message, first come
 * first served). */
typedef struct mpp_coll_links {
    const mpp_topo *t;
    int route;
    double *free;            /* [ports] the link of that router output port is free from */
    struct lk_msg *msg;
    uint32_t nmsg, msg_cap;
    struct lk_part *part;
    uint32_t npart, part_cap;
    uint32_t *sendidx;       /* [nmsg] each part's sends, contiguous, in plan order */
    uint32_t *first, *last;  /* [g] a member's first and last part */
    uint32_t *pos;           /* [g] scratch: the open step's part of a member */
} mpp_coll_links;

/* A message of the recorded plan. */
typedef struct lk_msg {
    uint32_t from, to;       /* members */
    uint32_t rpart;          /* the receiver's part of its step */
    uint32_t hop, h;         /* the hop its head is at, and the path's hops */
    uint32_t r;              /* the router its head is at */
    uint64_t bytes;
    double t;                /* when its head reaches link `hop` */
    double written;          /* when its processor has written its last flit */
} lk_msg;

/* A member's share of a step: its receives and its sends. */
typedef struct lk_part {
    uint32_t nrecv, nsend, s0, next;
    uint32_t pending, sent;  /* receives not in yet; sends whose head has cleared */
    double in, read;         /* the last receive in (read); the reading of its packets */
    double compute;          /* network cycles of computation after its WAIT */
} lk_part;

static void links_free(mpp_coll_links *k)
{
    if (!k)
        return;
    free(k->free);
    free(k->msg);
    free(k->part);
    free(k->sendidx);
    free(k->first);
    free(k->last);
    free(k->pos);
    free(k);
}

/* The links of topology t routed by `route`; NULL when out of memory (the
 * clock then fails). */
static mpp_coll_links *links_new(const mpp_topo *t, int route, uint32_t g)
{
    mpp_coll_links *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->t = t;
    k->route = route;
    k->free = calloc(t->ports ? t->ports : 1, sizeof *k->free);
    k->first = malloc((g ? g : 1) * sizeof *k->first);
    k->last = malloc((g ? g : 1) * sizeof *k->last);
    k->pos = malloc((g ? g : 1) * sizeof *k->pos);
    if (k->first)
        for (uint32_t v = 0; v < g; v++)
            k->first[v] = NONE;
    if (!k->free || !k->first || !k->last || !k->pos) {
        links_free(k);
        return NULL;
    }
    return k;
}

/* The global output port of router r toward the mesh's next router on the
 * way to router `to` in dimension order (X, the columns, first; Y first
 * with YX), as routers/dor.c routes: the port wired to that neighbour
 * (routers are numbered row-major, topologies/mesh.c). */
static uint32_t mesh_next_port(const mpp_topo *t, int route, uint32_t r, uint32_t to)
{
    uint32_t C = t->dims[0], rx = r % C, ry = r / C, tx = to % C, ty = to / C;
    bool x = tx != rx && (route != MPP_COLL_ROUTE_YX || ty == ry);
    uint32_t nb = x ? (tx > rx ? r + 1 : r - 1) : (ty > ry ? r + C : r - C);
    for (uint32_t gp = t->port_base[r]; gp < t->port_base[r + 1]; gp++)
        if (t->port_peer[gp] < MPP_TOPO_NODE && t->port_router[t->port_peer[gp]] == nb)
            return gp;
    assert(!"mesh: no port to the neighbour");
    return t->port_base[r];
}

/* The same on a hypercube routed by e-cube: the highest differing address
 * bit first (routers/dor.c; router r is node r, topologies/hypercube.c). */
static uint32_t cube_next_port(const mpp_topo *t, uint32_t r, uint32_t to)
{
    uint32_t nb = r ^ (1u << (31 - __builtin_clz(r ^ to)));
    for (uint32_t gp = t->port_base[r]; gp < t->port_base[r + 1]; gp++)
        if (t->port_peer[gp] < MPP_TOPO_NODE && t->port_router[t->port_peer[gp]] == nb)
            return gp;
    assert(!"hypercube: no port to the neighbour");
    return t->port_base[r];
}

/* The link message x's head takes next (the router output port of its
 * routed path); the head moves on to the next router (x->r). */
static uint32_t links_next(const mpp_coll_links *k, lk_msg *x, uint32_t y_node)
{
    const mpp_topo *t = k->t;
    uint32_t to = t->node_router[y_node];
    uint32_t gp = t->kind == MPP_TOPO_HYPERCUBE ? cube_next_port(t, x->r, to)
                                                : mesh_next_port(t, k->route, x->r, to);
    x->r = t->port_router[t->port_peer[gp]];
    return gp;
}

/* Record the open step (instead of clock_step): its messages, and every
 * touched member's part of it. */
static int links_record(mpp_coll_plan *pl)
{
    mpp_coll_links *k = pl->t_links;
    if (k->nmsg + (uint64_t)pl->ncur > UINT32_MAX || k->npart + (uint64_t)pl->ntouched > UINT32_MAX)
        return MPP_ENOMEM;
    if (k->nmsg + pl->ncur > k->msg_cap) {
        uint32_t c = k->msg_cap ? k->msg_cap : 256;
        while (c < k->nmsg + pl->ncur)
            c = c > UINT32_MAX / 2 ? UINT32_MAX : c * 2;
        lk_msg *m = realloc(k->msg, (size_t)c * sizeof *m);
        uint32_t *si = m ? realloc(k->sendidx, (size_t)c * sizeof *si) : NULL;
        if (m)
            k->msg = m;
        if (!si)
            return MPP_ENOMEM;
        k->sendidx = si;
        k->msg_cap = c;
    }
    if (k->npart + pl->ntouched > k->part_cap) {
        uint32_t c = k->part_cap ? k->part_cap : 256;
        while (c < k->npart + pl->ntouched)
            c = c > UINT32_MAX / 2 ? UINT32_MAX : c * 2;
        lk_part *q = realloc(k->part, (size_t)c * sizeof *q);
        if (!q)
            return MPP_ENOMEM;
        k->part = q;
        k->part_cap = c;
    }
    uint32_t s0 = k->nmsg;
    for (uint32_t i = 0; i < pl->ntouched; i++) {
        uint32_t v = pl->touched[i], id = k->npart++;
        lk_part *q = &k->part[id];
        *q = (lk_part){.nrecv = pl->recvs[v], .nsend = pl->sends[v], .s0 = s0,
                       .next = NONE, .pending = pl->recvs[v],
                       .compute = (double)pl->compute[v] * pl->clock->cpu};
        s0 += q->nsend;
        q->sent = 0; /* the fill position while recording */
        if (k->first[v] == NONE)
            k->first[v] = id;
        else
            k->part[k->last[v]].next = id;
        k->last[v] = id;
        k->pos[v] = id;
    }
    for (uint32_t j = 0; j < pl->ncur; j++) {
        const mpp_coll_msg *c = &pl->cur[j];
        uint32_t id = k->nmsg++;
        k->msg[id] = (lk_msg){.from = c->from, .to = c->to, .rpart = k->pos[c->to],
                              .bytes = c->bytes};
        lk_part *q = &k->part[k->pos[c->from]];
        k->sendidx[q->s0 + q->sent++] = id;
    }
    for (uint32_t i = 0; i < pl->ntouched; i++)
        k->part[k->pos[pl->touched[i]]].sent = 0;
    return 0;
}

/* Running the recorded plan with one-port nodes: a member writes its
 * messages one after the other, each once the one before has left; the
 * heads of the messages in flight (one a member at most) in time order, a
 * binary heap by the time the head reaches its next link, ties in plan
 * order. */
typedef struct lk_run {
    mpp_coll_links *k;
    const mpp_coll_model *m;
    const uint32_t *node;
    uint32_t g;
    uint32_t *cur;           /* [g] the member's present part */
    double *cpu, *start, *port, *eject; /* [g] as clock_step's t_* */
    uint32_t *heap, nheap;
    double end;
} lk_run;

static bool lk_before(const lk_run *r, uint32_t a, uint32_t b)
{
    const lk_msg *x = &r->k->msg[a], *y = &r->k->msg[b];
    return x->t < y->t || (x->t == y->t && a < b);
}

static void lk_push(lk_run *r, uint32_t id)
{
    uint32_t i = r->nheap++;
    while (i && lk_before(r, id, r->heap[(i - 1) / 2])) {
        r->heap[i] = r->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    r->heap[i] = id;
}

static uint32_t lk_pop(lk_run *r)
{
    uint32_t top = r->heap[0], last = r->heap[--r->nheap], i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= r->nheap)
            break;
        if (c + 1 < r->nheap && lk_before(r, r->heap[c + 1], r->heap[c]))
            c++;
        if (!lk_before(r, r->heap[c], last))
            break;
        r->heap[i] = r->heap[c];
        i = c;
    }
    if (r->nheap)
        r->heap[i] = last;
    return top;
}

static void lk_begin(lk_run *r, uint32_t v);
static void lk_launch(lk_run *r, uint32_t v);
static void lk_write(lk_run *r, uint32_t v, uint32_t id);

/* Member v's present part is over when its sends have left and its
 * receives are in: its WAIT ends (as in clock_step), the next part begins. */
static void lk_try_finish(lk_run *r, uint32_t v)
{
    if (r->cur[v] == NONE)
        return;
    lk_part *q = &r->k->part[r->cur[v]];
    if (q->sent < q->nsend || q->pending)
        return;
    double done = r->cpu[v] + q->read;
    if (q->nrecv) {
        double w = q->in > done ? q->in : done;
        if (w > r->start[v])
            r->start[v] = w;
        r->cpu[v] = w;
    }
    r->cpu[v] += q->compute;
    r->cur[v] = q->next;
    lk_begin(r, v);
}

/* Message id's head has crossed every link, the first flit leaving at
 * `st`: its tail leaves, it arrives, is read; the sender writes its next. */
static void lk_done(lk_run *r, uint32_t id, double st)
{
    const mpp_coll_model *m = r->m;
    lk_msg *x = &r->k->msg[id];
    double F = mpp_coll_flits(m, x->bytes), P = (double)mpp_packet_count(&m->pk, x->bytes);
    double out = st + F > x->written ? st + F : x->written;
    r->port[x->from] = out;
    double in = out + mpp_coll_latency(m, x->h);
    double ej = r->eject[x->to] + F;
    if (ej > in)
        in = ej;
    r->eject[x->to] = in;
    in += m->r + m->done;
    lk_part *q = &r->k->part[x->rpart];
    q->read += P * m->r + m->done;
    if (in > q->in)
        q->in = in;
    if (in > r->end)
        r->end = in;
    q->pending--;
    lk_part *s = &r->k->part[r->cur[x->from]];
    s->sent++;
    lk_launch(r, x->from);
    if (x->rpart == r->cur[x->to])
        lk_try_finish(r, x->to);
}

/* Member v writes its present part's next message, once the one before
 * has left (its head has crossed its links), or finishes the part. */
static void lk_launch(lk_run *r, uint32_t v)
{
    mpp_coll_links *k = r->k;
    lk_part *q = &k->part[r->cur[v]];
    if (q->sent == q->nsend) {
        lk_try_finish(r, v);
        return;
    }
    lk_write(r, v, k->sendidx[q->s0 + q->sent]);
}

static void lk_write(lk_run *r, uint32_t v, uint32_t id)
{
    mpp_coll_links *k = r->k;
    const mpp_coll_model *m = r->m;
    lk_msg *x = &k->msg[id];
    uint32_t xn = r->node[x->from], yn = r->node[x->to];
    double P = (double)mpp_packet_count(&m->pk, x->bytes), F = mpp_coll_flits(m, x->bytes);
    x->r = k->t->node_router[xn];
    x->hop = 0;
    x->h = k->t->ops->distance(k->t, xn, yn);
    double ws = r->cpu[v], pf = r->port[v];
    double st = ws + m->w > pf ? ws + m->w : pf;
    x->written = ws + P * m->w + F / P;
    r->cpu[v] = ws + P * m->w;
    if (!x->h) {
        lk_done(r, id, st);
        return;
    }
    x->t = st + m->rd + m->ll;
    lk_push(r, id);
}

static void lk_begin(lk_run *r, uint32_t v)
{
    if (r->cur[v] == NONE)
        return;
    lk_part *q = &r->k->part[r->cur[v]];
    double b = r->start[v] > r->cpu[v] ? r->start[v] : r->cpu[v];
    r->cpu[v] = b + (double)q->nrecv * r->m->post;
    lk_launch(r, v);
}

/* Run the recorded plan of g members; the last arrival (read). */
static int links_run(mpp_coll_links *k, const mpp_coll_model *m, const uint32_t *node,
                     uint32_t g, double *t)
{
    lk_run r = {.k = k, .m = m, .node = node, .g = g};
    r.cur = malloc((g ? g : 1) * sizeof *r.cur);
    r.cpu = calloc(g ? g : 1, sizeof *r.cpu);
    r.start = calloc(g ? g : 1, sizeof *r.start);
    r.eject = calloc(g ? g : 1, sizeof *r.eject);
    r.port = calloc(g ? g : 1, sizeof *r.port);
    r.heap = malloc((g ? g : 1) * sizeof *r.heap);
    int rc = r.cur && r.cpu && r.start && r.eject && r.port && r.heap ? 0 : MPP_ENOMEM;
    double hop = m->rd + m->ll;
    for (uint32_t v = 0; v < g && !rc; v++)
        r.cur[v] = k->first[v];
    for (uint32_t v = 0; v < g && !rc; v++)
        lk_begin(&r, v);
    while (!rc && r.nheap) {
        uint32_t id = lk_pop(&r);
        lk_msg *x = &k->msg[id];
        uint32_t best = links_next(k, x, node[x->to]);
        double at = x->t > k->free[best] ? x->t : k->free[best];
        double st = at - (double)(x->hop + 1) * hop, F = mpp_coll_flits(m, x->bytes);
        double busy = x->written - st > F ? x->written - st : F;
        k->free[best] = at + busy;
        if (++x->hop == x->h)
            lk_done(&r, id, st);
        else {
            x->t = at + hop;
            lk_push(&r, id);
        }
    }
    *t = r.end;
    free(r.cur);
    free(r.cpu);
    free(r.start);
    free(r.eject);
    free(r.port);
    free(r.heap);
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
        pl->t_cpu[v] += (double)pl->compute[v] * m->cpu;
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
    if (pl->clock && pl->ncur) {
        if (!pl->t_links)
            clock_step(pl);
        else if (links_record(pl))
            rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
    }
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
        pl->compute[m] = 0;
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

int mpp_coll_prepare_none(const mpp_coll_args *a, uint32_t g, uint32_t N, void **ctx,
                          mpp_err *err)
{
    (void)a, (void)g, (void)N, (void)err;
    *ctx = NULL;
    return 0;
}

void mpp_coll_release_none(void *ctx) { (void)ctx; }

/* One group of plan_groups; a has its ctx. */
static int plan_group(mpp_coll_plan *pl, const mpp_coll_ops *ops, const mpp_coll_args *a,
                      const mpp_coll_group *grp, mpp_err *err)
{
    uint32_t g = grp->g;
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
    int rc = mpp_coll_group_begin(pl, grp, (uint32_t)n, bytes, origin, err);
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
                                     ops->name, m, grp->node[m], i);
    mpp_coll_group_end(pl);
    return rc;
}

int mpp_coll_plan_groups(mpp_coll_plan *pl, const mpp_coll_ops *ops, const mpp_coll_args *a,
                         const mpp_coll_group *grp, uint32_t ngroups, mpp_err *err)
{
    int rc = 0;
    for (uint32_t k = 0; k < ngroups && !rc; k++) {
        mpp_coll_args b = *a;
        void *ctx = NULL;
        if (!b.ctx && (rc = ops->prepare(&b, grp[k].g, pl->N, &ctx, err)))
            return rc;
        if (ctx)
            b.ctx = ctx;
        rc = plan_group(pl, ops, &b, &grp[k], err);
        if (ctx)
            ops->release(ctx);
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

/* Does the step recurrence follow the links of the messages' paths? On a
 * mesh with one-port nodes, routed in dimension order (docs/collectives.md,
 * "On a mesh"), and for a plug-in whose messages contend (ops->links) on a
 * mesh or a hypercube routed in dimension order, with either port model
 * (its members write their messages one after the other). */
static bool links_modelled(const mpp_coll_ops *ops, const mpp_coll_model *m)
{
    if (m->route == MPP_COLL_ROUTE_NONE || !m->topo || !m->node)
        return false;
    if (ops->links)
        return m->topo->kind == MPP_TOPO_MESH ||
               (m->topo->kind == MPP_TOPO_HYPERCUBE && m->route == MPP_COLL_ROUTE_DOR);
    return m->topo->kind == MPP_TOPO_MESH && !m->all_port;
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
    if (links_modelled(ops, m) && !(pl.t_links = links_new(m->topo, m->route, m->g))) {
        free(ids);
        mpp_coll_plan_free(&pl);
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    }
    rc = mpp_coll_plan_groups(&pl, ops, a, &grp, 1, err);
    if (!rc)
        *t = pl.t_end;
    if (!rc && pl.t_links &&
        links_run(pl.t_links, m, node, m->g, t))
        rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
    links_free(pl.t_links);
    pl.t_links = NULL;
    free(ids);
    mpp_coll_plan_free(&pl);
    return rc;
}

double mpp_coll_steps(const mpp_coll_ops *ops, const mpp_coll_model *m,
                      const mpp_coll_args *a)
{
    double t = 0;
    mpp_err err;
    return mpp_coll_schedule_time(ops, a, m, &t, &err) ? 0 : t;
}

double mpp_coll_analytic(const mpp_coll_ops *ops, const mpp_coll_model *m,
                         const mpp_coll_args *a)
{
    if (!links_modelled(ops, m) && (!ops->steps_all_port || !mpp_coll_trees_at_once(a, m->n)))
        return ops->analytic(m, a);
    return mpp_coll_steps(ops, m, a);
}
