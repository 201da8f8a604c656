/*
 * models/cache.h -- a core's data cache, modelled as always hitting for the
 * memory it caches (the SW26010 MPE's 32 KB L1 and 256 KB L2).
 *
 * An access to cached memory (main memory, the core's private memory) is
 * served at the hit latency plus its bytes at the cache's bandwidth, on the
 * `hit` socket (a Memory block of that latency performs the access, its
 * atomics and wake-ups, on the host address); everything else (another
 * core's doorbell register, device registers) goes `down` to the crossbar.
 * Line fills, evictions and coherence with other cores' writes are not
 * modelled: right for a working set that fits the cache and stays there,
 * as the few words of a channel that only MPE threads use.
 *
 * Sockets:
 *   tsock  target, from the core's `mem`
 *   hit    initiator, to the hit path (a Memory with the hit latency)
 *   down   initiator, to the crossbar
 */
#ifndef IPCSIM_MODELS_CACHE_H
#define IPCSIM_MODELS_CACHE_H

#include "proto.h"

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <functional>

namespace ipcsim
{

class Cache : public sc_core::sc_module
{
  public:
    tlm_utils::simple_target_socket<Cache> tsock;
    tlm_utils::simple_initiator_socket<Cache> hit;
    tlm_utils::simple_initiator_socket<Cache> down;

    // holds(p): the cache holds p's line. MBps: bytes between the cache and
    // the core (a copy of n bytes adds n at this rate to the hit latency).
    Cache(sc_core::sc_module_name name, std::function<bool(const void *)> holds, double MBps);

  private:
    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);

    std::function<bool(const void *)> holds_;
    double ps_per_byte_;
};

} // namespace ipcsim

#endif
