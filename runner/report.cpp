// report.cpp -- `ipcsim report`: REPORT.md from scenarios and their CSVs.
//
// Deterministic: the same scenarios and CSVs give the same bytes (no dates,
// no absolute paths), so a rerun of `make results` changes nothing in git.
#include "check.h"
#include "cli.h"
#include "outfiles.h"
#include "paths.h"
#include "scenario.h"
#include "table.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

static const char usage[] =
    "usage: ipcsim report --out DIR SCENARIO...\n"
    "\n"
    "Write DIR/REPORT.md: for every scenario (grouped by folder) its title,\n"
    "description, platform, paper vs simulated tables read from\n"
    "DIR/<group>/<stem>.csv (as written by ipcsim run --out DIR/<group>), the\n"
    "reference sources and tolerances, the expect: claims with ok or FAILS, and\n"
    "links to the plots found there.\n";

namespace
{

struct entry {
    scenario s;
    std::vector<row> rows;
    std::string csv;                     // relative to DIR
    std::vector<expect_outcome> expects; // s's `expect:` judged on rows
};

std::string prefix(const scenario &s)
{
    return s.group.empty() ? "" : s.group + "/";
}

std::string md(std::string t) // a table cell or inline text
{
    std::string out;
    for (char c : t) {
        if (c == '|')
            out += "\\|";
        else if (c == '\n')
            out += ' ';
        else
            out += c;
    }
    return out;
}

// "8 of 8", "no tolerance", "no reference"
std::string verdict(const entry &e)
{
    int judged = 0, passed = 0;
    bool any_ref = false;
    for (const row &r : e.rows) {
        any_ref = any_ref || r.has_ref;
        const ref_series *ref = e.s.ref_of(r.series);
        if (!r.has_ref || !ref || !ref->has_tolerance) continue;
        judged++;
        passed += within(r, ref->tolerance_pct);
    }
    std::string t = judged    ? strf("%d of %d", passed, judged)
                    : any_ref ? "no tolerance given"
                              : "no paper reference";
    // Only scenarios with `expect:` get more, so the others' lines stay as they were.
    if (!e.expects.empty())
        t += strf("; expectations: %d of %zu hold", expects_held(e.expects), e.expects.size());
    return t;
}

// The `expect:` claims, each with its source and whether the results bear it out.
std::string expects_table(const entry &e)
{
    if (e.expects.empty()) return "";
    std::string t = "**Expectations** (claims the sources make without numbers, judged on the "
                    "simulated values)\n\n";
    t += "| expectation | source | result |\n|---|---|---|\n";
    for (const expect_outcome &o : e.expects)
        t += "| " + md(o.claim) + " | " + md(o.e.why) + " | " +
             (o.ok ? std::string("ok") : "**" + md(o.verdict) + "**") + " |\n";
    return t + "\n";
}

std::string series_table(const entry &e, const std::string &series)
{
    const ref_series *ref = e.s.ref_of(series);
    std::string unit;
    for (const row &r : e.rows)
        if (r.series == series && unit.empty()) unit = r.unit;
    std::string t = "**" + md(series) + "**" + (unit.empty() ? "" : " (" + md(unit) + ")") + "\n\n";
    t += "| x | paper | simulated | error % |" +
         std::string(ref && ref->has_tolerance ? " within |" : "") + "\n";
    t += "|---:|---:|---:|---:|" + std::string(ref && ref->has_tolerance ? ":---|" : "") + "\n";
    int judged = 0, passed = 0;
    for (const row &r : e.rows) {
        if (r.series != series) continue;
        t += "| " + md(r.x) + " | " + (r.has_ref ? fmt_num(r.ref) : "") + " | " +
             (r.has_value ? fmt_num(r.value) : "-") + " | " +
             (r.has_err ? fmt_err(r.err_pct) : "") + " |";
        if (ref && ref->has_tolerance) {
            std::string mark;
            if (r.has_ref) {
                judged++;
                bool ok = within(r, ref->tolerance_pct);
                passed += ok;
                mark = ok ? "ok" : "**outside**";
            }
            t += " " + mark + " |";
        }
        t += "\n";
    }
    t += "\n";
    if (!ref)
        t += "No paper reference for this series.\n\n";
    else if (!ref->has_tolerance)
        t += "Reference: " + md(ref->source) + " (no tolerance given: shown, not judged).\n\n";
    else
        t += strf("Reference: %s. Tolerance ±%s%%: %d of %d points within.\n\n",
                  md(ref->source).c_str(), fmt_num(ref->tolerance_pct).c_str(), passed, judged);
    return t;
}

std::string section(const entry &e, const std::string &dir)
{
    const scenario &s = e.s;
    std::string t = "### " + prefix(s) + s.stem + ": " + md(s.title) + "\n\n";
    if (!s.description.empty()) t += s.description + (s.description.back() == '\n' ? "" : "\n");
    if (!s.description.empty()) t += "\n";
    t += "- Platform: `" + md(s.platform_name) + "`";
    if (!s.overrides.empty()) t += ", with " + md(join(s.overrides, ", "));
    t += "\n";
    std::vector<std::string> map, args;
    for (const auto &m : s.mapping) map.push_back(m.first + " on core " + std::to_string(m.second));
    for (const arg_value &v : s.args.values)
        args.push_back(std::string(v.decl->name) + "=" + v.text);
    t += "- Workload: app `" + std::string(s.app->name) + "`, " + md(join(map, ", ")) + "; " +
         md(join(args, ", ")) + "\n";
    for (const variant &v : s.variants)
        t += "- Variant `" + md(v.name) + "` (series `" + md(v.pattern()) +
             "`): " + md(join(v.set, ", ")) +
             (v.description.empty() ? "" : "; " + md(v.description)) + "\n";
    t += "- Scenario: `" + md(display_path(s.file)) + "`; results: [" + e.csv + "](" + e.csv +
         ")\n\n";
    for (const std::string &series : row_series(e.rows)) t += series_table(e, series);
    t += expects_table(e);
    for (const plot_spec &p : s.plots) {
        std::string png = prefix(s) + s.stem + "-" + p.id + ".png";
        if (is_file(dir + "/" + png))
            t += "![" + md(p.title) + "](" + png + ")\n\n";
        else
            t += "(Plot '" + p.id + "' not drawn: run with --plot.)\n\n";
    }
    return t;
}

} // namespace

int cmd_report(const std::vector<std::string> &args)
{
    if (wants_help(args)) {
        fputs(usage, stdout);
        return EXIT_OK;
    }
    std::string dir;
    std::vector<std::string> files;
    for (size_t i = 0; i < args.size(); i++) {
        if (args[i] == "--out") {
            if (i + 1 >= args.size()) fail("--out: missing DIR");
            dir = args[++i];
        } else if (args[i].rfind("--out=", 0) == 0) {
            dir = args[i].substr(6);
        } else if (args[i].size() > 1 && args[i][0] == '-') {
            fail("report: unknown option '" + args[i] + "' (see ipcsim report --help)");
        } else {
            files.push_back(args[i]);
        }
    }
    if (dir.empty()) fail("report: --out DIR is required (see ipcsim report --help)");
    if (files.empty()) fail("report: no SCENARIO given (see ipcsim report --help)");

    std::vector<entry> entries;
    std::vector<std::string> groups; // in first-seen order
    for (const std::string &f : files) {
        entry e{scenario_load(f, {}), {}, "", {}};
        e.csv = prefix(e.s) + e.s.stem + ".csv";
        std::string path = dir + "/" + e.csv;
        e.rows = csv_parse(read_text(path, " (run the scenario first)"), path);
        e.expects = check_expects(e.s, e.rows);
        if (std::find(groups.begin(), groups.end(), e.s.group) == groups.end())
            groups.push_back(e.s.group);
        entries.push_back(std::move(e));
    }

    std::string t = "# ipcsim results\n\n";
    t += "<!-- Written by `ipcsim report` (make results); edits are overwritten. -->\n\n";
    t += "Every *simulated* number comes out of a model run (`ipcsim run`, sim backend).\n"
         "The *paper* numbers are the reference points quoted in the scenario files, each\n"
         "with its source; error % = (simulated - paper) / paper.\n\n";
    t += "| scenario | title | paper points within tolerance |\n|---|---|---|\n";
    for (const std::string &g : groups)
        for (const entry &e : entries)
            if (e.s.group == g)
                t += "| " + prefix(e.s) + e.s.stem + " | " + md(e.s.title) + " | " + verdict(e) +
                     " |\n";
    t += "\n";
    for (const std::string &g : groups) {
        t += "## " + (g.empty() ? std::string("(no group)") : g) + "\n\n";
        for (const entry &e : entries)
            if (e.s.group == g) t += section(e, dir);
    }
    while (t.size() > 1 && t[t.size() - 1] == '\n' && t[t.size() - 2] == '\n') t.pop_back();

    out_files out(dir);
    out.write("REPORT.md", t);
    out.commit();
    printf("wrote %s/REPORT.md (%zu scenario%s)\n", dir.c_str(), entries.size(),
           entries.size() == 1 ? "" : "s");
    return EXIT_OK;
}
