// run.cpp -- `ipcsim run`: one scenario, its runs (the base and each variant),
// a table, a CSV, plots.
#include "appctx.h"
#include "chart.h"
#include "check.h"
#include "cli.h"
#include "meta.h"
#include "outfiles.h"
#include "plot.h"
#include "progress.h"
#include "runs.h"
#include "scenario.h"
#include "table.h"
#include "traceout.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <memory>

static const char usage[] =
    "usage: ipcsim run FILE [options]\n"
    "\n"
    "Run the scenario FILE: load its platform, apply the overrides, run its app on\n"
    "every core, print paper vs simulated and write DIR/<stem>.csv with\n"
    "DIR/<stem>.meta.yaml beside it (how it was made: version, files and their\n"
    "SHA-256, overrides, backend, seed, host, date). A run with --set, --backend\n"
    "native or another seed writes DIR/<stem>+<tags>.csv instead (+native,\n"
    "+seed<N>, +<hash of the --set list>), so it never replaces the default one.\n"
    "A scenario with variants: runs once more for each (its set: after the\n"
    "scenario's, before --set), its series named <series>_<variant> (with keep_names:\n"
    "true, <series>: runs at other x extend one series), in the one CSV.\n"
    "Charts the app records (app_interval) go to DIR/<stem>.<chart>.txt, and .png\n"
    "when gnuplot is on PATH: the base run's, one character per chart: {scale_ns: N}\n"
    "(default 100000).\n"
    "\n"
    "  --set KEY=VALUE   override a scalar of the platform file (link.latency_ns=50)\n"
    "                    or, as args.NAME=VALUE, an app argument (args.reps=5,\n"
    "                    args.sizes=[4,64]); repeatable, applied after the scenario's set:\n"
    "  --backend B       sim (default: the SystemC models) or native (this machine)\n"
    "  --out DIR         where the CSV, its .meta.yaml and plots go (default: out/\n"
    "                    in the current directory)\n"
    "  --seed N          seed of plat_random() (default: 1)\n"
    "  --check           exit 1 when a paper point is outside its tolerance or an\n"
    "                    expect: relation between series fails\n"
    "  --plot            also draw the scenario's plots: DIR/<name>-<id>.png (gnuplot)\n"
    "  --trace DIR       sim: write DIR/<name>.vcd (every core's busy flag, every\n"
    "                    crossbar lane or bus held; GTKWave) and DIR/<name>.busy.png\n"
    "                    (each core's busy share over time; .busy.dat, .busy.gp)\n"
    "  --trace-window T0:T1\n"
    "                    trace only simulated times T0..T1, with units (ps, ns, us,\n"
    "                    ms, s): 10us:20us; an empty side is the start or the end\n"
    "  --trace-signals GLOB[,GLOB]\n"
    "                    only the VCD signals whose name matches a glob:\n"
    "                    'top.core*.busy', 'top.xbar.*'\n"
    "  --variants LIST   run the base and only these variants (names, comma\n"
    "                    separated; 'none': the base alone); the outputs' names\n"
    "                    carry a tag, as for --set\n"
    "  --quiet           no progress line (shown on a terminal when a run takes\n"
    "                    more than 2 s: simulated time, points, host seconds)\n"
    "\n"
    "Nothing is written when the run fails (and a file that cannot be replaced\n"
    "leaves every one as it was). Exit status: 0 ok, 1 --check failed,\n"
    "2 error (messages name FILE:LINE).\n";

namespace
{

struct options {
    std::string file, out = "out";
    std::vector<std::string> sets;
    run_opts run;
    trace_opts trace;
    bool check = false, plot = false, quiet = false;
    bool some_variants = false; // --variants given
    std::vector<std::string> variants;
};

uint64_t parse_seed(const std::string &s)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s.c_str(), &end, 0);
    if (s.empty() || *end || errno || s[0] == '-') fail("--seed: not a number: '" + s + "'");
    return v;
}

options parse(const std::vector<std::string> &args)
{
    options o;
    for (size_t i = 0; i < args.size(); i++) {
        std::string a = args[i], val;
        bool inline_val = false;
        if (a.rfind("--", 0) == 0 && a.find('=') != std::string::npos) {
            val = a.substr(a.find('=') + 1);
            a.resize(a.find('='));
            inline_val = true;
        }
        auto value = [&]() {
            if (inline_val) return val;
            if (i + 1 >= args.size()) fail(a + ": missing value (see ipcsim run --help)");
            return args[++i];
        };
        if (a == "--set") {
            o.sets.push_back(value());
        } else if (a == "--backend") {
            std::string b = value();
            if (b == "sim")
                o.run.backend = PLAT_SIM;
            else if (b == "native")
                o.run.backend = PLAT_NATIVE;
            else
                fail("--backend: '" + b + "' is neither sim nor native");
        } else if (a == "--out") {
            o.out = value();
        } else if (a == "--seed") {
            o.run.seed = parse_seed(value());
        } else if (a == "--trace") {
            o.trace.dir = value();
            if (o.trace.dir.empty()) fail("--trace: empty directory name");
        } else if (a == "--trace-window") {
            parse_trace_window(value(), o.trace);
        } else if (a == "--trace-signals") {
            parse_trace_signals(value(), o.trace);
        } else if (a == "--variants") {
            o.some_variants = true;
            o.variants.clear();
            std::string v = value();
            for (size_t at = 0; at <= v.size();) {
                size_t e = v.find(',', at);
                if (e == std::string::npos) e = v.size();
                std::string n = v.substr(at, e - at);
                if (n.empty()) fail("--variants: an empty name in '" + v + "'");
                if (n != "none") o.variants.push_back(n);
                at = e + 1;
            }
        } else if (a == "--quiet" && !inline_val) {
            o.quiet = true;
        } else if (a == "--check" && !inline_val) {
            o.check = true;
        } else if (a == "--plot" && !inline_val) {
            o.plot = true;
        } else if (a.size() > 1 && a[0] == '-') {
            fail("run: unknown option '" + args[i] + "' (see ipcsim run --help)");
        } else if (o.file.empty()) {
            o.file = a;
        } else {
            fail("run: one scenario FILE at a time ('" + o.file + "', '" + a + "')");
        }
    }
    if (o.file.empty()) fail("run: missing scenario FILE (see ipcsim run --help)");
    if (o.out.empty()) fail("--out: empty directory name");
    if (o.trace.dir.empty() && (o.trace.window_set || !o.trace.signals.empty()))
        fail(std::string(o.trace.window_set ? "--trace-window" : "--trace-signals") +
             ": needs --trace DIR");
    if (!o.trace.dir.empty() && o.run.backend == PLAT_NATIVE)
        fail("--trace: not supported with --backend native (a trace comes from the "
             "simulation's models; run it with --backend sim)");
    return o;
}

// After the table, with or without --check: a claim that fails is news
// either way; only --check turns it into the exit status.
void print_expects(const check_result &c)
{
    if (!c.expects.empty()) printf("\n");
    for (const expect_outcome &e : c.expects) printf("expect  %s\n", e.text().c_str());
}

// "3 of 4 paper points within tolerance; 2 of 2 expectations hold"
std::string check_summary(const check_result &c)
{
    std::vector<std::string> parts;
    if (c.judged)
        parts.push_back(strf("%d of %d paper points within tolerance", c.passed, c.judged));
    if (!c.expects.empty())
        parts.push_back(strf("%d of %zu %s", expects_held(c.expects), c.expects.size(),
                             c.expects.size() == 1 ? "expectation holds" : "expectations hold"));
    return join(parts, "; ");
}

} // namespace

int cmd_run(const std::vector<std::string> &args)
{
    if (wants_help(args)) {
        fputs(usage, stdout);
        return EXIT_OK;
    }
    options o = parse(args);
    if (o.plot) gnuplot_program(); // before a long run, not after
    scenario s = scenario_load(o.file, o.sets);
    std::vector<std::string> tags = o.sets;
    if (o.some_variants) {
        std::vector<variant> keep;
        for (const std::string &n : o.variants) {
            auto it = std::find_if(s.variants.begin(), s.variants.end(),
                                   [&](const variant &v) { return v.name == n; });
            if (it == s.variants.end()) {
                std::vector<std::string> names;
                for (const variant &v : s.variants) names.push_back(v.name);
                fail("--variants: " + s.file + " has no variant '" + n + "' (" +
                     (names.empty() ? std::string("it declares none")
                                    : "variants: " + join(names, ", ")) +
                     ")");
            }
            keep.push_back(*it);
        }
        s.variants = keep;
        tags.push_back("variants=" +
                       (o.variants.empty() ? std::string("none") : join(o.variants, ",")));
    }
    // Every output of a run with other settings carries their tags (meta.h):
    // the plots' (write_plots names them by s.stem) and the trace's too.
    s.stem = output_name(s.stem, o.run.backend, o.run.seed, tags);
    std::unique_ptr<trace_out> trace; // removed again unless the run succeeds
    if (!o.trace.dir.empty()) {
        trace = std::make_unique<trace_out>(o.trace, s);
        o.run.trace = trace->spec();
    }

    std::vector<point> points;
    std::vector<double> host_seconds; // per run: the base, then each variant
    std::vector<chart_data> charts;
    if (!run_all(s, o.run, o.quiet, points, host_seconds, charts)) return EXIT_ERROR;

    const char *label = o.run.backend == PLAT_SIM ? "simulated" : "measured";
    std::vector<row> rows = make_rows(points, s.refs);
    check_result c = check_rows(s, rows);
    printf("%s\n%s: platform %s, %s backend, seed %llu%s%s\n", s.title.c_str(), s.file.c_str(),
           s.platform_name.c_str(), o.run.backend == PLAT_SIM ? "sim" : "native",
           (unsigned long long)o.run.seed, s.overrides.empty() ? "" : ", ",
           join(s.overrides, ", ").c_str());
    for (const variant &v : s.variants)
        printf("variant %s (series %s): %s%s%s\n", v.name.c_str(), v.pattern().c_str(),
               join(v.set, ", ").c_str(), v.description.empty() ? "" : "; ", v.description.c_str());
    printf("\n");
    if (rows.empty())
        printf("(the app reported no points)\n");
    else
        print_table(stdout, rows, label, c.notes);
    print_expects(c);

    run_meta m;
    m.command = args;
    m.csv_name = s.stem + ".csv";
    m.csv_text = csv_text(rows);
    m.sets = o.sets;
    m.backend = o.run.backend;
    m.seed = o.run.seed;
    m.host_seconds = host_seconds[0];
    m.variant_seconds.assign(host_seconds.begin() + 1, host_seconds.end());
    m.check = check_summary(c);
    out_files files(o.out);
    files.write(m.csv_name, m.csv_text);
    if (o.plot) write_plots(s, rows, label, files);
    std::string chart_files = write_charts(s, charts, files);
    files.write(s.stem + ".meta.yaml", meta_text(s, m)); // last: it describes the others
    files.commit();
    if (trace) trace->commit();
    printf("\nwrote %s/%s.csv, %s/%s.meta.yaml", o.out.c_str(), s.stem.c_str(), o.out.c_str(),
           s.stem.c_str());
    for (const plot_spec &p : o.plot ? s.plots : std::vector<plot_spec>())
        printf(", %s/%s-%s.png", o.out.c_str(), s.stem.c_str(), p.id.c_str());
    printf("%s", chart_files.c_str());
    if (trace) printf("%s", trace->wrote().c_str());
    printf("\n");
    fflush(stdout);

    if (!o.check) return EXIT_OK;
    if (c.judged == 0 && c.expects.empty()) {
        printf("check: no paper point has a tolerance; nothing to judge\n");
        return EXIT_OK;
    }
    for (const std::string &v : c.violations)
        fprintf(stderr, "%s: check failed: %s\n", s.file.c_str(), v.c_str());
    printf("check: %s\n", check_summary(c).c_str());
    return c.violations.empty() ? EXIT_OK : EXIT_CHECK;
}
