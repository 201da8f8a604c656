/*
 * models/sw26010/mc.h -- a core group's memory controller in front of its DRAM.
 *
 * The controller's channel is the crossbar port it sits behind: that port's
 * lanes run at the channel's sustained rate and move whole DRAM bursts
 * (Xbar::add_port's granule), so concurrent accesses from many cores queue
 * there burst by burst -- an 8-byte load holds the channel for a burst --
 * and each request (a gld, gst, updt, DMA) holds it at least the port's
 * time per request, whatever its size (Xbar::add_port's request_ns: the
 * path's fixed cost per request, memory.request_ns on sw26010).
 * This block adds what the controller does besides moving bursts: the
 * atomic updates it executes itself (updt/faa of the SW26010 CPEs; CAS and
 * fetch-and-add of the API). Its one read-modify-write unit takes them one
 * at a time, `atomic_ps` each, in the order they reach it (an atomic that
 * finds the unit busy waits for it: 32 CPEs adding to one counter queue
 * here). Event driven: the unit's next free time is kept, nothing is
 * clocked. The DRAM (a Memory) then adds its access latency and performs
 * the access.
 *
 * Sockets: tsock target (from the NoC), isock initiator (to the DRAM).
 */
#ifndef IPCSIM_MODELS_MC_H
#define IPCSIM_MODELS_MC_H

#include "../proto.h"

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

namespace ipcsim
{

class Mc : public sc_core::sc_module
{
  public:
    tlm_utils::simple_target_socket<Mc> tsock;
    tlm_utils::simple_initiator_socket<Mc> isock;

    Mc(sc_core::sc_module_name name, uint64_t atomic_ps);

  private:
    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);

    uint64_t atomic_ps_;
    uint64_t free_ps_ = 0; // when the read-modify-write unit is next free
};

} // namespace ipcsim

#endif
