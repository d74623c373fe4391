/* core/config/cfgtree.h — YAML documents as trees with source locations (mpp_cfgtree_*).
 *
 * A configuration file is read with libyaml into a tree of nodes: mappings
 * (ordered key/value pairs, keys are scalars, no duplicates), sequences and
 * scalars (text, plus whether it was written plain or quoted). Every node
 * remembers where it came from, so that later checks against the parameter
 * schemas (core/base/param.h) can say "FILE:LINE:COLUMN: ...". Nodes created from
 * the command line (overrides) carry the override text as their origin and no
 * line ("command line: network.vcs=4").
 *
 * Only plain YAML is accepted: anchors, aliases, tags and multi-document
 * streams are rejected with an error naming the location.
 *
 * The node type is opaque; read it through the accessors, change it only
 * through mpp_cfgtree_set / mpp_cfgtree_remove. A tree is owned by whoever
 * got it from a parse, copy or new function and is released with
 * mpp_cfgtree_free. Nothing here is on the hot path.
 *
 * mpp_cfgtree_convert turns a scalar (or list) node into the C value a
 * schema row describes, with the row's checks (type, range, enum choices,
 * size and time units) and error messages "WHERE: key 'a.b': expected ...,
 * got '...'". */
#ifndef MPP_CORE_CONFIG_CFGTREE_H
#define MPP_CORE_CONFIG_CFGTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/err.h"
#include "core/base/param.h"
#include "core/base/strbuf.h"

typedef struct mpp_cfgnode mpp_cfgnode;

typedef enum mpp_cfgkind {
    MPP_CFG_SCALAR = 0, /* text (an empty value `key:` is a null scalar) */
    MPP_CFG_MAP = 1,    /* ordered key -> value pairs */
    MPP_CFG_SEQ = 2     /* ordered items */
} mpp_cfgkind;

/* The largest configuration file read (an experiment is a few kilobytes). */
#define MPP_CFGTREE_MAX_BYTES (16u << 20)

/* Read the YAML file at path (a regular file of at most
 * MPP_CFGTREE_MAX_BYTES). Returns the root node (an empty file gives a
 * null scalar), or NULL with err set: MPP_EIO when the file cannot be read,
 * MPP_EINVAL with "PATH:LINE:COL: problem" for a syntax error, a duplicate
 * key, an anchor, alias or tag, or more than one document; MPP_ENOMEM. */
mpp_cfgnode *mpp_cfgtree_parse_file(const char *path, mpp_err *err);

/* The same from len bytes of text; origin names it in locations and errors
 * (NULL: "<string>"). */
mpp_cfgnode *mpp_cfgtree_parse_text(const char *text, size_t len, const char *origin,
                                    mpp_err *err);

/* Parse a short YAML value (a scalar, "[1, 2]", "{rows: 4}") whose nodes all
 * get `origin` as their location and no line. Errors read "ORIGIN: problem".
 * Used for command-line values and schema defaults. */
mpp_cfgnode *mpp_cfgtree_parse_value(const char *text, const char *origin, mpp_err *err);

/* Split a command-line override "KEY=VALUE" at the first '=' and parse
 * VALUE as YAML with origin "command line: KEY=VALUE". On success *path is
 * a malloc'd copy of KEY and *value a new tree (both owned by the caller).
 * Fails with MPP_EINVAL "command line: TEXT: ..." when there is no '=', the
 * key is empty or has an empty component, or the value is not valid YAML. */
int mpp_cfgtree_assignment(const char *assignment, char **path, mpp_cfgnode **value,
                           mpp_err *err);

/* Set the value at the dotted key path in the mapping root, creating
 * mappings on the way (a null value on the way becomes an empty mapping; a
 * null root too) and replacing an existing value. The path is split into at
 * most maxparts components (0: no limit), the last one taking the rest, so
 * "sweep.workload.rate" with maxparts 2 is the key "workload.rate" of
 * "sweep". Always takes ownership of value (freed on failure). Keys created
 * here get value's location. Fails with MPP_EINVAL (a component on the way
 * is a scalar or a list, an empty component; the message starts with
 * value's location) or MPP_ENOMEM (also when value is NULL, so the result
 * of a failed mpp_cfgtree_new_scalar can be passed straight in). */
int mpp_cfgtree_set(mpp_cfgnode *root, const char *path, unsigned maxparts, mpp_cfgnode *value,
                    mpp_err *err);

/* mpp_cfgtree_assignment then mpp_cfgtree_set(root, KEY, 0, VALUE). */
int mpp_cfgtree_override(mpp_cfgnode *root, const char *assignment, mpp_err *err);

/* Give every node of the tree n the location ORIGIN:LINE:COL (origin is
 * copied): values that were read from a file by another reader (the
 * overrides kept in a run folder) are then checked as that file's values.
 * 0, or MPP_ENOMEM (the tree keeps some old locations). */
int mpp_cfgtree_locate(mpp_cfgnode *n, const char *origin, uint32_t line, uint32_t col,
                       mpp_err *err);

/* Remove the entry at the key path (split as in mpp_cfgtree_set). Returns
 * true when something was removed. */
bool mpp_cfgtree_remove(mpp_cfgnode *root, const char *path, unsigned maxparts);

/* New nodes located where loc is (loc may be NULL: origin "<internal>").
 * NULL when out of memory. */
mpp_cfgnode *mpp_cfgtree_new_scalar(const char *text, const mpp_cfgnode *loc);
mpp_cfgnode *mpp_cfgtree_new_map(const mpp_cfgnode *loc);

/* A deep copy (locations included), or NULL when out of memory. */
mpp_cfgnode *mpp_cfgtree_copy(const mpp_cfgnode *n);

/* Free a tree. NULL is a no-op. */
void mpp_cfgtree_free(mpp_cfgnode *n);

/* Accessors; none fails. */
mpp_cfgkind mpp_cfgtree_kind(const mpp_cfgnode *n);
/* A scalar's text ("" for an empty value), NULL for other kinds. */
const char *mpp_cfgtree_text(const mpp_cfgnode *n);
/* True for a scalar written in quotes. */
bool mpp_cfgtree_quoted(const mpp_cfgnode *n);
/* True for a plain null scalar: empty, ~, null, Null, NULL. */
bool mpp_cfgtree_is_null(const mpp_cfgnode *n);
/* Number of pairs (map) or items (sequence); 0 for a scalar. */
size_t mpp_cfgtree_len(const mpp_cfgnode *n);
/* Map: key node i (a scalar) and value i. Sequence: item i (key is NULL). */
const mpp_cfgnode *mpp_cfgtree_key(const mpp_cfgnode *n, size_t i);
const mpp_cfgnode *mpp_cfgtree_item(const mpp_cfgnode *n, size_t i);
/* Map: the value of key (exact match), or NULL (also for non-maps). */
const mpp_cfgnode *mpp_cfgtree_get(const mpp_cfgnode *map, const char *key);
/* The node at a dotted path from root, or NULL. */
const mpp_cfgnode *mpp_cfgtree_lookup(const mpp_cfgnode *root, const char *path);

/* Location: origin (file name or command-line text), 1-based line and
 * column (line 0: none). */
const char *mpp_cfgtree_origin(const mpp_cfgnode *n);
uint32_t mpp_cfgtree_line(const mpp_cfgnode *n);
uint32_t mpp_cfgtree_column(const mpp_cfgnode *n);
/* "ORIGIN:LINE:COL", or "ORIGIN" when there is no line, into buf; returns
 * buf. */
const char *mpp_cfgtree_where(const mpp_cfgnode *n, char *buf, size_t size);

/* A path read from a file (a node with a line) must be relative and free
 * of '..' components, so that a file someone sends cannot make mppnet read
 * or write outside the working folder; a path given on the command line
 * may be anything. 0, or MPP_EINVAL "WHERE: key 'KEYPATH': a path in a file
 * must be relative ...". */
int mpp_cfgtree_check_path(const mpp_cfgnode *n, const char *keypath, mpp_err *err);

/* The check of an input file named by a file: mpp_cfgtree_check_path,
 * then its real path (every symlink resolved, mpp_file_inside_cwd) must
 * lie inside the working folder's; a name that resolves to nothing passes
 * (the reader reports it). Command-line values pass. 0, or MPP_EINVAL
 * "WHERE: key 'KEYPATH': 'NAME' leads outside the working folder ...". A
 * symlink changed between this check and the reader's open is not seen. */
int mpp_cfgtree_check_input(const mpp_cfgnode *n, const char *keypath, mpp_err *err);

/* A section (n, possibly NULL) must be a mapping or empty: 0, or
 * MPP_EINVAL "WHERE: key 'KEYPATH': expected a mapping of WHAT, got ...". */
int mpp_cfgtree_expect_map(const mpp_cfgnode *n, const char *keypath, const char *what,
                           mpp_err *err);

/* Append n as one line of flow-style YAML ("0.25", "[1, 2]",
 * "{rows: 4, cols: 4}"); quoted scalars are written double-quoted. */
void mpp_cfgtree_emit(const mpp_cfgnode *n, mpp_sb *out);

/* Convert node n to the value schema row p describes and store it at
 * (char *)base + p->offset. keypath is the full key for messages
 * ("network.vcs"). net_mhz converts times (MPP_PT_CYCLES "1.5us"); 0 means
 * no clock is known, and a time is then an error.
 *
 * Accepted forms: U32/U64 decimal digits; DOUBLE a decimal number
 * ("0.1", "1e-3"); BOOL true/false; ENUM one of p->choices (stored as the
 * int index); BYTES an integer, or a number with unit B, KB (1000), KiB
 * (1024), MB, MiB, GB, GiB giving a whole number of bytes ("2KiB",
 * "1.5KB"); CYCLES an integer, or a number with unit ns, us, ms, s (rounded
 * to the nearest cycle); U32LIST a sequence of integers or one integer, at
 * most MPP_U32LIST_MAX.
 *
 * Range: p->min is a lower bound; p->max an upper bound unless
 * min == max == 0 or max < min (no upper bound beyond the type's). For lists
 * the range applies to every element.
 *
 * Fails with MPP_EINVAL "WHERE: key 'KEYPATH': expected an integer between
 * 1 and 64, got '0'" (nothing is stored). */
int mpp_cfgtree_convert(const mpp_cfgnode *n, const mpp_param *p, const char *keypath,
                        double net_mhz, void *base, mpp_err *err);

#endif
