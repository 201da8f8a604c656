/*
 * xmcapi/xm_endp.c -- XMCAPI's endpoints: handles, get, create, delete,
 * release, attributes.
 *
 * An endpoint handle is the endpoint's address (xm_h: domain, node, port),
 * so a remote one needs no table here: only the node's own endpoints have
 * state (tp->ep). Every entry takes the node's mutex but the get, a step,
 * which runs under step()'s (xm_tp.c).
 */
#include "xm.h"

#include <string.h>

struct xm_ep *xm_ep_by_port(struct tp_node *tp, unsigned port)
{
    for (unsigned i = 0; i < XM_EPS; i++)
        if (tp->ep[i].live && tp->ep[i].port == port) return &tp->ep[i];
    return NULL;
}

/* Whether endpoint handle h names a node of the topology. */
bool xm_ep_valid(const struct tp_node *tp, uint32_t h)
{
    return XM_H_KIND(h) == 1 && xt_find(tp->topo, XM_H_DOM(h), XM_H_NODE(h)) && XM_H_GEN(h) == 0;
}

/* The caller's own endpoint h, or NULL with the status why not
 * (MCAPI_ERR_ENDP_REMOTE: another node's, as the other transports say). */
struct xm_ep *xm_own(struct tp_node *tp, uint32_t h, mcapi_status_t *st)
{
    struct xm_ep *e =
        xm_ep_valid(tp, h) && xm_is_self(tp, h) ? xm_ep_by_port(tp, XM_H_PORT(h)) : NULL;
    if (!e)
        *st = xm_ep_valid(tp, h) && !xm_is_self(tp, h) ? MCAPI_ERR_ENDP_REMOTE
                                                       : MCAPI_ERR_ENDP_INVALID;
    return e;
}

/* A get: a local endpoint is looked up (endp_create wakes a waiting get);
 * a remote one is asked for (XW_GET), and its owner answers once it exists.
 * A peer that is not up yet is asked again every XM_RETRY_NS: MCAPI's get
 * waits for the endpoint, so for its node too (op->held: pending slot + 1,
 * op->state: 1 asked, 2 waiting to ask again). */
mcapi_status_t xm_endp_get(struct tp_node *tp, struct tp_op *op)
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

mcapi_status_t xm_endp_create(struct tp_node *tp, mcapi_port_t port, mcapi_endpoint_t *ep)
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

mcapi_status_t xm_endp_delete(struct tp_node *tp, mcapi_endpoint_t ep)
{
    mcapi_status_t st = MCAPI_SUCCESS;
    plat_mutex_lock(&tp->mu);
    struct xm_ep *e = xm_own(tp, ep, &st);
    if (!e && st == MCAPI_ERR_ENDP_REMOTE) st = MCAPI_ERR_ENDP_NOTOWNER;
    if (e && e->cstate == XC_OPEN) {
        st = MCAPI_ERR_CHAN_OPEN;
    } else if (e) {
        if (e->cstate != XC_NONE) xm_chan_detach(tp, e);
        xm_q_drop(tp, e);
        e->live = 0;
    }
    plat_mutex_unlock(&tp->mu);
    return st;
}

mcapi_status_t xm_endp_release(struct tp_node *tp, mcapi_endpoint_t ep)
{
    return xm_ep_valid(tp, ep) ? MCAPI_SUCCESS : MCAPI_ERR_ENDP_INVALID;
}

mcapi_status_t xm_attr_get(struct tp_node *tp, mcapi_endpoint_t ep, mcapi_uint_t num, void *attr,
                           size_t size)
{
    mcapi_status_t st = MCAPI_SUCCESS;
    plat_mutex_lock(&tp->mu);
    struct xm_ep *e = xm_own(tp, ep, &st);
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
            .nprio = MCAPI_MAX_PRIORITY + 1, /* a message queue is kept in priority order */
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

mcapi_status_t xm_attr_set(struct tp_node *tp, mcapi_endpoint_t ep, mcapi_uint_t num,
                           const void *attr, size_t size)
{
    mcapi_status_t st = MCAPI_SUCCESS;
    plat_mutex_lock(&tp->mu);
    struct xm_ep *e = xm_own(tp, ep, &st);
    if (e) st = tp_attr_settable(num, attr, size);
    if (st == MCAPI_SUCCESS && num != MCAPI_ENDP_ATTR_TIMEOUT && e->cstate != XC_NONE)
        st = MCAPI_ERR_CHAN_CONNECTED;
    if (st == MCAPI_SUCCESS) tp_attr_store(&e->a, num, attr);
    plat_mutex_unlock(&tp->mu);
    return st;
}

mcapi_status_t xm_node_attr(struct tp_node *tp, mcapi_domain_t dom, mcapi_node_t node,
                            mcapi_uint_t num, void *attr, size_t size)
{
    if (!xt_find(tp->topo, dom, node)) return MCAPI_ERR_NODE_INVALID;
    if (num >= MCAPI_NODE_ATTR_END) return tp_attr_unknown(num);
    mcapi_node_attr_type_t type = MCAPI_NODE_ATTR_TYPE_REGULAR;
    if (size != sizeof type) return MCAPI_ERR_ATTR_SIZE;
    memcpy(attr, &type, sizeof type);
    return MCAPI_SUCCESS;
}
