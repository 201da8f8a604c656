/*
 * models/srio/packet.h -- Serial RapidIO packets as the link sees them: the
 * bytes each type puts on the wire, and the packet record that travels
 * between endpoints and the switch.
 *
 * Wire bytes of a packet with `payload` data bytes (RapidIO 1.3 parts 1, 2,
 * 6; docs/mpc8640_srio.md derives each type's header):
 *   b = header(type) + payload          physical + transport + logical fields
 *   b += crc                           the closing CRC-16
 *   b += crc if b - crc > crc_after    the CRC inserted after the first 80 B
 *   b = round up to align              padding to a multiple of 4
 *   b += delimiter                     the start-of-packet control symbol
 * The link then carries b bytes as 8b/10b code-groups, with an idle sequence
 * of idle_bytes every idle_every code-groups (a rate factor, not events).
 */
#ifndef IPCSIM_MODELS_SRIO_PACKET_H
#define IPCSIM_MODELS_SRIO_PACKET_H

#include "../proto.h"

#include <cstdint>
#include <vector>

namespace ipcsim
{

// The transaction types the model sends (RapidIO ftype in the comments).
enum SrioType {
    SRIO_NWRITE,   // 5: write, no response (posted)
    SRIO_SWRITE,   // 6: streaming write, no response
    SRIO_NREAD,    // 2: read request
    SRIO_ATOMIC,   // 2/5: read-modify-write request (8 B operand; CAS 16 B)
    SRIO_MESSAGE,  // 11: one segment of a data message
    SRIO_DOORBELL, // 10: 16-bit info, to the inbound doorbell queue
    SRIO_RESPONSE, // 13: response (with the data of a read or atomic)
    SRIO_TYPES
};

struct SrioFormat {
    uint64_t header[SRIO_TYPES] = {}; // bytes before the payload
    uint64_t crc = 2, crc_after = 80, align = 4, delimiter = 4;
    uint64_t max_payload = 256;
    // Bytes on the wire of one packet of `payload` data bytes.
    uint64_t wire(SrioType t, uint64_t payload) const
    {
        uint64_t b = header[t] + payload;
        uint64_t c = crc + (b > crc_after ? crc : 0);
        b += c;
        if (align > 1) b = (b + align - 1) / align * align;
        return b + delimiter;
    }
};

struct SrioReply; // a requester waiting for responses (endpoint.h)

// One packet in flight: the record the endpoints and the switch pass in a
// generic payload's extension. Times in ps: when its first byte (head) and
// last byte (tail) are at the current hop's output.
struct SrioPkt : tlm::tlm_extension<SrioPkt> {
    SrioType type = SRIO_NWRITE;
    int src = 0, dst = 0; // boards
    uint64_t wire = 0;    // bytes on the wire
    uint64_t head = 0, tail = 0;
    void *addr = nullptr;            // the target's side (host pointer)
    int core = -1;                   // the core the access works for (decodes the target)
    int op = OP_NONE;                // plain data or OpExt's atomic
    uint64_t a = 0, b = 0;           // atomic operands
    uint64_t r = 0;                  // a response's atomic result
    std::vector<unsigned char> data; // the payload (a write's, a read response's)
    uint64_t len = 0;                // bytes requested (a read) or carried
    unsigned char *into = nullptr;   // a read response: where the requester wants the data
    SrioReply *reply = nullptr;      // the requester waiting for the response (NULL: none)
    bool respond = false;            // the target answers with a RESPONSE

    tlm::tlm_extension_base *clone() const override { return new SrioPkt(*this); }
    void copy_from(const tlm::tlm_extension_base &o) override
    {
        *this = static_cast<const SrioPkt &>(o);
    }
};

} // namespace ipcsim

#endif
