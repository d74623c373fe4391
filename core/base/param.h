/* core/base/param.h — parameter schemas (mpp_param_*, mpp_schema_*).
 *
 * Every configurable part (the engine's network, node and run sections, each
 * workload, topology, routing, traffic-pattern and scheduler plug-in)
 * describes its configuration as a table of mpp_param rows: key, type, where
 * the value lives in the part's plain C config struct, default, range and
 * help. The configuration layer (core/config/) checks YAML values against
 * these tables (unknown key, wrong type, out of range -> file:line:column),
 * fills the struct, and prints the resolved configuration from the same
 * tables; the defaults are applied here (mpp_schema_defaults), so a part's
 * defaults live in one place, its schema. Nothing reads configuration after
 * setup.
 *
 * A row of type MPP_PT_PLUGIN selects a plug-in of another family (a
 * workload's traffic pattern or scheduler; the network's topology and
 * routing): the chosen ops table is stored at `offset` and its own
 * configuration (an mpp_blob filled from the plug-in's schema) at `blob`.
 * Families describe themselves to the configuration layer with an
 * mpp_family, defined next to each registry. */
#ifndef MPP_CORE_BASE_PARAM_H
#define MPP_CORE_BASE_PARAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/err.h"

struct mpp_sb;
typedef struct mpp_family mpp_family;

typedef enum mpp_ptype {
    MPP_PT_U32,     /* uint32_t; an integer */
    MPP_PT_U64,     /* uint64_t; an integer */
    MPP_PT_DOUBLE,  /* double */
    MPP_PT_BOOL,    /* bool: true / false */
    MPP_PT_ENUM,    /* int: index into choices[] (NULL-terminated names) */
    MPP_PT_BYTES,   /* uint64_t bytes; accepts units B, KB, KiB, MB, MiB, GB, GiB */
    MPP_PT_CYCLES,  /* uint64_t network cycles; accepts ns, us, ms, s when net_mhz > 0 */
    MPP_PT_U32LIST, /* mpp_u32list: a YAML list of integers (or one integer) */
    MPP_PT_BOOLLIST, /* mpp_u32list of 0/1: a YAML list of true/false, or one true/false
                        (stored as a list of one) */
    MPP_PT_SENDLIST, /* mpp_sendlist: a YAML list of [src, dst, bytes] triples */
    MPP_PT_STRING,  /* char[MPP_STR_MAX]: text (a file name) */
    MPP_PT_NAMEMAP, /* char[MPP_STR_MAX]: a YAML mapping of names to names
                       ({bcast: binomial, alltoall: direct}), held as the text
                       "bcast=binomial,alltoall=direct" in the order written
                       (mpp_namemap_next reads it) */
    MPP_PT_PLUGIN   /* const void *: an ops table of `family`; its config at `blob` */
} mpp_ptype;

#define MPP_U32LIST_MAX 16

/* MPP_PT_NAMEMAP: the longest name (a key or a value). */
#define MPP_NAMEMAP_NAME_MAX 63

/* Walk the pairs of an MPP_PT_NAMEMAP value: from *pos (start at the text),
 * copy the next key and value into key and val (each of at least
 * MPP_NAMEMAP_NAME_MAX + 1 bytes) and advance *pos. Returns 1 for a pair, 0
 * at the end. The text was checked when it was converted. */
int mpp_namemap_next(const char **pos, char *key, char *val);

/* Whether text is a valid MPP_PT_NAMEMAP value: empty, or KEY=VALUE pairs
 * joined by ',', each name 1 to MPP_NAMEMAP_NAME_MAX of [A-Za-z0-9_.+-],
 * no key twice, shorter than MPP_STR_MAX in all. */
bool mpp_namemap_valid(const char *text);

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
    const mpp_family *family;   /* MPP_PT_PLUGIN: the family (def: a plug-in name) */
    size_t blob;                /* MPP_PT_PLUGIN: offsetof(config struct, its mpp_blob) */
} mpp_param;

/* Configuration storage for a plug-in, held by value inside mpp_sim_config
 * so configurations can be copied with `=`. A plug-in's config struct must fit
 * (checked when the registry is consulted). */
#define MPP_BLOB_SIZE 1024 /* two file names (MPP_STR_MAX each) and a few keys */
typedef struct mpp_blob {
    _Alignas(8) unsigned char b[MPP_BLOB_SIZE];
} mpp_blob;

/* A plug-in's configuration schema: the rows and the size of its struct. */
typedef struct mpp_schema {
    const mpp_param *params;
    size_t nparams;
    size_t size;
} mpp_schema;

/* A plug-in family as the configuration layer sees it (STYLE rule 6):
 * named plug-ins, each with its own schema. Every hook but parse_short and
 * hidden is required. */
struct mpp_family {
    const char *what;                      /* "topology", "traffic pattern", ... */
    const void *(*find)(const char *name); /* by name or alias; NULL when unknown */
    const void *(*at)(size_t i);           /* the i-th registered, NULL past the last */
    const char *(*name)(const void *ops);  /* canonical name */
    const mpp_schema *(*schema)(const void *ops);
    bool (*hidden)(const void *ops);       /* not listed (test-only plug-ins); may be NULL */
    /* A compact form ("8x8" for a mesh) into "key=value" lines of the
     * plug-in's own keys; may be NULL, and may return 0 without appending
     * anything for a plug-in that has no short form. */
    int (*parse_short)(const void *ops, const char *args, struct mpp_sb *out, mpp_err *err);
};

#define MPP_COUNTOF(a) (sizeof(a) / sizeof((a)[0]))

/* Define `const mpp_family NAME` in a registry file: OPS is the family's
 * ops type (with .name and .schema), ALL the registry's NULL-terminated
 * array of pointers, FIND its lookup by name; then the designated
 * initializers of the rest: .what (required), .hidden, .parse_short. */
#define MPP_FAMILY_DEFINE(NAME, OPS, ALL, FIND, ...)                                         \
    static const void *NAME##_find(const char *n) { return FIND(n); }                       \
    static const void *NAME##_at(size_t i) { return i < MPP_COUNTOF(ALL) ? ALL[i] : NULL; } \
    static const char *NAME##_name(const void *o) { return ((const OPS *)o)->name; }        \
    static const mpp_schema *NAME##_schema(const void *o) { return &((const OPS *)o)->schema; } \
    const mpp_family NAME = {.find = NAME##_find,                                           \
                             .at = NAME##_at,                                               \
                             .name = NAME##_name,                                           \
                             .schema = NAME##_schema,                                       \
                             __VA_ARGS__}

/* The row called key, or NULL. */
const mpp_param *mpp_schema_find(const mpp_schema *s, const char *key);

/* Store the value `text` (the YAML form of a scalar: digits, a number, a
 * size or time with a unit, true/false, an enum word, a text; for lists the
 * flow forms "[]", "[1, 2]") for row p at (char *)base + p->offset, after
 * checking its form and range. Times need net_mhz > 0. Returns
 * MPP_UNITS_OK, MPP_UNITS_BAD or MPP_UNITS_NEED_CLOCK (core/base/units.h);
 * nothing is stored on failure. MPP_PT_PLUGIN rows are not values: BAD. */
int mpp_param_set_text(const mpp_param *p, const char *text, double net_mhz, void *base);

/* Fill base (a struct of s->size bytes) with every row's default. A
 * default that its own row rejects is a bug of the schema (assert); PLUGIN
 * rows are left to the configuration layer (their ops pointer stays NULL). */
void mpp_schema_defaults(const mpp_schema *s, void *base);

/* Row p's integer range for its type: [*lo, *hi]. */
void mpp_param_int_bounds(const mpp_param *p, uint64_t *lo, uint64_t *hi);
/* True when row p has an upper bound (max >= min, and not min == max == 0). */
bool mpp_param_has_upper(const mpp_param *p);

#endif
