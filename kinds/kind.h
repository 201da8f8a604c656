/*
 * kinds/kind.h -- platform kinds: what a `platform:` name in a platform
 * file means.
 *
 * A kind (kinds/<name>.cpp, listed in kinds/list.h) gives the rules its
 * files are checked with (conf_check, plus a check function for what rules
 * cannot say), the list of cores the native backend needs, and the function
 * that builds its SystemC blocks (build.h).
 *
 * Helpers shared by kinds: the parameters of a `core:` section, and the
 * checks of the `devices:` section (device types: devtype.h).
 */
#ifndef IPCSIM_KINDS_KIND_H
#define IPCSIM_KINDS_KIND_H

#include "build.h"

#include "../plat/backend.h"
#include "ipcsim/conf.h"

#include <vector>

namespace ipcsim
{

struct DevDescs;

struct PlatKind {
    const char *name;
    const struct conf_rule *rules;
    // Checks beyond the rules; 0 or -1 with err = "FILE:LINE: message".
    int (*check)(const struct conf *c, char *err, size_t errlen);
    // The run's cores, in order: their count is the run's core count.
    std::vector<plat_core_desc> (*describe)(const struct conf *c);
    void (*build)(Build &b, const struct conf *c);
    // The devices for the native backend; NULL: describe_devices (the
    // `devices` section as it is). A kind whose devices depend on more than
    // their section (a mesh laid out by core group) adds what it derives.
    void (*devices)(const struct conf *c, DevDescs &out);
};

// The kinds this build knows, NULL-terminated (registry.cpp).
extern const PlatKind *const kinds[];
const PlatKind *kind_find(const char *name);

// A `core:`-like section at `path` (already checked).
CoreParams core_params(const struct conf *c, const char *path);
// The native backend's description of a core of parameters p; type is the
// file's text (it outlives the run, as the conf does).
plat_core_desc core_desc(const CoreParams &p, const char *type);
// A check's failure: err = "FILE:LINE: 'path' what" ("--set path: what" for
// an override); returns -1.
int check_bad(const struct conf *c, const char *path, char *err, size_t errlen, const char *what);
// The capability names of the list at `path` are known.
int check_caps(const struct conf *c, const char *path, char *err, size_t errlen);
// Register the file's times with the kernel (Kernel::time_params: what a
// note on an expired wait limit names), by their keys' units: *_ns, *_ms,
// *_cycles and *.costs.* (cycles of S.clock_mhz, else of clock_mhz) are
// times; *_MBps, *_Mbps and *bytes_per_cycle rates. Every kind's build calls it.
void register_times(Kernel &k, const struct conf *c);
// Every device of the `devices` section has a known type (devtype.h) and its keys.
int check_devices(const struct conf *c, char *err, size_t errlen);

// The `devices` section for the native backend: each device as its type's
// api (its native equivalent) with the section's numeric keys (pointers
// into c and into the object, which must outlive the run).
struct DevDescs {
    std::vector<std::vector<plat_dev_param>> params;
    std::vector<plat_dev_desc> devs;
};
void describe_devices(const struct conf *c, DevDescs &out);
// Add (or replace) a numeric parameter of device i of out.
void dev_desc_set(DevDescs &out, size_t i, const char *key, double value);

// Unbounded and "> 0" limits for rules.
constexpr double BIG = 1e18;
constexpr double TINY = 1e-12;

// Limits that keep the times derived from a value inside the simulator's
// range (models/simtime.h): a time in ns or ms is at most TIME_MAX_PS (1e18
// ps, 11.6 days); a rate moves the largest transfer (4 GiB) within it; a
// clock's cycle fits in it. Times counted in cycles of a clock, and rates
// in bytes per cycle, depend on two keys: check_clocked says those.
constexpr double MAX_NS = TIME_MAX_PS / 1e3;                    // 1e15 ns
constexpr double MAX_MS = TIME_MAX_PS / 1e9;                    // 1e9 ms
constexpr double MIN_MBPS = XFER_MAX_BYTES * 1e6 / TIME_MAX_PS; // 0.00429 MB/s
constexpr double MIN_MBITPS = 8 * MIN_MBPS;                     // the same in Mbit/s
constexpr double MIN_MHZ = 1e6 / TIME_MAX_PS;                   // 1e-12 MHz

// Values counted per cycle of the clock at path `clock` (MHz): `cycles`
// (times in cycles; "S.costs.*" names every entry of that map) must give
// at most TIME_MAX_PS, `rates` (bytes per cycle) at least MIN_MBPS. Both
// lists NULL-terminated, either may be NULL; absent keys are skipped. The
// message names the key and the limit (the clock, if it is the --set one).
int check_clocked(const struct conf *c, const char *clock, const char *const *cycles,
                  const char *const *rates, char *err, size_t errlen);

// The rules of the costs every core section `S` has: the ones the backend
// charges itself (models/core.h). Costs are whole cycles (plat_cost's and
// plat_work_cycles' unit): a fraction is an error, not dropped. A kind adds its own after them, and
// `S.costs.*` (any other cost, read by plat_cost) last.
// clang-format off
#define KIND_CORE_COSTS(S)                                \
    {S ".costs", CONF_T_MAP, true, 1, 0},                 \
    {S ".costs.thread_spawn", CONF_T_INT, true, 0, BIG},  \
    {S ".costs.switch", CONF_T_INT, true, 0, BIG},        \
    {S ".costs.dma_setup", CONF_T_INT, true, 0, BIG},     \
    {S ".costs.doorbell", CONF_T_INT, true, 0, BIG},      \
    {S ".costs.irq", CONF_T_INT, true, 0, BIG}
#define KIND_OTHER_COSTS(S) {S ".costs.*", CONF_T_INT, false, 0, BIG}
// clang-format on

} // namespace ipcsim

#endif
