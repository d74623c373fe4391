/* core/base/file.h — files read whole with a limit, files written
 * atomically, and the host clock (mpp_file_*, mpp_host_*). The one reader
 * of whole files (experiments, results.csv) and the one writer of every
 * file mppnet produces; not for the hot path.
 *
 * Reading: only a regular file is read (a device, a FIFO or a folder is
 * refused: it could be endless), and at most `max` bytes of it (more is an
 * error, never a truncation).
 *
 * Writing: the data goes to a new temporary file .NAME.XXXXXX created in
 * the target's folder with O_CREAT | O_EXCL | O_NOFOLLOW (a planted file or
 * symlink of any name is never opened), is synced when asked, gets mode
 * 0644 and is renamed over the target (rename replaces a symlink at the
 * target itself, never what it points to). On failure the temporary file
 * is removed and the target is untouched.
 *
 * Folders: the *_at functions work inside a folder opened once
 * (mpp_file_open_dir) and name one entry of it, never a path: what they
 * touch cannot move elsewhere through a symlink on the way, and an entry
 * that is a symlink is neither read nor written through. `shown` is the
 * folder's name for messages ("" for the working folder). */
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

/* Read the regular file `name` (one entry, not a symlink: O_NOFOLLOW) of
 * the open folder dirfd, as mpp_file_read does; messages name it
 * SHOWN/NAME. */
int mpp_file_read_at(int dirfd, const char *shown, const char *name, size_t max, char **data,
                     size_t *len, mpp_err *err);

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

/* Write data to the entry `name` (one component) of the open folder dirfd
 * atomically (see above). Returns 0, or MPP_EIO "cannot write SHOWN/NAME:
 * REASON". */
int mpp_file_write_atomic_at(int dirfd, const char *shown, const char *name, const void *data,
                             size_t len, bool durable, mpp_err *err);

/* Create a new empty file .PREFIX.XXXXXX (mode 0644; prefix's own leading
 * dot is not doubled) in the open folder dirfd for a program that writes
 * it (gnuplot); its name into name[size]. Returns 0 or MPP_EIO. The caller
 * renames or removes it. */
int mpp_file_temp_at(int dirfd, const char *shown, const char *prefix, char *name, size_t size,
                     mpp_err *err);

/* Open the folder at path (creating the missing ones when `create`) by
 * walking its components with openat from the working folder (or "/"):
 * with `nofollow` every component is opened with O_NOFOLLOW, so a symlink
 * anywhere on the way is refused, as are an absolute path and "..".
 * Returns the descriptor (O_DIRECTORY, the caller closes it), or MPP_EINVAL
 * "the folder PATH: 'PREFIX' is a symbolic link ..." (nofollow only; also
 * an absolute path, ".."), or MPP_EIO (cannot create or open; a component
 * is not a folder). */
int mpp_file_open_dir(const char *path, bool create, bool nofollow, mpp_err *err);

/* True unless path names something whose real path (realpath, every
 * symlink resolved) lies outside the working folder's real path. A path
 * that does not resolve (nothing there) is true: whoever opens it reports
 * that. The check of an input file named by a configuration file. */
bool mpp_file_inside_cwd(const char *path);

/* Seconds of a monotonic host clock: for the separate `timing` records
 * only, never for anything a result depends on (STYLE rule 12). */
double mpp_host_seconds(void);

#endif
