/* test/fuzz/fuzz_com.c — libFuzzer harness of the COM reader (Matrix Market
 * coordinate files, sequences, gzip): any input is read or refused with a
 * FILE:LINE message, never a crash, a hang or a large allocation. */
#include "test/fuzz/fuzz_util.h"

#include "traces/com.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mpp_com_seq seq;
    mpp_err err;
    if (mpp_com_read(fuzz_file(data, size, NULL), &seq, &err) == 0) {
        for (uint32_t k = 0; k < seq.count; k++)
            if (!mpp_com_check(&seq.m[k]))
                abort(); /* the reader returned an invalid matrix */
        mpp_com_seq_free(&seq);
    } else if (!err.msg[0]) {
        abort();
    }
    return 0;
}
