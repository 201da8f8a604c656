/*
 * tests/mcapi/mt.h -- shared by the MCAPI 2.0 conformance cases.
 *
 * Every file of this folder holds the cases of one topic of mcapi.h and an
 * mt_<topic>() that registers them (harness_add_cases "mcapi"); register.c
 * calls them all. A case runs natively and in simulation from this one
 * source (ideal platform, one MCAPI node per core: node = core index, domain
 * MT_DOMAIN), unless it says otherwise. Statuses are compared symbolically
 * (the published headers disagree on their numbers) and printed by name.
 *
 * Waits that must succeed use MT_WAIT_MS ("forever" that cannot hang the
 * suite); waits that must time out use MT_SHORT_MS.
 */
#ifndef IPCSIM_TESTS_MT_H
#define IPCSIM_TESTS_MT_H

#include "harness.h"
#include "ipcsim/plat.h"
#include "mcapi.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MT_DOMAIN 1
#define MT_MS 1000000ull       /* ns */
#define MT_WAIT_MS 10000u      /* ms: must not expire */
#define MT_SHORT_MS 20u        /* ms: expected to expire */
#define MT_GARBAGE 0xDEADBEEFu /* a handle no call ever gave out */

/* The name of a status ("MCAPI_ERR_PARAMETER"), for failure messages. */
const char *mt_name(mcapi_status_t st);

/* Fail unless status st equals want, naming both. */
#define MT_EQ(st, want)                                                                            \
    do {                                                                                           \
        mcapi_status_t mt_s_ = (st), mt_w_ = (want);                                               \
        ck_assert_msg(mt_s_ == mt_w_, "status %s, expected %s", mt_name(mt_s_), mt_name(mt_w_));   \
    } while (0)

/* The same with a note saying which step (an index, a size...). */
#define MT_EQ_AT(st, want, fmt, ...)                                                               \
    do {                                                                                           \
        mcapi_status_t mt_s_ = (st), mt_w_ = (want);                                               \
        ck_assert_msg(mt_s_ == mt_w_, "status %s, expected %s (" fmt ")", mt_name(mt_s_),          \
                      mt_name(mt_w_), __VA_ARGS__);                                                \
    } while (0)

static inline const struct harness_env *mt_env(const void *arg)
{
    return arg;
}
static inline bool mt_sim(const void *arg)
{
    return mt_env(arg)->backend == PLAT_SIM;
}
/* A number of the run's platform file; fails the test if it is absent. */
double mt_num(const void *arg, const char *path);

/* Register cases once per transport (tp.c): suites mcapi-*, mcapi-dma-*,
 * mcapi-xm-*, less the cases a transport lists as skipped, with why. */
void mt_add(const struct harness_case *cases, size_t n);
/* The transport the running case runs over. */
enum mcapi_transport_kind mt_transport(void);
/* The parameters that select it (NULL for shared memory: the defaults). */
mcapi_param_t *mt_params(void);

/* Node n of MT_DOMAIN with default attributes and the transport's
 * parameters. */
void mt_init(mcapi_node_t n);
void mt_fini(void);

/* An endpoint of the calling node on port (MCAPI_PORT_ANY allowed), with
 * MCAPI_ENDP_ATTR_TIMEOUT = MT_WAIT_MS so that blocking calls on it cannot
 * hang the suite. */
mcapi_endpoint_t mt_ep(mcapi_port_t port);
/* <MT_DOMAIN, node, port>, waiting up to MT_WAIT_MS for it to exist. */
mcapi_endpoint_t mt_get(mcapi_node_t node, mcapi_port_t port);
void mt_set_timeout(mcapi_endpoint_t ep, mcapi_timeout_t ms);
void mt_set_memtype(mcapi_endpoint_t ep, mcapi_endp_attr_memory_type_t t);

/* The final status of an _i call that reported st: st itself if that is an
 * error, else what waiting (MT_WAIT_MS) on its request reports. size may be
 * NULL. */
mcapi_status_t mt_done(mcapi_request_t *r, mcapi_status_t st, size_t *size);

/* Channels between the calling node's endpoints tx -> rx, open on both
 * sides. */
void mt_pkt_local(mcapi_endpoint_t tx, mcapi_endpoint_t rx, mcapi_pktchan_send_hndl_t *sh,
                  mcapi_pktchan_recv_hndl_t *rh);
void mt_scl_local(mcapi_endpoint_t tx, mcapi_endpoint_t rx, mcapi_sclchan_send_hndl_t *sh,
                  mcapi_sclchan_recv_hndl_t *rh);
/* One side of a channel whose other side another node opens at the same
 * time (the open completes once both sides have opened). */
mcapi_pktchan_send_hndl_t mt_pkt_open_send(mcapi_endpoint_t tx);
mcapi_pktchan_recv_hndl_t mt_pkt_open_recv(mcapi_endpoint_t rx);
mcapi_sclchan_send_hndl_t mt_scl_open_send(mcapi_endpoint_t tx);
mcapi_sclchan_recv_hndl_t mt_scl_open_recv(mcapi_endpoint_t rx);
/* Close a side and wait for the close to complete. */
void mt_pkt_close_send(mcapi_pktchan_send_hndl_t h);
void mt_pkt_close_recv(mcapi_pktchan_recv_hndl_t h);
void mt_scl_close_send(mcapi_sclchan_send_hndl_t h);
void mt_scl_close_recv(mcapi_sclchan_recv_hndl_t h);

/* Wait (up to MT_WAIT_MS) until n messages, packets or scalars are
 * available on an endpoint or receive handle, then check there are
 * exactly n: a transport may still have them on the way after the sender
 * returned (a socket, a DMA engine), and available counts what arrived. */
enum mt_kind { MT_MSG, MT_PKT, MT_SCL };
void mt_arrived(enum mt_kind kind, mcapi_uint32_t h, unsigned n);

/* A byte pattern that differs per seed and offset; mt_bad gives the first
 * offset that does not match, or n. */
void mt_fill(void *p, size_t n, unsigned seed);
size_t mt_bad(const void *p, size_t n, unsigned seed);

/* Milliseconds since t0 (plat_now_ns), as a double for messages. */
double mt_ms_since(uint64_t t0);

/* Pointers and handles through the harness board. */
static inline void mt_put(int word, uint64_t v)
{
    plat_store64(&harness_board()[word], v);
}
static inline uint64_t mt_take(int word)
{
    return plat_load64(&harness_board()[word]);
}

void mt_node(void);
void mt_endpoint(void);
void mt_attributes(void);
void mt_messages(void);
void mt_pktchan(void);
void mt_sclchan(void);
void mt_requests(void);
void mt_limits(void);
void mt_errors(void);
void mt_threads(void);
void mt_process(void);
void mt_timeouts(void);
void mt_virtual(void);
void mt_simtime(void);
void mt_churn(void);
void mt_pool(void);
void mt_porting(void);
void mt_crash(void);
void mt_shm_repair(void);

/* pool.c: node n of MT_DOMAIN with a packet pool of pkt_buffers packets and
 * pkt_pool_bytes bytes (0: the defaults). */
void mt_init_pool(mcapi_node_t n, unsigned pkt_buffers, size_t pkt_pool_bytes);

#endif
