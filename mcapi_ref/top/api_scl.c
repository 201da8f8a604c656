/*
 * top/api_scl.c -- scalar channels. Sends and receives block (the
 * endpoint's MCAPI_ENDP_ATTR_TIMEOUT applies); a scalar keeps its width.
 */
#include "top.h"

void mcapi_sclchan_connect_i(MCAPI_IN mcapi_endpoint_t send_endpoint,
                             MCAPI_IN mcapi_endpoint_t receive_endpoint,
                             MCAPI_OUT mcapi_request_t *request,
                             MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (mcapi_status)
        top_chan_i(TP_CONNECT, TP_SCL, TP_SEND, send_endpoint, receive_endpoint, NULL, request,
                   mcapi_status);
}

void mcapi_sclchan_recv_open_i(MCAPI_OUT mcapi_sclchan_recv_hndl_t *receive_handle,
                               MCAPI_IN mcapi_endpoint_t receive_endpoint,
                               MCAPI_OUT mcapi_request_t *request,
                               MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (mcapi_status)
        top_chan_i(TP_OPEN, TP_SCL, TP_RECV, receive_endpoint, 0, receive_handle, request,
                   mcapi_status);
}

void mcapi_sclchan_send_open_i(MCAPI_OUT mcapi_sclchan_send_hndl_t *send_handle,
                               MCAPI_IN mcapi_endpoint_t send_endpoint,
                               MCAPI_OUT mcapi_request_t *request,
                               MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (mcapi_status)
        top_chan_i(TP_OPEN, TP_SCL, TP_SEND, send_endpoint, 0, send_handle, request, mcapi_status);
}

void mcapi_sclchan_recv_close_i(MCAPI_IN mcapi_sclchan_recv_hndl_t receive_handle,
                                MCAPI_OUT mcapi_request_t *request,
                                MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (mcapi_status)
        top_chan_i(TP_CLOSE, TP_SCL, TP_RECV, receive_handle, 0, NULL, request, mcapi_status);
}

void mcapi_sclchan_send_close_i(MCAPI_IN mcapi_sclchan_send_hndl_t send_handle,
                                MCAPI_OUT mcapi_request_t *request,
                                MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (mcapi_status)
        top_chan_i(TP_CLOSE, TP_SCL, TP_SEND, send_handle, 0, NULL, request, mcapi_status);
}

static void put(mcapi_sclchan_send_hndl_t h, uint64_t v, size_t width, mcapi_status_t *status)
{
    if (!status) return;
    struct top_node *n = top_enter(status);
    if (!n) return;
    struct tp_op op = {
        .kind = TP_SCL_SEND, .chan = TP_SCL, .dir = TP_SEND, .h = h, .value = v, .len = width};
    *status = top_req_call(n, &op);
}

static uint64_t get(mcapi_sclchan_recv_hndl_t h, size_t width, mcapi_status_t *status)
{
    if (!status) return 0;
    struct top_node *n = top_enter(status);
    if (!n) return 0;
    struct tp_op op = {.kind = TP_SCL_RECV, .chan = TP_SCL, .dir = TP_RECV, .h = h, .len = width};
    *status = top_req_call(n, &op);
    return *status == MCAPI_SUCCESS ? op.value : 0;
}

void mcapi_sclchan_send_uint64(MCAPI_IN mcapi_sclchan_send_hndl_t send_handle,
                               MCAPI_IN mcapi_uint64_t dataword,
                               MCAPI_OUT mcapi_status_t *mcapi_status)
{
    put(send_handle, dataword, sizeof dataword, mcapi_status);
}

void mcapi_sclchan_send_uint32(MCAPI_IN mcapi_sclchan_send_hndl_t send_handle,
                               MCAPI_IN mcapi_uint32_t dataword,
                               MCAPI_OUT mcapi_status_t *mcapi_status)
{
    put(send_handle, dataword, sizeof dataword, mcapi_status);
}

void mcapi_sclchan_send_uint16(MCAPI_IN mcapi_sclchan_send_hndl_t send_handle,
                               MCAPI_IN mcapi_uint16_t dataword,
                               MCAPI_OUT mcapi_status_t *mcapi_status)
{
    put(send_handle, dataword, sizeof dataword, mcapi_status);
}

void mcapi_sclchan_send_uint8(MCAPI_IN mcapi_sclchan_send_hndl_t send_handle,
                              MCAPI_IN mcapi_uint8_t dataword,
                              MCAPI_OUT mcapi_status_t *mcapi_status)
{
    put(send_handle, dataword, sizeof dataword, mcapi_status);
}

mcapi_uint64_t mcapi_sclchan_recv_uint64(MCAPI_IN mcapi_sclchan_recv_hndl_t receive_handle,
                                         MCAPI_OUT mcapi_status_t *mcapi_status)
{
    return get(receive_handle, sizeof(mcapi_uint64_t), mcapi_status);
}

mcapi_uint32_t mcapi_sclchan_recv_uint32(MCAPI_IN mcapi_sclchan_recv_hndl_t receive_handle,
                                         MCAPI_OUT mcapi_status_t *mcapi_status)
{
    return (mcapi_uint32_t)get(receive_handle, sizeof(mcapi_uint32_t), mcapi_status);
}

mcapi_uint16_t mcapi_sclchan_recv_uint16(MCAPI_IN mcapi_sclchan_recv_hndl_t receive_handle,
                                         MCAPI_OUT mcapi_status_t *mcapi_status)
{
    return (mcapi_uint16_t)get(receive_handle, sizeof(mcapi_uint16_t), mcapi_status);
}

mcapi_uint8_t mcapi_sclchan_recv_uint8(MCAPI_IN mcapi_sclchan_recv_hndl_t receive_handle,
                                       MCAPI_OUT mcapi_status_t *mcapi_status)
{
    return (mcapi_uint8_t)get(receive_handle, sizeof(mcapi_uint8_t), mcapi_status);
}

mcapi_uint_t mcapi_sclchan_available(MCAPI_IN mcapi_sclchan_recv_hndl_t receive_handle,
                                     MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (!mcapi_status) return 0;
    struct top_node *n = top_enter(mcapi_status);
    if (!n) return 0;
    mcapi_uint_t count = 0;
    *mcapi_status = n->t->available(n->tp, TP_SCL_RECV, receive_handle, &count);
    return count;
}
