/*
 * funbase_init.c -- FUNCAPI Table 3: the cost of setting up each kind of
 * communication.
 *
 * Two roles, node0 and node1 (MCAPI nodes 0 and 1, DMA transport). Node 0
 * times, with plat_now_ns around the calls:
 *
 *   message  the paper's steps 1-6 (Fig. 4): mcapi_initialize, create its
 *            endpoint, get the remote endpoint <1, 0>.
 *   packet   what a program using only a packet channel does: initialise
 *            (the same mcapi_initialize as above), create its endpoint (port
 *            1), get <1, 1>, connect, open its send end -- the open
 *            completes after the two-way handshake with node 1.
 *   scalar   the same with a scalar channel (port 2).
 *
 * One MCAPI session serves all three: the packet and scalar values are the
 * duration of mcapi_initialize plus the timed channel set-up, so each kind
 * counts the calls a program of its own would make. Node 1 is ready before
 * node 0 starts the channels (the paper: "node_1 is ready"): it initialises,
 * creates ports 0-2, issues both receive opens and says so with a message;
 * its opens complete inside the handshake node 0 times.
 *
 * Reports init_cycles, x = message, packet, scalar, in cycles of node 0's
 * core (ns natively without a clock: docs/funbase-apps.md). Each is
 * measured once: the set-up is deterministic on sim, and repeating it would
 * need finalising and re-initialising, which the paper does not time.
 */
#include "funbase_common.h"

#include <string.h>

enum { PORT_PKT = 1, PORT_SCL = 2 };
#define READY 0x5EADu

static const char *const roles[] = {"node0", "node1", NULL};

/* Node 0's channel set-up: create, get, connect, open the send end. The
 * handle goes to *h; false on failure (reported). */
static bool channel(struct fb *f, int scl, mcapi_port_t port, mcapi_uint32_t *h)
{
    mcapi_status_t st = MCAPI_SUCCESS;
    mcapi_request_t r;
    mcapi_endpoint_t tx = mcapi_endpoint_create(port, &st);
    if (fb_failed(f, st, "mcapi_endpoint_create")) return false;
    mcapi_endpoint_t peer = mcapi_endpoint_get(FB_DOMAIN, 1, port, FB_TIMEOUT_MS, &st);
    if (fb_failed(f, st, "mcapi_endpoint_get")) return false;
    if (scl)
        mcapi_sclchan_connect_i(tx, peer, &r, &st);
    else
        mcapi_pktchan_connect_i(tx, peer, &r, &st);
    if (fb_failed_i(f, st, "connect") || !fb_wait(f, &r, NULL, "connect")) return false;
    if (scl)
        mcapi_sclchan_send_open_i(h, tx, &r, &st);
    else
        mcapi_pktchan_send_open_i(h, tx, &r, &st);
    return !fb_failed_i(f, st, "open send end") && fb_wait(f, &r, NULL, "open send end");
}

static void node0(struct fb *f)
{
    mcapi_status_t st = MCAPI_SUCCESS;
    uint64_t t0 = plat_now_ns();
    st = fb_initialize(f);
    uint64_t ta = plat_now_ns();
    if (fb_failed(f, st, "mcapi_initialize")) return;
    mcapi_endpoint_t ep = mcapi_endpoint_create(FB_PORT_SYNC, &st);
    if (fb_failed(f, st, "mcapi_endpoint_create")) goto out;
    (void)mcapi_endpoint_get(FB_DOMAIN, 1, FB_PORT_SYNC, FB_TIMEOUT_MS, &st);
    uint64_t t1 = plat_now_ns();
    if (fb_failed(f, st, "mcapi_endpoint_get")) goto out;
    mcapi_endp_attr_timeout_t t = FB_TIMEOUT_MS;
    mcapi_endpoint_set_attribute(ep, MCAPI_ENDP_ATTR_TIMEOUT, &t, sizeof t, &st);
    if (fb_failed(f, st, "mcapi_endpoint_set_attribute(TIMEOUT)")) goto out;
    f->sync = ep;

    uint32_t w = 0;
    if (!fb_hear(f, &w)) goto out;
    if (w != READY) {
        app_fail(f->ctx, "funbase_init: node 0 got %#x instead of node 1's ready", (unsigned)w);
        goto out;
    }
    mcapi_pktchan_send_hndl_t ph;
    mcapi_sclchan_send_hndl_t sh;
    uint64_t t2 = plat_now_ns();
    if (!channel(f, 0, PORT_PKT, &ph)) goto out;
    uint64_t tp = plat_now_ns();
    /* Node 1 finishes its side of the packet channel (its last HELLO, its
     * posts) before the scalar set-up is timed: each set-up starts with the
     * peer idle, as the message one does. */
    plat_sleep_ns(5000);
    uint64_t t3 = plat_now_ns();
    if (!channel(f, 1, PORT_SCL, &sh)) goto out;
    uint64_t t4 = plat_now_ns();

    const char *unit = fb_cycle_unit();
    double init = (double)(ta - t0);
    app_report(f->ctx, "init_cycles", "message", fb_cycles((double)(t1 - t0)), unit);
    app_report(f->ctx, "init_cycles", "packet", fb_cycles(init + (double)(tp - t2)), unit);
    app_report(f->ctx, "init_cycles", "scalar", fb_cycles(init + (double)(t4 - t3)), unit);

    /* Close the send ends: node 1 sees the channels end, then the byes. */
    mcapi_request_t r;
    mcapi_pktchan_send_close_i(ph, &r, &st);
    if (fb_failed_i(f, st, "mcapi_pktchan_send_close_i") || !fb_wait(f, &r, NULL, "packet close"))
        goto out;
    mcapi_sclchan_send_close_i(sh, &r, &st);
    if (fb_failed_i(f, st, "mcapi_sclchan_send_close_i") || !fb_wait(f, &r, NULL, "scalar close"))
        goto out;
out:
    fb_finish(f);
}

static void node1(struct fb *f)
{
    if (!fb_start(f)) goto out;
    mcapi_endpoint_t prx = fb_endpoint(f, PORT_PKT), srx = fb_endpoint(f, PORT_SCL);
    if (prx == MCAPI_NULL || srx == MCAPI_NULL) goto out;
    mcapi_pktchan_recv_hndl_t ph;
    mcapi_sclchan_recv_hndl_t sh;
    mcapi_request_t rp, rs, r;
    mcapi_status_t st = MCAPI_SUCCESS;
    mcapi_pktchan_recv_open_i(&ph, prx, &rp, &st);
    if (fb_failed_i(f, st, "mcapi_pktchan_recv_open_i")) goto out;
    mcapi_sclchan_recv_open_i(&sh, srx, &rs, &st);
    if (fb_failed_i(f, st, "mcapi_sclchan_recv_open_i")) goto out;
    if (!fb_tell(f, 0, READY)) goto out;
    if (!fb_wait(f, &rp, NULL, "packet receive open") ||
        !fb_wait(f, &rs, NULL, "scalar receive open"))
        goto out;

    /* Wait for node 0 to close its ends (a receive says so), then close ours:
     * nothing is sent to node 0 after its bye. */
    void *buf = NULL;
    size_t n = 0;
    mcapi_pktchan_recv(ph, &buf, &n, &st);
    if (st != MCAPI_ERR_CHAN_NOTOPEN) {
        app_fail(f->ctx, "funbase_init: node 1: the packet channel did not close (%d)", (int)st);
        goto out;
    }
    (void)mcapi_sclchan_recv_uint32(sh, &st);
    if (st != MCAPI_ERR_CHAN_NOTOPEN) {
        app_fail(f->ctx, "funbase_init: node 1: the scalar channel did not close (%d)", (int)st);
        goto out;
    }
    mcapi_pktchan_recv_close_i(ph, &r, &st);
    if (fb_failed_i(f, st, "mcapi_pktchan_recv_close_i") || !fb_wait(f, &r, NULL, "packet close"))
        goto out;
    mcapi_sclchan_recv_close_i(sh, &r, &st);
    if (fb_failed_i(f, st, "mcapi_sclchan_recv_close_i") || !fb_wait(f, &r, NULL, "scalar close"))
        goto out;
out:
    fb_finish(f);
}

static void run(struct app_ctx *ctx)
{
    struct fb f;
    fb_setup(&f, ctx, "funbase_init", roles);
    if (f.node == 0)
        node0(&f);
    else if (f.node == 1)
        node1(&f);
}

static const struct app_arg args[] = {
    APP_ARGS_END,
};

static const char *const series[] = {"init_cycles", NULL};

const struct app app_funbase_init = {
    .name = "funbase_init",
    .summary = "FUNCAPI Table 3: set-up cycles of messages, packet and scalar channels (DMA "
               "transport)",
    .roles = roles,
    .args = args,
    .series = series,
    .run = run,
};
