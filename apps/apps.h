/*
 * apps/apps.h -- the apps of this build (internal to apps/).
 *
 * Adding an app: write apps/<paper>/<name>.c (the folder its scenarios have
 * in scenarios/) defining `const struct app app_<name>` (only public
 * headers: an IPC library's, plat.h, app.h, and this one as "../apps.h"),
 * declare it here and list it in app_table (apps.c). docs/scenarios.md has
 * the details.
 */
#ifndef IPCSIM_APPS_H
#define IPCSIM_APPS_H

#include "ipcsim/app.h"

#include <stdbool.h>

/* Upper bounds the apps' argument rules share (app.h: struct app_arg). At
 * these the default scenarios run for minutes, not days (a simulated round
 * trip costs ~1-3 s of host time per 10,000 at the default sizes):
 * repetitions, timed or untimed, of one measurement (reps, packets,
 * warmup, messages, blocks) -- 10,000 times the papers' 100. */
#define APPS_REPS_MAX 1000000

extern const struct app app_pingpong;
extern const struct app app_chart_demo;
extern const struct app app_mcapi_dct;
extern const struct app app_funbase_init;
extern const struct app app_funbase_roundtrip;
extern const struct app app_funbase_throughput;
extern const struct app app_funbase_pcie;
extern const struct app app_xmcapi_latency;
extern const struct app app_xmcapi_bandwidth;
extern const struct app app_sw_channels;
extern const struct app app_sw_regcomm;
/* apps/mpi_lite/mpi_progs.c: MPI programs built for the simulator */
extern const struct app app_mpi_osu_latency;
extern const struct app app_mpi_osu_bw;
extern const struct app app_mpi_osu_bibw;
extern const struct app app_mpi_osu_bcast;
extern const struct app app_mpi_osu_gather;
extern const struct app app_mpi_hello;
extern const struct app app_mpi_ring;
extern const struct app app_mpi_pi;
extern const struct app app_mpi_hpl;
/* apps/em/em_progs.c: the em examples built for the simulator */
extern const struct app app_em_hello;
extern const struct app app_em_ordered;
extern const struct app app_em_event_group;
/* apps/em/matmul.c: the OpenEM matrix-multiply demo (paper 003) */
extern const struct app app_em_matmul;

/* Whether `word` is one of the comma-separated names of text (an app's
 * list argument such as measure: "tcp,dc,sc"). */
bool apps_listed(const char *text, const char *word);

#endif
