/* chan.c -- packet and scalar channels over XMCAPI: sizes up to 64 KiB
 * (read straight into the buffer the receiver is handed), a packet flood
 * past the receive end's depth, scalars of every width, a connect by a
 * third node, and close: the receiver drains, then learns it. */
#include "xmt.h"
#include "../../xmcapi/xmcapi.h"

#include <stdlib.h>
#include <string.h>

static const size_t psizes[] = {0, 1, 24, 1000, 4096, 65535, 65536};

static void connect(int scl, mcapi_endpoint_t tx, mcapi_endpoint_t rx)
{
    mcapi_request_t r;
    mcapi_status_t st = 0;
    if (scl)
        mcapi_sclchan_connect_i(tx, rx, &r, &st);
    else
        mcapi_pktchan_connect_i(tx, rx, &r, &st);
    XMT_EQ(mcx_done(&r, st, NULL), MCAPI_SUCCESS);
}

/* Node 0's end of a packet channel from its endpoint ep to node 1's on port. */
static mcapi_pktchan_send_hndl_t pkt_tx(mcapi_endpoint_t ep, mcapi_port_t port)
{
    connect(0, ep, xmt_get(1, port));
    return mcx_open(0, 0, ep);
}

#define PKT_FLOOD 400

static void case_pkt(void *arg)
{
    (void)arg;
    int me = plat_core();
    xmt_init();
    mcapi_endpoint_t ep = xmt_ep(5);
    mcapi_status_t st;
    if (me == 0) {
        mcapi_pktchan_send_hndl_t tx = pkt_tx(ep, 5);
        uint8_t *buf = malloc(65536);
        ck_assert_ptr_nonnull(buf);
        for (size_t i = 0; i < HARNESS_COUNT(psizes); i++) {
            mcx_fill(buf, psizes[i], (unsigned)i);
            mcapi_pktchan_send(tx, buf, psizes[i], &st);
            XMT_EQ(st, MCAPI_SUCCESS);
        }
        for (uint32_t i = 0; i < PKT_FLOOD; i++) {
            size_t n = 4 + (i * 977u) % 8000u;
            memcpy(buf, &i, 4);
            mcx_fill(buf + 4, n - 4, i);
            mcapi_pktchan_send(tx, buf, n, &st);
            XMT_EQ(st, MCAPI_SUCCESS);
        }
        mcapi_pktchan_send_close_i(tx, &(mcapi_request_t){0}, &st);
        XMT_EQ(st, MCAPI_SUCCESS);
        free(buf);
    } else {
        mcapi_pktchan_recv_hndl_t rx = mcx_open(0, 1, ep);
        void *p;
        size_t got;
        for (size_t i = 0; i < HARNESS_COUNT(psizes); i++) {
            mcapi_pktchan_recv(rx, &p, &got, &st);
            XMT_EQ(st, MCAPI_SUCCESS);
            ck_assert_uint_eq(got, psizes[i]);
            ck_assert_uint_eq(mcx_bad(p, got, (unsigned)i), got);
            mcapi_pktchan_release(p, &st);
            XMT_EQ(st, MCAPI_SUCCESS);
            mcapi_pktchan_release(p, &st);
            XMT_EQ(st, MCAPI_ERR_BUF_INVALID);
        }
        plat_sleep_ns(100000000); /* 0.1 s: the flood passes the depth */
        for (uint32_t i = 0; i < PKT_FLOOD; i++) {
            mcapi_pktchan_recv(rx, &p, &got, &st);
            XMT_EQ(st, MCAPI_SUCCESS);
            uint32_t seq;
            memcpy(&seq, p, 4);
            ck_assert_uint_eq(seq, i);
            ck_assert_uint_eq(got, 4 + (i * 977u) % 8000u);
            ck_assert_uint_eq(mcx_bad((uint8_t *)p + 4, got - 4, i), got - 4);
            mcapi_pktchan_release(p, &st);
        }
        /* The sender closed: empty, and closed. */
        mcapi_pktchan_recv(rx, &p, &got, &st);
        XMT_EQ(st, MCAPI_ERR_CHAN_NOTOPEN);
        struct xmcapi_stats s;
        XMT_EQ(xmcapi_stats(&s), MCAPI_SUCCESS);
        ck_assert_uint_gt(s.stops_sent, 0);
        mcapi_endpoint_delete(ep, &st); /* its channel end is open */
        XMT_EQ(st, MCAPI_ERR_CHAN_OPEN);
        mcapi_pktchan_recv_close_i(rx, &(mcapi_request_t){0}, &st);
        XMT_EQ(st, MCAPI_SUCCESS);
        mcapi_pktchan_recv(rx, &p, &got, &st); /* a closed end's handle */
        XMT_EQ(st, MCAPI_ERR_CHAN_NOTOPEN);
    }
    xmt_fini();
}

#define STREAM 3000

/* A stream of numbered 1 KiB packets read as fast as they come: the
 * receive end fills and drains over and over, so STOP and RESUME cross
 * hundreds of times. A RESUME once sat in the output buffer for ever when
 * the communicator's own kick was read with the user thread's (PIPE mode),
 * and the sender hung. */
static void stream(enum mcapi_xm_notify mode)
{
    int me = plat_core();
    xmt_init_mode(0, mode);
    mcapi_endpoint_t ep = xmt_ep(9);
    mcapi_status_t st;
    uint8_t buf[1024];
    if (me == 0) {
        mcapi_pktchan_send_hndl_t tx = pkt_tx(ep, 9);
        for (uint32_t i = 0; i < STREAM; i++) {
            memcpy(buf, &i, 4);
            mcapi_pktchan_send(tx, buf, sizeof buf, &st);
            XMT_EQ(st, MCAPI_SUCCESS);
        }
    } else {
        mcapi_pktchan_recv_hndl_t rx = mcx_open(0, 1, ep);
        for (uint32_t i = 0; i < STREAM; i++) {
            void *p;
            size_t got;
            uint32_t seq;
            mcapi_pktchan_recv(rx, &p, &got, &st);
            XMT_EQ(st, MCAPI_SUCCESS);
            memcpy(&seq, p, 4);
            ck_assert_uint_eq(seq, i);
            mcapi_pktchan_release(p, &st);
        }
    }
    xmt_fini();
}

static void case_stream_pipe(void *arg)
{
    (void)arg;
    stream(MCAPI_XM_PIPE);
}

static void case_stream_wake(void *arg)
{
    (void)arg;
    stream(MCAPI_XM_WAKE);
}

static void case_scl(void *arg)
{
    (void)arg;
    int me = plat_core();
    xmt_init();
    mcapi_endpoint_t ep = xmt_ep(6);
    mcapi_status_t st;
    const uint64_t v = 0x0123456789abcdefull;
    if (me == 0) {
        mcapi_sclchan_send_hndl_t tx;
        connect(1, ep, xmt_get(1, 6));
        tx = mcx_open(1, 0, ep);
        for (unsigned i = 0; i < 1000; i++) {
            mcapi_sclchan_send_uint64(tx, v + i, &st);
            XMT_EQ(st, MCAPI_SUCCESS);
            mcapi_sclchan_send_uint32(tx, (uint32_t)(v + i), &st);
            mcapi_sclchan_send_uint16(tx, (uint16_t)(v + i), &st);
            mcapi_sclchan_send_uint8(tx, (uint8_t)(v + i), &st);
            XMT_EQ(st, MCAPI_SUCCESS);
        }
        mcapi_sclchan_send_uint32(tx, 7, &st);
    } else {
        mcapi_sclchan_recv_hndl_t rx = mcx_open(1, 1, ep);
        for (unsigned i = 0; i < 1000; i++) {
            ck_assert_uint_eq(mcapi_sclchan_recv_uint64(rx, &st), v + i);
            XMT_EQ(st, MCAPI_SUCCESS);
            ck_assert_uint_eq(mcapi_sclchan_recv_uint32(rx, &st), (uint32_t)(v + i));
            ck_assert_uint_eq(mcapi_sclchan_recv_uint16(rx, &st), (uint16_t)(v + i));
            ck_assert_uint_eq(mcapi_sclchan_recv_uint8(rx, &st), (uint8_t)(v + i));
            XMT_EQ(st, MCAPI_SUCCESS);
        }
        (void)mcapi_sclchan_recv_uint8(rx, &st); /* a 32-bit one waits: stays queued */
        XMT_EQ(st, MCAPI_ERR_SCL_SIZE);
        ck_assert_uint_eq(mcapi_sclchan_recv_uint32(rx, &st), 7);
    }
    xmt_fini();
}

#define HELD 40

/* Large packets (a node uses their freed buffers again) mixed with small
 * ones, sent while the receiver sleeps (they wait in the socket and past
 * the receive end's depth), then received up to three at a time and
 * released out of order: each is checked whole when it is released, after
 * later packets came, so a buffer handed out again while the application
 * still held it shows. */
static void case_pkt_held(void *arg)
{
    (void)arg;
    static const size_t sizes[] = {16384, 65536, 100, 20000, 65535, 16383};
    int me = plat_core();
    xmt_init();
    mcapi_endpoint_t ep = xmt_ep(6);
    mcapi_status_t st;
    if (me == 0) {
        mcapi_pktchan_send_hndl_t tx = pkt_tx(ep, 6);
        static uint8_t buf[65536]; /* node 0's alone */
        for (unsigned i = 0; i < HELD; i++) {
            size_t n = sizes[i % HARNESS_COUNT(sizes)];
            mcx_fill(buf, n, i);
            mcapi_pktchan_send(tx, buf, n, &st);
            XMT_EQ(st, MCAPI_SUCCESS);
        }
        harness_barrier(); /* all received and released */
        for (unsigned i = 0; i < 3; i++) {
            mcx_fill(buf, 65536, HELD + i);
            mcapi_pktchan_send(tx, buf, 65536, &st);
            XMT_EQ(st, MCAPI_SUCCESS);
        }
    } else {
        mcapi_pktchan_recv_hndl_t rx = mcx_open(0, 1, ep);
        plat_sleep_ns(100000000); /* 0.1 s: the sender fills the socket and the depth */
        void *p[3] = {0};
        size_t got[3];
        unsigned seq[3];
        for (unsigned i = 0; i < HELD + 3; i++) {
            static const unsigned order[] = {0, 1, 2, 1, 1, 0, 2, 0, 1, 2, 2, 1};
            unsigned k = order[i % HARNESS_COUNT(order)]; /* the slot released and refilled */
            if (p[k]) {
                ck_assert_uint_eq(got[k], sizes[seq[k] % HARNESS_COUNT(sizes)]);
                ck_assert_uint_eq(mcx_bad(p[k], got[k], seq[k]), got[k]);
                mcapi_pktchan_release(p[k], &st);
                XMT_EQ(st, MCAPI_SUCCESS);
                p[k] = NULL;
            }
            if (i >= HELD) continue;
            mcapi_pktchan_recv(rx, &p[k], &got[k], &st);
            XMT_EQ(st, MCAPI_SUCCESS);
            seq[k] = i;
        }
        for (unsigned k = 0; k < 3; k++) ck_assert_ptr_null(p[k]);
        /* Now every large buffer is released: the next three are read into
         * three of them. */
        struct xmcapi_stats s0, s1;
        XMT_EQ(xmcapi_stats(&s0), MCAPI_SUCCESS);
        harness_barrier();
        for (unsigned i = 0; i < 3; i++) {
            mcapi_pktchan_recv(rx, &p[0], &got[0], &st);
            XMT_EQ(st, MCAPI_SUCCESS);
            ck_assert_uint_eq(got[0], 65536);
            ck_assert_uint_eq(mcx_bad(p[0], 65536, HELD + i), 65536);
            mcapi_pktchan_release(p[0], &st);
            XMT_EQ(st, MCAPI_SUCCESS);
        }
        XMT_EQ(xmcapi_stats(&s1), MCAPI_SUCCESS);
        ck_assert_uint_eq(s1.pkt_bufs_reused - s0.pkt_bufs_reused, 3);
    }
    xmt_fini();
}

/* Node 2 connects node 0's endpoint to node 1's; they only open. */
static void case_third_party(void *arg)
{
    (void)arg;
    int me = plat_core();
    xmt_init();
    mcapi_status_t st;
    if (me == 2) {
        connect(0, xmt_get(0, 7), xmt_get(1, 7));
        mcapi_request_t r;
        mcapi_pktchan_connect_i(xmt_get(0, 7), xmt_get(1, 7), &r, &st); /* again */
        XMT_EQ(mcx_done(&r, st, NULL), MCAPI_ERR_CHAN_CONNECTED);
    } else {
        mcapi_endpoint_t ep = xmt_ep(7);
        if (me == 0) {
            mcapi_pktchan_send_hndl_t tx = mcx_open(0, 0, ep);
            mcapi_pktchan_send(tx, "third", 5, &st);
            XMT_EQ(st, MCAPI_SUCCESS);
        } else {
            mcapi_pktchan_recv_hndl_t rx = mcx_open(0, 1, ep);
            void *p;
            size_t got;
            mcapi_pktchan_recv(rx, &p, &got, &st);
            XMT_EQ(st, MCAPI_SUCCESS);
            ck_assert_uint_eq(got, 5);
            ck_assert_int_eq(memcmp(p, "third", 5), 0);
            mcapi_pktchan_release(p, &st);
        }
    }
    xmt_fini();
}

void xmt_chan_cases(void)
{
    static const struct harness_case cases[] = {
        {.name = "pkt", .core = case_pkt, .cores = 2},
        {.name = "pkt_held", .core = case_pkt_held, .cores = 2},
        {.name = "stream_pipe", .core = case_stream_pipe, .cores = 2},
        {.name = "stream_wake", .core = case_stream_wake, .cores = 2},
        {.name = "scl", .core = case_scl, .cores = 2},
        {.name = "third_party_connect", .core = case_third_party, .cores = 3},
    };
    harness_add_cases("xmcapi", cases, HARNESS_COUNT(cases));
}
