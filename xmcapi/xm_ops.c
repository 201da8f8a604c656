/*
 * xmcapi/xm_ops.c -- the MCAPI operations of the XMCAPI transport, and its
 * function table (the only thing mcapi_ref's top layer sees of it).
 *
 * Every entry takes the node's mutex: the communicator thread files
 * arrivals into the same endpoints. A send completes when its frame is in
 * the peer's output buffer (the bytes are then the transport's: the
 * caller's buffer is free again); it waits while the peer is being
 * connected, while the peer has said STOP for that endpoint, or while the
 * output buffer is over XM_OUT_MAX. An op that started before its peer's
 * connection failed ends with MCAPI_ERR_TRANSMISSION.
 */
#include "xm.h"
#include "xmcapi.h"

#include <stdlib.h>
#include <string.h>

#define ST_SINCE 0x80 /* op->held holds the peer's failure count at the op's start */

struct xm_ep *xm_ep_by_port(struct tp_node *tp, unsigned port)
{
    for (unsigned i = 0; i < XM_EPS; i++)
        if (tp->ep[i].live && tp->ep[i].port == port) return &tp->ep[i];
    return NULL;
}

/* Whether endpoint handle h names a node of the topology. */
static bool ep_valid(const struct tp_node *tp, uint32_t h)
{
    return XM_H_KIND(h) == 1 && xt_find(tp->topo, XM_H_DOM(h), XM_H_NODE(h)) && XM_H_GEN(h) == 0;
}

static bool is_self(const struct tp_node *tp, uint32_t h)
{
    return XM_PEER(XM_H_DOM(h), XM_H_NODE(h)) == tp->self;
}

/* The caller's own endpoint h, or NULL with the status why not
 * (MCAPI_ERR_ENDP_REMOTE: another node's, as the other transports say). */
static struct xm_ep *own(struct tp_node *tp, uint32_t h, mcapi_status_t *st)
{
    struct xm_ep *e = ep_valid(tp, h) && is_self(tp, h) ? xm_ep_by_port(tp, XM_H_PORT(h)) : NULL;
    if (!e)
        *st = ep_valid(tp, h) && !is_self(tp, h) ? MCAPI_ERR_ENDP_REMOTE : MCAPI_ERR_ENDP_INVALID;
    return e;
}

/* The local end that channel handle h names, or NULL with why not. */
static struct xm_ep *chan(struct tp_node *tp, uint32_t h, mcapi_status_t *st)
{
    struct xm_ep *e = is_self(tp, h) ? xm_ep_by_port(tp, XM_H_PORT(h)) : NULL;
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
        if ((e = own(tp, op->h, &st)) && !ep_valid(tp, op->to)) st = MCAPI_ERR_ENDP_INVALID;
        break;
    case TP_MSG_RECV:
    case TP_OPEN:
        e = own(tp, op->h, &st);
        break;
    case TP_CONNECT:
        if (!ep_valid(tp, op->h) || !ep_valid(tp, op->to)) st = MCAPI_ERR_ENDP_INVALID;
        break;
    default:
        if ((e = chan(tp, op->h, &st))) {
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

/* Whether peer p takes a frame of `need` bytes now (see xm_peer_ready). */
static mcapi_status_t ready(struct tp_node *tp, struct tp_op *op, unsigned p, size_t need)
{
    if (!(op->state & ST_SINCE)) {
        op->state |= ST_SINCE;
        op->held = tp->peer[p].fails;
    }
    return xm_peer_ready(tp, p, op->held, XW_HEADER_SIZE + need);
}

/* A get: a local endpoint is looked up (endp_create wakes a waiting get);
 * a remote one is asked for (XW_GET), and its owner answers once it exists.
 * A peer that is not up yet is asked again every XM_RETRY_NS: MCAPI's get
 * waits for the endpoint, so for its node too (op->held: pending slot + 1,
 * op->state: 1 asked, 2 waiting to ask again). */
static mcapi_status_t get(struct tp_node *tp, struct tp_op *op)
{
    unsigned p = XM_PEER(op->dom, op->node);
    if (p == tp->self) {
        struct xm_ep *e = xm_ep_by_port(tp, op->port);
        if (!e) return MCAPI_PENDING;
        e->gets++;
        e->get_src = (uint16_t)tp->self;
    } else {
        if (op->state != 1) {
            uint32_t id;
            int i = xm_pend_new(tp, p, p, &id);
            if (i < 0) return MCAPI_PENDING; /* an answer frees one */
            if (op->state == 2) tp->retrying--;
            op->state = 1;
            op->held = (uint32_t)i + 1;
            tp->pend[i].left = 1;
            xm_ctl(tp, p, XW_GET, 0, op->port, id, NULL, 0);
        }
        struct xm_pend *q = &tp->pend[op->held - 1];
        if (q->left) return MCAPI_PENDING;
        mcapi_status_t st = q->st;
        q->used = 0;
        op->held = 0;
        if (st == MCAPI_ERR_TRANSMISSION) { /* not up (yet): ask again later */
            op->state = 2;
            tp->retrying++;
            return MCAPI_PENDING;
        }
        op->state = 0;
        if (st != MCAPI_SUCCESS) return st;
    }
    *op->out_h = xm_h(1, op->dom, op->node, 0, op->port);
    return MCAPI_SUCCESS;
}

static mcapi_status_t msg_send(struct tp_node *tp, struct tp_op *op)
{
    unsigned p = XM_PEER(XM_H_DOM(op->to), XM_H_NODE(op->to)), port = XM_H_PORT(op->to);
    if (p == tp->self) { /* to ourselves: no socket */
        struct xm_ep *to = xm_ep_by_port(tp, port);
        if (!to || to->cstate != XC_NONE) return MCAPI_ERR_ENDP_INVALID;
        if (to->q.n >= to->depth) return MCAPI_PENDING;
        struct xm_item it = {
            .buf = malloc(op->len ? op->len : 1), .len = (uint32_t)op->len, .from = (uint16_t)p};
        if (!it.buf || !xm_q_push(&to->q, &it)) {
            free(it.buf);
            return MCAPI_ERR_MEM_LIMIT;
        }
        memcpy(it.buf, op->src, op->len);
        op->size = op->len;
        return MCAPI_SUCCESS;
    }
    const struct xm_peer *pe = &tp->peer[p];
    if (pe->stopped && pe->stopped[port / 8] & 1u << (port % 8)) {
        if (op->state & ST_SINCE && op->held != pe->fails) return MCAPI_ERR_TRANSMISSION;
        return MCAPI_PENDING; /* the receiver said STOP: RESUME wakes us */
    }
    mcapi_status_t st = ready(tp, op, p, op->len);
    if (st != MCAPI_SUCCESS) return st;
    struct xw_header h = {.type = XW_MSG,
                          .priority = (uint8_t)op->prio,
                          .port = (uint16_t)port,
                          .size = (uint32_t)op->len,
                          .dst_domain = (uint16_t)XM_H_DOM(op->to),
                          .dst_node = (uint16_t)XM_H_NODE(op->to)};
    if (!xm_send_frame(tp, &h, op->src)) return MCAPI_ERR_MEM_LIMIT;
    op->size = op->len;
    return MCAPI_SUCCESS;
}

static mcapi_status_t msg_recv(struct tp_node *tp, struct tp_op *op)
{
    mcapi_status_t st;
    struct xm_ep *e = own(tp, op->h, &st);
    if (!e) return MCAPI_ERR_ENDP_DELETED;
    struct xm_item it;
    if (!xm_q_pop(&e->q, &it)) return MCAPI_PENDING;
    size_t n = it.len < op->len ? it.len : op->len;
    memcpy(op->dst, it.buf, n);
    free(it.buf);
    xm_q_taken(tp, e);
    plat_work_cycles(tp->xfer_cycles);
    op->size = n;
    return it.len > op->len ? MCAPI_ERR_MSG_TRUNCATED : MCAPI_SUCCESS;
}

/* Packets and scalars out. */
static mcapi_status_t chan_send(struct tp_node *tp, struct tp_op *op)
{
    mcapi_status_t st;
    struct xm_ep *e = chan(tp, op->h, &st);
    if (!e) return st;
    if (e->failed) return MCAPI_ERR_TRANSMISSION;
    if (e->peer_closed) return MCAPI_ERR_CHAN_NOTOPEN;
    if (e->held_back) return MCAPI_PENDING;
    st = ready(tp, op, e->peer, op->len);
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
    op->size = op->len;
    return MCAPI_SUCCESS;
}

static bool hold(struct tp_node *tp, uint8_t *buf)
{
    if (tp->nheld == tp->cheld) {
        size_t cap = tp->cheld ? tp->cheld * 2 : 16;
        uint8_t **a = realloc(tp->held, cap * sizeof *a);
        if (!a) return false;
        tp->held = a;
        tp->cheld = cap;
    }
    tp->held[tp->nheld++] = buf;
    return true;
}

/* Packets and scalars in. */
static mcapi_status_t chan_recv(struct tp_node *tp, struct tp_op *op)
{
    mcapi_status_t st;
    struct xm_ep *e = chan(tp, op->h, &st);
    if (!e) return st;
    if (!e->q.n) {
        if (e->failed) return MCAPI_ERR_TRANSMISSION;
        return e->peer_closed ? MCAPI_ERR_CHAN_NOTOPEN : MCAPI_PENDING;
    }
    struct xm_item *head = &e->q.it[e->q.head];
    if (op->kind == TP_SCL_RECV && head->len != op->len) return MCAPI_ERR_SCL_SIZE;
    if (op->kind == TP_PKT_RECV && !hold(tp, head->buf)) return MCAPI_ERR_MEM_LIMIT;
    struct xm_item it;
    (void)xm_q_pop(&e->q, &it);
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

/* Connect: attach each end at its owner; the first step asks, later ones
 * collect the remote owners' answers (op->held: the pending slot + 1). */
static mcapi_status_t connect(struct tp_node *tp, struct tp_op *op)
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
        if (sp == tp->self)
            q->st = xm_chan_attach(tp, XM_H_PORT(s), op->chan, TP_SEND, rp, XM_H_PORT(r), qp);
        if (q->st == MCAPI_SUCCESS && rp == tp->self) {
            q->st = xm_chan_attach(tp, XM_H_PORT(r), op->chan, TP_RECV, sp, XM_H_PORT(s), qp);
            if (q->st != MCAPI_SUCCESS && sp == tp->self)
                xm_ep_by_port(tp, XM_H_PORT(s))->cstate = XC_NONE;
        }
        uint8_t pl[13] = {op->chan};
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
            xm_ctl(tp, ask[k], XW_CONNECT, 0, XM_H_PORT(k ? r : s), qp, pl, sizeof pl);
        }
    }
    struct xm_pend *q = &tp->pend[op->held - 1];
    if (q->left) return MCAPI_PENDING;
    mcapi_status_t st = q->st;
    q->used = 0;
    op->held = 0;
    return st;
}

static mcapi_status_t open_(struct tp_node *tp, struct tp_op *op)
{
    mcapi_status_t st;
    struct xm_ep *e = own(tp, op->h, &st);
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
    if (st == MCAPI_PENDING && !e->open_sent) {
        if (e->peer == tp->self) {
            struct xm_ep *o = xm_ep_by_port(tp, e->peer_port);
            if (o && o->qp == e->qp) o->peer_open = 1;
        } else {
            xm_ctl(tp, e->peer, XW_OPEN, 0, e->peer_port, e->qp, NULL, 0);
        }
        e->open_sent = 1;
    }
    if (st == MCAPI_PENDING && e->peer_open) {
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
static void detach_chan(struct tp_node *tp, struct xm_ep *e)
{
    if (e->peer == tp->self) {
        struct xm_ep *o = xm_ep_by_port(tp, e->peer_port);
        if (o && o->qp == e->qp) o->peer_closed = 1;
    } else if (!e->failed) {
        xm_ctl(tp, e->peer, XW_CLOSE, 0, e->peer_port, e->qp, NULL, 0);
    }
    xm_q_drop(e);
    e->cstate = XC_NONE; /* chandle stays: using it now gives MCAPI_ERR_CHAN_NOTOPEN */
    e->opening = 0;
    e->depth = XM_MSG_DEPTH;
}

static mcapi_status_t close_(struct tp_node *tp, struct tp_op *op)
{
    mcapi_status_t st;
    struct xm_ep *e = chan(tp, op->h, &st);
    if (!e) return st;
    detach_chan(tp, e);
    return MCAPI_SUCCESS;
}

static tp_step_fn *const steps[TP_NKINDS] = {
    [TP_GET] = get,
    [TP_MSG_SEND] = msg_send,
    [TP_MSG_RECV] = msg_recv,
    [TP_PKT_SEND] = chan_send,
    [TP_PKT_RECV] = chan_recv,
    [TP_SCL_SEND] = chan_send,
    [TP_SCL_RECV] = chan_recv,
    [TP_CONNECT] = connect,
    [TP_OPEN] = open_,
    [TP_CLOSE] = close_,
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
    } else if (op->kind == TP_OPEN && op->state) {
        mcapi_status_t st;
        struct xm_ep *e = own(tp, op->h, &st);
        if (e) e->opening = 0;
    }
    plat_mutex_unlock(&tp->mu);
}

static mcapi_status_t endp_create(struct tp_node *tp, mcapi_port_t port, mcapi_endpoint_t *ep)
{
    mcapi_status_t st = MCAPI_SUCCESS;
    plat_mutex_lock(&tp->mu);
    struct xm_ep *e = NULL;
    for (unsigned i = 0; i < XM_EPS && !e; i++)
        if (!tp->ep[i].live) e = &tp->ep[i];
    if (port == (mcapi_port_t)MCAPI_PORT_ANY) {
        port = MCAPI_MIN_PORT;
        while (port <= MCAPI_MAX_PORT && xm_ep_by_port(tp, port)) port++;
    } else if (xm_ep_by_port(tp, port)) {
        st = MCAPI_ERR_ENDP_EXISTS;
    }
    if (st == MCAPI_SUCCESS && !e) st = MCAPI_ERR_MEM_LIMIT;
    if (st == MCAPI_SUCCESS) {
        *e = (struct xm_ep){.live = 1,
                            .port = (uint16_t)port,
                            .depth = XM_MSG_DEPTH,
                            .a = {.timeout = MCAPI_TIMEOUT_INFINITE,
                                  .memtype = MCAPI_ENDP_ATTR_LOCAL_MEMORY,
                                  .priority = MCAPI_MAX_PRORITY,
                                  .max_payload = MCAPI_MAX_PKT_SIZE},
                            .cgen = e->cgen};
        *ep = xm_h(1, tp->dom, tp->node, 0, port);
    }
    if (st == MCAPI_SUCCESS) xm_gets_answer(tp, port);
    plat_mutex_unlock(&tp->mu);
    plat_event_notify(&tp->ev); /* a get of ours may wait for it */
    return st;
}

static mcapi_status_t endp_delete(struct tp_node *tp, mcapi_endpoint_t ep)
{
    mcapi_status_t st = MCAPI_SUCCESS;
    plat_mutex_lock(&tp->mu);
    struct xm_ep *e = own(tp, ep, &st);
    if (!e && st == MCAPI_ERR_ENDP_REMOTE) st = MCAPI_ERR_ENDP_NOTOWNER;
    if (e && e->cstate == XC_OPEN) {
        st = MCAPI_ERR_CHAN_OPEN;
    } else if (e) {
        if (e->cstate != XC_NONE) detach_chan(tp, e);
        xm_q_drop(e);
        e->live = 0;
    }
    plat_mutex_unlock(&tp->mu);
    return st;
}

static mcapi_status_t endp_release(struct tp_node *tp, mcapi_endpoint_t ep)
{
    return ep_valid(tp, ep) ? MCAPI_SUCCESS : MCAPI_ERR_ENDP_INVALID;
}

static mcapi_status_t attr_get(struct tp_node *tp, mcapi_endpoint_t ep, mcapi_uint_t num,
                               void *attr, size_t size)
{
    mcapi_status_t st = MCAPI_SUCCESS;
    plat_mutex_lock(&tp->mu);
    struct xm_ep *e = own(tp, ep, &st);
    if (e) st = tp_attr_check(num, size);
    if (st == MCAPI_SUCCESS) {
        bool chan = e->cstate != XC_NONE;
        struct tp_attr_vals v = {
            .type = !chan                ? MCAPI_ENDP_ATTR_TYPE_MESSAGE
                    : e->ctype == TP_PKT ? MCAPI_ENDP_ATTR_TYPE_PKTCHAN
                                         : MCAPI_ENDP_ATTR_TYPE_SCLCHAN,
            .gets = e->gets,
            .source = {e->gets ? (mcapi_domain_t)(e->get_src / MCA_MAX_NODES)
                               : (mcapi_domain_t)MCAPI_DOMAIN_INVALID,
                       e->gets ? (mcapi_node_t)(e->get_src % MCA_MAX_NODES)
                               : (mcapi_node_t)MCAPI_NODE_INVALID},
            .buffer_type = MCAPI_ENDP_ATTR_FIFO_BUFFER,
            .nprio = 1, /* one FIFO: priorities are carried, not used */
            /* frames the output buffer takes before sends wait */
            .send_bufs = (mcapi_int_t)(XM_OUT_MAX / (XW_HEADER_SIZE + MCAPI_MAX_MSG_SIZE)),
            .recv_bufs = e->q.n < e->depth ? (mcapi_int_t)(e->depth - e->q.n) : 0,
            .status = tp_attr_status(e->opening, e->cstate == XC_OPEN, chan, e->ctype, e->cdir),
        };
        tp_attr_from(&v, &e->a);
        tp_attr_put(&v, num, attr);
    }
    plat_mutex_unlock(&tp->mu);
    return st;
}

static mcapi_status_t attr_set(struct tp_node *tp, mcapi_endpoint_t ep, mcapi_uint_t num,
                               const void *attr, size_t size)
{
    mcapi_status_t st = MCAPI_SUCCESS;
    plat_mutex_lock(&tp->mu);
    struct xm_ep *e = own(tp, ep, &st);
    if (e) st = tp_attr_settable(num, attr, size);
    if (st == MCAPI_SUCCESS && num != MCAPI_ENDP_ATTR_TIMEOUT && e->cstate != XC_NONE)
        st = MCAPI_ERR_CHAN_CONNECTED;
    if (st == MCAPI_SUCCESS) tp_attr_store(&e->a, num, attr);
    plat_mutex_unlock(&tp->mu);
    return st;
}

static mcapi_status_t node_attr(struct tp_node *tp, mcapi_domain_t dom, mcapi_node_t node,
                                mcapi_uint_t num, void *attr, size_t size)
{
    if (!xt_find(tp->topo, dom, node)) return MCAPI_ERR_NODE_INVALID;
    if (num >= MCAPI_NODE_ATTR_END) return tp_attr_unknown(num);
    mcapi_node_attr_type_t type = MCAPI_NODE_ATTR_TYPE_REGULAR;
    if (size != sizeof type) return MCAPI_ERR_ATTR_SIZE;
    memcpy(attr, &type, sizeof type);
    return MCAPI_SUCCESS;
}

static mcapi_status_t available(struct tp_node *tp, enum tp_kind kind, mcapi_uint32_t h,
                                mcapi_uint_t *n)
{
    mcapi_status_t st = MCAPI_SUCCESS;
    plat_mutex_lock(&tp->mu);
    struct xm_ep *e = kind == TP_MSG_RECV ? own(tp, h, &st) : chan(tp, h, &st);
    if (e && kind != TP_MSG_RECV &&
        XM_H_KIND(h) != 2 + (kind == TP_PKT_RECV ? TP_PKT : TP_SCL) * 2u + TP_RECV) {
        e = NULL;
        st = MCAPI_ERR_CHAN_INVALID;
    }
    if (e) *n = e->q.n;
    plat_mutex_unlock(&tp->mu);
    return st;
}

static mcapi_status_t pkt_release(struct tp_node *tp, const void *buf, bool test)
{
    mcapi_status_t st = MCAPI_ERR_BUF_INVALID;
    plat_mutex_lock(&tp->mu);
    for (size_t i = 0; i < tp->nheld; i++) {
        if (tp->held[i] != buf) continue;
        if (!test) {
            free(tp->held[i]);
            tp->held[i] = tp->held[--tp->nheld];
        }
        st = MCAPI_SUCCESS;
        break;
    }
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
    .endp_create = endp_create,
    .endp_delete = endp_delete,
    .endp_release = endp_release,
    .endp_get_attr = attr_get,
    .endp_set_attr = attr_set,
    .node_get_attr = node_attr,
    .available = available,
    .pkt_release = pkt_release,
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
                                 .conn_fails = tp->conn_fails};
    plat_mutex_unlock(&tp->mu);
    return MCAPI_SUCCESS;
}
