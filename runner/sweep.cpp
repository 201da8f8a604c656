// sweep.cpp -- `ipcsim sweep`: a scenario's sweep as independent runs, each a
// command line that an existing engine runs (make -j, GNU parallel, xargs -P,
// a Slurm job array); ipcsim itself schedules nothing.
#include "cli.h"
#include "merge.h"
#include "meta.h"
#include "outfiles.h"
#include "paths.h"
#include "plot.h"
#include "refit.h"
#include "runs.h"
#include "sweep.h"
#include "table.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

static const char usage[] =
    "usage: ipcsim sweep FILE [--list | --jobs N | --slurm | --point I] [options]\n"
    "\n"
    "Run the sweep: of scenario FILE (docs/sweeps.md): one independent run per\n"
    "point (its parameters' values; with refit:, the fitted constant searched\n"
    "again at each), each writing DIR/<stem>.sweep/<point>.csv, merged into\n"
    "DIR/<stem>.csv with the swept values as columns, a table, and with --plot\n"
    "DIR/<stem>-sweep.png. Without a mode, as --jobs 1.\n"
    "\n"
    "  --list            print one command line per point (runnable alone: by\n"
    "                    GNU parallel, xargs -P, ssh); then ipcsim merge\n"
    "                    DIR/<stem>.sweep\n"
    "  --jobs N          run the points with make -j N, then merge; nothing is\n"
    "                    written unless every point succeeds\n"
    "  --slurm           write DIR/<stem>.slurm, a Slurm job array (one index per\n"
    "                    point); after it, ipcsim merge DIR/<stem>.sweep\n"
    "  --point I         run point I (0-based, as --list numbers them) only\n"
    "  --out DIR         where the results go (default: out/)\n"
    "  --plot            with --jobs: also draw DIR/<stem>-sweep.png (gnuplot)\n"
    "  --check           with --jobs: exit 1 when a report: point's paper value\n"
    "                    lies outside the band of the sweep's values\n"
    "  --quiet           no progress lines\n"
    "\n"
    "Bad input (an unknown key, an empty list, a refit target that does not\n"
    "exist) fails before anything runs; a refit that cannot bracket its target\n"
    "fails its point. Exit status: 0 ok, 1 --check failed, 2 error (FILE:LINE).\n";

namespace
{

enum mode { JOBS, LIST, SLURM, POINT };

struct options {
    std::string file, out = "out";
    mode m = JOBS;
    int jobs = 1;
    long point = -1;
    bool plot = false, check = false, quiet = false;
};

long parse_count(const std::string &opt, const std::string &v, long min)
{
    char *end;
    errno = 0;
    long n = strtol(v.c_str(), &end, 10);
    if (v.empty() || *end || errno || n < min)
        fail(opt + ": '" + v + "' is not a whole number of at least " + std::to_string(min));
    return n;
}

options parse(const std::vector<std::string> &args)
{
    options o;
    int modes = 0;
    for (size_t i = 0; i < args.size(); i++) {
        const std::string &a = args[i];
        auto value = [&]() {
            if (i + 1 >= args.size()) fail(a + ": missing value (see ipcsim sweep --help)");
            return args[++i];
        };
        if (a == "--list") {
            o.m = LIST, modes++;
        } else if (a == "--slurm") {
            o.m = SLURM, modes++;
        } else if (a == "--jobs") {
            o.m = JOBS, modes++;
            o.jobs = (int)parse_count(a, value(), 1);
        } else if (a == "--point") {
            o.m = POINT, modes++;
            o.point = parse_count(a, value(), 0);
        } else if (a == "--out") {
            o.out = value();
        } else if (a == "--plot") {
            o.plot = true;
        } else if (a == "--check") {
            o.check = true;
        } else if (a == "--quiet") {
            o.quiet = true;
        } else if (a.size() > 1 && a[0] == '-') {
            fail("sweep: unknown option '" + a + "' (see ipcsim sweep --help)");
        } else if (o.file.empty()) {
            o.file = a;
        } else {
            fail("sweep: one scenario FILE at a time ('" + o.file + "', '" + a + "')");
        }
    }
    if (o.file.empty()) fail("sweep: missing scenario FILE (see ipcsim sweep --help)");
    if (o.out.empty()) fail("--out: empty directory name");
    if (modes > 1) fail("sweep: --list, --jobs, --slurm and --point exclude each other");
    if ((o.plot || o.check) && o.m != JOBS)
        fail("sweep: --plot and --check go with --jobs (or with ipcsim merge)");
    return o;
}

// A word for sh: as is when it is safe, else single-quoted.
std::string sh_quote(const std::string &w)
{
    if (!w.empty() && w.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                          "0123456789_-.,/=+:@%") == std::string::npos)
        return w;
    std::string q = "'";
    for (char c : w) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// This ipcsim, absolute: a command line runs the same build wherever it runs.
std::string self_exe()
{
    char buf[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) fail("sweep: cannot find the ipcsim executable (/proc/self/exe)");
    buf[n] = '\0';
    return buf;
}

std::string point_command(const options &o, size_t i, const std::string &out)
{
    return sh_quote(self_exe()) + " sweep " + sh_quote(o.file) + " --point " + std::to_string(i) +
           " --out " + sh_quote(out) + " --quiet";
}

// The merged CSV's columns before a run's: the swept keys, then the refit key.
std::vector<std::string> prefix_columns(const sweep_spec &sw)
{
    std::vector<std::string> cols;
    for (const sweep_param &p : sw.params) cols.push_back(p.key);
    if (sw.has_refit) cols.push_back(sw.refit.key);
    return cols;
}

int run_point(const options &o, const scenario &base, const sweep_spec &sw,
              const std::vector<sweep_point> &pts, const std::vector<std::string> &args)
{
    if ((size_t)o.point >= pts.size())
        fail(strf("--point %ld: %s has %zu points (0 to %zu)", o.point, o.file.c_str(), pts.size(),
                  pts.size() - 1));
    const sweep_point &pt = pts[(size_t)o.point];
    std::vector<std::string> sets = pt.sets(), prefix;
    for (const auto &kv : pt.values) prefix.push_back(kv.second);
    std::string fit;
    if (sw.has_refit) {
        fit = refit_point(base, sw.refit, sets, o.quiet);
        sets.push_back(sw.refit.key + "=" + fit);
        prefix.push_back(fit);
    }
    scenario s = scenario_load(o.file, sets);
    std::vector<point> points;
    std::vector<double> secs;
    std::vector<chart_data> charts;
    if (!run_all(s, run_opts(), o.quiet, points, secs, charts)) return EXIT_ERROR;
    std::vector<row> rows = make_rows(points, s.refs);

    // The run's CSV with the point's values in front of every row.
    std::string body = csv_text(rows), text;
    std::vector<std::string> head;
    for (const std::string &c : prefix_columns(sw)) head.push_back(csv_field(c));
    text = join(head, ",") + "," + body.substr(0, body.find('\n') + 1);
    std::string cells;
    for (const std::string &v : prefix) cells += csv_field(v) + ",";
    for (size_t at = body.find('\n') + 1; at < body.size();) {
        size_t e = body.find('\n', at);
        text += cells + body.substr(at, e - at + 1);
        at = e + 1;
    }
    run_meta m;
    m.verb = "sweep";
    m.command = args;
    m.csv_name = pt.name + ".csv";
    m.csv_text = text;
    m.sets = sets;
    m.host_seconds = secs.at(0); // run_all gives the base's, then each variant's
    m.variant_seconds.assign(secs.begin() + 1, secs.end());
    out_files files(sweep_dir(o.out, s.stem));
    files.write(m.csv_name, text);
    files.write(pt.name + ".meta.yaml", meta_text(s, m));
    files.commit();
    // The file's name alone: under --jobs its directory is a temporary one.
    printf("point %ld (0-%zu): %s%s%s: wrote %s.csv\n", o.point, pts.size() - 1,
           join(pt.sets(), ", ").c_str(), fit.empty() ? "" : ", refit ",
           fit.empty() ? "" : (sw.refit.key + "=" + fit).c_str(), pt.name.c_str());
    return EXIT_OK;
}

// `#SBATCH --array=0-(n-1)`; each index runs its --list line.
std::string slurm_script(const options &o, const scenario &s, size_t n)
{
    std::string t = "#!/bin/bash\n";
    t += "# The sweep of " + o.file + " as a Slurm job array (ipcsim sweep --slurm;\n";
    t += "# docs/sweeps.md): one index per point. When every index is done:\n";
    t += "#   " + sh_quote(self_exe()) + " merge " + sh_quote(sweep_dir(o.out, s.stem)) + "\n";
    t += "#SBATCH --job-name=ipcsim-" + s.stem + "\n";
    t += strf("#SBATCH --array=0-%zu\n", n - 1);
    t += "#SBATCH --ntasks=1\n";
    t += "#SBATCH --output=" + o.out + "/" + s.stem + ".slurm-%a.log\n";
    t += "case \"$SLURM_ARRAY_TASK_ID\" in\n";
    for (size_t i = 0; i < n; i++)
        t += strf("%zu) exec ", i) + point_command(o, i, o.out) + " ;;\n";
    t += "*) echo \"ipcsim sweep: no point '$SLURM_ARRAY_TASK_ID' (0-" + std::to_string(n - 1) +
         ")\" >&2; exit 2 ;;\n";
    t += "esac\n";
    return t;
}

// A make target per point, run by make -j N into tmp; then merged into DIR.
// Nothing reaches DIR unless every point and the merge succeed.
int run_jobs(const options &o, const scenario &s, size_t n)
{
    bool made_out = !fs::exists(o.out);
    std::error_code ec;
    fs::create_directories(o.out, ec);
    if (ec) fail(o.out + ": cannot create: " + ec.message());
    std::string pattern = o.out + "/." + s.stem + ".sweep-XXXXXX";
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    if (!mkdtemp(buf.data())) fail(pattern + ": cannot create: " + strerror(errno));
    std::string tmp = buf.data();
    struct cleanup {
        std::string tmp, out;
        bool made_out;
        ~cleanup()
        {
            std::error_code e;
            fs::remove_all(tmp, e);
            if (made_out && fs::is_empty(out, e)) fs::remove(out, e);
        }
    } guard{tmp, o.out, made_out};

    std::string mk = "# ipcsim sweep " + o.file + " --jobs: one target per point\n.PHONY: all";
    for (size_t i = 0; i < n; i++) mk += strf(" p%zu", i);
    mk += "\nall:";
    for (size_t i = 0; i < n; i++) mk += strf(" p%zu", i);
    mk += "\n";
    for (size_t i = 0; i < n; i++) mk += strf("p%zu:\n\t@", i) + point_command(o, i, tmp) + "\n";
    std::string makefile = tmp + "/Makefile";
    FILE *f = fopen(makefile.c_str(), "w");
    if (!f || fputs(mk.c_str(), f) < 0 || fclose(f) != 0) fail(makefile + ": cannot write");
    fflush(stdout);
    // Our own make, not a submake of one that runs us (make results -j):
    // its jobserver flags would turn -j N into a warning and one job.
    unsetenv("MAKEFLAGS");
    unsetenv("MFLAGS");
    unsetenv("MAKELEVEL");
    std::string cmd = "make --no-print-directory -s --output-sync=target -j " +
                      std::to_string(o.jobs) + " -f " + sh_quote(makefile) + " all";
    int rc = system(cmd.c_str());
    if (rc != 0) {
        fprintf(stderr, "%s: a point of the sweep failed (make exit %d): nothing written\n",
                o.file.c_str(), WIFEXITED(rc) ? WEXITSTATUS(rc) : rc);
        return EXIT_ERROR;
    }
    merge_opts mo;
    mo.points_dir = sweep_dir(tmp, s.stem);
    mo.out_dir = o.out;
    mo.file = o.file;
    mo.plot = o.plot;
    mo.check = o.check;
    mo.keep_points_as = sweep_dir(o.out, s.stem);
    return sweep_merge(mo);
}

} // namespace

int cmd_sweep(const std::vector<std::string> &args)
{
    if (wants_help(args)) {
        fputs(usage, stdout);
        return EXIT_OK;
    }
    options o = parse(args);
    if (o.plot) gnuplot_program(); // before the runs, not after
    scenario s = scenario_load(o.file, {});
    sweep_spec sw = sweep_read(s);
    std::vector<sweep_point> pts = sweep_points(sw);
    switch (o.m) {
    case LIST:
        for (size_t i = 0; i < pts.size(); i++) printf("%s\n", point_command(o, i, o.out).c_str());
        return EXIT_OK;
    case POINT:
        return run_point(o, s, sw, pts, args);
    case SLURM: {
        out_files files(o.out);
        files.write(s.stem + ".slurm", slurm_script(o, s, pts.size()));
        files.commit();
        printf("wrote %s/%s.slurm: %zu array indices; submit it with sbatch, then: ipcsim merge "
               "%s\n",
               o.out.c_str(), s.stem.c_str(), pts.size(), sweep_dir(o.out, s.stem).c_str());
        return EXIT_OK;
    }
    case JOBS:
        break;
    }
    return run_jobs(o, s, pts.size());
}
