/*
 * mem.c -- atomics, timed accesses and memory blocks (native).
 *
 * Timed accesses are plain seq_cst atomics and memcpy. Every interface write
 * (store, CAS, add, copy; DMA in dma.c) wakes the sleepers of plat_poll64, as
 * in simulation; with nobody asleep that costs one load. A poller sleeping
 * after its spin also rechecks every NAT_POLL_RECHECK_NS, because plain C
 * stores and other processes write without telling anybody.
 *
 * Natively there is no scratchpad: local memory is heap memory, handed out
 * only to cores with PLAT_CAP_LOCAL_MEM and only up to the size of the
 * core's block at a time, so that libraries take the same paths (and hit the
 * same limits) as on the hardware.
 */
#include "native.h"

#include <stdlib.h>
#include <string.h>

uint64_t nat_load64(const uint64_t *p)
{
    return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}

void nat_store64(uint64_t *p, uint64_t v)
{
    __atomic_store_n(p, v, __ATOMIC_SEQ_CST);
    nat_poll_wake(p);
}

/* No store-load fence, so the look for sleepers is a copy's (it may miss
 * one that is falling asleep; that one sees v at its recheck). */
void nat_store64_release(uint64_t *p, uint64_t v)
{
    __atomic_store_n(p, v, __ATOMIC_RELEASE);
    nat_poll_wake_range(p, sizeof *p);
}

static void need_cap(unsigned cap, const char *call, const char *capname)
{
    struct nat_ctx *c = nat_self()->core;
    if (!(c->caps & cap)) nat_die("%s needs %s", call, capname);
}

bool nat_cas64(uint64_t *p, uint64_t *expected, uint64_t desired)
{
    need_cap(PLAT_CAP_CAS, "plat_cas64", "PLAT_CAP_CAS");
    bool ok = __atomic_compare_exchange_n(p, expected, desired, false, __ATOMIC_SEQ_CST,
                                          __ATOMIC_SEQ_CST);
    if (ok) nat_poll_wake(p);
    return ok;
}

uint64_t nat_fetch_add64(uint64_t *p, uint64_t delta)
{
    need_cap(PLAT_CAP_FETCH_ADD, "plat_fetch_add64", "PLAT_CAP_FETCH_ADD");
    uint64_t old = __atomic_fetch_add(p, delta, __ATOMIC_SEQ_CST);
    nat_poll_wake(p);
    return old;
}

struct poll_arg {
    const uint64_t *p;
    uint64_t old;
};

static bool changed(const void *p)
{
    const struct poll_arg *a = p;
    return __atomic_load_n(a->p, __ATOMIC_SEQ_CST) != a->old;
}

int nat_poll64(const uint64_t *p, uint64_t old, uint64_t timeout_ns)
{
    struct poll_arg a = {p, old};
    return nat_poll_wait(p, changed, &a, timeout_ns);
}

/* A copy that another core may be polling (plat_poll64 on a word of dst).
 * Natively that is memcpy: like a DMA engine, a copy is not word-atomic, and
 * plat.h tells a reader that needs all of dst to wait for a plat_store64
 * written after the copy. Under ThreadSanitizer the whole aligned words are
 * stored atomically instead, so that the documented polling of a copied word
 * is not reported as a race (a plain store racing an atomic load is undefined
 * in C11); that path is 3-4x slower than memcpy for large copies. */
void nat_move(void *dst, const void *src, size_t n)
{
#ifdef __SANITIZE_THREAD__
    unsigned char *d = dst;
    const unsigned char *s = src;
    size_t head = (size_t)(-(uintptr_t)d & 7);
    if (head > n) head = n;
    memcpy(d, s, head);
    d += head, s += head, n -= head;
    for (; n >= 8; d += 8, s += 8, n -= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        __atomic_store_n((uint64_t *)(void *)d, w, __ATOMIC_RELAXED);
    }
    memcpy(d, s, n);
#else
    memcpy(dst, src, n);
#endif
}

void nat_copy(void *dst, const void *src, size_t n)
{
    if (n == 0) return;
    nat_move(dst, src, n);
    nat_poll_wake_range(dst, n);
}

/* Natively there is no trace to put a mark in. */
void nat_mark(int on)
{
    (void)on;
}

/* Natively the caller's loads are the real ones: nothing to charge. */
void nat_touch(const void *p, size_t n)
{
    (void)p;
    (void)n;
}

void *nat_zalloc(size_t size, size_t align)
{
    if (align < 16) align = 16;
    if (align & (align - 1)) return NULL;
    if (size == 0) size = 1;
    if (size > SIZE_MAX - align) return NULL;
    size = (size + align - 1) & ~(align - 1); /* aligned_alloc wants a multiple */
    void *p = aligned_alloc(align, size);
    if (p) memset(p, 0, size);
    return p;
}

/* In front of every local allocation: what free must undo. */
struct local_hdr {
    void *base;
    size_t size;
    struct nat_ctx *core;
    size_t pad;
};

/* Take n bytes of the core's block; false if they do not fit. */
static bool local_take(struct nat_ctx *c, size_t n)
{
    if (!c->local_bytes) return true;
    size_t used = __atomic_load_n(&c->local_used, __ATOMIC_RELAXED);
    do
        if (n > c->local_bytes - used) return false;
    while (!__atomic_compare_exchange_n(&c->local_used, &used, used + n, true, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED));
    return true;
}

void *nat_local_alloc(size_t size, size_t align)
{
    struct nat_ctx *c = nat_self()->core;
    if (!(c->caps & PLAT_CAP_LOCAL_MEM)) return NULL;
    if (align < sizeof(struct local_hdr)) align = sizeof(struct local_hdr);
    if ((align & (align - 1)) || size > SIZE_MAX / 2 - align) return NULL;
    if (!local_take(c, size)) return NULL;
    char *base = malloc(size + align + sizeof(struct local_hdr));
    if (!base) {
        if (c->local_bytes) __atomic_fetch_sub(&c->local_used, size, __ATOMIC_RELAXED);
        return NULL;
    }
    uintptr_t at =
        ((uintptr_t)base + sizeof(struct local_hdr) + align - 1) & ~(uintptr_t)(align - 1);
    char *p = base + (at - (uintptr_t)base);
    struct local_hdr *h = (struct local_hdr *)(void *)(p - sizeof *h);
    h->base = base;
    h->size = size;
    h->core = c;
    memset(p, 0, size);
    return p;
}

void nat_local_free(void *p)
{
    if (!p) return;
    struct local_hdr *h = (struct local_hdr *)p - 1;
    if (h->core->local_bytes) __atomic_fetch_sub(&h->core->local_used, h->size, __ATOMIC_RELAXED);
    free(h->base);
}

void *nat_shared_alloc(size_t size, size_t align)
{
    return nat_zalloc(size, align);
}
/* One host memory: every name is it. */
void *nat_mem_alloc(const char *memory, size_t size, size_t align, int *status)
{
    int st = PLAT_OK;
    void *p = NULL;
    if (!memory || (align & (align - 1)))
        st = PLAT_EINVAL;
    else if (!(p = nat_shared_alloc(size, align)))
        st = PLAT_ENOMEM;
    if (status) *status = st;
    return p;
}
void nat_shared_free(void *p)
{
    free(p);
}

/* One host memory: nothing to place. The checks are those a pointer alone
 * allows (natively any address may be shared, by another process too). */
int nat_shared_home(const void *p, size_t n, int core)
{
    if (!p || n == 0 || (uintptr_t)p > UINTPTR_MAX - n || core < 0 || core >= nat_cores())
        return PLAT_EINVAL;
    return PLAT_OK;
}
