// runs.h -- every run of a scenario: each variant's in a process of its own,
// then the base's in this one (ipcsim run, and each point of a sweep).
#ifndef IPCSIM_RUNNER_RUNS_H
#define IPCSIM_RUNNER_RUNS_H

#include "appctx.h"
#include "chart.h"
#include "scenario.h"

#include <vector>

// The points come out base first, then each variant's, renamed
// <series>_<name> (or, with keep_names, not); host_seconds likewise; charts
// are the base run's. False when an app failed (said on stderr); two runs
// with a point of one kept series at one x is a FILE:LINE cli_error.
bool run_all(const scenario &s, const run_opts &opts, bool quiet, std::vector<point> &points,
             std::vector<double> &host_seconds, std::vector<chart_data> &charts);

#endif
