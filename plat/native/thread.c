/*
 * thread.c -- more threads on a core (native).
 *
 * A spawned thread shares its creator's core context (core slots, random
 * stream, doorbells) and has thread slots of its own. It inherits the
 * creator's CPU affinity, so a pinned core's threads share its host CPU.
 */
#define _GNU_SOURCE
#include "native.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

struct plat_thread {
    pthread_t tid;
    void (*fn)(void *);
    void *arg;
    unsigned gen;
    struct nat_thr thr;
    char name[16]; /* the kernel's limit for thread names */
};

static void *start(void *p)
{
    plat_thread *t = p;
    nat_bind(&t->thr, t->gen);
    if (t->name[0]) pthread_setname_np(pthread_self(), t->name);
    t->fn(t->arg);
    return NULL;
}

plat_thread *nat_thread_spawn_on(int core, void (*fn)(void *), void *arg, const char *name)
{
    NAT_NEED(fn, "plat_thread_spawn");
    struct nat_ctx *c = nat_core_at(core, "plat_thread_spawn_on");
    if (!(c->caps & PLAT_CAP_THREADS)) return NULL;
    plat_thread *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->fn = fn;
    t->arg = arg;
    t->thr.core = c;
    t->gen = nat_gen(); /* the creator's: nat_self() just checked it */
    if (name) strncpy(t->name, name, sizeof t->name - 1);
    if (pthread_create(&t->tid, NULL, start, t) != 0) {
        free(t);
        return NULL;
    }
    return t;
}

void nat_thread_join(plat_thread *t)
{
    NAT_NEED(t, "plat_thread_join");
    pthread_join(t->tid, NULL);
    free(t);
}

void nat_yield(void)
{
    sched_yield();
}
