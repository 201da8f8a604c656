/*
 * plat/sim/sim.h -- the sim backend's glue from plat_* calls to the models
 * (internal).
 *
 * Each plat_* call finds the calling software thread from the running
 * SystemC process (Kernel::current), then either charges work on its core, or
 * issues a transaction on the core's socket, or sleeps on a watched address
 * (idle) and retries. Waiting never spins in host time.
 */
#ifndef IPCSIM_PLAT_SIM_H
#define IPCSIM_PLAT_SIM_H

#include "../ops.h"

#include "../../models/core.h"
#include "../../models/kernel.h"

extern "C" const struct plat_ops plat_sim_ops;

namespace ipcsim
{

#define SIM_DECL(ret, name, params, args) ret sim_##name params;
#define SIM_DECL_V(name, params, args) void sim_##name params;
PLAT_OPS(SIM_DECL, SIM_DECL_V)
#undef SIM_DECL
#undef SIM_DECL_V
// plat_abort: fail the run with msg, naming the calling core.
[[noreturn]] void sim_abort(int code, const char *msg);

inline Kernel &kernel()
{
    return *Kernel::get();
}
inline Thread &self()
{
    return Kernel::get()->current();
}

// A NULL object is misuse: stop the run naming the call.
template <class T> inline T *need(T *p, const char *call)
{
    if (!p) kernel().misuse("%s: NULL argument", call);
    return p;
}

// Sleep until `on` is written or the deadline; false once it has passed.
inline bool sleep_on(Thread &t, const void *on, const char *what, uint64_t deadline,
                     uint64_t wake = NEVER)
{
    if (now_ps() >= deadline) return false;
    kernel().block(t, on, 1, what, wake < deadline ? wake : deadline);
    return true;
}

// One 64-bit access or atomic at p, on behalf of the calling thread.
uint64_t sim_access(Thread &t, int op, tlm::tlm_command cmd, const void *p, uint64_t a, uint64_t b);

} // namespace ipcsim

#endif
