/*
 * transport/dma/dma_endp.c -- the DMA transport's endpoints and attributes.
 *
 * Local only, as FUNCAPI's static system: creating an endpoint arms its
 * channel with an internal buffer; getting another node's endpoint is
 * computing its address from the mapping, which succeeds at once whether or
 * not that node has created it yet (a message sent before it exists waits
 * in the sender's DMA engine until the channel is armed). Gets are counted
 * only by the endpoint's owner (nobody tells it about the others').
 */
#include "dma_tp.h"

#include <string.h>

mcapi_status_t dt_endp_create(struct tp_node *tp, mcapi_port_t port, mcapi_endpoint_t *ep)
{
    unsigned live = 0;
    for (unsigned p = 0; p < tp->nports; p++) live += tp->ep[p].live;
    if (port == (mcapi_port_t)MCAPI_PORT_ANY) {
        port = 0;
        while (port < tp->nports && tp->ep[port].live) port++;
        if (port == tp->nports) return MCAPI_ERR_MEM_LIMIT; /* every channel has its endpoint */
    } else if (port >= tp->nports) {
        return MCAPI_ERR_PORT_INVALID; /* no channel for it (docs/mcapi.md) */
    } else if (tp->ep[port].live) {
        return MCAPI_ERR_ENDP_EXISTS;
    }
    if (live == MCAPI_MAX_ENDPOINTS) return MCAPI_ERR_MEM_LIMIT;
    struct dt_endp *e = &tp->ep[port];
    if (e->drain) {
        /* What was sent to the endpoint before this one is dropped; the
         * post drains the engines stalled on the channel meanwhile. */
        (void)dt_poll_chan(tp, dt_port_chan(tp, port));
        e->drain = 0;
    }
    e->live = 1;
    e->a.timeout = MCAPI_TIMEOUT_INFINITE;
    e->a.memtype = MCAPI_ENDP_ATTR_LOCAL_MEMORY | MCAPI_ENDP_ATTR_BLOCK_ON_MEM_LIMIT;
    e->a.priority = MCAPI_MAX_PRORITY;
    e->a.max_payload = DT_PKT_DEFAULT;
    e->gets = 0;
    e->qhead = e->qn = 0;
    /* e->c is kept: a CONNECT or HELLO may have come before the endpoint. */
    tp->refill |= 1ull << port;
    dt_refill(tp);
    *ep = dt_ep_handle(tp->dom, tp->node, port);
    return MCAPI_SUCCESS;
}

mcapi_status_t dt_endp_get(struct tp_node *tp, struct tp_op *op)
{
    if (op->dom != tp->dom) return MCAPI_ERR_DOMAIN_INVALID;
    switch (tp->map.kind[op->node]) {
    case DR_DMA:
        if (op->port >= tp->map.nports[op->node]) return MCAPI_ERR_PORT_INVALID;
        break;
    case DR_ACCEL:
        break;
    default:
        return MCAPI_ERR_NODE_INVALID; /* not in the mapping: no such node */
    }
    if (op->node == tp->node && tp->ep[op->port].live) {
        struct dt_endp *e = &tp->ep[op->port];
        if (e->gets >= MCAPI_MAX_ENDPOINT_GETS) return MCAPI_ERR_ENDP_GET_LIMIT;
        e->gets++;
    }
    *op->out_h = dt_ep_handle(tp->dom, op->node, op->port);
    return MCAPI_SUCCESS;
}

void dt_endp_remove(struct tp_node *tp, unsigned port)
{
    struct dt_endp *e = &tp->ep[port];
    if (e->c.state != CS_NONE) dt_chan_end(tp, port);
    if (e->post == DP_INT || e->post == DP_USER) dt_unpost(tp, port);
    dt_msg_drop(tp, e);
    e->live = 0;
    e->gets = 0;
    e->user = NULL;
    e->drain = 1;
    tp->refill |= 1ull << port;
    dt_refill(tp);
    tp->prog++; /* a pending operation on it finds it gone */
}

mcapi_status_t dt_endp_delete(struct tp_node *tp, mcapi_endpoint_t ep)
{
    struct dt_endp *e = dt_own(tp, ep);
    if (!e) {
        mcapi_status_t st = dt_own_check(tp, ep);
        return st == MCAPI_ERR_ENDP_REMOTE ? MCAPI_ERR_ENDP_NOTOWNER : st;
    }
    if (e->c.state == CS_OPEN) return MCAPI_ERR_CHAN_OPEN;
    dt_endp_remove(tp, (unsigned)(e - tp->ep));
    return MCAPI_SUCCESS;
}

mcapi_status_t dt_endp_release(struct tp_node *tp, mcapi_endpoint_t ep)
{
    unsigned n, p;
    if (!dt_ep_decode(tp, ep, &n, &p)) return MCAPI_ERR_ENDP_INVALID;
    if (n != tp->node) return MCAPI_SUCCESS; /* nothing was counted */
    struct dt_endp *e = &tp->ep[p];
    if (!e->live || !e->gets) return MCAPI_ERR_ENDP_INVALID;
    e->gets--;
    return MCAPI_SUCCESS;
}

/* ---- attributes --------------------------------------------------------- */

/* The value of attribute num of e (NULL: a virtual node's endpoint). */
static void value(struct tp_node *tp, const struct dt_endp *e, mcapi_uint_t num, void *out)
{
    static const struct dt_conn none = {.state = CS_NONE};
    const struct dt_conn *c = e ? &e->c : &none;
    bool conn = c->state != CS_NONE;
    struct tp_attr_vals v = {
        .type = !conn               ? MCAPI_ENDP_ATTR_TYPE_MESSAGE
                : c->type == TP_PKT ? MCAPI_ENDP_ATTR_TYPE_PKTCHAN
                                    : MCAPI_ENDP_ATTR_TYPE_SCLCHAN,
        .gets = e ? e->gets : 0,
        .source = {e && e->gets ? tp->dom : (mcapi_domain_t)MCAPI_DOMAIN_INVALID,
                   e && e->gets ? tp->node : (mcapi_node_t)MCAPI_NODE_INVALID},
        .buffer_type = MCAPI_ENDP_ATTR_FIFO_BUFFER,
        .nprio = 1, /* one FIFO per channel: priorities are accepted, not used */
        .status = e ? tp_attr_status(c->opening, c->state == CS_OPEN, conn, c->type, c->dir) : 0,
    };
    if (e) {
        tp_attr_from(&v, &e->a);
    } else {
        v.max_payload = DT_PKT_DEFAULT;
        v.memtype = MCAPI_ENDP_ATTR_LOCAL_MEMORY;
        v.prio = MCAPI_MAX_PRORITY;
        v.timeout = MCAPI_TIMEOUT_INFINITE;
    }
    for (unsigned i = 0; i < DT_SLOTS; i++) /* transfers the engine can still take */
        v.send_bufs += tp->slot[i].state == SL_FREE;
    if (conn && c->dir == TP_RECV && c->set >= 0) {
        const struct dt_set *s = &tp->set[c->set];
        for (unsigned i = 0; i < s->nbuf; i++)
            v.recv_bufs += s->st[i] == B_FREE || s->st[i] == B_POSTED;
    } else {
        v.recv_bufs = (mcapi_int_t)tp->nfree + (e && e->post == DP_INT);
    }
    tp_attr_put(&v, num, out);
}

mcapi_status_t dt_attr_get(struct tp_node *tp, mcapi_endpoint_t ep, mcapi_uint_t num, void *attr,
                           size_t size)
{
    unsigned n, p;
    if (!dt_ep_decode(tp, ep, &n, &p)) return MCAPI_ERR_ENDP_INVALID;
    const struct dt_endp *e = NULL;
    if (tp->map.kind[n] == DR_DMA) {
        /* Another node's attributes live on that node alone. */
        if (n != tp->node) return MCAPI_ERR_ENDP_REMOTE;
        if (!tp->ep[p].live) return MCAPI_ERR_ENDP_INVALID;
        e = &tp->ep[p];
    }
    mcapi_status_t chk = tp_attr_check(num, size);
    if (chk != MCAPI_SUCCESS) return chk;
    value(tp, e, num, attr);
    return MCAPI_SUCCESS;
}

mcapi_status_t dt_attr_set(struct tp_node *tp, mcapi_endpoint_t ep, mcapi_uint_t num,
                           const void *attr, size_t size)
{
    struct dt_endp *e = dt_own(tp, ep);
    if (!e) return dt_own_check(tp, ep);
    mcapi_status_t chk = tp_attr_settable(num, attr, size);
    if (chk != MCAPI_SUCCESS) return chk;
    if (num != MCAPI_ENDP_ATTR_TIMEOUT && e->c.state != CS_NONE) return MCAPI_ERR_CHAN_CONNECTED;
    tp_attr_store(&e->a, num, attr);
    return MCAPI_SUCCESS;
}

mcapi_status_t dt_attr_node(struct tp_node *tp, mcapi_domain_t dom, mcapi_node_t node,
                            mcapi_uint_t num, void *attr, size_t size)
{
    if (dom != tp->dom) return MCAPI_ERR_DOMAIN_INVALID;
    if (tp->map.kind[node] == DR_NONE) return MCAPI_ERR_NODE_INVALID;
    if (num >= MCAPI_NODE_ATTR_END) return tp_attr_unknown(num);
    mcapi_node_attr_type_t type = MCAPI_NODE_ATTR_TYPE_REGULAR;
    if (size != sizeof type) return MCAPI_ERR_ATTR_SIZE;
    memcpy(attr, &type, sizeof type);
    return MCAPI_SUCCESS;
}
