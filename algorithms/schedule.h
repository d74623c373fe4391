/* algorithms/schedule.h — schedulers: a COM into a schedule (mpp_sched_*).
 *
 * A scheduler plug-in turns a communication matrix into either an ordered
 * list of phases, each a partial permutation (every processor sends at most
 * one and receives at most one message in a phase), or, for the dynamic
 * ones (ac, drs_n), a runtime protocol run by the node processors at
 * replay. Every schedule delivers every COM entry exactly once; a scheduler
 * may split an entry into parts over several phases (rs_nh), which must add
 * up exactly. Each reports its number of phases, its host scheduling time,
 * a machine-independent count of elementary steps, and its work by kind
 * (mpp_sched_work), which the node section prices in CPU cycles
 * (mpp_sched_work_cycles: what computing the schedule costs one node
 * processor of the modelled machine). */
#ifndef MPP_ALGORITHMS_SCHEDULE_H
#define MPP_ALGORITHMS_SCHEDULE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/err.h"
#include "core/base/param.h"
#include "core/program.h"
#include "core/sections.h"
#include "traces/com.h"

/* One message (or part of one) of a phase. */
typedef struct mpp_sched_msg {
    uint32_t src, dst;
    uint64_t units;
} mpp_sched_msg;

/* A scheduler's work by kind, counted as ONE node processor running the
 * algorithm sequentially would execute it (the paper's Figs. 2-6: the
 * processor holds the dense n x n COM), not as our host code happens to
 * store things. Each kind is one mechanism of the node's loop, priced by
 * a `node` key when the data separates it (docs/machines.md); a kind a
 * scheduler does not have is 0.
 *
 *   scan    entries of the dense COM read: the compression of COM into a
 *           compact table (cgm, rs_n, rs_nh: n^2, Fig. 5), gm's walk along
 *           row x (Fig. 4), lp's partner checks COM(i, i XOR k) (n (P-1))
 *   tries   candidate entries tested against the receive mask recvl (a
 *           compact-table slot, a dense entry that is set, a heap item)
 *   rows    rows visited by the phases' loop over x (n per phase, empty
 *           rows included: the loop runs k = 1 .. n)
 *   phases  phases computed: the reset of sendl and recvl (2n words), the
 *           start row drawn, the phase output
 *   moves   entries written in the scheduler's tables: copied into the
 *           compact table, swapped by its Random_Swap, moved or cleared
 *           when taken; for ac, placed in the random send order */
typedef struct mpp_sched_work {
    uint64_t scan, tries, rows, phases, moves;
} mpp_sched_work;

/* A schedule, owned by whoever called the scheduler (mpp_schedule_free).
 * Phased schedulers: nphases >= 1 phases, each a partial permutation; a
 * phase may be empty (lp keeps its phases k without a message, whose
 * start-up the machine pays); gm, cgm, rs_n and rs_nh never make an empty
 * one, and an empty COM gives them nphases = 0. Dynamic schedulers
 * with a schedule hook (ac): nphases = 0, phase_start = NULL, and msgs holds
 * every entry once, whole, in the order each processor will send them:
 * grouped by source in increasing order of source, random order within a
 * source. A failed schedule hook leaves *out empty. */
typedef struct mpp_schedule {
    uint32_t nphases;
    uint32_t *phase_start;   /* [nphases + 1]: phase p is msgs[phase_start[p] .. phase_start[p+1]) */
    mpp_sched_msg *msgs;
    uint32_t nmsgs;
    uint64_t steps;          /* elementary steps of the scheduling algorithm */
    mpp_sched_work work;     /* the same work by kind, as a node processor runs it */
    double host_us;          /* host time of the scheduling (not deterministic) */
} mpp_schedule;

/* A runtime protocol (drs_n): node programs plus the callbacks that drive
 * them (core/program.h), and the protocol's state. */
typedef struct mpp_sched_runtime {
    mpp_program *prog;               /* [nodes], owned by ud */
    mpp_am_handler handler;
    mpp_app_start start;
    void *ud;
    void (*destroy)(void *ud);
    /* The hooks below may be NULL. */
    uint64_t (*inquiries)(const void *ud);      /* requests made (drs_n: lock inquiries) */
    uint64_t (*inquiries_busy)(const void *ud); /* of those, refused (drs_n: lock busy) */
    /* network cycle at which the protocol's set-up ended on the last
     * processor (drs_n: Generate_Recv) */
    uint64_t (*setup_cycles)(const void *ud);
    /* after a run: 0 when the protocol's invariants held, else MPP_EINVAL
     * and what was violated (tests) */
    int (*check)(const void *ud, mpp_err *err);
    /* releases of a lock that reached it before the last packet of the
     * message they follow had been read (drs_n) */
    uint64_t (*overtaken)(const void *ud);
} mpp_sched_runtime;

typedef struct mpp_sched_ops mpp_sched_ops;

/* A scheduler plug-in. dynamic: no phases (schedule may be NULL; replay
 * runs a runtime protocol). schedule fills out from com with the
 * scheduler's own stream derived from seed. */
struct mpp_sched_ops {
    const char *name;
    const char *help;
    bool dynamic;
    /* the messaging paradigm (mpp_paradigm) its paper ran it with: the
     * schedule workload's `paradigm: published` replays it so */
    int paradigm;
    mpp_schema schema;
    int (*schedule)(const mpp_com *com, const void *cfg, uint64_t seed, mpp_schedule *out,
                    mpp_err *err);
    /* Runtime protocols only (NULL otherwise): prepare the programs and
     * callbacks for a machine of `nodes` nodes; with pack, every data
     * message is gathered into its send buffer before it is sent (the
     * node's mem_word_cycles per 32-bit word, as mpp_node_copy_words). */
    int (*runtime)(const mpp_com *com, const void *cfg, uint64_t seed, uint32_t nodes, bool pack,
                   mpp_sched_runtime *rt, mpp_err *err);
};

const mpp_sched_ops *mpp_sched_find(const char *name);
const mpp_sched_ops *const *mpp_sched_all(void);
/* The family, for schemas (MPP_PT_PLUGIN rows) and the configuration layer. */
extern const mpp_family mpp_sched_family;

/* Check that s is a valid schedule of com: every phase a partial
 * permutation, the parts of every entry adding up exactly to it, nothing
 * else. Returns 0 or MPP_EINVAL with what is wrong. */
int mpp_schedule_check(const mpp_com *com, const mpp_schedule *s, mpp_err *err);
void mpp_schedule_free(mpp_schedule *s);

/* CPU cycles of work w on one node processor priced by node's
 * sched_scan_cycles, sched_try_cycles and sched_row_cycles (phases and
 * moves are counted, not priced: docs/machines.md). Cannot fail; not hot. */
uint64_t mpp_sched_work_cycles(const mpp_sched_work *w, const mpp_node_config *node);

#endif
