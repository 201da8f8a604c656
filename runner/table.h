// table.h -- results as rows: simulated points joined with paper points,
// printed as a table, written and read as CSV.
#ifndef IPCSIM_RUNNER_TABLE_H
#define IPCSIM_RUNNER_TABLE_H

#include "appctx.h"
#include "scenario.h"

#include <cstdio>
#include <string>
#include <vector>

struct row {
    std::string series, x, unit;
    bool has_value = false; // false: a paper point the run did not produce
    double value = 0;
    bool has_ref = false;
    double ref = 0;
    bool has_err = false; // error_pct = (value - ref) / ref * 100
    double err_pct = 0;
};

// The CSV header, exactly.
extern const char *const csv_header;

// Points in report order, series by series (first appearance); within a
// series its points in report order, then the paper points it did not
// produce; then the referenced series it did not produce at all. x values
// match as numbers when both are numbers ("4" == "4.0"), else as text.
std::vector<row> make_rows(const std::vector<point> &pts, const std::vector<ref_series> &refs);

// An x as a number: all of it a finite number ("4", "4.0", "1e3"; not "4k").
bool x_number(const std::string &x, double *v);
// Two x are one point: as numbers when both are numbers ("4" == "4.0"), else as text.
bool x_same(const std::string &a, const std::string &b);

// Numbers as written to files: whole numbers exactly, others with six
// significant digits. Deterministic (no locale: the C locale is never changed).
std::string fmt_num(double v);
// Error for tables: "+1.2", "-0.3".
std::string fmt_err(double pct);

std::string csv_text(const std::vector<row> &rows);
// One CSV field, quoted when it holds a comma, quote or line break (RFC 4180).
std::string csv_field(const std::string &s);
// One record of t from pos into out (RFC 4180 quoting); false at the end.
bool csv_record(const std::string &t, size_t &pos, std::vector<std::string> &out);
// Parse what csv_text wrote; `file` names it in errors (cli_error).
std::vector<row> csv_parse(const std::string &text, const std::string &file);

// The series names in row order, each once.
std::vector<std::string> row_series(const std::vector<row> &rows);

// An aligned text table: series, x, <value_label>, paper, error %, unit,
// and `notes` (one per row, may be empty) in a last column.
void print_table(FILE *f, const std::vector<row> &rows, const char *value_label,
                 const std::vector<std::string> &notes);

#endif
