// tick.cpp -- the timestep hook of tick.h.
//
// SystemC 2.3 calls every registered trace file at the end of each timestep
// (and of each delta cycle), and offers no other hook there: a trace file
// that traces nothing is that hook. It adds no process and no event, so the
// simulation's schedule, and its results, are the same with and without it.
#include "tick.h"

#include <systemc>

using namespace sc_core;

namespace ipcsim
{

namespace
{

#define IGNORE_A(tp)                                                                               \
    void trace(const tp &, const std::string &) override {}
#define IGNORE_B(tp)                                                                               \
    void trace(const tp &, const std::string &, int) override {}

class Ticker : public sc_trace_file
{
  public:
    Ticker(void (*fn)(void *, uint64_t), void *arg) : fn_(fn), arg_(arg) {}
    ~Ticker() override = default;

    IGNORE_A(sc_event)
    IGNORE_A(sc_time)
    IGNORE_A(bool)
    IGNORE_A(sc_dt::sc_bit)
    IGNORE_A(sc_dt::sc_logic)
    IGNORE_B(unsigned char)
    IGNORE_B(unsigned short)
    IGNORE_B(unsigned int)
    IGNORE_B(unsigned long)
    IGNORE_B(char)
    IGNORE_B(short)
    IGNORE_B(int)
    IGNORE_B(long)
    IGNORE_B(sc_dt::int64)
    IGNORE_B(sc_dt::uint64)
    IGNORE_A(float)
    IGNORE_A(double)
    IGNORE_A(sc_dt::sc_int_base)
    IGNORE_A(sc_dt::sc_uint_base)
    IGNORE_A(sc_dt::sc_signed)
    IGNORE_A(sc_dt::sc_unsigned)
    IGNORE_A(sc_dt::sc_fxval)
    IGNORE_A(sc_dt::sc_fxval_fast)
    IGNORE_A(sc_dt::sc_fxnum)
    IGNORE_A(sc_dt::sc_fxnum_fast)
    IGNORE_A(sc_dt::sc_bv_base)
    IGNORE_A(sc_dt::sc_lv_base)
    void trace(const unsigned int &, const std::string &, const char **) override {}
    void write_comment(const std::string &) override {}
    void set_time_unit(double, sc_time_unit) override {}

  protected:
    void cycle(bool delta_cycle) override
    {
        if (!delta_cycle) fn_(arg_, sc_time_stamp().value());
    }

  private:
    void (*fn_)(void *, uint64_t);
    void *arg_;
};

#undef IGNORE_A
#undef IGNORE_B

Ticker *ticker; // lives to the end, as the kernel does

} // namespace

void tick_start(void (*fn)(void *, uint64_t), void *arg)
{
    if (ticker || !fn) return;
    ticker = new Ticker(fn, arg);
    sc_get_curr_simcontext()->add_trace_file(ticker);
}

void tick_stop()
{
    if (ticker) sc_get_curr_simcontext()->remove_trace_file(ticker);
}

} // namespace ipcsim
