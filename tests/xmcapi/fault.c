/* fault.c -- what must not hang or crash: a peer nobody runs, garbage and
 * truncated frames on a node's port, a peer that leaves mid-channel. */
#define _POSIX_C_SOURCE 200809L
#include "xmt.h"
#include "../../xmcapi/wire.h"
#include "../../xmcapi/xmcapi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Node 2 is listed but never runs: a get of its endpoint waits for it (as
 * MCAPI's get waits for an endpoint) and times out. Node 1 leaves after node
 * 0 got one endpoint of it and read the handle of another off the board:
 * sends to the other fail, promptly, and keep failing; the one it got was
 * deleted by the finalise, which node 0 learnt from the connection's end
 * (sends to it are refused). */
static void case_unreachable(void *arg)
{
    (void)arg;
    int me = plat_core();
    xmt_init_mode(1, MCAPI_XM_DIRECT);
    mcapi_status_t st;
    if (me == 0) {
        mcapi_endpoint_t ep = xmt_ep(1);
        uint64_t t0 = plat_now_ns();
        (void)mcapi_endpoint_get(XMT_DOMAIN, 2, 1, 100, &st);
        XMT_EQ(st, MCAPI_TIMEOUT);
        ck_assert_uint_ge(plat_now_ns() - t0, 100000000ull);
        mcapi_endpoint_t got = xmt_get(1, 1);
        harness_barrier(); /* node 1 leaves */
        harness_barrier();
        mcapi_endpoint_t one = (mcapi_endpoint_t)plat_load64(&harness_board()[0]);
        t0 = plat_now_ns();
        int sent = 0;
        do {
            mcapi_msg_send(ep, one, "x", 1, 1, &st);
            sent += st == MCAPI_SUCCESS;
        } while (st == MCAPI_SUCCESS && plat_now_ns() - t0 < 3000000000ull);
        XMT_EQ(st, MCAPI_ERR_TRANSMISSION);
        ck_assert_int_le(sent, 2);               /* at most what was on its way as the close came */
        mcapi_msg_send(ep, one, "x", 1, 1, &st); /* tries again, fails again */
        XMT_EQ(st, MCAPI_ERR_TRANSMISSION);
        mcapi_msg_send(ep, got, "x", 1, 1, &st);
        XMT_EQ(st, MCAPI_ERR_ENDP_INVALID);
        struct xmcapi_stats s;
        XMT_EQ(xmcapi_stats(&s), MCAPI_SUCCESS);
        ck_assert_uint_ge(s.conn_fails, 2);
    } else {
        (void)xmt_ep(1);
        plat_store64(&harness_board()[0], xmt_ep(2));
        harness_barrier();
        mcapi_finalize(&st);
        XMT_EQ(st, MCAPI_SUCCESS);
        harness_barrier();
    }
    harness_barrier();
    if (me == 0) {
        mcapi_finalize(&st);
        XMT_EQ(st, MCAPI_SUCCESS);
    }
}

/* Raw connections to node 1's port send garbage, a frame from a node not in
 * the topology, a frame cut short, a frame too big; each is closed, and
 * node 1 goes on serving node 0. */
static void case_garbage(void *arg)
{
    (void)arg;
    int me = plat_core();
    xmt_init();
    mcapi_endpoint_t ep = xmt_ep(1);
    mcapi_status_t st;
    if (me == 0) {
        char addr[32];
        xmt_addr(1, addr, sizeof addr);
        uint8_t hello[XW_HEADER_SIZE], big[XW_HEADER_SIZE], stranger[XW_HEADER_SIZE];
        struct xw_header h = {.type = XW_HELLO,
                              .src_domain = XMT_DOMAIN,
                              .src_node = 0,
                              .dst_domain = XMT_DOMAIN,
                              .dst_node = 1};
        xw_encode(&h, hello);
        h.src_node = 40;
        xw_encode(&h, stranger);
        h = (struct xw_header){.type = XW_MSG,
                               .port = 1,
                               .size = 70000,
                               .src_domain = XMT_DOMAIN,
                               .dst_domain = XMT_DOMAIN,
                               .dst_node = 1};
        xw_encode(&h, big);
        struct {
            const void *p;
            size_t n;
        } junk[] = {{"GET / HTTP/1.0\r\n\r\n", 18},
                    {stranger, sizeof stranger},
                    {hello, 10},
                    {big, sizeof big}};
        for (size_t i = 0; i < HARNESS_COUNT(junk); i++) {
            int s = 0;
            plat_stream *c = plat_stream_connect(addr, HARNESS_WAIT_NS, &s);
            ck_assert_msg(c, "connect %s: %s", addr, plat_strerror(s));
            if (i == 3)
                ck_assert_int_eq(plat_stream_send(c, hello, sizeof hello, HARNESS_WAIT_NS),
                                 sizeof hello);
            ck_assert_int_eq(plat_stream_send(c, junk[i].p, junk[i].n, HARNESS_WAIT_NS),
                             (long)junk[i].n);
            if (i == 2) {
                plat_stream_close(c); /* truncated: ends inside the HELLO */
                continue;
            }
            char b[8];
            ck_assert_int_le(plat_stream_recv(c, b, sizeof b, HARNESS_WAIT_NS),
                             0); /* closed on us */
            plat_stream_close(c);
        }
        mcapi_msg_send(ep, xmt_get(1, 1), "ok", 2, 1, &st);
        XMT_EQ(st, MCAPI_SUCCESS);
    } else {
        char b[4];
        size_t got;
        mcapi_msg_recv(ep, b, sizeof b, &got, &st);
        XMT_EQ(st, MCAPI_SUCCESS);
        ck_assert_uint_eq(got, 2);
        struct xmcapi_stats s;
        XMT_EQ(xmcapi_stats(&s), MCAPI_SUCCESS);
        ck_assert_uint_eq(s.bad_frames, 4);
    }
    xmt_fini();
}

/* Node 1 finalises while node 0 waits on their channel: the wait ends with
 * an error, not never. Node 1 finalises only once node 0's receive end is
 * open and the first scalar is in: before that barrier, node 0's open could
 * meet the closed connection (MCAPI_ERR_TRANSMISSION; seen under TSan in
 * the fresh-clone CI), which is issue 18's question of when an open
 * completes, not this case's. */
static void case_peer_leaves(void *arg)
{
    (void)arg;
    int me = plat_core();
    xmt_init();
    mcapi_endpoint_t ep = xmt_ep(8);
    mcapi_status_t st;
    if (me == 0) {
        mcapi_sclchan_recv_hndl_t rx;
        mcapi_request_t r;
        mcapi_sclchan_recv_open_i(&rx, ep, &r, &st);
        XMT_EQ(mcx_done(&r, st, NULL), MCAPI_SUCCESS);
        (void)mcapi_sclchan_recv_uint32(rx, &st);
        XMT_EQ(st, MCAPI_SUCCESS);
        harness_barrier();                        /* node 1 may go */
        (void)mcapi_sclchan_recv_uint32(rx, &st); /* node 1 is gone by now */
        ck_assert_msg(st == MCAPI_ERR_CHAN_NOTOPEN || st == MCAPI_ERR_TRANSMISSION, "status %s",
                      mcx_name(st));
        harness_barrier();
        mcapi_finalize(&st);
        XMT_EQ(st, MCAPI_SUCCESS);
    } else {
        mcapi_request_t r;
        mcapi_sclchan_connect_i(ep, xmt_get(0, 8), &r, &st);
        XMT_EQ(mcx_done(&r, st, NULL), MCAPI_SUCCESS);
        mcapi_sclchan_send_hndl_t tx;
        mcapi_sclchan_send_open_i(&tx, ep, &r, &st);
        XMT_EQ(mcx_done(&r, st, NULL), MCAPI_SUCCESS);
        mcapi_sclchan_send_uint32(tx, 1, &st);
        XMT_EQ(st, MCAPI_SUCCESS);
        harness_barrier();   /* node 0 has its end open and the scalar */
        mcapi_finalize(&st); /* without closing */
        XMT_EQ(st, MCAPI_SUCCESS);
        harness_barrier();
    }
}

/* Node 1 finalises and starts again on the same address: node 0, which
 * talked to its first life, reaches the second (a get waits for the new
 * endpoint; the broken connection is replaced). */
static void case_peer_restarts(void *arg)
{
    (void)arg;
    int me = plat_core();
    xmt_init();
    mcapi_status_t st;
    mcapi_endpoint_t ep = xmt_ep(1);
    char buf[8];
    size_t got;
    for (int life = 0; life < 2; life++) {
        if (me == 0) {
            mcapi_endpoint_t peer = xmt_get(1, 1);
            mcapi_msg_send(ep, peer, "ping", 4, 1, &st);
            XMT_EQ(st, MCAPI_SUCCESS);
            mcapi_msg_recv(ep, buf, sizeof buf, &got, &st);
            XMT_EQ(st, MCAPI_SUCCESS);
            ck_assert_int_eq(buf[0], '0' + life);
        } else {
            mcapi_msg_recv(ep, buf, sizeof buf, &got, &st);
            XMT_EQ(st, MCAPI_SUCCESS);
            char c = (char)('0' + life);
            mcapi_msg_send(ep, xmt_get(0, 1), &c, 1, 1, &st);
            XMT_EQ(st, MCAPI_SUCCESS);
            if (life == 0) { /* die and come back */
                mcapi_finalize(&st);
                XMT_EQ(st, MCAPI_SUCCESS);
                mcapi_param_t param = {MCAPI_PARAM_INITIALIZER, .transport = MCAPI_TRANSPORT_XMCAPI,
                                       .topology = xmt_topology()};
                mcapi_info_t info;
                mcapi_initialize(XMT_DOMAIN, 1, NULL, &param, &info, &st);
                XMT_EQ(st, MCAPI_SUCCESS);
                ep = xmt_ep(1);
            }
        }
    }
    xmt_fini();
}

/* Which transport a node gets from libxmcapi.a (mcapi_ref/top/select.c
 * over xmcapi/xm_transports.c, XMCAPI's claim in xm_node.c): no
 * parameters and a topology that lists it, XMCAPI; parameters naming a
 * shared region, shared memory, topology or not. */
static void case_select(void *arg)
{
    (void)arg;
    xmt_init(); /* writes the topology */
    mcapi_status_t st;
    struct xmcapi_stats s;
    mcapi_finalize(&st);
    XMT_EQ(st, MCAPI_SUCCESS);
    ck_assert_int_eq(setenv("XMCAPI_TOPOLOGY", xmt_topology(), 1), 0);
    mcapi_info_t info;
    mcapi_initialize(XMT_DOMAIN, 0, NULL, NULL, &info, &st);
    XMT_EQ(st, MCAPI_SUCCESS);
    XMT_EQ(xmcapi_stats(&s), MCAPI_SUCCESS); /* on XMCAPI */
    mcapi_finalize(&st);
    char name[32];
    snprintf(name, sizeof name, "/xmt-select-%d", (int)getpid());
    mcapi_param_t shm = {MCAPI_PARAM_INITIALIZER, .shm_name = name};
    mcapi_initialize(XMT_DOMAIN, 0, NULL, &shm, &info, &st);
    XMT_EQ(st, MCAPI_SUCCESS);
    XMT_EQ(xmcapi_stats(&s), MCAPI_ERR_PARAMETER); /* on shared memory */
    mcapi_finalize(&st);
    unsetenv("XMCAPI_TOPOLOGY");
    mcapi_initialize(XMT_DOMAIN, 0, NULL, NULL, &info, &st);
    XMT_EQ(st, MCAPI_SUCCESS);
    XMT_EQ(xmcapi_stats(&s), MCAPI_ERR_PARAMETER); /* no topology: shared memory */
    xmt_fini();
}

void xmt_fault_cases(void)
{
    static const struct harness_case cases[] = {
        {.name = "unreachable", .core = case_unreachable, .cores = 2},
        {.name = "garbage", .core = case_garbage, .cores = 2},
        {.name = "peer_leaves", .core = case_peer_leaves, .cores = 2},
        {.name = "peer_restarts", .core = case_peer_restarts, .cores = 2},
        {.name = "select", .core = case_select, .cores = 1, .backends = HARNESS_NATIVE},
    };
    harness_add_cases("xmcapi", cases, HARNESS_COUNT(cases));
}
