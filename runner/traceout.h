// traceout.h -- `ipcsim run --trace DIR`: its options, its files (written
// under temporary names, renamed only when the run succeeded) and what the
// `wrote` line says of them.
#ifndef IPCSIM_RUNNER_TRACEOUT_H
#define IPCSIM_RUNNER_TRACEOUT_H

#include "outfiles.h"
#include "scenario.h"

#include "ipcsim/run.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

struct trace_opts {
    std::string dir;         // "": no trace
    uint64_t from_ps = 0;    // --trace-window T0:T1
    uint64_t to_ps = 0;      // 0: to the end
    std::string signals;     // --trace-signals GLOB[,GLOB]
    bool window_set = false; // for "needs --trace"
};

// "10us:20us", "10us:", ":1.5ms" into o.from_ps/to_ps; throws cli_error
// naming the option and the value.
void parse_trace_window(const std::string &v, trace_opts &o);
// --trace-signals: non-empty globs separated by commas.
void parse_trace_signals(const std::string &v, trace_opts &o);

class trace_out
{
  public:
    // The temporary files for a trace of s (and gnuplot, checked before the
    // run, not after it).
    trace_out(const trace_opts &o, const scenario &s);
    ~trace_out();
    trace_out(const trace_out &) = delete;
    trace_out &operator=(const trace_out &) = delete;

    const plat_trace *spec() const { return &spec_; }
    // The run succeeded: the final names.
    void commit();
    // ", DIR/x.vcd (1.2 MB), DIR/x.busy.png" for the wrote line.
    std::string wrote() const;

  private:
    std::string dir_, stem_, title_, signals_;
    std::vector<std::string> made_; // directories created for it, deepest first
    bool committed_ = false;
    std::unique_ptr<out_files> files_;
    std::string vcd_, dat_, gp_, png_;
    plat_trace spec_{};
};

// "812 B", "12.3 kB", "1.2 MB": bytes in SI units.
std::string human_size(uint64_t bytes);

#endif
