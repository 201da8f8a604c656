/*
 * fuzz/xw_decoder.c -- libFuzzer harness for the XMCAPI header decoder and
 * stream decoder (xmcapi/wire.h). `make fuzz` builds and runs it.
 *
 * Input: byte 0 seeds the chunking, byte 1 picks the payload limit, the rest
 * is the byte stream a peer sent. Beyond the sanitizers' checks it asserts:
 *   - header: encode(decode(b)) == b for every accepted header; a refused
 *     one is refused by xw_encode for the same rule (bar the receiver-only
 *     rules: magic, version, limit); the limit changes only XW_ETOOBIG;
 *   - stream: decoding the stream as one chunk yields frames that tile it
 *     exactly (header bytes re-encode identically, payload in place), and
 *     byte-at-a-time and randomly chunked feeding give the same frames, the
 *     same final status and the same pending count. Each chunk is its own
 *     heap block, so ASan sees any read past a chunk.
 */
#include "../xmcapi/wire.h"

#include <stdlib.h>
#include <string.h>

#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c)) __builtin_trap();                                                                \
    } while (0)

static const uint32_t limits[8] = {0, 1, 4, 8, 24, 100, 1000, XW_DEFAULT_LIMIT};

static void check_header(const uint8_t *b, uint32_t limit)
{
    struct xw_header h;
    uint8_t out[XW_HEADER_SIZE];
    int e = xw_decode(b, limit, &h);
    struct xw_header h2;
    int e2 = xw_decode(b, UINT32_MAX, &h2);
    CHECK(e2 == (e == XW_ETOOBIG ? XW_OK : e));
    if (e == XW_EMAGIC || e == XW_EVERSION) {
        uint8_t fixed[XW_HEADER_SIZE];
        memcpy(fixed, b, sizeof fixed);
        fixed[0] = XW_MAGIC0;
        fixed[1] = XW_MAGIC1;
        fixed[2] = XW_VERSION;
        e = xw_decode(fixed, limit, &h);
        CHECK(e != XW_EMAGIC && e != XW_EVERSION);
        int ee = xw_encode(&h, out);
        CHECK(ee == (e == XW_ETOOBIG ? XW_OK : e));
        if (ee == XW_OK) CHECK(memcmp(out, fixed, sizeof out) == 0);
        return;
    }
    int ee = xw_encode(&h, out);
    CHECK(ee == (e == XW_ETOOBIG ? XW_OK : e));
    if (ee == XW_OK) CHECK(memcmp(out, b, sizeof out) == 0);
}

struct ref {
    size_t nframes;
    size_t *off; /* where frame i starts in the stream */
    int rc;
    size_t pending;
};

/* The stream in one chunk: frames tile it from the start. */
static void reference(struct xw_decoder *d, const uint8_t *s, size_t n, struct ref *r)
{
    const uint8_t *p = s;
    size_t len = n, at = 0;
    struct xw_frame f;
    int rc;
    while ((rc = xw_next(d, &p, &len, &f)) == 1) {
        CHECK(at + XW_HEADER_SIZE + f.h.size <= n);
        uint8_t out[XW_HEADER_SIZE];
        CHECK(xw_encode(&f.h, out) == XW_OK);
        CHECK(memcmp(out, s + at, sizeof out) == 0);
        CHECK(f.payload != NULL);
        if (f.h.size) CHECK(f.payload == s + at + XW_HEADER_SIZE);
        r->off[r->nframes++] = at;
        at += XW_HEADER_SIZE + f.h.size;
        CHECK(p == s + at);
    }
    CHECK(rc <= 0);
    if (rc == 0) {
        CHECK(len == 0);
        CHECK(xw_pending(d) == n - at);
    }
    r->rc = rc;
    r->pending = xw_pending(d);
    CHECK(xw_failed(d) == (rc < 0 ? rc : 0));
}

/* The same stream in chunks of 1 (seed 0) or of random sizes. */
static void chunked(struct xw_decoder *d, const uint8_t *s, size_t n, uint64_t seed,
                    const struct ref *r)
{
    uint64_t x = seed | 1;
    size_t got = 0;
    int rc = 0;
    for (size_t off = 0; off < n && rc == 0;) {
        size_t c = 1;
        if (seed) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            c = 1 + (size_t)(x % 64);
        }
        if (c > n - off) c = n - off;
        uint8_t *chunk = malloc(c);
        CHECK(chunk != NULL);
        memcpy(chunk, s + off, c);
        const uint8_t *p = chunk;
        size_t len = c;
        struct xw_frame f;
        while ((rc = xw_next(d, &p, &len, &f)) == 1) {
            CHECK(got < r->nframes);
            const uint8_t *want = s + r->off[got];
            uint8_t out[XW_HEADER_SIZE];
            CHECK(xw_encode(&f.h, out) == XW_OK);
            CHECK(memcmp(out, want, sizeof out) == 0);
            CHECK(memcmp(f.payload, want + XW_HEADER_SIZE, f.h.size) == 0);
            got++;
        }
        free(chunk);
        off += c;
    }
    CHECK(got == r->nframes);
    CHECK(rc == r->rc);
    CHECK(xw_pending(d) == r->pending);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    uint64_t seed = data[0];
    uint32_t limit = limits[data[1] & 7];
    const uint8_t *s = data + 2;
    size_t n = size - 2;
    if (n >= XW_HEADER_SIZE) check_header(s, limit);

    struct ref r = {0};
    r.off = malloc((n / XW_HEADER_SIZE + 1) * sizeof *r.off);
    CHECK(r.off != NULL);
    struct xw_decoder d;
    CHECK(xw_decoder_init(&d, limit) == 0);
    reference(&d, s, n, &r);
    xw_decoder_fini(&d);

    CHECK(xw_decoder_init(&d, limit) == 0);
    chunked(&d, s, n, 0, &r);
    xw_decoder_fini(&d);
    CHECK(xw_decoder_init(&d, limit) == 0);
    chunked(&d, s, n, seed + 1, &r);
    xw_decoder_fini(&d);
    free(r.off);
    return 0;
}
