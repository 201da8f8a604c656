// switch.cpp -- the RapidIO switch: per-port egress, store-and-forward or cut-through.
#include "switch.h"

namespace ipcsim
{

SrioSwitch::SrioSwitch(sc_core::sc_module_name name, int ports, double ps_per_byte,
                       bool cut_through, uint64_t latency_ps, uint64_t head_bytes)
    : sc_module(name), in("in"), out("out"), egress_((size_t)ports), cut_(cut_through),
      latency_ps_(latency_ps), head_(head_bytes)
{
    for (SrioLane &l : egress_) l.ps_per_byte = ps_per_byte;
    in.register_b_transport(this, &SrioSwitch::b_transport);
}

void SrioSwitch::b_transport(int, tlm::tlm_generic_payload &gp, sc_core::sc_time &delay)
{
    SrioPkt *p = gp.get_extension<SrioPkt>();
    SrioLane &eg = egress_[(size_t)p->dst];
    uint64_t ready = (cut_ ? p->head : p->tail) + latency_ps_;
    uint64_t start = eg.take(ready, p->wire);
    uint64_t end = eg.free_ps;
    if (cut_ && end < p->tail + latency_ps_) { // it cannot overtake its own tail
        end = p->tail + latency_ps_;
        eg.free_ps = end;
    }
    p->head = start + eg.ser(std::min(p->wire, head_));
    p->tail = end;
    out[(size_t)p->dst]->b_transport(gp, delay);
}

} // namespace ipcsim
