/* core/cli/store.c — the output folder of `mppnet run` and `mppnet merge`
 * (see store.h): its lock, the experiment's copy and the run records.
 *
 * DIR holds the result files and DIR/.mppnet/: a lock (flock'ed by the
 * command that owns the folder), `experiment` (the experiment's text,
 * path, overrides and, for a shard, which shard), and run-N.rec, one per
 * finished run (mpp_output_run_pack: the result, its arrays, its run
 * index and config hash, a CRC; written atomically and fsync'd).
 *
 * Invariants:
 *   1. Everything in the folder is reached through its descriptors, one
 *      entry at a time (mpp_file_*_at): nothing is read, written or removed
 *      through a symbolic link planted in it, and .mppnet is a real folder
 *      of this user.
 *   2. A record is trusted only after mpp_output_run_unpack has checked it
 *      and its run index matches its name; a run is read from the records
 *      only when its config hash is the experiment's now.
 *   3. Reading (mpp_store_get with `keep`) changes nothing in the folder. */
#include "core/cli/store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/file.h"
#include "core/base/units.h"
#include "core/cli/args.h"
#include "core/config/cfgtree.h"

/* What a run writes into its folder, and what a new run removes first. */
const char *const mpp_store_result_files[] = {"results.csv", "results.json", "channels.csv",
                                           "matrix.csv",  "messages.csv", "latency.gp",
                                           "latency.png", "plot.gp",     "plot.png",
                                           NULL};


/* Remove every entry of the open folder fd that `stale` picks (d: 0 the
 * output folder, 1 .mppnet); nothing is followed (unlinkat of a symlink
 * removes the link). */
static void clean_dir(int fd, int d)
{
    int lfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *dh = lfd >= 0 ? fdopendir(lfd) : NULL;
    if (!dh) {
        if (lfd >= 0)
            close(lfd);
        return;
    }
    struct dirent *de;
    while ((de = readdir(dh))) {
        const char *nm = de->d_name;
        bool stale = false;
        if (d == 1)
            stale = !strncmp(nm, "run-", 4) || !strncmp(nm, ".run-", 5) ||
                    !strncmp(nm, ".experiment.", 12) || !strcmp(nm, "stopped") ||
                    !strncmp(nm, ".stopped.", 9);
        for (size_t f = 0; !stale && d == 0 && mpp_store_result_files[f]; f++) {
            size_t n = strlen(mpp_store_result_files[f]);
            stale = nm[0] == '.' && !strncmp(nm + 1, mpp_store_result_files[f], n) && nm[1 + n] == '.';
        }
        if (stale)
            unlinkat(fd, nm, 0);
    }
    closedir(dh);
}

/* Remove dir's result files, their temporaries (".NAME.XXXXXX") and the
 * records of an earlier run. */
int mpp_store_clean(const mpp_store *st, mpp_err *err)
{
    for (size_t f = 0; mpp_store_result_files[f]; f++)
        if (unlinkat(st->dfd, mpp_store_result_files[f], 0) != 0 && errno != ENOENT)
            return mpp_err_set(err, MPP_EIO, "cannot remove %s/%s: %s", st->dir, mpp_store_result_files[f],
                               strerror(errno));
    clean_dir(st->dfd, 0);
    clean_dir(st->sfd, 1);
    return 0;
}

/* Open dir (created when missing; `confined`: walked without following a
 * symlink, for a folder named by the experiment file), then its .mppnet
 * (a real folder owned by this user, never a symlink), and take the
 * lock. `resume`: dir and its .mppnet must exist already (a folder that
 * holds no run is refused with nothing written into it). */
int mpp_store_open(mpp_store *st, const char *dir, bool confined, bool resume, mpp_err *err)
{
    memset(st, 0, sizeof *st);
    st->dfd = st->sfd = st->lock = -1;
    size_t n = strlen(dir);
    if (n == 0 || n >= 4000)
        return mpp_err_set(err, MPP_EINVAL, "the output folder '%.60s%s' is %s", dir,
                           n > 60 ? "..." : "", n ? "too long (at most 3999 bytes)" : "empty");
    snprintf(st->dir, sizeof st->dir, "%s", dir);
    snprintf(st->sub, sizeof st->sub, "%s/%s", dir, MPP_STORE_SUB);
    st->dfd = mpp_file_open_dir(dir, !resume, confined, err);
    if (st->dfd < 0) {
        int rc = st->dfd;
        st->dfd = -1;
        if (confined && rc == MPP_EINVAL) {
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%s", err->msg);
            mpp_err_set(err, MPP_EINVAL,
                        "%s; a folder named in the experiment file must lie inside the working "
                        "folder: give it on the command line (-o %s) to use it",
                        msg, dir);
        }
        return rc;
    }
    struct stat sb;
    if (resume && fstatat(st->dfd, MPP_STORE_SUB, &sb, AT_SYMLINK_NOFOLLOW) != 0 && errno == ENOENT)
        return mpp_err_set(err, MPP_EINVAL,
                           "%s holds no experiment to resume (no %s): it was not written by "
                           "`mppnet run`",
                           st->dir, st->sub); /* --resume writes nothing into a stranger */
    if (!resume && mkdirat(st->dfd, MPP_STORE_SUB, 0755) != 0 && errno != EEXIST)
        return mpp_err_set(err, MPP_EIO, "cannot create %s: %s", st->sub, strerror(errno));
    st->sfd = openat(st->dfd, MPP_STORE_SUB, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (st->sfd < 0 || fstat(st->sfd, &sb) != 0 || !S_ISDIR(sb.st_mode) ||
        sb.st_uid != getuid()) {
        int e = errno;
        bool link = fstatat(st->dfd, MPP_STORE_SUB, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(sb.st_mode);
        if (st->sfd >= 0)
            return mpp_err_set(err, MPP_EINVAL,
                               "%s belongs to user %lu, not to you (user %lu): mppnet keeps its "
                               "records only in a folder of your own; remove it, or write to "
                               "another folder with -o",
                               st->sub, (unsigned long)sb.st_uid, (unsigned long)getuid());
        return mpp_err_set(err, MPP_EINVAL, "%s is %s: mppnet keeps its records only in a real "
                                            "folder of its own; remove it, or write to another "
                                            "folder with -o",
                           st->sub,
                           link ? "a symbolic link"
                                : e == ENOTDIR ? "not a folder" : strerror(e));
    }
    st->lock = openat(st->sfd, "lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (st->lock < 0)
        return mpp_err_set(err, MPP_EIO, "cannot write in %s: %s", st->dir, strerror(errno));
    if (flock(st->lock, LOCK_EX | LOCK_NB) != 0) {
        close(st->lock);
        st->lock = -1;
        return mpp_err_set(err, MPP_EIO,
                           "%s is in use by another mppnet run (it holds %s/lock); wait for it, "
                           "or write to another folder with -o",
                           st->dir, st->sub);
    }
    return 0;
}

void mpp_store_close(mpp_store *st)
{
    if (st->lock >= 0)
        close(st->lock); /* releases the lock */
    if (st->sfd >= 0)
        close(st->sfd);
    if (st->dfd >= 0)
        close(st->dfd);
    st->lock = st->sfd = st->dfd = -1;
}

/* The experiment's copy: "mppnet-run 1\n", then fields "NAME LEN\n" and LEN
 * bytes and "\n": path, one override per field, text, and for a shard
 * "shard" with "I/N" (docs/formats.md, "The output folder"). */
static void put_field(mpp_sb *sb, const char *name, const char *data, size_t len)
{
    mpp_sb_printf(sb, "%s %zu\n", name, len);
    mpp_sb_addn(sb, data, len);
    mpp_sb_addc(sb, '\n');
}

int mpp_store_pack_experiment(mpp_sb *sb, const char *path, const char *text, size_t len,
                              size_t nov, char *const *ov, mpp_store_shard sh)
{
    mpp_sb_add(sb, "mppnet-run 1\n");
    put_field(sb, "path", path, strlen(path));
    for (size_t i = 0; i < nov; i++)
        put_field(sb, "override", ov[i], strlen(ov[i]));
    put_field(sb, "text", text, len);
    if (sh.n > 1) {
        char s[64];
        int n = snprintf(s, sizeof s, "%" PRIu64 "/%" PRIu64, sh.i, sh.n);
        put_field(sb, "shard", s, (size_t)n);
    }
    return mpp_sb_ok(sb) ? 0 : MPP_ENOMEM;
}

int mpp_store_save_experiment(const mpp_store *st, const char *path, const char *text,
                              size_t len, size_t nov, char *const *ov, mpp_store_shard sh,
                              mpp_err *err)
{
    mpp_sb sb;
    mpp_sb_init(&sb);
    int rc = mpp_store_pack_experiment(&sb, path, text, len, nov, ov, sh)
                 ? mpp_err_set(err, MPP_ENOMEM, "out of memory")
                 : mpp_file_write_atomic_at(st->sfd, st->sub, "experiment", sb.s, sb.len, true,
                                            err);
    mpp_sb_free(&sb);
    return rc;
}

void mpp_store_saved_free(mpp_store_saved *s)
{
    free(s->buf);
    free(s->ov);
    free(s->ovline);
    memset(s, 0, sizeof *s);
}

/* Parse the copy in out->buf (len bytes, NUL-terminated by the reader);
 * origin names it in the message. */
static int parse_copy(mpp_store_saved *out, size_t len, const char *origin, mpp_err *err)
{
    char *s = out->buf, *end = out->buf + len;
    out->shard = (mpp_store_shard){1, 1};
    out->ov = calloc(len / 10 + 1, sizeof *out->ov);
    out->ovline = calloc(len / 10 + 1, sizeof *out->ovline);
    if (!out->ov || !out->ovline || len < 13 || strncmp(s, "mppnet-run 1\n", 13))
        goto bad;
    s += 13;
    /* the line of the field's header, for the overrides' locations (the
     * parse below turns the headers' line breaks into NULs) */
    uint64_t line = 2;
    bool shard = false;
    while (s < end) {
        char *sp = memchr(s, ' ', (size_t)(end - s));
        if (!sp)
            goto bad;
        *sp = '\0';
        char *num = sp + 1, *nl = memchr(num, '\n', (size_t)(end - num));
        if (!nl)
            goto bad;
        *nl = '\0';
        uint64_t n;
        char *data = nl + 1;
        if (!mpp_units_u64(num, strlen(num), &n) || n > (uint64_t)(end - data) ||
            data + n >= end || data[n] != '\n')
            goto bad;
        data[n] = '\0';
        if (!strcmp(s, "path"))
            out->path = data;
        else if (!strcmp(s, "override")) {
            out->ovline[out->nov] = line + 1 > UINT32_MAX ? UINT32_MAX : (uint32_t)(line + 1);
            out->ov[out->nov++] = data;
        } else if (!strcmp(s, "text")) {
            out->text = data;
            out->text_len = (size_t)n;
        } else if (!strcmp(s, "shard") && !shard) {
            char *slash = memchr(data, '/', (size_t)n);
            uint64_t si, sn;
            if (!slash || !mpp_units_u64(data, (size_t)(slash - data), &si) ||
                !mpp_units_u64(slash + 1, strlen(slash + 1), &sn) || si < 1 || si > sn)
                goto bad;
            out->shard = (mpp_store_shard){si, sn};
            shard = true;
        } else
            goto bad;
        line += 2;
        for (const char *c = data; c < data + n; c++)
            line += *c == '\n';
        s = data + n + 1;
    }
    if (!out->path || !out->text)
        goto bad;
    return 0;
bad:
    mpp_store_saved_free(out);
    return mpp_err_set(err, MPP_EFORMAT, "%s: not an experiment copy of this mppnet", origin);
}

int mpp_store_load_experiment(const mpp_store *st, mpp_store_saved *out, mpp_err *err)
{
    memset(out, 0, sizeof *out);
    char p[4300];
    snprintf(p, sizeof p, "%s/experiment", st->sub);
    size_t len;
    if (mpp_file_read_at(st->sfd, st->sub, "experiment", MPP_CFGTREE_MAX_BYTES + (1u << 20),
                         &out->buf, &len, err)) {
        char why[sizeof err->msg]; /* err->msg is both the reason and the result */
        memcpy(why, err->msg, sizeof why);
        return mpp_err_set(err, MPP_EINVAL,
                           "%s holds no experiment to resume (%s): it was not written by "
                           "`mppnet run`, or by an older version",
                           st->dir, why);
    }
    return parse_copy(out, len, p, err);
}

int mpp_store_parse_experiment(const char *bytes, size_t len, const char *origin,
                               mpp_store_saved *out, mpp_err *err)
{
    memset(out, 0, sizeof *out);
    out->buf = malloc(len + 1);
    if (!out->buf)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    memcpy(out->buf, bytes, len);
    out->buf[len] = '\0';
    return parse_copy(out, len, origin, err);
}

int mpp_store_note_put(const mpp_store *st, const char *text, mpp_err *err)
{
    return mpp_file_write_atomic_at(st->sfd, st->sub, "stopped", text, strlen(text), false, err);
}

int mpp_store_note_take(const mpp_store *st, char **text, mpp_err *err)
{
    *text = NULL;
    struct stat sb;
    if (fstatat(st->sfd, "stopped", &sb, AT_SYMLINK_NOFOLLOW) != 0)
        return 0;
    size_t len;
    int rc = mpp_file_read_at(st->sfd, st->sub, "stopped", 1u << 20, text, &len, err);
    if (rc == MPP_EFORMAT) { /* not ours: larger than any report */
        *text = NULL;
        rc = 0;
    }
    if (rc)
        return rc;
    if (unlinkat(st->sfd, "stopped", 0) != 0 && errno != ENOENT) {
        free(*text);
        *text = NULL;
        return mpp_err_set(err, MPP_EIO, "cannot remove %s/stopped: %s", st->sub,
                           strerror(errno));
    }
    return 0;
}

/* Save run i's record (fsync'd: the durable copy of a finished run). */
int mpp_store_put(const mpp_store *st, size_t i, uint64_t hash, const mpp_output_run *r,
                  mpp_err *err)
{
    mpp_sb sb;
    mpp_sb_init(&sb);
    char name[64];
    snprintf(name, sizeof name, "run-%zu.rec", i);
    int rc = mpp_output_run_pack(r, i, hash, &sb)
                 ? mpp_err_set(err, MPP_ENOMEM, "out of memory")
                 : mpp_file_write_atomic_at(st->sfd, st->sub, name, sb.s, sb.len, true, err);
    mpp_sb_free(&sb);
    return rc;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* --resume: a damaged record (one that mpp_output_run_unpack refuses: its
 * checksum, its size, any field out of range; one larger than MPP_STORE_MAX_RECORD;
 * or one whose run index is not the one its name says) is never trusted and
 * never fatal: a warning names it and why, it is removed, and its run is
 * run again (with -q too: the folder held something mppnet did not write).
 * The first NOTE_MAX get a line each, the rest one line in all. Returns
 * 0, or MPP_EIO (a record that cannot be read or removed) or MPP_ENOMEM.
 * `keep` (merge): nothing is removed; MPP_EFORMAT naming the record. */
#define NOTE_MAX 10
static int store_damaged(const mpp_store *st, const char *nm, const char *p, uint64_t idx,
                         size_t nruns, const char *why, bool keep, size_t *ndamaged,
                         mpp_err *err)
{
    char w[sizeof err->msg]; /* why may be err->msg, which an error overwrites */
    snprintf(w, sizeof w, "%s", why);
    if (keep)
        return mpp_err_set(err, MPP_EFORMAT,
                           "%s is damaged (%s): `mppnet run --resume %s` removes it and runs "
                           "run %" PRIu64 " again",
                           p, w, st->dir, idx);
    if (unlinkat(st->sfd, nm, 0) != 0 && errno != ENOENT)
        return mpp_err_set(err, MPP_EIO, "cannot remove the damaged record %s (%s): %s", p, w,
                           strerror(errno));
    if (++*ndamaged > NOTE_MAX)
        return 0;
    if (idx < nruns)
        mpp_args_eprintf("mppnet: warning: %s: %s; removed, run %" PRIu64 " is run again\n", p,
                         w, idx);
    else
        mpp_args_eprintf("mppnet: warning: %s: %s; removed (%s has %zu runs)\n", p, w,
                         st->dir, nruns);
    return 0;
}

/* Every record of st into runs[] (done set). A damaged record is removed
 * and its run left to run again (store_damaged), or refused with `keep`; a
 * sound record of a run that has another config hash in e now, or of a
 * run the experiment no longer has, makes it refuse, naming those runs (a
 * changed experiment: its records stay). */
int mpp_store_get(const mpp_store *st, const mpp_experiment *e, mpp_output_run *runs,
                  size_t nruns, bool keep, size_t *found, mpp_err *err)
{
    *found = 0;
    size_t nchanged = 0, *changed = NULL, capc = 0, ndamaged = 0;
    int lfd = openat(st->sfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *dh = lfd >= 0 ? fdopendir(lfd) : NULL;
    if (!dh) {
        int en = errno;
        if (lfd >= 0)
            close(lfd);
        return mpp_err_set(err, MPP_EIO, "cannot read %s: %s", st->sub, strerror(en));
    }
    int rc = 0;
    struct dirent *de;
    while (!rc && (de = readdir(dh))) {
        const char *nm = de->d_name;
        size_t nd = strspn(nm + 4, "0123456789");
        uint64_t idx;
        char canon[48];
        if (strncmp(nm, "run-", 4) || strcmp(nm + 4 + nd, ".rec") ||
            !mpp_units_u64(nm + 4, nd, &idx))
            continue;
        snprintf(canon, sizeof canon, "run-%" PRIu64 ".rec", idx);
        if (strcmp(nm, canon)) /* run-07.rec: not a name mppnet writes */
            continue;
        char p[4500];
        snprintf(p, sizeof p, "%s/%s", st->sub, nm);
        char *buf;
        size_t len;
        rc = mpp_file_read_at(st->sfd, st->sub, nm, MPP_STORE_MAX_RECORD, &buf, &len, err);
        if (rc == MPP_EFORMAT) { /* larger than any record */
            rc = store_damaged(st, nm, p, idx, nruns, err->msg, keep, &ndamaged, err);
            continue;
        }
        if (rc)
            break;
        uint64_t run, hash;
        mpp_output_run r;
        mpp_output_run_init(&r);
        rc = mpp_output_run_unpack(buf, len, &run, &hash, &r, err);
        free(buf);
        if (rc == MPP_EFORMAT) {
            rc = store_damaged(st, nm, p, idx, nruns, err->msg, keep, &ndamaged, err);
            continue;
        }
        if (rc) {
            mpp_err_prefix(err, "%s", p);
            break;
        }
        if (run != idx) { /* a sound record under another run's name */
            mpp_output_run_free(&r);
            char why[96];
            snprintf(why, sizeof why, "it holds run %" PRIu64 ", not the run of its name", run);
            rc = store_damaged(st, nm, p, idx, nruns, why, keep, &ndamaged, err);
            continue;
        }
        if (idx >= nruns || hash != mpp_experiment_hash(e, (size_t)idx)) {
            mpp_output_run_free(&r);
            if (nchanged == capc) {
                capc = capc ? 2 * capc : 16;
                size_t *g = realloc(changed, capc * sizeof *g);
                if (!g) {
                    rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
                    break;
                }
                changed = g;
            }
            changed[nchanged++] = (size_t)idx;
            continue;
        }
        mpp_output_run_free(&runs[idx]);
        runs[idx] = r;
        ++*found;
    }
    closedir(dh);
    if (!rc && ndamaged > NOTE_MAX)
        mpp_args_eprintf("mppnet: warning: %zu more damaged records in %s were removed; their "
                         "runs are run again\n",
                         ndamaged - NOTE_MAX, st->sub);
    if (!rc && nchanged) {
        qsort(changed, nchanged, sizeof *changed, cmp_size);
        mpp_sb list;
        mpp_sb_init(&list);
        for (size_t k = 0; k < nchanged && k < 12; k++)
            mpp_sb_printf(&list, "%s%zu", k ? ", " : "", changed[k]);
        rc = mpp_err_set(err, MPP_EINVAL,
                         "the experiment differs from the one %s was run with: %zu finished "
                         "run%s (%s%s) %s another configuration now (a changed config_hash); "
                         "resume with the same experiment, or run it into another folder",
                         st->dir, nchanged, nchanged == 1 ? "" : "s",
                         mpp_sb_ok(&list) ? list.s : "", nchanged > 12 ? ", ..." : "",
                         nchanged == 1 ? "has" : "have");
        mpp_sb_free(&list);
    }
    free(changed);
    return rc;
}
