/* core/cli/cmd_com.c — `mppnet com gen|info|convert|partition`: generate,
 * describe, convert communication-matrix files and make them from a
 * partitioned mesh (traces/com.h, traces/partition.h; docs/cli.md).
 *
 *   mpp_cmd_com --"gen"--------> cmd_gen:       parse flags, generate K
 *        |                                      matrices (step k from seed
 *        |                                      S + k), write
 *        +------"info"---------> cmd_info:      read, one line (or JSON
 *        |                                      object) per matrix on stdout
 *        +------"convert"------> cmd_convert:   read, write (plain <-> .gz)
 *        +------"partition"----> cmd_partition: read a graph or mesh, cut it
 *                                               (METIS or a partition file),
 *                                               write its ghost-exchange COM,
 *                                               print a summary
 *
 * The subcommand is argv[1] of `com`; its arguments are parsed by the
 * shared parser (core/cli/args.h) under the name "com SUB", so every
 * message reads "mppnet: com SUB: ...".
 *
 * Invariants:
 *   1. Every usage error is found before anything is read or written; a
 *      failing command writes no file (mpp_com_write is atomic).
 *   2. stdout carries only results (info); errors go to stderr as one
 *      "mppnet: ..." line (file errors "mppnet: FILE:LINE: ...").
 *   3. Exit status 0 on success, mpp_err_exit_status (2) otherwise.
 */
#include "core/cli/cmd_com.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/base/err.h"
#include "core/base/strbuf.h"
#include "core/cli/args.h"
#include "traces/com.h"
#include "traces/partition.h"

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
    "  convert IN OUT (or IN -o OUT)        rewrite a file (e.g. plain <-> .gz)\n"
    "  partition MESH --parts N [-o COM]    partition a graph or mesh (METIS) into a COM\n"
    "\n"
    "`mppnet com COMMAND --help` shows the options of a command.\n"
    "Exit status: 0 success, 1 METIS failed, 2 bad usage or input\n"
    "(\"mppnet: FILE:LINE: ...\").\n";

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
    "  --n N              processors (rows and columns), 1..1048576\n"
    "  --d D              non-zeros per row and column, 0..N-1\n"
    "  --units U          message size of random-regular, in units (default 1)\n"
    "  --msg-unit B       bytes per unit, a size such as 64 or 2KiB (default 1)\n"
    "  --seed S           random seed (default 1)\n"
    "  --steps K          matrices in the file, with step comments (default 1)\n"
    "  -o, --output FILE  the file to write (also -oFILE, --output=FILE)\n"
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
    "       mppnet com convert IN -o OUT\n"
    "\n"
    "Read every matrix of IN and write them to OUT (gzip when OUT ends in .gz,\n"
    "plain otherwise; written atomically). Entries are written sorted by\n"
    "(row, column); comments other than step comments are dropped.\n"
    "\n"
    "options:\n"
    "  -o, --output OUT   the file to write (instead of the second argument)\n"
    "  -h, --help         show this help\n";

static const char help_partition[] =
    "usage: mppnet com partition MESH --parts N [-o COM] [--part-out FILE] [--part-in FILE]\n"
    "\n"
    "Cut a graph into N parts and build its ghost-exchange communication matrix:\n"
    "COM(i, j) = the number of vertices of part i adjacent to a vertex of part j.\n"
    "\n"
    "  MESH               a METIS graph file (unweighted) or a gmsh 2D mesh (ASCII,\n"
    "                     format 2.2 or 4.1), plain or gzip-compressed\n"
    "  --parts N          the number of parts (processors)\n"
    "  -o, --output COM   write the COM (Matrix Market; gzip when COM ends in .gz)\n"
    "  --part-in FILE     take the partition from FILE (one part number per line,\n"
    "                     the METIS .part format) instead of running METIS\n"
    "  --part-out FILE    write the partition (gzip when FILE ends in .gz)\n"
    "  -h, --help         show this help\n"
    "\n"
    "Without --part-in the graph is cut by METIS k-way (minimum edge cut, METIS's\n"
    "default seed); other METIS versions may cut differently, so traces/data ships\n"
    "its partitions. Prints a summary of the graph, the partition and the COM.\n"
    "Exit status: 0 success, 1 METIS failed, 2 bad usage or input.\n";

/* ---- helpers ------------------------------------------------------------ */

/* Codes of the long-only options (above 127: no short form). */
enum {
    OPT_GEN = 1000, OPT_N, OPT_D, OPT_UNITS, OPT_MSG_UNIT, OPT_SEED, OPT_STEPS,
    OPT_JSON, OPT_PARTS, OPT_PART_IN, OPT_PART_OUT
};

/* 0 when path (the value of option opt of command cmd) may name the
 * file to write; else a usage error, 2: a folder (an existing one, or a
 * name ending in '/') is not a file. Checked before any work. */
static int out_is_file(const char *cmd, const char *opt, const char *path)
{
    struct stat st;
    size_t n = strlen(path);
    if ((n && path[n - 1] == '/') || (stat(path, &st) == 0 && S_ISDIR(st.st_mode)))
        return mpp_args_usage(cmd, "%s must name a file, not a folder ('%s')", opt, path);
    return 0;
}

/* ---- gen ---------------------------------------------------------------- */

static const struct option gen_options[] = {
    {"gen", required_argument, NULL, OPT_GEN},
    {"n", required_argument, NULL, OPT_N},
    {"d", required_argument, NULL, OPT_D},
    {"units", required_argument, NULL, OPT_UNITS},
    {"msg-unit", required_argument, NULL, OPT_MSG_UNIT},
    {"seed", required_argument, NULL, OPT_SEED},
    {"steps", required_argument, NULL, OPT_STEPS},
    {"output", required_argument, NULL, 'o'},
    {NULL, 0, NULL, 0},
};

/* The values of gen's options, by code (NULL: not given); numbers are
 * checked after parsing, when --n is known. */
typedef struct gen_opts {
    const char *gen, *n, *d, *units, *msg_unit, *seed, *steps, *out;
} gen_opts;

static int gen_opt(void *ud, int code, const char *arg)
{
    gen_opts *o = ud;
    switch (code) {
    case OPT_GEN: o->gen = arg; return 0;
    case OPT_N: o->n = arg; return 0;
    case OPT_D: o->d = arg; return 0;
    case OPT_UNITS: o->units = arg; return 0;
    case OPT_MSG_UNIT: o->msg_unit = arg; return 0;
    case OPT_SEED: o->seed = arg; return 0;
    case OPT_STEPS: o->steps = arg; return 0;
    case 'o': o->out = arg; return 0;
    }
    return 2;
}

#define GEN "com gen"

static int cmd_gen(int argc, char **argv)
{
    gen_opts o;
    memset(&o, 0, sizeof o);
    mpp_args rest;
    bool done;
    int st = mpp_args_parse(GEN, argc, argv, gen_options, help_gen, gen_opt, &o, &rest, &done);
    if (!st && !done && rest.n)
        st = mpp_args_usage(GEN, "unexpected argument '%s'", rest.v[0]);
    mpp_args_free(&rest);
    if (st || done)
        return st;
    if (!o.gen)
        return mpp_args_usage(GEN, "missing --gen random-regular|random-nonuniform");
    bool regular = !strcmp(o.gen, "random-regular");
    if (!regular && strcmp(o.gen, "random-nonuniform"))
        return mpp_args_usage(GEN, "unknown generator '%s', valid: random-regular, "
                                   "random-nonuniform",
                              o.gen);
    if (!o.n || !o.d)
        return mpp_args_usage(GEN, "missing %s", !o.n ? "--n N" : "--d D");
    if (!o.out)
        return mpp_args_usage(GEN, "missing the output file (-o FILE)");
    if (out_is_file(GEN, "-o", o.out))
        return 2;
    if (o.units && !regular)
        return mpp_args_usage(GEN, "--units applies to random-regular only (random-nonuniform "
                                   "draws sizes in 1..32 units)");
    uint64_t n, d, units = 1, msg_unit = 1, seed = 1, steps = 1;
    if (mpp_args_u64(GEN, "--n", o.n, 1, MPP_COM_MAX_N, false, &n) ||
        mpp_args_u64(GEN, "--d", o.d, 0, n - 1, false, &d) ||
        (o.units && mpp_args_u64(GEN, "--units", o.units, 1, UINT64_MAX, false, &units)) ||
        (o.msg_unit && mpp_args_u64(GEN, "--msg-unit", o.msg_unit, 1, UINT64_MAX, true,
                                    &msg_unit)) ||
        (o.seed && mpp_args_u64(GEN, "--seed", o.seed, 0, UINT64_MAX, false, &seed)) ||
        (o.steps && mpp_args_u64(GEN, "--steps", o.steps, 1, UINT32_MAX, false, &steps)))
        return 2;

    mpp_err err;
    mpp_err_clear(&err);
    mpp_com_seq seq = {0, NULL};
    seq.m = calloc((size_t)steps, sizeof *seq.m);
    if (!seq.m) {
        mpp_err_set(&err, MPP_ENOMEM, GEN ": out of memory");
        return mpp_args_fail(&err);
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
        rc = mpp_com_write(o.out, &seq, &err);
    mpp_com_seq_free(&seq);
    if (rc) {
        if (err.code != MPP_EIO)
            mpp_err_prefix(&err, GEN);
        return mpp_args_fail(&err);
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

static const struct option info_options[] = {
    {"json", no_argument, NULL, OPT_JSON},
    {NULL, 0, NULL, 0},
};

static int info_opt(void *ud, int code, const char *arg)
{
    *(bool *)ud = true; /* --json, the only option */
    return 0;
}

static int cmd_info(int argc, char **argv)
{
    bool json = false;
    mpp_args rest;
    bool done;
    int st = mpp_args_parse("com info", argc, argv, info_options, help_info, info_opt, &json,
                            &rest, &done);
    const char *path = !st && !done && rest.n ? rest.v[0] : NULL;
    if (!st && !done && rest.n > 1)
        st = mpp_args_usage("com info", "unexpected argument '%s' (one file at a time)",
                            rest.v[1]);
    if (!st && !done && !path)
        st = mpp_args_usage("com info", "missing the file (mppnet com info FILE)");
    mpp_args_free(&rest);
    if (st || done)
        return st;
    mpp_err err;
    mpp_err_clear(&err);
    mpp_com_seq seq;
    if (mpp_com_read(path, &seq, &err))
        return mpp_args_fail(&err);
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
        return mpp_args_fail(&err);
    }
    fputs(sb.s, stdout);
    mpp_sb_free(&sb);
    return 0; /* stdout: checked once for every command in mpp_cli_main */
}

/* ---- convert ------------------------------------------------------------ */

static const struct option out_options[] = {
    {"output", required_argument, NULL, 'o'},
    {NULL, 0, NULL, 0},
};

static int out_opt(void *ud, int code, const char *arg)
{
    *(const char **)ud = arg; /* -o, the only option */
    return 0;
}

static int cmd_convert(int argc, char **argv)
{
    const char *out = NULL;
    mpp_args rest;
    bool done;
    int st = mpp_args_parse("com convert", argc, argv, out_options, help_convert, out_opt, &out,
                            &rest, &done);
    size_t want = out ? 1 : 2; /* IN OUT, or IN with -o OUT */
    const char *in = !st && !done && rest.n ? rest.v[0] : NULL;
    if (!st && !done && rest.n > want)
        st = out && rest.n == 2
                 ? mpp_args_usage("com convert", "two output files ('%s' and -o '%s')",
                                  rest.v[1], out)
                 : mpp_args_usage("com convert", "unexpected argument '%s'", rest.v[want]);
    if (!st && !done && rest.n < want)
        st = mpp_args_usage("com convert", "missing %s (mppnet com convert IN OUT)",
                            out      ? "the input file"
                            : rest.n ? "the output file"
                                     : "the input and output files");
    const char *opt = out ? "-o" : "OUT";
    if (!st && !done && !out)
        out = rest.v[1];
    if (!st && !done)
        st = out_is_file("com convert", opt, out);
    mpp_args_free(&rest);
    if (st || done)
        return st;
    mpp_err err;
    mpp_err_clear(&err);
    mpp_com_seq seq;
    if (mpp_com_read(in, &seq, &err))
        return mpp_args_fail(&err);
    int rc = mpp_com_write(out, &seq, &err);
    mpp_com_seq_free(&seq);
    return rc ? mpp_args_fail(&err) : 0;
}

/* ---- partition ---------------------------------------------------------- */

#define PART "com partition"

static const struct option partition_options[] = {
    {"parts", required_argument, NULL, OPT_PARTS},
    {"output", required_argument, NULL, 'o'},
    {"part-in", required_argument, NULL, OPT_PART_IN},
    {"part-out", required_argument, NULL, OPT_PART_OUT},
    {NULL, 0, NULL, 0},
};

typedef struct partition_opts {
    const char *out, *part_in, *part_out;
    uint64_t nparts;     /* 0: --parts not given */
} partition_opts;

static int partition_opt(void *ud, int code, const char *arg)
{
    partition_opts *o = ud;
    switch (code) {
    case OPT_PARTS: return mpp_args_u64(PART, "--parts", arg, 1, UINT32_MAX, false, &o->nparts);
    case 'o': o->out = arg; return 0;
    case OPT_PART_IN: o->part_in = arg; return 0;
    case OPT_PART_OUT: o->part_out = arg; return 0;
    }
    return 2;
}

/* Print the summary of a partition and its COM on stdout. */
static int partition_print(const char *mesh, const mpp_partition_graph *g, uint32_t nparts,
                           const uint32_t *part, const mpp_com *c, const char *source,
                           mpp_err *err)
{
    mpp_partition_summary s;
    int rc = mpp_partition_summarize(g, nparts, part, c, &s, err);
    if (rc)
        return rc;
    printf("mesh: %s\n", mesh);
    printf("graph: %" PRIu32 " vertices, %" PRIu32 " edges\n", g->n, g->edges);
    printf("partition: %" PRIu32 " parts (%s), %" PRIu32 " .. %" PRIu32 " vertices per part, "
           "edge cut %" PRIu64 "\n",
           nparts, source, s.size_min, s.size_max, s.edge_cut);
    printf("com: %" PRIu32 " x %" PRIu32 ", %" PRIu32 " messages, %" PRIu64 " vertices sent\n",
           c->n, c->n, c->nnz, s.len_sum);
    printf("messages per processor: min %" PRIu32 ", avg %.2f, max %" PRIu32 "\n", s.msgs_min,
           (double)c->nnz / nparts, s.msgs_max);
    printf("message length (vertices): min %" PRIu64 ", avg %.2f, max %" PRIu64 "\n", s.len_min,
           c->nnz ? (double)s.len_sum / c->nnz : 0.0, s.len_max);
    return 0;
}

static int cmd_partition(int argc, char **argv)
{
    partition_opts o;
    memset(&o, 0, sizeof o);
    mpp_args rest;
    bool done;
    int st = mpp_args_parse(PART, argc, argv, partition_options, help_partition, partition_opt,
                            &o, &rest, &done);
    const char *mesh = !st && !done && rest.n ? rest.v[0] : NULL;
    if (!st && !done && rest.n > 1)
        st = mpp_args_usage(PART, "more than one MESH ('%s' and '%s')", rest.v[0], rest.v[1]);
    if (!st && !done && !mesh)
        st = mpp_args_usage(PART, "no MESH given");
    if (!st && !done && !o.nparts)
        st = mpp_args_usage(PART, "--parts N is required");
    if (!st && !done && o.out)
        st = out_is_file(PART, "-o", o.out);
    if (!st && !done && o.part_out)
        st = out_is_file(PART, "--part-out", o.part_out);
    mpp_args_free(&rest);
    if (st || done)
        return st;
    uint32_t nparts = (uint32_t)o.nparts;

    mpp_err err;
    mpp_err_clear(&err);
    mpp_partition_graph g;
    if (mpp_partition_read_graph(mesh, &g, &err))
        return mpp_args_fail(&err);
    mpp_com c;
    memset(&c, 0, sizeof c);
    char source[600];
    int rc = 0;
    uint32_t *part = malloc(((size_t)g.n ? g.n : 1) * sizeof *part);
    if (!part)
        rc = mpp_err_set(&err, MPP_ENOMEM, "out of memory");
    else if (o.part_in)
        rc = mpp_partition_read_parts(o.part_in, g.n, nparts, part, &err);
    else
        rc = mpp_partition_metis(&g, nparts, part, &err);
    if (!rc)
        snprintf(source, sizeof source, o.part_in ? "from %s" : "METIS %s k-way",
                 o.part_in ? o.part_in : mpp_partition_metis_version());
    if (!rc && o.part_out)
        rc = mpp_partition_write_parts(o.part_out, g.n, part, &err);
    if (!rc)
        rc = mpp_partition_com(&g, nparts, part, &c, &err);
    if (!rc && o.out) {
        mpp_com_seq seq = {.count = 1, .m = &c};
        rc = mpp_com_write(o.out, &seq, &err);
    }
    if (!rc)
        rc = partition_print(mesh, &g, nparts, part, &c, source, &err);
    st = rc ? mpp_args_fail(&err) : 0; /* stdout: checked once for every command in mpp_cli_main */
    mpp_com_free(&c);
    free(part);
    mpp_partition_graph_free(&g);
    return st;
}

/* ---- dispatch ----------------------------------------------------------- */

int mpp_cmd_com(int argc, char **argv)
{
    static const mpp_args_sub subs[] = {
        {"gen", cmd_gen},
        {"info", cmd_info},
        {"convert", cmd_convert},
        {"partition", cmd_partition},
    };
    return mpp_args_dispatch("com", mpp_cmd_com_help, subs, sizeof subs / sizeof subs[0], argc, argv);
}
