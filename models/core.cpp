// core.cpp -- a simulated core: runs the entry, arbitrates its threads, rings.
#include "core.h"

#include <cstring>
#include <stdexcept>

using namespace sc_core;

namespace ipcsim
{

static const uint64_t GOLDEN = 0x9e3779b97f4a7c15ull;

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t must_cost(const CoreParams &p, const char *name, const char *file)
{
    for (const auto &c : p.costs)
        if (c.first == name) return c.second;
    throw std::runtime_error(std::string(file) + ": core.costs." + name +
                             " is missing (the sim backend charges it)");
}

Core::Core(sc_module_name name, Kernel &kernel, int i, const CoreParams &p)
    : sc_module(name), mem("mem"), io("io"), db("db"), index(i), type(p.type), caps(p.caps),
      clock_mhz(p.clock_mhz), local_latency_ns(p.local_latency_ns), kernel_(kernel),
      ps_per_cycle_(ps_per_cycle(p.clock_mhz, "clock_mhz")), costs_(p.costs),
      slice_ps_(ns_to_ps(p.timeslice_ns, "timeslice_ns"))
{
    switch_ps = cycles_ps(must_cost(p, "switch", kernel.file()));
    spawn_ps = cycles_ps(must_cost(p, "thread_spawn", kernel.file()));
    dma_setup_ps = cycles_ps(must_cost(p, "dma_setup", kernel.file()));
    doorbell_ps = cycles_ps(must_cost(p, "doorbell", kernel.file()));
    irq_ps = cycles_ps(must_cost(p, "irq", kernel.file()));
    local_ps = ns_to_ps(p.local_latency_ns, "local_latency_ns");
    db.register_b_transport(this, &Core::db_transport);

    // One stream per core from the run's seed and the core index: splitmix64,
    // seeded as the native backend does, so both give the same numbers.
    rng_ = mix64(kernel.seed() + GOLDEN * (uint64_t)(i + 1));

    main.core = this;
    main.name = "main";
    threads.push_back(&main);
    sc_spawn_options o;
    o.set_stack_size(THREAD_STACK);
    kernel.adopt(sc_spawn(sc_bind(&Core::run_main, this), "main", &o), &main);
}

Core::~Core() = default;

void Core::run_main()
{
    kernel_.entry(kernel_.entry_arg);
    unhold(main);
    main.done = true;
    kernel_.touched(&main.done, sizeof main.done);
    kernel_.forget(&main);
    kernel_.entry_done();
}

uint64_t Core::random()
{
    return mix64(rng_ += GOLDEN);
}

uint64_t Core::cost(const char *name)
{
    // Callers pass the same literal again and again: remember where it was.
    CostCache &c = cache_[((uintptr_t)name >> 3) % 16];
    if (c.key == name && costs_[c.at].first == name) return costs_[c.at].second;
    for (size_t i = 0; i < costs_.size(); i++)
        if (costs_[i].first == name) {
            c.key = name;
            c.at = i;
            return costs_[i].second;
        }
    kernel_.misuse("plat_cost: %s has no core.costs.%s", kernel_.file(), name);
}

void Core::set_busy(bool b)
{
    busy.set(b);
    if (!kernel_.tracing) return;
    uint64_t now = now_ps();
    if (b) {
        if (!busy_log.empty() && busy_log.back().second == now)
            busy_log.back().second = NEVER; // continues the interval that just ended
        else
            busy_log.emplace_back(now, NEVER);
    } else {
        busy_log.back().second = now;
    }
}

void Core::acquire(Thread &t)
{
    if (slice_ps_ && owner_ == &t) return; // still in its time slice: no switch, no queue
    if (!owner_ && !qhead_) {
        owner_ = &t;
    } else {
        t.next = nullptr;
        if (qtail_)
            qtail_->next = &t;
        else
            qhead_ = &t;
        qtail_ = &t;
        const char *was = t.what;
        t.what = "waiting for its core (another thread of the core holds it)";
        while (owner_ != &t) wait(t.ev);
        t.what = was;
    }
    if (!busy) set_busy(true);
    if (last_ >= 0 && last_ != t.id) {
        last_ = t.id;
        if (switch_ps) wait(ps(switch_ps));
    }
    last_ = t.id;
    if (slice_ps_) slice_end_ = now_ps() + slice_ps_;
}

void Core::release(Thread &)
{
    // With a time slice the holder keeps the core between its transactions
    // (an OS thread runs until it blocks or its slice ends) unless another
    // thread waits and the slice is over.
    if (slice_ps_ && (!qhead_ || now_ps() < slice_end_)) return;
    hand_over();
}

void Core::unhold(Thread &t)
{
    if (slice_ps_ && owner_ == &t) hand_over();
}

bool Core::yield(Thread &t)
{
    if (!slice_ps_ || !qhead_) return false;
    unhold(t); // the waiter pays the switch when it takes the core
    return true;
}

void Core::hand_over()
{
    owner_ = qhead_;
    if (qhead_) {
        qhead_ = qhead_->next;
        if (!qhead_) qtail_ = nullptr;
        owner_->ev.notify(); // handed over: the core stays busy
    } else {
        set_busy(false);
    }
}

void Core::work(Thread &t, uint64_t d)
{
    acquire(t);
    if (d) wait(ps(d));
    release(t);
}

tlm::tlm_generic_payload &Core::payload(Thread &t, int op, tlm::tlm_command cmd, const void *addr,
                                        const void *data, size_t len)
{
    t.ext().reset(op);
    t.ext().core = index;
    gp_set(t.gp, cmd == tlm::TLM_READ_COMMAND, addr, data, len);
    return t.gp;
}

void Core::issue(Thread &t, bool on_io)
{
    sc_time delay = SC_ZERO_TIME;
    if (on_io)
        io->b_transport(t.gp, delay);
    else
        mem->b_transport(t.gp, delay);
    if (delay != SC_ZERO_TIME) wait(delay);
}

void Core::transport_after(Thread &t, uint64_t pre, bool on_io)
{
    acquire(t);
    if (pre) wait(ps(pre));
    issue(t, on_io);
    release(t);
}

void Core::transport(Thread &t, bool on_io)
{
    transport_after(t, 0, on_io);
}

void Core::db_transport(tlm::tlm_generic_payload &gp, sc_time &delay)
{
    if (delay != SC_ZERO_TIME) wait(delay);
    delay = SC_ZERO_TIME;
    uint32_t bits = 0;
    memcpy(&bits, gp.get_data_ptr(), std::min<size_t>(sizeof bits, gp.get_data_length()));
    raise(bits);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

void Core::raise(uint32_t bits)
{
    db_pending |= bits;
    kernel_.touched(&db_pending, sizeof db_pending);
}

} // namespace ipcsim
