/* algorithms/replay.c — build node programs from a scheduled COM (see
 * replay.h for the programs). Invariant: every COM entry (or every part of
 * it a scheduler split off) is sent by exactly one SEND-like operation and
 * received by exactly one RECV-like operation. */
#include "algorithms/replay.h"

#include <stdlib.h>
#include <string.h>

static int add(mpp_replay *r, uint32_t n, mpp_op op, mpp_err *err)
{
    return mpp_progbuild_add(&r->pb, n, op, err);
}

/* The gathering of a message of `bytes` into its send buffer (nothing when
 * the workload does not pack or the copy is free). */
static int add_pack(mpp_replay *r, uint32_t n, uint64_t bytes, uint64_t word_cycles,
                    mpp_err *err)
{
    if (!word_cycles)
        return 0;
    return add(r, n, (mpp_op){.code = MPP_OP_COMPUTE, .bytes = word_cycles * ((bytes + 3) / 4)},
               err);
}

static int load_com(mpp_com *c, const mpp_replay_config *w, uint32_t nodes, uint64_t seed,
                    mpp_err *err)
{
    if (w->com[0]) {
        mpp_com_seq seq;
        int rc = mpp_com_read(w->com, &seq, err);
        if (rc)
            return rc;
        if (w->com_step >= seq.count) {
            rc = mpp_err_set(err, MPP_EINVAL, "%s holds %u matrices; workload.com_step %u is not one",
                             w->com, seq.count, w->com_step);
            mpp_com_seq_free(&seq);
            return rc;
        }
        rc = mpp_com_copy(c, &seq.m[w->com_step], err);
        mpp_com_seq_free(&seq);
        if (rc)
            return rc;
    } else {
        uint32_t d = w->d;
        if (d >= nodes)
            return mpp_err_set(err, MPP_EINVAL,
                               "workload.d = %u: a %u-node machine has at most %u destinations per "
                               "processor",
                               d, nodes, nodes - 1);
        int rc = w->gen == 0 ? mpp_com_gen_regular(c, nodes, d, w->units ? w->units : 1, 1, seed, err)
                             : mpp_com_gen_nonuniform(c, nodes, d, 1, seed, err);
        if (rc)
            return rc;
    }
    if (w->msg_unit)
        c->msg_unit = w->msg_unit;
    if (c->n > nodes) {
        uint32_t n = c->n;
        mpp_com_free(c);
        return mpp_err_set(err, MPP_EINVAL, "the matrix has %u processors but the machine only %u nodes",
                           n, nodes);
    }
    return 0;
}

int mpp_replay_prepare(mpp_replay *r, const mpp_replay_config *w, int paradigm, uint32_t nodes,
                       uint64_t seed, uint32_t word_cycles, mpp_err *err)
{
    uint64_t pack = w->pack ? word_cycles : 0;
    memset(r, 0, sizeof *r);
    if (!w->scheduler)
        return mpp_err_set(err, MPP_EINVAL, "workload names no scheduler");
    int rc = load_com(&r->com, w, nodes, seed, err);
    if (rc)
        return rc;
    if ((rc = mpp_progbuild_init(&r->pb, nodes, err)))
        goto fail;
    const mpp_sched_ops *ops = w->scheduler;
    if (ops->runtime) {
        if ((rc = ops->runtime(&r->com, w->sched_cfg.b, seed, nodes, w->pack, &r->rt, err)))
            goto fail;
        for (uint32_t p = 0; p < nodes && !rc; p++)
            for (uint32_t k = 0; k < r->rt.prog[p].len && !rc; k++)
                rc = add(r, p, r->rt.prog[p].ops[k], err);
        if (rc)
            goto fail;
        return 0;
    }
    if (ops->schedule) {
        if ((rc = ops->schedule(&r->com, w->sched_cfg.b, seed, &r->sched, err)))
            goto fail;
        if (!ops->dynamic && (rc = mpp_schedule_check(&r->com, &r->sched, err)))
            goto fail;
    }
    uint64_t unit = r->com.msg_unit;
    bool async = paradigm == MPP_PARADIGM_ASYNC;
    uint8_t scode = async ? MPP_OP_ISEND : MPP_OP_SEND;
    uint8_t par = (uint8_t)paradigm;
    if (ops->dynamic && !ops->schedule) {
        rc = mpp_err_set(err, MPP_EINVAL, "scheduler '%s' has no replay", ops->name);
        goto fail;
    }
    if (ops->dynamic) {
        /* ac: all receives posted, then the sends in the scheduler's order */
        for (uint32_t i = 0; i < r->com.nnz && !rc; i++)
            rc = add(r, r->com.e[i].dst,
                     (mpp_op){.code = MPP_OP_IRECV, .peer = r->com.e[i].src}, err);
        for (uint32_t i = 0; i < r->sched.nmsgs && !rc; i++) {
            const mpp_sched_msg *m = &r->sched.msgs[i];
            rc = add_pack(r, m->src, m->units * unit, pack, err);
            if (!rc)
                rc = add(r, m->src, (mpp_op){.code = scode, .paradigm = par, .peer = m->dst,
                                             .bytes = m->units * unit}, err);
        }
        for (uint32_t p = 0; p < nodes && !rc; p++)
            if (r->pb.prog[p].len)
                rc = add(r, p, (mpp_op){.code = MPP_OP_WAIT}, err);
        if (rc)
            goto fail;
        return 0;
    }
    uint32_t *to = malloc(nodes * sizeof *to), *from = malloc(nodes * sizeof *from);
    uint64_t *bytes = malloc(nodes * sizeof *bytes);
    bool *active = calloc(nodes, sizeof *active);
    if (!to || !from || !bytes || !active) {
        free(to);
        free(from);
        free(bytes);
        free(active);
        rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
        goto fail;
    }
    for (uint32_t p = 0; p < r->com.n && p < nodes; p++)
        active[p] = true; /* every processor of the matrix runs the schedule */
    for (uint32_t ph = 0; ph < r->sched.nphases && !rc; ph++) {
        for (uint32_t p = 0; p < nodes; p++)
            to[p] = from[p] = MPP_ANY;
        for (uint32_t k = r->sched.phase_start[ph]; k < r->sched.phase_start[ph + 1]; k++) {
            const mpp_sched_msg *m = &r->sched.msgs[k];
            to[m->src] = m->dst;
            bytes[m->src] = m->units * unit;
            from[m->dst] = m->src;
        }
        for (uint32_t p = 0; p < nodes && !rc; p++) {
            bool s = to[p] != MPP_ANY, v = from[p] != MPP_ANY;
            /* every processor of the schedule walks every phase (its
             * bookkeeping: node.phase_cycles), sending or receiving in it
             * or not */
            if (!active[p])
                continue;
            rc = add(r, p, (mpp_op){.code = MPP_OP_MARK, .tag = ph}, err);
            if (rc || (!s && !v))
                continue;
            if (s)
                rc = add_pack(r, p, bytes[p], pack, err);
            if (!rc && paradigm == MPP_PARADIGM_SYNC && s && v)
                rc = add(r, p, (mpp_op){.code = MPP_OP_SENDRECV, .paradigm = par, .peer = to[p],
                                        .peer2 = from[p], .bytes = bytes[p]}, err);
            else if (!rc && paradigm == MPP_PARADIGM_SYNC) {
                if (s)
                    rc = add(r, p, (mpp_op){.code = MPP_OP_SEND, .paradigm = par, .peer = to[p],
                                            .bytes = bytes[p]}, err);
                else
                    rc = add(r, p, (mpp_op){.code = MPP_OP_RECV, .peer = from[p]}, err);
            } else if (!rc) {
                if (v)
                    rc = add(r, p, (mpp_op){.code = MPP_OP_IRECV, .peer = from[p]}, err);
                if (!rc && s)
                    rc = add(r, p, (mpp_op){.code = scode, .paradigm = par, .peer = to[p],
                                            .bytes = bytes[p]}, err);
                if (!rc)
                    rc = add(r, p, (mpp_op){.code = MPP_OP_WAIT}, err);
            }
        }
    }
    free(to);
    free(from);
    free(bytes);
    free(active);
    if (rc)
        goto fail;
    return 0;
fail:
    mpp_replay_free(r);
    return rc;
}

void mpp_replay_free(mpp_replay *r)
{
    if (!r)
        return;
    mpp_progbuild_free(&r->pb);
    mpp_schedule_free(&r->sched);
    if (r->rt.destroy)
        r->rt.destroy(r->rt.ud);
    mpp_com_free(&r->com);
    memset(r, 0, sizeof *r);
}
