// eth.cpp -- frames on a full-duplex Ethernet link: serialisation, gaps, latency.
#include "eth.h"

#include <algorithm>

using namespace sc_core;

namespace ipcsim
{

Eth::Eth(sc_module_name name, const EthParams &p)
    : sc_module(name), p_(p), ps_per_byte_(ps_per_byte(p.rate_Mbps / 8, "rate_Mbps / 8"))
{
    for (int h = 0; h < 2; h++) {
        in[h].register_b_transport(this, &Eth::send, h);
        Dir &d = dir_[h];
        // Direction h carries host h's frames to host 1-h.
        d.flight.start(h ? "flight1" : "flight0", [this, h](Packet &pk) {
            Dir &dd = dir_[h];
            gp_set(dd.gp, false, nullptr, &pk, sizeof pk);
            sc_time zero = SC_ZERO_TIME;
            out[1 - h]->b_transport(dd.gp, zero);
        });
    }
}

uint64_t Eth::frame_bytes(uint64_t ip_bytes) const
{
    return std::max(p_.min_frame_bytes, p_.header_bytes + ip_bytes + p_.fcs_bytes);
}

uint64_t Eth::wire_bytes(uint64_t ip_bytes) const
{
    return p_.preamble_bytes + frame_bytes(ip_bytes) + p_.ifg_bytes;
}

uint64_t Eth::latency_ps(uint64_t ip_bytes) const
{
    return bytes_ps(p_.preamble_bytes + frame_bytes(ip_bytes), ps_per_byte_, "a frame") +
           ns_to_ps(p_.propagation_ns + 2 * p_.nic_ns, "propagation_ns + 2 nic_ns");
}

void Eth::send(int h, tlm::tlm_generic_payload &gp, sc_time &delay)
{
    if (delay != SC_ZERO_TIME) wait(delay);
    delay = SC_ZERO_TIME;
    const Packet &pk = *(const Packet *)gp.get_data_ptr();
    Dir &d = dir_[h];
    if (d.free > now_ps()) wait(ps(d.free - now_ps()));
    uint64_t start = now_ps();
    d.free = after_ps(start, bytes_ps(wire_bytes(pk.ip_bytes), ps_per_byte_, "a frame"),
                      "a frame's end");
    d.flight.push(start + latency_ps(pk.ip_bytes), pk);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

} // namespace ipcsim
