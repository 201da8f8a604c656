/*
 * transport/shm/queue.c -- a receive queue: MCAPI_MAX_QUEUE_ELEMENTS entries,
 * one list per priority, FIFO within a priority.
 *
 * Entries are linked by index (the region holds no pointers). `reserved`
 * counts entries promised to a transfer in progress (a virtual node's
 * reply), so the queue is full at count + reserved.
 */
#include "db.h"

#include <stdatomic.h>

void tp_q_init(struct db_queue *q)
{
    for (unsigned p = 0; p < DB_NPRIO; p++) q->head[p] = q->tail[p] = Q_NONE;
    for (unsigned i = 0; i < MCAPI_MAX_QUEUE_ELEMENTS; i++)
        q->e[i].next = (uint8_t)(i + 1 < MCAPI_MAX_QUEUE_ELEMENTS ? i + 1 : Q_NONE);
    q->free = 0;
    q->count = 0;
    q->reserved = 0;
}

bool tp_q_full(const struct db_queue *q)
{
    return q->count + q->reserved >= MCAPI_MAX_QUEUE_ELEMENTS;
}

unsigned tp_q_count(const struct db_queue *q)
{
    return q->count;
}

void tp_q_push(struct db_queue *q, uint64_t data, uint32_t size, unsigned prio)
{
    uint8_t i = q->free;
    struct db_entry *e = &q->e[i];
    q->free = e->next;
    e->data = data;
    e->size = size;
    e->prio = (uint8_t)prio;
    e->next = Q_NONE;
    /* Filled before linked, also for the compiler: a process killed here
     * leaves an entry tp_q_repair either reaches whole or not at all. */
    atomic_signal_fence(memory_order_seq_cst);
    if (q->tail[prio] == Q_NONE)
        q->head[prio] = i;
    else
        q->e[q->tail[prio]].next = i;
    q->tail[prio] = i;
    q->count++;
}

/* The queue's lock was abandoned (held): a push or pop was cut anywhere.
 * What the priority lists reach from their heads is the queue (an entry
 * linked in is delivered, one not yet linked was never sent); everything
 * else is free. Tails, counts and the free list are rebuilt from that. */
void tp_q_repair(struct db_queue *q)
{
    bool in[MCAPI_MAX_QUEUE_ELEMENTS] = {false};
    unsigned count = 0;
    for (unsigned p = 0; p < DB_NPRIO; p++) {
        uint8_t last = Q_NONE;
        for (uint8_t i = q->head[p]; i < MCAPI_MAX_QUEUE_ELEMENTS && !in[i]; i = q->e[i].next) {
            in[i] = true;
            q->e[i].prio = (uint8_t)p;
            last = i;
            count++;
        }
        if (last == Q_NONE)
            q->head[p] = Q_NONE;
        else
            q->e[last].next = Q_NONE;
        q->tail[p] = last;
    }
    q->free = Q_NONE;
    for (unsigned i = MCAPI_MAX_QUEUE_ELEMENTS; i-- > 0;)
        if (!in[i]) {
            q->e[i].next = q->free;
            q->free = (uint8_t)i;
        }
    q->count = (uint8_t)count;
    if (q->count + q->reserved > MCAPI_MAX_QUEUE_ELEMENTS)
        q->reserved = (uint8_t)(MCAPI_MAX_QUEUE_ELEMENTS - q->count);
}

/* Set mark[data] for every entry (lock held): the buffers it holds. */
void tp_q_mark(const struct db_queue *q, bool *mark, unsigned n)
{
    for (unsigned p = 0; p < DB_NPRIO; p++)
        for (uint8_t i = q->head[p]; i != Q_NONE; i = q->e[i].next)
            if (q->e[i].data < n) mark[q->e[i].data] = true;
}

const struct db_entry *tp_q_peek(const struct db_queue *q)
{
    for (unsigned p = 0; p < DB_NPRIO; p++)
        if (q->head[p] != Q_NONE) return &q->e[q->head[p]];
    return NULL;
}

void tp_q_pop(struct db_queue *q, struct db_entry *out)
{
    const struct db_entry *head = tp_q_peek(q);
    unsigned p = head->prio;
    uint8_t i = q->head[p];
    *out = q->e[i];
    q->head[p] = q->e[i].next;
    if (q->head[p] == Q_NONE) q->tail[p] = Q_NONE;
    q->e[i].next = q->free;
    q->free = i;
    q->count--;
}
