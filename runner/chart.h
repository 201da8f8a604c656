// chart.h -- run charts (app_interval): DIR/<stem>.<chart>.txt, one line per
// row and one character per scale_ns, and DIR/<stem>.<chart>.png (gnuplot)
// drawn from the same intervals (docs/scenarios.md, "Run charts").
#ifndef IPCSIM_RUNNER_CHART_H
#define IPCSIM_RUNNER_CHART_H

#include "appctx.h"
#include "outfiles.h"
#include "scenario.h"

#include <cstdint>
#include <string>
#include <vector>

// One character = 100,000 cycles of the paper's 1 GHz cores (paper 003,
// section 2.3.2) when the scenario sets no chart: {scale_ns: N}.
constexpr uint64_t CHART_SCALE_NS = 100000;
// A longer row is refused (cli_error naming the chart and a scale that fits).
constexpr uint64_t CHART_MAX_CELLS = 20000;

// The scenario's chart.scale_ns, or CHART_SCALE_NS.
uint64_t chart_scale_ns(const scenario &s);

// The text chart of c at scale ns per character (header naming stem, rows,
// footer). Throws cli_error (at `where`, the scenario file) when a row would
// be longer than CHART_MAX_CELLS.
std::string chart_text(const chart_data &c, uint64_t scale_ns, const std::string &stem,
                       const std::string &where);

// Both files of each chart added to files (the PNG only when gnuplot is on
// PATH; otherwise a note on stderr). Returns ", DIR/x.run.txt, DIR/x.run.png"
// for the wrote line.
std::string write_charts(const scenario &s, const std::vector<chart_data> &charts,
                         out_files &files);

#endif
