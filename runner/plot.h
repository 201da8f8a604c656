// plot.h -- a scenario's plots as PNG files, drawn by gnuplot.
#ifndef IPCSIM_RUNNER_PLOT_H
#define IPCSIM_RUNNER_PLOT_H

#include "outfiles.h"
#include "plot_axis.h"
#include "scenario.h"
#include "table.h"

#include <string>
#include <vector>

// Pieces every ipcsim plot shares: a gnuplot single-quoted string; `set
// xtics (...)` with a's ticks and minor ticks; the terminal (800x500 PNG,
// Sans 10, pngcairo when there is one) writing to png; series colours.
std::string gp_quote(const std::string &s);
std::string gp_tics(const char *axis, const plot_axis &a);
std::string gp_terminal(const std::string &png);
const char *gp_colour(size_t i);

// The gnuplot executable; throws cli_error naming the package when missing.
std::string gnuplot_program();

// Run gnuplot on a script file; its output (warnings, errors) in *log;
// its exit status (128 + signal when killed).
int run_gnuplot(const std::string &program, const std::string &script_file,
                const std::string &log_file, std::string *log);

// One DIR/<stem>-<id>.png per plot of s (added to files, renamed on commit):
// the run's series as lines with filled points (points only on a category
// axis), the reference (paper) points as larger hollow markers of the same
// colour and shape; ranges and ticks from plot_axis.h; the key names
// value_label ("simulated"/"measured") and each reference's source. Points
// a log axis cannot show are left out and counted on stderr.
void write_plots(const scenario &s, const std::vector<row> &rows, const char *value_label,
                 out_files &files);

#endif
