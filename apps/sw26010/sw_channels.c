/*
 * sw_channels.c -- paper 004, Table 1: time per message of a coroutine
 * channel on the MPE and on the CPEs, against the number of competing
 * producers (consumers).
 *
 * For every x in `contenders`, on every core group at once:
 *   mpe_send_us  x threads on the MPE each send `messages` random ints into
 *                one channel big enough for all of them (nobody blocks);
 *   mpe_recv_us  x threads on the MPE each take `messages` from a full one;
 *   cpe_send_us  the same with x producer coroutines, one on each of x CPE
 *                executors;
 *   cpe_recv_us  x consumer coroutines on x CPEs.
 * The channel lives in the CG's main memory; the MPE synchronises with CAS
 * (Algorithm 2), the CPEs with add-only atomics (Algorithm 3): the library
 * picks by the core's capabilities. cpe_send_rollbacks / cpe_recv_rollbacks:
 * Algorithm 3's rollbacks per message (coro_chan_stats). Everyone starts at one go; the value is
 * the time from the go to the last one's end, divided by all messages (the
 * paper's "total time / messages").
 */
#include "sw_common.h"

#include "ipcsim/plat.h"

#include <stdio.h>

/* The timed series, then the CPE ones' rollbacks per message. */
enum { MPE_SEND, MPE_RECV, CPE_SEND, CPE_RECV, NTIMED };
enum { CPE_SEND_RB = NTIMED, CPE_RECV_RB, NSERIES };
static const char *const series[NSERIES + 1] = {
    "mpe_send_us",        "mpe_recv_us",        "cpe_send_us", "cpe_recv_us",
    "cpe_send_rollbacks", "cpe_recv_rollbacks", NULL};
#define MAX_X 16

struct job {
    coro_chan *ch;
    struct sw_race *race;
    int i, recv;
    long n;
    int status;
};

static void contend(void *arg)
{
    struct job *j = arg;
    sw_race_enter(j->race);
    for (long k = 0; k < j->n && !j->status; k++) {
        int v = (int)plat_random();
        j->status = j->recv ? coro_chan_recv(j->ch, &v) : coro_chan_send(j->ch, &v);
    }
    sw_race_finish(j->race, j->i);
}

/* One measurement: x contenders on the MPE (threads) or on CPEs; the time
 * per message, and in *rollbacks Algorithm 3's rollbacks per message. */
static double measure(struct app_ctx *ctx, struct sw_cg *cg, int which, int x, long n,
                      double *rollbacks)
{
    bool recv = which == MPE_RECV || which == CPE_RECV;
    bool cpe = which == CPE_SEND || which == CPE_RECV;
    coro_chan *ch = coro_chan_new(sizeof(int), (size_t)x * (size_t)n);
    struct sw_race *race = plat_shared_alloc(sizeof *race, 64);
    struct job *jobs = plat_shared_alloc(sizeof *jobs * (size_t)x, 64);
    if (!ch || !race || !jobs) {
        app_fail(ctx, "sw_channels: out of memory for %d x %ld messages", x, n);
        return 0;
    }
    for (long k = 0; recv && k < (long)x * n; k++) {
        int v = (int)k;
        coro_chan_send(ch, &v); /* filled before the go: not timed */
    }
    plat_thread *t[SW_MAX_CPES] = {0};
    coro *co[SW_MAX_CPES] = {0};
    for (int i = 0; i < x; i++) {
        jobs[i] = (struct job){ch, race, i, recv, n, 0};
        if (cpe)
            co[i] = coro_spawn_on(cg->rt, i, contend, &jobs[i]);
        else
            t[i] = plat_thread_spawn(contend, &jobs[i], "contender");
        if (!co[i] && !t[i]) {
            app_fail(ctx, "sw_channels: cannot start contender %d of %d", i + 1, x);
            return 0;
        }
    }
    uint64_t ns = sw_race_run(race, x);
    for (int i = 0; i < x; i++) {
        if (cpe)
            coro_join(co[i]);
        else
            plat_thread_join(t[i]);
        if (jobs[i].status)
            app_fail(ctx, "sw_channels: %s contender %d: %s", series[which], i,
                     coro_strerror(jobs[i].status));
    }
    if (coro_chan_len(ch) != (recv ? 0 : (size_t)x * (size_t)n))
        app_fail(ctx, "sw_channels: %s x=%d: %zu elements left, expected %zu", series[which], x,
                 coro_chan_len(ch), recv ? 0 : (size_t)x * (size_t)n);
    struct coro_chan_stats st;
    coro_chan_stats(ch, &st);
    *rollbacks = (double)st.rollbacks / ((double)x * (double)n);
    coro_chan_free(ch);
    plat_shared_free(jobs);
    plat_shared_free(race);
    return (double)ns / 1000.0 / ((double)x * (double)n);
}

static void run_mpe(struct app_ctx *ctx, struct sw_cg *cg)
{
    size_t nx = app_list_len(ctx, "contenders");
    long n = app_int(ctx, "messages");
    for (size_t xi = 0; xi < nx; xi++) {
        int x = (int)app_list_num(ctx, "contenders", xi);
        for (int s = 0; s < NTIMED; s++) {
            double rb = 0, t = measure(ctx, cg, s, x, n, &rb);
            sw_publish(cg, (int)xi * NSERIES + s, t);
            if (s == CPE_SEND || s == CPE_RECV)
                sw_publish(cg, (int)xi * NSERIES + s + (CPE_SEND_RB - CPE_SEND), rb);
        }
    }
    sw_finished(cg);
    for (size_t xi = 0; xi < nx; xi++) {
        char xs[16];
        snprintf(xs, sizeof xs, "%d", (int)app_list_num(ctx, "contenders", xi));
        for (int s = 0; s < NSERIES; s++)
            sw_report(ctx, cg, (int)xi * NSERIES + s, series[s], xs,
                      s < NTIMED ? "us" : "per message");
    }
}

/* The arguments are within their rules (args[] below): the runner checked. */
static void run(struct app_ctx *ctx)
{
    sw_cg_run(ctx, run_mpe);
}

static const char *const roles[] = {"mpe", NULL};
static const struct app_arg args[] = {
    {"contenders", APP_INT_LIST, "[1, 2, 4, 8, 16, 32]",
     "competing producers (consumers): the x axis", 1, SW_MAX_CPES, MAX_X},
    {"messages", APP_INT, "200", "messages each producer sends (consumer takes)", 1,
     SW_MESSAGES_MAX, 0},
    APP_ARGS_END,
};

const struct app app_sw_channels = {
    .name = "sw_channels",
    .summary = "paper 004 Table 1: channel time per message, MPE vs CPE, against contenders",
    .roles = roles,
    .args = args,
    .series = series,
    .run = run,
};
