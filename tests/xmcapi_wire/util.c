/* util.c -- frame stream generator and chunked feeding for the cases. */
#include "xw.h"

#include <stdlib.h>
#include <string.h>

uint64_t xw_rand(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1Dull;
}

bool xw_same(const struct xw_header *a, const struct xw_header *b)
{
    return a->type == b->type && a->flags == b->flags && a->priority == b->priority &&
           a->port == b->port && a->src_domain == b->src_domain && a->src_node == b->src_node &&
           a->dst_domain == b->dst_domain && a->dst_node == b->dst_node && a->qp == b->qp &&
           a->size == b->size;
}

/* A random valid header with a payload of at most max_size bytes. */
static struct xw_header random_header(uint64_t *r, uint32_t max_size)
{
    struct xw_header h = {0};
    h.type = (uint8_t)(XW_MSG + xw_rand(r) % XW_TYPE_LAST);
    h.port = (uint16_t)xw_rand(r);
    h.src_domain = (uint16_t)(xw_rand(r) % 4);
    h.src_node = (uint16_t)xw_rand(r);
    h.dst_domain = (uint16_t)(xw_rand(r) % 4);
    h.dst_node = (uint16_t)xw_rand(r);
    h.qp = (uint32_t)xw_rand(r);
    /* Mostly small payloads, now and then up to the maximum: a frame split
     * anywhere needs both. */
    uint32_t cap = xw_rand(r) % 8 ? (max_size < 64 ? max_size : 64) : max_size;
    h.size = (uint32_t)(xw_rand(r) % ((uint64_t)cap + 1));
    switch (h.type) {
    case XW_MSG:
        h.priority = (uint8_t)(xw_rand(r) % 8);
        break;
    case XW_SCALAR:
        h.size = 1u << (xw_rand(r) % 4);
        break;
    case XW_ACK:
        h.flags = XW_F_ACK | (xw_rand(r) % 2 ? XW_F_STOP : XW_F_RESUME);
        h.size = 0;
        break;
    case XW_PKT:
        break;
    default:
        switch (xw_rand(r) % 3) {
        case 1:
            h.flags = XW_F_ACK;
            break;
        case 2:
            h.flags = XW_F_ACK | XW_F_REFUSED;
            h.size = 4;
            break;
        default:
            break;
        }
    }
    return h;
}

void xw_stream_make(struct xw_stream *s, size_t n, uint32_t max_size, uint64_t seed)
{
    uint64_t r = seed;
    s->n = n;
    s->h = calloc(n ? n : 1, sizeof *s->h);
    s->at = calloc(n ? n : 1, sizeof *s->at);
    ck_assert(s->h && s->at);
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        s->h[i] = random_header(&r, max_size);
        s->at[i] = len;
        len += XW_HEADER_SIZE + s->h[i].size;
    }
    s->len = len;
    s->bytes = malloc(len ? len : 1);
    ck_assert_ptr_nonnull(s->bytes);
    for (size_t i = 0; i < n; i++) {
        uint8_t *p = s->bytes + s->at[i];
        ck_assert_int_eq(xw_encode(&s->h[i], p), XW_OK);
        for (uint32_t k = 0; k < s->h[i].size; k++) p[XW_HEADER_SIZE + k] = (uint8_t)xw_rand(&r);
    }
}

void xw_stream_free(struct xw_stream *s)
{
    free(s->bytes);
    free(s->h);
    free(s->at);
    memset(s, 0, sizeof *s);
}

size_t xw_feed(const struct xw_stream *s, size_t upto, uint32_t limit, long chunk, uint64_t seed,
               size_t *pending)
{
    struct xw_decoder d;
    ck_assert_int_eq(xw_decoder_init(&d, limit), 0);
    uint64_t r = seed;
    size_t maxc = (size_t)(chunk < 0 ? -chunk : chunk);
    uint8_t *copy = malloc(maxc ? maxc : 1);
    ck_assert_ptr_nonnull(copy);
    size_t got = 0;
    for (size_t off = 0; off < upto;) {
        size_t c = chunk < 0 ? 1 + xw_rand(&r) % maxc : maxc;
        if (c > upto - off) c = upto - off;
        memcpy(copy, s->bytes + off, c);
        const uint8_t *p = copy;
        size_t n = c;
        struct xw_frame f;
        int rc;
        while ((rc = xw_next(&d, &p, &n, &f)) == 1) {
            ck_assert_msg(got < s->n, "more frames than sent");
            ck_assert_msg(xw_same(&f.h, &s->h[got]), "frame %zu: header differs", got);
            ck_assert_ptr_nonnull(f.payload);
            ck_assert_msg(memcmp(f.payload, s->bytes + s->at[got] + XW_HEADER_SIZE, f.h.size) == 0,
                          "frame %zu: payload differs", got);
            got++;
        }
        ck_assert_msg(rc == 0, "xw_next: %s", xw_strerror(rc));
        ck_assert_uint_eq(n, 0); /* 0 means the chunk is used up */
        memset(copy, 0xA5, c);   /* the caller reuses its chunk */
        off += c;
    }
    *pending = xw_pending(&d);
    ck_assert_int_eq(xw_failed(&d), 0);
    free(copy);
    xw_decoder_fini(&d);
    return got;
}
