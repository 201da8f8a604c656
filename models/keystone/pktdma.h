/*
 * models/keystone/pktdma.h -- the C6678's infrastructure packet DMA (the
 * QMSS's PKTDMA): one engine every core of the chip programs.
 *
 * What it models. Every core (DSPs and PDSPs) queues its descriptors on
 * this one engine (plat_dma_start, plat_dma_start_push); they wait in one
 * FIFO, shared by all cores. `channels` channels (pktdma.channels: 32 TX
 * channels, each looped back to an RX channel, SPRUGR9H 5.4) each take the
 * oldest waiting descriptor when idle and carry that one packet to its end
 * before taking the next. A channel moves the bytes as one write through
 * the crossbar from the source block to the destination block on an
 * initiator socket of its own behind the engine's crossbar port
 * (pktdma.bandwidth_MBps), attached `through` that port (models/xbar.h): so
 * every transfer also holds the port's lane and all concurrent transfers
 * share its bandwidth, per crossbar burst, while the DDR3 or MSMC lanes
 * they cross are shared with the cores' own accesses as for any initiator.
 * Then, as the generic engine (models/dma.h) does:
 *   plat_dma_start       done; with PLAT_DMA_RING a 4-byte write to the ring
 *                        core's doorbell register (through the crossbar);
 *   plat_dma_start_push  the descriptor's push at the queue manager
 *                        (Engine::push_done: the QMSS's push cost), then
 *                        done, with the push's status.
 * Event driven: each channel is a process that sleeps until a descriptor
 * arrives; nothing is clocked.
 *
 * Costs. The submitting core pays for writing the descriptor with its own
 * costs.dma_setup (a PDSP in PDSP cycles, a DSP in DSP cycles) and for each
 * status read (plat_dma_test / plat_dma_wait) one access of its own local
 * memory (local_latency_ns), as with the generic engine.
 *
 * Simplified. The TX and RX halves, flows, the free descriptor queues and
 * the descriptors in memory are not modelled (a plat_dma record is the
 * descriptor, never read through the fabric); nor channel priorities (the
 * FIFO is in submission order). No receive channels: plat_dma_send and
 * plat_rx_* are PLAT_ENOTSUP (no channels). A descriptor's private
 * pointers (a core's stack) decode as the submitting core's memory.
 *
 * Sockets: isock[c], one initiator per channel, each bound to the crossbar
 * behind the engine's port.
 */
#ifndef IPCSIM_MODELS_KEYSTONE_PKTDMA_H
#define IPCSIM_MODELS_KEYSTONE_PKTDMA_H

#include "../engine.h"

#include <tlm_utils/simple_initiator_socket.h>

#include <deque>
#include <memory>
#include <vector>

namespace ipcsim
{

class Pktdma : public sc_core::sc_module, public Engine
{
  public:
    using Socket = tlm_utils::simple_initiator_socket<Pktdma>;

    // `core` stands for the engine's owner in Engine (any core of the run:
    // no receive channels, and every cost is the caller's).
    Pktdma(sc_core::sc_module_name name, Kernel &kernel, Core &core, unsigned channels);
    ~Pktdma() override;

    unsigned nchannels() const { return (unsigned)chans_.size(); }
    Socket &isock(unsigned c) { return chans_[c]->sock; }

    void submit(Thread &t, DmaDesc *d) override;
    uint64_t reg_ps(RegOp op) override;
    bool can_push() const override { return true; }

  protected:
    void charge(Thread &t, RegOp op) override;

  private:
    struct Chan {
        explicit Chan(const char *n) : sock(n) {}
        Socket sock;
        tlm::tlm_generic_payload gp;
        OpExt *ext = nullptr;
        uint32_t bits = 0; // the doorbell write's data
    };
    struct Job {
        DmaDesc *d;
        int core; // the submitting core: its private pointers
    };

    void channel(unsigned c);
    void write(Chan &ch, void *dst, const void *src, uint64_t n, int core);

    std::vector<std::unique_ptr<Chan>> chans_;
    std::deque<Job> fifo_;
    sc_core::sc_event queued_;
};

} // namespace ipcsim

#endif
