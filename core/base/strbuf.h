/* core/base/strbuf.h — a growable string builder (mpp_sb_*), used to build
 * reports, JSON and CSV text before it is written in one piece. Functions
 * append and never fail visibly: on allocation failure the buffer is marked
 * failed (sb->failed) and further appends are ignored; callers check
 * mpp_sb_ok() once at the end. Not for the hot path. */
#ifndef MPP_CORE_BASE_STRBUF_H
#define MPP_CORE_BASE_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

#include "core/base/err.h"

typedef struct mpp_sb {
    char *s;      /* NUL-terminated text (never NULL after init) */
    size_t len;   /* bytes used, excluding the NUL */
    size_t cap;   /* bytes allocated */
    bool failed;  /* an allocation failed */
} mpp_sb;

void mpp_sb_init(mpp_sb *sb);
void mpp_sb_free(mpp_sb *sb);
void mpp_sb_reset(mpp_sb *sb);              /* empty it, keep the memory */
void mpp_sb_add(mpp_sb *sb, const char *s); /* append a string */
void mpp_sb_addn(mpp_sb *sb, const char *s, size_t n);
void mpp_sb_addc(mpp_sb *sb, char c);
void mpp_sb_printf(mpp_sb *sb, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Append s as a JSON string literal, quotes included. */
void mpp_sb_json_str(mpp_sb *sb, const char *s);
/* Append s for a terminal: every control character (a byte below 0x20,
 * and 0x7f) is written as \xNN, so that echoed user text (a YAML escape
 * such as "\e]0;...\a", a command-line argument) cannot move the cursor,
 * retitle the window or hide text. With multiline, '\n' and '\t' are kept
 * (a message of several lines); everything else, '\r' included, is
 * escaped; so are the C1 controls U+0080..U+009F and every byte that is
 * not part of well-formed UTF-8 (other UTF-8 text is kept). The one escaper of every
 * message that reaches the terminal (core/cli/args.h, mpp_args_eprintf). */
void mpp_str_escape(mpp_sb *sb, const char *s, bool multiline);
/* Append a double in a fixed, locale-independent, round-trippable form
 * ("%.17g" trimmed to the shortest that reads back; NaN/inf become null). */
void mpp_sb_double(mpp_sb *sb, double v);
static inline bool mpp_sb_ok(const mpp_sb *sb) { return !sb->failed; }
/* Move a composed message (which may be longer than err->msg) into err
 * with code, or MPP_ENOMEM when building it failed; frees sb; returns the
 * code set. */
int mpp_sb_to_err(mpp_sb *sb, mpp_err *err, int code);

#endif
