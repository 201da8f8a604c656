/* oneway.c -- one-way transfers to posted receive channels, timed. */
#include "oneway.h"

#include <string.h>

#define BELL 0x10u

static unsigned char pattern(size_t i, int from)
{
    return (unsigned char)(i * 7 + (size_t)from * 31 + 1);
}

void fb_oneway(void *arg)
{
    struct fb_oneway *o = arg;
    int me = plat_core();
    void *rbuf[FB_MAX_XFERS] = {0}, *sbuf[FB_MAX_XFERS] = {0};
    plat_dma d[FB_MAX_XFERS];
    for (int i = 0; i < o->nx; i++) {
        struct fb_xfer *x = &o->x[i];
        if (me == x->to) {
            rbuf[i] = plat_local_alloc(x->n ? x->n : 8, 64);
            ck_assert_ptr_nonnull(rbuf[i]);
            ck_assert_int_eq(plat_rx_post(x->chan, rbuf[i], x->n, x->irq ? BELL : 0), PLAT_OK);
        }
        if (me == x->from) {
            unsigned char *s = plat_local_alloc(x->n ? x->n : 8, 64);
            ck_assert_ptr_nonnull(s);
            for (size_t k = 0; k < x->n; k++) s[k] = pattern(k, me);
            sbuf[i] = s;
        }
    }
    harness_barrier();
    /* This core's sends and receives in start order, a send before a receive
     * that starts at the same time (plat_dma_send does not wait). */
    bool sent[FB_MAX_XFERS] = {0}, got[FB_MAX_XFERS] = {0};
    for (;;) {
        int pick = -1;
        bool recv = false;
        for (int i = 0; i < o->nx; i++) {
            const struct fb_xfer *x = &o->x[i];
            if (me == x->from && !sent[i] &&
                (pick < 0 || x->at_ns < o->x[pick].at_ns || (x->at_ns == o->x[pick].at_ns && recv)))
                pick = i, recv = false;
            if (me == x->to && !got[i] && (pick < 0 || x->at_ns < o->x[pick].at_ns))
                pick = i, recv = true;
        }
        if (pick < 0) break;
        struct fb_xfer *x = &o->x[pick];
        if (plat_now_ns() < FB_T0_NS + x->at_ns) fb_until(FB_T0_NS + x->at_ns);
        if (!recv) {
            sent[pick] = true;
            ck_assert_int_eq(plat_dma_send(&d[pick], x->to, x->chan, sbuf[pick], x->n), PLAT_OK);
            continue;
        }
        got[pick] = true;
        size_t len = 0;
        if (x->irq) {
            ck_assert_uint_eq(plat_doorbell_wait(BELL, HARNESS_WAIT_NS), BELL);
            x->fill_ns = plat_now_ns() - FB_T0_NS - x->at_ns;
            ck_assert_int_eq(plat_rx_take(x->chan, &len), PLAT_OK);
        } else {
            ck_assert_int_eq(plat_rx_wait(x->chan, &len, HARNESS_WAIT_NS), PLAT_OK);
            x->fill_ns = plat_now_ns() - FB_T0_NS - x->at_ns;
        }
        x->len = len;
        x->base = fb_oneway_base(fb_words(x->n), x->from == FB_PC ? 3 : x->from);
        x->cycle_ns = fb_cycle_ns();
        bool same = true;
        const unsigned char *r = rbuf[pick];
        for (size_t k = 0; k < x->n; k++) same = same && r[k] == pattern(k, x->from);
        x->ok = same;
    }
    for (int i = 0; i < o->nx; i++)
        if (me == o->x[i].from) ck_assert_int_eq(plat_dma_wait(&d[i], HARNESS_WAIT_NS), PLAT_OK);
    harness_barrier();
}

double fb_oneway_base(uint64_t words, int pos)
{
    double arb = fb_num("hibi.arb_cycles");
    double max_send = fb_num("hibi.max_send");
    uint64_t turns = max_send > 0 ? (words + (uint64_t)max_send - 1) / (uint64_t)max_send : 1;
    if (turns == 0) turns = 1;
    /* After a turn the bus is offered again to the sender: round robin goes
     * round the other agents first, priority restarts at position 0. */
    bool prio = strcmp(fb_str("hibi.arbitration"), "priority") == 0;
    double regap = prio ? (double)pos : (double)(FB_AGENTS - 1);
    return fb_send_cycles() + fb_num("hpd.tx_start_cycles") + arb + 1 + (double)words +
           (double)(turns - 1) * (regap + arb + 1) + fb_num("hibi.rx_cycles") +
           fb_num("hpd.rx_cycles");
}
