/* test/fuzz/fuzz_util.h — what the libFuzzer harnesses share: the input
 * written to a file of this process (the readers take paths), rewritten in
 * place at every execution. */
#ifndef MPP_TEST_FUZZ_UTIL_H
#define MPP_TEST_FUZZ_UTIL_H

#define _GNU_SOURCE /* mkstemps */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The path of a file holding data[0..size) (suffix: ".gz" makes the
 * writers compress; readers detect gzip by content). In /dev/shm when there
 * is one: the atomic writer's fsync costs nothing in memory. */
static char fuzz_path[2][64];

static void fuzz_cleanup(void)
{
    for (int k = 0; k < 2; k++)
        if (fuzz_path[k][0])
            unlink(fuzz_path[k]);
}

static inline const char *fuzz_file(const uint8_t *data, size_t size, const char *suffix)
{
    char (*path)[64] = fuzz_path;
    static int fd[2] = {-1, -1};
    int k = suffix && *suffix ? 1 : 0;
    if (fd[k] < 0) {
        const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        snprintf(path[k], sizeof path[k], "%s/mppnet-fuzz-%ld%s.XXXXXX%s", dir, (long)getpid(),
                 k ? "-b" : "", k ? suffix : "");
        fd[k] = k ? mkstemps(path[k], (int)strlen(suffix)) : mkstemp(path[k]);
        if (fd[k] < 0)
            abort();
        atexit(fuzz_cleanup);
    }
    if (ftruncate(fd[k], 0) != 0 || pwrite(fd[k], data, size, 0) != (ssize_t)size)
        abort();
    return path[k];
}

#endif
