/* stream.c -- byte streams (plat_stream_*) and pollers (plat_poller_*). */
#include "pt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MiB (1u << 20)

static void send_all(plat_stream *s, const uint8_t *b, size_t n)
{
    for (size_t done = 0; done < n;) {
        long r = plat_stream_send(s, b + done, n - done, HARNESS_WAIT_NS);
        ck_assert_msg(r > 0, "send at %zu of %zu: %s", done, n, plat_strerror((int)r));
        ck_assert_uint_le((size_t)r, n - done);
        done += (size_t)r;
    }
}

static void recv_all(plat_stream *s, uint8_t *b, size_t n)
{
    for (size_t done = 0; done < n;) {
        long r = plat_stream_recv(s, b + done, n - done, HARNESS_WAIT_NS);
        ck_assert_msg(r > 0, "recv at %zu of %zu: %ld (%s)", done, n, r,
                      r ? plat_strerror((int)r) : "closed");
        ck_assert_uint_le((size_t)r, n - done);
        done += (size_t)r;
    }
}

static void addr_of(char *buf, size_t len, int k)
{
    snprintf(buf, len, "127.0.0.1:%d", pt_port(k));
}

static const size_t stream_sizes[] = {1, 1000, 65537, MiB};

/* Core 0 listens and accepts, core 1 connects; data both ways; close. */
void case_stream_tcp(void *arg)
{
    bool sim = pt_sim(arg);
    char addr[64], nobody[64];
    addr_of(addr, sizeof addr, 0);
    addr_of(nobody, sizeof nobody, 1);
    uint8_t *buf = malloc(MiB), *ref = malloc(MiB);
    ck_assert_ptr_nonnull(buf);
    ck_assert_ptr_nonnull(ref);
    int st = 0;

    if (plat_core() == 0) {
        plat_stream *l = plat_stream_listen(addr, &st);
        ck_assert_msg(l, "listen %s: %s", addr, plat_strerror(st));
        st = 0;
        ck_assert_ptr_null(plat_stream_listen(addr, &st));
        ck_assert_int_eq(st, PLAT_EADDRINUSE);
        st = 0;
        ck_assert_ptr_null(plat_stream_accept(l, 0, &st)); /* nobody yet */
        ck_assert_int_lt(st, 0);
        harness_barrier(); /* B1 */
        plat_stream *s = plat_stream_accept(l, HARNESS_WAIT_NS, &st);
        ck_assert_msg(s, "accept: %s", plat_strerror(st));
        ck_assert_int_eq(plat_stream_recv(s, buf, 10, 0), PLAT_EAGAIN);
        uint64_t t0 = plat_now_ns();
        ck_assert_int_eq(plat_stream_recv(s, buf, 10, 2 * PT_MS), PLAT_ETIMEDOUT);
        ck_assert_uint_ge(plat_now_ns() - t0, 2 * PT_MS);
        harness_barrier(); /* B2 */
        for (size_t i = 0; i < HARNESS_COUNT(stream_sizes); i++) {
            size_t n = stream_sizes[i];
            recv_all(s, buf, n);
            size_t bad = pt_bad(buf, n, (unsigned)i);
            ck_assert_msg(bad == n, "%zu bytes: byte %zu differs", n, bad);
        }
        pt_fill(ref, MiB, 99);
        plat_store64(&harness_board()[0], plat_now_ns());
        send_all(s, ref, MiB);
        harness_barrier(); /* B3: core 1 closes */
        ck_assert_int_eq(plat_stream_recv(s, buf, 10, HARNESS_WAIT_NS), 0);
        ck_assert_int_eq(plat_stream_recv(s, buf, 10, 0), 0); /* and stays closed */
        /* Sending to a closed peer fails (natively maybe only after the
         * reset came back): never a signal, never success forever. */
        long r = 0;
        for (int i = 0; i < 100 && r >= 0; i++) {
            r = plat_stream_send(s, ref, 65536, 100 * PT_MS);
            if (r >= 0) plat_sleep_ns(PT_MS);
        }
        ck_assert_msg(r == PLAT_ECLOSED || r == PLAT_EIO, "send to a closed peer: %ld (%s)", r,
                      r < 0 ? plat_strerror((int)r) : "bytes");
        if (sim) ck_assert_int_eq(r, PLAT_ECLOSED);
        plat_stream_close(s);
        plat_stream_close(l);
    } else {
        /* Nobody listens there: refused (not a timeout). */
        st = 0;
        uint64_t t0 = plat_now_ns();
        ck_assert_ptr_null(plat_stream_connect(nobody, 1000 * PT_MS, &st));
        ck_assert_msg(st == PLAT_ECONNREFUSED, "connect to nobody: %s", plat_strerror(st));
        ck_assert_uint_lt(plat_now_ns() - t0, 1000 * PT_MS);
        harness_barrier(); /* B1 */
        plat_stream *s = plat_stream_connect(addr, HARNESS_WAIT_NS, &st);
        ck_assert_msg(s, "connect %s: %s", addr, plat_strerror(st));
        harness_barrier(); /* B2 */
        for (size_t i = 0; i < HARNESS_COUNT(stream_sizes); i++) {
            pt_fill(buf, stream_sizes[i], (unsigned)i);
            send_all(s, buf, stream_sizes[i]);
        }
        recv_all(s, buf, MiB);
        uint64_t took = plat_now_ns() - plat_load64(&harness_board()[0]);
        if (sim && strcmp(pt_str(arg, "devices.net.type"), "stream") == 0) {
            /* The modelled network: at least size / bandwidth + latency
             * (tests/plat/gbe.c times the tcp device). */
            double bytes_per_ns = pt_num(arg, "devices.net.bandwidth_MBps") / 1000.0;
            double least = MiB / bytes_per_ns + pt_num(arg, "devices.net.latency_ns");
            ck_assert_msg((double)took >= least && (double)took <= 1.5 * least,
                          "sim: 1 MiB over the network took %llu ns, expected about %.0f",
                          (unsigned long long)took, least);
        }
        size_t bad = pt_bad(buf, MiB, 99);
        ck_assert_msg(bad == MiB, "reply: byte %zu differs", bad);
        harness_barrier(); /* B3 */
        plat_stream_close(s);
    }
    free(buf);
    free(ref);
}

/* plat_stream_pair: both directions, across cores, close seen as 0. */
void case_stream_pair(void *arg)
{
    (void)arg;
    uint64_t *board = harness_board();
    enum { N = 256 * 1024 };
    uint8_t *buf = malloc(N);
    ck_assert_ptr_nonnull(buf);
    if (plat_core() == 0) {
        plat_stream *ends[2] = {NULL, NULL};
        ck_assert_int_eq(plat_stream_pair(ends), PLAT_OK);
        ck_assert_ptr_nonnull(ends[0]);
        ck_assert_ptr_nonnull(ends[1]);
        char got[16] = "";
        ck_assert_int_eq(plat_stream_send(ends[0], "hello", 5, HARNESS_WAIT_NS), 5);
        ck_assert_int_eq(plat_stream_recv(ends[1], got, sizeof got, HARNESS_WAIT_NS), 5);
        ck_assert_int_eq(memcmp(got, "hello", 5), 0);
        ck_assert_int_eq(plat_stream_send(ends[1], "world", 5, HARNESS_WAIT_NS), 5);
        ck_assert_int_eq(plat_stream_recv(ends[0], got, sizeof got, HARNESS_WAIT_NS), 5);
        ck_assert_int_eq(memcmp(got, "world", 5), 0);
        ck_assert_int_eq(plat_stream_recv(ends[0], got, sizeof got, 0), PLAT_EAGAIN);
        plat_store64(&board[0], pt_u(ends[1]));
        harness_barrier();
        pt_fill(buf, N, 5);
        send_all(ends[0], buf, N);
        plat_stream_close(ends[0]);
        harness_barrier();
    } else {
        harness_barrier();
        plat_stream *s = pt_p(plat_load64(&board[0]));
        recv_all(s, buf, N);
        ck_assert_uint_eq(pt_bad(buf, N, 5), N);
        ck_assert_int_eq(plat_stream_recv(s, buf, 1, HARNESS_WAIT_NS), 0);
        plat_stream_close(s);
        harness_barrier();
    }
    free(buf);
}

/* ---- poller -------------------------------------------------------------------- */

static int tag_a, tag_b, tag_c;

static int poll_wait(plat_poller *p, struct plat_poll_event *ev, uint64_t timeout)
{
    int n = plat_poller_wait(p, ev, 4, timeout);
    ck_assert_msg(n >= 0, "plat_poller_wait: %s", plat_strerror(n));
    ck_assert_int_le(n, 4);
    return n;
}

static bool has_event(const struct plat_poll_event *ev, int n, const void *user, unsigned bit)
{
    for (int i = 0; i < n; i++)
        if (ev[i].user == user && (ev[i].bits & bit)) return true;
    return false;
}

void case_poller(void *arg)
{
    bool sim = pt_sim(arg);
    uint64_t *board = harness_board();
    struct plat_poll_event ev[4];
    char buf[16];
    if (plat_core() == 1) {
        harness_barrier(); /* B1 */
        plat_stream *a0 = pt_p(plat_load64(&board[0]));
        plat_sleep_ns(PT_MS);
        ck_assert_int_eq(plat_stream_send(a0, "0123456789", 10, HARNESS_WAIT_NS), 10);
        harness_barrier(); /* B2 */
        plat_sleep_ns(PT_MS);
        plat_poller_wake(pt_p(plat_load64(&board[1])));
        harness_barrier(); /* B3 */
        ck_assert_int_eq(plat_stream_send(a0, "abcdefghij", 10, HARNESS_WAIT_NS), 10);
        harness_barrier(); /* B4 */
        return;
    }
    plat_stream *a[2], *b[2];
    ck_assert_int_eq(plat_stream_pair(a), PLAT_OK);
    ck_assert_int_eq(plat_stream_pair(b), PLAT_OK);
    plat_poller *p = plat_poller_new();
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(plat_poller_add(p, a[1], PLAT_POLL_IN, &tag_a), PLAT_OK);

    /* Nothing readable: 0, at once or after about the timeout. */
    ck_assert_int_eq(poll_wait(p, ev, 0), 0);
    uint64_t t0 = plat_now_ns();
    ck_assert_int_eq(poll_wait(p, ev, 2 * PT_MS), 0);
    uint64_t dt = plat_now_ns() - t0;
    ck_assert_uint_ge(dt, 2 * PT_MS);
    ck_assert_uint_lt(dt, 2 * PT_MS + (sim ? 10 * PT_US : PT_NATIVE_SLACK_NS));

    /* IN once the peer (on another core) sends. */
    plat_store64(&board[0], pt_u(a[0]));
    plat_store64(&board[1], pt_u(p));
    harness_barrier(); /* B1 */
    int n = poll_wait(p, ev, HARNESS_WAIT_NS);
    ck_assert_int_eq(n, 1);
    ck_assert_ptr_eq(ev[0].user, &tag_a);
    ck_assert(ev[0].bits & PLAT_POLL_IN);
    size_t got = 0;
    while (got < 10) {
        long r = plat_stream_recv(a[1], buf + got, 10 - got, HARNESS_WAIT_NS);
        ck_assert_int_gt(r, 0);
        got += (size_t)r;
    }
    ck_assert_int_eq(memcmp(buf, "0123456789", 10), 0);
    ck_assert_int_eq(poll_wait(p, ev, 0), 0); /* drained */

    /* OUT on a writable stream; mod switches it to IN with a new user. */
    ck_assert_int_eq(plat_poller_add(p, b[0], PLAT_POLL_OUT, &tag_b), PLAT_OK);
    n = poll_wait(p, ev, HARNESS_WAIT_NS);
    ck_assert(has_event(ev, n, &tag_b, PLAT_POLL_OUT));
    ck_assert(!has_event(ev, n, &tag_a, PLAT_POLL_IN));
    ck_assert_int_eq(plat_poller_mod(p, b[0], PLAT_POLL_IN, &tag_c), PLAT_OK);
    ck_assert_int_eq(poll_wait(p, ev, 0), 0);
    ck_assert_int_eq(plat_stream_send(b[1], "x", 1, HARNESS_WAIT_NS), 1);
    n = poll_wait(p, ev, HARNESS_WAIT_NS);
    ck_assert(has_event(ev, n, &tag_c, PLAT_POLL_IN));
    ck_assert(!has_event(ev, n, &tag_b, PLAT_POLL_OUT));
    ck_assert_int_eq(plat_stream_recv(b[0], buf, 1, HARNESS_WAIT_NS), 1);

    /* wake: a later wait returns with user NULL, once. */
    plat_poller_wake(p);
    n = poll_wait(p, ev, HARNESS_WAIT_NS);
    bool woken = false;
    for (int i = 0; i < n; i++) woken |= ev[i].user == NULL;
    ck_assert_msg(woken, "plat_poller_wake gave no event with user NULL");
    ck_assert_int_eq(poll_wait(p, ev, 0), 0);

    /* wake from another core during a wait. */
    harness_barrier(); /* B2 */
    t0 = plat_now_ns();
    n = poll_wait(p, ev, HARNESS_WAIT_NS);
    woken = false;
    for (int i = 0; i < n; i++) woken |= ev[i].user == NULL;
    ck_assert_msg(woken, "a concurrent plat_poller_wake did not end the wait");
    ck_assert_uint_lt(plat_now_ns() - t0, sim ? 2 * PT_MS : PT_NATIVE_SLACK_NS);

    /* del: no more events for that stream, its data stays readable. */
    ck_assert_int_eq(plat_poller_del(p, a[1]), PLAT_OK);
    harness_barrier(); /* B3: core 1 sends on a */
    harness_barrier(); /* B4 */
    ck_assert_int_eq(poll_wait(p, ev, 2 * PT_MS), 0);
    got = 0;
    while (got < 10) {
        long r = plat_stream_recv(a[1], buf + got, 10 - got, HARNESS_WAIT_NS);
        ck_assert_int_gt(r, 0);
        got += (size_t)r;
    }
    ck_assert_int_eq(memcmp(buf, "abcdefghij", 10), 0);

    ck_assert_int_eq(plat_poller_del(p, b[0]), PLAT_OK);
    plat_poller_free(p);
    for (int i = 0; i < 2; i++) {
        plat_stream_close(a[i]);
        plat_stream_close(b[i]);
    }
}

void pt_stream(void)
{
    static const struct harness_case cases[] = {
        {.name = "stream_tcp", .core = case_stream_tcp, .cores = 2},
        {.name = "stream_pair", .core = case_stream_pair, .cores = 2},
        {.name = "poller", .core = case_poller, .cores = 2},
    };
    harness_add_cases("plat", cases, HARNESS_COUNT(cases));
}
