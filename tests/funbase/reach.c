/* reach.c -- what a PE DMA masters, what a Nios copy costs, and the DMA
 * transport staging a send through its TX buffer. */
#include "fb.h"
#include "mcapi.h"

#include <math.h>
#include <string.h>

#define DOMAIN 1
#define PORT 1
#define N 512 /* bytes of the staged message: 128 words */

static uint8_t data_mem[2][N]; /* a Nios's data memory: not the DPRAM */

struct rres {
    bool reach_local, reach_data, pc_reach_data;
    double copy_cycles, want_copy;
    double send_local, send_staged; /* cycles of mcapi_msg_send */
    bool got_local, got_staged;
};

static void reach_core(void *arg)
{
    struct rres *r = arg;
    int me = plat_core();
    if (me == FB_PC) {
        r->pc_reach_data = plat_dma_reach(data_mem[0], N);
        return;
    }
    if (me != FB_NIOS0) return;
    uint8_t *a = plat_local_alloc(N, 64), *b = plat_local_alloc(N, 64);
    ck_assert(a && b);
    r->reach_local = plat_dma_reach(a, N);
    r->reach_data = plat_dma_reach(data_mem[0], N);
    uint64_t t0 = plat_now_ns();
    plat_copy(b, a, N);
    r->copy_cycles = fb_cycles(plat_now_ns() - t0);
    r->want_copy = 2.0 * N / fb_num("core.bus_bytes"); /* a load and a store per word */
    plat_local_free(a);
    plat_local_free(b);
}

START_TEST(dma_reach_and_copy)
{
    struct rres r = {0};
    fb_run(NULL, reach_core, &r);
    ck_assert(r.reach_local);
    ck_assert(!r.reach_data); /* the HPD masters its DPRAM only */
    ck_assert(r.pc_reach_data);
    ck_assert_msg(fabs(r.copy_cycles - r.want_copy) <= 2,
                  "copy of %d bytes: %.1f cycles, want %.0f", N, r.copy_cycles, r.want_copy);
}
END_TEST

/* nios0 sends N bytes to nios1 twice, from its DPRAM and from its data
 * memory; nios1 has each receive posted in advance. The staged send costs
 * the Nios's copy into the TX buffer on top. */
static void staged_core(void *arg)
{
    struct rres *r = arg;
    int me = plat_core();
    if (me == FB_PC) { /* no node: it only keeps the barriers' count */
        for (int i = 0; i < 4; i++) harness_barrier();
        return;
    }
    struct mcapi_route rt[2];
    for (int c = 0; c < 2; c++)
        rt[c] = (struct mcapi_route){DOMAIN, (mca_node_t)c, MCAPI_ROUTE_DMA, NULL, c};
    mcapi_param_t p = {MCAPI_PARAM_INITIALIZER, .routes = rt, .nroutes = 2,
                       .transport = MCAPI_TRANSPORT_DMA};
    mcapi_info_t info;
    mcapi_status_t st = 0;
    mcapi_initialize(DOMAIN, (mcapi_node_t)me, NULL, &p, &info, &st);
    ck_assert_int_eq(st, MCAPI_SUCCESS);
    mcapi_endpoint_t ep = mcapi_endpoint_create(PORT, &st);
    ck_assert_int_eq(st, MCAPI_SUCCESS);
    uint8_t *local = plat_local_alloc(N, 64);
    ck_assert_ptr_nonnull(local);
    for (int k = 0; k < 2; k++) {
        if (me == FB_NIOS1) {
            mcapi_request_t q;
            memset(local, 0, N);
            mcapi_msg_recv_i(ep, local, N, &q, &st);
            ck_assert_int_eq(st, MCAPI_PENDING);
            harness_barrier(); /* posted */
            size_t n = 0;
            mcapi_status_t w = 0;
            ck_assert(mcapi_wait(&q, &n, 1000, &w));
            ck_assert_int_eq(w, MCAPI_SUCCESS);
            bool ok = n == N;
            for (size_t i = 0; i < N && ok; i++) ok = local[i] == (uint8_t)(i * 7 + k);
            *(k ? &r->got_staged : &r->got_local) = ok;
        } else {
            mcapi_endpoint_t to = mcapi_endpoint_get(DOMAIN, 1, PORT, 1000, &st);
            ck_assert_int_eq(st, MCAPI_SUCCESS);
            uint8_t *src = k ? data_mem[1] : local;
            for (size_t i = 0; i < N; i++) src[i] = (uint8_t)(i * 7 + k);
            harness_barrier();
            plat_sleep_ns(1000);
            uint64_t t0 = plat_now_ns();
            mcapi_msg_send(ep, to, src, N, 0, &st);
            ck_assert_int_eq(st, MCAPI_SUCCESS);
            *(k ? &r->send_staged : &r->send_local) = fb_cycles(plat_now_ns() - t0);
        }
        harness_barrier();
    }
    plat_local_free(local);
    mcapi_finalize(&st);
    ck_assert_int_eq(st, MCAPI_SUCCESS);
}

START_TEST(dma_transport_stages)
{
    struct rres r = {0};
    fb_run(NULL, staged_core, &r);
    ck_assert(r.got_local && r.got_staged);
    double extra = r.send_staged - r.send_local, copy = 2.0 * N / 4;
    ck_assert_msg(extra >= copy - (FB_AGENTS - 1) && extra <= copy + 2 * FB_AGENTS,
                  "staged send: %.1f cycles more than from the DPRAM, the copy is %.0f", extra,
                  copy);
}
END_TEST

void fb_register_reach(void)
{
    fb_add("dma_reach_and_copy", dma_reach_and_copy);
    fb_add("dma_transport_stages", dma_transport_stages);
}
