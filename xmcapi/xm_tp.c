/*
 * xmcapi/xm_tp.c -- the XMCAPI transport's function table, the only thing
 * mcapi_ref's top layer sees of it (mcapi_transport.h), and xmcapi_stats.
 *
 * Every entry takes the node's mutex: the communicator thread files
 * arrivals into the same endpoints. The steps themselves are in
 * xm_endp.c (get), xm_msg.c and xm_chan.c.
 */
#include "xm.h"
#include "xmcapi.h"

static mcapi_status_t check(struct tp_node *tp, struct tp_op *op)
{
    mcapi_status_t st = MCAPI_SUCCESS;
    struct xm_ep *e = NULL;
    plat_mutex_lock(&tp->mu);
    switch (op->kind) {
    case TP_GET:
        if (!xt_find(tp->topo, op->dom, op->node))
            st = xt_find(tp->topo, op->dom, tp->node) || op->dom == tp->dom
                     ? MCAPI_ERR_NODE_INVALID
                     : MCAPI_ERR_DOMAIN_INVALID;
        break;
    case TP_MSG_SEND:
        if ((e = xm_own(tp, op->h, &st)) && !xm_ep_valid(tp, op->to)) st = MCAPI_ERR_ENDP_INVALID;
        break;
    case TP_MSG_RECV:
    case TP_OPEN:
        e = xm_own(tp, op->h, &st);
        break;
    case TP_CONNECT:
        if (!xm_ep_valid(tp, op->h) || !xm_ep_valid(tp, op->to)) st = MCAPI_ERR_ENDP_INVALID;
        break;
    default:
        if ((e = xm_chan_end(tp, op->h, &st))) {
            st = tp_chan_fits(op, XM_H_CHAN(op->h), XM_H_DIR(op->h));
            if (st == MCAPI_SUCCESS && op->kind == TP_PKT_SEND &&
                op->len > (size_t)e->a.max_payload)
                st = MCAPI_ERR_PKT_SIZE;
        }
        break;
    }
    if (e && st == MCAPI_SUCCESS) op->timeout = e->a.timeout;
    plat_mutex_unlock(&tp->mu);
    return st;
}

static tp_step_fn *const steps[TP_NKINDS] = {
    [TP_GET] = xm_endp_get,       [TP_MSG_SEND] = xm_msg_send,    [TP_MSG_RECV] = xm_msg_recv,
    [TP_PKT_SEND] = xm_chan_send, [TP_PKT_RECV] = xm_chan_recv,   [TP_SCL_SEND] = xm_chan_send,
    [TP_SCL_RECV] = xm_chan_recv, [TP_CONNECT] = xm_chan_connect, [TP_OPEN] = xm_chan_open,
    [TP_CLOSE] = xm_chan_close,
};

/* The communicator files arrivals into the same state: under the mutex. */
static mcapi_status_t step(struct tp_node *tp, struct tp_op *op)
{
    plat_mutex_lock(&tp->mu);
    mcapi_status_t st = tp_step(steps, tp, op);
    plat_mutex_unlock(&tp->mu);
    return st;
}

static void abort_(struct tp_node *tp, struct tp_op *op)
{
    plat_mutex_lock(&tp->mu);
    if ((op->kind == TP_CONNECT || op->kind == TP_GET) && op->state == 1 && op->held) {
        tp->pend[op->held - 1].used = 0; /* late answers find nothing */
        op->held = 0;
    } else if (op->kind == TP_GET && op->state == 2) {
        tp->retrying--;
    } else if (op->kind == TP_MSG_SEND) {
        xm_msg_forget(op);
    } else if (op->kind == TP_OPEN && op->state) {
        mcapi_status_t st;
        struct xm_ep *e = xm_own(tp, op->h, &st);
        if (e) e->opening = 0;
    }
    plat_mutex_unlock(&tp->mu);
}

static mcapi_status_t available(struct tp_node *tp, enum tp_kind kind, mcapi_uint32_t h,
                                mcapi_uint_t *n)
{
    mcapi_status_t st = MCAPI_SUCCESS;
    plat_mutex_lock(&tp->mu);
    struct xm_ep *e = kind == TP_MSG_RECV ? xm_own(tp, h, &st) : xm_chan_end(tp, h, &st);
    if (e && kind != TP_MSG_RECV &&
        XM_H_KIND(h) != 2 + (kind == TP_PKT_RECV ? TP_PKT : TP_SCL) * 2u + TP_RECV) {
        e = NULL;
        st = MCAPI_ERR_CHAN_INVALID;
    }
    if (e) *n = kind == TP_MSG_RECV ? xm_msgq(e)->n : e->q.n;
    plat_mutex_unlock(&tp->mu);
    return st;
}

const struct mcapi_transport mcapi_xm_transport = {
    .name = "xmcapi",
    .kind = MCAPI_TRANSPORT_XMCAPI,
    .claims = xm_claims,
    .attach = xm_attach,
    .detach = xm_detach,
    .epoch = xm_epoch,
    .sleep = xm_sleep,
    .check = check,
    .step = step,
    .abort = abort_,
    .endp_create = xm_endp_create,
    .endp_delete = xm_endp_delete,
    .endp_release = xm_endp_release,
    .endp_get_attr = xm_attr_get,
    .endp_set_attr = xm_attr_set,
    .node_get_attr = xm_node_attr,
    .available = available,
    .pkt_release = xm_pkt_release,
};

mcapi_status_t xmcapi_stats(struct xmcapi_stats *out)
{
    mcapi_status_t st;
    struct tp_node *tp = top_self(&mcapi_xm_transport, &st);
    if (!tp) return st;
    if (!out) return MCAPI_ERR_PARAMETER;
    plat_mutex_lock(&tp->mu);
    *out = (struct xmcapi_stats){.stops_sent = tp->stops_sent,
                                 .resumes_sent = tp->resumes_sent,
                                 .stops_got = tp->stops_got,
                                 .bad_frames = tp->bad_frames,
                                 .conn_fails = tp->conn_fails,
                                 .credit_waits = tp->credit_waits,
                                 .credits_sent = tp->credits_sent,
                                 .pkt_bufs_reused = tp->pkt_bufs_reused};
    plat_mutex_unlock(&tp->mu);
    return MCAPI_SUCCESS;
}
