/*
 * models/funbase/memdma.h -- the HIBI MEM DMA: the adapter between the HIBI segment
 * and the external DDR2 memory (the platform's shared memory).
 *
 * Two ways in (HIBI_MEM_DMA.docx):
 *
 *   - direct access, one word per request: a write lands at once (the
 *     wrapper FIFO absorbs it); a read request is answered read_latency
 *     cycles after it arrived, with a transfer of the data back;
 *   - DMA channels, for blocks: the requester sends a channel request (one
 *     message word) and gets the answer after cmd_cycles; it then sends the
 *     configuration (3 words for a write channel, 4 for a read channel:
 *     memory address, byte count, [return address], increment), which takes
 *     cmd_cycles more. A write channel then takes the data as one transfer;
 *     a read channel starts reading (the first word read_latency cycles
 *     later) and streams the block to the return address as the memory
 *     delivers it, read_rate words per cycle (a paced transfer: its turns end
 *     when its TX FIFO runs dry).
 *
 * Writes reach the memory at write_rate words per cycle: that is the drain
 * rate of the adapter's HIBI agent, whose receive buffer holds rx_fifo words
 * (hibi.h cuts transfers when it is full). Exclusive accesses (atomics) are
 * performed like a direct read.
 */
#ifndef IPCSIM_MODELS_MEMDMA_H
#define IPCSIM_MODELS_MEMDMA_H

#include "hibi.h"

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

namespace ipcsim
{

struct MemDmaParams {
    unsigned read_latency_cycles = 0;
    unsigned cmd_cycles = 0;
    double read_rate = 1; // words per cycle
};

class MemDma : public sc_core::sc_module
{
  public:
    tlm_utils::simple_target_socket<MemDma> hibi_in;
    tlm_utils::simple_initiator_socket<MemDma> hibi_out;
    tlm_utils::simple_initiator_socket<MemDma> mem; // the DDR controller

    MemDma(sc_core::sc_module_name name, Kernel &kernel, Hibi &seg, int agent,
           const MemDmaParams &p);
    ~MemDma() override;

  private:
    void receive(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    void reply(tlm::tlm_generic_payload &r, HibiExt &rx);

    Kernel &kernel_;
    Hibi &seg_;
    const int agent_;
    MemDmaParams p_;
    uint32_t ack_ = 1; // the granted channel's offset (never 0: granted)
};

} // namespace ipcsim

#endif
