// progress.cpp -- the progress line of progress.h, from a thread of its own
// (the run's thread is busy simulating; a timestep can take long).
#include "progress.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

progress::progress(bool on, const std::string &label)
    : label_(label), start_(std::chrono::steady_clock::now())
{
    if (!on || !isatty(STDERR_FILENO)) return;
    if (const char *e = getenv("IPCSIM_PROGRESS_AFTER")) {
        char *end;
        double v = strtod(e, &end);
        if (end != e && *end == '\0' && v >= 0) after_s_ = v;
    }
    thread_ = std::thread([this] { loop(); });
}

void progress::tick(void *self, uint64_t now_ps)
{
    auto *p = static_cast<progress *>(self);
    p->sim_ps_.store(now_ps, std::memory_order_relaxed);
    p->simulated_.store(true, std::memory_order_relaxed);
}

static std::string sim_time(uint64_t ps)
{
    static const char *const units[] = {"ps", "ns", "us", "ms", "s"};
    double v = (double)ps;
    int u = 0;
    while (u < 4 && v >= 1000) v /= 1000, u++;
    char s[32];
    snprintf(s, sizeof s, "%.3f %s", v, units[u]);
    return s;
}

void progress::show(double host_s)
{
    std::string line = "ipcsim: " + (label_.empty() ? "" : label_ + ": ");
    if (simulated_.load(std::memory_order_relaxed))
        line += sim_time(sim_ps_.load(std::memory_order_relaxed)) + " simulated, ";
    long n = points_.load(std::memory_order_relaxed);
    char rest[64];
    snprintf(rest, sizeof rest, "%ld point%s, %.0f s", n, n == 1 ? "" : "s", host_s);
    line += rest;
    std::string pad(shown_ > line.size() ? shown_ - line.size() : 0, ' ');
    fprintf(stderr, "\r%s%s", line.c_str(), pad.c_str());
    fflush(stderr);
    shown_ = line.size();
}

void progress::loop()
{
    std::unique_lock<std::mutex> g(m_);
    for (bool first = true; first || !done_; first = false) {
        double host_s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
        if (host_s >= after_s_) show(host_s); // (after 0: at once, even if the run is over)
        double next = host_s >= after_s_ ? 0.25 : std::min(0.25, after_s_ - host_s);
        cv_.wait_for(g, std::chrono::duration<double>(next), [this] { return done_; });
    }
    if (shown_) { // erase it: the table comes next
        fprintf(stderr, "\r%s\r", std::string(shown_, ' ').c_str());
        fflush(stderr);
    }
}

void progress::stop()
{
    if (!thread_.joinable()) return;
    {
        std::lock_guard<std::mutex> g(m_);
        done_ = true;
    }
    cv_.notify_all();
    thread_.join();
}
