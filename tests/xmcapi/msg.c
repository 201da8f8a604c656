/* msg.c -- messages over XMCAPI: every size there and back in each
 * notification mode (credits ride on the answers), order, a flood that
 * fills the receiver (credits hold the sender back, nothing lost),
 * messages to oneself, gets. */
#include "xmt.h"
#include "../../xmcapi/xmcapi.h"

#include <stdlib.h>
#include <string.h>

static const size_t sizes[] = {0, 1, 3, 4, 8, 63, 64, 65, 255, 256, 1000, 1023, 1024};

static void pingpong(enum mcapi_xm_notify mode)
{
    int me = plat_core();
    xmt_init_mode(0, mode);
    mcapi_endpoint_t ep = xmt_ep(1), peer = xmt_get((mcapi_node_t)(1 - me), 1);
    uint8_t *buf = calloc(1, MCAPI_MAX_MSG_SIZE + 16);
    ck_assert_ptr_nonnull(buf);
    mcapi_status_t st;
    size_t got;
    for (unsigned round = 0; round < 3; round++)
        for (size_t i = 0; i < HARNESS_COUNT(sizes); i++) {
            size_t n = sizes[i];
            unsigned seed = round * 100 + (unsigned)i;
            if (me == 0) {
                mcx_fill(buf, n, seed);
                mcapi_msg_send(ep, peer, buf, n, 1, &st);
                XMT_EQ(st, MCAPI_SUCCESS);
                memset(buf, 0, n);
                mcapi_msg_recv(ep, buf, MCAPI_MAX_MSG_SIZE, &got, &st);
                XMT_EQ(st, MCAPI_SUCCESS);
                ck_assert_uint_eq(got, n);
                ck_assert_uint_eq(mcx_bad(buf, n, seed + 1), n);
            } else {
                mcapi_msg_recv(ep, buf, MCAPI_MAX_MSG_SIZE + 16, &got, &st);
                XMT_EQ(st, MCAPI_SUCCESS);
                ck_assert_uint_eq(got, n);
                ck_assert_uint_eq(mcx_bad(buf, n, seed), n);
                mcx_fill(buf, n, seed + 1);
                mcapi_request_t r;
                mcapi_msg_send_i(ep, peer, buf, n, 1, &r, &st);
                XMT_EQ(mcx_done(&r, st, NULL), MCAPI_SUCCESS);
            }
        }
    if (me == 0) {
        mcapi_msg_send(ep, peer, buf, MCAPI_MAX_MSG_SIZE + 1, 1, &st);
        XMT_EQ(st, MCAPI_ERR_MSG_SIZE);
    }
    /* More messages each way than half the credits: every credit went
     * back on a message, none in a frame of its own. */
    struct xmcapi_stats s;
    XMT_EQ(xmcapi_stats(&s), MCAPI_SUCCESS);
    ck_assert_uint_eq(s.credits_sent, 0);
    ck_assert_uint_eq(s.credit_waits, 0);
    free(buf);
    xmt_fini();
}

static void case_direct(void *arg)
{
    (void)arg;
    pingpong(MCAPI_XM_DIRECT);
}
static void case_wake(void *arg)
{
    (void)arg;
    pingpong(MCAPI_XM_WAKE);
}
static void case_pipe(void *arg)
{
    (void)arg;
    pingpong(MCAPI_XM_PIPE);
}

#define FLOOD 4000
#define FLOOD_BYTES 512

/* Node 0 sends FLOOD numbered messages without waiting; node 1 reads none
 * until they should all be on their way, so its queue fills: node 0 must
 * have been held back by its credits, node 1's queue never past its 64
 * (no STOP sent), and every message arrives once, in order. */
static void case_flood(void *arg)
{
    (void)arg;
    int me = plat_core();
    xmt_init();
    mcapi_endpoint_t ep = xmt_ep(2);
    mcapi_status_t st;
    struct xmcapi_stats s;
    if (me == 0) {
        mcapi_endpoint_t to = xmt_get(1, 2);
        for (uint32_t i = 0; i < FLOOD; i++) {
            uint8_t m[FLOOD_BYTES];
            memcpy(m, &i, sizeof i);
            mcx_fill(m + 4, sizeof m - 4, i);
            mcapi_msg_send(ep, to, m, sizeof m, 1, &st);
            XMT_EQ(st, MCAPI_SUCCESS);
        }
        harness_barrier(); /* node 1 has them all */
        XMT_EQ(xmcapi_stats(&s), MCAPI_SUCCESS);
        ck_assert_uint_gt(s.credit_waits, 0);
    } else {
        plat_sleep_ns(200000000); /* 0.2 s: the flood piles up */
        for (uint32_t i = 0; i < FLOOD; i++) {
            uint8_t m[FLOOD_BYTES];
            size_t got = 0;
            mcapi_msg_recv(ep, m, sizeof m, &got, &st);
            XMT_EQ(st, MCAPI_SUCCESS);
            uint32_t seq;
            memcpy(&seq, m, sizeof seq);
            ck_assert_uint_eq(seq, i);
            ck_assert_uint_eq(mcx_bad(m + 4, sizeof m - 4, i), sizeof m - 4);
        }
        mcapi_uint_t left = mcapi_msg_available(ep, &st);
        ck_assert_uint_eq(left, 0);
        XMT_EQ(xmcapi_stats(&s), MCAPI_SUCCESS);
        ck_assert_uint_eq(s.stops_sent, 0);
        ck_assert_uint_eq(s.resumes_sent, 0);
        ck_assert_uint_eq(s.bad_frames, 0);
        harness_barrier();
    }
    xmt_fini();
}

/* Node 1 deletes an endpoint whose queue has held node 0 back (STOP) and
 * creates another on its port: node 0's send waiting for the old one ends
 * (MCAPI_ERR_ENDP_DELETED), a new one to it is refused, and its sends to
 * the new one go through, not held back for ever by the old one's STOP. */
static void case_deleted_full(void *arg)
{
    (void)arg;
    int me = plat_core();
    xmt_init();
    mcapi_endpoint_t ep = xmt_ep(2);
    mcapi_status_t st;
    if (me == 0) {
        mcapi_timeout_t t = 50;
        mcapi_endpoint_set_attribute(ep, MCAPI_ENDP_ATTR_TIMEOUT, &t, sizeof t, &st);
        XMT_EQ(st, MCAPI_SUCCESS);
        mcapi_endpoint_t to = xmt_get(1, 2);
        uint32_t i = 0;
        do mcapi_msg_send(ep, to, &i, sizeof i, 1, &st);
        while (st == MCAPI_SUCCESS && ++i < 100000);
        XMT_EQ(st, MCAPI_TIMEOUT); /* held back */
        mcapi_request_t r;
        mcapi_msg_send_i(ep, to, &i, sizeof i, 1, &r, &st);
        XMT_EQ(st, MCAPI_PENDING);
        harness_barrier();
        harness_barrier(); /* node 1 deleted it and made another */
        size_t size;
        mcapi_wait(&r, &size, XMT_WAIT_MS, &st);
        XMT_EQ(st, MCAPI_ERR_ENDP_DELETED);
        mcapi_msg_send(ep, to, &i, sizeof i, 1, &st);
        XMT_EQ(st, MCAPI_ERR_ENDP_INVALID);
        mcapi_msg_send(ep, xmt_get(1, 2), "new", 4, 1, &st);
        XMT_EQ(st, MCAPI_SUCCESS);
    } else {
        harness_barrier();
        mcapi_endpoint_delete(ep, &st);
        XMT_EQ(st, MCAPI_SUCCESS);
        ep = xmt_ep(2);
        harness_barrier();
        char b[8];
        size_t got;
        mcapi_msg_recv(ep, b, sizeof b, &got, &st);
        XMT_EQ(st, MCAPI_SUCCESS);
        ck_assert_str_eq(b, "new");
    }
    xmt_fini();
}

/* To one's own endpoint, and a get that waits for the endpoint's creation. */
static void case_self_and_get(void *arg)
{
    (void)arg;
    int me = plat_core();
    xmt_init();
    mcapi_status_t st;
    if (me == 0) {
        mcapi_endpoint_t a = xmt_ep(3), b = xmt_ep(4);
        mcapi_msg_send(a, b, "hi", 2, 1, &st);
        XMT_EQ(st, MCAPI_SUCCESS);
        char buf[4];
        size_t got;
        mcapi_msg_recv(b, buf, sizeof buf, &got, &st);
        XMT_EQ(st, MCAPI_SUCCESS);
        ck_assert_uint_eq(got, 2);
        ck_assert_int_eq(memcmp(buf, "hi", 2), 0);
        mcapi_endpoint_t own = mcapi_endpoint_get(XMT_DOMAIN, 0, 3, 0, &st);
        XMT_EQ(st, MCAPI_SUCCESS);
        ck_assert_uint_eq(own, a);
        (void)mcapi_endpoint_get(XMT_DOMAIN, 0, 9, 1, &st);
        XMT_EQ(st, MCAPI_TIMEOUT);
        (void)mcapi_endpoint_get(XMT_DOMAIN, 7, 1, 1, &st); /* not in the topology */
        XMT_EQ(st, MCAPI_ERR_NODE_INVALID);
        mcapi_endpoint_t remote = xmt_get(1, 1);
        mcapi_endp_attr_type_t t;
        mcapi_endpoint_get_attribute(remote, MCAPI_ENDP_ATTR_TYPE, &t, sizeof t, &st);
        XMT_EQ(st, MCAPI_ERR_ENDP_REMOTE);
        /* Another node's endpoint is not ours to send from or delete (the
         * statuses the other transports give). */
        mcapi_msg_send(remote, a, "x", 1, 1, &st);
        XMT_EQ(st, MCAPI_ERR_ENDP_REMOTE);
        mcapi_endpoint_delete(remote, &st);
        XMT_EQ(st, MCAPI_ERR_ENDP_NOTOWNER);
    } else {
        (void)xmt_ep(1);
    }
    xmt_fini();
}

/* Node 1 answers and finalises at once: its last messages still arrive,
 * though node 0's connection to it is closed meanwhile (a bug: that close
 * took the other connection down with it, unread bytes and all). */
static void case_last_words(void *arg)
{
    (void)arg;
    int me = plat_core();
    xmt_init_mode(0, MCAPI_XM_PIPE);
    mcapi_endpoint_t ep = xmt_ep(1), peer = xmt_get((mcapi_node_t)(1 - me), 1);
    mcapi_status_t st;
    char buf[8];
    size_t got;
    for (int round = 0; round < 5; round++) {
        if (me == 0) {
            mcapi_msg_send(ep, peer, "ping", 4, 1, &st);
            XMT_EQ(st, MCAPI_SUCCESS);
            for (int k = 0; k < 3; k++) {
                mcapi_msg_recv(ep, buf, sizeof buf, &got, &st);
                XMT_EQ(st, MCAPI_SUCCESS);
                ck_assert_int_eq(buf[0], '0' + k);
            }
        } else {
            mcapi_msg_recv(ep, buf, sizeof buf, &got, &st);
            XMT_EQ(st, MCAPI_SUCCESS);
            for (int k = 0; k < 3; k++) {
                char c = (char)('0' + k);
                mcapi_msg_send(ep, peer, &c, 1, 1, &st);
                XMT_EQ(st, MCAPI_SUCCESS);
            }
        }
    }
    if (me == 1) {
        mcapi_finalize(&st); /* right after the last answer */
        XMT_EQ(st, MCAPI_SUCCESS);
    }
    harness_barrier();
    if (me == 0) {
        mcapi_finalize(&st);
        XMT_EQ(st, MCAPI_SUCCESS);
    }
}

void xmt_msg_cases(void)
{
    static const struct harness_case cases[] = {
        {.name = "msg_direct", .core = case_direct, .cores = 2},
        {.name = "msg_wake", .core = case_wake, .cores = 2},
        {.name = "msg_pipe", .core = case_pipe, .cores = 2},
        {.name = "msg_flood", .core = case_flood, .cores = 2},
        {.name = "msg_deleted_full", .core = case_deleted_full, .cores = 2},
        {.name = "msg_self_and_get", .core = case_self_and_get, .cores = 2},
        {.name = "msg_last_words", .core = case_last_words, .cores = 2},
    };
    harness_add_cases("xmcapi", cases, HARNESS_COUNT(cases));
}
