/* core/config/preset.c — lookup of the embedded machine presets (see preset.h;
 * the table itself is generated into presets_data.c). */
#include "core/config/preset.h"

#include <string.h>

const mpp_preset *mpp_preset_find(const char *name)
{
    for (size_t i = 0; i < mpp_npresets; i++)
        if (strcmp(mpp_presets[i].name, name) == 0)
            return &mpp_presets[i];
    return NULL;
}
