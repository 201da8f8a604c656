/*
 * tests/mcapi_dma/dt.h -- shared by the DMA transport's cases.
 *
 * Every case runs natively and in simulation (ideal platform, 8 receive
 * channels per core) from one source. Unless a case says otherwise, node i
 * runs on core i of domain DT_DOMAIN, and the mapping lists one
 * MCAPI_ROUTE_DMA line per core (dt_init); with one node per core a node
 * has ports 0 .. 6 (channel 0 of its core is its control channel).
 * Waits that must succeed use DT_WAIT_MS; waits that must time out
 * DT_SHORT_MS.
 */
#ifndef IPCSIM_TESTS_DT_H
#define IPCSIM_TESTS_DT_H

#include "harness.h"
#include "mcx.h"
#include "ipcsim/plat.h"
#include "mcapi.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DT_DOMAIN 1
#define DT_WAIT_MS 10000u
#define DT_SHORT_MS 20u
#define DT_GARBAGE 0xDEADBEEFu
#define DT_PORTS_IDEAL 7 /* 8 channels, one node per core: control + 7 ports */
#define DT_MAX_ROUTES 8

#define DT_EQ(st, want)                                                                            \
    do {                                                                                           \
        mcapi_status_t dt_s_ = (st), dt_w_ = (want);                                               \
        ck_assert_msg(dt_s_ == dt_w_, "status %s, expected %s", mcx_name(dt_s_), mcx_name(dt_w_)); \
    } while (0)

#define DT_EQ_AT(st, want, fmt, ...)                                                               \
    do {                                                                                           \
        mcapi_status_t dt_s_ = (st), dt_w_ = (want);                                               \
        ck_assert_msg(dt_s_ == dt_w_, "status %s, expected %s (" fmt ")", mcx_name(dt_s_),         \
                      mcx_name(dt_w_), __VA_ARGS__);                                               \
    } while (0)

static inline bool dt_sim(const void *arg)
{
    return ((const struct harness_env *)arg)->backend == PLAT_SIM;
}
double dt_num(const void *arg, const char *path);

/* The default mapping: node i on core i for every core of the run, plus
 * `extra` lines (virtual nodes). Returns the number of lines. */
unsigned dt_routes(struct mcapi_route *r, const struct mcapi_route *extra, unsigned nextra);
/* Initialise node with the mapping routes[0..n-1], MCAPI_TRANSPORT_DMA. */
mcapi_status_t dt_try_init(mcapi_node_t node, const struct mcapi_route *routes, unsigned n);
/* The same with mcapi_param_t.pkt_depth (0: the transport's default) and
 * .dma_handshake. */
mcapi_status_t dt_try_init_depth(mcapi_node_t node, const struct mcapi_route *routes, unsigned n,
                                 unsigned pkt_depth, unsigned handshake);
void dt_init_map(mcapi_node_t node, const struct mcapi_route *routes, unsigned n);
/* Node plat_core() with the default mapping. */
void dt_init(void);
void dt_init_depth(unsigned pkt_depth); /* dt_init with mcapi_param_t.pkt_depth */
/* dt_init_depth with mcapi_param_t.dma_handshake set: an open completes
 * when the other end has opened too (FUNCAPI's two-way handshake). */
void dt_init_handshake(unsigned pkt_depth);
void dt_fini(void);

/* An endpoint on port with MCAPI_ENDP_ATTR_TIMEOUT = DT_WAIT_MS. */
mcapi_endpoint_t dt_ep(mcapi_port_t port);
/* <DT_DOMAIN, node, port>: succeeds at once (static mapping). */
mcapi_endpoint_t dt_get(mcapi_node_t node, mcapi_port_t port);
void dt_set_timeout(mcapi_endpoint_t ep, mcapi_timeout_t ms);
void dt_set_memtype(mcapi_endpoint_t ep, mcapi_endp_attr_memory_type_t t);

/* Channel ends whose other end another node opens at the same time. */
mcapi_pktchan_send_hndl_t dt_pkt_open_send(mcapi_endpoint_t tx);
mcapi_pktchan_recv_hndl_t dt_pkt_open_recv(mcapi_endpoint_t rx);
mcapi_sclchan_send_hndl_t dt_scl_open_send(mcapi_endpoint_t tx);
mcapi_sclchan_recv_hndl_t dt_scl_open_recv(mcapi_endpoint_t rx);

static inline void dt_put(int word, uint64_t v)
{
    plat_store64(&harness_board()[word], v);
}
static inline uint64_t dt_take(int word)
{
    return plat_load64(&harness_board()[word]);
}

void dt_node_cases(void);
void dt_msg_cases(void);
void dt_pkt_cases(void);
void dt_scl_cases(void);
void dt_req_cases(void);
void dt_map_cases(void);
void dt_err_cases(void);
void dt_time_cases(void);

#endif
