/*
 * mcapi_dct.c -- the FUNCAPI paper's virtual node: an 8x8 DCT block as MCAPI
 * node 1.
 *
 * FUNCAPI (REFERENCE.md, paper 000) makes a fixed-function IP block look like
 * an MCAPI node: the transport switches on the node id and hands the payload
 * to the block's driver instead of the DMA driver. Here the block is a
 * plat_accel device and the "hardware" is dct8x8() below, bound to it with
 * plat_accel_bind; the host declares node 1 as a virtual node with a route
 * (mcapi_param_t.routes, MCAPI_ROUTE_ACCEL) and then only speaks MCAPI.
 *
 * One role:
 *
 *   host  MCAPI node 0 of domain 1. Sends `blocks` pseudo-random 8x8 blocks
 *         (from `seed`, so every backend sees the same ones) as messages to
 *         <1, 1, port 0>. By the library's virtual-node protocol
 *         (docs/mcapi.md) the block's output comes back as a message to the
 *         sending endpoint. Each result is checked against dct8x8() run in
 *         software.
 *
 * Reports, with x = the number of blocks:
 *   dct_checksum        FNV-1a (32 bits) over every output coefficient, in
 *                       order: the same on every backend, or the data moved
 *                       wrongly somewhere.
 *   block_roundtrip_ns  mean time from send to received result per block.
 *
 * Block format (input and output alike): 64 int16_t in row-major order, in
 * host byte order: 128 bytes, well under MCAPI_MAX_MSG_SIZE.
 */
#include "../apps.h"

#include "ipcsim/plat.h"
#include "mcapi.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define N 8
#define BLOCK_BYTES (N * N * sizeof(int16_t))
#define DOMAIN 1
#define HOST_NODE 0
#define DCT_NODE 1
#define DCT_PORT 0
/* A lost reply fails the run after this long instead of hanging it (ms). */
#define TIMEOUT_MS 10000

/*
 * The DCT-II of JPEG (orthonormal): X[v][u] = sum_y sum_x C[v][y] C[u][x]
 * in[y][x], C[u][x] = c(u) cos((2x + 1) u pi / 16), c(0) = sqrt(1/8), c(u) =
 * 1/2 otherwise. Fixed point, so every backend and compiler gives the same
 * bits: COS[u][x] = round(4096 C[u][x]) (Q12), the separable row and column
 * passes in integers and one rounding at the end (2^24 = Q12 x Q12).
 */
static const int32_t COS[N][N] = {
    {1448, 1448, 1448, 1448, 1448, 1448, 1448, 1448},
    {2009, 1703, 1138, 400, -400, -1138, -1703, -2009},
    {1892, 784, -784, -1892, -1892, -784, 784, 1892},
    {1703, -400, -2009, -1138, 1138, 2009, 400, -1703},
    {1448, -1448, -1448, 1448, 1448, -1448, -1448, 1448},
    {1138, -2009, 400, 1703, -1703, -400, 2009, -1138},
    {784, -1892, 1892, -784, -784, 1892, -1892, 784},
    {400, -1138, 1703, -2009, 2009, -1703, 1138, -400},
};

/* Round v / 2^24 to the nearest integer, halves away from zero (shifting a
 * negative number right is implementation-defined in C). */
static int16_t descale(int64_t v)
{
    const int64_t half = (int64_t)1 << 23;
    return (int16_t)(v >= 0 ? (v + half) >> 24 : -((-v + half) >> 24));
}

static void dct(const int16_t in[N * N], int16_t out[N * N])
{
    int32_t rows[N][N]; /* rows[y][u]: each row transformed, Q12 */
    for (int y = 0; y < N; y++)
        for (int u = 0; u < N; u++) {
            int32_t s = 0;
            for (int x = 0; x < N; x++) s += COS[u][x] * in[y * N + x];
            rows[y][u] = s;
        }
    for (int v = 0; v < N; v++)
        for (int u = 0; u < N; u++) {
            int64_t s = 0;
            for (int y = 0; y < N; y++) s += (int64_t)COS[v][y] * rows[y][u];
            out[v * N + u] = descale(s);
        }
}

/* The accelerator's function (plat_accel_fn): one block in, its DCT out.
 * Returns the bytes written. */
static int dct8x8(void *ctx, const void *in, size_t in_len, void *out, size_t out_len)
{
    (void)ctx;
    if (in_len != BLOCK_BYTES || out_len < BLOCK_BYTES) return PLAT_EINVAL;
    int16_t a[N * N], b[N * N];
    memcpy(a, in, BLOCK_BYTES); /* the payload need not be aligned */
    dct(a, b);
    memcpy(out, b, BLOCK_BYTES);
    return (int)BLOCK_BYTES;
}

/* splitmix64 (Steele, Lea, Flood 2014): the app's own generator, because
 * the blocks must be the same on every backend whatever plat_random does. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Samples of an 8-bit image, level-shifted by -128 as JPEG does. */
static void make_block(uint64_t *state, int16_t block[N * N])
{
    for (int i = 0; i < N * N; i++) block[i] = (int16_t)((int)(next_random(state) & 0xff) - 128);
}

static uint32_t fnv1a(uint32_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 16777619u;
    return h;
}

/* "MCAPI_ERR_...: what" through app_fail; 0 when st is MCAPI_SUCCESS. */
static int failed(struct app_ctx *ctx, mcapi_status_t st, const char *what)
{
    if (st == MCAPI_SUCCESS) return 0;
    char name[MCAPI_MAX_STATUS_MSG_LEN];
    app_fail(ctx, "mcapi_dct: %s: %s", what, mcapi_display_status(st, name, sizeof name));
    return 1;
}

/* Send every block to the DCT node and check its answer. */
static void exchange(struct app_ctx *ctx, mcapi_endpoint_t me, mcapi_endpoint_t dct_ep, long blocks,
                     uint64_t seed)
{
    mcapi_status_t st;
    uint64_t state = seed, total_ns = 0;
    uint32_t sum = 2166136261u; /* FNV-1a offset basis */
    for (long k = 0; k < blocks; k++) {
        int16_t in[N * N], out[N * N], want[N * N];
        make_block(&state, in);
        memset(out, 0, sizeof out);
        size_t got = 0;
        uint64_t t0 = plat_now_ns();
        mcapi_msg_send(me, dct_ep, in, BLOCK_BYTES, 0, &st);
        if (failed(ctx, st, "mcapi_msg_send to the DCT node")) return;
        mcapi_msg_recv(me, out, sizeof out, &got, &st);
        if (failed(ctx, st, "mcapi_msg_recv of a DCT result")) return;
        total_ns += plat_now_ns() - t0;
        if (got != BLOCK_BYTES) {
            app_fail(ctx, "mcapi_dct: block %ld: the result has %zu bytes, not %zu", k, got,
                     BLOCK_BYTES);
            return;
        }
        dct(in, want);
        for (int i = 0; i < N * N; i++)
            if (out[i] != want[i]) {
                app_fail(ctx, "mcapi_dct: block %ld: coefficient (%d, %d) is %d, software says %d",
                         k, i / N, i % N, out[i], want[i]);
                return;
            }
        sum = fnv1a(sum, out, sizeof out);
    }
    char x[32];
    snprintf(x, sizeof x, "%ld", blocks);
    app_report(ctx, "dct_checksum", x, (double)sum, "fnv1a");
    app_report(ctx, "block_roundtrip_ns", x, (double)total_ns / (double)blocks, "ns");
}

static void host(struct app_ctx *ctx, long blocks, const char *device, uint64_t seed, bool dma)
{
    int rc = plat_accel_bind(device, dct8x8, NULL);
    if (rc != PLAT_OK) {
        app_fail(ctx, "mcapi_dct: plat_accel_bind(\"%s\"): %s", device, plat_strerror(rc));
        return;
    }
    /* The static mapping: node 1 is the DCT block, every other node a
     * regular one. Moving the DCT to software would mean deleting this line. */
    const struct mcapi_route routes[] = {
        {.domain = DOMAIN, .node = DCT_NODE, .kind = MCAPI_ROUTE_ACCEL, .device = device},
        /* The DMA transport's mapping also names the host's core (FUNCAPI). */
        {.domain = DOMAIN, .node = HOST_NODE, .kind = MCAPI_ROUTE_DMA, .core = plat_core()},
    };
    mcapi_param_t param = {MCAPI_PARAM_INITIALIZER, .shm_name = NULL, .routes = routes,
                           .nroutes = dma ? 2 : 1,
                           .transport = dma ? MCAPI_TRANSPORT_DMA : MCAPI_TRANSPORT_SHM};
    mcapi_info_t info;
    mcapi_status_t st;
    mcapi_initialize(DOMAIN, HOST_NODE, NULL, &param, &info, &st);
    if (failed(ctx, st, "mcapi_initialize")) goto unbind;

    mcapi_endpoint_t me = mcapi_endpoint_create(MCAPI_PORT_ANY, &st);
    if (failed(ctx, st, "mcapi_endpoint_create")) goto finalize;
    mcapi_endp_attr_timeout_t timeout = TIMEOUT_MS;
    mcapi_endpoint_set_attribute(me, MCAPI_ENDP_ATTR_TIMEOUT, &timeout, sizeof timeout, &st);
    if (failed(ctx, st, "mcapi_endpoint_set_attribute(MCAPI_ENDP_ATTR_TIMEOUT)")) goto finalize;
    mcapi_endpoint_t dct_ep = mcapi_endpoint_get(DOMAIN, DCT_NODE, DCT_PORT, TIMEOUT_MS, &st);
    if (failed(ctx, st, "mcapi_endpoint_get of the DCT node")) goto finalize;

    exchange(ctx, me, dct_ep, blocks, seed);
    mcapi_endpoint_release(dct_ep, &st);

finalize:
    mcapi_finalize(&st);
unbind:
    plat_accel_bind(device, NULL, NULL); /* natively bindings outlive the run */
}

static void run(struct app_ctx *ctx)
{
    const char *role = app_role(ctx);
    if (!role) return;
    long blocks = app_int(ctx, "blocks");
    long seed = app_int(ctx, "seed");
    const char *transport = app_str(ctx, "transport");
    bool dma = strcmp(transport, "dma") == 0;
    if (!dma && strcmp(transport, "shm") != 0) {
        app_fail(ctx, "mcapi_dct: transport must be shm or dma, not '%s'", transport);
        return;
    }
    host(ctx, blocks, app_str(ctx, "device"), (uint64_t)seed, dma);
}

static const char *const roles[] = {"host", NULL};

static const struct app_arg args[] = {
    {"blocks", APP_INT, "16", "8x8 blocks sent through the DCT node", 1, APPS_REPS_MAX, 0},
    {"device", APP_STR, "accel", "the platform's accelerator device that is MCAPI node 1", 0, 0, 0},
    /* Up to 2^53 - 1: every whole number the runner reads exactly. */
    {"seed", APP_INT, "1", "seed of the blocks' samples (the same blocks on every backend)", 0,
     9007199254740991.0, 0},
    {"transport", APP_STR, "shm", "MCAPI transport: shm (shared memory) or dma (FUNCAPI's)", 0, 0,
     0},
    APP_ARGS_END,
};

static const char *const series[] = {"dct_checksum", "block_roundtrip_ns", NULL};

const struct app app_mcapi_dct = {
    .name = "mcapi_dct",
    .summary = "FUNCAPI's virtual node: 8x8 DCT blocks through an accelerator as MCAPI node 1",
    .roles = roles,
    .args = args,
    .series = series,
    .run = run,
};
