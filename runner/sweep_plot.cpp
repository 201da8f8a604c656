// sweep_plot.cpp -- a sweep's plot: each report: point against the first swept
// key, its band over the sweep shaded, the paper value as a dashed line.
#include "cli.h"
#include "merge.h"
#include "plot.h"
#include "plot_axis.h"

#include <algorithm>
#include <fstream>
#include <map>

namespace
{

std::string num(double v)
{
    return strf("%.10g", v);
}

} // namespace

void write_sweep_plot(const scenario &s, const sweep_spec &sw, const std::vector<swept_point> &pts,
                      out_files &files)
{
    // x: the first key's values, as numbers, or as categories in sweep order.
    bool numeric = true;
    std::vector<std::string> cats;
    for (const swept_point &p : pts) {
        double v;
        numeric = numeric && x_number(p.values[0], &v);
        if (std::find(cats.begin(), cats.end(), p.values[0]) == cats.end())
            cats.push_back(p.values[0]);
    }
    auto xpos = [&](const std::string &x) {
        if (numeric) return strtod(x.c_str(), nullptr);
        return (double)(std::find(cats.begin(), cats.end(), x) - cats.begin());
    };
    // One line per report: entry and values of the other swept keys.
    struct line {
        std::string title;
        size_t report;
        std::vector<std::pair<double, double>> xy;
    };
    std::vector<line> lines;
    std::vector<double> xs, ys;
    std::string unit;
    for (size_t r = 0; r < sw.report.size(); r++) {
        std::map<std::string, size_t> of_rest;
        for (const swept_point &p : pts) {
            std::vector<std::string> rest;
            for (size_t k = 1; k < sw.params.size(); k++)
                rest.push_back(sw.params[k].key + "=" + p.values[k]);
            std::string key = join(rest, ", ");
            if (!of_rest.count(key)) {
                of_rest[key] = lines.size();
                std::string t = sw.report[r].series + " at x=" + sw.report[r].x;
                lines.push_back({rest.empty() ? t : t + ", " + key, r, {}});
            }
            const row *w = report_row(p, sw.report[r]);
            if (!w) continue;
            unit = w->unit;
            double x = xpos(p.values[0]);
            lines[of_rest[key]].xy.push_back({x, w->value});
            xs.push_back(x);
            ys.push_back(w->value);
        }
        if (sw.report[r].has_ref) ys.push_back(sw.report[r].ref);
    }
    if (xs.empty()) fail_at(s.file, sw.line, "sweep: no report: point has a value to plot");

    std::string png = files.add(s.stem + "-sweep.png");
    std::string gp = files.scratch(s.stem + "-sweep.gp");
    std::string log = files.scratch(s.stem + "-sweep.log");
    std::string ylabel =
        sw.ylabel.empty() ? (sw.report.size() == 1 ? sw.report[0].series : "value") : sw.ylabel;
    if (!unit.empty()) ylabel += " (" + unit + ")";
    std::string g = "# ipcsim sweep plot of " + s.file + "\n" + gp_terminal(png);
    g += "set title " + gp_quote(s.title) + "\n";
    g += "set xlabel " + gp_quote(sw.xlabel) + "\n";
    g += "set ylabel " + gp_quote(ylabel) + "\n";
    g += "set grid xtics ytics\n";
    g += "set key below reverse Left box height 1 maxcols 1\n";
    double x0, x1;
    if (numeric) {
        plot_axis x = linear_axis(*std::min_element(xs.begin(), xs.end()),
                                  *std::max_element(xs.begin(), xs.end()), false, 0);
        g += "set xrange [" + num(x.lo) + ":" + num(x.hi) + "]\n" + gp_tics("x", x);
        x0 = x.lo, x1 = x.hi;
    } else {
        std::vector<std::string> t;
        for (size_t i = 0; i < cats.size(); i++) t.push_back(gp_quote(cats[i]) + " " + num(i));
        x0 = -0.5, x1 = (double)cats.size() - 0.5;
        g += "set xrange [" + num(x0) + ":" + num(x1) + "]\nset xtics (" + join(t, ", ") + ")\n";
    }
    double ymin = *std::min_element(ys.begin(), ys.end());
    plot_axis y = linear_axis(ymin, *std::max_element(ys.begin(), ys.end()), ymin >= 0, 0);
    g += "set yrange [" + num(y.lo) + ":" + num(y.hi) + "]\n" + gp_tics("y", y);

    // Bands first, so lines and points are drawn over them.
    std::vector<std::string> plots;
    for (size_t r = 0; r < sw.report.size(); r++) {
        const sweep_report &rep = sw.report[r];
        std::string colour = gp_quote(gp_colour(r));
        std::vector<double> v;
        for (const line &l : lines)
            for (const auto &pt : l.xy)
                if (l.report == r) v.push_back(pt.second);
        if (v.size() > 1) {
            double lo = *std::min_element(v.begin(), v.end());
            double hi = *std::max_element(v.begin(), v.end());
            g += strf("$band%zu << EOD\n", r) + num(x0) + " " + num(lo) + " " + num(hi) + "\n" +
                 num(x1) + " " + num(lo) + " " + num(hi) + "\nEOD\n";
            plots.push_back(strf("$band%zu using 1:2:3 with filledcurves fs transparent solid "
                                 "0.15 noborder lc rgb ",
                                 r) +
                            colour + " title " +
                            gp_quote(rep.series + " at x=" + rep.x + ": band " + fmt_num(lo) +
                                     " .. " + fmt_num(hi)));
        }
        if (rep.has_ref) {
            g += strf("$paper%zu << EOD\n", r) + num(x0) + " " + num(rep.ref) + "\n" + num(x1) +
                 " " + num(rep.ref) + "\nEOD\n";
            plots.push_back(strf("$paper%zu using 1:2 with lines dt 2 lw 2 lc rgb ", r) + colour +
                            " title " +
                            gp_quote(rep.series + " at x=" + rep.x + " reference: " + rep.source +
                                     " (" + fmt_num(rep.ref) + ")"));
        }
    }
    const int shapes[] = {7, 5, 9, 13, 11}, dashes[] = {1, 4, 5, 3};
    for (size_t i = 0; i < lines.size(); i++) {
        line l = lines[i];
        std::sort(l.xy.begin(), l.xy.end());
        g += strf("$sim%zu << EOD\n", i);
        for (const auto &pt : l.xy) g += num(pt.first) + " " + num(pt.second) + "\n";
        g += "EOD\n";
        size_t same = 0; // the line's rank among its report entry's
        for (size_t j = 0; j < i; j++) same += lines[j].report == l.report;
        plots.push_back(
            strf("$sim%zu using 1:2 with %s lw 2 dt %d pt %d ps 1 lc rgb ", i,
                 numeric ? "linespoints" : "points", dashes[same % 4], shapes[same % 5]) +
            gp_quote(gp_colour(l.report)) + " title " + gp_quote(l.title + " simulated"));
    }
    g += strf("set bmargin %zu\n", plots.size() + 7);
    g += "plot " + join(plots, ", \\\n     ") + "\n";
    std::ofstream(gp, std::ios::binary) << g;
    std::string out;
    int rc = run_gnuplot(gnuplot_program(), gp, log, &out);
    if (rc != 0)
        fail(strf("%s: gnuplot failed on the sweep's plot (exit %d)%s%s",
                  at(s.file, sw.line).c_str(), rc, out.empty() ? "" : ":\n", out.c_str()));
    if (!out.empty())
        fprintf(stderr, "ipcsim: gnuplot, sweep plot of %s: %s\n", s.file.c_str(), out.c_str());
}
