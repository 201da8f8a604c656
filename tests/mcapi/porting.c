/*
 * porting.c -- where the reference implementation departs from the
 * specification and this library keeps the specification's behaviour
 * (docs/mcapi.md, "Where the reference departs from the specification"):
 * what here is, beyond the topic files' cases.
 */
#include "mt.h"

/* test and wait without size: MCAPI_ERR_PARAMETER with MCAPI_FALSE (the
 * reference answers MCAPI_TRUE), also for a request that moves no bytes,
 * and the request is left as it was: it completes and reports later. */
static void case_null_size(void *arg)
{
    (void)arg;
    mt_init(0);
    mcapi_endpoint_t a = mt_ep(1), b = mt_ep(2), c = mt_ep(3);
    mcapi_request_t r, conn;
    char buf[8];
    mcapi_status_t st = 0;
    mcapi_msg_recv_i(a, buf, sizeof buf, &r, &st);
    MT_EQ(st, MCAPI_PENDING);
    st = 0;
    ck_assert_int_eq(mcapi_test(&r, NULL, &st), MCAPI_FALSE);
    MT_EQ(st, MCAPI_ERR_PARAMETER);
    st = 0;
    ck_assert_int_eq(mcapi_wait(&r, NULL, MT_SHORT_MS, &st), MCAPI_FALSE);
    MT_EQ(st, MCAPI_ERR_PARAMETER);
    st = 0;
    mcapi_msg_send(b, a, "seven!", 7, 1, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    size_t size = 0;
    st = 0;
    ck_assert_int_eq(mcapi_wait(&r, &size, MT_WAIT_MS, &st), MCAPI_TRUE);
    MT_EQ(st, MCAPI_SUCCESS);
    ck_assert_uint_eq(size, 7);
    ck_assert_str_eq(buf, "seven!");
    st = 0;
    mcapi_pktchan_connect_i(b, c, &conn, &st);
    ck_assert_msg(st == MCAPI_SUCCESS || st == MCAPI_PENDING, "connect: %s", mt_name(st));
    st = 0;
    ck_assert_int_eq(mcapi_test(&conn, NULL, &st), MCAPI_FALSE);
    MT_EQ(st, MCAPI_ERR_PARAMETER);
    MT_EQ(mt_done(&conn, MCAPI_PENDING, &size), MCAPI_SUCCESS);
    mt_fini();
}

/* Closing an end with the other end's close call is
 * MCAPI_ERR_CHAN_DIRECTION and closes nothing (the reference closes the
 * end): the channel still carries packets and scalars afterwards. */
static void case_close_direction(void *arg)
{
    (void)arg;
    mt_init(0);
    mcapi_pktchan_send_hndl_t psh;
    mcapi_pktchan_recv_hndl_t prh;
    mcapi_sclchan_send_hndl_t ssh;
    mcapi_sclchan_recv_hndl_t srh;
    mt_pkt_local(mt_ep(1), mt_ep(2), &psh, &prh);
    mt_scl_local(mt_ep(3), mt_ep(4), &ssh, &srh);
    mcapi_request_t r;
    mcapi_status_t st = 0;
    mcapi_pktchan_send_close_i(prh, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_CHAN_DIRECTION);
    st = 0;
    mcapi_pktchan_recv_close_i(psh, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_CHAN_DIRECTION);
    st = 0;
    mcapi_sclchan_send_close_i(srh, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_CHAN_DIRECTION);
    st = 0;
    mcapi_sclchan_recv_close_i(ssh, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_CHAN_DIRECTION);
    char b[4] = "pkt";
    st = 0;
    mcapi_pktchan_send(psh, b, sizeof b, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    void *p = NULL;
    size_t n = 0;
    st = 0;
    mcapi_pktchan_recv(prh, &p, &n, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    ck_assert_uint_eq(n, sizeof b);
    mcapi_pktchan_release(p, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    st = 0;
    mcapi_sclchan_send_uint16(ssh, 0xBEEF, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    st = 0;
    ck_assert_uint_eq(mcapi_sclchan_recv_uint16(srh, &st), 0xBEEF);
    MT_EQ(st, MCAPI_SUCCESS);
    mt_pkt_close_send(psh);
    mt_pkt_close_recv(prh);
    mt_scl_close_send(ssh);
    mt_scl_close_recv(srh);
    mt_fini();
}

/* NUM_RECV_BUFFERS counts what still fits, exactly: 64 on an empty queue
 * (the reference says 65), 0 when full, when the next send fails. */
static void case_recv_buffers(void *arg)
{
    (void)arg;
    mt_init(0);
    mcapi_endpoint_t tx = mt_ep(1), rx = mt_ep(2);
    mt_set_memtype(tx, MCAPI_ENDP_ATTR_LOCAL_MEMORY | MCAPI_ENDP_ATTR_FAIL_ON_MEM_LIMIT);
    mcapi_endp_attr_num_recv_buffers_t n = -1;
    mcapi_status_t st = 0;
    mcapi_endpoint_get_attribute(rx, MCAPI_ENDP_ATTR_NUM_RECV_BUFFERS, &n, sizeof n, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    ck_assert_int_eq(n, MCAPI_MAX_QUEUE_ELEMENTS);
    for (int i = 0; i < MCAPI_MAX_QUEUE_ELEMENTS; i++) {
        st = 0;
        mcapi_msg_send(tx, rx, &i, sizeof i, 1, &st);
        MT_EQ_AT(st, MCAPI_SUCCESS, "message %d", i);
    }
    st = 0;
    mcapi_endpoint_get_attribute(rx, MCAPI_ENDP_ATTR_NUM_RECV_BUFFERS, &n, sizeof n, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    ck_assert_int_eq(n, 0);
    st = 0;
    mcapi_msg_send(tx, rx, &n, sizeof n, 1, &st);
    MT_EQ(st, MCAPI_ERR_MEM_LIMIT);
    mt_fini();
}

void mt_porting(void)
{
    static const struct harness_case cases[] = {
        {.name = "port_null_size", .core = case_null_size, .cores = 1},
        {.name = "port_close_direction", .core = case_close_direction, .cores = 1},
        {.name = "port_recv_buffers", .core = case_recv_buffers, .cores = 1},
    };
    mt_add(cases, HARNESS_COUNT(cases));
}
