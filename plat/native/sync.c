/*
 * sync.c -- mutexes and events (native).
 *
 * A mutex is a glibc adaptive pthread mutex (it spins a little before
 * sleeping), process-shared on request, robust on request
 * (PLAT_MUTEX_ROBUST): a lock that finds its holder dead makes it
 * consistent at once and reports PLAT_EOWNERDEAD, so the mutex never
 * becomes unrecoverable (ENOTRECOVERABLE) even if the caller only
 * repairs and unlocks. An event is an epoch word that is
 * also the futex word: waiters spin, then sleep on it; notify advances it and
 * wakes sleepers only if there are any. Without FUTEX_PRIVATE_FLAG the futex
 * works across processes when the event lives in a plat_shared_map("/...")
 * region.
 */
#define _GNU_SOURCE
#include "native.h"

#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct nat_mutex {
    pthread_mutex_t m;
    unsigned spin; /* robust: spin before sleeping (nat_mutex_lock) */
} NAT_ALIAS;

/* How many times a contended robust lock polls its word before it sleeps:
 * about 1-3 us of pause instructions, several times the critical sections
 * robust locks guard (MCAPI's shared-memory transport: queue and pool
 * bookkeeping, 0.1-0.3 us), far below the ~23 us a futex sleep and wake-up
 * cost on another CPU (docs/performance.md). */
#define NAT_ROBUST_SPINS 64

struct nat_event {
    struct nat_wq wq;
    unsigned flags;
} NAT_ALIAS;

static_assert(sizeof(struct nat_mutex) <= sizeof(plat_mutex), "plat_mutex too small");
static_assert(_Alignof(struct nat_mutex) <= _Alignof(plat_mutex), "plat_mutex misaligned");
static_assert(sizeof(struct nat_event) <= sizeof(plat_event), "plat_event too small");
static_assert(_Alignof(struct nat_event) <= _Alignof(plat_event), "plat_event misaligned");

static struct nat_mutex *mx(plat_mutex *m, const char *call)
{
    NAT_NEED(m, call);
    return (struct nat_mutex *)(void *)m->opaque;
}

static struct nat_event *evt(plat_event *ev, const char *call)
{
    NAT_NEED(ev, call);
    return (struct nat_event *)(void *)ev->opaque;
}

void nat_mutex_init(plat_mutex *m, unsigned flags)
{
    struct nat_mutex *x = mx(m, "plat_mutex_init");
    pthread_mutexattr_t a;
    memset(m, 0, sizeof *m);
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ADAPTIVE_NP);
    if (flags & PLAT_SHARED_PROCESS) pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
    if (flags & PLAT_MUTEX_ROBUST) pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
    int rc = pthread_mutex_init(&x->m, &a);
    pthread_mutexattr_destroy(&a);
    if (rc != 0) nat_die("plat_mutex_init: pthread_mutex_init failed (%d)", rc);
    x->spin = (flags & PLAT_MUTEX_ROBUST) != 0;
}

/* Is the lock word free? glibc's robust mutexes ignore the adaptive type:
 * a contended lock goes straight to futex_wait and its unlock to
 * futex_wake (docs/performance.md, MCAPI packet channel: half the time in
 * locks, most of it in the kernel), so nat_mutex_lock spins first. It
 * reads the word and tries the lock only when it looks free, so spinners
 * do not take the line from the holder; a dead holder's word stays
 * nonzero (FUTEX_OWNER_DIED), and pthread_mutex_lock then repairs. */
static bool looks_free(struct nat_mutex *x)
{
#ifdef __GLIBC__
    return __atomic_load_n(&x->m.__data.__lock, __ATOMIC_RELAXED) == 0;
#else
    (void)x;
    return true;
#endif
}

void nat_mutex_destroy(plat_mutex *m)
{
    pthread_mutex_destroy(&mx(m, "plat_mutex_destroy")->m);
}
int nat_mutex_lock(plat_mutex *m)
{
    struct nat_mutex *x = mx(m, "plat_mutex_lock");
    int rc = EBUSY;
    for (unsigned i = 0; x->spin && i < NAT_ROBUST_SPINS; i++) {
        if (looks_free(x) && (rc = pthread_mutex_trylock(&x->m)) != EBUSY) break;
        nat_pause();
    }
    if (rc == EBUSY) rc = pthread_mutex_lock(&x->m);
    if (rc == 0) return PLAT_OK;
    if (rc == EOWNERDEAD && pthread_mutex_consistent(&x->m) == 0) return PLAT_EOWNERDEAD;
    nat_die("plat_mutex_lock: pthread_mutex_lock failed (%d)", rc);
}
bool nat_mutex_trylock(plat_mutex *m)
{
    struct nat_mutex *x = mx(m, "plat_mutex_trylock");
    int rc = pthread_mutex_trylock(&x->m);
    if (rc == EOWNERDEAD) rc = pthread_mutex_consistent(&x->m);
    return rc == 0;
}
void nat_mutex_unlock(plat_mutex *m)
{
    pthread_mutex_unlock(&mx(m, "plat_mutex_unlock")->m);
}

void nat_event_init(plat_event *ev, unsigned flags)
{
    struct nat_event *e = evt(ev, "plat_event_init");
    memset(ev, 0, sizeof *ev);
    e->flags = flags;
}

void nat_event_destroy(plat_event *ev)
{
    (void)evt(ev, "plat_event_destroy");
}

uint32_t nat_event_epoch(plat_event *ev)
{
    return __atomic_load_n(&evt(ev, "plat_event_epoch")->wq.epoch, __ATOMIC_ACQUIRE);
}

struct epoch_arg {
    const uint32_t *word;
    uint32_t old;
};

static bool epoch_moved(const void *p)
{
    const struct epoch_arg *a = p;
    return __atomic_load_n(a->word, __ATOMIC_ACQUIRE) != a->old;
}

int nat_event_wait(plat_event *ev, uint32_t epoch, uint64_t timeout_ns)
{
    struct nat_event *e = evt(ev, "plat_event_wait");
    struct epoch_arg a = {&e->wq.epoch, epoch};
    return nat_wait(&e->wq, e->flags & PLAT_SHARED_PROCESS, 0, epoch_moved, &a, timeout_ns);
}

void nat_event_notify(plat_event *ev)
{
    struct nat_event *e = evt(ev, "plat_event_notify");
    nat_bump(&e->wq, e->flags & PLAT_SHARED_PROCESS);
}
