/* tests/common/mcx.c -- MCAPI helpers of the transports' suites (mcx.h). */
#include "mcx.h"

#include "harness.h"

#include <stdint.h>

const char *mcx_name(mcapi_status_t st)
{
    static char buf[8][MCAPI_MAX_STATUS_MSG_LEN];
    static unsigned k;
    char *b = buf[k++ % 8];
    return mcapi_display_status(st, b, sizeof buf[0]);
}

mcapi_status_t mcx_done(mcapi_request_t *r, mcapi_status_t st, size_t *size)
{
    if (st != MCAPI_SUCCESS && st != MCAPI_PENDING) return st;
    size_t n = 0;
    mcapi_status_t w = 0;
    mcapi_boolean_t ok = mcapi_wait(r, &n, MCX_WAIT_MS, &w);
    ck_assert_msg(ok == MCAPI_TRUE, "wait: %s", mcx_name(w));
    if (size) *size = n;
    return w;
}

mcapi_uint32_t mcx_open(int scl, int recv, mcapi_endpoint_t ep)
{
    mcapi_uint32_t h = 0;
    mcapi_request_t r;
    mcapi_status_t st = 0;
    if (scl && recv)
        mcapi_sclchan_recv_open_i(&h, ep, &r, &st);
    else if (scl)
        mcapi_sclchan_send_open_i(&h, ep, &r, &st);
    else if (recv)
        mcapi_pktchan_recv_open_i(&h, ep, &r, &st);
    else
        mcapi_pktchan_send_open_i(&h, ep, &r, &st);
    st = mcx_done(&r, st, NULL);
    ck_assert_msg(st == MCAPI_SUCCESS, "open %s %s: %s", scl ? "scalar" : "packet",
                  recv ? "receive" : "send", mcx_name(st));
    return h;
}

void mcx_fill(void *p, size_t n, unsigned seed)
{
    uint8_t *b = p;
    for (size_t i = 0; i < n; i++) b[i] = (uint8_t)(seed * 131u + i * 7u + (i >> 8));
}

size_t mcx_bad(const void *p, size_t n, unsigned seed)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != (uint8_t)(seed * 131u + i * 7u + (i >> 8))) return i;
    return n;
}
