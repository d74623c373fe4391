/* test/test_coll_grid.c — data allocation (algorithms/alloc.h) and the
 * unstructured-grid gather and scatter (algorithms/coll_grid.c):
 *   - block and cyclic owners and loads; random deterministic per seed,
 *     different across seeds, balanced as block; a map file read, and a node
 *     out of range refused with FILE:LINE; unknown kinds refused;
 *   - the gather and scatter plans (MPP_COLL_TRACK: every value reaches the
 *     node that needs it, no per-element item received twice) on a small
 *     hand-written mesh, generated grids and the 2817-vertex airfoil, for
 *     every allocation and both modes: their messages and bytes against a
 *     count made here independently (pairs of nodes and distinct vertices;
 *     elements and remote owners);
 *   - refusals: groups other than the machine, chunk, no mesh, a bad
 *     grid: spec, a missing mesh file, alloc map without a file;
 *   - runs on a 16-node hypercube (e-cube), the 2817-vertex airfoil, block
 *     against random in both modes (printed: the time ratio and the
 *     busiest link's flits), and on 32 nodes the shipped METIS partition
 *     (alloc map) against random.
 * Usage: test_coll_grid [SRCDIR] (default: found from this file's path). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "algorithms/alloc.h"
#include "algorithms/coll.h"
#include "core/base/units.h"
#include "testutil.h"
#include "traces/partition.h"

static char srcdir[512] = "";
static char tmpdir[200]; /* paths below it fit in 256 bytes */

/* The source tree: argv[1], else this file's folder's parent (relative to
 * the build root, where the compiler ran: the executable's grandparent). */
static void find_srcdir(int argc, char **argv)
{
    char cand[3][1024];
    int n = 0;
    if (argc > 1)
        snprintf(cand[n++], sizeof cand[0], "%.500s", argv[1]);
    char f[256];
    snprintf(f, sizeof f, "%s", __FILE__);
    char *slash = strrchr(f, '/');
    if (slash) {
        *slash = 0;
        snprintf(cand[n++], sizeof cand[0], "%s/..", f);
        const char *e = strrchr(argv[0], '/');
        if (f[0] != '/' && e)
            snprintf(cand[n++], sizeof cand[0], "%.*s/../%s/..", (int)(e - argv[0]) % 500,
                     argv[0], f);
    }
    for (int i = 0; i < n; i++) {
        char p[1100];
        snprintf(p, sizeof p, "%.1023s/traces/data/naca0012_2817.msh.gz", cand[i]);
        if (access(p, R_OK) == 0) {
            snprintf(srcdir, sizeof srcdir, "%.511s", cand[i]);
            return;
        }
    }
}

static const char *put(const char *name, const char *text, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s/%s", tmpdir, name);
    FILE *f = fopen(buf, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    return buf;
}

/* ---- allocations ----------------------------------------------------------- */

static void loads(const uint32_t *owner, uint32_t V, uint32_t N, uint32_t *cnt)
{
    memset(cnt, 0, N * sizeof *cnt);
    for (uint32_t v = 0; v < V; v++)
        cnt[owner[v]]++;
}

static void test_alloc(void)
{
    mpp_err err;
    uint32_t own[1000], own2[1000], cnt[64], cnt2[64];
    /* block: non-decreasing, loads floor or ceil of V / N, item v on
     * floor(v N / V) */
    static const uint32_t VN[][2] = {{10, 3}, {1000, 64}, {7, 7}, {5, 8}, {1000, 1}};
    for (size_t k = 0; k < sizeof VN / sizeof VN[0]; k++) {
        uint32_t V = VN[k][0], N = VN[k][1];
        CHECK(mpp_alloc_build(MPP_ALLOC_BLOCK, V, N, 1, NULL, own, &err) == 0);
        loads(own, V, N, cnt);
        for (uint32_t x = 0; x < N; x++)
            CHECKF(cnt[x] == V / N || cnt[x] == V / N + 1 || (V < N && cnt[x] <= 1),
                   "block V=%u N=%u: node %u has %u", V, N, x, cnt[x]);
        for (uint32_t v = 1; v < V; v++)
            CHECK(own[v] >= own[v - 1]);
        for (uint32_t v = 0; v < V; v++)
            CHECK(own[v] == (uint32_t)((uint64_t)v * N / V));
        CHECK(mpp_alloc_build(MPP_ALLOC_CYCLIC, V, N, 1, NULL, own, &err) == 0);
        loads(own, V, N, cnt2);
        for (uint32_t v = 0; v < V; v++)
            CHECK(own[v] == v % N);
        for (uint32_t x = 0; x < N; x++)
            CHECK(cnt2[x] == V / N + (x < V % N));
    }
    /* 10 on 3: block 4 3 3 (0..3, 4..6, 7..9) */
    CHECK(mpp_alloc_build(MPP_ALLOC_BLOCK, 10, 3, 1, NULL, own, &err) == 0);
    CHECK(own[3] == 0 && own[4] == 1 && own[6] == 1 && own[7] == 2);
    /* random: a function of the seed; loads those of block */
    CHECK(mpp_alloc_build(MPP_ALLOC_RANDOM, 1000, 64, 7, NULL, own, &err) == 0);
    CHECK(mpp_alloc_build(MPP_ALLOC_RANDOM, 1000, 64, 7, NULL, own2, &err) == 0);
    CHECK(memcmp(own, own2, sizeof own) == 0);
    loads(own, 1000, 64, cnt);
    uint32_t blk[1000];
    CHECK(mpp_alloc_build(MPP_ALLOC_BLOCK, 1000, 64, 7, NULL, blk, &err) == 0);
    loads(blk, 1000, 64, cnt2);
    CHECK(memcmp(cnt, cnt2, 64 * sizeof *cnt) == 0);
    uint32_t same = 0;
    for (uint32_t v = 0; v < 1000; v++)
        same += own[v] == blk[v];
    CHECKF(same < 100, "random agrees with block on %u of 1000 items", same);
    CHECK(mpp_alloc_build(MPP_ALLOC_RANDOM, 1000, 64, 8, NULL, own2, &err) == 0);
    CHECK(memcmp(own, own2, sizeof own) != 0);
    /* map */
    char path[256];
    CHECK(mpp_alloc_build(MPP_ALLOC_MAP, 4, 3, 1, put("m.map", "2\n0\n1\n2\n", path, sizeof path),
                          own, &err) == 0);
    CHECK(own[0] == 2 && own[1] == 0 && own[2] == 1 && own[3] == 2);
    int rc = mpp_alloc_build(MPP_ALLOC_MAP, 4, 3, 1, put("bad.map", "2\n0\n3\n2\n", path,
                                                           sizeof path), own, &err);
    CHECKF(rc == MPP_EFORMAT && strstr(err.msg, "bad.map:3: ") && strstr(err.msg, "0 .. 2"),
           "%s", err.msg);
    rc = mpp_alloc_build(MPP_ALLOC_MAP, 5, 3, 1, path, own, &err); /* short */
    CHECKF(rc == MPP_EFORMAT, "%s", err.msg);
    CHECK(mpp_alloc_build(MPP_ALLOC_MAP, 4, 3, 1, "", own, &err) == MPP_EINVAL);
    CHECK(mpp_alloc_build(MPP_ALLOC_MAP, 4, 3, 1, "/nonexistent/m", own, &err) == MPP_EIO);
    CHECK(mpp_alloc_build(MPP_ALLOC_BLOCK, 4, 0, 1, NULL, own, &err) == MPP_EINVAL);
    mpp_alloc_kind k;
    CHECK(mpp_alloc_parse("cyclic", &k, &err) == 0 && k == MPP_ALLOC_CYCLIC);
    CHECKF(mpp_alloc_parse("blocks", &k, &err) == MPP_EINVAL &&
               strstr(err.msg, "block, cyclic, random or map"),
           "%s", err.msg);
}

/* ---- plans -------------------------------------------------------------- */

/* A config blob for a grid collective from "key=value" settings. */
static void set_cfg(const mpp_coll_ops *ops, mpp_blob *b, const char *const *kv)
{
    mpp_schema_defaults(&ops->schema, b->b);
    for (; kv && *kv; kv++) {
        const char *eq = strchr(*kv, '=');
        char key[64];
        snprintf(key, sizeof key, "%.*s", (int)(eq - *kv), *kv);
        const mpp_param *p = mpp_schema_find(&ops->schema, key);
        CHECKF(p && mpp_param_set_text(p, eq + 1, 0, b->b) == MPP_UNITS_OK, "%s", *kv);
    }
}

/* What a plan must send, counted here from the mesh and the owners. */
typedef struct expect {
    uint64_t msgs, bytes;
} expect;

static expect count(const mpp_partition_mesh *m, const uint32_t *own, uint32_t N, bool scatter,
                    bool combine, uint64_t vb)
{
    expect x = {0, 0};
    if (combine) {
        /* pairs (src, dst) that exchange anything, and distinct (src, dst,
         * vertex): an N x N x V bitmap is fine at these sizes */
        uint8_t *pair = calloc((size_t)N * N, 1);
        uint8_t *trip = calloc((size_t)N * N * m->nverts, 1);
        for (uint32_t e = 0; e < m->nelems; e++) {
            uint32_t eo = own[m->vert[m->first[e]]];
            for (uint32_t i = m->first[e]; i < m->first[e + 1]; i++) {
                uint32_t v = m->vert[i], vo = own[v];
                if (vo == eo)
                    continue;
                uint32_t s = scatter ? eo : vo, d = scatter ? vo : eo;
                size_t p = (size_t)s * N + d;
                x.msgs += !pair[p];
                pair[p] = 1;
                x.bytes += vb * !trip[p * m->nverts + v];
                trip[p * m->nverts + v] = 1;
            }
        }
        free(pair);
        free(trip);
        return x;
    }
    for (uint32_t e = 0; e < m->nelems; e++) {
        uint32_t eo = own[m->vert[m->first[e]]];
        uint32_t owners[4], no = 0;
        for (uint32_t i = m->first[e]; i < m->first[e + 1]; i++) {
            uint32_t vo = own[m->vert[i]];
            if (vo == eo)
                continue;
            x.bytes += vb;
            bool seen = false;
            for (uint32_t k = 0; k < no; k++)
                seen |= owners[k] == vo;
            if (!seen)
                owners[no++] = vo;
        }
        x.msgs += no;
    }
    return x;
}

/* Plan ops on N nodes with the settings kv (TRACK: the plan checks that
 * every value reaches its user), and compare with count(). */
static void plan_check(const char *ops_name, uint32_t N, const char *const *kv,
                       const mpp_partition_mesh *mesh, const uint32_t *own, const char *what)
{
    const mpp_coll_ops *ops = mpp_coll_find(ops_name);
    CHECK(ops != NULL);
    if (!ops)
        return;
    mpp_blob b;
    set_cfg(ops, &b, kv);
    mpp_coll_args a = {.cfg = b.b, .seed = 11};
    mpp_err err;
    void *ctx = NULL;
    int rc = ops->prepare(&a, N, N, &ctx, &err);
    CHECKF(rc == 0, "%s %s: %s", ops_name, what, err.msg);
    if (rc)
        return;
    a.ctx = ctx;
    uint32_t *node = malloc(N * sizeof *node);
    for (uint32_t m = 0; m < N; m++)
        node[m] = m;
    mpp_coll_plan pl;
    rc = mpp_coll_plan_init(&pl, N, 3, 0, MPP_COLL_TRACK | MPP_COLL_PROGRAMS, &err);
    if (!rc) {
        mpp_coll_group grp = {N, node};
        rc = mpp_coll_plan_groups(&pl, ops, &a, &grp, 1, &err);
        CHECKF(rc == 0, "%s %s: %s", ops_name, what, err.msg);
        bool scatter = !strcmp(ops_name, "grid_scatter");
        bool combine = true;
        uint64_t vb = 8;
        for (const char *const *p = kv; p && *p; p++) {
            if (!strcmp(*p, "combine=false"))
                combine = false;
            if (!strncmp(*p, "value_bytes=", 12))
                vb = strtoull(*p + 12, NULL, 10);
        }
        expect x = count(mesh, own, N, scatter, combine, vb);
        CHECKF(pl.nmsgs == x.msgs && pl.nbytes == x.bytes,
               "%s %s: %" PRIu64 " messages, %" PRIu64 " bytes; counted %" PRIu64 ", %" PRIu64,
               ops_name, what, pl.nmsgs, pl.nbytes, x.msgs, x.bytes);
        CHECK(pl.nmsgs <= ops->crossings(&a, N));
        CHECK(rc || pl.nmsgs == 0 || pl.steps_used == 1);
        mpp_coll_plan_free(&pl);
    }
    ops->release(ctx);
    free(node);
}

/* Owners as the plug-in makes them (alloc.h, seed 11). */
static void owners(const mpp_partition_mesh *m, mpp_alloc_kind k, uint32_t N, const char *map,
                   uint32_t *own)
{
    mpp_err err;
    CHECKF(mpp_alloc_build(k, m->nverts, N, 11, map, own, &err) == 0, "%s", err.msg);
}

/* The mixed mesh of test_partition: two triangles and a quadrangle. */
static const char small_mesh[] =
    "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
    "$Nodes\n6\n1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n5 2 0 0\n6 2 1 0\n$EndNodes\n"
    "$Elements\n5\n"
    "1 15 2 0 1 1\n"
    "2 1 2 0 1 1 2\n"
    "3 2 2 1 1 1 2 3\n"
    "4 2 2 1 1 1 3 4\n"
    "5 3 2 1 1 2 5 6 3\n"
    "$EndElements\n";

static void test_plans(void)
{
    char mpath[256], mapf[256], spec[700], mapkv[700];
    put("small.msh", small_mesh, mpath, sizeof mpath);
    /* vertices 0..5 on 3 nodes: 0 0 1 2 1 2 */
    put("small.map", "0\n0\n1\n2\n1\n2\n", mapf, sizeof mapf);
    static const char *const allocs[] = {"block", "cyclic", "random", "map"};
    struct {
        const char *mesh;
        uint32_t N;
        const char *map; /* NULL: no map file for this mesh */
    } cases[] = {
        {mpath, 3, mapf},
        {mpath, 2, NULL},
        {"grid:6x7", 4, NULL},
        {"grid:9x5", 5, NULL},
        {"grid:16x16", 16, NULL},
        {NULL, 8, NULL}, /* the 2817-vertex airfoil */
        {NULL, 32, NULL}, /* with its shipped METIS partition */
    };
    char air[600], airmap[600];
    snprintf(air, sizeof air, "%s/traces/data/naca0012_2817.msh.gz", srcdir);
    snprintf(airmap, sizeof airmap, "%s/traces/data/naca0012_2817.part32.gz", srcdir);
    unsigned plans = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const char *mesh = cases[c].mesh ? cases[c].mesh : air;
        const char *map = cases[c].map;
        if (!cases[c].mesh && !srcdir[0])
            continue;
        if (!cases[c].mesh && cases[c].N == 32)
            map = airmap;
        mpp_partition_mesh m;
        mpp_err err;
        uint32_t R, C;
        int rc = sscanf(mesh, "grid:%ux%u", &R, &C) == 2 ? mpp_partition_grid_mesh(R, C, &m, &err)
                                                         : mpp_partition_read_mesh(mesh, &m, &err);
        CHECKF(rc == 0, "%s: %s", mesh, err.msg);
        if (rc)
            continue;
        uint32_t *own = malloc(m.nverts * sizeof *own);
        for (int k = 0; k < 4; k++) {
            if (k == 3 && !map)
                continue;
            owners(&m, (mpp_alloc_kind)k, cases[c].N, map, own);
            snprintf(spec, sizeof spec, "mesh=%s", mesh);
            snprintf(mapkv, sizeof mapkv, "map=%s", map ? map : "");
            for (int s = 0; s < 2; s++)
                for (int comb = 0; comb < 2; comb++) {
                    char al[32];
                    snprintf(al, sizeof al, "alloc=%s", allocs[k]);
                    const char *kv[] = {spec, al, comb ? "combine=true" : "combine=false",
                                        k == 3 ? mapkv : "value_bytes=12", NULL};
                    char what[700];
                    snprintf(what, sizeof what, "%s N=%u %s %s", mesh, cases[c].N, al, kv[2]);
                    plan_check(s ? "grid_scatter" : "grid_gather", cases[c].N, kv, &m, own,
                               what);
                    plans++;
                }
        }
        free(own);
        mpp_partition_mesh_free(&m);
    }
    printf("%u grid plans checked (values reach their users; messages and bytes as counted)\n",
           plans);
    /* a hand count: the small mesh under the map (0 0 1 2 1 2 on 3 nodes):
     * elements {0 1 2} owner 0, {0 2 3} owner 0, {1 4 5 2} owner 0.
     * Gather per element: (e0, 1), (e1, 1), (e1, 2), (e2, 1), (e2, 2): 5
     * messages, 6 values; combined: 1 -> 0 {2, 4}, 2 -> 0 {3, 5}: 2
     * messages, 4 values. */
    uint32_t own[6] = {0, 0, 1, 2, 1, 2};
    mpp_partition_mesh m;
    mpp_err err;
    if (mpp_partition_read_mesh(mpath, &m, &err) == 0) {
        expect a = count(&m, own, 3, false, false, 8), b = count(&m, own, 3, false, true, 8);
        CHECKF(a.msgs == 5 && a.bytes == 48 && b.msgs == 2 && b.bytes == 32,
               "hand count: %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64, a.msgs, a.bytes,
               b.msgs, b.bytes);
        mpp_partition_mesh_free(&m);
    }
}

/* ---- refusals -------------------------------------------------------------- */

static void refuse(const char *ops_name, uint32_t g, uint32_t N, uint64_t chunk,
                   const char *const *kv, int code, const char *part)
{
    const mpp_coll_ops *ops = mpp_coll_find(ops_name);
    mpp_blob b;
    set_cfg(ops, &b, kv);
    mpp_coll_args a = {.cfg = b.b, .chunk = chunk};
    mpp_err err = {0};
    void *ctx = NULL;
    int rc = ops->prepare(&a, g, N, &ctx, &err);
    CHECKF(rc == code && strstr(err.msg, part) && !ctx, "%s: rc %d: %s", part, rc, err.msg);
    if (!rc)
        ops->release(ctx);
}

static void test_refusals(void)
{
    char bad[256], mpath[256];
    put("r.msh", small_mesh, mpath, sizeof mpath);
    char mesh[300], map[300];
    snprintf(mesh, sizeof mesh, "mesh=%s", mpath);
    snprintf(map, sizeof map, "map=%s", put("r.map", "0\n0\n1\n5\n1\n2\n", bad, sizeof bad));
    const char *ok[] = {mesh, NULL};
    refuse("grid_gather", 4, 16, 0, ok, MPP_EINVAL, "whole machine");
    refuse("grid_scatter", 16, 16, 64, ok, MPP_EINVAL, "workload.chunk");
    const char *none[] = {NULL};
    refuse("grid_gather", 4, 4, 0, none, MPP_EINVAL, "workload.grid_gather.mesh: a mesh is needed");
    const char *g1[] = {"mesh=grid:3y4", NULL};
    refuse("grid_gather", 4, 4, 0, g1, MPP_EINVAL, "expected grid:RxC");
    const char *g2[] = {"mesh=grid:1x40", NULL};
    refuse("grid_scatter", 4, 4, 0, g2, MPP_EINVAL, "expected grid:RxC");
    const char *g3[] = {"mesh=grid:8192x8192", NULL};
    refuse("grid_scatter", 4, 4, 0, g3, MPP_EINVAL, "expected grid:RxC");
    const char *miss[] = {"mesh=/nonexistent/air.msh", NULL};
    refuse("grid_gather", 4, 4, 0, miss, MPP_EIO, "workload.grid_gather.mesh: ");
    const char *nomap[] = {mesh, "alloc=map", NULL};
    refuse("grid_gather", 4, 4, 0, nomap, MPP_EINVAL, "needs the map file");
    const char *range[] = {mesh, "alloc=map", map, NULL};
    refuse("grid_gather", 4, 4, 0, range, MPP_EFORMAT, "r.map:4: ");
    /* (more than MPP_COLL_MAX_MSGS per-element messages needs a mesh of
     * 2^24 vertices and a gigabyte: not tested here) */
}

/* ---- runs -------------------------------------------------------------- */

static uint64_t run(const char *machine, const char *alloc, bool combine, const char *map,
                    uint64_t *links, double *an)
{
    char text[512], ov[4][700];
    snprintf(text, sizeof text,
             "mppnet: 1\n%sworkload: {type: collective, collective: grid_gather}\n", machine);
    snprintf(ov[0], sizeof ov[0], "workload.grid_gather.mesh=%s/traces/data/naca0012_2817.msh.gz",
             srcdir);
    snprintf(ov[1], sizeof ov[1], "workload.grid_gather.alloc=%s", alloc);
    snprintf(ov[2], sizeof ov[2], "workload.grid_gather.combine=%s", combine ? "true" : "false");
    snprintf(ov[3], sizeof ov[3], "workload.grid_gather.map=%s", map ? map : "");
    const char *const o[] = {ov[0], ov[1], ov[2], ov[3]};
    mpp_sim *s = test_run_text(text, map ? 4 : 3, o);
    if (!s)
        return 0;
    const mpp_sim_result *r = mpp_sim_result_get(s);
    uint64_t c = r->extra[3].u;
    *an = r->extra[4].d;
    *links = r->extra[8].u;
    CHECK(r->extra[7].d >= 1.0); /* not below the bound */
    mpp_sim_destroy(s);
    return c;
}

static void test_runs(void)
{
    if (!srcdir[0]) {
        printf("runs skipped: no source tree (give it as the argument)\n");
        return;
    }
    const char *hc16 = "machine: hypercube\nnetwork: {hypercube: {dim: 4}, allocator: age}\n";
    for (int comb = 1; comb >= 0; comb--) {
        uint64_t lb, lr;
        double ab, ar;
        uint64_t b = run(hc16, "block", comb, NULL, &lb, &ab);
        uint64_t r = run(hc16, "random", comb, NULL, &lr, &ar);
        printf("hypercube 16, e-cube, naca0012_2817 gather %s: block %" PRIu64
               " cycles (analytic %.0f, link_flits_max %" PRIu64 "), random %" PRIu64
               " (analytic %.0f, link_flits_max %" PRIu64 "): random / block %.3f\n",
               comb ? "combined" : "per element", b, ab, lb, r, ar, lr, b ? (double)r / b : 0);
        CHECK(b > 0 && r > 0);
        /* the step recurrence follows the links: within 10% per element
         * (the processors' costs dominate), 60% combined */
        CHECKF(ab > 0 && (double)b / ab < (comb ? 1.6 : 1.1) && (double)b / ab > 0.9,
               "block %" PRIu64 " analytic %.0f", b, ab);
        /* per element, random sends more messages (9806 against 6949) */
        if (!comb)
            CHECKF(r > b, "per element: random %" PRIu64 " not slower than block %" PRIu64, r,
                   b);
    }
    /* 32 nodes: the shipped METIS partition keeps neighbours together */
    const char *hc32 = "machine: hypercube\nnetwork: {hypercube: {dim: 5}, allocator: age}\n";
    char map[600];
    snprintf(map, sizeof map, "%s/traces/data/naca0012_2817.part32.gz", srcdir);
    for (int comb = 1; comb >= 0; comb--) {
        uint64_t lm, lr;
        double am, ar;
        uint64_t m = run(hc32, "map", comb, map, &lm, &am);
        uint64_t r = run(hc32, "random", comb, NULL, &lr, &ar);
        printf("hypercube 32, naca0012_2817 gather %s: METIS map %" PRIu64
               " cycles (link_flits_max %" PRIu64 "), random %" PRIu64 " (link_flits_max %" PRIu64
               "): random / map %.2f\n",
               comb ? "combined" : "per element", m, lm, r, lr, m ? (double)r / m : 0);
        CHECKF(m > 0 && r > 2 * m && lr > lm, "map %" PRIu64 " random %" PRIu64, m, r);
    }
}

int main(int argc, char **argv)
{
    find_srcdir(argc, argv);
    if (test_mkdtemp("mppnet_coll_grid", tmpdir, sizeof tmpdir))
        return 1;
    test_alloc();
    test_plans();
    test_refusals();
    test_runs();
    test_rmdtemp(tmpdir);
    TEST_DONE();
}
