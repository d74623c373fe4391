/* core/cli/args.c — the command line of every command (see args.h). */
#include "core/cli/args.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/units.h"

/* Print "mppnet: " (with prefix) and text escaped (mpp_str_escape) with
 * multiline, then end (not escaped: our own text) on stderr. */
static void eprint(const char *text, bool multiline, const char *end)
{
    mpp_sb out;
    mpp_sb_init(&out);
    mpp_str_escape(&out, text, multiline);
    mpp_sb_add(&out, end);
    fputs(mpp_sb_ok(&out) ? out.s : "mppnet: out of memory (printing a message)\n", stderr);
    mpp_sb_free(&out);
}

void mpp_args_put_escaped(const char *s)
{
    mpp_sb out;
    mpp_sb_init(&out);
    mpp_str_escape(&out, s, false);
    fputs(mpp_sb_ok(&out) ? out.s : "?", stdout);
    mpp_sb_free(&out);
}

void mpp_args_eprintf(const char *fmt, ...)
{
    va_list ap, aq;
    va_start(ap, fmt);
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (buf)
        vsnprintf(buf, (size_t)n + 1, fmt, ap);
    va_end(ap);
    eprint(buf ? buf : "mppnet: out of memory (printing a message)\n", true, "");
    free(buf);
}

int mpp_args_usage(const char *cmd, const char *fmt, ...)
{
    char buf[1024], end[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0)
        buf[0] = '\0';
    /* one line: a newline in an argument is escaped too */
    fprintf(stderr, "mppnet: %s%s", cmd ? cmd : "", cmd ? ": " : "");
    snprintf(end, sizeof end, "\nsee 'mppnet %s%s--help'\n", cmd ? cmd : "", cmd ? " " : "");
    eprint(buf, false, end);
    return 2;
}

static int no_opt(void *ud, int code, const char *arg)
{
    (void)ud;
    (void)code;
    (void)arg;
    return 2;
}

int mpp_args_dispatch(const char *cmd, const char *help, const mpp_args_sub *subs, size_t nsubs,
                      int argc, char **argv)
{
    if (argc < 2) {
        fputs(help, stderr);
        return 2;
    }
    for (size_t i = 0; i < nsubs; i++)
        if (!strcmp(argv[1], subs[i].name))
            return subs[i].fn(argc - 1, argv + 1);
    if (argv[1][0] == '-') {
        /* an option of the command itself: only -h, --help */
        static const struct option none[] = {{NULL, 0, NULL, 0}};
        mpp_args rest;
        bool done;
        int st = mpp_args_parse(cmd, 2, argv, none, help, no_opt, NULL, &rest, &done);
        mpp_args_free(&rest);
        if (st || done)
            return st;
    }
    mpp_sb names;
    mpp_sb_init(&names);
    for (size_t i = 0; i < nsubs; i++)
        mpp_sb_printf(&names, "%s%s", i ? ", " : "", subs[i].name);
    int st = mpp_args_usage(cmd, "unknown command '%.40s', valid: %s", argv[1],
                            mpp_sb_ok(&names) && names.len ? names.s : "");
    mpp_sb_free(&names);
    return st;
}

int mpp_args_fail(const mpp_err *err)
{
    mpp_args_eprintf("mppnet: %s\n", err->msg[0] ? err->msg : "unknown error");
    return mpp_err_exit_status(err->code ? err->code : MPP_EINVAL);
}

void mpp_args_free(mpp_args *a)
{
    free(a->v);
    a->v = NULL;
    a->n = 0;
}

/* "unknown option '--x'", or "ambiguous option '--log' (--logx, --logy)"
 * when it abbreviates several (getopt_long reports both as '?'). */
static int unknown_long(const char *cmd, const char *a, const struct option *all)
{
    const char *name = a + 2;
    size_t n = strcspn(name, "=");
    char list[256] = "";
    size_t len = 0;
    int hits = 0;
    for (const struct option *o = all; a[0] == '-' && a[1] == '-' && n && o->name; o++)
        if (!strncmp(o->name, name, n) && len < sizeof list) {
            len += (size_t)snprintf(list + len, sizeof list - len, "%s--%s", hits ? ", " : "",
                                    o->name);
            hits++;
        }
    if (hits > 1)
        return mpp_args_usage(cmd, "ambiguous option '%.*s' (%s)", (int)(n + 2), a, list);
    return mpp_args_usage(cmd, "unknown option '%s'", a);
}

int mpp_args_parse(const char *cmd, int argc, char **argv, const struct option *opts,
                   const char *help, mpp_args_fn on_opt, void *ud, mpp_args *rest, bool *done)
{
    *done = false;
    rest->n = 0;
    rest->v = calloc((size_t)argc + 1, sizeof *rest->v);
    if (!rest->v)
        return mpp_args_usage(cmd, "out of memory");
    /* the short options of the table, with ':' for a value; "+" would stop
     * at the first non-option: options may follow the file instead */
    char shorts[128] = ":h";
    size_t k = 2;
    size_t nopt = 0;
    while (opts[nopt].name)
        nopt++;
    struct option *all = calloc(nopt + 2, sizeof *all);
    if (!all)
        return mpp_args_usage(cmd, "out of memory");
    memcpy(all, opts, nopt * sizeof *all);
    all[nopt] = (struct option){"help", no_argument, NULL, 'h'};
    for (size_t i = 0; i < nopt; i++)
        if (opts[i].val > 0 && opts[i].val < 128 && k + 3 < sizeof shorts) {
            shorts[k++] = (char)opts[i].val;
            if (opts[i].has_arg == required_argument)
                shorts[k++] = ':';
        }
    shorts[k] = '\0';
    int rc = 0;
    opterr = 0;
    optind = 0; /* a full reset of GNU getopt for every command */
    for (;;) {
        int li = -1;
        int c = getopt_long(argc, argv, shorts, all, &li);
        if (c == -1)
            break;
        if (c == 'h') {
            fputs(help, stdout);
            *done = true;
            break;
        }
        if (c == '?' || c == ':') {
            const char *a = argv[optind - 1];
            if (c == ':')
                rc = mpp_args_usage(cmd, "option %s needs a value", a);
            else if (optopt && !(a[0] == '-' && a[1] == '-'))
                rc = mpp_args_usage(cmd, "unknown option '-%c'", optopt);
            else
                rc = unknown_long(cmd, a, all);
            break;
        }
        if ((rc = on_opt(ud, c, optarg)))
            break;
    }
    if (!rc && !*done)
        for (int i = optind; i < argc; i++)
            rest->v[rest->n++] = argv[i];
    free(all);
    return rc;
}

int mpp_args_u64(const char *cmd, const char *opt, const char *text, uint64_t lo, uint64_t hi,
                 bool bytes, uint64_t *out)
{
    uint64_t v;
    if (mpp_units_int(text, bytes ? MPP_UNITS_BYTES : MPP_UNITS_PLAIN, 0, &v) != MPP_UNITS_OK ||
        v < lo || v > hi)
        return mpp_args_usage(cmd, "%s needs %s from %llu to %llu, not '%.80s'", opt,
                              bytes ? "a size" : "a whole number", (unsigned long long)lo,
                              (unsigned long long)hi, text);
    *out = v;
    return 0;
}

int mpp_args_double(const char *cmd, const char *opt, const char *text, double *out)
{
    if (!mpp_units_double(text, out))
        return mpp_args_usage(cmd, "%s needs a number, not '%.80s'", opt, text);
    return 0;
}

bool mpp_args_is_override(const char *a)
{
    const char *eq = strchr(a, '=');
    return a[0] != '-' && eq && eq != a;
}
