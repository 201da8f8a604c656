/*
 * transport/shm/scl.c -- scalar channels: the value travels in the queue
 * entry itself, with its width; no buffer is involved.
 */
#include "db.h"

mcapi_status_t tp_scl_send(struct tp_node *tp, struct tp_op *op)
{
    struct db_chan *c = NULL;
    mcapi_status_t st = tp_chan_use(tp, op, &c);
    if (st == MCAPI_SUCCESS) st = tp_ring_send(tp, c, op->value, (uint32_t)op->len);
    if (st != MCAPI_SUCCESS) return st;
    plat_work_cycles(tp->xfer_cycles);
    op->size = op->len;
    return st;
}

/* A scalar of another width stays queued: MCAPI_ERR_SCL_SIZE. */
mcapi_status_t tp_scl_recv(struct tp_node *tp, struct tp_op *op)
{
    struct db_chan *c = NULL;
    const struct db_slot *x = NULL;
    mcapi_status_t st = tp_chan_use(tp, op, &c);
    if (st == MCAPI_SUCCESS) st = tp_ring_next(tp, c, &x);
    if (st != MCAPI_SUCCESS) return st;
    if (x->size != op->len) return MCAPI_ERR_SCL_SIZE;
    op->value = x->data;
    tp_ring_done(tp, c);
    plat_work_cycles(tp->xfer_cycles);
    op->size = op->len;
    return st;
}
