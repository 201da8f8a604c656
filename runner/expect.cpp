// expect.cpp -- `expect:` claims judged on a run's points: relations between
// two series (above, near, ratio, ...) and of one (at_least, falls, ...),
// each on the points within its from:/to:.
#include "check.h"
#include "cli.h"

#include <algorithm>
#include <cmath>

namespace
{
// One x of the claim: A's value there and, for two series, B's.
struct common_point {
    std::string x;
    double a, b;
};

bool two_series(const expectation &e)
{
    return !e.than.empty();
}

bool is_growth(const expectation &e)
{
    return e.relation == expectation::GROWS_MORE || e.relation == expectation::GROWS_LESS;
}

bool is_trend(const expectation &e)
{
    return e.relation == expectation::FALLS || e.relation == expectation::RISES;
}

bool reported(const std::vector<row> &rows, const std::string &series)
{
    for (const row &r : rows)
        if (r.has_value && r.series == series) return true;
    return false;
}

// A's points in report order; with two series, those B has too, x compared
// as the reported text (the first of B's points with that x).
std::vector<common_point> points_of(const std::vector<row> &rows, const expectation &e)
{
    std::vector<common_point> out;
    for (const row &ra : rows) {
        if (!ra.has_value || ra.series != e.series) continue;
        if (!two_series(e)) {
            out.push_back({ra.x, ra.value, 0});
            continue;
        }
        for (const row &rb : rows)
            if (rb.has_value && rb.series == e.than && rb.x == ra.x) {
                out.push_back({ra.x, ra.value, rb.value});
                break;
            }
    }
    return out;
}

// "above", "is 5 times", "at least 85": the relation as the claim reads.
std::string relation_words(const expectation &e)
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
    case expectation::NEAR:
        return "near";
    case expectation::RATIO:
        return "is " + fmt_num(e.value) + " times";
    case expectation::AT_LEAST:
        return "at least " + fmt_num(e.value);
    case expectation::AT_MOST:
        return "at most " + fmt_num(e.value);
    case expectation::FALLS:
        return "falls as x grows";
    case expectation::RISES:
        return "rises as x grows";
    }
    return "?"; // not reached: every kind has its words above
}

// "x from 4096", "x up to 1024", "x from 4 to 64"; "" without from: and to:.
std::string range_text(const expectation &e)
{
    if (e.has_from && e.has_to) return "x from " + fmt_num(e.from) + " to " + fmt_num(e.to);
    if (e.has_from) return "x from " + fmt_num(e.from);
    if (e.has_to) return "x up to " + fmt_num(e.to);
    return "";
}

// The claim's parentheses: what was counted, the range, the margin;
// " (2 of 2, x from 8, margin 10%)", or "" when there is nothing to say.
std::string detail(const expectation &e, const std::string &counted)
{
    std::vector<std::string> parts;
    if (!counted.empty()) parts.push_back(counted);
    if (!range_text(e).empty()) parts.push_back(range_text(e));
    if (e.margin_pct > 0) parts.push_back("margin " + fmt_num(e.margin_pct) + "%");
    return parts.empty() ? "" : " (" + join(parts, ", ") + ")";
}

// "A above B", "A at least 85".
std::string claim_head(const expectation &e)
{
    return e.series + " " + relation_words(e) + (two_series(e) ? " " + e.than : "");
}

// The points within from:/to:. An x that is not a number has no place in
// the range: `reason` says so and nothing is judged.
std::vector<common_point> in_range(const expectation &e, const std::vector<common_point> &pts,
                                   std::string &reason)
{
    if (!e.has_from && !e.has_to) return pts;
    std::vector<common_point> out;
    for (const common_point &p : pts) {
        double x;
        if (!x_number(p.x, &x)) {
            reason = strf("x '%s' of %s is not a number (from: and to: bound x as numbers)",
                          p.x.c_str(), e.series.c_str());
            return {};
        }
        if ((!e.has_from || x >= e.from) && (!e.has_to || x <= e.to)) out.push_back(p);
    }
    return out;
}

// falls and rises go along x as numbers, whatever the report order; one
// value per x.
std::vector<common_point> by_x(const expectation &e, std::vector<common_point> pts,
                               std::string &reason)
{
    const char *rel = e.relation == expectation::FALLS ? "falls" : "rises";
    std::vector<std::pair<double, common_point>> keyed;
    for (const common_point &p : pts) {
        double x;
        if (!x_number(p.x, &x)) {
            reason = strf("x '%s' of %s is not a number (%s orders x as numbers)", p.x.c_str(),
                          e.series.c_str(), rel);
            return {};
        }
        keyed.emplace_back(x, p);
    }
    std::stable_sort(keyed.begin(), keyed.end(),
                     [](const auto &l, const auto &r) { return l.first < r.first; });
    pts.clear();
    for (size_t i = 0; i < keyed.size(); i++) {
        if (i > 0 && keyed[i].first == keyed[i - 1].first) {
            reason = strf("%s has two points at x=%s (x=%s and x=%s); %s needs one value per x",
                          e.series.c_str(), fmt_num(keyed[i].first).c_str(),
                          keyed[i - 1].second.x.c_str(), keyed[i].second.x.c_str(), rel);
            return {};
        }
        pts.push_back(keyed[i].second);
    }
    return pts;
}

// Why pts are too few to judge, or "".
std::string too_few(const expectation &e, const std::vector<common_point> &pts)
{
    bool pairs = is_growth(e) || is_trend(e);
    if (pts.size() >= (pairs ? 2u : 1u)) return "";
    std::string within = range_text(e).empty() ? "" : " with " + range_text(e);
    const char *a = e.series.c_str(), *b = e.than.c_str();
    if (two_series(e))
        return pts.empty() ? strf("%s and %s have no x in common%s", a, b, within.c_str())
                           : strf("%s and %s have one x in common (%s)%s, growth needs two", a, b,
                                  pts[0].x.c_str(), within.c_str());
    if (pts.empty()) return strf("%s has no points%s", a, within.c_str());
    return strf("%s has one point (x=%s)%s, %s needs two", a, pts[0].x.c_str(), within.c_str(),
                e.relation == expectation::FALLS ? "falls" : "rises");
}

// "(1.2 <= 1.5)", with a margin "(1.6 <= 1.5 + 10% = 1.65)"; `b_at` follows
// b ("1.5 at x=4").
std::string failed_bound(const expectation &e, double a, const char *op, double b, bool plus,
                         double bound, const std::string &b_at = "")
{
    std::string t = "(" + fmt_num(a) + " " + op + " " + fmt_num(b) + b_at;
    if (e.margin_pct > 0)
        t += (plus ? " + " : " - ") + fmt_num(e.margin_pct) + "% = " + fmt_num(bound);
    return t + ")";
}

// above: A > B * (1 + m) at every x; below: A < B * (1 - m).
void judge_order(expect_outcome &o, const std::vector<common_point> &pts)
{
    const expectation &e = o.e;
    bool above = e.relation == expectation::ABOVE;
    double m = e.margin_pct / 100;
    int held = 0;
    const common_point *bad = nullptr;
    for (const common_point &p : pts) {
        double bound = above ? p.b * (1 + m) : p.b * (1 - m);
        if (above ? p.a > bound : p.a < bound)
            held++;
        else if (!bad)
            bad = &p;
    }
    o.claim = claim_head(e) + " at every x" + detail(e, strf("%d of %zu", held, pts.size()));
    o.ok = !bad;
    if (bad)
        o.verdict = "FAILS at x=" + bad->x + " " +
                    failed_bound(e, bad->a, above ? "<=" : ">=", bad->b, above,
                                 above ? bad->b * (1 + m) : bad->b * (1 - m));
}

// Growth ratios print with three significant digits: "12.3x", "1.4x".
std::string ratio_text(double r)
{
    return std::fabs(r) < 1e6 ? strf("%.3g", r) + "x" : fmt_num(r) + "x";
}

// grows_more: A_last / A_first > B_last / B_first * (1 + m); grows_less: < ... (1 - m).
void judge_growth(expect_outcome &o, const std::vector<common_point> &pts)
{
    const expectation &e = o.e;
    bool more = e.relation == expectation::GROWS_MORE;
    const common_point &f = pts.front(), &l = pts.back();
    o.claim = claim_head(e) + detail(e, "x " + f.x + " -> " + l.x);
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

// near: abs(A/B - 1) <= m at every x; ratio: abs(A/B / value - 1) <= m, A/B
// within value * (1 +- m). The claim names the x farthest from the target.
void judge_ratio(expect_outcome &o, const std::vector<common_point> &pts)
{
    const expectation &e = o.e;
    double target = e.relation == expectation::RATIO ? e.value : 1, m = e.margin_pct / 100;
    int held = 0;
    const common_point *bad = nullptr, *worst = nullptr;
    double worst_off = -1;
    for (const common_point &p : pts) {
        double off = std::fabs(p.a / p.b / target - 1);
        if (off <= m)
            held++;
        else if (!bad)
            bad = &p;
        if (std::isnan(off)) off = INFINITY; // 0/0: as far off as it gets
        if (off > worst_off) worst_off = off, worst = &p;
    }
    o.claim = claim_head(e) + " at every x" + detail(e, strf("%d of %zu", held, pts.size())) +
              ": worst A/B = " + fmt_num(worst->a / worst->b) + " at x=" + worst->x;
    o.ok = !bad;
    if (!bad) return;
    double r = bad->a / bad->b;
    bool high = r > target;
    o.verdict = "FAILS at x=" + bad->x + " (A/B = " + fmt_num(r);
    if (!std::isnan(r))
        o.verdict += std::string(high ? " > " : " < ") + fmt_num(target) + (high ? " + " : " - ") +
                     fmt_num(e.margin_pct) + "% = " + fmt_num(target * (high ? 1 + m : 1 - m));
    o.verdict += ")";
}

// at_least: A >= value at every x of A; at_most: A <= value. The claim
// names the x closest to the bound (A's lowest, or highest).
void judge_bound(expect_outcome &o, const std::vector<common_point> &pts)
{
    const expectation &e = o.e;
    bool least = e.relation == expectation::AT_LEAST;
    int held = 0;
    const common_point *bad = nullptr, *worst = nullptr;
    for (const common_point &p : pts) {
        if (least ? p.a >= e.value : p.a <= e.value)
            held++;
        else if (!bad)
            bad = &p;
        if (!worst || (least ? !(p.a >= worst->a) : !(p.a <= worst->a))) worst = &p;
    }
    o.claim = claim_head(e) + " at every x" + detail(e, strf("%d of %zu", held, pts.size())) +
              ": " + (least ? "lowest " : "highest ") + fmt_num(worst->a) + " at x=" + worst->x;
    o.ok = !bad;
    if (bad)
        o.verdict = "FAILS at x=" + bad->x + " (" + fmt_num(bad->a) + (least ? " < " : " > ") +
                    fmt_num(e.value) + ")";
}

// falls: each point (in x order) below the one before * (1 - m); rises:
// above it * (1 + m). The claim names the step with the least room.
void judge_trend(expect_outcome &o, const std::vector<common_point> &pts)
{
    const expectation &e = o.e;
    bool falls = e.relation == expectation::FALLS;
    double m = e.margin_pct / 100;
    int held = 0;
    size_t bad = 0, worst = 0;
    double worst_room = 0;
    for (size_t i = 1; i < pts.size(); i++) {
        double bound = falls ? pts[i - 1].a * (1 - m) : pts[i - 1].a * (1 + m);
        double room = falls ? bound - pts[i].a : pts[i].a - bound;
        if (room > 0)
            held++;
        else if (!bad)
            bad = i;
        if (std::isnan(room)) room = -INFINITY;
        if (!worst || room < worst_room) worst = i, worst_room = room;
    }
    const common_point &w0 = pts[worst - 1], &w1 = pts[worst];
    o.claim = claim_head(e) +
              detail(e, strf("%d of %zu steps, x %s -> %s", held, pts.size() - 1,
                             pts.front().x.c_str(), pts.back().x.c_str())) +
              ": " + (falls ? "least fall " : "least rise ") + fmt_num(w0.a) + " -> " +
              fmt_num(w1.a) + " (x " + w0.x + " -> " + w1.x + ")";
    o.ok = !bad;
    if (!bad) return;
    const common_point &p0 = pts[bad - 1], &p1 = pts[bad];
    o.verdict = "FAILS at x=" + p1.x + " " +
                failed_bound(e, p1.a, falls ? ">=" : "<=", p0.a, !falls,
                             falls ? p0.a * (1 - m) : p0.a * (1 + m), " at x=" + p0.x);
}

expect_outcome judge(const expectation &e, const std::vector<row> &rows)
{
    expect_outcome o;
    o.e = e;
    o.claim = claim_head(e) + detail(e, "");
    std::vector<common_point> pts;
    if (!reported(rows, e.series))
        o.reason = "series '" + e.series + "' was not reported";
    else if (two_series(e) && !reported(rows, e.than))
        o.reason = "series '" + e.than + "' was not reported";
    if (o.reason.empty()) pts = in_range(e, points_of(rows, e), o.reason);
    if (o.reason.empty() && is_trend(e)) pts = by_x(e, pts, o.reason);
    if (o.reason.empty()) o.reason = too_few(e, pts);
    if (!o.reason.empty()) {
        o.verdict = "FAILS: " + o.reason;
        return o;
    }
    o.verdict = "ok";
    switch (e.relation) {
    case expectation::ABOVE:
    case expectation::BELOW:
        judge_order(o, pts);
        break;
    case expectation::GROWS_MORE:
    case expectation::GROWS_LESS:
        judge_growth(o, pts);
        break;
    case expectation::NEAR:
    case expectation::RATIO:
        judge_ratio(o, pts);
        break;
    case expectation::AT_LEAST:
    case expectation::AT_MOST:
        judge_bound(o, pts);
        break;
    case expectation::FALLS:
    case expectation::RISES:
        judge_trend(o, pts);
        break;
    }
    return o;
}
} // namespace

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
