/* touch.c -- plat_touch: a core's loads streaming data its cache does not
 * hold. On ideal (no cache model) it is one timed read, as plat_copy's
 * loads; on keystone_c6678 every L1D line misses and the core waits for
 * each fill (models/keystone/l1d.h); natively it takes no time of its own. */
#include "pt.h"

#include <stdio.h>
#include <string.h>

#define TOUCH_BYTES 65536
#define QUIET_NS (20 * PT_US)

static double timed_touch(const void *p, size_t n)
{
    uint64_t t0 = plat_now_ns();
    plat_touch(p, n);
    return (double)(plat_now_ns() - t0);
}

/* ideal: a touch of n bytes takes what the copy of them into the core's
 * private memory (its registers) takes; the bytes stay as they were. */
static void case_touch_ideal(void *arg)
{
    if (plat_core() != 0) return;
    unsigned char *src = plat_shared_alloc(TOUCH_BYTES, 64);
    ck_assert_ptr_nonnull(src);
    pt_fill(src, TOUCH_BYTES, 5);
    static unsigned char priv[TOUCH_BYTES];
    uint64_t t0 = plat_now_ns();
    plat_copy(priv, src, TOUCH_BYTES);
    double copy = (double)(plat_now_ns() - t0);
    double touch = timed_touch(src, TOUCH_BYTES);
    ck_assert_uint_eq(pt_bad(src, TOUCH_BYTES, 5), TOUCH_BYTES);
    plat_touch(src, 0); /* nothing */
    if (pt_sim(arg)) {
        printf("touch ideal: %d bytes %.0f ns, their copy %.0f ns\n", TOUCH_BYTES, touch, copy);
        ck_assert_msg(touch > 0 && touch == copy, "touch %.0f ns, copy %.0f ns", touch, copy);
    }
    plat_shared_free(src);
}

/* keystone: a touch of L lines takes L times one line's fill, from DDR3 and
 * from the local L2 alike, a DDR3 line at least the TeraNet's and the
 * DDR3's latencies; and more than the same bytes' plat_copy (a stream of
 * the bytes, not of the lines). */
static void case_touch_keystone(void *arg)
{
    if (plat_core() != 0) return;
    const double line = pt_num(arg, "dsp.l1d_line_bytes"), lines = TOUCH_BYTES / line;
    int st = 0;
    unsigned char *ddr = plat_mem_alloc("ddr3", TOUCH_BYTES, 64, &st);
    ck_assert_msg(ddr, "plat_mem_alloc(\"ddr3\"): %s", plat_strerror(st));
    unsigned char *l2 = plat_local_alloc(TOUCH_BYTES, 64);
    ck_assert_ptr_nonnull(l2);
    static unsigned char priv[TOUCH_BYTES];
    plat_sleep_ns(QUIET_NS);
    double one_ddr = timed_touch(ddr, (size_t)line);
    double all_ddr = timed_touch(ddr, TOUCH_BYTES);
    double one_l2 = timed_touch(l2, (size_t)line);
    double all_l2 = timed_touch(l2, TOUCH_BYTES);
    uint64_t t0 = plat_now_ns();
    plat_copy(priv, ddr, TOUCH_BYTES);
    double copy = (double)(plat_now_ns() - t0);
    printf("touch keystone: a %.0f-byte line from ddr3 %.0f ns, %d bytes %.0f ns (copy %.0f ns); "
           "from L2 %.0f ns, %.0f ns\n",
           line, one_ddr, TOUCH_BYTES, all_ddr, copy, one_l2, all_l2);
    if (pt_sim(arg)) {
        ck_assert(one_ddr >= pt_num(arg, "teranet.latency_ns") + pt_num(arg, "ddr3.latency_ns"));
        ck_assert_msg(all_ddr > lines * one_ddr * 0.999 && all_ddr < lines * one_ddr * 1.001,
                      "ddr3: %.0f ns for %.0f lines of %.0f ns", all_ddr, lines, one_ddr);
        ck_assert_msg(all_l2 > lines * one_l2 * 0.999 && all_l2 < lines * one_l2 * 1.001,
                      "L2: %.0f ns for %.0f lines of %.0f ns", all_l2, lines, one_l2);
        ck_assert(one_l2 < one_ddr);
        ck_assert_msg(all_ddr > 2 * copy, "touch %.0f ns, copy %.0f ns", all_ddr, copy);
    }
    plat_local_free(l2);
    plat_shared_free(ddr);
}

/* Two cores streaming DDR3 at once share its lanes: with DDR3 made as slow
 * as a line's latency-bound rate, both together take longer than one. */
static void case_touch_shared(void *arg)
{
    int me = plat_core();
    if (me > 1) {
        harness_barrier();
        return;
    }
    int st = 0;
    unsigned char *ddr = plat_mem_alloc("ddr3", TOUCH_BYTES, 64, &st);
    ck_assert_msg(ddr, "plat_mem_alloc(\"ddr3\"): %s", plat_strerror(st));
    plat_sleep_ns(QUIET_NS);
    /* core 1 keeps off DDR3 (where the barrier's words are) meanwhile */
    double alone = me == 0 ? timed_touch(ddr, TOUCH_BYTES) : 0;
    if (me == 1) plat_sleep_ns(50 * PT_MS);
    harness_barrier();
    plat_sleep_ns(QUIET_NS);
    double both = timed_touch(ddr, TOUCH_BYTES);
    printf("touch keystone, ddr3 at %.0f MB/s: core %d alone %.0f ns, with another %.0f ns\n",
           pt_num(arg, "ddr3.bandwidth_MBps"), me, alone, both);
    if (me == 1 && pt_sim(arg)) ck_assert(both > 0);
    if (me == 0 && pt_sim(arg))
        ck_assert_msg(both > alone * 1.2, "alone %.0f ns, beside another %.0f ns", alone, both);
    plat_shared_free(ddr);
}

void pt_touch(void)
{
    static const struct harness_case cases[] = {
        {.name = "touch_ideal", .core = case_touch_ideal, .cores = 2},
        {.name = "ks_touch", .core = case_touch_keystone, .file = "keystone_c6678"},
        {.name = "ks_touch_shared",
         .core = case_touch_shared,
         .file = "keystone_c6678",
         .sets = {"ddr3.bandwidth_MBps=700"},
         .backends = HARNESS_SIM},
    };
    harness_add_cases("plat", cases, HARNESS_COUNT(cases));
}
