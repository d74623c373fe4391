/* test/test_cfgtree.c — the located YAML tree (core/cfgtree.h): structure
 * and locations, parse errors (syntax, duplicate keys, anchors, aliases,
 * tags, several documents, missing file), key-path set/override/remove,
 * copy and emit, and the typed conversion of every mpp_ptype with its
 * range checks and units. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config/cfgtree.h"

static int failures;

#define EXPECT(cond)                                                               \
    do {                                                                           \
        if (!(cond)) {                                                             \
            fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond);    \
            failures++;                                                            \
        }                                                                          \
    } while (0)

/* err's message must contain want. */
#define EXPECT_MSG(err, want)                                                      \
    do {                                                                           \
        if (!strstr((err).msg, (want))) {                                          \
            fprintf(stderr, "%s:%d: message '%s' lacks '%s'\n", __FILE__, __LINE__, \
                    (err).msg, (want));                                            \
            failures++;                                                            \
        }                                                                          \
    } while (0)

static mpp_cfgnode *parse(const char *text, mpp_err *err)
{
    return mpp_cfgtree_parse_text(text, strlen(text), "t.yaml", err);
}

/* Parsing text must fail with a message containing want. */
static void parse_fails(const char *text, const char *want, int line)
{
    mpp_err err;
    mpp_err_clear(&err);
    mpp_cfgnode *n = parse(text, &err);
    if (n || err.code != MPP_EINVAL || !strstr(err.msg, want)) {
        fprintf(stderr, "%s:%d: parse of %s: expected error '%s', got code %d '%s'\n", __FILE__,
                line, text, want, err.code, err.msg);
        failures++;
    }
    mpp_cfgtree_free(n);
}

static void test_structure(void)
{
    mpp_err err;
    const char *text = "mppnet: 1\n"
                       "network:\n"
                       "  topology: mesh\n"
                       "  mesh: {rows: 4, cols: 8}\n"
                       "seeds: [1, 2, 3]\n"
                       "name: \"quoted\"\n"
                       "empty:\n";
    mpp_cfgnode *r = parse(text, &err);
    EXPECT(r);
    if (!r)
        return;
    EXPECT(mpp_cfgtree_kind(r) == MPP_CFG_MAP);
    EXPECT(mpp_cfgtree_len(r) == 5);
    EXPECT(!strcmp(mpp_cfgtree_text(mpp_cfgtree_key(r, 0)), "mppnet"));
    const mpp_cfgnode *rows = mpp_cfgtree_lookup(r, "network.mesh.rows");
    EXPECT(rows && !strcmp(mpp_cfgtree_text(rows), "4"));
    EXPECT(rows && mpp_cfgtree_line(rows) == 4 && mpp_cfgtree_column(rows) == 16);
    char w[128];
    EXPECT(rows && !strcmp(mpp_cfgtree_where(rows, w, sizeof w), "t.yaml:4:16"));
    const mpp_cfgnode *topo = mpp_cfgtree_lookup(r, "network.topology");
    EXPECT(topo && mpp_cfgtree_line(topo) == 3 && mpp_cfgtree_column(topo) == 13);
    const mpp_cfgnode *net = mpp_cfgtree_get(r, "network");
    EXPECT(net && mpp_cfgtree_line(net) == 3 && mpp_cfgtree_column(net) == 3);
    EXPECT(net && mpp_cfgtree_line(mpp_cfgtree_key(net, 1)) == 4);
    const mpp_cfgnode *seeds = mpp_cfgtree_get(r, "seeds");
    EXPECT(seeds && mpp_cfgtree_kind(seeds) == MPP_CFG_SEQ && mpp_cfgtree_len(seeds) == 3);
    EXPECT(seeds && !strcmp(mpp_cfgtree_text(mpp_cfgtree_item(seeds, 2)), "3"));
    EXPECT(seeds && mpp_cfgtree_key(seeds, 0) == NULL);
    EXPECT(seeds && mpp_cfgtree_column(mpp_cfgtree_item(seeds, 1)) == 12);
    const mpp_cfgnode *name = mpp_cfgtree_get(r, "name");
    EXPECT(name && mpp_cfgtree_quoted(name) && !mpp_cfgtree_is_null(name));
    const mpp_cfgnode *empty = mpp_cfgtree_get(r, "empty");
    EXPECT(empty && mpp_cfgtree_is_null(empty) && !strcmp(mpp_cfgtree_text(empty), ""));
    EXPECT(!mpp_cfgtree_get(r, "nope"));
    EXPECT(!mpp_cfgtree_lookup(r, "network.mesh.rows.x"));
    EXPECT(!mpp_cfgtree_lookup(r, "network..mesh"));
    EXPECT(!strcmp(mpp_cfgtree_origin(r), "t.yaml"));

    mpp_sb sb;
    mpp_sb_init(&sb);
    mpp_cfgtree_emit(net, &sb);
    EXPECT(!strcmp(sb.s, "{topology: mesh, mesh: {rows: 4, cols: 8}}"));
    mpp_sb_reset(&sb);
    mpp_cfgtree_emit(name, &sb);
    EXPECT(!strcmp(sb.s, "\"quoted\""));
    mpp_sb_free(&sb);

    mpp_cfgnode *c = mpp_cfgtree_copy(r);
    EXPECT(c);
    mpp_cfgtree_free(r);
    rows = mpp_cfgtree_lookup(c, "network.mesh.rows");
    EXPECT(rows && mpp_cfgtree_line(rows) == 4 && !strcmp(mpp_cfgtree_origin(rows), "t.yaml"));
    mpp_cfgtree_free(c);

    /* Empty documents give a null root. */
    r = parse("", &err);
    EXPECT(r && mpp_cfgtree_is_null(r) && mpp_cfgtree_line(r) == 0);
    mpp_cfgtree_free(r);
    r = parse("# only a comment\n", &err);
    EXPECT(r && mpp_cfgtree_is_null(r));
    mpp_cfgtree_free(r);
    mpp_cfgtree_free(NULL);
}

static void test_errors(void)
{
    parse_fails("a: 1\nb: [1, 2\n", "t.yaml:3:1: did not find expected ',' or ']'", __LINE__);
    parse_fails("a: 1\n  b: 2\n", "t.yaml:2:4: mapping values are not allowed", __LINE__);
    parse_fails("a:\n  b: 1\n  c: 2\n  b: 3\n",
                "t.yaml:4:3: duplicate key 'b' (first given at line 2, column 3)", __LINE__);
    parse_fails("a: &x 1\nb: *x\n", "t.yaml:1:4: anchors and aliases (&x) are not supported",
                __LINE__);
    parse_fails("a: *x\n", "t.yaml:1:4:", __LINE__);
    parse_fails("a: !!str 1\n", "t.yaml:1:4: tags (tag:yaml.org,2002:str) are not supported",
                __LINE__);
    parse_fails("a: 1\n---\nb: 2\n", "t.yaml:2:1: only one YAML document is allowed", __LINE__);
    parse_fails("? [1, 2]\n: 3\n", "t.yaml:1:3: a mapping key must be a plain scalar", __LINE__);
    parse_fails("a: \"unterminated\n", "t.yaml:", __LINE__);
    parse_fails("a: \t- x\n\"", "t.yaml:", __LINE__);
    parse_fails("a: \xff\xfe\n", "t.yaml:1:4: not UTF-8 text: the byte 0xff is not a UTF-8 character", __LINE__);
    parse_fails("a: x\xc3", "t.yaml:1:5: not UTF-8 text: the byte 0xc3 is not a UTF-8 character (the text ends inside it)", __LINE__);
    parse_fails("a: 1\nb: x\x01\n", "t.yaml:2:5: control characters", __LINE__);

    /* Deep nesting is refused, not a stack overflow. */
    char deep[400];
    size_t k = 0;
    for (int i = 0; i < 100; i++)
        deep[k++] = '[';
    for (int i = 0; i < 100; i++)
        deep[k++] = ']';
    deep[k] = '\0';
    parse_fails(deep, "nesting deeper than", __LINE__);

    mpp_err err;
    mpp_cfgnode *n = mpp_cfgtree_parse_file("/nonexistent/dir/x.yaml", &err);
    EXPECT(!n && err.code == MPP_EIO);
    EXPECT_MSG(err, "cannot read /nonexistent/dir/x.yaml: No such file");
}

static void test_file(void)
{
    char path[] = "/tmp/mpp_cfgtree_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        fprintf(stderr, "skipping the file test: mkstemp failed\n");
        return;
    }
    FILE *f = fdopen(fd, "w");
    fputs("x:\n  y: [a, b]\n", f);
    fclose(f);
    mpp_err err;
    mpp_cfgnode *r = mpp_cfgtree_parse_file(path, &err);
    EXPECT(r);
    const mpp_cfgnode *y = r ? mpp_cfgtree_lookup(r, "x.y") : NULL;
    EXPECT(y && mpp_cfgtree_line(y) == 2 && mpp_cfgtree_column(y) == 6);
    EXPECT(y && !strcmp(mpp_cfgtree_origin(y), path));
    mpp_cfgtree_free(r);
    remove(path);
}

static void test_set(void)
{
    mpp_err err;
    mpp_cfgnode *r = parse("network:\n  vcs: 2\n  mesh:\nworkload: {rate: 0.1}\nlist: [1]\n", &err);
    EXPECT(r);
    if (!r)
        return;
    /* Replace a scalar. */
    EXPECT(mpp_cfgtree_override(r, "network.vcs=4", &err) == 0);
    const mpp_cfgnode *v = mpp_cfgtree_lookup(r, "network.vcs");
    EXPECT(v && !strcmp(mpp_cfgtree_text(v), "4"));
    char w[128];
    EXPECT(v && !strcmp(mpp_cfgtree_where(v, w, sizeof w), "command line: network.vcs=4"));
    /* The key keeps its place and file location. */
    EXPECT(mpp_cfgtree_line(mpp_cfgtree_key(mpp_cfgtree_get(r, "network"), 0)) == 2);
    /* A list value. */
    EXPECT(mpp_cfgtree_override(r, "seeds=[1,2,3]", &err) == 0);
    v = mpp_cfgtree_get(r, "seeds");
    EXPECT(v && mpp_cfgtree_kind(v) == MPP_CFG_SEQ && mpp_cfgtree_len(v) == 3);
    /* A map value into a null section; creating nested maps. */
    EXPECT(mpp_cfgtree_override(r, "network.mesh={rows: 4, cols: 4}", &err) == 0);
    v = mpp_cfgtree_lookup(r, "network.mesh.cols");
    EXPECT(v && !strcmp(mpp_cfgtree_text(v), "4"));
    EXPECT(mpp_cfgtree_override(r, "a.b.c=x y", &err) == 0);
    v = mpp_cfgtree_lookup(r, "a.b.c");
    EXPECT(v && !strcmp(mpp_cfgtree_text(v), "x y"));
    const mpp_cfgnode *a = mpp_cfgtree_get(r, "a");
    EXPECT(a && !strcmp(mpp_cfgtree_where(a, w, sizeof w), "command line: a.b.c=x y"));
    EXPECT(mpp_cfgtree_override(r, "q=", &err) == 0);
    EXPECT(mpp_cfgtree_is_null(mpp_cfgtree_get(r, "q")));
    /* A value containing '=' */
    EXPECT(mpp_cfgtree_override(r, "eq=a=b", &err) == 0);
    EXPECT(!strcmp(mpp_cfgtree_text(mpp_cfgtree_get(r, "eq")), "a=b"));

    /* maxparts: the rest of the path is one key. */
    mpp_cfgnode *val = mpp_cfgtree_parse_value("[0.1, 0.2]", "here", &err);
    EXPECT(val && mpp_cfgtree_set(r, "sweep.workload.rate", 2, val, &err) == 0);
    v = mpp_cfgtree_get(mpp_cfgtree_get(r, "sweep"), "workload.rate");
    EXPECT(v && mpp_cfgtree_len(v) == 2);
    EXPECT(mpp_cfgtree_remove(r, "sweep.workload.rate", 2));
    EXPECT(!mpp_cfgtree_remove(r, "sweep.workload.rate", 2));
    EXPECT(mpp_cfgtree_len(mpp_cfgtree_get(r, "sweep")) == 0);
    EXPECT(mpp_cfgtree_remove(r, "network.vcs", 0));
    EXPECT(!mpp_cfgtree_lookup(r, "network.vcs"));
    EXPECT(mpp_cfgtree_lookup(r, "network.mesh.rows"));

    /* Malformed overrides. */
    mpp_err_clear(&err);
    EXPECT(mpp_cfgtree_override(r, "foo", &err) == MPP_EINVAL);
    EXPECT_MSG(err, "command line: foo: expected KEY=VALUE");
    EXPECT(mpp_cfgtree_override(r, "=3", &err) == MPP_EINVAL);
    EXPECT_MSG(err, "command line: =3: empty key path");
    EXPECT(mpp_cfgtree_override(r, "a..b=3", &err) == MPP_EINVAL);
    EXPECT_MSG(err, "command line: a..b=3: empty component in key path 'a..b'");
    EXPECT(mpp_cfgtree_override(r, "a.=3", &err) == MPP_EINVAL);
    EXPECT(mpp_cfgtree_override(r, "x=[1, 2", &err) == MPP_EINVAL);
    EXPECT_MSG(err, "command line: x=[1, 2: ");
    EXPECT(mpp_cfgtree_override(r, "x={a: 1, a: 2}", &err) == MPP_EINVAL);
    EXPECT_MSG(err, "command line: x={a: 1, a: 2}: duplicate key 'a'");
    /* Through a scalar or a list. */
    EXPECT(mpp_cfgtree_override(r, "workload.rate.x=1", &err) == MPP_EINVAL);
    EXPECT_MSG(err, "command line: workload.rate.x=1: cannot set 'workload.rate.x': "
                    "'workload.rate' is a value, not a mapping");
    EXPECT(mpp_cfgtree_override(r, "list.x=1", &err) == MPP_EINVAL);
    EXPECT_MSG(err, "'list' is a list, not a mapping");
    mpp_cfgtree_free(r);

    /* A null root becomes a map; a list root cannot take keys. */
    r = parse("", &err);
    EXPECT(r && mpp_cfgtree_override(r, "mppnet=1", &err) == 0);
    EXPECT(r && mpp_cfgtree_kind(r) == MPP_CFG_MAP && mpp_cfgtree_len(r) == 1);
    mpp_cfgtree_free(r);
    r = parse("[1]", &err);
    EXPECT(r && mpp_cfgtree_override(r, "a=1", &err) == MPP_EINVAL);
    EXPECT_MSG(err, "the document is not a mapping");
    mpp_cfgtree_free(r);

    /* new_* */
    mpp_cfgnode *m = mpp_cfgtree_new_map(NULL);
    EXPECT(m && mpp_cfgtree_set(m, "k", 1, mpp_cfgtree_new_scalar("v", NULL), &err) == 0);
    EXPECT(m && !strcmp(mpp_cfgtree_text(mpp_cfgtree_get(m, "k")), "v"));
    mpp_cfgtree_free(m);
}

/* ------------------------------------------------------------ conversion */

typedef struct conv {
    uint32_t u32;
    uint64_t u64;
    double d;
    bool b;
    int e;
    uint64_t bytes;
    uint64_t cycles;
    mpp_u32list list;
    char map[MPP_STR_MAX];
} conv;

static const char *const colours[] = {"red", "green", "blue", NULL};

static const mpp_param rows[] = {
    {"u32", MPP_PT_U32, offsetof(conv, u32), "1", 1, 64, NULL, ""},
    {"u64", MPP_PT_U64, offsetof(conv, u64), "0", 0, 0, NULL, ""},
    {"d", MPP_PT_DOUBLE, offsetof(conv, d), "0.5", 0, 1, NULL, ""},
    {"b", MPP_PT_BOOL, offsetof(conv, b), "false", 0, 0, NULL, ""},
    {"e", MPP_PT_ENUM, offsetof(conv, e), "red", 0, 0, colours, ""},
    {"bytes", MPP_PT_BYTES, offsetof(conv, bytes), "16", 1, 0, NULL, ""},
    {"cycles", MPP_PT_CYCLES, offsetof(conv, cycles), "10", 1, 0, NULL, ""},
    {"list", MPP_PT_U32LIST, offsetof(conv, list), "[1]", 1, 100, NULL, ""},
    {"u32any", MPP_PT_U32, offsetof(conv, u32), "0", 0, 0, NULL, ""},
    {"dneg", MPP_PT_DOUBLE, offsetof(conv, d), "0", -10, 10, NULL, ""},
    {"map", MPP_PT_NAMEMAP, offsetof(conv, map), "{}", 0, 0, NULL, ""},
};

static const mpp_param *row(const char *key)
{
    for (size_t i = 0; i < MPP_COUNTOF(rows); i++)
        if (!strcmp(rows[i].key, key))
            return &rows[i];
    return NULL;
}

/* Convert YAML text for row key; returns the code, message in *err. */
static int conv_text(const char *key, const char *text, double mhz, conv *out, mpp_err *err)
{
    mpp_cfgnode *n = mpp_cfgtree_parse_value(text, "v", err);
    if (!n)
        return -100;
    char kp[64];
    snprintf(kp, sizeof kp, "s.%s", key);
    int rc = mpp_cfgtree_convert(n, row(key), kp, mhz, out, err);
    mpp_cfgtree_free(n);
    return rc;
}

#define CONV_OK(key, text, mhz, field, want)                                               \
    do {                                                                                   \
        conv c_;                                                                           \
        memset(&c_, 0, sizeof c_);                                                         \
        mpp_err e_;                                                                        \
        mpp_err_clear(&e_);                                                                \
        int rc_ = conv_text(key, text, mhz, &c_, &e_);                                     \
        if (rc_ != 0 || c_.field != (want)) {                                              \
            fprintf(stderr, "%s:%d: %s=%s: rc %d '%s'\n", __FILE__, __LINE__, key, text, rc_, \
                    e_.msg);                                                               \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

#define CONV_BAD(key, text, mhz, want)                                                     \
    do {                                                                                   \
        conv c_;                                                                           \
        memset(&c_, 0, sizeof c_);                                                         \
        mpp_err e_;                                                                        \
        mpp_err_clear(&e_);                                                                \
        int rc_ = conv_text(key, text, mhz, &c_, &e_);                                     \
        if (rc_ != MPP_EINVAL || !strstr(e_.msg, want)) {                                  \
            fprintf(stderr, "%s:%d: %s=%s: expected error '%s', got %d '%s'\n", __FILE__,  \
                    __LINE__, key, text, want, rc_, e_.msg);                               \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

static void test_convert(void)
{
    CONV_OK("u32", "1", 0, u32, 1u);
    CONV_OK("u32", "64", 0, u32, 64u);
    CONV_OK("u32", "\"7\"", 0, u32, 7u);
    CONV_BAD("u32", "0", 0, "v: key 's.u32': expected an integer between 1 and 64, got '0'");
    CONV_BAD("u32", "65", 0, "got '65'");
    CONV_BAD("u32", "-3", 0, "got '-3'");
    CONV_BAD("u32", "1.5", 0, "got '1.5'");
    CONV_BAD("u32", "abc", 0, "got 'abc'");
    CONV_BAD("u32", "0x10", 0, "got '0x10'");
    CONV_BAD("u32", "", 0, "got an empty value");
    CONV_BAD("u32", "[1]", 0, "got a list");
    CONV_BAD("u32", "{a: 1}", 0, "got a mapping");
    CONV_OK("u32any", "4294967295", 0, u32, 4294967295u);
    CONV_BAD("u32any", "4294967296", 0, "expected an integer between 0 and 4294967295");
    CONV_OK("u64", "18446744073709551615", 0, u64, UINT64_MAX);
    CONV_BAD("u64", "18446744073709551616", 0, "expected an integer between 0 and 2^64 - 1, got");
    CONV_OK("d", "0.25", 0, d, 0.25);
    CONV_OK("d", "1", 0, d, 1.0);
    CONV_OK("d", "1e-3", 0, d, 1e-3);
    CONV_BAD("d", "1.5", 0, "expected a number between 0 and 1, got '1.5'");
    CONV_BAD("d", "-0.1", 0, "got '-0.1'");
    CONV_BAD("d", "nan", 0, "got 'nan'");
    CONV_BAD("d", ".inf", 0, "got '.inf'");
    CONV_BAD("d", "0.5x", 0, "got '0.5x'");
    CONV_OK("dneg", "-2.5", 0, d, -2.5);
    CONV_OK("b", "true", 0, b, true);
    CONV_OK("b", "false", 0, b, false);
    CONV_BAD("b", "yes", 0, "expected true or false, got 'yes'");
    CONV_BAD("b", "1", 0, "expected true or false");
    CONV_OK("e", "blue", 0, e, 2);
    CONV_BAD("e", "Blue", 0, "expected one of red, green, blue, got 'Blue'");
    CONV_OK("bytes", "100", 0, bytes, 100u);
    CONV_OK("bytes", "2KiB", 0, bytes, 2048u);
    CONV_OK("bytes", "2 KiB", 0, bytes, 2048u);
    CONV_OK("bytes", "1.5KB", 0, bytes, 1500u);
    CONV_OK("bytes", "3MiB", 0, bytes, 3u << 20);
    CONV_OK("bytes", "1GB", 0, bytes, 1000000000u);
    CONV_OK("bytes", "1GiB", 0, bytes, 1u << 30);
    CONV_OK("bytes", "16B", 0, bytes, 16u);
    CONV_BAD("bytes", "0", 0, "expected a size in bytes of at least 1");
    CONV_BAD("bytes", "0KiB", 0, "got '0KiB'");
    CONV_BAD("bytes", "-1KiB", 0, "got '-1KiB'");
    CONV_BAD("bytes", "2kb", 0, "got '2kb'");
    CONV_BAD("bytes", "1.5B", 0, "got '1.5B'");
    CONV_BAD("bytes", "KiB", 0, "got 'KiB'");
    CONV_OK("cycles", "1000", 0, cycles, 1000u);
    CONV_OK("cycles", "1.5us", 100, cycles, 150u);
    CONV_OK("cycles", "1.5 us", 100, cycles, 150u);
    CONV_OK("cycles", "20ns", 50, cycles, 1u);
    CONV_OK("cycles", "2ms", 40, cycles, 80000u);
    CONV_OK("cycles", "1s", 1, cycles, 1000000u);
    CONV_BAD("cycles", "1.5us", 0, "v: key 's.cycles': a time ('1.5us') needs the network clock");
    CONV_BAD("cycles", "1.5", 100, "expected a number of cycles of at least 1");
    CONV_BAD("cycles", "0", 0, "got '0'");
    CONV_BAD("cycles", "1ns", 100, "got '1ns'"); /* rounds to 0 cycles < min 1 */
    CONV_BAD("cycles", "3 days", 100, "got '3 days'");

    conv c;
    mpp_err err;
    memset(&c, 0, sizeof c);
    EXPECT(conv_text("list", "[1, 2, 3]", 0, &c, &err) == 0);
    EXPECT(c.list.n == 3 && c.list.v[0] == 1 && c.list.v[2] == 3);
    EXPECT(conv_text("list", "7", 0, &c, &err) == 0);
    EXPECT(c.list.n == 1 && c.list.v[0] == 7);
    EXPECT(conv_text("list", "[]", 0, &c, &err) == 0 && c.list.n == 0);
    CONV_BAD("list", "[1, 0]", 0,
             "key 's.list[1]': expected an integer between 1 and 100, got '0'");
    CONV_BAD("list", "[1, [2]]", 0, "key 's.list[1]'");
    CONV_BAD("list", "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17]", 0,
             "expected a list of at most 16 integers");
    CONV_BAD("list", "{a: 1}", 0, "got a mapping");

    /* Every default of the table converts. */
    for (size_t i = 0; i < MPP_COUNTOF(rows); i++) {
        memset(&c, 0, sizeof c);
        EXPECT(conv_text(rows[i].key, rows[i].def, 0, &c, &err) == 0);
    }

    /* A failed conversion stores nothing. */
    memset(&c, 0, sizeof c);
    c.u32 = 9;
    EXPECT(conv_text("u32", "0", 0, &c, &err) == MPP_EINVAL && c.u32 == 9);

    /* Locations of file nodes appear in conversion errors. */
    mpp_cfgnode *r = parse("s:\n  u32: 99\n", &err);
    const mpp_cfgnode *v = r ? mpp_cfgtree_lookup(r, "s.u32") : NULL;
    EXPECT(v && mpp_cfgtree_convert(v, row("u32"), "s.u32", 0, &c, &err) == MPP_EINVAL);
    EXPECT_MSG(err, "t.yaml:2:8: key 's.u32': expected an integer between 1 and 64, got '99'");
    mpp_cfgtree_free(r);
}

/* A message longer than mpp_err holds is cut visibly ("..."), on a whole
 * UTF-8 character, with or without a prefix. */
static void test_err_cut(void)
{
    char text[1200] = "";
    for (int k = 0; k < 500; k++)
        strcat(text, "\xc3\xa9"); /* é */
    mpp_err err;
    mpp_err_set(&err, MPP_EINVAL, "%s", text);
    size_t n = strlen(err.msg);
    EXPECT(n < sizeof err.msg && n > 400);
    EXPECT(!strcmp(err.msg + n - 3, "..."));
    EXPECT(((unsigned char)err.msg[n - 4] & 0xc0) == 0x80 && (unsigned char)err.msg[n - 5] == 0xc3);
    mpp_err_prefix(&err, "%s", "file.yaml");
    n = strlen(err.msg);
    EXPECT(!strncmp(err.msg, "file.yaml: ", 11) && !strcmp(err.msg + n - 3, "..."));
    mpp_err_set(&err, MPP_EINVAL, "short");
    EXPECT(!strcmp(err.msg, "short"));
}

/* MPP_PT_NAMEMAP: a mapping of names, or its text; stored as K=V,... in
 * the order written; what is not one refused with the key path. */
static void test_namemap(void)
{
    static const struct {
        const char *yaml, *want;
    } ok[] = {{"{bcast: linear, alltoall: direct}", "bcast=linear,alltoall=direct"},
              {"{}", ""},
              {"", ""},
              {"bcast=binomial", "bcast=binomial"},
              {"{a.b: x-1+2_y}", "a.b=x-1+2_y"}};
    for (size_t i = 0; i < MPP_COUNTOF(ok); i++) {
        conv c;
        memset(&c, 0x55, sizeof c);
        mpp_err e;
        mpp_err_clear(&e);
        int rc = conv_text("map", ok[i].yaml, 0, &c, &e);
        EXPECT(rc == 0 && !strcmp(c.map, ok[i].want));
    }
    CONV_BAD("map", "{bcast: [linear]}", 0, "key 's.map.bcast': expected a mapping of names");
    CONV_BAD("map", "{bcast: a b}", 0, "key 's.map.bcast'");
    CONV_BAD("map", "{bcast: }", 0, "key 's.map.bcast'");
    CONV_BAD("map", "[bcast]", 0, "key 's.map'");
    CONV_BAD("map", "bcast", 0, "got 'bcast'");
    CONV_BAD("map", "a=b,a=c", 0, "got 'a=b,a=c'");
    CONV_BAD("map", "a=b,", 0, "got 'a=b,'");
    /* the walk gives the pairs back */
    const char *pos = "bcast=linear,alltoall=direct";
    char k[MPP_NAMEMAP_NAME_MAX + 1], v[MPP_NAMEMAP_NAME_MAX + 1];
    EXPECT(mpp_namemap_next(&pos, k, v) == 1 && !strcmp(k, "bcast") && !strcmp(v, "linear"));
    EXPECT(mpp_namemap_next(&pos, k, v) == 1 && !strcmp(k, "alltoall") && !strcmp(v, "direct"));
    EXPECT(mpp_namemap_next(&pos, k, v) == 0);
    /* a name of 64 characters is one too long */
    char longer[80];
    memset(longer, 'x', 64);
    strcpy(longer + 64, "=y");
    EXPECT(!mpp_namemap_valid(longer));
    longer[63] = '=';
    longer[64] = 'y';
    longer[65] = '\0';
    EXPECT(mpp_namemap_valid(longer));
}

int main(void)
{
    test_err_cut();
    test_namemap();
    test_structure();
    test_errors();
    test_file();
    test_set();
    test_convert();
    if (failures)
        fprintf(stderr, "test_cfgtree: %d failure(s)\n", failures);
    return failures ? 1 : 0;
}
