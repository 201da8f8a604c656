// isolate.h -- one run of a scenario's app in a child process of its own.
//
// SystemC runs one simulation per process, and a scenario with variants:
// has several runs: run.cpp runs each variant so, then the base in ipcsim's
// own process (as a scenario without variants runs).
#ifndef IPCSIM_RUNNER_ISOLATE_H
#define IPCSIM_RUNNER_ISOLATE_H

#include "appctx.h"

#include <string>

// run_app(s, o) in a forked child, with a progress line of its own (when
// progress_on; labelled as progress.h says) instead of o.prog. The child's
// points and failures come back over a pipe, and in *host_seconds the
// wall-clock time of its run_app. A cli_error in the child is thrown again
// here with its message; a child that dies (a signal, an exit of its own) is
// a cli_error naming `who` ("FILE: variant slow: ...").
app_result run_app_isolated(const scenario &s, const run_opts &o, bool progress_on,
                            const std::string &label, const std::string &who, double *host_seconds);

#endif
