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

#endif
