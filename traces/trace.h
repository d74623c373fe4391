/* traces/trace.h — message traces and operation traces (mpp_trace_*).
 *
 * Message trace (import communication from elsewhere, replay it as timed
 * sends on any machine). Text lines, plain or gzip:
 *     # mppnet message trace 1
 *     nodes 32
 *     time us                 (or: time cycles)
 *     # issue src dst bytes tag
 *     0.000 0 5 4096 0
 * Operation trace (re-execute a run exactly on the machine that recorded
 * it): the operations every processor started, with their cycles, and the
 * configuration hash and seed of the run:
 *     # mppnet operation trace 1
 *     nodes 32
 *     config_hash 0123456789abcdef
 *     seed 1
 *     # node cycle op peer peer2 tag bytes paradigm
 *     0 0 SENDRECV 5 7 0 4096 sync
 * Blank lines and lines starting with # are comments. Reading a malformed,
 * truncated or inconsistent file fails with MPP_EFORMAT "FILE:LINE: ..."
 * (MPP_EIO when it cannot be opened) and holds nothing; writing is atomic
 * and gzip when the name ends in ".gz". */
#ifndef MPP_TRACES_TRACE_H
#define MPP_TRACES_TRACE_H

#include <stdint.h>

#include "core/base/err.h"
#include "core/program.h"

/* The latest issue time a message-trace replay accepts, in CPU cycles
 * (2^62: a processor's clock never wraps). */
#define MPP_TRACE_MAX_CPU_CYCLES 4611686018427387904.0

typedef struct mpp_msg_trace_entry {
    double issue;         /* in the trace's time unit */
    uint32_t src, dst;
    uint64_t bytes;
    uint32_t tag;
} mpp_msg_trace_entry;

typedef struct mpp_msg_trace {
    uint32_t nodes;
    int time_us;          /* 1: issue in microseconds, 0: in network cycles */
    uint32_t n, cap;
    mpp_msg_trace_entry *e;
} mpp_msg_trace;

typedef struct mpp_op_trace_entry {
    uint32_t node;
    uint64_t cycle;       /* network cycle the processor started it */
    mpp_op op;
} mpp_op_trace_entry;

typedef struct mpp_op_trace {
    uint32_t nodes;
    uint64_t config_hash, seed;
    uint32_t n, cap;
    mpp_op_trace_entry *e;
} mpp_op_trace;

int mpp_msg_trace_add(mpp_msg_trace *t, const mpp_msg_trace_entry *e, mpp_err *err);
int mpp_msg_trace_read(const char *path, mpp_msg_trace *t, mpp_err *err);
int mpp_msg_trace_write(const char *path, const mpp_msg_trace *t, mpp_err *err);
void mpp_msg_trace_free(mpp_msg_trace *t);

int mpp_op_trace_add(mpp_op_trace *t, const mpp_op_trace_entry *e, mpp_err *err);
int mpp_op_trace_read(const char *path, mpp_op_trace *t, mpp_err *err);
int mpp_op_trace_write(const char *path, const mpp_op_trace *t, mpp_err *err);
void mpp_op_trace_free(mpp_op_trace *t);

/* Node programs from a trace, into the builder b (initialised here; free
 * it with mpp_progbuild_free; on failure it holds nothing):
 *   op trace: every node's operations in order (APP operations of runtime
 *     protocols cannot be re-executed: MPP_EINVAL);
 *   message trace: each source's messages in issue order as COMPUTE gaps
 *     (CPU cycles at cpu_mhz, or network cycles converted with both clocks)
 *     and blocking SENDs of `paradigm`; every destination posts an IRECV
 *     per incoming message first and WAITs at the end. */
int mpp_trace_programs_ops(const mpp_op_trace *t, uint32_t nodes, mpp_progbuild *b, mpp_err *err);
int mpp_trace_programs_msgs(const mpp_msg_trace *t, uint32_t nodes, int paradigm, double cpu_mhz,
                            double net_mhz, mpp_progbuild *b, mpp_err *err);

#endif
