/* dt.c -- helpers of the DMA transport's cases. */
#include "dt.h"

#include <string.h>

double dt_num(const void *arg, const char *path)
{
    double v;
    ck_assert_msg(
        conf_number(conf_get(conf_root(((const struct harness_env *)arg)->platform), path), &v),
        "platform has no number at %s", path);
    return v;
}

unsigned dt_routes(struct mcapi_route *r, const struct mcapi_route *extra, unsigned nextra)
{
    unsigned n = 0;
    for (int c = 0; c < plat_cores() && n < DT_MAX_ROUTES; c++)
        r[n++] = (struct mcapi_route){DT_DOMAIN, (mca_node_t)c, MCAPI_ROUTE_DMA, NULL, c};
    for (unsigned i = 0; i < nextra && n < DT_MAX_ROUTES; i++) r[n++] = extra[i];
    return n;
}

mcapi_status_t dt_try_init_depth(mcapi_node_t node, const struct mcapi_route *routes, unsigned n,
                                 unsigned pkt_depth, unsigned handshake)
{
    mcapi_info_t info;
    mcapi_param_t p = {
        MCAPI_PARAM_INITIALIZER,          .routes = routes,       .nroutes = n,
        .transport = MCAPI_TRANSPORT_DMA, .pkt_depth = pkt_depth, .dma_handshake = handshake};
    mcapi_status_t st = 0;
    mcapi_initialize(DT_DOMAIN, node, NULL, &p, &info, &st);
    return st;
}

mcapi_status_t dt_try_init(mcapi_node_t node, const struct mcapi_route *routes, unsigned n)
{
    return dt_try_init_depth(node, routes, n, 0, 0);
}

void dt_init_map(mcapi_node_t node, const struct mcapi_route *routes, unsigned n)
{
    DT_EQ_AT(dt_try_init(node, routes, n), MCAPI_SUCCESS, "initialise node %u", node);
}

static void init(unsigned pkt_depth, unsigned handshake)
{
    struct mcapi_route r[DT_MAX_ROUTES];
    unsigned n = dt_routes(r, NULL, 0);
    mcapi_node_t me = (mcapi_node_t)plat_core();
    DT_EQ_AT(dt_try_init_depth(me, r, n, pkt_depth, handshake), MCAPI_SUCCESS, "initialise node %u",
             me);
}

void dt_init_depth(unsigned pkt_depth)
{
    init(pkt_depth, 0);
}

void dt_init_handshake(unsigned pkt_depth)
{
    init(pkt_depth, 1);
}

void dt_init(void)
{
    dt_init_depth(0);
}

void dt_fini(void)
{
    mcapi_status_t st = 0;
    mcapi_finalize(&st);
    DT_EQ(st, MCAPI_SUCCESS);
}

void dt_set_timeout(mcapi_endpoint_t ep, mcapi_timeout_t ms)
{
    mcapi_status_t st = 0;
    mcapi_endpoint_set_attribute(ep, MCAPI_ENDP_ATTR_TIMEOUT, &ms, sizeof ms, &st);
    DT_EQ(st, MCAPI_SUCCESS);
}

void dt_set_memtype(mcapi_endpoint_t ep, mcapi_endp_attr_memory_type_t t)
{
    mcapi_status_t st = 0;
    mcapi_endpoint_set_attribute(ep, MCAPI_ENDP_ATTR_MEMORY_TYPE, &t, sizeof t, &st);
    DT_EQ(st, MCAPI_SUCCESS);
}

mcapi_endpoint_t dt_ep(mcapi_port_t port)
{
    mcapi_status_t st = 0;
    mcapi_endpoint_t ep = mcapi_endpoint_create(port, &st);
    DT_EQ_AT(st, MCAPI_SUCCESS, "create port %u", port);
    dt_set_timeout(ep, DT_WAIT_MS);
    return ep;
}

mcapi_endpoint_t dt_get(mcapi_node_t node, mcapi_port_t port)
{
    mcapi_status_t st = 0;
    mcapi_endpoint_t ep = mcapi_endpoint_get(DT_DOMAIN, node, port, MCAPI_TIMEOUT_IMMEDIATE, &st);
    DT_EQ_AT(st, MCAPI_SUCCESS, "get <%u, %u>", node, port);
    return ep;
}

mcapi_pktchan_send_hndl_t dt_pkt_open_send(mcapi_endpoint_t tx)
{
    return mcx_open(0, 0, tx);
}
mcapi_pktchan_recv_hndl_t dt_pkt_open_recv(mcapi_endpoint_t rx)
{
    return mcx_open(0, 1, rx);
}
mcapi_sclchan_send_hndl_t dt_scl_open_send(mcapi_endpoint_t tx)
{
    return mcx_open(1, 0, tx);
}
mcapi_sclchan_recv_hndl_t dt_scl_open_recv(mcapi_endpoint_t rx)
{
    return mcx_open(1, 1, rx);
}
