/*
 * transport/dma/dma_chan.c -- packet and scalar channels over DMA: connect,
 * open, close, and the control messages that carry them.
 *
 * Each end is known only to its owner (struct dt_conn). The protocol, on the
 * control channels (struct dt_ctl, one transfer each):
 *
 *   connect  by any node: an end of its own it links at once; to each other
 *            end's node it sends CONNECT (your endpoint <port> is the
 *            <dir> end of a <chan> channel to <peer_node, peer_port>).
 *   open     each end, when its owner opens it, sends HELLO to the other;
 *            its open completes at once (the channel is connected), or,
 *            with mcapi_param_t.dma_handshake, once the other's HELLO has
 *            come (FUNCAPI's two-way handshake, Table 3). The receiving end
 *            first allocates its buffers (DT_PKT_DEPTH packets of its
 *            MCAPI_ENDP_ATTR_MAX_PAYLOAD_SIZE, or DT_SCL_DEPTH scalars of 8
 *            bytes) and posts one; its HELLO carries their size and count:
 *            the sender's first credits. A HELLO also links an end that the
 *            CONNECT has not reached yet (it came from a third node's engine).
 *   credits  a sender starts a transfer only with a credit; the receiver
 *            gives credits back (CREDIT n) as buffers come free, in batches
 *            of half its buffers, or at once when its receive waits.
 *   close    completes at once. The sending end sends CLOSE with the number
 *            of transfers it started; the receiving end sends CLOSE, and the
 *            sender answers with that number, so the receiver keeps taking
 *            (and dropping) the transfers still in flight and nobody's
 *            engine stays stalled on a channel nobody posts to again.
 *
 * Checks that need the other node's state (does the endpoint exist, is it
 * connected already, are the attributes compatible) are made only where
 * the state is: a CONNECT for an end already linked elsewhere is ignored.
 */
#include "dma_tp.h"
#include "../handle.h"

#include <string.h>

static void link_end(struct tp_node *tp, struct dt_endp *e, unsigned chan, unsigned dir,
                     unsigned peer_node, unsigned peer_port)
{
    uint16_t gen = e->c.chgen;
    uint32_t h = e->c.chandle;
    memset(&e->c, 0, sizeof e->c);
    e->c.chgen = gen;
    e->c.chandle = h;
    e->c.set = -1;
    e->c.state = CS_CONN;
    e->c.type = (uint8_t)chan;
    e->c.dir = (uint8_t)dir;
    e->c.peer_node = (uint16_t)peer_node;
    e->c.peer_port = (uint16_t)peer_port;
    tp->nconn++;
    tp->prog++;
}

static bool same_peer(const struct dt_conn *c, unsigned node, unsigned port)
{
    return c->state != CS_NONE && c->peer_node == node && c->peer_port == port;
}

mcapi_status_t dt_chan_connect(struct tp_node *tp, struct tp_op *op)
{
    unsigned n[2], p[2];
    if (!dt_ep_decode(tp, op->h, &n[TP_SEND], &p[TP_SEND]) ||
        !dt_ep_decode(tp, op->to, &n[TP_RECV], &p[TP_RECV]))
        return MCAPI_ERR_ENDP_INVALID;
    if (tp->map.kind[n[0]] == DR_ACCEL || tp->map.kind[n[1]] == DR_ACCEL)
        return MCAPI_ERR_ATTR_INCOMPATIBLE; /* a virtual node takes messages only */
    if (n[0] == n[1] && p[0] == p[1]) return MCAPI_ERR_CHAN_CONNECTED;
    for (unsigned d = 0; d < 2; d++) {
        if (n[d] != tp->node) continue;
        const struct dt_endp *e = &tp->ep[p[d]];
        if (!e->live) return MCAPI_ERR_ENDP_INVALID;
        if (e->c.state != CS_NONE) return MCAPI_ERR_CHAN_CONNECTED;
    }
    /* Another node's end is known here only as the peer of one of ours
     * (linked, its close not come yet): then it is connected. */
    for (unsigned d = 0; d < 2; d++)
        for (unsigned q = 0; n[d] != tp->node && q < tp->nports; q++)
            if (same_peer(&tp->ep[q].c, n[d], p[d]) && !tp->ep[q].c.peer_closed)
                return MCAPI_ERR_CHAN_CONNECTED;
    if (n[0] == tp->node && n[1] == tp->node &&
        (tp->ep[p[0]].a.max_payload != tp->ep[p[1]].a.max_payload ||
         tp->ep[p[0]].a.priority != tp->ep[p[1]].a.priority))
        return MCAPI_ERR_ATTR_INCOMPATIBLE;
    for (unsigned d = 0; d < 2; d++) {
        if (n[d] == tp->node) {
            link_end(tp, &tp->ep[p[d]], op->chan, d, n[!d], p[!d]);
        } else {
            struct dt_ctl m = {.type = CTL_CONNECT,
                               .chan = op->chan,
                               .dir = (uint8_t)d,
                               .port = (uint16_t)p[d],
                               .peer_node = (uint16_t)n[!d],
                               .peer_port = (uint16_t)p[!d]};
            dt_ctl_send(tp, n[d], &m);
        }
    }
    return MCAPI_SUCCESS;
}

static mcapi_status_t open_fail(struct dt_endp *e, struct tp_op *op, mcapi_status_t st)
{
    e->c.opening = 0;
    op->state = 0;
    return st;
}

mcapi_status_t dt_chan_open(struct tp_node *tp, struct tp_op *op)
{
    struct dt_endp *e = dt_own(tp, op->h);
    if (!e) return MCAPI_ERR_ENDP_DELETED; /* check() saw it: deleted while pending */
    unsigned port = (unsigned)(e - tp->ep);
    struct dt_conn *c = &e->c;
    if (!op->state) {
        if (c->opening) return MCAPI_ERR_CHAN_OPENPENDING;
        if (c->state == CS_OPEN) return MCAPI_ERR_CHAN_OPEN;
        c->opening = 1;
        op->state = 1;
    }
    if (c->state == CS_NONE) { /* not connected yet: a CONNECT or HELLO will come */
        dt_watch(tp, W_CHAN, tp->ctl);
        return MCAPI_PENDING;
    }
    if (c->type != op->chan) return open_fail(e, op, MCAPI_ERR_CHAN_TYPE);
    if (c->dir != op->dir) return open_fail(e, op, MCAPI_ERR_CHAN_DIRECTION);
    if (!c->hello_sent) {
        struct dt_ctl m = {.type = CTL_HELLO,
                           .chan = c->type,
                           .dir = c->dir,
                           .port = c->peer_port,
                           .peer_node = (uint16_t)tp->node,
                           .peer_port = (uint16_t)port};
        if (c->dir == TP_RECV) {
            if (dt_set_draining(tp, port)) { /* the last channel's transfers are still coming */
                dt_watch(tp, W_CHAN, dt_port_chan(tp, port));
                return MCAPI_PENDING;
            }
            unsigned depth = c->type == TP_PKT ? tp->pkt_depth : DT_SCL_DEPTH;
            uint32_t cap = c->type == TP_PKT ? (uint32_t)e->a.max_payload : 8u;
            int s = dt_set_new(tp, port, depth, cap);
            if (s < 0) return open_fail(e, op, MCAPI_ERR_MEM_LIMIT);
            dt_unpost(tp, port); /* the internal message buffer gives way */
            c->set = (int8_t)s;
            tp->refill &= ~(1ull << port);
            dt_set_post(tp, &tp->set[s]);
            m.arg = cap;
            m.arg2 = depth;
        }
        c->hello_sent = 1;
        dt_ctl_send(tp, c->peer_node, &m);
    }
    if (tp->handshake && !c->hello_in && !c->peer_closed) {
        dt_watch(tp, W_CHAN, tp->ctl);
        return MCAPI_PENDING;
    }
    c->state = CS_OPEN;
    c->opening = 0;
    c->chgen = (uint16_t)((c->chgen + 1u) & H_GEN_MASK);
    c->chandle = dt_chan_handle(tp, op->chan, op->dir, port, c->chgen);
    *op->out_h = c->chandle;
    op->state = 0;
    return MCAPI_SUCCESS;
}

void dt_chan_open_abort(struct tp_node *tp, struct tp_op *op)
{
    /* A HELLO already sent stays sent: the next open completes on the
     * peer's alone. */
    struct dt_endp *e = dt_own(tp, op->h);
    if (e && op->state) e->c.opening = 0;
    op->state = 0;
}

void dt_chan_end(struct tp_node *tp, unsigned port)
{
    struct dt_endp *e = &tp->ep[port];
    struct dt_conn *c = &e->c;
    if (c->state == CS_NONE) return;
    struct dt_ctl m = {.type = CTL_CLOSE,
                       .chan = c->type,
                       .dir = c->dir,
                       .port = c->peer_port,
                       .peer_node = (uint16_t)tp->node,
                       .peer_port = (uint16_t)port,
                       .arg = c->sent};
    bool tell = !c->peer_closed && !c->close_sent;
    unsigned peer = c->peer_node;
    int set = c->dir == TP_RECV ? c->set : -1;
    uint16_t gen = c->chgen;
    uint32_t h = c->chandle;
    memset(c, 0, sizeof *c);
    c->chgen = gen;
    c->chandle = h; /* its handle now gives MCAPI_ERR_CHAN_NOTOPEN */
    c->set = -1;
    tp->nconn--;
    tp->refill |= 1ull << port;
    tp->prog++;
    if (set >= 0) dt_set_close(tp, &tp->set[set]);
    if (tell) dt_ctl_send(tp, peer, &m);
}

mcapi_status_t dt_chan_close(struct tp_node *tp, struct tp_op *op)
{
    int p = dt_chan_port(tp, op->h);
    if (p < 0) return MCAPI_ERR_CHAN_INVALID;
    if (tp->ep[p].c.state != CS_OPEN) return MCAPI_ERR_CHAN_NOTOPEN;
    dt_chan_end(tp, (unsigned)p);
    dt_refill(tp);
    return MCAPI_SUCCESS;
}

void dt_ctl_handle(struct tp_node *tp, const struct dt_ctl *m, unsigned from)
{
    if (m->port >= tp->nports) return;
    struct dt_endp *e = &tp->ep[m->port];
    struct dt_conn *c = &e->c;
    switch (m->type) {
    case CTL_CONNECT:
        if (c->state == CS_NONE) link_end(tp, e, m->chan, m->dir, m->peer_node, m->peer_port);
        break; /* linked already (by the peer's HELLO, or elsewhere): ignored */
    case CTL_HELLO:
        if (c->state == CS_NONE) link_end(tp, e, m->chan, !m->dir, from, m->peer_port);
        if (!same_peer(c, from, m->peer_port) || c->dir == m->dir) break;
        c->hello_in = 1;
        if (c->dir == TP_SEND) {
            c->peer_cap = m->arg;
            c->credits = m->arg2;
        }
        tp->prog++;
        break;
    case CTL_CREDIT:
        if (same_peer(c, from, m->peer_port) && c->dir == TP_SEND) {
            c->credits += m->arg;
            tp->prog++;
        }
        break;
    case CTL_CLOSE:
        if (m->dir == TP_SEND) { /* the sender closed, or answers our close */
            struct dt_set *s = NULL;
            if (same_peer(c, from, m->peer_port) && c->dir == TP_RECV) {
                c->peer_closed = 1;
                s = c->set >= 0 ? &tp->set[c->set] : NULL;
            } else {
                s = dt_set_draining(tp, m->port);
            }
            if (s) {
                s->expect = m->arg;
                dt_set_post(tp, s); /* settles a draining set */
            }
        } else if (same_peer(c, from, m->peer_port) && c->dir == TP_SEND) {
            c->peer_closed = 1;
            if (!c->close_sent) { /* tell the receiver how many are on the way */
                struct dt_ctl r = {.type = CTL_CLOSE,
                                   .chan = c->type,
                                   .dir = TP_SEND,
                                   .port = c->peer_port,
                                   .peer_node = (uint16_t)tp->node,
                                   .peer_port = m->port,
                                   .arg = c->sent};
                c->close_sent = 1;
                dt_ctl_send(tp, from, &r);
            }
        }
        tp->prog++;
        break;
    default:
        break;
    }
}
