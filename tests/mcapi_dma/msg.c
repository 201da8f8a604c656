/* msg.c -- messages over the DMA transport: the zero-copy and the copy
 * path, truncation on each, order, several senders, both sides sending
 * first, loopback, a send that outlives its timeout. (Sizes and the rest
 * of the API: the conformance suite, tests/mcapi, suites mcapi-dma-*.) */
#include "dt.h"

#include <string.h>

/* A receive posted in advance is filled by the sender's DMA itself: the
 * bytes are in the caller's buffer as soon as the send has completed,
 * before the receiver makes another call. */
static void case_zero_copy(void *arg)
{
    (void)arg;
    int me = plat_core();
    dt_init();
    mcapi_endpoint_t ep = dt_ep(4);
    static uint8_t buf[2][256]; /* one per core */
    if (me == 1) {
        for (unsigned round = 0; round < 3; round++) {
            memset(buf[1], 0xEE, sizeof buf[1]);
            mcapi_request_t r;
            mcapi_status_t st = 0;
            mcapi_msg_recv_i(ep, buf[1], sizeof buf[1], &r, &st);
            DT_EQ(st, MCAPI_PENDING);
            harness_barrier(); /* posted */
            harness_barrier(); /* sent */
            ck_assert_msg(mcx_bad(buf[1], 200, round) == 200,
                          "round %u: the DMA did not write the posted buffer", round);
            ck_assert_uint_eq(buf[1][200], 0xEE);
            size_t n = 0;
            DT_EQ(mcx_done(&r, st, &n), MCAPI_SUCCESS);
            ck_assert_uint_eq(n, 200);
        }
    } else {
        mcapi_endpoint_t peer = dt_get(1, 4);
        for (unsigned round = 0; round < 3; round++) {
            mcx_fill(buf[0], 200, round);
            harness_barrier();
            mcapi_status_t st = 0;
            mcapi_msg_send(ep, peer, buf[0], 200, 0, &st); /* returns once written there */
            DT_EQ(st, MCAPI_SUCCESS);
            harness_barrier();
        }
    }
    harness_barrier();
    dt_fini();
}

/* Messages sent while no receive is posted land in the internal buffer of
 * their endpoint's channel and the receive copies them out later. A node
 * that is idle (outside MCAPI) holds one such message per endpoint; one
 * that is inside MCAPI (here: waiting on another endpoint) takes each
 * arrival into its queue and re-arms the channel, so they queue up, in
 * order. */
static void case_late(void *arg)
{
    (void)arg;
    enum { N = 8, PORTS = 5 };
    int me = plat_core();
    dt_init();
    mcapi_endpoint_t ep[PORTS + 1];
    for (unsigned p = 0; p <= PORTS; p++) ep[p] = dt_ep(p + 1);
    mcapi_status_t st;
    uint8_t m[128];
    size_t n;
    if (me == 0) {
        for (unsigned p = 0; p < PORTS; p++) { /* one each while node 1 is idle */
            mcx_fill(m, 10 + p, p);
            st = 0;
            mcapi_msg_send(ep[0], dt_get(1, p + 1), m, 10 + p, 0, &st);
            DT_EQ_AT(st, MCAPI_SUCCESS, "port %u", p + 1);
        }
        harness_barrier();
        harness_barrier();
        mcapi_endpoint_t q = dt_get(1, 1);
        for (unsigned i = 0; i < N; i++) { /* node 1 now waits on its last port */
            mcx_fill(m, sizeof m - i, i);
            st = 0;
            mcapi_msg_send(ep[0], q, m, sizeof m - i, 0, &st);
            DT_EQ_AT(st, MCAPI_SUCCESS, "message %u", i);
        }
        st = 0;
        mcapi_msg_send(ep[0], dt_get(1, PORTS + 1), m, 1, 0, &st);
        DT_EQ(st, MCAPI_SUCCESS);
    } else {
        harness_barrier(); /* sent, nothing received yet */
        for (unsigned p = 0; p < PORTS; p++) {
            st = 0;
            ck_assert_uint_eq(mcapi_msg_available(ep[p], &st), 1);
            memset(m, 0, sizeof m);
            n = 0;
            st = 0;
            mcapi_msg_recv(ep[p], m, sizeof m, &n, &st);
            DT_EQ_AT(st, MCAPI_SUCCESS, "port %u", p + 1);
            ck_assert_uint_eq(n, 10 + p);
            ck_assert_uint_eq(mcx_bad(m, n, p), n);
        }
        harness_barrier();
        st = 0;
        mcapi_msg_recv(ep[PORTS], m, sizeof m, &n, &st); /* waits: the others queue */
        DT_EQ(st, MCAPI_SUCCESS);
        st = 0;
        ck_assert_uint_eq(mcapi_msg_available(ep[0], &st), N);
        for (unsigned i = 0; i < N; i++) {
            memset(m, 0, sizeof m);
            n = 0;
            st = 0;
            mcapi_msg_recv(ep[0], m, sizeof m, &n, &st);
            DT_EQ_AT(st, MCAPI_SUCCESS, "message %u", i);
            ck_assert_uint_eq(n, sizeof m - i);
            ck_assert_uint_eq(mcx_bad(m, n, i), n);
        }
        st = 0;
        ck_assert_uint_eq(mcapi_msg_available(ep[0], &st), 0);
    }
    harness_barrier();
    dt_fini();
}

/* A buffer too small: MCAPI_ERR_MSG_TRUNCATED, its first bytes, and the
 * message is consumed -- on both paths. */
static void case_truncated(void *arg)
{
    (void)arg;
    int me = plat_core();
    dt_init();
    mcapi_endpoint_t ep = dt_ep(1);
    uint8_t big[100], small[32];
    size_t n;
    mcapi_status_t st;
    if (me == 0) {
        mcapi_endpoint_t peer = dt_get(1, 1);
        for (unsigned i = 0; i < 3; i++) {
            harness_barrier();
            mcx_fill(big, sizeof big, i);
            st = 0;
            mcapi_msg_send(ep, peer, big, i == 2 ? sizeof small : sizeof big, 0, &st);
            DT_EQ(st, MCAPI_SUCCESS);
            harness_barrier();
        }
    } else {
        /* 0: posted in advance (the DMA truncates), 1: late (the copy does),
         * 2: exactly the buffer's size. */
        for (unsigned i = 0; i < 3; i++) {
            mcapi_request_t r;
            memset(small, 0, sizeof small);
            st = 0;
            if (i == 0) mcapi_msg_recv_i(ep, small, sizeof small, &r, &st);
            harness_barrier();
            harness_barrier();
            if (i == 0) {
                n = 0;
                DT_EQ(mcx_done(&r, st, &n), MCAPI_ERR_MSG_TRUNCATED);
            } else {
                st = 0;
                mcapi_msg_recv(ep, small, sizeof small, &n, &st);
                DT_EQ_AT(st, i == 1 ? MCAPI_ERR_MSG_TRUNCATED : MCAPI_SUCCESS, "message %u", i);
            }
            ck_assert_uint_eq(n, sizeof small);
            ck_assert_uint_eq(mcx_bad(small, sizeof small, i), sizeof small);
        }
        st = 0;
        ck_assert_uint_eq(mcapi_msg_available(ep, &st), 0);
    }
    harness_barrier();
    dt_fini();
}

/* Two senders, many messages each, receives sometimes posted in advance
 * and sometimes late: each sender's messages arrive whole and in order. */
static void case_many(void *arg)
{
    (void)arg;
    enum { N = 150 };
    int me = plat_core();
    dt_init();
    mcapi_endpoint_t ep = dt_ep(2);
    mcapi_status_t st;
    if (me > 0) {
        mcapi_endpoint_t to = dt_get(0, 2);
        uint8_t m[300];
        for (unsigned i = 0; i < N; i++) {
            size_t len = 4 + (i * 37u + (unsigned)me * 11u) % 290;
            mcx_fill(m, len, i * 4 + (unsigned)me);
            memcpy(m, &i, sizeof i);
            m[4] = (uint8_t)me;
            st = 0;
            if (i % 3) {
                mcapi_msg_send(ep, to, m, len, 0, &st);
                DT_EQ_AT(st, MCAPI_SUCCESS, "message %u", i);
            } else {
                mcapi_request_t r;
                mcapi_msg_send_i(ep, to, m, len, 0, &r, &st);
                DT_EQ_AT(mcx_done(&r, st, NULL), MCAPI_SUCCESS, "message %u", i);
            }
        }
    } else {
        unsigned next[3] = {0, 0, 0};
        uint8_t m[300];
        for (unsigned k = 0; k < 2 * N; k++) {
            size_t n = 0;
            st = 0;
            if (k % 2) {
                mcapi_msg_recv(ep, m, sizeof m, &n, &st);
            } else {
                mcapi_request_t r;
                mcapi_msg_recv_i(ep, m, sizeof m, &r, &st);
                st = mcx_done(&r, st, &n);
            }
            DT_EQ_AT(st, MCAPI_SUCCESS, "receive %u", k);
            unsigned i, from = m[4];
            memcpy(&i, m, sizeof i);
            ck_assert_msg(from == 1 || from == 2, "receive %u: from %u", k, from);
            ck_assert_msg(i == next[from], "receive %u: message %u of %u, expected %u", k, i, from,
                          next[from]);
            next[from]++;
            size_t len = 4 + (i * 37u + from * 11u) % 290;
            ck_assert_uint_eq(n, len);
            m[0] = m[1] = m[2] = m[3] = m[4] = 0;
            uint8_t want[300];
            mcx_fill(want, len, i * 4 + from);
            ck_assert_msg(memcmp(m + 5, want + 5, len - 5) == 0, "receive %u: bytes differ", k);
        }
    }
    harness_barrier();
    dt_fini();
}

/* Both nodes send three messages before receiving any: a sender stalled on
 * the other's full channel is freed by the other's waiting, not deadlocked. */
static void case_both_first(void *arg)
{
    (void)arg;
    int me = plat_core();
    dt_init();
    mcapi_endpoint_t ep = dt_ep(6), peer = dt_get((mcapi_node_t)(1 - me), 6);
    mcapi_status_t st;
    for (uint32_t i = 0; i < 3; i++) {
        uint32_t v = (uint32_t)me * 1000 + i;
        st = 0;
        mcapi_msg_send(ep, peer, &v, sizeof v, 0, &st);
        DT_EQ_AT(st, MCAPI_SUCCESS, "send %u", i);
    }
    for (uint32_t i = 0; i < 3; i++) {
        uint32_t v = 0;
        size_t n = 0;
        st = 0;
        mcapi_msg_recv(ep, &v, sizeof v, &n, &st);
        DT_EQ(st, MCAPI_SUCCESS);
        ck_assert_uint_eq(v, (uint32_t)(1 - me) * 1000 + i);
    }
    harness_barrier();
    dt_fini();
}

/* A node sends to its own endpoints (its own core's channels). */
static void case_loopback(void *arg)
{
    (void)arg;
    dt_init();
    mcapi_endpoint_t a = dt_ep(1), b = dt_ep(2);
    char m[] = "to myself", got[16];
    size_t n = 0;
    mcapi_status_t st = 0;
    mcapi_msg_send(a, b, m, sizeof m, 0, &st);
    DT_EQ(st, MCAPI_SUCCESS);
    st = 0;
    mcapi_msg_recv(b, got, sizeof got, &n, &st);
    DT_EQ(st, MCAPI_SUCCESS);
    ck_assert_uint_eq(n, sizeof m);
    ck_assert_str_eq(got, m);
    /* Posted first, then sent. */
    mcapi_request_t r;
    st = 0;
    mcapi_msg_recv_i(a, got, sizeof got, &r, &st);
    DT_EQ(st, MCAPI_PENDING);
    st = 0;
    mcapi_msg_send(b, a, m, 3, 0, &st);
    DT_EQ(st, MCAPI_SUCCESS);
    DT_EQ(mcx_done(&r, MCAPI_PENDING, &n), MCAPI_SUCCESS);
    ck_assert_uint_eq(n, 3);
    dt_fini();
}

/* Sends with a short timeout to a port whose receiver reads nothing for a
 * while: its internal buffers fill, and a later transfer waits in the
 * sender's engine. A send that reports a timeout must not arrive later
 * (the engine cannot withdraw a started transfer, which reads the caller's
 * buffer); here every send completes once the receiver reads. */
static void case_timeout_started(void *arg)
{
    (void)arg;
    enum { N = 40 };
    int me = plat_core();
    dt_init();
    mcapi_endpoint_t ep = dt_ep(3);
    mcapi_status_t st;
    if (me == 1) {
        mcapi_endpoint_t to = dt_get(0, 3);
        dt_set_timeout(ep, 2);
        uint64_t ok = 0;
        for (uint32_t i = 0; i < N; i++) {
            uint32_t v = i;
            st = 0;
            mcapi_msg_send(ep, to, &v, sizeof v, 0, &st);
            ck_assert_msg(st == MCAPI_SUCCESS || st == MCAPI_TIMEOUT, "send %u: %s", i,
                          mcx_name(st));
            if (st == MCAPI_SUCCESS) ok |= 1ull << i;
            v = 0xdeadu; /* a returned send's buffer is the caller's again */
        }
        dt_put(0, ok);
        dt_put(1, 1);
    } else {
        plat_sleep_ns(100 * 1000000ull);
        uint64_t got = 0;
        for (;;) {
            uint32_t v = 0;
            size_t n = 0;
            st = 0;
            dt_set_timeout(ep, 50);
            mcapi_msg_recv(ep, &v, sizeof v, &n, &st);
            if (st == MCAPI_TIMEOUT && dt_take(1)) break;
            if (st == MCAPI_TIMEOUT) continue;
            DT_EQ(st, MCAPI_SUCCESS);
            ck_assert_msg(v < N, "received %#x: a buffer reused after its send returned", v);
            ck_assert_msg(!(got >> v & 1), "message %u arrived twice", v);
            got |= 1ull << v;
        }
        uint64_t ok = dt_take(0);
        ck_assert_msg(got == ok, "sent %#llx (the rest timed out), received %#llx",
                      (unsigned long long)ok, (unsigned long long)got);
        ck_assert_msg(ok == (1ull << N) - 1, "sends timed out: %#llx succeeded",
                      (unsigned long long)ok);
    }
    harness_barrier();
    dt_fini();
}

/* A send to a deleted endpoint completes (its port drops it) instead of
 * waiting in the sender's engine, and the port's next endpoint does not
 * receive it. */
static void case_deleted(void *arg)
{
    (void)arg;
    int me = plat_core();
    dt_init();
    mcapi_endpoint_t ep = dt_ep(1);
    mcapi_status_t st;
    char buf[8];
    size_t n;
    if (me == 1) {
        st = 0;
        mcapi_endpoint_delete(ep, &st);
        DT_EQ(st, MCAPI_SUCCESS);
    }
    harness_barrier();
    if (me == 0) {
        mcapi_request_t r;
        st = 0;
        mcapi_msg_send_i(ep, dt_get(1, 1), "old", 4, 0, &r, &st);
        mcapi_status_t w = st;
        if (st == MCAPI_PENDING) mcapi_wait(&r, &n, DT_WAIT_MS, &w);
        DT_EQ(w, MCAPI_SUCCESS);
    }
    harness_barrier();
    if (me == 1) ep = dt_ep(1);
    harness_barrier();
    if (me == 0) {
        st = 0;
        mcapi_msg_send(ep, dt_get(1, 1), "new", 4, 0, &st);
        DT_EQ(st, MCAPI_SUCCESS);
    } else {
        st = 0;
        mcapi_msg_recv(ep, buf, sizeof buf, &n, &st);
        DT_EQ(st, MCAPI_SUCCESS);
        ck_assert_str_eq(buf, "new");
    }
    harness_barrier();
    dt_fini();
}

void dt_msg_cases(void)
{
    static const struct harness_case cases[] = {
        {.name = "msg_zero_copy", .core = case_zero_copy, .cores = 2},
        {.name = "msg_late", .core = case_late, .cores = 2},
        {.name = "msg_truncated", .core = case_truncated, .cores = 2},
        {.name = "msg_many", .core = case_many, .cores = 3},
        {.name = "msg_both_first", .core = case_both_first, .cores = 2},
        {.name = "msg_loopback", .core = case_loopback, .cores = 1},
        {.name = "msg_timeout_started", .core = case_timeout_started, .cores = 2},
        {.name = "msg_deleted", .core = case_deleted, .cores = 2},
    };
    harness_add_cases("mcapi_dma", cases, HARNESS_COUNT(cases));
}
