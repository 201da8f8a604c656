/* funbase_common.c -- nodes, routes, handshakes and units of the funbase apps. */
#include "funbase_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BYE 0xB1Eu /* the word fb_finish exchanges */

void fb_setup(struct fb *f, struct app_ctx *ctx, const char *app, const char *const *roles)
{
    memset(f, 0, sizeof *f);
    f->ctx = ctx;
    f->app = app;
    f->node = -1;
    const char *mine = app_role(ctx);
    for (int i = 0; i < FB_MAX_NODES && roles[i]; i++) {
        f->core[i] = app_core_of(ctx, roles[i]);
        if (mine && strcmp(mine, roles[i]) == 0) f->node = i;
        f->nnodes = i + 1;
    }
}

bool fb_failed(struct fb *f, mcapi_status_t st, const char *what)
{
    if (st == MCAPI_SUCCESS) return false;
    char name[MCAPI_MAX_STATUS_MSG_LEN];
    app_fail(f->ctx, "%s: node %d: %s: %s", f->app, f->node, what,
             mcapi_display_status(st, name, sizeof name));
    return true;
}

bool fb_failed_i(struct fb *f, mcapi_status_t st, const char *what)
{
    return st != MCAPI_PENDING && fb_failed(f, st, what);
}

mcapi_status_t fb_initialize(struct fb *f)
{
    /* The static mapping (FUNCAPI's mcapi_mapping.h): node i runs on the
     * core the scenario maps role i to. */
    struct mcapi_route routes[FB_MAX_NODES];
    for (int i = 0; i < f->nnodes; i++)
        routes[i] = (struct mcapi_route){.domain = FB_DOMAIN,
                                         .node = (mca_node_t)i,
                                         .kind = MCAPI_ROUTE_DMA,
                                         .device = NULL,
                                         .core = f->core[i]};
    mcapi_param_t param = {MCAPI_PARAM_INITIALIZER,
                           .shm_name = NULL,
                           .routes = routes,
                           .nroutes = (unsigned)f->nnodes,
                           .transport = MCAPI_TRANSPORT_DMA,
                           .pkt_depth = f->pkt_depth,
                           .dma_handshake = 1}; /* FUNCAPI's open (Table 3) */
    mcapi_info_t info;
    mcapi_status_t st = MCAPI_SUCCESS;
    mcapi_initialize(FB_DOMAIN, (mcapi_node_t)f->node, NULL, &param, &info, &st);
    f->live = st == MCAPI_SUCCESS;
    return st;
}

bool fb_start(struct fb *f)
{
    if (fb_failed(f, fb_initialize(f), "mcapi_initialize")) return false;
    f->sync = fb_endpoint(f, FB_PORT_SYNC);
    return f->sync != MCAPI_NULL;
}

void fb_finish(struct fb *f)
{
    if (!f->live) return;
    bool ok = f->sync != MCAPI_NULL;
    for (int n = 0; ok && n < f->nnodes; n++)
        if (n != f->node) ok = fb_tell(f, n, BYE);
    for (int n = 0; ok && n < f->nnodes; n++) {
        uint32_t w = 0;
        if (n == f->node) continue;
        ok = fb_hear(f, &w);
        if (ok && w != BYE) {
            app_fail(f->ctx, "%s: node %d: got %#x where a bye was due", f->app, f->node,
                     (unsigned)w);
            ok = false;
        }
    }
    mcapi_status_t st = MCAPI_SUCCESS;
    mcapi_finalize(&st);
    f->live = false;
    (void)fb_failed(f, st, "mcapi_finalize");
}

mcapi_endpoint_t fb_endpoint(struct fb *f, mcapi_port_t port)
{
    mcapi_status_t st = MCAPI_SUCCESS;
    mcapi_endpoint_t ep = mcapi_endpoint_create(port, &st);
    if (fb_failed(f, st, "mcapi_endpoint_create")) return MCAPI_NULL;
    mcapi_endp_attr_timeout_t t = FB_TIMEOUT_MS;
    mcapi_endpoint_set_attribute(ep, MCAPI_ENDP_ATTR_TIMEOUT, &t, sizeof t, &st);
    if (fb_failed(f, st, "mcapi_endpoint_set_attribute(TIMEOUT)")) return MCAPI_NULL;
    return ep;
}

mcapi_endpoint_t fb_remote(struct fb *f, int node, mcapi_port_t port)
{
    mcapi_status_t st = MCAPI_SUCCESS;
    mcapi_endpoint_t ep =
        mcapi_endpoint_get(FB_DOMAIN, (mcapi_node_t)node, port, FB_TIMEOUT_MS, &st);
    return fb_failed(f, st, "mcapi_endpoint_get") ? MCAPI_NULL : ep;
}

bool fb_wait(struct fb *f, mcapi_request_t *r, size_t *size, const char *what)
{
    size_t n = 0;
    mcapi_status_t st = MCAPI_SUCCESS;
    if (!mcapi_wait(r, &n, FB_TIMEOUT_MS, &st)) {
        char name[MCAPI_MAX_STATUS_MSG_LEN];
        app_fail(f->ctx, "%s: node %d: mcapi_wait for %s: %s", f->app, f->node, what,
                 mcapi_display_status(st, name, sizeof name));
        return false;
    }
    if (size) *size = n;
    return !fb_failed(f, st, what);
}

bool fb_tell(struct fb *f, int node, uint32_t word)
{
    mcapi_endpoint_t to = fb_remote(f, node, FB_PORT_SYNC);
    if (to == MCAPI_NULL) return false;
    mcapi_status_t st = MCAPI_SUCCESS;
    mcapi_msg_send(f->sync, to, &word, sizeof word, 0, &st);
    return !fb_failed(f, st, "mcapi_msg_send (handshake)");
}

bool fb_hear(struct fb *f, uint32_t *word)
{
    size_t n = 0;
    mcapi_status_t st = MCAPI_SUCCESS;
    mcapi_msg_recv(f->sync, word, sizeof *word, &n, &st);
    if (fb_failed(f, st, "mcapi_msg_recv (handshake)")) return false;
    if (n != sizeof *word) {
        app_fail(f->ctx, "%s: node %d: a handshake message of %zu bytes", f->app, f->node, n);
        return false;
    }
    return true;
}

double fb_cycles(double ns)
{
    double mhz = plat_core_clock_mhz(plat_core());
    return mhz > 0 ? ns * mhz / 1000.0 : ns;
}

const char *fb_cycle_unit(void)
{
    return plat_core_clock_mhz(plat_core()) > 0 ? "cycles" : "ns";
}

bool fb_alloc(struct fb *f, struct fb_buf *b, size_t n)
{
    b->p = plat_local_alloc(n, 64);
    b->local = b->p != NULL;
    if (!b->p) b->p = calloc(1, n);
    if (!b->p) app_fail(f->ctx, "%s: node %d: no memory for %zu bytes", f->app, f->node, n);
    return b->p != NULL;
}

void fb_free(struct fb_buf *b)
{
    if (b->p && b->local)
        plat_local_free(b->p);
    else
        free(b->p);
    b->p = NULL;
}
