// appctx.cpp -- the app.h functions: mapping, arguments and reports of a run.
//
// Apps call these from simulated cores (all on one host thread) or from native
// threads, so everything that changes is behind one mutex.
#include "appctx.h"
#include "cli.h"
#include "progress.h"

#include "ipcsim/app.h"
#include "ipcsim/plat.h"

#include <algorithm>
#include <cctype>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <mutex>

// One app_fail(): which core said what.
struct app_failure {
    int core;
    std::string msg;
};

// What one core recorded with app_interval(). Only that core writes it (in
// sim every core is on one host thread; natively each is its own thread), so
// recording takes no lock; run_app reads it after every core has stopped.
struct core_charts {
    std::vector<chart_data> charts; // in first-use order
    size_t count = 0;               // intervals kept
    bool stopped = false;           // a call was refused: ignore the rest
};

struct app_ctx {
    const scenario *s;
    std::vector<core_charts> charts;   // per core (plat_cores())
    std::vector<const char *> role_of; // per core; nullptr when unmapped
    std::mutex lock;
    app_result result;
    std::vector<app_failure> failures; // in the order they were said
    progress *prog = nullptr;
};

namespace
{

void failure(struct app_ctx *ctx, const std::string &msg)
{
    int core = plat_core();
    std::lock_guard<std::mutex> g(ctx->lock);
    ctx->failures.push_back({core, msg});
}

std::string role_name(const struct app_ctx &ctx, int core)
{
    const char *role = core >= 0 && (size_t)core < ctx.role_of.size() ? ctx.role_of[core] : nullptr;
    return role ? role : "unmapped";
}

// "0", "0-63", "0, 2, 5-7": the cores, in order, with runs joined.
std::string core_list(std::vector<int> cores)
{
    std::sort(cores.begin(), cores.end());
    std::vector<std::string> parts;
    for (size_t i = 0; i < cores.size();) {
        size_t j = i;
        while (j + 1 < cores.size() && cores[j + 1] == cores[j] + 1) j++;
        parts.push_back(j == i ? std::to_string(cores[i]) : strf("%d-%d", cores[i], cores[j]));
        i = j + 1;
    }
    return join(parts, ", ");
}

// Every reason once, in the order it was first given, with the cores that
// gave it: an app whose every core finds the same fault (sw26010's 65 cores
// without a mesh) says so in one line, not one per core.
std::vector<std::string> merged_failures(const struct app_ctx &ctx)
{
    std::vector<std::string> msgs;
    std::vector<std::vector<int>> cores;
    for (const app_failure &f : ctx.failures) {
        size_t i = std::find(msgs.begin(), msgs.end(), f.msg) - msgs.begin();
        if (i == msgs.size()) {
            msgs.push_back(f.msg);
            cores.emplace_back();
        }
        if (std::find(cores[i].begin(), cores[i].end(), f.core) == cores[i].end())
            cores[i].push_back(f.core);
    }
    std::vector<std::string> out;
    for (size_t i = 0; i < msgs.size(); i++) {
        std::vector<std::string> roles;
        for (int c : cores[i]) {
            std::string r = role_name(ctx, c);
            if (std::find(roles.begin(), roles.end(), r) == roles.end()) roles.push_back(r);
        }
        out.push_back(strf("core%s %s (%s): %s", cores[i].size() == 1 ? "" : "s",
                           core_list(cores[i]).c_str(), join(roles, ", ").c_str(),
                           msgs[i].c_str()));
    }
    return out;
}

// The argument `name` if it has one of the two types, else a failure.
const arg_value *arg(struct app_ctx *ctx, const char *name, enum app_arg_type a,
                     enum app_arg_type b, const char *call)
{
    const arg_value *v = ctx->s->args.find(name);
    if (!v) {
        failure(ctx, strf("%s(\"%s\"): app %s declares no such argument", call, name,
                          ctx->s->app->name));
        return nullptr;
    }
    if (v->decl->type != a && v->decl->type != b) {
        failure(ctx, strf("%s(\"%s\"): the argument is declared %s", call, name,
                          arg_type_name(v->decl->type)));
        return nullptr;
    }
    return v;
}

bool chart_name_ok(const char *n)
{
    size_t len = strlen(n);
    if (len == 0 || len > 32) return false;
    for (size_t i = 0; i < len; i++)
        if (!isalnum((unsigned char)n[i]) && n[i] != '_' && n[i] != '-') return false;
    return true;
}

// Why app_interval's arguments are refused, or "".
std::string interval_error(const char *chart, int row, char mark, uint64_t t0, uint64_t t1)
{
    if (!chart) return "the chart name is NULL";
    if (!chart_name_ok(chart))
        return strf("chart name '%s' must be 1 to 32 letters, digits, '_' or '-' (it names files)",
                    chart);
    if (row < 0 || row >= plat_cores())
        return strf("chart '%s': row %d is not a core (0 .. %d)", chart, row, plat_cores() - 1);
    if (mark <= ' ' || mark > '~' || mark == '|')
        return strf("chart '%s': mark %d ('%c') is not a printable character other than ' ' "
                    "and '|'",
                    chart, (int)(unsigned char)mark, mark >= ' ' && mark <= '~' ? mark : '?');
    if (t1 < t0)
        return strf("chart '%s': the interval ends (%llu ns) before it starts (%llu ns)", chart,
                    (unsigned long long)t1, (unsigned long long)t0);
    return "";
}

// Every core's intervals, chart by chart in name order; a failure when the
// run used more than APP_CHART_MAX charts (in *error, and no charts).
std::vector<chart_data> merged_charts(const struct app_ctx &ctx, std::string *error)
{
    std::vector<chart_data> out;
    for (const core_charts &c : ctx.charts)
        for (const chart_data &d : c.charts) {
            auto it = std::find_if(out.begin(), out.end(),
                                   [&](const chart_data &o) { return o.name == d.name; });
            if (it == out.end()) it = out.insert(out.end(), chart_data{d.name, {}});
            it->intervals.insert(it->intervals.end(), d.intervals.begin(), d.intervals.end());
        }
    std::sort(out.begin(), out.end(),
              [](const chart_data &a, const chart_data &b) { return a.name < b.name; });
    for (chart_data &d : out)
        std::sort(d.intervals.begin(), d.intervals.end(), [](const interval &a, const interval &b) {
            if (a.row != b.row) return a.row < b.row;
            if (a.t0 != b.t0) return a.t0 < b.t0;
            if (a.t1 != b.t1) return a.t1 < b.t1;
            return a.mark < b.mark;
        });
    if (out.size() > APP_CHART_MAX) {
        std::vector<std::string> names;
        for (const chart_data &d : out) names.push_back(d.name);
        *error = strf("app_interval: %zu charts in the run (%s), more than APP_CHART_MAX (%d, "
                      "ipcsim/app.h)",
                      out.size(), join(names, ", ").c_str(), APP_CHART_MAX);
        out.clear();
    }
    return out;
}

void entry(void *p)
{
    auto *ctx = static_cast<struct app_ctx *>(p);
    ctx->s->app->run(ctx);
}

} // namespace

int app_core_of(struct app_ctx *ctx, const char *role)
{
    for (const auto &m : ctx->s->mapping)
        if (m.first == role) return m.second;
    return -1;
}

const char *app_role(struct app_ctx *ctx)
{
    int core = plat_core();
    return core >= 0 && (size_t)core < ctx->role_of.size() ? ctx->role_of[core] : nullptr;
}

long app_int(struct app_ctx *ctx, const char *name)
{
    const arg_value *v = arg(ctx, name, APP_INT, APP_INT, "app_int");
    return v ? (long)v->num : 0;
}

double app_num(struct app_ctx *ctx, const char *name)
{
    const arg_value *v = arg(ctx, name, APP_NUM, APP_INT, "app_num");
    return v ? v->num : 0;
}

const char *app_str(struct app_ctx *ctx, const char *name)
{
    const arg_value *v = ctx->s->args.find(name); // any type has a text
    if (!v)
        failure(ctx,
                strf("app_str(\"%s\"): app %s declares no such argument", name, ctx->s->app->name));
    return v ? v->text.c_str() : "";
}

size_t app_list_len(struct app_ctx *ctx, const char *name)
{
    const arg_value *v = arg(ctx, name, APP_INT_LIST, APP_NUM_LIST, "app_list_len");
    return v ? v->list.size() : 0;
}

double app_list_num(struct app_ctx *ctx, const char *name, size_t i)
{
    const arg_value *v = arg(ctx, name, APP_INT_LIST, APP_NUM_LIST, "app_list_num");
    if (!v) return 0;
    if (i >= v->list.size()) {
        failure(ctx, strf("app_list_num(\"%s\", %zu): the list has %zu elements", name, i,
                          v->list.size()));
        return 0;
    }
    return v->list[i];
}

void app_report(struct app_ctx *ctx, const char *series, const char *x, double value,
                const char *unit)
{
    std::lock_guard<std::mutex> g(ctx->lock);
    ctx->result.points.push_back({series ? series : "", x ? x : "", unit ? unit : "", value});
    if (ctx->prog) ctx->prog->point();
}

void app_interval(struct app_ctx *ctx, const char *chart, int row, char mark, uint64_t t0_ns,
                  uint64_t t1_ns)
{
    int core = plat_core();
    if (core < 0 || (size_t)core >= ctx->charts.size()) {
        failure(ctx, strf("app_interval: called from core %d, not one of the run's %zu", core,
                          ctx->charts.size()));
        return;
    }
    core_charts &c = ctx->charts[core];
    if (c.stopped) return;
    std::string why = interval_error(chart, row, mark, t0_ns, t1_ns);
    if (!why.empty()) {
        c.stopped = true;
        failure(ctx, strf("app_interval(\"%s\", row %d, mark %d): %s", chart ? chart : "(null)",
                          row, (int)(unsigned char)mark, why.c_str()));
        return;
    }
    if (t1_ns == t0_ns) return;
    auto it = std::find_if(c.charts.begin(), c.charts.end(),
                           [&](const chart_data &d) { return d.name == chart; });
    if (it == c.charts.end()) {
        if (c.charts.size() == APP_CHART_MAX) {
            c.stopped = true;
            failure(ctx, strf("app_interval: chart '%s' would be chart %d of this core, more than "
                              "APP_CHART_MAX (%d, ipcsim/app.h)",
                              chart, APP_CHART_MAX + 1, APP_CHART_MAX));
            return;
        }
        it = c.charts.insert(c.charts.end(), chart_data{chart, {}});
    }
    std::vector<interval> &v = it->intervals;
    // This row's latest interval, among the last few (a core mostly records
    // its own row, so it is the last one).
    int look = 8;
    for (auto last = v.rbegin(); last != v.rend() && look-- > 0; ++last)
        if (last->row == row) {
            if (last->mark == mark && last->t1 == t0_ns) {
                last->t1 = t1_ns;
                return;
            }
            break;
        }
    if (c.count == APP_INTERVAL_MAX) {
        c.stopped = true;
        failure(ctx, strf("app_interval: chart '%s': more than APP_INTERVAL_MAX (%d, ipcsim/app.h) "
                          "intervals from one core; the rest were not kept (record fewer, "
                          "longer ones: adjacent ones of one mark join)",
                          chart, APP_INTERVAL_MAX));
        return;
    }
    c.count++;
    v.push_back({t0_ns, t1_ns, row, mark});
}

void app_fail(struct app_ctx *ctx, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    failure(ctx, msg);
}

app_result run_app(const scenario &s, const run_opts &o)
{
    app_ctx ctx;
    ctx.s = &s;
    ctx.prog = o.prog;
    int cores = s.cores;
    for (const auto &m : s.mapping) cores = std::max(cores, m.second + 1);
    ctx.role_of.assign(cores > 0 ? cores : 0, nullptr);
    ctx.charts.resize(ctx.role_of.size());
    for (const auto &m : s.mapping) ctx.role_of[m.second] = m.first.c_str();

    struct plat_run r;
    memset(&r, 0, sizeof r);
    r.backend = o.backend;
    r.platform = s.platform.get();
    r.entry = entry;
    r.arg = &ctx;
    r.seed = o.seed;
    r.trace = o.trace;
    r.tick = o.prog ? progress::tick : nullptr;
    r.tick_arg = o.prog;
    char err[4096] = "";
    if (plat_run(&r, err, sizeof err) != 0) fail(err[0] ? err : "the run failed (no reason given)");
    std::lock_guard<std::mutex> g(ctx.lock); // the cores are done; this orders their writes
    std::string too_many;
    ctx.result.charts = merged_charts(ctx, &too_many);
    ctx.result.failures = merged_failures(ctx);
    if (!too_many.empty()) ctx.result.failures.push_back(too_many);
    return ctx.result;
}
