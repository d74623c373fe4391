/* test/fuzz/fuzz_booksim.c — libFuzzer harness of the BookSim configuration
 * reader and its mapping (core/config/booksim.c): the input is the file's
 * text, then (optionally) a line "#overrides" and one BookSim override
 * key=value per line. No input may crash, hang or leak; a refusal names
 * the file or the command line (FILE:LINE:COL, "command line: ..."), and
 * a configuration that maps is dumped and hashed. */
#include "test/fuzz/fuzz_util.h"

#include "core/base/strbuf.h"
#include "core/config/booksim.h"
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
    size_t nov = 0, len = size;
    char *mark = memmem(text, size, "\n#overrides\n", 12);
    if (mark) {
        *mark = '\0';
        len = (size_t)(mark - text);
        for (char *line = strtok(mark + 12, "\n"); line && nov < 16; line = strtok(NULL, "\n"))
            ov[nov++] = line;
    }
    (void)mpp_booksim_detect(text, len);
    mpp_err err;
    err.msg[0] = 0;
    mpp_booksim *b = mpp_booksim_parse(text, len, "fuzz.cfg", &err);
    int rc = b ? 0 : err.code;
    for (size_t i = 0; b && !rc && i < nov; i++)
        rc = mpp_booksim_override(b, ov[i], &err);
    if (b && !rc) {
        mpp_booksim_info info;
        mpp_experiment *e = mpp_booksim_experiment(b, &info, &err);
        if (e) {
            mpp_sb sb;
            mpp_sb_init(&sb);
            for (size_t i = 0; i < mpp_experiment_runs(e) && i < 4; i++) {
                mpp_sb_reset(&sb);
                mpp_experiment_config_yaml(e, i, &sb);
                (void)mpp_experiment_hash(e, i);
            }
            mpp_sb_free(&sb);
            mpp_experiment_destroy(e);
        } else {
            rc = err.code;
        }
    }
    if (rc && !(strstr(err.msg, "fuzz.cfg") || strstr(err.msg, "command line") ||
                strstr(err.msg, "out of memory")))
        abort(); /* a refusal names where */
    mpp_booksim_free(b);
    free(text);
    return 0;
}
