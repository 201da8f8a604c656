/* srio.c -- the Serial RapidIO of platforms/mpc8640_srio.yaml
 * (docs/mpc8640_srio.md): what a packet puts on the wire, bulk rates, the
 * message unit's turnaround, a doorbell's one-way time and the switch's
 * forwarding. Sim only. Every expectation is computed here from the
 * platform file's values (the same arithmetic as the docs, written again),
 * so the cases hold under other values too; each run is a child process
 * (one simulation per process) reporting through a shared page. */
#include "pt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define SETS_MAX 8
/* The bytes a cut-through switch needs before it routes a packet. */
#define SRIO_HEAD(f) num(f, "switch.cut_through_bytes")

/* What one run measured (ns), written by the cores into the shared page. */
struct srio_res {
    double send_ns;   /* core 0: plat_dma_start/send until plat_dma_wait returns */
    double arrive_ns; /* core 1: from core 0's start until the last word changed */
    double bell_ns;   /* core 1: from the ring until plat_doorbell_wait returned */
    double local_ns;  /* core 0: a load of a region word placed with core 0 */
    double remote_ns; /* core 0: a load of a region word placed with core 1 */
};

struct srio_run {
    struct harness_env env;
    const char *sets[SETS_MAX * 2 + 1]; /* key, value, ..., NULL */
    size_t n;                           /* bytes moved */
    int what;                           /* WHAT_* */
    struct srio_res *res;
};

enum { WHAT_DMA, WHAT_MSG, WHAT_BELL, WHAT_HOME };

static struct conf *srio_platform(const char *const *sets)
{
    const char *root = getenv("IPCSIM_ROOT");
    char path[4096], err[1024] = "";
    snprintf(path, sizeof path, "%s/platforms/mpc8640_srio.yaml", root && *root ? root : ".");
    struct conf *c = conf_load(path, err, sizeof err);
    ck_assert_msg(c, "srio: %s", err);
    ck_assert(conf_set(c, "boards", "2", err, sizeof err) == 0);
    for (size_t i = 0; sets && sets[i]; i += 2)
        ck_assert_msg(conf_set(c, sets[i], sets[i + 1], err, sizeof err) == 0,
                      "srio: --set %s=%s: %s", sets[i], sets[i + 1], err);
    return c;
}

/* ---- the model's arithmetic, from the file --------------------------------------- */

static double num(const void *arg, const char *key)
{
    return pt_num(arg, key);
}

/* Bytes on the wire of one packet of type t (its header_bytes key) and payload. */
static double wire(const void *arg, const char *t, double payload)
{
    char key[64];
    snprintf(key, sizeof key, "srio.header_bytes.%s", t);
    double b = num(arg, key) + payload, crc = num(arg, "srio.crc_bytes");
    b += crc + (b > num(arg, "srio.crc_after") ? crc : 0);
    double al = num(arg, "srio.align_bytes");
    b = ceil(b / al) * al;
    return b + num(arg, "srio.delimiter_bytes");
}

/* Payload bytes per ns of one direction: lanes x baud x 8b/10b / 8, less idles. */
static double rate(const void *arg)
{
    double ie = num(arg, "srio.idle_every"), ib = num(arg, "srio.idle_bytes");
    return num(arg, "srio.lanes") * num(arg, "srio.lane_gbaud") * num(arg, "srio.encoding") / 8 *
           ie / (ie + ib);
}

static double ser(const void *arg, double w)
{
    return w / rate(arg);
}

static const char *bulk(const void *arg)
{
    return pt_str(arg, "srio.bulk_write");
}

/* ---- the runs ---------------------------------------------------------------------- */

#define TAG 0x5a5a5a5a5a5a5a5aull

/* A region whose two lines are placed with core 0 and core 1: core 0 times
 * a load of each. */
static void home_core(struct srio_run *r)
{
    uint64_t *w = plat_shared_map("srio.home", 128, NULL, NULL);
    ck_assert_ptr_nonnull(w);
    ck_assert_int_eq(plat_shared_home(w + 8 * plat_core(), 64, plat_core()), PLAT_OK);
    harness_barrier();
    if (plat_core() == 0) {
        uint64_t t0 = plat_now_ns();
        (void)plat_load64(&w[0]);
        uint64_t t1 = plat_now_ns();
        (void)plat_load64(&w[8]);
        uint64_t t2 = plat_now_ns();
        r->res->local_ns = (double)(t1 - t0);
        r->res->remote_ns = (double)(t2 - t1);
    }
    harness_barrier();
    plat_shared_unmap(w);
}

static void srio_core(void *arg)
{
    struct srio_run *r = arg;
    if (r->what == WHAT_HOME) {
        home_core(r);
        return;
    }
    uint64_t *board = harness_board();
    const size_t n = r->n;
    if (plat_core() == 1) {
        uint64_t *dst = plat_shared_alloc(n < 8 ? 8 : n, 64); /* board 1's DDR */
        ck_assert_ptr_nonnull(dst);
        if (r->what == WHAT_MSG) ck_assert_int_eq(plat_rx_post(0, dst, n, 0), PLAT_OK);
        plat_store64(&board[0], pt_u(dst));
        harness_barrier();
        uint64_t *last = dst + (n / 8 - 1), t1;
        if (r->what == WHAT_BELL) {
            ck_assert_uint_eq(plat_doorbell_wait(1, HARNESS_WAIT_NS), 1);
            t1 = plat_now_ns();
        } else {
            ck_assert_int_eq(plat_poll64(last, 0, HARNESS_WAIT_NS), PLAT_OK);
            t1 = plat_now_ns();
        }
        harness_barrier(); /* core 0 has written its start time */
        double d = (double)(t1 - plat_load64(&board[1]));
        if (r->what == WHAT_BELL)
            r->res->bell_ns = d;
        else
            r->res->arrive_ns = d;
        return;
    }
    uint64_t *src = malloc(n < 8 ? 8 : n);
    ck_assert_ptr_nonnull(src);
    memset(src, 0, n);
    src[n / 8 - 1] = TAG;
    harness_barrier();
    void *dst = pt_p(plat_load64(&board[0]));
    plat_dma d;
    uint64_t t0 = plat_now_ns();
    if (r->what == WHAT_BELL) {
        plat_doorbell_ring(1, 1);
    } else {
        if (r->what == WHAT_MSG)
            ck_assert_int_eq(plat_dma_send(&d, 1, 0, src, n), PLAT_OK);
        else
            ck_assert_int_eq(plat_dma_start(&d, dst, src, n, 0, 0, 0), PLAT_OK);
        ck_assert_int_eq(plat_dma_wait(&d, HARNESS_WAIT_NS), PLAT_OK);
        r->res->send_ns = (double)(plat_now_ns() - t0);
    }
    plat_store64(&board[1], t0);
    harness_barrier();
    free(src);
}

static void child(void *p)
{
    struct srio_run *r = p;
    r->env.backend = PLAT_SIM;
    r->env.platform = srio_platform(r->sets);
    harness_run(PLAT_SIM, r->env.platform, srio_core, r);
    conf_free((struct conf *)r->env.platform);
}

/* One run: n bytes (what) with the overrides (key, value pairs, NULL-ended). */
static struct srio_res measure(int what, size_t n, const char *const *sets)
{
    struct srio_run r = {0};
    for (size_t i = 0; sets && sets[i] && i < SETS_MAX * 2; i++) r.sets[i] = sets[i];
    r.n = n;
    r.what = what;
    r.res = harness_page(sizeof *r.res);
    int st = harness_fork(child, &r);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the run of %zu bytes failed", n);
    return *r.res;
}

/* The platform with the overrides, for the arithmetic. */
struct file {
    struct harness_env env;
};
static struct file file_of(const char *const *sets)
{
    struct file f = {.env = {.backend = PLAT_SIM, .platform = srio_platform(sets)}};
    return f;
}
static void file_done(struct file *f)
{
    conf_free((struct conf *)f->env.platform);
}

static void near1(double got, double want, const char *what)
{
    ck_assert_msg(fabs(got / want - 1) < 0.01, "%s: %.4f, the file's arithmetic gives %.4f", what,
                  got, want);
}

/* ---- wire bytes per packet type ---------------------------------------------------- */

/* Bytes per packet on the wire implied by the sender's time for 32 more
 * full packets (the constant parts cancel). */
static double implied_wire(int what, const char *const *sets, size_t n1, size_t n2)
{
    struct file f = file_of(sets);
    double mp = num(&f, "srio.max_payload"), r = rate(&f);
    file_done(&f);
    struct srio_res a = measure(what, n1, sets), b = measure(what, n2, sets);
    return (b.send_ns - a.send_ns) * r / (((double)n2 - (double)n1) / mp);
}

START_TEST(wire_nwrite)
{
    struct file f = file_of(NULL);
    ck_assert_str_eq(bulk(&f), "nwrite");
    double want = wire(&f, "nwrite", num(&f, "srio.max_payload"));
    file_done(&f);
    near1(implied_wire(WHAT_DMA, NULL, 32768, 65536), want, "NWRITE wire bytes per packet");
}
END_TEST

START_TEST(wire_swrite)
{
    const char *sets[] = {"srio.bulk_write", "swrite", NULL};
    struct file f = file_of(sets);
    double want = wire(&f, "swrite", num(&f, "srio.max_payload"));
    file_done(&f);
    near1(implied_wire(WHAT_DMA, sets, 32768, 65536), want, "SWRITE wire bytes per packet");
}
END_TEST

START_TEST(wire_message)
{
    /* Within one message (at most max_bytes) segments go back to back. */
    struct file f = file_of(NULL);
    double want = wire(&f, "message", num(&f, "srio.max_payload"));
    size_t m = (size_t)num(&f, "srio.message.max_bytes");
    file_done(&f);
    near1(implied_wire(WHAT_MSG, NULL, m / 2, m), want, "MESSAGE wire bytes per segment");
}
END_TEST

/* ---- bulk rates -------------------------------------------------------------------- */

#define BULK ((size_t)1 << 20)

static double goodput(const char *const *sets) /* bytes per ns of a 1 MiB DMA */
{
    return (double)BULK / measure(WHAT_DMA, BULK, sets).send_ns;
}

START_TEST(bulk_goodput)
{
    struct file f = file_of(NULL);
    double mp = num(&f, "srio.max_payload");
    double want = rate(&f) * mp / wire(&f, "nwrite", mp);
    file_done(&f);
    near1(goodput(NULL), want, "1 MiB by NWRITE, GB/s");
}
END_TEST

START_TEST(bulk_rate_halved)
{
    const char *a[] = {"srio.lane_gbaud", "2.5", NULL}, *b[] = {"srio.lane_gbaud", "1.25", NULL};
    near1(goodput(a) / goodput(b), 2, "goodput at 2.5 Gbaud / at 1.25 Gbaud");
}
END_TEST

START_TEST(bulk_lanes)
{
    const char *a[] = {"srio.lanes", "4", NULL}, *b[] = {"srio.lanes", "1", NULL};
    near1(goodput(a) / goodput(b), 4, "goodput 4x / 1x");
}
END_TEST

START_TEST(bulk_payload64)
{
    const char *s64[] = {"srio.max_payload", "64", NULL};
    struct file f = file_of(NULL);
    double e256 = 256 / wire(&f, "nwrite", 256), e64 = 64 / wire(&f, "nwrite", 64);
    file_done(&f);
    near1(goodput(s64) / goodput(NULL), e64 / e256, "goodput with 64-B / 256-B payloads");
}
END_TEST

START_TEST(bulk_cut_through)
{
    const char *cut[] = {"switch.mode", "cut_through", NULL};
    near1(goodput(cut) / goodput(NULL), 1, "goodput cut-through / store-and-forward");
}
END_TEST

/* ---- the message unit ---------------------------------------------------------------- */

/* One message of max_bytes: its segments, the last one's way to the other
 * board and into its memory, and the response's way back. */
static double turnaround(const void *f)
{
    double mp = num(f, "srio.max_payload"), m = num(f, "srio.message.max_bytes");
    double segs = ceil(m / mp), w = wire(f, "message", mp), rsp = wire(f, "response", 0);
    double saf = strcmp(pt_str(f, "switch.mode"), "cut_through") != 0;
    double hop = num(f, "switch.latency_ns");
    double mem = num(f, "board.bus_latency_ns") + mp * 1e3 / num(f, "memory.bandwidth_MBps") +
                 num(f, "memory.latency_ns");
    return num(f, "srio.message.setup_ns") + num(f, "srio.tx_ns") + segs * ser(f, w) + hop +
           (saf ? ser(f, w) : ser(f, SRIO_HEAD(f))) + num(f, "srio.rx_ns") + mem + ser(f, rsp) +
           hop + (saf ? ser(f, rsp) : ser(f, SRIO_HEAD(f))) + num(f, "srio.rx_ns");
}

START_TEST(message_turnaround)
{
    struct file f = file_of(NULL);
    size_t m = (size_t)num(&f, "srio.message.max_bytes");
    double want = turnaround(&f);
    file_done(&f);
    struct srio_res a = measure(WHAT_MSG, 8 * m, NULL), b = measure(WHAT_MSG, 16 * m, NULL);
    near1((b.send_ns - a.send_ns) / 8, want, "ns per message of max_bytes");
}
END_TEST

/* ---- a doorbell's one-way time --------------------------------------------------------- */

START_TEST(doorbell_one_way)
{
    struct file f = file_of(NULL);
    double clk = num(&f, "core.clock_mhz") / 1e3; /* cycles per ns */
    double w = wire(&f, "doorbell", 0);
    double want = num(&f, "core.costs.doorbell") / clk + num(&f, "srio.tx_ns") + ser(&f, w) +
                  num(&f, "switch.latency_ns") + ser(&f, w) + 2 * num(&f, "srio.rx_ns") +
                  num(&f, "board.bus_latency_ns") + num(&f, "core.costs.irq") / clk;
    file_done(&f);
    near1(measure(WHAT_BELL, 8, NULL).bell_ns, want, "doorbell one way, ns");
}
END_TEST

/* ---- store-and-forward against cut-through ---------------------------------------------- */

START_TEST(store_and_forward_delay)
{
    /* The slowest link (1x at 1.25 Gbaud) makes the delay large against
     * plat_now_ns's 1-ns steps; each time is rounded once, so 2 ns apart. */
    const char *saf[] = {"srio.lanes", "1", "srio.lane_gbaud", "1.25", NULL};
    const char *cut[] = {"srio.lanes",  "1", "srio.lane_gbaud", "1.25", "switch.mode",
                         "cut_through", NULL};
    struct file f = file_of(saf);
    double d8 = ser(&f, wire(&f, "nwrite", 8)) - ser(&f, SRIO_HEAD(&f));
    double d256 = ser(&f, wire(&f, "nwrite", 256)) - ser(&f, SRIO_HEAD(&f));
    file_done(&f);
    double g8 = measure(WHAT_DMA, 8, saf).arrive_ns - measure(WHAT_DMA, 8, cut).arrive_ns;
    double g256 = measure(WHAT_DMA, 256, saf).arrive_ns - measure(WHAT_DMA, 256, cut).arrive_ns;
    ck_assert_msg(fabs(g8 - d8) <= 2, "8-B packet: store-and-forward is %.1f ns later, not %.2f",
                  g8, d8);
    ck_assert_msg(fabs(g256 - d256) <= 2,
                  "256-B packet: store-and-forward is %.1f ns later, not %.2f", g256, d256);
    ck_assert_msg(g256 > g8, "the delay grows with the packet: %.1f ns at 256 B, %.1f at 8 B", g256,
                  g8);
}
END_TEST

/* ---- where region bytes live (plat_shared_home) ------------------------------------ */

START_TEST(region_home)
{
    struct file f = file_of(NULL);
    double mem = num(&f, "board.bus_latency_ns") + 8 * 1e3 / num(&f, "memory.bandwidth_MBps") +
                 num(&f, "memory.latency_ns");
    double rq = wire(&f, "nread", 0), rsp = wire(&f, "response", 8);
    double hop = num(&f, "switch.latency_ns"), rx = num(&f, "srio.rx_ns");
    double remote = num(&f, "srio.tx_ns") + 2 * ser(&f, rq) + hop + rx + mem + 2 * ser(&f, rsp) +
                    hop + rx; /* store-and-forward both ways */
    file_done(&f);
    struct srio_res m = measure(WHAT_HOME, 8, NULL);
    ck_assert_msg(fabs(m.local_ns - mem) <= 2, "a load placed on its own board: %.0f ns, not %.1f",
                  m.local_ns, mem);
    ck_assert_msg(fabs(m.remote_ns - remote) <= 2,
                  "a load placed on the other board: %.0f ns, not %.1f (NREAD and RESPONSE)",
                  m.remote_ns, remote);
}
END_TEST

void pt_srio(void)
{
    const struct {
        const char *name; /* Check keeps the pointer: a literal */
        const TTest *test;
    } tests[] = {
        {"srio/wire_nwrite", wire_nwrite},
        {"srio/wire_swrite", wire_swrite},
        {"srio/wire_message", wire_message},
        {"srio/bulk_goodput", bulk_goodput},
        {"srio/bulk_rate_halved", bulk_rate_halved},
        {"srio/bulk_lanes", bulk_lanes},
        {"srio/bulk_payload64", bulk_payload64},
        {"srio/bulk_cut_through", bulk_cut_through},
        {"srio/message_turnaround", message_turnaround},
        {"srio/doorbell_one_way", doorbell_one_way},
        {"srio/store_and_forward_delay", store_and_forward_delay},
        {"srio/region_home", region_home},
    };
    Suite *s = harness_suite("srio-sim");
    for (size_t i = 0; i < HARNESS_COUNT(tests); i++)
        tcase_add_test(harness_tcase(s, tests[i].name), tests[i].test);
}
