/* atomics.c -- plat_load64/store64/store64_release/cas64/fetch_add64, plat_poll64,
 * plat_copy. */
#include "pt.h"

#include <string.h>

#define K_ATOMIC 1000

static void case_fetch_add(void *arg)
{
    (void)arg;
    uint64_t *board = harness_board();
    harness_barrier();
    for (int i = 0; i < K_ATOMIC; i++) plat_fetch_add64(&board[0], 1);
    harness_barrier();
    ck_assert_uint_eq(plat_load64(&board[0]), (uint64_t)plat_cores() * K_ATOMIC);

    /* Returns the old value; a "negative" delta wraps (add-only hardware). */
    uint64_t *x = &board[8 + plat_core()];
    plat_store64(x, 5);
    ck_assert_uint_eq(plat_fetch_add64(x, 10), 5);
    ck_assert_uint_eq(plat_fetch_add64(x, (uint64_t)-3), 15);
    ck_assert_uint_eq(plat_load64(x), 12);
    plat_store64(x, 0);
    ck_assert_uint_eq(plat_fetch_add64(x, (uint64_t)-1), 0);
    ck_assert_uint_eq(plat_load64(x), UINT64_MAX);
}

static void case_cas(void *arg)
{
    (void)arg;
    uint64_t *board = harness_board();
    harness_barrier();
    for (int i = 0; i < K_ATOMIC; i++) {
        uint64_t old = plat_load64(&board[0]);
        while (!plat_cas64(&board[0], &old, old + 1)) {
        }
    }
    harness_barrier();
    ck_assert_uint_eq(plat_load64(&board[0]), (uint64_t)plat_cores() * K_ATOMIC);

    uint64_t *x = &board[8 + plat_core()];
    plat_store64(x, 7);
    uint64_t expected = 3;
    ck_assert(!plat_cas64(x, &expected, 9));
    ck_assert_uint_eq(expected, 7); /* failure reports the current value */
    ck_assert_uint_eq(plat_load64(x), 7);
    ck_assert(plat_cas64(x, &expected, 9));
    ck_assert_uint_eq(expected, 7);
    ck_assert_uint_eq(plat_load64(x), 9);
}

/* Stores on one core are seen by loads on another, in order. */
static void case_load_store(void *arg)
{
    (void)arg;
    uint64_t *board = harness_board();
    const uint64_t n = 200;
    if (plat_core() == 0) {
        for (uint64_t i = 1; i <= n; i++) {
            plat_store64(&board[1], i * 0x0101010101010101ull); /* data first */
            plat_store64(&board[0], i);                         /* then the flag */
            uint64_t ack;
            while ((ack = plat_load64(&board[2])) != i)
                ck_assert_int_eq(plat_poll64(&board[2], ack, HARNESS_WAIT_NS), PLAT_OK);
        }
    } else {
        for (uint64_t i = 1; i <= n; i++) {
            while (plat_load64(&board[0]) != i)
                ck_assert_int_eq(plat_poll64(&board[0], i - 1, HARNESS_WAIT_NS), PLAT_OK);
            ck_assert_uint_eq(plat_load64(&board[1]), i * 0x0101010101010101ull);
            plat_store64(&board[2], i);
        }
    }
}

/* plat_store64_release publishes what the core copied and stored before it
 * (data, then the flag, n times; each round acknowledged); in simulation
 * it is the same timed write as plat_store64. */
static void case_store_release(void *arg)
{
    bool sim = pt_sim(arg);
    uint64_t *board = harness_board();
    const uint64_t n = 200;
    enum { W = 8 };
    if (plat_core() == 0) {
        uint64_t data[W];
        for (uint64_t i = 1; i <= n; i++) {
            for (int k = 0; k < W; k++) data[k] = i * 0x0101010101010101ull + (uint64_t)k;
            plat_copy(&board[8], data, sizeof data);
            plat_store64_release(&board[0], i);
            uint64_t ack;
            while ((ack = plat_load64(&board[2])) != i)
                ck_assert_int_eq(plat_poll64(&board[2], ack, HARNESS_WAIT_NS), PLAT_OK);
        }
        if (sim) {
            uint64_t t0 = plat_now_ns();
            plat_store64(&board[3], 1);
            uint64_t t1 = plat_now_ns();
            plat_store64_release(&board[3], 2);
            uint64_t t2 = plat_now_ns();
            ck_assert_uint_gt(t1 - t0, 0);
            ck_assert_uint_eq(t2 - t1, t1 - t0);
        }
    } else {
        for (uint64_t i = 1; i <= n; i++) {
            uint64_t f;
            while ((f = plat_load64(&board[0])) != i)
                ck_assert_int_eq(plat_poll64(&board[0], f, HARNESS_WAIT_NS), PLAT_OK);
            for (int k = 0; k < W; k++)
                ck_assert_uint_eq(plat_load64(&board[8 + k]),
                                  i * 0x0101010101010101ull + (uint64_t)k);
            plat_store64(&board[2], i);
        }
    }
    harness_barrier();
}

static void case_poll(void *arg)
{
    bool sim = pt_sim(arg);
    uint64_t *board = harness_board();
    harness_barrier();
    if (plat_core() == 0) {
        plat_sleep_ns(PT_MS);
        plat_store64(&board[1], plat_now_ns());
        plat_store64(&board[0], 5);
    } else {
        ck_assert_int_eq(plat_poll64(&board[0], 0, HARNESS_WAIT_NS), PLAT_OK);
        uint64_t woke = plat_now_ns();
        ck_assert_uint_eq(plat_load64(&board[0]), 5);
        uint64_t stored = plat_load64(&board[1]);
        ck_assert_uint_ge(woke, stored);
        /* Woken by the store, not by the 10 s timeout. */
        ck_assert_msg(woke - stored < (sim ? 10 * PT_US : PT_NATIVE_SLACK_NS),
                      "poller woke %llu ns after the store", (unsigned long long)(woke - stored));

        /* Already different: at once. */
        uint64_t t0 = plat_now_ns();
        ck_assert_int_eq(plat_poll64(&board[0], 4, HARNESS_WAIT_NS), PLAT_OK);
        ck_assert_uint_lt(plat_now_ns() - t0, sim ? 10 * PT_US : PT_NATIVE_SLACK_NS);

        /* Nobody writes: times out after about the timeout. */
        t0 = plat_now_ns();
        ck_assert_int_eq(plat_poll64(&board[3], 0, 2 * PT_MS), PLAT_ETIMEDOUT);
        uint64_t dt = plat_now_ns() - t0;
        ck_assert_uint_ge(dt, 2 * PT_MS);
        ck_assert_uint_lt(dt, 2 * PT_MS + (sim ? 10 * PT_US : PT_NATIVE_SLACK_NS));
        ck_assert_int_eq(plat_poll64(&board[3], 0, 0), PLAT_ETIMEDOUT);
    }
    harness_barrier();
}

/* plat_copy: copies exactly n bytes and wakes a poller of dst. */
static void case_copy(void *arg)
{
    (void)arg;
    uint64_t *board = harness_board();
    enum { N = 4096 };
    uint8_t *src = NULL, *dst;
    if (plat_core() == 0) {
        src = plat_shared_alloc(N, 64);
        dst = plat_shared_alloc(N + 64, 64);
        ck_assert_ptr_nonnull(src);
        ck_assert_ptr_nonnull(dst);
        pt_fill(src, N, 1);
        ck_assert_uint_ne(*(uint64_t *)(void *)src, 0);
        plat_store64(&board[0], pt_u(dst));
    }
    harness_barrier();
    dst = pt_p(plat_load64(&board[0]));
    if (plat_core() == 0) {
        plat_sleep_ns(PT_MS);
        plat_copy(dst, src, N);
    } else {
        ck_assert_int_eq(plat_poll64((uint64_t *)(void *)dst, 0, HARNESS_WAIT_NS), PLAT_OK);
    }
    harness_barrier();
    if (plat_core() == 1) {
        ck_assert_uint_eq(pt_bad(dst, N, 1), N);
        for (int i = 0; i < 64; i++) ck_assert_uint_eq(dst[N + i], 0);
    }
    harness_barrier();
    if (plat_core() == 0) {
        /* Odd sizes and offsets, private (stack) to shared and back. */
        uint8_t buf[300];
        static const size_t sizes[] = {1, 3, 7, 8, 9, 255};
        for (size_t i = 0; i < HARNESS_COUNT(sizes); i++) {
            memset(buf, 0xEE, sizeof buf);
            plat_copy(buf + 1, src + 5, sizes[i]);
            ck_assert_uint_eq(buf[0], 0xEE);
            ck_assert_int_eq(memcmp(buf + 1, src + 5, sizes[i]), 0);
            ck_assert_uint_eq(buf[1 + sizes[i]], 0xEE);
            memset(dst, 0, N);
            plat_copy(dst + 3, buf + 1, sizes[i]);
            ck_assert_int_eq(memcmp(dst + 3, src + 5, sizes[i]), 0);
            ck_assert_uint_eq(dst[3 + sizes[i]], 0);
        }
        plat_shared_free(src);
        plat_shared_free(dst);
    }
}

void pt_atomics(void)
{
    static const struct harness_case cases[] = {
        {.name = "fetch_add", .core = case_fetch_add, .cores = 4},
        {.name = "cas", .core = case_cas, .cores = 4},
        {.name = "load_store", .core = case_load_store, .cores = 2},
        {.name = "store_release", .core = case_store_release, .cores = 2},
        {.name = "poll64", .core = case_poll, .cores = 2},
        {.name = "copy", .core = case_copy, .cores = 2},
    };
    harness_add_cases("plat", cases, HARNESS_COUNT(cases));
}
