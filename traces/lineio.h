/* traces/lineio.h — reading text files line by line (mpp_lines_*), plain
 * or gzip-compressed, with "PATH:LINE: message" errors.
 *
 * The one line reader of the file formats in traces/ (COM files, message and
 * operation traces, METIS graphs, gmsh meshes, partition files). It knows
 * lines, not formats: comments, blank lines and fields are the caller's.
 * Damaged input is never silently short: a NUL byte, a line over the limit,
 * and corrupt or truncated gzip data are MPP_EFORMAT errors naming the line
 * being read; a file that cannot be opened or read is MPP_EIO
 * "cannot read PATH: REASON". Not for the hot path. */
#ifndef MPP_TRACES_LINEIO_H
#define MPP_TRACES_LINEIO_H

#include <stddef.h>
#include <stdint.h>

#include "core/base/err.h"

struct mpp_sb;

/* The most text one reader reads (after decompression): a larger file is
 * an MPP_EFORMAT error, never an endless read. */
#define MPP_LINES_MAX_INPUT (1u << 30)

/* An open file, its read-ahead buffer and the number of the last line. */
typedef struct mpp_lines mpp_lines;

/* Open path for reading through zlib: gzip data is decompressed, anything
 * else is read as it is. Only a regular file is opened (a device, a FIFO
 * or a folder is MPP_EIO "not a regular file"), and at most
 * MPP_LINES_MAX_INPUT bytes of text are read from it. max_len is the longest line accepted,
 * without its line end (0: any length; else below 2^30). err (may be NULL)
 * is kept and receives every later error of this reader. Returns 0 with
 * *out, or MPP_EIO ("cannot read PATH: REASON") / MPP_ENOMEM with *out
 * NULL. The caller owns *out (mpp_lines_close); path is copied. */
int mpp_lines_open(mpp_lines **out, const char *path, size_t max_len, mpp_err *err);

/* The next line in *line: NUL-terminated, without its "\n" or "\r\n"
 * (a last line without "\n" counts), valid until the next call; its
 * 1-based number in *number (may be NULL). Returns 1, 0 at the end of the
 * file, or an error: MPP_EFORMAT at the line being read for a NUL byte, a
 * line longer than max_len, corrupt or truncated gzip data; MPP_EIO when
 * reading fails; MPP_ENOMEM. */
int mpp_lines_next(mpp_lines *r, char **line, uint64_t *number);

/* An upper bound on the bytes of text still to come: the rest of a plain
 * file, the rest of a gzip file times deflate's largest ratio, never more
 * than the reader's input limit allows. For checking a count a file
 * declares before memory is taken for it. */
uint64_t mpp_lines_capacity(const mpp_lines *r);

/* 0 when `count` items of at least min_bytes bytes each fit in what the
 * file can still hold (mpp_lines_capacity), or when count is at most
 * MPP_LINES_SMALL_COUNT (little memory: the reader then finds a short file
 * line by line); else MPP_EFORMAT "PATH:LINE: COUNT WHAT announced, more
 * than the rest of the file can hold". */
#define MPP_LINES_SMALL_COUNT 65536
int mpp_lines_check_count(const mpp_lines *r, uint64_t line, uint64_t count, uint64_t min_bytes,
                          const char *what);

/* The number of the last line returned (0 before the first). */
uint64_t mpp_lines_number(const mpp_lines *r);

/* The path the reader was opened with. */
const char *mpp_lines_path(const mpp_lines *r);

/* The error record given to mpp_lines_open (may be NULL), for errors of the
 * caller that are not about a line (e.g. out of memory). */
mpp_err *mpp_lines_err(const mpp_lines *r);

/* Set the reader's error to MPP_EFORMAT "PATH:LINE: message" (message
 * printf-formatted, cut at 399 characters); returns MPP_EFORMAT. */
int mpp_lines_error(const mpp_lines *r, uint64_t line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Close the file and free the reader; NULL is a no-op. */
void mpp_lines_close(mpp_lines *r);

/* Write text to path atomically (core/base/file.h: a new temporary file,
 * fsync, rename), as one gzip member (level 6, no name, time 0: the bytes
 * depend on the text alone) when path ends in ".gz". Returns 0, MPP_EIO
 * or MPP_ENOMEM. The one writer of the file formats in traces/. */
int mpp_lines_write(const char *path, const struct mpp_sb *text, mpp_err *err);

/* Decimal digits of t (nothing else) into *v: 0, or -1 when t is empty or
 * holds a non-digit, -2 when the value does not fit 64 bits. No sign is
 * read: callers that accept one skip it first. */
int mpp_lines_digits(const char *t, uint64_t *v);

#endif
