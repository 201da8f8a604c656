// list.cpp -- `ipcsim list` (scenarios) and `ipcsim apps` (workloads).
#include "args.h"
#include "cli.h"
#include "confptr.h"
#include "paths.h"

#include "ipcsim/app.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace fs = std::filesystem;

static const char list_usage[] =
    "usage: ipcsim list [DIR]\n"
    "\n"
    "The scenarios under DIR (default: ipcsim's own scenarios/ folder), one per\n"
    "line: group/stem and title. Run one with: ipcsim run DIR/group/stem.yaml\n"
    "Platform files (platform: without workload: or mapping:) are not listed; a\n"
    "note on stderr names them.\n";

static const char apps_usage[] =
    "usage: ipcsim apps\n"
    "\n"
    "The apps a scenario's workload can name, their roles (mapped to cores by\n"
    "the scenario's mapping:), arguments (workload: args:) with type, default,\n"
    "the values each takes (checked before a run) and what it means, and the\n"
    "series the app reports.\n";

// "a, b, c" and at most `max` names, then "and N more".
static std::string some(const std::vector<std::string> &names, size_t max)
{
    if (names.size() <= max) return join(names, ", ");
    std::vector<std::string> first(names.begin(), names.begin() + (long)max);
    return join(first, ", ") + strf(" and %zu more", names.size() - max);
}

int cmd_list(const std::vector<std::string> &args)
{
    if (wants_help(args)) {
        fputs(list_usage, stdout);
        return EXIT_OK;
    }
    if (args.size() > 1) fail("list: one DIR at most (see ipcsim list --help)");
    if (!args.empty() && args[0].size() > 1 && args[0][0] == '-')
        fail("list: unknown option '" + args[0] + "'");
    std::string dir = args.empty() ? data_root() + "/scenarios" : args[0];
    if (!is_dir(dir)) fail(dir + ": not a directory");

    std::vector<std::string> files;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
         it.increment(ec))
        if (it->path().extension() == ".yaml" && is_file(it->path().string()))
            files.push_back(it->path().lexically_relative(dir).string());
    if (ec) fail(dir + ": " + ec.message());
    std::sort(files.begin(), files.end());

    // A platform file has platform: (its kind) and no workload: or
    // mapping:, which every scenario has; anything else is listed.
    struct entry {
        std::string name, title;
    };
    std::vector<entry> scenarios;
    std::vector<std::string> platforms;
    int rc = EXIT_OK;
    for (const std::string &f : files) {
        char err[1024];
        conf_ptr c(conf_load((fs::path(dir) / f).string().c_str(), err, sizeof err));
        if (!c) {
            fprintf(stderr, "%s\n", err);
            rc = EXIT_ERROR;
            continue;
        }
        std::string name = f.substr(0, f.size() - 5);
        const struct conf_node *root = conf_root(c.get());
        if (conf_kind_of(root) == CONF_MAP && conf_get(root, "platform") &&
            !conf_get(root, "workload") && !conf_get(root, "mapping"))
            platforms.push_back(name);
        else
            scenarios.push_back({name, conf_str(c.get(), "title", "(no title)")});
    }
    size_t width = 0;
    for (const entry &e : scenarios) width = std::max(width, e.name.size());
    for (const entry &e : scenarios)
        printf("%-*s  %s\n", (int)width, e.name.c_str(), e.title.c_str());
    if (!platforms.empty())
        fprintf(stderr,
                "%s%s: %s (these are platform files: %s; a scenario names one with its "
                "platform: key)\n",
                dir.c_str(), dir.back() == '/' ? "" : "/",
                scenarios.empty() ? "no scenarios" : "not listed", some(platforms, 8).c_str());
    return rc;
}

int cmd_apps(const std::vector<std::string> &args)
{
    if (wants_help(args)) {
        fputs(apps_usage, stdout);
        return EXIT_OK;
    }
    if (!args.empty()) fail("apps: takes no arguments (see ipcsim apps --help)");
    for (const struct app *const *a = app_table; *a; a++) {
        const struct app *app = *a;
        std::vector<std::string> roles;
        for (const char *const *r = app->roles; r && *r; r++) roles.push_back(*r);
        printf("%s%s - %s\n", a == app_table ? "" : "\n", app->name, app->summary);
        printf("  roles: %s\n", roles.empty() ? "(none)" : join(roles, ", ").c_str());
        printf("  args:%s\n", app->args && app->args->name ? "" : " (none)");
        size_t wn = 0, wt = 0, wd = 0, wr = 0;
        for (const struct app_arg *d = app->args; d && d->name; d++) {
            wn = std::max(wn, strlen(d->name));
            wt = std::max(wt, strlen(arg_type_name(d->type)));
            wd = std::max(wd, strlen(d->dflt ? d->dflt : "(required)"));
            wr = std::max(wr, arg_rule(d).size());
        }
        for (const struct app_arg *d = app->args; d && d->name; d++)
            printf("    %-*s  %-*s  %-*s  %-*s  %s\n", (int)wn, d->name, (int)wt,
                   arg_type_name(d->type), (int)wd, d->dflt ? d->dflt : "(required)", (int)wr,
                   arg_rule(d).c_str(), d->help ? d->help : "");
        std::vector<std::string> series;
        for (const char *const *n = app->series; n && *n; n++) series.push_back(*n);
        if (!series.empty()) printf("  series: %s\n", join(series, ", ").c_str());
    }
    return EXIT_OK;
}
