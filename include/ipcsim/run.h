/*
 * ipcsim/run.h -- start a platform and run code on its cores.
 *
 * Used by the ipcsim runner, the tests and the benchmarks; never by the IPC
 * libraries. A run loads nothing itself: the caller gives it a platform file
 * already loaded (conf.h) with its overrides applied.
 */
#ifndef IPCSIM_RUN_H
#define IPCSIM_RUN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct conf;

enum plat_backend { PLAT_NATIVE, PLAT_SIM };

/* What a sim run traces: a VCD of the blocks' one-bit signals (each core's
 * busy flag, each crossbar lane or bus held) and each core's busy chart. The
 * files are <dir>/<stem>.vcd, .busy.dat, .busy.gp and .busy.png; the script
 * and the chart name one another by those names. */
struct plat_trace {
    const char *dir, *stem;
    const char *title; /* the chart's title (the scenario's); NULL: stem */
    /* Where each file is written (a temporary name the caller renames once
     * the run succeeded); NULL: its final name. */
    const char *vcd_path, *dat_path, *gp_path, *png_path;
    uint64_t from_ps, to_ps; /* the window traced; to_ps 0: to the end */
    const char *signals;     /* VCD signal names to keep, comma-separated globs
                                (fnmatch: top.core*.busy); NULL or "": all */
};

struct plat_run {
    enum plat_backend backend;
    const struct conf *platform; /* the platform file, overrides applied */
    void (*entry)(void *arg);    /* runs on every core, in its main thread */
    void *arg;
    uint64_t seed;                  /* seeds plat_random() */
    const struct plat_trace *trace; /* sim only (native: an error); NULL: none */
    void (*tick)(void *, uint64_t); /* sim: tick(tick_arg, now_ps) after every */
    void *tick_arg;                 /*  timestep (a progress line); NULL: none */
};

/* Check the platform file against its kind's rules (the `platform:` key names
 * the kind) without running it. 0, or -1 with err = "FILE:LINE: message". */
int plat_check(const struct conf *platform, char *err, size_t errlen);

/* The number of cores a run of the platform has (its kind counts them: a
 * `cores` key, or core groups times cores per group); -1 if the platform is
 * invalid. */
int plat_core_count(const struct conf *platform);

/* Run entry on every core until all entries return. 0 on success; -1 with
 * err filled when the platform is invalid or the run cannot finish (e.g. in
 * simulation every core is blocked: the message names the blocked cores).
 * A process can do one sim run (SystemC cannot restart); native runs any. */
int plat_run(const struct plat_run *r, char *err, size_t errlen);

/* Names of the platform kinds the models know ("ideal", ...), NULL-terminated. */
const char *const *plat_kinds(void);

#ifdef __cplusplus
}
#endif
#endif
