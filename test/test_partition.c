/* test/test_partition.c — the mesh-partition generator (traces/partition.c):
 *   - a 4 x 4 grid as a METIS graph file; a small mixed mesh (a point, a
 *     line, two triangles, a quadrangle) as gmsh 2.2 (plain and gzip) and
 *     4.1 (sparse node tags, a parametric node block): the same graph;
 *   - the same meshes with their elements (mpp_partition_read_mesh), the
 *     shipped airfoil's triangles, a METIS graph refused, the generated
 *     grid (mpp_partition_grid_mesh);
 *   - the COM of known partitions of the grid (four quadrants; one vertex
 *     alone), partition files written and read back;
 *   - the shipped 2817-point NACA 0012 mesh with its shipped 32-way
 *     partition gives exactly the shipped COM;
 *   - METIS (when built in) cuts the grid into 2 non-empty parts, and the
 *     shipped mesh into 32 non-empty parts; without METIS it is a clear
 *     MPP_EINVAL;
 *   - bad inputs fail with MPP_EFORMAT and "FILE:LINE:" (the right line),
 *     a missing file with MPP_EIO.
 * Usage: test_partition SRCDIR. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "test/testutil.h"
#include "traces/partition.h"

static const char *srcdir = ".";
static char tmpdir[200]; /* paths below it fit in 256 bytes */

/* Write text to tmpdir/name (gzip when name ends in .gz); the path in buf. */
static const char *put(const char *name, const char *text, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s/%s", tmpdir, name);
    size_t len = strlen(name);
    if (len > 3 && !strcmp(name + len - 3, ".gz")) {
        gzFile gz = gzopen(buf, "wb");
        CHECK(gz != NULL);
        if (gz) {
            gzwrite(gz, text, (unsigned)strlen(text));
            gzclose(gz);
        }
    } else {
        FILE *f = fopen(buf, "w");
        CHECK(f != NULL);
        if (f) {
            fputs(text, f);
            fclose(f);
        }
    }
    return buf;
}

/* The 4 x 4 grid, vertex r * 4 + c (1-based in the file). */
static void grid_text(char *out, size_t cap)
{
    size_t len = (size_t)snprintf(out, cap, "%% a 4 x 4 grid\n16 24\n");
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            int v = r * 4 + c + 1;
            if (r > 0)
                len += (size_t)snprintf(out + len, cap - len, "%d ", v - 4);
            if (c > 0)
                len += (size_t)snprintf(out + len, cap - len, "%d ", v - 1);
            if (c < 3)
                len += (size_t)snprintf(out + len, cap - len, "%d ", v + 1);
            if (r < 3)
                len += (size_t)snprintf(out + len, cap - len, "%d", v + 4);
            len += (size_t)snprintf(out + len, cap - len, "\n");
        }
}

static int read_grid(mpp_partition_graph *g)
{
    char text[1024], path[256];
    grid_text(text, sizeof text);
    mpp_err err;
    int rc = mpp_partition_read_graph(put("grid.graph", text, path, sizeof path), g, &err);
    CHECKF(rc == 0, "%s", err.msg);
    return rc;
}

static void test_graph(void)
{
    mpp_partition_graph g;
    if (read_grid(&g))
        return;
    CHECK(g.n == 16 && g.edges == 24);
    CHECK(mpp_partition_graph_check(&g));
    /* vertex 5 = (1, 1): neighbours 1, 4, 6, 9 (0-based) */
    CHECK(g.xadj[6] - g.xadj[5] == 4);
    CHECK(g.adj[g.xadj[5]] == 1 && g.adj[g.xadj[5] + 3] == 9);
    mpp_partition_graph_free(&g);
    mpp_partition_graph_free(&g);
    mpp_partition_graph_free(NULL);

    /* vertices without neighbours, the first one included (an empty row
     * sorted and offset no NULL pointer: undefined behaviour found by
     * fuzz_graph under UBSan) and a graph without edges */
    const char *texts[] = {"3 1\n\n3\n2\n", "2 0\n\n\n", "1 0\n\n"};
    for (int k = 0; k < 3; k++) {
        char path[256], name[32];
        mpp_err err;
        snprintf(name, sizeof name, "empty%d.graph", k);
        int rc = mpp_partition_read_graph(put(name, texts[k], path, sizeof path), &g, &err);
        CHECKF(rc == 0, "%s: %s", name, err.msg);
        if (rc)
            continue;
        CHECK(mpp_partition_graph_check(&g) && g.xadj[1] == 0);
        mpp_partition_graph_free(&g);
    }
}

/* Nodes 1 (0,0) 2 (1,0) 3 (1,1) 4 (0,1) 5 (2,0) 6 (2,1); triangles 1 2 3
 * and 1 3 4, quadrangle 2 5 6 3, a line 1 2 and a point 1: 6 vertices,
 * 8 edges. */
static const char mesh22[] =
    "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
    "$PhysicalNames\n1\n2 1 \"fluid\"\n$EndPhysicalNames\n"
    "$Nodes\n6\n1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n5 2 0 0\n6 2 1 0\n$EndNodes\n"
    "$Elements\n5\n"
    "1 15 2 0 1 1\n"
    "2 1 2 0 1 1 2\n"
    "3 2 2 1 1 1 2 3\n"
    "4 2 2 1 1 1 3 4\n"
    "5 3 2 1 1 2 5 6 3\n"
    "$EndElements\n";

/* The same mesh in 4.1, node tags 10 .. 60, an entity section, a
 * parametric block and trailing blanks. */
static const char mesh41[] =
    "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n"
    "$Entities\n1 0 1 0\n1 0 0 0 0 \n1 0 0 0 1 0 0 0 2 1 -2 \n1 0 0 0 2 1 0 0 1 1\n$EndEntities\n"
    "$Nodes\n3 6 10 60\n"
    "0 1 0 1\n10\n0 0 0\n"
    "1 1 1 1\n20\n1 0 0 0.5\n"
    "2 1 0 4\n30\n40\n50\n60\n1 1 0\n0 1 0\n2 0 0\n2 1 0\n"
    "$EndNodes\n"
    "$Elements\n4 5 1 5\n"
    "0 1 15 1\n1 10 \n"
    "1 1 1 1\n2 10 20\n"
    "2 1 2 2\n3 10 20 30\n4 10 30 40\n"
    "2 1 3 1\n5 20 50 60 30\n"
    "$EndElements\n";

static void check_mesh_graph(const mpp_partition_graph *g, const char *what)
{
    CHECKF(g->n == 6 && g->edges == 8, "%s: %" PRIu32 " vertices, %" PRIu32 " edges", what,
           g->n, g->edges);
    CHECK(mpp_partition_graph_check(g));
    if (g->n != 6)
        return;
    static const uint32_t want[] = {0, 1, 3, 5}; /* vertex 3 (index 2) */
    CHECKF(g->xadj[3] - g->xadj[2] == 4, "%s", what);
    for (int k = 0; k < 4 && g->xadj[3] - g->xadj[2] == 4; k++)
        CHECKF(g->adj[g->xadj[2] + (uint32_t)k] == want[k], "%s", what);
}

static void test_msh(void)
{
    const char *names[] = {"m22.msh", "m22.msh.gz", "m41.msh"};
    const char *texts[] = {mesh22, mesh22, mesh41};
    for (int i = 0; i < 3; i++) {
        char path[256];
        mpp_partition_graph g;
        mpp_err err;
        int rc = mpp_partition_read_graph(put(names[i], texts[i], path, sizeof path), &g, &err);
        CHECKF(rc == 0, "%s: %s", names[i], err.msg);
        if (rc == 0)
            check_mesh_graph(&g, names[i]);
        mpp_partition_graph_free(&g);
    }
}

/* The elements of mesh22 / mesh41 (mpp_partition_read_mesh): the two
 * triangles and the quadrangle in file order, vertices 0-based in file
 * order; the point and the line are not elements. A METIS graph is refused
 * at its first line; the shipped airfoil has its triangles; the generated
 * grid is row-major quadrangles. */
static void test_mesh_elements(void)
{
    static const uint32_t want_first[] = {0, 3, 6, 10};
    static const uint32_t want_vert[] = {0, 1, 2, 0, 2, 3, 1, 4, 5, 2};
    const char *names[] = {"e22.msh", "e22.msh.gz", "e41.msh"};
    const char *texts[] = {mesh22, mesh22, mesh41};
    char path[256];
    mpp_err err;
    for (int i = 0; i < 3; i++) {
        mpp_partition_mesh m;
        int rc = mpp_partition_read_mesh(put(names[i], texts[i], path, sizeof path), &m, &err);
        CHECKF(rc == 0, "%s: %s", names[i], err.msg);
        if (rc)
            continue;
        CHECKF(m.nverts == 6 && m.nelems == 3, "%s: %" PRIu32 " vertices, %" PRIu32
               " elements", names[i], m.nverts, m.nelems);
        CHECK(mpp_partition_mesh_check(&m));
        for (uint32_t e = 0; e <= 3 && m.nelems == 3; e++)
            CHECKF(m.first[e] == want_first[e], "%s: first[%u] = %u", names[i], e, m.first[e]);
        for (uint32_t k = 0; k < 10 && m.nelems == 3; k++)
            CHECKF(m.vert[k] == want_vert[k], "%s: vert[%u] = %u", names[i], k, m.vert[k]);
        mpp_partition_mesh_free(&m);
        mpp_partition_mesh_free(&m); /* emptied: a no-op */
    }
    mpp_partition_mesh_free(NULL);
    /* a METIS graph has no elements */
    char text[1024];
    grid_text(text, sizeof text);
    mpp_partition_mesh m;
    int rc = mpp_partition_read_mesh(put("g.graph", text, path, sizeof path), &m, &err);
    CHECKF(rc == MPP_EFORMAT && strstr(err.msg, "g.graph:2: ") && strstr(err.msg, "gmsh"), "%s",
           err.msg);
    CHECK(m.first == NULL && m.vert == NULL);
    /* a mesh error names its line, as for the graph */
    snprintf(text, sizeof text, "%s", mesh22);
    char *at = strstr(text, "4 2 2 1 1 1 3 4");
    if (at)
        at[14] = '9'; /* node 9 does not exist (line 22) */
    rc = mpp_partition_read_mesh(put("bad.msh", text, path, sizeof path), &m, &err);
    CHECKF(rc == MPP_EFORMAT && strstr(err.msg, "bad.msh:22: ") && strstr(err.msg, "node 9"),
           "%s", err.msg);
    rc = mpp_partition_read_mesh("/nonexistent/x.msh", &m, &err);
    CHECKF(rc == MPP_EIO, "%s", err.msg);
    /* the shipped airfoil: 5398 triangles over 2817 vertices */
    snprintf(path, sizeof path, "%s/traces/data/naca0012_2817.msh.gz", srcdir);
    rc = mpp_partition_read_mesh(path, &m, &err);
    CHECKF(rc == 0 && m.nverts == 2817 && m.nelems == 5398 && m.first[m.nelems] == 3 * 5398,
           "%s", rc ? err.msg : "wrong counts");
    if (!rc)
        CHECK(mpp_partition_mesh_check(&m));
    mpp_partition_mesh_free(&m);
    /* the generated grid */
    rc = mpp_partition_grid_mesh(3, 4, &m, &err);
    CHECKF(rc == 0 && m.nverts == 12 && m.nelems == 6 && m.first[6] == 24, "%s",
           rc ? err.msg : "wrong counts");
    if (!rc) {
        static const uint32_t q4[] = {5, 6, 10, 9}; /* element (1, 1) */
        for (int k = 0; k < 4; k++)
            CHECK(m.vert[m.first[4] + (uint32_t)k] == q4[k]);
        CHECK(mpp_partition_mesh_check(&m));
    }
    mpp_partition_mesh_free(&m);
    CHECK(mpp_partition_grid_mesh(1, 5, &m, &err) == MPP_EINVAL);
    CHECK(mpp_partition_grid_mesh(5000, 5000, &m, &err) == MPP_EINVAL && m.first == NULL);
}

static void test_com(void)
{
    mpp_partition_graph g;
    if (read_grid(&g))
        return;
    uint32_t part[16];
    mpp_err err;
    mpp_com c;
    for (uint32_t v = 0; v < 16; v++)
        part[v] = (v / 4 / 2) * 2 + (v % 4) / 2;
    CHECK(mpp_partition_edge_cut(&g, part) == 8);
    int rc = mpp_partition_com(&g, 4, part, &c, &err);
    CHECKF(rc == 0, "%s", err.msg);
    if (rc == 0) {
        static const uint32_t want[8][2] = {{0, 1}, {0, 2}, {1, 0}, {1, 3},
                                            {2, 0}, {2, 3}, {3, 1}, {3, 2}};
        CHECK(c.n == 4 && c.msg_unit == 1 && c.nnz == 8 && mpp_com_check(&c));
        for (uint32_t k = 0; k < c.nnz && k < 8; k++)
            CHECKF(c.e[k].src == want[k][0] && c.e[k].dst == want[k][1] && c.e[k].units == 2,
                   "entry %" PRIu32 ": (%" PRIu32 ", %" PRIu32 ") = %" PRIu64, k, c.e[k].src,
                   c.e[k].dst, c.e[k].units);
        mpp_com_free(&c);
    }
    /* vertex 5 alone in part 1: it sends itself to part 0 (1 vertex), part 0
     * sends it its 4 neighbours. */
    memset(part, 0, sizeof part);
    part[5] = 1;
    rc = mpp_partition_com(&g, 3, part, &c, &err);
    CHECKF(rc == 0, "%s", err.msg);
    if (rc == 0) {
        CHECK(c.n == 3 && c.nnz == 2);
        CHECK(c.e[0].src == 0 && c.e[0].dst == 1 && c.e[0].units == 4);
        CHECK(c.e[1].src == 1 && c.e[1].dst == 0 && c.e[1].units == 1);
        mpp_com_free(&c);
    }
    /* a part out of range */
    part[3] = 7;
    CHECK(mpp_partition_com(&g, 3, part, &c, &err) == MPP_EINVAL);
    part[3] = 2;

    /* partition files round trip, plain and gzip */
    const char *names[] = {"p.part", "p.part.gz"};
    for (int i = 0; i < 2; i++) {
        char path[256];
        uint32_t back[16];
        snprintf(path, sizeof path, "%s/%s", tmpdir, names[i]);
        rc = mpp_partition_write_parts(path, 16, part, &err);
        CHECKF(rc == 0, "%s", err.msg);
        rc = mpp_partition_read_parts(path, 16, 3, back, &err);
        CHECKF(rc == 0, "%s", err.msg);
        CHECK(rc != 0 || !memcmp(back, part, sizeof part));
        /* too few parts for the numbers in the file */
        CHECK(mpp_partition_read_parts(path, 16, 2, back, &err) == MPP_EFORMAT);
        /* a graph with more vertices */
        CHECK(mpp_partition_read_parts(path, 17, 3, back, &err) == MPP_EFORMAT);
    }
    mpp_partition_graph_free(&g);
}

static void test_shipped(void)
{
    char mesh[1024], parts[1024], comf[1024];
    snprintf(mesh, sizeof mesh, "%s/traces/data/naca0012_2817.msh.gz", srcdir);
    snprintf(parts, sizeof parts, "%s/traces/data/naca0012_2817.part32.gz", srcdir);
    snprintf(comf, sizeof comf, "%s/traces/data/naca0012_2817.com32.mtx.gz", srcdir);
    mpp_partition_graph g;
    mpp_err err;
    int rc = mpp_partition_read_graph(mesh, &g, &err);
    CHECKF(rc == 0, "%s", err.msg);
    if (rc)
        return;
    CHECK(g.n == 2817);
    uint32_t *part = malloc(g.n * sizeof *part);
    mpp_com c;
    mpp_com_seq seq = {0};
    rc = mpp_partition_read_parts(parts, g.n, 32, part, &err);
    CHECKF(rc == 0, "%s", err.msg);
    if (rc == 0 && (rc = mpp_partition_com(&g, 32, part, &c, &err)) == 0) {
        int rr = mpp_com_read(comf, &seq, &err);
        CHECKF(rr == 0, "%s", err.msg);
        CHECK(rr != 0 || (seq.count == 1 && mpp_com_equal(&c, &seq.m[0])));
        CHECK(c.n == 32 && c.nnz > 0);
        mpp_com_seq_free(&seq);
        mpp_com_free(&c);
    }
    CHECKF(rc == 0, "%s", err.msg);

    if (mpp_partition_have_metis()) {
        rc = mpp_partition_metis(&g, 32, part, &err);
        CHECKF(rc == 0, "%s", err.msg);
        uint32_t size[32] = {0};
        for (uint32_t v = 0; v < g.n && rc == 0; v++) {
            CHECK(part[v] < 32);
            if (part[v] < 32)
                size[part[v]]++;
        }
        for (int p = 0; p < 32 && rc == 0; p++)
            CHECKF(size[p] > 0, "part %d is empty", p);
    }
    free(part);
    mpp_partition_graph_free(&g);
}

static void test_metis(void)
{
    mpp_partition_graph g;
    if (read_grid(&g))
        return;
    uint32_t part[16];
    mpp_err err;
    int rc = mpp_partition_metis(&g, 2, part, &err);
    if (mpp_partition_have_metis()) {
        CHECKF(rc == 0, "%s", err.msg);
        uint32_t size[2] = {0, 0};
        for (uint32_t v = 0; v < 16 && rc == 0; v++) {
            CHECK(part[v] < 2);
            size[part[v] & 1]++;
        }
        CHECK(rc != 0 || (size[0] > 0 && size[1] > 0));
    } else {
        CHECK(rc == MPP_EINVAL && strstr(err.msg, "without METIS"));
    }
    /* one part needs no METIS; more parts than vertices is an error */
    CHECK(mpp_partition_metis(&g, 1, part, &err) == 0 && part[15] == 0);
    CHECK(mpp_partition_metis(&g, 17, part, &err) == MPP_EINVAL);
    CHECK(mpp_partition_metis(&g, 0, part, &err) == MPP_EINVAL);
    mpp_partition_graph_free(&g);
}

/* Reading text as name fails with code, and the message starts "PATH:LINE:". */
static void bad(const char *name, const char *text, int code, unsigned line)
{
    char path[256];
    mpp_partition_graph g;
    mpp_err err;
    int rc = mpp_partition_read_graph(put(name, text, path, sizeof path), &g, &err);
    CHECKF(rc == code, "%s: got %d (%s), expected %d", name, rc, rc ? err.msg : "ok", code);
    if (rc == 0) {
        mpp_partition_graph_free(&g);
        return;
    }
    CHECK(g.n == 0 && g.xadj == NULL && g.adj == NULL);
    char want[300];
    snprintf(want, sizeof want, "%s:%u: ", path, line);
    CHECKF(!strncmp(err.msg, want, strlen(want)), "%s: '%s' does not start with '%s'", name,
           err.msg, want);
    printf("%-18s %s\n", name, err.msg + strlen(path) + 1);
}

/* mesh22 with the text from `from` (exclusive) cut off. */
static void cut(char *out, size_t cap, const char *from)
{
    const char *p = strstr(mesh22, from);
    snprintf(out, cap, "%.*s", (int)(p - mesh22), mesh22);
}

static void test_bad(void)
{
    /* METIS graphs: a path 1 - 2 - 3 */
    bad("count.graph", "3 3\n2\n1 3\n2\n", MPP_EFORMAT, 1);
    bad("range.graph", "3 2\n2\n1 4\n2\n", MPP_EFORMAT, 3);
    bad("zero.graph", "3 2\n2\n0 3\n2\n", MPP_EFORMAT, 3);
    bad("word.graph", "3 2\n2\n1 x\n2\n", MPP_EFORMAT, 3);
    bad("self.graph", "3 2\n2\n1 2 3\n2\n", MPP_EFORMAT, 3);
    bad("twice.graph", "% c\n3 2\n2\n1 3 1\n2\n", MPP_EFORMAT, 4);
    bad("asym.graph", "3 2\n2\n1 3\n\n", MPP_EFORMAT, 3);
    bad("fmt.graph", "3 2 011\n2 1\n1 3\n2\n", MPP_EFORMAT, 1);
    bad("fmt2.graph", "3 2 7\n2\n1 3\n2\n", MPP_EFORMAT, 1);
    bad("short.graph", "3 2\n2\n1 3\n", MPP_EFORMAT, 4);
    bad("long.graph", "3 2\n2\n1 3\n2\n1\n", MPP_EFORMAT, 5);
    bad("header.graph", "three 2\n", MPP_EFORMAT, 1);
    bad("empty.graph", "% nothing\n\n", MPP_EFORMAT, 3);

    /* meshes */
    char text[2048];
    cut(text, sizeof text, "5 3 2 1 1");
    bad("trunc.msh", text, MPP_EFORMAT, 23);
    cut(text, sizeof text, "$Elements");
    bad("noelem.msh", text, MPP_EFORMAT, 17);
    cut(text, sizeof text, "4 0 1 0\n5 2");
    bad("tnodes.msh", text, MPP_EFORMAT, 13);
    snprintf(text, sizeof text, "%s", mesh22);
    memcpy(strstr(text, "4 2 2 1 1 1 3 4"), "4 9", 3);
    bad("type.msh", text, MPP_EFORMAT, 22);
    snprintf(text, sizeof text, "%s", mesh22);
    memcpy(strstr(text, "1 3 4\n"), "1 3 7\n", 6);
    bad("node.msh", text, MPP_EFORMAT, 22);
    snprintf(text, sizeof text, "%s", mesh22);
    memcpy(strstr(text, "2.2 0 8"), "2.2 1 8", 7);
    bad("binary.msh", text, MPP_EFORMAT, 2);
    snprintf(text, sizeof text, "%s", mesh22);
    memcpy(strstr(text, "2.2 0 8"), "4.0 0 8", 7);
    bad("v40.msh", text, MPP_EFORMAT, 2);
    snprintf(text, sizeof text, "%s", mesh22);
    memcpy(strstr(text, "5 3 2 1 1 2 5 6 3"), "5 3 2 1 1 2 5 6 5", 17);
    bad("degen.msh", text, MPP_EFORMAT, 23);
    snprintf(text, sizeof text, "%s", mesh22);
    memcpy(strstr(text, "3 1 1 0"), "3 1 y 0", 7);
    bad("coord.msh", text, MPP_EFORMAT, 12);
    snprintf(text, sizeof text, "%s", mesh41);
    memcpy(strstr(text, "2 1 3 1"), "2 1 4 1", 7);
    bad("type41.msh", text, MPP_EFORMAT, 37);
    bad("open.msh", "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Comments\nhi\n", MPP_EFORMAT, 4);

    /* truncated gzip data */
    char path[256];
    put("gz.msh.gz", mesh22, path, sizeof path);
    FILE *f = fopen(path, "rb");
    unsigned char buf[4096];
    size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f)
        fclose(f);
    f = fopen(path, "wb");
    if (f) {
        fwrite(buf, 1, n / 2, f);
        fclose(f);
    }
    mpp_partition_graph g;
    mpp_err err;
    int rc = mpp_partition_read_graph(path, &g, &err);
    CHECKF(rc == MPP_EFORMAT && strstr(err.msg, "gzip"), "%d %s", rc, err.msg);

    /* a missing file */
    snprintf(path, sizeof path, "%s/missing.graph", tmpdir);
    CHECK(mpp_partition_read_graph(path, &g, &err) == MPP_EIO);

    /* partition files */
    uint32_t part[3];
    put("bad.part", "0\n1\nx\n", path, sizeof path);
    rc = mpp_partition_read_parts(path, 3, 2, part, &err);
    CHECKF(rc == MPP_EFORMAT && strstr(err.msg, ":3: "), "%s", err.msg);
    put("short.part", "0\n1\n", path, sizeof path);
    rc = mpp_partition_read_parts(path, 3, 2, part, &err);
    CHECKF(rc == MPP_EFORMAT && strstr(err.msg, ":3: "), "%s", err.msg);
    put("two.part", "0\n1 1\n0\n", path, sizeof path);
    rc = mpp_partition_read_parts(path, 3, 2, part, &err);
    CHECKF(rc == MPP_EFORMAT && strstr(err.msg, ":2: "), "%s", err.msg);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        srcdir = argv[1];
    if (test_mkdtemp("mppnet_partition", tmpdir, sizeof tmpdir))
        return 1;
    test_graph();
    test_msh();
    test_mesh_elements();
    test_com();
    test_shipped();
    test_metis();
    test_bad();
    test_rmdtemp(tmpdir);
    TEST_DONE();
}
