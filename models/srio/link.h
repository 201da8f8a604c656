/*
 * models/srio/link.h -- one direction of a Serial RapidIO link: its data
 * rate and when it is next free.
 *
 * rate = lanes x baud x encoding / 8 bytes per second (8b/10b: 0.8), less
 * the idle sequences (idle_bytes every idle_every code-groups). Packets
 * leave one after another: a packet takes the lane from max(ready, free)
 * for wire x ps_per_byte, so contention is FIFO per lane, in the order the
 * packets ask for it. Nothing is clocked per symbol.
 */
#ifndef IPCSIM_MODELS_SRIO_LINK_H
#define IPCSIM_MODELS_SRIO_LINK_H

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace ipcsim
{

struct SrioLinkParams {
    int lanes = 4;
    double lane_gbaud = 3.125;
    double encoding = 0.8;
    double idle_bytes = 4, idle_every = 5000;
    // Payload-carrying bytes per second of one direction.
    double bytes_per_s() const
    {
        return lanes * lane_gbaud * 1e9 * encoding / 8 * idle_every / (idle_every + idle_bytes);
    }
};

struct SrioLane {
    double ps_per_byte = 0;
    uint64_t free_ps = 0;

    uint64_t ser(uint64_t wire) const { return (uint64_t)std::llround((double)wire * ps_per_byte); }
    // Take the lane for a packet of `wire` bytes ready at `ready`: returns
    // when it starts; the lane is busy until start + ser(wire).
    uint64_t take(uint64_t ready, uint64_t wire)
    {
        uint64_t start = std::max(ready, free_ps);
        free_ps = start + ser(wire);
        return start;
    }
};

} // namespace ipcsim

#endif
