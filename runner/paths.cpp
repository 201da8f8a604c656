// paths.cpp -- locating the data tree and naming files.
#include "paths.h"
#include "cli.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <filesystem>
#include <system_error>
#include <unistd.h>

namespace fs = std::filesystem;

static std::string exe_dir()
{
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec) return "";
    return exe.parent_path().string();
}

static bool has_data(const fs::path &d)
{
    return is_dir((d / "platforms").string()) && is_dir((d / "scenarios").string());
}

std::string data_root()
{
    const char *env = getenv("IPCSIM_ROOT");
    if (env && *env) {
        if (!has_data(env)) fail(strf("IPCSIM_ROOT=%s has no platforms/ and scenarios/", env));
        return env;
    }
    std::string exe = exe_dir();
    if (exe.empty()) fail("cannot find the ipcsim executable's directory (/proc/self/exe)");
    fs::path d = exe;
    for (int up = 0; up < 4 && d.has_parent_path() && d != d.root_path(); up++) {
        d = d.parent_path();
        if (has_data(d / "share" / "ipcsim")) return (d / "share" / "ipcsim").string();
        if (has_data(d)) return d.string();
    }
    fail("cannot find platforms/ and scenarios/ above " + exe +
         " (set IPCSIM_ROOT to the ipcsim source or share directory)");
}

std::string file_stem(const std::string &path)
{
    return fs::path(path).stem().string();
}

std::string file_group(const std::string &path)
{
    return fs::path(path).parent_path().filename().string();
}

std::string file_dir(const std::string &path)
{
    fs::path p = fs::path(path).parent_path();
    return p.empty() ? "." : p.string();
}

std::string display_path(const std::string &path)
{
    std::error_code ec;
    fs::path abs = fs::absolute(path, ec);
    if (ec) return path;
    fs::path cwd = fs::current_path(ec);
    if (ec) return path;
    fs::path rel = abs.lexically_normal().lexically_relative(cwd);
    if (rel.empty() || *rel.begin() == "..") return abs.lexically_normal().string();
    return rel.string();
}

std::string read_text(const std::string &path, const std::string &hint)
{
    std::ifstream f(path, std::ios::binary);
    if (!f) fail(path + ": cannot open: " + strerror(errno) + hint);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

bool is_file(const std::string &path)
{
    std::error_code ec;
    return fs::is_regular_file(path, ec);
}

bool is_dir(const std::string &path)
{
    std::error_code ec;
    return fs::is_directory(path, ec);
}

std::string find_program(const std::string &name)
{
    const char *path = getenv("PATH");
    std::string all = path ? path : "/usr/bin:/bin";
    size_t start = 0;
    while (start <= all.size()) {
        size_t end = all.find(':', start);
        if (end == std::string::npos) end = all.size();
        std::string dir = all.substr(start, end - start);
        fs::path p = fs::path(dir.empty() ? "." : dir) / name;
        std::error_code ec;
        if (fs::is_regular_file(p, ec) && access(p.c_str(), X_OK) == 0) return p.string();
        start = end + 1;
    }
    return "";
}
