/* hibi.c -- the HIBI segment: words per cycle, width, max_send, arbitration, clock. */
#include "oneway.h"

#include <math.h>
#include <stdio.h>

static double cyc(const struct fb_xfer *x)
{
    return (double)x->fill_ns / x->cycle_ns;
}

/* A Nios to Nios transfer takes its HPD_SEND, the wait for the bus (at most
 * one round of offers), one address word and one data word per cycle. */
static void expect_window(const struct fb_xfer *x)
{
    ck_assert_msg(x->ok && x->len == x->n, "transfer of %zu bytes: len %zu, data %s", x->n, x->len,
                  x->ok ? "ok" : "wrong");
    double c = cyc(x);
    ck_assert_msg(c >= x->base && c <= x->base + FB_AGENTS - 1,
                  "%zu bytes: %.1f cycles, expected %.0f .. %.0f", x->n, c, x->base,
                  x->base + FB_AGENTS - 1);
}

static struct fb_oneway two_sizes(void)
{
    struct fb_oneway o = {.nx = 2};
    o.x[0] = (struct fb_xfer){.from = FB_NIOS0, .to = FB_NIOS1, .chan = 0, .n = 4};
    o.x[1] =
        (struct fb_xfer){.from = FB_NIOS0, .to = FB_NIOS1, .chan = 1, .n = 512, .at_ns = 100000};
    return o;
}

START_TEST(words_32)
{
    struct fb_oneway *page = harness_page(2 * sizeof *page);
    page[0] = two_sizes();
    page[1] = two_sizes();
    ck_assert(fb_run_child(FB_SETS("hibi.max_send=50"), fb_oneway, &page[0]));
    ck_assert(fb_run_child(FB_SETS("hibi.max_send=0"), fb_oneway, &page[1]));
    for (int i = 0; i < 2; i++) {
        expect_window(&page[i].x[0]);
        expect_window(&page[i].x[1]);
    }
    /* 127 more data words, and the two extra turns of max_send 50. */
    ck_assert_double_gt(cyc(&page[0].x[1]) - cyc(&page[0].x[0]), 127);
    /* In one turn (max_send unlimited): the 127 words, give or take the
     * first offer of the bus. */
    double d = cyc(&page[1].x[1]) - cyc(&page[1].x[0]);
    ck_assert_msg(fabs(d - 127) <= FB_AGENTS - 1, "one turn: 127 more words took %.1f cycles", d);
}
END_TEST

START_TEST(width_64)
{
    struct fb_oneway o32 = two_sizes(), o64 = two_sizes();
    struct fb_oneway *page = harness_page(2 * sizeof *page);
    page[0] = o32;
    page[1] = o64;
    ck_assert(fb_run_child(NULL, fb_oneway, &page[0]));
    ck_assert(fb_run_child(FB_SETS("hibi.width_bits=64"), fb_oneway, &page[1]));
    expect_window(&page[1].x[0]);
    expect_window(&page[1].x[1]);
    /* 128 32-bit words are 64 64-bit words: about 64 cycles less (and one
     * turn less of max_send); one word is one word either way. */
    double d128 = cyc(&page[0].x[1]) - cyc(&page[1].x[1]);
    double d1 = cyc(&page[0].x[0]) - cyc(&page[1].x[0]);
    ck_assert_msg(d128 >= 64 - (FB_AGENTS - 1) && d128 <= 64 + 2 * (FB_AGENTS + 1) + FB_AGENTS,
                  "128 words: 64-bit saves %.1f cycles", d128);
    ck_assert_msg(fabs(d1) <= FB_AGENTS - 1, "1 word: 64-bit changes it by %.1f cycles", d1);
}
END_TEST

/* max_send cuts a 128-word transfer into turns; each later turn waits for
 * the bus to come round again and re-sends the address. */
static void split(const char *arb)
{
    char a[64];
    snprintf(a, sizeof a, "hibi.arbitration=%s", arb);
    struct fb_oneway *page = harness_page(2 * sizeof *page);
    for (int i = 0; i < 2; i++) {
        page[i].nx = 2;
        page[i].x[0] = (struct fb_xfer){.from = FB_NIOS0, .to = FB_NIOS1, .n = 512};
        page[i].x[1] =
            (struct fb_xfer){.from = FB_NIOS1, .to = FB_NIOS0, .n = 512, .at_ns = 100000};
    }
    ck_assert(fb_run_child(FB_SETS(a, "hibi.max_send=0"), fb_oneway, &page[0]));
    ck_assert(fb_run_child(FB_SETS(a, "hibi.max_send=16"), fb_oneway, &page[1]));
    for (int k = 0; k < 2; k++) {
        const struct fb_xfer *whole = &page[0].x[k], *cut = &page[1].x[k];
        ck_assert(whole->ok && cut->ok);
        expect_window(whole);
        expect_window(cut);
        /* The first transfer has the same history before its start, so the
         * same first offer; the second follows transfers of other lengths. */
        double extra = cyc(cut) - cyc(whole), want = cut->base - whole->base;
        double slack = k == 0 ? 1e-6 : FB_AGENTS - 1;
        ck_assert_msg(fabs(extra - want) <= slack,
                      "%s, from nios%d: max_send 16 adds %.1f cycles, expected %.1f (7 turns)", arb,
                      cut->from, extra, want);
        ck_assert_double_ge(extra, 7 * 2); /* each re-sends its address after an offer */
    }
}

START_TEST(max_send_round_robin)
{
    split("round_robin");
}
END_TEST

START_TEST(max_send_priority)
{
    split("priority");
}
END_TEST

/* Both PEs send 200 words to each other at the same time: round robin
 * alternates their turns, priority serves nios0 (position 0) first. */
static void contend(const char *arb, struct fb_oneway *o)
{
    char a[64];
    snprintf(a, sizeof a, "hibi.arbitration=%s", arb);
    o->nx = 2;
    /* Turns of 50 words (the r4 wrapper's default), so the two interleave. */
    o->x[0] = (struct fb_xfer){.from = FB_NIOS0, .to = FB_NIOS1, .n = 800};
    o->x[1] = (struct fb_xfer){.from = FB_NIOS1, .to = FB_NIOS0, .n = 800};
    ck_assert(fb_run_child(FB_SETS(a, "hibi.max_send=50"), fb_oneway, o));
    ck_assert(o->x[0].ok && o->x[1].ok);
}

START_TEST(arbitration_order)
{
    struct fb_oneway *page = harness_page(2 * sizeof *page);
    contend("round_robin", &page[0]);
    contend("priority", &page[1]);
    const double turn = 50 + 1 + 1 + FB_AGENTS; /* max_send words, address, arbitration */
    double rr = cyc(&page[0].x[1]) - cyc(&page[0].x[0]);
    double pr = cyc(&page[1].x[1]) - cyc(&page[1].x[0]);
    ck_assert_msg(fabs(rr) <= turn, "round robin: nios1 ends %.1f cycles after nios0", rr);
    ck_assert_msg(pr >= 200, "priority: nios1 ends only %.1f cycles after nios0", pr);
    /* Round robin: nios0's turns alternate with three of nios1's. Priority:
     * nios0 never waits for nios1, as if it were alone. */
    ck_assert_double_ge(cyc(&page[0].x[0]), page[0].x[0].base + 3 * 50);
    ck_assert_msg(cyc(&page[1].x[0]) <= page[1].x[0].base + FB_AGENTS - 1,
                  "priority: nios0 took %.1f cycles, alone %.0f", cyc(&page[1].x[0]),
                  page[1].x[0].base);
}
END_TEST

/* clock_mhz=50: the same cycles, twice the nanoseconds. */
START_TEST(clock_scaling)
{
    struct fb_oneway *page = harness_page(2 * sizeof *page);
    page[0] = two_sizes();
    page[1] = two_sizes();
    ck_assert(fb_run_child(NULL, fb_oneway, &page[0]));
    ck_assert(fb_run_child(FB_SETS("clock_mhz=50"), fb_oneway, &page[1]));
    for (int k = 0; k < 2; k++) {
        const struct fb_xfer *f = &page[0].x[k], *s = &page[1].x[k];
        expect_window(s);
        ck_assert_double_eq_tol(s->cycle_ns, 2 * f->cycle_ns, 1e-9);
        ck_assert_msg(fabs(cyc(s) - cyc(f)) <= FB_AGENTS - 1,
                      "%zu bytes: %.1f cycles at 100 MHz, %.1f at 50 MHz", f->n, cyc(f), cyc(s));
        ck_assert_msg(s->fill_ns >= 2 * f->fill_ns - 2 * (FB_AGENTS - 1) * (uint64_t)f->cycle_ns &&
                          s->fill_ns <=
                              2 * f->fill_ns + 2 * (FB_AGENTS - 1) * (uint64_t)f->cycle_ns,
                      "%zu bytes: %llu ns at 100 MHz, %llu ns at 50 MHz", f->n,
                      (unsigned long long)f->fill_ns, (unsigned long long)s->fill_ns);
    }
}
END_TEST

void fb_register_hibi(void)
{
    fb_add("hibi_words_32", words_32);
    fb_add("hibi_width_64", width_64);
    fb_add("hibi_max_send_round_robin", max_send_round_robin);
    fb_add("hibi_max_send_priority", max_send_priority);
    fb_add("hibi_arbitration_order", arbitration_order);
    fb_add("hibi_clock_scaling", clock_scaling);
}
