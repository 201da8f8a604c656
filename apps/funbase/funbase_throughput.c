/*
 * funbase_throughput.c -- FUNCAPI's Nios -> Nios throughput: a packet
 * channel against the DMA driver alone.
 *
 * Two roles, tx and rx (MCAPI nodes 0 and 1, DMA transport). For every
 * size of `sizes`, tx streams `packets` packets to rx after `warmup`
 * untimed ones (funbase_stream.c):
 *
 *   bare_MBps   without MCAPI: plat_dma_send into a receive channel of rx's
 *               core (channel `chan`), rx takes each and posts the next of
 *               its 4 buffers -- the paper's "without MCAPI".
 *   mcapi_MBps  over an MCAPI packet channel (blocking mcapi_pktchan_send;
 *               mcapi_pktchan_recv + mcapi_pktchan_release at rx).
 *
 * The bare stream runs first, before either node initialises MCAPI, so its
 * transfers and the transport's never share a channel. rx reports MB/s
 * (10^6 bytes/s) with x = the packet size in bytes.
 */
#include "funbase_common.h"

enum { TX, RX };
#define PORT 1

static const char *const roles[] = {"tx", "rx", NULL};

static void run(struct app_ctx *ctx)
{
    struct fb f;
    fb_setup(&f, ctx, "funbase_throughput", roles);
    if (f.node < 0) return;
    struct fb_stream s;
    if (!fb_stream_params(&f, &s)) return;
    const char *measure = app_str(ctx, "measure");
    long chan = app_int(ctx, "chan");
    if (apps_listed(measure, "bare") &&
        !fb_bare_stream(&f, &s, TX, RX, (unsigned)chan, "bare_MBps"))
        return;
    if (!apps_listed(measure, "mcapi")) return;
    if (fb_start(&f)) (void)fb_pkt_stream(&f, &s, TX, RX, PORT, "mcapi_MBps");
    fb_finish(&f);
}

static const struct app_arg args[] = {
    {"sizes", APP_INT_LIST, "[16, 32, 64, 128, 256, 512, 1024, 2048]", "packet sizes in bytes",
     FB_SIZE_MIN, FB_SIZE_MAX, 0},
    {"packets", APP_INT, "200", "timed packets per size", 1, APPS_REPS_MAX, 0},
    FB_STREAM_ARGS,
    {"warmup", APP_INT, "20", "untimed packets per size before the timed ones (at least 1)", 1,
     APPS_REPS_MAX, 0},
    {"measure", APP_STR, "bare,mcapi", "streams to run: bare (driver alone), mcapi", 0, 0, 0},
    /* How many channels rx's core has is the platform's (rx_channels): a
     * channel it lacks fails the run with plat_rx_*'s reason. */
    {"chan", APP_INT, "0", "receive channel of rx's core the bare stream uses", 0, 255, 0},
    APP_ARGS_END,
};

static const char *const series[] = {"bare_MBps", "mcapi_MBps", NULL};

const struct app app_funbase_throughput = {
    .name = "funbase_throughput",
    .summary = "FUNCAPI throughput: packet channel vs the DMA driver alone, MB/s per packet size",
    .roles = roles,
    .args = args,
    .series = series,
    .run = run,
};
