/* core/cli/output.h — result files of an experiment (mpp_output_*).
 *
 * The front end (core/cli/cli.c) collects one mpp_output_run per run of an
 * experiment, in process or from worker processes, and hands the whole array
 * to mpp_output_write_all, which builds every file's text in an mpp_sb and
 * writes it atomically (DIR/.NAME.XXXXXX, fsync, rename to DIR/NAME) inside
 * the folder's descriptor (mpp_file_write_atomic_at): a result
 * file is there completely or not at all.
 *
 * Files (rows only for finished runs, in run order):
 *   results.csv   run, each sweep axis, seed, config_hash, every column of
 *                 mpp_result_fields (no host timings), then the own columns
 *                 of every workload the runs use (empty in other runs' rows)
 *   results.json  {"mppnet", "experiment", "runs": [{"run", "axes", "seed",
 *                 "config_hash", "config", "result", "timing"}]}; each
 *                 "timing" object is on a line of its own and is the only
 *                 non-deterministic text
 *   channels.csv  run, from, to, flits, utilisation (output.per_channel)
 *   matrix.csv    run, src, dst, flits, non-zero entries only
 *                 (output.traffic_matrix)
 *   messages.csv  run, src, dst, bytes, packets, issue, first_inject,
 *                 delivered, cycles, hops, one row per delivered message in
 *                 delivery order, plus issue_us, first_inject_us,
 *                 delivered_us when any run has network.net_mhz > 0
 *                 (output.per_message)
 * Everything but the timing lines is a pure function of the experiment and
 * the results. Doubles are printed with mpp_sb_double (shortest text that
 * reads back); non-finite doubles are empty CSV fields and JSON null.
 *
 * Library code: nothing here prints or exits. */
#ifndef MPP_CORE_CLI_OUTPUT_H
#define MPP_CORE_CLI_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/err.h"
#include "core/config/experiment.h"
#include "core/sim.h"
#include "core/workload.h"
#include "core/base/strbuf.h"

/* One non-zero entry of the measured traffic matrix. */
typedef struct mpp_output_flow {
    uint32_t src, dst;
    uint64_t flits;
} mpp_output_flow;

/* What one run produced. A run that is not `done` (not run, interrupted) or
 * whose status is not 0 (it failed) is left out of every file. The arrays
 * and the report are owned by the record (malloc'd; freed by
 * mpp_output_run_free). */
typedef struct mpp_output_run {
    bool done;                  /* the run finished (successfully or not) */
    int status;                 /* 0, or the MPP_E* code it failed with */
    mpp_sim_result result;      /* valid when done && status == 0 */
    mpp_channel_info *channels; /* [nchannels], NULL when not recorded */
    size_t nchannels;
    mpp_output_flow *flows;     /* [nflows] non-zero matrix entries, or NULL */
    size_t nflows;
    mpp_message_record *messages; /* [nmessages] in delivery order, or NULL */
    size_t nmessages;
    char *report;               /* deadlock report or error text, or NULL */
} mpp_output_run;

/* Zero a record (done = false, no arrays). Cannot fail. */
void mpp_output_run_init(mpp_output_run *r);

/* Free what r owns and zero it again. NULL is a no-op. */
void mpp_output_run_free(mpp_output_run *r);

/* Fill r from a simulation that has run: the result, the channel records
 * when `channels`, the non-zero matrix entries when `matrix` (and the sim
 * recorded them), the delivered messages' records when `messages`, and as
 * report the error text `msg` (may be NULL)
 * followed by mpp_sim_report when status is MPP_EDEADLOCK. Arrays are
 * collected only when status is 0. Sets done = true. Returns 0 or
 * MPP_ENOMEM (r then holds no arrays). The sim is only read. */
int mpp_output_run_collect(mpp_output_run *r, const mpp_sim *s, int status, const char *msg,
                           bool channels, bool matrix, bool messages, mpp_err *err);

/* A finished run as bytes, for the workers' pipes and the run records of
 * an output folder (the result, its arrays and report, its run index and
 * config hash), ending in a CRC-32 of all its bytes (docs/formats.md, "Run
 * records"). Appends to out; returns 0 or MPP_ENOMEM. */
int mpp_output_run_pack(const mpp_output_run *r, uint64_t run, uint64_t hash, mpp_sb *out);
/* Read a packed run of exactly len bytes into r (freed first; done set).
 * Nothing of it is trusted, nor memory taken, before every check of
 * docs/formats.md has passed on the raw bytes (the magic, the size, the
 * checksum, the header's counts and status, every bool byte 0 or 1, the
 * doubles finite or NaN and not negative, channel names NUL-terminated and
 * printable, flow and message ends below the node count, a report without
 * NUL). Returns 0, or MPP_EFORMAT with a reason that names the field at
 * fault, or MPP_ENOMEM; r is then empty. hash may be NULL. Any bytes are
 * safe input (test/fuzz/fuzz_record.c). */
int mpp_output_run_unpack(const void *buf, size_t len, uint64_t *run, uint64_t *hash,
                          mpp_output_run *r, mpp_err *err);

/* Create directory `dir` and its missing parents (mkdir -p). An existing
 * directory is fine. Returns 0 or MPP_EIO with the path and the reason. */
int mpp_output_mkdir_p(const char *dir, mpp_err *err);

/* Write len bytes of data to dir/name atomically and durably
 * (mpp_file_write_atomic: a new mkstemp file in dir, fsync, rename). On
 * failure dir/name is untouched; returns MPP_EIO with the reason. */
int mpp_output_write_atomic(const char *dir, const char *name, const char *data, size_t len,
                            mpp_err *err);

/* Append s as one CSV field: as is, or in double quotes (inner quotes
 * doubled) when it contains a comma, quote, CR or LF. */
void mpp_output_csv_field(mpp_sb *sb, const char *s);

/* Append result field f of r as text: integers in decimal, doubles with
 * mpp_sb_double (CSV: empty when not finite; JSON: null), booleans as
 * true/false. */
void mpp_output_field(mpp_sb *sb, const mpp_result_field *f, const mpp_sim_result *r, bool json);

/* Append the value v of a workload's own column c (CSV: a NaN is empty;
 * JSON: null). */
void mpp_output_extra(mpp_sb *sb, const mpp_result_column *c, mpp_value v, bool json);

/* Append every mpp_result_fields entry of r, then workload w's own columns
 * (w may be NULL), as one JSON object on one line: {"cycles": 123, ...}. */
void mpp_output_result_json(mpp_sb *sb, const mpp_sim_result *r, const mpp_workload_ops *w);

/* The value of result column `name` in r: a standard column or one of
 * workload w's own (w may be NULL); *type is MPP_F_U64 (also for 32-bit
 * columns, in v->u), MPP_F_DOUBLE or MPP_F_BOOL (v->u). False when there
 * is no such column. */
bool mpp_output_column(const mpp_workload_ops *w, const mpp_sim_result *r, const char *name,
                       mpp_value *v, mpp_field_type *type);

/* Append a sweep value written in the experiment as JSON: numbers and
 * true/false/null as they are, anything else as a string. */
void mpp_output_json_value(mpp_sb *sb, const char *text);

/* Append the text of each file; runs[i] is run i of e (nruns of them). */
void mpp_output_results_csv(mpp_sb *sb, const mpp_experiment *e, const mpp_output_run *runs,
                            size_t nruns);
void mpp_output_results_json(mpp_sb *sb, const char *version, const mpp_experiment *e,
                             const mpp_output_run *runs, size_t nruns);
void mpp_output_channels_csv(mpp_sb *sb, const mpp_output_run *runs, size_t nruns);
void mpp_output_matrix_csv(mpp_sb *sb, const mpp_output_run *runs, size_t nruns);
/* messages.csv: the microsecond columns are there when any run of e has
 * network.net_mhz > 0, and empty in the rows of runs without it. */
void mpp_output_messages_csv(mpp_sb *sb, const mpp_experiment *e, const mpp_output_run *runs,
                             size_t nruns);

/* Write results.csv and results.json, plus channels.csv,
 * matrix.csv and messages.csv when the experiment's output section asks for
 * them, each atomically (and fsync'd when durable) into the open folder
 * dirfd, named dir in messages.
 * version is the program version recorded in results.json.
 * Returns 0, MPP_ENOMEM or MPP_EIO; files written before a failure stay. */
int mpp_output_write_all(int dirfd, const char *dir, const char *version, const mpp_experiment *e,
                         const mpp_output_run *runs, size_t nruns, bool durable, mpp_err *err);

/* Append s as a gnuplot string that is data, never code: a single-quoted
 * literal (gnuplot expands neither backquotes nor escapes there) with every
 * ' doubled and control characters (line breaks) turned into spaces. */
void mpp_output_gp_string(mpp_sb *sb, const char *s);

/* Append the gnuplot lines that choose the output terminal: pngcairo
 * 900 x height when this gnuplot has it, else png of that size (both
 * noenhanced, so labels print as written). Shared by every plot script
 * mppnet writes (core/cli/plot.c). */
void mpp_output_gp_terminal(mpp_sb *sb, int height);

/* Run gnuplot on script gp in the open folder dirfd (its working folder;
 * shown as dir in messages), the script drawing to the file named by the
 * gnuplot variable `outfile`: a new temporary file (mpp_file_temp_at) in
 * the folder, renamed to png when gnuplot succeeded. gnuplot is the
 * absolute path mpp_output_find_program finds before the fork, run with
 * execv: never a program of the output folder. Returns 0, or MPP_ERUN /
 * MPP_EIO with the reason (the temporary file removed). quiet sends
 * gnuplot's messages to /dev/null. */
int mpp_output_gnuplot_at(int dirfd, const char *dir, const char *gp, const char *png,
                          bool quiet, mpp_err *err);

/* The same in the folder at path dir (a command-line path, symlinks
 * followed). */
int mpp_output_gnuplot(const char *dir, const char *gp, const char *png, bool quiet, mpp_err *err);

/* The absolute path of the executable regular file prog in the first
 * folder of $PATH that holds one, into buf[size]: true, or false when none
 * does. Empty and relative entries of PATH ("", ".", "bin") are skipped:
 * they name folders relative to wherever the program runs. */
bool mpp_output_find_program(const char *prog, char *buf, size_t size);

/* True when mpp_output_find_program finds prog. */
bool mpp_output_on_path(const char *prog);

#endif
