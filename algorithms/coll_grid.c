/* algorithms/coll_grid.c — the unstructured-grid gather and scatter
 * (grid_gather, grid_scatter; coll.h, docs/collectives.md "Unstructured
 * grids"): the communication of one sweep of a finite-element or
 * finite-volume code over a mesh whose vertices are spread over the
 * nodes.
 *
 * The data. A mesh (`mesh`: a gmsh file, or `grid:RxC`, R x C vertices
 * and (R - 1)(C - 1) quadrangles, traces/partition.h) has V vertices
 * allocated to the N nodes (`alloc`, `map`: algorithms/alloc.h); element e
 * belongs to the owner of its first vertex. Each vertex holds one value of
 * `value_bytes` bytes.
 *   gather   every element fetches the values of its vertices from their
 *            owners (before computing on the element);
 *   scatter  every element adds its contribution to each of its vertices
 *            into the vertex's owner (after computing).
 * An incidence (element e, its vertex v) whose two owners are the same node
 * moves nothing. The others move, in one of two ways (`combine`):
 *   combined     one message per (sender, receiver) pair of nodes, carrying
 *                each distinct vertex once: in a gather, node a sends node b
 *                the values of a's vertices that b's elements use; in a
 *                scatter, b sends a its contributions to a's vertices summed
 *                per vertex. value_bytes x (distinct vertices) bytes.
 *   per element  one message per (element, remote owner): the values of the
 *                element's vertices owned there (gather), or its
 *                contributions to them (scatter). value_bytes x (its vertices
 *                owned there) bytes.
 *
 * Items (what MPP_COLL_TRACK checks). One item per incidence, in element
 * order (item first[e] + j is element e's j-th vertex), of value_bytes
 * bytes: a gather's item starts at the vertex's owner and must reach the
 * element's owner; a scatter's starts at the element's owner and must reach
 * the vertex's owner. A combined message carries every item of its pair of
 * nodes (mpp_coll_send_combined: its size is that of the distinct
 * vertices); a per-element message carries its element's items there
 * (mpp_coll_send: each item received once).
 *
 * The schedule. One step: every node posts a receive for each message it
 * gets, then sends its messages, then waits (coll.c). A node sends its
 * combined messages in XOR order of the receiver (b = a ^ 1, a ^ 2, ...:
 * the pairwise-exchange order of alltoall, contention-free under e-cube
 * routing when every pair talks) on a power-of-two machine, else in the
 * order a + 1, a + 2, ... mod N; its per-element messages in element order
 * (the order a code that loops over its elements would send them).
 *
 * Times. The analytic time is the step recurrence of this schedule
 * (mpp_coll_schedule_time; `.links`: on meshes and e-cube hypercubes it
 * follows every message's path, so messages that share a link queue). The
 * lower bound: the busiest node's bytes, sent or received, at the link rate
 * (divided over its links with all-port nodes, as the personalized
 * collectives' bound).
 *
 * Limits. The plan holds one entry per moved incidence; per-element
 * messages are refused above MPP_COLL_MAX_MSGS (combine: true sends at
 * most N (N - 1)), before they are built. The node processors have no limit
 * of their own on posted receives or program length (core/node.c grows its
 * tables; a program of 2^32 operations is beyond MPP_COLL_MAX_MSGS): a node
 * posting 250 000 receives (grid:2x500000, cyclic, 2 nodes) runs in 12 s,
 * the 2.8 million per-element messages of grid:1024x1024 on 16 random
 * nodes in 2 minutes and 830 MB, so time and memory grow with the messages,
 * which MPP_COLL_MAX_MSGS bounds.
 *
 * Invariants (grid_check, after prepare):
 *   1. every message has n >= 1 items, from != to, all its items with
 *      source `from` and destination `to`;
 *   2. every incidence whose owners differ is in exactly one message, the
 *      others in none;
 *   3. sent[x] (recv[x]) is the sum of the bytes of the messages from
 *      (to) node x. */
#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/alloc.h"
#include "algorithms/coll.h"
#include "core/base/units.h"
#include "traces/partition.h"

typedef struct grid_cfg {
    char mesh[MPP_STR_MAX];
    char map[MPP_STR_MAX];
    int alloc;           /* mpp_alloc_kind */
    bool combine;
    uint64_t value_bytes;
} grid_cfg;

static const mpp_param grid_params[] = {
    {"mesh", MPP_PT_STRING, offsetof(grid_cfg, mesh), "", 0, 0, NULL,
     "the mesh: a gmsh file (2.2 or 4.1, ASCII, plain or gzip; its triangles and "
     "quadrangles), or grid:RxC (R x C vertices, row-major, (R-1)(C-1) quadrangles)"},
    {"alloc", MPP_PT_ENUM, offsetof(grid_cfg, alloc), "block", 0, 0, mpp_alloc_names,
     "the vertices' allocation to the nodes: block (v on floor(v N / V)), cyclic (v mod N), "
     "random (a seeded random permutation, then block), map (the file `map`)"},
    {"map", MPP_PT_STRING, offsetof(grid_cfg, map), "", 0, 0, NULL,
     "alloc map: the file of one node number (0-based) per line, one line per vertex (a "
     "METIS .part file); not read with the other allocations (a sweep may set it with the "
     "mesh)"},
    {"combine", MPP_PT_BOOL, offsetof(grid_cfg, combine), "true", 0, 0, NULL,
     "one message per pair of nodes with each distinct vertex once (true), or one per "
     "element and remote owner (false)"},
    {"value_bytes", MPP_PT_BYTES, offsetof(grid_cfg, value_bytes), "8", 1, 1 << 20, NULL,
     "bytes of one vertex value (or contribution)"},
};

static const mpp_schema grid_schema = {grid_params, MPP_COUNTOF(grid_params), sizeof(grid_cfg)};

/* One message of the step: items it[first .. first + n). */
typedef struct grid_msg {
    uint32_t from, to;
    uint32_t first, n;
    uint64_t bytes;
} grid_msg;

/* What prepare makes (a->ctx). */
typedef struct grid_ctx {
    bool scatter;
    bool combine;
    uint32_t N;
    uint64_t value_bytes;
    mpp_partition_mesh mesh;
    uint32_t *inc_elem;      /* [ninc] the element of each incidence */
    uint32_t *vowner;        /* [nverts] */
    uint32_t *eowner;        /* [nelems] */
    uint32_t nmsg;
    grid_msg *msg;           /* [nmsg] in send order */
    uint32_t *it;            /* the messages' items */
    uint64_t moved;          /* incidences moved (the items of the messages) */
    uint64_t *sent, *recv;   /* [N] bytes per node */
} grid_ctx;

static uint32_t ninc(const grid_ctx *x) { return x->mesh.first[x->mesh.nelems]; }

/* The source and destination node of incidence i. */
static uint32_t inc_src(const grid_ctx *x, uint32_t i)
{
    return x->scatter ? x->eowner[x->inc_elem[i]] : x->vowner[x->mesh.vert[i]];
}

static uint32_t inc_dst(const grid_ctx *x, uint32_t i)
{
    return x->scatter ? x->vowner[x->mesh.vert[i]] : x->eowner[x->inc_elem[i]];
}

static void grid_release(void *p)
{
    grid_ctx *x = p;
    if (!x)
        return;
    mpp_partition_mesh_free(&x->mesh);
    free(x->inc_elem);
    free(x->vowner);
    free(x->eowner);
    free(x->msg);
    free(x->it);
    free(x->sent);
    free(x->recv);
    free(x);
}

/* The invariants of the file comment (read by assert only). */
#ifndef NDEBUG
static bool grid_check(const grid_ctx *x)
{
    uint32_t n = ninc(x);
    uint8_t *seen = calloc(n ? n : 1, 1);
    uint64_t *s = calloc(x->N, sizeof *s), *r = calloc(x->N, sizeof *r);
    bool ok = seen && s && r;
    for (uint32_t k = 0; ok && k < x->nmsg; k++) {
        const grid_msg *m = &x->msg[k];
        ok = m->n >= 1 && m->from != m->to && m->from < x->N && m->to < x->N;
        for (uint32_t j = 0; ok && j < m->n; j++) {
            uint32_t i = x->it[m->first + j];
            ok = i < n && !seen[i] && inc_src(x, i) == m->from && inc_dst(x, i) == m->to;
            if (ok)
                seen[i] = 1;
        }
        if (ok) {
            s[m->from] += m->bytes;
            r[m->to] += m->bytes;
        }
    }
    for (uint32_t i = 0; ok && i < n; i++)
        ok = seen[i] == (inc_src(x, i) != inc_dst(x, i));
    for (uint32_t v = 0; ok && v < x->N; v++)
        ok = s[v] == x->sent[v] && r[v] == x->recv[v];
    free(seen);
    free(s);
    free(r);
    return ok;
}
#endif

/* Sort key of a combined message's incidence: the pair (sender, the
 * receiver's place in the sender's order), then the vertex. */
typedef struct inc_key {
    uint64_t pair;
    uint32_t v, i;
} inc_key;

static int cmp_key(const void *pa, const void *pb)
{
    const inc_key *a = pa, *b = pb;
    if (a->pair != b->pair)
        return a->pair < b->pair ? -1 : 1;
    if (a->v != b->v)
        return a->v < b->v ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

/* Is incidence j (of the element whose incidences start at a) the first
 * of its element whose vertex has its owner, o? */
static bool first_of_owner(const grid_ctx *x, uint32_t a, uint32_t j, uint32_t o)
{
    for (uint32_t q = a; q < j; q++)
        if (x->vowner[x->mesh.vert[q]] == o)
            return false;
    return true;
}

/* Append a message; the caller has room. */
static void add(grid_ctx *x, uint32_t from, uint32_t to, uint32_t first, uint32_t n,
                uint32_t distinct)
{
    uint64_t bytes = (uint64_t)distinct * x->value_bytes;
    x->msg[x->nmsg++] = (grid_msg){from, to, first, n, bytes};
    x->sent[from] += bytes;
    x->recv[to] += bytes;
}

/* The messages (file comment), into x->msg and x->it (sized by the
 * caller: moved items, and at most moved messages). */
static int build_messages(grid_ctx *x, mpp_err *err)
{
    const mpp_partition_mesh *me = &x->mesh;
    uint32_t N = x->N, pos = 0;
    if (x->combine) {
        inc_key *k = malloc((x->moved ? x->moved : 1) * sizeof *k);
        if (!k)
            return mpp_err_set(err, MPP_ENOMEM, "grid: out of memory");
        bool pow2 = (N & (N - 1)) == 0;
        uint32_t nk = 0;
        for (uint32_t i = 0; i < ninc(x); i++) {
            uint32_t a = inc_src(x, i), b = inc_dst(x, i);
            if (a == b)
                continue;
            uint32_t place = pow2 ? a ^ b : (b + N - a) % N;
            k[nk++] = (inc_key){(uint64_t)a * N + place, me->vert[i], i};
        }
        qsort(k, nk, sizeof *k, cmp_key);
        for (uint32_t s = 0; s < nk;) {
            uint32_t e = s, distinct = 0;
            for (; e < nk && k[e].pair == k[s].pair; e++) {
                distinct += e == s || k[e].v != k[e - 1].v;
                x->it[e] = k[e].i;
            }
            uint32_t i = k[s].i;
            add(x, inc_src(x, i), inc_dst(x, i), s, e - s, distinct);
            s = e;
        }
        free(k);
        return 0;
    }
    for (uint32_t el = 0; el < me->nelems; el++) {
        uint32_t a = me->first[el], b = me->first[el + 1], own = x->eowner[el];
        for (uint32_t j = a; j < b; j++) {
            uint32_t o = x->vowner[me->vert[j]];
            if (o == own || !first_of_owner(x, a, j, o))
                continue; /* local, or this owner's message is made */
            uint32_t n = 0;
            for (uint32_t q = j; q < b; q++)
                if (x->vowner[me->vert[q]] == o)
                    x->it[pos + n++] = q;
            if (x->scatter)
                add(x, own, o, pos, n, n);
            else
                add(x, o, own, pos, n, n);
            pos += n;
        }
    }
    return 0;
}

/* mesh = "grid:RxC": 1 with R and C, 0 when it is not a grid spec, or
 * MPP_EINVAL. */
static int parse_grid(const char *key, const char *spec, uint32_t *R, uint32_t *C, mpp_err *err)
{
    if (strncmp(spec, "grid:", 5))
        return 0;
    const char *t = spec + 5;
    size_t x = strcspn(t, "xX");
    uint64_t r, c;
    if (!t[x] || !mpp_units_u64(t, x, &r) || !mpp_units_u64(t + x + 1, strlen(t + x + 1), &c) ||
        r < 2 || c < 2 || r > MPP_PARTITION_GRID_MAX || c > MPP_PARTITION_GRID_MAX ||
        r * c > MPP_PARTITION_GRID_MAX)
        return mpp_err_set(err, MPP_EINVAL,
                           "%s '%.60s': expected grid:RxC, R and C at least 2 and R x C at most "
                           "%llu vertices (e.g. grid:128x128)",
                           key, spec, (unsigned long long)MPP_PARTITION_GRID_MAX);
    *R = (uint32_t)r;
    *C = (uint32_t)c;
    return 1;
}

static int prepare(const mpp_coll_args *a, uint32_t g, uint32_t N, void **ctx, mpp_err *err,
                   bool scatter)
{
    const char *name = scatter ? "grid_scatter" : "grid_gather";
    char key[64];
    *ctx = NULL;
    grid_cfg def;
    const grid_cfg *c = a->cfg;
    if (!c) {
        mpp_schema_defaults(&grid_schema, &def);
        c = &def;
    }
    if (g != N)
        return mpp_err_set(err, MPP_EINVAL,
                           "workload.collective %s runs on the whole machine (member i is node "
                           "i; groups: all), not on groups of %u of its %u nodes",
                           name, g, N);
    if (a->chunk)
        return mpp_err_set(err, MPP_EINVAL,
                           "workload.chunk: %s sends each message whole (chunk 0); the size of "
                           "its values is workload.%s.value_bytes",
                           name, name);
    snprintf(key, sizeof key, "workload.%s.mesh", name);
    if (!c->mesh[0])
        return mpp_err_set(err, MPP_EINVAL,
                           "%s: a mesh is needed (a gmsh file such as "
                           "traces/data/naca0012_2817.msh.gz, or grid:RxC)",
                           key);
    if (c->alloc == MPP_ALLOC_MAP && !c->map[0])
        return mpp_err_set(err, MPP_EINVAL,
                           "workload.%s.map: alloc map needs the map file (one node per line, "
                           "one line per vertex)",
                           name);
    uint32_t R = 0, C = 0;
    int rc = parse_grid(key, c->mesh, &R, &C, err);
    if (rc < 0)
        return rc;
    grid_ctx *x = calloc(1, sizeof *x);
    if (!x)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    x->scatter = scatter;
    x->combine = c->combine;
    x->N = N;
    x->value_bytes = c->value_bytes;
    rc = rc ? mpp_partition_grid_mesh(R, C, &x->mesh, err)
            : mpp_partition_read_mesh(c->mesh, &x->mesh, err);
    if (rc) {
        mpp_err_prefix(err, "%s", key);
        goto fail;
    }
    const mpp_partition_mesh *me = &x->mesh;
    uint32_t n = ninc(x);
    x->inc_elem = malloc((n ? n : 1) * sizeof *x->inc_elem);
    x->vowner = malloc(me->nverts * sizeof *x->vowner);
    x->eowner = malloc((me->nelems ? me->nelems : 1) * sizeof *x->eowner);
    x->sent = calloc(N, sizeof *x->sent);
    x->recv = calloc(N, sizeof *x->recv);
    if (!x->inc_elem || !x->vowner || !x->eowner || !x->sent || !x->recv) {
        rc = mpp_err_set(err, MPP_ENOMEM, "%s: out of memory", key);
        goto fail;
    }
    rc = mpp_alloc_build((mpp_alloc_kind)c->alloc, me->nverts, N, a->seed, c->map, x->vowner,
                         err);
    if (rc) {
        mpp_err_prefix(err, "workload.%s.%s", name, c->alloc == MPP_ALLOC_MAP ? "map" : "alloc");
        goto fail;
    }
    for (uint32_t e = 0; e < me->nelems; e++) {
        x->eowner[e] = x->vowner[me->vert[me->first[e]]];
        for (uint32_t i = me->first[e]; i < me->first[e + 1]; i++)
            x->inc_elem[i] = e;
    }
    for (uint32_t i = 0; i < n; i++)
        x->moved += inc_src(x, i) != inc_dst(x, i);
    if (!x->combine && x->moved > MPP_COLL_MAX_MSGS) {
        /* a per-element message moves at least one incidence: count them */
        uint64_t msgs = 0;
        for (uint32_t e = 0; e < me->nelems; e++)
            for (uint32_t j = me->first[e]; j < me->first[e + 1]; j++) {
                uint32_t o = x->vowner[me->vert[j]];
                msgs += o != x->eowner[e] && first_of_owner(x, me->first[e], j, o);
            }
        if (msgs > MPP_COLL_MAX_MSGS) {
            rc = mpp_err_set(err, MPP_EINVAL,
                             "workload.%s.combine false: %llu messages (one per element and "
                             "remote owner), more than %llu: combine them (combine: true), or "
                             "a smaller mesh",
                             name, (unsigned long long)msgs,
                             (unsigned long long)MPP_COLL_MAX_MSGS);
            goto fail;
        }
    }
    x->it = malloc((x->moved ? x->moved : 1) * sizeof *x->it);
    x->msg = malloc((x->moved ? x->moved : 1) * sizeof *x->msg);
    if (!x->it || !x->msg) {
        rc = mpp_err_set(err, MPP_ENOMEM, "%s: out of memory", key);
        goto fail;
    }
    if ((rc = build_messages(x, err)))
        goto fail;
    assert(grid_check(x));
    *ctx = x;
    return 0;
fail:
    grid_release(x);
    return rc;
}

static int gather_prepare(const mpp_coll_args *a, uint32_t g, uint32_t N, void **ctx,
                          mpp_err *err)
{
    return prepare(a, g, N, ctx, err, false);
}

static int scatter_prepare(const mpp_coll_args *a, uint32_t g, uint32_t N, void **ctx,
                           mpp_err *err)
{
    return prepare(a, g, N, ctx, err, true);
}

static uint64_t grid_nitems(const mpp_coll_args *a, uint32_t g)
{
    (void)g;
    const grid_ctx *x = a->ctx;
    return x ? ninc(x) : 0;
}

/* Every moved incidence crosses one edge once. */
static uint64_t grid_crossings(const mpp_coll_args *a, uint32_t g)
{
    (void)g;
    const grid_ctx *x = a->ctx;
    return x ? x->moved : 0;
}

static void grid_items(const mpp_coll_args *a, uint32_t g, uint64_t *bytes, uint32_t *origin)
{
    (void)g;
    const grid_ctx *x = a->ctx;
    for (uint32_t i = 0; x && i < ninc(x); i++) {
        bytes[i] = x->value_bytes;
        origin[i] = inc_src(x, i);
    }
}

static bool grid_wants(const mpp_coll_args *a, uint32_t g, uint32_t m, uint32_t i)
{
    (void)g;
    const grid_ctx *x = a->ctx;
    return x && inc_dst(x, i) == m;
}

static int grid_build(mpp_coll_plan *pl, const mpp_coll_args *a, mpp_err *err)
{
    const grid_ctx *x = a->ctx;
    if (!x)
        return mpp_err_set(err, MPP_EINVAL, "grid collective: not prepared (a plug-in bug)");
    if (pl->grp.g != x->N)
        return mpp_err_set(err, MPP_EINVAL, "grid collective: prepared for %u nodes, not %u",
                           x->N, pl->grp.g);
    mpp_coll_step_begin(pl);
    int rc = 0;
    for (uint32_t k = 0; k < x->nmsg && !rc; k++) {
        const grid_msg *m = &x->msg[k];
        rc = x->combine
                 ? mpp_coll_send_combined(pl, m->from, m->to, x->it + m->first, m->n, m->bytes,
                                          err)
                 : mpp_coll_send(pl, m->from, m->to, x->it + m->first, m->n, err);
    }
    int rc2 = mpp_coll_step_end(pl, err);
    return rc ? rc : rc2;
}

extern const mpp_coll_ops mpp_coll_grid_gather, mpp_coll_grid_scatter;

static double gather_analytic(const mpp_coll_model *m, const mpp_coll_args *a)
{
    return mpp_coll_steps(&mpp_coll_grid_gather, m, a);
}

static double scatter_analytic(const mpp_coll_model *m, const mpp_coll_args *a)
{
    return mpp_coll_steps(&mpp_coll_grid_scatter, m, a);
}

/* The busiest node's bytes, sent or received, at the link rate. */
static double grid_bound(const mpp_coll_model *m, const mpp_coll_args *a)
{
    const grid_ctx *x = a->ctx;
    uint64_t most = 0;
    for (uint32_t v = 0; x && v < x->N; v++) {
        if (x->sent[v] > most)
            most = x->sent[v];
        if (x->recv[v] > most)
            most = x->recv[v];
    }
    return (double)most * m->byte / (m->all_port && m->links > 1 ? m->links : 1);
}

const mpp_coll_ops mpp_coll_grid_gather = {
    .name = "grid_gather",
    .help = "unstructured-grid gather: every element fetches its vertices' values from their "
            "owners (mesh, alloc, combine)",
    .schema = {grid_params, MPP_COUNTOF(grid_params), sizeof(grid_cfg)},
    .groups = MPP_COLL_ANY,
    .rooted = false,
    .steps_all_port = false,
    .links = true,
    .prepare = gather_prepare,
    .release = grid_release,
    .nitems = grid_nitems,
    .crossings = grid_crossings,
    .items = grid_items,
    .wants = grid_wants,
    .build = grid_build,
    .analytic = gather_analytic,
    .bound = grid_bound,
};

const mpp_coll_ops mpp_coll_grid_scatter = {
    .name = "grid_scatter",
    .help = "unstructured-grid scatter: every element adds its contributions into its "
            "vertices' owners (mesh, alloc, combine)",
    .schema = {grid_params, MPP_COUNTOF(grid_params), sizeof(grid_cfg)},
    .groups = MPP_COLL_ANY,
    .rooted = false,
    .steps_all_port = false,
    .links = true,
    .prepare = scatter_prepare,
    .release = grid_release,
    .nitems = grid_nitems,
    .crossings = grid_crossings,
    .items = grid_items,
    .wants = grid_wants,
    .build = grid_build,
    .analytic = scatter_analytic,
    .bound = grid_bound,
};
