// dma.cpp -- a DMA engine: in-order descriptors, completion, optional doorbell.
#include "dma.h"
#include "core.h"
#include "top.h"

using namespace sc_core;

namespace ipcsim
{

Dma::Dma(sc_module_name name, Top &top, int core)
    : sc_module(name), isock("isock"), top_(top), core_(core), ext_(new OpExt)
{
    gp_.set_extension(ext_);
    SC_HAS_PROCESS(Dma);
    SC_THREAD(run);
}

Dma::~Dma() = default;

void Dma::push(DmaDesc *d)
{
    d->next = nullptr;
    d->state = DMA_QUEUED;
    if (tail_)
        tail_->next = d;
    else
        head_ = d;
    tail_ = d;
    work_.notify();
}

void Dma::run()
{
    for (;;) {
        while (!head_) wait(work_);
        DmaDesc *d = head_;
        ext_->reset(OP_NONE);
        ext_->core = core_;
        gp_.set_command(tlm::TLM_WRITE_COMMAND);
        gp_.set_address((uint64_t)(uintptr_t)d->dst);
        gp_.set_data_ptr((unsigned char *)const_cast<void *>(d->src));
        gp_.set_data_length((unsigned)d->n);
        gp_.set_streaming_width((unsigned)d->n);
        gp_.set_byte_enable_ptr(nullptr);
        gp_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        sc_time delay = SC_ZERO_TIME;
        isock->b_transport(gp_, delay);
        if (delay != SC_ZERO_TIME) wait(delay);

        // Done: the caller may reuse the record at once, so keep what is left.
        bool ring = d->flags & PLAT_DMA_RING;
        int ring_core = d->ring_core;
        bits_ = d->ring_bits;
        head_ = d->next;
        if (!head_) tail_ = nullptr;
        d->state = DMA_DONE;
        top_.touched((const void *)&d->state, sizeof d->state);

        if (ring) {
            Core &c = top_.core(ring_core);
            gp_.set_address((uint64_t)(uintptr_t)&c.db_reg);
            gp_.set_data_ptr((unsigned char *)&bits_);
            gp_.set_data_length(sizeof bits_);
            gp_.set_streaming_width(sizeof bits_);
            gp_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
            delay = SC_ZERO_TIME;
            isock->b_transport(gp_, delay);
            if (delay != SC_ZERO_TIME) wait(delay);
        }
    }
}

} // namespace ipcsim
