/* time.c -- plat_now_ns, plat_sleep_ns, plat_cost, plat_work. */
#include "pt.h"

static void case_now(void *arg)
{
    (void)arg;
    uint64_t last = plat_now_ns();
    for (int i = 0; i < 10000; i++) {
        uint64_t t = plat_now_ns();
        ck_assert_msg(t >= last, "plat_now_ns went back from %llu to %llu",
                      (unsigned long long)last, (unsigned long long)t);
        last = t;
    }
}

static void case_sleep(void *arg)
{
    static const uint64_t ns[] = {1, 999, 1000, 250 * PT_US, 3 * PT_MS};
    for (size_t i = 0; i < HARNESS_COUNT(ns); i++) {
        uint64_t t0 = plat_now_ns();
        plat_sleep_ns(ns[i]);
        uint64_t dt = plat_now_ns() - t0;
        ck_assert_msg(dt >= ns[i], "plat_sleep_ns(%llu) took %llu ns", (unsigned long long)ns[i],
                      (unsigned long long)dt);
        if (pt_sim(arg))
            ck_assert_msg(dt == ns[i], "sim: plat_sleep_ns(%llu) took %llu ns",
                          (unsigned long long)ns[i], (unsigned long long)dt);
        else
            ck_assert_uint_lt(dt, ns[i] + PT_NATIVE_SLACK_NS);
    }
    uint64_t t0 = plat_now_ns();
    plat_sleep_ns(0);
    if (pt_sim(arg)) ck_assert_uint_eq(plat_now_ns(), t0);
}

/* Costs come from core.costs of the file (sim) or are 0 (native); work is
 * charged at the core's clock (overridden to 500 MHz: 1 cycle = 2 ns). */
static void case_work(void *arg)
{
    bool sim = pt_sim(arg);
    double mhz = plat_core_clock_mhz(plat_core());
    ck_assert_double_eq_tol(mhz, 500.0, 1e-9);

    ck_assert_uint_eq(plat_cost("dma_setup"), sim ? 33 : 0); /* overridden from 20 */
    ck_assert_uint_eq(plat_cost("switch"), sim ? (uint64_t)pt_num(arg, "core.costs.switch") : 0);
    ck_assert_uint_eq(plat_cost("irq"), sim ? 50 : 0);

    static const uint64_t cycles[] = {1, 1000, 123457};
    for (size_t i = 0; i < HARNESS_COUNT(cycles); i++) {
        uint64_t t0 = plat_now_ns();
        plat_work_cycles(cycles[i]);
        uint64_t dt = plat_now_ns() - t0;
        if (sim)
            ck_assert_msg(dt == cycles[i] * 2, "sim: %llu cycles at 500 MHz took %llu ns",
                          (unsigned long long)cycles[i], (unsigned long long)dt);
    }
    uint64_t t0 = plat_now_ns();
    plat_work("dma_setup");
    uint64_t dt = plat_now_ns() - t0;
    if (sim) ck_assert_uint_eq(dt, 66);

    /* Natively the real work already took real time: charging 10^10 cycles
     * (20 s at this clock) returns at once. */
    if (!sim) {
        t0 = plat_now_ns();
        plat_work_cycles(10000000000ull);
        ck_assert_uint_lt(plat_now_ns() - t0, PT_NATIVE_SLACK_NS);
    }
}

/* Work of two cores proceeds in parallel (each core has its own clock). */
static void case_work_parallel(void *arg)
{
    harness_barrier();
    uint64_t t0 = plat_now_ns();
    plat_work_cycles(100000);
    uint64_t dt = plat_now_ns() - t0;
    if (pt_sim(arg)) ck_assert_uint_eq(dt, 100000); /* 1 GHz, not serialised */
}

void pt_time(void)
{
    static const struct harness_case cases[] = {
        {.name = "now_monotonic", .core = case_now, .cores = 2},
        {.name = "sleep", .core = case_sleep, .cores = 2},
        {.name = "work_cost",
         .core = case_work,
         .cores = 2,
         .sets = {"core.clock_mhz=500", "core.costs.dma_setup=33"}},
        {.name = "work_parallel", .core = case_work_parallel, .cores = 2},
    };
    harness_add_cases("plat", cases, HARNESS_COUNT(cases));
}
