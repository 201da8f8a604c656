/*
 * models/funbase/avalon.h -- a Nios II's data master: its loads, stores, atomics
 * and copies.
 *
 * The Nios reaches its own memories -- the dual-port on-chip RAM (port A)
 * and its private instruction/data memory -- at CPU speed: bus_bytes per
 * cycle, then the memory's own latency. Its doorbell register is in the
 * tile too.
 *
 * Everything else (the DDR behind the MEM DMA, the other PE's memory, the
 * PC's) is across the HIBI segment, and a Nios has no master port onto it:
 * its driver moves each 32-bit word with the PE DMA, a word request. A
 * store is one HPD_SEND of one word (a HIBI write: address + one word); a
 * load one HPD_READ and the answer (a read request, then address + word
 * back); an atomic one exclusive access (HIBI v3 lock/read/write/release),
 * modelled as one read request that carries its operands and is performed
 * at the owner. Each word request costs the core word_ps (the driver's
 * register sequence) before its transfer, and the core waits for the
 * transfer's end. A device register write (an accelerator job) is one
 * burst: the driver sends the whole input with one HPD_SEND.
 */
#ifndef IPCSIM_MODELS_AVALON_H
#define IPCSIM_MODELS_AVALON_H

#include "hibi.h"

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

namespace ipcsim
{

class Memory;
class Core;

struct AvalonParams {
    unsigned bus_bytes = 4; // the data master's width
    uint64_t word_ps = 0;   // the driver's register sequence of one word request
};

class Avalon : public sc_core::sc_module
{
  public:
    tlm_utils::simple_target_socket<Avalon> tsock;    // from the core
    tlm_utils::simple_initiator_socket<Avalon> local; // the dual-port RAM, port A
    tlm_utils::simple_initiator_socket<Avalon> priv;  // private memory
    tlm_utils::simple_initiator_socket<Avalon> db;    // the core's doorbell register
    tlm_utils::simple_initiator_socket<Avalon> hibi;  // through the PE's wrapper

    Avalon(sc_core::sc_module_name name, Core &core, Hibi &seg, int agent, Memory *local_mem,
           const AvalonParams &p);
    ~Avalon() override;

  private:
    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    void far(tlm::tlm_generic_payload &gp);
    void word(int kind, int owner, void *at, unsigned char *data, uint64_t n);

    Core &core_;
    Hibi &seg_;
    const int agent_;
    Memory *local_mem_;
    AvalonParams p_;
    tlm::tlm_generic_payload gp_;
    HibiExt *ext_;
};

} // namespace ipcsim

#endif
