// meta.h -- provenance of a run's outputs: what they are named and the
// DIR/<name>.meta.yaml written beside the CSV (docs/scenarios.md, "Outputs").
#ifndef IPCSIM_RUNNER_META_H
#define IPCSIM_RUNNER_META_H

#include "ipcsim/run.h"

#include <cstdint>
#include <string>
#include <vector>

struct scenario;

// The version ipcsim was built from (git describe --always --dirty at build
// time; outside a git tree the VERSION file, else "unknown").
const char *ipcsim_version();

// SHA-256 as 64 lowercase hex digits: of a text, of a file's bytes (cli_error
// "PATH: cannot read: why" when it cannot be read).
std::string sha256_text(const std::string &text);
std::string sha256_file(const std::string &path);

// The name of a run's outputs (DIR/<name>.csv, .meta.yaml, -<plot>.png): the
// scenario's stem for the scenario as written (sim, seed 1, no --set), else
// the stem with a tag per setting that differs, so that such a run never
// replaces the default outputs and two runs with the same settings share a
// name: "+native", "+seed<N>", "+<8 hex digits of the --set list's SHA-256>"
// ("pingpong+native+3fa2c1d0").
std::string output_name(const std::string &stem, enum plat_backend backend, uint64_t seed,
                        const std::vector<std::string> &sets);

// What the metadata file records.
struct run_meta {
    std::string verb = "run";         // the command: run, sweep (a point of a sweep)
    std::vector<std::string> command; // ipcsim's arguments after it
    std::string csv_name, csv_text;   // the CSV beside it
    std::vector<std::string> sets;    // --set, in command-line order
    enum plat_backend backend = PLAT_SIM;
    uint64_t seed = 0;
    double host_seconds = 0;             // wall-clock time of the run itself (plat_run)
    std::vector<double> variant_seconds; // the same of each variant's run, in file order
    std::string check;                   // the --check summary line ("" when nothing is judged)
};

// The YAML text of DIR/<name>.meta.yaml: the version, the scenario and
// platform files with their SHA-256, the scenario's set: and the --set
// overrides, backend, seed, host, date (UTC) and host seconds; for a
// scenario with variants:, each variant's name, set: and host seconds.
std::string meta_text(const scenario &s, const run_meta &m);

#endif
