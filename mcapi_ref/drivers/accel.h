/*
 * drivers/accel.h -- the accelerator driver: a virtual node's hardware.
 *
 * FUNCAPI's transport switches on the node id and calls a fixed-function
 * block's driver instead of the DMA driver (its DCT example is node 1);
 * this is that driver, on plat_accel.
 */
#ifndef MCAPI_DRIVERS_ACCEL_H
#define MCAPI_DRIVERS_ACCEL_H

#include "ipcsim/plat.h"

#include <stddef.h>

/* The device called name, or NULL if the platform has none. */
plat_accel *drv_accel_open(const char *name);
/* One job: n bytes in, n bytes out. false: the device failed or has
 * nothing bound. */
bool drv_accel_run(plat_accel *a, const void *in, void *out, size_t n);

#endif
