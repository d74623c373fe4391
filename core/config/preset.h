/* core/config/preset.h — machine presets shipped inside the program (mpp_preset_*).
 *
 * The presets are the YAML files experiments/machines/NAME.yaml, embedded
 * at build time (scripts/embed_presets.py writes presets_data.c), so the
 * binary needs no data files. `machine: NAME` in an experiment applies the
 * preset's network: and node: sections under the experiment's own keys
 * (core/config/experiment.c). */
#ifndef MPP_CORE_CONFIG_PRESET_H
#define MPP_CORE_CONFIG_PRESET_H

#include <stddef.h>

typedef struct mpp_preset {
    const char *name;  /* "cm5" */
    const char *file;  /* "experiments/machines/cm5.yaml" (for error locations) */
    const char *text;  /* the YAML text */
    const char *help;  /* its first comment line */
} mpp_preset;

extern const mpp_preset mpp_presets[];
extern const size_t mpp_npresets;

/* The preset called name, or NULL. */
const mpp_preset *mpp_preset_find(const char *name);

#endif
