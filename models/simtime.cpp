// simtime.cpp -- the failure of a time conversion (simtime.h).
#include "kernel.h"

#include <cstdio>
#include <stdexcept>

namespace ipcsim
{

void time_fail(const char *what, double value, const char *unit, const char *limit)
{
    // The block under construction, or the process running (a core's
    // thread calling through the blocks, or a block's own process).
    const sc_core::sc_object *o = sc_core::sc_get_current_object();
    char msg[768];
    snprintf(msg, sizeof msg, "%s: %s is %g %s, out of the simulator's range: %s",
             o ? o->name() : "top", what, value, unit, limit);
    Kernel *k = Kernel::get();
    if (k && sc_core::sc_get_current_process_handle().valid()) k->fail("ipcsim: %s", msg);
    // While building (no process yet): plat_run's catch prefixes "ipcsim: ".
    throw std::range_error(msg);
}

} // namespace ipcsim
