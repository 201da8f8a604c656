/*
 * models/dma.h -- the generic DMA engine of a core (crossbar platforms).
 *
 * An initiator on its core's crossbar port that works through the queue of
 * descriptors in order:
 *
 *   plat_dma_start  one write from the source block to the destination
 *                   block (a third-party transfer through the crossbar),
 *                   then done, then with PLAT_DMA_RING a 4-byte write to
 *                   the ring core's doorbell register;
 *   plat_dma_start_push  the same write, then the descriptor's push at the
 *                   queue manager (Engine::push_done), then done;
 *   plat_dma_send   claim the receiver's channel (waiting for a post,
 *                   holding back the later descriptors), one write from the
 *                   source into the posted buffer (up to its cap), then the
 *                   channel is filled (the receiver's engine raises
 *                   ring_bits on its own core) and the descriptor done.
 *
 * Every register sequence of the core on its engine costs the core what the
 * platform file says: core.costs.dma_setup for a descriptor, one
 * core.local_latency_ns access for any other (status, post, take, cancel).
 *
 * take_ps > 0: a processor takes each descriptor before the engine works on
 * it, one at a time (mpc8640_srio: the board's communicating core). The
 * write of a plat_dma_send is an OP_MSG, which a fabric with a message
 * unit carries as messages (RapidIO) and any other as a plain write.
 */
#ifndef IPCSIM_MODELS_DMA_H
#define IPCSIM_MODELS_DMA_H

#include "engine.h"

#include <tlm_utils/simple_initiator_socket.h>

namespace ipcsim
{

class Dma : public sc_core::sc_module, public Engine
{
  public:
    tlm_utils::simple_initiator_socket<Dma> isock;

    Dma(sc_core::sc_module_name name, Kernel &kernel, Core &core, unsigned channels,
        uint64_t take_ps = 0);
    ~Dma() override;

    uint64_t reg_ps(RegOp op) override;
    bool can_push() const override { return true; }

  private:
    void run();
    // One write of n bytes from src to dst through the crossbar. `core` decodes
    // private pointers at the destination, `dcore` at the source.
    void write(void *dst, const void *src, uint64_t n, int core, int dcore, int op = OP_NONE);

    uint64_t take_ps_;
    tlm::tlm_generic_payload gp_;
    OpExt *ext_;
    uint32_t bits_ = 0; // the doorbell write's data
    sc_core::sc_event claimed_;
};

} // namespace ipcsim

#endif
