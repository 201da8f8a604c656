/*
 * hwq.c -- hardware queues as lock-free rings (native).
 *
 * Each numbered queue is a bounded multi-producer multi-consumer ring after
 * Dmitry Vyukov's design: every cell carries a sequence number that says
 * whether it is free for the push at position pos (seq == pos) or holds the
 * item for the pop at pos (seq == pos + 1). Push and pop claim a position
 * with one CAS and never wait for each other; the capacity is exactly the
 * configured depth. plat_hwq_wait spins, then sleeps on the queue's wait
 * queue, which a push wakes only when someone sleeps. A queue's cells are
 * allocated by its first push: a manager of 8192 queues 16384 deep (the
 * QMSS) would otherwise take 2 GiB for the few queues a run uses.
 */
#include "native.h"

#include <stdlib.h>

struct cell {
    uint64_t seq;
    void *desc;
};

struct queue {
    _Alignas(64) uint64_t push; /* next position to push; own cache line */
    _Alignas(64) uint64_t pop;
    _Alignas(64) struct nat_wq wq;
    struct cell *cells; /* NULL until the first push */
};

struct plat_hwq {
    unsigned nq;
    uint64_t depth;
    struct queue *q;
};

#define DEFAULT_QUEUES 64
#define DEFAULT_DEPTH 1024

void *nat_hwq_new(const struct plat_dev_desc *dev, int *status)
{
    long nq, depth;
    if ((*status = nat_dev_param(dev, "queues", DEFAULT_QUEUES, 1, 1 << 16, &nq)) != PLAT_OK ||
        (*status = nat_dev_param(dev, "depth", DEFAULT_DEPTH, 1, 1 << 24, &depth)) != PLAT_OK)
        return NULL;
    *status = PLAT_ENOMEM;
    plat_hwq *h = calloc(1, sizeof *h);
    struct queue *q = h ? nat_zalloc((size_t)nq * sizeof *q, 64) : NULL;
    if (!q) {
        free(h);
        return NULL;
    }
    h->nq = (unsigned)nq;
    h->depth = (uint64_t)depth;
    h->q = q;
    *status = PLAT_OK;
    return h;
}

/* q's cells, or NULL when no push has made them yet. */
static struct cell *cells_of(const struct queue *q)
{
    return __atomic_load_n(&q->cells, __ATOMIC_ACQUIRE);
}

/* q's cells, made by the first caller (NULL: out of memory); racing first
 * pushes keep the one installed first. */
static struct cell *cells_made(plat_hwq *h, struct queue *q)
{
    struct cell *c = cells_of(q);
    if (c) return c;
    if (!(c = malloc((size_t)h->depth * sizeof *c))) return NULL;
    for (uint64_t j = 0; j < h->depth; j++) c[j].seq = j;
    struct cell *none = NULL;
    if (__atomic_compare_exchange_n(&q->cells, &none, c, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return c;
    free(c);
    return none;
}

plat_hwq *nat_hwq_open(const char *name, int *status)
{
    return nat_dev_open(name, NAT_HWQ, status);
}

unsigned nat_hwq_queues(plat_hwq *h)
{
    NAT_NEED(h, "plat_hwq_queues");
    return h->nq;
}

static struct queue *queue(plat_hwq *h, unsigned i, const char *call)
{
    NAT_NEED(h, call);
    return i < h->nq ? &h->q[i] : NULL;
}

int nat_hwq_push(plat_hwq *h, unsigned i, void *desc)
{
    struct queue *q = queue(h, i, "plat_hwq_push");
    if (!q || !desc) return PLAT_EINVAL; /* NULL is what pop says for "empty" */
    struct cell *cells = cells_made(h, q), *c;
    if (!cells) return PLAT_ENOMEM;
    uint64_t pos = __atomic_load_n(&q->push, __ATOMIC_RELAXED);
    for (;;) {
        c = &cells[pos % h->depth];
        int64_t d = (int64_t)(__atomic_load_n(&c->seq, __ATOMIC_ACQUIRE) - pos);
        if (d == 0) {
            if (__atomic_compare_exchange_n(&q->push, &pos, pos + 1, true, __ATOMIC_RELAXED,
                                            __ATOMIC_RELAXED))
                break;
        } else if (d < 0) {
            return PLAT_ENOMEM; /* the cell still holds the item of one lap ago: full */
        } else {
            pos = __atomic_load_n(&q->push, __ATOMIC_RELAXED);
        }
    }
    c->desc = desc;
    __atomic_store_n(&c->seq, pos + 1, __ATOMIC_RELEASE);
    nat_wake(&q->wq, false);
    return PLAT_OK;
}

void *nat_hwq_pop(plat_hwq *h, unsigned i)
{
    struct queue *q = queue(h, i, "plat_hwq_pop");
    struct cell *cells = q ? cells_of(q) : NULL, *c;
    if (!cells) return NULL; /* no such queue, or never pushed: empty */
    uint64_t pos = __atomic_load_n(&q->pop, __ATOMIC_RELAXED);
    for (;;) {
        c = &cells[pos % h->depth];
        int64_t d = (int64_t)(__atomic_load_n(&c->seq, __ATOMIC_ACQUIRE) - (pos + 1));
        if (d == 0) {
            if (__atomic_compare_exchange_n(&q->pop, &pos, pos + 1, true, __ATOMIC_RELAXED,
                                            __ATOMIC_RELAXED))
                break;
        } else if (d < 0) {
            return NULL; /* empty (or the head push is not published yet) */
        } else {
            pos = __atomic_load_n(&q->pop, __ATOMIC_RELAXED);
        }
    }
    void *desc = c->desc;
    __atomic_store_n(&c->seq, pos + h->depth, __ATOMIC_RELEASE);
    return desc;
}

unsigned nat_hwq_count(plat_hwq *h, unsigned i)
{
    struct queue *q = queue(h, i, "plat_hwq_count");
    if (!q) return 0;
    uint64_t out = __atomic_load_n(&q->pop, __ATOMIC_ACQUIRE);
    uint64_t in = __atomic_load_n(&q->push, __ATOMIC_ACQUIRE);
    int64_t n = (int64_t)(in - out); /* racy snapshot: clamp */
    return n < 0 ? 0 : n > (int64_t)h->depth ? (unsigned)h->depth : (unsigned)n;
}

struct head {
    struct queue *q;
    uint64_t depth;
};

/* Would a pop succeed now? (The head cell holds a published item.) */
static bool ready(const void *p)
{
    const struct head *a = p;
    const struct cell *cells = cells_of(a->q);
    if (!cells) return false;
    uint64_t pos = __atomic_load_n(&a->q->pop, __ATOMIC_ACQUIRE);
    const struct cell *c = &cells[pos % a->depth];
    return __atomic_load_n(&c->seq, __ATOMIC_ACQUIRE) == pos + 1;
}

int nat_hwq_wait(plat_hwq *h, unsigned i, uint64_t timeout_ns)
{
    struct queue *q = queue(h, i, "plat_hwq_wait");
    if (!q) return PLAT_EINVAL;
    struct head a = {q, h->depth};
    return nat_wait(&q->wq, false, 0, ready, &a, timeout_ns);
}
