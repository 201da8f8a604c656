// run.cpp -- plat_check, plat_run, plat_kinds (run.h) and the sim's sc_main.
//
// A sim run: check the file, describe its cores, install the sim backend,
// build the kind's blocks inside sc_main (called through sc_elab_and_sim,
// as libsystemc's own main would), simulate until every core's entry has
// returned, then report why not if the simulation ran out of events first.
#include "kind.h"
#include "tick.h"
#include "trace.h"

#include "../plat/sim/sim.h"
#include "ipcsim/run.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

#if defined(__SANITIZE_ADDRESS__)
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>
#endif

using namespace sc_core;
using namespace ipcsim;

#if defined(__SANITIZE_ADDRESS__)
// SystemC's coroutines tell ASan about their stack switches, yet the run
// comes back to this thread's stack with ASan believing it is still on the
// last coroutine's: LeakSanitizer would then miss every pointer held on this
// stack (and report the caller's live objects as leaks). Tell it again.
static void asan_own_stack()
{
    pthread_attr_t a;
    void *lo = nullptr;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &a) != 0) return;
    pthread_attr_getstack(&a, &lo, &size);
    pthread_attr_destroy(&a);
    void *fake = nullptr;
    __sanitizer_start_switch_fiber(&fake, lo, size);
    __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
}
#else
static void asan_own_stack() {}
#endif

namespace
{

// What plat_run hands sc_main, and what comes back (one sim run per process).
struct SimRun {
    const struct plat_run *r = nullptr;
    const PlatKind *kind = nullptr;
    std::string err;
    bool ok = false;
} sim;

Kernel *top_keep; // SystemC cannot tear a platform down safely: it lives to the end

void say(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void say(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || !errlen) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

const PlatKind *kind_of(const struct conf *c, char *err, size_t errlen)
{
    const struct conf_node *n = conf_get(conf_root(c), "platform");
    const char *name = conf_text(n);
    if (!name) {
        say(err, errlen, "%s:1: missing required key 'platform' (the platform kind)", conf_file(c));
        return nullptr;
    }
    const PlatKind *k = kind_find(name);
    if (!k) {
        std::string known;
        for (size_t i = 0; kinds[i]; i++) known += std::string(i ? ", " : "") + kinds[i]->name;
        say(err, errlen, "%s:%d: unknown platform kind '%s' (known: %s)", conf_file(c),
            conf_line(n), name, known.c_str());
    }
    return k;
}

} // namespace

extern "C" int plat_check(const struct conf *platform, char *err, size_t errlen)
{
    if (!platform) {
        say(err, errlen, "plat_check: no platform");
        return -1;
    }
    const PlatKind *k = kind_of(platform, err, errlen);
    if (!k) return -1;
    if (conf_check(platform, conf_root(platform), "", k->rules, err, errlen)) return -1;
    return k->check(platform, err, errlen);
}

extern "C" int plat_core_count(const struct conf *platform)
{
    char err[8];
    if (!platform || plat_check(platform, err, sizeof err)) return -1;
    return (int)kind_of(platform, nullptr, 0)->describe(platform).size();
}

extern "C" const char *const *plat_kinds(void)
{
    static std::vector<const char *> names;
    if (names.empty()) {
        for (size_t i = 0; kinds[i]; i++) names.push_back(kinds[i]->name);
        names.push_back(nullptr);
    }
    return names.data();
}

// SystemC's messages go to stderr: stdout belongs to the program (CSV...).
// A message a run repeats (one per timestep, say) must not flood it: each
// message id is shown SHOWN_MAX times, then once a line that the rest are not.
static void report_to_stderr(const sc_report &rep, const sc_actions &actions)
{
    constexpr int SHOWN_MAX = 3;
    static std::map<std::string, int> shown;
    if (actions & SC_DISPLAY) {
        int n = ++shown[rep.get_msg_type()];
        if (n <= SHOWN_MAX) fprintf(stderr, "%s\n", sc_report_compose_message(rep).c_str());
        if (n == SHOWN_MAX)
            fprintf(stderr, "ipcsim: SystemC: further '%s' messages are not shown\n",
                    rep.get_msg_type());
    }
    sc_report_handler::default_handler(rep, actions & ~SC_DISPLAY);
}

int sc_main(int, char *[])
{
    const struct plat_run *r = sim.r;
    sc_report_handler::set_handler(report_to_stderr);
    sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING); // "simulation stopped by user"
    Trace *tr = nullptr;
    try {
        const struct conf *c = r->platform;
        const PlatKind *k = sim.kind;
        top_keep = new Kernel("top", conf_file(c), r->seed, r->entry, r->arg, [c, k](Kernel &kern) {
            Build b(kern);
            k->build(b, c);
        });
        if (r->trace && !(tr = trace_open(*top_keep, *r->trace, sim.err))) {
            sim.err = "ipcsim: " + sim.err;
            return 1;
        }
        tick_start(r->tick, r->tick_arg);
        sc_set_stop_mode(SC_STOP_IMMEDIATE); // an error stops every core at once
        sc_start();
        tick_stop();
        uint64_t end = now_ps();
        if (!top_keep->error().empty()) {
            sim.err = top_keep->error();
        } else if (!top_keep->finished()) {
            char at[64];
            snprintf(at, sizeof at, "%.3f", end / 1e3);
            sim.err = std::string("ipcsim: deadlock: the simulation ran out of events at ") + at +
                      " ns with cores still running: " + top_keep->blocked();
        } else {
            sim.ok = true;
        }
        if (tr) {
            std::string terr;
            if (trace_close(tr, *top_keep, end, sim.ok, terr) && sim.ok) {
                sim.ok = false;
                sim.err = "ipcsim: trace: " + terr;
            }
        }
    } catch (const sc_report &e) {
        sim.err = std::string("ipcsim: SystemC: ") + e.what();
    } catch (const std::exception &e) {
        sim.err = std::string("ipcsim: ") + e.what();
    }
    return sim.ok ? 0 : 1;
}

static int run_sim(const struct plat_run *r, const PlatKind *k, char *err, size_t errlen)
{
    static bool used;
    if (used) {
        say(err, errlen,
            "plat_run: this process already ran a simulation and SystemC cannot run another: "
            "start each sim run in a new process");
        return -1;
    }
    used = true;
    sim.r = r;
    sim.kind = k;
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1); // keep stdout for the caller
    plat_use(&plat_sim_ops);
    char name[] = "ipcsim";
    char *argv[] = {name, nullptr};
    sc_elab_and_sim(1, argv);
    asan_own_stack();
    plat_use(nullptr);
    if (!sim.ok) {
        say(err, errlen, "%s", sim.err.empty() ? "ipcsim: the simulation failed" : sim.err.c_str());
        return -1;
    }
    return 0;
}

extern "C" int plat_run(const struct plat_run *r, char *err, size_t errlen)
{
    if (!r || !r->platform || !r->entry) {
        say(err, errlen, "plat_run: needs a platform and an entry function");
        return -1;
    }
    if (plat_check(r->platform, err, errlen)) return -1;
    const PlatKind *k = kind_of(r->platform, err, errlen);
    std::vector<plat_core_desc> cores = k->describe(r->platform);
    if (r->backend == PLAT_NATIVE) {
        if (r->trace) {
            say(err, errlen,
                "plat_run: traces come from the simulation's models: the native backend "
                "cannot write one");
            return -1;
        }
        DevDescs devs;
        if (k->devices)
            k->devices(r->platform, devs);
        else
            describe_devices(r->platform, devs);
        return plat_native_run(r, cores.data(), (int)cores.size(), devs.devs.data(),
                               (int)devs.devs.size(), err, errlen);
    }
    if (r->backend != PLAT_SIM) {
        say(err, errlen, "plat_run: unknown backend %d", (int)r->backend);
        return -1;
    }
    return run_sim(r, k, err, errlen);
}
