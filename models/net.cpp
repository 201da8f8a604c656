// net.cpp -- byte streams with latency, bandwidth and bounded buffers; pollers.
#include "net.h"
#include "kernel.h"

#include "ipcsim/plat.h"

#include <algorithm>
#include <cstring>

using namespace sc_core;

namespace ipcsim
{

Net::Net(sc_module_name name, Kernel &kernel, double latency_ns, double bandwidth_MBps,
         uint64_t buffer_bytes, double call_ns)
    : Net(name, kernel,
          Wire{ns_to_ps(latency_ns, "latency_ns"), ps_per_byte(bandwidth_MBps, "bandwidth_MBps"),
               buffer_bytes ? buffer_bytes : 1},
          call_ns)
{
}

Net::Net(sc_module_name name, Kernel &kernel, const Wire &wire, double call_ns)
    : sc_module(name), tsock("tsock"), kernel_(kernel), wire_(wire),
      call_ps_(ns_to_ps(call_ns, "call_ns"))
{
    tsock.register_b_transport(this, &Net::b_transport);
}

// Streams still open at the end of the run go with the platform.
Net::~Net() = default;

void Net::b_transport(tlm::tlm_generic_payload &gp, sc_time &delay)
{
    OpExt &x = *gp.get_extension<OpExt>();
    sc_time d = delay + ps(call_ps(x));
    if (d != SC_ZERO_TIME) wait(d);
    delay = SC_ZERO_TIME;
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    switch (x.op) {
    case OP_NET_LISTEN:
        listen(gp, x);
        break;
    case OP_NET_CONNECT:
        connect(gp, x);
        break;
    case OP_NET_ACCEPT:
        accept(x);
        break;
    case OP_NET_PAIR:
        pair(x);
        break;
    case OP_NET_SEND:
        send(gp, x);
        break;
    case OP_NET_RECV:
        recv(gp, x);
        break;
    case OP_NET_CLOSE:
        close((Stream *)x.p);
        break;
    case OP_NET_POLL:
        poll(gp, x);
        break;
    default:
        poller_op(x);
        break;
    }
}

// "host:port" -> "port"; empty if there is no port.
static std::string port_of(const tlm::tlm_generic_payload &gp)
{
    std::string addr((const char *)gp.get_data_ptr(), gp.get_data_length());
    size_t colon = addr.rfind(':');
    return colon == std::string::npos ? addr : addr.substr(colon + 1);
}

void Net::listen(tlm::tlm_generic_payload &gp, OpExt &x)
{
    std::string port = port_of(gp);
    if (port.empty()) {
        x.status = PLAT_EINVAL;
        return;
    }
    if (listeners_.count(port)) {
        x.status = PLAT_EADDRINUSE;
        return;
    }
    Stream *l = new Stream;
    l->listener = true;
    l->core = x.core;
    l->port = port;
    listeners_[port] = l;
    x.p = l;
}

// a == 0: check the address, answer the handshake's round trip in r (the
// handshake follows); a == 1: the handshake is over, find the listener.
void Net::connect(tlm::tlm_generic_payload &gp, OpExt &x)
{
    std::string port = port_of(gp);
    if (port.empty()) {
        x.status = PLAT_EINVAL;
        return;
    }
    auto it = listeners_.find(port);
    const Stream *l = it == listeners_.end() ? nullptr : it->second;
    if (x.a == 0) {
        x.r = 2 * handshake_ps(x.core, l);
        return;
    }
    if (!l) {
        x.status = PLAT_ECONNREFUSED;
        return;
    }
    Stream *cl, *sv;
    make_conn(cl, sv, x.core, l->core, false);
    it->second->backlog.emplace_back(sv, now_ps() + handshake_ps(x.core, l));
    changed(it->second);
    x.p = cl;
}

void Net::accept(OpExt &x)
{
    Stream *l = (Stream *)x.p;
    if (!l->listener) {
        x.status = PLAT_EINVAL;
        return;
    }
    if (l->backlog.empty() || l->backlog.front().second > now_ps()) {
        x.status = PLAT_EAGAIN;
        x.watch = l;
        x.next_ps = l->backlog.empty() ? 0 : l->backlog.front().second;
        return;
    }
    x.p = l->backlog.front().first;
    l->backlog.pop_front();
}

// a (made by core_a) writes ab and reads ba.
Net::Conn *Net::make_conn(Stream *&a, Stream *&b, int core_a, int core_b, bool pair)
{
    Conn *c = new Conn;
    a = new Stream;
    b = new Stream;
    a->core = core_a;
    b->core = core_b;
    a->conn = b->conn = c;
    a->out = b->in = &c->ab;
    a->in = b->out = &c->ba;
    c->ab.writer = c->ba.reader = a;
    c->ab.reader = c->ba.writer = b;
    opened(*c, pair);
    return c;
}

void Net::pair(OpExt &x)
{
    Stream *a, *b;
    make_conn(a, b, x.core, x.core, true);
    x.p = a;
    x.q = b;
}

// ---- Net's own wire ---------------------------------------------------------------

uint64_t Net::call_ps(const OpExt &) const
{
    return call_ps_;
}

uint64_t Net::handshake_ps(int, const Stream *) const
{
    return wire_.latency_ps;
}

void Net::opened(Conn &c, bool)
{
    for (Pipe *p : {&c.ab, &c.ba}) {
        p->wire = &wire_;
        p->buf.resize(wire_.buffer);
    }
}

uint64_t Net::space(const Pipe &p) const
{
    return p.wire->buffer - (p.sent - p.got);
}

void Net::wrote(Pipe &p, uint64_t k)
{
    uint64_t start = std::max(now_ps(), p.wire_free);
    p.wire_free = after_ps(start, bytes_ps(k, p.wire->ps_per_byte, "a segment"), "a segment's end");
    p.segs.emplace_back(p.sent, after_ps(p.wire_free, p.wire->latency_ps, "a segment's arrival"));
}

void Net::read(Pipe &p)
{
    while (!p.segs.empty() && p.segs.front().first <= p.got) p.segs.pop_front();
}

void Net::shut(Pipe &out)
{
    out.eof_ps =
        after_ps(std::max(now_ps(), out.wire_free), out.wire->latency_ps, "an end of stream");
}

uint64_t Net::arrived(const Pipe &p) const
{
    uint64_t a = p.got, now = now_ps();
    for (const auto &s : p.segs) {
        if (s.second > now) break;
        a = s.first;
    }
    return a;
}

bool Net::eof(const Pipe &p) const
{
    return p.wclosed && p.got == p.sent && now_ps() >= p.eof_ps;
}

uint64_t Net::next_change(const Pipe &p) const
{
    uint64_t now = now_ps();
    for (const auto &s : p.segs)
        if (s.second > now) return s.second;
    return p.wclosed && p.eof_ps > now ? p.eof_ps : 0;
}

void Net::changed(Stream *s)
{
    if (!s) return;
    kernel_.touched(s, sizeof *s);
    for (Poller *p : s->pollers) kernel_.touched(p, sizeof *p);
}

void Net::changed(Pipe *p)
{
    kernel_.touched(p, sizeof *p);
    changed(p->reader);
    changed(p->writer);
}

// ---- the socket layer ---------------------------------------------------------------

void Net::send(tlm::tlm_generic_payload &gp, OpExt &x)
{
    Stream *s = (Stream *)x.p;
    if (s->listener) {
        x.status = PLAT_EINVAL;
        return;
    }
    Pipe &p = *s->out;
    if (p.rclosed) {
        x.status = PLAT_ECLOSED;
        return;
    }
    uint64_t room = space(p);
    if (room == 0) {
        x.status = PLAT_EAGAIN;
        x.watch = &p;
        return;
    }
    uint64_t k = std::min<uint64_t>(gp.get_data_length(), room);
    const unsigned char *src = gp.get_data_ptr();
    uint64_t cap = p.buf.size();
    for (uint64_t done = 0; done < k;) {
        uint64_t at = (p.sent + done) % cap, n = std::min(k - done, cap - at);
        memcpy(&p.buf[at], src + done, n);
        done += n;
    }
    p.sent += k;
    wrote(p, k);
    if (p.wire) changed(&p); // a derived network says when its bytes move
    x.r = k;
}

void Net::recv(tlm::tlm_generic_payload &gp, OpExt &x)
{
    Stream *s = (Stream *)x.p;
    if (s->listener) {
        x.status = PLAT_EINVAL;
        return;
    }
    Pipe &p = *s->in;
    uint64_t avail = arrived(p) - p.got;
    if (avail == 0) {
        if (eof(p)) return; // x.r = 0: orderly close
        x.status = PLAT_EAGAIN;
        x.watch = &p;
        x.next_ps = next_change(p);
        return;
    }
    uint64_t k = std::min<uint64_t>(gp.get_data_length(), avail);
    unsigned char *dst = gp.get_data_ptr();
    uint64_t cap = p.buf.size();
    for (uint64_t done = 0; done < k;) {
        uint64_t at = (p.got + done) % cap, n = std::min(k - done, cap - at);
        memcpy(dst + done, &p.buf[at], n);
        done += n;
    }
    p.got += k;
    read(p);
    kernel_.touched(dst, k);
    if (p.wire) changed(&p);
    x.r = k;
}

void Net::close(Stream *s)
{
    for (Poller *p : s->pollers) {
        auto &it = p->items;
        it.erase(
            std::remove_if(it.begin(), it.end(), [s](const Poller::Item &i) { return i.s == s; }),
            it.end());
        kernel_.touched(p, sizeof *p);
    }
    if (s->listener) {
        listeners_.erase(s->port);
        for (auto &b : s->backlog) close(b.first); // never accepted: the clients see a close
        kernel_.touched(s, sizeof *s);
        delete s;
        return;
    }
    Pipe *out = s->out, *in = s->in;
    out->wclosed = true;
    shut(*out);
    out->writer = nullptr;
    in->rclosed = true;
    in->reader = nullptr;
    in->segs.clear(); // unread bytes are dropped
    in->got = in->sent;
    kernel_.touched(s, sizeof *s);
    changed(out);
    changed(in);
    if (--s->conn->open == 0) {
        freed(*s->conn);
        delete s->conn;
    }
    delete s;
}

unsigned Net::ready(const Stream *s) const
{
    if (s->listener)
        return !s->backlog.empty() && s->backlog.front().second <= now_ps() ? PLAT_POLL_IN : 0;
    unsigned bits = 0;
    if (arrived(*s->in) > s->in->got || eof(*s->in)) bits |= PLAT_POLL_IN;
    if (s->out->rclosed || space(*s->out) > 0) bits |= PLAT_POLL_OUT;
    return bits;
}

void Net::poll(tlm::tlm_generic_payload &gp, OpExt &x)
{
    Poller *p = (Poller *)x.p;
    auto *ev = (struct plat_poll_event *)gp.get_data_ptr();
    int max = (int)x.a, n = 0;
    if (p->woken && n < max) {
        ev[n++] = {nullptr, PLAT_POLL_IN};
        p->woken = false;
    }
    uint64_t next = 0;
    for (const Poller::Item &i : p->items) {
        unsigned bits = ready(i.s) & (i.bits | PLAT_POLL_ERR);
        if (bits && n < max) ev[n++] = {i.user, bits};
        if (i.bits & PLAT_POLL_IN) {
            uint64_t t = i.s->listener ? (i.s->backlog.empty() ? 0 : i.s->backlog.front().second)
                                       : next_change(*i.s->in);
            if (t <= now_ps()) t = 0;
            if (t && (!next || t < next)) next = t;
        }
    }
    x.r = (uint64_t)n;
    if (n == 0) {
        x.status = PLAT_EAGAIN;
        x.watch = p;
        x.next_ps = next;
    }
}

void Net::poller_op(OpExt &x)
{
    Poller *p = (Poller *)x.p;
    Stream *s = (Stream *)x.q;
    auto find = [&]() {
        return std::find_if(p->items.begin(), p->items.end(),
                            [s](const Poller::Item &i) { return i.s == s; });
    };
    switch (x.op) {
    case OP_NET_POLLER_NEW:
        x.p = new Poller;
        break;
    case OP_NET_POLLER_FREE:
        for (const Poller::Item &i : p->items) {
            auto &v = i.s->pollers;
            v.erase(std::remove(v.begin(), v.end(), p), v.end());
        }
        kernel_.touched(p, sizeof *p);
        delete p;
        break;
    case OP_NET_POLLER_ADD:
        if (find() != p->items.end()) {
            x.status = PLAT_EINVAL;
            break;
        }
        p->items.push_back({s, (unsigned)x.a, (void *)(uintptr_t)x.b});
        s->pollers.push_back(p);
        kernel_.touched(p, sizeof *p);
        break;
    case OP_NET_POLLER_MOD: {
        auto it = find();
        if (it == p->items.end()) {
            x.status = PLAT_ENOENT;
            break;
        }
        it->bits = (unsigned)x.a;
        it->user = (void *)(uintptr_t)x.b;
        kernel_.touched(p, sizeof *p);
        break;
    }
    case OP_NET_POLLER_DEL: {
        auto it = find();
        if (it == p->items.end()) {
            x.status = PLAT_ENOENT;
            break;
        }
        p->items.erase(it);
        auto &v = s->pollers;
        v.erase(std::remove(v.begin(), v.end(), p), v.end());
        break;
    }
    case OP_NET_POLLER_WAKE:
        p->woken = true;
        kernel_.touched(p, sizeof *p);
        break;
    default:
        x.status = PLAT_EINVAL;
        break;
    }
}

} // namespace ipcsim
