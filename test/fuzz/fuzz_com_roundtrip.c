/* test/fuzz/fuzz_com_roundtrip.c — libFuzzer harness: a COM file that reads
 * is written back (plain and gzip) and read again, and must come back
 * identical: the writer and the reader agree on every matrix. */
#include "test/fuzz/fuzz_util.h"

#include "traces/com.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same(const mpp_com_seq *a, const mpp_com_seq *b)
{
    if (a->count != b->count)
        return 0;
    for (uint32_t k = 0; k < a->count; k++)
        if (!mpp_com_equal(&a->m[k], &b->m[k]) || a->m[k].step != b->m[k].step)
            return 0;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mpp_com_seq seq, back;
    mpp_err err;
    if (mpp_com_read(fuzz_file(data, size, NULL), &seq, &err))
        return 0;
    for (int gz = 0; gz < 2; gz++) {
        const char *out = fuzz_file((const uint8_t *)"", 0, gz ? ".mtx.gz" : ".mtx");
        if (mpp_com_write(out, &seq, &err))
            abort();
        if (mpp_com_read(out, &back, &err))
            abort();
        if (!same(&seq, &back))
            abort();
        mpp_com_seq_free(&back);
    }
    mpp_com_seq_free(&seq);
    return 0;
}
