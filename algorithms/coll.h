/* algorithms/coll.h — collective communication (mpp_coll_*): the plug-in
 * family of collectives (Johnsson 1995; Johnsson and Ho 1989; docs/
 * collectives.md), the plan every collective writes into, and the
 * spanning-tree helpers they share.
 *
 * A collective runs on GROUPS of processors: the whole machine, or every
 * row or every column of an R x C processor array mapped row-major onto the
 * node ids (the LU pivot pattern: concurrent broadcasts). A group of g
 * processors has member indices 0 .. g-1 (its "cube addresses" when g is a
 * power of two) mapped to node ids; the root of a rooted collective is a
 * member index.
 *
 * Data. What the collective moves is cut into ITEMS, each of a size in
 * bytes and with an origin member (a piece of the broadcast message, the
 * block node i sends node j, ...). A plan counts the messages and bytes,
 * builds the node programs and, when asked, keeps every member's holdings
 * (a bitset over the items of its group) so that tests can check that every
 * node ends with exactly the data it must have.
 *
 * Steps. As in the s-to-p broadcasts (algorithms/bcast.h), a plan is a
 * sequence of STEPS; in a step each processor posts its receives (IRECV),
 * makes its sends (SEND with the sync paradigm, else ISEND), and waits
 * (WAIT). There is no barrier: a processor goes on as soon as its own
 * transfers of the step are done, so a tree pipelines by itself (a node
 * receives piece k + 1 in the step in which it forwards piece k). A message
 * may carry only items its sender held at the START of the step; holdings
 * are applied at the end. Every step has its own tag.
 *
 * Trees (mpp_coll_flow). A tree collective gives, for every item, the
 * edges it crosses (parent -> child down a broadcast tree, child -> parent
 * up a gather tree, ...); the flow scheduler then sends on every edge, in
 * every step, the items its sender already holds, in item order, up to
 * `chunk` bytes per message (chunk 0: everything available, i.e. store and
 * forward of whole messages). The edges of a node are served in the order
 * they were added.
 *
 *   plan_init --> [step_begin --> send ... --> step_end]* ---> programs
 *            \--> flow_add ... --> flow_run (writes the steps) --/
 */
#ifndef MPP_ALGORITHMS_COLL_H
#define MPP_ALGORITHMS_COLL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/err.h"
#include "core/base/param.h"
#include "core/packet.h"
#include "core/program.h"

/* Tags: the step number (the top bit is free for the application). */
#define MPP_COLL_TAG_MAX 0x3fffffffu

/* The most items a plan keeps holdings for (members x items of a group, per
 * group) and the most messages a plan may send: larger requests are refused
 * (MPP_EINVAL) before anything large is allocated. */
#define MPP_COLL_MAX_TRACK (UINT64_C(1) << 26)
#define MPP_COLL_MAX_MSGS (UINT64_C(1) << 24)
#define MPP_COLL_MAX_ENTRIES (UINT64_C(1) << 26)

enum {
    MPP_COLL_PROGRAMS = 1u << 0, /* build node programs */
    MPP_COLL_TRACK = 1u << 1     /* keep holdings (refused above MPP_COLL_MAX_TRACK) */
};

/* One group: g members, member m is node node[m]. */
typedef struct mpp_coll_group {
    uint32_t g;
    const uint32_t *node;
} mpp_coll_group;

/* A plan over one group at a time (the groups of a run are planned one
 * after the other into the same programs, their steps numbered apart so
 * that concurrent groups never match each other's messages; a node belongs
 * to one group). Open so that plug-ins and tests read it; only the
 * functions below write it. */
typedef struct mpp_coll_plan {
    /* configuration */
    uint32_t N;              /* nodes of the machine */
    int paradigm;            /* mpp_paradigm of the sends */
    unsigned flags;
    uint64_t chunk;          /* bytes per message of a tree (0: whole) */
    /* the group being planned */
    mpp_coll_group grp;
    uint32_t nitems;
    uint64_t *item_bytes;    /* [nitems] */
    uint64_t *held;          /* [g x words] (TRACK) */
    uint64_t *inc;           /* [g x words] received in the open step (TRACK) */
    uint8_t *recvd;          /* [g x nitems] times received, saturating (TRACK) */
    uint32_t words;
    /* steps */
    bool in_step;
    uint32_t step;           /* the open step's number within the group */
    uint32_t tag_base;       /* first tag of this group */
    uint32_t max_tag;        /* largest tag used so far + 1 (over all groups) */
    uint32_t *sends, *recvs; /* [g] per member in the open step */
    uint32_t *touched, ntouched;
    uint8_t *touched_mark;   /* [g] */
    struct mpp_coll_msg *cur;
    uint32_t ncur, cur_cap;
    uint32_t *cur_items;     /* items of the open step's messages */
    uint64_t ncur_items, cur_items_cap;
    /* results */
    uint64_t nmsgs, nbytes;  /* over all groups */
    uint32_t steps_used;     /* most steps that sent something, over the groups */
    uint64_t *node_bytes_sent, *node_bytes_recv; /* [N] */
    mpp_progbuild pb;        /* PROGRAMS */
    /* the steps' clock (mpp_coll_schedule_time): per member of the open
     * group */
    const struct mpp_coll_model *clock;
    uint32_t t_ports;        /* ports per member: 1 one-port, the links all-port */
    double *t_start;         /* [g] its present step's sends may leave */
    double *t_in;            /* [g] its receives of the open step are in */
    double *t_port;          /* [g x t_ports] the port is free */
    double *t_eject;         /* [g] one-port: its ejection channel is free */
    double *t_cpu;           /* [g] its processor is free */
    double *t_read;          /* [g] its processor's reading in the open step */
    uint8_t *t_posted;       /* [g] it has posted the open step's receives */
    uint64_t *compute;       /* [g] processor cycles after the open step's WAIT */
    struct mpp_coll_links *t_links; /* the network's links (route != NONE), or NULL */
    double t_end;            /* the last arrival so far */
} mpp_coll_plan;

/* One message of a step: items cur_items[first .. first + n). */
typedef struct mpp_coll_msg {
    uint32_t from, to;       /* members */
    uint64_t first, n;
    uint64_t bytes;
} mpp_coll_msg;

/* Start a plan on N nodes. Fails with MPP_ENOMEM; pl then holds nothing. */
int mpp_coll_plan_init(mpp_coll_plan *pl, uint32_t N, int paradigm, uint64_t chunk,
                       unsigned flags, mpp_err *err);
void mpp_coll_plan_free(mpp_coll_plan *pl);

/* Begin a group: its members and its items (bytes[i], origin[i]: the member
 * that holds item i at the start; origin UINT32_MAX: every member).
 * Fails with MPP_EINVAL (tracking too large) or MPP_ENOMEM. The previous
 * group must be ended. */
int mpp_coll_group_begin(mpp_coll_plan *pl, const mpp_coll_group *grp, uint32_t nitems,
                         const uint64_t *bytes, const uint32_t *origin, mpp_err *err);
/* End the group (frees its holdings). */
void mpp_coll_group_end(mpp_coll_plan *pl);

void mpp_coll_step_begin(mpp_coll_plan *pl);
/* In a step: member a sends member b the items it[0 .. n-1] (n >= 1, a !=
 * b) as one message. With TRACK, a must hold each item at the start of
 * the step (else MPP_EINVAL naming it: a plug-in bug). Fails also with
 * MPP_EINVAL above MPP_COLL_MAX_MSGS, or MPP_ENOMEM. */
int mpp_coll_send(mpp_coll_plan *pl, uint32_t a, uint32_t b, const uint32_t *it, uint64_t n,
                  mpp_err *err);
/* A message a -> b of items b already holds (it started with them): MSBT's
 * one-port schedule returns every piece to the source, so that the source
 * receives in every step as the others do (coll_msbt.c). With TRACK, b
 * must hold each item (else MPP_EINVAL); it is not counted as received. */
int mpp_coll_send_back(mpp_coll_plan *pl, uint32_t a, uint32_t b, const uint32_t *it,
                       uint64_t n, mpp_err *err);
/* A message a -> b of `bytes` that carries what a holds of the items
 * it[0 .. n-1] combined (a partial reduction of those contributions, or a
 * node's distinct values for several users): its size is `bytes`, not the
 * items' sum. With TRACK, a must hold each item; b then holds them too,
 * whether or not it held some already (a combining receive is checked by
 * values, algorithms/coll_red.h, not by holdings). Fails as mpp_coll_send. */
int mpp_coll_send_combined(mpp_coll_plan *pl, uint32_t a, uint32_t b, const uint32_t *it,
                           uint64_t n, uint64_t bytes, mpp_err *err);
/* In the open step, member m computes for `cycles` processor cycles once
 * its transfers of the step are done (after its WAIT: combining what it
 * received). Adds up over calls. */
void mpp_coll_compute(mpp_coll_plan *pl, uint32_t m, uint64_t cycles);
/* End the step: programs, holdings. A step that sent nothing is dropped. */
int mpp_coll_step_end(mpp_coll_plan *pl, mpp_err *err);

/* With TRACK: does member m hold item i? How many times was it received? */
bool mpp_coll_holds(const mpp_coll_plan *pl, uint32_t m, uint32_t i);
uint32_t mpp_coll_received(const mpp_coll_plan *pl, uint32_t m, uint32_t i);

typedef struct mpp_coll_args mpp_coll_args;

/* ------------------------------------------------------------------------
 * Tree flows. */

typedef struct mpp_coll_flow mpp_coll_flow;

/* A flow over the open group: edges (member -> member) each with an ordered
 * list of items; an entry may name the entry by which its item reaches the
 * edge's sender (prev), or none when the sender is the item's origin. */
mpp_coll_flow *mpp_coll_flow_new(uint32_t g, mpp_err *err);
void mpp_coll_flow_free(mpp_coll_flow *f);
/* The edge a -> b, created on first use (a node's edges are served in
 * creation order). Returns its index or UINT32_MAX on ENOMEM/overflow. */
uint32_t mpp_coll_flow_edge(mpp_coll_flow *f, uint32_t a, uint32_t b);
/* Append item `item` to edge e; prev is the entry (returned by an earlier
 * call) by which the item reaches e's sender, or UINT32_MAX. Returns the
 * new entry's id or UINT32_MAX (ENOMEM, or above MPP_COLL_MAX_ENTRIES). */
uint32_t mpp_coll_flow_item(mpp_coll_flow *f, uint32_t e, uint32_t item, uint32_t prev);
/* Schedule the flow into pl's steps (see "Trees" above). Fails as
 * mpp_coll_send, or with MPP_ENOMEM. */
int mpp_coll_flow_run(mpp_coll_flow *f, mpp_coll_plan *pl, mpp_err *err);

/* Tree helpers over the open group (g members): parent[m] (UINT32_MAX for
 * the root) and order[] (the members in breadth-first order, each node's
 * children in service order).
 * tree_edges: create the tree's edges (parent -> child, or child -> parent
 *   when up) in `order`, so each node serves its children in order;
 *   edge_in[m] is the edge of member m's tree link. 0 or MPP_ENOMEM.
 * tree_bcast: item travels from the root down every edge (scratch [g]).
 * tree_path: item travels between member and the root only: down the path
 *   root -> member, or up member -> root (scratch [g]). */
int mpp_coll_tree_edges(mpp_coll_flow *f, const uint32_t *parent, const uint32_t *order,
                        uint32_t g, uint32_t *edge_in, bool up);
int mpp_coll_tree_bcast(mpp_coll_flow *f, const uint32_t *parent, const uint32_t *order,
                        uint32_t g, const uint32_t *edge_in, uint32_t item, uint32_t *scratch);
int mpp_coll_tree_path(mpp_coll_flow *f, const uint32_t *parent, const uint32_t *edge_in,
                       uint32_t member, uint32_t item, bool up, uint32_t *scratch);

/* ------------------------------------------------------------------------
 * Spanning binomial trees on a group of g = 2^n members (member = n-bit
 * address). The SBT rooted at s: member s ^ a's parent is s ^ (a with its
 * highest set bit cleared); the children of s ^ a are s ^ (a | 2^j) for the
 * dimensions j above a's highest set bit, served in INCREASING j (the
 * largest subtree first; docs/collectives.md says why this departs from the
 * issue's wording). The rotated SBT of MSBT tree j (0 <= j < n) is the SBT
 * rooted at s ^ 2^j on addresses rotated left by n - 1 - j, so that the
 * source s is one of its leaves; with the edge s -> s ^ 2^j it spans the
 * group, and the n trees' directed edges are pairwise disjoint. */

/* log2 of a power of two g (g >= 1). */
uint32_t mpp_coll_log2(uint32_t g);
/* Parent of member m in the SBT rooted at s (UINT32_MAX for the root). */
uint32_t mpp_coll_sbt_parent(uint32_t n, uint32_t s, uint32_t m);
/* Children of m in the SBT rooted at s, in service order; returns their
 * count (at most n). */
uint32_t mpp_coll_sbt_children(uint32_t n, uint32_t s, uint32_t m, uint32_t *out);
/* Parent of member m in MSBT tree j of source s (the source's own parent is
 * UINT32_MAX; s ^ 2^j's parent is s). */
uint32_t mpp_coll_msbt_parent(uint32_t n, uint32_t s, uint32_t j, uint32_t m);
/* Children of m in MSBT tree j of source s, in service order. */
uint32_t mpp_coll_msbt_children(uint32_t n, uint32_t s, uint32_t j, uint32_t m, uint32_t *out);

/* The SBT rooted at s, and MSBT tree j of source s, as parent[] and a
 * breadth-first order[] over 2^n members. */
void mpp_coll_tree_sbt(uint32_t n, uint32_t s, uint32_t *parent, uint32_t *order);
void mpp_coll_tree_msbt(uint32_t n, uint32_t s, uint32_t j, uint32_t *parent, uint32_t *order);

/* ------------------------------------------------------------------------
 * The analytic model: the times of a message on the machine, from its
 * parameters (docs/collectives.md, "The message model"). Cycles are
 * network cycles. */
typedef struct mpp_coll_model {
    uint32_t n;              /* log2 of the group size (power-of-two groups), else
                                ceil(log2 g) */
    uint32_t g;              /* group size */
    bool all_port;
    double rd, ll;           /* router_delay, link_latency (cycles) */
    double byte;             /* link cycles per byte of payload (the bounds) */
    mpp_packetizer pk;       /* how a message becomes packets and flits */
    double w, r;             /* processor: writing / reading one packet, network cycles */
    double post;             /* processor: posting a receive, network cycles */
    double done;             /* processor: a message's completion handler, network cycles */
    double cpu;              /* network cycles per processor cycle (computation) */
    uint32_t payload;        /* payload bytes per packet */
    uint32_t links;          /* links a node sends on at once with all-port nodes */
    double hops_mean;        /* mean distance between two members of the group */
    const struct mpp_topo *topo; /* the topology and the group's nodes (member -> node), */
    const uint32_t *node;        /* for the distances of a schedule's own paths */
    int route;                   /* the routing, for the step recurrence's links
                                    (MPP_COLL_ROUTE_*; NONE: no link is modelled) */
} mpp_coll_model;

/* mpp_coll_model.route: how the network routes, where the step recurrence
 * follows a message's links (mpp_coll_schedule_time): DOR (mesh X then Y,
 * hypercube highest dimension first) or YX (mesh Y then X); NONE: the
 * links are not modelled (other routings, the fat tree). */
enum { MPP_COLL_ROUTE_NONE = 0, MPP_COLL_ROUTE_DOR, MPP_COLL_ROUTE_YX };

/* The flits of a message of B bytes (every packet's header and payload). */
double mpp_coll_flits(const mpp_coll_model *m, uint64_t B);
/* The head's trip over h hops: h + 1 routers and h + 2 channels (the
 * injection channel, h links, the ejection channel). */
double mpp_coll_latency(const mpp_coll_model *m, double h);
/* Network cycles of one message of B bytes over h hops, its processors
 * writing ks and reading kr packets for each of its packets (other
 * messages they handle at the same time). With processors that cost
 * nothing, exactly flits(B) + latency(h): from its first flit's injection
 * to its last flit's ejection. */
double mpp_coll_msg_time(const mpp_coll_model *m, uint64_t B, double h, uint32_t ks,
                         uint32_t kr);
/* A message whose sender writes sw messages (this one among them) and
 * reads sr at the same time, and whose receiver writes rw and reads rr
 * (this one among them): the slower processor sets the pace of the
 * packets. mpp_coll_msg_time(ks, kr) is (ks, kr, ks, kr): one processor
 * both writes and reads (a relay, an exchange). */
double mpp_coll_xfer_time(const mpp_coll_model *m, uint64_t B, double h, uint32_t sw,
                          uint32_t sr, uint32_t rw, uint32_t rr);
/* One step of an exchange (every member posts its kr receives, then
 * writes its ks messages of B bytes over h hops, then waits for them
 * all): the postings come before the data leaves, kr post + msg_time
 * without them. */
double mpp_coll_exchange_time(const mpp_coll_model *m, uint64_t B, double h, uint32_t ks,
                              uint32_t kr);
/* Cycles a message of B bytes keeps its sender's port: its flits, or the
 * processor's writing of its packets with ks messages at once, whichever
 * is longer. A sender's messages follow each other this far apart. */
double mpp_coll_occupancy(const mpp_coll_model *m, uint64_t B, uint32_t ks);
/* Cycles between the root's consecutive pieces of q bytes in a pipelined
 * broadcast tree whose root has c children: the root sending c copies (one
 * port after the other one-port; over min(links, c) ports all-port, its
 * processor writing every copy), or its busiest relay (the first child,
 * reading every piece and writing it c - 1 times), whichever is slower. */
double mpp_coll_tree_pace(const mpp_coll_model *m, uint64_t q, uint32_t c);
/* Distance between members a and b (hops_mean without a topology). */
double mpp_coll_hops(const mpp_coll_model *m, uint32_t a, uint32_t b);
/* Pieces of `bytes` cut at `chunk` (0: one), and the size of piece k. */
uint32_t mpp_coll_pieces(uint64_t bytes, uint64_t chunk);
uint64_t mpp_coll_piece_bytes(uint64_t bytes, uint64_t chunk, uint32_t k);

/* Shared by the plug-ins: the broadcasts' items (the message cut into
 * pieces at the root) and wants (every member, every item); a tree
 * plug-in's scratch (`words` uint32_t) and flow, and its end: run the flow
 * (rc 0) or report out of memory (rc != 0), then free both. */
uint64_t mpp_coll_bcast_nitems(const mpp_coll_args *a, uint32_t g);
/* A broadcast's crossings: every piece crosses every edge of its tree
 * (g - 1 edges). */
uint64_t mpp_coll_bcast_crossings(const mpp_coll_args *a, uint32_t g);
void mpp_coll_bcast_items(const mpp_coll_args *a, uint32_t g, uint64_t *bytes,
                          uint32_t *origin);
bool mpp_coll_wants_all(const mpp_coll_args *a, uint32_t g, uint32_t m, uint32_t i);
int mpp_coll_tree_alloc(uint32_t g, size_t words, uint32_t **mem, mpp_coll_flow **f,
                        mpp_err *err);
int mpp_coll_tree_finish(mpp_coll_flow *f, uint32_t *mem, mpp_coll_plan *pl, int rc,
                         mpp_err *err);

/* Scatter and gather (one-to-all and all-to-one personalized): block d is
 * member d's (M bytes), one part on the SBT with one-port nodes, n parts on
 * the n rotated trees of MSBT with all-port nodes, each cut into pieces of
 * chunk bytes; up = gather (blocks travel to the root). */
uint64_t mpp_coll_pers_nitems(const mpp_coll_args *a, uint32_t g);
uint64_t mpp_coll_pers_crossings(const mpp_coll_args *a, uint32_t g);
void mpp_coll_pers_items(const mpp_coll_args *a, uint32_t g, bool up, uint64_t *bytes,
                         uint32_t *origin);
uint32_t mpp_coll_pers_member(const mpp_coll_args *a, uint32_t g, uint32_t i);
int mpp_coll_pers_build(mpp_coll_plan *pl, const mpp_coll_args *a, bool up, mpp_err *err);
double mpp_coll_pers_analytic(const mpp_coll_model *m, const mpp_coll_args *a, bool up);
double mpp_coll_pers_bound(const mpp_coll_model *m, const mpp_coll_args *a);

/* ------------------------------------------------------------------------
 * The family. */

typedef struct mpp_coll_ops mpp_coll_ops;

/* What a collective needs to know of its run. */
struct mpp_coll_args {
    uint32_t root;       /* member index of the root (rooted collectives) */
    uint64_t M;          /* bytes per message */
    uint64_t chunk;      /* pipelining piece (0: whole messages) */
    bool all_port;       /* the node port model */
    uint32_t links;      /* all-port: the links a node sends on at once (0: one per cube
                            dimension) */
    int alg;             /* alltoall: MPP_COLL_ALG_* */
    const void *cfg;     /* the plug-in's own keys (ops->schema), or NULL: defaults */
    void *ctx;           /* what ops->prepare made (NULL for plug-ins that make nothing) */
    uint64_t seed;       /* the run's seed (random data allocation) */
};

/* Do the all-port schedules of the MSBT family (msbt, and scatter, gather
 * and allgather on n rotated trees) apply? Only with all-port nodes that
 * have a link per dimension of the group's cube (n >= 2); elsewhere (the
 * CM-5's two links) the one-port schedules run. */
bool mpp_coll_trees_at_once(const mpp_coll_args *a, uint32_t n);

enum { MPP_COLL_ALG_XOR = 0, MPP_COLL_ALG_STANDARD = 1, MPP_COLL_ALG_DIRECT = 2 };

/* Kinds of group a collective runs on. */
enum {
    MPP_COLL_ANY = 0,    /* any group size (linear-array views) */
    MPP_COLL_CUBE = 1    /* power-of-two groups (cube addresses) */
};

/* A collective plug-in (STYLE rule 5): no hook may be NULL. */
struct mpp_coll_ops {
    const char *name;
    const char *help;
    mpp_schema schema;   /* its own keys (workload.<name>: {...}); may have no rows */
    int groups;          /* MPP_COLL_ANY or MPP_COLL_CUBE */
    bool rooted;
    /* With all-port nodes that have a link per dimension
     * (mpp_coll_trees_at_once) its analytic time is the step recurrence of
     * its schedule, not `analytic` (mpp_coll_analytic). */
    bool steps_all_port;
    /* Its messages contend for links (a permutation, an irregular
     * exchange): its step recurrence follows their dimension-order paths on
     * hypercubes too, not only on meshes (mpp_coll_analytic). */
    bool links;
    /* Check the plug-in's keys against a group of g members on N nodes and
     * make what its other hooks read through a->ctx (a mesh read from its
     * file, a data allocation): MPP_EINVAL for bad keys or files (the
     * message names the key, FILE:LINE where there is one), MPP_ENOMEM.
     * Called before the others; release frees *ctx. */
    int (*prepare)(const mpp_coll_args *a, uint32_t g, uint32_t N, void **ctx, mpp_err *err);
    void (*release)(void *ctx);
    /* Items of the open group: count, and for each its bytes and origin. */
    uint64_t (*nitems)(const mpp_coll_args *a, uint32_t g);
    void (*items)(const mpp_coll_args *a, uint32_t g, uint64_t *bytes, uint32_t *origin);
    /* How many times items cross an edge (member to member) in the plan of
     * one group: the flow's entries; with chunk > 0, its messages. Checked
     * against MPP_COLL_MAX_ENTRIES and MPP_COLL_MAX_MSGS before anything is
     * planned. */
    uint64_t (*crossings)(const mpp_coll_args *a, uint32_t g);
    /* Must member m hold item i at the end? */
    bool (*wants)(const mpp_coll_args *a, uint32_t g, uint32_t m, uint32_t i);
    /* Write the group's steps. */
    int (*build)(mpp_coll_plan *pl, const mpp_coll_args *a, mpp_err *err);
    /* Its analytic time in closed form (not asked where steps_all_port
     * takes over) and the lower bound (network cycles). */
    double (*analytic)(const mpp_coll_model *m, const mpp_coll_args *a);
    double (*bound)(const mpp_coll_model *m, const mpp_coll_args *a);
};

/* prepare and release for plug-ins without keys of their own to check. */
int mpp_coll_prepare_none(const mpp_coll_args *a, uint32_t g, uint32_t N, void **ctx,
                          mpp_err *err);
void mpp_coll_release_none(void *ctx);

/* The registry (algorithms/coll_registry.c). */
const mpp_coll_ops *mpp_coll_find(const char *name);
const mpp_coll_ops *const *mpp_coll_all(void);
extern const mpp_family mpp_coll_family;

/* Plan the collective ops on every group of grp[0 .. ngroups-1] (items,
 * build, and with TRACK the end check: every member holds every item it
 * wants, each received at most once, and none it had). 0 or an error. */
int mpp_coll_plan_groups(mpp_coll_plan *pl, const mpp_coll_ops *ops, const mpp_coll_args *a,
                         const mpp_coll_group *grp, uint32_t ngroups, mpp_err *err);

/* The time of the collective ops's schedule on the model's group (its g
 * members, member i on node m->node[i]), steps as the programs run them
 * (docs/collectives.md, "The step recurrence"): a
 * member's step begins when its WAIT is over and its processor is free; it
 * posts the step's receives (post each), writes its messages' packets one
 * message after the other (w a packet); a message's flits leave once its
 * first packet is written and its port is free (one port, or one per link
 * all-port: the link to the destination's lowest differing address bit),
 * no faster than they are written, and arrive lat(h) after the last leaves,
 * then are read (r a packet, done a message); a one-port receiver's one
 * ejection channel takes its messages one after the other; a WAIT ends
 * when the member's messages are read and its processor has done its
 * posting, writing and reading. On a mesh with one-port nodes routed in
 * dimension order (m->route DOR or YX) it also follows the links of every
 * message's path, in time order: a message's head waits at a link until
 * the messages that reached it first have left it. The last arrival (when
 * it is read); network cycles, without the start cycle. Fails as
 * mpp_coll_plan_groups (*t is then 0). */
int mpp_coll_schedule_time(const mpp_coll_ops *ops, const mpp_coll_args *a,
                           const mpp_coll_model *m, double *t, mpp_err *err);
/* mpp_coll_schedule_time's time, or 0 when it cannot be planned (the
 * analytic hook of a collective whose formula is its step recurrence). */
double mpp_coll_steps(const mpp_coll_ops *ops, const mpp_coll_model *m,
                      const mpp_coll_args *a);
/* The analytic time of ops on the model (network cycles, without the
 * start cycle): the step recurrence (mpp_coll_schedule_time) on a mesh
 * with one-port nodes routed in dimension order (its messages share links)
 * and where ops->steps_all_port and the nodes are all-port with a link per
 * dimension (the trees' pieces overlap across trees and levels, their
 * processors handle several messages at once), 0 when that cannot be
 * planned (out of memory: the run then reports no analytic time); else
 * ops->analytic. */
double mpp_coll_analytic(const mpp_coll_ops *ops, const mpp_coll_model *m,
                         const mpp_coll_args *a);

#endif
