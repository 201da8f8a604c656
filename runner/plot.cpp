// plot.cpp -- gnuplot scripts with inline data, one gnuplot process per plot.
#include "plot.h"
#include "cli.h"
#include "paths.h"

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

// A gnuplot single-quoted string: only ' needs escaping (as '').
std::string q(const std::string &s)
{
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
    return out + "'";
}

// A data-block field for xtic(): double-quoted, no quotes inside.
std::string label(std::string s)
{
    for (char &c : s)
        if (c == '"' || c == '\n') c = '\'';
    return "\"" + s + "\"";
}

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

std::string script(const scenario &s, const plot_spec &p, const std::vector<row> &rows,
                   const char *value_label, const std::string &png)
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
        if (!categories) return x;
        for (size_t i = 0; i < cats.size(); i++)
            if (cats[i] == x) return std::to_string(i) + " " + label(x);
        return std::string("0 \"?\"");
    };

    std::string ylabel = p.ylabel.empty() ? (series.size() == 1 ? series[0] : "value") : p.ylabel;
    if (!unit.empty() && ylabel.find("(" + unit + ")") == std::string::npos)
        ylabel += " (" + unit + ")";

    std::string g;
    g += "# ipcsim plot " + p.id + " of " + s.file + "\n";
    g += "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
         "    set terminal pngcairo size 800,500 font 'Sans,10'\n"
         "} else {\n"
         "    set terminal png size 800,500\n"
         "}\n";
    g += "set termoption noenhanced\n";
    g += "set output " + q(png) + "\n";
    g += "set title " + q(p.title) + "\n";
    g += "set xlabel " + q(p.xlabel) + "\n";
    g += "set ylabel " + q(ylabel) + "\n";
    g += "set grid\n";
    // The key goes below the plot: inside, its long reference sources hid
    // points (a category axis spreads over the whole frame anyway).
    g += "set key below reverse Left box height 1\n";
    g += "set format y '%g'\n";
    if (categories) {
        g += "set xrange [-0.5:" + std::to_string(cats.size()) + "-0.5]\n";
        g += "set xtics rotate by -30\n";
    } else {
        g += "set format x '%g'\n";
        if (p.logx) g += "set logscale x\n";
    }
    if (p.logy) g += "set logscale y\n";
    if (p.has_ymin) g += "set yrange [" + fmt_num(p.ymin) + ":*]\n";
    // Keep points off the top and bottom of the frame on a linear y axis (log
    // axes autoscale to whole decades anyway). gnuplot offsets a fixed ymin
    // too, so then only the top gets room.
    if (!p.logy)
        g += std::string("set offsets 0, 0, graph 0.05, ") + (p.has_ymin ? "0" : "graph 0.05") +
             "\n";

    std::vector<std::string> plots;
    for (size_t i = 0; i < series.size(); i++) {
        const std::string &name = series[i];
        std::string sim, ref;
        for (const row &r : rows) {
            if (r.series != name) continue;
            if (r.has_value) sim += xpos(r.x) + " " + fmt_num(r.value) + "\n";
            if (r.has_ref) ref += xpos(r.x) + " " + fmt_num(r.ref) + "\n";
        }
        std::string colour = colours[i % (sizeof colours / sizeof colours[0])];
        std::string use = categories ? "using 1:3:xtic(2)" : "using 1:2";
        if (!sim.empty()) {
            g += strf("$sim%zu << EOD\n", i) + sim + "EOD\n";
            plots.push_back(strf("$sim%zu ", i) + use + " with linespoints lw 2 pt 7 ps 1 lc rgb " +
                            q(colour) + " title " + q(name + " " + value_label));
        }
        if (!ref.empty()) {
            const ref_series *rs = s.ref_of(name);
            std::string src = rs ? rs->source : "";
            g += strf("$ref%zu << EOD\n", i) + ref + "EOD\n";
            plots.push_back(strf("$ref%zu ", i) + use + " with points lw 2 pt 6 ps 2 lc rgb " +
                            q(colour) + " title " + q(name + " reference: " + src));
        }
    }
    // gnuplot's key below leaves no room for the x label: the bottom margin
    // holds the tic labels, the label, then one line per key entry.
    g += strf("set bmargin %zu\n", plots.size() + (categories ? 12 : 5));
    g += "plot " + join(plots, ", \\\n     ") + "\n";
    return g;
}

// Run gnuplot on a script file; its output (warnings, errors) in *log.
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

} // namespace

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
        std::ofstream(gp, std::ios::binary) << script(s, p, rows, value_label, png);
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
