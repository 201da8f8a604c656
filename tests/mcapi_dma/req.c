/* req.c -- requests and timeouts: test, wait, wait_any, cancel. */
#include "dt.h"

#include <string.h>

#define MS 1000000ull

/* Receives that time out take nothing; a request that timed out in
 * mcapi_wait stays pending and completes later; a cancelled one reports
 * MCAPI_ERR_REQUEST_CANCELLED and the message goes to the next receive. */
static void case_timeouts(void *arg)
{
    (void)arg;
    int me = plat_core();
    dt_init();
    mcapi_endpoint_t ep = dt_ep(1);
    mcapi_status_t st;
    char buf[32];
    size_t n;
    if (me == 1) {
        dt_set_timeout(ep, DT_SHORT_MS);
        uint64_t t0 = plat_now_ns();
        st = 0;
        mcapi_msg_recv(ep, buf, sizeof buf, &n, &st);
        DT_EQ(st, MCAPI_TIMEOUT);
        ck_assert_uint_ge(plat_now_ns() - t0, DT_SHORT_MS * MS);
        dt_set_timeout(ep, MCAPI_TIMEOUT_IMMEDIATE);
        st = 0;
        mcapi_msg_recv(ep, buf, sizeof buf, &n, &st);
        DT_EQ(st, MCAPI_TIMEOUT);
        dt_set_timeout(ep, DT_WAIT_MS);

        mcapi_request_t r;
        st = 0;
        mcapi_msg_recv_i(ep, buf, sizeof buf, &r, &st);
        DT_EQ(st, MCAPI_PENDING);
        mcapi_status_t w = 0;
        ck_assert_int_eq(mcapi_test(&r, &n, &w), MCAPI_FALSE);
        DT_EQ(w, MCAPI_PENDING);
        w = 0;
        ck_assert_int_eq(mcapi_wait(&r, &n, DT_SHORT_MS, &w), MCAPI_FALSE);
        DT_EQ(w, MCAPI_TIMEOUT);
        harness_barrier(); /* now node 0 sends "one" */
        n = 0;
        DT_EQ(mcx_done(&r, MCAPI_PENDING, &n), MCAPI_SUCCESS);
        ck_assert_uint_eq(n, 4);
        ck_assert_str_eq(buf, "one");

        st = 0;
        mcapi_msg_recv_i(ep, buf, sizeof buf, &r, &st);
        DT_EQ(st, MCAPI_PENDING);
        st = 0;
        mcapi_cancel(&r, &st);
        DT_EQ(st, MCAPI_SUCCESS);
        w = 0;
        ck_assert_int_eq(mcapi_wait(&r, &n, DT_WAIT_MS, &w), MCAPI_TRUE);
        DT_EQ(w, MCAPI_ERR_REQUEST_CANCELLED);
        st = 0;
        mcapi_cancel(&r, &st);
        DT_EQ(st, MCAPI_ERR_REQUEST_INVALID);
        harness_barrier(); /* node 0 sends "two" */
        memset(buf, 0, sizeof buf);
        st = 0;
        mcapi_msg_recv(ep, buf, sizeof buf, &n, &st);
        DT_EQ(st, MCAPI_SUCCESS);
        ck_assert_str_eq(buf, "two");
    } else {
        mcapi_endpoint_t peer = dt_get(1, 1);
        harness_barrier();
        st = 0;
        mcapi_msg_send(ep, peer, "one", 4, 0, &st);
        DT_EQ(st, MCAPI_SUCCESS);
        harness_barrier();
        st = 0;
        mcapi_msg_send(ep, peer, "two", 4, 0, &st);
        DT_EQ(st, MCAPI_SUCCESS);
    }
    harness_barrier();
    dt_fini();
}

/* wait_any over receives on three endpoints reports the one that got a
 * message; the others stay pending. */
static void case_wait_any(void *arg)
{
    (void)arg;
    int me = plat_core();
    dt_init();
    mcapi_endpoint_t ep[3] = {dt_ep(1), dt_ep(2), dt_ep(3)};
    mcapi_status_t st;
    static const unsigned order[] = {2, 0, 1};
    if (me == 1) {
        uint32_t v[3] = {0, 0, 0};
        mcapi_request_t r[3];
        mcapi_request_t *rp[3] = {&r[0], &r[1], &r[2]};
        for (unsigned i = 0; i < 3; i++) {
            st = 0;
            mcapi_msg_recv_i(ep[i], &v[i], sizeof v[i], &r[i], &st);
            DT_EQ(st, MCAPI_PENDING);
        }
        harness_barrier();
        bool done[3] = {false, false, false};
        for (unsigned k = 0; k < 3; k++) {
            harness_barrier(); /* the next one was sent */
            size_t n = 0;
            mcapi_status_t w = 0;
            unsigned i = mcapi_wait_any(3, rp, &n, DT_WAIT_MS, &w);
            DT_EQ(w, MCAPI_SUCCESS);
            ck_assert_uint_eq(i, order[k]);
            ck_assert(!done[i]);
            done[i] = true;
            ck_assert_uint_eq(v[i], 100 + order[k]);
            /* A finished request is freed: wait_any then skips it... by
             * being given a fresh pending one on the same slot. */
            if (k < 2) {
                st = 0;
                mcapi_msg_recv_i(ep[i], &v[i], sizeof v[i], &r[i], &st);
                DT_EQ(st, MCAPI_PENDING);
            }
            harness_barrier(); /* handled: only now may the next one come */
        }
        for (unsigned i = 0; i < 3; i++)
            if (done[i] && i != order[2]) {
                st = 0;
                mcapi_cancel(&r[i], &st);
                DT_EQ(st, MCAPI_SUCCESS);
            }
    } else {
        harness_barrier();
        for (unsigned k = 0; k < 3; k++) {
            uint32_t v = 100 + order[k];
            st = 0;
            mcapi_msg_send(ep[0], dt_get(1, order[k] + 1), &v, sizeof v, 0, &st);
            DT_EQ(st, MCAPI_SUCCESS);
            harness_barrier();
            harness_barrier();
        }
    }
    harness_barrier();
    dt_fini();
}

/* With FUNCAPI's handshake (mcapi_param_t.dma_handshake): an open whose
 * peer never opens stays pending (wait times out), can be cancelled, and a
 * later open completes once the peer opens. */
static void case_open_wait(void *arg)
{
    (void)arg;
    int me = plat_core();
    dt_init_handshake(0);
    mcapi_endpoint_t ep = dt_ep(2);
    mcapi_status_t st;
    mcapi_request_t r;
    if (me == 0) {
        st = 0;
        mcapi_pktchan_connect_i(ep, dt_get(1, 2), &r, &st);
        DT_EQ(mcx_done(&r, st, NULL), MCAPI_SUCCESS);
        mcapi_pktchan_send_hndl_t h = 0;
        st = 0;
        mcapi_pktchan_send_open_i(&h, ep, &r, &st);
        DT_EQ(st, MCAPI_PENDING);
        size_t n;
        mcapi_status_t w = 0;
        ck_assert_int_eq(mcapi_wait(&r, &n, DT_SHORT_MS, &w), MCAPI_FALSE);
        DT_EQ(w, MCAPI_TIMEOUT);
        mcapi_endp_attr_status_t es = 0;
        st = 0;
        mcapi_endpoint_get_attribute(ep, MCAPI_ENDP_ATTR_ENDP_STATUS, &es, sizeof es, &st);
        DT_EQ(st, MCAPI_SUCCESS);
        ck_assert(es & MCAPI_ENDP_ATTR_STATUS_OPEN_PENDING);
        ck_assert(es & MCAPI_ENDP_ATTR_STATUS_CONNECTED);
        st = 0;
        mcapi_cancel(&r, &st);
        DT_EQ(st, MCAPI_SUCCESS);
        harness_barrier(); /* the receiver opens now */
        h = dt_pkt_open_send(ep);
        st = 0;
        mcapi_pktchan_send(h, "hi", 3, &st);
        DT_EQ(st, MCAPI_SUCCESS);
    } else {
        harness_barrier();
        mcapi_pktchan_recv_hndl_t h = dt_pkt_open_recv(ep);
        void *p;
        size_t n;
        st = 0;
        mcapi_pktchan_recv(h, &p, &n, &st);
        DT_EQ(st, MCAPI_SUCCESS);
        ck_assert_str_eq(p, "hi");
        st = 0;
        mcapi_pktchan_release(p, &st);
        DT_EQ(st, MCAPI_SUCCESS);
    }
    harness_barrier();
    dt_fini();
}

/* Cancel of an _i send the engine has started (the receiver's channel
 * is full, so the transfer waits in the engine): it cannot be withdrawn,
 * so cancel waits for it and the request completes normally; the buffer
 * is the caller's again once cancel returns. */
static void case_cancel_started(void *arg)
{
    (void)arg;
    int me = plat_core();
    dt_init();
    mcapi_endpoint_t ep = dt_ep(1);
    mcapi_status_t st;
    char buf[8];
    size_t n;
    if (me == 0) {
        mcapi_endpoint_t peer = dt_get(1, 1);
        st = 0;
        mcapi_msg_send(ep, peer, "one", 4, 0, &st); /* fills the posted buffer */
        DT_EQ(st, MCAPI_SUCCESS);
        strcpy(buf, "two");
        mcapi_request_t r;
        st = 0;
        mcapi_msg_send_i(ep, peer, buf, 4, 0, &r, &st); /* nobody re-arms the channel yet */
        DT_EQ(st, MCAPI_PENDING);
        harness_barrier(); /* node 1 receives now */
        st = 0;
        mcapi_cancel(&r, &st);
        DT_EQ(st, MCAPI_ERR_REQUEST_INVALID);
        strcpy(buf, "bad");
        n = 0;
        mcapi_status_t w = 0;
        ck_assert_int_eq(mcapi_wait(&r, &n, DT_WAIT_MS, &w), MCAPI_TRUE);
        DT_EQ(w, MCAPI_SUCCESS);
        ck_assert_uint_eq(n, 4);
    } else {
        harness_barrier();
        for (unsigned i = 0; i < 2; i++) {
            memset(buf, 0, sizeof buf);
            st = 0;
            mcapi_msg_recv(ep, buf, sizeof buf, &n, &st);
            DT_EQ(st, MCAPI_SUCCESS);
            ck_assert_str_eq(buf, i ? "two" : "one");
        }
    }
    harness_barrier();
    dt_fini();
}

void dt_req_cases(void)
{
    static const struct harness_case cases[] = {
        {.name = "req_timeouts", .core = case_timeouts, .cores = 2},
        {.name = "req_wait_any", .core = case_wait_any, .cores = 2},
        {.name = "req_open_wait", .core = case_open_wait, .cores = 2},
        {.name = "req_cancel_started", .core = case_cancel_started, .cores = 2},
    };
    harness_add_cases("mcapi_dma", cases, HARNESS_COUNT(cases));
}
