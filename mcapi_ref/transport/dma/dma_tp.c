/*
 * transport/dma/dma_tp.c -- the DMA transport's function table: the only thing
 * the top layer sees of it (transport/mcapi_transport.h). mcapi_initialize picks
 * it when mcapi_param_t.transport is MCAPI_TRANSPORT_DMA.
 */
#include "dma_tp.h"
#include "../handle.h"

/* A channel handle op may use: its end, kind and timeout. */
static mcapi_status_t check_chan(struct tp_node *tp, struct tp_op *op)
{
    int p = dt_chan_port(tp, op->h);
    if (p < 0) return MCAPI_ERR_CHAN_INVALID;
    mcapi_status_t fit = tp_chan_fits(op, h_chan_type(op->h), h_chan_dir(op->h));
    if (fit != MCAPI_SUCCESS) return fit;
    const struct dt_endp *e = &tp->ep[p];
    if (e->c.state != CS_OPEN) return MCAPI_ERR_CHAN_NOTOPEN;
    if (op->kind == TP_PKT_SEND && op->len > (size_t)e->a.max_payload) return MCAPI_ERR_PKT_SIZE;
    op->timeout = e->a.timeout;
    return MCAPI_SUCCESS;
}

static mcapi_status_t check(struct tp_node *tp, struct tp_op *op)
{
    unsigned n, p;
    mcapi_status_t st;
    switch (op->kind) {
    case TP_GET:
        return op->dom == tp->dom ? MCAPI_SUCCESS : MCAPI_ERR_DOMAIN_INVALID;
    case TP_MSG_SEND:
        if ((st = dt_own_check(tp, op->h)) != MCAPI_SUCCESS) return st;
        if (!dt_ep_decode(tp, op->to, &n, &p)) return MCAPI_ERR_ENDP_INVALID;
        break;
    case TP_MSG_RECV:
    case TP_OPEN:
        if ((st = dt_own_check(tp, op->h)) != MCAPI_SUCCESS) return st;
        break;
    case TP_CONNECT:
        return dt_ep_decode(tp, op->h, &n, &p) && dt_ep_decode(tp, op->to, &n, &p)
                   ? MCAPI_SUCCESS
                   : MCAPI_ERR_ENDP_INVALID;
    default:
        return check_chan(tp, op);
    }
    op->timeout = dt_own(tp, op->h)->a.timeout;
    return MCAPI_SUCCESS;
}

/* Packets and scalars share their transfers: a scalar is a packet of its width. */
static tp_step_fn *const steps[TP_NKINDS] = {
    [TP_GET] = dt_endp_get,      [TP_MSG_SEND] = dt_msg_send,    [TP_MSG_RECV] = dt_msg_recv,
    [TP_PKT_SEND] = dt_pkt_send, [TP_PKT_RECV] = dt_pkt_recv,    [TP_SCL_SEND] = dt_pkt_send,
    [TP_SCL_RECV] = dt_pkt_recv, [TP_CONNECT] = dt_chan_connect, [TP_OPEN] = dt_chan_open,
    [TP_CLOSE] = dt_chan_close,
};

/* Before every step: reap finished transfers, flush the outbox, read the
 * control channel (dt_service). */
static mcapi_status_t step(struct tp_node *tp, struct tp_op *op)
{
    dt_service(tp);
    return tp_step(steps, tp, op);
}

static void abort_(struct tp_node *tp, struct tp_op *op)
{
    switch (op->kind) {
    case TP_MSG_SEND:
    case TP_PKT_SEND:
    case TP_SCL_SEND:
        /* The engine has no abort: a transfer already started still runs
         * (docs/mcapi.md); its record stays with the node until it ends. */
        if (op->held) dt_slot_orphan(tp, (int)op->held - 1);
        op->held = 0;
        break;
    case TP_MSG_RECV:
        dt_msg_recv_abort(tp, op);
        break;
    case TP_OPEN:
        dt_chan_open_abort(tp, op);
        break;
    default:
        break;
    }
}

static mcapi_status_t available(struct tp_node *tp, enum tp_kind kind, mcapi_uint32_t h,
                                mcapi_uint_t *n)
{
    dt_service(tp);
    if (kind == TP_MSG_RECV) {
        struct dt_endp *e = dt_own(tp, h);
        if (!e) return dt_own_check(tp, h);
        if (e->post == DP_INT) (void)dt_poll_chan(tp, dt_port_chan(tp, (unsigned)(e - tp->ep)));
        *n = e->qn;
        return MCAPI_SUCCESS;
    }
    struct tp_op op = {.kind = (uint8_t)kind,
                       .h = h,
                       .dir = TP_RECV,
                       .chan = kind == TP_PKT_RECV ? TP_PKT : TP_SCL};
    return dt_chan_available(tp, &op, n);
}

const struct mcapi_transport mcapi_dma_transport = {
    .name = "dma",
    .kind = MCAPI_TRANSPORT_DMA,
    .attach = dt_node_attach,
    .detach = dt_node_detach,
    .epoch = dt_epoch,
    .sleep = dt_sleep,
    .check = check,
    .step = step,
    .abort = abort_,
    .endp_create = dt_endp_create,
    .endp_delete = dt_endp_delete,
    .endp_release = dt_endp_release,
    .endp_get_attr = dt_attr_get,
    .endp_set_attr = dt_attr_set,
    .node_get_attr = dt_attr_node,
    .available = available,
    .pkt_release = dt_pkt_release,
};
