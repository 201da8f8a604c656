// build.cpp -- the blocks most platforms are made of, and their devices.
#include "build.h"
#include "devtype.h"

#include "../models/dma.h"
#include "../models/iobus.h"
#include "../models/memory.h"
#include "../models/xbar.h"

#include <cctype>
#include <stdexcept>

namespace ipcsim
{

Build::Build(Kernel &k) : kernel(k), iobus_(k.own(new Iobus("iobus"))) {}

std::string dev_module(const std::string &name)
{
    std::string o = "dev_" + name;
    for (char &c : o)
        if (!isalnum((unsigned char)c) && c != '_') c = '_';
    return o;
}

Xbar &Build::add_xbar(double latency_ns, uint64_t burst_bytes)
{
    xbar_ = own(new Xbar("xbar", latency_ns, burst_bytes));
    kernel.set_fabric(xbar_);
    return *xbar_;
}

Core &Build::add_core(int i, const CoreParams &p, double link_MBps, bool bind_mem, bool engine)
{
    std::string n = std::to_string(i);
    int port = xbar_->add_port("core" + n, link_MBps, p.local_bandwidth_MBps);
    xbar_->set_core_port(i, port);
    Core *c = own(new Core(("core" + n).c_str(), kernel, i, p));
    Memory *local = nullptr;
    if (p.local_bytes && (p.caps & PLAT_CAP_LOCAL_MEM)) {
        local = own(new Memory(("local" + n).c_str(), kernel, p.local_bytes, p.local_latency_ns));
        xbar_->attach_target(local->tsock, port, local->base(), local->size());
    }
    Memory *priv = own(new Memory(("private" + n).c_str(), kernel, 0, p.local_latency_ns));
    xbar_->attach_target(priv->tsock, port, nullptr, 0);
    xbar_->attach_target(c->db, port, &c->db_reg, sizeof c->db_reg);
    unsigned chans = (p.caps & PLAT_CAP_DMA) ? p.rx_channels : 0; // no engine, no channels
    Dma *d = engine ? own(new Dma(("dma" + n).c_str(), kernel, *c, chans)) : nullptr;
    kernel.add_core_blocks(c, local, d);
    if (bind_mem) xbar_->attach_initiator(c->mem, port, i);
    if (d) xbar_->attach_initiator(d->isock, port, i);
    c->io.bind(iobus_->tsock);
    return *c;
}

Memory *Build::add_shared(uint64_t bytes, double latency_ns, double link_MBps)
{
    if (!bytes) return nullptr;
    int port = xbar_->add_port("shared", link_MBps);
    Memory *m = own(new Memory("shared", kernel, bytes, latency_ns));
    kernel.set_shared(m);
    xbar_->attach_target(m->tsock, port, m->base(), m->size());
    return m;
}

Memory *Build::add_memory(const std::string &name, uint64_t bytes, double latency_ns,
                          double link_MBps)
{
    std::string mod = "mem_" + name;
    int port = xbar_->add_port(mod, link_MBps);
    Memory *m = own(new Memory(mod.c_str(), kernel, bytes, latency_ns));
    kernel.add_memory(name, m);
    xbar_->attach_target(m->tsock, port, m->base(), m->size());
    return m;
}

void Build::add_devices(const struct conf_node *devs, double link_MBps)
{
    for (size_t i = 0; devs && i < conf_len(devs); i++) {
        const struct conf_node *n = conf_at(devs, i);
        Device d;
        d.name = conf_key(devs, i);
        const char *type = conf_text(conf_get(n, "type"));
        const DevType *t = devtype_find(type);
        if (!t) // plat_check rejects it first
            throw std::runtime_error("device " + d.name + ": unknown type " + (type ? type : "?"));
        d.api = t->api;
        d.block = t->build(*this, d.name, n, link_MBps);
        kernel.add_device(d);
    }
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

} // namespace ipcsim
