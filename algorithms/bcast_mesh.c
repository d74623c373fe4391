/* algorithms/bcast_mesh.c — sub-meshes, snake order, lines, br_lin / br_xy
 * over several sub-meshes, repositioning and the partition algorithms of
 * s-to-p broadcasting (see bcast_mesh.h; the definitions are those of
 * docs/broadcast.md).
 *
 * Partition (part_lin, part_xy_source), mpp_bcast_mesh_part:
 *
 *   split     rows if r >= c: G1 = the first ceil(r/2) rows, G2 the rest;
 *             else columns: G1 = the first ceil(c/2) columns, G2 the rest
 *   share     s1 = round(s p1 / p) (half up), s2 = s - s1
 *   assign    a1, a2 = sources inside G1, G2. The group with more sources
 *             than its share gives away the excess: first its sources that
 *             are NOT at one of its own ideal positions, in increasing id
 *             order, then (when those are too few) its others in increasing
 *             id order; everything else stays in its group
 *   move      inside each group, mpp_bcast_mesh_match of the sources it was
 *             assigned onto its ideal distribution (one REDIST step for both)
 *   broadcast br_lin (part_lin) or br_xy_source (part_xy_source) in both
 *             groups at once (BCAST steps)
 *   exchange  one EXCHANGE step: G1's k-th processor (row-major inside G1)
 *             exchanges with G2's k-th, k < p2; G1's k-th, p2 <= k < p1,
 *             receives from G2's (k - p2)-th
 *
 * The number of moves is the least possible: the sources that cross between
 * the groups, |a1 - s1|, cannot be fewer, and every source left at one of
 * its group's ideal positions stays put.
 *
 * Invariants:
 *   1. Lines (rows or columns) of disjoint sub-meshes are disjoint, so one
 *      halving call may run them all in the same steps.
 *   2. After the group broadcasts every processor of G1 holds the s1
 *      messages assigned to G1 (and G2 the s2 of G2); after the exchange
 *      every processor holds all s (p1 - p2 <= p2 whenever p2 > 0). */
#include "algorithms/bcast_mesh.h"

#include <stdlib.h>

#include "algorithms/bcast_dist.h"
#include "algorithms/halving.h"

mpp_bcast_sub mpp_bcast_mesh_whole(const mpp_bcast_plan *pl)
{
    return (mpp_bcast_sub){0, 0, pl->r, pl->c};
}

void mpp_bcast_mesh_snake(const mpp_bcast_plan *pl, const mpp_bcast_sub *g, uint32_t *out)
{
    uint32_t k = 0;
    for (uint32_t x = 0; x < g->r; x++)
        for (uint32_t t = 0; t < g->c; t++)
            out[k++] = mpp_bcast_sub_id(pl, g, x, x % 2 == 0 ? t : g->c - 1 - t);
}

static uint32_t total_procs(const mpp_bcast_sub *g, uint32_t ng)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < ng; k++)
        n += g[k].r * g[k].c;
    return n;
}

int mpp_bcast_mesh_lin(mpp_bcast_plan *pl, const mpp_bcast_sub *g, uint32_t ng, int part,
                       mpp_err *err)
{
    uint32_t n = total_procs(g, ng);
    uint32_t *ids = malloc(((size_t)n + ng + 1) * sizeof *ids);
    if (!ids)
        return mpp_err_set(err, MPP_ENOMEM, "broadcast: out of memory");
    uint32_t *start = ids + n;
    start[0] = 0;
    for (uint32_t k = 0; k < ng; k++) {
        mpp_bcast_mesh_snake(pl, &g[k], ids + start[k]);
        start[k + 1] = start[k] + g[k].r * g[k].c;
    }
    int rc = mpp_halving_bcast(pl, ids, start, ng, part, err);
    free(ids);
    return rc;
}

/* Append the rows (rows true) or the columns of g as lists: ids from
 * start[*nl] on, one start entry per line. */
static void add_lines(const mpp_bcast_plan *pl, const mpp_bcast_sub *g, bool rows, uint32_t *ids,
                      uint32_t *start, uint32_t *nl)
{
    uint32_t outer = rows ? g->r : g->c, inner = rows ? g->c : g->r;
    for (uint32_t a = 0; a < outer; a++) {
        uint32_t at = start[*nl];
        for (uint32_t b = 0; b < inner; b++)
            ids[at + b] = rows ? mpp_bcast_sub_id(pl, g, a, b) : mpp_bcast_sub_id(pl, g, b, a);
        start[++*nl] = at + inner;
    }
}

int mpp_bcast_mesh_xy(mpp_bcast_plan *pl, const mpp_bcast_sub *g, const bool *rows_first,
                      uint32_t ng, int part, mpp_err *err)
{
    uint32_t n = total_procs(g, ng);
    /* at most n lines of at least one processor each (invariant 1) */
    uint32_t *ids = malloc((2 * (size_t)n + 1) * sizeof *ids);
    if (!ids)
        return mpp_err_set(err, MPP_ENOMEM, "broadcast: out of memory");
    uint32_t *start = ids + n;
    int rc = 0;
    for (int stage = 0; stage < 2 && !rc; stage++) {
        uint32_t nl = 0;
        start[0] = 0;
        for (uint32_t k = 0; k < ng; k++)
            add_lines(pl, &g[k], rows_first[k] == (stage == 0), ids, start, &nl);
        rc = mpp_halving_bcast(pl, ids, start, nl, part, err);
    }
    free(ids);
    return rc;
}

static bool inside(const mpp_bcast_plan *pl, const mpp_bcast_sub *g, uint32_t id, uint32_t *x,
                   uint32_t *y)
{
    uint32_t gx = id / pl->c, gy = id % pl->c;
    if (gx < g->x0 || gx >= g->x0 + g->r || gy < g->y0 || gy >= g->y0 + g->c)
        return false;
    *x = gx - g->x0;
    *y = gy - g->y0;
    return true;
}

int mpp_bcast_mesh_rows_first(const mpp_bcast_plan *pl, const mpp_bcast_sub *g,
                              const uint32_t *src, uint32_t n, bool *rows_first, mpp_err *err)
{
    uint32_t *cnt = calloc((size_t)g->r + g->c, sizeof *cnt);
    if (!cnt)
        return mpp_err_set(err, MPP_ENOMEM, "broadcast: out of memory");
    uint32_t max_r = 0, max_c = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t x, y;
        if (!inside(pl, g, src[k], &x, &y))
            continue;
        if (++cnt[x] > max_r)
            max_r = cnt[x];
        if (++cnt[g->r + y] > max_c)
            max_c = cnt[g->r + y];
    }
    free(cnt);
    *rows_first = max_r < max_c;
    return 0;
}

int mpp_bcast_mesh_ideal(const mpp_bcast_plan *pl, const mpp_bcast_sub *g, int kind, uint32_t n,
                         uint32_t *out, mpp_err *err)
{
    if (n == 0)
        return 0;
    int rc = mpp_dist_ideal(kind, g->r, g->c, n, out, err);
    if (rc)
        return rc;
    /* local row-major ids -> the plan's ids: monotone, so still increasing */
    for (uint32_t k = 0; k < n; k++)
        out[k] = mpp_bcast_sub_id(pl, g, out[k] / g->c, out[k] % g->c);
    return 0;
}

uint32_t mpp_bcast_mesh_match(const uint32_t *have, const uint32_t *ideal, uint32_t n,
                              uint32_t *from, uint32_t *to)
{
    /* movers: have \ ideal, increasing (merge of two sorted lists) */
    uint32_t nm = 0;
    for (uint32_t a = 0, b = 0; a < n; a++) {
        while (b < n && ideal[b] < have[a])
            b++;
        if (b == n || ideal[b] != have[a])
            from[nm++] = have[a];
    }
    /* free ideal positions: ideal \ have, increasing; the k-th mover takes
     * the k-th */
    uint32_t nf = 0;
    for (uint32_t b = 0, a = 0; b < n; b++) {
        while (a < n && have[a] < ideal[b])
            a++;
        if (a == n || have[a] != ideal[b])
            to[nf++] = ideal[b];
    }
    return nm; /* nf == nm: both are n minus the common ids */
}

int mpp_bcast_mesh_move(mpp_bcast_plan *pl, const uint32_t *from, const uint32_t *to, uint32_t n,
                        mpp_err *err)
{
    int rc = 0;
    mpp_bcast_step_begin(pl, MPP_BCAST_REDIST);
    for (uint32_t k = 0; k < n && !rc; k++)
        rc = mpp_bcast_move_own(pl, from[k], to[k], err);
    return rc ? rc : mpp_bcast_step_end(pl, err);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Is id among the n increasing ids of set? */
static bool member(const uint32_t *set, uint32_t n, uint32_t id)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (set[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && set[lo] == id;
}

int mpp_bcast_mesh_part(mpp_bcast_plan *pl, bool xy, mpp_err *err)
{
    if (pl->p == 1)
        return 0; /* the one processor is the one source */
    mpp_bcast_sub g[2];
    if (pl->r >= pl->c) {
        uint32_t h = pl->r - pl->r / 2;
        g[0] = (mpp_bcast_sub){0, 0, h, pl->c};
        g[1] = (mpp_bcast_sub){h, 0, pl->r - h, pl->c};
    } else {
        uint32_t h = pl->c - pl->c / 2;
        g[0] = (mpp_bcast_sub){0, 0, pl->r, h};
        g[1] = (mpp_bcast_sub){0, h, pl->r, pl->c - h};
    }
    uint32_t p = pl->p, s = pl->s;
    uint32_t pg[2] = {g[0].r * g[0].c, g[1].r * g[1].c};
    uint32_t sg[2];
    sg[0] = (uint32_t)((2 * (uint64_t)s * pg[0] + p) / (2 * (uint64_t)p));
    sg[1] = s - sg[0];
    /* buffers: the ideal positions and the sources assigned, per group, and
     * the moves */
    uint32_t *buf = malloc(5 * (size_t)s * sizeof *buf);
    if (!buf)
        return mpp_err_set(err, MPP_ENOMEM, "broadcast: out of memory");
    uint32_t *ideal[2] = {buf, buf + sg[0]}, *have[2] = {buf + s, buf + s + sg[0]};
    uint32_t *from = buf + 2 * s, *to = buf + 3 * s, *give = buf + 4 * s;
    int kind = xy ? MPP_DIST_IDEAL_XY : MPP_DIST_IDEAL_LIN;
    int rc = mpp_bcast_mesh_ideal(pl, &g[0], kind, sg[0], ideal[0], err);
    if (!rc)
        rc = mpp_bcast_mesh_ideal(pl, &g[1], kind, sg[1], ideal[1], err);
    if (rc)
        goto done;
    /* assign: a source in group a stays in a unless a gives away its excess */
    uint32_t a[2] = {0, 0};
    for (uint32_t j = 0; j < s; j++) {
        uint32_t x, y;
        a[inside(pl, &g[0], pl->src[j], &x, &y) ? 0 : 1]++;
    }
    int over = a[0] > sg[0] ? 0 : 1; /* the group that may give (a[over] >= sg[over]) */
    uint32_t excess = a[over] - sg[over], ngive = 0;
    for (int pass = 0; pass < 2 && ngive < excess; pass++)
        for (uint32_t j = 0; j < s && ngive < excess; j++) {
            uint32_t x, y, id = pl->src[j];
            bool in_over = inside(pl, &g[0], id, &x, &y) == (over == 0);
            if (in_over && member(ideal[over], sg[over], id) == (pass == 1))
                give[ngive++] = id;
        }
    qsort(give, ngive, sizeof *give, cmp_u32);
    uint32_t nh[2] = {0, 0};
    for (uint32_t j = 0; j < s; j++) {
        uint32_t x, y, id = pl->src[j];
        int grp = inside(pl, &g[0], id, &x, &y) ? 0 : 1;
        if (grp == over && member(give, ngive, id))
            grp = 1 - over;
        have[grp][nh[grp]++] = id; /* increasing: src is */
    }
    uint32_t nm = 0;
    for (int k = 0; k < 2; k++)
        nm += mpp_bcast_mesh_match(have[k], ideal[k], sg[k], from + nm, to + nm);
    if ((rc = mpp_bcast_mesh_move(pl, from, to, nm, err)))
        goto done;
    if (xy) {
        bool rows_first[2];
        rc = mpp_bcast_mesh_rows_first(pl, &g[0], ideal[0], sg[0], &rows_first[0], err);
        if (!rc)
            rc = mpp_bcast_mesh_rows_first(pl, &g[1], ideal[1], sg[1], &rows_first[1], err);
        if (!rc)
            rc = mpp_bcast_mesh_xy(pl, g, rows_first, 2, MPP_BCAST_BCAST, err);
    } else {
        rc = mpp_bcast_mesh_lin(pl, g, 2, MPP_BCAST_BCAST, err);
    }
    if (rc)
        goto done;
    mpp_bcast_step_begin(pl, MPP_BCAST_EXCHANGE); /* invariant 2 */
    for (uint32_t k = 0; k < pg[0] && !rc; k++) {
        uint32_t u = mpp_bcast_sub_id(pl, &g[0], k / g[0].c, k % g[0].c);
        uint32_t kk = k < pg[1] ? k : k - pg[1];
        uint32_t v = mpp_bcast_sub_id(pl, &g[1], kk / g[1].c, kk % g[1].c);
        rc = k < pg[1] ? mpp_bcast_exchange(pl, u, v, err) : mpp_bcast_give(pl, v, u, err);
    }
    if (!rc)
        rc = mpp_bcast_step_end(pl, err);
done:
    free(buf);
    return rc;
}
