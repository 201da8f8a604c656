// dmac.cpp -- a board's DMA controller and the communicating core that drives it.
#include "dmac.h"

#include "../core.h"
#include "../kernel.h"

#include <algorithm>

using namespace sc_core;

namespace ipcsim
{

SrioDmac::SrioDmac(sc_module_name name, Kernel &kernel, Core &core, unsigned channels,
                   uint64_t comm_ps)
    : sc_module(name), Engine(kernel, core, channels), isock("isock"), comm_ps_(comm_ps),
      ext_(new OpExt)
{
    gp_.set_extension(ext_);
    SC_HAS_PROCESS(SrioDmac);
    SC_THREAD(run);
}

SrioDmac::~SrioDmac() = default;

uint64_t SrioDmac::reg_ps(RegOp op)
{
    return op == REG_START || op == REG_SEND ? core_.dma_setup_ps : core_.local_ps;
}

void SrioDmac::write(void *dst, const void *src, uint64_t n, int op, int core)
{
    ext_->reset(op);
    ext_->core = core;
    ext_->dcore = core_.index;
    gp_set(gp_, false, dst, src, n);
    sc_time delay = SC_ZERO_TIME;
    isock->b_transport(gp_, delay);
    if (delay != SC_ZERO_TIME) wait(delay);
}

void SrioDmac::run()
{
    const int me = core_.index;
    for (;;) {
        while (!head()) wait(work_);
        DmaDesc *d = head();
        if (comm_ps_) wait(ps(comm_ps_)); // the communicating core takes the request
        if (d->flags & DESC_SEND) {
            Engine &rx = kernel_.engine(d->to_core);
            unsigned c = d->chan;
            uint64_t n = d->n;
            rx.claim(c, claimed_);
            RxChan &ch = rx.chan(c);
            write(ch.buf, d->src, std::min(n, ch.cap), OP_MSG, d->to_core);
            pop();
            rx.filled(c, n);
            done(d);
            continue;
        }
        write(d->dst, d->src, d->n, OP_NONE, me);
        bool ring = d->flags & PLAT_DMA_RING;
        int ring_core = d->ring_core;
        bits_ = d->ring_bits;
        pop();
        done(d);
        if (ring) write(&kernel_.core(ring_core).db_reg, &bits_, sizeof bits_, OP_NONE, me);
    }
}

} // namespace ipcsim
