/*
 * top/select.c -- which transport a node uses (libmcapi.a).
 *
 * libxmcapi.a holds every object of libmcapi.a but this one, and its own
 * xmcapi/xm_select.c, which also knows MCAPI_TRANSPORT_XMCAPI: linking a
 * program with libxmcapi.a instead of libmcapi.a is all it takes to reach
 * other hosts.
 */
#include "top.h"

const struct mcapi_transport *top_transport(const mcapi_param_t *param, mcapi_domain_t dom,
                                            mcapi_node_t node)
{
    (void)dom;
    (void)node;
    if (!param || param->transport == MCAPI_TRANSPORT_SHM) return &mcapi_shm_transport;
    if (param->transport == MCAPI_TRANSPORT_DMA) return &mcapi_dma_transport;
    return NULL; /* XMCAPI is in libxmcapi.a; anything else is not a transport */
}
