/* sync.c -- plat_mutex_*, plat_event_*. */
#include "pt.h"

#define K_INCR 300

struct counted {
    plat_mutex m;
    uint64_t count; /* plain: only the mutex protects it */
};

/* Read, wait, write under the lock: without mutual exclusion other cores or
 * threads (simulated cores switch inside plat_work) would lose updates. */
static void add_locked(struct counted *c)
{
    for (int i = 0; i < K_INCR; i++) {
        plat_mutex_lock(&c->m);
        uint64_t v = c->count;
        plat_work_cycles(5);
        if (i % 16 == 0) plat_yield();
        c->count = v + 1;
        plat_mutex_unlock(&c->m);
    }
}

static void add_thread(void *arg)
{
    add_locked(arg);
}

static void case_mutex_count(void *arg)
{
    (void)arg;
    uint64_t *board = harness_board();
    struct counted *c;
    if (plat_core() == 0) {
        c = plat_shared_alloc(sizeof *c, 64);
        ck_assert_ptr_nonnull(c);
        plat_mutex_init(&c->m, 0);
        plat_store64(&board[0], pt_u(c));
    }
    harness_barrier();
    c = pt_p(plat_load64(&board[0]));
    plat_thread *t = plat_thread_spawn(add_thread, c, "adder");
    ck_assert_ptr_nonnull(t);
    add_locked(c);
    plat_thread_join(t);
    harness_barrier();
    plat_mutex_lock(&c->m);
    uint64_t total = c->count;
    plat_mutex_unlock(&c->m);
    ck_assert_uint_eq(total, (uint64_t)plat_cores() * 2 * K_INCR);
    harness_barrier();
    if (plat_core() == 0) {
        plat_mutex_destroy(&c->m);
        plat_shared_free(c);
    }
}

static void case_mutex_trylock(void *arg)
{
    (void)arg;
    uint64_t *board = harness_board();
    plat_mutex *m;
    if (plat_core() == 0) {
        m = plat_shared_alloc(sizeof *m, 16);
        ck_assert_ptr_nonnull(m);
        plat_mutex_init(m, 0);
        ck_assert(plat_mutex_trylock(m)); /* free: taken */
        plat_store64(&board[0], pt_u(m));
    }
    harness_barrier();
    m = pt_p(plat_load64(&board[0]));
    if (plat_core() == 1) ck_assert_msg(!plat_mutex_trylock(m), "trylock took a held mutex");
    harness_barrier();
    if (plat_core() == 0) plat_mutex_unlock(m);
    harness_barrier();
    if (plat_core() == 1) {
        ck_assert_msg(plat_mutex_trylock(m), "trylock failed on a free mutex");
        plat_mutex_unlock(m);
    }
    harness_barrier();
    if (plat_core() == 0) {
        plat_mutex_destroy(m);
        plat_shared_free(m);
    }
}

/* ---- events ------------------------------------------------------------------ */

static void case_event_timeout(void *arg)
{
    plat_event ev;
    plat_event_init(&ev, 0);
    uint32_t e = plat_event_epoch(&ev);

    uint64_t t0 = plat_now_ns();
    ck_assert_int_eq(plat_event_wait(&ev, e, 0), PLAT_ETIMEDOUT);
    uint64_t dt = plat_now_ns() - t0;
    ck_assert_uint_lt(dt, pt_sim(arg) ? PT_US : PT_NATIVE_SLACK_NS);

    t0 = plat_now_ns();
    ck_assert_int_eq(plat_event_wait(&ev, e, 2 * PT_MS), PLAT_ETIMEDOUT);
    dt = plat_now_ns() - t0;
    ck_assert_msg(dt >= 2 * PT_MS, "a 2 ms wait timed out after %llu ns", (unsigned long long)dt);
    ck_assert_uint_lt(dt, 2 * PT_MS + (pt_sim(arg) ? 10 * PT_US : PT_NATIVE_SLACK_NS));
    ck_assert_uint_eq(plat_event_epoch(&ev), e); /* nobody notified */
    plat_event_destroy(&ev);
}

/* A wait on an epoch that already moved returns at once. */
static void case_event_stale(void *arg)
{
    plat_event ev;
    plat_event_init(&ev, 0);
    uint32_t e = plat_event_epoch(&ev);
    plat_event_notify(&ev);
    ck_assert_uint_ne(plat_event_epoch(&ev), e);
    uint64_t t0 = plat_now_ns();
    ck_assert_int_eq(plat_event_wait(&ev, e, HARNESS_WAIT_NS), PLAT_OK);
    ck_assert_uint_lt(plat_now_ns() - t0, pt_sim(arg) ? 10 * PT_US : PT_NATIVE_SLACK_NS);
    plat_event_destroy(&ev);
}

struct ev_thread {
    plat_event *ev;
    uint32_t epoch;
    int rc;
    uint64_t woke;
};

static void ev_waiter(void *arg)
{
    struct ev_thread *w = arg;
    w->rc = plat_event_wait(w->ev, w->epoch, HARNESS_WAIT_NS);
    w->woke = plat_now_ns();
}

/* One notify wakes every waiter: other cores and a second thread of each. */
static void case_event_notify_all(void *arg)
{
    (void)arg;
    uint64_t *board = harness_board();
    plat_event *ev;
    if (plat_core() == 0) {
        ev = plat_shared_alloc(sizeof *ev, 16);
        ck_assert_ptr_nonnull(ev);
        plat_event_init(ev, 0);
        plat_store64(&board[0], pt_u(ev));
    }
    harness_barrier();
    ev = pt_p(plat_load64(&board[0]));
    uint32_t e = plat_event_epoch(ev);
    harness_barrier();
    if (plat_core() == 0) {
        plat_sleep_ns(PT_MS); /* let the others block first */
        plat_store64(&board[1], plat_now_ns());
        plat_event_notify(ev);
    } else {
        struct ev_thread w = {ev, e, -99, 0};
        plat_thread *t = plat_thread_spawn(ev_waiter, &w, "waiter");
        ck_assert_ptr_nonnull(t);
        int rc = plat_event_wait(ev, e, HARNESS_WAIT_NS);
        uint64_t woke = plat_now_ns();
        plat_thread_join(t);
        ck_assert_msg(rc == PLAT_OK, "core %d: event wait: %s", plat_core(), plat_strerror(rc));
        ck_assert_msg(w.rc == PLAT_OK, "core %d thread: event wait: %s", plat_core(),
                      plat_strerror(w.rc));
        uint64_t notified = plat_load64(&board[1]);
        ck_assert_uint_ge(woke, notified);
        ck_assert_uint_ge(w.woke, notified);
        ck_assert_uint_eq(plat_event_epoch(ev), e + 1);
    }
    harness_barrier();
    if (plat_core() == 0) {
        plat_event_destroy(ev);
        plat_shared_free(ev);
    }
}

/* The documented loop: sleep until a condition another core makes true. */
static void case_event_loop(void *arg)
{
    (void)arg;
    uint64_t *board = harness_board();
    plat_event *ev;
    if (plat_core() == 0) {
        ev = plat_shared_alloc(sizeof *ev, 16);
        ck_assert_ptr_nonnull(ev);
        plat_event_init(ev, 0);
        plat_store64(&board[0], pt_u(ev));
    }
    harness_barrier();
    ev = pt_p(plat_load64(&board[0]));
    const uint64_t rounds = 50;
    if (plat_core() == 0) {
        for (uint64_t i = 1; i <= rounds; i++) {
            plat_sleep_ns(10 * PT_US);
            plat_store64(&board[1], i);
            plat_event_notify(ev);
        }
    } else {
        uint64_t seen = 0;
        while (seen < rounds) {
            uint32_t e = plat_event_epoch(ev);
            uint64_t v = plat_load64(&board[1]);
            if (v > seen) {
                seen = v;
                continue;
            }
            int rc = plat_event_wait(ev, e, HARNESS_WAIT_NS);
            ck_assert_msg(rc == PLAT_OK, "lost a notification after value %llu",
                          (unsigned long long)seen);
        }
    }
    harness_barrier();
    if (plat_core() == 0) {
        plat_event_destroy(ev);
        plat_shared_free(ev);
    }
}

void pt_sync(void)
{
    static const struct harness_case cases[] = {
        {.name = "mutex_count", .core = case_mutex_count, .cores = 4},
        {.name = "mutex_trylock", .core = case_mutex_trylock, .cores = 2},
        {.name = "event_timeout", .core = case_event_timeout, .cores = 1},
        {.name = "event_stale_epoch", .core = case_event_stale, .cores = 1},
        {.name = "event_notify_all", .core = case_event_notify_all, .cores = 4},
        {.name = "event_loop", .core = case_event_loop, .cores = 3},
    };
    harness_add_cases("plat", cases, HARNESS_COUNT(cases));
}
