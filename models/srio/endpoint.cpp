// endpoint.cpp -- a board's SRIO endpoint: packets out, packets in, responses.
#include "endpoint.h"

#include <algorithm>
#include <cstring>

using namespace sc_core;

namespace ipcsim
{

SrioEndpoint::SrioEndpoint(sc_module_name name, const SrioBoards &boards, int board,
                           const SrioEndpointParams &p)
    : sc_module(name), tsock("tsock"), out("out"), in("in"), mem("mem"), boards_(boards),
      board_(board), p_(p), workers_((size_t)std::max(1, p.outstanding))
{
    tx_.ps_per_byte = p.ps_per_byte;
    tsock.register_b_transport(this, &SrioEndpoint::outbound);
    in.register_b_transport(this, &SrioEndpoint::inbound);
    SC_HAS_PROCESS(SrioEndpoint);
    SC_THREAD(serve);
    for (size_t i = 0; i < workers_.size(); i++) {
        Worker &w = workers_[i];
        w.ext = new OpExt;
        w.gp.set_extension(w.ext);
        sc_core::sc_spawn([this, &w] { work(w); }, ("rx" + std::to_string(i)).c_str());
    }
}

static uint64_t payload_of(const SrioPkt &p)
{
    switch (p.type) {
    case SRIO_NREAD:
    case SRIO_DOORBELL:
        return 0; // a doorbell's 16-bit info is in its header
    case SRIO_ATOMIC:
        return p.op == OP_CAS ? 16 : 8;
    case SRIO_RESPONSE:
        return p.len;
    default:
        return p.data.size();
    }
}

uint64_t SrioEndpoint::send(SrioPkt &p, uint64_t ready)
{
    p.src = board_;
    p.wire = p_.format.wire(p.type, payload_of(p));
    for (;;) { // wait until the packet is built and the lane is free
        uint64_t t = std::max(ready, tx_.free_ps), now = now_ps();
        if (t <= now) break;
        wait(ps(t - now));
    }
    uint64_t start = tx_.take(now_ps(), p.wire);
    p.head = start + tx_.ser(std::min(p.wire, p_.head_bytes));
    p.tail = tx_.free_ps;
    out_gp_.set_extension(&p);
    sc_time d = SC_ZERO_TIME;
    out->b_transport(out_gp_, d); // the switch and the target only queue it: no wait
    out_gp_.clear_extension(&p);
    return p.tail;
}

void SrioEndpoint::wait_reply(SrioReply &r)
{
    while (r.pending > 0) wait(r.ev);
}

static void wait_until(uint64_t t)
{
    uint64_t now = now_ps();
    if (t > now) wait(ps(t - now));
}

void SrioEndpoint::message(int dst, unsigned char *addr, const unsigned char *data, uint64_t n,
                           int core)
{
    const uint64_t seg = p_.format.max_payload;
    for (uint64_t off = 0; off < n; off += p_.msg_bytes) {
        const uint64_t m = std::min(p_.msg_bytes, n - off);
        SrioReply r;
        uint64_t ready = now_ps() + p_.tx_ps + p_.msg_ps;
        for (uint64_t s = 0; s < m; s += seg) {
            SrioPkt p;
            p.type = SRIO_MESSAGE;
            p.dst = dst;
            p.core = core;
            p.addr = addr + off + s;
            p.data.assign(data + off + s, data + off + s + std::min(seg, m - s));
            p.respond = true;
            p.reply = &r;
            r.pending++;
            send(p, ready);
        }
        wait_reply(r); // the next message only after every response (the RMU's rule)
    }
}

void SrioEndpoint::outbound(tlm::tlm_generic_payload &gp, sc_time &delay)
{
    if (delay != SC_ZERO_TIME) wait(delay);
    delay = SC_ZERO_TIME;
    OpExt *x = gp.get_extension<OpExt>();
    const int core = x ? x->core : -1;
    unsigned char *addr = (unsigned char *)(uintptr_t)gp.get_address();
    unsigned char *data = gp.get_data_ptr();
    const uint64_t n = gp.get_data_length();
    SrioBoards::Where w;
    const int dst = boards_.board(addr, core, &w);
    const uint64_t ready = now_ps() + p_.tx_ps;
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    const int op = x ? x->op : OP_NONE;

    if (w == SrioBoards::DOORBELL) { // posted; the target's response only loads the link back
        SrioPkt p;
        p.type = SRIO_DOORBELL;
        p.dst = dst;
        p.core = core;
        p.addr = addr;
        p.data.assign(data, data + n);
        p.respond = true;
        wait_until(send(p, ready));
    } else if (op == OP_MSG) {
        message(dst, addr, data, n, core);
    } else if (op == OP_CAS || op == OP_ADD || op == OP_XCHG) {
        SrioReply r;
        SrioPkt p;
        p.type = SRIO_ATOMIC;
        p.dst = dst;
        p.core = core;
        p.addr = addr;
        p.op = op;
        p.a = x->a;
        p.b = x->b;
        p.len = 8;
        p.respond = true;
        p.reply = &r;
        r.pending = 1;
        send(p, ready);
        wait_reply(r);
        x->r = r.r;
    } else if (gp.is_read()) {
        SrioReply r;
        for (uint64_t off = 0; off < n; off += p_.format.max_payload) {
            SrioPkt p;
            p.type = SRIO_NREAD;
            p.dst = dst;
            p.core = core;
            p.addr = addr + off;
            p.len = std::min(p_.format.max_payload, n - off);
            p.into = data + off;
            p.respond = true;
            p.reply = &r;
            r.pending++;
            send(p, ready);
        }
        wait_reply(r);
    } else { // posted writes: done when the last packet has left
        uint64_t last = now_ps();
        for (uint64_t off = 0; off < n; off += p_.format.max_payload) {
            SrioPkt p;
            p.type = p_.swrite ? SRIO_SWRITE : SRIO_NWRITE;
            p.dst = dst;
            p.core = core;
            p.addr = addr + off;
            p.data.assign(data + off, data + off + std::min(p_.format.max_payload, n - off));
            last = send(p, ready);
        }
        wait_until(last);
    }
}

void SrioEndpoint::inbound(tlm::tlm_generic_payload &gp, sc_time &)
{
    queue_.push_back(std::move(*gp.get_extension<SrioPkt>()));
    arrived_.notify(SC_ZERO_TIME);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

void SrioEndpoint::access(Worker &w, SrioPkt &p)
{
    const bool read = p.type == SRIO_NREAD;
    if (read) p.data.assign(p.len, 0);
    uint64_t word = 0;
    const bool atomic = p.type == SRIO_ATOMIC;
    gp_set(w.gp, read, p.addr, atomic ? (void *)&word : (void *)p.data.data(),
           atomic ? 8 : p.data.size());
    w.ext->reset(atomic ? p.op : OP_NONE);
    w.ext->core = board_; // the access is local to this board
    w.ext->a = p.a;
    w.ext->b = p.b;
    sc_time d = SC_ZERO_TIME;
    mem->b_transport(w.gp, d);
    if (d != SC_ZERO_TIME) wait(d);
    p.r = w.ext->r;
}

void SrioEndpoint::serve()
{
    for (;;) {
        while (queue_.empty()) wait(arrived_);
        wait_until(queue_.front().tail + p_.rx_ps);
        if (queue_.front().type == SRIO_RESPONSE) { // completes a requester of this board
            SrioPkt p = std::move(queue_.front());
            queue_.pop_front();
            if (p.into && !p.data.empty()) memcpy(p.into, p.data.data(), p.data.size());
            if (p.reply) {
                p.reply->r = p.r;
                if (--p.reply->pending == 0) p.reply->ev.notify();
            }
            continue;
        }
        Worker *w = nullptr;
        for (;;) {
            for (Worker &k : workers_)
                if (!k.busy) {
                    w = &k;
                    break;
                }
            if (w) break;
            wait(freed_);
        }
        w->job = std::move(queue_.front());
        queue_.pop_front();
        w->busy = true;
        w->go.notify();
    }
}

void SrioEndpoint::work(Worker &w)
{
    for (;;) {
        while (!w.busy) wait(w.go);
        SrioPkt &p = w.job;
        if (p.type == SRIO_DOORBELL) wait(ps(p_.rx_ps)); // the 8-B doorbell queue entry
        access(w, p);
        if (p.respond) {
            SrioPkt rsp;
            rsp.type = SRIO_RESPONSE;
            rsp.dst = p.src;
            rsp.reply = p.reply;
            rsp.r = p.r;
            rsp.into = p.into;
            if (p.type == SRIO_NREAD) rsp.data = std::move(p.data);
            rsp.len = p.type == SRIO_NREAD ? rsp.data.size() : p.type == SRIO_ATOMIC ? 8 : 0;
            send(rsp, now_ps());
        }
        w.busy = false;
        freed_.notify();
    }
}

} // namespace ipcsim
