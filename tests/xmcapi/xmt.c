/* xmt.c -- helpers of the XMCAPI transport's cases. */
#include "xmt.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Ports from the process id: runs of the suite at the same time (plain,
 * ASan, TSan) do not meet. Below 32768, Linux's first ephemeral port: the
 * local port of another test's connection (still open, or closing) cannot
 * hold the listener's port then. */
static unsigned base_port(void)
{
    return 20000u + (unsigned)(getpid() % 750) * 16u;
}

void xmt_addr(unsigned n, char *buf, size_t len)
{
    snprintf(buf, len, "127.0.0.1:%u", base_port() + n);
}

static char topo_path[64];

void xmt_init_mode(unsigned extra, enum mcapi_xm_notify notify)
{
    uint64_t *board = harness_board();
    if (plat_core() == 0) {
        snprintf(topo_path, sizeof topo_path, "/tmp/xmt-%d.yaml", (int)getpid());
        FILE *f = fopen(topo_path, "w");
        ck_assert_ptr_nonnull(f);
        fprintf(f, "nodes:\n");
        for (unsigned i = 0; i < (unsigned)plat_cores() + extra; i++)
            fprintf(f, "  - {domain: %d, node: %u, host: 127.0.0.1, port: %u}\n", XMT_DOMAIN, i,
                    base_port() + i);
        fclose(f);
        plat_store64(&board[255], 1);
    }
    harness_barrier();
    mcapi_param_t param = {MCAPI_PARAM_INITIALIZER, .transport = MCAPI_TRANSPORT_XMCAPI,
                           .topology = topo_path, .xm_notify = notify};
    mcapi_info_t info;
    mcapi_status_t st = 0;
    mcapi_initialize(XMT_DOMAIN, (mcapi_node_t)plat_core(), NULL, &param, &info, &st);
    XMT_EQ(st, MCAPI_SUCCESS);
    harness_barrier(); /* everyone listens before anyone connects */
}

const char *xmt_topology(void)
{
    return topo_path;
}

void xmt_init(void)
{
    xmt_init_mode(0, MCAPI_XM_DIRECT);
}

void xmt_fini(void)
{
    harness_barrier(); /* nobody leaves while another still talks to it */
    mcapi_status_t st = 0;
    mcapi_finalize(&st);
    XMT_EQ(st, MCAPI_SUCCESS);
    harness_barrier();
    if (plat_core() == 0) unlink(topo_path);
}

mcapi_endpoint_t xmt_ep(mcapi_port_t port)
{
    mcapi_status_t st = 0;
    mcapi_endpoint_t ep = mcapi_endpoint_create(port, &st);
    XMT_EQ(st, MCAPI_SUCCESS);
    mcapi_timeout_t t = XMT_WAIT_MS;
    mcapi_endpoint_set_attribute(ep, MCAPI_ENDP_ATTR_TIMEOUT, &t, sizeof t, &st);
    XMT_EQ(st, MCAPI_SUCCESS);
    return ep;
}

mcapi_endpoint_t xmt_get(mcapi_node_t node, mcapi_port_t port)
{
    mcapi_status_t st = 0;
    mcapi_endpoint_t ep = mcapi_endpoint_get(XMT_DOMAIN, node, port, XMT_WAIT_MS, &st);
    XMT_EQ(st, MCAPI_SUCCESS);
    return ep;
}
