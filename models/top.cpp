// top.cpp -- the platform of a run: building blocks, threads, waking, stopping.
#include "top.h"
#include "accel.h"
#include "core.h"
#include "dma.h"
#include "hwq.h"
#include "iobus.h"
#include "memory.h"
#include "mesh.h"
#include "net.h"
#include "tcp.h"
#include "xbar.h"

#include <algorithm>
#include <cctype>
#include <cstdarg>
#include <cstdio>
#include <stdexcept>

using namespace sc_core;

namespace ipcsim
{

Top *Top::top_ = nullptr;

Top::Top(sc_module_name name, const struct conf *platform, uint64_t seed, void (*entry_)(void *),
         void *arg, void (*build)(Top &, const struct conf *))
    : sc_module(name), entry(entry_), entry_arg(arg), conf_(platform), seed_(seed)
{
    top_ = this;
    iobus_ = new Iobus("iobus");
    owned_.emplace_back(iobus_);
    build(*this, platform);
}

Top::~Top()
{
    if (top_ == this) top_ = nullptr;
}

// sc_object names cannot hold '.', spaces...
static std::string sane(const std::string &s)
{
    std::string o = s;
    for (char &c : o)
        if (!isalnum((unsigned char)c) && c != '_') c = '_';
    return o;
}

Xbar &Top::add_xbar(double latency_ns, uint64_t burst_bytes)
{
    xbar_ = new Xbar("xbar", latency_ns, burst_bytes);
    owned_.emplace_back(xbar_);
    fabric_ = xbar_;
    return *xbar_;
}

Core &Top::add_core(int i, const CoreParams &p, double link_MBps, bool bind_mem)
{
    std::string n = std::to_string(i);
    int port = xbar_->add_port("core" + n, link_MBps, p.local_bandwidth_MBps);
    xbar_->set_core_port(i, port);
    Core *c = new Core(("core" + n).c_str(), *this, i, p);
    owned_.emplace_back(c);
    Memory *local = nullptr;
    if (p.local_bytes && (p.caps & PLAT_CAP_LOCAL_MEM)) {
        local = new Memory(("local" + n).c_str(), *this, p.local_bytes, p.local_latency_ns);
        owned_.emplace_back(local);
        xbar_->attach_target(local->tsock, port, local->base(), local->size());
    }
    Memory *priv = new Memory(("private" + n).c_str(), *this, 0, p.local_latency_ns);
    owned_.emplace_back(priv);
    xbar_->attach_target(priv->tsock, port, nullptr, 0);
    xbar_->attach_target(c->db, port, &c->db_reg, sizeof c->db_reg);
    unsigned chans = (p.caps & PLAT_CAP_DMA) ? p.rx_channels : 0; // no engine, no channels
    Dma *d = new Dma(("dma" + n).c_str(), *this, *c, chans);
    owned_.emplace_back(d);
    add_core_blocks(c, local, d);
    if (bind_mem) xbar_->attach_initiator(c->mem, port, i);
    xbar_->attach_initiator(d->isock, port, i);
    c->io.bind(iobus_->tsock);
    return *c;
}

void Top::add_core_blocks(Core *c, Memory *local, Engine *e)
{
    cores_.push_back(c);
    locals_.push_back(local);
    engines_.push_back(e);
    live_++;
}

Memory *Top::add_shared(uint64_t bytes, double latency_ns, double link_MBps)
{
    if (!bytes) return nullptr;
    shared_port_ = xbar_->add_port("shared", link_MBps);
    shared_ = new Memory("shared", *this, bytes, latency_ns);
    owned_.emplace_back(shared_);
    xbar_->attach_target(shared_->tsock, shared_port_, shared_->base(), shared_->size());
    return shared_;
}

double dev_param(const struct conf_node *dev, const char *key)
{
    double v = 0;
    if (!conf_number(conf_get(dev, key), &v))
        throw std::runtime_error(std::string("device parameter ") + key + " is not a number");
    return v;
}

double dev_param_or(const struct conf_node *dev, const char *key, double dflt)
{
    return conf_get(dev, key) ? dev_param(dev, key) : dflt;
}

void Top::add_devices(const struct conf_node *devs, double link_MBps)
{
    for (size_t i = 0; devs && i < conf_len(devs); i++) {
        Device d;
        d.name = conf_key(devs, i);
        const struct conf_node *n = conf_at(devs, i);
        const char *type = conf_text(conf_get(n, "type"));
        d.type = type ? type : "";
        std::string mod = "dev_" + sane(d.name);
        if (d.type == "hwq") {
            d.hwq = new Hwq(mod.c_str(), *this, (unsigned)dev_param(n, "queues"),
                            (unsigned)dev_param(n, "depth"), dev_param(n, "latency_ns"));
            owned_.emplace_back(d.hwq);
            int port = xbar_->add_port(mod, link_MBps);
            xbar_->attach_target(d.hwq->tsock, port, d.hwq->regs(), d.hwq->regs_size());
        } else if (d.type == "accel") {
            d.accel = new Accel(mod.c_str(), *this, dev_param(n, "latency_ns"));
            owned_.emplace_back(d.accel);
            int port = xbar_->add_port(mod, std::min(link_MBps, dev_param(n, "bandwidth_MBps")));
            xbar_->attach_target(d.accel->tsock, port, d.accel->reg(), sizeof(uint64_t));
            xbar_->attach_initiator(d.accel->isock, port, -1, true);
        } else if (d.type == "mesh") {
            MeshLayout lay;
            lay.first = (int)dev_param_or(n, "first_core", 0);
            lay.stride = (int)dev_param_or(n, "stride", 0);
            lay.arrays = (int)dev_param_or(n, "arrays", 1);
            d.mesh = new Mesh(mod.c_str(), *this, (int)dev_param(n, "rows"),
                              (int)dev_param(n, "cols"), cores(),
                              (size_t)dev_param(n, "word_bytes"), (unsigned)dev_param(n, "depth"),
                              dev_param(n, "latency_ns"), dev_param(n, "get_latency_ns"), lay);
            owned_.emplace_back(d.mesh);
            iobus_->attach_target(d.mesh->tsock, d.mesh->reg(), sizeof(uint64_t));
        } else if (d.type == "stream" || d.type == "tcp") {
            d.net = add_stream(d.name, n);
        } else {
            throw std::runtime_error("device " + d.name + ": unknown type " + d.type);
        }
        devices_.push_back(d);
    }
}

Net *Top::add_stream(const std::string &name, const struct conf_node *n)
{
    std::string mod = "dev_" + sane(name);
    const char *type = conf_text(conf_get(n, "type"));
    Net *net;
    if (type && std::string(type) == "tcp") {
        net = add_tcp(*this, mod, n);
    } else {
        net =
            new Net(mod.c_str(), *this, dev_param(n, "latency_ns"), dev_param(n, "bandwidth_MBps"),
                    (uint64_t)dev_param(n, "buffer_bytes"), dev_param(n, "call_ns"));
        owned_.emplace_back(net);
        iobus_->attach_target(net->tsock, net->reg(), sizeof(uint64_t));
    }
    if (!net_) net_ = net;
    return net;
}

const Device *Top::device(const char *name, const char *type) const
{
    for (const Device &d : devices_)
        if (d.name == name) return d.type == type ? &d : nullptr;
    return nullptr;
}

void Top::set_core_memory(int core, Memory *m)
{
    if ((size_t)core >= core_mem_.size()) core_mem_.resize((size_t)core + 1, nullptr);
    core_mem_[(size_t)core] = m;
    if (std::find(mems_.begin(), mems_.end(), m) == mems_.end()) mems_.push_back(m);
}

Memory *Top::shared_holding(const void *p)
{
    if (shared_ && shared_->holds(p)) return shared_;
    for (Memory *m : mems_)
        if (m->holds(p)) return m;
    return nullptr;
}

Memory *Top::block_of(const void *p)
{
    if (Memory *m = shared_holding(p)) return m;
    for (Memory *m : locals_)
        if (m && m->holds(p)) return m;
    return nullptr;
}

// ---- threads ------------------------------------------------------------------

void Top::adopt(const sc_process_handle &h, Thread *t)
{
    t->proc = h.get_process_object();
    threads_[t->proc] = t;
}

void Top::forget(Thread *t)
{
    threads_.erase(t->proc);
    if (last_thread_ == t) last_proc_ = nullptr, last_thread_ = nullptr;
}

Thread &Top::current()
{
    const sc_object *o = sc_get_current_process_handle().get_process_object();
    if (o && o == last_proc_) return *last_thread_;
    auto it = threads_.find(o);
    if (it == threads_.end())
        fail("ipcsim: a plat_* call outside the software of a simulated core (in %s)",
             o ? o->name() : "no process");
    last_proc_ = o;
    last_thread_ = it->second;
    return *it->second;
}

void Top::entry_done()
{
    if (--live_ == 0) sc_stop();
}

// ---- blocking and waking ----------------------------------------------------------

void Top::block(Thread &t, const void *on, size_t len, const char *what, uint64_t wake_ps)
{
    uint64_t now = now_ps();
    if (wake_ps <= now) return;
    t.core->unhold(t); // a sleeping thread gives its time slice up
    t.watch = on;
    t.watch_len = len;
    t.what = what;
    if (on) watchers_.push_back(&t);
    if (wake_ps == NEVER)
        wait(t.ev);
    else
        wait(ps(wake_ps - now), t.ev);
    if (on) watchers_.erase(std::find(watchers_.begin(), watchers_.end(), &t));
    t.watch = nullptr;
    t.what = nullptr;
}

void Top::wake(const void *p, size_t len)
{
    uintptr_t lo = (uintptr_t)p, hi = lo + len;
    for (Thread *w : watchers_) {
        uintptr_t a = (uintptr_t)w->watch;
        if (a < hi && a + w->watch_len > lo) w->ev.notify();
    }
}

// ---- stopping -------------------------------------------------------------------------

// The calling thread never resumes and its stack is never unwound: keep
// nothing on it that owns heap memory (LeakSanitizer cannot see that stack).
void Top::stop(const char *msg)
{
    if (error_.empty()) {
        error_ = msg;
        sc_stop();
    }
    if (!sc_get_current_process_handle().valid()) throw std::runtime_error(error_);
    for (;;) wait(never_); // the run is over for this thread
}

void Top::fail(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    stop(msg);
}

void Top::misuse(const char *fmt, ...)
{
    Thread &t = current();
    char msg[1024];
    int n =
        snprintf(msg, sizeof msg, "ipcsim: core %d (%s): ", t.core->index, t.core->type.c_str());
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    stop(msg);
}

std::string Top::blocked() const
{
    std::string s;
    for (const Core *c : cores_)
        for (const Thread *t : c->threads) {
            if (t->done) continue;
            char line[512];
            snprintf(line, sizeof line, "%score %d (%s) thread %s: blocked in %s",
                     s.empty() ? "" : "; ", c->index, c->type.c_str(), t->name.c_str(),
                     t->what ? t->what : "a wait");
            s += line;
        }
    return s;
}

void Top::trace_vcd(sc_trace_file *tf)
{
    for (Core *c : cores_) sc_trace(tf, c->busy, std::string(c->name()) + ".busy");
    fabric_->trace(tf);
}

} // namespace ipcsim
