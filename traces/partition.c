/* traces/partition.c — the mesh-partition generator (see partition.h):
 * graphs from METIS graph files and gmsh meshes, k-way partitions by METIS
 * or from a partition file, and the ghost-exchange COM of a partition.
 *
 * Reading. The shared line reader (lineio.h) reads plain and gzip files
 * alike, one line at a time (any length: a vertex of a METIS graph may have
 * many neighbours), and turns zlib errors into "truncated" or "corrupt"
 * messages, so a damaged file is never silently short. A file is a METIS
 * graph unless its first line that is not blank or a `%` comment is
 * `$MeshFormat`.
 *
 *   METIS graph:  header `n m [fmt]` --> n vertex lines --> only blank or
 *                 comment lines (read_metis); then symmetry and the edge
 *                 count are checked against the header.
 *   gmsh mesh:    $MeshFormat --> sections in any order, unknown ones
 *                 skipped (read_msh); $Nodes (msh_nodes2 / msh_nodes4)
 *                 numbers the vertices in file order; $Elements
 *                 (msh_elements2 / msh_elements4) collects the edges of
 *                 triangles and quadrangles as 64-bit keys (lo << 32 | hi),
 *                 which build_csr() sorts, deduplicates and turns into rows;
 *                 for mpp_partition_read_mesh the same pass keeps the
 *                 elements' vertex lists instead (efirst, everts), which
 *                 take_elements() hands over as they are.
 *
 * The COM. For every vertex v of part p, each distinct part q != p among
 * v's neighbours adds 1 to COM(p, q): v is a ghost vertex that p must send
 * to q (a per-part stamp array makes "distinct" O(degree)).
 *
 * Invariants:
 *   1. Every graph handed out satisfies mpp_partition_graph_check (rows
 *      sorted, no duplicates, no self loops, symmetric, xadj[n] == 2 edges).
 *   2. Every reading function fills its output only on success; on error
 *      it frees what it allocated.
 *   3. Every input error names the file and the 1-based line at fault
 *      (MPP_EFORMAT), or says why the file cannot be read (MPP_EIO).
 *   4. Partition and COM files are written atomically (.NAME.tmp, fsync,
 *      rename), and their bytes are a function of the partition alone. */
#include "traces/partition.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "core/base/strbuf.h"
#include "core/base/units.h"
#include "traces/lineio.h"

#ifdef MPP_HAVE_METIS
#include <metis.h>
#endif

/* ---- lines ---------------------------------------------------------------- */

/* The next line of r in *out, also without trailing blanks (any length: a
 * vertex of a METIS graph may have many neighbours). Returns 1, 0 at the
 * end of the file, or an error (see mpp_lines_next). */
static int next_line(mpp_lines *r, char **out)
{
    int rc = mpp_lines_next(r, out, NULL);
    if (rc == 1) {
        size_t len = strlen(*out);
        while (len && ((*out)[len - 1] == '\r' || (*out)[len - 1] == ' ' ||
                       (*out)[len - 1] == '\t'))
            len--;
        (*out)[len] = '\0';
    }
    return rc;
}

/* ---- tokens --------------------------------------------------------------- */

static int is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* The next blank-separated token of *s: 1 with *tok (NUL-terminated in
 * place), 0 when there is none. */
static int next_tok(char **s, char **tok)
{
    char *p = *s;
    while (is_blank(*p))
        p++;
    if (!*p) {
        *s = p;
        return 0;
    }
    *tok = p;
    while (*p && !is_blank(*p))
        p++;
    if (*p)
        *p++ = '\0';
    *s = p;
    return 1;
}

enum { U_NONE = 0, U_OK = 1, U_BAD = -1, U_BIG = -2 };

/* The next token of *s as a decimal integer 0 .. max: U_OK with *v, U_NONE
 * (no token left), U_BAD (not a non-negative integer; *tok shows it),
 * U_BIG (above max). */
static int next_u64(char **s, uint64_t max, uint64_t *v, char **tok)
{
    if (!next_tok(s, tok))
        return U_NONE;
    const char *t = *tok;
    if (*t == '+')
        t++;
    uint64_t x;
    int rc = mpp_lines_digits(t, &x);
    if (rc)
        return rc == -2 ? U_BIG : U_BAD;
    if (x > max)
        return U_BIG;
    *v = x;
    return U_OK;
}

/* A token that strtod reads completely (a coordinate). */
static int is_number(const char *t)
{
    double v;
    return mpp_units_double(t, &v);
}

/* Count the tokens of s without changing it. */
static uint32_t count_tok(const char *s)
{
    uint32_t n = 0;
    while (*s) {
        while (is_blank(*s))
            s++;
        if (!*s)
            break;
        n++;
        while (*s && !is_blank(*s))
            s++;
    }
    return n;
}

/* ---- graphs ----------------------------------------------------------------- */

void mpp_partition_graph_free(mpp_partition_graph *g)
{
    if (!g)
        return;
    free(g->xadj);
    free(g->adj);
    memset(g, 0, sizeof *g);
}

static int has_neighbour(const mpp_partition_graph *g, uint32_t v, uint32_t u)
{
    uint32_t lo = g->xadj[v], hi = g->xadj[v + 1];
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (g->adj[mid] == u)
            return 1;
        if (g->adj[mid] < u)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

bool mpp_partition_graph_check(const mpp_partition_graph *g)
{
    if (!g->xadj || g->xadj[0] != 0 || g->xadj[g->n] != 2 * (uint64_t)g->edges)
        return false;
    for (uint32_t v = 0; v < g->n; v++) {
        if (g->xadj[v + 1] < g->xadj[v])
            return false;
        for (uint32_t k = g->xadj[v]; k < g->xadj[v + 1]; k++) {
            uint32_t u = g->adj[k];
            if (u >= g->n || u == v || (k > g->xadj[v] && g->adj[k - 1] >= u) ||
                !has_neighbour(g, u, v))
                return false;
        }
    }
    return true;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* A growable array of uint32 or uint64 (elem bytes each). */
typedef struct vec {
    void *a;
    size_t len, cap, elem;
} vec;

static int vec_reserve(vec *v, size_t more)
{
    if (v->cap - v->len >= more)
        return 0;
    size_t cap = v->cap ? v->cap : 1024;
    while (cap - v->len < more) {
        if (cap > SIZE_MAX / 2 / v->elem)
            return MPP_ENOMEM;
        cap *= 2;
    }
    void *a = realloc(v->a, cap * v->elem);
    if (!a)
        return MPP_ENOMEM;
    v->a = a;
    v->cap = cap;
    return 0;
}

/* METIS graph file: r has just returned the header line (hline). */
static int read_metis(mpp_lines *r, char *line, mpp_partition_graph *out)
{
    uint64_t hline = mpp_lines_number(r), n, m;
    char *s = line, *tok;
    int rc = next_u64(&s, UINT32_MAX - 1, &n, &tok);
    if (rc != U_OK || n == 0)
        return mpp_lines_error(r, hline,
                               "expected the header `n m [fmt]` of a METIS graph (n vertices >= 1, "
                               "m edges), found '%s'",
                               line);
    rc = next_u64(&s, UINT32_MAX / 2, &m, &tok);
    if (rc == U_NONE)
        return mpp_lines_error(r, hline, "the header has no edge count: expected `n m [fmt]`");
    if (rc != U_OK)
        return mpp_lines_error(r, hline, "the edge count '%s' is not an integer 0 .. %u", tok,
                               UINT32_MAX / 2);
    if (next_tok(&s, &tok)) {
        size_t len = strlen(tok);
        if (len > 3 || strspn(tok, "01") != len)
            return mpp_lines_error(r, hline,
                                   "fmt '%s' is not a METIS format code (up to three digits 0 "
                                   "or 1)",
                                   tok);
        if (strchr(tok, '1'))
            return mpp_lines_error(r, hline,
                                   "fmt %s (vertex sizes, vertex weights or edge weights) is "
                                   "not supported: mppnet reads unweighted graphs (fmt 0)",
                                   tok);
        if (next_tok(&s, &tok))
            return mpp_lines_error(r, hline,
                                   "unexpected '%s' after fmt 0 (ncon needs vertex weights, "
                                   "which are not supported)",
                                   tok);
    }

    /* a vertex line is at least its line end, a neighbour two bytes */
    if ((rc = mpp_lines_check_count(r, hline, n, 1, "vertex lines")) ||
        (rc = mpp_lines_check_count(r, hline, 2 * m, 2, "neighbour entries (2 per edge)")))
        return rc;
    int err = 0;
    uint32_t *xadj = malloc(((size_t)n + 1) * sizeof *xadj);
    uint64_t *vline = malloc((size_t)n * sizeof *vline);
    vec adj = {.elem = sizeof(uint32_t)};
    if (!xadj || !vline) {
        err = mpp_err_set(mpp_lines_err(r), MPP_ENOMEM, "%s: out of memory", mpp_lines_path(r));
        goto fail;
    }
    xadj[0] = 0;
    for (uint32_t v = 0; v < n; v++) {
        do {
            rc = next_line(r, &line);
            if (rc < 0) {
                err = rc;
                goto fail;
            }
            if (rc == 0) {
                err = mpp_lines_error(r, mpp_lines_number(r) + 1,
                                      "the file ends after %" PRIu32 " of the %" PRIu64
                                      " vertex lines the header announces (truncated?)",
                                      v, n);
                goto fail;
            }
        } while (line[0] == '%');
        vline[v] = mpp_lines_number(r);
        s = line;
        size_t first = adj.len;
        uint64_t u;
        while ((rc = next_u64(&s, n, &u, &tok)) != U_NONE) {
            if (rc != U_OK || u == 0) {
                err = mpp_lines_error(r, mpp_lines_number(r),
                                      "vertex %" PRIu32 ": neighbour '%s' is not a vertex "
                                      "number 1 .. %" PRIu64,
                                      v + 1, tok, n);
                goto fail;
            }
            if (u == v + 1) {
                err = mpp_lines_error(r, mpp_lines_number(r),
                                      "vertex %" PRIu32 " lists itself (self loops are not "
                                      "allowed)",
                                      v + 1);
                goto fail;
            }
            if (adj.len >= UINT32_MAX - 1 || vec_reserve(&adj, 1)) {
                err = mpp_err_set(mpp_lines_err(r), MPP_ENOMEM,
                                  "%s: out of memory (too many edges)", mpp_lines_path(r));
                goto fail;
            }
            ((uint32_t *)adj.a)[adj.len++] = (uint32_t)(u - 1);
        }
        size_t deg = adj.len - first;
        uint32_t *row = deg ? (uint32_t *)adj.a + first : NULL; /* adj.a is NULL while empty */
        if (deg > 1)
            qsort(row, deg, sizeof *row, cmp_u32);
        for (size_t k = 1; k < deg; k++)
            if (row[k] == row[k - 1]) {
                err = mpp_lines_error(r, mpp_lines_number(r),
                                      "vertex %" PRIu32 " lists neighbour %" PRIu32 " twice "
                                      "(multiple edges are not allowed)",
                                      v + 1, row[k] + 1);
                goto fail;
            }
        xadj[v + 1] = (uint32_t)adj.len;
    }
    while ((rc = next_line(r, &line)) == 1)
        if (line[0] && line[0] != '%') {
            err = mpp_lines_error(r, mpp_lines_number(r),
                                  "more vertex lines than the %" PRIu64 " the header on "
                                  "line %" PRIu64 " announces",
                                  n, hline);
            goto fail;
        }
    if (rc < 0) {
        err = rc;
        goto fail;
    }

    mpp_partition_graph g = {.n = (uint32_t)n, .edges = (uint32_t)m, .xadj = xadj,
                             .adj = adj.a};
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t k = xadj[v]; k < xadj[v + 1]; k++) {
            uint32_t u = g.adj[k];
            if (!has_neighbour(&g, u, v)) {
                err = mpp_lines_error(r, vline[v],
                                      "vertex %" PRIu32 " lists %" PRIu32 ", but vertex %" PRIu32
                                      " (line %" PRIu64 ") does not list %" PRIu32 " (the graph "
                                      "must be undirected)",
                                      v + 1, u + 1, u + 1, vline[u], v + 1);
                goto fail;
            }
        }
    if (xadj[n] != 2 * m) {
        err = mpp_lines_error(r, hline,
                              "the header says %" PRIu64 " edges, but the vertex lines list %"
                              PRIu32 " neighbours (expected 2 m = %" PRIu64 ": each edge appears "
                              "in the lists of both its ends)",
                              m, xadj[n], 2 * m);
        goto fail;
    }
    free(vline);
    if (!g.adj && !(g.adj = malloc(sizeof *g.adj))) {
        free(xadj);
        return mpp_err_set(mpp_lines_err(r), MPP_ENOMEM, "%s: out of memory", mpp_lines_path(r));
    }
    *out = g;
    return 0;
fail:
    free(xadj);
    free(vline);
    free(adj.a);
    return err;
}

/* ---- gmsh meshes ------------------------------------------------------------ */

typedef struct msh {
    mpp_lines *r;
    int v4;              /* format 4.1 (else 2.2) */
    int want_graph;      /* collect the edges (mpp_partition_read_graph) */
    int want_elements;   /* keep the elements (mpp_partition_read_mesh) */
    uint32_t n;          /* nodes */
    uint64_t *tags;      /* [n] node tag of vertex i */
    uint64_t *sorted;    /* [n] (tag << 32 | index) sorted, unless dense */
    int dense;           /* tags[i] == i + 1 for every i */
    vec edges;           /* uint64 keys lo << 32 | hi, lo < hi */
    vec efirst;          /* uint32: where each kept element's vertices start in everts */
    vec everts;          /* uint32: the kept elements' vertices, in file order */
    uint64_t elements2d;
} msh;

/* Node counts of the element types read (0: not supported). */
static uint32_t element_nodes(uint64_t type)
{
    switch (type) {
    case 15: return 1; /* point */
    case 1: return 2;  /* line */
    case 2: return 3;  /* triangle */
    case 3: return 4;  /* quadrangle */
    default: return 0;
    }
}

static int unsupported_type(msh *m, uint64_t type)
{
    return mpp_lines_error(m->r, mpp_lines_number(m->r),
                           "element type %" PRIu64 " is not supported: mppnet reads "
                           "first-order 2D meshes of points (15), lines (1), triangles (2) and "
                           "quadrangles (3)",
                           type);
}

/* The next line inside section `what`; EOF is a truncation error. */
static int msh_line(msh *m, char **line, const char *what)
{
    int rc = next_line(m->r, line);
    if (rc == 0)
        return mpp_lines_error(m->r, mpp_lines_number(m->r) + 1,
                               "the file ends inside $%s (truncated?), expected $End%s", what,
                               what);
    return rc < 0 ? rc : 0;
}

/* Exactly `count` integers 0 .. max on the current line into v[]. */
static int msh_ints(msh *m, char *line, uint32_t count, uint64_t max, uint64_t *v, const char *what)
{
    char *s = line, *tok = NULL;
    for (uint32_t i = 0; i < count; i++) {
        int rc = next_u64(&s, max, &v[i], &tok);
        if (rc == U_NONE)
            return mpp_lines_error(m->r, mpp_lines_number(m->r),
                                   "expected %s (%" PRIu32 " integers), found only %" PRIu32, what,
                                   count, i);
        if (rc != U_OK)
            return mpp_lines_error(m->r, mpp_lines_number(m->r),
                                   "expected %s: '%s' is not an integer 0 .. %" PRIu64, what, tok,
                                   max);
    }
    if (next_tok(&s, &tok))
        return mpp_lines_error(m->r, mpp_lines_number(m->r),
                               "expected %s (%" PRIu32 " integers), found more ('%s')", what, count,
                               tok);
    return 0;
}

static int msh_end(msh *m, const char *what, uint64_t count, const char *items)
{
    char *line;
    int rc = msh_line(m, &line, what);
    if (rc)
        return rc;
    if (strncmp(line, "$End", 4) || strcmp(line + 4, what))
        return mpp_lines_error(m->r, mpp_lines_number(m->r),
                               "expected $End%s after %" PRIu64 " %s, found '%.40s'", what, count,
                               items, line);
    return 0;
}

static int msh_alloc_nodes(msh *m, uint64_t count)
{
    if (count == 0 || count > UINT32_MAX - 1)
        return mpp_lines_error(m->r, mpp_lines_number(m->r),
                               "the node count %" PRIu64 " is out of range 1 .. %u", count,
                               UINT32_MAX - 1);
    /* a node is at least `t x y z` and its line end */
    int rc = mpp_lines_check_count(m->r, mpp_lines_number(m->r), count, 8, "nodes");
    if (rc)
        return rc;
    m->tags = malloc((size_t)count * sizeof *m->tags);
    if (!m->tags)
        return mpp_err_set(mpp_lines_err(m->r), MPP_ENOMEM, "%s: out of memory",
                           mpp_lines_path(m->r));
    m->n = (uint32_t)count;
    return 0;
}

/* One node's coordinates: at least 3 numbers (extra ones: parametric). */
static int msh_coords(msh *m, char *s, uint32_t want, const char *what)
{
    char *tok;
    uint32_t k = 0;
    while (next_tok(&s, &tok)) {
        if (!is_number(tok))
            return mpp_lines_error(m->r, mpp_lines_number(m->r), "%s: '%s' is not a number", what,
                                   tok);
        k++;
    }
    if (k != want)
        return mpp_lines_error(m->r, mpp_lines_number(m->r),
                               "%s: expected %" PRIu32 " numbers, found %" PRIu32, what, want, k);
    return 0;
}

/* $Nodes, format 2.2: `count`, then `tag x y z` lines. */
static int msh_nodes2(msh *m)
{
    char *line, *s, *tok;
    uint64_t count;
    int rc = msh_line(m, &line, "Nodes");
    if (rc || (rc = msh_ints(m, line, 1, UINT64_MAX, &count, "the node count")) ||
        (rc = msh_alloc_nodes(m, count)))
        return rc;
    for (uint32_t i = 0; i < m->n; i++) {
        if ((rc = msh_line(m, &line, "Nodes")))
            return rc;
        if (line[0] == '$')
            return mpp_lines_error(m->r, mpp_lines_number(m->r),
                                   "found %.40s after %" PRIu32 " of the %" PRIu32
                                   " nodes $Nodes announces",
                                   line, i, m->n);
        s = line;
        rc = next_u64(&s, UINT64_MAX, &m->tags[i], &tok);
        if (rc != U_OK || m->tags[i] == 0)
            return mpp_lines_error(m->r, mpp_lines_number(m->r),
                                   "expected a node `tag x y z`, found '%.40s'", line);
        if ((rc = msh_coords(m, s, 3, "node coordinates")))
            return rc;
    }
    return msh_end(m, "Nodes", m->n, "nodes");
}

/* $Nodes, format 4.1: `blocks count min max`, then per block `dim entity
 * parametric k`, k tag lines and k coordinate lines. */
static int msh_nodes4(msh *m)
{
    char *line;
    uint64_t h[4];
    int rc = msh_line(m, &line, "Nodes");
    if (rc || (rc = msh_ints(m, line, 4, UINT64_MAX, h, "`numEntityBlocks numNodes "
                             "minNodeTag maxNodeTag`")) ||
        (rc = msh_alloc_nodes(m, h[1])))
        return rc;
    uint64_t done = 0;
    for (uint64_t b = 0; b < h[0]; b++) {
        uint64_t e[4];
        if ((rc = msh_line(m, &line, "Nodes")) ||
            (rc = msh_ints(m, line, 4, UINT64_MAX, e, "a node block `entityDim entityTag "
                           "parametric numNodesInBlock`")))
            return rc;
        if (e[0] > 3 || e[2] > 1)
            return mpp_lines_error(m->r, mpp_lines_number(m->r),
                                   "node block: entityDim %" PRIu64 " must be 0 .. 3 "
                                   "and parametric %" PRIu64 " 0 or 1",
                                   e[0], e[2]);
        if (e[3] > m->n - done)
            return mpp_lines_error(m->r, mpp_lines_number(m->r),
                                   "node block of %" PRIu64 " nodes: more than the %" PRIu32
                                   " nodes $Nodes announces",
                                   e[3], m->n);
        for (uint64_t k = 0; k < e[3]; k++) {
            if ((rc = msh_line(m, &line, "Nodes")) ||
                (rc = msh_ints(m, line, 1, UINT64_MAX, &m->tags[done + k], "a node tag")))
                return rc;
            if (m->tags[done + k] == 0)
                return mpp_lines_error(m->r, mpp_lines_number(m->r),
                                       "node tag 0 (tags start at 1)");
        }
        uint32_t want = 3 + (e[2] ? (uint32_t)e[0] : 0);
        for (uint64_t k = 0; k < e[3]; k++)
            if ((rc = msh_line(m, &line, "Nodes")) ||
                (rc = msh_coords(m, line, want, "node coordinates")))
                return rc;
        done += e[3];
    }
    if (done != m->n)
        return mpp_lines_error(m->r, mpp_lines_number(m->r),
                               "the node blocks hold %" PRIu64 " nodes, $Nodes "
                               "announces %" PRIu32,
                               done, m->n);
    return msh_end(m, "Nodes", m->n, "nodes");
}

/* Index node tags for lookups; duplicate tags are an error. */
static int msh_index_nodes(msh *m, uint64_t line)
{
    m->dense = 1;
    for (uint32_t i = 0; i < m->n && m->dense; i++)
        m->dense = m->tags[i] == (uint64_t)i + 1;
    if (m->dense)
        return 0;
    m->sorted = malloc((size_t)m->n * sizeof *m->sorted);
    if (!m->sorted)
        return mpp_err_set(mpp_lines_err(m->r), MPP_ENOMEM, "%s: out of memory",
                           mpp_lines_path(m->r));
    for (uint32_t i = 0; i < m->n; i++) {
        if (m->tags[i] > UINT32_MAX)
            return mpp_lines_error(m->r, line, "node tag %" PRIu64 " is too large (at most %u)",
                                   m->tags[i], UINT32_MAX);
        m->sorted[i] = m->tags[i] << 32 | i;
    }
    qsort(m->sorted, m->n, sizeof *m->sorted, cmp_u64);
    for (uint32_t i = 1; i < m->n; i++)
        if (m->sorted[i] >> 32 == m->sorted[i - 1] >> 32)
            return mpp_lines_error(m->r, line, "node tag %" PRIu64 " appears twice in $Nodes",
                                   m->sorted[i] >> 32);
    return 0;
}

/* The vertex of node tag, or UINT32_MAX when there is none. */
static uint32_t msh_vertex(const msh *m, uint64_t tag)
{
    if (m->dense)
        return tag >= 1 && tag <= m->n ? (uint32_t)(tag - 1) : UINT32_MAX;
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint64_t t = m->sorted[mid] >> 32;
        if (t == tag)
            return (uint32_t)m->sorted[mid];
        if (t < tag)
            lo = mid + 1;
        else
            hi = mid;
    }
    return UINT32_MAX;
}

/* One element: its tag, type and node tags; 2D ones add their edges. */
static int msh_element(msh *m, uint64_t tag, uint64_t type, const uint64_t *nodes)
{
    uint32_t k = element_nodes(type), v[4];
    for (uint32_t i = 0; i < k; i++) {
        v[i] = msh_vertex(m, nodes[i]);
        if (v[i] == UINT32_MAX)
            return mpp_lines_error(m->r, mpp_lines_number(m->r),
                                   "element %" PRIu64 " uses node %" PRIu64 ", which is "
                                   "not in $Nodes",
                                   tag, nodes[i]);
    }
    if (type != 2 && type != 3)
        return 0;
    for (uint32_t i = 0; i < k; i++)
        for (uint32_t j = i + 1; j < k; j++)
            if (v[i] == v[j])
                return mpp_lines_error(m->r, mpp_lines_number(m->r),
                                       "element %" PRIu64 " uses node %" PRIu64 " twice", tag,
                                       nodes[i]);
    m->elements2d++;
    if (m->want_elements) {
        if (m->everts.len > UINT32_MAX - k || m->elements2d >= UINT32_MAX)
            return mpp_lines_error(m->r, mpp_lines_number(m->r),
                                   "too many elements (at most %u vertex uses in all)",
                                   UINT32_MAX);
        if (vec_reserve(&m->efirst, 1) || vec_reserve(&m->everts, k))
            return mpp_err_set(mpp_lines_err(m->r), MPP_ENOMEM, "%s: out of memory",
                               mpp_lines_path(m->r));
        ((uint32_t *)m->efirst.a)[m->efirst.len++] = (uint32_t)m->everts.len;
        for (uint32_t i = 0; i < k; i++)
            ((uint32_t *)m->everts.a)[m->everts.len++] = v[i];
    }
    if (!m->want_graph)
        return 0;
    if (vec_reserve(&m->edges, k))
        return mpp_err_set(mpp_lines_err(m->r), MPP_ENOMEM, "%s: out of memory",
                           mpp_lines_path(m->r));
    for (uint32_t i = 0; i < k; i++) {
        uint32_t a = v[i], b = v[(i + 1) % k];
        uint64_t key = a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a;
        ((uint64_t *)m->edges.a)[m->edges.len++] = key;
    }
    return 0;
}

/* $Elements, format 2.2: `count`, then `tag type ntags tags... nodes...`. */
static int msh_elements2(msh *m)
{
    char *line, *s, *tok;
    uint64_t count, f[3], nodes[4];
    int rc = msh_line(m, &line, "Elements");
    if (rc || (rc = msh_ints(m, line, 1, UINT64_MAX, &count, "the element count")))
        return rc;
    for (uint64_t i = 0; i < count; i++) {
        if ((rc = msh_line(m, &line, "Elements")))
            return rc;
        if (line[0] == '$')
            return mpp_lines_error(m->r, mpp_lines_number(m->r),
                                   "found %.40s after %" PRIu64 " of the %" PRIu64
                                   " elements $Elements announces",
                                   line, i, count);
        uint32_t nt = count_tok(line);
        s = line;
        for (int k = 0; k < 3; k++) {
            rc = next_u64(&s, UINT64_MAX, &f[k], &tok);
            if (rc != U_OK)
                return mpp_lines_error(m->r, mpp_lines_number(m->r),
                                       "expected an element `tag type ntags tags... "
                                       "nodes...`, found '%.40s'",
                                       line);
        }
        uint32_t k = element_nodes(f[1]);
        if (!k)
            return unsupported_type(m, f[1]);
        if (f[2] > 64 || nt != 3 + f[2] + k)
            return mpp_lines_error(m->r, mpp_lines_number(m->r),
                                   "element %" PRIu64 " of type %" PRIu64 " with %" PRIu64
                                   " tags needs %" PRIu64 " fields, found %" PRIu32,
                                   f[0], f[1], f[2], 3 + f[2] + k, nt);
        for (uint64_t t = 0; t < f[2]; t++)
            next_tok(&s, &tok);
        for (uint32_t j = 0; j < k; j++)
            if (next_u64(&s, UINT64_MAX, &nodes[j], &tok) != U_OK)
                return mpp_lines_error(m->r, mpp_lines_number(m->r),
                                       "element %" PRIu64 ": node '%s' is not a tag", f[0], tok);
        if ((rc = msh_element(m, f[0], f[1], nodes)))
            return rc;
    }
    return msh_end(m, "Elements", count, "elements");
}

/* $Elements, format 4.1: `blocks count min max`, then per block `dim
 * entity type k` and k lines `tag nodes...`. */
static int msh_elements4(msh *m)
{
    char *line;
    uint64_t h[4], f[5];
    int rc = msh_line(m, &line, "Elements");
    if (rc || (rc = msh_ints(m, line, 4, UINT64_MAX, h, "`numEntityBlocks numElements "
                             "minElementTag maxElementTag`")))
        return rc;
    uint64_t done = 0;
    for (uint64_t b = 0; b < h[0]; b++) {
        uint64_t e[4];
        if ((rc = msh_line(m, &line, "Elements")) ||
            (rc = msh_ints(m, line, 4, UINT64_MAX, e, "an element block `entityDim entityTag "
                           "elementType numElementsInBlock`")))
            return rc;
        uint32_t k = element_nodes(e[2]);
        if (!k)
            return unsupported_type(m, e[2]);
        if (e[3] > h[1] - done)
            return mpp_lines_error(m->r, mpp_lines_number(m->r),
                                   "element block of %" PRIu64 " elements: more than "
                                   "the %" PRIu64 " elements $Elements announces",
                                   e[3], h[1]);
        for (uint64_t i = 0; i < e[3]; i++) {
            if ((rc = msh_line(m, &line, "Elements")))
                return rc;
            if (line[0] == '$')
                return mpp_lines_error(m->r, mpp_lines_number(m->r),
                                       "found %.40s after %" PRIu64 " of the %" PRIu64
                                       " elements of the block",
                                       line, i, e[3]);
            if ((rc = msh_ints(m, line, 1 + k, UINT64_MAX, f, "an element `tag nodes...`")) ||
                (rc = msh_element(m, f[0], e[2], f + 1)))
                return rc;
        }
        done += e[3];
    }
    if (done != h[1])
        return mpp_lines_error(m->r, mpp_lines_number(m->r),
                               "the element blocks hold %" PRIu64 " elements, "
                               "$Elements announces %" PRIu64,
                               done, h[1]);
    return msh_end(m, "Elements", h[1], "elements");
}

/* Turn the edge keys into compressed rows (see the file comment). */
static int build_csr(msh *m, mpp_partition_graph *g)
{
    uint64_t *key = m->edges.a;
    size_t ne = 0;
    if (m->edges.len)
        qsort(key, m->edges.len, sizeof *key, cmp_u64);
    for (size_t i = 0; i < m->edges.len; i++)
        if (!ne || key[ne - 1] != key[i])
            key[ne++] = key[i];
    if (ne > UINT32_MAX / 2 - 1)
        return mpp_err_set(mpp_lines_err(m->r), MPP_EFORMAT, "%s: too many edges (%zu)",
                           mpp_lines_path(m->r), ne);
    g->n = m->n;
    g->edges = (uint32_t)ne;
    g->xadj = calloc((size_t)m->n + 1, sizeof *g->xadj);
    g->adj = malloc((ne ? 2 * ne : 1) * sizeof *g->adj);
    if (!g->xadj || !g->adj) {
        mpp_partition_graph_free(g);
        return mpp_err_set(mpp_lines_err(m->r), MPP_ENOMEM, "%s: out of memory",
                           mpp_lines_path(m->r));
    }
    for (size_t i = 0; i < ne; i++) {
        g->xadj[(key[i] >> 32) + 1]++;
        g->xadj[(uint32_t)key[i] + 1]++;
    }
    for (uint32_t v = 0; v < m->n; v++)
        g->xadj[v + 1] += g->xadj[v];
    uint32_t *fill = malloc(((size_t)m->n + 1) * sizeof *fill);
    if (!fill) {
        mpp_partition_graph_free(g);
        return mpp_err_set(mpp_lines_err(m->r), MPP_ENOMEM, "%s: out of memory",
                           mpp_lines_path(m->r));
    }
    memcpy(fill, g->xadj, (size_t)m->n * sizeof *fill);
    for (size_t i = 0; i < ne; i++) {
        uint32_t a = (uint32_t)(key[i] >> 32), b = (uint32_t)key[i];
        g->adj[fill[a]++] = b;
        g->adj[fill[b]++] = a;
    }
    free(fill);
    return 0;
}

/* Hand the kept elements over to out (see the file comment). */
static int take_elements(msh *m, mpp_partition_mesh *out)
{
    if (vec_reserve(&m->efirst, 1))
        return mpp_err_set(mpp_lines_err(m->r), MPP_ENOMEM, "%s: out of memory",
                           mpp_lines_path(m->r));
    out->nverts = m->n;
    out->nelems = (uint32_t)m->efirst.len;
    ((uint32_t *)m->efirst.a)[m->efirst.len++] = (uint32_t)m->everts.len;
    out->first = m->efirst.a;
    out->vert = m->everts.a;
    m->efirst.a = m->everts.a = NULL;
    return 0;
}

/* gmsh mesh: r has just returned the `$MeshFormat` line. Builds the graph
 * into g and / or keeps the elements in mesh (either may be NULL). */
static int read_msh(mpp_lines *r, mpp_partition_graph *g, mpp_partition_mesh *mesh)
{
    msh m = {.r = r, .want_graph = g != NULL, .want_elements = mesh != NULL,
             .edges = {.elem = sizeof(uint64_t)}, .efirst = {.elem = sizeof(uint32_t)},
             .everts = {.elem = sizeof(uint32_t)}};
    char *line, *s, *tok;
    int rc = msh_line(&m, &line, "MeshFormat");
    if (rc)
        goto done;
    s = line;
    if (!next_tok(&s, &tok)) {
        rc = mpp_lines_error(r, mpp_lines_number(r),
                             "expected `version file-type data-size`, found an empty line");
        goto done;
    }
    if (!strcmp(tok, "4.1")) {
        m.v4 = 1;
    } else if (strcmp(tok, "2.2") && strcmp(tok, "2.1") && strcmp(tok, "2") &&
               strcmp(tok, "2.0")) {
        rc = mpp_lines_error(r, mpp_lines_number(r),
                             "gmsh format version %.20s is not supported: mppnet reads "
                             "versions 2.2 and 4.1 (gmsh -format msh22 or msh41)",
                             tok);
        goto done;
    }
    if (!next_tok(&s, &tok) || strcmp(tok, "0")) {
        rc = mpp_lines_error(r, mpp_lines_number(r),
                             "expected file-type 0 (ASCII): binary meshes are not supported "
                             "(gmsh -bin 0, Mesh.Binary = 0)");
        goto done;
    }
    if ((rc = msh_end(&m, "MeshFormat", 1, "format lines")))
        goto done;
    int nodes = 0, elements = 0;
    while ((rc = next_line(r, &line)) == 1) {
        if (!line[0])
            continue;
        if (!strcmp(line, "$Nodes")) {
            if (nodes) {
                rc = mpp_lines_error(r, mpp_lines_number(r), "a second $Nodes section");
                goto done;
            }
            nodes = 1;
            uint64_t at = mpp_lines_number(r);
            if ((rc = m.v4 ? msh_nodes4(&m) : msh_nodes2(&m)) || (rc = msh_index_nodes(&m, at)))
                goto done;
        } else if (!strcmp(line, "$Elements")) {
            if (!nodes || elements) {
                rc = mpp_lines_error(r, mpp_lines_number(r),
                                     nodes ? "a second $Elements section"
                                           : "$Elements before $Nodes");
                goto done;
            }
            elements = 1;
            if ((rc = m.v4 ? msh_elements4(&m) : msh_elements2(&m)))
                goto done;
        } else if (line[0] == '$' && strncmp(line, "$End", 4)) {
            char name[64], end[80];
            snprintf(name, sizeof name, "%s", line + 1);
            snprintf(end, sizeof end, "$End%s", name);
            uint64_t at = mpp_lines_number(r);
            while ((rc = next_line(r, &line)) == 1 && strcmp(line, end))
                ;
            if (rc < 0)
                goto done;
            if (rc == 0) {
                rc = mpp_lines_error(r, at,
                                     "section $%s is not closed (no %s before the end of the "
                                     "file)",
                                     name, end);
                goto done;
            }
        } else {
            rc = mpp_lines_error(r, mpp_lines_number(r),
                                 "expected a section ($Nodes, $Elements, ...), found '%.40s'",
                                 line);
            goto done;
        }
    }
    if (rc < 0)
        goto done;
    if (!nodes || !elements) {
        rc = mpp_lines_error(r, mpp_lines_number(r) + 1, "the mesh has no $%s section (truncated?)",
                             nodes ? "Elements" : "Nodes");
        goto done;
    }
    if (!m.elements2d) {
        rc = mpp_lines_error(r, mpp_lines_number(r),
                             "the mesh has no triangles (2) or quadrangles (3): mesh it in "
                             "2D (gmsh -2)");
        goto done;
    }
    if (g)
        rc = build_csr(&m, g);
    if (!rc && mesh)
        rc = take_elements(&m, mesh);
    if (rc && g)
        mpp_partition_graph_free(g);
done:
    free(m.tags);
    free(m.sorted);
    free(m.edges.a);
    free(m.efirst.a);
    free(m.everts.a);
    return rc;
}

/* Read the graph (g) or the mesh with its elements (mesh, a gmsh file
 * only) at path: its format told by its first line that is neither empty
 * nor a comment. */
static int read_file(const char *path, mpp_partition_graph *g, mpp_partition_mesh *mesh,
                     mpp_err *err)
{
    mpp_lines *r;
    int rc = mpp_lines_open(&r, path, 0, err);
    if (rc)
        return rc;
    char *line;
    while ((rc = next_line(r, &line)) == 1 && (!line[0] || line[0] == '%'))
        ;
    if (rc == 0)
        rc = mpp_lines_error(r, mpp_lines_number(r) + 1,
                             mesh ? "empty file: expected a gmsh mesh ($MeshFormat)"
                                  : "empty file: expected a METIS graph header `n m [fmt]` or "
                                    "a gmsh mesh ($MeshFormat)");
    else if (rc == 1 && !strcmp(line, "$MeshFormat"))
        rc = read_msh(r, g, mesh);
    else if (rc == 1 && mesh)
        rc = mpp_lines_error(r, mpp_lines_number(r),
                             "expected a gmsh mesh ($MeshFormat), found '%.40s' (a METIS "
                             "graph has no elements)",
                             line);
    else if (rc == 1)
        rc = read_metis(r, line, g);
    mpp_lines_close(r);
    return rc;
}

int mpp_partition_read_graph(const char *path, mpp_partition_graph *g, mpp_err *err)
{
    memset(g, 0, sizeof *g);
    int rc = read_file(path, g, NULL, err);
    if (rc)
        memset(g, 0, sizeof *g);
    assert(rc || mpp_partition_graph_check(g));
    return rc;
}

/* ---- meshes with their elements --------------------------------------------- */

void mpp_partition_mesh_free(mpp_partition_mesh *m)
{
    if (!m)
        return;
    free(m->first);
    free(m->vert);
    memset(m, 0, sizeof *m);
}

bool mpp_partition_mesh_check(const mpp_partition_mesh *m)
{
    if (!m->first || !m->vert || m->first[0] != 0)
        return false;
    for (uint32_t e = 0; e < m->nelems; e++) {
        uint32_t a = m->first[e], b = m->first[e + 1];
        if (b < a || b - a < 3 || b - a > 4)
            return false;
        for (uint32_t i = a; i < b; i++) {
            if (m->vert[i] >= m->nverts)
                return false;
            for (uint32_t j = i + 1; j < b; j++)
                if (m->vert[i] == m->vert[j])
                    return false;
        }
    }
    return true;
}

int mpp_partition_read_mesh(const char *path, mpp_partition_mesh *mesh, mpp_err *err)
{
    memset(mesh, 0, sizeof *mesh);
    int rc = read_file(path, NULL, mesh, err);
    if (rc)
        memset(mesh, 0, sizeof *mesh);
    assert(rc || mpp_partition_mesh_check(mesh));
    return rc;
}

int mpp_partition_grid_mesh(uint32_t R, uint32_t C, mpp_partition_mesh *mesh, mpp_err *err)
{
    memset(mesh, 0, sizeof *mesh);
    if (R < 2 || C < 2 || (uint64_t)R * C > MPP_PARTITION_GRID_MAX)
        return mpp_err_set(err, MPP_EINVAL,
                           "grid %" PRIu32 "x%" PRIu32 ": expected at least 2 x 2 and at most "
                           "%" PRIu64 " vertices",
                           R, C, (uint64_t)MPP_PARTITION_GRID_MAX);
    uint32_t ne = (R - 1) * (C - 1);
    mesh->first = malloc(((size_t)ne + 1) * sizeof *mesh->first);
    mesh->vert = malloc((size_t)ne * 4 * sizeof *mesh->vert);
    if (!mesh->first || !mesh->vert) {
        mpp_partition_mesh_free(mesh);
        return mpp_err_set(err, MPP_ENOMEM, "grid %" PRIu32 "x%" PRIu32 ": out of memory", R,
                           C);
    }
    mesh->nverts = R * C;
    mesh->nelems = ne;
    uint32_t e = 0;
    for (uint32_t r = 0; r + 1 < R; r++)
        for (uint32_t c = 0; c + 1 < C; c++, e++) {
            uint32_t v = r * C + c, *q = mesh->vert + (size_t)e * 4;
            mesh->first[e] = e * 4;
            q[0] = v;
            q[1] = v + 1;
            q[2] = v + C + 1;
            q[3] = v + C;
        }
    mesh->first[ne] = ne * 4;
    assert(mpp_partition_mesh_check(mesh));
    return 0;
}

/* ---- partitions ------------------------------------------------------------- */

bool mpp_partition_have_metis(void)
{
#ifdef MPP_HAVE_METIS
    return true;
#else
    return false;
#endif
}

#define MPP_STR2(x) #x
#define MPP_STR(x) MPP_STR2(x)

const char *mpp_partition_metis_version(void)
{
#ifdef MPP_HAVE_METIS
    return MPP_STR(METIS_VER_MAJOR) "." MPP_STR(METIS_VER_MINOR) "." MPP_STR(METIS_VER_SUBMINOR);
#else
    return "none";
#endif
}

int mpp_partition_metis(const mpp_partition_graph *g, uint32_t nparts, uint32_t *part,
                        mpp_err *err)
{
    if (nparts == 0 || nparts > g->n)
        return mpp_err_set(err, MPP_EINVAL, "cannot cut %" PRIu32 " vertices into %" PRIu32
                           " parts (need 1 .. %" PRIu32 " parts)", g->n, nparts, g->n);
    if (nparts == 1) {
        memset(part, 0, (size_t)g->n * sizeof *part);
        return 0;
    }
#ifndef MPP_HAVE_METIS
    return mpp_err_set(err, MPP_EINVAL, "mppnet was built without METIS (install libmetis-dev "
                       "and reconfigure)");
#else
    if ((uint64_t)g->xadj[g->n] > (uint64_t)IDX_MAX || (uint64_t)g->n > (uint64_t)IDX_MAX)
        return mpp_err_set(err, MPP_EINVAL, "the graph is too large for this METIS build");
    int rc = 0;
    idx_t nv = (idx_t)g->n, ncon = 1, np = (idx_t)nparts, objval = 0;
    idx_t *xadj = malloc(((size_t)g->n + 1) * sizeof *xadj);
    idx_t *adjncy = malloc(((size_t)g->xadj[g->n] + 1) * sizeof *adjncy);
    idx_t *where = malloc((size_t)g->n * sizeof *where);
    if (!xadj || !adjncy || !where) {
        rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
        goto done;
    }
    for (uint32_t v = 0; v <= g->n; v++)
        xadj[v] = (idx_t)g->xadj[v];
    for (uint32_t k = 0; k < g->xadj[g->n]; k++)
        adjncy[k] = (idx_t)g->adj[k];
    idx_t opt[METIS_NOPTIONS];
    METIS_SetDefaultOptions(opt);
    opt[METIS_OPTION_NUMBERING] = 0;
    int mrc = METIS_PartGraphKway(&nv, &ncon, xadj, adjncy, NULL, NULL, NULL, &np, NULL, NULL,
                                  opt, &objval, where);
    if (mrc != METIS_OK) {
        rc = mpp_err_set(err, mrc == METIS_ERROR_MEMORY ? MPP_ENOMEM : MPP_ERUN,
                         "METIS_PartGraphKway failed (%s)",
                         mrc == METIS_ERROR_MEMORY ? "out of memory"
                         : mrc == METIS_ERROR_INPUT ? "bad input" : "error");
        goto done;
    }
    for (uint32_t v = 0; v < g->n; v++) {
        if (where[v] < 0 || where[v] >= np) {
            rc = mpp_err_set(err, MPP_ERUN, "METIS put vertex %" PRIu32 " in part %ld, outside "
                             "0 .. %" PRIu32, v, (long)where[v], nparts - 1);
            goto done;
        }
        part[v] = (uint32_t)where[v];
    }
done:
    free(xadj);
    free(adjncy);
    free(where);
    return rc;
#endif
}

int mpp_partition_read_parts(const char *path, uint32_t n, uint32_t nparts, uint32_t *part,
                             mpp_err *err)
{
    mpp_lines *r;
    int rc = mpp_lines_open(&r, path, 0, err);
    if (rc)
        return rc;
    static char none[] = "";
    char *line, *s, *tok = none; /* (a trimmed non-empty line always has a token) */
    uint32_t v = 0;
    uint64_t p;
    while ((rc = next_line(r, &line)) == 1) {
        s = line;
        if (!line[0]) {
            if (v < n) {
                rc = mpp_lines_error(r, mpp_lines_number(r),
                                     "expected the part of vertex %" PRIu32 ", found an empty "
                                     "line",
                                     v + 1);
                break;
            }
            continue;
        }
        if (v == n) {
            rc = mpp_lines_error(r, mpp_lines_number(r),
                                 "more part numbers than the %" PRIu32 " vertices of the graph", n);
            break;
        }
        int t = next_u64(&s, UINT32_MAX, &p, &tok);
        if (t != U_OK || p >= nparts) {
            rc = mpp_lines_error(r, mpp_lines_number(r),
                                 "vertex %" PRIu32 ": '%s' is not a part number 0 .. %" PRIu32,
                                 v + 1, tok, nparts - 1);
            break;
        }
        if (next_tok(&s, &tok)) {
            rc = mpp_lines_error(r, mpp_lines_number(r),
                                 "expected one part number per line, found more ('%s')", tok);
            break;
        }
        part[v++] = (uint32_t)p;
    }
    if (rc == 0 && v < n)
        rc = mpp_lines_error(r, mpp_lines_number(r) + 1,
                             "the file ends after %" PRIu32 " part numbers, the graph has %" PRIu32
                             " vertices",
                             v, n);
    mpp_lines_close(r);
    return rc < 0 ? rc : 0;
}

int mpp_partition_write_parts(const char *path, uint32_t n, const uint32_t *part, mpp_err *err)
{
    mpp_sb text;
    mpp_sb_init(&text);
    for (uint32_t v = 0; v < n; v++)
        mpp_sb_printf(&text, "%" PRIu32 "\n", part[v]);
    int rc = mpp_lines_write(path, &text, err);
    mpp_sb_free(&text);
    return rc;
}

uint64_t mpp_partition_edge_cut(const mpp_partition_graph *g, const uint32_t *part)
{
    uint64_t cut = 0;
    for (uint32_t v = 0; v < g->n; v++)
        for (uint32_t k = g->xadj[v]; k < g->xadj[v + 1]; k++)
            if (g->adj[k] > v && part[g->adj[k]] != part[v])
                cut++;
    return cut;
}

int mpp_partition_com(const mpp_partition_graph *g, uint32_t nparts, const uint32_t *part,
                      mpp_com *c, mpp_err *err)
{
    for (uint32_t v = 0; v < g->n; v++)
        if (part[v] >= nparts) {
            memset(c, 0, sizeof *c);
            return mpp_err_set(err, MPP_EINVAL, "vertex %" PRIu32 " is in part %" PRIu32
                               ", but there are %" PRIu32 " parts", v + 1, part[v], nparts);
        }
    int rc = mpp_com_init(c, nparts, 1, err);
    if (rc)
        return rc;
    uint32_t *seen = malloc((size_t)nparts * sizeof *seen);
    if (!seen)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    for (uint32_t q = 0; q < nparts; q++)
        seen[q] = UINT32_MAX;
    for (uint32_t v = 0; v < g->n && !rc; v++)
        for (uint32_t k = g->xadj[v]; k < g->xadj[v + 1] && !rc; k++) {
            uint32_t q = part[g->adj[k]];
            if (q != part[v] && seen[q] != v) {
                seen[q] = v;
                rc = mpp_com_add(c, part[v], q, 1, err);
            }
        }
    free(seen);
    if (rc) {
        mpp_com_free(c);
        return rc;
    }
    mpp_com_finish(c);
    assert(mpp_com_check(c));
    return 0;
}

/* ---- the summary ------------------------------------------------------------ */

int mpp_partition_summarize(const mpp_partition_graph *g, uint32_t nparts, const uint32_t *part,
                            const mpp_com *c, mpp_partition_summary *out, mpp_err *err)
{
    memset(out, 0, sizeof *out);
    if (nparts == 0 || c->n != nparts)
        return mpp_err_set(err, MPP_EINVAL, "a COM of %" PRIu32 " processors for %" PRIu32
                           " parts", c->n, nparts);
    for (uint32_t v = 0; v < g->n; v++)
        if (part[v] >= nparts)
            return mpp_err_set(err, MPP_EINVAL, "vertex %" PRIu32 " is in part %" PRIu32
                               ", but there are %" PRIu32 " parts", v + 1, part[v], nparts);
    uint32_t *size = calloc(nparts, sizeof *size);
    uint32_t *row = calloc(nparts, sizeof *row);
    uint32_t *col = calloc(nparts, sizeof *col);
    if (!size || !row || !col) {
        free(size);
        free(row);
        free(col);
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    }
    for (uint32_t v = 0; v < g->n; v++)
        size[part[v]]++;
    mpp_com_degrees(c, row, col);
    mpp_partition_summary s = {
        .size_min = UINT32_MAX, .msgs_min = UINT32_MAX, .len_min = c->nnz ? UINT64_MAX : 0};
    for (uint32_t p = 0; p < nparts; p++) {
        s.size_min = size[p] < s.size_min ? size[p] : s.size_min;
        s.size_max = size[p] > s.size_max ? size[p] : s.size_max;
        s.msgs_min = row[p] < s.msgs_min ? row[p] : s.msgs_min;
        s.msgs_max = row[p] > s.msgs_max ? row[p] : s.msgs_max;
    }
    for (uint32_t k = 0; k < c->nnz; k++) {
        s.len_min = c->e[k].units < s.len_min ? c->e[k].units : s.len_min;
        s.len_max = c->e[k].units > s.len_max ? c->e[k].units : s.len_max;
        s.len_sum += c->e[k].units;
    }
    s.edge_cut = mpp_partition_edge_cut(g, part);
    free(size);
    free(row);
    free(col);
    *out = s;
    return 0;
}
