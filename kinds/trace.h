/*
 * kinds/trace.h -- traces of a run for teaching (plat_run's struct plat_trace).
 *
 *   <stem>.vcd        the blocks' one-bit signals (models/vcd.h: every core's
 *                     busy flag, every crossbar lane or bus held), each change
 *                     at its exact time, only the signals and window asked for
 *   <stem>.busy.dat   each core's busy share per pixel column of the chart:
 *                     "core t0 t1 share" (only columns with share > 0)
 *   <stem>.busy.gp    the gnuplot script that draws it
 *   <stem>.busy.png   the chart: one row per core, each column's bar as high
 *                     as the core's busy share in it, so the ink is the share
 */
#ifndef IPCSIM_KINDS_TRACE_H
#define IPCSIM_KINDS_TRACE_H

#include <cstdint>
#include <string>

struct plat_trace;

namespace ipcsim
{

class Kernel;
struct Trace;

// Before the simulation starts: the VCD's signals and header, busy logging
// on. NULL with err when a glob of t.signals matches no signal or the VCD
// cannot be written.
Trace *trace_open(Kernel &top, const plat_trace &t, std::string &err);
// After the run ended (at end_ps): close the VCD and, when the run succeeded
// (ok), write the busy chart's data and script and draw it. Frees tr.
// 0, or -1 with err.
int trace_close(Trace *tr, Kernel &top, uint64_t end_ps, bool ok, std::string &err);

} // namespace ipcsim

#endif
