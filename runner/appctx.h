// appctx.h -- running a scenario's app: the app.h context and plat_run.
#ifndef IPCSIM_RUNNER_APPCTX_H
#define IPCSIM_RUNNER_APPCTX_H

#include "scenario.h"

#include "ipcsim/run.h"

#include <cstdint>
#include <string>
#include <vector>

// One app_report() call.
struct point {
    std::string series, x, unit;
    double value;
};

// One app_interval() of a run chart.
struct interval {
    uint64_t t0, t1; // ns, t0 < t1
    int row;
    char mark;
};

// A chart's intervals, every core's together, ordered by (row, t0, t1, mark)
// so that the same run gives the same chart whichever core recorded first.
struct chart_data {
    std::string name;
    std::vector<interval> intervals;
};

struct app_result {
    std::vector<point> points;      // in report order
    std::vector<chart_data> charts; // by name; not carried back from a variant's process
    // app_fail() messages, each reason once with the cores that gave it:
    // "core 0 (ping): ...", "cores 0-64 (mpe, unmapped): ..."
    std::vector<std::string> failures;
};

class progress;

struct run_opts {
    enum plat_backend backend = PLAT_SIM;
    uint64_t seed = 1;                        // without --seed (its outputs carry no +seed tag)
    const struct plat_trace *trace = nullptr; // sim: what to trace; NULL: nothing
    progress *prog = nullptr; // told of each point and of simulated time; NULL: none
};

// Run s.app on every core of s.platform. Throws cli_error when plat_run
// fails; the app's own failures come back in the result.
app_result run_app(const scenario &s, const run_opts &o);

#endif
