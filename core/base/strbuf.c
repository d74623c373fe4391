/* core/base/strbuf.c — growable string builder (see strbuf.h). Invariant:
 * s[len] == '\0' and len < cap whenever cap > 0. */
#include "core/base/strbuf.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char empty_string[1];

void mpp_sb_init(mpp_sb *sb)
{
    sb->s = empty_string;
    sb->len = 0;
    sb->cap = 0;
    sb->failed = false;
}

void mpp_sb_free(mpp_sb *sb)
{
    if (sb->cap)
        free(sb->s);
    mpp_sb_init(sb);
}

void mpp_sb_reset(mpp_sb *sb)
{
    sb->len = 0;
    if (sb->cap)
        sb->s[0] = '\0';
    sb->failed = false;
}

static bool grow(mpp_sb *sb, size_t extra)
{
    if (sb->failed)
        return false;
    if (sb->len + extra + 1 <= sb->cap)
        return true;
    size_t cap = sb->cap ? sb->cap : 64;
    while (cap < sb->len + extra + 1)
        cap *= 2;
    char *p = sb->cap ? realloc(sb->s, cap) : malloc(cap);
    if (!p) {
        sb->failed = true;
        return false;
    }
    if (!sb->cap)
        p[0] = '\0';
    sb->s = p;
    sb->cap = cap;
    return true;
}

void mpp_sb_addn(mpp_sb *sb, const char *s, size_t n)
{
    if (!grow(sb, n))
        return;
    memcpy(sb->s + sb->len, s, n);
    sb->len += n;
    sb->s[sb->len] = '\0';
}

void mpp_sb_add(mpp_sb *sb, const char *s) { mpp_sb_addn(sb, s, strlen(s)); }

void mpp_sb_addc(mpp_sb *sb, char c) { mpp_sb_addn(sb, &c, 1); }

void mpp_sb_printf(mpp_sb *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !grow(sb, (size_t)n)) {
        va_end(ap2);
        return;
    }
    vsnprintf(sb->s + sb->len, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    sb->len += (size_t)n;
}

/* The length of the UTF-8 character at s that a terminal shows as text (1
 * to 4), or 0: a control character (below 0x20 but for '\n' and '\t' with
 * multiline, 0x7f, a C1 control U+0080..U+009F) or a byte that does not
 * begin a well-formed UTF-8 sequence. */
static size_t printable_len(const unsigned char *s, bool multiline)
{
    unsigned char c = s[0];
    if (c < 0x80)
        return (c >= 0x20 && c != 0x7f) || (multiline && (c == '\n' || c == '\t')) ? 1 : 0;
    size_t n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    for (size_t k = 1; k < n; k++)
        if ((s[k] & 0xc0) != 0x80)
            return 0;
    if ((c == 0xc2 && s[1] < 0xa0) || (c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f) ||
        (c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] > 0x8f))
        return 0; /* a C1 control, an overlong form, a surrogate, beyond U+10FFFF */
    return n;
}

void mpp_str_escape(mpp_sb *sb, const char *s, bool multiline)
{
    const unsigned char *u = (const unsigned char *)s;
    while (*u) {
        size_t n = 0, k; /* the longest run of characters kept as they are */
        while (u[n] && (k = printable_len(u + n, multiline)) > 0)
            n += k;
        mpp_sb_addn(sb, (const char *)u, n);
        u += n;
        if (*u)
            mpp_sb_printf(sb, "\\x%02x", (unsigned)*u++);
    }
}

void mpp_sb_json_str(mpp_sb *sb, const char *s)
{
    mpp_sb_addc(sb, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            mpp_sb_addc(sb, '\\');
            mpp_sb_addc(sb, (char)c);
        } else if (c == '\n') {
            mpp_sb_add(sb, "\\n");
        } else if (c == '\t') {
            mpp_sb_add(sb, "\\t");
        } else if (c < 0x20) {
            mpp_sb_printf(sb, "\\u%04x", c);
        } else {
            mpp_sb_addc(sb, (char)c);
        }
    }
    mpp_sb_addc(sb, '"');
}

void mpp_sb_double(mpp_sb *sb, double v)
{
    if (!isfinite(v)) {
        mpp_sb_add(sb, "null");
        return;
    }
    char buf[40];
    for (int prec = 6; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    mpp_sb_add(sb, buf);
}

int mpp_sb_to_err(mpp_sb *sb, mpp_err *err, int code)
{
    int rc = mpp_sb_ok(sb) ? mpp_err_set(err, code, "%s", sb->s)
                           : mpp_err_set(err, MPP_ENOMEM, "out of memory");
    mpp_sb_free(sb);
    return rc;
}
