/*
 * tests/xmcapi_wire/xw.h -- shared by the wire format's cases: header
 * comparison, a seeded generator of valid frame streams, and a checker that
 * drives a decoder over such a stream in chunks.
 */
#ifndef IPCSIM_TESTS_XW_H
#define IPCSIM_TESTS_XW_H

#include "harness.h"

#include "../../xmcapi/wire.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* xorshift64*: the same numbers on every host, for a seed != 0. */
uint64_t xw_rand(uint64_t *state);

bool xw_same(const struct xw_header *a, const struct xw_header *b);

/* n valid frames of random types, fields and sizes (payloads up to max_size
 * bytes, scalars and replies as their rules say), back to back in bytes. */
struct xw_stream {
    uint8_t *bytes;
    size_t len;
    size_t n;
    struct xw_header *h; /* n headers */
    size_t *at;          /* n offsets of each frame in bytes */
};
void xw_stream_make(struct xw_stream *s, size_t n, uint32_t max_size, uint64_t seed);
void xw_stream_free(struct xw_stream *s);

/* Feed s->bytes[0..upto) to a fresh decoder (payload limit `limit`) in
 * chunks: of `chunk` bytes, or of random sizes 1..-chunk if chunk < 0
 * (seeded with seed). Each chunk is a fresh copy that is scribbled over after
 * use, so a frame handed out in place must be used before the next call.
 * Asserts that the frames come out exactly as generated, in order, and
 * returns how many came out; *pending gets xw_pending at the end. */
size_t xw_feed(const struct xw_stream *s, size_t upto, uint32_t limit, long chunk, uint64_t seed,
               size_t *pending);

void xw_header_cases(Suite *s);
void xw_stream_cases(Suite *s);

#endif
