// vcd.cpp -- the VCD writer of vcd.h: one-bit signals, changes only, exact times.
#include "vcd.h"
#include "proto.h"

#include <algorithm>
#include <cmath>

namespace ipcsim
{

Vcd::Vcd(std::function<bool(const std::string &)> keep, uint64_t from_ps, uint64_t to_ps)
    : keep_(std::move(keep)), from_(from_ps), to_(to_ps)
{
}

Vcd::~Vcd()
{
    if (f_) fclose(f_);
}

// VCD identifiers: base 94 over the printable characters.
static std::string code(int id)
{
    std::string s;
    do {
        s += (char)('!' + id % 94);
        id /= 94;
    } while (id);
    return s;
}

int Vcd::add(const std::string &name, bool v)
{
    offered_.push_back(name);
    if (keep_ && !keep_(name)) return -1;
    names_.push_back(name);
    codes_.push_back(code((int)names_.size() - 1));
    val_.push_back(v);
    written_.push_back(v);
    pend_.push_back(-1);
    return (int)names_.size() - 1;
}

// The kernel's resolution as a VCD timescale ("1 ps"): timestamps are the
// kernel's own integer times, so none is ever rounded.
static std::string timescale()
{
    static const char *const units[] = {"fs", "ps", "ns", "us", "ms", "s"};
    double v = sc_core::sc_get_time_resolution().to_seconds() * 1e15;
    for (const char *u : units) {
        for (int m : {1, 10, 100})
            if (std::abs(v - m) < 1e-6 * m) return std::to_string(m) + " " + u;
        v /= 1000;
    }
    return "1 ps";
}

static std::vector<std::string> split(const std::string &name)
{
    std::vector<std::string> parts;
    size_t at = 0, dot;
    while ((dot = name.find('.', at)) != std::string::npos) {
        parts.push_back(name.substr(at, dot - at));
        at = dot + 1;
    }
    parts.push_back(name.substr(at));
    return parts;
}

int Vcd::open(const std::string &path)
{
    if (f_) fclose(f_); // opened once; a second open starts over
    f_ = fopen(path.c_str(), "w");
    if (!f_) return -1;
    fprintf(f_, "$comment\n  ipcsim: the blocks' one-bit signals; each change at its exact time\n");
    if (from_ > 0 || to_ != NEVER) {
        fprintf(f_, "  window: from %llu", (unsigned long long)from_);
        if (to_ != NEVER) fprintf(f_, " to %llu", (unsigned long long)to_);
        fprintf(f_, " (timescale units)\n");
    }
    fprintf(f_, "$end\n$timescale %s $end\n", timescale().c_str());
    // Scopes nest: write the signals grouped by scope (stable: block order).
    std::vector<std::vector<std::string>> parts;
    for (const std::string &n : names_) parts.push_back(split(n));
    std::vector<int> order((size_t)traced());
    for (int i = 0; i < traced(); i++) order[(size_t)i] = i;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const auto &pa = parts[(size_t)a], &pb = parts[(size_t)b];
        return std::lexicographical_compare(pa.begin(), pa.end() - 1, pb.begin(), pb.end() - 1);
    });
    std::vector<std::string> open_scopes;
    for (int id : order) {
        const auto &p = parts[(size_t)id];
        size_t common = 0;
        while (common < open_scopes.size() && common + 1 < p.size() &&
               open_scopes[common] == p[common])
            common++;
        while (open_scopes.size() > common) {
            fprintf(f_, "$upscope $end\n");
            open_scopes.pop_back();
        }
        for (size_t i = common; i + 1 < p.size(); i++) {
            fprintf(f_, "$scope module %s $end\n", p[i].c_str());
            open_scopes.push_back(p[i]);
        }
        fprintf(f_, "$var wire 1 %s %s $end\n", codes_[(size_t)id].c_str(), p.back().c_str());
    }
    for (size_t i = 0; i < open_scopes.size(); i++) fprintf(f_, "$upscope $end\n");
    fprintf(f_, "$enddefinitions $end\n");
    return ferror(f_) ? -1 : 0;
}

void Vcd::drain()
{
    if (!buf_.empty()) fwrite(buf_.data(), 1, buf_.size(), f_);
    buf_.clear();
}

void Vcd::put(int id, bool v)
{
    buf_ += v ? '1' : '0';
    buf_ += codes_[(size_t)id];
    buf_ += '\n';
}

void Vcd::stamp(uint64_t t)
{
    if (stamped_ && t <= last_stamp_) return;
    char d[24];
    int n = 0;
    for (uint64_t v = t; n == 0 || v; v /= 10) d[n++] = (char)('0' + v % 10);
    buf_ += '#';
    while (n) buf_ += d[--n];
    buf_ += '\n';
    last_stamp_ = t;
    stamped_ = true;
    if (buf_.size() >= 1 << 16) drain();
}

void Vcd::dump(uint64_t at)
{
    stamp(at);
    buf_ += "$dumpvars\n";
    for (int id = 0; id < traced(); id++) put(id, val_[(size_t)id]);
    buf_ += "$end\n";
    written_ = val_;
    dumped_ = true;
}

void Vcd::change(int id, bool v)
{
    uint64_t t = now_ps();
    if (t != cur_) {
        flush();
        cur_ = t;
    }
    if (pend_[(size_t)id] < 0) dirty_.push_back(id);
    pend_[(size_t)id] = v;
}

// The timestep cur_ is over: its net changes (a signal set and reset within
// one timestep did not change), under one timestamp.
void Vcd::flush()
{
    if (dirty_.empty() || !f_) return;
    if (!dumped_ && cur_ > from_) dump(from_); // the values before cur_ held at from_
    for (int id : dirty_) {
        val_[(size_t)id] = pend_[(size_t)id];
        pend_[(size_t)id] = -1;
    }
    if (!dumped_ && cur_ == from_) {
        dump(from_);
    } else if (dumped_ && cur_ < to_) {
        for (int id : dirty_) {
            if (val_[(size_t)id] == written_[(size_t)id]) continue;
            stamp(cur_);
            put(id, val_[(size_t)id]);
            written_[(size_t)id] = val_[(size_t)id];
        }
    }
    dirty_.clear();
}

int Vcd::close(uint64_t end_ps)
{
    if (!f_) return -1;
    flush();
    drain();
    if (from_ > end_ps) {
        fprintf(f_, "$comment the run ended at %llu, before the window's start $end\n",
                (unsigned long long)end_ps);
    } else {
        if (!dumped_) dump(from_);
        stamp(std::min(end_ps, to_)); // where the trace ends
        drain();
    }
    bool bad = ferror(f_) != 0;
    if (fclose(f_) != 0) bad = true;
    f_ = nullptr;
    return bad ? -1 : 0;
}

} // namespace ipcsim
