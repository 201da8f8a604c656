/* hpd.c -- the HIBI PE DMA: one transmit in flight, channel landing, IRQ, addresses. */
#include "oneway.h"

#include <string.h>

struct order {
    uint64_t fill0_ns, fill1_ns;
    int early_take, early_test;
};

/* nios0 queues a send to nios1's channel 0 (not posted yet), then one to
 * its channel 1 (posted): the second waits behind the first. */
static void order_core(void *arg)
{
    struct order *r = arg;
    int me = plat_core();
    static const size_t n = 64;
    void *buf[2] = {0};
    if (me == FB_NIOS1) {
        for (int c = 0; c < 2; c++) ck_assert_ptr_nonnull(buf[c] = plat_local_alloc(n, 64));
        ck_assert_int_eq(plat_rx_post(1, buf[1], n, 0), PLAT_OK);
    }
    unsigned char *src = me == FB_NIOS0 ? plat_local_alloc(2 * n, 64) : NULL;
    if (src) memset(src, 0x5A, 2 * n);
    harness_barrier();
    plat_dma d[2];
    if (me == FB_NIOS0) {
        fb_until(FB_T0_NS);
        ck_assert_int_eq(plat_dma_send(&d[0], FB_NIOS1, 0, src, n), PLAT_OK);
        ck_assert_int_eq(plat_dma_send(&d[1], FB_NIOS1, 1, src + n, n), PLAT_OK);
        fb_until(FB_T0_NS + 50000);
        r->early_test = plat_dma_test(&d[1]);
        ck_assert_int_eq(plat_dma_wait(&d[0], HARNESS_WAIT_NS), PLAT_OK);
        ck_assert_int_eq(plat_dma_wait(&d[1], HARNESS_WAIT_NS), PLAT_OK);
    } else if (me == FB_NIOS1) {
        size_t len = 0;
        fb_until(FB_T0_NS + 50000);
        r->early_take = plat_rx_take(1, &len);
        fb_until(FB_T0_NS + 60000);
        ck_assert_int_eq(plat_rx_post(0, buf[0], n, 0), PLAT_OK);
        ck_assert_int_eq(plat_rx_wait(0, &len, HARNESS_WAIT_NS), PLAT_OK);
        r->fill0_ns = plat_now_ns() - FB_T0_NS;
        ck_assert_int_eq(plat_rx_wait(1, &len, HARNESS_WAIT_NS), PLAT_OK);
        r->fill1_ns = plat_now_ns() - FB_T0_NS;
        ck_assert_uint_eq(len, n);
    }
    harness_barrier();
}

START_TEST(one_tx_in_flight)
{
    struct order r = {0};
    fb_run(NULL, order_core, &r);
    ck_assert_int_eq(r.early_take, PLAT_EAGAIN); /* held back behind the unposted channel */
    ck_assert_int_eq(r.early_test, PLAT_EAGAIN);
    ck_assert_uint_ge(r.fill0_ns, 60000);
    ck_assert_uint_lt(r.fill0_ns, r.fill1_ns); /* in order */
}
END_TEST

struct land {
    size_t len_big, len_zero;
    int intact, written;
    unsigned chans[3];
};

static void land_core(void *arg)
{
    struct land *r = arg;
    int me = plat_core();
    r->chans[me] = plat_rx_channels();
    unsigned char *buf = NULL;
    if (me == FB_NIOS1) {
        buf = plat_local_alloc(64, 64);
        memset(buf, 0xEE, 64);
        ck_assert_int_eq(plat_rx_post(0, buf, 16, 0), PLAT_OK); /* cap 16 of 64 */
        ck_assert_int_eq(plat_rx_post(1, buf + 32, 0, 0), PLAT_OK);
        ck_assert_int_eq(plat_rx_post(0, buf, 16, 0), PLAT_EBUSY);
    }
    unsigned char *src = me == FB_NIOS0 ? plat_local_alloc(64, 64) : NULL;
    if (src)
        for (int i = 0; i < 64; i++) src[i] = (unsigned char)i;
    harness_barrier();
    if (me == FB_NIOS0) {
        plat_dma d[2];
        ck_assert_int_eq(plat_dma_send(&d[0], FB_NIOS1, 0, src, 64), PLAT_OK);
        ck_assert_int_eq(plat_dma_send(&d[1], FB_NIOS1, 1, src, 0), PLAT_OK);
        ck_assert_int_eq(plat_dma_wait(&d[1], HARNESS_WAIT_NS), PLAT_OK);
        ck_assert_int_eq(plat_dma_test(&d[0]), PLAT_OK);
        ck_assert_int_eq(plat_dma_send(&d[0], FB_NIOS1, 99, src, 4), PLAT_EINVAL);
    } else if (me == FB_NIOS1) {
        ck_assert_int_eq(plat_rx_wait(0, &r->len_big, HARNESS_WAIT_NS), PLAT_OK);
        ck_assert_int_eq(plat_rx_wait(1, &r->len_zero, HARNESS_WAIT_NS), PLAT_OK);
        int ok = 1;
        for (int i = 0; i < 16; i++) ok &= buf[i] == i;
        r->written = ok;
        ok = 1;
        for (int i = 16; i < 32; i++) ok &= buf[i] == 0xEE;
        r->intact = ok;
        ck_assert_int_eq(plat_rx_take(0, NULL), PLAT_EINVAL); /* taken: nothing posted */
    }
    harness_barrier();
}

START_TEST(channel_landing)
{
    struct land r = {0};
    fb_run(NULL, land_core, &r);
    ck_assert_uint_eq(r.len_big, 64); /* the transfer's length, though only cap landed */
    ck_assert_uint_eq(r.len_zero, 0);
    ck_assert(r.written);
    ck_assert(r.intact);
    struct conf *c = fb_platform(NULL);
    ck_assert_uint_eq(r.chans[FB_NIOS0], (unsigned)conf_num(c, "core.rx_channels", -1));
    ck_assert_uint_eq(r.chans[FB_PC], (unsigned)conf_num(c, "pc.rx_channels", -1));
    conf_free(c);
}
END_TEST

/* Completion by interrupt: the receiver learns irq cycles after the fill. */
START_TEST(irq_completion)
{
    struct fb_oneway o = {.nx = 2};
    o.x[0] = (struct fb_xfer){.from = FB_NIOS0, .to = FB_NIOS1, .chan = 0, .n = 64};
    o.x[1] = (struct fb_xfer){
        .from = FB_NIOS0, .to = FB_NIOS1, .chan = 1, .n = 64, .irq = true, .at_ns = 100000};
    fb_run(NULL, fb_oneway, &o);
    struct conf *c = fb_platform(NULL);
    double irq = conf_num(c, "core.costs.irq", -1);
    conf_free(c);
    for (int k = 0; k < 2; k++) ck_assert(o.x[k].ok && o.x[k].len == 64);
    double poll = (double)o.x[0].fill_ns / o.x[0].cycle_ns;
    double byirq = (double)o.x[1].fill_ns / o.x[1].cycle_ns;
    ck_assert_msg(byirq >= o.x[1].base + irq && byirq <= o.x[1].base + irq + FB_AGENTS - 1,
                  "irq: %.1f cycles, base %.0f + irq %.0f", byirq, o.x[1].base, irq);
    ck_assert_msg(poll >= o.x[0].base && poll <= o.x[0].base + FB_AGENTS - 1, "poll: %.1f", poll);
}
END_TEST

struct xlate {
    int ok_pe, ok_ddr;
};

/* plat_dma_start to a pointer: the HPD finds the HIBI agent that owns it
 * (the other PE's memory, the DDR behind the MEM DMA). */
static void xlate_core(void *arg)
{
    struct xlate *r = arg;
    int me = plat_core();
    uint64_t *board = harness_board();
    if (me == FB_NIOS1) plat_store64(&board[0], (uint64_t)(uintptr_t)plat_local_alloc(256, 64));
    if (me == FB_NIOS0) plat_store64(&board[1], (uint64_t)(uintptr_t)plat_shared_alloc(256, 64));
    harness_barrier();
    unsigned char *pe1 = (unsigned char *)(uintptr_t)plat_load64(&board[0]);
    unsigned char *ddr = (unsigned char *)(uintptr_t)plat_load64(&board[1]);
    if (me == FB_NIOS0) {
        unsigned char *src = plat_local_alloc(256, 64);
        for (int i = 0; i < 256; i++) src[i] = (unsigned char)(255 - i);
        plat_dma d[2];
        ck_assert_int_eq(plat_dma_start(&d[0], pe1, src, 256, PLAT_DMA_RING, FB_NIOS1, 1), PLAT_OK);
        ck_assert_int_eq(plat_dma_start(&d[1], ddr, src, 256, 0, 0, 0), PLAT_OK);
        ck_assert_int_eq(plat_dma_wait(&d[1], HARNESS_WAIT_NS), PLAT_OK);
        ck_assert_int_eq(plat_dma_test(&d[0]), PLAT_OK);
        int ok = 1;
        for (int i = 0; i < 256; i++) ok &= ddr[i] == 255 - i;
        r->ok_ddr = ok;
    } else if (me == FB_NIOS1) {
        ck_assert_uint_eq(plat_doorbell_wait(1, HARNESS_WAIT_NS), 1);
        int ok = 1;
        for (int i = 0; i < 256; i++) ok &= pe1[i] == 255 - i;
        r->ok_pe = ok;
    }
    harness_barrier();
}

START_TEST(address_translation)
{
    struct xlate r = {0};
    fb_run(NULL, xlate_core, &r);
    ck_assert(r.ok_pe);
    ck_assert(r.ok_ddr);
}
END_TEST

void fb_register_hpd(void)
{
    fb_add("hpd_one_tx_in_flight", one_tx_in_flight);
    fb_add("hpd_channel_landing", channel_landing);
    fb_add("hpd_irq_completion", irq_completion);
    fb_add("hpd_address_translation", address_translation);
}
