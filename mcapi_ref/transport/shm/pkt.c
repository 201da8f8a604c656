/*
 * transport/shm/pkt.c -- packet channels over shared memory.
 *
 * A send copies the payload into a packet buffer of the domain's pool and
 * queues it on the channel; a receive hands out the buffer itself, so the
 * receiver reads the packet where it lies (one copy in all), and the buffer
 * stays out of the pool until mcapi_pktchan_release. `holder` records who
 * holds a received buffer: a release of anything else is refused, and a
 * node that finalises gives back what it holds. A buffer's bytes past the
 * packet are zero: a reused buffer's stale tail is cleared when the next,
 * shorter packet is written (a receiver reading past the received size
 * sees no older packet; host work, not charged in simulation).
 */
#include "db.h"

#include <string.h>

mcapi_status_t tp_pkt_send(struct tp_node *tp, struct tp_op *op)
{
    struct db *db = tp->db;
    struct db_chan *c = NULL;
    mcapi_status_t st = tp_chan_use(tp, op, &c);
    if (st == MCAPI_SUCCESS && !op->held) {
        if (tp_pool_get(tp, &db->pkt, &op->held) != MCAPI_SUCCESS)
            return c->fail ? MCAPI_ERR_MEM_LIMIT : MCAPI_PENDING;
        unsigned i = op->held - 1;
        drv_shm_copy(db->pktbuf[i], op->src, op->len);
        if (db->pkt_dirty[i] > op->len)
            memset(db->pktbuf[i] + op->len, 0, db->pkt_dirty[i] - op->len);
        db->pkt_dirty[i] = (uint32_t)op->len;
    }
    uint64_t w = 0;
    if (st == MCAPI_SUCCESS) {
        tp_lock(tp->db, &c->lock);
        if (c->side[TP_RECV] == SIDE_CLOSED) {
            st = MCAPI_ERR_CHAN_NOTOPEN;
        } else if (tp_q_full(&c->q)) {
            st = c->fail ? MCAPI_ERR_MEM_LIMIT : MCAPI_PENDING;
            if (st == MCAPI_PENDING) c->waiters |= tp->bit;
        } else {
            tp_q_push(&c->q, op->held - 1, (uint32_t)op->len, 0);
            op->held = 0;
            w = tp_take_waiters(&c->waiters);
        }
        drv_shm_unlock(&c->lock);
    }
    if (st == MCAPI_PENDING) return st;
    if (op->held) {
        tp_pool_put(tp, &db->pkt, op->held - 1);
        op->held = 0;
        return st;
    }
    if (st != MCAPI_SUCCESS) return st;
    tp_wake(tp, w);
    plat_work_cycles(tp->xfer_cycles);
    op->size = op->len;
    return st;
}

mcapi_status_t tp_pkt_recv(struct tp_node *tp, struct tp_op *op)
{
    struct db *db = tp->db;
    struct db_chan *c = NULL;
    mcapi_status_t st = tp_chan_use(tp, op, &c);
    if (st != MCAPI_SUCCESS) return st;
    struct db_entry x;
    tp_lock(tp->db, &c->lock);
    if (!tp_q_count(&c->q)) {
        st = c->side[TP_SEND] == SIDE_CLOSED ? MCAPI_ERR_CHAN_NOTOPEN : MCAPI_PENDING;
        if (st == MCAPI_PENDING) c->waiters |= tp->bit;
        drv_shm_unlock(&c->lock);
        return st;
    }
    /* The receiver's before it leaves the queue: never in neither. */
    db->pkt.own[tp_q_peek(&c->q)->data] = (uint8_t)(tp->node + 1);
    tp_q_pop(&c->q, &x);
    uint64_t w = tp_take_waiters(&c->waiters);
    drv_shm_unlock(&c->lock);
    tp_wake(tp, w);
    tp_lock(tp->db, &db->pkt.lock);
    db->holder[x.data] = (uint8_t)(tp->node + 1);
    drv_shm_unlock(&db->pkt.lock);
    *op->out_buf = db->pktbuf[x.data];
    plat_work_cycles(tp->xfer_cycles);
    op->size = x.size;
    return MCAPI_SUCCESS;
}

mcapi_status_t tp_pkt_release(struct tp_node *tp, const void *buf, bool test)
{
    struct db *db = tp->db;
    uintptr_t base = (uintptr_t)db->pktbuf, p = (uintptr_t)buf;
    if (p < base || p >= base + sizeof db->pktbuf || (p - base) % MCAPI_MAX_PKT_SIZE)
        return MCAPI_ERR_BUF_INVALID;
    unsigned i = (unsigned)((p - base) / MCAPI_MAX_PKT_SIZE);
    mcapi_status_t st = MCAPI_SUCCESS;
    uint64_t w = 0;
    tp_lock(tp->db, &db->pkt.lock);
    if (!db->holder[i]) {
        st = MCAPI_ERR_BUF_INVALID;
    } else if (!test) {
        db->holder[i] = 0;
        db->pkt.own[i] = 0;
        db->pkt.free[db->pkt.top++] = (uint16_t)i;
        w = tp_take_waiters(&db->pkt.waiters);
    }
    drv_shm_unlock(&db->pkt.lock);
    tp_wake(tp, w);
    return st;
}

/* Finalise: give back the buffers the node holds. */
void tp_pkt_release_all(struct tp_node *tp)
{
    struct db *db = tp->db;
    uint64_t w = 0;
    tp_lock(tp->db, &db->pkt.lock);
    for (unsigned i = 0; i < MCAPI_MAX_PKT_BUFFERS; i++)
        if (db->holder[i] == tp->node + 1) {
            db->holder[i] = 0;
            db->pkt.own[i] = 0;
            db->pkt.free[db->pkt.top++] = (uint16_t)i;
            w = 1;
        }
    if (w) w = tp_take_waiters(&db->pkt.waiters);
    drv_shm_unlock(&db->pkt.lock);
    tp_wake(tp, w);
}
