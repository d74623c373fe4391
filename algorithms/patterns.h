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

/* The partner of every node under a fixed pattern: dst[p] is the node that
 * node p sends to, the pattern acting on logical ids placed on nodes by
 * `placement` (mpp_place, seeded by seed). dst has t->nodes entries. Fails
 * with MPP_EINVAL when the pattern does not fit t or draws a destination
 * per packet (uniform, hotspot: no fixed partner), or MPP_ENOMEM. */
int mpp_pattern_partners(const mpp_pattern_ops *ops, const void *cfg, int placement,
                         const mpp_topo *t, uint64_t seed, uint32_t *dst, mpp_err *err);

/* The schema row of a workload's `pattern` key: the pattern in field
 * `field` of config struct `type`, its configuration in `blob_field`. */
#define MPP_PATTERN_ROW(type, field, blob_field, def)                                        \
    {"pattern", MPP_PT_PLUGIN, offsetof(type, field), def, 0, 0, NULL,                      \
     "traffic pattern on logical ids (mppnet list patterns); its parameters go in "         \
     "workload.<pattern>",                                                                  \
     &mpp_pattern_family, offsetof(type, blob_field)}

#endif
