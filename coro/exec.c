/* exec.c -- the runtime: executors, placement, coroutines, blocking. */
#include "cr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CR_STACK_DEFAULT (256u << 10)
#define CR_REGION_BYTES 64

struct cr_exec *cr_exec_self(void)
{
    return *(struct cr_exec **)plat_thread_slot(PLAT_SLOT_CORO);
}

bool cr_use_cas(const struct cr_exec *ex)
{
    if (ex) return !ex->no_cas;
    return (plat_core_caps(plat_core()) & PLAT_CAP_CAS) != 0;
}

coro *coro_self(void)
{
    const struct cr_exec *ex = cr_exec_self();
    return ex ? ex->cur : NULL;
}

int coro_exec_index(void)
{
    const struct cr_exec *ex = cr_exec_self();
    return ex ? ex->index : -1;
}

static void region_name(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "coro:%s", name);
}

static void charge(const struct cr_exec *ex)
{
    if (ex->switch_cycles) plat_work_cycles(ex->switch_cycles);
}

/* ---- queues of one executor (its own thread only) ---------------------------- */

static void run_push(struct cr_exec *ex, struct coro *co)
{
    co->next = NULL;
    if (ex->run_tail)
        ex->run_tail->next = co;
    else
        ex->run_head = co;
    ex->run_tail = co;
}

static struct coro *run_pop(struct cr_exec *ex)
{
    struct coro *co = ex->run_head;
    if (co) {
        ex->run_head = co->next;
        if (!ex->run_head) ex->run_tail = NULL;
    }
    return co;
}

static void blocked_add(struct cr_exec *ex, struct coro *co)
{
    co->bprev = NULL;
    co->bnext = ex->blocked;
    if (ex->blocked) ex->blocked->bprev = co;
    ex->blocked = co;
}

static void blocked_del(struct cr_exec *ex, struct coro *co)
{
    if (co->bprev)
        co->bprev->bnext = co->bnext;
    else
        ex->blocked = co->bnext;
    if (co->bnext) co->bnext->bprev = co->bprev;
    co->bprev = co->bnext = NULL;
}

static void timer_add(struct cr_exec *ex, struct coro *co)
{
    struct coro **p = &ex->timers;
    while (*p && (*p)->deadline <= co->deadline) p = &(*p)->tnext;
    co->tnext = *p;
    *p = co;
}

static void timer_del(struct cr_exec *ex, struct coro *co)
{
    for (struct coro **p = &ex->timers; *p; p = &(*p)->tnext)
        if (*p == co) {
            *p = co->tnext;
            break;
        }
    co->deadline = 0;
}

/* A coroutine of this executor becomes runnable (new, woken, or timed out). */
static void make_ready(struct cr_exec *ex, struct coro *co)
{
    if (co->state == CR_BLOCKED) blocked_del(ex, co);
    if (co->deadline) timer_del(ex, co);
    co->state = CR_RUNNABLE;
    run_push(ex, co);
}

/* Post a coroutine to another executor's inbox (from any core). */
static void post(struct cr_exec *ex, struct coro *co)
{
    cr_lock(&ex->ilock);
    co->next = NULL;
    if (ex->inbox_tail)
        ex->inbox_tail->next = co;
    else
        ex->inbox_head = co;
    ex->inbox_tail = co;
    cr_unlock(&ex->ilock);
    cr_add(&ex->iseq, 1);
}

void cr_wake(struct coro *co)
{
    struct cr_exec *ex = co->ex;
    if (cr_exec_self() == ex)
        make_ready(ex, co);
    else
        post(ex, co);
}

/* Take the inbox if a post came since the last time (posts advance iseq
 * after they append, so a post we miss now is seen at the next look). */
static void drain(struct cr_exec *ex, uint64_t seq)
{
    if (seq == ex->drained) return;
    ex->drained = seq;
    cr_lock(&ex->ilock);
    struct coro *co = ex->inbox_head;
    ex->inbox_head = ex->inbox_tail = NULL;
    cr_unlock(&ex->ilock);
    while (co) {
        struct coro *next = co->next;
        make_ready(ex, co);
        co = next;
    }
}

static void expire(struct cr_exec *ex)
{
    uint64_t now = plat_now_ns();
    while (ex->timers && ex->timers->deadline <= now) {
        struct coro *co = ex->timers;
        if (co->state == CR_SLEEPING) {
            make_ready(ex, co);
        } else if (cr_claim(co->waiter)) {
            co->waiter->timed_out = true;
            make_ready(ex, co);
        } else {
            timer_del(ex, co); /* a waker won: its post is on the way */
        }
    }
}

/* ---- coroutines ----------------------------------------------------------------- */

static void co_main(void *p)
{
    struct coro *co = p;
    co->fn(co->arg);
    co->state = CR_DONE;
    charge(co->ex); /* the switch back to the executor that follows */
}

static void finish(struct cr_exec *ex, struct coro *co)
{
    cr_ctx_free(&co->ctx);
    cr_add(&ex->live, (uint64_t)-1);
    plat_store64(&co->done, 1);
    struct cr_waiter *w = (struct cr_waiter *)(uintptr_t)plat_load64(&co->joiner);
    if (w) {
        struct coro *jc = w->co;
        if (cr_claim(w) && jc) cr_wake(jc);
    }
    coro_rt *rt = ex->rt;
    plat_store64(&co->done, 2); /* the joiner may free it from now on */
    cr_add(&rt->live, (uint64_t)-1);
}

/* What a coroutine that stopped running needs, by the state it stopped in. */
static void park(struct cr_exec *ex, struct coro *co)
{
    switch (co->state) {
    case CR_RUNNABLE:
        run_push(ex, co);
        break;
    case CR_BLOCKED:
        blocked_add(ex, co);
        if (co->deadline) timer_add(ex, co);
        break;
    case CR_SLEEPING:
        timer_add(ex, co);
        break;
    default:
        break;
    }
}

/* The look for work: the inbox if a post came, due timers, the run queue. */
static struct coro *pick(struct cr_exec *ex, uint64_t *seq)
{
    *seq = plat_load64(&ex->iseq);
    drain(ex, *seq);
    if (ex->timers) expire(ex);
    return run_pop(ex);
}

static void dispatch(struct cr_exec *ex, struct cr_ctx *from, struct coro *co)
{
    co->state = CR_RUNNING;
    ex->cur = co;
    charge(ex);
    cr_ctx_switch(from, &co->ctx);
}

/* The executor's context gets control back when a coroutine ends, or when
 * one suspended and found nothing to run (ex->cur is then NULL). */
static void run_one(struct cr_exec *ex, struct coro *co)
{
    dispatch(ex, &ex->ctx, co);
    co = ex->cur;
    ex->cur = NULL;
    if (co && co->state == CR_DONE) finish(ex, co);
}

/* The running coroutine stops; state says why. It parks itself and does the
 * executor loop's look for work, in the order the loop would, then hands over
 * straight to the next coroutine: one stack switch instead of two. Only when
 * nothing is runnable does the executor's context resume, told the look is
 * done (ex->idle). A coroutine that ends goes through the executor, which
 * frees its stack. */
static struct coro *suspend(int state)
{
    struct cr_exec *ex = cr_exec_self();
    struct coro *co = ex ? ex->cur : NULL;
    if (!co) {
        fprintf(stderr, "coro: coro_yield/sleep/block outside a coroutine (core %d)\n",
                plat_core());
        abort();
    }
    co->state = state;
    charge(ex);
    park(ex, co);
    uint64_t seq;
    struct coro *next = pick(ex, &seq);
    if (next == co) {
        co->state = CR_RUNNING;
        charge(ex); /* the switch the executor loop would have made */
    } else if (next) {
        dispatch(ex, &co->ctx, next);
    } else {
        ex->cur = NULL;
        ex->idle = true;
        ex->idle_seq = seq;
        cr_ctx_switch(&co->ctx, &ex->ctx);
    }
    return co;
}

void coro_yield(void)
{
    suspend(CR_RUNNABLE);
}

void coro_sleep_ns(uint64_t ns)
{
    struct cr_exec *ex = cr_exec_self();
    if (!ex || !ex->cur) {
        plat_sleep_ns(ns);
        return;
    }
    uint64_t now = plat_now_ns();
    ex->cur->deadline = ns >= UINT64_MAX - now ? UINT64_MAX : now + (ns ? ns : 1);
    suspend(CR_SLEEPING);
}

void cr_block(struct cr_waiter *w, uint64_t timeout_ns)
{
    uint64_t now = timeout_ns == CORO_FOREVER ? 0 : plat_now_ns();
    uint64_t deadline = timeout_ns == CORO_FOREVER ? 0 : now + timeout_ns;
    if (!w->co) { /* a thread: poll the claim word */
        for (;;) {
            if (plat_load64(&w->fired)) return;
            uint64_t left = CORO_FOREVER;
            if (deadline) {
                now = plat_now_ns();
                if (now >= deadline) {
                    if (cr_claim(w)) w->timed_out = true;
                    return; /* claimed by us, or by a waker just now */
                }
                left = deadline - now;
            }
            plat_poll64(&w->fired, 0, left);
        }
    }
    w->co->waiter = w;
    w->co->deadline = deadline;
    suspend(CR_BLOCKED);
    w->co->waiter = NULL;
}

/* ---- spawning and joining ----------------------------------------------------- */

coro *coro_spawn_on(coro_rt *rt, int exec, void (*fn)(void *), void *arg)
{
    if (!rt || !fn || exec < 0 || exec >= rt->n) return NULL;
    struct coro *co = plat_shared_alloc(sizeof *co, 64);
    if (!co) return NULL;
    co->stack = malloc(rt->stack_bytes);
    if (!co->stack) {
        plat_shared_free(co);
        return NULL;
    }
    struct cr_exec *ex = &rt->ex[exec];
    co->ex = ex;
    co->fn = fn;
    co->arg = arg;
    co->state = CR_RUNNABLE;
    cr_ctx_make(&co->ctx, co->stack, rt->stack_bytes, co_main, co, &ex->ctx);
    plat_work("coro_spawn");
    cr_add(&rt->live, 1);
    cr_add(&ex->live, 1);
    cr_wake(co);
    return co;
}

coro *coro_spawn(coro_rt *rt, void (*fn)(void *), void *arg)
{
    if (!rt) return NULL;
    /* The scheduler reads every executor's load: fewest live coroutines. */
    int best = 0;
    uint64_t least = UINT64_MAX;
    for (int i = 0; i < rt->n; i++) {
        uint64_t l = plat_load64(&rt->ex[i].live);
        if (l < least) {
            least = l;
            best = i;
        }
    }
    return coro_spawn_on(rt, best, fn, arg);
}

void coro_join(coro *c)
{
    struct cr_waiter w = {coro_self(), 0, false};
    bool registered = false;
    for (;;) {
        uint64_t d = plat_load64(&c->done);
        if (d == 2) break;
        if (d == 1 || !w.co) { /* a thread, or nearly done: poll */
            plat_poll64(&c->done, d, CORO_FOREVER);
            continue;
        }
        if (!registered) {
            plat_store64(&c->joiner, (uint64_t)(uintptr_t)&w);
            registered = true;
            if (plat_load64(&c->done) && cr_claim(&w)) continue; /* it finished meanwhile */
        }
        cr_block(&w, CORO_FOREVER);
    }
    free(c->stack);
    plat_shared_free(c);
}

/* ---- the runtime ----------------------------------------------------------------- */

coro_rt *coro_rt_new(const char *name, const int *cores, int n, const struct coro_rt_attr *attr)
{
    if (!name || strlen(name) >= sizeof((coro_rt *)0)->name || !cores || n <= 0) return NULL;
    char rn[48];
    region_name(rn, sizeof rn, name);
    bool created = false;
    uint64_t *region = plat_shared_map(rn, CR_REGION_BYTES, &created, NULL);
    if (!region) return NULL;
    if (!created && plat_load64(region)) { /* in use */
        plat_shared_unmap(region);
        return NULL;
    }
    coro_rt *rt = plat_shared_alloc(sizeof *rt, 64);
    struct cr_exec *ex = plat_shared_alloc(sizeof *ex * (size_t)n, 64);
    if (!rt || !ex) {
        if (rt) plat_shared_free(rt);
        if (ex) plat_shared_free(ex);
        plat_shared_unmap(region);
        return NULL;
    }
    snprintf(rt->name, sizeof rt->name, "%s", name);
    rt->n = n;
    rt->stack_bytes = attr && attr->stack_bytes ? attr->stack_bytes : CR_STACK_DEFAULT;
    rt->ex = ex;
    rt->region = region;
    for (int i = 0; i < n; i++) {
        ex[i].rt = rt;
        ex[i].index = i;
        ex[i].core = cores[i];
        ex[i].no_cas = attr && attr->no_cas && attr->no_cas[i];
    }
    plat_store64(region, (uint64_t)(uintptr_t)rt); /* publish */
    return rt;
}

static void exec_loop(struct cr_exec *ex)
{
    coro_rt *rt = ex->rt;
    for (;;) {
        uint64_t seq;
        struct coro *co = NULL;
        if (ex->idle) { /* a suspending coroutine looked, and found nothing */
            ex->idle = false;
            seq = ex->idle_seq;
        } else {
            co = pick(ex, &seq);
        }
        if (co) {
            run_one(ex, co);
            continue;
        }
        if (plat_load64(&rt->stop)) break;
        uint64_t wait = CORO_FOREVER;
        if (ex->timers) {
            uint64_t now = plat_now_ns();
            wait = ex->timers->deadline > now ? ex->timers->deadline - now : 0;
        }
        plat_poll64(&ex->iseq, seq, wait);
    }
}

int coro_exec_run(const char *name)
{
    char rn[48];
    region_name(rn, sizeof rn, name ? name : "");
    uint64_t *region = plat_shared_map(rn, CR_REGION_BYTES, NULL, NULL);
    if (!region) return CORO_ENOMEM;
    uint64_t v;
    while (!(v = plat_load64(region))) plat_poll64(region, 0, CORO_FOREVER);
    coro_rt *rt = (coro_rt *)(uintptr_t)v;
    struct cr_exec *ex = NULL;
    int me = plat_core();
    for (int i = 0; i < rt->n && !ex; i++)
        if (rt->ex[i].core == me && cr_add(&rt->ex[i].claimed, 1) == 0) ex = &rt->ex[i];
    if (!ex) {
        plat_shared_unmap(region);
        return CORO_ENOENT;
    }
    void **slot = plat_thread_slot(PLAT_SLOT_CORO);
    void *was = *slot;
    *slot = ex;
    if (!(plat_core_caps(me) & PLAT_CAP_CAS)) ex->no_cas = true;
    ex->switch_cycles = plat_cost("coro_switch");
    cr_ctx_self(&ex->ctx);
    exec_loop(ex);
    cr_ctx_free(&ex->ctx);
    *slot = was;
    plat_shared_unmap(region);
    cr_add(&rt->exited, 1); /* the last touch: coro_rt_free may free rt now */
    return CORO_OK;
}

void coro_rt_free(coro_rt *rt)
{
    if (!rt) return;
    uint64_t v;
    while ((v = plat_load64(&rt->live))) plat_poll64(&rt->live, v, CORO_FOREVER);
    plat_store64(&rt->stop, 1);
    for (int i = 0; i < rt->n; i++) cr_add(&rt->ex[i].iseq, 1);
    while ((v = plat_load64(&rt->exited)) != (uint64_t)rt->n)
        plat_poll64(&rt->exited, v, CORO_FOREVER);
    plat_store64(rt->region, 0);
    plat_shared_unmap(rt->region);
    plat_shared_free(rt->ex);
    plat_shared_free(rt);
}
