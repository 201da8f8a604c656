/* roundtrip.c -- the bare round trip under Table 4: N words nios0 -> nios1,
 * a one-word answer back, both to receive channels posted in advance. */
#include "oneway.h"

#include <stdio.h>
#include <stdlib.h>

#define REPS 4

struct rt {
    size_t words[2];
    double cycles[2]; /* mean over REPS */
    double one_way[2];
};

static void rt_core(void *arg)
{
    struct rt *r = arg;
    int me = plat_core();
    if (me == FB_PC) {
        harness_barrier();
        harness_barrier();
        return;
    }
    unsigned char *buf = plat_local_alloc(512, 64), *ans = plat_local_alloc(64, 64);
    ck_assert(buf && ans);
    harness_barrier();
    plat_dma d;
    size_t len;
    for (int s = 0; s < 2; s++) {
        size_t n = r->words[s] * 4;
        uint64_t sum = 0;
        for (int k = 0; k < REPS; k++) {
            uint64_t t0 = FB_T0_NS + (uint64_t)(s * REPS + k) * 20000;
            if (me == FB_NIOS1) ck_assert_int_eq(plat_rx_post(0, buf, n, 0), PLAT_OK);
            if (me == FB_NIOS0) ck_assert_int_eq(plat_rx_post(0, ans, 4, 0), PLAT_OK);
            fb_until(t0);
            if (me == FB_NIOS0) {
                ck_assert_int_eq(plat_dma_send(&d, FB_NIOS1, 0, buf, n), PLAT_OK);
                ck_assert_int_eq(plat_rx_wait(0, &len, HARNESS_WAIT_NS), PLAT_OK);
                sum += plat_now_ns() - t0;
                ck_assert_int_eq(plat_dma_wait(&d, HARNESS_WAIT_NS), PLAT_OK);
            } else {
                ck_assert_int_eq(plat_rx_wait(0, &len, HARNESS_WAIT_NS), PLAT_OK);
                ck_assert_uint_eq(len, n);
                ck_assert_int_eq(plat_dma_send(&d, FB_NIOS0, 0, ans, 4), PLAT_OK);
                ck_assert_int_eq(plat_dma_wait(&d, HARNESS_WAIT_NS), PLAT_OK);
            }
        }
        if (me == FB_NIOS0) {
            r->cycles[s] = fb_cycles(sum) / REPS;
            r->one_way[s] = fb_oneway_base(fb_words(n), FB_NIOS0);
        }
    }
    harness_barrier();
}

static void roundtrip(const char *width)
{
    struct rt r = {.words = {1, 128}};
    fb_run(FB_SETS(width), rt_core, &r);
    for (int s = 0; s < 2; s++) {
        /* There: N words; back: one word, sent as soon as the N landed (plus
         * the answer's HPD_SEND and take). Each leg waits at most one round of
         * offers for the bus. */
        double back = r.one_way[0], lo = r.one_way[s] + back;
        if (getenv("FB_VERBOSE"))
            fprintf(stderr,
                    "funbase bare round trip, %s, %zu words: %.1f cycles (legs %.0f + %.0f)\n",
                    width, r.words[s], r.cycles[s], r.one_way[s], back);
        ck_assert_msg(r.cycles[s] >= lo && r.cycles[s] <= lo + 2 * (FB_AGENTS - 1),
                      "%s, %zu words: %.1f cycles, legs %.0f + %.0f", width, r.words[s],
                      r.cycles[s], r.one_way[s], back);
    }
}

START_TEST(bare_roundtrip_32)
{
    roundtrip("hibi.width_bits=32");
}
END_TEST

START_TEST(bare_roundtrip_64)
{
    roundtrip("hibi.width_bits=64");
}
END_TEST

void fb_register_roundtrip(void)
{
    fb_add("bare_roundtrip_32", bare_roundtrip_32);
    fb_add("bare_roundtrip_64", bare_roundtrip_64);
}
