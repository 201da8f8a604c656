/* rt.c -- coroutines: switch, yield, sleep, join, placement by load. */
#include "ct.h"

#include <string.h>

/* ---- yield: coroutines of one executor take turns in order ---------------- */

struct order {
    char log[64];
    int at;
};
struct turn {
    struct order *o;
    char name;
};

static void taker(void *arg)
{
    struct turn *t = arg;
    for (int i = 0; i < 3; i++) {
        t->o->log[t->o->at++] = t->name;
        coro_yield();
    }
}

struct yield_run {
    coro_rt *rt;
    struct order o;
};

/* Spawned on the executor it runs on, the three only start when it joins. */
static void spawner(void *arg)
{
    struct yield_run *y = arg;
    struct turn t[3] = {{&y->o, 'a'}, {&y->o, 'b'}, {&y->o, 'c'}};
    coro *c[3];
    for (int i = 0; i < 3; i++) c[i] = coro_spawn_on(y->rt, 0, taker, &t[i]);
    for (int i = 0; i < 3; i++) coro_join(c[i]);
}

static void sched_yield(coro_rt *rt, void *arg)
{
    (void)arg;
    struct yield_run y = {rt, {{0}, 0}};
    coro_join(coro_spawn_on(rt, 0, spawner, &y));
    ck_assert_str_eq(y.o.log, "abcabcabc");
}

static void case_yield(void *arg)
{
    (void)arg;
    ct_run(sched_yield, NULL, NULL);
}

/* ---- the switch keeps every callee-saved register and the FP state -------- */

static double work(double x, int depth)
{
    /* Live values across a switch in registers and on the stack. */
    double a = x * 1.5, b = x + 2.25;
    long i1 = (long)x * 3, i2 = (long)x + 7;
    coro_yield();
    if (depth) a += work(x + 1, depth - 1);
    return a + b + (double)(i1 + i2);
}

static void reg_keeper(void *arg)
{
    double *out = arg;
    *out = work(1.0, 5);
}

static void sched_regs(coro_rt *rt, void *arg)
{
    (void)arg;
    double out[2] = {0, 0};
    coro *c0 = coro_spawn_on(rt, 0, reg_keeper, &out[0]);
    coro *c1 = coro_spawn_on(rt, 0, reg_keeper, &out[1]);
    coro_join(c0);
    coro_join(c1);
    /* The same function without switches, for reference. */
    double want = 0, x = 6.0;
    for (int d = 0; d <= 5; d++, x -= 1)
        want += x * 1.5 + (x + 2.25) + (double)((long)x * 3 + (long)x + 7);
    ck_assert_double_eq(out[0], want);
    ck_assert_double_eq(out[1], want);
}

static void case_regs(void *arg)
{
    (void)arg;
    ct_run(sched_regs, NULL, NULL);
}

/* ---- sleep: a sleeper does not hold up its executor ------------------------- */

struct sleepy {
    coro_rt *rt;
    uint64_t slept_ns;
    int ticks_before, ticks_during;
    int ticks;
    bool awake;
};

static void sleeper(void *arg)
{
    struct sleepy *s = arg;
    uint64_t t0 = plat_now_ns();
    s->ticks_before = s->ticks;
    coro_sleep_ns(2000000);
    s->slept_ns = plat_now_ns() - t0;
    s->ticks_during = s->ticks - s->ticks_before;
    s->awake = true;
}

static void ticker(void *arg)
{
    struct sleepy *s = arg;
    while (!s->awake) {
        s->ticks++;
        coro_sleep_ns(100000);
    }
}

/* Both on one executor: the ticker's 100-us naps end before the sleeper's
 * 2 ms, so it ticks while the sleeper sleeps, however slow the host. */
static void sleep_pair(void *arg)
{
    struct sleepy *s = arg;
    coro *b = coro_spawn_on(s->rt, 0, ticker, s);
    coro *a = coro_spawn_on(s->rt, 0, sleeper, s);
    coro_join(a);
    coro_join(b);
}

static void sched_sleep(coro_rt *rt, void *arg)
{
    (void)arg;
    struct sleepy s = {rt, 0, 0, 0, 0, false};
    coro_join(coro_spawn_on(rt, 0, sleep_pair, &s));
    ck_assert_uint_ge(s.slept_ns, 2000000);
    ck_assert_int_ge(s.ticks_during, 1); /* the other coroutine ran meanwhile */
}

static void case_sleep(void *arg)
{
    (void)arg;
    ct_run(sched_sleep, NULL, NULL);
}

/* ---- a yielder that hands over to itself still takes posts and timers ----- */

/* The yielder is alone in its run queue, so each yield finds itself next: the
 * executor's own loop never runs while it spins, and the look a yield makes
 * must take the inbox (a spawn from executor 1) and the sleeper's timer. */
struct spin {
    coro_rt *rt;
    uint64_t posted, timed; /* set by the spawned coroutine and the sleeper */
    uint64_t yields;
    bool saw; /* the yielder saw both before its deadline */
};

static void spin_posted(void *arg)
{
    plat_store64(&((struct spin *)arg)->posted, 1);
}

static void spin_poster(void *arg)
{
    struct spin *s = arg;
    coro_sleep_ns(200000);
    coro_join(coro_spawn_on(s->rt, 0, spin_posted, s));
}

static void spin_sleeper(void *arg)
{
    coro_sleep_ns(300000);
    plat_store64(&((struct spin *)arg)->timed, 1);
}

static void spin_yielder(void *arg)
{
    struct spin *s = arg;
    uint64_t end = plat_now_ns() + HARNESS_WAIT_NS;
    while (!(plat_load64(&s->posted) && plat_load64(&s->timed)) && plat_now_ns() < end) {
        s->yields++;
        coro_yield();
    }
    s->saw = plat_load64(&s->posted) && plat_load64(&s->timed);
}

static void sched_spin(coro_rt *rt, void *arg)
{
    (void)arg;
    struct spin s = {rt, 0, 0, 0, false};
    coro *sl = coro_spawn_on(rt, 0, spin_sleeper, &s);
    coro *y = coro_spawn_on(rt, 0, spin_yielder, &s);
    coro *p = coro_spawn_on(rt, 1, spin_poster, &s);
    coro_join(y);
    coro_join(p);
    coro_join(sl);
    ck_assert_msg(s.saw, "the yielder spun %llu yields and saw posted=%d timed=%d",
                  (unsigned long long)s.yields, (int)plat_load64(&s.posted),
                  (int)plat_load64(&s.timed));
}

static void case_spin(void *arg)
{
    (void)arg;
    ct_run(sched_spin, NULL, NULL);
}

/* ---- join across executors, from a coroutine; spawn from a coroutine -------- */

struct family {
    coro_rt *rt;
    int child_exec, parent_exec;
    uint64_t child_done;
};

static void child(void *arg)
{
    struct family *f = arg;
    f->child_exec = coro_exec_index();
    coro_sleep_ns(500000);
    plat_store64(&f->child_done, 1);
}

static void parent(void *arg)
{
    struct family *f = arg;
    f->parent_exec = coro_exec_index();
    coro *c = coro_spawn_on(f->rt, 1, child, f);
    ck_assert_ptr_nonnull(c);
    coro_join(c); /* blocks this coroutine, not the executor */
    ck_assert_uint_eq(plat_load64(&f->child_done), 1);
}

static void sched_join(coro_rt *rt, void *arg)
{
    (void)arg;
    struct family f = {rt, -1, -1, 0};
    coro_join(coro_spawn_on(rt, 0, parent, &f));
    ck_assert_int_eq(f.parent_exec, 0);
    ck_assert_int_eq(f.child_exec, 1);
    ck_assert_ptr_null(coro_self()); /* the scheduler is a thread */
}

static void case_join(void *arg)
{
    (void)arg;
    ct_run(sched_join, NULL, NULL);
}

/* ---- placement: the least-loaded executor ------------------------------------- */

struct place {
    uint64_t release;
    int exec[8];
};
struct placed {
    struct place *p;
    int i;
};

static void resident(void *arg)
{
    struct placed *x = arg;
    x->p->exec[x->i] = coro_exec_index();
    while (!plat_load64(&x->p->release)) coro_sleep_ns(200000);
}

static void sched_place(coro_rt *rt, void *arg)
{
    (void)arg;
    struct place p;
    memset(&p, 0, sizeof p);
    struct placed x[8];
    coro *c[8];
    for (int i = 0; i < 8; i++) {
        x[i] = (struct placed){&p, i};
        c[i] = coro_spawn(rt, resident, &x[i]);
    }
    plat_sleep_ns(2000000);
    plat_store64(&p.release, 1);
    int per[4] = {0};
    for (int i = 0; i < 8; i++) {
        coro_join(c[i]);
        ck_assert_int_ge(p.exec[i], 0);
        ck_assert_int_lt(p.exec[i], 4);
        per[p.exec[i]]++;
    }
    for (int e = 0; e < 4; e++) ck_assert_int_eq(per[e], 2);
}

static void case_place(void *arg)
{
    (void)arg;
    ct_run(sched_place, NULL, NULL);
}

static void case_misuse_name(void *arg)
{
    (void)arg;
    int cores[1] = {0};
    if (plat_core() != 0) return;
    ck_assert_ptr_null(coro_rt_new(NULL, cores, 1, NULL));
    ck_assert_ptr_null(coro_rt_new("t", cores, 0, NULL));
    ck_assert_ptr_null(coro_rt_new("a-name-much-longer-than-thirty-two-bytes", cores, 1, NULL));
    ck_assert_ptr_null(coro_spawn_on(NULL, 0, taker, NULL));
    ck_assert_int_eq(coro_exec_index(), -1);
}

static const struct harness_case cases[] = {
    {.name = "yield_order", .core = case_yield, .cores = 2},
    {.name = "switch_keeps_registers", .core = case_regs, .cores = 2},
    {.name = "sleep", .core = case_sleep, .cores = 2},
    {.name = "yield_takes_posts_and_timers", .core = case_spin, .cores = 3},
    {.name = "join_across", .core = case_join, .cores = 3},
    {.name = "placement_by_load", .core = case_place, .cores = 5},
    {.name = "bad_arguments", .core = case_misuse_name, .cores = 1},
};

void ct_rt_cases(void)
{
    harness_add_cases("coro", cases, HARNESS_COUNT(cases));
}
