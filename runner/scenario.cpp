// scenario.cpp -- load a scenario file and check it against its platform and app.
//
// Each top-level section has its own rules and its own reader below; a new
// section is a rule line plus a reader plus, in check.cpp, the test it adds
// (as `expect:`, relations between series).
#include "scenario.h"
#include "cli.h"
#include "paths.h"

#include "ipcsim/run.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <set>

namespace fs = std::filesystem;

namespace
{

constexpr double UNBOUNDED_MIN = 1, UNBOUNDED_MAX = 0; // min > max: no range

// The top level. Lists of maps (reference, plots) are CONF_T_ANY here and
// checked element by element with their own rules.
const struct conf_rule top_rules[] = {
    {"title", CONF_T_STR, true, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {"description", CONF_T_STR, false, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {"platform", CONF_T_STR, true, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {"set", CONF_T_MAP, false, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {"set.*", CONF_T_STR, false, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {"mapping", CONF_T_MAP, true, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {"mapping.*", CONF_T_INT, false, 0, 1e9},
    {"workload", CONF_T_MAP, true, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {"workload.app", CONF_T_STR, true, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {"workload.args", CONF_T_MAP, false, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {"workload.args.*", CONF_T_ANY, false, UNBOUNDED_MIN, UNBOUNDED_MAX}, // against the app
    {"reference", CONF_T_ANY, false, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {"plots", CONF_T_ANY, false, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {"expect", CONF_T_ANY, false, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {"variants", CONF_T_ANY, false, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {"sweep", CONF_T_ANY, false, UNBOUNDED_MIN, UNBOUNDED_MAX}, // ipcsim sweep: sweep_spec.cpp
    {"chart", CONF_T_MAP, false, UNBOUNDED_MIN, UNBOUNDED_MAX}, // run charts: chart.cpp
    {"chart.scale_ns", CONF_T_INT, false, 1, 1e12},
    {nullptr, CONF_T_ANY, false, 0, 0},
};

const struct conf_rule variant_rules[] = {
    {"variants.*.name", CONF_T_STR, true, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {"variants.*.set", CONF_T_MAP, true, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {"variants.*.set.*", CONF_T_STR, false, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {"variants.*.description", CONF_T_STR, false, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {"variants.*.keep_names", CONF_T_ANY, false, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {nullptr, CONF_T_ANY, false, 0, 0},
};

const struct conf_rule reference_rules[] = {
    {"reference.*.series", CONF_T_STR, true, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {"reference.*.source", CONF_T_STR, true, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {"reference.*.tolerance_pct", CONF_T_NUM, false, 0, 1e12},
    {"reference.*.points", CONF_T_MAP, true, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {"reference.*.points.*", CONF_T_NUM, false, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {nullptr, CONF_T_ANY, false, 0, 0},
};

const struct conf_rule plot_rules[] = {
    {"plots.*.id", CONF_T_STR, true, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {"plots.*.title", CONF_T_STR, false, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {"plots.*.series", CONF_T_LIST, false, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {"plots.*.xlabel", CONF_T_STR, false, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {"plots.*.ylabel", CONF_T_STR, false, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {"plots.*.logx", CONF_T_STR, false, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {"plots.*.logy", CONF_T_STR, false, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {"plots.*.ymin", CONF_T_NUM, false, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {nullptr, CONF_T_ANY, false, 0, 0},
};

const struct conf_rule expect_rules[] = {
    {"expect.*.series", CONF_T_STR, true, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {"expect.*.relation", CONF_T_STR, true, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {"expect.*.than", CONF_T_STR, false, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {"expect.*.why", CONF_T_STR, true, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {"expect.*.margin_pct", CONF_T_NUM, false, 0, 1e12},
    {"expect.*.value", CONF_T_NUM, false, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {"expect.*.from", CONF_T_NUM, false, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {"expect.*.to", CONF_T_NUM, false, UNBOUNDED_MIN, UNBOUNDED_MAX},
    {nullptr, CONF_T_ANY, false, 0, 0},
};

// What margin_pct a relation takes: any (>= 0), under 100 (a bound of
// B * (1 - m/100) at or below 0 makes it about signs, not sizes), one
// above 0 that must be given (near, ratio: a tolerance, never exact for
// measured numbers), or none (at_least, at_most: `value` is the bound).
enum margin_rule { MARGIN_ANY, MARGIN_UNDER_100, MARGIN_NEEDED, MARGIN_NONE };

// The relations of `expect:`, by their names in the file: whether they
// relate two series (than: required) or judge one (than: refused), and
// whether they hold A (or A/B) to a `value:`.
struct relation_decl {
    const char *name;
    expectation::kind kind;
    bool two_series, takes_value;
    margin_rule margin;
};
const relation_decl relations[] = {
    {"above", expectation::ABOVE, true, false, MARGIN_ANY},
    {"below", expectation::BELOW, true, false, MARGIN_UNDER_100},
    {"grows_more", expectation::GROWS_MORE, true, false, MARGIN_ANY},
    {"grows_less", expectation::GROWS_LESS, true, false, MARGIN_UNDER_100},
    {"near", expectation::NEAR, true, false, MARGIN_NEEDED},
    {"ratio", expectation::RATIO, true, true, MARGIN_NEEDED},
    {"at_least", expectation::AT_LEAST, false, true, MARGIN_NONE},
    {"at_most", expectation::AT_MOST, false, true, MARGIN_NONE},
    {"falls", expectation::FALLS, false, false, MARGIN_UNDER_100},
    {"rises", expectation::RISES, false, false, MARGIN_ANY},
};

void check(const scenario &s, const struct conf_node *n, const std::string &base,
           const struct conf_rule *rules)
{
    char err[1024];
    if (conf_check(s.doc.get(), n, base.c_str(), rules, err, sizeof err) != 0) fail(err);
}

const char *text_of(const scenario &s, const char *path, const char *dflt)
{
    return conf_str(s.doc.get(), path, dflt);
}

int line_of(const scenario &s, const char *path)
{
    const struct conf_node *n = conf_get(conf_root(s.doc.get()), path);
    return n ? conf_line(n) : 1;
}

// The elements of a list-of-maps section, each checked against its rules.
std::vector<const struct conf_node *> map_list(const scenario &s, const char *section,
                                               const struct conf_rule *rules)
{
    std::vector<const struct conf_node *> out;
    const struct conf_node *list = conf_get(conf_root(s.doc.get()), section);
    if (!list) return out;
    if (conf_kind_of(list) != CONF_LIST)
        fail_at(s.file, conf_line(list),
                strf("'%s' must be a list of maps (- key: value)", section));
    for (size_t i = 0; i < conf_len(list); i++) {
        const struct conf_node *e = conf_at(list, i);
        if (conf_kind_of(e) != CONF_MAP)
            fail_at(s.file, conf_line(e), strf("'%s.%zu' must be a map", section, i));
        check(s, e, strf("%s.%zu", section, i), rules);
        out.push_back(e);
    }
    return out;
}

std::vector<std::string> platform_names(const std::string &root)
{
    std::set<std::string> names;
    std::error_code ec;
    for (const auto &e : fs::directory_iterator(root + "/platforms", ec))
        if (e.path().extension() == ".yaml") names.insert(e.path().stem().string());
    return std::vector<std::string>(names.begin(), names.end());
}

void load_platform(scenario &s)
{
    s.platform_name = text_of(s, "platform", "");
    int line = line_of(s, "platform");
    const std::string &name = s.platform_name;
    bool is_path = name.find('/') != std::string::npos ||
                   (name.size() > 5 && name.compare(name.size() - 5, 5, ".yaml") == 0);
    if (is_path) {
        s.platform_file = fs::path(name).is_absolute() ? name : file_dir(s.file) + "/" + name;
        if (is_dir(s.platform_file))
            fail_at(s.file, line,
                    "platform '" + name + "': " + display_path(s.platform_file) +
                        " is a directory, not a platform file (give a .yaml file in it, or a "
                        "platform's name)");
        if (!is_file(s.platform_file))
            fail_at(s.file, line,
                    "platform '" + name + "': no such file " + display_path(s.platform_file));
    } else {
        std::string root = data_root();
        s.platform_file = root + "/platforms/" + name + ".yaml";
        if (name.empty() || !is_file(s.platform_file))
            fail_at(s.file, line,
                    "unknown platform '" + name + "'; known platforms: " +
                        join(platform_names(root), ", ") + " (or give a path to a .yaml file)");
    }
    char err[1024];
    std::string shown = display_path(s.platform_file);
    s.platform.reset(conf_load(shown.c_str(), err, sizeof err));
    if (!s.platform) fail(err);
}

// A set: or --set entry on the scenario's platform (platform_set).
void set_platform(scenario &s, const std::string &key, const std::string &value,
                  const std::string &where, const std::string &origin)
{
    platform_set(s.platform.get(), key, value, where, origin,
                 "change the scenario's platform: key (" + at(s.file, line_of(s, "platform")) +
                     ": platform: " + s.platform_name + ")");
    s.overrides.push_back(key + "=" + value);
}

bool parse_bool(const scenario &s, const struct conf_node *n, const std::string &what)
{
    std::string t = conf_text(n);
    if (t == "true") return true;
    if (t == "false") return false;
    fail_at(s.file, conf_line(n), "'" + what + "' must be true or false, not '" + t + "'");
}

void read_mapping(scenario &s)
{
    const struct conf_node *m = conf_get(conf_root(s.doc.get()), "mapping");
    std::vector<std::string> roles;
    for (const char *const *r = s.app->roles; r && *r; r++) roles.push_back(*r);
    std::vector<int> core_of(roles.size(), -1);
    for (size_t i = 0; i < conf_len(m); i++) {
        std::string role = conf_key(m, i);
        const struct conf_node *v = conf_at(m, i);
        size_t r = 0;
        while (r < roles.size() && roles[r] != role) r++;
        if (r == roles.size())
            fail_at(s.file, conf_line(v),
                    strf("unknown role '%s' of app %s; its roles are: %s", role.c_str(),
                         s.app->name, join(roles, ", ").c_str()));
        double d = 0;
        conf_number(v, &d);
        int core = (int)d;
        if (s.cores >= 0 && core >= s.cores)
            fail_at(s.file, conf_line(v),
                    strf("role '%s' on core %d: the platform has %d core%s (0..%d)", role.c_str(),
                         core, s.cores, s.cores == 1 ? "" : "s", s.cores - 1));
        for (size_t o = 0; o < roles.size(); o++)
            if (core_of[o] == core)
                fail_at(s.file, conf_line(v),
                        strf("core %d already runs role '%s' (one role per core)", core,
                             roles[o].c_str()));
        core_of[r] = core;
    }
    for (size_t r = 0; r < roles.size(); r++) {
        if (core_of[r] < 0)
            fail_at(
                s.file, conf_line(m),
                strf("role '%s' of app %s is not mapped to a core", roles[r].c_str(), s.app->name));
        s.mapping.emplace_back(roles[r], core_of[r]);
    }
}

// Two x written differently that are the same number ("4", "4.0", "4e0").
bool same_x(const std::string &a, const std::string &b)
{
    if (a == b) return true;
    char *ea, *eb;
    double x = strtod(a.c_str(), &ea), y = strtod(b.c_str(), &eb);
    return !a.empty() && !b.empty() && !*ea && !*eb && x == y;
}

// The variant whose series `name` is (<app series>_<variant>), or NULL.
const variant *variant_of(const scenario &s, const std::string &name)
{
    for (const variant &v : s.variants) {
        size_t n = name.size(), k = v.name.size() + 1;
        if (n <= k || name.compare(n - k, k, "_" + v.name) != 0) continue;
        std::string base = name.substr(0, n - k);
        if (v.keeps(base)) continue; // its points are the base's series
        for (const char *const *a = s.app->series; a && *a; a++)
            if (base == *a) return &v;
    }
    return nullptr;
}

bool app_reports(const scenario &s, const std::string &name)
{
    for (const char *const *a = s.app->series; a && *a; a++)
        if (name == *a) return true;
    return false;
}

std::string variant_names(const scenario &s)
{
    std::vector<std::string> names;
    for (const variant &v : s.variants) names.push_back(v.name);
    return names.empty() ? "the scenario declares none" : "variants: " + join(names, ", ");
}

// <app series>_<suffix> where no variant is <suffix>: a typo of a variant's
// name (latency_us_gbx), or a variant not declared, rather than a series of
// its own; a FILE:LINE error.
void check_suffix(const scenario &s, const std::string &name, int line, const std::string &what)
{
    if (!s.app->series || app_reports(s, name) || variant_of(s, name)) return;
    for (const char *const *a = s.app->series; *a; a++) {
        std::string base = std::string(*a) + "_";
        if (name.size() <= base.size() || name.compare(0, base.size(), base) != 0) continue;
        for (const variant &v : s.variants)
            if (v.keeps(*a) && name.substr(base.size()) == v.name)
                fail_at(s.file, line,
                        strf("%s names series '%s', but variant '%s' keeps its series' names "
                             "(%s, %s): its points are in series '%s'",
                             what.c_str(), name.c_str(), v.name.c_str(),
                             v.keep_names ? "keep_names: true" : "keep_names lists it",
                             at(s.file, v.line).c_str(), *a));
        fail_at(s.file, line,
                strf("%s names series '%s': %s of a variant '%s', but no variant has that "
                     "name (%s); a series of its own needs a name that does not start with "
                     "'%s'",
                     what.c_str(), name.c_str(), *a, name.substr(base.size()).c_str(),
                     variant_names(s).c_str(), base.c_str()));
    }
}

// A plot's series must be one the app may report (struct app.series), one
// of a variant's run (<series>_<variant>) or one the scenario gives
// reference points for (a paper's own column).
void check_series(const scenario &s, const std::string &name, int line, const std::string &what)
{
    const char *const *list = s.app->series;
    if (!list || s.ref_of(name) || variant_of(s, name)) return;
    check_suffix(s, name, line, what);
    std::vector<std::string> names;
    for (const char *const *n = list; *n; n++) {
        if (name == *n) return;
        names.push_back(*n);
    }
    for (const variant &v : s.variants)
        for (const char *const *n = list; *n; n++)
            if (!v.keeps(*n)) names.push_back(v.series_name(*n));
    for (const ref_series &r : s.refs)
        if (std::find(names.begin(), names.end(), r.series) == names.end())
            names.push_back(r.series);
    fail_at(s.file, line,
            strf("%s names series '%s', which app %s does not report and no reference gives; "
                 "the series are: %s",
                 what.c_str(), name.c_str(), s.app->name, join(names, ", ").c_str()));
}

void read_references(scenario &s)
{
    for (const struct conf_node *e : map_list(s, "reference", reference_rules)) {
        ref_series r;
        r.line = conf_line(e);
        r.series = conf_text(conf_get(e, "series"));
        r.source = conf_text(conf_get(e, "source"));
        check_suffix(s, r.series, conf_line(conf_get(e, "series")), "reference");
        if (const struct conf_node *t = conf_get(e, "tolerance_pct")) {
            r.has_tolerance = true;
            conf_number(t, &r.tolerance_pct);
        }
        if (s.ref_of(r.series))
            fail_at(s.file, r.line, "series '" + r.series + "' already has a reference");
        const struct conf_node *pts = conf_get(e, "points");
        for (size_t i = 0; i < conf_len(pts); i++) {
            const struct conf_node *v = conf_at(pts, i);
            ref_series::point p{conf_key(pts, i), 0, conf_line(v)};
            conf_number(v, &p.value);
            if (p.value == 0)
                fail_at(s.file, p.line,
                        "a reference point must not be 0 (the error is relative to it)");
            // YAML refuses a key written twice; 4 and 4.0 are two keys but
            // one x, and two paper values for one point.
            for (const ref_series::point &o : r.points)
                if (same_x(o.x, p.x))
                    fail_at(s.file, p.line,
                            strf("series '%s': x %s is the x of the point at line %d (%s); one "
                                 "reference value per x",
                                 r.series.c_str(), p.x.c_str(), o.line, o.x.c_str()));
            r.points.push_back(p);
        }
        s.refs.push_back(r);
    }
}

// `ymin:` starts the y axis there (e.g. at 0, so small differences do not
// look large); a log axis has no 0 or below.
void read_ymin(const scenario &s, const struct conf_node *e, plot_spec &p)
{
    const struct conf_node *y = conf_get(e, "ymin");
    if (!y) return;
    p.has_ymin = true;
    conf_number(y, &p.ymin);
    if (p.logy && p.ymin <= 0)
        fail_at(s.file, conf_line(y),
                "plot '" + p.id + "': ymin " + conf_text(y) + " on a log y axis (logy: true) " +
                    "must be above 0");
}

void read_plots(scenario &s)
{
    for (const struct conf_node *e : map_list(s, "plots", plot_rules)) {
        plot_spec p;
        p.line = conf_line(e);
        p.id = conf_text(conf_get(e, "id"));
        if (p.id.empty() ||
            p.id.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != std::string::npos)
            fail_at(s.file, conf_line(conf_get(e, "id")),
                    "plot id '" + p.id + "' must be letters, digits, '_' or '-' (it names a file)");
        for (const plot_spec &o : s.plots)
            if (o.id == p.id)
                fail_at(s.file, p.line, "a plot with id '" + p.id + "' exists already");
        auto str = [&](const char *k, const std::string &d) {
            const char *t = conf_text(conf_get(e, k));
            return t ? std::string(t) : d;
        };
        p.title = str("title", s.title);
        p.xlabel = str("xlabel", "x");
        p.ylabel = str("ylabel", "");
        if (const struct conf_node *l = conf_get(e, "series"))
            for (size_t i = 0; i < conf_len(l); i++) {
                const struct conf_node *n = conf_at(l, i);
                p.series.push_back(conf_text(n));
                check_series(s, p.series.back(), conf_line(n), "plot '" + p.id + "'");
            }
        if (const struct conf_node *b = conf_get(e, "logx")) p.logx = parse_bool(s, b, "logx");
        if (const struct conf_node *b = conf_get(e, "logy")) p.logy = parse_bool(s, b, "logy");
        read_ymin(s, e, p);
        s.plots.push_back(p);
    }
}

const relation_decl &parse_relation(const scenario &s, const struct conf_node *n)
{
    std::string t = conf_text(n);
    std::vector<std::string> names;
    for (const relation_decl &r : relations) {
        if (t == r.name) return r;
        names.push_back(r.name);
    }
    fail_at(s.file, conf_line(n),
            "unknown relation '" + t + "'; relations are: " + join(names, ", "));
}

// margin_pct as the relation takes it (margin_rule).
void read_margin(const scenario &s, const struct conf_node *e, const relation_decl &r,
                 expectation &x)
{
    const struct conf_node *m = conf_get(e, "margin_pct");
    std::string rel = strf("relation %s", r.name);
    if (!m) {
        if (r.margin == MARGIN_NEEDED)
            fail_at(s.file, x.line,
                    rel + " needs margin_pct, above 0 (how far A/B may be from " +
                        (r.kind == expectation::NEAR ? "1" : "value:") + ", in %)");
        return;
    }
    conf_number(m, &x.margin_pct);
    std::string v = conf_text(m);
    if (r.margin == MARGIN_NONE)
        fail_at(s.file, conf_line(m),
                rel + " takes no margin_pct: its value: is the bound (give the bound you mean)");
    if (r.margin == MARGIN_UNDER_100 && x.margin_pct >= 100)
        fail_at(s.file, conf_line(m), "margin_pct " + v + " with " + rel + " must be under 100");
    if (r.margin == MARGIN_NEEDED && x.margin_pct <= 0)
        fail_at(s.file, conf_line(m), "margin_pct " + v + " with " + rel + " must be above 0");
}

// than: for the relations between two series, and only for them.
void read_than(const scenario &s, const struct conf_node *e, const relation_decl &r, expectation &x)
{
    const struct conf_node *t = conf_get(e, "than");
    if (!r.two_series) {
        if (t)
            fail_at(s.file, conf_line(t),
                    strf("relation %s judges one series (series:); than: is not for it", r.name));
        return;
    }
    if (!t)
        fail_at(s.file, x.line,
                strf("relation %s relates two series: than: (series B) is required", r.name));
    x.than = conf_text(t);
    if (x.series == x.than)
        fail_at(s.file, x.line,
                "expect compares series '" + x.series + "' with itself (than: names series B)");
}

// value: for ratio (A/B), at_least and at_most (A); refused elsewhere.
void read_value(const scenario &s, const struct conf_node *e, const relation_decl &r,
                expectation &x)
{
    const struct conf_node *v = conf_get(e, "value");
    if (!r.takes_value) {
        if (v) fail_at(s.file, conf_line(v), strf("relation %s takes no value:", r.name));
        return;
    }
    if (!v)
        fail_at(s.file, x.line,
                strf("relation %s needs value: (the number %s is held to)", r.name,
                     r.two_series ? "A/B" : "A"));
    x.has_value = true;
    conf_number(v, &x.value);
    if (x.relation == expectation::RATIO && !(x.value > 0))
        fail_at(s.file, conf_line(v),
                strf("relation ratio: value %s must be above 0 (A/B is held to it)", conf_text(v)));
}

// from: and to:, inclusive bounds on x ("from 4096 on", "up to 1 KiB").
void read_range(const scenario &s, const struct conf_node *e, expectation &x)
{
    const struct conf_node *f = conf_get(e, "from"), *t = conf_get(e, "to");
    x.has_from = f && conf_number(f, &x.from); // numbers: expect_rules checked them
    x.has_to = t && conf_number(t, &x.to);
    if (f && t && x.from > x.to)
        fail_at(s.file, conf_line(t),
                strf("to: %s is below from: %s (only points with from <= x <= to count)",
                     conf_text(t), conf_text(f)));
}

void read_expects(scenario &s)
{
    for (const struct conf_node *e : map_list(s, "expect", expect_rules)) {
        expectation x;
        x.line = conf_line(e);
        x.series = conf_text(conf_get(e, "series"));
        x.why = conf_text(conf_get(e, "why"));
        const relation_decl &r = parse_relation(s, conf_get(e, "relation"));
        x.relation = r.kind;
        read_than(s, e, r, x);
        read_value(s, e, r, x);
        read_margin(s, e, r, x);
        read_range(s, e, x);
        if (x.why.empty())
            fail_at(s.file, conf_line(conf_get(e, "why")),
                    "'why' must name the claim's source, not be empty");
        s.expects.push_back(x);
    }
}

} // namespace

const ref_series *scenario::ref_of(const std::string &series) const
{
    for (const ref_series &r : refs)
        if (r.series == series) return &r;
    return nullptr;
}

namespace
{
// One override of a run, from a file's set: (node: its value there) or
// from the command line (node NULL; `where` starts its messages).
struct set_entry {
    std::string key, value, where;
    const struct conf_node *node;
};
} // namespace

// The overrides of a set: map of the scenario file at path; `who` names
// the map in messages ("variant slow: ").
static std::vector<set_entry> file_sets(const std::string &path, const struct conf_node *set,
                                        const std::string &who)
{
    std::vector<set_entry> out;
    for (size_t i = 0; i < conf_len(set); i++) {
        const struct conf_node *v = conf_at(set, i);
        set_entry o{conf_key(set, i), conf_text(v), at(path, conf_line(v)), v};
        if (o.key.rfind("args.", 0) != 0) o.where += ": " + who + "set " + o.key;
        out.push_back(o);
    }
    return out;
}

// One run of the scenario at path: the file, its platform with the
// overrides -- the scenario's set:, then `extra` (a variant's), then --set
// --, the app, its mapping and arguments. Not the sections that read series.
static scenario load_run(const std::string &path, const std::vector<set_entry> &extra,
                         const std::vector<std::string> &sets)
{
    scenario s;
    s.file = path;
    s.stem = file_stem(path);
    s.group = file_group(path);
    char err[1024];
    s.doc.reset(conf_load(path.c_str(), err, sizeof err));
    if (!s.doc) fail(err);
    const struct conf_node *root = conf_root(s.doc.get());
    if (conf_kind_of(root) != CONF_MAP)
        fail_at(path, conf_line(root), "a scenario is a map of keys (title:, platform:, ...)");
    check(s, root, "", top_rules);
    s.title = text_of(s, "title", "");
    s.description = text_of(s, "description", "");

    // Split the overrides: "args.X" go to the workload, the rest to the platform.
    std::vector<set_entry> plat_sets, arg_sets,
        in_file = file_sets(path, conf_get(root, "set"), "");
    in_file.insert(in_file.end(), extra.begin(), extra.end());
    for (const set_entry &o : in_file)
        (o.key.rfind("args.", 0) == 0 ? arg_sets : plat_sets).push_back(o);
    for (const std::string &kv : sets) {
        size_t eq = kv.find('=');
        if (eq == std::string::npos || eq == 0) fail("--set " + kv + ": expected KEY=VALUE");
        set_entry o{kv.substr(0, eq), kv.substr(eq + 1), "--set " + kv, nullptr};
        (o.key.rfind("args.", 0) == 0 ? arg_sets : plat_sets).push_back(o);
    }

    load_platform(s);
    for (const set_entry &o : plat_sets)
        set_platform(s, o.key, o.value, o.where, o.node ? at(path, conf_line(o.node)) : "");
    if (plat_check(s.platform.get(), err, sizeof err) != 0) fail(err);
    s.cores = plat_core_count(s.platform.get()); // as the platform's kind counts them

    const char *app = text_of(s, "workload.app", "");
    s.app = app_find(app);
    if (!s.app) {
        std::vector<std::string> names;
        for (const struct app *const *a = app_table; *a; a++) names.push_back((*a)->name);
        fail_at(path, line_of(s, "workload.app"),
                strf("unknown app '%s'; known apps: %s", app, join(names, ", ").c_str()));
    }
    read_mapping(s);

    s.args = args_defaults(s.app);
    const struct conf_node *args = conf_get(root, "workload.args");
    for (size_t i = 0; i < conf_len(args); i++)
        args_set_node(s.args, conf_key(args, i), conf_at(args, i), path);
    for (const set_entry &o : arg_sets) {
        std::string name = o.key.substr(5);
        if (o.node) {
            args_set_node(s.args, name.c_str(), o.node, path);
        } else {
            // "--set args.reps=0: scenario.yaml:19": where the value it
            // replaces is, or the scenario when it takes the default.
            const struct conf_node *v = conf_get(args, name.c_str());
            args_set_text(s.args, name.c_str(), o.value,
                          o.where + ": " + (v ? at(path, conf_line(v)) : path));
        }
        s.overrides.push_back(o.key + "=" + o.value);
    }
    args_finish(s.args, at(path, line_of(s, "workload")));
    return s;
}

// `variants:`: each entry's name and set: checked, then its run loaded as
// the base's was, so that a bad override fails before anything runs.
static void read_variants(scenario &s, const std::vector<std::string> &sets)
{
    const char *const name_chars = "abcdefghijklmnopqrstuvwxyz0123456789_";
    std::vector<const struct conf_node *> entries = map_list(s, "variants", variant_rules);
    for (size_t i = 0; i < entries.size(); i++) {
        const struct conf_node *e = entries[i], *n = conf_get(e, "name"), *set = conf_get(e, "set");
        variant v;
        v.line = conf_line(e);
        v.name = conf_text(n);
        v.description = text_of(s, strf("variants.%zu.description", i).c_str(), "");
        if (const struct conf_node *k = conf_get(e, "keep_names")) {
            if (conf_kind_of(k) != CONF_LIST) {
                v.keep_names = parse_bool(s, k, "keep_names");
            } else {
                for (size_t j = 0; j < conf_len(k); j++) {
                    const struct conf_node *x = conf_at(k, j);
                    const char *t = conf_text(x);
                    if (!t || !app_reports(s, t))
                        fail_at(s.file, conf_line(x),
                                strf("keep_names lists '%s', which app %s does not report",
                                     t ? t : "(not a name)", s.app->name));
                    v.keep.push_back(t);
                }
            }
        }
        if (v.name.empty() || v.name.find_first_not_of(name_chars) != std::string::npos)
            fail_at(s.file, conf_line(n),
                    "variant name '" + v.name +
                        "' must be lowercase letters, digits or '_' (it ends its series' names: "
                        "<series>_" +
                        v.name + ")");
        for (const variant &o : s.variants)
            if (o.name == v.name)
                fail_at(
                    s.file, conf_line(n),
                    strf("a variant named '%s' exists already (line %d)", v.name.c_str(), o.line));
        // latency_us_gbe must be one series: the base's or this variant's.
        for (const char *const *a = s.app->series; a && *a; a++)
            for (const char *const *b = s.app->series; *b && !v.keeps(*a); b++)
                if (std::string(*a) + "_" + v.name == *b)
                    fail_at(s.file, conf_line(n),
                            strf("variant '%s': its series %s_%s would be app %s's series %s; "
                                 "choose another name",
                                 v.name.c_str(), *a, v.name.c_str(), s.app->name, *b));
        if (conf_len(set) == 0)
            fail_at(s.file, conf_line(set),
                    "variant '" + v.name + "' sets nothing: it would repeat the base run");
        for (size_t k = 0; k < conf_len(set); k++)
            v.set.push_back(std::string(conf_key(set, k)) + "=" + conf_text(conf_at(set, k)));
        try {
            v.run = std::make_shared<const scenario>(
                load_run(s.file, file_sets(s.file, set, "variant " + v.name + ": "), sets));
        } catch (const cli_error &err) {
            // A rule its overrides break elsewhere (the mapping, for fewer
            // cores) names the variant, not only the rule's line.
            std::string m = err.what();
            if (m.find("variant " + v.name + ": ") != std::string::npos) throw;
            fail(m + " (in variant '" + v.name + "', " + at(s.file, v.line) + ")");
        }
        s.variants.push_back(v);
    }
}

scenario scenario_load(const std::string &path, const std::vector<std::string> &sets)
{
    scenario s = load_run(path, {}, sets);
    read_variants(s, sets);
    read_references(s);
    read_plots(s);
    read_expects(s);
    return s;
}

void platform_set(struct conf *plat, const std::string &key, const std::string &value,
                  const std::string &where, const std::string &origin,
                  const std::string &other_platform)
{
    std::string file = conf_file(plat);
    if (key == "platform")
        fail(where + ": " + file +
             ": 'platform' is the platform's kind, not a parameter; to run on another platform " +
             other_platform);
    const struct conf_node *n = conf_get(conf_root(plat), key.c_str());
    char err[4096];
    if (conf_set_at(plat, key.c_str(), value.c_str(), origin.empty() ? nullptr : origin.c_str(),
                    err, sizeof err) == 0)
        return;
    // A --set names the key's place in the platform file (or the file when
    // it has no such key); a set: entry's own line says enough.
    std::string in = !origin.empty()         ? ""
                     : n && conf_line(n) > 0 ? at(file, conf_line(n)) + ": "
                                             : file + ": ";
    std::string msg = err;
    // `platform` is a leaf conf offers, but not one a --set may change.
    const std::string offered = "valid keys are: platform, ";
    size_t k = msg.find(offered);
    if (k != std::string::npos) msg.replace(k, offered.size(), "valid keys are: ");
    fail(where + ": " + in + msg);
}
