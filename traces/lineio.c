/* traces/lineio.c — the line reader of the file formats in traces/ (see
 * lineio.h): zlib's gzFile reads plain and gzip files alike.
 *
 * A reader holds the file and a buffer buf[0, cap) whose bytes
 * buf[start, end) are read but not yet returned. mpp_lines_next() looks for
 * the next '\n' there; when there is none, fill() compacts the buffer and
 * gzreads more. Every gzread is followed by gzerror, so corrupt and
 * truncated gzip data are errors as soon as zlib sees them (never silently
 * short input), reported at the line being read.
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

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define CHUNK 65536           /* bytes per gzread, and zlib's buffer */
#define FIRST_LINE 4096       /* initial room for a line without a limit */
#define MAX_READ (1u << 30)   /* largest gzread (its count is an int) */
#define DEFLATE_RATIO 1032    /* deflate's largest expansion (zlib's technical notes) */

struct mpp_lines {
    size_t max_len;           /* longest line accepted; 0: any */
    mpp_err *err;             /* where errors go (may be NULL) */
    gzFile gz;
    char *buf;                /* [cap] */
    size_t cap, start, end;   /* unreturned bytes buf[start, end) */
    size_t scanned;           /* invariant 1 */
    int eof;                  /* gzread returned 0 */
    uint64_t line;            /* number of the last line returned */
    uint64_t size;            /* the file's size in bytes */
    uint64_t total;           /* bytes of text read so far */
    char path[];              /* copy of the path */
};

int mpp_lines_open(mpp_lines **out, const char *path, size_t max_len, mpp_err *err)
{
    *out = NULL;
    size_t n = strlen(path);
    mpp_lines *r = calloc(1, sizeof *r + n + 1);
    if (!r)
        return mpp_err_set(err, MPP_ENOMEM, "%s: out of memory", path);
    memcpy(r->path, path, n + 1);
    r->max_len = max_len < MAX_READ ? max_len : MAX_READ;
    r->err = err;
    r->cap = CHUNK + (max_len ? r->max_len : FIRST_LINE) + 2;
    int rc;
    /* a regular file only: a device, a FIFO or a folder could be endless */
    int fd = open(path, O_RDONLY | O_NOCTTY);
    struct stat st;
    if (fd < 0) {
        rc = mpp_err_set(err, MPP_EIO, "cannot read %s: %s", path, strerror(errno));
        goto fail;
    }
    if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        close(fd);
        rc = mpp_err_set(err, MPP_EIO, "cannot read %s: not a regular file (mppnet reads files, "
                                       "not devices, pipes or folders)",
                         path);
        goto fail;
    }
    r->size = (uint64_t)st.st_size;
    errno = 0;
    r->gz = gzdopen(fd, "rb");
    if (!r->gz) {
        close(fd);
        rc = mpp_err_set(err, MPP_ENOMEM, "cannot read %s: out of memory", path);
        goto fail;
    }
    gzbuffer(r->gz, CHUNK);
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
    if (r->gz)
        gzclose(r->gz);
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
    errno = 0;
    int n = gzread(r->gz, r->buf + r->end, (unsigned)(room < MAX_READ ? room : MAX_READ));
    int zerr = Z_OK;
    const char *zmsg = gzerror(r->gz, &zerr);
    if (zerr == Z_ERRNO || (n < 0 && zerr == Z_OK))
        return mpp_err_set(r->err, MPP_EIO, "cannot read %s: %s", r->path,
                           errno ? strerror(errno) : "read error");
    size_t plen = strlen(r->path);
    if (zmsg && !strncmp(zmsg, r->path, plen) && !strncmp(zmsg + plen, ": ", 2))
        zmsg += plen + 2; /* zlib names the file; the message does already */
    if (zerr == Z_BUF_ERROR)
        return mpp_lines_error(r, r->line + 1, "truncated gzip data (zlib: %s), expected the "
                               "rest of the compressed file", zmsg);
    if (zerr != Z_OK)
        return mpp_lines_error(r, r->line + 1, "corrupt gzip data (zlib: %s)", zmsg);
    if (n == 0)
        r->eof = 1;
    r->end += (size_t)n;
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
    uint64_t file;
    if (gzdirect(r->gz)) {
        z_off_t at = gzoffset(r->gz);
        file = at >= 0 && (uint64_t)at < r->size ? r->size - (uint64_t)at : 0;
    } else {
        z_off_t at = gzoffset(r->gz);
        uint64_t raw = at >= 0 && (uint64_t)at < r->size ? r->size - (uint64_t)at : 0;
        file = raw > UINT64_MAX / DEFLATE_RATIO ? UINT64_MAX : raw * DEFLATE_RATIO;
        file += CHUNK; /* what zlib holds decompressed but not yet handed out */
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
    if (!*t)
        return -1;
    uint64_t x = 0;
    for (; *t; t++) {
        if (*t < '0' || *t > '9')
            return -1;
        unsigned d = (unsigned)(*t - '0');
        if (x > (UINT64_MAX - d) / 10)
            return -2;
        x = x * 10 + d;
    }
    *v = x;
    return 0;
}
