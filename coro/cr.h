/*
 * cr.h -- coro internals: atomics, the ticket lock, executors, waiters.
 *
 * Everything other cores touch (a coroutine's record, an executor's inbox,
 * a channel) lives in shared memory and is read and written through the
 * platform's timed accesses; what only the owning executor touches is plain
 * C. Statistics are plain relaxed atomics: counting must not cost
 * simulated time.
 */
#ifndef IPCSIM_CORO_CR_H
#define IPCSIM_CORO_CR_H

#include "coro.h"
#include "ctx.h"
#include "ipcsim/plat.h"

/* ---- atomics on any core ----------------------------------------------------- */

/* Add with what the core has: fetch-add, else a CAS loop. Returns the old
 * value. A core with neither stops the run (plat's misuse message). */
uint64_t cr_add(uint64_t *p, uint64_t delta);
static inline void cr_count(uint64_t *p, uint64_t n)
{
    __atomic_fetch_add(p, n, __ATOMIC_RELAXED);
}

/* A ticket lock: needs only an add (CPEs have no CAS). */
struct cr_lock {
    uint64_t next, serving;
};
void cr_lock(struct cr_lock *l);
void cr_unlock(struct cr_lock *l);

/* ---- waiting ---------------------------------------------------------------- */

/* One blocked operation of a coroutine or thread (on its stack). Whoever
 * ends the wait -- a waker, a timer, the waiter itself -- claims it first
 * (the add that takes `fired` from 0), so exactly one of them acts. */
struct cr_waiter {
    struct coro *co; /* NULL: a thread, which polls `fired` */
    uint64_t fired;
    bool timed_out; /* claimed by the timeout, not by a waker */
};
bool cr_claim(struct cr_waiter *w);

/* A waiter's entry in one wait list (one per channel it waits on). */
struct cr_link {
    struct cr_link *prev, *next;
    struct cr_waiter *w;
    int idx;     /* its case index */
    bool linked; /* still in the list (a waker may have taken it out) */
};
struct cr_list {
    struct cr_link *head, *tail;
};
void cr_list_push(struct cr_list *l, struct cr_link *k);
void cr_list_del(struct cr_list *l, struct cr_link *k);
struct cr_link *cr_list_pop(struct cr_list *l);

/* Block the calling coroutine or thread until w is claimed or timeout_ns
 * passes (then the caller claims it itself: true if the timer won). */
void cr_block(struct cr_waiter *w, uint64_t timeout_ns);
/* End a claimed waiter's wait: make its coroutine runnable on its executor
 * (or, for a thread, nothing more: the claim wakes its poll). */
void cr_wake(struct coro *co);

/* ---- executors and coroutines ------------------------------------------------ */

enum cr_state { CR_RUNNABLE, CR_RUNNING, CR_BLOCKED, CR_SLEEPING, CR_DONE };

struct cr_exec;

struct coro {
    struct cr_ctx ctx;
    struct cr_exec *ex;
    void (*fn)(void *);
    void *arg;
    unsigned char *stack;
    int state;
    struct coro *next;          /* runnable queue or inbox */
    struct coro *bprev, *bnext; /* blocked queue */
    struct coro *tnext;         /* timer list (sleeping or blocked with timeout) */
    uint64_t deadline;
    struct cr_waiter *waiter; /* while blocked */
    uint64_t done;            /* 1: returned; 2: its executor is done with it */
    uint64_t joiner;          /* a struct cr_waiter * of the joiner, or 0 */
};

struct cr_exec {
    /* Touched by other cores. */
    struct cr_lock ilock;
    struct coro *inbox_head, *inbox_tail;
    uint64_t iseq;    /* advanced at every post: the executor polls it */
    uint64_t live;    /* coroutines placed here, not finished (placement) */
    uint64_t claimed; /* a thread runs this executor */
    char pad[64];
    /* The executor's own. */
    coro_rt *rt;
    int index, core;
    bool no_cas;
    struct cr_ctx ctx;
    struct coro *cur;
    struct coro *run_head, *run_tail;
    struct coro *blocked;
    struct coro *timers; /* by deadline */
    uint64_t drained;    /* iseq when the inbox was last taken */
    uint64_t switch_cycles;
    bool idle;         /* the running coroutine's look found no work ... */
    uint64_t idle_seq; /* ... at this iseq */
};

struct coro_rt {
    char name[32];
    int n;
    size_t stack_bytes;
    uint64_t live;   /* coroutines not finished */
    uint64_t stop;   /* set by coro_rt_free once live is 0 */
    uint64_t exited; /* executors that have left their loop */
    struct cr_exec *ex;
    uint64_t *region; /* the named region that publishes rt */
};

/* The executor the calling thread runs (NULL in a plain thread). */
struct cr_exec *cr_exec_self(void);
/* Channels use CAS (Algorithm 2) or add-only (Algorithm 3) on executor ex
 * (cr_exec_self()), or, outside one (NULL), on the calling core. */
bool cr_use_cas(const struct cr_exec *ex);

#endif
