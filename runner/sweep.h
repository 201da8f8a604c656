// sweep.h -- a scenario's `sweep:` section: the parameters it varies, the
// fitted constant it refits at every point, the points it reports; its
// expansion into independent runs (docs/sweeps.md).
#ifndef IPCSIM_RUNNER_SWEEP_H
#define IPCSIM_RUNNER_SWEEP_H

#include "scenario.h"

#include <string>
#include <utility>
#include <vector>

// One swept key (a --set key) and its values as --set text, in file order.
struct sweep_param {
    std::string key;
    std::vector<std::string> values;
    int line = 0;
};

// refit: one FITTED key searched in [from, to] at every point so that
// `series` at `x` meets the scenario's own reference point there.
struct sweep_refit {
    std::string key, series, x;
    double target = 0; // the reference: point's value
    double from = 0, to = 0;
    int iterations = 0;     // bisection steps (a whole key: until the bracket is 1 wide)
    bool whole = false;     // the platform refuses a fractional value of key
    std::string variant;    // the run that reports series: "" the base, else a variant's name
    std::string app_series; // what that run's app calls it
    int line = 0, key_line = 0, series_line = 0, x_line = 0;
};

// A point the merged table and plot show: a series at one x of the app.
struct sweep_report {
    std::string series, x;
    bool has_ref = false; // the scenario's reference: point there, drawn as a line
    double ref = 0;
    std::string source;
    int line = 0;
};

struct sweep_spec {
    std::vector<sweep_param> params;
    bool zip = false;
    bool has_refit = false;
    sweep_refit refit;
    std::vector<sweep_report> report;
    std::string xlabel, ylabel;
    int line = 0;
};

// One run of the sweep: its overrides, key by key in params order.
struct sweep_point {
    std::vector<std::pair<std::string, std::string>> values;
    std::string name;                      // its files' name: filesystem-safe, from the values
    std::vector<std::string> sets() const; // "key=value"
};

// Read and check s's sweep: (FILE:LINE errors); every point's overrides
// are loaded as --set would be, so that a bad key or value fails here,
// before anything runs. The refit's search is not tried (run time).
sweep_spec sweep_read(const scenario &s);

// The points, sorted by their values (as numbers when both are numbers),
// key by key: every engine's results merge in this order.
std::vector<sweep_point> sweep_points(const sweep_spec &sw);

// Where the points' files go: DIR/<stem>.sweep
std::string sweep_dir(const std::string &out, const std::string &stem);

// Values compared as sweep_points orders them.
bool sweep_less(const std::string &a, const std::string &b);

#endif
