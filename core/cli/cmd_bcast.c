/* core/cli/cmd_bcast.c — `mppnet bcast show`: where the sources of an
 * s-to-p broadcast sit on a mesh (algorithms/bcast_dist.h;
 * docs/broadcast.md, "Source distributions"; docs/cli.md).
 *
 *   mpp_cmd_bcast --"show"--> cmd_show: parse flags (getopt_long, args.h)
 *        |                        --bad--> one line on stderr, exit 2
 *        |                    check --mesh, --dist, --ideal, --s, --seed
 *        |                        --bad--> one line on stderr, exit 2
 *        |                    mpp_dist_check of each distribution shown
 *        |                        --bad--> one line on stderr, exit 2
 *        |                    place (mpp_dist_place / mpp_dist_ideal),
 *        |                    compose the whole output, print it, exit 0
 *        +--other------------> "unknown command", exit 2
 *
 * New subcommands of `bcast` go into the table of mpp_cmd_bcast and the
 * help text; their arguments are parsed under the name "bcast SUB", so
 * every message reads "mppnet: bcast SUB: ...".
 *
 * Invariants:
 *   1. Every check is made before memory proportional to the mesh is taken
 *      (the mesh is at most MPP_DIST_MAX_P processors) and before anything
 *      is printed: a failing command prints nothing on stdout.
 *   2. stdout carries only results; each error is one line "mppnet: bcast
 *      show: ..." on stderr (a getopt error — unknown option, missing
 *      value, missing flag — adds the line "see 'mppnet bcast show --help'").
 *   3. Exit status 0 on success, mpp_err_exit_status (2) otherwise.
 */
#include "core/cli/cmd_bcast.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/bcast_dist.h"
#include "core/base/err.h"
#include "core/base/strbuf.h"
#include "core/base/units.h"
#include "core/cli/args.h"

const char mpp_cmd_bcast_help[] =
    "usage: mppnet bcast show [ARGS]\n"
    "\n"
    "s-to-p broadcasting: s source processors send their messages to all p\n"
    "processors of a mesh (docs/broadcast.md).\n"
    "\n"
    "commands:\n"
    "  show --mesh RxC --dist NAME --s S    draw where the s sources sit\n"
    "\n"
    "`mppnet bcast COMMAND --help` shows the options of a command.\n"
    "Exit status: 0 success, 2 bad usage or input.\n";

static const char help_show[] =
    "usage: mppnet bcast show --mesh ROWSxCOLS --dist NAME --s S [--seed N]\n"
    "                         [--ideal br_xy_source|br_lin] [--json]\n"
    "\n"
    "Place s sources on a mesh by a source distribution (docs/broadcast.md)\n"
    "and print one line, mesh=RxC dist=NAME s=S max_r=M max_c=N (the most\n"
    "sources in one row and in one column), then the mesh, one line per row,\n"
    "one cell per processor: S a source, . any other.\n"
    "\n"
    "options:\n"
    "  --mesh RxC        R rows and C columns, at most 1048576 processors\n"
    "  --dist NAME       R, C, DR, DL, E, cross, B_i_j, random, list:ID,ID,...,\n"
    "                    ideal_xy, ideal_lin\n"
    "  --s S             the number of sources, 1 to R*C\n"
    "  --seed N          the seed of `random` (default 1)\n"
    "  --ideal ALG       also show the ideal distribution of s sources for the\n"
    "                    broadcast algorithm ALG, br_xy_source (ideal_xy) or\n"
    "                    br_lin (ideal_lin), after a blank line; without --dist\n"
    "                    only the ideal one is shown\n"
    "  --json            print one JSON object instead:\n"
    "                    {\"rows\":R,\"cols\":C,\"s\":S,\"dist\":NAME,\"sources\":[ids]}\n"
    "                    with \"ideal\":ALG,\"ideal_sources\":[ids] added by --ideal\n"
    "  -h, --help        show this help\n"
    "\n"
    "Processor (x, y) is row x, column y, from 0; its id is x * C + y.\n"
    "Exit status: 0 success, 2 bad usage or input (one line on stderr).\n";

/* ---- show ---------------------------------------------------------------- */

#define SHOW "bcast show"

/* Codes of the long-only options (above 127: no short form). */
enum { OPT_MESH = 1000, OPT_DIST, OPT_S, OPT_SEED, OPT_IDEAL, OPT_JSON };

static const struct option show_options[] = {
    {"mesh", required_argument, NULL, OPT_MESH},
    {"dist", required_argument, NULL, OPT_DIST},
    {"s", required_argument, NULL, OPT_S},
    {"seed", required_argument, NULL, OPT_SEED},
    {"ideal", required_argument, NULL, OPT_IDEAL},
    {"json", no_argument, NULL, OPT_JSON},
    {NULL, 0, NULL, 0},
};

/* The option texts as given (NULL: not given); checked after parsing. */
typedef struct show_opts {
    const char *mesh, *dist, *s, *seed, *ideal;
    bool json;
} show_opts;

static int show_opt(void *ud, int code, const char *arg)
{
    show_opts *o = ud;
    switch (code) {
    case OPT_MESH: o->mesh = arg; return 0;
    case OPT_DIST: o->dist = arg; return 0;
    case OPT_S: o->s = arg; return 0;
    case OPT_SEED: o->seed = arg; return 0;
    case OPT_IDEAL: o->ideal = arg; return 0;
    case OPT_JSON: o->json = true; return 0;
    }
    return 2;
}

/* The broadcast algorithms that have an ideal distribution. */
static const struct {
    const char *alg;
    int kind;
    const char *dist;
} ideals[] = {
    {"br_xy_source", MPP_DIST_IDEAL_XY, "ideal_xy"},
    {"br_lin", MPP_DIST_IDEAL_LIN, "ideal_lin"},
};

/* --mesh ROWSxCOLS into *r, *c (at least 1 each, at most MPP_DIST_MAX_P
 * processors). */
static int parse_mesh(const char *text, uint32_t *r, uint32_t *c, mpp_err *err)
{
    uint64_t a, b;
    size_t x = strcspn(text, "xX");
    if (!text[x] || !mpp_units_u64(text, x, &a) ||
        !mpp_units_u64(text + x + 1, strlen(text + x + 1), &b) || a < 1 || b < 1)
        return mpp_err_set(err, MPP_EINVAL, "--mesh needs ROWSxCOLS such as 10x10, not '%.80s'",
                           text);
    if (a > MPP_DIST_MAX_P || b > MPP_DIST_MAX_P || a * b > MPP_DIST_MAX_P)
        return mpp_err_set(err, MPP_EINVAL, "--mesh %.80s has more than %u processors", text,
                           MPP_DIST_MAX_P);
    *r = (uint32_t)a;
    *c = (uint32_t)b;
    return 0;
}

/* A whole decimal number of an option, at most hi. */
static int parse_num(const char *opt, const char *text, uint64_t hi, uint64_t *out, mpp_err *err)
{
    if (mpp_units_int(text, MPP_UNITS_PLAIN, 0, out) != MPP_UNITS_OK || *out > hi)
        return mpp_err_set(err, MPP_EINVAL, "%s needs a whole number from 0 to %llu, not '%.80s'",
                           opt, (unsigned long long)hi, text);
    return 0;
}

/* The largest count of ids per row (max_r) and per column (max_c); cols:
 * c zeroed counters. */
static void max_counts(uint32_t c, const uint32_t *ids, uint32_t s, uint32_t *cols,
                       uint32_t *max_r, uint32_t *max_c)
{
    *max_r = *max_c = 0;
    uint32_t run = 0;
    for (uint32_t i = 0; i < s; i++) { /* ids ascending: a row's ids are adjacent */
        run = i && ids[i - 1] / c == ids[i] / c ? run + 1 : 1;
        *max_r = run > *max_r ? run : *max_r;
        uint32_t n = ++cols[ids[i] % c];
        *max_c = n > *max_c ? n : *max_c;
    }
}

/* Append the header line and the drawing of one distribution. */
static void show_text(mpp_sb *sb, uint32_t r, uint32_t c, const char *name, const uint32_t *ids,
                      uint32_t s, uint32_t *cols)
{
    uint32_t max_r, max_c;
    memset(cols, 0, (size_t)c * sizeof *cols);
    max_counts(c, ids, s, cols, &max_r, &max_c);
    mpp_sb_printf(sb, "mesh=%" PRIu32 "x%" PRIu32 " dist=%s s=%" PRIu32 " max_r=%" PRIu32
                      " max_c=%" PRIu32 "\n",
                  r, c, name, s, max_r, max_c);
    mpp_dist_draw(r, c, ids, s, sb);
}

static void json_ids(mpp_sb *sb, const uint32_t *ids, uint32_t s)
{
    mpp_sb_addc(sb, '[');
    for (uint32_t i = 0; i < s; i++)
        mpp_sb_printf(sb, i ? ",%" PRIu32 : "%" PRIu32, ids[i]);
    mpp_sb_addc(sb, ']');
}

/* Check every option, place, compose the output in sb. */
static int show_run(const show_opts *o, mpp_sb *sb, mpp_err *err)
{
    uint32_t r = 0, c = 0;
    uint64_t s = 0, seed = 1;
    int rc = parse_mesh(o->mesh, &r, &c, err);
    if (rc)
        return rc;
    mpp_dist d;
    memset(&d, 0, sizeof d);
    int ideal = -1;
    if (o->ideal) {
        for (size_t i = 0; i < sizeof ideals / sizeof ideals[0]; i++)
            if (!strcmp(o->ideal, ideals[i].alg))
                ideal = (int)i;
        if (ideal < 0)
            return mpp_err_set(err, MPP_EINVAL,
                               "unknown --ideal '%.80s', valid: br_xy_source, br_lin", o->ideal);
    }
    if ((rc = parse_num("--s", o->s, UINT32_MAX, &s, err)) ||
        (o->seed && (rc = parse_num("--seed", o->seed, UINT64_MAX, &seed, err))))
        return rc;
    if (o->dist && (rc = mpp_dist_parse(o->dist, &d, err)))
        return rc;
    mpp_dist di = {.kind = ideal >= 0 ? ideals[ideal].kind : 0};
    if ((o->dist && (rc = mpp_dist_check(&d, r, c, (uint32_t)s, err))) ||
        (ideal >= 0 && (rc = mpp_dist_check(&di, r, c, (uint32_t)s, err)))) {
        mpp_dist_free(&d);
        return rc;
    }

    /* invariant 1: s <= r * c <= MPP_DIST_MAX_P from here */
    uint32_t n = (uint32_t)s;
    uint32_t *ids = malloc((size_t)n * sizeof *ids), *iid = malloc((size_t)n * sizeof *iid);
    uint32_t *cols = malloc((size_t)c * sizeof *cols);
    if (!ids || !iid || !cols)
        rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
    if (!rc && o->dist)
        rc = mpp_dist_place(&d, r, c, n, seed, ids, err);
    if (!rc && ideal >= 0)
        rc = mpp_dist_ideal(ideals[ideal].kind, r, c, n, iid, err);
    if (!rc && o->json) {
        mpp_sb_printf(sb, "{\"rows\":%" PRIu32 ",\"cols\":%" PRIu32 ",\"s\":%" PRIu32 ",\"dist\":",
                      r, c, n);
        mpp_sb_json_str(sb, o->dist ? o->dist : ideals[ideal].dist);
        mpp_sb_add(sb, ",\"sources\":");
        json_ids(sb, o->dist ? ids : iid, n);
        if (o->dist && ideal >= 0) {
            mpp_sb_printf(sb, ",\"ideal\":\"%s\",\"ideal_sources\":", ideals[ideal].alg);
            json_ids(sb, iid, n);
        }
        mpp_sb_add(sb, "}\n");
    } else if (!rc) {
        if (o->dist)
            show_text(sb, r, c, o->dist, ids, n, cols);
        if (o->dist && ideal >= 0)
            mpp_sb_addc(sb, '\n');
        if (ideal >= 0)
            show_text(sb, r, c, ideals[ideal].dist, iid, n, cols);
    }
    if (!rc && !mpp_sb_ok(sb))
        rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
    free(ids);
    free(iid);
    free(cols);
    mpp_dist_free(&d);
    return rc;
}

static int cmd_show(int argc, char **argv)
{
    show_opts o;
    memset(&o, 0, sizeof o);
    mpp_args rest;
    bool done;
    int st = mpp_args_parse(SHOW, argc, argv, show_options, help_show, show_opt, &o, &rest,
                            &done);
    if (!st && !done && rest.n)
        st = mpp_args_usage(SHOW, "unexpected argument '%s'", rest.v[0]);
    mpp_args_free(&rest);
    if (st || done)
        return st;
    if (!o.mesh)
        return mpp_args_usage(SHOW, "missing --mesh ROWSxCOLS");
    if (!o.dist && !o.ideal)
        return mpp_args_usage(SHOW, "missing --dist NAME (or --ideal ALG)");
    if (!o.s)
        return mpp_args_usage(SHOW, "missing --s S");

    mpp_err err;
    mpp_err_clear(&err);
    mpp_sb sb;
    mpp_sb_init(&sb);
    if (show_run(&o, &sb, &err)) {
        mpp_sb_free(&sb);
        mpp_err_prefix(&err, SHOW);
        return mpp_args_fail(&err);
    }
    fputs(sb.s, stdout);
    mpp_sb_free(&sb);
    return 0; /* stdout: checked once for every command in mpp_cli_main */
}

/* ---- dispatch ------------------------------------------------------------ */

int mpp_cmd_bcast(int argc, char **argv)
{
    static const mpp_args_sub subs[] = {
        {"show", cmd_show},
    };
    return mpp_args_dispatch("bcast", mpp_cmd_bcast_help, subs, sizeof subs / sizeof subs[0], argc, argv);
}
