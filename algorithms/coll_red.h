/* algorithms/coll_red.h — what the reductions of the collectives family
 * share (mpp_coll_red_*): the data types and operations, the plug-ins'
 * keys, their items, and the VALUES a plan can carry so that a test checks
 * what every node ends with against a sequential computation.
 *
 * A reduction combines vectors of L elements (type double or int64, 8 bytes
 * each) with an operation (sum, max, min on both types; and, or, xor on
 * int64 only) that costs `op_cycles` processor cycles per element combined
 * (mpp_coll_compute after the step's WAIT). The plug-ins (coll_reduce.c,
 * coll_allreduce.c, coll_reduce_scatter.c, coll_scan.c) cut the vector into
 * S SEGMENTS (the pieces a tree pipelines; the blocks of an all-to-all
 * reduction) and use one item per (member c, segment s), index c * S + s:
 * member c's contribution to segment s. A message carries a partial result
 * of one or more segments, mpp_coll_send_combined: its bytes are the
 * segments', its items every contribution the sender has combined into
 * them (with TRACK; the plan's holdings are then "the contributions
 * folded into what the member holds").
 *
 * Values (tests): with ctx->in set (mpp_coll_red_values), the plug-ins also
 * compute the values: a message carries what its sender held at the start
 * of the step (a snapshot, `old`), combined into (or, for a broadcast,
 * copied over) the receiver's at the end. */
#ifndef MPP_ALGORITHMS_COLL_RED_H
#define MPP_ALGORITHMS_COLL_RED_H

#include <stdbool.h>
#include <stdint.h>

#include "algorithms/coll.h"

enum { MPP_RED_SUM = 0, MPP_RED_MAX, MPP_RED_MIN, MPP_RED_AND, MPP_RED_OR, MPP_RED_XOR };
enum { MPP_RED_DOUBLE = 0, MPP_RED_INT64 = 1 };
enum { MPP_RED_EXCHANGE = 0, MPP_RED_REDUCE_BCAST = 1 };

/* The plug-ins' keys (workload.<reduction>: {...}); alg only for allreduce. */
typedef struct mpp_coll_red_cfg {
    int op;              /* MPP_RED_SUM ... */
    int type;            /* MPP_RED_DOUBLE, MPP_RED_INT64 */
    uint64_t op_cycles;  /* processor cycles per element combined */
    int alg;             /* allreduce: MPP_RED_EXCHANGE or MPP_RED_REDUCE_BCAST */
    uint32_t parts;      /* allreduce exchange, reduce_scatter, all-port: parts (0: n) */
} mpp_coll_red_cfg;

/* The schema rows: op, type, op_cycles (mpp_coll_red_params, 3 rows);
 * allreduce's with alg and parts (mpp_coll_red_allreduce_params, 5 rows);
 * reduce_scatter's with parts (mpp_coll_red_scatter_params, 4 rows). */
extern const mpp_param mpp_coll_red_params[];
extern const mpp_param mpp_coll_red_allreduce_params[];
extern const mpp_param mpp_coll_red_scatter_params[];
#define MPP_COLL_RED_NPARAMS 3

/* One element. */
typedef union mpp_coll_red_val {
    double d;
    int64_t i;
} mpp_coll_red_val;

/* A reduction's context (ops->prepare): its keys and shape, and the values
 * when a test asks for them. */
typedef struct mpp_coll_red_ctx {
    mpp_coll_red_cfg cfg;
    uint32_t g;
    uint32_t blocks;       /* blocks of the vector: g (reduce_scatter) or 1 */
    uint64_t E;            /* elements of a block */
    uint32_t q;            /* segments of a block */
    uint32_t S;            /* segments: blocks x q; segment s is part s % q of block s / q */
    uint64_t L;            /* elements of the vector: blocks x E */
    uint64_t per;          /* pipelined: elements per segment (the last may have fewer);
                              0: q balanced parts */
    /* values: NULL unless mpp_coll_red_values gave them */
    mpp_coll_red_val *in;  /* [g x L] the inputs (the test writes them) */
    mpp_coll_red_val *acc; /* [g x L] what every member holds (the result) */
    mpp_coll_red_val *pre; /* [g x L] scan: the prefix (the result) */
    mpp_coll_red_val *old; /* [g x L] acc at the start of the open step */
} mpp_coll_red_ctx;

/* ops->prepare of the reductions: check the keys (an operation the type
 * does not have; a vector that is not whole elements) and make the
 * context; `blocks`: the vector is g blocks of M bytes (reduce_scatter),
 * else one of M bytes; a block is cut into segments of chunk bytes when
 * `pipelined` (reduce, allreduce reduce_bcast) and chunk > 0, else into
 * `parts` balanced parts (at most its elements; all-port schedules send
 * part k along its own sequence of dimensions). */
int mpp_coll_red_prepare(const mpp_coll_args *a, uint32_t g, const char *name, bool blocks,
                         bool pipelined, uint32_t parts, void **ctx, mpp_err *err);
/* The parts of the all-port exchange schedules on g members: the key
 * `parts` (0: n), at most the dimensions n of the largest power-of-two cube
 * in the group, when the nodes are all-port with a link per dimension
 * (mpp_coll_trees_at_once), else 1. */
uint32_t mpp_coll_red_parts(const mpp_coll_args *a, uint32_t g);
void mpp_coll_red_release(void *ctx);
/* Allocate the values of ctx (in, acc, pre, old; in zeroed). MPP_ENOMEM. */
int mpp_coll_red_values(mpp_coll_red_ctx *r, mpp_err *err);

/* ops->nitems and ops->items of the reductions: g x S contributions, each
 * its segment's bytes, origin c (a->ctx is the reduction's context). */
uint64_t mpp_coll_red_nitems(const mpp_coll_args *a, uint32_t g);
void mpp_coll_red_items(const mpp_coll_args *a, uint32_t g, uint64_t *bytes, uint32_t *origin);
/* Bytes and first element of segment s. */
uint64_t mpp_coll_red_seg_bytes(const mpp_coll_red_ctx *r, uint32_t s);
uint64_t mpp_coll_red_seg_first(const mpp_coll_red_ctx *r, uint32_t s);
uint64_t mpp_coll_red_seg_len(const mpp_coll_red_ctx *r, uint32_t s);

/* Before the first step: acc and pre = in (no-op without values). */
void mpp_coll_red_start(mpp_coll_red_ctx *r);
/* At the start of a step's values: acc -> old (no-op without values). */
void mpp_coll_red_snapshot(mpp_coll_red_ctx *r);
/* Member a sends b the partial results of segments seg[0 .. n-1] (one
 * message): with TRACK its items are every contribution a holds of them.
 * When `combine`, b folds them into its own (values; and it computes
 * op_cycles per element), else b takes them over (a broadcast of a
 * result). Also into the prefix when `prefix` (scan). Fails as
 * mpp_coll_send_combined. */
int mpp_coll_red_send(mpp_coll_plan *pl, mpp_coll_red_ctx *r, uint32_t a, uint32_t b,
                      const uint32_t *seg, uint32_t n, bool combine, bool prefix, mpp_err *err);

/* The sequential reduction of the inputs of members first .. last
 * (inclusive, in that order) at element e. */
mpp_coll_red_val mpp_coll_red_sequential(const mpp_coll_red_ctx *r, uint32_t first,
                                         uint32_t last, uint64_t e);

/* The relative address of member m in a tree rooted at `root` (XOR on
 * power-of-two groups: the cube's dimensions; else m - root mod g), and
 * back. */
uint32_t mpp_coll_red_rel(uint32_t g, uint32_t root, uint32_t m);
uint32_t mpp_coll_red_member(uint32_t g, uint32_t root, uint32_t rel);

/* ceil(log2 g), and the largest power of two <= g. */
uint32_t mpp_coll_red_dims(uint32_t g);
uint32_t mpp_coll_red_pow2_below(uint32_t g);

/* The pipelined tree of the reduce (and with `bcast` of allreduce's
 * reduce_bcast) rooted at member `root`, on relative addresses
 * (mpp_coll_red_rel): the member at height j (the root n = ceil(log2 g),
 * else its address's trailing zero bits) sends segment s to its parent
 * rel - 2^j in step s + j; the broadcast sends the root's result down the
 * same tree, segment s from a member of height h to its children rel + 2^i
 * (i < h, largest first) in step s + 2n - h. Writes the steps, from
 * acc = in. Its messages: mpp_coll_red_tree_crossings. */
int mpp_coll_red_tree(mpp_coll_plan *pl, mpp_coll_red_ctx *r, uint32_t root, bool bcast,
                      mpp_err *err);
uint64_t mpp_coll_red_tree_crossings(uint32_t g, uint32_t S, bool bcast);

/* The bound: `bytes` at the link rate (over the links of an all-port
 * node). */
double mpp_coll_red_bound_bytes(const mpp_coll_model *m, double bytes);

#endif
