/* core/cli/plot.h — `mppnet plot`: gnuplot plots of a results.csv (mpp_plot_*).
 *
 * Two layers:
 *   - a library part that never prints: mpp_plot_table_* parses a
 *     results.csv (RFC 4180 quoting, as core/cli/output.c writes it), and
 *     mpp_plot_create resolves the options against it (columns, filters,
 *     curves, seed averaging) into an mpp_plot, whose data file and gnuplot
 *     script are then built as text in mpp_sb buffers;
 *   - mpp_plot_main, the `plot` command of core/cli/cli.c, which writes the
 *     files (atomically), runs gnuplot and prints messages.
 *
 * A results.csv has the columns: run, the sweep axes (named by their key
 * paths), seed, config_hash, then the result columns (mpp_result_fields).
 * The axis columns are the ones between `run` and `seed`.
 *
 * Files of a plot OUT.png: OUT.dat holds one block per curve, blocks
 * separated by two blank lines, each starting with "# LABEL" then
 * "# x y saturated rows" and rows "x y saturated(0/1) rows-averaged",
 * sorted by x when x is a sweep axis, else in run order; OUT.gp draws them (`cd DIR && gnuplot OUT.gp`). */
#ifndef MPP_CORE_CLI_PLOT_H
#define MPP_CORE_CLI_PLOT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/base/err.h"
#include "core/base/strbuf.h"

/* A parsed CSV file: a header and rows of text fields (opaque). */
typedef struct mpp_plot_table mpp_plot_table;

/* A resolved plot: curves of (x, y) points, labels, axis settings
 * (opaque). Owns copies of everything it needs: the table it was made
 * from may be freed first. */
typedef struct mpp_plot mpp_plot;

/* What to plot. Strings are borrowed for the duration of mpp_plot_create.
 * NULL means the default described with each field. */
typedef struct mpp_plot_options {
    const char *x;       /* x column; NULL: last axis if numeric, else offered */
    const char *y;       /* comma-separated y columns; NULL: latency_mean */
    const char *by;      /* comma-separated curve columns, "" for one curve;
                          * NULL: every axis but x (and but workload.rate
                          * when x is not an axis, e.g. offered) */
    const char *const *where; /* nwhere "COL=VALUE" filters: rows must match
                               * every column named; several filters on one
                               * column match any of their values */
    size_t nwhere;
    bool mean_seeds;     /* average rows that differ only in seed (default) */
    bool logx, logy;     /* logarithmic axes */
    const char *title;   /* NULL: "Y vs X" */
    const char *xlabel;  /* NULL: the x column */
    const char *ylabel;  /* NULL: the y columns */
} mpp_plot_options;

/* Fill o with the defaults (every pointer NULL, mean_seeds true). */
void mpp_plot_options_init(mpp_plot_options *o);

/* Parse len bytes of CSV text; `name` (a file name) prefixes messages.
 * On success *out owns a table (free with mpp_plot_table_free). Fails with
 * MPP_EFORMAT (empty text, no `run` column, a malformed quoted field, a row
 * with the wrong number of fields: name:line: ...) or MPP_ENOMEM; *out is
 * then NULL. */
int mpp_plot_table_parse(const char *text, size_t len, const char *name, mpp_plot_table **out,
                         mpp_err *err);

/* The largest results.csv `plot` reads. */
#define MPP_PLOT_MAX_BYTES (256u << 20)

/* Read and parse the file at path (as mpp_plot_table_parse); MPP_EIO when
 * it cannot be read. */
int mpp_plot_table_read(const char *path, mpp_plot_table **out, mpp_err *err);

/* Free a table. NULL is a no-op. */
void mpp_plot_table_free(mpp_plot_table *t);

/* Number of data rows (header excluded) and of columns. */
size_t mpp_plot_table_rows(const mpp_plot_table *t);
size_t mpp_plot_table_cols(const mpp_plot_table *t);

/* Resolve o against t. On success *out owns a plot with at least one
 * curve (free with mpp_plot_destroy). Fails with MPP_EINVAL and a message
 * for: an unknown column (the message lists the valid ones), a --x or --y
 * column that is not numeric, a malformed or unmatched --where, nothing
 * to plot; MPP_ENOMEM. *out is then NULL. */
int mpp_plot_create(const mpp_plot_table *t, const mpp_plot_options *o, mpp_plot **out,
                    mpp_err *err);

/* Free a plot. NULL is a no-op. */
void mpp_plot_destroy(mpp_plot *p);

/* Number of curves, i.e. of blocks in the data file. */
size_t mpp_plot_curves(const mpp_plot *p);

/* Number of points of curve c (< mpp_plot_curves). */
size_t mpp_plot_points(const mpp_plot *p, size_t c);

/* Append the default file name of the picture: "plot-Y-vs-X.png" (several
 * y columns joined by '+'; characters other than [A-Za-z0-9._+-] become
 * '_'). */
void mpp_plot_default_name(const mpp_plot *p, mpp_sb *sb);

/* Append the text of the data file (format in the header comment). */
void mpp_plot_data(const mpp_plot *p, mpp_sb *sb);

/* Append the gnuplot script that reads the data file `dat` and draws the
 * picture `png` (names relative to the directory gnuplot runs in; the
 * gnuplot variable `outfile`, when set with -e, overrides png). Saturated
 * points get an open circle in their curve's colour. */
void mpp_plot_script(const mpp_plot *p, const char *png, const char *dat, mpp_sb *sb);

/* Help text of the command (static storage). */
extern const char mpp_plot_help[];

/* The `plot` command: argv[0] is "plot", then RESULTS.csv and options (see
 * mpp_plot_help). Writes OUT.gp, OUT.dat and, through gnuplot, OUT.png;
 * prints the picture's path on stdout and errors as "mppnet: plot: ..." on
 * stderr. Returns the exit status: 0 (also when gnuplot is missing: the
 * script and data are written and a note printed), 1 gnuplot failed,
 * 2 bad usage or input (nothing written). */
int mpp_plot_main(int argc, char **argv);

#endif
