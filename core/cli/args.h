/* core/cli/args.h — the command line of every command (mpp_args_*): one
 * parser (getopt_long: `-oDIR`, `-o DIR`, `--output=DIR`, `--output DIR`,
 * `-q`, `--run=2` alike everywhere, options before or after the other
 * arguments, `--` ending the options), the usage-error and error printers,
 * numbers with units, the overrides (key.path=value) and the NAME:k=v
 * form of plug-in selectors. Front end: these print. */
#ifndef MPP_CORE_CLI_ARGS_H
#define MPP_CORE_CLI_ARGS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/err.h"
#include "core/base/strbuf.h"

/* Print "mppnet: CMD: MSG" (CMD may be NULL) and where the help is;
 * returns exit status 2. */
int mpp_args_usage(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Print "mppnet: MESSAGE" of err and return its exit status. */
int mpp_args_fail(const mpp_err *err);

/* Print a formatted message on stderr through the escaper (mpp_str_escape,
 * '\n' and '\t' kept): every control character of the text, whatever
 * argument it came from, appears as \xNN. The one way the command line
 * prints an error, a note or a report that may echo user input;
 * mpp_args_usage and mpp_args_fail print through it (a usage message is
 * one line: its '\n' are escaped too). */
void mpp_args_eprintf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* The non-option arguments of a command, in order. */
typedef struct mpp_args {
    size_t n;
    char **v;     /* pointers into argv */
} mpp_args;

/* The options of a command: getopt_long's table (the last entry zero),
 * each entry's `val` the code handed to on_opt. `-h` / `--help` is known
 * to every command (they print `help` and return 0 through *done). */
typedef int (*mpp_args_fn)(void *ud, int code, const char *arg);

/* Parse argv[1..argc-1] of command cmd (argv[0]): every option goes to
 * on_opt(ud, code, arg), which returns 0 or an exit status (after
 * printing); the other arguments are collected in *rest (free with
 * mpp_args_free). Returns 0, or 2 after printing a usage error (unknown
 * option, missing value), or what on_opt returned; *done is set when
 * --help was printed (then return 0 and stop). */
int mpp_args_parse(const char *cmd, int argc, char **argv, const struct option *opts,
                   const char *help, mpp_args_fn on_opt, void *ud, mpp_args *rest,
                   bool *done);
void mpp_args_free(mpp_args *a);

/* A command made of subcommands (`mppnet com gen ...`): run the one
 * argv[1] names with (argc - 1, argv + 1); with no argument print help on
 * stderr and return 2; `-h` / `--help` print it and return 0; anything
 * else is a usage error listing the valid names. */
typedef struct mpp_args_sub {
    const char *name;
    int (*fn)(int argc, char **argv);
} mpp_args_sub;
int mpp_args_dispatch(const char *cmd, const char *help, const mpp_args_sub *subs, size_t nsubs,
                      int argc, char **argv);

/* Print s on stdout through the escaper, on one line (its '\n' escaped
 * too): a name or a path that a result echoes (check's file name, a sweep
 * value in the summary table). */
void mpp_args_put_escaped(const char *s);

/* An option's number: a whole decimal in [lo, hi] (with units when bytes
 * is true: 2KiB), or a finite real. Print the usage error and return 2
 * when it is not. */
int mpp_args_u64(const char *cmd, const char *opt, const char *text, uint64_t lo, uint64_t hi,
                 bool bytes, uint64_t *out);
int mpp_args_double(const char *cmd, const char *opt, const char *text, double *out);

/* True for an override argument: key.path=value (not an option, a key
 * before the '='). */
bool mpp_args_is_override(const char *a);

#endif
