/* core/cli/store.h — the output folder of `mppnet run` (and of `mppnet
 * merge`): locked, with the experiment's copy and one durable record per
 * finished run (mpp_store_*). Front end: the warnings about damaged
 * records are printed here; everything else is reported through mpp_err. */
#ifndef MPP_CORE_CLI_STORE_H
#define MPP_CORE_CLI_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/err.h"
#include "core/cli/output.h"
#include "core/config/experiment.h"

#define MPP_STORE_SUB ".mppnet"         /* the records' folder inside DIR */
#define MPP_STORE_MAX_RECORD (1u << 31) /* bytes of one run record */

/* What a run writes into its folder, and what a new run removes first
 * (NULL-terminated). */
extern const char *const mpp_store_result_files[];

/* The open folder: everything in it is reached through its descriptors,
 * one entry at a time (mpp_file_*_at), so nothing is read, written or
 * removed through a symlink planted in it. Closed: every fd -1. */
typedef struct mpp_store {
    char dir[4096];       /* the folder's name, for messages */
    char sub[4200];       /* dir/.mppnet, for messages */
    int dfd;              /* the folder, O_DIRECTORY */
    int sfd;              /* dir/.mppnet, a real folder of ours */
    int lock;             /* the lock file, flock'ed */
} mpp_store;

/* Open dir (created when missing unless `existing`; `confined`: walked
 * without following a symlink, for a folder named by the experiment file),
 * then its .mppnet (a real folder owned by this user, never a symlink),
 * and take the lock (a folder in use by another command is refused).
 * `existing`: dir and its .mppnet must exist already (a folder that holds
 * no run is refused with nothing written into it). 0 or an MPP_E* code;
 * st is then closed or half open: mpp_store_close it in every case. */
int mpp_store_open(mpp_store *st, const char *dir, bool confined, bool existing, mpp_err *err);

/* Unlock and close (a closed store is a no-op). Cannot fail. */
void mpp_store_close(mpp_store *st);

/* Remove the folder's result files, their temporaries (".NAME.XXXXXX")
 * and the records of an earlier run. 0 or MPP_EIO. */
int mpp_store_clean(const mpp_store *st, mpp_err *err);

/* Which runs of the experiment a folder holds: every run (n = 1), or
 * shard i of n (1 <= i <= n): the runs whose index is i - 1 modulo n. */
typedef struct mpp_store_shard {
    uint64_t i, n;
} mpp_store_shard;

/* Is run `run` one of shard sh's? */
static inline bool mpp_store_shard_has(mpp_store_shard sh, size_t run)
{
    return sh.n <= 1 || (uint64_t)run % sh.n == sh.i - 1;
}

/* Write the experiment's copy (fsync'd): its path, overrides, text and,
 * when sh.n > 1, the shard. 0, MPP_ENOMEM or MPP_EIO. */
int mpp_store_save_experiment(const mpp_store *st, const char *path, const char *text,
                              size_t len, size_t nov, char *const *ov, mpp_store_shard sh,
                              mpp_err *err);

/* A loaded copy: pointers into buf, which it owns. */
typedef struct mpp_store_saved {
    char *buf;
    const char *path, *text;
    size_t text_len;
    size_t nov;
    char **ov;
    uint32_t *ovline;     /* [nov]: the line of each override in the copy */
    mpp_store_shard shard; /* {1, 1} when the copy names no shard */
} mpp_store_saved;

/* Read the folder's copy into *out (freed with mpp_store_saved_free). A
 * copy that is missing or malformed: MPP_EINVAL / MPP_EFORMAT, out empty. */
int mpp_store_load_experiment(const mpp_store *st, mpp_store_saved *out, mpp_err *err);
void mpp_store_saved_free(mpp_store_saved *s);

/* The copy's bytes as mpp_store_save_experiment writes them, appended to
 * out (what the MPI master sends its workers); 0 or MPP_ENOMEM. And the
 * parse of such bytes (len of them, copied) into *out: 0 or MPP_EFORMAT
 * (origin names them in the message) or MPP_ENOMEM. */
int mpp_store_pack_experiment(mpp_sb *out, const char *path, const char *text, size_t len,
                              size_t nov, char *const *ov, mpp_store_shard sh);
int mpp_store_parse_experiment(const char *bytes, size_t len, const char *origin,
                               mpp_store_saved *out, mpp_err *err);

/* Save run i's record (fsync'd: the durable copy of a finished run). 0,
 * MPP_ENOMEM or MPP_EIO. */
int mpp_store_put(const mpp_store *st, size_t i, uint64_t hash, const mpp_output_run *r,
                  mpp_err *err);

/* The report of how the last command in the folder stopped (an MPI job
 * that lost a rank), kept in .mppnet/stopped until the next command:
 * _put writes it (not fsync'd: it must be quick), _take reads it into
 * *text (malloc'd; NULL when there is none) and removes it. 0 or MPP_EIO /
 * MPP_ENOMEM. */
int mpp_store_note_put(const mpp_store *st, const char *text, mpp_err *err);
int mpp_store_note_take(const mpp_store *st, char **text, mpp_err *err);

/* Read every record of st into runs[] (nruns of them; done set) and count
 * them in *found. A sound record of a run that has another config hash in
 * e now, or of a run e does not have, makes it refuse, naming those runs.
 * A damaged record: `keep` false (--resume) removes it with a warning and
 * leaves its run to run again; `keep` true (merge, which changes nothing
 * in its inputs) refuses, naming it. 0 or an MPP_E* code; the runs read
 * stay in runs[] either way (the caller frees them). */
int mpp_store_get(const mpp_store *st, const mpp_experiment *e, mpp_output_run *runs,
                  size_t nruns, bool keep, size_t *found, mpp_err *err);

#endif
