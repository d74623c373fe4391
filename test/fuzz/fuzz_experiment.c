/* test/fuzz/fuzz_experiment.c — libFuzzer harness of the YAML experiment
 * loader with overrides: the input is the experiment's text, then
 * (optionally) a line "#overrides" and one override key.path=value per
 * line. Every loaded run's configuration is dumped and hashed too. No input
 * may crash, hang or leak; a load either succeeds or fails with a message. */
#include "test/fuzz/fuzz_util.h"

#include "core/base/strbuf.h"
#include "core/config/experiment.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 16))
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    const char *ov[16];
    size_t nov = 0;
    char *mark = strstr(text, "\n#overrides\n");
    if (mark) {
        *mark = '\0';
        for (char *line = strtok(mark + 12, "\n"); line && nov < 16; line = strtok(NULL, "\n"))
            ov[nov++] = line;
    }
    mpp_err err;
    mpp_experiment *e = mpp_experiment_parse(text, "fuzz.yaml", nov, ov, &err);
    if (e) {
        mpp_sb sb;
        mpp_sb_init(&sb);
        size_t n = mpp_experiment_runs(e);
        for (size_t i = 0; i < n && i < 4; i++) {
            mpp_sb_reset(&sb);
            mpp_experiment_config_yaml(e, i, &sb);
            mpp_experiment_config_json(e, i, &sb);
            (void)mpp_experiment_hash(e, i);
        }
        mpp_sb_free(&sb);
        mpp_experiment_destroy(e);
    } else if (!err.msg[0]) {
        abort(); /* a failure must say why */
    }
    free(text);
    return 0;
}
