/* sclchan.c -- scalar channels: widths, mismatches, errors, close. */
#include "mt.h"

static const uint64_t v64[] = {0, 1, 0x0123456789ABCDEFull, UINT64_MAX};
static const uint32_t v32[] = {0, 0xDEADBEEFu, UINT32_MAX};
static const uint16_t v16[] = {0, 0xBEEF, UINT16_MAX};
static const uint8_t v8[] = {0, 0xA5, UINT8_MAX};

/* Every width between two cores, in order, with available counts. */
static void case_basic(void *arg)
{
    (void)arg;
    int me = plat_core();
    mt_init((mcapi_node_t)me);
    mcapi_endpoint_t ep = mt_ep(1);
    mcapi_status_t st = 0;
    mcapi_request_t r;
    harness_barrier();
    if (me == 0) {
        mcapi_sclchan_connect_i(ep, mt_get(1, 1), &r, &st);
        MT_EQ(mt_done(&r, st, NULL), MCAPI_SUCCESS);
    }
    harness_barrier();
    if (me == 0) {
        mcapi_sclchan_send_hndl_t sh = mt_scl_open_send(ep);
        for (size_t i = 0; i < HARNESS_COUNT(v64); i++) {
            st = 0;
            mcapi_sclchan_send_uint64(sh, v64[i], &st);
            MT_EQ(st, MCAPI_SUCCESS);
        }
        for (size_t i = 0; i < HARNESS_COUNT(v32); i++) {
            st = 0;
            mcapi_sclchan_send_uint32(sh, v32[i], &st);
            MT_EQ(st, MCAPI_SUCCESS);
        }
        for (size_t i = 0; i < HARNESS_COUNT(v16); i++) {
            st = 0;
            mcapi_sclchan_send_uint16(sh, v16[i], &st);
            MT_EQ(st, MCAPI_SUCCESS);
        }
        for (size_t i = 0; i < HARNESS_COUNT(v8); i++) {
            st = 0;
            mcapi_sclchan_send_uint8(sh, v8[i], &st);
            MT_EQ(st, MCAPI_SUCCESS);
        }
        harness_barrier(); /* all sent */
        harness_barrier();
        mt_scl_close_send(sh);
        st = 0;
        mcapi_sclchan_send_uint8(sh, 1, &st);
        MT_EQ(st, MCAPI_ERR_CHAN_NOTOPEN);
        st = 0;
        mcapi_sclchan_send_close_i(sh, &r, &st);
        MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_CHAN_NOTOPEN);
    } else {
        mcapi_sclchan_recv_hndl_t rh = mt_scl_open_recv(ep);
        harness_barrier(); /* all sent */
        unsigned n = (unsigned)(HARNESS_COUNT(v64) + HARNESS_COUNT(v32) + HARNESS_COUNT(v16) +
                                HARNESS_COUNT(v8));
        mt_arrived(MT_SCL, rh, n);
        for (size_t i = 0; i < HARNESS_COUNT(v64); i++) {
            st = 0;
            ck_assert_uint_eq(mcapi_sclchan_recv_uint64(rh, &st), v64[i]);
            MT_EQ(st, MCAPI_SUCCESS);
        }
        for (size_t i = 0; i < HARNESS_COUNT(v32); i++) {
            st = 0;
            ck_assert_uint_eq(mcapi_sclchan_recv_uint32(rh, &st), v32[i]);
            MT_EQ(st, MCAPI_SUCCESS);
        }
        for (size_t i = 0; i < HARNESS_COUNT(v16); i++) {
            st = 0;
            ck_assert_uint_eq(mcapi_sclchan_recv_uint16(rh, &st), v16[i]);
            MT_EQ(st, MCAPI_SUCCESS);
        }
        st = 0;
        ck_assert_uint_eq(mcapi_sclchan_available(rh, &st), HARNESS_COUNT(v8));
        for (size_t i = 0; i < HARNESS_COUNT(v8); i++) {
            st = 0;
            ck_assert_uint_eq(mcapi_sclchan_recv_uint8(rh, &st), v8[i]);
            MT_EQ(st, MCAPI_SUCCESS);
        }
        st = 0;
        ck_assert_uint_eq(mcapi_sclchan_available(rh, &st), 0);
        harness_barrier();
        mt_scl_close_recv(rh);
        st = 0;
        mcapi_sclchan_recv_uint8(rh, &st);
        MT_EQ(st, MCAPI_ERR_CHAN_NOTOPEN);
        st = 0;
        mcapi_sclchan_recv_close_i(rh, &r, &st);
        MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_CHAN_NOTOPEN);
    }
    harness_barrier();
    mt_fini();
}

/* A scalar read with another width: MCAPI_ERR_SCL_SIZE, and it stays
 * queued for the right width. */
static void case_width(void *arg)
{
    (void)arg;
    mt_init(0);
    mcapi_sclchan_send_hndl_t sh;
    mcapi_sclchan_recv_hndl_t rh;
    mt_scl_local(mt_ep(1), mt_ep(2), &sh, &rh);
    mcapi_status_t st = 0;
    mcapi_sclchan_send_uint32(sh, 0x12345678u, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    st = 0;
    mcapi_sclchan_send_uint8(sh, 0x9A, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    st = 0;
    mcapi_sclchan_recv_uint16(rh, &st);
    MT_EQ(st, MCAPI_ERR_SCL_SIZE);
    st = 0;
    mcapi_sclchan_recv_uint64(rh, &st);
    MT_EQ(st, MCAPI_ERR_SCL_SIZE);
    st = 0;
    mcapi_sclchan_recv_uint8(rh, &st);
    MT_EQ(st, MCAPI_ERR_SCL_SIZE);
    st = 0;
    ck_assert_uint_eq(mcapi_sclchan_available(rh, &st), 2);
    st = 0;
    ck_assert_uint_eq(mcapi_sclchan_recv_uint32(rh, &st), 0x12345678u);
    MT_EQ(st, MCAPI_SUCCESS);
    st = 0;
    mcapi_sclchan_recv_uint32(rh, &st);
    MT_EQ(st, MCAPI_ERR_SCL_SIZE);
    st = 0;
    ck_assert_uint_eq(mcapi_sclchan_recv_uint8(rh, &st), 0x9A);
    MT_EQ(st, MCAPI_SUCCESS);
    mt_scl_close_send(sh);
    mt_scl_close_recv(rh);
    mt_fini();
}

/* Wrong channel type and direction, garbage handles. */
static void case_errors(void *arg)
{
    (void)arg;
    mt_init(0);
    mcapi_endpoint_t tx = mt_ep(1), rx = mt_ep(2);
    mcapi_request_t r;
    mcapi_status_t st = 0;
    mcapi_sclchan_connect_i(tx, rx, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_SUCCESS);
    st = 0;
    mcapi_pktchan_connect_i(tx, rx, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_CHAN_CONNECTED);

    mcapi_pktchan_send_hndl_t psh;
    mcapi_pktchan_recv_hndl_t prh;
    st = 0;
    mcapi_pktchan_send_open_i(&psh, tx, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_CHAN_TYPE);
    st = 0;
    mcapi_pktchan_recv_open_i(&prh, rx, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_CHAN_TYPE);
    mcapi_sclchan_send_hndl_t sh;
    mcapi_sclchan_recv_hndl_t rh;
    st = 0;
    mcapi_sclchan_recv_open_i(&rh, tx, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_CHAN_DIRECTION);
    st = 0;
    mcapi_sclchan_send_open_i(&sh, rx, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_CHAN_DIRECTION);

    mcapi_request_t rs, rr;
    mcapi_status_t ss = 0, sr = 0;
    mcapi_sclchan_send_open_i(&sh, tx, &rs, &ss);
    mcapi_sclchan_recv_open_i(&rh, rx, &rr, &sr);
    MT_EQ(mt_done(&rs, ss, NULL), MCAPI_SUCCESS);
    MT_EQ(mt_done(&rr, sr, NULL), MCAPI_SUCCESS);

    static const mcapi_uint32_t garbage[] = {0, MT_GARBAGE, 0xFFFFFFFFu};
    for (size_t i = 0; i < HARNESS_COUNT(garbage); i++) {
        mcapi_uint32_t g = garbage[i];
        st = 0;
        mcapi_sclchan_send_uint64(g, 1, &st);
        MT_EQ_AT(st, MCAPI_ERR_CHAN_INVALID, "send_uint64 on %#x", g);
        st = 0;
        mcapi_sclchan_send_uint8(g, 1, &st);
        MT_EQ_AT(st, MCAPI_ERR_CHAN_INVALID, "send_uint8 on %#x", g);
        st = 0;
        mcapi_sclchan_recv_uint32(g, &st);
        MT_EQ_AT(st, MCAPI_ERR_CHAN_INVALID, "recv_uint32 on %#x", g);
        st = 0;
        mcapi_sclchan_recv_uint16(g, &st);
        MT_EQ_AT(st, MCAPI_ERR_CHAN_INVALID, "recv_uint16 on %#x", g);
        st = 0;
        mcapi_sclchan_available(g, &st);
        MT_EQ_AT(st, MCAPI_ERR_CHAN_INVALID, "available on %#x", g);
        st = 0;
        mcapi_sclchan_send_close_i(g, &r, &st);
        MT_EQ_AT(mt_done(&r, st, NULL), MCAPI_ERR_CHAN_INVALID, "send_close_i on %#x", g);
        st = 0;
        mcapi_sclchan_recv_close_i(g, &r, &st);
        MT_EQ_AT(mt_done(&r, st, NULL), MCAPI_ERR_CHAN_INVALID, "recv_close_i on %#x", g);
    }
    /* The channel still works. */
    st = 0;
    mcapi_sclchan_send_uint16(sh, 4242, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    st = 0;
    ck_assert_uint_eq(mcapi_sclchan_recv_uint16(rh, &st), 4242);
    MT_EQ(st, MCAPI_SUCCESS);
    mt_scl_close_send(sh);
    mt_scl_close_recv(rh);
    mt_fini();
}

/* MCAPI_MAX_QUEUE_ELEMENTS scalars fit; the next blocking send times out
 * (the send endpoint's timeout) and is not delivered. */
static void case_full(void *arg)
{
    (void)arg;
    mt_init(0);
    mcapi_endpoint_t tx = mt_ep(1);
    mcapi_sclchan_send_hndl_t sh;
    mcapi_sclchan_recv_hndl_t rh;
    mt_scl_local(tx, mt_ep(2), &sh, &rh);
    mcapi_status_t st;
    for (uint64_t i = 0; i < MCAPI_MAX_QUEUE_ELEMENTS; i++) {
        st = 0;
        mcapi_sclchan_send_uint64(sh, i, &st);
        MT_EQ_AT(st, MCAPI_SUCCESS, "scalar %u", (unsigned)i);
    }
    mt_set_timeout(tx, MT_SHORT_MS);
    uint64_t t0 = plat_now_ns();
    st = 0;
    mcapi_sclchan_send_uint64(sh, 999, &st);
    MT_EQ(st, MCAPI_TIMEOUT);
    ck_assert_msg(plat_now_ns() - t0 >= MT_SHORT_MS * MT_MS, "timed out after %.3f ms",
                  mt_ms_since(t0));
    st = 0;
    ck_assert_uint_eq(mcapi_sclchan_available(rh, &st), MCAPI_MAX_QUEUE_ELEMENTS);
    for (uint64_t i = 0; i < MCAPI_MAX_QUEUE_ELEMENTS; i++) {
        st = 0;
        ck_assert_uint_eq(mcapi_sclchan_recv_uint64(rh, &st), i);
        MT_EQ(st, MCAPI_SUCCESS);
    }
    st = 0;
    ck_assert_uint_eq(mcapi_sclchan_available(rh, &st), 0);
    mt_scl_close_send(sh);
    mt_scl_close_recv(rh);
    mt_fini();
}

#define STREAM_N 4000

static uint64_t stream_value(uint32_t i)
{
    uint64_t x = (uint64_t)i * 0x9E3779B97F4A7C15ull;
    return x ^ x >> 29;
}

/* A long stream of mixed widths between two cores, read with the width
 * each was sent with: all arrive, in order, cut to their width. */
static void case_stream(void *arg)
{
    (void)arg;
    int me = plat_core();
    mt_init((mcapi_node_t)me);
    mcapi_endpoint_t ep = mt_ep(1);
    mcapi_status_t st = 0;
    mcapi_request_t r;
    harness_barrier();
    if (me == 0) {
        mcapi_sclchan_connect_i(ep, mt_get(1, 1), &r, &st);
        MT_EQ(mt_done(&r, st, NULL), MCAPI_SUCCESS);
    }
    harness_barrier();
    if (me == 0) {
        mcapi_sclchan_send_hndl_t sh = mt_scl_open_send(ep);
        for (uint32_t i = 0; i < STREAM_N; i++) {
            uint64_t x = stream_value(i);
            st = 0;
            switch (i % 4) {
            case 0:
                mcapi_sclchan_send_uint8(sh, (uint8_t)x, &st);
                break;
            case 1:
                mcapi_sclchan_send_uint16(sh, (uint16_t)x, &st);
                break;
            case 2:
                mcapi_sclchan_send_uint32(sh, (uint32_t)x, &st);
                break;
            default:
                mcapi_sclchan_send_uint64(sh, x, &st);
                break;
            }
            MT_EQ_AT(st, MCAPI_SUCCESS, "scalar %u", i);
        }
        harness_barrier();
        mt_scl_close_send(sh);
    } else {
        mcapi_sclchan_recv_hndl_t rh = mt_scl_open_recv(ep);
        for (uint32_t i = 0; i < STREAM_N; i++) {
            uint64_t x = stream_value(i), got;
            st = 0;
            switch (i % 4) {
            case 0:
                got = mcapi_sclchan_recv_uint8(rh, &st), x = (uint8_t)x;
                break;
            case 1:
                got = mcapi_sclchan_recv_uint16(rh, &st), x = (uint16_t)x;
                break;
            case 2:
                got = mcapi_sclchan_recv_uint32(rh, &st), x = (uint32_t)x;
                break;
            default:
                got = mcapi_sclchan_recv_uint64(rh, &st);
                break;
            }
            MT_EQ_AT(st, MCAPI_SUCCESS, "scalar %u", i);
            ck_assert_msg(got == x, "scalar %u: %#llx, expected %#llx", i, (unsigned long long)got,
                          (unsigned long long)x);
        }
        harness_barrier();
        mt_scl_close_recv(rh);
    }
    harness_barrier();
    mt_fini();
}

void mt_sclchan(void)
{
    static const struct harness_case cases[] = {
        {.name = "scl_basic", .core = case_basic, .cores = 2},
        {.name = "scl_width", .core = case_width, .cores = 1},
        {.name = "scl_errors", .core = case_errors, .cores = 1},
        {.name = "scl_full", .core = case_full, .cores = 1},
        {.name = "scl_stream", .core = case_stream, .cores = 2},
    };
    mt_add(cases, HARNESS_COUNT(cases));
}
