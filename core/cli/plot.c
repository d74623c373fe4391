/* core/cli/plot.c — `mppnet plot`: read a results.csv, pick columns, group rows
 * into curves, write a gnuplot script and its data file, run gnuplot.
 *
 * Pipeline (library part, no printing):
 *
 *   CSV text --mpp_plot_table_parse--> table (header + rows of text cells)
 *   table + options --mpp_plot_create--> plot:
 *       1. resolve --where, keep the matching rows;
 *       2. resolve --x (default: last axis if numeric, else offered), --y,
 *          --by; check x and y are numeric over the kept rows;
 *       3. curve of a row = its --by values; point of a row = its axis and
 *          --by values (plus x when x is an identity column) when seeds are
 *          averaged, else the row alone; curves and points are numbered in
 *          order of first appearance;
 *       4. one curve per (curve group, y column) with at least one point,
 *          points = means of x and y over the group's rows that have both,
 *          sorted by x when x is a sweep axis (or run, seed), else in run
 *          order, so that e.g. latency against accepted follows the rate
 *          sweep and bends back past saturation.
 *   plot --mpp_plot_data / mpp_plot_script--> text in mpp_sb buffers.
 *
 * mpp_plot_main (the command) parses its arguments with the shared parser
 * (core/cli/args.h), writes OUT.dat and OUT.gp atomically, then
 * runs gnuplot in OUT's directory, drawing to .OUT.tmp and renaming it to
 * OUT when gnuplot succeeded, as core/cli/cli.c does for latency.png.
 *
 * Invariants:
 *   1. Every user mistake is found before any file is written: a failing
 *      `plot` leaves nothing behind.
 *   2. The files are a pure function of (CSV text, options): fixed order
 *      (first appearance, then x), doubles through mpp_sb_double.
 *   3. A curve has at least one point; a plot has at least one curve.
 */
#include "core/cli/plot.h"

#include "core/base/file.h"
#include "core/base/units.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/cli/args.h"
#include "core/cli/output.h"

#define RATE_AXIS "workload.rate"   /* the axis result columns vary along */
#define SAT_COLUMN "saturated"
#define DEFAULT_Y "latency_mean"
#define FALLBACK_X "offered"
#define UNKNOWN_COLUMN "unknown column"
#define KEY_SEP '\x1f'              /* joins cells into a grouping key */
#define MAX_VALUES_SHOWN 300        /* bytes of distinct values in a message */

struct mpp_plot_table {
    size_t ncols, nrows;  /* nrows excludes the header */
    size_t naxes;         /* sweep axes: columns 1..naxes (run .. seed) */
    size_t nident;        /* identity columns run..config_hash: 0..nident-1 */
    char *text;           /* every cell, NUL-terminated, back to back */
    char **cell;          /* [(nrows + 1) * ncols]; row 0 is the header */
};

/* One point: means over the rows of a point group. */
typedef struct plot_pt {
    double x, y;
    size_t n;       /* rows averaged */
    size_t first;   /* first row of the group (tie-break of the x order) */
    bool sat;       /* one of the rows is saturated */
} plot_pt;

typedef struct plot_curve {
    char *label;    /* the data file's: "by=value, ..." */
    char *key;      /* the key's: the values alone (the key's title names them) */
    plot_pt *pts;
    size_t npts;
    bool any_sat;
} plot_curve;

struct mpp_plot {
    char *xname;      /* the x column */
    char *yfile;      /* y columns joined by '+' (file name) */
    char *title, *xlabel, *ylabel;
    char *keytitle;   /* the --by columns joined by ", "; NULL without */
    bool logx, logy, any_sat;
    bool xcat;        /* x is categorical: points at 0..ncat-1 */
    char **cat;       /* [ncat] the x values, in order of first appearance */
    size_t ncat;
    plot_curve *curve;
    size_t ncurves;
};

const char mpp_plot_help[] =
    "usage: mppnet plot RESULTS.csv [--x COL] [--y COL[,COL...]] [--by COL[,COL...]]\n"
    "                   [--where COL=VALUE ...] [--no-mean-seeds] [--[no-]logx]\n"
    "                   [--[no-]logy]\n"
    "                   [--title TEXT] [--xlabel TEXT] [--ylabel TEXT] [-o OUT.png]\n"
    "                   [--script-only]\n"
    "\n"
    "Plot columns of a results.csv written by `mppnet run`: one curve per\n"
    "distinct combination of the --by columns, points in x order (in run order\n"
    "when x is a result column such as accepted), saturated points circled, the\n"
    "key below the plot, each curve its own colour, dash and marker.\n"
    "Writes OUT.png through gnuplot, with its script OUT.gp and data OUT.dat\n"
    "beside it (`gnuplot OUT.gp` in that directory draws it again), and prints\n"
    "the picture's path.\n"
    "\n"
    "options:\n"
    "  --x COL              x column, numeric or text (text values become the\n"
    "                       tics, in order of first appearance); default: the\n"
    "                       last sweep axis if it is numeric, else offered with\n"
    "                       a workload.rate axis, else the axis with the most\n"
    "                       values\n"
    "  --y COL[,COL...]     y column(s) (default: latency_mean)\n"
    "  --by COL[,COL...]    one curve per distinct combination of these columns\n"
    "                       (default: every sweep axis but --x, and but\n"
    "                       workload.rate when --x is not an axis, e.g. offered;\n"
    "                       '' for one curve)\n"
    "  --where COL=VALUE    keep only the rows whose COL is VALUE (numbers compare\n"
    "                       by value); repeatable: every column named must match\n"
    "                       one of the values given for it\n"
    "  --mean-seeds         average rows that differ only in seed (default)\n"
    "  --no-mean-seeds      one point per row (per seed)\n"
    "  --logx, --logy       logarithmic x / y axis (default: logarithmic when the\n"
    "                       values are positive and span more than two decades;\n"
    "                       for x only a numeric sweep axis)\n"
    "  --no-logx, --no-logy linear x / y axis\n"
    "  --title TEXT         title (default: 'Y vs X')\n"
    "  --xlabel TEXT        x axis label (default: the x column)\n"
    "  --ylabel TEXT        y axis label (default: the y columns)\n"
    "  -o, --output OUT.png the picture (default: plot-Y-vs-X.png in the\n"
    "                       directory of RESULTS.csv)\n"
    "  --script-only        write OUT.gp and OUT.dat, do not run gnuplot\n"
    "  -h, --help           show this help\n"
    "\n"
    "Without gnuplot on PATH, OUT.gp and OUT.dat are written and a note is\n"
    "printed (exit 0). Exit status: 0 success, 1 gnuplot failed, 2 bad usage or\n"
    "input (nothing written).\n";

/* ---- small helpers ------------------------------------------------------ */

/* A copy of sb's text, or NULL when building it or copying failed. */
static char *sb_take(mpp_sb *sb)
{
    char *p = mpp_sb_ok(sb) ? strdup(sb->s) : NULL;
    mpp_sb_free(sb);
    return p;
}

/* A growable array of size_t; `failed` records an allocation failure. */
typedef struct size_vec {
    size_t *v;
    size_t n, cap;
    bool failed;
} size_vec;

static void vec_push(size_vec *s, size_t x)
{
    if (s->failed)
        return;
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        size_t *p = realloc(s->v, cap * sizeof *p);
        if (!p) {
            s->failed = true;
            return;
        }
        s->v = p;
        s->cap = cap;
    }
    s->v[s->n++] = x;
}

/* Parse a plain decimal number (digits, sign, point, exponent; no inf,
 * nan or hex). False for anything else, including "". */
static bool parse_num(const char *s, double *v)
{
    if (!*s)
        return false;
    for (const char *p = s; *p; p++)
        if (!strchr("0123456789+-.eE", *p))
            return false;
    return mpp_units_double(s, v);
}

/* Equal cells: the same text, or two numbers of the same value. */
static bool same_value(const char *a, const char *b)
{
    double x, y;
    return !strcmp(a, b) || (parse_num(a, &x) && parse_num(b, &y) && x == y);
}

/* ---- the table ------------------------------------------------------------ */

static const char *head(const mpp_plot_table *t, size_t c) { return t->cell[c]; }

static const char *cell(const mpp_plot_table *t, size_t r, size_t c)
{
    return t->cell[(r + 1) * t->ncols + c];
}

size_t mpp_plot_table_rows(const mpp_plot_table *t) { return t->nrows; }
size_t mpp_plot_table_cols(const mpp_plot_table *t) { return t->ncols; }

void mpp_plot_table_free(mpp_plot_table *t)
{
    if (!t)
        return;
    free(t->text);
    free(t->cell);
    free(t);
}

/* Column named name, or t->ncols. */
static size_t column(const mpp_plot_table *t, const char *name)
{
    for (size_t c = 0; c < t->ncols; c++)
        if (!strcmp(head(t, c), name))
            return c;
    return t->ncols;
}

/* Find where the axes and identity columns are: run, axes..., seed,
 * config_hash. Without a seed column after run there are no axes. */
static void locate_axes(mpp_plot_table *t)
{
    size_t run = column(t, "run"), seed = t->ncols;
    for (size_t c = run + 1; c < t->ncols; c++)
        if (!strcmp(head(t, c), "seed")) {
            seed = c;
            break;
        }
    t->naxes = 0;
    t->nident = run + 1;
    if (seed < t->ncols) {
        t->naxes = run == 0 ? seed - 1 : 0;
        t->nident = seed + 1;
        if (seed + 1 < t->ncols && !strcmp(head(t, seed + 1), "config_hash"))
            t->nident = seed + 2;
    }
}

int mpp_plot_table_parse(const char *text, size_t len, const char *name, mpp_plot_table **out,
                         mpp_err *err)
{
    *out = NULL;
    mpp_sb f;          /* cells, each followed by its NUL */
    size_vec offs = {0};
    mpp_sb_init(&f);
    mpp_plot_table *t = NULL;
    size_t ncols = 0, nrecords = 0, line = 1, i = 0;
    int rc = 0;
    if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
        i = 3; /* a UTF-8 byte order mark */
    while (i < len) {
        size_t rec_line = line, nf = 0;
        if (text[i] == '\n' || text[i] == '\r') { /* blank line */
            i += text[i] == '\r' && i + 1 < len && text[i + 1] == '\n' ? 2 : 1;
            line++;
            continue;
        }
        for (;;) {
            vec_push(&offs, f.len);
            nf++;
            if (i < len && text[i] == '"') {
                i++;
                for (;;) {
                    if (i >= len) {
                        rc = mpp_err_set(err, MPP_EFORMAT, "%s:%zu: unterminated quoted field",
                                         name, rec_line);
                        goto fail;
                    }
                    if (text[i] == '"') {
                        if (i + 1 < len && text[i + 1] == '"') {
                            mpp_sb_addc(&f, '"');
                            i += 2;
                            continue;
                        }
                        i++;
                        break;
                    }
                    if (text[i] == '\n')
                        line++;
                    mpp_sb_addc(&f, text[i++]);
                }
                if (i < len && text[i] != ',' && text[i] != '\n' && text[i] != '\r') {
                    rc = mpp_err_set(err, MPP_EFORMAT,
                                     "%s:%zu: text after the closing quote of a field", name,
                                     line);
                    goto fail;
                }
            } else {
                size_t s = i;
                while (i < len && text[i] != ',' && text[i] != '\n' && text[i] != '\r')
                    i++;
                mpp_sb_addn(&f, text + s, i - s);
            }
            mpp_sb_addc(&f, '\0');
            if (i < len && text[i] == ',') {
                i++;
                continue;
            }
            break;
        }
        if (i < len && text[i] == '\r')
            i++;
        if (i < len && text[i] == '\n')
            i++;
        line++;
        if (nrecords == 0) {
            ncols = nf;
            bool has_run = false;
            for (size_t k = 0; k < nf && mpp_sb_ok(&f) && !offs.failed; k++)
                has_run = has_run || !strcmp(f.s + offs.v[k], "run");
            if (!has_run && mpp_sb_ok(&f) && !offs.failed) {
                rc = mpp_err_set(err, MPP_EFORMAT,
                                 "%s: not a results.csv (its header has no 'run' column)", name);
                goto fail;
            }
        } else if (nf != ncols) {
            rc = mpp_err_set(err, MPP_EFORMAT, "%s:%zu: %zu fields, but the header has %zu",
                             name, rec_line, nf, ncols);
            goto fail;
        }
        nrecords++;
    }
    if (!mpp_sb_ok(&f) || offs.failed)
        goto nomem;
    if (nrecords == 0) {
        rc = mpp_err_set(err, MPP_EFORMAT, "%s: empty file, not a results.csv", name);
        goto fail;
    }
    t = calloc(1, sizeof *t);
    if (!t)
        goto nomem;
    t->ncols = ncols;
    t->nrows = nrecords - 1;
    t->text = malloc(f.len + 1);
    t->cell = malloc(offs.n * sizeof *t->cell);
    if (!t->text || !t->cell)
        goto nomem;
    memcpy(t->text, f.s, f.len + 1);
    for (size_t k = 0; k < offs.n; k++)
        t->cell[k] = t->text + offs.v[k];
    locate_axes(t);
    mpp_sb_free(&f);
    free(offs.v);
    *out = t;
    return 0;
nomem:
    rc = mpp_err_set(err, MPP_ENOMEM, "%s: out of memory reading the table", name);
fail:
    mpp_plot_table_free(t);
    mpp_sb_free(&f);
    free(offs.v);
    return rc;
}

int mpp_plot_table_read(const char *path, mpp_plot_table **out, mpp_err *err)
{
    *out = NULL;
    char *text;
    size_t len;
    int rc = mpp_file_read(path, MPP_PLOT_MAX_BYTES, &text, &len, err);
    if (!rc)
        rc = mpp_plot_table_parse(text, len, path, out, err);
    free(text);
    return rc;
}

/* ---- resolving the options ------------------------------------------------ */

void mpp_plot_options_init(mpp_plot_options *o)
{
    memset(o, 0, sizeof *o);
    o->mean_seeds = true;
    o->logx = o->logy = -1;
}

/* Column `name` (given to option opt) into *col, or an "unknown column"
 * error (mpp_plot_main adds the list of valid names). */
static int find_column(const mpp_plot_table *t, const char *name, const char *opt, size_t *col,
                       mpp_err *err)
{
    *col = column(t, name);
    if (*col == t->ncols)
        return mpp_err_set(err, MPP_EINVAL, UNKNOWN_COLUMN " '%s' (%s)", name, opt);
    return 0;
}

/* Resolve the comma-separated column list `list` of option opt into
 * cols (appended). An empty list is no columns. */
static int find_columns(const mpp_plot_table *t, const char *list, const char *opt,
                        size_vec *cols, mpp_err *err)
{
    if (!*list)
        return 0;
    for (const char *p = list;;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        if (n == 0)
            return mpp_err_set(err, MPP_EINVAL, "%s: empty column name in '%s'", opt, list);
        char name[512];
        if (n >= sizeof name)
            return mpp_err_set(err, MPP_EINVAL, "%s: column name too long", opt);
        memcpy(name, p, n);
        name[n] = '\0';
        size_t c;
        int rc = find_column(t, name, opt, &c, err);
        if (rc)
            return rc;
        vec_push(cols, c);
        if (!comma)
            return 0;
        p = comma + 1;
    }
}

/* Append up to MAX_VALUES_SHOWN bytes of the distinct values of column c
 * ("a, b, c"), in order of first appearance. */
static void distinct_values(const mpp_plot_table *t, size_t c, mpp_sb *sb)
{
    size_t shown = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        const char *v = cell(t, r, c);
        size_t q = 0;
        while (q < r && strcmp(cell(t, q, c), v))
            q++;
        if (q < r)
            continue;
        if (sb->len > MAX_VALUES_SHOWN) {
            mpp_sb_add(sb, ", ...");
            return;
        }
        mpp_sb_printf(sb, "%s'%s'", shown++ ? ", " : "", v);
    }
}

/* Apply the --where filters: keep[r] for the rows that pass. Errors for a
 * malformed filter and for filters that leave no row. */
static int apply_where(const mpp_plot_table *t, const mpp_plot_options *o, bool *keep,
                       mpp_err *err)
{
    size_t *wcol = NULL;
    const char **wval = NULL;
    int rc = 0;
    for (size_t r = 0; r < t->nrows; r++)
        keep[r] = true;
    if (o->nwhere == 0)
        return 0;
    wcol = calloc(o->nwhere, sizeof *wcol);
    wval = calloc(o->nwhere, sizeof *wval);
    if (!wcol || !wval) {
        rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t w = 0; w < o->nwhere; w++) {
        const char *eq = strchr(o->where[w], '=');
        if (!eq || eq == o->where[w]) {
            rc = mpp_err_set(err, MPP_EINVAL, "--where expects COL=VALUE, not '%s'",
                             o->where[w]);
            goto out;
        }
        char name[512];
        size_t n = (size_t)(eq - o->where[w]);
        if (n >= sizeof name) {
            rc = mpp_err_set(err, MPP_EINVAL, "--where: column name too long");
            goto out;
        }
        memcpy(name, o->where[w], n);
        name[n] = '\0';
        rc = find_column(t, name, "--where", &wcol[w], err);
        if (rc)
            goto out;
        wval[w] = eq + 1;
    }
    /* A filter alone that matches nothing is named with the values the
     * column has. */
    for (size_t w = 0; w < o->nwhere; w++) {
        size_t r = 0;
        while (r < t->nrows && !same_value(cell(t, r, wcol[w]), wval[w]))
            r++;
        if (r == t->nrows) {
            mpp_sb v;
            mpp_sb_init(&v);
            distinct_values(t, wcol[w], &v);
            rc = mpp_err_set(err, MPP_EINVAL, "--where %s matches no row (%s has %s)",
                             o->where[w], head(t, wcol[w]),
                             !mpp_sb_ok(&v) ? "?" : v.len ? v.s : "no rows");
            mpp_sb_free(&v);
            goto out;
        }
    }
    size_t kept = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t w = 0; w < o->nwhere && keep[r]; w++) {
            bool first = true, any = false;
            for (size_t u = 0; u < w; u++)
                first = first && wcol[u] != wcol[w];
            if (!first)
                continue;
            for (size_t u = w; u < o->nwhere; u++)
                any = any || (wcol[u] == wcol[w] && same_value(cell(t, r, wcol[u]), wval[u]));
            keep[r] = any;
        }
        kept += keep[r];
    }
    if (kept == 0)
        rc = mpp_err_set(err, MPP_EINVAL, "no row matches every --where filter together");
out:
    free(wcol);
    free(wval);
    return rc;
}

/* 0 when every kept, non-empty cell of column c is a number and there is
 * at least one; else an error naming option opt. With err NULL, only the
 * test. */
static int numeric_column(const mpp_plot_table *t, size_t c, const bool *keep, const char *opt,
                          mpp_err *err)
{
    size_t numbers = 0, run = column(t, "run");
    for (size_t r = 0; r < t->nrows; r++) {
        const char *v = cell(t, r, c);
        double d;
        if (!keep[r] || !*v)
            continue;
        if (!parse_num(v, &d))
            return mpp_err_set(err, MPP_EINVAL,
                               "%s column '%s' is not numeric ('%s' in the row of run %s)", opt,
                               head(t, c), v, cell(t, r, run));
        numbers++;
    }
    if (!numbers)
        return mpp_err_set(err, MPP_EINVAL, "%s column '%s' has no values in the rows plotted",
                           opt, head(t, c));
    return 0;
}

/* Grouping: rows with equal keys share a group; groups are numbered in
 * order of first appearance. */
typedef struct keyed_row {
    const char *key;
    size_t row;
} keyed_row;

static int cmp_keyed(const void *a, const void *b)
{
    const keyed_row *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    if (c)
        return c;
    return (x->row > y->row) - (x->row < y->row);
}

static int cmp_size(const void *a, const void *b)
{
    const size_t *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

/* gid[r] = group of each kept row r (key keys[r]); *ngroups set. Returns 0
 * or MPP_ENOMEM. */
static int group_rows(const mpp_plot_table *t, const bool *keep, char *const *keys, size_t *gid,
                      size_t *ngroups, mpp_err *err)
{
    size_t n = 0;
    for (size_t r = 0; r < t->nrows; r++)
        n += keep[r];
    keyed_row *kr = calloc(n ? n : 1, sizeof *kr);
    size_t *firsts = calloc(n ? 2 * n : 1, sizeof *firsts); /* (first row, provisional id) */
    size_t *remap = calloc(n ? n : 1, sizeof *remap);
    if (!kr || !firsts || !remap) {
        free(kr);
        free(firsts);
        free(remap);
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    }
    size_t k = 0;
    for (size_t r = 0; r < t->nrows; r++)
        if (keep[r])
            kr[k++] = (keyed_row){keys[r], r};
    qsort(kr, n, sizeof *kr, cmp_keyed);
    size_t g = 0;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && strcmp(kr[i].key, kr[i - 1].key))
            g++;
        if (i == 0 || strcmp(kr[i].key, kr[i - 1].key)) {
            firsts[2 * g] = kr[i].row; /* rows ascend within a key */
            firsts[2 * g + 1] = g;
        }
        gid[kr[i].row] = g;
    }
    size_t ng = n ? g + 1 : 0;
    qsort(firsts, ng, 2 * sizeof *firsts, cmp_size);
    for (size_t i = 0; i < ng; i++)
        remap[firsts[2 * i + 1]] = i;
    for (size_t i = 0; i < n; i++)
        gid[kr[i].row] = remap[gid[kr[i].row]];
    *ngroups = ng;
    free(kr);
    free(firsts);
    free(remap);
    return 0;
}

/* keys[r] = the cells of cols joined by KEY_SEP, for each kept row. */
static int make_keys(const mpp_plot_table *t, const bool *keep, const size_vec *cols, char **keys,
                     mpp_err *err)
{
    for (size_t r = 0; r < t->nrows; r++) {
        if (!keep[r])
            continue;
        mpp_sb sb;
        mpp_sb_init(&sb);
        for (size_t i = 0; i < cols->n; i++) {
            mpp_sb_add(&sb, cell(t, r, cols->v[i]));
            mpp_sb_addc(&sb, KEY_SEP);
        }
        keys[r] = sb_take(&sb);
        if (!keys[r])
            return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    }
    return 0;
}

static bool vec_has(const size_vec *v, size_t x)
{
    for (size_t i = 0; i < v->n; i++)
        if (v->v[i] == x)
            return true;
    return false;
}

static int cmp_pt(const void *a, const void *b)
{
    const plot_pt *p = a, *q = b;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return (p->first > q->first) - (p->first < q->first);
}

static int cmp_first(const void *a, const void *b)
{
    const plot_pt *p = a, *q = b;
    return (p->first > q->first) - (p->first < q->first);
}

void mpp_plot_destroy(mpp_plot *p)
{
    if (!p)
        return;
    for (size_t c = 0; c < p->ncurves; c++) {
        free(p->curve[c].label);
        free(p->curve[c].key);
        free(p->curve[c].pts);
    }
    free(p->curve);
    for (size_t i = 0; i < p->ncat; i++)
        free(p->cat[i]);
    free(p->cat);
    free(p->keytitle);
    free(p->xname);
    free(p->yfile);
    free(p->title);
    free(p->xlabel);
    free(p->ylabel);
    free(p);
}

/* The label of curve group g (first row r) for y column y: "y: by=v, ..."
 * (the y part only with several y columns; y alone without --by). */
static char *curve_label(const mpp_plot_table *t, size_t r, const size_vec *by, size_t y,
                         size_t ny)
{
    mpp_sb sb;
    mpp_sb_init(&sb);
    if (ny > 1 || by->n == 0)
        mpp_sb_add(&sb, head(t, y));
    if (ny > 1 && by->n)
        mpp_sb_add(&sb, ": ");
    for (size_t i = 0; i < by->n; i++)
        mpp_sb_printf(&sb, "%s%s=%s", i ? ", " : "", head(t, by->v[i]), cell(t, r, by->v[i]));
    return sb_take(&sb);
}

/* The key entry of the same curve: the --by values alone ("v1, v2"),
 * after "y: " with several y columns; y alone without --by. */
static char *curve_key(const mpp_plot_table *t, size_t r, const size_vec *by, size_t y,
                       size_t ny)
{
    mpp_sb sb;
    mpp_sb_init(&sb);
    if (ny > 1 || by->n == 0)
        mpp_sb_add(&sb, head(t, y));
    if (ny > 1 && by->n)
        mpp_sb_add(&sb, ": ");
    for (size_t i = 0; i < by->n; i++)
        mpp_sb_printf(&sb, "%s%s", i ? ", " : "", cell(t, r, by->v[i]));
    return sb_take(&sb);
}

/* Build the curves of p from the grouped rows; xval[r] is row r's x (a
 * number, or a category's index; NaN when it has none). */
static int build_curves(mpp_plot *p, const mpp_plot_table *t, const bool *keep, size_t xcol,
                        const double *xval, const size_vec *ycols, const size_vec *by, const size_t *cg,
                        size_t ncg, const size_t *pg, size_t npg, mpp_err *err)
{
    size_t satcol = column(t, SAT_COLUMN);
    plot_pt *acc = calloc(npg ? npg : 1, sizeof *acc);
    size_t *curve_of = calloc(npg ? npg : 1, sizeof *curve_of);
    size_t *first_of_cg = calloc(ncg ? ncg : 1, sizeof *first_of_cg);
    size_t maxcurves = ncg * ycols->n;
    p->curve = calloc(maxcurves > 0 ? maxcurves : 1, sizeof *p->curve);
    int rc = 0;
    if (!acc || !curve_of || !first_of_cg || !p->curve) {
        rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t r = t->nrows; r-- > 0;) {
        if (!keep[r])
            continue;
        curve_of[pg[r]] = cg[r];
        first_of_cg[cg[r]] = r;
    }
    for (size_t c = 0; c < ncg; c++) {
        for (size_t yi = 0; yi < ycols->n; yi++) {
            size_t y = ycols->v[yi];
            memset(acc, 0, (npg ? npg : 1) * sizeof *acc);
            for (size_t r = 0; r < t->nrows; r++) {
                double xv, yv;
                if (!keep[r] || cg[r] != c || isnan(xv = xval[r]) ||
                    !parse_num(cell(t, r, y), &yv))
                    continue;
                plot_pt *a = &acc[pg[r]];
                if (a->n == 0)
                    a->first = r;
                a->x += xv;
                a->y += yv;
                a->n++;
                a->sat = a->sat ||
                         (satcol < t->ncols && !strcmp(cell(t, r, satcol), "true"));
            }
            size_t npts = 0;
            for (size_t g = 0; g < npg; g++)
                npts += curve_of[g] == c && acc[g].n > 0;
            if (npts == 0)
                continue;
            plot_curve *cv = &p->curve[p->ncurves];
            cv->pts = calloc(npts, sizeof *cv->pts);
            cv->label = curve_label(t, first_of_cg[c], by, y, ycols->n);
            cv->key = curve_key(t, first_of_cg[c], by, y, ycols->n);
            p->ncurves++;
            if (!cv->pts || !cv->label || !cv->key) {
                rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
                goto out;
            }
            for (size_t g = 0; g < npg; g++) {
                if (curve_of[g] != c || acc[g].n == 0)
                    continue;
                plot_pt pt = acc[g];
                pt.x /= (double)pt.n;
                pt.y /= (double)pt.n;
                cv->any_sat = cv->any_sat || pt.sat;
                cv->pts[cv->npts++] = pt;
            }
            qsort(cv->pts, cv->npts, sizeof *cv->pts, xcol < t->nident ? cmp_pt : cmp_first);
            p->any_sat = p->any_sat || cv->any_sat;
        }
    }
    if (p->ncurves == 0)
        rc = mpp_err_set(err, MPP_EINVAL, "nothing to plot: no row has values for both %s and "
                         "the y column(s)", head(t, xcol));
out:
    free(acc);
    free(curve_of);
    free(first_of_cg);
    return rc;
}

/* Fill the names and labels of p. */
static int name_plot(mpp_plot *p, const mpp_plot_table *t, const mpp_plot_options *o,
                     size_t xcol, const size_vec *ycols, const size_vec *by, bool averaged,
                     mpp_err *err)
{
    mpp_sb ys, file, title, key;
    mpp_sb_init(&ys);
    mpp_sb_init(&file);
    mpp_sb_init(&title);
    mpp_sb_init(&key);
    for (size_t i = 0; i < by->n; i++)
        mpp_sb_printf(&key, "%s%s", i ? ", " : "", head(t, by->v[i]));
    p->keytitle = by->n ? sb_take(&key) : NULL;
    mpp_sb_free(&key);
    if (by->n && !p->keytitle)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    for (size_t i = 0; i < ycols->n; i++) {
        mpp_sb_printf(&ys, "%s%s", i ? ", " : "", head(t, ycols->v[i]));
        mpp_sb_printf(&file, "%s%s", i ? "+" : "", head(t, ycols->v[i]));
    }
    if (o->title)
        mpp_sb_add(&title, o->title);
    else
        mpp_sb_printf(&title, "%s vs %s%s", ys.s, head(t, xcol),
                      averaged ? " (mean over seeds)" : "");
    p->xname = strdup(head(t, xcol));
    p->xlabel = strdup(o->xlabel ? o->xlabel : head(t, xcol));
    p->ylabel = o->ylabel ? strdup(o->ylabel) : mpp_sb_ok(&ys) ? strdup(ys.s) : NULL;
    p->yfile = sb_take(&file);
    p->title = sb_take(&title);
    mpp_sb_free(&ys);
    if (!p->xname || !p->xlabel || !p->ylabel || !p->yfile || !p->title)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    return 0;
}

/* Distinct non-empty texts of column c over the kept rows. */
static size_t count_distinct(const mpp_plot_table *t, size_t c, const bool *keep)
{
    size_t d = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        if (!keep[r] || !*cell(t, r, c))
            continue;
        size_t q = 0;
        while (q < r && (!keep[q] || strcmp(cell(t, q, c), cell(t, r, c))))
            q++;
        d += q == r;
    }
    return d;
}

/* The default x column: the last axis when it is numeric; else offered
 * (t->ncols) when workload.rate is an axis, or when there is no axis; else
 * the axis with the most distinct values, the later one on a tie. */
static size_t default_x(const mpp_plot_table *t, const bool *keep)
{
    if (t->naxes && !numeric_column(t, t->naxes, keep, "--x", NULL))
        return t->naxes;
    size_t rate = column(t, RATE_AXIS);
    if (t->naxes == 0 || (rate >= 1 && rate <= t->naxes))
        return t->ncols;
    size_t best = t->naxes, most = 0;
    for (size_t c = 1; c <= t->naxes; c++) {
        size_t d = count_distinct(t, c, keep);
        if (d >= most) {
            most = d;
            best = c;
        }
    }
    return best;
}

/* xval[r] = the x of each kept row: its number when column xcol is
 * numeric, else the index of its text among the column's distinct values
 * in order of first appearance (p->cat, p->xcat set); NaN for an empty
 * cell. An error when the column has no value in the kept rows. */
static int x_values(mpp_plot *p, const mpp_plot_table *t, const bool *keep, size_t xcol,
                    double *xval, mpp_err *err)
{
    p->xcat = numeric_column(t, xcol, keep, "--x", NULL) != 0;
    size_t cap = count_distinct(t, xcol, keep);
    if (cap == 0)
        return mpp_err_set(err, MPP_EINVAL, "--x column '%s' has no values in the rows plotted",
                           head(t, xcol));
    if (p->xcat && !(p->cat = calloc(cap, sizeof *p->cat)))
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    for (size_t r = 0; r < t->nrows; r++) {
        const char *v = cell(t, r, xcol);
        xval[r] = NAN;
        if (!keep[r] || !*v)
            continue;
        if (!p->xcat) {
            parse_num(v, &xval[r]);
            continue;
        }
        size_t k = 0;
        while (k < p->ncat && strcmp(p->cat[k], v))
            k++;
        if (k == p->ncat) {
            if (!(p->cat[k] = strdup(v)))
                return mpp_err_set(err, MPP_ENOMEM, "out of memory");
            p->ncat++;
        }
        xval[r] = (double)k;
    }
    return 0;
}

/* True when every value v of the curves' x (or y) is positive and they
 * span more than two decades (max > 100 min). */
static bool spans_decades(const mpp_plot *p, bool y)
{
    double lo = INFINITY, hi = 0;
    for (size_t c = 0; c < p->ncurves; c++)
        for (size_t i = 0; i < p->curve[c].npts; i++) {
            double v = y ? p->curve[c].pts[i].y : p->curve[c].pts[i].x;
            if (!(v > 0))
                return false;
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
    return hi > 100 * lo;
}

/* The scales: as the options say, else logarithmic when the values span
 * more than two decades (x only when it is a numeric sweep axis: a
 * measured x such as offered stays linear). */
static void auto_log(mpp_plot *p, const mpp_plot_options *o, bool x_axis)
{
    p->logy = o->logy >= 0 ? o->logy > 0 : spans_decades(p, true);
    p->logx = o->logx >= 0 ? o->logx > 0 : !p->xcat && x_axis && spans_decades(p, false);
    if (p->xcat)
        p->logx = false; /* categories sit at 0, 1, ...: no logarithm */
}

int mpp_plot_create(const mpp_plot_table *t, const mpp_plot_options *o, mpp_plot **out,
                    mpp_err *err)
{
    *out = NULL;
    size_t n = t->nrows ? t->nrows : 1;
    bool *keep = calloc(n, sizeof *keep);
    char **ckey = calloc(n, sizeof *ckey), **pkey = calloc(n, sizeof *pkey);
    size_t *cg = calloc(n, sizeof *cg), *pg = calloc(n, sizeof *pg);
    double *xval = calloc(n, sizeof *xval);
    size_vec ycols = {0}, by = {0}, pcols = {0};
    mpp_plot *p = calloc(1, sizeof *p);
    size_t xcol = t->ncols, ncg = 0, npg = 0;
    int rc;
    if (!keep || !ckey || !pkey || !cg || !pg || !xval || !p) {
        rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
        goto out;
    }
    if (t->nrows == 0) {
        rc = mpp_err_set(err, MPP_EINVAL, "no rows to plot (no run finished)");
        goto out;
    }

    /* 1. Filters. Every column named anywhere is checked first, so an
     * unknown name is reported before anything else. */
    rc = find_columns(t, o->y ? o->y : DEFAULT_Y, "--y", &ycols, err);
    if (!rc && o->by)
        rc = find_columns(t, o->by, "--by", &by, err);
    if (!rc && o->x)
        rc = find_column(t, o->x, "--x", &xcol, err);
    if (!rc)
        rc = apply_where(t, o, keep, err);
    if (rc)
        goto out;

    /* 2. Columns: x numeric, else categorical. */
    if (!o->x) {
        xcol = default_x(t, keep);
        if (xcol == t->ncols && (rc = find_column(t, FALLBACK_X, "default --x", &xcol, err)))
            goto out;
    }
    if ((rc = x_values(p, t, keep, xcol, xval, err)))
        goto out;
    for (size_t i = 0; i < ycols.n; i++)
        if ((rc = numeric_column(t, ycols.v[i], keep, "--y", err)))
            goto out;
    if (!o->by) {
        /* An x that is not an axis (offered, accepted, ...) is measured
         * along the rate sweep: the rate axis runs along the curves. */
        bool x_axis = xcol >= 1 && xcol <= t->naxes;
        for (size_t c = 1; c <= t->naxes; c++)
            if (c != xcol && (x_axis || strcmp(head(t, c), RATE_AXIS)))
                vec_push(&by, c);
    }

    /* 3. Groups: curves by the --by values; points by axes + --by (+ x
     * when x identifies runs) when averaging seeds, else by row. */
    if (o->mean_seeds) {
        for (size_t c = 1; c <= t->naxes; c++)
            vec_push(&pcols, c);
        for (size_t i = 0; i < by.n; i++)
            if (!vec_has(&pcols, by.v[i]))
                vec_push(&pcols, by.v[i]);
        if (xcol < t->nident && !vec_has(&pcols, xcol))
            vec_push(&pcols, xcol);
    } else {
        vec_push(&pcols, column(t, "run"));
        for (size_t i = 0; i < by.n; i++)
            vec_push(&pcols, by.v[i]);
    }
    if (ycols.failed || by.failed || pcols.failed) {
        rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
        goto out;
    }
    if ((rc = make_keys(t, keep, &by, ckey, err)) || (rc = make_keys(t, keep, &pcols, pkey, err)) ||
        (rc = group_rows(t, keep, ckey, cg, &ncg, err)) ||
        (rc = group_rows(t, keep, pkey, pg, &npg, err)))
        goto out;

    /* 4. Curves and names. */
    if ((rc = build_curves(p, t, keep, xcol, xval, &ycols, &by, cg, ncg, pg, npg, err)))
        goto out;
    bool averaged = false;
    for (size_t c = 0; c < p->ncurves; c++)
        for (size_t i = 0; i < p->curve[c].npts; i++)
            averaged = averaged || p->curve[c].pts[i].n > 1;
    rc = name_plot(p, t, o, xcol, &ycols, &by, averaged, err);
    if (!rc)
        auto_log(p, o, xcol >= 1 && xcol <= t->naxes);
out:
    for (size_t r = 0; ckey && pkey && r < t->nrows; r++) {
        free(ckey[r]);
        free(pkey[r]);
    }
    free(keep);
    free(ckey);
    free(pkey);
    free(cg);
    free(pg);
    free(xval);
    free(ycols.v);
    free(by.v);
    free(pcols.v);
    if (rc) {
        mpp_plot_destroy(p);
        return rc;
    }
    *out = p;
    return 0;
}

/* ---- the text of the files -------------------------------------------- */

size_t mpp_plot_curves(const mpp_plot *p) { return p->ncurves; }

size_t mpp_plot_points(const mpp_plot *p, size_t c) { return p->curve[c].npts; }

void mpp_plot_default_name(const mpp_plot *p, mpp_sb *sb)
{
    mpp_sb name;
    mpp_sb_init(&name);
    mpp_sb_printf(&name, "plot-%s-vs-%s", p->yfile, p->xname);
    for (size_t i = 0; mpp_sb_ok(&name) && i < name.len; i++) {
        char ch = name.s[i];
        bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                  (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '+' || ch == '-';
        mpp_sb_addc(sb, ok ? ch : '_');
    }
    if (!mpp_sb_ok(&name))
        sb->failed = true;
    mpp_sb_free(&name);
    mpp_sb_add(sb, ".png");
}

/* Append "# text\n" with line breaks in text turned into spaces. */
static void comment_line(mpp_sb *sb, const char *text)
{
    mpp_sb_add(sb, "# ");
    for (; *text; text++)
        mpp_sb_addc(sb, *text == '\n' || *text == '\r' ? ' ' : *text);
    mpp_sb_addc(sb, '\n');
}

void mpp_plot_data(const mpp_plot *p, mpp_sb *sb)
{
    for (size_t c = 0; c < p->ncurves; c++) {
        const plot_curve *cv = &p->curve[c];
        if (c)
            mpp_sb_add(sb, "\n\n");
        comment_line(sb, cv->label);
        mpp_sb_add(sb, "# x y saturated rows\n");
        for (size_t i = 0; i < cv->npts; i++) {
            mpp_sb_double(sb, cv->pts[i].x);
            mpp_sb_addc(sb, ' ');
            mpp_sb_double(sb, cv->pts[i].y);
            mpp_sb_printf(sb, " %d %zu\n", cv->pts[i].sat ? 1 : 0, cv->pts[i].n);
        }
    }
}

/* The look of curve i (mpp_plot_script): colour, dash type, point type.
 * 8 colours (after Okabe and Ito, told apart by most colour-blind eyes;
 * black last), 4 dash types, 7 point types: colour and dash repeat
 * together after 32 curves, colour and point type after 56. The open
 * circle (6) is kept for saturated points. */
static const char *const curve_colour[8] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                                            "#e69f00", "#56b4e9", "#7f3c8d", "#000000"};
static const int curve_point[7] = {7, 5, 9, 11, 13, 15, 2};

void mpp_plot_script(const mpp_plot *p, const char *png, const char *dat, mpp_sb *sb)
{
    mpp_sb_add(sb, "# Written by mppnet: draws ");
    mpp_sb_add(sb, png);
    if (dat) {
        mpp_sb_add(sb, " from ");
        mpp_sb_add(sb, dat);
    }
    mpp_sb_add(sb, "; run it with gnuplot in this directory.\n"
                   "# Data: one block per curve (index 0, 1, ...): x y saturated rows.\n");
    mpp_sb_add(sb, "if (!exists(\"outfile\")) outfile = ");
    mpp_output_gp_string(sb, png);
    if (dat) {
        mpp_sb_add(sb, "\ndatafile = ");
        mpp_output_gp_string(sb, dat);
        mpp_sb_addc(sb, '\n');
    } else {
        mpp_sb_add(sb, "\n$mppdata << EOD\n");
        mpp_plot_data(p, sb);
        mpp_sb_add(sb, "EOD\ndatafile = '$mppdata'\n");
    }
    /* The key below the plot: about three entries a row (gnuplot fits
     * them to the width); past two rows the picture grows to keep the
     * plot's height. */
    size_t rows = (p->ncurves + (p->any_sat ? 1 : 0) + 2) / 3;
    mpp_output_gp_terminal(sb, 600 + (rows > 2 ? (int)(rows - 2) * 18 : 0));
    mpp_sb_add(sb, "set output outfile\nset title ");
    mpp_output_gp_string(sb, p->title);
    mpp_sb_add(sb, "\nset xlabel ");
    mpp_output_gp_string(sb, p->xlabel);
    mpp_sb_add(sb, "\nset ylabel ");
    mpp_output_gp_string(sb, p->ylabel);
    mpp_sb_addc(sb, '\n');
    if (p->logx)
        mpp_sb_add(sb, "set logscale x\n");
    if (p->logy)
        mpp_sb_add(sb, "set logscale y\n");
    if (p->xcat) {
        /* the values as tics at 0, 1, ..., turned when they would crowd */
        size_t chars = 0;
        mpp_sb_add(sb, "set xtics (");
        for (size_t i = 0; i < p->ncat; i++) {
            mpp_sb_add(sb, i ? ", " : "");
            mpp_output_gp_string(sb, p->cat[i]);
            mpp_sb_printf(sb, " %zu", i);
            chars += strlen(p->cat[i]) + 2;
        }
        mpp_sb_printf(sb, ")%s\nset xrange [-0.5:%zu.5]\n",
                      chars > 80 ? " rotate by -30" : "", p->ncat - 1);
    }
    mpp_sb_add(sb, "set grid\nset key outside below center horizontal");
    if (p->keytitle) {
        mpp_sb_add(sb, " title ");
        mpp_output_gp_string(sb, p->keytitle);
    }
    mpp_sb_add(sb, "\nplot \\\n");
    for (size_t c = 0; c < p->ncurves; c++) {
        const char *colour = curve_colour[c % 8];
        mpp_sb_printf(sb, "%s    datafile index %zu using 1:2 with linespoints lc rgb \"%s\" "
                      "dt %zu pt %d ps 1 lw 1.5 title ",
                      c ? ", \\\n" : "", c, colour, (c / 8) % 4 + 1, curve_point[c % 7]);
        mpp_output_gp_string(sb, p->curve[c].key);
        if (p->curve[c].any_sat)
            mpp_sb_printf(sb, ", \\\n    datafile index %zu using 1:($3 > 0 ? $2 : NaN) "
                          "with points lc rgb \"%s\" pt 6 ps 2.5 lw 1.5 notitle", c, colour);
    }
    if (p->any_sat)
        mpp_sb_add(sb, ", \\\n    NaN with points lc rgb \"black\" pt 6 ps 2.5 lw 1.5 "
                       "title \"saturated\"");
    mpp_sb_addc(sb, '\n');
}

/* ---- the plot of `mppnet run` ---------------------------------------------- */

int mpp_plot_auto(const mpp_experiment *e, const mpp_output_run *runs, size_t nruns, mpp_sb *gp,
                  const char **stem, mpp_err *err)
{
    *stem = NULL;
    size_t first = 0;
    while (first < nruns && !(runs[first].done && runs[first].status == 0))
        first++;
    if (first == nruns)
        return 0; /* no run finished */
    mpp_sb csv, title, y;
    mpp_sb_init(&csv);
    mpp_sb_init(&title);
    mpp_sb_init(&y);
    mpp_plot_table *t = NULL;
    mpp_plot *p = NULL;
    int rc = 0;
    mpp_output_results_csv(&csv, e, runs, nruns);
    if (!mpp_sb_ok(&csv) || (rc = mpp_plot_table_parse(csv.s, csv.len, "results.csv", &t, err)))
        goto out;
    mpp_plot_options o;
    mpp_plot_options_init(&o);
    size_t rate = column(t, RATE_AXIS);
    const char *name = mpp_experiment_name(e);
    if (rate >= 1 && rate <= t->naxes) {
        o.x = FALLBACK_X;
        o.y = DEFAULT_Y;
        o.xlabel = "offered load (flits/node/cycle)";
        o.ylabel = "mean packet latency (cycles)";
        mpp_sb_printf(&title, "%s: mean packet latency vs offered load", name);
        *stem = "latency";
    } else if (t->naxes) {
        /* the first summary column with decimals that has values */
        const mpp_workload_ops *w = mpp_experiment_config(e, first)->workload.ops;
        bool *all = calloc(t->nrows ? t->nrows : 1, sizeof *all);
        if (!all) {
            rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
            goto out;
        }
        for (size_t r = 0; r < t->nrows; r++)
            all[r] = true;
        for (uint32_t k = 0; w && k < w->nsummary && !y.len; k++) {
            size_t c = column(t, w->summary[k].column);
            if (w->summary[k].prec > 0 && c < t->ncols && !numeric_column(t, c, all, "", NULL))
                mpp_sb_add(&y, w->summary[k].column);
        }
        size_t xcol = default_x(t, all);
        free(all);
        if (!y.len || xcol == t->ncols)
            goto out; /* nothing worth a picture */
        o.y = y.s;
        mpp_sb_printf(&title, "%s: %s vs %s", name, y.s, head(t, xcol));
        *stem = "plot";
    } else {
        goto out; /* one configuration: no axis to draw along */
    }
    o.title = mpp_sb_ok(&title) ? title.s : name;
    if ((rc = mpp_plot_create(t, &o, &p, err))) {
        *stem = NULL;
        rc = rc == MPP_ENOMEM ? rc : 0; /* e.g. no value to plot: no picture */
        goto out;
    }
    mpp_sb png;
    mpp_sb_init(&png);
    mpp_sb_printf(&png, "%s.png", *stem);
    mpp_plot_script(p, mpp_sb_ok(&png) ? png.s : "plot.png", NULL, gp);
    mpp_sb_free(&png);
out:
    if (!rc && (!mpp_sb_ok(&csv) || !mpp_sb_ok(&title) || !mpp_sb_ok(&y) || !mpp_sb_ok(gp)))
        rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
    if (rc)
        *stem = NULL;
    mpp_plot_destroy(p);
    mpp_plot_table_free(t);
    mpp_sb_free(&csv);
    mpp_sb_free(&title);
    mpp_sb_free(&y);
    return rc;
}

/* ---- the command -------------------------------------------------------- */

/* The parsed command line. */
typedef struct plot_args {
    const char *out;
    bool script_only;
    mpp_plot_options o;
    const char **where;  /* room for every argument */
} plot_args;

/* Codes of the long-only options (above 127: no short form). */
enum {
    OPT_X = 1000, OPT_Y, OPT_BY, OPT_WHERE, OPT_TITLE, OPT_XLABEL, OPT_YLABEL, OPT_MEAN_SEEDS,
    OPT_NO_MEAN_SEEDS, OPT_LOGX, OPT_LOGY, OPT_NO_LOGX, OPT_NO_LOGY, OPT_SCRIPT_ONLY
};

static const struct option plot_options[] = {
    {"x", required_argument, NULL, OPT_X},
    {"y", required_argument, NULL, OPT_Y},
    {"by", required_argument, NULL, OPT_BY},
    {"where", required_argument, NULL, OPT_WHERE},
    {"title", required_argument, NULL, OPT_TITLE},
    {"xlabel", required_argument, NULL, OPT_XLABEL},
    {"ylabel", required_argument, NULL, OPT_YLABEL},
    {"mean-seeds", no_argument, NULL, OPT_MEAN_SEEDS},
    {"no-mean-seeds", no_argument, NULL, OPT_NO_MEAN_SEEDS},
    {"logx", no_argument, NULL, OPT_LOGX},
    {"logy", no_argument, NULL, OPT_LOGY},
    {"no-logx", no_argument, NULL, OPT_NO_LOGX},
    {"no-logy", no_argument, NULL, OPT_NO_LOGY},
    {"script-only", no_argument, NULL, OPT_SCRIPT_ONLY},
    {"output", required_argument, NULL, 'o'},
    {NULL, 0, NULL, 0},
};

static int plot_opt(void *ud, int code, const char *arg)
{
    plot_args *a = ud;
    mpp_plot_options *o = &a->o;
    switch (code) {
    case OPT_X: o->x = arg; return 0;
    case OPT_Y: o->y = arg; return 0;
    case OPT_BY: o->by = arg; return 0;
    case OPT_WHERE: a->where[o->nwhere++] = arg; return 0;
    case OPT_TITLE: o->title = arg; return 0;
    case OPT_XLABEL: o->xlabel = arg; return 0;
    case OPT_YLABEL: o->ylabel = arg; return 0;
    case OPT_MEAN_SEEDS: o->mean_seeds = true; return 0;
    case OPT_NO_MEAN_SEEDS: o->mean_seeds = false; return 0;
    case OPT_LOGX: o->logx = 1; return 0;
    case OPT_LOGY: o->logy = 1; return 0;
    case OPT_NO_LOGX: o->logx = 0; return 0;
    case OPT_NO_LOGY: o->logy = 0; return 0;
    case OPT_SCRIPT_ONLY: a->script_only = true; return 0;
    case 'o': a->out = arg; return 0;
    }
    return 2;
}

/* "plot: out of memory" as an error; its exit status. */
static int plot_nomem(void)
{
    mpp_err err;
    mpp_err_set(&err, MPP_ENOMEM, "plot: out of memory");
    return mpp_args_fail(&err);
}

/* err prefixed with "plot: " (the command); its exit status. */
static int plot_fail(mpp_err *err)
{
    mpp_err_prefix(err, "plot");
    return mpp_args_fail(err);
}

/* Split path into a directory (malloc'd; "." when there is none) and its
 * last component (pointer into path). NULL when out of memory. */
static char *split_path(const char *path, const char **base)
{
    const char *slash = strrchr(path, '/');
    *base = slash ? slash + 1 : path;
    if (!slash)
        return strdup(".");
    size_t n = slash == path ? 1 : (size_t)(slash - path);
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, path, n);
        d[n] = '\0';
    }
    return d;
}

int mpp_plot_main(int argc, char **argv)
{
    plot_args a = {0};
    mpp_plot_options_init(&a.o);
    a.where = calloc((size_t)argc + 1, sizeof *a.where);
    a.o.where = a.where;
    mpp_args rest = {0, NULL};
    bool done = false;
    const char *csv = NULL;
    mpp_plot_table *t = NULL;
    mpp_plot *p = NULL;
    char *dir = NULL;
    mpp_sb outpath, gp, dat, text;
    mpp_sb_init(&outpath);
    mpp_sb_init(&gp);
    mpp_sb_init(&dat);
    mpp_sb_init(&text);
    mpp_err err;
    mpp_err_clear(&err);
    int status;
    if (!a.where) {
        status = plot_nomem();
        goto out;
    }
    status = mpp_args_parse("plot", argc, argv, plot_options, mpp_plot_help, plot_opt, &a, &rest,
                            &done);
    if (status || done)
        goto out;
    if (rest.n > 1) {
        status = mpp_args_usage("plot", "too many arguments ('%s')", rest.v[1]);
        goto out;
    }
    if (!rest.n) {
        status = mpp_args_usage("plot", "missing the results file (mppnet plot RESULTS.csv)");
        goto out;
    }
    csv = rest.v[0];
    if (mpp_plot_table_read(csv, &t, &err)) {
        status = plot_fail(&err);
        goto out;
    }
    if (mpp_plot_create(t, &a.o, &p, &err)) {
        if (!strncmp(err.msg, UNKNOWN_COLUMN, strlen(UNKNOWN_COLUMN))) {
            /* a column the command line named: a usage error, with every
             * valid name (longer than an mpp_err holds) */
            mpp_sb cols;
            mpp_sb_init(&cols);
            for (size_t c = 0; c < t->ncols; c++)
                mpp_sb_printf(&cols, "%s%s", c ? ", " : "", head(t, c));
            status = mpp_args_usage("plot", "%s in %s; valid columns: %s", err.msg, csv,
                                    mpp_sb_ok(&cols) ? cols.s : "?");
            mpp_sb_free(&cols);
        } else {
            mpp_err_prefix(&err, "%s", csv);
            status = plot_fail(&err);
        }
        goto out;
    }

    /* File names: OUT.png -> OUT.gp, OUT.dat in the same directory. */
    const char *base;
    if (a.out) {
        mpp_sb_add(&outpath, a.out);
    } else {
        char *csvdir = split_path(csv, &base);
        if (csvdir && strcmp(csvdir, "."))
            mpp_sb_printf(&outpath, "%s/", csvdir);
        if (!csvdir)
            outpath.failed = true;
        free(csvdir);
        mpp_plot_default_name(p, &outpath);
    }
    dir = mpp_sb_ok(&outpath) ? split_path(outpath.s, &base) : NULL;
    if (!dir) {
        status = plot_nomem();
        goto out;
    }
    if (!*base || !strcmp(base, ".") || !strcmp(base, "..")) {
        status = mpp_args_usage("plot", "-o needs a file name, not '%s'", outpath.s);
        goto out;
    }
    size_t stem = strlen(base);
    if (stem > 4 && !strcmp(base + stem - 4, ".png"))
        stem -= 4;
    mpp_sb_printf(&gp, "%.*s.gp", (int)stem, base);
    mpp_sb_printf(&dat, "%.*s.dat", (int)stem, base);

    /* Write the data, then the script (each atomically). */
    mpp_plot_data(p, &text);
    if (!mpp_sb_ok(&gp) || !mpp_sb_ok(&dat) || !mpp_sb_ok(&text)) {
        status = plot_nomem();
        goto out;
    }
    if ((strcmp(dir, ".") && mpp_output_mkdir_p(dir, &err)) ||
        mpp_output_write_atomic(dir, dat.s, text.s, text.len, &err)) {
        status = plot_fail(&err);
        goto out;
    }
    mpp_sb_reset(&text);
    mpp_plot_script(p, base, dat.s, &text);
    if (!mpp_sb_ok(&text)) {
        status = plot_nomem();
        goto out;
    }
    if (mpp_output_write_atomic(dir, gp.s, text.s, text.len, &err)) {
        status = plot_fail(&err);
        goto out;
    }
    const char *sep = strcmp(dir, ".") ? "/" : "";
    const char *shown = strcmp(dir, ".") ? dir : "";
    if (a.script_only) {
        printf("%s%s%s\n", shown, sep, gp.s);
        status = 0;
    } else if (!mpp_output_on_path("gnuplot")) {
        printf("%s%s%s\n", shown, sep, gp.s);
        mpp_args_eprintf(
                "mppnet: plot: note: gnuplot is not on PATH; wrote %s%s%s and %s%s%s "
                "(run `gnuplot %s` in %s to draw %s)\n",
                shown, sep, gp.s, shown, sep, dat.s, gp.s, dir, base);
        status = 0;
    } else {
        mpp_err gerr;
        mpp_err_clear(&gerr);
        if (mpp_output_gnuplot(dir, gp.s, base, false, &gerr)) {
            plot_fail(&gerr);
            status = 1; /* gnuplot failed, whatever the cause */
        } else {
            printf("%s%s%s\n", shown, sep, base);
            status = 0;
        }
    }
out: /* stdout: checked once for every command in mpp_cli_main */
    mpp_args_free(&rest);
    mpp_plot_destroy(p);
    mpp_plot_table_free(t);
    free(a.where);
    free(dir);
    mpp_sb_free(&outpath);
    mpp_sb_free(&gp);
    mpp_sb_free(&dat);
    mpp_sb_free(&text);
    return status;
}
