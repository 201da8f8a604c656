/*
 * pingpong.c -- a bare DMA ping-pong: the "no API library" baseline.
 *
 * The FUNCAPI paper measures what its API costs on top of raw transfers; this
 * is the raw transfer, written against plat.h alone. Two roles:
 *
 *   ping  for every size n: fill n bytes with a pattern that changes every
 *         repetition, DMA them into pong's buffer ringing pong, wait for the
 *         echo's doorbell, check the echo byte for byte.
 *   pong  wait for the doorbell, DMA the n bytes back into ping's receive
 *         buffer ringing ping.
 *
 * A side that fails rings STOP so the other does not wait out its timeout.
 *
 * Ping's buffer has two halves, transmit and receive, so that an echo which
 * never arrived cannot pass the check by finding the transmitted bytes. The
 * two sides swap buffer addresses through a named shared region.
 *
 * Reports series roundtrip_ns: x = size in bytes, value = mean round trip
 * (DMA start to echo doorbell) over `reps`, after `warmup` untimed ones.
 */
#include "../apps.h"

#include "ipcsim/plat.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define BELL 1u /* the doorbell bit both directions ring */
#define STOP 2u /* "I failed, stop waiting for me": rung instead of BELL */
/* Long enough for any real transfer, short enough that a lost doorbell fails
 * the run instead of hanging it. */
#define TIMEOUT_NS 10000000000ull
#define NO_BUFFER UINT64_MAX /* published instead of an address: allocation failed */

enum { PING, PONG };

/* The rendezvous region: each side's buffer address (0 until published). */
struct rendezvous {
    uint64_t addr[2];
};

struct params {
    size_t nsizes;
    long reps, warmup;
    size_t max;
};

/* Sizes at most this: both sides' buffers (ping's twice the largest size)
 * still fit the ideal platform's 64 MiB shared memory. */
#define MAX_SIZE 16777216

/* The engine owns a started descriptor until the transfer completes: a side
 * that gives up must not return (and free d's stack slot) before that. In
 * simulation a transfer that never completes leaves this core waiting when
 * the run ends, its stack intact. */
static void settle(plat_dma *d)
{
    (void)plat_dma_wait(d, PLAT_FOREVER);
}

/* The argument rules (args[] below) hold: the runner checked them. */
static void read_params(struct app_ctx *ctx, struct params *p)
{
    p->nsizes = app_list_len(ctx, "sizes");
    p->reps = app_int(ctx, "reps");
    p->warmup = app_int(ctx, "warmup");
    p->max = 0;
    for (size_t i = 0; i < p->nsizes; i++) {
        size_t n = (size_t)app_list_num(ctx, "sizes", i);
        if (n > p->max) p->max = n;
    }
}

static unsigned char pattern(size_t i, long rep, size_t size_index)
{
    return (unsigned char)(i * 131u + (size_t)rep * 7u + size_index * 13u + 1u);
}

static void *alloc_buffer(size_t size, int *local)
{
    void *b = plat_local_alloc(size, 64);
    *local = b != NULL;
    return b ? b : plat_shared_alloc(size, 64);
}

/* Publish our buffer (or NO_BUFFER) and get the peer's; NULL when there is
 * none (the side that failed to allocate reports it). */
static unsigned char *swap_addresses(struct app_ctx *ctx, struct rendezvous *rv, int me,
                                     const void *mine)
{
    plat_store64(&rv->addr[me], mine ? (uint64_t)(uintptr_t)mine : NO_BUFFER);
    if (plat_poll64(&rv->addr[!me], 0, TIMEOUT_NS) != PLAT_OK) {
        app_fail(ctx, "pingpong: the other side never published its buffer");
        return NULL;
    }
    uint64_t a = plat_load64(&rv->addr[!me]);
    return a == NO_BUFFER || !mine ? NULL : (unsigned char *)(uintptr_t)a;
}

/* 0 done, -1 failed (reported), 1 stopped by pong. */
static int ping(struct app_ctx *ctx, const struct params *p, unsigned char *buf,
                unsigned char *peer, int peer_core)
{
    unsigned char *tx = buf, *rx = buf + p->max;
    for (size_t s = 0; s < p->nsizes; s++) {
        size_t n = (size_t)app_list_num(ctx, "sizes", s);
        uint64_t total = 0;
        for (long rep = 0; rep < p->warmup + p->reps; rep++) {
            for (size_t i = 0; i < n; i++) tx[i] = pattern(i, rep, s);
            memset(rx, 0, n); /* plain stores: no simulated time */
            plat_dma d;
            uint64_t t0 = plat_now_ns();
            int st = plat_dma_start(&d, peer, tx, n, PLAT_DMA_RING, peer_core, BELL);
            if (st != PLAT_OK) {
                app_fail(ctx, "pingpong: plat_dma_start: %s", plat_strerror(st));
                return -1;
            }
            uint32_t bits = plat_doorbell_wait(BELL | STOP, TIMEOUT_NS);
            if (!bits) app_fail(ctx, "pingpong: no echo for %zu bytes (repetition %ld)", n, rep);
            if (!bits || (bits & STOP)) {
                settle(&d);
                return bits ? 1 : -1; /* STOP: pong failed and said why */
            }
            uint64_t t1 = plat_now_ns();
            if (plat_dma_wait(&d, TIMEOUT_NS) != PLAT_OK) {
                app_fail(ctx, "pingpong: the outgoing DMA never completed");
                settle(&d);
                return -1;
            }
            if (rep >= p->warmup) total += t1 - t0;
            for (size_t i = 0; i < n; i++)
                if (rx[i] != pattern(i, rep, s)) {
                    app_fail(ctx, "pingpong: echo of %zu bytes differs at byte %zu: %u, sent %u", n,
                             i, (unsigned)rx[i], (unsigned)pattern(i, rep, s));
                    return -1;
                }
        }
        char x[32];
        snprintf(x, sizeof x, "%zu", n);
        app_report(ctx, "roundtrip_ns", x, (double)total / (double)p->reps, "ns");
    }
    return 0;
}

/* 0 done, -1 failed (reported), 1 stopped by ping. */
static int pong(struct app_ctx *ctx, const struct params *p, unsigned char *buf,
                unsigned char *peer, int peer_core)
{
    unsigned char *peer_rx = peer + p->max;
    for (size_t s = 0; s < p->nsizes; s++) {
        size_t n = (size_t)app_list_num(ctx, "sizes", s);
        for (long rep = 0; rep < p->warmup + p->reps; rep++) {
            uint32_t bits = plat_doorbell_wait(BELL | STOP, TIMEOUT_NS);
            if (bits & STOP) return 1; /* ping failed and said why */
            if (!bits) {
                app_fail(ctx, "pingpong: nothing arrived for %zu bytes (repetition %ld)", n, rep);
                return -1;
            }
            plat_dma d;
            int st = plat_dma_start(&d, peer_rx, buf, n, PLAT_DMA_RING, peer_core, BELL);
            if (st == PLAT_OK) {
                st = plat_dma_wait(&d, TIMEOUT_NS);
                if (st != PLAT_OK) settle(&d);
            }
            if (st != PLAT_OK) {
                app_fail(ctx, "pingpong: echo DMA: %s", plat_strerror(st));
                return -1;
            }
        }
    }
    return 0;
}

static void run(struct app_ctx *ctx)
{
    const char *role = app_role(ctx);
    if (!role) return;
    int me = strcmp(role, "ping") == 0 ? PING : PONG;
    struct params p;
    read_params(ctx, &p);
    int peer_core = app_core_of(ctx, me == PING ? "pong" : "ping");

    int st = PLAT_OK;
    struct rendezvous *rv = plat_shared_map("ipcsim.pingpong", sizeof *rv, NULL, &st);
    if (!rv) {
        app_fail(ctx, "pingpong: plat_shared_map: %s", plat_strerror(st));
        return;
    }
    int local = 0;
    size_t size = me == PING ? 2 * p.max : p.max; /* ping: transmit + receive halves */
    unsigned char *buf = alloc_buffer(size, &local);
    if (!buf) app_fail(ctx, "pingpong: no memory for a %zu-byte buffer", size);
    unsigned char *peer = swap_addresses(ctx, rv, me, buf);
    if (buf && peer) {
        int rc =
            me == PING ? ping(ctx, &p, buf, peer, peer_core) : pong(ctx, &p, buf, peer, peer_core);
        if (rc < 0) plat_doorbell_ring(peer_core, STOP);
    }
    if (buf && local)
        plat_local_free(buf);
    else if (buf)
        plat_shared_free(buf);
    plat_shared_unmap(rv);
}

static const char *const roles[] = {"ping", "pong", NULL};

static const struct app_arg args[] = {
    {"sizes", APP_INT_LIST, "[4, 16, 64, 256, 1024, 4096, 16384, 65536]",
     "message sizes in bytes, in the order they are measured", 1, MAX_SIZE, 0},
    {"reps", APP_INT, "100", "timed round trips per size", 1, APPS_REPS_MAX, 0},
    {"warmup", APP_INT, "10", "untimed round trips per size before the timed ones", 0,
     APPS_REPS_MAX, 0},
    APP_ARGS_END,
};

static const char *const series[] = {"roundtrip_ns", NULL};

const struct app app_pingpong = {
    .name = "pingpong",
    .summary = "bare DMA ping-pong between two cores (plat.h only: the no-API baseline)",
    .roles = roles,
    .args = args,
    .series = series,
    .run = run,
};
