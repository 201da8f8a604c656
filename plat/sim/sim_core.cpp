// sim_core.cpp -- who am I, time, work and threads on simulated cores.
#include "sim.h"

#include <cstdio>
#include <cstring>

using namespace sc_core;

namespace ipcsim
{

static Core &core_at(int i, const char *call)
{
    if (i < 0 || i >= kernel().cores())
        kernel().misuse("%s: no core %d (the run has %d)", call, i, kernel().cores());
    return kernel().core(i);
}

int sim_core(void)
{
    return self().core->index;
}
int sim_cores(void)
{
    return kernel().cores();
}
const char *sim_core_type(int core)
{
    return core_at(core, "plat_core_type").type.c_str();
}
unsigned sim_core_caps(int core)
{
    return core_at(core, "plat_core_caps").caps;
}
double sim_core_clock_mhz(int core)
{
    return core_at(core, "plat_core_clock_mhz").clock_mhz;
}

int sim_core_node(int core)
{
    core_at(core, "plat_core_node");
    return 0; // every core reaches every region of the run
}
int sim_core_addr(int core, char *buf, size_t len)
{
    if (core < 0 || core >= kernel().cores()) return PLAT_EINVAL;
    // The network model keys listeners by port alone; the host names the core.
    int k = snprintf(buf, len, "core%d:%d", core, 10000 + core);
    return k > 0 && (size_t)k < len ? PLAT_OK : PLAT_ENOMEM;
}

void **sim_core_slot(enum plat_slot slot)
{
    Thread &t = self();
    if ((unsigned)slot >= PLAT_SLOTS) kernel().misuse("plat_core_slot: no slot %d", (int)slot);
    return &t.core->slots[slot];
}

void **sim_thread_slot(enum plat_slot slot)
{
    Thread &t = self();
    if ((unsigned)slot >= PLAT_SLOTS) kernel().misuse("plat_thread_slot: no slot %d", (int)slot);
    return &t.slots[slot];
}

uint64_t sim_random(void)
{
    return self().core->random();
}

// A loop on calls that take no time would never let simulated time move:
// stop it instead of hanging the host.
static const uint64_t MAX_SPINS = 10000000;

static void spin(Thread &t, const char *call)
{
    uint64_t now = now_ps();
    if (now != t.spin_at) {
        t.spin_at = now;
        t.spins = 0;
    } else if (++t.spins == MAX_SPINS) {
        kernel().misuse(
            "%s called %llu times without simulated time moving: a loop that waits must "
            "wait through the platform (plat_sleep_ns > 0, plat_poll64, ...)",
            call, (unsigned long long)MAX_SPINS);
    }
}

uint64_t sim_now_ns(void)
{
    Thread &t = self();
    spin(t, "plat_now_ns");
    return now_ps() / 1000;
}

void sim_sleep_ns(uint64_t ns)
{
    Thread &t = self();
    if (ns == 0) { // does not wait
        spin(t, "plat_sleep_ns(0)");
        return;
    }
    uint64_t dl = deadline_ps(ns);
    while (sleep_on(t, nullptr, "plat_sleep_ns", dl)) {
    }
}

uint64_t sim_cost(const char *name)
{
    return self().core->cost(need(name, "plat_cost"));
}

void sim_work_cycles(uint64_t cycles)
{
    Thread &t = self();
    t.core->work(t, t.core->cycles_ps(cycles));
}

void sim_mark(int on)
{
    self().core->mark.set(on != 0);
}

void sim_yield(void)
{
    Thread &t = self();
    if (t.core->yield(t)) return;
    t.core->work(t, t.core->switch_ps);
}

// ---- threads ---------------------------------------------------------------------

static void thread_main(Thread *th)
{
    th->fn(th->arg);
    th->core->unhold(*th);
    th->done = true;
    kernel().touched(&th->done, sizeof th->done);
    kernel().forget(th);
}

plat_thread *sim_thread_spawn_on(int core, void (*fn)(void *), void *arg, const char *name)
{
    Thread &t = self();
    need(fn, "plat_thread_spawn");
    Core &c = core_at(core, "plat_thread_spawn_on");
    if (!(c.caps & PLAT_CAP_THREADS)) return nullptr;
    t.core->work(t, t.core->spawn_ps); /* the creator pays, as for a thread of its own */
    Thread *th = new Thread;
    th->core = &c;
    th->id = c.next_thread;
    th->name = name ? name : "thread" + std::to_string(c.next_thread);
    th->fn = fn;
    th->arg = arg;
    sc_spawn_options o;
    o.set_stack_size(THREAD_STACK);
    std::string pname = "t" + std::to_string(c.next_thread++);
    kernel().adopt(sc_spawn(sc_bind(&thread_main, th), pname.c_str(), &o), th);
    c.threads.push_back(th);
    return (plat_thread *)th;
}

void sim_thread_join(plat_thread *pt)
{
    Thread &t = self();
    Thread *th = (Thread *)need(pt, "plat_thread_join");
    if (th == &t) kernel().misuse("plat_thread_join: a thread cannot join itself");
    while (!th->done) kernel().block(t, &th->done, sizeof th->done, "plat_thread_join", NEVER);
    auto &v = th->core->threads;
    for (size_t i = 0; i < v.size(); i++)
        if (v[i] == th) {
            v.erase(v.begin() + (long)i);
            break;
        }
    delete th;
}

// A simulated core cannot end the host process (the run is one process for
// every core, and ipcsim must still write its report): the run fails with
// the message, naming the core, and plat_run returns it.
void sim_abort(int code, const char *msg)
{
    size_t n = strlen(msg);
    while (n && msg[n - 1] == '\n') n--;
    kernel().misuse("%.*s (plat_abort, exit code %d)", (int)n, msg, code);
}

} // namespace ipcsim
