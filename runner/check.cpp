// check.cpp -- tolerances of paper points, and the verdicts of `expect:`
// (expect.cpp judges each) as --check violations.
#include "check.h"
#include "cli.h"

#include <cmath>

bool within(const row &r, double tolerance_pct)
{
    return r.has_value && r.has_err && std::fabs(r.err_pct) <= tolerance_pct;
}

static void check_tolerances(const scenario &s, const std::vector<row> &rows, check_result &c)
{
    for (size_t i = 0; i < rows.size(); i++) {
        const row &r = rows[i];
        const ref_series *ref = s.ref_of(r.series);
        if (!r.has_ref || !ref || !ref->has_tolerance) continue;
        c.judged++;
        std::string tol = "±" + fmt_num(ref->tolerance_pct) + "%";
        if (within(r, ref->tolerance_pct)) {
            c.passed++;
            continue;
        }
        if (!r.has_value) {
            c.notes[i] = "no simulated value";
            c.violations.push_back(strf("%s x=%s: paper %s, but the run produced no value",
                                        r.series.c_str(), r.x.c_str(), fmt_num(r.ref).c_str()));
        } else {
            c.notes[i] = "outside " + tol;
            c.violations.push_back(strf("%s x=%s: %s vs paper %s: error %s%% outside %s",
                                        r.series.c_str(), r.x.c_str(), fmt_num(r.value).c_str(),
                                        fmt_num(r.ref).c_str(), fmt_err(r.err_pct).c_str(),
                                        tol.c_str()));
        }
    }
}

// A failed expectation names its line in the scenario; one that could not
// be judged says why, and only that.
static void add_expect_violations(const scenario &s, check_result &c)
{
    for (const expect_outcome &o : c.expects)
        if (!o.ok)
            c.violations.push_back("expect (" + at(s.file, o.e.line) +
                                   "): " + (o.reason.empty() ? o.text() : o.reason));
}

check_result check_rows(const scenario &s, const std::vector<row> &rows)
{
    check_result c;
    c.notes.assign(rows.size(), "");
    check_tolerances(s, rows, c);
    c.expects = check_expects(s, rows);
    add_expect_violations(s, c);
    return c;
}
