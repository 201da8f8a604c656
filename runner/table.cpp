// table.cpp -- joining, formatting, CSV in and out.
#include "table.h"
#include "cli.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

const char *const csv_header = "series,x,value,unit,reference,error_pct";

bool x_number(const std::string &s, double *v)
{
    if (s.empty()) return false;
    char *end;
    *v = strtod(s.c_str(), &end);
    return *end == '\0' && std::isfinite(*v);
}

bool x_same(const std::string &a, const std::string &b)
{
    double x, y;
    if (x_number(a, &x) && x_number(b, &y)) return x == y;
    return a == b;
}

namespace
{

// A CSV number: what fmt_num writes, "nan" and "inf" included.
bool csv_number(const std::string &s, double *v)
{
    if (s.empty()) return false;
    char *end;
    *v = strtod(s.c_str(), &end);
    return *end == '\0';
}

void set_ref(row &r, double ref)
{
    r.has_ref = true;
    r.ref = ref;
    if (r.has_value) {
        r.has_err = true;
        r.err_pct = (r.value - ref) / ref * 100.0;
    }
}

} // namespace

std::string csv_field(const std::string &s)
{
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

// One record from text at pos (RFC 4180 quoting); false at the end.
bool csv_record(const std::string &t, size_t &pos, std::vector<std::string> &out)
{
    out.clear();
    if (pos >= t.size()) return false;
    std::string f;
    bool quoted = false;
    while (pos < t.size()) {
        char c = t[pos++];
        if (quoted) {
            if (c == '"' && pos < t.size() && t[pos] == '"')
                f += '"', pos++;
            else if (c == '"')
                quoted = false;
            else
                f += c;
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            out.push_back(f);
            f.clear();
        } else if (c == '\n') {
            break;
        } else if (c != '\r') {
            f += c;
        }
    }
    out.push_back(f);
    return true;
}

std::vector<row> make_rows(const std::vector<point> &pts, const std::vector<ref_series> &refs)
{
    std::vector<row> rows;
    std::vector<std::string> order;
    for (const point &p : pts) {
        bool seen = false;
        for (const std::string &s : order) seen = seen || s == p.series;
        if (!seen) order.push_back(p.series);
    }
    for (const ref_series &r : refs) {
        bool seen = false;
        for (const std::string &s : order) seen = seen || s == r.series;
        if (!seen) order.push_back(r.series);
    }
    for (const std::string &series : order) {
        const ref_series *ref = nullptr;
        for (const ref_series &r : refs)
            if (r.series == series) ref = &r;
        std::string unit;
        std::vector<bool> used(ref ? ref->points.size() : 0, false);
        for (const point &p : pts) {
            if (p.series != series) continue;
            row r;
            r.series = p.series;
            r.x = p.x;
            r.unit = unit = p.unit;
            r.has_value = true;
            r.value = p.value;
            for (size_t i = 0; ref && i < ref->points.size(); i++)
                if (x_same(ref->points[i].x, p.x)) {
                    set_ref(r, ref->points[i].value);
                    used[i] = true;
                    break;
                }
            rows.push_back(r);
        }
        for (size_t i = 0; ref && i < ref->points.size(); i++) {
            if (used[i]) continue;
            row r;
            r.series = series;
            r.x = ref->points[i].x;
            r.unit = unit;
            set_ref(r, ref->points[i].value);
            rows.push_back(r);
        }
    }
    return rows;
}

std::string fmt_num(double v)
{
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    if (v == 0) return "0"; // also -0
    if (v == std::floor(v) && std::fabs(v) < 1e15) return strf("%.0f", v);
    if (std::fabs(v) >= 1e6 && std::fabs(v) < 1e15) return strf("%.0f", v); // >= 7 digits already
    return strf("%.6g", v);
}

std::string fmt_err(double pct)
{
    std::string s = strf("%+.1f", pct);
    return s == "-0.0" ? "+0.0" : s;
}

std::string csv_text(const std::vector<row> &rows)
{
    std::string t = std::string(csv_header) + "\n";
    for (const row &r : rows) {
        t += csv_field(r.series) + "," + csv_field(r.x) + ",";
        t += (r.has_value ? fmt_num(r.value) : "") + "," + csv_field(r.unit) + ",";
        t += (r.has_ref ? fmt_num(r.ref) : "") + "," + (r.has_err ? fmt_num(r.err_pct) : "");
        t += "\n";
    }
    return t;
}

std::vector<row> csv_parse(const std::string &text, const std::string &file)
{
    std::vector<row> rows;
    std::vector<std::string> f;
    size_t pos = 0;
    int line = 1;
    if (!csv_record(text, pos, f) || join(f, ",") != csv_header)
        fail_at(file, 1, strf("not an ipcsim results file (the header must be %s)", csv_header));
    while (csv_record(text, pos, f)) {
        line++;
        if (f.size() == 1 && f[0].empty()) continue;
        if (f.size() != 6) fail_at(file, line, strf("%zu fields, expected 6", f.size()));
        row r;
        r.series = f[0];
        r.x = f[1];
        r.unit = f[3];
        r.has_value = csv_number(f[2], &r.value);
        r.has_ref = csv_number(f[4], &r.ref);
        r.has_err = csv_number(f[5], &r.err_pct);
        if ((!f[2].empty() && !r.has_value) || (!f[4].empty() && !r.has_ref) ||
            (!f[5].empty() && !r.has_err))
            fail_at(file, line, "value, reference and error_pct must be numbers or empty");
        rows.push_back(r);
    }
    return rows;
}

std::vector<std::string> row_series(const std::vector<row> &rows)
{
    std::vector<std::string> out;
    for (const row &r : rows) {
        bool seen = false;
        for (const std::string &s : out) seen = seen || s == r.series;
        if (!seen) out.push_back(r.series);
    }
    return out;
}

void print_table(FILE *f, const std::vector<row> &rows, const char *value_label,
                 const std::vector<std::string> &notes)
{
    std::vector<std::vector<std::string>> cells;
    cells.push_back({"series", "x", value_label, "paper", "error %", "unit", ""});
    for (size_t i = 0; i < rows.size(); i++) {
        const row &r = rows[i];
        cells.push_back({r.series, r.x, r.has_value ? fmt_num(r.value) : "-",
                         r.has_ref ? fmt_num(r.ref) : "", r.has_err ? fmt_err(r.err_pct) : "",
                         r.unit, i < notes.size() ? notes[i] : ""});
    }
    std::vector<size_t> w(7, 0);
    for (const auto &c : cells)
        for (size_t i = 0; i < c.size(); i++) w[i] = std::max(w[i], c[i].size());
    for (const auto &c : cells) {
        std::string line;
        for (size_t i = 0; i < c.size(); i++) {
            bool right = i >= 2 && i <= 4; // numbers
            std::string pad(w[i] - c[i].size(), ' ');
            if (i) line += "  ";
            line += right ? pad + c[i] : c[i] + (i + 1 < c.size() ? pad : "");
        }
        while (!line.empty() && line.back() == ' ') line.pop_back();
        fprintf(f, "%s\n", line.c_str());
    }
}
