/* core/config/experiment.c — YAML experiments: load, resolve, expand sweeps, dump
 * (see experiment.h).
 *
 * What it models: an experiment file is a description of a family of runs.
 * Loading reads the file into a located tree (core/cfgtree.h), applies the
 * command-line overrides to the tree, expands the `sweep:` cross product and
 * the seeds, and resolves every run against the parameter schemas into an
 * mpp_sim_config. A loaded experiment is therefore valid as a whole; nothing
 * is resolved later and nothing reads the tree after load.
 *
 * THE SCHEMA (version 1). Every key is optional except `mppnet`; every
 * key's default comes from a schema: the engine's sections (core/schema.c),
 * the plug-in selectors (core/config/simcfg.c), each plug-in's ops->schema
 * (the chosen workload's for the rest of `workload:`), output_params and
 * the run schema's seed here. docs/config.md lists them all.
 *
 *   mppnet: 1                 # required: schema version; only 1 is accepted
 *   name: quickstart          # text; default: the file's base name without
 *                             #   .yaml/.yml ("experiment" for YAML text)
 *   description: "..."        # free text, not used
 *   machine: cm5              # a shipped machine preset (cm5, paragon,
 *                             #   hypercube): its network: and node: keys
 *                             #   apply under whatever the file and the
 *                             #   command line say
 *   network:                  # topology and router selectors, each with its
 *     topology: mesh          #   section (`mesh: {rows: 8, cols: 8}`, or the
 *     mesh: {rows: 8, cols: 8}#   short form `mesh: 8x8`), then the engine's
 *     router: ecube           #   network keys (vcs, buffer_flits, ...)
 *     vcs: 2
 *   node: {...}               # the processor and NIC keys
 *   workload:
 *     type: synthetic         # a workload (mppnet list workloads); the other
 *     pattern: uniform        #   keys are that workload's own, flat, with
 *     rate: 0.1               #   nested sections for its plug-in selectors
 *   seed: 1                   # integer >= 0; default 1
 *   seeds: [1, 2, 3]          # or a list of distinct seeds (not both)
 *   sweep:                    # key path -> non-empty list of values
 *     network.router: [ecube, valiant]
 *     workload.rate: [0.1, 0.2, 0.3]
 *   output:                   # not part of the model (not in dumps/hashes)
 *     dir: results/quickstart # default "results/<name>"
 *     per_channel: false      # channels.csv (sets run.record_channels)
 *     traffic_matrix: false   # matrix csv (sets run.record_matrix)
 *     plot: true
 *     per_message: false      # messages.csv (one row per delivered message)
 *   sim:                      # how the engine runs, not the model (not in
 *     threads: 1              #   dumps/hashes): threads advancing one network,
 *                             #   1..256; results do not depend on it
 *
 * Value forms: integers are decimal digits (no sign, no fraction); sizes
 * (MPP_PT_BYTES) take units B, KB=1000, KiB=1024, MB, MiB, GB, GiB; cycles
 * take ns, us, ms, s converted with network.net_mhz (an error when it is 0);
 * booleans are true/false; enums are one of the listed words. An empty value
 * (`vcs:`) is an error for a parameter and an empty mapping for a section.
 *
 * Sections, selectors and plug-in sections are resolved by
 * core/config/simcfg.c (mpp_config_apply), point by point.
 *
 * Sweeps: each `sweep:` key is a dotted key path under network., node. or
 * workload. (seeds have their own list; output is per experiment), or
 * several joined by '+' (a zipped axis: "network.hypercube.dim+workload.d":
 * [[5, 1], [9, 511]] sets both keys together); each
 * value is a non-empty list. The runs are the cross product of the lists, in
 * the order the axes are written, the last axis varying fastest, and within
 * a point the seeds varying fastest: run = (point x nseeds) + seed index. A
 * list item that is a scalar replaces the key's value as a scalar, a mapping
 * or list replaces it as a whole. Errors in a swept value point at the value
 * inside the sweep list, and an error found while resolving a sweep point
 * names that point (unless it is the first point and the file has the same
 * error without the sweep).
 *
 * Overrides ("key.path=value", the value parsed as YAML) are applied in
 * order to the tree before anything is resolved, with the location
 * "command line: key.path=value". "sweep.KEY=[...]" sets the sweep axis KEY
 * (KEY keeps its dots). An override of a key that is also a sweep axis
 * removes that axis: the command line wins.
 *
 * Dumps (mpp_experiment_config_yaml/json) are mpp_config_dump's: every
 * key with its resolved value, in schema order. The hash is FNV-1a 64 over
 * the YAML dump.
 *
 * Invariants:
 *   1. nruns == npoints x nseeds, npoints == product of the axis lengths,
 *      and cfg[] holds nruns resolved configurations;
 *   2. every cfg[i] has a topology, a routing and a workload, each plug-in's
 *      blob filled from its schema (simcfg.c, invariant 1);
 *   3. seeds[] are pairwise distinct; cfg[p * nseeds + s].run.seed ==
 *      seeds[s].
 */
#include "core/config/experiment.h"
#include "core/config/booksim.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config/cfgtree.h"
#include "core/config/preset.h"
#include "core/config/simcfg.h"
#include "core/schema.h"

/* ----------------------------------------------------------- the schemas */

/* `output:` keys (offsets into mpp_output_config); dir is text, apart. */
static const mpp_param output_params[] = {
    {"per_channel", MPP_PT_BOOL, offsetof(mpp_output_config, per_channel), "false", 0, 0, NULL,
     "write per-channel utilisation"},
    {"traffic_matrix", MPP_PT_BOOL, offsetof(mpp_output_config, traffic_matrix), "false", 0, 0,
     NULL, "write the measured traffic matrix"},
    {"plot", MPP_PT_BOOL, offsetof(mpp_output_config, plot), "true", 0, 0, NULL,
     "plot with gnuplot when it is installed"},
    {"per_message", MPP_PT_BOOL, offsetof(mpp_output_config, per_message), "false", 0, 0, NULL,
     "write one row per delivered message (messages workload)"},
};
static const mpp_schema output_schema = {output_params, MPP_COUNTOF(output_params),
                                         sizeof(mpp_output_config)};

/* `sim:` keys (offsets into mpp_run_config): how the engine runs, not what it
 * models, so, like output:, not in dumps or hashes; every run of the
 * experiment gets them. */
static const mpp_param sim_params[] = {
    {"threads", MPP_PT_U32, offsetof(mpp_run_config, threads), "1", 1, MPP_SIM_MAX_THREADS,
     NULL, "threads that advance one network (its routers split into that many blocks); "
           "results are the same for every value (docs/scaling.md)"},
};
static const mpp_schema sim_schema = {sim_params, MPP_COUNTOF(sim_params),
                                      sizeof(mpp_run_config)};

static const char *const top_keys[] = {"mppnet", "name",  "description", "machine", "network",
                                       "node",   "workload", "seed", "seeds", "sweep", "output",
                                       "sim"};


/* More runs than this is surely a mistake in the sweep. */
#define MAX_RUNS 20000u /* every run holds its resolved configuration (about 7 KB) */

/* --------------------------------------------------------- the experiment */

typedef struct axis {
    char *key;    /* dotted key path */
    size_t n;     /* values */
    char **text;  /* [n] values as written */
} axis;

struct mpp_experiment {
    char *name;
    mpp_output_config out;
    mpp_run_config sim;  /* the sim: keys (threads) */
    size_t naxes;
    axis *axes;          /* [naxes] */
    size_t nseeds;
    uint64_t *seeds;     /* [nseeds] */
    size_t npoints;      /* product of the axis lengths */
    size_t nruns;        /* npoints x nseeds */
    mpp_sim_config *cfg; /* [nruns] */
    mpp_cfgnode *root;   /* the resolved tree, kept for mpp_experiment_where */
    const mpp_cfgnode **values; /* [naxes]: each axis's list of values in root */
};

/* ---------------------------------------------------------------- helpers */

static const char *where(const mpp_cfgnode *n, char *buf, size_t size)
{
    return mpp_cfgtree_where(n, buf, size);
}

static int fail_sb(mpp_err *err, int code, mpp_sb *sb) { return mpp_sb_to_err(sb, err, code); }

/* Part j of a sweep key: "KEY1+KEY2" is a zipped axis whose parts are
 * KEY1 and KEY2; a plain key is its own part 0. Copies it into part
 * (truncated to size) and returns true, or false when there is no part j. */
static bool zip_part(const char *key, size_t j, char *part, size_t size)
{
    const char *c = key;
    for (; j > 0; j--) {
        c = strchr(c, '+');
        if (!c)
            return false;
        c++;
    }
    size_t len = strcspn(c, "+");
    snprintf(part, size, "%.*s", (int)len, c);
    return true;
}

static int expect_map(const mpp_cfgnode *n, const char *keypath, const char *what, mpp_err *err)
{
    return mpp_cfgtree_expect_map(n, keypath, what, err);
}

/* Resolve the model part of a run tree (network, node, workload) into cfg:
 * every default, then what the tree says. The seed and output flags are
 * set by the caller. */
static int resolve_model(const mpp_cfgnode *root, mpp_sim_config *cfg, mpp_err *err)
{
    mpp_config_defaults(cfg);
    return mpp_config_apply(root, cfg, err);
}

/* --------------------------------------------------------- the top level */

static int check_top_keys(const mpp_cfgnode *root, mpp_err *err)
{
    char w[320];
    for (size_t i = 0; i < mpp_cfgtree_len(root); i++) {
        const mpp_cfgnode *k = mpp_cfgtree_key(root, i);
        const char *key = mpp_cfgtree_text(k);
        bool ok = false;
        for (size_t j = 0; j < MPP_COUNTOF(top_keys) && !ok; j++)
            ok = !strcmp(top_keys[j], key);
        if (!ok) {
            mpp_sb sb;
            mpp_sb_init(&sb);
            mpp_sb_printf(&sb, "%s: unknown key '%s'", where(k, w, sizeof w), key);
            const char *hint = mpp_booksim_hint(key);
            if (hint)
                mpp_sb_printf(&sb, "; did you mean %s (BookSim's %s)?", hint, key);
            mpp_sb_add(&sb, "; valid top-level keys: ");
            for (size_t j = 0; j < MPP_COUNTOF(top_keys); j++)
                mpp_sb_printf(&sb, "%s%s", j ? ", " : "", top_keys[j]);
            return fail_sb(err, MPP_EINVAL, &sb);
        }
    }
    return 0;
}

static int check_version(const mpp_cfgnode *root, mpp_err *err)
{
    char w[320];
    const mpp_cfgnode *v = mpp_cfgtree_get(root, "mppnet");
    if (!v)
        return mpp_err_set(err, MPP_EINVAL,
                           "%s: missing required key 'mppnet' (the schema version): start the "
                           "file with `mppnet: 1`",
                           mpp_cfgtree_origin(root));
    const char *t = mpp_cfgtree_text(v);
    if (!t || strcmp(t, "1") != 0)
        return mpp_err_set(err, MPP_EINVAL,
                           "%s: key 'mppnet': expected the schema version 1, got %s%.40s%s",
                           where(v, w, sizeof w), t ? "'" : "a ",
                           t ? t : (mpp_cfgtree_kind(v) == MPP_CFG_MAP ? "mapping" : "list"),
                           t ? "'" : "");
    return 0;
}

/* A text value (name, description, output.dir): a non-empty scalar. */
static int text_value(const mpp_cfgnode *v, const char *key, bool allow_empty, const char **out,
                      mpp_err *err)
{
    char w[320];
    const char *t = mpp_cfgtree_text(v);
    if (t && mpp_cfgtree_is_null(v))
        t = "";
    if (!t || (!allow_empty && !t[0]))
        return mpp_err_set(err, MPP_EINVAL, "%s: key '%s': expected %stext, got %s",
                           where(v, w, sizeof w), key, allow_empty ? "" : "non-empty ",
                           !t ? (mpp_cfgtree_kind(v) == MPP_CFG_MAP ? "a mapping" : "a list")
                              : "an empty value");
    *out = t;
    return 0;
}

/* The characters a name may hold: it names the default output folder
 * results/NAME, so nothing a shell, a terminal or a file system treats
 * specially (docs/config.md, "name"). */
#define NAME_CHARS                                                                                 \
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-+/"

/* 0 when the name v holds (text t) is made of NAME_CHARS only; else
 * MPP_EINVAL at v's file:line:column naming the first other character. */
static int check_name_chars(const mpp_cfgnode *v, const char *t, mpp_err *err)
{
    size_t at = strspn(t, NAME_CHARS);
    if (!t[at])
        return 0;
    char w[320];
    return mpp_err_set(err, MPP_EINVAL,
                       "%s: key 'name': '%c' (character %zu) is not allowed in a name: the name "
                       "makes the output folder results/NAME and may hold only letters, digits "
                       "and . _ - + / (got '%.80s')",
                       where(v, w, sizeof w), t[at], at + 1, t);
}

static int resolve_name(mpp_experiment *e, const mpp_cfgnode *root, const char *default_name,
                        mpp_err *err)
{
    const char *name = default_name, *desc;
    int rc;
    const mpp_cfgnode *v = mpp_cfgtree_get(root, "name");
    if (v && ((rc = text_value(v, "name", false, &name, err)) ||
              (rc = mpp_cfgtree_check_path(v, "name", err)) ||
              (rc = check_name_chars(v, name, err))))
        return rc;
    v = mpp_cfgtree_get(root, "description");
    if (v && (rc = text_value(v, "description", true, &desc, err)))
        return rc;
    e->name = strdup(name);
    return e->name ? 0 : mpp_err_set(err, MPP_ENOMEM, "out of memory");
}

static int resolve_output(mpp_experiment *e, const mpp_cfgnode *root, mpp_err *err)
{
    char w[320];
    int rc;
    memset(&e->out, 0, sizeof e->out);
    mpp_schema_defaults(&output_schema, &e->out);
    const mpp_cfgnode *sec = mpp_cfgtree_get(root, "output");
    if ((rc = expect_map(sec, "output", "output keys", err)))
        return rc;
    const char *dir = NULL;
    size_t n = sec && !mpp_cfgtree_is_null(sec) ? mpp_cfgtree_len(sec) : 0;
    for (size_t i = 0; i < n; i++) {
        const mpp_cfgnode *k = mpp_cfgtree_key(sec, i);
        const mpp_cfgnode *v = mpp_cfgtree_item(sec, i);
        const char *key = mpp_cfgtree_text(k);
        char kp[256];
        snprintf(kp, sizeof kp, "output.%s", key);
        if (!strcmp(key, "dir")) {
            if ((rc = text_value(v, kp, false, &dir, err)) ||
                (rc = mpp_cfgtree_check_path(v, kp, err)))
                return rc;
            if (strlen(dir) >= sizeof e->out.dir)
                return mpp_err_set(err, MPP_EINVAL, "%s: key 'output.dir': longer than %zu bytes",
                                   where(v, w, sizeof w), sizeof e->out.dir - 1);
            continue;
        }
        const mpp_param *row = mpp_schema_find(&output_schema, key);
        if (!row) {
            mpp_sb sb;
            mpp_sb_init(&sb);
            mpp_sb_printf(&sb, "%s: unknown key '%s'; valid keys of output: dir",
                          where(k, w, sizeof w), kp);
            for (size_t j = 0; j < MPP_COUNTOF(output_params); j++)
                mpp_sb_printf(&sb, ", %s", output_params[j].key);
            return fail_sb(err, MPP_EINVAL, &sb);
        }
        if ((rc = mpp_cfgtree_convert(v, row, kp, 0, &e->out, err)))
            return rc;
    }
    if (dir) {
        snprintf(e->out.dir, sizeof e->out.dir, "%s", dir);
        e->out.dir_free = mpp_cfgtree_line(mpp_cfgtree_get(sec, "dir")) == 0;
    } else {
        int len = snprintf(e->out.dir, sizeof e->out.dir, "results/%s", e->name);
        if (len < 0 || (size_t)len >= sizeof e->out.dir)
            return mpp_err_set(err, MPP_EINVAL,
                               "%s: the name is too long for the default output.dir",
                               mpp_cfgtree_origin(root));
    }
    return 0;
}

/* The `sim:` section: each key checked against sim_schema (unknown key,
 * wrong type, out of range: an error with the location). */
static int resolve_sim(mpp_experiment *e, const mpp_cfgnode *root, mpp_err *err)
{
    char w[320];
    int rc;
    memset(&e->sim, 0, sizeof e->sim);
    mpp_schema_defaults(&sim_schema, &e->sim);
    const mpp_cfgnode *sec = mpp_cfgtree_get(root, "sim");
    if ((rc = expect_map(sec, "sim", "sim keys", err)))
        return rc;
    size_t n = sec && !mpp_cfgtree_is_null(sec) ? mpp_cfgtree_len(sec) : 0;
    for (size_t i = 0; i < n; i++) {
        const mpp_cfgnode *k = mpp_cfgtree_key(sec, i);
        const char *key = mpp_cfgtree_text(k);
        char kp[256];
        snprintf(kp, sizeof kp, "sim.%s", key);
        const mpp_param *row = mpp_schema_find(&sim_schema, key);
        if (!row) {
            mpp_sb sb;
            mpp_sb_init(&sb);
            mpp_sb_printf(&sb, "%s: unknown key '%.80s'; valid keys of sim: ", where(k, w, sizeof w),
                          kp);
            for (size_t j = 0; j < MPP_COUNTOF(sim_params); j++)
                mpp_sb_printf(&sb, "%s%s", j ? ", " : "", sim_params[j].key);
            return fail_sb(err, MPP_EINVAL, &sb);
        }
        if ((rc = mpp_cfgtree_convert(mpp_cfgtree_item(sec, i), row, kp, 0, &e->sim, err)))
            return rc;
    }
    return 0;
}

static int resolve_seeds(mpp_experiment *e, const mpp_cfgnode *root, mpp_err *err)
{
    char w[320], kp[64];
    int rc;
    const mpp_cfgnode *one = mpp_cfgtree_get(root, "seed");
    const mpp_cfgnode *list = mpp_cfgtree_get(root, "seeds");
    const mpp_param *row = mpp_schema_find(&mpp_run_schema, "seed");
    mpp_run_config tmp;
    if (one && list)
        return mpp_err_set(err, MPP_EINVAL,
                           "%s: key 'seeds': give either 'seed' or 'seeds', not both",
                           where(list, w, sizeof w));
    if (list && mpp_cfgtree_kind(list) == MPP_CFG_SEQ) {
        size_t n = mpp_cfgtree_len(list);
        if (!n)
            return mpp_err_set(err, MPP_EINVAL,
                               "%s: key 'seeds': expected a non-empty list of seeds, got an empty "
                               "list",
                               where(list, w, sizeof w));
        e->seeds = calloc(n, sizeof *e->seeds);
        if (!e->seeds)
            return mpp_err_set(err, MPP_ENOMEM, "out of memory");
        for (size_t i = 0; i < n; i++) {
            const mpp_cfgnode *item = mpp_cfgtree_item(list, i);
            snprintf(kp, sizeof kp, "seeds[%zu]", i);
            if ((rc = mpp_cfgtree_convert(item, row, kp, 0, &tmp, err)))
                return rc;
            for (size_t j = 0; j < i; j++)
                if (e->seeds[j] == tmp.seed)
                    return mpp_err_set(err, MPP_EINVAL,
                                       "%s: key '%s': seed %" PRIu64 " is already in the list",
                                       where(item, w, sizeof w), kp, tmp.seed);
            e->seeds[i] = tmp.seed;
        }
        e->nseeds = n;
        return 0;
    }
    e->seeds = calloc(1, sizeof *e->seeds);
    if (!e->seeds)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    mpp_schema_defaults(&mpp_run_schema, &tmp);
    const mpp_cfgnode *v = one ? one : list;
    if (v && (rc = mpp_cfgtree_convert(v, row, one ? "seed" : "seeds", 0, &tmp, err)))
        return rc;
    e->seeds[0] = tmp.seed;
    e->nseeds = 1;
    return 0;
}

/* Read the sweep axes (key, list of values) from root. */
static int resolve_sweep(mpp_experiment *e, const mpp_cfgnode *root,
                         const mpp_cfgnode ***values, mpp_err *err)
{
    char w[320];
    int rc;
    const mpp_cfgnode *sw = mpp_cfgtree_get(root, "sweep");
    *values = NULL;
    e->npoints = 1;
    if ((rc = expect_map(sw, "sweep", "key paths to lists of values", err)))
        return rc;
    size_t n = sw && !mpp_cfgtree_is_null(sw) ? mpp_cfgtree_len(sw) : 0;
    if (!n)
        return 0;
    e->axes = calloc(n, sizeof *e->axes);
    *values = calloc(n, sizeof **values);
    if (!e->axes || !*values)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    for (size_t a = 0; a < n; a++) {
        const mpp_cfgnode *k = mpp_cfgtree_key(sw, a);
        const mpp_cfgnode *v = mpp_cfgtree_item(sw, a);
        const char *key = mpp_cfgtree_text(k);
        /* "KEY1+KEY2": a zipped axis, each value a list [v1, v2] */
        size_t nzip = 1;
        for (const char *c = key; *c; c++)
            nzip += *c == '+';
        char part[256];
        for (size_t j = 0; zip_part(key, j, part, sizeof part); j++)
            if ((strncmp(part, "network.", 8) != 0 || !part[8]) &&
                (strncmp(part, "workload.", 9) != 0 || !part[9]) &&
                (strncmp(part, "node.", 5) != 0 || !part[5]))
                return mpp_err_set(err, MPP_EINVAL,
                                   "%s: key 'sweep.%s': only keys under network., node. and "
                                   "workload. can be swept (seeds go in 'seeds: [...]')",
                                   where(k, w, sizeof w), key);
        if (nzip > 1)
            for (size_t i = 0; mpp_cfgtree_kind(v) == MPP_CFG_SEQ && i < mpp_cfgtree_len(v); i++) {
                const mpp_cfgnode *item = mpp_cfgtree_item(v, i);
                if (mpp_cfgtree_kind(item) != MPP_CFG_SEQ || mpp_cfgtree_len(item) != nzip)
                    return mpp_err_set(err, MPP_EINVAL,
                                       "%s: key 'sweep.%s': each value of a zipped axis must be a "
                                       "list of %zu values, one per key",
                                       where(item, w, sizeof w), key, nzip);
            }
        if (mpp_cfgtree_kind(v) != MPP_CFG_SEQ || !mpp_cfgtree_len(v)) {
            const char *t = mpp_cfgtree_text(v);
            const char *kind = mpp_cfgtree_kind(v) == MPP_CFG_MAP ? "a mapping" : "an empty list";
            return mpp_err_set(err, MPP_EINVAL,
                               "%s: key 'sweep.%s': expected a non-empty list of values, got "
                               "%s%.60s%s",
                               where(v, w, sizeof w), key, t ? "'" : kind, t ? t : "",
                               t ? "'" : "");
        }
        axis *ax = &e->axes[a];
        e->naxes = a + 1;
        ax->key = strdup(key);
        ax->n = mpp_cfgtree_len(v);
        ax->text = calloc(ax->n, sizeof *ax->text);
        if (!ax->key || !ax->text)
            return mpp_err_set(err, MPP_ENOMEM, "out of memory");
        for (size_t i = 0; i < ax->n; i++) {
            const mpp_cfgnode *item = mpp_cfgtree_item(v, i);
            const char *t = mpp_cfgtree_text(item);
            if (t) {
                ax->text[i] = strdup(t);
            } else {
                mpp_sb sb;
                mpp_sb_init(&sb);
                mpp_cfgtree_emit(item, &sb);
                ax->text[i] = mpp_sb_ok(&sb) ? strdup(sb.s) : NULL;
                mpp_sb_free(&sb);
            }
            if (!ax->text[i])
                return mpp_err_set(err, MPP_ENOMEM, "out of memory");
        }
        (*values)[a] = v;
        if (e->npoints > MAX_RUNS / ax->n)
            return mpp_err_set(err, MPP_EINVAL, "%s: key 'sweep': more than %u runs",
                               where(v, w, sizeof w), MAX_RUNS);
        e->npoints *= ax->n;
    }
    return 0;
}

/* Index of axis a's value in sweep point p (last axis fastest). */
static size_t axis_index(const mpp_experiment *e, size_t p, size_t a)
{
    for (size_t b = e->naxes; b-- > a + 1;)
        p /= e->axes[b].n;
    return p % e->axes[a].n;
}

/* Append " (in sweep point k=v, ...)" to err's message. */
static void name_point(const mpp_experiment *e, size_t p, mpp_err *err)
{
    if (!err || !e->naxes)
        return;
    mpp_sb sb;
    mpp_sb_init(&sb);
    mpp_sb_add(&sb, err->msg);
    mpp_sb_add(&sb, " (in sweep point ");
    for (size_t a = 0; a < e->naxes; a++)
        mpp_sb_printf(&sb, "%s%s=%s", a ? ", " : "", e->axes[a].key,
                      e->axes[a].text[axis_index(e, p, a)]);
    mpp_sb_addc(&sb, ')');
    if (mpp_sb_ok(&sb))
        snprintf(err->msg, sizeof err->msg, "%s", sb.s);
    mpp_sb_free(&sb);
}

/* Resolve sweep point p: a copy of root with the point's values set. */
static int resolve_point(mpp_experiment *e, const mpp_cfgnode *root,
                         const mpp_cfgnode *const *values, size_t p, mpp_err *err)
{
    int rc = 0;
    mpp_cfgnode *t = mpp_cfgtree_copy(root);
    if (!t)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    for (size_t a = 0; a < e->naxes && !rc; a++) {
        const mpp_cfgnode *item = mpp_cfgtree_item(values[a], axis_index(e, p, a));
        const char *key = e->axes[a].key;
        if (!strchr(key, '+')) {
            mpp_cfgnode *v = mpp_cfgtree_copy(item);
            rc = v ? mpp_cfgtree_set(t, key, 0, v, err)
                   : mpp_err_set(err, MPP_ENOMEM, "out of memory");
            continue;
        }
        /* a zipped axis: set every key to its element of the value */
        char part[256];
        for (size_t j = 0; !rc && zip_part(key, j, part, sizeof part); j++) {
            mpp_cfgnode *v = mpp_cfgtree_copy(mpp_cfgtree_item(item, j));
            rc = v ? mpp_cfgtree_set(t, part, 0, v, err)
                   : mpp_err_set(err, MPP_ENOMEM, "out of memory");
        }
    }
    if (!rc)
        rc = mpp_config_expand_inline(t, err);
    mpp_sim_config c;
    if (!rc)
        rc = resolve_model(t, &c, err);
    mpp_cfgtree_free(t);
    if (rc) {
        /* Name the point unless it is the first and the file has the same
         * error without the sweep (then the sweep has nothing to do with it). */
        mpp_err base;
        mpp_sim_config tmp;
        if (!err || p > 0 || resolve_model(root, &tmp, &base) == 0 ||
            strcmp(base.msg, err->msg) != 0)
            name_point(e, p, err);
        return rc;
    }
    c.run.record_channels = e->out.per_channel;
    c.run.record_matrix = e->out.traffic_matrix;
    c.run.threads = e->sim.threads;
    for (size_t s = 0; s < e->nseeds; s++) {
        e->cfg[p * e->nseeds + s] = c;
        e->cfg[p * e->nseeds + s].run.seed = e->seeds[s];
    }
    return 0;
}

/* Fill what root does not say from the preset tree pre, key by key, at
 * path (maps merge recursively; everything root says wins). */
static int merge_missing(mpp_cfgnode *root, const mpp_cfgnode *pre, const char *path,
                         mpp_err *err)
{
    for (size_t i = 0; i < mpp_cfgtree_len(pre); i++) {
        const char *key = mpp_cfgtree_text(mpp_cfgtree_key(pre, i));
        const mpp_cfgnode *pv = mpp_cfgtree_item(pre, i);
        char kp[256];
        snprintf(kp, sizeof kp, "%s%s%s", path, path[0] ? "." : "", key);
        const mpp_cfgnode *have = mpp_cfgtree_lookup(root, kp);
        if (!have) {
            mpp_cfgnode *v = mpp_cfgtree_copy(pv);
            int rc = mpp_cfgtree_set(root, kp, 0, v, err);
            if (rc)
                return rc;
        } else if (mpp_cfgtree_kind(have) == MPP_CFG_MAP && mpp_cfgtree_kind(pv) == MPP_CFG_MAP) {
            int rc = merge_missing(root, pv, kp, err);
            if (rc)
                return rc;
        }
    }
    return 0;
}

/* `machine: NAME`: the shipped preset NAME (its network: and node:
 * sections) under whatever the file and the command line say. */
static int apply_machine(mpp_cfgnode *root, mpp_err *err)
{
    const mpp_cfgnode *m = mpp_cfgtree_get(root, "machine");
    if (!m)
        return 0;
    char w[320];
    const char *name = mpp_cfgtree_text(m);
    const mpp_preset *p = name ? mpp_preset_find(name) : NULL;
    if (!p) {
        mpp_sb sb;
        mpp_sb_init(&sb);
        mpp_sb_printf(&sb, "%s: key 'machine': unknown machine preset '%.60s'; known presets: ",
                      where(m, w, sizeof w), name ? name : "(not a name)");
        for (size_t i = 0; i < mpp_npresets; i++)
            mpp_sb_printf(&sb, "%s%s", i ? ", " : "", mpp_presets[i].name);
        return fail_sb(err, MPP_EINVAL, &sb);
    }
    mpp_cfgnode *pre = mpp_cfgtree_parse_text(p->text, strlen(p->text), p->file, err);
    if (!pre)
        return err ? err->code : MPP_EINVAL;
    int rc = 0;
    for (size_t i = 0; i < mpp_cfgtree_len(pre) && !rc; i++) {
        const char *key = mpp_cfgtree_text(mpp_cfgtree_key(pre, i));
        const mpp_cfgnode *v = mpp_cfgtree_item(pre, i);
        if (strcmp(key, "network") && strcmp(key, "node"))
            continue; /* mppnet, name, description of the preset file */
        if (!mpp_cfgtree_get(root, key))
            rc = mpp_cfgtree_set(root, key, 0, mpp_cfgtree_copy(v), err);
        else
            rc = merge_missing(root, v, key, err);
    }
    mpp_cfgtree_free(pre);
    return rc;
}

/* Apply the overrides to root, in order; the first from->n of them (from
 * may be NULL) are located in from's file, as that file's values. */
static int apply_overrides(mpp_cfgnode *root, const mpp_override_file *from, size_t n,
                           const char *const *ov, mpp_err *err)
{
    for (size_t i = 0; i < n; i++) {
        char *path;
        mpp_cfgnode *value;
        int rc = mpp_cfgtree_assignment(ov[i], &path, &value, err);
        if (rc)
            return rc;
        if (from && i < from->n &&
            (rc = mpp_cfgtree_locate(value, from->origin, from->line[i] ? from->line[i] : 1,
                                     (uint32_t)strlen(path) + 2, err))) {
            mpp_cfgtree_free(value);
            free(path);
            return rc;
        }
        bool sweep = !strncmp(path, "sweep.", 6);
        rc = mpp_cfgtree_set(root, path, sweep ? 2 : 0, value, err);
        if (!rc && !sweep && strcmp(path, "sweep") != 0) {
            /* The command line wins over a sweep axis of the same key. */
            size_t len = strlen(path);
            char *sp = malloc(len + 7);
            if (sp) {
                memcpy(sp, "sweep.", 6);
                memcpy(sp + 6, path, len + 1);
                mpp_cfgtree_remove(root, sp, 2);
                free(sp);
            } else {
                rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
            }
        }
        free(path);
        if (rc)
            return rc;
    }
    return 0;
}

/* Load from a parsed tree (owned: kept in the experiment, or freed on failure). */
static mpp_experiment *load_tree(mpp_cfgnode *root, const char *default_name,
                                 const mpp_override_file *from, size_t noverrides,
                                 const char *const *overrides, mpp_err *err)
{
    char w[320];
    const mpp_cfgnode **values = NULL;
    mpp_experiment *e = calloc(1, sizeof *e);
    if (!e) {
        mpp_err_set(err, MPP_ENOMEM, "out of memory");
        goto fail;
    }
    if (!mpp_cfgtree_is_null(root) && mpp_cfgtree_kind(root) != MPP_CFG_MAP) {
        mpp_err_set(err, MPP_EINVAL,
                    "%s: expected a mapping of experiment keys (starting with `mppnet: 1`), "
                    "got %s",
                    where(root, w, sizeof w),
                    mpp_cfgtree_kind(root) == MPP_CFG_SEQ ? "a list" : "a single value");
        goto fail;
    }
    if (apply_overrides(root, from, noverrides, overrides, err) || apply_machine(root, err))
        goto fail;
    if (mpp_cfgtree_is_null(root)) {
        mpp_err_set(err, MPP_EINVAL,
                    "%s: the experiment is empty: start the file with `mppnet: 1`",
                    mpp_cfgtree_origin(root));
        goto fail;
    }
    if (check_top_keys(root, err) || check_version(root, err) ||
        resolve_name(e, root, default_name, err) || resolve_output(e, root, err) ||
        resolve_sim(e, root, err) ||
        resolve_seeds(e, root, err) || resolve_sweep(e, root, &values, err))
        goto fail;
    e->nruns = e->npoints * e->nseeds;
    if (e->nseeds > MAX_RUNS / e->npoints) {
        mpp_err_set(err, MPP_EINVAL, "%s: more than %u runs (sweep points x seeds)",
                    mpp_cfgtree_origin(root), MAX_RUNS);
        goto fail;
    }
    e->cfg = calloc(e->nruns, sizeof *e->cfg);
    if (!e->cfg) {
        mpp_err_set(err, MPP_ENOMEM, "out of memory");
        goto fail;
    }
    for (size_t p = 0; p < e->npoints; p++)
        if (resolve_point(e, root, values, p, err))
            goto fail;
    e->root = root;
    e->values = values;
    mpp_err_clear(err);
    return e;
fail:
    free(values);
    mpp_cfgtree_free(root);
    mpp_experiment_destroy(e);
    return NULL;
}

static mpp_experiment *load_named(mpp_cfgnode *root, const char *path,
                                  const mpp_override_file *from, size_t noverrides,
                                  const char *const *overrides, mpp_err *err);

/* The file's base name without .yaml / .yml. */
static char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    s = s ? s + 1 : path;
    size_t n = strlen(s);
    if (n > 5 && !strcmp(s + n - 5, ".yaml"))
        n -= 5;
    else if (n > 4 && !strcmp(s + n - 4, ".yml"))
        n -= 4;
    if (!n)
        return strdup("experiment");
    char *b = malloc(n + 1);
    if (b) {
        memcpy(b, s, n);
        b[n] = '\0';
        /* the default name of a file named "exp (copy).yaml": exp__copy_ */
        for (char *c = b; *c; c++)
            if (!strchr(NAME_CHARS, *c))
                *c = '_';
    }
    return b;
}

mpp_experiment *mpp_experiment_load(const char *path, size_t noverrides,
                                    const char *const *overrides, mpp_err *err)
{
    mpp_cfgnode *root = mpp_cfgtree_parse_file(path, err);
    if (!root)
        return NULL;
    return load_named(root, path, NULL, noverrides, overrides, err);
}

mpp_experiment *mpp_experiment_load_text(const char *text, size_t len, const char *path,
                                         const mpp_override_file *from, size_t noverrides,
                                         const char *const *overrides, mpp_err *err)
{
    mpp_cfgnode *root = mpp_cfgtree_parse_text(text, len, path, err);
    if (!root)
        return NULL;
    return load_named(root, path, from, noverrides, overrides, err);
}

static mpp_experiment *load_named(mpp_cfgnode *root, const char *path,
                                  const mpp_override_file *from, size_t noverrides,
                                  const char *const *overrides, mpp_err *err)
{
    char *name = base_name(path);
    if (!name) {
        mpp_cfgtree_free(root);
        mpp_err_set(err, MPP_ENOMEM, "out of memory");
        return NULL;
    }
    mpp_experiment *e = load_tree(root, name, from, noverrides, overrides, err);
    free(name);
    return e;
}

mpp_experiment *mpp_experiment_parse(const char *text, const char *origin, size_t noverrides,
                                     const char *const *overrides, mpp_err *err)
{
    mpp_cfgnode *root = mpp_cfgtree_parse_text(text, strlen(text), origin, err);
    if (!root)
        return NULL;
    return load_tree(root, "experiment", NULL, noverrides, overrides, err);
}

mpp_experiment *mpp_experiment_load_tree(mpp_cfgnode *root, const char *name, mpp_err *err)
{
    return load_tree(root, name, NULL, 0, NULL, err);
}

const char *mpp_experiment_where(const mpp_experiment *e, size_t i, const char *keypath,
                                 char *buf, size_t size)
{
    if (!e->root || i >= e->nruns)
        return NULL;
    size_t p = i / e->nseeds;
    for (size_t a = 0; a < e->naxes; a++) {
        const char *key = e->axes[a].key;
        const mpp_cfgnode *item = mpp_cfgtree_item(e->values[a], axis_index(e, p, a));
        bool zipped = strchr(key, '+') != NULL;
        char part[256];
        for (size_t j = 0; zip_part(key, j, part, sizeof part); j++)
            if (!strcmp(part, keypath)) /* a zipped axis: element j of the value */
                return where(zipped ? mpp_cfgtree_item(item, j) : item, buf, size);
    }
    const mpp_cfgnode *n = mpp_cfgtree_lookup(e->root, keypath);
    return n ? where(n, buf, size) : NULL;
}

void mpp_experiment_destroy(mpp_experiment *e)
{
    if (!e)
        return;
    free(e->values);
    mpp_cfgtree_free(e->root);
    for (size_t a = 0; a < e->naxes; a++) {
        for (size_t i = 0; e->axes[a].text && i < e->axes[a].n; i++)
            free(e->axes[a].text[i]);
        free(e->axes[a].text);
        free(e->axes[a].key);
    }
    free(e->axes);
    free(e->seeds);
    free(e->cfg);
    free(e->name);
    free(e);
}

/* -------------------------------------------------------------- accessors */

const char *mpp_experiment_name(const mpp_experiment *e) { return e->name; }

const mpp_output_config *mpp_experiment_output(const mpp_experiment *e) { return &e->out; }

size_t mpp_experiment_runs(const mpp_experiment *e) { return e->nruns; }

const mpp_sim_config *mpp_experiment_config(const mpp_experiment *e, size_t i)
{
    assert(i < e->nruns);
    return &e->cfg[i];
}

size_t mpp_experiment_axes(const mpp_experiment *e) { return e->naxes; }

const char *mpp_experiment_axis(const mpp_experiment *e, size_t a)
{
    assert(a < e->naxes);
    return e->axes[a].key;
}

const char *mpp_experiment_value(const mpp_experiment *e, size_t i, size_t a)
{
    assert(i < e->nruns && a < e->naxes);
    return e->axes[a].text[axis_index(e, i / e->nseeds, a)];
}

/* ----------------------------------------------------------------- dumps */

void mpp_experiment_config_json(const mpp_experiment *e, size_t i, mpp_sb *out)
{
    mpp_config_dump(mpp_experiment_config(e, i), out, true);
}

void mpp_experiment_config_yaml(const mpp_experiment *e, size_t i, mpp_sb *out)
{
    mpp_config_dump(mpp_experiment_config(e, i), out, false);
}

uint64_t mpp_experiment_hash(const mpp_experiment *e, size_t i)
{
    mpp_sb sb;
    mpp_sb_init(&sb);
    mpp_experiment_config_yaml(e, i, &sb);
    uint64_t h = 14695981039346656037ULL;
    for (size_t k = 0; k < sb.len; k++) {
        h ^= (unsigned char)sb.s[k];
        h *= 1099511628211ULL;
    }
    mpp_sb_free(&sb);
    return h;
}

int mpp_experiment_machine_node(const char *machine, mpp_node_config *node, mpp_err *err)
{
    if (!mpp_preset_find(machine)) {
        mpp_sb sb;
        mpp_sb_init(&sb);
        for (size_t i = 0; i < mpp_npresets; i++)
            mpp_sb_printf(&sb, "%s%s", i ? ", " : "", mpp_presets[i].name);
        int rc = mpp_err_set(err, MPP_EINVAL, "unknown machine preset '%s' (%s)", machine,
                             mpp_sb_ok(&sb) ? sb.s : "?");
        mpp_sb_free(&sb);
        return rc;
    }
    char text[256];
    snprintf(text, sizeof text, "mppnet: 1\nmachine: %s\nworkload: {type: schedule}\n", machine);
    mpp_experiment *e = mpp_experiment_parse(text, "--machine", 0, NULL, err);
    if (!e)
        return err->code ? err->code : MPP_ENOMEM;
    *node = mpp_experiment_config(e, 0)->node;
    mpp_experiment_destroy(e);
    if (!(node->cpu_mhz > 0))
        return mpp_err_set(err, MPP_EINVAL, "--machine %s: the preset has no node.cpu_mhz",
                           machine);
    return 0;
}
