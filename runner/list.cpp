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
    "line: group/stem and title. Run one with: ipcsim run DIR/group/stem.yaml\n";

static const char apps_usage[] =
    "usage: ipcsim apps\n"
    "\n"
    "The apps a scenario's workload can name, their roles (mapped to cores by\n"
    "the scenario's mapping:) and arguments (workload: args:), with defaults.\n";

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

    size_t width = 0;
    for (const std::string &f : files) width = std::max(width, f.size() - 5);
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
        printf("%-*s  %s\n", (int)width, name.c_str(), conf_str(c.get(), "title", "(no title)"));
    }
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
        size_t wn = 0, wt = 0, wd = 0;
        for (const struct app_arg *d = app->args; d && d->name; d++) {
            wn = std::max(wn, strlen(d->name));
            wt = std::max(wt, strlen(arg_type_name(d->type)));
            wd = std::max(wd, strlen(d->dflt ? d->dflt : "(required)"));
        }
        for (const struct app_arg *d = app->args; d && d->name; d++)
            printf("    %-*s  %-*s  %-*s  %s\n", (int)wn, d->name, (int)wt, arg_type_name(d->type),
                   (int)wd, d->dflt ? d->dflt : "(required)", d->help ? d->help : "");
    }
    return EXIT_OK;
}
