/* test/fuzz/fuzz_optrace.c — libFuzzer harness of the operation-trace
 * reader and of the programs re-executed from it: any input is read or
 * refused with a FILE:LINE message; a trace that reads becomes programs or
 * is refused with a message, and is written back and read again
 * identically. */
#include "test/fuzz/fuzz_util.h"

#include "traces/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mpp_op_trace t, back;
    mpp_err err;
    if (mpp_op_trace_read(fuzz_file(data, size, NULL), &t, &err)) {
        if (!err.msg[0])
            abort(); /* a failure must say why */
        return 0;
    }
    if (t.nodes <= 4096) { /* the programs take memory per node */
        mpp_progbuild b;
        if (mpp_trace_programs_ops(&t, t.nodes, &b, &err) == 0)
            mpp_progbuild_free(&b);
        else if (!err.msg[0])
            abort();
    }
    const char *out = fuzz_file((const uint8_t *)"", 0, ".ops");
    if (mpp_op_trace_write(out, &t, &err) || mpp_op_trace_read(out, &back, &err))
        abort();
    if (back.nodes != t.nodes || back.config_hash != t.config_hash || back.seed != t.seed ||
        back.n != t.n)
        abort();
    for (uint32_t i = 0; i < t.n; i++)
        if (back.e[i].node != t.e[i].node || back.e[i].cycle != t.e[i].cycle ||
            memcmp(&back.e[i].op, &t.e[i].op, sizeof t.e[i].op) != 0)
            abort();
    mpp_op_trace_free(&back);
    mpp_op_trace_free(&t);
    return 0;
}
