/*
 * kinds/tick.h -- a call at the end of every timestep of the simulation, for
 * a progress line (plat_run's tick): how far simulated time has come.
 */
#ifndef IPCSIM_KINDS_TICK_H
#define IPCSIM_KINDS_TICK_H

#include <cstdint>

namespace ipcsim
{

// Before sc_start: call fn(arg, now_ps) after every timestep until tick_stop.
void tick_start(void (*fn)(void *, uint64_t), void *arg);
void tick_stop();

} // namespace ipcsim

#endif
