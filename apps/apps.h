/*
 * apps/apps.h -- the apps of this build (internal to apps/).
 *
 * Adding an app: write apps/<name>.c defining `const struct app app_<name>`
 * (only public headers: an IPC library's, plat.h, app.h), declare it here
 * and list it in app_table (apps.c). docs/scenarios.md has the details.
 */
#ifndef IPCSIM_APPS_H
#define IPCSIM_APPS_H

#include "ipcsim/app.h"

extern const struct app app_pingpong;
extern const struct app app_mcapi_dct;
extern const struct app app_funbase_init;
extern const struct app app_funbase_roundtrip;
extern const struct app app_funbase_throughput;
extern const struct app app_funbase_pcie;

#endif
