/* core/base/err.c — the mpp_err helpers (see err.h). Messages are truncated, never
 * overflowed, at sizeof msg; a cut message ends in "..." (on a whole UTF-8
 * character), so a reader sees that something is missing. Messages quote
 * user text with a bound (%.80s), so a cut is rare. */
#include "core/base/err.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* End a message that did not fit in msg[size] with "...". */
static void mark_cut(char *msg, size_t size)
{
    size_t n = size - 4;
    while (n > 0 && ((unsigned char)msg[n] & 0xc0) == 0x80)
        n--; /* not inside a UTF-8 character */
    memcpy(msg + n, "...", 4);
}

int mpp_err_setv(mpp_err *err, int code, const char *fmt, va_list ap)
{
    if (err) {
        err->code = code;
        int n = vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        if (n >= (int)sizeof err->msg)
            mark_cut(err->msg, sizeof err->msg);
    }
    return code;
}

int mpp_err_set(mpp_err *err, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    mpp_err_setv(err, code, fmt, ap);
    va_end(ap);
    return code;
}

void mpp_err_prefix(mpp_err *err, const char *fmt, ...)
{
    if (!err)
        return;
    char pre[256], old[sizeof err->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pre, sizeof pre, fmt, ap);
    va_end(ap);
    memcpy(old, err->msg, sizeof old);
    /* pre + ": " + old, truncated to fit */
    size_t cap = sizeof err->msg - 1, n = 0;
    bool cut = false;
    for (const char *parts[3] = {pre, ": ", old}, **p = parts; p < parts + 3; p++)
        for (const char *c = *p; *c; c++) {
            if (n == cap) {
                cut = true;
                break;
            }
            err->msg[n++] = *c;
        }
    err->msg[n] = '\0';
    if (cut)
        mark_cut(err->msg, sizeof err->msg);
}

void mpp_err_clear(mpp_err *err)
{
    if (err) {
        err->code = MPP_OK;
        err->msg[0] = '\0';
    }
}

int mpp_err_exit_status(int code)
{
    if (code == MPP_OK)
        return 0;
    if (code == MPP_EDEADLOCK || code == MPP_ERUN)
        return 1;
    return 2;
}
