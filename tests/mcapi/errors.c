/* errors.c -- robustness: NULL status, NULL out-pointers, stale handles,
 * mcapi_display_status. Nothing may crash. */
#include "mt.h"

#include <string.h>

/* A NULL status makes every call do nothing (mcapi.h). */
static void case_null_status(void *arg)
{
    (void)arg;
    mt_init(0);
    mcapi_endpoint_t a = mt_ep(1), b = mt_ep(2), c = mt_ep(3), d = mt_ep(4);
    mcapi_pktchan_send_hndl_t sh;
    mcapi_pktchan_recv_hndl_t rh;
    mt_pkt_local(c, d, &sh, &rh);
    char m[8] = "abc";
    mcapi_request_t r = 0;
    size_t size;
    void *p;
    mcapi_status_t st;

    mcapi_msg_send(a, b, m, sizeof m, 1, NULL);
    mcapi_msg_send_i(a, b, m, sizeof m, 1, &r, NULL);
    st = 0;
    ck_assert_uint_eq(mcapi_msg_available(b, &st), 0);
    MT_EQ(st, MCAPI_SUCCESS);
    mcapi_endpoint_create(9, NULL);
    st = 0;
    mcapi_endpoint_create(9, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    mcapi_endpoint_delete(a, NULL);
    st = 0;
    mcapi_msg_available(a, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    mcapi_pktchan_send(sh, m, sizeof m, NULL);
    mcapi_pktchan_send_i(sh, m, sizeof m, &r, NULL);
    st = 0;
    ck_assert_uint_eq(mcapi_pktchan_available(rh, &st), 0);
    MT_EQ(st, MCAPI_SUCCESS);

    /* Calls that would receive or block do nothing either. */
    st = 0;
    mcapi_msg_send(a, b, m, sizeof m, 1, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    mcapi_msg_recv(b, m, sizeof m, &size, NULL);
    mcapi_msg_recv_i(b, m, sizeof m, &r, NULL);
    mcapi_msg_available(b, NULL);
    st = 0;
    ck_assert_uint_eq(mcapi_msg_available(b, &st), 1);
    mcapi_pktchan_recv(rh, &p, &size, NULL);
    mcapi_pktchan_available(rh, NULL);
    mcapi_endpoint_get(MT_DOMAIN, 0, 77, MT_WAIT_MS, NULL);
    mcapi_endpoint_get_attribute(a, MCAPI_ENDP_ATTR_TIMEOUT, &size, sizeof(mcapi_uint_t), NULL);
    mcapi_endpoint_set_attribute(a, MCAPI_ENDP_ATTR_PRIORITY, &size, sizeof(mcapi_uint_t), NULL);
    mcapi_endpoint_release(a, NULL);
    mcapi_pktchan_release(m, NULL);
    mcapi_pktchan_release_test(m, NULL);
    mcapi_pktchan_send_close_i(sh, &r, NULL);
    mcapi_pktchan_recv_close_i(rh, &r, NULL);
    st = 0;
    mcapi_pktchan_send(sh, m, 1, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    mcapi_test(&r, &size, NULL);
    mcapi_wait(&r, &size, MT_WAIT_MS, NULL);
    mcapi_cancel(&r, NULL);
    mcapi_domain_id_get(NULL);
    mcapi_node_id_get(NULL);
    mcapi_node_init_attributes(NULL, NULL);
    mcapi_finalize(NULL);
    st = 0;
    ck_assert_uint_eq(mcapi_node_id_get(&st), 0);
    MT_EQ(st, MCAPI_SUCCESS);
    mt_fini();
    mcapi_finalize(NULL);
}

/* NULL where a call must write its result: MCAPI_ERR_PARAMETER. */
static void case_null_out(void *arg)
{
    (void)arg;
    mt_init(0);
    mcapi_endpoint_t a = mt_ep(1), b = mt_ep(2), c = mt_ep(3), d = mt_ep(4);
    mcapi_pktchan_send_hndl_t sh;
    mcapi_pktchan_recv_hndl_t rh;
    mt_pkt_local(c, d, &sh, &rh);
    char m[8] = "abc";
    mcapi_request_t r;
    mcapi_endpoint_t e;
    size_t size;
    void *p;
    mcapi_status_t st;
#define PARAM(call)                                                                                \
    do {                                                                                           \
        st = 0;                                                                                    \
        call;                                                                                      \
        ck_assert_msg(st == MCAPI_ERR_PARAMETER, "%s: %s, expected MCAPI_ERR_PARAMETER", #call,    \
                      mt_name(st));                                                                \
    } while (0)
    PARAM(mcapi_msg_send_i(a, b, m, sizeof m, 1, NULL, &st));
    PARAM(mcapi_msg_recv_i(b, m, sizeof m, NULL, &st));
    PARAM(mcapi_msg_recv_i(b, NULL, sizeof m, &r, &st));
    PARAM(mcapi_endpoint_get_i(MT_DOMAIN, 0, 1, NULL, &r, &st));
    PARAM(mcapi_endpoint_get_i(MT_DOMAIN, 0, 1, &e, NULL, &st));
    PARAM(mcapi_pktchan_connect_i(a, b, NULL, &st));
    PARAM(mcapi_sclchan_connect_i(a, b, NULL, &st));
    PARAM(mcapi_pktchan_send_open_i(NULL, a, &r, &st));
    PARAM(mcapi_pktchan_recv_open_i(NULL, b, &r, &st));
    PARAM(mcapi_sclchan_send_open_i(NULL, a, &r, &st));
    PARAM(mcapi_sclchan_recv_open_i(NULL, b, &r, &st));
    PARAM(mcapi_pktchan_send_i(sh, m, sizeof m, NULL, &st));
    PARAM(mcapi_pktchan_recv_i(rh, NULL, &r, &st));
    PARAM(mcapi_pktchan_recv_i(rh, &p, NULL, &st));
    PARAM(mcapi_pktchan_send_close_i(sh, NULL, &st));
    PARAM(mcapi_pktchan_recv_close_i(rh, NULL, &st));
    PARAM(mcapi_node_get_attribute(MT_DOMAIN, 0, MCAPI_NODE_ATTR_TYPE, NULL,
                                   sizeof(mcapi_node_attr_type_t), &st));
    /* Something to receive, so that only the NULL can be what fails. */
    st = 0;
    mcapi_msg_send(a, b, m, sizeof m, 1, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    st = 0;
    mcapi_pktchan_send(sh, m, sizeof m, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    PARAM(mcapi_msg_recv(b, m, sizeof m, NULL, &st));
    PARAM(mcapi_msg_recv(b, NULL, sizeof m, &size, &st));
    PARAM(mcapi_pktchan_recv(rh, NULL, &size, &st));
    PARAM(mcapi_pktchan_recv(rh, &p, NULL, &st));
#undef PARAM
    /* ... and it is still there. */
    mt_arrived(MT_MSG, b, 1);
    mt_arrived(MT_PKT, rh, 1);
    mt_fini();
}

static void stale_node0(void);

/* Handles from before a finalise are stale after the node comes back. */
static void case_stale(void *arg)
{
    (void)arg;
    /* Node 1 keeps the domain's region alive: node 0 comes back to the
     * same endpoint slots, with new generations. */
    mt_init((mcapi_node_t)plat_core());
    harness_barrier();
    if (plat_core() == 0) stale_node0();
    harness_barrier();
    mt_fini();
}

static void stale_node0(void)
{
    mcapi_endpoint_t a = mt_ep(1), b = mt_ep(2), c = mt_ep(3), d = mt_ep(4);
    mcapi_sclchan_send_hndl_t sh;
    mcapi_sclchan_recv_hndl_t rh;
    mt_scl_local(c, d, &sh, &rh);
    char rb[8];
    mcapi_request_t old_r;
    mcapi_status_t rs = 0;
    mcapi_msg_recv_i(b, rb, sizeof rb, &old_r, &rs);
    MT_EQ(rs, MCAPI_PENDING);
    mt_fini();
    mt_init(0);
    /* A request of the node's former life matches nothing of the new one,
     * even in the same entry of the table. */
    mcapi_endpoint_t e = mt_ep(9);
    mcapi_request_t new_r;
    rs = 0;
    mcapi_msg_recv_i(e, rb, sizeof rb, &new_r, &rs);
    MT_EQ(rs, MCAPI_PENDING);
    size_t size;
    rs = 0;
    mcapi_test(&old_r, &size, &rs);
    MT_EQ(rs, MCAPI_ERR_REQUEST_INVALID);
    rs = 0;
    mcapi_cancel(&old_r, &rs);
    MT_EQ(rs, MCAPI_ERR_REQUEST_INVALID);
    rs = 0;
    ck_assert_int_eq(mcapi_test(&new_r, &size, &rs), MCAPI_FALSE);
    MT_EQ(rs, MCAPI_PENDING);
    rs = 0;
    mcapi_cancel(&new_r, &rs);
    MT_EQ(rs, MCAPI_SUCCESS);
    mcapi_endpoint_t a2 = mt_ep(1);
    ck_assert_uint_ne(a2, a);
    char m[4] = "abc";
    mcapi_status_t st = 0;
    mcapi_msg_send(a2, b, m, sizeof m, 1, &st);
    MT_EQ(st, MCAPI_ERR_ENDP_INVALID);
    st = 0;
    mcapi_msg_send(a, a2, m, sizeof m, 1, &st);
    MT_EQ(st, MCAPI_ERR_ENDP_INVALID);
    st = 0;
    mcapi_endpoint_delete(b, &st);
    MT_EQ(st, MCAPI_ERR_ENDP_INVALID);
    st = 0;
    mcapi_sclchan_send_uint32(sh, 1, &st);
    ck_assert_msg(st == MCAPI_ERR_CHAN_INVALID || st == MCAPI_ERR_CHAN_NOTOPEN,
                  "send on a channel of a finalised node: %s", mt_name(st));
    st = 0;
    mcapi_sclchan_recv_uint32(rh, &st);
    ck_assert_msg(st == MCAPI_ERR_CHAN_INVALID || st == MCAPI_ERR_CHAN_NOTOPEN,
                  "receive on a channel of a finalised node: %s", mt_name(st));
    /* The endpoints of the old channel are free: they connect again. */
    mcapi_endpoint_t c2 = mt_ep(3), d2 = mt_ep(4);
    mt_scl_local(c2, d2, &sh, &rh);
    st = 0;
    mcapi_sclchan_send_uint32(sh, 5, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    st = 0;
    ck_assert_uint_eq(mcapi_sclchan_recv_uint32(rh, &st), 5);
}

/* The status names of the common extension, cut to the buffer. */
static void case_display(void *arg)
{
    (void)arg;
    char buf[MCAPI_MAX_STATUS_MSG_LEN];
    ck_assert_ptr_eq(mcapi_display_status(MCAPI_ERR_PARAMETER, buf, sizeof buf), buf);
    ck_assert_str_eq(buf, "MCAPI_ERR_PARAMETER");
    for (mcapi_status_t s = MCAPI_SUCCESS; s < MCAPI_STATUSCODE_END; s++) {
        memset(buf, 'x', sizeof buf);
        mcapi_display_status(s, buf, sizeof buf);
        ck_assert_msg(memchr(buf, '\0', sizeof buf), "status %u: not terminated", s);
        ck_assert_str_eq(buf, mt_name(s));
    }
    memset(buf, 'x', sizeof buf);
    mcapi_display_status(MCAPI_ERR_PARAMETER, buf, 6);
    ck_assert_str_eq(buf, "MCAPI");
    ck_assert_int_eq(buf[6], 'x');
    memset(buf, 'x', sizeof buf);
    mcapi_display_status(MCAPI_STATUSCODE_END + 100, buf, sizeof buf);
    ck_assert_str_eq(buf, "MCAPI_STATUS_UNKNOWN"); /* docs/mcapi.md */
    mcapi_display_status(MCAPI_SUCCESS, NULL, 10);
    mcapi_display_status(MCAPI_SUCCESS, buf, 0);
}

void mt_errors(void)
{
    static const struct harness_case cases[] = {
        {.name = "err_null_status", .core = case_null_status, .cores = 1},
        {.name = "err_null_out", .core = case_null_out, .cores = 1},
        {.name = "err_stale", .core = case_stale, .cores = 2},
        {.name = "err_display", .core = case_display, .cores = 1},
    };
    mt_add(cases, HARNESS_COUNT(cases));
}
