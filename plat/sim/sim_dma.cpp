// sim_dma.cpp -- DMA transfers and doorbells.
#include "sim.h"

#include "../../models/engine.h"
#include "../../models/hwq.h"

namespace ipcsim
{

static_assert(sizeof(DmaDesc) <= sizeof(plat_dma), "DmaDesc must fit in plat_dma");

int sim_dma_start(plat_dma *d, void *dst, const void *src, size_t n, unsigned flags, int ring_core,
                  uint32_t ring_bits)
{
    Thread &t = self();
    Core &c = *t.core;
    if (!(c.caps & PLAT_CAP_DMA)) return PLAT_ENOTSUP;
    need(d, "plat_dma_start");
    if (n) {
        need(dst, "plat_dma_start");
        need(src, "plat_dma_start");
    }
    if ((flags & PLAT_DMA_RING) && (ring_core < 0 || ring_core >= kernel().cores()))
        kernel().misuse("plat_dma_start: no core %d to ring (the run has %d)", ring_core,
                        kernel().cores());
    DmaDesc *x = (DmaDesc *)(void *)d;
    x->dst = dst;
    x->src = src;
    x->n = n;
    x->flags = flags & PLAT_DMA_RING;
    x->ring_core = ring_core;
    x->ring_bits = ring_bits;
    x->to_core = -1;
    x->chan = 0;
    kernel().engine(c.index).submit(t, x); // the core writes the descriptor
    return PLAT_OK;
}

int sim_dma_start_push(plat_dma *d, void *dst, const void *src, size_t n, plat_hwq *pq,
                       unsigned queue, void *desc)
{
    Thread &t = self();
    Core &c = *t.core;
    Engine &e = kernel().engine(c.index);
    if (!(c.caps & PLAT_CAP_DMA) || !e.can_push()) return PLAT_ENOTSUP;
    Hwq *q = (Hwq *)pq;
    if (!q || !desc || queue >= q->queues()) return PLAT_EINVAL;
    need(d, "plat_dma_start_push");
    if (n) {
        need(dst, "plat_dma_start_push");
        need(src, "plat_dma_start_push");
    }
    DmaDesc *x = (DmaDesc *)(void *)d;
    x->dst = dst;
    x->src = src;
    x->n = n;
    x->flags = DESC_PUSH;
    x->push_q = q;
    x->push_desc = desc;
    x->push_status = PLAT_OK;
    x->chan = queue;
    e.submit(t, x); // the core writes the descriptor
    return PLAT_OK;
}

int sim_dma_send(plat_dma *d, int core, unsigned chan, const void *src, size_t n)
{
    Thread &t = self();
    Core &c = *t.core;
    if (!(c.caps & PLAT_CAP_DMA) || !kernel().engine(c.index).channels()) return PLAT_ENOTSUP;
    if (core < 0 || core >= kernel().cores() || chan >= kernel().engine(core).channels())
        return PLAT_EINVAL;
    need(d, "plat_dma_send");
    if (n) need(src, "plat_dma_send");
    DmaDesc *x = (DmaDesc *)(void *)d;
    x->dst = nullptr;
    x->src = src;
    x->n = n;
    x->flags = DESC_SEND;
    x->ring_core = -1;
    x->ring_bits = 0;
    x->to_core = core;
    x->chan = chan;
    kernel().engine(c.index).submit(t, x);
    return PLAT_OK;
}

int sim_dma_test(plat_dma *d)
{
    Thread &t = self();
    DmaDesc *x = (DmaDesc *)(void *)need(d, "plat_dma_test");
    return kernel().engine(t.core->index).status(t, x, now_ps(), false);
}

int sim_dma_wait(plat_dma *d, uint64_t timeout_ns)
{
    Thread &t = self();
    DmaDesc *x = (DmaDesc *)(void *)need(d, "plat_dma_wait");
    int st = kernel().engine(t.core->index).status(t, x, deadline_ps(timeout_ns), true);
    return st == PLAT_ETIMEDOUT ? kernel().timed_out(t, "plat_dma_wait", timeout_ns) : st;
}

void sim_doorbell_ring(int core, uint32_t bits)
{
    Thread &t = self();
    if (core < 0 || core >= kernel().cores())
        kernel().misuse("plat_doorbell_ring: no core %d (the run has %d)", core, kernel().cores());
    Core &c = *t.core;
    c.payload(t, OP_NONE, tlm::TLM_WRITE_COMMAND, &kernel().core(core).db_reg, &bits, sizeof bits);
    c.transport_after(t, c.doorbell_ps); // write the register, then the ring crosses
}

uint32_t sim_doorbell_wait(uint32_t mask, uint64_t timeout_ns)
{
    Thread &t = self();
    Core &c = *t.core;
    uint64_t dl = deadline_ps(timeout_ns);
    for (;;) {
        uint32_t got = c.db_pending & mask;
        if (got) {
            c.db_pending &= ~got;
            c.work(t, c.irq_ps);
            return got;
        }
        if (!sleep_on(t, &c.db_pending, "plat_doorbell_wait", dl)) {
            c.work(t, c.local_ps); // the last look at the pending register
            kernel().timed_out(t, "plat_doorbell_wait", timeout_ns);
            return 0;
        }
    }
}

bool sim_dma_reach(const void *p, size_t n)
{
    Thread &t = self();
    if (!(t.core->caps & PLAT_CAP_DMA)) return false;
    return kernel().engine(t.core->index).reach(p, n);
}

} // namespace ipcsim
