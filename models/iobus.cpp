// iobus.cpp -- decode a device register address, forward, add nothing.
#include "iobus.h"

using namespace sc_core;

namespace ipcsim
{

Iobus::Iobus(sc_module_name name) : sc_module(name), tsock("tsock"), isock("isock")
{
    tsock.register_b_transport(this, &Iobus::b_transport);
}

void Iobus::b_transport(int, tlm::tlm_generic_payload &gp, sc_time &delay)
{
    uintptr_t a = (uintptr_t)gp.get_address();
    for (size_t i = 0; i < ranges_.size(); i++)
        if (a >= ranges_[i].base && a < ranges_[i].end) {
            isock[(int)i]->b_transport(gp, delay);
            return;
        }
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

} // namespace ipcsim
