/*
 * models/core.h -- a simulated core: an initiator that runs host-compiled C.
 *
 * The core's entry function runs in an SC_THREAD; threads spawned with
 * plat_thread_spawn are more SC_THREADs on the same core. The core itself is
 * a resource: a thread holds it while it does charged work or one of its
 * transactions (the core is "busy"), and releases it while it waits for
 * something (the core is "idle" unless another of its threads runs). Handing
 * the core to a different thread than the one that last ran costs the
 * core's costs.switch cycles.
 *
 * Time slices (core.timeslice_ns > 0, an OS-scheduled core): a thread that
 * got the core keeps it across its transactions and charged work until it
 * blocks (Kernel::block: a watched write, a sleep, a join), yields with another
 * thread waiting, ends, or its slice is over while another thread waits (the
 * slice is checked when the holder's transaction or work ends). Without a
 * slice the core goes to the next waiting thread after every transaction.
 *
 * Sockets:
 *   mem   initiator, to the crossbar (memories, doorbells, hwq, accel)
 *   io    initiator, to the device bus (mesh, network)
 *   db    target, from the crossbar: the doorbell register. A write ORs its
 *         bits into the pending mask.
 */
#ifndef IPCSIM_MODELS_CORE_H
#define IPCSIM_MODELS_CORE_H

#include "proto.h"
#include "kernel.h"
#include "vcd.h"

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <string>
#include <vector>

namespace ipcsim
{

// Parameters of one core, from the platform file.
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

// A software thread on a core (the entry, or one from plat_thread_spawn).
struct Thread {
    Core *core = nullptr;
    int id = 0; // 0 for the entry, then 1, 2... in spawn order on its core
    const sc_core::sc_object *proc = nullptr; // its SystemC process
    std::string name;
    void *slots[PLAT_SLOTS] = {};
    sc_core::sc_event ev;   // wakes this thread: core handed over, watched write
    Thread *next = nullptr; // in the core's queue of threads waiting for it
    // What it watches while blocked, and the call it blocks in.
    const void *watch = nullptr;
    size_t watch_len = 0;
    const char *what = nullptr;
    bool done = false;
    void (*fn)(void *) = nullptr;
    void *arg = nullptr;
    // plat_now_ns calls without simulated time moving (a busy loop).
    uint64_t spin_at = 0, spins = 0;
    // Its transactions (reused; the payload owns the extension). Per thread:
    // a thread may fill it while another thread of the core holds the core.
    tlm::tlm_generic_payload gp;
    OpExt &ext() { return *ext_; }

    Thread() : ext_(new OpExt) { gp.set_extension(ext_); }
    Thread(const Thread &) = delete;
    Thread &operator=(const Thread &) = delete;

  private:
    OpExt *ext_;
};

class Core : public sc_core::sc_module
{
  public:
    tlm_utils::simple_initiator_socket<Core> mem;
    tlm_utils::simple_initiator_socket<Core> io;
    tlm_utils::simple_target_socket<Core> db;

    Core(sc_core::sc_module_name name, Kernel &kernel, int index, const CoreParams &p);
    ~Core() override;

    const int index;
    const std::string type;
    const unsigned caps;
    const double clock_mhz;
    const double local_latency_ns;

    // ---- costs --------------------------------------------------------------
    uint64_t cycles_ps(uint64_t cycles) const { return bytes_ps(cycles, ps_per_cycle_, "cycles"); }
    // core.costs.<name> in cycles; stops the run if the table lacks it.
    uint64_t cost(const char *name);
    // The costs the backend charges itself, in ps.
    uint64_t switch_ps, spawn_ps, dma_setup_ps, doorbell_ps, irq_ps;
    uint64_t local_ps; // one access to the core's private/local memory (register reads)

    // ---- the core as a resource ---------------------------------------------
    void acquire(Thread &t);
    void release(Thread &t);
    // Time slices: give the core up if t still holds it (t blocks or ends).
    void unhold(Thread &t);
    // plat_yield with a time slice: true if another thread waits (t gave the
    // core up to it); false: charge the yield as work.
    bool yield(Thread &t);
    // Charged work: busy for `d` ps.
    void work(Thread &t, uint64_t d);
    // Fill the thread's payload for one transaction.
    tlm::tlm_generic_payload &payload(Thread &t, int op, tlm::tlm_command cmd, const void *addr,
                                      const void *data, size_t len);
    // Issue it on `mem` (or `io`) with the core held (busy).
    void transport(Thread &t, bool on_io = false);
    // The same, with `pre` ps of work first while the core is held.
    void transport_after(Thread &t, uint64_t pre, bool on_io = false);
    // Just the transaction, for a caller that holds the core (acquire/release).
    void issue(Thread &t, bool on_io = false);

    // ---- doorbell -----------------------------------------------------------
    uint32_t db_reg = 0;     // the register rings write to (its address decodes here)
    uint32_t db_pending = 0; // bits rung and not yet taken
    // An interrupt line from a block of the core's own tile (its DMA engine).
    void raise(uint32_t bits);

    // ---- per-core state -------------------------------------------------------
    void *slots[PLAT_SLOTS] = {};
    uint64_t random();
    std::vector<unsigned char> bounce; // staging for core copies between remote blocks
    // Its kind put a data-cache model in front of `mem`: plat_touch then
    // sends OP_STREAM (the model knows its line), else a plain read.
    bool dcache = false;
    Thread main;
    std::vector<Thread *> threads; // main first, then spawned ones in spawn order
    int next_thread = 1;           // id of the next spawned thread

    // ---- traces ---------------------------------------------------------------
    Bit busy;                                            // traced: held by one of its threads
    Bit mark;                                            // traced: plat_mark, the program's own bit
    std::vector<std::pair<uint64_t, uint64_t>> busy_log; // [start, end) ps when tracing

  private:
    void run_main();
    void db_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    void set_busy(bool b);
    void hand_over(); // to the first waiting thread, or the core goes idle

    Kernel &kernel_;
    double ps_per_cycle_;
    std::vector<std::pair<std::string, uint64_t>> costs_;
    struct CostCache {
        const char *key = nullptr;
        size_t at = 0;
    } cache_[16];
    uint64_t rng_;
    Thread *owner_ = nullptr;
    int last_ = -1;                              // id of the thread that held the core last
    Thread *qhead_ = nullptr, *qtail_ = nullptr; // waiting for the core, FIFO
    uint64_t slice_ps_;                          // core.timeslice_ns; 0: none
    uint64_t slice_end_ = 0;                     // when the holder's slice is over
};

// A core thread's stack: big enough for library code (ASan frames are larger).
#if defined(__SANITIZE_ADDRESS__)
constexpr int THREAD_STACK = 4 << 20;
#else
constexpr int THREAD_STACK = 1 << 20;
#endif

} // namespace ipcsim

#endif
