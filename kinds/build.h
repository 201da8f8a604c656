/*
 * kinds/build.h -- assembling a platform out of blocks: what the kinds share.
 *
 * A kind's build function gets a Build over the run's kernel. It creates
 * the blocks (children of the kernel, so named top.<block>), binds their
 * sockets, and registers with the kernel what the plat_* glue reaches
 * (cores, engines, shared memory, devices). The helpers here build the
 * usual shape: cores with their local memory, private memory and DMA
 * engine behind ports of one crossbar, a shared memory, the devices of the
 * file's `devices` section; a kind with its own interconnect uses the
 * kernel directly for what they do not fit.
 */
#ifndef IPCSIM_KINDS_BUILD_H
#define IPCSIM_KINDS_BUILD_H

#include "../models/core.h"
#include "../models/kernel.h"

#include "ipcsim/conf.h"

#include <string>

namespace ipcsim
{

class Iobus;
class Xbar;
class Net;

class Build
{
  public:
    // Creates the device bus (the first block of every platform).
    explicit Build(Kernel &k);

    Kernel &kernel;
    template <class M> M *own(M *m) { return kernel.own(m); }
    Iobus &iobus() { return *iobus_; }

    // The crossbar: link latency, burst size; it becomes the kernel's
    // fabric. Ports are added with the blocks. Call first.
    Xbar &add_xbar(double latency_ns, uint64_t burst_bytes);
    Xbar &xbar() { return *xbar_; }
    // Core i behind its own crossbar port with its local memory, private
    // memory and DMA engine (link_MBps: the port's bandwidth). bind_mem
    // false: the caller binds the core's `mem` socket (through a cache).
    // engine false: no engine of its own; the kind gives it one
    // (Kernel::set_engine: an engine every core shares).
    Core &add_core(int index, const CoreParams &p, double link_MBps, bool bind_mem = true,
                   bool engine = true);
    // The shared memory behind a port of its own (none if bytes is 0).
    Memory *add_shared(uint64_t bytes, double latency_ns, double link_MBps);
    // A further memory every core reaches, behind a crossbar port of its own,
    // registered as plat_mem_alloc's `name` (Kernel::add_memory).
    Memory *add_memory(const std::string &name, uint64_t bytes, double latency_ns,
                       double link_MBps);
    // The devices of the file's `devices` section (already checked), each
    // behind a crossbar port of link_MBps or on the device bus.
    void add_devices(const struct conf_node *devices, double link_MBps);

  private:
    Iobus *iobus_;
    Xbar *xbar_ = nullptr;
};

// sc_object names cannot hold '.', spaces...: "dev_" + name with each such
// character replaced by '_'.
std::string dev_module(const std::string &name);

} // namespace ipcsim

#endif
