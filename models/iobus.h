/*
 * models/iobus.h -- the device bus: routes the cores' `io` sockets to the
 * devices that are not memory-mapped on the crossbar (the register mesh, the
 * network). It only decodes addresses; the devices time their own transfers.
 */
#ifndef IPCSIM_MODELS_IOBUS_H
#define IPCSIM_MODELS_IOBUS_H

#include "proto.h"

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <vector>

namespace ipcsim
{

class Iobus : public sc_core::sc_module
{
  public:
    tlm_utils::multi_passthrough_target_socket<Iobus, 32, tlm::tlm_base_protocol_types, 0,
                                               sc_core::SC_ZERO_OR_MORE_BOUND>
        tsock;
    tlm_utils::multi_passthrough_initiator_socket<Iobus, 32, tlm::tlm_base_protocol_types, 0,
                                                  sc_core::SC_ZERO_OR_MORE_BOUND>
        isock;

    explicit Iobus(sc_core::sc_module_name name);

    template <class S> void attach_target(S &sock, const void *base, size_t size)
    {
        isock.bind(sock);
        ranges_.push_back({(uintptr_t)base, (uintptr_t)base + size});
    }

  private:
    void b_transport(int id, tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    struct Range {
        uintptr_t base, end;
    };
    std::vector<Range> ranges_; // index = target
};

} // namespace ipcsim

#endif
