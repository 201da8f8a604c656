/*
 * xmcapi/xm_recv.c -- what the communicator does with a frame that arrived.
 *
 * Every frame names its sender and receiver; a connection is bound to one
 * sender by its first frame (HELLO), and anything claiming another sender,
 * another receiver, a port with no endpoint, or an impossible payload is a
 * broken peer: the frame is refused and its connection closed. Frames for
 * a channel this node has closed meanwhile are stale, not broken: dropped.
 */
#include "xm.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

static uint16_t get16(const uint8_t *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}

void xm_ctl(struct tp_node *tp, unsigned p, unsigned type, unsigned flags, unsigned port,
            uint32_t qp, const void *payload, uint32_t size)
{
    struct xw_header h = {.type = (uint8_t)type,
                          .flags = (uint8_t)flags,
                          .port = (uint16_t)port,
                          .qp = qp,
                          .size = size,
                          .dst_domain = (uint16_t)(p / MCA_MAX_NODES),
                          .dst_node = (uint16_t)(p % MCA_MAX_NODES)};
    (void)xm_send_frame(tp, &h, payload);
}

/* A large packet's buffer is one of MCAPI_MAX_PKT_SIZE bytes, and the last
 * ones freed are used again: with a 64 KiB malloc and free per packet glibc
 * trimmed and grew its heap (page faults), and the kernel's copy into a
 * fresh buffer missed the cache (docs/performance.md, row 4). */
static_assert(MCAPI_MAX_MSG_SIZE < XM_BULK, "a message's buffer is never a spare");

uint8_t *xm_pkt_alloc(struct tp_node *tp, const struct xw_header *h)
{
    if (h->size < XM_BULK) return malloc(h->size ? h->size : 1);
    if (!tp->nspare) return malloc(MCAPI_MAX_PKT_SIZE);
    tp->pkt_bufs_reused++;
    return tp->spare[--tp->nspare];
}

void xm_buf_free(struct tp_node *tp, uint8_t *buf, uint32_t len)
{
    if (buf && len >= XM_BULK && tp->nspare < XM_SPARE)
        tp->spare[tp->nspare++] = buf;
    else
        free(buf);
}

mcapi_status_t xm_chan_attach(struct tp_node *tp, unsigned port, unsigned type, unsigned dir,
                              unsigned peer, unsigned peer_port, uint32_t qp)
{
    struct xm_ep *e = xm_ep_by_port(tp, port);
    if (!e) return MCAPI_ERR_ENDP_INVALID;
    if (e->cstate != XC_NONE) return MCAPI_ERR_CHAN_CONNECTED;
    e->mq = e->q; /* the messages queued so far stay (xm_msgq) */
    e->q = (struct xm_queue){0};
    xm_q_taken(tp, e); /* the senders it stopped: no flow control on mq */
    e->cstate = XC_CONN;
    e->ctype = (uint8_t)type;
    e->cdir = (uint8_t)dir;
    e->peer = (uint16_t)peer;
    e->peer_port = (uint16_t)peer_port;
    e->qp = qp;
    e->self_q = 0;
    e->peer_closed = e->held_back = e->failed = 0;
    e->depth = type == TP_PKT ? XM_PKT_DEPTH : XM_SCL_DEPTH;
    return MCAPI_SUCCESS;
}

void xm_peer_failed(struct tp_node *tp, unsigned p, bool out)
{
    unsigned dir = out ? TP_SEND : TP_RECV;
    if (out && tp->peer[p].sent) memset(tp->peer[p].sent, 0, MCAPI_MAX_PORT + 1);
    for (unsigned i = 0; i < XM_EPS; i++) {
        struct xm_ep *e = &tp->ep[i];
        if (!e->live) continue;
        if (!out) { /* p's next life starts with all its credits */
            e->stopped[p / 8] &= (uint8_t) ~(1u << (p % 8));
            e->held[p] = e->owe[p] = 0;
        }
        if (e->cstate != XC_NONE && e->peer == p && e->cdir == dir) e->peer_closed = e->failed = 1;
    }
    for (unsigned i = 0; out && i < XM_PENDING; i++) {
        struct xm_pend *q = &tp->pend[i];
        if (q->used && q->left && (q->peers[0] == p || q->peers[1] == p)) {
            q->st = MCAPI_ERR_TRANSMISSION;
            q->left = 0;
        }
    }
}

/* The local end of channel qp that a frame about port names, or NULL. */
static struct xm_ep *chan_end(struct tp_node *tp, unsigned port, uint32_t qp, unsigned from)
{
    struct xm_ep *e = xm_ep_by_port(tp, port);
    return e && e->cstate != XC_NONE && e->qp == qp && e->peer == from ? e : NULL;
}

/* A CONNECT request: attach our end and answer. */
static bool on_connect(struct tp_node *tp, unsigned from, const struct xw_header *h,
                       const uint8_t *pl)
{
    if ((h->size != 13 && h->size != 13 + XM_ATTRS) || pl[0] > TP_SCL) return false;
    unsigned sp = XM_PEER(get16(pl + 1), get16(pl + 3)), rp = XM_PEER(get16(pl + 7), get16(pl + 9));
    unsigned sport = get16(pl + 5), rport = get16(pl + 11);
    if (sp >= XM_PEERS || rp >= XM_PEERS) return false;
    mcapi_status_t st;
    /* The connecting node's end's attributes, if it has an end: ours must match. */
    const struct xm_ep *e = xm_ep_by_port(tp, h->port);
    bool fit = h->size == 13 || !e || e->cstate || xm_attrs_fit(&e->a, pl + 13);
    if (!fit && ((sp == tp->self && sport == h->port) || (rp == tp->self && rport == h->port)))
        st = MCAPI_ERR_ATTR_INCOMPATIBLE;
    else if (sp == tp->self && sport == h->port)
        st = xm_chan_attach(tp, sport, pl[0], TP_SEND, rp, rport, h->qp);
    else if (rp == tp->self && rport == h->port)
        st = xm_chan_attach(tp, rport, pl[0], TP_RECV, sp, sport, h->qp);
    else
        return false; /* names no end of ours */
    uint8_t s4[4] = {(uint8_t)(st >> 24), (uint8_t)(st >> 16), (uint8_t)(st >> 8), (uint8_t)st};
    if (st == MCAPI_SUCCESS)
        xm_ctl(tp, from, XW_CONNECT, XW_F_ACK, h->port, h->qp, NULL, 0);
    else
        xm_ctl(tp, from, XW_CONNECT, XW_F_ACK | XW_F_REFUSED, h->port, h->qp, s4, 4);
    return true;
}

static void on_connect_answer(struct tp_node *tp, const struct xw_header *h, const uint8_t *pl)
{
    for (unsigned i = 0; i < XM_PENDING; i++) {
        struct xm_pend *q = &tp->pend[i];
        if (!q->used || q->id != h->qp || !q->left) continue;
        q->left--;
        if (h->flags & XW_F_REFUSED)
            q->st = (mcapi_status_t)((uint32_t)pl[0] << 24 | (uint32_t)pl[1] << 16 |
                                     (uint32_t)pl[2] << 8 | pl[3]);
        return;
    }
}

int xm_pend_new(struct tp_node *tp, unsigned p0, unsigned p1, uint32_t *id)
{
    for (unsigned i = 0; i < XM_PENDING; i++) {
        struct xm_pend *q = &tp->pend[i];
        if (q->used) continue;
        *id = tp->self << 20 | (tp->next_qp++ & 0xfffffu);
        *q = (struct xm_pend){.id = *id, .used = 1, .st = MCAPI_SUCCESS};
        q->peers[0] = (uint16_t)p0;
        q->peers[1] = (uint16_t)p1;
        return (int)i;
    }
    return -1;
}

static bool on_ack(struct tp_node *tp, unsigned from, const struct xw_header *h)
{
    bool stop = h->flags & XW_F_STOP;
    if (stop) tp->stops_got++;
    if (h->qp) { /* a channel's receive end */
        struct xm_ep *e = NULL;
        for (unsigned i = 0; i < XM_EPS; i++) {
            struct xm_ep *x = &tp->ep[i];
            if (x->live && x->cstate != XC_NONE && x->qp == h->qp && x->peer == from) e = x;
        }
        if (e) e->held_back = stop;
        return true;
    }
    if (h->port > MCAPI_MAX_PORT) return false;
    struct xm_peer *pe = &tp->peer[from];
    if (!pe->stopped && !(pe->stopped = calloc(1, (MCAPI_MAX_PORT + 8) / 8))) return true;
    if (stop)
        pe->stopped[h->port / 8] |= (uint8_t)(1u << (h->port % 8));
    else
        pe->stopped[h->port / 8] &= (uint8_t) ~(1u << (h->port % 8));
    return true;
}

/* A message, packet or scalar for one of our endpoints. */
static bool on_data(struct tp_node *tp, unsigned from, const struct xw_header *h, const uint8_t *pl)
{
    struct xm_ep *e = xm_ep_by_port(tp, h->port);
    struct xm_item it = {.len = h->size, .from = (uint16_t)from};
    if (h->type == XW_MSG) {
        it.prio = h->priority;
        if (XM_QP_HAS_CREDIT(h->qp))
            xm_credit_got(tp, from, XM_QP_CREDIT_PORT(h->qp), XM_QP_CREDIT_N(h->qp));
        /* The generation of the endpoint it was sent to: a deleted or
         * re-created one's is stale (its sender hears of it: XW_DELETED)
         * and dropped, its credit given back. */
        if (!e) {
            xm_credit_port(tp, from, h->port, 1);
            return true;
        }
        if (e->gen != XM_QP_GEN(h->qp)) {
            if (from != tp->self && e->held[from] < UINT8_MAX) e->held[from]++;
            xm_credit_owe(tp, e, from);
            return true;
        }
        if (!(it.buf = malloc(h->size ? h->size : 1))) return false;
        memcpy(it.buf, pl, h->size);
        if (e->cstate != XC_NONE) { /* a channel end's: credits, no STOP (xm_msgq) */
            if (!xm_q_push(&e->mq, &it)) {
                xm_buf_free(tp, it.buf, it.len);
                return false;
            }
            tp->msg_bufs++;
            if (from != tp->self && e->held[from] < UINT8_MAX) e->held[from]++;
            return true;
        }
    } else {
        if (!e) {
            if (h->type == XW_PKT) xm_buf_free(tp, (uint8_t *)pl, h->size);
            return false;
        }
        e = chan_end(tp, h->port, h->qp, from);
        bool fits = e && e->cdir == TP_RECV && e->ctype == (h->type == XW_PKT ? TP_PKT : TP_SCL);
        if (h->type == XW_PKT) {
            if (!fits) {
                xm_buf_free(tp, (uint8_t *)pl, h->size); /* a channel closed here meanwhile */
                return true;
            }
            it.buf = (uint8_t *)pl; /* the buffer the payload was read into */
        } else {
            if (!fits) return true;
            for (uint32_t i = 0; i < h->size; i++) it.value = it.value << 8 | pl[i];
        }
    }
    if (xm_q_arrive(tp, e, &it)) return true;
    xm_buf_free(tp, it.buf, it.len);
    return false;
}

bool xm_dispatch(struct tp_node *tp, struct xm_conn *c, const struct xw_header *h,
                 const uint8_t *payload)
{
    unsigned from = XM_PEER(h->src_domain, h->src_node);
    bool to_us = XM_PEER(h->dst_domain, h->dst_node) == tp->self;
    if (c->peer < 0) { /* the first frame must say who is calling */
        if (h->type != XW_HELLO || (h->flags & XW_F_ACK) || !to_us || from >= XM_PEERS ||
            !xt_find(tp->topo, h->src_domain, h->src_node))
            goto bad;
        c->peer = (int)from;
        return true;
    }
    if ((int)from != c->peer || !to_us) goto bad;
    switch (h->type) {
    case XW_MSG:
    case XW_PKT:
    case XW_SCALAR:
        return on_data(tp, from, h, payload);
    case XW_CONNECT:
        if (h->flags & XW_F_ACK) {
            on_connect_answer(tp, h, payload);
            return true;
        }
        return on_connect(tp, from, h, payload);
    case XW_GET:
    case XW_RELEASE:
    case XW_DELETED:
        return xm_endp_frame(tp, from, h, payload);
    case XW_OPEN:
    case XW_CLOSE: {
        if (h->flags & XW_F_ACK) goto bad; /* never asked for */
        struct xm_ep *e = chan_end(tp, h->port, h->qp, from);
        if (h->type == XW_OPEN) { /* nothing here waits for it (xm_chan_open) */
            if (!e && !xm_ep_by_port(tp, h->port)) goto bad;
            return true;
        }
        if (e) e->peer_closed = 1;
        return true;
    }
    case XW_ACK:
        return on_ack(tp, from, h);
    case XW_CREDIT:
        if (h->flags || h->size || h->port > MCAPI_MAX_PORT) goto bad;
        xm_credit_got(tp, from, h->port, h->qp);
        return true;
    default: /* a second HELLO */
        goto bad;
    }
bad:
    if (h->type == XW_PKT) xm_buf_free(tp, (uint8_t *)payload, h->size);
    tp->bad_frames++;
    return false;
}
