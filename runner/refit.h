// refit.h -- a sweep point's refit: one fitted constant searched again so that
// a series meets the scenario's own reference point (a bounded bisection).
#ifndef IPCSIM_RUNNER_REFIT_H
#define IPCSIM_RUNNER_REFIT_H

#include "scenario.h"
#include "sweep.h"

#include <string>
#include <vector>

// The value of r.key, as --set text, at which r.series at r.x comes nearest
// r.target with the point's overrides `sets`: bisection in [r.from, r.to]
// (whole numbers until the bracket is 1 wide when the platform takes only
// whole values; else r.iterations halvings), each step one run in a process
// of its own. A target outside the values at from: and to: is a FILE:LINE
// error on the refit: entry.
std::string refit_point(const scenario &s, const sweep_refit &r,
                        const std::vector<std::string> &sets, bool quiet);

#endif
