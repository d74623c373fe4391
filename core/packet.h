/* core/packet.h — packetization: how a message of B bytes becomes packets
 * and each packet flits (mpp_packetizer_*). Defined once here and used by
 * every workload and by the node processors (SPEC 2, "Flit, packet,
 * message").
 *
 * A packet has one header word and up to payload_words data words of
 * word_bits bits; a packet carries payload_bytes = payload_words x
 * word_bits / 8 bytes of a message, so a message of B bytes is
 * ceil(B / payload_bytes) packets (at least one). A packet of d data bytes
 * is ceil((1 + ceil(8d / word_bits)) x word_bits / flit_bits) flits; a
 * control packet (request, reply, active message) is sent full size. The
 * CM-5 values (4 words of 32 bits, 32-bit flits) give 16 bytes and 5 flits
 * per full packet. All functions are cheap and cannot fail once
 * mpp_packetizer_init has accepted the sizes. */
#ifndef MPP_CORE_PACKET_H
#define MPP_CORE_PACKET_H

#include <stdint.h>

#include "core/base/err.h"

/* The most packets one message may have (its packet counter is 32 bits):
 * a larger message is refused, never truncated. */
#define MPP_MSG_MAX_PACKETS UINT32_MAX

typedef struct mpp_packetizer {
    uint32_t payload_words, word_bits, flit_bits;
    uint32_t payload_bytes;  /* message bytes per packet */
    uint32_t full_flits;     /* flits of a full (or control) packet */
} mpp_packetizer;

/* Set p up; fails with MPP_EINVAL when a size is 0 or a packet would carry
 * no whole byte. */
int mpp_packetizer_init(mpp_packetizer *p, uint32_t payload_words, uint32_t word_bits,
                        uint32_t flit_bits, mpp_err *err);

/* Packets of a message of `bytes` bytes: ceil(bytes / payload_bytes), at
 * least 1. */
static inline uint64_t mpp_packet_count(const mpp_packetizer *p, uint64_t bytes)
{
    return bytes ? (bytes - 1) / p->payload_bytes + 1 : 1;
}

/* Flits of a packet carrying `data_bytes` bytes (at most payload_bytes). */
uint32_t mpp_packet_flits(const mpp_packetizer *p, uint64_t data_bytes);

/* Flits of packet k (0-based) of a message of `bytes` bytes. */
uint32_t mpp_packet_flits_of(const mpp_packetizer *p, uint64_t bytes, uint64_t k);

#endif
