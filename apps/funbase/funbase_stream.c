/*
 * funbase_stream.c -- one-way packet streams for the throughput apps: over
 * an MCAPI packet channel, and the same bytes with the DMA driver alone.
 *
 * Both ways the sender has one transfer in flight (a blocking send returns
 * when the bytes are written at the receiver) and the receiver has one
 * buffer posted on its channel at a time, the next posted as soon as it
 * takes a full one: the difference between the two series is what MCAPI
 * adds (calls, checks, credits on the control channel), the paper's
 * "without MCAPI the throughput would be 8 % and 2 % higher".
 *
 * Every packet carries its sequence number in its first word and a pattern
 * after it; the receiver checks every byte (plain loads: no simulated time).
 */
#include "funbase_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TIMEOUT_NS (FB_TIMEOUT_MS * 1000000ull)

static unsigned char pattern(size_t i, uint32_t seq)
{
    return (unsigned char)(i * 131u + seq * 7u + 1u);
}

static void fill(unsigned char *p, size_t n, uint32_t seq)
{
    for (size_t i = 0; i < n; i++) p[i] = pattern(i, seq);
    if (n >= sizeof seq) memcpy(p, &seq, sizeof seq);
}

static bool check(struct fb *f, const unsigned char *p, size_t n, size_t want, uint32_t seq)
{
    if (n != want) {
        app_fail(f->ctx, "%s: packet %u has %zu bytes, not %zu", f->app, (unsigned)seq, n, want);
        return false;
    }
    size_t from = 0;
    if (n >= sizeof seq) {
        uint32_t got;
        memcpy(&got, p, sizeof got);
        if (got != seq) {
            app_fail(f->ctx, "%s: packet %u arrived where %u was due (%zu bytes)", f->app,
                     (unsigned)got, (unsigned)seq, n);
            return false;
        }
        from = sizeof seq;
    }
    for (size_t i = from; i < n; i++)
        if (p[i] != pattern(i, seq)) {
            app_fail(f->ctx, "%s: packet %u of %zu bytes differs at byte %zu", f->app,
                     (unsigned)seq, n, i);
            return false;
        }
    return true;
}

static void report(struct fb *f, const char *series, size_t size, long packets, uint64_t t0,
                   uint64_t t1)
{
    char x[32];
    snprintf(x, sizeof x, "%zu", size);
    double ns = (double)(t1 > t0 ? t1 - t0 : 1);
    app_report(f->ctx, series, x, (double)size * (double)packets / ns * 1000.0, "MB/s");
}

bool fb_stream_params(struct fb *f, struct fb_stream *s)
{
    struct app_ctx *ctx = f->ctx;
    s->nsizes = app_list_len(ctx, "sizes");
    s->packets = app_int(ctx, "packets");
    s->warmup = app_int(ctx, "warmup");
    s->max = 0;
    long depth = app_int(ctx, "depth");
    s->depth = (unsigned)depth;
    const char *in = app_str(ctx, "packets_in");
    s->data = strcmp(in, "data") == 0;
    const char *bad = NULL;
    /* The ranges of sizes, packets, warmup and depth are the arguments'
     * rules (FB_STREAM_ARGS and each app's table): the runner checked them. */
    if (!s->data && strcmp(in, "local") != 0) bad = "packets_in must be local or data";
    f->pkt_depth = s->depth;
    for (size_t i = 0; i < s->nsizes; i++) {
        size_t n = (size_t)app_list_num(ctx, "sizes", i);
        if (n > s->max) s->max = n;
    }
    if (bad && f->node == 0) app_fail(ctx, "%s: %s", f->app, bad);
    return !bad;
}

static size_t size_at(struct fb *f, size_t i)
{
    return (size_t)app_list_num(f->ctx, "sizes", i);
}

/* ---- over MCAPI ------------------------------------------------------- */

/* The sender's packet buffer: local memory, or the core's data memory. */
static bool packet_buf(struct fb *f, const struct fb_stream *s, struct fb_buf *b)
{
    if (!s->data) return fb_alloc(f, b, s->max);
    b->local = false;
    if (!(b->p = calloc(1, s->max))) app_fail(f->ctx, "%s: no memory for a packet", f->app);
    return b->p != NULL;
}

static bool pkt_tx(struct fb *f, const struct fb_stream *s, int rx, mcapi_port_t port)
{
    struct fb_buf buf = {0};
    if (!packet_buf(f, s, &buf)) return false;
    bool ok = false;
    mcapi_status_t st = MCAPI_SUCCESS;
    mcapi_request_t r;
    mcapi_pktchan_send_hndl_t h;
    mcapi_endpoint_t ep = fb_endpoint(f, port), peer;
    mcapi_endp_attr_max_payload_size_t max = (mcapi_endp_attr_max_payload_size_t)s->max;
    uint32_t word = 0;
    if (ep == MCAPI_NULL) goto out;
    mcapi_endpoint_set_attribute(ep, MCAPI_ENDP_ATTR_MAX_PAYLOAD_SIZE, &max, sizeof max, &st);
    if (fb_failed(f, st, "mcapi_endpoint_set_attribute(MAX_PAYLOAD_SIZE)")) goto out;
    if (!fb_hear(f, &word)) goto out; /* rx's end exists, with its attributes */
    if ((peer = fb_remote(f, rx, port)) == MCAPI_NULL) goto out;
    mcapi_pktchan_connect_i(ep, peer, &r, &st);
    if (fb_failed_i(f, st, "mcapi_pktchan_connect_i") || !fb_wait(f, &r, NULL, "connect")) goto out;
    mcapi_pktchan_send_open_i(&h, ep, &r, &st);
    if (fb_failed_i(f, st, "mcapi_pktchan_send_open_i") || !fb_wait(f, &r, NULL, "open")) goto out;
    uint32_t seq = 0;
    for (size_t k = 0; k < s->nsizes; k++) {
        size_t n = size_at(f, k);
        for (long i = 0; i < s->warmup + s->packets; i++, seq++) {
            fill(buf.p, n, seq);
            mcapi_pktchan_send(h, buf.p, n, &st);
            if (fb_failed(f, st, "mcapi_pktchan_send")) goto out;
        }
    }
    mcapi_pktchan_send_close_i(h, &r, &st);
    ok = !fb_failed_i(f, st, "mcapi_pktchan_send_close_i") && fb_wait(f, &r, NULL, "close");
out:
    fb_free(&buf);
    return ok;
}

static bool pkt_rx(struct fb *f, const struct fb_stream *s, int tx, mcapi_port_t port,
                   const char *series)
{
    mcapi_status_t st = MCAPI_SUCCESS;
    mcapi_request_t r;
    mcapi_pktchan_recv_hndl_t h;
    mcapi_endpoint_t ep = fb_endpoint(f, port);
    mcapi_endp_attr_max_payload_size_t max = (mcapi_endp_attr_max_payload_size_t)s->max;
    if (ep == MCAPI_NULL) return false;
    mcapi_endpoint_set_attribute(ep, MCAPI_ENDP_ATTR_MAX_PAYLOAD_SIZE, &max, sizeof max, &st);
    if (fb_failed(f, st, "mcapi_endpoint_set_attribute(MAX_PAYLOAD_SIZE)")) return false;
    mcapi_pktchan_recv_open_i(&h, ep, &r, &st);
    if (fb_failed_i(f, st, "mcapi_pktchan_recv_open_i")) return false;
    if (!fb_tell(f, tx, 1) || !fb_wait(f, &r, NULL, "open")) return false;
    uint32_t seq = 0;
    for (size_t k = 0; k < s->nsizes; k++) {
        size_t n = size_at(f, k);
        uint64_t t0 = 0;
        for (long i = 0; i < s->warmup + s->packets; i++, seq++) {
            void *p = NULL;
            size_t got = 0;
            mcapi_pktchan_recv(h, &p, &got, &st);
            if (fb_failed(f, st, "mcapi_pktchan_recv")) return false;
            if (i + 1 == s->warmup) t0 = plat_now_ns();
            if (i + 1 == s->warmup + s->packets)
                report(f, series, n, s->packets, t0, plat_now_ns());
            bool ok = check(f, p, got, n, seq);
            mcapi_pktchan_release(p, &st);
            if (!ok || fb_failed(f, st, "mcapi_pktchan_release")) return false;
        }
    }
    /* The end: tx's close reaches us as a receive that finds the channel
     * closed; then close ours (it sends nothing: the sender is gone). */
    void *p = NULL;
    size_t got = 0;
    mcapi_pktchan_recv(h, &p, &got, &st);
    if (st != MCAPI_ERR_CHAN_NOTOPEN) {
        app_fail(f->ctx, "%s: the packet channel did not end after the last packet (%d)", f->app,
                 (int)st);
        return false;
    }
    mcapi_pktchan_recv_close_i(h, &r, &st);
    return !fb_failed_i(f, st, "mcapi_pktchan_recv_close_i") && fb_wait(f, &r, NULL, "close");
}

bool fb_pkt_stream(struct fb *f, const struct fb_stream *s, int tx, int rx, mcapi_port_t port,
                   const char *series)
{
    if (f->node == tx) return pkt_tx(f, s, rx, port);
    if (f->node == rx) return pkt_rx(f, s, tx, port, series);
    return true;
}

/* ---- the driver alone ------------------------------------------------- */

/* Wait for one of the receiver's acks on channel chan; repost if more come. */
static int ack_take(unsigned chan, void *word, bool more)
{
    size_t len = 0;
    int st = plat_rx_wait(chan, &len, TIMEOUT_NS);
    if (st == PLAT_OK && more) st = plat_rx_post(chan, word, sizeof(uint32_t), 0);
    return st;
}

/* As FUNCAPI's driver: a packet the engine cannot read is copied into the
 * TX buffer (local memory) first; one transfer in flight, so the next copy
 * never overwrites bytes the engine still reads. HIBI has no end-to-end
 * flow control: the receiver acks each packet on our channel chan once its
 * next buffer is armed, and we have at most s->depth packets unacked. */
static bool bare_tx(struct fb *f, const struct fb_stream *s, int rx, unsigned chan)
{
    struct fb_buf buf = {0}, tx = {0}, ack = {0};
    if (!packet_buf(f, s, &buf)) return false;
    if ((s->data && !fb_alloc(f, &tx, s->max)) || !fb_alloc(f, &ack, sizeof(uint32_t)) ||
        plat_rx_post(chan, ack.p, sizeof(uint32_t), 0) != PLAT_OK) {
        app_fail(f->ctx, "%s: bare stream: no TX or ack buffer", f->app);
        fb_free(&buf);
        fb_free(&tx);
        fb_free(&ack);
        return false;
    }
    long total = (long)s->nsizes * (s->warmup + s->packets), acked = 0, sent = 0;
    uint32_t seq = 0;
    for (size_t k = 0; k < s->nsizes; k++) {
        size_t n = size_at(f, k);
        for (long i = 0; i < s->warmup + s->packets; i++, seq++) {
            if (sent - acked == (long)s->depth) {
                int st = ack_take(chan, ack.p, ++acked < total);
                if (st != PLAT_OK) {
                    app_fail(f->ctx, "%s: bare stream: ack: %s", f->app, plat_strerror(st));
                    goto fail;
                }
            }
            fill(buf.p, n, seq);
            const void *src = buf.p;
            if (!plat_dma_reach(src, n)) {
                plat_copy(tx.p, src, n);
                src = tx.p;
            }
            plat_dma d;
            int st = plat_dma_send(&d, f->core[rx], chan, src, n);
            if (st == PLAT_OK) st = plat_dma_wait(&d, TIMEOUT_NS);
            if (st != PLAT_OK) {
                app_fail(f->ctx, "%s: bare stream: plat_dma_send: %s", f->app, plat_strerror(st));
                goto fail;
            }
            sent++;
        }
    }
    while (acked < total) {
        int st = ack_take(chan, ack.p, ++acked < total);
        if (st != PLAT_OK) {
            app_fail(f->ctx, "%s: bare stream: ack: %s", f->app, plat_strerror(st));
            goto fail;
        }
    }
    fb_free(&buf);
    fb_free(&tx);
    fb_free(&ack);
    return true;
fail:
    (void)plat_rx_cancel(chan);
    fb_free(&buf);
    fb_free(&tx);
    fb_free(&ack);
    return false;
}

static bool bare_rx(struct fb *f, const struct fb_stream *s, int tx, unsigned chan,
                    const char *series)
{
    struct fb_buf buf = {0}, ack = {0};
    if (!fb_alloc(f, &buf, FB_STREAM_DEPTH * s->max)) return false;
    if (!fb_alloc(f, &ack, sizeof(uint32_t))) {
        fb_free(&buf);
        return false;
    }
    unsigned char *mem = buf.p;
    long total = (long)s->nsizes * (s->warmup + s->packets);
    unsigned next = 0;
    int st = plat_rx_post(chan, mem, s->max, 0);
    uint32_t seq = 0;
    for (size_t k = 0; k < s->nsizes && st == PLAT_OK; k++) {
        size_t n = size_at(f, k);
        uint64_t t0 = 0;
        for (long i = 0; i < s->warmup + s->packets; i++, seq++) {
            size_t got = 0;
            if ((st = plat_rx_wait(chan, &got, TIMEOUT_NS)) != PLAT_OK) break;
            unsigned char *full = mem + (size_t)next * s->max;
            next = (next + 1) % FB_STREAM_DEPTH;
            if ((long)seq + 1 < total &&
                (st = plat_rx_post(chan, mem + (size_t)next * s->max, s->max, 0)) != PLAT_OK)
                break;
            plat_dma d; /* the ack: the next buffer is armed */
            if ((st = plat_dma_send(&d, f->core[tx], chan, ack.p, sizeof(uint32_t))) != PLAT_OK ||
                (st = plat_dma_wait(&d, TIMEOUT_NS)) != PLAT_OK)
                break;
            if (i + 1 == s->warmup) t0 = plat_now_ns();
            if (i + 1 == s->warmup + s->packets)
                report(f, series, n, s->packets, t0, plat_now_ns());
            if (!check(f, full, got, n, seq)) {
                fb_free(&buf);
                fb_free(&ack);
                return false;
            }
        }
    }
    if (st != PLAT_OK)
        app_fail(f->ctx, "%s: bare stream: receive channel %u: %s", f->app, chan,
                 plat_strerror(st));
    fb_free(&buf);
    fb_free(&ack);
    return st == PLAT_OK;
}

bool fb_bare_stream(struct fb *f, const struct fb_stream *s, int tx, int rx, unsigned chan,
                    const char *series)
{
    if (f->node == tx) return bare_tx(f, s, rx, chan);
    if (f->node == rx) return bare_rx(f, s, tx, chan, series);
    return true;
}
