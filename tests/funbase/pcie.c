/* pcie.c -- the PC over PCIe: the single-word driver against the DMA mode. */
#include "oneway.h"

#include <math.h>
#include <stdio.h>

#define BIG 256 /* bytes: 64 32-bit words */

struct pcr {
    struct fb_oneway o;
    uint64_t load_ns;
    double ioctl_ns, latency_ns, start_ns;
    int ok_store;
};

static void pc_core(void *arg)
{
    struct pcr *r = arg;
    fb_oneway(&r->o);
    uint64_t *board = harness_board();
    if (plat_core() == FB_PC) {
        uint64_t t = plat_now_ns();
        (void)plat_load64(&board[10]); /* shared memory: the DDR, over the link */
        r->load_ns = plat_now_ns() - t;
        plat_store64(&board[11], 0x1234567890ull);
        r->ioctl_ns = fb_num("pc.ioctl_ns");
        r->latency_ns = fb_num("pcie.latency_ns");
        r->start_ns = fb_num("bridge.dma_start_ns");
    }
    harness_barrier();
    if (plat_core() == FB_NIOS0) r->ok_store = plat_load64(&board[11]) == 0x1234567890ull;
    harness_barrier();
}

static void pc_run(const char *driver, struct pcr *r)
{
    char s[64];
    snprintf(s, sizeof s, "pc.driver=%s", driver);
    r->o.nx = 3;
    r->o.x[0] = (struct fb_xfer){.from = FB_PC, .to = FB_NIOS1, .chan = 0, .n = 4};
    r->o.x[1] =
        (struct fb_xfer){.from = FB_PC, .to = FB_NIOS1, .chan = 1, .n = BIG, .at_ns = 200000};
    r->o.x[2] =
        (struct fb_xfer){.from = FB_NIOS1, .to = FB_PC, .chan = 0, .n = BIG, .at_ns = 400000};
    ck_assert(fb_run_child(FB_SETS(s), pc_core, r));
    for (int k = 0; k < 3; k++)
        ck_assert_msg(r->o.x[k].ok && r->o.x[k].len == r->o.x[k].n, "%s: transfer %d", driver, k);
}

START_TEST(word_vs_dma)
{
    struct pcr *page = harness_page(2 * sizeof *page);
    pc_run("word", &page[0]);
    pc_run("dma", &page[1]);
    const struct pcr *w = &page[0], *d = &page[1];
    double words = BIG / 4;
    /* The single-word driver: one ioctl and one posted write per word. */
    ck_assert_msg(w->o.x[1].fill_ns >= words * w->ioctl_ns &&
                      w->o.x[1].fill_ns <= words * (w->ioctl_ns + 100) + 2 * w->latency_ns,
                  "word mode, %d bytes: %llu ns", BIG, (unsigned long long)w->o.x[1].fill_ns);
    /* DMA: a descriptor, the start latency, a read of PC memory across the
     * link and back, then the block on HIBI. */
    ck_assert_msg(d->o.x[1].fill_ns >= d->start_ns + 2 * d->latency_ns,
                  "dma mode, %d bytes: %llu ns", BIG, (unsigned long long)d->o.x[1].fill_ns);
    ck_assert_uint_lt(d->o.x[1].fill_ns, w->o.x[1].fill_ns); /* a block: DMA wins */
    ck_assert_uint_lt(w->o.x[0].fill_ns, d->o.x[0].fill_ns); /* a word: the driver wins */
    /* Nios -> PC is the bridge writing PC memory in both modes. */
    ck_assert_msg(w->o.x[2].fill_ns >= w->latency_ns,
                  "nios->pc %llu ns (dma mode %llu), pc->nios %llu %llu / %llu %llu",
                  (unsigned long long)w->o.x[2].fill_ns, (unsigned long long)d->o.x[2].fill_ns,
                  (unsigned long long)w->o.x[0].fill_ns, (unsigned long long)w->o.x[1].fill_ns,
                  (unsigned long long)d->o.x[0].fill_ns, (unsigned long long)d->o.x[1].fill_ns);
    double dd = (double)w->o.x[2].fill_ns - (double)d->o.x[2].fill_ns;
    ck_assert_msg(fabs(dd) <= (FB_AGENTS - 1) * w->o.x[2].cycle_ns,
                  "nios->pc: %llu ns with the word driver, %llu ns with dma",
                  (unsigned long long)w->o.x[2].fill_ns, (unsigned long long)d->o.x[2].fill_ns);
    /* A 64-bit load of FPGA memory: two 32-bit reads, each an ioctl and a
     * round trip of the link. */
    ck_assert_uint_ge(w->load_ns, 2 * (w->ioctl_ns + 2 * w->latency_ns));
    ck_assert(w->ok_store);
}
END_TEST

void fb_register_pcie(void)
{
    fb_add("pcie_word_vs_dma", word_vs_dma);
}
