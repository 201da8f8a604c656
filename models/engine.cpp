// engine.cpp -- what every DMA engine shares: the queue and receive channels.
#include "engine.h"
#include "core.h"
#include "hwq.h"
#include "memory.h"
#include "kernel.h"

#include <algorithm>
#include <cstring>

using namespace sc_core;

namespace ipcsim
{

Engine::Engine(Kernel &kernel, Core &core, unsigned channels)
    : kernel_(kernel), core_(core), chans_(channels)
{
}

Engine::~Engine() = default;

void Engine::push(DmaDesc *d)
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

void Engine::pop()
{
    head_ = head_->next;
    if (!head_) tail_ = nullptr;
}

void dma_done(Kernel &kernel, DmaDesc *d)
{
    d->state = DMA_DONE;
    kernel.touched((const void *)&d->state, sizeof d->state);
}

void Engine::done(DmaDesc *d)
{
    dma_done(kernel_, d);
}

uint64_t core_reg_ps(const Core &c, RegOp op)
{
    return op == REG_START || op == REG_SEND ? c.dma_setup_ps : c.local_ps;
}

void Engine::charge(Thread &t, RegOp op)
{
    core_.work(t, reg_ps(op));
}

void Engine::submit(Thread &t, DmaDesc *d)
{
    d->state = DMA_QUEUED;
    charge(t, d->flags & DESC_SEND ? REG_SEND : REG_START);
    push(d);
}

// Sleep until `on` is written or the deadline; false once it has passed.
static bool doze(Kernel &kernel, Thread &t, const void *on, const char *what, uint64_t deadline)
{
    if (now_ps() >= deadline) return false;
    kernel.block(t, on, 1, what, deadline);
    return true;
}

int Engine::status(Thread &t, DmaDesc *d, uint64_t deadline, bool wait)
{
    charge(t, REG_STATUS);
    while (d->state != DMA_DONE) {
        if (!wait) return PLAT_EAGAIN;
        if (!doze(kernel_, t, &d->state, "plat_dma_wait", deadline)) return PLAT_ETIMEDOUT;
    }
    return (d->flags & DESC_PUSH) ? d->push_status : PLAT_OK;
}

void Engine::push_done(DmaDesc *d)
{
    Hwq &q = *d->push_q;
    if (q.push_ps()) wait(ps(q.push_ps()));
    d->push_status = q.push_at(d->chan, d->push_desc);
    done(d);
}

int Engine::rx_post(Thread &t, unsigned c, void *buf, size_t cap, uint32_t ring)
{
    charge(t, REG_POST);
    RxChan &ch = chans_[c];
    if (ch.state != RX_FREE) return PLAT_EBUSY;
    ch.buf = buf;
    ch.cap = cap;
    ch.ring = ring;
    ch.len = 0;
    ch.state = RX_POSTED;
    if (!ch.senders.empty()) {
        sc_event *first = ch.senders.front();
        ch.senders.pop_front();
        ch.state = RX_FILLING;
        ch.owner = first;
        first->notify();
    }
    kernel_.touched(&ch.state, sizeof ch.state);
    return PLAT_OK;
}

int Engine::rx_take(Thread &t, unsigned c, size_t *len, uint64_t deadline, bool wait)
{
    charge(t, REG_TAKE);
    RxChan &ch = chans_[c];
    for (;;) {
        if (ch.state == RX_FREE) return PLAT_EINVAL;
        if (ch.state == RX_FILLED) break;
        if (!wait) return PLAT_EAGAIN;
        if (!doze(kernel_, t, &ch.state, "plat_rx_wait", deadline)) return PLAT_ETIMEDOUT;
    }
    if (len) *len = (size_t)ch.len;
    ch.state = RX_FREE;
    ch.buf = nullptr;
    kernel_.touched(&ch.state, sizeof ch.state);
    return PLAT_OK;
}

int Engine::rx_cancel(Thread &t, unsigned c)
{
    charge(t, REG_CANCEL);
    RxChan &ch = chans_[c];
    if (ch.state == RX_FREE) return PLAT_EINVAL;
    if (ch.state != RX_POSTED) return PLAT_EAGAIN;
    ch.state = RX_FREE;
    ch.buf = nullptr;
    kernel_.touched(&ch.state, sizeof ch.state);
    return PLAT_OK;
}

void Engine::claim(unsigned c, sc_event &me)
{
    RxChan &ch = chans_[c];
    if (ch.state == RX_POSTED && ch.senders.empty()) {
        ch.state = RX_FILLING;
        ch.owner = &me;
        return;
    }
    ch.senders.push_back(&me);
    while (!(ch.state == RX_FILLING && ch.owner == &me)) wait(me);
}

void Engine::land(unsigned c, uint64_t off, const void *data, uint64_t n)
{
    RxChan &ch = chans_[c];
    if (off >= ch.cap || !n) return;
    uint64_t k = std::min(n, ch.cap - off);
    memcpy((unsigned char *)ch.buf + off, data, (size_t)k);
    kernel_.touched((unsigned char *)ch.buf + off, (size_t)k);
}

void Engine::filled(unsigned c, uint64_t total)
{
    RxChan &ch = chans_[c];
    ch.len = total;
    ch.state = RX_FILLED;
    ch.owner = nullptr;
    kernel_.touched(&ch.state, sizeof ch.state);
    if (ch.ring) core_.raise(ch.ring);
}

bool Engine::reach(const void *p, size_t n) const
{
    if (!only_) return true;
    return n == 0 || (only_->holds(p) && only_->holds((const unsigned char *)p + n - 1));
}

} // namespace ipcsim
