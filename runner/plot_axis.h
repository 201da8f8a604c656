// plot_axis.h -- the range and tick marks of one numeric plot axis.
//
// Every plot takes its ranges and ticks from here rather than from
// gnuplot's autoscale, which zooms a linear axis onto the data (a 3 % gap
// filled the frame) and stretches a log axis to whole decades far beyond
// it. One tick style for all plots: tick_label().
#ifndef IPCSIM_RUNNER_PLOT_AXIS_H
#define IPCSIM_RUNNER_PLOT_AXIS_H

#include <string>
#include <utility>
#include <vector>

struct plot_axis {
    double lo = 0, hi = 1;                             // the axis range
    std::vector<std::pair<double, std::string>> ticks; // position, label
    std::vector<double> minor;                         // unlabelled ticks between them
};

// How a tick is written: whole multiples of 1024 on a power-of-two axis
// as K, M, G (1K, 4K, 64K); elsewhere 1000 and up as k, M, G (10k, 1.5M),
// below 0.001 as 1e-4; otherwise the shortest decimal (0.25, 120).
std::string tick_label(double v, bool binary);

// True when every value is a whole power of two (x values 1, 4, 16 ...).
bool powers_of_two(const std::vector<double> &v);

// A linear axis over [min, max] of the data. With has_bottom, the axis
// starts at bottom; the far end (or both ends without it) gets 5 % of the
// span as room so points do not sit on the frame.
plot_axis linear_axis(double min, double max, bool has_bottom, double bottom);

// A log axis over [min, max] (> 0): 5 % of the span in decades as room on
// each side (a factor 1.1 at least, 2 at most), ticks at powers of two when binary
// (every 1st, 2nd, 4th ... so that at most 9 show), else at decades, or 1, 2
// and 5 per decade when fewer than three decades show. With has_bottom the
// axis starts at bottom (> 0).
plot_axis log_axis(double min, double max, bool binary, bool has_bottom, double bottom);

#endif
