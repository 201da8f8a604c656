// compare.cpp -- `ipcsim compare`: two results files, point by point.
//
// The golden check of results/ (make check-results) runs every scenario
// again and compares each new CSV with the committed one: equal means equal
// bytes; on a difference the user needs the points that moved, not a diff
// of CSV lines.
#include "cli.h"
#include "paths.h"
#include "table.h"

#include <cstdio>
#include <map>
#include <utility>

static const char usage[] =
    "usage: ipcsim compare OLD.csv NEW.csv [--name LABEL]\n"
    "\n"
    "Compare two results files written by ipcsim run (e.g. the committed\n"
    "results/<group>/<stem>.csv and a rerun). They match when their bytes are\n"
    "equal. Otherwise every point that differs is printed as\n"
    "  LABEL: series S, x X: value OLD -> NEW (+D %)\n"
    "(the same for its unit and paper reference), and points that only one file\n"
    "has; LABEL is NEW.csv unless --name gives one (make check-results names the\n"
    "scenario).\n"
    "\n"
    "Exit status: 0 the files are identical, 1 they differ, 2 an error (a file\n"
    "cannot be read or is not a results file).\n";

namespace
{

std::string num(bool has, double v)
{
    return has ? fmt_num(v) : "(none)";
}

// "+1.5 %" of the change from a to b, when both are numbers and a is not 0.
std::string change(bool ha, double a, bool hb, double b)
{
    if (!ha || !hb || a == 0) return "";
    return " (" + strf("%+.3g", (b - a) / a * 100) + " %)";
}

// The points of one file by (series, x); a repeated key counts its
// occurrences, so the n-th of old meets the n-th of new.
using key = std::pair<std::string, std::string>;
std::map<std::pair<key, int>, const row *> index_rows(const std::vector<row> &rows,
                                                      std::vector<std::pair<key, int>> &order)
{
    std::map<std::pair<key, int>, const row *> m;
    std::map<key, int> seen;
    for (const row &r : rows) {
        key k{r.series, r.x};
        std::pair<key, int> kk{k, seen[k]++};
        m[kk] = &r;
        order.push_back(kk);
    }
    return m;
}

// The first line where the texts differ, 1-based.
int first_diff_line(const std::string &a, const std::string &b, std::string *la, std::string *lb)
{
    size_t i = 0;
    int line = 1;
    while (i < a.size() && i < b.size() && a[i] == b[i])
        if (a[i++] == '\n') line++;
    size_t sa = a.rfind('\n', i ? i - 1 : 0), sb = b.rfind('\n', i ? i - 1 : 0);
    sa = (sa == std::string::npos || i == 0) ? 0 : sa + 1;
    sb = (sb == std::string::npos || i == 0) ? 0 : sb + 1;
    *la = a.substr(sa, a.find('\n', sa) - sa);
    *lb = b.substr(sb, b.find('\n', sb) - sb);
    return line;
}

} // namespace

int cmd_compare(const std::vector<std::string> &args)
{
    if (wants_help(args)) {
        fputs(usage, stdout);
        return EXIT_OK;
    }
    std::vector<std::string> files;
    std::string name;
    for (size_t i = 0; i < args.size(); i++) {
        if (args[i] == "--name") {
            if (i + 1 == args.size()) fail("compare: --name needs a LABEL");
            name = args[++i];
        } else if (args[i].rfind("--name=", 0) == 0) {
            name = args[i].substr(7);
        } else if (args[i].size() > 1 && args[i][0] == '-') {
            fail("compare: unknown option '" + args[i] + "' (see ipcsim compare --help)");
        } else {
            files.push_back(args[i]);
        }
    }
    if (files.size() != 2) fail("compare: needs OLD.csv and NEW.csv (see ipcsim compare --help)");
    if (name.empty()) name = files[1];
    const std::string old_text = read_text(files[0]), new_text = read_text(files[1]);
    if (old_text == new_text) return EXIT_OK;

    const std::vector<row> old_rows = csv_parse(old_text, files[0]);
    const std::vector<row> new_rows = csv_parse(new_text, files[1]);
    std::vector<std::pair<key, int>> old_order, new_order;
    auto olds = index_rows(old_rows, old_order);
    auto news = index_rows(new_rows, new_order);
    int diffs = 0;
    auto where = [&](const std::pair<key, int> &k) {
        return strf("%s: series %s, x %s", name.c_str(), k.first.first.c_str(),
                    k.first.second.c_str());
    };
    for (const auto &k : old_order) {
        const row &o = *olds[k];
        auto it = news.find(k);
        if (it == news.end()) {
            printf("%s: value %s -> missing (the new run has no such point)\n", where(k).c_str(),
                   num(o.has_value, o.value).c_str());
            diffs++;
            continue;
        }
        const row &n = *it->second;
        if (o.has_value != n.has_value || (o.has_value && fmt_num(o.value) != fmt_num(n.value))) {
            printf("%s: value %s -> %s%s\n", where(k).c_str(), num(o.has_value, o.value).c_str(),
                   num(n.has_value, n.value).c_str(),
                   change(o.has_value, o.value, n.has_value, n.value).c_str());
            diffs++;
        }
        if (o.unit != n.unit) {
            printf("%s: unit %s -> %s\n", where(k).c_str(), o.unit.c_str(), n.unit.c_str());
            diffs++;
        }
        if (o.has_ref != n.has_ref || (o.has_ref && fmt_num(o.ref) != fmt_num(n.ref))) {
            printf("%s: paper reference %s -> %s\n", where(k).c_str(),
                   num(o.has_ref, o.ref).c_str(), num(n.has_ref, n.ref).c_str());
            diffs++;
        }
    }
    for (const auto &k : new_order)
        if (!olds.count(k)) {
            const row &n = *news[k];
            printf("%s: value missing -> %s (a point the old file does not have)\n",
                   where(k).c_str(), num(n.has_value, n.value).c_str());
            diffs++;
        }
    if (!diffs) { // the same points, yet other bytes: order or formatting
        std::string lo, ln;
        int line = first_diff_line(old_text, new_text, &lo, &ln);
        printf("%s: the same points in other bytes (order or formatting): line %d: '%s' -> "
               "'%s'\n",
               name.c_str(), line, lo.c_str(), ln.c_str());
    }
    return EXIT_CHECK;
}
