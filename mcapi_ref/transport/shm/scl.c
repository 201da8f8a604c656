/*
 * transport/shm/scl.c -- scalar channels: the value travels in the queue
 * entry itself, with its width; no buffer is involved.
 */
#include "db.h"

mcapi_status_t tp_scl_send(struct tp_node *tp, struct tp_op *op)
{
    struct db_chan *c = NULL;
    mcapi_status_t st = tp_chan_use(tp, op, &c);
    if (st != MCAPI_SUCCESS) return st;
    uint64_t w = 0;
    tp_lock(tp->db, &c->lock);
    if (c->side[TP_RECV] == SIDE_CLOSED) {
        st = MCAPI_ERR_CHAN_NOTOPEN;
    } else if (tp_q_full(&c->q)) {
        st = c->fail ? MCAPI_ERR_MEM_LIMIT : MCAPI_PENDING;
        if (st == MCAPI_PENDING) c->waiters |= tp->bit;
    } else {
        tp_q_push(&c->q, op->value, (uint32_t)op->len, 0);
        w = tp_take_waiters(&c->waiters);
    }
    drv_shm_unlock(&c->lock);
    if (st != MCAPI_SUCCESS) return st;
    tp_wake(tp, w);
    plat_work_cycles(tp->xfer_cycles);
    op->size = op->len;
    return st;
}

/* A scalar of another width stays queued: MCAPI_ERR_SCL_SIZE. */
mcapi_status_t tp_scl_recv(struct tp_node *tp, struct tp_op *op)
{
    struct db_chan *c = NULL;
    mcapi_status_t st = tp_chan_use(tp, op, &c);
    if (st != MCAPI_SUCCESS) return st;
    struct db_entry x;
    uint64_t w = 0;
    tp_lock(tp->db, &c->lock);
    const struct db_entry *head = tp_q_peek(&c->q);
    if (!head) {
        st = c->side[TP_SEND] == SIDE_CLOSED ? MCAPI_ERR_CHAN_NOTOPEN : MCAPI_PENDING;
        if (st == MCAPI_PENDING) c->waiters |= tp->bit;
    } else if (head->size != op->len) {
        st = MCAPI_ERR_SCL_SIZE;
    } else {
        tp_q_pop(&c->q, &x);
        op->value = x.data;
        w = tp_take_waiters(&c->waiters);
    }
    drv_shm_unlock(&c->lock);
    if (st != MCAPI_SUCCESS) return st;
    tp_wake(tp, w);
    plat_work_cycles(tp->xfer_cycles);
    op->size = op->len;
    return st;
}
