// noc.cpp -- the core groups' network: a hop for another group's memory.
#include "noc.h"

using namespace sc_core;

namespace ipcsim
{

Noc::Noc(sc_module_name name, int cores_per_cg, uint64_t hop_ps)
    : sc_module(name), tsock("tsock"), isock("isock"), per_cg_(cores_per_cg), hop_ps_(hop_ps)
{
    tsock.register_b_transport(this, &Noc::b_transport);
}

void Noc::b_transport(int cg, tlm::tlm_generic_payload &gp, sc_time &delay)
{
    const OpExt *x = gp.get_extension<OpExt>();
    int core = x ? (x->dcore >= 0 ? x->dcore : x->core) : -1;
    if (core >= 0 && core / per_cg_ != cg) delay += ps(hop_ps_);
    isock[cg]->b_transport(gp, delay);
}

} // namespace ipcsim
