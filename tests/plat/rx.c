/* rx.c -- receive channels: plat_rx_*, plat_dma_send. */
#include "pt.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define RX_MAX 65536
#define GUARD 64
#define FILL 0xEE

static const size_t rx_sizes[] = {1, 3, 64, 1000, 4097, 32768, RX_MAX};

/* A local buffer of n bytes plus a guard, all FILL. */
static uint8_t *rx_buf(size_t n)
{
    uint8_t *b = plat_local_alloc(n + GUARD, 64);
    ck_assert_ptr_nonnull(b);
    memset(b, FILL, n + GUARD);
    return b;
}

static void expect_fill(const uint8_t *b, size_t from, size_t to, const char *what)
{
    for (size_t i = from; i < to; i++)
        ck_assert_msg(b[i] == FILL, "%s: byte %zu was written", what, i);
}

/* A message arrived whole: len, data, guard. */
static void expect_msg(const uint8_t *b, size_t len, size_t n, unsigned seed, const char *what)
{
    ck_assert_msg(len == n, "%s: len %zu, sent %zu", what, len, n);
    size_t bad = pt_bad(b, n, seed);
    ck_assert_msg(bad == n, "%s: byte %zu of %zu differs", what, bad, n);
    expect_fill(b, n, n + GUARD, what);
}

/* ---- cases ------------------------------------------------------------------- */

/* As many channels as core.rx_channels of the platform file. */
static void case_rx_count(void *arg)
{
    unsigned want = (unsigned)pt_num(arg, "core.rx_channels");
    ck_assert_uint_ge(want, 1);
    ck_assert_uint_eq(plat_rx_channels(), want);
}

/* Core 1 posts, core 0 sends every size; core 1 finds the data and len. */
static void case_rx_data(void *arg)
{
    (void)arg;
    int me = plat_core();
    unsigned chan = plat_rx_channels() - 1;
    uint8_t *src = NULL, *buf = NULL;
    if (me == 0) {
        src = plat_local_alloc(RX_MAX, 64);
        ck_assert_ptr_nonnull(src);
    } else {
        buf = rx_buf(RX_MAX);
    }
    for (size_t i = 0; i < HARNESS_COUNT(rx_sizes); i++) {
        size_t n = rx_sizes[i];
        unsigned seed = (unsigned)i + 40;
        if (me == 1) {
            memset(buf, FILL, n + GUARD);
            ck_assert_int_eq(plat_rx_post(chan, buf, n, 0), PLAT_OK);
        } else {
            pt_fill(src, n, seed);
        }
        harness_barrier();
        if (me == 0) {
            plat_dma d;
            ck_assert_int_eq(plat_dma_send(&d, 1, chan, src, n), PLAT_OK);
            ck_assert_int_eq(plat_dma_wait(&d, HARNESS_WAIT_NS), PLAT_OK);
            ck_assert_int_eq(plat_dma_test(&d), PLAT_OK);
        }
        harness_barrier();
        if (me == 1) {
            size_t len = 0;
            /* d is complete: the data is at the receiver. */
            ck_assert_int_eq(plat_rx_take(chan, &len), PLAT_OK);
            expect_msg(buf, len, n, seed, "rx_data");
            ck_assert_int_eq(plat_rx_take(chan, &len), PLAT_EINVAL); /* taken */
        }
        harness_barrier();
    }
    if (me == 0) plat_local_free(src);
    if (me == 1) plat_local_free(buf);
}

/* A receiver already in plat_rx_wait wakes when the data arrives. */
static void case_rx_wait_wakes(void *arg)
{
    uint64_t *board = harness_board();
    const size_t n = 4096;
    if (plat_core() == 1) {
        uint8_t *buf = rx_buf(n);
        ck_assert_int_eq(plat_rx_post(0, buf, n, 0), PLAT_OK);
        harness_barrier();
        size_t len = 0;
        ck_assert_int_eq(plat_rx_wait(0, &len, HARNESS_WAIT_NS), PLAT_OK);
        uint64_t woke = plat_now_ns(), sent = plat_load64(&board[0]);
        ck_assert_uint_ge(woke, sent);
        ck_assert_uint_lt(woke - sent, pt_sim(arg) ? 100 * PT_US : PT_NATIVE_SLACK_NS);
        expect_msg(buf, len, n, 5, "rx_wait_wakes");
        harness_barrier();
        plat_local_free(buf);
    } else {
        uint8_t *src = plat_local_alloc(n, 64);
        ck_assert_ptr_nonnull(src);
        pt_fill(src, n, 5);
        harness_barrier();
        plat_sleep_ns(PT_MS);
        plat_store64(&board[0], plat_now_ns());
        plat_dma d;
        ck_assert_int_eq(plat_dma_send(&d, 1, 0, src, n), PLAT_OK);
        ck_assert_int_eq(plat_dma_wait(&d, HARNESS_WAIT_NS), PLAT_OK);
        harness_barrier();
        plat_local_free(src);
    }
}

/* Send before post: plat_dma_send returns at once, the transfer waits for
 * the post, then the data arrives and d completes. */
static void case_rx_send_first(void *arg)
{
    (void)arg;
    const size_t n = 32768;
    if (plat_core() == 0) {
        uint8_t *src = plat_local_alloc(n, 64);
        ck_assert_ptr_nonnull(src);
        pt_fill(src, n, 6);
        plat_dma d;
        ck_assert_int_eq(plat_dma_send(&d, 1, 2, src, n), PLAT_OK);
        ck_assert_int_eq(plat_dma_wait(&d, 200 * PT_US), PLAT_ETIMEDOUT); /* nothing posted */
        ck_assert_int_eq(plat_dma_test(&d), PLAT_EAGAIN);
        harness_barrier(); /* the receiver posts only now */
        ck_assert_int_eq(plat_dma_wait(&d, HARNESS_WAIT_NS), PLAT_OK);
        harness_barrier();
        plat_local_free(src);
    } else {
        uint8_t *buf = rx_buf(n);
        harness_barrier();
        ck_assert_int_eq(plat_rx_post(2, buf, n, 0), PLAT_OK);
        size_t len = 0;
        ck_assert_int_eq(plat_rx_wait(2, &len, HARNESS_WAIT_NS), PLAT_OK);
        expect_msg(buf, len, n, 6, "send before post");
        harness_barrier();
        plat_local_free(buf);
    }
}

/* A transfer longer than the buffer: cap bytes written, len the full length. */
static void case_rx_truncate(void *arg)
{
    (void)arg;
    const size_t cap = 100, n = 1000;
    if (plat_core() == 1) {
        uint8_t *buf = rx_buf(cap);
        ck_assert_int_eq(plat_rx_post(1, buf, cap, 0), PLAT_OK);
        harness_barrier();
        size_t len = 0;
        ck_assert_int_eq(plat_rx_wait(1, &len, HARNESS_WAIT_NS), PLAT_OK);
        ck_assert_uint_eq(len, n);
        ck_assert_uint_eq(pt_bad(buf, cap, 7), cap);
        expect_fill(buf, cap, cap + GUARD, "truncated transfer");
        harness_barrier();
        plat_local_free(buf);
    } else {
        uint8_t *src = plat_local_alloc(n, 64);
        ck_assert_ptr_nonnull(src);
        pt_fill(src, n, 7);
        harness_barrier();
        plat_dma d;
        ck_assert_int_eq(plat_dma_send(&d, 1, 1, src, n), PLAT_OK);
        ck_assert_int_eq(plat_dma_wait(&d, HARNESS_WAIT_NS), PLAT_OK);
        harness_barrier();
        plat_local_free(src);
    }
}

/* ring_bits: the receiver's doorbell rings after the data is there, and the
 * buffer can be taken at once. The sender starts only once the receiver is
 * in plat_doorbell_wait (natively: still spinning, so an early ring would be
 * seen before the copy ends), and the receiver looks at the last byte first. */
static void case_rx_ring(void *arg)
{
    (void)arg;
    uint64_t *board = harness_board();
    const size_t n = RX_MAX;
    if (plat_core() == 1) {
        uint8_t *buf = rx_buf(n), *want = malloc(n);
        ck_assert_ptr_nonnull(want);
        pt_fill(want, n, 8);
        ck_assert_int_eq(plat_rx_post(3, buf, n, 0x200), PLAT_OK);
        harness_barrier();
        plat_store64(&board[0], 1);
        ck_assert_uint_eq(plat_doorbell_wait(0x200, HARNESS_WAIT_NS), 0x200);
        /* No other synchronisation: the buffer must be filled now. */
        size_t len = 0;
        int rc = plat_rx_take(3, &len);
        ck_assert_msg(rc == PLAT_OK, "doorbell rang before the buffer was filled: %s",
                      plat_strerror(rc));
        ck_assert_msg(memcmp(buf + n - 64, want + n - 64, 64) == 0,
                      "doorbell rang before the last bytes arrived");
        ck_assert_msg(memcmp(buf, want, n) == 0, "doorbell rang before all bytes arrived");
        free(want);
        expect_msg(buf, len, n, 8, "rx_ring");
        ck_assert_uint_eq(plat_doorbell_wait(0xffffffffu, 0), 0); /* rang once */
        harness_barrier();
        plat_local_free(buf);
    } else {
        uint8_t *src = plat_local_alloc(n, 64);
        ck_assert_ptr_nonnull(src);
        pt_fill(src, n, 8);
        harness_barrier();
        uint64_t t0 = plat_now_ns();
        while (plat_load64(&board[0]) == 0) /* a busy wait: no wake-up delay */
            ck_assert_uint_lt(plat_now_ns() - t0, HARNESS_WAIT_NS);
        plat_dma d;
        ck_assert_int_eq(plat_dma_send(&d, 1, 3, src, n), PLAT_OK);
        ck_assert_int_eq(plat_dma_wait(&d, HARNESS_WAIT_NS), PLAT_OK);
        harness_barrier();
        plat_local_free(src);
    }
}

/* The states of one channel on one core, and sends to oneself. */
static void case_rx_states(void *arg)
{
    bool sim = pt_sim(arg);
    uint8_t *buf = rx_buf(64), *other = rx_buf(64);
    size_t len = 12345;
    ck_assert_int_eq(plat_rx_take(0, &len), PLAT_EINVAL); /* nothing posted */
    ck_assert_int_eq(plat_rx_wait(0, &len, PT_MS), PLAT_EINVAL);
    ck_assert_int_eq(plat_rx_cancel(0), PLAT_EINVAL);
    ck_assert_uint_eq(len, 12345);

    ck_assert_int_eq(plat_rx_post(0, buf, 64, 0), PLAT_OK);
    ck_assert_int_eq(plat_rx_take(0, &len), PLAT_EAGAIN); /* nothing arrived */
    ck_assert_int_eq(plat_rx_post(0, other, 64, 0), PLAT_EBUSY);
    ck_assert_int_eq(plat_rx_take(0, &len), PLAT_EAGAIN); /* still posted */
    uint64_t t0 = plat_now_ns();
    ck_assert_int_eq(plat_rx_wait(0, &len, 2 * PT_MS), PLAT_ETIMEDOUT);
    uint64_t dt = plat_now_ns() - t0;
    ck_assert_uint_ge(dt, 2 * PT_MS);
    ck_assert_uint_lt(dt, 2 * PT_MS + (sim ? 10 * PT_US : PT_NATIVE_SLACK_NS));
    ck_assert_int_eq(plat_rx_wait(0, &len, 0), PLAT_ETIMEDOUT);
    ck_assert_int_eq(plat_rx_cancel(0), PLAT_OK);
    ck_assert_int_eq(plat_rx_cancel(0), PLAT_EINVAL);
    ck_assert_int_eq(plat_rx_take(0, &len), PLAT_EINVAL);
    ck_assert_uint_eq(len, 12345);

    /* A send to one's own channel; a filled buffer is busy until taken. */
    uint8_t src[48];
    pt_fill(src, sizeof src, 9);
    ck_assert_int_eq(plat_rx_post(0, buf, 64, 0), PLAT_OK);
    plat_dma d;
    ck_assert_int_eq(plat_dma_send(&d, plat_core(), 0, src, sizeof src), PLAT_OK);
    ck_assert_int_eq(plat_dma_wait(&d, HARNESS_WAIT_NS), PLAT_OK);
    ck_assert_int_eq(plat_rx_post(0, other, 64, 0), PLAT_EBUSY);
    ck_assert_int_eq(plat_rx_wait(0, &len, HARNESS_WAIT_NS), PLAT_OK);
    ck_assert_uint_eq(len, sizeof src);
    ck_assert_uint_eq(pt_bad(buf, sizeof src, 9), sizeof src);
    expect_fill(buf, sizeof src, 64 + GUARD, "own channel");
    ck_assert_int_eq(plat_rx_take(0, &len), PLAT_EINVAL);
    /* Channels are independent: 0 is free again, 1 was never posted. */
    ck_assert_int_eq(plat_rx_post(0, other, 64, 0), PLAT_OK);
    ck_assert_int_eq(plat_rx_take(1, &len), PLAT_EINVAL);
    ck_assert_int_eq(plat_rx_cancel(0), PLAT_OK);
    expect_fill(other, 0, 64 + GUARD, "cancelled buffer");

    plat_local_free(buf);
    plat_local_free(other);
}

/* Bad channels and cores. */
static void case_rx_bad_args(void *arg)
{
    (void)arg;
    unsigned n = plat_rx_channels();
    uint8_t buf[16], src[16] = {1};
    size_t len;
    plat_dma d;
    ck_assert_int_eq(plat_rx_post(n, buf, sizeof buf, 0), PLAT_EINVAL);
    ck_assert_int_eq(plat_rx_post(~0u, buf, sizeof buf, 0), PLAT_EINVAL);
    ck_assert_int_eq(plat_rx_take(n, &len), PLAT_EINVAL);
    ck_assert_int_eq(plat_rx_wait(n, &len, PT_MS), PLAT_EINVAL);
    ck_assert_int_eq(plat_rx_cancel(n), PLAT_EINVAL);
    ck_assert_int_eq(plat_dma_send(&d, 1, n, src, sizeof src), PLAT_EINVAL);
    ck_assert_int_eq(plat_dma_send(&d, 1, ~0u, src, sizeof src), PLAT_EINVAL);
    ck_assert_int_eq(plat_dma_send(&d, plat_cores(), 0, src, sizeof src), PLAT_EINVAL);
    ck_assert_int_eq(plat_dma_send(&d, -1, 0, src, sizeof src), PLAT_EINVAL);
    harness_barrier();
}

/* Cancel before arrival: OK, and a later send waits for the next post (it
 * does not land in the withdrawn buffer). Cancel after arrival: EAGAIN. */
static void case_rx_cancel(void *arg)
{
    (void)arg;
    const size_t n = 512;
    if (plat_core() == 1) {
        uint8_t *a = rx_buf(n), *b = rx_buf(n);
        ck_assert_int_eq(plat_rx_post(4, a, n, 0), PLAT_OK);
        ck_assert_int_eq(plat_rx_cancel(4), PLAT_OK);
        harness_barrier(); /* 1: core 0 sends */
        harness_barrier(); /* 2: its transfer waits */
        expect_fill(a, 0, n + GUARD, "withdrawn buffer");
        ck_assert_int_eq(plat_rx_post(4, b, n, 0), PLAT_OK);
        size_t len = 0;
        ck_assert_int_eq(plat_rx_wait(4, &len, HARNESS_WAIT_NS), PLAT_OK);
        expect_msg(b, len, n, 10, "after a cancel");
        expect_fill(a, 0, n + GUARD, "withdrawn buffer");

        memset(b, FILL, n + GUARD);
        ck_assert_int_eq(plat_rx_post(4, b, n, 0), PLAT_OK);
        harness_barrier(); /* 3: core 0 sends again and waits */
        harness_barrier(); /* 4: it has arrived */
        ck_assert_int_eq(plat_rx_cancel(4), PLAT_EAGAIN);
        ck_assert_int_eq(plat_rx_take(4, &len), PLAT_OK);
        expect_msg(b, len, n, 11, "cancel after arrival");
        plat_local_free(a);
        plat_local_free(b);
    } else {
        uint8_t *src = plat_local_alloc(n, 64);
        ck_assert_ptr_nonnull(src);
        pt_fill(src, n, 10);
        harness_barrier(); /* 1 */
        plat_dma d;
        ck_assert_int_eq(plat_dma_send(&d, 1, 4, src, n), PLAT_OK);
        ck_assert_int_eq(plat_dma_wait(&d, PT_MS), PLAT_ETIMEDOUT);
        harness_barrier(); /* 2 */
        ck_assert_int_eq(plat_dma_wait(&d, HARNESS_WAIT_NS), PLAT_OK);
        pt_fill(src, n, 11);
        harness_barrier(); /* 3 */
        ck_assert_int_eq(plat_dma_send(&d, 1, 4, src, n), PLAT_OK);
        ck_assert_int_eq(plat_dma_wait(&d, HARNESS_WAIT_NS), PLAT_OK);
        harness_barrier(); /* 4 */
        plat_local_free(src);
    }
}

/* Two senders, one channel: each post is filled by exactly one transfer;
 * every message arrives once, each sender's in its order. Senders queue all
 * their transfers at once, so most wait for a post. */
#define MSGS 24
#define MSG_MAX 2048

static size_t msg_len(int sender, int seq)
{
    return 16 + (size_t)((seq * 37 + sender * 500) % (MSG_MAX - 16));
}

static void case_rx_two_senders(void *arg)
{
    (void)arg;
    int me = plat_core();
    if (me == 2) {
        uint8_t *buf = rx_buf(MSG_MAX);
        int next[2] = {0, 0};
        for (int k = 0; k < 2 * MSGS; k++) {
            memset(buf, FILL, MSG_MAX + GUARD);
            ck_assert_int_eq(plat_rx_post(0, buf, MSG_MAX, 0), PLAT_OK);
            if (k == 0) harness_barrier();
            size_t len = 0;
            ck_assert_int_eq(plat_rx_wait(0, &len, HARNESS_WAIT_NS), PLAT_OK);
            ck_assert_uint_ge(len, 16);
            uint64_t hdr[2];
            memcpy(hdr, buf, sizeof hdr);
            ck_assert_msg(hdr[0] < 2, "message %d: sender %llu", k, (unsigned long long)hdr[0]);
            int s = (int)hdr[0], seq = next[s]++;
            ck_assert_msg(hdr[1] == (uint64_t)seq, "sender %d: message %llu arrived as number %d",
                          s, (unsigned long long)hdr[1], seq);
            ck_assert_uint_eq(len, msg_len(s, seq));
            ck_assert_uint_eq(pt_bad(buf + 16, len - 16, (unsigned)(s * 100 + seq)), len - 16);
            expect_fill(buf, len, MSG_MAX + GUARD, "two senders");
        }
        ck_assert_int_eq(next[0], MSGS);
        ck_assert_int_eq(next[1], MSGS);
        /* Nothing more (no duplicate) comes. */
        ck_assert_int_eq(plat_rx_post(0, buf, MSG_MAX, 0), PLAT_OK);
        size_t len = 0;
        ck_assert_int_eq(plat_rx_wait(0, &len, PT_MS), PLAT_ETIMEDOUT);
        ck_assert_int_eq(plat_rx_cancel(0), PLAT_OK);
        harness_barrier();
        plat_local_free(buf);
        return;
    }
    uint8_t *src = plat_local_alloc((size_t)MSGS * MSG_MAX, 64);
    ck_assert_ptr_nonnull(src);
    plat_dma d[MSGS];
    for (int i = 0; i < MSGS; i++) {
        uint8_t *m = src + (size_t)i * MSG_MAX;
        uint64_t hdr[2] = {(uint64_t)me, (uint64_t)i};
        memcpy(m, hdr, sizeof hdr);
        pt_fill(m + 16, msg_len(me, i) - 16, (unsigned)(me * 100 + i));
    }
    harness_barrier();
    for (int i = 0; i < MSGS; i++)
        ck_assert_int_eq(plat_dma_send(&d[i], 2, 0, src + (size_t)i * MSG_MAX, msg_len(me, i)),
                         PLAT_OK);
    ck_assert_int_eq(plat_dma_wait(&d[MSGS - 1], HARNESS_WAIT_NS), PLAT_OK);
    for (int i = 0; i < MSGS; i++)
        ck_assert_msg(plat_dma_test(&d[i]) == PLAT_OK, "send %d not complete after the last", i);
    harness_barrier();
    plat_local_free(src);
}

/* A plat_dma_start queued after a waiting plat_dma_send waits behind it and
 * completes after it. */
static void case_rx_order(void *arg)
{
    (void)arg;
    const size_t n = 8192;
    if (plat_core() == 1) {
        uint8_t *buf = rx_buf(n);
        harness_barrier(); /* 1: core 0 queued both */
        harness_barrier(); /* 2: and saw them wait */
        ck_assert_int_eq(plat_rx_post(5, buf, n, 0), PLAT_OK);
        size_t len = 0;
        ck_assert_int_eq(plat_rx_wait(5, &len, HARNESS_WAIT_NS), PLAT_OK);
        expect_msg(buf, len, n, 12, "rx_order");
        harness_barrier();
        plat_local_free(buf);
    } else {
        uint8_t *src = plat_local_alloc(n, 64), *dst = plat_shared_alloc(n, 64);
        ck_assert_ptr_nonnull(src);
        ck_assert_ptr_nonnull(dst);
        pt_fill(src, n, 12);
        plat_dma send, copy;
        ck_assert_int_eq(plat_dma_send(&send, 1, 5, src, n), PLAT_OK);
        ck_assert_int_eq(plat_dma_start(&copy, dst, src, n, 0, 0, 0), PLAT_OK);
        harness_barrier(); /* 1 */
        ck_assert_int_eq(plat_dma_wait(&copy, PT_MS), PLAT_ETIMEDOUT);
        ck_assert_int_eq(plat_dma_test(&send), PLAT_EAGAIN);
        harness_barrier(); /* 2 */
        ck_assert_int_eq(plat_dma_wait(&copy, HARNESS_WAIT_NS), PLAT_OK);
        ck_assert_msg(plat_dma_test(&send) == PLAT_OK, "the copy completed before the send");
        ck_assert_uint_eq(pt_bad(dst, n, 12), n);
        harness_barrier();
        plat_local_free(src);
        plat_shared_free(dst);
    }
}

/* A core without PLAT_CAP_DMA has no channels. */
static void case_rx_no_dma(void *arg)
{
    (void)arg;
    uint8_t buf[16] = {1};
    size_t len;
    plat_dma d;
    ck_assert_uint_eq(plat_rx_channels(), 0);
    ck_assert_int_eq(plat_rx_post(0, buf, sizeof buf, 0), PLAT_ENOTSUP);
    ck_assert_int_eq(plat_rx_take(0, &len), PLAT_ENOTSUP);
    ck_assert_int_eq(plat_rx_wait(0, &len, PT_MS), PLAT_ENOTSUP);
    ck_assert_int_eq(plat_rx_cancel(0), PLAT_ENOTSUP);
    ck_assert_int_eq(plat_dma_send(&d, 1 - plat_core(), 0, buf, sizeof buf), PLAT_ENOTSUP);
    ck_assert(!plat_dma_reach(buf, sizeof buf)); /* no engine reaches anything */
    harness_barrier();
}

/* A generic DMA engine (native, and the crossbar's) masters any memory. */
static void case_rx_reach(void *arg)
{
    (void)arg;
    static uint8_t data[64];
    uint8_t stack[64];
    void *local = plat_local_alloc(64, 16);
    ck_assert_ptr_nonnull(local);
    ck_assert(plat_dma_reach(data, sizeof data));
    ck_assert(plat_dma_reach(stack, sizeof stack));
    ck_assert(plat_dma_reach(local, 64));
    plat_local_free(local);
}

/* Sim: a transfer to a posted channel takes at least n / link bandwidth. */
static void case_rx_time(void *arg)
{
    const size_t n = RX_MAX;
    if (plat_core() == 1) {
        uint8_t *buf = rx_buf(n);
        ck_assert_int_eq(plat_rx_post(0, buf, n, 0), PLAT_OK);
        harness_barrier();
        size_t len = 0;
        ck_assert_int_eq(plat_rx_wait(0, &len, HARNESS_WAIT_NS), PLAT_OK);
        ck_assert_uint_eq(len, n);
        harness_barrier();
        plat_local_free(buf);
    } else {
        uint8_t *src = plat_local_alloc(n, 64);
        ck_assert_ptr_nonnull(src);
        harness_barrier();
        plat_dma d;
        uint64_t t0 = plat_now_ns();
        ck_assert_int_eq(plat_dma_send(&d, 1, 0, src, n), PLAT_OK);
        ck_assert_int_eq(plat_dma_wait(&d, HARNESS_WAIT_NS), PLAT_OK);
        uint64_t dt = plat_now_ns() - t0;
        double ideal = (double)n / (pt_num(arg, "link.bandwidth_MBps") / 1000.0);
        ck_assert_msg((double)dt >= ideal, "%zu bytes to a posted channel in %llu ns, < %.0f ns", n,
                      (unsigned long long)dt, ideal);
        harness_barrier();
        plat_local_free(src);
    }
}

/* ---- adopted threads (native) ------------------------------------------------ */

#define ADOPTED_RX 64 /* plat/native: the channels of an adopted thread's core */

struct adopted_rx {
    int core; /* atomic: the thread's core, once known (+1) */
    int sent; /* atomic: the main thread has sent */
    unsigned channels;
    int rc_wait;
    size_t len;
    uint8_t buf[256];
};

static void *adopted_receiver(void *arg)
{
    struct adopted_rx *a = arg;
    a->channels = plat_rx_channels();
    __atomic_store_n(&a->core, plat_core() + 1, __ATOMIC_RELEASE);
    uint64_t t0 = plat_now_ns();
    while (!__atomic_load_n(&a->sent, __ATOMIC_ACQUIRE) && plat_now_ns() - t0 < HARNESS_WAIT_NS)
        plat_sleep_ns(10 * PT_US);
    /* The send waits for this post; posting runs it. */
    if (plat_rx_post(ADOPTED_RX - 1, a->buf, sizeof a->buf, 0) == PLAT_OK)
        a->rc_wait = plat_rx_wait(ADOPTED_RX - 1, &a->len, HARNESS_WAIT_NS);
    else
        a->rc_wait = PLAT_EIO;
    return NULL;
}

/* Natively a thread outside any run is a core with 64 channels; a send from
 * one such thread waits for another's post. */
static void test_rx_adopted(const struct harness_env *env)
{
    (void)env;
    ck_assert_uint_eq(plat_rx_channels(), ADOPTED_RX);
    struct adopted_rx a = {0};
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, adopted_receiver, &a), 0);
    uint64_t t0 = plat_now_ns();
    while (!__atomic_load_n(&a.core, __ATOMIC_ACQUIRE) && plat_now_ns() - t0 < HARNESS_WAIT_NS)
        plat_sleep_ns(10 * PT_US);
    int core = __atomic_load_n(&a.core, __ATOMIC_ACQUIRE) - 1;
    ck_assert_int_ge(core, 0);
    ck_assert_int_ne(core, plat_core());
    uint8_t src[200];
    pt_fill(src, sizeof src, 13);
    plat_dma d;
    ck_assert_int_eq(plat_dma_send(&d, core, ADOPTED_RX, src, sizeof src), PLAT_EINVAL);
    ck_assert_int_eq(plat_dma_send(&d, core, ADOPTED_RX - 1, src, sizeof src), PLAT_OK);
    ck_assert_int_eq(plat_dma_test(&d), PLAT_EAGAIN);
    __atomic_store_n(&a.sent, 1, __ATOMIC_RELEASE);
    ck_assert_int_eq(plat_dma_wait(&d, HARNESS_WAIT_NS), PLAT_OK);
    ck_assert_int_eq(pthread_join(t, NULL), 0);
    ck_assert_uint_eq(a.channels, ADOPTED_RX);
    ck_assert_int_eq(a.rc_wait, PLAT_OK);
    ck_assert_uint_eq(a.len, sizeof src);
    ck_assert_uint_eq(pt_bad(a.buf, sizeof src, 13), sizeof src);
}

void pt_rx(void)
{
    static const struct harness_case cases[] = {
        {.name = "rx_count", .core = case_rx_count, .cores = 2},
        {.name = "rx_data", .core = case_rx_data, .cores = 2},
        {.name = "rx_wait_wakes", .core = case_rx_wait_wakes, .cores = 2},
        {.name = "rx_send_first", .core = case_rx_send_first, .cores = 2},
        {.name = "rx_truncate", .core = case_rx_truncate, .cores = 2},
        {.name = "rx_ring", .core = case_rx_ring, .cores = 2},
        {.name = "rx_states", .core = case_rx_states, .cores = 1},
        {.name = "rx_bad_args", .core = case_rx_bad_args, .cores = 2},
        {.name = "rx_cancel", .core = case_rx_cancel, .cores = 2},
        {.name = "rx_two_senders", .core = case_rx_two_senders, .cores = 3},
        {.name = "rx_order", .core = case_rx_order, .cores = 2},
        {.name = "rx_no_dma",
         .core = case_rx_no_dma,
         .cores = 2,
         .edit_from = "caps: [cas, fetch_add, local_mem, dma, threads]",
         .edit_to = "caps: [fetch_add, local_mem]"},
        {.name = "rx_reach", .core = case_rx_reach, .cores = 1},
        {.name = "rx_time", .core = case_rx_time, .cores = 2, .backends = HARNESS_SIM},
        {.name = "rx_adopted", .test = test_rx_adopted, .backends = HARNESS_NATIVE},
    };
    harness_add_cases("plat", cases, HARNESS_COUNT(cases));
}
