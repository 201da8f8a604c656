/* mcapi.c -- mcapi_ref runs on funbase: the DMA transport (FUNCAPI's) on all
 * three cores, the shared-memory transport between the two Nios. */
#include "fb.h"
#include "mcapi.h"

#include <string.h>

#define DOMAIN 1
#define PORT 1
#define WAIT_MS 100u

struct mres {
    uint32_t got[3];
};

static void init(bool dma)
{
    struct mcapi_route r[3];
    for (int c = 0; c < 3; c++)
        r[c] = (struct mcapi_route){DOMAIN, (mca_node_t)c, MCAPI_ROUTE_DMA, NULL, c};
    mcapi_param_t p = {MCAPI_PARAM_INITIALIZER, .routes = dma ? r : NULL, .nroutes = dma ? 3 : 0,
                       .transport = dma ? MCAPI_TRANSPORT_DMA : MCAPI_TRANSPORT_SHM};
    mcapi_info_t info;
    mcapi_status_t st = 0;
    mcapi_initialize(DOMAIN, (mcapi_node_t)plat_core(), NULL, &p, &info, &st);
    ck_assert_int_eq(st, MCAPI_SUCCESS);
}

/* A message around: pc -> nios1 -> nios0 -> pc (DMA) or nios0 -> nios1 (shm). */
static void ring(struct mres *r, bool dma)
{
    int me = plat_core();
    mcapi_status_t st = 0;
    mcapi_endpoint_t ep = mcapi_endpoint_create(PORT, &st);
    ck_assert_int_eq(st, MCAPI_SUCCESS);
    int next = dma ? (me + 2) % 3 : 1; /* 2 -> 1 -> 0 -> 2 */
    mcapi_endpoint_t to = mcapi_endpoint_get(DOMAIN, (mcapi_node_t)next, PORT, WAIT_MS * 100, &st);
    ck_assert_int_eq(st, MCAPI_SUCCESS);
    uint32_t word = 0xF00D0000u + (uint32_t)me;
    char buf[64];
    size_t n = 0;
    bool starts = dma ? me == FB_PC : me == FB_NIOS0;
    if (starts) {
        mcapi_msg_send(ep, to, &word, sizeof word, 0, &st);
        ck_assert_int_eq(st, MCAPI_SUCCESS);
    }
    if (dma || me == FB_NIOS1) {
        mcapi_msg_recv(ep, buf, sizeof buf, &n, &st);
        ck_assert_int_eq(st, MCAPI_SUCCESS);
        ck_assert_uint_eq(n, sizeof word);
        memcpy(&r->got[me], buf, sizeof word);
    }
    if (dma && !starts) {
        mcapi_msg_send(ep, to, buf, n, 0, &st);
        ck_assert_int_eq(st, MCAPI_SUCCESS);
    }
    harness_barrier();
    mcapi_finalize(&st);
    ck_assert_int_eq(st, MCAPI_SUCCESS);
}

static void dma_core(void *arg)
{
    init(true);
    ring(arg, true);
}

static void shm_core(void *arg)
{
    if (plat_core() != FB_PC) init(false);
    if (plat_core() != FB_PC) {
        ring(arg, false);
    } else {
        harness_barrier();
    }
}

START_TEST(dma_transport)
{
    struct mres r = {{0}};
    fb_run(NULL, dma_core, &r);
    for (int c = 0; c < 3; c++) ck_assert_uint_eq(r.got[c], 0xF00D0000u + FB_PC);
}
END_TEST

START_TEST(dma_transport_dma_driver)
{
    struct mres r = {{0}};
    fb_run(FB_SETS("pc.driver=dma"), dma_core, &r);
    for (int c = 0; c < 3; c++) ck_assert_uint_eq(r.got[c], 0xF00D0000u + FB_PC);
}
END_TEST

START_TEST(shm_transport)
{
    struct mres r = {{0}};
    fb_run(NULL, shm_core, &r);
    ck_assert_uint_eq(r.got[FB_NIOS1], 0xF00D0000u + FB_NIOS0);
}
END_TEST

void fb_register_mcapi(void)
{
    fb_add("mcapi_dma_transport", dma_transport);
    fb_add("mcapi_dma_transport_dma_driver", dma_transport_dma_driver);
    fb_add("mcapi_shm_transport", shm_transport);
}
