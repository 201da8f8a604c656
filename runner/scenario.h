// scenario.h -- a scenario file, loaded and validated against its platform
// and app (docs/scenarios.md describes the format).
#ifndef IPCSIM_RUNNER_SCENARIO_H
#define IPCSIM_RUNNER_SCENARIO_H

#include "args.h"
#include "confptr.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

struct scenario;

// A `reference:` entry: paper points of one series.
struct ref_series {
    struct point {
        std::string x;
        double value;
        int line;
    };
    std::string series, source;
    bool has_tolerance = false; // without tolerance_pct the points are shown, never judged
    double tolerance_pct = 0;
    std::vector<point> points; // in file order
    int line = 0;
};

// A `plots:` entry.
struct plot_spec {
    std::string id, title, xlabel, ylabel;
    std::vector<std::string> series; // empty: every series of the run
    bool logx = false, logy = false;
    bool has_ymin = false; // without it: 0 for values >= 0 on a linear axis (plot_axis.h)
    double ymin = 0;
    int line = 0;
};

// An `expect:` entry: a claim about one series, or relating two, from a
// paper that gives no numbers ("CPE channels are slower than MPE
// channels", "efficiency falls as boards are added").
struct expectation {
    enum kind {
        ABOVE,
        BELOW,
        GROWS_MORE,
        GROWS_LESS,
        NEAR,
        RATIO,
        AT_LEAST,
        AT_MOST,
        FALLS,
        RISES
    };
    std::string series, than, why; // series A, series B (empty: a one-series relation), source
    kind relation = ABOVE;
    double margin_pct = 0;  // above: A > B * (1 + m/100); below: A < B * (1 - m/100); ...
    bool has_value = false; // ratio, at_least, at_most: the number A (or A/B) is held to
    double value = 0;
    bool has_from = false, has_to = false; // only points with from <= x <= to count
    double from = 0, to = 0;
    int line = 0;
};

// A `variants:` entry: the same platform, app and mapping run again with
// more overrides; every series of its run is renamed <series>_<name>, or,
// with keep_names, keeps its name (runs that differ in x extend one series):
// every series (keep_names: true) or the listed ones (keep_names: [a, b]).
struct variant {
    std::string name, description;
    std::vector<std::string> set;  // its own set: as "key=value", in file order
    bool keep_names = false;       // true: every series keeps its name
    std::vector<std::string> keep; // keep_names: [..]: these series do
    int line = 0;
    // What it runs: the scenario's set:, then this set:, then --set applied.
    std::shared_ptr<const scenario> run;

    // What its run's series `series` is called in the results.
    bool keeps(const std::string &series) const
    {
        return keep_names || std::find(keep.begin(), keep.end(), series) != keep.end();
    }
    std::string series_name(const std::string &series) const
    {
        return keeps(series) ? series : series + "_" + name;
    }
    // How its series are named, for tables and reports.
    std::string pattern() const
    {
        std::string p = series_name("<series>");
        for (size_t i = 0; i < keep.size(); i++) p += (i ? ", " : "; kept: ") + keep[i];
        return p;
    }
};

struct scenario {
    std::string file;        // as given on the command line
    std::string stem, group; // "pingpong", "tutorial"
    std::string title, description;
    std::string platform_name;          // the `platform:` value
    std::string platform_file;          // where it was found
    std::vector<std::string> overrides; // "key=value" applied, scenario set: then --set
    conf_ptr doc;                       // the scenario file
    conf_ptr platform;                  // the platform file, overrides applied
    int cores = -1;                     // the platform's core count (plat_core_count)
    const struct app *app = nullptr;
    std::vector<std::pair<std::string, int>> mapping; // role -> core, in the app's role order
    arg_set args;
    std::vector<ref_series> refs;
    std::vector<plot_spec> plots;
    std::vector<expectation> expects; // in file order
    std::vector<variant> variants;    // in file order; the scenario's own run is the base

    const ref_series *ref_of(const std::string &series) const;
};

// Load the scenario at path, its platform, and apply `set:` then `sets`
// ("KEY=VALUE" from --set, in command-line order); each variant's run too,
// with its set: between the two. Everything is validated here, before
// anything runs; errors throw cli_error ("FILE:LINE: ...").
scenario scenario_load(const std::string &path, const std::vector<std::string> &sets);

// One override "key" = "value" on a platform file's conf, as both `set:`
// and --set apply it. `where` names the entry in messages ("FILE:4: set
// link.x", "--set link.x=abc"); `origin` names a set: entry in later
// plat_check messages (empty: a --set, which is then named "--set K=V:
// PLATFORM:LINE"). `platform` itself is refused: another kind reads other
// keys; `other_platform` says how to run on another platform instead.
void platform_set(struct conf *plat, const std::string &key, const std::string &value,
                  const std::string &where, const std::string &origin,
                  const std::string &other_platform);

#endif
