/*
 * xmcapi/xmcapi.h -- XMCAPI's own additions to the MCAPI API.
 *
 * XMCAPI is MCAPI: a program uses mcapi.h unchanged, and reaches nodes in
 * other processes and on other hosts when it is linked with libxmcapi.a
 * and a topology file lists the nodes (mcapi_param_t.topology or the
 * environment variable XMCAPI_TOPOLOGY; docs/xmcapi.md). This header adds
 * only what MCAPI has no call for: the transport's counters.
 */
#ifndef XMCAPI_XMCAPI_H
#define XMCAPI_XMCAPI_H

#include "mcapi.h"

#include <stdint.h>

struct xmcapi_stats {
    uint64_t stops_sent;      /* STOP ACKs this node sent: a queue of it filled */
    uint64_t resumes_sent;    /* RESUME ACKs it sent */
    uint64_t stops_got;       /* STOP ACKs it received: it was held back */
    uint64_t bad_frames;      /* frames refused (the connection was closed) */
    uint64_t conn_fails;      /* connections that failed or could not be made */
    uint64_t credit_waits;    /* sends held back: no credit left for their remote endpoint */
    uint64_t credits_sent;    /* XW_CREDIT frames sent (most credits ride on messages) */
    uint64_t pkt_bufs_reused; /* large packets read into a buffer released before (XM_SPARE) */
};

/* The counters of the calling thread's node. MCAPI_SUCCESS, or
 * MCAPI_ERR_NODE_NOTINIT, or MCAPI_ERR_PARAMETER if the node does not use
 * the XMCAPI transport (or stats is NULL). */
mcapi_status_t xmcapi_stats(struct xmcapi_stats *stats);

#endif
