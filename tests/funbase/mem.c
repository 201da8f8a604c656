/* mem.c -- the MEM DMA: block transfers against word requests. */
#include "fb.h"

#include <string.h>

#define WORDS 128

struct memr {
    uint64_t blk_wr, word_wr, blk_rd, word_rd;
    double send, rd_lat, cycle_ns;
    int ok_blk, ok_word, ok_load;
};

static uint64_t since(uint64_t t)
{
    return plat_now_ns() - t;
}

static void mem_core(void *arg)
{
    struct memr *r = arg;
    if (plat_core() != FB_NIOS0) {
        harness_barrier();
        return;
    }
    size_t n = WORDS * 4;
    unsigned char *loc = plat_local_alloc(n, 64), *back = plat_local_alloc(n, 64);
    unsigned char *ddr = plat_shared_alloc(n, 64), *ddr2 = plat_shared_alloc(n, 64);
    ck_assert(loc && back && ddr && ddr2);
    for (size_t i = 0; i < n; i++) loc[i] = (unsigned char)(i * 3 + 1);
    plat_dma d;
    uint64_t t = plat_now_ns();
    ck_assert_int_eq(plat_dma_start(&d, ddr, loc, n, 0, 0, 0), PLAT_OK);
    ck_assert_int_eq(plat_dma_wait(&d, HARNESS_WAIT_NS), PLAT_OK);
    r->blk_wr = since(t);
    t = plat_now_ns();
    plat_copy(ddr2, loc, n); /* the core's own stores: one word request each */
    r->word_wr = since(t);
    t = plat_now_ns();
    ck_assert_int_eq(plat_dma_start(&d, back, ddr, n, 0, 0, 0), PLAT_OK);
    ck_assert_int_eq(plat_dma_wait(&d, HARNESS_WAIT_NS), PLAT_OK);
    r->blk_rd = since(t);
    r->ok_blk = memcmp(back, loc, n) == 0;

    memset(back, 0, n);
    t = plat_now_ns();
    plat_copy(back, ddr2, n);
    r->word_rd = since(t);
    r->ok_word = memcmp(back, loc, n) == 0;
    uint64_t w;
    memcpy(&w, loc + 8, 8);
    r->ok_load = plat_load64((const uint64_t *)(void *)(ddr2 + 8)) == w;
    r->send = fb_send_cycles();
    r->rd_lat = fb_num("memdma.read_latency_cycles");
    r->cycle_ns = fb_cycle_ns();
    harness_barrier();
}

START_TEST(block_vs_word)
{
    struct memr r = {0};
    fb_run(NULL, mem_core, &r);
    ck_assert_msg(r.ok_blk && r.ok_word && r.ok_load, "block %d word %d load %d", r.ok_blk,
                  r.ok_word, r.ok_load);
    double bw = r.blk_wr / r.cycle_ns, ww = r.word_wr / r.cycle_ns;
    double br = r.blk_rd / r.cycle_ns, wr = r.word_rd / r.cycle_ns;
    /* A word request pays HPD_SEND, an address and a data word; a block pays
     * them once plus the channel protocol, then one word per cycle. */
    ck_assert_msg(ww >= WORDS * (r.send + 2), "word writes: %.0f cycles", ww);
    ck_assert_msg(bw >= WORDS && bw < ww / 4, "block write %.0f vs words %.0f cycles", bw, ww);
    /* A word read also waits for the DDR and the answer's address and word. */
    ck_assert_msg(wr >= WORDS * (r.send + r.rd_lat + 4), "word reads: %.0f cycles", wr);
    ck_assert_msg(br >= WORDS + r.rd_lat && br < wr / 4, "block read %.0f vs words %.0f", br, wr);
}
END_TEST

void fb_register_mem(void)
{
    fb_add("memdma_block_vs_word", block_vs_word);
}
