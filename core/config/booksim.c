/* core/config/booksim.c — BookSim 2 configuration files read and mapped onto
 * an mppnet experiment (see booksim.h; the mapping is docs/booksim.md).
 *
 * What it models: BookSim's configuration (booksim_config.cpp: a flat list
 * of about 200 keys with defaults) is a description of one simulation:
 * topology, routing function, router micro-architecture, traffic and the
 * sampling of the run. Reading it is two steps:
 *
 *   text ──bs_lex──> statements (key, value, line, column)
 *        ──mpp_booksim_override──> statements (the command line's last)
 *        ──mpp_booksim_experiment──> located YAML tree ──load──> experiment
 *
 * Data structures: mpp_booksim holds the statements in order; a lookup
 * takes the last statement of a key (BookSim's "the last assignment wins").
 * `keys[]` is the table of every BookSim key this version of BookSim
 * knows, each with its default and what mppnet does with it:
 *   MAP      mapped onto an mppnet key by build_tree;
 *   NOEFFECT printing, watching, power estimation: no effect on results,
 *            accepted;
 *   DEFAULT  honoured only at BookSim's default value (anything else is an
 *            error naming the key and what mppnet would need);
 *   UNUSED   without effect unless another key selects it (use_read_write,
 *            sim_type batch, injection_process on_off, speculative ...):
 *            accepted while that key does not; build_tree checks the
 *            selecting key.
 *
 * Invariants:
 *   1. every statement's key is in keys[] (mpp_booksim_experiment refuses
 *      the others before mapping anything);
 *   2. every node of the tree built carries the location of the statement
 *      it came from (or "BookSim default of KEY"), so an error found when
 *      the experiment is resolved points at the BookSim line to change;
 *   3. the reader never reads past len and never keeps more than the
 *      bounds of booksim.h. */
#include "core/config/booksim.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/file.h"
#include "core/base/param.h"
#include "core/base/strbuf.h"
#include "core/config/cfgtree.h"

typedef struct bs_stmt {
    char *key, *value;
    uint32_t line, col, vcol; /* line 0: from the command line */
    char *origin;             /* the command-line text, or NULL (the file's) */
} bs_stmt;

struct mpp_booksim {
    char *origin; /* the file's name */
    char *dir;    /* the folder of the file ("" for none), for network_file */
    bs_stmt *s;
    size_t n, cap;
};

/* ------------------------------------------------------------ the lexer */

typedef struct lexer {
    const char *t;
    size_t len, i;
    uint32_t line, col;
    const char *origin;
} lexer;

static int lex_fail(const lexer *L, mpp_err *err, const char *fmt, const char *a)
{
    char msg[300];
    snprintf(msg, sizeof msg, fmt, a);
    if (L->line)
        return mpp_err_set(err, MPP_EINVAL, "%s:%" PRIu32 ":%" PRIu32 ": %s", L->origin, L->line,
                           L->col, msg);
    return mpp_err_set(err, MPP_EINVAL, "%s: %s", L->origin, msg);
}

static void lex_adv(lexer *L)
{
    if (L->t[L->i] == '\n') {
        if (L->line)
            L->line++;
        L->col = 1;
    } else {
        L->col++;
    }
    L->i++;
}

/* Skip blanks, newlines and comments. 0, or an unterminated block comment. */
static int lex_skip(lexer *L, mpp_err *err)
{
    for (;;) {
        while (L->i < L->len && strchr(" \t\r\n\f\v", L->t[L->i]) && L->t[L->i])
            lex_adv(L);
        if (L->i + 1 < L->len && L->t[L->i] == '/' && L->t[L->i + 1] == '/') {
            while (L->i < L->len && L->t[L->i] != '\n')
                lex_adv(L);
        } else if (L->i + 1 < L->len && L->t[L->i] == '/' && L->t[L->i + 1] == '*') {
            lexer at = *L;
            lex_adv(L);
            lex_adv(L);
            while (L->i < L->len && !(L->t[L->i] == '*' && L->i + 1 < L->len &&
                                      L->t[L->i + 1] == '/'))
                lex_adv(L);
            if (L->i >= L->len)
                return lex_fail(&at, err, "a block comment /* ... */ that never ends%s", "");
            lex_adv(L);
            lex_adv(L);
        } else {
            return 0;
        }
    }
}

static bool is_key_char(char c) { return isalnum((unsigned char)c) || c == '_'; }
static bool is_value_char(char c)
{
    return isalnum((unsigned char)c) || (c && strchr("_-/.+(){},:", c));
}

static void show_char(char c, char *buf, size_t size)
{
    if (isprint((unsigned char)c))
        snprintf(buf, size, "'%c'", c);
    else
        snprintf(buf, size, "byte 0x%02x", (unsigned char)c);
}

/* One statement `key = value` followed by ';' (need_semi) or the end. */
static int lex_stmt(lexer *L, bool need_semi, bs_stmt *st, mpp_err *err)
{
    char c[16];
    memset(st, 0, sizeof *st);
    st->line = L->line;
    st->col = L->col;
    size_t k0 = L->i;
    if (!(isalpha((unsigned char)L->t[L->i]) || L->t[L->i] == '_')) {
        show_char(L->t[L->i], c, sizeof c);
        return lex_fail(L, err, "expected a key (a name such as num_vcs), got %s", c);
    }
    while (L->i < L->len && is_key_char(L->t[L->i]))
        lex_adv(L);
    size_t klen = L->i - k0;
    if (klen > MPP_BOOKSIM_MAX_KEY)
        return lex_fail(L, err, "a key longer than %s characters", "64");
    if (lex_skip(L, err))
        return err->code;
    if (L->i >= L->len || L->t[L->i] != '=') {
        if (L->i >= L->len)
            return lex_fail(L, err, "expected '=' after the key, got the end%s", "");
        show_char(L->t[L->i], c, sizeof c);
        return lex_fail(L, err, "expected '=' after the key, got %s", c);
    }
    lex_adv(L);
    if (lex_skip(L, err))
        return err->code;
    st->vcol = L->col;
    uint32_t vline = L->line;
    size_t v0 = L->i, vlen;
    bool quoted = false;
    if (L->i < L->len && L->t[L->i] == '"') {
        quoted = true;
        lex_adv(L);
        v0 = L->i;
        while (L->i < L->len && L->t[L->i] != '"' && L->t[L->i] != '\n' && L->t[L->i])
            lex_adv(L);
        if (L->i >= L->len || L->t[L->i] != '"')
            return lex_fail(L, err, "a string \"...\" that does not end on its line%s", "");
        vlen = L->i - v0;
        lex_adv(L);
    } else if (L->i < L->len && L->t[L->i] == '{') {
        int depth = 0;
        do {
            if (L->t[L->i] == '{')
                depth++;
            else if (L->t[L->i] == '}')
                depth--;
            else if (!is_value_char(L->t[L->i])) {
                show_char(L->t[L->i], c, sizeof c);
                return lex_fail(L, err, "a {list} holds names, numbers and commas only, got %s",
                                c);
            }
            lex_adv(L);
        } while (depth > 0 && L->i < L->len);
        if (depth > 0)
            return lex_fail(L, err, "a {list} that never ends (expected '}')%s", "");
        vlen = L->i - v0;
    } else {
        while (L->i < L->len && is_value_char(L->t[L->i]))
            lex_adv(L);
        vlen = L->i - v0;
        if (!vlen) {
            if (L->i >= L->len)
                return lex_fail(L, err, "expected a value after '=', got the end%s", "");
            show_char(L->t[L->i], c, sizeof c);
            return lex_fail(L, err, "expected a value (a number, a name or a {list}), got %s",
                            c);
        }
    }
    (void)vline;
    if (vlen > MPP_BOOKSIM_MAX_VALUE)
        return lex_fail(L, err, "a value longer than %s characters", "1024");
    if (lex_skip(L, err))
        return err->code;
    if (need_semi || L->i < L->len) {
        if (L->i >= L->len || L->t[L->i] != ';') {
            if (L->i >= L->len)
                return lex_fail(L, err, "expected ';' after the value, got the end%s", "");
            show_char(L->t[L->i], c, sizeof c);
            return lex_fail(L, err, "expected ';' after the value, got %s", c);
        }
        lex_adv(L);
    }
    st->key = malloc(klen + 1);
    st->value = malloc(vlen + 1);
    if (!st->key || !st->value) {
        free(st->key);
        free(st->value);
        st->key = st->value = NULL;
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    }
    memcpy(st->key, L->t + k0, klen);
    st->key[klen] = '\0';
    memcpy(st->value, L->t + v0, vlen);
    st->value[vlen] = '\0';
    (void)quoted;
    return 0;
}

static int push(mpp_booksim *b, bs_stmt *st, mpp_err *err)
{
    if (b->n >= MPP_BOOKSIM_MAX_STMTS) {
        free(st->key);
        free(st->value);
        free(st->origin);
        return mpp_err_set(err, MPP_EINVAL, "%s:%" PRIu32 ":%" PRIu32
                           ": more than %u statements", b->origin, st->line, st->col,
                           MPP_BOOKSIM_MAX_STMTS);
    }
    if (b->n == b->cap) {
        size_t nc = b->cap ? 2 * b->cap : 64;
        bs_stmt *ns = realloc(b->s, nc * sizeof *ns);
        if (!ns) {
            free(st->key);
            free(st->value);
            free(st->origin);
            return mpp_err_set(err, MPP_ENOMEM, "out of memory");
        }
        b->s = ns;
        b->cap = nc;
    }
    b->s[b->n++] = *st;
    return 0;
}

void mpp_booksim_free(mpp_booksim *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->n; i++) {
        free(b->s[i].key);
        free(b->s[i].value);
        free(b->s[i].origin);
    }
    free(b->s);
    free(b->origin);
    free(b->dir);
    free(b);
}

bool mpp_booksim_detect(const char *text, size_t len)
{
    lexer L = {text, len, 0, 1, 1, ""};
    mpp_err e;
    if (lex_skip(&L, &e))
        return true; /* an unterminated block comment: YAML has none */
    if (L.i >= len || !(isalpha((unsigned char)text[L.i]) || text[L.i] == '_'))
        return false;
    while (L.i < len && is_key_char(text[L.i]))
        L.i++;
    while (L.i < len && (text[L.i] == ' ' || text[L.i] == '\t'))
        L.i++;
    return L.i < len && text[L.i] == '=';
}

mpp_booksim *mpp_booksim_parse(const char *text, size_t len, const char *origin, mpp_err *err)
{
    if (!origin)
        origin = "<string>";
    mpp_booksim *b = calloc(1, sizeof *b);
    if (!b || !(b->origin = strdup(origin))) {
        free(b);
        mpp_err_set(err, MPP_ENOMEM, "out of memory");
        return NULL;
    }
    const char *slash = strrchr(origin, '/');
    size_t dl = slash ? (size_t)(slash - origin) + 1 : 0;
    if (!(b->dir = malloc(dl + 1))) {
        mpp_booksim_free(b);
        mpp_err_set(err, MPP_ENOMEM, "out of memory");
        return NULL;
    }
    memcpy(b->dir, origin, dl);
    b->dir[dl] = '\0';
    if (len > MPP_BOOKSIM_MAX_BYTES) {
        mpp_err_set(err, MPP_EINVAL, "%s: a BookSim configuration of %zu bytes, above the "
                    "limit of %u", origin, len, MPP_BOOKSIM_MAX_BYTES);
        mpp_booksim_free(b);
        return NULL;
    }
    /* a NUL byte: where it is */
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        uint32_t line = 1, col = 1;
        for (const char *p = text; p < nul; p++) {
            if (*p == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
        }
        mpp_err_set(err, MPP_EINVAL, "%s:%" PRIu32 ":%" PRIu32
                    ": a NUL byte: a BookSim configuration is text", origin, line, col);
        mpp_booksim_free(b);
        return NULL;
    }
    lexer L = {text, len, 0, 1, 1, origin};
    for (;;) {
        if (lex_skip(&L, err))
            goto fail;
        if (L.i >= len)
            break;
        bs_stmt st;
        if (lex_stmt(&L, true, &st, err) || push(b, &st, err))
            goto fail;
    }
    mpp_err_clear(err);
    return b;
fail:
    mpp_booksim_free(b);
    return NULL;
}

mpp_booksim *mpp_booksim_load(const char *path, mpp_err *err)
{
    char *text = NULL;
    size_t len = 0;
    if (mpp_file_read(path, MPP_BOOKSIM_MAX_BYTES, &text, &len, err))
        return NULL;
    mpp_booksim *b = mpp_booksim_parse(text, len, path, err);
    free(text);
    return b;
}

int mpp_booksim_override(mpp_booksim *b, const char *assignment, mpp_err *err)
{
    char origin[MPP_BOOKSIM_MAX_KEY + MPP_BOOKSIM_MAX_VALUE + 32];
    size_t alen = strlen(assignment);
    if (alen > MPP_BOOKSIM_MAX_KEY + MPP_BOOKSIM_MAX_VALUE + 1)
        return mpp_err_set(err, MPP_EINVAL, "command line: %.80s...: an override longer than "
                           "%u characters", assignment,
                           MPP_BOOKSIM_MAX_KEY + MPP_BOOKSIM_MAX_VALUE + 1);
    snprintf(origin, sizeof origin, "command line: %s", assignment);
    lexer L = {assignment, alen, 0, 0, 1, origin};
    bs_stmt st;
    if (lex_skip(&L, err))
        return err->code;
    if (L.i >= alen)
        return mpp_err_set(err, MPP_EINVAL, "%s: expected key=value", origin);
    if (lex_stmt(&L, false, &st, err))
        return err->code;
    if (lex_skip(&L, err) == 0 && L.i < alen) {
        free(st.key);
        free(st.value);
        return mpp_err_set(err, MPP_EINVAL, "%s: one key=value per argument", origin);
    }
    st.line = 0;
    if (!(st.origin = strdup(origin))) {
        free(st.key);
        free(st.value);
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    }
    return push(b, &st, err);
}

/* ------------------------------------------------------------ the keys */

typedef enum { BS_INT, BS_FLOAT, BS_STR } bs_type;
typedef enum { K_MAP, K_NOEFFECT, K_DEFAULT, K_UNUSED } bs_kind;

typedef struct bs_key {
    const char *key;
    bs_type type;
    const char *def;  /* BookSim's default, as text */
    bs_kind kind;
    const char *note; /* MAP: the mppnet key; DEFAULT: what mppnet would need;
                         UNUSED: the key that would give it an effect */
} bs_key;

static const bs_key keys[] = {
    /* topology */
    {"topology", BS_STR, "torus", K_MAP, "network.topology"},
    {"k", BS_INT, "8", K_MAP, "network.<topology>.k (the radix)"},
    {"n", BS_INT, "2", K_MAP, "network.<topology>.n (the dimensions)"},
    {"c", BS_INT, "1", K_MAP, "network.cmesh.c, network.flatfly.c (the concentration); on a mesh or torus only 1 (BookSim ignores it there); no effect on the other topologies, as in BookSim"},
    {"x", BS_INT, "8", K_MAP, "network.flatfly.x; no effect on the other topologies, as in BookSim (its cmesh only asserts x = y)"},
    {"y", BS_INT, "8", K_MAP, "network.flatfly.y; no effect on the other topologies, as in BookSim"},
    {"xr", BS_INT, "1", K_MAP, "network.cmesh.xr, network.flatfly.xr; no effect on the other topologies, as in BookSim"},
    {"yr", BS_INT, "1", K_MAP, "network.cmesh.yr, network.flatfly.yr; no effect on the other topologies, as in BookSim"},
    {"use_noc_latency", BS_INT, "1", K_MAP, "the link lengths of the topology (network.flatfly.noc_latency, network.kary-ncube.link_len, network.cmesh.noc_latency)"},
    {"network_file", BS_STR, "", K_MAP, "network.anynet.file"},
    {"routing_function", BS_STR, "none", K_MAP, "network.router"},
    {"subnets", BS_INT, "1", K_DEFAULT, "several independent networks (subnets)"},
    {"channel_file", BS_STR, "", K_DEFAULT, "channel lengths read from a file"},
    {"link_failures", BS_INT, "0", K_DEFAULT, "failed links"},
    {"fail_seed", BS_INT, "0", K_DEFAULT, "failed links"},
    {"in_ports", BS_INT, "5", K_DEFAULT, "BookSim's fixed-port test network"},
    {"out_ports", BS_INT, "5", K_DEFAULT, "BookSim's fixed-port test network"},
    /* router */
    {"router", BS_STR, "iq", K_MAP, "the input-queued router (iq only)"},
    {"num_vcs", BS_INT, "16", K_MAP, "network.vcs"},
    {"vc_buf_size", BS_INT, "8", K_MAP, "network.buffer_flits"},
    {"buf_size", BS_INT, "-1", K_DEFAULT, "a buffer shared by the VCs of a port"},
    {"buffer_policy", BS_STR, "private", K_DEFAULT, "buffers shared by the VCs of a port"},
    {"private_bufs", BS_INT, "-1", K_UNUSED, "buffer_policy"},
    {"private_buf_size", BS_INT, "1", K_UNUSED, "buffer_policy"},
    {"private_buf_start_vc", BS_INT, "-1", K_UNUSED, "buffer_policy"},
    {"private_buf_end_vc", BS_INT, "-1", K_UNUSED, "buffer_policy"},
    {"max_held_slots", BS_INT, "-1", K_UNUSED, "buffer_policy"},
    {"feedback_aging_scale", BS_INT, "1", K_UNUSED, "buffer_policy"},
    {"feedback_offset", BS_INT, "0", K_UNUSED, "buffer_policy"},
    {"wait_for_tail_credit", BS_INT, "0", K_MAP, "network.wait_for_tail_credit"},
    {"vc_busy_when_full", BS_INT, "0", K_DEFAULT, "VCs marked busy while they have no credit"},
    {"vc_prioritize_empty", BS_INT, "0", K_DEFAULT, "empty VCs preferred in VC allocation"},
    {"vc_priority_donation", BS_INT, "0", K_DEFAULT, "priority donation between VCs"},
    {"vc_shuffle_requests", BS_INT, "0", K_DEFAULT, "shuffled VC allocation requests"},
    {"hold_switch_for_packet", BS_INT, "0", K_MAP, "(no effect with packet_size = 1)"},
    {"input_speedup", BS_INT, "1", K_MAP, "network.input_speedup (with the islip allocators; up to 8)"},
    {"output_speedup", BS_INT, "1", K_DEFAULT, "a crossbar with several outputs per output port (output speedup)"},
    {"internal_speedup", BS_FLOAT, "1.0", K_DEFAULT, "a crossbar clocked faster than the channels (internal speedup)"},
    {"output_buffer_size", BS_INT, "-1", K_DEFAULT, "bounded output buffers"},
    {"noq", BS_INT, "0", K_DEFAULT, "next-hop output queueing (noq)"},
    {"speculative", BS_INT, "0", K_DEFAULT, "speculative switch allocation"},
    {"spec_check_elig", BS_INT, "1", K_UNUSED, "speculative"},
    {"spec_check_cred", BS_INT, "1", K_UNUSED, "speculative"},
    {"spec_mask_by_reqs", BS_INT, "0", K_UNUSED, "speculative"},
    {"spec_sw_allocator", BS_STR, "prio", K_UNUSED, "speculative"},
    {"routing_delay", BS_INT, "1", K_MAP, "network.router_delay (the sum of the five delays)"},
    {"vc_alloc_delay", BS_INT, "1", K_MAP, "network.router_delay (the sum of the five delays) and network.vc_reuse_delay (vc_alloc_delay + sw_alloc_delay)"},
    {"sw_alloc_delay", BS_INT, "1", K_MAP, "network.router_delay (the sum of the five delays) and network.vc_reuse_delay (vc_alloc_delay + sw_alloc_delay)"},
    {"st_prepare_delay", BS_INT, "0", K_MAP, "network.router_delay (the sum of the five delays)"},
    {"st_final_delay", BS_INT, "1", K_MAP, "network.router_delay (the sum of the five delays)"},
    {"output_delay", BS_INT, "0", K_DEFAULT, "a delay between the crossbar and the output channel"},
    {"credit_delay", BS_INT, "0", K_MAP, "network.credit_latency (credit_delay + 1)"},
    {"vct", BS_INT, "0", K_MAP, "network.flow_control: cut-through"},
    {"vc_allocator", BS_STR, "islip", K_MAP, "network.allocator"},
    {"sw_allocator", BS_STR, "islip", K_MAP, "network.allocator"},
    {"arb_type", BS_STR, "round_robin", K_DEFAULT, "matrix or tree arbiters"},
    {"alloc_iters", BS_INT, "1", K_DEFAULT, "allocators with several iterations"},
    /* traffic */
    {"classes", BS_INT, "1", K_DEFAULT, "several traffic classes with their own rates"},
    {"class_priority", BS_INT, "0", K_NOEFFECT, "(one class)"},
    {"traffic", BS_STR, "uniform", K_MAP, "workload.pattern"},
    {"perm_seed", BS_INT, "0", K_NOEFFECT, "(mppnet draws randperm's permutation from its own seed)"},
    {"injection_rate", BS_FLOAT, "0.1", K_MAP, "workload.rate (flits/node/cycle)"},
    {"injection_rate_uses_flits", BS_INT, "0", K_MAP, "workload.rate (x packet_size when 0)"},
    {"packet_size", BS_INT, "1", K_MAP, "workload.packet_flits"},
    {"packet_size_rate", BS_INT, "1", K_DEFAULT, "a mix of packet sizes"},
    {"injection_process", BS_STR, "bernoulli", K_MAP, "Bernoulli injection (mppnet's only process)"},
    {"burst_alpha", BS_FLOAT, "0.5", K_UNUSED, "injection_process"},
    {"burst_beta", BS_FLOAT, "0.5", K_UNUSED, "injection_process"},
    {"burst_r1", BS_FLOAT, "-1.0", K_UNUSED, "injection_process"},
    {"priority", BS_STR, "none", K_DEFAULT, "packet priorities in allocation"},
    {"batch_size", BS_INT, "1000", K_UNUSED, "sim_type"},
    {"batch_count", BS_INT, "1", K_UNUSED, "sim_type"},
    {"max_outstanding_requests", BS_INT, "0", K_UNUSED, "sim_type"},
    {"use_read_write", BS_INT, "0", K_DEFAULT, "request-reply traffic (read and write transactions)"},
    {"write_fraction", BS_FLOAT, "0.5", K_UNUSED, "use_read_write"},
    {"read_request_begin_vc", BS_INT, "0", K_UNUSED, "use_read_write"},
    {"read_request_end_vc", BS_INT, "5", K_UNUSED, "use_read_write"},
    {"write_request_begin_vc", BS_INT, "2", K_UNUSED, "use_read_write"},
    {"write_request_end_vc", BS_INT, "7", K_UNUSED, "use_read_write"},
    {"read_reply_begin_vc", BS_INT, "8", K_UNUSED, "use_read_write"},
    {"read_reply_end_vc", BS_INT, "13", K_UNUSED, "use_read_write"},
    {"write_reply_begin_vc", BS_INT, "10", K_UNUSED, "use_read_write"},
    {"write_reply_end_vc", BS_INT, "15", K_UNUSED, "use_read_write"},
    {"read_request_subnet", BS_INT, "0", K_UNUSED, "use_read_write"},
    {"read_reply_subnet", BS_INT, "0", K_UNUSED, "use_read_write"},
    {"write_request_subnet", BS_INT, "0", K_UNUSED, "use_read_write"},
    {"write_reply_subnet", BS_INT, "0", K_UNUSED, "use_read_write"},
    {"read_request_size", BS_INT, "1", K_UNUSED, "use_read_write"},
    {"write_request_size", BS_INT, "1", K_UNUSED, "use_read_write"},
    {"read_reply_size", BS_INT, "1", K_UNUSED, "use_read_write"},
    {"write_reply_size", BS_INT, "1", K_UNUSED, "use_read_write"},
    /* the run */
    {"sim_type", BS_STR, "latency", K_MAP, "the synthetic workload's drain"},
    {"warmup_periods", BS_INT, "3", K_MAP, "workload.warmup (warmup_periods x sample_period)"},
    {"sample_period", BS_INT, "1000", K_MAP, "workload.warmup and workload.measure"},
    {"max_samples", BS_INT, "10", K_MAP, "workload.measure (the samples measured)"},
    {"measure_stats", BS_INT, "1", K_DEFAULT, "classes without statistics"},
    {"pair_stats", BS_INT, "0", K_NOEFFECT, "(prints per-pair statistics)"},
    {"latency_thres", BS_FLOAT, "500.0", K_MAP, "the \"unstable\" verdict (mean latency above it)"},
    {"warmup_thres", BS_FLOAT, "0.05", K_UNUSED, "warmup_periods"},
    {"acc_warmup_thres", BS_FLOAT, "0.05", K_UNUSED, "warmup_periods"},
    {"stopping_thres", BS_FLOAT, "0.05", K_MAP, "workload.measure (3 samples, or max_samples when 0)"},
    {"acc_stopping_thres", BS_FLOAT, "0.05", K_MAP, "workload.measure (3 samples, or max_samples when 0)"},
    {"sim_count", BS_INT, "1", K_MAP, "seeds (one run per simulation, averaged)"},
    {"include_queuing", BS_INT, "1", K_MAP, "the latency printed: from creation (1) or injection (0)"},
    {"seed", BS_INT, "0", K_MAP, "seed"},
    /* printing, watching, power: no effect on results */
    {"print_activity", BS_INT, "0", K_NOEFFECT, ""},
    {"print_csv_results", BS_INT, "0", K_NOEFFECT, ""},
    {"deadlock_warn_timeout", BS_INT, "256", K_NOEFFECT, "(mppnet's network.watchdog_cycles stops a deadlock)"},
    {"viewer_trace", BS_INT, "0", K_NOEFFECT, ""},
    {"watch_file", BS_STR, "", K_NOEFFECT, ""},
    {"watch_flits", BS_STR, "", K_NOEFFECT, ""},
    {"watch_packets", BS_STR, "", K_NOEFFECT, ""},
    {"watch_transactions", BS_STR, "", K_NOEFFECT, ""},
    {"watch_out", BS_STR, "", K_NOEFFECT, ""},
    {"stats_out", BS_STR, "", K_NOEFFECT, ""},
    {"injected_flits_out", BS_STR, "", K_NOEFFECT, ""},
    {"received_flits_out", BS_STR, "", K_NOEFFECT, ""},
    {"stored_flits_out", BS_STR, "", K_NOEFFECT, ""},
    {"sent_flits_out", BS_STR, "", K_NOEFFECT, ""},
    {"outstanding_credits_out", BS_STR, "", K_NOEFFECT, ""},
    {"ejected_flits_out", BS_STR, "", K_NOEFFECT, ""},
    {"active_packets_out", BS_STR, "", K_NOEFFECT, ""},
    {"used_credits_out", BS_STR, "", K_NOEFFECT, ""},
    {"free_credits_out", BS_STR, "", K_NOEFFECT, ""},
    {"max_credits_out", BS_STR, "", K_NOEFFECT, ""},
    {"sent_packets_out", BS_STR, "", K_NOEFFECT, ""},
    {"sim_power", BS_INT, "0", K_NOEFFECT, "(power estimation)"},
    {"power_output_file", BS_STR, "pwr_tmp", K_NOEFFECT, "(power estimation)"},
    {"tech_file", BS_STR, "", K_NOEFFECT, "(power estimation)"},
    {"channel_width", BS_INT, "128", K_NOEFFECT, "(power estimation)"},
    {"channel_sweep", BS_INT, "0", K_NOEFFECT, "(power estimation)"},
    {"H_INVD2", BS_INT, "0", K_NOEFFECT, "(power estimation)"},
    {"W_INVD2", BS_INT, "0", K_NOEFFECT, "(power estimation)"},
    {"H_DFQD1", BS_INT, "0", K_NOEFFECT, "(power estimation)"},
    {"W_DFQD1", BS_INT, "0", K_NOEFFECT, "(power estimation)"},
    {"H_ND2D1", BS_INT, "0", K_NOEFFECT, "(power estimation)"},
    {"W_ND2D1", BS_INT, "0", K_NOEFFECT, "(power estimation)"},
    {"H_SRAM", BS_INT, "0", K_NOEFFECT, "(power estimation)"},
    {"W_SRAM", BS_INT, "0", K_NOEFFECT, "(power estimation)"},
    {"Vdd", BS_FLOAT, "0", K_NOEFFECT, "(power estimation)"},
    {"R", BS_FLOAT, "0", K_NOEFFECT, "(power estimation)"},
    {"IoffSRAM", BS_FLOAT, "0", K_NOEFFECT, "(power estimation)"},
    {"IoffP", BS_FLOAT, "0", K_NOEFFECT, "(power estimation)"},
    {"IoffN", BS_FLOAT, "0", K_NOEFFECT, "(power estimation)"},
    {"Cg_pwr", BS_FLOAT, "0", K_NOEFFECT, "(power estimation)"},
    {"Cd_pwr", BS_FLOAT, "0", K_NOEFFECT, "(power estimation)"},
    {"Cgdl", BS_FLOAT, "0", K_NOEFFECT, "(power estimation)"},
    {"Cg", BS_FLOAT, "0", K_NOEFFECT, "(power estimation)"},
    {"Cd", BS_FLOAT, "0", K_NOEFFECT, "(power estimation)"},
    {"LAMBDA", BS_FLOAT, "0", K_NOEFFECT, "(power estimation)"},
    {"MetalPitch", BS_FLOAT, "0", K_NOEFFECT, "(power estimation)"},
    {"Rw", BS_FLOAT, "0", K_NOEFFECT, "(power estimation)"},
    {"Cw_gnd", BS_FLOAT, "0", K_NOEFFECT, "(power estimation)"},
    {"Cw_cpl", BS_FLOAT, "0", K_NOEFFECT, "(power estimation)"},
    {"wire_length", BS_FLOAT, "0", K_NOEFFECT, "(power estimation)"},
};

static const bs_key *find_key(const char *k)
{
    for (size_t i = 0; i < MPP_COUNTOF(keys); i++)
        if (!strcmp(keys[i].key, k))
            return &keys[i];
    return NULL;
}

const char *mpp_booksim_hint(const char *key)
{
    static const struct {
        const char *bk, *hint;
    } hints[] = {
        {"num_vcs", "network.vcs"},
        {"vc_buf_size", "network.buffer_flits"},
        {"routing_function", "network.router"},
        {"topology", "network.topology"},
        {"traffic", "workload.pattern"},
        {"injection_rate", "workload.rate (flits/node/cycle)"},
        {"packet_size", "workload.packet_flits"},
        {"credit_delay", "network.credit_latency (credit_delay + 1)"},
        {"routing_delay", "network.router_delay (the sum of BookSim's five delays)"},
        {"vc_alloc_delay", "network.router_delay (the sum of BookSim's five delays)"},
        {"sw_alloc_delay", "network.router_delay (the sum of BookSim's five delays)"},
        {"st_final_delay", "network.router_delay (the sum of BookSim's five delays)"},
        {"st_prepare_delay", "network.router_delay (the sum of BookSim's five delays)"},
        {"vc_allocator", "network.allocator"},
        {"sw_allocator", "network.allocator"},
        {"sample_period", "workload.measure"},
        {"warmup_periods", "workload.warmup"},
        {"vct", "network.flow_control"},
        {"network_file", "network.anynet.file"},
        {"sim_count", "seeds"},
    };
    for (size_t i = 0; i < MPP_COUNTOF(hints); i++)
        if (!strcmp(hints[i].bk, key))
            return hints[i].hint;
    const bs_key *k = find_key(key);
    if (k && k->kind == K_MAP && !strncmp(k->note, "network.", 8))
        return k->note;
    return NULL;
}

/* ------------------------------------------------------------ the values */

/* The last statement of key, or NULL. */
static const bs_stmt *stmt(const mpp_booksim *b, const char *key)
{
    for (size_t i = b->n; i-- > 0;)
        if (!strcmp(b->s[i].key, key))
            return &b->s[i];
    return NULL;
}

static const char *where(const mpp_booksim *b, const bs_stmt *s, char *buf, size_t size)
{
    if (!s)
        snprintf(buf, size, "%s", b->origin);
    else if (s->line)
        snprintf(buf, size, "%s:%" PRIu32 ":%" PRIu32, b->origin, s->line, s->vcol);
    else
        snprintf(buf, size, "%s", s->origin);
    return buf;
}

/* The value of key as text: the statement's, or BookSim's default. */
static const char *text_of(const mpp_booksim *b, const char *key)
{
    const bs_stmt *s = stmt(b, key);
    return s ? s->value : find_key(key)->def;
}

static int bad_value(const mpp_booksim *b, const char *key, const char *expected, mpp_err *err)
{
    char w[600];
    return mpp_err_set(err, MPP_EINVAL, "%s: BookSim key '%s': expected %s, got '%.80s'",
                       where(b, stmt(b, key), w, sizeof w), key, expected, text_of(b, key));
}

static int int_of(const mpp_booksim *b, const char *key, long long lo, long long hi, long long *out,
                  mpp_err *err)
{
    const char *t = text_of(b, key);
    char *end;
    errno = 0;
    long long v = strtoll(t, &end, 10);
    if (!*t || *end || errno || v < lo || v > hi) {
        char exp[96];
        snprintf(exp, sizeof exp, "an integer in %lld..%lld", lo, hi);
        return bad_value(b, key, exp, err);
    }
    *out = v;
    return 0;
}

static int float_of(const mpp_booksim *b, const char *key, double *out, mpp_err *err)
{
    const char *t = text_of(b, key);
    char *end;
    errno = 0;
    double v = strtod(t, &end);
    if (!*t || *end || errno || !isfinite(v))
        return bad_value(b, key, "a number", err);
    *out = v;
    return 0;
}

/* A refusal: the key (its value) cannot be honoured; need says what mppnet
 * would need. */
static int refuse(const mpp_booksim *b, const char *key, const char *need, mpp_err *err)
{
    char w[600];
    return mpp_err_set(err, MPP_EINVAL,
                       "%s: BookSim key '%s' = %.80s: mppnet cannot honour it; it would need %s "
                       "(docs/booksim.md lists what is mapped)",
                       where(b, stmt(b, key), w, sizeof w), key, text_of(b, key), need);
}

/* Edit distance of two short strings (for "did you mean"). */
static size_t distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return 99;
    size_t d[65][65];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t c = d[i - 1][j - 1] + (tolower((unsigned char)a[i - 1]) !=
                                          tolower((unsigned char)b[j - 1]));
            size_t x = d[i - 1][j] + 1, y = d[i][j - 1] + 1;
            d[i][j] = c < x ? (c < y ? c : y) : (x < y ? x : y);
        }
    return d[la][lb];
}

/* Invariant 1: every key known, of its type, and a DEFAULT key at its
 * default; an UNUSED key is checked by the key that selects it. */
static int check_keys(const mpp_booksim *b, mpp_err *err)
{
    char w[600];
    for (size_t i = 0; i < b->n; i++) {
        const bs_stmt *s = &b->s[i];
        if (stmt(b, s->key) != s)
            continue; /* an earlier assignment: the last one counts */
        const bs_key *k = find_key(s->key);
        if (!k) {
            const char *best = NULL;
            size_t bd = 3;
            for (size_t j = 0; j < MPP_COUNTOF(keys); j++) {
                size_t d = distance(s->key, keys[j].key);
                if (d < bd) {
                    bd = d;
                    best = keys[j].key;
                }
            }
            if (s->line)
                snprintf(w, sizeof w, "%s:%" PRIu32 ":%" PRIu32, b->origin, s->line, s->col);
            else
                snprintf(w, sizeof w, "%s", s->origin);
            if (best)
                return mpp_err_set(err, MPP_EINVAL, "%s: unknown BookSim key '%s'; did you mean "
                                   "'%s'?", w, s->key, best);
            return mpp_err_set(err, MPP_EINVAL, "%s: unknown BookSim key '%s' (BookSim 2's keys "
                               "are in booksim_config.cpp; docs/booksim.md lists them)", w,
                               s->key);
        }
        if (k->type == BS_INT) {
            long long v;
            /* "seed = time" and list values of vector keys are refused below */
            if (strcmp(s->key, "seed") && int_of(b, s->key, INT32_MIN, INT32_MAX, &v, err))
                return err->code;
        } else if (k->type == BS_FLOAT) {
            double v;
            if (float_of(b, s->key, &v, err))
                return err->code;
        }
        if (k->kind == K_DEFAULT) {
            bool same = k->type == BS_STR ? !strcmp(s->value, k->def)
                                          : strtod(s->value, NULL) == strtod(k->def, NULL);
            if (!same)
                return refuse(b, s->key, k->note, err);
        }
    }
    /* the UNUSED keys: their selecting key must not select them */
    long long rw;
    if (int_of(b, "use_read_write", 0, 1, &rw, err))
        return err->code;
    return 0;
}

/* ------------------------------------------------------------ the tree */

typedef struct builder {
    const mpp_booksim *b;
    mpp_cfgnode *root;
    mpp_err *err;
    int rc;
} builder;

/* Set keypath to the YAML value text, located at BookSim's key (invariant
 * 2). */
static void put(builder *B, const char *keypath, const char *bkey, const char *text)
{
    if (B->rc)
        return;
    const bs_stmt *s = bkey ? stmt(B->b, bkey) : NULL;
    char origin[600];
    if (s && !s->line)
        snprintf(origin, sizeof origin, "%s", s->origin);
    else if (s)
        snprintf(origin, sizeof origin, "%s", B->b->origin);
    else if (bkey)
        snprintf(origin, sizeof origin, "%s: BookSim's default %s = %s", B->b->origin, bkey,
                 find_key(bkey)->def);
    else
        snprintf(origin, sizeof origin, "%s", B->b->origin);
    mpp_cfgnode *v = mpp_cfgtree_parse_value(text, origin, B->err);
    if (!v) {
        B->rc = B->err->code ? B->err->code : MPP_EINVAL;
        return;
    }
    if (s && s->line && (B->rc = mpp_cfgtree_locate(v, B->b->origin, s->line, s->vcol, B->err))) {
        mpp_cfgtree_free(v);
        return;
    }
    B->rc = mpp_cfgtree_set(B->root, keypath, 0, v, B->err);
}

static void putf(builder *B, const char *keypath, const char *bkey, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void putf(builder *B, const char *keypath, const char *bkey, const char *fmt, ...)
{
    char t[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t, sizeof t, fmt, ap);
    va_end(ap);
    put(B, keypath, bkey, t);
}

typedef struct name_map {
    const char *bs, *mpp;
} name_map;

static const char *map_name(const name_map *m, size_t n, const char *v)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(m[i].bs, v))
            return m[i].mpp;
    return NULL;
}

static int refuse_name(const mpp_booksim *b, const char *key, const name_map *m, size_t n,
                       const char *need, mpp_err *err)
{
    char w[600];
    mpp_sb sb;
    mpp_sb_init(&sb);
    mpp_sb_printf(&sb, "%s: BookSim key '%s' = %.80s: mppnet cannot honour it; it would need %s; "
                  "mapped values here: ", where(b, stmt(b, key), w, sizeof w), key,
                  text_of(b, key), need);
    for (size_t i = 0; i < n; i++)
        mpp_sb_printf(&sb, "%s%s", i ? ", " : "", m[i].bs);
    return mpp_sb_to_err(&sb, err, MPP_EINVAL);
}

static void put_list(builder *B, const char *keypath, const char *bkey, long long k,
                     long long n)
{
    char t[1200];
    size_t o = 0;
    o += (size_t)snprintf(t + o, sizeof t - o, "[");
    for (long long i = 0; i < n && o < sizeof t - 16; i++)
        o += (size_t)snprintf(t + o, sizeof t - o, "%s%lld", i ? ", " : "", k);
    snprintf(t + o, sizeof t - o, "]");
    put(B, keypath, bkey, t);
}

#define TRY(x)                                                                                   \
    do {                                                                                         \
        if ((x))                                                                                 \
            goto fail;                                                                           \
    } while (0)

/* The routing functions of each topology (BookSim's name before "_<topology>"). */
static const name_map rf_kncube[] = {
    {"dor", "ecube"}, {"dim_order", "ecube"}, {"romm", "romm"},
    {"valiant", "valiant"}, {"min_adapt", "adaptive"},
};
static const name_map rf_cmesh[] = {{"dor", "cmesh-express"}, {"dor_no_express", "cmesh-dor"}};
static const name_map rf_flatfly[] = {
    {"ran_min", "ecube"}, {"min", "ecube"}, {"valiant", "valiant"}, {"ugal", "ugal"}};
static const name_map rf_dragon[] = {{"min", "ecube"}, {"ugal", "ugal"}};
static const name_map rf_fattree[] = {{"nca", "fattree-nca"}};
static const name_map rf_anynet[] = {{"min", "anynet-min"}};
static const name_map rf_fly[] = {{"dest_tag", "ecube"}};

static const name_map traffics[] = {
    {"uniform", "uniform"},     {"bitcomp", "bit-complement"}, {"transpose", "transpose"},
    {"bitrev", "bit-reversal"}, {"shuffle", "shuffle"},        {"tornado", "tornado"},
    {"neighbor", "neighbor"},   {"randperm", "randperm"},
};

static const name_map allocators[] = {{"islip", "islip"}, {"separable_input_first", "separable"}};

static int build_tree(const mpp_booksim *b, builder *B, mpp_booksim_info *info, mpp_err *err)
{
    long long k, n, c, v;
    double f;
    char w[600];
    put(B, "mppnet", NULL, "1");

    /* topology */
    const char *topo = text_of(b, "topology");
    const char *rf = text_of(b, "routing_function");
    long long noc;
    TRY(int_of(b, "k", 1, 65535, &k, err) || int_of(b, "n", 1, 20, &n, err) ||
        int_of(b, "c", 1, 64, &c, err) || int_of(b, "use_noc_latency", 0, 1, &noc, err));
    const name_map *rfm = NULL;
    size_t nrf = 0;
    const char *tname = topo;
    if (!strcmp(topo, "mesh") || !strcmp(topo, "torus")) {
        bool torus = !strcmp(topo, "torus");
        if (c != 1)
            return refuse(b, "c", "concentration on a mesh or torus (BookSim ignores c there, "
                          "and so would mppnet: give c = 1)", err);
        if (!torus && n == 2) {
            putf(B, "network.topology", "topology", "mesh");
            putf(B, "network.mesh.rows", "k", "%lld", k);
            putf(B, "network.mesh.cols", "k", "%lld", k);
        } else {
            putf(B, "network.topology", "topology", "kary-ncube");
            put_list(B, "network.kary-ncube.k", "k", k, n);
            putf(B, "network.kary-ncube.torus", "topology", torus ? "true" : "false");
            if (torus) {
                putf(B, "network.kary-ncube.dateline", "topology", "dimension");
                putf(B, "network.kary-ncube.link_len", "use_noc_latency", "%d", noc ? 2 : 1);
            }
        }
        rfm = rf_kncube;
        nrf = MPP_COUNTOF(rf_kncube);
    } else if (!strcmp(topo, "cmesh")) {
        long long xr, yr;
        TRY(int_of(b, "xr", 1, 8, &xr, err) || int_of(b, "yr", 1, 8, &yr, err));
        putf(B, "network.topology", "topology", "cmesh");
        putf(B, "network.cmesh.k", "k", "%lld", k);
        putf(B, "network.cmesh.n", "n", "%lld", n);
        putf(B, "network.cmesh.c", "c", "%lld", c);
        putf(B, "network.cmesh.xr", "xr", "%lld", xr);
        putf(B, "network.cmesh.yr", "yr", "%lld", yr);
        putf(B, "network.cmesh.noc_latency", "use_noc_latency", noc ? "true" : "false");
        rfm = rf_cmesh;
        nrf = MPP_COUNTOF(rf_cmesh);
    } else if (!strcmp(topo, "flatfly")) {
        long long x, y, xr, yr;
        TRY(int_of(b, "x", 1, 1048576, &x, err) || int_of(b, "y", 1, 1048576, &y, err) ||
            int_of(b, "xr", 1, 63, &xr, err) || int_of(b, "yr", 1, 63, &yr, err));
        putf(B, "network.topology", "topology", "flatfly");
        putf(B, "network.flatfly.k", "k", "%lld", k);
        putf(B, "network.flatfly.n", "n", "%lld", n);
        putf(B, "network.flatfly.c", "c", "%lld", c);
        putf(B, "network.flatfly.x", "x", "%lld", x);
        putf(B, "network.flatfly.y", "y", "%lld", y);
        putf(B, "network.flatfly.xr", "xr", "%lld", xr);
        putf(B, "network.flatfly.yr", "yr", "%lld", yr);
        putf(B, "network.flatfly.noc_latency", "use_noc_latency", noc ? "true" : "false");
        rfm = rf_flatfly;
        nrf = MPP_COUNTOF(rf_flatfly);
    } else if (!strcmp(topo, "dragonflynew")) {
        if (n != 1)
            return refuse(b, "n", "a dragonfly with n != 1 (BookSim's dragonflynew supports "
                          "only n = 1)", err);
        putf(B, "network.topology", "topology", "dragonfly");
        putf(B, "network.dragonfly.p", "k", "%lld", k);
        rfm = rf_dragon;
        nrf = MPP_COUNTOF(rf_dragon);
    } else if (!strcmp(topo, "fattree")) {
        putf(B, "network.topology", "topology", "fattree");
        putf(B, "network.fattree.k", "k", "%lld", k);
        putf(B, "network.fattree.n", "n", "%lld", n);
        rfm = rf_fattree;
        nrf = MPP_COUNTOF(rf_fattree);
    } else if (!strcmp(topo, "anynet")) {
        const char *nf = text_of(b, "network_file");
        if (!*nf)
            return refuse(b, "network_file", "the anynet file: set network_file", err);
        putf(B, "network.topology", "topology", "anynet");
        /* relative to the configuration's folder when that is relative */
        if (nf[0] != '/' && b->dir[0] && b->dir[0] != '/')
            putf(B, "network.anynet.file", "network_file", "\"%s%s\"", b->dir, nf);
        else
            putf(B, "network.anynet.file", "network_file", "\"%s\"", nf);
        rfm = rf_anynet;
        nrf = MPP_COUNTOF(rf_anynet);
    } else if (!strcmp(topo, "fly")) {
        putf(B, "network.topology", "topology", "butterfly");
        putf(B, "network.butterfly.k", "k", "%lld", k);
        putf(B, "network.butterfly.n", "n", "%lld", n);
        rfm = rf_fly;
        nrf = MPP_COUNTOF(rf_fly);
    } else {
        static const name_map topos[] = {{"mesh", ""}, {"torus", ""}, {"cmesh", ""},
                                         {"flatfly", ""}, {"dragonflynew", ""}, {"fattree", ""},
                                         {"anynet", ""}, {"fly", ""}};
        return refuse_name(b, "topology", topos, MPP_COUNTOF(topos),
                           "that topology as a plug-in (qtree and tree4 have none)", err);
    }
    (void)tname;
    const char *router = map_name(rfm, nrf, rf);
    if (!router) {
        char need[200];
        snprintf(need, sizeof need, "the routing function %s_%s as a router plug-in", rf, topo);
        return refuse_name(b, "routing_function", rfm, nrf, need, err);
    }
    putf(B, "network.router", "routing_function", "%s", router);

    /* router */
    if (strcmp(text_of(b, "router"), "iq"))
        return refuse(b, "router", "BookSim's event-driven or chaos router (mppnet's router is "
                      "input-queued: router = iq)", err);
    TRY(int_of(b, "num_vcs", 1, 64, &v, err));
    putf(B, "network.vcs", "num_vcs", "%lld", v);
    TRY(int_of(b, "vc_buf_size", 1, 65535, &v, err));
    putf(B, "network.buffer_flits", "vc_buf_size", "%lld", v);
    long long d[5], sum = 0;
    static const char *const delays[5] = {"routing_delay", "vc_alloc_delay", "sw_alloc_delay",
                                          "st_prepare_delay", "st_final_delay"};
    const char *last_delay = NULL;
    for (int i = 0; i < 5; i++) {
        TRY(int_of(b, delays[i], 0, 1000, &d[i], err));
        sum += d[i];
        if (stmt(b, delays[i]))
            last_delay = delays[i];
    }
    putf(B, "network.router_delay", last_delay, "%lld", sum);
    /* BookSim's output VC, freed by a tail, is allocated again at the
     * earliest the next cycle and used after the VC and switch allocation
     * stages: the next packet leaves vc_alloc + sw_alloc cycles later */
    putf(B, "network.vc_reuse_delay", stmt(b, "sw_alloc_delay") ? "sw_alloc_delay" : "vc_alloc_delay",
         "%lld", d[1] + d[2]);
    TRY(int_of(b, "credit_delay", 0, 999, &v, err));
    putf(B, "network.credit_latency", "credit_delay", "%lld", v + 1);
    putf(B, "network.link_latency", NULL, "1");
    const char *va = text_of(b, "vc_allocator"), *sa = text_of(b, "sw_allocator");
    const char *ma = map_name(allocators, MPP_COUNTOF(allocators), va);
    if (!ma)
        return refuse_name(b, "vc_allocator", allocators, MPP_COUNTOF(allocators),
                           "that allocator", err);
    const char *ms = map_name(allocators, MPP_COUNTOF(allocators), sa);
    if (!ms)
        return refuse_name(b, "sw_allocator", allocators, MPP_COUNTOF(allocators),
                           "that allocator", err);
    if (strcmp(ma, ms))
        return refuse(b, "sw_allocator", "different VC and switch allocators (mppnet's "
                      "network.allocator sets both: give vc_allocator and sw_allocator the "
                      "same value)", err);
    putf(B, "network.allocator", "sw_allocator", "%s", ms);
    TRY(int_of(b, "wait_for_tail_credit", 0, 1, &v, err));
    putf(B, "network.wait_for_tail_credit", "wait_for_tail_credit", v ? "true" : "false");
    TRY(int_of(b, "input_speedup", 1, 8, &v, err));
    if (v > 1 && strcmp(ms, "islip"))
        return refuse(b, "input_speedup", "input speedup with a separable allocator (mppnet "
                      "models it in the iSLIP allocator: vc_allocator = sw_allocator = islip)", err);
    putf(B, "network.input_speedup", "input_speedup", "%lld", v);
    TRY(int_of(b, "vct", 0, 1, &v, err));
    if (v)
        putf(B, "network.flow_control", "vct", "cut-through");

    /* traffic */
    long long ps, uf;
    TRY(int_of(b, "packet_size", 1, 65535, &ps, err));
    putf(B, "workload.packet_flits", "packet_size", "%lld", ps);
    TRY(int_of(b, "hold_switch_for_packet", 0, 1, &v, err));
    if (v && ps > 1)
        return refuse(b, "hold_switch_for_packet", "a switch held for the whole packet (with "
                      "packet_size = 1 the key has no effect and is accepted)", err);
    const char *tr = text_of(b, "traffic");
    const char *pat = map_name(traffics, MPP_COUNTOF(traffics), tr);
    if (!pat)
        return refuse_name(b, "traffic", traffics, MPP_COUNTOF(traffics),
                           "that traffic pattern as a plug-in (hotspot({...}) and the other "
                           "patterns with arguments are not mapped)", err);
    putf(B, "workload.pattern", "traffic", "%s", pat);
    if (strcmp(text_of(b, "injection_process"), "bernoulli"))
        return refuse(b, "injection_process", "an injection process other than Bernoulli "
                      "(on_off bursts)", err);
    TRY(float_of(b, "injection_rate", &f, err) ||
        int_of(b, "injection_rate_uses_flits", 0, 1, &uf, err));
    double rate = uf ? f : f * (double)ps;
    if (!(rate >= 0 && rate <= 1))
        return mpp_err_set(err, MPP_EINVAL, "%s: BookSim key 'injection_rate' = %.80s: the "
                           "offered load is %g flits/node/cycle; mppnet takes 0..1",
                           where(b, stmt(b, "injection_rate"), w, sizeof w),
                           text_of(b, "injection_rate"), rate);
    putf(B, "workload.rate", uf ? "injection_rate" : "injection_rate", "%.17g", rate);
    info->injection_rate = f;
    info->rate_in_flits = uf;
    info->packet_flits = (uint32_t)ps;

    /* the run */
    if (strcmp(text_of(b, "sim_type"), "latency"))
        return refuse(b, "sim_type", "BookSim's throughput or batch runs (mppnet's synthetic "
                      "workload is a latency run: warm-up, measurement, drain)", err);
    long long wp, sp, ms_, sc, iq;
    double st, ast, lt;
    TRY(int_of(b, "warmup_periods", 0, 1000000, &wp, err) ||
        int_of(b, "sample_period", 1, 1000000000, &sp, err) ||
        int_of(b, "max_samples", 1, 1000000, &ms_, err) ||
        float_of(b, "stopping_thres", &st, err) || float_of(b, "acc_stopping_thres", &ast, err) ||
        float_of(b, "latency_thres", &lt, err) || int_of(b, "sim_count", 1, 100, &sc, err) ||
        int_of(b, "include_queuing", 0, 1, &iq, err));
    if (wp == 0)
        return refuse(b, "warmup_periods", "a warm-up that lasts until the latency settles "
                      "(warmup_periods = 0); give the number of warm-up periods", err);
    if (wp >= ms_)
        return refuse(b, "max_samples", "at least one measured sample: max_samples must be above "
                      "warmup_periods", err);
    /* BookSim measures until three samples in a row move less than the
     * thresholds; a threshold of 0 is never met (max_samples are taken) */
    long long samples = ms_ - wp;
    if (st != 0.0 && ast != 0.0 && samples > 3)
        samples = 3;
    info->warmup = (uint64_t)(wp * sp);
    info->measure = (uint64_t)(samples * sp);
    putf(B, "workload.warmup", "warmup_periods", "%" PRIu64, info->warmup);
    putf(B, "workload.measure", "sample_period", "%" PRIu64, info->measure);
    info->latency_thres = lt;
    info->sim_count = (uint32_t)sc;
    info->include_queuing = iq != 0;
    const bs_stmt *ss = stmt(b, "seed");
    unsigned long long seed = 0;
    if (ss) {
        char *end;
        errno = 0;
        seed = strtoull(ss->value, &end, 10);
        if (!strcmp(ss->value, "time"))
            return refuse(b, "seed", "a seed from the clock (mppnet's runs are a function of "
                          "their configuration: give a number)", err);
        if (!ss->value[0] || *end || errno || ss->value[0] == '-')
            return bad_value(b, "seed", "an integer >= 0", err);
    }
    if (sc == 1) {
        putf(B, "seed", "seed", "%llu", seed);
    } else {
        char t[1200];
        size_t o = (size_t)snprintf(t, sizeof t, "[");
        for (long long i = 0; i < sc; i++)
            o += (size_t)snprintf(t + o, sizeof t - o, "%s%llu", i ? ", " : "",
                                  seed + (unsigned long long)i);
        snprintf(t + o, sizeof t - o, "]");
        put(B, "seeds", "sim_count", t);
    }
    put(B, "output.plot", NULL, "false");
    return B->rc;
fail:
    return err->code ? err->code : MPP_EINVAL;
}

/* The UNUSED keys whose selecting key would give them an effect. */
static int check_unused(const mpp_booksim *b, mpp_err *err)
{
    for (size_t i = 0; i < MPP_COUNTOF(keys); i++) {
        const bs_key *k = &keys[i];
        if (k->kind != K_UNUSED || !stmt(b, k->key))
            continue;
        /* the selecting keys are DEFAULT or MAP keys refused elsewhere when
         * they select anything but the default: nothing more to check */
    }
    (void)err;
    return 0;
}

mpp_experiment *mpp_booksim_experiment(const mpp_booksim *b, mpp_booksim_info *info,
                                       mpp_err *err)
{
    memset(info, 0, sizeof *info);
    if (check_keys(b, err) || check_unused(b, err))
        return NULL;
    builder B = {b, mpp_cfgtree_new_map(NULL), err, 0};
    if (!B.root) {
        mpp_err_set(err, MPP_ENOMEM, "out of memory");
        return NULL;
    }
    mpp_err_clear(err);
    if (build_tree(b, &B, info, err)) {
        mpp_cfgtree_free(B.root);
        return NULL;
    }
    return mpp_experiment_load_tree(B.root, "booksim", err);
}
