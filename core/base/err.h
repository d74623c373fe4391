/* core/base/err.h — error reporting shared by every module.
 *
 * Library code never prints and never exits: a function that can fail returns
 * 0 or a negative MPP_E* code and fills a caller-owned mpp_err with a message
 * that is ready to show to the user (it names the file:line:column or the
 * parameter at fault, and what was expected). Only main() turns codes into
 * exit statuses: MPP_EDEADLOCK and MPP_ERUN are "the run failed" (exit 1),
 * everything else is bad usage or input (exit 2). */
#ifndef MPP_CORE_BASE_ERR_H
#define MPP_CORE_BASE_ERR_H

#include <stdarg.h>

enum {
    MPP_OK = 0,
    MPP_EINVAL = -1,    /* bad configuration or argument */
    MPP_ENOMEM = -2,    /* allocation failed */
    MPP_EIO = -3,       /* file could not be opened, read or written */
    MPP_EFORMAT = -4,   /* malformed input file */
    MPP_EDEADLOCK = -5, /* the watchdog stopped a run that made no progress */
    MPP_ERUN = -6       /* a run failed for another reason (e.g. a pool ran out) */
};

typedef struct mpp_err {
    int code;
    char msg[512];
} mpp_err;

/* Fill err (which may be NULL) with code and a printf-style message; returns
 * code so callers can write `return mpp_err_set(err, MPP_EINVAL, ...)`. */
int mpp_err_set(mpp_err *err, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* As mpp_err_set with a va_list. */
int mpp_err_setv(mpp_err *err, int code, const char *fmt, va_list ap);

/* Prepend "prefix: " to an existing message (e.g. the file name). */
void mpp_err_prefix(mpp_err *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Clear err to MPP_OK and an empty message. */
void mpp_err_clear(mpp_err *err);

/* The process exit status for code: 0, 1 (run failed) or 2 (bad input). */
int mpp_err_exit_status(int code);

#endif
