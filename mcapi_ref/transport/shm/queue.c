/*
 * transport/shm/queue.c -- a receive queue: MCAPI_MAX_QUEUE_ELEMENTS entries,
 * one list per priority, FIFO within a priority.
 *
 * Entries are linked by index (the region holds no pointers). `reserved`
 * counts entries promised to a transfer in progress (a virtual node's
 * reply), so the queue is full at count + reserved.
 */
#include "db.h"

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
    if (q->tail[prio] == Q_NONE)
        q->head[prio] = i;
    else
        q->e[q->tail[prio]].next = i;
    q->tail[prio] = i;
    q->count++;
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
