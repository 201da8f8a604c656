/* stream.c -- the stream decoder: any chunking gives the frames sent, no
 * partial frame, no oversized payload buffered, sticky errors. */
#include "xw.h"

#include <stdlib.h>
#include <string.h>

#define NFRAMES 400
#define MAXP 3000 /* payload bytes at most in generated streams */

START_TEST(whole_stream_in_place)
{
    struct xw_stream s;
    xw_stream_make(&s, NFRAMES, MAXP, 11);
    size_t pending = 99;
    ck_assert_uint_eq(xw_feed(&s, s.len, MAXP, (long)s.len, 0, &pending), NFRAMES);
    ck_assert_uint_eq(pending, 0);
    /* Frames whole in the chunk are not copied: the payload is in the chunk. */
    struct xw_decoder d;
    ck_assert_int_eq(xw_decoder_init(&d, MAXP), 0);
    const uint8_t *p = s.bytes;
    size_t n = s.len;
    struct xw_frame f;
    for (size_t i = 0; i < NFRAMES; i++) {
        ck_assert_int_eq(xw_next(&d, &p, &n, &f), 1);
        if (f.h.size) ck_assert_ptr_eq(f.payload, s.bytes + s.at[i] + XW_HEADER_SIZE);
        ck_assert_ptr_eq(p, s.bytes + s.at[i] + XW_HEADER_SIZE + f.h.size);
    }
    ck_assert_int_eq(xw_next(&d, &p, &n, &f), 0);
    ck_assert_uint_eq(n, 0);
    xw_decoder_fini(&d);
    xw_stream_free(&s);
}
END_TEST

START_TEST(byte_at_a_time)
{
    struct xw_stream s;
    xw_stream_make(&s, NFRAMES, MAXP, 12);
    size_t pending = 99;
    ck_assert_uint_eq(xw_feed(&s, s.len, MAXP, 1, 0, &pending), NFRAMES);
    ck_assert_uint_eq(pending, 0);
    xw_stream_free(&s);
}
END_TEST

/* Fixed chunk sizes around the header size, then random ones (fixed seeds),
 * from tiny to several frames per chunk. */
START_TEST(random_chunks)
{
    struct xw_stream s;
    xw_stream_make(&s, NFRAMES, MAXP, 13);
    static const long fixed[] = {2, 3, 7, 23, 24, 25, 47, 48, 49, 4096};
    size_t pending = 99;
    for (size_t i = 0; i < HARNESS_COUNT(fixed); i++) {
        ck_assert_uint_eq(xw_feed(&s, s.len, MAXP, fixed[i], 0, &pending), NFRAMES);
        ck_assert_uint_eq(pending, 0);
    }
    static const long spans[] = {-5, -30, -100, -2 * MAXP, -20000};
    for (size_t i = 0; i < HARNESS_COUNT(spans); i++)
        for (uint64_t seed = 1; seed <= 8; seed++) {
            ck_assert_uint_eq(xw_feed(&s, s.len, MAXP, spans[i], seed, &pending), NFRAMES);
            ck_assert_uint_eq(pending, 0);
        }
    xw_stream_free(&s);
}
END_TEST

/* Payloads exactly at the limit, empty payloads, and a limit of 0. */
START_TEST(limit_edges)
{
    struct xw_decoder d;
    ck_assert_int_eq(xw_decoder_init(&d, 0), 0);
    uint8_t b[2 * XW_HEADER_SIZE];
    struct xw_header a = {.type = XW_ACK, .flags = XW_F_ACK | XW_F_STOP, .port = 9};
    struct xw_header m = {.type = XW_MSG, .port = 10};
    ck_assert_int_eq(xw_encode(&a, b), XW_OK);
    ck_assert_int_eq(xw_encode(&m, b + XW_HEADER_SIZE), XW_OK);
    struct xw_frame f;
    for (size_t i = 0; i < sizeof b; i++) { /* byte by byte: header split everywhere */
        const uint8_t *p = b + i;
        size_t n = 1;
        int rc = xw_next(&d, &p, &n, &f);
        ck_assert_int_eq(rc, i == XW_HEADER_SIZE - 1 || i == sizeof b - 1);
        if (rc) {
            ck_assert_uint_eq(f.h.port, i < XW_HEADER_SIZE ? 9 : 10);
            ck_assert_ptr_nonnull(f.payload);
        }
        ck_assert_int_eq(xw_next(&d, &p, &n, &f), 0);
    }
    xw_decoder_fini(&d);

    ck_assert_int_eq(xw_decoder_init(&d, 100), 0);
    uint8_t big[XW_HEADER_SIZE + 100];
    struct xw_header p100 = {.type = XW_PKT, .size = 100};
    ck_assert_int_eq(xw_encode(&p100, big), XW_OK);
    for (int i = 0; i < 100; i++) big[XW_HEADER_SIZE + i] = (uint8_t)i;
    const uint8_t *p = big;
    size_t n = 60; /* split: the payload is gathered in the decoder's buffer */
    ck_assert_int_eq(xw_next(&d, &p, &n, &f), 0);
    ck_assert_uint_eq(xw_pending(&d), 60);
    n = sizeof big - 60;
    ck_assert_int_eq(xw_next(&d, &p, &n, &f), 1);
    ck_assert_uint_eq(f.h.size, 100);
    for (int i = 0; i < 100; i++) ck_assert_uint_eq(f.payload[i], i);
    ck_assert_uint_eq(xw_pending(&d), 0);
    /* Empty chunks, even NULL ones, change nothing. */
    p = NULL;
    n = 0;
    ck_assert_int_eq(xw_next(&d, &p, &n, &f), 0);
    xw_decoder_fini(&d);
}
END_TEST

/* A stream cut anywhere inside its last frame gives every earlier frame and
 * nothing of the last, and says how much of it is held. */
START_TEST(truncated_stream)
{
    struct xw_stream s;
    xw_stream_make(&s, 6, 200, 14);
    size_t last = s.at[s.n - 1];
    ck_assert_uint_gt(s.len - last, XW_HEADER_SIZE); /* a payload to cut too */
    for (size_t cut = last; cut < s.len; cut++) {
        size_t pending = 99;
        ck_assert_uint_eq(xw_feed(&s, cut, 200, 1, 0, &pending), s.n - 1);
        ck_assert_uint_eq(pending, cut - last);
        ck_assert_uint_eq(xw_feed(&s, cut, 200, (long)cut, 0, &pending), s.n - 1);
        ck_assert_uint_eq(pending, cut - last);
        ck_assert_uint_eq(xw_feed(&s, cut, 200, -37, cut, &pending), s.n - 1);
        ck_assert_uint_eq(pending, cut - last);
    }
    size_t pending = 99;
    ck_assert_uint_eq(xw_feed(&s, s.len, 200, 1, 0, &pending), s.n);
    ck_assert_uint_eq(pending, 0);
    xw_stream_free(&s);
}
END_TEST

/* A header announcing more than the limit is refused the moment its 24th
 * byte arrives: nothing after it is consumed or buffered. */
START_TEST(oversized_refused_early)
{
    struct xw_decoder d;
    ck_assert_int_eq(xw_decoder_init(&d, 1000), 0);
    uint8_t b[XW_HEADER_SIZE + 16];
    memset(b, 0x77, sizeof b);
    struct xw_header h = {.type = XW_PKT, .size = 1001};
    ck_assert_int_eq(xw_encode(&h, b), XW_OK);
    struct xw_frame f;
    const uint8_t *p = b;
    size_t n = XW_HEADER_SIZE - 1;
    ck_assert_int_eq(xw_next(&d, &p, &n, &f), 0);
    n = 1 + 16; /* the last header byte and some payload */
    ck_assert_int_eq(xw_next(&d, &p, &n, &f), XW_ETOOBIG);
    ck_assert_ptr_eq(p, b + XW_HEADER_SIZE);
    ck_assert_uint_eq(n, 16);
    ck_assert_int_eq(xw_failed(&d), XW_ETOOBIG);
    xw_decoder_fini(&d);

    /* Whole in one chunk, with a 4 GB claim: the same. */
    ck_assert_int_eq(xw_decoder_init(&d, 1000), 0);
    h.size = UINT32_MAX;
    ck_assert_int_eq(xw_encode(&h, b), XW_OK);
    p = b;
    n = sizeof b;
    ck_assert_int_eq(xw_next(&d, &p, &n, &f), XW_ETOOBIG);
    ck_assert_uint_eq(n, 16);
    xw_decoder_fini(&d);
}
END_TEST

/* Each malformed header in the middle of a good stream stops the decoder at
 * that frame with its error, for any chunking, and for good. */
START_TEST(sticky_errors)
{
    struct xw_stream s;
    xw_stream_make(&s, 40, 100, 15);
    static const struct {
        int byte;
        uint8_t v;
        int err;
    } bad[] = {
        {0, 0, XW_EMAGIC},       {2, 9, XW_EVERSION},    {3, 0, XW_ETYPE},
        {4, 0x10, XW_ERESERVED}, {20, 0x80, XW_ETOOBIG},
    };
    /* A frame in the middle whose size may be anything up to the limit, so
     * a huge size is "too big" rather than "impossible for the type". */
    size_t k = 10;
    while (k < s.n && s.h[k].type != XW_PKT && s.h[k].type != XW_MSG) k++;
    ck_assert_uint_lt(k, s.n);
    const size_t at = s.at[k];
    uint8_t *good = malloc(s.len);
    ck_assert_ptr_nonnull(good);
    memcpy(good, s.bytes, s.len);
    for (size_t i = 0; i < HARNESS_COUNT(bad); i++)
        for (size_t chunk = 1; chunk <= s.len; chunk = chunk * 3 + 1) {
            memcpy(s.bytes, good, s.len);
            s.bytes[at + (size_t)bad[i].byte] = bad[i].v;
            struct xw_decoder d;
            ck_assert_int_eq(xw_decoder_init(&d, 100), 0);
            size_t frames = 0;
            int rc = 0;
            for (size_t off = 0; off < s.len && rc >= 0; off += chunk) {
                const uint8_t *p = s.bytes + off;
                size_t n = chunk < s.len - off ? chunk : s.len - off;
                struct xw_frame f;
                while ((rc = xw_next(&d, &p, &n, &f)) == 1) frames++;
            }
            ck_assert_msg(rc == bad[i].err, "case %zu chunk %zu: %s", i, chunk, xw_strerror(rc));
            ck_assert_uint_eq(frames, k);
            /* A good frame afterwards changes nothing and is not consumed. */
            const uint8_t *p = good;
            size_t n = s.len;
            struct xw_frame f;
            ck_assert_int_eq(xw_next(&d, &p, &n, &f), bad[i].err);
            ck_assert_ptr_eq(p, good);
            ck_assert_uint_eq(n, s.len);
            ck_assert_int_eq(xw_failed(&d), bad[i].err);
            xw_decoder_fini(&d);
        }
    free(good);
    xw_stream_free(&s);
}
END_TEST

/* fini then init gives a fresh decoder. */
START_TEST(reinit)
{
    struct xw_decoder d;
    ck_assert_int_eq(xw_decoder_init(&d, 10), 0);
    uint8_t junk[XW_HEADER_SIZE] = {0};
    const uint8_t *p = junk;
    size_t n = sizeof junk;
    struct xw_frame f;
    ck_assert_int_eq(xw_next(&d, &p, &n, &f), XW_EMAGIC);
    xw_decoder_fini(&d);
    ck_assert_int_eq(xw_decoder_init(&d, 10), 0);
    ck_assert_int_eq(xw_failed(&d), 0);
    struct xw_header h = {.type = XW_HELLO, .src_node = 3};
    ck_assert_int_eq(xw_encode(&h, junk), XW_OK);
    p = junk;
    n = sizeof junk;
    ck_assert_int_eq(xw_next(&d, &p, &n, &f), 1);
    ck_assert_uint_eq(f.h.src_node, 3);
    xw_decoder_fini(&d);
}
END_TEST

void xw_stream_cases(Suite *s)
{
    TCase *tc = harness_tcase(s, "stream");
    tcase_add_test(tc, whole_stream_in_place);
    tcase_add_test(tc, byte_at_a_time);
    tcase_add_test(tc, random_chunks);
    tcase_add_test(tc, limit_edges);
    tcase_add_test(tc, truncated_stream);
    tcase_add_test(tc, oversized_refused_early);
    tcase_add_test(tc, sticky_errors);
    tcase_add_test(tc, reinit);
}
