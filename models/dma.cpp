// dma.cpp -- the crossbar DMA engine: copies, sends to channels, doorbells.
#include "dma.h"
#include "core.h"
#include "kernel.h"

#include <algorithm>

using namespace sc_core;

namespace ipcsim
{

Dma::Dma(sc_module_name name, Kernel &kernel, Core &core, unsigned channels, uint64_t take_ps)
    : sc_module(name), Engine(kernel, core, channels), isock("isock"), take_ps_(take_ps),
      ext_(new OpExt)
{
    gp_.set_extension(ext_);
    SC_HAS_PROCESS(Dma);
    SC_THREAD(run);
}

Dma::~Dma() = default;

uint64_t Dma::reg_ps(RegOp op)
{
    return core_reg_ps(core_, op);
}

void Dma::write(void *dst, const void *src, uint64_t n, int core, int dcore, int op)
{
    ext_->reset(op);
    ext_->core = core;
    ext_->dcore = dcore;
    gp_set(gp_, false, dst, src, n);
    sc_time delay = SC_ZERO_TIME;
    isock->b_transport(gp_, delay);
    if (delay != SC_ZERO_TIME) wait(delay);
}

void Dma::run()
{
    const int me = core_.index;
    for (;;) {
        while (!head()) wait(work_);
        DmaDesc *d = head();
        if (take_ps_) wait(ps(take_ps_)); // the processor that takes descriptors first
        if (d->flags & DESC_SEND) {
            Engine &rx = kernel_.engine(d->to_core);
            unsigned c = d->chan;
            uint64_t n = d->n;
            rx.claim(c, claimed_);
            RxChan &ch = rx.chan(c);
            // The bytes land in the posted buffer (decoded as the receiver's).
            write(ch.buf, d->src, std::min(n, ch.cap), d->to_core, me, OP_MSG);
            pop();
            rx.filled(c, n);
            done(d);
            continue;
        }

        write(d->dst, d->src, d->n, me, me);
        if (d->flags & DESC_PUSH) {
            pop();
            push_done(d);
            continue;
        }
        // Done: the caller may reuse the record at once, so keep what is left.
        bool ring = d->flags & PLAT_DMA_RING;
        int ring_core = d->ring_core;
        bits_ = d->ring_bits;
        pop();
        done(d);
        if (ring) write(&kernel_.core(ring_core).db_reg, &bits_, sizeof bits_, me, me);
    }
}

} // namespace ipcsim
