// merge.h -- a sweep's points merged by file name into one CSV, a table, a
// band per reported point, and a plot (ipcsim merge; ipcsim sweep --jobs).
#ifndef IPCSIM_RUNNER_MERGE_H
#define IPCSIM_RUNNER_MERGE_H

#include "outfiles.h"
#include "scenario.h"
#include "sweep.h"
#include "table.h"

#include <string>
#include <vector>

struct merge_opts {
    std::string points_dir; // DIR/<stem>.sweep
    std::string out_dir;    // where <stem>.csv (and -sweep.png) go
    std::string file;       // the scenario; "" : the one the points' .meta.yaml name
    bool plot = false, check = false;
    std::string keep_points_as; // "": leave points_dir; else move it there after the merge
};

// One point's results: its values (each swept key's, then the refit's) and rows.
struct swept_point {
    std::vector<std::string> values;
    std::vector<row> rows;
};

// The row of p for a report: entry (its series at its x, with a value); NULL if none.
const row *report_row(const swept_point &p, const sweep_report &r);

// Merge, print, and write (all or nothing). 0, or 1 when --check finds a
// paper point outside its band.
int sweep_merge(const merge_opts &o);

// DIR/<stem>-sweep.png: each report: point against the first swept key (one
// line per value of the other keys), its band (min..max over the sweep)
// shaded, its paper value a dashed horizontal line.
void write_sweep_plot(const scenario &s, const sweep_spec &sw, const std::vector<swept_point> &pts,
                      out_files &files);

#endif
