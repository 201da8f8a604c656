/*
 * models/dma.h -- a core's DMA engine.
 *
 * An initiator on its core's crossbar port with an in-order queue of
 * descriptors. The descriptors are the callers' plat_dma records (linked
 * through them: no allocation). For each it issues one write from the
 * source block to the destination block (a third-party transfer through the
 * crossbar), marks it done, and with PLAT_DMA_RING then writes the doorbell
 * register of the ring core (a second, 4-byte transaction).
 */
#ifndef IPCSIM_MODELS_DMA_H
#define IPCSIM_MODELS_DMA_H

#include "proto.h"

#include <tlm_utils/simple_initiator_socket.h>

namespace ipcsim
{

class Top;

// The layout of a plat_dma record.
struct DmaDesc {
    DmaDesc *next;
    void *dst;
    const void *src;
    uint64_t n;
    uint32_t flags;
    int32_t ring_core;
    uint32_t ring_bits;
    int32_t state; // DMA_QUEUED or DMA_DONE; written only by the engine
};
enum { DMA_IDLE = 0, DMA_QUEUED = 1, DMA_DONE = 2 };

class Dma : public sc_core::sc_module
{
  public:
    tlm_utils::simple_initiator_socket<Dma> isock;

    Dma(sc_core::sc_module_name name, Top &top, int core);
    ~Dma() override;
    void push(DmaDesc *d); // after the core wrote the descriptor

  private:
    void run();

    Top &top_;
    const int core_;
    DmaDesc *head_ = nullptr, *tail_ = nullptr;
    sc_core::sc_event work_;
    tlm::tlm_generic_payload gp_;
    OpExt *ext_;
    uint32_t bits_ = 0; // the doorbell write's data
};

} // namespace ipcsim

#endif
