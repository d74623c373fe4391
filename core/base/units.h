/* core/base/units.h — numbers as people write them in configurations
 * (mpp_units_*): strict decimal integers, decimal numbers, sizes with a unit
 * (2KiB) and times with a unit (1.5us) turned into network cycles with a
 * known clock. Pure functions of their text: no locale, no allocation, no
 * errno. Used by the schema layer (core/base/param.c) and the command line. */
#ifndef MPP_CORE_BASE_UNITS_H
#define MPP_CORE_BASE_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Outcome of a conversion. */
typedef enum mpp_units_rc {
    MPP_UNITS_OK = 0,
    MPP_UNITS_BAD = 1,       /* not a number of the expected form, or out of the type */
    MPP_UNITS_NEED_CLOCK = 2 /* a time, but no network clock is known (net_mhz 0) */
} mpp_units_rc;

/* What an integer text may carry. */
typedef enum mpp_units_kind {
    MPP_UNITS_PLAIN = 0, /* decimal digits only */
    MPP_UNITS_BYTES = 1, /* digits, or a number with B, KB, KiB, MB, MiB, GB, GiB giving a
                            whole number of bytes */
    MPP_UNITS_TIME = 2   /* digits (cycles), or a number with ns, us, ms, s, converted with
                            net_mhz and rounded to the nearest cycle */
} mpp_units_kind;

/* Strict decimal digits (no sign, no space) into *out; false on anything
 * else or on overflow of 64 bits. */
bool mpp_units_u64(const char *s, size_t len, uint64_t *out);

/* Length of the decimal number at the start of s
 * ([-]digits[.digits][e[+-]digits], at least one mantissa digit; the sign
 * only when `sign`), 0 when there is none. */
size_t mpp_units_scan(const char *s, bool sign);

/* The whole of s as a finite decimal number (sign allowed). */
bool mpp_units_double(const char *s, double *out);

/* The whole of s as an unsigned 64-bit integer of `kind` (see above); one
 * space is allowed between a number and its unit. */
mpp_units_rc mpp_units_int(const char *s, mpp_units_kind kind, double net_mhz, uint64_t *out);

#endif
