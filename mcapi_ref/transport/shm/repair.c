/*
 * transport/shm/repair.c -- what a dead node process leaves behind.
 *
 * A node process may die anywhere (SIGKILL, a crash), also inside one of
 * the short critical sections of this transport. Two things then remain:
 *
 *   abandoned locks  Every lock of the region is robust (drv_shm_lock_init):
 *                    the next taker gets it with "the holder died" and, in
 *                    tp_lock, repairs what that lock guards before going on.
 *                    The lock is found by its address in the region: a
 *                    message queue (an endpoint's) is rebuilt from its lists
 *                    (tp_q_repair: an entry linked in is delivered, one cut
 *                    before its link was never sent), a buffer pool from its
 *                    owners (tp_pool_repair), a node's port map from its
 *                    endpoints. A channel's ring has no lock: a push or pop
 *                    is one store of its counter, made or not. The domain
 *                    lock guards no data of its own
 *                    (what changes under it is under the inner locks too).
 *                    A repair wakes every node: the dead holder may have
 *                    taken a waiter mask it never notified.
 *
 *   a dead node      Its id stays taken and its endpoints reachable (sends
 *                    to them fill their queues, then time out), as for any
 *                    node that never finalises, until a process initialises
 *                    that node again: tp_node_attach then finds the node's
 *                    process dead (drv_shm_alive on the token it recorded)
 *                    and tp_node_reclaim finalises it in its place: deletes
 *                    its endpoints (closing their channel ends, dropping
 *                    their queues), and gives back the buffers it had out of
 *                    the pools -- a send's filled buffer, a received packet
 *                    -- that no queue holds (messages it sent stay queued at
 *                    their receivers, as after a finalise).
 *
 * In simulation no core dies: none of this runs.
 */
#include "db.h"

#include <stdint.h>
#include <stdlib.h>

#define IN(p, arr) ((uintptr_t)(p) >= (uintptr_t)(arr) && (uintptr_t)(p) < (uintptr_t)((arr) + 1))

/* Node i's port map, from its endpoints (its lock held). */
static void repair_ports(struct db *db, unsigned node)
{
    struct db_node *n = &db->node[node];
    for (unsigned p = 0; p <= MCAPI_MAX_PORT; p++) n->port[p] = 0;
    for (unsigned i = 0; i < MCAPI_MAX_ENDPOINTS; i++) {
        struct db_endp *e = &db->endp[node * MCAPI_MAX_ENDPOINTS + i];
        tp_lock(db, &e->lock);
        if (e->ident && e->port <= MCAPI_MAX_PORT) n->port[e->port] = (uint8_t)(i + 1);
        drv_shm_unlock(&e->lock);
    }
}

static void repair(struct db *db, plat_mutex *m)
{
    uintptr_t a = (uintptr_t)m;
    if (IN(m, &db->node)) {
        repair_ports(db, (unsigned)((a - (uintptr_t)db->node) / sizeof db->node[0]));
    } else if (IN(m, &db->endp)) {
        tp_q_repair(&db->endp[(a - (uintptr_t)db->endp) / sizeof db->endp[0]].q);
    } else if (IN(m, &db->chan)) {
        /* Nothing: the ends' states are single stores, the ring needs no
         * lock (a receiver cut before its pop: tp_chan_detach). */
    } else if (m == &db->msg.lock) {
        tp_pool_repair(&db->msg, MCAPI_MAX_MSG_BUFFERS);
    } else if (m == &db->pkt.lock) {
        tp_pkts_repair(db);
    }
    for (unsigned n = 0; n < MCA_MAX_NODES; n++) drv_shm_notify(&db->node[n].ev);
}

void tp_lock(struct db *db, plat_mutex *m)
{
    if (drv_shm_lock(m)) repair(db, m);
}

/* Finalise the dead process's node tp->node in its place (domain lock
 * held; tp is the node's new process, which has not taken it yet). */
void tp_node_reclaim(struct tp_node *tp)
{
    struct db *db = tp->db;
    for (unsigned i = 0; i < MCAPI_MAX_ENDPOINTS; i++) {
        int slot = (int)(tp->node * MCAPI_MAX_ENDPOINTS + i);
        if (db->endp[slot].ident) tp_endp_remove_locked(tp, slot);
    }
    /* The buffers queues hold: a queue's lock at a time, so one popped by
     * its receiver meanwhile has changed owner and stays with it. */
    bool msg[MCAPI_MAX_MSG_BUFFERS] = {false};
    bool *pkt = calloc(db->pkt.at.granules, sizeof *pkt); /* granule g starts a queued packet */
    for (unsigned s = 0; s < DB_SLOTS; s++) {
        struct db_endp *e = &db->endp[s];
        tp_lock(db, &e->lock);
        tp_q_mark(&e->q, msg, MCAPI_MAX_MSG_BUFFERS);
        drv_shm_unlock(&e->lock);
    }
    for (unsigned c = 0; c < MCAPI_MAX_CHANNELS; c++) {
        struct db_chan *ch = &db->chan[c];
        tp_lock(db, &ch->lock);
        if (pkt && ch->used && ch->type == TP_PKT) {
            tp_ring_mark(&ch->ring, pkt, db->pkt.at.granules);
            uint32_t t = __atomic_load_n(&ch->taking, __ATOMIC_RELAXED);
            if (t) pkt[t - 1] = true; /* a live receiver's, about to hold it */
        }
        drv_shm_unlock(&ch->lock);
    }
    tp_pool_reclaim(tp, &db->msg, MCAPI_MAX_MSG_BUFFERS, tp->node, msg);
    if (pkt) (void)tp_pkts_reclaim(tp, tp->node, pkt); /* no memory: its packets stay out */
    free(pkt);
    struct db_node *n = &db->node[tp->node];
    tp_lock(db, &n->lock);
    n->state = NODE_FREE;
    n->owner = 0;
    uint64_t w = tp_take_waiters(&n->waiters);
    drv_shm_unlock(&n->lock);
    tp_wake(tp, w);
}
