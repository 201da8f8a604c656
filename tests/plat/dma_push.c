/* dma_push.c -- plat_dma_start_push: a transfer that completes by pushing a
 * descriptor into a hardware queue. */
#include "pt.h"

#include <stdlib.h>
#include <string.h>

#define BIG 32768
#define SMALL 1000

static plat_hwq *open_hwq(void)
{
    int status = 0;
    plat_hwq *q = plat_hwq_open("hwq", &status);
    ck_assert_msg(q, "plat_hwq_open(\"hwq\"): %s", plat_strerror(status));
    return q;
}

/* Core 0 pushes; core 1 waits for the descriptor and, once it pops it,
 * finds every byte there. In simulation the queue is still empty right
 * after the start (the copy takes time). */
static void case_push_data(void *arg)
{
    bool sim = pt_sim(arg);
    uint64_t *board = harness_board();
    plat_hwq *q = open_hwq();
    int me = plat_core();
    if (me == 0) {
        uint8_t *dst = plat_shared_alloc(BIG, 64);
        ck_assert_ptr_nonnull(dst);
        plat_store64(&board[0], pt_u(dst));
    }
    harness_barrier();
    uint8_t *dst = pt_p(plat_load64(&board[0]));
    if (me == 0) {
        uint8_t *src = plat_local_alloc(BIG, 64);
        ck_assert_ptr_nonnull(src);
        pt_fill(src, BIG, 7);
        plat_dma d;
        ck_assert_int_eq(plat_dma_start_push(&d, dst, src, BIG, q, 11, dst), PLAT_OK);
        if (sim) {
            ck_assert_int_eq(plat_dma_test(&d), PLAT_EAGAIN);
            ck_assert_uint_eq(plat_hwq_count(q, 11), 0);
        }
        ck_assert_int_eq(plat_dma_wait(&d, HARNESS_WAIT_NS), PLAT_OK);
        ck_assert_int_eq(plat_dma_test(&d), PLAT_OK);
        plat_local_free(src);
    } else {
        ck_assert_int_eq(plat_hwq_wait(q, 11, HARNESS_WAIT_NS), PLAT_OK);
        uint8_t *got = plat_hwq_pop(q, 11);
        ck_assert_ptr_eq(got, dst);
        size_t bad = pt_bad(got, BIG, 7);
        ck_assert_msg(bad == BIG, "popped the descriptor before byte %zu was written", bad);
        ck_assert_ptr_null(plat_hwq_pop(q, 11));
    }
    harness_barrier();
    if (me == 0) plat_shared_free(dst);
}

/* In order with plat_dma_start on one engine: a plain transfer queued
 * before a push is written when the descriptor appears; one queued after it
 * completes after the push. */
static void case_push_order(void *arg)
{
    (void)arg;
    uint64_t *board = harness_board();
    plat_hwq *q = open_hwq();
    int me = plat_core();
    if (me == 0) {
        uint8_t *dst = plat_shared_alloc(2 * BIG + SMALL, 64);
        ck_assert_ptr_nonnull(dst);
        plat_store64(&board[0], pt_u(dst));
    }
    harness_barrier();
    uint8_t *a = pt_p(plat_load64(&board[0])), *b = a + BIG, *c = b + SMALL;
    static int desc;
    if (me == 0) {
        uint8_t *src = plat_local_alloc(2 * BIG + SMALL, 64);
        ck_assert_ptr_nonnull(src);
        pt_fill(src, BIG, 1);
        pt_fill(src + BIG, SMALL, 2);
        pt_fill(src + BIG + SMALL, BIG, 3);
        plat_dma d1, d2, d3;
        ck_assert_int_eq(plat_dma_start(&d1, a, src, BIG, 0, 0, 0), PLAT_OK);
        ck_assert_int_eq(plat_dma_start_push(&d2, b, src + BIG, SMALL, q, 12, &desc), PLAT_OK);
        ck_assert_int_eq(plat_dma_start(&d3, c, src + BIG + SMALL, BIG, 0, 0, 0), PLAT_OK);
        ck_assert_int_eq(plat_dma_wait(&d3, HARNESS_WAIT_NS), PLAT_OK);
        /* d3 is done: so are the earlier ones. */
        ck_assert_int_eq(plat_dma_test(&d2), PLAT_OK);
        ck_assert_int_eq(plat_dma_test(&d1), PLAT_OK);
        harness_barrier();
        /* Core 1 pops nothing now: a plain transfer queued after a push
         * completes with the descriptor already queued. */
        ck_assert_int_eq(plat_dma_start_push(&d2, b, src + BIG, SMALL, q, 13, &desc), PLAT_OK);
        ck_assert_int_eq(plat_dma_start(&d3, c, src + BIG + SMALL, BIG, 0, 0, 0), PLAT_OK);
        ck_assert_int_eq(plat_dma_wait(&d3, HARNESS_WAIT_NS), PLAT_OK);
        ck_assert_uint_eq(plat_hwq_count(q, 13), 1);
        ck_assert_ptr_eq(plat_hwq_pop(q, 13), &desc);
        ck_assert_int_eq(plat_dma_wait(&d2, 0), PLAT_OK);
        plat_local_free(src);
    } else {
        ck_assert_int_eq(plat_hwq_wait(q, 12, HARNESS_WAIT_NS), PLAT_OK);
        ck_assert_ptr_eq(plat_hwq_pop(q, 12), &desc);
        plat_store64(&board[1], 1);
        uint8_t *got = malloc(BIG);
        ck_assert_ptr_nonnull(got);
        plat_copy(got, a, BIG);
        ck_assert_uint_eq(pt_bad(got, BIG, 1), BIG);
        plat_copy(got, b, SMALL);
        ck_assert_uint_eq(pt_bad(got, SMALL, 2), SMALL);
        free(got);
        harness_barrier();
    }
    harness_barrier();
    if (me == 0) {
        ck_assert_uint_eq(plat_load64(&board[1]), 1);
        ck_assert_uint_eq(pt_bad(c, BIG, 3), BIG);
        plat_shared_free(a);
    }
}

/* A push queued behind a send to a channel with nothing posted waits with
 * it (natively: the engine's queue, run by the poster's thread), and its
 * descriptor appears once the post lets the engine go on. */
static void case_push_behind_send(void *arg)
{
    (void)arg;
    uint64_t *board = harness_board();
    plat_hwq *q = open_hwq();
    int me = plat_core();
    static int desc;
    if (me == 0) {
        uint8_t *dst = plat_shared_alloc(SMALL, 64);
        ck_assert_ptr_nonnull(dst);
        plat_store64(&board[0], pt_u(dst));
    }
    harness_barrier();
    uint8_t *dst = pt_p(plat_load64(&board[0]));
    if (me == 0) {
        uint8_t *src = plat_local_alloc(256 + SMALL, 64);
        ck_assert_ptr_nonnull(src);
        pt_fill(src, 256, 4);
        pt_fill(src + 256, SMALL, 5);
        plat_dma s, p;
        ck_assert_int_eq(plat_dma_send(&s, 1, 0, src, 256), PLAT_OK);
        ck_assert_int_eq(plat_dma_start_push(&p, dst, src + 256, SMALL, q, 14, &desc), PLAT_OK);
        harness_barrier();
        harness_barrier();
        ck_assert_int_eq(plat_dma_wait(&s, HARNESS_WAIT_NS), PLAT_OK);
        ck_assert_int_eq(plat_dma_wait(&p, HARNESS_WAIT_NS), PLAT_OK);
        plat_local_free(src);
    } else {
        uint8_t *buf = plat_local_alloc(256, 64);
        ck_assert_ptr_nonnull(buf);
        harness_barrier();
        plat_sleep_ns(PT_MS);
        ck_assert_uint_eq(plat_hwq_count(q, 14), 0); /* held behind the send */
        ck_assert_int_eq(plat_rx_post(0, buf, 256, 0), PLAT_OK);
        ck_assert_int_eq(plat_hwq_wait(q, 14, HARNESS_WAIT_NS), PLAT_OK);
        ck_assert_ptr_eq(plat_hwq_pop(q, 14), &desc);
        uint8_t got[SMALL];
        plat_copy(got, dst, SMALL);
        ck_assert_uint_eq(pt_bad(got, SMALL, 5), SMALL);
        size_t len = 0;
        ck_assert_int_eq(plat_rx_wait(0, &len, HARNESS_WAIT_NS), PLAT_OK);
        ck_assert_uint_eq(len, 256);
        ck_assert_uint_eq(pt_bad(buf, 256, 4), 256);
        harness_barrier();
        plat_local_free(buf);
    }
    harness_barrier();
    if (me == 0) plat_shared_free(dst);
}

/* Bad arguments, and a push to a full queue: the data is written, the
 * descriptor is not queued, and the transfer completes with PLAT_ENOMEM. */
static void case_push_errors(void *arg)
{
    (void)arg;
    plat_hwq *q = open_hwq();
    static int item[3];
    uint8_t *src = plat_local_alloc(64, 64), *dst = plat_shared_alloc(64, 64);
    ck_assert_ptr_nonnull(src);
    ck_assert_ptr_nonnull(dst);
    plat_dma d;
    unsigned nq = plat_hwq_queues(q);
    ck_assert_int_eq(plat_dma_start_push(&d, dst, src, 64, NULL, 0, item), PLAT_EINVAL);
    ck_assert_int_eq(plat_dma_start_push(&d, dst, src, 64, q, nq, item), PLAT_EINVAL);
    ck_assert_int_eq(plat_dma_start_push(&d, dst, src, 64, q, 0, NULL), PLAT_EINVAL);

    ck_assert_int_eq(plat_hwq_push(q, 4, &item[0]), PLAT_OK);
    ck_assert_int_eq(plat_hwq_push(q, 4, &item[1]), PLAT_OK); /* depth 2: full */
    pt_fill(src, 64, 9);
    ck_assert_int_eq(plat_dma_start_push(&d, dst, src, 64, q, 4, &item[2]), PLAT_OK);
    ck_assert_int_eq(plat_dma_wait(&d, HARNESS_WAIT_NS), PLAT_ENOMEM);
    ck_assert_int_eq(plat_dma_test(&d), PLAT_ENOMEM);
    ck_assert_uint_eq(pt_bad(dst, 64, 9), 64);
    ck_assert_uint_eq(plat_hwq_count(q, 4), 2);
    ck_assert_ptr_eq(plat_hwq_pop(q, 4), &item[0]);
    ck_assert_ptr_eq(plat_hwq_pop(q, 4), &item[1]);
    ck_assert_ptr_null(plat_hwq_pop(q, 4));
    /* The record is reusable: now there is room. A zero-length transfer
     * pushes too. */
    ck_assert_int_eq(plat_dma_start_push(&d, dst, src, 0, q, 4, &item[2]), PLAT_OK);
    ck_assert_int_eq(plat_dma_wait(&d, HARNESS_WAIT_NS), PLAT_OK);
    ck_assert_ptr_eq(plat_hwq_pop(q, 4), &item[2]);
    plat_local_free(src);
    plat_shared_free(dst);
}

/* A core without PLAT_CAP_DMA cannot start one. */
static void case_push_no_dma(void *arg)
{
    (void)arg;
    plat_hwq *q = open_hwq();
    static uint8_t buf[16];
    static int item;
    plat_dma d;
    ck_assert_int_eq(plat_dma_start_push(&d, buf, buf + 8, 8, q, 0, &item), PLAT_ENOTSUP);
    ck_assert_uint_eq(plat_hwq_count(q, 0), 0);
}

/* Sim, funbase: the HIBI PE DMA and the PC's driver cannot push (an engine
 * without Engine::can_push), on every core, whatever the queue. */
static void case_push_unsupported(void *arg)
{
    (void)arg;
    static uint8_t buf[16];
    static int item;
    plat_dma d;
    int rc = plat_dma_start_push(&d, buf, buf + 8, 8, NULL, 0, &item);
    ck_assert_msg(rc == PLAT_ENOTSUP, "core %d (%s): plat_dma_start_push gave %s", plat_core(),
                  plat_core_type(plat_core()), plat_strerror(rc));
}

/* Sim: a push transfer completes the device's push cost after the same
 * copy without one, and the descriptor is there when it does. */
static void case_push_time(void *arg)
{
    plat_hwq *q = open_hwq();
    uint8_t *src = plat_local_alloc(SMALL, 64), *dst = plat_shared_alloc(SMALL, 64);
    ck_assert_ptr_nonnull(src);
    ck_assert_ptr_nonnull(dst);
    static int item;
    plat_dma d;
    uint64_t t0 = plat_now_ns();
    ck_assert_int_eq(plat_dma_start(&d, dst, src, SMALL, 0, 0, 0), PLAT_OK);
    ck_assert_int_eq(plat_dma_wait(&d, HARNESS_WAIT_NS), PLAT_OK);
    uint64_t plain = plat_now_ns() - t0;
    t0 = plat_now_ns();
    ck_assert_int_eq(plat_dma_start_push(&d, dst, src, SMALL, q, 1, &item), PLAT_OK);
    ck_assert_int_eq(plat_dma_wait(&d, HARNESS_WAIT_NS), PLAT_OK);
    uint64_t pushed = plat_now_ns() - t0;
    double cost = pt_num(arg, "devices.hwq.push_latency_ns");
    ck_assert_msg((double)pushed - (double)plain == cost,
                  "plain %llu ns, with the push %llu ns: the push costs %g ns",
                  (unsigned long long)plain, (unsigned long long)pushed, cost);
    ck_assert_ptr_eq(plat_hwq_pop(q, 1), &item);
    plat_local_free(src);
    plat_shared_free(dst);
}

void pt_dma_push(void)
{
    static const struct harness_case cases[] = {
        {.name = "dma_push_data", .core = case_push_data, .cores = 2},
        {.name = "dma_push_order", .core = case_push_order, .cores = 2},
        {.name = "dma_push_behind_send", .core = case_push_behind_send, .cores = 2},
        {.name = "dma_push_errors",
         .core = case_push_errors,
         .cores = 1,
         .sets = {"devices.hwq.depth=2"}},
        {.name = "dma_push_no_dma",
         .core = case_push_no_dma,
         .cores = 1,
         .edit_from = "caps: [cas, fetch_add, local_mem, dma, threads]",
         .edit_to = "caps: [fetch_add, local_mem]"},
        {.name = "dma_push_funbase",
         .core = case_push_unsupported,
         .file = "funbase",
         .backends = HARNESS_SIM},
        {.name = "dma_push_time",
         .core = case_push_time,
         .cores = 1,
         .edit_from = "latency_ns: 20             # nominal push/pop at the queue manager",
         .edit_to = "latency_ns: 20\n    push_latency_ns: 700",
         .backends = HARNESS_SIM},
    };
    harness_add_cases("plat", cases, HARNESS_COUNT(cases));
}
