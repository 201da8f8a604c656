/*
 * xmcapi/xm_transports.c -- the transports libxmcapi.a holds, for
 * mcapi_ref/top/select.c.
 *
 * libmcapi.a's table (mcapi_ref/transport/transports.c) with XMCAPI added;
 * it takes that table's place in libxmcapi.a. XMCAPI claims a node that
 * names no transport when its topology file lists the node (xm_claims), so
 * an unmodified MCAPI program reaches other hosts by being linked with
 * libxmcapi.a and run with XMCAPI_TOPOLOGY set.
 */
#include "xm.h"

const struct mcapi_transport *const mcapi_transports[] = {
    &mcapi_shm_transport, &mcapi_dma_transport, &mcapi_xm_transport, NULL};
