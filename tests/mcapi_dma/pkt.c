/* pkt.c -- packet channels: the handshake, streaming with flow control,
 * a third node connecting, close in either order, reconnecting. */
#include "dt.h"

#include <stdlib.h>
#include <string.h>

#define DEPTH 4 /* the receiving end's buffers (docs/mcapi.md: DMA transport) */

static size_t pkt_len(unsigned i)
{
    return 1 + (i * 397u) % 4096u;
}

/* Send n packets of pkt_len(i) bytes, pattern i, on h. */
static void send_stream(mcapi_pktchan_send_hndl_t h, unsigned first, unsigned n)
{
    uint8_t *b = malloc(4096);
    ck_assert_ptr_nonnull(b);
    for (unsigned i = first; i < first + n; i++) {
        mcx_fill(b, pkt_len(i), i);
        mcapi_status_t st = 0;
        mcapi_pktchan_send(h, b, pkt_len(i), &st);
        DT_EQ_AT(st, MCAPI_SUCCESS, "packet %u", i);
    }
    free(b);
}

/* Receive n packets on h and check each (order, length, bytes). */
static void recv_stream(mcapi_pktchan_recv_hndl_t h, unsigned first, unsigned n)
{
    for (unsigned i = first; i < first + n; i++) {
        void *p = NULL;
        size_t got = 0;
        mcapi_status_t st = 0;
        mcapi_pktchan_recv(h, &p, &got, &st);
        DT_EQ_AT(st, MCAPI_SUCCESS, "packet %u", i);
        ck_assert_uint_eq(got, pkt_len(i));
        ck_assert_msg(mcx_bad(p, got, i) == got, "packet %u: bytes differ", i);
        st = 0;
        mcapi_pktchan_release(p, &st);
        DT_EQ(st, MCAPI_SUCCESS);
    }
}

/* Node 0 connects its endpoint to node 1's, both open (the handshake),
 * 200 packets of 1..4096 bytes stream through in order; the sender closes
 * first, the receiver gets what was sent and then MCAPI_ERR_CHAN_NOTOPEN. */
static void case_stream(void *arg)
{
    (void)arg;
    enum { N = 200 };
    int me = plat_core();
    dt_init();
    mcapi_endpoint_t ep = dt_ep(1);
    mcapi_status_t st;
    mcapi_request_t r;
    if (me == 0) {
        st = 0;
        mcapi_pktchan_connect_i(ep, dt_get(1, 1), &r, &st);
        DT_EQ(mcx_done(&r, st, NULL), MCAPI_SUCCESS);
        mcapi_pktchan_send_hndl_t h = dt_pkt_open_send(ep);
        mcapi_endp_attr_type_t t = 0;
        st = 0;
        mcapi_endpoint_get_attribute(ep, MCAPI_ENDP_ATTR_TYPE, &t, sizeof t, &st);
        DT_EQ(st, MCAPI_SUCCESS);
        ck_assert_uint_eq(t, MCAPI_ENDP_ATTR_TYPE_PKTCHAN);
        send_stream(h, 0, N);
        st = 0;
        mcapi_pktchan_send(h, "x", 5000, &st); /* more than the receiver's buffers */
        DT_EQ(st, MCAPI_ERR_PKT_SIZE);
        st = 0;
        mcapi_pktchan_send_close_i(h, &r, &st);
        DT_EQ(mcx_done(&r, st, NULL), MCAPI_SUCCESS);
        st = 0;
        mcapi_pktchan_send(h, "x", 1, &st);
        DT_EQ(st, MCAPI_ERR_CHAN_NOTOPEN);
        harness_barrier();
    } else {
        mcapi_pktchan_recv_hndl_t h = dt_pkt_open_recv(ep);
        recv_stream(h, 0, N);
        harness_barrier(); /* the sender has closed */
        void *p;
        size_t got;
        st = 0;
        mcapi_pktchan_recv(h, &p, &got, &st);
        DT_EQ(st, MCAPI_ERR_CHAN_NOTOPEN);
        st = 0;
        mcapi_pktchan_recv_close_i(h, &r, &st);
        DT_EQ(mcx_done(&r, st, NULL), MCAPI_SUCCESS);
    }
    harness_barrier();
    dt_fini();
}

/* Flow control: the sender has 10 sends under way, the receiver takes
 * DEPTH packets and keeps them: nothing more arrives (the sender has no
 * credit), and a blocking send times out; each release lets one more in.
 * With the handshake, so that the sender has its credits when its open
 * returns (its _i sends start at once, and nothing moves while it waits at
 * a barrier). */
static void flow(unsigned depth)
{
    enum { N = 10 };
    int me = plat_core();
    dt_init_handshake(depth == DEPTH ? 0 : depth);
    mcapi_endpoint_t ep = dt_ep(2);
    mcapi_status_t st;
    mcapi_request_t r;
    if (me == 0) {
        st = 0;
        mcapi_pktchan_connect_i(ep, dt_get(1, 2), &r, &st);
        DT_EQ(mcx_done(&r, st, NULL), MCAPI_SUCCESS);
        mcapi_pktchan_send_hndl_t h = dt_pkt_open_send(ep);
        static uint8_t b[N][64];
        mcapi_request_t req[N];
        for (unsigned i = 0; i < N; i++) {
            mcx_fill(b[i], sizeof b[i], i);
            st = 0;
            mcapi_pktchan_send_i(h, b[i], sizeof b[i], &req[i], &st);
            ck_assert_msg(st == MCAPI_SUCCESS || st == MCAPI_PENDING, "send_i %u: %s", i,
                          mcx_name(st));
        }
        harness_barrier(); /* the receiver holds depth */
        harness_barrier(); /* it has seen nothing more come */
        for (unsigned i = 0; i < N; i++)
            DT_EQ_AT(mcx_done(&req[i], MCAPI_PENDING, NULL), MCAPI_SUCCESS, "send %u", i);
        harness_barrier();                     /* everything was received and released */
        for (unsigned i = 0; i < depth; i++) { /* as many as the receiver has buffers */
            st = 0;
            mcapi_pktchan_send_i(h, b[i], sizeof b[i], &req[i], &st);
            DT_EQ_AT(mcx_done(&req[i], st, NULL), MCAPI_SUCCESS, "send %u", i);
        }
        harness_barrier(); /* the receiver holds them all */
        dt_set_timeout(ep, DT_SHORT_MS);
        uint64_t t0 = plat_now_ns();
        st = 0;
        mcapi_pktchan_send(h, b[0], 8, &st); /* no credit: waits, nothing is sent */
        DT_EQ(st, MCAPI_TIMEOUT);
        ck_assert_uint_ge(plat_now_ns() - t0, DT_SHORT_MS * 1000000ull);
        harness_barrier();
    } else {
        mcapi_pktchan_recv_hndl_t h = dt_pkt_open_recv(ep);
        void *held[N];
        size_t got;
        for (unsigned i = 0; i < depth; i++) {
            st = 0;
            mcapi_pktchan_recv(h, &held[i], &got, &st);
            DT_EQ_AT(st, MCAPI_SUCCESS, "packet %u", i);
            ck_assert_uint_eq(mcx_bad(held[i], got, i), 64);
        }
        harness_barrier();
        mcapi_request_t rr;
        st = 0;
        mcapi_pktchan_recv_i(h, &held[depth], &rr, &st);
        DT_EQ(st, MCAPI_PENDING);
        size_t n = 0;
        mcapi_status_t w = 0;
        ck_assert_int_eq(mcapi_wait(&rr, &n, DT_SHORT_MS, &w), MCAPI_FALSE);
        DT_EQ(w, MCAPI_TIMEOUT);
        st = 0;
        ck_assert_uint_eq(mcapi_pktchan_available(h, &st), 0);
        harness_barrier();
        for (unsigned i = depth; i < N; i++) {
            st = 0;
            mcapi_pktchan_release(held[i - depth], &st); /* one out, one in */
            DT_EQ(st, MCAPI_SUCCESS);
            if (i > depth) {
                st = 0;
                mcapi_pktchan_recv_i(h, &held[i], &rr, &st);
            }
            DT_EQ_AT(mcx_done(&rr, i > depth ? st : MCAPI_PENDING, &n), MCAPI_SUCCESS, "packet %u",
                     i);
            ck_assert_uint_eq(n, 64);
            ck_assert_msg(mcx_bad(held[i], n, i) == 64, "packet %u: bytes differ", i);
        }
        for (unsigned i = N - depth; i < N; i++) {
            st = 0;
            mcapi_pktchan_release(held[i], &st);
            DT_EQ(st, MCAPI_SUCCESS);
        }
        st = 0;
        mcapi_pktchan_release(held[0], &st); /* released already */
        DT_EQ(st, MCAPI_ERR_BUF_INVALID);
        harness_barrier();
        for (unsigned i = 0; i < depth; i++) {
            st = 0;
            mcapi_pktchan_recv(h, &held[i], &got, &st);
            DT_EQ_AT(st, MCAPI_SUCCESS, "again: packet %u", i);
        }
        harness_barrier();
        harness_barrier(); /* the sender's send timed out */
        st = 0;
        ck_assert_uint_eq(mcapi_pktchan_available(h, &st), 0); /* nothing of it came */
        for (unsigned i = 0; i < depth; i++) {
            st = 0;
            mcapi_pktchan_release(held[i], &st);
            DT_EQ(st, MCAPI_SUCCESS);
        }
    }
    harness_barrier();
    dt_fini();
}

static void case_flow(void *arg)
{
    (void)arg;
    flow(DEPTH);
}

/* mcapi_param_t.pkt_depth 1 (FUNCAPI's one-channel receive end): one packet
 * on its way, the next waits for the release's credit. */
static void case_flow_1(void *arg)
{
    (void)arg;
    flow(1);
}

/* Node 2 connects node 0's endpoint to node 1's; they open and exchange
 * packets; the receiver closes first and the sender's sends fail. */
static void case_third(void *arg)
{
    (void)arg;
    int me = plat_core();
    dt_init();
    mcapi_status_t st;
    mcapi_request_t r;
    if (me == 2) {
        st = 0;
        mcapi_pktchan_connect_i(dt_get(0, 3), dt_get(1, 4), &r, &st);
        DT_EQ(mcx_done(&r, st, NULL), MCAPI_SUCCESS);
        harness_barrier();
        harness_barrier();
        harness_barrier();
    } else if (me == 0) {
        mcapi_endpoint_t ep = dt_ep(3);
        harness_barrier();
        mcapi_pktchan_send_hndl_t h = dt_pkt_open_send(ep);
        send_stream(h, 0, 20);
        harness_barrier();
        harness_barrier(); /* the receiver has closed */
        st = MCAPI_SUCCESS;
        for (unsigned i = 0; i < 1000 && st == MCAPI_SUCCESS; i++) {
            st = 0;
            mcapi_pktchan_send(h, "late", 4, &st); /* until its CLOSE has arrived */
            if (st == MCAPI_SUCCESS) plat_sleep_ns(100000);
        }
        DT_EQ(st, MCAPI_ERR_CHAN_NOTOPEN);
        st = 0;
        mcapi_pktchan_send_close_i(h, &r, &st);
        DT_EQ(mcx_done(&r, st, NULL), MCAPI_SUCCESS);
    } else {
        mcapi_endpoint_t ep = dt_ep(4);
        harness_barrier();
        mcapi_pktchan_recv_hndl_t h = dt_pkt_open_recv(ep);
        recv_stream(h, 0, 20);
        harness_barrier();
        st = 0;
        mcapi_pktchan_recv_close_i(h, &r, &st);
        DT_EQ(mcx_done(&r, st, NULL), MCAPI_SUCCESS);
        harness_barrier();
    }
    harness_barrier();
    dt_fini();
}

/* Connect, stream, close (receiver first, with packets still in flight),
 * connect the same endpoints again: the old handles are dead, the new
 * channel carries the new packets only. The receiver, after closing, waits
 * inside MCAPI (for a message) while the packets in flight drain: transfers
 * to a node move only while it is in an MCAPI call. */
static void case_reconnect(void *arg)
{
    (void)arg;
    int me = plat_core();
    dt_init();
    mcapi_endpoint_t ep = dt_ep(1), side = dt_ep(2);
    mcapi_status_t st;
    mcapi_request_t r;
    for (unsigned round = 0; round < 3; round++) {
        if (me == 0) {
            st = 0;
            mcapi_pktchan_connect_i(ep, dt_get(1, 1), &r, &st);
            DT_EQ(mcx_done(&r, st, NULL), MCAPI_SUCCESS);
            mcapi_pktchan_send_hndl_t h = dt_pkt_open_send(ep);
            send_stream(h, round * 100, 10);
            /* Two more the receiver will not take before it closes. */
            static uint8_t b[2][16];
            mcapi_request_t q[2];
            for (unsigned i = 0; i < 2; i++) {
                st = 0;
                mcapi_pktchan_send_i(h, b[i], sizeof b[i], &q[i], &st);
                ck_assert_msg(st == MCAPI_SUCCESS || st == MCAPI_PENDING, "%s", mcx_name(st));
            }
            harness_barrier();
            harness_barrier(); /* the receiver closed */
            for (unsigned i = 0; i < 2; i++) {
                mcapi_status_t s2 = mcx_done(&q[i], MCAPI_PENDING, NULL);
                ck_assert_msg(s2 == MCAPI_SUCCESS || s2 == MCAPI_ERR_CHAN_NOTOPEN, "%s",
                              mcx_name(s2));
            }
            st = 0;
            mcapi_pktchan_send_close_i(h, &r, &st);
            DT_EQ(mcx_done(&r, st, NULL), MCAPI_SUCCESS);
            st = 0;
            mcapi_pktchan_send(h, "x", 1, &st);
            DT_EQ(st, MCAPI_ERR_CHAN_NOTOPEN);
            st = 0;
            mcapi_msg_send(side, dt_get(1, 2), "next", 5, 0, &st);
            DT_EQ(st, MCAPI_SUCCESS);
        } else {
            mcapi_pktchan_recv_hndl_t h = dt_pkt_open_recv(ep);
            recv_stream(h, round * 100, 10);
            harness_barrier();
            st = 0;
            mcapi_pktchan_recv_close_i(h, &r, &st);
            DT_EQ(mcx_done(&r, st, NULL), MCAPI_SUCCESS);
            void *p;
            size_t n;
            st = 0;
            mcapi_pktchan_recv(h, &p, &n, &st);
            DT_EQ(st, MCAPI_ERR_CHAN_NOTOPEN);
            harness_barrier();
            char m[8];
            st = 0;
            mcapi_msg_recv(side, m, sizeof m, &n, &st);
            DT_EQ(st, MCAPI_SUCCESS);
            ck_assert_str_eq(m, "next");
        }
        harness_barrier();
    }
    dt_fini();
}

/* A second connect to another node's end that this node linked to one of
 * its own is refused: that end is known here to be connected. */
static void case_connect_twice(void *arg)
{
    (void)arg;
    int me = plat_core();
    dt_init();
    mcapi_endpoint_t ep = dt_ep(1), other = dt_ep(2);
    mcapi_status_t st;
    mcapi_request_t r;
    harness_barrier();
    if (me == 0) {
        st = 0;
        mcapi_pktchan_connect_i(ep, dt_get(1, 1), &r, &st);
        DT_EQ(mcx_done(&r, st, NULL), MCAPI_SUCCESS);
        st = 0;
        mcapi_pktchan_connect_i(other, dt_get(1, 1), &r, &st);
        DT_EQ(mcx_done(&r, st, NULL), MCAPI_ERR_CHAN_CONNECTED);
        st = 0;
        mcapi_sclchan_connect_i(dt_get(1, 1), other, &r, &st);
        DT_EQ(mcx_done(&r, st, NULL), MCAPI_ERR_CHAN_CONNECTED);
        st = 0;
        mcapi_pktchan_connect_i(other, dt_get(1, 2), &r, &st); /* a free one still connects */
        DT_EQ(mcx_done(&r, st, NULL), MCAPI_SUCCESS);
    }
    harness_barrier();
    dt_fini();
}

/* Both ends on one node: opens issued together, the handshake is local. */
static void case_local(void *arg)
{
    (void)arg;
    dt_init();
    mcapi_endpoint_t tx = dt_ep(1), rx = dt_ep(2);
    mcapi_status_t st = 0;
    mcapi_request_t r, ro[2];
    mcapi_pktchan_connect_i(tx, rx, &r, &st);
    DT_EQ(mcx_done(&r, st, NULL), MCAPI_SUCCESS);
    mcapi_pktchan_send_hndl_t sh = 0;
    mcapi_pktchan_recv_hndl_t rh = 0;
    mcapi_status_t s1 = 0, s2 = 0;
    mcapi_pktchan_send_open_i(&sh, tx, &ro[0], &s1);
    mcapi_pktchan_recv_open_i(&rh, rx, &ro[1], &s2);
    DT_EQ(mcx_done(&ro[0], s1, NULL), MCAPI_SUCCESS);
    DT_EQ(mcx_done(&ro[1], s2, NULL), MCAPI_SUCCESS);
    for (unsigned i = 0; i < 30; i++) {
        uint8_t b[100];
        mcx_fill(b, sizeof b, i);
        st = 0;
        mcapi_request_t q;
        mcapi_pktchan_send_i(sh, b, sizeof b, &q, &st);
        void *p = NULL;
        size_t n = 0;
        mcapi_status_t rs = 0;
        mcapi_pktchan_recv(rh, &p, &n, &rs);
        DT_EQ_AT(rs, MCAPI_SUCCESS, "packet %u", i);
        DT_EQ(mcx_done(&q, st, NULL), MCAPI_SUCCESS);
        ck_assert_uint_eq(n, sizeof b);
        ck_assert_uint_eq(mcx_bad(p, n, i), n);
        rs = 0;
        mcapi_pktchan_release(p, &rs);
        DT_EQ(rs, MCAPI_SUCCESS);
    }
    dt_fini(); /* closes both ends */
}

void dt_pkt_cases(void)
{
    static const struct harness_case cases[] = {
        {.name = "pkt_stream", .core = case_stream, .cores = 2},
        {.name = "pkt_flow", .core = case_flow, .cores = 2},
        {.name = "pkt_flow_1", .core = case_flow_1, .cores = 2},
        {.name = "pkt_third", .core = case_third, .cores = 3},
        {.name = "pkt_reconnect", .core = case_reconnect, .cores = 2},
        {.name = "pkt_connect_twice", .core = case_connect_twice, .cores = 2},
        {.name = "pkt_local", .core = case_local, .cores = 1},
    };
    harness_add_cases("mcapi_dma", cases, HARNESS_COUNT(cases));
}
