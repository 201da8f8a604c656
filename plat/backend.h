/*
 * plat/backend.h -- what plat_run (kinds/run.cpp) hands a backend (internal).
 *
 * The platform kind's code (kinds/) turns the platform file into lists of
 * core and device descriptions; the native backend needs nothing more, the
 * sim backend builds its models from r->platform.
 */
#ifndef IPCSIM_PLAT_BACKEND_H
#define IPCSIM_PLAT_BACKEND_H

#include "ipcsim/run.h"
#include "ops.h"

#ifdef __cplusplus
extern "C" {
#endif

struct plat_core_desc {
    const char *type; /* core.type of the platform file */
    unsigned caps;    /* PLAT_CAP_* */
    double clock_mhz;
    size_t local_bytes;   /* core.local_bytes: size of its local memory; 0 = unbounded */
    unsigned rx_channels; /* core.rx_channels: receive channels of its DMA engine */
};

/* A device of the platform file (section devices.<name>), for the native
 * backend, which is C without the YAML library. */
struct plat_dev_param {
    const char *key;
    double value;
};
struct plat_dev_desc {
    const char *name;
    const char *type; /* the plat.h device its type implements: hwq, mesh, accel, stream */
    const struct plat_dev_param *params; /* the section's numeric keys */
    int nparams;
};

/* Run r->entry on ncores native threads (pinned to host CPUs round robin),
 * return when all have returned. Devices not in devs get defaults when
 * opened. 0, or -1 with err filled. */
int plat_native_run(const struct plat_run *r, const struct plat_core_desc *cores, int ncores,
                    const struct plat_dev_desc *devs, int ndevs, char *err, size_t errlen);

/* Capability names of platform files ("cas", "fetch_add", "local_mem", "dma",
 * "threads") to PLAT_CAP_* bits; 0 for an unknown name. */
unsigned plat_cap_bit(const char *name);

#ifdef __cplusplus
}
#endif
#endif
