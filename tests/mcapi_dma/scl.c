/* scl.c -- scalar channels: every width, order, width mismatch, a stream
 * longer than the receiver's buffers. */
#include "dt.h"

static const uint64_t values[] = {
    0, 1, 0x7f, 0x80, 0xff, 0x1234, 0xffff, 0x89abcdefu, 0xffffffffu, 0x0123456789abcdefull, ~0ull};

static uint64_t mask(unsigned width)
{
    return width == 8 ? ~0ull : (1ull << (8 * width)) - 1;
}

static void put(mcapi_sclchan_send_hndl_t h, unsigned width, uint64_t v)
{
    mcapi_status_t st = 0;
    switch (width) {
    case 1:
        mcapi_sclchan_send_uint8(h, (mcapi_uint8_t)v, &st);
        break;
    case 2:
        mcapi_sclchan_send_uint16(h, (mcapi_uint16_t)v, &st);
        break;
    case 4:
        mcapi_sclchan_send_uint32(h, (mcapi_uint32_t)v, &st);
        break;
    default:
        mcapi_sclchan_send_uint64(h, v, &st);
        break;
    }
    DT_EQ_AT(st, MCAPI_SUCCESS, "send width %u", width);
}

static uint64_t get(mcapi_sclchan_recv_hndl_t h, unsigned width, mcapi_status_t *st)
{
    *st = 0;
    switch (width) {
    case 1:
        return mcapi_sclchan_recv_uint8(h, st);
    case 2:
        return mcapi_sclchan_recv_uint16(h, st);
    case 4:
        return mcapi_sclchan_recv_uint32(h, st);
    default:
        return mcapi_sclchan_recv_uint64(h, st);
    }
}

static const unsigned widths[] = {1, 2, 4, 8};

/* Every value at every width, truncated to the width, in order; a receive
 * of another width gives MCAPI_ERR_SCL_SIZE and the scalar stays. */
static void case_widths(void *arg)
{
    (void)arg;
    int me = plat_core();
    dt_init();
    mcapi_endpoint_t ep = dt_ep(3);
    mcapi_status_t st;
    mcapi_request_t r;
    if (me == 0) {
        st = 0;
        mcapi_sclchan_connect_i(ep, dt_get(1, 3), &r, &st);
        DT_EQ(mcx_done(&r, st, NULL), MCAPI_SUCCESS);
        mcapi_sclchan_send_hndl_t h = dt_scl_open_send(ep);
        for (size_t w = 0; w < HARNESS_COUNT(widths); w++)
            for (size_t i = 0; i < HARNESS_COUNT(values); i++) put(h, widths[w], values[i]);
        put(h, 4, 0xfeedbeef);
        harness_barrier();
    } else {
        mcapi_sclchan_recv_hndl_t h = dt_scl_open_recv(ep);
        for (size_t w = 0; w < HARNESS_COUNT(widths); w++)
            for (size_t i = 0; i < HARNESS_COUNT(values); i++) {
                uint64_t v = get(h, widths[w], &st);
                DT_EQ_AT(st, MCAPI_SUCCESS, "width %u value %zu", widths[w], i);
                ck_assert_msg(v == (values[i] & mask(widths[w])), "width %u: got %llx, sent %llx",
                              widths[w], (unsigned long long)v, (unsigned long long)values[i]);
            }
        uint64_t v = get(h, 2, &st);
        DT_EQ(st, MCAPI_ERR_SCL_SIZE);
        ck_assert_uint_eq(v, 0);
        v = get(h, 8, &st);
        DT_EQ(st, MCAPI_ERR_SCL_SIZE);
        v = get(h, 4, &st);
        DT_EQ(st, MCAPI_SUCCESS);
        ck_assert_uint_eq(v, 0xfeedbeef);
        st = 0;
        ck_assert_uint_eq(mcapi_sclchan_available(h, &st), 0);
        harness_barrier();
    }
    harness_barrier();
    dt_fini();
}

/* 2000 scalars through a channel whose receiver has far fewer buffers:
 * credits keep the sender in step, nothing is lost or reordered. */
static void case_stream(void *arg)
{
    (void)arg;
    enum { N = 2000 };
    int me = plat_core();
    dt_init();
    mcapi_endpoint_t ep = dt_ep(1);
    mcapi_status_t st;
    mcapi_request_t r;
    if (me == 0) {
        st = 0;
        mcapi_sclchan_connect_i(ep, dt_get(1, 1), &r, &st);
        DT_EQ(mcx_done(&r, st, NULL), MCAPI_SUCCESS);
        mcapi_sclchan_send_hndl_t h = dt_scl_open_send(ep);
        for (uint32_t i = 0; i < N; i++) put(h, 4, i * 2654435761u);
        st = 0;
        mcapi_sclchan_send_close_i(h, &r, &st);
        DT_EQ(mcx_done(&r, st, NULL), MCAPI_SUCCESS);
    } else {
        mcapi_sclchan_recv_hndl_t h = dt_scl_open_recv(ep);
        for (uint32_t i = 0; i < N; i++) {
            uint64_t v = get(h, 4, &st);
            DT_EQ_AT(st, MCAPI_SUCCESS, "scalar %u", i);
            ck_assert_uint_eq(v, (uint32_t)(i * 2654435761u));
        }
        (void)get(h, 4, &st);
        DT_EQ(st, MCAPI_ERR_CHAN_NOTOPEN); /* the sender closed after the last */
        st = 0;
        mcapi_sclchan_recv_close_i(h, &r, &st);
        DT_EQ(mcx_done(&r, st, NULL), MCAPI_SUCCESS);
    }
    harness_barrier();
    dt_fini();
}

void dt_scl_cases(void)
{
    static const struct harness_case cases[] = {
        {.name = "scl_widths", .core = case_widths, .cores = 2},
        {.name = "scl_stream", .core = case_stream, .cores = 2},
    };
    harness_add_cases("mcapi_dma", cases, HARNESS_COUNT(cases));
}
