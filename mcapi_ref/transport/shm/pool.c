/*
 * transport/shm/pool.c -- the domain's message and packet buffers.
 *
 * Messages: a stack of free buffer indices under the pool's lock: the
 * buffer freed last is reused first, so it is likely still in the cache.
 * own[i] says who has buffer i out of the pool: 0 nobody (it is on the
 * stack), else the node + 1 that took it (a sender, until a receiver pops
 * it from a queue and becomes its owner). It is the pool's truth: a stack
 * cut half way by a dead holder of the lock is rebuilt from it
 * (tp_pool_repair), and a dead node's buffers that no queue holds go back
 * (tp_pool_reclaim).
 * Packets: a place count and an arena of granules, allocated first fit
 * from a list of free runs sorted by offset and merged when freed, so a
 * small packet takes little memory and the lowest runs, freed last or not,
 * are reused first. The lengths (len[g] of a packet starting at granule g)
 * are the arena's truth: the runs and count are rebuilt from them
 * (tp_pkts_repair), and a dead node's packets -- received, or filled for
 * a send and not queued (holder) -- go back (tp_pkts_reclaim).
 * A sender that finds either pool empty either fails (FAIL_ON_MEM_LIMIT)
 * or waits for a free, exactly as for a full queue. The bookkeeping is
 * host work (in simulation the pool's lock and the copies are what is
 * timed, as for the message pool).
 */
#include "db.h"

#include <stdlib.h>
#include <string.h>

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

/* Give back the buffers node holds that no queue holds (queued[i]).
 * Returns how many. */
unsigned tp_pool_reclaim(struct tp_node *tp, struct db_pool *p, unsigned n, unsigned node,
                         const bool *queued)
{
    unsigned k = 0;
    tp_lock(tp->db, &p->lock);
    for (unsigned i = 0; i < n; i++) {
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

/* ---- The packet pool: places and runs of the arena. ------------------- */

void tp_pkts_init(struct db *db, bool shared)
{
    struct db_pkts *p = &db->pkt;
    drv_shm_lock_init(&p->lock, shared);
    struct db_run *runs = (struct db_run *)((unsigned char *)db + p->at.run_at);
    runs[0] = (struct db_run){0, p->at.granules};
    p->runs = 1;
}

mcapi_status_t tp_pkts_get(struct tp_node *tp, size_t len, uint32_t *held)
{
    struct db_pkts *p = &tp->db->pkt;
    uint32_t need = (uint32_t)((len + MCAPI_PKT_POOL_GRANULE - 1) / MCAPI_PKT_POOL_GRANULE);
    if (!need) need = 1; /* every packet has an address of its own */
    mcapi_status_t st = MCAPI_PENDING;
    tp_lock(tp->db, &p->lock);
    /* First fit: the lowest run long enough. */
    for (uint32_t i = 0; p->live < p->at.max && i < p->runs; i++) {
        struct db_run *r = &tp->runs[i];
        if (r->len < need) continue;
        uint32_t g = r->off;
        r->off += need;
        r->len -= need;
        if (!r->len) {
            memmove(r, r + 1, (p->runs - i - 1) * sizeof *r);
            p->runs--;
        }
        tp->len[g] = need;
        tp->holder[g] = (uint8_t)(DB_FILLED | (tp->node + 1)); /* a dead sender's goes back */
        p->live++;
        *held = g + 1;
        st = MCAPI_SUCCESS;
        break;
    }
    if (st == MCAPI_PENDING) p->waiters |= tp->bit;
    drv_shm_unlock(&p->lock);
    return st;
}

static void clear_at(unsigned char *arena, uint32_t g, uint32_t n)
{
    memset(arena + (size_t)g * MCAPI_PKT_POOL_GRANULE, 0, (size_t)n * MCAPI_PKT_POOL_GRANULE);
}

void tp_pkts_clear(struct tp_node *tp, uint32_t g)
{
    clear_at(tp->arena, g, tp->len[g]);
}

/* Give the run back in its place, merged with its neighbours; the caller
 * takes the waiters. */
uint64_t tp_pkts_free_locked(struct tp_node *tp, uint32_t g, bool clear)
{
    struct db_pkts *p = &tp->db->pkt;
    uint32_t n = tp->len[g];
    if (clear) tp_pkts_clear(tp, g);
    tp->len[g] = 0;
    tp->holder[g] = 0;
    p->live--;
    uint32_t i = 0;
    while (i < p->runs && tp->runs[i].off < g) i++;
    struct db_run *r = tp->runs;
    bool left = i > 0 && r[i - 1].off + r[i - 1].len == g;
    bool right = i < p->runs && g + n == r[i].off;
    if (left && right) {
        r[i - 1].len += n + r[i].len;
        memmove(&r[i], &r[i + 1], (p->runs - i - 1) * sizeof *r);
        p->runs--;
    } else if (left) {
        r[i - 1].len += n;
    } else if (right) {
        r[i].off = g;
        r[i].len += n;
    } else {
        memmove(&r[i + 1], &r[i], (p->runs - i) * sizeof *r);
        r[i] = (struct db_run){g, n};
        p->runs++;
    }
    return tp_take_waiters(&p->waiters);
}

void tp_pkts_put(struct tp_node *tp, uint32_t g)
{
    tp_lock(tp->db, &tp->db->pkt.lock);
    uint64_t w = tp_pkts_free_locked(tp, g, true);
    drv_shm_unlock(&tp->db->pkt.lock);
    tp_wake(tp, w);
}

void tp_pkts_put_taken(struct tp_node *tp, uint32_t g)
{
    tp_lock(tp->db, &tp->db->pkt.lock);
    uint64_t w = tp->len[g] && (tp->holder[g] & DB_FILLED) ? tp_pkts_free_locked(tp, g, true) : 0;
    drv_shm_unlock(&tp->db->pkt.lock);
    tp_wake(tp, w);
}

unsigned tp_pkts_free(struct tp_node *tp)
{
    struct db_pkts *p = &tp->db->pkt;
    tp_lock(tp->db, &p->lock);
    unsigned n = p->at.max - p->live;
    drv_shm_unlock(&p->lock);
    return n;
}

void tp_pkts_repair(struct db *db)
{
    struct db_pkts *p = &db->pkt;
    unsigned char *base = (unsigned char *)db;
    struct db_run *runs = (struct db_run *)(base + p->at.run_at);
    uint32_t *len = (uint32_t *)(base + p->at.len_at);
    uint8_t *holder = base + p->at.holder_at;
    unsigned char *arena = base + p->at.arena_at;
    p->runs = p->live = 0;
    for (uint32_t g = 0; g < p->at.granules;) {
        /* A get or a free cut between its stores of len and holder (in
         * either order) left a length nobody holds, which no reclaim would
         * free, or a holder of no packet: both are free granules. */
        if (len[g] && !holder[g]) {
            clear_at(arena, g, len[g]);
            len[g] = 0;
        }
        if (len[g]) {
            p->live++;
            g += len[g];
            continue;
        }
        holder[g] = 0;
        struct db_run *last = p->runs ? &runs[p->runs - 1] : NULL;
        if (last && last->off + last->len == g)
            last->len++;
        else
            runs[p->runs++] = (struct db_run){g, 1};
        g++;
    }
}

unsigned tp_pkts_reclaim(struct tp_node *tp, unsigned node, const bool *queued)
{
    struct db_pkts *p = &tp->db->pkt;
    unsigned k = 0;
    uint64_t w = 0;
    tp_lock(tp->db, &p->lock);
    for (uint32_t g = 0; g < p->at.granules;) {
        uint32_t n = tp->len[g];
        if (n && (tp->holder[g] & ~DB_FILLED) == node + 1 && !queued[g]) {
            w |= tp_pkts_free_locked(tp, g, true);
            k++;
        }
        g += n ? n : 1;
    }
    drv_shm_unlock(&p->lock);
    tp_wake(tp, w);
    return k;
}
