/* test/test_records.c — run records (core/cli/output.h,
 * mpp_output_run_pack / mpp_output_run_unpack; docs/formats.md "Run
 * records"): a packed run reads back byte for byte, and every damaged or
 * crafted record is refused with MPP_EFORMAT and a reason that names the
 * field: a flipped bit (the checksum), a truncated or extended record, an
 * old magic, a bool byte of 0x17, channel names without a NUL or with a
 * control character, counts that would overflow the size, a status that is
 * no error code, negative or infinite doubles, flow and message ends beyond
 * the node count, a NUL in the report, arrays in a failed run's record.
 * The crafted records get a correct checksum (as an attacker can give
 * them), so each check is reached on its own.
 *
 * `test_records --layout` prints the offsets test/cli/records.sh needs to
 * craft records (header, result size, the saturated byte, a result double,
 * a channel record's size). */
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "core/cli/output.h"
#include "test/testutil.h"

#define HDR 64 /* the header's size (output.c asserts it) */
#define OFF_NCHANNELS 24
#define OFF_STATUS 12

/* A small finished run: 4 nodes, 2 channels, 2 flows, 1 message, a report. */
static void sample(mpp_output_run *r)
{
    mpp_output_run_init(r);
    r->done = true;
    r->result.seed = 7;
    r->result.nodes = 4;
    r->result.cycles = 1200;
    r->result.offered = 0.1;
    r->result.accepted = 0.0905;
    r->result.latency_mean = 9.5;
    r->result.lower_bound = NAN;
    r->result.saturated = true;
    r->result.drained = false;
    r->result.wall_seconds = 0.25;
    r->nchannels = 2;
    r->channels = calloc(2, sizeof *r->channels);
    snprintf(r->channels[0].from, sizeof r->channels[0].from, "r0.E");
    snprintf(r->channels[0].to, sizeof r->channels[0].to, "r1.W");
    r->channels[0].flits = 40;
    r->channels[0].utilisation = 0.04;
    snprintf(r->channels[1].from, sizeof r->channels[1].from, "n3.link0");
    snprintf(r->channels[1].to, sizeof r->channels[1].to, "r3.P");
    r->channels[1].utilisation = NAN;
    r->nflows = 2;
    r->flows = calloc(2, sizeof *r->flows);
    r->flows[0] = (mpp_output_flow){.src = 0, .dst = 3, .flits = 8};
    r->flows[1] = (mpp_output_flow){.src = 3, .dst = 1, .flits = 4};
    r->nmessages = 1;
    r->messages = calloc(1, sizeof *r->messages);
    r->messages[0] = (mpp_message_record){.src = 1, .dst = 2, .bytes = 64, .packets = 1,
                                          .issue = 10, .first_inject = 12, .delivered = 30,
                                          .hops = 2};
    r->report = strdup("a line\nanother");
    CHECK(r->channels && r->flows && r->messages && r->report);
}

/* The record of sample() as bytes (malloc'd) and its length. */
static unsigned char *packed(size_t *len, int status)
{
    mpp_output_run r;
    sample(&r);
    mpp_sb sb;
    mpp_sb_init(&sb);
    if (status) { /* a failed run's record carries no arrays */
        r.status = status;
        free(r.channels), free(r.flows), free(r.messages);
        r.channels = NULL, r.flows = NULL, r.messages = NULL;
        r.nchannels = r.nflows = r.nmessages = 0;
    }
    CHECK(mpp_output_run_pack(&r, 5, 0xabcdef, &sb) == 0);
    mpp_output_run_free(&r);
    unsigned char *b = malloc(sb.len);
    if (b)
        memcpy(b, sb.s, sb.len);
    *len = sb.len;
    mpp_sb_free(&sb);
    return b;
}

/* Rewrite the trailing CRC-32 after a change, as a crafted record has it. */
static void reseal(unsigned char *b, size_t len)
{
    uint32_t c = (uint32_t)crc32(crc32(0L, Z_NULL, 0), b, (uInt)(len - 4));
    memcpy(b + len - 4, &c, 4);
}

/* b must be refused with MPP_EFORMAT and a message holding want. */
static void refused(const unsigned char *b, size_t len, const char *want, int line)
{
    mpp_output_run r;
    mpp_output_run_init(&r);
    mpp_err err;
    mpp_err_clear(&err);
    uint64_t run, hash;
    int rc = mpp_output_run_unpack(b, len, &run, &hash, &r, &err);
    CHECKF(rc == MPP_EFORMAT && strstr(err.msg, want), "line %d: rc %d, \"%s\", want \"%s\"",
           line, rc, err.msg, want);
    CHECK(!r.done && !r.channels && !r.flows && !r.messages && !r.report);
    mpp_output_run_free(&r);
}
#define REFUSED(b, len, want) refused(b, len, want, __LINE__)

static size_t off_result(void) { return HDR; }
static size_t off_channels(void) { return HDR + sizeof(mpp_sim_result); }
static size_t off_flows(void) { return off_channels() + 2 * sizeof(mpp_channel_info); }
static size_t off_messages(void) { return off_flows() + 2 * sizeof(mpp_output_flow); }
static size_t off_report(void) { return off_messages() + sizeof(mpp_message_record); }

/* A good record reads back and packs to the same bytes. */
static void round_trip(void)
{
    for (int failed = 0; failed < 2; failed++) {
        size_t len;
        unsigned char *b = packed(&len, failed ? MPP_EDEADLOCK : 0);
        if (!b) {
            CHECK(!"out of memory");
            return;
        }
        mpp_output_run r;
        mpp_output_run_init(&r);
        mpp_err err;
        uint64_t run = 0, hash = 0;
        CHECK(mpp_output_run_unpack(b, len, &run, &hash, &r, &err) == 0);
        CHECK(run == 5 && hash == 0xabcdef && r.done);
        CHECK(r.status == (failed ? MPP_EDEADLOCK : 0));
        CHECK(r.result.saturated && !r.result.drained && r.result.nodes == 4);
        CHECK(failed || (r.nchannels == 2 && !strcmp(r.channels[1].from, "n3.link0")));
        CHECK(failed || (r.nflows == 2 && r.flows[1].dst == 1 && r.nmessages == 1));
        CHECK(r.report && !strcmp(r.report, "a line\nanother"));
        mpp_sb sb;
        mpp_sb_init(&sb);
        CHECK(mpp_output_run_pack(&r, run, hash, &sb) == 0);
        CHECK(sb.len == len && !memcmp(sb.s, b, len));
        mpp_sb_free(&sb);
        mpp_output_run_free(&r);
        free(b);
    }
}

static void damaged(void)
{
    size_t len;
    unsigned char *b = packed(&len, 0), *c = malloc(len + 8);
    if (!b || !c) {
        CHECK(!"out of memory");
        free(b);
        free(c);
        return;
    }
#define FRESH() memcpy(c, b, len)

    /* the checksum: one flipped bit anywhere, not resealed */
    size_t acc = off_result() + offsetof(mpp_sim_result, accepted);
    for (size_t at = 0; at < len; at += 97) {
        FRESH();
        c[at == acc ? at + 6 : at] ^= 0x10;
        REFUSED(c, len, at < 8 ? "magic" : "checksum mismatch");
    }
    FRESH();
    c[acc + 6] ^= 0x10;
    REFUSED(c, len, "checksum mismatch");
    /* truncated and extended */
    for (size_t n = 0; n < len; n += n < 80 ? 1 : 211)
        REFUSED(b, n, n < 8 ? "magic" : n < off_channels() + 4 ? "truncated" : "checksum");
    FRESH();
    reseal(c, len - 40); /* cut 40 bytes, sealed again: the counts say more */
    REFUSED(c, len - 40, "counts need");
    FRESH();
    memcpy(c + len, "abcd", 4);
    reseal(c, len + 4);
    REFUSED(c, len + 4, "counts need");
    /* an older version */
    FRESH();
    memcpy(c, "mpprun1", 8);
    REFUSED(c, len, "not a run record of this mppnet version");

    /* the header */
    FRESH();
    c[8] ^= 1; /* result_size */
    reseal(c, len);
    REFUSED(c, len, "result_size");
    int32_t st = 5;
    FRESH();
    memcpy(c + OFF_STATUS, &st, 4);
    reseal(c, len);
    REFUSED(c, len, "status 5");
    st = MPP_EDEADLOCK;
    FRESH();
    memcpy(c + OFF_STATUS, &st, 4);
    reseal(c, len);
    REFUSED(c, len, "a failed run");
    /* counts whose sizes wrap 64 bits, or above 32 bits */
    uint64_t big[] = {UINT64_MAX, (UINT64_MAX / sizeof(mpp_channel_info)) + 1,
                      (uint64_t)1 << 32, UINT64_MAX - 1};
    for (size_t k = 0; k < sizeof big / sizeof *big; k++)
        for (int which = 0; which < 4; which++) {
            FRESH();
            memcpy(c + OFF_NCHANNELS + 8 * which, &big[k], 8);
            reseal(c, len);
            REFUSED(c, len, which == 0 ? "nchannels" : which == 1 ? "nflows"
                                                  : which == 2 ? "nmessages" : "replen");
        }

    /* the result's bools, as bytes */
    FRESH();
    c[off_result() + offsetof(mpp_sim_result, saturated)] = 0x17;
    reseal(c, len);
    REFUSED(c, len, "result.saturated is byte 0x17");
    FRESH();
    c[off_result() + offsetof(mpp_sim_result, drained)] = 2;
    reseal(c, len);
    REFUSED(c, len, "result.drained");
    /* its doubles */
    const struct {
        size_t off;
        double v;
        const char *want;
    } dbl[] = {
        {offsetof(mpp_sim_result, accepted), -0.5, "result.accepted"},
        {offsetof(mpp_sim_result, latency_mean), INFINITY, "result.latency_mean"},
        {offsetof(mpp_sim_result, makespan_ms), -INFINITY, "result.makespan_ms"},
        {offsetof(mpp_sim_result, channel_util_max), -1e-300, "result.channel_util_max"},
        {offsetof(mpp_sim_result, wall_seconds), NAN, "result.wall_seconds"},
    };
    for (size_t k = 0; k < sizeof dbl / sizeof *dbl; k++) {
        FRESH();
        memcpy(c + off_result() + dbl[k].off, &dbl[k].v, sizeof(double));
        reseal(c, len);
        REFUSED(c, len, dbl[k].want);
    }

    /* channel names: no NUL in 48 bytes, a control character, the ESC */
    FRESH();
    memset(c + off_channels() + sizeof(mpp_channel_info), 'A', sizeof(mpp_channel_info));
    reseal(c, len);
    REFUSED(c, len, "channel 1: its from name is not NUL-terminated");
    FRESH();
    memset(c + off_channels() + offsetof(mpp_channel_info, to), 'B', 48);
    reseal(c, len);
    REFUSED(c, len, "channel 0: its to name is not NUL-terminated");
    FRESH();
    c[off_channels() + 1] = 0x1b;
    reseal(c, len);
    REFUSED(c, len, "byte 0x1b at 1 of its from name");
    double neg = -1;
    FRESH();
    memcpy(c + off_channels() + offsetof(mpp_channel_info, utilisation), &neg, 8);
    reseal(c, len);
    REFUSED(c, len, "channel 0: utilisation");
    /* flows and messages: ends beyond the 4 nodes, an empty flow, hops */
    uint32_t four = 4;
    FRESH();
    memcpy(c + off_flows() + sizeof(mpp_output_flow) + offsetof(mpp_output_flow, dst), &four, 4);
    reseal(c, len);
    REFUSED(c, len, "flow 1: src 3 or dst 4 not below result.nodes 4");
    uint64_t zero = 0;
    FRESH();
    memcpy(c + off_flows() + offsetof(mpp_output_flow, flits), &zero, 8);
    reseal(c, len);
    REFUSED(c, len, "flow 0: 0 flits");
    FRESH();
    memcpy(c + off_messages() + offsetof(mpp_message_record, src), &four, 4);
    reseal(c, len);
    REFUSED(c, len, "message 0: src 4");
    FRESH();
    memcpy(c + off_messages() + offsetof(mpp_message_record, hops), &neg, 8);
    reseal(c, len);
    REFUSED(c, len, "message 0: hops");
    /* a NUL in the report */
    FRESH();
    c[off_report() + 3] = 0;
    reseal(c, len);
    REFUSED(c, len, "the report holds a NUL byte (at 3");
    free(c);
    free(b);
#undef FRESH
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--layout")) {
        printf("header %d result %zu saturated %zu accepted %zu channel %zu\n", HDR,
               sizeof(mpp_sim_result), offsetof(mpp_sim_result, saturated),
               offsetof(mpp_sim_result, accepted), sizeof(mpp_channel_info));
        return 0;
    }
    round_trip();
    damaged();
    TEST_DONE();
}
