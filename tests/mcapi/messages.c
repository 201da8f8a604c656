/* messages.c -- connectionless messages: sizes, priorities, queue limits. */
#include "mt.h"

#include <stdlib.h>
#include <string.h>

static const size_t sizes[] = {0, 1, 2, 3, 7, 8, 63, 64, 65, 255, 256, 1000, 1023, 1024};

/* Every size from 0 to MCAPI_MAX_MSG_SIZE goes from core 0 to core 1 and
 * back, blocking one way and non-blocking the other; one byte more fails. */
static void case_sizes(void *arg)
{
    (void)arg;
    int me = plat_core();
    mt_init((mcapi_node_t)me);
    mcapi_endpoint_t ep = mt_ep(1);
    mcapi_endpoint_t peer = mt_get((mcapi_node_t)(1 - me), 1);
    uint8_t *buf = malloc(MCAPI_MAX_MSG_SIZE + 16);
    ck_assert_ptr_nonnull(buf);
    mcapi_status_t st;
    size_t got;
    for (size_t i = 0; i < HARNESS_COUNT(sizes); i++) {
        size_t n = sizes[i];
        if (me == 0) {
            mt_fill(buf, n, (unsigned)i);
            st = 0;
            mcapi_msg_send(ep, peer, buf, n, 1, &st);
            MT_EQ_AT(st, MCAPI_SUCCESS, "send %zu bytes", n);
            mcapi_request_t r;
            memset(buf, 0, MCAPI_MAX_MSG_SIZE + 16);
            st = 0;
            mcapi_msg_recv_i(ep, buf, MCAPI_MAX_MSG_SIZE, &r, &st);
            got = 9999;
            MT_EQ_AT(mt_done(&r, st, &got), MCAPI_SUCCESS, "echo of %zu bytes", n);
            ck_assert_uint_eq(got, n);
            ck_assert_uint_eq(mt_bad(buf, n, (unsigned)i + 100), n);
        } else {
            memset(buf, 0, MCAPI_MAX_MSG_SIZE + 16);
            st = 0;
            got = 9999;
            mcapi_msg_recv(ep, buf, MCAPI_MAX_MSG_SIZE + 16, &got, &st);
            MT_EQ_AT(st, MCAPI_SUCCESS, "recv %zu bytes", n);
            ck_assert_uint_eq(got, n);
            ck_assert_uint_eq(mt_bad(buf, n, (unsigned)i), n);
            ck_assert_uint_eq(buf[n], 0);
            mt_fill(buf, n, (unsigned)i + 100);
            mcapi_request_t r;
            st = 0;
            mcapi_msg_send_i(ep, peer, buf, n, 2, &r, &st);
            MT_EQ_AT(mt_done(&r, st, NULL), MCAPI_SUCCESS, "send_i %zu bytes", n);
        }
    }
    if (me == 0) {
        st = 0;
        mcapi_msg_send(ep, peer, buf, MCAPI_MAX_MSG_SIZE + 1, 1, &st);
        MT_EQ(st, MCAPI_ERR_MSG_SIZE);
        mcapi_request_t r;
        st = 0;
        mcapi_msg_send_i(ep, peer, buf, MCAPI_MAX_MSG_SIZE + 1, 1, &r, &st);
        MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_MSG_SIZE);
        st = 0;
        mcapi_msg_send(ep, peer, NULL, 10, 1, &st);
        MT_EQ(st, MCAPI_ERR_PARAMETER);
    }
    harness_barrier();
    /* Nothing of the refused sends arrived. */
    st = 0;
    ck_assert_uint_eq(mcapi_msg_available(ep, &st), 0);
    MT_EQ(st, MCAPI_SUCCESS);
    free(buf);
    harness_barrier();
    mt_fini();
}

/* A buffer too small for the message: MCAPI_ERR_MSG_TRUNCATED. */
static void case_truncated(void *arg)
{
    (void)arg;
    mt_init(0);
    mcapi_endpoint_t a = mt_ep(1), b = mt_ep(2);
    uint8_t msg[100], small[50];
    mt_fill(msg, sizeof msg, 3);
    mcapi_status_t st = 0;
    mcapi_msg_send(a, b, msg, sizeof msg, 1, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    size_t got;
    st = 0;
    mcapi_msg_recv(b, small, sizeof small, &got, &st);
    MT_EQ(st, MCAPI_ERR_MSG_TRUNCATED);

    st = 0;
    mcapi_msg_send(a, b, msg, sizeof msg, 1, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    mcapi_request_t r;
    st = 0;
    mcapi_msg_recv_i(b, small, sizeof small, &r, &st);
    MT_EQ(mt_done(&r, st, &got), MCAPI_ERR_MSG_TRUNCATED);

    /* Exactly the message's size is enough. */
    st = 0;
    mcapi_msg_send(a, b, msg, sizeof small, 1, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    st = 0;
    while (mcapi_msg_available(b, &st) > 1) {
        /* a truncated message the implementation kept: drain it */
        mcapi_msg_recv(b, msg, sizeof msg, &got, &st);
        MT_EQ(st, MCAPI_SUCCESS);
    }
    st = 0;
    mcapi_msg_recv(b, small, sizeof small, &got, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    ck_assert_uint_eq(got, sizeof small);
    ck_assert_uint_eq(mt_bad(small, sizeof small, 3), sizeof small);
    mt_fini();
}

/* Priority 0 first, FIFO within a priority, whoever sent; priorities past
 * MCAPI_MAX_PRIORITY are refused. */
static void case_priority(void *arg)
{
    (void)arg;
    static const mcapi_priority_t prio[] = {7, 3, 0, 3, 7, 1, 0, 5, 3, 0, 7, 2};
    enum { N = sizeof prio / sizeof prio[0] };
    int me = plat_core();
    mt_init((mcapi_node_t)me);
    mcapi_endpoint_t ep = mt_ep(1);
    mcapi_status_t st;
    if (me == 0) {
        mcapi_endpoint_t rx = mt_get(1, 1);
        for (int i = 0; i < N; i++) {
            uint32_t m[2] = {(uint32_t)i, prio[i]};
            st = 0;
            mcapi_msg_send(ep, rx, m, sizeof m, prio[i], &st);
            MT_EQ_AT(st, MCAPI_SUCCESS, "message %d", i);
        }
        uint32_t m[2] = {99, 99};
        st = 0;
        mcapi_msg_send(ep, rx, m, sizeof m, MCAPI_MAX_PRIORITY + 1, &st);
        MT_EQ(st, MCAPI_ERR_PRIORITY);
        st = 0;
        mcapi_msg_send(ep, rx, m, sizeof m, ~0u, &st);
        MT_EQ(st, MCAPI_ERR_PRIORITY);
        mcapi_request_t r;
        st = 0;
        mcapi_msg_send_i(ep, rx, m, sizeof m, MCAPI_MAX_PRIORITY + 1, &r, &st);
        MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_PRIORITY);
    }
    harness_barrier();
    if (me == 1) {
        mt_arrived(MT_MSG, ep, N);
        /* The expected order: stable sort by priority. */
        int order[N] = {0}, k = 0;
        for (mcapi_priority_t p = 0; p <= MCAPI_MAX_PRIORITY; p++)
            for (int i = 0; i < N; i++)
                if (prio[i] == p) order[k++] = i;
        for (int i = 0; i < N; i++) {
            uint32_t m[2];
            size_t got;
            st = 0;
            mcapi_msg_recv(ep, m, sizeof m, &got, &st);
            MT_EQ(st, MCAPI_SUCCESS);
            ck_assert_msg(m[0] == (uint32_t)order[i],
                          "receive %d: message %u (priority %u), expected message %d (priority %u)",
                          i, m[0], m[1], order[i], prio[order[i]]);
        }
        st = 0;
        ck_assert_uint_eq(mcapi_msg_available(ep, &st), 0);
    }
    harness_barrier();
    mt_fini();
}

/* mcapi_msg_available counts what is queued. */
static void case_available(void *arg)
{
    (void)arg;
    mt_init(0);
    mcapi_endpoint_t a = mt_ep(1), b = mt_ep(2);
    mcapi_status_t st = 0;
    ck_assert_uint_eq(mcapi_msg_available(b, &st), 0);
    MT_EQ(st, MCAPI_SUCCESS);
    char m[4] = "abc";
    for (unsigned i = 1; i <= 5; i++) {
        st = 0;
        mcapi_msg_send(a, b, m, sizeof m, 1, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        st = 0;
        ck_assert_uint_eq(mcapi_msg_available(b, &st), i);
        MT_EQ(st, MCAPI_SUCCESS);
    }
    ck_assert_uint_eq(mcapi_msg_available(a, &st), 0);
    size_t got;
    for (unsigned i = 1; i <= 2; i++) {
        st = 0;
        mcapi_msg_recv(b, m, sizeof m, &got, &st);
        MT_EQ(st, MCAPI_SUCCESS);
    }
    st = 0;
    ck_assert_uint_eq(mcapi_msg_available(b, &st), 3);
    st = 0;
    mcapi_msg_available(MT_GARBAGE, &st);
    MT_EQ(st, MCAPI_ERR_ENDP_INVALID);
    mt_fini();
}

/* A receive queue holds MCAPI_MAX_QUEUE_ELEMENTS: then a blocking send
 * times out (sender's timeout attribute), a non-blocking one stays pending
 * until there is room, and with FAIL_ON_MEM_LIMIT the send fails. Nothing
 * refused is delivered; what was queued arrives in order. */
static void case_full_queue(void *arg)
{
    (void)arg;
    int me = plat_core();
    mt_init((mcapi_node_t)me);
    mcapi_endpoint_t ep = mt_ep(1);
    mcapi_status_t st;
    mcapi_request_t pending;
    if (me == 0) {
        mcapi_endpoint_t rx = mt_get(1, 1);
        uint32_t seq;
        for (seq = 0; seq < MCAPI_MAX_QUEUE_ELEMENTS; seq++) {
            st = 0;
            mcapi_msg_send(ep, rx, &seq, sizeof seq, 1, &st);
            MT_EQ_AT(st, MCAPI_SUCCESS, "message %u", seq);
        }
        mt_set_timeout(ep, MT_SHORT_MS);
        uint32_t lost = 1000;
        uint64_t t0 = plat_now_ns();
        st = 0;
        mcapi_msg_send(ep, rx, &lost, sizeof lost, 1, &st);
        MT_EQ(st, MCAPI_TIMEOUT);
        ck_assert_msg(plat_now_ns() - t0 >= MT_SHORT_MS * MT_MS, "timed out after %.3f ms",
                      mt_ms_since(t0));
        st = 0;
        mcapi_msg_send_i(ep, rx, &seq, sizeof seq, 1, &pending, &st);
        MT_EQ(st, MCAPI_PENDING);
        size_t size;
        st = 0;
        ck_assert_int_eq(mcapi_test(&pending, &size, &st), MCAPI_FALSE);
        MT_EQ(st, MCAPI_PENDING);
    }
    harness_barrier(); /* 1: the queue is full, one send pending */
    if (me == 1) {
        st = 0;
        ck_assert_uint_eq(mcapi_msg_available(ep, &st), MCAPI_MAX_QUEUE_ELEMENTS);
        uint32_t v = 77;
        size_t got;
        st = 0;
        mcapi_msg_recv(ep, &v, sizeof v, &got, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        ck_assert_uint_eq(v, 0);
    }
    harness_barrier(); /* 2: room for the pending send */
    if (me == 0) {
        size_t size = 0;
        st = 0;
        ck_assert_int_eq(mcapi_wait(&pending, &size, MT_WAIT_MS, &st), MCAPI_TRUE);
        MT_EQ(st, MCAPI_SUCCESS);
        ck_assert_uint_eq(size, sizeof(uint32_t));
    }
    harness_barrier(); /* 3: full again */
    /* Which endpoint's memory type decides is not said: set both. */
    mt_set_memtype(ep, MCAPI_ENDP_ATTR_LOCAL_MEMORY | MCAPI_ENDP_ATTR_FAIL_ON_MEM_LIMIT);
    harness_barrier();
    if (me == 0) {
        mcapi_endpoint_t rx = mt_get(1, 1);
        uint32_t lost = 1001;
        st = 0;
        mcapi_msg_send(ep, rx, &lost, sizeof lost, 1, &st);
        MT_EQ(st, MCAPI_ERR_MEM_LIMIT);
        mcapi_request_t r;
        lost = 1002;
        st = 0;
        mcapi_msg_send_i(ep, rx, &lost, sizeof lost, 1, &r, &st);
        MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_MEM_LIMIT);
    }
    harness_barrier();
    if (me == 1) {
        for (uint32_t want = 1; want <= MCAPI_MAX_QUEUE_ELEMENTS; want++) {
            uint32_t v = 77;
            size_t got;
            st = 0;
            mcapi_msg_recv(ep, &v, sizeof v, &got, &st);
            MT_EQ(st, MCAPI_SUCCESS);
            ck_assert_msg(v == want, "received %u, expected %u", v, want);
        }
        st = 0;
        ck_assert_uint_eq(mcapi_msg_available(ep, &st), 0);
    }
    harness_barrier();
    mt_fini();
}

/* Nothing overtakes a pending operation on the same endpoint: a blocking
 * send issued after a pending one arrives after it; two pending receives
 * take messages in the order they were issued, whichever is waited for
 * first (docs/mcapi.md). */
static void case_order_pending(void *arg)
{
    (void)arg;
    int me = plat_core();
    mt_init((mcapi_node_t)me);
    mcapi_endpoint_t ep = mt_ep(1);
    mcapi_status_t st;
    mcapi_request_t pending;
    uint32_t v;
    size_t got;
    if (me == 0) {
        mcapi_endpoint_t rx = mt_get(1, 1);
        for (v = 0; v < MCAPI_MAX_QUEUE_ELEMENTS; v++) {
            st = 0;
            mcapi_msg_send(ep, rx, &v, sizeof v, 1, &st);
            MT_EQ(st, MCAPI_SUCCESS);
        }
        st = 0;
        mcapi_msg_send_i(ep, rx, &v, sizeof v, 1, &pending, &st);
        MT_EQ(st, MCAPI_PENDING);
        v++;
    }
    harness_barrier(); /* full, one pending: node 1 starts draining */
    if (me == 0) {
        st = 0;
        mcapi_msg_send(ep, mt_get(1, 1), &v, sizeof v, 1, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        size_t size;
        st = 0;
        ck_assert_int_eq(mcapi_wait(&pending, &size, MT_WAIT_MS, &st), MCAPI_TRUE);
        MT_EQ(st, MCAPI_SUCCESS);
    } else {
        for (uint32_t want = 0; want <= MCAPI_MAX_QUEUE_ELEMENTS + 1; want++) {
            v = 999;
            st = 0;
            mcapi_msg_recv(ep, &v, sizeof v, &got, &st);
            MT_EQ(st, MCAPI_SUCCESS);
            ck_assert_msg(v == want, "received %u, expected %u", v, want);
        }
    }
    harness_barrier();
    if (me == 1) {
        mcapi_endpoint_t tx = mt_ep(2);
        mcapi_request_t r1, r2;
        uint32_t a = 0, b = 0;
        st = 0;
        mcapi_msg_recv_i(ep, &a, sizeof a, &r1, &st);
        MT_EQ(st, MCAPI_PENDING);
        st = 0;
        mcapi_msg_recv_i(ep, &b, sizeof b, &r2, &st);
        MT_EQ(st, MCAPI_PENDING);
        for (v = 1; v <= 2; v++) {
            st = 0;
            mcapi_msg_send(tx, ep, &v, sizeof v, 1, &st);
            MT_EQ(st, MCAPI_SUCCESS);
        }
        size_t size;
        st = 0;
        ck_assert_int_eq(mcapi_wait(&r2, &size, MT_WAIT_MS, &st), MCAPI_TRUE);
        MT_EQ(st, MCAPI_SUCCESS);
        st = 0;
        ck_assert_int_eq(mcapi_wait(&r1, &size, MT_WAIT_MS, &st), MCAPI_TRUE);
        MT_EQ(st, MCAPI_SUCCESS);
        ck_assert_uint_eq(a, 1);
        ck_assert_uint_eq(b, 2);
    }
    harness_barrier();
    mt_fini();
}

#define CROSS_N 100

/* Four nodes on four cores, everyone sends to everyone: every message
 * arrives once, in order per sender. */
static void case_cross(void *arg)
{
    (void)arg;
    int me = plat_core(), n = plat_cores();
    mt_init((mcapi_node_t)me);
    mcapi_endpoint_t ep = mt_ep(1), tx = mt_ep(2);
    /* A send to a full queue gives up quickly and this node drains its own
     * queue before trying again: nodes that all send to each other must
     * not wait for each other. */
    mt_set_timeout(tx, 1);
    mcapi_endpoint_t peer[8];
    for (int k = 0; k < n; k++) peer[k] = k == me ? 0 : mt_get((mcapi_node_t)k, 1);
    uint32_t next[8] = {0};
    int sent = 0, received = 0, total = CROSS_N * (n - 1);
    mcapi_status_t st;
    uint64_t t0 = plat_now_ns();
    while (sent < total || received < total) {
        ck_assert_msg(plat_now_ns() - t0 < MT_WAIT_MS * MT_MS, "sent %d, received %d", sent,
                      received);
        if (sent < total) {
            int k = sent % (n - 1);
            k += k >= me;
            uint32_t m[2] = {(uint32_t)me, (uint32_t)(sent / (n - 1))};
            st = 0;
            mcapi_msg_send(tx, peer[k], m, sizeof m, 1, &st);
            ck_assert_msg(st == MCAPI_SUCCESS || st == MCAPI_TIMEOUT, "send: %s", mt_name(st));
            if (st == MCAPI_SUCCESS) sent++;
        }
        st = 0;
        while (received < total && (mcapi_msg_available(ep, &st) > 0 || sent == total)) {
            uint32_t m[2];
            size_t got;
            st = 0;
            mcapi_msg_recv(ep, m, sizeof m, &got, &st);
            MT_EQ(st, MCAPI_SUCCESS);
            ck_assert_uint_eq(got, sizeof m);
            ck_assert_int_lt(m[0], n);
            ck_assert_int_ne(m[0], me);
            ck_assert_msg(m[1] == next[m[0]], "from node %u: message %u, expected %u", m[0], m[1],
                          next[m[0]]);
            next[m[0]]++;
            received++;
        }
    }
    for (int k = 0; k < n; k++) ck_assert_uint_eq(next[k], k == me ? 0 : CROSS_N);
    harness_barrier();
    mt_fini();
}

/* Bad endpoints and arguments; receiving on another node's endpoint. */
static void case_bad(void *arg)
{
    (void)arg;
    int me = plat_core();
    mt_init((mcapi_node_t)me);
    mcapi_endpoint_t ep = mt_ep(1);
    harness_barrier();
    if (me == 0) {
        mcapi_endpoint_t other = mt_get(1, 1);
        char m[8] = "x";
        size_t got;
        mcapi_request_t r;
        mcapi_status_t st = 0;
        mcapi_msg_send(MT_GARBAGE, other, m, 1, 1, &st);
        MT_EQ(st, MCAPI_ERR_ENDP_INVALID);
        st = 0;
        mcapi_msg_send(ep, MT_GARBAGE, m, 1, 1, &st);
        MT_EQ(st, MCAPI_ERR_ENDP_INVALID);
        st = 0;
        mcapi_msg_send(ep, 0, m, 1, 1, &st);
        MT_EQ(st, MCAPI_ERR_ENDP_INVALID);
        st = 0;
        mcapi_msg_send_i(ep, MT_GARBAGE, m, 1, 1, &r, &st);
        MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_ENDP_INVALID);
        st = 0;
        mcapi_msg_recv(MT_GARBAGE, m, sizeof m, &got, &st);
        MT_EQ(st, MCAPI_ERR_ENDP_INVALID);
        st = 0;
        mcapi_msg_recv_i(MT_GARBAGE, m, sizeof m, &r, &st);
        MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_ENDP_INVALID);
        st = 0;
        mcapi_msg_recv(ep, NULL, sizeof m, &got, &st);
        MT_EQ(st, MCAPI_ERR_PARAMETER);
        st = 0;
        mcapi_msg_send(ep, other, NULL, 1, 1, &st);
        MT_EQ(st, MCAPI_ERR_PARAMETER);
        /* Node 1's endpoint is not ours to receive on. */
        st = 0;
        mcapi_msg_send(ep, other, m, 1, 1, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        st = 0;
        mcapi_msg_recv(other, m, sizeof m, &got, &st);
        MT_EQ(st, MCAPI_ERR_ENDP_REMOTE);
        st = 0;
        mcapi_msg_recv_i(other, m, sizeof m, &r, &st);
        MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_ENDP_REMOTE);
        st = 0;
        mcapi_msg_available(other, &st);
        MT_EQ(st, MCAPI_ERR_ENDP_REMOTE);
        /* ... nor to send from (docs/mcapi.md). */
        st = 0;
        mcapi_msg_send(other, ep, m, 1, 1, &st);
        MT_EQ(st, MCAPI_ERR_ENDP_REMOTE);
    }
    harness_barrier();
    if (me == 1) mt_arrived(MT_MSG, ep, 1);
    harness_barrier();
    mt_fini();
}

void mt_messages(void)
{
    static const struct harness_case cases[] = {
        {.name = "msg_sizes", .core = case_sizes, .cores = 2},
        {.name = "msg_truncated", .core = case_truncated, .cores = 1},
        {.name = "msg_priority", .core = case_priority, .cores = 2},
        {.name = "msg_available", .core = case_available, .cores = 1},
        {.name = "msg_full_queue", .core = case_full_queue, .cores = 2},
        {.name = "msg_order_pending", .core = case_order_pending, .cores = 2},
        {.name = "msg_cross", .core = case_cross, .cores = 4},
        {.name = "msg_bad", .core = case_bad, .cores = 2},
    };
    mt_add(cases, HARNESS_COUNT(cases));
}
