/* traces/lineio.c — the line reader of the file formats in traces/ (see
 * lineio.h): plain files are read as they are; a file that starts with the
 * gzip magic bytes is inflated with zlib, member after member.
 *
 * A reader holds the file and a buffer buf[0, cap) whose bytes
 * buf[start, end) are read but not yet returned. mpp_lines_next() looks for
 * the next '\n' there; when there is none, fill() compacts the buffer and
 * reads more (raw bytes from the file go through raw[0, CHUNK) and zlib's
 * stream). Corrupt and truncated gzip data, and bytes after the last gzip
 * member that do not start another one, are errors as soon as they are
 * seen (never silently short or ignored input), reported at the line being
 * read.
 *
 * Invariants:
 *   1. buf[start, start + scanned) holds no '\n' and no NUL: the bytes of the
 *      current line already searched are not searched again after a fill.
 *   2. end < cap: there is always room for the NUL after a last line that
 *      has no '\n'.
 *   3. With a limit, the pending line is at most max_len + 1 bytes (a CR may
 *      follow the longest line) when fill() runs, so cap = CHUNK + max_len
 *      + 2 always leaves a whole CHUNK to read into; without one the buffer
 *      doubles when less than a CHUNK is free.
 *   4. line is the number of lines returned; errors about input not yet
 *      returned name line + 1. */
#include "traces/lineio.h"

#include "core/base/file.h"
#include "core/base/strbuf.h"
#include "core/base/units.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define CHUNK 65536           /* bytes per read() of the file */
#define FIRST_LINE 4096       /* initial room for a line without a limit */
#define MAX_READ (1u << 30)   /* most text per fill (zlib's counts are 32-bit) */
#define DEFLATE_RATIO 1032    /* deflate's largest expansion (zlib's technical notes) */

struct mpp_lines {
    size_t max_len;           /* longest line accepted; 0: any */
    mpp_err *err;             /* where errors go (may be NULL) */
    int fd;
    bool gzip;                /* the file starts with the gzip magic bytes */
    bool zinit;               /* zs is initialised */
    bool member_end;          /* inflate ended a gzip member */
    bool raw_eof;             /* read() returned 0 */
    z_stream zs;              /* its next_in/avail_in: unconsumed bytes of raw */
    unsigned char *raw;       /* [CHUNK] bytes read from the file */
    uint64_t raw_read;        /* bytes read from the file so far */
    char *buf;                /* [cap] */
    size_t cap, start, end;   /* unreturned bytes buf[start, end) */
    size_t scanned;           /* invariant 1 */
    int eof;                  /* no more text */
    uint64_t line;            /* number of the last line returned */
    uint64_t size;            /* the file's size in bytes */
    uint64_t total;           /* bytes of text read so far */
    char path[];              /* copy of the path */
};

/* Read more of the file into raw when zlib's input is used up. */
static int read_raw(mpp_lines *r)
{
    if (r->zs.avail_in || r->raw_eof)
        return 0;
    ssize_t n;
    do
        n = read(r->fd, r->raw, CHUNK);
    while (n < 0 && errno == EINTR);
    if (n < 0)
        return mpp_err_set(r->err, MPP_EIO, "cannot read %s: %s", r->path, strerror(errno));
    if (n == 0)
        r->raw_eof = true;
    r->zs.next_in = r->raw;
    r->zs.avail_in = (uInt)n;
    r->raw_read += (uint64_t)n;
    return 0;
}

/* Up to room bytes of text into dst; *got = 0 only at the end. */
static int get_text(mpp_lines *r, char *dst, size_t room, size_t *got)
{
    *got = 0;
    int rc;
    if (!r->gzip) {
        if ((rc = read_raw(r)))
            return rc;
        size_t n = r->zs.avail_in < room ? r->zs.avail_in : room;
        memcpy(dst, r->zs.next_in, n);
        r->zs.next_in += n;
        r->zs.avail_in -= (uInt)n;
        *got = n;
        return 0;
    }
    r->zs.next_out = (unsigned char *)dst;
    r->zs.avail_out = (uInt)room;
    for (;;) {
        if ((rc = read_raw(r)))
            return rc;
        if (r->member_end) {
            if (!r->zs.avail_in) /* the end of the file after a whole member */
                return 0;
            /* another member must follow (what gzip -c a b > c writes) */
            if (r->zs.next_in[0] != 0x1f || (r->zs.avail_in > 1 && r->zs.next_in[1] != 0x8b))
                return mpp_lines_error(r, r->line + 1,
                                       "data after the end of the gzip stream (at byte %" PRIu64
                                       " of the file): not one gzip file",
                                       r->raw_read - r->zs.avail_in);
            inflateReset(&r->zs);
            r->member_end = false;
        }
        int zr = inflate(&r->zs, Z_NO_FLUSH);
        *got = room - r->zs.avail_out;
        if (zr == Z_STREAM_END)
            r->member_end = true;
        else if (zr == Z_MEM_ERROR)
            return mpp_err_set(r->err, MPP_ENOMEM, "%s: out of memory", r->path);
        else if (zr != Z_OK && zr != Z_BUF_ERROR)
            return mpp_lines_error(r, r->line + 1, "corrupt gzip data (zlib: %s)",
                                   r->zs.msg ? r->zs.msg : "invalid data");
        if (*got)
            return 0;
        if (!r->member_end && r->raw_eof && !r->zs.avail_in)
            return mpp_lines_error(r, r->line + 1, "truncated gzip data, expected the rest of "
                                   "the compressed file");
    }
}

int mpp_lines_open(mpp_lines **out, const char *path, size_t max_len, mpp_err *err)
{
    *out = NULL;
    size_t n = strlen(path);
    mpp_lines *r = calloc(1, sizeof *r + n + 1);
    if (!r)
        return mpp_err_set(err, MPP_ENOMEM, "%s: out of memory", path);
    r->fd = -1;
    memcpy(r->path, path, n + 1);
    r->max_len = max_len < MAX_READ ? max_len : MAX_READ;
    r->err = err;
    r->cap = CHUNK + (max_len ? r->max_len : FIRST_LINE) + 2;
    int rc;
    /* a regular file only: a device, a FIFO or a folder could be endless */
    int fd = mpp_file_open_regular(path, &r->size, err);
    if (fd < 0) {
        rc = fd;
        goto fail;
    }
    r->fd = fd;
    r->raw = malloc(CHUNK);
    if (!r->raw) {
        rc = mpp_err_set(err, MPP_ENOMEM, "%s: out of memory", path);
        goto fail;
    }
    /* gzip or plain: the first two bytes tell (a plain file of one byte is
     * plain) */
    while (r->zs.avail_in < 2 && !r->raw_eof) {
        ssize_t k;
        do
            k = read(fd, r->raw + r->zs.avail_in, CHUNK - r->zs.avail_in);
        while (k < 0 && errno == EINTR);
        if (k < 0) {
            rc = mpp_err_set(err, MPP_EIO, "cannot read %s: %s", path, strerror(errno));
            goto fail;
        }
        if (k == 0)
            r->raw_eof = true;
        r->zs.avail_in += (uInt)k;
        r->raw_read += (uint64_t)k;
    }
    r->zs.next_in = r->raw;
    r->gzip = r->zs.avail_in >= 2 && r->raw[0] == 0x1f && r->raw[1] == 0x8b;
    if (r->gzip) {
        if (inflateInit2(&r->zs, 15 + 16) != Z_OK) { /* gzip wrapper only */
            rc = mpp_err_set(err, MPP_ENOMEM, "cannot read %s: out of memory", path);
            goto fail;
        }
        r->zinit = true;
    }
    r->buf = malloc(r->cap);
    if (!r->buf) {
        rc = mpp_err_set(err, MPP_ENOMEM, "%s: out of memory", path);
        goto fail;
    }
    *out = r;
    return 0;
fail:
    mpp_lines_close(r);
    return rc;
}

void mpp_lines_close(mpp_lines *r)
{
    if (!r)
        return;
    if (r->zinit)
        inflateEnd(&r->zs);
    if (r->fd >= 0)
        close(r->fd);
    free(r->raw);
    free(r->buf);
    free(r);
}

uint64_t mpp_lines_number(const mpp_lines *r)
{
    return r->line;
}

const char *mpp_lines_path(const mpp_lines *r)
{
    return r->path;
}

mpp_err *mpp_lines_err(const mpp_lines *r)
{
    return r->err;
}

int mpp_lines_error(const mpp_lines *r, uint64_t line, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return mpp_err_set(r->err, MPP_EFORMAT, "%s:%" PRIu64 ": %s", r->path, line, msg);
}

/* Compact the buffer (growing it without a limit, invariant 3) and read
 * more. A zlib error is corrupt or truncated gzip data (MPP_EFORMAT) or a
 * read error (MPP_EIO). */
static int fill(mpp_lines *r)
{
    size_t avail = r->end - r->start;
    memmove(r->buf, r->buf + r->start, avail);
    r->start = 0;
    r->end = avail;
    if (r->cap - 1 - r->end < CHUNK) {
        char *b = realloc(r->buf, r->cap * 2);
        if (!b)
            return mpp_err_set(r->err, MPP_ENOMEM, "%s: out of memory", r->path);
        r->buf = b;
        r->cap *= 2;
    }
    size_t room = r->cap - 1 - r->end;
    size_t n;
    int rc = get_text(r, r->buf + r->end, room < MAX_READ ? room : MAX_READ, &n);
    if (rc)
        return rc;
    if (n == 0)
        r->eof = 1;
    r->end += n;
    r->total += (uint64_t)n;
    if (r->total > MPP_LINES_MAX_INPUT)
        return mpp_lines_error(r, r->line + 1,
                               "more than %u MiB of text: larger than mppnet reads",
                               MPP_LINES_MAX_INPUT >> 20);
    return 0;
}

uint64_t mpp_lines_capacity(const mpp_lines *r)
{
    uint64_t buffered = r->end - r->start;
    uint64_t left = MPP_LINES_MAX_INPUT > r->total ? MPP_LINES_MAX_INPUT - r->total : 0;
    uint64_t raw = r->size > r->raw_read ? r->size - r->raw_read : 0;
    raw += r->zs.avail_in; /* read from the file, not yet used */
    uint64_t file = raw;
    if (r->gzip) {
        file = raw > UINT64_MAX / DEFLATE_RATIO ? UINT64_MAX : raw * DEFLATE_RATIO;
        file += CHUNK; /* what zlib may hold inflated but not yet handed out */
    }
    if (file > left)
        file = left;
    return buffered + file;
}

int mpp_lines_check_count(const mpp_lines *r, uint64_t line, uint64_t count, uint64_t min_bytes,
                          const char *what)
{
    /* small counts cost little memory: let the reader find a short file
     * line by line, with its more precise message */
    if (count <= MPP_LINES_SMALL_COUNT)
        return 0;
    uint64_t cap = mpp_lines_capacity(r) / (min_bytes ? min_bytes : 1);
    if (count <= cap)
        return 0;
    return mpp_lines_error(r, line,
                           "%" PRIu64 " %s announced, more than the rest of the file can hold "
                           "(at most %" PRIu64 "): truncated or not what it says",
                           count, what, cap);
}

int mpp_lines_next(mpp_lines *r, char **line, uint64_t *number)
{
    for (;;) {
        char *s = r->buf + r->start;
        size_t avail = r->end - r->start;
        char *nl = memchr(s + r->scanned, '\n', avail - r->scanned);
        size_t len = nl ? (size_t)(nl - s) : avail;
        if (memchr(s + r->scanned, '\0', len - r->scanned))
            return mpp_lines_error(r, r->line + 1, "NUL byte: this is not a text (or gzip) file");
        if (r->max_len && len > r->max_len + (len && s[len - 1] == '\r'))
            return mpp_lines_error(r, r->line + 1, "line longer than %zu characters",
                                   r->max_len);
        if (nl || (r->eof && avail)) {
            s[len] = '\0';
            if (len && s[len - 1] == '\r')
                s[len - 1] = '\0';
            r->start += nl ? len + 1 : len;
            r->scanned = 0;
            r->line++;
            *line = s;
            if (number)
                *number = r->line;
            return 1;
        }
        r->scanned = len;
        if (r->eof)
            return 0;
        int rc = fill(r);
        if (rc)
            return rc;
    }
}

/* Compress text into out as one gzip member (level 6, no name, time 0). */
static int gzip_text(const mpp_sb *text, mpp_sb *out, mpp_err *err)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory (zlib)");
    const unsigned char *in = (const unsigned char *)text->s;
    size_t left = text->len;
    unsigned char chunk[16384];
    int zrc;
    do {
        if (zs.avail_in == 0 && left) {
            uInt n = left > (1u << 30) ? (1u << 30) : (uInt)left;
            zs.next_in = (Bytef *)(uintptr_t)in;
            zs.avail_in = n;
            in += n;
            left -= n;
        }
        zs.next_out = chunk;
        zs.avail_out = sizeof chunk;
        zrc = deflate(&zs, left || zs.avail_in ? Z_NO_FLUSH : Z_FINISH);
        if (zrc == Z_STREAM_ERROR) {
            deflateEnd(&zs);
            return mpp_err_set(err, MPP_EIO, "gzip compression failed");
        }
        mpp_sb_addn(out, (const char *)chunk, sizeof chunk - zs.avail_out);
    } while (zrc != Z_STREAM_END);
    deflateEnd(&zs);
    if (!mpp_sb_ok(out))
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    return 0;
}

int mpp_lines_write(const char *path, const mpp_sb *text, mpp_err *err)
{
    if (!mpp_sb_ok(text))
        return mpp_err_set(err, MPP_ENOMEM, "%s: out of memory", path);
    size_t n = strlen(path);
    if (n < 3 || strcmp(path + n - 3, ".gz") != 0)
        return mpp_file_write_atomic(path, text->s, text->len, true, err);
    mpp_sb gz;
    mpp_sb_init(&gz);
    int rc = gzip_text(text, &gz, err);
    if (!rc)
        rc = mpp_file_write_atomic(path, gz.s, gz.len, true, err);
    mpp_sb_free(&gz);
    return rc;
}

int mpp_lines_digits(const char *t, uint64_t *v)
{
    size_t n = strlen(t);
    if (mpp_units_u64(t, n, v))
        return 0;
    return n && strspn(t, "0123456789") == n ? -2 : -1; /* too large, or not digits */
}
