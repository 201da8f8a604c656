// mc.cpp -- a memory controller: atomics executed at the controller.
#include "mc.h"

#include <algorithm>

using namespace sc_core;

namespace ipcsim
{

Mc::Mc(sc_module_name name, uint64_t atomic_ps)
    : sc_module(name), tsock("tsock"), isock("isock"), atomic_ps_(atomic_ps)
{
    tsock.register_b_transport(this, &Mc::b_transport);
}

void Mc::b_transport(tlm::tlm_generic_payload &gp, sc_time &delay)
{
    const OpExt *x = gp.get_extension<OpExt>();
    if (x && (x->op == OP_CAS || x->op == OP_ADD || x->op == OP_XCHG)) {
        // It reaches the unit at now + delay (loosely timed: the delay is
        // not waited yet); it starts when the unit is free.
        uint64_t now = now_ps(), at = now + delay.value();
        uint64_t start = std::max(at, free_ps_);
        free_ps_ = after_ps(start, atomic_ps_, "an atomic's end");
        delay = ps(free_ps_ - now);
    }
    isock->b_transport(gp, delay);
}

} // namespace ipcsim
