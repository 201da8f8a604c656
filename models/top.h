/*
 * models/top.h -- the simulated platform of one run: its blocks and the
 * run-wide state the blocks and the plat_* glue share.
 *
 * A platform kind's build function creates the blocks through the add_*
 * helpers (cores with their local memory, private memory and DMA engine; the
 * shared memory; the devices of the file's `devices` section) and binds their
 * sockets to the crossbar or the device bus.
 *
 * Software threads (the core's entry and the threads it spawns) are found
 * from the running SystemC process: Top keeps a map from process to Thread,
 * never a thread-local, because every simulated core runs on one host thread.
 *
 * Blocking: a thread that waits for a condition (a polled word, a doorbell,
 * a queue) watches an address and sleeps on its own sc_event; every write a
 * block performs calls touched(), which wakes the threads watching it.
 */
#ifndef IPCSIM_MODELS_TOP_H
#define IPCSIM_MODELS_TOP_H

#include "proto.h"

#include "ipcsim/conf.h"
#include "ipcsim/plat.h"

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace ipcsim
{

class Core;
class Xbar;
class Iobus;
class Memory;
class Dma;
class Engine;
class Fabric;
class Hwq;
class Mesh;
class Accel;
class Net;
struct Thread;

// Parameters of one core, read from the platform file.
struct CoreParams {
    std::string type;
    unsigned caps = 0;
    double clock_mhz = 0;
    uint64_t local_bytes = 0;
    double local_latency_ns = 0;
    double local_bandwidth_MBps = 0;
    unsigned rx_channels = 0; // receive channels of its DMA engine (core.rx_channels)
    double timeslice_ns = 0;  // OS time slice of its threads (core.timeslice_ns); 0: none
    std::vector<std::pair<std::string, uint64_t>> costs; // core.costs, in file order
};

// The number at key (a dotted path) of a device's section; throws if absent.
double dev_param(const struct conf_node *dev, const char *key);
// The same, dflt if absent.
double dev_param_or(const struct conf_node *dev, const char *key, double dflt);

// A device of the `devices` section.
struct Device {
    std::string name, type;
    Hwq *hwq = nullptr;
    Mesh *mesh = nullptr;
    Accel *accel = nullptr;
    Net *net = nullptr;
};

// A named shared region (plat_shared_map).
struct Region {
    void *p = nullptr;
    size_t size = 0;
    int refs = 0;
};

class Top : public sc_core::sc_module
{
  public:
    // Calls build(*this, platform) to create the blocks (as children of top).
    Top(sc_core::sc_module_name name, const struct conf *platform, uint64_t seed,
        void (*entry)(void *), void *arg, void (*build)(Top &, const struct conf *));
    ~Top() override;

    // The run's one platform (SystemC runs one simulation per process).
    static Top *get() { return top_; }

    // ---- building ----------------------------------------------------------
    // The crossbar: link latency, burst size. Ports are added with the blocks.
    // Call first.
    Xbar &add_xbar(double latency_ns, uint64_t burst_bytes);
    // Core i behind its own crossbar port with its local memory, private
    // memory and DMA engine (link_MBps: the port's bandwidth). bind_mem
    // false: the caller binds the core's `mem` socket (through a cache).
    Core &add_core(int index, const CoreParams &p, double link_MBps, bool bind_mem = true);
    // The shared memory behind a port of its own (none if bytes is 0).
    Memory *add_shared(uint64_t bytes, double latency_ns, double link_MBps);
    // The devices of the file's `devices` section (already checked).
    void add_devices(const struct conf_node *devices, double link_MBps);

    // Lower level, for kinds that build their own interconnect: take
    // ownership of a block; make f the interconnect the glue asks; register
    // core i's blocks (in core order; local may be NULL); the shared memory;
    // a device; a stream device on the device bus (node: its section;
    // type stream: models/net.h, type tcp: models/tcp.h).
    template <class M> M *own(M *m)
    {
        owned_.emplace_back(m);
        return m;
    }
    void set_fabric(Fabric *f) { fabric_ = f; }
    void add_core_blocks(Core *c, Memory *local, Engine *e);
    void set_shared(Memory *m) { shared_ = m; }
    // Core `core`'s plat_shared_alloc memory when it is not the shared
    // memory (a NUMA chip: each core group's own memory behind its own
    // controller). Every such memory counts as shared memory.
    void set_core_memory(int core, Memory *m);
    void add_device(const Device &d) { devices_.push_back(d); }
    Net *add_stream(const std::string &name, const struct conf_node *node);
    Iobus &iobus() { return *iobus_; }

    // ---- the blocks ---------------------------------------------------------
    const struct conf *platform() const { return conf_; }
    const char *file() const { return conf_file(conf_); }
    uint64_t seed() const { return seed_; }
    int cores() const { return (int)cores_.size(); }
    Core &core(int i) { return *cores_[(size_t)i]; }
    Xbar &xbar() { return *xbar_; }
    Fabric &fabric() { return *fabric_; }
    Memory *shared() { return shared_; } // named regions (plat_shared_map) live here
    // The memory plat_shared_alloc of core `core` uses.
    Memory *shared_of(int core)
    {
        return (size_t)core < core_mem_.size() && core_mem_[(size_t)core] ? core_mem_[(size_t)core]
                                                                          : shared_;
    }
    // The shared memory (set_shared or set_core_memory) holding p; NULL if none.
    Memory *shared_holding(const void *p);
    Memory *local(int i) { return locals_[(size_t)i]; }
    Engine &engine(int i) { return *engines_[(size_t)i]; }
    // The device called `name` of `type`; NULL if there is none.
    const Device *device(const char *name, const char *type) const;
    Net *net() { return net_; } // the first stream device (streams use one namespace)
    // The memory block (local or shared) whose allocations hold p; NULL if none.
    Memory *block_of(const void *p);

    // ---- threads ------------------------------------------------------------
    // The thread of the running process; stops the run if it is not one.
    Thread &current();
    void adopt(const sc_core::sc_process_handle &h, Thread *t);
    void forget(Thread *t);
    void entry_done();
    void (*entry)(void *);
    void *entry_arg;

    // ---- blocking and waking ------------------------------------------------
    // Sleep until a write touches [on, on+len) or until wake_ps (NEVER: no
    // timer). `what` names the call for the deadlock message.
    void block(Thread &t, const void *on, size_t len, const char *what, uint64_t wake_ps);
    // A block wrote [p, p+len): wake its watchers.
    void touched(const void *p, size_t len)
    {
        if (!watchers_.empty()) wake(p, len);
    }

    // ---- stopping -----------------------------------------------------------
    // Stop the run with a message; never returns to the caller's code.
    [[noreturn]] void fail(const char *fmt, ...) __attribute__((format(printf, 2, 3)));
    // The same, prefixed "ipcsim: core N (type): ".
    [[noreturn]] void misuse(const char *fmt, ...) __attribute__((format(printf, 2, 3)));
    const std::string &error() const { return error_; }
    bool finished() const { return live_ == 0; }
    // Who is still blocked, for the deadlock message.
    std::string blocked() const;

    // ---- named shared regions -------------------------------------------------
    std::map<std::string, Region> regions;

    // ---- traces -------------------------------------------------------------
    bool tracing = false; // cores log busy intervals
    void trace_vcd(sc_core::sc_trace_file *tf);

  private:
    [[noreturn]] void stop(const char *msg);
    void wake(const void *p, size_t len);

    static Top *top_;
    const struct conf *conf_;
    uint64_t seed_;
    std::vector<std::unique_ptr<sc_core::sc_module>> owned_;
    std::vector<Core *> cores_;
    std::vector<Memory *> locals_;
    std::vector<Engine *> engines_;
    Xbar *xbar_ = nullptr;
    Fabric *fabric_ = nullptr;
    Iobus *iobus_ = nullptr;
    Memory *shared_ = nullptr;
    std::vector<Memory *> core_mem_; // per core (set_core_memory); NULL: shared_
    std::vector<Memory *> mems_;     // the distinct memories of core_mem_, in order
    Net *net_ = nullptr;
    std::vector<Device> devices_;
    int shared_port_ = -1;

    // Lookups only (never iterated): process -> thread.
    std::unordered_map<const sc_core::sc_object *, Thread *> threads_;
    const sc_core::sc_object *last_proc_ = nullptr;
    Thread *last_thread_ = nullptr;
    std::vector<Thread *> watchers_; // in the order they started waiting
    int live_ = 0;                   // core entries still running
    std::string error_;
    sc_core::sc_event never_;
};

} // namespace ipcsim

#endif
