/* core/packet.c — packetization (see packet.h). */
#include "core/packet.h"

int mpp_packetizer_init(mpp_packetizer *p, uint32_t payload_words, uint32_t word_bits,
                        uint32_t flit_bits, mpp_err *err)
{
    if (payload_words < 1 || word_bits < 1 || flit_bits < 1)
        return mpp_err_set(err, MPP_EINVAL,
                           "node: payload_words, word_bits and flit_bits must all be at least 1");
    uint64_t bytes = (uint64_t)payload_words * word_bits / 8;
    if (bytes < 1 || bytes > UINT32_MAX)
        return mpp_err_set(err, MPP_EINVAL,
                           "node: a packet of %u words of %u bits carries %llu bytes; it must "
                           "carry between 1 and 2^32 - 1",
                           payload_words, word_bits, (unsigned long long)bytes);
    p->payload_words = payload_words;
    p->word_bits = word_bits;
    p->flit_bits = flit_bits;
    p->payload_bytes = (uint32_t)bytes;
    p->full_flits = 0;
    uint64_t full = ((1 + (uint64_t)payload_words) * word_bits + flit_bits - 1) / flit_bits;
    if (full > UINT32_MAX)
        return mpp_err_set(err, MPP_EINVAL, "node: a packet of %llu flits is too large",
                           (unsigned long long)full);
    p->full_flits = (uint32_t)full;
    return 0;
}

uint32_t mpp_packet_flits(const mpp_packetizer *p, uint64_t data_bytes)
{
    uint64_t words = (data_bytes * 8 + p->word_bits - 1) / p->word_bits;
    uint64_t bits = (1 + words) * p->word_bits;
    return (uint32_t)((bits + p->flit_bits - 1) / p->flit_bits);
}

uint32_t mpp_packet_flits_of(const mpp_packetizer *p, uint64_t bytes, uint64_t k)
{
    uint64_t off = k * p->payload_bytes;
    uint64_t left = bytes > off ? bytes - off : 0;
    return mpp_packet_flits(p, left < p->payload_bytes ? left : p->payload_bytes);
}
