// plot_axis.cpp -- ranges and ticks computed from the data (see plot_axis.h).
#include "plot_axis.h"
#include "cli.h"

#include <algorithm>
#include <cmath>

namespace
{

// At most this many labelled ticks on an axis: more crowd the labels.
constexpr int MAX_TICKS = 9;
// Rounding slack when a computed tick meets a range end or a whole power.
constexpr double EPS = 1e-9;

// The smallest 1, 2 or 5 times a power of ten that is at least raw.
double nice_step(double raw)
{
    double mag = std::pow(10, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * mag >= raw * (1 - EPS)) return m * mag;
    return 10 * mag;
}

// Ticks every nice step in [lo, hi], five to ten of them.
void linear_ticks(plot_axis &a)
{
    double step = nice_step((a.hi - a.lo) / 9);
    if (!(step > 0) || !std::isfinite(step)) return; // no span: no ticks (plot.cpp never asks)
    for (double k = std::ceil(a.lo / step - EPS); k * step <= a.hi + step * EPS; k++) {
        double v = k * step;
        if (std::fabs(v) < step * EPS) v = 0; // -0 and 1e-17 are 0
        a.ticks.push_back({v, tick_label(v, false)});
    }
}

bool inside(const plot_axis &a, double v)
{
    return v >= a.lo * (1 - EPS) && v <= a.hi * (1 + EPS);
}

// Powers of two 2^(k*s) inside the range, s = 1, 2, 4 ... the first with at
// most MAX_TICKS; the powers skipped become minor ticks.
void binary_ticks(plot_axis &a)
{
    int e0 = (int)std::ceil(std::log2(a.lo) - EPS), e1 = (int)std::floor(std::log2(a.hi) + EPS);
    int s = 1;
    while (std::floor((double)e1 / s) - std::ceil((double)e0 / s) + 1 > MAX_TICKS) s *= 2;
    for (int e = e0; e <= e1; e++) {
        double v = std::ldexp(1.0, e);
        if (e % s == 0)
            a.ticks.push_back({v, tick_label(v, true)});
        else
            a.minor.push_back(v);
    }
}

// Decades (2..9 of each as minor ticks), or 1, 2 and 5 per decade when fewer
// than three decades show, or linear ticks on a range narrower than that.
void decade_ticks(plot_axis &a)
{
    int d0 = (int)std::ceil(std::log10(a.lo) - EPS), d1 = (int)std::floor(std::log10(a.hi) + EPS);
    if (d1 - d0 + 1 >= 3) {
        int s = 1;
        while (std::floor((double)d1 / s) - std::ceil((double)d0 / s) + 1 > MAX_TICKS) s++;
        for (int d = d0 - 1; d <= d1; d++) {
            double p = std::pow(10, d);
            if (d >= d0 && d % s == 0)
                a.ticks.push_back({p, tick_label(p, false)});
            else if (d >= d0)
                a.minor.push_back(p);
            for (int m = 2; m <= 9; m++)
                if (inside(a, m * p)) a.minor.push_back(m * p);
        }
        return;
    }
    for (int d = d0 - 1; d <= d1; d++)
        for (double m : {1.0, 2.0, 5.0}) {
            double v = m * std::pow(10, d);
            if (inside(a, v)) a.ticks.push_back({v, tick_label(v, false)});
        }
    if (a.ticks.size() >= 2) return;
    a.ticks.clear();
    linear_ticks(a);
}

} // namespace

std::string tick_label(double v, bool binary)
{
    if (v == 0) return "0";
    const char *sign = v < 0 ? "-" : "";
    double a = std::fabs(v);
    if (binary && a >= 1024 && std::fmod(a, 1024) == 0) {
        static const char *const suffix[] = {"", "K", "M", "G"};
        int i = 0;
        while (i < 3 && a >= 1024 && std::fmod(a, 1024) == 0) {
            a /= 1024;
            i++;
        }
        return strf("%s%g%s", sign, a, suffix[i]);
    }
    if (a >= 1000) {
        static const char *const suffix[] = {"", "k", "M", "G", "T"};
        int i = 0;
        while (i < 4 && a >= 1000) {
            a /= 1000;
            i++;
        }
        return strf("%s%g%s", sign, a, suffix[i]);
    }
    if (a < 1e-3) { // 1e-4, not gnuplot's 1e-04 or 0.0001
        int e = (int)std::floor(std::log10(a));
        double m = a / std::pow(10, e);
        if (m >= 9.9999995) {
            m /= 10;
            e++;
        }
        return strf("%s%ge%d", sign, m, e);
    }
    return strf("%s%g", sign, a);
}

bool powers_of_two(const std::vector<double> &v)
{
    for (double x : v) {
        int e;
        if (!(x > 0) || std::frexp(x, &e) != 0.5) return false;
    }
    return !v.empty();
}

plot_axis linear_axis(double min, double max, bool has_bottom, double bottom)
{
    plot_axis a;
    if (has_bottom) {
        a.lo = bottom;
        a.hi = max > bottom ? max + 0.05 * (max - bottom)
                            : bottom + (bottom != 0 ? std::fabs(bottom) : 1);
    } else {
        double pad = max > min ? 0.05 * (max - min) : (min != 0 ? 0.1 * std::fabs(min) : 1);
        a.lo = min - pad;
        a.hi = max + pad;
    }
    linear_ticks(a);
    return a;
}

plot_axis log_axis(double min, double max, bool binary, bool has_bottom, double bottom)
{
    plot_axis a;
    double l0 = std::log10(min), l1 = std::log10(max);
    double pad = l1 > l0 ? std::max(0.05 * (l1 - l0), std::log10(1.1)) : std::log10(2);
    pad = std::min(pad, std::log10(2)); // never past the next power of two
    a.lo = has_bottom ? bottom : std::pow(10, l0 - pad);
    a.hi = std::pow(10, l1 + pad);
    if (a.hi <= a.lo) a.hi = a.lo * 10;
    if (binary)
        binary_ticks(a);
    else
        decade_ticks(a);
    return a;
}
