/*
 * top/api_msg.c -- connectionless messages.
 */
#include "top.h"

/* The op of a send, or an argument's error. */
static mcapi_status_t send_op(struct tp_op *op, mcapi_endpoint_t from, mcapi_endpoint_t to,
                              const void *buf, size_t size, mcapi_priority_t prio)
{
    if (!buf && size) return MCAPI_ERR_PARAMETER;
    if (size > MCAPI_MAX_MSG_SIZE) return MCAPI_ERR_MSG_SIZE;
    if (prio > MCAPI_MAX_PRIORITY) return MCAPI_ERR_PRIORITY;
    *op = (struct tp_op){
        .kind = TP_MSG_SEND, .h = from, .to = to, .src = buf, .len = size, .prio = prio};
    return MCAPI_SUCCESS;
}

void mcapi_msg_send_i(MCAPI_IN mcapi_endpoint_t send_endpoint,
                      MCAPI_IN mcapi_endpoint_t receive_endpoint, MCAPI_IN void *buffer,
                      MCAPI_IN size_t buffer_size, MCAPI_IN mcapi_priority_t priority,
                      MCAPI_OUT mcapi_request_t *request, MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (!mcapi_status) return;
    struct top_node *n = top_enter(mcapi_status);
    if (!n) return;
    struct tp_op op;
    mcapi_status_t st =
        request ? send_op(&op, send_endpoint, receive_endpoint, buffer, buffer_size, priority)
                : MCAPI_ERR_PARAMETER;
    *mcapi_status =
        st == MCAPI_SUCCESS ? top_req_issue(n, &op, request) : top_req_fail(n, request, st);
}

void mcapi_msg_send(MCAPI_IN mcapi_endpoint_t send_endpoint,
                    MCAPI_IN mcapi_endpoint_t receive_endpoint, MCAPI_IN void *buffer,
                    MCAPI_IN size_t buffer_size, MCAPI_IN mcapi_priority_t priority,
                    MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (!mcapi_status) return;
    struct top_node *n = top_enter(mcapi_status);
    if (!n) return;
    struct tp_op op;
    mcapi_status_t st =
        send_op(&op, send_endpoint, receive_endpoint, buffer, buffer_size, priority);
    *mcapi_status = st == MCAPI_SUCCESS ? top_req_call(n, &op) : st;
}

void mcapi_msg_recv_i(MCAPI_IN mcapi_endpoint_t receive_endpoint, MCAPI_OUT void *buffer,
                      MCAPI_IN size_t buffer_size, MCAPI_OUT mcapi_request_t *request,
                      MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (!mcapi_status) return;
    struct top_node *n = top_enter(mcapi_status);
    if (!n) return;
    if (!request || (!buffer && buffer_size)) {
        *mcapi_status = top_req_fail(n, request, MCAPI_ERR_PARAMETER);
        return;
    }
    struct tp_op op = {
        .kind = TP_MSG_RECV, .h = receive_endpoint, .dst = buffer, .len = buffer_size};
    *mcapi_status = top_req_issue(n, &op, request);
}

void mcapi_msg_recv(MCAPI_IN mcapi_endpoint_t receive_endpoint, MCAPI_OUT void *buffer,
                    MCAPI_IN size_t buffer_size, MCAPI_OUT size_t *received_size,
                    MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (!mcapi_status) return;
    struct top_node *n = top_enter(mcapi_status);
    if (!n) return;
    if (!received_size || (!buffer && buffer_size)) {
        *mcapi_status = MCAPI_ERR_PARAMETER;
        return;
    }
    struct tp_op op = {
        .kind = TP_MSG_RECV, .h = receive_endpoint, .dst = buffer, .len = buffer_size};
    *mcapi_status = top_req_call(n, &op);
    *received_size = op.size;
}

mcapi_uint_t mcapi_msg_available(MCAPI_IN mcapi_endpoint_t receive_endpoint,
                                 MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (!mcapi_status) return 0;
    struct top_node *n = top_enter(mcapi_status);
    if (!n) return 0;
    mcapi_uint_t count = 0;
    *mcapi_status = n->t->available(n->tp, TP_MSG_RECV, receive_endpoint, &count);
    return count;
}
