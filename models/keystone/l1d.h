/*
 * models/keystone/l1d.h -- a C66x core's L1D as a streaming-miss model, in
 * front of the core's `mem` socket.
 *
 * Every transaction passes through unchanged but plat_touch's (OP_STREAM):
 * a read by the core's loads of data the cache does not hold. Each of its
 * `line`-byte lines misses, and the core waits for each fill before the
 * next (blocking misses), so the read takes
 *
 *     max(lines x one line's fill, the whole read's transfer)
 *
 * where one line's fill is timed by the path below (latencies, lane
 * bandwidth, MSMC banks, DDR3 bursts, the traffic of other initiators) and
 * the whole read is sent on as well, so that its bytes occupy the shared
 * lanes and banks as the fills would. Simplified: the C66x's L1D miss
 * pipelining and the XMC's prefetch buffer are not modelled (both would
 * overlap fills), nor hits, write-backs or the cache's contents: the caller
 * says by calling plat_touch that the data misses (an array larger than the
 * cache, streamed again). Event driven: two transactions per touch.
 *
 * Sockets: tsock target (from the core), isock initiator (to the fabric).
 */
#ifndef IPCSIM_MODELS_KEYSTONE_L1D_H
#define IPCSIM_MODELS_KEYSTONE_L1D_H

#include "../proto.h"

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

namespace ipcsim
{

class L1d : public sc_core::sc_module
{
  public:
    tlm_utils::simple_target_socket<L1d> tsock;
    tlm_utils::simple_initiator_socket<L1d> isock;

    L1d(sc_core::sc_module_name name, uint64_t line);

  private:
    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);

    uint64_t line_;
};

} // namespace ipcsim

#endif
