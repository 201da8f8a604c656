/*
 * models/sw26010/noc.h -- the network on chip between the SW26010's core groups, in
 * front of their memory controllers.
 *
 * The crossbar decodes a main-memory address to the port of the core group
 * (CG) whose memory holds it; that port leads here (binding g of tsock is
 * CG g's memory, isock[g] its controller). A transaction for CG g's memory
 * on behalf of a core of another CG crosses the NoC: it pays the hop
 * latency. A core's own CG passes straight through. The NoC's bandwidth is
 * not modelled (nothing in the paper's experiments crosses CGs).
 *
 * The requesting core is the transaction's data side (OpExt.dcore, else
 * OpExt.core): the core itself for its loads and stores, the engine's core
 * for a DMA.
 */
#ifndef IPCSIM_MODELS_NOC_H
#define IPCSIM_MODELS_NOC_H

#include "../proto.h"

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

namespace ipcsim
{

class Noc : public sc_core::sc_module
{
  public:
    tlm_utils::multi_passthrough_target_socket<Noc, 32, tlm::tlm_base_protocol_types, 0,
                                               sc_core::SC_ZERO_OR_MORE_BOUND>
        tsock;
    tlm_utils::multi_passthrough_initiator_socket<Noc, 32, tlm::tlm_base_protocol_types, 0,
                                                  sc_core::SC_ZERO_OR_MORE_BOUND>
        isock;

    // Core c is in CG c / cores_per_cg; a crossing costs hop_ps.
    Noc(sc_core::sc_module_name name, int cores_per_cg, uint64_t hop_ps);

  private:
    void b_transport(int cg, tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);

    int per_cg_;
    uint64_t hop_ps_;
};

} // namespace ipcsim

#endif
