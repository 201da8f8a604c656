/*
 * fuzz/gen_corpus.c -- writes the seed corpus of fuzz/xw_decoder.c into the
 * directory given (`make fuzz-corpus` regenerates fuzz/corpus/xw_decoder/).
 * Each seed is: chunking seed byte, limit selector byte (7: 64 KB), stream.
 * Seeds: every frame type alone, a mixed stream, streams cut inside a
 * header and inside a payload, and one malformed header per error code.
 */
#include "../xmcapi/wire.h"

#include <stdio.h>
#include <string.h>

static uint8_t buf[1 << 16];
static size_t len;

static void start(uint8_t chunk_seed, uint8_t limit_sel)
{
    buf[0] = chunk_seed;
    buf[1] = limit_sel;
    len = 2;
}

/* Append a frame with a payload of h.size bytes counting up from 0. */
static void frame(struct xw_header h)
{
    if (xw_encode(&h, buf + len) != XW_OK) {
        fprintf(stderr, "gen_corpus: invalid header type %u\n", h.type);
        return;
    }
    len += XW_HEADER_SIZE;
    for (uint32_t i = 0; i < h.size; i++) buf[len++] = (uint8_t)i;
}

static int save(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(buf, 1, len, f) != len || fclose(f) != 0) {
        perror(path);
        return 1;
    }
    return 0;
}

static const struct xw_header msg = {.type = XW_MSG,
                                     .priority = 3,
                                     .port = 5,
                                     .src_domain = 1,
                                     .src_node = 0,
                                     .dst_domain = 1,
                                     .dst_node = 1,
                                     .size = 16};

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    const char *dir = argv[1];
    int bad = 0;
    static const struct {
        const char *name;
        struct xw_header h;
    } one[] = {
        {"msg", msg},
        {"pkt", {.type = XW_PKT, .port = 2, .qp = 7, .size = 100}},
        {"scalar", {.type = XW_SCALAR, .qp = 7, .size = 8}},
        {"connect", {.type = XW_CONNECT, .qp = 7, .size = 12}},
        {"connect-refused", {.type = XW_CONNECT, .flags = XW_F_ACK | XW_F_REFUSED, .size = 4}},
        {"open-ack", {.type = XW_OPEN, .flags = XW_F_ACK, .qp = 7}},
        {"close", {.type = XW_CLOSE, .qp = 7}},
        {"ack-stop", {.type = XW_ACK, .flags = XW_F_ACK | XW_F_STOP, .port = 5}},
        {"ack-resume", {.type = XW_ACK, .flags = XW_F_ACK | XW_F_RESUME, .port = 5}},
        {"hello", {.type = XW_HELLO, .src_domain = 1, .src_node = 3}},
        {"get", {.type = XW_GET, .port = 7, .dst_node = 1}},
        {"get-now", {.type = XW_GET, .port = 7, .dst_node = 1, .qp = 9, .size = 1}},
        {"credit", {.type = XW_CREDIT, .port = 7, .qp = 32}},
        {"release", {.type = XW_RELEASE, .port = 7, .qp = 9, .size = 2}},
        {"deleted", {.type = XW_DELETED, .port = 7, .size = 2}},
        {"deleted-ack", {.type = XW_DELETED, .flags = XW_F_ACK}},
    };
    for (size_t i = 0; i < sizeof one / sizeof one[0]; i++) {
        start((uint8_t)i, 7);
        frame(one[i].h);
        bad |= save(dir, one[i].name);
    }

    /* All of them back to back, chunked several ways. */
    for (uint8_t seed = 0; seed < 3; seed++) {
        start(seed * 37, 7);
        for (size_t i = 0; i < sizeof one / sizeof one[0]; i++) frame(one[i].h);
        char name[32];
        snprintf(name, sizeof name, "mixed-%u", seed);
        bad |= save(dir, name);
    }

    /* Cut inside the second header, and inside the second payload. */
    start(1, 7);
    frame(msg);
    frame(msg);
    size_t whole = len;
    len = whole - msg.size - 10;
    bad |= save(dir, "cut-header");
    len = whole - 5;
    bad |= save(dir, "cut-payload");

    /* A payload at the limit (100, selector 5), then one over it. */
    start(2, 5);
    struct xw_header p = {.type = XW_PKT, .size = 100};
    frame(p);
    p.size = 101;
    frame(p);
    bad |= save(dir, "limit-edge");

    /* One malformed header after a good frame, per error code. */
    static const struct {
        const char *name;
        int byte;
        uint8_t v;
    } poke[] = {
        {"bad-magic", 0, 'x'},     {"bad-version", 2, 2},       {"bad-type", 3, 9},
        {"bad-reserved", 4, 0x40}, {"bad-flags", 4, XW_F_STOP}, {"bad-length", 23, 17},
    };
    for (size_t i = 0; i < sizeof poke / sizeof poke[0]; i++) {
        start(3, 7);
        frame(msg);
        size_t at = len;
        struct xw_header s = {.type = XW_SCALAR, .size = 4};
        frame(s);
        buf[at + (size_t)poke[i].byte] = poke[i].v;
        bad |= save(dir, poke[i].name);
    }
    return bad;
}
