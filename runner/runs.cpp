// runs.cpp -- a scenario's runs, the base and each variant, before any output
// (ipcsim run and each point of ipcsim sweep).
#include "runs.h"
#include "cli.h"
#include "isolate.h"
#include "progress.h"
#include "table.h"

#include <chrono>
#include <cstdio>

namespace
{

// Runs whose series keep their names (keep_names) extend one series, each
// at its own x: two runs with a point of one series at one x would be two
// values where a plot, a reference and --check see one. runs[0] holds the
// base's points, runs[i] variant i's (renamed). A FILE:LINE error on the
// later run's variant, before anything is written.
void check_one_run_per_x(const scenario &s, const std::vector<std::vector<point>> &runs)
{
    auto who = [&](size_t r) {
        return r == 0 ? std::string("base") : "variant " + s.variants[r - 1].name;
    };
    for (size_t r = 1; r < runs.size(); r++)
        for (const point &p : runs[r])
            for (size_t q = 0; q < r; q++)
                for (const point &e : runs[q])
                    if (e.series == p.series && x_same(e.x, p.x))
                        fail_at(s.file, s.variants[r - 1].line,
                                strf("series %s has a point at x=%s from two runs, %s and %s "
                                     "(keep_names: true puts their points in one series; each "
                                     "run must give other x)",
                                     p.series.c_str(), p.x.c_str(), who(q).c_str(),
                                     who(r).c_str()));
}

} // namespace

// Each variant's run in a process of its own (SystemC runs one simulation
// per process: isolate.h), in file order, then the base's here, as a
// scenario without variants runs; all before any output, which is all or
// nothing. The points come out base first, then each variant's, renamed
// <series>_<name> (or, with keep_names, not); host_seconds likewise. False
// when an app failed (said on stderr).
bool run_all(const scenario &s, const run_opts &opts, bool quiet, std::vector<point> &points,
             std::vector<double> &host_seconds, std::vector<chart_data> &charts)
{
    size_t runs = 1 + s.variants.size();
    auto failed = [&](const app_result &res, const std::string &who) {
        for (const std::string &f : res.failures)
            fprintf(stderr, "%s: %sapp %s failed on %s\n", s.file.c_str(), who.c_str(), s.app->name,
                    f.c_str());
        return !res.failures.empty();
    };
    std::vector<std::vector<point>> by_run; // each variant's points, renamed; then the base's first
    std::vector<double> variant_seconds;
    for (size_t i = 0; i < s.variants.size(); i++) {
        const variant &v = s.variants[i];
        run_opts ro = opts;
        ro.trace = nullptr; // --trace shows the base run
        double host_s = 0;
        app_result res = run_app_isolated(
            *v.run, ro, !quiet, strf("run %zu of %zu, variant %s", i + 1, runs, v.name.c_str()),
            s.file + ": variant " + v.name, &host_s);
        if (failed(res, "variant " + v.name + ": ")) return false;
        variant_seconds.push_back(host_s);
        for (point &p : res.points) p.series = v.series_name(p.series);
        by_run.push_back(res.points);
    }
    progress prog(!quiet, runs == 1 ? "" : strf("run %zu of %zu, base", runs, runs));
    run_opts ro = opts;
    ro.prog = prog.active() ? &prog : nullptr;
    auto t0 = std::chrono::steady_clock::now();
    app_result res = run_app(s, ro);
    std::chrono::duration<double> host_s = std::chrono::steady_clock::now() - t0;
    prog.stop();
    if (failed(res, "")) return false;
    by_run.insert(by_run.begin(), res.points);
    charts = res.charts; // the base run's, as --trace
    check_one_run_per_x(s, by_run);
    points.clear();
    for (const std::vector<point> &run : by_run)
        points.insert(points.end(), run.begin(), run.end());
    host_seconds.push_back(host_s.count());
    host_seconds.insert(host_seconds.end(), variant_seconds.begin(), variant_seconds.end());
    return true;
}
