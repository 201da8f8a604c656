// check.cpp -- tolerances of paper points, and `expect:` relations between series.
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

// ---- expect: relations between series ----------------------------------

namespace
{
// One x the two series both have, with their values.
struct common_point {
    std::string x;
    double a, b;
};
} // namespace

static bool reported(const std::vector<row> &rows, const std::string &series)
{
    for (const row &r : rows)
        if (r.has_value && r.series == series) return true;
    return false;
}

// A's points in report order that B has too, x compared as the reported
// text (the first of B's points with that x).
static std::vector<common_point> common_points(const std::vector<row> &rows, const std::string &a,
                                               const std::string &b)
{
    std::vector<common_point> out;
    for (const row &ra : rows) {
        if (!ra.has_value || ra.series != a) continue;
        for (const row &rb : rows)
            if (rb.has_value && rb.series == b && rb.x == ra.x) {
                out.push_back({ra.x, ra.value, rb.value});
                break;
            }
    }
    return out;
}

// "above", "grows more than": the relation as the claim reads.
static std::string relation_words(const expectation &e)
{
    switch (e.relation) {
    case expectation::ABOVE:
        return "above";
    case expectation::BELOW:
        return "below";
    case expectation::GROWS_MORE:
        return "grows more than";
    case expectation::GROWS_LESS:
        return "grows less than";
    }
    return "?"; // not reached: every kind has its words above
}

// ", margin 10%", for inside the claim's parentheses.
static std::string margin_text(const expectation &e)
{
    return e.margin_pct > 0 ? ", margin " + fmt_num(e.margin_pct) + "%" : "";
}

// above: A > B * (1 + m); below: A < B * (1 - m).
static double bound(const expectation &e, double b)
{
    double m = e.margin_pct / 100;
    return e.relation == expectation::ABOVE ? b * (1 + m) : b * (1 - m);
}

static bool holds_at(const expectation &e, const common_point &p)
{
    return e.relation == expectation::ABOVE ? p.a > bound(e, p.b) : p.a < bound(e, p.b);
}

// "(1.2 <= 1.5)", with a margin "(1.6 <= 1.5 + 10% = 1.65)".
static std::string why_not(const expectation &e, const common_point &p)
{
    bool above = e.relation == expectation::ABOVE;
    std::string t = "(" + fmt_num(p.a) + (above ? " <= " : " >= ") + fmt_num(p.b);
    if (e.margin_pct > 0)
        t += (above ? " + " : " - ") + fmt_num(e.margin_pct) + "% = " + fmt_num(bound(e, p.b));
    return t + ")";
}

static void judge_order(expect_outcome &o, const std::vector<common_point> &pts)
{
    const expectation &e = o.e;
    int held = 0;
    const common_point *first_bad = nullptr;
    for (const common_point &p : pts) {
        if (holds_at(e, p))
            held++;
        else if (!first_bad)
            first_bad = &p;
    }
    o.claim = strf("%s %s %s at every x (%d of %zu%s)", e.series.c_str(), relation_words(e).c_str(),
                   e.than.c_str(), held, pts.size(), margin_text(e).c_str());
    o.ok = !first_bad;
    o.verdict = o.ok ? "ok" : "FAILS at x=" + first_bad->x + " " + why_not(e, *first_bad);
}

// Growth ratios print with three significant digits: "12.3x", "1.4x".
static std::string ratio_text(double r)
{
    return std::fabs(r) < 1e6 ? strf("%.3g", r) + "x" : fmt_num(r) + "x";
}

static void judge_growth(expect_outcome &o, const std::vector<common_point> &pts)
{
    const expectation &e = o.e;
    bool more = e.relation == expectation::GROWS_MORE;
    const common_point &f = pts.front(), &l = pts.back();
    o.claim = strf("%s %s %s (x %s -> %s%s)", e.series.c_str(), relation_words(e).c_str(),
                   e.than.c_str(), f.x.c_str(), l.x.c_str(), margin_text(e).c_str());
    // A ratio from a first value of 0 or below says nothing about growth.
    if (!(f.a > 0) || !(f.b > 0)) {
        o.verdict =
            strf("FAILS: growth needs positive values at x=%s (%s %s, %s %s)", f.x.c_str(),
                 e.series.c_str(), fmt_num(f.a).c_str(), e.than.c_str(), fmt_num(f.b).c_str());
        return;
    }
    double ga = l.a / f.a, gb = l.b / f.b, m = e.margin_pct / 100;
    o.claim += ": " + ratio_text(ga) + " vs " + ratio_text(gb);
    o.ok = more ? ga > gb * (1 + m) : ga < gb * (1 - m);
    o.verdict = o.ok ? "ok" : "FAILS";
}

static expect_outcome judge(const expectation &e, const std::vector<row> &rows)
{
    expect_outcome o;
    o.e = e;
    o.claim = e.series + " " + relation_words(e) + " " + e.than;
    if (e.margin_pct > 0) o.claim += " (" + margin_text(e).substr(2) + ")";
    std::vector<common_point> pts = common_points(rows, e.series, e.than);
    bool growth = e.relation == expectation::GROWS_MORE || e.relation == expectation::GROWS_LESS;
    if (!reported(rows, e.series))
        o.reason = "series '" + e.series + "' was not reported";
    else if (!reported(rows, e.than))
        o.reason = "series '" + e.than + "' was not reported";
    else if (pts.size() < (growth ? 2u : 1u))
        o.reason = pts.empty()
                       ? strf("%s and %s have no x in common", e.series.c_str(), e.than.c_str())
                       : strf("%s and %s have one x in common (%s), growth needs two",
                              e.series.c_str(), e.than.c_str(), pts[0].x.c_str());
    if (!o.reason.empty()) {
        o.verdict = "FAILS: " + o.reason;
        return o;
    }
    if (growth)
        judge_growth(o, pts);
    else
        judge_order(o, pts);
    return o;
}

std::vector<expect_outcome> check_expects(const scenario &s, const std::vector<row> &rows)
{
    std::vector<expect_outcome> out;
    for (const expectation &e : s.expects) out.push_back(judge(e, rows));
    return out;
}

int expects_held(const std::vector<expect_outcome> &expects)
{
    int n = 0;
    for (const expect_outcome &o : expects) n += o.ok;
    return n;
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
