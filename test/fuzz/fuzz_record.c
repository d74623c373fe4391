/* test/fuzz/fuzz_record.c — libFuzzer harness of the run-record reader
 * (mpp_output_run_unpack, core/cli/output.h; the records DIR/.mppnet/run-N.rec
 * that `run --resume` reads, and the workers' pipes): any bytes are read or
 * refused with a message, never a crash, an over-read or undefined
 * behaviour (a bool byte that is not 0 or 1). A record that reads is
 * written out as `run --resume` writes it (every result field as CSV and
 * JSON, channels.csv, matrix.csv), so that what the reader lets through is
 * safe for the writers too, and it packs back to the same bytes: the
 * reader drops nothing and the writer adds nothing. Every input is tried
 * twice: as it is (mostly a checksum mismatch) and with its last 4 bytes
 * made the CRC-32 of the others, as a crafted record has them, so that
 * the mutations reach the checks of every field. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "core/cli/output.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Read data as a record; what reads must write out and pack back to data. */
static void one(const uint8_t *data, size_t size)
{
    mpp_output_run r;
    mpp_output_run_init(&r);
    mpp_err err;
    mpp_err_clear(&err);
    uint64_t run, hash;
    int rc = mpp_output_run_unpack(data, size, &run, &hash, &r, &err);
    if (rc) {
        if (rc != MPP_EFORMAT && rc != MPP_ENOMEM)
            abort();
        if (!err.msg[0] || r.done || r.channels || r.flows || r.messages || r.report)
            abort(); /* a refusal says why and leaves nothing behind */
        return;
    }
    mpp_sb sb;
    mpp_sb_init(&sb);
    for (size_t k = 0; k < mpp_result_nfields; k++) {
        mpp_output_field(&sb, &mpp_result_fields[k], &r.result, false);
        mpp_output_field(&sb, &mpp_result_fields[k], &r.result, true);
    }
    mpp_output_result_json(&sb, &r.result, NULL);
    mpp_output_channels_csv(&sb, &r, 1);
    mpp_output_matrix_csv(&sb, &r, 1);
    if (r.report && strlen(r.report) == 0)
        abort(); /* an empty report is no report */
    mpp_sb_reset(&sb);
    if (mpp_output_run_pack(&r, run, hash, &sb) != 0)
        abort();
    if (sb.len != size || memcmp(sb.s, data, size) != 0)
        abort(); /* the round trip changed the bytes */
    mpp_sb_free(&sb);
    mpp_output_run_free(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    one(data, size);
    if (size < 4)
        return 0;
    uint8_t *sealed = malloc(size);
    if (!sealed)
        abort();
    memcpy(sealed, data, size);
    uint32_t crc = (uint32_t)crc32(crc32(0L, Z_NULL, 0), sealed, (uInt)(size - 4));
    memcpy(sealed + size - 4, &crc, sizeof crc);
    one(sealed, size);
    free(sealed);
    return 0;
}
