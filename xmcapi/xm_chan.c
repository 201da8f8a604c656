/*
 * xmcapi/xm_chan.c -- XMCAPI's packet and scalar channels: connect, open,
 * close, send, receive, and the packets the application holds.
 *
 * The steps run under the node's mutex (step(), xm_tp.c). Sends wait as
 * messages do (xm_msg.c) and also while the receiving end has said STOP;
 * a received packet's buffer is the application's until
 * mcapi_pktchan_release (tp->held).
 */
#include "xm.h"

#include <stdlib.h>

/* The local end that channel handle h names, or NULL with why not. */
struct xm_ep *xm_chan_end(struct tp_node *tp, uint32_t h, mcapi_status_t *st)
{
    struct xm_ep *e = xm_is_self(tp, h) ? xm_ep_by_port(tp, XM_H_PORT(h)) : NULL;
    if (!e || XM_H_KIND(h) < 2 || e->chandle != h) { /* a closed end keeps its handle */
        *st = MCAPI_ERR_CHAN_INVALID;
        return NULL;
    }
    if (e->cstate != XC_OPEN) {
        *st = MCAPI_ERR_CHAN_NOTOPEN;
        return NULL;
    }
    return e;
}

/* Packets and scalars out. */
mcapi_status_t xm_chan_send(struct tp_node *tp, struct tp_op *op)
{
    mcapi_status_t st;
    struct xm_ep *e = xm_chan_end(tp, op->h, &st);
    if (!e) return st;
    if (e->failed) return MCAPI_ERR_TRANSMISSION;
    if (e->peer_closed) return MCAPI_ERR_CHAN_NOTOPEN;
    if (e->held_back) return MCAPI_PENDING;
    /* Both ends ours: the receive end holds MCAPI_MAX_QUEUE_ELEMENTS
     * exactly (what is on the node's own connection counts), as a queue in
     * memory would; it sends us no STOP. */
    struct xm_ep *o = e->peer == tp->self ? xm_ep_by_port(tp, e->peer_port) : NULL;
    if (o && (o->qp != e->qp || o->cstate == XC_NONE || o->cdir != TP_RECV)) o = NULL;
    if (o && o->self_q >= MCAPI_MAX_QUEUE_ELEMENTS)
        return xm_fails(e) || xm_fails(o) ? MCAPI_ERR_MEM_LIMIT : MCAPI_PENDING;
    st = xm_op_ready(tp, op, e->peer, op->len);
    if (st != MCAPI_SUCCESS) return st;
    uint8_t v[8];
    const void *pl = op->src;
    if (op->kind == TP_SCL_SEND) {
        for (size_t i = 0; i < op->len; i++) v[i] = (uint8_t)(op->value >> (8 * (op->len - 1 - i)));
        pl = v;
    }
    struct xw_header h = {.type = op->kind == TP_PKT_SEND ? XW_PKT : XW_SCALAR,
                          .port = e->peer_port,
                          .qp = e->qp,
                          .size = (uint32_t)op->len,
                          .dst_domain = (uint16_t)(e->peer / MCA_MAX_NODES),
                          .dst_node = (uint16_t)(e->peer % MCA_MAX_NODES)};
    if (!xm_send_frame(tp, &h, pl)) return MCAPI_ERR_MEM_LIMIT;
    if (o) o->self_q++;
    op->size = op->len;
    return MCAPI_SUCCESS;
}

static bool hold(struct tp_node *tp, const struct xm_item *it)
{
    if (tp->nheld == tp->cheld) {
        size_t cap = tp->cheld ? tp->cheld * 2 : 16;
        struct xm_held *a = realloc(tp->held, cap * sizeof *a);
        if (!a) return false;
        tp->held = a;
        tp->cheld = cap;
    }
    tp->held[tp->nheld++] = (struct xm_held){it->buf, it->len};
    return true;
}

/* Packets and scalars in. */
mcapi_status_t xm_chan_recv(struct tp_node *tp, struct tp_op *op)
{
    mcapi_status_t st;
    struct xm_ep *e = xm_chan_end(tp, op->h, &st);
    if (!e) return st;
    if (!e->q.n) {
        if (e->failed) return MCAPI_ERR_TRANSMISSION;
        return e->peer_closed ? MCAPI_ERR_CHAN_NOTOPEN : MCAPI_PENDING;
    }
    struct xm_item *head = &e->q.it[e->q.head];
    if (op->kind == TP_SCL_RECV && head->len != op->len) return MCAPI_ERR_SCL_SIZE;
    if (op->kind == TP_PKT_RECV && !hold(tp, head)) return MCAPI_ERR_MEM_LIMIT;
    struct xm_item it;
    (void)xm_q_pop(&e->q, &it);
    if (it.from == tp->self && e->self_q) e->self_q--;
    if (op->kind == TP_PKT_RECV)
        *op->out_buf = it.buf;
    else
        op->value = it.value;
    xm_q_taken(tp, e);
    plat_work_cycles(tp->xfer_cycles);
    op->size = it.len;
    return MCAPI_SUCCESS;
}

static void put16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

/* A refused connect leaves no end of ours attached. */
static void unattach(struct tp_node *tp, uint32_t h, uint32_t qp)
{
    struct xm_ep *e = xm_is_self(tp, h) ? xm_ep_by_port(tp, XM_H_PORT(h)) : NULL;
    if (e && e->cstate == XC_CONN && e->qp == qp) {
        xm_q_drop(tp, e);
        e->q = e->mq; /* its messages (xm_msgq) */
        e->mq = (struct xm_queue){0};
        e->cstate = XC_NONE;
        e->depth = XM_MSG_DEPTH;
    }
}

/* Connect: attach each end at its owner; the first step asks, later ones
 * collect the remote owners' answers (op->held: the pending slot + 1). */
mcapi_status_t xm_chan_connect(struct tp_node *tp, struct tp_op *op)
{
    uint32_t s = op->h, r = op->to;
    unsigned sp = XM_PEER(XM_H_DOM(s), XM_H_NODE(s)), rp = XM_PEER(XM_H_DOM(r), XM_H_NODE(r));
    if (!op->state) {
        if (s == r) return MCAPI_ERR_CHAN_CONNECTED;
        uint32_t qp;
        int i = xm_pend_new(tp, sp, rp, &qp);
        if (i < 0) return MCAPI_PENDING; /* an answer frees one */
        struct xm_pend *q = &tp->pend[i];
        op->state = 1;
        op->held = (uint32_t)i + 1;
        /* Local ends first: a refusal here sends nothing. */
        struct xm_ep *ls = sp == tp->self ? xm_ep_by_port(tp, XM_H_PORT(s)) : NULL;
        struct xm_ep *lr = rp == tp->self ? xm_ep_by_port(tp, XM_H_PORT(r)) : NULL;
        uint8_t pl[13 + XM_ATTRS] = {op->chan};
        if (ls || lr) xm_attrs_put(pl + 13, ls ? &ls->a : &lr->a);
        if (ls && lr && !ls->cstate && !lr->cstate && !xm_attrs_fit(&lr->a, pl + 13))
            q->st = MCAPI_ERR_ATTR_INCOMPATIBLE;
        if (q->st == MCAPI_SUCCESS && sp == tp->self)
            q->st = xm_chan_attach(tp, XM_H_PORT(s), op->chan, TP_SEND, rp, XM_H_PORT(r), qp);
        if (q->st == MCAPI_SUCCESS && rp == tp->self) {
            q->st = xm_chan_attach(tp, XM_H_PORT(r), op->chan, TP_RECV, sp, XM_H_PORT(s), qp);
            if (q->st != MCAPI_SUCCESS) unattach(tp, s, qp);
        }
        put16(pl + 1, XM_H_DOM(s));
        put16(pl + 3, XM_H_NODE(s));
        put16(pl + 5, XM_H_PORT(s));
        put16(pl + 7, XM_H_DOM(r));
        put16(pl + 9, XM_H_NODE(r));
        put16(pl + 11, XM_H_PORT(r));
        unsigned ask[2] = {sp, rp};
        for (unsigned k = 0; k < 2 && q->st == MCAPI_SUCCESS; k++) {
            if (ask[k] == tp->self || (k == 1 && rp == sp)) continue;
            q->left++;
            xm_ctl(tp, ask[k], XW_CONNECT, 0, XM_H_PORT(k ? r : s), qp, pl,
                   ls || lr ? sizeof pl : 13);
        }
    }
    struct xm_pend *q = &tp->pend[op->held - 1];
    if (q->left) return MCAPI_PENDING;
    mcapi_status_t st = q->st;
    if (st != MCAPI_SUCCESS) {
        unattach(tp, s, q->id);
        unattach(tp, r, q->id);
    }
    q->used = 0;
    op->held = 0;
    return st;
}

mcapi_status_t xm_chan_open(struct tp_node *tp, struct tp_op *op)
{
    mcapi_status_t st;
    struct xm_ep *e = xm_own(tp, op->h, &st);
    if (!e) return MCAPI_ERR_ENDP_DELETED;
    if (!op->state) {
        if (e->opening || e->cstate == XC_OPEN)
            return e->cstate == XC_OPEN ? MCAPI_ERR_CHAN_OPEN : MCAPI_ERR_CHAN_OPENPENDING;
        e->opening = 1;
        op->state = 1;
    }
    if (e->cstate == XC_NONE) return MCAPI_PENDING; /* a connect wakes us */
    st = MCAPI_PENDING;
    if (e->ctype != op->chan)
        st = MCAPI_ERR_CHAN_TYPE;
    else if (e->cdir != op->dir)
        st = MCAPI_ERR_CHAN_DIRECTION;
    else if (e->failed)
        st = MCAPI_ERR_TRANSMISSION;
    /* Open once connected, not once the other end has opened too: one
     * thread may open both ends (docs/mcapi.md, porting); what is sent
     * meanwhile queues at the receiving end, which is attached. OPEN still
     * goes to a remote end: a node of an earlier build waits for it. */
    if (st == MCAPI_PENDING) {
        if (e->peer != tp->self) xm_ctl(tp, e->peer, XW_OPEN, 0, e->peer_port, e->qp, NULL, 0);
        e->cstate = XC_OPEN;
        e->cgen = (uint16_t)((e->cgen + 1u) & 0x7ffu);
        e->chandle = xm_h(2 + op->chan * 2u + op->dir, tp->dom, tp->node, e->cgen, e->port);
        *op->out_h = e->chandle;
        st = MCAPI_SUCCESS;
    }
    if (st != MCAPI_PENDING) e->opening = 0;
    return st;
}

/* Close an end at once; the peer learns it from a CLOSE frame. */
void xm_chan_detach(struct tp_node *tp, struct xm_ep *e)
{
    /* A sending end's CLOSE goes down the stream of its data, also to an
     * end of our own: it must arrive after the packets sent before it. A
     * receiving end of ours closing tells our sending end at once. */
    struct xm_ep *o = e->peer == tp->self ? xm_ep_by_port(tp, e->peer_port) : NULL;
    if (o && o->qp == e->qp && e->cdir == TP_RECV)
        o->peer_closed = 1;
    else if (!e->failed)
        xm_ctl(tp, e->peer, XW_CLOSE, 0, e->peer_port, e->qp, NULL, 0);
    xm_q_drop(tp, e); /* its packets or scalars */
    e->q = e->mq;     /* its messages (xm_msgq) */
    e->mq = (struct xm_queue){0};
    e->cstate = XC_NONE; /* chandle stays: using it now gives MCAPI_ERR_CHAN_NOTOPEN */
    e->opening = 0;
    e->depth = XM_MSG_DEPTH;
}

mcapi_status_t xm_chan_close(struct tp_node *tp, struct tp_op *op)
{
    mcapi_status_t st;
    struct xm_ep *e = xm_chan_end(tp, op->h, &st);
    if (!e) return st;
    xm_chan_detach(tp, e);
    return MCAPI_SUCCESS;
}

mcapi_status_t xm_pkt_release(struct tp_node *tp, const void *buf, bool test)
{
    mcapi_status_t st = MCAPI_ERR_BUF_INVALID;
    plat_mutex_lock(&tp->mu);
    for (size_t i = 0; i < tp->nheld; i++) {
        if (tp->held[i].buf != buf) continue;
        if (!test) {
            xm_buf_free(tp, tp->held[i].buf, tp->held[i].len);
            tp->held[i] = tp->held[--tp->nheld];
        }
        st = MCAPI_SUCCESS;
        break;
    }
    plat_mutex_unlock(&tp->mu);
    return st;
}
