// cli.h -- what the ipcsim commands share: errors, exit codes, small helpers.
#ifndef IPCSIM_RUNNER_CLI_H
#define IPCSIM_RUNNER_CLI_H

#include <stdexcept>
#include <string>
#include <vector>

// Exit codes of every command.
enum { EXIT_OK = 0, EXIT_CHECK = 1, EXIT_ERROR = 2 };

// A user-facing error: the message is printed as is (it already says where,
// "FILE:LINE: ..." for anything in a file) and the command exits 2.
struct cli_error : std::runtime_error {
    explicit cli_error(const std::string &msg) : std::runtime_error(msg) {}
};

[[noreturn]] void fail(const std::string &msg);
// "FILE:LINE: msg"
[[noreturn]] void fail_at(const std::string &file, int line, const std::string &msg);
std::string at(const std::string &file, int line);

// Commands (argv after the command name).
int cmd_run(const std::vector<std::string> &args);
int cmd_params(const std::vector<std::string> &args);
int cmd_list(const std::vector<std::string> &args);
int cmd_apps(const std::vector<std::string> &args);
int cmd_sweep(const std::vector<std::string> &args);
int cmd_merge(const std::vector<std::string> &args);
int cmd_report(const std::vector<std::string> &args);
int cmd_compare(const std::vector<std::string> &args);

// True when args holds --help or -h (each command prints its own usage).
bool wants_help(const std::vector<std::string> &args);

// printf-style formatting into a std::string.
std::string strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
std::string join(const std::vector<std::string> &v, const char *sep);

#endif
