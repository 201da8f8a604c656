// sim_stream.cpp -- byte streams and pollers over the modelled network.
#include "sim.h"

#include "../../models/net.h"

#include <cstring>

namespace ipcsim
{

// The network of the run (the first stream device), or NULL with ENOENT.
static Net *net(int *status)
{
    const Device *d = kernel().first("stream");
    Net *n = d ? static_cast<Net *>(d->block) : nullptr;
    if (!n && status) *status = PLAT_ENOENT;
    return n;
}

// Sleep on what an operation answered with PLAT_EAGAIN (until dl); false
// once dl has passed. A woken thread then needs the host's wake-up time
// before it can retry.
static bool wait_change(Thread &t, const Net &n, const char *call, uint64_t dl)
{
    const OpExt &x = t.ext();
    if (!sleep_on(t, x.watch, call, dl, x.next_ps ? x.next_ps : NEVER)) return false;
    if (uint64_t w = n.wake_ps())
        kernel().block(t, nullptr, 0, call, after_ps(now_ps(), w, "a host's wake-up"));
    return true;
}

// One network operation from the calling core: its status.
static int net_op(Thread &t, Net &n, int op, tlm::tlm_command cmd, const void *data, size_t len,
                  void *p)
{
    Core &c = *t.core;
    c.payload(t, op, cmd, n.reg(), data, len);
    t.ext().p = p;
    c.transport(t, true);
    return t.ext().status;
}

plat_stream *sim_stream_listen(const char *addr, int *status)
{
    Thread &t = self();
    Net *n = net(status);
    if (!n) return nullptr;
    need(addr, "plat_stream_listen");
    int st = net_op(t, *n, OP_NET_LISTEN, tlm::TLM_WRITE_COMMAND, addr, strlen(addr), nullptr);
    if (status) *status = st;
    return st == PLAT_OK ? (plat_stream *)t.ext().p : nullptr;
}

plat_stream *sim_stream_accept(plat_stream *l, uint64_t timeout_ns, int *status)
{
    Thread &t = self();
    Net *n = net(status);
    if (!n) return nullptr;
    need(l, "plat_stream_accept");
    uint64_t dl = deadline_ps(timeout_ns);
    int st;
    for (;;) {
        st = net_op(t, *n, OP_NET_ACCEPT, tlm::TLM_READ_COMMAND, nullptr, 0, l);
        if (st != PLAT_EAGAIN) break;
        if (timeout_ns == 0) break;
        if (!wait_change(t, *n, "plat_stream_accept", dl)) {
            st = kernel().timed_out(t, "plat_stream_accept", timeout_ns);
            break;
        }
    }
    if (status) *status = st;
    return st == PLAT_OK ? (plat_stream *)t.ext().p : nullptr;
}

// The handshake always takes the round trip the first transaction answers
// (nothing in the model makes it longer), so the timeout never expires first.
plat_stream *sim_stream_connect(const char *addr, uint64_t, int *status)
{
    Thread &t = self();
    Net *n = net(status);
    if (!n) return nullptr;
    need(addr, "plat_stream_connect");
    int st = net_op(t, *n, OP_NET_CONNECT, tlm::TLM_WRITE_COMMAND, addr, strlen(addr), nullptr);
    if (st == PLAT_OK) {
        uint64_t back = after_ps(now_ps(), t.ext().r, "a handshake's end");
        while (sleep_on(t, nullptr, "plat_stream_connect", back)) {
        }
        Core &c = *t.core;
        c.payload(t, OP_NET_CONNECT, tlm::TLM_WRITE_COMMAND, n->reg(), addr, strlen(addr));
        t.ext().a = 1;
        c.transport(t, true);
        st = t.ext().status;
    }
    if (status) *status = st;
    return st == PLAT_OK ? (plat_stream *)t.ext().p : nullptr;
}

int sim_stream_pair(plat_stream *ends[2])
{
    Thread &t = self();
    need(ends, "plat_stream_pair");
    Net *n = net(nullptr);
    if (!n) return PLAT_ENOENT;
    int st = net_op(t, *n, OP_NET_PAIR, tlm::TLM_WRITE_COMMAND, nullptr, 0, nullptr);
    ends[0] = (plat_stream *)t.ext().p;
    ends[1] = (plat_stream *)t.ext().q;
    return st;
}

// Send or receive: bytes moved, 0 on end of stream (recv), or a status.
static long move(plat_stream *s, int op, const void *buf, size_t n, uint64_t timeout_ns,
                 const char *call)
{
    Thread &t = self();
    need(s, call);
    if (n == 0) return 0;
    need(buf, call);
    Net *net_ = net(nullptr);
    if (!net_) return PLAT_ENOENT;
    uint64_t dl = deadline_ps(timeout_ns);
    tlm::tlm_command cmd = op == OP_NET_SEND ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND;
    for (;;) {
        int st = net_op(t, *net_, op, cmd, buf, n, s);
        OpExt &x = t.ext();
        if (st == PLAT_OK) return (long)x.r;
        if (st != PLAT_EAGAIN || timeout_ns == 0) return st;
        if (!wait_change(t, *net_, call, dl)) return kernel().timed_out(t, call, timeout_ns);
    }
}

long sim_stream_send(plat_stream *s, const void *buf, size_t n, uint64_t timeout_ns)
{
    return move(s, OP_NET_SEND, buf, n, timeout_ns, "plat_stream_send");
}

long sim_stream_recv(plat_stream *s, void *buf, size_t n, uint64_t timeout_ns)
{
    return move(s, OP_NET_RECV, buf, n, timeout_ns, "plat_stream_recv");
}

void sim_stream_close(plat_stream *s)
{
    Thread &t = self();
    Net *n = net(nullptr);
    if (!s || !n) return;
    net_op(t, *n, OP_NET_CLOSE, tlm::TLM_WRITE_COMMAND, nullptr, 0, s);
}

// ---- pollers ---------------------------------------------------------------------------

plat_poller *sim_poller_new(void)
{
    Thread &t = self();
    Net *n = net(nullptr);
    if (!n) return nullptr;
    net_op(t, *n, OP_NET_POLLER_NEW, tlm::TLM_WRITE_COMMAND, nullptr, 0, nullptr);
    return (plat_poller *)t.ext().p;
}

void sim_poller_free(plat_poller *p)
{
    Thread &t = self();
    Net *n = net(nullptr);
    if (!p || !n) return;
    net_op(t, *n, OP_NET_POLLER_FREE, tlm::TLM_WRITE_COMMAND, nullptr, 0, p);
}

static int poller_ctl(int op, plat_poller *p, plat_stream *s, unsigned bits, void *user,
                      const char *call)
{
    Thread &t = self();
    need(p, call);
    need(s, call);
    Net *n = net(nullptr);
    if (!n) return PLAT_ENOENT;
    Core &c = *t.core;
    c.payload(t, op, tlm::TLM_WRITE_COMMAND, n->reg(), nullptr, 0);
    t.ext().p = p;
    t.ext().q = s;
    t.ext().a = bits;
    t.ext().b = (uint64_t)(uintptr_t)user;
    c.transport(t, true);
    return t.ext().status;
}

int sim_poller_add(plat_poller *p, plat_stream *s, unsigned bits, void *user)
{
    return poller_ctl(OP_NET_POLLER_ADD, p, s, bits, user, "plat_poller_add");
}

int sim_poller_mod(plat_poller *p, plat_stream *s, unsigned bits, void *user)
{
    return poller_ctl(OP_NET_POLLER_MOD, p, s, bits, user, "plat_poller_mod");
}

int sim_poller_del(plat_poller *p, plat_stream *s)
{
    return poller_ctl(OP_NET_POLLER_DEL, p, s, 0, nullptr, "plat_poller_del");
}

void sim_poller_wake(plat_poller *p)
{
    Thread &t = self();
    need(p, "plat_poller_wake");
    Net *n = net(nullptr);
    if (n) net_op(t, *n, OP_NET_POLLER_WAKE, tlm::TLM_WRITE_COMMAND, nullptr, 0, p);
}

int sim_poller_wait(plat_poller *p, struct plat_poll_event *ev, int max, uint64_t timeout_ns)
{
    Thread &t = self();
    need(p, "plat_poller_wait");
    need(ev, "plat_poller_wait");
    if (max <= 0) return PLAT_EINVAL;
    Net *n = net(nullptr);
    if (!n) return PLAT_ENOENT;
    uint64_t dl = deadline_ps(timeout_ns);
    Core &c = *t.core;
    for (;;) {
        c.payload(t, OP_NET_POLL, tlm::TLM_READ_COMMAND, n->reg(), ev, (size_t)max * sizeof *ev);
        t.ext().p = p;
        t.ext().a = (uint64_t)max;
        c.transport(t, true);
        if (t.ext().status != PLAT_EAGAIN) return t.ext().status ? t.ext().status : (int)t.ext().r;
        if (timeout_ns == 0) return 0;
        if (!wait_change(t, *n, "plat_poller_wait", dl)) {
            kernel().timed_out(t, "plat_poller_wait", timeout_ns);
            return 0;
        }
    }
}

} // namespace ipcsim
