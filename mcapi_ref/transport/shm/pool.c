/*
 * transport/shm/pool.c -- the domain's message and packet buffers.
 *
 * A stack of free buffer indices under the pool's lock: the buffer freed
 * last is reused first, so it is likely still in the cache. A sender that
 * finds the pool empty either fails (FAIL_ON_MEM_LIMIT) or waits for a
 * free, exactly as for a full queue.
 *
 * own[i] says who has buffer i out of the pool: 0 nobody (it is on the
 * stack), else the node + 1 that took it (a sender, until a receiver pops
 * it from a queue and becomes its owner). It is the pool's truth: a stack
 * cut half way by a dead holder of the lock is rebuilt from it
 * (tp_pool_repair), and a dead node's buffers that no queue holds go back
 * (tp_pool_reclaim).
 */
#include "db.h"

void tp_pool_init(struct db_pool *p, unsigned n, bool shared)
{
    drv_shm_lock_init(&p->lock, shared);
    p->top = n;
    for (unsigned i = 0; i < n; i++) p->free[i] = (uint16_t)(n - 1 - i);
}

mcapi_status_t tp_pool_get(struct tp_node *tp, struct db_pool *p, uint32_t *held)
{
    mcapi_status_t st = MCAPI_SUCCESS;
    tp_lock(tp->db, &p->lock);
    if (p->top > 0) {
        unsigned i = p->free[--p->top];
        p->own[i] = (uint8_t)(tp->node + 1);
        *held = i + 1u;
    } else {
        p->waiters |= tp->bit;
        st = MCAPI_PENDING;
    }
    drv_shm_unlock(&p->lock);
    return st;
}

void tp_pool_put(struct tp_node *tp, struct db_pool *p, uint32_t idx)
{
    tp_lock(tp->db, &p->lock);
    p->own[idx] = 0;
    p->free[p->top++] = (uint16_t)idx;
    uint64_t w = tp_take_waiters(&p->waiters);
    drv_shm_unlock(&p->lock);
    tp_wake(tp, w);
}

/* The pool's lock was abandoned (held): the stack is what own[] says. */
void tp_pool_repair(struct db_pool *p, unsigned n)
{
    p->top = 0;
    for (unsigned i = 0; i < n; i++)
        if (!p->own[i]) p->free[p->top++] = (uint16_t)i;
}

/* Give back the buffers node holds that no queue holds (queued[i]); for
 * packets (holder) the ones it had received too. Returns how many. */
unsigned tp_pool_reclaim(struct tp_node *tp, struct db_pool *p, unsigned n, unsigned node,
                         const bool *queued, uint8_t *holder)
{
    unsigned k = 0;
    tp_lock(tp->db, &p->lock);
    for (unsigned i = 0; i < n; i++) {
        if (holder && holder[i] == node + 1) holder[i] = 0;
        if (p->own[i] != node + 1 || queued[i]) continue;
        p->own[i] = 0;
        p->free[p->top++] = (uint16_t)i;
        k++;
    }
    uint64_t w = k ? tp_take_waiters(&p->waiters) : 0;
    drv_shm_unlock(&p->lock);
    tp_wake(tp, w);
    return k;
}

unsigned tp_pool_free(struct db *db, struct db_pool *p)
{
    tp_lock(db, &p->lock);
    unsigned n = p->top;
    drv_shm_unlock(&p->lock);
    return n;
}
