// check.h -- judging a run against its scenario (--check).
//
// Today: every paper point of a series with tolerance_pct must have a
// simulated value within that many percent. Further judgements (`expect:`
// relations between series) add a function here and a call in check_rows.
#ifndef IPCSIM_RUNNER_CHECK_H
#define IPCSIM_RUNNER_CHECK_H

#include "scenario.h"
#include "table.h"

#include <string>
#include <vector>

struct check_result {
    std::vector<std::string> notes;      // per row: "" or "outside ±5%"
    std::vector<std::string> violations; // one line each, naming series and x
    int judged = 0, passed = 0;          // points with a tolerance, and within it
};

check_result check_rows(const scenario &s, const std::vector<row> &rows);

// True when r is within tolerance_pct (false without a value or an error).
bool within(const row &r, double tolerance_pct);

#endif
