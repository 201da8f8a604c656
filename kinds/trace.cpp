// trace.cpp -- a run's VCD (models/vcd.h) and the per-core busy chart's files.
#include "trace.h"
#include "../models/core.h"
#include "../models/kernel.h"
#include "../models/vcd.h"

#include "ipcsim/run.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fnmatch.h>
#include <memory>
#include <vector>

namespace ipcsim
{

struct Trace {
    plat_trace t;
    std::string vcd_path, dat_path, gp_path, png_path, title;
    uint64_t from = 0, to = NEVER;
    std::unique_ptr<Vcd> vcd;
};

namespace
{

std::string final_name(const plat_trace &t, const char *ext)
{
    return std::string(t.dir && *t.dir ? t.dir : ".") + "/" + t.stem + ext;
}

std::vector<std::string> split_globs(const char *s)
{
    std::vector<std::string> out;
    std::string cur;
    for (const char *p = s ? s : ""; *p; p++) {
        if (*p == ',') {
            if (!cur.empty()) out.push_back(cur);
            cur.clear();
        } else {
            cur += *p;
        }
    }
    if (!cur.empty()) out.push_back(cur);
    return out;
}

bool matches(const std::string &glob, const std::string &name)
{
    return fnmatch(glob.c_str(), name.c_str(), 0) == 0;
}

// A glob that matches nothing is a typo: say so rather than trace less.
std::string unmatched(const std::vector<std::string> &globs, const Vcd &vcd)
{
    for (const std::string &g : globs) {
        bool hit = false;
        for (const std::string &n : vcd.offered()) hit = hit || matches(g, n);
        if (hit) continue;
        std::string like;
        for (size_t i = 0; i < vcd.offered().size() && i < 3; i++)
            like += (i ? ", " : "") + vcd.offered()[i];
        return "trace signals: '" + g + "' matches none of the " +
               std::to_string(vcd.offered().size()) + " signals (named like " + like + ")";
    }
    return "";
}

} // namespace

Trace *trace_open(Kernel &top, const plat_trace &t, std::string &err)
{
    auto tr = std::make_unique<Trace>();
    tr->t = t;
    tr->vcd_path = t.vcd_path ? t.vcd_path : final_name(t, ".vcd");
    tr->dat_path = t.dat_path ? t.dat_path : final_name(t, ".busy.dat");
    tr->gp_path = t.gp_path ? t.gp_path : final_name(t, ".busy.gp");
    tr->png_path = t.png_path ? t.png_path : final_name(t, ".busy.png");
    tr->title = t.title && *t.title ? t.title : t.stem;
    tr->from = t.from_ps;
    tr->to = t.to_ps ? t.to_ps : NEVER;
    std::vector<std::string> globs = split_globs(t.signals);
    std::function<bool(const std::string &)> keep;
    if (!globs.empty())
        keep = [globs](const std::string &name) {
            for (const std::string &g : globs)
                if (matches(g, name)) return true;
            return false;
        };
    tr->vcd = std::make_unique<Vcd>(keep, tr->from, tr->to);
    top.trace_vcd(*tr->vcd);
    err = unmatched(globs, *tr->vcd);
    if (!err.empty()) return nullptr;
    if (tr->vcd->open(tr->vcd_path)) {
        err = "cannot write " + tr->vcd_path + ": " + strerror(errno);
        return nullptr;
    }
    top.tracing = true;
    return tr.release();
}

namespace
{

// The chart's geometry: the plot spans PLOT_PX pixel columns, one bin each.
constexpr int WIDTH_PX = 1000, LEFT_PX = 170, PLOT_PX = 800;
constexpr double LEFT = (double)LEFT_PX / WIDTH_PX, RIGHT = (double)(LEFT_PX + PLOT_PX) / WIDTH_PX;

// Each core's busy picoseconds in each of PLOT_PX bins over [w0, w1).
struct Bins {
    uint64_t w0, w1;
    std::vector<std::vector<uint64_t>> busy; // [core][bin]
    std::vector<uint64_t> total;             // [core], within the window

    uint64_t edge(int k) const
    {
        return w0 + (uint64_t)((unsigned __int128)(w1 - w0) * (unsigned)k / PLOT_PX);
    }
    int bin_of(uint64_t t) const // the bin holding t, w0 <= t < w1
    {
        int k = (int)((unsigned __int128)(t - w0) * PLOT_PX / (w1 - w0));
        while (k > 0 && edge(k) > t) k--;
        while (k + 1 < PLOT_PX && edge(k + 1) <= t) k++;
        return k;
    }
    void add(size_t core, uint64_t s, uint64_t e)
    {
        s = std::max(s, w0);
        e = std::min(e, w1);
        if (s >= e) return;
        total[core] += e - s;
        for (int k = bin_of(s); k < PLOT_PX && edge(k) < e; k++)
            busy[core][(size_t)k] += std::min(e, edge(k + 1)) - std::max(s, edge(k));
    }
};

// "12%", "0.3%", "<0.1%": one decimal below 1 % (and above 99 %), so that a
// core that was busy never reads 0 %.
std::string share_label(uint64_t busy, uint64_t span)
{
    double pct = span ? 100.0 * (double)busy / (double)span : 0;
    char s[32];
    if (busy == 0)
        snprintf(s, sizeof s, "0%%");
    else if (pct < 0.05)
        snprintf(s, sizeof s, "<0.1%%");
    else if (pct < 1 || (pct > 99 && busy < span))
        snprintf(s, sizeof s, "%.1f%%", std::min(pct, 99.9));
    else
        snprintf(s, sizeof s, "%.0f%%", pct);
    return s;
}

// A gnuplot single-quoted string: '' stands for '.
std::string gp_quote(const std::string &s)
{
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("''") : std::string(1, c);
    return q + "'";
}

// A shell single-quoted word.
std::string sh_quote(const std::string &s)
{
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

int write_dat(const Trace &tr, const Bins &b, double scale, std::string &err)
{
    FILE *f = fopen(tr.dat_path.c_str(), "w");
    if (!f) {
        err = "cannot write " + tr.dat_path + ": " + strerror(errno);
        return -1;
    }
    fprintf(f, "# core t0 t1 share: the core's busy share of each pixel column [t0, t1) of\n"
               "# the chart (busy: charged work or its own transactions); columns with\n"
               "# share 0 are left out; times in the chart's unit\n");
    bool any = false;
    for (size_t c = 0; c < b.busy.size(); c++)
        for (int k = 0; k < PLOT_PX; k++) {
            uint64_t busy = b.busy[c][(size_t)k];
            if (!busy) continue;
            uint64_t t0 = b.edge(k), t1 = b.edge(k + 1);
            fprintf(f, "%zu %.10g %.10g %.6f\n", c, (double)t0 / scale, (double)t1 / scale,
                    (double)busy / (double)(t1 - t0));
            any = true;
        }
    if (!any) fprintf(f, "0 0 0 0\n"); // gnuplot refuses an empty file
    bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad) {
        err = "cannot write " + tr.dat_path;
        return -1;
    }
    return 0;
}

int write_gp(const Trace &tr, const Bins &b, double scale, const char *unit, std::string &err)
{
    FILE *f = fopen(tr.gp_path.c_str(), "w");
    if (!f) {
        err = "cannot write " + tr.gp_path + ": " + strerror(errno);
        return -1;
    }
    int n = (int)b.busy.size();
    int row = n <= 16 ? 30 : n <= 64 ? 16 : 12;
    std::string stem = tr.t.stem;
    fprintf(f, "# gnuplot %s.busy.gp (from %s/): the busy chart of the run\n", stem.c_str(),
            tr.t.dir && *tr.t.dir ? tr.t.dir : ".");
    fprintf(f, "if (!exists(\"dat\")) dat = %s\n", gp_quote(stem + ".busy.dat").c_str());
    fprintf(f, "if (!exists(\"png\")) png = %s\n", gp_quote(stem + ".busy.png").c_str());
    fprintf(f, "set terminal pngcairo size %d,%d font ',%d' noenhanced\n", WIDTH_PX, 120 + row * n,
            row >= 16 ? 10 : 8);
    fprintf(f, "set output png\n");
    fprintf(f, "set title %s noenhanced\n", gp_quote("Busy cores: " + tr.title).c_str());
    // The plot area is exactly PLOT_PX columns: one bin each.
    fprintf(f, "set lmargin at screen %g\nset rmargin at screen %g\n", LEFT, RIGHT);
    fprintf(f, "set xlabel 'simulated time (%s); bar height: busy share of each pixel column'\n",
            unit);
    double x0 = (double)b.w0 / scale, x1 = (double)b.w1 / scale;
    fprintf(f, "set xrange [%.10g:%.10g]\n", x0, x1);
    fprintf(f, "set yrange [%g:-0.5]\n", n - 0.5);
    fprintf(f, "set ytics (");
    uint64_t span = b.w1 - b.w0;
    for (int i = 0; i < n; i++) {
        std::string lab =
            "core " + std::to_string(i) + " (" + share_label(b.total[(size_t)i], span) + " busy)";
        std::string esc; // tic labels are formats: % is %%
        for (char c : lab) esc += c == '%' ? std::string("%%") : std::string(1, c);
        fprintf(f, "%s%s %d", i ? ", " : "", gp_quote(esc).c_str(), i);
    }
    fprintf(f, ")\n");
    // A pale band per row: a full-height bar is a core busy all that column.
    for (int i = 0; i < n; i++)
        fprintf(f,
                "set object %d rect from %.10g,%g to %.10g,%g fc rgb '#ececec' fs solid "
                "noborder behind\n",
                i + 1, x0, i - 0.35, x1, i + 0.35);
    fprintf(f, "set style fill solid 1.0 noborder\nunset key\nset grid xtics front\n");
    fprintf(f, "plot dat using (($2+$3)/2):($1+0.35-0.35*$4):(($3-$2)/2):(0.35*$4) "
               "with boxxyerror lc rgb '#2f6fb0'\n");
    bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad) {
        err = "cannot write " + tr.gp_path;
        return -1;
    }
    return 0;
}

int draw(const Trace &tr, std::string &err)
{
    std::string vars = "dat=" + gp_quote(tr.dat_path) + "; png=" + gp_quote(tr.png_path);
    std::string cmd = "gnuplot -e " + sh_quote(vars) + " " + sh_quote(tr.gp_path) + " 2>&1";
    FILE *p = popen(cmd.c_str(), "r");
    if (!p) {
        err = "cannot run gnuplot";
        return -1;
    }
    std::string out;
    char buf[256];
    while (fgets(buf, sizeof buf, p)) out += buf;
    if (pclose(p) != 0) {
        err = "gnuplot failed on " + final_name(tr.t, ".busy.gp") + ": " + out;
        return -1;
    }
    return 0;
}

} // namespace

int trace_close(Trace *trp, Kernel &top, uint64_t end_ps, bool ok, std::string &err)
{
    std::unique_ptr<Trace> tr(trp);
    if (tr->vcd->close(end_ps) && ok) {
        err = "cannot write " + tr->vcd_path;
        return -1;
    }
    if (!ok) return 0; // the caller removes what was written

    Bins b;
    b.w0 = std::min(tr->from, end_ps);
    b.w1 = std::max(std::min(tr->to, end_ps), b.w0 + 1);
    b.busy.assign((size_t)top.cores(), std::vector<uint64_t>((size_t)PLOT_PX, 0));
    b.total.assign((size_t)top.cores(), 0);
    for (int i = 0; i < top.cores(); i++)
        for (const auto &iv : top.core(i).busy_log)
            b.add((size_t)i, iv.first, iv.second == NEVER ? end_ps : iv.second);

    // Time axis in the unit that keeps the numbers readable.
    double span_ns = (double)(b.w1 - b.w0) / 1e3, scale = 1e3;
    const char *unit = "ns";
    if (span_ns >= 1e7)
        scale = 1e9, unit = "ms";
    else if (span_ns >= 1e4)
        scale = 1e6, unit = "us";
    if (write_dat(*tr, b, scale, err) || write_gp(*tr, b, scale, unit, err)) return -1;
    return draw(*tr, err);
}

} // namespace ipcsim
