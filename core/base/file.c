/* core/base/file.c — bounded reads, atomic writes, the host clock (see
 * file.h). */
#include "core/base/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int mpp_file_open_regular(const char *path, uint64_t *size, mpp_err *err)
{
    /* O_NONBLOCK: opening a FIFO would wait for a writer */
    int fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return mpp_err_set(err, MPP_EIO, "cannot read %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return mpp_err_set(err, MPP_EIO,
                           "cannot read %s: not a regular file (mppnet reads files, not "
                           "devices, pipes or folders)",
                           path);
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
        close(fd);
        return mpp_err_set(err, MPP_EIO, "cannot read %s: %s", path, strerror(errno));
    }
    *size = (uint64_t)st.st_size;
    return fd;
}

int mpp_file_read(const char *path, size_t max, char **data, size_t *len, mpp_err *err)
{
    *data = NULL;
    *len = 0;
    uint64_t size;
    int fd = mpp_file_open_regular(path, &size, err);
    if (fd < 0)
        return fd;
    if (size > max) {
        close(fd);
        return mpp_err_set(err, MPP_EFORMAT,
                           "%s: %llu bytes, larger than the %zu MiB mppnet reads from such a file",
                           path, (unsigned long long)size, max >> 20);
    }
    size_t cap = (size_t)size + 1, n = 0;
    char *buf = malloc(cap + 1);
    if (!buf) {
        close(fd);
        return mpp_err_set(err, MPP_ENOMEM, "%s: out of memory", path);
    }
    /* read to the end, which may come later than the size said, never
     * beyond max */
    for (;;) {
        if (n == cap) {
            if (cap > max) {
                free(buf);
                close(fd);
                return mpp_err_set(err, MPP_EFORMAT,
                                   "%s: larger than the %zu MiB mppnet reads from such a file",
                                   path, max >> 20);
            }
            size_t ncap = cap * 2 > max + 1 ? max + 1 : cap * 2;
            char *nb = realloc(buf, ncap + 1);
            if (!nb) {
                free(buf);
                close(fd);
                return mpp_err_set(err, MPP_ENOMEM, "%s: out of memory", path);
            }
            buf = nb;
            cap = ncap;
        }
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int e = errno;
            free(buf);
            close(fd);
            return mpp_err_set(err, MPP_EIO, "cannot read %s: %s", path, strerror(e));
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    if (n > max) {
        free(buf);
        return mpp_err_set(err, MPP_EFORMAT,
                           "%s: larger than the %zu MiB mppnet reads from such a file", path,
                           max >> 20);
    }
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return 0;
}

/* "DIR/" of path (empty for a bare name) into buf. */
static int folder_of(const char *path, char *buf, size_t size)
{
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) + 1 : 0;
    if (n + 1 > size)
        return -1;
    memcpy(buf, path, n);
    buf[n] = '\0';
    return 0;
}

int mpp_file_temp(const char *dir, const char *prefix, char *path, size_t size, mpp_err *err)
{
    const char *sep = dir[0] && dir[strlen(dir) - 1] != '/' ? "/" : "";
    int n = snprintf(path, size, "%s%s%s.XXXXXX", dir, sep, prefix);
    if (n < 0 || (size_t)n >= size)
        return mpp_err_set(err, MPP_EIO, "cannot write in %s: path too long", dir);
    int fd = mkstemp(path);
    if (fd < 0)
        return mpp_err_set(err, MPP_EIO, "cannot write in %s: %s", dir[0] ? dir : ".",
                           strerror(errno));
    fchmod(fd, 0644);
    close(fd);
    return 0;
}

int mpp_file_write_atomic(const char *path, const void *data, size_t len, bool durable,
                          mpp_err *err)
{
    char dir[4096], tmp[4200];
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    if (!*base)
        return mpp_err_set(err, MPP_EIO, "cannot write '%s': not a file name", path);
    if (folder_of(path, dir, sizeof dir) ||
        snprintf(tmp, sizeof tmp, "%s.%s.XXXXXX", dir, base) >= (int)sizeof tmp)
        return mpp_err_set(err, MPP_EIO, "cannot write %.200s...: path too long", path);
    /* the rename would replace a folder's or a device's name (/dev/full) */
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return mpp_err_set(err, MPP_EIO, "cannot write %s: %s", path,
                           S_ISDIR(st.st_mode) ? "it is a folder (name a file to write)"
                                               : "not a regular file (mppnet writes files, not "
                                                 "devices or pipes)");
    int fd = mkstemp(tmp);
    if (fd < 0)
        return mpp_err_set(err, MPP_EIO, "cannot write %s: %s", path, strerror(errno));
    int rc = 0;
    const char *p = data;
    for (size_t off = 0; off < len;) {
        ssize_t w = write(fd, p + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            rc = mpp_err_set(err, MPP_EIO, "cannot write %s: %s", path,
                             w < 0 ? strerror(errno) : "short write");
            break;
        }
        off += (size_t)w;
    }
    if (!rc && fchmod(fd, 0644) != 0)
        rc = mpp_err_set(err, MPP_EIO, "cannot write %s: %s", path, strerror(errno));
    if (!rc && durable && fsync(fd) != 0 && errno != EINVAL && errno != EROFS)
        rc = mpp_err_set(err, MPP_EIO, "cannot write %s: %s", path, strerror(errno));
    if (close(fd) != 0 && !rc)
        rc = mpp_err_set(err, MPP_EIO, "cannot write %s: %s", path, strerror(errno));
    if (!rc && rename(tmp, path) != 0)
        rc = mpp_err_set(err, MPP_EIO, "cannot write %s: %s", path, strerror(errno));
    if (rc)
        unlink(tmp);
    return rc;
}

double mpp_host_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
