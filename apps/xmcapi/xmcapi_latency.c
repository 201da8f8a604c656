/*
 * apps/xmcapi/xmcapi_latency.c -- XMCAPI's Fig. 6: message round trip between two
 * hosts, against plain TCP (paper 001).
 *
 * For every size of `sizes`, `reps` timed round trips after `warmup`
 * untimed ones; each phase of `measure` reports the mean, in us, timed on
 * host a from its send to the whole echo being back:
 *   tcp_us          plat_stream (a TCP socket) ping-pong, no MCAPI;
 *   xmcapi_dc_us    MCAPI messages, each host's communicator thread on its
 *                   second core (a2, b2): the paper's dual-core host;
 *   xmcapi_sc_us    the same with the communicator on the user thread's
 *                   own core: the single-core host.
 * Every echo is checked byte for byte.
 */
#include "../apps.h"
#include "xmcapi_common.h"

#include "ipcsim/plat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fill(unsigned char *b, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) b[i] = (unsigned char)(seed * 131u + i * 7u + 1u);
}

static bool check(struct xa *x, const unsigned char *b, size_t n, unsigned seed, const char *what)
{
    for (size_t i = 0; i < n; i++)
        if (b[i] != (unsigned char)(seed * 131u + i * 7u + 1u)) {
            app_fail(x->ctx, "xmcapi_latency: %s echo %u of %zu bytes differs at byte %zu", what,
                     seed, n, i);
            return false;
        }
    return true;
}

/* All n bytes over s, or false after app_fail. */
static bool full(struct xa *x, plat_stream *s, void *buf, size_t n, bool out)
{
    for (size_t k = 0; k < n;) {
        long r = out ? plat_stream_send(s, (char *)buf + k, n - k, PLAT_FOREVER)
                     : plat_stream_recv(s, (char *)buf + k, n - k, PLAT_FOREVER);
        if (r <= 0) {
            app_fail(x->ctx, "xmcapi_latency: tcp: %s", r ? plat_strerror((int)r) : "closed");
            return false;
        }
        k += (size_t)r;
    }
    return true;
}

static void tcp_phase(struct xa *x, unsigned char *buf)
{
    char addr[32];
    long port = x->port + 2L * x->session++;
    snprintf(addr, sizeof addr, "127.0.0.1:%ld", port);
    plat_stream *s = NULL;
    int st = 0;
    if (x->side == 1) {
        plat_stream *l = plat_stream_listen(addr, &st);
        if (l) s = plat_stream_accept(l, PLAT_FOREVER, &st);
        plat_stream_close(l);
    } else {
        for (int i = 0; !s && i < 10000; i++) { /* until b listens */
            s = plat_stream_connect(addr, PLAT_FOREVER, &st);
            if (!s) plat_sleep_ns(100000);
        }
    }
    if (!s) {
        app_fail(x->ctx, "xmcapi_latency: tcp %s: %s", addr, plat_strerror(st));
        return;
    }
    long reps = app_int(x->ctx, "reps"), warm = app_int(x->ctx, "warmup");
    for (size_t k = 0; k < app_list_len(x->ctx, "sizes"); k++) {
        size_t n = (size_t)app_list_num(x->ctx, "sizes", k);
        uint64_t sum = 0;
        for (long r = 0; r < warm + reps; r++) {
            if (x->side == 1) {
                if (!full(x, s, buf, n, false) || !full(x, s, buf, n, true)) goto out;
                continue;
            }
            fill(buf, n, (unsigned)r);
            uint64_t t0 = plat_now_ns();
            if (!full(x, s, buf, n, true)) goto out;
            memset(buf, 0, n);
            if (!full(x, s, buf, n, false)) goto out;
            if (r >= warm) sum += plat_now_ns() - t0;
            if (!check(x, buf, n, (unsigned)r, "tcp")) goto out;
        }
        if (x->side == 0) {
            char xs[24];
            snprintf(xs, sizeof xs, "%zu", n);
            app_report(x->ctx, "tcp_us", xs, (double)sum / (double)reps / 1e3, "us");
        }
    }
out:
    plat_stream_close(s);
}

static void mcapi_phase(struct xa *x, unsigned char *buf, bool dc)
{
    if (!xa_start(x, dc)) return;
    long reps = app_int(x->ctx, "reps"), warm = app_int(x->ctx, "warmup");
    const char *series = dc ? "xmcapi_dc_us" : "xmcapi_sc_us";
    for (size_t k = 0; k < app_list_len(x->ctx, "sizes"); k++) {
        size_t n = (size_t)app_list_num(x->ctx, "sizes", k), got = 0;
        uint64_t sum = 0;
        for (long r = 0; r < warm + reps; r++) {
            if (x->side == 1) {
                if (!xa_recv(x, buf, MCAPI_MAX_MSG_SIZE, &got) || !xa_send(x, buf, got)) goto out;
                continue;
            }
            fill(buf, n, (unsigned)r);
            uint64_t t0 = plat_now_ns();
            if (!xa_send(x, buf, n)) goto out;
            memset(buf, 0, n);
            if (!xa_recv(x, buf, MCAPI_MAX_MSG_SIZE, &got)) goto out;
            if (r >= warm) sum += plat_now_ns() - t0;
            if (got != n) {
                app_fail(x->ctx, "xmcapi_latency: echo of %zu bytes has %zu", n, got);
                goto out;
            }
            if (!check(x, buf, n, (unsigned)r, series)) goto out;
        }
        if (x->side == 0) {
            char xs[24];
            snprintf(xs, sizeof xs, "%zu", n);
            app_report(x->ctx, series, xs, (double)sum / (double)reps / 1e3, "us");
        }
    }
out:
    xa_stop(x);
}

static void run(struct app_ctx *ctx)
{
    struct xa x;
    if (!xa_setup(&x, ctx, "xmcapi_latency")) return;
    const char *m = app_str(ctx, "measure");
    unsigned char *buf = malloc(MCAPI_MAX_MSG_SIZE);
    if (!buf) return;
    if (apps_listed(m, "tcp")) tcp_phase(&x, buf);
    if (apps_listed(m, "dc")) mcapi_phase(&x, buf, true);
    if (apps_listed(m, "sc")) mcapi_phase(&x, buf, false);
    free(buf);
}

static const struct app_arg args[] = {
    {"sizes", APP_INT_LIST, "[4, 16, 64, 256, 1024]", "message sizes in bytes", 1,
     MCAPI_MAX_MSG_SIZE, 0},
    {"reps", APP_INT, "100", "timed round trips per size", 1, APPS_REPS_MAX, 0},
    {"warmup", APP_INT, "10", "untimed round trips per size before them", 0, APPS_REPS_MAX, 0},
    {"measure", APP_STR, "tcp,dc,sc", "phases, in this order: tcp, dc, sc", 0, 0, 0},
    XA_ARGS,
    APP_ARGS_END,
};

static const char *const series[] = {"tcp_us", "xmcapi_dc_us", "xmcapi_sc_us", NULL};

const struct app app_xmcapi_latency = {
    .name = "xmcapi_latency",
    .summary = "XMCAPI Fig. 6: message round trip, single- and dual-core hosts, vs plain TCP (us)",
    .roles = xa_roles,
    .args = args,
    .series = series,
    .run = run,
};
