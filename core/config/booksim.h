/* core/config/booksim.h — BookSim 2 configuration files (mpp_booksim_*).
 *
 * BookSim's configuration language is a list of statements `key = value;`
 * with `//` line comments (and, here, `/ * ... * /` block comments too); a
 * value is a number, a name (letters, digits and _ - / . + ( ) { } ,), a
 * `{...}` list or a double-quoted string. Command-line overrides are the
 * same statements without the `;` ("num_vcs=4"). The last assignment of a
 * key wins, as in BookSim.
 *
 * The reader is bounded: a file of at most MPP_BOOKSIM_MAX_BYTES, at most
 * MPP_BOOKSIM_MAX_STMTS statements, keys of at most MPP_BOOKSIM_MAX_KEY and
 * values of at most MPP_BOOKSIM_MAX_VALUE bytes; a NUL byte is refused.
 * Errors are MPP_EINVAL "FILE:LINE:COL: what was expected" (exit status 2).
 *
 * mpp_booksim_experiment maps every key onto mppnet's experiment keys
 * (docs/booksim.md has the table): a key mppnet cannot honour, or a value
 * of it, is an error naming the key and what mppnet would need; keys
 * without an effect on results (print, watch and power options) are
 * accepted. Nothing here prints and nothing is on the hot path. */
#ifndef MPP_CORE_CONFIG_BOOKSIM_H
#define MPP_CORE_CONFIG_BOOKSIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/err.h"
#include "core/config/experiment.h"

#define MPP_BOOKSIM_MAX_BYTES (1u << 20) /* a BookSim example is about 3 KB */
#define MPP_BOOKSIM_MAX_STMTS 4096u
#define MPP_BOOKSIM_MAX_KEY 64u
#define MPP_BOOKSIM_MAX_VALUE 1024u

typedef struct mpp_booksim mpp_booksim;

/* What BookSim's run settings say beyond the experiment: used to print
 * BookSim's summary and to judge a run as BookSim would. */
typedef struct mpp_booksim_info {
    double latency_thres;     /* BookSim's latency_thres; < 0: none */
    uint32_t packet_flits;    /* packet_size */
    uint32_t sim_count;       /* runs averaged (the experiment's seeds) */
    bool include_queuing;     /* latency from creation (1) or from injection (0) */
    double injection_rate;    /* as written (packets or flits per node and cycle) */
    bool rate_in_flits;       /* injection_rate_uses_flits */
    uint64_t warmup, measure; /* the cycles the experiment warms up and measures */
} mpp_booksim_info;

/* True when text looks like a BookSim configuration rather than YAML: its
 * first statement (after blanks and comments) is `NAME =`. Never fails. */
bool mpp_booksim_detect(const char *text, size_t len);

/* Read len bytes of text (the file named origin, used in messages).
 * Returns the statements (owned by the caller, mpp_booksim_free), or NULL
 * with err set: MPP_EINVAL "ORIGIN:LINE:COL: ..." for a syntax error, a
 * NUL byte or a bound passed; MPP_ENOMEM. */
mpp_booksim *mpp_booksim_parse(const char *text, size_t len, const char *origin, mpp_err *err);

/* Read the BookSim file at path (a regular file of at most
 * MPP_BOOKSIM_MAX_BYTES) as mpp_booksim_parse does. MPP_EIO when it cannot
 * be read. */
mpp_booksim *mpp_booksim_load(const char *path, mpp_err *err);

/* Apply a command-line override "key=value" (BookSim's own syntax): it
 * wins over the file's statements. 0, or MPP_EINVAL "command line: TEXT:
 * ..." for a malformed one; MPP_ENOMEM. */
int mpp_booksim_override(mpp_booksim *b, const char *assignment, mpp_err *err);

/* The mppnet experiment of the statements: one run per sim_count (seeds
 * seed, seed + 1, ...), located at the BookSim statements (an error found
 * while resolving it names the statement's FILE:LINE:COL), and *info.
 * NULL with err set (MPP_EINVAL naming the BookSim key: unknown, a value
 * of the wrong type, or a key or value mppnet cannot honour, with what
 * mppnet would need). */
mpp_experiment *mpp_booksim_experiment(const mpp_booksim *b, mpp_booksim_info *info,
                                       mpp_err *err);

/* Free. NULL is a no-op. */
void mpp_booksim_free(mpp_booksim *b);

/* When key (the last component of a key path, or a whole override key) is
 * a BookSim key, the mppnet key path it corresponds to ("network.vcs" for
 * "num_vcs"), or a short note on what to do instead; else NULL. For the
 * "did you mean" hints of the experiment loader. */
const char *mpp_booksim_hint(const char *key);

#endif
