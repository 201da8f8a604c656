/* misuse.c -- missing capabilities, and misuse that stops the run. */
#define _GNU_SOURCE
#include "pt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define IDEAL_CAPS "caps: [cas, fetch_add, local_mem, dma, threads]"

static void nothing(void *arg)
{
    (void)arg;
}

/* A core with only fetch_add (the harness barrier needs it). */
static void case_no_caps(void *arg)
{
    (void)arg;
    ck_assert_uint_eq(plat_core_caps(plat_core()), PLAT_CAP_FETCH_ADD);
    uint8_t a[16] = {1}, b[16];
    plat_dma d;
    ck_assert_int_eq(plat_dma_start(&d, b, a, sizeof a, 0, 0, 0), PLAT_ENOTSUP);
    ck_assert_int_eq(plat_dma_start(&d, b, a, sizeof a, PLAT_DMA_RING, 0, 1), PLAT_ENOTSUP);
    ck_assert_ptr_null(plat_local_alloc(64, 8));
    ck_assert_ptr_null(plat_thread_spawn(nothing, NULL, "nope"));
    harness_barrier(); /* fetch_add still works */
}

/* ---- runs that must stop ------------------------------------------------------- */

struct stop_page {
    int rc;
    uint64_t after; /* set when the call returned (it must not) */
    char err[1024];
};

struct stop {
    const struct harness_env *env;
    struct stop_page *page;
    void (*misuse)(void);
    int log_fd;
};

static struct stop *the_stop; /* set in the child before its run */

static void stop_core(void *arg)
{
    (void)arg;
    if (plat_core() != 1) return;
    the_stop->misuse();
    the_stop->page->after = 1;
}

static void stop_child(void *arg)
{
    struct stop *s = arg;
    the_stop = s;
    /* Messages of the backend go to the log the parent reads. */
    dup2(s->log_fd, STDERR_FILENO);
    dup2(s->log_fd, STDOUT_FILENO);
    s->page->rc = harness_try_run(s->env->backend, s->env->platform, HARNESS_SEED, stop_core, s,
                                  s->page->err, sizeof s->page->err);
    if (s->page->rc != 0) _exit(3);
}

/* The misuse on core 1 must stop the run -- plat_run failing or the process
 * ending -- with a message containing `expect`, and the call must not return. */
static void expect_stop(const struct harness_env *env, void (*misuse)(void), const char *expect)
{
    FILE *log = tmpfile();
    ck_assert_ptr_nonnull(log);
    struct stop s = {env, harness_page(sizeof(struct stop_page)), misuse, fileno(log)};
    int st = harness_fork(stop_child, &s);

    char text[4096];
    rewind(log);
    size_t n = fread(text, 1, sizeof text - 1, log);
    text[n] = '\0';
    fclose(log);
    ck_assert_msg(!(WIFEXITED(st) && WEXITSTATUS(st) == 0),
                  "the run went on after the misuse (plat_run returned 0)");
    ck_assert_msg(s.page->after == 0, "the misused call returned");
    ck_assert_msg(strstr(text, expect) || strstr(s.page->err, expect),
                  "no message naming \"%s\" (status 0x%x; err \"%s\"; output \"%.300s\")", expect,
                  st, s.page->err, text);
}

static void misuse_cas(void)
{
    uint64_t x = 0, e = 0;
    plat_cas64(&x, &e, 1);
}

static void misuse_cost(void)
{
    plat_cost("pt_no_such_cost");
}
static void misuse_core_index(void)
{
    plat_doorbell_ring(99, 1);
}
static void misuse_null_queue(void)
{
    plat_hwq_push(NULL, 0, NULL);
}

/* More cycles than the simulator's range holds (models/simtime.h): the run
 * stops naming the limit instead of wrapping the clock. */
static void misuse_work_overflow(void)
{
    plat_work_cycles(UINT64_MAX / 2);
}

static void test_cas_stops(const struct harness_env *env)
{
    expect_stop(env, misuse_cas, "cas64");
}
static void test_cost_stops(const struct harness_env *env)
{
    expect_stop(env, misuse_cost, "pt_no_such_cost");
}
static void test_core_index_stops(const struct harness_env *env)
{
    expect_stop(env, misuse_core_index, "99");
}
static void test_null_stops(const struct harness_env *env)
{
    expect_stop(env, misuse_null_queue, "hwq");
}
static void test_work_overflow_stops(const struct harness_env *env)
{
    expect_stop(env, misuse_work_overflow,
                "top.core1.main: cycles is 9.22337e+21 ps, out of the simulator's range");
}

void pt_misuse(void)
{
    static const struct harness_case cases[] = {
        {.name = "no_caps",
         .core = case_no_caps,
         .cores = 2,
         .edit_from = IDEAL_CAPS,
         .edit_to = "caps: [fetch_add]"},
        {.name = "misuse_cas_stops",
         .test = test_cas_stops,
         .cores = 2,
         .edit_from = IDEAL_CAPS,
         .edit_to = "caps: [fetch_add, local_mem, dma, threads]"},
        {.name = "misuse_cost_stops", .test = test_cost_stops, .cores = 2, .backends = HARNESS_SIM},
        {.name = "misuse_core_index_stops", .test = test_core_index_stops, .cores = 2},
        {.name = "misuse_null_stops", .test = test_null_stops, .cores = 2},
        {.name = "misuse_work_overflow_stops",
         .test = test_work_overflow_stops,
         .cores = 2,
         .backends = HARNESS_SIM},
    };
    harness_add_cases("plat", cases, HARNESS_COUNT(cases));
}
