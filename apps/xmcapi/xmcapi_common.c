/* apps/xmcapi/xmcapi_common.c -- shared by the XMCAPI apps (xmcapi_common.h). */
#include "xmcapi_common.h"

#include "ipcsim/plat.h"

#include <stdio.h>
#include <string.h>

const char *const xa_roles[] = {"a", "b", "a2", "b2", NULL};

bool xa_setup(struct xa *x, struct app_ctx *ctx, const char *app)
{
    memset(x, 0, sizeof *x);
    x->ctx = ctx;
    x->app = app;
    for (int i = 0; i < 4; i++) x->core[i] = app_core_of(ctx, xa_roles[i]);
    const char *role = app_role(ctx);
    x->side = role && !strcmp(role, "a") ? 0 : role && !strcmp(role, "b") ? 1 : -1;
    x->port = app_int(ctx, "port");
    const char *n = app_str(ctx, "notify");
    x->notify = !strcmp(n, "pipe")   ? MCAPI_XM_PIPE
                : !strcmp(n, "wake") ? MCAPI_XM_WAKE
                                     : MCAPI_XM_DIRECT;
    if (strcmp(n, "pipe") && strcmp(n, "wake") && strcmp(n, "direct")) {
        if (x->side == 0) app_fail(ctx, "%s: notify '%s' must be pipe, wake or direct", app, n);
        return false;
    }
    return x->side >= 0;
}

static const char *name(mcapi_status_t st)
{
    static char buf[2][MCAPI_MAX_STATUS_MSG_LEN];
    return mcapi_display_status(st, buf[plat_core() & 1], sizeof buf[0]);
}

bool xa_send(struct xa *x, const void *buf, size_t n)
{
    mcapi_status_t st = 0;
    mcapi_msg_send(x->ep, x->peer, buf, n, 1, &st);
    if (st == MCAPI_SUCCESS) return true;
    app_fail(x->ctx, "%s: node %d: send of %zu bytes: %s", x->app, x->side, n, name(st));
    return false;
}

bool xa_recv(struct xa *x, void *buf, size_t cap, size_t *got)
{
    mcapi_status_t st = 0;
    mcapi_msg_recv(x->ep, buf, cap, got, &st);
    if (st == MCAPI_SUCCESS) return true;
    app_fail(x->ctx, "%s: node %d: receive: %s", x->app, x->side, name(st));
    return false;
}

bool xa_start(struct xa *x, bool dc)
{
    char topo[160];
    long p = x->port + 2L * x->session++;
    snprintf(topo, sizeof topo,
             "nodes:\n  - {domain: 1, node: 0, host: 127.0.0.1, port: %ld}\n"
             "  - {domain: 1, node: 1, host: 127.0.0.1, port: %ld}\n",
             p, p + 1);
    int comm = dc ? x->core[2 + x->side] : -1;
    if (dc && comm < 0) {
        app_fail(x->ctx, "%s: a dual-core run needs role %s mapped", x->app, xa_roles[2 + x->side]);
        return false;
    }
    mcapi_param_t param = {MCAPI_PARAM_INITIALIZER, .transport = MCAPI_TRANSPORT_XMCAPI,
                           .topology = topo, .xm_notify = x->notify,
                           .xm_comm_core = dc ? (unsigned)comm + 1 : 0};
    mcapi_info_t info;
    mcapi_status_t st = 0;
    mcapi_initialize(1, (mcapi_node_t)x->side, NULL, &param, &info, &st);
    if (st == MCAPI_SUCCESS) x->ep = mcapi_endpoint_create(1, &st);
    /* The get waits for the peer to start and create its endpoint. */
    if (st == MCAPI_SUCCESS)
        x->peer = mcapi_endpoint_get(1, (mcapi_node_t)(1 - x->side), 1, XA_WAIT_MS, &st);
    if (st != MCAPI_SUCCESS) {
        app_fail(x->ctx, "%s: node %d: start: %s", x->app, x->side, name(st));
        return false;
    }
    /* Meet, so that both sides start timing from the same point. */
    if (!xa_send(x, "hi", 2)) return false;
    char hi[2];
    size_t got;
    return xa_recv(x, hi, sizeof hi, &got);
}

void xa_stop(struct xa *x)
{
    mcapi_status_t st = 0;
    mcapi_finalize(&st);
    x->ep = x->peer = 0;
}
