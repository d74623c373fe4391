/* algorithms/schedule.h — schedulers: a COM into a schedule (mpp_sched_*).
 *
 * A scheduler plug-in turns a communication matrix into either an ordered
 * list of phases, each a partial permutation (every processor sends at most
 * one and receives at most one message in a phase), or, for the dynamic
 * ones (ac, drs_n), a runtime protocol run by the node processors at
 * replay. Every schedule delivers every COM entry exactly once; a scheduler
 * may split an entry into parts over several phases (rs_nh), which must add
 * up exactly. Each reports its number of phases, its host scheduling time
 * and a machine-independent count of elementary steps. */
#ifndef MPP_ALGORITHMS_SCHEDULE_H
#define MPP_ALGORITHMS_SCHEDULE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/err.h"
#include "core/base/param.h"
#include "core/program.h"
#include "traces/com.h"

/* One message (or part of one) of a phase. */
typedef struct mpp_sched_msg {
    uint32_t src, dst;
    uint64_t units;
} mpp_sched_msg;

/* A schedule, owned by whoever called the scheduler (mpp_schedule_free).
 * Phased schedulers: nphases >= 1 non-empty phases (empty ones are dropped,
 * e.g. lp's phases k without a message, but still counted in steps), each a
 * partial permutation; an empty COM gives nphases = 0. Dynamic schedulers
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
    mpp_schema schema;
    int (*schedule)(const mpp_com *com, const void *cfg, uint64_t seed, mpp_schedule *out,
                    mpp_err *err);
    /* Runtime protocols only (NULL otherwise): prepare the programs and
     * callbacks for a machine of `nodes` nodes. */
    int (*runtime)(const mpp_com *com, const void *cfg, uint64_t seed, uint32_t nodes,
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

#endif
