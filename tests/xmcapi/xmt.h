/*
 * tests/xmcapi/xmt.h -- shared by the XMCAPI transport's cases.
 *
 * Every case runs natively (nodes are threads of one process talking over
 * loopback TCP) and in simulation (the ideal platform's network), from
 * one source: node i is core i of domain XMT_DOMAIN, listed in a topology
 * file that core 0 writes before the nodes start (xmt_init).
 */
#ifndef IPCSIM_TESTS_XMT_H
#define IPCSIM_TESTS_XMT_H

#include "harness.h"
#include "mcx.h"
#include "ipcsim/plat.h"
#include "mcapi.h"

#include <stddef.h>
#include <stdint.h>

#define XMT_DOMAIN 1
#define XMT_WAIT_MS 10000u

#define XMT_EQ(st, want)                                                                           \
    do {                                                                                           \
        mcapi_status_t x_s_ = (st), x_w_ = (want);                                                 \
        ck_assert_msg(x_s_ == x_w_, "status %s, expected %s", mcx_name(x_s_), mcx_name(x_w_));     \
    } while (0)

/* Write the topology (every core of the run, plus `extra` listed nodes
 * nobody runs), then initialise node plat_core() with notification mode
 * `notify`. */
void xmt_init_mode(unsigned extra, enum mcapi_xm_notify notify);
void xmt_init(void);
const char *xmt_topology(void); /* the file xmt_init_mode wrote */
void xmt_fini(void);
/* The host:port node n listens on (for raw connections). */
void xmt_addr(unsigned n, char *buf, size_t len);

mcapi_endpoint_t xmt_ep(mcapi_port_t port); /* with MCAPI_ENDP_ATTR_TIMEOUT = XMT_WAIT_MS */
mcapi_endpoint_t xmt_get(mcapi_node_t node, mcapi_port_t port);

/* The transport's counters of the calling node (xmcapi/xmcapi.h). */
struct xmcapi_stats;

void xmt_msg_cases(void);
void xmt_chan_cases(void);
void xmt_fault_cases(void);

#endif
