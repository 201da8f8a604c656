/*
 * top/api_pkt.c -- packet channels.
 */
#include "top.h"

/* connect, open and close of both channel kinds. */
void top_chan_i(enum tp_kind kind, enum tp_chan chan, enum tp_dir dir, mcapi_uint32_t h,
                mcapi_uint32_t to, mcapi_uint32_t *out, mcapi_request_t *request,
                mcapi_status_t *status)
{
    struct top_node *n = top_enter(status);
    if (!n) return;
    if (!request || (kind == TP_OPEN && !out)) {
        *status = top_req_fail(n, request, MCAPI_ERR_PARAMETER);
        return;
    }
    struct tp_op op = {.kind = (uint8_t)kind,
                       .chan = (uint8_t)chan,
                       .dir = (uint8_t)dir,
                       .h = h,
                       .to = to,
                       .out_h = out};
    *status = top_req_issue(n, &op, request);
}

void mcapi_pktchan_connect_i(MCAPI_IN mcapi_endpoint_t send_endpoint,
                             MCAPI_IN mcapi_endpoint_t receive_endpoint,
                             MCAPI_OUT mcapi_request_t *request,
                             MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (mcapi_status)
        top_chan_i(TP_CONNECT, TP_PKT, TP_SEND, send_endpoint, receive_endpoint, NULL, request,
                   mcapi_status);
}

void mcapi_pktchan_recv_open_i(MCAPI_OUT mcapi_pktchan_recv_hndl_t *receive_handle,
                               MCAPI_IN mcapi_endpoint_t receive_endpoint,
                               MCAPI_OUT mcapi_request_t *request,
                               MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (mcapi_status)
        top_chan_i(TP_OPEN, TP_PKT, TP_RECV, receive_endpoint, 0, receive_handle, request,
                   mcapi_status);
}

void mcapi_pktchan_send_open_i(MCAPI_OUT mcapi_pktchan_send_hndl_t *send_handle,
                               MCAPI_IN mcapi_endpoint_t send_endpoint,
                               MCAPI_OUT mcapi_request_t *request,
                               MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (mcapi_status)
        top_chan_i(TP_OPEN, TP_PKT, TP_SEND, send_endpoint, 0, send_handle, request, mcapi_status);
}

void mcapi_pktchan_recv_close_i(MCAPI_IN mcapi_pktchan_recv_hndl_t receive_handle,
                                MCAPI_OUT mcapi_request_t *request,
                                MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (mcapi_status)
        top_chan_i(TP_CLOSE, TP_PKT, TP_RECV, receive_handle, 0, NULL, request, mcapi_status);
}

void mcapi_pktchan_send_close_i(MCAPI_IN mcapi_pktchan_send_hndl_t send_handle,
                                MCAPI_OUT mcapi_request_t *request,
                                MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (mcapi_status)
        top_chan_i(TP_CLOSE, TP_PKT, TP_SEND, send_handle, 0, NULL, request, mcapi_status);
}

static mcapi_status_t send_op(struct tp_op *op, mcapi_pktchan_send_hndl_t h, const void *buf,
                              size_t size)
{
    if (!buf && size) return MCAPI_ERR_PARAMETER;
    if (size > MCAPI_MAX_PKT_SIZE) return MCAPI_ERR_PKT_SIZE;
    *op = (struct tp_op){
        .kind = TP_PKT_SEND, .chan = TP_PKT, .dir = TP_SEND, .h = h, .src = buf, .len = size};
    return MCAPI_SUCCESS;
}

void mcapi_pktchan_send_i(MCAPI_IN mcapi_pktchan_send_hndl_t send_handle, MCAPI_IN void *buffer,
                          MCAPI_IN size_t size, MCAPI_OUT mcapi_request_t *request,
                          MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (!mcapi_status) return;
    struct top_node *n = top_enter(mcapi_status);
    if (!n) return;
    struct tp_op op;
    mcapi_status_t st = request ? send_op(&op, send_handle, buffer, size) : MCAPI_ERR_PARAMETER;
    *mcapi_status =
        st == MCAPI_SUCCESS ? top_req_issue(n, &op, request) : top_req_fail(n, request, st);
}

void mcapi_pktchan_send(MCAPI_IN mcapi_pktchan_send_hndl_t send_handle, MCAPI_IN void *buffer,
                        MCAPI_IN size_t size, MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (!mcapi_status) return;
    struct top_node *n = top_enter(mcapi_status);
    if (!n) return;
    struct tp_op op;
    mcapi_status_t st = send_op(&op, send_handle, buffer, size);
    *mcapi_status = st == MCAPI_SUCCESS ? top_req_call(n, &op) : st;
}

void mcapi_pktchan_recv_i(MCAPI_IN mcapi_pktchan_recv_hndl_t receive_handle,
                          MCAPI_OUT void **buffer, MCAPI_OUT mcapi_request_t *request,
                          MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (!mcapi_status) return;
    struct top_node *n = top_enter(mcapi_status);
    if (!n) return;
    if (!buffer || !request) {
        *mcapi_status = top_req_fail(n, request, MCAPI_ERR_PARAMETER);
        return;
    }
    struct tp_op op = {.kind = TP_PKT_RECV,
                       .chan = TP_PKT,
                       .dir = TP_RECV,
                       .h = receive_handle,
                       .out_buf = buffer};
    *mcapi_status = top_req_issue(n, &op, request);
}

void mcapi_pktchan_recv(MCAPI_IN mcapi_pktchan_recv_hndl_t receive_handle, MCAPI_OUT void **buffer,
                        MCAPI_OUT size_t *received_size, MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (!mcapi_status) return;
    struct top_node *n = top_enter(mcapi_status);
    if (!n) return;
    if (!buffer || !received_size) {
        *mcapi_status = MCAPI_ERR_PARAMETER;
        return;
    }
    struct tp_op op = {.kind = TP_PKT_RECV,
                       .chan = TP_PKT,
                       .dir = TP_RECV,
                       .h = receive_handle,
                       .out_buf = buffer};
    *mcapi_status = top_req_call(n, &op);
    *received_size = op.size;
}

mcapi_uint_t mcapi_pktchan_available(MCAPI_IN mcapi_pktchan_recv_hndl_t receive_handle,
                                     MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (!mcapi_status) return 0;
    struct top_node *n = top_enter(mcapi_status);
    if (!n) return 0;
    mcapi_uint_t count = 0;
    *mcapi_status = n->t->available(n->tp, TP_PKT_RECV, receive_handle, &count);
    return count;
}

void mcapi_pktchan_release(MCAPI_IN void *buffer, MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (!mcapi_status) return;
    struct top_node *n = top_enter(mcapi_status);
    if (!n) return;
    *mcapi_status = buffer ? n->t->pkt_release(n->tp, buffer, false) : MCAPI_ERR_PARAMETER;
}

mcapi_boolean_t mcapi_pktchan_release_test(MCAPI_IN void *buffer,
                                           MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (!mcapi_status) return MCAPI_FALSE;
    struct top_node *n = top_enter(mcapi_status);
    if (!n) return MCAPI_FALSE;
    *mcapi_status = buffer ? n->t->pkt_release(n->tp, buffer, true) : MCAPI_ERR_PARAMETER;
    return *mcapi_status == MCAPI_SUCCESS;
}
