/*
 * models/gbe/eth.h -- a full-duplex Gigabit Ethernet link joining the NICs of two
 * hosts (the XMCAPI paper's two PCs; docs/gbe.md).
 *
 * Host h hands its NIC an IP packet on in[h]. The NIC sends one frame at a
 * time: the call returns when the frame starts on the wire, so the host's
 * stack prepares its next packet while this one is on the wire, and frame k
 * never starts before frame k-1 and its gap are over. A frame is the packet
 * in header + FCS, padded to the minimum frame; on the wire it follows the
 * preamble+SFD and is followed by the inter-frame gap, all at rate_Mbps.
 * The receiving NIC has it when its last bit is in (store and forward):
 * start + (preamble + frame) / rate + propagation, plus nic_ns in each NIC;
 * the packet then goes up to host 1-h on out[1-h].
 */
#ifndef IPCSIM_MODELS_ETH_H
#define IPCSIM_MODELS_ETH_H

#include "../timed.h"

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

namespace ipcsim
{

struct EthParams {
    double rate_Mbps = 1000;
    uint64_t preamble_bytes = 8, ifg_bytes = 12, header_bytes = 14, fcs_bytes = 4;
    uint64_t min_frame_bytes = 64, mtu = 1500;
    double nic_ns = 0, propagation_ns = 0;
};

// The IP packet a frame carries. The link reads only ip_bytes; the rest is
// the TCP segment for the stacks at either end.
struct Packet {
    uint64_t ip_bytes = 0;
    uint64_t flow = 0;         // which direction of which connection
    uint64_t seq = 0, len = 0; // its data: bytes [seq, seq + len) of the flow
    uint64_t ack = 0, wnd = 0; // the reverse flow: bytes received, window
    bool fin = false;
};

class Eth : public sc_core::sc_module
{
  public:
    tlm_utils::simple_target_socket_tagged<Eth> in[2];
    tlm_utils::simple_initiator_socket<Eth> out[2];

    Eth(sc_core::sc_module_name name, const EthParams &p);

    // Bytes a packet occupies the wire for: preamble, frame, gap.
    uint64_t wire_bytes(uint64_t ip_bytes) const;
    // From the start of its frame until the far host has the packet.
    uint64_t latency_ps(uint64_t ip_bytes) const;

  private:
    void send(int h, tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    uint64_t frame_bytes(uint64_t ip_bytes) const;

    EthParams p_;
    double ps_per_byte_;
    struct Dir {
        uint64_t free = 0; // ps: when the wire can take the next frame
        Timed<Packet> flight;
        tlm::tlm_generic_payload gp;
    } dir_[2];
};

} // namespace ipcsim

#endif
