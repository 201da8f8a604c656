// refit.cpp -- the bisection of a sweep point's refit (refit.h).
#include "refit.h"
#include "cli.h"
#include "isolate.h"
#include "table.h"

#include <cmath>
#include <cstdio>

namespace
{

struct probe {
    const scenario &base;
    const sweep_refit &r;
    const std::vector<std::string> &sets;
    bool quiet;
    int runs = 0;

    // r.series at r.x minus the target, with r.key = v (v as --set text).
    double operator()(const std::string &v)
    {
        std::vector<std::string> all = sets;
        all.push_back(r.key + "=" + v);
        scenario s = scenario_load(base.file, all);
        const scenario *run = &s;
        for (const variant &var : s.variants)
            if (var.name == r.variant) run = var.run.get();
        double secs = 0;
        app_result res = run_app_isolated(*run, run_opts(), !quiet,
                                          strf("refit %s=%s", r.key.c_str(), v.c_str()),
                                          base.file + ": refit " + r.key + "=" + v, &secs);
        runs++;
        for (const std::string &f : res.failures)
            fprintf(stderr, "%s: refit %s=%s: app %s failed on %s\n", base.file.c_str(),
                    r.key.c_str(), v.c_str(), s.app->name, f.c_str());
        if (!res.failures.empty())
            fail_at(base.file, r.line, "refit: the run with " + r.key + "=" + v + " failed");
        for (const point &p : res.points)
            if (p.series == r.app_series && x_same(p.x, r.x)) return p.value - r.target;
        fail_at(base.file, r.x_line,
                "refit: the run reported no point of " + r.series + " at x=" + r.x);
    }
};

bool same_side(double a, double b)
{
    return (a < 0) == (b < 0);
}

} // namespace

std::string refit_point(const scenario &s, const sweep_refit &r,
                        const std::vector<std::string> &sets, bool quiet)
{
    probe f{s, r, sets, quiet};
    std::string lo = fmt_num(r.from), hi = fmt_num(r.to);
    double flo = f(lo), fhi = f(hi);
    if (flo == 0) return lo;
    if (fhi == 0) return hi;
    if (same_side(flo, fhi))
        fail_at(s.file, r.line,
                strf("refit %s cannot bracket its target at %s: %s at x=%s is %s at %s=%s and %s "
                     "at %s=%s, the reference %s is not between them (widen from:/to:)",
                     r.key.c_str(), join(sets, ", ").c_str(), r.series.c_str(), r.x.c_str(),
                     fmt_num(flo + r.target).c_str(), r.key.c_str(), lo.c_str(),
                     fmt_num(fhi + r.target).c_str(), r.key.c_str(), hi.c_str(),
                     fmt_num(r.target).c_str()));
    // The bracket [lo, hi] always holds the target; each value is tried as
    // the text it is written as, so the result is exactly what ran.
    for (int i = 0; r.whole || i < r.iterations; i++) {
        double a = strtod(lo.c_str(), nullptr), b = strtod(hi.c_str(), nullptr);
        std::string mid = fmt_num(r.whole ? std::floor((a + b) / 2) : (a + b) / 2);
        if (mid == lo || mid == hi) break; // 1 wide (whole), or below fmt_num's digits
        double fm = f(mid);
        if (fm == 0) return mid;
        if (same_side(fm, flo))
            lo = mid, flo = fm;
        else
            hi = mid, fhi = fm;
    }
    std::string best = std::fabs(flo) <= std::fabs(fhi) ? lo : hi;
    if (!quiet)
        fprintf(stderr, "%s: refit %s=%s at %s (%d runs): %s at x=%s %s, reference %s\n",
                s.file.c_str(), r.key.c_str(), best.c_str(), join(sets, ", ").c_str(), f.runs,
                r.series.c_str(), r.x.c_str(), fmt_num((best == lo ? flo : fhi) + r.target).c_str(),
                fmt_num(r.target).c_str());
    return best;
}
