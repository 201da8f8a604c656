/*
 * xmcapi/xm_queue.c -- receive queues and the paper's stop/resume flow control.
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

void xm_q_drop(struct tp_node *tp, struct xm_ep *e)
{
    struct xm_item it;
    if (e->cstate == XC_NONE) tp->msg_bufs -= e->q.n; /* a message endpoint's: buffers back */
    while (xm_q_pop(&e->q, &it)) free(it.buf);
    xm_q_free(&e->q);
    e->self_q = 0;
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
    if (e->cstate == XC_NONE) tp->msg_bufs++;
    unsigned p = it->from;
    /* Our own channel sends are held by the exact limit instead (xm_chan.c). */
    if (e->q.n > e->depth && p != tp->self && !(e->stopped[p / 8] & 1u << (p % 8))) {
        e->stopped[p / 8] |= (uint8_t)(1u << (p % 8));
        ack(tp, e, p, XW_F_STOP);
        tp->stops_sent++;
    }
    return true;
}
