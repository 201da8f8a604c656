/*
 * drivers/shm.c -- the shared-memory driver on the platform interface.
 *
 * Every call is one plat.h call: in simulation each is timed where the
 * region lives (a lock is a compare-and-swap at the shared memory, a copy
 * crosses the crossbar), natively each is the real thing. Nothing here
 * spins in host code: waits are plat_event_wait and plat_poll64, so the
 * simulator can advance time while a node waits.
 */
#include "shm.h"

void *drv_shm_map(const char *name, size_t size, bool *created, int *status)
{
    return plat_shared_map(name, size, created, status);
}

bool drv_shm_crosses(const char *name)
{
    return plat_shared_crosses(name);
}

void drv_shm_unmap(void *region)
{
    plat_shared_unmap(region);
}

void drv_shm_lock_init(plat_mutex *m, bool shared)
{
    plat_mutex_init(m, PLAT_MUTEX_ROBUST | (shared ? PLAT_SHARED_PROCESS : 0));
}

bool drv_shm_lock(plat_mutex *m)
{
    return plat_mutex_lock(m) == PLAT_EOWNERDEAD;
}

uint64_t drv_shm_self(void)
{
    return plat_proc_token();
}

bool drv_shm_alive(uint64_t token)
{
    return plat_proc_alive(token);
}

void drv_shm_unlock(plat_mutex *m)
{
    plat_mutex_unlock(m);
}

void drv_shm_event_init(plat_event *ev, bool shared)
{
    plat_event_init(ev, shared ? PLAT_SHARED_PROCESS : 0);
}

uint32_t drv_shm_epoch(plat_event *ev)
{
    return plat_event_epoch(ev);
}

void drv_shm_notify(plat_event *ev)
{
    plat_event_notify(ev);
}

void drv_shm_sleep(plat_event *ev, uint32_t epoch, uint64_t timeout_ns)
{
    (void)plat_event_wait(ev, epoch, timeout_ns);
}

void drv_shm_copy(void *dst, const void *src, size_t n)
{
    if (n) plat_copy(dst, src, n);
}

void drv_shm_publish(uint64_t *word, uint64_t v)
{
    plat_store64(word, v);
}

bool drv_shm_await(const uint64_t *word, uint64_t v, uint64_t timeout_ns)
{
    uint64_t deadline = plat_now_ns() + timeout_ns;
    for (;;) {
        uint64_t now = plat_load64(word);
        if (now == v) return true;
        uint64_t t = plat_now_ns();
        if (t >= deadline) return false;
        (void)plat_poll64(word, now, deadline - t);
    }
}
