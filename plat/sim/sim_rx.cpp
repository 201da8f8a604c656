// sim_rx.cpp -- receive channels: arguments here, the rest in the engine.
#include "sim.h"

#include "../../models/engine.h"

namespace ipcsim
{

// The calling core's engine, or NULL with *st set: no PLAT_CAP_DMA or an
// engine without receive channels (PLAT_ENOTSUP: KeyStone's PKTDMA), or a
// channel it does not have.
static Engine *engine_for(Thread &t, unsigned chan, int *st)
{
    if (!(t.core->caps & PLAT_CAP_DMA) || !kernel().engine(t.core->index).channels()) {
        *st = PLAT_ENOTSUP;
        return nullptr;
    }
    Engine &e = kernel().engine(t.core->index);
    if (chan >= e.channels()) {
        *st = PLAT_EINVAL;
        return nullptr;
    }
    return &e;
}

unsigned sim_rx_channels(void)
{
    Thread &t = self();
    return (t.core->caps & PLAT_CAP_DMA) ? kernel().engine(t.core->index).channels() : 0;
}

int sim_rx_post(unsigned chan, void *buf, size_t cap, uint32_t ring_bits)
{
    Thread &t = self();
    int st = PLAT_OK;
    Engine *e = engine_for(t, chan, &st);
    if (!e) return st;
    if (cap) need(buf, "plat_rx_post");
    return e->rx_post(t, chan, buf, cap, ring_bits);
}

int sim_rx_take(unsigned chan, size_t *len)
{
    Thread &t = self();
    int st = PLAT_OK;
    Engine *e = engine_for(t, chan, &st);
    return e ? e->rx_take(t, chan, len, now_ps(), false) : st;
}

int sim_rx_wait(unsigned chan, size_t *len, uint64_t timeout_ns)
{
    Thread &t = self();
    int st = PLAT_OK;
    Engine *e = engine_for(t, chan, &st);
    if (!e) return st;
    st = e->rx_take(t, chan, len, deadline_ps(timeout_ns), true);
    return st == PLAT_ETIMEDOUT ? kernel().timed_out(t, "plat_rx_wait", timeout_ns) : st;
}

int sim_rx_cancel(unsigned chan)
{
    Thread &t = self();
    int st = PLAT_OK;
    Engine *e = engine_for(t, chan, &st);
    return e ? e->rx_cancel(t, chan) : st;
}

} // namespace ipcsim
