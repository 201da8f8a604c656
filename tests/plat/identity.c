/* identity.c -- who am I: cores, type, caps, clock, slots, random, strerror. */
#define _GNU_SOURCE
#include "pt.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* Every core: index unique and in range, description from the file. */
static void case_identity(void *arg)
{
    (void)arg;
    uint64_t *board = harness_board();
    int me = plat_core(), n = plat_cores();
    ck_assert_int_eq(n, 4);
    ck_assert_int_ge(me, 0);
    ck_assert_int_lt(me, n);
    plat_fetch_add64(&board[me], 1);
    harness_barrier();
    for (int c = 0; c < n; c++) {
        ck_assert_msg(plat_load64(&board[c]) == 1, "core index %d taken %llu times", c,
                      (unsigned long long)plat_load64(&board[c]));
        ck_assert_str_eq(plat_core_type(c), "testcore");
        ck_assert_uint_eq(plat_core_caps(c), PT_ALL_CAPS);
        ck_assert_double_eq_tol(plat_core_clock_mhz(c), 750.0, 1e-9);
    }
    ck_assert_int_eq(plat_core(), me); /* stable */
}

/* Where cores live: one node in a threaded run and in simulation, each core
 * at its own stream address; a bad core or a short buffer is a status. */
static void case_place(void *arg)
{
    const struct harness_env *env = arg;
    int n = plat_cores();
    char a[64], b[64];
    for (int c = 0; c < n; c++) {
        ck_assert_int_eq(plat_core_node(c), 0);
        ck_assert_int_eq(plat_core_addr(c, a, sizeof a), PLAT_OK);
        ck_assert_ptr_nonnull(strrchr(a, ':'));
        if (env->backend == PLAT_SIM) {
            snprintf(b, sizeof b, "core%d:%d", c, 10000 + c);
            ck_assert_str_eq(a, b);
        } else {
            /* Below Linux's ephemeral ports (32768 on): another test's
             * connection never holds a listener's port. */
            ck_assert_int_eq(strncmp(a, "127.0.0.1:", 10), 0);
            int port = atoi(a + 10);
            ck_assert_msg(port >= 1024 && port < 32768, "core %d at %s", c, a);
        }
        for (int d = 0; d < c; d++) {
            ck_assert_int_eq(plat_core_addr(d, b, sizeof b), PLAT_OK);
            ck_assert_str_ne(a, b);
        }
    }
    ck_assert_int_eq(plat_core_addr(n, a, sizeof a), PLAT_EINVAL);
    ck_assert_int_eq(plat_core_addr(-1, a, sizeof a), PLAT_EINVAL);
    ck_assert_int_eq(plat_core_addr(0, a, 4), PLAT_ENOMEM);
}

/* Every status has its own text; anything else still gets one. */
static void case_strerror(void *arg)
{
    (void)arg;
    for (int a = PLAT_EIO; a <= 0; a++) {
        const char *ta = plat_strerror(a);
        ck_assert_ptr_nonnull(ta);
        ck_assert_msg(*ta, "empty text for status %d", a);
        for (int b = PLAT_EIO; b < a; b++)
            ck_assert_msg(strcmp(ta, plat_strerror(b)) != 0, "statuses %d and %d share \"%s\"", a,
                          b, ta);
    }
    ck_assert_ptr_nonnull(plat_strerror(1));
    ck_assert_ptr_nonnull(plat_strerror(PLAT_EIO - 1));
    ck_assert_ptr_nonnull(plat_strerror(-1000));
}

/* ---- slots ---------------------------------------------------------------- */

struct slot_check {
    void **core_slot;   /* the spawning thread's core slot */
    void **thread_slot; /* the spawning thread's thread slot */
    void *core_value;
    int core;
    int ok; /* set by the thread when every check passed */
};

static void slot_thread(void *arg)
{
    struct slot_check *s = arg;
    ck_assert_int_eq(plat_core(), s->core);
    ck_assert_ptr_eq(plat_core_slot(PLAT_SLOT_APP), s->core_slot);
    ck_assert_ptr_eq(*plat_core_slot(PLAT_SLOT_APP), s->core_value);
    void **mine = plat_thread_slot(PLAT_SLOT_APP);
    ck_assert_ptr_ne(mine, s->thread_slot);
    ck_assert_ptr_null(*mine);
    *mine = s;
    ck_assert_ptr_eq(*plat_thread_slot(PLAT_SLOT_APP), s);
    s->ok = 1;
}

static void case_slots(void *arg)
{
    (void)arg;
    uint64_t *board = harness_board();
    int me = plat_core();
    for (int s = 0; s < PLAT_SLOTS; s++) {
        if (s == PLAT_SLOT_TEST) continue; /* the harness's */
        ck_assert_ptr_nonnull(plat_core_slot((enum plat_slot)s));
        ck_assert_ptr_null(*plat_core_slot((enum plat_slot)s));
        ck_assert_ptr_null(*plat_thread_slot((enum plat_slot)s));
        for (int t = 0; t < s; t++) {
            ck_assert_ptr_ne(plat_core_slot((enum plat_slot)s), plat_core_slot((enum plat_slot)t));
            ck_assert_ptr_ne(plat_thread_slot((enum plat_slot)s),
                             plat_thread_slot((enum plat_slot)t));
        }
    }
    int marker[2];
    void *value = &marker[me & 1];
    *plat_core_slot(PLAT_SLOT_APP) = value;
    *plat_thread_slot(PLAT_SLOT_APP) = &marker[0];
    board[8 + me] = pt_u(plat_core_slot(PLAT_SLOT_APP));

    struct slot_check sc = {
        .core_slot = plat_core_slot(PLAT_SLOT_APP),
        .thread_slot = plat_thread_slot(PLAT_SLOT_APP),
        .core_value = value,
        .core = me,
    };
    plat_thread *t = plat_thread_spawn(slot_thread, &sc, "slots");
    ck_assert_ptr_nonnull(t);
    plat_thread_join(t);
    ck_assert_int_eq(sc.ok, 1);
    /* The thread's own slot did not touch ours. */
    ck_assert_ptr_eq(*plat_thread_slot(PLAT_SLOT_APP), &marker[0]);

    harness_barrier();
    /* Another core's writes did not land in this core's slot. */
    ck_assert_ptr_eq(*plat_core_slot(PLAT_SLOT_APP), value);
    for (int c = 0; c < plat_cores(); c++)
        if (c != me) ck_assert_ptr_ne(pt_p(board[8 + c]), pt_p(board[8 + me]));
    harness_barrier(); /* marker stays alive until everyone compared */
    *plat_core_slot(PLAT_SLOT_APP) = NULL;
}

/* ---- random ----------------------------------------------------------------- */

#define RND_CORES 3
#define RND_N 8
#define RND_RUNS 3

struct rnd_page {
    int rc[RND_RUNS];
    char err[RND_RUNS][512];
    uint64_t v[RND_RUNS][RND_CORES][RND_N];
};

struct rnd_run {
    const struct harness_env *env;
    struct rnd_page *page;
    int run;
    uint64_t seed;
};

static void rnd_core(void *arg)
{
    const struct rnd_run *r = arg;
    int me = plat_core();
    if (me >= RND_CORES) return;
    for (int i = 0; i < RND_N; i++) r->page->v[r->run][me][i] = plat_random();
}

/* A sim run needs a process of its own: each run is a child. */
static void rnd_child(void *arg)
{
    struct rnd_run *r = arg;
    r->page->rc[r->run] = harness_try_run(r->env->backend, r->env->platform, r->seed, rnd_core, r,
                                          r->page->err[r->run], sizeof r->page->err[0]);
}

static void test_random(const struct harness_env *env)
{
    struct rnd_page *page = harness_page(sizeof *page);
    const uint64_t seeds[RND_RUNS] = {7, 7, 8};
    for (int run = 0; run < RND_RUNS; run++) {
        struct rnd_run r = {env, page, run, seeds[run]};
        int st = harness_fork(rnd_child, &r);
        ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "run %d died (status 0x%x)", run, st);
        ck_assert_msg(page->rc[run] == 0, "run %d: plat_run: %s", run, page->err[run]);
    }
    ck_assert_msg(memcmp(page->v[0], page->v[1], sizeof page->v[0]) == 0,
                  "the same seed gave different sequences");
    ck_assert_msg(memcmp(page->v[0], page->v[2], sizeof page->v[0]) != 0,
                  "seeds 7 and 8 gave the same sequences");
    for (int c = 0; c < RND_CORES; c++) {
        bool varies = false;
        for (int i = 1; i < RND_N; i++) varies |= page->v[0][c][i] != page->v[0][c][0];
        ck_assert_msg(varies, "core %d: plat_random is constant", c);
        for (int d = 0; d < c; d++)
            ck_assert_msg(memcmp(page->v[0][c], page->v[0][d], sizeof page->v[0][c]) != 0,
                          "cores %d and %d share one random stream", c, d);
    }
}

/* ---- adopted threads (native) ------------------------------------------------ */

struct adopted {
    bool mem_ok, slot_ok;
    int core;
    unsigned caps;
    double clock;
};

static void *adopted_thread(void *arg)
{
    struct adopted *a = arg;
    /* Memory accesses first: they work before the thread is a core, and
     * the first call that needs one still makes it one. */
    uint64_t w = 0, c = 0;
    plat_store64(&w, 7);
    plat_copy(&c, &w, sizeof c);
    a->mem_ok = plat_load64(&c) == 7;
    /* A slot next: its table entry leaves the adoption to nat_thread_slot. */
    void **slot = plat_thread_slot(PLAT_SLOT_CORO);
    a->slot_ok = slot && !*slot;
    if (slot) *slot = a;
    a->slot_ok = a->slot_ok && plat_thread_slot(PLAT_SLOT_CORO) == slot && *slot == a;
    a->core = plat_core();
    a->caps = plat_core_caps(a->core);
    a->clock = plat_core_clock_mhz(a->core);
    return NULL;
}

/* Natively a thread outside any run becomes a core of its own, with every
 * capability and an unknown clock. */
static void test_adopted(const struct harness_env *env)
{
    (void)env;
    struct adopted a = {0}, b = {0};
    adopted_thread(&a);
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, adopted_thread, &b), 0);
    ck_assert_int_eq(pthread_join(t, NULL), 0);
    ck_assert_int_ge(a.core, 0);
    ck_assert_int_ge(b.core, 0);
    ck_assert_int_ne(a.core, b.core);
    ck_assert(a.mem_ok && b.mem_ok);
    ck_assert(a.slot_ok && b.slot_ok);
    *plat_thread_slot(PLAT_SLOT_CORO) = NULL;
    ck_assert_uint_eq(a.caps, PT_ALL_CAPS);
    ck_assert_uint_eq(b.caps, PT_ALL_CAPS);
    ck_assert_double_eq(a.clock, 0.0);
    ck_assert_int_eq(plat_core(), a.core);
    uint64_t x = 1, e = 1;
    ck_assert(plat_cas64(&x, &e, 2)); /* every capability: CAS works */
    ck_assert_uint_eq(x, 2);
}

void pt_identity(void)
{
    static const struct harness_case cases[] = {
        {.name = "identity",
         .core = case_identity,
         .cores = 4,
         .sets = {"core.type=testcore", "core.clock_mhz=750"}},
        {.name = "strerror", .core = case_strerror, .cores = 1},
        {.name = "place", .core = case_place, .cores = 3},
        {.name = "slots", .core = case_slots, .cores = 3},
        {.name = "random", .cores = 4, .test = test_random},
        {.name = "adopted_thread", .test = test_adopted, .backends = HARNESS_NATIVE},
    };
    harness_add_cases("plat", cases, HARNESS_COUNT(cases));
}
