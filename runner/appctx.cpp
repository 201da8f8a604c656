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
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <mutex>

// One app_fail(): which core said what.
struct app_failure {
    int core;
    std::string msg;
};

struct app_ctx {
    const scenario *s;
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
    ctx.result.failures = merged_failures(ctx);
    return ctx.result;
}
