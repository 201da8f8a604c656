/*
 * models/funbase/bridge.h -- the PCIe-to-HIBI bridge (Funbase pcie_to_hibi): the
 * PC's agent on the HIBI segment.
 *
 * From the PC (the link's down direction, programmed I/O):
 *
 *   PCIE_WRITE   one word for the FPGA side: a HIBI write of one word to
 *                the owner of the address, or a piece of a message to a
 *                Nios's receive channel (the single-word driver);
 *   PCIE_READ    one word of FPGA memory: a HIBI read request whose answer
 *                comes back to the bridge, then the completion goes up;
 *   PCIE_ATOMIC  an exclusive access, performed at the owner;
 *   PCIE_DEV     an accelerator job: the input as one HIBI burst;
 *   PCIE_DMA     a descriptor for the bridge's DMA engine (the DMA driver).
 *
 * The DMA engine takes descriptors one at a time in order. Each starts
 * dma_start_ns after it arrives (the hard IP's write start latency), reads
 * its source -- PC memory with one read request (the completions stream
 * down the link), or FPGA memory with a HIBI read -- and writes the block
 * to its destination: one HIBI transfer to a channel or a memory, or
 * posted writes up the link into PC memory. Then it tells the PC (a
 * completion message up the link that completes the descriptor) and rings
 * the ring core if asked.
 *
 * From the HIBI segment, everything addressed to the PC -- a Nios sending
 * to one of the PC's receive channels, a write into PC memory, a doorbell --
 * goes up the link as posted writes into PC memory (the bridge translates
 * the HIBI address of a PC channel into the buffer the PC posted) or an
 * interrupt; a read request for PC memory becomes a read up the link.
 */
#ifndef IPCSIM_MODELS_BRIDGE_H
#define IPCSIM_MODELS_BRIDGE_H

#include "hibi.h"
#include "pcie.h"

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <deque>
#include <vector>

namespace ipcsim
{

class Kernel;

struct BridgeParams {
    uint64_t dma_start_ps = 0; // a DMA descriptor's start latency
    int pc_core = -1;
    int mem_agent = -1; // the MEM DMA (block protocol, memdma.h)
    unsigned conf_write_words = 3, conf_read_words = 4;
};

class Bridge : public sc_core::sc_module
{
  public:
    tlm_utils::simple_target_socket<Bridge> pcie_in;     // PIO from the PC (link, down)
    tlm_utils::simple_initiator_socket<Bridge> up;       // to the PC (link, up)
    tlm_utils::simple_initiator_socket<Bridge> hibi_out; // the bridge's HIBI agent
    tlm_utils::simple_target_socket<Bridge> hibi_in;

    Bridge(sc_core::sc_module_name name, Kernel &kernel, Hibi &seg, int agent,
           const BridgeParams &p);
    ~Bridge() override;

  private:
    struct Job { // a DMA descriptor as the bridge holds it
        PcieExt x;
    };
    void from_pc(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    void from_hibi(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    void run();
    // One HIBI transfer from the bridge's agent.
    void hibi(int kind, const HibiDest &d, const void *addr, const void *data, uint64_t n,
              uint64_t words = 0, const HibiDest *ret = nullptr, int op = 0, uint64_t a = 0,
              uint64_t b = 0, uint64_t *r = nullptr);
    // Read n bytes at `at` (a FPGA address) into buf through HIBI; write n
    // bytes to d (not the PC's) through HIBI.
    void hibi_read(const void *at, void *buf, uint64_t n);
    void hibi_write(const HibiDest &d, const void *data, uint64_t n);
    // MEM DMA block protocol: channel request, then its configuration.
    void mem_channel(bool read, const void *mem, uint64_t n, const HibiDest *ret);
    // Up the link: bytes for d (in PC memory), a read of PC memory, an interrupt.
    void pc_write(const HibiDest &d, const void *data, uint64_t n);
    void pc_read(const void *at, void *buf, uint64_t n);
    void pc_msi(uint32_t bits, DmaDesc *desc);
    bool for_pc(const HibiDest &d) const;

    Kernel &kernel_;
    Hibi &seg_;
    const int agent_;
    BridgeParams p_;
    std::deque<Job> jobs_;
    sc_core::sc_event work_, claimed_;
    std::vector<unsigned char> buf_; // the DMA engine's block buffer
    uint32_t word_ = 0;              // a message word's data
};

} // namespace ipcsim

#endif
