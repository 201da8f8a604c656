/*
 * coro.c -- native cost of the coro library against its floors: glibc's
 * swapcontext for a coroutine switch and a bare SPSC ring for a channel.
 *
 * Two worker threads, pinned to the first two CPUs (W0, W1), each become a
 * platform core on their first plat_* call and then run whatever the main
 * thread hands them: an executor (coro_exec_run) or a plain loop. The main
 * thread sets each round up (coro_rt_new, coro_spawn_on), sleeps on a POSIX
 * semaphore while it runs, and frees it (coro_rt_free) -- it never waits
 * through the platform interface during a measurement (but in
 * pair_chan_coro_sleeper, which measures just that), so that the other
 * metrics measure the library alone (see "Reading the numbers"). In the same run, interleaved round
 * by round (the order of the variants rotates every round):
 *
 *   switch_coro_yield   two coroutines on one executor (W0) call coro_yield
 *                       in turn: mean ns per yield. One yield is one
 *                       HAND-OVER from a coroutine to the next: the yielder
 *                       does the executor loop's look for work (its inbox
 *                       counter, timers, run queue) and switches straight to
 *                       the next coroutine, ONE context switch.
 *   switch_coro_switch  the same rounds: ns per context switch (a yield
 *                       made two switches, through the executor's context,
 *                       before coro/exec.c's direct hand-over).
 *   switch_ucontext     two ucontexts on W0 ping-pong with swapcontext: mean
 *                       ns per swapcontext, which is one switch AND one
 *                       hand-over (it jumps straight to the other context;
 *                       glibc saves and restores the signal mask with a
 *                       system call each time).
 *   switch_ratio_per_switch    ucontext / coro_switch  (> 1: coro is faster)
 *   switch_ratio_per_handover  ucontext / coro_yield   (> 1: coro is faster)
 *
 *   pair_ring           one thread (W0), no contention: push + pop of an int
 *                       on an SPSC ring of 64 slots (C11 atomics): ns/pair.
 *   pair_chan_try       the same with coro_chan_try_send + coro_chan_try_recv
 *                       on a 64-element channel, from a plain thread. The
 *                       pair_* and spsc_* channels have one producer and
 *                       one consumer: coro_chan_new_spsc (the SPSC path;
 *                       mpmc_* keeps the paper's Algorithms 2 and 3).
 *   pair_chan_coro      coro_chan_send + coro_chan_recv from a coroutine on
 *                       an executor (never blocks: the send makes room).
 *   pair_chan_coro_sleeper   the same coroutine, but the main thread waits
 *                       for it as a plain program would, in coro_join
 *                       (plat_poll64: it spins 30 us, then sleeps in the
 *                       native backend's wait queue of that word's bucket).
 *   pair_ratio_try, pair_ratio_coro   chan / ring (> 1: the channel is slower)
 *   pair_ratio_sleeper  chan_coro_sleeper / chan_coro: what one sleeping
 *                       plat_poll64 waiter elsewhere costs every channel op.
 *
 *   mpmc_cas, mpmc_addonly   contended MPMC throughput, msg/s: executors on
 *                       W0 and W1, each with MPMC_P producer and MPMC_C
 *                       consumer coroutines on ONE channel of MPMC_CAP ints.
 *                       Producer p sends (p, seq) for seq = 0 .. MPMC_MSGS /
 *                       producers - 1; the last producer to finish closes the
 *                       channel; consumers receive until CORO_ECLOSED. Each
 *                       consumer checks that every producer's sequence grows
 *                       and marks (p, seq) in a bitmap of its own; after the
 *                       round every (p, seq) must be marked by exactly one
 *                       consumer, or the bench fails. Time: from the moment
 *                       all coroutines have started to the last consumer's
 *                       end. cas: Algorithm 2 (the default on this CPU);
 *                       addonly: attr.no_cas for both executors, Algorithm 3
 *                       (add, look, roll back).
 *   mpmc_ratio          addonly / cas (< 1: add-only is slower)
 *   mpmc_<alg>_<stat>_per_msg   coro_chan_stats over the round / messages:
 *                       retries (turns lost to another producer or consumer,
 *                       each a sched_yield or a failed CAS), rollbacks
 *                       (add-only attempts undone), blocks (coroutines
 *                       swapped out on a full or empty channel), wakeups.
 *
 *   spsc_threads_ring, spsc_threads_chan   throughput, msg/s, W0 -> W1 of
 *                       one int at a time, in order (the consumer checks
 *                       every value): the SPSC ring vs coro_chan_send /
 *                       coro_chan_recv from two plain pthreads (a thread
 *                       that finds the channel full or empty waits by
 *                       polling, no executor). spsc_ratio: chan / ring.
 *
 *   cacheline_rtt       calibration: one word each way in a cache line of
 *                       its own between W0 and W1 (two cross-CPU transfers).
 *
 * Output: CSV `metric,value,unit` on stdout. Every metric has _median, _min
 * and _max over ROUNDS rounds (each round's value is the mean over its
 * repetitions); ratios are of medians.
 *
 * Reading the numbers on the 2-vCPU VM. Single-CPU metrics (switch_*,
 * pair_*) move no cache line but still follow the host's mood (the same
 * metric can differ by 1.5x between runs); their ratios are steady.
 * switch_ucontext is dominated by the rt_sigprocmask system call in every
 * swapcontext, which on this paravirtualised guest costs 1-2 us, not the
 * ~220 ns of a bare-metal system call; the coro switch is a few register
 * pushes plus MXCSR/x87 control-word save and restore, and a yield adds the
 * look for work, so expect ~20-40x per hand-over (= per switch).
 * pair_chan_* paid, with coro_chan_new (~30x the ring), per operation the
 * whole coro_select path: argument checks, the CAS/add-only choice looked
 * up through the thread slot (and, in a plain thread, the core's
 * capabilities), a CAS to reserve, plat_copy (memcpy, a fence, a look for
 * sleepers), a CAS to publish, a look at the wait list. The SPSC path pays
 * a timed store to reserve, a state load, plat_copy, a store to publish
 * and the wait-list look (the other side's counter cached); each plat_* access is an indirect call
 * into the backend, and every write also looks for sleeping pollers. The
 * ring's push + pop is a few plain loads and stores in one cache line.
 * pair_chan_coro_sleeper was 100-200x pair_chan_coro when the native backend
 * had one wait queue for every plat_poll64 of the process: while any poller
 * slept, every platform store, CAS, add and copy of every core made a
 * futex_wake system call and woke it (here: the main thread, again and
 * again). Pollers now sleep in a queue per address bucket (plat/native/
 * wait.c), and the ratio is ~1. The documented use of the library -- the
 * scheduler core sleeping in coro_rt_free or coro_join, or an idle executor
 * in its loop -- is exactly that case; every other metric here keeps the main thread on a semaphore
 * and so measures the library without it.
 * Cross-CPU metrics (mpmc_*, spsc_threads_*, cacheline_rtt) follow the
 * host: a cache-line transfer costs ~55 ns or ~330 ns (and in bad minutes
 * microseconds) depending on the second, so their min and max can be far
 * apart; compare ratios within a run, and cacheline_rtt says which mode the
 * run was in. In mpmc_* the two executors fight over the channel's
 * counters; a coroutine that finds another one between reserving and
 * publishing counts a retry and looks again at once; when all of one
 * executor's coroutines block, it spins 30 us in plat_poll64 and then
 * sleeps on a futex (~23 us to wake). blocks/wakeups per message show how
 * often that path is taken.
 * Add-only pays one more atomic per turn (the look after the add) and is
 * expected at or a little below CAS; rollbacks are rare with two
 * executors. Natively the add-only backoff after a rollback is
 * plat_work_cycles, a no-op, so contenders retry at once. spsc_threads_chan
 * ran at 0.1-0.5x the ring with coro_chan_new: four locked operations and
 * two fences per message against the ring's two plain stores; the SPSC path
 * has no locked operation, and one store-load fence per send and per receive
 * (its announce; the publish is a release store): 0.25-0.31x with a fence on
 * every store, 0.54-0.59x after (docs/performance.md). The ring itself swings
 * the most (min and max 50x apart): a consumer that falls behind drains up to 64 slots per index
 * line, so its rate depends on the host's mode.
 */
#define _GNU_SOURCE
#define BENCH_NAME "bench/coro"
#include "bench.h"
#include "coro.h"
#include "ipcsim/plat.h"

#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#define ROUNDS 9
#define WATCHDOG_S 120 /* a lost message or a stuck executor fails the run */
#define RT_NAME "bench-coro"
#define LINE_REPS 20000
#define YIELDS 400000     /* coro_yield per round, both coroutines together */
#define YIELD_WARMUP 2000 /* per coroutine, before the clock starts */
#define SWAPS 200000      /* swapcontext per round, both contexts together */
#define UC_STACK (64 << 10)
#define PAIRS_CHAN 200000  /* send + recv pairs per round through a channel */
#define PAIRS_RING 2000000 /* push + pop pairs per round through the ring */
#define PAIRS_SLEEP 200000 /* pair_chan_coro_sleeper: as many as pair_chan_coro */
#define RING_CAP 64
#define MPMC_P 2 /* producers per executor */
#define MPMC_C 2 /* consumers per executor */
#define MPMC_CAP 64
#define MPMC_MSGS 200000 /* per round, all producers together */
#define NPROD (2 * MPMC_P)
#define NCONS (2 * MPMC_C)
#define PER_PROD (MPMC_MSGS / NPROD)
#define SEQ_BITS 24
#define SPSC_CHAN 200000 /* messages per round, channel between threads */
#define SPSC_RING 400000 /* messages per round, ring between threads */

enum { SW_CORO, SW_UC, NSW };
enum { PAIR_RING, PAIR_TRY, PAIR_CORO, PAIR_SLEEP, NPAIR };
enum { ALG_CAS, ALG_ADD, NALG };
enum { ST_RETRIES, ST_ROLLBACKS, ST_BLOCKS, ST_WAKEUPS, NST };
enum { SPSC_RING_I, SPSC_CHAN_I, NSPSC };
static const char *const alg_name[NALG] = {"cas", "addonly"};
static const char *const st_name[NST] = {"retries", "rollbacks", "blocks", "wakeups"};

__attribute__((format(printf, 1, 2))) static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, BENCH_NAME ": ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(EXIT_FAILURE);
}

/* ---- workers: pinned threads that run what they are handed ------------------ */

struct worker {
    pthread_t th;
    int cpu, core;
    sem_t go, done;
    void (*fn)(void *);
    void *arg;
};

static struct worker W[2];

static void *worker_main(void *p)
{
    struct worker *w = p;
    pin(w->cpu);
    w->core = plat_core(); /* a core of its own, every capability */
    sem_post(&w->done);
    for (;;) {
        while (sem_wait(&w->go) != 0) continue;
        if (!w->fn) return NULL;
        w->fn(w->arg);
        sem_post(&w->done);
    }
}

static void start(int i, void (*fn)(void *), void *arg)
{
    W[i].fn = fn;
    W[i].arg = arg;
    sem_post(&W[i].go);
}

static void finish(int i)
{
    while (sem_wait(&W[i].done) != 0) continue;
}

static void job_exec(void *arg)
{
    int r = coro_exec_run(arg);
    if (r != CORO_OK) fail("coro_exec_run: %s", coro_strerror(r));
}

/* Counts coroutines out; the last one wakes the main thread (a semaphore:
 * the main thread must not sleep in plat_poll64 while a round runs). */
static struct {
    atomic_int left;
    sem_t sem;
} gate;

static void gate_leave(void)
{
    if (atomic_fetch_sub(&gate.left, 1) == 1) sem_post(&gate.sem);
}

/* A runtime over the first nexec workers, coroutines fn[k](arg[k]) on
 * executors exec[k]; returns when all have returned and it is freed. With
 * plat_wait the main thread waits as a plain program would, in coro_join
 * (plat_poll64: 30 us of spinning, then asleep in the backend's wait queue)
 * instead of on the semaphore. */
static void run_runtime(int nexec, const bool *no_cas, int n, void (*const *fn)(void *),
                        void *const *arg, const int *exec, bool plat_wait)
{
    int cores[2] = {W[0].core, W[1].core};
    struct coro_rt_attr attr = {.stack_bytes = 64 << 10, .no_cas = no_cas};
    coro *co[16];
    if (n > 16) fail("too many coroutines");
    atomic_store(&gate.left, n);
    coro_rt *rt = coro_rt_new(RT_NAME, cores, nexec, &attr);
    if (!rt) fail("coro_rt_new failed");
    for (int k = 0; k < n; k++)
        if (!(co[k] = coro_spawn_on(rt, exec[k], fn[k], arg[k]))) fail("coro_spawn_on failed");
    for (int i = 0; i < nexec; i++) start(i, job_exec, RT_NAME);
    if (!plat_wait)
        while (sem_wait(&gate.sem) != 0) continue;
    for (int k = 0; k < n; k++) coro_join(co[k]);
    if (plat_wait)
        while (sem_wait(&gate.sem) != 0) continue; /* posted already */
    coro_rt_free(rt);
    for (int i = 0; i < nexec; i++) finish(i);
}

/* ---- calibration: a cache line each way between W0 and W1 ------------------- */

static struct {
    _Alignas(64) atomic_ulong ping;
    _Alignas(64) atomic_ulong pong;
    _Alignas(64) atomic_int ready; /* a spinning start line for two threads */
    unsigned long base;
    double ns;
} line;

static void spin_start(atomic_int *ready, int n)
{
    atomic_fetch_add(ready, 1);
    while (atomic_load(ready) < n) relax();
}

static void line_side(void *arg)
{
    int me = (int)(intptr_t)arg;
    spin_start(&line.ready, 2);
    uint64_t t0 = now_ns();
    for (unsigned long k = line.base + 1; k <= line.base + LINE_REPS; k++) {
        if (me == 0) {
            atomic_store_explicit(&line.ping, k, memory_order_release);
            while (atomic_load_explicit(&line.pong, memory_order_acquire) != k) relax();
        } else {
            while (atomic_load_explicit(&line.ping, memory_order_acquire) != k) relax();
            atomic_store_explicit(&line.pong, k, memory_order_release);
        }
    }
    if (me == 0) line.ns = (double)(now_ns() - t0) / LINE_REPS;
}

static double line_rtt(int round)
{
    atomic_store(&line.ready, 0);
    line.base = (unsigned long)round * LINE_REPS;
    start(0, line_side, (void *)(intptr_t)0);
    start(1, line_side, (void *)(intptr_t)1);
    finish(0);
    finish(1);
    return line.ns;
}

/* ---- 1. switches: coro_yield vs swapcontext --------------------------------- */

static struct {
    uint64_t t0, t1;
} sw;

static void yielder(void *arg)
{
    bool first = arg != NULL; /* spawned first, so it runs first */
    for (long i = 0; i < YIELD_WARMUP + YIELDS / 2; i++) {
        if (first && i == YIELD_WARMUP) sw.t0 = now_ns();
        coro_yield();
    }
    if (!first) sw.t1 = now_ns();
    gate_leave();
}

static double switch_coro(void)
{
    void (*const fn[2])(void *) = {yielder, yielder};
    void *const arg[2] = {&sw, NULL};
    const int exec[2] = {0, 0};
    run_runtime(1, NULL, 2, fn, arg, exec, false);
    return (double)(sw.t1 - sw.t0) / YIELDS; /* ns per yield */
}

static struct {
    ucontext_t main, a, b;
    char *stack_a, *stack_b;
    double ns;
} uc;

static void uc_a(void)
{
    for (long i = 0; i < SWAPS / 2; i++) swapcontext(&uc.a, &uc.b);
} /* returns to uc.main through uc_link */

static void uc_b(void)
{
    for (;;) swapcontext(&uc.b, &uc.a);
}

static void uc_make(ucontext_t *c, char *stack, void (*fn)(void))
{
    if (getcontext(c) != 0) fail("getcontext failed");
    c->uc_stack.ss_sp = stack;
    c->uc_stack.ss_size = UC_STACK;
    c->uc_link = &uc.main;
    makecontext(c, fn, 0);
}

static void uc_job(void *arg)
{
    (void)arg;
    uc_make(&uc.a, uc.stack_a, uc_a);
    uc_make(&uc.b, uc.stack_b, uc_b);
    uint64_t t0 = now_ns();
    if (swapcontext(&uc.main, &uc.a) != 0) fail("swapcontext failed");
    uc.ns = (double)(now_ns() - t0) / SWAPS; /* + 2 switches in and out: noise */
}

static double switch_uc(void)
{
    start(0, uc_job, NULL);
    finish(0);
    return uc.ns;
}

/* ---- 2. uncontended pairs: channel vs ring ----------------------------------- */

struct iring {
    _Alignas(64) atomic_size_t head; /* next slot the producer fills */
    _Alignas(64) atomic_size_t tail; /* next slot the consumer frees */
    _Alignas(64) int slot[RING_CAP];
};

static void ring_push(struct iring *r, int v)
{
    size_t h = atomic_load_explicit(&r->head, memory_order_relaxed);
    while (h - atomic_load_explicit(&r->tail, memory_order_acquire) == RING_CAP) relax();
    r->slot[h % RING_CAP] = v;
    atomic_store_explicit(&r->head, h + 1, memory_order_release);
}

static int ring_pop(struct iring *r)
{
    size_t t = atomic_load_explicit(&r->tail, memory_order_relaxed);
    while (atomic_load_explicit(&r->head, memory_order_acquire) == t) relax();
    int v = r->slot[t % RING_CAP];
    atomic_store_explicit(&r->tail, t + 1, memory_order_release);
    return v;
}

static struct {
    struct iring ring;
    coro_chan *ch;
    int n; /* pairs, for pair_coro */
    double ns;
} pr;

static void pair_ring_job(void *arg)
{
    (void)arg;
    uint64_t t0 = now_ns();
    for (int i = 0; i < PAIRS_RING; i++) {
        ring_push(&pr.ring, i);
        if (ring_pop(&pr.ring) != i) fail("pair_ring: wrong value");
    }
    pr.ns = (double)(now_ns() - t0) / PAIRS_RING;
}

/* n sends and receives in turn, the try_ or the blocking calls: ns/pair. */
static double chan_pairs(int n, bool try_ops)
{
    int (*send)(coro_chan *, const void *) = try_ops ? coro_chan_try_send : coro_chan_send;
    int (*recv)(coro_chan *, void *) = try_ops ? coro_chan_try_recv : coro_chan_recv;
    uint64_t t0 = now_ns();
    for (int i = 0; i < n; i++) {
        int v = -1, r;
        if ((r = send(pr.ch, &i)) != CORO_OK) fail("send: %s", coro_strerror(r));
        if ((r = recv(pr.ch, &v)) != CORO_OK) fail("recv: %s", coro_strerror(r));
        if (v != i) fail("pair: got %d, sent %d", v, i);
    }
    return (double)(now_ns() - t0) / n;
}

static void pair_try_job(void *arg)
{
    (void)arg;
    pr.ns = chan_pairs(PAIRS_CHAN, true);
}

static void pair_coro(void *arg)
{
    (void)arg;
    pr.ns = chan_pairs(pr.n, false);
    gate_leave();
}

static double pair(int impl)
{
    if (impl == PAIR_CORO || impl == PAIR_SLEEP) {
        void (*const fn[1])(void *) = {pair_coro};
        void *const arg[1] = {NULL};
        const int exec[1] = {0};
        pr.n = impl == PAIR_SLEEP ? PAIRS_SLEEP : PAIRS_CHAN;
        run_runtime(1, NULL, 1, fn, arg, exec, impl == PAIR_SLEEP);
    } else {
        start(0, impl == PAIR_RING ? pair_ring_job : pair_try_job, NULL);
        finish(0);
    }
    return pr.ns;
}

/* ---- 3. contended MPMC across two executors --------------------------------- */

struct consumer {
    int id;
    long got;
    long last[NPROD];   /* the last sequence number seen of each producer */
    unsigned char *map; /* one bit per (producer, seq) */
    uint64_t t_end;
};

static struct {
    coro_chan *ch;
    _Alignas(64) atomic_int started;
    _Alignas(64) atomic_int prod_done;
    uint64_t t0;
    int prod_id[NPROD];
    struct consumer cons[NCONS];
    unsigned char *all; /* the union of the consumers' maps */
} mp;

#define MAP_BYTES ((size_t)NPROD * PER_PROD / 8 + 1)

/* Every coroutine waits (yielding) until all have started: the clock then
 * sees both executors busy from its first tick. */
static void mpmc_start(void)
{
    if (atomic_fetch_add(&mp.started, 1) + 1 == NPROD + NCONS) mp.t0 = now_ns();
    while (atomic_load(&mp.started) < NPROD + NCONS) coro_yield();
}

static void producer(void *arg)
{
    int p = *(const int *)arg;
    mpmc_start();
    for (int s = 0; s < PER_PROD; s++) {
        int v = (p << SEQ_BITS) | s, r = coro_chan_send(mp.ch, &v);
        if (r != CORO_OK) fail("mpmc: producer %d: coro_chan_send: %s", p, coro_strerror(r));
    }
    if (atomic_fetch_add(&mp.prod_done, 1) + 1 == NPROD) coro_chan_close(mp.ch);
    gate_leave();
}

static void consumer(void *arg)
{
    struct consumer *c = arg;
    mpmc_start();
    for (;;) {
        int v, r = coro_chan_recv(mp.ch, &v);
        if (r == CORO_ECLOSED) break;
        if (r != CORO_OK) fail("mpmc: consumer %d: coro_chan_recv: %s", c->id, coro_strerror(r));
        int p = v >> SEQ_BITS;
        long s = v & ((1 << SEQ_BITS) - 1);
        if (p < 0 || p >= NPROD || s >= PER_PROD)
            fail("mpmc: consumer %d: received %#x, no producer sent it", c->id, (unsigned)v);
        if (s <= c->last[p])
            fail("mpmc: consumer %d: producer %d's message %ld after %ld", c->id, p, s, c->last[p]);
        c->last[p] = s;
        size_t bit = (size_t)p * PER_PROD + (size_t)s;
        c->map[bit / 8] |= (unsigned char)(1u << (bit % 8));
        c->got++;
    }
    c->t_end = now_ns();
    gate_leave();
}

/* Every (producer, seq) received by exactly one consumer. */
static void mpmc_check(const char *alg)
{
    memset(mp.all, 0, MAP_BYTES);
    long total = 0;
    for (int k = 0; k < NCONS; k++) {
        const struct consumer *c = &mp.cons[k];
        total += c->got;
        for (size_t i = 0; i < MAP_BYTES; i++) {
            if (mp.all[i] & c->map[i])
                fail("mpmc %s: a message near #%zu received twice", alg, i * 8);
            mp.all[i] |= c->map[i];
        }
    }
    for (size_t bit = 0; bit < (size_t)NPROD * PER_PROD; bit++)
        if (!(mp.all[bit / 8] & (1u << (bit % 8))))
            fail("mpmc %s: producer %zu's message %zu never received", alg, bit / PER_PROD,
                 bit % PER_PROD);
    if (total != (long)NPROD * PER_PROD)
        fail("mpmc %s: %ld messages received, %d sent", alg, total, NPROD * PER_PROD);
}

static double mpmc(int alg, double st[NST])
{
    mp.ch = coro_chan_new(sizeof(int), MPMC_CAP);
    if (!mp.ch) fail("coro_chan_new failed");
    atomic_store(&mp.started, 0);
    atomic_store(&mp.prod_done, 0);
    void (*fn[NPROD + NCONS])(void *);
    void *arg[NPROD + NCONS];
    int exec[NPROD + NCONS], n = 0;
    for (int e = 0; e < 2; e++) { /* producers and consumers alternate on each */
        for (int j = 0; j < MPMC_P || j < MPMC_C; j++) {
            if (j < MPMC_P) {
                int p = e * MPMC_P + j;
                mp.prod_id[p] = p;
                fn[n] = producer, arg[n] = &mp.prod_id[p], exec[n++] = e;
            }
            if (j < MPMC_C) {
                struct consumer *c = &mp.cons[e * MPMC_C + j];
                c->id = e * MPMC_C + j;
                c->got = 0;
                for (int p = 0; p < NPROD; p++) c->last[p] = -1;
                memset(c->map, 0, MAP_BYTES);
                fn[n] = consumer, arg[n] = c, exec[n++] = e;
            }
        }
    }
    const bool no_cas[2] = {alg == ALG_ADD, alg == ALG_ADD};
    run_runtime(2, no_cas, n, fn, arg, exec, false);
    mpmc_check(alg_name[alg]);
    uint64_t t1 = 0;
    for (int k = 0; k < NCONS; k++)
        if (mp.cons[k].t_end > t1) t1 = mp.cons[k].t_end;
    struct coro_chan_stats cs;
    coro_chan_stats(mp.ch, &cs);
    if (cs.sends != (uint64_t)NPROD * PER_PROD || cs.recvs != cs.sends)
        fail("mpmc %s: the channel counted %llu sends and %llu receives", alg_name[alg],
             (unsigned long long)cs.sends, (unsigned long long)cs.recvs);
    const uint64_t v[NST] = {cs.retries, cs.rollbacks, cs.blocks, cs.wakeups};
    for (int i = 0; i < NST; i++) st[i] = (double)v[i] / (double)cs.sends;
    coro_chan_free(mp.ch);
    return (double)cs.sends * 1e9 / (double)(t1 - mp.t0);
}

/* ---- SPSC between two plain threads: channel vs ring ------------------------- */

static struct {
    struct iring ring;
    coro_chan *ch;
    _Alignas(64) atomic_int ready;
    int impl;
    double rate;
} sp;

static void spsc_side(void *arg)
{
    bool prod = arg == NULL;
    int n = sp.impl == SPSC_RING_I ? SPSC_RING : SPSC_CHAN;
    spin_start(&sp.ready, 2);
    uint64_t t0 = now_ns();
    for (int i = 0; i < n; i++) {
        int v = i, r = CORO_OK;
        if (sp.impl == SPSC_RING_I && prod)
            ring_push(&sp.ring, i);
        else if (sp.impl == SPSC_RING_I)
            v = ring_pop(&sp.ring);
        else if (prod)
            r = coro_chan_send(sp.ch, &v);
        else
            r = coro_chan_recv(sp.ch, &v);
        if (r != CORO_OK) fail("spsc: %s", coro_strerror(r));
        if (v != i) fail("spsc: message %d arrived as %d", i, v);
    }
    if (!prod) sp.rate = (double)n * 1e9 / (double)(now_ns() - t0);
}

static double spsc(int impl)
{
    sp.impl = impl;
    atomic_store(&sp.ready, 0);
    start(0, spsc_side, NULL);
    start(1, spsc_side, &sp);
    finish(0);
    finish(1);
    return sp.rate;
}

/* ---- output ------------------------------------------------------------------- */

static double report(const char *metric, const double *v, const char *unit, const char *fmt)
{
    return print_stats(metric, "_median", v, ROUNDS, unit, fmt);
}

static void watchdog(int sig)
{
    static const char m[] = BENCH_NAME ": watchdog: the run is stuck, giving up\n";
    (void)sig;
    if (write(STDERR_FILENO, m, sizeof m - 1) < 0) _exit(3);
    _exit(3);
}

static struct {
    double line[ROUNDS];
    double sw[NSW][ROUNDS];
    double pair[NPAIR][ROUNDS];
    double mpmc[NALG][ROUNDS];
    double st[NALG][NST][ROUNDS];
    double spsc[NSPSC][ROUNDS];
} res;

int main(int argc, char **argv)
{
    bench_args(argc, argv,
               "The coro library against its floors, interleaved round by round: a\n"
               "coroutine switch against glibc's swapcontext, channel send + receive\n"
               "against a bare SPSC ring (one thread, a coroutine, two threads), and\n"
               "the MPMC channel under contention. Metrics: the header of bench/coro.c.\n");
    int cpu[2];
    pick_cpus(cpu);
    signal(SIGALRM, watchdog);
    alarm(WATCHDOG_S);
    sem_init(&gate.sem, 0, 0);
    for (int i = 0; i < 2; i++) {
        W[i].cpu = cpu[i];
        sem_init(&W[i].go, 0, 0);
        sem_init(&W[i].done, 0, 0);
        if (pthread_create(&W[i].th, NULL, worker_main, &W[i]) != 0) fail("pthread_create");
        finish(i);
    }
    uc.stack_a = malloc(UC_STACK);
    uc.stack_b = malloc(UC_STACK);
    pr.ch = coro_chan_new_spsc(sizeof(int), RING_CAP);
    sp.ch = coro_chan_new_spsc(sizeof(int), RING_CAP);
    mp.all = malloc(MAP_BYTES);
    for (int k = 0; k < NCONS; k++) mp.cons[k].map = malloc(MAP_BYTES);
    if (!uc.stack_a || !uc.stack_b || !pr.ch || !sp.ch || !mp.all) fail("out of memory");
    for (int k = 0; k < NCONS; k++)
        if (!mp.cons[k].map) fail("out of memory");

    for (int r = 0; r < ROUNDS; r++) {
        res.line[r] = line_rtt(r);
        for (int i = 0; i < NSW; i++) {
            int im = (i + r) % NSW;
            res.sw[im][r] = im == SW_CORO ? switch_coro() : switch_uc();
        }
        for (int i = 0; i < NPAIR; i++) {
            int im = (i + r) % NPAIR;
            res.pair[im][r] = pair(im);
        }
        for (int i = 0; i < NALG; i++) {
            int a = (i + r) % NALG;
            double st[NST];
            res.mpmc[a][r] = mpmc(a, st);
            for (int k = 0; k < NST; k++) res.st[a][k][r] = st[k];
        }
        for (int i = 0; i < NSPSC; i++) {
            int im = (i + r) % NSPSC;
            res.spsc[im][r] = spsc(im);
        }
    }
    for (int i = 0; i < 2; i++) {
        start(i, NULL, NULL);
        pthread_join(W[i].th, NULL);
    }

    printf("metric,value,unit\n");
    printf("rounds,%d,count\n", ROUNDS);
    report("cacheline_rtt", res.line, "ns", "%.1f");

    double per_switch[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) per_switch[r] = res.sw[SW_CORO][r]; /* one per yield */
    double yield = report("switch_coro_yield", res.sw[SW_CORO], "ns", "%.1f");
    double sw1 = report("switch_coro_switch", per_switch, "ns", "%.1f");
    double ucm = report("switch_ucontext", res.sw[SW_UC], "ns", "%.1f");
    printf("switch_ratio_per_switch,%.2f,ucontext/coro_switch\n", ucm / sw1);
    printf("switch_ratio_per_handover,%.2f,ucontext/coro_yield\n", ucm / yield);

    double ring = report("pair_ring", res.pair[PAIR_RING], "ns", "%.1f");
    double ptry = report("pair_chan_try", res.pair[PAIR_TRY], "ns", "%.1f");
    double pco = report("pair_chan_coro", res.pair[PAIR_CORO], "ns", "%.1f");
    double psl = report("pair_chan_coro_sleeper", res.pair[PAIR_SLEEP], "ns", "%.1f");
    printf("pair_ratio_try,%.2f,chan_try/ring\n", ptry / ring);
    printf("pair_ratio_coro,%.2f,chan_coro/ring\n", pco / ring);
    printf("pair_ratio_sleeper,%.1f,chan_coro_sleeper/chan_coro\n", psl / pco);

    double mm[NALG];
    char name[96];
    for (int a = 0; a < NALG; a++) {
        snprintf(name, sizeof name, "mpmc_%s", alg_name[a]);
        mm[a] = report(name, res.mpmc[a], "msg/s", "%.0f");
    }
    printf("mpmc_ratio,%.3f,addonly/cas\n", mm[ALG_ADD] / mm[ALG_CAS]);
    for (int a = 0; a < NALG; a++)
        for (int k = 0; k < NST; k++) {
            snprintf(name, sizeof name, "mpmc_%s_%s_per_msg", alg_name[a], st_name[k]);
            report(name, res.st[a][k], "count", "%.4f");
        }

    double sr = report("spsc_threads_ring", res.spsc[SPSC_RING_I], "msg/s", "%.0f");
    double sc = report("spsc_threads_chan", res.spsc[SPSC_CHAN_I], "msg/s", "%.0f");
    printf("spsc_ratio,%.3f,chan/ring\n", sc / sr);

    coro_chan_free(pr.ch);
    coro_chan_free(sp.ch);
    return EXIT_SUCCESS;
}
