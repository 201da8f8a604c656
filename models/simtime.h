/*
 * models/simtime.h -- the one place where a platform's numbers become
 * simulated time, checked.
 *
 * The kernel counts time in integer picoseconds in 64 bits (sc_time at its
 * 1 ps resolution): the simulator's range ends at SIM_END_PS, about 213
 * days. A time computed from parameters that is not finite, negative or
 * past that range would wrap (a 1e16 ns latency gave a 156 ns round trip)
 * or be undefined behaviour (a double converted to uint64_t out of range).
 * So every conversion here either gives the exact (rounded to 1 ps) time
 * or stops the run with a message naming the block, the quantity and the
 * limit, through the kernel's fail path.
 *
 * Limits:
 *   - TIME_MAX_PS: the longest time one parameter, or one computation from
 *     parameters (a transfer, a count of cycles), may give: 1e18 ps = 1e6 s
 *     (11.6 days), an 18th of the range, so that the handful of such times
 *     one transaction adds up stays in it;
 *   - XFER_MAX_BYTES: the largest transfer one computation moves (a TLM
 *     payload's length is 32 bits), so the slowest rate a block accepts is
 *     the one that moves it within TIME_MAX_PS;
 *   - SIM_END_PS: no wait may end past it.
 * The platform kinds' rules (kinds/kind.h: MAX_NS, MIN_MBPS...) reject the
 * values that would break these before a run starts, naming the key; what
 * is left for here is what only the run knows (a transfer's size, a count
 * of cycles an app asks for, the clock reaching the end of the range).
 */
#ifndef IPCSIM_MODELS_SIMTIME_H
#define IPCSIM_MODELS_SIMTIME_H

#ifndef SC_INCLUDE_DYNAMIC_PROCESSES
#define SC_INCLUDE_DYNAMIC_PROCESSES // as proto.h: sc_spawn needs it before the first <systemc>
#endif
#include <systemc>

#include <cmath>
#include <cstdint>

namespace ipcsim
{

constexpr uint64_t SIM_END_PS = UINT64_MAX; // the last instant sc_time can hold
constexpr double TIME_MAX_PS = 1e18;        // one parameter's or computation's time
constexpr double XFER_MAX_BYTES = 4294967296.0;

// Stop the run: `what` (a block's parameter or quantity) is `value` `unit`,
// which breaks `limit`. Names the block being built or the running process.
[[noreturn]] void time_fail(const char *what, double value, const char *unit, const char *limit);

// Times as integer picoseconds. Now is read inline from the simulation
// context: sc_time_stamp() is an out-of-line library call, and every wait
// computes its end from now (several times per transfer).
inline uint64_t now_ps()
{
    return sc_core::sc_get_curr_simcontext()->time_stamp().value();
}
// A delay of v ps from now: it must end inside the simulator's range.
inline sc_core::sc_time ps(uint64_t v)
{
    if (v > SIM_END_PS - now_ps())
        time_fail("a wait", (double)v, "ps from now",
                  "it would end past the simulator's last instant, 2^64-1 ps (213 days)");
    return sc_core::sc_time::from_value(v);
}
// A time given in ns (a latency, a cost), checked against TIME_MAX_PS.
inline uint64_t ns_to_ps(double ns, const char *what)
{
    double v = ns * 1000.0;
    if (!(v >= 0 && v <= TIME_MAX_PS))
        time_fail(what, ns, "ns", "a time is at least 0 and at most 1e15 ns (1e18 ps, 11.6 days)");
    return (uint64_t)std::llround(v);
}
// Picoseconds to move one byte at `mbps` MB/s (1 MB = 1e6 bytes); the rate
// must move XFER_MAX_BYTES within TIME_MAX_PS.
inline double ps_per_byte(double mbps, const char *what)
{
    if (!(mbps >= XFER_MAX_BYTES * 1e6 / TIME_MAX_PS && mbps <= 1e300))
        time_fail(what, mbps, "MB/s",
                  "a rate is finite and at least 0.00429497 MB/s, which moves 4 GiB in 1e18 ps");
    return 1e6 / mbps;
}
// Picoseconds of one cycle at `mhz` MHz: at most TIME_MAX_PS.
inline double ps_per_cycle(double mhz, const char *what)
{
    if (!(mhz >= 1e6 / TIME_MAX_PS && mhz <= 1e300))
        time_fail(what, mhz, "MHz",
                  "a clock is finite and at least 1e-12 MHz (one cycle in 1e18 ps)");
    return 1e6 / mhz;
}
// n bytes (or cycles) at ps_per_b ps each.
inline uint64_t bytes_ps(uint64_t n, double ps_per_b, const char *what)
{
    double v = (double)n * ps_per_b;
    if (!(v >= 0 && v <= TIME_MAX_PS))
        time_fail(what, v, "ps", "one computed time is at most 1e18 ps (11.6 days)");
    return (uint64_t)std::llround(v);
}
// n times `each` ps, exactly (integers).
inline uint64_t times_ps(uint64_t n, uint64_t each, const char *what)
{
    if (each && n > (uint64_t)TIME_MAX_PS / each)
        time_fail(what, (double)n * (double)each, "ps",
                  "one computed time is at most 1e18 ps (11.6 days)");
    return n * each;
}
// A count (of cycles, words) computed in floating point, as an integer; a
// count past TIME_MAX_PS could not be a time of 1 ps or more each.
inline uint64_t count_of(double n, const char *what)
{
    if (!(n >= 0 && n <= TIME_MAX_PS))
        time_fail(what, n, "", "a count of cycles or words is at most 1e18");
    return (uint64_t)n;
}
// An instant `d` ps after `at`: inside the simulator's range.
inline uint64_t after_ps(uint64_t at, uint64_t d, const char *what)
{
    if (d > SIM_END_PS - at)
        time_fail(what, (double)at + (double)d, "ps",
                  "it would fall past the simulator's last instant, 2^64-1 ps (213 days)");
    return at + d;
}

} // namespace ipcsim

#endif
