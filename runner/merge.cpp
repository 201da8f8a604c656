// merge.cpp -- `ipcsim merge DIR`: a sweep's point files, whichever engine
// wrote them and in whatever order, merged into one CSV in the sweep's own
// order (sweep_points), so the bytes depend on the results alone.
#include "merge.h"
#include "cli.h"
#include "confptr.h"
#include "meta.h"
#include "paths.h"
#include "plot.h"

#include "ipcsim/conf.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace fs = std::filesystem;

static const char usage[] =
    "usage: ipcsim merge DIR [--out OUT] [--plot] [--check]\n"
    "\n"
    "Merge the points of a sweep in DIR (DIR/<point>.csv with its .meta.yaml, as\n"
    "ipcsim sweep --point writes them: run by make, GNU parallel, xargs or a\n"
    "Slurm array) into OUT/<stem>.csv (OUT: DIR's parent): the swept keys and\n"
    "the refit key as the first columns, the points in the sweep's order. Prints\n"
    "the table of the sweep's report: points and each one's band (min..max over\n"
    "the sweep) against the paper. Every point must be there, made from the\n"
    "scenario file as it is now.\n"
    "\n"
    "  --out OUT   where the merged CSV and plot go (default: DIR/..)\n"
    "  --plot      also draw OUT/<stem>-sweep.png (gnuplot)\n"
    "  --check     exit 1 when a report: point's paper value is outside its band\n"
    "\n"
    "Exit status: 0 ok, 1 --check failed, 2 error.\n";

namespace
{

// The scenario the points were made from: scenario.file of their .meta.yaml.
std::string scenario_of(const std::string &dir)
{
    std::vector<std::string> metas;
    std::error_code ec;
    for (const auto &e : fs::directory_iterator(dir, ec)) {
        std::string n = e.path().filename().string();
        if (n.size() > 10 && n.compare(n.size() - 10, 10, ".meta.yaml") == 0)
            metas.push_back(e.path().string());
    }
    if (ec) fail(dir + ": cannot read: " + ec.message());
    if (metas.empty())
        fail(dir +
             ": no points of a sweep here (no *.meta.yaml; ipcsim sweep --point writes them)");
    std::sort(metas.begin(), metas.end());
    std::string file;
    for (const std::string &m : metas) {
        char err[1024];
        conf_ptr c(conf_load(m.c_str(), err, sizeof err));
        if (!c) fail(err);
        std::string f = conf_str(c.get(), "scenario.file", "");
        if (f.empty()) fail(m + ": names no scenario.file");
        if (!file.empty() && f != file)
            fail(dir + ": points of two scenarios, " + file + " and " + f + " (" + m + ")");
        file = f;
    }
    return file;
}

// Each point's CSV: its header must be the sweep's, its scenario the file
// as it is now; the rows without the point's own columns.
swept_point read_point(const std::string &dir, const sweep_point &pt, size_t ncols,
                       const std::string &header, const std::string &file_sha)
{
    std::string csv = dir + "/" + pt.name + ".csv", meta = dir + "/" + pt.name + ".meta.yaml";
    char err[1024];
    conf_ptr c(conf_load(meta.c_str(), err, sizeof err));
    if (!c) fail(err);
    if (conf_str(c.get(), "scenario.sha256", "") != file_sha)
        fail(csv + ": made from another version of the scenario (its scenario.sha256 differs): "
                   "run the point again");
    std::string text = read_text(csv);
    if (text.compare(0, header.size() + 1, header + "\n") != 0)
        fail_at(csv, 1, "not a point of this sweep (the header must be " + header + ")");
    swept_point p;
    std::string plain = std::string(csv_header) + "\n";
    std::vector<std::string> f;
    size_t pos = header.size() + 1;
    for (int line = 2; csv_record(text, pos, f); line++) {
        if (f.size() == 1 && f[0].empty()) continue;
        if (f.size() < ncols) fail_at(csv, line, strf("%zu fields, expected more", f.size()));
        if (p.values.empty()) p.values.assign(f.begin(), f.begin() + (long)ncols);
        std::vector<std::string> rest;
        for (size_t i = ncols; i < f.size(); i++) rest.push_back(csv_field(f[i]));
        plain += join(rest, ",") + "\n";
    }
    p.rows = csv_parse(plain, csv);
    return p;
}

// The table: one row per point and report: entry, aligned like ipcsim run's.
void print_sweep_table(const sweep_spec &sw, const std::vector<std::string> &cols,
                       const std::vector<swept_point> &pts)
{
    std::vector<std::vector<std::string>> t;
    std::vector<std::string> head = cols;
    for (const char *h : {"series", "x", "simulated", "paper", "error %", "unit"})
        head.push_back(h);
    t.push_back(head);
    for (const swept_point &p : pts)
        for (const sweep_report &r : sw.report) {
            std::vector<std::string> line = p.values;
            const row *w = report_row(p, r);
            line.push_back(r.series);
            line.push_back(r.x);
            line.push_back(w ? fmt_num(w->value) : "-");
            line.push_back(r.has_ref ? fmt_num(r.ref) : "-");
            line.push_back(w && r.has_ref ? fmt_err((w->value - r.ref) / r.ref * 100) : "-");
            line.push_back(w ? w->unit : "");
            t.push_back(line);
        }
    std::vector<size_t> width(head.size(), 0);
    for (const auto &line : t)
        for (size_t i = 0; i < line.size(); i++) width[i] = std::max(width[i], line[i].size());
    for (const auto &line : t) {
        std::string s;
        for (size_t i = 0; i < line.size(); i++)
            s += i + 1 < line.size() ? strf("%-*s  ", (int)width[i], line[i].c_str()) : line[i];
        while (!s.empty() && s.back() == ' ') s.pop_back();
        printf("%s\n", s.c_str());
    }
}

// One line per report: entry: its band over the sweep and where the paper
// value lies. Returns how many paper values are inside their band.
int print_bands(const sweep_spec &sw, const std::vector<swept_point> &pts, int *judged)
{
    int inside = 0;
    *judged = 0;
    for (const sweep_report &r : sw.report) {
        std::vector<double> v;
        std::string unit;
        for (const swept_point &p : pts)
            if (const row *w = report_row(p, r)) {
                v.push_back(w->value);
                unit = w->unit;
            }
        std::string line = "band  " + r.series + " at x=" + r.x + ": ";
        if (v.empty()) {
            printf("%sno point has a value\n", line.c_str());
            if (r.has_ref) ++*judged;
            continue;
        }
        double lo = *std::min_element(v.begin(), v.end()),
               hi = *std::max_element(v.begin(), v.end());
        line += fmt_num(lo) + " .. " + fmt_num(hi) + (unit.empty() ? "" : " " + unit) +
                strf(" over %zu points", v.size());
        if (r.has_ref) {
            ++*judged;
            bool in = lo <= r.ref && r.ref <= hi;
            inside += in;
            line +=
                "; paper " + fmt_num(r.ref) + " (" + r.source + "): " + (in ? "inside" : "OUTSIDE");
        }
        printf("%s\n", line.c_str());
    }
    return inside;
}

} // namespace

const row *report_row(const swept_point &p, const sweep_report &r)
{
    for (const row &w : p.rows)
        if (w.series == r.series && w.has_value && x_same(w.x, r.x)) return &w;
    return nullptr;
}

int sweep_merge(const merge_opts &o)
{
    std::string file = o.file.empty() ? scenario_of(o.points_dir) : o.file;
    if (o.plot) gnuplot_program();
    scenario s = scenario_load(file, {});
    sweep_spec sw = sweep_read(s);
    std::vector<sweep_point> pts = sweep_points(sw);
    std::vector<std::string> cols;
    for (const sweep_param &p : sw.params) cols.push_back(p.key);
    if (sw.has_refit) cols.push_back(sw.refit.key);
    std::vector<std::string> quoted;
    for (const std::string &c : cols) quoted.push_back(csv_field(c));
    std::string header = join(quoted, ",") + "," + csv_header;

    std::vector<std::string> missing;
    for (size_t i = 0; i < pts.size(); i++)
        if (!is_file(o.points_dir + "/" + pts[i].name + ".csv"))
            missing.push_back(strf("%zu (%s)", i, pts[i].name.c_str()));
    if (!missing.empty())
        fail(strf("%s: %zu of %zu points of %s are missing: ", o.points_dir.c_str(), missing.size(),
                  pts.size(), file.c_str()) +
             join(missing, ", ") + " (ipcsim sweep " + file + " --point I runs one)");

    std::string sha = sha256_file(file), merged = header + "\n";
    std::vector<swept_point> results;
    for (const sweep_point &pt : pts) {
        results.push_back(read_point(o.points_dir, pt, cols.size(), header, sha));
        std::string text = read_text(o.points_dir + "/" + pt.name + ".csv");
        merged += text.substr(header.size() + 1);
    }

    printf("%s\n%s: sweep of %s, %zu point%s%s%s\n\n", s.title.c_str(), display_path(file).c_str(),
           join(std::vector<std::string>(cols.begin(), cols.begin() + (long)sw.params.size()), ", ")
               .c_str(),
           pts.size(), pts.size() == 1 ? "" : "s", sw.zip ? " (zipped)" : "",
           sw.has_refit
               ? strf("; %s refitted at each to %s at x=%s = %s", sw.refit.key.c_str(),
                      sw.refit.series.c_str(), sw.refit.x.c_str(), fmt_num(sw.refit.target).c_str())
                     .c_str()
               : "");
    print_sweep_table(sw, cols, results);
    printf("\n");
    int judged = 0, inside = print_bands(sw, results, &judged);

    out_files files(o.out_dir);
    files.write(s.stem + ".csv", merged);
    if (o.plot) write_sweep_plot(s, sw, results, files);
    files.commit();
    if (!o.keep_points_as.empty()) {
        std::error_code ec;
        fs::remove_all(o.keep_points_as, ec);
        fs::rename(o.points_dir, o.keep_points_as, ec);
        if (ec) fail(o.keep_points_as + ": cannot put the points there: " + ec.message());
    }
    printf("\nwrote %s/%s.csv%s\n", files.dir().c_str(), s.stem.c_str(),
           o.plot ? (", " + files.dir() + "/" + s.stem + "-sweep.png").c_str() : "");
    if (!o.check) return EXIT_OK;
    printf("check: %d of %d paper points inside their band\n", inside, judged);
    return inside == judged ? EXIT_OK : EXIT_CHECK;
}

int cmd_merge(const std::vector<std::string> &args)
{
    if (wants_help(args)) {
        fputs(usage, stdout);
        return EXIT_OK;
    }
    merge_opts o;
    for (size_t i = 0; i < args.size(); i++) {
        const std::string &a = args[i];
        if (a == "--plot") {
            o.plot = true;
        } else if (a == "--check") {
            o.check = true;
        } else if (a == "--out") {
            if (i + 1 >= args.size()) fail("--out: missing value (see ipcsim merge --help)");
            o.out_dir = args[++i];
        } else if (a.size() > 1 && a[0] == '-') {
            fail("merge: unknown option '" + a + "' (see ipcsim merge --help)");
        } else if (o.points_dir.empty()) {
            o.points_dir = a;
        } else {
            fail("merge: one DIR at a time ('" + o.points_dir + "', '" + a + "')");
        }
    }
    if (o.points_dir.empty()) fail("merge: missing DIR (see ipcsim merge --help)");
    while (o.points_dir.size() > 1 && o.points_dir.back() == '/') o.points_dir.pop_back();
    if (!is_dir(o.points_dir)) fail(o.points_dir + ": no such directory");
    if (o.out_dir.empty()) o.out_dir = fs::path(o.points_dir).parent_path().string();
    return sweep_merge(o);
}
