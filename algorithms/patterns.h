/* algorithms/patterns.h — the traffic-pattern family: the registry of the
 * synthetic patterns (algorithms/patterns.c). The ops table is the
 * engine's (core/traffic.h). */
#ifndef MPP_ALGORITHMS_PATTERNS_H
#define MPP_ALGORITHMS_PATTERNS_H

#include "core/traffic.h"

/* The pattern called name or one of its aliases (BookSim names), or NULL. */
const mpp_pattern_ops *mpp_pattern_find(const char *name);
/* NULL-terminated list of all registered patterns. */
const mpp_pattern_ops *const *mpp_pattern_all(void);
/* The family, for schemas (MPP_PT_PLUGIN rows) and the configuration layer. */
extern const mpp_family mpp_pattern_family;

/* The schema row of a workload's `pattern` key: the pattern in field
 * `field` of config struct `type`, its configuration in `blob_field`. */
#define MPP_PATTERN_ROW(type, field, blob_field, def)                                        \
    {"pattern", MPP_PT_PLUGIN, offsetof(type, field), def, 0, 0, NULL,                      \
     "traffic pattern on logical ids (mppnet list patterns); its parameters go in "         \
     "workload.<pattern>",                                                                  \
     &mpp_pattern_family, offsetof(type, blob_field)}

#endif
