/* core/config/cfgtree.c — YAML documents as located trees (see cfgtree.h).
 *
 * Reading: libyaml's event parser (yaml_parser_parse) drives a recursive
 * descent, parse_node(), that turns every SCALAR / SEQUENCE_START /
 * MAPPING_START event into a node holding the event's start mark (libyaml
 * marks are 0-based; nodes store them 1-based). ALIAS events, anchors and
 * tags are refused: configurations are plain data, and a reference would make
 * "where was this written" ambiguous.
 *
 *   STREAM_START -> (STREAM_END: empty document -> null root)
 *                -> DOCUMENT_START -> parse_node -> DOCUMENT_END
 *                -> STREAM_END (a second DOCUMENT_START is an error)
 *
 * Data structures: a node is a tagged record; maps keep two parallel arrays
 * (key scalars and values) in document order so that the resolved dump and
 * the "first error" are in the order the user wrote; sequences use the value
 * array only. Each node owns a copy of its origin string: trees are small
 * and this lets subtrees move between trees (overrides, sweep values)
 * without shared ownership.
 *
 * Invariants:
 *   1. a map's keys are scalars with pairwise different text;
 *   2. key[] is NULL unless kind == MPP_CFG_MAP; text is NULL unless
 *      kind == MPP_CFG_SCALAR; n <= cap;
 *   3. every node owns its origin, text, arrays and children (a tree, no
 *      sharing), so mpp_cfgtree_free releases each exactly once.
 */
#include "core/config/cfgtree.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "core/base/file.h"
#include "core/base/units.h"

struct mpp_cfgnode {
    mpp_cfgkind kind;
    bool quoted;         /* scalar written with quotes */
    char *origin;        /* file name, or the command-line text */
    uint32_t line, col;  /* 1-based; line 0 = no position */
    char *text;          /* scalar only */
    size_t n, cap;       /* pairs / items */
    mpp_cfgnode **key;   /* map only: key scalars [cap] */
    mpp_cfgnode **val;   /* map values, sequence items [cap] */
    uint32_t *index;     /* map only, large maps: open-addressing hash of key positions + 1
                            ([index_cap], a power of two > 2n), or NULL (rebuilt on demand) */
    size_t index_cap;
};

/* Maps with more keys than this are looked up through their hash index,
 * so a file's duplicate keys are found in linear time. */
#define INDEX_FROM 8

/* Nesting deeper than this is refused (libyaml itself has no limit and the
 * reader is recursive). */
#define MAX_DEPTH 64

static mpp_cfgnode *node_new(mpp_cfgkind kind, const char *origin, uint32_t line, uint32_t col)
{
    mpp_cfgnode *n = calloc(1, sizeof *n);
    if (!n)
        return NULL;
    n->kind = kind;
    n->origin = strdup(origin ? origin : "<internal>");
    n->line = line;
    n->col = col;
    if (!n->origin) {
        free(n);
        return NULL;
    }
    return n;
}

static mpp_cfgnode *node_at(mpp_cfgkind kind, const mpp_cfgnode *loc)
{
    if (!loc)
        return node_new(kind, NULL, 0, 0);
    return node_new(kind, loc->origin, loc->line, loc->col);
}

void mpp_cfgtree_free(mpp_cfgnode *n)
{
    if (!n)
        return;
    for (size_t i = 0; i < n->n; i++) {
        if (n->key)
            mpp_cfgtree_free(n->key[i]);
        mpp_cfgtree_free(n->val[i]);
    }
    free(n->key);
    free(n->val);
    free(n->index);
    free(n->text);
    free(n->origin);
    free(n);
}

static void index_put(mpp_cfgnode *n, size_t i);

/* Append (k, v) to a map (k non-NULL) or v to a sequence (k NULL). On
 * failure nothing is taken. */
static bool node_push(mpp_cfgnode *n, mpp_cfgnode *k, mpp_cfgnode *v)
{
    if (n->n == n->cap) {
        size_t cap = n->cap ? 2 * n->cap : 4;
        mpp_cfgnode **nv = realloc(n->val, cap * sizeof *nv);
        if (!nv)
            return false;
        n->val = nv;
        if (n->kind == MPP_CFG_MAP) {
            mpp_cfgnode **nk = realloc(n->key, cap * sizeof *nk);
            if (!nk)
                return false;
            n->key = nk;
        }
        n->cap = cap;
    }
    if (n->kind == MPP_CFG_MAP)
        n->key[n->n] = k;
    n->val[n->n++] = v;
    if (n->index) {
        /* keep the load factor at most 1/2, else drop it (rebuilt later) */
        if (2 * n->n < n->index_cap)
            index_put(n, n->n - 1);
        else {
            free(n->index);
            n->index = NULL;
        }
    }
    return true;
}

static uint64_t key_hash(const char *key, size_t len)
{
    uint64_t h = 14695981039346656037ULL;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)key[i];
        h *= 1099511628211ULL;
    }
    return h;
}

/* Put position i into n's index (which has room). */
static void index_put(mpp_cfgnode *n, size_t i)
{
    const char *t = n->key[i]->text;
    size_t m = n->index_cap - 1, at = (size_t)key_hash(t, strlen(t)) & m;
    while (n->index[at])
        at = (at + 1) & m;
    n->index[at] = (uint32_t)i + 1;
}

/* (Re)build n's index for its n keys; false when out of memory (lookups
 * then scan). */
static bool index_build(mpp_cfgnode *n)
{
    size_t cap = 64;
    while (cap <= 2 * n->n)
        cap *= 2;
    uint32_t *ix = calloc(cap, sizeof *ix);
    if (!ix || n->n >= UINT32_MAX) {
        free(ix);
        return false;
    }
    free(n->index);
    n->index = ix;
    n->index_cap = cap;
    for (size_t i = 0; i < n->n; i++)
        index_put(n, i);
    return true;
}

static size_t map_find(const mpp_cfgnode *cn, const char *key, size_t keylen)
{
    mpp_cfgnode *n = (mpp_cfgnode *)cn; /* the index is a cache */
    if (n->n > INDEX_FROM && (n->index || index_build(n))) {
        size_t m = n->index_cap - 1, at = (size_t)key_hash(key, keylen) & m;
        for (; n->index[at]; at = (at + 1) & m) {
            const char *t = n->key[n->index[at] - 1]->text;
            if (strlen(t) == keylen && memcmp(t, key, keylen) == 0)
                return n->index[at] - 1;
        }
        return SIZE_MAX;
    }
    for (size_t i = 0; i < n->n; i++) {
        const char *t = n->key[i]->text;
        if (strlen(t) == keylen && memcmp(t, key, keylen) == 0)
            return i;
    }
    return SIZE_MAX;
}

static bool text_is_null(const char *t)
{
    return !t[0] || !strcmp(t, "~") || !strcmp(t, "null") || !strcmp(t, "Null") ||
           !strcmp(t, "NULL");
}

bool mpp_cfgtree_is_null(const mpp_cfgnode *n)
{
    return n && n->kind == MPP_CFG_SCALAR && !n->quoted && text_is_null(n->text);
}

/* ---------------------------------------------------------------- reading */

typedef struct parse_ctx {
    yaml_parser_t p;
    const char *origin;
    bool positions;  /* false: value mode, nodes have no line */
    mpp_err *err;
    const char *text; /* the input, for the line and column of a byte offset */
    size_t len;
} parse_ctx;

static int parse_fail(parse_ctx *c, const yaml_mark_t *m, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int parse_fail(parse_ctx *c, const yaml_mark_t *m, const char *fmt, ...)
{
    char what[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (c->positions && m)
        return mpp_err_set(c->err, MPP_EINVAL, "%s:%zu:%zu: %s", c->origin, m->line + 1,
                           m->column + 1, what);
    return mpp_err_set(c->err, MPP_EINVAL, "%s: %s", c->origin, what);
}

/* libyaml's reader error (bad UTF-8, a control character) as an mpp_err
 * at the line and column (in characters, as libyaml counts them) of the
 * character at fault, with its bytes: libyaml's own words ("invalid
 * trailing UTF-8 octet", byte 0x00 for an incomplete sequence) name
 * neither the character nor the encoding expected. */
static int reader_fail(parse_ctx *c)
{
    yaml_parser_t *p = &c->p;
    const char *problem = p->problem ? p->problem : "invalid input";
    const unsigned char *t = (const unsigned char *)c->text;
    size_t at = p->problem_offset < c->len ? p->problem_offset : c->len;
    bool utf8 = strstr(problem, "UTF-8") || strstr(problem, "Unicode");
    size_t start = at, stop = at + 1; /* the bytes shown: [start, stop) */
    if (utf8 && strstr(problem, "trailing")) /* at: the byte that cannot continue */
        for (size_t k = 1; k <= 3 && k <= at; k++)
            if (t[at - k] >= 0xc0) {
                start = at - k;
                break;
            }
    if (utf8 && start == at && at < c->len) { /* the sequence its first byte announces */
        unsigned char b = t[at];
        stop = at + (b >= 0xf8 ? 1 : b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1);
    }
    if (stop > c->len)
        stop = c->len;
    size_t line = 1, col = 1;
    for (size_t i = 0; i < start; i++) {
        if (t[i] == '\n') {
            line++;
            col = 1;
        } else if ((t[i] & 0xc0) != 0x80) {
            col++;
        }
    }
    char pos[64] = "";
    if (c->positions)
        snprintf(pos, sizeof pos, ":%zu:%zu", line, col);
    if (!utf8)
        return mpp_err_set(c->err, MPP_EINVAL, "%s%s: %s (byte 0x%02x): expected UTF-8 text "
                           "without control characters",
                           c->origin, pos, problem,
                           p->problem_value < 0 ? 0u : (unsigned)p->problem_value & 0xffu);
    char bytes[32] = "";
    size_t n = 0;
    for (size_t i = start; i < stop && n + 6 < sizeof bytes; i++)
        n += (size_t)snprintf(bytes + n, sizeof bytes - n, "%s0x%02x", n ? " " : "", t[i]);
    return mpp_err_set(c->err, MPP_EINVAL,
                       "%s%s: not UTF-8 text: the byte%s %s %s a UTF-8 character%s; mppnet reads "
                       "YAML as UTF-8%s",
                       c->origin, pos, stop - start == 1 ? "" : "s", bytes[0] ? bytes : "(none)",
                       stop - start == 1 ? "is not" : "are not",
                       strstr(problem, "incomplete") ? " (the text ends inside it)" : "",
                       c->positions ? " (a Latin-1 file converts with `iconv -f latin1 -t utf-8`)"
                                    : "");
}

/* Turn libyaml's error state into an mpp_err. */
static int yaml_fail(parse_ctx *c)
{
    yaml_parser_t *p = &c->p;
    if (p->error == YAML_MEMORY_ERROR)
        return mpp_err_set(c->err, MPP_ENOMEM, "%s: out of memory", c->origin);
    const char *problem = p->problem ? p->problem : "invalid YAML";
    if (p->error == YAML_READER_ERROR)
        return reader_fail(c);
    if (p->context && !strcmp(p->context, "while scanning a simple key") &&
        p->problem_mark.line == p->context_mark.line &&
        p->problem_mark.index - p->context_mark.index > 1024)
        /* libyaml forgets a possible key 1024 characters on */
        return parse_fail(c, &p->context_mark,
                          "a key of %zu characters: YAML allows keys of at most 1024 characters "
                          "(no key of an experiment is that long)",
                          p->problem_mark.index - p->context_mark.index);
    if (p->context && c->positions)
        return parse_fail(c, &p->problem_mark, "%s (%s at line %zu, column %zu)", problem,
                          p->context, p->context_mark.line + 1, p->context_mark.column + 1);
    return parse_fail(c, &p->problem_mark, "%s", problem);
}

static int next_event(parse_ctx *c, yaml_event_t *ev)
{
    if (!yaml_parser_parse(&c->p, ev))
        return yaml_fail(c);
    return 0;
}

static mpp_cfgnode *located(parse_ctx *c, mpp_cfgkind kind, const yaml_mark_t *m)
{
    mpp_cfgnode *n = c->positions
                         ? node_new(kind, c->origin, (uint32_t)m->line + 1, (uint32_t)m->column + 1)
                         : node_new(kind, c->origin, 0, 0);
    if (!n)
        mpp_err_set(c->err, MPP_ENOMEM, "%s: out of memory", c->origin);
    return n;
}

/* Anchors and tags are refused on every node event. */
static int check_plain(parse_ctx *c, const yaml_mark_t *m, const yaml_char_t *anchor,
                       const yaml_char_t *tag)
{
    if (anchor)
        return parse_fail(c, m, "anchors and aliases (&%s) are not supported",
                          (const char *)anchor);
    if (tag)
        return parse_fail(c, m, "tags (%s) are not supported", (const char *)tag);
    return 0;
}

static mpp_cfgnode *parse_node(parse_ctx *c, yaml_event_t *ev, int depth);

static mpp_cfgnode *parse_seq(parse_ctx *c, mpp_cfgnode *n, int depth)
{
    for (;;) {
        yaml_event_t ch;
        if (next_event(c, &ch))
            goto fail;
        if (ch.type == YAML_SEQUENCE_END_EVENT) {
            yaml_event_delete(&ch);
            return n;
        }
        mpp_cfgnode *item = parse_node(c, &ch, depth + 1);
        if (!item)
            goto fail;
        if (!node_push(n, NULL, item)) {
            mpp_cfgtree_free(item);
            mpp_err_set(c->err, MPP_ENOMEM, "%s: out of memory", c->origin);
            goto fail;
        }
    }
fail:
    mpp_cfgtree_free(n);
    return NULL;
}

static mpp_cfgnode *parse_map(parse_ctx *c, mpp_cfgnode *n, int depth)
{
    for (;;) {
        yaml_event_t ke, ve;
        if (next_event(c, &ke))
            goto fail;
        if (ke.type == YAML_MAPPING_END_EVENT) {
            yaml_event_delete(&ke);
            return n;
        }
        yaml_mark_t km = ke.start_mark;
        mpp_cfgnode *k = parse_node(c, &ke, depth + 1);
        if (!k)
            goto fail;
        if (k->kind != MPP_CFG_SCALAR) {
            parse_fail(c, &km, "a mapping key must be a plain scalar, not a %s",
                       k->kind == MPP_CFG_MAP ? "mapping" : "list");
            mpp_cfgtree_free(k);
            goto fail;
        }
        size_t dup = map_find(n, k->text, strlen(k->text));
        if (dup != SIZE_MAX) {
            const mpp_cfgnode *first = n->key[dup];
            if (c->positions)
                parse_fail(c, &km, "duplicate key '%s' (first given at line %" PRIu32
                                   ", column %" PRIu32 ")",
                           k->text, first->line, first->col);
            else
                parse_fail(c, &km, "duplicate key '%s'", k->text);
            mpp_cfgtree_free(k);
            goto fail;
        }
        if (next_event(c, &ve)) {
            mpp_cfgtree_free(k);
            goto fail;
        }
        mpp_cfgnode *v = parse_node(c, &ve, depth + 1);
        if (!v) {
            mpp_cfgtree_free(k);
            goto fail;
        }
        if (!node_push(n, k, v)) {
            mpp_cfgtree_free(k);
            mpp_cfgtree_free(v);
            mpp_err_set(c->err, MPP_ENOMEM, "%s: out of memory", c->origin);
            goto fail;
        }
    }
fail:
    mpp_cfgtree_free(n);
    return NULL;
}

/* Build the node that starts with event ev (consumed here, even on failure). */
static mpp_cfgnode *parse_node(parse_ctx *c, yaml_event_t *ev, int depth)
{
    yaml_mark_t m = ev->start_mark;
    mpp_cfgnode *n = NULL;
    switch (ev->type) {
    case YAML_ALIAS_EVENT:
        parse_fail(c, &m, "anchors and aliases (*%s) are not supported",
                   (const char *)ev->data.alias.anchor);
        break;
    case YAML_SCALAR_EVENT: {
        if (check_plain(c, &m, ev->data.scalar.anchor, ev->data.scalar.tag))
            break;
        const char *v = (const char *)ev->data.scalar.value;
        size_t len = ev->data.scalar.length;
        if (strlen(v) != len) {
            parse_fail(c, &m, "a NUL character is not allowed in a value");
            break;
        }
        n = located(c, MPP_CFG_SCALAR, &m);
        if (!n)
            break;
        n->quoted = ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
        n->text = strdup(v);
        if (!n->text) {
            mpp_cfgtree_free(n);
            n = NULL;
            mpp_err_set(c->err, MPP_ENOMEM, "%s: out of memory", c->origin);
        }
        break;
    }
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT: {
        bool seq = ev->type == YAML_SEQUENCE_START_EVENT;
        const yaml_char_t *anchor = seq ? ev->data.sequence_start.anchor
                                        : ev->data.mapping_start.anchor;
        const yaml_char_t *tag = seq ? ev->data.sequence_start.tag : ev->data.mapping_start.tag;
        if (check_plain(c, &m, anchor, tag))
            break;
        if (depth >= MAX_DEPTH) {
            parse_fail(c, &m, "nesting deeper than %d levels", MAX_DEPTH);
            break;
        }
        n = located(c, seq ? MPP_CFG_SEQ : MPP_CFG_MAP, &m);
        if (!n)
            break;
        yaml_event_delete(ev);
        return seq ? parse_seq(c, n, depth) : parse_map(c, n, depth);
    }
    default:
        parse_fail(c, &m, "unexpected YAML structure");
        break;
    }
    yaml_event_delete(ev);
    return n;
}

static mpp_cfgnode *parse_stream(parse_ctx *c)
{
    yaml_event_t ev;
    mpp_cfgnode *root = NULL;
    if (next_event(c, &ev))
        return NULL;
    assert(ev.type == YAML_STREAM_START_EVENT);
    yaml_event_delete(&ev);
    if (next_event(c, &ev))
        return NULL;
    if (ev.type == YAML_STREAM_END_EVENT) {
        yaml_event_delete(&ev);
        root = node_new(MPP_CFG_SCALAR, c->origin, 0, 0);
        if (root)
            root->text = strdup("");
        if (!root || !root->text) {
            mpp_cfgtree_free(root);
            mpp_err_set(c->err, MPP_ENOMEM, "%s: out of memory", c->origin);
            return NULL;
        }
        return root;
    }
    assert(ev.type == YAML_DOCUMENT_START_EVENT);
    yaml_event_delete(&ev);
    if (next_event(c, &ev))
        return NULL;
    root = parse_node(c, &ev, 0);
    if (!root)
        return NULL;
    if (next_event(c, &ev))
        goto fail;
    assert(ev.type == YAML_DOCUMENT_END_EVENT);
    yaml_event_delete(&ev);
    if (next_event(c, &ev))
        goto fail;
    if (ev.type != YAML_STREAM_END_EVENT) {
        parse_fail(c, &ev.start_mark, "only one YAML document is allowed");
        yaml_event_delete(&ev);
        goto fail;
    }
    yaml_event_delete(&ev);
    return root;
fail:
    mpp_cfgtree_free(root);
    return NULL;
}

static mpp_cfgnode *parse_common(const char *text, size_t len, const char *origin,
                                 bool positions, mpp_err *err)
{
    parse_ctx c;
    memset(&c, 0, sizeof c);
    c.origin = origin ? origin : "<string>";
    c.positions = positions;
    c.err = err;
    c.text = text;
    c.len = len;
    if (!yaml_parser_initialize(&c.p)) {
        mpp_err_set(err, MPP_ENOMEM, "%s: out of memory", c.origin);
        return NULL;
    }
    yaml_parser_set_input_string(&c.p, (const unsigned char *)text, len);
    mpp_cfgnode *root = parse_stream(&c);
    yaml_parser_delete(&c.p);
    return root;
}

mpp_cfgnode *mpp_cfgtree_parse_text(const char *text, size_t len, const char *origin,
                                    mpp_err *err)
{
    return parse_common(text, len, origin, true, err);
}

mpp_cfgnode *mpp_cfgtree_parse_value(const char *text, const char *origin, mpp_err *err)
{
    return parse_common(text, strlen(text), origin, false, err);
}

mpp_cfgnode *mpp_cfgtree_parse_file(const char *path, mpp_err *err)
{
    char *text;
    size_t len;
    if (mpp_file_read(path, MPP_CFGTREE_MAX_BYTES, &text, &len, err))
        return NULL;
    mpp_cfgnode *root = parse_common(text, len, path, true, err);
    free(text);
    return root;
}

/* ------------------------------------------------------------ new and copy */

mpp_cfgnode *mpp_cfgtree_new_scalar(const char *text, const mpp_cfgnode *loc)
{
    mpp_cfgnode *n = node_at(MPP_CFG_SCALAR, loc);
    if (!n)
        return NULL;
    n->text = strdup(text);
    if (!n->text) {
        mpp_cfgtree_free(n);
        return NULL;
    }
    return n;
}

mpp_cfgnode *mpp_cfgtree_new_map(const mpp_cfgnode *loc) { return node_at(MPP_CFG_MAP, loc); }

mpp_cfgnode *mpp_cfgtree_copy(const mpp_cfgnode *n)
{
    mpp_cfgnode *c = node_at(n->kind, n);
    if (!c)
        return NULL;
    c->quoted = n->quoted;
    if (n->text && !(c->text = strdup(n->text)))
        goto fail;
    for (size_t i = 0; i < n->n; i++) {
        mpp_cfgnode *k = NULL;
        if (n->kind == MPP_CFG_MAP && !(k = mpp_cfgtree_copy(n->key[i])))
            goto fail;
        mpp_cfgnode *v = mpp_cfgtree_copy(n->val[i]);
        if (!v || !node_push(c, k, v)) {
            mpp_cfgtree_free(k);
            mpp_cfgtree_free(v);
            goto fail;
        }
    }
    return c;
fail:
    mpp_cfgtree_free(c);
    return NULL;
}

/* --------------------------------------------------------- set and remove */

/* Turn a null scalar into an empty map, in place. */
static void make_map(mpp_cfgnode *n)
{
    assert(mpp_cfgtree_is_null(n));
    free(n->text);
    n->text = NULL;
    n->kind = MPP_CFG_MAP;
}

/* Component i of path split into at most maxparts parts: sets *start and *len;
 * returns true when it is the last component. */
static bool path_part(const char *path, unsigned maxparts, unsigned i, const char **start,
                      size_t *len)
{
    const char *s = path;
    for (unsigned k = 0; k < i; k++)
        s = strchr(s, '.') + 1;
    const char *dot = (maxparts && i + 1 >= maxparts) ? NULL : strchr(s, '.');
    *start = s;
    *len = dot ? (size_t)(dot - s) : strlen(s);
    return dot == NULL;
}

static bool path_valid(const char *path, unsigned maxparts)
{
    const char *s;
    size_t len;
    for (unsigned i = 0;; i++) {
        bool last = path_part(path, maxparts, i, &s, &len);
        if (len == 0)
            return false;
        if (last)
            return s[len - 1] != '.';
    }
}

int mpp_cfgtree_set(mpp_cfgnode *root, const char *path, unsigned maxparts, mpp_cfgnode *value,
                    mpp_err *err)
{
    if (!value) /* so that set(..., mpp_cfgtree_new_scalar(...), ...) is safe */
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    char where[320];
    mpp_cfgtree_where(value, where, sizeof where);
    int rc = 0;
    if (!path_valid(path, maxparts)) {
        rc = mpp_err_set(err, MPP_EINVAL, "%s: empty component in key path '%s'", where, path);
        goto out;
    }
    mpp_cfgnode *cur = root;
    if (mpp_cfgtree_is_null(cur))
        make_map(cur);
    if (cur->kind != MPP_CFG_MAP) {
        rc = mpp_err_set(err, MPP_EINVAL, "%s: cannot set '%s': the document is not a mapping",
                         where, path);
        goto out;
    }
    for (unsigned i = 0;; i++) {
        const char *s;
        size_t len;
        bool last = path_part(path, maxparts, i, &s, &len);
        size_t at = map_find(cur, s, len);
        if (last) {
            if (at != SIZE_MAX) {
                mpp_cfgtree_free(cur->val[at]);
                cur->val[at] = value;
                return 0;
            }
            mpp_cfgnode *k = mpp_cfgtree_new_scalar("", value);
            if (k) {
                free(k->text);
                k->text = malloc(len + 1);
                if (k->text) {
                    memcpy(k->text, s, len);
                    k->text[len] = '\0';
                }
            }
            if (!k || !k->text || !node_push(cur, k, value)) {
                mpp_cfgtree_free(k);
                rc = mpp_err_set(err, MPP_ENOMEM, "%s: out of memory", where);
                goto out;
            }
            return 0;
        }
        mpp_cfgnode *child;
        if (at != SIZE_MAX) {
            child = cur->val[at];
            if (mpp_cfgtree_is_null(child))
                make_map(child);
            if (child->kind != MPP_CFG_MAP) {
                rc = mpp_err_set(err, MPP_EINVAL,
                                 "%s: cannot set '%s': '%.*s' is a %s, not a mapping", where,
                                 path, (int)(s + len - path), path,
                                 child->kind == MPP_CFG_SEQ ? "list" : "value");
                goto out;
            }
        } else {
            child = mpp_cfgtree_new_map(value);
            mpp_cfgnode *k = mpp_cfgtree_new_scalar("", value);
            if (k) {
                free(k->text);
                k->text = malloc(len + 1);
                if (k->text) {
                    memcpy(k->text, s, len);
                    k->text[len] = '\0';
                }
            }
            if (!child || !k || !k->text || !node_push(cur, k, child)) {
                mpp_cfgtree_free(child);
                mpp_cfgtree_free(k);
                rc = mpp_err_set(err, MPP_ENOMEM, "%s: out of memory", where);
                goto out;
            }
        }
        cur = child;
    }
out:
    mpp_cfgtree_free(value);
    return rc;
}

bool mpp_cfgtree_remove(mpp_cfgnode *root, const char *path, unsigned maxparts)
{
    if (!path_valid(path, maxparts))
        return false;
    mpp_cfgnode *cur = root;
    for (unsigned i = 0;; i++) {
        if (!cur || cur->kind != MPP_CFG_MAP)
            return false;
        const char *s;
        size_t len;
        bool last = path_part(path, maxparts, i, &s, &len);
        size_t at = map_find(cur, s, len);
        if (at == SIZE_MAX)
            return false;
        if (!last) {
            cur = cur->val[at];
            continue;
        }
        mpp_cfgtree_free(cur->key[at]);
        mpp_cfgtree_free(cur->val[at]);
        memmove(cur->key + at, cur->key + at + 1, (cur->n - at - 1) * sizeof *cur->key);
        memmove(cur->val + at, cur->val + at + 1, (cur->n - at - 1) * sizeof *cur->val);
        cur->n--;
        free(cur->index); /* positions moved: rebuilt on the next lookup */
        cur->index = NULL;
        return true;
    }
}

int mpp_cfgtree_assignment(const char *assignment, char **path, mpp_cfgnode **value,
                           mpp_err *err)
{
    *path = NULL;
    *value = NULL;
    mpp_sb origin;
    mpp_sb_init(&origin);
    mpp_sb_add(&origin, "command line: ");
    mpp_sb_add(&origin, assignment);
    if (!mpp_sb_ok(&origin))
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    int rc = 0;
    const char *eq = strchr(assignment, '=');
    if (!eq) {
        rc = mpp_err_set(err, MPP_EINVAL, "%s: expected KEY=VALUE (e.g. network.vcs=4)", origin.s);
        goto out;
    }
    size_t klen = (size_t)(eq - assignment);
    char *key = malloc(klen + 1);
    if (!key) {
        rc = mpp_err_set(err, MPP_ENOMEM, "%s: out of memory", origin.s);
        goto out;
    }
    memcpy(key, assignment, klen);
    key[klen] = '\0';
    if (!klen || !path_valid(key, 0)) {
        rc = mpp_err_set(err, MPP_EINVAL, "%s: %s key path '%s'", origin.s,
                         klen ? "empty component in" : "empty", key);
        free(key);
        goto out;
    }
    mpp_cfgnode *v = mpp_cfgtree_parse_value(eq + 1, origin.s, err);
    if (!v) {
        free(key);
        rc = err ? err->code : MPP_EINVAL;
        goto out;
    }
    *path = key;
    *value = v;
out:
    mpp_sb_free(&origin);
    return rc;
}

int mpp_cfgtree_override(mpp_cfgnode *root, const char *assignment, mpp_err *err)
{
    char *path;
    mpp_cfgnode *value;
    int rc = mpp_cfgtree_assignment(assignment, &path, &value, err);
    if (rc)
        return rc;
    rc = mpp_cfgtree_set(root, path, 0, value, err);
    free(path);
    return rc;
}

int mpp_cfgtree_locate(mpp_cfgnode *n, const char *origin, uint32_t line, uint32_t col,
                       mpp_err *err)
{
    char *o = strdup(origin);
    if (!o)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    free(n->origin);
    n->origin = o;
    n->line = line;
    n->col = col;
    for (size_t i = 0; i < n->n; i++) {
        int rc = (n->key ? mpp_cfgtree_locate(n->key[i], origin, line, col, err) : 0);
        if (rc || (rc = mpp_cfgtree_locate(n->val[i], origin, line, col, err)))
            return rc;
    }
    return 0;
}

/* -------------------------------------------------------------- accessors */

mpp_cfgkind mpp_cfgtree_kind(const mpp_cfgnode *n) { return n->kind; }

const char *mpp_cfgtree_text(const mpp_cfgnode *n)
{
    return n->kind == MPP_CFG_SCALAR ? n->text : NULL;
}

bool mpp_cfgtree_quoted(const mpp_cfgnode *n) { return n->kind == MPP_CFG_SCALAR && n->quoted; }

size_t mpp_cfgtree_len(const mpp_cfgnode *n) { return n->kind == MPP_CFG_SCALAR ? 0 : n->n; }

const mpp_cfgnode *mpp_cfgtree_key(const mpp_cfgnode *n, size_t i)
{
    assert(i < n->n);
    return n->kind == MPP_CFG_MAP ? n->key[i] : NULL;
}

const mpp_cfgnode *mpp_cfgtree_item(const mpp_cfgnode *n, size_t i)
{
    assert(i < n->n);
    return n->val[i];
}

const mpp_cfgnode *mpp_cfgtree_get(const mpp_cfgnode *map, const char *key)
{
    if (!map || map->kind != MPP_CFG_MAP)
        return NULL;
    size_t at = map_find(map, key, strlen(key));
    return at == SIZE_MAX ? NULL : map->val[at];
}

const mpp_cfgnode *mpp_cfgtree_lookup(const mpp_cfgnode *root, const char *path)
{
    if (!path_valid(path, 0))
        return NULL;
    const mpp_cfgnode *cur = root;
    for (unsigned i = 0;; i++) {
        if (!cur || cur->kind != MPP_CFG_MAP)
            return NULL;
        const char *s;
        size_t len;
        bool last = path_part(path, 0, i, &s, &len);
        size_t at = map_find(cur, s, len);
        if (at == SIZE_MAX)
            return NULL;
        cur = cur->val[at];
        if (last)
            return cur;
    }
}

const char *mpp_cfgtree_origin(const mpp_cfgnode *n) { return n->origin; }
uint32_t mpp_cfgtree_line(const mpp_cfgnode *n) { return n->line; }
uint32_t mpp_cfgtree_column(const mpp_cfgnode *n) { return n->col; }

const char *mpp_cfgtree_where(const mpp_cfgnode *n, char *buf, size_t size)
{
    if (n->line)
        snprintf(buf, size, "%s:%" PRIu32 ":%" PRIu32, n->origin, n->line, n->col);
    else
        snprintf(buf, size, "%s", n->origin);
    return buf;
}

int mpp_cfgtree_check_path(const mpp_cfgnode *n, const char *keypath, mpp_err *err)
{
    if (n->kind != MPP_CFG_SCALAR || n->line == 0)
        return 0; /* the command line may name any path */
    const char *t = n->text;
    bool bad = t[0] == '/';
    for (const char *c = t; !bad && *c;) {
        const char *slash = strchr(c, '/');
        size_t len = slash ? (size_t)(slash - c) : strlen(c);
        bad = len == 2 && c[0] == '.' && c[1] == '.';
        c += len + (slash != NULL);
    }
    if (!bad)
        return 0;
    char where[320];
    mpp_cfgtree_where(n, where, sizeof where);
    return mpp_err_set(err, MPP_EINVAL,
                       "%s: key '%s': a path in a file must be relative and must not contain "
                       "'..' (give it on the command line to use another folder), got '%.80s'",
                       where, keypath, t);
}

int mpp_cfgtree_check_input(const mpp_cfgnode *n, const char *keypath, mpp_err *err)
{
    int rc = mpp_cfgtree_check_path(n, keypath, err);
    if (rc || n->kind != MPP_CFG_SCALAR || n->line == 0 || mpp_file_inside_cwd(n->text))
        return rc;
    char where[320];
    mpp_cfgtree_where(n, where, sizeof where);
    return mpp_err_set(err, MPP_EINVAL,
                       "%s: key '%s': '%.80s' leads outside the working folder through a "
                       "symbolic link; a file named in a file must lie inside it (give it on "
                       "the command line to use another file)",
                       where, keypath, n->text);
}

int mpp_cfgtree_expect_map(const mpp_cfgnode *n, const char *keypath, const char *what,
                           mpp_err *err)
{
    if (!n || mpp_cfgtree_is_null(n) || n->kind == MPP_CFG_MAP)
        return 0;
    char w[320];
    const char *t = mpp_cfgtree_text(n);
    return mpp_err_set(err, MPP_EINVAL, "%s: key '%s': expected a mapping of %s, got %s%.60s%s",
                       mpp_cfgtree_where(n, w, sizeof w), keypath, what, t ? "'" : "a list",
                       t ? t : "", t ? "'" : "");
}

static void emit_scalar(const mpp_cfgnode *n, mpp_sb *out)
{
    if (!n->quoted) {
        mpp_sb_add(out, n->text[0] ? n->text : "null");
        return;
    }
    /* A JSON string is a valid double-quoted YAML scalar. */
    mpp_sb_json_str(out, n->text);
}

void mpp_cfgtree_emit(const mpp_cfgnode *n, mpp_sb *out)
{
    switch (n->kind) {
    case MPP_CFG_SCALAR:
        emit_scalar(n, out);
        break;
    case MPP_CFG_SEQ:
        mpp_sb_addc(out, '[');
        for (size_t i = 0; i < n->n; i++) {
            if (i)
                mpp_sb_add(out, ", ");
            mpp_cfgtree_emit(n->val[i], out);
        }
        mpp_sb_addc(out, ']');
        break;
    case MPP_CFG_MAP:
        mpp_sb_addc(out, '{');
        for (size_t i = 0; i < n->n; i++) {
            if (i)
                mpp_sb_add(out, ", ");
            emit_scalar(n->key[i], out);
            mpp_sb_add(out, ": ");
            mpp_cfgtree_emit(n->val[i], out);
        }
        mpp_sb_addc(out, '}');
        break;
    }
}

/* ------------------------------------------------------------- conversion */

/* A bound as text: integers without exponent. */
static void fmt_num(char *buf, size_t size, double v)
{
    if (v == floor(v) && fabs(v) < 9007199254740992.0)
        snprintf(buf, size, "%.0f", v);
    else
        snprintf(buf, size, "%g", v);
}

/* What row p accepts, for messages ("an integer between 1 and 64"). */
static void describe(const mpp_param *p, mpp_ptype t, char *buf, size_t size)
{
    char lo[40], hi[40], range[100] = "";
    mpp_param row = *p;
    row.type = t;
    if (t == MPP_PT_DOUBLE) {
        fmt_num(lo, sizeof lo, p->min);
        fmt_num(hi, sizeof hi, p->max);
        if (mpp_param_has_upper(p))
            snprintf(range, sizeof range, " between %s and %s", lo, hi);
        else if (p->min > -1e300)
            snprintf(range, sizeof range, " of at least %s", lo);
    } else if (t != MPP_PT_BOOL && t != MPP_PT_ENUM && t != MPP_PT_BOOLLIST) {
        uint64_t l, h;
        mpp_param_int_bounds(&row, &l, &h);
        if (h != UINT64_MAX)
            snprintf(range, sizeof range, " between %" PRIu64 " and %" PRIu64, l, h);
        else if (t == MPP_PT_U64) /* the maximum named, as everywhere (a seed) */
            snprintf(range, sizeof range, " between %" PRIu64 " and 2^64 - 1", l);
        else if (l > 0)
            snprintf(range, sizeof range, " of at least %" PRIu64, l);
    }
    switch (t) {
    case MPP_PT_U32:
    case MPP_PT_U64:
        snprintf(buf, size, "%s%s", range[0] ? "an integer" : "a non-negative integer", range);
        break;
    case MPP_PT_U32LIST:
        snprintf(buf, size, "a list of at most %d integers%s", MPP_U32LIST_MAX, range);
        break;
    case MPP_PT_BOOLLIST:
        snprintf(buf, size, "true, false or a list of at most %d of them", MPP_U32LIST_MAX);
        break;
    case MPP_PT_SENDLIST:
        snprintf(buf, size, "a list of at most %d [src, dst, bytes] triples (node ids%s)",
                 MPP_SENDLIST_MAX, range);
        break;
    case MPP_PT_STRING:
        snprintf(buf, size, "a text of at most %d characters", MPP_STR_MAX - 1);
        break;
    case MPP_PT_NAMEMAP:
        snprintf(buf, size,
                 "a mapping of names to names ({KEY: NAME, ...}, or the text KEY=NAME,...; "
                 "names of letters, digits, '_', '.', '+', '-')");
        break;
    case MPP_PT_DOUBLE:
        snprintf(buf, size, "a number%s", range);
        break;
    case MPP_PT_BOOL:
        snprintf(buf, size, "true or false");
        break;
    case MPP_PT_BYTES:
        snprintf(buf, size,
                 "a size in bytes%s (an integer, or a number with unit B, KB, KiB, MB, MiB, GB "
                 "or GiB)",
                 range);
        break;
    case MPP_PT_CYCLES:
        snprintf(buf, size, "a number of cycles%s (an integer, or a time in ns, us, ms or s)",
                 range);
        break;
    case MPP_PT_ENUM: {
        size_t off = (size_t)snprintf(buf, size, "one of ");
        for (size_t i = 0; p->choices && p->choices[i] && off < size; i++)
            off += (size_t)snprintf(buf + off, size - off, "%s%s", i ? ", " : "", p->choices[i]);
        break;
    }
    case MPP_PT_PLUGIN:
        snprintf(buf, size, "a %s name", p->family ? p->family->what : "plug-in");
        break;
    }
}

/* The "got ..." part of a message. */
static void found(const mpp_cfgnode *n, char *buf, size_t size)
{
    if (n->kind == MPP_CFG_MAP)
        snprintf(buf, size, "a mapping of %zu key%s", n->n, n->n == 1 ? "" : "s");
    else if (n->kind == MPP_CFG_SEQ)
        snprintf(buf, size, "a list of %zu item%s", n->n, n->n == 1 ? "" : "s");
    else if (!n->text[0])
        snprintf(buf, size, "an empty value");
    else if (strlen(n->text) > 60)
        snprintf(buf, size, "'%.57s...'", n->text);
    else
        snprintf(buf, size, "'%s'", n->text);
}

static int bad_value(const mpp_cfgnode *n, const mpp_param *p, mpp_ptype t, const char *keypath,
                     mpp_err *err)
{
    char where[320], exp[200], got[80];
    mpp_cfgtree_where(n, where, sizeof where);
    describe(p, t, exp, sizeof exp);
    found(n, got, sizeof got);
    return mpp_err_set(err, MPP_EINVAL, "%s: key '%s': expected %s, got %s", where, keypath, exp,
                       got);
}

/* Scalar n as the value of row p with type t (p's range), stored at
 * (char *)base + p->offset: the one parser of core/base/param.c, with
 * located messages. */
static int convert_scalar(const mpp_cfgnode *n, const mpp_param *p, mpp_ptype t,
                          const char *keypath, double net_mhz, void *base, mpp_err *err)
{
    if (n->kind != MPP_CFG_SCALAR || (t == MPP_PT_U32LIST && mpp_cfgtree_is_null(n)))
        return bad_value(n, p, t, keypath, err);
    mpp_param row = *p;
    row.type = t;
    int rc = mpp_param_set_text(&row, n->text, net_mhz, base);
    if (rc == MPP_UNITS_NEED_CLOCK) {
        char where[320];
        mpp_cfgtree_where(n, where, sizeof where);
        return mpp_err_set(err, MPP_EINVAL,
                           "%s: key '%s': a time ('%s') needs the network clock, but "
                           "network.net_mhz is 0 (unknown): give a number of cycles or "
                           "set network.net_mhz",
                           where, keypath, n->text);
    }
    return rc ? bad_value(n, p, t, keypath, err) : 0;
}

/* An integer item of a list (U32 or BYTES with row p's range, or the given
 * range) into *out. */
static int convert_item(const mpp_cfgnode *n, const mpp_param *p, mpp_ptype t, double min,
                        double max, const char *keypath, double net_mhz, uint64_t *out,
                        mpp_err *err)
{
    struct {
        uint64_t v;
    } box;
    mpp_param row = *p;
    row.offset = 0;
    row.min = min;
    row.max = max;
    if (t == MPP_PT_U32) {
        uint32_t w;
        int rc = convert_scalar(n, &row, MPP_PT_U32, keypath, net_mhz, &w, err);
        *out = w;
        return rc;
    }
    int rc = convert_scalar(n, &row, t, keypath, net_mhz, &box, err);
    *out = box.v;
    return rc;
}

int mpp_cfgtree_convert(const mpp_cfgnode *n, const mpp_param *p, const char *keypath,
                        double net_mhz, void *base, mpp_err *err)
{
    char *dst = (char *)base + p->offset;
    uint64_t v;
    int rc;
    switch (p->type) {
    case MPP_PT_U32:
    case MPP_PT_U64:
    case MPP_PT_BYTES:
    case MPP_PT_CYCLES:
    case MPP_PT_DOUBLE:
    case MPP_PT_BOOL:
    case MPP_PT_ENUM:
        return convert_scalar(n, p, p->type, keypath, net_mhz, base, err);
    case MPP_PT_STRING:
        /* the text as written (quotes are YAML's, already removed): a file
         * name, which a file may only give inside the working folder */
        if (n->kind != MPP_CFG_SCALAR || strlen(n->text) >= MPP_STR_MAX)
            return bad_value(n, p, p->type, keypath, err);
        if ((rc = mpp_cfgtree_check_input(n, keypath, err)))
            return rc;
        memset(dst, 0, MPP_STR_MAX);
        memcpy(dst, n->text, strlen(n->text));
        return 0;
    case MPP_PT_NAMEMAP: {
        /* a mapping of scalars, joined into KEY=NAME,...; or that text (a
         * command-line value), or nothing */
        char text[MPP_STR_MAX];
        size_t len = 0;
        if (n->kind == MPP_CFG_SEQ)
            return bad_value(n, p, p->type, keypath, err);
        if (n->kind == MPP_CFG_SCALAR) {
            const char *t = mpp_cfgtree_is_null(n) || !strcmp(n->text, "{}") ? "" : n->text;
            if (!mpp_namemap_valid(t))
                return bad_value(n, p, p->type, keypath, err);
            len = strlen(t);
            memcpy(text, t, len);
        } else {
            for (size_t i = 0; i < n->n; i++) {
                const mpp_cfgnode *val = n->val[i];
                const char *k = n->key[i]->text;
                char sub[MPP_STR_MAX + 80];
                snprintf(sub, sizeof sub, "%s.%s", keypath, k);
                if (val->kind != MPP_CFG_SCALAR || mpp_cfgtree_is_null(val))
                    return bad_value(val, p, p->type, sub, err);
                if (len + (i > 0) + strlen(k) + 1 + strlen(val->text) >= MPP_STR_MAX)
                    return bad_value(n, p, p->type, keypath, err);
                len += (size_t)sprintf(text + len, "%s%s=%s", i ? "," : "", k, val->text);
                if (!mpp_namemap_valid(text))
                    return bad_value(val, p, p->type, sub, err);
            }
        }
        text[len] = '\0';
        memset(dst, 0, MPP_STR_MAX);
        memcpy(dst, text, len);
        return 0;
    }
    case MPP_PT_U32LIST:
    case MPP_PT_BOOLLIST: {
        /* a sequence, one value (a list of one), or a flow list in one
         * scalar ("[4, 4]", from the command line or a short form) */
        mpp_u32list l;
        memset(&l, 0, sizeof l);
        if (n->kind == MPP_CFG_SCALAR && n->text[0] == '[')
            return convert_scalar(n, p, p->type, keypath, net_mhz, base, err);
        if (n->kind == MPP_CFG_MAP || mpp_cfgtree_is_null(n))
            return bad_value(n, p, p->type, keypath, err);
        size_t count = n->kind == MPP_CFG_SEQ ? n->n : 1;
        if (count > MPP_U32LIST_MAX)
            return bad_value(n, p, p->type, keypath, err);
        for (size_t i = 0; i < count; i++) {
            const mpp_cfgnode *item = n->kind == MPP_CFG_SEQ ? n->val[i] : n;
            if (p->type == MPP_PT_BOOLLIST) {
                if (item->kind != MPP_CFG_SCALAR ||
                    (strcmp(item->text, "true") != 0 && strcmp(item->text, "false") != 0))
                    return bad_value(item, p, p->type, keypath, err);
                l.v[l.n++] = item->text[0] == 't';
                continue;
            }
            char kp[200];
            if (n->kind == MPP_CFG_SEQ)
                snprintf(kp, sizeof kp, "%s[%zu]", keypath, i);
            else
                snprintf(kp, sizeof kp, "%s", keypath);
            if ((rc = convert_item(item, p, MPP_PT_U32, p->min, p->max, kp, net_mhz, &v, err)))
                return rc;
            l.v[l.n++] = (uint32_t)v;
        }
        memcpy(dst, &l, sizeof l);
        return 0;
    }
    case MPP_PT_SENDLIST: {
        mpp_sendlist *l = calloc(1, sizeof *l);
        if (!l)
            return mpp_err_set(err, MPP_ENOMEM, "out of memory");
        if (n->kind != MPP_CFG_SEQ || n->n > MPP_SENDLIST_MAX) {
            free(l);
            return bad_value(n, p, p->type, keypath, err);
        }
        for (size_t i = 0; i < n->n; i++) {
            const mpp_cfgnode *t = n->val[i];
            char kp[200];
            snprintf(kp, sizeof kp, "%s[%zu]", keypath, i);
            if (t->kind != MPP_CFG_SEQ || t->n != 3) {
                free(l);
                return bad_value(t, p, p->type, kp, err);
            }
            uint64_t a, b, c;
            if ((rc = convert_item(t->val[0], p, MPP_PT_U32, p->min, p->max, kp, net_mhz, &a,
                                   err)) ||
                (rc = convert_item(t->val[1], p, MPP_PT_U32, p->min, p->max, kp, net_mhz, &b,
                                   err)) ||
                (rc = convert_item(t->val[2], p, MPP_PT_BYTES, 0, 1e15, kp, net_mhz, &c, err))) {
                free(l);
                return rc;
            }
            l->v[l->n].src = (uint32_t)a;
            l->v[l->n].dst = (uint32_t)b;
            l->v[l->n].bytes = c;
            l->n++;
        }
        memcpy(dst, l, sizeof *l);
        free(l);
        return 0;
    }
    case MPP_PT_PLUGIN:
        break;
    }
    return mpp_err_set(err, MPP_EINVAL, "key '%s': not a value", keypath);
}
