/* test/test_com.c — communication matrices: files (traces/comio.c) and
 * generators (traces/gen.c).
 *
 * Round trips through plain and gzip files, single matrices and sequences;
 * the Matrix Market variants that are accepted (pattern, any case, blank
 * lines, blocks started by a step comment); the generators' exact row and
 * column counts, zero diagonal and determinism; and malformed, truncated and
 * corrupt-gzip files, each of which must fail with MPP_EFORMAT (or MPP_EIO),
 * a message naming the file and the line at fault, and nothing read. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "traces/com.h"
#include "test/testutil.h"

static char dir[256];

/* dir/name into buf. */
static const char *tpath(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", dir, name);
    return buf;
}

static void write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
    fclose(f);
}

/* Whole file into a malloc'd buffer. */
static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return b;
}

static void write_gz(const char *path, const char *text)
{
    gzFile g = gzopen(path, "wb6");
    if (!g || gzwrite(g, text, (unsigned)strlen(text)) != (int)strlen(text)) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
    gzclose(g);
}

static bool seq_equal(const mpp_com_seq *a, const mpp_com_seq *b)
{
    if (a->count != b->count)
        return false;
    for (uint32_t k = 0; k < a->count; k++)
        if (!mpp_com_equal(&a->m[k], &b->m[k]) || a->m[k].step != b->m[k].step)
            return false;
    return true;
}

/* No temporary files left in dir. */
static bool no_tmp_files(void)
{
    DIR *d = opendir(dir);
    bool ok = true;
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strstr(e->d_name, ".tmp"))
            ok = false;
    if (d)
        closedir(d);
    return ok;
}

/* ---- round trips -------------------------------------------------------- */

static void small_com(mpp_com *c, uint32_t n, uint64_t msg_unit, uint32_t salt)
{
    mpp_err err;
    CHECK(mpp_com_init(c, n, msg_unit, &err) == 0);
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++)
            if (i != j && (i * 7 + j * 3 + salt) % 4 == 0)
                CHECK(mpp_com_add(c, i, j, 1 + (i * 31 + j + salt) % 1000, &err) == 0);
    CHECK(mpp_com_add(c, 0, n - 1, UINT64_MAX - 5, &err) == 0);
    mpp_com_finish(c);
    CHECK(mpp_com_check(c));
}

static void round_trip(const char *name, const mpp_com_seq *s)
{
    char p[512];
    mpp_err err;
    mpp_com_seq back;
    tpath(p, sizeof p, name);
    CHECKF(mpp_com_write(p, s, &err) == 0, "%s: %s", name, err.msg);
    int rc = mpp_com_read(p, &back, &err);
    CHECKF(rc == 0, "%s: %s", name, err.msg);
    if (!rc) {
        CHECKF(seq_equal(s, &back), "%s: read back differs", name);
        mpp_com_seq_free(&back);
    }
    size_t len = 0;
    unsigned char *b = slurp(p, &len);
    CHECK(b != NULL);
    bool gz = strstr(name, ".gz") != NULL;
    if (b && gz)
        CHECKF(len > 2 && b[0] == 0x1f && b[1] == 0x8b, "%s: not gzip", name);
    if (b && !gz)
        CHECKF(len > 48 && !memcmp(b, "%%MatrixMarket matrix coordinate integer general\n", 49),
               "%s: no header", name);
    free(b);
    CHECK(no_tmp_files());
}

static void test_round_trips(void)
{
    mpp_com_seq one = {1, calloc(1, sizeof(mpp_com))};
    small_com(&one.m[0], 9, 1, 0);
    round_trip("one.mtx", &one);
    round_trip("one.mtx.gz", &one);
    one.m[0].step = 7;
    one.m[0].msg_unit = 64;
    round_trip("one_step.mtx", &one);
    round_trip("one_step.mtx.gz", &one);
    mpp_com_seq_free(&one);

    mpp_com_seq three = {3, calloc(3, sizeof(mpp_com))};
    for (uint32_t k = 0; k < 3; k++) {
        small_com(&three.m[k], 5 + k, 1 + 3 * k, k);
        three.m[k].step = k * 2;
    }
    round_trip("three.mtx", &three);
    round_trip("three.mtx.gz", &three);
    /* An empty matrix inside a sequence. */
    mpp_com_free(&three.m[1]);
    mpp_err err;
    CHECK(mpp_com_init(&three.m[1], 4, 1, &err) == 0);
    three.m[1].step = 2;
    round_trip("three_empty.mtx", &three);
    round_trip("three_empty.mtx.gz", &three);

    /* Convert-like rewrite: plain and gz files hold the same text. */
    char p[512], q[512];
    CHECK(mpp_com_write(tpath(p, sizeof p, "same.mtx"), &three, &err) == 0);
    CHECK(mpp_com_write(tpath(q, sizeof q, "same.mtx.gz"), &three, &err) == 0);
    size_t lp = 0, lq = 0;
    unsigned char *bp = slurp(p, &lp), *bq = slurp(q, &lq);
    gzFile g = gzopen(q, "rb");
    char *text = malloc(lp + 16);
    int got = g && text ? gzread(g, text, (unsigned)lp + 16) : -1;
    CHECK(got == (int)lp && bp && !memcmp(text, bp, lp));
    if (g)
        gzclose(g);
    free(text);
    free(bp);
    free(bq);
    /* Writing the same sequence twice gives the same bytes (no time stamp). */
    CHECK(mpp_com_write(tpath(p, sizeof p, "same2.mtx.gz"), &three, &err) == 0);
    bp = slurp(p, &lp);
    bq = slurp(q, &lq);
    CHECK(bp && bq && lp == lq && !memcmp(bp, bq, lp));
    free(bp);
    free(bq);
    mpp_com_seq_free(&three);

    /* A large matrix: lines cross the reader's chunk boundaries. */
    mpp_com_seq big = {1, calloc(1, sizeof(mpp_com))};
    CHECK(mpp_com_gen_nonuniform(&big.m[0], 600, 40, 8, 3, &err) == 0);
    round_trip("big.mtx", &big);
    round_trip("big.mtx.gz", &big);
    mpp_com_seq_free(&big);

    /* Write errors: nothing to write, a missing directory. */
    mpp_com_seq none = {0, NULL};
    CHECK(mpp_com_write(tpath(p, sizeof p, "none.mtx"), &none, &err) == MPP_EINVAL);
    mpp_com_seq s1 = {1, calloc(1, sizeof(mpp_com))};
    small_com(&s1.m[0], 4, 1, 0);
    CHECK(mpp_com_write(tpath(p, sizeof p, "nodir/x.mtx"), &s1, &err) == MPP_EIO);
    CHECK(strstr(err.msg, "nodir/x.mtx") != NULL);
    mpp_com_seq_free(&s1);
    CHECK(no_tmp_files());
}

/* ---- accepted variants -------------------------------------------------- */

static void test_variants(void)
{
    char p[512];
    mpp_err err;
    mpp_com_seq s;
    /* pattern field, any case, blank lines, CRLF, plain comments. */
    const char *pat = "%%matrixmarket MATRIX Coordinate PATTERN General\r\n"
                      "% a comment\n"
                      "\n"
                      "3 3 2\n"
                      "  1   2\n"
                      "\n"
                      "3\t1\n";
    write_file(tpath(p, sizeof p, "pattern.mtx"), pat, strlen(pat));
    int rc = mpp_com_read(p, &s, &err);
    CHECKF(rc == 0, "%s", err.msg);
    if (!rc) {
        CHECK(s.count == 1 && s.m[0].n == 3 && s.m[0].nnz == 2 && s.m[0].msg_unit == 1);
        CHECK(s.m[0].e[0].src == 0 && s.m[0].e[0].dst == 1 && s.m[0].e[0].units == 1);
        CHECK(s.m[0].e[1].src == 2 && s.m[0].e[1].dst == 0 && s.m[0].e[1].units == 1);
        mpp_com_seq_free(&s);
    }
    /* Blocks: headers without step comments (steps default to the index),
     * a block started by a step comment (keeps the integer field), a step
     * comment before the first header, explicit zeros dropped. */
    const char *seq = "% step=4 msg_unit=16\n"
                      "%%MatrixMarket matrix coordinate integer general\n"
                      "2 2 2\n"
                      "1 2 5\n"
                      "2 1 0\n"
                      "%%MatrixMarket matrix coordinate integer general\n"
                      "3 3 1\n"
                      "3 2 9\n"
                      "% msg_unit=2\n"
                      "2 2 0\n"
                      "% step=9\n"
                      "4 4 1\n"
                      "4 1 18446744073709551615\n";
    write_file(tpath(p, sizeof p, "blocks.mtx"), seq, strlen(seq));
    rc = mpp_com_read(p, &s, &err);
    CHECKF(rc == 0, "%s", err.msg);
    if (!rc) {
        CHECK(s.count == 4);
        CHECK(s.m[0].step == 4 && s.m[0].msg_unit == 16 && s.m[0].nnz == 1);
        CHECK(s.m[1].step == 1 && s.m[1].msg_unit == 1 && s.m[1].n == 3);
        CHECK(s.m[1].e[0].src == 2 && s.m[1].e[0].dst == 1 && s.m[1].e[0].units == 9);
        CHECK(s.m[2].step == 2 && s.m[2].msg_unit == 2 && s.m[2].nnz == 0);
        CHECK(s.m[3].step == 9 && s.m[3].e[0].units == UINT64_MAX);
        mpp_com_seq_free(&s);
    }
    /* The same through gzip. */
    write_gz(tpath(p, sizeof p, "blocks.gz"), seq);
    rc = mpp_com_read(p, &s, &err);
    CHECKF(rc == 0 && s.count == 4, "%s", err.msg);
    if (!rc)
        mpp_com_seq_free(&s);
    /* A last line without its newline. */
    const char *nonl = "%%MatrixMarket matrix coordinate integer general\n2 2 1\n2 1 3";
    write_file(tpath(p, sizeof p, "nonl.mtx"), nonl, strlen(nonl));
    rc = mpp_com_read(p, &s, &err);
    CHECKF(rc == 0 && s.count == 1 && s.m[0].e[0].units == 3, "%s", err.msg);
    if (!rc)
        mpp_com_seq_free(&s);
}

/* ---- generators --------------------------------------------------------- */

static bool regular_ok(const mpp_com *c, uint32_t n, uint32_t d)
{
    if (c->n != n || c->nnz != n * d || !mpp_com_check(c))
        return false;
    uint32_t *row = calloc(n, sizeof *row), *col = calloc(n, sizeof *col);
    mpp_com_degrees(c, row, col);
    bool ok = true;
    for (uint32_t i = 0; i < n; i++)
        if (row[i] != d || col[i] != d)
            ok = false;
    for (uint32_t i = 0; i < c->nnz; i++)
        if (c->e[i].src == c->e[i].dst)
            ok = false;
    free(row);
    free(col);
    return ok && (n == 0 || mpp_com_max_degree(c) == d);
}

static void test_generators(void)
{
    mpp_err err;
    for (uint32_t n = 1; n <= 64; n++) {
        const uint32_t ds[] = {0, 1, 2, 3, n / 3, n / 2, n - 2, n - 1};
        for (size_t k = 0; k < sizeof ds / sizeof ds[0]; k++) {
            uint32_t d = ds[k];
            if (d >= n)
                continue;
            mpp_com a, b, u;
            CHECK(mpp_com_gen_regular(&a, n, d, 3, 8, 42 + n, &err) == 0);
            CHECKF(regular_ok(&a, n, d), "regular n=%u d=%u", n, d);
            CHECK(a.msg_unit == 8);
            for (uint32_t i = 0; i < a.nnz; i++)
                CHECK(a.e[i].units == 3);
            /* Determinism: same (n, d, seed), same matrix. */
            CHECK(mpp_com_gen_regular(&b, n, d, 3, 8, 42 + n, &err) == 0);
            CHECKF(mpp_com_equal(&a, &b), "regular not deterministic n=%u d=%u", n, d);
            /* Non-uniform: same pattern, sizes in 1..32. */
            CHECK(mpp_com_gen_nonuniform(&u, n, d, 8, 42 + n, &err) == 0);
            CHECKF(regular_ok(&u, n, d), "nonuniform n=%u d=%u", n, d);
            bool same = u.nnz == a.nnz;
            for (uint32_t i = 0; same && i < u.nnz; i++) {
                same = u.e[i].src == a.e[i].src && u.e[i].dst == a.e[i].dst;
                CHECK(u.e[i].units >= 1 && u.e[i].units <= 32);
            }
            CHECKF(same, "nonuniform pattern differs from regular n=%u d=%u", n, d);
            mpp_com_free(&a);
            mpp_com_free(&b);
            mpp_com_free(&u);
        }
    }
    /* Different seeds give different matrices; sizes cover 1..32. */
    mpp_com a, b;
    CHECK(mpp_com_gen_regular(&a, 32, 4, 1, 1, 1, &err) == 0);
    CHECK(mpp_com_gen_regular(&b, 32, 4, 1, 1, 2, &err) == 0);
    CHECK(!mpp_com_equal(&a, &b));
    /* Mixed: not the circulant any more (row 0 is not 1..4). */
    CHECK(!(a.e[0].dst == 1 && a.e[1].dst == 2 && a.e[2].dst == 3 && a.e[3].dst == 4));
    mpp_com_free(&a);
    mpp_com_free(&b);
    CHECK(mpp_com_gen_nonuniform(&a, 64, 16, 1, 5, &err) == 0);
    bool seen[33] = {false};
    for (uint32_t i = 0; i < a.nnz; i++)
        seen[a.e[i].units] = true;
    for (int v = 1; v <= 32; v++)
        CHECKF(seen[v], "size %d never drawn", v);
    mpp_com_free(&a);
    /* Bad arguments. */
    CHECK(mpp_com_gen_regular(&a, 8, 8, 1, 1, 1, &err) == MPP_EINVAL);
    CHECK(strstr(err.msg, "0..7") != NULL);
    CHECK(mpp_com_gen_regular(&a, 0, 0, 1, 1, 1, &err) == MPP_EINVAL);
    CHECK(mpp_com_gen_regular(&a, 8, 2, 0, 1, 1, &err) == MPP_EINVAL);
    CHECK(mpp_com_gen_nonuniform(&a, 4, 9, 1, 1, &err) == MPP_EINVAL);
    mpp_com_free(&a);
}

/* ---- bad files ---------------------------------------------------------- */

#define H "%%MatrixMarket matrix coordinate integer general\n"

typedef struct bad_case {
    const char *name;
    const char *text;
    int line;          /* expected line */
    const char *what;  /* expected in the message */
} bad_case;

static const bad_case bad_cases[] = {
    {"empty", "", 1, "empty file, expected '%%MatrixMarket matrix coordinate"},
    {"no_header", "3 3 1\n1 2 1\n", 1, "missing header"},
    {"comment_only", "% hello\n\n", 2, "no Matrix Market header"},
    {"bad_banner", "%%MatrixMarkets matrix coordinate integer general\n", 1, "bad header"},
    {"header_words", "%%MatrixMarket matrix coordinate integer\n3 3 0\n", 1, "5"},
    {"object", "%%MatrixMarket vector coordinate integer general\n", 1, "object 'vector'"},
    {"array", "%%MatrixMarket matrix array integer general\n", 1, "format 'array'"},
    {"real", "%%MatrixMarket matrix coordinate real general\n", 1, "field 'real'"},
    {"complex", "%%MatrixMarket matrix coordinate complex general\n", 1, "field 'complex'"},
    {"symmetric", "%%MatrixMarket matrix coordinate integer symmetric\n", 1, "symmetry"},
    {"no_size", H "% only a comment\n", 2, "before the size line"},
    {"size_fields", H "3 3\n", 2, "size line"},
    {"size_text", H "3 3 x\n", 2, "nnz 'x'"},
    {"size_negative", H "-3 -3 1\n", 2, "rows '-3'"},
    {"non_square", H "% c\n3 4 1\n", 3, "square"},
    {"size_zero", H "0 0 0\n", 2, "at least 1"},
    {"nnz_too_big", H "2 2 3\n", 2, "off-diagonal"},
    {"second_header", H H, 2, "second header"},
    {"too_few", H "3 3 1\n1 2\n", 3, "too few fields"},
    {"too_many", H "3 3 1\n1 2 3 4\n", 3, "too many fields"},
    {"not_integer", H "3 3 2\n1 2 1\n2 3 1.5\n", 4, "'1.5' is not an integer"},
    {"negative", H "3 3 1\n1 2 -7\n", 3, "negative value"},
    {"zero_index", H "3 3 1\n0 2 1\n", 3, "index 0"},
    {"index_big", H "3 3 1\n1 4 1\n", 3, "larger than n = 3"},
    {"index_huge", H "3 3 1\n99999999999999999999999 1 1\n", 3, "larger than n"},
    {"index_text", H "3 3 1\na 1 1\n", 3, "row index 'a'"},
    {"diagonal", H "3 3 2\n1 2 1\n2 2 1\n", 4, "diagonal entry (2, 2)"},
    {"duplicate", H "3 3 3\n1 2 1\n2 3 1\n1 2 4\n", 5, "first given on line 3"},
    {"truncated", H "3 3 3\n1 2 1\n2 3 1\n", 4, "2 of the 3 entries"},
    {"extra", H "3 3 1\n1 2 1\n2 3 1\n", 4, "more entries than the 1"},
    {"overflow", H "3 3 1\n1 2 18446744073709551616\n", 3, "overflows 64 bits"},
    {"pattern_value", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2 1\n", 3,
     "too many fields"},
    {"bad_step", H "% step=x\n2 2 0\n", 2, "step='x'"},
    {"step_key", H "% step=1 foo=2\n2 2 0\n", 2, "unknown key 'foo'"},
    {"msg_unit_zero", H "% msg_unit=0\n2 2 0\n", 2, "msg_unit='0'"},
    {"two_steps", H "% step=1\n% step=2\n2 2 0\n", 3, "second step comment"},
    {"seq_short", H "% step=0\n3 3 2\n1 2 1\n% step=1\n3 3 0\n", 5, "1 of the 2 entries"},
    {"seq_header_short", H "3 3 2\n1 2 1\n" H "3 3 0\n", 4, "a new header"},
    {"seq_second_bad", H "% step=0\n3 3 1\n1 2 1\n% step=1\n3 3 1\n3 3 1\n", 7,
     "diagonal entry (3, 3)"},
    {"seq_trailing", H "3 3 0\n% step=1\n", 3, "before the size line"},
    {"nul_byte", H "3 3 1\n1 2\0 1\n", 3, "NUL byte"},
};

/* Read path; demand code, "PATH:LINE:" and `what` in the message, and an
 * empty sequence. */
static void expect_bad(const char *name, const char *path, int code, int line, const char *what)
{
    mpp_err err;
    mpp_com_seq s = {99, (mpp_com *)&s};
    mpp_err_clear(&err);
    int rc = mpp_com_read(path, &s, &err);
    CHECKF(rc == code, "%s: code %d, expected %d (%s)", name, rc, code, err.msg);
    CHECKF(err.code == code, "%s: err.code %d", name, err.code);
    char want[600];
    if (line > 0)
        snprintf(want, sizeof want, "%s:%d: ", path, line);
    else
        snprintf(want, sizeof want, "%s", path);
    CHECKF(strstr(err.msg, want) != NULL, "%s: message '%s' lacks '%s'", name, err.msg, want);
    CHECKF(strstr(err.msg, what) != NULL, "%s: message '%s' lacks '%s'", name, err.msg, what);
    CHECKF(s.count == 0 && s.m == NULL, "%s: sequence not empty after a failure", name);
}

static void test_bad_files(void)
{
    char p[512];
    size_t n = sizeof bad_cases / sizeof bad_cases[0];
    for (size_t i = 0; i < n; i++) {
        const bad_case *b = &bad_cases[i];
        size_t len = strlen(b->text);
        if (!strcmp(b->name, "nul_byte"))
            len = strlen(b->text) + 1 + strlen(b->text + strlen(b->text) + 1);
        char name[64];
        snprintf(name, sizeof name, "bad_%s.mtx", b->name);
        write_file(tpath(p, sizeof p, name), b->text, len);
        expect_bad(b->name, p, MPP_EFORMAT, b->line, b->what);
        /* The same text gzip-compressed: the same line. */
        if (len == strlen(b->text) && len > 0) {
            snprintf(name, sizeof name, "bad_%s.mtx.gz", b->name);
            write_gz(tpath(p, sizeof p, name), b->text);
            expect_bad(b->name, p, MPP_EFORMAT, b->line, b->what);
        }
    }

    /* A line of 4096 characters is fine, 4097 is not. */
    char *longline = malloc(8200);
    if (!longline) {
        CHECK(longline != NULL);
        return;
    }
    strcpy(longline, H "% ");
    size_t base = strlen(longline);
    memset(longline + base, 'x', 4094);
    strcpy(longline + base + 4094, "\n2 2 0\n");
    write_file(tpath(p, sizeof p, "line4096.mtx"), longline, strlen(longline));
    mpp_err err;
    mpp_com_seq s;
    CHECKF(mpp_com_read(p, &s, &err) == 0, "%s", err.msg);
    mpp_com_seq_free(&s);
    memset(longline + base, 'x', 4095);
    strcpy(longline + base + 4095, "\n2 2 0\n");
    write_file(tpath(p, sizeof p, "line4097.mtx"), longline, strlen(longline));
    expect_bad("long_line", p, MPP_EFORMAT, 2, "longer than 4096");
    free(longline);

    /* Unreadable: missing file, a directory. */
    expect_bad("missing", tpath(p, sizeof p, "nosuch.mtx"), MPP_EIO, 0, "cannot read");
    expect_bad("directory", dir, MPP_EIO, 0, "cannot read");

    /* Corrupt and truncated gzip data, small and large. */
    mpp_com_seq big = {1, calloc(1, sizeof(mpp_com))};
    CHECK(mpp_com_gen_nonuniform(&big.m[0], 300, 30, 1, 9, &err) == 0);
    const char *sizes[] = {"small", "large"};
    for (int k = 0; k < 2; k++) {
        char gz[512], name[64];
        snprintf(name, sizeof name, "%s.mtx.gz", sizes[k]);
        tpath(gz, sizeof gz, name);
        if (k == 0) {
            write_gz(gz, H "% step=0\n4 4 3\n1 2 3\n2 3 4\n3 4 5\n");
        } else {
            CHECK(mpp_com_write(gz, &big, &err) == 0);
        }
        size_t len = 0;
        unsigned char *b = slurp(gz, &len);
        CHECK(b && len > 40);
        if (!b)
            continue;
        /* Truncated in the middle, and just before the trailer. */
        snprintf(name, sizeof name, "%s_cut.mtx.gz", sizes[k]);
        write_file(tpath(p, sizeof p, name), b, len / 2);
        expect_bad(name, p, MPP_EFORMAT, k == 0 ? 1 : -1, "truncated gzip");
        snprintf(name, sizeof name, "%s_cut4.mtx.gz", sizes[k]);
        write_file(tpath(p, sizeof p, name), b, len - 4);
        expect_bad(name, p, MPP_EFORMAT, -1, "truncated gzip"); /* found after the text */
        /* A flipped byte in the CRC: corrupt. */
        b[len - 6] ^= 0x55;
        snprintf(name, sizeof name, "%s_crc.mtx.gz", sizes[k]);
        write_file(tpath(p, sizeof p, name), b, len);
        expect_bad(name, p, MPP_EFORMAT, k == 0 ? 1 : -1, "corrupt gzip");
        b[len - 6] ^= 0x55;
        /* Bytes after the gzip stream: an error, not ignored; a second
         * member is read (gzip -c a b > c). */
        unsigned char *t = malloc(2 * len + 8);
        CHECK(t != NULL);
        if (t) {
            memcpy(t, b, len);
            memcpy(t + len, "garbage\n", 8);
            snprintf(name, sizeof name, "%s_trail.mtx.gz", sizes[k]);
            write_file(tpath(p, sizeof p, name), t, len + 8);
            expect_bad(name, p, MPP_EFORMAT, -1, "data after the end of the gzip stream");
            memcpy(t + len, b, len);
            snprintf(name, sizeof name, "%s_two.mtx.gz", sizes[k]);
            write_file(tpath(p, sizeof p, name), t, 2 * len);
            mpp_com_seq two;
            CHECKF(mpp_com_read(p, &two, &err) == 0 && two.count == 2, "%s: %s", name, err.msg);
            if (two.count)
                mpp_com_seq_free(&two);
            free(t);
        }
        /* Garbage in the deflate data. */
        for (size_t i = 12; i < 30; i++)
            b[i] ^= 0xa5;
        snprintf(name, sizeof name, "%s_data.mtx.gz", sizes[k]);
        write_file(tpath(p, sizeof p, name), b, len);
        expect_bad(name, p, MPP_EFORMAT, -1, "gzip");
        /* Only the gzip header. */
        snprintf(name, sizeof name, "%s_hdr.mtx.gz", sizes[k]);
        write_file(tpath(p, sizeof p, name), b, 10);
        expect_bad(name, p, MPP_EFORMAT, 1, "gzip");
        free(b);
    }
    mpp_com_seq_free(&big);
}

int main(void)
{
    const char *t = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/mppnet-test-com.XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_round_trips();
    test_variants();
    test_generators();
    test_bad_files();
    if (!test_failures) {
        test_rmdtemp(dir);
    } else {
        fprintf(stderr, "files kept in %s\n", dir);
    }
    TEST_DONE();
}
