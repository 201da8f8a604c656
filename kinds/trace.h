/*
 * kinds/trace.h -- traces of a run for teaching.
 *
 *   <stem>.vcd        every core's busy flag and every crossbar lane's
 *                     occupancy (open with GTKWave)
 *   <stem>.busy.dat   the intervals each core was busy: "core start_ns end_ns"
 *   <stem>.busy.gp    the gnuplot script that draws them
 *   <stem>.busy.png   the chart: one row per core, a bar while it is busy
 */
#ifndef IPCSIM_MODELS_TRACE_H
#define IPCSIM_MODELS_TRACE_H

#include <string>

namespace sc_core
{
class sc_trace_file;
}

namespace ipcsim
{

class Kernel;

// Before the simulation starts: the VCD file, and busy logging on.
sc_core::sc_trace_file *trace_open(Kernel &top, const std::string &dir, const std::string &stem);
// After it ended (at end_ps): close the VCD, write the busy chart's data and
// script. 0, or -1 with err.
int trace_close(Kernel &top, sc_core::sc_trace_file *tf, const std::string &dir,
                const std::string &stem, uint64_t end_ps, std::string &err);

} // namespace ipcsim

#endif
