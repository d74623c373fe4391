/* core/config/simcfg.c — one simulation's configuration from a located
 * YAML tree (see simcfg.h).
 *
 * A section is described by up to two schemas over one struct (the
 * network's plug-in selectors, then the engine's network rows) or by the
 * chosen workload's schema over its blob. Applying a section:
 *
 *   pass 1, keys in the order written:
 *     a value row ---------> convert into the struct (mpp_cfgtree_convert)
 *     a selector row ------> find the plug-in, store it, reset its blob to
 *                            the plug-in's defaults
 *     a plug-in's name ----> check its section against its schema (into a
 *                            scratch blob), chosen or not
 *     anything else -------> "unknown key", listing the valid ones
 *   pass 2, every selector: the chosen plug-in's section into its blob.
 *
 * Invariants:
 *   1. after mpp_config_defaults or a successful apply, every selector of
 *      cfg names a registered plug-in and its blob holds that plug-in's
 *      defaults overlaid with what the tree says;
 *   2. every blob a schema describes fits its storage (asserted);
 *   3. the dump walks the same rows as the resolution, so every key it
 *      prints is accepted back. */
#include "core/config/simcfg.h"
#include "core/config/booksim.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/workloads.h"
#include "core/schema.h"
#include "core/workload.h"
#include "routers/routing.h"
#include "topologies/topology.h"

/* The network's plug-in selectors (offsets into mpp_net_config). */
static const mpp_param net_selector_rows[] = {
    {"topology", MPP_PT_PLUGIN, offsetof(mpp_net_config, topo), "mesh", 0, 0, NULL,
     "the topology (mppnet list topologies); its parameters go in network.<topology>",
     &mpp_topo_family, offsetof(mpp_net_config, topo_cfg)},
    {"router", MPP_PT_PLUGIN, offsetof(mpp_net_config, routing), "ecube", 0, 0, NULL,
     "the routing (mppnet list routers); its parameters go in network.<router>",
     &mpp_routing_family, offsetof(mpp_net_config, routing_cfg)},
};
static const mpp_schema net_selectors = {net_selector_rows, MPP_COUNTOF(net_selector_rows),
                                         sizeof(mpp_net_config)};

static const char *const default_workload = "synthetic";

/* One section being applied. */
typedef struct section {
    const char *name;           /* "network" */
    const char *title;          /* for messages: "network", "workload (type synthetic)" */
    const mpp_schema *tab[2];
    size_t ntab;
    void *base;
    const char *skip;           /* a key handled before (workload.type), or NULL */
    const char *clock;          /* a row already read (network.net_mhz), or NULL */
} section;

static const char *where(const mpp_cfgnode *n, char *buf, size_t size)
{
    return mpp_cfgtree_where(n, buf, size);
}

static int fail_sb(mpp_err *err, int code, mpp_sb *sb) { return mpp_sb_to_err(sb, err, code); }

/* ------------------------------------------------------------- defaults */

static void defaults(const mpp_schema *s, void *base);

/* The default plug-in of every selector row of s, with its own defaults;
 * the other rows are left alone. */
static void plugin_defaults(const mpp_schema *s, void *base)
{
    for (size_t i = 0; i < s->nparams; i++) {
        const mpp_param *p = &s->params[i];
        if (p->type != MPP_PT_PLUGIN)
            continue;
        const void *ops = p->family->find(p->def);
        assert(ops && "a selector's default plug-in is not registered");
        memcpy((char *)base + p->offset, &ops, sizeof ops);
        const mpp_schema *ps = p->family->schema(ops);
        assert(ps->size <= MPP_BLOB_SIZE && "plug-in config struct larger than MPP_BLOB_SIZE");
        defaults(ps, (char *)base + p->blob);
    }
}

/* Defaults of a schema, plug-in selectors included. */
static void defaults(const mpp_schema *s, void *base)
{
    mpp_schema_defaults(s, base);
    plugin_defaults(s, base);
}

static void workload_defaults(mpp_workload_config *w, const mpp_workload_ops *ops)
{
    assert(ops->schema.size <= MPP_WORKLOAD_BLOB && "workload config larger than its blob");
    w->ops = ops;
    defaults(&ops->schema, w->cfg.b);
}

void mpp_config_defaults(mpp_sim_config *cfg)
{
    mpp_sections_defaults(cfg);
    plugin_defaults(&net_selectors, &cfg->net);
    workload_defaults(&cfg->workload, mpp_workload_find(default_workload));
}

/* ------------------------------------------------------------ resolving */

/* Names of a family, comma-separated (hidden ones left out). */
static void list_names(mpp_sb *sb, const mpp_family *f)
{
    bool first = true;
    for (size_t i = 0; f->at(i); i++) {
        const void *ops = f->at(i);
        if (f->hidden && f->hidden(ops))
            continue;
        mpp_sb_printf(sb, "%s%s", first ? "" : ", ", f->name(ops));
        first = false;
    }
}

/* The plug-in of family f whose canonical name is name (sections are not
 * accepted under an alias), or NULL. */
static const void *by_canonical(const mpp_family *f, const char *name)
{
    for (size_t i = 0; f->at(i); i++)
        if (!strcmp(f->name(f->at(i)), name))
            return f->at(i);
    return NULL;
}

static int expect_map(const mpp_cfgnode *n, const char *keypath, const char *what, mpp_err *err)
{
    return mpp_cfgtree_expect_map(n, keypath, what, err);
}

/* Check a plug-in's section against its schema and fill base (a blob
 * already holding its defaults). A section written as a scalar is the
 * plug-in's short form (`mesh: 8x8`) when its family has one. */
static int apply_plugin(const mpp_cfgnode *sec, const mpp_family *f, const void *ops,
                        const char *prefix, double net_mhz, void *base, mpp_err *err)
{
    char w[320], kp[256];
    const char *name = f->name(ops);
    const mpp_schema *schema = f->schema(ops);
    mpp_cfgnode *owned = NULL;
    int rc = 0;
    if (sec && !mpp_cfgtree_is_null(sec) && mpp_cfgtree_kind(sec) == MPP_CFG_SCALAR &&
        f->parse_short) {
        mpp_sb lines;
        mpp_sb_init(&lines);
        rc = f->parse_short(ops, mpp_cfgtree_text(sec), &lines, err);
        if (rc) {
            mpp_err_prefix(err, "%s: key '%s'", where(sec, w, sizeof w), prefix);
            mpp_sb_free(&lines);
            return rc;
        }
        owned = mpp_cfgtree_new_map(sec);
        for (char *line = lines.s; owned && mpp_sb_ok(&lines) && *line;) {
            char *nl = strchr(line, '\n');
            if (nl)
                *nl = '\0';
            char *eq = strchr(line, '=');
            if (eq) {
                *eq = '\0';
                rc = mpp_cfgtree_set(owned, line, 1, mpp_cfgtree_new_scalar(eq + 1, sec), err);
                if (rc)
                    break;
            }
            line = nl ? nl + 1 : line + strlen(line);
        }
        bool ok = owned && mpp_sb_ok(&lines);
        mpp_sb_free(&lines);
        if (!ok) {
            mpp_cfgtree_free(owned);
            return mpp_err_set(err, MPP_ENOMEM, "out of memory");
        }
        if (rc)
            goto out;
        sec = owned;
    }
    char what[160];
    snprintf(what, sizeof what, "%s parameters", name);
    if ((rc = expect_map(sec, prefix, what, err)))
        goto out;
    size_t n = sec ? mpp_cfgtree_len(sec) : 0;
    for (size_t i = 0; i < n; i++) {
        const mpp_cfgnode *k = mpp_cfgtree_key(sec, i);
        const char *key = mpp_cfgtree_text(k);
        const mpp_param *row = mpp_schema_find(schema, key);
        if (!row || row->type == MPP_PT_PLUGIN) {
            mpp_sb sb;
            mpp_sb_init(&sb);
            mpp_sb_printf(&sb, "%s: unknown key '%s.%s'", where(k, w, sizeof w), prefix, key);
            if (!schema->nparams) {
                mpp_sb_printf(&sb, ": %s %s has no parameters", prefix, name);
            } else {
                mpp_sb_printf(&sb, "; valid keys of %s: ", prefix);
                for (size_t j = 0; j < schema->nparams; j++)
                    mpp_sb_printf(&sb, "%s%s", j ? ", " : "", schema->params[j].key);
            }
            rc = fail_sb(err, MPP_EINVAL, &sb);
            goto out;
        }
        snprintf(kp, sizeof kp, "%s.%s", prefix, key);
        if ((rc = mpp_cfgtree_convert(mpp_cfgtree_item(sec, i), row, kp, net_mhz, base, err)))
            goto out;
    }
out:
    mpp_cfgtree_free(owned);
    return rc;
}

static const mpp_param *section_row(const section *S, const char *key, void **base)
{
    for (size_t t = 0; t < S->ntab; t++) {
        const mpp_param *row = mpp_schema_find(S->tab[t], key);
        if (row) {
            *base = S->base;
            return row;
        }
    }
    return NULL;
}

/* A selector row of S whose family has a plug-in called key (canonical). */
static const mpp_param *section_of_plugin(const section *S, const char *key, const void **ops)
{
    for (size_t t = 0; t < S->ntab; t++)
        for (size_t i = 0; i < S->tab[t]->nparams; i++) {
            const mpp_param *p = &S->tab[t]->params[i];
            if (p->type == MPP_PT_PLUGIN && (*ops = by_canonical(p->family, key)))
                return p;
        }
    return NULL;
}

/* Workload keys that exist in another workload type: say which. */
static void hint_other_workloads(mpp_sb *sb, const char *key)
{
    bool first = true;
    for (const mpp_workload_ops *const *o = mpp_workload_all(); *o; o++)
        if (mpp_schema_find(&(*o)->schema, key)) {
            mpp_sb_printf(sb, "%s%s", first ? "; it is a key of workload type " : ", ",
                          (*o)->name);
            first = false;
        }
}

static int unknown_key(const mpp_cfgnode *k, const section *S, mpp_err *err)
{
    char w[320];
    mpp_sb sb;
    mpp_sb_init(&sb);
    const char *key = mpp_cfgtree_text(k);
    /* a section named by an alias ("chaos:" for misroute) */
    for (size_t t = 0; t < S->ntab; t++)
        for (size_t i = 0; i < S->tab[t]->nparams; i++) {
            const mpp_param *p = &S->tab[t]->params[i];
            const void *ops = p->type == MPP_PT_PLUGIN ? p->family->find(key) : NULL;
            if (ops && strcmp(p->family->name(ops), key)) {
                mpp_sb_free(&sb);
                return mpp_err_set(err, MPP_EINVAL,
                                   "%s: unknown key '%s.%s': '%s' is an alias of the %s '%s', "
                                   "whose parameters go in the section %s.%s",
                                   where(k, w, sizeof w), S->name, key, key, p->family->what,
                                   p->family->name(ops), S->name, p->family->name(ops));
            }
        }
    mpp_sb_printf(&sb, "%s: unknown key '%s.%s'", where(k, w, sizeof w), S->name, key);
    const char *hint = mpp_booksim_hint(key);
    if (hint)
        mpp_sb_printf(&sb, "; did you mean %s (BookSim's %s)?", hint, key);
    mpp_sb_printf(&sb, "; valid keys of %s: ", S->title);
    bool first = true;
    if (S->skip) {
        mpp_sb_add(&sb, S->skip);
        first = false;
    }
    for (size_t t = 0; t < S->ntab; t++)
        for (size_t i = 0; i < S->tab[t]->nparams; i++) {
            mpp_sb_printf(&sb, "%s%s", first ? "" : ", ", S->tab[t]->params[i].key);
            first = false;
        }
    for (size_t t = 0; t < S->ntab; t++)
        for (size_t i = 0; i < S->tab[t]->nparams; i++) {
            const mpp_param *p = &S->tab[t]->params[i];
            if (p->type != MPP_PT_PLUGIN)
                continue;
            mpp_sb_printf(&sb, "; or a %s section: ", p->family->what);
            list_names(&sb, p->family);
        }
    if (S->skip)
        hint_other_workloads(&sb, key);
    return fail_sb(err, MPP_EINVAL, &sb);
}

/* Select plug-in `name` of row p (at base) from node v. */
static int select_plugin(const mpp_cfgnode *v, const mpp_param *p, const char *keypath,
                         void *base, mpp_err *err)
{
    char w[320];
    const char *t = mpp_cfgtree_text(v);
    const void *ops = t && !mpp_cfgtree_is_null(v) ? p->family->find(t) : NULL;
    if (!ops) {
        mpp_sb sb;
        mpp_sb_init(&sb);
        mpp_sb_printf(&sb, "%s: key '%s': ", where(v, w, sizeof w), keypath);
        if (t && t[0])
            mpp_sb_printf(&sb, "unknown %s '%.60s'", p->family->what, t);
        else
            mpp_sb_printf(&sb, "expected a %s name", p->family->what);
        mpp_sb_add(&sb, "; valid names: ");
        list_names(&sb, p->family);
        return fail_sb(err, MPP_EINVAL, &sb);
    }
    memcpy((char *)base + p->offset, &ops, sizeof ops);
    defaults(p->family->schema(ops), (char *)base + p->blob);
    return 0;
}

static int apply_section(const mpp_cfgnode *sec, const section *S, double mhz, mpp_err *err)
{
    char kp[256];
    int rc;
    char what[96];
    snprintf(what, sizeof what, "%s keys", S->name);
    if ((rc = expect_map(sec, S->name, what, err)))
        return rc;
    size_t n = sec && !mpp_cfgtree_is_null(sec) ? mpp_cfgtree_len(sec) : 0;
    /* pass 1, in the order written */
    for (size_t i = 0; i < n; i++) {
        const mpp_cfgnode *k = mpp_cfgtree_key(sec, i);
        const mpp_cfgnode *v = mpp_cfgtree_item(sec, i);
        const char *key = mpp_cfgtree_text(k);
        if ((S->skip && !strcmp(key, S->skip)) || (S->clock && !strcmp(key, S->clock)))
            continue;
        snprintf(kp, sizeof kp, "%s.%s", S->name, key);
        void *base = NULL;
        const mpp_param *row = section_row(S, key, &base);
        if (row && row->type == MPP_PT_PLUGIN) {
            if ((rc = select_plugin(v, row, kp, base, err)))
                return rc;
            continue;
        }
        if (row) {
            if ((rc = mpp_cfgtree_convert(v, row, kp, mhz, base, err)))
                return rc;
            continue;
        }
        const void *ops = NULL;
        const mpp_param *sel = section_of_plugin(S, key, &ops);
        if (!sel)
            return unknown_key(k, S, err);
        mpp_blob tmp;
        defaults(sel->family->schema(ops), tmp.b);
        if ((rc = apply_plugin(v, sel->family, ops, kp, mhz, tmp.b, err)))
            return rc;
    }
    /* pass 2: the chosen plug-ins' sections */
    for (size_t t = 0; t < S->ntab; t++)
        for (size_t i = 0; i < S->tab[t]->nparams; i++) {
            const mpp_param *p = &S->tab[t]->params[i];
            if (p->type != MPP_PT_PLUGIN)
                continue;
            const void *ops;
            memcpy(&ops, (const char *)S->base + p->offset, sizeof ops);
            if (!ops)
                continue;
            const char *name = p->family->name(ops);
            const mpp_cfgnode *v = mpp_cfgtree_get(sec, name);
            snprintf(kp, sizeof kp, "%s.%s", S->name, name);
            if (v && (rc = apply_plugin(v, p->family, ops, kp, mhz, (char *)S->base + p->blob,
                                        err)))
                return rc;
        }
    return 0;
}

static int apply_workload(const mpp_cfgnode *sec, mpp_workload_config *w, double mhz,
                          mpp_err *err)
{
    char wh[320], title[96];
    int rc;
    if ((rc = expect_map(sec, "workload", "workload keys", err)))
        return rc;
    const mpp_cfgnode *type = sec && !mpp_cfgtree_is_null(sec) ? mpp_cfgtree_get(sec, "type")
                                                              : NULL;
    if (type) {
        const char *t = mpp_cfgtree_text(type);
        const mpp_workload_ops *ops = t && !mpp_cfgtree_is_null(type) ? mpp_workload_find(t)
                                                                      : NULL;
        if (!ops) {
            mpp_sb sb;
            mpp_sb_init(&sb);
            mpp_sb_printf(&sb, "%s: key 'workload.type': ", where(type, wh, sizeof wh));
            if (t && t[0])
                mpp_sb_printf(&sb, "unknown workload '%.60s'", t);
            else
                mpp_sb_add(&sb, "expected a workload name");
            mpp_sb_add(&sb, "; valid names: ");
            list_names(&sb, &mpp_workload_family);
            return fail_sb(err, MPP_EINVAL, &sb);
        }
        workload_defaults(w, ops);
    }
    if (!w->ops)
        return mpp_err_set(err, MPP_EINVAL, "key 'workload.type': no workload is chosen");
    snprintf(title, sizeof title, "workload (type %s)", w->ops->name);
    section S = {.name = "workload", .title = title, .tab = {&w->ops->schema}, .ntab = 1,
                 .base = w->cfg.b, .skip = "type"};
    return apply_section(sec, &S, mhz, err);
}

int mpp_config_apply(const mpp_cfgnode *root, mpp_sim_config *cfg, mpp_err *err)
{
    int rc;
    const mpp_cfgnode *net = mpp_cfgtree_get(root, "network");
    /* the clock first: times anywhere are converted with it */
    const mpp_cfgnode *clock = net && mpp_cfgtree_kind(net) == MPP_CFG_MAP
                                   ? mpp_cfgtree_get(net, "net_mhz")
                                   : NULL;
    if (clock && (rc = mpp_cfgtree_convert(clock, mpp_schema_find(&mpp_net_schema, "net_mhz"),
                                           "network.net_mhz", 0, &cfg->net, err)))
        return rc;
    double mhz = cfg->net.net_mhz;
    section N = {.name = "network", .title = "network", .tab = {&net_selectors, &mpp_net_schema},
                 .ntab = 2, .base = &cfg->net, .clock = "net_mhz"};
    if ((rc = apply_section(net, &N, mhz, err)))
        return rc;
    section D = {.name = "node", .title = "node", .tab = {&mpp_node_schema}, .ntab = 1,
                 .base = &cfg->node};
    if ((rc = apply_section(mpp_cfgtree_get(root, "node"), &D, mhz, err)))
        return rc;
    const mpp_cfgnode *wl = mpp_cfgtree_get(root, "workload");
    if (wl)
        rc = apply_workload(wl, &cfg->workload, mhz, err);
    return rc;
}

int mpp_config_set(mpp_sim_config *cfg, const char *key, const char *value, mpp_err *err)
{
    size_t len = strlen(key) + strlen(value) + 2;
    char *text = malloc(len);
    mpp_cfgnode *root = mpp_cfgtree_new_map(NULL);
    if (!text || !root) {
        free(text);
        mpp_cfgtree_free(root);
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    }
    snprintf(text, len, "%s=%s", key, value);
    int rc = mpp_cfgtree_override(root, text, err);
    if (!rc && !strcmp(key, "seed")) {
        rc = mpp_cfgtree_convert(mpp_cfgtree_get(root, "seed"),
                                 mpp_schema_find(&mpp_run_schema, "seed"), "seed", 0, &cfg->run,
                                 err);
    } else if (!rc) {
        const char *top = mpp_cfgtree_text(mpp_cfgtree_key(root, 0));
        if (strcmp(top, "network") && strcmp(top, "node") && strcmp(top, "workload"))
            rc = mpp_err_set(err, MPP_EINVAL,
                             "%s: unknown key '%s' (expected network., node., workload. or seed)",
                             text, key);
        else
            rc = mpp_config_apply(root, cfg, err);
    }
    free(text);
    mpp_cfgtree_free(root);
    return rc;
}

/* Inline plug-in parameters: a selector written "NAME:ARGS" — a router
 * "romm:k=3", a pattern "hotspot:fraction=0.5", a topology in its short form
 * "mesh:8x8" or as "hypercube:dim=8" — becomes NAME plus the keys of its
 * section, so one sweep axis can vary a plug-in and its parameters
 * together (`network.router: [ecube, valiant, "romm:k=2", "romm:k=4"]`).
 * The new keys carry the selector's location for error messages. */
static int expand_one(mpp_cfgnode *t, const char *sec, const mpp_param *row, mpp_err *err)
{
    char path[128], w[320];
    snprintf(path, sizeof path, "%s.%s", sec, row->key);
    const mpp_cfgnode *sel = mpp_cfgtree_lookup(t, path);
    if (!sel || mpp_cfgtree_kind(sel) != MPP_CFG_SCALAR)
        return 0;
    const char *text = mpp_cfgtree_text(sel), *colon = strchr(text, ':');
    if (!colon)
        return 0;
    char name[64];
    size_t nl = (size_t)(colon - text);
    if (nl == 0 || nl >= sizeof name)
        return mpp_err_set(err, MPP_EINVAL,
                           "%s: key '%s': expected NAME:ARGS, a %s name before ':', got '%s'",
                           where(sel, w, sizeof w), path, row->family->what, text);
    memcpy(name, text, nl);
    name[nl] = '\0';
    const void *plug = row->family->find(name);
    if (!plug) {
        mpp_sb sb;
        mpp_sb_init(&sb);
        mpp_sb_printf(&sb, "%s: key '%s': unknown %s '%s'; valid names: ", where(sel, w, sizeof w),
                      path, row->family->what, name);
        list_names(&sb, row->family);
        return fail_sb(err, MPP_EINVAL, &sb);
    }
    mpp_sb args;
    mpp_sb_init(&args);
    const void *ops = row->family->parse_short ? plug : NULL;
    if (ops && !strchr(colon + 1, '=')) {
        int rc = row->family->parse_short(ops, colon + 1, &args, err);
        if (rc) {
            mpp_err_prefix(err, "%s: key '%s'", where(sel, w, sizeof w), path);
            mpp_sb_free(&args);
            return rc;
        }
    } else {
        for (const char *c = colon + 1; *c; c++)
            mpp_sb_addc(&args, *c == ',' ? '\n' : *c);
        mpp_sb_addc(&args, '\n');
    }
    int rc = 0;
    mpp_cfgnode *loc = mpp_cfgtree_copy(sel); /* sel is replaced below */
    char *save = NULL;
    const char *seen[64];
    size_t nseen = 0;
    for (char *line = strtok_r(args.s, "\n", &save); line && !rc;
         line = strtok_r(NULL, "\n", &save)) {
        char *eq = strchr(line, '=');
        if (!eq || eq == line || !eq[1]) {
            rc = mpp_err_set(err, MPP_EINVAL, "%s: key '%s': expected NAME:key=value,..., got '%s'",
                             where(sel, w, sizeof w), path, text);
            break;
        }
        *eq = '\0';
        /* the same key twice is a mistake, not "the last one wins" */
        for (size_t k = 0; k < nseen && !rc; k++)
            if (!strcmp(seen[k], line))
                rc = mpp_err_set(err, MPP_EINVAL, "%s: key '%s': parameter '%s' given twice in "
                                                  "'%s'",
                                 where(sel, w, sizeof w), path, line, text);
        if (rc)
            break;
        if (nseen < MPP_COUNTOF(seen))
            seen[nseen++] = line;
        char kp[256]; /* the section of the plug-in's own name, not of an alias */
        snprintf(kp, sizeof kp, "%s.%s.%s", sec, row->family->name(plug), line);
        rc = mpp_cfgtree_set(t, kp, 0, mpp_cfgtree_new_scalar(eq + 1, loc), err);
    }
    if (!rc)
        rc = mpp_cfgtree_set(t, path, 0, mpp_cfgtree_new_scalar(name, loc), err);
    mpp_cfgtree_free(loc);
    mpp_sb_free(&args);
    return rc;
}

int mpp_config_expand_inline(mpp_cfgnode *t, mpp_err *err)
{
    int rc = 0;
    for (size_t i = 0; i < net_selectors.nparams && !rc; i++)
        rc = expand_one(t, "network", &net_selectors.params[i], err);
    const mpp_cfgnode *type = mpp_cfgtree_lookup(t, "workload.type");
    const char *name = type ? mpp_cfgtree_text(type) : default_workload;
    const mpp_workload_ops *w = name ? mpp_workload_find(name) : NULL;
    for (size_t i = 0; w && i < w->schema.nparams && !rc; i++)
        if (w->schema.params[i].type == MPP_PT_PLUGIN)
            rc = expand_one(t, "workload", &w->schema.params[i], err);
    return rc;
}

/* ----------------------------------------------------------------- dumps */

/* Writes nested keys as compact JSON or block YAML (two-space indent). */
typedef struct emitter {
    mpp_sb *sb;
    bool json;
    int depth;
    bool first[8];
} emitter;

static void em_key(emitter *em, const char *key)
{
    if (em->json) {
        if (!em->first[em->depth])
            mpp_sb_addc(em->sb, ',');
        em->first[em->depth] = false;
        mpp_sb_json_str(em->sb, key);
        mpp_sb_addc(em->sb, ':');
    } else {
        for (int i = 0; i < em->depth; i++)
            mpp_sb_add(em->sb, "  ");
        mpp_sb_add(em->sb, key);
        mpp_sb_addc(em->sb, ':');
    }
}

static void em_open(emitter *em, const char *key)
{
    em_key(em, key);
    mpp_sb_add(em->sb, em->json ? "{" : "\n");
    em->depth++;
    assert(em->depth < 8);
    em->first[em->depth] = true;
}

static void em_close(emitter *em)
{
    em->depth--;
    if (em->json)
        mpp_sb_addc(em->sb, '}');
}

/* A word (plug-in or enum name): a JSON string or plain YAML. */
static void em_word(emitter *em, const char *key, const char *word)
{
    em_key(em, key);
    if (em->json)
        mpp_sb_json_str(em->sb, word);
    else
        mpp_sb_printf(em->sb, " %s\n", word);
}

static void em_rows(emitter *em, const mpp_schema *s, const void *base);

static void em_param(emitter *em, const mpp_param *p, const void *base)
{
    const char *src = (const char *)base + p->offset;
    if (p->type == MPP_PT_ENUM) {
        int i;
        memcpy(&i, src, sizeof i);
        em_word(em, p->key, p->choices[i]);
        return;
    }
    if (p->type == MPP_PT_PLUGIN) {
        /* the selector, then the plug-in's section when it has parameters */
        const void *ops;
        memcpy(&ops, src, sizeof ops);
        if (!ops)
            return;
        const mpp_schema *s = p->family->schema(ops);
        em_word(em, p->key, p->family->name(ops));
        if (s->nparams) {
            em_open(em, p->family->name(ops));
            em_rows(em, s, (const char *)base + p->blob);
            em_close(em);
        }
        return;
    }
    em_key(em, p->key);
    if (!em->json)
        mpp_sb_addc(em->sb, ' ');
    switch (p->type) {
    case MPP_PT_U32: {
        uint32_t v;
        memcpy(&v, src, sizeof v);
        mpp_sb_printf(em->sb, "%" PRIu32, v);
        break;
    }
    case MPP_PT_U64:
    case MPP_PT_BYTES:
    case MPP_PT_CYCLES: {
        uint64_t v;
        memcpy(&v, src, sizeof v);
        mpp_sb_printf(em->sb, "%" PRIu64, v);
        break;
    }
    case MPP_PT_DOUBLE: {
        double v;
        memcpy(&v, src, sizeof v);
        mpp_sb_double(em->sb, v);
        break;
    }
    case MPP_PT_BOOL: {
        bool v;
        memcpy(&v, src, sizeof v);
        mpp_sb_add(em->sb, v ? "true" : "false");
        break;
    }
    case MPP_PT_U32LIST: {
        mpp_u32list l;
        memcpy(&l, src, sizeof l);
        mpp_sb_addc(em->sb, '[');
        for (uint32_t i = 0; i < l.n; i++)
            mpp_sb_printf(em->sb, "%s%" PRIu32, i ? (em->json ? "," : ", ") : "", l.v[i]);
        mpp_sb_addc(em->sb, ']');
        break;
    }
    case MPP_PT_BOOLLIST: {
        mpp_u32list l;
        memcpy(&l, src, sizeof l);
        if (l.n == 1) {
            mpp_sb_add(em->sb, l.v[0] ? "true" : "false");
            break;
        }
        mpp_sb_addc(em->sb, '[');
        for (uint32_t i = 0; i < l.n; i++)
            mpp_sb_printf(em->sb, "%s%s", i ? (em->json ? "," : ", ") : "",
                          l.v[i] ? "true" : "false");
        mpp_sb_addc(em->sb, ']');
        break;
    }
    case MPP_PT_STRING:
        if (em->json)
            mpp_sb_json_str(em->sb, src);
        else
            mpp_sb_printf(em->sb, "\"%s\"", src);
        break;
    case MPP_PT_NAMEMAP: {
        /* a flow mapping: {k: v, ...} (JSON {"k":"v",...}) */
        char k[MPP_NAMEMAP_NAME_MAX + 1], v[MPP_NAMEMAP_NAME_MAX + 1];
        const char *pos = src;
        mpp_sb_addc(em->sb, '{');
        for (int i = 0; mpp_namemap_next(&pos, k, v); i++) {
            if (em->json)
                mpp_sb_printf(em->sb, "%s\"%s\":\"%s\"", i ? "," : "", k, v);
            else
                mpp_sb_printf(em->sb, "%s%s: %s", i ? ", " : "", k, v);
        }
        mpp_sb_addc(em->sb, '}');
        break;
    }
    case MPP_PT_SENDLIST: {
        const mpp_sendlist *l = (const mpp_sendlist *)src;
        mpp_sb_addc(em->sb, '[');
        for (uint32_t i = 0; i < l->n; i++)
            mpp_sb_printf(em->sb, "%s[%" PRIu32 ",%s%" PRIu32 ",%s%" PRIu64 "]",
                          i ? (em->json ? "," : ", ") : "", l->v[i].src, em->json ? "" : " ",
                          l->v[i].dst, em->json ? "" : " ", l->v[i].bytes);
        mpp_sb_addc(em->sb, ']');
        break;
    }
    case MPP_PT_ENUM:
    case MPP_PT_PLUGIN:
        break;
    }
    if (!em->json)
        mpp_sb_addc(em->sb, '\n');
}

static void em_rows(emitter *em, const mpp_schema *s, const void *base)
{
    for (size_t i = 0; i < s->nparams; i++)
        em_param(em, &s->params[i], base);
}

void mpp_config_dump(const mpp_sim_config *c, mpp_sb *sb, bool json)
{
    emitter em = {sb, json, 0, {true}};
    if (json)
        mpp_sb_addc(sb, '{');
    em_open(&em, "network");
    em_rows(&em, &net_selectors, &c->net);
    em_rows(&em, &mpp_net_schema, &c->net);
    em_close(&em);
    const mpp_workload_ops *w = c->workload.ops;
    if (w) {
        em_open(&em, "workload");
        em_word(&em, "type", w->name);
        em_rows(&em, &w->schema, c->workload.cfg.b);
        em_close(&em);
    }
    if ((w && (w->flags & MPP_WL_NODES)) || mpp_nic_bounded(c->net.nic) ||
        (w && w->uses_node && w->uses_node(c->workload.cfg.b))) {
        em_open(&em, "node");
        em_rows(&em, &mpp_node_schema, &c->node);
        em_close(&em);
    }
    em_rows(&em, &mpp_run_schema, &c->run);
    if (json)
        mpp_sb_addc(sb, '}');
}
