/*
 * models/srio/switch.h -- the RapidIO switch between the boards (a Tsi578
 * class part: docs/mpc8640_srio.md).
 *
 * Port b of the switch faces board b: `in` binding b receives board b's
 * packets, `out` binding b sends to it. Each output port has its egress
 * lane (the link towards the board, at the link rate): packets for one
 * board queue there in arrival order, which is the switch's contention
 * (4 boards sending to one in a gather). Forwarding:
 *   store-and-forward (default): a packet may leave once its last byte has
 *     arrived, plus the routing latency: the delay grows with its size;
 *   cut-through: once its header has arrived plus the latency; it cannot
 *     end before its tail arrived.
 * Timing is carried in the packet (SrioPkt head/tail); the switch never
 * waits: it annotates the times at its output and hands the packet on.
 */
#ifndef IPCSIM_MODELS_SRIO_SWITCH_H
#define IPCSIM_MODELS_SRIO_SWITCH_H

#include "link.h"
#include "packet.h"

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <vector>

namespace ipcsim
{

class SrioSwitch : public sc_core::sc_module
{
  public:
    tlm_utils::multi_passthrough_target_socket<SrioSwitch, 32, tlm::tlm_base_protocol_types, 0,
                                               sc_core::SC_ZERO_OR_MORE_BOUND>
        in;
    tlm_utils::multi_passthrough_initiator_socket<SrioSwitch, 32, tlm::tlm_base_protocol_types, 0,
                                                  sc_core::SC_ZERO_OR_MORE_BOUND>
        out;

    // head_bytes: what a cut-through port needs of a packet before it routes it.
    SrioSwitch(sc_core::sc_module_name name, int ports, double ps_per_byte, bool cut_through,
               uint64_t latency_ps, uint64_t head_bytes);

  private:
    void b_transport(int port, tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);

    std::vector<SrioLane> egress_;
    bool cut_;
    uint64_t latency_ps_, head_;
};

} // namespace ipcsim

#endif
