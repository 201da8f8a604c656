/* threads.c -- plat_thread_spawn/join, plat_yield. */
#include "pt.h"

#define NTHREADS 3

struct spawned {
    int core;  /* the spawner's core */
    int runs;  /* times fn ran */
    int seen;  /* plat_core() inside */
    void *arg; /* as passed */
};

static void count_thread(void *arg)
{
    struct spawned *s = arg;
    s->runs++;
    s->seen = plat_core();
    s->arg = arg;
}

/* Threads run fn exactly once, with its argument, on the spawning core. */
static void case_spawn_join(void *arg)
{
    (void)arg;
    struct spawned s[NTHREADS] = {{0}};
    plat_thread *t[NTHREADS];
    for (int i = 0; i < NTHREADS; i++) {
        s[i].core = plat_core();
        s[i].seen = -1;
        t[i] = plat_thread_spawn(count_thread, &s[i], "counter");
        ck_assert_ptr_nonnull(t[i]);
    }
    for (int i = NTHREADS - 1; i >= 0; i--) plat_thread_join(t[i]);
    for (int i = 0; i < NTHREADS; i++) {
        ck_assert_int_eq(s[i].runs, 1);
        ck_assert_int_eq(s[i].seen, s[i].core);
        ck_assert_ptr_eq(s[i].arg, &s[i]);
    }
    /* A thread that already finished can still be joined. */
    struct spawned late = {.core = plat_core()};
    plat_thread *lt = plat_thread_spawn(count_thread, &late, "late");
    ck_assert_ptr_nonnull(lt);
    plat_sleep_ns(PT_MS);
    plat_thread_join(lt);
    ck_assert_int_eq(late.runs, 1);
}

struct flags {
    uint64_t to_thread, to_main;
};

static void yield_thread(void *arg)
{
    struct flags *f = arg;
    plat_store64(&f->to_main, 1);
    /* Wait for the main thread with yields only: it must get to run. */
    uint64_t t0 = plat_now_ns();
    while (!plat_load64(&f->to_thread)) {
        plat_yield();
        ck_assert_msg(plat_now_ns() - t0 < HARNESS_WAIT_NS, "main thread never ran");
    }
}

/* plat_yield lets the other thread of the core progress, both ways. In
 * simulation a core's threads only switch inside plat calls, so a spin on
 * plain plat_load64 + plat_yield must still make progress. */
/* A thread spawned on the other core runs there (plat_core) and joins. */
static void case_spawn_on(void *arg)
{
    (void)arg;
    if (plat_core() == 0) {
        struct spawned s = {.seen = -1};
        plat_thread *t = plat_thread_spawn_on(1, count_thread, &s, "remote");
        ck_assert_ptr_nonnull(t);
        plat_thread_join(t);
        ck_assert_int_eq(s.runs, 1);
        ck_assert_int_eq(s.seen, 1);
        ck_assert_ptr_eq(s.arg, &s);
    }
    harness_barrier();
}

static void case_yield(void *arg)
{
    (void)arg;
    struct flags f = {0, 0};
    plat_thread *t = plat_thread_spawn(yield_thread, &f, "yield");
    ck_assert_ptr_nonnull(t);
    uint64_t t0 = plat_now_ns();
    long spins = 0;
    while (!plat_load64(&f.to_main)) {
        plat_yield();
        spins++;
        ck_assert_msg(plat_now_ns() - t0 < HARNESS_WAIT_NS, "spawned thread never ran");
        ck_assert_msg(spins < 100000000L, "spawned thread never ran (%ld yields)", spins);
    }
    plat_store64(&f.to_thread, 1);
    plat_thread_join(t);
}

static void work_thread(void *arg)
{
    (void)arg;
    plat_work_cycles(10000);
}

/* Sim: the charged work of two threads of one core is serialised on it. */
static void case_serialised(void *arg)
{
    uint64_t t0 = plat_now_ns();
    plat_thread *a = plat_thread_spawn(work_thread, NULL, "wa");
    plat_thread *b = plat_thread_spawn(work_thread, NULL, "wb");
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    plat_thread_join(a);
    plat_thread_join(b);
    uint64_t dt = plat_now_ns() - t0;
    if (pt_sim(arg))
        ck_assert_msg(dt >= 20000, "two threads' 10000 cycles each took %llu ns on one core",
                      (unsigned long long)dt);
}

void pt_threads(void)
{
    static const struct harness_case cases[] = {
        {.name = "thread_spawn_join", .core = case_spawn_join, .cores = 2},
        {.name = "thread_spawn_on", .core = case_spawn_on, .cores = 2},
        {.name = "thread_yield", .core = case_yield, .cores = 2},
        {.name = "thread_work_serialised", .core = case_serialised, .cores = 1},
    };
    harness_add_cases("plat", cases, HARNESS_COUNT(cases));
}
