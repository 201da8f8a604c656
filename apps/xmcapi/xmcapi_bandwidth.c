/*
 * apps/xmcapi/xmcapi_bandwidth.c -- XMCAPI's Fig. 7: packet-channel bandwidth one
 * way between two hosts (paper 001).
 *
 * Host a connects a packet channel to host b and, for every size of
 * `sizes`, sends `bytes` bytes in packets of that size; b receives and
 * releases each (checking its first and last byte), then answers with one
 * message. a reports MB/s (10^6 bytes/s): the bytes over the time from its
 * first send to that answer. Phases (`measure`): dc (the communicators on
 * the hosts' second cores) reports pktchan_MBps, sc pktchan_sc_MBps.
 */
#include "../apps.h"
#include "xmcapi_common.h"

#include "ipcsim/plat.h"

#include <stdio.h>
#include <stdlib.h>

static bool chan_open(struct xa *x, mcapi_uint32_t *h)
{
    mcapi_status_t st = 0;
    mcapi_request_t r;
    size_t n;
    mcapi_endpoint_t ep = mcapi_endpoint_create(2, &st);
    if (st == MCAPI_SUCCESS && x->side == 0) {
        mcapi_endpoint_t to = mcapi_endpoint_get(1, 1, 2, XA_WAIT_MS, &st);
        if (st == MCAPI_SUCCESS) mcapi_pktchan_connect_i(ep, to, &r, &st);
        if (st == MCAPI_SUCCESS || st == MCAPI_PENDING) (void)mcapi_wait(&r, &n, 10000, &st);
    }
    if (st == MCAPI_SUCCESS) {
        if (x->side == 0)
            mcapi_pktchan_send_open_i(h, ep, &r, &st);
        else
            mcapi_pktchan_recv_open_i(h, ep, &r, &st);
    }
    if (st == MCAPI_SUCCESS || st == MCAPI_PENDING) (void)mcapi_wait(&r, &n, 10000, &st);
    if (st == MCAPI_SUCCESS) return true;
    char s[MCAPI_MAX_STATUS_MSG_LEN];
    app_fail(x->ctx, "xmcapi_bandwidth: node %d: channel: %s", x->side,
             mcapi_display_status(st, s, sizeof s));
    return false;
}

static void phase(struct xa *x, unsigned char *buf, bool dc)
{
    if (!xa_start(x, dc)) return;
    mcapi_uint32_t h = 0;
    if (!chan_open(x, &h)) goto out;
    long total = app_int(x->ctx, "bytes");
    mcapi_status_t st = 0;
    for (size_t k = 0; k < app_list_len(x->ctx, "sizes"); k++) {
        size_t n = (size_t)app_list_num(x->ctx, "sizes", k), got;
        long count = (total + (long)n - 1) / (long)n;
        char ack[2];
        if (x->side == 1) {
            for (long i = 0; i < count; i++) {
                void *p;
                mcapi_pktchan_recv(h, &p, &got, &st);
                if (st != MCAPI_SUCCESS || got != n ||
                    ((unsigned char *)p)[0] != (unsigned char)i ||
                    ((unsigned char *)p)[n - 1] != (unsigned char)(i + 1)) {
                    app_fail(x->ctx,
                             "xmcapi_bandwidth: packet %ld of %zu bytes: %zu bytes, status %d", i,
                             n, got, (int)st);
                    goto out;
                }
                mcapi_pktchan_release(p, &st);
            }
            if (!xa_send(x, "k", 1)) goto out;
            continue;
        }
        uint64_t t0 = plat_now_ns();
        for (long i = 0; i < count; i++) {
            buf[0] = (unsigned char)i;
            buf[n - 1] = (unsigned char)(i + 1);
            mcapi_pktchan_send(h, buf, n, &st);
            if (st != MCAPI_SUCCESS) {
                app_fail(x->ctx, "xmcapi_bandwidth: send of packet %ld: status %d", i, (int)st);
                goto out;
            }
        }
        if (!xa_recv(x, ack, sizeof ack, &got)) goto out;
        double s = (double)(plat_now_ns() - t0) / 1e9;
        char xs[24];
        snprintf(xs, sizeof xs, "%zu", n);
        app_report(x->ctx, dc ? "pktchan_MBps" : "pktchan_sc_MBps", xs,
                   (double)count * (double)n / s / 1e6, "MB/s");
    }
out:
    xa_stop(x);
}

static void run(struct app_ctx *ctx)
{
    struct xa x;
    if (!xa_setup(&x, ctx, "xmcapi_bandwidth")) return;
    unsigned char *buf = calloc(1, MCAPI_MAX_PKT_SIZE);
    if (!buf) return;
    const char *m = app_str(ctx, "measure");
    if (apps_listed(m, "dc")) phase(&x, buf, true);
    if (apps_listed(m, "sc")) phase(&x, buf, false);
    free(buf);
}

static const struct app_arg args[] = {
    {"sizes", APP_INT_LIST, "[1024, 4096, 16384, 32768, 65536]", "packet sizes in bytes", 2,
     MCAPI_MAX_PKT_SIZE, 0},
    /* Up to the paper's 1 GiB (bandwidth.yaml then runs ~2.5 min: 40 MiB took 5.3 s). */
    {"bytes", APP_INT, "4194304", "bytes sent per size (the paper: 1 GB)", 1, 1073741824, 0},
    {"measure", APP_STR, "dc", "phases, in this order: dc, sc", 0, 0, 0},
    XA_ARGS,
    APP_ARGS_END,
};

static const char *const series[] = {"pktchan_MBps", "pktchan_sc_MBps", NULL};

const struct app app_xmcapi_bandwidth = {
    .name = "xmcapi_bandwidth",
    .summary = "XMCAPI Fig. 7: packet-channel bandwidth one way between two hosts (MB/s)",
    .roles = xa_roles,
    .args = args,
    .series = series,
    .run = run,
};
