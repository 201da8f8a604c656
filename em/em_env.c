/*
 * em_env.c -- the env_* helpers (environment.h) on the platform interface.
 *
 * env_shared_reserve/lookup keep a directory of names in the named region
 * "em.env" (a lookup needs the size plat_shared_map asks for); its lock is a
 * CAS word because a zeroed region holds no initialised plat mutex.
 */
#include "em_internal.h"

#include <event_machine/platform/env/environment.h>
#include <stdio.h>
#include <string.h>

#define ENV_NAMES 64

struct env_dir {
    uint64_t lock;
    struct {
        char name[48];
        size_t size;
        void *ptr;
    } e[ENV_NAMES];
};

uint64_t env_core_hz(void)
{
    double mhz = plat_core_clock_mhz(plat_core());
    return mhz > 0 ? (uint64_t)(mhz * 1e6) : 1000000000u;
}

uint64_t env_get_cycle(void)
{
    return env_time_to_cycles(plat_now_ns(), env_core_hz());
}

env_time_t env_time_global(void)
{
    return plat_now_ns();
}

env_time_t env_time_local(void)
{
    return plat_now_ns();
}

void env_time_wait_ns(uint64_t ns)
{
    plat_sleep_ns(ns);
}

void env_sync_mem(void)
{
    /* a sequentially consistent store (every core has plat_store64) orders
     * like a full fence and stays on the platform interface; a fence builtin
     * does not, and TSan cannot follow one */
    uint64_t word = 0;
    plat_store64(&word, 0);
}

static struct env_dir *dir_lock(void)
{
    struct env_dir *d = plat_shared_map("em.env", sizeof(struct env_dir), NULL, NULL);
    if (!d) return NULL;
    for (;;) {
        uint64_t expect = 0;
        if (plat_cas64(&d->lock, &expect, 1)) return d;
        plat_poll64(&d->lock, 1, 1000000);
    }
}

static void dir_unlock(struct env_dir *d)
{
    plat_store64(&d->lock, 0);
}

void *env_shared_reserve(const char *name, size_t size)
{
    if (!name || !*name || strlen(name) >= 48 || size == 0) return NULL;
    struct env_dir *d = dir_lock(); /* stays mapped: the directory outlives each call */
    if (!d) return NULL;
    void *p = NULL;
    int slot = -1, taken = 0;
    for (int i = 0; i < ENV_NAMES; i++) {
        if (d->e[i].ptr && strcmp(d->e[i].name, name) == 0) taken = 1;
        if (!d->e[i].ptr && slot < 0) slot = i;
    }
    if (!taken && slot >= 0) {
        char region[64];
        snprintf(region, sizeof(region), "em.env.%s", name);
        p = plat_shared_map(region, size, NULL, NULL);
        if (p) {
            snprintf(d->e[slot].name, sizeof(d->e[slot].name), "%s", name);
            d->e[slot].size = size;
            d->e[slot].ptr = p;
        }
    }
    dir_unlock(d);
    return p;
}

void *env_shared_lookup(const char *name)
{
    if (!name) return NULL;
    struct env_dir *d = dir_lock();
    if (!d) return NULL;
    void *p = NULL;
    for (int i = 0; i < ENV_NAMES && !p; i++)
        if (d->e[i].ptr && strcmp(d->e[i].name, name) == 0) p = d->e[i].ptr;
    dir_unlock(d);
    plat_shared_unmap(d);
    return p;
}

void env_shared_free(void *buf)
{
    if (!buf) return;
    struct env_dir *d = dir_lock();
    if (!d) return;
    for (int i = 0; i < ENV_NAMES; i++)
        if (d->e[i].ptr == buf) {
            d->e[i].ptr = NULL;
            plat_shared_unmap(buf);
        }
    dir_unlock(d);
    plat_shared_unmap(d);
}

void env_atomic64_init(env_atomic64_t *atom)
{
    plat_store64(&atom->v, 0);
}

void env_atomic64_set(env_atomic64_t *atom, uint64_t new_val)
{
    plat_store64(&atom->v, new_val);
}

uint64_t env_atomic64_get(const env_atomic64_t *atom)
{
    return plat_load64(&atom->v);
}

uint64_t env_atomic64_return_add(env_atomic64_t *atom, uint64_t add_val)
{
    return plat_fetch_add64(&atom->v, add_val);
}

uint64_t env_atomic64_add_return(env_atomic64_t *atom, uint64_t add_val)
{
    return plat_fetch_add64(&atom->v, add_val) + add_val;
}

uint64_t env_atomic64_return_sub(env_atomic64_t *atom, uint64_t sub_val)
{
    return plat_fetch_add64(&atom->v, (uint64_t)0 - sub_val);
}

uint64_t env_atomic64_sub_return(env_atomic64_t *atom, uint64_t sub_val)
{
    return plat_fetch_add64(&atom->v, (uint64_t)0 - sub_val) - sub_val;
}

void env_atomic64_inc(env_atomic64_t *atom)
{
    plat_fetch_add64(&atom->v, 1);
}

void env_atomic64_dec(env_atomic64_t *atom)
{
    plat_fetch_add64(&atom->v, (uint64_t)0 - 1);
}

void env_atomic64_add(env_atomic64_t *atom, uint64_t add_val)
{
    plat_fetch_add64(&atom->v, add_val);
}

void env_atomic64_sub(env_atomic64_t *atom, uint64_t sub_val)
{
    plat_fetch_add64(&atom->v, (uint64_t)0 - sub_val);
}

int env_atomic64_cmpset(env_atomic64_t *atom, uint64_t expected, uint64_t desired)
{
    return plat_cas64(&atom->v, &expected, desired) ? 1 : 0;
}

uint64_t env_atomic64_exchange(env_atomic64_t *atom, uint64_t new_val)
{
    uint64_t old = plat_load64(&atom->v);
    while (!plat_cas64(&atom->v, &old, new_val)) {
    }
    return old;
}

void env_spinlock_init(env_spinlock_t *const lock)
{
    plat_mutex_init(&lock->m, 0);
    lock->locked = 0;
}

void env_spinlock_lock(env_spinlock_t *const lock)
{
    plat_mutex_lock(&lock->m);
    plat_store64(&lock->locked, 1);
}

int env_spinlock_trylock(env_spinlock_t *const lock)
{
    if (!plat_mutex_trylock(&lock->m)) return 0;
    plat_store64(&lock->locked, 1);
    return 1;
}

int env_spinlock_is_locked(env_spinlock_t *const lock)
{
    return plat_load64(&lock->locked) != 0;
}

void env_spinlock_unlock(env_spinlock_t *const lock)
{
    plat_store64(&lock->locked, 0);
    plat_mutex_unlock(&lock->m);
}
