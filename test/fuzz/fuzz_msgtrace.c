/* test/fuzz/fuzz_msgtrace.c — libFuzzer harness of the message-trace reader
 * and of the programs built from a trace (COMPUTE gaps, SENDs, IRECVs): any
 * input is read or refused with a FILE:LINE message; a trace that reads is
 * turned into programs or refused with a message (times beyond the
 * documented maximum), written back and read again identically. */
#include "test/fuzz/fuzz_util.h"

#include "traces/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mpp_msg_trace t, back;
    mpp_err err;
    if (mpp_msg_trace_read(fuzz_file(data, size, NULL), &t, &err)) {
        if (!err.msg[0])
            abort(); /* a failure must say why */
        return 0;
    }
    if (t.nodes <= 4096) { /* the programs take memory per node */
        mpp_progbuild b;
        for (int par = 0; par < 4; par += 2) {
            if (mpp_trace_programs_msgs(&t, t.nodes, par, 33.0, 40.0, &b, &err) == 0)
                mpp_progbuild_free(&b);
            else if (!err.msg[0])
                abort();
        }
    }
    const char *out = fuzz_file((const uint8_t *)"", 0, ".trace");
    if (mpp_msg_trace_write(out, &t, &err) || mpp_msg_trace_read(out, &back, &err))
        abort();
    if (back.nodes != t.nodes || back.time_us != t.time_us || back.n != t.n)
        abort();
    for (uint32_t i = 0; i < t.n; i++)
        if (back.e[i].src != t.e[i].src || back.e[i].dst != t.e[i].dst ||
            back.e[i].bytes != t.e[i].bytes || back.e[i].tag != t.e[i].tag)
            abort();
    mpp_msg_trace_free(&back);
    mpp_msg_trace_free(&t);
    return 0;
}
