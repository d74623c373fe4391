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
#include "core/cli/output.h"

/* A parsed CSV file: a header and rows of text fields (opaque). */
typedef struct mpp_plot_table mpp_plot_table;

/* A resolved plot: curves of (x, y) points, labels, axis settings
 * (opaque). Owns copies of everything it needs: the table it was made
 * from may be freed first. */
typedef struct mpp_plot mpp_plot;

/* What to plot. Strings are borrowed for the duration of mpp_plot_create.
 * NULL means the default described with each field. */
typedef struct mpp_plot_options {
    const char *x;       /* x column, numeric or categorical (text: its values
                          * become the tics, in order of first appearance);
                          * NULL: the last axis if numeric, else offered when
                          * workload.rate is an axis, else the axis with the
                          * most distinct values (the later one on a tie) */
    const char *y;       /* comma-separated y columns; NULL: latency_mean */
    const char *by;      /* comma-separated curve columns, "" for one curve;
                          * NULL: every axis but x (and but workload.rate
                          * when x is not an axis, e.g. offered) */
    const char *const *where; /* nwhere "COL=VALUE" filters: rows must match
                               * every column named; several filters on one
                               * column match any of their values */
    size_t nwhere;
    bool mean_seeds;     /* average rows that differ only in seed (default) */
    int logx, logy;      /* 1 logarithmic, 0 linear, -1 (default) automatic:
                          * logarithmic when the values plotted are positive
                          * and span more than two decades (x: only a
                          * numeric sweep axis) */
    const char *title;   /* NULL: "Y vs X" */
    const char *xlabel;  /* NULL: the x column */
    const char *ylabel;  /* NULL: the y columns */
} mpp_plot_options;

/* Fill o with the defaults (every pointer NULL, mean_seeds true, logx and
 * logy automatic). */
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
 * for: an unknown column (the message lists the valid ones), a --y column
 * that is not numeric, an --x column without values, a malformed or unmatched --where, nothing
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
 * gnuplot variable `outfile`, when set with -e, overrides png); with dat
 * NULL the data is inside the script (a datablock $mppdata): the script
 * stands alone. The look (MPP_PLOT_STYLES distinct curves):
 *   - curve i: colour i mod 8 of a fixed palette, dash type (i / 8) mod 4
 *     + 1, point type i mod 7 of a fixed list (never the open circle), so
 *     that no two of the first 32 curves share colour and dash, nor colour
 *     and point type;
 *   - the key below the plot, outside the data, titled with the --by
 *     columns; each entry shows the curve's values;
 *   - saturated points get a large open circle in their curve's colour and
 *     the key an entry "saturated";
 *   - a categorical x axis gets its values as tics at 0, 1, ...;
 *   - the picture is 900 pixels wide and 600 high, taller when the key
 *     needs more than two rows. */
void mpp_plot_script(const mpp_plot *p, const char *png, const char *dat, mpp_sb *sb);

/* Curves whose look differs from every other's (see mpp_plot_script). */
#define MPP_PLOT_STYLES 32

/* The plot `mppnet run` draws when it has finished an experiment, from its
 * finished runs (runs[i] is run i of e). With a workload.rate axis: mean
 * latency against offered load, one curve per combination of the other
 * axes, stem "latency". Without one but with other axes: the first
 * summary column with decimals of the first finished run's workload (e.g.
 * makespan_ms, coll_ms, half_round_trip_us) against the default --x of
 * mpp_plot_options (a numeric axis, else a categorical one), one curve per
 * combination of the other axes, stem "plot". Seeds are averaged. On
 * success appends a self-contained script (mpp_plot_script with dat NULL)
 * to gp, drawing STEM.png, and sets *stem; *stem stays NULL when there is
 * nothing to plot (no run finished, no axis, no value). Fails only with
 * MPP_ENOMEM. */
int mpp_plot_auto(const mpp_experiment *e, const mpp_output_run *runs, size_t nruns, mpp_sb *gp,
                  const char **stem, mpp_err *err);

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
