/*
 * tests/common/mcx.h -- small MCAPI helpers shared by the transports' suites
 * (tests/mcapi_dma, tests/xmcapi): status names, waiting for a request,
 * opening a channel end, a byte pattern to fill and check buffers with.
 */
#ifndef IPCSIM_TESTS_MCX_H
#define IPCSIM_TESTS_MCX_H

#include "mcapi.h"

#include <stddef.h>

#define MCX_WAIT_MS 10000u /* a wait that must succeed */

/* The name of st; eight calls in a row may be used together. */
const char *mcx_name(mcapi_status_t st);
/* The final status of an _i call that returned st (waiting up to MCX_WAIT_MS;
 * a wait that expires fails the test). */
mcapi_status_t mcx_done(mcapi_request_t *r, mcapi_status_t st, size_t *size);
/* Open ep's end of its channel (scalar or packet, receive or send), waiting
 * for the other end's owner to open its own; fails the test otherwise. */
mcapi_uint32_t mcx_open(int scl, int recv, mcapi_endpoint_t ep);
/* Byte i of the pattern `seed`; mcx_bad returns the first wrong byte, n if none. */
void mcx_fill(void *p, size_t n, unsigned seed);
size_t mcx_bad(const void *p, size_t n, unsigned seed);

#endif
