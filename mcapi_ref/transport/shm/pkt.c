/*
 * transport/shm/pkt.c -- packet channels over shared memory.
 *
 * A send copies the payload into a run of the domain's packet arena
 * (pool.c) and queues it on the channel; a receive hands out the run
 * itself, so the receiver reads the packet where it lies (one copy in all),
 * and the run stays out of the pool until mcapi_pktchan_release. `holder`
 * records who holds a received packet (and, flagged DB_FILLED, who filled
 * one not received yet): a release of anything else is refused, and a node
 * that finalises gives back what it holds. Bytes past
 * the packet are zero up to the next packet: a freed run is cleared (a
 * receiver reading past the received size sees no older packet; host work,
 * not charged in simulation), by a releasing receiver before it takes the
 * pool lock, so no other node waits for the clearing.
 */
#include "db.h"

mcapi_status_t tp_pkt_send(struct tp_node *tp, struct tp_op *op)
{
    struct db_chan *c = NULL;
    mcapi_status_t st = tp_chan_use(tp, op, &c);
    if (st != MCAPI_SUCCESS) return st;
    if (!op->held) {
        if (tp_pkts_get(tp, op->len, &op->held) != MCAPI_SUCCESS)
            return c->fail ? MCAPI_ERR_MEM_LIMIT : MCAPI_PENDING;
        drv_shm_copy(tp->arena + (size_t)(op->held - 1) * MCAPI_PKT_POOL_GRANULE, op->src, op->len);
    }
    st = tp_ring_send(tp, c, op->held - 1, (uint32_t)op->len);
    if (st == MCAPI_PENDING) return st; /* keeps the filled packet for the retry */
    if (st != MCAPI_SUCCESS) tp_pkts_put(tp, op->held - 1);
    op->held = 0;
    if (st != MCAPI_SUCCESS) return st;
    plat_work_cycles(tp->xfer_cycles);
    op->size = op->len;
    return st;
}

mcapi_status_t tp_pkt_recv(struct tp_node *tp, struct tp_op *op)
{
    struct db *db = tp->db;
    struct db_chan *c = NULL;
    const struct db_slot *x = NULL;
    mcapi_status_t st = tp_chan_use(tp, op, &c);
    if (st == MCAPI_SUCCESS) st = tp_ring_next(tp, c, &x);
    if (st != MCAPI_SUCCESS) return st;
    uint32_t g = (uint32_t)x->data, size = x->size;
    /* From before the pop to the hold the packet is c->taking: a receiver
     * that dies there leaves it to its node's reclaim, not to nobody (one
     * that dies before its pop leaves it queued as well: chan.c). */
    __atomic_store_n(&c->taking, g + 1, __ATOMIC_RELAXED);
    tp_ring_done(tp, c);
    tp_lock(tp->db, &db->pkt.lock);
    tp->holder[g] = (uint8_t)(tp->node + 1);
    __atomic_store_n(&c->taking, 0, __ATOMIC_RELAXED);
    drv_shm_unlock(&db->pkt.lock);
    *op->out_buf = tp->arena + (size_t)g * MCAPI_PKT_POOL_GRANULE;
    plat_work_cycles(tp->xfer_cycles);
    op->size = size;
    return MCAPI_SUCCESS;
}

mcapi_status_t tp_pkt_release(struct tp_node *tp, const void *buf, bool test)
{
    struct db *db = tp->db;
    uintptr_t base = (uintptr_t)tp->arena, p = (uintptr_t)buf;
    if (p < base || p >= base + (uintptr_t)db->pkt.at.granules * MCAPI_PKT_POOL_GRANULE ||
        (p - base) % MCAPI_PKT_POOL_GRANULE)
        return MCAPI_ERR_BUF_INVALID;
    uint32_t g = (uint32_t)((p - base) / MCAPI_PKT_POOL_GRANULE);
    mcapi_status_t st = MCAPI_SUCCESS;
    uint64_t w = 0;
    /* A packet this node received is cleared before the pool lock is
     * taken: the memset (2 us at 64 KiB) under the lock made every other
     * node's packet allocation wait for it. Reading holder and len without
     * the lock is safe here: this node wrote holder at its receive, and
     * while it holds the packet only a release frees it (a dead node's
     * reclaim takes a dead node's packets alone); a release racing this one
     * for the same buffer is a double release, wrong in any order. A killed
     * releaser leaves the packet held, which its node's reclaim clears and
     * frees under the lock. One lock pair as before: the simulated costs
     * (locks, not the clearing) stay as they were. */
    const uint8_t mine = (uint8_t)(tp->node + 1);
    bool cleared = !test && tp->holder[g] == mine;
    if (cleared) tp_pkts_clear(tp, g);
    tp_lock(tp->db, &db->pkt.lock);
    if (!tp->holder[g] || (tp->holder[g] & DB_FILLED)) { /* not a packet's start, or not received */
        st = MCAPI_ERR_BUF_INVALID;
    } else if (!test) {
        w = tp_pkts_free_locked(tp, g, !cleared || tp->holder[g] != mine);
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
    for (uint32_t g = 0; g < db->pkt.at.granules;) {
        uint32_t n = tp->len[g];
        if (n && tp->holder[g] == tp->node + 1) w |= tp_pkts_free_locked(tp, g, true);
        g += n ? n : 1;
    }
    drv_shm_unlock(&db->pkt.lock);
    tp_wake(tp, w);
}
