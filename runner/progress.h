// progress.h -- the progress line of a long run, on stderr.
//
// After a few seconds of host time (IPCSIM_PROGRESS_AFTER seconds, default
// 2), a line "ipcsim: 1.234 ms simulated, 12 points, 5 s" refreshed in place
// ("ipcsim: run 2 of 3, variant gbe: ..." for a scenario with variants:)
// (\r) four times a second, erased when the run ends. Only when stderr is a
// terminal: a log or a pipe gets no \r lines.
#ifndef IPCSIM_RUNNER_PROGRESS_H
#define IPCSIM_RUNNER_PROGRESS_H

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

class progress
{
  public:
    // on: the user did not ask for --quiet; the line also needs a terminal.
    // label: which of several runs this is ("run 2 of 3, variant gbe"),
    // shown after "ipcsim: "; empty for a scenario of one run.
    explicit progress(bool on, const std::string &label = "");
    ~progress() { stop(); }
    progress(const progress &) = delete;
    progress &operator=(const progress &) = delete;

    // The line will be shown (a terminal, not --quiet): only then is the run
    // told of it (its timestep hook costs a few per cent).
    bool active() const { return thread_.joinable(); }
    // The run is over: stop refreshing, erase the line.
    void stop();
    // From the run (any thread): an app point reported; simulated time.
    void point() { points_.fetch_add(1, std::memory_order_relaxed); }
    // plat_run's tick: self is the progress.
    static void tick(void *self, uint64_t now_ps);

  private:
    void loop();
    void show(double host_s);

    std::atomic<long> points_{0};
    std::atomic<uint64_t> sim_ps_{0};
    std::atomic<bool> simulated_{false}; // ticks came: a sim run
    std::string label_;
    double after_s_ = 2;
    std::chrono::steady_clock::time_point start_;
    std::thread thread_;
    std::mutex m_;
    std::condition_variable cv_;
    bool done_ = false;
    size_t shown_ = 0; // length of the line on the terminal
};

#endif
