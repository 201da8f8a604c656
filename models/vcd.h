/*
 * models/vcd.h -- a VCD of the blocks' one-bit signals, written as they change.
 *
 * SystemC's own VCD writer compares every traced variable at the end of every
 * timestep (hundreds of signals times millions of timesteps on sw26010) and
 * rounds each time to its time unit, warning each time it must (W713). This
 * one is told of each change by the block that makes it (a Bit), writes only
 * what changed, in the kernel's own resolution (every timestamp exact), once
 * per timestep, and only the signals and the time window asked for.
 */
#ifndef IPCSIM_MODELS_VCD_H
#define IPCSIM_MODELS_VCD_H

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace ipcsim
{

class Vcd
{
  public:
    // The signals whose dotted name keep() accepts (no keep: all); the
    // changes in [from_ps, to_ps) of simulated time.
    Vcd(std::function<bool(const std::string &)> keep, uint64_t from_ps, uint64_t to_ps);
    Vcd(const Vcd &) = delete;
    Vcd &operator=(const Vcd &) = delete;
    ~Vcd();

    // While building: a signal called `name` ("top.core0.busy") whose value is
    // now v; its id, or -1 when the filter leaves it out.
    int add(const std::string &name, bool v);
    // Every name add() was given, traced or not (for the filter's message).
    const std::vector<std::string> &offered() const { return offered_; }
    int traced() const { return (int)names_.size(); }

    // Before the simulation starts: write the header into path. 0, or -1.
    int open(const std::string &path);
    // Signal id changed to v now (sc_time_stamp).
    void change(int id, bool v);
    // At the end of the run (end_ps): the last changes, a closing timestamp.
    // 0, or -1 when a write failed.
    int close(uint64_t end_ps);

  private:
    void flush();
    void dump(uint64_t at);
    void stamp(uint64_t t);
    void put(int id, bool v);
    void drain(); // buf_ into the file

    std::function<bool(const std::string &)> keep_;
    std::vector<std::string> offered_, names_, codes_;
    std::string buf_; // what is written goes here first: printf was a fifth of a run
    uint64_t from_, to_;
    FILE *f_ = nullptr;
    std::vector<char> val_, written_, pend_; // pend_: -1 none, else this timestep's value
    std::vector<int> dirty_;                 // ids changed in the current timestep
    uint64_t cur_ = 0;                       // the current timestep
    bool dumped_ = false;                    // $dumpvars written
    uint64_t last_stamp_ = 0;
    bool stamped_ = false;
};

// A block's one-bit signal (a core busy, a lane held): its value, and the
// VCD it reports changes to when traced.
class Bit
{
  public:
    operator bool() const { return v_; }
    void set(bool v)
    {
        if (v == v_) return;
        v_ = v;
        if (vcd_) vcd_->change(id_, v);
    }
    void trace(Vcd &vcd, const std::string &name)
    {
        id_ = vcd.add(name, v_);
        vcd_ = id_ >= 0 ? &vcd : nullptr;
    }

  private:
    bool v_ = false;
    int id_ = -1;
    Vcd *vcd_ = nullptr;
};

} // namespace ipcsim

#endif
