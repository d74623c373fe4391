/* topologies/registry.c — the one list of topology plug-ins. Adding a
 * topology: one file exporting its ops table, one line here, one line in
 * topologies/meson.build. */
#include "topologies/topology.h"

#include <string.h>

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
