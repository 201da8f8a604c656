/* gbe.c -- the tcp stream device of platforms/xmcapi_gbe.yaml (docs/gbe.md):
 * stream.c's cases on it, and the physics of Gigabit Ethernet + TCP. Sim
 * only. Every expectation is computed from the platform file's values, so
 * the cases hold under other values too. */
#include "pt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define NET "devices.net."
#define MiB (1u << 20)
#define ROUNDS 10

/* An override of the platform file: key = value. */
struct gbe_set {
    const char *key, *value;
};

/* What a run's cores see: env first (pt_num, stream.c's cases), then results. */
struct gbe_arg {
    struct harness_env env;
    uint64_t t_ns; /* the measured time */
    uint64_t bytes;
};

/* platforms/xmcapi_gbe.yaml with overrides (terminated by a NULL key). */
static struct conf *gbe_platform(const struct gbe_set *sets)
{
    const char *root = getenv("IPCSIM_ROOT");
    char path[4096], err[1024] = "";
    snprintf(path, sizeof path, "%s/platforms/xmcapi_gbe.yaml", root && *root ? root : ".");
    struct conf *c = conf_load(path, err, sizeof err);
    ck_assert_msg(c, "gbe: %s", err);
    for (size_t i = 0; sets && sets[i].key; i++)
        ck_assert_msg(conf_set(c, sets[i].key, sets[i].value, err, sizeof err) == 0,
                      "gbe: --set %s=%s: %s", sets[i].key, sets[i].value, err);
    return c;
}

/* One sim run of core on every core. a->env keeps the platform for the
 * checks that follow: gbe_done frees it. */
static void gbe_run(const struct gbe_set *sets, void (*core)(void *), struct gbe_arg *a)
{
    a->env.backend = PLAT_SIM;
    a->env.platform = gbe_platform(sets);
    harness_run(PLAT_SIM, a->env.platform, core, a);
}

static void gbe_done(struct gbe_arg *a)
{
    conf_free((struct conf *)a->env.platform);
    a->env.platform = NULL;
}

/* Two hosts of one core each, or one host of two cores. */
#define CROSS                                                                                      \
    {"cores", "2"},                                                                                \
    {                                                                                              \
        NET "cores_per_host", "1"                                                                  \
    }
#define LOCAL                                                                                      \
    {"cores", "2"},                                                                                \
    {                                                                                              \
        NET "cores_per_host", "2"                                                                  \
    }

/* ---- the model's arithmetic, from the file (ns) ---------------------------------- */

static double num(const void *arg, const char *key)
{
    char path[128];
    snprintf(path, sizeof path, NET "%s", key);
    return pt_num(arg, path);
}

static double headers(const void *arg) /* IP + TCP (+ timestamps) */
{
    return num(arg, "tcp.ip_header_bytes") + num(arg, "tcp.tcp_header_bytes") +
           (num(arg, "tcp.timestamps") ? 12 : 0);
}

static double mss(const void *arg)
{
    return num(arg, "eth.mtu") - headers(arg);
}

static double frame(const void *arg, double payload)
{
    double f = num(arg, "eth.header_bytes") + headers(arg) + payload + num(arg, "eth.fcs_bytes");
    return fmax(f, num(arg, "eth.min_frame_bytes"));
}

static double byte_ns(const void *arg)
{
    return 8000.0 / num(arg, "eth.rate_Mbps");
}

/* How long a frame keeps the wire: preamble, frame, gap. */
static double occupancy(const void *arg, double payload)
{
    return (num(arg, "eth.preamble_bytes") + frame(arg, payload) + num(arg, "eth.ifg_bytes")) *
           byte_ns(arg);
}

/* From the frame's start until the receiving host's interrupt. */
static double flight(const void *arg, double payload)
{
    return (num(arg, "eth.preamble_bytes") + frame(arg, payload)) * byte_ns(arg) +
           num(arg, "eth.propagation_ns") + 2 * num(arg, "eth.nic_ns");
}

/* A blocked reader's wake-up and its recv. */
static double wake_recv(const void *arg)
{
    return num(arg, "host.wakeup_ns") + num(arg, "host.recv_ns");
}

/* send() of payload bytes to the other host until a blocked recv returns them. */
static double one_way_wire(const void *arg, double payload)
{
    return num(arg, "host.send_ns") + num(arg, "host.tx_segment_ns") + flight(arg, payload) +
           num(arg, "host.irq_ns") + num(arg, "host.rx_segment_ns") + wake_recv(arg);
}

/* The same inside a host: loopback, no wire and no interrupt. */
static double one_way_loopback(const void *arg)
{
    return num(arg, "host.send_ns") + num(arg, "host.tx_segment_ns") +
           num(arg, "host.rx_segment_ns") + wake_recv(arg);
}

/* ---- connections ------------------------------------------------------------------- */

static void send_all(plat_stream *s, const uint8_t *b, size_t n)
{
    for (size_t done = 0; done < n;) {
        long r = plat_stream_send(s, b + done, n - done, HARNESS_WAIT_NS);
        ck_assert_msg(r > 0, "send at %zu of %zu: %s", done, n, plat_strerror((int)r));
        done += (size_t)r;
    }
}

static void recv_all(plat_stream *s, uint8_t *b, size_t n)
{
    for (size_t done = 0; done < n;) {
        long r = plat_stream_recv(s, b + done, n - done, HARNESS_WAIT_NS);
        ck_assert_msg(r > 0, "recv at %zu of %zu: %ld", done, n, r);
        done += (size_t)r;
    }
}

/* Core 0 accepts, core 1 connects (pair: core 0 makes a pair instead).
 * Returns this core's end. */
static plat_stream *open_conn(bool pair)
{
    uint64_t *board = harness_board();
    int st = 0;
    plat_stream *s = NULL;
    if (pair) {
        if (plat_core() == 0) {
            plat_stream *ends[2];
            ck_assert_int_eq(plat_stream_pair(ends), PLAT_OK);
            s = ends[0];
            plat_store64(&board[0], pt_u(ends[1]));
        }
        harness_barrier();
        return plat_core() == 0 ? s : pt_p(plat_load64(&board[0]));
    }
    char addr[64];
    snprintf(addr, sizeof addr, "hostA:%d", pt_port(0));
    if (plat_core() == 0) {
        plat_stream *l = plat_stream_listen(addr, &st);
        ck_assert_msg(l, "listen: %s", plat_strerror(st));
        harness_barrier();
        s = plat_stream_accept(l, HARNESS_WAIT_NS, &st);
        plat_stream_close(l);
    } else {
        harness_barrier();
        s = plat_stream_connect(addr, HARNESS_WAIT_NS, &st);
    }
    ck_assert_msg(s, "connection: %s", plat_strerror(st));
    harness_barrier();
    return s;
}

/* ---- stream.c's cases on the tcp device ---------------------------------------------- */

static const struct {
    void (*core)(void *);
    struct gbe_set sets[3];
} conformance_cases[] = {
    {case_stream_tcp, {CROSS, {NULL, NULL}}},
    {case_stream_tcp, {LOCAL, {NULL, NULL}}},
    {case_stream_pair, {LOCAL, {NULL, NULL}}},
    {case_poller, {CROSS, {NULL, NULL}}},
};

START_TEST(conformance)
{
    struct gbe_arg a = {0};
    gbe_run(conformance_cases[_i].sets, conformance_cases[_i].core, &a);
    gbe_done(&a);
}
END_TEST

/* ---- (a, b) bulk goodput ---------------------------------------------------------------- */

/* Core 1 sends 1 MiB to core 0 on the other host; t_ns: from the first
 * send to the last byte's recv. */
static void bulk_core(void *arg)
{
    struct gbe_arg *a = arg;
    uint8_t *buf = malloc(MiB);
    ck_assert_ptr_nonnull(buf);
    plat_stream *s = open_conn(false);
    uint64_t *board = harness_board();
    if (plat_core() == 1) {
        pt_fill(buf, MiB, 7);
        plat_store64(&board[1], plat_now_ns());
        send_all(s, buf, MiB);
    } else {
        recv_all(s, buf, MiB);
        a->t_ns = plat_now_ns() - plat_load64(&board[1]);
        a->bytes = MiB;
        ck_assert_uint_eq(pt_bad(buf, MiB, 7), MiB);
    }
    harness_barrier();
    plat_stream_close(s);
    free(buf);
}

/* The wire carries full segments back to back (ACKs go the other way):
 * the first segment's send and stack, one occupancy per full segment, then
 * the last one's flight and receive. */
static double bulk_expected_ns(const void *arg, double n)
{
    double m = mss(arg), full = floor(n / m), last = n - full * m;
    if (last == 0) full--, last = m;
    return num(arg, "host.send_ns") + num(arg, "host.tx_segment_ns") + full * occupancy(arg, m) +
           flight(arg, last) + num(arg, "host.irq_ns") + num(arg, "host.rx_segment_ns") +
           wake_recv(arg);
}

/* Bytes per ns on a saturated link: rate x MSS / (what one segment occupies). */
static double line_goodput(const void *arg)
{
    return mss(arg) / occupancy(arg, mss(arg));
}

static void check_bulk(const struct gbe_arg *a, const char *what)
{
    double got = (double)a->bytes / (double)a->t_ns;
    double want = (double)a->bytes / bulk_expected_ns(a, (double)a->bytes);
    ck_assert_msg(fabs(got / want - 1) < 0.01,
                  "%s: 1 MiB in %llu ns = %.2f MB/s, the model's arithmetic says %.2f MB/s", what,
                  (unsigned long long)a->t_ns, got * 1000, want * 1000);
    ck_assert_msg(fabs(got / line_goodput(a) - 1) < 0.01,
                  "%s: %.2f MB/s, not within 1 %% of the line's %.2f MB/s", what, got * 1000,
                  line_goodput(a) * 1000);
}

START_TEST(bulk_goodput)
{
    struct gbe_arg a = {0};
    gbe_run((const struct gbe_set[]){CROSS, {NULL, NULL}}, bulk_core, &a);
    check_bulk(&a, "bulk");
    gbe_done(&a);
}
END_TEST

struct rate_page {
    uint64_t t_ns[2];
};

struct rate_child {
    struct rate_page *page;
    int run;
    const char *rate;
};

static void rate_child(void *p)
{
    struct rate_child *rc = p;
    struct gbe_arg a = {0};
    const struct gbe_set sets[] = {CROSS, {NET "eth.rate_Mbps", rc->rate}, {NULL, NULL}};
    gbe_run(sets, bulk_core, &a);
    check_bulk(&a, rc->rate);
    rc->page->t_ns[rc->run] = a.t_ns;
    gbe_done(&a);
}

START_TEST(bulk_rate_halved)
{
    struct conf *c = gbe_platform(NULL);
    struct harness_env env = {.backend = PLAT_SIM, .platform = c};
    double rate = pt_num(&env, NET "eth.rate_Mbps");
    conf_free(c);
    char rates[2][32];
    snprintf(rates[0], sizeof rates[0], "%g", rate);
    snprintf(rates[1], sizeof rates[1], "%g", rate / 2);
    struct rate_page *page = harness_page(sizeof *page);
    for (int run = 0; run < 2; run++) {
        struct rate_child rc = {page, run, rates[run]};
        int st = harness_fork(rate_child, &rc);
        ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "run at %s Mb/s failed", rates[run]);
    }
    double ratio = (double)page->t_ns[1] / (double)page->t_ns[0];
    ck_assert_msg(fabs(ratio / 2 - 1) < 0.01,
                  "1 MiB took %llu ns at %s Mb/s and %llu ns at %s Mb/s: x %.3f, not x 2",
                  (unsigned long long)page->t_ns[0], rates[0], (unsigned long long)page->t_ns[1],
                  rates[1], ratio);
}
END_TEST

/* ---- (c, e) ping-pong ---------------------------------------------------------------------- */

/* ROUNDS round trips of 4 bytes from core 1; t_ns: the mean. */
static void pingpong(struct gbe_arg *a, bool pair)
{
    plat_stream *s = open_conn(pair);
    char b[4] = "ping";
    if (plat_core() == 1) {
        uint64_t t0 = plat_now_ns();
        for (int i = 0; i < ROUNDS; i++) {
            send_all(s, (const uint8_t *)b, 4);
            recv_all(s, (uint8_t *)b, 4);
        }
        a->t_ns = (plat_now_ns() - t0) / ROUNDS;
    } else {
        for (int i = 0; i < ROUNDS; i++) {
            recv_all(s, (uint8_t *)b, 4);
            send_all(s, (const uint8_t *)b, 4);
        }
    }
    harness_barrier();
    plat_stream_close(s);
}

static void tcp_pingpong_core(void *arg)
{
    pingpong(arg, false);
}

static void pair_pingpong_core(void *arg)
{
    pingpong(arg, true);
}

/* Measured (whole ns per round) against the model's sum. */
static void check_rt(const struct gbe_arg *a, double want, const char *what)
{
    ck_assert_msg(fabs((double)a->t_ns - want) <= 2, "%s: round trip %llu ns, the sum is %.1f ns",
                  what, (unsigned long long)a->t_ns, want);
}

START_TEST(pingpong_wire)
{
    struct gbe_arg a = {0};
    gbe_run((const struct gbe_set[]){CROSS, {NULL, NULL}}, tcp_pingpong_core, &a);
    check_rt(&a, 2 * one_way_wire(&a, 4), "4 bytes between hosts");
    gbe_done(&a);
}
END_TEST

/* Inside a host nothing crosses the wire: a link 1000 times slower with
 * millisecond NICs changes nothing. */
#define NO_WIRE                                                                                    \
    {NET "eth.rate_Mbps", "1"},                                                                    \
    {                                                                                              \
        NET "eth.nic_ns", "1000000"                                                                \
    }

START_TEST(pingpong_loopback)
{
    struct gbe_arg a = {0};
    gbe_run((const struct gbe_set[]){LOCAL, NO_WIRE, {NULL, NULL}}, tcp_pingpong_core, &a);
    check_rt(&a, 2 * one_way_loopback(&a), "4 bytes over loopback");
    gbe_done(&a);
}
END_TEST

START_TEST(pingpong_pair)
{
    struct gbe_arg a = {0};
    gbe_run((const struct gbe_set[]){LOCAL, NO_WIRE, {NULL, NULL}}, pair_pingpong_core, &a);
    double one =
        num(&a, "host.pipe_write_ns") + num(&a, "host.wakeup_ns") + num(&a, "host.pipe_read_ns");
    check_rt(&a, 2 * one, "4 bytes through plat_stream_pair");
    gbe_done(&a);
}
END_TEST

/* ---- (d) a slow reader stalls the sender at the window ---------------------------------- */

#define SETTLE_NS (200 * PT_MS) /* longer than a delayed ACK */

static void stall_core(void *arg)
{
    struct gbe_arg *a = arg;
    uint64_t *board = harness_board();
    size_t cap = (size_t)(num(a, "tcp.sndbuf_bytes") + num(a, "tcp.rcvbuf_bytes"));
    uint8_t *buf = malloc(cap + 65536);
    ck_assert_ptr_nonnull(buf);
    plat_stream *s = open_conn(false);
    if (plat_core() == 1) {
        pt_fill(buf, cap + 65536, 3);
        size_t sent = 0;
        for (int idle = 0; idle < 2;) {
            long r = plat_stream_send(s, buf + sent, 4096, 0);
            if (r > 0) {
                sent += (size_t)r, idle = 0;
                continue;
            }
            ck_assert_int_eq(r, PLAT_EAGAIN);
            idle++;
            plat_sleep_ns(SETTLE_NS);
        }
        a->bytes = sent;
        harness_barrier(); /* the reader starts */
        uint64_t t0 = plat_now_ns();
        long r = plat_stream_send(s, buf + sent, 4096, HARNESS_WAIT_NS);
        ck_assert_int_gt(r, 0);
        plat_store64(&board[2], plat_now_ns() - t0);
        sent += (size_t)r;
        plat_store64(&board[1], sent);
    } else {
        harness_barrier();
        recv_all(s, buf, cap);
        ck_assert_uint_eq(pt_bad(buf, cap, 3), cap);
    }
    harness_barrier();
    plat_stream_close(s);
    free(buf);
}

START_TEST(slow_reader)
{
    struct gbe_arg a = {0};
    gbe_run((const struct gbe_set[]){CROSS, {NULL, NULL}}, stall_core, &a);
    /* The reader's buffer holds its window, the writer's the rest unacknowledged. */
    double want = num(&a, "tcp.sndbuf_bytes") + num(&a, "tcp.rcvbuf_bytes");
    ck_assert_msg((double)a.bytes == want, "the sender stalled after %llu bytes, not %.0f",
                  (unsigned long long)a.bytes, want);
    gbe_done(&a);
}
END_TEST

void pt_gbe(void)
{
    const struct {
        const char *name; /* Check keeps the pointer: a literal */
        const TTest *test;
    } tests[] = {
        {"gbe/bulk_goodput", bulk_goodput},   {"gbe/bulk_rate_halved", bulk_rate_halved},
        {"gbe/pingpong_wire", pingpong_wire}, {"gbe/pingpong_loopback", pingpong_loopback},
        {"gbe/pingpong_pair", pingpong_pair}, {"gbe/slow_reader", slow_reader},
    };
    Suite *s = harness_suite("gbe-sim");
    /* stream_tcp between hosts, stream_tcp in a host, stream_pair, poller */
    tcase_add_loop_test(harness_tcase(s, "gbe/conformance"), conformance, 0,
                        (int)HARNESS_COUNT(conformance_cases));
    for (size_t i = 0; i < HARNESS_COUNT(tests); i++)
        tcase_add_test(harness_tcase(s, tests[i].name), tests[i].test);
}
