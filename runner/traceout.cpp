// traceout.cpp -- the --trace options and files of traceout.h.
#include "traceout.h"
#include "cli.h"
#include "paths.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <sys/stat.h>

namespace fs = std::filesystem;

namespace
{

const char window_usage[] =
    "give T0:T1, simulated times with a unit (ps, ns, us, ms, s), e.g. 10us:20us; "
    "an empty side is the run's start or end";

// One side of the window, in ps. `side` names it in messages.
uint64_t parse_time(const std::string &opt, const std::string &t)
{
    static const struct {
        const char *unit;
        double ps;
    } units[] = {{"ps", 1}, {"ns", 1e3}, {"us", 1e6}, {"ms", 1e9}, {"s", 1e12}};
    const char *p = t.c_str();
    char *end;
    double v = strtod(p, &end);
    if (end == p || !std::isfinite(v))
        fail("--trace-window: '" + opt + "': '" + t + "' is not a time: " + window_usage);
    std::string unit(end);
    for (const auto &u : units) {
        if (unit != u.unit) continue;
        if (v < 0) fail("--trace-window: '" + opt + "': '" + t + "' is negative");
        double ps = v * u.ps;
        if (ps >= 1.8e19) // 2^64 ps, the simulator's range (about 213 days)
            fail("--trace-window: '" + opt + "': '" + t +
                 "' is beyond the simulator's range (2^64 ps, about 213 days)");
        return (uint64_t)std::llround(ps);
    }
    fail("--trace-window: '" + opt + "': '" + t + "' has " +
         (unit.empty() ? std::string("no unit") : "an unknown unit '" + unit + "'") + ": " +
         window_usage);
}

} // namespace

void parse_trace_window(const std::string &v, trace_opts &o)
{
    size_t colon = v.find(':');
    if (colon == std::string::npos || v.find(':', colon + 1) != std::string::npos)
        fail("--trace-window: '" + v + "': " + window_usage);
    std::string a = v.substr(0, colon), b = v.substr(colon + 1);
    if (a.empty() && b.empty()) fail("--trace-window: '" + v + "': " + window_usage);
    o.from_ps = a.empty() ? 0 : parse_time(v, a);
    o.to_ps = b.empty() ? 0 : parse_time(v, b);
    if (!b.empty() && o.to_ps <= o.from_ps)
        fail("--trace-window: '" + v + "': the window is empty (it ends at " + b +
             ", not after its start " + (a.empty() ? std::string("0") : a) + ")");
    o.window_set = true;
}

void parse_trace_signals(const std::string &v, trace_opts &o)
{
    size_t at = 0;
    do {
        size_t comma = v.find(',', at);
        std::string g = v.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
        if (g.empty())
            fail("--trace-signals: '" + v +
                 "': an empty pattern (give GLOB[,GLOB], e.g. 'top.core*.busy,top.xbar.*')");
        at = comma == std::string::npos ? std::string::npos : comma + 1;
    } while (at != std::string::npos);
    o.signals = v;
}

trace_out::trace_out(const trace_opts &o, const scenario &s)
    : dir_(o.dir), stem_(s.stem), title_(s.title.empty() ? s.stem : s.title), signals_(o.signals),
      files_(new out_files(o.dir))
{
    if (find_program("gnuplot").empty())
        fail("--trace needs gnuplot for the busy chart, which is not on PATH (Debian: apt-get "
             "install gnuplot-nox)");
    // The directories this creates go again when the run fails.
    fs::path p = fs::path(dir_).lexically_normal();
    if (!p.has_filename()) p = p.parent_path(); // "a/b/" is "a/b"
    std::error_code ec;
    for (; !p.empty() && !fs::exists(p, ec) && !ec; p = p.parent_path()) {
        made_.push_back(p.string());
        if (p == p.parent_path()) break;
    }
    vcd_ = files_->add(stem_ + ".vcd");
    dat_ = files_->add(stem_ + ".busy.dat");
    gp_ = files_->add(stem_ + ".busy.gp");
    png_ = files_->add(stem_ + ".busy.png");
    spec_.dir = dir_.c_str();
    spec_.stem = stem_.c_str();
    spec_.title = title_.c_str();
    spec_.vcd_path = vcd_.c_str();
    spec_.dat_path = dat_.c_str();
    spec_.gp_path = gp_.c_str();
    spec_.png_path = png_.c_str();
    spec_.from_ps = o.from_ps;
    spec_.to_ps = o.to_ps;
    spec_.signals = signals_.empty() ? nullptr : signals_.c_str();
}

trace_out::~trace_out()
{
    if (committed_) return;
    files_.reset(); // the temporaries first, then their directories
    std::error_code ec;
    for (const std::string &d : made_)
        if (!fs::remove(d, ec)) break; // not empty (or gone): keep it and its parents
}

void trace_out::commit()
{
    files_->commit();
    committed_ = true;
}

std::string human_size(uint64_t bytes)
{
    if (bytes < 1000) return strf("%llu B", (unsigned long long)bytes);
    static const char *const units[] = {"kB", "MB", "GB", "TB"};
    double v = (double)bytes / 1000;
    int u = 0;
    while (u < 3 && v >= 999.95) v /= 1000, u++;
    return strf("%.1f %s", v, units[u]);
}

std::string trace_out::wrote() const
{
    std::string vcd = dir_ + "/" + stem_ + ".vcd";
    struct stat st;
    std::string size =
        stat(vcd.c_str(), &st) == 0 ? " (" + human_size((uint64_t)st.st_size) + ")" : std::string();
    return ", " + vcd + size + ", " + dir_ + "/" + stem_ + ".busy.png";
}
