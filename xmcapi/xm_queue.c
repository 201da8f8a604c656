/*
 * xmcapi/xm_queue.c -- receive queues and the paper's stop/resume flow control.
 *
 * Message credits (xm.h): a receiving endpoint counts, per sender, the
 * messages it has not credited back, and sends the credits of those taken
 * on its next message to that sender, or in an XW_CREDIT frame when half
 * are owed or the sender has none left.
 *
 * A queue is a ring that grows: what arrives past an endpoint's depth is
 * kept (it was sent before the sender could know), and the sender is held
 * back with a STOP until the queue is down to half its depth. It is kept in
 * priority order, first come first within a priority (messages carry
 * theirs; channel items are all priority 0, so they only ever append).
 */
#include "xm.h"

#include <stdlib.h>

bool xm_q_push(struct xm_queue *q, const struct xm_item *it)
{
    if (q->n == q->cap) {
        uint32_t cap = q->cap ? q->cap * 2 : 16;
        struct xm_item *a = malloc(cap * sizeof *a);
        if (!a) return false;
        for (uint32_t i = 0; i < q->n; i++) a[i] = q->it[(q->head + i) % q->cap];
        free(q->it);
        q->it = a;
        q->cap = cap;
        q->head = 0;
    }
    uint32_t i = q->n; /* where it goes: behind everything of its priority or higher */
    while (i > 0 && q->it[(q->head + i - 1) % q->cap].prio > it->prio) {
        q->it[(q->head + i) % q->cap] = q->it[(q->head + i - 1) % q->cap];
        i--;
    }
    q->it[(q->head + i) % q->cap] = *it;
    q->n++;
    return true;
}

bool xm_q_pop(struct xm_queue *q, struct xm_item *it)
{
    if (!q->n) return false;
    *it = q->it[q->head];
    q->head = (q->head + 1) % q->cap;
    q->n--;
    return true;
}

void xm_q_free(struct xm_queue *q)
{
    free(q->it);
    q->it = NULL;
    q->head = q->n = q->cap = 0;
}

/* Send peer p the credits endpoint e owes it, in a frame of their own. */
void xm_credit_port(struct tp_node *tp, unsigned p, unsigned port, unsigned n)
{
    struct xw_header h = {.type = XW_CREDIT,
                          .port = (uint16_t)port,
                          .qp = n,
                          .dst_domain = (uint16_t)(p / MCA_MAX_NODES),
                          .dst_node = (uint16_t)(p % MCA_MAX_NODES)};
    if (tp->peer[p].state != XP_FAILED && xm_send_frame(tp, &h, NULL)) tp->credits_sent++;
}

static void credit_send(struct tp_node *tp, struct xm_ep *e, unsigned p)
{
    xm_credit_port(tp, p, e->port, e->owe[p]);
    e->held[p] = (uint8_t)(e->held[p] - e->owe[p]);
    e->owe[p] = 0;
}

void xm_credit_owe(struct tp_node *tp, struct xm_ep *e, unsigned p)
{
    if (p == tp->self || e->owe[p] >= e->held[p]) return; /* our own take no credit */
    bool none_left = e->held[p] >= XM_MSG_CREDITS;
    e->owe[p]++;
    /* A sender with no credit left may be waiting: at once. Else only
     * once half are owed: most go back on our messages to it. */
    if (none_left || e->owe[p] >= XM_MSG_CREDITS / 2) credit_send(tp, e, p);
}

uint32_t xm_credit_carry(struct tp_node *tp, unsigned p)
{
    for (unsigned i = 0; i < XM_EPS; i++) {
        struct xm_ep *e = &tp->ep[i];
        if (!e->live || !e->owe[p]) continue;
        uint32_t qp = XM_QP_CREDIT(e->port, e->owe[p]);
        e->held[p] = (uint8_t)(e->held[p] - e->owe[p]);
        e->owe[p] = 0;
        return qp;
    }
    return 0;
}

void xm_credit_got(struct tp_node *tp, unsigned p, unsigned port, unsigned n)
{
    uint8_t *sent = tp->peer[p].sent;
    if (sent && port <= MCAPI_MAX_PORT) sent[port] = (uint8_t)(sent[port] > n ? sent[port] - n : 0);
}

/* Dropped messages are credited back too: a sender's count must not stay
 * spent on an endpoint created again at the port. A node that is stopping
 * sends nothing more (its peers see it leave). */
static void credit_all(struct tp_node *tp, struct xm_ep *e)
{
    for (unsigned p = 0; p < XM_PEERS && !tp->stop; p++) {
        if (!e->held[p]) continue;
        e->owe[p] = e->held[p];
        credit_send(tp, e, p);
    }
}

void xm_q_drop(struct tp_node *tp, struct xm_ep *e)
{
    struct xm_item it;
    if (e->cstate == XC_NONE) { /* a message endpoint's: buffers and credits back */
        credit_all(tp, e);
        tp->msg_bufs -= e->q.n;
    }
    while (xm_q_pop(&e->q, &it)) xm_buf_free(tp, it.buf, it.len);
    xm_q_free(&e->q);
    e->self_q = 0;
}

void xm_q_drop_all(struct tp_node *tp, struct xm_ep *e)
{
    xm_q_drop(tp, e);
    struct xm_item it;
    tp->msg_bufs -= e->mq.n;
    while (xm_q_pop(&e->mq, &it)) xm_buf_free(tp, it.buf, it.len);
    xm_q_free(&e->mq);
    credit_all(tp, e); /* a channel end's messages */
}

bool xm_fails(const struct xm_ep *e)
{
    return e && (e->a.memtype & MCAPI_ENDP_ATTR_FAIL_ON_MEM_LIMIT);
}

/* An ACK for the flow into endpoint e from peer p. */
static void ack(struct tp_node *tp, const struct xm_ep *e, unsigned p, unsigned flag)
{
    struct xw_header h = {.type = XW_ACK,
                          .flags = (uint8_t)(XW_F_ACK | flag),
                          .port = e->port,
                          .qp = e->cstate != XC_NONE ? e->qp : 0,
                          .dst_domain = (uint16_t)(p / MCA_MAX_NODES),
                          .dst_node = (uint16_t)(p % MCA_MAX_NODES)};
    /* Control frames may overfill the output buffer (a STOP is never
     * refused), and connect to the peer if need be; a peer whose
     * connection failed is gone, and its next life starts unstopped. */
    if (tp->peer[p].state != XP_FAILED) (void)xm_send_frame(tp, &h, NULL);
}

void xm_q_taken(struct tp_node *tp, struct xm_ep *e)
{
    if (e->q.n > e->depth / 2) return;
    for (unsigned p = 0; p < XM_PEERS; p++) {
        if (!(e->stopped[p / 8] & 1u << (p % 8))) continue;
        e->stopped[p / 8] &= (uint8_t) ~(1u << (p % 8));
        ack(tp, e, p, XW_F_RESUME);
        tp->resumes_sent++;
    }
}

bool xm_q_arrive(struct tp_node *tp, struct xm_ep *e, const struct xm_item *it)
{
    if (!xm_q_push(&e->q, it)) return false;
    unsigned p = it->from;
    if (e->cstate == XC_NONE) {
        tp->msg_bufs++;
        if (p != tp->self && e->held[p] < UINT8_MAX) e->held[p]++;
        /* The sender spent its last credit while we owe it some. */
        if (e->held[p] >= XM_MSG_CREDITS && e->owe[p]) credit_send(tp, e, p);
    }
    /* Our own channel sends are held by the exact limit instead (xm_chan.c). */
    if (e->q.n > e->depth && p != tp->self && !(e->stopped[p / 8] & 1u << (p % 8))) {
        e->stopped[p / 8] |= (uint8_t)(1u << (p % 8));
        ack(tp, e, p, XW_F_STOP);
        tp->stops_sent++;
    }
    return true;
}
