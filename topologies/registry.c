/* topologies/registry.c — the one list of topology plug-ins. Adding a
 * topology: one file exporting its ops table, one line here, one line in
 * topologies/meson.build. */
#include "topologies/topology.h"

#include <string.h>

#include "core/base/strbuf.h"

extern const mpp_topo_ops mpp_topo_mesh;
extern const mpp_topo_ops mpp_topo_hypercube;
extern const mpp_topo_ops mpp_topo_cm5_fattree;

static const mpp_topo_ops *const all[] = {
    &mpp_topo_mesh,
    &mpp_topo_hypercube,
    &mpp_topo_cm5_fattree,
    NULL,
};

const mpp_topo_ops *mpp_topo_find(const char *name)
{
    for (size_t i = 0; all[i]; i++)
        if (strcmp(all[i]->name, name) == 0)
            return all[i];
    return NULL;
}

const mpp_topo_ops *const *mpp_topo_all(void) { return all; }

static const void *fam_find(const char *name) { return mpp_topo_find(name); }
static const void *fam_at(size_t i) { return i < MPP_COUNTOF(all) ? all[i] : NULL; }
static const char *fam_name(const void *ops) { return ((const mpp_topo_ops *)ops)->name; }
static const mpp_schema *fam_schema(const void *ops) { return &((const mpp_topo_ops *)ops)->schema; }

static int fam_short(const void *ops, const char *args, mpp_sb *out, mpp_err *err)
{
    const mpp_topo_ops *t = ops;
    if (!t->parse_short)
        return mpp_err_set(err, MPP_EINVAL, "topology '%s' has no short form: give its keys",
                           t->name);
    return t->parse_short(args, out, err);
}

const mpp_family mpp_topo_family = {
    .what = "topology",
    .find = fam_find,
    .at = fam_at,
    .name = fam_name,
    .schema = fam_schema,
    .parse_short = fam_short,
};
