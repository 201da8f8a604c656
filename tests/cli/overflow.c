/* overflow.c -- values whose times leave the simulator's range (sc_time is
 * 2^64 ps, about 213 days): the rule checker refuses them naming the key and
 * the limit (kinds/kind.h: MAX_NS, MIN_MBPS, check_clocked), what only the
 * run knows stops it naming the block (models/simtime.h), extreme but valid
 * values run exactly, and an expired wait limit says which limit and which
 * parameters to look at. A 1e-12 MB/s link gave a 542 ns round trip and a
 * 1e16 ns latency 156 ns before, both with exit 0. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

#define PP "scenarios/tutorial/pingpong.yaml"
#define FB "scenarios/funbase/table4_roundtrip.yaml"
#define SW "scenarios/sw26010/regcomm.yaml"
#define XM "scenarios/xmcapi/latency.yaml"
/* One size, one exchange: the pingpong runs in milliseconds of host time. */
#define PP_ONE "--set 'args.sizes=[4]' --set args.reps=1 --set args.warmup=0"

static const struct refused {
    const char *scenario, *set;
    const char *limit; /* after "--set KEY=VALUE: FILE:LINE: ", the limit */
} refused[] = {
    /* the two cases of the issue */
    {PP, "link.bandwidth_MBps=1e-12", "between 0.00429497 and"},
    {PP, "link.latency_ns=1e16", "between 0 and 1e+15"},
    /* ideal: clocks, costs in cycles, rates, not numbers */
    {PP, "core.clock_mhz=1e-13", "between 1e-12 and"},
    {PP, "core.clock_mhz=1e-10", "the clock must be at least 1e-09 MHz"},
    {PP, "core.costs.dma_setup=1e17", "must be at most 1e+15"},
    {PP, "link.bandwidth_MBps=1e300", "and 1e+18"},
    {PP, "memory.latency_ns=1e18", "between 0 and 1e+15"},
    {PP, "devices.net.bandwidth_MBps=1e-9", "0.00429497"},
    {PP, "devices.hwq.latency_ns=1e16", "1e+15"},
    {PP, "devices.mesh.get_latency_ns=1e16", "1e+15"},
    {PP, "devices.accel.bandwidth_MBps=1e-12", "0.004"},
    {PP, "link.latency_ns=.nan", "expects a number"},
    {PP, "link.latency_ns=.inf", "expects a number"},
    {PP, "link.latency_ns=1e400", "expects a number"},
    /* funbase: the segment's clock moves a word per cycle, and a cycle is
     * whole picoseconds */
    {FB, "clock_mhz=1e-9", "between 0.00429497 and 1e+06"},
    {FB, "clock_mhz=1e9", "between 0.00429497 and 1e+06"},
    {FB, "pc.clock_mhz=1e-9", "the clock must be at least 1e-07 MHz"},
    {FB, "pcie.lane_MBps=1e-12", "0.00429497"},
    {FB, "pc.ioctl_ns=1e16", "1e+15"},
    /* sw26010: cycles and bytes per cycle of the chip's clock */
    {SW, "clock_mhz=1e-9", "the clock must be at least"},
    {SW, "network.port_bytes_per_cycle=1e-12", "it must be at least 2.96205e-06"},
    {SW, "devices.mesh.latency_cycles=1e17", "it must be at most 1.45e+15"},
    {SW, "memory.bandwidth_MBps=1e-12", "0.00429497"},
    /* xmcapi_gbe (kind ideal, a tcp device) */
    {XM, "devices.net.eth.rate_Mbps=1e-12", "0.0343597"},
    {XM, "devices.net.tcp.delack_ms=1e16", "and 1e+09"},
    {XM, "devices.net.host.send_ns=1e16", "and 1e+15"},
};

/* Refused before the run: one line, exit 2, naming the key and the limit. */
START_TEST(out_of_range_is_refused)
{
    const struct refused *c = &refused[_i];
    const char *t = cli_tmp();
    struct cli_out r = cli_run("run %s --set '%s' --out '%s/out'", c->scenario, c->set, t);
    ck_assert_msg(r.status == 2, "%s --set %s: exit %d\n%s%s", c->scenario, c->set, r.status, r.out,
                  r.err);
    ck_assert_msg(cli_lines(r.err) == 1, "%s: expected one line:\n%s", c->set, r.err);
    char prefix[256];
    snprintf(prefix, sizeof prefix, "--set %s: ", c->set);
    ck_assert_msg(strncmp(r.err, prefix, strlen(prefix)) == 0, "%s: expected %s...:\n%s", c->set,
                  prefix, r.err);
    ck_assert_msg(strstr(r.err, c->limit), "%s: expected \"%s\":\n%s", c->set, c->limit, r.err);
    char out[4096];
    snprintf(out, sizeof out, "%s/out", t);
    ck_assert_msg(cli_entries(out) == 0, "%s: wrote into --out", c->set);
    cli_done();
}
END_TEST

/* A latency of a second is valid: the round trip is four crossings of the
 * link (docs/ideal.md), 4 s + 158 ns for 4 bytes, exactly. */
START_TEST(long_latency_runs_exactly)
{
    const char *t = cli_tmp();
    struct cli_out r = cli_run("run " PP " --set link.latency_ns=1e9 --set 'args.sizes=[4, 65536]' "
                               "--set args.reps=2 --set args.warmup=0 --out '%s'",
                               t);
    ck_assert_msg(r.status == 0, "exit %d\n%s%s", r.status, r.out, r.err);
    char *csv = cli_wrote_csv(&r);
    ck_assert_ptr_nonnull(csv);
    /* 2n + 550 ns with 4 x (1e9 - 100) ns more latency */
    ck_assert_double_eq(cli_csv_value(csv, "roundtrip_ns", "4"), 4000000158.0);
    ck_assert_double_eq(cli_csv_value(csv, "roundtrip_ns", "65536"), 4000131222.0);
    cli_done();
}
END_TEST

/* The slowest clock and rate each platform accepts still run. */
START_TEST(slowest_valid_values_run)
{
    static const char *const runs[] = {
        PP " " PP_ONE " --set link.bandwidth_MBps=0.005 --set 'args.sizes=[4]'",
        FB " --set clock_mhz=0.01 --set 'args.words=[1]' --set args.reps=2 --set args.warmup=0",
        FB " --set memdma.read_MBps=0.005 --set 'args.words=[1]' --set args.reps=2",
    };
    const char *t = cli_tmp();
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        struct cli_out r = cli_run("run %s --out '%s/%zu'", runs[i], t, i);
        ck_assert_msg(r.status == 0, "%s: exit %d\n%s%s", runs[i], r.status, r.out, r.err);
    }
    cli_done();
}
END_TEST

/* A link slower than the app's 10 s wait limit: the run says which call
 * gave up at which limit, and names the parameter that made it that slow. */
START_TEST(wait_limit_names_the_parameter)
{
    static const struct {
        const char *set, *names;
    } slow[] = {
        /* both sides give up with a DMA in flight: under ASan this caught
         * pingpong returning while the engine still owned its descriptor */
        {"link.latency_ns=1e15", "link.latency_ns 11.6 days"},
        {"link.bandwidth_MBps=0.005 --set 'args.sizes=[65536]'",
         "link.bandwidth_MBps (1 MB in 3.33 min)"},
        {"core.costs.dma_setup=1e13", "core.costs.dma_setup 2.78 h"},
        /* the slowest clock the costs allow: thread_spawn's 1000 cycles take 1e18 ps */
        {"core.clock_mhz=1e-9", "core.costs.thread_spawn 11.6 days"},
    };
    const char *t = cli_tmp();
    for (size_t i = 0; i < sizeof slow / sizeof slow[0]; i++) {
        struct cli_out r =
            cli_run("run " PP " " PP_ONE " --set %s --out '%s/%zu'", slow[i].set, t, i);
        ck_assert_msg(r.status == 2, "%s: exit %d\n%s%s", slow[i].set, r.status, r.out, r.err);
        ck_assert_msg(strstr(r.err, "plat_doorbell_wait gave up at its wait limit of 10 s"),
                      "%s: no wait limit named:\n%s", slow[i].set, r.err);
        ck_assert_msg(strstr(r.err, slow[i].names), "%s: expected \"%s\":\n%s", slow[i].set,
                      slow[i].names, r.err);
        ck_assert_msg(!strstr(r.err, "Sanitizer"), "%s:\n%s", slow[i].set, r.err);
    }
    cli_done();
}
END_TEST

/* What the checker cannot see -- a count of words times a per-word time --
 * stops the run naming the process and the limit, instead of wrapping. */
START_TEST(runtime_overflow_stops_the_run)
{
    const char *t = cli_tmp();
    struct cli_out r =
        cli_run("run scenarios/funbase/pcie.yaml --set pc.ioctl_ns=1e15 --out '%s'", t);
    ck_assert_msg(r.status != 0, "exit 0\n%s%s", r.out, r.err);
    ck_assert_msg(strstr(r.err, "ipcsim: top.pc.main: post_writes x ioctl is 4e+18 ps, out of the "
                                "simulator's range: one computed time is at most 1e18 ps"),
                  "no range message:\n%s", r.err);
    cli_done();
}
END_TEST

void cli_register_overflow(void)
{
    Suite *s = harness_suite("cli");
    tcase_add_loop_test(harness_tcase(s, "overflow_refused"), out_of_range_is_refused, 0,
                        (int)(sizeof refused / sizeof refused[0]));
    TCase *tc = harness_tcase(s, "overflow_runs");
    tcase_add_test(tc, long_latency_runs_exactly);
    tcase_add_test(tc, slowest_valid_values_run);
    tcase_add_test(tc, wait_limit_names_the_parameter);
    tcase_add_test(tc, runtime_overflow_stops_the_run);
}
