/*
 * run.c -- plat_native_run: one pinned thread per core.
 *
 * Threads start behind a gate so that a failed pthread_create lets the
 * threads already made leave without running entry (a half-started run
 * could wait forever for a core that does not exist).
 */
#define _GNU_SOURCE
#include "native.h"

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct gate {
    pthread_mutex_t m;
    pthread_cond_t c;
    int state; /* 0 wait, 1 go, -1 leave */
};

struct core_arg {
    const struct plat_run *r;
    struct nat_ctx *ctx;
    unsigned gen;
    int cpu; /* -1: do not pin */
    struct gate *gate;
    pthread_t tid;
};

static void *core_main(void *p)
{
    struct core_arg *a = p;
    nat_bind(&a->ctx->main, a->gen);
    if (a->cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(a->cpu, &set);
        pthread_setaffinity_np(pthread_self(), sizeof set, &set); /* best effort */
    }
    pthread_mutex_lock(&a->gate->m);
    while (a->gate->state == 0) pthread_cond_wait(&a->gate->c, &a->gate->m);
    int go = a->gate->state > 0;
    pthread_mutex_unlock(&a->gate->m);
    if (go) a->r->entry(a->r->arg);
    return NULL;
}

static void open_gate(struct gate *g, int state)
{
    pthread_mutex_lock(&g->m);
    g->state = state;
    pthread_cond_broadcast(&g->c);
    pthread_mutex_unlock(&g->m);
}

/* The i-th CPU this process may run on, round robin; -1 if unknown. */
static int host_cpu(const cpu_set_t *allowed, int n, int i)
{
    if (n <= 0) return -1;
    for (int cpu = 0, k = 0; cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET(cpu, allowed) && k++ == i % n) return cpu;
    return -1;
}

int plat_native_run(const struct plat_run *r, const struct plat_core_desc *cores, int ncores,
                    const struct plat_dev_desc *devs, int ndevs, char *err, size_t errlen)
{
    static pthread_mutex_t running = PTHREAD_MUTEX_INITIALIZER;
    plat_use(&plat_native_ops);
    if (!r || !r->entry || !cores || ncores < 1) {
        if (err && errlen) snprintf(err, errlen, "native run: no entry or no cores");
        return -1;
    }
    if (pthread_mutex_trylock(&running) != 0) {
        if (err && errlen) snprintf(err, errlen, "native run: another run is in progress");
        return -1;
    }
    struct core_arg *a = calloc((size_t)ncores, sizeof *a);
    if (!a) {
        pthread_mutex_unlock(&running);
        if (err && errlen) snprintf(err, errlen, "native run: out of memory");
        return -1;
    }
    cpu_set_t allowed;
    int ncpu = sched_getaffinity(0, sizeof allowed, &allowed) == 0 ? CPU_COUNT(&allowed) : 0;

    nat_devices_reset(devs, ndevs);
    unsigned gen = nat_cores_reset(cores, ncores, r->seed);
    struct gate gate = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
    int started = 0;
    for (; started < ncores; started++) {
        a[started] = (struct core_arg){
            r, nat_core_find(started), gen, host_cpu(&allowed, ncpu, started), &gate, 0};
        if (pthread_create(&a[started].tid, NULL, core_main, &a[started]) != 0) break;
    }
    open_gate(&gate, started == ncores ? 1 : -1);
    for (int i = 0; i < started; i++) pthread_join(a[i].tid, NULL);
    if (started < ncores && err && errlen)
        snprintf(err, errlen, "native run: cannot start a thread for core %d of %d", started,
                 ncores);

    nat_cores_reset(NULL, 0, 0);
    nat_devices_end();
    free(a);
    pthread_mutex_unlock(&running);
    return started == ncores ? 0 : -1;
}
