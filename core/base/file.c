/* core/base/file.c — bounded reads, atomic writes, the host clock (see
 * file.h). */
/* realpath is XSI, not in POSIX 2008's base: glibc declares it with
 * _XOPEN_SOURCE 700 (which keeps POSIX 2008). */
#define _XOPEN_SOURCE 700

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

/* "SHOWN/NAME" (or NAME when shown is empty) into buf, for messages. */
static void show_path(char *buf, size_t size, const char *shown, const char *name)
{
    snprintf(buf, size, "%s%s%s", shown, shown[0] ? "/" : "", name);
}

/* The descriptor fd (>= 0, or -1 with errno set) of what `shown` names,
 * checked to be a regular file, switched to blocking reads, its size into
 * *size; closed on failure. */
static int regular_fd(int fd, const char *shown, uint64_t *size, mpp_err *err)
{
    if (fd < 0)
        return mpp_err_set(err, MPP_EIO, "cannot read %s: %s", shown,
                           errno == ELOOP ? "it is a symbolic link" : strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return mpp_err_set(err, MPP_EIO,
                           "cannot read %s: not a regular file (mppnet reads files, not "
                           "devices, pipes or folders)",
                           shown);
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
        close(fd);
        return mpp_err_set(err, MPP_EIO, "cannot read %s: %s", shown, strerror(errno));
    }
    *size = (uint64_t)st.st_size;
    return fd;
}

int mpp_file_open_regular(const char *path, uint64_t *size, mpp_err *err)
{
    /* O_NONBLOCK: opening a FIFO would wait for a writer */
    int fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    return regular_fd(fd, path, size, err);
}

/* Read the open regular file fd (closed here) of `size` bytes, named
 * `path` in messages (see mpp_file_read). */
static int read_fd(int fd, uint64_t size, const char *path, size_t max, char **data,
                   size_t *len, mpp_err *err);

int mpp_file_read(const char *path, size_t max, char **data, size_t *len, mpp_err *err)
{
    *data = NULL;
    *len = 0;
    uint64_t size;
    int fd = mpp_file_open_regular(path, &size, err);
    if (fd < 0)
        return fd;
    return read_fd(fd, size, path, max, data, len, err);
}

int mpp_file_read_at(int dirfd, const char *shown, const char *name, size_t max, char **data,
                     size_t *len, mpp_err *err)
{
    *data = NULL;
    *len = 0;
    char path[4400];
    show_path(path, sizeof path, shown, name);
    uint64_t size;
    int fd = regular_fd(openat(dirfd, name, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW |
                                                O_CLOEXEC),
                        path, &size, err);
    if (fd < 0)
        return fd;
    return read_fd(fd, size, path, max, data, len, err);
}

static int read_fd(int fd, uint64_t size, const char *path, size_t max, char **data,
                   size_t *len, mpp_err *err)
{
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

int mpp_file_open_dir(const char *path, bool create, bool nofollow, mpp_err *err)
{
    size_t n = strlen(path);
    if (n == 0)
        return mpp_err_set(err, MPP_EIO, "empty folder name");
    if (n >= 4096)
        return mpp_err_set(err, MPP_EIO, "%.200s...: path too long", path);
    if (nofollow && path[0] == '/')
        return mpp_err_set(err, MPP_EINVAL, "the folder '%s' is not relative", path);
    int fd = open(path[0] == '/' ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return mpp_err_set(err, MPP_EIO, "cannot open %s: %s", path[0] == '/' ? "/" : ".",
                           strerror(errno));
    int flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0);
    for (size_t at = 0; at < n;) {
        size_t len = strcspn(path + at, "/");
        char comp[4096];
        memcpy(comp, path + at, len);
        comp[len] = '\0';
        size_t end = at + len; /* the prefix up to this component is path[0, end) */
        at = end + (path[end] == '/');
        if (len == 0 || !strcmp(comp, "."))
            continue;
        if (nofollow && !strcmp(comp, "..")) {
            close(fd);
            return mpp_err_set(err, MPP_EINVAL, "the folder '%s' goes up with '..'", path);
        }
        if (create && mkdirat(fd, comp, 0777) != 0 && errno != EEXIST) {
            int e = errno;
            close(fd);
            return mpp_err_set(err, MPP_EIO, "cannot create the folder %.*s: %s", (int)end, path,
                               strerror(e));
        }
        int next = openat(fd, comp, flags);
        if (next < 0) {
            int e = errno;
            struct stat st;
            bool link = nofollow && fstatat(fd, comp, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                        S_ISLNK(st.st_mode);
            close(fd);
            if (link)
                return mpp_err_set(err, MPP_EINVAL,
                                   "the folder %s: '%.*s' is a symbolic link, which mppnet "
                                   "does not follow here",
                                   path, (int)end, path);
            return mpp_err_set(err, MPP_EIO, "cannot open the folder %.*s: %s", (int)end, path,
                               e == ENOTDIR ? "it exists and is not a folder" : strerror(e));
        }
        close(fd);
        fd = next;
    }
    return fd;
}

/* The next random-looking temporary name ".BASE.XXXXXX" into buf: the
 * process id, a counter and the clock mixed (a name, never a result: the
 * O_EXCL create below is what makes it safe, as in mkstemp). */
static void temp_name(char *buf, size_t size, const char *base)
{
    static uint64_t counter;
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    uint64_t z = (uint64_t)getpid() * 0x9e3779b97f4a7c15u + (uint64_t)t.tv_nsec +
                 ((uint64_t)t.tv_sec << 30) + ++counter * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    z ^= z >> 31;
    static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    char x[7];
    for (int i = 0; i < 6; i++, z /= 62)
        x[i] = set[z % 62];
    x[6] = '\0';
    snprintf(buf, size, ".%s.%s", base, x);
}

/* A new file .BASE.XXXXXX in dirfd (O_EXCL | O_NOFOLLOW: nothing planted is
 * opened), its name into name[size]; the descriptor, or -1 with errno. */
static int temp_create(int dirfd, const char *base, char *name, size_t size)
{
    for (int tries = 0; tries < 100; tries++) {
        temp_name(name, size, base);
        int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    errno = EEXIST;
    return -1;
}

/* True when name is one component (not empty, no '/', not "." or ".."). */
static bool one_name(const char *name)
{
    return name[0] && !strchr(name, '/') && strcmp(name, ".") && strcmp(name, "..");
}

int mpp_file_temp_at(int dirfd, const char *shown, const char *prefix, char *name, size_t size,
                     mpp_err *err)
{
    if (!one_name(prefix) || strlen(prefix) + 10 > size)
        return mpp_err_set(err, MPP_EIO, "cannot write in %s: bad name '%.80s'",
                           shown[0] ? shown : ".", prefix);
    /* temp_name puts a dot before the prefix: drop the prefix's own */
    int fd = temp_create(dirfd, prefix[0] == '.' ? prefix + 1 : prefix, name, size);
    if (fd < 0)
        return mpp_err_set(err, MPP_EIO, "cannot write in %s: %s", shown[0] ? shown : ".",
                           strerror(errno));
    fchmod(fd, 0644);
    close(fd);
    return 0;
}

int mpp_file_write_atomic_at(int dirfd, const char *shown, const char *name, const void *data,
                             size_t len, bool durable, mpp_err *err)
{
    char path[4400], tmp[300];
    show_path(path, sizeof path, shown, name);
    if (!one_name(name) || strlen(name) > 255)
        return mpp_err_set(err, MPP_EIO, "cannot write '%s': not a file name", path);
    /* the rename would replace a folder's or a device's name (/dev/full) */
    struct stat st;
    if (fstatat(dirfd, name, &st, 0) == 0 && !S_ISREG(st.st_mode))
        return mpp_err_set(err, MPP_EIO, "cannot write %s: %s", path,
                           S_ISDIR(st.st_mode) ? "it is a folder (name a file to write)"
                                               : "not a regular file (mppnet writes files, not "
                                                 "devices or pipes)");
    int fd = temp_create(dirfd, name, tmp, sizeof tmp);
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
    if (!rc && renameat(dirfd, tmp, dirfd, name) != 0)
        rc = mpp_err_set(err, MPP_EIO, "cannot write %s: %s", path, strerror(errno));
    if (rc)
        unlinkat(dirfd, tmp, 0);
    return rc;
}

int mpp_file_write_atomic(const char *path, const void *data, size_t len, bool durable,
                          mpp_err *err)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    if (!*base)
        return mpp_err_set(err, MPP_EIO, "cannot write '%s': not a file name", path);
    size_t n = slash ? (size_t)(slash - path) : 0;
    if (n + 1 > sizeof dir)
        return mpp_err_set(err, MPP_EIO, "cannot write %.200s...: path too long", path);
    memcpy(dir, path, n);
    dir[n] = '\0';
    /* the path's own folder, symlinks followed (a command-line path) */
    int dfd = open(slash ? (n ? dir : "/") : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0)
        return mpp_err_set(err, MPP_EIO, "cannot write %s: %s", path, strerror(errno));
    int rc = mpp_file_write_atomic_at(dfd, slash ? (n ? dir : "") : "", base, data, len, durable,
                                      err);
    close(dfd);
    return rc;
}

bool mpp_file_inside_cwd(const char *path)
{
    char *real = realpath(path, NULL);
    if (!real)
        return true; /* nothing there (yet): the open reports it */
    char *cwd = realpath(".", NULL);
    bool in = false;
    if (cwd) {
        size_t n = strlen(cwd);
        /* "/" as the working folder holds everything */
        in = !strcmp(cwd, "/") || (!strncmp(real, cwd, n) && (real[n] == '/' || !real[n]));
    }
    free(cwd);
    free(real);
    return in;
}

double mpp_host_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
