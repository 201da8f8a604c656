/* mpisim.c -- MPI programs as scenario workloads (scenarios/mpi_lite/,
 * apps/mpi_lite/): the OSU-compatible programs and the examples run on sim and
 * natively, their checks pass, OSU rows become points, the closed form of
 * docs/ideal.md holds on ideal and moves with the platform's values, and a
 * program that fails fails the run naming itself and the rank. */
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define DIR "scenarios/mpi_lite/"
#define FAST_LAT "--set 'args.args=-m 0:8192 -i 10 -x 1'"

/* Run DIR<stem>.yaml with options; the run (exit status checked by the caller). */
static struct cli_out run(const char *stem, const char *opts, const char *backend)
{
    return cli_run("run " DIR "%s.yaml %s --backend %s --out '%s/%s'", stem, opts, backend,
                   cli_tmp(), backend);
}

static char *csv_of(const char *stem, const char *opts, const char *backend, struct cli_out *out)
{
    struct cli_out r = run(stem, opts, backend);
    ck_assert_msg(r.status == 0, "%s %s (%s): exit %d: %s", stem, opts, backend, r.status, r.err);
    char *csv = cli_wrote_csv(&r);
    ck_assert_msg(csv, "%s: no CSV", stem);
    if (out) *out = r;
    return csv;
}

/* The closed form of docs/ideal.md for one slot on ideal: one-way latency
 * in us of n bytes (1 .. 4048) with link latency L, memory latency M (ns):
 * 16 accesses, and the sender's reload of head (8 bytes) every 16 slots. */
static double one_slot_us(double n, double L, double M, double record)
{
    return ((16 + 1.0 / 16) * (L + M) + 2 * n + 176 + 8.0 / 16 + 20 + 2 * record) / 1000;
}

static void near(double got, double want, double pct, const char *what)
{
    ck_assert_msg(fabs(got - want) <= want * pct / 100, "%s: %g, closed form %g", what, got, want);
}

/* Every size the -m range names has a point. */
static void every_size(const char *csv, const char *series, size_t lo, size_t hi)
{
    for (size_t n = lo; n <= hi; n = n ? 2 * n : 1) {
        char x[32];
        snprintf(x, sizeof x, "%zu", n);
        ck_assert_msg(cli_csv_value(csv, series, x) > 0, "%s x=%s missing in\n%s", series, x, csv);
    }
}

START_TEST(mpisim_latency_sim)
{
    struct cli_out r;
    char *csv = csv_of("osu_latency", FAST_LAT " --check", "sim", &r);
    every_size(csv, "latency_us", 0, 8192);
    near(cli_csv_value(csv, "latency_us", "1"), one_slot_us(1, 100, 50, 40), 0.5, "1 B");
    near(cli_csv_value(csv, "latency_us", "2048"), one_slot_us(2048, 100, 50, 40), 0.5, "2 KiB");
    ck_assert_msg(cli_csv_value(csv, "elapsed_us", "2") > 0, "%s", csv);
    /* The program's own output, tagged with its rank, above the table. */
    ck_assert_msg(strstr(r.out, "[osu_latency rank 0] # OSU MPI Latency Test v5.3\n"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "[osu_latency rank 0] # Size            Latency (us)\n"), "%s",
                  r.out);
    ck_assert_msg(!strstr(r.out, "[osu_latency rank 1]"), "rank 1 prints nothing: %s", r.out);
    cli_done();
}
END_TEST

/* The physics: the closed form's counts of L and M, and of mpi_record, are
 * what the model gives when those values change; and --check fails once the
 * model is off the committed reference. */
START_TEST(mpisim_latency_moves)
{
    char *csv = csv_of("osu_latency", FAST_LAT " --set link.latency_ns=200", "sim", NULL);
    near(cli_csv_value(csv, "latency_us", "1024"), one_slot_us(1024, 200, 50, 40), 0.5, "L 200");
    csv = csv_of("osu_latency", FAST_LAT " --set memory.latency_ns=300", "sim", NULL);
    near(cli_csv_value(csv, "latency_us", "1024"), one_slot_us(1024, 100, 300, 40), 0.5, "M 300");
    csv = csv_of("osu_latency", FAST_LAT " --set core.costs.mpi_record=540", "sim", NULL);
    near(cli_csv_value(csv, "latency_us", "64"), one_slot_us(64, 100, 50, 540), 0.5, "rec 540");
    struct cli_out r = run("osu_latency", FAST_LAT " --set link.latency_ns=110 --check", "sim");
    ck_assert_msg(r.status == 1, "exit %d: %s", r.status, r.err);
    cli_done();
}
END_TEST

/* The streaming bound of docs/ideal.md: c / (5 (L + M) + (c + 64) / B +
 * mpi_record / f + (L + M + 8 / B) / 15) MB/s with c = 4048 bytes per slot
 * (the last term: the sender reloads head every 15 slots), and how it moves. */
static double stream_MBps(double L, double M, double B)
{
    return 4048 / (5 * (L + M) + (4048 + 64) / B + 40 + (L + M + 8 / B) / 15) * 1000;
}

START_TEST(mpisim_bandwidth_sim)
{
    const char *opts = "--set 'args.args=-m 1048576:1048576 -i 2 -x 1'";
    char buf[256];
    char *csv = csv_of("osu_bw", opts, "sim", NULL);
    near(cli_csv_value(csv, "bandwidth_MBps", "1048576"), stream_MBps(100, 50, 1), 1, "ideal");
    snprintf(buf, sizeof buf, "%s --set memory.latency_ns=150", opts);
    csv = csv_of("osu_bw", buf, "sim", NULL);
    near(cli_csv_value(csv, "bandwidth_MBps", "1048576"), stream_MBps(100, 150, 1), 1, "M 150");
    snprintf(buf, sizeof buf, "%s --set link.bandwidth_MBps=500", opts);
    csv = csv_of("osu_bw", buf, "sim", NULL);
    near(cli_csv_value(csv, "bandwidth_MBps", "1048576"), stream_MBps(100, 50, 0.5), 1, "B 500");
    cli_done();
}
END_TEST

START_TEST(mpisim_collectives_sim)
{
    char *csv = csv_of("osu_bcast", "--set 'args.args=-m 1:4096 -i 3 -x 1 -f'", "sim", NULL);
    every_size(csv, "avg_latency_us", 1, 4096);
    every_size(csv, "max_latency_us", 1, 4096);
    ck_assert_msg(!strstr(csv, "iterations"), "-f's count is no series: %s", csv);
    csv = csv_of("osu_gather", "--set 'args.args=-m 1:4096 -i 3 -x 1'", "sim", NULL);
    every_size(csv, "avg_latency_us", 1, 4096);
    csv = csv_of("osu_bw", "--set 'args.args=-m 1:65536 -i 2 -x 1'", "sim", NULL);
    every_size(csv, "bandwidth_MBps", 1, 65536);
    /* Below the 1000 MB/s of the ports. */
    ck_assert_msg(cli_csv_value(csv, "bandwidth_MBps", "65536") < 1000, "%s", csv);
    cli_done();
}
END_TEST

static void examples(const char *backend)
{
    struct cli_out r;
    char *csv = csv_of("ring", "--set args.args=3", backend, &r);
    ck_assert_msg(strstr(r.out, "[ring rank 0] ring: 8 ranks, 3 laps, token 84 (expected 84)\n"),
                  "%s", r.out);
    ck_assert_msg(strstr(r.out, "[ring rank 0] ring: ok\n"), "%s", r.out);
    ck_assert_msg(cli_csv_value(csv, "elapsed_us", "8") > 0, "%s", csv);
    csv_of("pi", "--set args.args=1000", backend, &r);
    ck_assert_msg(strstr(r.out, "[pi rank 0] pi is approximately 3.14159"), "%s", r.out);
    csv_of("pi", "--set args.args=1000 --set cores=3", backend, &r);
    ck_assert_msg(strstr(r.out, "[pi rank 0] 3 ranks, 1000 intervals"), "%s", r.out);
}

START_TEST(mpisim_examples_sim)
{
    examples("sim");
    cli_done();
}
END_TEST

START_TEST(mpisim_native)
{
    examples("native");
    char *csv = csv_of("osu_latency", "--set 'args.args=-m 0:1024 -i 10 -x 1'", "native", NULL);
    every_size(csv, "latency_us", 0, 1024);
    csv =
        csv_of("osu_bcast", "--set 'args.args=-m 1:1024 -i 3 -x 1' --set cores=4", "native", NULL);
    every_size(csv, "avg_latency_us", 1, 1024);
    cli_done();
}
END_TEST

/* main's nonzero return fails the run: the program, the rank, the status,
 * its first line on stderr. */
static void fails(const char *backend)
{
    struct cli_out r = run("osu_latency", "--set cores=3 --set args.args=-m0:4", backend);
    ck_assert_msg(r.status == 2, "exit %d: %s", r.status, r.err);
    ck_assert_msg(strstr(r.err, "osu_latency: rank 0: main returned 2: osu_latency: this test "
                                "requires exactly two processes, not 3"),
                  "%s", r.err);
    ck_assert_msg(strstr(r.err, "osu_latency: rank 2: main returned 2"), "%s", r.err);
    r = run("ring", "--set args.args=0", backend);
    ck_assert_msg(r.status == 2, "exit %d: %s", r.status, r.err);
    ck_assert_msg(strstr(r.err, "ring: rank 5: main returned 2: ring: LAPS 0: must be a whole "
                                "number from 1 to 1000000"),
                  "%s", r.err);
    /* The program's stderr goes to ipcsim's, tagged. */
    ck_assert_msg(strstr(r.err, "[ring rank 5] Usage: ring [LAPS]\n"), "%s", r.err);
}

START_TEST(mpisim_fails_sim)
{
    fails("sim");
    cli_done();
}
END_TEST

START_TEST(mpisim_fails_native)
{
    fails("native");
    cli_done();
}
END_TEST

/* A program this build does not have is an unknown app, refused when the
 * scenario loads; rank0 elsewhere than core 0, or an unknown inter, fails
 * the run. */
START_TEST(mpisim_bad_scenario)
{
    const char *t = cli_tmp();
    cli_write("title: t\nplatform: ideal\nmapping:\n  rank0: 0\nworkload:\n  app: mpi_rnig\n",
              "%s/bad.yaml", t);
    struct cli_out r = cli_run("run '%s/bad.yaml'", t);
    ck_assert_int_eq(r.status, 2);
    char want[4200];
    snprintf(want, sizeof want, "%s/bad.yaml:6: unknown app 'mpi_rnig'; known apps:", t);
    ck_assert_msg(strstr(r.err, want) && strstr(r.err, "mpi_ring"), "%s", r.err);
    cli_write("title: t\nplatform: ideal\nmapping:\n  rank0: 1\nworkload:\n  app: mpi_hello\n",
              "%s/remap.yaml", t);
    r = cli_run("run '%s/remap.yaml' --out '%s'", t, t);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "rank0 is mapped to core 1: rank r is core r"), "%s", r.err);
    r = run("ring", "--set args.inter=tcp", "sim");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "ring: inter 'tcp' is none of auto, dma, stream"), "%s", r.err);
    cli_done();
}
END_TEST

void cli_register_mpisim(void)
{
    Suite *s = harness_suite("cli-mpisim");
    tcase_add_test(harness_tcase(s, "latency"), mpisim_latency_sim);
    tcase_add_test(harness_tcase(s, "moves"), mpisim_latency_moves);
    tcase_add_test(harness_tcase(s, "bandwidth"), mpisim_bandwidth_sim);
    tcase_add_test(harness_tcase(s, "collectives"), mpisim_collectives_sim);
    tcase_add_test(harness_tcase(s, "examples"), mpisim_examples_sim);
    tcase_add_test(harness_tcase(s, "fails"), mpisim_fails_sim);
    tcase_add_test(harness_tcase(s, "bad_scenario"), mpisim_bad_scenario);
    /* In the native suite, so TSan runs (TEST_SUITES=native) cover it. */
    Suite *n = harness_suite("cli-native");
    tcase_add_test(harness_tcase(n, "mpisim_native"), mpisim_native);
    tcase_add_test(harness_tcase(n, "mpisim_fails_native"), mpisim_fails_native);
}
