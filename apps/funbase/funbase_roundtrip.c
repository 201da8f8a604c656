/*
 * funbase_roundtrip.c -- FUNCAPI Table 4 (round trip of N 32-bit words) and
 * Table 5's one-way latency, with MCAPI messages on the DMA transport.
 *
 * Two roles, node0 and node1 (MCAPI nodes 0 and 1), a message endpoint on
 * port 1 each. Every transfer lands in a receive posted in advance: the
 * paper assumes "node_1 is ready to receive data from node_0, and the same
 * when node_0 receives", so msg_recv only polls the DMA status. Before each
 * timed exchange node 0 posts its receive (mcapi_msg_recv_i) and pauses
 * gap_ns, untimed, so that node 1 has posted its own; then it times:
 *
 *   roundtrip  node 0 sends N words; node 1 answers with ONE word (the sum
 *              of the words, which node 0 checks); from node 0's send to
 *              node 0 seeing the answer. The coordinator's reading of
 *              Table 4: 63 + ~1 cycle per word cannot carry N words both
 *              ways over a 32-bit bus (docs/funbase-apps.md).
 *   echo       the same, but node 1 sends all N words back (from the buffer
 *              they arrived in); node 0 checks them. No paper value.
 *   oneway     node 0 timestamps the send of one word (4 bytes), node 1
 *              timestamps the arrival (its wait returning) and sends the
 *              time back, untimed. Both read the same clock: the simulated
 *              time on sim, CLOCK_MONOTONIC natively.
 *
 * Reports, in cycles of node 0's core (ns without a clock), the mean over
 * `reps` after `warmup` untimed ones: roundtrip_cycles and echo_cycles with
 * x = N words, oneway_cycles with x = oneway_x (default "4", the bytes).
 * `measure` picks the measurements (comma-separated); they run in the order
 * roundtrip, echo, oneway.
 */
#include "funbase_common.h"

#include <stdio.h>
#include <string.h>

#define PORT 1
#define WORD 4u

enum mode { ROUNDTRIP, ECHO, ONEWAY, MODES };
static const char *const mode_name[MODES] = {"roundtrip", "echo", "oneway"};

static const char *const roles[] = {"node0", "node1", NULL};

struct params {
    size_t nwords, maxw;
    long reps, warmup, gap_ns;
    const char *measure;
};

struct side {
    struct fb *f;
    const struct params *p;
    mcapi_endpoint_t ep, peer;
    uint32_t *buf; /* node 0: transmit; node 1: receive and echo */
    uint32_t *rx;  /* node 0: answers */
};

static uint32_t pattern(size_t i, long rep, size_t n)
{
    return (uint32_t)(i * 2654435761u + (size_t)rep * 40503u + n * 977u + 1u);
}

/* The argument rules (args[] below) hold: the runner checked them. What
 * they cannot say (measure's names) both sides judge alike; node 0 reports
 * it. */
static bool read_params(struct fb *f, struct params *p)
{
    struct app_ctx *ctx = f->ctx;
    p->nwords = app_list_len(ctx, "words");
    p->reps = app_int(ctx, "reps");
    p->warmup = app_int(ctx, "warmup");
    p->gap_ns = app_int(ctx, "gap_ns");
    p->measure = app_str(ctx, "measure");
    p->maxw = 1;
    const char *bad = NULL;
    for (size_t i = 0; i < p->nwords; i++) {
        size_t n = (size_t)app_list_num(ctx, "words", i);
        if (n > p->maxw) p->maxw = n;
    }
    int any = 0;
    for (int m = 0; m < MODES; m++) any |= apps_listed(p->measure, mode_name[m]);
    if (!any) bad = "measure names none of roundtrip, echo, oneway";
    if (bad && f->node == 0) app_fail(ctx, "funbase_roundtrip: %s", bad);
    return !bad;
}

static bool post(struct side *s, void *buf, size_t n, mcapi_request_t *r)
{
    mcapi_status_t st = MCAPI_SUCCESS;
    mcapi_msg_recv_i(s->ep, buf, n, r, &st);
    return !fb_failed_i(s->f, st, "mcapi_msg_recv_i");
}

static bool msg_to(struct side *s, const void *buf, size_t n)
{
    mcapi_status_t st = MCAPI_SUCCESS;
    mcapi_msg_send(s->ep, s->peer, (void *)buf, n, 0, &st);
    return !fb_failed(s->f, st, "mcapi_msg_send");
}

/* Node 0: one measurement of mode m for n words; false on failure. */
static bool timed(struct side *s, enum mode m, size_t n, size_t si)
{
    const struct params *p = s->p;
    struct fb *f = s->f;
    size_t bytes = m == ONEWAY ? WORD : n * WORD;
    size_t answer = m == ROUNDTRIP ? WORD : m == ECHO ? bytes : sizeof(uint64_t);
    double total = 0;
    for (long rep = 0; rep < p->warmup + p->reps; rep++) {
        uint32_t sum = 0;
        for (size_t i = 0; i < n; i++) sum += s->buf[i] = pattern(i, rep, si);
        memset(s->rx, 0, answer);
        mcapi_request_t r;
        size_t got = 0;
        if (!post(s, s->rx, answer, &r)) return false;
        plat_sleep_ns((uint64_t)p->gap_ns); /* node 1 posts its receive meanwhile */
        uint64_t t0 = plat_now_ns();
        if (!msg_to(s, s->buf, bytes) || !fb_wait(f, &r, &got, "the answer")) return false;
        uint64_t t1 = plat_now_ns();
        if (got != answer) {
            app_fail(f->ctx, "funbase_roundtrip: %s of %zu words: answer of %zu bytes, not %zu",
                     mode_name[m], n, got, answer);
            return false;
        }
        if (m == ROUNDTRIP && s->rx[0] != sum) {
            app_fail(f->ctx, "funbase_roundtrip: %zu words: node 1 summed %#x, not %#x", n,
                     (unsigned)s->rx[0], (unsigned)sum);
            return false;
        }
        for (size_t i = 0; m == ECHO && i < n; i++)
            if (s->rx[i] != s->buf[i]) {
                app_fail(f->ctx, "funbase_roundtrip: echo of %zu words differs at word %zu", n, i);
                return false;
            }
        double dt = (double)(t1 - t0);
        if (m == ONEWAY) {
            uint64_t arrived;
            memcpy(&arrived, s->rx, sizeof arrived);
            if (arrived < t0 || arrived > t1) {
                app_fail(f->ctx, "funbase_roundtrip: node 1's arrival time is outside the send");
                return false;
            }
            dt = (double)(arrived - t0);
        }
        if (rep >= p->warmup) total += dt;
    }
    char x[32];
    if (m == ONEWAY)
        snprintf(x, sizeof x, "%s", app_str(f->ctx, "oneway_x"));
    else
        snprintf(x, sizeof x, "%zu", n);
    char series[32];
    snprintf(series, sizeof series, "%s_cycles", mode_name[m]);
    app_report(f->ctx, series, x, fb_cycles(total / (double)p->reps), fb_cycle_unit());
    return true;
}

/* Node 1: answer every transfer of mode m for n words. Its receive for the
 * first is posted already (*r); it posts the next one after answering,
 * unless `last`. */
static bool answer(struct side *s, enum mode m, size_t n, size_t si, mcapi_request_t *r, bool last)
{
    const struct params *p = s->p;
    struct fb *f = s->f;
    size_t bytes = m == ONEWAY ? WORD : n * WORD;
    for (long rep = 0; rep < p->warmup + p->reps; rep++) {
        size_t got = 0;
        if (!fb_wait(f, r, &got, "node 0's message")) return false;
        uint64_t arrived = plat_now_ns();
        if (got != bytes) {
            app_fail(f->ctx, "funbase_roundtrip: node 1 got %zu bytes, not %zu", got, bytes);
            return false;
        }
        uint32_t sum = 0;
        for (size_t i = 0; i < n; i++) sum += s->buf[i];
        bool ok = m == ROUNDTRIP ? msg_to(s, &sum, WORD)
                  : m == ECHO    ? msg_to(s, s->buf, bytes)
                                 : msg_to(s, &arrived, sizeof arrived);
        if (!ok) return false;
        if (m == ONEWAY && s->buf[0] != pattern(0, rep, si)) {
            app_fail(f->ctx, "funbase_roundtrip: one-way word %#x, not %#x", (unsigned)s->buf[0],
                     (unsigned)pattern(0, rep, si));
            return false;
        }
        bool final = last && rep + 1 == p->warmup + p->reps;
        if (!final && !post(s, s->buf, p->maxw * WORD, r)) return false;
    }
    return true;
}

/* The measurements `measure` names, always in the order roundtrip, echo,
 * oneway (both sides walk the same list). */
static bool walk(struct side *s)
{
    const struct params *p = s->p;
    mcapi_request_t r;
    if (s->f->node == 1 && !post(s, s->buf, p->maxw * WORD, &r)) return false;
    /* The last exchange of the walk: node 1 posts nothing after it. */
    int lastm = -1;
    for (int m = 0; m < MODES; m++)
        if (apps_listed(p->measure, mode_name[m])) lastm = m;
    for (int m = 0; m < MODES; m++) {
        if (!apps_listed(p->measure, mode_name[m])) continue;
        size_t count = m == ONEWAY ? 1 : p->nwords;
        for (size_t i = 0; i < count; i++) {
            size_t n = m == ONEWAY ? 1 : (size_t)app_list_num(s->f->ctx, "words", i);
            bool last = m == lastm && i + 1 == count;
            bool ok = s->f->node == 0 ? timed(s, (enum mode)m, n, i)
                                      : answer(s, (enum mode)m, n, i, &r, last);
            if (!ok) return false;
        }
    }
    return true;
}

static void run(struct app_ctx *ctx)
{
    struct fb f;
    fb_setup(&f, ctx, "funbase_roundtrip", roles);
    if (f.node < 0) return;
    struct params p;
    if (!read_params(&f, &p)) return;
    struct side s = {.f = &f, .p = &p};
    struct fb_buf buf = {0}, rx = {0};
    if (!fb_alloc(&f, &buf, p.maxw * WORD) ||
        (f.node == 0 && !fb_alloc(&f, &rx, p.maxw * WORD + sizeof(uint64_t))))
        goto out;
    s.buf = buf.p;
    s.rx = rx.p;
    if (!fb_start(&f)) goto out;
    s.ep = fb_endpoint(&f, PORT);
    s.peer = s.ep == MCAPI_NULL ? MCAPI_NULL : fb_remote(&f, !f.node, PORT);
    if (s.peer != MCAPI_NULL) (void)walk(&s);
out:
    fb_finish(&f);
    fb_free(&buf);
    fb_free(&rx);
}

static const struct app_arg args[] = {
    {"words", APP_INT_LIST, "[1, 2, 4, 8, 16, 32, 64, 128]",
     "message sizes in 32-bit words (roundtrip and echo)", 1, MCAPI_MAX_MSG_SIZE / WORD, 0},
    {"reps", APP_INT, "100", "timed exchanges per size (the paper: 100)", 1, APPS_REPS_MAX, 0},
    {"warmup", APP_INT, "5", "untimed exchanges per size before the timed ones", 0, APPS_REPS_MAX,
     0},
    /* Up to a simulated second per exchange. */
    {"gap_ns", APP_INT, "5000",
     "untimed pause before each exchange, so node 1 has posted its receive", 0, 1e9, 0},
    {"measure", APP_STR, "roundtrip,echo,oneway", "what to measure (comma-separated)", 0, 0, 0},
    {"oneway_x", APP_STR, "4", "x of the oneway_cycles point", 0, 0, 0},
    APP_ARGS_END,
};

static const char *const series[] = {"roundtrip_cycles", "echo_cycles", "oneway_cycles", NULL};

const struct app app_funbase_roundtrip = {
    .name = "funbase_roundtrip",
    .summary = "FUNCAPI Tables 4 and 5: message round trip (N words, 1-word answer), echo and "
               "one-way latency (DMA transport)",
    .roles = roles,
    .args = args,
    .series = series,
    .run = run,
};
