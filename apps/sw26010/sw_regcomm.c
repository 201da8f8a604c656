/*
 * sw_regcomm.c -- paper 004, Tables 2-3: register communication against a
 * channel between CPEs, as bandwidth per CPE.
 *
 * Two patterns (x), on every core group at once; a message is one random
 * int (4 bytes of payload):
 *   1x1    one producer CPE at (0,1), one consumer at (1,0). Channel: the
 *          producer sends `messages` ints into a channel in main memory big
 *          enough for all, the consumer takes them, both running at once.
 *          Register: as the paper's Fig. 5 (its single-producer single-
 *          consumer case): in another row and column, so each int goes in
 *          a 256-bit word along the producer's row to the relay (0,0),
 *          which puts it down its column to the consumer.
 *   RxC    the whole array (the paper's Fig. 6 on an 8x8 mesh: 28x28):
 *          column 0 relays, the other columns of the top half produce, of
 *          the bottom half consume. Channel: every producer sends
 *          `messages` into one channel, every consumer takes as many.
 *          Register: every producer sends `messages` words, each to a
 *          random consumer, through its row's relay, down column 0 to the
 *          consumer's row's relay and along that row.
 *          With array_channel "all", the channel instead runs on every
 *          CPE: the top half's (column 0 too) produce, the bottom half's
 *          consume (32x32 on 8x8); the point keeps the register pattern's
 *          name. The paper does not say whether its whole-array channel
 *          used 56 or 64 CPEs.
 * Series: bytes of payload delivered / time from the go to the last
 * delivery / CPEs taking part (the producers and consumers for the
 * channel; with the relays for registers: 3 for 1x1, the whole array for
 * RxC), in GB/s; and the ratio register / channel.
 */
#include "sw_common.h"

#include "ipcsim/plat.h"

#include <stdio.h>
#include <string.h>

enum { CHAN, REG, RATIO, NSERIES };
static const char *const series[NSERIES + 1] = {"channel_GBps_per_cpe", "regcomm_GBps_per_cpe",
                                                "regcomm_over_channel", NULL};
enum { PRODUCER, CONSUMER, RELAY_DOWN, RELAY_ALONG };

struct plan {
    char name[16];
    int nprod, ncons, nrelay, used_reg;
    enum coro_dir cons_from;                  /* the buffer register words reach consumers in */
    int prod[SW_MAX_CPES], cons[SW_MAX_CPES]; /* executor indices */
    int crow[SW_MAX_CPES], ccol[SW_MAX_CPES]; /* consumers' positions */
    int relay[SW_MAX_CPES], relay_role[SW_MAX_CPES];
    long relay_ends[SW_MAX_CPES];
};

struct job {
    const struct plan *p;
    struct sw_race *race;
    coro_chan *ch; /* NULL: register communication */
    int role, i;   /* race slot: producers 0.., consumers nprod.. */
    long n, ends;  /* messages to send; for a relay, END words to pass */
    long got;
    int status;
};

static void producer(struct job *j)
{
    for (long k = 0; k < j->n && !j->status; k++) {
        int v = (int)plat_random();
        if (j->ch) {
            j->status = coro_chan_send(j->ch, &v);
            continue;
        }
        int c = j->p->ncons == 1 ? 0 : (int)(plat_random() % (uint64_t)j->p->ncons);
        coro_word w = {{0, (uint64_t)(unsigned)v, 0, 0}};
        j->status = coro_reg_send(j->p->crow[c], j->p->ccol[c], 0, 0, &w);
    }
    sw_race_finish(j->race, j->i);
    for (int c = 0; !j->ch && c < j->p->ncons && !j->status; c++) {
        coro_word w = {{0}};
        j->status = coro_reg_send(j->p->crow[c], j->p->ccol[c], 0, CORO_REG_END, &w);
    }
}

static void consumer(struct job *j)
{
    uint64_t last = 0;
    if (j->ch) {
        for (long k = 0; k < j->n && !j->status; k++) {
            int v;
            j->status = coro_chan_recv(j->ch, &v);
            j->got++;
        }
        last = plat_now_ns();
    } else {
        for (int ends = 0; ends < j->p->nprod && !j->status;) {
            coro_word w;
            unsigned flags = 0;
            j->status = coro_reg_recv(j->p->cons_from, &w, &flags);
            if (flags & CORO_REG_END) {
                ends++;
                continue;
            }
            j->got++;
            last = plat_now_ns(); /* the END words that follow are not timed */
        }
    }
    plat_store64(&j->race->end_ns[j->i], last);
    plat_fetch_add64(&j->race->done, 1);
}

static void body(void *arg)
{
    struct job *j = arg;
    if (j->role == RELAY_DOWN || j->role == RELAY_ALONG) {
        j->status = coro_reg_relay(j->role == RELAY_DOWN ? CORO_ROW : CORO_COL, j->ends);
        return;
    }
    sw_race_enter(j->race);
    if (j->role == PRODUCER)
        producer(j);
    else
        consumer(j);
}

/* The executors of a pattern: "1x1" or the whole array (all: column 0
 * too produces and consumes, no relays: a channel's plan). -1 if the mesh
 * lacks the positions. */
static int make_plan(const struct sw_cg *cg, bool whole, bool all, struct plan *p)
{
    memset(p, 0, sizeof *p);
    if (!whole) { /* Fig. 5: producer (0,1) -> relay (0,0) -> consumer (1,0) */
        p->prod[0] = sw_exec_at(cg, 0, 1);
        p->cons[0] = sw_exec_at(cg, 1, 0);
        p->relay[0] = sw_exec_at(cg, 0, 0);
        p->crow[0] = 1;
        p->ccol[0] = 0;
        p->cons_from = CORO_COL;
        p->relay_role[0] = RELAY_DOWN;
        p->relay_ends[0] = 1;
        p->nprod = p->ncons = p->nrelay = 1;
        p->used_reg = 3;
        snprintf(p->name, sizeof p->name, "1x1");
        return p->prod[0] < 0 || p->cons[0] < 0 || p->relay[0] < 0 ? -1 : 0;
    }
    p->cons_from = CORO_ROW;
    int half = cg->rows / 2, per_row = cg->cols - 1;
    if (half < 1 || per_row < 1) return -1;
    for (int r = 0; r < cg->rows; r++) {
        for (int c = all ? 0 : 1; c < cg->cols; c++) {
            int e = sw_exec_at(cg, r, c);
            if (e < 0) return -1;
            if (r < half) {
                p->prod[p->nprod++] = e;
            } else {
                p->crow[p->ncons] = r;
                p->ccol[p->ncons] = c;
                p->cons[p->ncons++] = e;
            }
        }
    }
    for (int r = 0; !all && r < cg->rows; r++) {
        int e = sw_exec_at(cg, r, 0);
        if (e < 0) return -1;
        p->relay[p->nrelay] = e;
        /* Top half: ENDs of this row's producers, one for each consumer.
         * Bottom half: every producer's END for this row's consumers. */
        p->relay_role[p->nrelay] = r < half ? RELAY_DOWN : RELAY_ALONG;
        p->relay_ends[p->nrelay++] = r < half ? (long)per_row * p->ncons : (long)p->nprod * per_row;
    }
    p->used_reg = p->nprod + p->ncons + p->nrelay;
    snprintf(p->name, sizeof p->name, "%dx%d", p->nprod, p->ncons);
    return 0;
}

/* Run one pattern over a channel (ch) or the mesh (ch NULL); ns elapsed. */
static uint64_t run_pattern(struct app_ctx *ctx, struct sw_cg *cg, const struct plan *p,
                            coro_chan *ch, long n)
{
    int nj = p->nprod + p->ncons + (ch ? 0 : p->nrelay);
    struct sw_race *race = plat_shared_alloc(sizeof *race, 64);
    struct job *jobs = plat_shared_alloc(sizeof *jobs * (size_t)nj, 64);
    coro *co[3 * SW_MAX_CPES];
    if (!race || !jobs) {
        app_fail(ctx, "sw_regcomm: out of memory");
        return 0;
    }
    int k = 0;
    for (int i = 0; i < p->nprod; i++, k++) {
        jobs[k] = (struct job){p, race, ch, PRODUCER, k, n, 0, 0, 0};
        co[k] = coro_spawn_on(cg->rt, p->prod[i], body, &jobs[k]);
    }
    for (int i = 0; i < p->ncons; i++, k++) {
        /* Over a channel each consumer takes as many as a producer sends. */
        jobs[k] = (struct job){p, race, ch, CONSUMER, k, n, 0, 0, 0};
        co[k] = coro_spawn_on(cg->rt, p->cons[i], body, &jobs[k]);
    }
    for (int i = 0; !ch && i < p->nrelay; i++, k++) {
        jobs[k] = (struct job){p, race, ch, p->relay_role[i], k, 0, p->relay_ends[i], 0, 0};
        co[k] = coro_spawn_on(cg->rt, p->relay[i], body, &jobs[k]);
    }
    uint64_t ns = sw_race_run(race, p->nprod + p->ncons);
    long got = 0;
    for (int i = 0; i < nj; i++) {
        coro_join(co[i]);
        if (jobs[i].status)
            app_fail(ctx, "sw_regcomm: %s over %s: job %d: %s", p->name,
                     ch ? "a channel" : "registers", i, coro_strerror(jobs[i].status));
        got += jobs[i].got;
    }
    if (got != (long)p->nprod * n)
        app_fail(ctx, "sw_regcomm: %s over %s: %ld of %ld messages arrived", p->name,
                 ch ? "a channel" : "registers", got, (long)p->nprod * n);
    plat_shared_free(jobs);
    plat_shared_free(race);
    return ns;
}

static void run_mpe(struct app_ctx *ctx, struct sw_cg *cg)
{
    long n = app_int(ctx, "messages");
    const char *pats = app_str(ctx, "patterns");
    const char *array_ch = app_str(ctx, "array_channel");
    bool all = strcmp(array_ch, "all") == 0;
    if (!all && strcmp(array_ch, "paired") != 0) {
        app_fail(ctx, "sw_regcomm: array_channel is '%s', must be paired or all", array_ch);
        return;
    }
    struct plan p, pc;
    char names[2][16] = {"", ""};
    int np = 0;
    for (int whole = 0; whole < 2; whole++) {
        if (!apps_listed(pats, whole ? "array" : "1x1")) continue;
        if (make_plan(cg, whole, false, &p) || make_plan(cg, whole, whole && all, &pc)) {
            app_fail(ctx, "sw_regcomm: the mesh (%dx%d) has no room for pattern %s", cg->rows,
                     cg->cols, whole ? "array" : "1x1");
            return;
        }
        coro_chan *ch = coro_chan_new(sizeof(int), (size_t)pc.nprod * (size_t)n);
        if (!ch) {
            app_fail(ctx, "sw_regcomm: out of memory for the channel");
            return;
        }
        double bytes = (double)pc.nprod * (double)n * (double)sizeof(int);
        double chan = bytes / (double)run_pattern(ctx, cg, &pc, ch, n) / (pc.nprod + pc.ncons);
        coro_chan_free(ch);
        bytes = (double)p.nprod * (double)n * (double)sizeof(int);
        double reg = bytes / (double)run_pattern(ctx, cg, &p, NULL, n) / p.used_reg;
        sw_publish(cg, np * NSERIES + CHAN, chan);
        sw_publish(cg, np * NSERIES + REG, reg);
        sw_publish(cg, np * NSERIES + RATIO, reg / chan);
        snprintf(names[np++], sizeof names[0], "%s", p.name);
    }
    sw_finished(cg);
    for (int i = 0; i < np; i++) {
        sw_report(ctx, cg, i * NSERIES + CHAN, series[CHAN], names[i], "GB/s");
        sw_report(ctx, cg, i * NSERIES + REG, series[REG], names[i], "GB/s");
        sw_report(ctx, cg, i * NSERIES + RATIO, series[RATIO], names[i], "x");
    }
}

/* messages is within its rule (args[] below): the runner checked. */
static void run(struct app_ctx *ctx)
{
    sw_cg_run(ctx, run_mpe);
}

static const char *const roles[] = {"mpe", NULL};
static const struct app_arg args[] = {
    {"messages", APP_INT, "200", "messages each producer sends", 1, SW_MESSAGES_MAX, 0},
    {"patterns", APP_STR, "1x1,array", "1x1 (one producer, one consumer) and/or array (Fig. 6)", 0,
     0, 0},
    {"array_channel", APP_STR, "paired",
     "the array pattern's channel: paired (the register pattern's producers and consumers, "
     "column 0 idle) or all (every CPE: top half produces, bottom half consumes)",
     0, 0, 0},
    APP_ARGS_END,
};

const struct app app_sw_regcomm = {
    .name = "sw_regcomm",
    .summary = "paper 004 Tables 2-3: register communication vs channel, bandwidth per CPE",
    .roles = roles,
    .args = args,
    .series = series,
    .run = run,
};
