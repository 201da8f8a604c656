/* attributes.c -- mcapi_endpoint_get_attribute / _set_attribute. */
#include "mt.h"

#include <string.h>

/* The size each endpoint attribute takes (the types of mcapi.h). */
static const size_t attr_size[MCAPI_ENDP_ATTR_END] = {
    [MCAPI_ENDP_ATTR_TYPE] = sizeof(mcapi_endp_attr_type_t),
    [MCAPI_ENDP_ATTR_GET_COUNT] = sizeof(mcapi_endp_attr_get_count_t),
    [MCAPI_ENDP_ATTR_GET_SOURCE] = sizeof(mcapi_endp_attr_get_source_t),
    [MCAPI_ENDP_ATTR_MAX_PAYLOAD_SIZE] = sizeof(mcapi_endp_attr_max_payload_size_t),
    [MCAPI_ENDP_ATTR_BUFFER_TYPE] = sizeof(mcapi_endp_attr_buffer_type_t),
    [MCAPI_ENDP_ATTR_MEMORY_TYPE] = sizeof(mcapi_endp_attr_memory_type_t),
    [MCAPI_ENDP_ATTR_NUM_PRIORITIES] = sizeof(mcapi_endp_attr_num_priorities_t),
    [MCAPI_ENDP_ATTR_PRIORITY] = sizeof(mcapi_endp_attr_priority_t),
    [MCAPI_ENDP_ATTR_NUM_SEND_BUFFERS] = sizeof(mcapi_endp_attr_num_send_buffers_t),
    [MCAPI_ENDP_ATTR_NUM_RECV_BUFFERS] = sizeof(mcapi_endp_attr_num_recv_buffers_t),
    [MCAPI_ENDP_ATTR_ENDP_STATUS] = sizeof(mcapi_endp_attr_status_t),
    [MCAPI_ENDP_ATTR_TIMEOUT] = sizeof(mcapi_endp_attr_timeout_t),
};

static mcapi_uint_t get_uint(mcapi_endpoint_t ep, mcapi_uint_t num)
{
    mcapi_uint_t v = 0xA5A5A5A5u;
    mcapi_status_t st = 0;
    ck_assert_uint_eq(attr_size[num], sizeof v);
    mcapi_endpoint_get_attribute(ep, num, &v, sizeof v, &st);
    MT_EQ_AT(st, MCAPI_SUCCESS, "attribute %u", num);
    return v;
}

/* Every attribute number can be read with its size, and only with it; the
 * defaults mcapi.h documents. */
static void case_get(void *arg)
{
    (void)arg;
    mt_init(0);
    mcapi_status_t st = 0;
    mcapi_endpoint_t ep = mcapi_endpoint_create(3, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    unsigned char buf[64];
    for (mcapi_uint_t a = 0; a < MCAPI_ENDP_ATTR_END; a++) {
        st = 0;
        mcapi_endpoint_get_attribute(ep, a, buf, attr_size[a], &st);
        MT_EQ_AT(st, MCAPI_SUCCESS, "attribute %u", a);
        st = 0;
        mcapi_endpoint_get_attribute(ep, a, buf, attr_size[a] + 1, &st);
        MT_EQ_AT(st, MCAPI_ERR_ATTR_SIZE, "attribute %u, size + 1", a);
        st = 0;
        mcapi_endpoint_get_attribute(ep, a, buf, 1, &st);
        MT_EQ_AT(st, MCAPI_ERR_ATTR_SIZE, "attribute %u, size 1", a);
        st = 0;
        mcapi_endpoint_get_attribute(ep, a, NULL, attr_size[a], &st);
        MT_EQ_AT(st, MCAPI_ERR_PARAMETER, "attribute %u, NULL", a);
        st = 0;
        mcapi_endpoint_get_attribute(MT_GARBAGE, a, buf, attr_size[a], &st);
        MT_EQ_AT(st, MCAPI_ERR_ENDP_INVALID, "attribute %u, garbage endpoint", a);
    }
    st = 0;
    mcapi_endpoint_get_attribute(ep, MCAPI_ENDP_ATTR_END, buf, sizeof(mcapi_uint_t), &st);
    MT_EQ(st, MCAPI_ERR_ATTR_NUM);
    st = 0;
    mcapi_endpoint_get_attribute(ep, MCAPI_MAX_NUM_ENDP_ATTRS_MCA - 1, buf, sizeof(mcapi_uint_t),
                                 &st);
    MT_EQ(st, MCAPI_ERR_ATTR_NUM);
    st = 0;
    mcapi_endpoint_get_attribute(ep, mcapi_end_endp_attribute(3), buf, sizeof(mcapi_uint_t), &st);
    MT_EQ(st, MCAPI_ERR_ATTR_NUM);
    /* The organisations' ranges (docs/mcapi.md): none is supported. */
    for (unsigned org = 0; org <= MCA_ORG_ID_TBA; org++) {
        st = 0;
        mcapi_endpoint_get_attribute(ep, mcapi_start_endp_attribute(org), buf, sizeof(mcapi_uint_t),
                                     &st);
        MT_EQ_AT(st, MCAPI_ERR_ATTR_NOTSUPPORTED, "organisation %u", org);
    }

    ck_assert_uint_eq(get_uint(ep, MCAPI_ENDP_ATTR_TYPE), MCAPI_ENDP_ATTR_TYPE_MESSAGE);
    ck_assert_uint_eq(get_uint(ep, MCAPI_ENDP_ATTR_GET_COUNT), 0);
    ck_assert_uint_eq(get_uint(ep, MCAPI_ENDP_ATTR_BUFFER_TYPE), MCAPI_ENDP_ATTR_FIFO_BUFFER);
    ck_assert_uint_eq(get_uint(ep, MCAPI_ENDP_ATTR_MEMORY_TYPE),
                      MCAPI_ENDP_ATTR_LOCAL_MEMORY | MCAPI_ENDP_ATTR_BLOCK_ON_MEM_LIMIT);
    ck_assert_uint_le(get_uint(ep, MCAPI_ENDP_ATTR_PRIORITY), MCAPI_MAX_PRIORITY);
    ck_assert_uint_eq(get_uint(ep, MCAPI_ENDP_ATTR_ENDP_STATUS) &
                          (MCAPI_ENDP_ATTR_STATUS_CONNECTED | MCAPI_ENDP_ATTR_STATUS_OPEN),
                      0);
    ck_assert_uint_eq(get_uint(ep, MCAPI_ENDP_ATTR_TIMEOUT),
                      (mcapi_timeout_t)MCAPI_TIMEOUT_INFINITE);
    mcapi_endp_attr_get_source_t src;
    st = 0;
    mcapi_endpoint_get_attribute(ep, MCAPI_ENDP_ATTR_GET_SOURCE, &src, sizeof src, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    ck_assert_uint_eq(src.domain_id, (mcapi_domain_t)MCAPI_DOMAIN_INVALID);
    ck_assert_uint_eq(src.node_id, (mcapi_node_t)MCAPI_NODE_INVALID);
    mcapi_endp_attr_max_payload_size_t max = 0;
    st = 0;
    mcapi_endpoint_get_attribute(ep, MCAPI_ENDP_ATTR_MAX_PAYLOAD_SIZE, &max, sizeof max, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    ck_assert_int_eq(max, MCAPI_MAX_PKT_SIZE);
    mcapi_endp_attr_num_priorities_t np = 0;
    st = 0;
    mcapi_endpoint_get_attribute(ep, MCAPI_ENDP_ATTR_NUM_PRIORITIES, &np, sizeof np, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    ck_assert_int_eq(np, MCAPI_MAX_PRIORITY + 1);
    /* An empty queue: every receive buffer is free. */
    ck_assert_uint_eq(get_uint(ep, MCAPI_ENDP_ATTR_NUM_RECV_BUFFERS), MCAPI_MAX_QUEUE_ELEMENTS);
    mt_fini();
}

/* Read-only attributes, values out of range, sizes, numbers; what is set
 * is read back; another node's endpoint cannot be changed. */
static void case_set(void *arg)
{
    (void)arg;
    int me = plat_core();
    mt_init((mcapi_node_t)me);
    mcapi_status_t st = 0;
    mcapi_endpoint_t ep = mcapi_endpoint_create(3, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    harness_barrier();
    if (me == 0) {
        unsigned char buf[64];
        memset(buf, 0, sizeof buf);
        /* The specification's status attributes, and what docs/mcapi.md
         * makes read-only besides. */
        static const mcapi_uint_t ro[] = {
            MCAPI_ENDP_ATTR_GET_COUNT,
            MCAPI_ENDP_ATTR_GET_SOURCE,
            MCAPI_ENDP_ATTR_NUM_RECV_BUFFERS,
            MCAPI_ENDP_ATTR_ENDP_STATUS,
            MCAPI_ENDP_ATTR_TYPE,
            MCAPI_ENDP_ATTR_NUM_PRIORITIES,
            MCAPI_ENDP_ATTR_NUM_SEND_BUFFERS,
        };
        for (size_t i = 0; i < HARNESS_COUNT(ro); i++) {
            st = 0;
            mcapi_endpoint_set_attribute(ep, ro[i], buf, attr_size[ro[i]], &st);
            MT_EQ_AT(st, MCAPI_ERR_ATTR_READONLY, "attribute %u", ro[i]);
        }
        st = 0;
        mcapi_endpoint_set_attribute(ep, MCAPI_ENDP_ATTR_END, buf, sizeof(mcapi_uint_t), &st);
        MT_EQ(st, MCAPI_ERR_ATTR_NUM);

        mcapi_endp_attr_timeout_t t = 1234;
        st = 0;
        mcapi_endpoint_set_attribute(ep, MCAPI_ENDP_ATTR_TIMEOUT, &t, sizeof t - 1, &st);
        MT_EQ(st, MCAPI_ERR_ATTR_SIZE);
        st = 0;
        mcapi_endpoint_set_attribute(ep, MCAPI_ENDP_ATTR_TIMEOUT, NULL, sizeof t, &st);
        MT_EQ(st, MCAPI_ERR_PARAMETER);
        st = 0;
        mcapi_endpoint_set_attribute(MT_GARBAGE, MCAPI_ENDP_ATTR_TIMEOUT, &t, sizeof t, &st);
        MT_EQ(st, MCAPI_ERR_ENDP_INVALID);
        st = 0;
        mcapi_endpoint_set_attribute(ep, MCAPI_ENDP_ATTR_TIMEOUT, &t, sizeof t, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        ck_assert_uint_eq(get_uint(ep, MCAPI_ENDP_ATTR_TIMEOUT), 1234);

        mcapi_endp_attr_priority_t p = 3;
        st = 0;
        mcapi_endpoint_set_attribute(ep, MCAPI_ENDP_ATTR_PRIORITY, &p, sizeof p, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        ck_assert_uint_eq(get_uint(ep, MCAPI_ENDP_ATTR_PRIORITY), 3);
        p = MCAPI_MAX_PRIORITY + 1;
        st = 0;
        mcapi_endpoint_set_attribute(ep, MCAPI_ENDP_ATTR_PRIORITY, &p, sizeof p, &st);
        MT_EQ(st, MCAPI_ERR_ATTR_VALUE);
        ck_assert_uint_eq(get_uint(ep, MCAPI_ENDP_ATTR_PRIORITY), 3);

        mcapi_endp_attr_memory_type_t m =
            MCAPI_ENDP_ATTR_SHARED_MEMORY | MCAPI_ENDP_ATTR_FAIL_ON_MEM_LIMIT;
        st = 0;
        mcapi_endpoint_set_attribute(ep, MCAPI_ENDP_ATTR_MEMORY_TYPE, &m, sizeof m, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        ck_assert_uint_eq(get_uint(ep, MCAPI_ENDP_ATTR_MEMORY_TYPE), m);
        m = MCAPI_ENDP_ATTR_REMOTE_MEMORY + 1;
        st = 0;
        mcapi_endpoint_set_attribute(ep, MCAPI_ENDP_ATTR_MEMORY_TYPE, &m, sizeof m, &st);
        MT_EQ(st, MCAPI_ERR_ATTR_VALUE);

        /* Node 1's endpoint. */
        mcapi_endpoint_t remote = mt_get(1, 3);
        st = 0;
        mcapi_endpoint_set_attribute(remote, MCAPI_ENDP_ATTR_TIMEOUT, &t, sizeof t, &st);
        MT_EQ(st, MCAPI_ERR_ENDP_REMOTE);
        mt_put(0, 1);
    }
    harness_barrier();
    if (me == 1) {
        ck_assert_uint_eq(mt_take(0), 1);
        ck_assert_uint_eq(get_uint(ep, MCAPI_ENDP_ATTR_TIMEOUT),
                          (mcapi_timeout_t)MCAPI_TIMEOUT_INFINITE);
        ck_assert_uint_eq(get_uint(ep, MCAPI_ENDP_ATTR_GET_COUNT), 1);
    }
    harness_barrier();
    mt_fini();
}

/* Channel state shows in MCAPI_ENDP_ATTR_ENDP_STATUS and TYPE. The
 * specification's second group of flags (PKTCHAN, SEND, ...) shares the
 * first group's values; docs/mcapi.md reports it shifted into the high 16
 * bits. */
static void case_status(void *arg)
{
    (void)arg;
    enum { HI = 16 };
    const mcapi_uint_t con = MCAPI_ENDP_ATTR_STATUS_CONNECTED, open = MCAPI_ENDP_ATTR_STATUS_OPEN;
    const mcapi_uint_t pkt = MCAPI_ENDP_ATTR_STATUS_PKTCHAN << HI,
                       scl = MCAPI_ENDP_ATTR_STATUS_SCLCHAN << HI,
                       send = MCAPI_ENDP_ATTR_STATUS_SEND << HI,
                       recv = MCAPI_ENDP_ATTR_STATUS_RECEIVE << HI;
    mt_init(0);
    mcapi_endpoint_t tx = mt_ep(1), rx = mt_ep(2);
    ck_assert_uint_eq(get_uint(tx, MCAPI_ENDP_ATTR_ENDP_STATUS), 0);
    mcapi_request_t r;
    mcapi_status_t st = 0;
    mcapi_pktchan_connect_i(tx, rx, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_SUCCESS);
    ck_assert_uint_eq(get_uint(tx, MCAPI_ENDP_ATTR_ENDP_STATUS), con | pkt | send);
    ck_assert_uint_eq(get_uint(rx, MCAPI_ENDP_ATTR_ENDP_STATUS), con | pkt | recv);
    ck_assert_uint_eq(get_uint(tx, MCAPI_ENDP_ATTR_TYPE), MCAPI_ENDP_ATTR_TYPE_PKTCHAN);
    ck_assert_uint_eq(get_uint(rx, MCAPI_ENDP_ATTR_TYPE), MCAPI_ENDP_ATTR_TYPE_PKTCHAN);
    mcapi_pktchan_send_hndl_t sh;
    mcapi_pktchan_recv_hndl_t rh;
    mcapi_request_t rs, rr;
    mcapi_status_t ss = 0, sr = 0;
    /* An open completes once connected: the other end need not be open. */
    mcapi_pktchan_send_open_i(&sh, tx, &rs, &ss);
    MT_EQ(mt_done(&rs, ss, NULL), MCAPI_SUCCESS);
    ck_assert_uint_eq(get_uint(tx, MCAPI_ENDP_ATTR_ENDP_STATUS), con | open | pkt | send);
    ck_assert_uint_eq(get_uint(rx, MCAPI_ENDP_ATTR_ENDP_STATUS), con | pkt | recv);
    mcapi_pktchan_recv_open_i(&rh, rx, &rr, &sr);
    MT_EQ(mt_done(&rr, sr, NULL), MCAPI_SUCCESS);
    ck_assert_uint_eq(get_uint(tx, MCAPI_ENDP_ATTR_ENDP_STATUS), con | open | pkt | send);
    ck_assert_uint_eq(get_uint(rx, MCAPI_ENDP_ATTR_ENDP_STATUS), con | open | pkt | recv);
    mt_pkt_close_send(sh);
    mt_pkt_close_recv(rh);
    ck_assert_uint_eq(get_uint(tx, MCAPI_ENDP_ATTR_ENDP_STATUS), 0);
    ck_assert_uint_eq(get_uint(rx, MCAPI_ENDP_ATTR_ENDP_STATUS), 0);
    ck_assert_uint_eq(get_uint(tx, MCAPI_ENDP_ATTR_TYPE), MCAPI_ENDP_ATTR_TYPE_MESSAGE);

    mcapi_sclchan_send_hndl_t ssh;
    mcapi_sclchan_recv_hndl_t srh;
    mt_scl_local(tx, rx, &ssh, &srh);
    ck_assert_uint_eq(get_uint(tx, MCAPI_ENDP_ATTR_ENDP_STATUS), con | open | scl | send);
    ck_assert_uint_eq(get_uint(rx, MCAPI_ENDP_ATTR_ENDP_STATUS), con | open | scl | recv);
    ck_assert_uint_eq(get_uint(rx, MCAPI_ENDP_ATTR_TYPE), MCAPI_ENDP_ATTR_TYPE_SCLCHAN);
    mt_scl_close_send(ssh);
    mt_scl_close_recv(srh);

    /* An open before the connect is pending, and says so. */
    ss = 0;
    mcapi_pktchan_send_open_i(&sh, tx, &rs, &ss);
    MT_EQ(ss, MCAPI_PENDING);
    ck_assert_uint_eq(get_uint(tx, MCAPI_ENDP_ATTR_ENDP_STATUS),
                      MCAPI_ENDP_ATTR_STATUS_OPEN_PENDING);
    st = 0;
    mcapi_pktchan_connect_i(tx, rx, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_SUCCESS);
    MT_EQ(mt_done(&rs, ss, NULL), MCAPI_SUCCESS);
    ck_assert_uint_eq(get_uint(tx, MCAPI_ENDP_ATTR_ENDP_STATUS), con | open | pkt | send);
    mt_pkt_close_send(sh);
    mt_fini();
}

/* While connected only the timeout may change (docs/mcapi.md: the others
 * decide whether and how the channel works). */
static void case_connected(void *arg)
{
    (void)arg;
    mt_init(0);
    mcapi_endpoint_t tx = mt_ep(1), rx = mt_ep(2);
    mcapi_request_t r;
    mcapi_status_t st = 0;
    mcapi_pktchan_connect_i(tx, rx, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_SUCCESS);
    mcapi_endp_attr_priority_t p = 2;
    st = 0;
    mcapi_endpoint_set_attribute(tx, MCAPI_ENDP_ATTR_PRIORITY, &p, sizeof p, &st);
    MT_EQ(st, MCAPI_ERR_CHAN_CONNECTED);
    mcapi_endp_attr_max_payload_size_t m = 100;
    st = 0;
    mcapi_endpoint_set_attribute(rx, MCAPI_ENDP_ATTR_MAX_PAYLOAD_SIZE, &m, sizeof m, &st);
    MT_EQ(st, MCAPI_ERR_CHAN_CONNECTED);
    mt_set_timeout(tx, 77);
    ck_assert_uint_eq(get_uint(tx, MCAPI_ENDP_ATTR_TIMEOUT), 77);
    ck_assert_uint_eq(get_uint(tx, MCAPI_ENDP_ATTR_PRIORITY), MCAPI_MAX_PRORITY);
    mt_fini();
}

/* MAX_PAYLOAD_SIZE: the range 1..MCAPI_MAX_PKT_SIZE, a channel
 * compatibility attribute. */
static void case_payload(void *arg)
{
    (void)arg;
    mt_init(0);
    mcapi_endpoint_t a = mt_ep(1), b = mt_ep(2);
    static const mcapi_endp_attr_max_payload_size_t bad[] = {0, -1, MCAPI_MAX_PKT_SIZE + 1};
    mcapi_status_t st;
    for (size_t i = 0; i < HARNESS_COUNT(bad); i++) {
        st = 0;
        mcapi_endpoint_set_attribute(a, MCAPI_ENDP_ATTR_MAX_PAYLOAD_SIZE, &bad[i], sizeof bad[i],
                                     &st);
        MT_EQ_AT(st, MCAPI_ERR_ATTR_VALUE, "payload %d", bad[i]);
    }
    mcapi_endp_attr_max_payload_size_t m = 512;
    st = 0;
    mcapi_endpoint_set_attribute(a, MCAPI_ENDP_ATTR_MAX_PAYLOAD_SIZE, &m, sizeof m, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    mcapi_request_t r;
    st = 0;
    mcapi_pktchan_connect_i(a, b, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_ATTR_INCOMPATIBLE);
    st = 0;
    mcapi_endpoint_set_attribute(b, MCAPI_ENDP_ATTR_MAX_PAYLOAD_SIZE, &m, sizeof m, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    st = 0;
    mcapi_pktchan_connect_i(a, b, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_SUCCESS);
    mt_fini();
}

/* The same with the ends on two nodes, whichever end the connecting node
 * has. */
static void case_payload_remote(void *arg)
{
    (void)arg;
    int me = plat_core();
    mt_init((mcapi_node_t)me);
    mcapi_endpoint_t own = mt_ep(1);
    mcapi_endp_attr_max_payload_size_t m = 512;
    mcapi_status_t st = MCAPI_SUCCESS;
    if (me == 0)
        mcapi_endpoint_set_attribute(own, MCAPI_ENDP_ATTR_MAX_PAYLOAD_SIZE, &m, sizeof m, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    harness_barrier();
    mcapi_request_t r;
    if (me == 0) {
        mcapi_endpoint_t peer = mt_get(1, 1);
        st = 0;
        mcapi_pktchan_connect_i(own, peer, &r, &st);
        MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_ATTR_INCOMPATIBLE);
        st = 0;
        mcapi_pktchan_connect_i(peer, own, &r, &st);
        MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_ATTR_INCOMPATIBLE);
    }
    harness_barrier();
    st = MCAPI_SUCCESS;
    if (me == 1)
        mcapi_endpoint_set_attribute(own, MCAPI_ENDP_ATTR_MAX_PAYLOAD_SIZE, &m, sizeof m, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    harness_barrier();
    if (me == 0) {
        st = 0;
        mcapi_pktchan_connect_i(own, mt_get(1, 1), &r, &st);
        MT_EQ(mt_done(&r, st, NULL), MCAPI_SUCCESS);
    }
    harness_barrier();
    mt_fini();
}

/* NUM_SEND_BUFFERS: free buffers of the pool the endpoint sends from;
 * NUM_RECV_BUFFERS: free entries of its receive queue (docs/mcapi.md). */
static void case_buffers(void *arg)
{
    (void)arg;
    mt_init(0);
    mcapi_endpoint_t a = mt_ep(1), b = mt_ep(2);
    mcapi_endp_attr_num_send_buffers_t n = 0;
    mcapi_status_t st = 0;
    mcapi_endpoint_get_attribute(a, MCAPI_ENDP_ATTR_NUM_SEND_BUFFERS, &n, sizeof n, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    ck_assert_int_eq(n, MCAPI_MAX_MSG_BUFFERS);
    for (int i = 0; i < 3; i++) {
        st = 0;
        mcapi_msg_send(a, b, &i, sizeof i, 1, &st);
        MT_EQ(st, MCAPI_SUCCESS);
    }
    st = 0;
    mcapi_endpoint_get_attribute(a, MCAPI_ENDP_ATTR_NUM_SEND_BUFFERS, &n, sizeof n, &st);
    ck_assert_int_eq(n, MCAPI_MAX_MSG_BUFFERS - 3);
    ck_assert_uint_eq(get_uint(b, MCAPI_ENDP_ATTR_NUM_RECV_BUFFERS), MCAPI_MAX_QUEUE_ELEMENTS - 3);
    ck_assert_uint_eq(get_uint(a, MCAPI_ENDP_ATTR_NUM_RECV_BUFFERS), MCAPI_MAX_QUEUE_ELEMENTS);
    mt_fini();
}

void mt_attributes(void)
{
    static const struct harness_case cases[] = {
        {.name = "attr_get", .core = case_get, .cores = 1},
        {.name = "attr_set", .core = case_set, .cores = 2},
        {.name = "attr_status", .core = case_status, .cores = 1},
        {.name = "attr_connected", .core = case_connected, .cores = 1},
        {.name = "attr_payload", .core = case_payload, .cores = 1},
        {.name = "attr_payload_remote", .core = case_payload_remote, .cores = 2},
        {.name = "attr_buffers", .core = case_buffers, .cores = 1},
    };
    mt_add(cases, HARNESS_COUNT(cases));
}
