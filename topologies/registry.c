/* topologies/registry.c — the one list of topology plug-ins. Adding a
 * topology: one file exporting its ops table, one line here, one line in
 * topologies/meson.build. */
#include "topologies/topology.h"

#include <string.h>

#include "core/base/strbuf.h"
#include "core/base/units.h"

extern const mpp_topo_ops mpp_topo_mesh;
extern const mpp_topo_ops mpp_topo_hypercube;
extern const mpp_topo_ops mpp_topo_cm5_fattree;
extern const mpp_topo_ops mpp_topo_kary_ncube;
extern const mpp_topo_ops mpp_topo_butterfly;
extern const mpp_topo_ops mpp_topo_cmesh;
extern const mpp_topo_ops mpp_topo_fattree;
extern const mpp_topo_ops mpp_topo_anynet;
extern const mpp_topo_ops mpp_topo_flatfly;
extern const mpp_topo_ops mpp_topo_dragonfly;

static const mpp_topo_ops *const all[] = {
    &mpp_topo_mesh,
    &mpp_topo_hypercube,
    &mpp_topo_cm5_fattree,
    &mpp_topo_kary_ncube,
    &mpp_topo_butterfly,
    &mpp_topo_cmesh,
    &mpp_topo_fattree,
    &mpp_topo_anynet,
    &mpp_topo_flatfly,
    &mpp_topo_dragonfly,
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

uint32_t mpp_topo_parse_x(const char *args, uint64_t *v, uint32_t max)
{
    uint32_t n = 0;
    for (const char *c = args;; n++) {
        size_t x = strcspn(c, "xX");
        if (n == max || !mpp_units_u64(c, x, &v[n]))
            return 0;
        if (!c[x])
            return n + 1;
        c += x + 1;
    }
}

static int fam_short(const void *ops, const char *args, mpp_sb *out, mpp_err *err)
{
    const mpp_topo_ops *t = ops;
    if (!t->parse_short)
        return mpp_err_set(err, MPP_EINVAL, "topology '%s' has no short form: give its keys",
                           t->name);
    return t->parse_short(args, out, err);
}

MPP_FAMILY_DEFINE(mpp_topo_family, mpp_topo_ops, all, mpp_topo_find,
                  .what = "topology", .parse_short = fam_short);
