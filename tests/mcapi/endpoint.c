/* endpoint.c -- create, get, get_i, delete, release; their limits. */
#include "mt.h"

/* Ports: explicit, MCAPI_PORT_ANY (the lowest free), taken, out of range. */
static void case_create(void *arg)
{
    (void)arg;
    mt_init(0);
    mcapi_status_t st = 0;
    mcapi_endpoint_t any0 = mcapi_endpoint_create(MCAPI_PORT_ANY, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    ck_assert_uint_ne(any0, 0);
    /* The lowest free port of a fresh node is MCAPI_MIN_PORT. */
    ck_assert_uint_eq(mt_get(0, MCAPI_MIN_PORT), any0);

    mcapi_endpoint_t p1 = mt_ep(MCAPI_MIN_PORT + 1);
    ck_assert_uint_ne(p1, any0);
    st = 0;
    mcapi_endpoint_t any2 = mcapi_endpoint_create(MCAPI_PORT_ANY, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    ck_assert_uint_ne(any2, any0);
    ck_assert_uint_ne(any2, p1);
    ck_assert_uint_eq(mt_get(0, MCAPI_MIN_PORT + 2), any2);

    st = 0;
    mcapi_endpoint_create(MCAPI_MIN_PORT + 1, &st);
    MT_EQ(st, MCAPI_ERR_ENDP_EXISTS);
    st = 0;
    mcapi_endpoint_create(MCAPI_MIN_PORT, &st);
    MT_EQ(st, MCAPI_ERR_ENDP_EXISTS);

    mcapi_endpoint_t top = mt_ep(MCAPI_MAX_PORT);
    ck_assert_uint_eq(mt_get(0, MCAPI_MAX_PORT), top);
    st = 0;
    mcapi_endpoint_create(MCAPI_MAX_PORT + 1, &st);
    MT_EQ(st, MCAPI_ERR_PORT_INVALID);
    st = 0;
    mcapi_endpoint_create(MCAPI_MAX_PORT + 1000, &st);
    MT_EQ(st, MCAPI_ERR_PORT_INVALID);
    mt_fini();
}

/* MCAPI_MAX_ENDPOINTS per node exactly; a delete makes room again; the
 * limit is per node. */
static void case_limit(void *arg)
{
    (void)arg;
    int me = plat_core();
    mt_init((mcapi_node_t)me);
    mcapi_endpoint_t ep[MCAPI_MAX_ENDPOINTS];
    mcapi_status_t st;
    for (int i = 0; i < MCAPI_MAX_ENDPOINTS; i++) {
        st = 0;
        ep[i] = mcapi_endpoint_create((mcapi_port_t)(10 + i), &st);
        MT_EQ_AT(st, MCAPI_SUCCESS, "endpoint %d", i);
        for (int j = 0; j < i; j++) ck_assert_uint_ne(ep[i], ep[j]);
    }
    st = 0;
    mcapi_endpoint_create(10 + MCAPI_MAX_ENDPOINTS, &st);
    MT_EQ(st, MCAPI_ERR_MEM_LIMIT);
    st = 0;
    mcapi_endpoint_create(MCAPI_PORT_ANY, &st);
    MT_EQ(st, MCAPI_ERR_MEM_LIMIT);
    st = 0;
    mcapi_endpoint_delete(ep[5], &st);
    MT_EQ(st, MCAPI_SUCCESS);
    st = 0;
    ep[5] = mcapi_endpoint_create(500, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    st = 0;
    mcapi_endpoint_create(501, &st);
    MT_EQ(st, MCAPI_ERR_MEM_LIMIT);
    harness_barrier();
    mt_fini();
}

/* get_i of an endpoint that does not exist yet stays pending, then
 * completes when it is created; a blocking get times out. */
static void case_get(void *arg)
{
    (void)arg;
    int me = plat_core();
    mt_init((mcapi_node_t)me);
    mcapi_status_t st = 0;
    if (me == 0) {
        mcapi_endpoint_t got = 0;
        mcapi_request_t r;
        mcapi_endpoint_get_i(MT_DOMAIN, 1, 7, &got, &r, &st);
        MT_EQ(st, MCAPI_PENDING);
        size_t size;
        st = 0;
        ck_assert_int_eq(mcapi_test(&r, &size, &st), MCAPI_FALSE);
        MT_EQ(st, MCAPI_PENDING);
        uint64_t t0 = plat_now_ns();
        st = 0;
        mcapi_endpoint_get(MT_DOMAIN, 1, 8, MT_SHORT_MS, &st);
        MT_EQ(st, MCAPI_TIMEOUT);
        ck_assert_msg(plat_now_ns() - t0 >= MT_SHORT_MS * MT_MS, "get timed out after %.3f ms",
                      mt_ms_since(t0));
        st = 0;
        ck_assert_int_eq(mcapi_test(&r, &size, &st), MCAPI_FALSE);
        MT_EQ(st, MCAPI_PENDING);
        harness_barrier(); /* 1: node 1 creates port 7 */
        harness_barrier();
        st = 0;
        ck_assert_int_eq(mcapi_wait(&r, &size, MT_WAIT_MS, &st), MCAPI_TRUE);
        MT_EQ(st, MCAPI_SUCCESS);
        ck_assert_uint_eq(got, mt_take(0));
        /* A get of an existing endpoint needs no time. */
        st = 0;
        ck_assert_uint_eq(mcapi_endpoint_get(MT_DOMAIN, 1, 7, MCAPI_TIMEOUT_IMMEDIATE, &st), got);
        MT_EQ(st, MCAPI_SUCCESS);
        harness_barrier(); /* 2: node 1 reads the get count and source */
        harness_barrier();
        st = 0;
        mcapi_endpoint_release(got, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        st = 0;
        mcapi_endpoint_release(got, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        harness_barrier(); /* 3 */
    } else {
        harness_barrier(); /* 1 */
        mcapi_endpoint_t ep = mt_ep(7);
        mt_put(0, ep);
        harness_barrier();
        harness_barrier(); /* 2 */
        mcapi_endp_attr_get_count_t count = 99;
        mcapi_endpoint_get_attribute(ep, MCAPI_ENDP_ATTR_GET_COUNT, &count, sizeof count, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        ck_assert_uint_eq(count, 2);
        mcapi_endp_attr_get_source_t src = {0, 0};
        st = 0;
        mcapi_endpoint_get_attribute(ep, MCAPI_ENDP_ATTR_GET_SOURCE, &src, sizeof src, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        ck_assert_uint_eq(src.domain_id, MT_DOMAIN);
        ck_assert_uint_eq(src.node_id, 0);
        harness_barrier();
        harness_barrier(); /* 3: released */
        count = 99;
        st = 0;
        mcapi_endpoint_get_attribute(ep, MCAPI_ENDP_ATTR_GET_COUNT, &count, sizeof count, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        ck_assert_uint_eq(count, 0);
    }
    harness_barrier();
    mt_fini();
}

/* A get of a node that has not initialised yet waits for it too. */
static void case_get_late_node(void *arg)
{
    (void)arg;
    int me = plat_core();
    mcapi_status_t st = 0;
    mcapi_endpoint_t got = 0;
    mcapi_request_t r;
    if (me == 0) {
        mt_init(0);
        mcapi_endpoint_get_i(MT_DOMAIN, 1, 5, &got, &r, &st);
        MT_EQ(st, MCAPI_PENDING);
        st = 0;
        mcapi_endpoint_get(MT_DOMAIN, 2, 5, MT_SHORT_MS, &st);
        MT_EQ(st, MCAPI_TIMEOUT);
    }
    harness_barrier();
    if (me == 1) {
        mt_init(1);
        mt_put(0, mt_ep(5));
    }
    harness_barrier();
    if (me == 0) {
        size_t size;
        st = 0;
        ck_assert_int_eq(mcapi_wait(&r, &size, MT_WAIT_MS, &st), MCAPI_TRUE);
        MT_EQ(st, MCAPI_SUCCESS);
        ck_assert_uint_eq(got, mt_take(0));
        /* A blocking get with no timeout at all, satisfied later. */
        st = 0;
        got = mcapi_endpoint_get(MT_DOMAIN, 1, 6, MCAPI_TIMEOUT_INFINITE, &st);
        MT_EQ(st, MCAPI_SUCCESS);
    } else {
        plat_sleep_ns(5 * MT_MS);
        mt_put(1, mt_ep(6));
    }
    harness_barrier();
    if (me == 0) ck_assert_uint_eq(got, mt_take(1));
    harness_barrier();
    mt_fini();
}

/* Bad arguments of get: ranges, and a valid domain other than the node's
 * own (docs/mcapi.md: a region holds one domain). */
static void case_get_bad(void *arg)
{
    (void)arg;
    mt_init(0);
    mt_ep(1);
    mcapi_status_t st = 0;
    mcapi_endpoint_get(MT_DOMAIN, 0, MCAPI_MAX_PORT + 1, MCAPI_TIMEOUT_IMMEDIATE, &st);
    MT_EQ(st, MCAPI_ERR_PORT_INVALID);
    st = 0;
    mcapi_endpoint_get(MT_DOMAIN, MCAPI_MAX_NODE + 1, 1, MCAPI_TIMEOUT_IMMEDIATE, &st);
    MT_EQ(st, MCAPI_ERR_NODE_INVALID);
    st = 0;
    mcapi_endpoint_get(MCAPI_MAX_DOMAIN + 1, 0, 1, MCAPI_TIMEOUT_IMMEDIATE, &st);
    MT_EQ(st, MCAPI_ERR_DOMAIN_INVALID);
    st = 0;
    mcapi_endpoint_get(MT_DOMAIN + 1, 0, 1, MCAPI_TIMEOUT_IMMEDIATE, &st);
    MT_EQ(st, MCAPI_ERR_DOMAIN_INVALID);
    mcapi_endpoint_t e;
    mcapi_request_t r;
    st = 0;
    mcapi_endpoint_get_i(MT_DOMAIN, 0, MCAPI_MAX_PORT + 1, &e, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_PORT_INVALID);
    st = 0;
    mcapi_endpoint_get_i(MCAPI_MAX_DOMAIN + 1, 0, 1, &e, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_DOMAIN_INVALID);
    /* IMMEDIATE: an existing endpoint is found, a missing one is not. */
    st = 0;
    mcapi_endpoint_get(MT_DOMAIN, 0, 1, MCAPI_TIMEOUT_IMMEDIATE, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    st = 0;
    mcapi_endpoint_get(MT_DOMAIN, 0, 2, MCAPI_TIMEOUT_IMMEDIATE, &st);
    MT_EQ(st, MCAPI_TIMEOUT);
    mt_fini();
}

/* MCAPI_MAX_ENDPOINT_GETS outstanding gets of one endpoint exactly. */
static void case_get_limit(void *arg)
{
    (void)arg;
    int me = plat_core();
    mt_init((mcapi_node_t)me);
    mcapi_status_t st = 0;
    mcapi_endpoint_t own = 0;
    if (me == 1) own = mt_ep(3);
    harness_barrier();
    if (me == 0) {
        mcapi_endpoint_t first = mt_get(1, 3);
        for (int i = 1; i < MCAPI_MAX_ENDPOINT_GETS; i++) {
            st = 0;
            ck_assert_uint_eq(mcapi_endpoint_get(MT_DOMAIN, 1, 3, MT_WAIT_MS, &st), first);
            MT_EQ_AT(st, MCAPI_SUCCESS, "get %d", i);
        }
        st = 0;
        mcapi_endpoint_get(MT_DOMAIN, 1, 3, MT_SHORT_MS, &st);
        MT_EQ(st, MCAPI_ERR_ENDP_GET_LIMIT);
        mcapi_endpoint_t e;
        mcapi_request_t r;
        st = 0;
        mcapi_endpoint_get_i(MT_DOMAIN, 1, 3, &e, &r, &st);
        MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_ENDP_GET_LIMIT);
        st = 0;
        mcapi_endpoint_release(first, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        st = 0;
        mcapi_endpoint_get(MT_DOMAIN, 1, 3, MT_WAIT_MS, &st);
        MT_EQ(st, MCAPI_SUCCESS);
    }
    harness_barrier();
    if (me == 1) {
        mcapi_endp_attr_get_count_t count = 0;
        mcapi_endpoint_get_attribute(own, MCAPI_ENDP_ATTR_GET_COUNT, &count, sizeof count, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        ck_assert_uint_eq(count, MCAPI_MAX_ENDPOINT_GETS);
    }
    harness_barrier();
    mt_fini();
}

/* Delete: only by the owner, not while a channel is open, and the handle
 * is stale afterwards, also after its slot is reused. */
static void case_delete(void *arg)
{
    (void)arg;
    int me = plat_core();
    mt_init((mcapi_node_t)me);
    mcapi_status_t st = 0;
    char b[8] = "hello";
    if (me == 1) mt_put(0, mt_ep(4));
    harness_barrier();
    mcapi_endpoint_t ep = (mcapi_endpoint_t)mt_take(0);
    if (me == 0) {
        mcapi_endpoint_t got = mt_get(1, 4);
        ck_assert_uint_eq(got, ep);
        mcapi_endpoint_delete(got, &st);
        MT_EQ(st, MCAPI_ERR_ENDP_NOTOWNER);
    }
    harness_barrier();
    if (me == 1) {
        mcapi_endpoint_delete(ep, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        st = 0;
        mcapi_endpoint_delete(ep, &st);
        MT_EQ(st, MCAPI_ERR_ENDP_INVALID);
        st = 0;
        mcapi_msg_available(ep, &st);
        MT_EQ(st, MCAPI_ERR_ENDP_INVALID);
    }
    harness_barrier();
    if (me == 0) {
        mcapi_endpoint_t mine = mt_ep(1);
        st = 0;
        mcapi_msg_send(mine, ep, b, sizeof b, 1, &st);
        MT_EQ(st, MCAPI_ERR_ENDP_INVALID);
        /* A new endpoint on the same port is another endpoint. */
        st = 0;
        mcapi_endpoint_get(MT_DOMAIN, 1, 4, MT_SHORT_MS, &st);
        MT_EQ(st, MCAPI_TIMEOUT);
    }
    harness_barrier();
    if (me == 1) {
        mcapi_endpoint_t again = mt_ep(4);
        ck_assert_uint_ne(again, ep);
        st = 0;
        mcapi_msg_available(ep, &st);
        MT_EQ(st, MCAPI_ERR_ENDP_INVALID);
        st = 0;
        mcapi_endpoint_delete(ep, &st);
        MT_EQ(st, MCAPI_ERR_ENDP_INVALID);
        st = 0;
        ck_assert_uint_eq(mcapi_msg_available(again, &st), 0);
        MT_EQ(st, MCAPI_SUCCESS);

        /* Not while a channel is open; fine once it is closed. */
        mcapi_endpoint_t tx = mt_ep(5), rx = mt_ep(6);
        mcapi_pktchan_send_hndl_t sh;
        mcapi_pktchan_recv_hndl_t rh;
        mt_pkt_local(tx, rx, &sh, &rh);
        st = 0;
        mcapi_endpoint_delete(tx, &st);
        MT_EQ(st, MCAPI_ERR_CHAN_OPEN);
        st = 0;
        mcapi_endpoint_delete(rx, &st);
        MT_EQ(st, MCAPI_ERR_CHAN_OPEN);
        mt_pkt_close_send(sh);
        mt_pkt_close_recv(rh);
        st = 0;
        mcapi_endpoint_delete(tx, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        st = 0;
        mcapi_endpoint_delete(rx, &st);
        MT_EQ(st, MCAPI_SUCCESS);
    }
    harness_barrier();
    mt_fini();
}

/* An endpoint deleted while a send to it waits for room: the send ends
 * with MCAPI_ERR_ENDP_DELETED instead of waiting on. */
static void case_deleted_pending(void *arg)
{
    (void)arg;
    int me = plat_core();
    mt_init((mcapi_node_t)me);
    mcapi_endpoint_t ep = mt_ep(1);
    mcapi_status_t st;
    mcapi_request_t r;
    harness_barrier();
    if (me == 0) {
        mcapi_endpoint_t rx = mt_get(1, 1);
        for (int i = 0; i < MCAPI_MAX_QUEUE_ELEMENTS; i++) {
            st = 0;
            mcapi_msg_send(ep, rx, &i, sizeof i, 1, &st);
            MT_EQ(st, MCAPI_SUCCESS);
        }
        st = 0;
        mcapi_msg_send_i(ep, rx, "x", 2, 1, &r, &st);
        MT_EQ(st, MCAPI_PENDING);
    }
    harness_barrier();
    if (me == 1) {
        st = 0;
        mcapi_endpoint_delete(ep, &st);
        MT_EQ(st, MCAPI_SUCCESS);
    }
    harness_barrier();
    if (me == 0) {
        size_t size;
        st = 0;
        mcapi_wait(&r, &size, MT_WAIT_MS, &st);
        MT_EQ(st, MCAPI_ERR_ENDP_DELETED);

        /* The owner's own pending receive and pending open (docs/mcapi.md:
         * an unopened end may be deleted). */
        mcapi_endpoint_t a = mt_ep(2), b = mt_ep(3);
        char buf[8];
        mcapi_request_t rr, ro;
        st = 0;
        mcapi_msg_recv_i(a, buf, sizeof buf, &rr, &st);
        MT_EQ(st, MCAPI_PENDING);
        mcapi_pktchan_send_hndl_t sh;
        st = 0;
        mcapi_pktchan_send_open_i(&sh, b, &ro, &st); /* pending: not connected */
        MT_EQ(st, MCAPI_PENDING);
        st = 0;
        mcapi_endpoint_delete(a, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        st = 0;
        mcapi_endpoint_delete(b, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        st = 0;
        mcapi_wait(&rr, &size, MT_WAIT_MS, &st);
        MT_EQ(st, MCAPI_ERR_ENDP_DELETED);
        st = 0;
        mcapi_wait(&ro, &size, MT_WAIT_MS, &st);
        MT_EQ(st, MCAPI_ERR_ENDP_DELETED);
    }
    harness_barrier();
    mt_fini();
}

/* A node that finalises deletes its endpoints: a send waiting for room
 * at one of them ends with MCAPI_ERR_ENDP_DELETED, later ones with
 * MCAPI_ERR_ENDP_INVALID. */
static void case_finalize_pending(void *arg)
{
    (void)arg;
    int me = plat_core();
    mt_init((mcapi_node_t)me);
    mcapi_endpoint_t ep = mt_ep(1);
    mcapi_status_t st;
    mcapi_request_t r;
    mcapi_endpoint_t rx = mt_get((mcapi_node_t)(1 - me), 1);
    harness_barrier();
    if (me == 0) {
        for (int i = 0; i < MCAPI_MAX_QUEUE_ELEMENTS; i++) {
            st = 0;
            mcapi_msg_send(ep, rx, &i, sizeof i, 1, &st);
            MT_EQ(st, MCAPI_SUCCESS);
        }
        st = 0;
        mcapi_msg_send_i(ep, rx, "x", 2, 1, &r, &st);
        MT_EQ(st, MCAPI_PENDING);
    }
    harness_barrier();
    if (me == 1) mt_fini();
    harness_barrier();
    if (me == 0) {
        size_t size;
        st = 0;
        mcapi_wait(&r, &size, MT_WAIT_MS, &st);
        MT_EQ(st, MCAPI_ERR_ENDP_DELETED);
        st = 0;
        mcapi_msg_send(ep, rx, "x", 2, 1, &st);
        MT_EQ(st, MCAPI_ERR_ENDP_INVALID);
        mt_fini();
    }
}

/* Release drops a reference; garbage and deleted handles are refused. */
static void case_release(void *arg)
{
    (void)arg;
    int me = plat_core();
    mt_init((mcapi_node_t)me);
    mcapi_status_t st = 0;
    if (me == 1) mt_ep(2);
    harness_barrier();
    if (me == 0) {
        mcapi_endpoint_t e = mt_get(1, 2);
        mcapi_endpoint_release(e, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        st = 0;
        mcapi_endpoint_release(MT_GARBAGE, &st);
        MT_EQ(st, MCAPI_ERR_ENDP_INVALID);
        st = 0;
        mcapi_endpoint_release(0, &st);
        MT_EQ(st, MCAPI_ERR_ENDP_INVALID);
        mcapi_endpoint_t mine = mt_ep(9);
        st = 0;
        mcapi_endpoint_delete(mine, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        st = 0;
        mcapi_endpoint_release(mine, &st);
        MT_EQ(st, MCAPI_ERR_ENDP_INVALID);
    }
    harness_barrier();
    mt_fini();
}

void mt_endpoint(void)
{
    static const struct harness_case cases[] = {
        {.name = "endp_create", .core = case_create, .cores = 1},
        {.name = "endp_limit", .core = case_limit, .cores = 2},
        {.name = "endp_get", .core = case_get, .cores = 2},
        {.name = "endp_get_late_node", .core = case_get_late_node, .cores = 2},
        {.name = "endp_get_bad", .core = case_get_bad, .cores = 1},
        {.name = "endp_get_limit", .core = case_get_limit, .cores = 2},
        {.name = "endp_delete", .core = case_delete, .cores = 2},
        {.name = "endp_release", .core = case_release, .cores = 2},
        {.name = "endp_deleted_pending", .core = case_deleted_pending, .cores = 2},
        {.name = "endp_finalize_pending", .core = case_finalize_pending, .cores = 2},
    };
    mt_add(cases, HARNESS_COUNT(cases));
}
