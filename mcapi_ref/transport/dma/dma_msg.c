/*
 * transport/dma/dma_msg.c -- connectionless messages over DMA.
 *
 * Send: one plat_dma_send from the caller's buffer to the receiving
 * endpoint's channel (no copy at the sender). It completes when the engine
 * has written the bytes at the receiver; a blocking send waits for that, so
 * the buffer may be reused when it returns; an _i send returns as soon as
 * the transfer is configured and its request completes with the transfer.
 *
 * Receive, two paths:
 *   zero copy  nothing is waiting: the receive posts the caller's buffer on
 *              the endpoint's channel (withdrawing the internal buffer posted
 *              there) and polls the channel; the sender's DMA writes straight
 *              into it. This is the path of a receive posted in advance.
 *   copy       a message landed earlier in the internal buffer posted while
 *              the user had no receive: plat_copy it out, then give the
 *              buffer back.
 * The length of a message is the length of its transfer; a message longer
 * than the buffer is consumed, the buffer holds its first bytes
 * (MCAPI_ERR_MSG_TRUNCATED). Priorities are checked, not used: a channel is
 * one FIFO (messages keep the order in which they arrived).
 *
 * Sends to a virtual node run its accelerator here and queue the reply at
 * the sending endpoint (the shared-memory transport's reply protocol).
 */
#include "dma_tp.h"
#include "../../drivers/accel.h"

int dt_buf_get(struct tp_node *tp, bool reserve)
{
    if (tp->nfree == 0 || (!reserve && tp->nfree <= DT_RESERVE)) return -1;
    return tp->free_bufs[--tp->nfree];
}

void dt_buf_put(struct tp_node *tp, unsigned b)
{
    tp->free_bufs[tp->nfree++] = (uint8_t)b;
    /* Channels left bare for want of a buffer get one at the next dt_refill. */
    for (unsigned p = 0; p < tp->nports; p++)
        if ((tp->ep[p].live || tp->ep[p].drain) && tp->ep[p].post == DP_NONE && tp->ep[p].c.set < 0)
            tp->refill |= 1ull << p;
}

unsigned char *dt_buf(struct tp_node *tp, unsigned b)
{
    return tp->msgmem + (size_t)b * MCAPI_MAX_MSG_SIZE;
}

void dt_q_push(struct dt_endp *e, unsigned b, size_t len)
{
    unsigned i = (e->qhead + e->qn++) % DT_MSG_BUFS;
    e->q[i] = (uint8_t)b;
    e->qlen[i] = (uint16_t)len;
}

static void q_push_front(struct dt_endp *e, unsigned b, size_t len)
{
    e->qhead = (uint8_t)((e->qhead + DT_MSG_BUFS - 1) % DT_MSG_BUFS);
    e->q[e->qhead] = (uint8_t)b;
    e->qlen[e->qhead] = (uint16_t)len;
    e->qn++;
}

static unsigned q_pop(struct dt_endp *e, size_t *len)
{
    unsigned b = e->q[e->qhead];
    *len = e->qlen[e->qhead];
    e->qhead = (uint8_t)((e->qhead + 1) % DT_MSG_BUFS);
    e->qn--;
    return b;
}

void dt_msg_drop(struct tp_node *tp, struct dt_endp *e)
{
    size_t len;
    while (e->qn) dt_buf_put(tp, q_pop(e, &len));
    e->qhead = 0;
}

void dt_unpost(struct tp_node *tp, unsigned port)
{
    struct dt_endp *e = &tp->ep[port];
    unsigned ch = dt_port_chan(tp, port);
    if (e->post == DP_NONE) return;
    if (drv_rx_cancel(ch) == PLAT_EAGAIN) { /* filled, or being filled: not for long */
        size_t len = 0;
        if (drv_rx_wait(ch, &len, PLAT_FOREVER) == PLAT_OK) {
            dt_filled(tp, ch, len);
            if (e->post == DP_NONE) return;
            /* a channel set posted its next buffer: withdraw that one too */
            dt_unpost(tp, port);
            return;
        }
    }
    switch (e->post) {
    case DP_INT:
        dt_buf_put(tp, e->post_idx);
        break;
    case DP_SET: {
        struct dt_set *s = &tp->set[e->post_idx];
        for (unsigned i = 0; i < s->nbuf; i++)
            if (s->st[i] == B_POSTED) s->st[i] = B_FREE;
        break;
    }
    default:
        break;
    }
    e->post = DP_NONE;
    e->user = NULL;
}

/* A send to virtual node vn: its accelerator's reply is queued here. */
static mcapi_status_t accel(struct tp_node *tp, struct tp_op *op, struct dt_endp *from, unsigned vn)
{
    int b = dt_buf_get(tp, false);
    if (b < 0 || from->qn == DT_MSG_BUFS) {
        if (b >= 0) dt_buf_put(tp, (unsigned)b);
        return from->a.memtype & MCAPI_ENDP_ATTR_FAIL_ON_MEM_LIMIT ? MCAPI_ERR_MEM_LIMIT
                                                                   : MCAPI_PENDING;
    }
    plat_work_cycles(tp->xfer_cycles);
    if (!drv_accel_run(tp->map.accel[vn], op->src, dt_buf(tp, (unsigned)b), op->len)) {
        dt_buf_put(tp, (unsigned)b);
        return MCAPI_ERR_TRANSMISSION;
    }
    dt_q_push(from, (unsigned)b, op->len);
    tp->prog++;
    op->size = op->len;
    return MCAPI_SUCCESS;
}

mcapi_status_t dt_msg_send(struct tp_node *tp, struct tp_op *op)
{
    unsigned n = 0, p = 0;
    if (!op->held) {
        struct dt_endp *from = dt_own(tp, op->h);
        if (!from) return MCAPI_ERR_ENDP_DELETED; /* check() saw it: deleted while pending */
        (void)dt_ep_decode(tp, op->to, &n, &p);   /* check() saw to it */
        if (tp->map.kind[n] == DR_ACCEL) return accel(tp, op, from, n);
        int s = dt_slot_get(tp);
        if (s < 0) {
            if (from->a.memtype & MCAPI_ENDP_ATTR_FAIL_ON_MEM_LIMIT) return MCAPI_ERR_MEM_LIMIT;
            dt_watch(tp, W_SLOT, (unsigned)dt_slot_oldest(tp));
            return MCAPI_PENDING;
        }
        struct dt_slot *sl = &tp->slot[s];
        mcapi_status_t st = MCAPI_SUCCESS;
        const void *src = op->len ? dt_tx_stage(tp, op->src, op->len, &st) : sl->stage;
        if (!src) {
            sl->state = SL_FREE;
            return st == MCAPI_SUCCESS ? MCAPI_PENDING : st;
        }
        if (drv_dma_send(&sl->d, tp->map.core[n], tp->map.base[n] + 1u + p, src, op->len) !=
            PLAT_OK) {
            sl->state = SL_FREE;
            return MCAPI_ERR_TRANSMISSION;
        }
        dt_tx_issued(tp, s, src);
        op->held = (uint32_t)s + 1;
        op->started = 1; /* later sends here may start behind it: the engine keeps order */
        plat_work_cycles(tp->xfer_cycles);
        dt_refill(tp); /* while the transfer runs */
    }
    if (!dt_slot_done(tp, (int)op->held - 1)) {
        dt_watch(tp, W_SLOT, op->held - 1);
        return MCAPI_PENDING;
    }
    op->held = 0;
    op->size = op->len;
    return MCAPI_SUCCESS;
}

static mcapi_status_t delivered(struct tp_node *tp, struct tp_op *op, size_t len)
{
    plat_work_cycles(tp->xfer_cycles);
    op->state = 0;
    op->size = len < op->len ? len : op->len;
    return len > op->len ? MCAPI_ERR_MSG_TRUNCATED : MCAPI_SUCCESS;
}

mcapi_status_t dt_msg_recv(struct tp_node *tp, struct tp_op *op)
{
    struct dt_endp *e = dt_own(tp, op->h);
    if (!e) return MCAPI_ERR_ENDP_DELETED; /* check() saw it: deleted while pending */
    unsigned port = (unsigned)(e - tp->ep), ch = dt_port_chan(tp, port);
    if ((op->state & (ST_POSTED | ST_FILLED)) == ST_POSTED) {
        if (e->user == op)
            (void)dt_poll_chan(tp, ch); /* zero copy: did the DMA write our buffer? */
        else
            op->state = 0; /* withdrawn (a channel took the port): post again below */
    }
    if (op->state & ST_FILLED) return delivered(tp, op, (size_t)op->value);
    if (e->post == DP_INT) (void)dt_poll_chan(tp, ch);
    if (e->qn) {
        if (e->user == op) {
            dt_unpost(tp, port);
            if (op->state & ST_FILLED) return delivered(tp, op, (size_t)op->value);
            op->state = 0;
        }
        size_t len;
        unsigned b = q_pop(e, &len);
        size_t n = len < op->len ? len : op->len;
        if (n) plat_copy(op->dst, dt_buf(tp, b), n); /* the copy path */
        dt_buf_put(tp, b);
        dt_refill(tp);
        return delivered(tp, op, len);
    }
    /* Zero copy only into memory the engine writes; else an internal buffer. */
    if (!(op->state & ST_POSTED) && op->len && op->dst && e->c.set < 0 &&
        plat_dma_reach(op->dst, op->len)) {
        if (e->post == DP_INT) {
            dt_unpost(tp, port);
            if (e->qn) return dt_msg_recv(tp, op); /* it filled as we withdrew it */
        }
        if (e->post == DP_NONE && drv_rx_post(ch, op->dst, op->len, tp->bell) == PLAT_OK) {
            e->post = DP_USER;
            e->user = op;
            op->state |= ST_POSTED;
            tp->refill &= ~(1ull << port);
        }
    }
    if (e->post == DP_NONE) dt_refill(tp);
    dt_watch(tp, W_CHAN, ch);
    return MCAPI_PENDING;
}

void dt_msg_recv_abort(struct tp_node *tp, struct tp_op *op)
{
    struct dt_endp *e = dt_own(tp, op->h);
    if (e && e->user == op) {
        unsigned port = (unsigned)(e - tp->ep);
        dt_unpost(tp, port);
        /* Arm the bare channel again: a sender's transfer waits for a post. */
        tp->refill |= 1ull << port;
        dt_refill(tp);
    }
    if (e && (op->state & ST_FILLED)) {
        /* A message landed in the caller's buffer as the receive was
         * withdrawn: it is the oldest one, keep it for the next receive. */
        size_t len = (size_t)op->value;
        if (len > op->len) len = op->len;
        int b = dt_buf_get(tp, true);
        if (b >= 0) {
            if (len) plat_copy(dt_buf(tp, (unsigned)b), op->dst, len);
            q_push_front(e, (unsigned)b, len);
        }
    }
    op->state = 0;
}
