/*
 * dma.c -- DMA and doorbells (native).
 *
 * The native "engine" is the calling thread: plat_dma_start copies at once,
 * marks the record complete and rings the doorbell, so transfers of one core
 * complete in order and plat_dma_wait never sleeps after a start.
 *
 * Doorbells are a 32-bit pending mask per core (atomic OR to ring, atomic
 * AND-NOT to take) and a wait queue the ringer wakes.
 */
#include "native.h"

#include <assert.h>
#include <string.h>

struct nat_dma {
    uint64_t done; /* 1 once the copy is complete */
} NAT_ALIAS;

static_assert(sizeof(struct nat_dma) <= sizeof(plat_dma), "plat_dma too small");

static struct nat_dma *rec(plat_dma *d, const char *call)
{
    NAT_NEED(d, call);
    return (struct nat_dma *)(void *)d->opaque;
}

int nat_dma_start(plat_dma *d, void *dst, const void *src, size_t n, unsigned flags, int ring_core,
                  uint32_t ring_bits)
{
    struct nat_dma *r = rec(d, "plat_dma_start");
    if (!(nat_self()->core->caps & PLAT_CAP_DMA)) return PLAT_ENOTSUP;
    struct nat_ctx *target = NULL;
    if ((flags & PLAT_DMA_RING) && !(target = nat_core_find(ring_core))) return PLAT_EINVAL;
    if (n && (!dst || !src)) return PLAT_EINVAL;
    __atomic_store_n(&r->done, 0, __ATOMIC_RELAXED);
    if (n) nat_move(dst, src, n);
    __atomic_store_n(&r->done, 1, __ATOMIC_SEQ_CST);
    nat_wake(&nat_poll_wq, false); /* pollers of dst (and of the record) */
    if (target) nat_doorbell_ring(ring_core, ring_bits);
    return PLAT_OK;
}

static bool complete(const void *p)
{
    return __atomic_load_n(&((const struct nat_dma *)p)->done, __ATOMIC_ACQUIRE) != 0;
}

int nat_dma_test(plat_dma *d)
{
    return complete(rec(d, "plat_dma_test")) ? PLAT_OK : PLAT_EAGAIN;
}

int nat_dma_wait(plat_dma *d, uint64_t timeout_ns)
{
    struct nat_dma *r = rec(d, "plat_dma_wait");
    return nat_wait(&nat_poll_wq, false, NAT_POLL_RECHECK_NS, complete, r, timeout_ns);
}

void nat_doorbell_ring(int core, uint32_t bits)
{
    struct nat_ctx *c = nat_core_at(core, "plat_doorbell_ring");
    if (!bits) return;
    __atomic_fetch_or(&c->bell, bits, __ATOMIC_SEQ_CST);
    nat_wake_sc(&c->bell_wq, false);
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
