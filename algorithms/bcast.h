/* algorithms/bcast.h — s-to-p broadcasting (mpp_bcast_*): the plug-in family
 * of broadcast algorithms, and the plan builder they all write into.
 *
 * s source processors of an r x c mesh (processor (x, y) = row x, column y,
 * id x * c + y; any machine seen as 1 x p) each hold a message of L bytes
 * that every processor must get (Hambrusch, Khokhar and Liu 1995;
 * docs/broadcast.md). An algorithm plug-in does not send anything itself:
 * it describes its communication as a sequence of STEPS on a plan
 * (mpp_bcast_plan). The plan keeps, per processor, the set of source
 * messages it holds (a bitset of s bits), turns every transfer into node
 * program operations (core/program.h), and counts what each processor sends
 * and receives. Every processor computes the same plan in a real machine
 * (the source positions are known to all), so the contents of a message are
 * those of the plan.
 *
 * Steps. A step is a set of transfers that the processors involved do
 * together: each posts all its receives of the step (IRECV; RECV when it has
 * a lone receive), then does its sends (SEND with the sync paradigm, ISEND
 * with async, am and am_put), then waits (WAIT). Steps follow each other with no barrier: a
 * processor goes on to its next step as soon as its own transfers of this
 * one are done. Every step has its own message tag (MPP_BCAST_TAG), so a
 * receive matches only the message of its step; the part of the algorithm
 * (redistribution, broadcast, final exchange) is in the tag's top bits, so
 * message records can be timed by part.
 *
 * Contents. A transfer is computed from the states at the START of the step
 * (an exchange swaps what each side lacks), minus what the receiver already
 * gets from earlier transfers of the same step (a processor never receives a
 * source message twice); it is applied at the end of the step. A transfer
 * with nothing to carry is not sent.
 *
 * Moves. Repositioning (repos, part_*) and two_step's gather MOVE a
 * source's message: from the end of that step on, the algorithm sees the
 * message at its new processor only (the plan's holdings are those of the
 * algorithm: the base algorithm then runs on exactly the ideal
 * distribution, the broadcast of two_step from processor 0 alone). The
 * processor it left still has its copy (`kept`): whatever the algorithm
 * later sends it leaves that message out (a message carrying nothing else
 * is not sent), so nobody receives a source message it has, and at the end
 * every processor holds all s, each received once or its own.
 *
 *   plan_init --> step_begin(part) --> give / exchange / give_own / move_own
 *       ^                                   |
 *       +------------ step_end <------------+    (ops emitted, sets updated)
 */
#ifndef MPP_ALGORITHMS_BCAST_H
#define MPP_ALGORITHMS_BCAST_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/err.h"
#include "core/base/param.h"
#include "core/program.h"

/* The parts of an algorithm, in the top bits of a step's tag. */
typedef enum mpp_bcast_part {
    MPP_BCAST_REDIST = 0,   /* sources move their messages (repos, part_*; two_step's gather) */
    MPP_BCAST_BCAST = 1,    /* the broadcast proper */
    MPP_BCAST_EXCHANGE = 2, /* the final exchange between the groups (part_*) */
    MPP_BCAST_NPARTS = 3
} mpp_bcast_part;

#define MPP_BCAST_TAG_SHIFT 28
#define MPP_BCAST_TAG_STEP ((1u << MPP_BCAST_TAG_SHIFT) - 1)
/* The tag of step number `step` (counted over the whole plan) of `part`. */
#define MPP_BCAST_TAG(part, step) (((uint32_t)(part) << MPP_BCAST_TAG_SHIFT) | (uint32_t)(step))
static inline int mpp_bcast_tag_part(uint32_t tag) { return (int)(tag >> MPP_BCAST_TAG_SHIFT); }

/* The most bits of holdings (processors x sources) a plan keeps, and the
 * most messages it may hold: a larger request is refused (MPP_EINVAL)
 * before anything large is allocated. */
#define MPP_BCAST_MAX_BITS (UINT64_C(1) << 28)
#define MPP_BCAST_MAX_MSGS (UINT64_C(1) << 23)

/* What mpp_bcast_plan_init keeps besides the holdings and the counters. */
enum {
    MPP_BCAST_PROGRAMS = 1u << 0, /* build the node programs (pb) */
    MPP_BCAST_COUNT = 1u << 1,    /* count receptions per (processor, source) (recv_count) */
    MPP_BCAST_LOG = 1u << 2       /* keep every transfer in order (log) */
};

/* One message of the plan. */
typedef struct mpp_bcast_xfer {
    uint32_t from, to;
    uint32_t tag;    /* its step's MPP_BCAST_TAG */
    uint32_t nsrc;   /* source messages it carries */
    uint64_t bytes;  /* nsrc x L */
} mpp_bcast_xfer;

/* One processor of a plan. */
typedef struct mpp_bcast_proc {
    uint32_t own;          /* the source index it started with, or UINT32_MAX */
    uint32_t kept;         /* own when it moved it away (no longer held), or UINT32_MAX */
    uint32_t nrecv, nsend; /* its receives and sends in the open step */
    uint8_t touched_mark;  /* on the open step's touched list */
    uint64_t msgs_sent, bytes_sent, msgs_recv, bytes_recv; /* over the whole plan */
} mpp_bcast_proc;

typedef struct mpp_bcast_plan mpp_bcast_plan;

/* Called at the end of every step (tests watch the holdings grow). */
typedef void (*mpp_bcast_step_fn)(void *ud, const mpp_bcast_plan *pl, uint32_t tag);

/* A plan. Open so that plug-ins read the mesh and the sources and tests
 * read the counters; only the functions below write it.
 * Invariants (mpp_bcast_plan_check):
 *   1. held[i] holds bit j iff processor i is source j's original processor
 *      and has not moved j away, or i got j (as the algorithm sees it) in a
 *      completed step; recv_count[i][j] (when counted) is the number of
 *      messages that carried j to i: 0 when i started with j, else 0 or 1,
 *      and 1 exactly when i holds j (a processor that moved j away holds it
 *      again, uncounted, once the algorithm brings j back).
 *   2. Inside a step, inc[i] is what i gets in this step so far and is
 *      disjoint from held[i]; outside a step every inc is empty.
 *   3. sum of proc[].msgs_sent == sum of proc[].msgs_recv == nmsgs, and the
 *      same for bytes. */
struct mpp_bcast_plan {
    /* configuration */
    uint32_t r, c, p;        /* the mesh view: p = r x c processors */
    uint32_t s;              /* sources */
    uint32_t *src;           /* [s] source j's processor, increasing (owned copy) */
    uint64_t L;              /* bytes per source message */
    int paradigm;            /* mpp_paradigm of the sends */
    unsigned flags;          /* MPP_BCAST_* */
    mpp_bcast_step_fn on_step; /* may be NULL */
    void *on_step_ud;
    /* state */
    uint32_t words;          /* 64-bit words per processor's bitset */
    uint64_t *held, *inc;    /* [p x words] */
    mpp_bcast_proc *proc;    /* [p] */
    uint32_t *moved, nmoved; /* processors that move their message in the open step */
    uint64_t *tmp;           /* [words] scratch: one transfer's content */
    bool in_step;
    int part;                /* the current step's part */
    uint32_t tag;            /* the current step's tag */
    uint32_t nsteps;         /* steps begun (the step number of the next tag) */
    uint32_t steps_used;     /* steps that carried at least one message */
    mpp_bcast_xfer *cur;     /* the current step's transfers */
    uint32_t ncur, cur_cap;
    uint32_t *touched, ntouched; /* processors whose state the current step changes */
    /* results (and proc[].msgs_*, bytes_*) */
    uint64_t nmsgs, nbytes;
    uint64_t part_msgs[MPP_BCAST_NPARTS];
    uint8_t *recv_count;     /* [p x s] (MPP_BCAST_COUNT), saturating at 255 */
    mpp_bcast_xfer *log;     /* [nlog] (MPP_BCAST_LOG) */
    uint64_t nlog, log_cap;
    mpp_progbuild pb;        /* the programs (MPP_BCAST_PROGRAMS) */
};

/* Start a plan on an r x c mesh with the s sources src[0 .. s-1] (distinct
 * processor ids below r x c, increasing), messages of L bytes sent in
 * `paradigm`; flags say what to keep besides the holdings and counters.
 * Fails with MPP_EINVAL (s = 0, s > p, an id out of range or not
 * increasing, p x s above MPP_BCAST_MAX_BITS: checked before allocating) or
 * MPP_ENOMEM; pl then holds nothing. Free with mpp_bcast_plan_free. */
int mpp_bcast_plan_init(mpp_bcast_plan *pl, uint32_t r, uint32_t c, const uint32_t *src,
                        uint32_t s, uint64_t L, int paradigm, unsigned flags, mpp_err *err);
/* Free everything pl owns; a zeroed plan is fine. */
void mpp_bcast_plan_free(mpp_bcast_plan *pl);

/* Begin a step of `part` (no step may be open); it gets a new tag. */
void mpp_bcast_step_begin(mpp_bcast_plan *pl, int part);
/* End the open step: append every processor's operations to its program
 * (when kept), apply the transfers to the holdings, call on_step. Fails
 * with MPP_ENOMEM (the plan is then unusable). */
int mpp_bcast_step_end(mpp_bcast_plan *pl, mpp_err *err);

/* In a step: a sends b every source message it holds that b neither holds
 * nor gets earlier in this step; nothing when there is none. a != b.
 * Fails with MPP_EINVAL (the plan would exceed MPP_BCAST_MAX_MSGS) or
 * MPP_ENOMEM. */
int mpp_bcast_give(mpp_bcast_plan *pl, uint32_t a, uint32_t b, mpp_err *err);
/* In a step: a and b swap what the other lacks (two gives). */
int mpp_bcast_exchange(mpp_bcast_plan *pl, uint32_t a, uint32_t b, mpp_err *err);
/* In a step: a sends its own original message to b (xor); nothing when a
 * is not a source or b already holds or gets it. Same failures as
 * mpp_bcast_give. */
int mpp_bcast_give_own(mpp_bcast_plan *pl, uint32_t a, uint32_t b, mpp_err *err);
/* In a step: a moves its own original message to b (repositioning,
 * two_step's gather; see "Moves" above): sent as give_own, and from the end
 * of the step a no longer holds it for the algorithm but keeps its copy.
 * a must still hold its message. Same failures as mpp_bcast_give. */
int mpp_bcast_move_own(mpp_bcast_plan *pl, uint32_t a, uint32_t b, mpp_err *err);

/* Does processor i hold source j's message? Source messages i holds. */
static inline bool mpp_bcast_holds(const mpp_bcast_plan *pl, uint32_t i, uint32_t j)
{
    return (pl->held[(uint64_t)i * pl->words + j / 64] >> (j % 64)) & 1;
}
uint32_t mpp_bcast_count(const mpp_bcast_plan *pl, uint32_t i);

/* Invariants 1-3 above (0 ok, else MPP_EINVAL with what is wrong); O(p s). */
int mpp_bcast_plan_check(const mpp_bcast_plan *pl, mpp_err *err);
/* After a whole algorithm: every processor holds every source message,
 * received exactly once (needs MPP_BCAST_COUNT for the "once"). 0 or
 * MPP_EINVAL naming the first processor and source at fault. */
int mpp_bcast_plan_complete(const mpp_bcast_plan *pl, mpp_err *err);

/* ------------------------------------------------------------------------
 * The family. */

typedef struct mpp_bcast_ops mpp_bcast_ops;

/* A broadcast plug-in (STYLE rule 5): no hook may be NULL. */
struct mpp_bcast_ops {
    const char *name;
    const char *help;
    mpp_schema schema;  /* its own keys (workload.<name>: {...}); may have no rows */
    unsigned parts;     /* the parts it has: bit (1u << MPP_BCAST_*) */
    /* Append the algorithm's steps to pl (sources pl->src on the mesh
     * pl->r x pl->c); cfg is its struct. On return every processor holds
     * every source message and no step is open. Fails with MPP_EINVAL (the
     * plan would be too large, a distribution the mesh cannot hold) or
     * MPP_ENOMEM. */
    int (*build)(mpp_bcast_plan *pl, const void *cfg, mpp_err *err);
};

/* The registry (algorithms/bcast_registry.c). */
const mpp_bcast_ops *mpp_bcast_find(const char *name);
const mpp_bcast_ops *const *mpp_bcast_all(void);
/* The family, for schemas (MPP_PT_PLUGIN rows) and the configuration layer. */
extern const mpp_family mpp_bcast_family;

#endif
