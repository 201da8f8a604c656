// main.cpp -- the ipcsim command line: dispatch, usage, exit codes.
#include "cli.h"
#include "meta.h"

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

static const char usage[] =
    "usage: ipcsim COMMAND [ARGS]\n"
    "\n"
    "Simulate and test inter-core communication: run scenario files on SystemC\n"
    "models of the papers' hardware (or natively) and compare with the papers.\n"
    "\n"
    "Commands:\n"
    "  run FILE [options]          run a scenario: print paper vs simulated, write\n"
    "                              DIR/<stem>.csv and its .meta.yaml; --set, --backend\n"
    "                              sim|native, --out, --seed, --check, --plot, --trace\n"
    "  params PLATFORM|SCENARIO    every key of a platform: value, unit, line, its\n"
    "                              comment (the source), which are fitted; --set\n"
    "  list [DIR]                  the scenarios under DIR (default: ipcsim's own)\n"
    "  apps                        the apps a workload can name: roles, arguments\n"
    "  sweep FILE [--list|--jobs N|--slurm|--point I]  a scenario's sweep: as\n"
    "                              independent runs (make -j, GNU parallel, Slurm)\n"
    "  merge DIR                   merge a sweep's points: one CSV, a table, bands\n"
    "  report --out DIR SCENARIO...  write DIR/REPORT.md from the scenarios' CSVs\n"
    "  compare OLD.csv NEW.csv     the points two results files differ in (exit 1)\n"
    "  version                     the version ipcsim was built from (also --version)\n"
    "\n"
    "`ipcsim COMMAND --help` describes a command. Exit status: 0 ok, 1 `run --check`\n"
    "found a point outside its tolerance (compare: the files differ), 2 any error.\n"
    "Scenario format: docs/scenarios.md.\n";

static const char version_usage[] =
    "usage: ipcsim version   (or ipcsim --version)\n"
    "\n"
    "Print the version ipcsim was built from: `git describe --always --dirty` of\n"
    "its source tree at build time (a -dirty suffix: built with uncommitted\n"
    "changes); outside a git tree the tree's VERSION file, else \"unknown\". Every\n"
    "run records it in DIR/<name>.meta.yaml.\n";

void fail(const std::string &msg)
{
    throw cli_error(msg);
}

std::string at(const std::string &file, int line)
{
    return file + ":" + std::to_string(line);
}

void fail_at(const std::string &file, int line, const std::string &msg)
{
    throw cli_error(at(file, line) + ": " + msg);
}

std::string strf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(nullptr, 0, fmt, ap);
    va_end(ap);
    std::string s(n > 0 ? (size_t)n : 0, '\0');
    va_start(ap, fmt);
    vsnprintf(&s[0], s.size() + 1, fmt, ap);
    va_end(ap);
    return s;
}

std::string join(const std::vector<std::string> &v, const char *sep)
{
    std::string s;
    for (size_t i = 0; i < v.size(); i++) s += (i ? sep : "") + v[i];
    return s;
}

bool wants_help(const std::vector<std::string> &args)
{
    for (const std::string &a : args)
        if (a == "--help" || a == "-h") return true;
    return false;
}

static int run_command(int argc, char **argv)
{
    // SystemC's banner would land in the middle of the table on stdout; a
    // user who wants it sets SC_COPYRIGHT_MESSAGE themselves.
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) {
        fputs(usage, stderr);
        return EXIT_ERROR;
    }
    std::string cmd = args[0];
    args.erase(args.begin());
    try {
        if (cmd == "--help" || cmd == "-h" || cmd == "help") {
            fputs(usage, stdout);
            return EXIT_OK;
        }
        if (cmd == "--version" || cmd == "version") {
            if (wants_help(args)) {
                fputs(version_usage, stdout);
                return EXIT_OK;
            }
            if (!args.empty()) fail(cmd + ": takes no arguments (see ipcsim version --help)");
            printf("ipcsim %s\n", ipcsim_version());
            return EXIT_OK;
        }
        if (cmd == "run") return cmd_run(args);
        if (cmd == "params") return cmd_params(args);
        if (cmd == "list") return cmd_list(args);
        if (cmd == "apps") return cmd_apps(args);
        if (cmd == "sweep") return cmd_sweep(args);
        if (cmd == "merge") return cmd_merge(args);
        if (cmd == "report") return cmd_report(args);
        if (cmd == "compare") return cmd_compare(args);
        fail("unknown command '" + cmd +
             "' (commands: run, params, list, apps, sweep, merge, report, compare, "
             "version; see ipcsim "
             "--help)");
    } catch (const cli_error &e) {
        fflush(stdout);
        fprintf(stderr, "%s\n", e.what());
    } catch (const std::exception &e) {
        fflush(stdout);
        fprintf(stderr, "ipcsim: internal error: %s\n", e.what());
    }
    return EXIT_ERROR;
}

// Output that did not reach stdout (a full disk, a closed pipe, `>
// /dev/full`) is an error like any other: a table or list the user never
// got must not exit 0.
int main(int argc, char **argv)
{
    int rc = run_command(argc, argv);
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "ipcsim: cannot write to standard output%s%s\n", errno ? ": " : "",
                errno ? strerror(errno) : "");
        return EXIT_ERROR;
    }
    return rc;
}
