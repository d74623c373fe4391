/* core/cli/cmd_com.c — `mppnet com gen|info|convert`: generate, describe and
 * convert communication-matrix files (traces/com.h; docs/cli.md).
 *
 *   mpp_cmd_com --"gen"-----> cmd_gen:     parse flags, generate K matrices
 *        |                                 (step k from seed S + k), write
 *        +------"info"------> cmd_info:    read, one line (or JSON object)
 *        |                                 per matrix on stdout
 *        +------"convert"---> cmd_convert: read, write (plain <-> .gz)
 *
 * Invariants:
 *   1. Every usage error is found before anything is read or written; a
 *      failing command writes no file (mpp_com_write is atomic).
 *   2. stdout carries only results (info); errors go to stderr as one
 *      "mppnet: ..." line (file errors "mppnet: FILE:LINE: ...").
 *   3. Exit status 0 on success, mpp_err_exit_status (2) otherwise.
 */
#include "core/cli/cmd_com.h"
#include "traces/partition.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/err.h"
#include "core/base/strbuf.h"
#include "traces/com.h"

const char mpp_cmd_com_help[] =
    "usage: mppnet com gen|info|convert|partition [ARGS]\n"
    "\n"
    "Communication matrices (COM): Matrix Market coordinate files, plain or\n"
    "gzip-compressed (.gz), possibly holding a sequence of matrices (see\n"
    "docs/formats.md).\n"
    "\n"
    "commands:\n"
    "  gen --gen NAME --n N --d D -o FILE   generate random matrices\n"
    "  info FILE [--json]                   sizes, degrees and message lengths\n"
    "  convert IN OUT                       rewrite a file (e.g. plain <-> .gz)\n"
    "  partition MESH --parts N [-o COM]    partition a graph or mesh (METIS) into a COM\n"
    "\n"
    "`mppnet com COMMAND --help` shows the options of a command.\n"
    "Exit status: 0 success, 2 bad usage or input (\"mppnet: FILE:LINE: ...\").\n";

static const char help_gen[] =
    "usage: mppnet com gen --gen random-regular|random-nonuniform --n N --d D\n"
    "                      [--units U] [--msg-unit B] [--seed S] [--steps K] -o FILE\n"
    "\n"
    "Generate K random n x n matrices with exactly D non-zeros in every row and\n"
    "column and a zero diagonal, and write them to FILE (gzip when it ends in\n"
    ".gz; written atomically). Step k of a sequence is seeded with S + k.\n"
    "\n"
    "options:\n"
    "  --gen NAME         random-regular: every message is U units;\n"
    "                     random-nonuniform: sizes uniform in 1..32 units\n"
    "  --n N              processors (rows and columns), 1..4294967295\n"
    "  --d D              non-zeros per row and column, 0..N-1\n"
    "  --units U          message size of random-regular, in units (default 1)\n"
    "  --msg-unit B       bytes per unit (default 1)\n"
    "  --seed S           random seed (default 1)\n"
    "  --steps K          matrices in the file, with step comments (default 1)\n"
    "  -o, --output FILE  the file to write\n"
    "  -h, --help         show this help\n";

static const char help_info[] =
    "usage: mppnet com info FILE [--json]\n"
    "\n"
    "Read a COM file and print, for each matrix, one line of key=value pairs:\n"
    "step, n, nnz, msg_unit, max_degree (the largest row or column count),\n"
    "messages sent per processor (sent_max/min/avg) and received (recv_max/min),\n"
    "message length in units (units_max/min/avg) and in bytes\n"
    "(bytes_max/min/avg), and total_bytes. Lengths are 0 for an empty matrix.\n"
    "\n"
    "options:\n"
    "  --json        print a JSON array with one object per matrix instead\n"
    "  -h, --help    show this help\n";

static const char help_convert[] =
    "usage: mppnet com convert IN OUT\n"
    "\n"
    "Read every matrix of IN and write them to OUT (gzip when OUT ends in .gz,\n"
    "plain otherwise; written atomically). Entries are written sorted by\n"
    "(row, column); comments other than step comments are dropped.\n"
    "\n"
    "options:\n"
    "  -h, --help    show this help\n";

/* ---- helpers ------------------------------------------------------------ */

static int usage(const char *sub, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* "mppnet: com SUB: MSG" and the help pointer; returns 2. */
static int usage(const char *sub, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "mppnet: com%s%s: ", sub ? " " : "", sub ? sub : "");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nsee 'mppnet com%s%s --help'\n", sub ? " " : "", sub ? sub : "");
    return 2;
}

/* Print an error and return its exit status. */
static int fail(const mpp_err *err)
{
    fprintf(stderr, "mppnet: %s\n", err->msg[0] ? err->msg : "unknown error");
    return mpp_err_exit_status(err->code ? err->code : MPP_EINVAL);
}

/* If argv[*i] is option lng (or shrt), set *val to its value (next
 * argument or text after '=') and return 1; 0 for another argument; -1
 * (usage error printed) when the value is missing. */
static int opt_value(int argc, char **argv, int *i, const char *shrt, const char *lng,
                     const char **val, const char *sub)
{
    const char *a = argv[*i];
    size_t n = strlen(lng);
    if (!strcmp(a, lng) || (shrt && !strcmp(a, shrt))) {
        if (*i + 1 >= argc) {
            usage(sub, "option %s needs a value", a);
            return -1;
        }
        *val = argv[++*i];
        return 1;
    }
    if (!strncmp(a, lng, n) && a[n] == '=') {
        *val = a + n + 1;
        return 1;
    }
    return 0;
}

/* A whole unsigned decimal number in [lo, hi]. */
static bool parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    if (!(*s >= '0' && *s <= '9'))
        return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

static bool wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
            return true;
    return false;
}

/* ---- gen ---------------------------------------------------------------- */

static int cmd_gen(int argc, char **argv)
{
    static const char *const keys[] = {"--gen", "--n", "--d", "--units", "--msg-unit",
                                       "--seed", "--steps", "--output"};
    const char *val[8] = {0};
    for (int i = 1; i < argc; i++) {
        int hit = 0;
        for (int k = 0; k < 8 && !hit; k++) {
            const char *v;
            hit = opt_value(argc, argv, &i, k == 7 ? "-o" : NULL, keys[k], &v, "gen");
            if (hit < 0)
                return 2;
            if (hit)
                val[k] = v;
        }
        if (!hit) {
            if (argv[i][0] == '-')
                return usage("gen", "unknown option '%s'", argv[i]);
            return usage("gen", "unexpected argument '%s'", argv[i]);
        }
    }
    if (!val[0])
        return usage("gen", "missing --gen random-regular|random-nonuniform");
    bool regular = !strcmp(val[0], "random-regular");
    if (!regular && strcmp(val[0], "random-nonuniform"))
        return usage("gen", "unknown generator '%s', valid: random-regular, random-nonuniform",
                     val[0]);
    if (!val[1] || !val[2])
        return usage("gen", "missing %s", !val[1] ? "--n N" : "--d D");
    if (!val[7])
        return usage("gen", "missing the output file (-o FILE)");
    if (val[3] && !regular)
        return usage("gen", "--units applies to random-regular only (random-nonuniform draws "
                     "sizes in 1..32 units)");
    uint64_t n, d, units = 1, msg_unit = 1, seed = 1, steps = 1;
    if (!parse_u64(val[1], 1, UINT32_MAX, &n))
        return usage("gen", "--n '%s': expected an integer 1..4294967295", val[1]);
    if (!parse_u64(val[2], 0, n - 1, &d))
        return usage("gen", "--d '%s': expected an integer 0..n-1 = 0..%" PRIu64, val[2], n - 1);
    if (val[3] && !parse_u64(val[3], 1, UINT64_MAX, &units))
        return usage("gen", "--units '%s': expected a positive integer", val[3]);
    if (val[4] && !parse_u64(val[4], 1, UINT64_MAX, &msg_unit))
        return usage("gen", "--msg-unit '%s': expected a positive integer (bytes)", val[4]);
    if (val[5] && !parse_u64(val[5], 0, UINT64_MAX, &seed))
        return usage("gen", "--seed '%s': expected a non-negative integer", val[5]);
    if (val[6] && !parse_u64(val[6], 1, UINT32_MAX, &steps))
        return usage("gen", "--steps '%s': expected an integer 1..4294967295", val[6]);

    mpp_err err;
    mpp_err_clear(&err);
    mpp_com_seq seq = {0, NULL};
    seq.m = calloc((size_t)steps, sizeof *seq.m);
    if (!seq.m) {
        mpp_err_set(&err, MPP_ENOMEM, "com gen: out of memory");
        return fail(&err);
    }
    int rc = 0;
    for (uint64_t k = 0; k < steps && !rc; k++) {
        mpp_com *c = &seq.m[k];
        rc = regular ? mpp_com_gen_regular(c, (uint32_t)n, (uint32_t)d, units, msg_unit, seed + k,
                                           &err)
                     : mpp_com_gen_nonuniform(c, (uint32_t)n, (uint32_t)d, msg_unit, seed + k,
                                              &err);
        if (!rc) {
            c->step = (uint32_t)k;
            seq.count++;
        }
    }
    if (!rc)
        rc = mpp_com_write(val[7], &seq, &err);
    mpp_com_seq_free(&seq);
    if (rc) {
        if (err.code != MPP_EIO)
            mpp_err_prefix(&err, "com gen");
        return fail(&err);
    }
    return 0;
}

/* ---- info --------------------------------------------------------------- */

/* Statistics of one matrix. Byte counts saturate at 2^64 - 1. */
typedef struct com_info {
    uint32_t sent_max, sent_min, recv_max, recv_min, max_degree;
    uint64_t units_max, units_min, bytes_max, bytes_min, total_bytes;
    double sent_avg, units_avg, bytes_avg;
} com_info;

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
    return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

static int info_of(const mpp_com *c, com_info *s)
{
    memset(s, 0, sizeof *s);
    uint32_t *row = calloc(c->n, sizeof *row), *col = calloc(c->n, sizeof *col);
    if (!row || !col) {
        free(row);
        free(col);
        return MPP_ENOMEM;
    }
    mpp_com_degrees(c, row, col);
    s->sent_min = s->recv_min = UINT32_MAX;
    for (uint32_t i = 0; i < c->n; i++) {
        s->sent_max = row[i] > s->sent_max ? row[i] : s->sent_max;
        s->sent_min = row[i] < s->sent_min ? row[i] : s->sent_min;
        s->recv_max = col[i] > s->recv_max ? col[i] : s->recv_max;
        s->recv_min = col[i] < s->recv_min ? col[i] : s->recv_min;
    }
    free(row);
    free(col);
    s->max_degree = s->sent_max > s->recv_max ? s->sent_max : s->recv_max;
    s->sent_avg = (double)c->nnz / c->n;
    double sum = 0;
    uint64_t total = 0;
    s->units_min = c->nnz ? UINT64_MAX : 0;
    for (uint32_t i = 0; i < c->nnz; i++) {
        uint64_t u = c->e[i].units;
        s->units_max = u > s->units_max ? u : s->units_max;
        s->units_min = u < s->units_min ? u : s->units_min;
        sum += (double)u;
        total = total > UINT64_MAX - u ? UINT64_MAX : total + u;
    }
    s->units_avg = c->nnz ? sum / c->nnz : 0.0;
    s->bytes_max = mul_sat(s->units_max, c->msg_unit);
    s->bytes_min = mul_sat(s->units_min, c->msg_unit);
    s->bytes_avg = s->units_avg * (double)c->msg_unit;
    s->total_bytes = mul_sat(total, c->msg_unit);
    return 0;
}

/* Append one matrix: `key=value ...` (text) or a JSON object. */
static void info_line(mpp_sb *sb, const mpp_com *c, const com_info *s, bool json)
{
    const char *sep = json ? ", " : " ", *eq = json ? "\": " : "=", *q = json ? "\"" : "";
    mpp_sb_add(sb, json ? "  {" : "");
    mpp_sb_printf(sb, "%sstep%s%" PRIu32 "%s%sn%s%" PRIu32 "%s%snnz%s%" PRIu32, q, eq, c->step,
                  sep, q, eq, c->n, sep, q, eq, c->nnz);
    mpp_sb_printf(sb, "%s%smsg_unit%s%" PRIu64 "%s%smax_degree%s%" PRIu32, sep, q, eq,
                  c->msg_unit, sep, q, eq, s->max_degree);
    mpp_sb_printf(sb, "%s%ssent_max%s%" PRIu32 "%s%ssent_min%s%" PRIu32 "%s%ssent_avg%s", sep, q,
                  eq, s->sent_max, sep, q, eq, s->sent_min, sep, q, eq);
    mpp_sb_double(sb, s->sent_avg);
    mpp_sb_printf(sb, "%s%srecv_max%s%" PRIu32 "%s%srecv_min%s%" PRIu32, sep, q, eq, s->recv_max,
                  sep, q, eq, s->recv_min);
    mpp_sb_printf(sb, "%s%sunits_max%s%" PRIu64 "%s%sunits_min%s%" PRIu64 "%s%sunits_avg%s", sep,
                  q, eq, s->units_max, sep, q, eq, s->units_min, sep, q, eq);
    mpp_sb_double(sb, s->units_avg);
    mpp_sb_printf(sb, "%s%sbytes_max%s%" PRIu64 "%s%sbytes_min%s%" PRIu64 "%s%sbytes_avg%s", sep,
                  q, eq, s->bytes_max, sep, q, eq, s->bytes_min, sep, q, eq);
    mpp_sb_double(sb, s->bytes_avg);
    mpp_sb_printf(sb, "%s%stotal_bytes%s%" PRIu64, sep, q, eq, s->total_bytes);
    mpp_sb_add(sb, json ? "}" : "\n");
}

static int cmd_info(int argc, char **argv)
{
    const char *path = NULL;
    bool json = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            json = true;
        else if (argv[i][0] == '-' && argv[i][1])
            return usage("info", "unknown option '%s'", argv[i]);
        else if (path)
            return usage("info", "unexpected argument '%s' (one file at a time)", argv[i]);
        else
            path = argv[i];
    }
    if (!path)
        return usage("info", "missing the file (mppnet com info FILE)");
    mpp_err err;
    mpp_err_clear(&err);
    mpp_com_seq seq;
    if (mpp_com_read(path, &seq, &err))
        return fail(&err);
    mpp_sb sb;
    mpp_sb_init(&sb);
    if (json)
        mpp_sb_add(&sb, "[\n");
    int rc = 0;
    for (uint32_t k = 0; k < seq.count && !rc; k++) {
        com_info s;
        rc = info_of(&seq.m[k], &s);
        if (!rc) {
            info_line(&sb, &seq.m[k], &s, json);
            if (json)
                mpp_sb_add(&sb, k + 1 < seq.count ? ",\n" : "\n");
        }
    }
    if (json)
        mpp_sb_add(&sb, "]\n");
    mpp_com_seq_free(&seq);
    if (rc || !mpp_sb_ok(&sb)) {
        mpp_sb_free(&sb);
        mpp_err_set(&err, MPP_ENOMEM, "com info: out of memory");
        return fail(&err);
    }
    fputs(sb.s, stdout);
    mpp_sb_free(&sb);
    return fflush(stdout) ? 2 : 0;
}

/* ---- convert ------------------------------------------------------------ */

static int cmd_convert(int argc, char **argv)
{
    const char *path[2] = {NULL, NULL};
    int np = 0;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1])
            return usage("convert", "unknown option '%s'", argv[i]);
        if (np == 2)
            return usage("convert", "unexpected argument '%s'", argv[i]);
        path[np++] = argv[i];
    }
    if (np < 2)
        return usage("convert", "missing %s (mppnet com convert IN OUT)",
                     np ? "the output file" : "the input and output files");
    mpp_err err;
    mpp_err_clear(&err);
    mpp_com_seq seq;
    if (mpp_com_read(path[0], &seq, &err))
        return fail(&err);
    int rc = mpp_com_write(path[1], &seq, &err);
    mpp_com_seq_free(&seq);
    return rc ? fail(&err) : 0;
}

/* ---- dispatch ----------------------------------------------------------- */

int mpp_cmd_com(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*fn)(int, char **);
        const char *help;
    } subs[] = {
        {"gen", cmd_gen, help_gen},
        {"info", cmd_info, help_info},
        {"convert", cmd_convert, help_convert},
        {"partition", mpp_partition_main, mpp_partition_help},
    };
    if (argc < 2) {
        fputs(mpp_cmd_com_help, stderr);
        return 2;
    }
    for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
        if (!strcmp(argv[1], subs[i].name)) {
            if (wants_help(argc - 1, argv + 1)) {
                fputs(subs[i].help, stdout);
                return 0;
            }
            return subs[i].fn(argc - 1, argv + 1);
        }
    if (wants_help(argc, argv)) {
        fputs(mpp_cmd_com_help, stdout);
        return 0;
    }
    return usage(NULL, "unknown command '%s', valid: gen, info, convert, partition", argv[1]);
}
