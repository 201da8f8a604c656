/*
 * transport/shm/ring.c -- a channel's queue: a ring with one sender and one
 * receiver, and no lock.
 *
 * A channel has exactly one sending and one receiving end, each used by
 * its endpoint's node alone (a node is one thread of control), so the
 * sender writes a slot and publishes it by storing `tail`, and the
 * receiver reads the slot and gives it back by storing `head`. Each side
 * keeps its last look at the other's counter on its own line and loads
 * the other's counter only when that look says full (or empty). A store
 * of a counter is the one transaction of a push or pop in simulation (and
 * a load of the other's counter when the look ran out), in place of the
 * lock pair of the message queues; natively a sequentially consistent
 * store, because each side then loads `waiters` (below).
 *
 * Waiting: a side that finds the ring full (empty) sets its node's bit in
 * the channel's `waiters` with an atomic or, then looks again; a side that
 * has stored its counter loads `waiters` and, if it is not zero, takes it
 * and wakes those nodes. The store and the load on each side are ordered
 * (sequentially consistent), so either the waiter's second look sees the
 * change or the changer sees the bit. Bits are set and taken with host
 * atomics: the under-lock masks of the other objects are host work too.
 *
 * Counters never wrap in practice (64 bits) and index slots modulo the
 * depth; a dead process's push or pop cut half way is one not made, as
 * its counter store is the commit.
 */
#include "db.h"

#define DEPTH MCAPI_MAX_QUEUE_ELEMENTS

void tp_ring_init(struct db_ring *r)
{
    r->tail = r->head = r->head_seen = r->tail_seen = 0;
}

unsigned tp_ring_count(const struct db_ring *r)
{
    uint64_t h = plat_load64(&r->head);
    return (unsigned)(plat_load64(&r->tail) - h);
}

static bool full(struct db_ring *r)
{
    if (r->tail - r->head_seen < DEPTH) return false;
    r->head_seen = plat_load64(&r->head);
    return r->tail - r->head_seen >= DEPTH;
}

bool tp_ring_push(struct db_ring *r, uint64_t data, uint32_t size)
{
    if (full(r)) return false;
    struct db_slot *s = &r->e[r->tail % DEPTH];
    s->data = data;
    s->size = size;
    plat_store64(&r->tail, r->tail + 1);
    return true;
}

const struct db_slot *tp_ring_peek(struct db_ring *r)
{
    if (r->tail_seen == r->head) {
        r->tail_seen = plat_load64(&r->tail);
        if (r->tail_seen == r->head) return NULL;
    }
    return &r->e[r->head % DEPTH];
}

void tp_ring_pop(struct db_ring *r)
{
    plat_store64(&r->head, r->head + 1);
}

/* ---- Waiting ---------------------------------------------------------- */

static bool wait(struct tp_node *tp, struct db_chan *c, enum tp_dir side)
{
    __atomic_fetch_or(&c->waiters, tp->bit, __ATOMIC_SEQ_CST);
    return side == TP_SEND ? full(&c->ring) : !tp_ring_peek(&c->ring);
}

static void wake(struct tp_node *tp, struct db_chan *c)
{
    if (plat_load64(&c->waiters)) tp_wake(tp, tp_ring_take(c));
}

uint64_t tp_ring_take(struct db_chan *c)
{
    return __atomic_exchange_n(&c->waiters, 0, __ATOMIC_SEQ_CST);
}

/* The state of end d: chan.c stores it under the channel's lock and then
 * takes the waiters, so a side that set its bit and then loads the state
 * sees a close it was not woken for. */
static unsigned side_of(const struct db_chan *c, enum tp_dir d)
{
    return __atomic_load_n(&c->side[d], __ATOMIC_SEQ_CST);
}

/* A receiving end closed after the look at it drops what the sender
 * pushes with the rest when the sending end closes (chan.c). */
mcapi_status_t tp_ring_send(struct tp_node *tp, struct db_chan *c, uint64_t data, uint32_t size)
{
    if (side_of(c, TP_RECV) == SIDE_CLOSED) return MCAPI_ERR_CHAN_NOTOPEN;
    if (!tp_ring_push(&c->ring, data, size)) {
        if (c->fail) return MCAPI_ERR_MEM_LIMIT;
        if (wait(tp, c, TP_SEND)) return MCAPI_PENDING;
        (void)tp_ring_push(&c->ring, data, size); /* the room seen stays: one sender */
    }
    wake(tp, c);
    return MCAPI_SUCCESS;
}

mcapi_status_t tp_ring_next(struct tp_node *tp, struct db_chan *c, const struct db_slot **x)
{
    if ((*x = tp_ring_peek(&c->ring)) || !wait(tp, c, TP_RECV)) {
        *x = tp_ring_peek(&c->ring);
        return MCAPI_SUCCESS;
    }
    if (side_of(c, TP_SEND) != SIDE_CLOSED) return MCAPI_PENDING;
    /* Closed: a last push before the close is visible by now. */
    return (*x = tp_ring_peek(&c->ring)) ? MCAPI_SUCCESS : MCAPI_ERR_CHAN_NOTOPEN;
}

void tp_ring_done(struct tp_node *tp, struct db_chan *c)
{
    tp_ring_pop(&c->ring);
    wake(tp, c);
}

/* ---- What another node sees (the channel's lock held) ------------------ */

/* Set mark[data] for every queued slot. The receiver may pop meanwhile; a
 * slot it gave back and the sender refilled is then seen with the new
 * packet's granule, which is the live sender's. */
void tp_ring_mark(const struct db_ring *r, bool *mark, unsigned n)
{
    uint64_t h = plat_load64(&r->head), t = plat_load64(&r->tail);
    for (; h != t; h++) {
        uint64_t d = __atomic_load_n(&r->e[h % DEPTH].data, __ATOMIC_RELAXED);
        if (d < n) mark[d] = true;
    }
}
