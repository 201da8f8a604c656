/*
 * models/funbase/pchost.h -- the PC host (the paper's 2.4 GHz Debian PC): its
 * memory path, its side of the PCIe link, and the driver that is its DMA
 * engine as the plat_* glue sees it.
 *
 * The PC reaches its own memory (its local memory and private memory) at
 * mem_MBps after the memory's latency. Everything on the FPGA (the DDR,
 * the Nios memories, their doorbells, devices) is reached through the
 * paper's user-space driver, one 32- or 64-bit word (word_bytes) per
 * access and one ioctl per access (fb_pcie_driver, hardware.md section 3):
 *
 *   a store  ioctl_ps, then one posted write down the link (the CPU goes on
 *            once the TLP is queued; the bridge turns it into a HIBI write);
 *   a load   ioctl_ps, then a non-posted read: down the link, a HIBI read
 *            request at the bridge, the completion back up;
 *   an atomic ioctl_ps and one non-posted exclusive access;
 *   a device job  ioctl_ps per word of input, then the input as one burst.
 *
 * The driver (pc.driver in the platform file) is either
 *
 *   word  the single-word driver of the paper: a plat_dma_send or
 *         plat_dma_start is done by the CPU itself, word by word as above
 *         (the engine process holds the core meanwhile: the CPU is busy in
 *         the driver), a send being a sequence of posted writes to the
 *         receiver's channel address;
 *   dma   for contrast: the CPU writes a descriptor (desc_writes posted
 *         PIO writes after one ioctl each) and the bridge's DMA engine moves
 *         the block (bridge.h), then completes the descriptor with a message
 *         up the link.
 *
 * In both modes the bridge delivers what the Nios send to the PC directly
 * into PC memory: a receive channel of the PC is a buffer registered with
 * the bridge (plat_rx_post: post_writes PIO writes, one ioctl each), filled
 * by posted writes up the link; taking it is a look at its status word in
 * PC memory (mem latency).
 */
#ifndef IPCSIM_MODELS_PCHOST_H
#define IPCSIM_MODELS_PCHOST_H

#include "../core.h"
#include "../engine.h"
#include "hibi.h"
#include "pcie.h"

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <vector>

namespace ipcsim
{

class Memory;

struct PcHostParams {
    bool dma = false;         // pc.driver: dma (else word)
    unsigned word_bytes = 4;  // one access of the single-word driver
    uint64_t ioctl_ps = 0;    // one ioctl (user -> driver -> user) around an access
    unsigned desc_writes = 4; // PIO writes of a bridge DMA descriptor
    unsigned post_writes = 4; // PIO writes configuring a receive channel at the bridge
    double mem_MBps = 0;      // the PC's path to its own memory
    int bridge_agent = -1;
};

class PcHost : public sc_core::sc_module, public Engine
{
  public:
    tlm_utils::simple_target_socket<PcHost> tsock;    // from the core
    tlm_utils::simple_initiator_socket<PcHost> local; // its memories
    tlm_utils::simple_initiator_socket<PcHost> priv;
    tlm_utils::simple_initiator_socket<PcHost> db;  // the core's doorbell register
    tlm_utils::simple_initiator_socket<PcHost> pio; // the link, down
    tlm_utils::simple_target_socket<PcHost> up;     // the link, up (bridge writes, MSI)

    PcHost(sc_core::sc_module_name name, Kernel &kernel, Core &core, unsigned channels, Hibi &seg,
           Memory *local_mem, const PcHostParams &p);
    ~PcHost() override;

    uint64_t reg_ps(RegOp op) override;

  private:
    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    void from_link(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    void run();
    bool near(const void *p) const;
    // One access of the single-word driver (the ioctl included).
    void pio_write(const HibiDest &d, const void *data, uint64_t n);
    void pio_read(const void *at, void *buf, uint64_t n);
    // The PC's own memory: a timed copy inside it.
    void local_copy(void *dst, const void *src, uint64_t n);
    // Word by word through the driver (word mode), the core held by drv_.
    void words_out(const HibiDest &base, const void *src, uint64_t n, DmaDesc *d);
    void ring(int core, uint32_t bits);
    HibiDest dest_of(void *p, uint64_t total) const;

    Hibi &seg_;
    Memory *local_mem_;
    PcHostParams p_;
    uint64_t mem_latency_ps_;
    Thread drv_; // the driver's work in the caller's context (holds the core)
    sc_core::sc_event claimed_;
    std::vector<unsigned char> tmp_;
};

} // namespace ipcsim

#endif
