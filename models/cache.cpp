// cache.cpp -- an always-hitting data cache in front of a core.
#include "cache.h"

using namespace sc_core;

namespace ipcsim
{

Cache::Cache(sc_module_name name, std::function<bool(const void *)> holds, double MBps)
    : sc_module(name), tsock("tsock"), hit("hit"), down("down"), holds_(std::move(holds)),
      ps_per_byte_(ps_per_byte(MBps, "bandwidth (MB/s)"))
{
    tsock.register_b_transport(this, &Cache::b_transport);
}

void Cache::b_transport(tlm::tlm_generic_payload &gp, sc_time &delay)
{
    if (!holds_((const void *)(uintptr_t)gp.get_address())) {
        down->b_transport(gp, delay);
        return;
    }
    // The hit path's Memory adds the hit latency; the bytes go at our rate.
    delay += ps(bytes_ps(gp.get_data_length(), ps_per_byte_, "a hit"));
    hit->b_transport(gp, delay);
}

} // namespace ipcsim
