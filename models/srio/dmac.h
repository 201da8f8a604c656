/*
 * models/srio/dmac.h -- a board's DMA controller, driven by the board's
 * communicating core.
 *
 * HPEPPM gives each board a communicating core and a computing core: the
 * rank runs on the computing core (the platform's core), and hands every
 * transfer to the communicating core, which programs the DMA controller
 * and takes its completion. This engine is the pair: the rank's
 * plat_dma_start / plat_dma_send costs it core.costs.dma_setup (handing the
 * request over), then the communicating core spends comm_ps on it before
 * the controller moves the bytes, one transfer at a time in order (one
 * communicating core, one channel of the controller's four in use).
 *
 *   plat_dma_start  one write from the source to the destination through
 *                   the board's bus: local memory, or SRIO NWRITEs when the
 *                   destination lives on another board; PLAT_DMA_RING then
 *                   writes the ring core's doorbell register (a DOORBELL
 *                   packet for another board's core);
 *   plat_dma_send   the message unit: claim the receiver's channel, write
 *                   the data into the posted buffer as an OP_MSG (messages
 *                   of 4 KB with their responses, endpoint.h), then the
 *                   channel is filled and the receiver's doorbell rings.
 */
#ifndef IPCSIM_MODELS_SRIO_DMAC_H
#define IPCSIM_MODELS_SRIO_DMAC_H

#include "../engine.h"

#include <tlm_utils/simple_initiator_socket.h>

namespace ipcsim
{

class SrioDmac : public sc_core::sc_module, public Engine
{
  public:
    tlm_utils::simple_initiator_socket<SrioDmac> isock; // to the board's bus

    SrioDmac(sc_core::sc_module_name name, Kernel &kernel, Core &core, unsigned channels,
             uint64_t comm_ps);
    ~SrioDmac() override;

    uint64_t reg_ps(RegOp op) override;

  private:
    void run();
    void write(void *dst, const void *src, uint64_t n, int op, int core);

    uint64_t comm_ps_;
    tlm::tlm_generic_payload gp_;
    OpExt *ext_;
    uint32_t bits_ = 0;
    sc_core::sc_event claimed_;
};

} // namespace ipcsim

#endif
