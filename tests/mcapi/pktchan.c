/* pktchan.c -- packet channels: connect, open, send/recv, release, close. */
#include "mt.h"

#include <stdlib.h>
#include <string.h>

static const size_t sizes[] = {1, 2, 100, 1024, 4096, 65535, MCAPI_MAX_PKT_SIZE};

/* Core 0 connects its endpoint to core 1's; an open completes once the
 * channel is connected, before the other side opens, and a packet sent
 * then waits for the receiver; packets of every size arrive intact; closing
 * both sides tears the channel down so the endpoints connect again. */
static void case_basic(void *arg)
{
    (void)arg;
    int me = plat_core();
    mt_init((mcapi_node_t)me);
    mcapi_endpoint_t ep = mt_ep(1);
    mcapi_status_t st;
    mcapi_request_t r;
    size_t size;
    harness_barrier();
    if (me == 0) {
        mcapi_endpoint_t rx = mt_get(1, 1);
        st = 0;
        mcapi_pktchan_connect_i(ep, rx, &r, &st);
        MT_EQ(mt_done(&r, st, NULL), MCAPI_SUCCESS);
        st = 0;
        mcapi_pktchan_connect_i(ep, rx, &r, &st);
        MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_CHAN_CONNECTED);
        mcapi_endpoint_t other = mt_ep(2);
        st = 0;
        mcapi_pktchan_connect_i(other, rx, &r, &st);
        MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_CHAN_CONNECTED);
        st = 0;
        mcapi_sclchan_connect_i(ep, rx, &r, &st);
        MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_CHAN_CONNECTED);
    }
    harness_barrier(); /* 1: connected */

    /* Node 0 opens first: done at once (connected), and it sends before
     * node 1 has opened its side; the packet waits in node 1's queue. */
    mcapi_pktchan_send_hndl_t sh = 0;
    mcapi_pktchan_recv_hndl_t rh = 0;
    if (me == 0) {
        st = 0;
        mcapi_pktchan_send_open_i(&sh, ep, &r, &st);
        MT_EQ(mt_done(&r, st, NULL), MCAPI_SUCCESS);
        st = 0;
        mcapi_pktchan_send(sh, "early", 6, &st);
        MT_EQ(st, MCAPI_SUCCESS);
    }
    harness_barrier(); /* 2 */
    if (me == 1) {
        rh = mt_pkt_open_recv(ep);
        void *p = NULL;
        st = 0;
        mcapi_pktchan_recv(rh, &p, &size, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        ck_assert_uint_eq(size, 6);
        ck_assert_str_eq(p, "early");
        mcapi_pktchan_release(p, &st);
        MT_EQ(st, MCAPI_SUCCESS);
    }
    harness_barrier(); /* 3: open */

    uint8_t *buf = malloc(MCAPI_MAX_PKT_SIZE + 1);
    ck_assert_ptr_nonnull(buf);
    for (size_t i = 0; i < HARNESS_COUNT(sizes); i++) {
        size_t n = sizes[i];
        if (me == 0) {
            mt_fill(buf, n, (unsigned)i);
            st = 0;
            if (i % 2) {
                mcapi_pktchan_send(sh, buf, n, &st);
                MT_EQ_AT(st, MCAPI_SUCCESS, "send %zu bytes", n);
            } else {
                mcapi_pktchan_send_i(sh, buf, n, &r, &st);
                size = 0;
                MT_EQ_AT(mt_done(&r, st, &size), MCAPI_SUCCESS, "send_i %zu bytes", n);
                ck_assert_uint_eq(size, n);
            }
        } else {
            void *p = NULL;
            size = 0;
            st = 0;
            if (i % 3) {
                mcapi_pktchan_recv(rh, &p, &size, &st);
                MT_EQ_AT(st, MCAPI_SUCCESS, "recv %zu bytes", n);
            } else {
                mcapi_pktchan_recv_i(rh, &p, &r, &st);
                MT_EQ_AT(mt_done(&r, st, &size), MCAPI_SUCCESS, "recv_i %zu bytes", n);
            }
            ck_assert_uint_eq(size, n);
            ck_assert_ptr_nonnull(p);
            ck_assert_uint_eq(mt_bad(p, n, (unsigned)i), n);
            st = 0;
            mcapi_pktchan_release(p, &st);
            MT_EQ(st, MCAPI_SUCCESS);
        }
    }
    if (me == 0) {
        st = 0;
        mcapi_pktchan_send(sh, buf, MCAPI_MAX_PKT_SIZE + 1, &st);
        MT_EQ(st, MCAPI_ERR_PKT_SIZE);
        st = 0;
        mcapi_pktchan_send_i(sh, buf, MCAPI_MAX_PKT_SIZE + 1, &r, &st);
        MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_PKT_SIZE);
        st = 0;
        mcapi_pktchan_send(sh, NULL, 10, &st);
        MT_EQ(st, MCAPI_ERR_PARAMETER);
        for (int k = 0; k < 3; k++) {
            st = 0;
            mcapi_pktchan_send(sh, buf, 10, &st);
            MT_EQ(st, MCAPI_SUCCESS);
        }
    }
    harness_barrier(); /* 4: three packets sent (over TCP maybe not arrived) */
    if (me == 1) {
        mt_arrived(MT_PKT, rh, 3);
        for (int k = 0; k < 3; k++) {
            void *p;
            st = 0;
            mcapi_pktchan_recv(rh, &p, &size, &st);
            MT_EQ(st, MCAPI_SUCCESS);
            ck_assert_uint_eq(size, 10);
            mcapi_pktchan_release(p, &st);
        }
        st = 0;
        ck_assert_uint_eq(mcapi_pktchan_available(rh, &st), 0);
        MT_EQ(st, MCAPI_SUCCESS);
    }
    harness_barrier(); /* 5: close */
    if (me == 0) {
        mt_pkt_close_send(sh);
        st = 0;
        mcapi_pktchan_send_close_i(sh, &r, &st);
        MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_CHAN_NOTOPEN);
        st = 0;
        mcapi_pktchan_send(sh, buf, 10, &st);
        MT_EQ(st, MCAPI_ERR_CHAN_NOTOPEN);
    } else {
        mt_pkt_close_recv(rh);
        st = 0;
        mcapi_pktchan_recv_close_i(rh, &r, &st);
        MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_CHAN_NOTOPEN);
        void *p;
        st = 0;
        mcapi_pktchan_recv(rh, &p, &size, &st);
        MT_EQ(st, MCAPI_ERR_CHAN_NOTOPEN);
        st = 0;
        mcapi_pktchan_available(rh, &st);
        MT_EQ(st, MCAPI_ERR_CHAN_NOTOPEN);
    }
    harness_barrier(); /* 6: both closed: the endpoints are free again */
    if (me == 0) {
        mcapi_endpoint_t rx = mt_get(1, 1);
        st = 0;
        mcapi_pktchan_connect_i(ep, rx, &r, &st);
        MT_EQ(mt_done(&r, st, NULL), MCAPI_SUCCESS);
    }
    harness_barrier();
    mcapi_pktchan_send_hndl_t old_sh = sh;
    mcapi_pktchan_recv_hndl_t old_rh = rh;
    if (me == 0) sh = mt_pkt_open_send(ep);
    if (me == 1) rh = mt_pkt_open_recv(ep);
    /* The handles of the first opening are stale now (docs/mcapi.md). */
    if (me == 0) {
        ck_assert_uint_ne(sh, old_sh);
        st = 0;
        mcapi_pktchan_send(old_sh, buf, 10, &st);
        MT_EQ(st, MCAPI_ERR_CHAN_INVALID);
        mt_put(1, sh);
    } else {
        ck_assert_uint_ne(rh, old_rh);
        st = 0;
        mcapi_pktchan_available(old_rh, &st);
        MT_EQ(st, MCAPI_ERR_CHAN_INVALID);
    }
    harness_barrier();
    /* Channel handles are their node's. */
    if (me == 1) {
        st = 0;
        mcapi_pktchan_send((mcapi_pktchan_send_hndl_t)mt_take(1), buf, 10, &st);
        MT_EQ(st, MCAPI_ERR_CHAN_INVALID);
    }
    harness_barrier();
    if (me == 0) {
        mt_fill(buf, 50, 9);
        st = 0;
        mcapi_pktchan_send(sh, buf, 50, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        mt_pkt_close_send(sh);
    } else {
        void *p;
        st = 0;
        mcapi_pktchan_recv(rh, &p, &size, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        ck_assert_uint_eq(size, 50);
        ck_assert_uint_eq(mt_bad(p, 50, 9), 50);
        mcapi_pktchan_release(p, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        mt_pkt_close_recv(rh);
    }
    free(buf);
    harness_barrier();
    mt_fini();
}

/* Messages to another node's endpoint that is a channel's end arrive,
 * also one queued there before the connect (docs/mcapi.md: messages and
 * channels are independent). */
static void case_msg_to_end(void *arg)
{
    (void)arg;
    int me = plat_core();
    mt_init((mcapi_node_t)me);
    mcapi_endpoint_t ep = mt_ep(1);
    mcapi_status_t st = MCAPI_SUCCESS;
    mcapi_pktchan_send_hndl_t sh = 0;
    mcapi_pktchan_recv_hndl_t rh = 0;
    mcapi_endpoint_t to = me == 0 ? mt_get(1, 1) : 0;
    if (me == 0) mcapi_msg_send(ep, to, "early", 6, 1, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    if (me == 1) {
        mt_arrived(MT_MSG, ep, 1);
        mt_pkt_local(mt_ep(2), ep, &sh, &rh);
    }
    harness_barrier(); /* node 1's endpoint is a channel's receive end */
    if (me == 0) mcapi_msg_send(ep, to, "late", 5, 1, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    if (me == 1) {
        static const char *const want[] = {"early", "late"};
        for (int i = 0; i < 2; i++) {
            char b[8] = "";
            size_t got;
            st = 0;
            mcapi_msg_recv(ep, b, sizeof b, &got, &st);
            MT_EQ_AT(st, MCAPI_SUCCESS, "message %d", i);
            ck_assert_str_eq(b, want[i]);
        }
        mt_pkt_close_send(sh);
        mt_pkt_close_recv(rh);
    }
    harness_barrier();
    mt_fini();
}

/* Wrong channel type, wrong direction, incompatible attributes, garbage
 * endpoints and handles. */
static void case_errors(void *arg)
{
    (void)arg;
    mt_init(0);
    mcapi_endpoint_t tx = mt_ep(1), rx = mt_ep(2);
    mcapi_status_t st = 0;
    mcapi_request_t r;
    mcapi_pktchan_connect_i(tx, rx, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_SUCCESS);

    mcapi_sclchan_send_hndl_t ssh;
    mcapi_sclchan_recv_hndl_t srh;
    st = 0;
    mcapi_sclchan_send_open_i(&ssh, tx, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_CHAN_TYPE);
    st = 0;
    mcapi_sclchan_recv_open_i(&srh, rx, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_CHAN_TYPE);
    mcapi_pktchan_send_hndl_t sh;
    mcapi_pktchan_recv_hndl_t rh;
    st = 0;
    mcapi_pktchan_recv_open_i(&rh, tx, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_CHAN_DIRECTION);
    st = 0;
    mcapi_pktchan_send_open_i(&sh, rx, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_CHAN_DIRECTION);

    /* The channel still opens the right way; a second open once it is
     * open is refused. */
    mcapi_request_t rs, rr, r2;
    mcapi_status_t ss = 0, sr = 0;
    mcapi_pktchan_send_open_i(&sh, tx, &rs, &ss);
    MT_EQ(mt_done(&rs, ss, NULL), MCAPI_SUCCESS);
    mcapi_pktchan_send_hndl_t sh2;
    st = 0;
    mcapi_pktchan_send_open_i(&sh2, tx, &r2, &st);
    MT_EQ(mt_done(&r2, st, NULL), MCAPI_ERR_CHAN_OPEN);
    mcapi_pktchan_recv_open_i(&rh, rx, &rr, &sr);
    MT_EQ(mt_done(&rr, sr, NULL), MCAPI_SUCCESS);
    ck_assert_uint_ne(sh, rh);
    /* Open: neither endpoint can be connected again. */
    mcapi_endpoint_t third = mt_ep(5);
    st = 0;
    mcapi_pktchan_connect_i(third, rx, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_CHAN_CONNECTED);
    st = 0;
    mcapi_pktchan_connect_i(tx, third, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_CHAN_CONNECTED);
    char b[4] = "abc";
    st = 0;
    mcapi_pktchan_send(sh, b, sizeof b, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    void *p;
    size_t size;
    st = 0;
    mcapi_pktchan_recv(rh, &p, &size, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    ck_assert_uint_eq(size, sizeof b);
    ck_assert_str_eq(p, "abc");
    mcapi_pktchan_release(p, &st);

    /* Connected endpoints still take messages (docs/mcapi.md). */
    st = 0;
    mcapi_msg_send(tx, rx, "msg", 4, 1, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    char mb[8] = "";
    st = 0;
    mcapi_msg_recv(rx, mb, sizeof mb, &size, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    ck_assert_str_eq(mb, "msg");

    /* Handles of the wrong kind (docs/mcapi.md): close says which way it
     * is wrong, the others do not know the handle. */
    st = 0;
    mcapi_pktchan_send_close_i(rh, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_CHAN_DIRECTION);
    st = 0;
    mcapi_pktchan_recv_close_i(sh, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_CHAN_DIRECTION);
    st = 0;
    mcapi_sclchan_send_close_i(sh, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_CHAN_TYPE);
    st = 0;
    mcapi_pktchan_send(rh, b, sizeof b, &st);
    MT_EQ(st, MCAPI_ERR_CHAN_INVALID);
    st = 0;
    mcapi_pktchan_recv(sh, &p, &size, &st);
    MT_EQ(st, MCAPI_ERR_CHAN_INVALID);
    st = 0;
    mcapi_sclchan_send_uint8(sh, 1, &st);
    MT_EQ(st, MCAPI_ERR_CHAN_INVALID);
    st = 0;
    mcapi_sclchan_available(rh, &st);
    MT_EQ(st, MCAPI_ERR_CHAN_INVALID);

    /* Garbage channel handles. */
    static const mcapi_uint32_t garbage[] = {0, MT_GARBAGE, 0xFFFFFFFFu};
    for (size_t i = 0; i < HARNESS_COUNT(garbage); i++) {
        mcapi_uint32_t g = garbage[i];
        st = 0;
        mcapi_pktchan_send(g, b, sizeof b, &st);
        MT_EQ_AT(st, MCAPI_ERR_CHAN_INVALID, "send on %#x", g);
        st = 0;
        mcapi_pktchan_send_i(g, b, sizeof b, &r, &st);
        MT_EQ_AT(mt_done(&r, st, NULL), MCAPI_ERR_CHAN_INVALID, "send_i on %#x", g);
        st = 0;
        mcapi_pktchan_recv(g, &p, &size, &st);
        MT_EQ_AT(st, MCAPI_ERR_CHAN_INVALID, "recv on %#x", g);
        st = 0;
        mcapi_pktchan_recv_i(g, &p, &r, &st);
        MT_EQ_AT(mt_done(&r, st, NULL), MCAPI_ERR_CHAN_INVALID, "recv_i on %#x", g);
        st = 0;
        mcapi_pktchan_available(g, &st);
        MT_EQ_AT(st, MCAPI_ERR_CHAN_INVALID, "available on %#x", g);
        st = 0;
        mcapi_pktchan_send_close_i(g, &r, &st);
        MT_EQ_AT(mt_done(&r, st, NULL), MCAPI_ERR_CHAN_INVALID, "send_close_i on %#x", g);
        st = 0;
        mcapi_pktchan_recv_close_i(g, &r, &st);
        MT_EQ_AT(mt_done(&r, st, NULL), MCAPI_ERR_CHAN_INVALID, "recv_close_i on %#x", g);
    }
    mt_pkt_close_send(sh);
    mt_pkt_close_recv(rh);

    /* Garbage endpoints. */
    st = 0;
    mcapi_pktchan_connect_i(MT_GARBAGE, rx, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_ENDP_INVALID);
    st = 0;
    mcapi_pktchan_connect_i(tx, MT_GARBAGE, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_ENDP_INVALID);
    st = 0;
    mcapi_pktchan_send_open_i(&sh, MT_GARBAGE, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_ENDP_INVALID);
    st = 0;
    mcapi_pktchan_recv_open_i(&rh, MT_GARBAGE, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_ENDP_INVALID);

    /* Channel compatibility: different priorities do not connect. */
    mcapi_endpoint_t a = mt_ep(6), c = mt_ep(7);
    mcapi_endp_attr_priority_t pa = 1, pc = 2;
    st = 0;
    mcapi_endpoint_set_attribute(a, MCAPI_ENDP_ATTR_PRIORITY, &pa, sizeof pa, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    st = 0;
    mcapi_endpoint_set_attribute(c, MCAPI_ENDP_ATTR_PRIORITY, &pc, sizeof pc, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    st = 0;
    mcapi_pktchan_connect_i(a, c, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_ATTR_INCOMPATIBLE);
    st = 0;
    mcapi_sclchan_connect_i(a, c, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_ATTR_INCOMPATIBLE);
    st = 0;
    mcapi_endpoint_set_attribute(c, MCAPI_ENDP_ATTR_PRIORITY, &pa, sizeof pa, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    st = 0;
    mcapi_pktchan_connect_i(a, c, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_SUCCESS);
    mt_fini();
}

/* Close completes at once. Closing the sending side leaves what is queued
 * to be received, then receives say MCAPI_ERR_CHAN_NOTOPEN; closing the
 * receiving side drops what is queued (the buffers come back) and sends
 * say MCAPI_ERR_CHAN_NOTOPEN (docs/mcapi.md). */
static void case_close(void *arg)
{
    (void)arg;
    mt_init(0);
    mcapi_endpoint_t tx = mt_ep(1), rx = mt_ep(2);
    mcapi_pktchan_send_hndl_t sh;
    mcapi_pktchan_recv_hndl_t rh;
    mt_pkt_local(tx, rx, &sh, &rh);
    char b[8] = "pkt";
    mcapi_status_t st;
    for (int i = 0; i < 3; i++) {
        st = 0;
        mcapi_pktchan_send(sh, b, sizeof b, &st);
        MT_EQ(st, MCAPI_SUCCESS);
    }
    mt_pkt_close_send(sh);
    void *p;
    size_t n;
    for (int i = 0; i < 3; i++) {
        st = 0;
        mcapi_pktchan_recv(rh, &p, &n, &st);
        MT_EQ_AT(st, MCAPI_SUCCESS, "packet %d", i);
        mcapi_pktchan_release(p, &st);
    }
    uint64_t t0 = plat_now_ns();
    st = 0;
    mcapi_pktchan_recv(rh, &p, &n, &st);
    MT_EQ(st, MCAPI_ERR_CHAN_NOTOPEN);
    ck_assert_msg(plat_now_ns() - t0 < MT_WAIT_MS * MT_MS / 2, "receive waited %.0f ms",
                  mt_ms_since(t0));
    mt_pkt_close_recv(rh);

    /* The receiver closes with a full queue: the sender learns it, and the
     * packet pool is whole again. */
    mt_set_memtype(tx, MCAPI_ENDP_ATTR_LOCAL_MEMORY | MCAPI_ENDP_ATTR_FAIL_ON_MEM_LIMIT);
    mt_pkt_local(tx, rx, &sh, &rh);
    for (int i = 0; i < MCAPI_MAX_QUEUE_ELEMENTS; i++) {
        st = 0;
        mcapi_pktchan_send(sh, b, sizeof b, &st);
        MT_EQ_AT(st, MCAPI_SUCCESS, "packet %d", i);
    }
    mt_pkt_close_recv(rh);
    st = 0;
    mcapi_pktchan_send(sh, b, sizeof b, &st);
    MT_EQ(st, MCAPI_ERR_CHAN_NOTOPEN);
    mt_pkt_close_send(sh);
    mt_pkt_local(tx, rx, &sh, &rh);
    for (int i = 0; i < MCAPI_MAX_QUEUE_ELEMENTS; i++) {
        st = 0;
        mcapi_pktchan_send(sh, b, sizeof b, &st);
        MT_EQ_AT(st, MCAPI_SUCCESS, "again: packet %d", i);
    }
    mt_fini();
}

/* Opens may come before the connect; they complete once it is made. A
 * connected endpoint whose end is not open can be deleted. */
static void case_open_first(void *arg)
{
    (void)arg;
    mt_init(0);
    mcapi_endpoint_t tx = mt_ep(1), rx = mt_ep(2);
    mcapi_pktchan_send_hndl_t sh;
    mcapi_pktchan_recv_hndl_t rh;
    mcapi_request_t rs, rr, rc;
    mcapi_status_t ss = 0, sr = 0, sc = 0;
    mcapi_pktchan_send_open_i(&sh, tx, &rs, &ss);
    MT_EQ(ss, MCAPI_PENDING);
    mcapi_pktchan_send_hndl_t sh2;
    mcapi_request_t r2;
    mcapi_status_t s2 = 0;
    mcapi_pktchan_send_open_i(&sh2, tx, &r2, &s2); /* a second while pending */
    MT_EQ(mt_done(&r2, s2, NULL), MCAPI_ERR_CHAN_OPENPENDING);
    mcapi_pktchan_recv_open_i(&rh, rx, &rr, &sr);
    MT_EQ(sr, MCAPI_PENDING);
    mcapi_pktchan_connect_i(tx, rx, &rc, &sc);
    MT_EQ(mt_done(&rc, sc, NULL), MCAPI_SUCCESS);
    MT_EQ(mt_done(&rs, ss, NULL), MCAPI_SUCCESS);
    MT_EQ(mt_done(&rr, sr, NULL), MCAPI_SUCCESS);
    mcapi_status_t st = 0;
    mcapi_pktchan_send(sh, "x", 2, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    mt_arrived(MT_PKT, rh, 1);
    mt_pkt_close_send(sh);
    mt_pkt_close_recv(rh);

    mcapi_endpoint_t a = mt_ep(3), c = mt_ep(4);
    st = 0;
    mcapi_pktchan_connect_i(a, c, &rc, &st);
    MT_EQ(mt_done(&rc, st, NULL), MCAPI_SUCCESS);
    st = 0;
    mcapi_endpoint_delete(a, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    mt_fini();
}

/* Buffers handed out by a receive go back with release exactly once;
 * anything else is MCAPI_ERR_BUF_INVALID. */
static void case_release(void *arg)
{
    (void)arg;
    mt_init(0);
    mcapi_endpoint_t tx = mt_ep(1), rx = mt_ep(2);
    mcapi_pktchan_send_hndl_t sh;
    mcapi_pktchan_recv_hndl_t rh;
    mt_pkt_local(tx, rx, &sh, &rh);
    uint8_t b[64];
    mt_fill(b, sizeof b, 1);
    mcapi_status_t st = 0;
    mcapi_pktchan_send(sh, b, sizeof b, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    void *p = NULL;
    size_t size = 0;
    st = 0;
    mcapi_pktchan_recv(rh, &p, &size, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    ck_assert_ptr_nonnull(p);
    ck_assert_ptr_ne(p, b);

    st = 0;
    ck_assert_int_eq(mcapi_pktchan_release_test(p, &st), MCAPI_TRUE);
    MT_EQ(st, MCAPI_SUCCESS);
    st = 0;
    mcapi_pktchan_release(b, &st);
    MT_EQ(st, MCAPI_ERR_BUF_INVALID);
    st = 0;
    mcapi_pktchan_release((uint8_t *)p + 1, &st);
    MT_EQ(st, MCAPI_ERR_BUF_INVALID);
    st = 0;
    mcapi_pktchan_release(NULL, &st);
    MT_EQ(st, MCAPI_ERR_PARAMETER);
    st = 0;
    mcapi_pktchan_release_test(b, &st);
    MT_EQ(st, MCAPI_ERR_BUF_INVALID);
    /* The packet is intact after the refused releases. */
    ck_assert_uint_eq(mt_bad(p, sizeof b, 1), sizeof b);
    st = 0;
    mcapi_pktchan_release(p, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    st = 0;
    mcapi_pktchan_release(p, &st);
    MT_EQ(st, MCAPI_ERR_BUF_INVALID);
    st = 0;
    ck_assert_int_eq(mcapi_pktchan_release_test(p, &st), MCAPI_FALSE);

    /* A packet sent but not received yet is nobody's to release, even where
     * it lies at the address the last one had (shared memory: first fit). */
    mt_fill(b, sizeof b, 5);
    st = 0;
    mcapi_pktchan_send(sh, b, sizeof b, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    st = 0;
    mcapi_pktchan_release(p, &st);
    MT_EQ(st, MCAPI_ERR_BUF_INVALID);
    void *q = NULL;
    st = 0;
    mcapi_pktchan_recv(rh, &q, &size, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    ck_assert_uint_eq(mt_bad(q, sizeof b, 5), sizeof b);
    st = 0;
    mcapi_pktchan_release(q, &st);
    MT_EQ(st, MCAPI_SUCCESS);

    /* A released buffer can come back with the next packet. */
    for (int k = 0; k < 3; k++) {
        mt_fill(b, sizeof b, 10u + (unsigned)k);
        st = 0;
        mcapi_pktchan_send(sh, b, sizeof b, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        st = 0;
        mcapi_pktchan_recv(rh, &p, &size, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        ck_assert_uint_eq(mt_bad(p, sizeof b, 10u + (unsigned)k), sizeof b);
        st = 0;
        mcapi_pktchan_release(p, &st);
        MT_EQ(st, MCAPI_SUCCESS);
    }
    mt_pkt_close_send(sh);
    mt_pkt_close_recv(rh);
    mt_fini();
}

#define STREAM_N 150

static size_t stream_size(int i)
{
    return (size_t)(i * 7919) % MCAPI_MAX_PKT_SIZE + 1;
}

/* A stream of packets of mixed sizes between two cores: all intact, in
 * order, while the receiver holds a few buffers at a time. */
static void case_stream(void *arg)
{
    (void)arg;
    int me = plat_core();
    mt_init((mcapi_node_t)me);
    mcapi_endpoint_t ep = mt_ep(1);
    harness_barrier();
    if (me == 0) {
        mcapi_request_t r;
        mcapi_status_t st = 0;
        mcapi_pktchan_connect_i(ep, mt_get(1, 1), &r, &st);
        MT_EQ(mt_done(&r, st, NULL), MCAPI_SUCCESS);
    }
    harness_barrier();
    mcapi_status_t st;
    if (me == 0) {
        mcapi_pktchan_send_hndl_t sh = mt_pkt_open_send(ep);
        uint8_t *buf = malloc(MCAPI_MAX_PKT_SIZE);
        ck_assert_ptr_nonnull(buf);
        for (int i = 0; i < STREAM_N; i++) {
            mt_fill(buf, stream_size(i), (unsigned)i);
            st = 0;
            mcapi_pktchan_send(sh, buf, stream_size(i), &st);
            MT_EQ_AT(st, MCAPI_SUCCESS, "packet %d", i);
        }
        free(buf);
        harness_barrier();
        mt_pkt_close_send(sh);
    } else {
        mcapi_pktchan_recv_hndl_t rh = mt_pkt_open_recv(ep);
        void *held[4] = {NULL, NULL, NULL, NULL};
        for (int i = 0; i < STREAM_N; i++) {
            void *p;
            size_t size = 0;
            st = 0;
            mcapi_pktchan_recv(rh, &p, &size, &st);
            MT_EQ_AT(st, MCAPI_SUCCESS, "packet %d", i);
            ck_assert_msg(size == stream_size(i), "packet %d: %zu bytes, expected %zu", i, size,
                          stream_size(i));
            ck_assert_msg(mt_bad(p, size, (unsigned)i) == size, "packet %d corrupt at %zu", i,
                          mt_bad(p, size, (unsigned)i));
            if (held[i % 4]) {
                st = 0;
                mcapi_pktchan_release(held[i % 4], &st);
                MT_EQ(st, MCAPI_SUCCESS);
            }
            held[i % 4] = p;
        }
        for (int k = 0; k < 4; k++) mcapi_pktchan_release(held[k], &st);
        harness_barrier();
        mt_pkt_close_recv(rh);
    }
    harness_barrier();
    mt_fini();
}

/* A reused packet buffer holds no older packet past the received size:
 * a ported program comparing a whole buffer sees zeros there. Big packets
 * pass through every buffer the channel uses (shared memory reuses the
 * one released last, DMA rotates the receive end's buffers), then small
 * ones land in those buffers. */
static void case_reuse_clean(void *arg)
{
    (void)arg;
    enum { K = 8 }; /* more than a transport's rotating buffers (DMA: 4) */
    mt_init(0);
    mcapi_pktchan_send_hndl_t sh;
    mcapi_pktchan_recv_hndl_t rh;
    mt_pkt_local(mt_ep(1), mt_ep(2), &sh, &rh);
    static unsigned char big[4096], small[16];
    memset(big, 0xAB, sizeof big);
    memset(small, 0x11, sizeof small);
    mcapi_status_t st = 0;
    void *seen[K];
    size_t n = 0;
    for (int k = 0; k < K; k++) {
        mcapi_pktchan_send(sh, big, sizeof big, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        mcapi_pktchan_recv(rh, &seen[k], &n, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        ck_assert_uint_eq(n, sizeof big);
        mcapi_pktchan_release(seen[k], &st);
        MT_EQ(st, MCAPI_SUCCESS);
    }
    for (int k = 0; k < K; k++) {
        void *p = NULL;
        mcapi_pktchan_send(sh, small, sizeof small, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        mcapi_pktchan_recv(rh, &p, &n, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        ck_assert_uint_eq(n, sizeof small);
        bool reused = false;
        for (int j = 0; j < K; j++) reused |= p == seen[j];
        ck_assert_msg(reused, "packet %d: not in a buffer an earlier packet used", k);
        const unsigned char *b = p;
        for (size_t i = 0; i < sizeof big; i++)
            ck_assert_msg(b[i] == (i < sizeof small ? 0x11 : 0), "packet %d byte %zu: 0x%02x", k, i,
                          b[i]);
        mcapi_pktchan_release(p, &st);
        MT_EQ(st, MCAPI_SUCCESS);
    }
    mt_fini();
}

/* The reference implementation's tests open both ends from one thread:
 * open the send end and wait for it, then the receive end. Each open
 * completes once the channel is connected, so this does not deadlock. */
static void case_one_thread_opens(void *arg)
{
    (void)arg;
    mt_init(0);
    mcapi_endpoint_t tx = mt_ep(1), rx = mt_ep(2), stx = mt_ep(3), srx = mt_ep(4);
    mcapi_request_t r;
    mcapi_status_t st = 0;
    size_t size;
    mcapi_pktchan_connect_i(tx, rx, &r, &st);
    ck_assert_int_eq(mcapi_wait(&r, &size, MT_WAIT_MS, &st), MCAPI_TRUE);
    MT_EQ(st, MCAPI_SUCCESS);
    mcapi_pktchan_send_hndl_t sh;
    mcapi_pktchan_recv_hndl_t rh;
    mcapi_pktchan_send_open_i(&sh, tx, &r, &st);
    ck_assert_int_eq(mcapi_wait(&r, &size, MT_WAIT_MS, &st), MCAPI_TRUE);
    MT_EQ(st, MCAPI_SUCCESS);
    mcapi_pktchan_recv_open_i(&rh, rx, &r, &st);
    ck_assert_int_eq(mcapi_wait(&r, &size, MT_WAIT_MS, &st), MCAPI_TRUE);
    MT_EQ(st, MCAPI_SUCCESS);
    mcapi_pktchan_send(sh, "first", 6, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    void *p = NULL;
    mcapi_pktchan_recv(rh, &p, &size, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    ck_assert_str_eq(p, "first");
    mcapi_pktchan_release(p, &st);
    mt_pkt_close_send(sh);
    mt_pkt_close_recv(rh);

    mcapi_sclchan_connect_i(stx, srx, &r, &st);
    ck_assert_int_eq(mcapi_wait(&r, &size, MT_WAIT_MS, &st), MCAPI_TRUE);
    mcapi_sclchan_send_hndl_t ssh;
    mcapi_sclchan_recv_hndl_t srh;
    mcapi_sclchan_send_open_i(&ssh, stx, &r, &st);
    ck_assert_int_eq(mcapi_wait(&r, &size, MT_WAIT_MS, &st), MCAPI_TRUE);
    MT_EQ(st, MCAPI_SUCCESS);
    mcapi_sclchan_recv_open_i(&srh, srx, &r, &st);
    ck_assert_int_eq(mcapi_wait(&r, &size, MT_WAIT_MS, &st), MCAPI_TRUE);
    MT_EQ(st, MCAPI_SUCCESS);
    mcapi_sclchan_send_uint32(ssh, 42, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    ck_assert_uint_eq(mcapi_sclchan_recv_uint32(srh, &st), 42);
    MT_EQ(st, MCAPI_SUCCESS);
    mt_fini();
}

/* A packet or scalar sent before the receive end opens waits in its queue
 * (the queue exists from the connect), so one thread may send first. */
static void case_send_before_open(void *arg)
{
    (void)arg;
    mt_init(0);
    mcapi_pktchan_send_hndl_t sh;
    mcapi_pktchan_recv_hndl_t rh;
    mcapi_endpoint_t tx = mt_ep(1), rx = mt_ep(2);
    mcapi_request_t r;
    mcapi_status_t st = 0;
    mcapi_pktchan_connect_i(tx, rx, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_SUCCESS);
    sh = mt_pkt_open_send(tx);
    mcapi_pktchan_send(sh, "first", 6, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    rh = mt_pkt_open_recv(rx);
    void *p = NULL;
    size_t size;
    mcapi_pktchan_recv(rh, &p, &size, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    ck_assert_str_eq(p, "first");
    mcapi_pktchan_release(p, &st);
    mt_pkt_close_send(sh);
    mt_pkt_close_recv(rh);
    mcapi_endpoint_t stx = mt_ep(3), srx = mt_ep(4);
    mcapi_sclchan_connect_i(stx, srx, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_SUCCESS);
    mcapi_sclchan_send_hndl_t ssh = mt_scl_open_send(stx);
    mcapi_sclchan_send_uint32(ssh, 42, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    mcapi_sclchan_recv_hndl_t srh = mt_scl_open_recv(srx);
    ck_assert_uint_eq(mcapi_sclchan_recv_uint32(srh, &st), 42);
    MT_EQ(st, MCAPI_SUCCESS);
    mt_fini();
}

/* An open whose other end was deleted without ever opening succeeds (the
 * channel was connected); the first send on it is MCAPI_ERR_CHAN_NOTOPEN,
 * as after the receiver's close (docs/mcapi.md). */
static void case_open_peer_gone(void *arg)
{
    (void)arg;
    mt_init(0);
    mcapi_endpoint_t tx = mt_ep(1), rx = mt_ep(2);
    mcapi_request_t r;
    mcapi_status_t st = 0;
    mcapi_pktchan_connect_i(tx, rx, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_SUCCESS);
    st = 0;
    mcapi_endpoint_delete(rx, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    mcapi_pktchan_send_hndl_t sh;
    st = 0;
    mcapi_pktchan_send_open_i(&sh, tx, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_SUCCESS);
    st = 0;
    mcapi_pktchan_send(sh, "x", 2, &st);
    MT_EQ(st, MCAPI_ERR_CHAN_NOTOPEN);
    mt_pkt_close_send(sh);
    mt_fini();
}

/* Free packet places, seen from a channel of node 0's own (ports 2 -> 3). */
static mcapi_endp_attr_num_send_buffers_t pkt_places(void)
{
    mcapi_endpoint_t a = mt_ep(2), b = mt_ep(3);
    mcapi_pktchan_send_hndl_t sh;
    mcapi_pktchan_recv_hndl_t rh;
    mt_pkt_local(a, b, &sh, &rh);
    mcapi_endp_attr_num_send_buffers_t n = 0;
    mcapi_status_t st = 0;
    mcapi_endpoint_get_attribute(a, MCAPI_ENDP_ATTR_NUM_SEND_BUFFERS, &n, sizeof n, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    mt_pkt_close_send(sh);
    mt_pkt_close_recv(rh);
    mcapi_endpoint_delete(a, &st);
    mcapi_endpoint_delete(b, &st);
    return n;
}

/* The receiver closes while the sender streams: the sender's sends end in
 * MCAPI_ERR_CHAN_NOTOPEN, and once it closes too every packet it sent is
 * back in the pool, also one it pushed after the receiver had dropped the
 * queue (it saw the end open just before the close). */
static void case_close_midstream(void *arg)
{
    (void)arg;
    int me = plat_core();
    mt_init((mcapi_node_t)me);
    mcapi_endp_attr_num_send_buffers_t before = me == 0 ? pkt_places() : 0;
    mcapi_endpoint_t ep = mt_ep(1);
    harness_barrier();
    mcapi_status_t st = 0;
    if (me == 0) {
        mcapi_request_t r;
        mcapi_pktchan_connect_i(ep, mt_get(1, 1), &r, &st);
        MT_EQ(mt_done(&r, st, NULL), MCAPI_SUCCESS);
    }
    harness_barrier();
    if (me == 0) {
        mcapi_pktchan_send_hndl_t sh = mt_pkt_open_send(ep);
        char b[16] = "midstream";
        int i = 0;
        for (; i < 100000; i++) {
            st = 0;
            mcapi_pktchan_send(sh, b, sizeof b, &st);
            if (st != MCAPI_SUCCESS) break;
        }
        MT_EQ_AT(st, MCAPI_ERR_CHAN_NOTOPEN, "send %d", i);
        harness_barrier();
        mt_pkt_close_send(sh);
        ck_assert_int_eq(pkt_places(), before);
    } else {
        mcapi_pktchan_recv_hndl_t rh = mt_pkt_open_recv(ep);
        for (int i = 0; i < 20; i++) {
            void *p;
            size_t size = 0;
            st = 0;
            mcapi_pktchan_recv(rh, &p, &size, &st);
            MT_EQ_AT(st, MCAPI_SUCCESS, "packet %d", i);
            mcapi_pktchan_release(p, &st);
        }
        mt_pkt_close_recv(rh);
        harness_barrier();
    }
    harness_barrier();
    mt_fini();
}

void mt_pktchan(void)
{
    static const struct harness_case cases[] = {
        {.name = "pkt_basic", .core = case_basic, .cores = 2},
        {.name = "pkt_reuse_clean", .core = case_reuse_clean, .cores = 1},
        {.name = "pkt_one_thread_opens", .core = case_one_thread_opens, .cores = 1},
        {.name = "pkt_send_before_open", .core = case_send_before_open, .cores = 1},
        {.name = "pkt_open_peer_gone", .core = case_open_peer_gone, .cores = 1},
        {.name = "pkt_errors", .core = case_errors, .cores = 1},
        {.name = "pkt_msg_to_end", .core = case_msg_to_end, .cores = 2},
        {.name = "pkt_release", .core = case_release, .cores = 1},
        {.name = "pkt_close", .core = case_close, .cores = 1},
        {.name = "pkt_open_first", .core = case_open_first, .cores = 1},
        {.name = "pkt_stream", .core = case_stream, .cores = 2},
        {.name = "pkt_close_midstream", .core = case_close_midstream, .cores = 2},
    };
    mt_add(cases, HARNESS_COUNT(cases));
}
