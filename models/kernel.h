/*
 * models/kernel.h -- the run's kernel: what the blocks and the plat_* glue
 * (plat/sim) share while a simulation runs.
 *
 *   - the blocks the glue reaches: each core with its local memory and DMA
 *     engine, the interconnect, the shared memories, the named devices;
 *   - software threads: Kernel keeps a map from the running SystemC process
 *     to its Thread, never a thread-local, because every simulated core runs
 *     on one host thread;
 *   - blocking and waking: a thread that waits for a condition (a polled
 *     word, a doorbell, a queue) watches an address and sleeps on its own
 *     sc_event; every write a block performs calls touched(), which wakes
 *     the threads watching it;
 *   - stopping: errors and the deadlock report; named shared regions; the
 *     hooks traces use.
 *
 * Building a platform out of blocks is not the kernel's job: a platform
 * kind (kinds/) creates the blocks inside the kernel (as its children, so
 * they are named top.<block>) and registers here what the glue needs.
 */
#ifndef IPCSIM_MODELS_KERNEL_H
#define IPCSIM_MODELS_KERNEL_H

#include "proto.h"

#include "ipcsim/plat.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace ipcsim
{

class Core;
class Memory;
class Engine;
class Fabric;
class Vcd;
struct Thread;

// A named device: what plat_<api>_open(name) finds. `api` is the plat.h
// device it implements (hwq, mesh, accel, stream); `block` the model behind
// it, of the class the glue of that api expects (Hwq, Mesh, Accel, Net).
struct Device {
    std::string name, api;
    sc_core::sc_module *block = nullptr;
};

// A named shared region (plat_shared_map).
struct Region {
    void *p = nullptr;
    size_t size = 0;
    int refs = 0;
};

class Kernel : public sc_core::sc_module
{
  public:
    // build(*this) creates the platform's blocks as children of the kernel.
    Kernel(sc_core::sc_module_name name, const std::string &file, uint64_t seed,
           void (*entry)(void *), void *arg, const std::function<void(Kernel &)> &build);
    ~Kernel() override;

    // The run's one kernel (SystemC runs one simulation per process).
    static Kernel *get() { return kernel_; }

    // ---- registering the blocks (while building) -------------------------------
    // Take ownership of a block.
    template <class M> M *own(M *m)
    {
        owned_.emplace_back(m);
        return m;
    }
    // The interconnect the glue asks whether an address is near a core.
    void set_fabric(Fabric *f) { fabric_ = f; }
    // Core i's blocks, in core order (local may be NULL; e NULL: set_engine
    // gives it one before the run).
    void add_core_blocks(Core *c, Memory *local, Engine *e);
    // Core i's engine is e (one engine several cores share).
    void set_engine(int i, Engine *e) { engines_[(size_t)i] = e; }
    // The shared memory: named regions (plat_shared_map) live here. It is
    // also the named memory "shared" (plat_mem_alloc).
    void set_shared(Memory *m)
    {
        shared_ = m;
        add_memory("shared", m);
    }
    // A memory every core reaches, by the name plat_mem_alloc gives (a
    // second on-chip SRAM beside the DRAM); it counts as shared memory. A
    // later call for a name replaces the memory it names.
    void add_memory(const std::string &name, Memory *m);
    // Core `core`'s plat_shared_alloc memory when it is not the shared
    // memory (a NUMA chip: each core group's own memory behind its own
    // controller). Every such memory counts as shared memory.
    void set_core_memory(int core, Memory *m);
    void add_device(const Device &d) { devices_.push_back(d); }

    // ---- the blocks -----------------------------------------------------------
    const char *file() const { return file_.c_str(); } // the platform file
    uint64_t seed() const { return seed_; }
    int cores() const { return (int)cores_.size(); }
    Core &core(int i) { return *cores_[(size_t)i]; }
    Fabric &fabric() { return *fabric_; }
    Memory *shared() { return shared_; }
    // The memory plat_shared_alloc of core `core` uses.
    Memory *shared_of(int core)
    {
        return (size_t)core < core_mem_.size() && core_mem_[(size_t)core] ? core_mem_[(size_t)core]
                                                                          : shared_;
    }
    // The memory called `name` (add_memory); NULL if the platform has none.
    Memory *memory(const std::string &name) const;
    // The shared memory (set_shared, set_core_memory or add_memory) holding p; NULL if none.
    Memory *shared_holding(const void *p);
    Memory *local(int i) { return locals_[(size_t)i]; }
    Engine &engine(int i) { return *engines_[(size_t)i]; }
    // The device called `name` if it implements `api`; NULL if there is none.
    const Device *device(const char *name, const char *api) const;
    // The first device implementing `api` (streams share one namespace).
    const Device *first(const char *api) const;
    // The memory block (local or shared) whose allocations hold p; NULL if none.
    Memory *block_of(const void *p);

    // ---- threads ----------------------------------------------------------------
    // The thread of the running process; stops the run if it is not one.
    Thread &current();
    void adopt(const sc_core::sc_process_handle &h, Thread *t);
    void forget(Thread *t);
    void entry_done();
    void (*entry)(void *);
    void *entry_arg;

    // ---- blocking and waking ----------------------------------------------------
    // Sleep until a write touches [on, on+len) or until wake_ps (NEVER: no
    // timer). `what` names the call for the deadlock message.
    void block(Thread &t, const void *on, size_t len, const char *what, uint64_t wake_ps);
    // A block wrote [p, p+len): wake its watchers.
    void touched(const void *p, size_t len)
    {
        if (!watchers_.empty()) wake(p, len);
    }

    // ---- stopping -----------------------------------------------------------------
    // Stop the run with a message; never returns to the caller's code.
    [[noreturn]] void fail(const char *fmt, ...) __attribute__((format(printf, 2, 3)));
    // The same, prefixed "ipcsim: core N (type): ".
    [[noreturn]] void misuse(const char *fmt, ...) __attribute__((format(printf, 2, 3)));
    const std::string &error() const { return error_; }
    bool finished() const { return live_ == 0; }
    // Who is still blocked, for the deadlock message.
    std::string blocked() const;

    // ---- wait limits ----------------------------------------------------------------
    // A time of the platform file: its key, its value as written, what one
    // event of it takes (ps) or, for a rate, what one MB takes.
    struct TimeParam {
        std::string key;
        double value = 0;
        double ps = 0;
        bool rate = false;
    };
    // The platform's times (a kind registers them while building): what a
    // note on an expired wait limit points to.
    std::vector<TimeParam> time_params;
    // t's `call` gave up at its limit of limit_ns: for a limit of a second
    // or more (an app's safety net, not a poll) say once on stderr which
    // limit it was and the platform's longest times and slowest rates,
    // the parameters that made the wait that long. Returns PLAT_ETIMEDOUT.
    int timed_out(Thread &t, const char *call, uint64_t limit_ns);

    // ---- named shared regions -------------------------------------------------------
    std::map<std::string, Region> regions;

    // ---- homes of shared memory (plat_shared_home) ----------------------------------
    // On a platform whose memory is split among boards, the interconnect asks
    // where an address lives; on one with one memory nobody asks.
    // Record that [p, p+n) lives with core `core` (plat_shared_home); later calls win on overlap.
    void set_home(const void *p, size_t n, int core);
    // The core whose memory holds p by plat_shared_home, or -1 if no call placed it.
    int home_of(const void *p) const
    {
        uintptr_t a = (uintptr_t)p;
        auto it = homes_.upper_bound(a); // the first range starting after a
        if (it == homes_.begin()) return -1;
        --it;
        return a < it->second.end ? it->second.core : -1;
    }
    // Forget the homes inside [p, p+n) (the memory was freed or unmapped).
    void clear_home(const void *p, size_t n);

    // ---- traces ---------------------------------------------------------------------
    bool tracing = false; // cores log busy intervals
    // Hand every traced signal (cores, the interconnect) to the VCD.
    void trace_vcd(Vcd &vcd);

  private:
    [[noreturn]] void stop(const char *msg);
    void wake(const void *p, size_t len);

    static Kernel *kernel_;
    std::string file_;
    uint64_t seed_;
    std::vector<std::unique_ptr<sc_core::sc_module>> owned_;
    std::vector<Core *> cores_;
    std::vector<Memory *> locals_;
    std::vector<Engine *> engines_;
    Fabric *fabric_ = nullptr;
    Memory *shared_ = nullptr;
    std::vector<Memory *> core_mem_; // per core (set_core_memory); NULL: shared_
    std::vector<Memory *> mems_;     // the distinct memories of core_mem_ and named_, in order
    std::vector<std::pair<std::string, Memory *>> named_; // add_memory, in order
    std::vector<Device> devices_;
    // Homes: disjoint ranges [start, end) keyed by start; neighbours of one
    // core are merged, so a rank's homed lines stay one range each.
    struct Home {
        uintptr_t end;
        int core;
    };
    std::map<uintptr_t, Home> homes_;

    // Lookups only (never iterated): process -> thread.
    std::unordered_map<const sc_core::sc_object *, Thread *> threads_;
    const sc_core::sc_object *last_proc_ = nullptr;
    Thread *last_thread_ = nullptr;
    std::vector<Thread *> watchers_; // in the order they started waiting
    int live_ = 0;                   // core entries still running
    std::string error_;
    sc_core::sc_event never_;
    bool noted_timeout_ = false; // timed_out said it once
};

} // namespace ipcsim

#endif
