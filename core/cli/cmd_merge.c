/* core/cli/cmd_merge.c — `mppnet merge DIR... -o OUT`: the folders of the
 * shards of one experiment joined into one folder (see cmd_merge.h,
 * docs/scaling.md).
 *
 *   parse args --bad--> usage error, exit 2
 *   each DIR: open and lock it (core/cli/store.c: it must hold a copy of an
 *       | experiment), load that copy as --resume does --error--> exit 2
 *   the same experiment? run count, every run's config hash and the
 *       | output files asked for, against the first DIR's --no--> exit 2
 *   each DIR's records (mpp_store_get, keeping a damaged one: an error)
 *       | into one array: a run found twice --> exit 2, naming both
 *   every run found? --no--> exit 2, naming the runs and their shards
 *   OUT: new (or an empty folder) --no--> exit 2
 *   write OUT.merge-XXXXXX beside it: .mppnet (the experiment's copy, a
 *       | record per run), results.csv, results.json and the files the
 *       | output section asks for; rename it to OUT --error--> removed, 2
 *
 * Invariants:
 *   1. The DIRs are only read (their lock is taken so that a shard still
 *      running is refused, not half read).
 *   2. OUT appears whole or not at all: everything is written under a
 *      temporary name in the same folder and renamed last.
 *   3. The files are those `mppnet run -j 1` of the whole experiment
 *      writes (the same writer, mpp_output_write_all, from the same
 *      records in run order), results.json's timing lines aside. */
#include "core/cli/cmd_merge.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/strbuf.h"
#include "core/cli/args.h"
#include "core/cli/cli.h"
#include "core/cli/output.h"
#include "core/cli/runner.h"
#include "core/cli/store.h"

static const char help_merge[] =
    "usage: mppnet merge DIR... -o OUT [-q]\n"
    "\n"
    "Join the output folders of the shards of one experiment (`mppnet run\n"
    "--shard I/N`, one folder per shard) into the new folder OUT, as one\n"
    "`mppnet run` of the whole experiment writes it: results.csv and\n"
    "results.json in run order (the same bytes as -j 1 but for results.json's\n"
    "timing lines), the channels, matrix and messages files the experiment\n"
    "asks for, and OUT/.mppnet with the experiment and every run's record\n"
    "(`mppnet run --resume OUT` finds it complete). No plot is drawn: `mppnet\n"
    "plot OUT/results.csv` draws one.\n"
    "\n"
    "The folders must hold the same experiment (the same runs with the same\n"
    "config_hash, as --resume checks) and, together, every run exactly once: a\n"
    "run missing (a shard not given, or not finished: `mppnet run --resume\n"
    "SHARD` finishes it) or found twice is an error naming it. The folders are\n"
    "only read. OUT must not exist (or be an empty folder); it is written under\n"
    "a temporary name beside it and renamed at the end, so it appears whole or\n"
    "not at all.\n"
    "\n"
    "options:\n"
    "  -o, --output OUT   the merged folder (required)\n"
    "  -q, --quiet        no note on stderr when done\n"
    "  -h, --help         show this help\n"
    "\n"
    "Exit status: 0 merged; 1 merged, and a run had failed (a deadlock: as\n"
    "`mppnet run` exits); 2 bad usage or input (nothing written).\n";

typedef struct merge_opts {
    const char *out;
    bool quiet;
} merge_opts;

static int merge_opt(void *ud, int code, const char *arg)
{
    merge_opts *o = ud;
    switch (code) {
    case 'o':
        if (!*arg)
            return mpp_args_usage("merge", "option -o needs a folder");
        o->out = arg;
        return 0;
    case 'q':
        o->quiet = true;
        return 0;
    }
    return 2;
}

static const struct option merge_options[] = {
    {"output", required_argument, NULL, 'o'},
    {"quiet", no_argument, NULL, 'q'},
    {NULL, 0, NULL, 0},
};

/* One input folder. */
typedef struct shard_dir {
    mpp_store st;
    mpp_store_saved copy;
    mpp_experiment *e;
} shard_dir;

/* Remove every plain entry of the open folder fd (our temporary's files). */
static void unlink_all(int fd)
{
    int lfd = dup(fd);
    DIR *dh = lfd >= 0 ? fdopendir(lfd) : NULL;
    if (!dh) {
        if (lfd >= 0)
            close(lfd);
        return;
    }
    struct dirent *de;
    while ((de = readdir(dh)))
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
            unlinkat(fd, de->d_name, 0);
    closedir(dh);
}

/* Remove the temporary folder tmp that merge made (its files, its .mppnet). */
static void remove_tmp(const char *tmp)
{
    int dfd = open(tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0)
        return;
    int sfd = openat(dfd, MPP_STORE_SUB, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sfd >= 0) {
        unlink_all(sfd);
        close(sfd);
        unlinkat(dfd, MPP_STORE_SUB, AT_REMOVEDIR);
    }
    unlink_all(dfd);
    close(dfd);
    rmdir(tmp);
}

/* Load the experiment of folder d (its copy, as --resume does). */
static int load_dir(shard_dir *d, const char *dir, mpp_err *err)
{
    struct stat sb;
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return mpp_err_set(err, MPP_EINVAL, "%s is not a folder of `mppnet run`", dir);
    int rc = mpp_store_open(&d->st, dir, false, true, err);
    if (!rc)
        rc = mpp_store_load_experiment(&d->st, &d->copy, err);
    if (rc)
        return rc;
    char origin[4400];
    snprintf(origin, sizeof origin, "%s/experiment", d->st.sub);
    mpp_override_file from = {origin, d->copy.nov, d->copy.ovline};
    d->e = mpp_experiment_load_text(d->copy.text, d->copy.text_len, d->copy.path, &from,
                                    d->copy.nov, (const char *const *)d->copy.ov, err);
    return d->e ? 0 : (err->code ? err->code : MPP_EINVAL);
}

/* Folder b holds the experiment of folder a (run count, config hashes,
 * the output files asked for)? 0 or MPP_EINVAL naming the difference. */
static int same_experiment(const shard_dir *a, const shard_dir *b, mpp_err *err)
{
    size_t na = mpp_experiment_runs(a->e), nb = mpp_experiment_runs(b->e);
    if (na != nb)
        return mpp_err_set(err, MPP_EINVAL,
                           "%s and %s hold different experiments: %zu runs against %zu", a->st.dir,
                           b->st.dir, na, nb);
    for (size_t i = 0; i < na; i++) {
        uint64_t ha = mpp_experiment_hash(a->e, i), hb = mpp_experiment_hash(b->e, i);
        if (ha == hb)
            continue;
        char d[256];
        mpp_run_describe(a->e, i, d, sizeof d);
        return mpp_err_set(err, MPP_EINVAL,
                           "%s and %s hold different experiments: %s has config_hash %016" PRIx64
                           " in the first and %016" PRIx64 " in the second",
                           a->st.dir, b->st.dir, d, ha, hb);
    }
    const mpp_output_config *oa = mpp_experiment_output(a->e), *ob = mpp_experiment_output(b->e);
    if (oa->per_channel != ob->per_channel || oa->traffic_matrix != ob->traffic_matrix ||
        oa->per_message != ob->per_message)
        return mpp_err_set(err, MPP_EINVAL,
                           "%s and %s record different files (output.per_channel, "
                           "output.traffic_matrix, output.per_message differ)",
                           a->st.dir, b->st.dir);
    return 0;
}

/* Which folder's shard holds run i (index into d), or -1 when none. */
static long shard_of(const shard_dir *d, size_t nd, size_t i)
{
    for (size_t k = 0; k < nd; k++)
        if (mpp_store_shard_has(d[k].copy.shard, i))
            return (long)k;
    return -1;
}

/* Every run found? MPP_EINVAL naming the first missing ones otherwise. */
static int check_missing(const shard_dir *d, size_t nd, const mpp_output_run *runs, size_t nruns,
                         mpp_err *err)
{
    size_t nmiss = 0, first = 0;
    for (size_t i = 0; i < nruns; i++)
        if (!runs[i].done && !nmiss++)
            first = i;
    if (!nmiss)
        return 0;
    mpp_sb sb;
    mpp_sb_init(&sb);
    size_t k = 0;
    for (size_t i = first; i < nruns && k < 8; i++) {
        if (runs[i].done)
            continue;
        mpp_sb_printf(&sb, "%s%zu", k++ ? ", " : "", i);
    }
    if (nmiss > k)
        mpp_sb_add(&sb, ", ...");
    char desc[256];
    mpp_run_describe(d[0].e, first, desc, sizeof desc);
    long s = shard_of(d, nd, first);
    char why[9000];
    const mpp_store_shard sh0 = d[0].copy.shard;
    if (s >= 0)
        snprintf(why, sizeof why,
                 "%s, of shard %" PRIu64 "/%" PRIu64 ", is not finished in %s (`mppnet run "
                 "--resume %s` runs it)",
                 desc, d[s].copy.shard.i, d[s].copy.shard.n, d[s].st.dir, d[s].st.dir);
    else if (sh0.n > 1)
        snprintf(why, sizeof why, "%s belongs to shard %zu/%" PRIu64 ", which is not among the "
                                  "folders",
                 desc, (size_t)(first % sh0.n) + 1, sh0.n);
    else
        snprintf(why, sizeof why, "%s is in none of the folders", desc);
    int rc = mpp_err_set(err, MPP_EINVAL, "%zu of %zu runs missing (run %s): %s", nmiss, nruns,
                         mpp_sb_ok(&sb) ? sb.s : "?", why);
    mpp_sb_free(&sb);
    return rc;
}

/* Write the merged folder to tmp (made by mkdtemp), shown as out. */
static int write_merged(const char *tmp, const char *out, const shard_dir *d0,
                        const mpp_output_run *runs, size_t nruns, mpp_err *err)
{
    mpp_store os;
    int rc = mpp_store_open(&os, tmp, false, false, err);
    if (!rc)
        rc = mpp_store_save_experiment(&os, d0->copy.path, d0->copy.text, d0->copy.text_len,
                                       d0->copy.nov, d0->copy.ov, (mpp_store_shard){1, 1}, err);
    for (size_t i = 0; !rc && i < nruns; i++)
        rc = mpp_store_put(&os, i, mpp_experiment_hash(d0->e, i), &runs[i], err);
    if (!rc)
        rc = mpp_output_write_all(os.dfd, out, mpp_cli_version(), d0->e, runs, nruns, true, err);
    mpp_store_close(&os);
    return rc;
}

/* The folder that holds path (for the temporary and its fsync). */
static void parent_of(const char *path, char *buf, size_t len)
{
    snprintf(buf, len, "%s", path);
    char *slash = strrchr(buf, '/');
    if (!slash)
        snprintf(buf, len, ".");
    else if (slash == buf)
        buf[1] = '\0';
    else
        *slash = '\0';
}

int mpp_cmd_merge(int argc, char **argv)
{
    merge_opts o = {0};
    mpp_args rest;
    bool done;
    int status = mpp_args_parse("merge", argc, argv, merge_options, help_merge, merge_opt, &o,
                                &rest, &done);
    if (status || done) {
        mpp_args_free(&rest);
        return status;
    }
    size_t nd = rest.n, nruns = 0;
    shard_dir *d = NULL;
    mpp_output_run *runs = NULL, *tmp = NULL;
    size_t *from = NULL;
    char out[4096], tdir[4200] = "";
    mpp_err err;
    mpp_err_clear(&err);
    if (!nd) {
        status = mpp_args_usage("merge", "no folder to merge (mppnet merge DIR... -o OUT)");
        goto end;
    }
    if (!o.out) {
        status = mpp_args_usage("merge", "missing -o OUT, the merged folder");
        goto end;
    }
    size_t ol = strlen(o.out);
    while (ol > 1 && o.out[ol - 1] == '/')
        ol--;
    if (ol >= 4000) {
        status = mpp_args_usage("merge", "the folder -o is too long (at most 3999 bytes)");
        goto end;
    }
    memcpy(out, o.out, ol);
    out[ol] = '\0';
    d = calloc(nd, sizeof *d);
    if (!d) {
        status = mpp_args_usage("merge", "out of memory");
        goto end;
    }
    for (size_t k = 0; k < nd; k++)
        d[k].st.dfd = d[k].st.sfd = d[k].st.lock = -1;

    /* each folder: its experiment, the same as the first's */
    for (size_t k = 0; k < nd; k++) {
        for (size_t j = 0; j < k; j++) {
            struct stat a, b;
            if (stat(rest.v[j], &a) == 0 && stat(rest.v[k], &b) == 0 && a.st_dev == b.st_dev &&
                a.st_ino == b.st_ino) {
                mpp_args_eprintf("mppnet: merge: %s and %s are the same folder: each shard once\n",
                                 rest.v[j], rest.v[k]);
                status = 2;
                goto end;
            }
        }
        if (load_dir(&d[k], rest.v[k], &err) || (k && same_experiment(&d[0], &d[k], &err))) {
            status = 2;
            mpp_args_fail(&err);
            goto end;
        }
    }
    nruns = mpp_experiment_runs(d[0].e);
    runs = calloc(nruns ? nruns : 1, sizeof *runs);
    tmp = calloc(nruns ? nruns : 1, sizeof *tmp);
    from = calloc(nruns ? nruns : 1, sizeof *from);
    if (!runs || !tmp || !from) {
        status = mpp_args_usage("merge", "out of memory");
        goto end;
    }

    /* the records: each run once */
    for (size_t k = 0; k < nd; k++) {
        size_t found;
        int rc = mpp_store_get(&d[k].st, d[0].e, tmp, nruns, true, &found, &err);
        for (size_t i = 0; i < nruns; i++) {
            if (!tmp[i].done)
                continue;
            if (!rc && runs[i].done) {
                char desc[256];
                mpp_run_describe(d[0].e, i, desc, sizeof desc);
                rc = mpp_err_set(&err, MPP_EINVAL,
                                 "%s is in both %s and %s: give each shard once", desc,
                                 d[from[i]].st.dir, d[k].st.dir);
            }
            if (!rc) {
                runs[i] = tmp[i]; /* moved */
                from[i] = k;
                mpp_output_run_init(&tmp[i]);
            }
            mpp_output_run_free(&tmp[i]);
        }
        if (rc) {
            status = 2;
            mpp_args_fail(&err);
            goto end;
        }
    }
    if (check_missing(d, nd, runs, nruns, &err)) {
        status = 2;
        mpp_args_fail(&err);
        goto end;
    }

    /* OUT: new, written whole under a temporary name */
    struct stat sb;
    if (lstat(out, &sb) == 0) {
        bool empty = false;
        if (S_ISDIR(sb.st_mode)) {
            DIR *dh = opendir(out);
            struct dirent *de;
            empty = dh != NULL;
            while (dh && (de = readdir(dh)))
                if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
                    empty = false;
            if (dh)
                closedir(dh);
        }
        if (!empty) {
            mpp_args_eprintf("mppnet: merge: %s exists and is not an empty folder: merge writes a "
                             "new folder; remove it or name another with -o\n",
                             out);
            status = 2;
            goto end;
        }
    } else if (errno != ENOENT) {
        mpp_args_eprintf("mppnet: merge: cannot use %s: %s\n", out, strerror(errno));
        status = 2;
        goto end;
    }
    char parent[4096];
    parent_of(out, parent, sizeof parent);
    if (mpp_output_mkdir_p(parent, &err)) {
        status = 2;
        mpp_args_fail(&err);
        goto end;
    }
    snprintf(tdir, sizeof tdir, "%s.merge-XXXXXX", out);
    if (!mkdtemp(tdir)) {
        mpp_args_eprintf("mppnet: merge: cannot create a folder beside %s: %s\n", out,
                         strerror(errno));
        tdir[0] = '\0';
        status = 2;
        goto end;
    }
    if (write_merged(tdir, out, &d[0], runs, nruns, &err)) {
        status = 2;
        mpp_args_fail(&err);
        goto end;
    }
    if (rename(tdir, out) != 0) {
        mpp_args_eprintf("mppnet: merge: cannot rename %s to %s: %s\n", tdir, out,
                         strerror(errno));
        status = 2;
        goto end;
    }
    tdir[0] = '\0'; /* it is OUT now */
    int pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (pfd >= 0) {
        (void)fsync(pfd); /* the rename, durable */
        close(pfd);
    }
    size_t nok = 0;
    for (size_t i = 0; i < nruns; i++) {
        if (runs[i].status == 0)
            nok++;
        int s = mpp_err_exit_status(runs[i].status);
        if (s > status)
            status = s;
    }
    if (!o.quiet)
        mpp_args_eprintf("mppnet: merged %zu runs of %zu folder%s into %s/ (%zu written, %zu "
                         "failed)\n",
                         nruns, nd, nd == 1 ? "" : "s", out, nok, nruns - nok);
end:
    if (tdir[0])
        remove_tmp(tdir);
    for (size_t k = 0; d && k < nd; k++) {
        mpp_store_close(&d[k].st);
        mpp_store_saved_free(&d[k].copy);
        mpp_experiment_destroy(d[k].e);
    }
    for (size_t i = 0; runs && i < nruns; i++)
        mpp_output_run_free(&runs[i]);
    free(runs);
    free(tmp);
    free(from);
    free(d);
    mpp_args_free(&rest);
    return status;
}
