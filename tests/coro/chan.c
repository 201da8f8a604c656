/* chan.c -- channels: order, mutual wake-up, many producers and consumers
 * with CAS, with add-only atomics and mixed, close, try, select, threads. */
#include "ct.h"

#include <stdlib.h>
#include <string.h>

/* ---- one producer, one consumer, a small buffer: order and wake-ups ------- */

#define SPSC_N 2000

struct spsc {
    coro_chan *ch;
    int bad;
};

static void spsc_send(void *arg)
{
    struct spsc *s = arg;
    for (int i = 0; i < SPSC_N; i++) ck_assert_int_eq(coro_chan_send(s->ch, &i), CORO_OK);
}

static void spsc_recv(void *arg)
{
    struct spsc *s = arg;
    for (int i = 0; i < SPSC_N; i++) {
        int v = -1;
        ck_assert_int_eq(coro_chan_recv(s->ch, &v), CORO_OK);
        if (v != i) s->bad++;
    }
}

/* arg: non-NULL for a channel made by coro_chan_new_spsc. */
static void sched_spsc(coro_rt *rt, void *arg)
{
    bool fast = arg != NULL;
    struct spsc s = {fast ? coro_chan_new_spsc(sizeof(int), 4) : coro_chan_new(sizeof(int), 4), 0};
    ck_assert_ptr_nonnull(s.ch);
    coro *r = coro_spawn_on(rt, 1, spsc_recv, &s);
    coro *p = coro_spawn_on(rt, 0, spsc_send, &s);
    coro_join(p);
    coro_join(r);
    ck_assert_int_eq(s.bad, 0);
    struct coro_chan_stats st;
    coro_chan_stats(s.ch, &st);
    ck_assert_uint_eq(st.sends, SPSC_N);
    ck_assert_uint_eq(st.recvs, SPSC_N);
    if (!fast) { /* 2000 through 4 slots: somebody waited (SPSC: timing may spare it) */
        ck_assert_uint_gt(st.blocks, 0);
        ck_assert_uint_gt(st.wakeups, 0);
    }
    ck_assert_uint_eq(coro_chan_len(s.ch), 0);
    ck_assert_uint_eq(st.spsc, fast);
    coro_chan_free(s.ch);
}

static void case_spsc(void *arg)
{
    (void)arg;
    ct_run(sched_spsc, NULL, NULL);
}

/* The same through the SPSC path, on executors with and without CAS: its
 * blocking waits go through attempt(), which must agree with it. */
static void case_spsc_fast(void *arg)
{
    (void)arg;
    ct_run(sched_spsc, "spsc", NULL);
}

static void case_spsc_fast_addonly(void *arg)
{
    static const bool no_cas[2] = {true, true};
    (void)arg;
    ct_run(sched_spsc, "spsc", no_cas);
}

/* ---- same executor: producer and consumer coroutines wake each other ------- */

static void sched_local(coro_rt *rt, void *arg)
{
    (void)arg;
    struct spsc s = {coro_chan_new(sizeof(int), 1), 0};
    coro *r = coro_spawn_on(rt, 0, spsc_recv, &s);
    coro *p = coro_spawn_on(rt, 0, spsc_send, &s);
    coro_join(p);
    coro_join(r);
    ck_assert_int_eq(s.bad, 0);
    coro_chan_free(s.ch);
}

static void case_local(void *arg)
{
    (void)arg;
    ct_run(sched_local, NULL, NULL);
}

/* ---- many producers and consumers: nothing lost, nothing twice -------------- */

#define MP_MAX 8
#define MP_N_MAX 20000

struct mpmc {
    int prods, conss; /* producers and consumers */
    long n;           /* messages per producer */
    coro_chan *ch;
    uint8_t *seen; /* [producer][seq], counted by consumers (under no lock: */
    uint64_t got;  /*  each cell is written by the one consumer that got it) */
    int dup, foreign;
};
struct role {
    struct mpmc *m;
    int id;
};

static void mp_send(void *arg)
{
    struct role *r = arg;
    for (uint32_t i = 0; i < (uint32_t)r->m->n; i++) {
        uint64_t v = (uint64_t)r->id << 32 | i;
        ck_assert_int_eq(coro_chan_send(r->m->ch, &v), CORO_OK);
        if (i % 64 == 0) coro_yield();
    }
}

static void mp_recv(void *arg)
{
    struct role *r = arg;
    for (;;) {
        uint64_t v;
        int st = coro_chan_recv(r->m->ch, &v);
        if (st == CORO_ECLOSED) break;
        ck_assert_int_eq(st, CORO_OK);
        uint32_t p = (uint32_t)(v >> 32), i = (uint32_t)v;
        if (p >= (uint32_t)r->m->prods || i >= (uint32_t)r->m->n) {
            __atomic_fetch_add(&r->m->foreign, 1, __ATOMIC_RELAXED);
            continue;
        }
        if (__atomic_fetch_add(&r->m->seen[p * (uint32_t)r->m->n + i], 1, __ATOMIC_RELAXED))
            __atomic_fetch_add(&r->m->dup, 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&r->m->got, 1, __ATOMIC_RELAXED);
    }
}

/* arg: {producers, consumers, messages each, capacity}. Producers and
 * consumers spread over the executors; the producers are joined, the
 * channel closed, the consumers drain it. */
static void sched_mpmc(coro_rt *rt, void *arg)
{
    const long *cfg = arg;
    struct mpmc m = {(int)cfg[0],
                     (int)cfg[1],
                     cfg[2],
                     coro_chan_new(sizeof(uint64_t), (size_t)cfg[3]),
                     calloc((size_t)(cfg[0] * cfg[2]), 1),
                     0,
                     0,
                     0};
    ck_assert_ptr_nonnull(m.seen);
    struct role pr[MP_MAX], cr[MP_MAX];
    coro *pc[MP_MAX], *cc[MP_MAX];
    int n = plat_cores() - 1;
    long total = m.prods * m.n;
    for (int i = 0; i < m.conss; i++) {
        cr[i] = (struct role){&m, i};
        cc[i] = coro_spawn_on(rt, i % n, mp_recv, &cr[i]);
    }
    for (int i = 0; i < m.prods; i++) {
        pr[i] = (struct role){&m, i};
        pc[i] = coro_spawn_on(rt, (i + 1) % n, mp_send, &pr[i]);
    }
    for (int i = 0; i < m.prods; i++) coro_join(pc[i]);
    coro_chan_close(m.ch);
    for (int i = 0; i < m.conss; i++) coro_join(cc[i]);
    ck_assert_int_eq(m.foreign, 0);
    ck_assert_int_eq(m.dup, 0);
    ck_assert_uint_eq(m.got, total);
    for (long i = 0; i < total; i++) ck_assert_int_eq(m.seen[i], 1);
    struct coro_chan_stats st;
    coro_chan_stats(m.ch, &st);
    ck_assert_uint_eq(st.sends, total);
    ck_assert_uint_eq(st.recvs, total);
    ck_assert_uint_eq(st.spsc, 0); /* many producers: the paper's turns */
    free(m.seen);
    coro_chan_free(m.ch);
}

static long mpmc_small[4] = {3, 3, 1500, 16};
/* The stress: 8 producers, 8 consumers, 20000 messages each through 8
 * slots, on 4 executors (threads on different CPUs natively). */
static long mpmc_stress[4] = {MP_MAX, MP_MAX, MP_N_MAX, 8};

static const bool all_no_cas[8] = {true, true, true, true, true, true, true, true};
static const bool mixed_cas[8] = {true, false, true, false, true, false, true, false};

static void case_mpmc_cas(void *arg)
{
    (void)arg;
    ct_run(sched_mpmc, mpmc_small, NULL);
}

static void case_mpmc_addonly(void *arg)
{
    (void)arg;
    ct_run(sched_mpmc, mpmc_small, all_no_cas);
}

static void case_mpmc_mixed(void *arg)
{
    (void)arg;
    ct_run(sched_mpmc, mpmc_small, mixed_cas);
}

static void case_stress_cas(void *arg)
{
    (void)arg;
    ct_run(sched_mpmc, mpmc_stress, NULL);
}

static void case_stress_addonly(void *arg)
{
    (void)arg;
    ct_run(sched_mpmc, mpmc_stress, all_no_cas);
}

static void case_stress_mixed(void *arg)
{
    (void)arg;
    ct_run(sched_mpmc, mpmc_stress, mixed_cas);
}

/* ---- close: drain, then closed; sends fail; blocked receivers wake ---------- */

struct closing {
    coro_chan *ch;
    int got, last;
};

static void drain_then_closed(void *arg)
{
    struct closing *c = arg;
    int v;
    while ((c->last = coro_chan_recv(c->ch, &v)) == CORO_OK) {
        ck_assert_int_eq(v, c->got);
        c->got++;
    }
}

static void sched_close(coro_rt *rt, void *arg)
{
    (void)arg;
    struct closing c = {coro_chan_new(sizeof(int), 16), 0, 0};
    for (int i = 0; i < 10; i++) ck_assert_int_eq(coro_chan_send(c.ch, &i), CORO_OK);
    coro_chan_close(c.ch);
    int v = 99;
    ck_assert_int_eq(coro_chan_send(c.ch, &v), CORO_ECLOSED);
    ck_assert_int_eq(coro_chan_try_send(c.ch, &v), CORO_ECLOSED);
    coro_chan_close(c.ch); /* twice is harmless */
    coro_join(coro_spawn_on(rt, 0, drain_then_closed, &c));
    ck_assert_int_eq(c.got, 10);
    ck_assert_int_eq(c.last, CORO_ECLOSED);
    coro_chan_free(c.ch);

    /* A receiver blocked on an empty channel is woken by the close. */
    struct closing e = {coro_chan_new(sizeof(int), 4), 0, 0};
    coro *r = coro_spawn_on(rt, 0, drain_then_closed, &e);
    plat_sleep_ns(1000000);
    coro_chan_close(e.ch);
    coro_join(r);
    ck_assert_int_eq(e.got, 0);
    ck_assert_int_eq(e.last, CORO_ECLOSED);
    coro_chan_free(e.ch);
}

static void case_close(void *arg)
{
    (void)arg;
    ct_run(sched_close, NULL, NULL);
}

/* ---- capacities that are and are not powers of two wrap in order ------------- */

/* Fill, drain part, fill again: positions wrap the buffer many times, and
 * every element comes out once, in order, whichever way the slot is found. */
static void wrap_check(coro_chan *ch, uint64_t cap)
{
    uint64_t next_in = 0, next_out = 0, v;
    for (int round = 0; round < 40; round++) {
        while (coro_chan_try_send(ch, &next_in) == CORO_OK) next_in++;
        ck_assert_uint_eq(next_in - next_out, cap);
        for (uint64_t k = 0; k < (uint64_t)round % cap + 1; k++) {
            ck_assert_int_eq(coro_chan_try_recv(ch, &v), CORO_OK);
            ck_assert_uint_eq(v, next_out);
            next_out++;
        }
    }
    while (coro_chan_try_recv(ch, &v) == CORO_OK) ck_assert_uint_eq(v, next_out++);
    ck_assert_uint_eq(next_out, next_in);
    coro_chan_free(ch);
}

static void case_wrap(void *arg)
{
    (void)arg;
    if (plat_core() != 0) return;
    static const uint64_t caps[] = {1, 3, 4, 5, 8, 12};
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
        wrap_check(coro_chan_new(sizeof(uint64_t), caps[i]), caps[i]);
        wrap_check(coro_chan_new_spsc(sizeof(uint64_t), caps[i]), caps[i]);
    }
}

/* ---- try and the argument checks ----------------------------------------------- */

static void case_try(void *arg)
{
    (void)arg;
    if (plat_core() != 0) return;
    coro_chan *ch = coro_chan_new(sizeof(short), 2);
    short a = 1, b = 2, c = 3, out = 0;
    ck_assert_int_eq(coro_chan_try_recv(ch, &out), CORO_EAGAIN);
    ck_assert_int_eq(coro_chan_try_send(ch, &a), CORO_OK);
    ck_assert_int_eq(coro_chan_try_send(ch, &b), CORO_OK);
    ck_assert_int_eq(coro_chan_try_send(ch, &c), CORO_EAGAIN);
    ck_assert_uint_eq(coro_chan_len(ch), 2);
    ck_assert_int_eq(coro_chan_try_recv(ch, &out), CORO_OK);
    ck_assert_int_eq(out, 1);
    ck_assert_int_eq(coro_chan_try_send(ch, &c), CORO_OK);
    ck_assert_int_eq(coro_chan_try_recv(ch, &out), CORO_OK);
    ck_assert_int_eq(out, 2);
    ck_assert_int_eq(coro_chan_try_recv(ch, &out), CORO_OK);
    ck_assert_int_eq(out, 3);
    struct coro_case none[1] = {{NULL, CORO_RECV, &out}};
    ck_assert_int_eq(coro_select(none, 1, 0), CORO_EINVAL);
    ck_assert_int_eq(coro_select(NULL, 0, 0), CORO_EINVAL);
    ck_assert_ptr_null(coro_chan_new(0, 4));
    ck_assert_ptr_null(coro_chan_new(4, 0));
    ck_assert_str_eq(coro_strerror(CORO_ECLOSED), "channel closed");
    coro_chan_free(ch);
}

/* ---- select: the first ready of several; timeouts ---------------------------------- */

struct sel {
    coro_chan *a, *b;
    int from_a, from_b, sum_a, sum_b;
    int timed_out, again;
    uint64_t tried; /* the eater has made its two early attempts */
};

static void sel_feed(void *arg)
{
    struct sel *s = arg;
    for (int i = 1; i <= 100; i++) {
        coro_chan_send(i % 3 ? s->a : s->b, &i);
        if (i % 10 == 0) coro_sleep_ns(50000);
    }
    coro_chan_close(s->a);
    coro_chan_close(s->b);
}

static void sel_eat(void *arg)
{
    struct sel *s = arg;
    int va, vb;
    struct coro_case cs[2] = {{s->a, CORO_RECV, &va}, {s->b, CORO_RECV, &vb}};
    s->again = coro_select(cs, 2, 0) == CORO_EAGAIN;
    s->timed_out = coro_select(cs, 2, 100000) == CORO_ETIMEDOUT;
    plat_store64(&s->tried, 1);
    for (;;) {
        int r = coro_select(cs, 2, CORO_FOREVER);
        if (r == CORO_ECLOSED) break;
        ck_assert_int_ge(r, 0);
        if (r == 0) {
            s->from_a++;
            s->sum_a += va;
        } else {
            s->from_b++;
            s->sum_b += vb;
        }
    }
}

static void sched_select(coro_rt *rt, void *arg)
{
    (void)arg;
    struct sel s = {
        coro_chan_new(sizeof(int), 4), coro_chan_new(sizeof(int), 4), 0, 0, 0, 0, 0, 0, 0};
    coro *e = coro_spawn_on(rt, 0, sel_eat, &s);
    while (!plat_load64(&s.tried)) plat_poll64(&s.tried, 0, HARNESS_WAIT_NS); /* before any send */
    coro *f = coro_spawn_on(rt, 1, sel_feed, &s);
    coro_join(f);
    coro_join(e);
    ck_assert_int_eq(s.again, 1);
    ck_assert_int_eq(s.timed_out, 1);
    ck_assert_int_eq(s.from_a + s.from_b, 100);
    ck_assert_int_eq(s.from_b, 33); /* multiples of 3 went to b */
    ck_assert_int_eq(s.sum_a + s.sum_b, 5050);
    coro_chan_free(s.a);
    coro_chan_free(s.b);
}

static void case_select(void *arg)
{
    (void)arg;
    ct_run(sched_select, NULL, NULL);
}

/* ---- select is fair: two always-ready channels both get served -------------- */

static void case_select_fair(void *arg)
{
    (void)arg;
    if (plat_core() != 0) return;
    coro_chan *a = coro_chan_new(sizeof(int), 200), *b = coro_chan_new(sizeof(int), 200);
    for (int i = 0; i < 200; i++) {
        ck_assert_int_eq(coro_chan_send(a, &i), CORO_OK);
        ck_assert_int_eq(coro_chan_send(b, &i), CORO_OK);
    }
    int va, vb, got[2] = {0, 0};
    struct coro_case cs[2] = {{a, CORO_RECV, &va}, {b, CORO_RECV, &vb}};
    for (int i = 0; i < 200; i++) {
        int r = coro_select(cs, 2, 0);
        ck_assert(r == 0 || r == 1);
        got[r]++;
    }
    /* In order, a would have served all 200. */
    ck_assert_msg(got[0] >= 50 && got[1] >= 50, "a %d, b %d", got[0], got[1]);
    coro_chan_free(a);
    coro_chan_free(b);
}

/* ---- plain threads (no executor) on both ends: they wait by polling ---------- */

#define TH_N 500

/* The channel core 0 made and left on the board. */
static coro_chan *board_chan(uint64_t *board)
{
    uint64_t v;
    while (!(v = plat_load64(&board[0]))) plat_poll64(&board[0], 0, HARNESS_WAIT_NS);
    return (coro_chan *)(uintptr_t)v;
}

static void case_threads(void *arg)
{
    (void)arg;
    uint64_t *board = harness_board();
    if (plat_core() == 0) {
        coro_chan *ch = coro_chan_new(sizeof(uint32_t), 2);
        plat_store64(&board[0], (uint64_t)(uintptr_t)ch);
        for (uint32_t i = 0; i < TH_N; i++) ck_assert_int_eq(coro_chan_send(ch, &i), CORO_OK);
        coro_chan_close(ch);
        harness_barrier();
        coro_chan_free(ch);
        return;
    }
    coro_chan *ch = board_chan(board);
    uint32_t want = 0, got;
    int st;
    while ((st = coro_chan_recv(ch, &got)) == CORO_OK) ck_assert_uint_eq(got, want++);
    ck_assert_int_eq(st, CORO_ECLOSED);
    ck_assert_uint_eq(want, TH_N);
    harness_barrier();
}

/* ---- SPSC path between two plain threads: every message once, in order ------ */

#define SPSC_TH_N 200000

static void spsc_threads(long n, size_t cap)
{
    uint64_t *board = harness_board();
    if (plat_core() == 0) {
        coro_chan *ch = coro_chan_new_spsc(sizeof(uint64_t), cap);
        plat_store64(&board[0], (uint64_t)(uintptr_t)ch);
        for (uint64_t i = 0; i < (uint64_t)n; i++) {
            int st;
            /* Mix the try path (spins here) with the blocking one. */
            while (i % 2 && (st = coro_chan_try_send(ch, &i)) == CORO_EAGAIN) plat_yield();
            if (i % 2 == 0) st = coro_chan_send(ch, &i);
            ck_assert_int_eq(st, CORO_OK);
        }
        coro_chan_close(ch);
        uint64_t x = 0;
        ck_assert_int_eq(coro_chan_send(ch, &x), CORO_ECLOSED);
        harness_barrier();
        struct coro_chan_stats st;
        coro_chan_stats(ch, &st);
        ck_assert_uint_eq(st.sends, (uint64_t)n);
        ck_assert_uint_eq(st.recvs, (uint64_t)n);
        ck_assert_uint_eq(st.spsc, 1);
        coro_chan_free(ch);
        return;
    }
    coro_chan *ch = board_chan(board);
    uint64_t want = 0, got;
    int st;
    while ((st = coro_chan_recv(ch, &got)) == CORO_OK) ck_assert_uint_eq(got, want++);
    ck_assert_int_eq(st, CORO_ECLOSED);
    ck_assert_uint_eq(want, (uint64_t)n);
    ck_assert_int_eq(coro_chan_try_recv(ch, &got), CORO_ECLOSED);
    harness_barrier();
}

static void case_spsc_threads(void *arg)
{
    (void)arg;
    spsc_threads(TH_N, 8);
}

static void case_spsc_stress(void *arg)
{
    (void)arg;
    spsc_threads(SPSC_TH_N, 8);
}

/* One slot: nearly every message finds the channel full or empty, so each
 * side keeps joining the wait list while the other announces and publishes
 * (the store-load hand-shake of spsc_send, spsc_recv and ready()); a wake-up lost
 * there leaves a side asleep for good and the case times out. */
static void case_spsc_stress_one_slot(void *arg)
{
    (void)arg;
    spsc_threads(SPSC_TH_N / 4, 1);
}

/* Simulated time of n try_send + try_recv pairs from a plain thread. */
static uint64_t pairs_ns(coro_chan *ch, int n)
{
    uint64_t t0 = plat_now_ns();
    for (int i = 0, got; i < n; i++) {
        ck_assert_int_eq(coro_chan_try_send(ch, &i), CORO_OK);
        ck_assert_int_eq(coro_chan_try_recv(ch, &got), CORO_OK);
        ck_assert_int_eq(got, i);
    }
    return plat_now_ns() - t0;
}

/* In simulation every access is charged: the SPSC path, with no CAS or
 * add and the other side's counter cached, costs less than the paper's. */
static void case_spsc_cheaper(void *arg)
{
    (void)arg;
    coro_chan *mpmc = coro_chan_new(sizeof(int), 4), *spsc = coro_chan_new_spsc(sizeof(int), 4);
    ck_assert_ptr_nonnull(mpmc);
    ck_assert_ptr_nonnull(spsc);
    uint64_t general = pairs_ns(mpmc, 100), fast = pairs_ns(spsc, 100);
    ck_assert_msg(fast < general, "SPSC %llu ns, general %llu ns for 100 pairs",
                  (unsigned long long)fast, (unsigned long long)general);
    coro_chan_free(mpmc);
    coro_chan_free(spsc);
}

static const struct harness_case cases[] = {
    {.name = "chan_spsc_order", .core = case_spsc, .cores = 3},
    {.name = "chan_same_executor", .core = case_local, .cores = 2},
    {.name = "chan_mpmc_cas", .core = case_mpmc_cas, .cores = 4},
    {.name = "chan_mpmc_addonly", .core = case_mpmc_addonly, .cores = 4},
    {.name = "chan_mpmc_mixed", .core = case_mpmc_mixed, .cores = 4},
    {.name = "chan_stress_cas", .core = case_stress_cas, .cores = 5, .backends = HARNESS_NATIVE},
    {.name = "chan_stress_addonly",
     .core = case_stress_addonly,
     .cores = 5,
     .backends = HARNESS_NATIVE},
    {.name = "chan_stress_mixed",
     .core = case_stress_mixed,
     .cores = 5,
     .backends = HARNESS_NATIVE},
    {.name = "chan_close", .core = case_close, .cores = 2},
    {.name = "chan_try", .core = case_try, .cores = 1},
    {.name = "chan_wraps", .core = case_wrap, .cores = 1},
    {.name = "chan_select", .core = case_select, .cores = 3},
    {.name = "chan_select_fair", .core = case_select_fair, .cores = 1},
    {.name = "chan_threads", .core = case_threads, .cores = 2},
    {.name = "chan_spsc_fast", .core = case_spsc_fast, .cores = 3},
    {.name = "chan_spsc_fast_addonly", .core = case_spsc_fast_addonly, .cores = 3},
    {.name = "chan_spsc_threads", .core = case_spsc_threads, .cores = 2},
    {.name = "chan_spsc_cheaper", .core = case_spsc_cheaper, .cores = 1, .backends = HARNESS_SIM},
    {.name = "chan_spsc_stress", .core = case_spsc_stress, .cores = 2, .backends = HARNESS_NATIVE},
    {.name = "chan_spsc_stress_one_slot",
     .core = case_spsc_stress_one_slot,
     .cores = 2,
     .backends = HARNESS_NATIVE},
};

void ct_chan_cases(void)
{
    harness_add_cases("coro", cases, HARNESS_COUNT(cases));
}
