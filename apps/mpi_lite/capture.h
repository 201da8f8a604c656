/*
 * capture.h -- a rank's captured stdout and stderr (the other half of
 * mpisim.h): what a program built for the simulator printed.
 */
#ifndef IPCSIM_APPS_MPI_CAPTURE_H
#define IPCSIM_APPS_MPI_CAPTURE_H

#include <stddef.h>

struct mpisim_text {
    char *buf; /* NUL-terminated; NULL while empty */
    size_t len, cap;
    int lost; /* out of memory: some text is missing */
};

struct mpisim_capture {
    struct mpisim_text out, err;
};

/* Route the calling core's stdout and stderr into cap (NULL: back to the
 * process's streams). Kept in the core's PLAT_SLOT_APP slot, not a global:
 * every rank has its own. */
void mpisim_capture_begin(struct mpisim_capture *cap);
void mpisim_capture_end(void);
void mpisim_capture_free(struct mpisim_capture *cap);

#endif
