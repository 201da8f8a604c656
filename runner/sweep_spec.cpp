// sweep_spec.cpp -- read and check a scenario's `sweep:` section and expand it
// into points (docs/sweeps.md describes the format).
#include "sweep.h"
#include "cli.h"
#include "params.h"
#include "table.h"

#include "ipcsim/app.h"
#include "ipcsim/conf.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>

namespace
{

constexpr double NONE_MIN = 1, NONE_MAX = 0; // min > max: no range
constexpr size_t MAX_VALUES = 1000;          // of one parameter
constexpr size_t MAX_POINTS = 1000;          // of a sweep: each point is a run

const struct conf_rule sweep_rules[] = {
    {"sweep.params", CONF_T_MAP, true, NONE_MIN, NONE_MAX},
    {"sweep.params.*", CONF_T_ANY, false, NONE_MIN, NONE_MAX}, // keys hold dots: read_params
    {"sweep.zip", CONF_T_STR, false, NONE_MIN, NONE_MAX},
    {"sweep.refit", CONF_T_MAP, false, NONE_MIN, NONE_MAX},
    {"sweep.refit.key", CONF_T_STR, true, NONE_MIN, NONE_MAX},
    {"sweep.refit.series", CONF_T_STR, true, NONE_MIN, NONE_MAX},
    {"sweep.refit.x", CONF_T_STR, true, NONE_MIN, NONE_MAX},
    {"sweep.refit.from", CONF_T_NUM, true, NONE_MIN, NONE_MAX},
    {"sweep.refit.to", CONF_T_NUM, true, NONE_MIN, NONE_MAX},
    {"sweep.refit.iterations", CONF_T_INT, false, 1, 60},
    {"sweep.report", CONF_T_ANY, true, NONE_MIN, NONE_MAX},
    {"sweep.xlabel", CONF_T_STR, false, NONE_MIN, NONE_MAX},
    {"sweep.ylabel", CONF_T_STR, false, NONE_MIN, NONE_MAX},
    {nullptr, CONF_T_ANY, false, 0, 0},
};

const struct conf_rule report_rules[] = {
    {"sweep.report.*.series", CONF_T_STR, true, NONE_MIN, NONE_MAX},
    {"sweep.report.*.x", CONF_T_STR, true, NONE_MIN, NONE_MAX},
    {nullptr, CONF_T_ANY, false, 0, 0},
};

// Bisection steps of a fractional refit without iterations: (to - from) / 4096.
constexpr int DEFAULT_ITERATIONS = 12;

void check_rules(const scenario &s, const struct conf_node *n, const std::string &base,
                 const struct conf_rule *rules)
{
    char err[1024];
    if (conf_check(s.doc.get(), n, base.c_str(), rules, err, sizeof err) != 0) fail(err);
}

// {from: A, to: B, step: S} or {from: A, to: B, points: N}, as --set text.
std::vector<std::string> range_values(const scenario &s, const std::string &key,
                                      const struct conf_node *m)
{
    double from = 0, to = 0, step = 0, points = 0;
    bool has_step = false, has_points = false;
    int line = conf_line(m);
    for (size_t i = 0; i < conf_len(m); i++) {
        std::string k = conf_key(m, i);
        const struct conf_node *v = conf_at(m, i);
        double d;
        if (!conf_number(v, &d))
            fail_at(s.file, conf_line(v),
                    "sweep " + key + ": " + k + ": expects a number, got '" +
                        (conf_text(v) ? conf_text(v) : "a map or list") + "'");
        if (k == "from") {
            from = d;
        } else if (k == "to") {
            to = d;
        } else if (k == "step") {
            step = d, has_step = true;
        } else if (k == "points") {
            points = d, has_points = true;
        } else {
            fail_at(s.file, conf_line(v),
                    "sweep " + key + ": unknown key '" + k +
                        "' in a range (a range is {from: A, to: B, step: S} or {from: A, to: B, "
                        "points: N})");
        }
    }
    if (!conf_get(m, "from") || !conf_get(m, "to") || has_step == has_points)
        fail_at(s.file, line,
                "sweep " + key +
                    ": a range needs from:, to: and one of step: or points: ({from: 5, to: 21, "
                    "step: 4}, {from: 5.3, to: 21, points: 5})");
    if (to < from)
        fail_at(s.file, line,
                strf("sweep %s: to: %s is below from: %s", key.c_str(), fmt_num(to).c_str(),
                     fmt_num(from).c_str()));
    size_t n;
    if (has_step) {
        if (!(step > 0))
            fail_at(s.file, line, "sweep " + key + ": step: " + fmt_num(step) + " must be above 0");
        double count = std::floor((to - from) / step + 1e-9) + 1;
        if (count > (double)MAX_VALUES)
            fail_at(s.file, line,
                    strf("sweep %s: the range has %.0f values, more than %zu", key.c_str(), count,
                         MAX_VALUES));
        n = (size_t)count;
    } else {
        if (points != std::floor(points) || points < 1 || points > (double)MAX_VALUES)
            fail_at(s.file, line,
                    strf("sweep %s: points: %s must be a whole number from 1 to %zu", key.c_str(),
                         fmt_num(points).c_str(), MAX_VALUES));
        n = (size_t)points;
        if (n == 1 && to != from)
            fail_at(s.file, line,
                    "sweep " + key + ": points: 1 cannot span from: to a different to:");
    }
    std::vector<std::string> out;
    for (size_t i = 0; i < n; i++) {
        double v = has_step ? from + step * (double)i
                   : n == 1 ? from
                            : from + (to - from) * (double)i / (double)(n - 1);
        out.push_back(fmt_num(i + 1 == n && !has_step ? to : v));
    }
    return out;
}

void read_params(const scenario &s, const struct conf_node *params, sweep_spec &sw)
{
    if (conf_len(params) == 0)
        fail_at(s.file, conf_line(params), "sweep: params: names no parameter");
    for (size_t i = 0; i < conf_len(params); i++) {
        sweep_param p;
        p.key = conf_key(params, i);
        const struct conf_node *v = conf_at(params, i);
        p.line = conf_line(v);
        if (conf_kind_of(v) == CONF_LIST) {
            if (conf_len(v) == 0)
                fail_at(s.file, p.line,
                        "sweep " + p.key + ": an empty list (give at least one value)");
            for (size_t j = 0; j < conf_len(v); j++) {
                const char *t = conf_text(conf_at(v, j));
                if (!t)
                    fail_at(s.file, conf_line(conf_at(v, j)),
                            "sweep " + p.key + ": a value must be a scalar, not a map or list");
                p.values.push_back(t);
            }
        } else if (conf_kind_of(v) == CONF_MAP) {
            p.values = range_values(s, p.key, v);
        } else {
            p.values.push_back(conf_text(v));
        }
        if (p.values.size() > MAX_VALUES)
            fail_at(s.file, p.line,
                    strf("sweep %s: %zu values, more than %zu", p.key.c_str(), p.values.size(),
                         MAX_VALUES));
        for (size_t j = 0; j < p.values.size(); j++)
            for (size_t k = 0; k < j; k++)
                if (x_same(p.values[j], p.values[k]))
                    fail_at(s.file, p.line,
                            "sweep " + p.key + ": the value " + p.values[j] + " comes twice");
        for (const sweep_param &o : sw.params)
            if (o.key == p.key)
                fail_at(s.file, p.line,
                        strf("sweep: %s is swept already (line %d)", p.key.c_str(), o.line));
        sw.params.push_back(p);
    }
}

// Which run reports `series`: the base (app series) or a variant (its
// renamed series); false for a series no run reports.
bool run_of(const scenario &s, const std::string &series, std::string *run_name,
            std::string *app_series)
{
    for (const char *const *a = s.app->series; a && *a; a++)
        if (series == *a) {
            *run_name = "";
            *app_series = *a;
            return true;
        }
    for (const variant &v : s.variants)
        for (const char *const *a = s.app->series; a && *a; a++)
            if (v.series_name(*a) == series) {
                *run_name = v.name;
                *app_series = *a;
                return true;
            }
    return false;
}

std::vector<std::string> reported_series(const scenario &s)
{
    std::vector<std::string> out;
    for (const char *const *a = s.app->series; a && *a; a++) out.push_back(*a);
    for (const variant &v : s.variants)
        for (const char *const *a = s.app->series; a && *a; a++)
            if (!v.keeps(*a)) out.push_back(v.series_name(*a));
    return out;
}

// Load the scenario with these overrides as --set would; a cli_error is
// rethrown on `line` (the sweep entry at fault), without the "--set K=V: "
// the loader puts first.
void try_load(const scenario &s, const std::vector<std::string> &sets, int line,
              const std::string &what)
{
    try {
        scenario_load(s.file, sets);
    } catch (const cli_error &e) {
        std::string m = e.what();
        for (const std::string &kv : sets)
            if (m.rfind("--set " + kv + ": ", 0) == 0) m = m.substr(kv.size() + 8);
        fail_at(s.file, line, what + ": " + m);
    }
}

void read_refit(const scenario &s, const struct conf_node *r, sweep_spec &sw)
{
    sweep_refit &f = sw.refit;
    sw.has_refit = true;
    f.line = conf_line(r);
    auto node = [&](const char *k) { return conf_get(r, k); };
    f.key = conf_text(node("key"));
    f.series = conf_text(node("series"));
    f.x = conf_text(node("x"));
    f.key_line = conf_line(node("key"));
    f.series_line = conf_line(node("series"));
    f.x_line = conf_line(node("x"));
    conf_number(node("from"), &f.from);
    conf_number(node("to"), &f.to);
    std::vector<std::string> fitted = fitted_keys(s.platform_file);
    if (std::find(fitted.begin(), fitted.end(), f.key) == fitted.end())
        fail_at(s.file, f.key_line,
                "refit key '" + f.key + "' is not a fitted constant of " + s.platform_file +
                    " (fitted: " + (fitted.empty() ? std::string("none") : join(fitted, ", ")) +
                    "; ipcsim params shows which are)");
    for (const sweep_param &p : sw.params)
        if (p.key == f.key)
            fail_at(s.file, f.key_line,
                    strf("refit key '%s' is swept too (line %d): a refit sets it at every point",
                         f.key.c_str(), p.line));
    const ref_series *rs = s.ref_of(f.series);
    if (!rs) {
        std::vector<std::string> names;
        for (const ref_series &x : s.refs) names.push_back(x.series);
        fail_at(s.file, f.series_line,
                "refit series '" + f.series + "' has no reference: entry (reference series: " +
                    (names.empty() ? std::string("none") : join(names, ", ")) +
                    "); the target is a paper point of the scenario's own reference:");
    }
    bool found = false;
    std::vector<std::string> xs;
    for (const ref_series::point &p : rs->points) {
        xs.push_back(p.x);
        if (!found && x_same(p.x, f.x)) {
            f.target = p.value;
            found = true;
        }
    }
    if (!found)
        fail_at(s.file, f.x_line,
                "refit x '" + f.x + "': reference series " + f.series +
                    " has no point there (its x: " + join(xs, ", ") + ")");
    if (!run_of(s, f.series, &f.variant, &f.app_series))
        fail_at(s.file, f.series_line,
                "refit series '" + f.series +
                    "' is a reference-only series: no run reports it (runs report: " +
                    join(reported_series(s), ", ") + ")");
    if (!(f.from < f.to))
        fail_at(s.file, f.line, "refit: from: must be below to: (the range searched)");
    // Whether the platform takes a fraction: a whole key (cycles of a
    // costs: section) is searched over whole numbers.
    try {
        scenario_load(s.file, {f.key + "=" + fmt_num(std::floor(f.from) + 0.5)});
    } catch (const cli_error &) {
        f.whole = true;
    }
    if (f.whole && (f.from != std::floor(f.from) || f.to != std::floor(f.to)))
        fail_at(s.file, f.line,
                "refit: " + f.key +
                    " is a whole number on this platform: from: and to: must be "
                    "whole too");
    const struct conf_node *it = node("iterations");
    double n = DEFAULT_ITERATIONS;
    if (it) conf_number(it, &n);
    f.iterations = (int)n;
    try_load(s, {f.key + "=" + fmt_num(f.from)}, f.line, "refit from: " + fmt_num(f.from));
    try_load(s, {f.key + "=" + fmt_num(f.to)}, f.line, "refit to: " + fmt_num(f.to));
}

void read_report(const scenario &s, const struct conf_node *list, sweep_spec &sw)
{
    if (conf_kind_of(list) != CONF_LIST || conf_len(list) == 0)
        fail_at(s.file, conf_line(list),
                "sweep: report: must be a list of {series: S, x: X}, the points the sweep shows");
    for (size_t i = 0; i < conf_len(list); i++) {
        const struct conf_node *e = conf_at(list, i);
        if (conf_kind_of(e) != CONF_MAP)
            fail_at(s.file, conf_line(e), strf("'sweep.report.%zu' must be a map", i));
        check_rules(s, e, strf("sweep.report.%zu", i), report_rules);
        sweep_report r;
        r.line = conf_line(e);
        r.series = conf_text(conf_get(e, "series"));
        r.x = conf_text(conf_get(e, "x"));
        std::string v, a;
        if (!run_of(s, r.series, &v, &a))
            fail_at(s.file, conf_line(conf_get(e, "series")),
                    "report series '" + r.series + "' is reported by no run (runs report: " +
                        join(reported_series(s), ", ") + ")");
        if (const ref_series *rs = s.ref_of(r.series))
            for (const ref_series::point &p : rs->points)
                if (!r.has_ref && x_same(p.x, r.x)) {
                    r.has_ref = true;
                    r.ref = p.value;
                    r.source = rs->source;
                }
        sw.report.push_back(r);
    }
}

// A value in a file name: letters, digits, '.', '-'; anything else '_'.
std::string safe(const std::string &v)
{
    std::string out;
    for (char c : v) out += isalnum((unsigned char)c) || c == '.' || c == '-' ? c : '_';
    return out;
}

} // namespace

std::vector<std::string> sweep_point::sets() const
{
    std::vector<std::string> out;
    for (const auto &kv : values) out.push_back(kv.first + "=" + kv.second);
    return out;
}

bool sweep_less(const std::string &a, const std::string &b)
{
    double x, y;
    bool nx = x_number(a, &x), ny = x_number(b, &y);
    if (nx && ny) return x < y;
    if (nx != ny) return nx; // numbers first
    return a < b;
}

std::vector<sweep_point> sweep_points(const sweep_spec &sw)
{
    std::vector<sweep_point> out;
    std::vector<size_t> idx(sw.params.size(), 0);
    size_t n = sw.zip ? sw.params[0].values.size() : 1;
    if (!sw.zip)
        for (const sweep_param &p : sw.params) n *= p.values.size();
    for (size_t k = 0; k < n; k++) {
        sweep_point pt;
        size_t rest = k;
        for (size_t i = sw.params.size(); i-- > 0;) {
            const sweep_param &p = sw.params[i];
            size_t j = sw.zip ? k : rest % p.values.size();
            rest /= sw.zip ? 1 : p.values.size();
            pt.values.insert(pt.values.begin(), {p.key, p.values[j]});
        }
        std::vector<std::string> parts;
        for (const auto &kv : pt.values) parts.push_back(kv.first + "-" + safe(kv.second));
        pt.name = join(parts, "__");
        out.push_back(pt);
    }
    std::stable_sort(out.begin(), out.end(), [](const sweep_point &a, const sweep_point &b) {
        for (size_t i = 0; i < a.values.size(); i++) {
            if (sweep_less(a.values[i].second, b.values[i].second)) return true;
            if (sweep_less(b.values[i].second, a.values[i].second)) return false;
        }
        return false;
    });
    return out;
}

std::string sweep_dir(const std::string &out, const std::string &stem)
{
    return out + "/" + stem + ".sweep";
}

sweep_spec sweep_read(const scenario &s)
{
    sweep_spec sw;
    const struct conf_node *n = conf_get(conf_root(s.doc.get()), "sweep");
    if (!n) fail(s.file + ": no sweep: section (docs/sweeps.md)");
    sw.line = conf_line(n);
    if (conf_kind_of(n) != CONF_MAP)
        fail_at(s.file, sw.line, "sweep: must be a map (params:, report:, ...)");
    check_rules(s, n, "sweep", sweep_rules);
    read_params(s, conf_get(n, "params"), sw);
    if (const struct conf_node *z = conf_get(n, "zip")) {
        std::string t = conf_text(z);
        if (t != "true" && t != "false")
            fail_at(s.file, conf_line(z), "zip: must be true or false, not '" + t + "'");
        sw.zip = t == "true";
    }
    if (sw.zip)
        for (const sweep_param &p : sw.params)
            if (p.values.size() != sw.params[0].values.size())
                fail_at(s.file, p.line,
                        strf("zip: true: %s has %zu values, %s %zu (zipped lists are as long)",
                             p.key.c_str(), p.values.size(), sw.params[0].key.c_str(),
                             sw.params[0].values.size()));
    double total = 1;
    for (const sweep_param &p : sw.params) total *= sw.zip ? 1 : (double)p.values.size();
    if (sw.zip) total = (double)sw.params[0].values.size();
    if (total > (double)MAX_POINTS)
        fail_at(s.file, sw.line,
                strf("sweep: %.0f points, more than %zu (each is a run)", total, MAX_POINTS));
    sw.xlabel = conf_str(s.doc.get(), "sweep.xlabel", sw.params[0].key.c_str());
    sw.ylabel = conf_str(s.doc.get(), "sweep.ylabel", "");
    if (const struct conf_node *r = conf_get(n, "refit")) read_refit(s, r, sw);
    read_report(s, conf_get(n, "report"), sw);

    // Every value alone (its own line), then every point, before anything runs.
    for (const sweep_param &p : sw.params)
        for (const std::string &v : p.values)
            try_load(s, {p.key + "=" + v}, p.line, "sweep " + p.key + "=" + v);
    std::vector<sweep_point> pts = sweep_points(sw);
    for (size_t i = 0; i < pts.size(); i++) {
        for (size_t j = 0; j < i; j++)
            if (pts[i].name == pts[j].name)
                fail_at(s.file, sw.line,
                        "sweep: two points would share the file name " + pts[i].name +
                            " (values that differ only in characters other than letters, "
                            "digits, '.' and '-')");
        if (sw.params.size() > 1) try_load(s, pts[i].sets(), sw.line, "sweep point " + pts[i].name);
    }
    return sw;
}
