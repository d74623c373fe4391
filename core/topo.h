/* core/topo.h — the topology description the engine builds its channels
 * from, and the ops table of the topology plug-in family (mpp_topo_*).
 *
 * The engine defines the type; the plug-ins (topologies/, registered in
 * topologies/registry.c) implement it. A topology plug-in builds an mpp_topo: the routers, their ports and how
 * every port is wired, the processing nodes and the links by which each node
 * attaches to routers, and the minimal distance between two nodes. The engine
 * (core/network.c) turns this description into channels; routing plug-ins
 * read it (coordinates in dims[], port conventions documented per topology).
 *
 * Port numbering: router r owns global ports port_base[r] .. port_base[r+1]-1;
 * local port p of router r is global port port_base[r] + p. Each global port
 * is both an input and an output (links are pairs of unidirectional
 * channels). port_peer[g] says what the port is wired to:
 *   - another router's global port (a value < MPP_TOPO_NODE),
 *   - MPP_TOPO_NODE | l: node link l (the link's node injects into this port
 *     and this port ejects into the node),
 *   - MPP_TOPO_NONE: unconnected (e.g. the edges of a mesh).
 * Node n owns links node_link_base[n] .. node_link_base[n+1]-1; link l is
 * attached to router global port link_port[l].
 *
 * All-port on a direct network (node.ports: all on a mesh or hypercube,
 * whose nodes each have one link): mpp_topo_all_port gives each node one
 * link per router-router port of its router. Link 0 stays on the
 * plug-in's local port; links 1..k-1 attach to local ports the engine
 * appends after the plug-in's (plugin_ports[r] of them come first). Link j
 * is paired with the j-th router-router port of the router, in local port
 * order (pair_link): a packet arriving on that port is ejected on that
 * link, and a packet whose first hop leaves by that port is injected on
 * that link (core/network.c, core/sim.c). Routing plug-ins never see the
 * extra ports: they eject through link 0's port and the engine redirects.
 *
 * Invariants (checked by mpp_topo_check):
 *   1. port_peer is symmetric: peer(peer(g)) == g for router-router ports;
 *   2. link_port[l] has port_peer == MPP_TOPO_NODE | l;
 *   3. every node has at least one link;
 *   4. (all-port) pair_link[g] is NONE or a link of the node attached to
 *      g's router, and only router-router ports are paired.
 */
#ifndef MPP_CORE_TOPO_H
#define MPP_CORE_TOPO_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/err.h"
#include "core/base/param.h"
#include "core/base/strbuf.h"

#define MPP_TOPO_NODE 0x80000000u
#define MPP_TOPO_NONE 0xffffffffu

/* Topology kinds, so routing plug-ins can declare what they support without
 * comparing names. */
typedef enum mpp_topo_kind {
    MPP_TOPO_MESH = 1,
    MPP_TOPO_HYPERCUBE = 2,
    MPP_TOPO_FATTREE = 3,
    MPP_TOPO_KARY = 4,      /* k-ary n-cube (topologies/kary_ncube.c): priv is an mpp_cube */
    MPP_TOPO_BUTTERFLY = 5, /* k-ary n-fly (topologies/butterfly.c) */
    MPP_TOPO_FLATFLY = 6,   /* flattened butterfly (topologies/flatfly.c) */
    MPP_TOPO_DRAGONFLY = 7, /* dragonfly (topologies/dragonfly.c) */
    MPP_TOPO_CMESH = 8,     /* BookSim's concentrated mesh (topologies/cmesh.c) */
    MPP_TOPO_KTREE = 9,     /* BookSim's k-ary n-tree fat tree (topologies/fattree.c) */
    MPP_TOPO_ANYNET = 10    /* a network read from an edge list (topologies/anynet.c) */
} mpp_topo_kind;

/* A flattened butterfly (t->kind == MPP_TOPO_FLATFLY), as BookSim's
 * flatfly: dims[0] = k routers per dimension, dims[1] = n dimensions,
 * dims[2] = c nodes per router; k^n routers, router id = sum of its
 * coordinates' digits x_d * k^d. Local ports 0 .. c-1 attach its nodes;
 * port c + (k-1) d + j leads to the j-th other router of dimension d
 * (coordinates in increasing order, its own skipped), so every router is
 * linked to every other router that differs from it in one coordinate.
 * Node ids follow BookSim's floor plan (topologies/flatfly.c). */

/* A dragonfly (t->kind == MPP_TOPO_DRAGONFLY), as BookSim's dragonflynew:
 * dims[0] = p nodes per router, dims[1] = a routers per group, dims[2] = h
 * global links per router, dims[3] = g = a h + 1 groups. Router id = group
 * a + i, node id = router p + j. Local ports 0 .. p-1 attach the nodes,
 * p .. p+a-2 the other routers of the group (port p + j: router index j,
 * or j + 1 from index i on), p+a-1 .. p+a-2+h the global links: global
 * link m = i h + q of group G (port p+a-1+q of router i) leads to group m
 * when m < G, else m + 1. */

/* A k-ary n-fly (t->kind == MPP_TOPO_BUTTERFLY), as BookSim's `fly`:
 * dims[0] = k, dims[1] = n; k^n terminals (nodes), n stages of k^(n-1)
 * routers. Router id = stage * k^(n-1) + row, rows written in base k with
 * n - 1 digits. Local ports: 0..k-1 backward (stage 0: terminal row*k + j
 * injects on port j), k..2k-1 forward (last stage: port k + j ejects to
 * terminal row*k + j), and on stage 0 and the last stage 2k..3k-1 the
 * re-injection loop: the last stage's port 2k + j is wired to stage 0's
 * port 2k + j of the same row (terminal row*k + j's interface passing a
 * packet straight back in; Valiant's second pass). Forward port k + j of
 * stage s < n - 1, row r, leads to stage s + 1, the row r with base-k digit
 * n - 2 - s replaced by j, arriving on its backward port (that digit of r).
 * Destination tag: at stage s take forward port k + digit (n - 1 - s) of
 * the destination. Each terminal has one split link (link_eject). */

/* The shape of a k-ary n-cube (t->kind == MPP_TOPO_KARY), its private data:
 * k_0 x ... x k_(n-1) routers, one node each, node id = router id =
 * sum coord[d] * stride[d] (dimension 0 varies fastest, as the mesh's
 * columns). Local ports, dimension by dimension from pbase[d]: a dimension
 * of 2 without wrap-around (a binary dimension: one neighbour, one link)
 * has one port, pbase[d]; every other dimension two, pbase[d] = +d and
 * pbase[d] + 1 = -d; the node's port comes last (node_port). So k = [C, R]
 * (C, R >= 3) numbers the ports as the mesh (E W S N node) and
 * k = [2, ..., 2] as the hypercube (dimension d, node). A +d port at
 * coordinate k_d - 1 wraps to coordinate 0 when dimension d is a ring
 * (wrap[d]), else it is unconnected (and so is -d at coordinate 0). */
#define MPP_CUBE_MAXDIM 16

/* The dateline rule of dimension-ordered routing on the rings (the key
 * `dateline`, routers/dor.c): the upper VC class of a phase from the hop
 * after the wrap-around link was crossed (issue 16's rule), or for the
 * whole of a dimension whose route crosses it (BookSim's dim_order_torus). */
#define MPP_CUBE_DATELINE_CROSSING 0
#define MPP_CUBE_DATELINE_DIMENSION 1

typedef struct mpp_cube {
    uint32_t n;                        /* dimensions */
    uint32_t k[MPP_CUBE_MAXDIM];       /* extent of each */
    uint32_t stride[MPP_CUBE_MAXDIM];  /* stride[0] = 1, stride[d+1] = stride[d] * k[d] */
    uint8_t wrap[MPP_CUBE_MAXDIM];     /* dimension d is a ring */
    uint8_t pbase[MPP_CUBE_MAXDIM];    /* first local port of dimension d */
    uint8_t two[MPP_CUBE_MAXDIM];      /* dimension d has a + and a - port */
    uint8_t pdim[2 * MPP_CUBE_MAXDIM]; /* the dimension of local port p < node_port */
    uint8_t node_port;                 /* the node's local port */
    uint8_t descending;                /* dimension order: highest dimension first */
    uint8_t dateline;                  /* the rings' class rule, MPP_CUBE_DATELINE_* */
    uint8_t any_wrap;                  /* some dimension is a ring */
    uint16_t *coord;                   /* [routers * n]: router r's coordinates */
} mpp_cube;

typedef struct mpp_topo_ops mpp_topo_ops;

/* The channel endpoints a network may have: router ports + node links
 * below 2^26, for the network names VC v of endpoint e as e << 6 | v in
 * 32 bits (core/network.h). mpp_topo_size_of refuses a topology above it
 * before anything is built (docs/config.md, "Sizes"). */
#define MPP_TOPO_MAX_ENDPOINTS (1u << 26)

/* What a topology will be, from its configuration alone (ops->size): the
 * counts of mpp_topo and the bytes of the plug-in's private data. 64-bit,
 * so that no configuration the schema accepts can wrap them. */
typedef struct mpp_topo_size {
    uint64_t nodes, routers, ports, links;
    uint64_t priv_bytes;    /* ops->setup's own arrays (a mesh's coordinates) */
    uint64_t split_links;   /* links with a separate eject port (link_eject) */
} mpp_topo_size;

typedef struct mpp_topo {
    const mpp_topo_ops *ops;
    mpp_topo_kind kind;
    uint32_t nodes;         /* processing nodes */
    uint32_t routers;
    uint32_t ports;         /* total router ports */
    uint32_t links;         /* total node links */
    uint32_t max_radix;     /* largest port count of any router */
    uint32_t dims[8];       /* kind-specific shape: mesh {cols, rows};
                               hypercube {n}; fat tree see its file */
    uint32_t *port_base;    /* [routers + 1] */
    uint32_t *port_peer;    /* [ports] */
    uint32_t *port_router;  /* [ports]: the router owning the port */
    uint32_t *node_link_base; /* [nodes + 1] */
    uint32_t *link_port;    /* [links] */
    uint32_t *link_node;    /* [links] */
    uint32_t *node_router;  /* [nodes]: the router of the node's first link (one load
                               where a packet's destination router is needed) */
    /* set by mpp_topo_all_port only (NULL otherwise): */
    uint32_t *pair_link;    /* [ports]: the node link paired with a router-router
                               port, MPP_TOPO_NONE for the other ports */
    uint32_t *plugin_ports; /* [routers]: ports the plug-in declared; the engine's
                               extra local ports follow them */
    void *priv;             /* plug-in data, freed by ops->destroy */
    uint32_t *link_eject;   /* [links] or NULL: a split link (a butterfly's terminal)
                               injects into link_port[l] and ejects from the router
                               port link_eject[l]; both ports have peer NODE | l, the
                               first used as an input only, the second as an output
                               only. NULL: every link injects and ejects at link_port */
    const uint8_t *port_len;/* [ports] or NULL (every link of length 1): the length of the
                               link at each router-router port, in link_latency units
                               (a flattened butterfly's floor plan); both directions
                               and the credits of a link take as long. Owned by the
                               plug-in (freed by ops->destroy) */
} mpp_topo;

/* A topology plug-in (STYLE rule 5). setup fills t from cfg (a struct of
 * schema.size bytes filled from schema); it allocates the arrays with
 * mpp_topo_alloc. distance and port_name must not fail. destroy may be NULL
 * (then priv must be NULL). */
struct mpp_topo_ops {
    const char *name;
    const char *help;
    mpp_schema schema;
    /* Turn the compact command-line form ("8x8" for a mesh, "10" for a
     * hypercube) into "key=value" lines of the plug-in's own keys
     * ("rows=8\ncols=8\n"), appended to out. NULL: no short form. */
    int (*parse_short)(const char *args, struct mpp_sb *out, mpp_err *err);
    int (*setup)(mpp_topo *t, const void *cfg, mpp_err *err);
    /* The counts setup would build, computed from cfg by arithmetic: no
     * allocation, no loop over nodes. Refuses what setup would refuse
     * (same messages) with MPP_EINVAL. Required. */
    int (*size)(const void *cfg, mpp_topo_size *out, mpp_err *err);
    /* Minimal number of inter-router links between nodes a and b. */
    uint32_t (*distance)(const mpp_topo *t, uint32_t a, uint32_t b);
    /* A short name of router r's local port p ("E", "dim3", "up1"). */
    void (*port_name)(const mpp_topo *t, uint32_t r, uint32_t p, char *buf, int len);
    void (*destroy)(mpp_topo *t);
};

/* Allocate the port and link arrays of t for `routers` routers with
 * radix[r] ports each and `nodes` nodes with links_per_node[n] links each
 * (a NULL links_per_node means one link per node). Ports start unconnected.
 * Returns 0 or MPP_ENOMEM. */
int mpp_topo_alloc(mpp_topo *t, uint32_t routers, const uint32_t *radix,
                   uint32_t nodes, const uint32_t *links_per_node, mpp_err *err);

/* Wire router r port p to router q port s (both directions). */
void mpp_topo_connect(mpp_topo *t, uint32_t r, uint32_t p, uint32_t q, uint32_t s);

/* Attach node n's link k to router r port p. */
void mpp_topo_attach(mpp_topo *t, uint32_t n, uint32_t k, uint32_t r, uint32_t p);

/* Split node n's link k: it keeps injecting where mpp_topo_attach put it
 * and ejects from router r port p instead (link_eject). Returns 0 or
 * MPP_ENOMEM. */
int mpp_topo_attach_eject(mpp_topo *t, uint32_t n, uint32_t k, uint32_t r, uint32_t p,
                          mpp_err *err);

/* The size of topology ops with configuration cfg (ops->size), with
 * node.ports: all applied when all_port (an upper bound: every
 * router-router port gets a node link). Refuses, with the counts and the
 * limit, a topology of MPP_TOPO_MAX_ENDPOINTS endpoints or more. Setup
 * and `check`; allocates nothing. */
int mpp_topo_size_of(const mpp_topo_ops *ops, const void *cfg, bool all_port,
                     mpp_topo_size *out, mpp_err *err);

/* The bytes the topology of size sz takes once built (mpp_topo_alloc's
 * arrays, setup's temporary radix table and the plug-in's data). */
uint64_t mpp_topo_bytes(const mpp_topo_size *sz);

/* Build the topology ops->name with configuration cfg into t. On failure t
 * holds nothing. */
int mpp_topo_build(mpp_topo *t, const mpp_topo_ops *ops, const void *cfg, mpp_err *err);

/* Release everything t owns. Safe on a zeroed or already-freed t. */
void mpp_topo_free(mpp_topo *t);

/* Check the wiring invariants above; true when they hold. */
bool mpp_topo_check(const mpp_topo *t);

/* True when some node of t has more than one link. */
bool mpp_topo_multi_link(const mpp_topo *t);

/* node.ports: all on a direct network: rebuild t so that every node has
 * one link per router-router port of its router, link j paired with the
 * j-th such port (see above). t must have one link per node and at most
 * one node per router. Fails with MPP_EINVAL (naming the topology, t left
 * as it was) when no node would get more than one link (a hypercube of
 * dimension 1, a 1x2 mesh), or when t is not such a network; MPP_ENOMEM.
 * Setup only. */
int mpp_topo_all_port(mpp_topo *t, mpp_err *err);

/* The name of router r's local port p: the plug-in's (ops->port_name), or
 * "linkJ" for the engine's all-port port of the node's link J. */
void mpp_topo_port_name(const mpp_topo *t, uint32_t r, uint32_t p, char *buf, int len);

/* A mesh's router r as col | row << 16 (topologies/mesh.c keeps the
 * table as its private data: a routing step reads two entries instead of
 * dividing by the width). t must be a mesh. */
static inline uint32_t mpp_mesh_coord(const mpp_topo *t, uint32_t r)
{
    return ((const uint32_t *)t->priv)[r];
}

/* A k-ary n-cube's shape (t->kind must be MPP_TOPO_KARY). */
static inline const mpp_cube *mpp_topo_cube(const mpp_topo *t)
{
    return (const mpp_cube *)t->priv;
}

/* Global port of router r's local port p. */
static inline uint32_t mpp_topo_gport(const mpp_topo *t, uint32_t r, uint32_t p)
{
    return t->port_base[r] + p;
}

#endif
