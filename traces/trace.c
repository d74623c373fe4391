/* traces/trace.c — message and operation traces: line formats, reading with
 * file:line errors, atomic writing, and node programs from traces (see
 * trace.h). Files are read through the shared line reader (lineio.h: plain
 * or gzip); a truncated or corrupt gzip stream is an error.
 * Invariants: a read trace has every node id < nodes, and the op trace's
 * operations are of known codes with peers < nodes. */
#include "traces/trace.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "core/base/strbuf.h"
#include "core/base/units.h"
#include "core/schema.h"
#include "core/sections.h"
#include "traces/lineio.h"

#define LINE_MAX_LEN 4096

/* --- growing ---------------------------------------------------------------- */

static int grow(void **p, uint32_t *cap, uint32_t n, size_t sz, mpp_err *err)
{
    if (n < *cap)
        return 0;
    uint32_t c = *cap ? *cap * 2 : 256;
    void *q = realloc(*p, (size_t)c * sz);
    if (!q)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    *p = q;
    *cap = c;
    return 0;
}

int mpp_msg_trace_add(mpp_msg_trace *t, const mpp_msg_trace_entry *e, mpp_err *err)
{
    int rc = grow((void **)&t->e, &t->cap, t->n, sizeof *t->e, err);
    if (!rc)
        t->e[t->n++] = *e;
    return rc;
}

int mpp_op_trace_add(mpp_op_trace *t, const mpp_op_trace_entry *e, mpp_err *err)
{
    int rc = grow((void **)&t->e, &t->cap, t->n, sizeof *t->e, err);
    if (!rc)
        t->e[t->n++] = *e;
    return rc;
}

void mpp_msg_trace_free(mpp_msg_trace *t)
{
    if (t) {
        free(t->e);
        memset(t, 0, sizeof *t);
    }
}

void mpp_op_trace_free(mpp_op_trace *t)
{
    if (t) {
        free(t->e);
        memset(t, 0, sizeof *t);
    }
}

/* --- reading lines ---------------------------------------------------------- */

/* The next line of r that is not blank or a # comment, without its leading
 * blanks: 1 with *s, 0 at the end of the file, or an error (mpp_lines_next). */
static int next_line(mpp_lines *r, char **s)
{
    int rc;
    while ((rc = mpp_lines_next(r, s, NULL)) == 1) {
        *s += strspn(*s, " \t");
        if (**s != '\0' && **s != '#')
            return 1;
    }
    return rc;
}

/* "key VALUE" header line; returns the value text or NULL. */
static const char *header(char *s, const char *key)
{
    size_t k = strlen(key);
    if (strncmp(s, key, k) != 0 || (s[k] != ' ' && s[k] != '\t'))
        return NULL;
    s += k;
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

static bool parse_u64(const char *s, uint64_t *v) { return mpp_units_u64(s, strlen(s), v); }

/* The `nodes N` header line (once, 1 <= N <= 2^24). */
static int nodes_line(mpp_lines *r, const char *v, bool *have, uint32_t *nodes)
{
    uint64_t x;
    if (*have || !parse_u64(v, &x) || x == 0 || x > (1u << 24))
        return mpp_lines_error(r, mpp_lines_number(r), "expected `nodes N` once, 1 <= N <= 16777216");
    *nodes = (uint32_t)x;
    *have = true;
    return 0;
}

/* Split s into at most max whitespace-separated fields; returns the count
 * (max + 1 when there are more). */
static int fields(char *s, char **f, int max)
{
    int n = 0;
    for (char *save = NULL, *tok = strtok_r(s, " \t", &save); tok;
         tok = strtok_r(NULL, " \t", &save)) {
        if (n == max)
            return max + 1;
        f[n++] = tok;
    }
    return n;
}

static const char *const op_names[] = {"SEND",   "ISEND", "RECV", "IRECV",   "SENDRECV",
                                       "WAIT",   "AM",    "POLL", "COMPUTE", "BARRIER",
                                       "REDUCE", "MARK",  "APP"};

/* --- message traces ------------------------------------------------------------ */

int mpp_msg_trace_read(const char *path, mpp_msg_trace *t, mpp_err *err)
{
    memset(t, 0, sizeof *t);
    mpp_lines *r;
    int rc = mpp_lines_open(&r, path, LINE_MAX_LEN, err);
    if (rc)
        return rc;
    mpp_err_clear(err);
    bool have_nodes = false, have_time = false;
    char *s;
    while ((rc = next_line(r, &s)) == 1) {
        const char *v;
        if ((v = header(s, "nodes"))) {
            if ((rc = nodes_line(r, v, &have_nodes, &t->nodes)))
                goto fail;
            continue;
        }
        if ((v = header(s, "time"))) {
            if (have_time || (strcmp(v, "us") && strcmp(v, "cycles"))) {
                rc = mpp_lines_error(r, mpp_lines_number(r),
                                     "expected `time us` or `time cycles` once");
                goto fail;
            }
            t->time_us = !strcmp(v, "us");
            have_time = true;
            continue;
        }
        if (!have_nodes || !have_time) {
            rc = mpp_lines_error(r, mpp_lines_number(r),
                                 "expected the `nodes N` and `time us|cycles` lines before the "
                                 "messages");
            goto fail;
        }
        char *f[6];
        int nf = fields(s, f, 5);
        if (nf != 5) {
            rc = mpp_lines_error(r, mpp_lines_number(r),
                                 "expected 5 fields `issue src dst bytes tag`, got %s%d",
                                 nf > 5 ? "more than " : "", nf > 5 ? 5 : nf);
            goto fail;
        }
        mpp_msg_trace_entry e;
        uint64_t a, b, c, d;
        if (!mpp_units_double(f[0], &e.issue) || !(e.issue >= 0) || !parse_u64(f[1], &a) ||
            !parse_u64(f[2], &b) || !parse_u64(f[3], &c) || !parse_u64(f[4], &d) ||
            d > UINT32_MAX) {
            rc = mpp_lines_error(r, mpp_lines_number(r),
                                 "expected a time >= 0 and non-negative integers `issue src dst "
                                 "bytes tag`");
            goto fail;
        }
        if (a >= t->nodes || b >= t->nodes || a == b) {
            rc = mpp_lines_error(r, mpp_lines_number(r),
                                 "src %" PRIu64 " and dst %" PRIu64
                                 " must be different nodes below %u",
                                 a, b, t->nodes);
            goto fail;
        }
        e.src = (uint32_t)a;
        e.dst = (uint32_t)b;
        e.bytes = c;
        e.tag = (uint32_t)d;
        if ((rc = mpp_msg_trace_add(t, &e, err)))
            goto fail;
    }
    if (rc < 0)
        goto fail;
    if (!have_nodes || !have_time) {
        rc = mpp_lines_error(r, mpp_lines_number(r),
                             "not a message trace: no `nodes` and `time` lines");
        goto fail;
    }
    mpp_lines_close(r);
    return 0;
fail:
    mpp_lines_close(r);
    mpp_msg_trace_free(t);
    return rc;
}

int mpp_msg_trace_write(const char *path, const mpp_msg_trace *t, mpp_err *err)
{
    mpp_sb sb;
    mpp_sb_init(&sb);
    mpp_sb_printf(&sb, "# mppnet message trace 1\nnodes %u\ntime %s\n# issue src dst bytes tag\n",
                  t->nodes, t->time_us ? "us" : "cycles");
    for (uint32_t i = 0; i < t->n; i++) {
        const mpp_msg_trace_entry *e = &t->e[i];
        if (t->time_us)
            mpp_sb_printf(&sb, "%.4f", e->issue);
        else
            mpp_sb_printf(&sb, "%.0f", e->issue);
        mpp_sb_printf(&sb, " %u %u %" PRIu64 " %u\n", e->src, e->dst, e->bytes, e->tag);
    }
    int rc = mpp_lines_write(path, &sb, err);
    mpp_sb_free(&sb);
    return rc;
}

/* --- operation traces ------------------------------------------------------------ */

int mpp_op_trace_read(const char *path, mpp_op_trace *t, mpp_err *err)
{
    memset(t, 0, sizeof *t);
    mpp_lines *r;
    int rc = mpp_lines_open(&r, path, LINE_MAX_LEN, err);
    if (rc)
        return rc;
    mpp_err_clear(err);
    bool have_nodes = false, have_hash = false, have_seed = false;
    char *s;
    while ((rc = next_line(r, &s)) == 1) {
        const char *v;
        if ((v = header(s, "nodes"))) {
            if ((rc = nodes_line(r, v, &have_nodes, &t->nodes)))
                goto fail;
            continue;
        }
        if ((v = header(s, "config_hash"))) {
            char *end;
            errno = 0;
            t->config_hash = strtoull(v, &end, 16);
            if (have_hash || errno || *end || strlen(v) != 16) {
                rc = mpp_lines_error(r, mpp_lines_number(r),
                                     "expected `config_hash` and 16 hex digits");
                goto fail;
            }
            have_hash = true;
            continue;
        }
        if ((v = header(s, "seed"))) {
            if (have_seed || !parse_u64(v, &t->seed)) {
                rc = mpp_lines_error(r, mpp_lines_number(r), "expected `seed S` once");
                goto fail;
            }
            have_seed = true;
            continue;
        }
        if (!have_nodes || !have_hash || !have_seed) {
            rc = mpp_lines_error(r, mpp_lines_number(r),
                                 "expected the nodes, config_hash and seed lines before the "
                                 "operations");
            goto fail;
        }
        char *f[9];
        int nf = fields(s, f, 8);
        if (nf != 8) {
            rc = mpp_lines_error(r, mpp_lines_number(r),
                                 "expected 8 fields `node cycle op peer peer2 tag bytes "
                                 "paradigm`, got %s%d",
                                 nf > 8 ? "more than " : "", nf > 8 ? 8 : nf);
            goto fail;
        }
        mpp_op_trace_entry e;
        memset(&e, 0, sizeof e);
        uint64_t node, cyc, peer, peer2, tag, bytes;
        int code = -1, par = -1;
        for (int k = 0; k < (int)(sizeof op_names / sizeof op_names[0]); k++)
            if (!strcmp(f[2], op_names[k]))
                code = k;
        for (int k = 0; k < 4; k++)
            if (!strcmp(f[7], mpp_paradigm_names[k]))
                par = k;
        bool any1 = !strcmp(f[3], "any"), any2 = !strcmp(f[4], "any");
        if (!parse_u64(f[0], &node) || !parse_u64(f[1], &cyc) || code < 0 ||
            (!any1 && !parse_u64(f[3], &peer)) || (!any2 && !parse_u64(f[4], &peer2)) ||
            !parse_u64(f[5], &tag) || !parse_u64(f[6], &bytes) || par < 0 || tag > UINT32_MAX) {
            rc = mpp_lines_error(
                r, mpp_lines_number(r),
                "expected `node cycle op peer peer2 tag bytes paradigm` (op one "
                "of SEND ... APP, peers a node or `any`, paradigm sync|async|am|am_put)");
            goto fail;
        }
        if (any1)
            peer = MPP_ANY;
        if (any2)
            peer2 = MPP_ANY;
        if (node >= t->nodes || (peer != MPP_ANY && peer >= t->nodes) ||
            (peer2 != MPP_ANY && peer2 >= t->nodes)) {
            rc = mpp_lines_error(r, mpp_lines_number(r), "a node id is not below %u", t->nodes);
            goto fail;
        }
        e.node = (uint32_t)node;
        e.cycle = cyc;
        e.op = (mpp_op){.code = (uint8_t)code, .paradigm = (uint8_t)par, .peer = (uint32_t)peer,
                        .peer2 = (uint32_t)peer2, .tag = (uint32_t)tag, .bytes = bytes};
        if ((rc = mpp_op_trace_add(t, &e, err)))
            goto fail;
    }
    if (rc < 0)
        goto fail;
    if (!have_nodes || !have_hash || !have_seed) {
        rc = mpp_lines_error(r, mpp_lines_number(r),
                             "not an operation trace: the nodes, config_hash and seed lines are "
                             "missing");
        goto fail;
    }
    mpp_lines_close(r);
    return 0;
fail:
    mpp_lines_close(r);
    mpp_op_trace_free(t);
    return rc;
}

static void peer_text(mpp_sb *sb, uint32_t p)
{
    if (p == MPP_ANY)
        mpp_sb_add(sb, " any");
    else
        mpp_sb_printf(sb, " %u", p);
}

int mpp_op_trace_write(const char *path, const mpp_op_trace *t, mpp_err *err)
{
    mpp_sb sb;
    mpp_sb_init(&sb);
    mpp_sb_printf(&sb,
                  "# mppnet operation trace 1\nnodes %u\nconfig_hash %016" PRIx64 "\nseed %" PRIu64
                  "\n# node cycle op peer peer2 tag bytes paradigm\n",
                  t->nodes, t->config_hash, t->seed);
    for (uint32_t i = 0; i < t->n; i++) {
        const mpp_op_trace_entry *e = &t->e[i];
        mpp_sb_printf(&sb, "%u %" PRIu64 " %s", e->node, e->cycle,
                      e->op.code < sizeof op_names / sizeof op_names[0] ? op_names[e->op.code] : "?");
        peer_text(&sb, e->op.peer);
        peer_text(&sb, e->op.peer2);
        mpp_sb_printf(&sb, " %u %" PRIu64 " %s\n", e->op.tag, e->op.bytes,
                      mpp_paradigm_names[e->op.paradigm < 4 ? e->op.paradigm : 0]);
    }
    int rc = mpp_lines_write(path, &sb, err);
    mpp_sb_free(&sb);
    return rc;
}

/* --- programs from traces ------------------------------------------------------- */

int mpp_trace_programs_ops(const mpp_op_trace *t, uint32_t nodes, mpp_progbuild *b, mpp_err *err)
{
    memset(b, 0, sizeof *b);
    if (t->nodes != nodes)
        return mpp_err_set(err, MPP_EINVAL, "the trace has %u nodes, the machine %u", t->nodes,
                           nodes);
    int rc = mpp_progbuild_init(b, nodes, err);
    for (uint32_t i = 0; i < t->n && !rc; i++) {
        if (t->e[i].op.code == MPP_OP_APP)
            rc = mpp_err_set(err, MPP_EINVAL,
                             "the trace holds a runtime protocol's APP operation (node %u), which "
                             "cannot be re-executed from a trace",
                             t->e[i].node);
        else
            rc = mpp_progbuild_add(b, t->e[i].node, t->e[i].op, err);
    }
    if (rc)
        mpp_progbuild_free(b);
    return rc;
}

static int cmp_issue(const void *a, const void *b)
{
    const mpp_msg_trace_entry *x = *(const mpp_msg_trace_entry *const *)a;
    const mpp_msg_trace_entry *y = *(const mpp_msg_trace_entry *const *)b;
    if (x->issue != y->issue)
        return x->issue < y->issue ? -1 : 1;
    return x < y ? -1 : x > y; /* stable: file order */
}

int mpp_trace_programs_msgs(const mpp_msg_trace *t, uint32_t nodes, int paradigm, double cpu_mhz,
                            double net_mhz, mpp_progbuild *b, mpp_err *err)
{
    memset(b, 0, sizeof *b);
    if (t->nodes > nodes)
        return mpp_err_set(err, MPP_EINVAL, "the trace has %u nodes, the machine only %u",
                           t->nodes, nodes);
    if (!(cpu_mhz > 0) || (!t->time_us && !(net_mhz > 0)))
        return mpp_err_set(err, MPP_EINVAL, "replaying a message trace needs node.cpu_mhz (and "
                                            "network.net_mhz for a trace in cycles)");
    int rc = mpp_progbuild_init(b, nodes, err);
    if (rc)
        return rc;
    const mpp_msg_trace_entry **order = malloc((t->n + 1) * sizeof *order);
    double *clock = calloc(nodes, sizeof *clock); /* CPU cycles scheduled so far */
    if (!order || !clock)
        rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
    for (uint32_t i = 0; i < t->n && !rc; i++)
        order[i] = &t->e[i];
    if (!rc)
        qsort(order, t->n, sizeof *order, cmp_issue);
    /* receivers post their receives first, in trace order */
    for (uint32_t i = 0; i < t->n && !rc; i++)
        rc = mpp_progbuild_add(b, t->e[i].dst, (mpp_op){.code = MPP_OP_IRECV, .peer = t->e[i].src, .tag = t->e[i].tag}, err);
    uint8_t code = paradigm == MPP_PARADIGM_ASYNC ? MPP_OP_ISEND : MPP_OP_SEND;
    for (uint32_t i = 0; i < t->n && !rc; i++) {
        const mpp_msg_trace_entry *e = order[i];
        double at = t->time_us ? e->issue * cpu_mhz : e->issue * cpu_mhz / net_mhz;
        if (!(at >= 0 && at < MPP_TRACE_MAX_CPU_CYCLES)) {
            rc = mpp_err_set(err, MPP_EINVAL,
                             "message %u of the trace (%u -> %u): issue time %g %s is %g CPU "
                             "cycles, beyond the %.3g cycles a replay counts",
                             (unsigned)(e - t->e), e->src, e->dst, e->issue,
                             t->time_us ? "us" : "cycles", at, MPP_TRACE_MAX_CPU_CYCLES);
            break;
        }
        if (at > clock[e->src]) {
            uint64_t gap = (uint64_t)llround(at - clock[e->src]);
            if (gap)
                rc = mpp_progbuild_add(b, e->src, (mpp_op){.code = MPP_OP_COMPUTE, .bytes = gap}, err);
            clock[e->src] += (double)gap;
        }
        if (!rc)
            rc = mpp_progbuild_add(b, e->src, (mpp_op){.code = code, .paradigm = (uint8_t)paradigm,
                                           .peer = e->dst, .tag = e->tag, .bytes = e->bytes}, err);
    }
    for (uint32_t n = 0; n < nodes && !rc; n++)
        if (b->prog[n].len)
            rc = mpp_progbuild_add(b, n, (mpp_op){.code = MPP_OP_WAIT}, err);
    free(order);
    free(clock);
    if (rc)
        mpp_progbuild_free(b);
    return rc;
}
