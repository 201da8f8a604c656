// tcp.cpp -- TCP flows between hosts: segments, windows, ACKs, host costs.
#include "tcp.h"
#include "../iobus.h"
#include "../kernel.h"

#include "ipcsim/plat.h"

#include <algorithm>
#include <stdexcept>

using namespace sc_core;

namespace ipcsim
{

// One direction of a connection, seen by both ends' stacks.
struct Net::Flow {
    uint64_t id = 0;
    int src = 0, dst = 0; // hosts of the writer and the reader
    uint64_t mss = 0;
    Pipe *pipe = nullptr;
    Flow *back = nullptr; // the other direction: it carries this one's ACKs
    // the writer's stack
    uint64_t snd_nxt = 0, snd_una = 0, snd_end = 0; // cut, acknowledged, window's right edge
    bool fin_sent = false, queued = false;
    // the reader's stack
    uint64_t rcv_nxt = 0, rcv_acked = 0, rcv_end = 0; // received, acknowledged, advertised edge
    bool fin_rcvd = false, ack_due = false;
    uint64_t delack = 0; // arming of the delayed-ACK timer that counts (0: none)
};

Tcp::Tcp(sc_module_name name, Kernel &kernel, const TcpParams &p, int hosts)
    : Net(name, kernel, Wire{0, 0, p.pipe_bytes}, 0), p_(p), hosts_(hosts),
      wakeup_ps_(ns_to_ps(p.wakeup_ns, "host.wakeup_ns")),
      delack_ps_(ns_to_ps(p.delack_ms * 1e6, "tcp.delack_ms x 1e6"))
{
    if (hosts < 1 || hosts > 2)
        throw std::runtime_error(std::string(this->name()) +
                                 ": a tcp device joins one or two hosts (cores / cores_per_host)");
    if (mss(false) < 1 || mss(true) < 1)
        throw std::runtime_error(std::string(this->name()) + ": the MTU leaves no room for data");
    for (int h = 0; h < 2; h++) {
        rx[h].register_b_transport(this, &Tcp::deliver, h);
        sc_spawn([this, h] { transmit(h); }, h ? "transmit1" : "transmit0");
        host_[h].rxq.start(h ? "receive1" : "receive0", [this, h](Packet &pk) { receive(h, pk); });
    }
    sc_spawn([this] { timers(); }, "delack");
}

uint64_t Tcp::mss(bool local) const
{
    uint64_t hdr =
        p_.ip_header_bytes + p_.tcp_header_bytes + (p_.timestamps ? TCP_TS_OPTION_BYTES : 0);
    uint64_t mtu = local ? p_.lo_mtu : p_.eth.mtu;
    return mtu > hdr ? mtu - hdr : 0;
}

Net::Flow *Tcp::find(uint64_t id) const
{
    auto it = flows_.find(id);
    return it == flows_.end() ? nullptr : it->second;
}

// ---- the socket layer's questions ------------------------------------------------------

uint64_t Tcp::call_ps(const OpExt &x) const
{
    if (x.op == OP_NET_POLL) return ns_to_ps(p_.epoll_wait_ns, "host.epoll_wait_ns");
    if (x.op != OP_NET_SEND && x.op != OP_NET_RECV)
        return ns_to_ps(p_.syscall_ns, "host.syscall_ns");
    const Stream *s = (const Stream *)x.p;
    if (s->listener) return ns_to_ps(p_.syscall_ns, "host.syscall_ns"); // refused at once
    bool send = x.op == OP_NET_SEND;
    if (s->out->wire)
        return ns_to_ps(send ? p_.pipe_write_ns : p_.pipe_read_ns,
                        "host.pipe_write_ns/pipe_read_ns");
    return ns_to_ps(send ? p_.send_ns : p_.recv_ns, "host.send_ns/recv_ns");
}

// A header-only segment from core's host to the listener's (none: the RST
// comes from the other host, if there is one).
uint64_t Tcp::handshake_ps(int core, const Stream *listener) const
{
    int src = host(core);
    int dst = listener ? host(listener->core) : (hosts_ > 1 ? 1 - src : src);
    uint64_t t =
        ns_to_ps(p_.tx_segment_ns + p_.rx_segment_ns, "host.tx_segment_ns + rx_segment_ns");
    if (src != dst)
        t += eth_->latency_ps(p_.ip_header_bytes + p_.tcp_header_bytes) +
             ns_to_ps(p_.irq_ns, "host.irq_ns");
    return t;
}

void Tcp::opened(Conn &c, bool pair)
{
    if (pair) {
        Net::opened(c, pair);
        return;
    }
    Flow *ab = new Flow, *ba = new Flow;
    ab->back = ba;
    ba->back = ab;
    int ha = host(c.ab.writer->core), hb = host(c.ab.reader->core);
    for (Flow *f : {ab, ba}) {
        Pipe &p = f == ab ? c.ab : c.ba;
        f->id = next_id_++;
        f->src = f == ab ? ha : hb;
        f->dst = f == ab ? hb : ha;
        f->mss = mss(f->src == f->dst);
        f->pipe = &p;
        f->snd_end = f->rcv_end = p_.rcvbuf_bytes; // the windows of the handshake
        p.flow = f;
        p.buf.resize(p_.sndbuf_bytes + p_.rcvbuf_bytes);
        flows_[f->id] = f;
    }
}

uint64_t Tcp::space(const Pipe &p) const
{
    if (p.wire) return Net::space(p);
    return p_.sndbuf_bytes - (p.sent - p.flow->snd_una);
}

void Tcp::wrote(Pipe &p, uint64_t k)
{
    if (p.wire) return Net::wrote(p, k);
    enqueue(*p.flow);
}

uint64_t Tcp::arrived(const Pipe &p) const
{
    if (p.wire) return Net::arrived(p);
    return std::max(p.flow->rcv_nxt, p.got); // a closed reader dropped what was in flight
}

bool Tcp::eof(const Pipe &p) const
{
    if (p.wire) return Net::eof(p);
    return p.flow->fin_rcvd && p.got >= p.flow->rcv_nxt;
}

// Everything here changes by events that touch the pipe: no timers to set.
uint64_t Tcp::next_change(const Pipe &p) const
{
    return p.wire ? Net::next_change(p) : 0;
}

// A window that fell to half the buffer or less is advertised again once a
// read has at least doubled it, and by at least min(MSS, buffer / 2) (Linux
// tcp_cleanup_rbuf; RFC 1122 4.2.3.3 for the least step).
void Tcp::read(Pipe &p)
{
    if (p.wire) return Net::read(p);
    Flow &f = *p.flow;
    uint64_t now_wnd = f.rcv_end > f.rcv_nxt ? f.rcv_end - f.rcv_nxt : 0;
    uint64_t new_wnd = window(f), buf = p_.rcvbuf_bytes;
    if (2 * now_wnd <= buf && new_wnd >= 2 * now_wnd &&
        new_wnd - now_wnd >= std::min(f.mss, buf / 2)) {
        f.ack_due = true;
        enqueue(*f.back);
    }
}

void Tcp::shut(Pipe &out)
{
    if (out.wire) return Net::shut(out);
    enqueue(*out.flow);
}

void Tcp::freed(Conn &c)
{
    for (Pipe *p : {&c.ab, &c.ba}) {
        if (!p->flow) continue;
        flows_.erase(p->flow->id);
        delete p->flow;
    }
}

// ---- the writer's host ---------------------------------------------------------------------

uint64_t Tcp::window(const Flow &f) const
{
    uint64_t unread = f.rcv_nxt > f.pipe->got ? f.rcv_nxt - f.pipe->got : 0;
    return p_.rcvbuf_bytes - std::min(unread, p_.rcvbuf_bytes);
}

bool Tcp::has_work(const Flow &f) const
{
    const Pipe &p = *f.pipe;
    if (p.rclosed) return f.back->ack_due; // nobody reads: nothing more to send
    if (std::min(p.sent, f.snd_end) > f.snd_nxt) return true;
    if (p.wclosed && !f.fin_sent && f.snd_nxt == p.sent) return true;
    return f.back->ack_due;
}

void Tcp::enqueue(Flow &f)
{
    if (f.queued || !has_work(f)) return;
    f.queued = true;
    Host &h = host_[f.src];
    h.txq.push_back(f.id);
    h.txev.notify();
}

// The next segment of f: its data and FIN, and the ACK of the reverse flow.
Packet Tcp::cut(Flow &f)
{
    Packet pk;
    pk.flow = f.id;
    pk.seq = f.snd_nxt;
    const Pipe &p = *f.pipe;
    if (!p.rclosed) {
        uint64_t end = std::min(p.sent, f.snd_end);
        pk.len = end > f.snd_nxt ? std::min(f.mss, end - f.snd_nxt) : 0;
        f.snd_nxt += pk.len;
        if (p.wclosed && !f.fin_sent && f.snd_nxt == p.sent) pk.fin = f.fin_sent = true;
    }
    Flow &g = *f.back;
    pk.ack = g.rcv_nxt;
    pk.wnd = window(g);
    g.rcv_acked = g.rcv_nxt;
    g.rcv_end = g.rcv_nxt + pk.wnd;
    g.ack_due = false;
    g.delack = 0;
    pk.ip_bytes = p_.ip_header_bytes + p_.tcp_header_bytes +
                  (p_.timestamps ? TCP_TS_OPTION_BYTES : 0) + pk.len;
    return pk;
}

// One segment after the other, each through the stack, then to the NIC
// (which takes it when the previous frame has left) or the host's own
// receive path.
void Tcp::transmit(int h)
{
    Host &me = host_[h];
    for (;;) {
        while (me.txq.empty()) wait(me.txev);
        Flow *f = find(me.txq.front());
        me.txq.pop_front();
        if (!f) continue;
        f->queued = false;
        if (!has_work(*f)) continue;
        Packet pk = cut(*f);
        int dst = f->dst;
        enqueue(*f); // more to send: after the other flows' turn
        wait(ps(ns_to_ps(p_.tx_segment_ns, "host.tx_segment_ns")));
        if (dst == h) {
            me.rx_free =
                after_ps(std::max(now_ps(), me.rx_free),
                         ns_to_ps(p_.rx_segment_ns, "host.rx_segment_ns"), "a receive path's end");
            me.rxq.push(me.rx_free, pk);
            continue;
        }
        gp_set(me.gp, false, nullptr, &pk, sizeof pk);
        sc_time zero = SC_ZERO_TIME;
        tx[h]->b_transport(me.gp, zero);
    }
}

// ---- the reader's host ---------------------------------------------------------------------

// A packet from the wire: the interrupt, then the receive path in turn.
void Tcp::deliver(int h, tlm::tlm_generic_payload &gp, sc_time &delay)
{
    Host &me = host_[h];
    uint64_t at = after_ps(after_ps(now_ps(), delay.value(), "a frame's arrival"),
                           ns_to_ps(p_.irq_ns, "host.irq_ns"), "a frame's interrupt");
    me.rx_free = after_ps(std::max(at, me.rx_free),
                          ns_to_ps(p_.rx_segment_ns, "host.rx_segment_ns"), "a receive path's end");
    me.rxq.push(me.rx_free, *(const Packet *)gp.get_data_ptr());
    delay = SC_ZERO_TIME;
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

void Tcp::receive(int, Packet &pk)
{
    Flow *f = find(pk.flow);
    if (!f) return; // both ends closed meanwhile
    Flow &g = *f->back;
    if (pk.ack > g.snd_una || pk.ack + pk.wnd > g.snd_end) {
        g.snd_una = std::max(g.snd_una, pk.ack);
        g.snd_end = std::max(g.snd_end, pk.ack + pk.wnd);
        changed(g.pipe);
        enqueue(g);
    }
    if (pk.len == 0 && !pk.fin) return;
    f->rcv_nxt += pk.len;
    f->fin_rcvd = f->fin_rcvd || pk.fin;
    changed(f->pipe);
    if (pk.fin || f->rcv_nxt - f->rcv_acked > f->mss) {
        f->ack_due = true;
        enqueue(g);
    } else {
        ack_soon(*f);
    }
}

// The delayed ACK (Linux's delack timer): sent then unless a segment going
// back carried it first.
void Tcp::ack_soon(Flow &f)
{
    if (f.delack) return;
    f.delack = ++timer_seq_;
    timers_[{now_ps() + delack_ps_, timer_seq_}] = {f.id, f.delack};
    timer_ev_.notify();
}

void Tcp::timers()
{
    for (;;) {
        if (timers_.empty()) {
            wait(timer_ev_);
            continue;
        }
        auto it = timers_.begin();
        uint64_t at = it->first.first;
        if (at > now_ps()) {
            wait(ps(at - now_ps()), timer_ev_);
            continue;
        }
        Flow *f = find(it->second.first);
        uint64_t arming = it->second.second;
        timers_.erase(it);
        if (!f || f->delack != arming) continue;
        f->delack = 0;
        f->ack_due = true;
        enqueue(*f->back);
    }
}

} // namespace ipcsim
