/*
 * xmcapi/xm_msg.c -- XMCAPI's messages: send and receive (steps, under the
 * node's mutex).
 *
 * A send completes when its frame is in the peer's output buffer (the
 * bytes are then the transport's: the caller's buffer is free again); it
 * waits while the peer is being connected, while it has no credit left
 * for that endpoint (xm.h: a full queue there; FAIL_ON_MEM_LIMIT on the
 * sending endpoint fails instead), while the peer has said STOP for that
 * endpoint, or while the output buffer is over XM_OUT_MAX
 * (xm_op_ready). An op that started before its peer's connection failed
 * ends with MCAPI_ERR_TRANSMISSION. A message to the node itself is queued
 * at once, with no socket, if the endpoint's queue has room and the node
 * a message buffer (MCAPI_MAX_MSG_BUFFERS, counted per node); else it
 * waits, or fails with FAIL_ON_MEM_LIMIT on either endpoint.
 */
#include "xm.h"

#include <stdlib.h>
#include <string.h>

static mcapi_status_t send_step(struct tp_node *tp, struct tp_op *op)
{
    unsigned p = XM_PEER(XM_H_DOM(op->to), XM_H_NODE(op->to)), port = XM_H_PORT(op->to);
    if (p == tp->self) { /* to ourselves: no socket */
        struct xm_ep *to = xm_ep_by_port(tp, port);
        if (!to || to->gen != XM_H_GEN(op->to)) return MCAPI_ERR_ENDP_DELETED; /* since check() */
        struct xm_queue *q = xm_msgq(to);
        /* A full queue, or no message buffer of the node's left (the
         * domain's MCAPI_MAX_MSG_BUFFERS, per node here): wait, or fail. */
        unsigned depth = to->cstate == XC_NONE ? to->depth : XM_MSG_DEPTH;
        if (q->n >= depth || tp->msg_bufs >= MCAPI_MAX_MSG_BUFFERS) {
            mcapi_status_t st;
            return xm_fails(xm_own(tp, op->h, &st)) || xm_fails(to) ? MCAPI_ERR_MEM_LIMIT
                                                                    : MCAPI_PENDING;
        }
        struct xm_item it = {
            .buf = malloc(op->len ? op->len : 1), .len = (uint32_t)op->len, .from = (uint16_t)p};
        if (!it.buf || !xm_q_push(q, &it)) {
            free(it.buf);
            return MCAPI_ERR_MEM_LIMIT;
        }
        tp->msg_bufs++;
        memcpy(it.buf, op->src, op->len);
        op->size = op->len;
        return MCAPI_SUCCESS;
    }
    if (xm_ep_gone(tp, op->to)) return MCAPI_ERR_ENDP_DELETED; /* since check() */
    struct xm_peer *pe = &tp->peer[p];
    if (pe->stopped && pe->stopped[port / 8] & 1u << (port % 8)) {
        if (op->state & XM_ST_SINCE && op->held != pe->fails) return MCAPI_ERR_TRANSMISSION;
        return MCAPI_PENDING; /* the receiver said STOP: RESUME wakes us */
    }
    if (!pe->sent && !(pe->sent = calloc(MCAPI_MAX_PORT + 1, 1))) return MCAPI_ERR_MEM_LIMIT;
    if (pe->sent[port] >= XM_MSG_CREDITS) { /* the receiver's queue may be full */
        mcapi_status_t st;
        if (xm_fails(xm_own(tp, op->h, &st))) return MCAPI_ERR_MEM_LIMIT;
        if (op->state & XM_ST_SINCE && op->held != pe->fails) return MCAPI_ERR_TRANSMISSION;
        if (!(op->state & XM_ST_CREDIT)) tp->credit_waits++;
        op->state |= XM_ST_CREDIT;
        return MCAPI_PENDING; /* a credit wakes us */
    }
    mcapi_status_t st = xm_op_ready(tp, op, p, op->len);
    if (st != MCAPI_SUCCESS) return st;
    struct xw_header h = {.type = XW_MSG,
                          .priority = (uint8_t)op->prio,
                          .port = (uint16_t)port,
                          .qp = XM_QP_MSG(XM_H_GEN(op->to), xm_credit_carry(tp, p)),
                          .size = (uint32_t)op->len,
                          .dst_domain = (uint16_t)XM_H_DOM(op->to),
                          .dst_node = (uint16_t)XM_H_NODE(op->to)};
    if (!xm_send_frame(tp, &h, op->src)) return MCAPI_ERR_MEM_LIMIT;
    pe->sent[port]++;
    op->size = op->len;
    return MCAPI_SUCCESS;
}

/* A send that waits keeps a copy of the message: the caller may reuse its
 * buffer at once, as on shared memory (whose send takes a buffer first). */
mcapi_status_t xm_msg_send(struct tp_node *tp, struct tp_op *op)
{
    mcapi_status_t st = send_step(tp, op);
    if (st == MCAPI_PENDING && !(op->state & XM_ST_COPY)) {
        void *c = malloc(op->len ? op->len : 1);
        if (!c) return MCAPI_PENDING; /* the caller's buffer, then */
        memcpy(c, op->src, op->len);
        op->src = c;
        op->state |= XM_ST_COPY;
    } else if (st != MCAPI_PENDING) {
        xm_msg_forget(op);
    }
    return st;
}

void xm_msg_forget(struct tp_op *op)
{
    if (!(op->state & XM_ST_COPY)) return;
    free((void *)op->src);
    op->src = NULL;
    op->state &= (uint8_t)~XM_ST_COPY;
}

mcapi_status_t xm_msg_recv(struct tp_node *tp, struct tp_op *op)
{
    mcapi_status_t st;
    struct xm_ep *e = xm_own(tp, op->h, &st);
    if (!e) return MCAPI_ERR_ENDP_DELETED;
    struct xm_item it;
    if (!xm_q_pop(xm_msgq(e), &it)) return MCAPI_PENDING;
    size_t n = it.len < op->len ? it.len : op->len;
    memcpy(op->dst, it.buf, n);
    free(it.buf);
    tp->msg_bufs--; /* every queued message holds one, a channel end's too */
    xm_credit_owe(tp, e, it.from);
    if (e->cstate == XC_NONE) xm_q_taken(tp, e);
    plat_work_cycles(tp->xfer_cycles);
    op->size = n;
    return it.len > op->len ? MCAPI_ERR_MSG_TRUNCATED : MCAPI_SUCCESS;
}
