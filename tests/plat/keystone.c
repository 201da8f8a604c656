/* keystone.c -- the keystone_c6678 platform (platforms/keystone_c6678.yaml,
 * docs/keystone_c6678.md): its DSP and PDSP cores, the MSMC SRAM and DDR3
 * (plat_mem_alloc), the MSMC banks, the QMSS queues and the infrastructure
 * packet DMA every core shares. Expected times come from the run's file, so
 * the cases hold under other values too. */
#include "pt.h"

#include <stdio.h>
#include <string.h>

/* Quiet time before a timed access: the barrier's traffic is over. */
#define QUIET_NS (20 * PT_US)

static int dsps(const void *arg)
{
    return (int)pt_num(arg, "cores");
}

/* ---- cores ------------------------------------------------------------------- */

/* DSPs first, then the PDSPs, each with its section's type, clock, local
 * memory and costs. */
static void case_cores(void *arg)
{
    int me = plat_core();
    ck_assert_int_eq(plat_cores(), dsps(arg) + (int)pt_num(arg, "pdsp"));
    if (me < dsps(arg)) {
        ck_assert_str_eq(plat_core_type(me), pt_str(arg, "dsp.type"));
        ck_assert(plat_core_clock_mhz(me) == pt_num(arg, "dsp.clock_mhz"));
        ck_assert_uint_eq(plat_core_caps(me),
                          PLAT_CAP_CAS | PLAT_CAP_FETCH_ADD | PLAT_CAP_LOCAL_MEM | PLAT_CAP_DMA);
        void *l2 = plat_local_alloc((size_t)pt_num(arg, "dsp.local_bytes"), 8);
        ck_assert_msg(l2, "core %d: plat_local_alloc of the whole L2 (%.0f bytes) failed", me,
                      pt_num(arg, "dsp.local_bytes"));
        ck_assert_ptr_null(plat_local_alloc(8, 8)); /* the whole L2, and no more */
        plat_local_free(l2);
    } else {
        ck_assert_str_eq(plat_core_type(me), pt_str(arg, "pdsp_core.type"));
        ck_assert(plat_core_clock_mhz(me) == pt_num(arg, "pdsp_core.clock_mhz"));
        /* dma: the PDSP programs the PKTDMA (the scheduler's preloads). */
        ck_assert_uint_eq(plat_core_caps(me), PLAT_CAP_CAS | PLAT_CAP_FETCH_ADD | PLAT_CAP_DMA);
        ck_assert_ptr_null(plat_local_alloc(8, 8));
        /* Its own cost table (natively every cost is 0). */
        ck_assert_uint_eq(plat_cost("em_sched"),
                          pt_sim(arg) ? (uint64_t)pt_num(arg, "pdsp_core.costs.em_sched") : 0);
    }
    harness_barrier();
}

/* ---- memories ---------------------------------------------------------------- */

static double timed_load(const uint64_t *p)
{
    uint64_t t0 = plat_now_ns();
    (void)plat_load64(p);
    return (double)(plat_now_ns() - t0);
}

/* Both named memories allocate, an unknown name does not (sim); a load from
 * DDR3 takes longer than one from the MSMC by the difference of their
 * latencies and more (DDR3 moves whole bursts); plat_shared_alloc is DDR3. */
static void case_memories(void *arg)
{
    int st = 0;
    uint64_t *msmc = plat_mem_alloc("msmc", 64, 64, &st);
    ck_assert_msg(msmc, "plat_mem_alloc(\"msmc\"): %s", plat_strerror(st));
    uint64_t *ddr3 = plat_mem_alloc("ddr3", 64, 64, &st);
    ck_assert_msg(ddr3, "plat_mem_alloc(\"ddr3\"): %s", plat_strerror(st));
    uint64_t *shared = plat_shared_alloc(64, 64);
    ck_assert_ptr_nonnull(shared);
    if (pt_sim(arg)) {
        ck_assert_ptr_null(plat_mem_alloc("l3", 64, 64, &st));
        ck_assert_int_eq(st, PLAT_ENOENT);
    }
    plat_store64(msmc, 1);
    plat_store64(ddr3, 2);
    ck_assert_uint_eq(plat_load64(msmc) + plat_load64(ddr3), 3);
    if (pt_sim(arg) && plat_core() == 0) {
        plat_sleep_ns(QUIET_NS);
        double tm = timed_load(msmc), td = timed_load(ddr3), ts = timed_load(shared);
        double lat = pt_num(arg, "teranet.latency_ns");
        printf("keystone memories: load from msmc %.0f ns, ddr3 %.0f ns, plat_shared_alloc %.0f "
               "ns\n",
               tm, td, ts);
        ck_assert_msg(tm >= lat + pt_num(arg, "msmc.latency_ns"), "msmc load %.0f ns", tm);
        ck_assert_msg(td >= tm + pt_num(arg, "ddr3.latency_ns") - pt_num(arg, "msmc.latency_ns"),
                      "ddr3 load %.0f ns, msmc %.0f ns", td, tm);
        ck_assert_msg(ts == td, "plat_shared_alloc's load %.0f ns is not DDR3's %.0f ns", ts, td);
    }
    plat_shared_free(msmc);
    plat_shared_free(ddr3);
    plat_shared_free(shared);
    harness_barrier();
}

/* ---- MSMC banks ---------------------------------------------------------------- */

#define LOADS 64

/* Cores 0 and 1 each load LOADS words of the MSMC at once, core 1 at word
 * `stride` bank words past core 0's: their mean time per core, through
 * board[slot], board[slot + 1] (each call its own: a core may start the
 * next call before core 0 has read). */
static double hammer(const void *arg, uint64_t *board, unsigned stride, int slot)
{
    int me = plat_core();
    uint64_t *base = pt_p(plat_load64(&board[0]));
    size_t step = (size_t)pt_num(arg, "msmc.bank_bytes") / sizeof(uint64_t);
    harness_barrier();
    plat_sleep_ns(QUIET_NS);
    if (me < 2) {
        const uint64_t *p = base + (me ? stride * step : 0);
        uint64_t t0 = plat_now_ns();
        for (int i = 0; i < LOADS; i++) (void)plat_load64(p);
        plat_store64(&board[slot + me], plat_now_ns() - t0);
    }
    harness_barrier();
    return (double)(plat_load64(&board[slot]) + plat_load64(&board[slot + 1])) / 2;
}

/* Two cores on the same bank take longer than two on different banks;
 * with one bank ("different" banks are the same) they take the same. The
 * cases set bank_ns so that the bank is the loop's bottleneck (more than
 * half of a load's time): with a shorter one the two cores' loads fall out
 * of step after the first collision and never meet again. Then two cores
 * on one bank need 2 x bank_ns per load, alone less than bank_ns + the
 * rest of the path, so they are at least a quarter bank time per load apart. */
static void case_msmc_banks(void *arg)
{
    uint64_t *board = harness_board();
    unsigned banks = (unsigned)pt_num(arg, "msmc.banks");
    if (plat_core() == 0) {
        int st = 0;
        /* Aligned to the banks' period: word 0 is in bank 0. */
        size_t period = (size_t)pt_num(arg, "msmc.bank_bytes") * banks;
        uint64_t *p = plat_mem_alloc("msmc", 2 * period, period, &st);
        ck_assert_msg(p, "plat_mem_alloc(\"msmc\", %zu): %s", 2 * period, plat_strerror(st));
        plat_store64(&board[0], pt_u(p));
    }
    harness_barrier();
    double same = hammer(arg, board, banks, 1), other = hammer(arg, board, 1, 3);
    if (plat_core() != 0) return;
    double bank = pt_num(arg, "msmc.bank_ns");
    printf("keystone msmc banks=%u bank_ns=%.0f: %d loads by each of 2 cores, same bank %.0f ns, "
           "next bank %.0f ns\n",
           banks, bank, LOADS, same, other);
    if (banks == 1) /* the same up to the two cores' phase at the first collision */
        ck_assert_msg(same - other <= bank && other - same <= bank,
                      "one bank: same %.0f ns, next %.0f ns: more than %.0f ns apart", same, other,
                      bank);
    else
        ck_assert_msg(same >= other + LOADS * bank / 4,
                      "same bank %.0f ns, next bank %.0f ns: not %d x %.0f ns / 4 apart", same,
                      other, LOADS, bank);
}

/* ---- QMSS ---------------------------------------------------------------------- */

/* 8192 queues; a pop costs the core more than a push, by the difference
 * of the two latencies (the rest of the path is the same). */
static void case_qmss(void *arg)
{
    int st = 0;
    plat_hwq *q = plat_hwq_open("hwq", &st);
    ck_assert_msg(q, "plat_hwq_open(\"hwq\"): %s", plat_strerror(st));
    ck_assert_uint_eq(plat_hwq_queues(q), (unsigned)pt_num(arg, "devices.hwq.queues"));
    if (plat_core() != 0) return;
    static int item;
    unsigned last = plat_hwq_queues(q) - 1;
    uint64_t t0 = plat_now_ns();
    ck_assert_int_eq(plat_hwq_push(q, last, &item), PLAT_OK);
    uint64_t t1 = plat_now_ns();
    ck_assert_ptr_eq(plat_hwq_pop(q, last), &item);
    uint64_t t2 = plat_now_ns();
    if (!pt_sim(arg)) return;
    double push = (double)(t1 - t0), pop = (double)(t2 - t1);
    double want =
        pt_num(arg, "devices.hwq.pop_latency_ns") - pt_num(arg, "devices.hwq.push_latency_ns");
    printf("keystone qmss: push %.0f ns, pop %.0f ns\n", push, pop);
    ck_assert_msg(pop - push >= want - 1 && pop - push <= want + 1,
                  "push %.0f ns, pop %.0f ns: not %.0f ns apart", push, pop, want);
}

/* ---- the PKTDMA ------------------------------------------------------------------ */

#define DMA_BYTES 65536

/* The time one DDR3 -> L2 transfer of n bytes takes alone on the PKTDMA
 * (sim), from the run's file: the submitting DSP's setup (dma_setup
 * cycles), the bytes at the slowest of the PKTDMA's port, the DDR3 lanes
 * and the core's TeraNet port, one crossing, the L2's access (plat_dma_wait's
 * status read overlaps the transfer). */
static double dma_bytes_ns(const void *arg, double n)
{
    double mbps = pt_num(arg, "pktdma.bandwidth_MBps");
    if (pt_num(arg, "teranet.bandwidth_MBps") < mbps) mbps = pt_num(arg, "teranet.bandwidth_MBps");
    if (pt_num(arg, "ddr3.bandwidth_MBps") < mbps) mbps = pt_num(arg, "ddr3.bandwidth_MBps");
    return n * 1e3 / mbps;
}
static double dma_fixed_ns(const void *arg)
{
    return pt_num(arg, "dsp.costs.dma_setup") * 1e3 / pt_num(arg, "dsp.clock_mhz") +
           pt_num(arg, "teranet.latency_ns") + pt_num(arg, "dsp.local_latency_ns");
}

/* DDR3 source and L2 destination of DMA_BYTES, the source filled. */
static void dma_bufs(unsigned char **src, unsigned char **dst, unsigned seed)
{
    int st = 0;
    *src = plat_mem_alloc("ddr3", DMA_BYTES, 64, &st);
    ck_assert_msg(*src, "plat_mem_alloc(\"ddr3\"): %s", plat_strerror(st));
    *dst = plat_local_alloc(DMA_BYTES, 64);
    ck_assert_ptr_nonnull(*dst);
    pt_fill(*src, DMA_BYTES, seed);
    memset(*dst, 0, DMA_BYTES);
}

/* One DDR3 -> L2 transfer: time (ns) from plat_dma_start to plat_dma_wait's return. */
static double dma_once(unsigned char *dst, const unsigned char *src)
{
    plat_dma d;
    uint64_t t0 = plat_now_ns();
    ck_assert_int_eq(plat_dma_start(&d, dst, src, DMA_BYTES, 0, 0, 0), PLAT_OK);
    ck_assert_int_eq(plat_dma_wait(&d, HARNESS_WAIT_NS), PLAT_OK);
    return (double)(plat_now_ns() - t0);
}

/* (a) One transfer alone: the bytes arrive intact, in their time at the
 * slowest of the PKTDMA's bandwidth, the DDR3 lanes and the core's port,
 * plus the setup, the crossing and the accesses (sim: within 1 ns a part).
 * Then no receive channels: plat_rx_channels() 0; plat_rx_post and
 * plat_dma_send are PLAT_ENOTSUP on both backends. */
static void case_pktdma_one(void *arg)
{
    if (plat_core() != 0) return;
    unsigned char *src, *dst;
    dma_bufs(&src, &dst, 17);
    double took = dma_once(dst, src);
    ck_assert_uint_eq(pt_bad(dst, DMA_BYTES, 17), DMA_BYTES);
    if (pt_sim(arg)) {
        double want = dma_bytes_ns(arg, DMA_BYTES) + dma_fixed_ns(arg);
        printf("keystone pktdma (%.0f MB/s): %d bytes DDR3 -> L2 in %.0f ns (%.0f MB/s), "
               "expected %.0f ns (bytes alone %.0f ns)\n",
               pt_num(arg, "pktdma.bandwidth_MBps"), DMA_BYTES, took, DMA_BYTES * 1e3 / took, want,
               dma_bytes_ns(arg, DMA_BYTES));
        ck_assert_msg(took >= want - 1 && took <= want + 1,
                      "%d bytes took %.0f ns, expected %.0f ns", DMA_BYTES, took, want);
    }
    ck_assert_uint_eq(plat_rx_channels(), 0);
    int post = plat_rx_post(0, dst, 64, 0);
    plat_dma d;
    int send = plat_dma_send(&d, 1, 0, src, 64);
    ck_assert_int_eq(post, PLAT_ENOTSUP);
    ck_assert_int_eq(send, PLAT_ENOTSUP);
    plat_local_free(dst);
    plat_shared_free(src);
}

/* (b), (c) Core 0 alone, then cores 0 and 1 each start one transfer into
 * their own L2 at the same time. With two channels or more both share the
 * PKTDMA's bandwidth: each ends after about 2 x the bytes' time (not 1 x).
 * With pktdma.channels=1 the second waits for the first: one ends after
 * about 1 x, the other after about 2 x (it starts when the first ends). */
static void case_pktdma_shared(void *arg)
{
    uint64_t *board = harness_board();
    int me = plat_core();
    unsigned char *src = NULL, *dst = NULL;
    if (me < 2) dma_bufs(&src, &dst, 30 + (unsigned)me);
    double alone = 0;
    /* The cores not timed stay off DDR3 (the barrier's words) meanwhile. */
    uint64_t away = pt_sim(arg) ? (uint64_t)(4 * (dma_bytes_ns(arg, DMA_BYTES) + 1000)) : 0;
    harness_barrier();
    plat_sleep_ns(QUIET_NS);
    if (me == 0)
        alone = dma_once(dst, src);
    else
        plat_sleep_ns(away);
    harness_barrier();
    plat_sleep_ns(QUIET_NS);
    if (me >= 2) plat_sleep_ns(away);
    if (me < 2) {
        memset(dst, 0, DMA_BYTES);
        plat_store64(&board[me], (uint64_t)dma_once(dst, src));
        ck_assert_uint_eq(pt_bad(dst, DMA_BYTES, 30 + (unsigned)me), DMA_BYTES);
        plat_local_free(dst);
        plat_shared_free(src);
    }
    harness_barrier();
    if (me != 0 || !pt_sim(arg)) return;
    double t0 = (double)plat_load64(&board[0]), t1 = (double)plat_load64(&board[1]);
    double lo = t0 < t1 ? t0 : t1, hi = t0 < t1 ? t1 : t0;
    double bytes = dma_bytes_ns(arg, DMA_BYTES), fixed = dma_fixed_ns(arg);
    unsigned chans = (unsigned)pt_num(arg, "pktdma.channels");
    printf("keystone pktdma channels=%u: one transfer alone %.0f ns; two at once %.0f ns and "
           "%.0f ns (bytes alone %.0f ns)\n",
           chans, alone, t0, t1, bytes);
    ck_assert_msg(alone >= bytes + fixed - 1 && alone <= bytes + fixed + 1, "alone %.0f ns", alone);
    /* The later one: both transfers' bytes at the one bandwidth. */
    ck_assert_msg(hi >= 2 * bytes && hi <= 2 * bytes + 2 * fixed + 100,
                  "the later of two ended after %.0f ns, not about 2 x %.0f ns", hi, bytes);
    if (chans >= 2) /* interleaved per burst: the first ends late too */
        ck_assert_msg(lo >= 2 * bytes - 200,
                      "the earlier of two ended after %.0f ns: not about 2 x %.0f ns", lo, bytes);
    else /* one after the other: the first alone */
        ck_assert_msg(lo >= bytes && lo <= bytes + 2 * fixed + 100,
                      "one channel: the earlier ended after %.0f ns, not about %.0f ns", lo, bytes);
}

/* (d) plat_dma_start_push from a DSP (core 0, into its L2) and from the
 * PDSP (the first core after the DSPs, into DDR3), each to a queue of its
 * own: the call costs the caller its own section's dma_setup cycles (sim);
 * while the transfer runs its descriptor is not in the queue (sim), once it
 * is done it is, and the bytes are there. */
static void case_pktdma_push(void *arg)
{
    int me = plat_core(), pdsp = dsps(arg);
    if (me != 0 && me != pdsp) return;
    int st = 0;
    plat_hwq *q = plat_hwq_open("hwq", &st);
    ck_assert_msg(q, "plat_hwq_open(\"hwq\"): %s", plat_strerror(st));
    unsigned qi = me == 0 ? 10 : 11, seed = 40 + (unsigned)me;
    unsigned char *src = plat_mem_alloc("ddr3", DMA_BYTES, 64, &st);
    ck_assert_msg(src, "plat_mem_alloc(\"ddr3\"): %s", plat_strerror(st));
    unsigned char *dst =
        me == 0 ? plat_local_alloc(DMA_BYTES, 64) : plat_mem_alloc("ddr3", DMA_BYTES, 64, &st);
    ck_assert_ptr_nonnull(dst);
    pt_fill(src, DMA_BYTES, seed);
    memset(dst, 0, DMA_BYTES);
    static int desc[2];
    void *mine = &desc[me == 0 ? 0 : 1];
    plat_dma d;
    uint64_t t0 = plat_now_ns();
    ck_assert_int_eq(plat_dma_start_push(&d, dst, src, DMA_BYTES, q, qi, mine), PLAT_OK);
    if (pt_sim(arg)) {
        /* Writing the descriptor costs the caller its own dma_setup cycles. */
        const char *sec = me == 0 ? "dsp" : "pdsp_core";
        char cost[64], clock[64];
        snprintf(cost, sizeof cost, "%s.costs.dma_setup", sec);
        snprintf(clock, sizeof clock, "%s.clock_mhz", sec);
        double setup = pt_num(arg, cost) * 1e3 / pt_num(arg, clock);
        double took = (double)(plat_now_ns() - t0);
        ck_assert_msg(took >= setup - 1 && took <= setup + 1,
                      "core %d: plat_dma_start_push took %.0f ns, not %s's %.0f ns", me, took, sec,
                      setup);
        ck_assert_int_eq(plat_dma_test(&d), PLAT_EAGAIN);
        ck_assert_uint_eq(plat_hwq_count(q, qi), 0);
        plat_sleep_ns((uint64_t)dma_bytes_ns(arg, DMA_BYTES) / 2); /* mid-transfer */
        ck_assert_int_eq(plat_dma_test(&d), PLAT_EAGAIN);
        ck_assert_uint_eq(plat_hwq_count(q, qi), 0);
    }
    ck_assert_int_eq(plat_dma_wait(&d, HARNESS_WAIT_NS), PLAT_OK);
    ck_assert_uint_eq(plat_hwq_count(q, qi), 1);
    ck_assert_ptr_eq(plat_hwq_pop(q, qi), mine);
    ck_assert_uint_eq(pt_bad(dst, DMA_BYTES, seed), DMA_BYTES);
    if (me == 0)
        plat_local_free(dst);
    else
        plat_shared_free(dst);
    plat_shared_free(src);
}

void pt_keystone(void)
{
    static const struct harness_case cases[] = {
        {.name = "ks_cores", .core = case_cores, .file = "keystone_c6678"},
        {.name = "ks_cores_4", .core = case_cores, .file = "keystone_c6678", .cores = 4},
        {.name = "ks_memories", .core = case_memories, .file = "keystone_c6678"},
        {.name = "ks_msmc_banks",
         .core = case_msmc_banks,
         .file = "keystone_c6678",
         .sets = {"msmc.banks=16", "msmc.bank_ns=200"},
         .backends = HARNESS_SIM},
        {.name = "ks_msmc_1bank",
         .core = case_msmc_banks,
         .file = "keystone_c6678",
         .sets = {"msmc.banks=1", "msmc.bank_ns=200"},
         .backends = HARNESS_SIM},
        {.name = "ks_qmss", .core = case_qmss, .file = "keystone_c6678"},
        {.name = "ks_pktdma_one", .core = case_pktdma_one, .file = "keystone_c6678"},
        {.name = "ks_pktdma_slow",
         .core = case_pktdma_one,
         .file = "keystone_c6678",
         .sets = {"pktdma.bandwidth_MBps=2000"},
         .backends = HARNESS_SIM},
        {.name = "ks_pktdma_shared", .core = case_pktdma_shared, .file = "keystone_c6678"},
        {.name = "ks_pktdma_1chan",
         .core = case_pktdma_shared,
         .file = "keystone_c6678",
         .sets = {"pktdma.channels=1"},
         .backends = HARNESS_SIM},
        {.name = "ks_pktdma_push", .core = case_pktdma_push, .file = "keystone_c6678"},
    };
    harness_add_cases("plat", cases, HARNESS_COUNT(cases));
}
