/* routers/registry.c — the one list of routing plug-ins. Adding a routing:
 * one file exporting its ops table, one line here, one line in
 * routers/meson.build. Lookup accepts a plug-in's aliases (BookSim names). */
#include "routers/routing.h"

#include <string.h>

extern const mpp_routing_ops mpp_routing_ecube;
extern const mpp_routing_ops mpp_routing_valiant;
extern const mpp_routing_ops mpp_routing_romm;
extern const mpp_routing_ops mpp_routing_fattree_random;
extern const mpp_routing_ops mpp_routing_xyyx;
extern const mpp_routing_ops mpp_routing_adaptive;
extern const mpp_routing_ops mpp_routing_misroute;
extern const mpp_routing_ops mpp_routing_cmesh_dor;
extern const mpp_routing_ops mpp_routing_cmesh_express;
extern const mpp_routing_ops mpp_routing_fattree_nca;
extern const mpp_routing_ops mpp_routing_anynet_min;
extern const mpp_routing_ops mpp_routing_ugal;

static const mpp_routing_ops *const all[] = {
    &mpp_routing_ecube,
    &mpp_routing_valiant,
    &mpp_routing_romm,
    &mpp_routing_fattree_random,
    &mpp_routing_xyyx,
    &mpp_routing_adaptive,
    &mpp_routing_misroute,
    &mpp_routing_cmesh_dor,
    &mpp_routing_cmesh_express,
    &mpp_routing_fattree_nca,
    &mpp_routing_anynet_min,
    &mpp_routing_ugal,
    NULL,
};

const mpp_routing_ops *mpp_routing_find(const char *name)
{
    for (size_t i = 0; all[i]; i++) {
        if (strcmp(all[i]->name, name) == 0)
            return all[i];
        for (const char *const *a = all[i]->aliases; a && *a; a++)
            if (strcmp(*a, name) == 0)
                return all[i];
    }
    return NULL;
}

const mpp_routing_ops *const *mpp_routing_all(void) { return all; }

static bool fam_hidden(const void *ops) { return ((const mpp_routing_ops *)ops)->test_only; }

MPP_FAMILY_DEFINE(mpp_routing_family, mpp_routing_ops, all, mpp_routing_find,
                  .what = "routing", .hidden = fam_hidden);
