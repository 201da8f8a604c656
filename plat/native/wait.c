/*
 * wait.c -- spin-then-sleep waiting (native).
 *
 * Every blocking call of the backend waits here. Sleeping and being woken by
 * another core costs ~23 us on the 2-vCPU VM while a spinning waiter sees a
 * store within a few hundred nanoseconds, so a waiter first spins for
 * NAT_SPIN_NS and only then sleeps on a futex. The futex word is an epoch the
 * waker advances only when someone sleeps: a wake with no sleeper costs one
 * load (after a fence).
 */
#define _GNU_SOURCE
#include "native.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Padded: sleepers of different buckets do not share a line. */
static struct {
    _Alignas(64) struct nat_wq wq;
} poll_wq[NAT_POLL_BUCKETS];

static size_t bucket_of(const void *addr)
{
    /* Words, Fibonacci-hashed: neighbouring words land in different buckets. */
    return (size_t)(((uint64_t)(uintptr_t)addr >> 3) * 0x9e3779b97f4a7c15ull >> 54);
}

/* Threads inside nat_poll_wait, all buckets together: a wake of a long
 * range looks here before it looks at every bucket. */
uint32_t nat_poll_waiters;

struct nat_wq *nat_poll_wq(const void *addr)
{
    return &poll_wq[bucket_of(addr)].wq;
}

uint64_t nat_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t nat_deadline(uint64_t timeout_ns)
{
    uint64_t now = nat_now();
    return timeout_ns >= PLAT_FOREVER - now ? PLAT_FOREVER : now + timeout_ns;
}

/* The store-load barrier between "I changed the condition" and "does anybody
 * sleep?" (and, on the waiter's side, "I sleep" and "is it ready?"). TSan
 * cannot model fences, so there the same order comes from an RMW on the
 * waiter count, which every sleeper also modifies. */
static uint32_t sleepers(struct nat_wq *w)
{
#ifdef __SANITIZE_THREAD__
    return __atomic_fetch_add(&w->waiters, 0, __ATOMIC_SEQ_CST);
#else
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return __atomic_load_n(&w->waiters, __ATOMIC_RELAXED);
#endif
}

static void futex_wait(uint32_t *word, uint32_t val, uint64_t ns, bool shared)
{
    struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000u),
                          .tv_nsec = (long)(ns % 1000000000u)};
    syscall(SYS_futex, word, shared ? FUTEX_WAIT : FUTEX_WAIT_PRIVATE, val,
            ns == PLAT_FOREVER ? NULL : &ts, NULL, 0);
}

static void futex_wake_all(uint32_t *word, bool shared)
{
    syscall(SYS_futex, word, shared ? FUTEX_WAKE : FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

int nat_wait(struct nat_wq *w, bool shared, uint64_t recheck_ns, nat_ready_fn ready,
             const void *arg, uint64_t timeout_ns)
{
    if (ready(arg)) return PLAT_OK;
    if (timeout_ns == 0) return PLAT_ETIMEDOUT;
    uint64_t now = nat_now();
    uint64_t deadline = timeout_ns >= PLAT_FOREVER - now ? PLAT_FOREVER : now + timeout_ns;
    uint64_t spin_end = deadline - now < NAT_SPIN_NS ? deadline : now + NAT_SPIN_NS;

    for (unsigned i = 1;; i++) {
        nat_pause();
        if (ready(arg)) return PLAT_OK;
        if (i % 64 == 0 && nat_now() >= spin_end) break;
    }

    __atomic_fetch_add(&w->waiters, 1, __ATOMIC_SEQ_CST);
    int rc = PLAT_ETIMEDOUT;
    for (;;) {
        uint32_t e = __atomic_load_n(&w->epoch, __ATOMIC_ACQUIRE);
#ifndef __SANITIZE_THREAD__
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
        if (ready(arg)) {
            rc = PLAT_OK;
            break;
        }
        now = nat_now();
        if (now >= deadline) break;
        uint64_t ns = deadline == PLAT_FOREVER ? PLAT_FOREVER : deadline - now;
        if (recheck_ns && ns > recheck_ns) ns = recheck_ns;
        futex_wait(&w->epoch, e, ns, shared);
    }
    __atomic_fetch_sub(&w->waiters, 1, __ATOMIC_RELAXED);
    return rc;
}

/* Somebody sleeps on w: advance its epoch and wake them all. */
static void wake_sleepers(struct nat_wq *w, bool shared)
{
    __atomic_add_fetch(&w->epoch, 1, __ATOMIC_RELEASE);
    futex_wake_all(&w->epoch, shared);
}

void nat_wake(struct nat_wq *w, bool shared)
{
    if (sleepers(w)) wake_sleepers(w, shared);
}

void nat_wake_sc(struct nat_wq *w, bool shared)
{
#ifdef __SANITIZE_THREAD__
    nat_wake(w, shared);
#else
    if (__atomic_load_n(&w->waiters, __ATOMIC_SEQ_CST)) wake_sleepers(w, shared);
#endif
}

void nat_bump(struct nat_wq *w, bool shared)
{
    __atomic_add_fetch(&w->epoch, 1, __ATOMIC_SEQ_CST);
    if (sleepers(w)) futex_wake_all(&w->epoch, shared);
}

/* A word of a region other processes map: its queue in the region's
 * object (shm.c), by offset, so every process finds the same one. */
static size_t span_bucket(const struct nat_span *sp, uintptr_t a)
{
    return (size_t)((((uint64_t)(a - sp->lo) >> 3) * 0x9e3779b97f4a7c15ull) >> 58) % NAT_SHM_WQS;
}

static struct nat_wq *span_queue(const struct nat_span *sp, size_t b)
{
    return (struct nat_wq *)(void *)((char *)sp->wq + b * sp->stride);
}

static struct nat_wq *span_wq(const struct nat_span *sp, uintptr_t a)
{
    return span_queue(sp, span_bucket(sp, a));
}

/* After a sequentially consistent write of p (store, CAS, add): that write
 * and the load of nat_poll_waiters are ordered, so nobody counted means nobody
 * who could have missed the write is asleep. */
void nat_poll_look(const void *p)
{
    const struct nat_span *sp = nat_shm_span(p);
    if (sp) {
        nat_wake_sc(span_wq(sp, (uintptr_t)p), true);
        return;
    }
#ifndef __SANITIZE_THREAD__
    if (!__atomic_load_n(&nat_poll_waiters, __ATOMIC_SEQ_CST)) return;
#endif
    nat_wake_sc(nat_poll_wq(p), false);
}

int nat_poll_wait(const void *addr, nat_ready_fn ready, const void *arg, uint64_t timeout_ns)
{
    const struct nat_span *sp = nat_shm_span(addr);
    if (sp) /* the recheck stays: plain stores into the region wake nobody */
        return nat_wait(span_wq(sp, (uintptr_t)addr), true, NAT_SHM_RECHECK_NS, ready, arg,
                        timeout_ns);
    __atomic_fetch_add(&nat_poll_waiters, 1, __ATOMIC_SEQ_CST);
    int rc = nat_wait(nat_poll_wq(addr), false, NAT_POLL_RECHECK_NS, ready, arg, timeout_ns);
    __atomic_fetch_sub(&nat_poll_waiters, 1, __ATOMIC_RELAXED);
    return rc;
}

#define RANGE_WORDS 32 /* longer ranges look at every bucket */

/* nat_wake after the caller's fence: the store-load order is already
 * there, a plain look at the count will do (TSan: nat_wake's RMW). */
static void wake_fenced(struct nat_wq *w, bool shared)
{
#ifdef __SANITIZE_THREAD__
    nat_wake(w, shared);
#else
    if (__atomic_load_n(&w->waiters, __ATOMIC_RELAXED)) wake_sleepers(w, shared);
#endif
}

_Static_assert(NAT_SHM_WQS <= 64, "span_wake_range keeps a span's queues in one 64-bit mask");

/* nat_poll_wake_range inside a span: its queues are shared with other
 * processes, whose sleepers nat_poll_waiters does not count. The queues the
 * range hashes to go into a mask first: each is looked at (and, with
 * sleepers, woken: a system call) once however many of its words the range
 * holds, and all of them after one store-load fence instead of a fence per
 * word. */
static void span_wake_range(const struct nat_span *sp, uintptr_t first, uintptr_t last)
{
    uint64_t queues = 0;
    if ((last - first) / 8 + 1 > NAT_SHM_WQS)
        queues = ~0ull >> (64 - NAT_SHM_WQS);
    else
        for (uintptr_t a = first; a <= last; a += 8) queues |= 1ull << span_bucket(sp, a);
#ifndef __SANITIZE_THREAD__
    __atomic_thread_fence(__ATOMIC_SEQ_CST); /* TSan: wake_fenced's RMW per queue */
#endif
    for (; queues; queues &= queues - 1)
        wake_fenced(span_queue(sp, (size_t)__builtin_ctzll(queues)), true);
}

void nat_poll_look_range(const void *p, size_t n)
{
    if (n == 0) return;
    const struct nat_span *sp = nat_shm_span(p);
    if (sp) {
        uintptr_t last = ((uintptr_t)p + n - 1) & ~(uintptr_t)7;
        span_wake_range(sp, (uintptr_t)p & ~(uintptr_t)7, last < sp->hi ? last : sp->hi - 1);
        return;
    }
    /* Nobody polls at all: one look, whatever the length. No store-load
     * fence before it (a full fence per copy was most of a small copy's
     * cost): a poller that falls asleep while the copy is being made may
     * not be woken, and finds the bytes at its next recheck
     * (NAT_POLL_RECHECK_NS), as it would after a plain C store. plat.h
     * tells a reader that needs all of dst to wait for a plat_store64
     * made after the copy, and that store does wake it. */
#ifdef __SANITIZE_THREAD__
    if (!__atomic_fetch_add(&nat_poll_waiters, 0, __ATOMIC_SEQ_CST)) return;
#else
    if (!__atomic_load_n(&nat_poll_waiters, __ATOMIC_RELAXED)) return;
    __atomic_thread_fence(__ATOMIC_SEQ_CST); /* for wake_fenced's looks */
#endif
    /* The words the range touches, exactly: a bucket woken for nothing
     * costs its sleepers a system call each. */
    uintptr_t first = (uintptr_t)p & ~(uintptr_t)7;
    uintptr_t last = ((uintptr_t)p + n - 1) & ~(uintptr_t)7;
    if ((last - first) / 8 + 1 > RANGE_WORDS) {
        for (size_t b = 0; b < NAT_POLL_BUCKETS; b++) wake_fenced(&poll_wq[b].wq, false);
        return;
    }
    for (uintptr_t a = first; a <= last; a += 8) wake_fenced(nat_poll_wq((const void *)a), false);
}
