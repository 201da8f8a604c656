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

struct plat_run {
    enum plat_backend backend;
    const struct conf *platform; /* the platform file, overrides applied */
    void (*entry)(void *arg);    /* runs on every core, in its main thread */
    void *arg;
    uint64_t seed;          /* seeds plat_random() */
    const char *trace_dir;  /* sim: write <trace_dir>/<trace_stem>.vcd and */
    const char *trace_stem; /*  .busy.png (per-core chart); NULL: no trace */
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
