/*
 * tests/funbase/oneway.h -- a one-way plat_dma_send measurement: `from`
 * sends n bytes to channel `chan` of `to`, which posted it before the
 * start; both leave a barrier, then the sender starts at FB_T0_NS. The
 * receiver polls (plat_rx_wait) and records when the channel filled.
 */
#ifndef IPCSIM_TESTS_ONEWAY_H
#define IPCSIM_TESTS_ONEWAY_H

#include "fb.h"

#define FB_T0_NS 1000000ull /* after the barrier: every start is at 1 ms */
#define FB_MAX_XFERS 4

struct fb_xfer {
    int from, to;
    unsigned chan;
    size_t n;       /* bytes */
    uint64_t at_ns; /* the sender starts at FB_T0_NS + at_ns */
    bool irq;       /* the receiver waits for the ring bits instead of polling */
    /* results */
    uint64_t fill_ns; /* from FB_T0_NS + at_ns to the receiver seeing it */
    size_t len;
    bool ok;
    double base; /* fb_oneway_base of this transfer (Nios to Nios), computed in the run */
    double cycle_ns;
};
struct fb_oneway {
    int nx;
    struct fb_xfer x[FB_MAX_XFERS];
};

/* The entry of every core: run the transfers of arg (a struct fb_oneway *). */
void fb_oneway(void *arg);

/* Expected one-way cycles of `words` HIBI words from the agent at position
 * pos to a Nios, Nios to Nios, from the platform's parameters, without the
 * wait for the bus to be offered the first time (0 .. FB_AGENTS-1 cycles). */
double fb_oneway_base(uint64_t words, int pos);

#endif
