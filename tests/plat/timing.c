/* timing.c -- the sim's interconnect model moves the way hardware would:
 * time grows with size at the link's bandwidth, competing transfers share a
 * port, and the link latency shows in a small transfer. Sim only. */
#include "pt.h"

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#define BIG 65536

/* Time of one DMA of n bytes from src to dst on the calling core. */
static uint64_t dma_time(void *dst, const void *src, size_t n)
{
    plat_dma d;
    uint64_t t0 = plat_now_ns();
    ck_assert_int_eq(plat_dma_start(&d, dst, src, n, 0, 0, 0), PLAT_OK);
    ck_assert_int_eq(plat_dma_wait(&d, HARNESS_WAIT_NS), PLAT_OK);
    return plat_now_ns() - t0;
}

/* Core 0's local memory to core 1's. */
static void case_dma_scaling(void *arg)
{
    uint64_t *board = harness_board();
    if (plat_core() == 1) {
        void *dst = plat_local_alloc(BIG, 64);
        ck_assert_ptr_nonnull(dst);
        plat_store64(&board[0], pt_u(dst));
        harness_barrier();
        harness_barrier();
        plat_local_free(dst);
        return;
    }
    void *src = plat_local_alloc(BIG, 64);
    ck_assert_ptr_nonnull(src);
    harness_barrier();
    void *dst = pt_p(plat_load64(&board[0]));
    static const size_t n[] = {256, 4096, BIG};
    uint64_t t[3];
    for (int i = 0; i < 3; i++) t[i] = dma_time(dst, src, n[i]);
    ck_assert_msg(t[0] < t[1] && t[1] < t[2], "DMA times %llu, %llu, %llu ns do not grow with size",
                  (unsigned long long)t[0], (unsigned long long)t[1], (unsigned long long)t[2]);
    double bytes_per_ns = pt_num(arg, "link.bandwidth_MBps") / 1000.0;
    double ideal = BIG / bytes_per_ns;
    ck_assert_msg((double)t[2] >= ideal && (double)t[2] <= 1.25 * ideal + 5000,
                  "%d bytes at %.0f MB/s: %llu ns, expected about %.0f", BIG,
                  pt_num(arg, "link.bandwidth_MBps"), (unsigned long long)t[2], ideal);
    harness_barrier();
    plat_local_free(src);
}

/* Cores 0 and 1 write into core 2's local memory: first core 0 alone, then
 * both at once, which must take longer (they share core 2's port). */
static void case_dma_contention(void *arg)
{
    (void)arg;
    uint64_t *board = harness_board();
    int me = plat_core();
    if (me == 2) {
        uint8_t *dst = plat_local_alloc(2 * BIG, 64);
        ck_assert_ptr_nonnull(dst);
        plat_store64(&board[0], pt_u(dst));
        harness_barrier();
        harness_barrier();
        harness_barrier();
        harness_barrier();
        plat_local_free(dst);
        return;
    }
    void *src = plat_local_alloc(BIG, 64);
    ck_assert_ptr_nonnull(src);
    harness_barrier();
    uint8_t *dst = (uint8_t *)pt_p(plat_load64(&board[0])) + (size_t)me * BIG;
    if (me == 0) plat_store64(&board[1], dma_time(dst, src, BIG));
    harness_barrier();
    plat_store64(&board[2 + me], dma_time(dst, src, BIG));
    harness_barrier();
    uint64_t alone = plat_load64(&board[1]);
    uint64_t t0 = plat_load64(&board[2]), t1 = plat_load64(&board[3]);
    uint64_t slow = t0 > t1 ? t0 : t1, fast = t0 > t1 ? t1 : t0;
    if (me == 0) {
        ck_assert_msg(fast >= alone, "with contention %llu ns, alone %llu ns",
                      (unsigned long long)fast, (unsigned long long)alone);
        ck_assert_msg(slow >= alone * 16 / 10 && slow <= alone * 25 / 10,
                      "two DMAs into one port: %llu and %llu ns, one alone %llu ns",
                      (unsigned long long)t0, (unsigned long long)t1, (unsigned long long)alone);
    }
    harness_barrier();
    plat_local_free(src);
}

/* ---- link latency: two runs, two processes ------------------------------------- */

struct lat_page {
    int rc[2];
    char err[2][512];
    uint64_t t[2];
};

struct lat_run {
    struct lat_page *page;
    int run;
    const char *latency;
};

static void lat_core(void *arg)
{
    struct lat_run *r = arg;
    uint64_t *board = harness_board();
    if (plat_core() == 1) {
        void *dst = plat_local_alloc(64, 64);
        if (!dst) return; /* reported by the missing time */
        plat_store64(&board[0], pt_u(dst));
        harness_barrier();
        harness_barrier();
        plat_local_free(dst);
        return;
    }
    void *src = plat_local_alloc(64, 64);
    harness_barrier();
    if (src) r->page->t[r->run] = dma_time(pt_p(plat_load64(&board[0])), src, 8);
    harness_barrier();
    if (src) plat_local_free(src);
}

static void lat_child(void *arg)
{
    struct lat_run *r = arg;
    char set[64];
    snprintf(set, sizeof set, "link.latency_ns=%s", r->latency);
    struct conf *platform = harness_platform(HARNESS_SETS("cores=2", set), NULL, NULL);
    r->page->rc[r->run] = harness_try_run(PLAT_SIM, platform, HARNESS_SEED, lat_core, r,
                                          r->page->err[r->run], sizeof r->page->err[0]);
    conf_free(platform);
}

static void test_link_latency(const struct harness_env *env)
{
    (void)env;
    struct lat_page *page = harness_page(sizeof *page);
    const char *latency[2] = {"100", "1100"};
    for (int run = 0; run < 2; run++) {
        struct lat_run r = {page, run, latency[run]};
        int st = harness_fork(lat_child, &r);
        ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "run %d died (status 0x%x)", run, st);
        ck_assert_msg(page->rc[run] == 0, "run %d: plat_run: %s", run, page->err[run]);
        ck_assert_msg(page->t[run] > 0, "run %d measured nothing", run);
    }
    ck_assert_msg(page->t[1] >= page->t[0] + 900 && page->t[1] <= page->t[0] + 2200,
                  "8-byte DMA: %llu ns at latency 100 ns, %llu ns at 1100 ns (expected about "
                  "+1000 ns)",
                  (unsigned long long)page->t[0], (unsigned long long)page->t[1]);
}

/* ---- determinism: the same run twice gives the same interleaving and times ---- */

#define DET_CORES 4
#define DET_ROUNDS 40

struct det_page {
    int rc[2];
    char err[2][512];
    uint64_t end[2][DET_CORES];
    uint8_t log[2][DET_CORES * DET_ROUNDS];
};

struct det_shared {
    plat_mutex m;
    uint64_t n;
    uint8_t log[DET_CORES * DET_ROUNDS];
};

struct det_run {
    const struct harness_env *env;
    struct det_page *page;
    int run;
};

/* Cores contend for a mutex, the interconnect (DMA) and the shared memory,
 * with random work and sleeps between: the order they get the lock in and
 * the time each finishes must not depend on anything but the seed. */
static void det_core(void *arg)
{
    struct det_run *r = arg;
    int me = plat_core();
    struct det_shared *sh = plat_shared_map("pt.det", sizeof *sh, NULL, NULL);
    uint8_t *src = plat_local_alloc(4096, 64), *dst = plat_shared_alloc(4096, 64);
    if (!sh || !src || !dst) return; /* reported by the missing end time */
    if (me == 0) plat_mutex_init(&sh->m, 0);
    harness_barrier();
    for (int i = 0; i < DET_ROUNDS; i++) {
        plat_mutex_lock(&sh->m);
        sh->log[sh->n++] = (uint8_t)me;
        plat_work_cycles(plat_random() % 200);
        plat_mutex_unlock(&sh->m);
        plat_dma d;
        plat_dma_start(&d, dst, src, 64 + plat_random() % 4000, 0, 0, 0);
        plat_dma_wait(&d, HARNESS_WAIT_NS);
        plat_sleep_ns(1 + plat_random() % 500);
    }
    r->page->end[r->run][me] = plat_now_ns();
    harness_barrier();
    if (me == 0) memcpy(r->page->log[r->run], sh->log, sizeof sh->log);
    harness_barrier();
    plat_local_free(src);
    plat_shared_free(dst);
    plat_shared_unmap(sh);
}

static void det_child(void *arg)
{
    struct det_run *r = arg;
    r->page->rc[r->run] = harness_try_run(PLAT_SIM, r->env->platform, HARNESS_SEED, det_core, r,
                                          r->page->err[r->run], sizeof r->page->err[0]);
}

static void test_deterministic(const struct harness_env *env)
{
    struct det_page *page = harness_page(sizeof *page);
    for (int run = 0; run < 2; run++) {
        struct det_run r = {env, page, run};
        int st = harness_fork(det_child, &r);
        ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "run %d died (status 0x%x)", run, st);
        ck_assert_msg(page->rc[run] == 0, "run %d: plat_run: %s", run, page->err[run]);
        for (int c = 0; c < DET_CORES; c++)
            ck_assert_msg(page->end[run][c] > 0, "run %d: core %d did not finish", run, c);
    }
    ck_assert_msg(memcmp(page->log[0], page->log[1], sizeof page->log[0]) == 0,
                  "the same seed gave another lock order");
    for (int c = 0; c < DET_CORES; c++)
        ck_assert_msg(page->end[0][c] == page->end[1][c],
                      "the same seed: core %d ended at %llu ns, then at %llu ns", c,
                      (unsigned long long)page->end[0][c], (unsigned long long)page->end[1][c]);
}

void pt_timing(void)
{
    static const struct harness_case cases[] = {
        {.name = "dma_time_scales", .core = case_dma_scaling, .cores = 2, .backends = HARNESS_SIM},
        {.name = "dma_time_bandwidth",
         .core = case_dma_scaling,
         .cores = 2,
         .sets = {"link.bandwidth_MBps=250"},
         .backends = HARNESS_SIM},
        {.name = "dma_contention",
         .core = case_dma_contention,
         .cores = 3,
         .backends = HARNESS_SIM},
        {.name = "link_latency", .test = test_link_latency, .backends = HARNESS_SIM},
        {.name = "deterministic",
         .test = test_deterministic,
         .cores = DET_CORES,
         .backends = HARNESS_SIM},
    };
    harness_add_cases("plat", cases, HARNESS_COUNT(cases));
}
