/* mt.c -- helpers shared by the MCAPI conformance cases. */
#include "mt.h"

#include <stdio.h>

const char *mt_name(mcapi_status_t st)
{
    /* Symbolic, so the table does not depend on the enum's numbering. */
#define MT_NAME(s)                                                                                 \
    case s:                                                                                        \
        return #s;
    switch (st) {
        MT_NAME(MCAPI_SUCCESS)
        MT_NAME(MCAPI_PENDING)
        MT_NAME(MCAPI_TIMEOUT)
        MT_NAME(MCAPI_ERR_PARAMETER)
        MT_NAME(MCAPI_ERR_DOMAIN_INVALID)
        MT_NAME(MCAPI_ERR_NODE_INVALID)
        MT_NAME(MCAPI_ERR_NODE_INITFAILED)
        MT_NAME(MCAPI_ERR_NODE_INITIALIZED)
        MT_NAME(MCAPI_ERR_NODE_NOTINIT)
        MT_NAME(MCAPI_ERR_NODE_FINALFAILED)
        MT_NAME(MCAPI_ERR_PORT_INVALID)
        MT_NAME(MCAPI_ERR_ENDP_INVALID)
        MT_NAME(MCAPI_ERR_ENDP_EXISTS)
        MT_NAME(MCAPI_ERR_ENDP_GET_LIMIT)
        MT_NAME(MCAPI_ERR_ENDP_DELETED)
        MT_NAME(MCAPI_ERR_ENDP_NOTOWNER)
        MT_NAME(MCAPI_ERR_ENDP_REMOTE)
        MT_NAME(MCAPI_ERR_ATTR_INCOMPATIBLE)
        MT_NAME(MCAPI_ERR_ATTR_SIZE)
        MT_NAME(MCAPI_ERR_ATTR_NUM)
        MT_NAME(MCAPI_ERR_ATTR_VALUE)
        MT_NAME(MCAPI_ERR_ATTR_NOTSUPPORTED)
        MT_NAME(MCAPI_ERR_ATTR_READONLY)
        MT_NAME(MCAPI_ERR_MSG_SIZE)
        MT_NAME(MCAPI_ERR_MSG_TRUNCATED)
        MT_NAME(MCAPI_ERR_CHAN_OPEN)
        MT_NAME(MCAPI_ERR_CHAN_TYPE)
        MT_NAME(MCAPI_ERR_CHAN_DIRECTION)
        MT_NAME(MCAPI_ERR_CHAN_CONNECTED)
        MT_NAME(MCAPI_ERR_CHAN_OPENPENDING)
        MT_NAME(MCAPI_ERR_CHAN_CLOSEPENDING)
        MT_NAME(MCAPI_ERR_CHAN_NOTOPEN)
        MT_NAME(MCAPI_ERR_CHAN_INVALID)
        MT_NAME(MCAPI_ERR_PKT_SIZE)
        MT_NAME(MCAPI_ERR_TRANSMISSION)
        MT_NAME(MCAPI_ERR_PRIORITY)
        MT_NAME(MCAPI_ERR_BUF_INVALID)
        MT_NAME(MCAPI_ERR_MEM_LIMIT)
        MT_NAME(MCAPI_ERR_REQUEST_INVALID)
        MT_NAME(MCAPI_ERR_REQUEST_LIMIT)
        MT_NAME(MCAPI_ERR_REQUEST_CANCELLED)
        MT_NAME(MCAPI_ERR_WAIT_PENDING)
        MT_NAME(MCAPI_ERR_GENERAL)
        MT_NAME(MCAPI_ERR_SCL_SIZE)
    default:
        break;
    }
#undef MT_NAME
    /* Several failures may be printed in one message: rotate buffers. */
    static char buf[4][32];
    static unsigned next;
    char *b = buf[next++ % 4];
    snprintf(b, sizeof buf[0], "status %u", (unsigned)st);
    return b;
}

double mt_num(const void *arg, const char *path)
{
    double v;
    ck_assert_msg(conf_number(conf_get(conf_root(mt_env(arg)->platform), path), &v),
                  "platform has no number at %s", path);
    return v;
}

void mt_init(mcapi_node_t n)
{
    mcapi_info_t info;
    mcapi_status_t st = 0;
    mcapi_initialize(MT_DOMAIN, n, NULL, mt_params(), &info, &st);
    ck_assert_msg(st == MCAPI_SUCCESS, "mcapi_initialize(%u, %u): %s", MT_DOMAIN, n, mt_name(st));
}

void mt_fini(void)
{
    mcapi_status_t st = 0;
    mcapi_finalize(&st);
    ck_assert_msg(st == MCAPI_SUCCESS, "mcapi_finalize: %s", mt_name(st));
}

void mt_set_timeout(mcapi_endpoint_t ep, mcapi_timeout_t ms)
{
    mcapi_status_t st = 0;
    mcapi_endp_attr_timeout_t t = ms;
    mcapi_endpoint_set_attribute(ep, MCAPI_ENDP_ATTR_TIMEOUT, &t, sizeof t, &st);
    ck_assert_msg(st == MCAPI_SUCCESS, "set MCAPI_ENDP_ATTR_TIMEOUT: %s", mt_name(st));
}

void mt_set_memtype(mcapi_endpoint_t ep, mcapi_endp_attr_memory_type_t t)
{
    mcapi_status_t st = 0;
    mcapi_endpoint_set_attribute(ep, MCAPI_ENDP_ATTR_MEMORY_TYPE, &t, sizeof t, &st);
    ck_assert_msg(st == MCAPI_SUCCESS, "set MCAPI_ENDP_ATTR_MEMORY_TYPE: %s", mt_name(st));
}

mcapi_endpoint_t mt_ep(mcapi_port_t port)
{
    mcapi_status_t st = 0;
    mcapi_endpoint_t ep = mcapi_endpoint_create(port, &st);
    ck_assert_msg(st == MCAPI_SUCCESS, "mcapi_endpoint_create(%u): %s", port, mt_name(st));
    mt_set_timeout(ep, MT_WAIT_MS);
    return ep;
}

mcapi_endpoint_t mt_get(mcapi_node_t node, mcapi_port_t port)
{
    mcapi_status_t st = 0;
    mcapi_endpoint_t ep = mcapi_endpoint_get(MT_DOMAIN, node, port, MT_WAIT_MS, &st);
    ck_assert_msg(st == MCAPI_SUCCESS, "mcapi_endpoint_get(%u, %u, %u): %s", MT_DOMAIN, node, port,
                  mt_name(st));
    return ep;
}

mcapi_status_t mt_done(mcapi_request_t *r, mcapi_status_t st, size_t *size)
{
    if (st != MCAPI_SUCCESS && st != MCAPI_PENDING) return st;
    size_t dummy;
    mcapi_status_t ws = 0;
    mcapi_wait(r, size ? size : &dummy, MT_WAIT_MS, &ws);
    return ws;
}

static void must(mcapi_request_t *r, mcapi_status_t st, const char *what)
{
    st = mt_done(r, st, NULL);
    ck_assert_msg(st == MCAPI_SUCCESS, "%s: %s", what, mt_name(st));
}

void mt_pkt_local(mcapi_endpoint_t tx, mcapi_endpoint_t rx, mcapi_pktchan_send_hndl_t *sh,
                  mcapi_pktchan_recv_hndl_t *rh)
{
    mcapi_request_t r1, r2, r3;
    mcapi_status_t s1 = 0, s2 = 0, s3 = 0;
    mcapi_pktchan_connect_i(tx, rx, &r1, &s1);
    must(&r1, s1, "mcapi_pktchan_connect_i");
    mcapi_pktchan_send_open_i(sh, tx, &r2, &s2);
    mcapi_pktchan_recv_open_i(rh, rx, &r3, &s3);
    must(&r2, s2, "mcapi_pktchan_send_open_i");
    must(&r3, s3, "mcapi_pktchan_recv_open_i");
}

void mt_scl_local(mcapi_endpoint_t tx, mcapi_endpoint_t rx, mcapi_sclchan_send_hndl_t *sh,
                  mcapi_sclchan_recv_hndl_t *rh)
{
    mcapi_request_t r1, r2, r3;
    mcapi_status_t s1 = 0, s2 = 0, s3 = 0;
    mcapi_sclchan_connect_i(tx, rx, &r1, &s1);
    must(&r1, s1, "mcapi_sclchan_connect_i");
    mcapi_sclchan_send_open_i(sh, tx, &r2, &s2);
    mcapi_sclchan_recv_open_i(rh, rx, &r3, &s3);
    must(&r2, s2, "mcapi_sclchan_send_open_i");
    must(&r3, s3, "mcapi_sclchan_recv_open_i");
}

mcapi_pktchan_send_hndl_t mt_pkt_open_send(mcapi_endpoint_t tx)
{
    mcapi_pktchan_send_hndl_t h = 0;
    mcapi_request_t r;
    mcapi_status_t st = 0;
    mcapi_pktchan_send_open_i(&h, tx, &r, &st);
    must(&r, st, "mcapi_pktchan_send_open_i");
    return h;
}

mcapi_pktchan_recv_hndl_t mt_pkt_open_recv(mcapi_endpoint_t rx)
{
    mcapi_pktchan_recv_hndl_t h = 0;
    mcapi_request_t r;
    mcapi_status_t st = 0;
    mcapi_pktchan_recv_open_i(&h, rx, &r, &st);
    must(&r, st, "mcapi_pktchan_recv_open_i");
    return h;
}

mcapi_sclchan_send_hndl_t mt_scl_open_send(mcapi_endpoint_t tx)
{
    mcapi_sclchan_send_hndl_t h = 0;
    mcapi_request_t r;
    mcapi_status_t st = 0;
    mcapi_sclchan_send_open_i(&h, tx, &r, &st);
    must(&r, st, "mcapi_sclchan_send_open_i");
    return h;
}

mcapi_sclchan_recv_hndl_t mt_scl_open_recv(mcapi_endpoint_t rx)
{
    mcapi_sclchan_recv_hndl_t h = 0;
    mcapi_request_t r;
    mcapi_status_t st = 0;
    mcapi_sclchan_recv_open_i(&h, rx, &r, &st);
    must(&r, st, "mcapi_sclchan_recv_open_i");
    return h;
}

void mt_pkt_close_send(mcapi_pktchan_send_hndl_t h)
{
    mcapi_request_t r;
    mcapi_status_t st = 0;
    mcapi_pktchan_send_close_i(h, &r, &st);
    must(&r, st, "mcapi_pktchan_send_close_i");
}

void mt_pkt_close_recv(mcapi_pktchan_recv_hndl_t h)
{
    mcapi_request_t r;
    mcapi_status_t st = 0;
    mcapi_pktchan_recv_close_i(h, &r, &st);
    must(&r, st, "mcapi_pktchan_recv_close_i");
}

void mt_scl_close_send(mcapi_sclchan_send_hndl_t h)
{
    mcapi_request_t r;
    mcapi_status_t st = 0;
    mcapi_sclchan_send_close_i(h, &r, &st);
    must(&r, st, "mcapi_sclchan_send_close_i");
}

void mt_scl_close_recv(mcapi_sclchan_recv_hndl_t h)
{
    mcapi_request_t r;
    mcapi_status_t st = 0;
    mcapi_sclchan_recv_close_i(h, &r, &st);
    must(&r, st, "mcapi_sclchan_recv_close_i");
}

static uint8_t pattern(size_t i, unsigned seed)
{
    return (uint8_t)((i * 131u + (i >> 8) * 7u + seed * 29u + 1u) & 0xff);
}

void mt_fill(void *p, size_t n, unsigned seed)
{
    uint8_t *b = p;
    for (size_t i = 0; i < n; i++) b[i] = pattern(i, seed);
}

size_t mt_bad(const void *p, size_t n, unsigned seed)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != pattern(i, seed)) return i;
    return n;
}

double mt_ms_since(uint64_t t0)
{
    return (double)(plat_now_ns() - t0) / (double)MT_MS;
}

static mcapi_uint_t available(enum mt_kind kind, mcapi_uint32_t h, mcapi_status_t *st)
{
    switch (kind) {
    case MT_MSG:
        return mcapi_msg_available(h, st);
    case MT_PKT:
        return mcapi_pktchan_available(h, st);
    default:
        return mcapi_sclchan_available(h, st);
    }
}

void mt_arrived(enum mt_kind kind, mcapi_uint32_t h, unsigned n)
{
    uint64_t t0 = plat_now_ns();
    mcapi_status_t st = 0;
    mcapi_uint_t k = available(kind, h, &st);
    while (st == MCAPI_SUCCESS && k < n && plat_now_ns() - t0 < MT_WAIT_MS * MT_MS) {
        plat_sleep_ns(100000);
        k = available(kind, h, &st);
    }
    MT_EQ(st, MCAPI_SUCCESS);
    ck_assert_msg(k == n, "%u available, expected %u", (unsigned)k, n);
}
