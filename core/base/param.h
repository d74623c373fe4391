/* core/base/param.h — parameter schemas.
 *
 * Every configurable part (the network, the workload, each topology, routing
 * and traffic-pattern plug-in) describes its configuration as a table of
 * mpp_param rows: key, type, where the value lives in the part's plain C
 * config struct, default, range and help. The configuration layer
 * (core/cfgtree.c, core/experiment.c) checks YAML values against these tables (unknown key, wrong
 * type, out of range -> file:line:column), fills the struct, and prints the
 * resolved configuration from the same tables. Nothing reads configuration
 * after setup. */
#ifndef MPP_CORE_BASE_PARAM_H
#define MPP_CORE_BASE_PARAM_H

#include <stddef.h>
#include <stdint.h>

typedef enum mpp_ptype {
    MPP_PT_U32,     /* uint32_t; an integer */
    MPP_PT_U64,     /* uint64_t; an integer */
    MPP_PT_DOUBLE,  /* double */
    MPP_PT_BOOL,    /* bool: true / false */
    MPP_PT_ENUM,    /* int: index into choices[] (NULL-terminated names) */
    MPP_PT_BYTES,   /* uint64_t bytes; accepts units B, KB, KiB, MB, MiB, GB, GiB */
    MPP_PT_CYCLES,  /* uint64_t network cycles; accepts ns, us, ms, s when net_mhz > 0 */
    MPP_PT_U32LIST, /* mpp_u32list: a YAML list of integers (or one integer) */
    MPP_PT_SENDLIST, /* mpp_sendlist: a YAML list of [src, dst, bytes] triples */
    MPP_PT_STRING   /* char[MPP_STR_MAX]: text (a file name) */
} mpp_ptype;

#define MPP_U32LIST_MAX 16

/* A short list of integers held by value (e.g. parents per fat-tree level). */
typedef struct mpp_u32list {
    uint32_t n;
    uint32_t v[MPP_U32LIST_MAX];
} mpp_u32list;

#define MPP_SENDLIST_MAX 256
#define MPP_STR_MAX 256

/* Explicit messages: [src, dst, bytes] (bytes accept units). min/max of the
 * row bound the node ids. */
typedef struct mpp_sendlist {
    uint32_t n;
    struct {
        uint32_t src, dst;
        uint64_t bytes;
    } v[MPP_SENDLIST_MAX];
} mpp_sendlist;

/* One configuration key. min/max bound numeric values (and every element of
 * a list); def is the default written as it would be in YAML. */
typedef struct mpp_param {
    const char *key;
    mpp_ptype type;
    size_t offset;              /* offsetof(config struct, field) */
    const char *def;            /* default value as YAML text */
    double min, max;            /* inclusive range for numbers */
    const char *const *choices; /* MPP_PT_ENUM: NULL-terminated names */
    const char *help;
} mpp_param;

/* Configuration storage for a plug-in, held by value inside mpp_sim_config
 * so configurations can be copied with `=`. A plug-in's config struct must fit
 * (checked when the registry is consulted). */
#define MPP_BLOB_SIZE 256
typedef struct mpp_blob {
    _Alignas(8) unsigned char b[MPP_BLOB_SIZE];
} mpp_blob;

/* A plug-in's configuration schema: the rows and the size of its struct. */
typedef struct mpp_schema {
    const mpp_param *params;
    size_t nparams;
    size_t size;
} mpp_schema;

#define MPP_COUNTOF(a) (sizeof(a) / sizeof((a)[0]))

#endif
