/* algorithms/rs_n.c — `rs_n`, random scheduling that avoids node
 * contention, for matrices with non-uniform sizes.
 *
 * The same decomposition as `cgm` (algorithms/cgm.c: a shuffled table of
 * each row's destinations; per phase a random start row, rows cyclically,
 * each taking its first destination whose receiver is free): every
 * message is sent whole, with its own size, in one phase, so a phase lasts
 * as long as its largest message. `rs_nh` (algorithms/rs_nh.c) groups
 * messages of similar size instead. With the same seed rs_n and cgm give
 * the same schedule; rs_n exists as its own name so experiments and the
 * literature's tables can name it. */
#include "algorithms/schedule.h"

extern const mpp_sched_ops mpp_sched_cgm;

static int rs_n_schedule(const mpp_com *com, const void *cfg, uint64_t seed, mpp_schedule *out,
                         mpp_err *err)
{
    return mpp_sched_cgm.schedule(com, NULL, seed, out, err);
}

const mpp_sched_ops mpp_sched_rs_n = {
    .name = "rs_n",
    .help = "random scheduling (node contention free): cgm's decomposition, non-uniform sizes",
    .schedule = rs_n_schedule,
};
