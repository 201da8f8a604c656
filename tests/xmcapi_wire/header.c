/* header.c -- XMCAPI frame headers: byte layout, round trips, every rule. */
#include "xw.h"

#include <string.h>

/* The layout of docs/xmcapi.md, byte for byte: a change of the wire format
 * must change this vector (and the version). */
START_TEST(golden_bytes)
{
    struct xw_header h = {.type = XW_MSG,
                          .priority = 5,
                          .port = 0x0102,
                          .src_domain = 0x0304,
                          .src_node = 0x0506,
                          .dst_domain = 0x0708,
                          .dst_node = 0x090A,
                          .qp = 0x0B0C0D0E,
                          .size = 0x0F101112};
    static const uint8_t want[XW_HEADER_SIZE] = {0x58, 0x4D, 0x02, 0x01, 0x00, 0x05, 0x01, 0x02,
                                                 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A,
                                                 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x10, 0x11, 0x12};
    uint8_t out[XW_HEADER_SIZE];
    ck_assert_int_eq(xw_encode(&h, out), XW_OK);
    for (int i = 0; i < XW_HEADER_SIZE; i++)
        ck_assert_msg(out[i] == want[i], "byte %d: 0x%02x, want 0x%02x", i, out[i], want[i]);
}
END_TEST

/* Every valid type/flags/size combination survives encode + decode. */
START_TEST(round_trip_every_type)
{
    static const struct xw_header hs[] = {
        {.type = XW_MSG, .size = 0},
        {.type = XW_MSG, .priority = 7, .size = 1024},
        {.type = XW_PKT, .size = 65536},
        {.type = XW_PKT, .size = 0},
        {.type = XW_SCALAR, .size = 1},
        {.type = XW_SCALAR, .size = 2},
        {.type = XW_SCALAR, .size = 4},
        {.type = XW_SCALAR, .size = 8},
        {.type = XW_CONNECT, .size = 16},
        {.type = XW_CONNECT, .flags = XW_F_ACK},
        {.type = XW_CONNECT, .flags = XW_F_ACK | XW_F_REFUSED, .size = 4},
        {.type = XW_OPEN},
        {.type = XW_OPEN, .flags = XW_F_ACK},
        {.type = XW_OPEN, .flags = XW_F_ACK | XW_F_REFUSED, .size = 4},
        {.type = XW_CLOSE},
        {.type = XW_CLOSE, .flags = XW_F_ACK},
        {.type = XW_ACK, .flags = XW_F_ACK | XW_F_STOP},
        {.type = XW_ACK, .flags = XW_F_ACK | XW_F_RESUME},
        {.type = XW_HELLO, .size = 8},
        {.type = XW_HELLO, .flags = XW_F_ACK},
        {.type = XW_HELLO, .flags = XW_F_ACK | XW_F_REFUSED, .size = 4},
        {.type = XW_GET, .port = 1023},
        {.type = XW_GET, .flags = XW_F_ACK | XW_F_REFUSED, .size = 4},
        {.type = XW_CREDIT, .port = 1023, .qp = 64},
        {.type = XW_RELEASE, .size = 2},
        {.type = XW_RELEASE, .flags = XW_F_ACK},
        {.type = XW_RELEASE, .flags = XW_F_ACK | XW_F_REFUSED, .size = 4},
        {.type = XW_DELETED, .size = 2},
        {.type = XW_DELETED, .flags = XW_F_ACK},
    };
    for (size_t i = 0; i < HARNESS_COUNT(hs); i++) {
        struct xw_header h = hs[i];
        h.port = (uint16_t)(i * 7 + 1);
        h.src_domain = 1;
        h.src_node = (uint16_t)i;
        h.dst_domain = 2;
        h.dst_node = (uint16_t)(100 + i);
        h.qp = (uint32_t)(i * 1000003u);
        uint8_t b[XW_HEADER_SIZE];
        ck_assert_msg(xw_encode(&h, b) == XW_OK, "case %zu", i);
        ck_assert_uint_eq(b[3], h.type);
        struct xw_header g;
        ck_assert_msg(xw_decode(b, XW_DEFAULT_LIMIT, &g) == XW_OK, "case %zu", i);
        ck_assert_msg(xw_same(&g, &h), "case %zu differs after the round trip", i);
    }
}
END_TEST

/* All-zero and all-ones field values, and a size exactly at the limit. */
START_TEST(round_trip_extremes)
{
    struct xw_header lo = {.type = XW_MSG}, hi = {.type = XW_MSG,
                                                  .priority = 255,
                                                  .port = 0xFFFF,
                                                  .src_domain = 0xFFFF,
                                                  .src_node = 0xFFFF,
                                                  .dst_domain = 0xFFFF,
                                                  .dst_node = 0xFFFF,
                                                  .qp = UINT32_MAX,
                                                  .size = UINT32_MAX};
    uint8_t b[XW_HEADER_SIZE];
    struct xw_header g;
    ck_assert_int_eq(xw_encode(&lo, b), XW_OK);
    ck_assert_int_eq(xw_decode(b, 0, &g), XW_OK);
    ck_assert(xw_same(&g, &lo));
    ck_assert_int_eq(xw_encode(&hi, b), XW_OK);
    for (int i = 5; i < XW_HEADER_SIZE; i++) ck_assert_uint_eq(b[i], 0xFF);
    ck_assert_int_eq(xw_decode(b, UINT32_MAX, &g), XW_OK);
    ck_assert(xw_same(&g, &hi));
    ck_assert_int_eq(xw_decode(b, UINT32_MAX - 1, &g), XW_ETOOBIG);
    hi.size = 1000;
    ck_assert_int_eq(xw_encode(&hi, b), XW_OK);
    ck_assert_int_eq(xw_decode(b, 1000, &g), XW_OK);
    ck_assert_int_eq(xw_decode(b, 999, &g), XW_ETOOBIG);
}
END_TEST

/* A valid header's bytes with byte i set to v, judged with limit 100. */
static int poke(const struct xw_header *h, int i, uint8_t v)
{
    uint8_t b[XW_HEADER_SIZE];
    ck_assert_int_eq(xw_encode(h, b), XW_OK);
    b[i] = v;
    struct xw_header g;
    return xw_decode(b, 100, &g);
}

START_TEST(bad_magic_version_type)
{
    struct xw_header m = {.type = XW_MSG, .size = 3};
    ck_assert_int_eq(poke(&m, 0, 'x'), XW_EMAGIC);
    ck_assert_int_eq(poke(&m, 1, 'm'), XW_EMAGIC);
    ck_assert_int_eq(poke(&m, 0, 0), XW_EMAGIC);
    ck_assert_int_eq(poke(&m, 2, 0), XW_EVERSION);
    ck_assert_int_eq(poke(&m, 2, XW_VERSION + 1), XW_EVERSION);
    ck_assert_int_eq(poke(&m, 2, 0xFF), XW_EVERSION);
    ck_assert_int_eq(poke(&m, 3, 0), XW_ETYPE);
    ck_assert_int_eq(poke(&m, 3, XW_TYPE_LAST + 1), XW_ETYPE);
    ck_assert_int_eq(poke(&m, 3, 0xFF), XW_ETYPE);
    /* Earlier rules win: bad magic with a bad type is bad magic. */
    uint8_t b[XW_HEADER_SIZE] = {0};
    struct xw_header g;
    ck_assert_int_eq(xw_decode(b, 100, &g), XW_EMAGIC);
    b[0] = XW_MAGIC0;
    b[1] = XW_MAGIC1;
    ck_assert_int_eq(xw_decode(b, 100, &g), XW_EVERSION);
    b[2] = XW_VERSION;
    ck_assert_int_eq(xw_decode(b, 100, &g), XW_ETYPE);
    b[3] = XW_MSG;
    ck_assert_int_eq(xw_decode(b, 100, &g), XW_OK);
    /* The fields are read even when refused (for a log line). */
    b[0] = 0;
    b[11] = 42;
    ck_assert_int_eq(xw_decode(b, 100, &g), XW_EMAGIC);
    ck_assert_uint_eq(g.src_node, 42);
}
END_TEST

START_TEST(reserved_bits)
{
    struct xw_header p = {.type = XW_PKT, .size = 10};
    for (int bit = 4; bit < 8; bit++)
        ck_assert_int_eq(poke(&p, 4, (uint8_t)(1u << bit)), XW_ERESERVED);
    ck_assert_int_eq(poke(&p, 5, 1), XW_ERESERVED); /* a priority on a packet */
    struct xw_header a = {.type = XW_ACK, .flags = XW_F_ACK | XW_F_STOP};
    ck_assert_int_eq(poke(&a, 5, 3), XW_ERESERVED);
    ck_assert_int_eq(poke(&a, 4, XW_F_ACK | XW_F_STOP | 0x80), XW_ERESERVED);
    struct xw_header m = {.type = XW_MSG};
    ck_assert_int_eq(poke(&m, 5, 255), XW_OK); /* any priority on a message */
}
END_TEST

START_TEST(inconsistent_flags)
{
    struct xw_header m = {.type = XW_MSG}, s = {.type = XW_SCALAR, .size = 4};
    ck_assert_int_eq(poke(&m, 4, XW_F_ACK), XW_EFLAGS);
    ck_assert_int_eq(poke(&m, 4, XW_F_STOP), XW_EFLAGS);
    ck_assert_int_eq(poke(&s, 4, XW_F_RESUME), XW_EFLAGS);
    ck_assert_int_eq(poke(&s, 4, XW_F_REFUSED), XW_EFLAGS);
    struct xw_header a = {.type = XW_ACK, .flags = XW_F_ACK | XW_F_STOP};
    ck_assert_int_eq(poke(&a, 4, XW_F_STOP), XW_EFLAGS); /* no ACK flag */
    ck_assert_int_eq(poke(&a, 4, XW_F_ACK), XW_EFLAGS);  /* neither stop nor resume */
    ck_assert_int_eq(poke(&a, 4, XW_F_ACK | XW_F_STOP | XW_F_RESUME), XW_EFLAGS);
    ck_assert_int_eq(poke(&a, 4, XW_F_ACK | XW_F_STOP | XW_F_REFUSED), XW_EFLAGS);
    struct xw_header c = {.type = XW_CONNECT, .size = 4};
    ck_assert_int_eq(poke(&c, 4, XW_F_STOP), XW_EFLAGS);
    ck_assert_int_eq(poke(&c, 4, XW_F_ACK | XW_F_RESUME), XW_EFLAGS);
    ck_assert_int_eq(poke(&c, 4, XW_F_REFUSED), XW_EFLAGS); /* a refusal is a reply */
    ck_assert_int_eq(poke(&c, 4, XW_F_ACK | XW_F_REFUSED), XW_OK);
    /* xw_encode refuses what the peer would refuse. */
    uint8_t b[XW_HEADER_SIZE] = {0};
    struct xw_header bad = {.type = XW_ACK, .flags = XW_F_ACK};
    ck_assert_int_eq(xw_encode(&bad, b), XW_EFLAGS);
    ck_assert_uint_eq(b[0], 0); /* untouched */
}
END_TEST

START_TEST(lengths_and_limit)
{
    struct xw_header a = {.type = XW_ACK, .flags = XW_F_ACK | XW_F_RESUME};
    uint8_t b[XW_HEADER_SIZE];
    struct xw_header g;
    a.size = 1;
    ck_assert_int_eq(xw_encode(&a, b), XW_ELENGTH);
    static const uint32_t bad_scalar[] = {0, 3, 5, 7, 16, 9, UINT32_MAX};
    for (size_t i = 0; i < HARNESS_COUNT(bad_scalar); i++) {
        struct xw_header s = {.type = XW_SCALAR, .size = 8};
        ck_assert_int_eq(xw_encode(&s, b), XW_OK);
        b[20] = (uint8_t)(bad_scalar[i] >> 24);
        b[21] = (uint8_t)(bad_scalar[i] >> 16);
        b[22] = (uint8_t)(bad_scalar[i] >> 8);
        b[23] = (uint8_t)bad_scalar[i];
        ck_assert_msg(xw_decode(b, UINT32_MAX, &g) == XW_ELENGTH, "scalar of %u bytes",
                      bad_scalar[i]);
    }
    struct xw_header r = {.type = XW_OPEN, .flags = XW_F_ACK | XW_F_REFUSED, .size = 0};
    ck_assert_int_eq(xw_encode(&r, b), XW_ELENGTH);
    r.size = 4;
    ck_assert_int_eq(xw_encode(&r, b), XW_OK);
    ck_assert_int_eq(xw_decode(b, 3, &g), XW_ETOOBIG);
    /* The type's rule comes before the limit: a 16-byte scalar is impossible,
     * not too big. */
    struct xw_header s = {.type = XW_SCALAR, .size = 8};
    ck_assert_int_eq(xw_encode(&s, b), XW_OK);
    b[23] = 16;
    ck_assert_int_eq(xw_decode(b, 4, &g), XW_ELENGTH);
    struct xw_header p = {.type = XW_PKT, .size = 101};
    ck_assert_int_eq(xw_encode(&p, b), XW_OK); /* no limit on the sending side */
    ck_assert_int_eq(xw_decode(b, 100, &g), XW_ETOOBIG);
    ck_assert_int_eq(xw_decode(b, 101, &g), XW_OK);
}
END_TEST

START_TEST(error_strings)
{
    const int codes[] = {XW_OK,        XW_EMAGIC, XW_EVERSION, XW_ETYPE,
                         XW_ERESERVED, XW_EFLAGS, XW_ELENGTH,  XW_ETOOBIG};
    for (size_t i = 0; i < HARNESS_COUNT(codes); i++) {
        ck_assert_str_ne(xw_strerror(codes[i]), "unknown");
        for (size_t j = 0; j < i; j++)
            ck_assert_str_ne(xw_strerror(codes[i]), xw_strerror(codes[j]));
    }
    ck_assert_str_eq(xw_strerror(-100), "unknown");
    ck_assert_str_eq(xw_strerror(1), "unknown");
}
END_TEST

void xw_header_cases(Suite *s)
{
    TCase *tc = harness_tcase(s, "header");
    tcase_add_test(tc, golden_bytes);
    tcase_add_test(tc, round_trip_every_type);
    tcase_add_test(tc, round_trip_extremes);
    tcase_add_test(tc, bad_magic_version_type);
    tcase_add_test(tc, reserved_bits);
    tcase_add_test(tc, inconsistent_flags);
    tcase_add_test(tc, lengths_and_limit);
    tcase_add_test(tc, error_strings);
}
