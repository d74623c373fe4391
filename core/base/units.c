/* core/base/units.c — numbers with units (see units.h). The unit tables are
 * the documented ones (docs/config.md, "Value forms"). */
#include "core/base/units.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct unit {
    const char *name;
    double factor;
} unit;

static const unit byte_units[] = {{"B", 1},    {"KB", 1e3},        {"KiB", 1024.0},
                                  {"MB", 1e6}, {"MiB", 1048576.0}, {"GB", 1e9},
                                  {"GiB", 1073741824.0}};
/* Microseconds per unit. */
static const unit time_units[] = {{"ns", 1e-3}, {"us", 1}, {"ms", 1e3}, {"s", 1e6}};

static const unit *find_unit(const unit *u, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(u[i].name, s))
            return &u[i];
    return NULL;
}

bool mpp_units_u64(const char *s, size_t len, uint64_t *out)
{
    if (!len)
        return false;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

size_t mpp_units_scan(const char *s, bool sign)
{
    size_t i = 0, digits = 0;
    if (sign && s[i] == '-')
        i++;
    while (s[i] >= '0' && s[i] <= '9')
        i++, digits++;
    if (s[i] == '.') {
        i++;
        while (s[i] >= '0' && s[i] <= '9')
            i++, digits++;
    }
    if (!digits)
        return 0;
    if (s[i] == 'e' || s[i] == 'E') {
        size_t j = i + 1;
        if (s[j] == '+' || s[j] == '-')
            j++;
        if (s[j] >= '0' && s[j] <= '9') {
            while (s[j] >= '0' && s[j] <= '9')
                j++;
            i = j;
        }
    }
    return i;
}

/* The number of len characters at s (already scanned), NaN when too long. */
static double number_value(const char *s, size_t len)
{
    char buf[64];
    if (len >= sizeof buf)
        return NAN;
    memcpy(buf, s, len);
    buf[len] = '\0';
    return strtod(buf, NULL);
}

bool mpp_units_double(const char *s, double *out)
{
    size_t len = mpp_units_scan(s, true);
    if (!len || s[len])
        return false;
    double d = strtod(s, NULL); /* the whole text is the number: any length */
    if (!isfinite(d))
        return false;
    *out = d;
    return true;
}

mpp_units_rc mpp_units_int(const char *s, mpp_units_kind kind, double net_mhz, uint64_t *out)
{
    size_t len = mpp_units_scan(s, false);
    const char *rest = s + len;
    if (len && *rest == ' ')
        rest++;
    if (len && !*rest)
        return mpp_units_u64(s, len, out) ? MPP_UNITS_OK : MPP_UNITS_BAD;
    if (!len || !*rest || kind == MPP_UNITS_PLAIN)
        return MPP_UNITS_BAD;
    const unit *u = kind == MPP_UNITS_BYTES
                        ? find_unit(byte_units, sizeof byte_units / sizeof *byte_units, rest)
                        : find_unit(time_units, sizeof time_units / sizeof *time_units, rest);
    if (!u)
        return MPP_UNITS_BAD;
    double x = number_value(s, len);
    if (kind == MPP_UNITS_TIME) {
        if (!(net_mhz > 0))
            return MPP_UNITS_NEED_CLOCK;
        x = floor(x * u->factor * net_mhz + 0.5);
    } else {
        x = x * u->factor;
        if (fabs(x - floor(x + 0.5)) > 1e-6 * (x > 1 ? x : 1))
            return MPP_UNITS_BAD; /* not a whole number of bytes */
        x = floor(x + 0.5);
    }
    if (!(x >= 0) || x >= 18446744073709551616.0)
        return MPP_UNITS_BAD;
    *out = (uint64_t)x;
    return MPP_UNITS_OK;
}
