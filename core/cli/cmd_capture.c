/* core/cli/cmd_capture.c — `mppnet capture -o DIR [--] CMD ARGS...`: run an
 * unchanged MPI program with libmppcapture.so (traces/capture/mppcapture.c)
 * preloaded, so that each of its ranks writes its trace into DIR, then
 * check that the trace is complete (docs/capture.md, docs/cli.md).
 *
 *   mpp_cmd_capture: split argv at the command (the first argument that is
 *        |           not an option or an option's value, or after `--`),
 *        |           parse the options before it (getopt_long)
 *        |              --bad usage--> one line on stderr, exit 2
 *        |           find the library (build tree, then the install libdir)
 *        |              --not built / not found--> exit 2
 *        |           resolve CMD on PATH  --not found--> exit 2
 *        |           make DIR (refused when it exists and is not empty)
 *        |              --> exit 2
 *        v
 *   run_child: fork; the child sets LD_PRELOAD (before any earlier value)
 *        |     and MPPNET_CAPTURE_DIR=<absolute DIR> and execvp's CMD; the
 *        |     parent ignores SIGINT and SIGQUIT while it waits (as system()
 *        |     does: the program gets them and decides)
 *        v
 *   check_dir: capture.mpt's `ranks N`, then rank-R.mpt.gz (or rank-R.mpt)
 *        |     for R < N; what is missing is named
 *        v
 *   exit 0 "captured N ranks into DIR"; 1 when the program failed (its
 *   status or signal is reported) or the trace is incomplete.
 *
 * Invariants:
 *   1. Every check of the command line, the library and the command is made
 *      before DIR is created: a refused command leaves nothing behind.
 *   2. The program is never run through a shell: its arguments reach it as
 *      given.
 *   3. stdout carries only the result line; everything else is on stderr. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "core/cli/cmd_capture.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/base/err.h"
#include "core/base/file.h"
#include "core/base/strbuf.h"
#include "core/cli/args.h"

#define CMD "capture"
#define LIBNAME "libmppcapture.so"
#define META_MAX (1u << 20) /* capture.mpt: a few lines; 1 MiB is plenty */
#define SHOW_MISSING 8      /* missing rank files named before "and N more" */

static const char help_capture[] =
    "usage: mppnet capture -o DIR [--] CMD [ARGS...]\n"
    "\n"
    "Run an MPI program with the capture library (libmppcapture.so) preloaded,\n"
    "so that every rank writes its calls into DIR (docs/capture.md), e.g.\n"
    "  mppnet capture -o cap -- mpirun -np 8 ./prog ARGS\n"
    "CMD is run directly (execvp, no shell) with LD_PRELOAD and\n"
    "MPPNET_CAPTURE_DIR set in its environment. Afterwards DIR must hold\n"
    "capture.mpt and one rank-R.mpt.gz per rank; what is missing is named.\n"
    "Prints \"captured N ranks into DIR\". The program must use the MPI that\n"
    "mppnet was built with (C bindings).\n"
    "\n"
    "options:\n"
    "  -o, --output DIR  the capture folder: created, or an empty one\n"
    "  -h, --help        show this help\n"
    "\n"
    "Exit status: 0 captured, 1 the program failed or the trace is incomplete,\n"
    "2 bad usage or input (DIR not empty, CMD not found, MPI support not built).\n";

static const struct option capture_options[] = {
    {"output", required_argument, NULL, 'o'},
    {NULL, 0, NULL, 0},
};

static int capture_opt(void *ud, int code, const char *arg)
{
    *(const char **)ud = arg; /* -o DIR, the only option */
    return 0;
}

/* The index of the command in argv: after `--`, else the first argument
 * that is neither an option nor the value of -o/--output; argc when none. */
static int command_index(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--"))
            return i + 1;
        if (!strcmp(a, "-o") || !strcmp(a, "--output") ||
            (strlen(a) > 2 && !strncmp("--output", a, strlen(a)) && !strchr(a, '=')))
            i++; /* its value follows (an abbreviation such as --out too) */
        else if (a[0] != '-' || !a[1])
            return i;
    }
    return argc;
}

/* The capture library: <exe dir>/traces/capture/libmppcapture.so in a build
 * tree, else the install libdir. Returns a malloc'd absolute path, or NULL
 * after printing why (exit status 2). */
static char *find_library(void)
{
#ifndef MPP_HAVE_MPI
    mpp_args_eprintf("mppnet: " CMD ": MPI support was not built: no MPI was found when "
                     "mppnet was configured (install libopenmpi-dev and openmpi-bin, then "
                     "rebuild; docs/capture.md)\n");
    return NULL;
#else
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    mpp_sb tried;
    mpp_sb_init(&tried);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            char *p = malloc(strlen(exe) + 64);
            if (p) {
                sprintf(p, "%s/traces/capture/" LIBNAME, exe);
                if (access(p, R_OK) == 0) {
                    mpp_sb_free(&tried);
                    return p;
                }
                mpp_sb_printf(&tried, "%s", p);
                free(p);
            }
        }
    }
#ifdef MPP_CAPTURE_LIBDIR
    char *p = malloc(strlen(MPP_CAPTURE_LIBDIR) + 64);
    if (p) {
        sprintf(p, "%s/" LIBNAME, MPP_CAPTURE_LIBDIR);
        if (access(p, R_OK) == 0) {
            mpp_sb_free(&tried);
            return p;
        }
        mpp_sb_printf(&tried, "%s%s", tried.len ? ", " : "", p);
        free(p);
    }
#endif
    mpp_args_eprintf("mppnet: " CMD ": cannot find the capture library " LIBNAME
                     " (looked for %s): build it (ninja -C BUILD) or install it\n",
                     mpp_sb_ok(&tried) && tried.len ? tried.s : "it");
    mpp_sb_free(&tried);
    return NULL;
#endif
}

/* True when cmd names an executable file: as a path when it holds a '/',
 * else in a folder of $PATH (as execvp looks). */
static bool command_exists(const char *cmd)
{
    struct stat st;
    if (strchr(cmd, '/'))
        return stat(cmd, &st) == 0 && S_ISREG(st.st_mode) && access(cmd, X_OK) == 0;
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    size_t cl = strlen(cmd);
    while (*path) {
        size_t dl = strcspn(path, ":");
        char *p = malloc(dl + cl + 3);
        if (!p)
            return true; /* let execvp decide */
        snprintf(p, dl + cl + 3, "%.*s%s%s", (int)dl, path, dl ? "/" : "./", cmd);
        bool ok = stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
        free(p);
        if (ok)
            return true;
        path += dl;
        if (*path == ':')
            path++;
    }
    return false;
}

/* Make the capture folder: create it, or accept an existing empty folder.
 * Returns its absolute path (malloc'd) or NULL after printing why. */
static char *make_dir(const char *dir)
{
    if (mkdir(dir, 0755) != 0) {
        int e = errno;
        struct stat st;
        if (e != EEXIST || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
            mpp_args_eprintf("mppnet: " CMD ": cannot create the folder %s: %s\n", dir,
                             e == EEXIST ? "it exists and is not a folder" : strerror(e));
            return NULL;
        }
        DIR *d = opendir(dir);
        if (!d) {
            mpp_args_eprintf("mppnet: " CMD ": cannot open the folder %s: %s\n", dir,
                             strerror(errno));
            return NULL;
        }
        struct dirent *de;
        bool empty = true;
        while (empty && (de = readdir(d)))
            empty = !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..");
        closedir(d);
        if (!empty) {
            mpp_args_eprintf("mppnet: " CMD ": %s exists and is not empty: give a new or an "
                             "empty folder (a capture never mixes with other files)\n",
                             dir);
            return NULL;
        }
    }
    char *abs = realpath(dir, NULL);
    if (!abs)
        mpp_args_eprintf("mppnet: " CMD ": cannot resolve the folder %s: %s\n", dir,
                         strerror(errno));
    return abs;
}

/* Run argv[0..] in a child with the library preloaded and the capture
 * folder in its environment; *status gets its wait status. Returns false
 * (after printing) when it could not be started. */
static bool run_child(char **argv, const char *lib, const char *dir, int *status)
{
    const char *old = getenv("LD_PRELOAD");
    size_t n = strlen(lib) + (old ? strlen(old) : 0) + 2;
    char *preload = malloc(n);
    if (!preload) {
        mpp_args_eprintf("mppnet: " CMD ": out of memory\n");
        return false;
    }
    snprintf(preload, n, "%s%s%s", lib, old && *old ? ":" : "", old && *old ? old : "");
    struct sigaction ign = {.sa_handler = SIG_IGN}, oint, oquit;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGINT, &ign, &oint);
    sigaction(SIGQUIT, &ign, &oquit);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        sigaction(SIGINT, &oint, NULL);
        sigaction(SIGQUIT, &oquit, NULL);
        if (setenv("LD_PRELOAD", preload, 1) != 0 || setenv("MPPNET_CAPTURE_DIR", dir, 1) != 0)
            _exit(127);
        execvp(argv[0], argv);
        int e = errno;
        mpp_args_eprintf("mppnet: " CMD ": cannot run %s: %s\n", argv[0], strerror(e));
        _exit(127);
    }
    free(preload);
    bool ok = pid > 0;
    if (!ok)
        mpp_args_eprintf("mppnet: " CMD ": cannot start %s: %s\n", argv[0], strerror(errno));
    while (ok && waitpid(pid, status, 0) < 0)
        if (errno != EINTR) {
            mpp_args_eprintf("mppnet: " CMD ": lost %s: %s\n", argv[0], strerror(errno));
            ok = false;
        }
    sigaction(SIGINT, &oint, NULL);
    sigaction(SIGQUIT, &oquit, NULL);
    return ok;
}

/* True when dir/name is a regular file. */
static bool has_file(const char *dir, const char *name)
{
    char p[PATH_MAX];
    struct stat st;
    return (size_t)snprintf(p, sizeof p, "%s/%s", dir, name) < sizeof p && stat(p, &st) == 0 &&
           S_ISREG(st.st_mode);
}

/* The rank count of dir/capture.mpt (its `ranks N` line), or 0 when the
 * file is missing or has no such line (why in *why). */
static uint64_t meta_ranks(const char *dir, const char **why)
{
    char p[PATH_MAX];
    if ((size_t)snprintf(p, sizeof p, "%s/capture.mpt", dir) >= sizeof p) {
        *why = "no capture.mpt";
        return 0;
    }
    char *data = NULL;
    size_t len = 0;
    mpp_err err;
    mpp_err_clear(&err);
    if (!has_file(dir, "capture.mpt") || mpp_file_read(p, META_MAX, &data, &len, &err) != 0) {
        *why = "no capture.mpt (rank 0 did not reach MPI_Finalize, or the program is not an "
               "MPI program using the MPI that libmppcapture.so was built with)";
        return 0;
    }
    uint64_t n = 0;
    for (char *l = data; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        unsigned long long v;
        char end;
        if (sscanf(l, "ranks %llu%c", &v, &end) == 2 && end == '\n' && v >= 1 && v <= (1u << 20)) {
            n = v;
            break;
        }
    }
    free(data);
    if (!n)
        *why = "capture.mpt has no line `ranks N`";
    return n;
}

/* Check the capture folder after the run: capture.mpt and a file per rank.
 * Returns the rank count, or 0 after printing what is missing. */
static uint64_t check_dir(const char *dir)
{
    const char *why = NULL;
    uint64_t n = meta_ranks(dir, &why);
    if (!n) {
        mpp_args_eprintf("mppnet: " CMD ": the trace in %s is incomplete: %s\n", dir, why);
        return 0;
    }
    mpp_sb miss;
    mpp_sb_init(&miss);
    uint64_t nmiss = 0, unfinished = 0;
    for (uint64_t r = 0; r < n; r++) {
        char gz[64], plain[64], part[64];
        snprintf(gz, sizeof gz, "rank-%llu.mpt.gz", (unsigned long long)r);
        snprintf(plain, sizeof plain, "rank-%llu.mpt", (unsigned long long)r);
        snprintf(part, sizeof part, ".rank-%llu.mpt.gz.part", (unsigned long long)r);
        if (has_file(dir, gz) || has_file(dir, plain))
            continue;
        unfinished += has_file(dir, part);
        if (nmiss++ < SHOW_MISSING)
            mpp_sb_printf(&miss, "%s%s", nmiss > 1 ? ", " : "", gz);
    }
    if (nmiss) {
        if (nmiss > SHOW_MISSING)
            mpp_sb_printf(&miss, " and %llu more", (unsigned long long)(nmiss - SHOW_MISSING));
        mpp_args_eprintf("mppnet: " CMD ": the trace in %s is incomplete: %llu of %llu ranks "
                         "wrote no trace (%s)%s\n",
                         dir, (unsigned long long)nmiss, (unsigned long long)n,
                         mpp_sb_ok(&miss) ? miss.s : "",
                         unfinished ? ": they did not reach MPI_Finalize" : "");
        mpp_sb_free(&miss);
        return 0;
    }
    mpp_sb_free(&miss);
    return n;
}

int mpp_cmd_capture(int argc, char **argv)
{
    int at = command_index(argc, argv);
    const char *out = NULL;
    mpp_args rest;
    bool done;
    int st = mpp_args_parse(CMD, at, argv, capture_options, help_capture, capture_opt, &out,
                            &rest, &done);
    size_t extra = rest.n;
    mpp_args_free(&rest);
    if (st || done)
        return st;
    if (extra) /* cannot happen: the command starts at the first non-option */
        return mpp_args_usage(CMD, "unexpected argument before the command");
    if (!out)
        return mpp_args_usage(CMD, "needs -o DIR, the capture folder");
    if (!*out)
        return mpp_args_usage(CMD, "-o needs a folder name, not ''");
    if (at >= argc)
        return mpp_args_usage(CMD, "needs the command to run (mppnet capture -o DIR -- "
                                   "mpirun -np N PROG ARGS)");
    char **cmd = argv + at;
    char *lib = find_library();
    if (!lib)
        return 2;
    if (!command_exists(cmd[0])) {
        mpp_args_eprintf("mppnet: " CMD ": command not found: %s\n", cmd[0]);
        free(lib);
        return 2;
    }
    char *dir = make_dir(out);
    if (!dir) {
        free(lib);
        return 2;
    }
    int status = 0;
    bool ran = run_child(cmd, lib, dir, &status);
    free(lib);
    int rc = 0;
    if (!ran) {
        rc = 1;
    } else if (WIFSIGNALED(status)) {
        mpp_args_eprintf("mppnet: " CMD ": %s was killed by signal %d\n", cmd[0],
                         WTERMSIG(status));
        rc = 1;
    } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
        mpp_args_eprintf("mppnet: " CMD ": %s failed with exit status %d\n", cmd[0],
                         WEXITSTATUS(status));
        rc = 1;
    }
    uint64_t n = ran ? check_dir(dir) : 0;
    if (!n)
        rc = 1;
    else if (!rc) {
        printf("captured %llu ranks into ", (unsigned long long)n);
        mpp_args_put_escaped(dir);
        putchar('\n');
    }
    free(dir);
    return rc;
}
