/* core/base/sysmem.c — the machine's memory as a limit, and sizes in
 * words (sysmem.h). The limit is read when asked (not cached): a test may
 * set MPP_SYSMEM_ENV before a command runs. */
#define _DEFAULT_SOURCE /* sysconf's _SC_PHYS_PAGES */
#include "core/base/sysmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/base/units.h"

uint64_t mpp_sysmem_limit(void)
{
    uint64_t lim = UINT64_MAX;
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0)
        lim = (uint64_t)pages * (uint64_t)page;
#endif
    const char *env = getenv(MPP_SYSMEM_ENV);
    uint64_t v;
    if (env && *env && mpp_units_int(env, MPP_UNITS_BYTES, 0, &v) == MPP_UNITS_OK && v < lim)
        lim = v;
    return lim;
}

int mpp_sysmem_check_env(mpp_err *err)
{
    const char *env = getenv(MPP_SYSMEM_ENV);
    uint64_t v;
    if (!env || (*env && mpp_units_int(env, MPP_UNITS_BYTES, 0, &v) == MPP_UNITS_OK && v >= 1))
        return 0;
    return mpp_err_set(err, MPP_EINVAL,
                       "%s='%.60s': expected a size of at least 1 byte (an integer, with a unit "
                       "such as 512MiB or 4GiB), or unset it",
                       MPP_SYSMEM_ENV, env);
}

const char *mpp_sysmem_str(uint64_t bytes, char *buf, size_t len)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024 && u < 6) {
        v /= 1024;
        u++;
    }
    if (u == 0)
        snprintf(buf, len, "%llu B", (unsigned long long)bytes);
    else
        snprintf(buf, len, "%.*f %s", v < 10 ? 2 : v < 100 ? 1 : 0, v, unit[u]);
    return buf;
}
