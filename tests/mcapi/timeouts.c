/* timeouts.c -- MCAPI_ENDP_ATTR_TIMEOUT on blocking receives; infinite and
 * immediate timeouts. (Timeouts of sends on full queues: messages.c,
 * sclchan.c, limits.c; of wait and endpoint_get: requests.c, endpoint.c.) */
#include "mt.h"

/* A timeout of ms expired: not before, and in simulation (exact time)
 * not much after either. */
static void expired(const void *arg, uint64_t t0, unsigned ms)
{
    uint64_t dt = plat_now_ns() - t0;
    ck_assert_msg(dt >= ms * MT_MS, "timed out after %.3f ms, timeout %u ms", mt_ms_since(t0), ms);
    /* Natively: generous for a loaded host, but a wait that ignores its
     * deadline does not pass. */
    uint64_t slack = mt_sim(arg) ? MT_MS : 2000 * MT_MS;
    ck_assert_msg(dt < ms * MT_MS + slack, "timed out after %.3f ms, timeout %u ms",
                  mt_ms_since(t0), ms);
}

/* Returned at once: sim, within a microsecond's worth of calls. */
static void immediate(const void *arg, uint64_t t0)
{
    uint64_t dt = plat_now_ns() - t0;
    ck_assert_msg(dt < (mt_sim(arg) ? MT_MS / 10 : MT_WAIT_MS * MT_MS / 10),
                  "an immediate timeout took %.3f ms", mt_ms_since(t0));
}

static void case_msg(void *arg)
{
    mt_init(0);
    mcapi_endpoint_t ep = mt_ep(1);
    char b[8];
    size_t n;
    mcapi_status_t st = 0;
    mt_set_timeout(ep, MT_SHORT_MS);
    uint64_t t0 = plat_now_ns();
    mcapi_msg_recv(ep, b, sizeof b, &n, &st);
    MT_EQ(st, MCAPI_TIMEOUT);
    expired(arg, t0, MT_SHORT_MS);
    mt_set_timeout(ep, 3);
    t0 = plat_now_ns();
    st = 0;
    mcapi_msg_recv(ep, b, sizeof b, &n, &st);
    MT_EQ(st, MCAPI_TIMEOUT);
    expired(arg, t0, 3);
    mt_set_timeout(ep, MCAPI_TIMEOUT_IMMEDIATE);
    t0 = plat_now_ns();
    st = 0;
    mcapi_msg_recv(ep, b, sizeof b, &n, &st);
    MT_EQ(st, MCAPI_TIMEOUT);
    immediate(arg, t0);
    /* An immediate timeout still takes what is there. */
    st = 0;
    mcapi_msg_send(mt_ep(2), ep, "me", 3, 1, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    st = 0;
    mcapi_msg_recv(ep, b, sizeof b, &n, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    ck_assert_str_eq(b, "me");
    mt_fini();
}

static void case_pkt(void *arg)
{
    mt_init(0);
    mcapi_endpoint_t rx = mt_ep(2);
    mcapi_pktchan_send_hndl_t sh;
    mcapi_pktchan_recv_hndl_t rh;
    mt_pkt_local(mt_ep(1), rx, &sh, &rh);
    mt_set_timeout(rx, MT_SHORT_MS);
    void *p;
    size_t n;
    mcapi_status_t st = 0;
    uint64_t t0 = plat_now_ns();
    mcapi_pktchan_recv(rh, &p, &n, &st);
    MT_EQ(st, MCAPI_TIMEOUT);
    expired(arg, t0, MT_SHORT_MS);
    mt_set_timeout(rx, MCAPI_TIMEOUT_IMMEDIATE);
    t0 = plat_now_ns();
    st = 0;
    mcapi_pktchan_recv(rh, &p, &n, &st);
    MT_EQ(st, MCAPI_TIMEOUT);
    immediate(arg, t0);
    mt_pkt_close_send(sh);
    mt_pkt_close_recv(rh);
    mt_fini();
}

static void case_scl(void *arg)
{
    mt_init(0);
    mcapi_endpoint_t rx = mt_ep(2);
    mcapi_sclchan_send_hndl_t sh;
    mcapi_sclchan_recv_hndl_t rh;
    mt_scl_local(mt_ep(1), rx, &sh, &rh);
    mt_set_timeout(rx, MT_SHORT_MS);
    mcapi_status_t st = 0;
    uint64_t t0 = plat_now_ns();
    mcapi_sclchan_recv_uint32(rh, &st);
    MT_EQ(st, MCAPI_TIMEOUT);
    expired(arg, t0, MT_SHORT_MS);
    mt_scl_close_send(sh);
    mt_scl_close_recv(rh);
    mt_fini();
}

#define LATE_MS 30

/* The default timeout is infinite: a receive waits for a late sender. */
static void case_infinite(void *arg)
{
    int me = plat_core();
    mt_init((mcapi_node_t)me);
    mcapi_status_t st = 0;
    mcapi_endpoint_t ep = mcapi_endpoint_create(1, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    mcapi_endpoint_t peer = mt_get((mcapi_node_t)(1 - me), 1);
    harness_barrier();
    if (me == 0) {
        uint64_t t0 = plat_now_ns();
        char b[8];
        size_t n;
        st = 0;
        mcapi_msg_recv(ep, b, sizeof b, &n, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        ck_assert_str_eq(b, "late");
        /* Natively the clocks of the cores' threads differ. In simulation
         * the sender's own start counts: it may leave the barrier earlier
         * than this core by more than a fast transport takes to deliver. */
        if (mt_sim(arg)) {
            uint64_t s0 = mt_take(0);
            ck_assert_msg(plat_now_ns() - s0 >= LATE_MS * MT_MS,
                          "received %.3f ms after the sender started waiting (%.3f ms here)",
                          mt_ms_since(s0), mt_ms_since(t0));
        }
    } else {
        mt_put(0, plat_now_ns());
        plat_sleep_ns(LATE_MS * MT_MS);
        st = 0;
        mcapi_msg_send(ep, peer, "late", 5, 1, &st);
        MT_EQ(st, MCAPI_SUCCESS);
    }
    harness_barrier();
    mt_fini();
}

void mt_timeouts(void)
{
    static const struct harness_case cases[] = {
        {.name = "to_msg_recv", .core = case_msg, .cores = 1},
        {.name = "to_pkt_recv", .core = case_pkt, .cores = 1},
        {.name = "to_scl_recv", .core = case_scl, .cores = 1},
        {.name = "to_infinite", .core = case_infinite, .cores = 2},
    };
    mt_add(cases, HARNESS_COUNT(cases));
}
