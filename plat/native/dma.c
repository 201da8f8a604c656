/*
 * dma.c -- the DMA engine and doorbells (native).
 *
 * The native engine is whichever thread runs it: a plat_dma_start on an idle
 * engine copies at once in the caller, marks the record complete and rings
 * the doorbell. Only a send to a receive channel with nothing posted
 * (plat_dma_send, rx.c) can hold an engine up; then it and every transfer
 * queued after it wait in the engine's queue, in order, and the receiver's
 * plat_rx_post runs the engine: the poster's thread does the copies.
 * plat_dma_start_push is a copy whose completion, in the same thread, first
 * pushes its descriptor (plat_hwq_push); the record keeps the push's status.
 *
 * Doorbells are a 32-bit pending mask per core (atomic OR to ring, atomic
 * AND-NOT to take) and a wait queue the ringer wakes.
 */
#include "native.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static_assert(sizeof(struct nat_dma) <= sizeof(plat_dma), "plat_dma too small");

struct nat_dma *nat_dma_rec(plat_dma *d, const char *call)
{
    NAT_NEED(d, call);
    return (struct nat_dma *)(void *)d->opaque;
}

void nat_engine_init(struct nat_engine *e)
{
    if (pthread_mutex_init(&e->lock, NULL) != 0) {
        fputs("ipcsim: native: cannot make a DMA engine's lock\n", stderr);
        abort();
    }
}

/* The copy is done: complete r and ring. r belongs to its owner again once
 * `done` is set, so read it before. */
static void finish(struct nat_dma *r)
{
    /* The push follows the copy, so a popper of desc finds the bytes (the
     * push publishes with release); its status is what d completes with. */
    if (r->kind == NAT_PUSH) r->arg = (uint32_t)nat_hwq_push(r->q, r->arg, r->desc);
    struct nat_ctx *ring = r->kind == NAT_COPY ? r->to : NULL;
    uint32_t bits = r->arg;
    void *dst = r->kind != NAT_SEND ? r->dst : NULL;
    size_t n = r->n;
    __atomic_store_n(&r->done, 1, __ATOMIC_SEQ_CST);
    nat_poll_wake(r); /* the record's waiter (plat_dma_wait), then pollers of dst */
    if (dst) nat_poll_wake_range(dst, n);
    if (ring) nat_ring(ring, bits);
}

/* Lock held. */
static void run(struct nat_engine *e)
{
    struct nat_dma *r;
    while ((r = e->head)) {
        if (r->kind == NAT_SEND) {
            if (!nat_rx_deliver(e, r)) return;
        } else if (r->n) {
            nat_move(r->dst, r->src, r->n); /* NAT_COPY, NAT_PUSH */
        }
        e->head = r->next;
        if (!e->head) e->tail = NULL;
        finish(r);
        /* After `done`: a copy that finds the queue empty runs at once, and
         * must find every earlier transfer complete. */
        __atomic_sub_fetch(&e->queued, 1, __ATOMIC_RELEASE);
    }
}

void nat_engine_run(struct nat_engine *e)
{
    pthread_mutex_lock(&e->lock);
    run(e);
    pthread_mutex_unlock(&e->lock);
}

void nat_engine_push(struct nat_ctx *c, struct nat_dma *r)
{
    struct nat_engine *e = &c->engine;
    r->next = NULL;
    pthread_mutex_lock(&e->lock);
    if (e->tail)
        e->tail->next = r;
    else
        e->head = r;
    e->tail = r;
    __atomic_add_fetch(&e->queued, 1, __ATOMIC_RELAXED);
    run(e);
    pthread_mutex_unlock(&e->lock);
}

/* Run r now when the engine is idle (no lock on the common path), else
 * queue it behind the engine's transfers. */
static int submit(struct nat_ctx *self, struct nat_dma *r)
{
    if (__atomic_load_n(&self->engine.queued, __ATOMIC_ACQUIRE) == 0) {
        if (r->n) nat_move(r->dst, r->src, r->n);
        finish(r);
    } else {
        nat_engine_push(self, r);
    }
    return PLAT_OK;
}

int nat_dma_start(plat_dma *d, void *dst, const void *src, size_t n, unsigned flags, int ring_core,
                  uint32_t ring_bits)
{
    struct nat_dma *r = nat_dma_rec(d, "plat_dma_start");
    struct nat_ctx *self = nat_self()->core;
    if (!(self->caps & PLAT_CAP_DMA)) return PLAT_ENOTSUP;
    struct nat_ctx *target = NULL;
    if ((flags & PLAT_DMA_RING) && !(target = nat_core_find(ring_core))) return PLAT_EINVAL;
    if (n && (!dst || !src)) return PLAT_EINVAL;
    __atomic_store_n(&r->done, 0, __ATOMIC_RELAXED);
    r->kind = NAT_COPY;
    r->dst = dst;
    r->src = src;
    r->n = n;
    r->to = target;
    r->arg = ring_bits;
    return submit(self, r);
}

int nat_dma_start_push(plat_dma *d, void *dst, const void *src, size_t n, plat_hwq *q,
                       unsigned queue, void *desc)
{
    struct nat_dma *r = nat_dma_rec(d, "plat_dma_start_push");
    struct nat_ctx *self = nat_self()->core;
    if (!(self->caps & PLAT_CAP_DMA)) return PLAT_ENOTSUP;
    if (!q || !desc || queue >= nat_hwq_queues(q) || (n && (!dst || !src))) return PLAT_EINVAL;
    __atomic_store_n(&r->done, 0, __ATOMIC_RELAXED);
    r->kind = NAT_PUSH;
    r->dst = dst;
    r->src = src;
    r->n = n;
    r->q = q;
    r->desc = desc;
    r->arg = queue;
    return submit(self, r);
}

/* A push transfer completes with its push's status, the others with PLAT_OK. */
static int result(const struct nat_dma *r)
{
    return r->kind == NAT_PUSH ? (int)r->arg : PLAT_OK;
}

static bool complete(const void *p)
{
    return __atomic_load_n(&((const struct nat_dma *)p)->done, __ATOMIC_ACQUIRE) != 0;
}

int nat_dma_test(plat_dma *d)
{
    struct nat_dma *r = nat_dma_rec(d, "plat_dma_test");
    return complete(r) ? result(r) : PLAT_EAGAIN;
}

int nat_dma_wait(plat_dma *d, uint64_t timeout_ns)
{
    struct nat_dma *r = nat_dma_rec(d, "plat_dma_wait");
    int st = nat_poll_wait(r, complete, r, timeout_ns);
    return st == PLAT_OK ? result(r) : st;
}

void nat_ring(struct nat_ctx *c, uint32_t bits)
{
    if (!bits) return;
    __atomic_fetch_or(&c->bell, bits, __ATOMIC_SEQ_CST);
    nat_wake_sc(&c->bell_wq, false);
}

void nat_doorbell_ring(int core, uint32_t bits)
{
    nat_ring(nat_core_at(core, "plat_doorbell_ring"), bits);
}

struct bell_arg {
    const uint32_t *bell;
    uint32_t mask;
};

static bool pending(const void *p)
{
    const struct bell_arg *a = p;
    return (__atomic_load_n(a->bell, __ATOMIC_ACQUIRE) & a->mask) != 0;
}

uint32_t nat_doorbell_wait(uint32_t mask, uint64_t timeout_ns)
{
    struct nat_ctx *c = nat_self()->core;
    struct bell_arg a = {&c->bell, mask};
    uint64_t deadline = nat_deadline(timeout_ns);
    for (;;) {
        uint64_t now = nat_now();
        uint64_t left = deadline == PLAT_FOREVER ? PLAT_FOREVER
                        : deadline > now         ? deadline - now
                                                 : 0;
        if (nat_wait(&c->bell_wq, false, 0, pending, &a, left) != PLAT_OK) return 0;
        /* Another thread of the core may take the bits first: then wait on. */
        uint32_t got = __atomic_fetch_and(&c->bell, ~mask, __ATOMIC_ACQ_REL) & mask;
        if (got) return got;
    }
}
