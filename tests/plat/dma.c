/* dma.c -- plat_dma_*, plat_doorbell_*. */
#include "pt.h"

#include <string.h>

#define DMA_MAX 65536
#define GUARD 64

static const size_t dma_sizes[] = {1, 3, 64, 1000, 4097, 32768, DMA_MAX};

enum { FROM_LOCAL_TO_LOCAL, FROM_SHARED_TO_LOCAL, FROM_LOCAL_TO_SHARED, ROUTES };

/* Core 0 moves every size along every route; core 1 owns the local target. */
static void case_dma_data(void *arg)
{
    bool sim = pt_sim(arg);
    uint64_t *board = harness_board();
    int me = plat_core();
    if (me == 1) {
        uint8_t *dst = plat_local_alloc(DMA_MAX + GUARD, 64);
        ck_assert_ptr_nonnull(dst);
        plat_store64(&board[0], pt_u(dst));
    }
    harness_barrier();
    uint8_t *remote = pt_p(plat_load64(&board[0]));
    uint8_t *local = NULL, *shared = NULL;
    if (me == 0) {
        local = plat_local_alloc(DMA_MAX + GUARD, 64);
        shared = plat_shared_alloc(DMA_MAX + GUARD, 64);
        ck_assert_ptr_nonnull(local);
        ck_assert_ptr_nonnull(shared);
    }
    for (int route = 0; route < ROUTES; route++) {
        for (size_t i = 0; i < HARNESS_COUNT(dma_sizes); i++) {
            size_t n = dma_sizes[i];
            unsigned seed = (unsigned)(route * 16 + i);
            uint8_t *src = route == FROM_SHARED_TO_LOCAL ? shared : local;
            uint8_t *dst = route == FROM_LOCAL_TO_SHARED ? shared : remote;
            if (me == 0) {
                pt_fill(src, n, seed);
                if (route == FROM_LOCAL_TO_SHARED) memset(dst, 0xEE, n + GUARD);
            }
            if (me == 1 && route != FROM_LOCAL_TO_SHARED) memset(remote, 0xEE, n + GUARD);
            harness_barrier();
            if (me == 0) {
                plat_dma d;
                ck_assert_int_eq(plat_dma_start(&d, dst, src, n, 0, 0, 0), PLAT_OK);
                int t = plat_dma_test(&d);
                ck_assert(t == PLAT_OK || t == PLAT_EAGAIN);
                if (sim) ck_assert_msg(t == PLAT_EAGAIN, "sim: a %zu-byte DMA was done at once", n);
                ck_assert_int_eq(plat_dma_wait(&d, HARNESS_WAIT_NS), PLAT_OK);
                ck_assert_int_eq(plat_dma_test(&d), PLAT_OK);
                ck_assert_int_eq(plat_dma_wait(&d, 0), PLAT_OK);
            }
            harness_barrier();
            if (me == (route == FROM_LOCAL_TO_SHARED ? 0 : 1)) {
                size_t bad = pt_bad(dst, n, seed);
                ck_assert_msg(bad == n, "route %d, %zu bytes: byte %zu differs", route, n, bad);
                for (size_t g = 0; g < GUARD; g++)
                    ck_assert_msg(dst[n + g] == 0xEE, "route %d, %zu bytes: wrote past the end",
                                  route, n);
            }
            harness_barrier();
        }
    }
    if (me == 0) {
        plat_local_free(local);
        plat_shared_free(shared);
    }
    harness_barrier();
    if (me == 1) plat_local_free(remote);
}

/* Sim: a transfer is not over before its time; a short wait times out. */
static void case_dma_wait_timeout(void *arg)
{
    (void)arg;
    uint8_t *a = plat_local_alloc(DMA_MAX, 64), *b = plat_shared_alloc(DMA_MAX, 64);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    plat_dma d;
    ck_assert_int_eq(plat_dma_start(&d, b, a, DMA_MAX, 0, 0, 0), PLAT_OK);
    uint64_t t0 = plat_now_ns();
    ck_assert_int_eq(plat_dma_wait(&d, 10), PLAT_ETIMEDOUT);
    ck_assert_uint_ge(plat_now_ns() - t0, 10);
    ck_assert_int_eq(plat_dma_wait(&d, 0), PLAT_ETIMEDOUT);
    ck_assert_int_eq(plat_dma_test(&d), PLAT_EAGAIN);
    ck_assert_int_eq(plat_dma_wait(&d, HARNESS_WAIT_NS), PLAT_OK);
    plat_local_free(a);
    plat_shared_free(b);
}

/* PLAT_DMA_RING: the doorbell rings at the target after the data is there. */
static void case_dma_ring(void *arg)
{
    (void)arg;
    uint64_t *board = harness_board();
    const size_t n = 32768;
    if (plat_core() == 1) {
        uint8_t *dst = plat_local_alloc(n, 64);
        ck_assert_ptr_nonnull(dst);
        plat_store64(&board[0], pt_u(dst));
        harness_barrier();
        uint32_t bits = plat_doorbell_wait(0x100, HARNESS_WAIT_NS);
        ck_assert_uint_eq(bits, 0x100);
        size_t bad = pt_bad(dst, n, 9); /* no other synchronisation */
        ck_assert_msg(bad == n, "doorbell rang before byte %zu arrived", bad);
        harness_barrier();
        plat_local_free(dst);
    } else {
        uint8_t *src = plat_local_alloc(n, 64);
        ck_assert_ptr_nonnull(src);
        pt_fill(src, n, 9);
        harness_barrier();
        plat_dma d;
        ck_assert_int_eq(
            plat_dma_start(&d, pt_p(plat_load64(&board[0])), src, n, PLAT_DMA_RING, 1, 0x100),
            PLAT_OK);
        ck_assert_int_eq(plat_dma_wait(&d, HARNESS_WAIT_NS), PLAT_OK);
        harness_barrier();
        plat_local_free(src);
    }
}

/* Transfers of one engine complete in order: when the last is done, so are
 * the earlier ones, even a large one queued before small ones. */
static void case_dma_order(void *arg)
{
    (void)arg;
    static const size_t n[] = {DMA_MAX, 16384, 1, 4096, 7};
    enum { N = HARNESS_COUNT(n) };
    uint8_t *src = plat_local_alloc(DMA_MAX, 64);
    ck_assert_ptr_nonnull(src);
    pt_fill(src, DMA_MAX, 3);
    uint8_t *dst[N];
    plat_dma d[N];
    for (int i = 0; i < N; i++) {
        dst[i] = plat_shared_alloc(n[i], 64);
        ck_assert_ptr_nonnull(dst[i]);
    }
    for (int i = 0; i < N; i++)
        ck_assert_int_eq(plat_dma_start(&d[i], dst[i], src, n[i], 0, 0, 0), PLAT_OK);
    ck_assert_int_eq(plat_dma_wait(&d[N - 1], HARNESS_WAIT_NS), PLAT_OK);
    for (int i = 0; i < N; i++) {
        ck_assert_msg(plat_dma_test(&d[i]) == PLAT_OK, "transfer %d not done after transfer %d", i,
                      N - 1);
        ck_assert_uint_eq(pt_bad(dst[i], n[i], 3), n[i]);
        plat_shared_free(dst[i]);
    }
    plat_local_free(src);
}

/* A DMA write wakes a core polling its destination (plat_poll64). */
static void case_dma_wakes_poller(void *arg)
{
    (void)arg;
    uint64_t *board = harness_board();
    const size_t n = 4096;
    if (plat_core() == 1) {
        uint64_t *dst = plat_local_alloc(n, 64);
        ck_assert_ptr_nonnull(dst);
        plat_store64(&board[0], pt_u(dst));
        harness_barrier();
        /* The last word is the flag: the engine writes in order. */
        int rc = plat_poll64(&dst[n / 8 - 1], 0, HARNESS_WAIT_NS);
        ck_assert_msg(rc == PLAT_OK, "a DMA into a polled word did not wake the poller: %s",
                      plat_strerror(rc));
        ck_assert_uint_ne(plat_load64(&dst[n / 8 - 1]), 0);
        harness_barrier();
        ck_assert_uint_eq(pt_bad(dst, n, 11), n);
        plat_local_free(dst);
    } else {
        uint8_t *src = plat_local_alloc(n, 64);
        ck_assert_ptr_nonnull(src);
        pt_fill(src, n, 11);
        ck_assert_uint_ne(*(uint64_t *)(void *)(src + n - 8), 0);
        harness_barrier();
        plat_sleep_ns(PT_MS);
        plat_dma d;
        ck_assert_int_eq(plat_dma_start(&d, pt_p(plat_load64(&board[0])), src, n, 0, 0, 0),
                         PLAT_OK);
        ck_assert_int_eq(plat_dma_wait(&d, HARNESS_WAIT_NS), PLAT_OK);
        harness_barrier();
        plat_local_free(src);
    }
}

static void case_doorbell(void *arg)
{
    bool sim = pt_sim(arg);
    uint64_t *board = harness_board();
    if (plat_core() == 0) {
        plat_doorbell_ring(1, 0x3);
        plat_doorbell_ring(1, 0x10);
        plat_doorbell_ring(1, 0x10); /* bits, not a count */
        harness_barrier();
        harness_barrier();
        plat_sleep_ns(PT_MS);
        plat_store64(&board[0], plat_now_ns());
        plat_doorbell_ring(1, 0x80000000u);
    } else {
        harness_barrier();
        /* Only bits of the mask are taken; the others stay pending. */
        ck_assert_uint_eq(plat_doorbell_wait(0x1, HARNESS_WAIT_NS), 0x1);
        ck_assert_uint_eq(plat_doorbell_wait(0x2 | 0x4, 0), 0x2);
        ck_assert_uint_eq(plat_doorbell_wait(0x10, 0), 0x10);
        ck_assert_uint_eq(plat_doorbell_wait(0xffffffffu, 0), 0);
        /* Timeout: 0 after about the timeout. */
        uint64_t t0 = plat_now_ns();
        ck_assert_uint_eq(plat_doorbell_wait(0x4, 2 * PT_MS), 0);
        uint64_t dt = plat_now_ns() - t0;
        ck_assert_uint_ge(dt, 2 * PT_MS);
        ck_assert_uint_lt(dt, 2 * PT_MS + (sim ? 10 * PT_US : PT_NATIVE_SLACK_NS));
        harness_barrier();
        /* A ring wakes a waiting core. */
        uint32_t bits = plat_doorbell_wait(0x80000000u, HARNESS_WAIT_NS);
        uint64_t woke = plat_now_ns();
        ck_assert_uint_eq(bits, 0x80000000u);
        uint64_t rang = plat_load64(&board[0]);
        ck_assert_uint_ge(woke, rang);
        ck_assert_uint_lt(woke - rang, sim ? 10 * PT_US : PT_NATIVE_SLACK_NS);
        ck_assert_uint_eq(plat_doorbell_wait(0xffffffffu, 0), 0);
    }
}

void pt_dma(void)
{
    static const struct harness_case cases[] = {
        {.name = "dma_data", .core = case_dma_data, .cores = 2},
        {.name = "dma_wait_timeout",
         .core = case_dma_wait_timeout,
         .cores = 1,
         .backends = HARNESS_SIM},
        {.name = "dma_ring", .core = case_dma_ring, .cores = 2},
        {.name = "dma_order", .core = case_dma_order, .cores = 1},
        {.name = "dma_wakes_poller", .core = case_dma_wakes_poller, .cores = 2},
        {.name = "doorbell", .core = case_doorbell, .cores = 2},
    };
    harness_add_cases("plat", cases, HARNESS_COUNT(cases));
}
