/* core/base/file.h — files read whole with a limit, files written
 * atomically, and the host clock (mpp_file_*, mpp_host_*). The one reader
 * of whole files (experiments, results.csv) and the one writer of every
 * file mppnet produces; not for the hot path.
 *
 * Reading: only a regular file is read (a device, a FIFO or a folder is
 * refused: it could be endless), and at most `max` bytes of it (more is an
 * error, never a truncation).
 *
 * Writing: the data goes to a new temporary file created with mkstemp in
 * the target's folder (O_EXCL: a planted file or symlink of any name is
 * never opened), is synced when asked, gets mode 0644 and is renamed over
 * the target (rename replaces a symlink at the target itself, never what
 * it points to). On failure the temporary file is removed and the target
 * is untouched. */
#ifndef MPP_CORE_BASE_FILE_H
#define MPP_CORE_BASE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/err.h"

/* Open the regular file at path for reading (never waiting on a FIFO) and
 * set *size to its size. Returns the descriptor (>= 0), or MPP_EIO ("cannot
 * read PATH: ...", also for a device, a FIFO or a folder). The one way
 * mppnet opens an input file. */
int mpp_file_open_regular(const char *path, uint64_t *size, mpp_err *err);

/* Read the regular file at path, at most max bytes, into *data (malloc'd,
 * NUL-terminated; the caller frees it) and *len. Fails with MPP_EIO
 * ("cannot read PATH: ..."; also for a file that is not regular),
 * MPP_EFORMAT ("PATH: larger than the MAX MiB ...": max is a whole number
 * of MiB) or MPP_ENOMEM; *data is then
 * NULL. */
int mpp_file_read(const char *path, size_t max, char **data, size_t *len, mpp_err *err);

/* Write len bytes of data to path atomically (see above); `durable`
 * fsyncs the file before the rename. A folder or a device at path is
 * refused, not replaced. Returns 0, or MPP_EIO "cannot write
 * PATH: REASON" (no space, no such folder, ...) or MPP_ENOMEM. */
int mpp_file_write_atomic(const char *path, const void *data, size_t len, bool durable,
                          mpp_err *err);

/* Create a new empty file in folder dir named PREFIX.XXXXXX (mkstemp) for
 * a program that writes it (gnuplot); its path into path[size]. Returns 0
 * or MPP_EIO. The caller renames or removes it. */
int mpp_file_temp(const char *dir, const char *prefix, char *path, size_t size, mpp_err *err);

/* Seconds of a monotonic host clock: for the separate `timing` records
 * only, never for anything a result depends on (STYLE rule 12). */
double mpp_host_seconds(void);

#endif
