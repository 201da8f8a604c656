// kernel.cpp -- the run's kernel: blocks the glue reaches, threads, waking, stopping.
#include "kernel.h"
#include "core.h"
#include "fabric.h"
#include "memory.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <stdexcept>

using namespace sc_core;

namespace ipcsim
{

Kernel *Kernel::kernel_ = nullptr;

Kernel::Kernel(sc_module_name name, const std::string &file, uint64_t seed, void (*entry_)(void *),
               void *arg, const std::function<void(Kernel &)> &build)
    : sc_module(name), entry(entry_), entry_arg(arg), file_(file), seed_(seed)
{
    kernel_ = this;
    build(*this);
}

Kernel::~Kernel()
{
    if (kernel_ == this) kernel_ = nullptr;
}

void Kernel::add_core_blocks(Core *c, Memory *local, Engine *e)
{
    cores_.push_back(c);
    locals_.push_back(local);
    engines_.push_back(e);
    live_++;
}

const Device *Kernel::device(const char *name, const char *api) const
{
    for (const Device &d : devices_)
        if (d.name == name) return d.api == api ? &d : nullptr;
    return nullptr;
}

const Device *Kernel::first(const char *api) const
{
    for (const Device &d : devices_)
        if (d.api == api) return &d;
    return nullptr;
}

void Kernel::set_core_memory(int core, Memory *m)
{
    if ((size_t)core >= core_mem_.size()) core_mem_.resize((size_t)core + 1, nullptr);
    core_mem_[(size_t)core] = m;
    if (std::find(mems_.begin(), mems_.end(), m) == mems_.end()) mems_.push_back(m);
}

void Kernel::add_memory(const std::string &name, Memory *m)
{
    auto it =
        std::find_if(named_.begin(), named_.end(),
                     [&](const std::pair<std::string, Memory *> &e) { return e.first == name; });
    if (it != named_.end())
        it->second = m;
    else
        named_.emplace_back(name, m);
    if (std::find(mems_.begin(), mems_.end(), m) == mems_.end()) mems_.push_back(m);
}

Memory *Kernel::memory(const std::string &name) const
{
    for (const auto &e : named_)
        if (e.first == name) return e.second;
    return nullptr;
}

Memory *Kernel::shared_holding(const void *p)
{
    if (shared_ && shared_->holds(p)) return shared_;
    for (Memory *m : mems_)
        if (m->holds(p)) return m;
    return nullptr;
}

Memory *Kernel::block_of(const void *p)
{
    if (Memory *m = shared_holding(p)) return m;
    for (Memory *m : locals_)
        if (m && m->holds(p)) return m;
    return nullptr;
}

// ---- homes of shared memory ---------------------------------------------------------

// [p, p+n) as addresses; a range running past the top of the address space ends there.
static uintptr_t range_end(const void *p, size_t n)
{
    uintptr_t lo = (uintptr_t)p;
    return n > UINTPTR_MAX - lo ? UINTPTR_MAX : lo + n;
}

void Kernel::clear_home(const void *p, size_t n)
{
    uintptr_t lo = (uintptr_t)p, hi = range_end(p, n);
    if (hi <= lo) return;
    auto it = homes_.lower_bound(lo);
    if (it != homes_.begin()) {
        auto prev = std::prev(it);
        if (prev->second.end > lo) { // starts before lo and reaches into the range: keep its head
            Home h = prev->second;
            prev->second.end = lo;
            if (h.end > hi) { // the range is inside it: its tail stays too, nothing else overlaps
                homes_.emplace_hint(it, hi, h);
                return;
            }
        }
    }
    while (it != homes_.end() && it->first < hi) {
        if (it->second.end > hi) { // reaches past the range: keep its tail
            Home h = it->second;
            it = homes_.erase(it);
            homes_.emplace_hint(it, hi, h);
            return;
        }
        it = homes_.erase(it);
    }
}

void Kernel::set_home(const void *p, size_t n, int core)
{
    uintptr_t lo = (uintptr_t)p, hi = range_end(p, n);
    if (hi <= lo) return;
    clear_home(p, n);
    auto next = homes_.lower_bound(lo); // nothing in [lo, hi) any more
    if (next != homes_.end() && next->first == hi && next->second.core == core) {
        hi = next->second.end;
        next = homes_.erase(next);
    }
    if (next != homes_.begin()) {
        auto prev = std::prev(next);
        if (prev->second.end == lo && prev->second.core == core) {
            prev->second.end = hi;
            return;
        }
    }
    homes_.emplace_hint(next, lo, Home{hi, core});
}

// ---- threads ------------------------------------------------------------------

void Kernel::adopt(const sc_process_handle &h, Thread *t)
{
    t->proc = h.get_process_object();
    threads_[t->proc] = t;
}

void Kernel::forget(Thread *t)
{
    threads_.erase(t->proc);
    if (last_thread_ == t) last_proc_ = nullptr, last_thread_ = nullptr;
}

Thread &Kernel::current()
{
    // The raw process pointer: a process handle would take and drop a
    // reference on every plat_* call.
    const sc_object *o = sc_get_current_process_b();
    if (o && o == last_proc_) return *last_thread_;
    auto it = threads_.find(o);
    if (it == threads_.end())
        fail("ipcsim: a plat_* call outside the software of a simulated core (in %s)",
             o ? o->name() : "no process");
    last_proc_ = o;
    last_thread_ = it->second;
    return *it->second;
}

void Kernel::entry_done()
{
    if (--live_ == 0) sc_stop();
}

// ---- blocking and waking ----------------------------------------------------------

void Kernel::block(Thread &t, const void *on, size_t len, const char *what, uint64_t wake_ps)
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

void Kernel::wake(const void *p, size_t len)
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
void Kernel::stop(const char *msg)
{
    if (error_.empty()) {
        error_ = msg;
        sc_stop();
    }
    if (!sc_get_current_process_handle().valid()) throw std::runtime_error(error_);
    for (;;) wait(never_); // the run is over for this thread
}

void Kernel::fail(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    stop(msg);
}

void Kernel::misuse(const char *fmt, ...)
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

std::string Kernel::blocked() const
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

// ---- wait limits ------------------------------------------------------------------------

// "1.5 s", "20 us": a time in ps, three significant digits.
static std::string show_ps(double v)
{
    static const struct {
        double ps;
        const char *unit;
    } units[] = {{86400e12, "days"}, {3600e12, "h"}, {60e12, "min"}, {1e12, "s"},
                 {1e9, "ms"},        {1e6, "us"},    {1e3, "ns"}};
    char b[64];
    for (const auto &u : units)
        if (v >= u.ps) {
            snprintf(b, sizeof b, "%.3g %s", v / u.ps, u.unit);
            return b;
        }
    snprintf(b, sizeof b, "%.3g ps", v);
    return b;
}

int Kernel::timed_out(Thread &t, const char *call, uint64_t limit_ns)
{
    if (limit_ns < 1000000000ull || limit_ns == PLAT_FOREVER || noted_timeout_)
        return PLAT_ETIMEDOUT;
    noted_timeout_ = true;
    std::vector<const TimeParam *> times, rates;
    for (const TimeParam &p : time_params) (p.rate ? rates : times).push_back(&p);
    std::stable_sort(times.begin(), times.end(),
                     [](const TimeParam *a, const TimeParam *b) { return a->ps > b->ps; });
    std::stable_sort(rates.begin(), rates.end(),
                     [](const TimeParam *a, const TimeParam *b) { return a->ps > b->ps; });
    std::string longest, slowest;
    for (size_t i = 0; i < times.size() && i < 3; i++)
        longest += std::string(i ? ", " : "") + times[i]->key + " " + show_ps(times[i]->ps);
    for (size_t i = 0; i < rates.size() && i < 2; i++)
        slowest +=
            std::string(i ? ", " : "") + rates[i]->key + " (1 MB in " + show_ps(rates[i]->ps) + ")";
    fprintf(stderr,
            "ipcsim: core %d (%s) thread %s: %s gave up at its wait limit of %s (the app's "
            "timeout), at %s of simulated time. If the platform is that slow, look at its "
            "longest times: %s; slowest rates: %s\n",
            t.core->index, t.core->type.c_str(), t.name.c_str(), call,
            show_ps((double)limit_ns * 1e3).c_str(), show_ps((double)now_ps()).c_str(),
            longest.empty() ? "none" : longest.c_str(), slowest.empty() ? "none" : slowest.c_str());
    return PLAT_ETIMEDOUT;
}

void Kernel::trace_vcd(Vcd &vcd)
{
    for (Core *c : cores_) {
        c->busy.trace(vcd, std::string(c->name()) + ".busy");
        c->mark.trace(vcd, std::string(c->name()) + ".mark");
    }
    fabric_->trace(vcd);
}

} // namespace ipcsim
