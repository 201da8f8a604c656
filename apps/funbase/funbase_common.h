/*
 * apps/funbase/funbase_common.h -- what the FUNCAPI (paper 000) workloads share.
 *
 * Every funbase app is a set of MCAPI nodes on the DMA transport
 * (MCAPI_TRANSPORT_DMA), FUNCAPI's way: static routes, one line per node
 * naming its core, taken from the scenario's mapping. Role i of the app's
 * role list is node i of domain FB_DOMAIN, so moving a node from a Nios to
 * the PC is one line of the scenario's `mapping:`.
 *
 * Every node creates a message endpoint on port FB_PORT_SYNC first: the
 * apps use it for their untimed handshakes (ready, bye). Nothing here is
 * timed; the apps time their own calls with plat_now_ns.
 *
 * Times are reported in cycles of the calling core (plat_core_clock_mhz:
 * the platform file's clock, on both backends); a core without a clock
 * reports nanoseconds, unit "ns" (docs/funbase-apps.md).
 */
#ifndef IPCSIM_APPS_FUNBASE_COMMON_H
#define IPCSIM_APPS_FUNBASE_COMMON_H

#include "../apps.h"

#include "ipcsim/plat.h"
#include "mcapi.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FB_DOMAIN 1
#define FB_PORT_SYNC 0
#define FB_MAX_NODES 4
/* Long enough for any transfer, short enough that a lost one fails the run
 * instead of hanging it (ms, MCAPI's unit). */
#define FB_TIMEOUT_MS 10000

/* One node of a funbase app: the calling core's. */
struct fb {
    struct app_ctx *ctx;
    const char *app; /* app name, for messages */
    int node;        /* this core's node id; -1: the core has no role */
    int nnodes;      /* roles of the app = nodes of the domain */
    int core[FB_MAX_NODES];
    mcapi_endpoint_t sync; /* own port FB_PORT_SYNC */
    bool live;             /* initialised and not finalised */
    unsigned pkt_depth;    /* mcapi_param_t.pkt_depth (0: the transport's default) */
};

/* Fill f from the mapping: node = index of this core's role in roles. */
void fb_setup(struct fb *f, struct app_ctx *ctx, const char *app, const char *const *roles);

/* app_fail("<app>: <what>: MCAPI_ERR_...") unless st is MCAPI_SUCCESS;
 * returns true when it failed. */
bool fb_failed(struct fb *f, mcapi_status_t st, const char *what);

/* The same for the status of an _i call: MCAPI_PENDING is no failure. */
bool fb_failed_i(struct fb *f, mcapi_status_t st, const char *what);

/* mcapi_initialize with the DMA transport and the routes of the mapping.
 * The status is returned unchecked (the init app times this call alone). */
mcapi_status_t fb_initialize(struct fb *f);
/* fb_initialize, then the sync endpoint (with the timeout). false: failed
 * (reported). */
bool fb_start(struct fb *f);
/* Tear down: every channel end must be closed already. Exchanges a "bye"
 * with every other node on the sync endpoints (so no control message is
 * still travelling to a node that finalised), then finalises. */
void fb_finish(struct fb *f);

/* mcapi_endpoint_create(port) with MCAPI_ENDP_ATTR_TIMEOUT = FB_TIMEOUT_MS.
 * MCAPI_NULL on failure (reported). */
mcapi_endpoint_t fb_endpoint(struct fb *f, mcapi_port_t port);
/* mcapi_endpoint_get of <FB_DOMAIN, node, port>; MCAPI_NULL on failure. */
mcapi_endpoint_t fb_remote(struct fb *f, int node, mcapi_port_t port);
/* mcapi_wait with FB_TIMEOUT_MS; false on failure (reported). *size may be
 * NULL. */
bool fb_wait(struct fb *f, mcapi_request_t *r, size_t *size, const char *what);

/* Small untimed messages on the sync endpoints (a 4-byte word). */
bool fb_tell(struct fb *f, int node, uint32_t word);
bool fb_hear(struct fb *f, uint32_t *word);

/* A duration in cycles of the calling core (ns when its clock is unknown),
 * and the unit to report it with. */
double fb_cycles(double ns);
const char *fb_cycle_unit(void);

/* Memory for transfer buffers: the core's local memory if it has room (the
 * Nios data memory the PE DMA reaches), else plain malloc (the core's
 * private memory). */
struct fb_buf {
    void *p;
    bool local;
};
bool fb_alloc(struct fb *f, struct fb_buf *b, size_t n); /* false: reported */
void fb_free(struct fb_buf *b);

/* Streams (funbase_stream.c): `packets` packets of each size in the app's
 * argument `sizes` from node tx to node rx, after `warmup` untimed ones.
 * rx reports `series` (MB/s, 10^6 bytes per second) with x = the size: the
 * bytes delivered from the arrival of the last warm-up packet to the
 * arrival of the last one, over that time. Called on every node; nodes
 * other than tx and rx return at once. */
struct fb_stream {
    size_t nsizes, max;
    long packets, warmup;
    bool data;      /* the sender builds its packets in data memory, not in local memory */
    unsigned depth; /* packets a sender may have on their way: the receive end's buffers */
};
/* The stream arguments besides sizes, packets and warmup (their defaults
 * differ per app), for an app's argument table. */
#define FB_STREAM_ARGS                                                                             \
    {"depth",                                                                                      \
     APP_INT,                                                                                      \
     "1",                                                                                          \
     "packets a sender may have on their way (the receive end's buffers, 1-3): 1 = one "           \
     "HIBI PE DMA channel, FUNCAPI's receive end",                                                 \
     1,                                                                                            \
     FB_STREAM_DEPTH - 1,                                                                          \
     0},                                                                                           \
    {                                                                                              \
        "packets_in", APP_STR, "local",                                                            \
            "where the sender builds its packets: local (memory its DMA engine reads) or data "    \
            "(its data memory: the transport stages each packet through a TX buffer)",             \
            0, 0, 0                                                                                \
    }
/* The rules of the stream apps' sizes (bytes: a word to the HIBI DMA's
 * largest packet), packets and warmup (the timing starts at warmup's last
 * packet, so at least 1). */
#define FB_SIZE_MIN 4
#define FB_SIZE_MAX 65536
/* Reads sizes, packets, warmup, depth and packets_in (local | data); node 0
 * reports a bad packets_in (the argument rules checked the rest). With
 * `data` the sender's packets lie where its DMA engine may not reach
 * (plat_dma_reach): the DMA transport, and the bare stream like FUNCAPI's
 * driver, then copy each into a TX buffer first. */
bool fb_stream_params(struct fb *f, struct fb_stream *s);
/* Over an MCAPI packet channel on port `port` of both nodes, set up
 * (rx creates its end and says it is ready, tx connects, both open) and
 * torn down (tx closes, rx receives until the end, closes) inside the call.
 * Each packet is one blocking mcapi_pktchan_send; rx receives and releases. */
bool fb_pkt_stream(struct fb *f, const struct fb_stream *s, int tx, int rx, mcapi_port_t port,
                   const char *series);
/* The same bytes without MCAPI (the paper's driver alone): plat_dma_send to
 * receive channel `chan` of rx's core, one transfer in flight as a blocking
 * send; rx rotates FB_STREAM_DEPTH buffers, posting the next as soon as it
 * takes one, as the packet channel's receive end does. Needs no MCAPI node:
 * run it before fb_start or after fb_finish. */
#define FB_STREAM_DEPTH 4 /* = the DMA transport's packet channel depth */
bool fb_bare_stream(struct fb *f, const struct fb_stream *s, int tx, int rx, unsigned chan,
                    const char *series);

#endif
