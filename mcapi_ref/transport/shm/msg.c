/*
 * transport/shm/msg.c -- connectionless messages over shared memory.
 *
 * Send: take a message buffer from the domain's pool, copy the payload in
 * (the first of the two copies), queue the buffer's index at the receiving
 * endpoint by priority, wake the receiver if it waits. Receive: dequeue the
 * highest-priority entry, copy it out (the second copy), give the buffer
 * back. The copies run outside any lock. A send that finds the queue full
 * keeps its filled buffer and retries when the receiver makes room, so a
 * retry costs no second copy. Sends to a virtual node go to route.c.
 *
 * An endpoint deleted while an operation waited for it gives
 * MCAPI_ERR_ENDP_DELETED; one that never existed, MCAPI_ERR_ENDP_INVALID.
 */
#include "db.h"

/* op->state of a send: the receiving endpoint was seen to exist. */
#define SEEN_TO 2

/* Whether the endpoint `to` has MCAPI_ENDP_ATTR_FAIL_ON_MEM_LIMIT. */
static bool fails(struct db *db, struct db_endp *to, mcapi_uint32_t h)
{
    tp_lock(db, &to->lock);
    bool f = to->ident == h && tp_endp_fail(to);
    drv_shm_unlock(&to->lock);
    return f;
}

mcapi_status_t tp_msg_send(struct tp_node *tp, struct tp_op *op)
{
    int slot = tp_endp_slot(tp, op->to);
    if (slot >= DB_SLOTS) return tp_route_accel(tp, op);
    struct db *db = tp->db;
    struct db_endp *from = tp_own_endp(tp, op->h);
    if (!from || slot < 0) {
        if (op->held) tp_pool_put(tp, &db->msg, op->held - 1);
        op->held = 0;
        return from ? MCAPI_ERR_ENDP_INVALID : MCAPI_ERR_ENDP_DELETED; /* check() saw it */
    }
    struct db_endp *to = &db->endp[slot];
    bool fail = tp_endp_fail(from);
    if (!op->held) {
        if (tp_pool_get(tp, &db->msg, &op->held) != MCAPI_SUCCESS)
            return fail || fails(db, to, op->to) ? MCAPI_ERR_MEM_LIMIT : MCAPI_PENDING;
        drv_shm_copy(db->msgbuf[op->held - 1], op->src, op->len);
    }
    mcapi_status_t st = MCAPI_SUCCESS;
    uint64_t w = 0;
    tp_lock(tp->db, &to->lock);
    if (to->ident != op->to) {
        st = op->state == SEEN_TO ? MCAPI_ERR_ENDP_DELETED : MCAPI_ERR_ENDP_INVALID;
    } else if (tp_q_full(&to->q)) {
        if (fail || tp_endp_fail(to))
            st = MCAPI_ERR_MEM_LIMIT;
        else {
            to->waiters |= tp->bit;
            op->state = SEEN_TO;
            st = MCAPI_PENDING;
        }
    } else {
        tp_q_push(&to->q, op->held - 1, (uint32_t)op->len, op->prio);
        op->held = 0;
        w = tp_take_waiters(&to->waiters);
    }
    drv_shm_unlock(&to->lock);
    if (st == MCAPI_PENDING) return st;
    if (op->held) {
        tp_pool_put(tp, &db->msg, op->held - 1);
        op->held = 0;
        return st;
    }
    tp_wake(tp, w);
    plat_work_cycles(tp->xfer_cycles);
    op->size = op->len;
    return st;
}

mcapi_status_t tp_msg_recv(struct tp_node *tp, struct tp_op *op)
{
    struct db_endp *e = tp_own_endp(tp, op->h);
    if (!e) return MCAPI_ERR_ENDP_DELETED; /* check() saw it: deleted while pending */
    struct db_entry x;
    tp_lock(tp->db, &e->lock);
    if (!tp_q_count(&e->q)) {
        e->waiters |= tp->bit;
        drv_shm_unlock(&e->lock);
        return MCAPI_PENDING;
    }
    /* The receiver's before it leaves the queue: never in neither. */
    tp->db->msg.own[tp_q_peek(&e->q)->data] = (uint8_t)(tp->node + 1);
    tp_q_pop(&e->q, &x);
    uint64_t w = tp_take_waiters(&e->waiters); /* senders waiting for room */
    drv_shm_unlock(&e->lock);
    tp_wake(tp, w);
    size_t n = x.size < op->len ? x.size : op->len;
    drv_shm_copy(op->dst, tp->db->msgbuf[x.data], n);
    tp_pool_put(tp, &tp->db->msg, (uint32_t)x.data);
    plat_work_cycles(tp->xfer_cycles);
    op->size = n;
    return x.size > op->len ? MCAPI_ERR_MSG_TRUNCATED : MCAPI_SUCCESS;
}
