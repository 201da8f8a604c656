/*
 * models/timed.h -- a queue of items handed to a callback each at its time,
 * in order, by a process of its own: what a block uses for the work it has
 * scheduled ahead (frames in flight on a link, packets waiting for a host's
 * receive path). Times pushed never decrease, so the front is always next
 * and a push never has to wake the process early.
 */
#ifndef IPCSIM_MODELS_TIMED_H
#define IPCSIM_MODELS_TIMED_H

#include "proto.h"

#include <deque>
#include <functional>
#include <utility>

namespace ipcsim
{

template <class T> class Timed
{
  public:
    // Start the process (during elaboration): fn(item) runs at each item's time.
    void start(const char *name, std::function<void(T &)> fn)
    {
        fn_ = std::move(fn);
        sc_core::sc_spawn([this] { run(); }, name);
    }
    void push(uint64_t at_ps, const T &v)
    {
        q_.emplace_back(at_ps, v);
        if (q_.size() == 1) ev_.notify();
    }

  private:
    void run()
    {
        for (;;) {
            while (q_.empty()) sc_core::wait(ev_);
            uint64_t at = q_.front().first, now = now_ps();
            if (at > now) sc_core::wait(ps(at - now));
            T v = q_.front().second;
            q_.pop_front();
            fn_(v);
        }
    }

    std::deque<std::pair<uint64_t, T>> q_;
    sc_core::sc_event ev_;
    std::function<void(T &)> fn_;
};

} // namespace ipcsim

#endif
