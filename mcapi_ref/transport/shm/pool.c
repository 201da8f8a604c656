/*
 * transport/shm/pool.c -- the domain's message and packet buffers.
 *
 * A stack of free buffer indices under the pool's lock: the buffer freed
 * last is reused first, so it is likely still in the cache. A sender that
 * finds the pool empty either fails (FAIL_ON_MEM_LIMIT) or waits for a
 * free, exactly as for a full queue.
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
    drv_shm_lock(&p->lock);
    if (p->top > 0) {
        *held = p->free[--p->top] + 1u;
    } else {
        p->waiters |= tp->bit;
        st = MCAPI_PENDING;
    }
    drv_shm_unlock(&p->lock);
    return st;
}

void tp_pool_put(struct tp_node *tp, struct db_pool *p, uint32_t idx)
{
    drv_shm_lock(&p->lock);
    p->free[p->top++] = (uint16_t)idx;
    uint64_t w = tp_take_waiters(&p->waiters);
    drv_shm_unlock(&p->lock);
    tp_wake(tp, w);
}

unsigned tp_pool_free(struct db_pool *p)
{
    drv_shm_lock(&p->lock);
    unsigned n = p->top;
    drv_shm_unlock(&p->lock);
    return n;
}
