// params.cpp -- `ipcsim params`: every key of a platform with its value, unit,
// line and source comment, and which are fitted.
//
// The YAML loader (libyaml) drops comments, but every node keeps its line, so
// the comments are read from the file's own text at those lines.
#include "cli.h"
#include "confptr.h"
#include "params.h"
#include "paths.h"
#include "scenario.h"

#include "ipcsim/run.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <sstream>

static const char usage[] =
    "usage: ipcsim params PLATFORM|SCENARIO [--set KEY=VALUE]...\n"
    "\n"
    "Every key of a platform file, in file order: its value, unit, line and the\n"
    "file's own comment on that line (or the comment lines right above it) --\n"
    "the value's source -- and `fitted` where that comment says the value was\n"
    "fitted (\"FITTED to ...\"; \"to be fitted\" is not).\n"
    "\n"
    "PLATFORM is a platform's name (ideal: ipcsim's platforms/ideal.yaml) or a\n"
    "platform file. For a SCENARIO file, its platform with the scenario's set:\n"
    "applied. The unit comes from the key's suffix (_ns, _us, _ms, _mhz, _MBps,\n"
    "_Mbps, _bits, _bytes, _words, _cycles, _bytes_per_cycle, _pct) or, for the\n"
    "keys of a costs: section, is cycles of the core's clock; '-' when neither.\n"
    "\n"
    "  --set KEY=VALUE   override a value as `ipcsim run` does (repeatable); an\n"
    "                    overridden key shows the new value, what set it and the\n"
    "                    file's value\n"
    "\n"
    "Exit status: 0 ok, 2 error (messages name FILE:LINE).\n";

namespace
{

struct options {
    std::string file;
    std::vector<std::string> sets;
};

options parse(const std::vector<std::string> &args)
{
    options o;
    for (size_t i = 0; i < args.size(); i++) {
        const std::string &a = args[i];
        if (a == "--set") {
            if (i + 1 >= args.size()) fail("--set: missing value (see ipcsim params --help)");
            o.sets.push_back(args[++i]);
        } else if (a.rfind("--set=", 0) == 0) {
            o.sets.push_back(a.substr(6));
        } else if (a.size() > 1 && a[0] == '-') {
            fail("params: unknown option '" + a + "' (see ipcsim params --help)");
        } else if (o.file.empty()) {
            o.file = a;
        } else {
            fail("params: one PLATFORM or SCENARIO at a time ('" + o.file + "', '" + a + "')");
        }
    }
    if (o.file.empty()) fail("params: missing PLATFORM or SCENARIO (see ipcsim params --help)");
    return o;
}

// A platform's name or a file: the file.
std::string resolve(const std::string &arg)
{
    if (is_dir(arg))
        fail(arg + ": is a directory; give a platform file, a scenario file or a platform's name");
    if (is_file(arg)) return arg;
    bool is_path = arg.find('/') != std::string::npos ||
                   (arg.size() > 5 && arg.compare(arg.size() - 5, 5, ".yaml") == 0);
    if (is_path) return arg; // conf_load says "cannot open" and why
    std::string root = data_root(), path = root + "/platforms/" + arg + ".yaml";
    if (is_file(path)) return display_path(path);
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto &e : std::filesystem::directory_iterator(root + "/platforms", ec))
        if (e.path().extension() == ".yaml") names.push_back(e.path().stem().string());
    std::sort(names.begin(), names.end());
    fail("unknown platform '" + arg + "'; known platforms: " + join(names, ", ") +
         " (or give a platform or scenario file)");
}

conf_ptr load(const std::string &path)
{
    char err[1024];
    conf_ptr c(conf_load(path.c_str(), err, sizeof err));
    if (!c) fail(err);
    return c;
}

// --- comments -----------------------------------------------------------------

std::vector<std::string> lines_of(const std::string &text)
{
    std::vector<std::string> v;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) v.push_back(l);
    return v;
}

std::string trim(const std::string &s)
{
    size_t a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
    return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

size_t indent(const std::string &s)
{
    size_t n = s.find_first_not_of(' ');
    return n == std::string::npos ? s.size() : n;
}

// The comment at the end of a YAML line: '#' at the start or after a blank,
// outside quotes. "" if none.
std::string trailing_comment(const std::string &line)
{
    char quote = 0;
    for (size_t i = 0; i < line.size(); i++) {
        char c = line[i];
        if (quote) {
            if (c == quote) quote = 0;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '#' && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t')) {
            return trim(line.substr(i + 1));
        }
    }
    return "";
}

bool comment_only(const std::string &line)
{
    std::string t = trim(line);
    return !t.empty() && t[0] == '#';
}

// The source comment of the key on (1-based) line n: the comment on that
// line, else the comment lines right above it at the key's indentation --
// unless that block starts the file (the file's header, not the key's).
std::string comment_of(const std::vector<std::string> &lines, int n)
{
    if (n < 1 || n > (int)lines.size()) return "";
    std::string c = trailing_comment(lines[n - 1]);
    if (!c.empty()) return c;
    size_t ind = indent(lines[n - 1]);
    int first = n;
    while (first > 1 && comment_only(lines[first - 2]) && indent(lines[first - 2]) == ind) first--;
    if (first == n || first == 1) return "";
    std::vector<std::string> parts;
    for (int i = first; i < n; i++) parts.push_back(trim(trim(lines[i - 1]).substr(1)));
    return join(parts, " ");
}

// True when the comment says the value was fitted: the word "fitted" not
// after "be", "not", "is", "none" or "never" ("to be fitted", "nothing here
// is fitted" are not).
bool says_fitted(const std::string &comment)
{
    std::string c = comment;
    for (char &ch : c) ch = (char)tolower((unsigned char)ch);
    for (size_t at = c.find("fitted"); at != std::string::npos; at = c.find("fitted", at + 1)) {
        bool word = (at == 0 || !isalpha((unsigned char)c[at - 1])) &&
                    (at + 6 >= c.size() || !isalpha((unsigned char)c[at + 6]));
        if (!word) continue;
        size_t end = c.find_last_not_of(' ', at == 0 ? 0 : at - 1);
        std::string prev;
        if (at > 0 && end != std::string::npos) {
            size_t start = end;
            while (start > 0 && isalpha((unsigned char)c[start - 1])) start--;
            prev = c.substr(start, end - start + 1);
        }
        if (prev != "be" && prev != "not" && prev != "is" && prev != "none" && prev != "never")
            return true;
    }
    return false;
}

// The comment on a key's line (or the block above it): its source.
std::string key_comment(const std::vector<std::string> &text, const struct conf_node *was)
{
    int line = was ? conf_line(was) : 0;
    std::string comment = comment_of(text, line);
    // A block list's node starts at its first "- ": the key is the line above.
    if (comment.empty() && was && conf_kind_of(was) == CONF_LIST && line > 1 &&
        trim(text[line - 1]).rfind("-", 0) == 0)
        comment = comment_of(text, line - 1);
    return comment;
}

// --- units --------------------------------------------------------------------

// The unit a key's name gives: its suffix, or a name that is a unit word;
// the keys of a costs: section are cycles (every kind charges them so, and
// every platform file's costs: comment says so).
std::string unit_of(const std::string &path)
{
    static const struct {
        const char *suffix, *unit;
    } suffixes[] = {
        {"_bytes_per_cycle", "bytes/cycle"},
        {"_ns", "ns"},
        {"_us", "us"},
        {"_ms", "ms"},
        {"_mhz", "MHz"},
        {"_MHz", "MHz"},
        {"_ghz", "GHz"},
        {"_GBps", "GB/s"},
        {"_MBps", "MB/s"},
        {"_Gbps", "Gb/s"},
        {"_Mbps", "Mb/s"},
        {"_bits", "bits"},
        {"_bytes", "bytes"},
        {"_words", "words"},
        {"_cycles", "cycles"},
        {"_pct", "%"},
    };
    size_t dot = path.rfind('.');
    std::string key = dot == std::string::npos ? path : path.substr(dot + 1);
    for (const auto &s : suffixes) {
        size_t n = strlen(s.suffix);
        if (key.size() > n && key.compare(key.size() - n, n, s.suffix) == 0) return s.unit;
    }
    if (key == "bytes" || key == "bits" || key == "words" || key == "cycles") return key;
    std::string parent = dot == std::string::npos ? "" : path.substr(0, dot);
    if (parent == "costs" ||
        (parent.size() > 6 && parent.compare(parent.size() - 6, 6, ".costs") == 0))
        return "cycles";
    return "-";
}

// A value as the file writes it: a scalar's text, a list as [a, b].
std::string value_text(const struct conf_node *n)
{
    if (!n) return "";
    if (conf_kind_of(n) == CONF_SCALAR) return conf_text(n);
    std::vector<std::string> v;
    for (size_t i = 0; i < conf_len(n); i++) v.push_back(value_text(conf_at(n, i)));
    return "[" + join(v, ", ") + "]";
}

// --- the table ----------------------------------------------------------------

struct row {
    std::string key, value, unit, fitted, line, source;
};

// Columns padded to their widest cell; a value longer than VALUE_MAX only
// pushes its own row out, so one long title does not widen every row.
void print_rows(const std::vector<row> &rows)
{
    constexpr size_t VALUE_MAX = 24;
    size_t w[5] = {0, 0, 0, 0, 0};
    for (const row &r : rows) {
        const std::string *cells[5] = {&r.key, &r.value, &r.unit, &r.fitted, &r.line};
        for (int i = 0; i < 5; i++)
            if (i != 1 || cells[i]->size() <= VALUE_MAX) w[i] = std::max(w[i], cells[i]->size());
    }
    for (const row &r : rows) {
        std::string out;
        const std::string *cells[5] = {&r.key, &r.value, &r.unit, &r.fitted, &r.line};
        for (int i = 0; i < 5; i++) {
            out += *cells[i];
            out += std::string(w[i] > cells[i]->size() ? w[i] - cells[i]->size() : 0, ' ') + "  ";
        }
        out += r.source;
        printf("%s\n", trim(out).c_str());
    }
}

// Apply --set to a platform file as `ipcsim run` applies it to a scenario's.
void set_all(struct conf *plat, const std::string &file, const std::vector<std::string> &sets,
             std::map<std::string, std::string> &origins)
{
    for (const std::string &kv : sets) {
        size_t eq = kv.find('=');
        if (eq == std::string::npos || eq == 0) fail("--set " + kv + ": expected KEY=VALUE");
        std::string key = kv.substr(0, eq);
        if (key.rfind("args.", 0) == 0)
            fail("--set " + key + ": app arguments belong to a scenario; " + file +
                 " is a platform file");
        platform_set(plat, key, kv.substr(eq + 1), "--set " + kv, "",
                     "give params another platform file or name");
        origins[key] = "--set";
    }
}

} // namespace

int cmd_params(const std::vector<std::string> &args)
{
    if (wants_help(args)) {
        fputs(usage, stdout);
        return EXIT_OK;
    }
    options o = parse(args);
    std::string file = resolve(o.file);
    conf_ptr first = load(file);
    const struct conf_node *root = conf_root(first.get());
    bool is_scenario =
        conf_kind_of(root) == CONF_MAP && (conf_get(root, "workload") || conf_get(root, "mapping"));

    // The platform with every override applied, its file, and who set what.
    conf_ptr own;
    const struct conf *plat = nullptr;
    std::string plat_file, kind, header;
    std::map<std::string, std::string> origins; // key -> what set it (the last one)
    scenario s;
    if (is_scenario) {
        s = scenario_load(file, o.sets);
        plat = s.platform.get();
        plat_file = display_path(s.platform_file);
        const struct conf_node *set = conf_get(conf_root(s.doc.get()), "set");
        for (size_t i = 0; set && i < conf_len(set); i++)
            origins[conf_key(set, i)] = "set: " + at(file, conf_line(conf_at(set, i)));
        for (const std::string &kv : o.sets) origins[kv.substr(0, kv.find('='))] = "--set";
        header = plat_file + " (with the set: of " + file + ")";
    } else {
        own = std::move(first);
        set_all(own.get(), file, o.sets, origins);
        char err[1024];
        if (plat_check(own.get(), err, sizeof err) != 0) fail(err);
        plat = own.get();
        plat_file = file;
        header = plat_file;
    }
    kind = conf_str(plat, "platform", "?");
    conf_ptr orig = load(plat_file); // lines and values as the file writes them
    std::vector<std::string> text = lines_of(read_text(plat_file));

    std::vector<const char *> paths(4096);
    size_t n = conf_leaves(plat, paths.data(), paths.size());
    paths.resize(std::min(n, paths.size()));
    std::vector<row> rows = {{"key", "value", "unit", "fitted", "line", "source"}};
    int fitted = 0;
    for (const char *p : paths) {
        const struct conf_node *now = conf_get(conf_root(plat), p);
        const struct conf_node *was = conf_get(conf_root(orig.get()), p);
        int line = was ? conf_line(was) : 0;
        std::string comment = key_comment(text, was);
        row r{p, value_text(now), unit_of(p), "", line ? std::to_string(line) : "-", comment};
        if (says_fitted(comment)) {
            r.fitted = "fitted";
            fitted++;
        }
        auto o_it = origins.find(p);
        if (o_it != origins.end()) {
            std::string from = o_it->second + " (the file: " + value_text(was) + ")";
            r.source = comment.empty() ? from : from + "; " + comment;
        }
        rows.push_back(r);
    }
    if (n > paths.size()) fail(plat_file + ": more than 4096 keys");
    printf("%s: platform %s, %zu keys, %d fitted\n\n", header.c_str(), kind.c_str(),
           rows.size() - 1, fitted);
    print_rows(rows);
    return EXIT_OK;
}

std::vector<std::string> fitted_keys(const std::string &platform_file)
{
    conf_ptr plat = load(platform_file);
    std::vector<std::string> text = lines_of(read_text(platform_file));
    std::vector<const char *> paths(4096);
    size_t n = conf_leaves(plat.get(), paths.data(), paths.size());
    paths.resize(std::min(n, paths.size()));
    std::vector<std::string> out;
    for (const char *p : paths)
        if (says_fitted(key_comment(text, conf_get(conf_root(plat.get()), p)))) out.push_back(p);
    return out;
}
