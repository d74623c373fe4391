/* traces/partition.h — the mesh-partition generator (mpp_partition_*): a
 * graph read from a METIS graph file or a gmsh 2D mesh, cut into n parts
 * (METIS k-way, or a partition file), and the ghost-exchange COM of the
 * parts: COM(i, j) = the number of vertices owned by i that are adjacent to
 * at least one vertex owned by j (what part i must send part j so that j
 * holds a copy of each of its ghost vertices), msg_unit 1.
 *
 * The same gmsh reader also yields the mesh itself, its elements' vertex
 * lists (mpp_partition_read_mesh: the unstructured-grid collectives,
 * algorithms/coll_grid.c), and a generated R x C grid of quadrangles stands
 * in for a file (mpp_partition_grid_mesh).
 *
 * Files (docs/formats.md), plain or gzip-compressed (zlib reads both):
 *   - METIS graph files (`n m [fmt]`, then one line of 1-based neighbours
 *     per vertex; unweighted graphs only, fmt 0);
 *   - gmsh meshes, ASCII, versions 2.2 and 4.1: the graph's vertices are the
 *     mesh nodes (in file order), its edges the edges of the triangles
 *     (type 2) and quadrangles (type 3); points (15) and lines (1) are read
 *     and ignored;
 *   - partition files (METIS `.part`): one 0-based part number per line,
 *     one line per vertex.
 * The format of a graph file is told by its content (a mesh starts with
 * `$MeshFormat`), not its name. Malformed input fails with MPP_EFORMAT and a
 * message "FILE:LINE: what is wrong"; files that cannot be opened or read
 * fail with MPP_EIO. Nothing here prints. Not on the hot path. */
#ifndef MPP_TRACES_PARTITION_H
#define MPP_TRACES_PARTITION_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/err.h"
#include "traces/com.h"

/* An undirected graph in compressed rows (the layout METIS takes). The
 * neighbours of v are adj[xadj[v] .. xadj[v + 1]), 0-based, sorted, without
 * duplicates or v itself, and u lists v whenever v lists u
 * (mpp_partition_graph_check). */
typedef struct mpp_partition_graph {
    uint32_t n;          /* vertices */
    uint32_t edges;      /* undirected edges (xadj[n] == 2 * edges) */
    uint32_t *xadj;      /* [n + 1] */
    uint32_t *adj;       /* [2 * edges] */
} mpp_partition_graph;

/* Read a METIS graph file or a gmsh mesh (plain or gzip) into g, which the
 * caller frees with mpp_partition_graph_free. On failure g holds nothing.
 * MPP_EIO (cannot open or read), MPP_EFORMAT ("FILE:LINE: ..."),
 * MPP_ENOMEM. */
int mpp_partition_read_graph(const char *path, mpp_partition_graph *g, mpp_err *err);

/* Free what g owns and empty it; a zeroed g is a no-op. */
void mpp_partition_graph_free(mpp_partition_graph *g);

/* The invariants above; true when they hold (for assert). */
bool mpp_partition_graph_check(const mpp_partition_graph *g);

/* A 2D mesh with its elements (the triangles and quadrangles of a gmsh
 * mesh, or a generated grid): element e's vertices are vert[first[e] ..
 * first[e + 1]), 3 or 4 of them, distinct, 0-based (the mesh nodes in file
 * order, as in the graph), in the element's own node order (gmsh:
 * counter-clockwise for a mesh gmsh wrote). The elements are numbered in
 * file order; points and lines are not elements here. */
typedef struct mpp_partition_mesh {
    uint32_t nverts;     /* vertices */
    uint32_t nelems;     /* elements */
    uint32_t *first;     /* [nelems + 1], first[0] == 0 */
    uint32_t *vert;      /* [first[nelems]] */
} mpp_partition_mesh;

/* The most vertices of a generated grid. */
#define MPP_PARTITION_GRID_MAX (UINT64_C(1) << 24)

/* Read a gmsh mesh (2.2 or 4.1, plain or gzip; the same parser as
 * mpp_partition_read_graph) into m, keeping its elements; the caller frees
 * m with mpp_partition_mesh_free. A METIS graph file is refused (it has no
 * elements). On failure m holds nothing. MPP_EIO, MPP_EFORMAT ("FILE:LINE:
 * ..."), MPP_ENOMEM. */
int mpp_partition_read_mesh(const char *path, mpp_partition_mesh *m, mpp_err *err);

/* The R x C grid: vertex r C + c (row-major) for 0 <= r < R, 0 <= c < C,
 * and the (R - 1)(C - 1) unit squares as quadrangles, row-major by their
 * top-left vertex (r, c), each with the vertices (r, c), (r, c + 1), (r + 1,
 * c + 1), (r + 1, c): counter-clockwise with rows growing upwards, and the
 * first vertex the square's lowest-numbered one. MPP_EINVAL when R or C is
 * below 2 or R C above MPP_PARTITION_GRID_MAX; MPP_ENOMEM. */
int mpp_partition_grid_mesh(uint32_t R, uint32_t C, mpp_partition_mesh *m, mpp_err *err);

/* Free what m owns and empty it; NULL or a zeroed m is a no-op. */
void mpp_partition_mesh_free(mpp_partition_mesh *m);

/* The invariants above; true when they hold (for assert). */
bool mpp_partition_mesh_check(const mpp_partition_mesh *m);

/* True when mppnet was built with METIS (meson feature `metis`). */
bool mpp_partition_have_metis(void);

/* The METIS version this build uses ("5.1.0"), or "none". Static storage. */
const char *mpp_partition_metis_version(void);

/* Partition g into nparts parts with METIS_PartGraphKway (default options:
 * minimum edge cut, METIS's fixed default seed, so a run is reproducible
 * with the same METIS version), writing the part of each vertex to
 * part[0 .. n). nparts == 1 puts everything in part 0 without METIS.
 * MPP_EINVAL when nparts is 0 or more than n, or when built without METIS;
 * MPP_ERUN when METIS fails; MPP_ENOMEM. */
int mpp_partition_metis(const mpp_partition_graph *g, uint32_t nparts, uint32_t *part,
                        mpp_err *err);

/* Read a partition file of exactly n lines into part[0 .. n); every part
 * number must be below nparts. MPP_EIO, MPP_EFORMAT ("FILE:LINE: ..."). */
int mpp_partition_read_parts(const char *path, uint32_t n, uint32_t nparts, uint32_t *part,
                             mpp_err *err);

/* Write part[0 .. n) as a partition file, gzip-compressed (level 9, no name
 * or time stamp) when path ends in ".gz". Atomic: the file is complete or
 * absent. MPP_EIO. */
int mpp_partition_write_parts(const char *path, uint32_t n, const uint32_t *part, mpp_err *err);

/* The edges of g whose ends lie in different parts. */
uint64_t mpp_partition_edge_cut(const mpp_partition_graph *g, const uint32_t *part);

/* Build the ghost-exchange COM of g cut by part[] (each < nparts) into c
 * (initialised here; the caller frees it with mpp_com_free): COM(i, j) =
 * |{v : part[v] = i, some neighbour u of v has part[u] = j}| for i != j,
 * msg_unit 1. On failure c holds nothing. MPP_EINVAL (nparts 0 or a part
 * out of range), MPP_ENOMEM. */
int mpp_partition_com(const mpp_partition_graph *g, uint32_t nparts, const uint32_t *part,
                      mpp_com *c, mpp_err *err);

/* What a partition of g into nparts parts and its COM c (as made by
 * mpp_partition_com) amount to; what `mppnet com partition` reports. */
typedef struct mpp_partition_summary {
    uint32_t size_min, size_max;   /* vertices per part */
    uint64_t edge_cut;             /* mpp_partition_edge_cut */
    uint32_t msgs_min, msgs_max;   /* messages (COM entries) a part sends */
    uint64_t len_min, len_max;     /* message lengths in vertices (0 without messages) */
    uint64_t len_sum;              /* vertices sent in all */
} mpp_partition_summary;

/* Summarize part[0 .. g->n) (each < nparts) and its COM c (c->n ==
 * nparts) into *out. MPP_EINVAL (a part out of range, c of another size),
 * MPP_ENOMEM; *out is zeroed then. */
int mpp_partition_summarize(const mpp_partition_graph *g, uint32_t nparts, const uint32_t *part,
                            const mpp_com *c, mpp_partition_summary *out, mpp_err *err);

#endif
