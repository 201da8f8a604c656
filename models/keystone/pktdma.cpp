// pktdma.cpp -- the QMSS infrastructure packet DMA: one FIFO, `channels`
// channel processes, every transfer through the engine's crossbar port.
#include "pktdma.h"
#include "../core.h"
#include "../kernel.h"

#include <string>

using namespace sc_core;

namespace ipcsim
{

Pktdma::Pktdma(sc_module_name name, Kernel &kernel, Core &core, unsigned channels)
    : sc_module(name), Engine(kernel, core, 0)
{
    for (unsigned c = 0; c < channels; c++) {
        chans_.push_back(std::make_unique<Chan>(("isock" + std::to_string(c)).c_str()));
        Chan &ch = *chans_.back();
        ch.ext = new OpExt;
        ch.gp.set_extension(ch.ext);
        sc_spawn([this, c] { channel(c); }, ("chan" + std::to_string(c)).c_str());
    }
}

Pktdma::~Pktdma() = default;

uint64_t Pktdma::reg_ps(RegOp op)
{
    // Only for Engine's interface: charge() bills the calling core itself.
    return core_reg_ps(core_, op);
}

void Pktdma::charge(Thread &t, RegOp op)
{
    t.core->work(t, core_reg_ps(*t.core, op));
}

void Pktdma::submit(Thread &t, DmaDesc *d)
{
    d->state = DMA_QUEUED;
    charge(t, REG_START); // the core writes the descriptor and pushes it
    d->next = nullptr;
    fifo_.push_back({d, t.core->index});
    queued_.notify();
}

void Pktdma::write(Chan &ch, void *dst, const void *src, uint64_t n, int core)
{
    ch.ext->reset(OP_NONE);
    ch.ext->core = core;
    ch.ext->dcore = core;
    gp_set(ch.gp, false, dst, src, n);
    sc_time delay = SC_ZERO_TIME;
    ch.sock->b_transport(ch.gp, delay);
    if (delay != SC_ZERO_TIME) wait(delay);
}

void Pktdma::channel(unsigned c)
{
    Chan &ch = *chans_[c];
    for (;;) {
        while (fifo_.empty()) wait(queued_);
        Job j = fifo_.front(); // one packet at a time on this channel
        fifo_.pop_front();
        DmaDesc *d = j.d;
        write(ch, d->dst, d->src, d->n, j.core);
        if (d->flags & DESC_PUSH) {
            push_done(d);
            continue;
        }
        // Done: the caller may reuse the record at once, so keep what is left.
        bool ring = d->flags & PLAT_DMA_RING;
        int ring_core = d->ring_core;
        ch.bits = d->ring_bits;
        done(d);
        if (ring) write(ch, &kernel_.core(ring_core).db_reg, &ch.bits, sizeof ch.bits, j.core);
    }
}

} // namespace ipcsim
