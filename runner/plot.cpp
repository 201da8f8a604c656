// plot.cpp -- gnuplot scripts with inline data, one gnuplot process per plot.
#include "plot.h"
#include "cli.h"
#include "paths.h"
#include "plot_axis.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>

extern char **environ;

namespace
{

// Distinguishable on screen and in grey print; series cycle through them.
const char *const colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                               "#9467bd", "#8c564b", "#e377c2", "#17becf"};

// gnuplot point types of one shape, filled (simulated) and hollow (paper).
// Each series has its own shape, so two series' paper points at the same
// spot (xmcapi's SC and DC both 112 MB/s at 32 KB) show as a circle in a
// square instead of one hiding the other, and a simulated dot inside its
// paper ring shows that both agree.
struct shape {
    int filled, hollow;
};
const shape shapes[] = {{7, 6}, {5, 4}, {9, 8}, {13, 12}, {11, 10}};
// Line dash types: solid, dashed, dash-dot ..., so a series whose line runs
// on top of another's (xmcapi's SC and DC from 8 KB on) leaves it visible.
const int dashes[] = {1, 2, 4, 5, 3};

// Sizes: the paper's hollow marker is twice the simulated dot; later
// series' dots are a little smaller, so one drawn over another's at the
// same spot leaves its rim showing.
constexpr double SIM_PS = 1.0, SIM_PS_STEP = 0.15, SIM_PS_MIN = 0.6, REF_PS = 2.2;

// About how many pixels a character of the 10 pt font takes and how wide
// the frame is, to decide whether category labels fit side by side.
constexpr double CHAR_PX = 7, FRAME_PX = 700;

bool numeric(const std::string &s)
{
    if (s.empty()) return false;
    char *end;
    double v = strtod(s.c_str(), &end);
    return *end == '\0' && std::isfinite(v);
}

std::string slurp(const std::string &path)
{
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

std::string num(double v)
{
    return strf("%.10g", v);
}

// Points a plot cannot draw, counted so that write_plots can say so.
struct left_out {
    int log = 0;      // at or below 0 on a log axis
    int infinite = 0; // an inf or nan value
};

// One series as drawn: (x position, y) of its simulated and paper points.
struct drawn {
    std::string name;
    std::vector<std::pair<double, double>> sim, ref;
};

std::string script(const scenario &s, const plot_spec &p, const std::vector<row> &rows,
                   const char *value_label, const std::string &png, left_out *dropped)
{
    std::vector<std::string> series = p.series.empty() ? row_series(rows) : p.series;
    std::string unit;
    bool categories = false;
    std::vector<std::string> cats; // x values in first-seen order, for categories
    for (const std::string &name : series) {
        bool any = false;
        for (const row &r : rows) {
            if (r.series != name) continue;
            any = true;
            if (unit.empty()) unit = r.unit;
            if (!numeric(r.x)) categories = true;
            bool seen = false;
            for (const std::string &c : cats) seen = seen || c == r.x;
            if (!seen) cats.push_back(r.x);
        }
        if (!any)
            fail_at(s.file, p.line,
                    strf("plot '%s': series '%s' has no points (the run has: %s)", p.id.c_str(),
                         name.c_str(), join(row_series(rows), ", ").c_str()));
    }
    auto xpos = [&](const std::string &x) {
        if (!categories) return strtod(x.c_str(), nullptr);
        for (size_t i = 0; i < cats.size(); i++)
            if (cats[i] == x) return (double)i;
        return 0.0;
    };

    // The points, less those a log axis cannot show (counted, not hidden
    // silently: write_plots says so).
    std::vector<drawn> data;
    std::vector<double> xs, ys;
    for (const std::string &name : series) {
        drawn d{name, {}, {}};
        for (const row &r : rows) {
            if (r.series != name) continue;
            double x = xpos(r.x);
            for (int ref = 0; ref < 2; ref++) {
                if (!(ref ? r.has_ref : r.has_value)) continue;
                double y = ref ? r.ref : r.value;
                if (!std::isfinite(y)) {
                    dropped->infinite++;
                    continue;
                }
                if ((p.logx && !categories && x <= 0) || (p.logy && y <= 0)) {
                    dropped->log++;
                    continue;
                }
                (ref ? d.ref : d.sim).push_back({x, y});
                xs.push_back(x);
                ys.push_back(y);
            }
        }
        // A line joins a series' points in x order, not report order: runs
        // that extend one series (keep_names) give theirs run after run.
        if (!categories)
            std::stable_sort(d.sim.begin(), d.sim.end(),
                             [](const auto &a, const auto &b) { return a.first < b.first; });
        data.push_back(d);
    }
    if (ys.empty()) fail_at(s.file, p.line, "plot '" + p.id + "': no point can be drawn");
    double ymin = *std::min_element(ys.begin(), ys.end());
    double ymax = *std::max_element(ys.begin(), ys.end());

    std::string ylabel = p.ylabel.empty() ? (series.size() == 1 ? series[0] : "value") : p.ylabel;
    if (!unit.empty() && ylabel.find("(" + unit + ")") == std::string::npos)
        ylabel += " (" + unit + ")";

    std::string g;
    g += "# ipcsim plot " + p.id + " of " + s.file + "\n";
    g += gp_terminal(png);
    g += "set title " + gp_quote(p.title) + "\n";
    g += "set xlabel " + gp_quote(p.xlabel) + "\n";
    g += "set ylabel " + gp_quote(ylabel) + "\n";
    g += "set grid xtics ytics\n";
    // The key goes below the plot: inside, its long reference sources hid
    // points. One column, so its height is known for the margin below.
    g += "set key below reverse Left box height 1 maxcols 1\n";

    // x: categories side by side (slanted when their labels do not fit),
    // or a numeric axis that ends near the data.
    size_t tic_lines = 1;
    if (categories) {
        std::vector<std::string> t;
        size_t longest = 0;
        for (size_t i = 0; i < cats.size(); i++) {
            t.push_back(gp_quote(cats[i]) + " " + std::to_string(i));
            longest = std::max(longest, cats[i].size());
        }
        g += "set xrange [-0.5:" + std::to_string(cats.size()) + "-0.5]\n";
        g += "set xtics (" + join(t, ", ") + ")\n";
        if (longest * CHAR_PX > 0.9 * FRAME_PX / cats.size()) {
            g += "set xtics rotate by -30\n";
            tic_lines = 2 + longest / 5; // a slanted label's height in lines
        }
    } else {
        double xmin = *std::min_element(xs.begin(), xs.end());
        double xmax = *std::max_element(xs.begin(), xs.end());
        plot_axis x = p.logx ? log_axis(xmin, xmax, powers_of_two(xs), false, 0)
                             : linear_axis(xmin, xmax, false, 0);
        if (p.logx) g += "set logscale x\n";
        g += "set xrange [" + num(x.lo) + ":" + num(x.hi) + "]\n";
        g += gp_tics("x", x);
    }
    // y: a linear axis of values that are all >= 0 (times, rates, counts)
    // starts at 0, so that a 3 % difference looks like 3 %; ymin: overrides.
    plot_axis y;
    if (p.logy) {
        g += "set logscale y\n";
        y = log_axis(ymin, ymax, false, p.has_ymin, p.ymin);
    } else {
        bool from_zero = !p.has_ymin && ymin >= 0;
        y = linear_axis(ymin, ymax, p.has_ymin || from_zero, p.has_ymin ? p.ymin : 0);
    }
    g += "set yrange [" + num(y.lo) + ":" + num(y.hi) + "]\n";
    g += gp_tics("y", y);

    // Categories are not a sequence: their points are not joined by lines.
    std::vector<std::string> plots;
    for (size_t i = 0; i < data.size(); i++) {
        const drawn &d = data[i];
        std::string colour = gp_quote(gp_colour(i));
        const shape &sh = shapes[i % (sizeof shapes / sizeof shapes[0])];
        int dash = dashes[i % (sizeof dashes / sizeof dashes[0])];
        double ps = std::max(SIM_PS_MIN, SIM_PS - SIM_PS_STEP * (double)i);
        if (!d.sim.empty()) {
            g += strf("$sim%zu << EOD\n", i);
            for (const auto &pt : d.sim) g += num(pt.first) + " " + num(pt.second) + "\n";
            g += "EOD\n";
            std::string with = categories ? "points" : strf("linespoints lw 2 dt %d", dash);
            plots.push_back(strf("$sim%zu using 1:2 with %s pt %d ps %g lc rgb ", i, with.c_str(),
                                 sh.filled, ps) +
                            colour + " title " + gp_quote(d.name + " " + value_label));
        }
        if (!d.ref.empty()) {
            const ref_series *rs = s.ref_of(d.name);
            std::string src = rs ? rs->source : "";
            g += strf("$ref%zu << EOD\n", i);
            for (const auto &pt : d.ref) g += num(pt.first) + " " + num(pt.second) + "\n";
            g += "EOD\n";
            plots.push_back(strf("$ref%zu using 1:2 with points lw 1.5 pt %d ps %g lc rgb ", i,
                                 sh.hollow, REF_PS) +
                            colour + " title " + gp_quote(d.name + " reference: " + src));
        }
    }
    // gnuplot's key below leaves no room for the x label: the bottom margin
    // holds the tic labels, the label, then one line per key entry.
    g += strf("set bmargin %zu\n", plots.size() + tic_lines + 4);
    g += "plot " + join(plots, ", \\\n     ") + "\n";
    return g;
}

} // namespace

std::string gp_quote(const std::string &s)
{
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
    return out + "'";
}

// `set xtics (...)`: every tick of a, labelled, and its minor ticks.
std::string gp_tics(const char *axis, const plot_axis &a)
{
    std::vector<std::string> t;
    for (const auto &k : a.ticks) t.push_back(gp_quote(k.second) + " " + num(k.first));
    for (double m : a.minor) t.push_back("'' " + num(m) + " 1");
    return strf("set %stics (", axis) + join(t, ", ") + ")\n";
}

std::string gp_terminal(const std::string &png)
{
    return "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
           "    set terminal pngcairo size 800,500 font 'Sans,10'\n"
           "} else {\n"
           "    set terminal png size 800,500\n"
           "}\n"
           "set termoption noenhanced\n"
           "set output " +
           gp_quote(png) + "\n";
}

const char *gp_colour(size_t i)
{
    return colours[i % (sizeof colours / sizeof colours[0])];
}

int run_gnuplot(const std::string &program, const std::string &script_file,
                const std::string &log_file, std::string *log)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, log_file.c_str(), O_WRONLY | O_TRUNC, 0);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    std::vector<char *> argv = {const_cast<char *>(program.c_str()),
                                const_cast<char *>(script_file.c_str()), nullptr};
    pid_t pid;
    int rc = posix_spawn(&pid, program.c_str(), &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) fail(program + ": cannot start: " + strerror(rc));
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) fail(program + ": waitpid: " + strerror(errno));
    *log = slurp(log_file);
    while (!log->empty() && (log->back() == '\n' || log->back() == ' ')) log->pop_back();
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

std::string gnuplot_program()
{
    std::string g = find_program("gnuplot");
    if (g.empty())
        fail("--plot needs gnuplot, which is not on PATH (Debian: apt-get install gnuplot-nox)");
    return g;
}

void write_plots(const scenario &s, const std::vector<row> &rows, const char *value_label,
                 out_files &files)
{
    if (s.plots.empty()) return;
    std::string program = gnuplot_program();
    for (const plot_spec &p : s.plots) {
        std::string name = s.stem + "-" + p.id + ".png";
        std::string png = files.add(name);
        std::string gp = files.scratch(s.stem + "-" + p.id + ".gp");
        std::string log = files.scratch(s.stem + "-" + p.id + ".log");
        left_out dropped;
        std::ofstream(gp, std::ios::binary) << script(s, p, rows, value_label, png, &dropped);
        if (dropped.log)
            fprintf(stderr,
                    "ipcsim: %s: plot '%s': %d point%s at or below 0 not drawn on its log axis\n",
                    at(s.file, p.line).c_str(), p.id.c_str(), dropped.log,
                    dropped.log == 1 ? "" : "s");
        if (dropped.infinite)
            fprintf(stderr, "ipcsim: %s: plot '%s': %d point%s not drawn: not a finite number\n",
                    at(s.file, p.line).c_str(), p.id.c_str(), dropped.infinite,
                    dropped.infinite == 1 ? "" : "s");
        std::string out;
        int rc = run_gnuplot(program, gp, log, &out);
        if (rc != 0)
            fail(strf("%s: gnuplot failed on plot '%s' (exit %d)%s%s", at(s.file, p.line).c_str(),
                      p.id.c_str(), rc, out.empty() ? "" : ":\n", out.c_str()));
        if (!out.empty())
            fprintf(stderr, "ipcsim: gnuplot, plot '%s' of %s: %s\n", p.id.c_str(), s.file.c_str(),
                    out.c_str());
        if (std::ifstream(png, std::ios::binary | std::ios::ate).tellg() <= 0)
            fail(at(s.file, p.line) + ": gnuplot wrote no image for plot '" + p.id + "'");
    }
}
