/* err.c -- bad arguments and what the DMA transport cannot do: every call
 * returns a defined status, nothing crashes. */
#include "dt.h"

#include <string.h>

static void case_bad_args(void *arg)
{
    (void)arg;
    int me = plat_core();
    dt_init();
    mcapi_endpoint_t ep = dt_ep(1);
    mcapi_endpoint_t peer = dt_get((mcapi_node_t)(1 - me), 1);
    mcapi_status_t st;
    char b[16];
    size_t n;
    mcapi_request_t r;
    if (me == 0) {
        /* Ports beyond the node's channels, nodes outside the mapping. */
        st = 0;
        (void)mcapi_endpoint_create(DT_PORTS_IDEAL, &st);
        DT_EQ(st, MCAPI_ERR_PORT_INVALID);
        st = 0;
        (void)mcapi_endpoint_create(1, &st);
        DT_EQ(st, MCAPI_ERR_ENDP_EXISTS);
        st = 0;
        (void)mcapi_endpoint_get(DT_DOMAIN, 1, DT_PORTS_IDEAL, 0, &st);
        DT_EQ(st, MCAPI_ERR_PORT_INVALID);
        st = 0;
        (void)mcapi_endpoint_get(DT_DOMAIN, 9, 0, 0, &st);
        DT_EQ(st, MCAPI_ERR_NODE_INVALID);
        st = 0;
        (void)mcapi_endpoint_get(DT_DOMAIN + 1, 1, 0, 0, &st);
        DT_EQ(st, MCAPI_ERR_DOMAIN_INVALID);
        st = 0;
        (void)mcapi_endpoint_get(DT_DOMAIN, 1, MCAPI_MAX_PORT + 1, 0, &st);
        DT_EQ(st, MCAPI_ERR_PORT_INVALID);
        /* MCAPI_PORT_ANY takes the free ports, then runs out. */
        for (unsigned i = 0; i < DT_PORTS_IDEAL - 1; i++) {
            st = 0;
            (void)mcapi_endpoint_create(MCAPI_PORT_ANY, &st);
            DT_EQ_AT(st, MCAPI_SUCCESS, "endpoint %u", i);
        }
        st = 0;
        (void)mcapi_endpoint_create(MCAPI_PORT_ANY, &st);
        DT_EQ(st, MCAPI_ERR_MEM_LIMIT);

        /* Handles that are not, or not ours. */
        const mcapi_endpoint_t bad[] = {0, DT_GARBAGE, ep ^ 0x08000000u};
        for (size_t i = 0; i < HARNESS_COUNT(bad); i++) {
            st = 0;
            mcapi_msg_send(ep, bad[i], b, 4, 0, &st);
            DT_EQ_AT(st, MCAPI_ERR_ENDP_INVALID, "handle %zu", i);
            st = 0;
            mcapi_msg_send(bad[i], peer, b, 4, 0, &st);
            DT_EQ_AT(st, MCAPI_ERR_ENDP_INVALID, "handle %zu", i);
            st = 0;
            mcapi_msg_recv(bad[i], b, sizeof b, &n, &st);
            DT_EQ_AT(st, MCAPI_ERR_ENDP_INVALID, "handle %zu", i);
            st = 0;
            mcapi_endpoint_delete(bad[i], &st);
            DT_EQ_AT(st, MCAPI_ERR_ENDP_INVALID, "handle %zu", i);
        }
        st = 0;
        mcapi_msg_send(peer, ep, b, 4, 0, &st);
        DT_EQ(st, MCAPI_ERR_ENDP_REMOTE);
        st = 0;
        mcapi_msg_recv(peer, b, sizeof b, &n, &st);
        DT_EQ(st, MCAPI_ERR_ENDP_REMOTE);
        st = 0;
        (void)mcapi_msg_available(peer, &st);
        DT_EQ(st, MCAPI_ERR_ENDP_REMOTE);
        st = 0;
        mcapi_endpoint_delete(peer, &st);
        DT_EQ(st, MCAPI_ERR_ENDP_NOTOWNER);
        mcapi_endp_attr_timeout_t t = 5;
        st = 0;
        mcapi_endpoint_get_attribute(peer, MCAPI_ENDP_ATTR_TIMEOUT, &t, sizeof t, &st);
        DT_EQ(st, MCAPI_ERR_ENDP_REMOTE); /* its attributes live on its node */
        st = 0;
        mcapi_endpoint_set_attribute(peer, MCAPI_ENDP_ATTR_TIMEOUT, &t, sizeof t, &st);
        DT_EQ(st, MCAPI_ERR_ENDP_REMOTE);
        st = 0;
        mcapi_endpoint_release(peer, &st); /* a remote get counts nothing: fine */
        DT_EQ(st, MCAPI_SUCCESS);

        /* Arguments. */
        st = 0;
        mcapi_msg_send(ep, peer, NULL, 4, 0, &st);
        DT_EQ(st, MCAPI_ERR_PARAMETER);
        st = 0;
        mcapi_msg_recv(ep, NULL, 4, &n, &st);
        DT_EQ(st, MCAPI_ERR_PARAMETER);
        st = 0;
        mcapi_msg_recv_i(ep, b, sizeof b, NULL, &st);
        DT_EQ(st, MCAPI_ERR_PARAMETER);
        st = 0;
        mcapi_msg_send(ep, peer, b, MCAPI_MAX_MSG_SIZE + 1, 0, &st);
        DT_EQ(st, MCAPI_ERR_MSG_SIZE);
        st = 0;
        mcapi_msg_send_i(ep, peer, b, 4, MCAPI_MAX_PRIORITY + 1, &r, &st);
        DT_EQ(st, MCAPI_ERR_PRIORITY);
        mcapi_endp_attr_num_priorities_t np = 0;
        st = 0;
        mcapi_endpoint_get_attribute(ep, MCAPI_ENDP_ATTR_NUM_PRIORITIES, &np, sizeof np, &st);
        DT_EQ(st, MCAPI_SUCCESS);
        ck_assert_uint_eq(np, 1); /* one FIFO per channel */
        st = 0;
        mcapi_endpoint_get_attribute(ep, MCAPI_ENDP_ATTR_TIMEOUT, &t, 3, &st);
        DT_EQ(st, MCAPI_ERR_ATTR_SIZE);
        st = 0;
        mcapi_endpoint_get_attribute(ep, 999, &t, sizeof t, &st);
        DT_EQ(st, MCAPI_ERR_ATTR_NUM);
        st = 0;
        mcapi_pktchan_release(b, &st);
        DT_EQ(st, MCAPI_ERR_BUF_INVALID);
        st = 0;
        mcapi_pktchan_release(NULL, &st);
        DT_EQ(st, MCAPI_ERR_PARAMETER);

        /* Channel handles and kinds. */
        void *p;
        st = 0;
        mcapi_pktchan_recv(DT_GARBAGE, &p, &n, &st);
        DT_EQ(st, MCAPI_ERR_CHAN_INVALID);
        st = 0;
        mcapi_sclchan_send_uint32(ep, 1, &st);
        DT_EQ(st, MCAPI_ERR_CHAN_INVALID);
        st = 0;
        mcapi_pktchan_connect_i(ep, ep, &r, &st);
        DT_EQ(mcx_done(&r, st, NULL), MCAPI_ERR_CHAN_CONNECTED);
        st = 0;
        mcapi_pktchan_connect_i(ep, DT_GARBAGE, &r, &st);
        DT_EQ(mcx_done(&r, st, NULL), MCAPI_ERR_ENDP_INVALID);
        /* Connected as a packet channel, opened as a scalar one. */
        st = 0;
        mcapi_pktchan_connect_i(ep, peer, &r, &st);
        DT_EQ(mcx_done(&r, st, NULL), MCAPI_SUCCESS);
        st = 0;
        mcapi_pktchan_connect_i(ep, peer, &r, &st);
        DT_EQ(mcx_done(&r, st, NULL), MCAPI_ERR_CHAN_CONNECTED);
        mcapi_sclchan_send_hndl_t sh;
        st = 0;
        mcapi_sclchan_send_open_i(&sh, ep, &r, &st);
        DT_EQ(mcx_done(&r, st, NULL), MCAPI_ERR_CHAN_TYPE);
        mcapi_pktchan_recv_hndl_t rh;
        st = 0;
        mcapi_pktchan_recv_open_i(&rh, ep, &r, &st);
        DT_EQ(mcx_done(&r, st, NULL), MCAPI_ERR_CHAN_DIRECTION);
        mcapi_uint_t pl = 100;
        st = 0;
        mcapi_endpoint_set_attribute(ep, MCAPI_ENDP_ATTR_MAX_PAYLOAD_SIZE, &pl, sizeof pl, &st);
        DT_EQ(st, MCAPI_ERR_CHAN_CONNECTED);
        mcapi_pktchan_send_hndl_t ph = dt_pkt_open_send(ep);
        st = 0;
        mcapi_pktchan_send_open_i(&ph, ep, &r, &st);
        DT_EQ(st, MCAPI_ERR_CHAN_OPEN);
        st = 0;
        mcapi_endpoint_delete(ep, &st);
        DT_EQ(st, MCAPI_ERR_CHAN_OPEN);
        st = 0;
        mcapi_sclchan_send_close_i(ph, &r, &st);
        DT_EQ(st, MCAPI_ERR_CHAN_TYPE);
        st = 0;
        mcapi_pktchan_recv_close_i(ph, &r, &st);
        DT_EQ(st, MCAPI_ERR_CHAN_DIRECTION);
        st = 0;
        mcapi_pktchan_send_close_i(ph, &r, &st);
        DT_EQ(mcx_done(&r, st, NULL), MCAPI_SUCCESS);
        st = 0;
        mcapi_pktchan_send_close_i(ph, &r, &st);
        DT_EQ(st, MCAPI_ERR_CHAN_NOTOPEN);
        st = 0;
        mcapi_pktchan_send(ph, b, 1, &st);
        DT_EQ(st, MCAPI_ERR_CHAN_NOTOPEN);
        /* The deleted endpoint's handle is dead. */
        st = 0;
        mcapi_endpoint_delete(ep, &st);
        DT_EQ(st, MCAPI_SUCCESS);
        st = 0;
        mcapi_msg_recv(ep, b, sizeof b, &n, &st);
        DT_EQ(st, MCAPI_ERR_ENDP_INVALID);
        harness_barrier();
    } else {
        mcapi_pktchan_recv_hndl_t h = dt_pkt_open_recv(ep);
        harness_barrier();
        (void)h;
    }
    harness_barrier();
    dt_fini();
    st = 0;
    mcapi_msg_send(ep, peer, b, 4, 0, &st);
    DT_EQ(st, MCAPI_ERR_NODE_NOTINIT);
}

void dt_err_cases(void)
{
    static const struct harness_case cases[] = {
        {.name = "bad_args", .core = case_bad_args, .cores = 2},
    };
    harness_add_cases("mcapi_dma", cases, HARNESS_COUNT(cases));
}
