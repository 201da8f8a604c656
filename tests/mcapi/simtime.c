/* simtime.c -- simulated time is spent where the design says (sim only):
 * API calls charge their costs, copies cost bytes / bandwidth, round trips
 * grow with the message size and with a slower link. */
#include "mt.h"

static double cycles_ns(const char *cost)
{
    return (double)plat_cost(cost) * 1000.0 / plat_core_clock_mhz(plat_core());
}

/* Every call charges "mcapi_call"; initialise charges "mcapi_init". */
static void case_costs(void *arg)
{
    (void)arg;
    uint64_t t0 = plat_now_ns();
    mt_init(0);
    uint64_t init = plat_now_ns() - t0;
    ck_assert_msg((double)init >= cycles_ns("mcapi_init"), "initialise took %llu ns, costs %.0f",
                  (unsigned long long)init, cycles_ns("mcapi_init"));
    mcapi_endpoint_t ep = mt_ep(1);
    t0 = plat_now_ns();
    mcapi_status_t st = 0;
    mcapi_msg_available(ep, &st);
    uint64_t call = plat_now_ns() - t0;
    MT_EQ(st, MCAPI_SUCCESS);
    ck_assert_msg((double)call >= cycles_ns("mcapi_call"), "a call took %llu ns, costs %.0f",
                  (unsigned long long)call, cycles_ns("mcapi_call"));
    ck_assert_uint_gt(call, 0);
    mt_fini();
}

static const size_t rt_sizes[] = {8, 256, MCAPI_MAX_MSG_SIZE};

/* Core 0 measures message round trips to core 1 (which echoes). */
static void case_roundtrip(void *arg)
{
    int me = plat_core();
    mt_init((mcapi_node_t)me);
    mcapi_endpoint_t ep = mt_ep(1), peer = mt_get((mcapi_node_t)(1 - me), 1);
    uint8_t buf[MCAPI_MAX_MSG_SIZE];
    mt_fill(buf, sizeof buf, 1);
    uint64_t rt[3] = {0, 0, 0};
    mcapi_status_t st;
    size_t n;
    for (size_t i = 0; i < HARNESS_COUNT(rt_sizes); i++)
        for (int k = 0; k < 3; k++) { /* the last of three: warm */
            if (me == 0) {
                uint64_t t0 = plat_now_ns();
                st = 0;
                mcapi_msg_send(ep, peer, buf, rt_sizes[i], 1, &st);
                MT_EQ(st, MCAPI_SUCCESS);
                st = 0;
                mcapi_msg_recv(ep, buf, sizeof buf, &n, &st);
                MT_EQ(st, MCAPI_SUCCESS);
                rt[i] = plat_now_ns() - t0;
            } else {
                st = 0;
                mcapi_msg_recv(ep, buf, sizeof buf, &n, &st);
                MT_EQ(st, MCAPI_SUCCESS);
                st = 0;
                mcapi_msg_send(ep, peer, buf, n, 1, &st);
                MT_EQ(st, MCAPI_SUCCESS);
            }
        }
    if (me == 0) {
        /* Each direction copies the payload at least once across the
         * crossbar, at link.bandwidth_MBps (bytes per us). */
        double bytes_per_ns = mt_num(arg, "link.bandwidth_MBps") / 1000.0;
        ck_assert_uint_gt(rt[0], 0);
        for (size_t i = 1; i < HARNESS_COUNT(rt_sizes); i++) {
            double extra = 2.0 * (double)(rt_sizes[i] - rt_sizes[0]) / bytes_per_ns;
            ck_assert_msg((double)(rt[i] - rt[0]) >= extra,
                          "round trip %zu bytes %llu ns, %zu bytes %llu ns: %.0f ns of copies "
                          "expected at least",
                          rt_sizes[i], (unsigned long long)rt[i], rt_sizes[0],
                          (unsigned long long)rt[0], extra);
        }
    }
    harness_barrier();
    mt_fini();
}

/* The sender's packet send copies the payload: a larger packet takes
 * longer, by at least its bytes at the link's bandwidth. */
static void case_pkt_copy(void *arg)
{
    mt_init(0);
    mcapi_pktchan_send_hndl_t sh;
    mcapi_pktchan_recv_hndl_t rh;
    mt_pkt_local(mt_ep(1), mt_ep(2), &sh, &rh);
    static uint8_t buf[MCAPI_MAX_PKT_SIZE]; /* only core 0 runs this case */
    const size_t small = 64;
    uint64_t t[2];
    mcapi_status_t st;
    for (int k = 0; k < 2; k++) {
        size_t n = k ? sizeof buf : small;
        uint64_t t0 = plat_now_ns();
        st = 0;
        mcapi_pktchan_send(sh, buf, n, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        t[k] = plat_now_ns() - t0;
        void *p;
        size_t got;
        st = 0;
        mcapi_pktchan_recv(rh, &p, &got, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        mcapi_pktchan_release(p, &st);
    }
    double bytes_per_ns = mt_num(arg, "link.bandwidth_MBps") / 1000.0;
    double extra = (double)(sizeof buf - small) / bytes_per_ns;
    ck_assert_msg((double)(t[1] - t[0]) >= extra,
                  "send %zu bytes %llu ns, %zu bytes %llu ns: %.0f ns of copy expected", sizeof buf,
                  (unsigned long long)t[1], small, (unsigned long long)t[0], extra);
    mt_fini();
}

/* What a determinism run reports through its page. */
struct det_page {
    int rc;
    uint64_t t[4];
};

struct det {
    const struct harness_env *env;
    struct det_page *page;
};

static struct det_page *det_out; /* the child's page, for its cores */

/* Two cores exchange messages of several sizes; core 0 notes the times. */
static void det_core(void *arg)
{
    (void)arg;
    int me = plat_core();
    mt_init((mcapi_node_t)me);
    mcapi_endpoint_t ep = mt_ep(1), peer = mt_get((mcapi_node_t)(1 - me), 1);
    uint8_t buf[MCAPI_MAX_MSG_SIZE] = {0};
    size_t n;
    mcapi_status_t st;
    for (int k = 0; k < 4; k++) {
        size_t len = (size_t)1 << (3 * k + 1);
        st = 0;
        if (me == 0) {
            mcapi_msg_send(ep, peer, buf, len, 1, &st);
            mcapi_msg_recv(ep, buf, sizeof buf, &n, &st);
            det_out->t[k] = plat_now_ns();
        } else {
            mcapi_msg_recv(ep, buf, sizeof buf, &n, &st);
            mcapi_msg_send(ep, peer, buf, n, 1, &st);
        }
    }
    harness_barrier();
    mt_fini();
}

static void det_child(void *arg)
{
    const struct det *d = arg;
    char err[256];
    det_out = d->page;
    d->page->rc =
        harness_try_run(PLAT_SIM, d->env->platform, HARNESS_SEED, det_core, NULL, err, sizeof err);
}

/* The same run twice (two processes: SystemC runs once per process) gives
 * the same simulated times, to the nanosecond. */
static void test_deterministic(const struct harness_env *env)
{
    struct det_page *pages = harness_page(2 * sizeof *pages);
    for (int i = 0; i < 2; i++) {
        struct det d = {env, &pages[i]};
        pages[i].rc = -99;
        int ws = harness_fork(det_child, &d);
        ck_assert_msg(ws == 0 && pages[i].rc == 0, "run %d: wait status %#x, plat_run %d", i, ws,
                      pages[i].rc);
    }
    for (int k = 0; k < 4; k++) {
        ck_assert_uint_gt(pages[0].t[k], 0);
        ck_assert_msg(pages[0].t[k] == pages[1].t[k], "exchange %d: %llu ns, then %llu ns", k,
                      (unsigned long long)pages[0].t[k], (unsigned long long)pages[1].t[k]);
    }
}

void mt_simtime(void)
{
    static const struct harness_case cases[] = {
        {.name = "sim_costs", .core = case_costs, .cores = 1, .backends = HARNESS_SIM},
        {.name = "sim_roundtrip", .core = case_roundtrip, .cores = 2, .backends = HARNESS_SIM},
        {.name = "sim_roundtrip_slow_link",
         .core = case_roundtrip,
         .cores = 2,
         .sets = {"link.bandwidth_MBps=100"},
         .backends = HARNESS_SIM},
        {.name = "sim_pkt_copy", .core = case_pkt_copy, .cores = 1, .backends = HARNESS_SIM},
        {.name = "sim_deterministic",
         .test = test_deterministic,
         .cores = 2,
         .backends = HARNESS_SIM},
    };
    mt_add(cases, HARNESS_COUNT(cases));
}
