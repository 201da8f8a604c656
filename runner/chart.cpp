// chart.cpp -- a run's charts as text and as a gnuplot PNG, from one list of
// intervals, so that the two show the same thing.
#include "chart.h"
#include "cli.h"
#include "paths.h"
#include "plot.h"

#include "ipcsim/conf.h"

#include <algorithm>
#include <fstream>

namespace
{

// A colour per mark, in the footer's order; marks past the list reuse it.
const char *const colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                               "#9467bd", "#8c564b", "#e377c2", "#17becf"};

struct span {
    uint64_t t0 = UINT64_MAX, t1 = 0;
    int rows = 0; // highest row + 1
};

span span_of(const chart_data &c)
{
    span s;
    for (const interval &i : c.intervals) {
        s.t0 = std::min(s.t0, i.t0);
        s.t1 = std::max(s.t1, i.t1);
        s.rows = std::max(s.rows, i.row + 1);
    }
    return s;
}

// The chart's marks, by character code: the footer's and the PNG's order,
// and the winner of a cell two marks cover equally.
std::vector<char> marks_of(const chart_data &c)
{
    std::vector<char> m;
    for (const interval &i : c.intervals)
        if (std::find(m.begin(), m.end(), i.mark) == m.end()) m.push_back(i.mark);
    std::sort(m.begin(), m.end());
    return m;
}

std::string q(const std::string &s)
{
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
    return out + "'";
}

// A gnuplot double-quoted string ('' inside a single-quoted one at its
// start is not read as a quote by every gnuplot).
std::string dq(const std::string &s)
{
    std::string out = "\"";
    for (char c : s) out += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
    return out + "\"";
}

std::string gnuplot_script(const chart_data &c, const std::string &what, const std::string &png)
{
    span sp = span_of(c);
    std::vector<char> marks = marks_of(c);
    // Microseconds from the first interval's start: the text chart's origin.
    auto us = [&](uint64_t t) { return strf("%.6f", (double)(t - sp.t0) / 1000.0); };
    std::string g = "# ipcsim chart " + c.name + " of " + what + "\n";
    int height = 160 + 30 * sp.rows;
    g += strf("if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
              "    set terminal pngcairo size 900,%d font 'Sans,10'\n"
              "} else {\n"
              "    set terminal png size 900,%d\n"
              "}\n",
              height, height);
    g += "set termoption noenhanced\n";
    g += "set output " + q(png) + "\n";
    g += "set title " + q("chart " + c.name + " of " + what) + "\n";
    g += "set xlabel 'time from the first interval (us)'\n";
    g += "set xrange [0:" + us(sp.t1) + "]\n";
    g += strf("set yrange [%d.5:-0.5]\n", sp.rows - 1); // core 0 on top, as in the text
    std::vector<std::string> tics;
    for (int r = 0; r < sp.rows; r++) tics.push_back(strf("'core %d' %d", r, r));
    g += "set ytics (" + join(tics, ", ") + ")\n";
    g += "set key below horizontal\n";
    std::vector<std::string> plots;
    for (size_t m = 0; m < marks.size(); m++) {
        g += strf("$m%zu << EOD\n", m);
        for (const interval &i : c.intervals)
            if (i.mark == marks[m])
                g += strf("%s %s %d\n", us(i.t0).c_str(), us(i.t1).c_str(), i.row);
        g += "EOD\n";
        plots.push_back(strf("$m%zu using (($1+$2)/2):3:(($2-$1)/2):(0.4) with boxxyerror "
                             "fs solid 1.0 noborder lc rgb '%s' title %s",
                             m, colours[m % (sizeof colours / sizeof *colours)],
                             dq(strf("'%c'", marks[m])).c_str()));
    }
    g += "plot " + join(plots, ", \\\n     ") + "\n";
    return g;
}

} // namespace

uint64_t chart_scale_ns(const scenario &s)
{
    const struct conf_node *n = conf_get(conf_root(s.doc.get()), "chart.scale_ns");
    double v = 0;
    if (!n || !conf_number(n, &v)) return CHART_SCALE_NS;
    return (uint64_t)v; // the scenario's rules hold it to 1 .. 1e12
}

std::string chart_text(const chart_data &c, uint64_t scale, const std::string &stem,
                       const std::string &where)
{
    span sp = span_of(c);
    std::vector<char> marks = marks_of(c);
    uint64_t cells = (sp.t1 - sp.t0 + scale - 1) / scale;
    if (cells > CHART_MAX_CELLS)
        fail(strf("%s: chart '%s' spans %llu ns: %llu characters of %llu ns per row, more than "
                  "%llu; set chart: {scale_ns: %llu} or more",
                  where.c_str(), c.name.c_str(), (unsigned long long)(sp.t1 - sp.t0),
                  (unsigned long long)cells, (unsigned long long)scale,
                  (unsigned long long)CHART_MAX_CELLS,
                  (unsigned long long)((sp.t1 - sp.t0 + CHART_MAX_CELLS - 1) / CHART_MAX_CELLS)));
    std::string out = strf("chart %s of %s: one character = %llu ns (chart: {scale_ns: %llu}); "
                           "t = 0 at the first interval's start, %llu ns\n",
                           c.name.c_str(), stem.c_str(), (unsigned long long)scale,
                           (unsigned long long)scale, (unsigned long long)sp.t0);
    int width = (int)std::to_string(sp.rows - 1).size();
    std::vector<uint64_t> total(marks.size());
    uint64_t all = 0;
    // One row at a time (the intervals are in row order): cover[cell * marks
    // + m], the ns of mark m in that cell, stays at most CHART_MAX_CELLS x 93.
    std::vector<uint64_t> cover(cells * marks.size());
    auto i = c.intervals.begin();
    for (int r = 0; r < sp.rows; r++) {
        std::fill(cover.begin(), cover.end(), 0);
        for (; i != c.intervals.end() && i->row == r; ++i) {
            size_t m = std::find(marks.begin(), marks.end(), i->mark) - marks.begin();
            total[m] += i->t1 - i->t0;
            all += i->t1 - i->t0;
            for (uint64_t k = (i->t0 - sp.t0) / scale; k < cells; k++) {
                uint64_t c0 = sp.t0 + k * scale, c1 = c0 + scale;
                if (c0 >= i->t1) break;
                cover[k * marks.size() + m] += std::min(i->t1, c1) - std::max(i->t0, c0);
            }
        }
        out += strf("core %*d |", width, r);
        for (uint64_t k = 0; k < cells; k++) {
            const uint64_t *cv = &cover[k * marks.size()];
            size_t best = marks.size();
            for (size_t m = 0; m < marks.size(); m++)
                if (cv[m] > 0 && (best == marks.size() || cv[m] > cv[best])) best = m;
            out += best == marks.size() ? ' ' : marks[best];
        }
        out += "|\n";
    }
    std::vector<std::string> shares;
    for (size_t m = 0; m < marks.size(); m++)
        shares.push_back(strf("'%c' %.2f %% (%llu ns)", marks[m], 100.0 * total[m] / all,
                              (unsigned long long)total[m]));
    out += strf("shares of %llu ns in intervals on %d row%s: %s\n", (unsigned long long)all,
                sp.rows, sp.rows == 1 ? "" : "s", join(shares, ", ").c_str());
    return out;
}

std::string write_charts(const scenario &s, const std::vector<chart_data> &charts, out_files &files)
{
    if (charts.empty()) return "";
    uint64_t scale = chart_scale_ns(s);
    std::string program = find_program("gnuplot"), wrote;
    if (program.empty())
        fprintf(stderr,
                "ipcsim: %s: gnuplot is not on PATH: the charts are written as text only "
                "(Debian: apt-get install gnuplot-nox)\n",
                s.file.c_str());
    for (const chart_data &c : charts) {
        std::string base = s.stem + "." + c.name;
        files.write(base + ".txt", chart_text(c, scale, s.stem, s.file));
        wrote += ", " + files.dir() + "/" + base + ".txt";
        if (program.empty()) continue;
        std::string png = files.add(base + ".png");
        std::string gp = files.scratch(base + ".gp"), log = files.scratch(base + ".log");
        std::ofstream(gp, std::ios::binary) << gnuplot_script(c, s.stem, png);
        std::string out;
        int rc = run_gnuplot(program, gp, log, &out);
        if (rc != 0)
            fail(strf("%s: gnuplot failed on chart '%s' (exit %d)%s%s", s.file.c_str(),
                      c.name.c_str(), rc, out.empty() ? "" : ":\n", out.c_str()));
        if (!out.empty())
            fprintf(stderr, "ipcsim: gnuplot, chart '%s' of %s: %s\n", c.name.c_str(),
                    s.file.c_str(), out.c_str());
        if (std::ifstream(png, std::ios::binary | std::ios::ate).tellg() <= 0)
            fail(s.file + ": gnuplot wrote no image for chart '" + c.name + "'");
        wrote += ", " + files.dir() + "/" + base + ".png";
    }
    return wrote;
}
