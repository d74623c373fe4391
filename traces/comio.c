/* traces/comio.c — COM files: reading and writing Matrix Market coordinate
 * text, plain or gzip-compressed (see com.h and docs/formats.md).
 *
 * A file is a sequence of blocks; each block is one matrix:
 *
 *   %%MatrixMarket matrix coordinate integer general   (or ... pattern ...)
 *   % step=K msg_unit=B          (optional; defaults: K = block index, B = 1)
 *   % other comments             (ignored)
 *   n n nnz                      (the size line)
 *   i j value                    (nnz entry lines, 1-based; `i j` for pattern)
 *
 * The first block must have the header; a later block starts with a header
 * or with a step comment (it then keeps the previous block's field). Blank
 * lines and plain comments are allowed anywhere.
 *
 * Reading: the shared line reader (lineio.h) reads plain and gzip files
 * alike, lines of at most LINE_CHARS characters, and turns corrupt and
 * truncated gzip data into errors (never silently short input). The parser
 * is a state machine, one line at a time:
 *
 *   S_START --header--> S_PREAMBLE --size line--> S_ENTRIES --nnz-th entry-->
 *      |                   ^  ^                       (nnz == 0: straight on)
 *      +--step comment-----+  |                              |
 *                             +--header or step comment-- S_BETWEEN <--+
 *
 * with end_block() (sort, duplicate check, conversion to mpp_com) on every
 * arrow into S_BETWEEN. End of file is fine in S_BETWEEN only.
 *
 * Invariants:
 *   1. mpp_com_read fills *seq only on success; on any error everything it
 *      allocated is freed and *seq is empty (never half-read).
 *   2. Every error names the file and the 1-based line at fault
 *      ("FILE:LINE: what is wrong, what was expected"), with MPP_EFORMAT,
 *      or MPP_EIO when the file cannot be opened or read.
 *   3. Every matrix produced satisfies mpp_com_check.
 *   4. mpp_com_write creates PATH completely or not at all (temporary file
 *      in the same directory, fsync, rename); its output is a pure function
 *      of the sequence (gzip header without name or time stamp).
 */
#include "traces/com.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "core/base/strbuf.h"
#include "traces/lineio.h"

#define LINE_CHARS 4096           /* longest line accepted, without its end */
#define HEADER "%%MatrixMarket matrix coordinate integer general"
#define MAX_FIELDS 8

/* ---- reading: fields ---------------------------------------------------- */

/* Split s in place at spaces and tabs into at most MAX_FIELDS fields;
 * returns the number of fields (MAX_FIELDS + 1 when there are more). */
static int split(char *s, char **f)
{
    int n = 0;
    for (;;) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s)
            return n;
        if (n == MAX_FIELDS)
            return n + 1;
        f[n++] = s;
        while (*s && *s != ' ' && *s != '\t')
            s++;
        if (*s)
            *s++ = '\0';
    }
}

enum { NUM_OK, NUM_NEG, NUM_BAD, NUM_BIG };

/* A decimal integer: NUM_OK with *v, NUM_NEG (a valid negative number),
 * NUM_BAD (not an integer) or NUM_BIG (more than 64 bits). */
static int parse_num(const char *t, uint64_t *v)
{
    int neg = *t == '-';
    if (*t == '-' || *t == '+')
        t++;
    uint64_t x;
    int rc = mpp_lines_digits(t, &x);
    if (rc)
        return rc == -2 ? NUM_BIG : NUM_BAD;
    *v = x;
    return neg && x ? NUM_NEG : NUM_OK;
}

static int ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a, y = *b;
        if (x >= 'A' && x <= 'Z')
            x = (char)(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z')
            y = (char)(y - 'A' + 'a');
        if (x != y)
            return 0;
    }
    return *a == *b;
}

/* ---- reading: the parser ------------------------------------------------ */

enum { S_START, S_PREAMBLE, S_ENTRIES, S_BETWEEN };

/* An entry as read, with its line for error messages. */
typedef struct raw {
    uint32_t src, dst; /* 0-based */
    uint64_t units;
    uint64_t line;
} raw;

typedef struct parser {
    mpp_lines *rd;
    uint64_t line;       /* number of the line being parsed (0: none yet) */
    mpp_err *err;
    int state;
    mpp_com_seq seq;     /* finished blocks */
    uint32_t seq_cap;
    /* the current block */
    uint64_t header_line; /* 0: none in this block */
    int pattern;          /* field: 1 pattern, 0 integer (inherited) */
    int have_field;       /* a header was seen in some block */
    uint64_t step_line;   /* 0: no step comment in this block */
    uint64_t step;
    uint64_t msg_unit;
    uint64_t size_line;
    uint32_t n, nnz;
    raw *e;
    uint32_t count, cap;
} parser;

static void begin_block(parser *p)
{
    p->header_line = 0;
    p->step_line = 0;
    p->step = p->seq.count;
    p->msg_unit = 1;
    p->size_line = 0;
    p->n = p->nnz = 0;
    p->count = 0;
    p->state = S_PREAMBLE;
}

/* `%%MatrixMarket matrix coordinate integer|pattern general`. */
static int parse_header(parser *p, char *line)
{
    char *f[MAX_FIELDS];
    int nf = split(line, f);
    if (nf < 1 || !ieq(f[0], "%%MatrixMarket"))
        return mpp_lines_error(p->rd, p->line, "bad header '%s', expected '%s'", nf ? f[0] : "",
                               HEADER);
    if (nf != 5)
        return mpp_lines_error(p->rd, p->line, "bad header: %d words, expected 5: '%s'", nf,
                               HEADER);
    if (!ieq(f[1], "matrix"))
        return mpp_lines_error(p->rd, p->line, "object '%s' is not supported, expected 'matrix'",
                               f[1]);
    if (!ieq(f[2], "coordinate"))
        return mpp_lines_error(
            p->rd, p->line, "format '%s' is not supported, expected 'coordinate' (sparse)", f[2]);
    if (ieq(f[3], "integer"))
        p->pattern = 0;
    else if (ieq(f[3], "pattern"))
        p->pattern = 1;
    else
        return mpp_lines_error(
            p->rd, p->line,
            "field '%s' is not supported, expected 'integer' (message sizes in whole "
            "units) or 'pattern'",
            f[3]);
    if (!ieq(f[4], "general"))
        return mpp_lines_error(p->rd, p->line, "symmetry '%s' is not supported, expected 'general'",
                               f[4]);
    p->have_field = 1;
    p->header_line = p->line;
    return 0;
}

/* Whether the text after a '%' is a step comment: its first word starts
 * with "step=" or "msg_unit=". */
static int is_step_comment(const char *body)
{
    while (*body == ' ' || *body == '\t')
        body++;
    return !strncmp(body, "step=", 5) || !strncmp(body, "msg_unit=", 9);
}

/* A step comment `% step=K msg_unit=B` (either key optional; `body` is the
 * text after the '%'): sets p->step and p->msg_unit. Returns 0 or an
 * error. */
static int parse_step_comment(parser *p, char *body)
{
    char *f[MAX_FIELDS];
    char *eq = NULL;
    int nf = split(body, f);
    if (nf > 2)
        return mpp_lines_error(p->rd, p->line,
                               "too many words in a step comment, expected '%% step=K msg_unit=B'");
    int seen_step = 0, seen_unit = 0;
    for (int i = 0; i < nf; i++) {
        eq = strchr(f[i], '=');
        if (!eq)
            return mpp_lines_error(p->rd, p->line,
                                   "'%s' in a step comment, expected '%% step=K msg_unit=B'", f[i]);
        *eq = '\0';
        uint64_t v = 0;
        int rc = parse_num(eq + 1, &v);
        int is_step = !strcmp(f[i], "step");
        if (!is_step && strcmp(f[i], "msg_unit"))
            return mpp_lines_error(p->rd, p->line,
                                   "unknown key '%s' in a step comment, expected '%% step=K "
                                   "msg_unit=B'",
                                   f[i]);
        if ((is_step && seen_step) || (!is_step && seen_unit))
            return mpp_lines_error(p->rd, p->line, "%s given twice in a step comment", f[i]);
        if (rc != NUM_OK || eq[1] == '+' || eq[1] == '-' ||
            (is_step && v > UINT32_MAX) || (!is_step && v == 0))
            return mpp_lines_error(
                p->rd, p->line, "%s='%s' in a step comment, expected %s", f[i], eq + 1,
                is_step ? "an integer 0..4294967295" : "a positive integer (bytes)");
        if (is_step) {
            seen_step = 1;
            p->step = v;
        } else {
            seen_unit = 1;
            p->msg_unit = v;
        }
    }
    return 0;
}

/* `n n nnz`. */
static int parse_size(parser *p, char *line)
{
    char *f[MAX_FIELDS];
    uint64_t v[3] = {0, 0, 0};
    int nf = split(line, f);
    if (nf != 3)
        return mpp_lines_error(p->rd, p->line,
                               "bad size line: %d fields, expected three non-negative integers "
                               "'rows cols nnz'",
                               nf > MAX_FIELDS ? nf - 1 : nf);
    static const char *const what[3] = {"rows", "cols", "nnz"};
    for (int i = 0; i < 3; i++)
        if (parse_num(f[i], &v[i]) != NUM_OK || f[i][0] == '-' || f[i][0] == '+')
            return mpp_lines_error(p->rd, p->line,
                                   "bad size line: %s '%s', expected three non-negative "
                                   "integers 'rows cols nnz'",
                                   what[i], f[i]);
    if (v[0] != v[1])
        return mpp_lines_error(p->rd, p->line,
                               "the matrix is %" PRIu64 " x %" PRIu64 ", expected a square "
                               "matrix (rows == cols)",
                               v[0], v[1]);
    if (v[0] == 0)
        return mpp_lines_error(p->rd, p->line,
                               "the matrix is 0 x 0, expected at least 1 processor");
    if (v[0] > MPP_COM_MAX_N)
        return mpp_lines_error(p->rd, p->line,
                               "%" PRIu64 " processors, expected at most %u (the limit of a "
                               "matrix)",
                               v[0], MPP_COM_MAX_N);
    if (v[2] > v[0] * (v[0] - 1))
        return mpp_lines_error(p->rd, p->line,
                               "nnz %" PRIu64 " is more than the %" PRIu64 " off-diagonal "
                               "entries of a %" PRIu64 " x %" PRIu64 " matrix",
                               v[2], v[0] * (v[0] - 1), v[0], v[0]);
    if (v[2] > MPP_COM_MAX_NNZ)
        return mpp_lines_error(p->rd, p->line,
                               "nnz %" PRIu64 " is more than the limit of %u entries of a matrix",
                               v[2], MPP_COM_MAX_NNZ);
    /* an entry line is at least `i j` and its line end (the entries are
     * stored as they are read, never from this count) */
    int rc = mpp_lines_check_count(p->rd, p->line, v[2], 4, "entries");
    if (rc)
        return rc;
    p->n = (uint32_t)v[0];
    p->nnz = (uint32_t)v[2];
    p->size_line = p->line;
    return 0;
}

/* One index field ("row" or "col") into *out (0-based). */
static int parse_index(parser *p, const char *t, const char *what, uint32_t *out)
{
    uint64_t v = 0;
    switch (parse_num(t, &v)) {
    case NUM_BAD:
        return mpp_lines_error(
            p->rd, p->line, "%s index '%s' is not an integer, expected 1..%" PRIu32, what, t, p->n);
    case NUM_NEG:
        return mpp_lines_error(p->rd, p->line, "%s index %s is negative, expected 1..%" PRIu32,
                               what, t, p->n);
    case NUM_BIG:
        return mpp_lines_error(p->rd, p->line, "%s index %s is larger than n = %" PRIu32, what, t,
                               p->n);
    default:
        break;
    }
    if (v == 0)
        return mpp_lines_error(p->rd, p->line,
                               "%s index 0, expected 1..%" PRIu32 " (indices are 1-based)", what,
                               p->n);
    if (v > p->n)
        return mpp_lines_error(p->rd, p->line, "%s index %" PRIu64 " is larger than n = %" PRIu32,
                               what, v, p->n);
    *out = (uint32_t)(v - 1);
    return 0;
}

/* `i j value` (integer) or `i j` (pattern). */
static int parse_entry(parser *p, char *line)
{
    char *f[MAX_FIELDS];
    int nf = split(line, f), want = p->pattern ? 2 : 3;
    const char *form = p->pattern ? "'row col' (pattern)" : "'row col value'";
    if (nf < want)
        return mpp_lines_error(p->rd, p->line, "too few fields (%d), expected %s", nf, form);
    if (nf > want)
        return mpp_lines_error(p->rd, p->line, "too many fields (%s%d), expected %s",
                               nf > MAX_FIELDS ? "> " : "", nf > MAX_FIELDS ? MAX_FIELDS : nf,
                               form);
    raw e = {0, 0, 1, p->line};
    int rc = parse_index(p, f[0], "row", &e.src);
    if (!rc)
        rc = parse_index(p, f[1], "column", &e.dst);
    if (rc)
        return rc;
    if (!p->pattern) {
        switch (parse_num(f[2], &e.units)) {
        case NUM_BAD:
            return mpp_lines_error(p->rd, p->line,
                                   "value '%s' is not an integer, expected a message size in "
                                   "units",
                                   f[2]);
        case NUM_NEG:
            return mpp_lines_error(p->rd, p->line,
                                   "negative value %s, expected a message size >= 0", f[2]);
        case NUM_BIG:
            return mpp_lines_error(p->rd, p->line, "value %s overflows 64 bits", f[2]);
        default:
            break;
        }
    }
    if (e.src == e.dst)
        return mpp_lines_error(p->rd, p->line,
                               "diagonal entry (%" PRIu32 ", %" PRIu32 "), expected a zero "
                               "diagonal (a processor does not send to itself)",
                               e.src + 1, e.dst + 1);
    if (p->count == p->cap) {
        uint32_t cap = p->cap ? (p->cap > UINT32_MAX / 2 ? UINT32_MAX : p->cap * 2) : 256;
        if (cap > p->nnz)
            cap = p->nnz;
        raw *ne = realloc(p->e, (size_t)cap * sizeof *ne);
        if (!ne)
            return mpp_err_set(p->err, MPP_ENOMEM, "%s: out of memory", mpp_lines_path(p->rd));
        p->e = ne;
        p->cap = cap;
    }
    p->e[p->count++] = e;
    return 0;
}

static int cmp_raw(const void *a, const void *b)
{
    const raw *x = a, *y = b;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    if (x->dst != y->dst)
        return x->dst < y->dst ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* The current block is complete: sort, reject duplicates (reported at the
 * earliest line that repeats an entry), append an mpp_com to the sequence. */
static int end_block(parser *p)
{
    if (p->count)
        qsort(p->e, p->count, sizeof *p->e, cmp_raw);
    uint32_t dup = UINT32_MAX, kept = 0;
    for (uint32_t i = 0; i < p->count; i++) {
        if (i && p->e[i].src == p->e[i - 1].src && p->e[i].dst == p->e[i - 1].dst) {
            if (dup == UINT32_MAX || p->e[i].line < p->e[dup].line)
                dup = i;
        } else if (p->e[i].units) {
            kept++;
        }
    }
    if (dup != UINT32_MAX) {
        const raw *d = &p->e[dup];
        uint32_t first = dup;
        while (first && p->e[first - 1].src == d->src && p->e[first - 1].dst == d->dst)
            first--;
        return mpp_lines_error(p->rd, d->line,
                               "duplicate entry (%" PRIu32 ", %" PRIu32 "), first given on line "
                               "%" PRIu64 ", expected each entry once",
                               d->src + 1, d->dst + 1, p->e[first].line);
    }
    if (p->seq.count == p->seq_cap) {
        uint32_t cap = p->seq_cap ? p->seq_cap * 2 : 4;
        mpp_com *m = realloc(p->seq.m, (size_t)cap * sizeof *m);
        if (!m)
            return mpp_err_set(p->err, MPP_ENOMEM, "%s: out of memory", mpp_lines_path(p->rd));
        p->seq.m = m;
        p->seq_cap = cap;
    }
    mpp_com *c = &p->seq.m[p->seq.count];
    int rc = mpp_com_init(c, p->n, p->msg_unit, p->err);
    if (rc)
        return rc;
    if (kept) {
        c->e = malloc((size_t)kept * sizeof *c->e);
        if (!c->e)
            return mpp_err_set(p->err, MPP_ENOMEM, "%s: out of memory", mpp_lines_path(p->rd));
        c->cap = kept;
        for (uint32_t i = 0; i < p->count; i++)
            if (p->e[i].units)
                c->e[c->nnz++] = (mpp_com_entry){p->e[i].src, p->e[i].dst, p->e[i].units};
    }
    c->step = (uint32_t)p->step;
    assert(mpp_com_check(c));
    p->seq.count++;
    p->state = S_BETWEEN;
    return 0;
}

/* The block in S_ENTRIES is interrupted (a new block or the end of the
 * file at line `line`): an error unless all its entries were read. */
static int short_block(parser *p, uint64_t line, const char *why)
{
    return mpp_lines_error(p->rd, line,
                           "%s after %" PRIu32 " of the %" PRIu32 " entries declared on line "
                           "%" PRIu64 " (truncated?)",
                           why, p->count, p->nnz, p->size_line);
}

static int parse_line(parser *p, char *line)
{
    while (*line == ' ' || *line == '\t')
        line++;
    if (!*line)
        return 0;
    int rc;
    if (line[0] == '%' && line[1] == '%') {
        if (p->state == S_ENTRIES)
            return short_block(p, p->line, "a new header");
        if (p->state == S_PREAMBLE && p->header_line)
            return mpp_lines_error(p->rd, p->line,
                                   "second header, expected the size line 'rows cols nnz' of "
                                   "the matrix whose header is on line %" PRIu64,
                                   p->header_line);
        if (p->state != S_PREAMBLE)
            begin_block(p);
        return parse_header(p, line);
    }
    if (line[0] == '%') {
        if (!is_step_comment(line + 1))
            return 0;
        if (p->state == S_ENTRIES)
            return short_block(p, p->line, "a step comment");
        if (p->state == S_PREAMBLE && p->step_line)
            return mpp_lines_error(p->rd, p->line,
                                   "second step comment for one matrix (the first is on line "
                                   "%" PRIu64 "), expected the size line 'rows cols nnz'",
                                   p->step_line);
        if (p->state != S_PREAMBLE)
            begin_block(p);
        p->step_line = p->line;
        return parse_step_comment(p, line + 1);
    }
    switch (p->state) {
    case S_START:
        return mpp_lines_error(p->rd, p->line, "missing header, expected '%s' as the first line",
                               HEADER);
    case S_PREAMBLE:
        if (!p->have_field)
            return mpp_lines_error(p->rd, p->line,
                                   "missing header, expected '%s' before the size line", HEADER);
        if ((rc = parse_size(p, line)))
            return rc;
        p->state = S_ENTRIES;
        return p->nnz ? 0 : end_block(p);
    case S_ENTRIES:
        if ((rc = parse_entry(p, line)))
            return rc;
        return p->count == p->nnz ? end_block(p) : 0;
    default:
        return mpp_lines_error(p->rd, p->line,
                               "more entries than the %" PRIu32 " declared on line %" PRIu64
                               " (a new matrix starts with a header or a '%% step=K' comment)",
                               p->nnz, p->size_line);
    }
}

/* End of file in state p->state. */
static int parse_eof(parser *p)
{
    switch (p->state) {
    case S_START:
        if (p->line == 0)
            return mpp_lines_error(p->rd, 1, "empty file, expected '%s'", HEADER);
        return mpp_lines_error(p->rd, p->line, "no Matrix Market header, expected '%s'", HEADER);
    case S_PREAMBLE:
        return mpp_lines_error(p->rd, p->line,
                               "the file ends before the size line 'rows cols nnz' "
                               "(truncated?)");
    case S_ENTRIES:
        return short_block(p, p->line, "the file ends");
    default:
        return 0;
    }
}

void mpp_com_seq_free(mpp_com_seq *seq)
{
    if (!seq)
        return;
    for (uint32_t i = 0; i < seq->count; i++)
        mpp_com_free(&seq->m[i]);
    free(seq->m);
    seq->m = NULL;
    seq->count = 0;
}

int mpp_com_read(const char *path, mpp_com_seq *seq, mpp_err *err)
{
    parser p;
    memset(&p, 0, sizeof p);
    seq->count = 0;
    seq->m = NULL;
    p.err = err;
    p.state = S_START;
    int rc = mpp_lines_open(&p.rd, path, LINE_CHARS, err);
    if (rc)
        return rc;
    char *line = NULL;
    while ((rc = mpp_lines_next(p.rd, &line, &p.line)) == 1)
        if ((rc = parse_line(&p, line)))
            break;
    if (rc == 0)
        rc = parse_eof(&p);
    mpp_lines_close(p.rd);
    free(p.e);
    if (rc) {
        mpp_com_seq_free(&p.seq);
        return rc;
    }
    *seq = p.seq;
    return 0;
}

/* ---- writing ------------------------------------------------------------ */

int mpp_com_write(const char *path, const mpp_com_seq *seq, mpp_err *err)
{
    if (seq->count == 0)
        return mpp_err_set(err, MPP_EINVAL, "%s: no matrix to write", path);
    for (uint32_t k = 0; k < seq->count; k++)
        if (!mpp_com_check(&seq->m[k]))
            return mpp_err_set(err, MPP_EINVAL, "%s: matrix %" PRIu32 " is not a valid COM "
                               "(unsorted, duplicate or diagonal entries)", path, k);
    mpp_sb text;
    mpp_sb_init(&text);
    for (uint32_t k = 0; k < seq->count; k++) {
        const mpp_com *c = &seq->m[k];
        mpp_sb_add(&text, HEADER "\n");
        if (k == 0)
            mpp_sb_add(&text, "% written by mppnet\n");
        if (seq->count > 1 || c->step != 0 || c->msg_unit != 1)
            mpp_sb_printf(&text, "%% step=%" PRIu32 " msg_unit=%" PRIu64 "\n", c->step,
                          c->msg_unit);
        mpp_sb_printf(&text, "%" PRIu32 " %" PRIu32 " %" PRIu32 "\n", c->n, c->n, c->nnz);
        for (uint32_t i = 0; i < c->nnz; i++)
            mpp_sb_printf(&text, "%" PRIu32 " %" PRIu32 " %" PRIu64 "\n", c->e[i].src + 1,
                          c->e[i].dst + 1, c->e[i].units);
    }
    int rc = mpp_lines_write(path, &text, err);
    mpp_sb_free(&text);
    return rc;
}
