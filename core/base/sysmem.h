/* core/base/sysmem.h — how much memory this machine lets a run take, and
 * sizes in words for messages (mpp_sysmem_*). Base layer: no printing.
 *
 * A topology, a network and a workload estimate their memory from the
 * configuration before they allocate (docs/performance.md, "Memory") and
 * refuse a configuration whose estimate is above mpp_sysmem_limit(). */
#ifndef MPP_CORE_BASE_SYSMEM_H
#define MPP_CORE_BASE_SYSMEM_H

#include <stddef.h>
#include <stdint.h>

#include "core/base/err.h"

/* The environment variable that lowers the limit (bytes, with a unit
 * suffix as every size: "1GiB"); for tests. A value above the machine's
 * memory is ignored; one that does not parse is refused by
 * mpp_sysmem_check_env (the command line calls it first). */
#define MPP_SYSMEM_ENV "MPPNET_MEMORY_LIMIT"

/* 0 when MPP_SYSMEM_ENV is unset or a size of at least 1 byte; else
 * MPP_EINVAL naming the variable, its value and what is expected. */
int mpp_sysmem_check_env(mpp_err *err);

/* The most memory a run may take: the machine's physical memory
 * (sysconf(_SC_PHYS_PAGES) x page size), or less with MPP_SYSMEM_ENV set.
 * Never fails: an unknown size is UINT64_MAX (no limit). */
uint64_t mpp_sysmem_limit(void);

/* bytes in words, three significant digits and a binary unit: "4.75 GiB",
 * "812 MiB", "96 B"; into buf (len bytes, at least 16). Returns buf. */
const char *mpp_sysmem_str(uint64_t bytes, char *buf, size_t len);

#endif
