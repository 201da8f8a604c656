/*
 * matmul.c -- app em_matmul: the OpenEM matrix-multiply demo (paper 003,
 * section 2.3.2; docs/em-examples.md, "em_matmul").
 *
 * Z (M x N) = X (M x K) . Y (K x N), fp32. X and Z live in shared memory
 * "msmc", Y in "ddr3" (plat_mem_alloc; plat_shared_alloc where the platform
 * has no memory of that name). Y is cut into N / B column blocks of K x B;
 * each block is the payload of one event on one queue (parallel, or atomic
 * to show that then nothing runs in parallel) of one EO, whose receive
 * computes the M x B block of Z.
 *
 * What takes simulated time, and why so:
 *   - the payload's preload into the core's local memory (em's DMA, when the
 *     queue has EM_QUEUE_FLAG_IPCSIM_PRELOAD), before the receive;
 *   - per row of X, one plat_touch of the whole Y block where it is (local
 *     memory when preloaded, else the event's buffer in "ddr3"): the kernel
 *     sweeps the block (128 KB, four times the C66x's L1D) once per row of
 *     X, so every line of it misses again (the L1D model times each fill;
 *     other platforms one read);
 *   - per row of X, one plat_copy of its K floats from shared memory into a
 *     buffer of the core's local memory: the receive streams X once per event
 *     (the demo keeps X in MSMC and reads it from every core), and a row copy
 *     is what the interconnect model times, at the cost of M copies a
 *     receive instead of M x K timed loads;
 *   - per row, the K x B MACs at kmac cycles per 1000 (plat_work_cycles): the
 *     arithmetic itself is host C and takes no simulated time;
 *   - per row, one plat_copy of the B results into Z.
 * kmac is the app argument sgemm_kmac, or the platform's core.costs.<key>
 * when cost_key is not "none" (plat_cost stops the run if the platform file
 * lacks the key, so the app cannot probe for it: apps/hpl does the same).
 *
 * Every EM core records each receive's start and end (plat_now_ns, inside
 * the receive: the preload before it counts as dispatcher time). After the
 * run core 0 alone computes every block again, timed the same way (solo_ns:
 * the single-core workload, which paper 003's 190,574,214 cycles are),
 * checks Z against a host multiply in double precision (relative Frobenius
 * error) and reports the series in `series` below, x = the EM cores:
 * utilisation_pct = solo_ns / (makespan x cores) as the paper defines it,
 * receive_pct the receives' share of that core time (100 - dispatcher_pct),
 * slowdown_pct how much longer the receives took in the run than alone,
 * gap_ns the median time a core spent between two receives, and
 * preload_window_ns the time from the first em_send until the last core to
 * receive began its first receive.
 */
#include "../apps.h"
#include "../../em/examples/launch.h"

#include <event_machine.h>

#include "ipcsim/plat.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REGION "em_matmul"
#define MAX_EVENTS 1024
#define MAX_B 256

/* One receive's interval, for the statistics and a run chart. */
struct interval {
    uint64_t start, end; /* plat_now_ns at receive entry and return */
    int32_t core;        /* plat core */
    int32_t done;        /* 1 once recorded */
};

/* The event payload: the block's index, then its K x B floats (row-major). */
struct block_hdr {
    uint32_t block;
    uint32_t pad[15]; /* keeps the floats 64-byte aligned */
    float y[];
};

struct mm_shared {
    /* written by core 0 before launch_core, read in receives */
    int m, k, n, b, events;
    int atomic, preload;
    uint64_t kmac;   /* cycles per 1000 MACs */
    uint64_t t_sent; /* plat_now_ns before the first em_send */
    float *x, *y, *z;
    char x_mem[16], y_mem[16]; /* where they went: "msmc", "shared", ... */
    int setup_failed;
    em_pool_t pool;
    em_eo_t eo;
    em_queue_t queue;
    uint64_t done; /* receives finished (plat_fetch_add64) */
    uint64_t bad;  /* a receive saw a wrong block index */
    /* per plat core: its X row buffer (local memory, or malloc: rowbuf_heap) */
    float *rowbuf[EM_MAX_CORES + 1];
    int rowbuf_heap[EM_MAX_CORES + 1];
    struct interval iv[MAX_EVENTS];
};

static struct mm_shared *region(int *status)
{
    return plat_shared_map(REGION, sizeof(struct mm_shared), NULL, status);
}

/* ---- inputs ------------------------------------------------------------- */

/* Small exact values (multiples of 1/128 in [-1, 1)) from a seeded LCG, so
 * every run and both backends multiply the same matrices. */
static void fill(float *a, size_t n, uint64_t seed)
{
    uint64_t s = seed * 6364136223846793005ull + 1442695040888963407ull;
    for (size_t i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        a[i] = (float)((int)((s >> 33) % 256u) - 128) / 128.0f;
    }
}

/* Memory `name` if the platform has it, else the default shared memory. */
static void *mem_alloc(const char *name, size_t size, char *where, size_t wlen)
{
    int st = 0;
    void *p = plat_mem_alloc(name, size, 64, &st);
    if (p) {
        snprintf(where, wlen, "%s", name);
        return p;
    }
    if (st != PLAT_ENOENT) return NULL;
    snprintf(where, wlen, "shared");
    return plat_shared_alloc(size, 64);
}

/* ---- the EO ------------------------------------------------------------- */

/* The calling core's buffer for an X row. */
static float *row_buffer(struct mm_shared *sh)
{
    int c = plat_core();
    if (!sh->rowbuf[c]) {
        size_t n = (size_t)sh->k * sizeof(float);
        sh->rowbuf[c] = plat_local_alloc(n, 64);
        if (!sh->rowbuf[c]) {
            /* no local memory (or full): the buffer lives in private memory */
            sh->rowbuf[c] = malloc(n);
            sh->rowbuf_heap[c] = 1;
        }
    }
    return sh->rowbuf[c];
}

/* Z's block blk from the Y block at yb (K x B, row-major), one row of X at
 * a time through row (the core's X row buffer). */
static void block(struct mm_shared *sh, const float *yb, uint32_t blk, float *row)
{
    const int k = sh->k, b = sh->b;
    const size_t ybytes = (size_t)k * (size_t)b * sizeof(float);
    const uint64_t row_cycles = (uint64_t)k * (uint64_t)b * sh->kmac / 1000;
    for (int i = 0; i < sh->m; i++) {
        float *z = sh->z + (size_t)i * (size_t)sh->n + (size_t)blk * (size_t)b;
        plat_copy(row, sh->x + (size_t)i * (size_t)k, (size_t)k * sizeof(float));
        plat_touch(yb, ybytes);
        float acc[MAX_B] = {0};
        for (int kk = 0; kk < k; kk++) {
            const float xv = row[kk];
            const float *yr = yb + (size_t)kk * (size_t)b;
            for (int j = 0; j < b; j++) acc[j] += xv * yr[j];
        }
        plat_work_cycles(row_cycles);
        plat_copy(z, acc, (size_t)b * sizeof(float));
    }
}

static void receive(void *ctx, em_event_t event, em_event_type_t type, em_queue_t queue,
                    void *q_ctx)
{
    (void)type;
    (void)queue;
    (void)q_ctx;
    struct mm_shared *sh = ctx;
    plat_mark(1); /* the run chart's '-', in the VCD trace */
    uint64_t t0 = plat_now_ns();
    const struct block_hdr *h = em_event_pointer(event);
    const float *yb = h->y;
    uint32_t blk = h->block;
    float *row = row_buffer(sh);
    if (blk >= (uint32_t)sh->events || !row) {
        plat_fetch_add64(&sh->bad, 1);
        em_free(event);
        plat_mark(0);
        launch_stop(1);
        return;
    }
    block(sh, yb, blk, row);
    em_free(event);
    uint64_t t1 = plat_now_ns();
    sh->iv[blk] = (struct interval){t0, t1, plat_core(), 1};
    plat_mark(0);
    if (plat_fetch_add64(&sh->done, 1) + 1 == (uint64_t)sh->events) launch_stop(0);
}

static em_status_t eo_start(void *ctx, em_eo_t eo, const em_eo_conf_t *conf)
{
    (void)ctx;
    (void)eo;
    (void)conf;
    return EM_OK;
}

static em_status_t eo_stop(void *ctx, em_eo_t eo)
{
    (void)ctx;
    return em_eo_remove_queue_all_sync(eo, 1);
}

/* Y's column block e into dst (K x B, row-major): a host copy, untimed. */
static void gather(const struct mm_shared *sh, int e, float *dst)
{
    for (int kk = 0; kk < sh->k; kk++)
        memcpy(dst + (size_t)kk * (size_t)sh->b,
               sh->y + (size_t)kk * (size_t)sh->n + (size_t)e * (size_t)sh->b,
               (size_t)sh->b * sizeof(float));
}

/* Core 0 after the run, alone: every block's receive again, timed, with the
 * block where a receive reads it (local memory when preloaded, else "ddr3").
 * The sum is the single-core workload: what the events take on one core,
 * which paper 003's 190,574,214 cycles are. Z is rewritten with the same
 * values. 0, or -1 when a buffer cannot be had. */
static int solo(struct mm_shared *sh, uint64_t *total)
{
    const size_t ybytes = (size_t)sh->k * (size_t)sh->b * sizeof(float);
    char where[16];
    float *row = row_buffer(sh);
    float *buf =
        sh->preload ? plat_local_alloc(ybytes, 64) : mem_alloc("ddr3", ybytes, where, sizeof where);
    if (!buf) return -1;
    uint64_t sum = 0;
    for (int e = 0; row && e < sh->events; e++) { /* row: NULL only if malloc failed */
        gather(sh, e, buf);
        uint64_t t0 = plat_now_ns();
        block(sh, buf, (uint32_t)e, row);
        sum += plat_now_ns() - t0;
    }
    if (sh->preload)
        plat_local_free(buf);
    else
        plat_shared_free(buf);
    *total = sum;
    return row ? 0 : -1;
}

/* Core 0, once every core is an EM core: pool, queue, EO, then the events. */
static void mm_start(const struct launch_conf *conf)
{
    (void)conf;
    struct mm_shared *sh = region(NULL);
    if (!sh) {
        printf("em_matmul: error: plat_shared_map(\"%s\") in start\n", REGION);
        launch_stop(1);
        return;
    }
    if (sh->setup_failed) {
        plat_shared_unmap(sh);
        launch_stop(1);
        return;
    }
    const size_t bytes = sizeof(struct block_hdr) + (size_t)sh->k * (size_t)sh->b * sizeof(float);
    em_pool_cfg_t pc;
    em_pool_cfg_init(&pc);
    pc.event_type = EM_EVENT_TYPE_SW;
    pc.num_subpools = 1;
    pc.subpool[0].size = (uint32_t)bytes;
    pc.subpool[0].num = (uint32_t)sh->events;
    sh->pool = em_pool_create("matmul_y", EM_POOL_UNDEF, &pc);
    em_queue_conf_t qc = {.flags = sh->preload ? EM_QUEUE_FLAG_IPCSIM_PRELOAD : 0,
                          .min_events = (unsigned)sh->events};
    sh->queue =
        em_queue_create("matmul", sh->atomic ? EM_QUEUE_TYPE_ATOMIC : EM_QUEUE_TYPE_PARALLEL,
                        EM_QUEUE_PRIO_NORMAL, EM_QUEUE_GROUP_DEFAULT, &qc);
    sh->eo = em_eo_create("matmul", eo_start, NULL, eo_stop, NULL, receive, sh);
    em_status_t s = EM_ERR, r = EM_OK;
    if (sh->pool != EM_POOL_UNDEF && sh->queue != EM_QUEUE_UNDEF && sh->eo != EM_EO_UNDEF)
        s = em_eo_add_queue_sync(sh->eo, sh->queue);
    if (s == EM_OK) s = em_eo_start_sync(sh->eo, &r, NULL);
    if (s != EM_OK || r != EM_OK) {
        printf("em_matmul: error: pool %s, queue %s, EO %s, start 0x%x (EO start 0x%x)\n",
               sh->pool == EM_POOL_UNDEF ? "failed" : "ok",
               sh->queue == EM_QUEUE_UNDEF ? "failed" : "ok",
               sh->eo == EM_EO_UNDEF ? "failed" : "ok", s, r);
        plat_shared_unmap(sh);
        launch_stop(1);
        return;
    }
    /* Cut Y into its column blocks (host copies: setup, no simulated time),
     * each sent as soon as it is filled. */
    sh->t_sent = plat_now_ns();
    for (int e = 0; e < sh->events; e++) {
        em_event_t ev = em_alloc((uint32_t)bytes, EM_EVENT_TYPE_SW, sh->pool);
        if (ev == EM_EVENT_UNDEF) {
            printf("em_matmul: error: em_alloc(%zu) for block %d of %d\n", bytes, e, sh->events);
            launch_stop(1);
            break;
        }
        struct block_hdr *h = em_event_pointer(ev);
        h->block = (uint32_t)e;
        gather(sh, e, h->y);
        s = em_send(ev, sh->queue);
        if (s != EM_OK) {
            printf("em_matmul: error: em_send of block %d: 0x%x\n", e, s);
            em_free(ev);
            launch_stop(1);
            break;
        }
    }
    plat_shared_unmap(sh);
}

static void mm_stop(const struct launch_conf *conf)
{
    (void)conf;
    struct mm_shared *sh = region(NULL);
    if (!sh) return;
    em_status_t s = EM_OK;
    if (sh->eo != EM_EO_UNDEF) {
        s = em_eo_stop_sync(sh->eo);
        if (s == EM_OK) s = em_eo_delete(sh->eo);
    }
    if (s == EM_OK && sh->pool != EM_POOL_UNDEF) s = em_pool_delete(sh->pool);
    if (s != EM_OK) {
        printf("em_matmul: error: em_eo_stop_sync / em_eo_delete / em_pool_delete: 0x%x\n", s);
        launch_stop(1);
    }
    plat_shared_unmap(sh);
}

static const struct launch_prog prog = {
    "em_matmul", "Z = X . Y by column blocks of Y, one event each", NULL, mm_start, mm_stop, NULL,
};

/* ---- after the run: check and report ------------------------------------ */

/* ||Z - X.Y||_F / ||X.Y||_F, X.Y in double on the host. */
static double rel_error(const struct mm_shared *sh)
{
    const int m = sh->m, k = sh->k, n = sh->n;
    double *ref = calloc((size_t)n, sizeof(double));
    if (!ref) return INFINITY;
    double num = 0, den = 0;
    for (int i = 0; i < m; i++) {
        memset(ref, 0, (size_t)n * sizeof(double));
        for (int kk = 0; kk < k; kk++) {
            const double xv = sh->x[(size_t)i * (size_t)k + (size_t)kk];
            const float *yr = sh->y + (size_t)kk * (size_t)n;
            for (int j = 0; j < n; j++) ref[j] += xv * yr[j];
        }
        for (int j = 0; j < n; j++) {
            const double d = sh->z[(size_t)i * (size_t)n + (size_t)j] - ref[j];
            num += d * d;
            den += ref[j] * ref[j];
        }
    }
    free(ref);
    return den > 0 ? sqrt(num / den) : sqrt(num);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Core r's receive starting soonest at or after `at`: its block, or -1. */
static int next_receive(const struct mm_shared *sh, int r, uint64_t at)
{
    int next = -1;
    for (int e = 0; e < sh->events; e++)
        if (sh->iv[e].core == r && sh->iv[e].start >= at &&
            (next < 0 || sh->iv[e].start < sh->iv[next].start))
            next = e;
    return next;
}

/* The run chart (paper 003's): per EM core, '-' while a receive runs and '#'
 * for the rest of the span from the first receive's start to the last one's
 * end, so the chart's '#' share is dispatcher_pct. With intervals: 1 also
 * one line per receive on stdout ("em_matmul: interval E core C start S end
 * T"), in the order of the blocks. */
static void chart_intervals(struct app_ctx *ctx, const struct mm_shared *sh, int cores,
                            uint64_t first, uint64_t last)
{
    for (int r = 0; r < cores; r++) {
        uint64_t at = first;
        for (int next; (next = next_receive(sh, r, at)) >= 0;) {
            app_interval(ctx, "run", r, '#', at, sh->iv[next].start);
            app_interval(ctx, "run", r, '-', sh->iv[next].start, sh->iv[next].end);
            at = sh->iv[next].end;
        }
        app_interval(ctx, "run", r, '#', at, last);
    }
    if (!app_int(ctx, "intervals")) return;
    for (int e = 0; e < sh->events; e++)
        printf("em_matmul: interval %d core %d start %llu end %llu\n", e, (int)sh->iv[e].core,
               (unsigned long long)sh->iv[e].start, (unsigned long long)sh->iv[e].end);
}

/* Per EM core, the gaps between the end of one of its receives and the
 * start of its next: the dispatcher's time per event (schedule, and the
 * preload when it was not done while the core computed). The median, or 0
 * when no core received twice. */
static double median_gap(const struct mm_shared *sh, int cores)
{
    uint64_t *g = calloc((size_t)sh->events, sizeof *g);
    size_t n = 0;
    if (!g) return 0;
    for (int r = 0; r < cores; r++) {
        uint64_t at = 0;
        int have = 0;
        for (int next; (next = next_receive(sh, r, at)) >= 0;) {
            if (have) g[n++] = sh->iv[next].start - at;
            at = sh->iv[next].end;
            have = 1;
        }
    }
    qsort(g, n, sizeof g[0], cmp_u64);
    double m = n == 0 ? 0 : n % 2 ? (double)g[n / 2] : ((double)g[n / 2 - 1] + g[n / 2]) / 2;
    free(g);
    return m;
}

static void report(struct app_ctx *ctx, const struct mm_shared *sh, int cores, uint64_t solo_ns)
{
    char x[16];
    snprintf(x, sizeof x, "%d", cores);
    uint64_t first = UINT64_MAX, last = 0, busy = 0;
    uint64_t *t = calloc((size_t)sh->events, sizeof *t);
    if (!t) {
        app_fail(ctx, "em_matmul: out of host memory for %d intervals", sh->events);
        return;
    }
    int used[EM_MAX_CORES + 1] = {0}, nused = 0;
    uint64_t first_at[EM_MAX_CORES + 1] = {0}; /* each core's first receive start */
    for (int e = 0; e < sh->events; e++) {
        const struct interval *v = &sh->iv[e];
        if (!v->done) {
            app_fail(ctx, "em_matmul: block %d of %d was never received", e, sh->events);
            free(t);
            return;
        }
        if (v->start < first) first = v->start;
        if (v->end > last) last = v->end;
        t[e] = v->end - v->start;
        busy += t[e];
        if (v->core >= 0 && v->core <= EM_MAX_CORES && !used[v->core]++) nused++;
        if (v->core >= 0 && v->core <= EM_MAX_CORES &&
            (!first_at[v->core] || v->start < first_at[v->core]))
            first_at[v->core] = v->start;
    }
    qsort(t, (size_t)sh->events, sizeof t[0], cmp_u64);
    const double median = sh->events % 2 ? (double)t[sh->events / 2]
                                         : ((double)t[sh->events / 2 - 1] + t[sh->events / 2]) / 2;
    free(t);
    const double span = (double)(last - first);
    const double total = span * cores; /* core time between first start and last end */
    const double err = rel_error(sh);
    app_report(ctx, "rel_error", x, err, "");
    app_report(ctx, "events", x, sh->events, "events");
    app_report(ctx, "cores_used", x, nused, "cores");
    app_report(ctx, "makespan_ns", x, span, "ns");
    app_report(ctx, "receive_ns", x, median, "ns");
    app_report(ctx, "solo_ns", x, (double)solo_ns, "ns");
    app_report(ctx, "gap_ns", x, median_gap(sh, cores), "ns");
    uint64_t window = 0; /* until the last core that received began its first receive */
    for (int r = 0; r <= EM_MAX_CORES; r++)
        if (first_at[r] > sh->t_sent && first_at[r] - sh->t_sent > window)
            window = first_at[r] - sh->t_sent;
    app_report(ctx, "preload_window_ns", x, (double)window, "ns");
    if (total > 0) {
        app_report(ctx, "dispatcher_pct", x, 100.0 * (total - (double)busy) / total, "%");
        app_report(ctx, "receive_pct", x, 100.0 * (double)busy / total, "%");
        app_report(ctx, "utilisation_pct", x, 100.0 * (double)solo_ns / total, "%");
        app_report(ctx, "parallelism", x, (double)busy / span, "");
    }
    if (solo_ns > 0)
        app_report(ctx, "slowdown_pct", x, 100.0 * ((double)busy / (double)solo_ns - 1), "%");
    printf("em_matmul: %d x %d x %d, %d blocks of %d columns, %s queue, preload %s, %s; "
           "X, Z in %s, Y in %s; %d EM cores (%d used), makespan %.0f ns, median receive "
           "%.0f ns, rel error %.3g\n",
           sh->m, sh->k, sh->n, sh->events, sh->b, sh->atomic ? "atomic" : "parallel",
           sh->preload ? "on" : "off", app_int(ctx, "sched_core") ? "scheduler core" : "inline",
           sh->x_mem, sh->y_mem, cores, nused, span, median, err);
    if (err > 1e-4) app_fail(ctx, "em_matmul: Z is wrong: relative error %.3g > 1e-4", err);
    chart_intervals(ctx, sh, cores, first, last);
}

/* ---- the app ------------------------------------------------------------ */

/* Core 0 before launch: sizes, matrices, cost. 0 or -1 (after app_fail). */
static int setup(struct app_ctx *ctx, struct mm_shared *sh)
{
    sh->m = (int)app_int(ctx, "m");
    sh->k = (int)app_int(ctx, "k");
    sh->n = (int)app_int(ctx, "n");
    sh->b = (int)app_int(ctx, "block");
    sh->atomic = strcmp(app_str(ctx, "queue"), "atomic") == 0;
    sh->preload = (int)app_int(ctx, "preload");
    if (!sh->atomic && strcmp(app_str(ctx, "queue"), "parallel") != 0) {
        app_fail(ctx, "em_matmul: queue: '%s' (parallel or atomic)", app_str(ctx, "queue"));
        return -1;
    }
    if (sh->n % sh->b) {
        app_fail(ctx, "em_matmul: n %d is not a multiple of block %d", sh->n, sh->b);
        return -1;
    }
    if (sh->n / sh->b > MAX_EVENTS) {
        app_fail(ctx, "em_matmul: n %d / block %d gives %d blocks (at most %d)", sh->n, sh->b,
                 sh->n / sh->b, MAX_EVENTS);
        return -1;
    }
    sh->events = sh->n / sh->b;
    const char *key = app_str(ctx, "cost_key");
    sh->kmac = strcmp(key, "none") != 0 ? plat_cost(key) : (uint64_t)app_int(ctx, "sgemm_kmac");
    const size_t xs = (size_t)sh->m * (size_t)sh->k, ys = (size_t)sh->k * (size_t)sh->n;
    sh->x = mem_alloc("msmc", xs * sizeof(float), sh->x_mem, sizeof sh->x_mem);
    sh->z = mem_alloc("msmc", (size_t)sh->m * (size_t)sh->n * sizeof(float), sh->x_mem,
                      sizeof sh->x_mem);
    sh->y = mem_alloc("ddr3", ys * sizeof(float), sh->y_mem, sizeof sh->y_mem);
    if (!sh->x || !sh->y || !sh->z) {
        app_fail(ctx,
                 "em_matmul: plat_mem_alloc / plat_shared_alloc of X (%zu B), Y (%zu B) or Z "
                 "failed: shared memory too small",
                 xs * sizeof(float), ys * sizeof(float));
        return -1;
    }
    fill(sh->x, xs, 1);
    fill(sh->y, ys, 2);
    return 0;
}

static void run(struct app_ctx *ctx)
{
    const int sc = (int)app_int(ctx, "sched_core");
    int cores = (int)app_int(ctx, "cores");
    if (cores == 0) cores = plat_cores() - sc;
    const int me = plat_core();
    if (cores < 1 || cores + sc > plat_cores() || cores > EM_MAX_CORES) {
        if (me == 0)
            app_fail(ctx,
                     "em_matmul: cores %d (+ sched_core %d) does not fit the platform's %d "
                     "cores (EM takes 1..%d)",
                     cores, sc, plat_cores(), EM_MAX_CORES);
        return;
    }
    const int sched = sc ? plat_cores() - 1 : -1;
    if (me >= cores && me != sched) return; /* not in this run */
    int st = 0;
    struct mm_shared *sh = region(&st);
    if (!sh) {
        app_fail(ctx, "em_matmul: core %d: plat_shared_map(\"%s\", %zu): %s", me, REGION,
                 sizeof *sh, plat_strerror(st));
        return;
    }
    if (me == 0 && setup(ctx, sh) != 0) sh->setup_failed = 1;
    /* only the first core's (em_init's) matters; setup has run there */
    uint32_t pre =
        me == 0 && sc && sh->preload && app_int(ctx, "sched_preload")
            ? (uint32_t)(sizeof(struct block_hdr) + (size_t)sh->k * (size_t)sh->b * sizeof(float))
            : 0;
    const struct launch_conf conf = {.cores = cores,
                                     .sched_core = sc != 0,
                                     .preload_bytes = pre,
                                     .sched_on_demand = sc && app_int(ctx, "sched_demand")};
    const int rc = me == sched ? launch_sched(&conf) : launch_core(&prog, &conf, me == 0);
    if (me == 0) {
        if (rc != 0 && !sh->setup_failed)
            app_fail(ctx, "em_matmul: the EM run failed (status %d, %llu bad events)", rc,
                     (unsigned long long)plat_load64(&sh->bad));
        else if (rc == 0) {
            uint64_t alone = 0;
            if (solo(sh, &alone) != 0)
                app_fail(ctx,
                         "em_matmul: no buffer of %zu bytes for the single-core rerun "
                         "(local memory of core 0, or \"ddr3\")",
                         (size_t)sh->k * (size_t)sh->b * sizeof(float));
            else
                report(ctx, sh, cores, alone);
        }
        if (sh->x) plat_shared_free(sh->x);
        if (sh->y) plat_shared_free(sh->y);
        if (sh->z) plat_shared_free(sh->z);
    } else if (rc != 0 && !sh->setup_failed) { /* core 0 said why */
        app_fail(ctx, "em_matmul: core %d: launch_%s returned %d", me,
                 me == sched ? "sched" : "core", rc);
    }
    if (sh->rowbuf[me]) {
        if (sh->rowbuf_heap[me])
            free(sh->rowbuf[me]);
        else
            plat_local_free(sh->rowbuf[me]);
    }
    plat_shared_unmap(sh);
}

static const char *const roles[] = {"core0", NULL};
static const char *const series[] = {
    "rel_error",      "events",      "cores_used",      "makespan_ns",
    "receive_ns",     "solo_ns",     "gap_ns",          "preload_window_ns",
    "dispatcher_pct", "receive_pct", "utilisation_pct", "parallelism",
    "slowdown_pct",   NULL};
static const struct app_arg args[] = {
    {.name = "cores",
     .type = APP_INT,
     .dflt = "0",
     .help = "EM cores (platform cores 0..cores-1); 0: every platform core but the scheduler core",
     .min = 0,
     .max = EM_MAX_CORES},
    {.name = "sched_core",
     .type = APP_INT,
     .dflt = "0",
     .help = "1: the last platform core runs em_ipcsim_sched_run (EM_IPCSIM_SCHED_CORE); "
             "0: every EM core schedules inline",
     .min = 0,
     .max = 1},
    {.name = "sched_preload",
     .type = APP_INT,
     .dflt = "0",
     .help = "with sched_core 1 and preload 1: 1 = the scheduler core preloads each block "
             "into the receiving core's local memory before the hand-over "
             "(em_conf_t.ipcsim.preload_bytes = the payload; sched_depth + 1 = 2 blocks per "
             "core must fit its local memory); 0 = the dispatcher preloads after the pop",
     .min = 0,
     .max = 1},
    {.name = "sched_demand",
     .type = APP_INT,
     .dflt = "0",
     .help = "with sched_core 1: 1 = the scheduler assigns a core its next event only once the "
             "core's dispatcher has found nothing to run (em_conf_t.ipcsim.sched_on_demand); "
             "0 = it keeps one event waiting per core",
     .min = 0,
     .max = 1},
    {.name = "queue",
     .type = APP_STR,
     .dflt = "parallel",
     .help = "parallel, or atomic (every event on one atomic queue: no two receives at once)"},
    {.name = "preload",
     .type = APP_INT,
     .dflt = "1",
     .help = "1: the queue has EM_QUEUE_FLAG_IPCSIM_PRELOAD (Y block DMA'd into local memory)",
     .min = 0,
     .max = 1},
    {.name = "m", .type = APP_INT, .dflt = "100", .help = "rows of X and Z", .min = 1, .max = 1024},
    {.name = "k",
     .type = APP_INT,
     .dflt = "2048",
     .help = "columns of X, rows of Y",
     .min = 1,
     .max = 4096},
    {.name = "n",
     .type = APP_INT,
     .dflt = "2048",
     .help = "columns of Y and Z",
     .min = 1,
     .max = 4096},
    {.name = "block",
     .type = APP_INT,
     .dflt = "16",
     .help = "columns of Y per event (n / block events, at most 1024)",
     .min = 1,
     .max = MAX_B},
    {.name = "sgemm_kmac",
     .type = APP_INT,
     .dflt = "1000",
     .help = "cycles per 1000 fp32 MACs when cost_key is none (nominal: 1 MAC per cycle)",
     .min = 0,
     .max = 1000000},
    {.name = "cost_key",
     .type = APP_STR,
     .dflt = "none",
     .help = "a core.costs key of the platform (e.g. sgemm_kmac) to take the MAC cost from "
             "instead of sgemm_kmac (none: use sgemm_kmac); the run stops if the platform "
             "file lacks it"},
    {.name = "intervals",
     .type = APP_INT,
     .dflt = "0",
     .help = "1: print every receive's core, start and end (for a run chart)",
     .min = 0,
     .max = 1},
    APP_ARGS_END};

const struct app app_em_matmul = {
    .name = "em_matmul",
    .summary = "OpenEM matrix-multiply demo: Z = X.Y, one event per column block of Y, checked",
    .roles = roles,
    .args = args,
    .series = series,
    .run = run,
};
