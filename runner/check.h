// check.h -- judging a run against its scenario (--check).
//
// Every paper point of a series with tolerance_pct must have a simulated
// value within that many percent, and every `expect:` claim (expect.cpp)
// must hold. A further judgement adds a function here and a call in
// check_rows.
#ifndef IPCSIM_RUNNER_CHECK_H
#define IPCSIM_RUNNER_CHECK_H

#include "scenario.h"
#include "table.h"

#include <string>
#include <vector>

// The verdict on one `expect:` entry.
struct expect_outcome {
    expectation e;
    bool ok = false;
    // "a above b at every x (3 of 3)", "a grows more than b (x 1 -> 8): 2x vs 1.5x",
    // "a at least 85 at every x (4 of 4): lowest 86.2 at x=4"
    std::string claim;
    std::string verdict; // "ok", "FAILS at x=4 (1.2 <= 1.5)", "FAILS: series 'a' was not reported"
    std::string reason;  // when the run could not be judged: "series 'a' was not reported"

    std::string text() const { return claim + ": " + verdict; }
};

struct check_result {
    std::vector<std::string> notes;      // per row: "" or "outside ±5%"
    std::vector<std::string> violations; // one line each, naming series and x
    int judged = 0, passed = 0;          // points with a tolerance, and within it
    std::vector<expect_outcome> expects; // one per `expect:` entry, in file order
};

check_result check_rows(const scenario &s, const std::vector<row> &rows);

// Each `expect:` of s judged on the rows' values (rows without a value are
// not points of the run). Also used by the report, on rows read from a CSV.
std::vector<expect_outcome> check_expects(const scenario &s, const std::vector<row> &rows);
// How many of them hold.
int expects_held(const std::vector<expect_outcome> &expects);

// True when r is within tolerance_pct (false without a value or an error).
bool within(const row &r, double tolerance_pct);

#endif
